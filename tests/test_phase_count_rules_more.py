"""phase-count (seed 003), rules PC-07 to PC-12, spell disruption (G-11), the seed's bugbear fight phase by
phase, and bad input. Every die is pinned; the arithmetic is in the comments (see phase_count_helpers).
"""

from __future__ import annotations

import pytest

from affray import EncounterError, load_text, prepare
from phase_count_helpers import (
    SHORT_BOW,
    attacks,
    events,
    hp,
    mage,
    melee,
    missile,
    one,
    orc,
    pc,
    phases,
    play,
)
from side_d6_helpers import encounter

# -- PC-07: attacks of opportunity in the phase they arise -----------------------------------------------------


def _flee(mode: str) -> dict:
    # Brom engages the orc at phase 4 (0 + 1 + 3; d20 2 misses), then moves away: 4 + 1 + 3 = 8
    return play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
                {"Brom": [melee("Orc", 2, roll=1), {"move": 60, "mode": mode, "roll": 1}]},
                opening={"party": 4, "orcs": 4}, referee={("attack", "Orc"): [15], ("damage", "Orc"): [4]})


def test_pc_07_fleeing_from_melee_draws_an_attack_of_opportunity_in_that_phase():
    """Seed: "Attacks of Opportunity occur in the phase that they are possible, as normal." """
    doc = _flee("flee")
    aoo = one(doc, "melee", "Orc")
    # at the flight's phase 8; d20 15 >= THAC0 19 - AC 5 = 14: hit, 1d8 4: Brom 10 - 4 = 6
    assert (aoo["tick"][0], aoo["opportunity"], aoo["damage"]) == (8, True, 4)
    assert phases(doc, "move", "Brom") == [8]
    assert hp(doc, "Brom") == 6
    assert doc["combatants"]["Brom"]["fled"] is True


def test_pc_07_a_withdrawal_draws_none():
    """2e: a withdrawal is the careful way out of melee; no free attack."""
    doc = _flee("withdraw")
    assert events(doc, "melee", "Orc") == []
    # a withdrawal covers a third of MV 12 x 10 ft = 40 ft
    assert one(doc, "move", "Brom")["feet"] == 40


# -- PC-08: surprise, a free action at initiative 0 ---------------------------------------------------------------


def test_pc_08_surprisers_act_at_initiative_0_before_anyone_else():
    """Seed: "every surpriser gets one free action ... Their initiative, in fact, is 0." Default: d10 per side,
    1-3 surprised. Decision: the surprised declare at phase 0 too, but act only after the free actions."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 14, 3), melee("Orc", 2)], "Orc": [melee("Brom", 2, roll=1)]},
               opening={"party": 6, "orcs": 1}, surprise="check", surprise_rolls={"party": 5, "orcs": 2})
    surprise = one(doc, "surprise")
    # orcs d10 2 <= 3: surprised; party d10 5: not
    assert (surprise["surprised"], surprise["surprisers"]) == (["orcs"], ["party"])
    # Brom's free blow at phase 0, stage 1 (d20 14 >= 14, 3 damage); then his next, declared at 0, takes the
    # party's opening 6: 0 + 6 + 3 = 9; the orc, declared at 0: 0 + 1 + 3 = 4
    assert [e["tick"][:2] for e in attacks(doc, "Brom")] == [[0, 1], [9, 5]]
    assert phases(doc, "melee", "Orc") == [4]
    assert hp(doc, "Orc") == 17
    assert [e["tick"][0] for e in events(doc, "declare", "Orc") if "declaration" in e] == [0]


def test_pc_08_nobody_surprised_means_no_free_action():
    """Both d10 above 3: the first actions are rolled as usual (0 + opening 2 + PM 3 = 5)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]}, {"Brom": [melee("Orc", 2)]},
               opening={"party": 2, "orcs": 1}, surprise="check", surprise_rolls={"party": 4, "orcs": 10})
    assert "surprised" not in one(doc, "surprise")  # an empty list is left out of the event
    assert phases(doc, "melee", "Brom") == [5]


# -- PC-08a: guard ------------------------------------------------------------------------------------------------


