"""combat2-phase1 (seed 000, Phase System I): initiative and declarations: P1-01, P1-02, P1-08, P1-12; surprise and
ambush: C2-27, C2-22. Bad input: d10 rolls outside 1-10.

Every expectation is worked out by hand from seed 000 sections 1-2, RULES.md and the interface (/tmp/c2p1_spec.md);
see combat2_helpers for the defaults (PC: THAC0 20, AC 5, 10 hp, long sword SF 5; orc: THAC0 19, AC 6, 5 hp, short
sword SF 3). Bands (P1-04): winner SF <2 -> s 1, 2-3 -> 2, 4-6 -> 3, 7-9 -> 4, 10+ -> 5; loser one later.
"""

from __future__ import annotations

import pytest

from affray import EncounterError
from combat2_helpers import (
    LONG_BOW,
    NONE,
    ORCS_WIN,
    PARTY_WINS,
    attacks,
    check,
    events,
    init,
    melee,
    miss_on,
    missile,
    one,
    orc,
    pc,
    phase_of,
    play,
    when,
)

# -- P1-01: group initiative, d10, lowest wins --------------------------------------------------------------


def test_p1_01_lowest_d10_wins_and_sets_the_tracks() -> None:
    """Seed A: "Each group of characters rolls a d10, with the lowest roll winning initiative"."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative=init((3, 7)))
    ini = one(doc, "initiative")
    assert (ini["tick"], ini["at"]) == ([1, 0, 1, 0], "round 1, initiative")
    assert ini["results"] == {"party": 3, "orcs": 7}
    assert ini["tracks"] == {"Brom": "winner", "Orc": "loser"}  # 3 < 7
    # Brom winner SF 5 -> band 4-6 -> half-segment 3; Orc loser SF 3 -> band 2-3 -> one later: 3 (P1-04)
    assert when(one(doc, "melee", "Brom")) == (1, 3)
    assert one(doc, "melee", "Brom")["at"] == "round 1, phase 1, half-segment 3 (winner)"
    assert one(doc, "melee", "Orc")["at"] == "round 1, phase 1, half-segment 3 (loser)"


def test_p1_01_tie_for_lowest_puts_every_side_on_the_loser_track() -> None:
    """RULES P1-01 Decision (tie_track=loser): party 5, orcs 5: nobody wins; Brom's SF 5 falls on loser 4."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative=init((5, 5)))
    assert one(doc, "initiative")["tracks"] == {"Brom": "loser", "Orc": "loser"}
    assert when(one(doc, "melee", "Brom")) == (1, 4)  # loser band 4-6 -> half-segment 4


