"""speed-segments (seed 002), SEG-01 to SEG-12: the round, surprise, declarations, initiative, the segment of
an action, multiple attacks, the phases of a segment, when effects land, spell disruption. The actions of
SEG-13 to SEG-20 are in test_speed_segments_actions.py.

Every expectation is worked out by hand from the seed and RULES.md; see speed_segments_helpers for the
defaults (PC: THAC0 20, AC 5, 10 hp, sword Spd 5; orc: THAC0 19, AC 6, 5 hp, axe Spd 7; MV 12 = 120 ft).
"""

from __future__ import annotations

from typing import Any

from side_d6_helpers import NONE, SWORD, attacks, events, hp, melee, miss_on, missile, one, orc, pc
from speed_segments_helpers import BOW, kinds, place, play, seg


def wizard(name: str, ct: int, **kw: Any) -> dict[str, Any]:
    """A level-1 wizard, AC 10, 4 hp, with one spell "hold" of casting time ``ct`` that does no damage."""
    return {"name": name, "class": "wizard", "level": 1, "hp": 4, "ac": 10,
            "spells": [{"name": "hold", "level": 1, "ct": ct}], **kw}


# -- SEG-01: rounds of about ten segments, running over by a couple, spilling over ------------------------


def _late_orc(init: dict[int, dict[str, int]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    # the orc closes 30 ft (a half move: within 60 ft of MV 12) and strikes with its axe: Spd 7 + 5
    return play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
                {"Brom": [NONE], "Orc": [melee("Brom", 16, 3, distance=30)]}, initiative=init, options=options)


def test_seg_01_a_round_runs_long_up_to_segment_12():
    doc = _late_orc({1: {"party": 4, "orcs": 5}})
    strike = one(doc, "melee", "Orc")
    # axe Spd 7 + 5 (half move) = segment 12 <= 10 + overrun 2: still round 1
    # d20 16 - 2 (half move) = 14 >= 19 - 5 = 14: hit, 3 damage
    assert place(strike) == (1, 12, 1, 4)
    assert (strike["hit"], strike["damage"], hp(doc, "Brom")) == (True, 3, 7)


def test_seg_01_an_action_past_segment_12_spills_into_the_next_round():
    doc = _late_orc({1: {"party": 5, "orcs": 3}})
    strike = one(doc, "melee", "Orc")
    # orcs lost 5-3 = 2 pips: +1; 7 + 5 + 1 = 13 > 12: round 2, segment 13 - 10 = 3
    assert seg(strike) == (2, 3)
    assert "spills into round 2 at segment 3" in strike["why"]
    assert seg(one(doc, "move", "Orc")) == (1, 6)  # the half move itself: segment 5 + 1, still round 1


def test_seg_01_overrun_0_spills_everything_past_segment_10():
    # the author's aside: "Make any extension of action automatically bleed over into next round?"
    doc = _late_orc({1: {"party": 4, "orcs": 5}}, {"overrun": 0})
    assert seg(one(doc, "melee", "Orc")) == (2, 2)  # 7 + 5 = 12 > 10: round 2, segment 12 - 10 = 2


def test_seg_01_without_spill_over_a_too_late_action_does_not_happen():
    doc = _late_orc({1: {"party": 5, "orcs": 3}}, {"spill_over": False})
    assert events(doc, "melee") == []
    lost = one(doc, "impossible", "Orc")
    # 7 + 5 + 1 = 13 > 12: noted at the round's last segment, 12
    assert seg(lost) == (1, 12) and "segment 13" in lost["why"] and "spill_over is off" in lost["why"]
    assert hp(doc, "Brom") == 10


# -- SEG-02: the procedure A-E --------------------------------------------------------------------------


def test_seg_02_surprise_declare_initiative_segments_then_morale():
    orcs = {"morale": 8, "combatants": [orc("Orc", count=2)]}
    doc = play({"party": [pc("Brom")], "orcs": orcs},
               {"Brom": [melee("Orc 1", 14, 5)], "Orc 1": [NONE], "Orc 2": [miss_on("Brom")]},
               surprise="check", surprise_rolls={"party": 4, "orcs": 5}, initiative={1: {"party": 5, "orcs": 2}},
               morale={1: {"orcs": 7}})
    order = [e["kind"] for e in doc["events"]]
    # A surprise (d6 4 and 5: nobody), B three declarations, C initiative, D segment 5 Brom (d20 14 >= 14,
    # 5 damage: Orc 1 down), segment 7 + 1 (orcs lost 5-2 = 3 pips: +1) = 8 Orc 2, E morale (2d6 7 <= 8)
    assert order == ["surprise", "declare", "declare", "declare", "initiative", "melee", "down", "melee", "morale"]
    assert [seg(e) for e in doc["events"] if e["kind"] in ("melee", "morale")] == [(1, 5), (1, 8), (1, 99)]
    assert one(doc, "morale")["passed"] is True


# -- SEG-03: surprise --------------------------------------------------------------------------------------


def _surprise(rolls: dict[str, int], init: dict[int, dict[str, int]] | None = None, rounds: int = 1) -> dict:
    plan = {"Brom": [miss_on("Bandit")] * rounds, "Bandit": [miss_on("Brom")] * rounds}
    return play({"party": [pc("Brom")], "bandits": [orc("Bandit", weapons=[SWORD])]}, plan,
                surprise="check", surprise_rolls=rolls, initiative=init or {})


def test_seg_03_seed_example_1_rolls_1_and_2_bandits_surprised_one_segment():
    doc = _surprise({"party": 1, "bandits": 2})
    s = one(doc, "surprise")
    # both surprised: subtract the lesser, 2 - 1 = 1: the bandits +1, the PCs not surprised at all
    assert s["penalties"] == {"bandits": 1} and s["surprised"] == ["bandits"]
    # one unsurprised party: no initiative roll; Brom's sword Spd 5 at 5, the Bandit's Spd 5 + 1 = 6
    assert "results" not in one(doc, "initiative")  # no dice: "only party acts unsurprised: no roll"
    assert place(one(doc, "melee", "Brom")) == (1, 5, 1, 4)
    assert place(one(doc, "melee", "Bandit")) == (1, 6, 2, 4)


def test_seg_03_seed_example_2_three_parties_1_1_2():
    parties = {"a": [pc("A")], "b": [pc("B")], "c": [pc("C")]}
    plan = {"A": [miss_on("B")], "B": [miss_on("C")], "C": [miss_on("A")]}
    doc = play(parties, plan, surprise="check", surprise_rolls={"a": 1, "b": 1, "c": 2},
               initiative={1: {"a": 4, "b": 4}})
    # every party surprised: minus the least (1): a 0, b 0 (aware, they act), c 2 - 1 = +1
    assert one(doc, "surprise")["penalties"] == {"c": 1}
    # at least two unsurprised parties: initiative is rolled, for a and b only (tied 4 and 4)
    assert one(doc, "initiative")["results"] == {"a": 4, "b": 4}
    assert [(e["actor"], place(e)) for e in attacks(doc, "A") + attacks(doc, "B") + attacks(doc, "C")] == [
        ("A", (1, 5, 1, 4)), ("B", (1, 5, 1, 4)), ("C", (1, 6, 2, 4))]


def test_seg_03_a_surprised_roll_of_2_adds_2_in_the_first_round_only():
    doc = _surprise({"party": 4, "bandits": 2}, {2: {"party": 3, "bandits": 3}}, rounds=2)
    bandit = attacks(doc, "Bandit")
    # round 1: Spd 5 + 2 = 7, after the unsurprised; round 2: no surprise, tie 3-3: segment 5, together
    assert [place(e) for e in bandit] == [(1, 7, 2, 4), (2, 5, 1, 4)]


def test_seg_03_a_surprised_party_declares_after_the_unsurprised_have_begun():
    doc = _surprise({"party": 4, "bandits": 1})
    brom, bandit = one(doc, "declare", "Brom"), one(doc, "declare", "Bandit")
    # the unsurprised declare at the start (segment 0); the surprised once the count has begun (segment 1)
    assert seg(brom) == (1, 0) and seg(bandit) == (1, 1)
    assert brom["seq"] < one(doc, "initiative")["seq"] < bandit["seq"]


# -- SEG-04: declarations and changing them ------------------------------------------------------------------


def _change(options: dict[str, Any] | None = None) -> dict:
    orcs = [orc("Orc", count=2, hp=20)]
    plan = {"Brom": [miss_on("Orc 1"), {"melee": "Orc 2", "change": 3, "outcome": {"hit": False}}],
            "Orc 1": [NONE], "Orc 2": [NONE]}
    return play({"party": [pc("Brom")], "orcs": orcs}, plan, initiative={1: {"party": 3, "orcs": 5}},
                options=options)


def test_seg_04_a_changed_declaration_counts_its_speed_from_the_change():
    doc = _change()
    # first declared: Spd 5 + 1 (lost 5-3 = 2 pips) = 6 against Orc 1; changed at segment 3:
    # the new attack on Orc 2 counts from 3: 3 + 5 = 8 (the Decision: no penalty added again)
    dropped = one(doc, "impossible", "Brom")
    assert seg(dropped) == (1, 3) and "changes its declaration at segment 3" in dropped["why"]
    assert [(e["target"], seg(e)) for e in attacks(doc, "Brom")] == [("Orc 2", (1, 8))]
    assert [seg(e) for e in events(doc, "declare", "Brom")] == [(1, 0), (1, 3)]


def test_seg_04_change_penalty_adds_segments():
    doc = _change({"change_penalty": 2})
    assert seg(one(doc, "melee", "Brom")) == (1, 10)  # 3 + 5 + 2


# -- SEG-05, SEG-06: initiative and the loser's penalty -------------------------------------------------------


def test_seg_06_seed_example_party_a_5_party_b_3():
    sides = {"a": [pc("Fighter A"), wizard("Wizard A", 6)], "b": [pc("Fighter B"), wizard("Wizard B", 6)]}
    plan = {"Fighter A": [miss_on("Fighter B")], "Wizard A": [{"cast": "hold", "at": "Fighter B"}],
            "Fighter B": [miss_on("Fighter A")], "Wizard B": [{"cast": "hold", "at": "Fighter A"}]}
    doc = play(sides, plan, initiative={1: {"a": 5, "b": 3}})
    when = {(e["kind"], e["actor"]): seg(e) for e in doc["events"] if e["kind"] in ("melee", "cast")}
    # party A: Spd 5 strikes in 5, the Spd 6 spell in 6; party B: +1 per 2 pips (5 - 3 = 2): 6 and 7
    # (the seed prints 8 for B's wizard, against its own +1: the Decision follows the rule)
    assert when == {("melee", "Fighter A"): (1, 5), ("cast", "Wizard A"): (1, 6),
                    ("melee", "Fighter B"): (1, 6), ("cast", "Wizard B"): (1, 7)}
    assert "+ 1 (b lost initiative 3 vs 5: +1 per 2 pips, SEG-06) = segment 6" in one(doc, "melee", "Fighter B")["why"]


def test_seg_06_a_one_pip_loss_costs_no_segment_but_the_winner_goes_first():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", weapons=[SWORD])]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative={1: {"party": 4, "orcs": 5}})
    # floor((5 - 4) / 2) = 0: both in segment 5, the orcs' turn (1st) before the party's (2nd)
    assert [(e["actor"], place(e)) for e in attacks(doc, "Orc") + attacks(doc, "Brom")] == [
        ("Orc", (1, 5, 1, 4)), ("Brom", (1, 5, 2, 4))]
    assert [e["actor"] for e in events(doc, "melee")] == ["Orc", "Brom"]


def test_seg_05_more_than_two_sides_rank_high_to_low():
    parties = {"x": [pc("X")], "y": [pc("Y")], "z": [pc("Z")]}
    plan = {"X": [miss_on("Y")], "Y": [miss_on("Z")], "Z": [miss_on("X")]}
    doc = play(parties, plan, initiative={1: {"x": 6, "y": 4, "z": 1}})
    # ranks 1, 2, 3; penalties floor((6-4)/2) = 1 and floor((6-1)/2) = 2: segments 5, 6, 7
    assert [place(e) for e in events(doc, "melee")] == [(1, 5, 1, 4), (1, 6, 2, 4), (1, 7, 3, 4)]
    assert one(doc, "initiative")["ranks"] == {"x": 1, "y": 2, "z": 3}


def test_seg_05_tied_sides_share_a_turn():
    parties = {"x": [pc("X")], "y": [pc("Y")], "z": [pc("Z")]}
    plan = {"X": [miss_on("Y")], "Y": [miss_on("Z")], "Z": [miss_on("X")]}
    doc = play(parties, plan, initiative={1: {"x": 6, "y": 6, "z": 3}})
    # x and y tied at 6 share turn 1; z: floor((6-3)/2) = 1 -> segment 6, turn 2
    assert [place(e) for e in events(doc, "melee")] == [(1, 5, 1, 4), (1, 5, 1, 4), (1, 6, 2, 4)]


# -- SEG-07 (timing of attacks and movement; the other actions in test_speed_segments_actions.py) ------------


def _brom_vs_orc(decl: dict[str, Any], orc_plan: list[dict[str, Any]] | None = None, **kw: Any) -> dict:
    return play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
                {"Brom": [decl], "Orc": orc_plan or [NONE]}, initiative={1: {"party": 5, "orcs": 4}}, **kw)


