"""The one declaration validator (``engine.validity``): what a question offers, what an answer is accepted as, what
the file's check allows and what a repeated or said-ahead declaration stands as, decided in one place, so that what
is offered is accepted and happens and what cannot happen is neither offered nor accepted (issue 26).

Each case is one the table found: a charge too slow to arrive, a spell with no target, a spell already spent, a
caster wounded earlier in the round. Every die is pinned; the arithmetic of each expectation is in its docstring.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from affray import load_text, prepare, timeline_dict
from affray.drive import ROLL, DeclareQuestion, DieQuestion, Drive, End
from affray.errors import EncounterError

SWORD = {"name": "sword", "sf": 5, "damage": "1d8"}
AXE = {"name": "axe", "sf": 7, "damage": "1d8"}
SLEEP = {"name": "sleep", "level": 1, "ct": 1, "components": "VS",
         "effect": {"condition": "asleep", "duration": "5 rounds", "max_hd": 4}}
LIGHT = {"name": "light", "level": 1, "ct": 1, "components": "V"}


def text(party: list[dict[str, Any]], orcs: list[dict[str, Any]], plan: dict[str, Any], ruleset: str,
         initiative: dict[int, dict[str, int]] | None = None, **more: Any) -> str:
    return json.dumps({"ruleset": ruleset, "seed": 3, "surprise": "none",
                       "sides": {"party": {"pc": True, "combatants": party}, "orcs": {"combatants": orcs}},
                       "rolls": {"initiative": initiative or {}}, "plan": plan, **more})


def brom(**kw: Any) -> dict[str, Any]:
    """A level-1 fighter, THAC0 20, AC 5, MV 12, a long sword."""
    return {"name": "Brom", "class": "fighter", "level": 1, "hp": 30, "ac": 5, "weapons": [SWORD], **kw}


def orc(name: str = "Orc", **kw: Any) -> dict[str, Any]:
    """A 1 HD monster, THAC0 19, AC 6, MV 12, an axe."""
    return {"name": name, "hd": 1, "hp": 30, "ac": 6, "weapons": [AXE], **kw}


def mina(*spells: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A level-1 wizard, THAC0 20, AC 10."""
    return {"name": "Mina", "class": "wizard", "level": 1, "hp": 10, "ac": 10, "spells": list(spells), **kw}


def question(drive: Drive, actor: str, *, answer: dict[str, Any] | None = None) -> DeclareQuestion:
    """Pull, rolling every die and answering everyone else's declaration with ``answer`` (default: nothing), until
    ``actor`` is asked."""
    while True:
        item = drive.pull()
        assert not isinstance(item, End), f"{actor} was never asked"
        if isinstance(item, DieQuestion):
            assert drive.answer(ROLL) is None
        elif isinstance(item, DeclareQuestion):
            if item.actor == actor:
                return item
            assert drive.answer(answer or {"none": True}) is None


# -- a Combat II charge too slow to arrive (C2-20) ------------------------------------------------------------


def test_c2_20_a_charge_slower_than_twice_base_mv_is_refused_when_declared() -> None:
    """C2-20: a charge needs "speed at least 2x base MV". Brom stands (pace 0), so a charge that says no ``pace``
    runs at max(0, 1) = x1: refused at once, with the reason, and neither offered a second time; with ``pace: 2``
    (C2-19: from x1 up to +2 a phase, 1 -> 2) it is accepted."""
    t = text([brom()], [orc()], {}, "combat2-phase1", {1: {"party": 3, "orcs": 7}})
    drive = prepare(load_text(t)).drive(max_rounds=1)
    q = question(drive, "Brom")
    refused = drive.answer({"melee": "Orc", "charge": True, "distance": 60})
    assert refused is not None and "at least twice base MV (C2-20)" in refused and "pace: 2" in refused
    assert drive.answer({"melee": "Orc", "charge": True, "distance": 60, "pace": 2}) is None
    assert q.actor == "Brom"


def test_c2_20_a_too_slow_charge_in_the_plan_is_refused_once_and_the_plan_moves_on() -> None:
    """The same charge from the file (the file's check cannot know the pace Brom will have): phase 1 refuses it,
    "too slow to charge" (x1 < x2), and the declaration ends with it (CONTRACT: "the plan moves on"): phase 2
    declares the plan's next entry instead of trying the charge again, phase after phase, and phase 3 has nothing
    left to do."""
    plan = {"Brom": [{"melee": "Orc", "charge": True, "distance": 60}, {"none": True}], "Orc": [{"none": True}] * 3}
    t = text([brom()], [orc()], plan, "combat2-phase1", {1: {"party": 3, "orcs": 7}})
    doc = timeline_dict(prepare(load_text(t)).fight(max_rounds=1).run())
    refused = [e for e in doc["events"] if e["kind"] == "impossible" and e["actor"] == "Brom"]
    assert len(refused) == 1 and refused[0]["tick"][:2] == [1, 1] and refused[0]["ends"] is True
    declared = [e.get("declaration") for e in doc["events"] if e["kind"] == "declare" and e["actor"] == "Brom"]
    assert declared == [{"melee": "Orc", "charge": True, "distance": 60}, {"none": True}, None]  # 3: nothing left


