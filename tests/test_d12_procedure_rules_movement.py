"""d12-procedure (seed 004), rules D12-12 to D12-22: movement, casters' DEX, attacks per round, load, the
5-foot step, withdrawals, durations, morale; and the bad input the ruleset refuses. Defaults in d12_helpers
(PC THAC0 20 AC 5 10 hp; orc THAC0 19 AC 6 5 hp; MV 12" = 6 squares = 30 ft a round)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from affray import EncounterError, load_text, prepare
from affray.model.derive import attacks_per_round
from affray.rulesets.d12_tables import move_squares, rate_by_load
from cli_run import affray_here
from d12_helpers import (
    NONE,
    SPEAR,
    count_of,
    encounter,
    events,
    hp,
    mage,
    melee,
    miss_on,
    one,
    orc,
    pc,
    play,
    rounds,
)

ENGAGE = {1: {"party": 1, "orcs": 2}, 2: {"party": 1, "orcs": 2}}  # round 1 engages, round 2 tests


def _engaged_then(second: dict, foe_second: dict | None = None, **kw) -> dict:
    """Brom and the Orc trade misses in round 1 (engaged), then Brom does ``second`` in round 2."""
    orc_kw = kw.pop("orc_kw", {})
    return play({"party": [pc("Brom", **kw.pop("brom_kw", {}))], "orcs": [orc("Orc", hp=20, **orc_kw)]},
                {"Brom": [miss_on("Orc"), second], "Orc": [miss_on("Brom"), foe_second or NONE]},
                initiative=ENGAGE, **kw)


# -- D12-12: movement with a full attack ---------------------------------------------------------------------


def test_d12_12_move_the_standard_rate_and_still_attack():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 14, 6, distance=30)], "Orc": [miss_on("Brom")]}, initiative=rounds(1, 1, 5))
    # 30 ft = the whole standard rate (12" = 6 squares x 5 ft): closes and hits (14 >= 14) for 6, 20 -> 14
    assert one(doc, "move", "Brom")["feet"] == 30
    assert count_of(one(doc, "melee", "Brom")) == (1, 3, 1)
    assert hp(doc, "Orc") == 14


def test_d12_12_farther_than_the_standard_rate_means_no_attack_this_round():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 14, 6, distance=40)], "Orc": [NONE, NONE]}, initiative=rounds(2, 1, 5))
    # round 1: 30 of the 40 ft, no blow; round 2: the last 10 ft and the blow
    assert [(e["round"], e["feet"]) for e in events(doc, "move", "Brom")] == [(1, 30), (2, 10)]
    assert [e["round"] for e in events(doc, "melee", "Brom")] == [2]


def test_d12_12_movement_split_before_and_after_the_attack():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2, distance=10, after=30)], "Orc": [miss_on("Brom")]},
               initiative=rounds(1, 1, 5), referee={("attack", "Orc"): [2]})
    moves = events(doc, "move", "Brom")
    # 10 ft before, then the rest of the 30 ft rate after the blow: 30 - 10 = 20 (30 asked)
    assert [(m["feet"], m["tick"][4]) for m in moves] == [(10, 0), (20, 3)]
    assert moves[0]["seq"] < one(doc, "melee", "Brom")["seq"] < moves[1]["seq"]
    # moving 20 ft away from the Orc it now fights draws the Orc's attack of opportunity (D12-11): d20 2 misses
    assert "D12-11" in one(doc, "melee", "Orc", opportunity=True)["why"]


def test_d12_12_faster_movement_sacrifices_combat():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [{"move": 90}], "Orc": [NONE]}, initiative=rounds(1, 1, 5))
    move = one(doc, "move", "Brom")
    # runs, capped at twice the 30 ft rate: 60 ft; the move is its whole action
    assert move["feet"] == 60 and "D12-12" in move["why"]


# -- D12-13: casters lose their DEX AC bonus only while casting ------------------------------------------------


def test_d12_13_a_caster_loses_the_dex_bonus_only_while_casting():
    bolt = {"name": "bolt", "ct": 3}
    doc = play({"party": [mage("Mina", bolt, hp=20, ac=7, dex=17)], "orcs": [orc("Orc", count=2, hp=20)]},
               {"Mina": [{"cast": "bolt", "at": "Orc 1"}, NONE],
                "Orc 1": [melee("Mina", 9, 2), NONE], "Orc 2": [NONE, melee("Mina", 9, 2)]},
               initiative=rounds(2, 3, 2))
    first, second = events(doc, "melee")
    # round 1: party d12 3 - 2 (Mina's DEX 17) = count 1; at the Orc's count 2 Mina is casting (1 to 1 + 3 = 4):
    # AC 7 + 3 (DEX 17) = 10, d20 9 >= 19 - 10 = 9: hit
    assert first["hit"] and "D12-13" in first["detail"]
    # round 2, not casting: AC 7, d20 9 < 19 - 7 = 12: miss
    assert not second["hit"]


# -- D12-14: attacks per round ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("cls", "levels"), [
    ("fighter", ((6, "1"), (7, "3/2"), (12, "3/2"), (13, "2"))),
    ("paladin", ((7, "1"), (8, "3/2"), (13, "3/2"), (14, "2"))),
    ("ranger", ((7, "1"), (8, "3/2"), (14, "3/2"), (15, "2"))),
    ("monk", ((5, "1"), (6, "3/2"), (11, "3/2"), (12, "2"))),
])
def test_d12_14_attacks_per_round_by_class_and_level(cls: str, levels: tuple[tuple[int, str], ...]):
    """Seed table: fighter 1-6, 7-12, 13+; paladin 1-7, 8-13, 14+; ranger 1-7, 8-14, 15+; monk 1-5, 6-11, 12+."""
    for level, rate in levels:
        assert attacks_per_round(cls, level, scheme="1e") == Fraction(rate), (cls, level)


def test_d12_14_decision_three_halves_is_one_then_two():
    plan = {"Vet": [{"melee": "Orc", "outcome": [{"hit": False}] * 2}] * 2, "Orc": [NONE, NONE]}
    sides = {"party": [pc("Vet", level=7)], "orcs": [orc("Orc", hp=30)]}
    doc = play(sides, plan, initiative=rounds(2, 1, 5))
    # fighter 7: 3/2, one blow in round 1, two in round 2
    assert [e["round"] for e in events(doc, "melee", "Vet")] == [1, 2, 2]
    other = play(sides, plan, initiative=rounds(2, 1, 5), options={"three_halves": "2-then-1"})
    assert [e["round"] for e in events(other, "melee", "Vet")] == [1, 1, 2]


# -- D12-15: movement by load -----------------------------------------------------------------------------------


def test_d12_15_the_load_table():
    """Seed: up to 35# 12" (halfling 9"), 35-70# 9" (6"), 70-105# 6" (3"), over 105# 3" (halfling cannot)."""
    assert [rate_by_load(lb, "human")[0] for lb in (35, 36, 70, 71, 105, 106)] == [12, 9, 9, 6, 6, 3]
    assert [rate_by_load(lb, "halfling")[0] for lb in (35, 36, 70, 71, 105, 106)] == [9, 6, 6, 3, 3, 0]
    # 12" = six squares, 9" four, 6" three, 3" two
    assert [move_squares(mv) for mv in (12, 9, 6, 3)] == [6, 4, 3, 2]


