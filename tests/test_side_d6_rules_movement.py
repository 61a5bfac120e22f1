"""side-d6 (seed 001), rules MJ-09 to MJ-13: opportunity attacks, fighting withdrawal, full retreat, the charge,
setting the spear. Defaults and arithmetic conventions: see side_d6_helpers.

Free attacks (MJ-09) are out of turn and carry no declaration, so their dice are given by the referee
(``referee={(purpose, actor): [values]}``), as a referee would throw them at the table (G-06).
"""

from __future__ import annotations

import pytest

from affray import EncounterError, load_text, prepare
from side_d6_helpers import (
    MISS,
    NONE,
    SHORT_BOW,
    SPEAR,
    TUSKS,
    attacks,
    encounter,
    events,
    hp,
    melee,
    miss_on,
    one,
    orc,
    pc,
    play,
    step_of,
)

RETREAT = {"move": 200, "mode": "retreat"}


def _retreat_from_brom(referee: dict, foe: dict | None = None, then: list | None = None) -> dict:
    """Round 1: Brom and the orc trade misses and are engaged; round 2 (and on): the orc's ``then``."""
    return play({"party": [pc("Brom")], "orcs": [foe or orc("Orc", hp=10)]},
                {"Brom": [melee("Orc", 2)], "Orc": [miss_on("Brom"), *(then or [RETREAT])]},
                initiative={1: {"party": 5, "orcs": 2}}, referee=referee)


# -- MJ-09: the opportunity attack -------------------------------------------------------------------------


def test_mj_09_full_retreat_gives_a_free_attack_whose_damage_stops_the_mover():
    """Seed: "Should a combatant currently engaged in melee attempt a Full Retreat ... you get to have one
    “free” attack out of turn. If this attack succeeds at dealing at least one Hit Point of damage, the
    moving combatant must stop moving." """
    doc = _retreat_from_brom({("attack", "Brom"): [15], ("damage", "Brom"): [4]})
    free = one(doc, "melee", "Brom", opportunity=True)
    move = one(doc, "move", "Orc")
    # d20 15 >= 20 - 6 = 14: hit, 1d8 4 -> 10 - 4 = 6; out of turn, at the retreat's own moment, before it
    assert (free["round"], free["target"], free["hit"], free["damage"]) == (2, "Orc", True, 4)
    assert free["tick"] == move["tick"] and free["seq"] < move["seq"]
    # "the moving combatant must stop moving": it stops where it stood, so the full retreat covers 0 of its 120 ft
    assert (move["stopped"], move["feet"]) == (True, 0)
    assert "none of its 120 ft is covered" in move["detail"]
    assert hp(doc, "Orc") == 6 and not doc["combatants"]["Orc"].get("fled")


def test_mj_09_a_free_attack_that_misses_does_not_stop_the_mover():
    """Seed: the mover stops only if the free attack deals "at least one Hit Point of damage"."""
    doc = _retreat_from_brom({("attack", "Brom"): [13]})
    free = one(doc, "melee", "Brom", opportunity=True)
    assert (free["hit"], free["damage"]) == (False, 0)  # 13 < 20 - 6 = 14
    move = one(doc, "move", "Orc")
    assert not move.get("stopped") and move["feet"] == 120  # full speed: MV 12 = 120 ft (MJ-11)


