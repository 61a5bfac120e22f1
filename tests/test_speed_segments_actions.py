"""speed-segments (seed 002), SEG-13 to SEG-20: the list of actions (delays, movement, missiles, magic, melee,
other actions), morale on a giant's charge and at step E; and bad input for the ruleset's own keys.

Every expectation is worked out by hand from the seed and RULES.md; see speed_segments_helpers for the
defaults (PC: THAC0 20, AC 5, 10 hp, sword Spd 5; orc: THAC0 19, AC 6, 5 hp, axe Spd 7; MV 12 = 120 ft).
"""

from __future__ import annotations

from typing import Any

import pytest

from affray import EncounterError, load_text, prepare
from side_d6_helpers import NONE, attacks, encounter, events, hp, melee, miss_on, missile, one, orc, pc
from speed_segments_helpers import BOW, kinds, place, play, seg

PARTY_FIRST = {1: {"party": 5, "orcs": 4}}  # the party wins by 1 pip: no penalty for the orcs


# -- SEG-13: delays ------------------------------------------------------------------------------------------


def test_seg_13_wait_acts_immediately_after_its_trigger():
    plan = {"Cid": [{"wait": "when the orc moves", "trigger": "Orc"}, melee("Orc", 14, 5)],
            "Orc": [melee("Cid", distance=30)]}
    doc = play({"party": [pc("Cid")], "orcs": [orc("Orc")]}, plan, initiative=PARTY_FIRST)
    # the orc's half move (30 ft <= 60) comes in segment 5 (its turn, 2nd); Cid's wait ends right there
    # and her next declaration strikes at once: d20 14 >= 14, 5 damage = the orc's 5 hp;
    # the orc's own strike (axe 7 + 5 = 12) never comes
    assert kinds(doc) == [("surprise", None), ("initiative", None), ("move", "Orc"), ("wait", "Cid"),
                          ("melee", "Cid"), ("down", "Orc")]
    assert [e["tick"] for e in (one(doc, "move"), one(doc, "wait"), one(doc, "melee"))] == [
        [1, 5, 2, 1, 0], [1, 5, 2, 1, 1], [1, 5, 2, 1, 2]]


def test_seg_13_a_wait_never_triggered_lapses_at_step_e():
    plan = {"Cid": [{"wait": True, "trigger": "Orc"}, miss_on("Orc")], "Orc": [NONE]}
    doc = play({"party": [pc("Cid")], "orcs": [orc("Orc")]}, plan, initiative=PARTY_FIRST, max_rounds=1)
    lapse = one(doc, "wait", "Cid")
    assert seg(lapse) == (1, 99) and "never acted" in lapse["why"]
    assert attacks(doc, "Cid") == []


def _delayed(kind: str, speed: int = 1, segments: int | None = None) -> dict:
    delay: dict[str, Any] = {"misc": f"{kind}!", "delay": kind, "speed": speed}
    if segments is not None:
        delay["segments"] = segments
    sides = {"party": [pc("Brom", hp=20), pc("Cid")], "orcs": [orc("Orc", hp=20)]}
    plan = {"Brom": [miss_on("Orc")], "Cid": [delay], "Orc": [miss_on("Brom")]}
    return play(sides, plan, initiative=PARTY_FIRST)


def test_seg_13_parley_holds_everyones_count_for_2_segments():
    doc = _delayed("parley")
    held = one(doc, "delay", "Cid")
    # the parley in segment 1; then Brom's sword 5 -> 5 + 2 = 7, the orc's axe 7 -> 9
    assert seg(held) == (1, 1) and held["segments"] == 2
    assert [(e["actor"], seg(e)) for e in events(doc, "melee")] == [("Brom", (1, 7)), ("Orc", (1, 9))]
    assert "held 2 segments by Cid's parley (SEG-13)" in one(doc, "melee", "Brom")["why"]


