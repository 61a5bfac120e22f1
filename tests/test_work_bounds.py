"""Work bounded before it starts (issue 32, the third hostile probe's "bounds" findings): what ``run`` cannot do is
refused by ``check``; a fight too heavy to schedule, dice too wide to convolve and a simulation of days are refused
(or, the simulation, asked for ``--yes``) with exit 2 in words; ``simulate`` stops on Ctrl-C with its workers, leaves
none behind when killed, and gives up on a Dask scheduler that cannot serve it.

The commands run in this process (typer's runner) where the exit status and the words are what is tested, and as a
real subprocess where the process matters (signals, the processes left behind).
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

from typer.testing import CliRunner

from affray import limits
from affray.cli.app import app

runner = CliRunner(env={"COLUMNS": "400"})  # one message, one line


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
