"""``affray drive``: a driven fight as JSON lines, one object per line on stdout, one read per line from stdin.

Written: ``{"event": {...}}`` (as an element of ``affray run --json``'s events), ``{"ask": {...}}`` (a
declaration or a die wanted), ``{"end": {"winner": ..., "combatants": {...}}}``, ``{"error": TEXT, "id": N}``
(the line read was not a valid answer: the question stands and is sent again) and ``{"undone": {"events":
N}}`` (after an undo: the fight is back to its first N events). Read: ``{"id": N, "declare": ENTRY}``,
``{"id": N, "die": V}``, ``{"id": N, "roll": true}``, ``{"id": N, "outcome": {...}}``, ``{"do": "undo", "n":
K}``, ``{"do": "command", "text": "damage Orc 1 3"}`` (a referee's command, as at the console), ``{"do":
"quit"}``. With a database every event and answer is journalled as in ``affray play``.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from pydantic import ValidationError

from affray.drive import ROLL, Coming, DeclareQuestion, DieQuestion, Drive, End, Input, Question
from affray.io.timeline import event_dict
from affray.model.encounter import Outcome
from affray.play.store import Game, Store, input_row

__all__ = ["converse"]


class _Journal:
    """Where a conversation's lines go when a database is given."""

    def __init__(self, store: Store | None, game: Game | None, events: int) -> None:
        self.store = store
        self.game = game
        self.events = events

    def event(self, d: dict[str, Any]) -> None:
        if self.store is not None and self.game is not None:
            self.store.append(self.game.id, "event", self.events, d)
        self.events += 1

    def input(self, i: Input) -> None:
        if self.store is not None and self.game is not None:
            self.store.append(self.game.id, *input_row(i))

    def row(self, kind: str, at: int) -> None:
        if self.store is not None and self.game is not None:
            self.store.append(self.game.id, kind, at, {})


def _write(out: TextIO, obj: dict[str, Any]) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")
    out.flush()


def _answer(drive: Drive, q: Question | None, data: dict[str, Any]) -> str | None:
    """Give the answer a line carries; None once accepted, else what is wrong."""
    if q is None:
        return "no question is waiting: send {\"do\": \"undo\", \"n\": K} or {\"do\": \"quit\"}"
    if data.get("id") != q.id:
        return f"the question waiting is {q.id}: answer it with \"id\": {q.id}"
    given = [k for k in ("declare", "die", "roll", "outcome") if k in data]
    if len(given) != 1:
        return "give one of declare, die, roll or outcome"
    key = given[0]
    if isinstance(q, DeclareQuestion) and key != "declare":
        return "a declaration is wanted: {\"id\": N, \"declare\": {\"melee\": \"Orc 1\"}}"
    if isinstance(q, DieQuestion) and key == "declare":
        return "a die is wanted: {\"id\": N, \"die\": V} or {\"id\": N, \"roll\": true}"
    value: object = data[key]
    if key == "roll":
        if value is not True:
            return "roll takes true"
        value = ROLL
    elif key == "outcome":
        try:
            value = Outcome.model_validate(value)
        except ValidationError:
            return "an outcome is {\"hit\": true, \"damage\": N} or {\"hit\": false}"
    return drive.answer(value)


def converse(drive: Drive, inp: TextIO, out: TextIO, store: Store | None = None, game: Game | None = None) -> None:
    """Run the conversation until the input ends or says quit."""
    journal = _Journal(store, game, len(drive.fight.events))
    drive.on_input = journal.input
    while True:
        item = drive.pull()
        if isinstance(item, Coming):
            continue  # steps are announced only to a console
        if isinstance(item, (DeclareQuestion, DieQuestion, End)):
            if isinstance(item, End):
                if store is not None and game is not None and not store.journal(game.id).ended:
                    journal.row("end", journal.events)
                final = item.result.final
                _write(out, {"end": {"winner": final.winner, "combatants": final.combatants}})
            else:
                _write(out, {"ask": item.to_json()})
            if not _read(drive, item, inp, out, journal):
                return
            continue
        d = json.loads(json.dumps(event_dict(item, journal.events), ensure_ascii=False))
        journal.event(d)
        _write(out, {"event": d})


def _read(drive: Drive, item: object, inp: TextIO, out: TextIO, journal: _Journal) -> bool:
    """Read lines until the question is answered (or, at the end, an undo): False to stop."""
    q = item if isinstance(item, (DeclareQuestion, DieQuestion)) else None
    while True:
        line = inp.readline()
        if not line:
            return False
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            _write(out, {"error": "each line is one JSON object", "id": q.id if q else None})
            _resend(out, item)
            continue
        do = data.get("do")
        if do == "quit":
            return False
        if do == "undo":
            n = data.get("n", 1)
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                _write(out, {"error": "undo takes n, a whole number of events of 1 or more", "id": q.id if q else None})
                _resend(out, item)
                continue
            to = drive.undo(n)
            journal.row("undo", to)
            journal.events = to
            _write(out, {"undone": {"events": to}})
            return True
        if do == "command":  # a referee's command (damage, heal, add, remove, plan): its events, then the question
            error = drive.command(str(data.get("text", "")))
            if error is not None:
                _write(out, {"error": error, "id": q.id if q else None})
            for e in drive.take_events():
                d = json.loads(json.dumps(event_dict(e, journal.events), ensure_ascii=False))
                journal.event(d)
                _write(out, {"event": d})
            _resend(out, item)
            continue
        if do is not None:
            _write(out, {"error": f"unknown do {do!r}: undo, command or quit", "id": q.id if q else None})
            _resend(out, item)
            continue
        error = _answer(drive, q, data)
        if error is None:
            return True
        _write(out, {"error": error, "id": q.id if q else None})
        _resend(out, item)


def _resend(out: TextIO, item: object) -> None:
    if isinstance(item, (DeclareQuestion, DieQuestion)):
        _write(out, {"ask": item.to_json()})

