"""side-d6 (seed 001, Mythical Journeys), rules MJ-01 to MJ-08: the round, morale, declarations, initiative,
the order of steps, spells and missiles, ties, surprise. MJ-09 to MJ-20 are in test_side_d6_rules_*.py.

Every expectation is worked out by hand from the seed and RULES.md; see side_d6_helpers for the defaults
(PC: THAC0 20, AC 5, 10 hp; orc: THAC0 19, AC 6, 5 hp; MV 12 = 120 ft, 1/3 = 40 ft).
Ticks are (round, turn, step, sub): turn 0 is the start of the round, turn k the k-th side in initiative order.
"""

from __future__ import annotations

import pytest

from affray import EncounterError, load_text, prepare
from side_d6_helpers import (
    NONE,
    SHORT_BOW,
    attacks,
    each_round,
    encounter,
    events,
    hp,
    mage,
    melee,
    miss_on,
    missile,
    one,
    orc,
    pc,
    play,
    step_of,
)

# -- MJ-01: one-minute rounds ------------------------------------------------------------------------------


def test_mj_01_each_declaration_takes_one_round():
    """Seed: "Combat Rounds Last One Minute": one declaration per round, the rounds counted 1, 2, 3."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2), melee("Orc", 3), melee("Orc", 4)]})
    # d20 2, 3, 4 + 0 < THAC0 20 - AC 6 = 14: three misses, one in each round
    assert [(e["round"], e["tick"][0], e["hit"]) for e in attacks(doc, "Brom")] == [
        (1, 1, False), (2, 2, False), (3, 3, False)]
    assert [e["round"] for e in events(doc, "declare", "Brom")] == [1, 2, 3]


def test_mj_01_small_actions_are_presumed_within_the_minute():
    """Seed: "Therefore a lot of small actions can be presumed": closing 40 ft and striking fit in one round."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 14, 5, distance=40)]})
    move, hit = one(doc, "move", "Brom"), one(doc, "melee", "Brom")
    # 40 ft = 1/3 of MV 12 (120 ft); d20 14 >= 20 - 6 = 14: hit, 1d8 5 -> hp 20 - 5 = 15
    assert (move["round"], move["feet"]) == (1, 40)
    assert (hit["round"], hit["hit"], hit["damage"]) == (1, True, 5)
    assert hp(doc, "Orc") == 15


# -- MJ-02: morale at step 1 -------------------------------------------------------------------------------


def _four_orcs_die_one_a_round(morale: dict[int, dict[str, int]]) -> dict:
    orcs = {"morale": 8, "combatants": [orc("Orc", count=4)]}
    plan = {"Brom": [melee(f"Orc {k}", 14, 5) for k in range(1, 5)]}
    plan.update({f"Orc {k}": [miss_on("Brom")] * 4 for k in range(1, 5)})
    return play({"party": [pc("Brom")], "orcs": orcs}, plan, initiative=each_round(4, 5, 2), morale=morale)


def test_mj_02_checks_after_first_casualty_and_after_half_then_fights_to_death():
    """Seed: "Check Morale for either side first when one side or the other has their first casualty, and
    then again when half of that side or more has been defeated. If the side passes both Morale checks,
    they will fight until death." """
    # each round Brom's d20 14 >= 20 - 6 = 14 hits for 1d8 5 = an orc's 5 hp: one orc down a round
    doc = _four_orcs_die_one_a_round({2: {"orcs": 8}, 3: {"orcs": 7}})
    checks = events(doc, "morale")
    # round 2: 1 of 4 down (first casualty), 2d6 8 <= 8 passes; round 3: 2 of 4 = half, 7 <= 8 passes;
    # round 4 (3 of 4 down): both checks passed, no more checks
    assert [(step_of(e), e["side"], e["passed"], e["triggers"]) for e in checks] == [
        ((2, 0, 1), "orcs", True, ["first casualty"]),
        ((3, 0, 1), "orcs", True, ["half down"]),
    ]
    assert doc["combatants"]["Orc 4"]["down"] is True
    assert doc["winner"] == "party"


