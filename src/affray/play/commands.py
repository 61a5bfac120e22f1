"""The referee's commands that change a fight: each is checked first, then emits events the state folds.

``damage`` and ``heal`` (hp by hand), ``add`` (a combatant joins), ``remove`` (one leaves) and ``plan``
(the declarations still to come) are journalled as typed and replayed at the same event index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from affray.engine.engine import Fight, describe_declaration
from affray.engine.events import Tick
from affray.errors import AffrayError
from affray.io.load import format_path, load_value, validation_problems
from affray.limits import MAX_COMBATANTS, MAX_HP
from affray.model.encounter import Combatant, Declaration

__all__ = ["CommandError", "FightCommand", "parse_fight_command", "whole"]

FightCommand = Callable[[Fight], None]


class CommandError(AffrayError):
    """A command the console cannot carry out, with what would be right."""


def parse_fight_command(text: str, fight: Fight) -> FightCommand:
    """Check ``text`` against the fight as it stands; the returned command emits its events."""
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    if verb in ("damage", "heal"):
        return _hp(verb, rest, fight)
    if verb == "add":
        return _add(rest, fight)
    if verb == "remove":
        name = _fighter(rest, fight, verb)
        if not fight.state.fighters[name].active:
            raise CommandError(f"remove: {name} is already out of the fight")
        return lambda fight: _emit(fight, "leave", name, f"{name} leaves the fight (the referee)")
    if verb == "plan":
        return _plan(rest, fight)
    raise CommandError(f"unknown command {verb!r}")


def _moment(fight: Fight) -> tuple[Tick, str]:
    """Where a referee's change is placed: at the moment of the last event (before the first: the start)."""
    if fight.events:
        last = fight.events[-1]
        return last.tick, last.at
    return (max(fight.period, 0),), "before the fight"


def _emit(fight: Fight, kind: str, actor: str | None, detail: str, **kwargs: Any) -> None:
    tick, at = _moment(fight)
    fight.emit(kind, tick, at, actor, detail=detail, **kwargs)


def _fighter(name: str, fight: Fight, verb: str) -> str:
    if name not in fight.state.fighters:
        names = ", ".join(fight.state.fighters)
        raise CommandError(f"{verb}: no combatant named {name!r} (combatants: {names})")
    return name


def whole(text: str, most: int, least: int = 1) -> int | None:
    """``text`` as a whole number from ``least`` to ``most`` (ASCII digits only); None when it is not one."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)) or not least <= int(text) <= most:
        return None
    return int(text)


def _hp(verb: str, rest: str, fight: Fight) -> FightCommand:
    name, _, amount = rest.rpartition(" ")
    n = whole(amount, MAX_HP)
    if n is None:
        raise CommandError(f"{verb}: say `{verb} NAME N` with N a whole number of hit points from 1 to {MAX_HP} "
                           f"(limit), e.g. {verb} Orc 1 3")
    name = _fighter(name.strip(), fight, verb)
    if fight.state.fighters[name].down:
        raise CommandError(f"{verb}: {name} is down; affray does not raise the fallen")
    if verb == "heal" and fight.state.fighters[name].hp + n > MAX_HP:
        raise CommandError(f"heal: {name} would have {fight.state.fighters[name].hp + n} hp: at most {MAX_HP} (limit)")

    def damage(fight: Fight) -> None:
        f = fight.state.fighters[name]
        _emit(fight, "damage", None, f"the referee deals {n} damage to {name}", target=name, damage=n)
        if f.hp <= 0 and not f.down:  # G-05: at 0 hp or less, down at once
            _emit(fight, "down", name, f"{name} at {f.hp} hp: dead", data={"unconscious": False})

    def heal(fight: Fight) -> None:
        _emit(fight, "heal", None, f"the referee heals {name} of {n} hp", target=name, data={"amount": n})

    return damage if verb == "damage" else heal


def _yaml(text: str, verb: str, example: str) -> Any:
    try:
        return load_value(text, verb)
    except ValueError as exc:
        raise CommandError(f"{verb}: {exc}; e.g. {example}") from None


def _invalid(verb: str, exc: ValidationError, data: Any, example: str) -> CommandError:
    """The first problem of a validation, in affray's words, with its field path."""
    loc, message = (validation_problems(exc, data) or [((), "not valid")])[0]
    where = f"{format_path(loc)}: " if loc else ""
    return CommandError(f"{verb}: {where}{message}; e.g. {example}")


