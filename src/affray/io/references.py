"""Cross-references of an encounter file (names, targets, weapons, spells, sides), checked on the raw
data so that they are reported together with any field errors. What a plan's declaration may name is the one
validator's (``engine.validity.references``), asked of each declaration that is valid as written."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from affray.engine.state import UNARMED
from affray.engine.validity import place_references, references
from affray.model.encounter import Declaration, Spell, Weapon

__all__ = ["cross_references"]

Loc = tuple[str | int, ...]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def cross_references(data: dict[str, Any]) -> Iterator[tuple[Loc, str]]:  # noqa: C901
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
    for key in ("initiative", "morale"):
        for rnd, by_side in _dict(rolls.get(key)).items():
            for side in _dict(by_side):
                if side in sides or (key == "initiative" and side in owners):
                    continue  # a combatant's name: the ruleset's checks say whether it reads its own die
                yield ("rolls", key, str(rnd), side), f"unknown side {side!r} (sides: {side_list})"
    for rnd, by_name in _dict(rolls.get("free")).items():
        for name in _dict(by_name):
            if name not in owners:
                yield ("rolls", "free", str(rnd), name), (f"no combatant named {name!r} to make free attacks "
                                                          f"(combatants: {names})")
    for side in _dict(data.get("surprise")):
        if side not in sides:
            yield ("surprise", side), f"unknown side {side!r} (sides: {side_list})"
    every = {n: str(loc[1]) for n, loc in owners.items()}
    places = _places(sides)
    if places:
        yield from _unplaced(sides, places)
    for actor, decls in _dict(data.get("plan")).items():
        if actor not in specs:
            yield ("plan", actor), f"no combatant named {actor!r} (combatants: {names})"
            continue
        weapons, spells = _arms(specs[actor])
        for i, d in enumerate(_list(decls)):
            decl = _valid(Declaration, d)
            if decl is not None:  # else the model reports it
                for key, message in references(decl, actor, weapons, spells, every, [str(s) for s in sides]):
                    yield ("plan", actor, i, key), message
                for key, message in place_references(decl, every, places[0] if places else None):
                    yield ("plan", actor, i, key), message


def _places(sides: dict[Any, Any]) -> list[str]:
    """The field paths of every ``at`` the file gives (a side's, a combatant's): the fight is placed if any."""
    out = []
    for side, s in sides.items():
        if _dict(s).get("at") is not None:
            out.append(f"sides.{side}.at")
        for i, c in enumerate(_list(_dict(s).get("combatants"))):
            if isinstance(c, dict) and c.get("at") is not None:
                out.append(f"sides.{side}.combatants[{i}].at")
    return out


def _unplaced(sides: dict[Any, Any], places: list[str]) -> Iterator[tuple[Loc, str]]:
    for side, s in sides.items():
        if _dict(s).get("at") is not None:
            continue
        for i, c in enumerate(_list(_dict(s).get("combatants"))):
            if isinstance(c, dict) and c.get("at") is None and c.get("fallen") is None:
                yield ("sides", side, "combatants", i, "at"), (
                    f"the fight places its combatants ({places[0]}), so each needs a place: give this one at: [x, y] "
                    f"in feet, or its side one (sides.{side}.at: [x, y], a rank 5 ft apart)")


M = TypeVar("M", bound=BaseModel)


def _valid(model: type[M], data: Any) -> M | None:
    """``data`` as a ``model``, or None when the model refuses it (it reports why itself)."""
    try:
        return model.model_validate(data)
    except ValidationError:
        return None


def _arms(c: dict[str, Any]) -> tuple[list[Weapon], list[Spell]]:
    """A combatant's weapons and spells; one invalid as written (the model reports why) by its name and kind alone,
    so that a plan naming it is not also told it carries no such thing."""
    weapons: list[Weapon] = []
    for x in _list(c.get("weapons")):
        w = _valid(Weapon, x)
        if w is None and isinstance(x, dict) and isinstance(x.get("name"), str):
            kind: Literal["melee", "missile", "thrown"] = (
                "missile" if x.get("kind") == "missile" else "thrown" if x.get("kind") == "thrown" else "melee")
            w = Weapon.model_construct(name=x["name"], kind=kind)
        if w is not None:
            weapons.append(w)
    spells: list[Spell] = []
    for x in _list(c.get("spells")):
        s = _valid(Spell, x)
        if s is None and isinstance(x, dict) and isinstance(x.get("name"), str):
            s = Spell.model_construct(name=x["name"], touch=False, damage=None, heal=None, effect=None)
        if s is not None:
            spells.append(s)
    return weapons or [UNARMED.source], spells  # without a weapon it fights unarmed, as in the fight
