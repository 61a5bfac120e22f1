"""Reading one fight: the only place the simulator looks at events.

It reads the engine's typed events (``affray.engine.events``) as the lean fight emits them: attacks (``Melee``,
``Missile``: who hit whom and when), the damage that lands (an attack's unless a later ``Wound`` brings it, a
spell's ``Cast`` and delayed ``Effect``, the referee's ``Damage``), the falls (``Down``), ``Morale`` checks, and
each casting from its declaration (``Declare``) through its start (``CastStart``) to its end: it lands (``Cast``),
is ruined (``SpellRuined``) or lost (``SpellLost``), or never begins or is cut off (``Impossible``: refused by the
ruleset, or its caster fell; or another declaration replaced it, or the fight ended first). Nothing else of the
engine (neither ``Fight.memo`` nor a ruleset's bookkeeping). What events cannot say, the final state says: who is
down or fled and every combatant's hit points. Moments are kept in game seconds (``sim.clock``).

Each kind of event goes to its handler by its type (one dictionary look-up an event; most kinds have none).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from affray.engine.events import (
    Cast,
    CastStart,
    Damage,
    Declare,
    Down,
    Effect,
    Event,
    Impossible,
    Melee,
    Missile,
    Morale,
    SpellLost,
    SpellRuined,
    Tick,
    Wound,
)
from affray.sim.clock import seconds_of

__all__ = ["OUTCOMES", "SIMULTANEOUS", "Casting", "CombatantRecord", "FightRecord", "Tally"]

#: ``first_blow`` when two sides or more landed their first hits on the same tick (equal ticks are simultaneous).
SIMULTANEOUS = "simultaneous"
#: How a casting ends: it lands; it is ruined, or ruined and lost from memory (G-11); it never begins (refused,
#: replaced by another declaration, its caster fell, or the fight ended first); or, begun, it is cut off (its
#: caster fell, or the fight ended).
OUTCOMES = ("landed", "ruined", "lost", "unbegun", "cut")


# A record is made in a worker process and read in the one that asked (pickled): each says how it is made again
# (``__reduce__``), as a call of its class. Without it, the compiled build (mypyc) could not unpickle one: a frozen
# dataclass with slots sets its fields again one by one, which its compiled ``__setattr__`` refuses
# (FrozenInstanceError, a worker's batch lost as BrokenProcessPool).


@dataclass(frozen=True, slots=True)
class Casting:
    """One spell a combatant set out to cast, from its declaration to its end (moments in game seconds)."""

    spell: str
    declared: float  # when it was declared (or begun, for a casting begun without a declaration of its own)
    begun: float | None  # when casting began (``cast-start``), None if it never did
    ended: float | None  # when it landed, was ruined or lost, or was given up; None: the fight ended first
    outcome: str  # one of OUTCOMES
    why: str | None  # unbegun or cut: "refused" (by the ruleset), "replaced", "fell", "ended"
    hurt: bool  # its caster took damage after declaring it and before it ended
    tick: Tick | None = None  # the moment it ended (moments compare by tick: equal ticks are simultaneous)

    def __reduce__(self) -> tuple[type[Casting], tuple[Any, ...]]:
        return Casting, (self.spell, self.declared, self.begun, self.ended, self.outcome, self.why, self.hurt,
                         self.tick)


@dataclass(frozen=True, slots=True)
class CombatantRecord:
    """What one combatant came to in one fight (moments in game seconds from the start)."""

    name: str
    side: str
    start: int  # hit points at the start
    hp: int  # at the end
    down: bool
    fled: bool  # left the fight standing (fled or surrendered)
    broke: bool  # failed a morale check at least once
    hurt_at: float | None  # when it first took damage
    down_at: float | None  # when it fell
    hurt_tick: Tick | None  # the moment it first took damage
    struck_at: float | None  # when its first blow hit
    dealt: int  # damage its blows and spells did to the other sides' combatants
    castings: tuple[Casting, ...]
    #: The same moments in the ruleset's own unit: the round (cycle, phase) it was first hurt in, fell in, first
    #: struck a blow that hit in (the tick's first count).
    hurt_in: int | None = None
    down_in: int | None = None
    struck_in: int | None = None

    def __reduce__(self) -> tuple[type[CombatantRecord], tuple[Any, ...]]:
        return CombatantRecord, (self.name, self.side, self.start, self.hp, self.down, self.fled, self.broke,
                                 self.hurt_at, self.down_at, self.hurt_tick, self.struck_at, self.dealt,
                                 self.castings, self.hurt_in, self.down_in, self.struck_in)


@dataclass(frozen=True, slots=True)
class FightRecord:
    """What one fight came to."""

    seed: int
    winner: str | None  # None: a draw (several sides standing when time ran out, or nobody)
    length: int  # in the ruleset's own unit (rounds, cycles or phases)
    seconds: float  # in game seconds (``sim.clock``)
    first_blow: str | None  # the side whose hit landed first, SIMULTANEOUS, or None when nobody hit
    first_blow_at: float | None  # when, in game seconds
    first_fall_at: float | None  # when the first combatant fell
    spells: dict[str, dict[str, int]]  # side -> {"completed", "ruined", "lost", "unbegun", "cut"}
    dealt: dict[str, int]  # side -> damage its blows and spells did to other sides' combatants, as it landed
    taken: dict[str, int]  # side -> hit points its combatants lost
    down: tuple[str, ...]  # combatants down (dead or unconscious) at the end
    fled: tuple[str, ...]  # combatants who left the fight standing (fled or surrendered)
    broke: tuple[str, ...]  # combatants who failed a morale check at least once
    morale: dict[str, tuple[int, int]]  # side -> (checks, failures)
    combatants: tuple[CombatantRecord, ...]  # in file order
    first_blow_in: int | None = None  # the round (cycle, phase) of the first hit: the tick's first count
    first_fall_in: int | None = None  # and of the first fall

    def __reduce__(self) -> tuple[type[FightRecord], tuple[Any, ...]]:
        return FightRecord, (self.seed, self.winner, self.length, self.seconds, self.first_blow, self.first_blow_at,
                             self.first_fall_at, self.spells, self.dealt, self.taken, self.down, self.fled,
                             self.broke, self.morale, self.combatants, self.first_blow_in, self.first_fall_in)


class _Open:
    """A casting under way."""

    __slots__ = ("begun", "declared", "hurt", "spell")

    def __init__(self, spell: str, declared: float, begun: float | None = None) -> None:
        self.spell = spell
        self.declared = declared
        self.begun = begun
        self.hurt = False


_SPELL_COUNTS = {"landed": "completed", "ruined": "ruined", "lost": "lost", "unbegun": "unbegun", "cut": "cut"}


class Tally:
    """An ``on_event`` callback for one fight in lean mode; ``record(...)`` once it has run.

    ``sides`` maps each combatant to its side and ``hp`` to its starting hit points, in file order; ``ruleset``
    picks the clock (``sim.clock``). ``inclusive``: a fight's length is counted from its first event, inclusive
    (rounds and cycles: "round 3" is 3 rounds) or not (phase-count's phases run from phase 0: "phase 13" is 13
    phases)."""

    __slots__ = ("_closed", "_dealt", "_dealt_by", "_down_at", "_first", "_first_fall", "_first_hit", "_handlers",
                 "_hitters", "_hurt_at", "_morale", "_open", "_sides_list", "_struck", "broke", "clock", "hp",
                 "inclusive", "sides")

    def __init__(self, sides: dict[str, str], hp: dict[str, int], *, inclusive: bool = True,
                 ruleset: str = "", spells: bool = True) -> None:
        """``spells``: whether anyone in the fight has a spell (without, declarations are not read at all)."""
        self.sides = sides
        self.hp = hp
        self.inclusive = inclusive
        self.clock: Callable[[Tick], float] = seconds_of(ruleset)
        self._sides_list = list(dict.fromkeys(sides.values()))
        self._first: Tick | None = None
        self._first_hit: Tick | None = None
        self._first_fall: Tick | None = None
        self._hitters: set[str] = set()
        self._dealt: dict[str, int] = {}  # side -> damage it did to the other sides' combatants
        self._dealt_by: dict[str, int] = {}  # combatant -> the same
        self._hurt_at: dict[str, Tick] = {}
        self._struck: dict[str, Tick] = {}  # combatant -> when its first blow hit
        self._down_at: dict[str, Tick] = {}
        self._morale: dict[str, list[int]] = {}
        self._open: dict[str, _Open] = {}  # caster -> its casting under way
        self._closed: dict[str, list[Casting]] = {}
        self.broke: set[str] = set()
        self._handlers = _HANDLERS if spells else _NO_SPELLS

    def __call__(self, e: Event) -> None:
        if self._first is None:
            self._first = e.tick
        handler = self._handlers.get(type(e))
        if handler is not None:
            handler(self, e)

    # -- damage ---------------------------------------------------------------------------------------------
    def _hurt(self, target: str, tick: Tick) -> None:
        if target not in self._hurt_at:
            self._hurt_at[target] = tick
        casting = self._open.get(target)
        if casting is not None:
            casting.hurt = True

    def _deal(self, actor: str | None, target: str | None, damage: int, tick: Tick) -> None:
        if target is None or damage <= 0:
            return
        self._hurt(target, tick)
        if actor is None:
            return
        side = self.sides.get(actor)
        if side is not None and self.sides.get(target) != side:
            self._dealt[side] = self._dealt.get(side, 0) + damage
            self._dealt_by[actor] = self._dealt_by.get(actor, 0) + damage

    def _melee(self, e: Melee) -> None:  # Missile too
        if not e.hit or e.actor is None:
            return
        tick = e.tick
        side = self.sides[e.actor]
        if e.actor not in self._struck:
            self._struck[e.actor] = tick
        if self._first_hit is None:
            self._first_hit = tick
            self._hitters.add(side)
        elif tick == self._first_hit:
            self._hitters.add(side)
        if e.lands is None:  # a later ``wound`` brings damage that lands later
            self._deal(e.actor, e.target, e.damage, tick)

    def _wound(self, e: Wound) -> None:
        self._deal(e.actor, e.target, e.damage, e.tick)

    def _effect(self, e: Effect) -> None:  # a spell's delayed damage (PC-12)
        for name, dmg in e.effects.items():
            self._deal(e.actor, name, dmg, e.tick)

    def _damage(self, e: Damage) -> None:  # the referee's hand
        if e.target is not None and (e.damage or 0) > 0:
            self._hurt(e.target, e.tick)

    def _down(self, e: Down) -> None:
        if e.actor is not None and e.actor not in self._down_at:
            self._down_at[e.actor] = e.tick
            if self._first_fall is None:
                self._first_fall = e.tick
            self._close(e.actor, e.tick, "fell")

    # -- spells ---------------------------------------------------------------------------------------------
    def _end(self, actor: str, casting: _Open, outcome: str, tick: Tick | None, why: str | None = None) -> None:
        ended = self.clock(tick) - self._start() if tick is not None else None
        self._closed.setdefault(actor, []).append(Casting(casting.spell, casting.declared, casting.begun, ended,
                                                          outcome, why, casting.hurt, tick))

    def _close(self, actor: str, tick: Tick | None, why: str) -> None:
        """``actor``'s casting under way, if any, ends without landing: never begun, or cut off."""
        casting = self._open.pop(actor, None)
        if casting is not None:
            self._end(actor, casting, "unbegun" if casting.begun is None else "cut", tick, why)

    def _start(self) -> float:
        return self.clock(self._first) if self._first is not None else 0.0

    def _declare(self, e: Declare) -> None:
        order = e.order
        actor = e.actor
        if actor is None or e.continuing or order is None:
            return
        casting = self._open.get(actor)
        if casting is not None and casting.begun is None:  # declared anew before it began: given up
            self._close(actor, e.tick, "replaced")
        if order.action == "cast" and order.cast is not None and actor not in self._open:
            self._open[actor] = _Open(order.cast, self.clock(e.tick) - self._start())

    def _cast_start(self, e: CastStart) -> None:
        actor = e.actor
        if actor is None or e.spell is None:
            return
        casting = self._open.get(actor)
        now = self.clock(e.tick) - self._start()
        if casting is None or casting.spell != e.spell:
            if casting is not None:
                self._close(actor, e.tick, "replaced")
            casting = self._open[actor] = _Open(e.spell, now)
        casting.begun = now

    def _landed(self, e: Cast) -> None:
        actor = e.actor
        for name, dmg in e.effects.items():
            self._deal(actor, name, dmg, e.tick)
        if actor is None or e.spell is None:
            return
        casting = self._open.pop(actor, None)
        if casting is None or casting.spell != e.spell:
            casting = _Open(e.spell, self.clock(e.tick) - self._start())
        self._end(actor, casting, "landed", e.tick)

    def _ruined(self, e: SpellRuined) -> None:  # SpellLost too
        actor = e.actor
        if actor is None:
            return
        casting = self._open.pop(actor, None)
        if casting is None:
            casting = _Open(e.spell or "", self.clock(e.tick) - self._start())
        self._end(actor, casting, "lost" if isinstance(e, SpellLost) else "ruined", e.tick)

    def _impossible(self, e: Impossible) -> None:
        """A casting cancelled: its spell named (it could not be paid for, its caster fell), or, unnamed, the step
        of a caster whose casting has not begun (the ruleset refused its start: D12-09's hurt earlier this
        round)."""
        actor = e.actor
        if actor is None:
            return
        casting = self._open.get(actor)
        if e.spell is not None or (casting is not None and casting.begun is None):
            self._close(actor, e.tick, "fell" if actor in self._down_at else "refused")

    def _on_morale(self, e: Morale) -> None:
        side = e.side
        members = e.members
        if side is None and members:
            side = self.sides.get(members[0])
        if side is not None:
            checks = self._morale.setdefault(side, [0, 0])
            checks[0] += 1
            if e.passed is False:
                checks[1] += 1
                self.broke.update(members)

    # -- the record -----------------------------------------------------------------------------------------
    def record(self, seed: int, winner: str | None, combatants: dict[str, dict[str, Any]],
               last: Tick | None = None) -> FightRecord:
        """The fight's record, from the events seen, the final state's ``combatants`` (CONTRACT's) and the tick of
        the last event (``Fight.now``)."""
        sides = self.sides
        first = self._first
        if self._open:  # the fight ended with these under way
            for actor in list(self._open):
                self._close(actor, None, "ended")
        length = 0 if first is None or not last else last[0] - first[0] + (1 if self.inclusive else 0)
        start = self._start()
        clock = self.clock
        sides_list = self._sides_list
        hp, hurt_at, down_at, closed, dealt_by, broke = (self.hp, self._hurt_at, self._down_at, self._closed,
                                                         self._dealt_by, self.broke)
        struck = self._struck
        hitters = self._hitters
        first_blow = None if not hitters else next(iter(hitters)) if len(hitters) == 1 else SIMULTANEOUS
        dealt = {side: self._dealt.get(side, 0) for side in sides_list}
        taken = dict.fromkeys(sides_list, 0)
        spells = {side: dict.fromkeys(_SPELL_COUNTS.values(), 0) for side in sides_list}
        records = []
        down: list[str] = []
        fled: list[str] = []
        for name, c in combatants.items():
            side = sides[name]
            end = c["hp"]
            taken[side] += hp[name] - end
            is_down = bool(c["down"])
            ran = bool(c.get("fled")) and not is_down
            if is_down:
                down.append(name)
            elif ran:
                fled.append(name)
            castings = tuple(closed.get(name, ()))
            for casting in castings:
                spells[side][_SPELL_COUNTS[casting.outcome]] += 1
            hurt = hurt_at.get(name)
            fell = down_at.get(name)
            hit = struck.get(name)
            records.append(CombatantRecord(
                name, side, hp[name], end, is_down, ran, name in broke,
                clock(hurt) - start if hurt is not None else None, clock(fell) - start if fell is not None else None,
                hurt, clock(hit) - start if hit is not None else None, dealt_by.get(name, 0), castings,
                hurt[0] if hurt is not None else None, fell[0] if fell is not None else None,
                hit[0] if hit is not None else None))
        return FightRecord(
            seed=seed, winner=winner, length=length, seconds=clock(last) - start if last else 0.0,
            first_blow=first_blow,
            first_blow_at=clock(self._first_hit) - start if self._first_hit is not None else None,
            first_fall_at=clock(self._first_fall) - start if self._first_fall is not None else None,
            spells=spells, dealt=dealt, taken=taken, down=tuple(down), fled=tuple(fled),
            broke=tuple(n for n in combatants if n in broke) if broke else (),
            morale={s: (self._morale[s][0], self._morale[s][1]) for s in sides_list if s in self._morale},
            combatants=tuple(records),
            first_blow_in=self._first_hit[0] if self._first_hit is not None else None,
            first_fall_in=self._first_fall[0] if self._first_fall is not None else None)


#: Each kind of event the tally reads, by its type (``Missile`` and ``SpellLost`` are kinds of ``Melee`` and
#: ``SpellRuined``; every other kind changes nothing it counts).
_HANDLERS: dict[type[Event], Callable[[Tally, Any], None]] = {
    Melee: Tally._melee, Missile: Tally._melee, Wound: Tally._wound, Effect: Tally._effect, Damage: Tally._damage,
    Down: Tally._down, Declare: Tally._declare, CastStart: Tally._cast_start, Cast: Tally._landed,
    SpellRuined: Tally._ruined, SpellLost: Tally._ruined, Impossible: Tally._impossible, Morale: Tally._on_morale,
}
#: The same, for a fight where nobody has a spell: its declarations are not read.
_NO_SPELLS = {kind: handler for kind, handler in _HANDLERS.items() if kind is not Declare}
