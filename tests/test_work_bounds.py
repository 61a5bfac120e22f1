"""Work bounded before it starts (issue 32, the third hostile probe's "bounds" findings): what ``run`` cannot do is
refused by ``check``; a fight too heavy to schedule, dice too wide to convolve and a simulation of days are refused
(or, the simulation, asked for ``--yes``) with exit 2 in words; ``simulate`` stops on Ctrl-C with its workers, leaves
none behind when killed, and gives up on a Dask scheduler that cannot serve it.

The commands run in this process (typer's runner) where the exit status and the words are what is tested, and as a
real subprocess where the process matters (signals, the processes left behind).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from affray import limits
from affray.cli.app import app

runner = CliRunner(env={"COLUMNS": "400"})  # one message, one line


TWO = """\
sides:
  a: {combatants: [{name: A, hp: 5, weapons: [{name: club, sf: 4, damage: 1d6}]}]}
  b: {combatants: [{name: B, hp: 5, weapons: [{name: club, sf: 4, damage: 1d6}]}]}
"""


def cli(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.output


def write(tmp_path: Path, text: str, name: str = "fight.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------- blows in a round

#: The probe's file: 1,000 combatants of 20 attacks with a bow of rate 10, every value within its own limit. Its
#: first round scheduled 200,000 blows and ran out of 2 GiB after 12 s.
HEAVY = """\
ruleset: side-d6
seed: 1
sides:
  a: {combatants: [{name: A, count: 500, hp: 10000, attacks: 20, weapons: [{name: bow, kind: missile, rate: 10, damage: 1d2}]}]}
  b: {combatants: [{name: B, count: 500, hp: 10000, attacks: 20, weapons: [{name: bow, kind: missile, rate: 10, damage: 1d2}]}]}
"""  # noqa: E501


def test_a_fight_of_too_many_blows_a_round_is_refused_by_check_run_and_simulate(tmp_path: Path) -> None:
    path = write(tmp_path, HEAVY)
    # each side: 500 x 20 attacks x rate 10 = 100,000 blows a round; both sides 200,000 > MAX_BLOWS (5,000)
    message = (f"{path}:3: sides: up to 200,000 blows a round (attacks x fire rate, count expanded, every side): at "
               "most 5,000 (limit); the most from sides.a.combatants[0]: 500 x 200 (20 attacks x fire rate 10), "
               "100,000")
    for command in (["check", path], ["run", path, "--auto"], ["simulate", path, "--fights", "10", "--workers", "1"]):
        start = time.perf_counter()
        code, out = cli(*command)
        assert code == 2, out
        assert message in out, out
        assert time.perf_counter() - start < 5  # refused as it is read, not after a round of 200,000 blows


def test_blows_count_a_fighters_level_and_a_spells_targets(tmp_path: Path) -> None:
    # C2-25: a level 40 fighter strikes creatures below 1 HD once a level: 40 a round, x 126 = 5,040 > 5,000
    path = write(tmp_path, """\
    sides:
      a: {combatants: [{name: A, class: fighter, level: 40, count: 126, hp: 5}]}
      b: {combatants: [{name: B, hp: 5, hd: 1/2}]}
    """)
    code, out = cli("check", path)
    assert code == 2
    assert ("sides: up to 5,041 blows a round (attacks x fire rate, count expanded, every side): at most 5,000 "
            "(limit); the most from sides.a.combatants[0]: 126 x 40 (a level 40 fighter's attacks on creatures below "
            "1 HD (C2-25)), 5,040") in out  # 126 x 40 + B's 1
    # a spell of `area: side` lands on every foe: 10 casters x 500 foes = 5,000, and the 500 foes' 1 each: 5,500
    path = write(tmp_path, """\
    sides:
      a: {combatants: [{name: A, count: 10, hp: 5, spells: [{name: storm, damage: 1d6, area: side}]}]}
      b: {combatants: [{name: B, count: 500, hp: 5}]}
    """)
    code, out = cli("check", path)
    assert code == 2 and "sides: up to 5,500 blows a round" in out and "10 x 500 (storm's 500 targets)" in out
    # at the limit: 1,000 combatants of 5 attacks are 5,000 blows, accepted
    path = write(tmp_path, """\
    sides:
      a: {combatants: [{name: A, count: 500, hp: 5, attacks: 5}]}
      b: {combatants: [{name: B, count: 500, hp: 5, attacks: 5}]}
    """)
    code, out = cli("check", path)
    assert code == 0, out
    assert limits.MAX_BLOWS == 5_000


# ------------------------------------------------------------------------------------ simulate: its time

#: 200 archers of 10 arrows a round who can hardly hurt each other: 2,000 blows a round (within MAX_BLOWS), and each
#: fight lasts its 50 rounds: about a second of CPU a fight.
SLOW = """\
ruleset: side-d6
seed: 1
sides:
  a: {combatants: [{name: A, count: 100, hp: 10000, attacks: 10, weapons: [{name: bow, kind: missile, damage: 1d2}]}]}
  b: {combatants: [{name: B, count: 100, hp: 10000, attacks: 10, weapons: [{name: bow, kind: missile, damage: 1d2}]}]}