def test_seg_13_spectacle_holds_everyone_for_the_segments_given():
    doc = _delayed("spectacle", segments=3)
    assert [(e["actor"], seg(e)) for e in events(doc, "melee")] == [("Brom", (1, 8)), ("Orc", (1, 10))]


def test_seg_13_bait_holds_only_the_foes():
    doc = _delayed("bait")
    # Brom's strike stays in 5; only the orc is drawn away: 7 + 2 = 9
    assert [(e["actor"], seg(e)) for e in events(doc, "melee")] == [("Brom", (1, 5)), ("Orc", (1, 9))]


# -- SEG-14: movement ------------------------------------------------------------------------------------------


def _engaged_then(decl: dict[str, Any], orc_plan: list[dict[str, Any]] | None = None,
                  referee: dict[tuple[str, str], list[int]] | None = None, **kw: Any) -> dict:
    """Round 1: Brom and the orcs trade missed blows (engaged); round 2: Brom does ``decl``."""
    sides = {"party": [pc("Brom")], "orcs": [orc("Orc", count=2, hp=20)]}
    plan = {"Brom": [miss_on("Orc 1"), decl], "Orc 1": orc_plan or [miss_on("Brom"), NONE], "Orc 2": [NONE, NONE]}
    return play(sides, plan, initiative={1: {"party": 5, "orcs": 4}, 2: {"party": 5, "orcs": 4}},
                referee=referee, **kw)


def test_seg_14_shift_is_refused_when_engaged():
    doc = _engaged_then({"move": 10, "mode": "shift"})
    refused = one(doc, "impossible", "Brom")
    assert seg(refused) == (2, 5) and "shift is only for one not actively engaged" in refused["why"]


def test_seg_14_shift_repositions_within_10_ft():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {"Brom": [{"move": 30, "mode": "shift"}],
                                                                 "Orc": [NONE]}, initiative=PARTY_FIRST)
    move = one(doc, "move", "Brom")
    assert (seg(move), move["feet"]) == ((1, 5), 10)  # segment 5 (SEG-07 default), capped at 10 ft


def test_seg_14_withdrawal_backs_off_without_a_free_attack():
    doc = _engaged_then({"move": 30, "mode": "withdraw"})
    move = one(doc, "move", "Brom")
    assert (seg(move), move["feet"], move["disengage"]) == ((2, 5), 30, True)
    assert [e for e in events(doc, "melee") if e.get("opportunity")] == []


def test_seg_14_retreat_presses_the_foe_at_plus_2():
    doc = _engaged_then({"move": 30, "mode": "retreat", "dice": {"attack": 12}})
    press = attacks(doc, "Brom")[-1]
    # d20 12 + 2 = 14 >= 20 - 6 = 14: no damage, Orc 1 driven back, Brom backs away 30 ft
    assert (seg(press), press["hit"], press["damage"], press["maneuver"]) == ((2, 5), True, 0, "retreat")
    move = one(doc, "move", "Brom")
    assert move["disengage"] is True and move["feet"] == 30
    assert hp(doc, "Brom") == 10


def test_seg_14_a_failed_retreat_stays_engaged():
    doc = _engaged_then({"move": 30, "mode": "retreat", "dice": {"attack": 11}})
    # d20 11 + 2 = 13 < 14: still engaged
    assert one(doc, "move", "Brom")["stopped"] is True


def test_seg_14_break_and_run_rear_attack_and_close_foe_without_bonus():
    referee = {("attack", "Orc 1"): [12], ("damage", "Orc 1"): [3], ("attack", "Orc 2"): [13]}
    doc = _engaged_then({"move": 120, "mode": "flee", "close": ["Orc 2"]}, referee=referee)
    free = [e for e in events(doc, "melee") if e.get("opportunity")]
    # Orc 1, engaged: d20 12 + 2 (rear) = 14 >= 19 - 5 = 14, hit for 3; Orc 2, close: 13 < 14, miss
    assert [(e["actor"], seg(e), e["hit"], e["damage"]) for e in free] == [("Orc 1", (2, 5), True, 3),
                                                                          ("Orc 2", (2, 5), False, 0)]
    assert hp(doc, "Brom") == 7 and doc["combatants"]["Brom"].get("fled") is True


