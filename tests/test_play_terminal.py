"""``affray play`` driven as a referee drives it: on a pseudo-terminal (pexpect), dice asked and answered;
and killed with SIGKILL mid-fight, then resumed.

The expected timelines are the engine's own runs with the same inputs (the die the referee typed given
through the ``provider`` hook), since a fight is a pure function of its file, seed and inputs.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from affray import load_encounter, prepare, timeline_dict
from affray.rulesets import RULESETS

AFFRAY = str(Path(sys.executable).parent / "affray")
ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
FORTY = ROOT / "benchmarks" / "forty.yaml"
ENV = dict(os.environ, NO_COLOR="1", PROMPT_TOOLKIT_NO_CPR="1", TERM="dumb")
DIE = r"\[Enter rolls\]: "
PAUSE = r"\n(\d+)> "


def spawn(*args: str | Path) -> pexpect.spawn:
    child = pexpect.spawn(AFFRAY, ["play", *map(str, args)], env=ENV, encoding="utf-8", timeout=60,
                          dimensions=(50, 160), searchwindowsize=4000)
    return child


def log_json(db: Path) -> dict[str, Any]:
    done = subprocess.run([AFFRAY, "log", "--db", str(db), "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def engine_run(ruleset: str, first_die: int) -> dict[str, Any]:
    """The same fight through the API: the referee's die is the first one the fight asks for."""
    calls: list[int] = []

    def provider(sides: int, count: int, purpose: str, actor: str | None) -> int | None:
        calls.append(sides)
        return first_die if len(calls) == 1 else None

    prepared = prepare(load_encounter(SKIRMISH), ruleset=ruleset)
    return timeline_dict(prepared.fight(auto=True, provider=provider).run())


def to_pause(child: pexpect.spawn) -> int:
    """Roll every die asked (Enter) until the console pauses; the number of events so far."""
    while child.expect([DIE, PAUSE]) == 0:
        child.sendline("")
    return int(child.match.group(1))