def test_pc_08a_a_guard_declares_at_the_phase_it_chooses():
    """Seed: "the last bugbear now decides to join the fight (phase 6+rolls 3+3 for being average=12)"."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Orc": [{"wait": "under cover", "until": 6}, melee("Brom", 2, roll=3)]},
               opening={"party": 4, "orcs": 4})
    wait = one(doc, "wait", "Orc")
    assert wait["tick"][0] == 6 and "PC-08a" in wait["why"]
    assert [e["tick"][0] for e in events(doc, "declare", "Orc") if "declaration" in e] == [0, 6]
    assert phases(doc, "melee", "Orc") == [12]  # 6 + 3 + 3


def test_pc_08a_a_guard_without_until_lasts_one_round_of_5_phases():
    """Our default: without `until`, the guard ends after 1 round = 5 phases (PC-12 scale)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Orc": [{"wait": True}, melee("Brom", 2, roll=1)]}, opening={"party": 4, "orcs": 4})
    assert phases(doc, "wait", "Orc") == [5]
    assert phases(doc, "melee", "Orc") == [9]  # 5 + 1 + 3


# -- PC-09: aborting -----------------------------------------------------------------------------------------------


def test_pc_09_an_aborted_action_never_happens_and_the_new_one_is_rolled_from_that_phase():
    """Seed: "they can do this in any phase. The character simply declares he wants to change his action, and
    rolls initiative for the new action." """
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Orc": [melee("Brom", 2), {"misc": "runs to the lever", "abort": 3, "roll": 1}]},
               opening={"party": 4, "orcs": 6})
    # the blow would come at 0 + 6 + 3 = 9; at phase 3 the orc aborts: 3 + 1 + 3 (average) = 7
    assert phases(doc, "abort", "Orc") == [3]
    assert phases(doc, "misc", "Orc") == [7]
    assert events(doc, "melee", "Orc") == []


def test_pc_09_aborting_a_spell_ruins_it():
    """A slow spell (CT 7: PM 4) due at 0 + 6 + 4 = 10, dropped at phase 2 for a step back."""
    doc = play({"party": [mage("Mina", {"name": "web", "level": 2, "ct": 7})], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "web", "at": "Orc"}, {"move": 10, "mode": "step", "abort": 2, "roll": 1}]},
               opening={"party": 6, "orcs": 4})
    assert phases(doc, "spell-ruined", "Mina") == [2]
    assert events(doc, "cast", "Mina") == []
    # the step: 2 + 1 + 3 (no weapon: average) = 6
    assert phases(doc, "move", "Mina") == [6]


# -- PC-10: no retreat rule; a called shot forces back --------------------------------------------------------


def test_pc_10_a_called_shot_that_hits_forces_the_foe_back():
    """Seed: "the called shot inflicts normal damage and forces a character back"; 2e called shot -4 to hit."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 18, 6, roll=1, force_back=True)]}, opening={"party": 4, "orcs": 4})
    blow = one(doc, "melee", "Brom")
    # d20 18 - 4 = 14 >= 20 - 6 = 14: hit, 1d8 6: normal damage; the orc is pushed out of melee at once
    assert (blow["hit"], blow["damage"]) == (True, 6)
    pushed = one(doc, "move", "Orc")
    assert (pushed["tick"], pushed["disengage"]) == (blow["tick"], True)
    assert hp(doc, "Orc") == 14


def test_pc_10_a_called_shot_that_misses_forces_nothing():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [melee("Orc", 17, roll=1, force_back=True)]}, opening={"party": 4, "orcs": 4})
    # d20 17 - 4 = 13 < 14: miss
    assert one(doc, "melee", "Brom")["hit"] is False
    assert events(doc, "move", "Orc") == []


# -- PC-11: fatigue per completed action; morale the moment it is due ----------------------------------------------


def test_pc_11_fatigue_is_marked_when_each_action_completes():
    """Seed: "Whenever a character has completed an action, you mark of fatigue"."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, roll=1), melee("Orc", 2, roll=2)]}, opening={"party": 4, "orcs": 4})
    # blows at 0 + 1 + 3 = 4 and 4 + 2 + 3 = 9
    assert [(e["tick"][0], e["actions"]) for e in events(doc, "fatigue", "Brom")] == [(4, 1), (9, 2)]
    off = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]}, {"Brom": [melee("Orc", 2, roll=1)]},
               opening={"party": 4, "orcs": 4}, options={"fatigue": False})
    assert events(off, "fatigue") == []