def test_p1_01_tie_track_winner_option_makes_the_tied_sides_winners() -> None:
    """Option tie_track=winner: a modified roll equal to the lowest opposing roll counts as winning (5 vs 5)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative=init((5, 5)),
               options={"tie_track": "winner"})
    assert one(doc, "initiative")["tracks"] == {"Brom": "winner", "Orc": "winner"}
    assert when(one(doc, "melee", "Brom")) == (1, 3)  # winner band 4-6 -> 3
    assert when(one(doc, "melee", "Orc")) == (1, 2)  # winner band 2-3 -> 2


def test_p1_01_several_sides_the_single_lowest_wins_all_others_lose() -> None:
    """Seed A: "In the case of a multi-sided attack, low roll is the initiative winner, all others are losers"."""
    sides = {"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)], "goblins": [orc("Gob", hp=30)]}
    plan = {"Brom": [miss_on("Orc")], "Orc": [miss_on("Gob")], "Gob": [miss_on("Brom")]}
    doc = play(sides, plan, initiative={1: {"party": 2, "orcs": 5, "goblins": 7}})
    assert one(doc, "initiative")["tracks"] == {"Brom": "winner", "Orc": "loser", "Gob": "loser"}
    doc = play(sides, plan, initiative={1: {"party": 2, "orcs": 2, "goblins": 7}})
    # party and orcs tie for lowest: no side wins (P1-01 Decision), nobody has a DEX bonus
    assert one(doc, "initiative")["tracks"] == {"Brom": "loser", "Orc": "loser", "Gob": "loser"}


@pytest.mark.parametrize("roll", [0, 11])
def test_p1_01_an_initiative_roll_outside_the_d10_is_bad_input(roll: int) -> None:
    """The group roll is a d10 (seed A): rolls.initiative 1 party = 0 or 11 is refused, naming the field."""
    with pytest.raises(EncounterError) as err:
        check({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {"Brom": [miss_on("Orc")]},
              initiative={1: {"party": roll, "orcs": 3}})
    assert "rolls.initiative.1.party" in str(err.value)
    assert "d10" in str(err.value)


def test_c2_27_a_surprise_roll_outside_the_d10_is_bad_input() -> None:
    """C2-27 default surprise roll: d10 (1-3 surprised): 11 is not a d10 result."""
    with pytest.raises(EncounterError) as err:
        check({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {"Brom": [miss_on("Orc")]},
              initiative=PARTY_WINS, surprise="check", surprise_rolls={"party": 5, "orcs": 11})
    assert "rolls.surprise.orcs" in str(err.value)


# -- P1-02: individual DEX reaction adjustment -----------------------------------------------------------


def test_p1_02_high_dex_puts_a_loser_onto_the_winners_track() -> None:
    """Seed B: "A high dexterity may put a "loser" onto the winner's track". Party 5, orcs 4: Brom DEX 17 (+2):
    5 - 2 = 3 < 4: winner; Cid DEX 10: 5: loser; the orc 4 < 5: winner."""
    doc = play({"party": [pc("Brom", dex=17), pc("Cid")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Cid": [miss_on("Orc")], "Orc": [miss_on("Brom")]},
               initiative=init((5, 4)))
    assert one(doc, "initiative")["tracks"] == {"Brom": "winner", "Cid": "loser", "Orc": "winner"}
    # SF 5, band 4-6: winner half-segment 3, loser 4
    assert (when(one(doc, "melee", "Brom")), when(one(doc, "melee", "Cid"))) == ((1, 3), (1, 4))


def test_p1_02_low_dex_puts_a_winner_onto_the_losers_track() -> None:
    """Seed B: "while a low DEX may do the opposite". Party 3, orcs 4: Cid DEX 4 (-2): 3 + 2 = 5, not < 4: loser;
    Dan DEX 5 (-1): 4, not < 4: loser; Brom 3 < 4: winner."""
    doc = play({"party": [pc("Brom"), pc("Cid", dex=4), pc("Dan", dex=5)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [NONE], "Cid": [NONE], "Dan": [NONE], "Orc": [NONE]}, initiative=init((3, 4)))
    assert one(doc, "initiative")["tracks"] == {"Brom": "winner", "Cid": "loser", "Dan": "loser", "Orc": "loser"}


@pytest.mark.parametrize(("rolls", "dex", "track"), [
    ((5, 3), 18, "loser"),  # +2: 5 - 2 = 3, not < 3
    ((5, 3), 19, "winner"),  # +3: 2 < 3
    ((3, 5), 5, "winner"),  # -1: 4 < 5
    ((3, 5), 4, "loser"),  # -2: 5, not < 5
    ((3, 5), 3, "loser"),  # -3: 6
    ((8, 5), 21, "winner"),  # +4: 4 < 5
    ((8, 5), 20, "loser"),  # +3: 5, not < 5
])
def test_p1_02_reaction_adjustment_table(rolls: tuple[int, int], dex: int, track: str) -> None:
    """RULES P1-02 (2nd-edition PH Table 2): 3: -3, 4: -2, 5: -1, 16: +1, 17-18: +2, 19-20: +3, 21-23: +4; a
    positive adjustment subtracts from the d10; winner only below the lowest opposing roll."""
    doc = play({"party": [pc("Brom", dex=dex)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [NONE], "Orc": [NONE]}, initiative=init(rolls))
    assert one(doc, "initiative")["tracks"]["Brom"] == track


@pytest.mark.parametrize(("tie_track", "track"), [("loser", "loser"), ("winner", "winner")])
def test_p1_02_a_modified_roll_equal_to_the_lowest_opposing_roll(tie_track: str, track: str) -> None:
    """RULES P1-02 Decision: winner only if LOWER than the lowest opposing roll; option tie_track=winner counts
    equal too. Party 5, orcs 4: Brom DEX 16 (+1): 5 - 1 = 4 = 4."""
    doc = play({"party": [pc("Brom", dex=16)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [NONE], "Orc": [NONE]}, initiative=init((5, 4)), options={"tie_track": tie_track})
    assert one(doc, "initiative")["tracks"]["Brom"] == track


def test_p1_02_on_a_tie_individuals_still_go_by_their_dex() -> None:
    """Spec: a tie for lowest between sides: individuals still go by the rule: party 5, orcs 5; Brom DEX 16:
    5 - 1 = 4 < 5: winner; the orc 5, not < 5: loser."""
    doc = play({"party": [pc("Brom", dex=16)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [NONE], "Orc": [NONE]}, initiative=init((5, 5)))
    assert one(doc, "initiative")["tracks"] == {"Brom": "winner", "Orc": "loser"}


# -- P1-08: stating intentions, losers first --------------------------------------------------------------


def test_p1_08_losers_state_intentions_first_then_winners_in_file_order() -> None:
    """Seed C: "Starting with initiative losers, each combatant must state...". Party 5, orcs 4: Brom DEX 17
    (3 < 4) and the orc (4 < 5) win, Cid (5) loses: Cid declares first, then Brom and Orc in file order."""
    doc = play({"party": [pc("Brom", dex=17), pc("Cid")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [NONE], "Cid": [NONE], "Orc": [NONE]}, initiative=init((5, 4)))
    decls = events(doc, "declare")
    assert [e["actor"] for e in decls] == ["Cid", "Brom", "Orc"]
    assert all(e["tick"] == [1, 1, 0, 0] and e["at"] == "round 1, phase 1, stating intentions" for e in decls)
    assert one(doc, "initiative")["seq"] < decls[0]["seq"]


def test_p1_08_every_phase_has_its_own_statement_of_intentions() -> None:
    """Seed G: "REPEAT FOR PHASES 2 AND 3": the orcs lose (7 > 3) and state first in each phase."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [NONE, NONE, NONE], "Orc": [NONE, NONE, NONE]}, initiative=PARTY_WINS)
    decls = events(doc, "declare")
    assert [(e["actor"], e["tick"], e["at"]) for e in decls] == [
        ("Orc", [1, k, 0, 0], f"round 1, phase {k}, stating intentions") if i % 2 == 0 else
        ("Brom", [1, k, 0, 0], f"round 1, phase {k}, stating intentions")
        for k in (1, 2, 3) for i in (0, 1)]


