"""combat2-phase2 (seed 000 section 3, "B. SYSTEM II SPELLCASTING"): P2-04 casting across phases (Table 4's
"C" columns), P2-06 casting delays (Table 5 with option ``caster_delay_by_level``, the seed's 10th-level caster),
and C2-13 disruption across a cycle's end (P2-10). P2-05 spell durations: see test_combat2_phase2_durations.py.

P2-04 worked once: a spell of u units (CT, +1 reposition, + hold) begun in a phase runs 3 units a phase on the
active half-segments of the track of the phase each falls in: it completes in the ((u - 1) // 3 + 1)-th phase of
casting on that phase's v-th active half-segment, v = (u - 1) % 3 + 1: winner 2v - 1 (odd), loser 2v (even).
P2-06: a spell completed in period P; the next may begin from P + 3 (two phases' delay); Table 5 with the option:
level 1-6 P + 3, 7-12 P + 2, 13+ alternately P + 1 and P + 2. Periods: 1-3 cycle 1 A-C, 4-6 cycle 2 A-C.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat2_helpers import DAGGER, NONE, cast, events, mage, melee, one, orc, pc, spell
from combat2_phase2_helpers import cycles, delay_periods, hs_at, orcs_win, party_wins, period, play2

LETTER = {1: "A", 2: "B", 3: "C"}


def _mage_casts(plan: list[dict[str, Any]], *spells: dict[str, Any], initiative: dict[int, dict[str, int]],
                max_rounds: int = 3, options: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    """Mina (party) casts at a 60-hp orc who does nothing."""
    return play2({"party": [mage("Mina", *spells, **kw)], "orcs": [orc("Orc", hp=60)]}, {"Mina": plan},
                 initiative=initiative, max_rounds=max_rounds, options=options)


def _starts(doc: dict[str, Any]) -> list[int]:
    return [period(e) for e in events(doc, "cast-start", "Mina")]


def _casts(doc: dict[str, Any]) -> list[int]:
    return [period(e) for e in events(doc, "cast", "Mina")]


# -- P2-04: a spell begins in any phase and runs on across phases -------------------------------------------------


@pytest.mark.parametrize(("begin", "ct", "track", "done"), [
    (2, 2, "winner", (1, 2, 3)),  # begun in B: units 1-2 in B, winner 2 x 2 - 1 = 3
    (3, 2, "loser", (1, 3, 4)),  # begun in C: CT 2 fits C, loser 2 x 2 = 4
    (1, 4, "winner", (1, 2, 1)),  # A holds units 1-3; unit 4 is B's 1st: winner 1
    (2, 5, "loser", (1, 3, 4)),  # B 1-3, C 4-5: C's 2nd, loser 4
    (2, 7, "winner", (2, 1, 1)),  # B 1-3, C 4-6, unit 7 in A of cycle 2: winner 1
    (3, 9, "winner", (2, 2, 5)),  # C 1-3, A2 4-6, B2 7-9: B2's 3rd, winner 5 (no "max CT 3" in phase C)
])
def test_p2_04_a_spell_begins_in_any_phase_and_runs_three_units_a_phase(begin: int, ct: int, track: str,
                                                                        done: tuple[int, int, int]) -> None:
    """Seed: "casters gain the advantage of being able to start long spells at the beginning of any phase, and
    may continue for the appropriate number of CT segments"; Table 4 marks three active half-segments (C) a phase
    per track. The cast-start at (1, phase, 0, 1); the completion on the phase's track."""
    doc = _mage_casts([NONE] * (begin - 1) + [cast("web", "Orc")], spell("web", ct),
                      initiative=party_wins() if track == "winner" else orcs_win())
    assert one(doc, "cast-start", "Mina")["tick"] == [1, begin, 0, 1]
    c, p, s = done
    got = one(doc, "cast", "Mina")
    assert (got["tick"], got["at"]) == ([c, p, s, 0], hs_at(c, p, s, track))


def test_p2_04_a_losers_third_unit_falls_on_the_sixth_half_segment() -> None:
    """Table 4: the loser's casting column is active on half-segments 2, 4, 6 of every phase; spec: completions on
    (c, p, s, 0) "half-segment s". CT 6 begun in B as a loser: B 1-3, C 4-6: C's 3rd even half-segment, 6:
    (1, 3, 6, 0) "cycle 1, phase C, half-segment 6 (loser)". (C2-12's "losers automatically cast their spells at
    the end of all movement" is for a spell due on "the half-segments corresponding to movement"; the spec does
    not count half-segment 6 as one.)"""
    doc = _mage_casts([NONE, cast("web", "Orc")], spell("web", 6), initiative=orcs_win())
    got = one(doc, "cast", "Mina")
    assert (got["tick"], got["at"]) == ([1, 3, 6, 0], hs_at(1, 3, 6, "loser"))


