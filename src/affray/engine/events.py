"""The log: one small frozen type per kind of event. The timeline and the final state are both derived from it.

Every event starts with the same seven fields (``tick``, ``at``, ``round``, ``actor``, ``why``, ``detail``,
``rolls``); the rest is its kind's own payload, typed. ``kind`` is the event's name in the timeline
(CONTRACT.md). An event is immutable once built: its fields are ``Final`` (mypy refuses an assignment, the
compiled build refuses it at run time). It is cheap to build on the engine's hot path: in the compiled build each
kind is a native class, built by a direct call.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

# Imported at run time, not only for the type checker: the compiled build reads the fields' types when the
# module loads (a name it does not hold is a crash there).
from affray.dice.roller import Roll
from affray.model.encounter import Combatant, Declaration
from affray.model.order import Order, order_of

__all__ = [
    "ATTACK_KINDS",
    "COMMON_FIELDS",
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
    "Declarer",
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
    "Note",
    "Place",
    "Replan",
    "Rolls",
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
#: The fields every event starts with, in the timeline's order.
COMMON_FIELDS = ("tick", "at", "round", "actor", "why", "detail", "rolls")


class Event:
    """What every event holds: when (``tick``, and ``at`` in the ruleset's words; ``round`` where the ruleset has
    rounds), who acts, why, what happened in words, and the dice rolled for it. Each kind adds its own fields;
    ``kind`` is its name in the timeline and ``_fields`` its fields in order. Two events are equal when they are
    of the same kind with equal fields."""

    __slots__ = COMMON_FIELDS
    kind: ClassVar[str] = ""
    _fields: ClassVar[tuple[str, ...]] = COMMON_FIELDS

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = ()) -> None:
        self.tick: Final = tick
        self.at: Final = at
        self.round: Final = round
        self.actor: Final = actor
        self.why: Final = why
        self.detail: Final = detail
        self.rolls: Final = rolls

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.tick, self.at, self.actor))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"

    def _replace(self, **changes: Any) -> Event:
        """A copy with ``changes``: what a reader who may not see everything shows (the web page's player)."""
        values = {f: getattr(self, f) for f in self._fields}
        values.update(changes)
        return type(self)(**values)


#: Kinds a ruleset places in time; each carries a ``why`` (CONTRACT.md).
TIMED_KINDS = frozenset({"move", "missile", "melee", "cast", "cast-start", "misc", "delay", "wait"})
ATTACK_KINDS = frozenset({"melee", "missile"})
SPELL_KINDS = frozenset({"cast", "cast-start", "spell-ruined", "spell-lost"})


# -- the round's start -------------------------------------------------------------------------------------
class Surprise(Event):
    """Who is surprised (and who surprised them, or each party's speed penalty, SEG-03)."""

    __slots__ = ("penalties", "surprised", "surprisers")
    kind: ClassVar[str] = "surprise"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "surprised", "surprisers", "penalties")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), surprised: tuple[str, ...] = (),
                 surprisers: tuple[str, ...] = (), penalties: Mapping[str, int] = NO_MAP) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.surprised: Final = surprised
        self.surprisers: Final = surprisers
        self.penalties: Final = penalties


class Initiative(Event):
    """Each side's place in this declaration point's order (``ranks``, 1 = first) and the dice behind it."""

    __slots__ = ("penalties", "ranks", "results", "tracks")
    kind: ClassVar[str] = "initiative"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "ranks", "results", "tracks", "penalties")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), ranks: Mapping[str, int] = NO_MAP,
                 results: Mapping[str, int] = NO_MAP, tracks: Mapping[str, str] = NO_MAP,
                 penalties: Mapping[str, int] = NO_MAP) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.ranks: Final = ranks
        self.results: Final = results
        self.tracks: Final = tracks
        self.penalties: Final = penalties


class Declare(Event):
    """A combatant's action for a declaration point: taken from its plan (``consumed``), carried on from
    the last point (``continuing``), or ``None``: nothing left to do. ``remaining``: feet still to close."""

    __slots__ = ("consumed", "continuing", "decl", "order", "remaining")
    kind: ClassVar[str] = "declare"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "decl", "consumed", "continuing", "remaining")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), decl: Declaration | None = None,
                 consumed: bool = False, continuing: bool = False, remaining: int | None = None, *,
                 order: Order | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.decl: Final = decl
        self.consumed: Final = consumed
        self.continuing: Final = continuing
        self.remaining: Final = remaining
        #: ``decl``'s view (``order_of``), what the fold reads: given by the fight that made it from one, else made
        #: here. Not one of the event's fields (the log shows ``decl``).
        self.order: Final = order if order is not None or decl is None else order_of(decl)


