"""Builders for the speed-segments rule tests (SEG-01 to SEG-20): the side-d6 builders, run under seed 002.

Defaults (side_d6_helpers, worked once): ``pc``: a level-1 fighter, THAC0 20, AC 5, 10 hp, MV 12 (120 ft;
a half move 60 ft, 1/3 = 40 ft), a sword of Spd 5 (1d8). ``orc``: 1 HD, THAC0 19, AC 6, 5 hp, an axe of Spd 7.
A PC needs d20 >= 20 - 6 = 14 against an orc; an orc d20 >= 19 - 5 = 14 against a PC.
A tick is (round, segment, turn, phase, sub); phases 1 movement, 2 missile, 3 magic, 4 melee, 5 morale.
"""

from __future__ import annotations

from typing import Any

from side_d6_helpers import encounter, run_pinned

RULESET = "speed-segments"
BOW = {"name": "bow", "sf": 5, "damage": "1d6", "kind": "missile"}


def play(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], *,
         referee: dict[tuple[str, str], list[int]] | None = None, options: dict[str, Any] | None = None,
         max_rounds: int = 20, **kw: Any) -> dict[str, Any]:
    """Run under speed-segments; no die may come from the seed's RNG (every expectation is by hand).
    ``referee`` gives dice the file cannot (free attacks): {(purpose, actor): [values in order]}."""
    return run_pinned(encounter(sides, plan, **kw), RULESET, referee=referee, options=options, max_rounds=max_rounds)


def seg(event: dict[str, Any]) -> tuple[int, int]:
    """(round, segment) of an event."""
    return event["tick"][0], event["tick"][1]


def place(event: dict[str, Any]) -> tuple[int, int, int, int]:
    """(round, segment, turn, phase) of an event."""
    r, s, turn, phase = event["tick"][:4]
    return r, s, turn, phase


def kinds(doc: dict[str, Any], *names: str) -> list[tuple[str, str | None]]:
    """(kind, actor) of every event except declarations, in log order, limited to ``names`` when given."""
    return [(e["kind"], e["actor"]) for e in doc["events"] if e["kind"] != "declare"
            and (not names or e["actor"] in names)]
