"""The newcomer's commands: ``affray rulesets [ID]``, ``affray new``, ``affray examples``, the command lines a user
types (run in the test's own process: tests/cli_run.py).

Bad input exits 2 with a message naming what is wrong and what to do, never a traceback (CONTRACT.md "Exit
status")."""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

import affray
import affray.examples
from affray.engine.options import BaseOptions, option_info
from affray.rulesets import RULESETS
from cli_run import affray_here

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "src" / "affray" / "examples"
IDS = [r.id for r in RULESETS]


def affray_cmd(*args: str | Path, cwd: Path | None = None, columns: int = 100) -> subprocess.CompletedProcess[str]:
    return affray_here(*args, cwd=cwd, env={"COLUMNS": str(columns)})


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, (done.stdout, done.stderr)
    return done.stdout


def bad_input(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.strip() and "Traceback" not in done.stderr + done.stdout
    return done.stderr


def yaml_value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


# ------------------------------------------------------------------------------------------ rulesets

def _blocks(text: str) -> dict[str, str]:
    """``affray rulesets``'s text cut into each ruleset's block (from its id line to the next blank line)."""
    out: dict[str, str] = {}
    for block in text.split("\n\n"):
        first = block.split()[0] if block.split() else ""
        if first in IDS:
            out[first] = " ".join(block.split())  # wrapped lines joined
    return out


def test_rulesets_is_compact_and_gives_every_option_with_its_default() -> None:
    text = ok(affray_cmd("rulesets"))
    assert len(text.splitlines()) <= 10 * len(IDS)  # it was 412 lines for six: a few lines per ruleset now
    blocks = _blocks(text)
    assert list(blocks) == IDS
    footer = " ".join(text.split("\n\n")[-1].split())
    assert footer.startswith("Every ruleset also has:")
    for r in RULESETS:
        assert f"(seed {r.seed})" in blocks[r.id] and " ".join(r.title.split()) in blocks[r.id]
        for info in option_info(r.Options):
            # every option with its default: in the ruleset's block, or once for all in the footer
            said = f"{info.name}={yaml_value(info.default)}"
            assert said in blocks[r.id].split() or said in footer.split(), (r.id, said)
        for key in r.declaration_keys:
            assert key in blocks[r.id].split(), (r.id, key)


def test_rulesets_defaults_as_the_rules_decide_them() -> None:
    blocks = _blocks(ok(affray_cmd("rulesets")))
    # G-07: 2d6 for side-d6, speed-segments, d12-procedure; 2d10 for combat2-* and phase-count
    for rid in ("side-d6", "speed-segments", "d12-procedure"):
        assert "morale_dice=2d6" in blocks[rid].split()
    for rid in ("combat2-phase1", "combat2-phase2", "phase-count"):
        assert "morale_dice=2d10" in blocks[rid].split()
    assert "melee_disrupts=false" in blocks["side-d6"].split()      # MJ-06: default off
    assert "duration_scale=tactical" in blocks["phase-count"].split()  # PC-12: default tactical
    assert "caster_delay_by_level=false" in blocks["combat2-phase2"].split()  # P2-06: default off


def test_rulesets_json_still_lists_every_ruleset_with_every_option() -> None:
    doc = json.loads(ok(affray_cmd("rulesets", "--json")))
    assert [r["id"] for r in doc["rulesets"]] == IDS
    for r, cls in zip(doc["rulesets"], RULESETS, strict=True):
        assert [o["name"] for o in r["options"]] == [i.name for i in option_info(cls.Options)]
        assert set(r) == {"id", "title", "seed", "options", "declaration_keys", "package", "version"}
        assert (r["package"], r["version"]) == ("affray", affray.__version__)  # CONTRACT.md "Extensions"


@pytest.mark.parametrize("rid", IDS)
def test_rulesets_id_shows_one_ruleset_in_full(rid: str) -> None:
    cls = next(r for r in RULESETS if r.id == rid)
    text = ok(affray_cmd("rulesets", rid))
    lines = text.splitlines()
    assert lines[0] == f"{rid}: {cls.title}"
    assert f"docs/rulesets/{rid}.md" in lines[1] and f"seed {cls.seed}" in lines[1]
    assert "  1. " in text and "Durations: " in text
    for other in IDS:
        if other != rid:
            assert not any(line.startswith(f"{other}:") for line in lines)
    for info in option_info(cls.Options):
        line = next(x for x in lines if x.startswith(f"  {info.name} = "))
        assert line.startswith(f"  {info.name} = {yaml_value(info.default)}")
        assert f"({info.rule})" in line
        if info.choices:
            assert f"[{' | '.join(map(yaml_value, info.choices))}]" in line
    for key in cls.declaration_keys:
        assert any(x.startswith(f"  {key}: ") for x in lines), key


def test_rulesets_id_puts_the_rulesets_own_options_before_every_rulesets() -> None:
    text = ok(affray_cmd("rulesets", "side-d6"))
    own, _, shared = text.partition("Options of every ruleset:")
    assert "  melee_disrupts = false  (MJ-06)" in own        # MJ-06, side-d6's own
    assert "  natural_20 = true  (G-04)" in shared            # G-04, every ruleset's
    assert "natural_20" not in own


@pytest.mark.parametrize("rid", IDS)
def test_rulesets_id_json(rid: str) -> None:
    cls = next(r for r in RULESETS if r.id == rid)
    doc = json.loads(ok(affray_cmd("rulesets", rid, "--json")))
    listed = next(r for r in json.loads(ok(affray_cmd("rulesets", "--json")))["rulesets"] if r["id"] == rid)
    assert {k: doc[k] for k in listed} == listed  # the list's entry, and more
    assert doc["docs"] == f"docs/rulesets/{rid}.md"
    assert doc["rules"] == cls.rule_ids
    assert doc["procedure"]["steps"] and all(isinstance(s, str) for s in doc["procedure"]["steps"])
    assert doc["durations"]


def test_rulesets_unknown_id_exits_2_naming_the_known_ones() -> None:
    err = bad_input(affray_cmd("rulesets", "round-robin"))
    assert "round-robin" in err
    for rid in IDS:
        assert rid in err
    bad_input(affray_cmd("rulesets", "round-robin", "--json"))


def test_every_ruleset_has_a_procedure_citing_its_own_rules() -> None:
    from affray.cli.guide import PROCEDURES

    assert set(PROCEDURES) == set(IDS)
    for cls in RULESETS:
        _unit, steps, clock = PROCEDURES[cls.id]
        prefixes = [p.strip() + "-" for p in cls.rule_ids.split(",")]
        cited = " ".join(steps) + " " + clock
        assert any(p in cited for p in prefixes), cls.id


# ---------------------------------------------------------------------------------------------- new

def test_new_writes_the_starter_naming_the_file_in_its_commands(tmp_path: Path) -> None:
    out = ok(affray_cmd("new", "myfight.yaml", cwd=tmp_path))
    assert "myfight.yaml" in out and "affray check myfight.yaml" in out
    text = (tmp_path / "myfight.yaml").read_text(encoding="utf-8")
    starter = (EXAMPLES / "first_fight.yaml").read_text(encoding="utf-8")
    head = text.split("\n\n")[0].splitlines()
    assert "#   affray check myfight.yaml" in head[2] and "FILE" not in text.split("\n\n")[0]
    # the commands' descriptions stay in one column
    columns = {re.match(r"#   affray .*?\s{2,}(\S)", line).start(1) for line in head[2:6]}  # type: ignore[union-attr]
    assert len(columns) == 1
    assert text.split("\n\n", 1)[1] == starter.split("\n\n", 1)[1]  # everything below the heading as shipped


def test_new_without_path_prints_the_starter() -> None:
    assert ok(affray_cmd("new")) == (EXAMPLES / "first_fight.yaml").read_text(encoding="utf-8")


def test_new_refuses_to_overwrite_unless_forced(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("sides: {}\n", encoding="utf-8")
    err = bad_input(affray_cmd("new", path))
    assert str(path) in err and "--force" in err
    assert path.read_text(encoding="utf-8") == "sides: {}\n"  # untouched
    ok(affray_cmd("new", path, "--force"))
    assert path.read_text(encoding="utf-8").startswith("# Your first fight")


def test_new_into_a_directory_or_a_missing_one_exits_2(tmp_path: Path) -> None:
    assert "is a directory" in bad_input(affray_cmd("new", tmp_path))
    assert "no directory" in bad_input(affray_cmd("new", tmp_path / "nowhere" / "f.yaml"))


def test_new_quotes_a_path_with_a_space_in_its_commands(tmp_path: Path) -> None:
    ok(affray_cmd("new", "my fight.yaml", cwd=tmp_path))
    assert "#   affray check 'my fight.yaml'" in (tmp_path / "my fight.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("new")
    ok(affray_cmd("new", "start.yaml", cwd=where))
    return where / "start.yaml"


@pytest.mark.parametrize("rid", IDS)
def test_the_starter_checks_and_runs_to_the_end_under_every_ruleset(starter: Path, rid: str) -> None:
    summary = ok(affray_cmd("check", starter, "--ruleset", rid))
    # 2 sides; Brom, Mina, Goblin 1-4 and the Goblin chief: 7; Brom 2 + Mina 1 + Goblin 1 + Goblin 2 = 5
    assert summary.strip() == f"{starter}: ok: 2 sides, 7 combatants, 5 declarations, ruleset {rid}"
    doc = json.loads(ok(affray_cmd("run", starter, "--ruleset", rid, "--auto", "--json")))
    assert doc["ruleset"] == rid and doc["seed"] == 7
    assert doc["winner"] in ("party", "goblins")  # --auto plays on until one side stands
    casts = [e for e in doc["events"] if e["kind"] == "cast" and e["actor"] == "Mina"]
    asleep = [e for e in doc["events"] if e["kind"] == "condition" and e.get("condition") == "asleep"]
    ruined = [e for e in doc["events"] if e["kind"] in ("spell-ruined", "spell-lost") and e["actor"] == "Mina"]
    # sleep goes off and puts goblins to sleep, or was ruined on the way (a blow while casting)
    assert (casts and asleep) or ruined, rid


# ----------------------------------------------------------------------------------------- examples

def _shipped() -> list[str]:
    return sorted(p.name for p in EXAMPLES.iterdir() if p.suffix in (".yaml", ".console"))


def test_examples_lists_every_shipped_file_with_a_description() -> None:
    text = ok(affray_cmd("examples"))
    lines = text.splitlines()[1:]
    named = [line.split()[0] for line in lines if line.startswith("  ") and not line.startswith("   ")]
    assert named == _shipped()
    for name in _shipped():
        line = next(x for x in lines if x.split()[0] == name)
        assert len(line.split()) > 3  # a description follows the name
    assert "first_fight.yaml" in named and "skirmish.yaml" in named


def test_examples_name_prints_the_file_exactly() -> None:
    skirmish = (EXAMPLES / "skirmish.yaml").read_text(encoding="utf-8")
    assert ok(affray_cmd("examples", "skirmish.yaml")) == skirmish
    assert ok(affray_cmd("examples", "skirmish")) == skirmish  # the stem names the encounter, not the .console
    console = (EXAMPLES / "skirmish.console").read_text(encoding="utf-8")
    assert ok(affray_cmd("examples", "skirmish.console")) == console


def test_examples_unknown_name_exits_2_listing_them() -> None:
    err = bad_input(affray_cmd("examples", "dragons"))
    assert "dragons" in err
    for name in _shipped():
        assert name in err


def test_examples_copy_copies_them_and_refuses_to_overwrite(tmp_path: Path) -> None:
    dest = tmp_path / "mine"
    out = ok(affray_cmd("examples", "--copy", dest))
    assert sorted(p.name for p in dest.iterdir()) == _shipped()
    assert len(out.splitlines()) == len(_shipped())
    for name in _shipped():
        assert (dest / name).read_bytes() == (EXAMPLES / name).read_bytes()
    (dest / "skirmish.yaml").write_text("changed\n", encoding="utf-8")
    err = bad_input(affray_cmd("examples", "skirmish", "--copy", dest))
    assert "skirmish.yaml" in err and "--force" in err
    assert (dest / "skirmish.yaml").read_text(encoding="utf-8") == "changed\n"
    ok(affray_cmd("examples", "skirmish", "--copy", dest, "--force"))
    assert (dest / "skirmish.yaml").read_bytes() == (EXAMPLES / "skirmish.yaml").read_bytes()


def test_examples_copy_into_a_file_and_force_alone_exit_2(tmp_path: Path) -> None:
    file = tmp_path / "f.yaml"
    file.write_text("x\n", encoding="utf-8")
    assert "not a directory" in bad_input(affray_cmd("examples", "--copy", file))
    assert "--copy" in bad_input(affray_cmd("examples", "--force"))


def test_copied_example_runs(tmp_path: Path) -> None:
    ok(affray_cmd("examples", "skirmish", "--copy", ".", cwd=tmp_path))
    ok(affray_cmd("check", "skirmish.yaml", cwd=tmp_path))


def test_every_example_is_package_data() -> None:
    """``pip install .`` installs the examples: every shipped file matches a package-data pattern."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    patterns = [f"affray/{p}" for p in config["package-data"]["affray"]]
    for name in _shipped():
        assert any(fnmatch(f"affray/examples/{name}", p) for p in patterns), name


def test_the_package_docstrings_run() -> None:
    """The docstrings' examples (affray's opening one named a path that does not exist)."""
    for module in (affray, affray.examples):
        failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tried and not failed, module.__name__


def test_rulesets_footer_holds_every_base_option() -> None:
    from affray.cli.guide import _shared

    # every ruleset keeps BaseOptions' defaults today: all ten are shown once, in the footer
    assert [i.name for i in _shared()] == [i.name for i in option_info(BaseOptions)]
