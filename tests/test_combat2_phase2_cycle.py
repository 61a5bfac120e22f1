"""combat2-phase2 (seed 000 section 3): the endless cycle of phases A, B, C (P2-01), initiative at every A (P2-02),
one action a phase (P2-03), and what Phase System I lends it (P2-10: Table 4's bands, surprise, simultaneity).

Table 4 (= Table 1 per phase): winner SF <2 -> half-segment 1, 2-3 -> 2, 4-6 -> 3, 7-9 -> 4, 10+ -> 5; loser one
later (10+ -> 6); half-segments are numbered 1-6 in every phase. Level-1 fighter THAC0 20 vs orc AC 6: 14;
orc THAC0 19 vs fighter AC 5: 14.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_run import affray_here
from combat2_helpers import LONG_SWORD, NONE, encounter, events, melee, one, orc, pc, weapon
from combat2_phase2_helpers import attack_periods, cycles, delay_periods, hs_at, party_wins, play2

# -- P2-01: no rounds, phases A B C -------------------------------------------------------------------------------


def _three_cycles() -> dict[str, Any]:
    """Brom (3 attacks: one every phase, Table 6) swings at a 60-hp orc for three cycles (nine phases)."""
    return play2({"party": [pc("Brom", attacks=3)], "orcs": [orc("Orc", hp=60)]},
                 {"Brom": [melee("Orc", 2)] * 12}, initiative=party_wins(3), max_rounds=3)


def test_p2_01_round_is_null_and_ticks_are_cycle_phase_slot_sub() -> None:
    """Seed: "The phase sequence for System II is pared down to a continuous cycle of 3 identical phases with letter
    designations A, B, and C"; spec: `round` null, tick (cycle, phase 1-3, slot, sub)."""
    doc = _three_cycles()
    assert all(e["round"] is None for e in doc["events"])
    assert all(len(e["tick"]) == 4 for e in doc["events"])
    assert sorted({(e["tick"][0], e["tick"][1]) for e in events(doc, "melee", "Brom")}) == [
        (c, p) for c in (1, 2, 3) for p in (1, 2, 3)]


def test_p2_01_at_texts_name_cycle_and_phase_letter() -> None:
    """Spec "Clock": "cycle 1, surprise", "cycle c, initiative", "cycle c, phase B, stating intentions", "cycle c,
    phase B, half-segment 3 (winner)" (long sword SF 5, winner band 4-6: 3), "cycle c, phase B, movement"."""
    doc = play2({"party": [pc("Brom", attacks=3), pc("Cole")], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [melee("Orc", 2)] * 3, "Cole": [NONE, {"move": 40}]}, initiative=party_wins(1),
                max_rounds=1)
    assert one(doc, "surprise")["at"] == "cycle 1, surprise"
    assert one(doc, "initiative")["at"] == "cycle 1, initiative"
    assert [e["at"] for e in events(doc, "declare", "Brom")] == [
        f"cycle 1, phase {x}, stating intentions" for x in "ABC"]
    assert [e["at"] for e in events(doc, "melee", "Brom")] == [hs_at(1, p, 3, "winner") for p in (1, 2, 3)]
    move = one(doc, "move", "Cole")
    assert (move["tick"], move["at"]) == ([1, 2, 7, 1], "cycle 1, phase B, movement")


def test_p2_01_max_rounds_counts_cycles() -> None:
    """Spec: `--max-rounds N` counts cycles: with 2, the fight stops after C of cycle 2 (six swings, no cycle 3)."""
    doc = play2({"party": [pc("Brom", attacks=3)], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [melee("Orc", 2)] * 12}, initiative=party_wins(2), max_rounds=2)
    assert attack_periods(doc, "Brom") == [1, 2, 3, 4, 5, 6]
    assert max(e["tick"][0] for e in doc["events"]) == 2


