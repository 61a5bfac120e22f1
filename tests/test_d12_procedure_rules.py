"""d12-procedure (seed 004, Combat Procedure), rules D12-01 to D12-05: surprise, its modifiers, encounter
distance, initiative, casting. D12-06 onwards are in test_d12_procedure_rules_*.py.

Every expectation is worked out by hand from the seed and RULES.md; see d12_helpers for the defaults
(PC: THAC0 20, AC 5, 10 hp, 30 ft a round; orc: THAC0 19, AC 6, 5 hp).
"""

from __future__ import annotations

from affray.model.encounter import Combatant
from affray.rulesets.d12_tables import surprise_range
from d12_helpers import (
    NONE,
    count_of,
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

# -- D12-01: surprise -------------------------------------------------------------------------------------


def test_d12_01_a_1_to_4_on_the_d12_surprises_and_the_surprised_do_nothing_for_one_round():
    """Seed: "A 1-4 on a d12 otherwise normally indicates surprise ... Surprise lasts 1 round." """
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2)], "Orc": [miss_on("Brom"), miss_on("Brom")]},
               surprise="check", surprise_rolls={"party": 4, "orcs": 5}, initiative={2: {"party": 1, "orcs": 9}})
    surprise = one(doc, "surprise")
    # party d12 4 <= 4: surprised; orcs d12 5 > 4: not
    assert surprise["surprised"] == ["party"]
    # round 1: only the Orc declares and acts, on count 13 - 5 = 8; Brom does nothing
    assert [e["round"] for e in events(doc, "declare", "Brom")] == [2]
    orc_attacks = events(doc, "melee", "Orc")
    assert count_of(orc_attacks[0]) == (1, 3, 8)
    # round 2: a normal round, Brom on count 1, the Orc on 9
    assert count_of(one(doc, "melee", "Brom", round=2)) == (2, 3, 1)
    assert count_of(orc_attacks[1]) == (2, 3, 9)


def test_d12_01_both_sides_surprised_means_proceed_to_initiative():
    """Seed: "If neither side is surprised or both sides are surprised then proceed to step II." """
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2)], "Orc": [miss_on("Brom")]},
               surprise="check", surprise_rolls={"party": 1, "orcs": 3}, initiative={1: {"party": 6, "orcs": 2}})
    assert one(doc, "surprise").get("surprised") is None
    # round 1 is an ordinary round: the orcs' count 2 before the party's 6
    assert count_of(one(doc, "melee", "Orc")) == (1, 3, 2)
    assert count_of(one(doc, "melee", "Brom")) == (1, 3, 6)


def test_d12_01_the_referee_may_rule_surprise_outright():
    """Seed: "The DM may dictate that surprise exists simply due to circumstances of the encounter." """
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2)], "Orc": [miss_on("Brom")]},
               surprise={"orcs": True}, initiative={2: {"party": 3, "orcs": 4}})
    assert one(doc, "surprise")["surprised"] == ["orcs"]
    # no surprise die: the unsurprised party acts on count 1 of round 1, the Orc only from round 2
    assert count_of(one(doc, "melee", "Brom")) == (1, 3, 1)
    assert [e["round"] for e in events(doc, "melee", "Orc")] == [2]