def test_mj_02_morale_roll_above_score_fails_and_the_side_runs_away():
    """Seed: "Otherwise someone will surrender or try to run away" (G-07: 2d6 above the score fails; flee)."""
    orcs = {"morale": 8, "combatants": [orc("Orc", count=3)]}
    doc = play({"party": [pc("Brom")], "orcs": orcs},
               {"Brom": [melee("Orc 1", 14, 5), melee("Orc 2", 2)], "Orc 2": [NONE], "Orc 3": [NONE]},
               initiative={1: {"party": 5, "orcs": 2}, 2: {"party": 2, "orcs": 5}}, morale={2: {"orcs": 9}})
    check = one(doc, "morale")
    # round 2, 1 of 3 down: 2d6 9 > 8 fails
    assert (step_of(check), check["passed"]) == ((2, 0, 1), False)
    flights = events(doc, "move", mode="flee")
    assert [(e["actor"], e["round"]) for e in flights] == [("Orc 2", 2), ("Orc 3", 2)]
    assert doc["combatants"]["Orc 2"].get("fled") is True and doc["combatants"]["Orc 3"].get("fled") is True
    assert doc["winner"] == "party"


def test_mj_02_failed_morale_may_surrender_instead():
    """Seed: "Otherwise someone will surrender" (option morale_failure=surrender)."""
    orcs = {"morale": 8, "combatants": [orc("Orc", count=3)]}
    doc = play({"party": [pc("Brom")], "orcs": orcs},
               {"Brom": [melee("Orc 1", 14, 5), melee("Orc 2", 2)], "Orc 2": [NONE], "Orc 3": [NONE]},
               initiative=each_round(2, 5, 2), morale={2: {"orcs": 12}},
               options={"morale_failure": "surrender"})
    assert one(doc, "morale")["passed"] is False  # 12 > 8
    assert events(doc, "move") == []  # they give up where they stand
    assert doc["combatants"]["Orc 3"].get("fled") is True
    assert doc["winner"] == "party"


def _cid_dies_in_round_1(options: dict | None = None, hugo: dict | None = None) -> dict:
    hugo = hugo if hugo is not None else pc("Hugo", henchman=True, pc=False, morale=7)
    party = [pc("Brom"), pc("Cid", hp=3), hugo]
    orcs = {"morale": 8, "combatants": [orc("Orc", count=2)]}
    plan = {"Orc 1": [melee("Cid", 14, 3), miss_on("Brom")], "Orc 2": [miss_on("Brom")] * 2,
            "Brom": [melee("Orc 1", 2)] * 2, "Hugo": [melee("Orc 2", 2)] * 2}
    # Orc 1: d20 14 >= 19 - 5 = 14, 3 damage = Cid's 3 hp: the party's first casualty; all else misses
    return play({"party": party, "orcs": orcs}, plan, initiative=each_round(2, 2, 5),
                morale={2: {"orcs": 5, "party": 5}}, options=options)


def test_mj_02_own_first_casualty_checks_only_the_side_that_lost_someone():
    """RULES MJ-02 Decision (morale_first_casualty=own, default): the party checks after its first casualty;
    the orcs, who lost nobody, do not. Only the henchman Hugo checks: PCs never do (G-07)."""
    doc = _cid_dies_in_round_1()
    assert one(doc, "down", "Cid")["round"] == 1
    check = one(doc, "morale")
    # party: 1 of 3 down, morale = Hugo's 7; 2d6 5 <= 7 passes
    assert (step_of(check), check["side"], check["members"], check["passed"]) == (
        (2, 0, 1), "party", ["Hugo"], True)


def test_mj_02_any_first_casualty_checks_both_sides_monsters_first():
    """Seed: "first when one side or the other has their first casualty"; step 1: "First the monsters, then
    the Henchmen of the Player-Characters" (option morale_first_casualty=any)."""
    doc = _cid_dies_in_round_1({"morale_first_casualty": "any"})
    checks = events(doc, "morale")
    assert [(e["side"], e["passed"]) for e in checks] == [("orcs", True), ("party", True)]  # 5 <= 8, 5 <= 7
    assert checks[0]["seq"] < checks[1]["seq"]
    assert checks[0]["tick"] < checks[1]["tick"]
    assert all(step_of(e) == (2, 0, 1) for e in checks)


def test_mj_02_a_henchman_checks_morale_without_being_marked_non_pc():
    """Seed: "then the Henchmen of the Player-Characters": a combatant marked henchman on the PCs' side is not
    a player character and checks morale after the party's first casualty."""
    doc = _cid_dies_in_round_1(hugo=pc("Hugo", henchman=True, morale=7))
    check = one(doc, "morale")
    assert (check["side"], check["members"], check["passed"]) == ("party", ["Hugo"], True)  # 5 <= 7