def test_pc_11_morale_is_checked_the_moment_it_is_due_and_a_rout_drops_the_action_in_hand():
    """Seed: "Roll a morale check on the moment one is required, not at the end of the round." """
    doc = play({"party": [pc("Brom")], "orcs": {"morale": 8, "combatants": [orc("Orc 1"), orc("Orc 2")]}},
               {"Brom": [melee("Orc 1", 14, 5, roll=1)], "Orc 2": [melee("Brom", 2)]},
               opening={"party": 1, "orcs": 6}, morale={4: {"orcs": 12}}, referee={("initiative", "Orc 2"): [1]})
    # Brom: 0 + 1 + 3 = 4, d20 14 >= 14, 5 damage: Orc 1 down at phase 4; 1 of 2 out is the first casualty
    # and half: 2d10 12 > 8 fails at once, at phase 4
    check = one(doc, "morale")
    assert (check["tick"][0], check["passed"], check["triggers"]) == (4, False, ["first casualty", "half down"])
    # Orc 2's blow (0 + 6 + 3 = 9) is dropped; it flees from phase 4: 4 + d6 1 + PM 3 = 8
    assert events(doc, "melee", "Orc 2") == []
    flight = one(doc, "move", "Orc 2")
    assert (flight["tick"][0], flight["mode"]) == (8, "flee")
    assert doc["combatants"]["Orc 2"]["fled"] is True


# -- PC-12: durations in phases --------------------------------------------------------------------------------------


LIGHT = {"name": "light", "level": 1, "ct": 1, "duration": "4 rounds"}
HEAT_METAL = {"name": "heat metal", "level": 2, "ct": 1, "damage": "2d4",
              "damage_at": ["3 rounds", "4 rounds", "5 rounds"]}


def _light(**kw: object) -> dict:
    # light, CT 1 (fast, PM 2): cast at 0 + 3 + 2 = 5
    return play({"party": [mage("Mina", LIGHT)], "orcs": [orc("Orc", hp=20)]},
                {"Mina": [{"cast": "light", "at": "Mina"}]}, opening={"party": 3, "orcs": 4}, **kw)


def test_pc_12_light_of_4_rounds_lasts_20_phases_from_its_casting():
    """Seed: "A light spell that has a duration of 4 rounds will last 20 phases, starting at the phase the wizard
    casts the spell." """
    doc = _light()
    expire = one(doc, "expire", "Mina")
    # 5 + 4 x 5 = 25
    assert (expire["tick"][0], expire["spell"]) == (25, "light")
    assert expire["why"].startswith("light cast at phase 5 + 4 rounds x 5 = phase 25")


def test_pc_12_the_real_scale_makes_a_round_20_phases():
    """Option duration_scale real: "1 standard AD&D round (60 sec) = 20 phases": 5 + 4 x 20 = 85."""
    assert one(_light(options={"duration_scale": "real"}), "expire")["tick"][0] == 85


@pytest.mark.parametrize(("scale", "end"), [("tactical", 55), ("real", 205)])
def test_pc_12_a_turn_is_50_phases_or_200(scale: str, end: int):
    """Seed: "a spell that lasts a turn should last 50 phases" (tactical); 1 turn = 200 phases (real)."""
    doc = play({"party": [mage("Mina", {**LIGHT, "duration": "1 turn"})], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "light", "at": "Mina"}]}, opening={"party": 3, "orcs": 4},
               options={"duration_scale": scale}, max_rounds=50)
    assert one(doc, "expire")["tick"][0] == end  # 5 + 50 or 5 + 200


def test_pc_12_heat_metal_burns_15_20_and_25_phases_after_the_spell():
    """Seed: "A heat metal inflicts 2d4 points of damage 15 phases after the wizard finishes the spell, another
    2d4 after 20 phases and after 25 phases." """
    doc = play({"party": [mage("Mina", HEAT_METAL)], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "heat metal", "at": "Orc", "dice": [{"damage": 5}, {"damage": 2},
                                                                        {"damage": 8}]}]},
               opening={"party": 3, "orcs": 4})
    # finished at 0 + 3 + 2 = 5: burns at 5 + 15 = 20, 25, 30 for 2d4 = 5, 2, 8; nothing at the casting
    assert one(doc, "cast", "Mina")["tick"][0] == 5
    burns = events(doc, "effect", "Mina")
    assert [(e["tick"][0], e["damage"]) for e in burns] == [(20, 5), (25, 2), (30, 8)]
    assert hp(doc, "Orc") == 20 - 5 - 2 - 8


# -- G-11: a caster damaged while casting loses the spell (2e) -----------------------------------------------------


