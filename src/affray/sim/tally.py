"""Reading one fight: the only place the simulator looks at events.

It reads the engine's typed events (``affray.engine.events``) as the lean fight emits them: attacks (``Melee``,
``Missile``: who hit whom and when), the damage that lands (an attack's unless a later ``Wound`` brings it, a
spell's ``Cast`` and delayed ``Effect``, the referee's ``Damage``), the falls (``Down``), ``Morale`` checks, and
each casting from its declaration (``Declare``) through its start (``CastStart``) to its end: it lands (``Cast``),
is ruined (``SpellRuined``) or lost (``SpellLost``), or never begins or is cut off (``Impossible``: refused by the
ruleset, or its caster fell; or another declaration replaced it, or the fight ended first). Nothing else of the
engine (neither ``Fight.memo`` nor a ruleset's bookkeeping). What events cannot say, the final state says: who is
down or fled and every combatant's hit points. Moments are kept in game seconds (``sim.clock``).

Each kind of event goes to its handler by a chain of type tests, the commonest kinds first (most kinds have none).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any, ClassVar, Final

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
    Morale,
    SpellLost,
    SpellRuined,
    Tick,
    Wound,
)
from affray.sim.clock import seconds_of

__all__ = ["OUTCOMES", "SIMULTANEOUS", "Casting", "CombatantRecord", "FightRecord", "Sums", "Tally", "fold",
           "landed_before_hurt"]

#: ``first_blow`` when two sides or more landed their first hits on the same tick (equal ticks are simultaneous).
SIMULTANEOUS = "simultaneous"
#: How a casting ends: it lands; it is ruined, or ruined and lost from memory (G-11); it never begins (refused,
#: replaced by another declaration, its caster fell, or the fight ended first); or, begun, it is cut off (its
#: caster fell, or the fight ended).
OUTCOMES = ("landed", "ruined", "lost", "unbegun", "cut")


# A record is made once a fight (20,000 fights a second is the aim) and read in the process that asked (pickled).
# The three kinds are plain classes with their own ``__init__`` (native in the compiled build, built by a direct
# call), not dataclasses: a frozen dataclass's generated ``__init__`` is interpreted Python that sets each field
# through ``object.__setattr__``, some 20,000 instructions a combatant's record in the compiled build (callgrind),
# more than the tally's reading of the whole fight. What the dataclasses gave is kept: the same fields in the same
# order (``_fields``), keyword or positional, equality and ``repr`` field by field, and ``__reduce__`` (a call of
# the class), without which the compiled build could not unpickle one. Their fields are ``Final``: read-only in the
# compiled build, never written in the pure one (mypy).


class _Record:
    """What the three records share: equality, ``repr`` and pickling by their fields."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __hash__(self) -> int:  # a frozen dataclass's: of its fields (a record holding dicts cannot be hashed)
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"

    def __reduce__(self) -> tuple[type[_Record], tuple[Any, ...]]:
        return type(self), self._values()


class Casting(_Record):
    """One spell a combatant set out to cast, from its declaration to its end (moments in game seconds).

    ``declared``: when it was declared (or begun, for a casting begun without a declaration of its own); ``begun``:
    when casting began (``cast-start``), None if it never did; ``ended``: when it landed, was ruined or lost, or was
    given up (None: the fight ended first); ``outcome``: one of OUTCOMES; ``why`` (unbegun or cut): "refused" (by
    the ruleset), "replaced", "fell", "ended"; ``hurt``: its caster took damage after declaring it and before it
    ended; ``tick``: the moment it ended (moments compare by tick: equal ticks are simultaneous)."""

    __slots__ = ("begun", "declared", "ended", "hurt", "outcome", "spell", "tick", "why")
    _fields: ClassVar[tuple[str, ...]] = ("spell", "declared", "begun", "ended", "outcome", "why", "hurt", "tick")

    def __init__(self, spell: str, declared: float, begun: float | None, ended: float | None, outcome: str,
                 why: str | None, hurt: bool, tick: Tick | None = None) -> None:
        self.spell: Final = spell
        self.declared: Final = declared
        self.begun: Final = begun
        self.ended: Final = ended
        self.outcome: Final = outcome
        self.why: Final = why
        self.hurt: Final = hurt
        self.tick: Final = tick


