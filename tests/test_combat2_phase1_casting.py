"""combat2-phase1 (seed 000): casting: P1-05 (CT tracks, Table 1), P1-06, P1-11 (endphase), P1-14; C2-03 (+1 CT),
C2-06 (a blow on the completing half-segment), C2-08, C2-09, C2-10, C2-11, C2-12, C2-13, C2-14 (= P1-18), C2-15
(= P1-19). Bad input: CT too long for the phase.

CT tracks (P1-05): a spell begun in phase k with CT n completes on the n-th active half-segment counted from the
start of phase k: winner odd ones, 6 (k - 1) + 2n - 1; loser even ones, 6 (k - 1) + 2n. "1 round": 19 / 20.
Mage default (combat2_helpers): level-1 wizard, AC 10, 4 hp; an orc (THAC0 19) needs 19 - 10 = 9 to hit her.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat2_helpers import (
    DAGGER,
    NONE,
    ORCS_WIN,
    PARTY_WINS,
    attacks,
    cast,
    events,
    hp,
    init,
    mage,
    melee,
    miss_on,
    one,
    orc,
    pc,
    phase_of,
    play,
    refused,
    spell,
    weapon,
    when,
)

SLEEP = spell("sleep", 1, "VSM", count=3)


def _at(rnd: int, h: int, track: str) -> str:
    if h > 18:
        return f"round {rnd}, endphase, half-segment {h} ({track})"
    return f"round {rnd}, phase {(h - 1) // 6 + 1}, half-segment {h} ({track})"


# -- P1-05: casting-time tracks -------------------------------------------------------------------------------


@pytest.mark.parametrize(("track", "phase", "ct", "h"), [
    ("winner", 1, 1, 1), ("winner", 1, 4, 7), ("winner", 1, 9, 17), ("loser", 1, 1, 2), ("loser", 1, 9, 18),
    ("winner", 2, 1, 7), ("winner", 2, 6, 17), ("loser", 2, 2, 10), ("loser", 2, 6, 18),
    ("winner", 3, 1, 13), ("winner", 3, 3, 17), ("loser", 3, 3, 18)])
def test_p1_05_ct_counts_active_half_segments_of_the_casters_track(track: str, phase: int, ct: int, h: int) -> None:
    """Table 1 CT columns: winner CT 1 -> 1, CT 4 -> 7, CT 9 -> 17; loser CT 1 -> 2, CT 9 -> 18; "Note the second,
    third and fourth columns": begun in phase 2 winner CT 1 -> 7, CT 6 -> 6 + 11 = 17, loser CT 2 -> 6 + 4 = 10,
    CT 6 -> 18; in phase 3 winner CT 1 -> 13, CT 3 -> 12 + 5 = 17, loser CT 3 -> 18."""
    doc = play({"party": [mage("Mina", spell("web", ct))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [NONE] * (phase - 1) + [cast("web", "orcs")]},
               initiative=PARTY_WINS if track == "winner" else ORCS_WIN)
    assert one(doc, "cast-start", "Mina")["tick"] == [1, phase, 0, 1]
    done = one(doc, "cast", "Mina")
    assert (when(done), done["at"]) == ((1, h), _at(1, h, track))


def test_p1_05_why_of_a_cast_shows_the_track_arithmetic() -> None:
    """Winner CT 4: the 4th odd half-segment, 7 (Table 1); `why` names the track, the CT and the half-segment."""
    doc = play({"party": [mage("Mina", spell("web", 4))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("web", "orcs")]}, initiative=PARTY_WINS)
    why = one(doc, "cast", "Mina")["why"]
    for part in ("winner", "CT 4", "half-segment 7", "P1-05"):
        assert part in why, (part, why)


def test_p1_05_why_of_a_cast_start_names_its_phase() -> None:
    """CONTRACT: `why` says how the moment was reached; a spell begun in phase 2 begins "at the start of phase 2"."""
    doc = play({"party": [mage("Mina", spell("web", 1))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [NONE, cast("web", "orcs")]}, initiative=PARTY_WINS)
    assert "phase 2" in one(doc, "cast-start", "Mina")["why"]


@pytest.mark.parametrize(("track", "tick"), [("winner", [1, 4, 1, 0]), ("loser", [1, 4, 2, 0])])
def test_p1_05_one_round_spells_complete_in_the_endphase(track: str, tick: list[int]) -> None:
    """Table 1: "1 round" in the CT winner column at half-segment 19, loser at 20; seed H: "1 round spells are
    finished at this time"."""
    doc = play({"party": [mage("Mina", spell("stinking cloud", "1 round"))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("stinking cloud", "orcs")]}, initiative=PARTY_WINS if track == "winner" else ORCS_WIN)
    done = one(doc, "cast", "Mina")
    assert (done["tick"], done["at"]) == (tick, _at(1, tick[2] + 18, track))


