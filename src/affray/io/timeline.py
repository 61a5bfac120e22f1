"""The timeline of CONTRACT.md: ``affray run --json``, byte-identical for the same file and seed."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from affray.engine.engine import Result
from affray.engine.events import Event

__all__ = ["event_dict", "timeline_dict", "timeline_json"]

_ATTACKS = ("melee", "missile")
_SPELLS = ("cast", "cast-start", "spell-ruined", "spell-lost")
_RENAME = {"decl": "declaration"}


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def event_dict(e: Event, seq: int) -> dict[str, Any]:
    d: dict[str, Any] = {"seq": seq, "tick": list(e.tick), "at": e.at, "round": e.round, "kind": e.kind,
                         "actor": e.actor}
    if e.target is not None or e.kind in _ATTACKS:
        d["target"] = e.target
    if e.kind in _ATTACKS:
        d["hit"] = bool(e.hit)
        d["damage"] = int(e.damage or 0)
        if e.opportunity:
            d["opportunity"] = True
    elif e.damage is not None:  # a "wound": damage landing after its attack or spell
        d["damage"] = int(e.damage)
    if e.spell is not None or e.kind in _SPELLS:
        d["spell"] = e.spell
    if e.passed is not None:
        d["passed"] = e.passed
    if e.why:
        d["why"] = e.why
    if e.detail:
        d["detail"] = e.detail
    for key, value in e.data.items():
        if value is None or value is False or value == () or value == {}:
            continue
        d[_RENAME.get(key, key)] = _plain(value)
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