def test_p1_08_all_sides_losing_state_in_the_order_the_file_lists_them() -> None:
    """RULES P1-01 Decision: when every side is a loser (tie 6-6), intentions follow the file's side order."""
    doc = play({"orcs": [orc("Orc", hp=30)], "party": [pc("Brom")]},
               {"Brom": [NONE], "Orc": [NONE]}, initiative={1: {"party": 6, "orcs": 6}})
    assert [e["actor"] for e in events(doc, "declare")] == ["Orc", "Brom"]


# -- P1-12: a new round rolls again --------------------------------------------------------------------------


def test_p1_12_each_round_rolls_initiative_again() -> None:
    """Seed I: "NEW ROUND BEGINS" (P1-12: roll again): party wins round 1 (3 < 7), loses round 2 (7 > 3), so
    Brom's SF 5 swing falls on winner half-segment 3, then loser half-segment 4."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc"), NONE, NONE, miss_on("Orc")]}, initiative=init((3, 7), (7, 3)))
    inis = events(doc, "initiative")
    assert [(e["tick"], e["at"], e["results"]) for e in inis] == [
        ([1, 0, 1, 0], "round 1, initiative", {"party": 3, "orcs": 7}),
        ([2, 0, 1, 0], "round 2, initiative", {"party": 7, "orcs": 3})]
    assert [e["tracks"]["Brom"] for e in inis] == ["winner", "loser"]
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 3), (2, 4)]
    assert attacks(doc, "Brom")[1]["at"] == "round 2, phase 1, half-segment 4 (loser)"


def test_p1_12_max_rounds_counts_rounds_not_phases() -> None:
    """Spec "The clock": a declaration point is a phase, `--max-rounds N` counts rounds: with max_rounds 1 the three
    phases of round 1 are played (Brom's swings on 3, 9, 15 with 3 attacks) and round 2 never starts (no second
    initiative roll)."""
    doc = play({"party": [pc("Brom", attacks=3)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")] * 6}, initiative=PARTY_WINS, max_rounds=1)
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 3), (1, 9), (1, 15)]
    assert [e["round"] for e in events(doc, "initiative")] == [1]


# -- C2-27: surprise ----------------------------------------------------------------------------------------


def test_c2_27_a_d10_of_1_to_3_surprises_and_the_surprised_lose_phase_1() -> None:
    """Seed F: "a surprised individual loses one full phase" (RULES C2-27 default: d10, 1-3). Orcs roll 3:
    surprised; the party's 5 is not. The orc states its first intention in phase 2, attacking on loser band
    2-3: half-segment 6 + 3 = 9."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative=PARTY_WINS,
               surprise="check", surprise_rolls={"party": 5, "orcs": 3})
    sur = one(doc, "surprise")
    assert (sur["tick"], sur["at"]) == ([1, 0, 0, 0], "round 1, surprise")
    assert [phase_of(e) for e in events(doc, "declare", "Orc")] == [(1, 2)]
    assert when(one(doc, "melee", "Orc")) == (1, 9)
    assert when(one(doc, "melee", "Brom")) == (1, 3)  # Brom acts in phase 1 as usual


