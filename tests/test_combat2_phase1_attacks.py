"""combat2-phase1 (seed 000): attacks per phase and per round: P1-07, P1-13; multi-part routines C2-07; multiple
attacks C2-25; two weapons with different rates C2-26 (the seed's 7th-level fighter); the archer and the orc.

Bands (P1-04): winner SF <2 -> s 1, 2-3 -> 2, 4-6 -> 3, 7-9 -> 4, 10+ -> 5; loser one later; H = 6 (phase - 1) + s.
Attacks per round (spec, 2e): fighters 1-6: 1, 7-12: 3/2, 13+: 2; specialists 3/2, 2, 5/2; 3/2 = 1 in odd rounds,
2 in even rounds. THAC0 of a fighter = 21 - level.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat2_helpers import (
    DAGGER,
    LONG_BOW,
    LONG_SWORD,
    NONE,
    ORCS_WIN,
    PARTY_WINS,
    SHORT_SWORD,
    attacks,
    events,
    hp,
    init,
    melee,
    miss_on,
    missile,
    one,
    orc,
    pc,
    phase_of,
    play,
    refused,
    weapon,
    when,
)

# -- the seed's archer and orc (P1-07, P1-13) ---------------------------------------------------------------


def _archer_and_orc(arrow: dict[str, int]) -> dict[str, Any]:
    """Seed: "an orc with a short sword (SF 3) needs to close 40' in order to hack a Longbowman (SF 8) who is
    already targeting the orc". The archer (level 1, THAC0 20) wins (3 < 7); the orc (MV 12: 40 ft a phase)."""
    return play({"party": [pc("Archer", weapons=[LONG_BOW])], "orcs": [orc("Orc")]},
                {"Archer": [missile("Orc", **arrow), NONE], "Orc": [melee("Archer", 14, 4, distance=40)]},
                initiative=PARTY_WINS)


def test_p1_07_the_archer_shoots_in_phase_1_the_orc_moves_and_swings_in_phase_2() -> None:
    """Seed section 1: "if an orc must move into position, he has to wait until the next phase to actually swing
    ..., while a stationary archer 40 feet away could wreck the monster's whole day before it takes a step".
    Long bow SF 8: winner band 7-9 -> half-segment 4 (a miss, d20 2); the orc moves 40 ft in phase 1's movement
    portion and swings in phase 2: loser SF 3, band 2-3 -> 6 + 3 = 9: d20 14 >= 19 - 5 = 14, 1d6 4 -> 10 - 4."""
    doc = _archer_and_orc({"attack": 2})
    shot, move, swing = one(doc, "missile", "Archer"), one(doc, "move", "Orc"), one(doc, "melee", "Orc")
    assert (shot["tick"], shot["at"]) == ([1, 1, 4, 0], "round 1, phase 1, half-segment 4 (winner)")
    assert (move["tick"], move["feet"]) == ([1, 1, 7, 1], 40)
    assert (swing["tick"], swing["at"]) == ([1, 2, 3, 0], "round 1, phase 2, half-segment 9 (loser)")
    assert (swing["hit"], swing["damage"]) == (True, 4)
    assert shot["seq"] < move["seq"] < swing["seq"]
    assert hp(doc, "Archer") == 6


def test_p1_07_the_archer_wrecks_the_orcs_day_before_it_takes_a_step() -> None:
    """The same, the arrow hits on half-segment 4: d20 14 >= 20 - 6 = 14, 1d6 5 = the orc's 5 hp: it never moves."""
    doc = _archer_and_orc({"attack": 14, "damage": 5})
    assert one(doc, "down", "Orc")["tick"] == [1, 1, 4, 0]
    assert events(doc, "move", "Orc") == [] and attacks(doc, "Orc") == []
    assert doc["winner"] == "party"


# -- P1-07: one action per phase, attacks up to the round's number ------------------------------------------