@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_a_whole_fight_at_the_terminal(tmp_path: Path, ruleset: str) -> None:
    """Step, answer the first die by hand (2: a result of both the d6 and the d10 that open the rulesets'
    surprise checks), let Enter roll the next, look at the status, then roll the rest and run to the end."""
    db = tmp_path / "fight.db"
    child = spawn(SKIRMISH, "--ruleset", ruleset, "--auto", "--db", db)
    child.expect("now: before the fight")
    child.expect("0> ")
    child.sendline("step")
    child.expect(DIE)
    asked = child.before.splitlines()[-1]
    assert "surprise" in asked
    child.sendline("2")
    to_pause(child)
    child.sendline("status")
    child.expect("now: ")
    child.expect("combatant +side +hp")
    child.sendline("dice roll")
    child.expect("dice for all: roll")
    child.sendline("run")
    child.expect("the fight is over")
    child.expect("fight over> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    doc = log_json(db)
    entered = [d for e in doc["events"] for d in e.get("dice", ()) if d["source"] == "referee"]
    assert [(d["purpose"], d["value"]) for d in entered] == [("surprise", 2)]
    assert doc == engine_run(ruleset, 2)


def test_a_bad_die_is_asked_again(tmp_path: Path) -> None:
    """side-d6 rolls a d6 for surprise (MJ-08): 7 is refused with the range, then 6 is taken."""
    db = tmp_path / "fight.db"
    child = spawn(SKIRMISH, "--db", db)
    child.expect("0> ")
    child.sendline("step")
    child.expect(DIE)
    child.sendline("7")
    child.expect(r"enter a d6 result \(1-6\)")
    child.expect(DIE)
    child.sendline("6")
    to_pause(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    first = log_json(db)["events"][0]
    assert first["dice"][0] == {"purpose": "surprise", "actor": "party", "die": "d6", "value": 6,
                                "source": "referee"}


def _session_until(db: Path, kill_at: int | None) -> None:
    """The same referee's inputs each time: die 3 first, a hand's damage at the 6th event, Enter for every
    other die, step by step; killed (SIGKILL) when asked a die after ``kill_at`` events, or else, from the 20th
    event on, every die rolled (as a piped resumption does) and run to the end."""
    child = spawn(SKIRMISH, "--auto", "--db", db)
    child.expect("0> ")
    child.sendline("step")
    child.expect(DIE)
    child.sendline("3")
    damaged, seen = False, 0
    while True:
        which = child.expect([DIE, PAUSE, "fight over> "])
        if which == 2:
            child.sendline("quit")
            child.expect(pexpect.EOF)
            return
        if which == 0:
            if kill_at is not None and seen >= kill_at:
                os.kill(child.pid, signal.SIGKILL)  # inside the engine's run, waiting for a die
                child.expect(pexpect.EOF)
                child.close()
                assert child.signalstatus == signal.SIGKILL
                return
            child.sendline("")
            continue
        seen = int(child.match.group(1))
        if kill_at is None and seen >= 20:  # the rest as the killed one's resumption plays it: rolled
            child.sendline("dice roll")
            child.sendline("run")
            child.expect("fight over> ")
            child.sendline("quit")
            child.expect(pexpect.EOF)
            return
        if seen >= 6 and not damaged:
            child.sendline("damage Orc 2 1")
            damaged = True
        else:
            child.sendline("step")


def test_sigkill_mid_fight_then_resume_ends_as_an_uninterrupted_fight(tmp_path: Path) -> None:
    killed, whole = tmp_path / "killed.db", tmp_path / "whole.db"
    _session_until(killed, kill_at=20)
    before = log_json(killed)
    assert 20 <= len(before["events"]) < 40 and before["winner"] is None
    resumed = subprocess.run([AFFRAY, "play", "--db", str(killed)], input="run\nquit\n", capture_output=True,
                             text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    _session_until(whole, kill_at=None)
    after, reference = log_json(killed), log_json(whole)
    assert after == reference
    assert [d["value"] for e in after["events"] for d in e.get("dice", ()) if d["source"] == "referee"] == [3]
    assert any(e["kind"] == "damage" and e["target"] == "Orc 2" for e in after["events"])


def test_sigkill_at_any_moment_of_a_piped_run_loses_nothing(tmp_path: Path) -> None:
    """A 40-combatant fight piped `run`, killed once 100, then 250 events are in the database (wherever the
    process is: writing, showing, rolling; the whole fight has 349 under the default policy), resumed each time:
    the log is `affray run --json` exactly."""
    db = tmp_path / "fight.db"
    cmd = [AFFRAY, "play", str(FORTY), "--ruleset", "side-d6", "--auto", "--db", str(db)]
    for threshold in (100, 250):
        args = cmd if threshold == 100 else [AFFRAY, "play", "--db", str(db)]
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        assert proc.stdin is not None
        proc.stdin.write("run\nquit\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 120
        while _events_in(db) < threshold:
            if proc.poll() is not None:  # what it said, to tell why (it happened once, on a loaded machine)
                stderr = proc.stderr.read() if proc.stderr is not None else ""
                pytest.fail(f"the fight ended (exit {proc.returncode}) before it could be killed: {stderr}")
            assert time.monotonic() < deadline
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
    done = subprocess.run([AFFRAY, "play", "--db", str(db)], input="run\nquit\n", capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    reference = subprocess.run([AFFRAY, "run", str(FORTY), "--ruleset", "side-d6", "--auto", "--json"],
                               capture_output=True, text=True, timeout=300)
    assert log_json(db) == json.loads(reference.stdout)


def _events_in(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(db, timeout=5)
        try:
            (n,) = con.execute("SELECT count(*) FROM journal WHERE kind = 'event'").fetchone()
        finally:
            con.close()
    except sqlite3.OperationalError:  # the tables are not there yet
        return 0
    return int(n)


def test_outcomes_and_the_d20_entered_at_an_attack(tmp_path: Path) -> None:
    """side-d6 skirmish: Ash's two arrows at Orc 4 are "hit 6" and "miss" (the referee's outcomes); Brom's blow
    at Orc 1 is a d20 typed at the attack's prompt, 17 vs THAC0 14 - AC 6 = 8: a hit (G-04), its d8 rolled.
    Orc 4 (6 hp) takes 6: 6 - 6 = 0, down at the end of the tick (G-05)."""
    db = tmp_path / "fight.db"
    child = spawn(SKIRMISH, "--db", db)
    answers = iter(["hit 6", "miss", "17"])
    while True:
        which = child.expect([r"\): d20 \[and damage\], 'hit N' or 'miss' " + DIE, DIE, PAUSE])
        if which == 0:
            answer = next(answers, None)
            if answer is None:
                break
            child.sendline(answer)
        elif which == 1:
            child.sendline("")
        else:
            child.sendline("step")
    child.sendline("")
    to_pause(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    doc = log_json(db)
    attacks = [e for e in doc["events"] if e["kind"] in ("melee", "missile")]
    ash1, ash2, brom = attacks[:3]
    assert (ash1["actor"], ash1["target"], ash1["hit"], ash1["damage"]) == ("Ash", "Orc 4", True, 6)
    assert ash1["detail"] == "the referee's outcome: hit, 6 damage" and "dice" not in ash1
    assert (ash2["hit"], ash2["damage"], ash2["detail"]) == (False, 0, "the referee's outcome: miss")
    assert (brom["actor"], brom["target"], brom["hit"]) == ("Brom", "Orc 1", True)
    assert brom["dice"][0] == {"purpose": "attack", "actor": "Brom", "die": "d20", "value": 17, "source": "referee"}
    assert brom["detail"].startswith("d20 17 = 17 vs THAC0 14 - AC 6 = 8: hit")
    down = next(e for e in doc["events"] if e["kind"] == "down")
    assert down["actor"] == "Orc 4" and doc["combatants"]["Orc 4"]["hp"] == 0


def test_dice_asked_per_side(tmp_path: Path) -> None:
    """`dice orcs roll`: side-d6's surprise d6 (MJ-08) is asked for the party only; the orcs' is rolled."""
    db = tmp_path / "fight.db"
    child = spawn(SKIRMISH, "--db", db)
    child.expect("0> ")
    child.sendline("dice orcs roll")
    child.expect("dice for orcs: roll")
    child.sendline("step")
    child.expect(DIE)
    assert child.before.splitlines()[-1].strip() == "d6 surprise for party"
    child.sendline("4")
    assert child.expect([DIE, PAUSE]) == 1  # nothing more asked before the surprise event
    child.sendline("quit")
    child.expect(pexpect.EOF)
    dice = log_json(db)["events"][0]["dice"]
    assert [(d["actor"], d["source"]) for d in dice] == [("party", "referee"), ("orcs", "rng")]
    assert dice[0]["value"] == 4
