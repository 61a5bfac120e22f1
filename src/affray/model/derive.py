"""What the seeds define when an encounter file leaves it out: THAC0, attacks per round, ability adjustments.

Tables are the standard AD&D ones the seeds defer to; each function names its source.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

__all__ = [
    "CLASS_GROUP",
    "NATURAL_SF",
    "attacks_in_round",
    "attacks_per_round",
    "dex_defense_adjustment",
    "dex_reaction_adjustment",
    "hd_value",
    "save_vs_spell",
    "thac0_for",
]

#: 2nd-edition class groups (DMG Table 37); the monk, not a 2e class, uses the priest row as in 1e.
CLASS_GROUP: dict[str, str] = {
    "fighter": "warrior",
    "paladin": "warrior",
    "ranger": "warrior",
    "cleric": "priest",
    "druid": "priest",
    "monk": "priest",
    "wizard": "wizard",
    "illusionist": "wizard",
    "thief": "rogue",
    "bard": "rogue",
}

#: Combat II's Table 2 (C2-02, seed 000): the speed factor of a natural attack (claw, bite) by the creature's size;
#: speed-segments reads it too, for a natural attack no Spd is listed for (its option ``natural_spd``).
NATURAL_SF: dict[str, int] = {"tiny": 0, "small": 2, "medium": 3, "large": 6, "huge": 8, "gargantuan": 10}

_HD_RE = re.compile(r"^\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


def hd_value(hd: str | float) -> float:
    """Effective Hit Dice for THAC0: "3+3" counts as 4 (DMG: three or more added points count another die)."""
    if isinstance(hd, (int, float)):
        return float(hd)
    text = hd.strip()
    if text in ("1/2", "½"):
        return 0.5
    m = _HD_RE.match(text)
    if not m:
        raise ValueError(f"not a Hit Dice value: {hd!r} (use 3, 3+3, 1-1 or 1/2)")
    base = int(m.group(1))
    if m.group(2) == "-":
        return base - 0.5
    if m.group(2) == "+" and int(m.group(3)) >= 3:
        return base + 1.0
    return float(base)


def thac0_for(cls: str, level: int | None, hd: str | float | None) -> int:
    """THAC0 from class and level (2e DMG Table 38) or from Hit Dice (2e DMG Table 39); 20 with neither."""
    if cls != "monster" and level is not None:
        group = CLASS_GROUP[cls]
        lv = max(1, level)
        if group == "warrior":
            t = 21 - lv
        elif group == "priest":
            t = 20 - 2 * ((lv - 1) // 3)
        elif group == "rogue":
            t = 20 - (lv - 1) // 2
        else:
            t = 20 - (lv - 1) // 3
        return max(1, t)
    if hd is not None:
        h = hd_value(hd)
        if h < 1:  # "1/2 or less" and "1-1" columns
            return 20
        # Table 39 pairs the columns 1-2, 3-4, ... 15-16 from 19 down by two; 16+ stays at 5.
        return max(5, 21 - 2 * math.ceil(min(h, 16.0) / 2))
    return 20


#: 2e PH Table 60, the "Spell" column: (up to this level, the save) per class group, the last row open-ended.
_SAVE_VS_SPELL: dict[str, tuple[tuple[int, int], ...]] = {
    "priest": ((3, 15), (6, 14), (9, 12), (12, 11), (15, 10), (18, 9), (99, 7)),
    "rogue": ((4, 15), (8, 13), (12, 11), (16, 9), (20, 7), (99, 5)),
    "warrior": ((0, 19), (2, 17), (4, 16), (6, 14), (8, 13), (10, 11), (12, 10), (14, 8), (16, 7), (99, 6)),
    "wizard": ((5, 12), (10, 10), (15, 8), (20, 6), (99, 4)),
}


def save_vs_spell(cls: str, level: int | None, hd: str | float | None) -> int:
    """The d20 roll that saves against a spell: 2e PH Table 60 by class group and level; a monster saves as a
    warrior of its Hit Dice (2e DMG, "Monsters save as warriors"), below 1 HD as a 0-level warrior."""
    if cls == "monster" or level is None:
        group, lv = "warrior", (int(hd_value(hd)) if hd is not None else 0)
    else:
        group, lv = CLASS_GROUP[cls], level
    rows = _SAVE_VS_SPELL[group]
    return next((save for top, save in rows if lv <= top), rows[-1][1])  # the last row is open-ended ("17+")


# D12-14 (1e PH): levels at which 1/1 becomes 3/2 and 3/2 becomes 2/1.
_ATTACK_STEPS_1E: dict[str, tuple[int, int]] = {
    "fighter": (7, 13),
    "paladin": (8, 14),
    "ranger": (8, 15),
    "monk": (6, 12),
}


def attacks_per_round(cls: str, level: int | None, *, scheme: str, specialist: bool = False) -> Fraction:
    """Attacks per round by class and level: scheme "1e" (D12-14) or "2e" (P2-07, fighters only)."""
    if level is None:
        return Fraction(1)
    if scheme == "1e":
        steps = _ATTACK_STEPS_1E.get(cls)
        if steps is None:
            return Fraction(1)
        return Fraction(1) if level < steps[0] else Fraction(3, 2) if level < steps[1] else Fraction(2)
    if scheme == "2e":
        if cls not in ("fighter", "paladin", "ranger"):
            return Fraction(1)
        tier = 0 if level <= 6 else 1 if level <= 12 else 2
        table = (Fraction(3, 2), Fraction(2), Fraction(5, 2)) if specialist else (
            Fraction(1), Fraction(3, 2), Fraction(2))
        return table[tier]
    raise ValueError(f"unknown attack scheme {scheme!r}")


_REACTION_1E = {3: -3, 4: -2, 5: -1, 16: 1, 17: 2, 18: 3}
_REACTION_LOW = {2: -4, 3: -3, 4: -2, 5: -1}
_DEFENSE = {1: 5, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1, 15: -1, 16: -2, 17: -3, 18: -4}


def dex_reaction_adjustment(dex: int, *, edition: str = "2e") -> int:
    """Reaction (initiative) adjustment; positive is better and is subtracted from the die (P1-02, D12-04)."""
    if edition == "1e":  # D12-04: 3: -3, 4: -2, 5: -1, 6-15: 0, 16: +1, 17: +2, 18: +3
        if dex >= 18:
            return 3
        return _REACTION_1E.get(dex, 0) if dex > 3 else -3
    # P1-02 (2e PH Table 2): 1: -6, 2: -4, 3: -3, 4: -2, 5: -1, 6-15: 0, 16: +1, 17-18: +2,
    # 19-20: +3, 21-23: +4, 24-25: +5
    if dex <= 1:
        return -6
    if dex in _REACTION_LOW:
        return _REACTION_LOW[dex]
    if dex <= 15:
        return 0
    if dex == 16:
        return 1
    if dex <= 18:
        return 2
    if dex <= 20:
        return 3
    return 4 if dex <= 23 else 5


def dex_defense_adjustment(dex: int) -> int:
    """Defensive adjustment to AC (2e PH Table 2), negative is better: 15: -1 ... 18: -4, 3: +4."""
    if dex in _DEFENSE:
        return _DEFENSE[dex]
    if 7 <= dex <= 14:
        return 0
    return -4 if dex <= 20 else -5 if dex <= 23 else -6


def attacks_in_round(rate: Fraction | int, rnd: int) -> int:
    """Attacks due in round ``rnd`` (from 1) at ``rate`` per round: 3/2 gives 1, 2, 1, 2... (D12-14)."""
    if isinstance(rate, int):  # a whole rate is due every round (and a Fraction's fields are generic reads)
        return rate
    n, d = rate.numerator, rate.denominator
    return (n * rnd) // d - (n * (rnd - 1)) // d
