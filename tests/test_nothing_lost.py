"""The database keeps every fight whole (issue 31), each finding of the third hostile probe on a real file system:

- kill -9 at random moments, and between two rows of one step, in ``play``, ``drive --db`` and ``serve``: the
  journal is always a fight that rebuilds to exactly its stored events, and the fight finishes as ``affray run``;
- a write refused while another program holds the database's lock: waited for, or refused whole (exit 2, the
  page back at its last step saved), nothing half-written;
- the database, its ``-wal`` or its ``-shm`` removed mid-fight: noticed at the next write (exit 2), and the fight
  recovered from what remains;
- a second writer through a symbolic link, a hard link, or without a lock file to delete: refused;
- a database of a newer format, or with columns affray does not know: refused by readers and writers alike,
  not a byte of it changed.

The fight is ``affray run``'s own (the same file and seed): a fight is a pure function of its inputs.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from affray.cli.app import app
from affray.drive import DicePrefs
from affray.table import FightBusyError, Store, open_drive, open_game, plain_event

AFFRAY = str(Path(sys.executable).parent / "affray")
KILLER = str(Path(__file__).with_name("killer.py"))
ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
FORTY = ROOT / "benchmarks" / "forty.yaml"
runner = CliRunner(env={"COLUMNS": "400"})


def cli(*args: str | Path, stdin: Any = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str | Path, stdin: Any = None) -> str:
    code, out, err = cli(*args, stdin=stdin)
    assert code == 0, out + err
    return out


def log_json(db: Path, *extra: str) -> dict[str, Any]:
    return json.loads(ok("log", "--db", db, "--json", *extra))  # type: ignore[no-any-return]


def run_json(*args: str | Path) -> dict[str, Any]:
    return json.loads(ok("run", *args, "--json"))  # type: ignore[no-any-return]


def count(db: Path, where: str = "1", table: str = "journal") -> int:
    """Rows of ``table`` in ``db`` that match ``where`` (0 before the file or its tables exist), on a connection of
    its own."""
    watch = Watch(db)
    try:
        return watch.count(where, table)
    finally:
        watch.close()


class Watch:
    """Counts of a database's rows while a process writes it, on one connection held open (opening one costs 0.4 ms, a
    look on an open one 0.06 ms: a watch looking every 2 ms spent a sixth of a core opening connections). Closed
    before the database is checked: a kill may leave a commit in the write-ahead log for the next connection to
    recover (``whole``)."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.con: sqlite3.Connection | None = None

    def count(self, where: str, table: str = "journal") -> int:
        if self.con is None:
            if not self.db.exists():
                return 0
            self.con = sqlite3.connect(f"{self.db.as_uri()}?mode=ro", uri=True, timeout=10)
        try:
            return int(self.con.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0])
        except sqlite3.OperationalError:  # no tables yet
            return 0

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None


def whole(db: Path) -> list[dict[str, Any]]:
    """The fight as its journal holds it, checked: rebuilt from its inputs (a fresh replay), it is its stored
    events exactly, no step half-written. Read once: a writer killed inside its commit may leave that commit in
    the write-ahead log for the next connection to find (SQLite's recovery), so two reads may see two whole
    states. (Killed before its fight was made, a database holds none.)"""
    if not count(db, table="games"):
        return []
    store = Store(db, write=False)
    try:
        game = store.game()
        journal = store.journal(game.id)
        drive = open_drive(store, game, open_game(game), journal, DicePrefs())
    finally:
        store.close()
    assert [plain_event(e, i) for i, e in enumerate(drive.fight.events)] == journal.events
    return journal.events


# ------------------------------------------------------------------------------------ the three front ends

FRONT_ENDS = ("play", "drive", "serve")
_STARTED: list[subprocess.Popen[str]] = []


