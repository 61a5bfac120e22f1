"""Encounters for the C2X options, runnable under every ruleset."""

from __future__ import annotations

import json
from typing import Any

from affray.rulesets import RULESETS
from conftest import run_yaml

IDS = [r.id for r in RULESETS]


def duel(ruleset: str, options: dict[str, Any], brom_plan: list[dict[str, Any]], *,
         brom: dict[str, Any] | None = None, orc: dict[str, Any] | None = None,
         orc_plan: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Brom (THAC0 15, long sword 1d8 SF 5) against an orc (AC 1, THAC0 19, 40 hp), fields overridden."""
    b = {"name": "Brom", "class": "fighter", "level": 6, "thac0": 15, "hp": 40, "ac": 5,
         "weapons": [{"name": "long sword", "sf": 5, "damage": "1d8"}], **(brom or {})}
    o = {"name": "Orc", "hp": 40, "ac": 1, "thac0": 19, "weapons": [{"name": "axe", "sf": 7, "damage": "1d8"}],
         **(orc or {})}
    doc = {"seed": 3, "options": options, "surprise": "none",
           "sides": {"a": {"pc": True, "combatants": [b]}, "b": {"combatants": [o]}},
           "plan": {"Brom": brom_plan, "Orc": orc_plan or []}}
    return run_yaml(json.dumps(doc), ruleset=ruleset)


def events(doc: dict[str, Any], kind: str, actor: str | None = None) -> list[dict[str, Any]]:
    """Events of ``kind`` by ``actor``; for conditions, those set on ``actor`` (the event's ``target``)."""
    who = "target" if kind == "condition" else "actor"
    return [e for e in doc["events"] if e["kind"] == kind and (actor is None or e.get(who) == actor)]


def conditions(doc: dict[str, Any], actor: str) -> list[str]:
    return [e["condition"] for e in events(doc, "condition", actor)]
