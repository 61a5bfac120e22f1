"""Cross-references of an encounter file (names, targets, weapons, spells, sides), checked on the raw
data so that they are reported together with any field errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from affray.model.encounter import ACTION_KEYS

__all__ = ["cross_references"]

Loc = tuple[str | int, ...]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def cross_references(data: dict[str, Any]) -> Iterator[tuple[Loc, str]]:
    """(location, message) for every reference in the file that names nothing."""
    sides = _dict(data.get("sides"))
    owners: dict[str, Loc] = {}
    specs: dict[str, dict[str, Any]] = {}
    for side, s in sides.items():
        for i, c in enumerate(_list(_dict(s).get("combatants"))):
            if not isinstance(c, dict) or not isinstance(c.get("name"), str):
                continue
            count = c.get("count", 1)
            count = count if isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= 500 else 1
            loc: Loc = ("sides", side, "combatants", i)
            for name in [c["name"]] if count == 1 else [f"{c['name']} {k}" for k in range(1, count + 1)]:
                if name in owners:
                    where = ".".join(str(p) for p in owners[name][:2]) + f".combatants[{owners[name][3]}]"
                    yield (*loc, "name"), (f"duplicate name {name!r} (also at {where}); every combatant needs a "
                                           "unique name")
                else:
                    owners[name] = loc
                    specs[name] = c
    side_list = ", ".join(map(str, sides))
    names = ", ".join(list(owners)[:12]) + (" ..." if len(owners) > 12 else "") or "none"
    rolls = _dict(data.get("rolls"))
    for key in ("surprise",):
        for side in _dict(rolls.get(key)):
            if side not in sides:
                yield ("rolls", key, side), f"unknown side {side!r} (sides: {side_list})"
    own_die = data.get("ruleset") in (None, "d12-procedure")  # d12-procedure: a PC's own d12 (D12-04)
    for key in ("initiative", "morale"):
        for rnd, by_side in _dict(rolls.get(key)).items():
            for side in _dict(by_side):
                if side in sides or (key == "initiative" and own_die and side in owners):
                    continue  # a combatant's name: the ruleset's checks say whether it may roll its own die
                if key == "initiative" and side in owners:
                    yield ("rolls", key, str(rnd), side), (f"{side!r} is a combatant: only d12-procedure (option "
                                                           f"individual_rolls) reads a combatant's own initiative "
                                                           f"die here; give a side (sides: {side_list})")
                else:
                    yield ("rolls", key, str(rnd), side), f"unknown side {side!r} (sides: {side_list})"
    for side in _dict(data.get("surprise")):
        if side not in sides:
            yield ("surprise", side), f"unknown side {side!r} (sides: {side_list})"
    for actor, decls in _dict(data.get("plan")).items():
        if actor not in specs:
            yield ("plan", actor), f"no combatant named {actor!r} (combatants: {names})"
            continue
        for i, d in enumerate(_list(decls)):
            if isinstance(d, dict):
                yield from _declaration(("plan", actor, i), specs[actor], d, specs, sides, names)


def _declaration(loc: Loc, c: dict[str, Any], d: dict[str, Any], specs: dict[str, Any], sides: dict[Any, Any],
                 names: str) -> Iterator[tuple[Loc, str]]:
    actions = [k for k in ACTION_KEYS if k in d]
    if len(actions) != 1:
        return  # the model reports it
    action = actions[0]
    weapons = [w for w in _list(c.get("weapons")) if isinstance(w, dict) and isinstance(w.get("name"), str)]
    if action in ("melee", "missile"):
        target = d[action]
        if not isinstance(target, str):
            pass  # the model reports it: a target is a name
        elif target not in specs:
            yield (*loc, action), f"no combatant named {target!r} to attack (combatants: {names})"
        elif target == loc[1]:
            yield (*loc, action), f"{target} cannot attack itself: name a foe"
        if "weapon" in d and not isinstance(d["weapon"], str):
            pass  # the model reports it: a weapon is a name
        elif "weapon" in d:
            weapon = next((w for w in weapons if w["name"] == d["weapon"]), None)
            kind = (weapon or {}).get("kind", "melee")
            if weapon is None:
                have = ", ".join(w["name"] for w in weapons) or "none"
                yield (*loc, "weapon"), f"{c['name']} carries no weapon {d['weapon']!r} (weapons: {have})"
            elif action == "missile" and kind == "melee":
                yield (*loc, "weapon"), (f"{d['weapon']!r} is a melee weapon; a missile attack needs kind: missile "
                                         "or thrown")
            elif action == "melee" and kind == "missile":
                yield (*loc, "weapon"), f"{d['weapon']!r} is a missile weapon; use `missile:`"
        elif action == "missile" and not any(w.get("kind", "melee") != "melee" for w in weapons):
            yield (*loc, "missile"), f"{c['name']} has no missile or thrown weapon to shoot with"
    elif action == "cast":
        spells = [s.get("name") for s in _list(c.get("spells")) if isinstance(s, dict)]
        if isinstance(d["cast"], str) and d["cast"] not in spells:
            have = ", ".join(map(str, spells)) or "none"
            yield (*loc, "cast"), f"{c['name']} has no spell {d['cast']!r} (spells: {have})"
        if isinstance(d.get("at"), str) and d["at"] not in specs and d["at"] not in sides:
            yield (*loc, "at"), (f"no combatant or side named {d['at']!r} (sides: {', '.join(map(str, sides))}; "
                                 f"combatants: {names})")
        spell = next((s for s in _list(c.get("spells")) if isinstance(s, dict) and s.get("name") == d["cast"]), None)
        if (spell is not None and spell.get("area") == 1 and isinstance(d.get("at"), str) and d["at"] in sides
                and d["at"] not in specs):
            yield (*loc, "at"), (f"{d['cast']} takes one target (its area is 1): name a combatant of {d['at']}, "
                                 "not the side")
    if action != "melee" and d.get("charge"):
        yield (*loc, "charge"), "charge: true goes with a melee declaration"
