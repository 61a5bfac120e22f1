"""One attack's chance to hit and its damage, exactly (G-04; C2X-04 under the severity rules).

G-04: d20 + bonus >= THAC0 - AC hits; a natural 20 always hits and a natural 1 always misses (option
``natural_20``); damage is the weapon's dice + bonuses, at least 1. Under C2X-04 (option ``crits:
c2-severity``) each point of the total over the number needed adds 1 damage, and a natural 20 throws the
base dice at their maximum (plus that severity); a miss by 5 or more slows the next strike by
needed - 5 - total SF, at most the weapon's SF except on a natural 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from affray.dice.expr import DiceExpr, parse_dice
from affray.errors import OptionError
from affray.limits import MAX_ODDS_OUTCOMES

__all__ = ["AttackOdds", "attack", "dice_die"]

CRITS = ("none", "c2-severity")


@dataclass(frozen=True)
class AttackOdds:
    """``damage`` maps each damage to its chance, 0 being a miss; ``slowed`` (severity rules) the SF the next
    strike is slowed by."""

    need: int  # the d20 + bonus needed: THAC0 - AC
    hit: Fraction
    damage: dict[int, Fraction]
    mean: Fraction  # mean damage of the attack, misses counting 0
    mean_on_hit: Fraction
    slowed: dict[int, Fraction]
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {"need": self.need, "hit": float(self.hit),
                "mean": float(self.mean), "mean_on_hit": float(self.mean_on_hit),
                "damage": {str(k): float(v) for k, v in self.damage.items()},
                "slowed": {str(k): float(v) for k, v in self.slowed.items()},
                "exact": {"hit": str(self.hit), "mean": str(self.mean),
                          "damage": {str(k): str(v) for k, v in self.damage.items()},
                          "slowed": {str(k): str(v) for k, v in self.slowed.items()}},
                "rule": self.rule}


def dice_die(expr: DiceExpr) -> icepool.Die[int]:
    """The dice of ``expr`` without its constant, as one icepool die of their sum."""
    total: icepool.Die[int] = icepool.Die([0])
    for n, sides in expr.groups:
        total = total + n @ icepool.d(sides)
    return total


def attack(thac0: int, ac: int, damage: str, *, hit_bonus: int = 0, damage_bonus: int = 0, crits: str = "none",
           natural_20: bool = True, sf: int = 0) -> AttackOdds:
    """The odds of one attack roll and its damage; ``sf`` (the weapon's) caps a severe miss's slowing."""
    if crits not in CRITS:
        raise OptionError(f"--crits {crits!r}: choose one of {', '.join(CRITS)}")
    try:
        expr = parse_dice(damage)
    except ValueError as exc:
        raise OptionError(f"--damage: {exc}") from None
    totals = sum(n * (sides - 1) for n, sides in expr.groups) + 1
    if totals > MAX_ODDS_OUTCOMES:  # their exact odds cost about totals^1.5: refused before any is worked out
        raise OptionError(f"--damage {damage}: its dice total {totals:,} different values; exact odds are worked out "
                          f"for at most {MAX_ODDS_OUTCOMES:,} (limit: NdS takes N x (S - 1) + 1, e.g. 50d100 or "
                          "5d1000); `affray simulate` plays any dice")
    need = thac0 - ac
    bonus = expr.bonus + damage_bonus
    top = expr.dice_max
    severity = crits == "c2-severity"
    d20 = icepool.d20

    def hits(d: int) -> bool:
        return d == 20 if natural_20 and d in (1, 20) else d + hit_bonus >= need

    def dealt(d: int, rolled: int) -> int:
        if not hits(d):
            return 0
        over = max(0, d + hit_bonus - need) if severity else 0
        base = top if severity and d == 20 else rolled
        return max(1, base + over + bonus)

    dist: icepool.Die[int] = icepool.map(dealt, d20, dice_die(expr))
    hit = Fraction(sum(1 for d in range(1, 21) if hits(d)), 20)
    probs = {int(k): Fraction(dist.probability(k)) for k in dist.outcomes()}
    mean = sum((k * p for k, p in probs.items()), Fraction(0))

    def slowed(d: int) -> int:
        if not severity or hits(d):
            return 0
        penalty = max(0, need - 5 - (d + hit_bonus))
        return penalty if d == 1 else min(penalty, sf) if need - (d + hit_bonus) >= 5 else 0

    slow = icepool.map(slowed, d20)
    slow_probs = {int(k): Fraction(slow.probability(k)) for k in slow.outcomes()}
    rule = ("C2X-04: +1 damage a point over the number needed, maximum base dice on a natural 20; a miss by 5 "
            "or more slows the next strike" if severity else "G-04: weapon dice + bonuses, at least 1")
    return AttackOdds(need=need, hit=hit, damage=probs,
                      mean=mean, mean_on_hit=mean / hit if hit else Fraction(0), slowed=slow_probs, rule=rule)
