"""The log: one small frozen type per kind of event. The timeline and the final state are both derived from it.

Every event starts with the same seven fields (``tick``, ``at``, ``round``, ``actor``, ``why``, ``detail``,
``rolls``); the rest is its kind's own payload, typed. ``kind`` is the event's name in the timeline
(CONTRACT.md). Events are NamedTuples: immutable, and cheap to build on the engine's hot path.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from affray.dice.roller import Roll

if TYPE_CHECKING:
    from affray.model.encounter import Combatant, Declaration

__all__ = [
    "ATTACK_KINDS",
    "EVENT_TYPES",
    "SPELL_KINDS",
    "TIMED_KINDS",
    "Abort",
    "Cast",
    "CastStart",
    "Check",
    "Condition",
    "Damage",
    "Declare",
    "Delay",
    "Down",
    "Effect",
    "Event",
    "Expire",
    "Fatigue",
    "Heal",
    "Impossible",
    "Initiative",
    "Join",
    "Leave",
    "Melee",
    "Misc",
    "Missile",
    "Morale",
    "Move",
    "Replan",
    "SpellLost",
    "SpellRuined",
    "Surprise",
    "Surrender",
    "Tick",
    "Wait",
    "Wound",
]

Tick = tuple[int, ...]
Rolls = tuple[Roll, ...]
NO_MAP: Mapping[Any, Any] = MappingProxyType({})

#: Kinds a ruleset places in time; each carries a ``why`` (CONTRACT.md).
TIMED_KINDS = frozenset({"move", "missile", "melee", "cast", "cast-start", "misc", "delay", "wait"})
ATTACK_KINDS = frozenset({"melee", "missile"})
SPELL_KINDS = frozenset({"cast", "cast-start", "spell-ruined", "spell-lost"})


# -- the round's start -------------------------------------------------------------------------------------
class Surprise(NamedTuple):
    """Who is surprised (and who surprised them, or each party's speed penalty, SEG-03)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    surprised: tuple[str, ...] = ()
    surprisers: tuple[str, ...] = ()
    penalties: Mapping[str, int] = NO_MAP

    @property
    def kind(self) -> str:
        return "surprise"


class Initiative(NamedTuple):
    """Each side's place in this declaration point's order (``ranks``, 1 = first) and the dice behind it."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    ranks: Mapping[str, int] = NO_MAP
    results: Mapping[str, int] = NO_MAP
    tracks: Mapping[str, str] = NO_MAP
    penalties: Mapping[str, int] = NO_MAP

    @property
    def kind(self) -> str:
        return "initiative"


class Declare(NamedTuple):
    """A combatant's action for a declaration point: taken from its plan (``consumed``), carried on from
    the last point (``continuing``), or ``None``: nothing left to do. ``remaining``: feet still to close."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    decl: Declaration | None = None
    consumed: bool = False
    continuing: bool = False
    remaining: int | None = None

    @property
    def kind(self) -> str:
        return "declare"


class Morale(NamedTuple):
    """A side's morale check (G-07): its members rout (or surrender) when it fails; a rally restores them."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    passed: bool | None = None
    side: str | None = None
    members: tuple[str, ...] = ()
    triggers: tuple[str, ...] = ()
    surrender: bool = False
    rally: bool = False

    @property
    def kind(self) -> str:
        return "morale"


class Check(NamedTuple):
    """An ability or surprise check a ruleset rolls (Combat II's CON, STR and surprise checks)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    passed: bool | None = None

    @property
    def kind(self) -> str:
        return "check"


# -- actions -------------------------------------------------------------------------------------------------
class Move(NamedTuple):
    """Movement: ``feet`` covered; ``disengage`` leaves melee, ``leaves`` the fight; ``stopped`` short."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    feet: int = 0
    mode: str | None = None
    stopped: bool = False
    disengage: bool = False
    leaves: bool = False

    @property
    def kind(self) -> str:
        return "move"


class Melee(NamedTuple):
    """One attack roll (G-04). ``lands``: the tick its damage lands when later (a ``wound`` brings it);
    ``maneuver``: an attack roll that does no damage (a stunt, a retreat pressing the foe)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    hit: bool = False
    damage: int = 0
    opportunity: bool = False
    weapon: str | None = None
    cover: bool = False
    splinter: bool = False
    subdual: bool = False
    lands: Tick | None = None
    maneuver: str | None = None

    @property
    def kind(self) -> str:
        return "melee"


class Missile(Melee):
    """A missile attack: a melee attack's fields, another kind."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return "missile"


class Wound(NamedTuple):
    """Damage landing after the attack or spell that did it (``Rule.lands``)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    damage: int = 0
    subdual: bool = False

    @property
    def kind(self) -> str:
        return "wound"


class CastStart(NamedTuple):
    """A spell begins: damage before it completes disrupts it (G-11)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    spell: str | None = None

    @property
    def kind(self) -> str:
        return "cast-start"


class Cast(NamedTuple):
    """A spell takes effect; ``effects``: the damage done to each target, ``splinter``: shields it broke."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    spell: str | None = None
    effects: Mapping[str, int] = NO_MAP
    splinter: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return "cast"


class SpellRuined(NamedTuple):
    """A spell is lost for this casting (G-11)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    spell: str | None = None

    @property
    def kind(self) -> str:
        return "spell-ruined"


class SpellLost(SpellRuined):
    """A spell is ruined and gone from memory (G-11)."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return "spell-lost"


class Effect(NamedTuple):
    """A spell's delayed damage (heat metal, PC-12): ``effects`` by target."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    spell: str | None = None
    damage: int | None = None
    effects: Mapping[str, int] = NO_MAP

    @property
    def kind(self) -> str:
        return "effect"


class Expire(NamedTuple):
    """A spell's duration ends (G-08), or a ``condition`` on ``target``."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    spell: str | None = None
    condition: str | None = None

    @property
    def kind(self) -> str:
        return "expire"


class Misc(NamedTuple):
    """A miscellaneous action, timed by its ruleset."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None

    @property
    def kind(self) -> str:
        return "misc"


class Wait(Misc):
    """A held action's moment: it waits, or its wait ends."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return "wait"


class Surrender(Misc):
    """The actor throws down its arms and leaves the fight (D12-20)."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return "surrender"


class Delay(NamedTuple):
    """An action that must wait (a forced delay, CONTRACT.md), or a parley or spectacle holding the count
    (``delay``, for ``segments``, SEG-13)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    delay: str | None = None
    segments: int | None = None

    @property
    def kind(self) -> str:
        return "delay"


class Impossible(NamedTuple):
    """An action that cannot happen (its actor or target fell, a rule forbids it): the plan moves on."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    spell: str | None = None

    @property
    def kind(self) -> str:
        return "impossible"


class Abort(NamedTuple):
    """The actor drops its action to declare another (PC-09)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()

    @property
    def kind(self) -> str:
        return "abort"


class Fatigue(NamedTuple):
    """An action completed: fatigue marked (PC-11); ``actions`` so far."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    actions: int | None = None

    @property
    def kind(self) -> str:
        return "fatigue"


# -- what happens to combatants -----------------------------------------------------------------------------
class Condition(NamedTuple):
    """A condition set on ``target`` by ``actor`` (a spell's caster, an attacker; None: the referee's hand) under
    ``rule``: held from ``since`` (default: now) to before the tick ``end``, whose words are ``until`` (G-08, G-09);
    ``amount``: an SF penalty (C2X-04); ``attack``/``free_damage``: the dice entered for the free attack it grants."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    spell: str | None = None
    condition: str = ""
    until: str | None = None
    end: Tick | None = None
    rule: str = ""
    amount: int = 0
    since: Tick | None = None
    attack: int | None = None
    free_damage: int | None = None

    @property
    def kind(self) -> str:
        return "condition"


class Down(NamedTuple):
    """The actor falls at 0 hp or less (G-05): dead, or unconscious from subdual damage (MJ-20)."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    unconscious: bool = False

    @property
    def kind(self) -> str:
        return "down"


# -- the referee's hand (the console) -----------------------------------------------------------------------
class Damage(NamedTuple):
    """Damage dealt by the referee's hand, outside any action."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    damage: int | None = None

    @property
    def kind(self) -> str:
        return "damage"


class Heal(NamedTuple):
    """Hit points given back by the referee's hand."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    target: str | None = None
    amount: int = 0

    @property
    def kind(self) -> str:
        return "heal"


class Join(NamedTuple):
    """A combatant the referee adds to ``side`` mid-fight, with its declarations to come."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    side: str = ""
    spec: Combatant | None = None
    plan: tuple[Declaration, ...] = ()

    @property
    def kind(self) -> str:
        return "join"


class Leave(NamedTuple):
    """The referee takes the actor out of the fight."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()

    @property
    def kind(self) -> str:
        return "leave"


class Replan(NamedTuple):
    """The referee replaces the actor's declarations still to come."""

    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    why: str | None = None
    detail: str | None = None
    rolls: Rolls = ()
    plan: tuple[Declaration, ...] = ()

    @property
    def kind(self) -> str:
        return "replan"


Event = (Surprise | Initiative | Declare | Morale | Check | Move | Melee | Wound | CastStart | Cast | SpellRuined
         | Effect | Expire | Misc | Delay | Impossible | Abort | Fatigue | Condition | Down | Damage | Heal | Join
         | Leave | Replan)

#: Every event type, the subclasses (Missile, SpellLost, Wait, Surrender) included.
EVENT_TYPES: tuple[type[Event], ...] = (
    Surprise, Initiative, Declare, Morale, Check, Move, Melee, Missile, Wound, CastStart, Cast, SpellRuined,
    SpellLost, Effect, Expire, Misc, Wait, Surrender, Delay, Impossible, Abort, Fatigue, Condition, Down, Damage,
    Heal, Join, Leave, Replan)
