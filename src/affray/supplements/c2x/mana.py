"""Combat II's supplemental magic (seed 000 section 5): mana pools, recovery and research (C2X-06 to C2X-09).

The seed builds its mana table from the 2nd-edition Player's Handbook spell progressions (priest
Table 24, wizard Table 21, ranger Table 23, paladin Table 20): a caster's points are the sum over
spell levels of (spells of that level x the level). Both the printed table and the progression
are kept here, and the tests hold one against the other row by row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from affray.errors import AffrayError
from affray.model.encounter import Combatant

__all__ = [
    "COLUMN",
    "MANA_TABLE",
    "PROGRESSION",
    "START_OPTIONS",
    "ManaError",
    "Pool",
    "column_for",
    "formula_mana",
    "highest_spell_level",
    "pool",
    "recovery_minutes",
    "research_days",
    "slots_for",
    "starting_pool",
    "wisdom_bonus_spells",
]


class ManaError(AffrayError, ValueError):
    """A class, level or ability the mana tables cannot answer for."""


#: C2X-06: the seed's table of base mana by level, columns priest / wizard / ranger / paladin, as printed
#: (None where it prints "--").
MANA_TABLE: dict[int, tuple[int, int, int | None, int | None]] = {
    1: (1, 1, None, None), 2: (2, 2, None, None), 3: (4, 4, None, None), 4: (7, 7, None, None),
    5: (12, 11, None, None), 6: (15, 14, None, None), 7: (19, 20, None, None), 8: (26, 27, 1, None),
    9: (34, 32, 2, 1), 10: (43, 39, 3, 2), 11: (53, 51, 4, 3), 12: (65, 66, 5, 4), 13: (74, 78, 6, 5),
    14: (90, 85, 7, 6), 15: (99, 94, 8, 7), 16: (111, 115, 9, 8), 17: (127, 130, 9, 9),
    18: (148, 139, 9, 9), 19: (151, 147, 9, 9), 20: (165, 162, 9, 9),
}
COLUMNS = ("priest", "wizard", "ranger", "paladin")

#: Spells per spell level (1st, 2nd, ...) by caster level: the PH progressions the seed converts.
PROGRESSION: dict[str, dict[int, tuple[int, ...]]] = {
    "priest": {  # PH Table 24
        1: (1,), 2: (2,), 3: (2, 1), 4: (3, 2), 5: (3, 3, 1), 6: (3, 3, 2), 7: (3, 3, 2, 1), 8: (3, 3, 3, 2),
        9: (4, 4, 3, 2, 1), 10: (4, 4, 3, 3, 2), 11: (5, 4, 4, 3, 2, 1), 12: (6, 5, 5, 3, 2, 2),
        13: (6, 6, 6, 4, 2, 2), 14: (6, 6, 6, 5, 3, 2, 1), 15: (6, 6, 6, 6, 4, 2, 1),
        16: (7, 7, 7, 6, 4, 3, 1), 17: (7, 7, 7, 7, 5, 3, 2), 18: (8, 8, 8, 8, 6, 4, 2),
        19: (9, 9, 8, 8, 6, 4, 2), 20: (9, 9, 9, 8, 7, 5, 2),
    },
    "wizard": {  # PH Table 21
        1: (1,), 2: (2,), 3: (2, 1), 4: (3, 2), 5: (4, 2, 1), 6: (4, 2, 2), 7: (4, 3, 2, 1), 8: (4, 3, 3, 2),
        9: (4, 3, 3, 2, 1), 10: (4, 4, 3, 2, 2), 11: (4, 4, 4, 3, 3), 12: (4, 4, 4, 4, 4, 1),
        13: (5, 5, 5, 4, 4, 2), 14: (5, 5, 5, 4, 4, 2, 1), 15: (5, 5, 5, 5, 5, 2, 1),
        16: (5, 5, 5, 5, 5, 3, 2, 1), 17: (5, 5, 5, 5, 5, 3, 3, 2), 18: (5, 5, 5, 5, 5, 3, 3, 2, 1),
        19: (5, 5, 5, 5, 5, 3, 3, 3, 1), 20: (5, 5, 5, 5, 5, 4, 3, 3, 2),
    },
    "ranger": {  # PH Table 23 (priest spells from 8th level)
        **{lv: () for lv in range(1, 8)},
        8: (1,), 9: (2,), 10: (2, 1), 11: (2, 2), 12: (2, 2, 1), 13: (3, 2, 1), 14: (3, 2, 2), 15: (3, 3, 2),
        **{lv: (3, 3, 3) for lv in range(16, 21)},
    },
    "paladin": {  # PH Table 20 (priest spells from 9th level)
        **{lv: () for lv in range(1, 9)},
        9: (1,), 10: (2,), 11: (2, 1), 12: (2, 2), 13: (2, 2, 1), 14: (3, 2, 1), 15: (3, 2, 1, 1),
        16: (3, 3, 1, 1), 17: (3, 3, 2, 1), 18: (3, 3, 3, 1), 19: (3, 3, 3, 2), 20: (3, 3, 3, 3),
    },
}

#: CONTRACT.md's classes and the table column each reads ("priest" means cleric or druid).
COLUMN: dict[str, str] = {"cleric": "priest", "druid": "priest", "wizard": "wizard", "magic-user": "wizard",
                          "illusionist": "wizard", "ranger": "ranger", "paladin": "paladin"}

#: PH Table 5: bonus priest spells by Wisdom (cumulative): the spell levels each score adds.
_WISDOM_BONUS: dict[int, tuple[int, ...]] = {13: (1,), 14: (1,), 15: (2,), 16: (2,), 17: (3,), 18: (4,),
                                             19: (1, 3), 20: (2, 4), 21: (3, 5), 22: (4, 5), 23: (5, 5),
                                             24: (6, 6), 25: (6, 7)}

#: C2X-06 starting mana: ``base`` the table; ``con`` CON/3 (up) when larger; ``con-added`` (option 1) CON/3
#: added at every level; ``prime`` and ``prime-added`` (option 2) the same with the average of CON and
#: the prime requisite (down) in place of CON.
START_OPTIONS = ("base", "con", "con-added", "prime", "prime-added")


def column_for(klass: str) -> str:
    column = COLUMN.get(klass)
    if column is None:
        raise ManaError(f"class {klass!r} has no column in the mana table (C2X-06); use one of "
                        f"{', '.join(COLUMN)}")
    return column


def _check_level(level: int) -> None:
    if not 1 <= level <= 20:
        raise ManaError(f"level {level}: the mana table (C2X-06) covers levels 1-20")


def formula_mana(column: str, level: int) -> int:
    """C2X-06: the sum over spell levels of spells x level (5th-level priest: 3x1 + 3x2 + 1x3 = 12)."""
    _check_level(level)
    return sum(n * (lv + 1) for lv, n in enumerate(PROGRESSION[column][level]))


def highest_spell_level(column: str, level: int) -> int:
    """The highest spell level castable (0: none yet); no spell above it (C2X-06)."""
    _check_level(level)
    return len(PROGRESSION[column][level])


def slots_for(column: str, level: int) -> dict[int, int]:
    """C2X-08: slots per spell level, straight from the PH progression."""
    _check_level(level)
    return {lv + 1: n for lv, n in enumerate(PROGRESSION[column][level])}


def wisdom_bonus_spells(wis: int, highest: int) -> tuple[int, ...]:
    """The spell levels of a priest's bonus spells for Wisdom (PH Table 5), those it can cast."""
    levels = [lv for score, extra in sorted(_WISDOM_BONUS.items()) if score <= wis for lv in extra]
    return tuple(lv for lv in levels if lv <= highest)