def test_p1_05_a_lower_ct_discharges_faster_even_for_a_loser() -> None:
    """Seed section 1: "one caster can get the drop on the other even if their spells have the same CT, but a lower
    CT would automatically discharge faster": the losing Mina's CT 1 bolt (half-segment 2, 4 damage) kills the
    winning Zed (4 hp) before his CT 2 spell (half-segment 3)."""
    bolt = spell("bolt", 1, "V", damage="4")
    doc = play({"party": [mage("Zed", spell("web", 2))], "orcs": [mage("Mina", bolt)]},
               {"Zed": [cast("web", "orcs")], "Mina": [cast("bolt", "Zed")]}, initiative=PARTY_WINS)
    assert one(doc, "cast", "Mina")["tick"] == [1, 1, 2, 0]
    assert one(doc, "down", "Zed")["tick"] == [1, 1, 2, 0]
    assert events(doc, "cast", "Zed") == []


def test_p1_05_a_spell_occupies_the_phases_until_it_completes() -> None:
    """Seed C: "begin a spell and/or finish a spell ... initiated earlier in the round": a CT 9 spell (winner: 17)
    carries on through phases 2 and 3 (declared as continuing, the plan not consumed); the plan's next item is
    stated in round 2."""
    doc = play({"party": [mage("Mina", spell("web", 9))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("web", "orcs"), NONE]}, initiative=init((3, 7), (3, 7)))
    decls = events(doc, "declare", "Mina")
    assert [(phase_of(e), bool(e.get("continuing"))) for e in decls] == [
        ((1, 1), False), ((1, 2), True), ((1, 3), True), ((2, 1), False)]
    assert when(one(doc, "cast", "Mina")) == (1, 17)


@pytest.mark.parametrize(("plan", "phase", "h"), [
    ([NONE, cast("web7", "orcs")], 2, 13),  # phase 2: CT at most 6; round 2 phase 1, winner CT 7: 2 x 7 - 1 = 13
    ([NONE, NONE, cast("web4", "orcs")], 3, 7),  # phase 3: CT at most 3; round 2, winner CT 4: 2 x 4 - 1 = 7
    ([NONE, cast("cloud", "orcs")], 2, 19),  # "1 round" begins in phase 1 only; round 2's endphase, winner: 19
])
def test_p1_05_a_ct_too_long_for_the_phase_waits_for_the_next_round(plan: list[dict[str, Any]], phase: int,
                                                                      h: int) -> None:
    """Seed G: "If the spell is begun during the second phase, its maximum CT cannot exceed 6, or 3 for the third
    phase. The caster needs to plan accordingly"; CONTRACT.md: a forbidden action waits for the first moment that
    allows it, shown by a `delay`, without consuming the plan again: the spell begins in round 2's phase 1 (Mina
    wins both rounds, 3 < 7) and completes on the winner's odd half-segments counted from there (P1-05)."""
    spells = (spell("web7", 7), spell("web4", 4), spell("cloud", "1 round"))
    doc = play({"party": [mage("Mina", *spells)], "orcs": [orc("Orc", hp=30)]}, {"Mina": plan},
               initiative=init((3, 7), (3, 7)))
    assert (1, phase) in [phase_of(e) for e in events(doc, "delay", "Mina")]
    assert phase_of(one(doc, "cast-start", "Mina")) == (2, 1)
    assert when(one(doc, "cast", "Mina")) == (2, h)


