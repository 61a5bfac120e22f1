"""Shared and damaged databases (issue 18): one writer per fight, any number of fights played at once, and a
damaged fight refused on its own (exit 2 naming the file, the fight and the row) while the others stay open.

Where processes matter (two consoles, kill -9) the consoles are real subprocesses; the rest runs the command
line in this process. Expected timelines are ``affray run --json`` of the same file and seed (a fight is a pure
function of its inputs).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from affray.cli.app import app
from affray.table import FightBusyError, Store

AFFRAY = str(Path(sys.executable).parent / "affray")
ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
runner = CliRunner(env={"COLUMNS": "400"})


def cli(*args: str | Path, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.output


def run_json(*args: str) -> dict[str, Any]:
    code, out = cli("run", SKIRMISH, *args, "--json")
    assert code == 0, out
    return json.loads(out)


def log_json(db: Path, game: int) -> dict[str, Any]:
    code, out = cli("log", "--db", db, "--game", str(game), "--json")
    assert code == 0, out
    return json.loads(out)


def opened_by(db: Path, game: int = 1) -> int | None:
    """The process of the fight's last writer's session (its ``open`` row), if any yet."""
    if not db.exists():
        return None
    try:
        con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            row = con.execute("SELECT payload FROM journal WHERE game = ? AND kind = 'open' ORDER BY id DESC LIMIT 1",
                              (game,)).fetchone()
        finally:
            con.close()
    except sqlite3.OperationalError:  # the tables are not there yet
        return None
    return int(json.loads(row[0])["pid"]) if row else None


def console(db: Path, *args: str | Path) -> subprocess.Popen[str]:
    """A console in its own process, waiting for commands on its stdin, once it holds its fight's lock (its
    session is opened in the journal once it does)."""
    child = subprocess.Popen([AFFRAY, "play", *map(str, args), "--db", str(db)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while opened_by(db) != child.pid:
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the console never took its fight's lock"
        time.sleep(0.05)
    return child


def finish(child: subprocess.Popen[str], commands: str) -> str:
    out, err = child.communicate(commands, timeout=120)
    assert child.returncode == 0, err
    return out


# ---------------------------------------------------------------------------------- one writer per fight

def test_a_second_console_on_the_same_fight_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    first = console(db, SKIRMISH, "--auto")
    for args in ((), ("--game", "1")):  # the latest fight, and the same fight named
        done = subprocess.run([AFFRAY, "play", "--db", str(db), *args], input="run\nquit\n", capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"{db}: fight 1 is being played in another console (process {first.pid}), "
                                      "and a fight takes one writer at a time")
    finish(first, "run\nquit\n")
    assert log_json(db, 1) == run_json("--auto")
    con = sqlite3.connect(db)
    kinds = [k for (k,) in con.execute("SELECT kind FROM journal WHERE kind != 'roll' ORDER BY id")]
    con.close()
    events = len(run_json("--auto")["events"])
    assert kinds == ["open"] + ["event"] * events + ["end"]  # the refused consoles wrote no row: nothing interleaved


def test_two_fights_of_one_database_are_played_at_once(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    first = console(db, SKIRMISH, "--auto")
    done = subprocess.run([AFFRAY, "play", str(SKIRMISH), "--ruleset", "phase-count", "--auto", "--db", str(db)],
                          input="run\nquit\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    finish(first, "step 5\nrun\nquit\n")
    assert log_json(db, 1) == run_json("--auto")
    assert log_json(db, 2) == run_json("--ruleset", "phase-count", "--auto")


def test_a_console_killed_with_sigkill_leaves_its_fight_free(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    first = console(db, SKIRMISH, "--auto")
    first.stdin.write("step 5\n")  # type: ignore[union-attr]
    first.stdin.flush()  # type: ignore[union-attr]
    time.sleep(0.5)
    first.kill()
    first.wait(timeout=30)
    done = subprocess.run([AFFRAY, "play", "--db", str(db)], input="run\nquit\n", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert log_json(db, 1) == run_json("--auto")


def test_a_second_writer_waits_for_the_first_then_writes(tmp_path: Path) -> None:
    """In one process too: the lock is the open lock file's, not the process's."""
    one, two = Store(tmp_path / "f.db"), Store(tmp_path / "f.db")
    game = one.new_game("f.yaml", "", "side-d6", 1, {}, False, 50)  # holds fight 1 from the start
    with pytest.raises(FightBusyError, match="fight 1 is being played in another console"), \
            two.writer(game.id, wait=0.2):
        pass  # pragma: no cover - refused
    with pytest.raises(RuntimeError, match="without its writer's lock"):
        two.append(game.id, "end", 0, {})
    def first_writer() -> None:
        with one.writer(game.id):  # the lock new_game took, held 0.3 s more, then let go
            time.sleep(0.3)

    threading.Thread(target=first_writer).start()
    start = time.monotonic()
    with two.writer(game.id, wait=30):
        assert time.monotonic() - start >= 0.2  # it waited for the first to let go
        two.append(game.id, "end", 0, {})
    assert two.journal(game.id).ended
    one.close()
    two.close()


# ------------------------------------------------------------------------------------- damaged databases

def two_fights(tmp_path: Path) -> Path:
    """Fight 1 under combat2-phase1 (30 steps: 40 events), fight 2 under side-d6 (to the end); WAL folded in."""
    db = tmp_path / "fight.db"
    code, out = cli("play", SKIRMISH, "--ruleset", "combat2-phase1", "--auto", "--db", db, stdin="step 30\nquit\n")
    assert code == 0, out
    code, out = cli("play", SKIRMISH, "--auto", "--db", db, stdin="run\nquit\n")
    assert code == 0, out
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return db


def tamper(db: Path, sql: str) -> None:
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER IF EXISTS journal_append_only_u")
    con.execute("DROP TRIGGER IF EXISTS games_append_only_u")
    con.execute(sql)
    con.commit()
    con.close()


def the_other_fight_is_open(db: Path, listed_damaged: bool = True) -> None:
    assert log_json(db, 2) == run_json("--auto")
    code, out = cli("play", "--db", db, "--game", "2", stdin="quit\n")
    assert code == 0, out
    code, out = cli("games", "--db", db)
    if not listed_damaged:  # a damage only a replay finds: `games` reads the rows, it does not replay fights
        assert code == 0 and out.splitlines()[0].startswith("1  "), out
        return
    assert code == 2  # a damaged fight is marked, and the listing says so on exit
    lines = out.splitlines()
    assert lines[0].startswith("1  damaged: fight 1 is damaged")
    assert lines[1].startswith("2  ") and "side-d6" in lines[1] and lines[1].endswith("over")


THIRD_EVENT = "(SELECT id FROM journal WHERE game = 1 AND kind = 'event' ORDER BY id LIMIT 1 OFFSET 2)"


@pytest.mark.parametrize(("sql", "message"), [
    (f"UPDATE journal SET payload = '{{not json' WHERE id = {THIRD_EVENT}", "(event) cannot be used (Expecting"),
    (f"UPDATE journal SET at = 7 WHERE id = {THIRD_EVENT}", "(event) cannot be used (journal out of order: event 7 "
                                                            "after 2 events)"),
    ("INSERT INTO journal (game, kind, at, payload) VALUES (1, 'event', 3, '{}')",
     "(event) cannot be used (journal out of order: event 3 after 40 events)"),
    ("UPDATE journal SET payload = '[1, 2]' WHERE id = 1", "journal row 1 (open) cannot be used (not a journal row"),
    ("INSERT INTO journal (game, kind, at, payload) VALUES (1, 'answer', 0, '{\"key\": [\"die\", 0], \"k\": 0, "
     "\"value\": \"six\"}')", "(answer) cannot be used (a die's answer of 'six')"),
    # the fight's first die is the party's surprise d10 (C2-27): a 11 cannot be rolled on it; the rebuild stops
    # there, before the first event, and the fight is shown as one this affray plays otherwise (nothing refused)
    ("INSERT INTO journal (game, kind, at, payload) VALUES (1, 'answer', 0, '{\"key\": [\"die\", 0], \"k\": 0, "
     "\"value\": 11}')", "plays it differently from event 0 on (of 40 saved):\n  saved: 0 surprise"),
    ("UPDATE games SET options = '{oops' WHERE id = 1", "its row in the database cannot be read"),
    ("INSERT INTO journal (game, kind, at, payload) VALUES (1, 'answer', 30, '{\"key\": [\"die\", 9], \"k\": 0, "
     "\"value\": {\"outcome\": {\"hit\": true, \"damage\": 100000}}}')",
     "(an outcome of 100000 damage: from 0 to 10000)"),
])
def test_a_damaged_row_exits_2_naming_the_file_and_fight_and_the_others_stay_open(
        tmp_path: Path, sql: str, message: str) -> None:
    db = two_fights(tmp_path)
    tamper(db, sql)
    for command in (("log", "--db", db, "--game", "1"), ("play", "--db", db, "--game", "1")):
        code, out = cli(*command, stdin="run\nquit\n")
        assert code == 2, out
        head = "was saved by affray" if "differently" in message else "is damaged"
        assert out.startswith(f"{db}: fight 1 {head}") and message in out, out
        if "differently" in message:
            assert "now:   the fight cannot be rebuilt past it: the recorded answer 11 cannot be rolled on d10 " \
                   "(1-10)" in out, out
    the_other_fight_is_open(db, listed_damaged="differently" not in message)


def test_a_malformed_page_exits_2_and_the_other_fight_stays_open(tmp_path: Path) -> None:
    db = two_fights(tmp_path)
    raw = bytearray(db.read_bytes())
    size = 4096
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA page_size").fetchone() == (size,)
    con.close()
    # a page of fight 1's events alone: combatant-II's half-segments, and none of side-d6's steps
    pages = [k for k in range(2, len(raw) // size) if b"half-segment" in raw[k * size:(k + 1) * size]
             and b"(melee)" not in raw[k * size:(k + 1) * size] and raw[k * size] == 0x0D]
    assert pages, "no page holds fight 1's events alone"
    page = pages[0]
    raw[page * size:page * size + 8] = b"\xff" * 8  # no longer a b-tree page
    db.write_bytes(bytes(raw))
    code, out = cli("log", "--db", db, "--game", "1")
    assert code == 2, out
    assert out.startswith(f"{db}: fight 1") and "database disk image is malformed" in out, out
    the_other_fight_is_open(db)


def test_a_file_that_is_no_database_exits_2(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    db.write_bytes(b"not sqlite at all" * 100)
    code, out = cli("games", "--db", db)
    assert code == 2 and out.startswith(f"{db}: cannot use this file as affray's database"), out
    code, out = cli("play", "--db", tmp_path)
    assert code == 2 and out.startswith(f"{tmp_path}: not a file: --db takes the path of an SQLite file"), out