def _add(rest: str, fight: Fight) -> FightCommand:
    example = "add orcs {name: Orc 9, hd: 1, hp: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}"
    side, _, spec_text = rest.partition(" ")
    if side not in fight.state.sides:
        raise CommandError(f"add: no side named {side!r} (sides: {', '.join(fight.state.sides)}); e.g. {example}")
    data = _yaml(spec_text, "add", example)
    if not isinstance(data, dict):
        raise CommandError(f"add: give the combatant as a mapping; e.g. {example}")
    try:
        spec = Combatant.model_validate(data)
    except ValidationError as exc:
        raise _invalid("add", exc, data, example) from None
    if spec.count != 1:
        raise CommandError("add: one combatant at a time (count: 1)")
    if len(fight.state.fighters) >= MAX_COMBATANTS:
        raise CommandError(f"add: the fight has {len(fight.state.fighters)} combatants: at most {MAX_COMBATANTS} "
                           "(limit)")
    if spec.name in fight.state.fighters:
        raise CommandError(f"add: {spec.name!r} is already in the fight; give another name")

    def add(fight: Fight) -> None:
        _emit(fight, "join", spec.name, f"{spec.name} joins {side} ({spec.hp} hp, AC {spec.ac})",
              data={"side": side, "spec": spec})
        fight.ruleset.ready(fight, fight.state.fighters[spec.name])

    return add


def _ruleset_problems(fight: Fight, name: str, plan: tuple[Declaration, ...]) -> list[str]:
    """The ruleset's own checks of a file's plan (its keys' values: names, numbers, words), run on ``plan`` as
    if the file had given it to ``name``: "declaration 0: past takes a list of combatant names"."""
    from affray.io.load import Loaded

    loaded = Loaded(fight.encounter.model_copy(update={"plan": {name: plan}}), "<plan>", None)
    out = []
    for p in type(fight.ruleset).check(loaded):
        if p.path.startswith("plan."):
            where = p.path.removeprefix(f"plan.{name}[").replace("]", ":", 1).replace(":.", ": ", 1)
            out.append(f"declaration {where}: {p.message}")
    return out


def _plan(rest: str, fight: Fight) -> FightCommand:
    example = "plan Brom [{melee: Orc 2}, {melee: Orc Captain}]"
    names = sorted(fight.state.fighters, key=len, reverse=True)
    name = next((n for n in names if rest == n or rest.startswith(n + " ")), None)
    if name is None:
        raise CommandError(f"plan: no combatant at the start of {rest!r}; e.g. {example}")
    data = _yaml(rest[len(name):].strip() or "[]", "plan", example)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise CommandError(f"plan: give a list of declarations; e.g. {example}")
    f = fight.state.fighters[name]
    decls = []
    for i, item in enumerate(data):
        try:
            decl = Declaration.model_validate(item)
        except ValidationError as exc:
            raise _invalid(f"plan: declaration {i}", exc, item, example) from None
        target = decl.melee or decl.missile
        if target is not None and target not in fight.state.fighters:
            raise CommandError(f"plan: declaration {i}: no combatant named {target!r}")
        if target == name:
            raise CommandError(f"plan: declaration {i}: {name} cannot attack itself: name a foe")
        if decl.cast is not None and decl.cast not in f.spells:
            raise CommandError(f"plan: declaration {i}: {name} has no spell {decl.cast!r} "
                               f"(spells: {', '.join(f.spells) or 'none'})")
        if decl.at is not None and decl.at not in fight.state.fighters and decl.at not in fight.state.sides:
            raise CommandError(f"plan: declaration {i}: `at` names no combatant or side: {decl.at!r}")
        if decl.weapon is not None and all(w.name != decl.weapon for w in f.weapons):
            raise CommandError(f"plan: declaration {i}: {name} carries no weapon {decl.weapon!r}")
        for key in decl.extra:
            if key not in fight.ruleset.declaration_keys:
                raise CommandError(f"plan: declaration {i}: unknown key {key!r} for ruleset {fight.ruleset.id}")
        decls.append(decl)
    plan = tuple(decls)
    for problem in _ruleset_problems(fight, name, plan):
        raise CommandError(f"plan: {problem}; e.g. {example}")

    def replan(fight: Fight) -> None:
        text = "; ".join(describe_declaration(d, fight.state.fighters[name]) for d in plan) or "nothing"
        _emit(fight, "replan", name, f"{name}'s declarations to come: {text}", data={"plan": plan})
        fight.ruleset.ready(fight, fight.state.fighters[name])

    return replan