def test_p1_07_one_attack_per_round_a_second_declared_attack_waits() -> None:
    """Seed: "make one attack (one per phase up to normal number of attacks per round)": a level-1 fighter has 1;
    his second declared attack (phase 2) is not made in round 1: the spec calls it impossible, CONTRACT.md makes a
    forbidden action wait (a delay): either way it is refused in phase 2 and nothing is rolled for it then."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc"), miss_on("Orc")]}, initiative=init((3, 7), (3, 7)))
    assert [when(e) for e in attacks(doc, "Brom") if e["round"] == 1] == [(1, 3)]
    assert refused(doc, "Brom")[0] == (1, 2)


def test_p1_07_three_halves_one_attack_in_odd_rounds_two_in_even_rounds() -> None:
    """Spec: 3/2 = 1 in odd rounds, 2 in even rounds. A level-7 fighter (3/2, THAC0 14; d20 2 < 14 - 6 = 8
    misses) attacks in phase 1 of round 1 (SF 5, winner -> 3) and in phases 1 and 2 of round 2 (3 and 9)."""
    plan = {"Brom": [miss_on("Orc"), NONE, NONE, miss_on("Orc"), miss_on("Orc")]}
    doc = play({"party": [pc("Brom", level=7)], "orcs": [orc("Orc", hp=30)]}, plan,
               initiative=init((3, 7), (3, 7)))
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 3), (2, 3), (2, 9)]
    assert refused(doc, "Brom") == []


# -- P1-13: three chances -------------------------------------------------------------------------------------


def test_p1_13_one_attack_has_three_chances_the_last_in_phase_3() -> None:
    """Seed: "a combatant with one attack per round has three opportunities to make her attack": Brom waits two
    phases and swings in phase 3 (winner SF 5 -> 12 + 3 = 15)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [NONE, NONE, miss_on("Orc")]}, initiative=PARTY_WINS)
    blow = one(doc, "melee", "Brom")
    assert (blow["tick"], blow["at"]) == ([1, 3, 3, 0], "round 1, phase 3, half-segment 15 (winner)")


def test_p1_13_closing_for_two_phases_leaves_only_phase_3_to_attack() -> None:
    """Seed: "a fighter with multiple attacks per round will still only have one attack opportunity during the
    round if he needs to spend the first two phases closing". A level-13 fighter (2 attacks, THAC0 8) closes
    80 ft at MV 12 (40 + 40), then ONE attack in phase 3 (SF 5 -> 15): RULES C2-25 Decision double-attacks only
    when a round's attacks exceed 3, so 2 attacks never give a double attack (d20 1: a natural 1 misses). The orc
    idles through the round."""
    doc = play({"party": [pc("Brom", level=13)], "orcs": [orc("Orc", hp=60)]},
               {"Brom": [melee("Orc", distance=80, dice=[{"attack": 1}, {"attack": 1}])], "Orc": [NONE] * 3},
               initiative=PARTY_WINS)
    assert [(phase_of(e), e["feet"]) for e in events(doc, "move", "Brom")] == [((1, 1), 40), ((1, 2), 40)]
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 15)]