def test_d12_15_a_heavy_load_slows_the_closing():
    doc = play({"party": [pc("Brom", load=50), pc("Pip", race="halfling", load=50)], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc") | {"distance": 30}], "Pip": [miss_on("Orc") | {"distance": 30}],
                "Orc": [NONE]}, initiative=rounds(2, 1, 5))
    # 50 lb: Brom 9" = 4 squares = 20 ft; Pip the halfling 6" = 3 squares = 15 ft; neither reaches 30 ft
    # (round 2, where they close the rest, both sides roll: the Orc has no plan left, but stands, D12-04)
    assert [(e["actor"], e["feet"]) for e in events(doc, "move", round=1)] == [("Brom", 20), ("Pip", 15)]
    assert not events(doc, "melee", round=1)


def test_d12_15_option_move_scale_inches_counts_ten_feet_an_inch():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2, distance=100)], "Orc": [NONE]}, initiative=rounds(1, 1, 5),
               options={"move_scale": "inches"})
    # 12" x 10 = 120 ft: 100 ft closed and the blow in the same round
    assert one(doc, "move", "Brom")["feet"] == 100 and one(doc, "melee", "Brom")["round"] == 1


# -- D12-16: the 5-foot step ----------------------------------------------------------------------------------


def test_d12_16_the_five_foot_step_comes_first_and_provokes_nothing():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20), orc("Gob", hp=20)]},
               {"Brom": [miss_on("Orc"), miss_on("Gob") | {"step": True}], "Orc": [miss_on("Brom"), NONE],
                "Gob": [NONE, NONE]}, initiative=ENGAGE)
    step = one(doc, "move", "Brom")
    assert (step["round"], step["feet"], step["mode"], step["tick"][4]) == (2, 5, "step", 0)
    assert not events(doc, "melee", opportunity=True)


def test_d12_16_one_limited_to_5_ft_steps_after_its_action():
    """Full-round casting limits the caster: its 5 ft comes after the spell."""
    doc = play({"party": [mage("Mina", {"name": "long", "ct": "1 round"}, hp=10)], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "long", "at": "Orc", "step": True}], "Orc": [NONE]}, initiative=rounds(1, 3, 5))
    move = one(doc, "move", "Mina")
    assert move["tick"][4] == 3 and move["mode"] == "shift" and "D12-16" in move["why"]