@pytest.mark.parametrize(("option", "kind"), [("lost", "spell-lost"), ("ruined", "spell-ruined")])
def test_g_11_damage_while_casting_disrupts_the_spell(option: str, kind: str):
    doc = play({"party": [mage("Mina", {"name": "web", "level": 2, "ct": 9})], "orcs": [orc("Orc")]},
               {"Mina": [{"cast": "web", "at": "Orc"}], "Orc": [melee("Mina", 14, 2)]},
               opening={"party": 6, "orcs": 1}, options={"interrupted_spell": option})
    # web CT 9 (slow, 4): 0 + 6 + 4 = 10; the orc's blow at 0 + 1 + 3 = 4: d20 14 >= 19 - 10 = 9, 2 damage
    assert phases(doc, kind, "Mina") == [4]
    assert events(doc, "cast", "Mina") == []


# -- the seed's example of combat, phase by phase ---------------------------------------------------------------------


def test_seed_bugbear_fight_phase_by_phase():
    """Seed, "Example of Combat": at phase 1 the players roll 1 and the bugbears 2. Damiar shoots, Pascal closes,
    Lyssa throws sleep, Dain covers the hallway; two bugbears take cover, one flips the table, one closes, the
    last waits. Sleep's effect is not modelled (the seed's "one bugbear down" at phase 4)."""
    morning_star = {"name": "morning star", "sf": 7, "damage": "2d4"}
    bugbear = {"hd": 3, "hp": 15, "ac": 5, "weapons": [morning_star]}
    miss = {"outcome": {"hit": False}}
    sides = {"party": [pc("Damiar", weapons=[SHORT_BOW]), pc("Pascal"),
                       mage("Lyssa", {"name": "sleep", "level": 1, "ct": 1}), pc("Dain")],
             "bugbears": {"morale": 11, "combatants": [{"name": f"Bugbear {k}", **bugbear} for k in range(1, 6)]}}
    plan = {
        "Damiar": [{"missile": "Bugbear 1", "outcome": [{"hit": True, "damage": 15}, {"hit": False}]},
                   {"missile": "Bugbear 3", "roll": 3, "speed": "fast",
                    "outcome": [{"hit": True, "damage": 5}, {"hit": False}]}],
        "Pascal": [{"melee": "Bugbear 4", "distance": 20, "speed": "fast", **miss},
                   {"melee": "Bugbear 4", "roll": 1, **miss}],
        "Lyssa": [{"cast": "sleep", "at": "bugbears"}, {"move": 30, "roll": 4, "speed": "fast"}],
        "Dain": [{"wait": "covers the hallway"}],
        "Bugbear 1": [{"misc": "takes cover"}],
        "Bugbear 2": [{"misc": "takes cover"}, {"wait": "guards"}],
        "Bugbear 3": [{"misc": "flips the table for cover"}, {"wait": "guards"}],
        "Bugbear 4": [{"melee": "Pascal", "distance": 20, **miss},
                      {"melee": "Pascal", "distance": 15, "declared_at": 6, "roll": 2, **miss}],
        "Bugbear 5": [{"wait": "getting out of bed", "until": 6}, {"melee": "Pascal", "distance": 20, "roll": 3,
                                                                   **miss}],
    }
    doc = play(sides, plan, opening={"party": 1, "bugbears": 2}, options={"start_phase": 1},
               morale={5: {"bugbears": 4}}, max_rounds=3)

    def at(phase: int) -> list[tuple[str, str | None]]:
        return [(e["kind"], e["actor"]) for e in doc["events"] if e["tick"][0] == phase
                and e["kind"] in ("cast", "missile", "move", "melee", "misc")]

    # "nothing in phase 1, 2 or 3"
    assert at(1) == at(2) == at(3) == []
    # phase 4: Lyssa's sleep (1 + 1 + 2 fast) is finished, then Pascal moves (1 + 1 + 2, he moves "fast")
    assert at(4) == [("cast", "Lyssa"), ("move", "Pascal")]
    # phase 5: Damiar's bowshot (1 + 1 + 3, short bow SF 7) downs a bugbear; Pascal attacks (the phase after
    # his move) and misses
    assert at(5) == [("missile", "Damiar"), ("melee", "Pascal")]
    assert doc["combatants"]["Bugbear 1"]["down"] is True
    # Lyssa, declared at phase 4: "rolls a 4 + phase 4 + 2 for being fast = 10"
    # Pascal, declared at 5: "rolls a 1 + phase 5 + 3 for being average = 9"
    # phase 6: Damiar's second bowshot (misses), then the bugbears under cover (1 + 2 + 3) and the one closing
    # on Pascal moves; Damiar: "rolls a 3 + phase 6 + 2 for being fast = 11"
    assert at(6) == [("missile", "Damiar"), ("move", "Bugbear 4"), ("misc", "Bugbear 2"),
                     ("misc", "Bugbear 3")]
    # "in phase 7 Pascal is attacked... a miss"
    assert at(7) == [("melee", "Bugbear 4")]
    assert at(8) == []
    # "In phase 9 Pascal attacks again and misses again. In phase 10, Lyssa completes her movement"
    assert at(9) == [("melee", "Pascal")]
    assert at(10) == [("move", "Lyssa")]
    # "in phase 11 Damiar fires and hits a bugbear. The bugbear fighting Pascal moves back"
    # (move = phase 6 + rolls 2 + 3 = 11: the DM decided it at phase 6)
    assert at(11) == [("missile", "Damiar"), ("move", "Bugbear 4")]
    assert one(doc, "missile", "Damiar", tick=[11, 3, 1])["hit"] is True
    # "In phase 12 he attacks, and the other bugbear closes for combat as well" (6 + 3 + 3 = 12); Damiar's
    # second shot (rate 2) also falls here, first: the seed does not mention it
    assert ("melee", "Bugbear 4") in at(12) and ("move", "Bugbear 5") in at(12)
    # "In phase 13 he attacks."
    assert ("melee", "Bugbear 5") in at(13)
    whys = {(e["actor"], e["tick"][0]): e["why"] for e in doc["events"] if e["kind"] in ("move", "missile", "cast")}
    assert whys[("Lyssa", 10)].startswith("declared at phase 4 + d6 4 + PM 2 (declared fast) = phase 10")
    assert whys[("Damiar", 11)].startswith("declared at phase 6 + d6 3 + PM 2 (declared fast) = phase 11")
    assert whys[("Bugbear 4", 11)].startswith("declared at phase 6 + d6 2 + PM 3 (morning star SF 7, "
                                              "modifier 7: 5-7) = phase 11")
    assert whys[("Bugbear 5", 12)].startswith("declared at phase 6 + d6 3 + PM 3")
    # the first actions take their side's opening die: the bugbears' 2
    assert whys[("Bugbear 4", 6)].startswith("declared at phase 1 + bugbears' opening d6 2 + PM 3")


