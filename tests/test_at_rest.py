"""A saved fight at rest (issue 42): a database that cannot be mistaken for another format (its identity and format
in its data, which a dump keeps), one its owner alone may read, the page's links never in it as they are, and a
database read where nothing may be written (a read-only folder, as on a backup disk).

Every database here is written by ``affray`` itself, then changed as a user's tools change one: SQLite's own shell
(``sqlite3 A .dump | sqlite3 B``, ``.recover``), ``PRAGMA user_version``, ``chmod``. Expectations are the saved fight
(its journal's rows, ``affray log --json``) and ``affray run --json`` of the same file and seed.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from affray.table.links import digest
from affray.web.serve import Opening, close_served, open_served
from cli_run import affray_here
from web_helpers import opening

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "release-cf68679.db"


def cli(*args: str | Path, stdin: str | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    done = affray_here(*args, stdin=stdin, env=env)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def ok(*args: str | Path, stdin: str | None = None) -> str:
    code, out, err = cli(*args, stdin=stdin)
    assert code == 0, out + err
    return out


def log_json(db: Path, *extra: str) -> dict[str, Any]:
    return json.loads(ok("log", "--db", db, "--json", *extra))  # type: ignore[no-any-return]


def rows(db: Path, sql: str = "SELECT id, game, kind, at, payload FROM journal ORDER BY id") -> list[tuple[Any, ...]]:
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def sqlite3_shell() -> str:
    """SQLite's own shell, as a user repairs a database with it (.ci/run installs it; a user's run without it
    skips, saying so)."""
    found = shutil.which("sqlite3")
    if found is None:
        why = "SQLite's shell is not installed (apt-get install sqlite3): repairing a database needs it"
        if os.environ.get("AFFRAY_REQUIRE_SQLITE3") == "1":
            pytest.fail(why)
        pytest.skip(why)
    return found


def repaired(db: Path, to: Path, how: str) -> None:
    """``db`` dumped as SQL and read back into ``to``: ``sqlite3 db .dump | sqlite3 to`` (SQLite's shell), or
    Python's ``iterdump`` (a script's). Neither keeps the header (``user_version``, ``application_id``). (The shell's
    ``.recover`` keeps it, where the shell was built with it: Debian 12's fails on every file.)"""
    if how == "iterdump":
        src, dst = sqlite3.connect(db), sqlite3.connect(to)
        dst.executescript("\n".join(src.iterdump()))
        src.close()
        dst.close()
        return
    shell = sqlite3_shell()
    dumped = subprocess.run([shell, str(db), how], capture_output=True, text=True, timeout=60, check=True).stdout
    subprocess.run([shell, str(to)], input=dumped, capture_output=True, text=True, timeout=60, check=True)


def format_2(db: Path) -> None:
    """A database of today's made as affray 0.2's (journal format 2) kept it: no format row, no links table, the
    header's user_version 2 and no application_id."""
    con = sqlite3.connect(db)
    con.executescript("DROP TABLE affray; DROP TABLE links; PRAGMA user_version = 2; PRAGMA application_id = 0;")
    con.close()


# ------------------------------------------------------------------------------------ a journal that cannot be mistaken

@pytest.mark.parametrize("how", [".dump", "iterdump"])
@pytest.mark.parametrize("written_as", [3, 2])
def test_a_repaired_database_opens_and_resumes_with_everything(tmp_path: Path, how: str, written_as: int) -> None:
    """A database repaired the usual SQLite way comes back without its header (user_version 0, as a journal of the
    first formats had): it is read by what it holds, listed and logged as the original is, and a console resumes it
    with every row kept (each die rolled, each writer's session), to the same end as ``affray run``. Before, it was
    read as format 1 and "migrated": its dice and sessions deleted."""
    db = tmp_path / "fight.db"
    ok("play", SKIRMISH, "--auto", "--db", db, stdin="step 12\nquit\n")
    if written_as == 2:
        format_2(db)
    before = rows(db)
    assert {r[2] for r in before} >= {"roll", "open", "event"}  # roll and open: what format 1 would have deleted
    fixed = tmp_path / "repaired.db"
    repaired(db, fixed, how)
    assert rows(fixed, "PRAGMA user_version") == [(0,)]  # the header is lost: the data says the format
    assert ok("games", "--db", fixed) == ok("games", "--db", db)
    assert log_json(fixed) == log_json(db)
    ok("play", "--db", fixed, stdin="run\nquit\n")
    after = rows(fixed)
    assert after[:len(before)] == before  # every row kept, with its id
    assert log_json(fixed) == json.loads(ok("run", SKIRMISH, "--auto", "--json"))
    assert rows(fixed, "PRAGMA user_version") == [(3,)]
    assert rows(fixed, "SELECT value FROM affray WHERE name = 'format'") == [("3",)]


@pytest.mark.parametrize(("change", "says"), [
    ("PRAGMA user_version = -1", "its header says journal format -1 (SQLite's user_version), its contents are "
                                 "journal format 3's"),
    ("PRAGMA user_version = 1", "its header says journal format 1 (SQLite's user_version), its contents are journal "
                                "format 3's"),
    ("DELETE FROM affray WHERE name = 'format'", "its affray table holds no format row that affray can read"),
    ("PRAGMA application_id = 1234", "not affray's database: its header names another program (SQLite "
                                     "application_id 0x4d2"),
])
def test_a_header_that_disagrees_with_the_contents_is_refused_in_words(tmp_path: Path, change: str, says: str) -> None:
    """A header that says another format than the data (or another program) is refused by every command, readers
    and writers alike, with the way to repair it; nothing is read as the format it claims, and not a byte changes.
    Before, user_version -1 listed no fight (exit 0) and 1 "migrated" the journal, deleting its dice."""
    db = tmp_path / "fight.db"
    ok("play", SKIRMISH, "--auto", "--db", db, stdin="step 5\nquit\n")
    con = sqlite3.connect(db)
    con.execute(change)
    con.commit()
    con.close()
    before = db.read_bytes()
    for command in (("games", "--db", db), ("log", "--db", db), ("play", "--db", db), ("drive", "--db", db)):
        code, out, err = cli(*command, stdin="run\nquit\n")
        assert code == 2 and says in err and "nothing was changed" in err, (command, out + err)
        if "user_version" in change:
            assert f"`sqlite3 {db} 'PRAGMA user_version = 3'`" in err  # the repair, to copy
    assert db.read_bytes() == before


def test_another_programs_database_is_not_written_into(tmp_path: Path) -> None:
    """A database of another program's (its own tables, none of affray's) is refused, not filled with affray's
    tables beside its own. Before, `affray play FILE --db` added them."""
    db = tmp_path / "notes.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    con.commit()
    con.close()
    before = db.read_bytes()
    code, out, err = cli("play", SKIRMISH, "--db", db, stdin="quit\n")
    assert code == 2 and "not affray's database: it holds another program's tables (notes)" in err, out + err
    assert db.read_bytes() == before


def test_the_release_database_is_migrated_with_every_row(tmp_path: Path) -> None:
    """Format 1 (the release's database, tests/fixtures) is still migrated when played on: its rows kept with their
    ids, its header and format row then today's."""
    db = tmp_path / "release.db"
    shutil.copy(FIXTURE, db)
    before = rows(db)
    ok("play", "--db", db, "--game", "1", stdin="quit\n")
    assert rows(db)[:len(before)] == before
    assert rows(db, "PRAGMA user_version") == [(3,)]
    assert rows(db, "PRAGMA application_id") == [(0x41667279,)]


# ------------------------------------------------------------------------------------ secrets at rest

def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_database_is_its_owners_alone_and_a_loose_one_is_said(tmp_path: Path) -> None:
    """A database affray makes is mode 600 whatever the umask (it holds the fight and the page's links); its
    write-ahead log and index take its mode (SQLite's). One that others may read is said, not changed. Before,
    the umask's 644."""
    db = tmp_path / "fight.db"
    console = subprocess.Popen([sys.executable, "-m", "affray", "play", str(SKIRMISH), "--db", str(db), "--dice",
                                "roll"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=lambda: os.umask(0o022))
    assert console.stdin is not None
    console.stdin.write("step\n")
    console.stdin.flush()
    deadline = time.monotonic() + 60
    while not (tmp_path / "fight.db-shm").exists() and time.monotonic() < deadline:  # a step journalled
        time.sleep(0.05)
    assert {p.name: _mode(p) for p in tmp_path.iterdir()} == {"fight.db": 0o600, "fight.db-wal": 0o600,
                                                             "fight.db-shm": 0o600}
    _out, err = console.communicate("quit\n", timeout=60)
    assert console.returncode == 0, err
    os.chmod(db, 0o644)
    code, _out, err = cli("play", "--db", db, stdin="quit\n")
    assert code == 0 and f"{db}: warning: other users of this machine may read this database (mode 644)" in err
    assert f"`chmod 600 {db}`" in err and _mode(db) == 0o644


def _bytes_beside(db: str) -> bytes:
    return b"".join(p.read_bytes() for p in Path(db).parent.iterdir() if p.name.startswith(Path(db).name))


def test_the_links_are_kept_as_digests_and_sealed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No token of the page's links is in the database (nor its log) as it is: its digest and its seal are; serving
    again prints the same links (opened with the user's key). Under another account's key they cannot be opened:
    new links are issued, said so, and the old ones open nothing. Before, each token was in the file in plain."""
    op = opening(tmp_path, "side-d6")
    served = open_served(op)
    tokens = [v.token for v in served.tokens.all()]
    close_served(served)
    kept = _bytes_beside(op.db)
    assert len(tokens) == 5 and not any(t.encode() in kept for t in tokens)
    assert {digest(t) for t in tokens} == {r[0] for r in rows(Path(op.db), "SELECT digest FROM links")}
    served = open_served(Opening(op.db))
    assert [v.token for v in served.tokens.all()] == tokens and served.tokens.note is None
    close_served(served)
    monkeypatch.setenv("AFFRAY_DATA", str(tmp_path / "another-account"))
    served = open_served(Opening(op.db))
    try:
        again = [v.token for v in served.tokens.all()]
        assert not set(again) & set(tokens) and all(served.tokens.find(t) is None for t in tokens)
        assert served.tokens.note is not None and served.tokens.note.startswith(
            "new links for referee, board, Brom, Sela, Ash: the links kept with the fight are sealed under another key")
    finally:
        close_served(served)


def test_a_database_with_plain_tokens_keeps_its_links_and_loses_the_plain_ones(tmp_path: Path) -> None:
    """A database of affray 0.2 (format 2: each link's token in plain in ``seats``) still serves, with the same links
    (the players' phones keep theirs), and from then on the file holds no token in plain: the rows are sealed, the
    old table dropped with its pages wiped. Before, the tokens stayed in the file."""
    op = opening(tmp_path, "side-d6")
    served = open_served(op)
    close_served(served)
    db = Path(op.db)
    format_2(db)
    plain = {"referee": "R" * 32, "board": "B" * 32, "pc:Brom": "b" * 32, "pc:Sela": "s" * 32, "pc:Ash": "a" * 32}
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE seats (id INTEGER PRIMARY KEY AUTOINCREMENT, game INTEGER NOT NULL REFERENCES games(id),
            seat TEXT NOT NULL, token TEXT NOT NULL, issued TEXT NOT NULL);
        CREATE TRIGGER seats_append_only_d BEFORE DELETE ON seats
            BEGIN SELECT RAISE(ABORT, 'seats are append-only: a new token is a new row'); END;""")
    con.executemany("INSERT INTO seats (game, seat, token, issued) VALUES (1, ?, ?, '2026-11-01 20:00:00')",
                    list(plain.items()))
    con.commit()
    con.close()
    assert b"R" * 32 in db.read_bytes()
    served = open_served(Opening(op.db))
    try:
        assert served.tokens.referee.token == plain["referee"] and served.tokens.board is not None
        assert served.tokens.board.token == plain["board"]
        assert {pc: v.token for pc, v in served.tokens.players.items()} == {"Brom": "b" * 32, "Sela": "s" * 32,
                                                                           "Ash": "a" * 32}
    finally:
        close_served(served)
    kept = _bytes_beside(op.db)
    assert not any(t.encode() in kept for t in plain.values())
    assert rows(db, "SELECT name FROM sqlite_master WHERE name = 'seats'") == []


# ------------------------------------------------------------------------------------ a read-only folder

def _read_only(folder: Path, on: bool) -> None:
    """``folder`` made read-only (``on``) or writable again. Root writes anywhere a mode forbids, so as root the folder
    is made immutable (``chattr +i``: nothing is made, removed or renamed in it, by anyone); else ``chmod -w``."""
    if os.geteuid() != 0:
        folder.chmod(0o555 if on else 0o755)
        return
    chattr = shutil.which("chattr")
    assert chattr is not None, "chattr (e2fsprogs) is needed to make a folder read-only for root"
    subprocess.run([chattr, "+i" if on else "-i", str(folder)], check=True, capture_output=True, timeout=30)


def test_games_and_log_read_a_fight_on_a_read_only_folder(tmp_path: Path) -> None:
    """`affray games` and `affray log` read a fight kept on a read-only folder (a backup disk, a share, chmod -w),
    where SQLite cannot make the log's index beside the database: it is read as ``immutable``. Before, "unable to
    open database file" (or "attempt to write a readonly database"), exit 2."""
    folder = tmp_path / "backup"
    folder.mkdir()
    db = folder / "fight.db"
    played = subprocess.run([sys.executable, "-m", "affray", "play", str(SKIRMISH), "--auto", "--db", str(db)],
                            input="step 10\nquit\n", capture_output=True, text=True, timeout=120)
    assert played.returncode == 0 and sorted(p.name for p in folder.iterdir()) == ["fight.db"], played.stderr
    ref = tmp_path / "ref.db"  # what a reader says of the same file where it may write
    shutil.copy(db, ref)
    listing, logged = ok("games", "--db", ref).replace(str(ref), str(db)), ok("log", "--db", ref, "--json")
    before = db.read_bytes()
    _read_only(folder, True)
    try:
        with pytest.raises(OSError):
            (folder / "probe").touch()  # read-only indeed
        for command, expected in ((("games", "--db", db), listing), (("log", "--db", db, "--json"), logged)):
            done = subprocess.run([sys.executable, "-m", "affray", *map(str, command)], capture_output=True, text=True,
                                  timeout=120)
            assert done.returncode == 0 and done.stdout == expected, done.stderr
        assert sorted(p.name for p in folder.iterdir()) == ["fight.db"] and db.read_bytes() == before
    finally:
        _read_only(folder, False)
