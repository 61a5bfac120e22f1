"""The console's database: one SQLite file (WAL, append-only) holding any number of fights.

A fight is a pure function of its inputs (encounter text, ruleset, options, seed, the dice and commands
the referee entered), so the journal stores those inputs and every event as it happens. Nothing is ever
updated or deleted (triggers refuse it): ``undo`` is a journal row too, and the current fight is the fold
of its journal (``Journal``).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from affray.drive import Input
from affray.drive.questions import plain
from affray.errors import AffrayError
from affray.model.encounter import Declaration, Outcome

__all__ = ["Game", "Journal", "Store", "StoreError"]

_GAMES = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    file TEXT NOT NULL,
    text TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    auto INTEGER NOT NULL,
    max_rounds INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS games_append_only_u BEFORE UPDATE ON games
    BEGIN SELECT RAISE(ABORT, 'games are append-only'); END;
"""
_JOURNAL = """
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL CHECK (kind IN ('event', 'answer', 'command', 'dice', 'undo', 'end')),
    at INTEGER NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_game ON journal(game, id);
CREATE TRIGGER IF NOT EXISTS journal_append_only_u BEFORE UPDATE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_append_only_d BEFORE DELETE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class StoreError(AffrayError):
    """A database that cannot be opened or does not hold the game asked for."""


@dataclass(frozen=True)
class Game:
    """What a fight was started with: enough to rebuild it from nothing but this row and its journal."""

    id: int
    created: str
    file: str
    text: str
    ruleset: str
    seed: int
    options: dict[str, Any]
    auto: bool
    max_rounds: int


@dataclass
class Journal:
    """The fold of a game's journal: its current events, the inputs that still count, whether it ended."""

    events: list[dict[str, Any]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    ended: bool = False

    def add(self, kind: str, at: int, payload: dict[str, Any]) -> None:
        if kind == "event":
            if at != len(self.events):
                raise StoreError(f"journal out of order: event {at} after {len(self.events)} events")
            self.events.append(payload)
        elif kind in ("answer", "command", "dice"):
            self.inputs.append(input_from(kind, at, payload))
        elif kind == "undo":
            self.truncate(at)
        elif kind == "end":
            self.ended = True

    def truncate(self, to: int) -> None:
        """Back to the moment when ``to`` events had happened: later events and their inputs no longer count."""
        del self.events[to:]
        self.inputs = [i for i in self.inputs if i.at < to]
        self.ended = False


def input_row(i: Input) -> tuple[str, int, dict[str, Any]]:
    """A driven fight's input as a journal row: (kind, at, payload)."""
    if i.kind == "answer":
        assert i.key is not None
        return "answer", i.at, {"key": list(i.key), "k": i.k, "value": answer_json(i.value)}
    if i.kind == "command":
        return "command", i.at, {"text": i.value, "k": i.k, "upto": i.upto}
    return "dice", i.at, {"who": i.value[0], "mode": i.value[1], "k": i.k}


def input_from(kind: str, at: int, payload: dict[str, Any]) -> Input:
    k = int(payload.get("k", payload.get("step", 0)))
    if kind == "answer":
        what, n = payload["key"]
        return Input("answer", at, k, (str(what), int(n)), answer_value(payload["value"]))
    if kind == "command":
        return Input("command", at, k, value=str(payload["text"]), upto=int(payload.get("upto", at)))
    return Input("dice", at, k, value=(str(payload["who"]), str(payload["mode"])))


def answer_json(value: object) -> Any:
    """An answer as JSON: a die's value, {"outcome": {...}} or {"declare": one plan entry}."""
    if isinstance(value, Outcome):
        return {"outcome": value.model_dump(mode="json")}
    if isinstance(value, Declaration):
        return {"declare": plain(value)}
    return value


def answer_value(data: Any) -> object:
    if isinstance(data, dict) and "outcome" in data:
        return Outcome.model_validate(data["outcome"])
    if isinstance(data, dict) and "declare" in data:
        return Declaration.model_validate(data["declare"])
    return data


class Store:
    """An SQLite database of fights; every write is committed before it returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(_GAMES + _JOURNAL)
            self._upgrade()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot use this file as affray's database: {exc}") from None

    def _upgrade(self) -> None:
        """A database of an earlier affray journalled dice and outcomes by other rows: its journal table takes
        the rows of today's inputs once rebuilt (its fights keep their events; replaying them may not fit)."""
        (sql,) = self.db.execute("SELECT sql FROM sqlite_master WHERE name = 'journal'").fetchone()
        if "'answer'" in sql:
            return
        self.db.executescript("BEGIN; ALTER TABLE journal RENAME TO journal_old; DROP TRIGGER journal_append_only_u; "
                              "DROP TRIGGER journal_append_only_d; DROP INDEX journal_game;" + _JOURNAL +
                              "INSERT INTO journal (id, game, kind, at, payload) SELECT id, game, kind, at, payload "
                              "FROM journal_old WHERE kind IN ('event', 'command', 'undo', 'end'); "
                              "DROP TABLE journal_old; COMMIT;")

    def close(self) -> None:
        self.db.close()

    def new_game(self, file: str, text: str, ruleset: str, seed: int, options: dict[str, Any], auto: bool,
                 max_rounds: int) -> Game:
        created = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
        cur = self.db.execute(
            "INSERT INTO games (created, file, text, ruleset, seed, options, auto, max_rounds) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (created, file, text, ruleset, seed, json.dumps(options, sort_keys=True), int(auto), max_rounds))
        game_id = cur.lastrowid
        assert game_id is not None
        return self.game(game_id)

    def game(self, game_id: int | None = None) -> Game:
        """The game ``game_id``, or the latest one."""
        if game_id is None:
            row = self.db.execute("SELECT * FROM games ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise StoreError(f"{self.path}: no fight in this database yet: start one with "
                                 f"`affray play FILE --db {self.path}`")
        else:
            row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                ids = ", ".join(str(r[0]) for r in self.db.execute("SELECT id FROM games ORDER BY id"))
                raise StoreError(f"{self.path}: --game {game_id}: no such fight (fights here: {ids or 'none'})")
        gid, created, file, text, ruleset, seed, options, auto, max_rounds = row
        return Game(gid, created, file, text, ruleset, seed, json.loads(options), bool(auto), max_rounds)

    def games(self) -> list[Game]:
        return [self.game(r[0]) for r in self.db.execute("SELECT id FROM games ORDER BY id")]

    def append(self, game: int, kind: str, at: int, payload: dict[str, Any]) -> None:
        """One journal row, committed (durable) before this returns."""
        self.db.execute("INSERT INTO journal (game, kind, at, payload) VALUES (?, ?, ?, ?)",
                        (game, kind, at, json.dumps(payload, ensure_ascii=False)))

    def journal(self, game: int) -> Journal:
        j = Journal()
        for kind, at, payload in self.db.execute(
                "SELECT kind, at, payload FROM journal WHERE game = ? ORDER BY id", (game,)):
            j.add(kind, at, json.loads(payload))
        return j