class CombatantRecord(_Record):
    """What one combatant came to in one fight (moments in game seconds from the start).

    ``start``, ``hp``: hit points at the start and at the end; ``fled``: left the fight standing (fled or
    surrendered); ``broke``: failed a morale check at least once; ``hurt_at``, ``down_at``: when it first took
    damage, when it fell; ``hurt_tick``: the moment it first took damage; ``struck_at``: when its first blow hit;
    ``dealt``: damage its blows and spells did to the other sides' combatants. The same moments in the ruleset's
    own unit: ``hurt_in``, ``down_in``, ``struck_in``, the round (cycle, phase) it was first hurt in, fell in,
    first struck a blow that hit in (the tick's first count)."""

    __slots__ = ("broke", "castings", "dealt", "down", "down_at", "down_in", "fled", "hp", "hurt_at", "hurt_in",
                 "hurt_tick", "name", "side", "start", "struck_at", "struck_in")
    _fields: ClassVar[tuple[str, ...]] = ("name", "side", "start", "hp", "down", "fled", "broke", "hurt_at",
                                          "down_at", "hurt_tick", "struck_at", "dealt", "castings", "hurt_in",
                                          "down_in", "struck_in")

    def __init__(self, name: str, side: str, start: int, hp: int, down: bool, fled: bool, broke: bool,
                 hurt_at: float | None, down_at: float | None, hurt_tick: Tick | None, struck_at: float | None,
                 dealt: int, castings: tuple[Casting, ...], hurt_in: int | None = None, down_in: int | None = None,
                 struck_in: int | None = None) -> None:
        self.name: Final = name
        self.side: Final = side
        self.start: Final = start
        self.hp: Final = hp
        self.down: Final = down
        self.fled: Final = fled
        self.broke: Final = broke
        self.hurt_at: Final = hurt_at
        self.down_at: Final = down_at
        self.hurt_tick: Final = hurt_tick
        self.struck_at: Final = struck_at
        self.dealt: Final = dealt
        self.castings: Final = castings
        self.hurt_in: Final = hurt_in
        self.down_in: Final = down_in
        self.struck_in: Final = struck_in


class FightRecord(_Record):
    """What one fight came to.

    ``winner``: None for a draw (several sides standing when time ran out, or nobody); ``length``: in the ruleset's
    own unit (rounds, cycles or phases); ``seconds``: in game seconds (``sim.clock``); ``first_blow``: the side
    whose hit landed first, SIMULTANEOUS, or None when nobody hit, ``first_blow_at`` when (game seconds);
    ``first_fall_at``: when the first combatant fell; ``spells``: side -> {"completed", "ruined", "lost",
    "unbegun", "cut"}; ``dealt``: side -> damage its blows and spells did to other sides' combatants, as it landed;
    ``taken``: side -> hit points its combatants lost; ``down``: combatants down (dead or unconscious) at the end;
    ``fled``: combatants who left the fight standing (fled or surrendered); ``broke``: combatants who failed a
    morale check at least once; ``morale``: side -> (checks, failures); ``combatants``: in file order;
    ``first_blow_in``, ``first_fall_in``: the round (cycle, phase) of the first hit (the tick's first count) and of
    the first fall."""

    __slots__ = ("broke", "combatants", "dealt", "down", "first_blow", "first_blow_at", "first_blow_in",
                 "first_fall_at", "first_fall_in", "fled", "length", "morale", "seconds", "seed", "spells", "taken",
                 "winner")
    _fields: ClassVar[tuple[str, ...]] = ("seed", "winner", "length", "seconds", "first_blow", "first_blow_at",
                                          "first_fall_at", "spells", "dealt", "taken", "down", "fled", "broke",
                                          "morale", "combatants", "first_blow_in", "first_fall_in")

    def __init__(self, seed: int, winner: str | None, length: int, seconds: float, first_blow: str | None,
                 first_blow_at: float | None, first_fall_at: float | None, spells: dict[str, dict[str, int]],
                 dealt: dict[str, int], taken: dict[str, int], down: tuple[str, ...], fled: tuple[str, ...],
                 broke: tuple[str, ...], morale: dict[str, tuple[int, int]], combatants: tuple[CombatantRecord, ...],
                 first_blow_in: int | None = None, first_fall_in: int | None = None) -> None:
        self.seed: Final = seed
        self.winner: Final = winner
        self.length: Final = length
        self.seconds: Final = seconds
        self.first_blow: Final = first_blow
        self.first_blow_at: Final = first_blow_at
        self.first_fall_at: Final = first_fall_at
        self.spells: Final = spells
        self.dealt: Final = dealt
        self.taken: Final = taken
        self.down: Final = down
        self.fled: Final = fled
        self.broke: Final = broke
        self.morale: Final = morale
        self.combatants: Final = combatants
        self.first_blow_in: Final = first_blow_in
        self.first_fall_in: Final = first_fall_in


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

    __slots__ = ("_closed", "_dealt", "_dealt_by", "_down_at", "_first", "_first_fall", "_first_hit", "_hitters",
                 "_hurt_at", "_morale", "_open", "_sides_list", "_spells", "_struck", "broke", "clock", "hp",
                 "inclusive", "sides")

    def __init__(self, sides: dict[str, str], hp: dict[str, int], *, inclusive: bool = True,
                 ruleset: str = "", spells: bool = True, order: list[str] | None = None) -> None:
        """``spells``: whether anyone in the fight has a spell (without, declarations are not read at all);
        ``order``: the sides in the order of their first combatants, when the caller has it (a batch's fights
        share it; it is read, never changed)."""
        self.sides = sides
        self.hp = hp
        self.inclusive = inclusive
        self.clock: Callable[[Tick], float] = seconds_of(ruleset)
        self._sides_list = order if order is not None else list(dict.fromkeys(sides.values()))
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
        self._spells = spells

    def __call__(self, e: Event) -> None:  # noqa: C901
        if self._first is None:
            self._first = e.tick
        # Each kind to its handler, the commonest first: a direct call in the compiled build (a handler looked up by
        # type and called through Python's protocol cost a third of the tally's reading). ``Missile`` and
        # ``SpellLost`` are kinds of ``Melee`` and ``SpellRuined``; every other kind changes nothing it counts and
        # passes every test.
        if isinstance(e, Melee):
            self._melee(e)
        elif isinstance(e, Wound):
            self._wound(e)
        elif isinstance(e, Down):
            self._down(e)
        elif isinstance(e, Declare):
            if self._spells:  # without spells in the fight, declarations are not read at all
                self._declare(e)
        elif isinstance(e, Morale):
            self._on_morale(e)
        elif isinstance(e, CastStart):
            self._cast_start(e)
        elif isinstance(e, Cast):
            self._landed(e)
        elif isinstance(e, SpellRuined):
            self._ruined(e)
        elif isinstance(e, Impossible):
            self._impossible(e)
        elif isinstance(e, Effect):
            self._effect(e)
        elif isinstance(e, Damage):
            self._damage(e)

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