@pytest.fixture(autouse=True)
def _no_process_left() -> Iterator[None]:
    """Whatever a test started is gone when it ends, passed or failed."""
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def start(front: str, db: Path, fight: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``front`` on ``db`` under the killer (tests/killer.py): a new fight of ``fight`` (side-d6, --auto) when the
    database has none yet, else its fight resumed; told to run to the end."""
    new = [str(fight), "--ruleset", "side-d6", "--auto"] if count(db, table="games") == 0 else []
    args = {"play": ["play", *new, "--db", str(db)], "drive": ["drive", *new, "--db", str(db)],
            "serve": ["serve", *new, "--db", str(db), "--port", "0"]}[front]
    stdin = subprocess.DEVNULL  # drive: --auto, dice rolled: it runs to the end, then reads its input's end
    if front == "play":
        commands = db.with_name("commands")
        commands.write_text("run\nquit\n", encoding="ascii")
        stdin = commands.open()  # type: ignore[assignment]
    proc = subprocess.Popen([sys.executable, KILLER, *args], stdin=stdin,
                            stdout=subprocess.PIPE if front == "serve" else subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, **(env or {})))
    _STARTED.append(proc)
    if front == "play":
        stdin.close()  # type: ignore[union-attr]
    if front == "serve":  # its output is the referee's alone (the links)
        threading.Thread(target=_referee, args=(proc, proc.stdout), daemon=True).start()
        proc.stdout = None
    return proc


def _referee(proc: subprocess.Popen[str], out: io.TextIOBase) -> None:
    """The referee's terminal: the server's output read to its end, as a terminal stays open (a closed stdout ends
    affray quietly with 141, which ``finish`` would take for a fault), the page played from its referee's link."""
    for line in out:
        if line.startswith("referee: "):
            threading.Thread(target=_play_page, args=(proc, line.split(" ", 1)[1].strip()), daemon=True).start()


def _play_page(proc: subprocess.Popen[str], url: str) -> None:
    """The page's referee: the players' dice rolled (the page asks them of a fight it serves first), then run."""
    try:
        with httpx.Client(timeout=120) as client:
            for say in ("dice party roll", "run"):
                page = client.get(url)
                key = re.search(r'name="key" value="([^"]+)"', page.text)
                assert key is not None, page.text
                client.post(url.rsplit("/t/", 1)[0] + "/act", data={"token": url.rsplit("/", 1)[1], "key": key[1],
                                                                   "op": "command", "say": say})
    except httpx.HTTPError:  # the server was killed under it
        return
    proc.terminate()  # the fight is over: stop serving (SIGTERM: uvicorn's own shutdown)


def finish(front: str, db: Path, fight: Path) -> None:
    proc = start(front, db, fight)
    _out, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, -15), err


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_a_kill_between_any_two_rows_of_a_step_loses_nothing(tmp_path: Path, front: str) -> None:
    """Twelve processes in turn, each killed just before its k-th journal row, k = 2, 3, 5, 8, 13, 21, ... (its
    first row is its session's ``open``): inside a step's transaction, between two of its rows, or before its
    first. After each kill the journal rebuilds to exactly its stored events; then a process left alone ends the
    fight as ``affray run`` does. Some of the kills must have fallen between two rows of one transaction."""
    db, note = tmp_path / "fight.db", tmp_path / "note"
    inside = 0
    for k in (2, 3, 5, 8, 13, 21, 2, 3, 5, 8, 13, 21):
        proc = start(front, db, SKIRMISH, {"KILL_AT_ROW": str(k), "KILL_NOTE": str(note)})
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode == -9, err
        row, size = map(int, note.read_text().split())
        inside += 1 < row <= size
        whole(db)
    assert inside >= 3 and not count(db, "kind = 'end'")
    finish(front, db, SKIRMISH)
    assert log_json(db) == run_json(SKIRMISH, "--ruleset", "side-d6", "--auto")


