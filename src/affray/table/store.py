"""The console's database: one SQLite file (WAL, append-only) holding any number of fights.

A fight is a pure function of its inputs (encounter text, ruleset, options, seed, and what the table gave it:
answers to the fight's questions, commands, which dice are asked, and every die rolled from the seed), so the
journal stores those inputs (``affray.drive.Input``, each with the point it was given at) and every event as it
happens. Nothing is ever updated or deleted (triggers refuse it): ``undo`` is a journal row too, and so is
``branch`` (a fight continued under changed rules from the last event both versions agree on: the rows after
that event stay in the database, the stored fight as it was), and ``open`` (a writer's session: the affray
version and journal format that wrote the rows after it, its process). The current fight is the fold of its
journal (``Journal``).

Every fight survives:

- *a kill at any moment*: the rows a step makes (its dice, its events, the answer or command that led to it) are
  written in one transaction (``write``): all of them or none;
- *a refused write*: another program holding the database's lock is waited for (``WRITE_WAIT`` seconds, SQLite's
  own retries), then the write is refused as a whole (``StoreBusyError``) and the front end stops or goes back to
  the last step saved, saying so;
- *the file taken away*: the database, its ``-wal`` or its ``-shm`` removed or replaced while a fight is written
  is noticed before and after each write (``StoreGoneError``): nothing more is written, and what was saved is kept
  (folded into the database, or copied out of the removed one into ``PATH-rescued.db``);
- *a second writer*: one writer per fight, held by a lock on the database file itself, byte ``LOCKS_AT + N`` for
  fight N (an open file description lock, ``F_OFD_SETLK``: the kernel releases it when the process ends, even by
  kill -9; the file's identity is the lock's, so a symlink or a second name cannot take it twice, and there is no
  lock file to delete). A database with several hard links is refused: SQLite keeps its write-ahead log beside
  the name it was opened by, so two names are two logs ("How To Corrupt An SQLite Database File", 2.5). A second
  writer of one fight waits a moment, then is refused (``FightBusyError``); two fights of one database are
  played at once, each under its own lock;
- *a newer affray*: the journal's format is written twice, in the file's header (SQLite's ``user_version``, and
  ``application_id`` says the file is affray's) and in the data (the ``affray`` table's ``format`` row, which a
  dump and a repair keep: ``sqlite3 A .dump | sqlite3 B`` and ``.recover`` lose the header's). A writer migrates an
  older format in one transaction (``_migrate``), readers read every format as it is, a database of a newer format
  is refused, never rewritten; one whose header and contents disagree is refused in words with the way to repair
  it, never migrated (a header lost to a dump is no disagreement: it is written again). Readers (``log``,
  ``games``) open the file read-only and take no lock; on a read-only folder or disk, as SQLite's ``immutable``.
- *a reader of the file*: a database is made readable by its owner alone (mode 600; one readable by others is
  said, ``loose``), and the page's links are kept in it as digests and sealed (``affray.table.links``).

A damaged database is refused fight by fight: a row that cannot be read or makes no sense names the file,
the fight and the row (``StoreError``), and the other fights stay open.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sqlite3
import struct
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from affray.drive import Input
from affray.drive.driven import Rolled, still_counts
from affray.drive.questions import plain
from affray.errors import AffrayError
from affray.io.messages import validation_problems
from affray.io.read import format_path
from affray.limits import MAX_HP
from affray.model.encounter import Declaration, Outcome

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock (see _Writers)
    fcntl = None  # type: ignore[assignment]

__all__ = ["APPLICATION_ID", "FORMAT", "LINKS", "Branch", "FightBusyError", "Game", "Journal", "Row", "Store",
           "StoreBusyError", "StoreError", "StoreGoneError", "affray_version", "answer_json", "answer_value",
           "input_from", "input_row", "loose"]

#: The journal's format, kept as the database's ``user_version`` and its ``affray`` table's ``format`` row: 0, the
#: first (dice and outcomes journalled by rows of their own); 1, an answer, command or choice of dice per input (to
#: affray 0.1.0 at cf68679, ``user_version`` still 0); 2, every die rolled recorded (``roll``), the writers' sessions
#: (``open``), ``branch``; 3, the format row and ``application_id`` (identity a dump keeps), the page's links as
#: digests and sealed (``links``, in place of ``seats``' plain tokens).
FORMAT = 3
#: SQLite's ``application_id`` of affray's databases: "Afry".
APPLICATION_ID = 0x41667279
#: How long a second writer of a fight waits for the first to finish before it is refused (seconds).
WRITER_WAIT = 1.0
#: How long a write waits for another program that holds the database's lock before it is refused (seconds).
WRITE_WAIT = 10.0
#: Fight N's writer holds byte LOCKS_AT + N of the database file: far past the bytes SQLite locks (from 1 GiB).
LOCKS_AT = 1 << 40

#: One journal row as written: (kind, at, payload).
Row = tuple[str, int, dict[str, Any]]

_KINDS = ("event", "answer", "command", "dice", "roll", "undo", "branch", "open", "end")
_GAMES_COLUMNS = ("id", "created", "file", "text", "ruleset", "seed", "options", "auto", "max_rounds")
_JOURNAL_COLUMNS = ("id", "game", "kind", "at", "payload")
_GAMES = ("""
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
)""", """
CREATE TRIGGER IF NOT EXISTS games_append_only_u BEFORE UPDATE ON games
    BEGIN SELECT RAISE(ABORT, 'games are append-only'); END""")
_JOURNAL = (f"""
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL CHECK (kind IN ({", ".join(f"'{k}'" for k in _KINDS)})),
    at INTEGER NOT NULL,
    payload TEXT NOT NULL
)""", "CREATE INDEX IF NOT EXISTS journal_game ON journal(game, id)", """
CREATE TRIGGER IF NOT EXISTS journal_append_only_u BEFORE UPDATE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END""", """
CREATE TRIGGER IF NOT EXISTS journal_append_only_d BEFORE DELETE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END""")
_META = ("""
CREATE TABLE IF NOT EXISTS affray (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
)""",)
#: The page's links (``affray.table.seats``): one row a link issued, a seat's link its latest row's.
LINKS = ("""
CREATE TABLE IF NOT EXISTS links (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    digest TEXT NOT NULL,
    sealed TEXT,
    issued TEXT NOT NULL
)""", "CREATE INDEX IF NOT EXISTS links_game ON links(game, seat, id)", """
CREATE TRIGGER IF NOT EXISTS links_append_only_u BEFORE UPDATE ON links
    BEGIN SELECT RAISE(ABORT, 'links are append-only: a new link is a new row'); END""", """
