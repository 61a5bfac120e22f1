"""Builders for the combat2-phase1 rule tests (seed 000 sections 1-2; RULES.md C2-*, P1-*; /tmp/c2p1_spec.md).

Defaults worked out once (RULES.md G-04 and the 2e tables the digest defers to):
- ``pc(...)``: a level-1 fighter, THAC0 21 - 1 = 20, AC 5, 10 hp, MV 12, DEX 10 (no reaction or AC adjustment),
  a long sword SF 5 1d8.
- ``orc(...)``: a 1 HD monster, THAC0 21 - 2 x ceil(1/2) = 19, AC 6, 5 hp, MV 12, the seed's short sword SF 3 1d6.
- ``mage(...)``: a level-1 wizard, THAC0 20, AC 10, 4 hp, no weapon.
So a PC needs d20 >= 20 - 6 = 14 against an orc, an orc 19 - 5 = 14 against a PC, 19 - 10 = 9 against a mage.

Ticks are (round, phase, slot, sub) (spec "The clock"): slot 0 = stating intentions, slot s = 1..6 the phase's
half-segment s (absolute half-segment H = 6 (phase - 1) + s), slot 7 the movement portion; phase 4 is the endphase
(slot 1 = half-segment 19, slot 2 = 20).
"""

from __future__ import annotations

from typing import Any

import builders
from affray import load_text, prepare
from side_d6_helpers import attacks as attacks  # re-exported for the combat2 tests
from side_d6_helpers import encounter as encounter  # re-exported for the combat2 tests
from side_d6_helpers import events as events
from side_d6_helpers import hp as hp
from side_d6_helpers import one as one
from side_d6_helpers import run_pinned

RULESET = "combat2-phase1"

LONG_SWORD: dict[str, Any] = {"name": "long sword", "sf": 5, "damage": "1d8"}
SHORT_SWORD: dict[str, Any] = {"name": "short sword", "sf": 3, "damage": "1d6"}
DAGGER: dict[str, Any] = {"name": "dagger", "sf": 2, "damage": "1d4"}
LONG_BOW: dict[str, Any] = {"name": "long bow", "sf": 8, "damage": "1d6", "kind": "missile"}

NONE: dict[str, Any] = {"none": True}


def weapon(name: str, sf: int | None, damage: str = "1d8", **kw: Any) -> dict[str, Any]:
    """A weapon; ``sf=None`` makes it a natural attack (SF from Table 2 by size, C2-02)."""
    w: dict[str, Any] = {"name": name, "damage": damage, **kw}
    if sf is not None:
        w["sf"] = sf
    return w


def pc(name: str, **kw: Any) -> dict[str, Any]:
    """A level-1 fighter: THAC0 20, AC 5, 10 hp, a long sword SF 5 1d8."""
    return builders.pc(name, LONG_SWORD, **kw)


def orc(name: str, **kw: Any) -> dict[str, Any]:
    """A 1 HD monster: THAC0 19, AC 6, 5 hp, a short sword SF 3 1d6."""
    return builders.orc(name, SHORT_SWORD, **kw)


def spell(name: str, ct: int | str, components: str = "VSM", **kw: Any) -> dict[str, Any]:
    return {"name": name, "level": 1, "ct": ct, "components": components, **kw}


def mage(name: str, *spells: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A level-1 wizard: THAC0 20, AC 10, 4 hp, no weapon."""
    return builders.mage(name, list(spells), **kw)


def _dice(attack: int | None, damage: int | None) -> dict[str, int]:
    return {k: v for k, v in (("attack", attack), ("damage", damage)) if v is not None}


def melee(target: str, attack: int | None = None, damage: int | None = None, **kw: Any) -> dict[str, Any]:
    """A melee declaration with its d20 and damage dice pinned."""
    d: dict[str, Any] = {"melee": target, **kw}
    if _dice(attack, damage) and "dice" not in d:
        d["dice"] = _dice(attack, damage)
    return d


def missile(target: str, attack: int | None = None, damage: int | None = None, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"missile": target, **kw}
    if _dice(attack, damage) and "dice" not in d:
        d["dice"] = _dice(attack, damage)
    return d


def miss_on(target: str, **kw: Any) -> dict[str, Any]:
    """A melee declaration with a d20 of 2 (misses every target of these tests)."""
    return melee(target, 2, **kw)


def cast(name: str, at: str | None = None, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"cast": name, **kw}
    if at is not None:
        d["at"] = at
    return d


def init(*rounds: tuple[int, int], sides: tuple[str, str] = ("party", "orcs")) -> dict[int, dict[str, int]]:
    """Initiative d10s by round: ``init((3, 7), (7, 3))`` = round 1 party 3 orcs 7, round 2 party 7 orcs 3."""
    return {r: {sides[0]: a, sides[1]: b} for r, (a, b) in enumerate(rounds, start=1)}


PARTY_WINS = init((3, 7))  # round 1: party d10 3 < orcs 7: the party is on the winner track (P1-01)
ORCS_WIN = init((7, 3))


def check(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], **kw: Any) -> None:
    """Load and prepare under combat2-phase1 (raises EncounterError on bad input)."""
    options = kw.pop("options", None)
    prepare(load_text(encounter(sides, plan, **kw)), ruleset=RULESET, options=options)


def play(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], *,
         referee: dict[tuple[str, str], list[int]] | None = None, options: dict[str, Any] | None = None,
         pinned: bool = True, max_rounds: int = 3, **kw: Any) -> dict[str, Any]:
    """Run under combat2-phase1 and return the timeline document. ``referee`` gives dice the file cannot
    (free attacks, counterattacks): {(purpose, actor): [values in order]}. With ``pinned`` no die may come
    from the seed's RNG, so every expectation is worked out by hand."""
    return run_pinned(encounter(sides, plan, **kw), RULESET, referee=referee, options=options,
                      max_rounds=max_rounds, pinned=pinned)


def down(doc: dict[str, Any], name: str) -> bool:
    return bool(doc["combatants"][name]["down"])


def half_segment(event: dict[str, Any]) -> int | None:
    """The absolute half-segment (1-20) of an event's tick, None outside the half-segment slots."""
    phase, slot = int(event["tick"][1]), int(event["tick"][2])
    if 1 <= phase <= 3 and 1 <= slot <= 6:
        return 6 * (phase - 1) + slot
    if phase == 4 and slot in (1, 2):
        return 18 + slot
    return None


def when(event: dict[str, Any]) -> tuple[int, int | None]:
    """(round, absolute half-segment) of an event."""
    return event["tick"][0], half_segment(event)


def phase_of(event: dict[str, Any]) -> tuple[int, int]:
    """(round, phase) of an event."""
    return event["tick"][0], event["tick"][1]


def refused(doc: dict[str, Any], actor: str) -> list[tuple[int, int]]:
    """(round, phase) of each declared action of ``actor`` the ruleset would not carry out then: `impossible`
    (the spec's word) or `delay` (CONTRACT.md: a forbidden action waits for the first moment that allows it)."""
    return [phase_of(e) for e in events(doc, ("impossible", "delay"), actor)]


def checks(doc: dict[str, Any], actor: str, ability: str) -> list[int]:
    """The d20s ``actor`` rolled for an ``ability`` check (STR, DEX, CON): dice whose purpose names it (G-06)."""
    return [d["value"] for e in doc["events"] for d in e.get("dice", ())
            if d["actor"] == actor and ability.lower() in d["purpose"].lower()]
