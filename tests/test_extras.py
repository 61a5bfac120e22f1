"""The core install and its extras (pyproject.toml): the core runs, checks, plays and drives a fight with none of
an extra's packages importable; a command that needs an extra says which one to install, exit 2, no traceback.

Each case runs the command line in a process where the extras' packages cannot be imported (``None`` in
``sys.modules``: Python's own way of blocking an import), as in an install without them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
#: Every top-level package an extra installs (affray.extras.EXTRA_OF), and what they bring with them.
EXTRAS = ("numpy", "pandas", "matplotlib", "icepool", "dask", "distributed", "fastapi", "starlette", "uvicorn",
          "jinja2", "multipart", "python_multipart", "qrcode")

PROBE = """
import sys
blocked = sys.argv[1].split(",") if sys.argv[1] else []
sys.modules.update(dict.fromkeys(blocked))
sys.argv = ["affray", *sys.argv[2:]]
from affray.cli.app import main
main()
"""


def affray(blocked: tuple[str, ...], *args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROBE, ",".join(blocked), *map(str, args)], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_the_core_runs_checks_plays_and_drives_without_any_extra(tmp_path: Path) -> None:
    assert affray(EXTRAS, "check", SKIRMISH).returncode == 0
    run = affray(EXTRAS, "run", SKIRMISH, "--auto", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["winner"] == "party"  # the shipped example, seed 7: the party wins (README)
    console = (SKIRMISH.parent / "skirmish.console").read_text(encoding="utf-8")
    played = affray(EXTRAS, "play", SKIRMISH, "--auto", "--db", tmp_path / "a.db", stdin=console)
    assert played.returncode == 0, played.stderr
    driven = affray(EXTRAS, "drive", SKIRMISH, "--auto", stdin="")
    assert driven.returncode == 0, driven.stderr
    assert json.loads(driven.stdout.splitlines()[-1])["end"]["winner"] == "party"


@pytest.mark.parametrize(("blocked", "args", "says"), [
    (("numpy",), ("simulate", SKIRMISH, "--fights", "10"), "simulating fights needs numpy"),
    (("numpy",), ("compare", SKIRMISH, "--fights", "10"), "simulating fights needs numpy"),
    (("matplotlib",), ("simulate", SKIRMISH, "--fights", "10", "--plot", "PLOT"), "--plot needs matplotlib"),
    (("icepool",), ("odds", "attack", "--thac0", "19", "--ac", "6", "--damage", "1d8"),
     "affray odds attack needs icepool"),
], ids=["simulate", "compare", "plot", "odds"])
def test_a_command_of_the_sim_extra_names_it(tmp_path: Path, blocked: tuple[str, ...], args: tuple[str | Path, ...],
                                             says: str) -> None:
    plot = tmp_path / "fights.png"
    done = affray(blocked, *[plot if a == "PLOT" else a for a in args])
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert says in done.stderr and "pip install 'affray[sim]'" in done.stderr, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stdout == "" and not plot.exists()  # refused before any fight, not after simulating them all


def test_the_scheduler_names_the_cluster_extra() -> None:
    done = affray(("distributed",), "simulate", SKIRMISH, "--fights", "10", "--scheduler", "tcp://127.0.0.1:1")
    assert done.returncode == 2
    assert "--scheduler needs distributed" in done.stderr and "pip install 'affray[cluster]'" in done.stderr


def test_serve_names_the_web_extra(tmp_path: Path) -> None:
    done = affray(EXTRAS, "serve", SKIRMISH, "--db", tmp_path / "a.db", "--port", "0")
    assert done.returncode == 2
    assert "affray serve needs" in done.stderr and "pip install 'affray[web]'" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_another_missing_module_is_an_internal_error_not_an_extra() -> None:
    # a module no extra installs (greenlet is the core's): no extra to name, the internal error's one line, exit 1
    done = affray(("greenlet",), "drive", SKIRMISH, "--auto", stdin="")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "internal error: ModuleNotFoundError" in done.stderr and "affray[" not in done.stderr