def test_p1_05_the_longest_ct_a_phase_allows_is_accepted() -> None:
    """Seed G: CT 6 in phase 2 and CT 3 in phase 3 are allowed (winner: 6 + 11 = 17; 12 + 5 = 17)."""
    doc = play({"party": [mage("Mina", spell("web6", 6)), mage("Zed", spell("web3", 3))],
                "orcs": [orc("Orc", hp=30)]},
               {"Mina": [NONE, cast("web6", "orcs")], "Zed": [NONE, NONE, cast("web3", "orcs")]},
               initiative=PARTY_WINS)
    assert when(one(doc, "cast", "Mina")) == when(one(doc, "cast", "Zed")) == (1, 17)


def test_p1_05_a_ct_too_long_for_the_phase_it_lands_in_waits() -> None:
    """Spec: where the position is not certain from the plan alone, an `impossible` at run time (or, CONTRACT.md,
    a delay to the first moment that allows it): surprised Mina loses phase 1 (C2-27), so her CT 7 spell would
    begin in phase 2 (max 6): it does not begin in round 1."""
    sides = {"party": [mage("Mina", spell("web7", 7))], "orcs": [orc("Orc", hp=30)]}
    plan = {"Mina": [cast("web7", "orcs")]}
    doc = play(sides, plan, initiative=init((3, 7), (3, 7)), surprise={"party": True})
    assert (1, 2) in refused(doc, "Mina")  # (the lost phase 1 may show as a delay too)
    assert [e for e in events(doc, ("cast-start", "cast"), "Mina") if e["round"] == 1] == []


# -- P1-06: the current phase's track --------------------------------------------------------------------------


def test_p1_06_a_spell_of_two_rounds_completes_on_the_last_rounds_track() -> None:
    """Seed G: "The casting of long spells continues according to the CURRENT phase's winner/loser track": a
    2-round spell begun as a winner in round 1 completes in round 2's endphase, where Mina has lost (7 > 3): 20."""
    doc = play({"party": [mage("Mina", spell("long spell", "2 rounds"))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("long spell", "orcs")]}, initiative=init((3, 7), (7, 3)))
    done = one(doc, "cast", "Mina")
    assert (done["tick"], done["at"]) == ([2, 4, 2, 0], "round 2, endphase, half-segment 20 (loser)")


# -- P1-11: the endphase ----------------------------------------------------------------------------------------


def test_p1_11_the_endphase_holds_only_one_round_spells_after_everything_else() -> None:
    """Seed H: "PHASE 4 (ENDPHASE): No movement. Complete all 1 round spells": Brom's phase 3 move and the orc's
    phase 3 swing come first; only Mina's cast is in phase 4, on winner half-segment 19."""
    doc = play({"party": [mage("Mina", spell("cloud", "1 round")), pc("Brom")],
                "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("cloud", "orcs")], "Brom": [NONE, NONE, {"move": 40}],
                "Orc": [NONE, NONE, miss_on("Mina")]}, initiative=PARTY_WINS)
    endphase = [e for e in doc["events"] if e["tick"][0] == 1 and e["tick"][1] == 4]
    assert [(e["kind"], e["actor"], e["tick"]) for e in endphase] == [("cast", "Mina", [1, 4, 1, 0])]
    assert endphase[0]["seq"] > one(doc, "move", "Brom")["seq"] > one(doc, "melee", "Orc")["seq"]


# -- C2-13 / P1-14: the caster takes damage ---------------------------------------------------------------------


