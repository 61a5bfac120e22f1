"""A saved fight opens in every later version (issue 31): every die in the journal, a database written by an
earlier release, and a fight whose rules changed after it was saved.

The rules change here in a test ruleset registered by these tests alone (``test-changing``: side-d6 under another
id): the fight is saved under one class of it and reopened under another, as a fight saved before an upgrade is
reopened after it. The commands run in this process (typer's runner), so the test ruleset is known to them.
Expectations are the saved fight itself (its events, as stored) and ``affray run --json`` of the same file and
seed: a fight is a pure function of its inputs.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from affray.cli.app import app
from affray.engine.rules import Rule
from affray.rulesets.side_d6 import SideD6

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "release-cf68679.db"
runner = CliRunner(env={"COLUMNS": "400"})


def cli(*args: str | Path, stdin: str | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one command run here."""
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str | Path, stdin: str | None = None) -> str:
    code, out, err = cli(*args, stdin=stdin)
    assert code == 0, out + err
    return out


def log_json(db: Path, *extra: str) -> dict[str, Any]:
    return json.loads(ok("log", "--db", db, "--json", *extra))  # type: ignore[no-any-return]


def copy(db: Path, to: Path) -> None:
    """A copy of a database in use (its write-ahead log with it): SQLite's backup."""
    src, dst = sqlite3.connect(db), sqlite3.connect(to)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


def rows(db: Path, sql: str = "SELECT kind, at, payload FROM journal ORDER BY id") -> list[tuple[Any, ...]]:
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


# ------------------------------------------------------------------------- a ruleset whose rules change

class AsSaved(SideD6):
    """side-d6 as the fight was saved."""

    id = "test-changing"
    title = "side-d6, as a fight was saved (a test ruleset)"


class Blessing(Rule):
    """The rule changed: +4 to hit from round 2 on."""

    def mods(self, fight: Any, step: Any, target: Any, mods: Any) -> None:
        if step.tick[0] >= 2:
            mods.add("hit", 4, "a blessing from round 2")


class Blessed(AsSaved):
    """side-d6 after an upgrade that gives every attack from round 2 on +4 to hit."""

    def rules(self) -> list[Rule]:
        return [*super().rules(), Blessing()]


class OtherRng(AsSaved):
    """side-d6 after an upgrade whose dice come from the RNG otherwise (as a new Python's generator would, or a
    roll added or moved anywhere): every rule the same, the RNG's draws not."""

    def begin(self, fight: Any, rnd: int) -> None:
        if rnd == 1:
            fight.roller._random = random.Random(fight.seed + 1).random
        super().begin(fight, rnd)


