"""combat2-phase1 (seed 000 section 2 D): movement: P1-10, C2-16 (1/3 MV per phase), C2-17 (closing), C2-18
(withdraw, flee), C2-19 (pace: the seed's decelerating runner), C2-20 (charge: the seed's paladin and troll), C2-21
(set weapons), C2-23 (incremental movement, Table 3).

MV is inches per round, 1" = 10 ft: a phase's move is MV x 10 / 3 ft (MV 12: 40 ft; MV 9: 30 ft); at pace p
(multiple of base MV) MV x p x 10 / 3. Defaults in combat2_helpers (PC THAC0 20, AC 5, 10 hp; orc THAC0 19, AC 6).
"""

from __future__ import annotations

from typing import Any

import pytest

from combat2_helpers import (
    NONE,
    ORCS_WIN,
    PARTY_WINS,
    attacks,
    checks,
    events,
    hp,
    init,
    melee,
    miss_on,
    one,
    orc,
    pc,
    phase_of,
    play,
    refused,
    weapon,
    when,
)


def _feet(doc: dict[str, Any], actor: str) -> list[tuple[tuple[int, int], int]]:
    """(round, phase) and feet of each of ``actor``'s moves, summed per phase."""
    out: dict[tuple[int, int], int] = {}
    for e in events(doc, "move", actor):
        out[phase_of(e)] = out.get(phase_of(e), 0) + e["feet"]
    return sorted(out.items())


# -- C2-16 / P1-10: movement after the attacks of the phase ------------------------------------------------------


def test_p1_10_moves_and_misc_come_after_the_phases_attacks_simultaneously() -> None:
    """Seed F: "After attacks and spells have been resolved, all movement is conducted"; step F: "MOVEMENT/
    MISCELLANEOUS ACTION. Simultaneous": Brom's 40-ft move and Ari's misc share the movement tick, after the orc's
    swing (loser SF 3 -> 3)."""
    doc = play({"party": [pc("Brom"), pc("Ari")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [{"move": 40}], "Ari": [{"misc": "surveys the battle"}], "Orc": [miss_on("Ari")]},
               initiative=PARTY_WINS)
    move, misc, swing = one(doc, "move", "Brom"), one(doc, "misc", "Ari"), one(doc, "melee", "Orc")
    assert (move["tick"], move["at"], move["feet"]) == ([1, 1, 7, 1], "round 1, phase 1, movement", 40)
    assert misc["tick"] == move["tick"]
    assert swing["seq"] < min(move["seq"], misc["seq"])


def test_c2_16_a_move_covers_at_most_a_third_of_mv_in_a_phase() -> None:
    """Seed F: "In a phase, each combatant may move up to 1/3 his current MV (a walking knight with a 12 MV can move
    4 per phase)": a 60-ft move declared at MV 12 covers 40 ft in phase 1."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]}, {"Brom": [{"move": 60}], "Orc": [NONE] * 3},
               initiative=PARTY_WINS)
    assert _feet(doc, "Brom")[0] == ((1, 1), 40)


def test_c2_16_a_third_of_mv_per_phase_closing_takes_the_phases_it_needs() -> None:
    """Seed D: "a combatant may move up to 1/3 of his current MV": MV 9 -> 30 ft a phase; closing 60 ft takes phases
    1 and 2 and the swing comes in phase 3 (winner SF 5 -> 12 + 3 = 15; P1-13); the orc idles."""
    doc = play({"party": [pc("Brom", mv=9)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, distance=60)], "Orc": [NONE] * 3}, initiative=PARTY_WINS)
    assert _feet(doc, "Brom") == [((1, 1), 30), ((1, 2), 30)]
    assert [when(e) for e in attacks(doc, "Brom")] == [(1, 15)]


def test_c2_16_closing_across_rounds_strikes_in_the_next_rounds_first_phase() -> None:
    """P1-13 / spec: a close "over as many phases as it takes ..., then attacks in the next phase's attack portion":
    100 ft at MV 12: 40, 40, 20 ft in round 1, the swing in round 2 phase 1 (winner again, SF 5 -> 3)."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [melee("Orc", 2, distance=100)], "Orc": [NONE] * 4}, initiative=init((3, 7), (3, 7)))
    assert _feet(doc, "Brom") == [((1, 1), 40), ((1, 2), 40), ((1, 3), 20)]
    assert [when(e) for e in attacks(doc, "Brom")] == [(2, 3)]


# -- C2-17: closing; the engaged may only withdraw or flee -------------------------------------------------------


def _engaged(brom_phase_2: dict[str, Any], orc_phase_2: dict[str, Any], *, initiative: dict[int, dict[str, int]],
             orc_mv: int = 12, referee: dict[tuple[str, str], list[int]] | None = None,
             cid: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Brom and the orc trade misses in phase 1 (engaged); phase 2 as given. MV 12 each unless ``orc_mv``."""
    party = [pc("Brom", hp=30)] + ([pc("Cid")] if cid is not None else [])
    plan = {"Brom": [miss_on("Orc"), brom_phase_2], "Orc": [miss_on("Brom"), orc_phase_2]}
    if cid is not None:
        plan["Cid"] = cid
    return play({"party": party, "orcs": [orc("Orc", hp=30, mv=orc_mv, attacks=2)]}, plan,
                initiative=initiative, referee=referee)


def test_c2_17_an_engaged_combatant_may_not_simply_move_away() -> None:
    """Seed D: "the opponent may choose to withdraw or flee but may not continue to move away normally": after the
    phase 1 exchange, Brom's plain 30-ft move in phase 2 is impossible."""
    doc = _engaged({"move": 30}, NONE, initiative=PARTY_WINS)
    assert phase_of(one(doc, "impossible", "Brom")) == (1, 2)
    assert events(doc, "move", "Brom") == []


# -- C2-18: withdraw and flee ---------------------------------------------------------------------------------------


def test_c2_18_withdrawing_is_a_third_of_the_phase_move_without_a_free_attack() -> None:
    """Seed D: "a retreating character must further cut movement to 1/3 MV base in order to withdraw": MV 9 -> 30 ft
    a phase -> 10 ft withdrawing; no free attack."""
    party = [pc("Brom", hp=30, mv=9)]
    doc = play({"party": party, "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc"), {"move": 10, "mode": "withdraw"}], "Orc": [miss_on("Brom"), NONE]},
               initiative=PARTY_WINS)
    move = one(doc, "move", "Brom")
    assert (phase_of(move), move["feet"], move.get("mode")) == ((1, 2), 10, "withdraw")
    assert events(doc, "melee", opportunity=True) == []