def landed_before_hurt(k: Casting, c: CombatantRecord) -> bool:
    """Whether the casting ``k`` of ``c`` landed strictly before ``c`` first took damage (or ``c`` never did): by
    tick, for equal ticks are simultaneous (side-d6 times nothing within its one-minute round, but orders it)."""
    if k.outcome != "landed" or k.tick is None:
        return False
    return c.hurt_tick is None or k.tick < c.hurt_tick


def _moments() -> list[float]:
    return [0.0, 0.0, 0.0]  # sum, sum of squares, count


def _add(m: list[float], x: float) -> None:
    m[0] += x
    m[1] += x * x
    m[2] += 1.0


def _at(moments: dict[str, list[float]], key: str) -> list[float]:
    m = moments.get(key)
    if m is None:
        m = moments[key] = _moments()
    return m


class Sums:
    """Fights' records summed as ``Summary`` sums them, in plain dictionaries and lists (a batch's, then added to
    its summary once: ``into``). A ``Counter`` is a subclass written in Python: each ``c[k] += 1`` goes through its
    type's slots (some 1,200 instructions in the compiled build, a plain dict's under 150), and a summary's fields
    are read through its instance dictionary; here the counts are a native class's. Each dictionary takes its keys
    in the order the summary's counter would (at a record's first count of them, zeros included), so that ``into``
    gives a summary the same, key order and all."""

    __slots__ = ("broke", "castings", "dealt", "digest", "digests", "draws", "fights", "first_blow", "first_blow_won",
                 "fled", "hurt", "keys", "lengths", "moments", "morale_checks", "morale_failures", "seconds", "sides",
                 "spells", "survived", "taken", "winners", "wins")

    def __init__(self, sides: list[str], digest: bool) -> None:
        self.sides = sides
        self.digest = digest
        self.fights = 0
        self.draws = 0
        self.first_blow_won = 0
        self.wins: dict[str, int] = {}
        self.lengths: dict[int, int] = {}
        self.first_blow: dict[str, int] = {}
        self.spells: dict[str, dict[str, int]] = {}
        self.dealt: dict[str, int] = {}
        self.taken: dict[str, int] = {}
        self.survived: dict[str, int] = {}
        self.fled: dict[str, int] = {}
        self.broke: dict[str, int] = {}
        self.morale_checks: dict[str, int] = {}
        self.morale_failures: dict[str, int] = {}
        self.moments: dict[str, list[float]] = {}
        self.hurt: dict[str, int] = {}
        self.castings: dict[tuple[str, str], dict[str, int]] = {}
        self.winners: list[int] = []
        self.seconds: list[float] = []
        self.digests: list[int] = []
        #: A combatant's (or side's) moments' keys, "hurt:NAME", "down:NAME", "struck:NAME" ("dealt:SIDE"), written
        #: once a batch rather than three times a fight.
        self.keys: dict[str, tuple[str, str, str]] = {}

    def key(self, name: str) -> tuple[str, str, str]:
        keys = self.keys.get(name)
        if keys is None:
            keys = self.keys[name] = ("hurt:" + name, "down:" + name, "struck:" + name)
        return keys

    def add(self, r: FightRecord) -> None:
        fold(self, r)


