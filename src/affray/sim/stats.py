"""Rates with their 95% Wilson score interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Z95", "Interval", "wilson"]

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