def test_mj_02_player_characters_never_check_morale():
    """RULES MJ-02 / G-07: a side of player characters only makes no check after its first casualty."""
    plan = {"Orc 1": [melee("Cid", 14, 3), miss_on("Brom")], "Orc 2": [miss_on("Brom")] * 2,
            "Brom": [melee("Orc 1", 2)] * 2}
    doc = play({"party": [pc("Brom"), pc("Cid", hp=3)], "orcs": [orc("Orc", count=2)]}, plan,
               initiative=each_round(2, 2, 5))
    assert one(doc, "down", "Cid")["round"] == 1  # d20 14 >= 19 - 5, 3 damage
    assert events(doc, "morale") == []
    assert len(attacks(doc, "Brom")) == 2  # the fight went on into round 2


# -- MJ-03: declarations -----------------------------------------------------------------------------------


def test_mj_03_each_person_then_the_monsters_declare_before_initiative():
    """Seed step 2: "each person and then the monsters declare what kind of action they intend", before step 3's
    initiative (the monsters' side is written first in the file)."""
    doc = play({"orcs": [orc("Orc")], "party": [pc("Brom")]},
               {"Orc": [miss_on("Brom")], "Brom": [melee("Orc", 2)]}, initiative={1: {"party": 3, "orcs": 4}})
    brom, orc_ = one(doc, "declare", "Brom"), one(doc, "declare", "Orc")
    init = one(doc, "initiative")
    assert brom["seq"] < orc_["seq"] < init["seq"]
    assert step_of(brom) == step_of(orc_) == (1, 0, 2)
    assert step_of(init) == (1, 0, 3)


def test_mj_03_one_kind_of_action_per_declaration():
    """Seed: declare "what kind of action they intend" (one of five kinds): two kinds at once is bad input."""
    text = encounter({"party": [pc("Brom", weapons=[SHORT_BOW])], "orcs": [orc("Orc")]},
                     {"Brom": [{"melee": "Orc", "missile": "Orc"}]})
    with pytest.raises(EncounterError):
        prepare(load_text(text), ruleset="side-d6")


# -- MJ-04: side initiative ----------------------------------------------------------------------------------


def test_mj_04_the_side_that_rolls_higher_acts_first():
    """Seed: "The side that rolls higher gets to make their actions first": the orcs (d6 5 > 2) kill Brom
    before his blow."""
    doc = play({"party": [pc("Brom", hp=3)], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 14, 5)], "Orc": [melee("Brom", 14, 3)]},
               initiative={1: {"party": 2, "orcs": 5}})
    blow = one(doc, "melee", "Orc")
    # d20 14 >= 19 - 5 = 14: hit, 1d8 3 = Brom's 3 hp
    assert (blow["tick"], blow["hit"], blow["damage"]) == ([1, 1, 7, 1], True, 3)
    assert one(doc, "down", "Brom")["seq"] == blow["seq"] + 1
    assert attacks(doc, "Brom") == []  # fallen before the party's turn
    assert doc["winner"] == "orcs" and hp(doc, "Orc") == 5