# -- SEG-15: morale on a giant's charge ----------------------------------------------------------------------------


def _giant_charge(target: dict[str, Any], size: str = "huge", morale: int = 9) -> dict:
    giant = {"name": "Giant", "hd": 8, "hp": 40, "size": size, "weapons": [{"name": "club", "sf": 5, "damage": "2d8"}]}
    target_name = target["name"]
    return play({"party": [pc("Brom"), target], "giants": [giant]},
                {"Brom": [NONE], target_name: [NONE],
                 "Giant": [{"melee": target_name, "charge": True, "distance": 60, "outcome": {"hit": False}}]},
                initiative={1: {"party": 4, "giants": 5}}, morale={1: {"party": morale}}, max_rounds=1)


def test_seg_15_a_giants_charge_makes_a_target_under_4_hd_check_at_once():
    doc = _giant_charge(pc("Hugo", henchman=True, pc=False, morale=7))
    check = one(doc, "morale")
    # club Spd 5 + 4 = 9: the charge arrives (movement phase), Hugo (1 HD) checks at once: 2d6 9 > 7 fails,
    # and breaks and runs at once; the giant's strike finds nobody
    assert (place(check), check["passed"], check["members"]) == ((1, 9, 1, 1), False, ["Hugo"])
    assert doc["combatants"]["Hugo"].get("fled") is True
    assert attacks(doc, "Giant") == [] and one(doc, "impossible", "Giant")


def test_seg_15_no_check_for_4_hd_or_for_a_large_charger():
    for doc in (_giant_charge(pc("Hugo", henchman=True, pc=False, level=4, morale=7)),
                _giant_charge(pc("Hugo", henchman=True, pc=False, morale=7), size="large")):
        # the charge comes (club Spd 5 + 4 = 9) and strikes; nobody checks morale
        assert events(doc, "morale") == [] and [seg(e) for e in attacks(doc, "Giant")] == [(1, 9)]


def test_seg_15_player_characters_never_check_g_07():
    doc = _giant_charge(pc("Cid"))
    assert events(doc, "morale") == [] and [seg(e) for e in attacks(doc, "Giant")] == [(1, 9)]


# -- SEG-16: missiles ------------------------------------------------------------------------------------------


def test_seg_16_pass_through_fire_right_after_the_target_moves():
    plan = {"Ash": [missile("Orc", 14, 5, pass_through=True)], "Orc": [melee("Ash", distance=30)]}
    doc = play({"party": [pc("Ash", weapons=[BOW])], "orcs": [orc("Orc")]}, plan, initiative=PARTY_FIRST)
    shot = one(doc, "missile", "Ash")
    # the orc's half move in segment 5 (turn 2); Ash fires at once: d20 14 >= 14, 5 damage, landing at the
    # end of segment 5; the orc's strike (7 + 5 = 12) never comes
    assert shot["tick"] == [1, 5, 2, 1, 2] and shot["hit"] is True
    assert place(one(doc, "wound")) == (1, 5, 99, 0) and doc["combatants"]["Orc"]["down"]
    assert attacks(doc, "Orc") == []


def test_seg_16_first_and_second_fire():
    bow = {**BOW, "rate": 2}
    doc = play({"party": [pc("Ash", weapons=[bow])], "orcs": [orc("Orc", hp=20)]},
               {"Ash": [{"missile": "Orc", "outcome": [{"hit": False}] * 2}], "Orc": [NONE]}, initiative=PARTY_FIRST)
    # 2 shots this round: as Spd 5 - 1 = 4, segments 1 x 4 and 2 x 4 (SEG-08)
    assert [seg(e) for e in attacks(doc, "Ash")] == [(1, 4), (1, 8)]