def test_c2_27_a_d10_of_4_does_not_surprise() -> None:
    """C2-27 default: surprised on 1-3 only: 4 and 4 surprise nobody; both state intentions in phase 1."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative=PARTY_WINS,
               surprise="check", surprise_rolls={"party": 4, "orcs": 4})
    assert [phase_of(e) for e in events(doc, "declare")] == [(1, 1), (1, 1)]


def test_c2_27_both_sides_surprised_both_lose_phase_1() -> None:
    """Seed F: "a surprised individual loses one full phase": d10 2 and 3 surprise both sides; everyone states
    the first intention in phase 2 (Brom winner SF 5 -> 6 + 3 = 9; the orc loser SF 3 -> 6 + 3 = 9)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative=PARTY_WINS,
               surprise="check", surprise_rolls={"party": 2, "orcs": 3})
    assert [phase_of(e) for e in events(doc, "declare")] == [(1, 2), (1, 2)]
    assert [when(e) for e in events(doc, "melee")] == [(1, 9), (1, 9)]


def test_c2_27_closing_on_a_surprised_foe_attacks_at_the_end_of_the_move() -> None:
    """Seed F: "combatants moving up to a surprised individual may attack at the completion of their movement,
    rather than leading off the phase with an attack". Brom closes 40 ft (MV 12: 120 / 3 = 40 per phase) and
    strikes in phase 1: d20 14 >= 20 - 6 = 14, 1d8 4 -> 30 - 4 = 26."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 14, 4, distance=40)]}, initiative=PARTY_WINS, surprise={"orcs": True})
    move, blow = one(doc, "move", "Brom"), one(doc, "melee", "Brom")
    assert (move["tick"], move["feet"]) == ([1, 1, 7, 1], 40)
    assert phase_of(blow) == (1, 1) and blow["seq"] > move["seq"] and blow["tick"] >= move["tick"]
    assert (blow["hit"], blow["damage"]) == (True, 4)


def test_c2_27_closing_on_an_aware_foe_attacks_only_next_phase() -> None:
    """Without surprise the closer waits for the next phase's attack portion (seed's orc): Brom's SF 5 falls on
    winner half-segment 6 + 3 = 9 (the orc idles)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 14, 4, distance=40)], "Orc": [NONE, NONE]}, initiative=PARTY_WINS)
    assert when(one(doc, "melee", "Brom")) == (1, 9)


