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

from affray.errors import AffrayError

__all__ = ["DieInput", "Game", "Journal", "OutcomeInput", "Store", "StoreError"]

_SCHEMA = """
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
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL CHECK (kind IN ('event', 'die', 'outcome', 'command', 'undo', 'end')),
    at INTEGER NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_game ON journal(game, id);
CREATE TRIGGER IF NOT EXISTS journal_append_only_u BEFORE UPDATE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_append_only_d BEFORE DELETE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS games_append_only_u BEFORE UPDATE ON games
    BEGIN SELECT RAISE(ABORT, 'games are append-only'); END;
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


@dataclass(frozen=True)
class DieInput:
    """A die the referee entered: the ``call``-th question the fight asked its provider."""

    call: int
    at: int  # events in the log when it was entered (it decides event number ``at``)
    sides: int
    count: int
    purpose: str
    actor: str | None
    value: int


@dataclass(frozen=True)
class OutcomeInput:
    """An attack's outcome the referee entered ("hit 6", "miss"): the ``call``-th outcome the fight asked."""

    call: int
    at: int
    actor: str
    target: str
    hit: bool
    damage: int


@dataclass
class Journal:
    """The fold of a game's journal: its current events, the inputs that still count, whether it ended."""

    events: list[dict[str, Any]] = field(default_factory=list)
    dice: dict[int, DieInput] = field(default_factory=dict)
    outcomes: dict[int, OutcomeInput] = field(default_factory=dict)
    #: (at, k) -> command text: entered after ``at`` events, at the pause after the last of them (k = 0) or
    #: before the k-th step resolved since (k >= 1); it emits event ``at`` on.
    commands: dict[tuple[int, int], str] = field(default_factory=dict)
    ended: bool = False

    def add(self, kind: str, at: int, payload: dict[str, Any]) -> None:
        if kind == "event":
            if at != len(self.events):
                raise StoreError(f"journal out of order: event {at} after {len(self.events)} events")
            self.events.append(payload)
        elif kind == "die":
            self.dice[payload["call"]] = DieInput(at=at, **payload)
        elif kind == "outcome":
            self.outcomes[payload["call"]] = OutcomeInput(at=at, **payload)
        elif kind == "command":
            self.commands[at, payload.get("step", 0)] = payload["text"]
        elif kind == "undo":
            self.truncate(at)
        elif kind == "end":
            self.ended = True

    def truncate(self, to: int) -> None:
        """Back to the moment when ``to`` events had happened: later events and their inputs no longer count."""
        del self.events[to:]
        self.dice = {k: d for k, d in self.dice.items() if d.at < to}
        self.outcomes = {k: o for k, o in self.outcomes.items() if o.at < to}
        self.commands = {k: c for k, c in self.commands.items() if k[0] < to}
        self.ended = False


class Store:
    """An SQLite database of fights; every write is committed before it returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot use this file as affray's database: {exc}") from None

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
