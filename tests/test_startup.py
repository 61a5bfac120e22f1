"""Start-up: what `affray run FILE` imports. A command pays only for what it uses: rich only to print, the driven
fight only to drive one, one ruleset, the one the fight is under, and of the command line only the command called
(the others' options are built when looked up, the workbench's module imported by its commands). Measured as
modules loaded, never as time (the benchmarks time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.core import TyperGroup
from typer.testing import CliRunner

from affray.cli.app import command_line
from affray.rulesets import RULESETS, find_ruleset, ruleset_ids

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"  # side-d6; dice 1d8, 1d6, 2d4+2...

PROBE = """
import io, json, sys
from contextlib import redirect_stdout
from affray.cli.app import main
out = io.StringIO()
sys.argv = ["affray", *sys.argv[1:]]
with redirect_stdout(out):
    try:
        main()
    except SystemExit as exc:
        assert not exc.code, exc.code
json.dump(sorted(m for m in sys.modules), sys.stderr)
"""


def loaded(*args: str | Path) -> set[str]:
    """The modules loaded by ``affray ARGS``, run in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], capture_output=True, text=True, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def under(modules: set[str], *packages: str) -> set[str]:
    """The modules of ``modules`` that are one of ``packages`` or inside one."""
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


def test_the_registry_names_each_ruleset_by_its_own_id() -> None:
    assert [r.id for r in RULESETS] == ruleset_ids()
    assert all(find_ruleset(r.id) is r for r in RULESETS)


def test_run_json_loads_neither_rich_nor_the_driven_fight_nor_other_rulesets() -> None:
    modules = loaded("run", EXAMPLE, "--json")
    assert "affray.rulesets.side_d6" in modules
    assert not under(modules, "rich", "greenlet", "affray.drive", "affray.play")
    others = {"combat2_phase1", "combat2_phase2", "speed_segments", "phase_count", "d12_procedure"}
    assert not {m for m in modules if m.removeprefix("affray.rulesets.") in others}


@pytest.mark.parametrize("args", [("--json",), ("--auto",)], ids=["json", "text"])
def test_run_loads_neither_the_workbench_nor_a_process_pool(args: tuple[str, ...]) -> None:
    """simulate, compare and odds (cli/sim.py) and what they run on are not `run`'s to import."""
    modules = loaded("run", EXAMPLE, *args)
    assert "affray.api" in modules
    assert not under(modules, "affray.cli.sim", "affray.sim", "affray.odds", "concurrent.futures",
                     "multiprocessing", "icepool", "numpy", "pandas", "dask", "matplotlib")


def test_a_command_without_a_file_loads_no_yaml_reader_and_no_engine() -> None:
    modules = loaded("learn", "--level", "3")
    assert not under(modules, "ruamel", "affray.io", "affray.engine", "affray.api", "affray.cli.sim", "rich")


# The command line that ``main`` runs builds a command when it is looked up; whatever is asked of it (help at any
# width, a usage error, a typo, a command), it answers as typer's own group of ``app`` (every command built at once).
ASKED = [(), ("--help",), ("rnu",), ("odds",), ("odds", "frist"), ("run",), ("run", str(EXAMPLE), "--bogus"),
         ("run", str(EXAMPLE), "--json", "--seed", "3", "--auto"), ("learn", "--level", "3"),
         *[(c, "--help") for c in ("rulesets", "new", "examples", "check", "run", "play", "drive", "serve", "games",
                                   "log", "mana", "learn", "simulate", "compare", "odds")],
         *[("odds", c, "--help") for c in ("first", "spell", "attack")]]


def _answer(cli: TyperGroup, args: tuple[str, ...], columns: str) -> tuple[int, str, str]:
    runner = CliRunner()
    with runner.isolation(env={"COLUMNS": columns}) as (out, err, _mixed):
        try:
            cli.main(args=list(args), prog_name="affray")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        return code, out.getvalue().decode(), err.getvalue().decode()


@pytest.mark.parametrize("columns", ["100", "200"])
def test_the_lazy_command_line_answers_as_typers_own(columns: str) -> None:
    from affray.cli.app import app

    eager = typer.main.get_group(app)
    for args in ASKED:
        assert _answer(command_line(), args, columns) == _answer(eager, args, columns), args


def test_the_command_table_names_every_command_in_typers_order() -> None:
    from affray.cli.app import app

    assert list(command_line().commands) == list(typer.main.get_group(app).commands)