def test_c2_21_a_readied_weapon_waits_for_a_charger_that_has_not_arrived() -> None:
    """C2-21: a weapon "poised against a charging/swooping foe (attack on contact)". The orc charges Brom from 110
    ft at x2 (``pace: 2``; MV 12: 120 x 2 / 3 = 80 ft a phase, C2-16): phase 1 leaves it 110 - 80 = 30 ft short, so
    Brom's set sword does not strike and the two are not engaged; phase 2 the orc covers its last 30 ft and the set
    sword strikes as it arrives, simultaneously with its charge (both in the movement portion, slot 7)."""
    plan = {"Brom": [{"melee": "Orc", "set": True, "outcome": {"hit": False}}],
            "Orc": [{"melee": "Brom", "charge": True, "distance": 110, "pace": 2, "outcome": {"hit": False},
                     "dice": {"str": 10}}]}
    t = text([brom()], [orc()], plan, "combat2-phase1", {1: {"party": 3, "orcs": 7}})
    drive = prepare(load_text(t)).drive(max_rounds=1)
    seen: list[Any] = []
    engaged_after_phase_1 = None
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DeclareQuestion):
            assert drive.answer({"none": True}) is None
        elif isinstance(item, DieQuestion):
            assert drive.answer(ROLL) is None
        else:
            seen.append(item)
            if engaged_after_phase_1 is None and item.tick[:2] == (1, 2):
                engaged_after_phase_1 = sorted(drive.fight.state.fighters["Orc"].engaged)
    strikes = [e for e in seen if e.kind == "melee"]
    assert [(e.actor, e.tick[:3]) for e in strikes] == [("Orc", (1, 2, 7)), ("Brom", (1, 2, 7))]
    assert engaged_after_phase_1 == []
    waits = [e for e in seen if e.kind == "wait" and e.actor == "Brom"]
    assert [e.tick[:2] for e in waits] == [(1, 1)]


# -- a spell with no target, a spent spell -------------------------------------------------------------------------


def test_a_spell_that_acts_on_someone_needs_a_target_in_the_file() -> None:
    """sleep sets a condition (asleep) on its targets: cast at nobody it would be wasted, so the file's check
    refuses it, naming the field; light acts on no one the file names and needs none."""
    plan = {"Mina": [{"cast": "sleep"}, {"cast": "light"}]}
    with pytest.raises(EncounterError) as err:
        load_text(text([mina(SLEEP, LIGHT)], [orc()], plan, "side-d6"))
    (problem,) = err.value.problems
    assert problem.path == "plan.Mina[0].at"
    assert "sleep acts on someone (asleep): give at" in problem.message


def test_a_spell_with_no_target_is_refused_as_an_answer_and_marked_in_the_choices() -> None:
    """The same at the table: the question marks sleep ``needs_target``; ``{cast: sleep}`` is refused with the
    reason, and ``{cast: sleep, at: orcs}`` accepted."""
    t = text([mina(SLEEP, LIGHT)], [orc()], {}, "side-d6", {1: {"party": 5, "orcs": 2}})
    drive = prepare(load_text(t)).drive(max_rounds=1)
    q = question(drive, "Mina")
    assert {s["name"]: s.get("needs_target", False) for s in q.choices["spells"]} == {"sleep": True, "light": False}
    refused = drive.answer({"cast": "sleep"})
    assert refused is not None and "give at" in refused
    assert drive.answer({"cast": "sleep", "at": "orcs"}) is None


def test_a_spent_spell_is_neither_offered_nor_accepted() -> None:
    """Mina memorised one sleep and one light (``count`` 1 each). Round 1 she casts sleep at the orc (side-d6: step
    6, MJ-05): its copy is spent (G-03). Round 2 the question offers only light under ``cast`` and says why sleep
    cannot be; the answer is refused with that reason."""
    t = text([mina(SLEEP, LIGHT)], [orc()], {"Mina": [{"cast": "sleep", "at": "Orc"}]},
             "side-d6", {1: {"party": 5, "orcs": 2}, 2: {"party": 5, "orcs": 2}})
    drive = prepare(load_text(t)).drive(max_rounds=2)
    q = question(drive, "Mina")
    assert q.tick[0] == 2
    assert q.choices["cast"] == ["light"]
    assert {s["name"]: s.get("cannot") for s in q.choices["spells"]} == {"sleep": "sleep is no longer memorised",
                                                                         "light": None}
    assert drive.answer({"cast": "sleep", "at": "Orc"}) == "sleep is no longer memorised"


# -- d12-procedure: a caster wounded earlier in the round (D12-09) --------------------------------------------------


def test_d12_09_a_caster_wounded_earlier_in_the_round_is_not_offered_cast() -> None:
    """D12-09: "Any damage that a spellcaster takes prior to completing his spell in a round ... will prevent
    spellcasting in the remainder of that round". The orcs' count 2 comes before the party's 9 (D12-04: lowest
    first; DEX 10 adjusts nothing); the orc hits Mina for 4 (the referee's outcome), 10 -> 6 hp. At her count 9 the
    question offers no ``cast`` and refuses one, with the rule."""
    plan = {"Orc": [{"melee": "Mina", "outcome": {"hit": True, "damage": 4}}]}
    t = text([mina(SLEEP)], [orc()], plan, "d12-procedure", {1: {"party": 9, "orcs": 2}})
    drive = prepare(load_text(t)).drive(max_rounds=1)
    q = question(drive, "Mina")
    assert drive.fight.state.fighters["Mina"].hp == 6
    assert "cast" not in q.choices
    assert "D12-09" in next(s["cannot"] for s in q.choices["spells"] if s["name"] == "sleep")
    refused = drive.answer({"cast": "sleep", "at": "Orc"})
    assert refused is not None and "no casting for the rest of the round (D12-09)" in refused
    assert drive.answer({"melee": "Orc", "outcome": {"hit": False}}) is None