def test_p1_13_the_attack_after_closing_happens_even_when_no_plan_is_left() -> None:
    """Seed: the closer "has to wait until the next phase to actually swing": Brom closes 40 ft in phase 1 and
    swings in phase 2 (winner SF 5 -> 9: d20 14 >= 14, 1d8 4), though nobody has anything else planned."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 14, 4, distance=40)]}, initiative=PARTY_WINS)
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 9)]
    assert hp(doc, "Orc") == 26


# -- C2-25: more attacks than opportunities: double attacks ------------------------------------------------


def test_c2_25_four_attacks_double_attack_in_one_phase_adding_the_sf() -> None:
    """Seed: "he may double-attack within a phase, adding his weapon's SF to the half-segment of the first
    attack". A monster with 4 attacks and SF 2 claws wins: phase 1 (4 due > 3 phases): half-segments 2 and
    2 + 2 = 4; phases 2 and 3 (2 due, 2 phases): single attacks on 8 and 14."""
    beast = orc("Beast", hp=30, attacks=4, weapons=[weapon("claw", 2, "1d4")])
    two = [{"attack": 2}, {"attack": 2}]
    doc = play({"party": [pc("Brom", hp=30)], "orcs": [beast]},
               {"Beast": [melee("Brom", dice=two), miss_on("Brom"), miss_on("Brom")]}, initiative=ORCS_WIN)
    assert [e["tick"] for e in attacks(doc, "Beast")] == [[1, 1, 2, 0], [1, 1, 4, 0], [1, 2, 2, 0], [1, 3, 2, 0]]


def test_c2_25_the_second_attack_is_capped_at_the_phases_last_half_segment() -> None:
    """Spec: the second at s + adjusted SF, capped at the phase's 6th half-segment: a loser's SF 5 (band 4-6 -> 4)
    + 5 = 9 -> 6."""
    beast = orc("Beast", hp=30, attacks=4, weapons=[weapon("axe", 5, "1d8")])
    doc = play({"party": [pc("Brom", hp=30)], "orcs": [beast]},
               {"Beast": [melee("Brom", dice=[{"attack": 2}, {"attack": 2}])]}, initiative=PARTY_WINS)
    assert [e["tick"] for e in attacks(doc, "Beast")] == [[1, 1, 4, 0], [1, 1, 6, 0]]
    assert "C2-25" in attacks(doc, "Beast")[1]["why"]


def test_c2_25_a_fighter_against_creatures_below_1_hd_double_attacks() -> None:
    """Seed: "Fighters gain such a rapid attacking capability when fighting creatures below 1 HD" (AD&D: one attack
    per level). A level-5 fighter (THAC0 16; d20 1 misses) with a dagger (SF 2) against a 1/2-HD kobold has 5
    attacks: phase 1 (5 due > 3 phases): 2 and 2 + 2 = 4; phase 2 (3 due > 2): 8 and 10; phase 3: 14."""
    two = [{"attack": 1}, {"attack": 1}]
    doc = play({"party": [pc("Brom", level=5, weapons=[DAGGER])],
                "orcs": [{"name": "Kobold", "hd": "1/2", "hp": 50, "ac": 7}]},
               {"Brom": [melee("Kobold", dice=two), melee("Kobold", dice=two), melee("Kobold", 1)]},
               initiative=PARTY_WINS)
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 2), (1, 4), (1, 8), (1, 10), (1, 14)]


# -- C2-07: multi-part routines -------------------------------------------------------------------------------


def test_c2_07_a_routine_strikes_on_one_half_segment_at_the_slowest_parts_sf() -> None:
    """Seed: "MULTI-PART ATTACK ROUTINE ... Use the SF for the slowest component": long sword SF 5 and dagger
    SF 2 together at SF 5 (winner band 4-6 -> 3), each part on its declared target."""
    doc = play({"party": [pc("Brom", weapons=[LONG_SWORD, DAGGER])], "orcs": [orc("Orc", count=2, hp=30)]},
               {"Brom": [melee("Orc 1", routine=["long sword", "dagger"], targets=["Orc 1", "Orc 2"],
                               dice=[{"attack": 2}, {"attack": 2}])]}, initiative=PARTY_WINS)
    parts = attacks(doc, "Brom")
    assert [(e["tick"], e["target"], e["weapon"]) for e in parts] == [
        ([1, 1, 3, 0], "Orc 1", "long sword"), ([1, 1, 3, 0], "Orc 2", "dagger")]


def test_c2_07_a_part_is_not_redirected_when_an_earlier_part_kills_the_target() -> None:
    """Seed: "All attack components ... will follow-through within the same half-segment and therefore may not be
    redirected even if the first part of the sequence kills the target". A bear (large: natural SF 6, winner
    band 4-6 -> 3): claw d20 14 >= 19 - 6 = 13, 1d4 4 = Orc 1's 4 hp; the bite still lands on Orc 1 (1d8 3)."""
    bear = orc("Bear", hp=30, size="large", weapons=[weapon("claw", None, "1d4"), weapon("bite", None, "1d8")])
    doc = play({"party": [bear], "orcs": [orc("Orc", count=2, hp=4)]},
               {"Bear": [melee("Orc 1", routine=["claw", "bite"], targets=["Orc 1", "Orc 1"],
                               dice=[{"attack": 14, "damage": 4}, {"attack": 14, "damage": 3}])]},
               initiative=PARTY_WINS)
    parts = attacks(doc, "Bear")
    assert [(e["tick"], e["target"], e["damage"]) for e in parts] == [([1, 1, 3, 0], "Orc 1", 4),
                                                                      ([1, 1, 3, 0], "Orc 1", 3)]
    assert hp(doc, "Orc 1") == -3 and hp(doc, "Orc 2") == 4


