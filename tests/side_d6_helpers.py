"""Builders for the side-d6 rule tests (MJ-01 to MJ-20): small encounters with every die pinned.

Defaults worked out once (RULES.md G-04, 2e tables the digest defers to):
- ``pc(...)``: a level-1 fighter, THAC0 21 - 1 = 20, AC 5, 10 hp, MV 12 (120 ft; 1/3 = 40 ft, 1/2 = 60 ft).
- ``orc(...)``: a 1 HD monster, THAC0 19, AC 6, 5 hp, MV 12.
So a PC needs d20 + mods >= 20 - 6 = 14 against an orc, and an orc 19 - 5 = 14 against a PC.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import builders
from affray import load_text, prepare, timeline_dict

SWORD = {"name": "sword", "sf": 5, "damage": "1d8"}
AXE = {"name": "axe", "sf": 7, "damage": "1d8"}
SPEAR = {"name": "spear", "sf": 6, "damage": "1d6"}
TUSKS = {"name": "tusks", "sf": 5, "damage": "1d8", "charge": True}
SHORT_BOW = {"name": "short bow", "sf": 7, "damage": "1d6", "kind": "missile"}
LANCE = {"name": "lance", "sf": 8, "damage": "1d8", "lance": True}

MISS = {"outcome": {"hit": False}}
NONE = {"none": True}


def miss_on(target: str) -> dict[str, object]:
    """A melee declaration that the referee rules a miss."""
    return {"melee": target, **MISS}


def pc(name: str, **kw: Any) -> dict[str, Any]:
    """A level-1 fighter: THAC0 20, AC 5, 10 hp, a 1d8 sword."""
    return builders.pc(name, SWORD, **kw)


def orc(name: str, **kw: Any) -> dict[str, Any]:
    """A 1 HD monster: THAC0 19, AC 6, 5 hp, a 1d8 axe."""
    return builders.orc(name, AXE, **kw)


def mage(name: str, *spells: str, **kw: Any) -> dict[str, Any]:
    """A level-1 wizard (AC 10, 4 hp) with one copy of each named spell, none doing damage."""
    return builders.mage(name, [{"name": s, "level": 1} for s in spells], **kw)


def melee(target: str, attack: int | None = None, damage: int | None = None, **kw: Any) -> dict[str, Any]:
    """A melee declaration with its d20 and damage dice pinned."""
    d: dict[str, Any] = {"melee": target, **kw}
    dice = {k: v for k, v in (("attack", attack), ("damage", damage)) if v is not None}
    if dice:
        d["dice"] = dice
    return d


def missile(target: str, attack: int | None = None, damage: int | None = None,
            more: dict[str, int] | None = None, **kw: Any) -> dict[str, Any]:
    """A missile declaration with its d20, damage dice and ``more`` dice (cover, into_melee) pinned."""
    d: dict[str, Any] = {"missile": target, **kw}
    dice = {k: v for k, v in (("attack", attack), ("damage", damage)) if v is not None}
    dice.update(more or {})
    if dice:
        d["dice"] = dice
    return d


def each_round(rounds: int, party: int, foes: int, foes_side: str = "orcs") -> dict[int, dict[str, int]]:
    """The same initiative d6 results for ``rounds`` rounds."""
    return {r: {"party": party, foes_side: foes} for r in range(1, rounds + 1)}


def encounter(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], *,
              initiative: dict[int, dict[str, int]] | None = None, surprise: Any = "none",
              surprise_rolls: dict[str, int] | None = None, morale: dict[int, dict[str, int]] | None = None,
              options: dict[str, Any] | None = None) -> str:
    """The encounter file as JSON text. A side given as a list is a list of combatants; "party" is the PCs'."""
    out_sides: dict[str, Any] = {}
    for name, side in sides.items():
        if isinstance(side, list):
            side = {"combatants": side}
        side = dict(side)
        side.setdefault("pc", name == "party")
        out_sides[name] = side
    doc: dict[str, Any] = {"seed": 1, "surprise": surprise, "sides": out_sides, "plan": plan,
                           "rolls": {"initiative": initiative or {}, "surprise": surprise_rolls or {},
                                     "morale": morale or {}}}
    if options:
        doc["options"] = options
    return json.dumps(doc)


def play(sides: dict[str, Any], plan: dict[str, list[dict[str, Any]]], *,
         referee: dict[tuple[str, str], list[int]] | None = None, options: dict[str, Any] | None = None,
         pinned: bool = True, max_rounds: int = 20, **kw: Any) -> dict[str, Any]:
    """Run under side-d6 and return the timeline document. ``referee`` gives dice the file cannot
    (free attacks of MJ-09): {(purpose, actor): [values in order]}. With ``pinned`` no die may come
    from the seed's RNG, so every expectation is worked out by hand."""
    return run_pinned(encounter(sides, plan, **kw), "side-d6", referee=referee, options=options,
                      max_rounds=max_rounds, pinned=pinned)


def run_pinned(text: str, ruleset: str, *, referee: dict[tuple[str, str], list[int]] | None = None,
               options: dict[str, Any] | None = None, max_rounds: int = 20, pinned: bool = True) -> dict[str, Any]:
    """Run the encounter ``text`` under ``ruleset`` and return the timeline document. ``referee`` gives the dice
    the file cannot carry: {(purpose, actor): [values in order]}. With ``pinned`` no die may come from the RNG."""
    queue = {k: list(v) for k, v in (referee or {}).items()}

    def provider(_sides: int, _count: int, purpose: str, actor: str | None) -> int | None:
        values = queue.get((purpose, actor or ""))
        return values.pop(0) if values else None

    prepared = prepare(load_text(text), ruleset=ruleset, options=options)
    doc = timeline_dict(prepared.fight(provider=provider, max_rounds=max_rounds).run())
    if pinned:
        assert_pinned(doc)
    return doc


def assert_pinned(doc: dict[str, Any]) -> None:
    """Fail if the engine rolled any die itself: a test's expectations rest on the dice it gives."""
    loose = [(e["seq"], d["purpose"], d["actor"]) for e in doc["events"] for d in e.get("dice", ())
             if d["source"] == "rng"]
    assert not loose, f"dice rolled by the RNG, not pinned by the test: {loose}"


def events(doc: dict[str, Any], kind: str | Iterable[str] | None = None, actor: str | None = None,
           **match: Any) -> list[dict[str, Any]]:
    """Events of ``kind`` (one or several) by ``actor`` whose fields equal ``match``."""
    kinds = {kind} if isinstance(kind, str) else set(kind) if kind is not None else None
    return [e for e in doc["events"]
            if (kinds is None or e["kind"] in kinds) and (actor is None or e["actor"] == actor)
            and all(e.get(k) == v for k, v in match.items())]


def one(doc: dict[str, Any], kind: str | Iterable[str] | None = None, actor: str | None = None,
        **match: Any) -> dict[str, Any]:
    """The single event matching; fails listing the candidates otherwise."""
    found = events(doc, kind, actor, **match)
    assert len(found) == 1, f"expected one {kind} event by {actor} {match}, found {len(found)}: {found}"
    return found[0]


def attacks(doc: dict[str, Any], actor: str, **match: Any) -> list[dict[str, Any]]:
    return events(doc, ("melee", "missile"), actor, **match)


def hp(doc: dict[str, Any], name: str) -> int:
    return int(doc["combatants"][name]["hp"])


def step_of(event: dict[str, Any]) -> tuple[int, int, int]:
    """(round, turn, step) of a tick ``(round, turn, step, sub)``."""
    r, turn, step = event["tick"][:3]
    return r, turn, step