def test_seg_16_split_move_fire_adds_4_and_minus_2():
    doc = play({"party": [pc("Ash", weapons=[BOW])], "orcs": [orc("Orc")]},
               {"Ash": [missile("Orc", 15, split=True)], "Orc": [NONE]}, initiative=PARTY_FIRST)
    shot = one(doc, "missile", "Ash")
    # Spd 5 + 4 = 9; d20 15 - 2 = 13 < 14: miss
    assert (seg(shot), shot["hit"]) == ((1, 9), False)


def test_seg_16_artillery_fires_at_its_speed():
    ballista = {"name": "ballista", "sf": 9, "damage": "2d6", "kind": "missile"}
    doc = play({"party": [pc("Ash", weapons=[ballista])], "orcs": [orc("Orc", hp=20)]},
               {"Ash": [missile("Orc", 2, artillery=True)], "Orc": [NONE]}, initiative=PARTY_FIRST)
    shot = one(doc, "missile", "Ash")
    assert seg(shot) == (1, 9) and "artillery" in shot["why"]


# -- SEG-17: magic by item, caster, scroll ------------------------------------------------------------------------


@pytest.mark.parametrize(("by", "words"), [("caster", "casting Spd"), ("item", "used from an item"),
                                          ("scroll", "read from a scroll")])
def test_seg_17_magic_by_item_caster_or_scroll_at_its_casting_speed(by: str, words: str):
    mina = {"name": "Mina", "class": "wizard", "level": 5, "hp": 10, "spells": [{"name": "frost", "ct": 3}]}
    doc = play({"party": [mina], "orcs": [orc("Orc")]},
               {"Mina": [{"cast": "frost", "at": "Orc", "by": by}], "Orc": [NONE]}, initiative=PARTY_FIRST)
    cast = one(doc, "cast", "Mina")
    assert seg(cast) == (1, 3) and words in cast["why"]


def test_seg_17_spell_damage_lands_at_the_end_of_the_segment():
    mina = {"name": "Mina", "class": "wizard", "level": 5, "hp": 10,
            "spells": [{"name": "bolt", "ct": 3, "damage": "1d6"}]}
    doc = play({"party": [mina], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "bolt", "at": "Orc", "outcome": {"hit": True, "damage": 4}}], "Orc": [NONE]},
               initiative=PARTY_FIRST)
    wound = one(doc, "wound", "Mina")
    assert (place(wound), wound["damage"], hp(doc, "Orc")) == ((1, 3, 99, 0), 4, 16)


# -- SEG-18: melee ----------------------------------------------------------------------------------------------


def test_seg_18_unarmed_attack_spd_1():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 14, 2, unarmed=True)], "Orc": [NONE]}, initiative=PARTY_FIRST)
    blow = one(doc, "melee", "Brom")
    # unarmed Spd 1: segment 1; d20 14 hits, 1d2: 2
    assert (seg(blow), blow["weapon"], blow["damage"]) == ((1, 1), "unarmed", 2)


def test_seg_18_stunt_then_exploit_after_the_stunt():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [{"melee": "Orc", "stunt": True, "dice": [{"attack": 16}, {"attack": 3}]}], "Orc": [NONE]},
               initiative={1: {"party": 1, "orcs": 6}})
    # lost 6 - 1 = 5 pips: +2; the stunt 4 + 2 = 6 succeeds (16 >= 14), the exploit 4 + 4 + 2 = 10 misses (3)
    assert [(seg(e), e["hit"]) for e in attacks(doc, "Brom")] == [((1, 6), True), ((1, 10), False)]


# -- SEG-19: other actions --------------------------------------------------------------------------------------


