"""The conformance checks again with Combat II's supplemental options on, under every ruleset: the options
must keep fights deterministic, ticks in order, the log folding to the state, and the lean mode the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from affray import RULESETS, load_encounter, load_text, prepare, timeline_json
from affray.engine.events import Condition
from affray.engine.state import FightState
from test_conformance import encounters, names_are_unique

IDS = [r.id for r in RULESETS]
OPTION_SETS: list[dict[str, Any]] = [
    {"crits": "c2-tables"},
    {"crits": "c2-tables", "crit_phase": "round", "agility": True},
    {"crits": "c2-severity", "strength": "c2", "creature_bonus": "split"},
    {"crits": "c2-tables", "spells": "mana", "strength": "2e", "starting_mana": "con-added"},
    {"crits": "c2-severity", "spells": "slots", "mana_table": "formula"},
]


def _fight(path: Path, ruleset: str, seed: int, options: dict[str, Any], **kw: Any) -> Any:
    fight = prepare(load_encounter(path), ruleset=ruleset, seed=seed, options=options).fight(auto=True, **kw)
    return fight, fight.run()


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("ruleset", IDS)
@pytest.mark.parametrize("seed", range(4))
def test_options_keep_the_engine_honest(ruleset: str, seed: int, options: dict[str, Any],
                                        skirmish_path: Path) -> None:
    fight, result = _fight(skirmish_path, ruleset, seed, options)
    doc = json.loads(timeline_json(result))
    ticks = [e["tick"] for e in doc["events"]]
    assert ticks == sorted(ticks)
    assert timeline_json(_fight(skirmish_path, ruleset, seed, options)[1]) == timeline_json(result)
    folded = FightState.fold(fight.encounter, fight.ruleset.attack_scheme, result.events, fight.state.pools)
    assert {n: f.snapshot() for n, f in folded.fighters.items()} == {
        n: f.snapshot() for n, f in fight.state.fighters.items()}
    lean = _fight(skirmish_path, ruleset, seed, options, explain=False, keep=False)[1]
    assert lean.final == result.final
    if options.get("spells") == "mana":  # the skirmish's wizard Mina reports her pool
        assert "mana" in doc["combatants"]["Mina"]


@pytest.mark.parametrize("ruleset", IDS)
def test_crits_happen_in_a_long_fight(ruleset: str, skirmish_path: Path) -> None:
    # over a few seeds the tables are consulted at least once (a natural 20 or 1 comes up about one roll in ten)
    kinds = set()
    for seed in range(6):
        _, result = _fight(skirmish_path, ruleset, seed, {"crits": "c2-tables"})
        kinds |= {e.condition.split(":")[0] for e in result.events if isinstance(e, Condition)}
    assert kinds & {"dazed", "stunned", "lost-sequence"}


# -- hypothesis: random encounters under random C2X options, with casters and table dice ------------------

_options = st.fixed_dictionaries({}, optional={
    "crits": st.sampled_from(["none", "c2-tables", "c2-severity"]), "crit_phase": st.sampled_from(["phase", "round"]),
    "agility": st.booleans(), "strength": st.sampled_from(["file", "2e", "c2"]),
    "creature_bonus": st.sampled_from(["full", "split"]), "spells": st.sampled_from(["memorized", "mana", "slots"]),
    "starting_mana": st.sampled_from(["base", "con", "con-added", "prime", "prime-added"])})
_extras = st.fixed_dictionaries({}, optional={"agi": st.integers(3, 19), "str": st.sampled_from([3, 12, 17, "18/50",
                                                                                                  "18/00", 19]),
                                              "damage_bonus": st.integers(0, 6), "con": st.integers(3, 18),
                                              "spells": st.just([{"name": "bolt", "level": 2, "ct": 2,
                                                                  "damage": "2d4", "count": 2}])})


@pytest.mark.parametrize("ruleset", IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=encounters(), options=_options, extras=_extras)
def test_random_encounters_under_random_c2x_options(ruleset: str, doc: dict[str, Any], options: dict[str, Any],
                                                    extras: dict[str, Any]) -> None:
    doc["sides"]["party"]["combatants"][0].update(extras)
    doc["options"] = options
    assume(names_are_unique(doc))  # the strategy may name two alike after count expansion
    loaded = load_text(json.dumps(doc))
    fight = prepare(loaded, ruleset=ruleset).fight(auto=True, max_rounds=8)
    result = fight.run()
    ticks = [e.tick for e in result.events]
    assert ticks == sorted(ticks)
    folded = FightState.fold(fight.encounter, fight.ruleset.attack_scheme, result.events, fight.state.pools)
    assert folded.final() == result.final