CREATE TRIGGER IF NOT EXISTS links_append_only_d BEFORE DELETE ON links
    BEGIN SELECT RAISE(ABORT, 'links are append-only: a new link is a new row'); END""")
#: The tables of affray's databases, of any format (``sqlite_sequence`` is SQLite's own, for AUTOINCREMENT).
_OURS = frozenset({"games", "journal", "affray", "links", "seats", "sqlite_sequence"})
#: The kinds of row each earlier format's journal held that a fight still folds (format 0's own rows of dice and
#: outcomes are not inputs of today's fights: its fights are rebuilt from their seeds).
_FORMAT_KINDS = {0: ("event", "command", "undo", "end"), 1: ("event", "answer", "command", "dice", "undo", "end")}


class StoreError(AffrayError):
    """A database that cannot be opened, is damaged, or does not hold the game asked for."""


class FightBusyError(StoreError):
    """The fight is being written by another session (one writer per fight)."""


class StoreBusyError(StoreError):
    """A write refused: another program held the database's lock for longer than ``WRITE_WAIT``; nothing of it
    was written."""


class StoreGoneError(StoreError):
    """The database or its write-ahead log was removed or replaced while a fight was written: nothing more is."""


@functools.cache
def affray_version() -> str:
    """The version of affray that writes (as installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("affray")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree never installed
        return "unknown"


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
class Branch:
    """A fight continued under changed rules: the stored fight until then (the journal's rows before ``row``)
    had ``events`` events, of which the first ``at`` are kept; ``payload``: the versions and where they parted."""

    row: int
    at: int
    events: int
    payload: dict[str, Any]


@dataclass
class Journal:
    """The fold of a game's journal: its current events, the inputs that still count, whether it ended; the
    writers' sessions (``opened``: their ``open`` rows) and the branches left by a change of rules."""

    events: list[dict[str, Any]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    ended: bool = False
    opened: list[dict[str, Any]] = field(default_factory=list)
    branches: list[Branch] = field(default_factory=list)
    format: int = FORMAT

    def add(self, kind: str, at: int, payload: dict[str, Any], row: int = 0) -> None:  # noqa: C901
        """Fold one row (``row``: its id); ValueError when it makes no sense (out of order, a payload of the wrong
        shape)."""
        if not isinstance(at, int) or isinstance(at, bool) or at < 0 or not isinstance(payload, dict):
            raise ValueError("not a journal row of affray's (its event number or payload)")
        if self.format in _FORMAT_KINDS and kind not in _FORMAT_KINDS[self.format]:
            return  # a row of an earlier format that today's fights do not take (``_migrate`` leaves it out too)
        if kind == "event":
            if at != len(self.events):
                raise ValueError(f"journal out of order: event {at} after {len(self.events)} events")
            self.events.append(payload)
        elif kind in ("answer", "command", "dice", "roll"):
            self.inputs.append(input_from(kind, at, payload))
        elif kind in ("undo", "branch"):
            if at > len(self.events):
                raise ValueError(f"an {kind} back to {at} events after {len(self.events)} events")
            if kind == "branch":
                self.branches.append(Branch(row, at, len(self.events), payload))
            self.truncate(at)
            if kind == "branch" and "rolls" in payload:  # the dice recorded from there on no longer fit
                rolls = _whole(payload, "rolls")
                self.inputs = [i for i in self.inputs if i.kind != "roll" or i.key is None or i.key[1] < rolls]
        elif kind == "open":
            self.opened.append(payload)
        elif kind == "end":
            self.ended = True
        else:
            raise ValueError(f"unknown kind of row {kind!r}")

    def truncate(self, to: int) -> None:
        """Back to the moment when ``to`` events had happened: later events and their inputs no longer count."""
        del self.events[to:]
        self.inputs = [i for i in self.inputs if still_counts(i, to)]
        self.ended = False

    def written_by(self) -> str:
        """Which affray wrote the fight last, in words."""
        if not self.opened:
            return f"an earlier affray (journal format {min(self.format, 1)}, which kept no version)"
        last = self.opened[-1]
        return f"affray {last.get('affray', '?')}"


def input_row(i: Input) -> Row:
    """A driven fight's input as a journal row: (kind, at, payload)."""
    if i.kind == "answer":
        assert i.key is not None
        payload = {"key": list(i.key), "k": i.k, "value": answer_json(i.value)}
        if i.of is not None:
            payload["of"] = list(i.of)
        return "answer", i.at, payload
    if i.kind == "command":
        return "command", i.at, {"text": i.value, "k": i.k, "upto": i.upto}
    if i.kind == "roll":
        assert i.key is not None
        r: Rolled = i.value
        return "roll", i.at, {"n": i.key[1], "sides": r.sides, "purpose": r.purpose, "actor": r.actor,
                              "face": r.face, "k": i.k}
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
        return Input("answer", at, k, (str(key[0]), int(key[1])), answer_value(payload.get("value")),
                     of=_asked(payload["of"]) if "of" in payload else None)
    if kind == "command":
        if not isinstance(payload.get("text"), str):
            raise ValueError("a command row without its text")
        return Input("command", at, k, value=payload["text"], upto=_whole(payload, "upto") if "upto" in payload
                     else at)
    if kind == "roll":
        n, sides, face = _whole(payload, "n"), _whole(payload, "sides"), _whole(payload, "face")
        purpose, actor = payload.get("purpose"), payload.get("actor")
        if not isinstance(purpose, str) or not (actor is None or isinstance(actor, str)) or not 1 <= face <= sides:
            raise ValueError(f"a die rolled of {face!r} on d{sides} for {purpose!r} ({actor!r})")
        return Input("roll", at, k, ("roll", n), Rolled(sides, purpose, actor, face))
    who, mode = payload.get("who"), payload.get("mode")
    if not isinstance(who, str) or mode not in ("ask", "roll"):
        raise ValueError(f"a dice row of {who!r} and {mode!r}")
    return Input("dice", at, k, value=(who, mode))


def _asked(of: object) -> tuple[Any, ...]:
    """What a journalled answer answered: a declaration's [actor] or a die's [sides, count, purpose, actor]."""
    if isinstance(of, list) and len(of) == 1 and isinstance(of[0], str):
        return (of[0],)
    if (isinstance(of, list) and len(of) == 4 and all(isinstance(x, int) and not isinstance(x, bool) for x in of[:2])
            and isinstance(of[2], str) and (of[3] is None or isinstance(of[3], str))):
        return tuple(of)
    raise ValueError(f"an answer given for {of!r}")


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


# -- one writer per fight: the one place that knows how a fight is locked ------------------------------------------
_OFD_SETLK: int | None = getattr(fcntl, "F_OFD_SETLK", None) if fcntl is not None else None
_FLOCK = struct.Struct("hhqqi4x")  # Linux's struct flock: type, whence, start, len, pid (0 for OFD locks)
#: Descriptors of database files no longer used by a Store, kept open for the life of the process (by the file's
#: device and inode): closing one would drop the POSIX locks SQLite holds on that file in this process.
_PARKED: dict[tuple[int, int], list[int]] = {}


class _Writers:
    """The writers' locks of one database file. Where the system has open file description locks (Linux), one
    byte of the database file per fight: the lock follows the file (its device and inode), whatever name it was
    opened by, and conflicts with any other description of it, in this process or another. Elsewhere, a lock file
    beside the database's real path (``PATH-fightN.lock``, ``flock``), which a deleted lock file defeats."""

    def __init__(self, real: str, ident: tuple[int, int]) -> None:
        self.real = real
        self.ident = ident
        self.held: dict[int, int] = {}  # game -> the descriptor holding it (OFD: the database's own)
        self._fd: int | None = None

    def _file(self) -> int:
        if self._fd is None:
            parked = _PARKED.get(self.ident)
            try:
                self._fd = parked.pop() if parked else os.open(self.real, os.O_RDWR)
            except OSError as exc:
                raise StoreError(f"{self.real}: cannot open the database to hold its fights' locks: "
                                 f"{exc.strerror or exc}") from None
        return self._fd

    def take(self, game: int) -> bool:
        """Fight ``game``'s lock, if free now; StoreError when the system refuses it."""
        if _OFD_SETLK is None:
            return self._take_file(game)
        if not 0 < game < 1 << 60:
            raise StoreError(f"{self.real}: fight {game}: not a fight of affray's database (its number)")
        fd = self._file()
        try:
            fcntl.fcntl(fd, _OFD_SETLK, _FLOCK.pack(fcntl.F_WRLCK, os.SEEK_SET, LOCKS_AT + game, 1, 0))
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES):  # another writer holds it
                return False
            raise StoreError(f"{self.real}: cannot take the lock that keeps fight {game} to one writer: "
                             f"{exc.strerror or exc}") from None
        self.held[game] = fd
        return True

    def _take_file(self, game: int) -> bool:  # pragma: no cover - systems without OFD locks (macOS, Windows)
        """A lock file beside the database, locked with filelock's ``lock_descriptor`` (``flock`` on POSIX,
        ``LockFileEx`` on Windows): one writer still, though a deleted lock file or a second name of the database
        is not seen there."""
        from filelock import lock_descriptor

        path = f"{self.real}-fight{game}.lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
        except OSError as exc:
            raise StoreError(f"{path}: cannot make the lock file that keeps fight {game} to one writer: "
                             f"{exc.strerror or exc}") from None
        if not lock_descriptor(fd, blocking=False):
            os.close(fd)
            return False
        self.held[game] = fd
        return True

    def drop(self, game: int) -> None:
        fd = self.held.pop(game, None)
        if fd is None:
            return
        if _OFD_SETLK is None:  # pragma: no cover - a lock file's descriptor
            os.close(fd)
            return
        fcntl.fcntl(fd, _OFD_SETLK, _FLOCK.pack(fcntl.F_UNLCK, os.SEEK_SET, LOCKS_AT + game, 1, 0))

    def close(self) -> None:
        for game in list(self.held):
            self.drop(game)
        if self._fd is not None:
            _PARKED.setdefault(self.ident, []).append(self._fd)
            self._fd = None


def _create_private(path: str) -> None:
    """A new database made readable and writable by its owner alone (SQLite gives its -wal and -shm the
    database's mode): it holds the fight and the page's links."""
    with contextlib.suppress(OSError):  # there already, or its folder unwritable: SQLite's own words follow
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def loose(path: str | Path) -> str | None:
    """What to say of an existing database that other users of the machine may read or write, or None."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        return None
    if not mode & 0o077:
        return None
    return (f"{path}: warning: other users of this machine may {'write' if mode & 0o022 else 'read'} this database "
            f"(mode {mode:o}): it holds the fight and the page's links; `chmod 600 {path}` keeps it yours")


def _ident(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:  # gone (or out of reach)
        return None
    return st.st_dev, st.st_ino


class Store:
    """An SQLite database of fights. A writer (``write`` True) makes and migrates it, holds fights' locks and
    appends rows, each step's in one transaction; a reader opens it read-only and never writes."""

    def __init__(self, path: str | Path, *, write: bool = True) -> None:  # noqa: C901
        self.path = str(path)
        self.writes = write
        self.broken: str | None = None  # why nothing more is written (the file was taken away)
        p = Path(path)
        if p.exists() and not p.is_file():
            raise StoreError(f"{self.path}: not a file: --db takes the path of an SQLite file (new or affray's)")
        if not write and not p.exists():
            raise StoreError(f"{self.path}: no such database (give --db PATH; `affray play FILE --db PATH` makes one)")
        if p.exists() and os.stat(p).st_nlink > 1:
            raise StoreError(f"{self.path}: this database has {os.stat(p).st_nlink} names (hard links): SQLite keeps "
                             "its write-ahead log beside the name a database is opened by, so a fight written "
                             "through two names is damaged; remove the other names (`find / -samefile "
                             f"{self.path}` lists them) and use one")
        self.real = os.path.realpath(self.path)
        #: Opened as SQLite's ``immutable`` (a reader on a read-only folder or disk); what it may not see, if any.
        self.immutable: str | None = None
        if write:
            _create_private(self.real)
        try:
            self.db = self._connect()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open this file as affray's database: {exc}") from None
        try:
            try:
                self.format = self._open()
            except sqlite3.OperationalError as exc:
                if write or getattr(exc, "sqlite_errorcode", 0) & 0xFF not in (8, 14):  # READONLY, CANTOPEN
                    raise
                self._read_only_media()
                self.format = self._open()
        except sqlite3.Error as exc:
            self.db.close()
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF in (5, 6):  # SQLITE_BUSY, SQLITE_LOCKED
                raise StoreBusyError(f"{self.path}: the database is locked by another program, still after "
                                     f"{WRITE_WAIT:g} s: close that program, then try again") from None
            raise StoreError(f"{self.path}: cannot use this file as affray's database: {exc}") from None
        except BaseException:
            self.db.close()
            raise
        self._files: dict[str, tuple[int, int] | None] = {}
        self._writers: _Writers | None = None
        if write:
            ident = _ident(self.real)
            if ident is None:
                self.db.close()
                raise StoreGoneError(f"{self.path}: the database was removed as it was opened")
            self._files = {"": ident, "-wal": _ident(self.real + "-wal"), "-shm": _ident(self.real + "-shm")}
            self._writers = _Writers(self.real, ident)

    def _connect(self, immutable: bool = False) -> sqlite3.Connection:
        if self.writes:
            return sqlite3.connect(self.real, isolation_level=None, timeout=WRITE_WAIT)
        uri = Path(self.real).as_uri() + ("?immutable=1" if immutable else "?mode=ro")
        return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=WRITE_WAIT)

    def _read_only_media(self) -> None:
        """A reader on a read-only folder or disk (a backup, a share): SQLite cannot make the write-ahead log's
        index beside the database there, so the file is read as ``immutable`` (nobody can write it there either).
        Steps left in a ``-wal`` by a console that was killed are then not seen, and ``immutable`` says so."""
        self.db.close()
        self.db = self._connect(immutable=True)
        wal = Path(self.real + "-wal")
        with contextlib.suppress(OSError):
            if wal.stat().st_size > 0:
                self.immutable = (f"{self.path}: read on a read-only folder: the last steps saved in {wal.name} "
                                  "(left by a console that did not end) cannot be read here; copy the database with "
                                  "its -wal to a folder you can write to, and read it there")

    # -- the journal's format -------------------------------------------------------------------------------
    def _open(self) -> int:
        """Check the file's identity and format (and, for a writer, make or migrate it); the format its journal is
        in."""
        found = self._format()
        if found > FORMAT:
            raise StoreError(f"{self.path}: written by a newer affray (journal format {found}; affray "
                             f"{affray_version()} reads formats 0 to {FORMAT}): upgrade affray to read or play it; "
                             "nothing was changed")
        if not self.writes:
            return found
        if self.db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        if found < FORMAT:
            self._migrate()
        elif self._header() != (FORMAT, APPLICATION_ID):  # a header lost to a dump or a repair: written again
            self.db.execute(f"PRAGMA user_version = {FORMAT}")
            self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        return FORMAT

    def _header(self) -> tuple[int, int]:
        """(user_version, application_id): what the file's header says it is."""
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        (app,) = self.db.execute("PRAGMA application_id").fetchone()
        return int(version), int(app)

    def _format(self) -> int:  # noqa: C901
        """The journal's format, as the file's contents say it (-1: a file without affray's tables yet, which a
        writer makes). The contents decide: the ``affray`` table's ``format`` row, else (formats 0 to 2, which had
        none) the kinds of row the journal's table admits. A header that says another format is refused (never
        read as the format it claims, never migrated), unless it says none (0: lost to a dump or a repair)."""
        version, app = self._header()
        tables = {name: sql for name, sql in self.db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                                                             "AND name NOT LIKE 'sqlite_%'")}
        if app not in (0, APPLICATION_ID):
            raise StoreError(f"{self.path}: not affray's database: its header names another program (SQLite "
                             f"application_id {app:#x}; affray's is {APPLICATION_ID:#x}); nothing was changed: give "
                             "--db the path of a new file or of affray's database")
        if "games" not in tables and "journal" not in tables and "affray" not in tables:
            if version > FORMAT:
                return version
            others = sorted(set(tables) - _OURS)
            if others:
                shown = ", ".join(others[:6]) + (" ..." if len(others) > 6 else "")
                raise StoreError(f"{self.path}: not affray's database: it holds another program's tables ({shown}) "
                                 "and none of affray's; nothing was changed: give --db the path of a new file or of "
                                 "affray's database")
            if version:
                raise StoreError(self._disagree(version, None, "it holds none of affray's tables"))
            return -1  # nothing of affray's yet (a writer makes its tables)
        for name, columns in (("games", _GAMES_COLUMNS), ("journal", _JOURNAL_COLUMNS)):
            found = tuple(r[1] for r in self.db.execute(f"PRAGMA table_info({name})"))
            if found != columns:
                raise StoreError(f"{self.path}: its {name} table is not affray's (columns {', '.join(found) or 'none'}"
                                 f"; affray {affray_version()} knows {', '.join(columns)}): a newer affray's database"
                                 " or another program's; nothing was changed")
        journal = tables.get("journal") or ""
        kinds = 2 if "'roll'" in journal else 1 if "'answer'" in journal else 0
        row = None
        if "affray" in tables:
            with contextlib.suppress(sqlite3.Error):
                row = self.db.execute("SELECT value FROM affray WHERE name = 'format'").fetchone()
            if row is None or not str(row[0]).isdigit():
                raise StoreError(self._disagree(version, None, "its affray table holds no format row that affray "
                                                "can read"))
        contents = int(row[0]) if row is not None else kinds
        if contents > FORMAT:
            return contents
        if contents >= 2 > kinds or (row is None and "links" in tables):
            raise StoreError(self._disagree(version, contents, f"its format row says {contents}, its journal's "
                                            f"table is format {kinds}'s"))
        if version in (0, contents):
            return contents
        if version > FORMAT and row is None:
            return version  # a newer affray's, as far as this one can tell
        raise StoreError(self._disagree(version, contents))

    def _disagree(self, version: int, contents: int | None, why: str = "") -> str:
        """A database whose header and contents disagree, in words, with the way to repair it."""
        said = f"its contents are journal format {contents}'s" if contents is not None else why
        repair = (f"if it was repaired or restored by another program, keep a copy, then set the header back with "
                  f"`sqlite3 {self.path} 'PRAGMA user_version = {contents}'`" if contents is not None else
                  "restore it from a copy, or start a new database")
        return (f"{self.path}: its identity and its contents disagree: its header says journal format {version} "
                f"(SQLite's user_version), {said}{f' ({why})' if why and contents is not None else ''}; affray "
                f"neither reads nor migrates such a file, and nothing was changed: {repair}")

    def _migrate(self) -> None:
        """Make a database of an earlier format today's, in one transaction: its tables made, or its journal table
        rebuilt with today's kinds of row (every row kept as it was, a format-0 journal's own rows of dice and
        outcomes excepted), the page's plain tokens turned into digests and seals (and wiped from the file); then
        the format is FORMAT, in the data and in the header."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")  # a second writer migrating at the same moment waits, then finds it done
        try:
            found = self._format()
            if found == FORMAT:
                db.execute("COMMIT")
                return
            exists = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'journal'").fetchone() is not None
            rebuild = exists and found < 2  # format 2's journal is today's; earlier ones admit other kinds
            if rebuild:
                kinds = ", ".join(f"'{k}'" for k in _FORMAT_KINDS.get(found, _KINDS))
                for sql in ("ALTER TABLE journal RENAME TO journal_old", "DROP TRIGGER IF EXISTS journal_append_only_u",
                            "DROP TRIGGER IF EXISTS journal_append_only_d", "DROP INDEX IF EXISTS journal_game"):
                    db.execute(sql)
            for sql in (*_GAMES, *_JOURNAL, *_META, *LINKS):
                db.execute(sql)
            if rebuild:
                db.execute("INSERT INTO journal (id, game, kind, at, payload) SELECT id, game, kind, at, payload "
                           f"FROM journal_old WHERE kind IN ({kinds}) ORDER BY id")
                db.execute("DROP TABLE journal_old")
            self._seal_seats()
            db.execute("INSERT OR REPLACE INTO affray (name, value) VALUES ('application', 'affray'), "
                       f"('format', '{FORMAT}')")
            db.execute(f"PRAGMA user_version = {FORMAT}")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise
        with contextlib.suppress(sqlite3.Error):  # the wiped tokens' pages out of the write-ahead log too
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _seal_seats(self) -> None:
        """Format 2's ``seats`` (each link's token as it is) into ``links`` (its digest, and the token sealed
        under the user's key, ``affray.table.links``), every row kept with its id; the old table dropped with its
        pages wiped (``secure_delete``). A token that is not one opens nothing, and is left out."""
        db = self.db
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'seats'").fetchone() is None:
            return
        from affray.table.links import digest, link_key, seal

        key = link_key()
        kept = []
        for row, game, seat, token, issued in db.execute("SELECT id, game, seat, token, issued FROM seats ORDER BY id"):
            if isinstance(token, str) and 32 <= len(token) < 100 and isinstance(seat, str):
                kept.append((row, game, seat, digest(token), seal(token, key) if key is not None else None,
                             str(issued)))
        db.executemany("INSERT INTO links (id, game, seat, digest, sealed, issued) VALUES (?, ?, ?, ?, ?, ?)", kept)
        db.execute("PRAGMA secure_delete = ON")
        db.execute("DROP TABLE seats")

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.db.close()
        if self._writers is not None:
            self._writers.close()  # after the connection: the file's descriptor is parked, not closed

    # -- one writer per fight -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def writer(self, game: int, *, wait: float = WRITER_WAIT) -> Iterator[None]:
        """Hold fight ``game`` for writing (``write``) while the block runs; FightBusyError when another
        session holds it still after ``wait`` seconds."""
        writers = self._writing()
        if game not in writers.held:  # (``new_game`` takes the new fight's lock)
            self._acquire(game, wait)
        try:
            yield
        finally:
            writers.drop(game)

    def holds(self, game: int) -> bool:
        return self._writers is not None and game in self._writers.held

    def _writing(self) -> _Writers:
        if self._writers is None:
            raise RuntimeError(f"{self.path}: opened to read: a reader never writes")
        return self._writers

    def _acquire(self, game: int, wait: float) -> None:
        writers = self._writing()
        deadline = time.monotonic() + wait
        while not writers.take(game):
            if time.monotonic() >= deadline:
                by = self._holder(game)
                raise FightBusyError(
                    f"{self.path}: fight {game} is being played in another console{by}, and a fight takes one "
                    f"writer at a time: quit that one first (`affray log --db {self.path} --game {game}` shows "
                    "it meanwhile), or start or resume another fight")
            time.sleep(0.05)

    def _holder(self, game: int) -> str:
        """Who holds fight ``game``, as its last writer's session says: " (process N)", or nothing."""
        with contextlib.suppress(sqlite3.Error, ValueError, TypeError):
            row = self.db.execute("SELECT payload FROM journal WHERE game = ? AND kind = 'open' ORDER BY id DESC "
                                  "LIMIT 1", (game,)).fetchone()
            pid = json.loads(row[0]).get("pid") if row else None
            if isinstance(pid, int):
                return f" (process {pid})"
        return ""

    # -- the file itself ----------------------------------------------------------------------------------
    def _check(self, game: int) -> None:
        """StoreGoneError when the database, its -wal or its -shm is no longer the file this Store writes: what
        was saved is kept first (folded into the database, or copied out of a removed one)."""
        for suffix, known in self._files.items():
            now = _ident(self.real + suffix)
            if known is None:
                self._files[suffix] = now  # made since (SQLite makes its -wal and -shm on first use)
            elif now != known:
                raise StoreGoneError(self._gone(suffix, game, removed=now is None))

    def _gone(self, suffix: str, game: int, *, removed: bool) -> str:
        name = f"{self.real}{suffix}"
        what = "removed" if removed else "replaced by another file"
        head = f"{self.path}: fight {game}: {name} was {what} while the fight was being played"
        if suffix:  # the database is still there: what the lost log held is folded into it from this connection
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                kept = f"everything saved so far is in {self.path}: `affray play --db {self.path} --game {game}` " \
                       "resumes it"
            except sqlite3.Error as exc:
                kept = f"the last steps saved may be lost ({exc}); `affray play --db {self.path}` resumes what is left"
        else:
            kept = self._rescue(game)
        self.broken = f"{head}: nothing more is written; {kept}"
        return self.broken

    def _rescue(self, game: int) -> str:
        """Copy the removed database out of this connection, which still reads it: where to resume."""
        base = Path(self.real)
        for n in range(1, 100):
            for folder in (base.parent, Path.cwd()):
                target = folder / f"{base.name}-rescued{'' if n == 1 else f'-{n}'}.db"
                if target.exists() or not folder.is_dir():
                    continue
                try:
                    _create_private(str(target))
                    out = sqlite3.connect(target)
                    try:
                        self.db.backup(out)
                    finally:
                        out.close()
                except sqlite3.Error as exc:
                    return f"and it could not be copied out ({exc}): its fights are lost"
                return f"everything saved so far was copied to {target}: `affray play --db {target} --game {game}` " \
                       "resumes it"
        return "and there is nowhere to copy it: its fights are lost"

    # -- fights ---------------------------------------------------------------------------------------------
    def _rows(self, what: str, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, args).fetchall()
        except (sqlite3.Error, OverflowError) as exc:
            raise StoreError(f"{self.path}: {what} is damaged: the database cannot be read there ({exc})") from None

    def new_game(self, file: str, text: str, ruleset: str, seed: int, options: dict[str, Any], auto: bool,
                 max_rounds: int) -> Game:
        """A new fight, its writer's lock held already (released by ``writer``'s block or ``close``)."""
        writers = self._writing()
        self._ready(0)
        created = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
        try:
            self.db.execute("BEGIN IMMEDIATE")  # nobody sees the fight before its lock is held
            cur = self.db.execute(
                "INSERT INTO games (created, file, text, ruleset, seed, options, auto, max_rounds) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (created, file, text, ruleset, seed, json.dumps(options, sort_keys=True), int(auto), max_rounds))
            game_id = cur.lastrowid
            assert game_id is not None
            if not writers.take(game_id):
                raise StoreError(f"{self.path}: fight {game_id} is locked before it was made: another program "
                                 "holds its lock")
            self.db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            if isinstance(exc, (sqlite3.Error, OverflowError)):
                raise self._refused(0, exc) from None
            raise
        return self.game(game_id)

    def game_ids(self) -> list[int]:
        if self.format < 0:  # a file without affray's tables, read
            return []
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
            if 0 < game_id < 2**63 and self.format >= 0 else []
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

    def _ready(self, game: int) -> None:
        """Before a write: StoreGoneError once the file was taken away (now or before)."""
        if self.broken is not None:
            raise StoreGoneError(self.broken)
        self._check(game)

    def write(self, game: int, rows: Sequence[Row]) -> None:
        """Rows of fight ``game`` in one transaction, durable before this returns: all of them or none. Only a
        session holding ``writer(game)`` writes (one writer per fight: rows of two sessions never interleave).
        StoreBusyError when another program holds the database's lock past ``WRITE_WAIT``; StoreGoneError when
        the file was taken away (what was saved is kept, and said where)."""
        if not self.holds(game):
            raise RuntimeError(f"fight {game} written without its writer's lock (Store.writer)")
        if not rows:
            return
        self._ready(game)
        try:
            self.db.execute("BEGIN IMMEDIATE")
            for row in rows:
                self._insert(game, row)
            self.db.execute("COMMIT")
        except (sqlite3.Error, OverflowError) as exc:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            self._check(game)  # SQLite refuses to write a file removed under it: say so first
            raise self._refused(game, exc) from None
        self._check(game)  # taken away as it was written: the rows just written are in what is kept

    def _insert(self, game: int, row: Row) -> None:
        kind, at, payload = row
        self.db.execute("INSERT INTO journal (game, kind, at, payload) VALUES (?, ?, ?, ?)",
                        (game, kind, at, json.dumps(payload, ensure_ascii=False)))

    def append(self, game: int, kind: str, at: int, payload: dict[str, Any]) -> None:
        """One journal row, on its own (``write``)."""
        self.write(game, [(kind, at, payload)])

    def _refused(self, game: int, exc: Exception) -> StoreError:
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        fight = f"fight {game}: " if game else ""
        if code in (5, 6):  # SQLITE_BUSY, SQLITE_LOCKED: another program holds the database
            return StoreBusyError(
                f"{self.path}: {fight}the database is locked by another program, still after {WRITE_WAIT:g} s: "
                "nothing of the last step was written (the fight stands where it was last saved); close that "
                "program, then resume")
        return StoreError(f"{self.path}: {fight}cannot save to the database: {exc}; nothing of the last step was "
                          "written (the fight stands where it was last saved)")

    def journal(self, game: int, *, before: int | None = None) -> Journal:
        """The fold of fight ``game``'s rows (``before``: only those before that row, a branch as it was stored);
        StoreError naming the row when one is damaged."""
        j = Journal(format=self.format)
        for row, kind, at, payload in self._rows(f"fight {game}", "SELECT id, kind, at, payload FROM journal "
                                                 "WHERE game = ? AND id < ? ORDER BY id",
                                                 (game, before if before is not None else 2**63 - 1)):
            try:
                j.add(kind, at, json.loads(payload), row)
            except (ValueError, TypeError, RecursionError) as exc:
                raise StoreError(f"{self.path}: fight {game} is damaged: journal row {row} ({kind}) cannot be used "
                                 f"({str(exc)[:200]}); the other fights are not affected") from None
        return j
