"""combat2-phase1 (seed 000): the round and its speed-factor bands: P1-03, P1-04, P1-09; adjusted SF: C2-01,
C2-02 (Table 2), C2-03 (repositioning before an attack, = P1-15), C2-24 (draw, misc), C2-29 (situational);
retargeting C2-04 (= P1-16), overkill C2-05 (= P1-17), simultaneity C2-06.

Bands (seed Table 1, P1-04): winner SF <2 -> s 1, 2-3 -> 2, 4-6 -> 3, 7-9 -> 4, 10+ -> 5; loser one half-segment
later; half-segment H = 6 (phase - 1) + s. Defaults in combat2_helpers (PC THAC0 20, AC 5, 10 hp; orc THAC0 19,
AC 6, 5 hp, short sword SF 3).
"""

from __future__ import annotations

from typing import Any

import pytest

from combat2_helpers import (
    DAGGER,
    LONG_BOW,
    NONE,
    ORCS_WIN,
    PARTY_WINS,
    attacks,
    down,
    events,
    hp,
    melee,
    miss_on,
    missile,
    one,
    orc,
    pc,
    phase_of,
    play,
    weapon,
    when,
)

WIN_S = {0: 1, 1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3, 7: 4, 8: 4, 9: 4, 10: 5, 12: 5}


def _swing(sf: int, track: str, phase: int = 1, **decl: Any) -> dict[str, Any]:
    """Brom swings a club of ``sf`` at a 30-hp orc in ``phase`` (a miss), on ``track``."""
    plan = {"Brom": [NONE] * (phase - 1) + [miss_on("Orc", **decl)]}
    doc = play({"party": [pc("Brom", weapons=[weapon("club", sf, "1d6")])], "orcs": [orc("Orc", hp=30)]}, plan,
               initiative=PARTY_WINS if track == "winner" else ORCS_WIN)
    return one(doc, "melee", "Brom")


# -- P1-04: speed-factor bands ------------------------------------------------------------------------------


@pytest.mark.parametrize("sf", sorted(WIN_S))
@pytest.mark.parametrize("track", ["winner", "loser"])
def test_p1_04_speed_factor_bands_of_phase_1(sf: int, track: str) -> None:
    """Table 1, phase 1: winner SF <2: 1, 2-3: 2, 4-6: 3, 7-9: 4, 10+: 5; loser <2: 2 ... 10+: 6."""
    s = WIN_S[sf] + (track == "loser")
    blow = _swing(sf, track)
    assert blow["tick"] == [1, 1, s, 0]
    assert blow["at"] == f"round 1, phase 1, half-segment {s} ({track})"


@pytest.mark.parametrize(("sf", "track", "half_segment"), [
    (1, "winner", 7), (3, "loser", 9), (8, "winner", 10), (9, "winner", 10), (9, "loser", 11),
    (10, "winner", 11), (10, "loser", 12)])
def test_p1_04_bands_of_phase_2_read_sf_7_8_as_7_9(sf: int, track: str, half_segment: int) -> None:
    """Table 1 phase 2 (offset 6) prints "SF 7-8"; RULES P1-04 Decision reads it as 7-9: a winner's SF 9 falls on
    half-segment 6 + 4 = 10, a loser's on 11; SF 10+ on 11 and 12."""
    blow = _swing(sf, track, phase=2)
    assert (when(blow), blow["tick"][1]) == ((1, half_segment), 2)
    assert blow["at"] == f"round 1, phase 2, half-segment {half_segment} ({track})"


@pytest.mark.parametrize(("sf", "track", "half_segment"), [(0, "winner", 13), (5, "loser", 16), (12, "loser", 18)])
def test_p1_04_bands_of_phase_3(sf: int, track: str, half_segment: int) -> None:
    """Table 1 phase 3 (offset 12): winner SF <2 -> 13; loser 4-6 -> 12 + 4 = 16; loser 10+ -> 18."""
    blow = _swing(sf, track, phase=3)
    assert blow["tick"][:3] == [1, 3, half_segment - 12]
    assert blow["at"] == f"round 1, phase 3, half-segment {half_segment} ({track})"


def test_p1_04_why_shows_the_band_arithmetic() -> None:
    """Spec: `why` of an attack shows the arithmetic ("loser track, SF 7 (long bow 7) falls in band 7-9:
    half-segment 5 of phase 1 (P1-04)"): the archer loses, long bow SF 8 -> band 7-9 -> loser 5."""
    doc = play({"party": [pc("Ari", weapons=[LONG_BOW])], "orcs": [orc("Orc", hp=30)]},
               {"Ari": [missile("Orc", 2)]}, initiative=ORCS_WIN)
    why = one(doc, "missile", "Ari")["why"]
    for part in ("loser track", "SF 8", "7-9", "half-segment 5", "P1-04"):
        assert part in why, (part, why)