def test_c2_07_split_forms_one_form_per_phase_each_once_a_round() -> None:
    """Seed OPTION: "Separate distinct attack forms, such as paired claws from a bite, so that a creature may best
    position itself for each component attack. The creature may only use one attack form per phase"; spec: each
    form once per round. A bear (1 routine a round) with split_forms claws (both claws together) in phase 1 and
    bites in phase 2 of the same round (large natural SF 6, winner: 3, then 6 + 3 = 9); RULES P2-09's Table 7
    reads the same way (2 forms: form, form, delay)."""
    bear = orc("Bear", hp=30, size="large", weapons=[weapon("claw", None, "1d4"), weapon("bite", None, "1d8")])
    doc = play({"party": [bear], "orcs": [orc("Orc", hp=30)]},
               {"Bear": [melee("Orc", routine=["claw", "claw"], dice=[{"attack": 2}, {"attack": 2}]),
                         melee("Orc", routine=["bite"], dice=[{"attack": 2}]), NONE]},
               initiative=init((3, 7), (3, 7)), options={"split_forms": True})
    assert [(when(e), e["weapon"]) for e in attacks(doc, "Bear")] == [((1, 3), "claw"), ((1, 3), "claw"),
                                                                      ((1, 9), "bite")]


# -- C2-26: two weapons with different attack rates: the seed's 7th-level fighter ------------------------------


def test_c2_26_the_7th_level_fighter_with_long_and_short_sword() -> None:
    """Seed: "a 7th level fighter uses a long and short sword, but is specialized only with the longsword. Her
    attacks per round are therefore 2 and 3/2 respectively. She first attacks with both at a SF of 5 ... and in a
    later phase attacks with longsword only, also at SF 5. Next round she would get two attacks with the short
    sword, so she could make two paired attacks." Winner SF 5 -> half-segments 3 and 9 of each round (THAC0 14,
    d20 2 < 14 - 5 = 9 misses); a third routine in round 1 is refused (the long sword's 2 attacks are spent)."""
    fighter = pc("Vala", level=7, specialist=True, weapons=[LONG_SWORD, SHORT_SWORD])
    pair = melee("Ogre", routine=["long sword", "short sword"], dice=[{"attack": 2}, {"attack": 2}])
    doc = play({"party": [fighter], "orcs": [orc("Ogre", hp=100, ac=5)]},
               {"Vala": [pair, pair, NONE, pair, pair]}, initiative=init((3, 7), (3, 7)))
    assert [(when(e), e["weapon"]) for e in attacks(doc, "Vala")] == [
        ((1, 3), "long sword"), ((1, 3), "short sword"),
        ((1, 9), "long sword"),
        ((2, 3), "long sword"), ((2, 3), "short sword"),
        ((2, 9), "long sword"), ((2, 9), "short sword")]
    assert refused(doc, "Vala") == []


def test_c2_26_a_third_paired_routine_in_round_1_is_refused() -> None:
    """The same fighter: round 1 holds 2 long-sword attacks (phases 1 and 2); a routine declared in phase 3 is
    refused there (P1-07)."""
    fighter = pc("Vala", level=7, specialist=True, weapons=[LONG_SWORD, SHORT_SWORD])
    pair = melee("Ogre", routine=["long sword", "short sword"], dice=[{"attack": 2}, {"attack": 2}])
    doc = play({"party": [fighter], "orcs": [orc("Ogre", hp=100, ac=5)]},
               {"Vala": [pair, pair, pair]}, initiative=init((3, 7), (3, 7)))
    assert [when(e) for e in attacks(doc, "Vala") if e["round"] == 1] == [(1, 3), (1, 3), (1, 9)]
    assert refused(doc, "Vala")[0] == (1, 3)


@pytest.mark.parametrize("level", [1, 7])
def test_c2_26_specialist_first_weapon_rate(level: int) -> None:
    """Spec (P2-07 scheme): a specialist's first weapon: level 1-6: 3/2 (1 attack in round 1, 2 in round 2), 7-12:
    2 a round; winner SF 5 -> 3, 9 (d20 1 misses)."""
    fighter = pc("Vala", level=level, specialist=True)
    swing = melee("Ogre", 1)
    plan = [swing, NONE, NONE, swing, swing] if level == 1 else [swing, swing, NONE, swing, swing]
    doc = play({"party": [fighter], "orcs": [orc("Ogre", hp=100, ac=5)]}, {"Vala": plan},
               initiative=init((3, 7), (3, 7)))
    expected = [(1, 3), (2, 3), (2, 9)] if level == 1 else [(1, 3), (1, 9), (2, 3), (2, 9)]
    assert [when(e) for e in attacks(doc, "Vala")] == expected