@pytest.fixture
def changing(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """``test-changing`` registered (as saved) as an installed package's ruleset would be; set ``.Changing`` to
    another class to change its rules (each lookup reads it again, as a new process after an upgrade would)."""
    from affray.extensions import Entry, entries

    module = types.ModuleType("affray_test_changing")
    module.Changing = AsSaved  # type: ignore[attr-defined]

    class Upgraded(Entry):
        def load(self) -> Any:
            return module.Changing  # type: ignore[attr-defined]

    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(entries("ruleset"), "test-changing",
                        Upgraded("ruleset", "test-changing", "affray_test_changing:Changing", "test-changing", "1.0"))
    yield module


def saved(tmp_path: Path, stdin: str = "run\nquit\n") -> Path:
    db = tmp_path / "fight.db"
    ok("play", SKIRMISH, "--ruleset", "test-changing", "--auto", "--db", db, stdin=stdin)
    return db


# ------------------------------------------------------------------------------------ every die in the journal

def test_every_die_rolled_is_a_row_of_the_journal(tmp_path: Path) -> None:
    """A fight rolled from its seed (piped, --auto, side-d6): the journal's roll rows are, one for one and in order,
    the dice its events show as rolled from the seed (each die of a throw on its own: "d6", not "2d6")."""
    db = tmp_path / "fight.db"
    ok("play", SKIRMISH, "--auto", "--db", db, stdin="run\nquit\n")
    shown = [(int(d["die"][1:]), d["purpose"], d["actor"], d["value"]) for e in log_json(db)["events"]
             for d in e.get("dice", ()) if d["source"] == "rng"]
    recorded = [json.loads(p) for k, _at, p in rows(db) if k == "roll"]
    assert [r["n"] for r in recorded] == list(range(len(recorded)))
    assert [(r["sides"], r["purpose"], r["actor"], r["face"]) for r in recorded] == shown
    assert len(shown) > 50  # the whole fight's dice, not a handful


def test_a_fight_saved_with_its_dice_replays_them_whatever_the_rng_draws(
        tmp_path: Path, changing: types.ModuleType) -> None:
    """The RNG draws otherwise after an upgrade: the saved fight's dice come back from its journal, so it opens,
    and resumes, as it was saved; only the dice past the journal's end come from the new draws. The same fight
    with its dice rows taken out (as a journal of the release before dice were journalled) parts from its events
    at once: event 0 is the surprise roll, the first dice of the fight (MJ-08)."""
    db = saved(tmp_path, stdin="step 20\nquit\n")
    stored = log_json(db, "--stored")["events"]
    old = tmp_path / "old.db"
    copy(db, old)
    con = sqlite3.connect(old)
    con.execute("DROP TRIGGER journal_append_only_d")
    con.execute("DELETE FROM journal WHERE kind = 'roll'")
    con.commit()
    con.close()
    changing.Changing = OtherRng
    assert log_json(db)["events"] == stored  # rebuilt: every event as saved
    code, _out, err = cli("log", "--db", old)
    assert code == 2 and "plays it differently from event 0 on" in err, err
    ok("play", "--db", db, stdin="run\nquit\n")
    after = log_json(db)
    assert after["events"][:len(stored)] == stored and after["winner"] is not None
    changing.Changing = AsSaved  # and the old version reads the new dice back too: the journal holds them
    assert log_json(db)["events"] == after["events"]


# ------------------------------------------------------------------------------------- a rule changed

def test_a_changed_rule_is_shown_where_the_fight_parts_and_nothing_is_changed(
        tmp_path: Path, changing: types.ModuleType) -> None:
    """Saved to its end, reopened after the blessing (+4 from round 2): the first event that differs is the first
    attack of round 2, shown in both versions (the same d20, its total 4 higher); play, drive and log stop with
    exit 2 and write nothing; drive says it on stdout too, as JSON; `log --stored` reads the fight as it was."""
    db = saved(tmp_path)
    stored = log_json(db)["events"]
    first = next(i for i, e in enumerate(stored) if e["round"] == 2 and e["kind"] in ("melee", "missile"))
    before = rows(db)
    changing.Changing = Blessed
    for command in (("play", "--db", db), ("log", "--db", db), ("drive", "--db", db)):
        code, out, err = cli(*command, stdin="run\nquit\n")
        assert code == 2, out + err
        assert f"plays it differently from event {first} on (of {len(stored)} saved)" in err
        saved_line = next(line for line in err.splitlines() if line.startswith("  saved: "))
        now_line = next(line for line in err.splitlines() if line.startswith("  now: "))
        assert saved_line.startswith(f"  saved: {first} {stored[first]['kind']}")
        assert "+4 (a blessing from round 2)" in now_line and "+4" not in saved_line
        assert f"affray play --db {db} --game 1 --new-rules" in err and f"affray log --db {db} --game 1 --stored" in err
        if command[0] == "drive":
            diverged = json.loads(out)["diverged"]
            assert (diverged["at"], diverged["agreed"], diverged["events"]) == (first, first, len(stored))
            assert diverged["saved"] == stored[first] and diverged["now"]["detail"] != stored[first]["detail"]
    assert rows(db) == before
    assert log_json(db, "--stored")["events"] == stored


def test_going_on_under_the_new_rules_keeps_the_saved_fight_as_a_branch(
        tmp_path: Path, changing: types.ModuleType) -> None:
    """`play --new-rules`: the events both versions agree on are kept, the fight goes on from there under the
    blessing, and the saved rest stays in the database, readable as branch 1; the next opening finds nothing to
    choose. `affray games` lists the branch."""
    db = saved(tmp_path)
    stored = log_json(db)["events"]
    first = next(i for i, e in enumerate(stored) if e["round"] == 2 and e["kind"] in ("melee", "missile"))
    changing.Changing = Blessed
    out = ok("play", "--db", db, "--new-rules", stdin="run\nquit\n")
    assert "fight 1 goes on under affray" in out and f"from event {first}; the {len(stored) - first} events saved " \
        "after it are kept as branch 1" in out
    now = log_json(db)
    assert now["events"][:first] == stored[:first]
    assert "+4 (a blessing from round 2)" in now["events"][first]["detail"]
    assert now["winner"] is not None
    branch = log_json(db, "--branch", "1")
    assert branch["events"] == stored and branch["over"] is True
    listing = ok("games", "--db", db)
    assert listing.rstrip().endswith("over  (1 branch kept from before a change of rules: --branch 1)")
    code, _out, err = cli("play", "--db", db, stdin="quit\n")
    assert code == 0, err
    kinds = [k for k, _at, _p in rows(db)]
    assert kinds.count("branch") == 1 and kinds.count("event") == len(stored) + len(now["events"]) - first


def test_at_a_terminal_the_referee_chooses(tmp_path: Path, changing: types.ModuleType,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """At a terminal the console shows where the fight parts and asks; "n" leaves it as it was, "y" goes on under
    the new rules."""
    from affray.play import terminal

    answers: list[str] = []

    class Terminal(terminal.PipeIo):
        interactive = True

        def ask(self, prompt: str, complete: terminal.Complete | None = None) -> str | None:
            answers.append(prompt)
            return super().ask(prompt, complete)

    db = saved(tmp_path)
    stored = log_json(db)["events"]
    first = next(i for i, e in enumerate(stored) if e["round"] == 2 and e["kind"] in ("melee", "missile"))
    monkeypatch.setattr(terminal, "io_for_stdin", lambda: Terminal(sys.stdin.buffer))
    changing.Changing = Blessed
    before = rows(db)
    out = ok("play", "--db", db, "--dice", "roll", stdin="n\n")
    assert "plays it differently" in out and out.rstrip().endswith("nothing was changed")
    assert answers == [f"Go on under these rules from event {first} now? [y/N] "] and rows(db) == before
    out = ok("play", "--db", db, "--dice", "roll", stdin="y\nrun\nquit\n")
    assert "kept as branch 1" in out
    assert log_json(db)["events"][:first] == stored[:first]


# ------------------------------------------------------------------------------------- words told better

def unworded(e: dict[str, Any]) -> dict[str, Any]:
    """An event without its words (its moment and why), its detail reduced to its figures: what a later affray
    that words an event better still plays the same."""
    kept = {k: v for k, v in e.items() if k not in ("at", "why", "detail")}
    return {**kept, "figures": re.findall(r"\d+", e.get("detail") or "")}


def reword(db: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """The events of ``db`` as another affray worded them: ``change`` applied to each stored event's payload."""
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER journal_append_only_u")
    for row, payload in con.execute("SELECT id, payload FROM journal WHERE kind = 'event'").fetchall():
        e = json.loads(payload)
        change(e)
        con.execute("UPDATE journal SET payload = ? WHERE id = ?", (json.dumps(e), row))
    con.commit()
    con.close()


def test_a_fight_saved_in_other_words_opens_as_it_was_saved(tmp_path: Path) -> None:
    """A fight saved by an affray that worded its events otherwise ("party won initiative", "orcs checks morale",
    each moment in capitals) opens and resumes as it was saved, told in today's words: its figures and fields are
    the same. A figure changed in one detail (the first blow's d20, saved one higher) parts the fight from there
    (the figures of a detail are its dice, modifiers and totals: a changed rule shows in them)."""
    db = tmp_path / "fight.db"
    ok("play", SKIRMISH, "--auto", "--db", db, stdin="step 40\nquit\n")
    now = log_json(db)["events"]
    old = tmp_path / "old.db"
    copy(db, old)

    def older(e: dict[str, Any]) -> None:
        for key in ("why", "detail"):
            if e.get(key):
                e[key] = e[key].replace("the party", "party").replace("the orcs", "orcs").replace(" check ", " checks ")
        e["at"] = e["at"].upper()

    reword(old, older)
    stored = log_json(old, "--stored")["events"]
    assert stored != now and sum(e["at"] != f["at"] for e, f in zip(stored, now, strict=True)) == len(now)
    assert any("party" in (e.get("why") or "") and "the party" not in e["why"] for e in stored)  # reworded
    assert log_json(old)["events"] == now  # opened: rebuilt, in today's words
    ok("play", "--db", old, stdin="run\nquit\n")
    done = log_json(old)
    assert done["events"][:len(now)] == now and done["winner"] is not None
    assert log_json(old, "--stored")["events"][:len(now)] == stored  # the rows as they were written
    blow = next(i for i, e in enumerate(now) if e["kind"] == "melee")
    d20 = re.search(r"d20 (\d+) ", now[blow]["detail"])
    assert d20 is not None, now[blow]
    changed = tmp_path / "changed.db"
    copy(db, changed)
    other = f"d20 {int(d20.group(1)) % 20 + 1} "
    reword(changed, lambda e: e.update(detail=e["detail"].replace(d20.group(0), other)) if e["seq"] == blow else None)
    code, _out, err = cli("log", "--db", changed)
    assert code == 2 and f"plays it differently from event {blow} on" in err, err


# ----------------------------------------------------------------------------------- the release's database

def release(tmp_path: Path) -> Path:
    db = tmp_path / "release.db"
    shutil.copy(FIXTURE, db)
    return db


#: The fixture's fights as written (tests/fixtures/make_release_db.py): id, ruleset, events, over.
RELEASE = [(1, "side-d6", 22, False), (2, "combat2-phase1", 120, True), (3, "phase-count", 63, False),
           (4, "phase-count", 44, False), (5, "side-d6", 19, False)]


def test_the_release_database_is_read_as_it_is_and_never_written(tmp_path: Path) -> None:
    """`games` and `log` read the release's database (journal format 1) without writing a byte of it."""
    db = release(tmp_path)
    before = db.read_bytes()
    listing = ok("games", "--db", db).splitlines()
    assert [line.split("  ")[0] for line in listing] == [str(g) for g, *_ in RELEASE]
    for (game, ruleset, events, over), line in zip(RELEASE, listing, strict=True):
        assert f"  {ruleset}  seed 7  {events} events  {'over' if over else 'in progress'}" in line
        assert len(log_json(db, "--game", str(game), "--stored")["events"]) == events
        code, out, err = cli("log", "--db", db, "--game", str(game), "--json")
        if code == 2:  # a later affray's rules play it otherwise (the policies changed): shown, nothing changed
            assert "plays it differently" in err and "Nothing was changed" in err, err
        else:
            assert code == 0 and len(json.loads(out)["events"]) >= events, out + err
    assert db.read_bytes() == before


@pytest.mark.parametrize(("game", "ruleset", "events", "over"), RELEASE)
def test_each_fight_of_the_release_database_opens_resumes_and_finishes(
        tmp_path: Path, game: int, ruleset: str, events: int, over: bool) -> None:
    """Each fight of the release's database opens, is resumed (a few steps, quit, then on to its end, every side
    declaring by its policy), and finishes; its saved events are kept. Should a later affray play it otherwise,
    it shows where, and goes on under its own rules from the last event both agree on (--new-rules)."""
    db = release(tmp_path)
    stored = log_json(db, "--game", str(game), "--stored")["events"]
    assert len(stored) == events
    code, out, err = cli("play", "--db", db, "--game", str(game), stdin="step 3\nquit\n")
    kept = events
    if code == 2 and "plays it differently" in err:  # a later affray's rules: the way on it offers
        kept = int(err.split("from event ")[1].split(" ")[0])
        code, out, err = cli("play", "--db", db, "--game", str(game), "--new-rules", stdin="step 3\nquit\n")
        kept = min(kept, int(out.split("from event ")[1].split(";")[0]))
    assert code == 0, out + err
    ok("play", "--db", db, "--game", str(game), stdin="dice roll\ndeclare party auto\ndeclare orcs auto\nrun\nquit\n")
    done = log_json(db, "--game", str(game))
    assert log_json(db, "--game", str(game), "--stored")["events"][:kept] == stored[:kept]  # the rows as saved
    assert [unworded(e) for e in done["events"][:kept]] == [unworded(e) for e in stored[:kept]]  # told anew
    assert "  over" in ok("games", "--db", db).splitlines()[game - 1]  # its end is journalled (a branch noted after)


def test_a_fight_cut_inside_a_step_resumes(tmp_path: Path) -> None:
    """The release wrote a step's events one row at a time: killed between two of them (fixture fight 4 was), its
    journal ends inside a step, and it refused to resume ("does not replay to its stored event 44"). Such a
    journal, made here from a whole fight's rows cut after the second of the web's five conditions (side-d6, round
    3: a step of six events, tests/test_drive_cli.py), resumes: the rest of the step comes out as new, and the
    fight ends as an uninterrupted one."""
    whole = tmp_path / "whole.db"
    ok("play", SKIRMISH, "--max-rounds", "3", "--auto", "--db", whole, stdin="run\nquit\n")
    events = log_json(whole)["events"]
    web = next(e["seq"] for e in events if e["kind"] == "cast" and e.get("spell") == "web")
    assert [e["kind"] for e in events[web:web + 6]] == ["cast", *["condition"] * 5]
    cut = tmp_path / "cut.db"
    copy(whole, cut)
    con = sqlite3.connect(cut)
    (last,) = con.execute("SELECT id FROM journal WHERE kind = 'event' AND at = ?", (web + 2,)).fetchone()
    con.execute("DROP TRIGGER journal_append_only_d")
    con.execute("DELETE FROM journal WHERE id > ? OR kind = 'roll'", (last,))  # as the release left it: no dice
    con.execute("PRAGMA user_version = 0")
    con.commit()
    con.close()
    assert len(log_json(cut, "--stored")["events"]) == web + 3
    ok("play", "--db", cut, stdin="run\nquit\n")
    assert log_json(cut) == log_json(whole)


FORMAT_0 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, created TEXT NOT NULL, file TEXT NOT NULL, text TEXT NOT NULL,
    ruleset TEXT NOT NULL, seed INTEGER NOT NULL, options TEXT NOT NULL, auto INTEGER NOT NULL,
    max_rounds INTEGER NOT NULL);
CREATE TABLE journal (id INTEGER PRIMARY KEY AUTOINCREMENT, game INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL CHECK (kind IN ('event', 'die', 'outcome', 'command', 'undo', 'end')),
    at INTEGER NOT NULL, payload TEXT NOT NULL);
CREATE INDEX journal_game ON journal(game, id);
CREATE TRIGGER journal_append_only_u BEFORE UPDATE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER journal_append_only_d BEFORE DELETE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER games_append_only_u BEFORE UPDATE ON games
    BEGIN SELECT RAISE(ABORT, 'games are append-only'); END;
"""


def test_a_database_of_the_first_format_is_read_then_migrated(tmp_path: Path) -> None:
    """The first journal format (affray's first console: its dice and outcomes journalled by rows of their own, a
    command placed by ``step``) is read as it is, without a byte written, then migrated when its fight is played on:
    that format's own rows left out (its fight is rebuilt from its seed), every other row kept with its id; the
    fight ends as `affray run` does."""
    today = tmp_path / "today.db"
    ok("play", SKIRMISH, "--auto", "--db", today, stdin="step 8\nquit\n")
    db = tmp_path / "first.db"
    con = sqlite3.connect(db)
    con.executescript(FORMAT_0)
    src = sqlite3.connect(f"{today.as_uri()}?mode=ro", uri=True)
    con.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", src.execute("SELECT * FROM games"))
    events = src.execute("SELECT id, game, kind, at, payload FROM journal WHERE kind = 'event' ORDER BY id").fetchall()
    src.close()
    con.executemany("INSERT INTO journal VALUES (?, ?, ?, ?, ?)", events)
    con.execute("INSERT INTO journal (game, kind, at, payload) VALUES (1, 'die', 0, '{\"n\": 0, \"value\": 9}')")
    con.commit()
    con.close()
    before = db.read_bytes()
    stored = log_json(db, "--stored")["events"]
    assert len(stored) == len(events)
    assert ok("games", "--db", db).rstrip().endswith(f"{len(events)} events  in progress")
    assert db.read_bytes() == before
    ok("play", "--db", db, stdin="run\nquit\n")
    assert rows(db, "SELECT id, kind FROM journal WHERE kind = 'event' ORDER BY id")[:len(events)] == [
        (i, "event") for i, *_ in events]
    assert rows(db, "SELECT count(*) FROM journal WHERE kind = 'die'") == [(0,)]  # that format's own, left out
    assert log_json(db) == json.loads(ok("run", SKIRMISH, "--auto", "--json"))
    assert rows(db, "PRAGMA user_version") == [(3,)]