def test_seg_07_charge_adds_4_segments():
    doc = _brom_vs_orc({"melee": "Orc", "charge": True, "distance": 50, "dice": {"attack": 14, "damage": 5}})
    # sword Spd 5 + 4 (charge) = 9: the charge's move, then its strike, in segment 9
    assert place(one(doc, "move", "Brom")) == (1, 9, 1, 1)
    strike = one(doc, "melee", "Brom")
    assert place(strike) == (1, 9, 1, 4) and (strike["hit"], strike["damage"]) == (True, 5)


def test_seg_07_split_move_attack_adds_4_and_minus_2_to_hit():
    doc = _brom_vs_orc({"melee": "Orc", "split": 20, "distance": 20, "dice": {"attack": 15}})
    strike = one(doc, "melee", "Brom")
    # Spd 5 + 4 = 9; d20 15 - 2 = 13 < 20 - 6 = 14: miss; it moves on 20 ft in segment 9 + 1 = 10
    assert seg(strike) == (1, 9) and strike["hit"] is False
    assert [(seg(e), e["feet"]) for e in events(doc, "move", "Brom")] == [((1, 9), 20), ((1, 10), 20)]


def test_seg_07_half_move_adds_5_and_minus_2_to_hit():
    doc = _brom_vs_orc(melee("Orc", 16, 4, distance=50))
    # 50 ft <= a half move of 60 ft: the move in segment 5, the strike at Spd 5 + 5 = 10;
    # d20 16 - 2 = 14 >= 14: hit, 4 damage
    assert [(seg(e), e["feet"]) for e in events(doc, "move", "Brom")] == [((1, 5), 50)]
    strike = one(doc, "melee", "Brom")
    assert seg(strike) == (1, 10) and (strike["hit"], strike["damage"]) == (True, 4)


