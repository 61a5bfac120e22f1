"""The page's hold on one stored fight: the table's session (``affray.table.Session``) with the fight's writer's
lock held for as long as the page serves it, so a console and the page never write one fight at once.

Everything a screen does goes to the session, as the console's lines do; the page only checks that the
question a form answers is still the one asked, and moves the fight on after each form until a person's word
is wanted again.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from affray.drive import DicePrefs, Question
from affray.table import Game, Journal, Recorder, Session, Store, open_drive, open_game
from affray.table.session import MOVING

__all__ = ["Table"]


@dataclass
class Table:
    """An open fight (its writer's lock held until ``close``)."""

    store: Store
    game: Game
    journal: Journal
    session: Session
    lock: contextlib.ExitStack

    @classmethod
    def open(cls, store: Store, game: Game) -> Table:
        """Take the fight's writer's lock (FightBusyError if a console holds it) and rebuild it from its journal.
        A fight never served before asks the player characters' sides for their own dice (journalled)."""
        lock = contextlib.ExitStack()
        lock.enter_context(store.writer(game.id))
        try:
            journal = store.journal(game.id)
            drive = open_drive(store, game, open_game(game), journal, DicePrefs({"all": "roll"}))
            session = Session(drive, Recorder(store, game, journal))
            table = cls(store, game, journal, session, lock)
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

    def answer(self, pc: str | None, qid: int, text: str) -> str | None:
        """Answer question ``qid`` for ``pc``'s player (None: the referee): None once accepted (the fight moves
        on), else what is wrong."""
        q = self.pending
        if q is None or q.id != qid:
            return "that question is no longer asked (it was answered, or the fight moved on)"
        reply = self.session.say(text, seat=pc)
        if not reply.ok:
            return reply.text
        self.session.advance()
        return None

    def command(self, line: str) -> str:
        """One of the referee's lines, as the console takes it; what it did, or what is wrong."""
        words = line.split()
        if not words:
            return "type a command (step, run, round, undo, back, damage NAME N, heal NAME N, NAME: DECLARATION, ...)"
        waiting = self.pending
        reply = self.session.say(line)
        verb = words[0].lower()
        if reply.ok and reply.go:
            self.session.advance()
            if verb in MOVING:
                return f"{MOVING[verb]}: {len(self.journal.events)} events"
        if not reply.ok or reply.text:
            return reply.text
        return f"{MOVING.get(verb, verb)}: once the question waiting is answered" if waiting is not None else "done"