@pytest.mark.parametrize(("d20", "stopped"), [(12, True), (11, False)])
def test_mj_09_moving_right_past_a_foe_on_a_charge_gives_it_a_free_attack(d20, stopped):
    """Seed: "or if a character moves right past you (including on a Charge), you get to have one “free”
    attack". Brom charges Orc 1 past Orc 2; Brom charging is AC 5 + 2 = 7 (MJ-12): Orc 2 needs 19 - 7 = 12."""
    referee = {("attack", "Orc 2"): [d20], ("damage", "Orc 2"): [3]}
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", count=2)]},
               {"Brom": [melee("Orc 1", 12, 9, charge=True, distance=60, past=["Orc 2"])]}, referee=referee,
               max_rounds=1)
    free = one(doc, "melee", "Orc 2", opportunity=True)
    assert (free["target"], free["hit"]) == ("Brom", stopped)
    assert bool(one(doc, "move", "Brom").get("stopped")) is stopped
    if stopped:  # 3 damage: Brom stops 60 ft short and his charge is gone
        assert hp(doc, "Brom") == 7
        assert attacks(doc, "Brom") == [] and one(doc, "impossible", "Brom")["round"] == 1
        assert hp(doc, "Orc 1") == 5
    else:  # the charge lands: 12 + 2 = 14 >= 20 - 6; 2d8 9 >= Orc 1's 5 hp
        blow = one(doc, "melee", "Brom")
        assert (blow["hit"], blow["damage"]) == (True, 9)
        assert doc["combatants"]["Orc 1"]["down"] is True


def test_mj_09_only_one_opportunity_attack_per_combatant_per_round():
    """Seed: "Only one such Opportunity Attack may be attempted per combatant per Round": Orc 1 and Orc 2 both
    retreat from Brom in round 2 (one free attack), Orc 3 in round 3 (a new round, a new one)."""
    plan = {"Brom": [melee("Orc 1", 2)], "Orc 1": [miss_on("Brom"), RETREAT],
            "Orc 2": [miss_on("Brom"), RETREAT], "Orc 3": [miss_on("Brom"), NONE, RETREAT]}
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", count=3)]}, plan,
               initiative={1: {"party": 5, "orcs": 2}}, referee={("attack", "Brom"): [2, 2, 2]})
    free = events(doc, "melee", "Brom", opportunity=True)
    # each d20 2 < 14 misses, so every retreat goes through
    assert [(e["round"], e["target"], e["hit"]) for e in free] == [(2, "Orc 1", False), (3, "Orc 3", False)]
    assert [(e["actor"], e["round"]) for e in events(doc, "move")] == [("Orc 1", 2), ("Orc 2", 2), ("Orc 3", 3)]


# -- MJ-10: the fighting withdrawal ------------------------------------------------------------------------


def test_mj_10_withdrawal_at_the_start_of_the_round_one_third_speed_no_free_attack():
    """Seed: "Withdrawing is a move that takes place at the beginning of the Round"; "moves backwards up to
    one-third speed (usually 4” or less)"; "without ... creating an attack of opportunity"."""
    doc = _retreat_from_brom({}, then=[{"move": 60, "mode": "withdraw"}])
    move = one(doc, "move", "Orc")
    # turn 0 (start of round 2) though the orcs did not win; 60 ft asked, 1/3 of 120 ft = 40 ft allowed
    assert (step_of(move), move["feet"]) == ((2, 0, 4), 40)
    assert events(doc, "melee", opportunity=True) == []


def test_mj_10_withdrawing_keeps_full_armour_class():
    """Seed: "retains his full Armor Class": the shield still counts against Brom's blow (AC 5, not 6)."""
    foe = orc("Orc", hp=10, ac=5, shield=True)
    doc = play({"party": [pc("Brom")], "orcs": [foe]},
               {"Brom": [melee("Orc", 2), melee("Orc", 14, 3)], "Orc": [miss_on("Brom"), {"move": 40,
                                                                                        "mode": "withdraw"}]},
               initiative={1: {"party": 5, "orcs": 2}, 2: {"party": 5, "orcs": 2}})
    blow = attacks(doc, "Brom")[1]  # his declared blow of round 2 still comes at step 7
    assert blow["round"] == 2 and blow["hit"] is False  # 14 < 20 - 5 = 15 (a retreater at AC 6 would be hit)
    assert hp(doc, "Orc") == 10