def test_seg_07_a_full_move_is_two_half_moves_and_nothing_else():
    doc = _brom_vs_orc({"melee": "Orc", "distance": 100})
    # 100 ft > 60 ft: a full move, 60 ft in segment 5 and 40 ft in segment 10; no attack this round
    assert [(seg(e), e["feet"]) for e in events(doc, "move", "Brom")] == [((1, 5), 60), ((1, 10), 40)]
    assert attacks(doc, "Brom") == []


def test_seg_07_a_charge_beyond_charging_distance_is_only_a_move():
    doc = _brom_vs_orc({"melee": "Orc", "charge": True, "distance": 150}, max_rounds=1)
    # charging distance: MV 12 = 120 ft < 150 ft: a full move of 60 + 60 ft, no strike
    assert [(seg(e), e["feet"]) for e in events(doc, "move", "Brom")] == [((1, 5), 60), ((1, 10), 60)]
    assert attacks(doc, "Brom") == []


def test_seg_07_counter_charge_both_strike_in_the_earlier_segment():
    doc = _brom_vs_orc({"melee": "Orc", "charge": True, "distance": 200, "outcome": {"hit": False}},
                       [{"melee": "Brom", "charge": True, "counter": True, "distance": 200,
                         "outcome": {"hit": False}}])
    # 200 ft is within the two charges together (120 + 120 ft); Brom: Spd 5 + 4 = 9; the orc: 7 + 4 = 11;
    # both strike in 9, each in its side's turn (party won 5-4, no penalty)
    assert [(e["actor"], place(e)) for e in events(doc, "melee")] == [("Brom", (1, 9, 1, 4)), ("Orc", (1, 9, 2, 4))]
    assert "meets Brom's earlier charge at segment 9" in one(doc, "melee", "Orc")["why"]


