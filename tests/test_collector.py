"""The cyclic garbage collector during a fight (engine/fight.py ``Fight.run``): paused while the fight runs
unattended (nobody asked, told or rolling dice for it), running again once it ends, however it ends; left as the
caller had it otherwise. The pause rests on the fight making no reference cycles: checked here too."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from affray import load_text, prepare
from affray.engine.events import Event
from affray.policy import choose
from affray.rulesets import RULESETS

FILE = """\
seed: 4
sides:
  fighters:
    combatants:
      - {name: Fighter, count: 3, class: fighter, level: 2, thac0: 19, hp: 12, ac: 5,
         weapons: [{name: long sword, sf: 5, damage: 1d8}, {name: short bow, kind: missile, sf: 7, damage: 1d6}]}
      - {name: Mage, class: magic-user, level: 3, thac0: 20, hp: 7, ac: 9,
         weapons: [{name: dagger, sf: 2, damage: 1d4}], spells: [{name: magic missile, level: 1, damage: 1d4+1}]}
  orcs:
    combatants:
      - {name: Orc, count: 5, hd: 1, thac0: 19, hp: 5, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def _prepared(ruleset: str, seed: int = 4) -> Any:
    return prepare(load_text(FILE, "collector.yaml"), ruleset=ruleset, seed=seed)


@pytest.mark.parametrize("ruleset", [cls.id for cls in RULESETS])
def test_a_fight_leaves_no_cycles_for_the_collector(ruleset: str, collector_on: None) -> None:
    """Ten fights of each ruleset, lean and explained (the timeline kept), run with the collector off: of what they
    make, nothing is left unreachable (``gc.collect()`` counts the unreachable objects it finds). The file is read
    and the fights made before, and every object of the process is held meanwhile: what a fight lets go of is not
    what it makes (a weapon and its view refer to each other, and a cache may drop an old one during a fight:
    garbage the collector takes once the fight is over)."""
    fights = [_prepared(ruleset, seed).fight(auto=True, explain=explain, keep=explain)
              for seed in range(5) for explain in (False, True)]
    gc.collect()
    before = gc.get_objects()
    gc.disable()
    try:
        for fight in fights:
            fight.run()
        found = gc.collect()
    finally:
        gc.enable()
        del before
    assert found == 0


def test_unattended_the_collector_waits_for_the_end(collector_on: None) -> None:
    fight = _prepared("side-d6").fight(auto=True, explain=False, keep=False)
    during: list[bool] = []

    def policy(f: Any, fighter: Any) -> Any:  # the default policy, noting whether the collector runs
        during.append(gc.isenabled())
        return choose(f, fighter)

    fight.policy = policy
    fight.run()
    assert during and not any(during)  # every declaration was made with the collector paused
    assert gc.isenabled()


def test_a_fight_that_fails_still_restarts_the_collector(collector_on: None) -> None:
    fight = _prepared("combat2-phase1").fight(auto=True, explain=False, keep=False)

    def policy(f: Any, fighter: Any) -> Any:
        raise RuntimeError("a policy that fails")

    fight.policy = policy
    with pytest.raises(RuntimeError, match="a policy that fails"):
        fight.run()
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off(collector_on: None) -> None:
    gc.disable()
    _prepared("phase-count").fight(auto=True, explain=False, keep=False).run()
    assert not gc.isenabled()


def test_told_of_every_event_the_fight_leaves_the_collector_running(collector_on: None) -> None:
    """A reader of the events (the console, the web page) runs code of its own as the fight goes: not paused."""
    during: list[bool] = []

    def told(e: Event) -> None:
        during.append(gc.isenabled())

    _prepared("d12-procedure").fight(auto=True, explain=False, keep=False, on_event=told).run()
    assert during and all(during)
    assert gc.isenabled()