def long_forty(tmp_path: Path) -> Path:
    """benchmarks/forty.yaml with every hit point doubled: 40 combatants, a fight of 699 events under side-d6 with
    --auto (349 as it stands), so that 30 kills, and whatever a busy machine lets a process run on past its
    target before the kill lands, fall well inside it."""
    text = FORTY.read_text(encoding="utf-8")
    for hp in (20, 12, 8):
        text = text.replace(f"hp: {hp},", f"hp: {2 * hp},")
    path = tmp_path / "forty.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_a_kill_at_30_random_moments_loses_nothing(tmp_path: Path, front: str) -> None:
    """40 combatants (``long_forty``) under side-d6, killed 30 times, resumed each time: one kill in five at a random
    moment of the process's start (loading, rebuilding, opening its session: before its session's first row is
    seen), the others once a random number of new events (1 to 6) is in the journal, wherever the process then is
    (rolling, writing, showing, serving). The journal is always whole, and the fight ends as ``affray run`` does.
    The watch keeps one connection open while a process runs (``Watch``): on two cores kept busy by three other
    processes each kill landed 0 to 5 events past its target. (The process at the lowest priority instead took 16
    minutes there, waiting on the CPU, where this takes 74 s.)"""
    db, fight = tmp_path / "fight.db", long_forty(tmp_path)
    rng = random.Random(31)
    past: list[int] = []  # how far past its target each process ran before its kill landed
    for n in range(30):
        before, opened = count(db, "kind = 'event'"), count(db, "kind = 'open'")
        proc, watch = start(front, db, fight), Watch(db)
        if n % 5 == 0:
            deadline = time.monotonic() + rng.uniform(0.05, 0.6)
            while time.monotonic() < deadline and watch.count("kind = 'open'") == opened and proc.poll() is None:
                time.sleep(0.005)
        else:
            # the targets add up to 79 events of the fight's 699; a process that runs on past its target (0 to 5
            # events on a busy machine: ``past``) still leaves most of it
            target, deadline = before + rng.randint(1, 6), time.monotonic() + 120
            while watch.count("kind = 'event'") < target and proc.poll() is None:
                assert time.monotonic() < deadline
                time.sleep(0.002)
        proc.kill()
        watch.close()
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode in (-9, 0, -15), (n, err)
        events = len(whole(db))
        if n % 5:
            past.append(events - target)
    assert not count(db, "kind = 'end'"), f"the fight ended before its 30 kills: kill sooner (events past: {past})"
    finish(front, db, fight)
    assert log_json(db) == run_json(fight, "--ruleset", "side-d6", "--auto")


# ------------------------------------------------------------------------------------ a write refused

def plain(tmp_path: Path, name: str = "fight.db") -> tuple[Path, dict[str, Any]]:
    """A database for the skirmish under side-d6, --auto, and ``affray run``'s timeline of it."""
    return tmp_path / name, run_json(SKIRMISH, "--ruleset", "side-d6", "--auto")


@contextmanager
def locked(db: Path, at_write: int, monkeypatch: pytest.MonkeyPatch, wait: float = 0.3) -> Iterator[list[int]]:
    """Another program takes the database's write lock (an open write transaction of its own) just before this
    process's ``at_write``-th write, and holds it until the block ends; affray waits ``wait`` seconds for it.
    Yields [journal rows when it took the lock] once it did."""
    import affray.table.store as store

    monkeypatch.setattr(store, "WRITE_WAIT", wait)
    other = sqlite3.connect(db, isolation_level=None, timeout=30, check_same_thread=False)
    took: list[int] = []
    writes = [0]
    write = store.Store.write

    def taking(self: Store, game: int, rows: Any) -> None:
        writes[0] += 1
        if writes[0] == at_write:
            took.append(count(db))
            other.execute("BEGIN IMMEDIATE")
        write(self, game, rows)

    monkeypatch.setattr(store.Store, "write", taking)
    try:
        yield took
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()
        monkeypatch.setattr(store.Store, "write", write)