def test_seg_07_stunt_at_4_then_exploit_4_segments_later():
    doc = _brom_vs_orc({"melee": "Orc", "stunt": True, "dice": [{"attack": 14}, {"attack": 14, "damage": 3}]})
    stunt, exploit = attacks(doc, "Brom")
    # stunt Spd 4: d20 14 >= 14, set up (no damage); exploit 4 + 4 = 8: d20 14 hits for 3
    assert (seg(stunt), stunt["hit"], stunt["damage"], stunt["maneuver"]) == ((1, 4), True, 0, "stunt")
    assert (seg(exploit), exploit["hit"], exploit["damage"]) == ((1, 8), True, 3)
    assert hp(doc, "Orc") == 17


def test_seg_07_a_failed_stunt_sets_up_no_exploit():
    doc = _brom_vs_orc({"melee": "Orc", "stunt": True, "dice": [{"attack": 13}, {"attack": 20}]})
    # d20 13 < 14: the stunt fails; the exploit in segment 8 does not come
    assert [e["hit"] for e in attacks(doc, "Brom")] == [False]
    assert seg(one(doc, "impossible", "Brom")) == (1, 8)


# -- SEG-08: multiple attacks ---------------------------------------------------------------------------------


def _erik(init: dict[int, dict[str, int]]) -> dict:
    erik = pc("Erik", level=7, weapons=[SWORD])  # 1st-edition fighter, level 7: 3 attacks every 2 rounds
    return play({"party": [erik], "orcs": [orc("Orc", hp=50)]},
                {"Erik": [miss_on("Orc"), {"melee": "Orc", "outcome": [{"hit": False}] * 2}], "Orc": [NONE, NONE]},
                initiative=init)


