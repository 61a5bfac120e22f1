"""phase-count (seed 003), rules PC-01 to PC-06: counting phases, d6 + PM, the PM table, multiple attacks,
move and attack, the order within a phase. PC-07 to PC-12 and the seed's bugbear fight are in
test_phase_count_rules_more.py.

Every expectation is worked out by hand from the seed and RULES.md; see phase_count_helpers for the
defaults (PC: THAC0 20, AC 5, sword SF 5 -> PM 3; orc: THAC0 19, AC 6, axe SF 7 -> PM 3).
"""

from __future__ import annotations

import pytest

from phase_count_helpers import DAGGER, SHORT_BOW, attacks, events, mage, melee, missile, one, orc, pc, phases, play

MAGIC_MISSILE = {"name": "magic missile", "level": 1, "ct": 1, "speed": "fast"}


def _tarus(**kw: object) -> dict:
    """Seed: Tarus casts magic missile (fast) at an orc, then strikes another with his dagger (fast)."""
    return play({"party": [mage("Tarus", MAGIC_MISSILE, weapons=[DAGGER])],
                 "orcs": [orc("Orc 1", hp=20), orc("Orc 2", hp=20)]},
                {"Tarus": [{"cast": "magic missile", "at": "Orc 1"}, melee("Orc 2", 2, roll=2)]},
                opening={"party": 3, "orcs": 5}, **kw)


# -- PC-01: no rounds, the count starts at phase 0 -------------------------------------------------------------


def test_pc_01_the_count_starts_at_phase_0_and_there_are_no_rounds():
    """Seed: "The DM starts counting at the beginning of the battle (phase 0.)"."""
    doc = _tarus()
    init = one(doc, "initiative")
    assert (init["tick"][0], init["at"]) == (0, "phase 0, start")
    assert all(e["round"] is None for e in doc["events"])
    # magic missile: 0 + 3 + 2 = 5; its `at` reads as the seed does
    assert one(doc, "cast", "Tarus")["at"] == "phase 5"


def test_pc_01_start_phase_option_moves_the_whole_count():
    """Decision PC-01: the bugbear example counts from phase 1 (option start_phase)."""
    doc = _tarus(options={"start_phase": 1})
    # 1 + 3 + 2 = 6, then 6 + 2 + 2 = 10
    assert phases(doc, "cast", "Tarus") == [6]
    assert phases(doc, "melee", "Tarus") == [10]


# -- PC-02: declared phase + 1d6 + PM; the next action is declared when the last resolves ----------------------


def test_pc_02_tarus_magic_missile_at_phase_5_then_dagger_at_phase_9():
    """Seed: "He rolls a 3 ... Adding 2 for a fast attack means that he will cast his spell in phase (0+2+3=) 5
    ... He rolls a 2 for initiative, adds 2 for a fast weapon, which means he will strike at the orc in phase
    (5+2+2=) 9." """
    doc = _tarus()
    cast, strike = one(doc, "cast", "Tarus"), one(doc, "melee", "Tarus")
    assert cast["why"].startswith("declared at phase 0 + party's opening d6 3 + PM 2 (magic missile: fast) = "
                                  "phase 5")
    assert strike["why"].startswith("declared at phase 5 + d6 2 + PM 2 (dagger: fast) = phase 9")
    assert (cast["tick"][0], strike["tick"][0], strike["target"]) == (5, 9, "Orc 2")
    # the dagger is declared when the spell has resolved, at phase 5, not at the start
    assert phases(doc, "declare", "Tarus") == [0, 5, 9]


def test_pc_02_a_declarations_own_roll_wins_over_the_opening_die():
    """PC-06: "A declaration's own `roll` wins over the opening roll": Tarus rolls his own 3, party rolled 6."""
    doc = play({"party": [mage("Tarus", MAGIC_MISSILE)], "orcs": [orc("Orc", hp=20)]},
               {"Tarus": [{"cast": "magic missile", "at": "Orc", "roll": 3}]}, opening={"party": 6, "orcs": 1})
    # 0 + d6 3 + PM 2 = 5 (not 0 + 6 + 2 = 8)
    assert one(doc, "cast", "Tarus")["why"].startswith("declared at phase 0 + d6 3 + PM 2 (magic missile: fast)")
    assert phases(doc, "cast", "Tarus") == [5]


# -- PC-03: the phase modifier -------------------------------------------------------------------------------