class Morale(Event):
    """A side's morale check (G-07): its members rout (or surrender) when it fails; a rally restores them."""

    __slots__ = ("members", "passed", "rally", "side", "surrender", "triggers")
    kind: ClassVar[str] = "morale"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "passed", "side", "members", "triggers", "surrender", "rally")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), passed: bool | None = None, side: str | None = None,
                 members: tuple[str, ...] = (), triggers: tuple[str, ...] = (), surrender: bool = False,
                 rally: bool = False) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.passed: Final = passed
        self.side: Final = side
        self.members: Final = members
        self.triggers: Final = triggers
        self.surrender: Final = surrender
        self.rally: Final = rally


class Check(Event):
    """An ability or surprise check a ruleset rolls (Combat II's CON, STR and surprise checks)."""

    __slots__ = ("passed",)
    kind: ClassVar[str] = "check"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "passed")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), passed: bool | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.passed: Final = passed


# -- actions -------------------------------------------------------------------------------------------------
class Move(Event):
    """Movement: ``feet`` covered; ``disengage`` leaves melee, ``leaves`` the fight; ``stopped`` short."""

    __slots__ = ("disengage", "feet", "from_", "leaves", "mode", "stopped", "target", "to")
    kind: ClassVar[str] = "move"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "feet", "mode", "stopped", "disengage", "leaves",
                                         "from_", "to")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, feet: int = 0,
                 mode: str | None = None, stopped: bool = False, disengage: bool = False,
                 leaves: bool = False, from_: tuple[int, int] | None = None, to: tuple[int, int] | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.feet: Final = feet
        self.mode: Final = mode
        self.stopped: Final = stopped
        self.disengage: Final = disengage
        self.leaves: Final = leaves
        #: Where it stood and where it stands after (a fight that places its combatants; else None).
        self.from_: Final = from_
        self.to: Final = to


class Melee(Event):
    """One attack roll (G-04). ``lands``: the tick its damage lands when later (a ``wound`` brings it);
    ``maneuver``: an attack roll that does no damage (a stunt, a retreat pressing the foe)."""

    __slots__ = ("cover", "damage", "hit", "lands", "maneuver", "opportunity", "splinter", "subdual", "target",
                 "weapon")
    kind: ClassVar[str] = "melee"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "hit", "damage", "opportunity", "weapon",
                                         "cover", "splinter", "subdual", "lands", "maneuver")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, hit: bool = False,
                 damage: int = 0, opportunity: bool = False, weapon: str | None = None, cover: bool = False,
                 splinter: bool = False, subdual: bool = False, lands: Tick | None = None,
                 maneuver: str | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.hit: Final = hit
        self.damage: Final = damage
        self.opportunity: Final = opportunity
        self.weapon: Final = weapon
        self.cover: Final = cover
        self.splinter: Final = splinter
        self.subdual: Final = subdual
        self.lands: Final = lands
        self.maneuver: Final = maneuver


class Missile(Melee):
    """A missile attack: a melee attack's fields, another kind."""

    __slots__ = ()
    kind: ClassVar[str] = "missile"


class Wound(Event):
    """Damage landing after the attack or spell that did it (``Rule.lands``)."""

    __slots__ = ("damage", "subdual", "target")
    kind: ClassVar[str] = "wound"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "damage", "subdual")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, damage: int = 0,
                 subdual: bool = False) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.damage: Final = damage
        self.subdual: Final = subdual


class CastStart(Event):
    """A spell begins: damage before it completes disrupts it (G-11)."""

    __slots__ = ("spell", "target")
    kind: ClassVar[str] = "cast-start"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "spell")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None,
                 spell: str | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.spell: Final = spell


