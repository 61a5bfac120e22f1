"""The tables of seed 004 (Combat Procedure): surprise ranges (D12-02), movement by load (D12-15).

Pure functions over the encounter's combatants, so that each table is tested on its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from affray.model.encounter import Combatant

__all__ = ["SURPRISE_BASE", "move_squares", "rate_by_load", "surprise_range"]

#: D12-01: "A 1-4 on a d12 otherwise normally indicates surprise."
SURPRISE_BASE = 4

#: D12-15: (heaviest load in lb, human/elf/dwarf rate, halfling rate); over 105 lb: 3" and cannot move.
_LOADS = ((35, 12, 9), (70, 9, 6), (105, 6, 3))
_LOAD_NAMES = ("light", "heavy", "very heavy")

#: D12-15: the seed's squares per round for each rate in inches (12" = six squares, 9" four, 6" three, 3" two).
_SQUARES = {12: 6, 9: 4, 6: 3, 3: 2}


def rate_by_load(load: int, race: str) -> tuple[int, str]:
    """D12-15: movement rate in inches for ``load`` lb, and the table row that gave it."""
    halfling = race.lower() == "halfling"
    for limit, (heaviest, human, half) in zip(_LOAD_NAMES, _LOADS, strict=True):
        if load <= heaviest:
            rate = half if halfling else human
            return rate, f"{load} lb is {limit} (up to {heaviest} lb): {rate}\" for a {race.lower()}"
    rate = 0 if halfling else 3
    return rate, f"{load} lb is encumbered (over 105 lb): {'a halfling cannot move' if halfling else '3'}" + (
        "" if halfling else "\"")


def move_squares(mv: int) -> int:
    """D12-15: squares of 5 ft per round; the seed's table for 12", 9", 6" and 3", else half the inches."""
    return _SQUARES.get(mv, mv // 2)


def _monk(level: int | None) -> int:
    """D12-02: a monk of level 5-8 is surprised -1, 9-12 -2, 13 and up -3."""
    lv = level or 0
    return 3 if lv >= 13 else 2 if lv >= 9 else 1 if lv >= 5 else 0


def _odds(odds: str | None) -> int:
    """D12-02: a monster listed as surprised 1/8 is surprised -2; 1/10 or better -3."""
    if odds is None:
        return 0
    n = int(odds.split("/")[1])
    return 3 if n >= 10 else 2 if n >= 8 else 0


def surprise_range(own: Iterable[Combatant], foes: Iterable[Combatant], adjust: int = 0, *,
                   stack: bool = True) -> tuple[int, list[str]]:
    """D12-02: the range 1-N on which a side is surprised, and each modifier that moved it.

    Adjustments move the range, not the die; one member's ability serves the whole side; different
    modifiers stack (``stack``; else only the largest widening and the largest narrowing count), the
    same one counts once per side. ``adjust`` is the referee's (D12-02, "heightened alert").
    """
    own, foes = list(own), list(foes)
    widen: list[tuple[int, str]] = []
    narrow: list[tuple[int, str]] = []
    scout = next((c for c in foes if c.on_point and c.race.lower() in ("elf", "halfling")), None)
    if scout is not None:
        widen.append((4, f"{scout.race.lower()} on point among the foes ({scout.name}): 1-8"))
    ranger = next((c for c in foes if c.klass == "ranger"), None)
    if ranger is not None:
        widen.append((2, f"ranger among the foes ({ranger.name}) +2"))
    ranger = next((c for c in own if c.klass == "ranger"), None)
    if ranger is not None:
        narrow.append((2, f"own ranger ({ranger.name}) -2"))
    monk = max((c for c in own if c.klass == "monk"), key=lambda c: _monk(c.level), default=None)
    if monk is not None and _monk(monk.level):
        narrow.append((_monk(monk.level), f"own monk level {monk.level} ({monk.name}) -{_monk(monk.level)}"))
    beast = max(own, key=lambda c: _odds(c.surprise_odds), default=None)
    if beast is not None and _odds(beast.surprise_odds):
        n = _odds(beast.surprise_odds)
        narrow.append((n, f"{beast.name} listed surprised {beast.surprise_odds} -{n}"))
    if not stack:
        widen = sorted(widen, reverse=True)[:1]
        narrow = sorted(narrow, reverse=True)[:1]
    notes = [w for _, w in widen] + [n for _, n in narrow]
    rng = SURPRISE_BASE + sum(n for n, _ in widen) - sum(n for n, _ in narrow)
    if adjust:
        notes.append(f"the referee's adjustment {adjust:+d}")
        rng += adjust
    return max(0, min(12, rng)), notes