"""


def test_a_simulation_of_days_asks_for_yes_before_it_starts(tmp_path: Path) -> None:
    path = write(tmp_path, SLOW)
    start = time.perf_counter()
    code, out = cli("simulate", path, "--fights", "1000000", "--workers", "2")
    elapsed = time.perf_counter() - start
    assert code == 2, out
    # a million fights of about a second on two processes is some 500,000 s: days, not the 10 minutes allowed. On a
    # machine whose other processes crowd the timed fights out of its caches the figure moves (0.34 s a fight was
    # seen): at least 0.1 s a fight on two processes is still 50,000 s, over 13 h
    m = re.search(r"this simulation would take about (?:([\d,]+) days|(\d+) h \d+ min) \(1,000,000 fights of about "
                  r"[\d.]+ s CPU on 2 processes; \d+ fights? timed\): more than 10 min asks for --yes \(limit\): give "
                  r"--yes to run it, or about --fights ([\d,]+) to finish within 10 min", out)
    assert m is not None, out
    assert m.group(1) is not None or int(m.group(2)) >= 13
    assert 1 <= int(m.group(3).replace(",", "")) < 10_000  # 600 s x 2 processes / (at least 0.1 s a fight)
    assert elapsed < 30  # the plan of a million seeds and a second of fights timed; nothing else played
    assert limits.MAX_SIMULATE_SECONDS == 600


def test_a_light_simulation_is_bounded_without_a_fight_timed(tmp_path: Path) -> None:
    from affray.sim.estimate import estimate
    from affray.sim.runner import plan

    # the two-combatant fight: 2 blows a round x 50 rounds x 0.5 ms + 5 ms is at most 0.055 s a fight; 1,000 fights on
    # one process at most 55 s, within the 600: nothing is played to know it, nothing asked
    path = write(tmp_path, "ruleset: side-d6\n" + TWO)
    est = estimate(plan(path, fights=1000, seed=1), 1, limits.MAX_SIMULATE_SECONDS)
    assert (est.sampled, est.fights, est.parallel) == (0, 1000, 1)
    assert est.per_fight == pytest.approx(0.055) and est.seconds == pytest.approx(55)
    assert est.words() == "at most 55 s (1,000 fights of at most 0.055 s CPU on 1 process; a bound)"
    code, out = cli("simulate", path, "--fights", "1000", "--workers", "1", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["fights"] == 1000, out


# ---------------------------------------------------------------- simulate: Ctrl-C and kills, its workers

AFFRAY = str(Path(sys.executable).parent / "affray")
needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")


def _stat(pid: int) -> list[str] | None:
    """A process's /proc/PID/stat fields after its name (state first, then its parent's pid); None once gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")  # a zombie has ended: it only waits to be reaped


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid and fields[0] not in ("Z", "X"):
                out.append(int(entry.name))
    return out