def test_a_write_held_up_by_another_program_is_waited_for(tmp_path: Path) -> None:
    """Another program holds the database's lock for 0.6 s as a resumed fight opens: its first write waits (SQLite's
    own retries, up to WRITE_WAIT), then goes through, and the fight ends as `affray run` does."""
    db, ran = plain(tmp_path)
    ok("play", SKIRMISH, "--ruleset", "side-d6", "--auto", "--db", db, stdin="step 5\nquit\n")
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    threading.Timer(0.6, lambda: other.execute("ROLLBACK")).start()
    began = time.monotonic()
    ok("play", "--db", db, stdin="run\nquit\n")
    assert time.monotonic() - began >= 0.5
    other.close()
    assert log_json(db) == ran


@pytest.mark.parametrize("front", ["play", "drive"])
def test_a_write_refused_stops_the_fight_with_nothing_half_written(
        tmp_path: Path, front: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lock held past WRITE_WAIT as the fight's 6th write comes (a step's dice and events): exit 2, saying so;
    the journal is as it was before that write, whole; resumed once the lock is let go, the fight ends as `affray
    run` does."""
    db, ran = plain(tmp_path)
    with locked(db, 6, monkeypatch) as took:
        code, out, err = cli(front, SKIRMISH, "--ruleset", "side-d6", "--auto", "--db", db, stdin="run\nquit\n")
    assert code == 2, out + err
    assert "the database is locked by another program, still after 0.3 s: nothing of the last step was written" in err
    assert took and count(db) == took[0]
    whole(db)
    ok("play", "--db", db, stdin="run\nquit\n")
    assert log_json(db) == ran


def test_a_write_refused_on_the_page_goes_back_to_the_last_step_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the page the refused step is not saved and not shown: the referee's screen is told, the fight is back
    at its last step saved, and once the lock is let go the same form goes through; the fight ends as `affray
    run` does."""
    from fastapi.testclient import TestClient

    import affray.table.store as store
    from affray.api import prepare
    from affray.io.load import load_text
    from affray.web.app import make_app
    from affray.web.security import BodyLimit
    from affray.web.serve import Opening, close_served, open_served

    db, ran = plain(tmp_path)
    monkeypatch.setattr(store, "WRITE_WAIT", 0.3)  # before the page's database is opened: its connection's wait
    text = SKIRMISH.read_text(encoding="utf-8")
    prepared = prepare(load_text(text, str(SKIRMISH)), ruleset="side-d6")
    served = open_served(Opening(str(db), (str(SKIRMISH), text, "side-d6", prepared.seed, {}, True, 50)))
    url = f"/t/{served.tokens.referee.token}"
    try:
        with TestClient(BodyLimit(make_app(served)), base_url="http://127.0.0.1:8000") as client:
            def say(line: str) -> str:
                key = re.search(r'name="key" value="([^"]+)"', client.get(url).text)
                assert key is not None
                return client.post("/act", data={"token": served.tokens.referee.token, "key": key[1],
                                                  "op": "command", "say": line}).text

            say("dice party roll")
            say("step 3")
            saved = count(db, "kind = 'event'")
            with locked(db, 1, monkeypatch):
                page = say("step 3")
            assert "the database is locked by another program" in page and "back at the last step saved" in page
            assert count(db, "kind = 'event'") == saved == len(served.table.session.fight.events)
            say("step 3")
            assert count(db, "kind = 'event'") > saved
            say("run")
    finally:
        close_served(served)
    whole(db)
    assert log_json(db) == ran


