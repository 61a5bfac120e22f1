"""combat2-phase2 (seed 000 section 3, "C. SYSTEM II PHYSICAL ATTACKS"): attack/delay schedules P2-07 (Table 6),
missile fire P2-08, multi-part routines and two weapons P2-09 (Table 7, the seed's short-sword specialist).

Periods: 1-3 = cycle 1 A-C, 4-6 = cycle 2 A-C, 7-9 = cycle 3 A-C (combat2_phase2_helpers.period).
Bands (Table 4, same as Table 1): winner SF <2 -> 1, 2-3 -> 2, 4-6 -> 3, 7-9 -> 4, 10+ -> 5; loser one later.
A level-1 fighter has THAC0 20 and needs 20 - 6 = 14 against an orc (AC 6); d20 2 misses.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat2_helpers import DAGGER, LONG_SWORD, NONE, SHORT_SWORD, events, melee, missile, one, orc, pc, weapon
from combat2_phase2_helpers import (
    attack_periods,
    cycles,
    delay_periods,
    dice_list,
    hs_at,
    party_wins,
    period,
    play2,
)

SHORT_BOW: dict[str, Any] = {"name": "short bow", "sf": 7, "damage": "1d6", "kind": "missile", "rate": 2}


def _swinger(plan: list[dict[str, Any]], *, cycles_: int = 2, options: dict[str, Any] | None = None,
             **fighter: Any) -> dict[str, Any]:
    """Brom (party, winner every cycle: 3 < 7) against a 60-hp orc of AC -10 who does nothing (d20 2 misses even
    at THAC0 21 - 15 = 6: 6 + 10 = 16)."""
    kw = {"weapons": [DAGGER], **fighter}
    return play2({"party": [pc("Brom", **kw)], "orcs": [orc("Orc", hp=60, ac=-10)]}, {"Brom": plan},
                 initiative=party_wins(cycles_), max_rounds=cycles_, options=options)


def _every_phase(n: int = 12, blows: int = 2) -> list[dict[str, Any]]:
    return [melee("Orc", dice=dice_list(blows))] * n


# -- P2-07: Table 6 ---------------------------------------------------------------------------------------------


def test_p2_07_one_attack_a_round_attack_delay_delay() -> None:
    """Table 6 row 1 (Fighter Lv 1-6): "attack, delay, delay". A level-1 fighter declaring an attack every phase
    attacks in A (period 1) and A of cycle 2 (period 4); B, C, B2, C2 are forced delays (spec: "A declared attack
    on a delay slot: a forced `delay` event")."""
    doc = _swinger(_every_phase())
    assert attack_periods(doc, "Brom") == [1, 4]
    assert delay_periods(doc, "Brom") == [2, 3, 5, 6]
    for d in events(doc, "delay", "Brom"):
        assert d["tick"][2:] == [0, 1] and "P2-07" in d["why"], d


def test_p2_07_three_halves_attack_delay() -> None:
    """Table 6 row 2 (F Lv 7-12, 3/2): "attack, delay": a 7th-level fighter (3/2 from class and level, P2-07)
    attacks in periods 1, 3, 5 and delays in 2, 4, 6 (the schedule runs on over the cycle's end)."""
    doc = _swinger(_every_phase(), level=7)
    assert attack_periods(doc, "Brom") == [1, 3, 5]
    assert delay_periods(doc, "Brom") == [2, 4, 6]


def test_p2_07_two_attacks_a_round_attack_attack_delay() -> None:
    """Table 6 row 3 (F Lv 13+, 2): "attack, attack, delay": a 13th-level fighter attacks in A and B, delays in C,
    then anew: periods 1, 2, 4, 5; delays 3, 6."""
    doc = _swinger(_every_phase(), level=13)
    assert attack_periods(doc, "Brom") == [1, 2, 4, 5]
    assert delay_periods(doc, "Brom") == [3, 6]


def test_c2x_03_a_critical_miss_loses_the_rest_of_the_attack_sequence() -> None:
    """Seed (critical miss table): "Automatic loss of remainder of attack sequence. If Crit Miss delay is LESS than
    regular delay, complete regular delay instead before next attack." The 13th-level fighter (attack, attack,
    delay) rolls a natural 1 in A (period 1): critical d10 1 is a misstep (no movement this phase), its AGI check
    d20 5 <= DEX 10 passes, so the miss itself keeps him idle no longer. The rest of the sequence is lost: B
    (period 2) is not an attack and C (period 3) is the schedule's delay; the sequence begins anew in cycle 2's A:
    attacks in periods 1, 4, 5; delays in 2, 3, 6 (without the critical miss: 1, 2, 4, 5 and 3, 6)."""
    first = melee("Orc", dice=[{"attack": 1, "crit": 1, "crit_agi": 5}, {"attack": 2}])
    doc = _swinger([first, *_every_phase()], level=13, options={"crits": "c2-tables"})
    assert attack_periods(doc, "Brom") == [1, 4, 5]
    assert delay_periods(doc, "Brom") == [2, 3, 6]
    lost = next(d for d in events(doc, "delay", "Brom") if period(d) == 2)
    assert "a critical miss lost the rest of its attack sequence; the next begins in phase A of cycle 2 (C2X-03)" \
        in lost["why"]


def test_p2_07_five_halves_attack_attack_attack_delay_attack_attack() -> None:
    """Table 6 row 4 (F Lv 13+ specialized, 5/2): "attack, attack, attack, delay, attack, attack", six phases
    long: periods 1, 2, 3 attack, 4 delays, 5, 6 attack, then anew: 7, 8, 9 attack (three cycles)."""
    doc = _swinger(_every_phase(), cycles_=3, level=13, specialist=True)
    assert attack_periods(doc, "Brom") == [1, 2, 3, 5, 6, 7, 8, 9]
    assert delay_periods(doc, "Brom") == [4]


def test_p2_07_three_attacks_attack_every_phase() -> None:
    """Table 6: "3 - attack each phase": periods 1-6, no delay, one blow a phase."""
    doc = _swinger(_every_phase(), attacks=3)
    assert attack_periods(doc, "Brom") == [1, 2, 3, 4, 5, 6]
    assert delay_periods(doc, "Brom") == []


def test_p2_07_four_attacks_attack_two_attacks_attack_second_at_s_plus_sf() -> None:
    """Table 6: "4 - attack, 2 attacks, attack": one blow in A, two in B, one in C (each cycle). Brom wins; the
    dagger's SF 2 falls in winner band 2-3: half-segment 2; B's second blow on 2 + SF 2 = 4 (spec, C2-25)."""
    doc = _swinger(_every_phase(), attacks=4)
    assert attack_periods(doc, "Brom") == [1, 2, 2, 3, 4, 5, 5, 6]
    b = [e for e in events(doc, "melee", "Brom") if e["tick"][:2] == [1, 2]]
    assert [(e["tick"], e["at"]) for e in b] == [([1, 2, 2, 0], hs_at(1, 2, 2, "winner")),
                                                 ([1, 2, 4, 0], hs_at(1, 2, 4, "winner"))]
    why = b[1]["why"]
    assert "2 + SF 2 = 4" in why or ("SF 2" in why and "4" in why), why
    assert "C2-25" in why or "P2-07" in why, why


def test_p2_07_four_attacks_loser_second_blow_capped_at_the_sixth_half_segment() -> None:
    """Table 6 row 4 as a loser with a long sword (SF 5): loser band 4-6 -> half-segment 4; the second blow on
    4 + 5 = 9, capped at the phase's 6th half-segment (spec: "capped at 6")."""
    doc = play2({"party": [pc("Brom", attacks=4)], "orcs": [orc("Orc", hp=60)]},
                {"Brom": _every_phase(3)}, initiative=cycles((7, 3)), max_rounds=1)
    b = [e for e in events(doc, "melee", "Brom") if e["tick"][:2] == [1, 2]]
    assert [(e["tick"], e["at"]) for e in b] == [([1, 2, 4, 0], hs_at(1, 2, 4, "loser")),
                                                 ([1, 2, 6, 0], hs_at(1, 2, 6, "loser"))]


@pytest.mark.parametrize(("n", "per_phase"), [(5, [2, 2, 1, 2, 2, 1]), (6, [2, 2, 2, 2, 2, 2])])
def test_p2_07_five_and_six_attacks_two_two_one_and_two_every_phase(n: int, per_phase: list[int]) -> None:
    """Table 6: "5 - 2 attacks, 2 attacks, attack"; "6 - 2 attacks each phase" (blows per period 1-6)."""
    doc = _swinger(_every_phase(), attacks=n)
    got = attack_periods(doc, "Brom")
    assert [got.count(p) for p in range(1, 7)] == per_phase


@pytest.mark.parametrize(("klass", "level", "specialist", "pattern"), [
    ("fighter", 1, False, "AddAdd"), ("fighter", 6, False, "AddAdd"),
    ("fighter", 7, False, "AdAdAd"), ("fighter", 12, False, "AdAdAd"),
    ("fighter", 13, False, "AAdAAd"),
    ("fighter", 1, True, "AdAdAd"), ("fighter", 7, True, "AAdAAd"), ("fighter", 13, True, "AAAdAA"),
    ("cleric", 13, False, "AddAdd"), ("wizard", 15, False, "AddAdd")])
def test_p2_07_schedule_by_class_level_and_specialisation(klass: str, level: int, specialist: bool,
                                                          pattern: str) -> None:
    """P2-07: fighters 1-6 (and every non-fighter: "All other classes attack once per round") 1 = attack, delay,
    delay; 7-12 3/2 = attack, delay; 13+ 2 = attack, attack, delay; specialists 1-6 3/2, 7-12 2, 13+ 5/2 =
    attack x3, delay, attack x2. Six phases, attacking whenever allowed (A = attack, d = delay)."""
    who: dict[str, Any] = {"class": klass, "level": level, "specialist": specialist}
    doc = _swinger(_every_phase(), **who)
    got = "".join("A" if p in attack_periods(doc, "Brom") else "d" if p in delay_periods(doc, "Brom") else "?"
                  for p in range(1, 7))
    assert got == pattern


def test_p2_07_the_sequence_may_begin_in_any_phase() -> None:
    """Seed: "The sequence may begin on any phase." A 13th-level fighter (attack, attack, delay) idle in A and B
    begins in C: attacks in C (period 3) and A of cycle 2 (4), delays in B (5), attacks in C (6)."""
    doc = _swinger([NONE, NONE, *_every_phase()], level=13)
    assert attack_periods(doc, "Brom") == [3, 4, 6]
    assert delay_periods(doc, "Brom") == [5]


def test_p2_07_a_voluntary_delay_restarts_the_sequence() -> None:
    """Seed: "In the event of an unexpected or even voluntary phase delay, the sequence starts over with the next
    attack." 2 attacks (attack, attack, delay): attack in A; B (an attack slot) left idle: the sequence restarts,
    so C is its FIRST attack, A of cycle 2 its second, B2 the delay, C2 the first again: periods 1, 3, 4, 6;
    delay 5. (Had B not restarted it, C would be the second attack and A2 the delay.)"""
    doc = _swinger([melee("Orc", dice=dice_list(1)), NONE, *_every_phase()], level=13)
    assert attack_periods(doc, "Brom") == [1, 3, 4, 6]
    assert delay_periods(doc, "Brom") == [5]


def test_p2_07_an_idle_phase_on_a_delay_slot_serves_the_delay() -> None:
    """Spec: "A phase with no attack serves a delay slot". 1 attack (attack, delay, delay): attack in A, idle in
    B and C (the two delays), attack again in A of cycle 2 with no forced delay at all."""
    doc = _swinger([melee("Orc", dice=dice_list(1)), NONE, NONE, melee("Orc", dice=dice_list(1))])
    assert attack_periods(doc, "Brom") == [1, 4]
    assert delay_periods(doc, "Brom") == []


def test_p2_07_a_forced_delay_keeps_the_declaration_for_the_next_attack_slot() -> None:
    """CONTRACT ("forced delays consume no declaration") and spec: the declaration waits. 1 attack: the first
    declaration strikes Orc in A; the second (on Grak) is stated in B, delayed in B and C (declared again as
    continuing), and strikes Grak in A of cycle 2."""
    doc = play2({"party": [pc("Brom", weapons=[DAGGER])], "orcs": [orc("Orc", hp=60), orc("Grak", hp=60)]},
                {"Brom": [melee("Orc", 2), melee("Grak", 2), NONE, NONE]}, initiative=party_wins(2), max_rounds=2)
    assert [(period(e), e["target"]) for e in events(doc, "melee", "Brom")] == [(1, "Orc"), (4, "Grak")]
    decl = events(doc, "declare", "Brom")
    assert [(period(e), bool(e.get("continuing"))) for e in decl][:5] == [(1, False), (2, False), (3, True),
                                                                         (4, True), (5, False)]


def test_p2_07_a_delayed_last_declaration_still_happens() -> None:
    """CONTRACT: "A declared attack ... that the ruleset forbids at that moment (a delay schedule ...) waits for
    the first moment that allows it". Brom's LAST declaration (Grak) is stated in B, a delay slot of attack,
    delay, delay: it must still strike in A of cycle 2 (period 4), though the plan has nothing after it."""
    doc = play2({"party": [pc("Brom", weapons=[DAGGER])], "orcs": [orc("Orc", hp=60), orc("Grak", hp=60)]},
                {"Brom": [melee("Orc", 2), melee("Grak", 2)]}, initiative=party_wins(2), max_rounds=2)
    assert [(period(e), e["target"]) for e in events(doc, "melee", "Brom")] == [(1, "Orc"), (4, "Grak")]


def test_p2_07_a_misc_action_on_an_attack_slot_restarts_the_sequence() -> None:
    """Seed: the sequence starts over after "an unexpected or even voluntary phase delay"; a phase spent moving
    is one without an attack (spec: on an attack slot it restarts the sequence). 3/2 (attack, delay): attack in
    A, B is the delay, C a miscellaneous action (an attack slot, restart), A2 attacks (first), B2 delays, C2 attacks."""
    plan = [melee("Orc", dice=dice_list(1)), NONE, {"misc": "survey the battle"}, *_every_phase()]
    doc = _swinger(plan, level=7)
    assert attack_periods(doc, "Brom") == [1, 4, 6]
    assert delay_periods(doc, "Brom") == [5]
    assert period(one(doc, "misc", "Brom")) == 3


def test_p2_07_why_of_a_schedule_delay_names_the_schedule() -> None:
    """CONTRACT `why`: a referee checks the placement by hand: the delay of a 2-attack schedule names the
    sequence (attack, attack, delay) and the rule."""
    doc = _swinger(_every_phase(3), level=13, cycles_=1)
    why = one(doc, "delay", "Brom")["why"]
    assert "P2-07" in why and "delay" in why and "attack" in why, why


def test_p2_07_an_attack_preempted_by_the_targets_fall_costs_no_attack() -> None:
    """C2-04 (P2-10): "If the declared target falls in a half-segment before the attacker's, the attack may be
    delayed to a later phase"; spec (P1): the attack is `impossible` "and costs no attack". Cole's knife (SF 2:
    winner 2; d20 15 >= 14, 1d8 8 >= 5 hp) kills Orc 1 before Brom's long sword (SF 5: winner 3): Brom's attack
    is impossible at (1, 1, 3, 0). Having spent no attack, Brom (1 a round: attack, delay, delay) swings at Orc 2
    in B: winner 3, (1, 2, 3, 0), with no delay event."""
    doc = play2({"party": [pc("Brom"), pc("Cole", weapons=[weapon("knife", 2, "1d8")])],
                 "orcs": [orc("Orc 1"), orc("Orc 2", hp=60)]},
                {"Brom": [melee("Orc 1", 2), melee("Orc 2", 2), NONE], "Cole": [melee("Orc 1", 15, 8), NONE, NONE]},
                initiative=party_wins(1), max_rounds=1)
    assert one(doc, "down", "Orc 1")["tick"] == [1, 1, 2, 0]
    assert one(doc, "impossible", "Brom")["tick"] == [1, 1, 3, 0]
    assert [(e["tick"], e["target"]) for e in events(doc, "melee", "Brom")] == [([1, 2, 3, 0], "Orc 2")]
    assert delay_periods(doc, "Brom") == []


# -- P2-08: missile fire ----------------------------------------------------------------------------------------


def test_p2_08_short_bow_rate_2_times_one_attack_attack_attack_delay() -> None:
    """Seed "MISSILE FIRE: ... Multiply the fire rate by number of attacks per round ... Use this number to
    determine the delay schedule": a level-1 fighter (1 attack) with a short bow (rate 2): 2 x 1 = 2 -> "attack,
    attack, delay". Short bow SF 7, winner band 7-9: half-segment 4: periods 1, 2, 4, 5; delays 3, 6."""
    doc = play2({"party": [pc("Arlo", weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=60)]},
                {"Arlo": [missile("Orc", dice=dice_list(1))] * 12}, initiative=party_wins(2), max_rounds=2)
    assert attack_periods(doc, "Arlo") == [1, 2, 4, 5]
    assert delay_periods(doc, "Arlo") == [3, 6]
    first = events(doc, "missile", "Arlo")[0]
    assert (first["tick"], first["at"]) == ([1, 1, 4, 0], hs_at(1, 1, 4, "winner"))


def test_p2_08_short_bow_rate_2_times_three_halves_attacks_every_phase() -> None:
    """Seed: "at mid to high levels, missile users attack at least every phase": a 7th-level fighter (3/2) with a
    short bow (rate 2): 2 x 3/2 = 3 -> "attack each phase" (Table 6), one arrow a phase, no delay."""
    doc = play2({"party": [pc("Arlo", level=7, weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=60)]},
                {"Arlo": [missile("Orc", dice=dice_list(1))] * 12}, initiative=party_wins(2), max_rounds=2)
    assert attack_periods(doc, "Arlo") == [1, 2, 3, 4, 5, 6]
    assert delay_periods(doc, "Arlo") == []


def test_p2_08_the_bows_rate_sets_the_schedule_not_the_first_weapons() -> None:
    """P2-08: "missile fire rates occur on the same schedule as the identical number of melee attacks": a
    level-1 fighter whose first weapon is a long sword (1: attack, delay, delay) shooting a short bow (rate 2):
    2 x 1 = 2 -> attack, attack, delay: arrows in periods 1, 2, 4, 5."""
    doc = play2({"party": [pc("Arlo", weapons=[LONG_SWORD, SHORT_BOW])], "orcs": [orc("Orc", hp=60)]},
                {"Arlo": [missile("Orc", weapon="short bow", dice=dice_list(1))] * 12},
                initiative=party_wins(2), max_rounds=2)
    assert attack_periods(doc, "Arlo") == [1, 2, 4, 5]
    assert delay_periods(doc, "Arlo") == [3, 6]


# -- P2-09: two weapons and multi-part routines -----------------------------------------------------------------


def _two_weapons(plan: list[dict[str, Any]], cycles_: int = 2) -> dict[str, Any]:
    """The seed's example: "a 7th level short-sword specialist also uses a dagger": 2 attacks a round with the
    favoured short sword (P2-07, specialist 7-12); the dagger's own rate is a 7th-level fighter's 3/2 (lower)."""
    return play2({"party": [pc("Vala", level=7, specialist=True, weapons=[SHORT_SWORD, DAGGER])],
                  "orcs": [orc("Orc", hp=60)]}, {"Vala": plan}, initiative=party_wins(cycles_), max_rounds=cycles_)


def _both(n: int = 12) -> list[dict[str, Any]]:
    return [melee("Orc", routine=["short sword", "dagger"], dice=dice_list(2))] * n


def _weapons_by_period(doc: dict[str, Any], actor: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for e in events(doc, ("melee", "missile"), actor):
        out.setdefault(period(e), []).append(e["weapon"])
    return out


def test_p2_09_seed_example_short_sword_specialist_with_a_dagger() -> None:
    """Seed: "as a specialist she attacks on the schedule 'attack, attack, delay.' She therefore attacks with both
    weapons on the first phase, then with the short sword alone on the second phase. The third phase is her
    normal delay. The next phase begins the sequence anew." Periods 1 both, 2 short sword, 3 delay; 4 both, 5
    short sword, 6 delay. Both parts strike together at the slower SF 3 (C2-07): winner band 2-3 -> 2."""
    doc = _two_weapons(_both())
    assert _weapons_by_period(doc, "Vala") == {1: ["short sword", "dagger"], 2: ["short sword"],
                                               4: ["short sword", "dagger"], 5: ["short sword"]}
    assert delay_periods(doc, "Vala") == [3, 6]
    assert {tuple(e["tick"]) for e in events(doc, "melee", "Vala") if period(e) == 1} == {(1, 1, 2, 0)}


def test_p2_09_two_weapons_each_part_strikes_its_declared_target() -> None:
    """C2-07 (P2-09): "a target is declared for every part in advance": the short sword at Orc, the dagger at Grak.
    Phase A: both parts, each at its own target, together at the slower SF 3 (winner band 2-3: 2); phase B: the
    short sword alone, at Orc; phase C the delay. d20 2 misses (8 needed)."""
    doc = play2({"party": [pc("Vala", level=7, specialist=True, weapons=[SHORT_SWORD, DAGGER])],
                 "orcs": [orc("Orc", hp=60), orc("Grak", hp=60)]},
                {"Vala": [melee("Orc", routine=["short sword", "dagger"], targets=["Orc", "Grak"],
                                dice=dice_list(2))] * 6}, initiative=party_wins(1), max_rounds=1)
    got = [(period(e), e["weapon"], e["target"], e["hit"], e["tick"]) for e in events(doc, "melee", "Vala")]
    assert got == [(1, "short sword", "Orc", False, [1, 1, 2, 0]), (1, "dagger", "Grak", False, [1, 1, 2, 0]),
                   (2, "short sword", "Orc", False, [1, 2, 2, 0])]
    assert delay_periods(doc, "Vala") == [3]


def test_p2_09_two_weapon_alternation_counts_from_the_sequences_restart() -> None:
    """Spec: the other weapon joins the 1st, 3rd ... attack "counted from the sequence's (re)start". Both in A;
    B idle (an attack slot: restart, P2-07); C is the first attack again: both weapons; A2 the second: short
    sword alone; B2 delay."""
    doc = _two_weapons([*_both(1), NONE, *_both()])
    assert _weapons_by_period(doc, "Vala") == {1: ["short sword", "dagger"], 3: ["short sword", "dagger"],
                                               4: ["short sword"], 6: ["short sword", "dagger"]}
    assert delay_periods(doc, "Vala") == [5]


def test_p2_09_two_weapons_with_equal_rates_strike_together_every_attack() -> None:
    """P2-09 alternates only "in the event of a discrepancy in number of attacks": a 7th-level non-specialist
    (3/2 with both weapons: attack, delay) strikes with both in A, C and B2; delays B, A2, C2."""
    doc = play2({"party": [pc("Vala", level=7, weapons=[LONG_SWORD, DAGGER])], "orcs": [orc("Orc", hp=60)]},
                {"Vala": [melee("Orc", routine=["long sword", "dagger"], dice=dice_list(2))] * 12},
                initiative=party_wins(2), max_rounds=2)
    assert _weapons_by_period(doc, "Vala") == {p: ["long sword", "dagger"] for p in (1, 3, 5)}
    assert delay_periods(doc, "Vala") == [2, 4, 6]


def _beast(*forms: str) -> dict[str, Any]:
    """A 4 HD monster whose natural weapons (no sf: medium natural-attack SF 3, Table 2) are ``forms``."""
    return {"name": "Beast", "hd": 4, "hp": 60, "ac": 6, "weapons": [weapon(f, None, "1d4") for f in forms]}


def _forms_by_period(doc: dict[str, Any]) -> dict[int, list[str]]:
    return _weapons_by_period(doc, "Beast")


def _split(forms: tuple[str, ...], routine: list[str], n: int = 12) -> dict[str, Any]:
    return play2({"party": [pc("Brom", hp=200)], "orcs": [_beast(*forms)]},
                 {"Beast": [melee("Brom", routine=routine, dice=dice_list(len(routine)))] * n},
                 initiative=party_wins(2), max_rounds=2, options={"split_forms": True})


def test_p2_09_split_forms_one_form_attack_delay_delay() -> None:
    """Table 7 row 1: "1 attack form, delay, delay" (with split_forms): a bite-only beast bites in A and A2."""
    doc = _split(("bite",), ["bite"])
    assert _forms_by_period(doc) == {1: ["bite"], 4: ["bite"]}
    assert delay_periods(doc, "Beast") == [2, 3, 5, 6]


def test_p2_09_split_forms_two_forms_the_next_form_substitutes_for_a_delay() -> None:
    """Seed: "begin the routine on the 1 attack per round schedule (attack, delay, delay) but allow subsequent
    attack forms to substitute for delays"; Table 7 row 2: "1 form, 1 form, delay". Claw/claw/bite has two forms
    (the like claws stay together, C2-07): the claws in A, the SUBSEQUENT form, the bite, in B, delay in C."""
    doc = _split(("claw", "bite"), ["claw", "claw", "bite"])
    assert _forms_by_period(doc) == {1: ["claw", "claw"], 2: ["bite"], 4: ["claw", "claw"], 5: ["bite"]}
    assert delay_periods(doc, "Beast") == [3, 6]


def test_p2_09_split_forms_two_forms_declared_one_per_phase() -> None:
    """Table 7 row 2 with the referee naming the form each phase: claws in A, bite in B; the claws declared in C
    wait for the delay (forced) and strike in A2."""
    plan = [melee("Brom", routine=["claw", "claw"], dice=dice_list(2)),
            melee("Brom", routine=["bite"], dice=dice_list(1)),
            melee("Brom", routine=["claw", "claw"], dice=dice_list(2)), NONE, NONE]
    doc = play2({"party": [pc("Brom", hp=200)], "orcs": [_beast("claw", "bite")]}, {"Beast": plan},
                initiative=party_wins(2), max_rounds=2, options={"split_forms": True})
    assert _forms_by_period(doc) == {1: ["claw", "claw"], 2: ["bite"], 4: ["claw", "claw"]}
    assert delay_periods(doc, "Beast") == [3]


def test_p2_09_split_forms_three_forms_one_each_phase() -> None:
    """Table 7 row 3: "1 form each phase": claw, bite, tail in turn (the subsequent forms, seed)."""
    doc = _split(("claw", "bite", "tail"), ["claw", "bite", "tail"])
    assert _forms_by_period(doc) == {1: ["claw"], 2: ["bite"], 3: ["tail"], 4: ["claw"], 5: ["bite"],
                                     6: ["tail"]}
    assert delay_periods(doc, "Beast") == []


def test_p2_09_split_forms_four_forms_one_two_one() -> None:
    """Table 7 row 4: "1 form, 2 forms, 1 form": claw in A, bite and tail together in B (one routine, one
    half-segment, C2-07), horn in C, then anew."""
    doc = _split(("claw", "bite", "tail", "horn"), ["claw", "bite", "tail", "horn"])
    assert _forms_by_period(doc) == {1: ["claw"], 2: ["bite", "tail"], 3: ["horn"], 4: ["claw"],
                                     5: ["bite", "tail"], 6: ["horn"]}


def test_p2_09_split_forms_four_forms_counts_forms_per_phase() -> None:
    """Table 7 row 4, "a routine keeps at most that many forms in a phase" (spec): declared the whole routine,
    the beast strikes 1 form in A, 2 in B, 1 in C (whichever forms they are)."""
    doc = _split(("claw", "bite", "tail", "horn"), ["claw", "bite", "tail", "horn"])
    assert [len(set(_forms_by_period(doc).get(p, []))) for p in range(1, 7)] == [1, 2, 1, 1, 2, 1]


def test_p2_09_without_split_forms_a_routine_is_one_attack_on_the_one_attack_schedule() -> None:
    """P2-09 "as C2-07": without the option the whole claw/claw/bite routine is one attack action at one
    half-segment (the beast: 1 attack a round -> attack, delay, delay): all three parts in A and A2, at natural
    SF 3 (medium, Table 2): loser band 2-3 -> half-segment 3."""
    doc = play2({"party": [pc("Brom", hp=200)], "orcs": [_beast("claw", "bite")]},
                {"Beast": [melee("Brom", routine=["claw", "claw", "bite"], dice=dice_list(3))] * 12},
                initiative=party_wins(2), max_rounds=2)
    assert _forms_by_period(doc) == {1: ["claw", "claw", "bite"], 4: ["claw", "claw", "bite"]}
    assert {tuple(e["tick"]) for e in events(doc, "melee", "Beast") if period(e) == 1} == {(1, 1, 3, 0)}


def test_p2_09_two_weapons_each_new_sequence_begins_with_both_weapons() -> None:
    """Seed: "She therefore attacks with both weapons on the first phase ... The next phase begins the sequence
    anew"; spec: the other weapon joins the 1st, 3rd ... attack counted from the sequence's (re)start. A 13th-level
    short-sword specialist (5/2: attack x3, delay, attack x2) with a dagger (a 13th-level fighter's 2, lower):
    both in 1, sword 2, both 3, delay 4, sword 5, both 6; the sequence begins anew in 7: both, sword 8, both 9.
    THAC0 8 vs AC -10: d20 2 misses."""
    doc = play2({"party": [pc("Vala", level=13, specialist=True, weapons=[SHORT_SWORD, DAGGER])],
                 "orcs": [orc("Orc", hp=60, ac=-10)]}, {"Vala": _both()}, initiative=party_wins(3), max_rounds=3)
    both, sword = ["short sword", "dagger"], ["short sword"]
    assert _weapons_by_period(doc, "Vala") == {1: both, 2: sword, 3: both, 5: sword, 6: both, 7: both, 8: sword,
                                               9: both}