# -- P1-03: the round of Table 1 ----------------------------------------------------------------------------


def test_p1_03_three_phases_of_six_half_segments_in_tick_order() -> None:
    """Table 1: phases 1-3 of half-segments 1-6, 7-12, 13-18. Brom (winner, SF 5 -> s 3) and the orc (loser,
    SF 3 -> s 3) trade misses in every phase: half-segments 3, 9, 15; the timeline is in tick order."""
    doc = play({"party": [pc("Brom", attacks=3)], "orcs": [orc("Orc", hp=30, attacks=3)]},
               {"Brom": [miss_on("Orc")] * 3, "Orc": [miss_on("Brom")] * 3}, initiative=PARTY_WINS)
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 3), (1, 9), (1, 15)]
    assert [when(e) for e in attacks(doc, "Orc")] == [(1, 3), (1, 9), (1, 15)]
    ticks = [e["tick"] for e in doc["events"]]
    assert ticks == sorted(ticks)


# -- C2-01: adjusted SF = base - magic - style ---------------------------------------------------------------


@pytest.mark.parametrize(("extra", "half_segment"), [
    ({}, 3), ({"magic": 2}, 2), ({"style": 2}, 2), ({"magic": 1, "style": 1}, 2), ({"magic": 1}, 3)])
def test_c2_01_adjusted_sf_is_base_minus_magic_minus_style(extra: dict[str, int], half_segment: int) -> None:
    """Seed: "(Base SF - Magic bonus - Style specialization)": long sword SF 5 (band 4-6, winner 3); +2 magic:
    3 (band 2-3, winner 2); style 2: 3; magic 1 + style 1: 3; magic 1 alone: 4, still band 4-6."""
    sword = weapon("long sword", 5, "1d8", **extra)
    doc = play({"party": [pc("Brom", weapons=[sword])], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")]}, initiative=PARTY_WINS)
    assert when(one(doc, "melee", "Brom")) == (1, half_segment)


def test_c2_01_magic_weapon_also_adds_to_hit_and_damage() -> None:
    """G-04 / C2-28: a +2 sword: d20 12 + 2 = 14 >= 20 - 6 = 14 hits; 1d8 3 + 2 = 5 damage; SF 5 - 2 = 3 ->
    winner half-segment 2."""
    doc = play({"party": [pc("Brom", weapons=[weapon("long sword", 5, "1d8", magic=2)])],
                "orcs": [orc("Orc", hp=30)]}, {"Brom": [melee("Orc", 12, 3)]}, initiative=PARTY_WINS)
    blow = one(doc, "melee", "Brom")
    assert (when(blow), blow["hit"], blow["damage"]) == ((1, 2), True, 5)
    assert hp(doc, "Orc") == 25


def test_c2_01_dex_does_not_lower_the_speed_factor() -> None:
    """RULES C2-01: DEX's reaction adjustment goes to the initiative roll, not the SF: Brom DEX 17 with an SF 4
    weapon stays in band 4-6 (winner half-segment 3), not 2-3."""
    doc = play({"party": [pc("Brom", dex=17, weapons=[weapon("mace", 4, "1d6")])], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")]}, initiative=PARTY_WINS)
    assert when(one(doc, "melee", "Brom")) == (1, 3)


# -- C2-02: Table 2, speed factor by size ---------------------------------------------------------------------


@pytest.mark.parametrize(("size", "half_segment"), [
    ("tiny", 1), ("small", 2), ("medium", 2), ("large", 3), ("huge", 4), ("gargantuan", 5)])
def test_c2_02_natural_attack_sf_by_size(size: str, half_segment: int) -> None:
    """Table 2 natural-attack SF: tiny 0 (<2: 1), small 2 (2-3: 2), medium 3 (2): large 6 (4-6: 3), huge 8
    (7-9: 4), gargantuan 10 (10+: 5); the monster wins."""
    beast = orc("Beast", hp=30, size=size, weapons=[weapon("claw", None, "1d4")])
    doc = play({"party": [pc("Brom")], "orcs": [beast]}, {"Beast": [miss_on("Brom")]}, initiative=ORCS_WIN)
    assert when(one(doc, "melee", "Beast")) == (1, half_segment)


def test_c2_02_a_monster_without_weapons_attacks_at_its_natural_sf() -> None:
    """Spec: a monster with no weapons attacks with a natural attack, SF by size (medium 3: winner band 2-3 ->
    half-segment 2), damage 1d2: d20 14 >= 19 - 5 = 14, 1d2 2 -> Brom 10 - 2 = 8."""
    beast = {"name": "Beast", "hp": 30, "ac": 6, "hd": 1}
    doc = play({"party": [pc("Brom")], "orcs": [beast]}, {"Beast": [melee("Brom", 14, 2)]}, initiative=ORCS_WIN)
    blow = one(doc, "melee", "Beast")
    assert (when(blow), blow["hit"], blow["damage"]) == ((1, 2), True, 2)
    assert hp(doc, "Brom") == 8


@pytest.mark.parametrize(("size", "sf", "half_segment"), [
    ("tiny", 4, 2), ("small", 2, 1), ("medium", 6, 3), ("large", 6, 4), ("huge", 5, 4), ("gargantuan", 6, 5)])
def test_c2_02_size_adjusts_a_monsters_weapon_sf(size: str, sf: int, half_segment: int) -> None:
    """Table 2 "SF adj. for weapon": tiny SF 4 - 1 = 3 (2-3: 2); small 2 - 1 = 1 (<2: 1); medium 6 + 0 (4-6: 3);
    large 6 + 1 = 7 (7-9: 4); huge 5 + 2 = 7 (4); gargantuan 6 + 4 = 10 (10+: 5); the monster wins."""
    beast = orc("Beast", hp=30, size=size, weapons=[weapon("club", sf, "1d6")])
    doc = play({"party": [pc("Brom")], "orcs": [beast]}, {"Beast": [miss_on("Brom")]}, initiative=ORCS_WIN)
    assert when(one(doc, "melee", "Beast")) == (1, half_segment)


def test_c2_02_an_enlarged_pc_takes_the_weapon_size_adjustment_too() -> None:
    """Seed: "I recommend these size adjustments affect PC's as well when they use weapons while ENLARGED"; RULES
    C2-02: "Applies to enlarged/diminished PCs too": a large Brom's club SF 6 + 1 = 7 -> winner band 7-9 -> 4."""
    doc = play({"party": [pc("Brom", size="large", weapons=[weapon("club", 6, "1d6")])],
                "orcs": [orc("Orc", hp=30)]}, {"Brom": [miss_on("Orc")]}, initiative=PARTY_WINS)
    assert when(one(doc, "melee", "Brom")) == (1, 4)


# -- C2-03 (P1-15): repositioning before an attack ---------------------------------------------------------


def test_c2_03_repositioning_adds_2_to_the_sf_for_that_phase() -> None:
    """Seed C: "take a step or two (max. 10') but must then add 2 to his SF for that phase": SF 5 + 2 = 7 ->
    winner band 7-9 -> half-segment 4 (3 without); the next phase's swing is back on 6 + 3 = 9."""
    doc = play({"party": [pc("Brom", attacks=2)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc", reposition=True), miss_on("Orc")]}, initiative=PARTY_WINS)
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 4), (1, 9)]


# -- C2-24: drawing a weapon, miscellaneous actions -----------------------------------------------------------


def test_c2_24_dropping_one_weapon_and_drawing_another_is_plus_3_sf() -> None:
    """Seed E: "DROPPING one and drawing another is allowed as part of an attack, with a delay of +3 SF": dagger
    SF 2 + 3 = 5 -> winner band 4-6 -> half-segment 3 (2 without)."""
    doc = play({"party": [pc("Brom", weapons=[weapon("long sword", 5), DAGGER])], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc", weapon="dagger", draw=True)]}, initiative=PARTY_WINS)
    assert when(one(doc, "melee", "Brom")) == (1, 3)


def test_c2_24_a_miscellaneous_action_takes_the_movement_portion_and_the_phase() -> None:
    """Seed E / F (Table 1 step F): a misc action (re-string a bow) happens with movement, after the attacks of the
    phase, and is the phase's one action: the next declaration is stated in phase 2."""
    doc = play({"party": [pc("Ari")], "orcs": [orc("Orc", hp=30)]},
               {"Ari": [{"misc": "re-strings her bow"}, NONE], "Orc": [miss_on("Ari")]}, initiative=PARTY_WINS)
    misc = one(doc, "misc", "Ari")
    assert (misc["tick"], misc["at"]) == ([1, 1, 7, 1], "round 1, phase 1, movement")
    assert misc["seq"] > one(doc, "melee", "Orc")["seq"]  # the orc's swing on half-segment 3 came first
    assert [phase_of(e) for e in events(doc, "declare", "Ari")] == [(1, 1), (1, 2)]


# -- C2-29: situational SF modifiers (PH Table 55) -------------------------------------------------------------


@pytest.mark.parametrize(("situation", "sf", "half_segment"), [
    ("hasted", 4, 2),  # 4 - 2 = 2: band 2-3
    ("slowed", 6, 4),  # 6 + 2 = 8: 7-9
    ("higher ground", 4, 2),  # 4 - 1 = 3: 2-3
    ("set to receive", 4, 2),  # 4 - 2 = 2: 2-3
    ("wading", 6, 4),  # 6 + 2 = 8
    ("deep water", 6, 5),  # 6 + 4 = 10: 10+
    ("underwater", 4, 5),  # 4 + 6 = 10
    ("hindered", 4, 4),  # 4 + 3 = 7
    ("waiting", 6, 4),  # 6 + 1 = 7
])
def test_c2_29_situational_modifiers_add_to_the_sf(situation: str, sf: int, half_segment: int) -> None:
    """RULES C2-29 ("Table 55 of the PH may be directly translated to speed factor modifiers"), winner track."""
    blow = _swing(sf, "winner", situation=[situation])
    assert when(blow) == (1, half_segment)


def test_c2_29_situational_modifiers_add_up() -> None:
    """Two modifiers: SF 4 + 2 (slowed) + 3 (hindered) = 9 -> band 7-9 -> winner half-segment 4; hasted and
    slowed cancel: 4 -> 3."""
    assert when(_swing(4, "winner", situation=["slowed", "hindered"])) == (1, 4)
    assert when(_swing(4, "winner", situation=["hasted", "slowed"])) == (1, 3)


# -- C2-06 / P1-09: simultaneity and preemption ------------------------------------------------------------


def test_c2_06_two_fighters_on_the_same_half_segment_kill_each_other() -> None:
    """Seed: "dying or other forms of incapacitation occur AFTER actions are performed". Brom (winner, SF 5 ->
    3) and the orc (loser, SF 3 -> 3) both strike on half-segment 3: Brom d20 14 >= 14, 1d8 5 = the orc's 5 hp;
    the orc d20 14 >= 19 - 5 = 14, 1d6 3 = Brom's 3 hp."""
    doc = play({"party": [pc("Brom", hp=3)], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 14, 5)], "Orc": [melee("Brom", 14, 3)]}, initiative=PARTY_WINS)
    brom, orc_ = one(doc, "melee", "Brom"), one(doc, "melee", "Orc")
    assert brom["tick"] == orc_["tick"] == [1, 1, 3, 0]
    assert (brom["damage"], orc_["damage"]) == (5, 3)
    downs = events(doc, "down")
    assert sorted(e["actor"] for e in downs) == ["Brom", "Orc"]
    assert all(e["tick"] == [1, 1, 3, 0] and e["seq"] > max(brom["seq"], orc_["seq"]) for e in downs)
    assert doc["winner"] is None


def test_p1_09_killing_on_an_earlier_half_segment_preempts_the_attack() -> None:
    """Seed E: "Killing an opponent on a half-segment prior to the opponent's attack preempts the attack". Brom's
    dagger (winner SF 2 -> 2) kills the orc (4 hp: d20 14, 1d4 4) before its loser SF 3 swing on 3."""
    doc = play({"party": [pc("Brom", weapons=[DAGGER])], "orcs": [orc("Orc", hp=4)]},
               {"Brom": [melee("Orc", 14, 4)], "Orc": [melee("Brom", 20, 6)]}, initiative=PARTY_WINS)
    assert one(doc, "down", "Orc")["tick"] == [1, 1, 2, 0]
    assert attacks(doc, "Orc") == []
    assert hp(doc, "Brom") == 10 and doc["winner"] == "party"


def test_p1_09_a_fast_weapon_of_a_loser_beats_a_slow_one_of_the_winner() -> None:
    """Seed section 1: "a blindingly fast weapon in the hands of an initiative loser is still faster than an
    ungainly one wielded by the winner": the orc's knife SF 1 (loser band <2 -> 2) kills Brom (3 hp: d20 14 >= 14,
    1d4 3) before his halberd SF 9 (winner 7-9 -> 4)."""
    doc = play({"party": [pc("Brom", hp=3, weapons=[weapon("halberd", 9, "1d10")])],
                "orcs": [orc("Orc", weapons=[weapon("knife", 1, "1d4")])]},
               {"Brom": [melee("Orc", 20, 10)], "Orc": [melee("Brom", 14, 3)]}, initiative=PARTY_WINS)
    assert one(doc, "melee", "Orc")["tick"] == [1, 1, 2, 0]
    assert down(doc, "Brom") and attacks(doc, "Brom") == []


# -- C2-05 (P1-17): overkill ----------------------------------------------------------------------------------


def test_c2_05_several_attackers_strike_a_target_dying_in_that_half_segment() -> None:
    """Seed: "an extra blow or two might fall before they realize that the opponent is dead": Brom and Cid (both
    winners, SF 5 -> 3) hit the 5-hp orc on half-segment 3 for 5 and 4: both land, 5 - 5 - 4 = -4, one death."""
    doc = play({"party": [pc("Brom"), pc("Cid")], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 14, 5)], "Cid": [melee("Orc", 15, 4)]}, initiative=PARTY_WINS)
    blows = attacks(doc, "Brom") + attacks(doc, "Cid")
    assert [(e["tick"], e["hit"], e["damage"]) for e in blows] == [([1, 1, 3, 0], True, 5), ([1, 1, 3, 0], True, 4)]
    assert hp(doc, "Orc") == -4
    assert one(doc, "down", "Orc")["tick"] == [1, 1, 3, 0]


# -- C2-04 (P1-16): retargeting ------------------------------------------------------------------------------


def _retarget(decl: dict[str, Any]) -> dict[str, Any]:
    """Brom's dagger (winner SF 2 -> half-segment 2) kills Orc 1 (4 hp: d20 14 >= 14, 1d4 4); Cid's long sword
    (SF 5 -> 3) was declared on Orc 1."""
    return play({"party": [pc("Brom", weapons=[DAGGER]), pc("Cid")], "orcs": [orc("Orc", count=2, hp=4)]},
                {"Brom": [melee("Orc 1", 14, 4)], "Cid": [decl, melee("Orc 2", 14, 3)]}, initiative=PARTY_WINS,
                max_rounds=1)


def test_c2_04_a_new_target_in_the_same_phase_costs_3_sf() -> None:
    """Seed C: "a new target WITHIN STRIKING DISTANCE may be declared in the same phase with a +3 SF penalty":
    SF 5 + 3 = 8 -> winner band 7-9 -> half-segment 4, on Orc 2: d20 14, 1d8 3 -> 4 - 3 = 1."""
    doc = _retarget(melee("Orc 1", 14, 3, retarget="Orc 2"))
    blow = attacks(doc, "Cid")[0]
    assert (blow["tick"], blow["target"], blow["hit"], blow["damage"]) == ([1, 1, 4, 0], "Orc 2", True, 3)
    assert hp(doc, "Orc 2") == 1
    assert "+3" in blow["why"] and "C2-04" in blow["why"]


def test_c2_04_without_a_new_target_the_attack_is_not_made_and_not_spent() -> None:
    """Seed C: "the attack attempt may be delayed until a later phase": without retarget Cid's swing at Orc 1
    (down on half-segment 2) is impossible on 3 and costs no attack: his one attack of the round falls in
    phase 2 on Orc 2 (winner SF 5 -> 6 + 3 = 9)."""
    doc = _retarget(melee("Orc 1", 14, 3))
    impossible = one(doc, "impossible", "Cid")
    assert phase_of(impossible) == (1, 1)
    (blow,) = attacks(doc, "Cid")
    assert (when(blow), blow["target"], blow["hit"]) == ((1, 9), "Orc 2", True)
    assert down(doc, "Orc 1") and hp(doc, "Orc 2") == 1


def test_c2_04_a_retarget_is_only_used_when_the_target_has_fallen() -> None:
    """Seed C: the new target applies "If an intended target falls in melee during a half segment PRIOR to the
    attacker's hit attempt": Brom misses Orc 1 (d20 2), so Cid strikes Orc 1 as declared at SF 5 (half-segment 3)."""
    doc = _retarget_with_brom(miss_on("Orc 1"), melee("Orc 1", 14, 3, retarget="Orc 2"))
    blow = attacks(doc, "Cid")[0]
    assert (blow["tick"], blow["target"]) == ([1, 1, 3, 0], "Orc 1")


def _retarget_with_brom(brom: dict[str, Any], cid: dict[str, Any]) -> dict[str, Any]:
    return play({"party": [pc("Brom", weapons=[DAGGER]), pc("Cid")], "orcs": [orc("Orc", count=2, hp=4)]},
                {"Brom": [brom], "Cid": [cid]}, initiative=PARTY_WINS)
