"""``affray play`` with commands piped on stdin (nothing asked), ``affray log`` and ``affray games``.

Every fight here is a pure function of its inputs, so the expectations are the engine's own run of the
same file and seed (``affray run --json``), or hand-worked hit points for the referee's commands.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from affray.rulesets import RULESETS
from cli_run import affray_here

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
FORTY = ROOT / "benchmarks" / "forty.yaml"
IDS = [r.id for r in RULESETS]


def affray(*args: str | Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return affray_here(*args, stdin=stdin)


def log_json(db: Path, *extra: str) -> dict[str, Any]:
    done = affray("log", "--db", db, "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def run_json(*args: str | Path) -> dict[str, Any]:
    done = affray("run", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def play(db: Path, *args: str | Path, stdin: str) -> subprocess.CompletedProcess[str]:
    done = affray("play", *args, "--db", db, stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done


def events_of(doc: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in doc["events"] if e["kind"] == kind]


@pytest.mark.parametrize("ruleset", IDS)
def test_piped_run_then_quit_logs_what_affray_run_prints(tmp_path: Path, ruleset: str) -> None:
    """The issue's own test: a piped `run` then `quit` leaves a database whose log is `affray run --json`."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, "--ruleset", ruleset, "--auto", stdin="run\nquit\n")
    assert log_json(db) == run_json(SKIRMISH, "--ruleset", ruleset, "--auto")


@pytest.mark.parametrize("ruleset", IDS)
def test_undo_to_the_start_then_replay_gives_the_same_log(tmp_path: Path, ruleset: str) -> None:
    """Step 25 events, undo them all one at a time (25 undos), run on: the same log as an uninterrupted run."""
    db = tmp_path / "fight.db"
    done = play(db, SKIRMISH, "--ruleset", ruleset, "--auto", stdin="step 25\n" + "undo\n" * 25 + "run\nquit\n")
    assert "undone: back to 0 events" in done.stdout
    assert log_json(db) == run_json(SKIRMISH, "--ruleset", ruleset, "--auto")


def test_undo_removes_the_commands_of_the_events_it_takes_back(tmp_path: Path) -> None:
    """`damage` then `undo`: the damage event and its command are gone; the fight is the plain one."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, "--auto", stdin="step 3\ndamage Orc 1 2\nundo\nrun\nquit\n")
    assert log_json(db) == run_json(SKIRMISH, "--auto")


def test_the_journal_is_append_only(tmp_path: Path) -> None:
    """Undo appends a row; nothing is ever updated or deleted (the database refuses it). The console's session
    opens the journal (``open``: which affray writes), and each die rolled from the seed is a row (``roll``): side-d6's
    first four events are the surprise roll (each side's d6, MJ-08: two dice) and three declarations."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, stdin="step 4\nundo 2\nquit\n")
    con = sqlite3.connect(db)
    kinds = [k for (k,) in con.execute("SELECT kind FROM journal ORDER BY id")]
    assert kinds == ["open", "roll", "roll"] + ["event"] * 4 + ["undo"]
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("DELETE FROM journal")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("UPDATE journal SET at = 0")
    assert len(log_json(db)["events"]) == 2  # 4 events, undo 2: 4 - 2 = 2


def test_resume_goes_on_from_the_last_event(tmp_path: Path) -> None:
    """Quit after 10 steps, resume with `affray play --db` and run: the same log as one uninterrupted run.
    side-d6 (MJ-02, MJ-03): a step is what comes out between two points; the surprise roll, then each of the nine
    combatants' declarations but the last, then the last (Orc Captain's) with the initiative roll made before the
    first step is placed: 1 + 8 + 2 = 11 events."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, "--auto", stdin="step 10\nquit\n")
    assert len(log_json(db)["events"]) == 11
    done = play(db, stdin="run\nquit\n")
    assert "resuming fight 1 after 11 events" in done.stdout
    assert log_json(db) == run_json(SKIRMISH, "--auto")


def test_damage_and_heal_by_hand(tmp_path: Path) -> None:
    """Before the first event: Orc 1 (6 hp) takes 6 -> 0 hp, down at once (G-05); Brom (48 hp) takes 5 and
    heals 3 -> 46. Orc 1 down, nobody attacks it again: its final hp stays 0."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, stdin="damage Orc 1 6\ndamage Brom 5\nheal Brom 3\nstep 1\nquit\n")
    doc = log_json(db)
    kinds = [(e["kind"], e["actor"], e.get("target")) for e in doc["events"]]
    assert kinds[:4] == [("damage", None, "Orc 1"), ("down", "Orc 1", None), ("damage", None, "Brom"),
                         ("heal", None, "Brom")]
    assert doc["combatants"]["Orc 1"] == {"side": "orcs", "hp": 0, "down": True}
    assert doc["combatants"]["Brom"]["hp"] == 48 - 5 + 3


def test_add_remove_and_plan_mid_fight(tmp_path: Path) -> None:
    """A new orc joins, Orc 3 leaves, Sela's plan (not yet declared: events 0-1 are the surprise roll and Brom's
    declaration) is replaced: all journalled, all replayed by `log`."""
    db = tmp_path / "fight.db"
    script = ("step 2\nadd orcs {name: Orc 9, hd: 1, hp: 7, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}\n"
              "remove Orc 3\nplan Sela [{melee: Orc 9}]\nrun\nquit\n")
    play(db, SKIRMISH, stdin=script)
    doc = log_json(db)
    assert [e["kind"] for e in doc["events"][2:5]] == ["join", "leave", "replan"]
    assert doc["combatants"]["Orc 9"]["side"] == "orcs"
    assert doc["combatants"]["Orc 3"]["fled"] is True
    sela = [e for e in events_of(doc, "melee") if e["actor"] == "Sela"]
    assert sela and all(e["target"] == "Orc 9" for e in sela)


@pytest.mark.parametrize("ruleset", IDS)
def test_a_joined_combatant_acts_under_every_ruleset(tmp_path: Path, ruleset: str) -> None:
    """With --auto a combatant added after the first declarations still gets declarations and attacks."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, "--ruleset", ruleset, "--auto",
         stdin="step 3\nadd party {name: Newt, hp: 9, weapons: [{name: club, sf: 4, damage: 1d6}]}\nrun\nquit\n")
    doc = log_json(db)
    assert any(e["kind"] in ("melee", "missile") and e["actor"] == "Newt" for e in doc["events"])


def test_a_bad_command_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    done = play(db, SKIRMISH, "--auto", stdin="damage Nobody 3\nheal Brom x\nfrobnicate\nplan Brom [{melee: Ghost}]\n"
                "run\nquit\n")
    assert "no combatant named 'Nobody'" in done.stdout
    assert "say `heal NAME N`" in done.stdout
    assert "unknown command 'frobnicate'" in done.stdout
    assert "no combatant named 'Ghost'" in done.stdout
    assert log_json(db) == run_json(SKIRMISH, "--auto")


def test_several_fights_in_one_database(tmp_path: Path) -> None:
    """Fight 2 is five steps of phase-count: the surprise and initiative rolls (PC-08, PC-06), then Brom's, Sela's,
    Mina's (with her casting's start, G-11) and Ash's declarations: 2 + 1 + 1 + 2 + 1 = 7 events."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, "--auto", stdin="run\nquit\n")
    play(db, SKIRMISH, "--ruleset", "phase-count", stdin="step 5\nquit\n")
    listing = affray("games", "--db", db)
    assert listing.returncode == 0
    lines = listing.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("1 ") and "side-d6" in lines[0] and lines[0].endswith("over")
    assert lines[1].startswith("2 ") and "phase-count" in lines[1] and "7 events" in lines[1]
    assert log_json(db, "--game", "1") == run_json(SKIRMISH, "--auto")
    assert len(log_json(db)["events"]) == 7  # the latest fight by default