def _as_a_foreground_job() -> None:
    """In the child, before affray starts: SIGINT and SIGQUIT at their defaults, as a terminal's shell starts a
    foreground job. Where the tests themselves run as a background job of a script (`pytest ... &`), the shell
    started them with both ignored, every process they start inherits that, and Python leaves an ignored SIGINT
    ignored: Ctrl-C could not be what these tests send."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def _simulating(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """``affray simulate --yes`` of the slow file on two workers, in a session of its own (as at a terminal, where
    Ctrl-C reaches every process of the foreground group), once both workers play."""
    path = write(tmp_path, SLOW)
    proc = subprocess.Popen([AFFRAY, "simulate", str(path), "--fights", "1000", "--workers", "2", "--yes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_as_a_foreground_job)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.2)
        workers = _children(proc.pid)
    time.sleep(2)  # the estimate (a second of fights timed), then the batches: both workers are playing
    assert proc.poll() is None and all(_alive(w) for w in workers)
    return proc, workers


def _ended(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(_alive(p) for p in pids)


def _stop(proc: subprocess.Popen[str], workers: list[int]) -> None:
    """Whatever the test found, nothing it started is left running."""
    for pid in [proc.pid, *workers]:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    proc.wait(10)


@needs_proc
def test_ctrl_c_stops_simulate_and_its_workers_within_a_second(tmp_path: Path) -> None:
    proc, workers = _simulating(tmp_path)
    try:
        start = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C at the terminal does: the whole foreground group
        assert proc.wait(5) == 130  # 128 + SIGINT, as documented (docs/commands.md)
        assert time.monotonic() - start < 1.0
        assert _ended(workers, 1.0), [w for w in workers if _alive(w)]
        assert proc.stderr is not None
        err = proc.stderr.read()
        assert err.strip().endswith("interrupted (Ctrl-C): the simulation and its workers stopped"), err
        assert "Traceback" not in err and "KeyboardInterrupt" not in err
    finally:
        _stop(proc, workers)


@needs_proc
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_simulate_killed_leaves_no_worker_behind(tmp_path: Path, sig: signal.Signals) -> None:
    proc, workers = _simulating(tmp_path)
    try:
        os.kill(proc.pid, sig)  # the parent alone (kill PID): its workers never hear of it
        proc.wait(5)
        assert _ended(workers, 2.0), [w for w in workers if _alive(w)]  # they look at their parent 5 times a second
    finally:
        _stop(proc, workers)


# ---------------------------------------------------------------------------- simulate --scheduler

@contextmanager
def _listening(answer: bytes | None) -> Iterator[str]:
    """A port on 127.0.0.1 that accepts and then sends ``answer`` (garbage), or nothing ever (None: silent)."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    held: list[socket.socket] = []
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)
            if answer is not None:
                with contextlib.suppress(OSError):
                    conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()
        thread.join(5)
        for conn in held:
            conn.close()
        server.close()


def test_a_port_that_answers_garbage_exits_2_in_words(tmp_path: Path) -> None:
    path = write(tmp_path, "ruleset: side-d6\n" + TWO)
    with _listening(b"HTTP/1.1 200 OK\r\n\r\nnot dask\x00\xff" * 50) as address:
        code, out = cli("simulate", path, "--fights", "5", "--scheduler", address)
    assert code == 2, out  # it was 1: "internal error: MemoryError: Unable to allocate 3.07 EiB" (a length read
    assert f"--scheduler {address}: cannot reach a Dask scheduler there (" in out  # from the garbage)


def test_a_silent_port_is_given_up_after_the_timeout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from affray.sim import runner

    monkeypatch.setattr(runner, "SCHEDULER_SECONDS", 2)  # the limit is 10 s: the test waits 2
    path = write(tmp_path, "ruleset: side-d6\n" + TWO)
    with _listening(None) as address:
        start = time.monotonic()
        code, out = cli("simulate", path, "--fights", "5", "--scheduler", address)
        elapsed = time.monotonic() - start
    assert code == 2, out
    assert f"--scheduler {address}: no answer from a Dask scheduler there within 2 s (limit)" in out
    assert 2 <= elapsed < 10  # the 2 s, and 1 more to let the client's own timeout speak first
    assert limits.SCHEDULER_SECONDS == 10