def test_mj_10_a_withdrawing_character_can_still_make_opportunity_attacks():
    """Seed: "A withdrawing character cannot attack or cast spells, although he can still make opportunity
    attacks": Cid runs right past the withdrawing orc."""
    doc = play({"party": [pc("Cid")], "orcs": [orc("Orc")]},
               {"Orc": [{"move": 40, "mode": "withdraw"}], "Cid": [{"move": 30, "mode": "half", "past": ["Orc"]}]},
               initiative={1: {"party": 5, "orcs": 2}}, referee={("attack", "Orc"): [14], ("damage", "Orc"): [2]})
    withdraw = one(doc, "move", "Orc")
    free = one(doc, "melee", "Orc", opportunity=True)
    # d20 14 >= 19 - 5 = 14: hit, 1d8 2 -> Cid 10 - 2 = 8, and he stops
    assert (free["target"], free["hit"], free["damage"]) == ("Cid", True, 2)
    assert withdraw["seq"] < free["seq"]
    assert one(doc, "move", "Cid")["stopped"] is True
    assert hp(doc, "Cid") == 8


# -- MJ-11: the full retreat -------------------------------------------------------------------------------


@pytest.mark.parametrize(("d20", "hit"), [(13, True), (12, False)])
def test_mj_11_full_retreat_loses_shield_and_dex_bonus(d20, hit):
    """Seed: "His opponent(s) get a free attack out of turn against him and the character does not receive the
    benefit of his Shield or DEX bonus to AC". Orc AC 4 with shield and DEX 16 (-2): 4 + 1 + 2 = 7."""
    doc = _retreat_from_brom({("attack", "Brom"): [d20], ("damage", "Brom"): [3]},
                             foe=orc("Orc", hp=10, ac=4, shield=True, dex=16))
    free = one(doc, "melee", "Brom", opportunity=True)
    # need 20 - 7 = 13 (20 - 4 = 16 with shield and DEX)
    assert free["hit"] is hit
    assert hp(doc, "Orc") == (7 if hit else 10)


def test_mj_11_damage_negates_the_retreat_and_he_is_stuck_another_round():
    """Seed: "If any attack deals damage to him, the Retreat is negated and the retreater is stuck in combat
    for another Round!": still engaged in round 3, retreating again provokes Brom again."""
    doc = _retreat_from_brom({("attack", "Brom"): [14, 2], ("damage", "Brom"): [3]}, then=[RETREAT, RETREAT])
    free = events(doc, "melee", "Brom", opportunity=True)
    # round 2: 14 >= 14, 1d8 3 -> 7, stopped; round 3: 2 < 14, he gets away
    assert [(e["round"], e["hit"], e["damage"]) for e in free] == [(2, True, 3), (3, False, 0)]
    assert [bool(e.get("stopped")) for e in events(doc, "move", "Orc")] == [True, False]
    assert hp(doc, "Orc") == 7


def test_mj_11_full_retreat_flees_at_full_speed():
    """Seed: "He moves away from melee at full speed (usually 12” or less)": a flight leaves the fight."""
    doc = _retreat_from_brom({("attack", "Brom"): [3]}, then=[{"move": 300, "mode": "flee"}])
    move = one(doc, "move", "Orc")
    assert (move["feet"], move["round"]) == (120, 2)  # MV 12 = 120 ft, not 300
    assert doc["combatants"]["Orc"].get("fled") is True
    assert doc["winner"] == "party"


def test_mj_11_an_ally_moving_into_melee_covers_the_retreat():
    """Seed: "The exception to this free-attack rule is if an ally moves into melee with the same opponent(s)
    to cover the retreat": Orc 2 closes on Brom as Orc 1 retreats; Brom gets no free attack."""
    plan = {"Brom": [melee("Orc 1", 2)], "Orc 1": [miss_on("Brom"), RETREAT],
            "Orc 2": [NONE, {"melee": "Brom", "distance": 20, **MISS}]}
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", count=2)]}, plan,
               initiative={1: {"party": 5, "orcs": 2}})
    assert events(doc, "melee", opportunity=True) == []
    retreat = one(doc, "move", "Orc 1")
    assert retreat["round"] == 2 and not retreat.get("stopped")