def test_p1_14_damage_while_casting_ruins_the_spell_and_no_new_spell_that_round() -> None:
    """Seed A: "If a spell is being cast during the current phase, the spell is ruined if the caster takes damage.
    The caster may then defend and move for the remainder of the round but may not begin a new spell." Mina (winner)
    begins a CT 3 sleep (due on 5); the orc (loser SF 3 -> 3) hits her: d20 9 >= 9, 1d6 2 -> 4 - 2 = 2: ruined on
    3; her phase 2 sleep is refused; in round 2 she casts (CT 3, winner -> 5)."""
    doc = play({"party": [mage("Mina", spell("sleep", 3, count=3))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("sleep", "orcs"), cast("sleep", "orcs"), NONE, cast("sleep", "orcs")],
                "Orc": [melee("Mina", 9, 2)]}, initiative=init((3, 7), (3, 7)), max_rounds=2)
    ruined = one(doc, "spell-ruined", "Mina")
    assert (ruined["tick"], ruined["spell"]) == ([1, 1, 3, 0], "sleep")
    assert ruined["seq"] > one(doc, "melee", "Orc")["seq"]
    assert refused(doc, "Mina")[0] == (1, 2)
    assert [when(e) for e in events(doc, "cast", "Mina")] == [(2, 5)]
    assert hp(doc, "Mina") == 2


@pytest.mark.parametrize(("damage", "felled"), [(2, False), (4, True)])
def test_c2_06_a_blow_on_the_half_segment_a_spell_completes_does_not_stop_it(damage: int, felled: bool) -> None:
    """Seed E: "All actions on the same row are simultaneous and cannot preempt the completion of actions by other
    combatants that half-segment"; "dying ... occur[s] AFTER actions are performed" (C2-06). Mina's CT 2 web (winner:
    the 2nd odd half-segment, 3) and the orc's swing (loser SF 3: 3) share half-segment 3: d20 9 >= 9 hits for 2
    (or her 4 hp); the web still goes off."""
    doc = play({"party": [mage("Mina", spell("web", 2))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("web", "orcs")], "Orc": [melee("Mina", 9, damage)]}, initiative=PARTY_WINS)
    blow = one(doc, "melee", "Orc")
    assert (blow["tick"], blow["hit"]) == ([1, 1, 3, 0], True)
    assert one(doc, "cast", "Mina")["tick"] == [1, 1, 3, 0]
    assert events(doc, ("spell-ruined", "spell-lost"), "Mina") == []
    assert doc["combatants"]["Mina"]["down"] is felled


def test_c2_13_spell_damage_also_ruins_a_spell_being_cast() -> None:
    """Seed A: "the spell is ruined if the caster takes damage" (any damage; G-11): the losing Mina's CT 1 bolt
    (half-segment 2, 1 damage) strikes the winning Zed (4 hp) two half-segments before his CT 3 web (5)."""
    bolt = spell("bolt", 1, "V", damage="1")
    doc = play({"party": [mage("Zed", spell("web", 3))], "orcs": [mage("Mina", bolt)]},
               {"Zed": [cast("web", "orcs")], "Mina": [cast("bolt", "Zed")]}, initiative=PARTY_WINS)
    assert one(doc, "cast", "Mina")["tick"] == [1, 1, 2, 0]
    assert one(doc, "spell-ruined", "Zed")["tick"] == [1, 1, 2, 0]
    assert events(doc, "cast", "Zed") == [] and hp(doc, "Zed") == 3


def test_c2_13_a_ruined_caster_may_still_move_that_round() -> None:
    """Seed A: "The caster may then defend and move for the remainder of the round": an orc archer (short bow SF 7,
    loser band 7-9 -> 5) hits Mina mid-way through a CT 4 spell (winner: 7): d20 9 >= 19 - 10, 1d6 1: ruined on
    5; she moves 40 ft in phase 2's movement portion (MV 12; a missile does not engage her)."""
    bow = weapon("short bow", 7, "1d6", kind="missile")
    doc = play({"party": [mage("Mina", spell("web", 4))], "orcs": [orc("Archer", hp=30, weapons=[bow])]},
               {"Mina": [cast("web", "orcs"), {"move": 40}], "Archer": [{"missile": "Mina", "dice": {"attack": 9,
                                                                                               "damage": 1}}]},
               initiative=PARTY_WINS)
    assert one(doc, "spell-ruined", "Mina")["tick"] == [1, 1, 5, 0]
    move = one(doc, "move", "Mina")
    assert (move["tick"], move["feet"]) == ([1, 2, 7, 1], 40)