def test_a_scheduler_without_workers_is_given_up_after_the_timeout(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    from affray.sim import runner

    monkeypatch.setattr(runner, "SCHEDULER_SECONDS", 2)
    path = write(tmp_path, "ruleset: side-d6\n" + TWO)
    with LocalCluster(n_workers=0, processes=False, protocol="tcp://", scheduler_port=0,
                      dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        start = time.monotonic()
        code, out = cli("simulate", path, "--fights", "5", "--scheduler", address)
        elapsed = time.monotonic() - start
    assert code == 2, out  # it waited for ever
    assert (f"--scheduler {address}: the Dask scheduler there has no worker (waited 2 s, limit): start one with "
            f"`dask worker {address}`") in out
    assert elapsed < 10


# ----------------------------------------------------------------------------------------- odds attack

def test_dice_whose_exact_odds_would_take_minutes_are_refused_at_once() -> None:
    start = time.perf_counter()
    code, out = cli("odds", "attack", "--thac0", "15", "--ac", "5", "--damage", "100d1000")
    assert code == 2, out  # it ran some 14 minutes: every one of its totals convolved
    # 100d1000 totals 100 to 100,000: 100 x 999 + 1 = 99,901 values
    assert out.strip() == ("--damage 100d1000: its dice total 99,901 different values; exact odds are worked out for "
                           "at most 5,000 (limit: NdS takes N x (S - 1) + 1, e.g. 50d100 or 5d1000); `affray "
                           "simulate` plays any dice")
    assert time.perf_counter() - start < 5
    # one past the limit: 50d100 totals 50 x 99 + 1 = 4,951 values; with a d52 beside it, 51 more: 5,002
    code, out = cli("odds", "attack", "--thac0", "15", "--ac", "5", "--damage", "50d100+1d52")
    assert code == 2 and "its dice total 5,002 different values" in out, out
    assert limits.MAX_ODDS_OUTCOMES == 5_000


# ------------------------------------------------------------------------------- beyond the tables' rows

BIG = """\
seed: 3
sides:
  giants: {combatants: [{name: Titan, hd: 100, hp: 60, weapons: [{name: fist, sf: 3, damage: 1d6}], spells: [{name: zap, damage: 1d4}]},
                        {name: Elder, hd: 99+5, hp: 60, weapons: [{name: fist, sf: 3, damage: 1d6}]}]}
  heroes: {combatants: [{name: Hero, class: fighter, level: 40, hp: 80, weapons: [{name: sword, sf: 5, damage: 1d8}]},
                        {name: Sage, class: wizard, level: 40, hp: 30, spells: [{name: nap, effect: {condition: asleep, save: true}, duration: 2 rounds}]},
                        {name: Abbot, class: cleric, level: 40, hp: 40, weapons: [{name: mace, sf: 7, damage: 1d6}]},
                        {name: Rogue, class: thief, level: 40, hp: 30, weapons: [{name: knife, sf: 2, damage: 1d4}]}]}
"""  # noqa: E501


def test_the_tables_last_rows_are_open_ended() -> None:
    from affray.model.derive import save_vs_spell, thac0_for

    # 2e PH Table 60, "Spell": the warriors' last row is 17+ (6), the priests' 19+ (7), the rogues' 21+ (5), the
    # wizards' 21+ (4); a monster saves as a warrior of its Hit Dice. 100 HD, and 99+5 (counted 100), once ran off
    # the end of the rows (StopIteration) in every ruleset, after `check` had passed the file.
    assert save_vs_spell("monster", None, 100) == save_vs_spell("monster", None, "99+5") == 6
    assert [save_vs_spell(c, 40, None) for c in ("fighter", "cleric", "thief", "wizard")] == [6, 7, 5, 4]
    # 2e DMG Table 39: 16+ HD attack as THAC0 5; Table 38: a level 40 warrior's 21 - 40 is held at 1
    assert thac0_for("monster", None, 100) == 5 and thac0_for("fighter", 40, None) == 1


@pytest.mark.parametrize("ruleset", ["combat2-phase1", "combat2-phase2", "side-d6", "speed-segments", "phase-count",
                                     "d12-procedure"])
def test_what_check_passes_run_plays_at_the_tables_ends(tmp_path: Path, ruleset: str) -> None:
    path = write(tmp_path, BIG)
    code, out = cli("check", path, "--ruleset", ruleset)
    assert code == 0, out
    code, out = cli("run", path, "--ruleset", ruleset, "--auto", "--json")
    assert code == 0, out
    doc = json.loads(out)
    assert doc["winner"] in ("giants", "heroes", None) and set(doc["combatants"]) == {"Titan", "Elder", "Hero", "Sage",
                                                                                      "Abbot", "Rogue"}
    code, out = cli("simulate", path, "--ruleset", ruleset, "--fights", "3", "--workers", "1", "--json")
    assert code == 0, out
    assert json.loads(out)["fights"] == 3


def test_a_fight_kept_whole_is_bounded_in_blows_times_rounds(tmp_path: Path) -> None:
    path = write(tmp_path, SLOW)
    # SLOW: 2 x 100 x 10 = 2,000 blows a round; x 1,000 rounds = 2,000,000 > 250,000; 250,000 / 2,000 = 125 rounds
    message = (f"{path}: --max-rounds 1000: up to 2,000 blows a round x 1000 rounds is 2,000,000 blows in the fight: "
               "at most 250,000 (limit): --max-rounds 125 at most for this file")
    for command in ("run", "play", "drive"):
        start = time.perf_counter()
        code, out = cli(command, path, "--auto", "--max-rounds", "1000", "--db", tmp_path / "f.db") if command == \
            "play" else cli(command, path, "--auto", "--max-rounds", "1000")
        assert code == 2 and message in out, out
        assert time.perf_counter() - start < 5
    assert limits.MAX_FIGHT_BLOWS == 50 * limits.MAX_BLOWS == 250_000