def test_seg_19_imbibe_and_finish_activity_at_their_speed():
    sides = {"party": [pc("Brom"), pc("Cid")], "orcs": [orc("Orc")]}
    plan = {"Brom": [{"misc": "imbibe a potion"}], "Cid": [{"misc": "finish picking the lock", "speed": 3}],
            "Orc": [NONE]}
    doc = play(sides, plan, initiative=PARTY_FIRST)
    # imbibe without a speed: segment 5 (misc_speed); the lock at its speed 3; both in the morale phase (5)
    assert [(e["actor"], place(e)) for e in events(doc, "misc")] == [("Cid", (1, 3, 1, 5)), ("Brom", (1, 5, 1, 5))]


def test_seg_19_rally_restores_a_broken_ally():
    party = [pc("Brom"), pc("Cid", hp=3), pc("Hugo", henchman=True, pc=False, morale=7)]
    plan = {"Orc": [melee("Cid", 14, 3), NONE], "Brom": [NONE, {"misc": "rally!", "rally": True, "speed": 2,
                                                                "dice": {"morale": 6}}],
            "Cid": [NONE], "Hugo": [NONE, NONE]}
    doc = play({"party": party, "orcs": [orc("Orc")]}, plan,
               initiative={1: {"party": 4, "orcs": 5}, 2: {"party": 5, "orcs": 4}}, morale={1: {"party": 9}},
               max_rounds=2)
    checks = events(doc, "morale")
    # round 1: the orc kills Cid (d20 14, 3 damage); step E: Hugo checks, 2d6 9 > 7: broken.
    # round 2: Brom rallies in segment 2: 2d6 6 <= 7: rallied; Hugo's flight in segment 5 does not happen
    assert [(seg(e), e["passed"], e["members"]) for e in checks] == [((1, 99), False, ["Hugo"]),
                                                                     ((2, 2), True, ["Hugo"])]
    refused = one(doc, "impossible", "Hugo")
    assert seg(refused) == (2, 5) and "rallied" in refused["why"]
    assert not doc["combatants"]["Hugo"].get("fled")


# -- SEG-20: step E -------------------------------------------------------------------------------------------------


def test_seg_20_morale_at_step_e_after_the_first_casualty_fails_and_they_flee():
    orcs = {"morale": 8, "combatants": [orc("Orc", count=2)]}
    doc = play({"party": [pc("Brom")], "orcs": orcs},
               {"Brom": [melee("Orc 1", 14, 5)], "Orc 1": [NONE], "Orc 2": [NONE]},
               initiative={1: {"party": 5, "orcs": 4}, 2: {"party": 5, "orcs": 4}}, morale={1: {"orcs": 10}})
    check = one(doc, "morale")
    # Orc 1 down in segment 5 (1 of 2: the first casualty and half the side); E: 2d6 10 > 8 fails:
    # Orc 2 breaks and runs in round 2, segment 5 (SEG-07 default)
    assert (seg(check), check["passed"], check["triggers"]) == ((1, 99), False, ["first casualty", "half down"])
    flight = one(doc, "move", "Orc 2")
    assert (seg(flight), flight["mode"]) == ((2, 5), "flee") and doc["winner"] == "party"


def test_seg_20_a_clearly_overmatched_side_checks_before_the_fight():
    orcs = {"morale": 8, "combatants": [orc("Orc")]}
    doc = play({"party": [pc("Brom")], "orcs": orcs}, {"Brom": [NONE]},
               morale={0: {"orcs": 10}}, initiative={1: {"party": 5, "orcs": 4}})
    check = one(doc, "morale")
    # the referee's roll under round 0: 10 > 8 fails at the start of round 1; the orc flees in segment 5
    assert (seg(check), check["passed"], check["triggers"]) == ((1, 0), False, ["overmatched"])
    assert seg(one(doc, "move", "Orc")) == (1, 5) and doc["winner"] == "party"