def test_p2_04_why_of_a_cast_shows_the_arithmetic() -> None:
    """CONTRACT `why`: CT 5 begun in A as a winner: units 1-3 in A, the last 2 in B on B's winner track: half-segment
    2 x 2 - 1 = 3. The why names the CT, the track, the half-segment and the rule."""
    doc = _mage_casts([cast("web", "Orc")], spell("web", 5), initiative=party_wins())
    got = one(doc, "cast", "Mina")
    assert got["tick"] == [1, 2, 3, 0]
    for part in ("CT 5", "winner", "half-segment 3", "P2-04"):
        assert part in got["why"], (part, got["why"])


def test_p2_04_a_spell_occupies_its_phases_without_consuming_the_plan() -> None:
    """P2-04/CONTRACT: a CT 9 spell begun in C occupies C, A2 and B2 (continuing declarations in A2 and B2); the
    plan's next item (a `none`) is stated in C2."""
    doc = _mage_casts([NONE, NONE, cast("web", "Orc"), NONE], spell("web", 9), initiative=party_wins())
    decl = [(period(e), bool(e.get("continuing"))) for e in events(doc, "declare", "Mina")]
    assert decl[2:6] == [(3, False), (4, True), (5, True), (6, False)]


def test_p2_04_reposition_adds_a_unit_across_the_phase_boundary() -> None:
    """C2-03 (P2-10): repositioning before a spell is +1 CT: CT 3 + 1 = 4 units begun in A (winner): A holds 3,
    the 4th falls on B's 1st winner half-segment: 1."""
    doc = _mage_casts([cast("web", "Orc", reposition=True)], spell("web", 3), initiative=party_wins())
    assert one(doc, "cast", "Mina")["tick"] == [1, 2, 1, 0]


def test_p2_04_held_units_run_on_into_the_next_phase() -> None:
    """C2-14 with P2-04 (spec: "Its units (CT, +1 reposition, + hold)"): CT 2 held 3 = 5 units begun in B as a
    loser: B 1-3, C 4-5: C's 2nd even half-segment, 4."""
    doc = _mage_casts([NONE, cast("web", "Orc", hold=3)], spell("web", 2), initiative=orcs_win())
    got = one(doc, "cast", "Mina")
    assert (got["tick"], got["at"]) == ([1, 3, 4, 0], hs_at(1, 3, 4, "loser"))


@pytest.mark.parametrize(("rolls", "track", "slot"), [(((3, 7), (7, 3)), "loser", 4),
                                                     (((7, 3), (3, 7)), "winner", 3)])
def test_p2_04_a_spell_crossing_from_c_into_a_changes_track(rolls: tuple[tuple[int, int], ...], track: str,
                                                             slot: int) -> None:
    """P2-02, seed: "a caster may begin a long spell as a winner and end on the loser schedule". CT 5 begun in C:
    units 1-3 in C on cycle 1's track, 4-5 in A of cycle 2 on the track of the initiative rolled at that A
    (P2-02): the 2nd active half-segment of cycle 2's track: loser 4, winner 3."""
    doc = _mage_casts([NONE, NONE, cast("web", "Orc")], spell("web", 5), initiative=cycles(*rolls))
    got = one(doc, "cast", "Mina")
    assert (got["tick"], got["at"]) == ([2, 1, slot, 0], hs_at(2, 1, slot, track))
    assert track in got["why"], got["why"]


def test_p2_04_one_round_spell_goes_off_at_the_end_of_its_third_phase_after_movement() -> None:
    """Seed: "If a spell has a one round CT (10 seg) it goes off after all other actions (including movement) at
    the end of the third phase of casting." Begun in B: B, C, A of cycle 2: at (2, 1, 8, 0) "cycle 2, phase A, end
    of the phase", after Brom's move in A2's movement portion and the orc's blow in A2."""
    doc = play2({"party": [mage("Mina", spell("cloud", "1 round")), pc("Brom")], "orcs": [orc("Orc", hp=60)]},
                {"Mina": [NONE, cast("cloud", "Orc")], "Brom": [NONE, NONE, NONE, {"move": 40}],
                 "Orc": [NONE, NONE, NONE, melee("Brom", 2)]}, initiative=party_wins(2), max_rounds=2)
    got = one(doc, "cast", "Mina")
    assert (got["tick"], got["at"]) == ([2, 1, 8, 0], "cycle 2, phase A, end of the phase")
    move, blow = one(doc, "move", "Brom"), one(doc, "melee", "Orc")
    assert move["tick"][:3] == [2, 1, 7] and blow["tick"][:2] == [2, 1]
    assert got["seq"] > move["seq"] > blow["seq"]
    assert "P2-04" in got["why"], got["why"]


