"""CONTRACT.md "Extensions" (issue 40's first done-when): a package written here, in a temporary folder, with its
own pyproject.toml and entry points (``tests/thirdparty.py``), adds a ruleset (``gentle-d6``) and an extension
(``stagger``: option ``stagger.on``, condition ``staggered``); ``affray rulesets``, ``run``, ``check``, ``serve``
(the page's application built, one request) and ``simulate`` use them, each in a process of its own that finds the
package on PYTHONPATH as it would find one pip installed. A broken one is named with its package and error, and
the rest of affray still works. Nothing is installed into the venv: the temporary folder goes with the test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from thirdparty import installed

#: Brom's maul (2d6+2) does 4-14: a hit of 5 or more staggers (ST-01 of the package) with the option on.
FIGHT = """\
ruleset: gentle-d6
seed: 3
options: {stagger.on: true}
sides:
  party:
    combatants:
      - {name: Brom, class: fighter, level: 6, hp: 40, ac: 3, weapons: [{name: maul, damage: 2d6+2}]}
  orcs:
    combatants:
      - {name: Orc, count: 2, hd: 3, hp: 20, ac: 6, weapons: [{name: club, damage: 1d6}]}
"""


@pytest.fixture(scope="module")
def third(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The package (broken parts included) and the environment that finds it; the fight's file beside it."""
    tmp = tmp_path_factory.mktemp("thirdparty")
    where = installed(tmp, broken=True)
    (tmp / "fight.yaml").write_text(FIGHT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(where), "COLUMNS": "100"}
    return tmp, env


def affray(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "affray", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=120)


def test_rulesets_lists_the_packages_ruleset_and_extension_with_package_and_version(third: tuple[Path, dict]) -> None:
    _, env = third
    done = affray(env, "rulesets", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    listed = {r["id"]: (r["package"], r["version"]) for r in doc["rulesets"]}
    assert listed["gentle-d6"] == ("affray-stagger", "1.4.2")
    assert listed["side-d6"][0] == "affray"  # the built-ins come through the same group
    [stagger] = [x for x in doc["extensions"] if x["name"] == "stagger"]
    assert (stagger["package"], stagger["version"]) == ("affray-stagger", "1.4.2")
    assert [o["name"] for o in stagger["options"]] == ["stagger.on"]
    assert stagger["conditions"] == {"staggered": "-2 to attack"}
    assert {"name": "stagger-first", "package": "affray-stagger", "version": "1.4.2"} in doc["policies"]
    # the extension whose module is missing: named with its package and error, the rest listed
    [shattered] = [b for b in doc["broken"] if b["name"] == "shattered"]
    assert shattered["package"] == "affray-stagger"
    assert "No module named 'affray_stagger.missing'" in shattered["error"]
    text = affray(env, "rulesets").stdout
    assert "gentle-d6  (seed 001)" in text and "[affray-stagger 1.4.2]" in text
    assert "stagger.on=false" in text
    assert "cannot be used: extension 'shattered'" in " ".join(text.split())


def test_check_reads_the_namespaced_option_and_refuses_an_unknown_one(third: tuple[Path, dict]) -> None:
    tmp, env = third
    done = affray(env, "check", str(tmp / "fight.yaml"))
    assert done.returncode == 0, done.stderr
    assert "ruleset gentle-d6" in done.stdout
    bad = tmp / "bad.yaml"
    bad.write_text(FIGHT.replace("stagger.on", "stagger.of"), encoding="utf-8")
    done = affray(env, "check", str(bad))
    assert done.returncode == 2
    assert "options.stagger.of" in done.stderr and "valid options: stagger.on" in done.stderr
    assert "Traceback" not in done.stderr


def test_run_plays_the_packages_ruleset_with_its_rule_and_condition(third: tuple[Path, dict]) -> None:
    tmp, env = third
    done = affray(env, "run", str(tmp / "fight.yaml"), "--auto", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["ruleset"] == "gentle-d6"
    staggered = [e for e in doc["events"] if e["kind"] == "condition" and e["condition"] == "staggered"]
    assert staggered and all(e["rule"] == "ST-01" for e in staggered)
    # ST-01: only a melee hit of 5 or more staggers; the event names its damage in its why
    for e in staggered:
        hit = next(x for x in reversed(doc["events"][:e["seq"]]) if x["kind"] == "melee")
        assert hit["hit"] and hit["damage"] >= 5 and hit["target"] == e["target"]
    # the condition does what it says: an attack by the staggered before it ends shows its -2 (G-09's table)
    text = affray(env, "run", str(tmp / "fight.yaml"), "--auto").stdout
    assert "-2 (Orc 1 staggered, ST-01)" in text or "-2 (Orc 2 staggered, ST-01)" in text
    # without the option, the package's rule does nothing: the fight is side-d6's, byte for byte
    off = affray(env, "run", str(tmp / "fight.yaml"), "--auto", "--json", "--set", "stagger.on=false")
    side = affray(env, "run", str(tmp / "fight.yaml"), "--auto", "--json", "--ruleset", "side-d6",
                  "--set", "stagger.on=false")
    assert json.loads(off.stdout)["events"] == json.loads(side.stdout)["events"]
    assert "staggered" not in off.stdout


def test_simulate_runs_the_packages_ruleset_and_sweeps_its_option(third: tuple[Path, dict]) -> None:
    tmp, env = third
    done = affray(env, "simulate", str(tmp / "fight.yaml"), "--fights", "20", "--seed", "1", "--workers", "2",
                  "--ruleset", "gentle-d6,side-d6", "--set", "stagger.on=true,false", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    text = json.dumps(doc)
    assert "gentle-d6" in text and "stagger.on" in text


def test_serve_builds_the_page_for_a_fight_under_the_packages_ruleset(third: tuple[Path, dict]) -> None:
    tmp, env = third
    script = textwrap.dedent("""\
        from fastapi.testclient import TestClient
        from affray.api import prepare
        from affray.io.load import load_text
        from affray.web.app import make_app
        from affray.web.security import BodyLimit
        from affray.web.serve import Opening, close_served, open_served

        text = open("fight.yaml", encoding="utf-8").read()
        prepared = prepare(load_text(text, "fight.yaml"))
        served = open_served(Opening("fight.db", ("fight.yaml", text, prepared.ruleset.id, prepared.seed, {}, False,
                                                  50)))
        try:
            with TestClient(BodyLimit(make_app(served)), base_url="http://127.0.0.1:8000") as c:
                page = c.get("/t/" + served.tokens.referee.token)
                print(page.status_code)
                print(page.text)
        finally:
            close_served(served)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    status, _, html = done.stdout.partition("\n")
    assert status == "200"
    assert "gentle-d6" in html


def test_a_broken_extension_leaves_every_other_command_working(third: tuple[Path, dict]) -> None:
    """The package's ``shattered`` cannot be imported: a fight that does not name it runs; one that does is told
    which package and what error (exit 2, no traceback)."""
    tmp, env = third
    assert affray(env, "run", str(tmp / "fight.yaml"), "--auto").returncode == 0
    done = affray(env, "run", str(tmp / "fight.yaml"), "--auto", "--set", "shattered.on=true")
    assert done.returncode == 2
    assert "affray-stagger 1.4.2" in done.stderr and "No module named 'affray_stagger.missing'" in done.stderr
    assert "Traceback" not in done.stderr
