"""A fight the caller drives: pull the next thing, answer what is asked, undo to any earlier point.

``Drive.pull()`` returns the next event (as the timeline has it), a question (a declaration wanted from a
named combatant, a die wanted), optionally a ``Coming`` step about to resolve, or the ``End``. A question
stays pending until ``answer`` accepts an answer; ``pull`` sends it again meanwhile. Between pulls the
caller may enter the referee's commands (``command``) and change which dice are asked (``set_dice``).

How it suspends: the fight runs in a greenlet, which switches back to the caller at *points*: as a step is
about to resolve, as a combatant comes to declare (before its plan is read), at a question, and at the end.
The events made since the last point come out there, together: what a step did, or a declaration point's
initiative with the steps it placed; so the caller's view of what comes next is whole, and a command
entered there lands between steps, never inside one. Nothing blocks and nothing is raised across the API.
Every input (answers, commands, dice preferences) is recorded with its point (the events before it and the
points since the last of them): ``undo`` and a resumed fight rebuild the fight from the start and give
those inputs again at the same points (a fight is a pure function of its file, seed and inputs).

Every die is an input too (OpenSpiel's chance outcomes): a die the referee gives is an answer, and each die
rolled from the seed is recorded as a ``roll`` (its number in the fight, which die, what for, whose, the face),
through the roller's ``chance`` hook. Rebuilt, the fight takes its dice back from the record, in order, and the RNG
decides only past its end: a rule that changes the order of the RNG's calls does not change a saved fight's
dice. (The RNG is still drawn from while rebuilding, so that a resumed fight rolls on exactly as an uninterrupted
one would.) A recorded input that no longer fits the fight being rebuilt (the rules changed) ends the rebuild with
a ``DriveError`` carrying the events rebuilt so far; a recorded die that no longer fits is the first ``strayed``
one, and the RNG decides from there.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from greenlet import greenlet

from affray.drive.commands import CommandError, parse_fight_command
from affray.drive.questions import (
    ROLL,
    AnswerError,
    DeclareQuestion,
    DieQuestion,
    Question,
    Roll,
    check_declaration,
    check_die,
    choices,
)
from affray.engine.events import Event, Tick
from affray.engine.fight import Fight, Result
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.errors import AffrayError
from affray.model.encounter import Declaration, Outcome
from affray.model.order import Order
from affray.policy import Auto

__all__ = ["Coming", "Declaring", "DicePrefs", "Drive", "DriveError", "End", "Input", "Item", "Rolled",
           "still_counts"]


class DriveError(AffrayError):
    """A driven fight that cannot go on: its recorded inputs no longer fit it. ``events``: the events rebuilt
    before the misfit; ``stops``: the points among them where the caller would have had the fight (events before
    each)."""

    def __init__(self, message: str, events: list[Event] | None = None, stops: list[int] | None = None) -> None:
        super().__init__(message)
        self.events: list[Event] = events or []
        self.stops: list[int] = stops or [0]


@dataclass(frozen=True)
class Coming:
    """A step about to resolve (announced to a console that may pause before it)."""

    step: Step


@dataclass(frozen=True)
class Declaring:
    """A combatant about to declare, before its plan, its mode or anyone is asked (announced to a caller that
    may pause there: a round's first declaration point, where the referee says what changes)."""

    fighter: Fighter
    at: str


@dataclass(frozen=True)
class End:
    """The fight is over: no side but one stands, the round cap is reached, or nothing is left to do."""

    result: Result


Item = Event | DeclareQuestion | DieQuestion | Coming | Declaring | End
#: What ``pull`` gives that is not an event.
@dataclass(frozen=True)
class _Order:
    """A referee's command, parsed, and the point it was given at (``Drive.command``)."""

    cmd: Callable[[Fight[Any]], None]
    text: str
    at: int
    k: int


_NOT_EVENTS = (Coming, Declaring, End, DeclareQuestion, DieQuestion)


@dataclass
class DicePrefs:
    """Which dice are asked: by a die's purpose first, then by side, then for all ("ask" or "roll")."""

    by: dict[str, str] = field(default_factory=lambda: {"all": "roll"})

    def asks(self, purpose: str, side: str | None) -> bool:
        mode = self.by.get(purpose) or (self.by.get(side) if side else None) or self.by.get("all", "roll")
        return mode == "ask"

    def set(self, who: str, mode: str) -> None:
        if who == "all":
            self.by.clear()
        self.by[who] = mode


class Rolled(NamedTuple):
    """A die rolled from the seed, as recorded: which die, what for, whose, the face it showed."""

    sides: int
    purpose: str
    actor: str | None
    face: int


@dataclass(frozen=True)
class Input:
    """One input to the fight and the point it was given at: ``at`` events had happened, and ``k`` points had
    been passed since (0: before the fight's first point). ``kind``: "answer" (``key``: "declare" or "die"
    and the question's number of that kind; ``of``: what it answered, a declaration's (actor,) or a die's
    (sides, count, purpose, actor), None in a journal older than that), "command" (``value``: its text), "dice"
    (``value``: (who, mode)), "roll" (``key``: ("roll", its number among the dice rolled from the seed);
    ``value``: ``Rolled``). ``upto``: the events a command's own events reach (undoing into them undoes the whole
    command)."""

    kind: str
    at: int
    k: int = 0
    key: tuple[str, int] | None = None
    value: Any = None
    upto: int = 0
    of: tuple[Any, ...] | None = None


def suggestion(fight: Fight[Any], f: Fighter) -> Declaration | None:
    """What a question offers on Enter: ``f``'s standing declaration while still possible, else what its policy
    would declare (``Auto.preview``: asking changes nothing the policies keep; a policy rolls no dice)."""
    standing = fight.standing(f)
    if standing is not None:
        decl: Declaration | None = standing.source
    else:
        policy = fight.policy
        chosen = policy.preview(fight, f) if isinstance(policy, Auto) else None
        decl = chosen.source if isinstance(chosen, Order) else chosen
    if decl is None:
        return None
    try:  # what Enter offers is what the answer's check accepts: the one validator's word, never a refusal
        return check_declaration(fight, f, decl)
    except AnswerError:
        return None


_KINDS = {"declare": "declaration", "die": "die"}


def _asked(of: tuple[Any, ...]) -> str:
    """What a recorded answer answered, in words."""
    if len(of) == 4:
        sides, count, purpose, actor = of
        return f"the {count if count != 1 else ''}d{sides} for {purpose}" + (f" ({actor})" if actor else "")
    return f"the declaration of {of[0]}"


def still_counts(i: Input, to: int) -> bool:
    """Whether input ``i`` still counts once the fight is taken back to ``to`` events: given before that point,
    or a choice of dice made before the fight began (``--dice ask``, the players' own dice), which no undo takes
    back."""
    return i.at < to or (i.kind == "dice" and i.at == 0 and i.k == 0)


class Drive:
    """One fight, driven. ``make`` builds a fresh fight (``Prepared.fight``); ``inputs`` are given again first
    (a resumed fight); ``announce``: ``pull`` also returns each step about to resolve."""

    fight: Fight[Any]
    _queue: deque[Item]
    _pending: Question | None
    _answer: object
    _end: End | None
    _k: int
    _pending_key: tuple[str, int]
    _pending_of: tuple[Any, ...]

    def __init__(self, make: Callable[[], Fight[Any]], *, dice: DicePrefs | None = None, announce: bool = False,
                 inputs: Iterable[Input] = (), events: int = 0) -> None:
        """``inputs`` recorded before (a resumed fight) are given again while the fight is rebuilt to its first
        ``events`` events."""
        self._make = make
        self._dice0 = DicePrefs(dict((dice or DicePrefs()).by))
        self.announce = announce
        self.inputs: list[Input] = list(inputs)
        self.on_input: Callable[[Input], None] | None = None
        #: Where the fight stands between pulls: the step about to resolve, or who comes to declare (and at
        #: what moment), or neither (before the fight, at a question of a ruleset's own, at the end).
        self.coming: Step | None = None
        self.declaring: tuple[Fighter, str] | None = None
        self._preset: Outcome | int | None = None
        self._damage: tuple[str, int] | None = None  # an attack's damage typed with its d20 (``damage_ahead``)
        self._start(events)

    # -- the caller's side ------------------------------------------------------------------------------
    @property
    def pending(self) -> Question | None:
        """The question waiting for its answer, if any."""
        return self._pending

    @property
    def over(self) -> bool:
        return self._end is not None and not self._queue

    def pull(self) -> Item:
        """The next event, question, announced step or the end."""
        if self._queue:
            return self._queue.popleft()
        if self._pending is not None:
            return self._pending
        if self._end is not None:
            return self._end
        self._resume()
        if self._queue:
            return self._queue.popleft()
        if self._pending is not None:
            return self._pending
        assert self._end is not None
        return self._end

    def peek(self) -> Item | None:
        """What ``pull`` gives next without moving the fight on: a queued item, the pending question, the end,
        or None (the fight must go on to tell)."""
        if self._queue:
            return self._queue[0]
        return self._pending if self._pending is not None else self._end

    def preset(self, outcome: Outcome | int) -> str | None:
        """The referee's outcome (or d20) for the coming step's attack, typed before its d20 is asked: given to
        that attack's roll (recorded as its answer). None once set; else why it cannot be."""
        step = self.coming
        if step is None or step.kind not in ("melee", "missile") or self._pending is not None:
            return "no attack is about to be rolled"
        self._preset = outcome
        return None

    def damage_ahead(self, value: int) -> str | None:
        """The damage of the attack whose d20 is asked now, typed on the same line (``14 6``): given to that attack's
        damage dice if it hits (recorded as their answer), dropped if it misses. None once set; else why not."""
        q = self._pending
        if not isinstance(q, DieQuestion) or not q.attack or q.actor is None:
            return "no attack's d20 is asked"
        self._damage = (q.actor, value)
        return None

    def take_events(self) -> list[Event]:
        """The events already made and not yet pulled (a command's own), in order."""
        out = [x for x in self._queue if not isinstance(x, _NOT_EVENTS)]
        if out:  # a command's events come before what was waiting at its point (a step announced, a question)
            rest = [x for x in self._queue if isinstance(x, _NOT_EVENTS)]
            self._queue = deque(rest)
        return out

    def answer(self, value: object) -> str | None:
        """Answer the pending question: a declaration (a ``Declaration`` or one plan entry as a mapping), a die
        (a whole number, ``ROLL``) or an attack's outcome (``Outcome``). None once accepted; else what is
        wrong, and the question stands."""
        q = self._pending
        if q is None:
            return "no question is waiting for an answer"
        try:
            accepted = self._check(q, value)
        except AnswerError as exc:
            return str(exc)
        self._answer = accepted
        self._pending = None
        if not (isinstance(q, DieQuestion) and accepted is ROLL):
            self._record(Input("answer", len(self.fight.events), self._k, self._pending_key, accepted,
                               of=self._pending_of))
        return None

    def command(self, text: str) -> str | None:
        """A referee's command (``damage``, ``heal``, ``add``, ``remove``, ``plan``, ``condition``, ``end``) at
        the point the fight stands at: None once done (its events come from ``take_events``); else what is
        wrong."""
        if any(not isinstance(x, _NOT_EVENTS) for x in self._queue):
            return "pull the events already made first: a command comes at a point, after them"
        try:
            cmd = parse_fight_command(text, self.fight)
        except CommandError as exc:
            return str(exc)
        order = _Order(cmd, text.strip(), len(self.fight.events), self._k)
        if self._g and not self._g.dead:  # on the fight's own greenlet, where it stands: a declaration the command
            self._g.switch(order)  # calls for (phase-count's newcomer, PC-02) is asked there, as any other
        else:  # before the fight's first step, or after its end: nothing of it can be asked
            self._carry_out(order)
        return None

    def _carry_out(self, order: _Order) -> None:
        """A referee's command, carried out at the point the fight stands at; recorded once done. The question
        waiting before it (if any) waits again after it, offering what is possible then."""
        me = greenlet.getcurrent()
        waiting = self._pending, self._pending_key, self._pending_of, self._answer
        self._busy = True  # a die a command rolls (a morale check's) is never asked: it runs outside the fight's turn
        order.cmd(self.fight)  # a declaration it calls for may switch to the caller, and come back answered
        if self._g is not me and me is not self._g.parent:
            return  # a fight rebuilt (undo, back) while its declaration waited: this one is gone
        self._busy = False
        self._pending, self._pending_key, self._pending_of, self._answer = waiting
        self._record(Input("command", order.at, order.k, value=order.text, upto=len(self.fight.events)))
        self._refresh()

    def _refresh(self) -> None:
        """A declaration waiting while a command changed the fight (a foe put down, a caster hurt) offers what is
        possible now: its choices and suggestion asked of the one validator again, the same question."""
        q = self._pending
        if isinstance(q, DeclareQuestion):
            f = self.fight.state.fighters[q.actor]
            self._pending = DeclareQuestion(q.id, q.actor, q.side, q.at, q.tick, choices(self.fight, f), q.known,
                                            suggestion(self.fight, f))

    def set_dice(self, who: str, mode: str) -> None:
        """From now on ask (``mode`` "ask") or roll the dice of ``who``: a side, a die's purpose, or all."""
        self._prefs.set(who, mode)
        self._record(Input("dice", len(self.fight.events), self._k, value=(who, mode)))

    @property
    def dice(self) -> DicePrefs:
        return self._prefs

    @property
    def stops(self) -> list[int]:
        """The points where the caller had the fight so far (the events before each), in order."""
        return list(self._stops)

    def undo(self, n: int = 1) -> int:
        """Take back the last ``n`` events or more, with the inputs given since: back to the last point the
        caller had before them (a step's events go as a whole, and so does a command's). The fight is rebuilt
        to it. Returns the number of events left."""
        to = max(0, len(self.fight.events) - n)
        cut = [i for i in self.inputs if i.kind == "command" and i.at < to < i.upto]
        if cut:
            to = min(i.at for i in cut)
        to = max(m for m in self._stops if m <= to)
        self.inputs = [i for i in self.inputs if still_counts(i, to)]
        self._start(to)
        return to

    def back(self) -> tuple[Input, int, list[Input]] | None:
        """Take back the last input, whatever it was (an answer, a command, a choice of dice): the fight is rebuilt
        to the point it was given at, where its question is asked again. (The input taken back, the events left,
        the other inputs given at that very point before it, which still count: the dice rolled before its question
        among them); None when nothing was given."""
        undoable = [n for n, i in enumerate(self.inputs) if i.kind != "roll" and not still_counts(i, 0)]
        if not undoable:
            return None
        last = self.inputs[undoable[-1]]
        before = self.inputs[:undoable[-1]]
        again = [i for i in before if i.at == last.at and not still_counts(i, last.at)]
        self.inputs = [i for i in before if still_counts(i, last.at)] + again
        self._start(last.at)
        return last, last.at, again

    # -- the engine's side (inside the greenlet) ---------------------------------------------------------
    def _start(self, to: int) -> None:
        """A fresh fight, given the recorded inputs again up to ``to`` events."""
        fight = self._make()
        fight.asker = self
        fight.on_event = self._on_event
        fight.on_step = self._on_step
        fight.on_declare = self._on_declare
        fight.roller.provider = self._die
        fight.roller.chance = self._chance
        self.coming = None
        self.declaring = None
        self._preset = None
        self._fresh = False
        self._stops = [0]  # the events before each point where the caller had the fight, in order
        self.fight = fight
        self._prefs = DicePrefs(dict(self._dice0.by))
        self._queue = deque()
        self._pending = None
        self._pending_key, self._pending_of = ("", -1), ()
        self._answer: object = None
        self._end: End | None = None
        self._k = 0
        self._counts = {"declare": 0, "die": 0}
        self._asked = 0
        self._given: dict[tuple[str, int], Input] = {i.key: i for i in self.inputs
                                                     if i.kind == "answer" and i.key is not None}
        self._rolls: dict[int, Rolled] = {i.key[1]: i.value for i in self.inputs
                                          if i.kind == "roll" and i.key is not None}
        self._rolled = 0
        #: The first recorded die that no longer fits the fight being rebuilt (its number), if any: from it on, the
        #: RNG decides (and its dice are recorded again).
        self.strayed: int | None = None
        self._later: dict[tuple[int, int], list[Input]] = {}
        for i in self.inputs:
            if i.kind in ("command", "dice"):
                self._later.setdefault((i.at, i.k), []).append(i)
        self._target = to
        self._busy = False
        self._g = greenlet(self._main)
        try:
            self._inputs_at(0, 0)
            while len(fight.events) < to and self._end is None:
                self._resume()
            if len(fight.events) < to:
                raise DriveError(f"the fight rebuilds to {len(fight.events)} events, not the {to} recorded")
        except DriveError as exc:  # what was rebuilt before the misfit: where a changed rule parts from the record
            raise DriveError(str(exc), list(fight.events), list(self._stops)) from None
        for _ in range(to):  # the events rebuilt are the caller's already; any past them (a resumed fight
            self._queue.popleft()  # left in the middle of a step's) come out as new

    def _resume(self) -> None:
        out = self._g.switch()
        if isinstance(out, End):
            self._end = out

    def _switch(self) -> object:
        """Back to the caller until it pulls again (or answers); what it answered, for a question. A command the
        caller gives meanwhile is carried out here, on the fight's greenlet, and the caller has the fight again."""
        parent = self._g.parent
        assert parent is not None
        while isinstance(out := parent.switch(None), _Order):
            self._carry_out(out)
        return out

    def _replaying_now(self) -> bool:
        """Rebuilding the fight (undo, resume): the recorded inputs answer, nothing is sent to the caller."""
        return len(self.fight.events) < self._target

    def _on_event(self, e: Event) -> None:
        self._k = 0
        self._queue.append(e)
        if self.declaring is not None and e.actor == self.declaring[0].name:  # its declaration is made
            self.declaring = None
        if not self._busy and self._g is greenlet.getcurrent():  # not a command's own: out at the next point
            self._fresh = True

    def _point(self, *, wants: bool = False) -> bool:
        """A point: the inputs recorded here are given again; whether to switch to the caller now (events made
        since the last point, or ``wants``: a question or an announced step), never while rebuilding."""
        self._k += 1
        at = len(self.fight.events)
        fresh, self._fresh = self._fresh, False  # taken first: a command given again here may hold points of its own
        self._inputs_at(at, self._k)
        if not (fresh or wants):
            return False
        if self._stops[-1] != at:
            self._stops.append(at)
        return not self._replaying_now()

    def _on_step(self, step: Step) -> None:
        self.coming, self.declaring, self._preset = step, None, None  # an outcome typed for a step that rolled none
        self._damage = None  # a damage typed with a d20 whose attack missed
        if self._point(wants=self.announce):
            if self.announce:
                self._queue.append(Coming(step))
            self._switch()

    def _on_declare(self, f: Fighter, tick: Tick, at: str) -> None:
        self.coming, self.declaring, self._preset = None, (f, at), None
        if self._point(wants=self.announce and not self._busy):  # a command's own declaration is asked, unannounced
            if self.announce:
                self._queue.append(Declaring(f, at))
            self._switch()

    def _main(self) -> End:
        result = self.fight.run()
        self.coming = self.declaring = None
        return End(result)

    def _inputs_at(self, at: int, k: int) -> None:
        """Give again the commands and dice preferences recorded at this moment (a rebuilt fight)."""
        while (batch := self._later.pop((at, k), None)) is not None:
            for i in batch:
                if i.kind == "dice":
                    self._prefs.set(*i.value)
                    continue
                self._busy = True
                try:
                    parse_fight_command(i.value, self.fight)(self.fight)
                except CommandError as exc:
                    raise DriveError(f"rebuilding the fight: the command {i.value!r} no longer fits it: "
                                     f"{exc}") from None
                finally:
                    self._busy = False
            if (len(self.fight.events), 0) == (at, k):
                return
            at, k = len(self.fight.events), 0  # a command entered after another's events

    def _key(self, what: str) -> tuple[str, int]:
        """The next question of this kind, numbered whether or not it is asked (``DicePrefs`` may change): its
        answer's key. Every declaration and die counts toward the ids, so a rebuilt fight numbers them the same."""
        n = self._counts[what]
        self._counts[what] = n + 1
        self._asked += 1
        return what, n

    def _ask(self, q: Question, key: tuple[str, int], of: tuple[Any, ...]) -> object:
        """The caller's answer to ``q`` (``of``: what it answers, recorded with it)."""
        self._pending = q
        self._pending_key = key
        self._pending_of = of
        self._answer = None
        while self._pending is not None:
            self._switch()
        return self._answer

    def _new_id(self) -> int:
        """The id of the question whose key was taken last."""
        return self._asked - 1

    def declaration(self, fight: Fight[Any], f: Fighter, tick: Tick, at: str,
                    known: tuple[tuple[str, Declaration], ...]) -> Declaration:
        key = self._key("declare")
        self._point(wants=True)
        of = (f.name,)
        if key in self._given:
            answer = self._recorded(key, of, _asked(of)).value
        elif self._replaying_now():
            raise DriveError(f"rebuilding the fight: no recorded answer for the declaration of {f.name} at {at}")
        else:
            answer = self._ask(DeclareQuestion(self._new_id(), f.name, f.side, at, tick, choices(fight, f), known,
                                               suggestion(fight, f)), key, of)
        assert isinstance(answer, Declaration)
        return answer

    def attack_roll(self, fight: Fight[Any], step: Step, target: Fighter) -> Outcome | int | None:
        key = self._key("die")
        side = step.actor.side
        asks = self._prefs.asks("attack", side)
        of = (20, 1, "attack", step.actor.name)
        if asks:
            self._point(wants=True)
        if key in self._given:
            given = self._recorded(key, of, _asked(of)).value
            if not isinstance(given, Outcome) and (not isinstance(given, int) or not 1 <= given <= 20):
                raise DriveError(f"rebuilding the fight: the recorded answer {given!r} is neither an outcome "
                                 "nor a d20 (1-20)")
            return given
        if self._preset is not None and not self._replaying_now():  # typed before the d20 was asked
            outcome, self._preset = self._preset, None
            self._record(Input("answer", len(self.fight.events), self._k, key, outcome, of=of))
            return outcome
        if self._replaying_now() or not asks:
            return None
        q = DieQuestion(self._new_id(), 20, 1, "attack", step.actor.name, side, attack=True, target=target.name,
                        kind="missile" if step.kind == "missile" else "melee")
        answer = self._ask(q, key, of)
        return None if isinstance(answer, Roll) else answer  # type: ignore[return-value]

    def _die(self, sides: int, count: int, purpose: str, actor: str | None) -> int | None:
        key = self._key("die")
        side = self._side(actor, purpose)
        asks = self._prefs.asks(purpose, side) and not self._busy
        of = (sides, count, purpose, actor)
        typed, self._damage = self._damage, None
        if (typed is not None and purpose == "damage" and typed[0] == actor and count <= typed[1] <= count * sides
                and key not in self._given and not self._replaying_now()):  # typed with its d20 (``damage_ahead``)
            self._record(Input("answer", len(self.fight.events), self._k, key, typed[1], of=of))
            return typed[1]
        if asks:
            self._point(wants=True)
        if key in self._given:
            given = self._recorded(key, of, _asked(of)).value
            if not isinstance(given, int) or not count <= given <= count * sides:
                raise DriveError(f"rebuilding the fight: the recorded answer {given!r} cannot be rolled on "
                                 f"{count if count > 1 else ''}d{sides} ({count}-{count * sides})")
            return given
        if self._replaying_now() or not asks:
            return None  # rolled from the seed (``_chance``: or given back from the record)
        answer = self._ask(DieQuestion(self._new_id(), sides, count, purpose, actor, side), key, of)
        return None if isinstance(answer, Roll) else answer  # type: ignore[return-value]

    def _chance(self, sides: int, purpose: str, actor: str | None, face: int) -> int:
        """A die the RNG rolled (the roller's ``chance`` hook): the face recorded for this die of the fight while it
        still fits (the same die, for the same purpose and combatant), else the RNG's, recorded."""
        n = self._rolled
        self._rolled = n + 1
        kept = self._rolls.get(n)
        if kept is not None and self.strayed is None:
            if (kept.sides, kept.purpose, kept.actor) == (sides, purpose, actor) and 1 <= kept.face <= sides:
                return kept.face
            self.strayed = n
        self._record(Input("roll", len(self.fight.events), self._k, ("roll", n), Rolled(sides, purpose, actor, face)))
        return face

    def _recorded(self, key: tuple[str, int], of: tuple[Any, ...], what: str) -> Input:
        """The recorded answer to question ``key``, which asks ``of``; DriveError when it answered another one (the
        rules ask their questions otherwise now)."""
        given = self._given.pop(key)
        if given.of is not None and tuple(given.of) != of:
            raise DriveError(f"rebuilding the fight: the recorded answer to {_KINDS[key[0]]} {key[1]} was given for "
                             f"{_asked(tuple(given.of))}, but the fight asks {what} there now")
        return given

    def _side(self, actor: str | None, purpose: str = "") -> str | None:
        """The side a die is rolled for: its roller's, a combatant's or a side's. A saved fight may hold a combatant
        named like a side (a new file may not): a morale die is the side's; an initiative or surprise die, which
        the rulesets roll for a side or for one combatant, cannot be told by its roller's name, and is nobody's
        side's (the referee's: asked or rolled as that purpose's or every die's choice says)."""
        if actor is None:
            return None
        f = self.fight.state.fighters.get(actor)
        if f is not None and actor in self.fight.state.sides:
            return actor if purpose == "morale" else None if purpose in ("initiative", "surprise") else f.side
        return f.side if f is not None else actor if actor in self.fight.state.sides else None

    def _check(self, q: Question, value: object) -> object:
        if isinstance(q, DieQuestion):
            return check_die(q, value)
        return check_declaration(self.fight, self.fight.state.fighters[q.actor], value)

    def _record(self, i: Input) -> None:
        self.inputs.append(i)
        if self.on_input is not None:
            self.on_input(i)

    def made(self) -> list[Event]:
        """The events already made and waiting to be pulled ahead of anything else (the rest of a step's): taken
        out, in order, so that a step's events are journalled together."""
        out = []
        while self._queue and not isinstance(self._queue[0], _NOT_EVENTS):
            out.append(self._queue.popleft())
        return out  # type: ignore[return-value]