def test_the_database_taken_away_stops_the_page_saying_where_the_fight_is(tmp_path: Path) -> None:
    """The database removed under the page: the next form stops the fight, and that form and every later one are
    answered with what happened and where everything saved so far was copied; the copy resumes and ends as
    `affray run` does."""
    from fastapi.testclient import TestClient

    from affray.api import prepare
    from affray.io.load import load_text
    from affray.web.app import make_app
    from affray.web.security import BodyLimit
    from affray.web.serve import Opening, close_served, open_served

    db, ran = plain(tmp_path)
    text = SKIRMISH.read_text(encoding="utf-8")
    prepared = prepare(load_text(text, str(SKIRMISH)), ruleset="side-d6")
    served = open_served(Opening(str(db), (str(SKIRMISH), text, "side-d6", prepared.seed, {}, True, 50)))
    url, token = f"/t/{served.tokens.referee.token}", served.tokens.referee.token
    rescued = tmp_path / "fight.db-rescued.db"
    try:
        with TestClient(BodyLimit(make_app(served)), base_url="http://127.0.0.1:8000") as client:
            def say(line: str) -> str:
                key = re.search(r'name="key" value="([^"]+)"', client.get(url).text)
                assert key is not None
                return client.post("/act", data={"token": token, "key": key[1], "op": "command", "say": line}).text

            say("dice party roll")
            say("step 3")
            db.unlink()
            for line in ("step 3", "run"):
                page = say(line)
                assert "the fight stopped" in page and "was removed while the fight was being played" in page
                assert f"copied to {rescued}" in page
    finally:
        close_served(served)
    assert not db.exists()
    ok("play", "--db", rescued, stdin="run\nquit\n")
    assert log_json(rescued) == ran


# ------------------------------------------------------------------------------ the files taken away

