"""The one table session: a fight played at the table, whatever serves it (the console, the page, ``affray drive``).

A front end turns what a person typed or sent into calls of a ``Session`` and what comes back into output; the
session owns everything else:

- moving the fight on: a step at a time, ``run`` (to the next question or the end), ``round`` (to the next
  round's first declaration point), pausing where the referee's word is wanted;
- answers: a declaration in the referee's words (``melee Orc 1``), for several combatants at once (``kobolds:
  melee Aldric``, ``Kobold 1, Kobold 2: missile Theo``, ``all: same``), said ahead for one whose turn has not come
  (``Aldric: melee Kobold 4``); Enter accepts what the question suggests; a die, or the referee's outcome of an
  attack (``hit 6``, ``miss``), also typed ahead of its roll;
- who declares (``declare SIDE|NAME ask|auto|repeat``), which dice are asked (``dice WHO ask|roll``), the
  referee's commands (``damage``, ``heal``, ``morale``, ``note``...);
- ``undo`` (by step, or N events) and ``back`` (the last answer or command, whatever it was);
- which seat may answer what (the referee anything, a player its character's questions and its side's dice),
  and what each player character has heard;
- what it takes: a line of at most ``MAX_COMMAND_CHARS`` characters, and no lone surrogate in anything said to it
  (each refused in words, nothing changed);
- the journal: every event and input is written before anyone is shown it, each step's rows (its dice, its
  events, the answer or command that led to it) in one transaction, before the call that made them returns.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

from affray.drive import ROLL, AnswerError, Coming, DeclareQuestion, DieQuestion, Drive, End, Question
from affray.drive.commands import COMMANDS, ahead_text, referee_move, typed_outcome, whole
from affray.drive.driven import Declaring
from affray.drive.questions import check_declaration, choices, plain
from affray.drive.shorthand import VERBS as DECLARING
from affray.drive.shorthand import entry
from affray.engine.events import Event
from affray.engine.fight import SAME
from affray.engine.step import Step
from affray.io.lines import lone_surrogate
from affray.limits import MAX_COMMAND_CHARS, MAX_HP
from affray.model.encounter import ACTION_KEYS, Declaration
from affray.render.status import provokers
from affray.table.journal import Recorder

if TYPE_CHECKING:
    from affray.engine.fight import Fight

__all__ = ["MOVING", "SAVE_PARTY", "Out", "PartyKeeper", "Pause", "Reply", "Session", "Shown", "wins"]

P = ParamSpec("P")
R = TypeVar("R")


def _saved(method: Callable[Concatenate[Session, P], R]) -> Callable[Concatenate[Session, P], R]:
    """What the call recorded is written (one transaction) before it returns, whatever it returns."""

    @functools.wraps(method)
    def saving(self: Session, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        finally:
            if self.record is not None:
                self.record.flush()

    return saving


#: The words that move the fight on: a step (or N), to the next question or the end, to the next round (or N).
MOVING = {"step": "step", "s": "step", "next": "step", "n": "step", "run": "run", "r": "run", "round": "round"}
_MOST = 1_000_000


@dataclass(frozen=True)
class Shown:
    """An event, journalled as number ``seq`` of the timeline: show it."""

    event: Event
    seq: int


@dataclass(frozen=True)
class Pause:
    """The referee's word is wanted before the fight goes on: ``why`` "start" (before the first event, or where a
    resumed fight was left), "step" (the steps asked for are done), "round" (a new round's first declaration
    point), "provokes" (``step``, about to resolve, is a move that gives foes a free attack)."""

    why: str
    step: Step | None = None


Out = Shown | DeclareQuestion | DieQuestion | Pause | End


@dataclass
class Reply:
    """What a line did: ``text`` to show (empty: nothing to say), ``ok`` False when it was refused (nothing
    changed, the question stands), ``go`` when the fight moves on, ``events`` made at once (a command's)."""

    text: str = ""
    ok: bool = True
    go: bool = False
    events: list[Shown] = field(default_factory=list)


class PartyKeeper(Protocol):
    """Where a fight played with ``--party`` writes what it left (``affray.party.left.Keeper``)."""

    def save(self, fight: Fight[Any]) -> str:
        """The party file rewritten with what ``fight`` left; the words saying so."""


#: The word that writes the party file now, mid-fight (at its end it is written by itself).
SAVE_PARTY = "save-party"


def wins(side: str) -> str:
    """The end of a fight in words: "the goblins win", "the party wins"."""
    plural = side.endswith("s") and not side.endswith("ss")
    return f"the {side} {'win' if plural else 'wins'}"


class Session:
    """One fight at the table: its ``drive`` and, with a database, its ``record`` (the writer's lock held by
    whoever opened it). ``pause_on_provoke``: stop before a move that gives foes a free attack when stepping."""

    def __init__(self, drive: Drive, record: Recorder | None = None, *, pause_on_provoke: bool = False) -> None:
        self.drive = drive
        self.record = record
        self.pause_on_provoke = pause_on_provoke
        self.mode = "step"
        self.left = 0  # steps (or rounds) still to go in ``mode``
        #: Declare events (by number) each player character has heard: a question's ``known`` (Combat II's winners
        #: hear the losers' declarations).
        self.heard: dict[str, set[int]] = {}
        self._paused: Pause | None = Pause("start")
        self._events = len(drive.fight.events)  # events journalled (and numbered) so far
        self._round = 0  # the round "round" mode stops after
        self._warned: Step | None = None
        self._ended = False
        self._rest: deque[Shown] = deque()  # a step's events, journalled together, still to be given by ``next``
        #: Dice typed on one line for the questions that come next in a row: their purpose, whether attacks' d20s
        #: (each followed by its damage), and the values left (``_dice_in_a_row``).
        self._row: tuple[str, bool, list[int]] = ("", False, [])
        if record is not None:
            drive.on_input = record.input
        #: The party file a fight played with ``--party`` writes at its end and on ``save-party``, and what its last
        #: writing said (None: not written yet).
        self.party: PartyKeeper | None = None
        self.party_saved: str | None = None

    # -- where the fight stands ---------------------------------------------------------------------------
    @property
    def fight(self) -> Fight[Any]:
        return self.drive.fight

    @property
    def pending(self) -> Question | None:
        """The question waiting for its answer (once the events before it are given)."""
        return None if self._rest else self.drive.pending

    @property
    def over(self) -> bool:
        return not self._rest and isinstance(self.drive.peek(), End)

    @property
    def paused(self) -> Pause | None:
        return self._paused

    @property
    def waiting(self) -> bool:
        """Whether a person's word is wanted before ``next`` may go on: a question, a pause, the end (once ``next``
        has given it)."""
        return self.pending is not None or self._paused is not None or self._ended

    def pcs(self) -> list[str]:
        """The player characters (combatants of ``pc: true`` sides) that started the fight."""
        return [f.name for f in self.fight.state.fighters.values() if f.pc]

    def entitled(self, pc: str | None, q: Question) -> bool:
        """Whether ``pc``'s player (None: the referee) may answer ``q``: its own declarations and dice, and its
        side's dice (initiative, surprise)."""
        if pc is None:
            return True
        side = self.fight.state.fighters[pc].side
        if q.side != side:
            return False  # never another side's question, whatever its name
        if isinstance(q, DeclareQuestion):
            return q.actor == pc
        if pc != side and pc in self.fight.state.sides:
            return False  # named like another side: whose die this is cannot be told by its name (the referee's)
        return q.actor in (pc, side)

    # -- moving on ----------------------------------------------------------------------------------------
    @_saved
    def next(self) -> Out:  # noqa: C901
        """The next thing for the front end: an event (journalled), a question, a pause or the end. Call it while
        ``waiting`` is False; once it is True, what comes is a person's word (``say``, ``answer``)."""
        if self._rest:
            return self._give(self._rest.popleft())
        if self._paused is not None:
            return self._paused
        q = self.pending
        if q is not None:
            return q
        end = self.drive.peek()
        if self._ended and isinstance(end, End):
            return end  # the end, again
        while True:
            item = self.drive.pull()
            if isinstance(item, Coming):
                if self._stops_before(item.step):
                    return self._pause(Pause("provokes", item.step))
                continue
            if isinstance(item, Declaring):
                if self.mode == "round" and self.fight.round_of(max(self.fight.period, 1)) > self._round:
                    self.left -= 1
                    if self.left <= 0:
                        return self._pause(Pause("round"))
                    self._round += 1
                continue
            if isinstance(item, DeclareQuestion):
                self._note(item)
                return item
            if isinstance(item, DieQuestion):
                if self._typed_ahead(item):
                    continue
                return item
            if isinstance(item, End):
                if self.record is not None:
                    self.record.end()
                self._ended = True
                if self.party is not None:
                    self.save_party()
                return item
            step = [self._journal(e) for e in (item, *self.drive.made())]  # written together (``_saved``)
            self._rest.extend(step[1:])
            return self._give(step[0])

    def _give(self, shown: Shown) -> Shown:
        """An event of the step journalled, to show; stepping, a pause once the step is all shown."""
        if self.mode == "step" and not self._rest:
            nxt = self.drive.peek()
            if nxt is None or isinstance(nxt, (Coming, Declaring)):  # at a point: the step is done
                self.left -= 1
                if self.left <= 0:
                    self._paused = Pause("step")
        return shown

    def advance(self) -> list[Shown]:
        """Pull until a person's word is wanted; the events shown on the way."""
        out = []
        while not self.waiting:
            item = self.next()
            if isinstance(item, Shown):
                out.append(item)
        return out

    @_saved
    def go(self, mode: str, n: int = 1) -> Reply:
        """``step`` (``n`` steps), ``run`` (to the next question or the end) or ``round`` (to the start of the
        ``n``-th next round): from the question's answer on when one waits."""
        if self.over:
            self._paused = None  # what waits is the end (a finished fight resumed): ``next`` gives it
            return Reply("the fight is over: undo to change it", ok=False)
        self.mode, self.left = mode, n
        self._round = self.fight.round_of(max(self.fight.period, 1))
        self._paused = None  # on, or to the question waiting (a fight resumed at one): ``next`` gives it
        if self.pending is not None:
            return Reply(f"{mode}: once the question waiting is answered ({asked(self.pending)})")
        return Reply(go=True)

    def _pause(self, p: Pause) -> Pause:
        self._paused = p
        return p

    def _stops_before(self, step: Step) -> bool:
        """A move about to resolve that provokes, while stepping: the console stops before it (once)."""
        if not self.pause_on_provoke or self.mode != "step" or step is self._warned:
            return False
        self._warned = step
        return bool(provokers(self.fight, step))

    def _journal(self, e: Event) -> Shown:
        seq = self.record.event(e) if self.record is not None else self._events
        self._events = seq + 1
        return Shown(e, seq)

    def _note(self, q: DeclareQuestion) -> None:
        """A declaration asked with what it may know: those declarations are heard by that character."""
        if not q.known:
            return
        events = self.fight.events
        heard = self.heard.setdefault(q.actor, set())
        for name, _decl in q.known:
            seq = next((i for i in range(len(events) - 1, -1, -1)
                        if events[i].kind == "declare" and events[i].actor == name), None)
            if seq is not None:
                heard.add(seq)

    # -- what a person types --------------------------------------------------------------------------------
    @_saved
    def say(self, text: str, seat: str | None = None) -> Reply:  # noqa: C901
        """One line typed at any prompt, by the referee (``seat`` None) or a player character's player: a
        command, a declaration (or several combatants'), a die or an attack's outcome. Empty: Enter (the
        question's suggestion, a die rolled, else a step)."""
        if (unfit := _unfit(text)) is not None:
            return Reply(unfit, ok=False)
        line = text.strip()
        q = self.pending
        if seat is not None:
            if q is None or not self.entitled(seat, q):
                return Reply("nothing is asked of you now" if q is None else f"that question is not {seat}'s to "
                             "answer", ok=False)
            return self._answer_line(q, line, player=True)
        words = line.split()
        verb = words[0].lower() if words else ""
        if verb in MOVING:
            n = whole(words[1], _MOST) if len(words) > 1 else 1
            if n is None or len(words) > 2:
                unit = "rounds" if MOVING[verb] == "round" else "steps"
                return Reply(f"{verb} {' '.join(words[1:])}: give a whole number of {unit} (1 to {_MOST}), e.g. "
                             f"{verb} 3", ok=False)
            if q is not None and isinstance(q, DieQuestion):  # at a die: roll it and go on so
                self.mode, self.left = MOVING[verb], n
                self._round = self.fight.round_of(max(self.fight.period, 1))
                return self._answered(self.drive.answer(ROLL), line)
            return self.go(MOVING[verb], n)
        if verb in ("undo", "u"):
            n = whole(words[1], _MOST) if len(words) > 1 else 1
            if n is None:
                return Reply(f"undo {words[1]}: give a whole number of events (1 to {_MOST}), e.g. undo 3", ok=False)
            return self.undo(n)
        if verb == "back":
            return self.back()
        if verb == "dice":
            return self.dice(words[1:])
        if verb == SAVE_PARTY and len(words) == 1:
            return self.save_party()
        group = self._group(line)
        if group is not None:
            return self._say_group(*group)
        if q is not None and verb not in COMMANDS and not referee_move(line, self.fight):
            return self._answer_line(q, line, player=False)
        if not words:
            return self.go("step")
        if (outcome := typed_outcome([w.lower() for w in words])) is not None or (
                len(words) == 1 and whole(verb, 20) is not None):
            return self.preset(line, outcome if outcome is not None else int(verb))
        if verb in COMMANDS or referee_move(line, self.fight):
            return self.command(line)
        if verb in DECLARING or verb in self.fight.ruleset.declaration_keys:
            declaring = self.drive.declaring
            if declaring is None:
                return Reply(f"{line}: nobody is about to declare; say NAME: {line} to set a combatant's next "
                             "declaration", ok=False)
            return self._say_group([declaring[0].name], line)
        return Reply(f"unknown command {verb!r} (step, run, round, undo, back, dice, hit N, miss, save-party, "
                     + ", ".join(COMMANDS) + ", or NAME: DECLARATION)", ok=False)

    def _typed_ahead(self, q: DieQuestion) -> bool:
        """Whether ``q`` was answered from dice typed earlier on one line for the questions in a row
        (``_dice_in_a_row``); a value that does not fit ends the row, and ``q`` is asked."""
        purpose, attack, rest = self._row
        if not rest:
            return False
        if q.purpose != purpose or q.attack != attack or not q.count <= rest[0] <= q.count * q.sides:
            self._row = ("", False, [])
            return False
        if attack and len(rest) > 1:
            self.drive.damage_ahead(rest[1])
        if self.drive.answer(rest[0]) is not None:
            self._row = ("", False, [])
            return False
        rest = rest[2:] if attack else rest[1:]
        self._row = (purpose, attack, rest)
        return True

    def _answer_line(self, q: Question, line: str, *, player: bool) -> Reply:
        """``line`` as the answer to ``q``."""
        value: object
        if isinstance(q, DeclareQuestion):
            if not line:
                if q.suggestion is None:
                    return Reply(f"say what {q.actor} does, e.g. melee {_first(q.choices['enemies'])} (? lists the "
                                 "choices)", ok=False)
                value = q.suggestion
            else:
                try:
                    value = entry(line, q.choices)
                except AnswerError as exc:
                    return Reply(f"{line}: {exc}", ok=False)
        else:
            words = line.lower().split()
            if not words or words == ["roll"] or words == ["r"]:
                value = ROLL
            elif q.attack and (outcome := typed_outcome(words)) is not None:
                if player:
                    return Reply("only the referee gives an attack's outcome: give the d20, or roll it", ok=False)
                value = outcome
            elif len(words) == 1 and (n := whole(words[0], q.count * q.sides)) is not None:
                value = n
            elif len(words) > 1 and all(whole(w, MAX_HP) is not None for w in words) and (
                    not player or (q.attack and len(words) == 2)):  # a player: its own attack's d20 and damage
                return self._dice_in_a_row(q, [int(w) for w in words], line)
            else:
                hint = ", 'hit N' (N damage) or 'miss'" if q.attack and not player else ""
                more = " (an attack's d20 and damage on one line: 14 6; dice asked in a row: 3 5)"
                return Reply(f"{line}: enter a {q.die} result ({q.count}-{q.count * q.sides}){hint}, or nothing to "
                             f"roll it{more}", ok=False)
        return self._answered(self.drive.answer(value), line)

    def _dice_in_a_row(self, q: DieQuestion, values: list[int], line: str) -> Reply:
        """Several dice on one line: an attack's d20 and its damage (``14 6``: the damage goes to that attack if it
        hits), then the dice of the questions that come next of the same kind, in order (the sides' initiative dice,
        the next attacks' d20 and damage): each checked when its question comes, the rest dropped at the first that
        does not fit."""
        first, rest = values[0], values[1:]
        if not q.count <= first <= q.count * q.sides:
            return Reply(f"{line}: {first} cannot be rolled on {q.die} ({q.count}-{q.count * q.sides})", ok=False)
        if q.attack and rest:
            self.drive.damage_ahead(rest[0])  # the d20's attack: its damage, if it hits
        error = self.drive.answer(first)
        if error is not None:
            return Reply(f"{line}: {error}", ok=False)
        if q.attack and rest:
            rest = rest[1:]
        self._row = (q.purpose, q.attack, rest)
        self._paused = None
        return Reply(go=True)

    @_saved
    def answer(self, value: object, also: Iterable[str] = ()) -> Reply:
        """Answer the pending question with a value (``affray drive``): a plan entry, a die, ``ROLL``, an
        outcome; ``also``: combatants (or sides) whose questions of this declaration point take the same entry."""
        q = self.pending
        if q is None:
            return Reply("no question is waiting for an answer", ok=False)
        names = list(also)
        if (unfit := lone_surrogate([value, names])) is not None:
            return Reply(unfit, ok=False)
        if names:
            if not isinstance(q, DeclareQuestion):
                return Reply("also: only a declaration serves several combatants", ok=False)
            members = self._members(names)
            if isinstance(members, str):
                return Reply(members, ok=False)
            try:  # the one asked first: a group's answer is taken whole or not at all
                value = check_declaration(self.fight, self.fight.state.fighters[q.actor], value)
            except AnswerError as exc:
                return Reply(str(exc), ok=False)
            said = self._ahead([m for m in members if m != q.actor], value, q)
            if said is not None:
                return said
        return self._answered(self.drive.answer(value), "")

    def _answered(self, error: str | None, line: str) -> Reply:
        if error is not None:
            return Reply(f"{line}: {error}" if line else error, ok=False)
        self._paused = None
        return Reply(go=True)

    # -- groups and declarations said ahead ---------------------------------------------------------------
    def _group(self, line: str) -> tuple[list[str], str] | None:
        """``NAMES: ENTRY`` (combatants or sides, comma-separated, or ``all``) split in two; None when the part
        before the colon names none (``melee: Orc 1`` is a plan entry in YAML)."""
        head, colon, rest = line.partition(":")
        if not colon or head.strip().lower() in ACTION_KEYS or head.strip() in self.fight.ruleset.declaration_keys:
            return None
        names = [n.strip() for n in head.split(",")]
        state = self.fight.state
        known = {n.lower() for n in (*state.fighters, *state.sides, "all")}
        if not names or any(n.lower() not in known for n in names):
            return None
        return names, rest.strip()

    def _members(self, names: list[str]) -> list[str] | str:
        """The combatants still in the fight that ``names`` name (a side: its members; ``all``: everyone), in file
        order; or what is wrong."""
        state = self.fight.state
        by = {n.lower(): n for n in state.fighters}
        sides = {s.lower(): s for s in state.sides}
        chosen: set[str] = set()
        for n in names:
            low = n.lower()
            if low == "all":
                chosen.update(state.fighters)
            elif low in sides:
                chosen.update(f.name for f in state.sides[sides[low]])
            elif low in by:
                f = state.fighters[by[low]]
                if not f.active:
                    return f"{f.name} is out of the fight"
                chosen.add(f.name)
            else:
                return f"no combatant or side named {n!r}"
        return [f.name for f in state.fighters.values() if f.name in chosen and f.active]

    def _say_group(self, names: list[str], text: str) -> Reply:
        """One declaration for several combatants: the one asked now among them answers, the others take it at
        their own turn (this declaration point's, or their next)."""
        members = self._members(names)
        if isinstance(members, str):
            return Reply(members, ok=False)
        if not members:
            return Reply(f"{', '.join(names)}: nobody of them is still in the fight", ok=False)
        q = self.pending
        asked = q if isinstance(q, DeclareQuestion) and q.actor in members else None
        state = self.fight.state
        value: object
        keep = text.lower() == SAME
        if keep:
            value = SAME
        else:
            first = state.fighters[asked.actor if asked is not None else members[0]]
            try:
                value = check_declaration(self.fight, first, entry(text, asked.choices if asked is not None
                                                                   else choices(self.fight, first)))
            except AnswerError as exc:
                return Reply(f"{text}: {exc}", ok=False)
        others = [m for m in members if asked is None or m != asked.actor]
        said = self._ahead(others, value, asked)
        if said is not None:
            return said
        if asked is not None:
            if keep:
                standing = self.fight.standing(state.fighters[asked.actor])
                if standing is None:
                    return Reply(f"same: {asked.actor} has no standing declaration to keep; say what it does"
                                 + (" (the others keep theirs)" if others else ""), ok=False)
                value = standing.source
            return self._answered(self.drive.answer(value), text)
        planned = [m for m in others if state.fighters[m].plan_pos < len(state.fighters[m].plan)]
        note = f"; {', '.join(planned)} first {'play' if len(planned) > 1 else 'plays'} what the plan still " \
               "holds" if planned else ""
        declaring = self.drive.declaring
        if declaring is not None and declaring[0].name in others and q is None:  # its turn is now: go on to it
            self.mode, self.left, self._paused = "step", 1, None
            return Reply(note.removeprefix("; "), go=True)  # its declare event says the rest
        return Reply(f"said ahead for {', '.join(others)}: {text} (taken at each one's next declaration "
                     f"point){note}")

    def _ahead(self, names: list[str], value: object, asked: DeclareQuestion | None) -> Reply | None:
        """Say ``value`` ahead for ``names`` (journalled as a command); those that already declared at the question's
        point are left out (theirs is made). None once said; else what is wrong."""
        if asked is not None:
            done = {e.actor for e in self.fight.events if e.kind == "declare" and e.tick == asked.tick}
            names = [n for n in names if n not in done]
        if not names:
            return None
        said: dict[str, Any] | str
        if value == SAME:
            said = SAME
        elif isinstance(value, Declaration):
            said = plain(value)
        elif isinstance(value, dict):
            said = value
        else:
            return Reply("a declaration is one plan entry: a mapping such as {melee: Orc 1}", ok=False)
        error = self.drive.command(ahead_text(names, said, self.fight.period if asked is not None else None))
        self.drive.take_events()  # said ahead: no event until each one's turn comes
        return Reply(error, ok=False) if error is not None else None

    # -- the referee's other words -------------------------------------------------------------------------
    @_saved
    def command(self, line: str) -> Reply:
        """A command that changes the fight (``damage``, ``heal``, ``declare``, ``morale``, ``note``...): its events,
        journalled."""
        if self.over:
            return Reply("the fight is over: undo first to change it", ok=False)
        if (unfit := _unfit(line)) is not None:
            return Reply(unfit, ok=False)
        error = self.drive.command(line.strip())
        events = [self._journal(e) for e in self.drive.take_events()]
        if error is not None:
            return Reply(error, ok=False, events=events)
        return Reply(f"done: {line.strip()}", events=events)

    def save_party(self) -> Reply:
        """The party file rewritten with what the fight has left so far (CONTRACT.md "The party across fights");
        refused, nothing written, without a party or when the file no longer matches the fight."""
        if self.party is None:
            return Reply("save-party: this fight was not started with --party PARTY.yaml", ok=False)
        from affray.errors import AffrayError

        try:
            self.party_saved = self.party.save(self.fight)
        except AffrayError as exc:
            self.party_saved = f"the party file was not written: {exc}"
            return Reply(self.party_saved, ok=False)
        return Reply(self.party_saved)

    @_saved
    def preset(self, text: str, value: object) -> Reply:
        """An attack's outcome (or d20) typed before its d20 is asked: for the attack about to be rolled."""
        coming = self.drive.coming
        if coming is None or self.drive.preset(value) is not None:  # type: ignore[arg-type]
            return Reply(f"{text}: an attack's outcome, but no attack is about to be rolled; type it when the attack "
                         "comes next, or with the declaration (melee NAME hit 6)", ok=False)
        self.mode, self.left = "step", 1
        self._paused = None
        return Reply(f"{text}: for {coming.actor.name}'s {coming.kind} at {coming.target}", go=True)

    @_saved
    def dice(self, words: list[str]) -> Reply:
        """``dice [WHO] ask|roll``: from now on ask (or roll) WHO's dice: a side, a die's purpose, or all."""
        if (unfit := lone_surrogate(words)) is not None:
            return Reply(unfit, ok=False)
        if not words or words[-1] not in ("ask", "roll") or len(words) > 2:
            return Reply("dice: say dice ask, dice roll, or dice WHO ask|roll (WHO: a side, a die's purpose such as "
                         "initiative or damage, or all)", ok=False)
        who = words[0] if len(words) == 2 else "all"
        self.drive.set_dice(who, words[-1])
        return Reply(f"dice for {who}: {words[-1]}")

    @_saved
    def undo(self, n: int = 1) -> Reply:
        """Take back the last step (or ``n`` events, back to the point before them), its inputs with it."""
        if not self.fight.events:
            return Reply("nothing to undo: the fight is at its start", ok=False)
        to = self.drive.undo(n)
        if self.record is not None:
            self.record.undo(to)
        self._back_to(to)
        return Reply(f"undone: back to {to} events")

    @_saved
    def back(self) -> Reply:
        """Take back the last answer or command, whatever it was: its question is asked again."""
        taken = self.drive.back()
        if taken is None:
            return Reply("nothing to take back: no answer or command was given", ok=False)
        last, to, again = taken
        if self.record is not None:
            self.record.undo(to, again)
        self._back_to(to, pause=False)  # on to its question, asked again
        what = {"answer": "the answer", "command": f"the command {last.value!r}", "dice": "the choice of dice"}
        return Reply(f"taken back: {what.get(last.kind, last.kind)} (back to {to} events)")

    def _back_to(self, to: int, *, pause: bool = True) -> None:
        self._rest.clear()
        self._row = ("", False, [])
        self.heard = {pc: {s for s in seqs if s < to} for pc, seqs in self.heard.items()}
        self._events = to
        if pause:  # undone: the referee says how to go on from there
            self.mode, self.left = "step", 1
        # taken back to a question: asked again, and the fight goes on as it was going (run, a step, a round) once
        # answered: no pause the caller did not ask for (a caller running to the next question waits for none)
        self._paused = Pause("start") if pause else None
        self._ended = False
        q = self.drive.peek()
        if isinstance(q, DeclareQuestion):
            self._note(q)


def _unfit(line: str) -> str | None:
    """What is wrong with a line said to the session, whatever brought it (a terminal, a pipe, a form, a JSON line):
    longer than a console command may be, or holding a lone surrogate (no character: nothing could journal, show or
    send it)."""
    if len(line) > MAX_COMMAND_CHARS:
        return f"a line of more than {MAX_COMMAND_CHARS} characters, ignored: limit"
    return lone_surrogate(line)


def asked(q: Question) -> str:
    """A question in a few words: "Brom declares", "d6 for initiative (party)"."""
    if isinstance(q, DeclareQuestion):
        return f"{q.actor} declares"
    return f"{q.die} for {q.purpose}" + (f" ({q.actor})" if q.actor else "")


def _first(names: list[str]) -> str:
    return names[0] if names else "NAME"
