"""The timeline of CONTRACT.md: ``affray run --json``, byte-identical for the same file and seed.

An event's JSON is derived from its type's declared fields: the common ones first (``seq``, ``tick``,
``at``, ``round``, ``kind``, ``actor``, then ``target``, ``hit``, ``damage``, ``spell``, ``passed``,
``why``, ``detail``), then its kind's own payload in field order (empty ones left out), then ``dice``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from affray.engine.events import ATTACK_KINDS, EVENT_TYPES, SPELL_KINDS, Event
from affray.engine.fight import Result

__all__ = ["event_dict", "timeline_dict", "timeline_json"]

_COMMON = frozenset({"tick", "at", "round", "actor", "why", "detail", "rolls", "target", "hit", "damage",
                     "opportunity", "spell", "passed"})
_RENAME = {"decl": "declaration", "free_damage": "damage", "from_": "from"}
#: Each event type's payload: (field, JSON key), in the order they are written.
_PAYLOAD: dict[type, tuple[tuple[str, str], ...]] = {
    t: tuple((f, _RENAME.get(f, f)) for f in t._fields if f not in _COMMON) for t in EVENT_TYPES}


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)
    if isinstance(value, dict) or hasattr(value, "items"):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def event_dict(e: Event, seq: int) -> dict[str, Any]:  # noqa: C901
    kind = e.kind
    d: dict[str, Any] = {"seq": seq, "tick": list(e.tick), "at": e.at, "round": e.round, "kind": kind,
                         "actor": e.actor}
    target = getattr(e, "target", None)
    if target is not None or kind in ATTACK_KINDS:
        d["target"] = target
    damage = getattr(e, "damage", None)
    if kind in ATTACK_KINDS:
        d["hit"] = bool(getattr(e, "hit", False))
        d["damage"] = int(damage or 0)
        if getattr(e, "opportunity", False):
            d["opportunity"] = True
    elif damage is not None:  # a wound (damage landing after its attack or spell), an effect, the referee's hand
        d["damage"] = int(damage)
    spell = getattr(e, "spell", None)
    if spell is not None or kind in SPELL_KINDS:
        d["spell"] = spell
    passed = getattr(e, "passed", None)
    if passed is not None:
        d["passed"] = passed
    if e.why:
        d["why"] = e.why
    if e.detail:
        d["detail"] = e.detail
    for field, key in _PAYLOAD[type(e)]:
        value = getattr(e, field)
        if value is None or value is False or value == () or value == {}:
            continue
        d[key] = _plain(value)
    if e.rolls:
        d["dice"] = [{"purpose": r.purpose, "actor": r.actor, "die": r.die, "value": r.value, "source": r.source}
                     for r in e.rolls]
    return d


def timeline_dict(result: Result) -> dict[str, Any]:
    return {
        "ruleset": result.ruleset,
        "seed": result.seed,
        "options": result.options,
        "events": [event_dict(e, i) for i, e in enumerate(result.events)],
        "combatants": result.final.combatants,
        "winner": result.final.winner,
    }


def timeline_json(result: Result) -> str:
    return json.dumps(timeline_dict(result), indent=2, ensure_ascii=False) + "\n"