def test_p2_04_one_round_spell_begun_in_a_goes_off_at_the_end_of_c() -> None:
    """Seed: the end of its third phase of casting: begun in A, it goes off at the end of C (1, 3, 8, 0)."""
    doc = _mage_casts([cast("cloud", "Orc")], spell("cloud", "1 round"), initiative=party_wins())
    got = one(doc, "cast", "Mina")
    assert (got["tick"], got["at"]) == ([1, 3, 8, 0], "cycle 1, phase C, end of the phase")


def test_p2_04_a_two_round_spell_goes_off_at_the_end_of_its_sixth_phase() -> None:
    """Spec: "N rounds: end of the 3N-th phase" (a round is three phases, P2-01): begun in B, phases B, C, A2,
    B2, C2, A3: at (3, 1, 8, 0)."""
    doc = _mage_casts([NONE, cast("long", "Orc")], spell("long", "2 rounds"), initiative=party_wins())
    assert one(doc, "cast", "Mina")["tick"] == [3, 1, 8, 0]


# -- P2-06: casting delay -----------------------------------------------------------------------------------------


def test_p2_06_after_a_spell_the_caster_waits_two_phases() -> None:
    """Seed: "Upon completion of a spell, the caster must wait two phases before casting again". CT 1 spell cast in
    A (period 1, winner half-segment 1); the next declared in B waits B and C (forced delays, P2-06) and begins
    in A of cycle 2: cast-start (2, 1, 0, 1), cast (2, 1, 1, 0)."""
    doc = _mage_casts([cast("bolt", "Orc"), cast("bolt", "Orc")], spell("bolt", 1, "V", count=2),
                      initiative=party_wins(), max_rounds=2)
    assert _casts(doc) == [1, 4]
    assert one(doc, "cast-start", "Mina", tick=[2, 1, 0, 1])
    assert delay_periods(doc, "Mina") == [2, 3]
    for d in events(doc, "delay", "Mina"):
        assert d["tick"][2:] == [0, 1] and "P2-06" in d["why"], d


def _seed_example(option: bool, track2: str) -> dict[str, Any]:
    """Seed (Table 5 example): "a 10th level caster begins a CT 5 spell on phase C. Three of its casting segments
    occur in C, but it is not completed until A." Then the next spell (CT 1) is declared in B."""
    rolls = ((3, 7), (3, 7) if track2 == "winner" else (7, 3), (3, 7))
    return _mage_casts([NONE, NONE, cast("web", "Orc"), cast("bolt", "Orc"), NONE, NONE],
                       spell("web", 5), spell("bolt", 1, "V"), level=10, initiative=cycles(*rolls),
                       options={"caster_delay_by_level": option})


@pytest.mark.parametrize(("track2", "slot"), [("winner", 3), ("loser", 4)])
def test_p2_06_seed_example_tenth_level_with_caster_delay_by_level(track2: str, slot: int) -> None:
    """Seed: "... it is not completed until A. The caster delays only during phase B (being 10th level), then
    can begin casting again on phase C." CT 5 in C: units 4-5 in A of cycle 2, its 2nd active half-segment
    (winner 3, loser 4, P2-04). Table 5 7-12: delay 1 phase: B2 (period 5) a forced delay; the bolt begins in
    C2: cast-start (2, 3, 0, 1)."""
    doc = _seed_example(True, track2)
    web = one(doc, "cast", "Mina", spell="web")
    assert (web["tick"], web["at"]) == ([2, 1, slot, 0], hs_at(2, 1, slot, track2))
    assert delay_periods(doc, "Mina") == [5]
    assert _starts(doc) == [3, 6]
    assert one(doc, "cast-start", "Mina", spell="bolt")["tick"] == [2, 3, 0, 1]


def test_p2_06_seed_example_tenth_level_without_the_option() -> None:
    """The same without the optional rule: "the caster must wait two phases" at every level (P2-06): delays in B2
    and C2 (periods 5, 6); the bolt begins in A of cycle 3 (3, 1, 0, 1)."""
    doc = _seed_example(False, "winner")
    assert one(doc, "cast", "Mina", spell="web")["tick"] == [2, 1, 3, 0]
    assert delay_periods(doc, "Mina") == [5, 6]
    assert one(doc, "cast-start", "Mina", spell="bolt")["tick"] == [3, 1, 0, 1]