@pytest.mark.parametrize(("con_die", "delayed"), [(13, True), (12, False)])
def test_c2_13_hit_before_the_casting_phase_delays_it_on_a_failed_con_check(con_die: int, delayed: bool) -> None:
    """Seed A: "If the caster is hit PRIOR to the phase in which he will begin a spell, the casting phase is not
    forfeited, but will be delayed one extra phase if the caster fails a CON check." The orc hits Mina (idle) in
    phase 1: d20 9 >= 19 - 10, 1 damage. Phase 2: CON 12, d20 13 > 12 fails: a delay, the CT 1 sleep begins in
    phase 3 (winner: 13); d20 12 passes: it completes on 7 (the orc idles in phases 2 and 3)."""
    doc = play({"party": [mage("Mina", SLEEP, con=12)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [NONE, cast("sleep", "orcs", dice={"con": con_die})],
                "Orc": [melee("Mina", 9, 1), NONE, NONE]},
               initiative=PARTY_WINS)
    if delayed:
        assert one(doc, "delay", "Mina")["tick"] == [1, 2, 0, 1]
        assert one(doc, "cast-start", "Mina")["tick"] == [1, 3, 0, 1]
        assert when(one(doc, "cast", "Mina")) == (1, 13)
    else:
        assert events(doc, "delay", "Mina") == []
        assert when(one(doc, "cast", "Mina")) == (1, 7)


# -- C2-08 / C2-12: the caster as a stationary, defenseless target -------------------------------------------


def _orc_swings_at_casting_mina(components: str | None, d20: int) -> dict[str, Any]:
    """Mina, AC 8 with DEX 16's -2 in it, casts a CT 3 web with ``components`` (None: she does not cast) on the
    winner track (due on 5); the losing orc (THAC0 19) swings at her on 3 with ``d20``, 1 damage."""
    web = spell("web", 3, components or "VSM")
    plan = [cast("web", "orcs")] if components else [NONE]
    doc = play({"party": [mage("Mina", web, ac=8, dex=16, hp=20)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": plan, "Orc": [melee("Mina", d20, 1)]}, initiative=PARTY_WINS)
    blow = one(doc, "melee", "Orc")
    assert when(blow) == (1, 3)
    return blow


@pytest.mark.parametrize(("components", "d20", "hit"), [
    ("VSM", 5, True),  # AC 8 + 2 (no DEX) + 4 (defenseless) = 14: 19 - 14 = 5
    ("VSM", 4, False),
    (None, 10, False),  # not casting: AC 8, need 11
    (None, 11, True),
])
def test_c2_08_attacks_on_a_caster_with_somatic_components_are_plus_4(components: str | None, d20: int,
                                                                       hit: bool) -> None:
    """Seed: "STATIONARY, DEFENSELESS TARGET: ... is at +4 to its AC, receives no dexterity bonus ... This category
    includes spellcasters when invoking magicks requiring somatic components"."""
    assert _orc_swings_at_casting_mina(components, d20)["hit"] is hit


@pytest.mark.parametrize(("d20", "hit"), [(8, False), (9, True)])
def test_c2_12_a_caster_without_somatic_component_only_loses_the_dex_bonus(d20: int, hit: bool) -> None:
    """Seed: "receives no dexterity bonus towards AC during casting (he is NOT considered a stationary target,
    though)": a V-only spell: AC 8 + 2 = 10, the orc needs 19 - 10 = 9 (not 5)."""
    assert _orc_swings_at_casting_mina("V", d20)["hit"] is hit


def test_c2_08_a_stationary_defenseless_target_may_be_attacked_each_phase() -> None:
    """Seed: a defenseless target "may be attacked each phase": the orc (1 attack a round) swings at Mina in all
    three phases while she casts a CT 9 spell (loser SF 3: 3, 9, 15; d20 2 misses even at AC 14, need 5)."""
    doc = play({"party": [mage("Mina", spell("web", 9), hp=20)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("web", "orcs")], "Orc": [miss_on("Mina")] * 3}, initiative=PARTY_WINS)
    assert [when(e) for e in attacks(doc, "Orc")] == [(1, 3), (1, 9), (1, 15)]
    assert when(one(doc, "cast", "Mina")) == (1, 17)


# -- C2-09: one casting a round; casting or attacking ----------------------------------------------------------


def test_c2_09_only_one_successful_casting_per_round() -> None:
    """Seed A: "Only one successful casting per round is possible": a CT 1 sleep on 1; another in phase 2 is
    refused (impossible, or delayed to the next round) and nothing more is cast in round 1."""
    doc = play({"party": [mage("Mina", SLEEP)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("sleep", "orcs"), cast("sleep", "orcs")]}, initiative=init((3, 7), (3, 7)))
    assert [when(e) for e in events(doc, "cast", "Mina") if e["round"] == 1] == [(1, 1)]
    assert refused(doc, "Mina")[0] == (1, 2)


@pytest.mark.parametrize("attack_first", [True, False])
def test_c2_09_a_caster_who_attacks_cannot_cast_that_round_and_vice_versa(attack_first: bool) -> None:
    """Seed A: "If a caster physically attacks an opponent, he cannot cast in the same round and vice-versa":
    Mina's dagger (a miss, d20 2) in phase 1 forbids her phase 2 spell; her phase 1 spell forbids the dagger."""
    first, second = (miss_on("Orc"), cast("sleep", "orcs")) if attack_first else (cast("sleep", "orcs"),
                                                                                    miss_on("Orc"))
    doc = play({"party": [mage("Mina", SLEEP, weapons=[DAGGER])], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [first, second]}, initiative=init((3, 7), (3, 7)))
    assert refused(doc, "Mina")[0] == (1, 2)
    assert len([e for e in events(doc, ("cast", "melee"), "Mina") if e["round"] == 1]) == 1


# -- C2-10: touch spells -----------------------------------------------------------------------------------------

GRASP = spell("shocking grasp", 1, "VS", damage="1d8+3", touch=True)


def test_c2_10_the_touch_comes_in_a_later_phases_attack_portion() -> None:
    """Seed A: "The actual touch may be attempted during the attack portion of the next phase or later"; spec: at
    the SF 1 band (winner: 6 + 1 = 7), damage the spell's: d20 14 >= 20 - 6 = 14, 1d8 2 + 3 = 5 = the orc's 5 hp."""
    doc = play({"party": [mage("Mina", GRASP)], "orcs": [orc("Orc")]},
               {"Mina": [cast("shocking grasp"), melee("Orc", 14, 2, touch="shocking grasp")]},
               initiative=PARTY_WINS)
    assert when(one(doc, "cast", "Mina")) == (1, 1)
    touch = one(doc, "melee", "Mina")
    assert (touch["tick"], touch["hit"], touch["damage"]) == ([1, 2, 1, 0], True, 5)
    assert doc["winner"] == "party"


def test_c2_10_a_touch_in_a_later_round_is_that_rounds_attack_no_casting() -> None:
    """Seed A: "If the touch attack occurs in a subsequent round, however, it counts as the attack for the round
    (i.e. no casting ...)": the touch in round 2 phase 1 (winner SF 1 band: 1), then a sleep in phase 2 is
    refused."""
    doc = play({"party": [mage("Mina", GRASP, SLEEP)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("shocking grasp"), NONE, NONE, melee("Orc", 14, 2, touch="shocking grasp"),
                         cast("sleep", "orcs")]}, initiative=init((3, 7), (3, 7)), max_rounds=2)
    touch = one(doc, "melee", "Mina")
    assert (when(touch), touch["damage"]) == ((2, 1), 5)
    assert refused(doc, "Mina")[0] == (2, 2)
    assert hp(doc, "Orc") == 25


def test_c2_10_a_touch_in_a_later_round_leaves_no_further_attack_with_one_a_round() -> None:
    """Seed A: "it counts as the attack for the round (i.e. no casting, no further attacks unless normally allowed
    more than one physical attack)": after the round-2 touch, Mina's dagger in phase 2 (1 attack a round) is
    refused."""
    doc = play({"party": [mage("Mina", GRASP, weapons=[DAGGER])], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("shocking grasp"), NONE, NONE, melee("Orc", 14, 2, touch="shocking grasp"),
                         miss_on("Orc")]}, initiative=init((3, 7), (3, 7)), max_rounds=2)
    assert [when(e) for e in attacks(doc, "Mina") if e["round"] == 2] == [(2, 1)]
    assert refused(doc, "Mina")[0] == (2, 2)


# -- C2-11: material components -------------------------------------------------------------------------------


@pytest.mark.parametrize(("ready", "second", "h_round_2"), [(True, "web", 7), (False, "web", 1), (True, "shout", 1)])
def test_c2_11_readying_components_after_a_spell_with_m(ready: bool, second: str, h_round_2: int) -> None:
    """Seed A: "Material components must be in-hand at the beginning of a casting phase, or else one phase must be
    spent readying them"; RULES C2-11 Decision (option ready_components): after sleep (M), the next M spell (web)
    spends round 2's phase 1 readying (a delay) and completes on 6 + 1 = 7; without the option, or for a spell
    without M (shout, V), on 1."""
    spells = (spell("sleep", 1, "VSM"), spell("web", 1, "VSM"), spell("shout", 1, "V"))
    doc = play({"party": [mage("Mina", *spells)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("sleep", "orcs"), NONE, NONE, cast(second, "orcs")], "Orc": [NONE] * 5},
               initiative=init((3, 7), (3, 7)), options={"ready_components": ready})
    done = one(doc, "cast", "Mina", spell=second)
    assert when(done) == (2, h_round_2)
    if h_round_2 == 7:
        assert one(doc, "delay", "Mina")["tick"] == [2, 1, 0, 1]
    else:
        assert events(doc, "delay", "Mina") == []


# -- C2-03 (P1-15): repositioning before a spell ---------------------------------------------------------------


def test_c2_03_repositioning_before_a_spell_adds_1_to_ct() -> None:
    """Seed A: "the caster may move a step or two (max. 10') but must then add 1 to CT": CT 2 + 1 = 3 -> the 3rd
    odd half-segment, 5 (3 without)."""
    doc = play({"party": [mage("Mina", spell("web", 2))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("web", "orcs", reposition=True)]}, initiative=PARTY_WINS)
    assert when(one(doc, "cast", "Mina")) == (1, 5)


# -- C2-14 (P1-18): holding a spell -----------------------------------------------------------------------------


@pytest.mark.parametrize(("track", "ct", "hold", "h"), [("winner", 2, 2, 7), ("loser", 1, 3, 8)])
def test_c2_14_holding_adds_active_half_segments(track: str, ct: int, hold: int, h: int) -> None:
    """Seed A: "effectively increasing the CT by one or more before releasing the magic": winner CT 2 + 2 = the
    4th odd half-segment, 7; loser CT 1 + 3 = the 4th even, 8."""
    doc = play({"party": [mage("Mina", spell("web", ct))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("web", "orcs", hold=hold)]}, initiative=PARTY_WINS if track == "winner" else ORCS_WIN)
    done = one(doc, "cast", "Mina")
    assert (when(done), done["at"]) == ((1, h), _at(1, h, track))


@pytest.mark.parametrize(("round_2", "tick", "track"), [((3, 7), [2, 1, 1, 0], "winner"),
                                                        ((7, 3), [2, 1, 2, 0], "loser")])
def test_c2_14_held_past_half_segment_18_it_goes_off_next_round_as_its_casting(
        round_2: tuple[int, int], tick: list[int], track: str) -> None:
    """Seed A: "may increase the effective casting time to over 10, which puts the balance into the next round. If
    the spell is held into the next round, it counts as that round's casting". Winner CT 9 + hold 2 = 11 units: odd
    half-segments 1..17 give 9, the endphase the round's 10th (P1-03, P1-05: ten units a round); the balance past
    10, 1 unit, is round 2's first on that round's track (P1-06): winner half-segment 1, loser 2 (issue 37: it used
    to skip the endphase's unit and land at 3 or 4). A sleep in round 2 phase 2 is then refused."""
    doc = play({"party": [mage("Mina", spell("cone", 9), SLEEP)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("cone", "orcs", hold=2), cast("sleep", "orcs")]},
               initiative=init((3, 7), round_2, (3, 7)))
    done = one(doc, "cast", "Mina", spell="cone")
    assert (done["tick"], done["at"]) == (tick, _at(2, tick[2], track))
    assert refused(doc, "Mina")[0] == (2, 2)
    assert [e for e in events(doc, "cast", "Mina", spell="sleep") if e["round"] == 2] == []


def test_c2_14_a_hit_while_holding_ruins_the_spell() -> None:
    """Seed A: "If the caster takes a hit while holding a spell, the spell is still ruined": CT 1 + hold 6 = the 7th
    odd half-segment, 13; the orc (loser, phase 2, SF 3 -> 6 + 3 = 9) hits: d20 9 >= 19 - 10, 1 damage."""
    doc = play({"party": [mage("Mina", spell("web", 1))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("web", "orcs", hold=6)], "Orc": [NONE, melee("Mina", 9, 1)]}, initiative=PARTY_WINS)
    assert one(doc, "spell-ruined", "Mina")["tick"] == [1, 2, 3, 0]
    assert events(doc, "cast", "Mina") == []


def test_p1_06_a_held_spell_finishes_on_the_new_rounds_track() -> None:
    """Seed G: "beginning a spell on the winner track does not guarantee casting it as a winner": Mina begins a CT 9
    spell held 3 as a winner (odd 1..17: 9 units, the endphase the round's 10th), loses round 2 (7 > 3): the 11th
    and 12th units fall on loser half-segments 2 and 4 of round 2."""
    doc = play({"party": [mage("Mina", spell("cone", 9))], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("cone", "orcs", hold=3)]}, initiative=init((3, 7), (7, 3)))
    done = one(doc, "cast", "Mina")
    assert (done["tick"], done["at"]) == ([2, 1, 4, 0], "round 2, phase 1, half-segment 4 (loser)")


# -- C2-15 (P1-19): psionics ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("track", "phase", "h"), [("winner", 1, 1), ("loser", 2, 8)])
def test_c2_15_a_psionic_power_is_casting_with_ct_1(track: str, phase: int, h: int) -> None:
    """Seed B: "Consider psionic actions as spellcasting with a CT of 1 unless otherwise specified": winner phase 1
    -> 1; loser phase 2 -> 6 + 2 = 8."""
    power = {"name": "mind thrust", "psionic": True}
    doc = play({"party": [mage("Mina", power)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [NONE] * (phase - 1) + [cast("mind thrust", "Orc")]},
               initiative=PARTY_WINS if track == "winner" else ORCS_WIN)
    assert when(one(doc, "cast", "Mina")) == (1, h)
    assert attacks(doc, "Mina") == []


def test_c2_15_a_psionic_power_with_its_own_ct_uses_it() -> None:
    """Seed B: "with a CT of 1 unless otherwise specified": a power given CT 3 completes on the 3rd odd half-segment,
    5 (winner)."""
    power = {"name": "ego whip", "psionic": True, "ct": 3}
    doc = play({"party": [mage("Mina", power)], "orcs": [orc("Orc", hp=30)]},
               {"Mina": [cast("ego whip", "Orc")]}, initiative=PARTY_WINS)
    assert when(one(doc, "cast", "Mina")) == (1, 5)