# -- D12-17: fall back -------------------------------------------------------------------------------------------


def test_d12_17_falling_back_10_ft_provokes_no_aoo_from_a_5_ft_weapon():
    doc = _engaged_then({"move": 10, "mode": "withdraw", "parry": True})
    move = one(doc, "move", "Brom", round=2)
    assert move["feet"] == 10 and "parries" in move["why"]
    assert not events(doc, "melee", opportunity=True)
    assert not events(doc, "melee", "Brom", round=2)  # parrying instead of attacking


def test_d12_17_past_the_first_5_ft_a_reach_weapon_still_gets_its_aoo():
    spear = SPEAR | {"reach": 10}
    doc = _engaged_then({"move": 10, "mode": "withdraw"}, orc_kw={"weapons": [spear]},
                        referee={("attack", "Orc"): [3]})
    aoo = one(doc, "melee", "Orc", opportunity=True)
    assert aoo["round"] == 2 and "D12-17" in aoo["why"]


def test_d12_17_falling_back_fighting_after_the_blows():
    doc = _engaged_then(miss_on("Orc") | {"fall_back": 10})
    move = one(doc, "move", "Brom")
    assert move["feet"] == 10 and move["seq"] > one(doc, "melee", "Brom", round=2)["seq"]
    assert not events(doc, "melee", opportunity=True)


# -- D12-18: disengage-retreat acts last ----------------------------------------------------------------------


def test_d12_18_disengaging_gives_up_initiative_and_acts_last():
    doc = _engaged_then({"move": 30, "mode": "retreat"}, miss_on("Brom"))
    move = one(doc, "move", "Brom")
    # Brom's count 1 would come first, but the disengage is placed at the end of round 2, after the Orc's 2
    assert count_of(move) == (2, 4, 0)
    assert move["seq"] > one(doc, "melee", "Orc", round=2)["seq"]
    assert not events(doc, "melee", opportunity=True)


# -- D12-19: flee in panic ------------------------------------------------------------------------------------------


def test_d12_19_fleeing_gives_an_aoo_at_the_back_and_no_pursuit():
    doc = play({"party": [pc("Brom"), pc("Sela")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc"), {"move": 60, "mode": "flee"}], "Sela": [NONE, NONE],
                "Orc": [miss_on("Brom"), miss_on("Brom")]}, initiative=ENGAGE, referee={("attack", "Orc"): [2]})
    aoo = one(doc, "melee", "Orc", opportunity=True)
    assert aoo["round"] == 2 and "D12-19" in aoo["why"]
    # Brom is gone; the Orc's own attack at count 2 finds no one to pursue
    assert doc["combatants"]["Brom"].get("fled") is True
    assert one(doc, "impossible", "Orc")["round"] == 2


# -- D12-20: surrender --------------------------------------------------------------------------------------------


def test_d12_20_surrender_leaves_the_fight():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [NONE], "Orc": [{"misc": "surrender"}]}, initiative=rounds(1, 1, 5))
    assert one(doc, "surrender", "Orc")["round"] == 1
    assert doc["winner"] == "party"


# -- D12-21: durations ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("duration", "ends"), [("3 rounds", 4), ("1 turn", 11)])
def test_d12_21_durations_in_rounds_and_a_turn_is_ten_rounds(duration: str, ends: int):
    charm = {"name": "charm", "ct": 1, "duration": duration}
    doc = play({"party": [mage("Mina", charm)], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "charm", "at": "Orc"}] + [NONE] * 11, "Orc": [NONE]}, initiative=rounds(12, 1, 5))
    # cast in round 1: 3 rounds end at the start of round 1 + 3 = 4; 1 turn = 10 rounds: round 11
    # (Mina's NONEs run to round 12; each round both sides roll, each having a member standing, D12-04)
    assert one(doc, "expire", "Mina")["round"] == ends


# -- D12-22: PCs never check morale -----------------------------------------------------------------------------------


def test_d12_22_player_characters_never_check_morale_the_referee_checks_others():
    doc = play({"party": [pc("Brom"), pc("Hench", pc=False)], "orcs": {"morale": 7, "combatants": [orc("Orc")]}},
               {"Brom": [NONE], "Hench": [NONE], "Orc": [NONE]}, initiative=rounds(1, 1, 5),
               morale={1: {"party": 12, "orcs": 8}})
    checks = {e["side"]: e for e in events(doc, "morale")}
    # party: only the henchman checks (2d6 12 > default 7 fails); orcs 8 > 7 fail: they flee
    assert checks["party"]["members"] == ["Hench"] and not checks["party"]["passed"]
    assert not checks["orcs"]["passed"]
    assert doc["combatants"]["Brom"].get("fled") is None