def test_seg_08_erik_the_bold_one_attack_at_5_then_two_at_4_and_8():
    doc = _erik({1: {"party": 5, "orcs": 2}, 2: {"party": 5, "orcs": 2}})
    # round 1, a single attack: Spd 5; round 2, two attacks: as Spd 4, segments 1 x 4 and 2 x 4
    assert [seg(e) for e in attacks(doc, "Erik")] == [(1, 5), (2, 4), (2, 8)]


def test_seg_08_erik_losing_by_2_pips_adds_1_to_each_attack():
    doc = _erik({1: {"party": 5, "orcs": 2}, 2: {"party": 3, "orcs": 5}})
    # round 2 lost 5 - 3 = 2 pips: +1 once to each: 4 + 1 = 5 and 8 + 1 = 9 (the Decision)
    assert [seg(e) for e in attacks(doc, "Erik")][1:] == [(2, 5), (2, 9)]


def test_seg_08_a_monster_uses_its_listed_attack_speeds_unaltered():
    bear = {"name": "Bear", "hd": 4, "hp": 30, "attacks": 3, "weapons": [
        {"name": "left claw", "sf": 3, "damage": "1d3"}, {"name": "right claw", "sf": 3, "damage": "1d3"},
        {"name": "bite", "sf": 6, "damage": "1d6"}]}
    doc = play({"party": [pc("Brom", hp=40)], "bears": [bear]},
               {"Brom": [NONE], "Bear": [{"melee": "Brom", "outcome": [{"hit": False}] * 3}]},
               initiative={1: {"party": 2, "bears": 5}})
    # claws at Spd 3, the bite at Spd 6, as listed (no Spd - 1 for monsters)
    assert [(e["weapon"], seg(e)) for e in attacks(doc, "Bear")] == [
        ("left claw", (1, 3)), ("right claw", (1, 3)), ("bite", (1, 6))]