def test_mj_04_each_round_the_sides_roll_again():
    """Seed steps 3 and 9: "Each side rolls 1d6 for Initiative" ... "Go back to #1": party 5 > 2 in round 1,
    orcs 6 > 1 in round 2."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2), melee("Orc", 2)], "Orc": [miss_on("Brom"), miss_on("Brom")]},
               initiative={1: {"party": 5, "orcs": 2}, 2: {"party": 1, "orcs": 6}})
    assert [(e["actor"], step_of(e)) for e in events(doc, "melee")] == [
        ("Brom", (1, 1, 7)), ("Orc", (1, 2, 7)), ("Orc", (2, 1, 7)), ("Brom", (2, 2, 7))]


def _three_sides(rolls: dict[str, int], options: dict | None = None) -> dict:
    plan = {"Brom": [melee("Orc", 2)], "Orc": [miss_on("Gob")], "Gob": [miss_on("Brom")]}
    return play({"party": [pc("Brom")], "orcs": [orc("Orc")], "goblins": [orc("Gob")]}, plan,
                initiative={1: rolls}, options=options)


def _melee_turns(doc: dict) -> dict[str, int]:
    return {e["actor"]: e["tick"][1] for e in events(doc, "melee")}


def test_mj_04_many_sides_act_in_descending_order_of_their_rolls():
    """RULES MJ-04 Decision (many_sides=descending): orcs 6, goblins 4, party 2 act 1st, 2nd, 3rd."""
    doc = _three_sides({"party": 2, "orcs": 6, "goblins": 4})
    assert _melee_turns(doc) == {"Orc": 1, "Gob": 2, "Brom": 3}


def test_mj_04_many_sides_tied_rolls_act_together():
    """RULES MJ-04 Decision: "tied sides act together": orcs 5 and goblins 5 share the 1st turn, party 2 next."""
    doc = _three_sides({"party": 2, "orcs": 5, "goblins": 5})
    assert _melee_turns(doc) == {"Orc": 1, "Gob": 1, "Brom": 2}


def test_mj_04_many_sides_highest_first_then_all_others_together():
    """Option many_sides=highest_first: orcs 6 first, goblins 4 and party 2 together."""
    doc = _three_sides({"party": 2, "orcs": 6, "goblins": 4}, {"many_sides": "highest_first"})
    assert _melee_turns(doc) == {"Orc": 1, "Gob": 2, "Brom": 2}


# -- MJ-05: steps 4-8 --------------------------------------------------------------------------------------


def test_mj_05_movement_missiles_spells_melee_then_miscellaneous():
    """Seed steps 4-8: "Movement happens", "Ranged Attacks happen", "Magic Spells are cast", "Melee Attacks
    happen", "Miscellaneous Actions happen ... These actions happen last" (written in the reverse order)."""
    party = [pc("Quaff"), pc("Brom"), mage("Mina", "sleep"), pc("Ari", weapons=[SHORT_BOW]), pc("Mover")]
    plan = {"Quaff": [{"misc": "drinks a potion"}], "Brom": [melee("Orc", 2)], "Mina": [{"cast": "sleep",
            "at": "orcs"}], "Ari": [missile("Orc", 2)], "Mover": [{"move": 30, "mode": "half"}]}
    doc = play({"party": party, "orcs": [orc("Orc", hp=30)]}, plan)
    timed = events(doc, ("move", "missile", "cast", "melee", "misc"))
    assert [(e["actor"], e["kind"], step_of(e)) for e in timed] == [
        ("Mover", "move", (1, 1, 4)), ("Ari", "missile", (1, 1, 5)), ("Mina", "cast", (1, 1, 6)),
        ("Brom", "melee", (1, 1, 7)), ("Quaff", "misc", (1, 1, 8))]
    assert [e["tick"] for e in timed] == sorted(e["tick"] for e in timed)


def test_mj_05_moving_a_third_of_base_move_is_free():
    """Seed step 4: "Characters and monsters can move 1/3 of their base movement in scale inches for free"
    (MV 12 = 120 ft: 40 ft, then the attack in the same round)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]}, {"Brom": [melee("Orc", 15, 6, distance=40)]})
    assert one(doc, "move", "Brom")["feet"] == 40
    blow = one(doc, "melee", "Brom")
    assert (step_of(blow), blow["hit"], blow["damage"]) == ((1, 1, 7), True, 6)  # 15 >= 14; 1d8 6


def test_mj_05_moving_farther_precludes_any_other_action_that_round():
    """Seed step 4: "Moving farther than that precludes taking any other actions that Round" (50 ft > 40)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]}, {"Brom": [melee("Orc", 15, 6, distance=50)]})
    move = one(doc, "move", "Brom")
    assert (move["round"], move["feet"]) == (1, 50)
    assert attacks(doc, "Brom") == []
    assert hp(doc, "Orc") == 20