def test_d12_22_option_casualties_checks_at_a_rounds_start_after_the_first_casualty_and_at_half_down():
    """Option ``morale: casualties`` (D12-22 names no trigger; G-07's, as the other rulesets check): Brom fells Orc 1 in
    round 1 (d20 20 >= 20 - 6 = 14 hits, 1d8 5 >= its 5 hp). At round 2's start the orcs have lost 1 of 2: their first
    casualty, and 2 x 1 >= 2 is half down, so one check with both triggers; the round's entered 2d6 total 8 > morale 7
    fails and Orc 2 flees (G-07), drawing Brom's free blow at its back (D12-19: the referee's d20 3, a miss). Without
    the option, and no roll entered, the referee checks nothing."""
    sides = {"party": [pc("Brom")], "orcs": {"morale": 7, "combatants": [orc("Orc 1"), orc("Orc 2")]}}
    plan = {"Brom": [melee("Orc 1", 20, 5), NONE], "Orc 2": [miss_on("Brom"), NONE]}
    doc = play(sides, plan, initiative=rounds(2, 1, 5), morale={2: {"orcs": 8}}, options={"morale": "casualties"},
               max_rounds=2, referee={("attack", "Brom"): [3]})
    check = one(doc, "morale")
    assert check["tick"][:3] == [2, 0, 1] and check["at"] == "round 2, start (morale)"
    assert check["triggers"] == ["first casualty", "half down"] and check["members"] == ["Orc 2"]
    assert check["passed"] is False and "D12-22 option morale: casualties" in check["why"]
    assert events(doc, "move", "Orc 2", mode="flee")
    plain = play(sides, plan, initiative=rounds(2, 1, 5), max_rounds=2)
    assert events(plain, "morale") == [] and not events(plain, "move", "Orc 2")


# -- bad input -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("decl", "path", "words"), [
    (miss_on("Orc") | {"ready": True}, "plan.Brom[0].ready", "missile"),
    (miss_on("Orc") | {"fall_back": 15}, "plan.Brom[0].fall_back", "10 ft"),
    (miss_on("Orc") | {"step": True, "distance": 10}, "plan.Brom[0].step", "only movement"),
    ({"move": 20, "mode": "withdraw"}, "plan.Brom[0].move", "10 ft"),
    (miss_on("Orc") | {"roll": 2}, "plan.Brom[0].roll", "rolls.initiative: {ROUND: {Brom: N}}"),
])
def test_bad_declarations_are_reported_with_path_and_fix(decl: dict, path: str, words: str):
    text = encounter({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {"Brom": [decl]})
    with pytest.raises(EncounterError) as err:
        prepare(load_text(text, "f.json"), ruleset="d12-procedure")
    problems = err.value.problems
    assert any(p.path == path and words in p.message for p in problems), problems


@pytest.mark.parametrize(("initiative", "ruleset", "path", "words"), [
    ({1: {"Orc": 3}}, None, "rolls.initiative.1.Orc", "only the PCs roll their own d12"),
    ({1: {"Brom": 13}}, None, "rolls.initiative.1.Brom", "13 is not a d12 result"),
    ({1: {"Brom": 3}}, "side-d6", "rolls.initiative.1.Brom", "only d12-procedure"),
    ({1: {"Nobody": 3}}, None, "rolls.initiative.1.Nobody", "unknown side"),
])
def test_d12_04_a_pcs_own_d12_is_given_by_its_name_and_checked(initiative: dict, ruleset: str | None, path: str,
                                                               words: str):
    """individual_rolls: a PC's d12 by its name in rolls.initiative, 1-12; not an NPC's, not for other rulesets."""
    doc = json.loads(encounter({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {"Brom": [NONE]},
                               initiative=initiative, options={"individual_rolls": True}))
    if ruleset is not None:
        doc["ruleset"] = ruleset
    with pytest.raises(EncounterError) as err:
        prepare(load_text(json.dumps(doc), "f.json", strict=False), ruleset=ruleset or "d12-procedure")
    problems = err.value.problems
    assert any(p.path == path and words in p.message for p in problems), problems


def test_bad_dice_and_fields_exit_2_without_a_traceback(tmp_path: Path):
    doc = json.loads(encounter({"party": [pc("Brom", surprise_odds="one in 8")], "orcs": [orc("Orc")]},
                               {"Brom": [NONE]}, surprise_rolls={"party": 13}))
    doc["ruleset"] = "d12-procedure"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(doc))
    p = affray_here("check", f)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "surprise_odds" in p.stderr
    doc["sides"]["party"]["combatants"][0].pop("surprise_odds")
    f.write_text(json.dumps(doc))
    p = affray_here("check", f)
    assert p.returncode == 2 and "rolls.surprise.party" in p.stderr and "d12" in p.stderr
