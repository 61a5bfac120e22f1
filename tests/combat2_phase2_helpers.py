"""Builders for the combat2-phase2 rule tests (seed 000 section 3; RULES.md P2-*; /tmp/c2p2_spec.md).

The combatants and declarations are combat2_helpers' (level-1 fighter ``pc``: THAC0 20, AC 5, 10 hp, long sword
SF 5; 1 HD ``orc``: THAC0 19, AC 6, 5 hp, short sword SF 3; level-1 ``mage``: AC 10, 4 hp); only the ruleset and
the clock differ.

The clock (spec "Clock"): no rounds (``round`` is null); tick = (cycle, phase, slot, sub), phase 1/2/3 = A/B/C;
period = 3 (cycle - 1) + phase (period 1 = cycle 1 A, 4 = cycle 2 A); slot 0 stating intentions (sub 1: delays and
cast-starts), 1-6 the phase's half-segments (numbered 1-6 in every phase, Table 4), 7 movement, 8 the end of the
phase ("1 round" spells); (c, 0, 1, 0) the initiative rolled at the start of every A (P2-02).
"""

from __future__ import annotations

from typing import Any

from affray import load_text, prepare
from combat2_helpers import encounter, events
from side_d6_helpers import run_pinned

RULESET = "combat2-phase2"
LETTERS = "ABC"


def play2(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], *, options: dict[str, Any] | None = None,
          pinned: bool = True, max_rounds: int = 3, **kw: Any) -> dict[str, Any]:
    """Run under combat2-phase2 (``max_rounds`` counts cycles) and return the timeline document. With ``pinned``
    no die may come from the seed's RNG, so every expectation is worked out by hand."""
    return run_pinned(encounter(sides, plan, **kw), RULESET, options=options, max_rounds=max_rounds, pinned=pinned)


def check2(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], **kw: Any) -> None:
    options = kw.pop("options", None)
    prepare(load_text(encounter(sides, plan, **kw)), ruleset=RULESET, options=options)


def cycles(*rolls: tuple[int, int], sides: tuple[str, str] = ("party", "orcs")) -> dict[int, dict[str, int]]:
    """Initiative d10s by cycle: ``cycles((3, 7), (7, 3))`` = cycle 1 party 3 orcs 7 (party wins), cycle 2 the
    reverse (P2-02: rolled at every A)."""
    return {c: {sides[0]: a, sides[1]: b} for c, (a, b) in enumerate(rolls, start=1)}


def party_wins(n: int = 3) -> dict[int, dict[str, int]]:
    """The party wins every one of ``n`` cycles: 3 < 7 (P1-01)."""
    return cycles(*[(3, 7)] * n)


def orcs_win(n: int = 3) -> dict[int, dict[str, int]]:
    return cycles(*[(7, 3)] * n)


def period(event: dict[str, Any]) -> int:
    """The event's period: 3 (cycle - 1) + phase (cycle 1 A = 1, cycle 2 A = 4)."""
    return 3 * (int(event["tick"][0]) - 1) + int(event["tick"][1])


def hs_at(cycle: int, phase: int, s: int, track: str) -> str:
    """The spec's `at` of half-segment s of a phase: "cycle 1, phase B, half-segment 3 (winner)"."""
    return f"cycle {cycle}, phase {LETTERS[phase - 1]}, half-segment {s} ({track})"


def attack_periods(doc: dict[str, Any], actor: str) -> list[int]:
    """The periods in which ``actor`` made attack events (one entry per event, so a double attack shows twice)."""
    return [period(e) for e in events(doc, ("melee", "missile"), actor)]


def delay_periods(doc: dict[str, Any], actor: str) -> list[int]:
    return [period(e) for e in events(doc, "delay", actor)]


def dice_list(n: int, attack: int = 2) -> list[dict[str, int]]:
    """``n`` attack dice of ``attack`` (2: a miss against every target of these tests), one per blow or part."""
    return [{"attack": attack} for _ in range(n)]
