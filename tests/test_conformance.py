"""One conformance suite for every registered ruleset (STYLE.md 6): determinism, ticks in order,
the log folding to the engine's state, the lean mode agreeing with the full one, and no crash on
random encounters (hypothesis)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from affray import RULESETS, EncounterError, load_encounter, load_text, prepare, timeline_json
from affray.engine.events import TIMED_KINDS, Declare
from affray.engine.state import FightState

IDS = [r.id for r in RULESETS]


def _fight(path: Path, ruleset: str, seed: int, **kw: Any) -> Any:
    prepared = prepare(load_encounter(path), ruleset=ruleset, seed=seed)
    fight = prepared.fight(**kw)
    return fight, fight.run()


@pytest.mark.parametrize("ruleset", IDS)
def test_same_file_and_seed_give_byte_identical_json(ruleset: str, skirmish_path: Path) -> None:
    # G-06: "A given seed reproduces the same combat."
    a = timeline_json(_fight(skirmish_path, ruleset, 11, auto=True)[1])
    b = timeline_json(_fight(skirmish_path, ruleset, 11, auto=True)[1])
    c = timeline_json(_fight(skirmish_path, ruleset, 12, auto=True)[1])
    assert a == b
    assert a != c  # another seed, other dice


@pytest.mark.parametrize("ruleset", IDS)
@pytest.mark.parametrize("seed", range(8))
def test_ticks_never_go_back_and_timed_events_say_why(ruleset: str, seed: int, skirmish_path: Path) -> None:
    _, result = _fight(skirmish_path, ruleset, seed, auto=True)
    doc = json.loads(timeline_json(result))
    ticks = [e["tick"] for e in doc["events"]]
    assert ticks == sorted(ticks)
    assert [e["seq"] for e in doc["events"]] == list(range(len(ticks)))
    for e in doc["events"]:
        if e["kind"] in TIMED_KINDS:
            assert len(e.get("why", "")) > 5, e
        if e["kind"] in ("melee", "missile"):
            assert isinstance(e["hit"], bool) and isinstance(e["damage"], int)
            assert e["damage"] == 0 or e["hit"]


@pytest.mark.parametrize("ruleset", IDS)
@pytest.mark.parametrize("seed", range(8))
def test_the_log_folds_to_the_engines_state(ruleset: str, seed: int, skirmish_path: Path) -> None:
    # STYLE.md 4: the state is a fold over the log, so replaying the events from the start gives it again.
    fight, result = _fight(skirmish_path, ruleset, seed, auto=True)
    folded = FightState.fold(fight.encounter, fight.ruleset.attack_scheme, result.events)
    assert {n: f.snapshot() for n, f in folded.fighters.items()} == {
        n: f.snapshot() for n, f in fight.state.fighters.items()}
    assert folded.final() == result.final


@pytest.mark.parametrize("ruleset", IDS)
@pytest.mark.parametrize("seed", range(8))
def test_lean_mode_is_the_same_fight(ruleset: str, seed: int, skirmish_path: Path) -> None:
    # The benchmark's lean mode keeps no log and writes no explanations, but rolls the same dice.
    _, full = _fight(skirmish_path, ruleset, seed, auto=True)
    _, lean = _fight(skirmish_path, ruleset, seed, auto=True, explain=False, keep=False)
    assert lean.events == []
    assert lean.final == full.final
    assert lean.rounds == full.rounds


@pytest.mark.parametrize("ruleset", IDS)
def test_a_plan_without_auto_stops_when_plans_run_out(ruleset: str, skirmish_path: Path) -> None:
    # CONTRACT.md: "A combatant whose plan is used up does nothing (with --auto, it takes the default action)."
    _, result = _fight(skirmish_path, ruleset, 3)
    declared = [e for e in result.events if isinstance(e, Declare) and e.consumed]
    plan = load_encounter(skirmish_path).encounter.plan
    assert len(declared) <= sum(len(v) for v in plan.values())
    # Without --auto, a declaration not taken from the plan is only a routed combatant's flight (G-07).
    extra = [e.decl for e in result.events if isinstance(e, Declare) and e.decl is not None
             and not e.consumed and not e.continuing]
    assert all(d.move is not None and d.mode == "flee" for d in extra)


# -- hypothesis: random encounters ----------------------------------------------------------------------

_names = st.sampled_from(["Ash", "Brom", "Cal", "Dane", "Orc", "Gob", "Wolf", "Troll"])
_weapon = st.fixed_dictionaries({
    "name": st.sampled_from(["sword", "axe", "spear", "bow", "club"]),
    "sf": st.integers(0, 12),
    "damage": st.sampled_from(["1d4", "1d6", "1d8", "2d4", "1d10+1", "3"]),
}, optional={"kind": st.sampled_from(["melee", "missile", "thrown"]), "rate": st.sampled_from([1, 2, "3/2"]),
             "magic": st.integers(0, 3), "reach": st.integers(0, 15)})
_combatant = st.fixed_dictionaries({
    "hp": st.integers(1, 30),
}, optional={"ac": st.integers(-4, 10), "count": st.integers(1, 3), "level": st.integers(1, 15),
             "class": st.sampled_from(["fighter", "cleric", "wizard", "thief", "monk", "ranger", "monster"]),
             "hd": st.sampled_from([1, 2, "3+3", "1-1", 0.5]), "dex": st.integers(3, 18), "mv": st.integers(3, 24),
             "size": st.sampled_from(["small", "medium", "large"]), "attacks": st.sampled_from([1, "3/2", 2]),
             "weapons": st.lists(_weapon, min_size=1, max_size=2), "morale": st.integers(2, 12),
             "shield": st.booleans()})


@st.composite
def encounters(draw: st.DrawFn) -> dict[str, Any]:
    sides: dict[str, Any] = {}
    used: set[str] = set()
    for side in ("party", "foes"):
        members = []
        for c in draw(st.lists(_combatant, min_size=1, max_size=3)):
            name = draw(_names.filter(lambda n: n not in used))
            used.add(name)
            members.append({"name": name, **c})
        sides[side] = {"pc": side == "party", "combatants": members}
    return {"seed": draw(st.integers(0, 2**31)), "surprise": draw(st.sampled_from(["check", "none"])),
            "sides": sides}


@pytest.mark.parametrize("ruleset", IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=encounters())
def test_random_valid_encounters_never_crash(ruleset: str, doc: dict[str, Any]) -> None:
    assume(names_are_unique(doc))  # the strategy may name two alike after count expansion ("Orc 1" and "Orc 1")
    loaded = load_text(json.dumps(doc))
    fight = prepare(loaded, ruleset=ruleset).fight(auto=True, max_rounds=12)
    result = fight.run()
    ticks = [e.tick for e in result.events]
    assert ticks == sorted(ticks)
    assert result.final.winner is None or result.final.winner in doc["sides"]


def names_are_unique(doc: dict[str, Any]) -> bool:
    """Whether every combatant's name, ``count`` expanded to "Name 1" ... "Name N", is its own."""
    names: list[str] = []
    for side in doc["sides"].values():
        for c in side["combatants"]:
            n = c.get("count", 1)
            names += [c["name"]] if n == 1 else [f"{c['name']} {k}" for k in range(1, n + 1)]
    return len(names) == len(set(names))


_bad_value = st.one_of(st.just(-999), st.just("2d"), st.just([]), st.just({"x": 1}), st.just("zzz"))


@settings(max_examples=80, deadline=None)
@given(doc=encounters(), path=st.sampled_from([("hp",), ("ac",), ("weapons", 0, "damage"), ("weapons", 0, "sf"),
                                               ("size",), ("mv",), ("class",), ("count",)]), value=_bad_value)
def test_random_invalid_encounters_are_reported_not_crashed(doc: dict[str, Any], path: tuple[Any, ...],
                                                             value: Any) -> None:
    node: Any = doc["sides"]["party"]["combatants"][0]
    node.setdefault("weapons", [{"name": "club", "sf": 4, "damage": "1d6"}])
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        load_text(json.dumps(doc), "random.json")
    except EncounterError as exc:
        assert exc.problems
        assert all(p.file == "random.json" for p in exc.problems)
        assert any(p.path.startswith("sides.party.combatants[0]") for p in exc.problems), str(exc)
    else:  # only values that the field accepts get here (e.g. a class name string for "class": impossible)
        pytest.fail(f"{path} = {value!r} was accepted")
