"""Builders for the phase-count rule tests (PC-01 to PC-12): small encounters with every die pinned.

Defaults worked out once (RULES.md G-04, PC-03):
- ``pc(...)``: a level-1 fighter, THAC0 20, AC 5, 10 hp, MV 12, a sword of SF 5: PM 3 (5-7).
- ``orc(...)``: a 1 HD monster, THAC0 19, AC 6, 5 hp, MV 12, an axe of SF 7: PM 3 (5-7).
So a PC needs d20 >= 20 - 6 = 14 against an orc, and an orc 19 - 5 = 14 against a PC.
A full move is MV x 10 ft = 120 ft for MV 12, a half move 60 ft, a withdrawal 40 ft.
Ticks are (phase, stage, rank): stage 0 expiries and guards, 1 surprise, 2 spells, 3 shooting,
4 movement, 5 melee, 6 other; rank 1 is the side with the lower opening d6.
"""

from __future__ import annotations

from typing import Any

import builders
from side_d6_helpers import attacks, encounter, events, hp, melee, missile, one, run_pinned

__all__ = ["AXE", "DAGGER", "SHORT_BOW", "SWORD", "attacks", "events", "hp", "mage", "melee", "missile", "one",
           "orc", "pc", "phases", "play"]

SWORD = {"name": "sword", "sf": 5, "damage": "1d8"}
AXE = {"name": "axe", "sf": 7, "damage": "1d8"}
DAGGER = {"name": "dagger", "sf": 2, "speed": "fast", "damage": "1d4"}
SHORT_BOW = {"name": "short bow", "sf": 7, "damage": "1d6", "kind": "missile", "rate": 2}


def pc(name: str, **kw: Any) -> dict[str, Any]:
    """A level-1 fighter: THAC0 20, AC 5, 10 hp, a 1d8 sword of SF 5."""
    return builders.pc(name, SWORD, **kw)


def orc(name: str, **kw: Any) -> dict[str, Any]:
    """A 1 HD monster: THAC0 19, AC 6, 5 hp, a 1d8 axe of SF 7."""
    return builders.orc(name, AXE, **kw)


def mage(name: str, *spells: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A level-1 wizard (AC 10, 4 hp) with the given spells."""
    return builders.mage(name, list(spells), **kw)


def play(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], *, opening: dict[str, int],
         referee: dict[tuple[str, str], list[int]] | None = None, options: dict[str, Any] | None = None,
         pinned: bool = True, max_rounds: int = 20, **kw: Any) -> dict[str, Any]:
    """Run under phase-count and return the timeline. ``opening`` is the battle's opening d6 per side.
    ``referee`` gives dice the file cannot carry (attacks of opportunity): {(purpose, actor): [values]}.
    With ``pinned`` no die may come from the RNG, so every expectation is worked out by hand."""
    return run_pinned(encounter(sides, plan, initiative={0: opening}, **kw), "phase-count", referee=referee,
                      options=options, max_rounds=max_rounds, pinned=pinned)


def phases(doc: dict[str, Any], kind: str | tuple[str, ...], actor: str | None = None) -> list[int]:
    """The phases (tick[0]) of the events of ``kind`` by ``actor``, in order."""
    return [e["tick"][0] for e in events(doc, kind, actor)]