# -- bad input -----------------------------------------------------------------------------------------------------


def _problems(plan: dict, **kw: object) -> str:
    text = encounter({"party": [pc("Brom")], "orcs": [orc("Orc")]}, plan, **kw)  # type: ignore[arg-type]
    with pytest.raises(EncounterError) as exc:
        prepare(load_text(text, "bad.json"), ruleset="phase-count")
    return str(exc.value)


@pytest.mark.parametrize(("decl", "says"), [
    ({"melee": "Orc", "roll": 7}, "plan.Brom[0].roll: 7 is not a d6 result (1-6)"),
    ({"melee": "Orc", "until": 4}, "until goes with a wait declaration"),
    ({"wait": True, "until": -1}, "until takes a phase number"),
    ({"melee": "Orc", "abort": "soon"}, "abort takes a phase number"),
    ({"misc": "x", "force_back": True}, "force_back takes true or false, on a melee or missile attack"),
    ({"melee": "Orc", "lance_first": True}, "unknown declaration key 'lance_first'"),
])
def test_bad_declarations_are_named_with_the_fix(decl: dict, says: str):
    assert says in _problems({"Brom": [decl]})


def test_the_opening_initiative_is_one_roll():
    text = _problems({}, initiative={1: {"party": 1, "orcs": 2}, 2: {"party": 3, "orcs": 4}})
    assert "rolls.initiative: phase-count rolls initiative once" in text


def test_a_duration_in_segments_is_refused():
    text = encounter({"party": [mage("Mina", {**LIGHT, "duration": "3 segments"})], "orcs": [orc("Orc")]}, {})
    with pytest.raises(EncounterError) as exc:
        prepare(load_text(text, "bad.json"), ruleset="phase-count")
    assert ("sides.party.combatants[0].spells[0].duration: '3 segments': phase-count counts durations in rounds, "
            "turns or phases (PC-12)") in str(exc.value)