# -- bad input ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("decl", "path", "words"), [
    ({"cast": "hold", "by": "wand"}, "plan.Mina[0].by", "use caster, item or scroll"),
    ({"cast": "hold", "stunt": True}, "plan.Mina[0].stunt", "goes with melee, not cast"),
    ({"wait": True, "trigger": "Nobody"}, "plan.Mina[0].trigger", "no combatant"),
    ({"melee": "Orc", "change": 3}, "plan.Mina[0].change", "first declaration"),
    ({"misc": "talk", "delay": "sing"}, "plan.Mina[0].delay", "parley, spectacle or bait"),
    ({"melee": "Orc", "split": "far"}, "plan.Mina[0].split", "feet moved after"),
    ({"melee": "Orc", "counter": True}, "plan.Mina[0].counter", "charge: true"),
])
def test_bad_declaration_keys_are_named_with_their_path(decl: dict[str, Any], path: str, words: str):
    mina = {"name": "Mina", "class": "wizard", "level": 1, "hp": 4, "spells": [{"name": "hold"}]}
    text = encounter({"party": [mina], "orcs": [orc("Orc")]}, {"Mina": [decl]})
    with pytest.raises(EncounterError) as err:
        prepare(load_text(text), ruleset="speed-segments")
    message = str(err.value)
    assert path in message and words in message, message



@pytest.mark.parametrize(("option", "value"), [("round_segments", 0), ("overrun", -1), ("move_segment", 0),
                                               ("giant_size", "enormous")])
def test_bad_options_are_refused(option: str, value: Any):
    text = encounter({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {}, options={option: value})
    with pytest.raises(EncounterError) as err:
        prepare(load_text(text), ruleset="speed-segments")
    assert f"options.{option}" in str(err.value)


def test_seg_03_the_referee_may_rule_a_party_surprised():
    # surprise: {orcs: true} with the orcs' die given as 2: +2 (without a die, +1)
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", weapons=[{"name": "club", "sf": 5}])]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, surprise={"orcs": True},
               surprise_rolls={"orcs": 2})
    assert one(doc, "surprise")["penalties"] == {"orcs": 2}
    assert [(e["actor"], place(e)) for e in events(doc, "melee")] == [("Brom", (1, 5, 1, 4)), ("Orc", (1, 7, 2, 4))]


def test_seg_13_a_wait_names_its_trigger_in_its_text():
    plan = {"Cid": [{"wait": "when the orc moves"}, melee("Orc", 14, 5)], "Orc": [melee("Cid", distance=30)]}
    doc = play({"party": [pc("Cid")], "orcs": [orc("Orc")]}, plan, initiative=PARTY_FIRST)
    # no trigger key: "orc" in the text names the Orc; its half move in segment 5 ends the wait
    assert one(doc, "wait", "Cid")["tick"] == [1, 5, 2, 1, 1]
    assert one(doc, "melee", "Cid")["tick"] == [1, 5, 2, 1, 2]


def test_seg_13_a_misc_parley_without_the_delay_key_is_a_parley():
    sides = {"party": [pc("Brom", hp=20), pc("Cid")], "orcs": [orc("Orc", hp=20)]}
    plan = {"Brom": [miss_on("Orc")], "Cid": [{"misc": "Parley!", "speed": 1}], "Orc": [miss_on("Brom")]}
    doc = play(sides, plan, initiative=PARTY_FIRST)
    # the parley in segment 1 holds everyone 2 segments: Brom 5 + 2 = 7, the orc 7 + 2 = 9
    assert one(doc, "delay", "Cid")["delay"] == "parley"
    assert [(e["actor"], seg(e)) for e in events(doc, "melee")] == [("Brom", (1, 7)), ("Orc", (1, 9))]


def test_a_weapon_without_spd_is_refused():
    text = encounter({"party": [pc("Brom", weapons=[{"name": "club", "speed": "fast"}])], "orcs": [orc("Orc")]}, {})
    with pytest.raises(EncounterError) as err:
        prepare(load_text(text), ruleset="speed-segments")
    assert "sides.party.combatants[0].weapons[0].sf" in str(err.value) and "Spd" in str(err.value)
