"""The conformance kit (``affray.conformance``, ``affray rulesets --check NAME``; CONTRACT.md "Extensions"): every
built-in ruleset passes every property; a third party's ruleset that breaks one (``tests/thirdparty.py``'s
``restless-d6``, whose initiative ignores the seed) fails, the failure naming the property; a kit whose property
could not fail would prove nothing, so the hidden-information checker is shown failing on the referee's view."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from affray.conformance import PROPERTIES, Failure, check_property, chosen_rulesets
from affray.rulesets import RULESETS
from thirdparty import installed


@pytest.mark.parametrize("prop", [p.name for p in PROPERTIES])
@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_every_built_in_ruleset_passes_the_kit(ruleset: str, prop: str) -> None:
    check_property(prop, ruleset)


def test_the_kit_runs_as_pytest_on_a_package_s_ruleset(tmp_path: Path) -> None:
    """``python -m pytest --pyargs affray.conformance`` in a package's own CI, its ruleset chosen by
    AFFRAY_CONFORMANCE: six properties, six tests, all passing for gentle-d6 (side-d6 under another id)."""
    env = {**os.environ, "PYTHONPATH": str(installed(tmp_path)), "AFFRAY_CONFORMANCE": "gentle-d6"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "--pyargs",
                           "affray.conformance", "-o", "addopts=", "-q"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(PROPERTIES)} passed" in done.stdout


def test_check_fails_a_broken_ruleset_naming_the_property(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(installed(tmp_path, broken=True))}
    done = subprocess.run([sys.executable, "-m", "affray", "rulesets", "--check", "restless-d6", "--json"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    # its initiative (and surprise) dice come from an unseeded generator: two runs differ, a drive differs from a
    # run, a rebuilt fight differs from the one played; what draws and hides still holds
    assert doc["failed"] == ["same-bytes", "drive-equals-run", "undo-and-resume"]
    assert doc["properties"]["same-bytes"].startswith("seed 1: two runs of the same file differ")
    text = subprocess.run([sys.executable, "-m", "affray", "rulesets", "--check", "restless-d6"], capture_output=True,
                          text=True, env=env, timeout=300)
    assert text.returncode == 1
    assert "restless-d6: same-bytes: FAILED: seed 1" in text.stdout
    assert text.stdout.rstrip().endswith("restless-d6: fails same-bytes, drive-equals-run, undo-and-resume")
    ok = subprocess.run([sys.executable, "-m", "affray", "rulesets", "--check", "gentle-d6"], capture_output=True,
                        text=True, env=env, timeout=300)
    assert ok.returncode == 0 and "gentle-d6: conforms: all 6 properties hold" in ok.stdout


def test_hidden_information_fails_a_page_that_shows_the_foes_hit_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee's view shows every hit point: given to the players in its place, the property fails."""
    import affray.web.views as views

    monkeypatch.setattr(views, "player_view", lambda table, pc, rev: views.referee_view(table, rev))
    with pytest.raises(Failure) as failed:
        check_property("hidden-information", "side-d6")
    assert failed.value.prop == "hidden-information"
    assert "hit points" in failed.value.detail


def test_the_rulesets_the_kit_runs_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFFRAY_CONFORMANCE", "side-d6, d12-procedure")
    assert chosen_rulesets() == ["side-d6", "d12-procedure"]
    monkeypatch.delenv("AFFRAY_CONFORMANCE")
    assert chosen_rulesets() == [r.id for r in RULESETS]