def test_a_heat_metal_die_outside_2d4_is_refused():
    text = encounter({"party": [mage("Mina", HEAT_METAL)], "orcs": [orc("Orc")]},
                     {"Mina": [{"cast": "heat metal", "at": "Orc", "dice": [{"damage": 9}]}]})
    with pytest.raises(EncounterError) as exc:
        prepare(load_text(text, "bad.json"), ruleset="phase-count")
    assert "plan.Mina[0].dice[0].damage: 9 cannot be rolled on heat metal's damage dice 2d4 (2-8)" in str(exc.value)


# -- further cases of the same rules ---------------------------------------------------------------------------


def test_pc_09_an_abort_after_the_action_is_done_waits_for_its_phase():
    """`abort: 8` when the blow already fell at phase 4: the orc idles until 8, then declares (8 + 1 + 3 = 12)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Orc": [melee("Brom", 2, roll=1), {"misc": "pulls the lever", "abort": 8, "roll": 1}]},
               opening={"party": 4, "orcs": 4})
    assert phases(doc, "melee", "Orc") == [4]  # 0 + 1 + 3
    assert one(doc, "abort", "Orc")["tick"][0] == 8
    assert phases(doc, "misc", "Orc") == [12]


def test_declared_at_earlier_than_now_but_already_reached_gives_the_next_phase():
    """`declared_at: 1` at phase 4 with d6 1 + PM 3 = phase 5; `declared_at: 0`: 0 + 1 + 3 = 4, reached: 5 too."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, roll=1), melee("Orc", 2, roll=1, declared_at=0)]},
               opening={"party": 4, "orcs": 4})
    second = attacks(doc, "Brom")[1]
    assert second["tick"][0] == 5
    assert second["why"].startswith("declared at phase 0 + d6 1 + PM 3 (sword SF 5, modifier 5: 5-7) = phase 4; "
                                    "phase 4 is already reached, so phase 5")


def test_pc_08a_a_guard_until_a_past_phase_ends_at_the_next():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, roll=1), {"wait": True, "until": 2}]}, opening={"party": 4, "orcs": 4})
    # the blow at 4; the guard "until 2" is declared at 4, already past: it ends at 5
    assert phases(doc, "wait", "Brom") == [5]