def console(db: Path, *args: str | Path) -> subprocess.Popen[str]:
    """A console in its own process on ``db``, waiting for lines on its stdin once its session is open."""
    child = subprocess.Popen([AFFRAY, "play", *map(str, args), "--db", str(db)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _STARTED.append(child)
    deadline = time.monotonic() + 60
    while count(db, "kind = 'open'") == 0:
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return child


def played(child: subprocess.Popen[str], db: Path, events: int) -> None:
    """Let the console step until ``events`` events (or more) are in the journal, and wait at its prompt."""
    assert child.stdin is not None
    deadline = time.monotonic() + 60
    while (seen := count(db, "kind = 'event'")) < events:
        child.stdin.write("step\n")
        child.stdin.flush()
        while count(db, "kind = 'event'") == seen:
            assert time.monotonic() < deadline
            time.sleep(0.01)


@pytest.mark.parametrize("gone", ["", "-wal", "-shm", "replaced"])
def test_the_database_or_its_log_taken_away_mid_fight_is_noticed_and_the_fight_recovered(
        tmp_path: Path, gone: str) -> None:
    """Mid-fight, the database file is removed (or replaced by another database), or its -wal or -shm is: the
    console's next write notices (exit 2, saying what happened and where the fight is); nothing more is written
    there; the fight resumes from what remains (the database removed or replaced: a copy rescued from the
    console's own connection beside it) and ends as `affray run` does."""
    db, ran = plain(tmp_path)
    child = console(db, SKIRMISH, "--ruleset", "side-d6", "--auto")
    played(child, db, 20)
    time.sleep(0.2)  # the console is waiting at its prompt again
    other = tmp_path / "other.db"
    if gone == "replaced":
        sqlite3.connect(other).execute("CREATE TABLE t (x)")
        theirs = other.read_bytes()
        os.replace(other, db)
    else:
        os.unlink(f"{db}{gone}")
    _out, err = child.communicate("step 5\nrun\nquit\n", timeout=60)
    assert child.returncode == 2, err
    name = f"{db}{'' if gone == 'replaced' else gone}"
    assert f"fight 1: {name} was {'replaced by another file' if gone == 'replaced' else 'removed'} while the fight " \
           "was being played: nothing more is written; " in err, err
    if gone in ("", "replaced"):
        rescued = tmp_path / "fight.db-rescued.db"
        assert f"everything saved so far was copied to {rescued}: `affray play --db {rescued} --game 1` resumes " \
               "it" in err
        if gone == "replaced":
            assert db.read_bytes() == theirs  # the other file is not written
        db = rescued
    else:
        assert f"everything saved so far is in {db}" in err
    assert len(whole(db)) >= 20
    ok("play", "--db", db, stdin="run\nquit\n")
    assert log_json(db) == ran


# ------------------------------------------------------------------------------------ one writer per fight

def test_a_second_writer_through_a_symlink_or_a_hard_link_is_refused(tmp_path: Path) -> None:
    """A console holds fight 1 through the database's own name: a second console, affray drive and the page through
    a symbolic link to it are refused (exit 2, naming the first console's process), and so are two Stores of one
    process; no lock file beside the database could be deleted to let one in (there is none). A second name of
    the file (a hard link) is refused to readers and writers alike: SQLite would keep a second write-ahead log
    beside it."""
    db, ran = plain(tmp_path)
    link = tmp_path / "link.db"
    link.symlink_to(db)
    first = console(db, SKIRMISH, "--ruleset", "side-d6", "--auto")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.db", "fight.db-shm", "fight.db-wal", "link.db"]
    busy = f"{link}: fight 1 is being played in another console (process {first.pid})"
    for command in (("play", "--db", link), ("drive", "--db", link), ("serve", "--db", link, "--port", "0")):
        code, out, err = cli(*command, stdin="run\nquit\n")
        assert code == 2 and err.startswith(busy), out + err
    one, two = Store(db), Store(link)
    with pytest.raises(FightBusyError, match="fight 1 is being played in another console"), two.writer(1, wait=0.1):
        pass  # pragma: no cover - refused
    one.close()
    two.close()
    out, err = first.communicate("run\nquit\n", timeout=60)
    assert first.returncode == 0, err
    assert log_json(link) == ran
    hard = tmp_path / "hard.db"
    os.link(db, hard)
    before = db.read_bytes()
    for command in (("play", "--db", hard), ("play", "--db", db), ("games", "--db", db), ("log", "--db", hard)):
        code, out, err = cli(*command, stdin="quit\n")
        assert code == 2 and "this database has 2 names (hard links)" in err, out + err
    assert db.read_bytes() == before


# ------------------------------------------------------------------------------------ a newer affray's file

@pytest.mark.parametrize(("change", "message"), [
    ("PRAGMA user_version = 4", "written by a newer affray (journal format 4; affray "),
    ("ALTER TABLE journal ADD COLUMN branch_of INTEGER", "its journal table is not affray's (columns id, game, kind, "
                                                         "at, payload, branch_of"),
    ("ALTER TABLE games ADD COLUMN party TEXT", "its games table is not affray's"),
])
@pytest.mark.parametrize("format_", [1, 3])
def test_a_database_of_a_newer_affray_is_refused_not_rewritten(
        tmp_path: Path, change: str, message: str, format_: int) -> None:
    """A database whose format or columns affray does not know (a newer affray's): every command refuses it (exit
    2, nothing was changed), readers and writers alike, and not a byte of the file changes. Format 1 is the
    release's database (tests/fixtures), format 3 today's (whose format is said in its data too: a newer affray
    says its own there)."""
    db = tmp_path / "fight.db"
    if format_ == 1:
        shutil.copy(Path(__file__).parent / "fixtures" / "release-cf68679.db", db)
    else:
        ok("play", SKIRMISH, "--auto", "--db", db, stdin="step 5\nquit\n")
    con = sqlite3.connect(db)
    con.execute(change)
    if format_ == 3 and "user_version" in change:
        con.execute("UPDATE affray SET value = '4' WHERE name = 'format'")
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    before = db.read_bytes()
    for command in (("games", "--db", db), ("log", "--db", db), ("play", "--db", db), ("drive", "--db", db),
                    ("play", SKIRMISH, "--db", db)):
        code, out, err = cli(*command, stdin="run\nquit\n")
        assert code == 2 and message in err and err.rstrip().endswith("nothing was changed"), out + err
    assert db.read_bytes() == before