def fold(sums: Sums, r: FightRecord) -> None:  # noqa: C901
    """One fight's record added to ``sums`` (``Summary.add``, a simulation's batch: ``Sums.add``)."""
    sums.fights += 1
    winner = r.winner
    if winner is None:
        sums.draws += 1
    else:
        wins = sums.wins
        wins[winner] = wins.get(winner, 0) + 1
    sums.winners.append(sums.sides.index(winner) if winner in sums.sides else -1)
    sums.seconds.append(r.seconds)
    if sums.digest:
        sums.digests.append(zlib.crc32(repr((winner, r.length, r.dealt, r.taken, r.down, r.fled)).encode()))
    lengths = sums.lengths
    lengths[r.length] = lengths.get(r.length, 0) + 1
    first_blow = sums.first_blow
    blow = r.first_blow or "none"
    first_blow[blow] = first_blow.get(blow, 0) + 1
    if r.first_blow is not None and r.first_blow == winner:
        sums.first_blow_won += 1
    m = sums.moments
    if r.first_blow_at is not None:
        _add(_at(m, "first_blow"), r.first_blow_at)
    if r.first_fall_at is not None:
        _add(_at(m, "first_fall"), r.first_fall_at)
    spells = sums.spells
    for side, counts in r.spells.items():
        mine = spells.get(side)
        if mine is None:
            mine = spells[side] = {}
        for kind, n in counts.items():
            if n:
                mine[kind] = mine.get(kind, 0) + n
    dealt, taken = sums.dealt, sums.taken
    for side, dmg in r.dealt.items():
        dealt[side] = dealt.get(side, 0) + dmg
        _add(_at(m, "dealt:" + side), dmg)  # a side or two a fight
    for side, dmg in r.taken.items():
        taken[side] = taken.get(side, 0) + dmg
    fled, broke = sums.fled, sums.broke
    for name in r.fled:
        fled[name] = fled.get(name, 0) + 1
    for name in r.broke:
        broke[name] = broke.get(name, 0) + 1
    checked, failed = sums.morale_checks, sums.morale_failures
    for side, (checks, failures) in r.morale.items():
        checked[side] = checked.get(side, 0) + checks
        failed[side] = failed.get(side, 0) + failures
    survived, hurt = sums.survived, sums.hurt
    for c in r.combatants:
        name = c.name
        if not c.down:
            survived[name] = survived.get(name, 0) + 1
        hurt_key, down_key, struck_key = sums.key(name)
        at = c.hurt_at
        if at is not None:
            hurt[name] = hurt.get(name, 0) + 1
            _add(_at(m, hurt_key), at)
        at = c.down_at
        if at is not None:
            _add(_at(m, down_key), at)
        at = c.struck_at
        if at is not None:
            _add(_at(m, struck_key), at)
        if not c.castings:
            continue
        first: dict[str, Casting] = {}
        for k in c.castings:
            key = (name, k.spell)
            got = sums.castings.get(key)
            counts = got if got is not None else sums.castings.setdefault(key, {})
            counts[k.outcome] = counts.get(k.outcome, 0) + 1
            if k.why is not None:
                why = f"{k.outcome}:{k.why}"
                counts[why] = counts.get(why, 0) + 1
            if k.hurt:
                counts["hurt"] = counts.get("hurt", 0) + 1
            if k.outcome == "landed" and k.spell not in first and k.ended is not None:
                first[k.spell] = k
        for spell, k in first.items():
            counts = sums.castings[(name, spell)]
            counts["fights"] = counts.get("fights", 0) + 1
            if landed_before_hurt(k, c):
                counts["before"] = counts.get("before", 0) + 1
            _add(_at(m, f"landed:{name}:{spell}"), k.ended or 0.0)
