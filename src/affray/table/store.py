"""The console's database: one SQLite file (WAL, append-only) holding any number of fights.

A fight is a pure function of its inputs (encounter text, ruleset, options, seed, and what the referee
entered: answers to the fight's questions, commands, which dice are asked), so the journal stores those
inputs (``affray.drive.Input``, each with the point it was given at) and every event as it happens. Nothing is ever
updated or deleted (triggers refuse it): ``undo`` is a journal row too, and the current fight is the fold
of its journal (``Journal``).

One writer per fight: a session that writes holds ``Store.writer(game)``, a lock (filelock's ``lock_descriptor``:
``flock`` on POSIX, ``LockFileEx`` on Windows) on a file beside the database, ``PATH-fightN.lock``, which the
system releases when the process ends, even by kill -9. A second writer of the same fight waits a moment, then
is refused (``FightBusyError``); two fights of one database are played at once, each under its own lock, and
readers (``log``, ``games``) take none.

A damaged database is refused fight by fight: a row that cannot be read or makes no sense names the file,
the fight and the row (``StoreError``), and the other fights stay open.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from affray.drive import Input
from affray.drive.driven import still_counts
from affray.drive.questions import plain
from affray.errors import AffrayError
from affray.io.messages import validation_problems
from affray.io.read import format_path
from affray.limits import MAX_HP
from affray.model.encounter import Declaration, Outcome

__all__ = ["FightBusyError", "Game", "Journal", "Store", "StoreError", "answer_json", "answer_value", "input_from",
           "input_row"]

#: How long a second writer of a fight waits for the first to finish before it is refused (seconds).
WRITER_WAIT = 1.0

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


@dataclass
class Journal:
    """The fold of a game's journal: its current events, the inputs that still count, whether it ended."""

    events: list[dict[str, Any]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    ended: bool = False

    def add(self, kind: str, at: int, payload: dict[str, Any]) -> None:
        """Fold one row; ValueError when the row makes no sense (out of order, a payload of the wrong shape)."""
        if not isinstance(at, int) or isinstance(at, bool) or at < 0 or not isinstance(payload, dict):
            raise ValueError("not a journal row of affray's (its event number or payload)")
        if kind == "event":
            if at != len(self.events):
                raise ValueError(f"journal out of order: event {at} after {len(self.events)} events")
            self.events.append(payload)
        elif kind in ("answer", "command", "dice"):
            self.inputs.append(input_from(kind, at, payload))
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
        self.inputs = [i for i in self.inputs if still_counts(i, to)]
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
    """A journal row as the input it records; ValueError when its payload is not one of affray's. A command of
    an earlier affray's journal (``step``: steps announced since its event) is placed at the first point after
    that event."""
    k = _whole(payload, "k") if "k" in payload else (
        max(_whole(payload, "step"), 1 if at else 0) if "step" in payload else 0)
    if kind == "answer":
        key = payload.get("key")
        if not (isinstance(key, list) and len(key) == 2 and key[0] in ("declare", "die") and isinstance(key[1], int)
                and not isinstance(key[1], bool)):
            raise ValueError(f"an answer's key is {key!r}")
        return Input("answer", at, k, (str(key[0]), int(key[1])), answer_value(payload.get("value")))
    if kind == "command":
        if not isinstance(payload.get("text"), str):
            raise ValueError("a command row without its text")
        return Input("command", at, k, value=payload["text"], upto=_whole(payload, "upto") if "upto" in payload
                     else at)
    who, mode = payload.get("who"), payload.get("mode")
    if not isinstance(who, str) or mode not in ("ask", "roll"):
        raise ValueError(f"a dice row of {who!r} and {mode!r}")
    return Input("dice", at, k, value=(who, mode))


def _whole(payload: dict[str, Any], key: str) -> int:
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{key} is {value!r}")
    return value


def answer_json(value: object) -> Any:
    """An answer as JSON: a die's value, {"outcome": {...}} or {"declare": one plan entry}."""
    if isinstance(value, Outcome):
        return {"outcome": value.model_dump(mode="json")}
    if isinstance(value, Declaration):
        return {"declare": plain(value)}
    return value


def answer_value(data: Any) -> object:
    """A journalled answer as the fight takes it; ValueError when it is none of affray's."""
    try:
        if isinstance(data, dict) and "outcome" in data:
            damage = data["outcome"].get("damage", 0) if isinstance(data["outcome"], dict) else 0
            if isinstance(damage, int) and not 0 <= damage <= MAX_HP:
                raise ValueError(f"an outcome of {damage} damage: from 0 to {MAX_HP}")
            return Outcome.model_validate(data["outcome"])
        if isinstance(data, dict) and "declare" in data:
            return Declaration.model_validate(data["declare"])
    except ValidationError as exc:
        inner = next(iter(data.values())) if isinstance(data, dict) else data
        loc, message = (validation_problems(exc, inner) or [((), "not valid")])[0]
        raise ValueError(f"an answer that is not one: {format_path(loc) + ': ' if loc else ''}{message}") from None
    if not isinstance(data, int) or isinstance(data, bool) or not 1 <= data <= 1000:
        raise ValueError(f"a die's answer of {data!r}")
    return data


def _holder(fd: int) -> str:
    """What the lock file says of its holder (its process id); nothing where the lock keeps it unread
    (Windows locks the file's first byte against other processes' reads)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        return os.read(fd, 32).decode("ascii", "replace").strip()
    except OSError:
        return ""


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
            self.db.executescript(_GAMES + _JOURNAL)
            self._upgrade()
        except sqlite3.Error as exc:
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
        from filelock import lock_descriptor  # imported by writers only (readers take no lock)

        path = self.lock_path(game)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
        except OSError as exc:
            raise StoreError(f"{path}: cannot make the lock file that keeps fight {game} to one writer: "
                             f"{exc.strerror or exc}") from None
        deadline = time.monotonic() + wait
        while True:
            if lock_descriptor(fd, blocking=False):
                break
            if time.monotonic() >= deadline:
                holder = _holder(fd)
                os.close(fd)
                by = f" (process {holder})" if holder.isdecimal() else ""
                raise FightBusyError(
                    f"{self.path}: fight {game} is being played in another console{by}, and a fight takes one "
                    f"writer at a time: quit that one first (`affray log --db {self.path} --game {game}` shows "
                    "it meanwhile), or start or resume another fight") from None
            time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
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