class Cast(Event):
    """A spell takes effect; ``effects``: the damage done to each target, ``splinter``: shields it broke,
    ``healed``: the hit points each target regains."""

    __slots__ = ("effects", "healed", "spell", "splinter", "target")
    kind: ClassVar[str] = "cast"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "spell", "effects", "splinter", "healed")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, spell: str | None = None,
                 effects: Mapping[str, int] = NO_MAP, splinter: tuple[str, ...] = (),
                 healed: Mapping[str, int] = NO_MAP) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.spell: Final = spell
        self.effects: Final = effects
        self.splinter: Final = splinter
        self.healed: Final = healed


class SpellRuined(Event):
    """A spell is lost for this casting (G-11)."""

    __slots__ = ("spell",)
    kind: ClassVar[str] = "spell-ruined"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "spell")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), spell: str | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.spell: Final = spell


class SpellLost(SpellRuined):
    """A spell is ruined and gone from memory (G-11)."""

    __slots__ = ()
    kind: ClassVar[str] = "spell-lost"


class Effect(Event):
    """A spell's delayed damage (heat metal, PC-12): ``effects`` by target; or its effect landing later than its
    casting (SEG-10), the conditions following as ``condition`` events; ``splinter``: the shields that turned it."""

    __slots__ = ("damage", "effects", "spell", "splinter", "target")
    kind: ClassVar[str] = "effect"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "spell", "damage", "effects", "splinter")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, spell: str | None = None,
                 damage: int | None = None, effects: Mapping[str, int] = NO_MAP,
                 splinter: tuple[str, ...] = ()) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.spell: Final = spell
        self.damage: Final = damage
        self.effects: Final = effects
        self.splinter: Final = splinter


class Expire(Event):
    """A spell's duration ends (G-08), or a ``condition`` on ``target``."""

    __slots__ = ("condition", "spell", "target")
    kind: ClassVar[str] = "expire"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "spell", "condition")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, spell: str | None = None,
                 condition: str | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.spell: Final = spell
        self.condition: Final = condition


class Misc(Event):
    """A miscellaneous action, timed by its ruleset."""

    __slots__ = ("target",)
    kind: ClassVar[str] = "misc"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target


class Wait(Misc):
    """A held action's moment: it waits, or its wait ends."""

    __slots__ = ()
    kind: ClassVar[str] = "wait"


class Surrender(Misc):
    """The actor throws down its arms and leaves the fight (D12-20)."""

    __slots__ = ()
    kind: ClassVar[str] = "surrender"


class Delay(Event):
    """An action that must wait (a forced delay, CONTRACT.md), or a parley or spectacle holding the count
    (``delay``, for ``segments``, SEG-13)."""

    __slots__ = ("delay", "segments", "target")
    kind: ClassVar[str] = "delay"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "delay", "segments")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, delay: str | None = None,
                 segments: int | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.delay: Final = delay
        self.segments: Final = segments


class Impossible(Event):
    """An action that cannot happen (its actor or target fell, a rule forbids it): the plan moves on. ``ends``: the
    declaration it belongs to ends with it, so an approach still under way (a charge too slow to arrive) is dropped
    rather than tried again at the next declaration point."""

    __slots__ = ("ends", "spell", "target")
    kind: ClassVar[str] = "impossible"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "spell", "ends")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None,
                 spell: str | None = None, ends: bool = False) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.spell: Final = spell
        self.ends: Final = ends


class Abort(Event):
    """The actor drops its action to declare another (PC-09)."""

    __slots__ = ()
    kind: ClassVar[str] = "abort"


class Fatigue(Event):
    """An action completed: fatigue marked (PC-11); ``actions`` so far."""

    __slots__ = ("actions",)
    kind: ClassVar[str] = "fatigue"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "actions")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), actions: int | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.actions: Final = actions


# -- what happens to combatants -----------------------------------------------------------------------------
class Condition(Event):
    """A condition set on ``target`` by ``actor`` (a spell's caster, an attacker; None: the referee's hand) under
    ``rule``: held from ``since`` (default: now) to before the tick ``end``, whose words are ``until`` (G-08, G-09);
    ``amount``: an SF penalty (C2X-04); ``attack``/``free_damage``: the dice entered for the free attack it grants."""

    __slots__ = ("amount", "attack", "condition", "end", "free_damage", "rule", "since", "spell", "target", "until")
    kind: ClassVar[str] = "condition"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "spell", "condition", "until", "end", "rule",
                                         "amount", "since", "attack", "free_damage")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, spell: str | None = None,
                 condition: str = "", until: str | None = None, end: Tick | None = None, rule: str = "",
                 amount: int = 0, since: Tick | None = None, attack: int | None = None,
                 free_damage: int | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.spell: Final = spell
        self.condition: Final = condition
        self.until: Final = until
        self.end: Final = end
        self.rule: Final = rule
        self.amount: Final = amount
        self.since: Final = since
        self.attack: Final = attack
        self.free_damage: Final = free_damage