# -- C2-22: ambush ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("ambush", "initiative", "half_segment"), [
    (True, PARTY_WINS, 1), (False, PARTY_WINS, 4), (True, ORCS_WIN, 2), (False, ORCS_WIN, 5)])
def test_c2_22_an_ambush_opening_the_battle_strikes_at_sf_1(ambush: bool, initiative: dict[int, dict[str, int]],
                                                             half_segment: int) -> None:
    """Seed D (ambush preparation): "the ambush is then considered as occurring in the attack portion of the
    first combat phase with all ambushing weapons striking with an SF 1". The archer's long bow SF 8 -> SF 1:
    winner band <2 -> half-segment 1 (loser: 2); without ambush band 7-9 -> 4 (loser: 5)."""
    decl = missile("Orc", 2, ambush=True) if ambush else missile("Orc", 2)
    doc = play({"party": [pc("Ari", weapons=[LONG_BOW])], "orcs": [orc("Orc", hp=30)]},
               {"Ari": [decl]}, initiative=initiative, surprise={"orcs": True})
    assert when(one(doc, "missile", "Ari")) == (1, half_segment)


def test_c2_27_surprised_side_loses_phase_1_even_when_it_wins_initiative() -> None:
    """Seed F: the surprised lose phase 1 whatever the roll: the orcs win (3 < 7) but, surprised, first act in
    phase 2 on the winner track (SF 3 -> band 2-3 -> half-segment 6 + 2 = 8)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative=ORCS_WIN, surprise={"orcs": True})
    assert when(one(doc, "melee", "Orc")) == (1, 8)
    assert when(one(doc, "melee", "Brom")) == (1, 4)  # loser band 4-6


# -- bad input: values outside the domains the spec gives ---------------------------------------------------------


@pytest.mark.parametrize(("who", "decl", "where"), [
    ("Mina", {"cast": "web", "at": "orcs", "hold": 7}, "plan.Mina[0].hold"),  # C2-14: hold 1-6
    ("Mina", {"cast": "web", "at": "orcs", "dice": {"con": 21}}, "plan.Mina[0].dice.con"),  # C2-13: a d20
    ("Brom", {"move": 40, "pace": 6}, "plan.Brom[0].pace"),  # C2-19: pace 1..5
    ("Brom", {"melee": "Orc", "charge": True, "distance": 30, "pace": 1}, "plan.Brom[0].pace"),  # C2-20: pace >= 2
    ("Brom", {"melee": "Orc", "situation": ["flying"]}, "plan.Brom[0].situation"),  # C2-29: the listed ones
    ("Mina", {"melee": "Orc", "touch": "web"}, "plan.Mina[0].touch"),  # C2-10: a touch spell she knows
    ("Brom", {"melee": "Orc", "routine": ["long sword", "axe"]}, "plan.Brom[0].routine"),  # C2-07: her weapons
])
def test_bad_input_outside_the_specs_domains_names_the_field(who: str, decl: dict[str, object], where: str) -> None:
    """Spec domains: hold 1-6, d20 checks, pace 1..5 (a charge >= 2), the C2-29 situation names, a touch spell
    (`touch: true`), routine parts among the combatant's weapons: anything else is bad input naming its field."""
    sides = {"party": [pc("Brom"), {"name": "Mina", "class": "wizard", "level": 1, "hp": 4,
                                    "spells": [{"name": "web", "ct": 1}]}], "orcs": [orc("Orc")]}
    with pytest.raises(EncounterError) as err:
        check(sides, {who: [decl]}, initiative=PARTY_WINS)
    assert where in str(err.value)
