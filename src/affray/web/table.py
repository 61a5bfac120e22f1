"""The table: one stored fight played by a referee and its players, the web page's core over ``Drive``.

It holds the fight's writer's lock (``Store.writer``) for as long as it is open, so a console and the page
never write one fight at once; it journals every input and event before anyone is shown it (``Recorder``,
the console's own); it moves the fight on as the console does (``step``: to the next step; ``run``: to the
next question or the end) and stops at every question, which stays pending until someone entitled answers
it. It remembers which declarations each player character has heard (a question's ``known``: Combat II's
winners hear the losers'), so a player's page shows no other enemy declaration.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from affray.api import Prepared
from affray.drive import ROLL, AnswerError, Coming, DeclareQuestion, DicePrefs, DieQuestion, Drive, End, Question
from affray.drive.commands import COMMANDS, typed_outcome, whole
from affray.drive.shorthand import entry
from affray.play.record import Recorder, open_drive
from affray.play.session import open_game
from affray.play.store import Game, Journal, Store

__all__ = ["Table"]

#: The console's commands besides the fight's own (``affray.drive.commands``), as the page takes them.
VERBS = ("step", "run", "undo", "dice", "hit", "miss")


@dataclass
class Table:
    """An open fight (its writer's lock held until ``close``)."""

    store: Store
    game: Game
    prepared: Prepared
    journal: Journal
    drive: Drive
    record: Recorder
    lock: contextlib.ExitStack
    mode: str = "step"
    steps_left: int = 0
    #: declare events (by number) each player character has heard
    heard: dict[str, set[int]] = field(default_factory=dict)

    @classmethod
    def open(cls, store: Store, game: Game) -> Table:
        """Take the fight's writer's lock (FightBusyError if a console holds it) and rebuild it from its journal.
        A fight never served before asks the player characters' sides for their own dice (journalled)."""
        lock = contextlib.ExitStack()
        lock.enter_context(store.writer(game.id))
        try:
            journal = store.journal(game.id)
            prepared = open_game(store, game)
            drive = open_drive(store, game, prepared, journal, DicePrefs({"all": "roll"}))
            record = Recorder(store, game, journal)
            drive.on_input = record.input
            table = cls(store, game, prepared, journal, drive, record, lock)
            if not any(i.kind == "dice" for i in journal.inputs) and not journal.events:
                for side in dict.fromkeys(f.side for f in drive.fight.state.fighters.values() if f.pc):
                    drive.set_dice(side, "ask")
            table._note(drive.peek())
        except BaseException:
            lock.close()
            raise
        return table

    def close(self) -> None:
        self.lock.close()

    # -- where the fight stands ---------------------------------------------------------------------------
    @property
    def pending(self) -> Question | None:
        return self.drive.pending

    @property
    def over(self) -> bool:
        return isinstance(self.drive.peek(), End)

    def pcs(self) -> list[str]:
        """The player characters (combatants of ``pc: true`` sides) that started the fight."""
        return [f.name for f in self.drive.fight.state.fighters.values() if f.pc]

    def entitled(self, pc: str | None, q: Question) -> bool:
        """Whether ``pc``'s player (None: the referee) may answer ``q``: its own declarations and dice, and its
        side's dice (initiative, surprise)."""
        if pc is None:
            return True
        if isinstance(q, DeclareQuestion):
            return q.actor == pc
        side = self.drive.fight.state.fighters[pc].side
        return q.actor == pc or (q.actor == side and q.side == side)

    # -- moving on ----------------------------------------------------------------------------------------
    def go(self, mode: str, steps: int = 1) -> None:
        """``step`` (``steps`` steps) or ``run`` (to the next question or the end); when a question waits, from its
        answer on."""
        self.mode, self.steps_left = mode, steps
        if self.pending is None and not self.over:
            self._advance()

    def _advance(self) -> None:
        """Pull and journal until a question, the end, or (stepping) the end of the step."""
        while True:
            item = self.drive.pull()
            if isinstance(item, Coming):
                continue
            if isinstance(item, (DeclareQuestion, DieQuestion)):
                self._note(item)
                return
            if isinstance(item, End):
                self.record.end()
                return
            self.record.event(item)
            nxt = self.drive.peek()
            if self.mode == "step" and (nxt is None or isinstance(nxt, Coming)):
                self.steps_left -= 1
                if self.steps_left <= 0:
                    return

    def _note(self, item: object) -> None:
        """A declaration asked with what it may know: those declarations are heard by that character."""
        if not isinstance(item, DeclareQuestion) or not item.known:
            return
        events = self.drive.fight.events
        heard = self.heard.setdefault(item.actor, set())
        for name, _decl in item.known:
            seq = next((i for i in range(len(events) - 1, -1, -1)
                        if events[i].kind == "declare" and events[i].actor == name), None)
            if seq is not None:
                heard.add(seq)

    # -- answers and commands -----------------------------------------------------------------------------
    def answer(self, pc: str | None, qid: int, text: str) -> str | None:
        """Answer question ``qid`` for ``pc``'s player (None: the referee): None once accepted (the fight moves
        on), else what is wrong."""
        q = self.pending
        if q is None or q.id != qid:
            return "that question is no longer asked (it was answered, or the fight moved on)"
        if not self.entitled(pc, q):
            return f"that question is not {pc}'s to answer"
        text = text.strip()
        value: object
        if isinstance(q, DeclareQuestion):
            try:
                value = entry(text, q.choices)
            except AnswerError as exc:
                return f"{text}: {exc}"
        else:
            words = text.lower().split()
            if not words or words == ["roll"]:
                value = ROLL
            elif q.attack and (outcome := typed_outcome(words)) is not None:
                if pc is not None:
                    return "only the referee gives an attack's outcome: give the d20, or roll it"
                value = outcome
            elif len(words) == 1 and (n := whole(words[0], q.count * q.sides)) is not None:
                value = n
            else:
                return (f"{text}: give the {q.die} result ({q.count}-{q.count * q.sides})"
                        + (", 'hit N' or 'miss'" if q.attack and pc is None else "") + ", or roll it")
        error = self.drive.answer(value)
        if error is not None:
            return f"{text}: {error}"
        self._advance()
        return None

    def command(self, line: str) -> str:
        """One of the referee's console commands; what it did, or what is wrong."""
        words = line.split()
        if not words:
            return "type a command (step, run, undo, damage NAME N, heal NAME N, ...)"
        verb = words[0].lower()
        if verb in ("step", "run"):
            if self.over:
                return "the fight is over: undo to change it"
            n = whole(words[1], 1_000_000) if len(words) > 1 else 1
            if n is None:
                return f"{verb} {words[1]}: give a whole number of steps (1 to 1000000)"
            waiting = self.pending
            self.go(verb, n)
            if waiting is not None:  # the mode holds from the answer on
                return f"{verb}: once the question waiting is answered ({_asked(waiting)})"
            return f"{verb}: {len(self.journal.events)} events"
        if verb == "undo":
            n = whole(words[1], 1_000_000) if len(words) > 1 else 1
            if n is None:
                return f"undo {words[1]}: give a whole number of events (1 to 1000000)"
            if not self.journal.events:
                return "nothing to undo: the fight is at its start"
            to = self.drive.undo(n)
            self.record.undo(to)
            self.heard = {pc: {s for s in seqs if s < to} for pc, seqs in self.heard.items()}
            self.mode, self.steps_left = "step", 0
            self._note(self.drive.peek())
            return f"undone: back to {to} events"
        if verb == "dice":
            if len(words) not in (2, 3) or words[-1] not in ("ask", "roll"):
                return "dice: say dice ask, dice roll, or dice WHO ask|roll (WHO: a side, a die's purpose, all)"
            who = words[1] if len(words) == 3 else "all"
            self.drive.set_dice(who, words[-1])
            return f"dice for {who}: {words[-1]}"
        if self.over:
            return "the fight is over: undo first to change it"
        outcome = typed_outcome([w.lower() for w in words])
        if outcome is not None or (len(words) == 1 and whole(verb, 20) is not None):
            coming = self.drive.coming
            if self.drive.preset(outcome if outcome is not None else int(verb)) is not None or coming is None:
                return f"{line}: an attack's outcome, but no attack is about to be rolled"
            self.go("step")
            return f"{line}: for {coming.actor.name}'s {coming.kind} at {coming.target}"
        if verb not in COMMANDS:
            return (f"{verb}: not a command (step, run, undo, dice, hit N, miss, " + ", ".join(COMMANDS) + ")")
        error = self.drive.command(line.strip())
        for e in self.drive.take_events():
            self.record.event(e)
        return error if error is not None else f"done: {line.strip()}"


def _asked(q: Question) -> str:
    if isinstance(q, DeclareQuestion):
        return f"{q.actor} declares"
    return f"{q.die} for {q.purpose}" + (f" ({q.actor})" if q.actor else "")
