"""Two figures a designer checks a house rule against, exactly (icepool, never sampled): a contest of two rolls (an
initiative die against another, with a bonus, high or low winning, a tie together or rolled again), and how many hits
fell a creature of given hit points (G-04: a hit does its dice, at least 1).

``contest``: A's roll against B's; ``ties`` "together" leaves a tie as a tie (side-d6's MJ-07, Combat II's loser
track), "reroll" rolls both again until they differ (a decided contest: each side's chance is its share of the
decided rolls, a / (a + b)). ``hits_to_kill``: N hits fell a creature of H hit points when the damage of the first N
reaches H: P(more than k hits) = P(S_k < H), S_k the damage of k hits; the mean is the sum of those over k from 0
(a sum that ends, every hit doing 1 at least).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from affray.dice.expr import DiceExpr, parse_dice
from affray.errors import OptionError
from affray.limits import MAX_ODDS_OUTCOMES
from affray.odds.attack import dice_die

__all__ = ["TIES", "Contest", "Kill", "contest", "hits_to_kill"]

TIES = ("together", "reroll")


@dataclass(frozen=True)
class Contest:
    """A's roll against B's: the chance A wins, B wins, or they tie (0 with ties rolled again)."""

    a: Fraction
    b: Fraction
    together: Fraction
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {"a": float(self.a), "b": float(self.b), "together": float(self.together),
                "exact": {"a": str(self.a), "b": str(self.b), "together": str(self.together)}, "rule": self.rule}


@dataclass(frozen=True)
class Kill:
    """How many hits fell a creature of ``hp`` hit points (dice or a number) with ``damage`` a hit: the mean, and the
    chance each number of hits is the one that fells it."""

    mean: Fraction
    hits: dict[int, Fraction]
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {"mean": float(self.mean), "hits": {str(k): float(v) for k, v in self.hits.items()},
                "exact": {"mean": str(self.mean), "hits": {str(k): str(v) for k, v in self.hits.items()}},
                "rule": self.rule}


def _die(text: str, option: str) -> tuple[DiceExpr, icepool.Die[int]]:
    """``text`` (dice notation or a whole number) as an icepool die of its total, constant included."""
    try:
        expr = parse_dice(text)
    except ValueError as exc:
        raise OptionError(f"{option} {text}: {exc}") from None
    totals = sum(n * (sides - 1) for n, sides in expr.groups) + 1
    if totals > MAX_ODDS_OUTCOMES:
        raise OptionError(f"{option} {text}: its dice total {totals:,} different values; exact odds are worked out "
                          f"for at most {MAX_ODDS_OUTCOMES:,} (limit)")
    return expr, dice_die(expr) + expr.bonus


def contest(a: str, b: str, *, low: bool = False, ties: str = "together") -> Contest:
    """A's roll (``a``, e.g. ``1d6+1``) against B's (``b``): the higher wins (``low``: the lower)."""
    if ties not in TIES:
        raise OptionError(f"--ties {ties!r}: choose one of {', '.join(TIES)}")
    _, da = _die(a, "--a")
    _, db = _die(b, "--b")
    first = (da < db) if low else (da > db)
    second = (da > db) if low else (da < db)
    pa, pb = Fraction(first.probability(True)), Fraction(second.probability(True))
    together = 1 - pa - pb
    if ties == "reroll" and pa + pb:
        pa, pb, together = pa / (pa + pb), pb / (pa + pb), Fraction(0)
    rule = (f"{a} against {b}, the {'lower' if low else 'higher'} first; "
            + ("a tie rolled again until they differ: each side's share of the decided rolls" if ties == "reroll"
               else "a tie together"))
    return Contest(pa, pb, together, rule)


def hits_to_kill(hp: str, damage: str) -> Kill:
    """How many hits of ``damage`` (dice + bonus, at least 1 a hit, G-04) fell a creature of ``hp`` hit points (dice:
    rolled once, as a monster's from its Hit Dice; or a number); it is down at 0 or below (G-05)."""
    _, health = _die(hp, "--hp")
    expr, hit = _die(damage, "--damage")
    blow = icepool.map(lambda d: max(1, d), hit)
    most = max(health.outcomes())
    beyond: list[Fraction] = []  # P(more than k hits needed) for k = 0, 1, ...
    dealt: icepool.Die[int] = icepool.Die([0])
    for _k in range(most + 1):
        left = Fraction((dealt < health).probability(True))
        if not left:
            break
        beyond.append(left)
        dealt = dealt + blow
    hits = {k: beyond[k - 1] - (beyond[k] if k < len(beyond) else Fraction(0)) for k in range(1, len(beyond) + 1)}
    rule = f"{hp} hit points, {expr.text} a hit (at least 1, G-04): N hits fell it when their damage reaches its hp"
    return Kill(sum(beyond, Fraction(0)), {k: p for k, p in hits.items() if p}, rule)