def test_seg_08_specialist_speed_option_lowers_spd_by_1():
    doc = play({"party": [pc("Brom", specialist=True)], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [NONE]}, initiative={1: {"party": 5, "orcs": 4}},
               options={"specialist_speed": True})
    assert seg(one(doc, "melee", "Brom")) == (1, 4)  # Spd 5 - 1


# -- SEG-09: the phases of a segment --------------------------------------------------------------------------


def _arrow_and_blade(init: dict[str, int]) -> dict:
    sides = {"party": [pc("Ash", weapons=[BOW]), pc("Brom", hp=20)], "orcs": [orc("Orc", hp=20, weapons=[SWORD])]}
    plan = {"Ash": [missile("Orc", 2)], "Brom": [NONE], "Orc": [miss_on("Brom")]}
    return play(sides, plan, initiative={1: init})


def test_seg_09_the_winner_runs_its_whole_turn_first():
    doc = _arrow_and_blade({"party": 4, "orcs": 5})
    # segment 5: the orcs won (5 vs 4, no penalty): their melee phase before the party's missile phase
    assert kinds(doc, "Ash", "Orc") == [("melee", "Orc"), ("missile", "Ash")]
    assert place(one(doc, "melee", "Orc")) == (1, 5, 1, 4) and place(one(doc, "missile", "Ash")) == (1, 5, 2, 2)


def test_seg_09_tied_sides_share_each_phase():
    doc = _arrow_and_blade({"party": 4, "orcs": 4})
    # tied: one shared turn, phase by phase: missile (2) before melee (4)
    assert kinds(doc, "Ash", "Orc") == [("missile", "Ash"), ("melee", "Orc")]


# -- SEG-10: when effects land ------------------------------------------------------------------------------


def _duel(init: dict[str, int], brom: dict[str, Any] | None = None) -> dict:
    return play({"party": [brom or pc("Brom", hp=8)], "orcs": [orc("Orc", weapons=[SWORD])]},
                {"Brom": [melee("Orc", 14, 5)], "Orc": [melee("Brom", 14, 8)]}, initiative={1: init})


def test_seg_10_tied_fighters_can_kill_each_other():
    doc = _duel({"party": 4, "orcs": 4})
    # both Spd 5, one shared turn: d20 14 >= 14 each; 5 damage = the orc's 5 hp, 8 = Brom's 8 hp
    assert [(e["actor"], place(e), e["damage"]) for e in events(doc, "melee")] == [
        ("Brom", (1, 5, 1, 4), 5), ("Orc", (1, 5, 1, 4), 8)]
    assert doc["combatants"]["Brom"]["down"] and doc["combatants"]["Orc"]["down"]
    assert doc["winner"] is None


def test_seg_10_the_winners_melee_lands_at_once():
    doc = _duel({"party": 5, "orcs": 4})
    # party first in segment 5: the orc falls (after the party's turn) before its own turn of the segment
    assert kinds(doc) == [("surprise", None), ("initiative", None), ("melee", "Brom"), ("down", "Orc")]
    assert place(one(doc, "down", "Orc")) == (1, 5, 1, 4)
    assert hp(doc, "Brom") == 8 and doc["winner"] == "party"