def test_c2_18_a_longer_withdrawal_is_cut_to_a_third_of_the_phase_move() -> None:
    """Seed D: "a retreating character must further cut movement to 1/3 MV base in order to withdraw from combat":
    Brom (MV 9: 30 ft a phase) declares a 30-ft withdrawal: he covers 30 / 3 = 10 ft."""
    doc = play({"party": [pc("Brom", hp=30, mv=9)], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc"), {"move": 30, "mode": "withdraw"}], "Orc": [miss_on("Brom"), NONE]},
               initiative=PARTY_WINS)
    assert _feet(doc, "Brom") == [((1, 2), 10)]


def test_c2_18_a_fleeing_loser_gives_every_engaged_foe_a_free_attack() -> None:
    """Seed D: "A FLEEING combatant may make a normal move, but is still a ripe target for a free attack": the
    losing Brom flees 40 ft in phase 2; the orc's free attack (d20 14 >= 19 - 5, 1d6 3) comes in the movement
    portion, before the move."""
    doc = _engaged({"move": 40, "mode": "flee"}, NONE, initiative=ORCS_WIN,
                   referee={("attack", "Orc"): [14], ("damage", "Orc"): [3]})
    free = one(doc, "melee", "Orc", opportunity=True)
    move = one(doc, "move", "Brom")
    assert (phase_of(free), free["hit"], free["damage"]) == ((1, 2), True, 3)
    assert (phase_of(move), move["feet"]) == ((1, 2), 40)
    assert free["seq"] < move["seq"]
    assert hp(doc, "Brom") == 27


def test_c2_18_every_engaged_foe_gets_its_free_attack() -> None:
    """Seed D / RULES C2-18: "every engaged opponent gets a free attack": both orcs traded blows with Brom in phase 1;
    the losing Brom flees in phase 2: two free attacks (d20 2, misses), then his 40-ft move."""
    doc = play({"party": [pc("Brom", hp=30)], "orcs": [orc("Orc", count=2, hp=30)]},
               {"Brom": [miss_on("Orc 1"), {"move": 40, "mode": "flee"}],
                "Orc 1": [miss_on("Brom"), NONE], "Orc 2": [miss_on("Brom"), NONE]},
               initiative=ORCS_WIN, referee={("attack", "Orc 1"): [2], ("attack", "Orc 2"): [2]})
    free = events(doc, "melee", opportunity=True)
    assert sorted(e["actor"] for e in free) == ["Orc 1", "Orc 2"]
    assert all(phase_of(e) == (1, 2) and e["seq"] < one(doc, "move", "Brom")["seq"] for e in free)


@pytest.mark.parametrize(("orc_mv", "orc_phase_2", "free_attack"), [
    (12, miss_on("Brom"), False),  # struck earlier this phase, MV 12 <= 12: outrun
    (15, miss_on("Brom"), True),  # MV 15 > 12: not outrun
    (12, NONE, True),  # did not strike this phase
])
def test_c2_18_a_winner_outruns_a_foe_that_struck_this_phase_and_is_no_faster(
        orc_mv: int, orc_phase_2: dict[str, Any], free_attack: bool) -> None:
    """Seed D: "EXCEPTION: the initiative winner may outrun the free attack if the opponent has struck earlier in the
    SAME PHASE and has a MV no greater than the one fleeing" (Brom wins, MV 12; the orc has 2 attacks)."""
    doc = _engaged({"move": 40, "mode": "flee"}, orc_phase_2, initiative=PARTY_WINS, orc_mv=orc_mv,
                   referee={("attack", "Orc"): [2]})
    assert len(events(doc, "melee", "Orc", opportunity=True)) == int(free_attack)
    assert one(doc, "move", "Brom")["feet"] == 40


def test_c2_18_an_interposing_ally_lets_one_flee_unmolested() -> None:
    """Seed D: "If another party member can interpose himself, a combatant may flee unmolested": Cid declares melee
    on the orc in phase 2 (a miss): the losing Brom flees without a free attack."""
    doc = _engaged({"move": 40, "mode": "flee"}, NONE, initiative=ORCS_WIN, cid=[NONE, miss_on("Orc")],
                   referee={("attack", "Orc"): [14], ("damage", "Orc"): [3]})
    assert events(doc, "melee", "Orc", opportunity=True) == []
    assert one(doc, "move", "Brom")["feet"] == 40


# -- C2-19: changing pace; the seed's runner -------------------------------------------------------------------------


def _runner(round_2: list[dict[str, Any]], orc_plan: list[dict[str, Any]] | None = None,
            phase_2: dict[str, Any] | None = None, rounds: int = 2) -> dict[str, Any]:
    """Runa (MV 12, STR 12, DEX 14, CON 12) runs up to full speed in round 1: phase 1 walks (standstill to base MV
    is automatic: 40 ft), phase 2 pace 3 (STR d20 5 <= 12: 12 x 3 x 10 / 3 = 120 ft), phase 3 pace 5 (STR 5:
    200 ft; the round's CON check d20 5 <= 12 passes). The party wins both rounds."""
    runner = pc("Runa", hp=20, str=12, dex=14, con=12)
    p2 = phase_2 if phase_2 is not None else {"move": 120, "pace": 3, "dice": {"str": 5}}
    plan = {"Runa": [{"move": 40}, p2, {"move": 200, "pace": 5, "dice": {"str": 5, "con": 5}}, *round_2]}
    if orc_plan is not None:
        plan["Orc"] = orc_plan
    return play({"party": [runner], "orcs": [orc("Orc", hp=30)]}, plan, initiative=init(*[(3, 7)] * rounds))


def test_c2_19_accelerating_by_two_factors_a_phase_up_to_five() -> None:
    """Seed D: "a combatant may further accelerate up to 2x base MV per phase (reaching maximum movement of 5x MV in
    two phases)": 40, 120, 200 ft."""
    doc = _runner([])
    assert _feet(doc, "Runa") == [((1, 1), 40), ((1, 2), 120), ((1, 3), 200)]
    assert checks(doc, "Runa", "STR") == [5, 5]


def test_c2_19_a_failed_strength_check_keeps_the_old_pace() -> None:
    """Seed D: "after using PH rules for chances for success based on Strength"; spec: failure keeps the old pace:
    STR 12, d20 13 fails: phase 2 stays at pace 1, 40 ft."""
    doc = _runner([], phase_2={"move": 120, "pace": 3, "dice": {"str": 13}})
    assert _feet(doc, "Runa")[:2] == [((1, 1), 40), ((1, 2), 40)]


def test_c2_19_a_failed_con_check_drops_the_runner_back_to_base_mv() -> None:
    """Seed D: "Constitution checks are made each round, based on top speed attained during the round"; spec:
    failure puts the pace back to 1. Round 1 tops at x5; CON 12, d20 13 fails (whatever the speed penalty): in
    round 2 she walks 40 ft with no momentum and no DEX check."""
    runner = pc("Runa", hp=20, str=12, dex=14, con=12)
    plan: dict[str, list[dict[str, Any]]] = {"Runa": [{"move": 40}, {"move": 120, "pace": 3, "dice": {"str": 5}},
        {"move": 200, "pace": 5, "dice": {"str": 5, "con": 13}}, {"move": 40}]}
    doc = play({"party": [runner], "orcs": [orc("Orc", hp=30)]}, plan, initiative=init((3, 7), (3, 7)))
    assert checks(doc, "Runa", "CON") == [13]
    assert _feet(doc, "Runa")[3] == ((2, 1), 40)
    assert checks(doc, "Runa", "DEX") == []


def test_c2_19_the_runner_slowing_from_60_to_36_must_still_move_6() -> None:
    """Seed: "a human character running full speed (base 12 x 5 = MV 60 or 20 per phase) wants to slow to a walk.
    She subtracts two factors of movement immediately, slowing to 36, or 12 per phase. She must move at least 6
    (half of 12) during the phase": round 2 phase 1 at pace 3 covers 60 ft, no DEX check; she is on her feet and
    swings in phase 2 (winner SF 5 -> 6 + 3 = 9). Round 2's top pace is 3 > 1: CON d20 5 <= 12."""
    doc = _runner([{"move": 60, "pace": 3, "dice": {"con": 5}}, miss_on("Orc")])
    assert _feet(doc, "Runa")[3] == ((2, 1), 60)
    assert checks(doc, "Runa", "DEX") == []
    assert [when(e) for e in attacks(doc, "Runa")] == [(2, 9)]


@pytest.mark.parametrize(("feet", "dex_die"), [(0, 8), (30, 11)])
def test_c2_19_stopping_short_needs_a_dex_check_at_minus_1_per_10_ft(feet: int, dex_die: int) -> None:
    """Seed: "If she wishes to "stop on a silver piece," she must pass a DEX check at -6": 60 ft shortened to 0:
    DEX 14 - 6 = 8, d20 8 passes; shortened to 30: -3, d20 11 <= 11 passes. On her feet: she swings in phase 2."""
    doc = _runner([{"move": feet, "pace": 3, "dice": {"dex": dex_die, "con": 5}}, miss_on("Orc")])
    assert checks(doc, "Runa", "DEX") == [dex_die]
    assert sum(f for (rp, f) in _feet(doc, "Runa") if rp == (2, 1)) == feet
    assert [when(e) for e in attacks(doc, "Runa")] == [(2, 9)]


def test_c2_19_a_failed_dex_check_leaves_the_runner_prone() -> None:
    """Seed: "or fall prone for 1d4 phases (no attacks, no dexterity bonus, opponents receive +4 bonus to hit the
    fallen figure)": d20 9 > 14 - 6 = 8 fails, 1d4 2: prone through phases 2 and 3 of round 2. Her phase 2 swing is
    refused in round 2; the orc (loser SF 3 -> 6 + 3 = 9) hits her with d20 10: 10 + 4 >= 19 - 5 = 14; 1d6 1."""
    orc_plan = [NONE, NONE, NONE, NONE, melee("Runa", 10, 1)]
    doc = _runner([{"move": 0, "pace": 3, "dice": {"dex": 9, "prone": 2, "con": 5}}, miss_on("Orc")],
                  orc_plan=orc_plan, rounds=3)
    assert checks(doc, "Runa", "DEX") == [9]
    assert [e for e in attacks(doc, "Runa") if e["round"] == 2] == []
    assert (2, 2) in refused(doc, "Runa")
    blow = one(doc, "melee", "Orc")
    assert (when(blow), blow["hit"], blow["damage"]) == ((2, 9), True, 1)
    assert hp(doc, "Runa") == 19


# -- C2-20: charging; the seed's paladin and troll -------------------------------------------------------------------


def _paladin_and_troll(troll_plan: list[dict[str, Any]], lance_d20: int = 9, troll_hp: int = 30,
                       referee: dict[tuple[str, str], list[int]] | None = None,
                       cid: bool = False) -> dict[str, Any]:
    """Seed: "a mounted paladin charges a troll. The horse is spurred to triple movement--48--in order to reach the
    troll within the phase." Aldo: paladin 7 (THAC0 21 - 7 = 14), AC 2, base MV 16 at pace 3 = 48: 480 / 3 = 160 ft
    a phase (RULES C2-20 Note: the rule, not the example's 180); the troll (HD 6+3 = 7: THAC0 13, AC 4, large)
    is 130 ft away. The lance: d20 9 + 1 (charge) = 10 >= 14 - 4 = 10 hits; 1d8 6."""
    aldo = {"name": "Aldo", "class": "paladin", "level": 7, "hp": 50, "ac": 2, "mv": 16, "mounted": True,
            "str": 12, "weapons": [weapon("lance", 8, "1d8")]}
    troll = {"name": "Troll", "hd": "6+3", "hp": troll_hp, "ac": 4, "size": "large",
             "weapons": [weapon("claw", None, "1d4")]}
    charge = melee("Troll", charge=True, distance=130, pace=3, dice={"attack": lance_d20, "damage": 6, "str": 5})
    party: list[dict[str, Any]] = [aldo] + ([pc("Cid", hp=30)] if cid else [])
    plan = {"Aldo": [charge], "Troll": troll_plan}
    return play({"party": party, "orcs": [troll]}, plan, initiative=PARTY_WINS, referee=referee)


@pytest.mark.parametrize(("d20", "hit"), [(9, True), (8, False)])
def test_c2_20_the_paladin_charges_hits_on_contact_and_overruns(d20: int, hit: bool) -> None:
    """Seed: "The troll is only 130 yards away, so the paladin must overrun his target by the full remainder of his
    movement ... Since he spent the attack portion of the phase readying the lance, he attacks at the moment he
    closes": no attack on half-segments 1-6; the hit in phase 1's movement portion; 160 ft moved (130 + 30
    overrun). d20 8 + 1 = 9 < 10 misses. The troll, idle, then counterattacks before he is out of range: claw
    d20 2 misses (AC 2 - 2 mounted = 0: needs 13)."""
    doc = _paladin_and_troll([NONE], lance_d20=d20, referee={("attack", "Troll"): [2]})
    (lance,) = attacks(doc, "Aldo")
    assert (lance["tick"], lance["at"], lance["hit"]) == ([1, 1, 7, 0], "round 1, phase 1, movement", hit)
    assert hp(doc, "Troll") == (24 if hit else 30)
    assert _feet(doc, "Aldo") == [((1, 1), 160)]
    counter = one(doc, "melee", "Troll")
    assert (counter["tick"], counter["target"]) == ([1, 1, 7, 1], "Aldo")


def test_c2_20_a_longer_charge_makes_contact_in_the_phase_its_run_covers_the_distance() -> None:
    """Spec: contact in the movement portion of the phase in which the run covers D. Aldo charges the troll 200 ft
    away at 160 ft a phase: phase 1 runs 160 ft, phase 2 makes contact after 40 ft (the lance at [1, 2, 7, 0]) and
    overruns by 160 - 40 = 120 ft."""
    aldo = {"name": "Aldo", "class": "paladin", "level": 7, "hp": 50, "ac": 2, "mv": 16, "mounted": True,
            "str": 12, "weapons": [weapon("lance", 8, "1d8")]}
    troll = {"name": "Troll", "hd": "6+3", "hp": 30, "ac": 4, "size": "large",
             "weapons": [weapon("claw", None, "1d4")]}
    charge = melee("Troll", charge=True, distance=200, pace=3, dice={"attack": 9, "damage": 6, "str": 5})
    doc = play({"party": [aldo], "orcs": [troll]}, {"Aldo": [charge], "Troll": [NONE, NONE]},
               initiative=PARTY_WINS, referee={("attack", "Troll"): [2]})
    lance = one(doc, "melee", "Aldo")
    assert (lance["tick"], lance["hit"], lance["damage"]) == ([1, 2, 7, 0], True, 6)
    assert _feet(doc, "Aldo") == [((1, 1), 160), ((1, 2), 160)]


def test_c2_20_a_defender_that_already_attacked_this_phase_cannot_respond() -> None:
    """Seed: "if the troll survives, it gets to counterattack before the paladin moves out of range--only if it has
    not yet attacked this phase": the troll clawed Cid (loser, large natural SF 6 -> 4, a miss): no response."""
    doc = _paladin_and_troll([miss_on("Cid")], cid=True)
    assert [(e["target"], when(e)) for e in attacks(doc, "Troll")] == [("Cid", (1, 4))]
    assert one(doc, "melee", "Aldo")["hit"] is True


def test_c2_20_a_defender_that_used_up_its_attacks_cannot_respond() -> None:
    """Seed: "A defender may not respond if it has already attacked within the phase or met its maximum number of
    attacks per round": the troll (1 attack a round) clawed Cid in phase 1 (loser 4); Aldo, idle in phase 1,
    charges in phase 2 (STR d20 5): the lance lands in phase 2's movement portion, no answer."""
    aldo = {"name": "Aldo", "class": "paladin", "level": 7, "hp": 50, "ac": 2, "mv": 16, "mounted": True,
            "str": 12, "weapons": [weapon("lance", 8, "1d8")]}
    troll = {"name": "Troll", "hd": "6+3", "hp": 30, "ac": 4, "size": "large",
             "weapons": [weapon("claw", None, "1d4")]}
    charge = melee("Troll", charge=True, distance=130, pace=3, dice={"attack": 9, "damage": 6, "str": 5})
    doc = play({"party": [aldo, pc("Cid", hp=30)], "orcs": [troll]},
               {"Aldo": [NONE, charge], "Troll": [miss_on("Cid"), NONE]}, initiative=PARTY_WINS)
    assert [(e["target"], when(e)) for e in attacks(doc, "Troll")] == [("Cid", (1, 4))]
    lance = one(doc, "melee", "Aldo")
    assert (lance["tick"], lance["hit"]) == ([1, 2, 7, 0], True)


# -- C2-21: set weapons against a charge ---------------------------------------------------------------------------


@pytest.mark.parametrize(("d20", "hit"), [(13, True), (12, False)])
def test_c2_21_a_troll_poised_to_receive_the_charge_strikes_simultaneously(d20: int, hit: bool) -> None:
    """Seed: "the beast would have been able to simultaneously attack regardless of whether or not the paladin's lance
    killed it if it poised itself to receive the charge": the troll (6 hp) sets against Aldo; the lance's 6 kills it,
    its claw lands on the same tick. Mounted charger AC 2 - 2 = 0 (C2-20): d20 13 >= 13 - 0 hits (1d4 3),
    12 misses."""
    doc = _paladin_and_troll([melee("Aldo", d20, 3, set=True)], troll_hp=6)
    lance, claw = one(doc, "melee", "Aldo"), one(doc, "melee", "Troll")
    assert lance["tick"] == claw["tick"] == [1, 1, 7, 0]
    assert (lance["damage"], claw["hit"]) == (6, hit)
    assert hp(doc, "Aldo") == (47 if hit else 50)
    assert one(doc, "down", "Troll")["tick"] == [1, 1, 7, 0]


def test_c2_21_a_set_spear_doubles_its_damage_dice_and_the_charger_loses_dex() -> None:
    """Seed: "setting the butt of a polearm against an unyielding surface to receive a charging creature (does bonus
    damage if successful)" (spec: double damage dice); C2-20: "The attacker loses AC bonus from Dexterity while
    charging". Kell (AC 5 with DEX 16's -2) charges 50 ft at pace 3 (120 ft a phase): AC 7 while charging; the
    orc's set spear d20 12 >= 19 - 7 = 12 hits (14 needed otherwise); 2d6 6 -> 10 - 6 = 4."""
    kell = pc("Kell", dex=16, str=12)
    spear = weapon("spear", 6, "1d6", set=True)
    doc = play({"party": [kell], "orcs": [orc("Pike", hp=30, weapons=[spear])]},
               {"Kell": [melee("Pike", charge=True, distance=50, pace=3, dice={"attack": 2, "str": 5})],
                "Pike": [melee("Kell", 12, 6, set=True)]}, initiative=PARTY_WINS)
    thrust = one(doc, "melee", "Pike")
    assert (thrust["tick"], thrust["hit"], thrust["damage"]) == ([1, 1, 7, 0], True, 6)
    assert [d["die"] for d in thrust["dice"] if d["purpose"] == "damage"] == ["2d6"]
    assert hp(doc, "Kell") == 4


def test_c2_21_ordinary_closing_gives_a_set_weapon_no_strike_on_arrival() -> None:
    """Seed: "Normal unconcealed closing movement between combatants receives no special readying bonus--the exchange
    of blows takes place as normal in the next phase": Kell walks 40 ft up to the orc's set spear (no charge, no
    pace): no strike in phase 1; Kell swings in phase 2 (winner SF 5 -> 9)."""
    spear = weapon("spear", 6, "1d6", set=True)
    doc = play({"party": [pc("Kell")], "orcs": [orc("Pike", hp=30, weapons=[spear])]},
               {"Kell": [melee("Pike", 2, distance=40)], "Pike": [melee("Kell", 20, 6, set=True), NONE]},
               initiative=PARTY_WINS)
    assert [e for e in attacks(doc, "Pike") if phase_of(e) == (1, 1)] == []
    assert [when(e) for e in attacks(doc, "Kell")] == [(1, 9)]


def _troll_waits_then_aldo_charges(options: dict[str, Any] | None = None,
                                   referee: dict[tuple[str, str], list[int]] | None = None) -> dict[str, Any]:
    """The paladin and the troll again, but Aldo stands still in phase 1 and charges in phase 2; the troll readies its
    claw against him once, in phase 1, and declares nothing more."""
    aldo = {"name": "Aldo", "class": "paladin", "level": 7, "hp": 50, "ac": 2, "mv": 16, "mounted": True,
            "str": 12, "weapons": [weapon("lance", 8, "1d8")]}
    troll = {"name": "Troll", "hd": "6+3", "hp": 30, "ac": 4, "size": "large", "weapons": [weapon("claw", None, "1d4")]}
    charge = melee("Troll", charge=True, distance=130, pace=3, dice={"attack": 9, "damage": 6, "str": 5})
    return play({"party": [aldo], "orcs": [troll]}, {"Aldo": [NONE, charge], "Troll": [melee("Aldo", 13, 3, set=True)]},
                initiative=PARTY_WINS, options=options, referee=referee)


def test_c2_21_a_ready_state_is_maintained_from_phase_to_phase_until_an_attack_is_made() -> None:
    """Seed: "A ready state may be maintained from phase to phase until an attack is made." Phase 1: Aldo does
    nothing, so the troll's readied claw waits (no charge came). Phase 2: the troll declares nothing new: its ready
    state carries on, and Aldo's charge (pace 1 -> 3, STR d20 5 <= 12; 16 x 3 x 10 / 3 = 160 ft >= 130) meets it:
    both strike on contact, phase 2's movement portion [1, 2, 7, 0]. Lance d20 9 + 1 (charge) = 10 >= 14 - 4 = 10:
    6 damage (30 -> 24); claw d20 13 vs THAC0 13 - (AC 2 - 2 mounted charger) = 13: hit, 3 (50 -> 47)."""
    doc = _troll_waits_then_aldo_charges()
    carried = [e for e in events(doc, "declare", "Troll") if e["tick"][:2] == [1, 2]]
    assert len(carried) == 1 and carried[0].get("continuing") is True
    assert "the ready state is maintained until an attack is made (C2-21)" in carried[0]["detail"]
    lance, claw = one(doc, "melee", "Aldo"), one(doc, "melee", "Troll")
    assert lance["tick"] == claw["tick"] == [1, 2, 7, 0]
    assert (lance["damage"], claw["hit"], claw["damage"]) == (6, True, 3)
    assert (hp(doc, "Troll"), hp(doc, "Aldo")) == (24, 47)


def test_c2_21_option_ready_maintained_false_keeps_the_ready_state_one_phase() -> None:
    """With ``ready_maintained: false`` the troll's readiness ends with phase 1; in phase 2 it has nothing left to do,
    so the charge lands first (C2-20) and the unready troll answers after the charger's blow, in the same movement
    portion but a later sub-moment [1, 2, 7, 1]: claw d20 13 (entered by the referee: the answer has no declaration)
    again hits AC 0 for 3."""
    doc = _troll_waits_then_aldo_charges({"ready_maintained": False},
                                         referee={("attack", "Troll"): [13], ("damage", "Troll"): [3]})
    lance, claw = one(doc, "melee", "Aldo"), one(doc, "melee", "Troll")
    assert (lance["tick"], claw["tick"]) == ([1, 2, 7, 0], [1, 2, 7, 1])
    assert "not ready" in claw["why"]


# -- C2-23: half-segment incremental movement, Table 3 -----------------------------------------------------------


@pytest.mark.parametrize(("mv", "squares", "most", "least"), [(12, 4, 1, 0), (21, 7, 2, 1), (36, 12, 2, 2),
                                                              (57, 19, 4, 3)])
def test_c2_23_table_3_squares_per_phase_and_per_half_segment(mv: int, squares: int, most: int, least: int) -> None:
    """Table 3: MV 12: 4 sq./phase, max 1 per half-segment; MV 21: 7, max 2 (least floor(7/6) = 1); MV 36: 12, max 2
    (min 2); MV 57: 19, max 4 (least floor(19/6) = 3). A move of the full phase goes out in 10-ft squares over
    half-segments 1-6, after that half-segment's attacks (sub 1)."""
    doc = play({"party": [pc("Runa", mv=mv)], "orcs": [orc("Orc", hp=30)]},
               {"Runa": [{"move": squares * 10}]}, initiative=PARTY_WINS, options={"incremental_movement": True})
    moves = events(doc, "move", "Runa")
    assert all(e["tick"][:2] == [1, 1] and 1 <= e["tick"][2] <= 6 and e["tick"][3] == 1 for e in moves)
    assert sum(e["feet"] for e in moves) == squares * 10
    per_half_segment: dict[int, int] = {}
    for e in moves:
        per_half_segment[e["tick"][2]] = per_half_segment.get(e["tick"][2], 0) + e["feet"]
    assert max(per_half_segment.values()) <= most * 10
    if least:
        assert sorted(per_half_segment) == [1, 2, 3, 4, 5, 6]
        assert min(per_half_segment.values()) >= least * 10


def test_c2_23_without_the_option_the_whole_move_is_at_the_end_of_the_phase() -> None:
    """Seed: "If precise movements aren't necessary, move figures their full movement during the last half-segment of
    each phase": one 40-ft move in the movement portion (MV 12)."""
    doc = play({"party": [pc("Runa")], "orcs": [orc("Orc", hp=30)]}, {"Runa": [{"move": 40}]}, initiative=PARTY_WINS)
    assert [(e["tick"], e["feet"]) for e in events(doc, "move", "Runa")] == [([1, 1, 7, 1], 40)]