def test_mj_05_a_close_longer_than_a_full_move_continues_next_round():
    """CONTRACT: an action spanning several declaration points occupies them all. 150 ft to close with MV 12:
    round 1 moves the full 120 ft (no attack, step 4), round 2 closes the last 30 ft (< 40 free) and strikes."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 15, 6, distance=150)]}, max_rounds=5)
    assert [(e["round"], e["feet"]) for e in events(doc, "move", "Brom")] == [(1, 120), (2, 30)]
    blow = one(doc, "melee", "Brom")
    assert (blow["round"], blow["hit"], blow["damage"]) == (2, True, 6)  # 15 >= 14; 1d8 6
    assert hp(doc, "Orc") == 14


@pytest.mark.parametrize(("missile_rate", "shots"), [(True, 2), (False, 1)])
def test_mj_05_missile_fire_rate_gives_shots_per_round(missile_rate, shots):
    """Option missile_rate (MJ-05): a short bow of rate 2 looses 2 arrows at step 5, or 1 with the option off."""
    bow = {**SHORT_BOW, "rate": 2}
    doc = play({"party": [pc("Ari", weapons=[bow])], "orcs": [orc("Orc", hp=20)]},
               {"Ari": [{"missile": "Orc", "dice": [{"attack": 2}, {"attack": 3}]}]},
               options={"missile_rate": missile_rate})
    shots_fired = attacks(doc, "Ari")
    assert len(shots_fired) == shots
    assert all(step_of(e) == (1, 1, 5) and e["hit"] is False for e in shots_fired)  # d20 2, 3 < 14


# -- MJ-06: step 9, the side that lost; missiles ruin spells -----------------------------------------------


def test_mj_06_the_losing_side_repeats_the_steps_after_the_winners_last_step():
    """Seed step 9: "Repeat for the side that lost Initiative": the party's step 8 precedes the orcs' step 4."""
    doc = play({"party": [pc("Quaff")], "orcs": [orc("Orc")]},
               {"Quaff": [{"misc": "pushes over a table"}], "Orc": [{"move": 30, "mode": "half"}]},
               initiative={1: {"party": 6, "orcs": 1}})
    misc, move = one(doc, "misc", "Quaff"), one(doc, "move", "Orc")
    assert (step_of(misc), step_of(move)) == ((1, 1, 8), (1, 2, 4))
    assert misc["seq"] < move["seq"]


def test_mj_06_missile_hit_going_second_ruins_the_spell_and_loses_it_from_mind():
    """Seed step 6: "if you are going second ... and you are hit with a missile weapon, your spell has been
    ruined and is lost from your mind"; step 5 "In the case of hitting an enemy Magic-User, their spell is
    ruined!" The lost spell cannot be cast in round 2."""
    doc = play({"party": [mage("Mina", "sleep")], "orcs": [orc("Archer", weapons=[SHORT_BOW])]},
               {"Mina": [{"cast": "sleep", "at": "orcs"}] * 2, "Archer": [missile("Mina", 14, 3)]},
               initiative={1: {"party": 2, "orcs": 5}})
    shot = one(doc, "missile", "Archer")
    # d20 14 >= 19 - 10 = 9: hit, 1d6 3 -> Mina 4 - 3 = 1
    assert (step_of(shot), shot["hit"], shot["damage"]) == ((1, 1, 5), True, 3)
    lost = one(doc, "spell-lost", "Mina")
    assert (lost["spell"], lost["seq"]) == ("sleep", shot["seq"] + 1)
    assert events(doc, "spell-ruined") == [] and events(doc, "cast", "Mina") == []
    assert one(doc, "impossible", "Mina")["round"] == 2  # no longer memorised
    assert hp(doc, "Mina") == 1


def test_mj_06_missile_hit_on_a_caster_whose_side_goes_first_ruins_only_this_casting():
    """Step 5 "their spell is ruined!"; only going second or on a tie is it "lost from your mind". Ari's arrow
    into Mina's melee with the orc strikes Mina (MJ-16) at the party's step 5: ruined, still memorised."""
    party = [mage("Mina", "sleep"), pc("Ari", weapons=[SHORT_BOW])]
    plan = {"Mina": [NONE, {"cast": "sleep", "at": "orcs"}, {"cast": "sleep", "at": "orcs"}],
            "Ari": [NONE, missile("Orc", 14, 2, more={"into_melee": 1})],
            "Orc": [miss_on("Mina"), NONE, NONE]}
    doc = play({"party": party, "orcs": [orc("Orc")]}, plan,
               initiative={1: {"party": 2, "orcs": 5}, 2: {"party": 5, "orcs": 2}, 3: {"party": 5, "orcs": 2}})
    shot = one(doc, "missile", "Ari")
    # d20 14 >= 20 - 6 = 14 hits; the melee is Mina and Orc (file order): d2 1 = Mina, 1d6 2 -> 4 - 2 = 2
    assert (step_of(shot), shot["target"], shot["damage"]) == ((2, 1, 5), "Mina", 2)
    assert one(doc, "spell-ruined", "Mina")["spell"] == "sleep"
    assert events(doc, "spell-lost") == []
    assert [e["round"] for e in events(doc, "cast", "Mina")] == [3]
    assert hp(doc, "Mina") == 2