@dataclass(frozen=True)
class Pool:
    """What ``affray mana`` reports for one caster."""

    klass: str
    column: str
    level: int
    base: int  # the table's (or the formula's) base mana
    starting: dict[str, int]  # every starting-mana option's pool (C2X-06)
    option: str
    bonus_spells: tuple[int, ...]  # spell levels of Wisdom's bonus spells (priests)
    bonus: str  # "points": their points added; "boxes": free spells spent first
    highest: int
    slots: dict[int, int] = field(default_factory=dict)

    @property
    def bonus_points(self) -> int:
        return sum(self.bonus_spells) if self.bonus == "points" else 0

    @property
    def mana(self) -> int:
        return self.starting[self.option] + self.bonus_points


def pool(klass: str, level: int, *, con: int = 10, wis: int = 10, prime: int | None = None,
         option: str = "base", table: str = "seed", bonus: str = "points") -> Pool:
    """C2X-06: a caster's mana pool. ``table`` is ``seed`` (as printed) or ``formula`` (from the PH
    progression); they differ only in the ranger and paladin columns (RULES.md Decision)."""
    column = column_for(klass)
    _check_level(level)
    if option not in START_OPTIONS:
        raise ManaError(f"--option {option!r}: choose one of {', '.join(START_OPTIONS)}")
    if table not in ("seed", "formula"):
        raise ManaError(f"--table {table!r}: choose seed or formula")
    if bonus not in ("points", "boxes"):
        raise ManaError(f"--bonus {bonus!r}: choose points or boxes")
    for name, score in (("con", con), ("wis", wis), ("prime", prime)):
        if score is not None and not 1 <= score <= 25:
            raise ManaError(f"--{name} {score}: an ability score is 1-25")
    base = (MANA_TABLE[level][COLUMNS.index(column)] or 0) if table == "seed" else formula_mana(column, level)
    if prime is None:
        prime = wis if column != "wizard" else 10
    con_points = math.ceil(con / 3)
    prime_points = math.ceil(((con + prime) // 2) / 3)
    starting = {"base": base, "con": max(base, con_points), "con-added": base + con_points,
                "prime": max(base, prime_points), "prime-added": base + prime_points}
    highest = highest_spell_level(column, level)
    bonus_spells = wisdom_bonus_spells(wis, highest) if column == "priest" else ()
    return Pool(klass, column, level, base, starting, option, bonus_spells, bonus, highest,
                slots_for(column, level))


def recovery_minutes(points: int, highest: int, rest_hours: int = 8) -> dict[str, int | None]:
    """C2X-07: minutes to regain ``points`` under both rules: ``flat`` 10 a point; ``by_level`` (13 - highest
    spell level) a point after 8 hours' rest, +1 a point per hour of rest below 8, none below 4 hours."""
    if not 0 <= rest_hours <= 24:
        raise ManaError(f"--rest {rest_hours}: hours of rest are 0-24")
    flat = 10 * points
    if rest_hours < 4:
        by_level: int | None = None
    else:
        by_level = points * (13 - highest + max(0, 8 - rest_hours))
    return {"flat": flat, "by_level": by_level}


def starting_pool(spec: Combatant, spells: str, table: str,
                  start: str = "base") -> tuple[int | None, dict[int, int] | None, int]:
    """A caster's pool at the start of a fight under option ``spells`` (C2X-06/08): (mana, slots, highest
    level). The file's ``mana`` or ``slots`` (what it has left) win; else the table for class and level,
    with the starting-mana option ``start`` and a priest's Wisdom bonus points; a monster's innate spells
    are pooled (C2X-09): their levels summed, or a slot each."""
    column = COLUMN.get(spec.cls or spec.klass)
    level = min(max(spec.level or 1, 1), 20)
    if column is not None and spec.level is not None:
        highest = highest_spell_level(column, level)
        prime = spec.int_ if column == "wizard" else spec.wis
        base_mana = pool(spec.cls or spec.klass, level, con=spec.con, wis=spec.wis, prime=prime, option=start,
                         table=table).mana
        base_slots = slots_for(column, level)
    else:
        highest = max(s.level for s in spec.spells)
        base_mana = sum(s.level * s.count for s in spec.spells)
        base_slots = {}
        for s in spec.spells:
            if s.level:
                base_slots[s.level] = base_slots.get(s.level, 0) + s.count
    if spells == "mana":
        return (spec.mana if spec.mana is not None else base_mana), None, highest
    slots = dict(spec.spell_slots) if spec.spell_slots is not None else base_slots
    return None, slots, highest


def research_days(spell_level: int, *, library: bool) -> float:
    """C2X-09: 1/2 day of research per spell level with an arcane library and workshop, 1 day otherwise."""
    if not 1 <= spell_level <= 9:
        raise ManaError(f"--level {spell_level}: spell levels are 1-9")
    return spell_level * (0.5 if library else 1.0)