@pytest.mark.parametrize(("category", "pm"), [("strikes first", 0), ("very fast", 1), ("fast", 2), ("average", 3),
                                              ("slow", 4), ("very slow", 5), ("strikes last", 6)])
def test_pc_03_speed_category_table(category: str, pm: int):
    """Seed table: Strikes First 0, Very Fast 1, Fast 2, Average 3, Slow 4, Very Slow 5, Strikes Last 6."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
               {"Brom": [{"misc": "drink a potion", "speed": category, "roll": 1}]}, opening={"party": 4, "orcs": 4})
    # 0 + d6 1 + PM
    assert phases(doc, "misc", "Brom") == [1 + pm]
    assert f"PM {pm} (declared {category})" in one(doc, "misc", "Brom")["why"]


@pytest.mark.parametrize(("sf", "pm"), [(0, 1), (1, 1), (2, 2), (4, 2), (5, 3), (7, 3), (8, 4), (13, 4), (14, 5),
                                        (20, 5)])
def test_pc_03_numeric_modifier_table_from_a_weapons_sf(sf: int, pm: int):
    """Seed table: 0-1 -> 1, 2-4 -> 2, 5-7 -> 3, 8-13 -> 4, 14+ -> 5; Decision: a weapon's number is its SF."""
    doc = play({"party": [pc("Brom", weapons=[{"name": "club", "sf": sf, "damage": "1d6"}])],
                "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, roll=1)]}, opening={"party": 4, "orcs": 4})
    assert phases(doc, "melee", "Brom") == [1 + pm]  # 0 + 1 + PM


def test_pc_03_a_negative_modifier_gives_pm_0():
    """Digest: "below 0: 0" (a declaration's numeric speed -2)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
               {"Brom": [{"misc": "shout", "speed": -2, "roll": 1}]}, opening={"party": 4, "orcs": 4})
    assert phases(doc, "misc", "Brom") == [1]  # 0 + 1 + 0


def test_pc_03_a_weapons_category_wins_over_its_sf():
    """Digest: "A `speed` category given on a weapon or spell wins over its numeric value"."""
    axe = {"name": "axe", "sf": 10, "speed": "very fast", "damage": "1d8"}
    doc = play({"party": [pc("Brom", weapons=[axe])], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, roll=1)]}, opening={"party": 4, "orcs": 4})
    # very fast = 1, not SF 10 -> 4: 0 + 1 + 1 = 2
    assert phases(doc, "melee", "Brom") == [2]


@pytest.mark.parametrize(("ct", "pm"), [(1, 2), (3, 2), (4, 3), (6, 3), (7, 4), (9, 4), ("1 round", 5),
                                        ("2 rounds", 6)])
def test_pc_03_a_spells_category_follows_its_casting_time(ct: object, pm: int):
    """Decision PC-03: CT 1-3 fast, 4-6 average, 7-9 slow, 1 round very slow, longer strikes last."""
    doc = play({"party": [mage("Mina", {"name": "web", "level": 2, "ct": ct})], "orcs": [orc("Orc")]},
               {"Mina": [{"cast": "web", "at": "Orc", "roll": 1}]}, opening={"party": 4, "orcs": 4})
    assert phases(doc, "cast", "Mina") == [1 + pm]


def test_pc_03_sleep_ct_1_is_fast_as_in_the_bugbear_example():
    """Seed: Lyssa's sleep, thrown with the players' 1 at phase 1, "is finished in phase 4": 1 + 1 + 2 (fast)."""
    doc = play({"party": [mage("Lyssa", {"name": "sleep", "level": 1, "ct": 1})], "bugbears": [orc("Bugbear")]},
               {"Lyssa": [{"cast": "sleep", "at": "bugbears"}]}, opening={"party": 1, "bugbears": 2},
               options={"start_phase": 1})
    assert one(doc, "cast", "Lyssa")["why"].startswith("declared at phase 1 + party's opening d6 1 + PM 2 "
                                                       "(sleep, CT 1: fast) = phase 4")


def test_pc_03_a_move_uses_the_first_weapons_pm_or_average_or_its_declared_speed():
    """Decision PC-03: a move takes the PM of the mover's first weapon, or average (3) without one; a
    declaration's own speed wins."""
    doc = play({"party": [pc("Ash", weapons=[DAGGER]), pc("Bare", weapons=[]), pc("Cal")],
                "orcs": [orc("Orc")]},
               {"Ash": [{"move": 20, "roll": 1}], "Bare": [{"move": 20, "roll": 1}],
                "Cal": [{"move": 20, "roll": 1, "speed": "fast"}]}, opening={"party": 4, "orcs": 4})
    # dagger fast 2: 0 + 1 + 2 = 3; no weapon, average 3: 4; Cal's sword is average but he moves "fast": 3
    assert (phases(doc, "move", "Ash"), phases(doc, "move", "Bare"), phases(doc, "move", "Cal")) == ([3], [4], [3])


# -- PC-04: multiple attacks in the following phases ------------------------------------------------------------


def test_pc_04_three_dagger_attacks_fall_in_three_consecutive_phases():
    """Seed: "a character who has 3 attacks with his dagger makes his first attack as normal, his second in the
    following phase, and his third in the phase after that one." """
    miss = {"attack": 2}
    doc = play({"party": [pc("Brom", attacks=3, weapons=[DAGGER])], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [{"melee": "Orc", "roll": 1, "dice": [miss, miss, miss]}]}, opening={"party": 4, "orcs": 4})
    # 0 + 1 + 2 (fast) = 3, then 4 and 5; the next declaration comes after the third, at phase 5
    assert phases(doc, "melee", "Brom") == [3, 4, 5]
    assert phases(doc, "declare", "Brom") == [0, 5]


def test_pc_04_a_bows_fire_rate_gives_a_second_shot_in_the_next_phase():
    """Seed: Damiar's bowshot at phase 5, "my second bowshot is now" at phase 6 (short bow, rate 2)."""
    doc = play({"party": [pc("Damiar", weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=30)]},
               {"Damiar": [missile("Orc", roll=1, dice=[{"attack": 2}, {"attack": 3}])]},
               opening={"party": 4, "orcs": 4}, options={"start_phase": 1})
    # 1 + 1 + 3 (SF 7: 5-7) = 5, second shot 6
    assert phases(doc, "missile", "Damiar") == [5, 6]


def test_pc_04_three_halves_attacks_alternate_one_then_two():
    """2e 3/2 attacks: one attack the first action, two the next (in consecutive phases)."""
    miss = {"attack": 2}
    doc = play({"party": [pc("Brom", attacks="3/2")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [{"melee": "Orc", "roll": 1, "dice": miss},
                         {"melee": "Orc", "roll": 1, "dice": [miss, miss]}]}, opening={"party": 4, "orcs": 4})
    # 0 + 1 + 3 = 4; declared at 4: 4 + 1 + 3 = 8, second blow 9
    assert phases(doc, "melee", "Brom") == [4, 8, 9]


def test_pc_04_when_the_target_falls_the_second_shot_goes_to_another_foe():
    """Seed: Damiar's first shot downs a bugbear, "my second bowshot is now": option switch_target."""
    doc = play({"party": [pc("Damiar", weapons=[SHORT_BOW])], "orcs": [orc("Orc 1"), orc("Orc 2", hp=30)]},
               {"Damiar": [missile("Orc 1", roll=1, dice=[{"attack": 14, "damage": 5}, {"attack": 2}])]},
               opening={"party": 4, "orcs": 4}, morale={4: {"orcs": 5}})
    # d20 14 >= 20 - 6 = 14: hit, 1d6 5 = Orc 1's 5 hp; shot 2 (phase 5) at the first standing orc
    # (the orcs' morale check at the fall: 2d10 5 <= 11, the 2e default score, passes)
    shots = attacks(doc, "Damiar")
    assert [(e["tick"][0], e["target"], e["hit"]) for e in shots] == [(4, "Orc 1", True), (5, "Orc 2", False)]


# -- PC-05: move, then attack in the next phase ------------------------------------------------------------------


def test_pc_05_torran_half_moves_in_phase_8_and_attacks_in_phase_9():
    """Seed: "Torran wants to attack an orc standing 4 squares away ... initiative modifier is 2 (fast) ...
    short sword. In phase 4, he declares his action. He rolls a 2, and adds 2. He will make his half-move in
    phase 8, and he will attack in phase 9." """
    short_sword = {"name": "short sword", "sf": 3, "damage": "1d6"}
    doc = play({"party": [pc("Torran", weapons=[short_sword])], "orcs": [orc("Orc", hp=30)]},
               {"Torran": [{"wait": "watches the orc", "until": 4},
                           melee("Orc", 2, roll=2, distance=20)]}, opening={"party": 4, "orcs": 4})
    move, strike = one(doc, "move", "Torran"), one(doc, "melee", "Torran")
    # 4 squares = 20 ft, within a half move (MV 12 x 10 / 2 = 60 ft)
    assert (move["tick"][0], move["feet"], strike["tick"][0]) == (8, 20, 9)
    assert move["why"].startswith("declared at phase 4 + d6 2 + PM 2 (short sword SF 3, modifier 3: 2-4) = phase 8")


def test_pc_05_a_longer_approach_takes_another_action():
    """A melee 100 ft away: a half move of 60 ft, then the rest as the next action, rolled again (PC-02)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, roll=1, distance=100)]}, opening={"party": 4, "orcs": 4},
               referee={("initiative", "Brom"): [2]})
    # 0 + 1 + 3 = 4: 60 ft; declared at 4: 4 + 2 + 3 = 9: the last 40 ft; the blow in phase 10
    assert [(e["tick"][0], e["feet"]) for e in events(doc, "move", "Brom")] == [(4, 60), (9, 40)]
    assert phases(doc, "melee", "Brom") == [10]


# -- PC-06: the order within one phase ---------------------------------------------------------------------------


def test_pc_06_spells_then_shooting_then_movement_then_melee():
    """Seed: "shooting goes first, then comes movement ..., finally comes the melee"; Decision: spells first."""
    doc = play({"party": [mage("Mina", {"name": "sleep", "level": 1, "ct": 1}), pc("Ash", weapons=[SHORT_BOW]),
                          pc("Cal"), pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, roll=1)], "Cal": [{"move": 20, "roll": 1}],
                "Ash": [missile("Orc", roll=1, dice=[{"attack": 2}, {"attack": 2}])],
                "Mina": [{"cast": "sleep", "at": "orcs", "roll": 2}]}, opening={"party": 4, "orcs": 4})
    # all in phase 4: Mina 0 + 2 + 2, Ash 0 + 1 + 3, Cal 0 + 1 + 3, Brom 0 + 1 + 3
    at4 = [(e["kind"], e["actor"]) for e in doc["events"] if e["tick"][0] == 4 and e["kind"] in
           ("cast", "missile", "move", "melee")]
    assert at4 == [("cast", "Mina"), ("missile", "Ash"), ("move", "Cal"), ("melee", "Brom")]


def test_pc_06_the_lower_opening_die_acts_first_and_its_kill_stops_the_other():
    """Both melee at phase 4; the party rolled 1, the orcs 3: Brom kills the orc before it can swing."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 14, 5, roll=1)], "Orc": [melee("Brom", 20, 8, roll=1)]},
               opening={"party": 1, "orcs": 3})
    # Brom: d20 14 >= 14, 1d8 5 = the orc's 5 hp, at (4, melee, rank 1); the orc's blow at rank 2 never comes
    assert one(doc, "melee", "Brom")["tick"] == [4, 5, 1]
    assert one(doc, "down", "Orc")["tick"] == [4, 5, 1]
    assert events(doc, "melee", "Orc") == []
    assert doc["combatants"]["Brom"]["hp"] == 10


def test_pc_06_a_tie_is_simultaneous():
    """Seed: "If there still is a tie, then the action occur simultaneously": both blows land."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 14, 5, roll=1)], "Orc": [melee("Brom", 20, 8, roll=1)]},
               opening={"party": 3, "orcs": 3})
    brom, orc_blow = one(doc, "melee", "Brom"), one(doc, "melee", "Orc")
    # same tick (4, 5, 1): the orc strikes though it falls; natural 20, 1d8 8: Brom 10 - 8 = 2
    assert brom["tick"] == orc_blow["tick"] == [4, 5, 1]
    assert doc["combatants"]["Brom"]["hp"] == 2
    assert doc["combatants"]["Orc"]["down"] is True


def test_pc_06_a_charge_attack_comes_with_the_movement():
    """Seed: "then comes movement (and attacks resulting from charges)": the charge's blow, in the phase after
    the run, falls in the movement slot, before melee; +2 to hit (2e charge)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 12, 3, roll=1, distance=40, charge=True)]}, opening={"party": 4, "orcs": 4})
    run, blow = one(doc, "move", "Brom"), one(doc, "melee", "Brom")
    # charge: a full move (120 ft) covers 40 ft at 0 + 1 + 3 = 4; the blow at 5 in stage 4 (movement);
    # d20 12 + 2 = 14 >= 14: hit, 3 damage
    assert (run["tick"], run["feet"], blow["tick"], blow["hit"]) == ([4, 4, 1], 40, [5, 4, 1], True)
    assert "+2 (charge" in blow["detail"]
