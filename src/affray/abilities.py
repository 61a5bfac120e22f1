"""Ability tables of Combat II's supplemental rules (C2X-01, C2X-02, C2X-04, C2X-05).

Strength (2e PH Table 1) and its Combat II reading; Agility's and Dexterity's thief skill
adjustments; Perception. Scores come from the combatant (``str: 18/99`` gives 18 and 99).
"""

from __future__ import annotations

from affray.model.encounter import Combatant

__all__ = ["AGI_SKILLS", "DEX_SKILLS", "c2_strength", "perception", "strength",
           "thief_skill_adjustment"]

#: 2e PH Table 1: STR score -> (to hit, damage); 18 with percentiles in ``_EXCEPTIONAL``.
_STRENGTH: dict[int, tuple[int, int]] = {
    1: (-5, -4), 2: (-3, -2), 3: (-3, -1), 4: (-2, -1), 5: (-2, -1), 6: (-1, 0), 7: (-1, 0),
    16: (0, 1), 17: (1, 1), 18: (1, 2), 19: (3, 7), 20: (3, 8), 21: (4, 9), 22: (4, 10), 23: (5, 11),
    24: (6, 12), 25: (7, 14),
}
#: 18/01-50, 18/51-75, 18/76-90, 18/91-99, 18/00 (written 100)
_EXCEPTIONAL: tuple[tuple[int, tuple[int, int]], ...] = ((50, (1, 3)), (75, (2, 3)), (90, (2, 4)), (99, (2, 5)),
                                                        (100, (3, 6)))


def strength(score: int, exceptional: int | None = None) -> tuple[int, int]:
    """(to hit, damage) of a Strength score, 2e PH Table 1 (8-15: none)."""
    if score == 18 and exceptional:
        return next(adj for top, adj in _EXCEPTIONAL if exceptional <= top)
    return _STRENGTH.get(score, (0, 0))


def c2_strength(score: int, exceptional: int | None = None) -> tuple[int, int]:
    """C2X-04: the damage bonus becomes damage - to hit, a bonus of +1 or below kept as is (18/99: +2/+3)."""
    hit, dmg = strength(score, exceptional)
    return hit, dmg if dmg <= 1 else dmg - hit


#: C2X-01: thief skills adjusted by AGI (with the option) and by DEX.
AGI_SKILLS = ("move silently", "hide in shadows", "climb walls")
DEX_SKILLS = ("pick pockets", "open locks", "find/remove traps")
_AGI_SKILL_ADJ = {9: -10, 10: -5, 17: 5, 18: 10, 19: 15}
#: 2e PH Table 28 (the DEX skills): score -> (pick pockets, open locks, find/remove traps)
_DEX_SKILL_ADJ: dict[int, tuple[int, int, int]] = {
    9: (-15, -10, -10), 10: (-10, -5, -10), 11: (-5, 0, -5), 12: (0, 0, 0), 16: (0, 5, 0), 17: (5, 10, 0),
    18: (10, 15, 5), 19: (15, 20, 10),
}


def thief_skill_adjustment(skill: str, spec: Combatant, *, agility: bool) -> int:
    """C2X-01: the percentage a thief skill gains or loses by its ability (AGI for moving skills, DEX for the
    hands'); without the Agility option DEX serves for both (9 -10%, 10 -5%, 17 +5%, 18 +10%, 19 +15%)."""
    if skill in AGI_SKILLS:
        score = spec.agi if agility and spec.agi is not None else spec.dex
        return _AGI_SKILL_ADJ.get(min(score, 19), 0) if score >= 9 else -10
    if skill in DEX_SKILLS:
        row = _DEX_SKILL_ADJ.get(min(spec.dex, 19))
        if row is None:
            row = (-15, -10, -10) if spec.dex < 9 else (0, 0, 0)
        return row[DEX_SKILLS.index(skill)]
    raise ValueError(f"unknown thief skill {skill!r}; one of {', '.join(AGI_SKILLS + DEX_SKILLS)}")


def perception(spec: Combatant, *, thief_bonus: bool = False) -> float:
    """C2X-02: the average of INT and WIS plus 1 a level (option: thieves 2 a level)."""
    per_level = 2 if thief_bonus and spec.klass == "thief" else 1
    return (spec.int_ + spec.wis) / 2 + per_level * (spec.level or 0)