def test_the_readable_log(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, "--auto", stdin="run\nquit\n")
    done = affray("log", "--db", db)
    assert done.returncode == 0
    assert done.stdout == affray("run", SKIRMISH, "--auto").stdout


@pytest.mark.parametrize(("args", "message"), [
    (("play", "nowhere.yaml"), "nowhere.yaml: cannot read the file"),
    (("play", SKIRMISH, "--ruleset", "nope"), "unknown ruleset 'nope'"),
    (("play", SKIRMISH, "--game", "1"), "either FILE"),
    (("log",), "no such database"),
    (("games",), "no such database"),
])
def test_bad_input_exits_2_with_a_message(tmp_path: Path, args: tuple[str | Path, ...], message: str) -> None:
    done = affray(*args, "--db", tmp_path / "missing.db")
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_resuming_a_fight_that_is_not_there_exits_2(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, stdin="quit\n")
    done = affray("log", "--db", db, "--game", "7")
    assert done.returncode == 2
    assert "--game 7: no such fight (fights here: 1)" in done.stderr
    empty = tmp_path / "empty.db"
    empty.touch()  # an empty file: a database without a fight (another program's is refused: test_at_rest.py)
    done = affray("play", "--db", empty)
    assert done.returncode == 2 and "no fight in this database yet" in done.stderr


def test_phase_count_a_declaration_changed_mid_action_aborts_it_pc_09(tmp_path: Path) -> None:
    """PC-09: "at any phase a combatant may abandon its action, declare a new one and roll for it from that
    phase". Orc 2, busy with its opening melee on Brom (declared at phase 0), is given `abort: 2`: at phase 2
    it drops that action and declares the new one, melee Sela."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, "--ruleset", "phase-count", stdin="step 16\nplan Orc 2 [{melee: Sela, abort: 2}]\n"
         "run\nquit\n")
    events = log_json(db)["events"]
    abort = next(e for e in events if e["kind"] == "abort")
    assert (abort["actor"], abort["tick"][0]) == ("Orc 2", 2)
    after = next(e for e in events[abort["seq"]:] if e["kind"] == "declare" and e["actor"] == "Orc 2")
    assert after["declaration"]["melee"] == "Sela"


def test_a_journal_that_does_not_replay_is_shown_where_it_parts(tmp_path: Path) -> None:
    """A stored event changed behind affray's back (the append-only trigger dropped first): resuming and logging
    both stop with exit 2, naming the first event that differs in both versions and the way on, and change
    nothing (the divergence path itself: tests/test_saved_fights.py)."""
    db = tmp_path / "fight.db"
    play(db, SKIRMISH, stdin="step 5\nquit\n")
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER journal_append_only_u")
    con.execute("UPDATE journal SET payload = replace(payload, 'Orc 4', 'Orc 3') "
                "WHERE id = (SELECT max(id) FROM journal WHERE kind = 'event')")  # Ash's declaration, event 4
    con.commit()
    rows = con.execute("SELECT count(*) FROM journal").fetchone()
    con.close()
    for args in (("play", "--db", db), ("log", "--db", db)):
        done = affray(*args, stdin="quit\n")
        assert done.returncode == 2
        assert "plays it differently from event 4 on (of 5 saved)" in done.stderr
        assert "saved: 4 declare      Ash   missile Orc 3 with short bow" in done.stderr
        assert "now:   4 declare      Ash   missile Orc 4 with short bow" in done.stderr
        assert "the same version: the journal was changed behind affray's back" in done.stderr
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM journal").fetchone() == rows
    con.close()