def test_d12_01_in_the_surprise_round_the_highest_surprise_die_acts_first():
    """Seed: "If needed, resolve actions in order of highest surprise die roll first." """
    doc = play({"party": [pc("Brom")], "elves": [pc("Ela")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Ela": [miss_on("Orc")], "Orc": [NONE]},
               surprise="check", surprise_rolls={"party": 7, "elves": 11, "orcs": 2},
               initiative={2: {"party": 1, "elves": 1, "orcs": 1}})
    # orcs d12 2 <= 4 surprised; elves 11 act on 13 - 11 = 2, the party's 7 on 13 - 7 = 6
    # (round 2: each side has a member to take its turn, so each rolls its d12 before anyone declares, D12-04)
    assert count_of(one(doc, "melee", "Ela")) == (1, 3, 2)
    assert count_of(one(doc, "melee", "Brom")) == (1, 3, 6)


# -- D12-02: surprise modifiers -----------------------------------------------------------------------------

# The surprised orcs' NONE comes in round 2, where both sides have a member to take its turn: both roll (D12-04).
AFTER_SURPRISE = {2: {"party": 1, "orcs": 2}}


def test_d12_02_seed_example_an_elf_on_point_makes_the_enemy_range_1_to_8():
    """Seed, verbatim: "an elf on point makes the standard enemy surprise range 1-8 instead of 1-4." """
    scout = pc("Ela", race="elf", on_point=True)
    doc = play({"party": [pc("Brom"), scout], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [NONE]},
               surprise="check", surprise_rolls={"party": 9, "orcs": 8}, initiative=AFTER_SURPRISE)
    surprise = one(doc, "surprise")
    # orcs d12 8 <= 8: surprised (it would not be against 1-4); party 9 > 4
    assert surprise["surprised"] == ["orcs"]
    assert "orcs d12=8 vs 1-8" in surprise["detail"]


def test_d12_02_a_ranger_widens_the_enemy_range_and_narrows_its_own():
    """Seed: "Ranger surprises +2 / Ranger is surprised -2"; one member's ability serves the whole side."""
    doc = play({"party": [pc("Brom"), pc("Ran", **{"class": "ranger"})], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [NONE]},
               surprise="check", surprise_rolls={"party": 3, "orcs": 6}, initiative=AFTER_SURPRISE)
    # party range 4 - 2 = 1-2: d12 3 not surprised; orcs 4 + 2 = 1-6: d12 6 surprised
    assert one(doc, "surprise")["surprised"] == ["orcs"]


def test_d12_02_decision_different_modifiers_stack_elf_and_ranger_make_1_to_10():
    """RULES.md Decision: elf on point and a ranger: enemy range 1-10 (option surprise_stack, default stack)."""
    party = [pc("Ela", race="elf", on_point=True), pc("Ran", **{"class": "ranger"})]
    plan = {"Ela": [miss_on("Orc")], "Orc": [NONE]}
    doc = play({"party": party, "orcs": [orc("Orc", hp=20)]}, plan,
               surprise="check", surprise_rolls={"party": 12, "orcs": 10}, initiative=AFTER_SURPRISE)
    # 4 + 4 (elf on point) + 2 (ranger) = 10: d12 10 is surprised
    assert one(doc, "surprise")["surprised"] == ["orcs"]
    best = play({"party": party, "orcs": [orc("Orc", hp=20)]}, plan, options={"surprise_stack": "best"},
                surprise="check", surprise_rolls={"party": 12, "orcs": 10}, initiative={1: {"party": 1, "orcs": 2}})
    # only the largest widening counts: 4 + 4 = 8 < 10, nobody surprised
    assert one(best, "surprise").get("surprised") is None


def test_d12_02_the_same_modifier_counts_once_per_side():
    """Two rangers on the party still widen the orcs' range by 2 only: 1-6."""
    own = [Combatant(name="Orc", hp=5)]
    foes = [Combatant.model_validate({"name": n, "hp": 5, "class": "ranger", "level": 1}) for n in ("A", "B")]
    assert surprise_range(own, foes)[0] == 4 + 2


def test_d12_02_monk_levels_and_monster_odds_narrow_the_own_range():
    """Seed table: monk 5-8 -1, 9-12 -2, 13 -3; a monster listed surprised 1/8 -2, 1/10 or better -3."""
    def monk(level: int) -> Combatant:
        return Combatant.model_validate({"name": "M", "hp": 5, "class": "monk", "level": level})

    assert [surprise_range([monk(lv)], [])[0] for lv in (4, 5, 8, 9, 12, 13)] == [4, 3, 3, 2, 2, 1]
    odds = [surprise_range([Combatant(name="X", hp=5, surprise_odds=o)], [])[0] for o in ("1/6", "1/8", "1/10",
                                                                                         "1/12")]
    assert odds == [4, 4 - 2, 4 - 3, 4 - 3]


def test_d12_02_the_referee_may_adjust_for_alertness():
    """Seed: "taking greater-than-usual precautions ... should factor into chances of surprise": the side's
    surprise_adjust moves its own range."""
    doc = play({"party": {"combatants": [pc("Brom")], "surprise_adjust": -1}, "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]},
               surprise="check", surprise_rolls={"party": 4, "orcs": 7}, initiative={1: {"party": 2, "orcs": 5}})
    # party range 4 - 1 = 1-3: d12 4 is not surprised
    assert one(doc, "surprise").get("surprised") is None


# -- D12-03: encounter distance ------------------------------------------------------------------------------


def test_d12_03_encounter_distance_is_the_referees_never_rolled():
    """Seed: "Encounter distance between parties is determined by DM judgment": the file's distance."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2, distance=25)], "Orc": [miss_on("Brom")]},
               initiative={1: {"party": 1, "orcs": 1}})
    move = one(doc, "move", "Brom")
    # 25 ft as the referee set it, within the 30 ft a round of MV 12"; no die rolled but initiative's
    assert move["feet"] == 25
    assert [d["purpose"] for e in doc["events"] for d in e.get("dice", ())] == ["initiative", "initiative",
                                                                                 "attack"]


# -- D12-04: initiative -----------------------------------------------------------------------------------------


def test_d12_04_sides_act_from_the_lowest_result_to_the_highest():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 2)], "Orc": [miss_on("Brom")]}, initiative={1: {"party": 6, "orcs": 3}})
    # orcs 3 < party 6: the Orc strikes first
    assert [e["actor"] for e in events(doc, "melee")] == ["Orc", "Brom"]
    assert count_of(one(doc, "melee", "Orc"))[2] == 3


def test_d12_04_the_die_comes_before_the_declarations_and_each_declares_on_its_count():
    """Seed: "Roll a d12 for the party ... Sides act in order of lowest to highest result"; a caster "may
    decide on his initiative result what spell to cast" (D12-05): declarations come on the counts."""
    doc = play({"party": [pc("Brom"), mage("Mina", {"name": "bolt", "ct": 3})], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Mina": [{"cast": "bolt", "at": "Orc"}], "Orc": [miss_on("Brom")]},
               initiative={1: {"party": 6, "orcs": 3}})
    # the initiative first; the Orc declares at its count 3, Brom then Mina (the file's order) at the party's 6
    assert one(doc, "initiative")["seq"] < min(e["seq"] for e in events(doc, "declare"))
    assert [(e["actor"], e["tick"]) for e in events(doc, "declare")] == [
        ("Orc", [1, 3, 3, -1, 0]), ("Brom", [1, 3, 6, -1, 0]), ("Mina", [1, 3, 6, -1, 0])]
    # Mina's bolt, chosen on count 6, takes effect at 6 + 3 = 9
    assert count_of(one(doc, "cast", "Mina")) == (1, 3, 9)


def test_d12_04_a_side_rolls_before_its_members_declare_even_if_they_then_do_nothing():
    """A change from the declarations at the round's start: a side whose members all declare nothing still
    rolled, since the die now comes before anyone declares."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [NONE]}, initiative={1: {"party": 5, "orcs": 8}})
    init = one(doc, "initiative")
    assert [(d["actor"], d["value"]) for d in init["dice"]] == [("party", 5), ("orcs", 8)]
    # Brom on count 5, the Orc's none on its count 8
    assert count_of(one(doc, "melee", "Brom")) == (1, 3, 5)
    assert count_of(one(doc, "declare", "Orc")) == (1, 3, 8)


def test_d12_04_one_who_falls_before_its_count_is_never_asked():
    doc = play({"party": [pc("Brom", hp=3)], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [melee("Brom", 14, 5)]}, initiative={1: {"party": 9, "orcs": 2}})
    # the Orc at count 2: d20 14 >= 19 - 5 = 14, 1d8 5 >= Brom's 3 hp: down before his count 9, he declares
    # nothing and his plan entry stays unused
    assert doc["combatants"]["Brom"]["down"]
    assert not events(doc, "declare", "Brom")


def test_d12_04_decision_the_leaders_dex_adjusts_the_sides_roll():
    """Decision side_dex=leader: the first listed combatant's 1st-edition reaction adjustment, subtracted."""
    doc = play({"party": [pc("Brom", dex=17), pc("Sela", dex=5)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Sela": [miss_on("Orc")], "Orc": [miss_on("Brom")]},
               initiative={1: {"party": 6, "orcs": 5}})
    # party d12 6 - DEX 17 (+2) = 4 for both, before the orcs' 5
    assert count_of(one(doc, "melee", "Brom"))[2] == 4
    assert count_of(one(doc, "melee", "Sela"))[2] == 4
    assert "party d12=6 - DEX 17 of Brom (+2) = 4" in one(doc, "initiative")["detail"]


def test_d12_04_decision_the_leader_is_the_first_listed_even_when_down():
    doc = play({"party": [pc("Brom", dex=18, hp=3), pc("Sela")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Sela": [NONE, miss_on("Orc")],
                "Orc": [melee("Brom", 14, 5), miss_on("Sela")]},
               initiative={1: {"party": 9, "orcs": 2}, 2: {"party": 9, "orcs": 2}})
    # round 1: the Orc (count 2) fells Brom (14 >= 14, 5 >= 3 hp); round 2: party d12 9 - 3 (Brom's DEX 18) = 6
    assert doc["combatants"]["Brom"]["down"]
    assert count_of(one(doc, "melee", "Sela")) == (2, 3, 6)


def test_d12_04_option_individual_adjustments_let_a_member_act_before_the_enemy():
    """Seed: "by adjusting the die roll individually you might act simultaneous with, or prior to the enemy"."""
    doc = play({"party": [pc("Brom", dex=18), pc("Sela", dex=3)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Sela": [miss_on("Orc")], "Orc": [miss_on("Brom")]},
               initiative={1: {"party": 6, "orcs": 5}}, options={"side_dex": "individual"})
    # Brom 6 - 3 (DEX 18) = 3 before the Orc's 5; Sela 6 - (-3) (DEX 3) = 9 after it
    assert [(e["actor"], count_of(e)[2]) for e in events(doc, "melee")] == [("Brom", 3), ("Orc", 5), ("Sela", 9)]


def test_d12_04_option_no_dex_and_equal_results_act_simultaneously():
    doc = play({"party": [pc("Brom", dex=18, hp=5)], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 14, 5)], "Orc": [melee("Brom", 14, 5)]},
               initiative={1: {"party": 4, "orcs": 4}}, options={"side_dex": "none"})
    # no DEX: both on count 4, the same tick; both hit (14 >= 14) for 5 = 5 hp: both fall
    brom, orc_hit = one(doc, "melee", "Brom"), one(doc, "melee", "Orc")
    assert brom["tick"] == orc_hit["tick"]
    assert doc["combatants"]["Brom"]["down"] and doc["combatants"]["Orc"]["down"]


def test_d12_04_option_individual_rolls_for_the_pcs_the_referee_rolls_for_the_opponents():
    """Seed: "PC's would get to make individual ... initiative rolls while opponents will generally be
    rolled for as a group"; a PC's d12 is rolled with the initiative, before it declares, so the file gives
    it by the PC's name in rolls.initiative (no longer as its declaration's roll)."""
    doc = play({"party": [pc("Brom", dex=16), pc("Sela")], "orcs": [orc("Orc", count=2, hp=30)]},
               {"Brom": [miss_on("Orc 1")], "Sela": [miss_on("Orc 2")],
                "Orc 1": [miss_on("Brom")], "Orc 2": [miss_on("Sela")]},
               initiative={1: {"orcs": 7, "Brom": 2, "Sela": 11}}, options={"individual_rolls": True})
    # Brom 2 - 1 (DEX 16) = 1; the orcs' 7; Sela 11
    assert [(e["actor"], count_of(e)[2]) for e in events(doc, "melee")] == [
        ("Brom", 1), ("Orc 1", 7), ("Orc 2", 7), ("Sela", 11)]
    # the three dice come with the initiative, before the first declaration (D12-04, then D12-05)
    init = one(doc, "initiative")
    assert [(d["actor"], d["value"]) for d in init["dice"]] == [("Brom", 2), ("Sela", 11), ("orcs", 7)]
    assert init["seq"] < min(e["seq"] for e in events(doc, "declare"))


# -- D12-05: casting from the initiative result ------------------------------------------------------------


def test_d12_05_a_spell_takes_effect_at_the_count_plus_its_casting_time():
    """Decision: at result + CT on the same count."""
    bolt = {"name": "bolt", "ct": 3, "damage": "2d4"}
    doc = play({"party": [mage("Mina", bolt)], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "bolt", "at": "Orc", "outcome": {"damage": 6}}], "Orc": [miss_on("Mina")]},
               initiative={1: {"party": 4, "orcs": 9}})
    # begins on count 4, takes effect on 4 + 3 = 7; 6 damage: 20 - 6 = 14
    assert count_of(one(doc, "cast-start", "Mina"))[2] == 4
    assert count_of(one(doc, "cast", "Mina"))[2] == 7
    assert hp(doc, "Orc") == 14


def test_d12_05_a_full_round_spell_resolves_last_in_the_round():
    """Seed: "Spells needing a full round to cast are resolved last in the round." """
    doc = play({"party": [mage("Mina", {"name": "long", "ct": "1 round"})], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "long", "at": "Orc"}], "Orc": [miss_on("Mina")]},
               initiative={1: {"party": 1, "orcs": 12}})
    # the Orc's count 12 comes before the end of the round, phase 4
    assert count_of(one(doc, "melee", "Orc")) == (1, 3, 12)
    assert count_of(one(doc, "cast", "Mina")) == (1, 4, 0)


def test_d12_05_a_two_round_spell_occupies_the_caster_into_the_next_round():
    doc = play({"party": [mage("Mina", {"name": "rite", "ct": "2 rounds"}, hp=20)], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "rite", "at": "Orc"}, {"none": True}], "Orc": [miss_on("Mina")] * 2},
               initiative=rounds(3, 2, 5))
    # begins round 1 count 2, resolves last in round 2; Mina declares nothing in round 2, her next
    # declaration (none) comes in round 3 (where both sides roll: each has a member to take its turn, D12-04)
    assert count_of(one(doc, "cast", "Mina")) == (2, 4, 0)
    assert [e["round"] for e in events(doc, "declare", "Mina")] == [1, 3]