@pytest.mark.parametrize(("level", "option", "casts", "delays"), [
    (5, True, [1, 4], [2, 3, 5, 6]),  # Table 5 1-6: cast spell, delay 2 phases
    (5, False, [1, 4], [2, 3, 5, 6]),
    (10, True, [1, 3, 5], [2, 4, 6]),  # 7-12: cast spell, delay 1 phase
    (10, False, [1, 4], [2, 3, 5, 6]),
    (13, True, [1, 2, 4, 5], [3, 6]),  # 13+: cast spell, cast spell, delay 1 phase
    (13, False, [1, 4], [2, 3, 5, 6]),
])
def test_p2_06_table_5_caster_delay_schedule(level: int, option: bool, casts: list[int],
                                             delays: list[int]) -> None:
    """Table 5 (option caster_delay_by_level) with CT 1 spells declared every phase for two cycles (periods 1-6):
    each completes in the phase it begins (winner half-segment 1); without the option always two phases' delay."""
    doc = _mage_casts([cast("bolt", "Orc")] * 6, spell("bolt", 1, "V", count=6), level=level,
                      initiative=party_wins(2), max_rounds=2, options={"caster_delay_by_level": option})
    assert _casts(doc) == casts
    assert delay_periods(doc, "Mina") == delays


@pytest.mark.parametrize("option", [False, True])
def test_p2_06_a_physical_attack_after_casting_waits_two_phases(option: bool) -> None:
    """Seed: "If either a priest or mage wishes to physically attack after casting, the delay is automatically 2
    phases" (even a 13th-level caster with the option, whose next SPELL could follow at once): a CT 1 spell in A;
    the dagger declared in B waits B and C, strikes in A of cycle 2 (winner SF 2: half-segment 2)."""
    doc = play2({"party": [mage("Mina", spell("bolt", 1, "V"), level=13, weapons=[DAGGER])],
                 "orcs": [orc("Orc", hp=60, ac=-10)]},
                {"Mina": [cast("bolt", "Orc"), melee("Orc", 2), NONE, NONE]}, initiative=party_wins(2),
                max_rounds=2, options={"caster_delay_by_level": option})
    assert [e["tick"] for e in events(doc, "melee", "Mina")] == [[2, 1, 2, 0]]
    assert delay_periods(doc, "Mina") == [2, 3]
    assert all("P2-06" in d["why"] for d in events(doc, "delay", "Mina"))


@pytest.mark.parametrize("option", [False, True])
def test_p2_06_the_caster_waits_two_phases_after_a_physical_attack(option: bool) -> None:
    """Seed: "Note that casters MUST delay two phases after a physical attack regardless of their delay time
    between spells." A 13th-level mage stabs in A; the spell declared in B waits B and C and begins in A of
    cycle 2: cast-start (2, 1, 0, 1)."""
    doc = play2({"party": [mage("Mina", spell("bolt", 1, "V"), level=13, weapons=[DAGGER])],
                 "orcs": [orc("Orc", hp=60, ac=-10)]},
                {"Mina": [melee("Orc", 2), cast("bolt", "Orc"), NONE, NONE]}, initiative=party_wins(2),
                max_rounds=2, options={"caster_delay_by_level": option})
    assert one(doc, "cast-start", "Mina")["tick"] == [2, 1, 0, 1]
    assert delay_periods(doc, "Mina") == [2, 3]
    assert all("P2-06" in d["why"] for d in events(doc, "delay", "Mina"))


def test_p2_06_the_delay_counts_from_the_phase_a_one_round_spell_goes_off() -> None:
    """P2-06 after a "1 round" spell: begun in A, it goes off at the end of C (period 3, P2-04); the caster waits
    A2 and B2 (periods 4, 5) and begins the next spell in C2: cast-start (2, 3, 0, 1)."""
    doc = _mage_casts([cast("cloud", "Orc"), cast("bolt", "Orc"), NONE], spell("cloud", "1 round"),
                      spell("bolt", 1, "V"), initiative=party_wins(2), max_rounds=2)
    assert delay_periods(doc, "Mina") == [4, 5]
    assert one(doc, "cast-start", "Mina", spell="bolt")["tick"] == [2, 3, 0, 1]


# -- P2-10 with C2-13: disruption across the cycle's end -----------------------------------------------------------


def test_p2_10_a_hit_while_the_spell_runs_on_into_the_next_a_ruins_it() -> None:
    """C2-13 (P2-10): CT 5 begun in C (units 1-3); in A of cycle 2 the orcs win (7 > 3): the orc (winner, SF 3 ->
    half-segment 2) hits Mina before her unit 5 (loser, half-segment 4): d20 15 >= 19 - 10 = 9; 1d6 2: 4 - 2 = 2
    hp. The spell is ruined at (2, 1, 2, 0) and never cast."""
    doc = play2({"party": [mage("Mina", spell("web", 5))], "orcs": [orc("Orc", hp=60)]},
                {"Mina": [NONE, NONE, cast("web", "Orc")], "Orc": [NONE, NONE, NONE, melee("Mina", 15, 2)]},
                initiative=cycles((3, 7), (7, 3)), max_rounds=2)
    assert one(doc, "melee", "Orc")["tick"] == [2, 1, 2, 0]
    assert one(doc, "spell-ruined", "Mina")["tick"] == [2, 1, 2, 0]
    assert events(doc, "cast", "Mina") == []
    assert doc["combatants"]["Mina"]["hp"] == 2
