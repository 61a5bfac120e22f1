"""The compiled build (mypyc, setup.py) writes the bytes of the pure one: ``affray run --json`` of every example
and benchmark file under every ruleset, many seeds, with and without ``--auto``, and some options set.

Skipped, saying so, where affray is installed as pure Python (the default): one build, nothing to compare. The
compiled build is installed with ``AFFRAY_COMPILE=1 pip install .``; ``.ci/run`` runs this test on its wheel.
Speed is measured by ``benchmarks/bench_builds.py``, never here.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "src" / "affray" / "examples").glob("*.yaml")) + sorted((ROOT / "benchmarks").glob("*.yaml"))
RULESETS = ("combat2-phase1", "combat2-phase2", "side-d6", "speed-segments", "phase-count", "d12-procedure")
#: Options that change much of a fight, each set under every ruleset (all of them are base options).
SETS = ((), ("crits=c2-tables",), ("crits=c2-severity", "crit_phase=round"), ("spells=mana", "agility=true"),
        ("strength=2e", "morale_failure=surrender"))


def compiled() -> bool:
    from affray.engine import fight

    return fight.__file__ is not None and not fight.__file__.endswith(".py")


def digest(file: str, ruleset: str, seed: int, auto: bool, sets: list[str]) -> str:
    """The sha256 of the case's ``--json`` (or of its error's words), through the command's own code."""
    from affray.cli.app import _prepare
    from affray.errors import AffrayError
    from affray.io.timeline import timeline_json

    try:
        prepared, _options, _text = _prepare(Path(file), ruleset, seed, sets)
        out = timeline_json(prepared.fight(auto=auto, max_rounds=50).run())
    except AffrayError as exc:
        out = f"error: {exc}"
    return hashlib.sha256(out.encode()).hexdigest()


def cases() -> list[tuple[str, str, int, bool, list[str]]]:
    out = [(str(f), r, seed, auto, []) for f in FILES for r in RULESETS for seed in range(8) for auto in (False, True)]
    out += [(str(ROOT / "benchmarks" / "fighters_vs_orcs.yaml"), r, seed, True, list(s))
            for r in RULESETS for s in SETS[1:] for seed in range(4)]
    return out


@pytest.mark.skipif(not compiled(), reason="the pure build is installed: no compiled build to compare it with "
                    "(AFFRAY_COMPILE=1 pip install . installs the compiled one)")
@pytest.mark.parametrize("ruleset", RULESETS)  # one test a ruleset: xdist's workers share them
def test_compiled_build_writes_the_pure_builds_bytes(ruleset: str) -> None:
    all_cases = [case for case in cases() if case[1] == ruleset]
    pure = subprocess.run([sys.executable, str(Path(__file__).with_name("pure_build.py"))], cwd=ROOT,
                          input=json.dumps(all_cases), capture_output=True, text=True, check=True).stdout.split()
    here = [digest(*case) for case in all_cases]
    differ = [case for case, a, b in zip(all_cases, here, pure, strict=True) if a != b]
    assert not differ, f"{len(differ)} of {len(all_cases)} cases differ between the builds, e.g. {differ[:3]}"


def test_the_simulators_records_go_to_a_worker_process_and_back() -> None:
    """A batch's records are made in a pool's worker and read in `simulate` (pickled): each comes back equal to
    itself, in either build. The compiled build's could not be unpickled (FrozenInstanceError: mypyc's frozen
    dataclass refused its fields set again one by one), and `simulate --rows` lost every batch of its workers."""
    import pickle

    from affray.sim.runner import plan, run_batch

    job = plan(ROOT / "src" / "affray" / "examples" / "skirmish.yaml", rulesets="combat2-phase1", fights=5, seed=3,
               keep=True).jobs[0]
    records = run_batch(job).records
    assert len(records) == 5 and any(c.castings for r in records for c in r.combatants)  # every kind of record
    assert pickle.loads(pickle.dumps(records)) == records


def test_simulate_writes_its_rows_from_two_workers(tmp_path: Path) -> None:
    """`affray simulate skirmish.yaml --fights 200 --workers 2 --rows r.csv` as a user runs it, in the build that is
    installed (.ci/run runs this on the compiled wheel): 200 fights of nine combatants, 1,800 rows, exit 0. Before,
    the compiled build exited 1 (BrokenProcessPool)."""
    import csv

    rows = tmp_path / "r.csv"
    done = subprocess.run([sys.executable, "-m", "affray", "simulate", str(ROOT / "src" / "affray" / "examples" /
                                                                         "skirmish.yaml"),
                           "--fights", "200", "--workers", "2", "--seed", "1", "--rows", str(rows)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with rows.open(encoding="utf-8") as f:
        assert sum(1 for _ in csv.DictReader(f)) == 200 * 9
