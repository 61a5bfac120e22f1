"""Start-up: what `affray run FILE --json` imports. A command pays only for what it uses: d20's grammar (built at
import) only for a dice string beyond a plain sum, rich only to print, the driven fight only to drive one, and
one ruleset, the one the fight is under. Measured as modules loaded, never as time (the benchmarks time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from affray.rulesets import RULESETS, find_ruleset, ruleset_ids

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import io, json, sys
from contextlib import redirect_stdout
from affray.cli.app import main
out = io.StringIO()
sys.argv = ["affray", "run", sys.argv[1], "--json"]
with redirect_stdout(out):
    try:
        main()
    except SystemExit as exc:
        assert not exc.code, exc.code
json.dump(sorted(m for m in sys.modules), sys.stderr)
"""


def test_the_registry_names_each_ruleset_by_its_own_id() -> None:
    assert [r.id for r in RULESETS] == ruleset_ids()
    assert all(find_ruleset(r.id) is r for r in RULESETS)


def test_run_json_loads_neither_d20_rich_nor_the_driven_fight_nor_other_rulesets() -> None:
    example = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"  # side-d6; dice 1d8, 1d6, 2d4+2...
    done = subprocess.run([sys.executable, "-c", PROBE, str(example)], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stderr.strip().splitlines()[-1]))
    assert "affray.rulesets.side_d6" in loaded
    assert not {m for m in loaded if m == "d20" or m.startswith(("d20.", "rich", "greenlet", "affray.drive",
                                                                   "affray.play"))}
    others = {"combat2_phase1", "combat2_phase2", "speed_segments", "phase_count", "d12_procedure"}
    assert not {m for m in loaded if m.removeprefix("affray.rulesets.") in others}