def test_pc_12_heat_metal_keeps_burning_after_its_caster_falls():
    """The delayed damage belongs to the spell, not to the caster's actions."""
    doc = play({"party": [mage("Mina", HEAT_METAL), pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [{"cast": "heat metal", "at": "Orc", "dice": [{"damage": 4}, {"damage": 4}, {"damage": 4}]}],
                "Orc": [melee("Mina", 20, 8, roll=6)]}, opening={"party": 1, "orcs": 4})
    # cast at 0 + 1 + 2 = 3; the orc's blow at 0 + 6 + 3 = 9: natural 20, 8 damage, Mina (4 hp) down;
    # burns at 3 + 15 = 18, 23, 28: 30 - 12 = 18 (Brom, idle, keeps the party in the fight)
    assert doc["combatants"]["Mina"]["down"] is True
    assert phases(doc, "effect", "Mina") == [18, 23, 28]
    assert hp(doc, "Orc") == 18


def test_g_05_a_target_down_before_the_action_ends_it_and_the_next_is_declared_then():
    """Ash's shot at Orc 1 (phase 5) comes after Brom killed it (phase 4): the action ends, Ash declares at 5."""
    doc = play({"party": [pc("Brom"), pc("Ash", weapons=[SHORT_BOW])], "orcs": [orc("Orc 1"), orc("Orc 2", hp=30)]},
               {"Brom": [melee("Orc 1", 14, 5, roll=1)],
                "Ash": [missile("Orc 1", roll=2), missile("Orc 2", roll=1, dice=[{"attack": 2}, {"attack": 2}])]},
               opening={"party": 4, "orcs": 4}, morale={4: {"orcs": 2}})
    # Brom 0 + 1 + 3 = 4 kills Orc 1 (d20 14, 5 damage); Ash 0 + 2 + 3 = 5: impossible; then 5 + 1 + 3 = 9, 10
    assert one(doc, "impossible", "Ash")["tick"][0] == 5
    assert phases(doc, "missile", "Ash") == [9, 10]


def test_damage_at_without_damage_dice_is_refused():
    text = encounter({"party": [mage("Mina", {**HEAT_METAL, "damage": None})], "orcs": [orc("Orc")]}, {})
    with pytest.raises(EncounterError) as exc:
        prepare(load_text(text, "bad.json"), ruleset="phase-count")
    assert "damage_at needs the spell's damage dice" in str(exc.value)


@pytest.mark.parametrize(("option", "value", "says"), [
    ("start_phase", -1, "use a whole number of at least 0"),
    ("duration_scale", "weird", "choose one of tactical, real"),
    ("interrupted_spell", "gone", "choose one of lost, ruined"),
])
def test_bad_option_values_are_refused(option: str, value: object, says: str):
    text = encounter({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {}, options={option: value})
    with pytest.raises(EncounterError) as exc:
        prepare(load_text(text, "bad.json"), ruleset="phase-count")
    assert f"options.{option}" in str(exc.value) and says in str(exc.value)


@pytest.mark.parametrize(("given", "kept"), [(3, "3 rounds"), ("1 turn", "1 turn"), ("20 phases", "20 phases"),
                                             ("4 rounds", "4 rounds")])
def test_g_08_a_spell_duration_is_read_as_rounds_turns_or_phases(given: object, kept: str):
    """G-08: a bare number is rounds; the unit is kept as written (parse_duration gives it singular)."""
    from affray.model.encounter import Spell, parse_duration

    spell = Spell.model_validate({"name": "light", "duration": given})
    assert spell.duration == kept
    assert parse_duration(kept)[1] in ("round", "turn", "phase")


def test_g_08_a_duration_that_is_not_one_is_named():
    text = encounter({"party": [mage("Mina", {**LIGHT, "duration": "soon"})], "orcs": [orc("Orc")]}, {})
    with pytest.raises(EncounterError) as exc:
        load_text(text, "bad.json")
    assert "sides.party.combatants[0].spells[0].duration" in str(exc.value)
    assert "use 'N rounds', 'N turns' or 'N phases'" in str(exc.value)


def test_pc_09_a_routed_combatant_ignores_its_planned_abort():
    """PC-11 + PC-09: after a failed morale check the flight replaces the plan, an `abort` in it too."""
    doc = play({"party": [pc("Brom")], "orcs": {"morale": 8, "combatants": [orc("Orc 1"), orc("Orc 2")]}},
               {"Brom": [melee("Orc 1", 14, 5, roll=1)],
                "Orc 2": [melee("Brom", 2), {"misc": "pulls the lever", "abort": 6, "roll": 1}]},
               opening={"party": 1, "orcs": 6}, morale={4: {"orcs": 12}}, referee={("initiative", "Orc 2"): [1]})
    # Orc 1 down at 4 (0 + 1 + 3; d20 14, 5 damage); 2d10 12 > 8: Orc 2 flees at 4 + 1 + 3 = 8; no abort at 6
    assert events(doc, "abort") == []
    assert events(doc, "misc", "Orc 2") == []
    assert one(doc, "move", "Orc 2")["tick"][0] == 8


def test_the_shipped_bugbear_example_runs_the_seeds_phases_without_the_rng():
    """src/affray/examples/bugbears_phase_count.yaml is the test above as a file: same phases, every die given."""
    from pathlib import Path

    from affray import load_encounter, run, timeline_dict

    path = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "bugbears_phase_count.yaml"
    doc = timeline_dict(run(load_encounter(path)))
    assert not [d for e in doc["events"] for d in e.get("dice", ()) if d["source"] == "rng"]
    timed = [(e["tick"][0], e["kind"], e["actor"]) for e in doc["events"]
             if e["kind"] in ("cast", "missile", "move", "melee")]
    # the seed: sleep 4, Pascal moves 4 and attacks 5, bowshots 5 and 6, Pascal attacked 7, Pascal 9,
    # Lyssa 10, Damiar and the bugbear's move 11, its attack and the last bugbear's move 12, its attack 13
    assert timed == [(4, "cast", "Lyssa"), (4, "move", "Pascal"), (5, "missile", "Damiar"), (5, "melee", "Pascal"),
                     (6, "missile", "Damiar"), (6, "move", "Bugbear 4"), (7, "melee", "Bugbear 4"),
                     (9, "melee", "Pascal"), (10, "move", "Lyssa"), (11, "missile", "Damiar"),
                     (11, "move", "Bugbear 4"), (12, "missile", "Damiar"), (12, "move", "Bugbear 5"),
                     (12, "melee", "Bugbear 4"), (13, "melee", "Bugbear 5")]
