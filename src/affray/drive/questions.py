"""What a driven fight asks, and how an answer is checked against the fight as it stands.

A ``DeclareQuestion`` wants one plan entry from a named combatant, with what it may choose and what it
already knows; a ``DieQuestion`` wants a die (an attack's d20 may be answered with the referee's outcome).
``check_declaration`` is the one check of a declaration entered mid-fight (an answer, or the console's
``plan``), and ``choices`` what a question offers: both ask the one validator (``engine.validity``), which the
file's check asks too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

from pydantic import ValidationError

from affray.engine.events import Tick
from affray.engine.fight import COMMON_KEYS, Fight
from affray.engine.state import Fighter
from affray.engine.validity import cast_refusal, needs_target, out_how, references, why_not
from affray.errors import AffrayError
from affray.io.messages import validation_problems
from affray.io.read import format_path
from affray.model.encounter import MOVE_MODES, Declaration, Outcome
from affray.model.order import Order, order_of

__all__ = ["ROLL", "AnswerError", "DeclareQuestion", "DieQuestion", "Question", "Roll", "check_declaration",
           "check_die", "choices", "fallen", "plain"]


class AnswerError(AffrayError):
    """An answer that does not fit its question, with what would be right: the question stands."""


class Roll:
    """The answer "roll it": the engine rolls the die from the seed."""

    _instance: Roll | None = None

    def __new__(cls) -> Roll:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ROLL"


ROLL = Roll()


def plain(decl: Declaration) -> dict[str, Any]:
    """A declaration as one plan entry of the file (JSON)."""
    return decl.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)


@dataclass(frozen=True)
class DeclareQuestion:
    """A declaration wanted from ``actor`` at ``at``: ``choices`` lists what it may declare, ``known`` the
    declarations of others it may take into account (Combat II's winners hear the losers')."""

    id: int
    actor: str
    side: str
    at: str
    tick: Tick
    choices: Mapping[str, Any]
    known: tuple[tuple[str, Declaration], ...] = ()
    #: What Enter accepts: its standing declaration while still possible, else what its policy would declare.
    suggestion: Declaration | None = None
    what: str = field(default="declare", init=False)

    def to_json(self) -> dict[str, Any]:
        out = {"id": self.id, "what": "declare", "actor": self.actor, "side": self.side, "at": self.at,
               "choices": dict(self.choices),
               "known": [{"actor": name, "declaration": plain(d)} for name, d in self.known]}
        if self.suggestion is not None:
            out["suggestion"] = plain(self.suggestion)
        return out


@dataclass(frozen=True)
class DieQuestion:
    """A die wanted: ``count`` dice of ``sides`` faces for ``purpose``, rolled by ``actor`` (a combatant or a
    side). An attack's d20 (``attack``) may be answered with the referee's outcome instead."""

    id: int
    sides: int
    count: int
    purpose: str
    actor: str | None
    side: str | None
    attack: bool = False
    target: str | None = None  # an attack's target, and whether it is a melee or missile attack
    kind: str | None = None
    what: str = field(default="die", init=False)

    @property
    def die(self) -> str:
        return f"{self.count}d{self.sides}" if self.count > 1 else f"d{self.sides}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "what": "die", "die": self.die, "purpose": self.purpose,
                               "actor": self.actor, "side": self.side}
        if self.attack:
            out.update({"outcome": True, "target": self.target, "kind": self.kind})
        return out


Question = DeclareQuestion | DieQuestion


def choices(fight: Fight[Any], f: Fighter) -> dict[str, Any]:
    """What ``f`` may declare now, as the one validator says (``engine.validity``): the action keys with their
    targets (foes still in the fight), the spells it can begin now (``cast``), the move modes its ruleset allows now,
    its weapons and every spell it knows (with why one cannot be cast now, and whether one needs ``at``), the
    ruleset's own keys (name -> what it means); ``movement``: its full movement in feet; ``moves``: each mode's
    default feet (its full movement, or the most its ruleset allows in that mode); ``foe_sides``: the enemy sides
    with someone standing (an attack on a side strikes one of it at each declaration point)."""
    state = fight.state
    enemies = [g.name for g in state.fighters.values() if g.active and g.side != f.side]
    allies = [g.name for g in state.fighters.values() if g.active and g.side == f.side and g is not f]
    out: dict[str, Any] = {"melee": [n for n in enemies if why_not(fight, f, _attack("melee", n)) is None]}
    if any(w.kind != "melee" for w in f.weapons):  # only what the one validator accepts now (a henchman never
        out["missile"] = [n for n in enemies if why_not(fight, f, _attack("missile", n)) is None]  # shoots into a
        # melee, MJ-16)
    spells = []
    castable = []
    for spell in f.spells.values():
        entry: dict[str, Any] = {"name": spell.name, "level": spell.level, "ct": spell.ct}
        if needs_target(spell):
            entry["needs_target"] = True
        cannot = cast_refusal(fight, f, spell)
        if cannot is None:
            castable.append(spell.name)
        else:
            entry["cannot"] = cannot
        spells.append(entry)
    if castable:
        out["cast"] = castable
    feet = f.spec.mv * 10
    limits = fight.ruleset.move_limits
    moves = {m: min(feet, limits.get(m, feet)) for m in MOVE_MODES}  # each mode's default: its full movement, or
    moves = {m: n for m, n in moves.items() if fight.ruleset.refusal(fight, f, _move(m, n)) is None}  # the most the
    # ruleset allows in that mode (a 5-foot step, a 10-ft fall back, D12-16/17)
    out.update({"move": list(moves), "moves": moves, "movement": feet, "misc": True, "wait": True, "none": True,
                "weapons": [{"name": w.name, "kind": w.kind} for w in f.weapons], "spells": spells,
                "enemies": enemies, "allies": allies, "fallen": fallen(fight),
                "foe_sides": [s for s in state.sides if s != f.side and state.active_left[s] > 0],
                "sides": list(state.sides), "keys": dict(fight.ruleset.declaration_keys), "placed": state.placed})
    return out


def fallen(fight: Fight[Any]) -> dict[str, str]:
    """Who is out of the fight, and how (dead, unconscious, fled, gone): a name a referee may still type."""
    return {g.name: out_how(g) for g in fight.state.fighters.values() if not g.active}


@lru_cache(maxsize=256)
def _attack(kind: str, target: str) -> Order:
    """A plain attack at ``target``, as the validator is asked whether it takes one now (one per kind and name)."""
    return order_of(Declaration.model_validate({kind: target}))


@lru_cache(maxsize=256)
def _move(mode: str, feet: int) -> Order:
    """A plain move in ``mode``, as the ruleset is asked whether it refuses one now (one per mode and distance)."""
    return order_of(Declaration(move=feet, mode=mode))


def check_declaration(fight: Fight[Any], f: Fighter, data: object, *, now: bool = True) -> Declaration:
    """``data`` (one plan entry) checked against the fight as it stands by the one validator (``engine.validity``):
    what it names, then the ruleset's keys and dice as the file's check reads them, then whether it is possible at
    this moment (``now``; else for a later declaration point, the console's ``plan`` or one said ahead, only what
    lasts counts: a target out of the fight, a spell spent). AnswerError says what is wrong."""
    if isinstance(data, Declaration):
        decl = data
    else:
        if not isinstance(data, dict):
            raise AnswerError("a declaration is one plan entry: a mapping such as {melee: Orc 1}")
        try:
            decl = Declaration.model_validate(data)
        except ValidationError as exc:
            loc, message = (validation_problems(exc, data) or [((), "not valid")])[0]
            raise AnswerError(f"{format_path(loc) + ': ' if loc else ''}{message}") from None
    state = fight.state
    names = {name: g.side for name, g in state.fighters.items()}
    weapons = [w.source for w in f.weapons]  # its own, or unarmed without any (as the fight has it)
    for _key, message in references(decl, f.name, weapons, f.spec.spells, names, list(state.sides)):
        raise AnswerError(message)
    die = fight.ruleset.action_die
    if decl.roll is not None and (die is None or not 1 <= decl.roll <= die):
        raise AnswerError(f"roll: ruleset {fight.ruleset.id} rolls no die per action" if die is None else
                          f"roll: {decl.roll} is not a d{die} result (1-{die})")
    keys = {**fight.ruleset.declaration_keys, **COMMON_KEYS}
    for key in decl.extra:
        if key not in keys:
            raise AnswerError(f"unknown key {key!r} for this ruleset (its own keys: {', '.join(keys) or 'none'})")
    for problem in _ruleset_problems(fight, f.name, decl):
        raise AnswerError(problem)
    why = why_not(fight, f, order_of(decl), now=now)
    if why is not None:
        raise AnswerError(why)
    return decl


def _ruleset_problems(fight: Fight[Any], name: str, decl: Declaration) -> list[str]:
    """The ruleset's own checks of a file's plan (its keys' values: names, numbers, words; dice for their die),
    run on ``decl`` as if the file had given it to ``name``."""
    from affray.engine.ruleset import Ruleset  # the one implementation of the fight's Clock
    from affray.io.checks import check
    from affray.io.load import Loaded

    loaded = Loaded(fight.encounter.model_copy(update={"plan": {name: (decl,)}}), "<declaration>", None)
    prefix = f"plan.{name}[0]"
    return [(p.path.removeprefix(prefix).lstrip(".") + ": " if p.path != prefix else "") + p.message
            for p in check(cast("type[Ruleset[Any, Any]]", type(fight.ruleset)), loaded) if p.path.startswith(prefix)]


def check_die(q: DieQuestion, value: object) -> int | Outcome | Roll:
    """A die's answer: a result of the die, ``ROLL``, or (an attack's d20) the referee's outcome."""
    if value is ROLL or isinstance(value, Roll):
        return ROLL
    if isinstance(value, Outcome):
        if not q.attack:
            raise AnswerError(f"an outcome answers an attack's d20 only; give the {q.die} result")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise AnswerError(f"give the {q.die} result as a whole number ({q.count}-{q.count * q.sides})"
                          + (", or the attack's outcome" if q.attack else "") + ", or roll it")
    if not q.count <= value <= q.count * q.sides:
        raise AnswerError(f"{value} cannot be rolled on {q.die} ({q.count}-{q.count * q.sides})")
    return value