def test_mj_06_missile_hit_on_a_tie_loses_the_spell():
    """Seed step 6: "or there is a tie in the Initiative that Round": missiles (step 5) before spells (6)."""
    doc = play({"party": [mage("Mina", "sleep")], "orcs": [orc("Archer", weapons=[SHORT_BOW])]},
               {"Mina": [{"cast": "sleep", "at": "orcs"}], "Archer": [missile("Mina", 9, 1)]},
               initiative={1: {"party": 3, "orcs": 3}})
    # d20 9 >= 19 - 10 = 9: hit, 1 damage
    assert one(doc, "spell-lost", "Mina")["tick"] == [1, 1, 5, 1]
    assert events(doc, "cast", "Mina") == []


@pytest.mark.parametrize(("melee_disrupts", "ruined"), [(False, False), (True, True)])
def test_mj_06_melee_hit_ruins_a_spell_only_with_melee_disrupts(melee_disrupts, ruined):
    """RULES MJ-06 Decision: "a melee or other hit does not ruin a spell in this ruleset (the seed names only
    missiles)"; option melee_disrupts. The orcs win: their melee (step 7) precedes the party's spells (step 6)."""
    doc = play({"party": [mage("Mina", "sleep")], "orcs": [orc("Orc")]},
               {"Mina": [{"cast": "sleep", "at": "orcs"}], "Orc": [melee("Mina", 14, 2)]},
               initiative={1: {"party": 2, "orcs": 5}}, options={"melee_disrupts": melee_disrupts})
    blow = one(doc, "melee", "Orc")
    assert (step_of(blow), blow["hit"], blow["damage"]) == ((1, 1, 7), True, 2)  # 14 >= 19 - 10; 1d8 2
    if ruined:  # the party goes second: lost from mind
        assert one(doc, "spell-lost", "Mina")["seq"] == blow["seq"] + 1
        assert events(doc, "cast", "Mina") == []
    else:
        assert events(doc, ("spell-lost", "spell-ruined")) == []
        assert step_of(one(doc, "cast", "Mina")) == (1, 2, 6)


# -- MJ-07: ties --------------------------------------------------------------------------------------------


def test_mj_07_on_a_tie_two_fighters_can_kill_each_other():
    """Seed: "In the case of a tie, everybody does everything simultaneously.\""""
    doc = play({"party": [pc("Brom", hp=3)], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 14, 5)], "Orc": [melee("Brom", 14, 3)]},
               initiative={1: {"party": 4, "orcs": 4}})
    brom, orc_ = one(doc, "melee", "Brom"), one(doc, "melee", "Orc")
    # Brom: 14 >= 20 - 6, 1d8 5 = Orc's 5 hp; Orc: 14 >= 19 - 5, 1d8 3 = Brom's 3 hp; same tick
    assert brom["tick"] == orc_["tick"] == [1, 1, 7, 1]
    assert (brom["damage"], orc_["damage"]) == (5, 3)
    assert doc["combatants"]["Brom"]["down"] and doc["combatants"]["Orc"]["down"]
    assert doc["winner"] is None


def test_mj_07_on_a_tie_the_steps_run_once_for_both_sides():
    """RULES MJ-07: "steps 4-8 run once for all sides together": the orc's arrow (step 5) fells Brom before
    his sword (step 7), though neither side won."""
    doc = play({"party": [pc("Brom", hp=3)], "orcs": [orc("Archer", weapons=[SHORT_BOW])]},
               {"Brom": [melee("Archer", 14, 5)], "Archer": [missile("Brom", 14, 3)]},
               initiative={1: {"party": 2, "orcs": 2}})
    shot = one(doc, "missile", "Archer")
    assert (shot["tick"], shot["hit"], shot["damage"]) == ([1, 1, 5, 1], True, 3)  # 14 >= 14; 1d6 3
    assert one(doc, "down", "Brom")["tick"] == [1, 1, 5, 1]
    assert attacks(doc, "Brom") == [] and hp(doc, "Archer") == 5
    assert doc["winner"] == "orcs"


