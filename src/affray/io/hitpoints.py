"""Hit points rolled when the fight starts (CONTRACT.md "The catalogue"): from ``hp: 3d8``, or from a monster's Hit
Dice when it gives no ``hp``, once, from the seed, unless ``rolls: {hp: {NAME: N}}`` gives it.

The dice come from a generator of their own, not the fight's: each die of each combatant is a SHA-256 of the seed,
the combatant's name and the die's place, so the fight's own dice (``affray.dice.roller``) are untouched, a file
whose hit points are all written runs as it always did, and one combatant's hit points do not change when another
is added. The recipe is fixed: a saved fight keeps its rolled hit points in its stored encounter besides.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from affray.dice.expr import DiceExpr, parse_dice
from affray.model.derive import hd_value

__all__ = ["HpRoll", "hd_dice", "roll_hp"]

#: Bumped only with a new recipe (a saved fight stores its hit points, so an old one never needs the old recipe).
_RECIPE = "affray-hp-1"


@dataclass(frozen=True)
class HpRoll:
    """Hit points to roll for the combatant at ``side``'s ``index``: ``dice`` for each of ``names`` (its ``count``
    expanded), and ``given``, the ones ``rolls.hp`` gives."""

    side: str
    index: int
    dice: DiceExpr
    names: tuple[str, ...]
    given: tuple[int | None, ...]

    def values(self, seed: int) -> list[int]:
        """The hit points of each of ``names`` under ``seed`` (given ones as given)."""
        return [g if g is not None else roll_hp(self.dice, seed, name) for name, g in zip(self.names, self.given,
                                                                                          strict=True)]


def hd_dice(hd: str | float) -> DiceExpr:
    """The hit point dice of Hit Dice: ``3`` is 3d8, ``3+3`` 3d8+3, ``1-1`` 1d8-1, ``1/2`` (or below one) 1d4."""
    value = hd_value(hd)
    if isinstance(hd, str) and ("+" in hd or "-" in hd):
        base, sign, extra = hd.replace(" ", "").partition("+" if "+" in hd else "-")
        return parse_dice(f"{int(base)}d8{sign}{int(extra)}") if int(base) >= 1 else parse_dice("1d4")
    if value < 1:
        return parse_dice("1d4")
    return parse_dice(f"{int(value)}d8")


def roll_hp(dice: DiceExpr, seed: int, name: str) -> int:
    """``dice`` rolled for ``name`` under ``seed`` by the recipe above; at least 1."""
    total = dice.bonus
    k = 0
    for n, sides in dice.groups:
        for _ in range(n):
            digest = hashlib.sha256(f"{_RECIPE}/{seed}/{name}/{k}".encode()).digest()
            total += 1 + int.from_bytes(digest[:8], "big") % sides
            k += 1
    return max(1, total)