def test_seg_10_a_missile_lands_at_the_end_of_its_segment():
    doc = play({"party": [pc("Ash", weapons=[BOW])], "orcs": [orc("Orc", weapons=[SWORD])]},
               {"Ash": [missile("Orc", 14, 5)], "Orc": [melee("Ash", 14, 3)]},
               initiative={1: {"party": 5, "orcs": 4}})
    # Ash first: d20 14 hits for 5 (the orc's 5 hp), but the arrow lands at the end of segment 5,
    # so the orc still strikes in its own turn of segment 5 (d20 14 >= 14, 3 damage), then falls
    assert kinds(doc) == [("surprise", None), ("initiative", None), ("missile", "Ash"), ("melee", "Orc"),
                          ("wound", "Ash"), ("down", "Orc")]
    wound = one(doc, "wound")
    assert (place(wound), wound["target"], wound["damage"]) == ((1, 5, 99, 0), "Orc", 5)
    assert hp(doc, "Ash") == 7 and hp(doc, "Orc") == 0


# -- SEG-11, SEG-12: the arrow and the spell; disruption ------------------------------------------------------


def _arrow_at_caster(init: dict[str, int], mina: dict[str, Any] | None = None, damage: int = 3,
                     options: dict[str, Any] | None = None) -> dict:
    sides = {"party": [mina or wizard("Mina", 5)], "orcs": [orc("Archer", weapons=[BOW], hp=20)]}
    plan = {"Mina": [{"cast": "hold", "at": "Archer"}], "Archer": [missile("Mina", 14, damage)]}
    return play(sides, plan, initiative={1: init}, options=options)


def test_seg_11_a_winners_spell_is_safe_from_the_losers_arrow():
    doc = _arrow_at_caster({"party": 5, "orcs": 4})
    # segment 5: the party's magic phase (turn 1) before the orcs' missile phase (turn 2)
    assert kinds(doc, "Mina", "Archer") == [("cast-start", "Mina"), ("cast", "Mina"), ("missile", "Archer"),
                                            ("wound", "Archer")]
    assert events(doc, ("spell-lost", "spell-ruined")) == []
    assert hp(doc, "Mina") == 1  # d20 14 >= 19 - 10 = 9: 3 damage, at the end of segment 5


def test_seg_11_with_tied_initiative_the_arrow_arrives_first():
    doc = _arrow_at_caster({"party": 4, "orcs": 4})
    # tied: the missile phase (2) precedes the magic phase (3): the hit ruins the spell
    lost = one(doc, "spell-lost", "Mina")
    assert place(lost) == (1, 5, 1, 2)
    assert events(doc, "cast") == []


def test_seg_10_a_winners_arrow_disrupts_a_losing_caster_in_the_same_segment():
    doc = _arrow_at_caster({"party": 4, "orcs": 5})
    assert place(one(doc, "spell-lost", "Mina")) == (1, 5, 1, 2) and events(doc, "cast") == []


def test_seg_12_damage_before_the_spell_finishes_loses_it_from_memory():
    sides = {"party": [wizard("Mina", 6)], "orcs": [orc("Orc", weapons=[{"name": "dagger", "sf": 3,
                                                                          "damage": "1d4"}])]}
    doc = play(sides, {"Mina": [{"cast": "hold", "at": "Orc"}], "Orc": [melee("Mina", 14, 1)]},
               initiative={1: {"party": 5, "orcs": 4}})
    # the orc's dagger in segment 3 (Spd 3, no penalty for 1 pip) hits; the spell would finish in 6
    lost = one(doc, "spell-lost", "Mina")
    assert seg(lost) == (1, 3) and lost["spell"] == "hold"
    assert events(doc, "cast") == []


def test_seg_12_no_last_gasp_by_default():
    doc = _arrow_at_caster({"party": 4, "orcs": 4}, damage=4)
    # the tied arrow (4 damage = Mina's 4 hp) in her finishing segment: spell lost, then she falls
    assert one(doc, "spell-lost", "Mina") and events(doc, "cast") == []
    assert doc["combatants"]["Mina"]["down"]


def test_seg_12_last_gasp_option_lets_a_caster_killed_in_its_finishing_segment_cast():
    doc = _arrow_at_caster({"party": 4, "orcs": 4}, damage=4, options={"last_gasp": True})
    # the arrow's damage lands at the end of segment 5, after her magic phase: the spell goes off
    assert events(doc, "spell-lost") == []
    assert seg(one(doc, "cast", "Mina")) == (1, 5)
    assert seg(one(doc, "down", "Mina")) == (1, 5) and doc["combatants"]["Mina"]["down"]


