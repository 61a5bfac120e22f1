"""The console's database: one SQLite file (WAL, append-only) holding any number of fights.

A fight is a pure function of its inputs (encounter text, ruleset, options, seed, the dice and commands
the referee entered), so the journal stores those inputs and every event as it happens. Nothing is ever
updated or deleted (triggers refuse it): ``undo`` is a journal row too, and the current fight is the fold
of its journal (``Journal``).

One writer per fight: a session that writes holds ``Store.writer(game)``, an advisory lock (``flock``) on
a file beside the database, ``PATH-fightN.lock``, which the system releases when the process ends, even by
kill -9. A second writer of the same fight waits a moment, then is refused (``FightBusyError``); two fights of
one database are played at once, each under its own lock, and readers (``log``, ``games``) take none.

A damaged database is refused fight by fight: a row that cannot be read or makes no sense names the file,
the fight and the row (``StoreError``), and the other fights stay open.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from affray.errors import AffrayError
from affray.limits import MAX_HP

__all__ = ["DieInput", "FightBusyError", "Game", "Journal", "OutcomeInput", "Store", "StoreError"]

#: How long a second writer of a fight waits for the first to finish before it is refused (seconds).
WRITER_WAIT = 1.0

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
    """A database that cannot be opened, is damaged, or does not hold the game asked for."""


class FightBusyError(StoreError):
    """The fight is being written by another session (one writer per fight)."""


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
        """Fold one row; ValueError when the row makes no sense (out of order, a payload of the wrong shape)."""
        if not isinstance(at, int) or isinstance(at, bool) or at < 0 or not isinstance(payload, dict):
            raise ValueError("not a journal row of affray's (its event number or payload)")
        if kind == "event":
            if at != len(self.events):
                raise ValueError(f"journal out of order: event {at} after {len(self.events)} events")
            self.events.append(payload)
        elif kind == "die":
            die = DieInput(at=at, **_typed(payload, {"call": int, "sides": int, "count": int, "purpose": str,
                                                     "actor": (str, type(None)), "value": int}))
            if not (die.count >= 1 and die.sides >= 1 and die.count <= die.value <= die.count * die.sides):
                raise ValueError(f"a die of {die.count}d{die.sides} cannot show {die.value}")
            self.dice[die.call] = die
        elif kind == "outcome":
            outcome = OutcomeInput(at=at, **_typed(payload, {"call": int, "actor": str, "target": str, "hit": bool,
                                                             "damage": int}))
            if not 0 <= outcome.damage <= MAX_HP:
                raise ValueError(f"an outcome of {outcome.damage} damage: from 0 to {MAX_HP}")
            self.outcomes[outcome.call] = outcome
        elif kind == "command":
            step = payload.get("step", 0)
            if not isinstance(payload.get("text"), str) or not isinstance(step, int) or isinstance(step, bool):
                raise ValueError("a command row without its text")
            self.commands[at, step] = payload["text"]
        elif kind == "undo":
            if at > len(self.events):
                raise ValueError(f"an undo back to {at} events after {len(self.events)} events")
            self.truncate(at)
        elif kind == "end":
            self.ended = True
        else:
            raise ValueError(f"unknown kind of row {kind!r}")

    def truncate(self, to: int) -> None:
        """Back to the moment when ``to`` events had happened: later events and their inputs no longer count."""
        del self.events[to:]
        self.dice = {k: d for k, d in self.dice.items() if d.at < to}
        self.outcomes = {k: o for k, o in self.outcomes.items() if o.at < to}
        self.commands = {k: c for k, c in self.commands.items() if k[0] < to}
        self.ended = False


def _typed(payload: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """``payload`` when it has exactly ``fields``, each of its type (true is not a number); ValueError else."""
    if set(payload) != set(fields):
        raise ValueError(f"a payload with fields {', '.join(sorted(payload))}, not {', '.join(sorted(fields))}")
    for key, kind in fields.items():
        value = payload[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise ValueError(f"{key} is {value!r}")
    return payload


class Store:
    """An SQLite database of fights; every write is committed before it returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._held: dict[int, int] = {}  # game id -> the descriptor of its writer's lock file
        if Path(path).exists() and not Path(path).is_file():
            raise StoreError(f"{self.path}: not a file: --db takes the path of an SQLite file (new or affray's)")
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot use this file as affray's database: {exc}") from None

    def close(self) -> None:
        for game in list(self._held):
            self._release(game)
        self.db.close()

    # -- one writer per fight -------------------------------------------------------------------------
    def lock_path(self, game: int) -> str:
        return f"{self.path}-fight{game}.lock"

    @contextlib.contextmanager
    def writer(self, game: int, *, wait: float = WRITER_WAIT) -> Iterator[None]:
        """Hold fight ``game`` for writing (``append``) while the block runs; FightBusyError when another
        session holds it still after ``wait`` seconds."""
        if game in self._held:  # already held (``new_game`` takes the new fight's lock)
            try:
                yield
            finally:
                self._release(game)
            return
        self._held[game] = self._acquire(game, wait)
        try:
            yield
        finally:
            self._release(game)

    def _acquire(self, game: int, wait: float) -> int:
        path = self.lock_path(game)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"{path}: cannot make the lock file that keeps fight {game} to one writer: "
                             f"{exc.strerror or exc}") from None
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                    os.close(fd)
                    by = f" (process {holder})" if holder.isdecimal() else ""
                    raise FightBusyError(
                        f"{self.path}: fight {game} is being played in another console{by}, and a fight takes one "
                        f"writer at a time: quit that one first (`affray log --db {self.path} --game {game}` shows "
                        "it meanwhile), or start or resume another fight") from None
                time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        return fd

    def _release(self, game: int) -> None:
        fd = self._held.pop(game, None)
        if fd is not None:
            os.close(fd)  # closing the descriptor releases the lock

    # -- fights ---------------------------------------------------------------------------------------
    def _rows(self, what: str, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, args).fetchall()
        except (sqlite3.Error, OverflowError) as exc:
            raise StoreError(f"{self.path}: {what} is damaged: the database cannot be read there ({exc})") from None

    def new_game(self, file: str, text: str, ruleset: str, seed: int, options: dict[str, Any], auto: bool,
                 max_rounds: int) -> Game:
        """A new fight, its writer's lock held already (released by ``writer``'s block or ``close``)."""
        created = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
        try:
            self.db.execute("BEGIN IMMEDIATE")  # nobody sees the fight before its lock is held
            cur = self.db.execute(
                "INSERT INTO games (created, file, text, ruleset, seed, options, auto, max_rounds) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (created, file, text, ruleset, seed, json.dumps(options, sort_keys=True), int(auto), max_rounds))
            game_id = cur.lastrowid
            assert game_id is not None
            self._held[game_id] = self._acquire(game_id, 0)
            self.db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            if isinstance(exc, (sqlite3.Error, OverflowError)):
                raise StoreError(f"{self.path}: cannot add a fight to this database: {exc}") from None
            raise
        return self.game(game_id)

    def game_ids(self) -> list[int]:
        return [r[0] for r in self._rows("the list of fights", "SELECT id FROM games ORDER BY id")]

    def game(self, game_id: int | None = None) -> Game:
        """The game ``game_id``, or the latest one."""
        if game_id is None:
            ids = self.game_ids()
            if not ids:
                raise StoreError(f"{self.path}: no fight in this database yet: start one with "
                                 f"`affray play FILE --db {self.path}`")
            game_id = ids[-1]
        rows = self._rows(f"fight {game_id}", "SELECT * FROM games WHERE id = ?", (game_id,)) \
            if 0 < game_id < 2**63 else []
        if not rows:
            ids_text = ", ".join(map(str, self.game_ids()))
            raise StoreError(f"{self.path}: --game {game_id}: no such fight (fights here: {ids_text or 'none'})")
        try:
            gid, created, file, text, ruleset, seed, options, auto, max_rounds = rows[0]
            game = Game(gid, created, file, text, ruleset, seed, json.loads(options), bool(auto), max_rounds)
            for value, kind in ((created, str), (file, str), (text, str), (ruleset, str), (seed, int),
                                (game.options, dict), (max_rounds, int)):
                if not isinstance(value, kind):
                    raise ValueError(f"{value!r} where the fight's {kind.__name__} belongs")
        except (ValueError, TypeError, RecursionError) as exc:
            raise StoreError(f"{self.path}: fight {game_id} is damaged: its row in the database cannot be read "
                             f"({str(exc)[:200]}); the other fights are not affected") from None
        return game

    def games(self) -> list[Game]:
        return [self.game(g) for g in self.game_ids()]

    def append(self, game: int, kind: str, at: int, payload: dict[str, Any]) -> None:
        """One journal row, committed (durable) before this returns; only a session holding ``writer(game)``
        writes (one writer per fight: rows of two sessions never interleave)."""
        if game not in self._held:
            raise RuntimeError(f"fight {game} written without its writer's lock (Store.writer)")
        try:
            self.db.execute("INSERT INTO journal (game, kind, at, payload) VALUES (?, ?, ?, ?)",
                            (game, kind, at, json.dumps(payload, ensure_ascii=False)))
        except (sqlite3.Error, OverflowError) as exc:
            raise StoreError(f"{self.path}: fight {game}: cannot save to the database: {exc}") from None

    def journal(self, game: int) -> Journal:
        """The fold of fight ``game``'s rows; StoreError naming the row when one is damaged."""
        j = Journal()
        for row, kind, at, payload in self._rows(f"fight {game}", "SELECT id, kind, at, payload FROM journal "
                                                 "WHERE game = ? ORDER BY id", (game,)):
            try:
                j.add(kind, at, json.loads(payload))
            except (ValueError, TypeError, RecursionError) as exc:
                raise StoreError(f"{self.path}: fight {game} is damaged: journal row {row} ({kind}) cannot be used "
                                 f"({str(exc)[:200]}); the other fights are not affected") from None
        return j
