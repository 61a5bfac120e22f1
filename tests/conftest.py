"""Shared fixtures: the shipped example and a way to run YAML text under a ruleset."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from affray import load_text, run, timeline_dict

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples"


@pytest.fixture
def skirmish_path() -> Path:
    return EXAMPLES / "skirmish.yaml"


def run_yaml(text: str, ruleset: str = "side-d6", **kwargs: Any) -> dict[str, Any]:
    """Run an encounter given as YAML text; the CONTRACT.md timeline as a dict."""
    return timeline_dict(run(load_text(text), ruleset=ruleset, **kwargs))


# The page's links are sealed under a key in the user's data folder (affray.table.links): the suite keeps its own,
# in a folder of this run's (the processes it starts inherit it), never the machine's user's.
os.environ["AFFRAY_DATA"] = tempfile.mkdtemp(prefix="affray-data-")
atexit.register(shutil.rmtree, os.environ["AFFRAY_DATA"], True)

# Hypothesis draws each test's examples from a seed fixed by the test's name: the suite passes or fails the same
# way on every machine and every run, CI's included (a corner it finds is found again, never by luck on one run).
# AFFRAY_HYPOTHESIS=explore draws new examples on each run, for a search beyond them.
settings.register_profile("affray", derandomize=os.environ.get("AFFRAY_HYPOTHESIS") != "explore")
settings.load_profile("affray")

# The budget of the fuzz tests (tests/test_fuzz.py): a few hundred examples in CI, well under a minute;
# AFFRAY_FUZZ_PROFILE=fuzz-hunt for a long search.
settings.register_profile("fuzz", settings.get_profile("affray"), max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("fuzz-hunt", settings.get_profile("fuzz"), max_examples=2000)


#: The modules whose tests start processes (``affray`` as a user runs it, a console in a terminal, a process pool),
#: a server, a Dask cluster or a browser, or play many whole fights: marked ``slow`` (pyproject.toml's markers),
#: so that ``pytest -m "not slow"`` runs the rules' tests in a minute or so, and ``-m slow`` the rest.
SLOW_MODULES = frozenset({
    "test_builds", "test_d12_procedure_drive", "test_drive_cli", "test_extras", "test_fuzz",
    "test_hostile_input", "test_odds", "test_play", "test_play_asked", "test_play_shared_db", "test_play_terminal",
    "test_readme_walkthrough", "test_simulate", "test_startup", "test_web_browser", "test_web_security",
    "test_table_lines", "test_web_screens", "test_nothing_lost", "test_saved_fights", "test_drive_equals_run",
    "test_simulate_timing", "test_drive_inputs", "test_work_bounds", "test_at_rest", "test_outputs_and_inputs",
    "test_workers_fail",
})


#: The longest tests, tens of seconds each (most of it waiting on the processes, servers and browsers they start),
#: queued first and longest first, each entry a node id's start (the figures: wall seconds in CI, three workers
#: on two cores). With ``--dist load --maxschedchunk 1`` (pyproject.toml) a worker holds one test beside the one it
#: runs and takes the next from the queue as it finishes: the long ones spread over the workers as they free up and
#: the quick ones fill in after, where ``worksteal`` handed the first third of the queue (every long test) to one
#: worker, whose last long tests ran alone at the end for a minute and a half.
LONGEST = (
    "test_nothing_lost.py::test_a_kill_at_30_random_moments",   # 55-70 s each of three
    "test_nothing_lost.py::test_a_kill_between_any_two_rows",   # 13-32 s
    "test_outputs_and_inputs.py::test_rows_are_written_as_they_come_not_kept",  # 40 s (traced memory, here)
    "test_workers_fail.py::test_a_dask_cluster",                # 35 s (10 s of it the limit it checks)
    "test_fuzz.py::",                                           # 21-27 s
    "test_web_screens.py::test_every_screen_fits",              # 20-23 s (issue 44's 16 combatants: 41-62 s on a
                                                                #   machine loaded 3-5 times over, CI not yet seen)
    "test_web_browser.py::",                                    # 14-22 s
    "test_play_asked.py::",                                     # 8-15 s
    "test_play_terminal.py::test_sigkill_mid_fight",            # 15 s
    "test_table_lines.py::test_the_same_lines_on_the_page",     # 9-13 s
    "test_simulate.py::test_json_is_identical",                 # 11 s
    "test_simulate.py::test_the_intervals_cover",               # 11 s
    "test_web_hold.py::",                                       # 6-11 s
)


def _queued(item: pytest.Item) -> tuple[int, int]:
    """An item's place in the queue: the longest first (``LONGEST``' order), then the other slow modules' tests,
    then the rest; within each, collection's order (``sort`` is stable)."""
    node = item.nodeid.removeprefix("tests/")
    for rank, start in enumerate(LONGEST):
        if node.startswith(start):
            return 0, rank
    return 1 + (item.path.stem not in SLOW_MODULES), 0


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the cores. A fifth of the suite's time is spent waiting (on the processes,
    servers and browsers it starts, and on timeouts it checks): on two cores, three workers finish it in 380 s
    where two took 426 s, with every test passing."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow modules' tests marked, and queued first, the longest at the head (``LONGEST``): on a few cores
    the quick ones then fill in around them, rather than one long test running alone at the end."""
    for item in items:
        if item.path.stem in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
    items.sort(key=_queued)


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """The worker's Chromium (``_chromium``) for one test: whatever contexts the test opened are closed when it ends,
    passed or failed, so that no page of a test (a live page, reconnecting to a server gone) runs on into the
    next."""
    yield _chromium
    for context in list(_chromium.contexts):
        context.close()


@pytest.fixture(scope="session")
def _chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright, one for every browser test a worker runs (each test opens contexts of
    its own); without it, a skip that says why, or a failure where CI requires it (AFFRAY_REQUIRE_BROWSER=1)."""
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        why = "Debian's chromium is not installed (apt-get install chromium): the browser test needs it"
        if os.environ.get("AFFRAY_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{why}; AFFRAY_REQUIRE_BROWSER=1 makes it required (.ci/run installs it)")
        pytest.skip(f"{why}; AFFRAY_REQUIRE_BROWSER=1 makes this a failure")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True)
        try:
            yield b
        finally:
            b.close()