def test_seg_01_a_spell_of_three_rounds_keeps_its_caster_casting_through_the_next():
    mina = {"name": "Mina", "class": "wizard", "level": 5, "hp": 10,
            "spells": [{"name": "ritual", "ct": "3 rounds"}, {"name": "hold", "ct": 1}]}
    doc = play({"party": [mina], "orcs": [orc("Orc")]},
               {"Mina": [{"cast": "ritual", "at": "Orc"}, {"cast": "hold", "at": "Orc"}], "Orc": [NONE] * 3},
               initiative={r: {"party": 5, "orcs": 4} for r in (1, 2, 3)}, max_rounds=3)
    # casting time 3 rounds = 30 segments: 30 - 10 - 10 = segment 10 of round 3; in round 2 Mina declares
    # nothing; in round 3 her next spell follows the ritual: 10 + CT 1 = 11
    assert [(e["spell"], seg(e)) for e in events(doc, "cast", "Mina")] == [("ritual", (3, 10)), ("hold", (3, 11))]
    busy = one(doc, "delay", "Mina")
    assert seg(busy) == (2, 0) and "still casting ritual" in busy["why"]
    assert [seg(e) for e in events(doc, "declare", "Mina")] == [(1, 0), (3, 0)]


def test_seg_07_a_charge_ends_in_a_single_strike():
    ogre = {"name": "Ogre", "hd": 4, "hp": 30, "attacks": 2, "weapons": [{"name": "club", "sf": 6, "damage": "2d6"}]}
    doc = play({"party": [pc("Brom", hp=30)], "ogres": [ogre]},
               {"Brom": [NONE], "Ogre": [{"melee": "Brom", "charge": True, "distance": 60, "outcome": {"hit": False}}]},
               initiative={1: {"party": 4, "ogres": 5}})
    # two attacks a round, but a charge strikes once: club Spd 6 + 4 = 10
    assert [seg(e) for e in attacks(doc, "Ogre")] == [(1, 10)]


def test_seg_04_a_caster_changing_its_declaration_abandons_the_spell():
    mina = {"name": "Mina", "class": "wizard", "level": 5, "hp": 10, "weapons": [{"name": "staff", "sf": 4}],
            "spells": [{"name": "hold", "ct": 6}]}
    doc = play({"party": [mina], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "hold", "at": "Orc"}, {"melee": "Orc", "change": 2, "outcome": {"hit": False}}],
                "Orc": [NONE]}, initiative={1: {"party": 5, "orcs": 4}})
    # the spell (segment 6) is dropped at segment 2; the staff strikes at 2 + Spd 4 = 6
    ruined = one(doc, "spell-ruined", "Mina")
    assert seg(ruined) == (1, 2) and "abandons the casting" in ruined["why"]
    assert events(doc, "cast") == [] and seg(one(doc, "melee", "Mina")) == (1, 6)


def test_seg_01_a_spell_spilling_a_few_segments_delays_the_casters_next_action():
    mina = {"name": "Mina", "class": "wizard", "level": 5, "hp": 10,
            "spells": [{"name": "slow", "ct": 9}, {"name": "hold", "ct": 2}]}
    doc = play({"party": [mina], "orcs": [orc("Orc")]},
               {"Mina": [{"cast": "slow", "at": "Orc"}, {"cast": "hold", "at": "Orc"}], "Orc": [NONE, NONE]},
               initiative={1: {"party": 1, "orcs": 6}, 2: {"party": 5, "orcs": 4}}, max_rounds=2,
               options={"overrun": 0})
    # round 1: CT 9 + 2 (lost 6 - 1 = 5 pips) = 11 > 10: round 2, segment 1; in round 2 the next spell
    # counts from there: 1 + CT 2 = 3 (the party won by 1 pip: no penalty)
    assert [(e["spell"], seg(e)) for e in events(doc, "cast", "Mina")] == [("slow", (2, 1)), ("hold", (2, 3))]
    assert "after slow finishes in segment 1" in one(doc, "cast", "Mina", spell="hold")["why"]
