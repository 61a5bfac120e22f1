"""Rates with their 95% Wilson score interval; means and differences with theirs.

- a rate: the Wilson score interval (``wilson``);
- a mean (a fight's length, its damage): the normal approximation, mean +- z s / sqrt(n), s the sample standard
  deviation (``mean_interval``);
- a difference of two rates measured on different fights (two rulesets: their dice differ from the first roll):
  Newcombe's hybrid score interval from the two Wilson intervals (``unpaired_rates``); of two means, Welch's
  normal interval (``unpaired_means``);
- a difference measured on the same fights (two grid points of one ruleset play the same seeds, common random
  numbers): the mean of the per-fight differences and its normal interval (``paired``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Z95", "Difference", "Interval", "Mean", "mean_interval", "paired", "unpaired_means", "unpaired_rates",
           "wilson"]

#: The standard normal's 97.5th percentile: a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """A rate ``p`` = successes / trials and its 95% interval [low, high]."""

    p: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"p": round(self.p, 6), "low": round(self.low, 6), "high": round(self.high, 6)}


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """The Wilson score interval of ``successes`` in ``trials`` (0 trials: the whole of [0, 1]).

    centre = (p + z^2/2n) / (1 + z^2/n), half-width = z / (1 + z^2/n) * sqrt(p(1 - p)/n + z^2/4n^2).
    """
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # the interval always holds p; the bounds say so exactly, whatever the rounding of the floats
    return Interval(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(frozen=True)
class Mean:
    """A mean over ``n`` fights and its 95% interval."""

    mean: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        return {"mean": round(self.mean, 6), "low": round(self.low, 6), "high": round(self.high, 6), "n": self.n}


def mean_interval(total: float, squares: float, n: int, z: float = Z95) -> Mean:
    """The mean of ``n`` values from their sum and sum of squares, with mean +- z s / sqrt(n) (s: the sample
    standard deviation; fewer than two values: no spread known, the interval is the mean)."""
    if n <= 0:
        return Mean(0.0, 0.0, 0.0, 0)
    mean = total / n
    if n < 2:
        return Mean(mean, mean, mean, n)
    var = max(0.0, (squares - total * total / n) / (n - 1))
    half = z * math.sqrt(var / n)
    return Mean(mean, mean - half, mean + half, n)


@dataclass(frozen=True)
class Difference:
    """``a`` minus ``b`` of one measure, with its 95% interval; ``paired``: measured on the same fights."""

    a: str
    b: str
    measure: str
    diff: float
    low: float
    high: float
    paired: bool
    changed: int | None = None  # paired: fights whose value differs between a and b

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"a": self.a, "b": self.b, "measure": self.measure, "diff": round(self.diff, 6),
                                  "low": round(self.low, 6), "high": round(self.high, 6), "paired": self.paired}
        if self.changed is not None:
            out["changed"] = self.changed
        return out


def unpaired_rates(a: str, b: str, measure: str, x1: int, n1: int, x2: int, n2: int) -> Difference:
    """x1/n1 - x2/n2 on different fights: Newcombe's hybrid score interval (his method 10), from the Wilson
    interval of each: d - sqrt((p1 - l1)^2 + (u2 - p2)^2) to d + sqrt((u1 - p1)^2 + (p2 - l2)^2)."""
    w1, w2 = wilson(x1, n1), wilson(x2, n2)
    d = w1.p - w2.p
    low = d - math.sqrt((w1.p - w1.low) ** 2 + (w2.high - w2.p) ** 2)
    high = d + math.sqrt((w1.high - w1.p) ** 2 + (w2.p - w2.low) ** 2)
    return Difference(a, b, measure, d, max(-1.0, low), min(1.0, high), False)


def unpaired_means(a: str, b: str, measure: str, m1: Mean, m2: Mean, z: float = Z95) -> Difference:
    """Two means of different fights: d +- z sqrt(s1^2/n1 + s2^2/n2) (Welch's, normal), each s^2/n read back from
    its own interval's half-width."""
    h1 = (m1.high - m1.mean) / z
    h2 = (m2.high - m2.mean) / z
    half = z * math.sqrt(h1 * h1 + h2 * h2)
    d = m1.mean - m2.mean
    return Difference(a, b, measure, d, d - half, d + half, False)


def paired(a: str, b: str, measure: str, xs: Sequence[float], ys: Sequence[float], z: float = Z95) -> Difference:
    """The mean of x_i - y_i over the same fights, +- z s_d / sqrt(n); ``changed``: how many differ."""
    n = min(len(xs), len(ys))
    total = squares = 0.0
    changed = 0
    for x, y in zip(xs, ys, strict=False):
        d = x - y
        total += d
        squares += d * d
        changed += d != 0
    m = mean_interval(total, squares, n, z)
    return Difference(a, b, measure, m.mean, m.low, m.high, True, changed)