# -- MJ-08: the surprise round ------------------------------------------------------------------------------


def test_mj_08_a_5_or_6_surprises_and_the_other_side_may_not_act_in_round_1():
    """Seed: "Have each side throw 1d6. On a result of 5 or 6, they have achieved surprise. In this case, the
    other side may not act in the first Round of melee." """
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 2), melee("Orc", 2)], "Orc": [melee("Brom", 4)]},
               surprise="check", surprise_rolls={"party": 5, "orcs": 2}, initiative={2: {"party": 5, "orcs": 2}})
    assert [e for e in doc["events"] if e["actor"] == "Orc" and e["round"] == 1] == []
    assert [e["round"] for e in events(doc, "surprise")] == [1]  # "For the first Round of combat only"
    blow = one(doc, "melee", "Orc")  # round 2 takes the orc's FIRST declaration: d20 4
    assert (blow["round"], blow["dice"][0]["value"], blow["hit"]) == (2, 4, False)  # 4 < 19 - 5 = 14
    assert [e["round"] for e in attacks(doc, "Brom")] == [1, 2]


def test_mj_08_a_4_does_not_surprise():
    """Seed: "On a result of 5 or 6": 4 and 4 surprise nobody; both act in round 1."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 2)], "Orc": [miss_on("Brom")]},
               surprise="check", surprise_rolls={"party": 4, "orcs": 4}, initiative={1: {"party": 5, "orcs": 2}})
    assert [e["round"] for e in events(doc, "melee")] == [1, 1]


def test_mj_08_surprisers_gain_plus_1_to_hit_in_the_surprise_round_only():
    """Seed: "During the Surprise Round, the side which has surprised the other gains a +1 To-Hit." """
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 13, 4), melee("Orc", 13, 4)], "Orc": [NONE]},
               surprise={"orcs": True}, initiative={2: {"party": 5, "orcs": 2}})
    first, second = attacks(doc, "Brom")
    # round 1: d20 13 + 1 = 14 >= 20 - 6 = 14: hit, 1d8 4; round 2: 13 < 14: miss
    assert (first["round"], first["hit"], first["damage"]) == (1, True, 4)
    assert (second["round"], second["hit"]) == (2, False)
    assert hp(doc, "Orc") == 16


def test_mj_08_surprise_bonus_stacks_with_other_to_hit_bonuses():
    """Seed: "This bonus does “stack” with other To-Hit bonuses": d20 11 + 1 (surprise) + 2 (rear, MJ-14)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 11, 4, rear=True)]}, surprise={"orcs": True})
    blow = one(doc, "melee", "Brom")
    assert (blow["hit"], blow["damage"]) == (True, 4)  # 11 + 1 + 2 = 14 >= 20 - 6 = 14


def test_mj_08_both_sides_surprised_neither_acts_in_round_1():
    """Seed: "It is possible for both sides to be Surprised at once!"; RULES MJ-08 Decision
    (mutual_surprise=both_lose, default): neither acts in the surprise round."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 13, 4)], "Orc": [miss_on("Brom")]},
               surprise="check", surprise_rolls={"party": 6, "orcs": 5}, initiative={2: {"party": 5, "orcs": 2}})
    assert [e["kind"] for e in doc["events"] if e["round"] == 1] == ["surprise"]
    blow = one(doc, "melee", "Brom")
    # round 2, no surprise bonus: 13 < 14
    assert (blow["round"], blow["hit"]) == (2, False)


def test_mj_08_mutual_surprise_cancel_both_act_without_bonus():
    """Option mutual_surprise=cancel: "the surprise cancels out": both act in round 1 and, nobody having
    surprised the other, nobody gets the +1 (d20 13 < 20 - 6 = 14 misses)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 13, 4)], "Orc": [melee("Brom", 13, 4)]},
               surprise="check", surprise_rolls={"party": 6, "orcs": 5}, initiative={1: {"party": 5, "orcs": 2}},
               options={"mutual_surprise": "cancel"})
    assert [(e["actor"], e["round"]) for e in events(doc, "melee")] == [("Brom", 1), ("Orc", 1)]
    # Brom 13 < 14; Orc 13 < 19 - 5 = 14
    assert [e["hit"] for e in events(doc, "melee")] == [False, False]