def test_p2_01_movement_spills_over_from_c_into_the_next_a() -> None:
    """Seed: "Actions such as movement and casting may 'spill over' into the next phase--and those continuing beyond
    the end of phase C are picked up in the next phase A". Brom closes 80 ft from C (MV 12: 40 ft a phase): 40 ft
    in C's movement, 40 in A2's, and swings in B2 (winner, SF 5: half-segment 3)."""
    doc = play2({"party": [pc("Brom")], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [NONE, NONE, melee("Orc", 2, distance=80)]}, initiative=party_wins(2), max_rounds=2)
    assert [(e["tick"], e["feet"]) for e in events(doc, "move", "Brom")] == [([1, 3, 7, 1], 40),
                                                                            ([2, 1, 7, 1], 40)]
    swing = one(doc, "melee", "Brom")
    assert (swing["tick"], swing["at"]) == ([2, 2, 3, 0], hs_at(2, 2, 3, "winner"))


def test_p2_01_cli_max_rounds_counts_cycles_and_round_is_null(tmp_path: Path) -> None:
    """CONTRACT `affray run FILE --ruleset combat2-phase2 --max-rounds 1 --json`: spec "`--max-rounds N` counts
    cycles": Brom's three swings (3 attacks: every phase) in A, B, C of cycle 1 and nothing of cycle 2; `round`
    null in the JSON."""
    path = tmp_path / "p2.json"
    path.write_text(encounter({"party": [pc("Brom", attacks=3)], "orcs": [orc("Orc", hp=60)]},
                              {"Brom": [melee("Orc", 2)] * 6}, initiative=party_wins(2)))
    done = affray_here("run", path, "--ruleset", "combat2-phase2", "--max-rounds", "1", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert attack_periods(doc, "Brom") == [1, 2, 3]
    assert {e["tick"][0] for e in doc["events"]} == {1}
    assert all(e["round"] is None for e in doc["events"])


@pytest.mark.parametrize("phase", [2, 3])
@pytest.mark.parametrize(("sf", "winner_s"), [(1, 1), (3, 2), (4, 3), (6, 3), (7, 4), (9, 4), (10, 5), (12, 5)])
@pytest.mark.parametrize("track", ["winner", "loser"])
def test_p2_10_table_4_bands_in_every_phase(phase: int, sf: int, winner_s: int, track: str) -> None:
    """Table 4: the same SF bands in A, B and C, half-segments numbered 1-6 in each; loser one later (P1-04). The
    attack's `why` shows the arithmetic: the SF and the half-segment."""
    s = winner_s if track == "winner" else winner_s + 1
    doc = play2({"party": [pc("Brom", weapons=[weapon("blade", sf)])], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [NONE] * (phase - 1) + [melee("Orc", 2)]},
                initiative=party_wins(1) if track == "winner" else cycles((7, 3)), max_rounds=1)
    got = one(doc, "melee", "Brom")
    assert (got["tick"], got["at"]) == ([1, phase, s, 0], hs_at(1, phase, s, track))
    assert f"SF {sf}" in got["why"] and f"half-segment {s}" in got["why"], got["why"]


# -- P2-02: initiative at every A ------------------------------------------------------------------------------


def test_p2_02_initiative_is_rolled_at_every_a_and_only_there() -> None:
    """Seed: "Roll for initiative at the beginning of each A phase. Initiative determinations remain in effect
    through the end of phase C." One initiative event a cycle at (c, 0, 1, 0), the file's d10s by cycle."""
    rolls = cycles((3, 7), (8, 2), (5, 6))
    doc = play2({"party": [pc("Brom", attacks=3)], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [melee("Orc", 2)] * 12}, initiative=rolls, max_rounds=3)
    inits = events(doc, "initiative")
    assert [(e["tick"], e["at"]) for e in inits] == [([c, 0, 1, 0], f"cycle {c}, initiative") for c in (1, 2, 3)]
    assert [e["results"] for e in inits] == [rolls[1], rolls[2], rolls[3]]


def test_p2_02_the_track_holds_from_a_through_c() -> None:
    """P2-02: Brom (3 attacks: every phase; long sword SF 5) wins cycle 1 (3 < 7): winner band 4-6 -> 3 in A, B
    and C; loses cycle 2 (8 > 2): loser 4 in A2, B2, C2."""
    doc = play2({"party": [pc("Brom", attacks=3)], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [melee("Orc", 2)] * 12}, initiative=cycles((3, 7), (8, 2)), max_rounds=2)
    assert [(e["tick"], e["at"]) for e in events(doc, "melee", "Brom")] == [
        ([c, p, s, 0], hs_at(c, p, s, track)) for c, s, track in ((1, 3, "winner"), (2, 4, "loser"))
        for p in (1, 2, 3)]


def test_p2_02_an_attack_sequence_begun_as_winner_ends_as_loser() -> None:
    """Seed: "the occasional problem will arise of a combatant gaining his first attack as an initiative winner
    and the second as a loser if it occurs during or after the next A phase." A 13th-level fighter (2 attacks:
    attack, attack, delay) begins in C as a winner (3 < 7; SF 5 -> 3) and makes the second attack in A of cycle 2
    as a loser (8 > 2; SF 5 -> 4); B2 is the delay. d20 2 vs THAC0 8 - AC -10 = 18 misses."""
    doc = play2({"party": [pc("Brom", level=13)], "orcs": [orc("Orc", hp=60, ac=-10)]},
                {"Brom": [NONE, NONE, *[melee("Orc", 2)] * 6]}, initiative=cycles((3, 7), (8, 2)), max_rounds=2)
    swings = events(doc, "melee", "Brom")
    assert [(e["tick"], e["at"]) for e in swings][:2] == [([1, 3, 3, 0], hs_at(1, 3, 3, "winner")),
                                                         ([2, 1, 4, 0], hs_at(2, 1, 4, "loser"))]
    assert delay_periods(doc, "Brom")[:1] == [5]


def test_p2_02_dex_moves_a_combatant_between_tracks_at_each_a() -> None:
    """P2-02 with P1-02: Brom's DEX 17 (+2). Cycle 1: party 5, orcs 4: 5 - 2 = 3 < 4: winner (SF 5 -> 3); cycle
    2: party 6: 6 - 2 = 4, not below 4: loser (-> 4). Brom has 3 attacks (one every phase)."""
    doc = play2({"party": [pc("Brom", attacks=3, dex=17)], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [melee("Orc", 2)] * 6}, initiative=cycles((5, 4), (6, 4)), max_rounds=2)
    assert [e["tracks"]["Brom"] for e in events(doc, "initiative")] == ["winner", "loser"]
    assert [e["tick"][2] for e in events(doc, "melee", "Brom")] == [3, 3, 3, 4, 4, 4]


def test_p2_02_losers_state_intentions_first_in_every_phase() -> None:
    """Table 4's *: "losing side must state intentions before winner", in each of A, B, C (P1-08): the orc's
    declaration precedes Brom's in every phase of cycle 1 (party wins 3 < 7)."""
    doc = play2({"party": [pc("Brom")], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [NONE] * 3, "Orc": [NONE] * 3}, initiative=party_wins(1), max_rounds=1)
    for p in (1, 2, 3):
        order = [e["actor"] for e in events(doc, "declare") if e["tick"][:2] == [1, p]]
        assert order == ["Orc", "Brom"], (p, order)


# -- P2-03: one action a phase ------------------------------------------------------------------------------------


def test_p2_03_each_phase_one_of_move_attack_or_misc() -> None:
    """Seed: "each phase allows a combatant to attack, move, cast, or perform a miscellaneous action." Brom (3
    attacks: no schedule delay) moves 40 ft in A (no attack), swings in B, surveys in C (no attack), swings in
    A2: swings in periods 2 and 4 only; the move and the misc in the movement portions of A and C."""
    doc = play2({"party": [pc("Brom", attacks=3)], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [{"move": 40}, melee("Orc", 2), {"misc": "survey the battle"}, melee("Orc", 2)]},
                initiative=party_wins(2), max_rounds=2)
    assert attack_periods(doc, "Brom") == [2, 4]
    assert one(doc, "move", "Brom")["tick"] == [1, 1, 7, 1]
    assert one(doc, "misc", "Brom")["tick"] == [1, 3, 7, 1]


# -- P2-10: Phase System I's rules hold -----------------------------------------------------------------------------


def test_p2_10_surprise_loses_phase_a_of_cycle_1() -> None:
    """C2-27 (P2-10): the surprised orc loses one full phase (A): a delay at (1, 1, 0, 0); its swing comes in B
    (loser, short sword SF 3 -> 3): d20 2 misses."""
    doc = play2({"party": [pc("Brom")], "orcs": [orc("Orc", hp=60)]},
                {"Brom": [NONE] * 3, "Orc": [melee("Brom", 2)]}, initiative=party_wins(1), max_rounds=1,
                surprise={"orcs": True})
    assert one(doc, "delay", "Orc")["tick"] == [1, 1, 0, 0]
    assert one(doc, "melee", "Orc")["tick"] == [1, 2, 3, 0]


def test_p2_10_same_half_segment_is_simultaneous() -> None:
    """C2-06 (P2-10): in C Brom (winner, long sword SF 5 -> 3) and the orc (loser, short sword SF 3 -> 3) strike on
    the same half-segment: d20 15 and 14 both hit (>= 14); 8 >= 5 orc hp, 6 >= 6 Brom hp: both fall at (1, 3, 3, 0)."""
    doc = play2({"party": [pc("Brom", hp=6)], "orcs": [orc("Orc")]},
                {"Brom": [NONE, NONE, melee("Orc", 15, 8)], "Orc": [NONE, NONE, melee("Brom", 14, 6)]},
                initiative=party_wins(1), max_rounds=1)
    assert one(doc, "down", "Brom")["tick"] == one(doc, "down", "Orc")["tick"] == [1, 3, 3, 0]


def test_p2_10_an_earlier_half_segment_preempts_the_attack() -> None:
    """P1-09 (P2-10): "Killing an opponent on a half-segment prior to the opponent's attack preempts the attack":
    in B Brom (winner, SF 5 -> 3) kills the orc (5 hp: d20 15 hits, 1d8 8), whose long sword (loser SF 5 -> 4)
    never lands."""
    doc = play2({"party": [pc("Brom")], "orcs": [orc("Orc", weapons=[LONG_SWORD])]},
                {"Brom": [NONE, melee("Orc", 15, 8)], "Orc": [NONE, melee("Brom", 15, 8)]},
                initiative=party_wins(1), max_rounds=1)
    assert one(doc, "down", "Orc")["tick"] == [1, 2, 3, 0]
    assert events(doc, "melee", "Orc") == []
    assert doc["combatants"]["Brom"]["hp"] == 10


def test_p2_10_morale_rolls_are_keyed_by_cycle() -> None:
    """Spec: `rolls.morale` by cycle; G-07 (P2-10): after the side's first casualty, morale is checked at the next
    cycle's start, 2d10 vs the default 11. Brom (winner, SF 5 -> 3) kills Orc 1 in A (d20 15 >= 14, 1d8 8 >= 5);
    at cycle 2's start the orcs roll the file's 15 > 11: the check fails."""
    doc = play2({"party": [pc("Brom")], "orcs": [orc("Orc 1"), orc("Orc 2", hp=60)]},
                {"Brom": [melee("Orc 1", 15, 8), NONE, NONE, NONE]}, initiative=party_wins(2), max_rounds=2,
                morale={2: {"orcs": 15}})
    check = one(doc, "morale")
    assert check["tick"][:3] == [2, 0, 0] and check["passed"] is False
    assert [d["source"] for d in check.get("dice", ())] == ["file"]
