"""Builders for the d12-procedure rule tests (D12-01 to D12-22): small encounters with every die pinned.

Defaults worked out once (RULES.md G-04 and the tables the digest defers to):
- ``pc(...)``: a level-1 fighter, THAC0 21 - 1 = 20, AC 5, 10 hp, MV 12" = 6 squares = 30 ft (D12-15),
  DEX 10 (reaction adjustment 0), one attack a round (D12-14, fighter 1-6: 1/1).
- ``orc(...)``: a 1 HD monster, THAC0 19, AC 6, 5 hp, MV 12" = 30 ft.
So a PC needs d20 >= 20 - 6 = 14 against an orc, and an orc 19 - 5 = 14 against a PC.
Ticks are (round, phase, count, sub, part): phase 3 holds the counts, 4 the end of the round.
"""

from __future__ import annotations

from typing import Any

import builders
from side_d6_helpers import (
    AXE,
    MISS,
    NONE,
    SHORT_BOW,
    SPEAR,
    SWORD,
    attacks,
    encounter,
    events,
    hp,
    melee,
    miss_on,
    missile,
    one,
    run_pinned,
)

__all__ = [
    "AXE",
    "MISS",
    "NONE",
    "SHORT_BOW",
    "SPEAR",
    "SWORD",
    "attacks",
    "count_of",
    "encounter",
    "events",
    "hp",
    "mage",
    "melee",
    "miss_on",
    "missile",
    "one",
    "orc",
    "pc",
    "play",
    "rounds",
    "run_doc",
]


def pc(name: str, **kw: Any) -> dict[str, Any]:
    """A level-1 fighter: THAC0 20, AC 5, 10 hp, a 1d8 sword (SF 5, reach 5)."""
    return builders.pc(name, SWORD, **kw)


def orc(name: str, **kw: Any) -> dict[str, Any]:
    """A 1 HD monster: THAC0 19, AC 6, 5 hp, a 1d8 axe (SF 7, reach 5)."""
    return builders.orc(name, AXE, **kw)


def mage(name: str, *spells: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A level-1 wizard (AC 10, 4 hp) with the spells given."""
    return builders.mage(name, list(spells), **kw)


def play(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], *,
         referee: dict[tuple[str, str], list[int]] | None = None, options: dict[str, Any] | None = None,
         max_rounds: int = 20, **kw: Any) -> dict[str, Any]:
    """Run under d12-procedure and return the timeline document. ``referee`` gives dice the file cannot
    (attacks of opportunity): {(purpose, actor): [values in order]}. No die may come from the RNG."""
    return run_doc(encounter(sides, plan, **kw), referee=referee, options=options, max_rounds=max_rounds)


def run_doc(text: str, *, referee: dict[tuple[str, str], list[int]] | None = None,
            options: dict[str, Any] | None = None, max_rounds: int = 20) -> dict[str, Any]:
    return run_pinned(text, "d12-procedure", referee=referee, options=options, max_rounds=max_rounds)


def count_of(event: dict[str, Any]) -> tuple[int, int, int]:
    """(round, phase, count) of a tick."""
    r, phase, count = event["tick"][:3]
    return r, phase, count


def rounds(n: int, party: int, foes: int, foes_side: str = "orcs") -> dict[int, dict[str, int]]:
    return {r: {"party": party, foes_side: foes} for r in range(1, n + 1)}

