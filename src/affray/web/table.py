"""The page's hold on one stored fight: the table's session (``affray.table.Session``) with the fight's writer's
lock held for as long as the page serves it, so a console and the page never write one fight at once.

Everything a screen does goes to the session, as the console's lines do; the page only checks that the
question a form answers is still the one asked, and moves the fight on after each form until a person's word
is wanted again.

A write the database refuses (another program holding its lock) leaves nothing half-written: the fight goes back
to its last step saved, and the screen that acted is told so and may try again. A database taken away stops the
fight: every form is then answered with what happened and where the fight's saved steps are.

A designer's policy runs bounded here (``POLICY_SECONDS``): one that does not answer in time, raises, or tries to end
the process is not the page's end: the fight goes back to its last step saved, the combatant it chose for is asked
from then on (``declare NAME ask``, journalled, so that the fight is rebuilt so later), and the referee is told.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from affray.drive import DeclareQuestion, DicePrefs, Drive, Question
from affray.errors import PolicyError
from affray.limits import POLICY_SECONDS
from affray.policy import Auto
from affray.table import (
    Game,
    Journal,
    Session,
    Store,
    StoreBusyError,
    StoreError,
    branched_text,
    open_drive,
    open_fight,
    open_game,
)
from affray.table.session import MOVING, PartyKeeper, asked

__all__ = ["Table"]


@dataclass
class Table:
    """An open fight (its writer's lock held until ``close``)."""

    store: Store
    game: Game
    journal: Journal
    session: Session
    lock: contextlib.ExitStack
    #: Why the fight stopped (its database was taken away), once it did.
    stopped: str | None = None
    #: What going on under today's rules did, when the fight was opened so (``new_rules``).
    branched: str | None = None
    #: Each event's line as each way of seeing it draws it (``affray.web.views``): drawn once, shown many times.
    drawn: dict[Any, Any] = field(default_factory=dict)
    #: What each way of seeing the fight sees, and the moment it was worked out at (``changes`` and the events'
    #: count): the screens that see the same (the players of one side, the table view) share it
    #: (``affray.web.views``).
    seen: tuple[tuple[int, int], dict[Any, Any]] = field(default_factory=lambda: ((-1, -1), {}))
    #: The changes made through the table (answers and commands, each counted once done, taken or not).
    changes: int = 0
    #: The designer's module:function policies named on the command line (``affray serve --policy``).
    code: tuple[str, ...] = ()
    #: What the referee is to be told of, once (a policy that failed and the combatant asked instead).
    told: str | None = None
    #: The designer's policies that failed here (``Auto.failed``, kept over rebuilds).
    failed: set[str] = field(default_factory=set)
    #: The server stops: a fight moving on stops after the step under way (its steps are saved as it goes).
    stopping: bool = False

    @classmethod
    def open(cls, store: Store, game: Game, *, new_rules: bool = False, party: PartyKeeper | None = None,
             code: tuple[str, ...] = ()) -> Table:
        """Take the fight's writer's lock (FightBusyError if a console holds it) and rebuild it from its journal
        (``new_rules``: a fight saved before the rules changed goes on under today's, ``affray.table.open_fight``).
        A fight never served before asks the player characters' sides for their own dice (journalled)."""
        lock = contextlib.ExitStack()
        lock.enter_context(store.writer(game.id))
        try:
            opened = open_fight(store, game, DicePrefs({"all": "roll"}), new_rules=new_rules, code=code)
            journal, drive = opened.journal, opened.drive
            _bounded(drive)
            session = Session(drive, opened.record)
            session.party = party
            table = cls(store, game, journal, session, lock, code=code)
            if opened.branched is not None:
                table.branched = branched_text(store.path, opened.branched)
            if not any(i.kind == "dice" for i in journal.inputs) and not journal.events:
                for side in dict.fromkeys(f.side for f in drive.fight.state.fighters.values() if f.pc):
                    session.dice([side, "ask"])
        except BaseException:
            lock.close()
            raise
        return table

    def close(self) -> None:
        self.lock.close()

    @property
    def pending(self) -> Question | None:
        return self.session.pending

    @property
    def over(self) -> bool:
        return self.session.over

    def _saving(self, act: Callable[[], str | None]) -> str | None:
        """``act`` on the session, its rows written as it goes; what the screen is told when the database refuses
        them: back to the last step saved (and the screen may try again), or, the database gone, stopped."""
        if self.stopped is not None:
            return self.stopped
        try:
            return act()
        except StoreBusyError as exc:
            try:  # the journal holds what was written: the fight as it was saved, rebuilt
                self._saved()
            except StoreError as again:  # pragma: no cover - the same journal rebuilt a moment ago
                self.stopped = f"{exc}; {again}"
                return self.stopped
            return f"{exc}. The page is back at the last step saved: try again"
        except StoreError as exc:
            self.stopped = f"the fight stopped: {exc}"
            return self.stopped
        except PolicyError as exc:
            return self._policy_failed(exc)
        finally:
            self.changes += 1

    def _policy_of(self, name: str) -> str:
        f = self.session.fight.state.fighters.get(name)
        return str(getattr(f, "policy", None) or "")

    def _saved(self) -> None:
        """The fight as its journal holds it, rebuilt (what a refused step left unsaved is gone)."""
        record = self.session.record
        assert record is not None
        drive = open_drive(self.store, self.game, open_game(self.game, self.code), record.journal,
                           DicePrefs({"all": "roll"}))
        _bounded(drive, self.failed)
        party = self.session.party
        self.session = Session(drive, record)
        self.session.party = party

    def _policy_failed(self, exc: PolicyError) -> str:
        """A designer's policy that did not answer in time, raised, or tried to end the process: back to the last
        step saved, its combatant asked from now on (journalled), the referee told. Under ``--auto`` nobody is asked:
        the fight stops there, saying so."""
        mode, left = self.session.mode, self.session.left
        if exc.actor is not None:
            self.failed.add(self._policy_of(exc.actor))
        try:
            self._saved()
            fight = self.session.fight
            if exc.actor is None or exc.actor not in fight.state.fighters or fight.auto:
                why = "under --auto nobody is asked" if fight.auto else "nobody to ask in its place"
                self.stopped = (f"the fight stopped: {exc}; {why}: the fight is saved as it was before that "
                                "step (fix the policy, then serve it again)")
                self.told = self.stopped
                return self.stopped
            reply = self.session.say(f"declare {exc.actor} ask")
            if not reply.ok:  # pragma: no cover - a combatant of the fight, named as it is
                raise StoreError(reply.text)
            self.session.go(mode, max(left, 1))  # on as the referee had it going (the rebuilt fight waits)
            self.session.advance()
        except PolicyError as again:  # another's policy, at the step after
            return self._policy_failed(again)
        except StoreError as again:
            self.stopped = f"the fight stopped: {exc}; {again}"
            return self.stopped
        self.told = f"{exc}: {exc.actor} is asked from now on (declare {exc.actor} ask, saved with the fight)"
        return self.told
    def _moved(self, made: int) -> str:
        """What a line that moved the fight on did, in words: the events it made and where it stopped (a question,
        the next round's declarations, the end), never a bare count of nothing."""
        q = self.pending
        if isinstance(q, DeclareQuestion):
            where = f"{q.actor}'s declaration is asked"
        elif q is not None:
            where = f"the {asked(q)} is asked"
        else:
            where = "the fight is over" if self.session.over else f"now {self.session.fight.now_at}"
        return f"{made} event{'' if made == 1 else 's'}; {where}" if made else where

    def answer(self, pc: str | None, qid: int, text: str) -> str | None:
        """Answer question ``qid`` for ``pc``'s player (None: the referee): None once accepted (the fight moves
        on), else what is wrong."""
        if self.stopped is not None:
            return self.stopped
        q = self.pending
        if q is None or q.id != qid:
            return "that question is no longer asked (it was answered, or the fight moved on)"

        def act() -> str | None:
            reply = self.session.say(text, seat=pc)
            if not reply.ok:
                return reply.text
            self._advance()
            return None

        return self._saving(act)

    def _advance(self) -> None:
        """The fight moves on until a person's word is wanted (``Session.advance``), or the server stops: a step at a
        time, each saved before the next (a ``run`` of a whole fight by its policies does not hold the server's
        stop for its length)."""
        session = self.session
        while not session.waiting and not self.stopping:
            session.next()

    def command(self, line: str) -> str:
        """One of the referee's lines, as the console takes it; what it did, or what is wrong."""
        said = self._saving(lambda: self._command(line))
        assert said is not None
        return said

    def _command(self, line: str) -> str:
        words = line.split()
        if not words:
            return "type a command (step, run, round, undo, back, damage NAME N, heal NAME N, NAME: DECLARATION, ...)"
        waiting = self.pending
        before = len(self.journal.events)
        reply = self.session.say(line)
        verb = words[0].lower()
        if reply.ok and reply.go:
            self._advance()
            if verb in MOVING:
                return f"{MOVING[verb]}: {self._moved(len(self.journal.events) - before)}"
        if not reply.ok or reply.text:
            return reply.text
        if waiting is not None and self.pending is not waiting:
            return ""  # the line answered the question (a declaration typed, a group's): the screen moved on
        return f"{MOVING.get(verb, verb)}: once the question waiting is answered" if waiting is not None else "done"


def _bounded(drive: Drive, failed: set[str] | None = None) -> None:
    """A served fight's designer policies answer within ``POLICY_SECONDS``, or their combatant is asked; ``failed``:
    the policies that failed already (kept from one rebuild to the next: no suggestion is asked of them)."""
    policy = drive.fight.policy
    if isinstance(policy, Auto):
        policy.seconds = POLICY_SECONDS
        if failed is not None:
            policy.failed = failed