class Down(Event):
    """The actor falls at 0 hp or less (G-05): dead, or unconscious from subdual damage (MJ-20)."""

    __slots__ = ("unconscious",)
    kind: ClassVar[str] = "down"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "unconscious")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), unconscious: bool = False) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.unconscious: Final = unconscious


# -- the referee's hand (the console) -----------------------------------------------------------------------
class Damage(Event):
    """Damage dealt by the referee's hand, outside any action."""

    __slots__ = ("damage", "target")
    kind: ClassVar[str] = "damage"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "damage")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None,
                 damage: int | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.damage: Final = damage


class Heal(Event):
    """Hit points given back by the referee's hand (never above those it started with), or ``temp``orary ones given
    above them."""

    __slots__ = ("amount", "target", "temp")
    kind: ClassVar[str] = "heal"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "target", "amount", "temp")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), target: str | None = None, amount: int = 0,
                 temp: bool = False) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.target: Final = target
        self.amount: Final = amount
        self.temp: Final = temp


class Join(Event):
    """A combatant the referee adds to ``side`` mid-fight, with its declarations to come."""

    __slots__ = ("plan", "side", "spec")
    kind: ClassVar[str] = "join"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "side", "spec", "plan")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), side: str = "", spec: Combatant | None = None,
                 plan: tuple[Declaration, ...] = ()) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.side: Final = side
        self.spec: Final = spec
        self.plan: Final = plan


class Leave(Event):
    """The referee takes the actor out of the fight."""

    __slots__ = ()
    kind: ClassVar[str] = "leave"


class Place(Event):
    """The referee places a combatant (or corrects its place): ``to`` in feet, from ``from_``."""

    __slots__ = ("from_", "to")
    kind: ClassVar[str] = "place"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "from_", "to")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), from_: tuple[int, int] | None = None,
                 to: tuple[int, int] | None = None) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.from_: Final = from_
        self.to: Final = to


class Replan(Event):
    """The referee replaces the actor's declarations still to come."""

    __slots__ = ("plan",)
    kind: ClassVar[str] = "replan"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "plan")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), plan: tuple[Declaration, ...] = ()) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.plan: Final = plan


class Declarer(Event):
    """The referee changes who declares for ``who`` (a side or a combatant; ``members``: the combatants it names
    now): ``mode`` ask (a person), auto (its policy) or repeat (its last declaration stands while possible)."""

    __slots__ = ("members", "mode", "who")
    kind: ClassVar[str] = "declarer"
    _fields: ClassVar[tuple[str, ...]] = (*COMMON_FIELDS, "who", "mode", "members")

    def __init__(self, tick: Tick, at: str, round: int | None, actor: str | None = None, why: str | None = None,
                 detail: str | None = None, rolls: Rolls = (), who: str = "", mode: str = "ask",
                 members: tuple[str, ...] = ()) -> None:
        super().__init__(tick, at, round, actor, why, detail, rolls)
        self.who: Final = who
        self.mode: Final = mode
        self.members: Final = members


class Note(Event):
    """A note the referee keeps in the log (its words are the ``detail``); it changes nothing."""

    __slots__ = ()
    kind: ClassVar[str] = "note"


#: Every event type, the subclasses (Missile, SpellLost, Wait, Surrender) included.
EVENT_TYPES: tuple[type[Event], ...] = (
    Surprise, Initiative, Declare, Morale, Check, Move, Melee, Missile, Wound, CastStart, Cast, SpellRuined,
    SpellLost, Effect, Expire, Misc, Wait, Surrender, Delay, Impossible, Abort, Fatigue, Condition, Down, Damage,
    Heal, Join, Leave, Replan, Declarer, Note, Place)