# -- MJ-12: the charge -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("d20", "hit"), [(11, True), (10, False)])
def test_mj_12_charge_plus_2_to_hit_double_damage_dice_then_bonuses(d20, hit):
    """Seed: "A Charging character is +2 to hit"; "the damage inflicted is double normal; throw twice the normal
    number of dice, and then apply bonuses (strength, magic, etc.)". A +1 sword, 60 ft run (half of 120 ft)."""
    sword = {"name": "sword", "sf": 5, "damage": "1d8", "magic": 1}
    doc = play({"party": [pc("Brom", weapons=[sword])], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", d20, 11, charge=True, distance=60)]})
    run_, blow = one(doc, "move", "Brom"), one(doc, "melee", "Brom")
    assert (run_["mode"], run_["feet"], step_of(run_)) == ("charge", 60, (1, 1, 4))
    # d20 11 + 2 (charge) + 1 (magic) = 14 >= 20 - 6 = 14; 2d8 = 11, + 1 magic = 12 -> 20 - 12 = 8
    assert (step_of(blow), blow["hit"], blow["damage"]) == ((1, 1, 7), hit, 12 if hit else 0)
    assert hp(doc, "Orc") == (8 if hit else 20)


def test_mj_12_a_charger_is_two_armour_classes_worse():
    """Seed: "A Charging character is +2 to hit, but -2 Armor Classes": the orc needs 19 - (5 + 2) = 12 against
    the charging Brom in round 1, and 19 - 5 = 14 in round 2."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2, charge=True, distance=60), melee("Orc", 2)],
                "Orc": [melee("Brom", 12, 4), melee("Brom", 12, 4)]},
               initiative={1: {"party": 5, "orcs": 2}, 2: {"party": 5, "orcs": 2}})
    assert [(e["round"], e["hit"], e["damage"]) for e in attacks(doc, "Orc")] == [(1, True, 4), (2, False, 0)]
    assert hp(doc, "Brom") == 6


def _check(plan: dict, party: list | None = None, foes: list | None = None) -> None:
    text = encounter({"party": party or [pc("Brom")], "beasts": foes or [orc("Orc")]}, plan)
    prepare(load_text(text), ruleset="side-d6")


def test_mj_12_a_charge_must_cover_at_least_half_the_base_move():
    """Seed: "as long as he expends at least half his base full move in the process": MV 12 = 120 ft, so a
    59 ft charge is refused and a 60 ft one allowed."""
    _check({"Brom": [melee("Orc", charge=True, distance=60)]})
    with pytest.raises(EncounterError, match="distance"):
        _check({"Brom": [melee("Orc", charge=True, distance=59)]})


def test_mj_12_a_monster_charges_only_with_a_skirmish_weapon_horns_or_tusks():
    """Seed: "Charging creatures must have suitable weapons ... A monster without such weaponry doesn't have the
    ability to charge.\""""
    boar = {"name": "Boar", "hp": 12, "ac": 7, "hd": 3, "weapons": [TUSKS]}
    _check({"Boar": [melee("Brom", charge=True, distance=60)]}, foes=[boar])
    with pytest.raises(EncounterError, match="charge"):
        _check({"Orc": [melee("Brom", charge=True, distance=60)]})


def test_mj_12_a_character_charges_only_with_a_melee_weapon():
    """Seed: "and only if he is holding and using a melee weapon": a charge with a short bow is refused."""
    with pytest.raises(EncounterError, match="missile"):
        _check({"Brom": [melee("Orc", charge=True, distance=60, weapon="short bow")]},
               party=[pc("Brom", weapons=[SHORT_BOW])])


# -- MJ-13: setting the spear ------------------------------------------------------------------------------

BOAR = {"name": "Boar", "hp": 12, "ac": 7, "hd": 3, "weapons": [TUSKS]}  # 3 HD: THAC0 17


def _boar_charges(setter: dict, rolls: dict[str, int], set_d20: int, set_damage: int) -> dict:
    """The boar charges 60 ft at the setter with d20 13 and 2d8 9; the setter sets his spear against it.
    The charging boar is AC 7 + 2 = 9 (MJ-12): a THAC0 20 setter needs 20 - 9 = 11."""
    return play({"party": [setter], "beasts": [BOAR]},
                {setter["name"]: [melee("Boar", set_d20, set_damage, set=True)],
                 "Boar": [melee(setter["name"], 13, 9, charge=True, distance=60)]},
                initiative={1: rolls})


def test_mj_13_a_set_spear_strikes_first_double_damage_and_negates_the_charge():
    """Seed: "he can “set” a spear ... On a successful hit, he deals double damage and negates the attack at
    the end of the Charge." """
    doc = _boar_charges(pc("Brom", weapons=[SPEAR]), {"party": 5, "beasts": 2}, 12, 7)
    strike = one(doc, "melee", "Brom")
    # d20 12 >= 11: hit; 2d6 (twice the 1d6) = 7 -> Boar 12 - 7 = 5
    assert (strike["hit"], strike["damage"], strike["dice"][1]["die"]) == (True, 7, "2d6")
    negated = one(doc, "impossible", "Boar")
    assert negated["tick"] == strike["tick"] and strike["seq"] < negated["seq"]
    assert attacks(doc, "Boar") == []
    assert (hp(doc, "Boar"), hp(doc, "Brom")) == (5, 10)


def test_mj_13_a_set_spear_that_misses_lets_the_charge_land():
    """Seed: only "On a successful hit" is the charge negated."""
    doc = _boar_charges(pc("Brom", weapons=[SPEAR]), {"party": 5, "beasts": 2}, 10, 7)
    assert one(doc, "melee", "Brom")["hit"] is False  # 10 < 11
    gore = one(doc, "melee", "Boar")
    # d20 13 + 2 (charge) = 15 >= 17 - 5 = 12: hit, 2d8 9 -> Brom 10 - 9 = 1
    assert (gore["hit"], gore["damage"]) == (True, 9)
    assert hp(doc, "Brom") == 1


@pytest.mark.parametrize("rolls", [{"party": 2, "beasts": 5}, {"party": 4, "beasts": 4}],
                         ids=["lost", "tie"])
def test_mj_13_only_when_acting_first_can_the_spear_be_set(rolls):
    """Seed: "is acting first in a Round": losing or tying, Brom's declared blow is an ordinary one (1d6, at
    his own step 7) and the boar's charge is not negated."""
    doc = _boar_charges(pc("Brom", weapons=[SPEAR]), rolls, 12, 4)
    strike, gore = one(doc, "melee", "Brom"), one(doc, "melee", "Boar")
    # Brom: 12 >= 11, 1d6 4 -> Boar 8; Boar: 13 + 2 >= 12, 2d8 9 -> Brom 1
    assert (strike["hit"], strike["damage"], strike["dice"][1]["die"]) == (True, 4, "1d6")
    assert gore["tick"] <= strike["tick"] and (gore["hit"], gore["damage"]) == (True, 9)
    assert (hp(doc, "Boar"), hp(doc, "Brom")) == (8, 1)


@pytest.mark.parametrize(("race", "can_set"), [("human", False), ("dwarf", True)])
def test_mj_13_only_fighting_men_and_demi_men_set_a_spear(race, can_set):
    """Seed: "Only Fighting-Men, Men-At-Arms and Demi-Men are able to “set” a spear in this way": a human
    cleric strikes an ordinary blow, a dwarf (a Demi-Man) cleric sets it. Cleric level 1: THAC0 20."""
    cleric = {"name": "Dain", "class": "cleric", "level": 1, "hp": 10, "ac": 5, "race": race,
              "weapons": [SPEAR]}
    doc = _boar_charges(cleric, {"party": 5, "beasts": 2}, 12, 4)
    strike = one(doc, "melee", "Dain")
    # 12 >= 20 - 9 = 11 either way; the dice are 2d6 only when set
    assert (strike["hit"], strike["damage"], strike["dice"][1]["die"]) == (True, 4, "2d6" if can_set else "1d6")
    assert bool(attacks(doc, "Boar")) is not can_set
    assert hp(doc, "Boar") == 8
