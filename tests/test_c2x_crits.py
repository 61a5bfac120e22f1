"""C2X-03 and C2X-04, critical hits and misses, under every registered ruleset."""

from __future__ import annotations

import pytest

from affray import load_text
from affray.api import prepare
from affray.errors import EncounterError
from c2x_helpers import IDS, conditions, duel, events

TABLES = {"crits": "c2-tables"}
SEVERITY = {"crits": "c2-severity"}


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_worked_example_natural_20_crit_2(ruleset: str) -> None:
    # THAC0 15 vs AC 1 needs 14; natural 20, d10 2 (1-4): double base damage 2 x 5 = 10, dazed to the phase's end
    doc = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 20, "crit": 2, "damage": 5}}])
    (hit,) = events(doc, "melee", "Brom")
    assert (hit["hit"], hit["damage"]) == (True, 10)
    assert "14" in hit["detail"] and "critical d10 2" in hit["detail"]
    (dazed,) = events(doc, "condition", "Orc")
    assert dazed["condition"] == "dazed" and dazed["tick"] == hit["tick"]
    assert doc["combatants"]["Orc"]["hp"] == 30


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_04_worked_example_severity_18_with_5_does_9(ruleset: str) -> None:
    # needs 14, rolls 18: 4 over -> 5 + 4 = 9
    doc = duel(ruleset, SEVERITY, [{"melee": "Orc", "dice": {"attack": 18, "damage": 5}}])
    (hit,) = events(doc, "melee", "Brom")
    assert (hit["hit"], hit["damage"]) == (True, 9)
    assert not events(doc, "condition")


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_04_natural_20_is_maximum_base_damage_plus_severity(ruleset: str) -> None:
    # natural 20: 1d8 at its maximum 8, + (20 - 14) = 6 over: 14
    doc = duel(ruleset, SEVERITY, [{"melee": "Orc", "dice": {"attack": 20, "damage": 1}}])
    assert events(doc, "melee", "Brom")[0]["damage"] == 14


@pytest.mark.parametrize("ruleset", IDS)
def test_crits_none_keeps_the_plain_damage(ruleset: str) -> None:
    # G-04 without the option: the natural 20 hits for the die, 5
    doc = duel(ruleset, {}, [{"melee": "Orc", "dice": {"attack": 20, "crit": 2, "damage": 5}}])
    assert events(doc, "melee", "Brom")[0]["damage"] == 5
    assert not events(doc, "condition")


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_severe_hit_best_of_two_throws_and_dazed(ruleset: str) -> None:
    # against AC 10 Brom needs 15 - 10 = 5; a 15 beats it by 10: damage dice twice, best of 2 and 6 = 6; dazed
    doc = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 15, "damage": 2, "damage2": 6}}],
               orc={"ac": 10})
    assert events(doc, "melee", "Brom")[0]["damage"] == 6
    assert conditions(doc, "Orc") == ["dazed"]


@pytest.mark.parametrize(("roll", "damage", "condition"), [(5, 12, "dazed"), (7, 16, "stunned"), (8, 16, "stunned")])
@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_critical_hit_rows(ruleset: str, roll: int, damage: int, condition: str) -> None:
    # 5-6: double base damage, best of two throws (3, 6): 2 x 6 = 12; 7-8: double maximum base damage 2 x 8 = 16
    doc = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 20, "crit": roll, "damage": 3, "damage2": 6}}])
    assert events(doc, "melee", "Brom")[0]["damage"] == damage
    assert conditions(doc, "Orc") == [condition]


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_critical_9_extra_attack_at_once_against_the_stunned(ruleset: str) -> None:
    # 9: double maximum total damage 2 x 8 = 16, stunned (+4 AC); the extra attack needs 14 - 4 = 10: a 10 hits for 3
    doc = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 20, "crit": 9, "extra_attack": 10,
                                                           "extra_damage": 3}}])
    first, extra = events(doc, "melee", "Brom")[:2]
    assert first["damage"] == 16 and first["tick"] == extra["tick"]
    assert (extra["hit"], extra["damage"]) == (True, 3)
    assert "+4 (Orc stunned, C2X-03)" in extra["detail"]
    assert doc["combatants"]["Orc"]["hp"] == 40 - 16 - 3


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_critical_10_a_free_attack_next_phase(ruleset: str) -> None:
    # 10: 16 damage, stunned through 2 phases, one attack at once (a 2 misses) and a free one next phase: it
    # follows Brom's first regular attack of that phase (19 hits for the 4 entered), if the ruleset's clock gives
    # him one there
    doc = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 20, "crit": 10, "extra_attack": 2,
                                                           "free_attack": 19, "free_damage": 4}},
                                 {"melee": "Orc", "dice": {"attack": 3}}, {"melee": "Orc", "dice": {"attack": 3}}],
               brom={"attacks": 3})
    attacks = events(doc, "melee", "Brom")
    assert attacks[0]["damage"] == 16 and attacks[1]["hit"] is False
    owed = next(e for e in events(doc, "condition", "Brom") if e["condition"] == "free-attack")
    regular = [e for e in attacks[2:] if owed["since"] <= e["tick"] < owed["end"] and "free" not in e["why"]]
    free = [e for e in attacks if "free attack" in e.get("why", "")]
    assert len(free) == (1 if regular else 0)
    if free:
        assert free[0]["tick"] == regular[0]["tick"] and free[0]["damage"] == 4
        assert free[0]["seq"] > regular[0]["seq"]


def test_c2x_03_critical_10_free_attack_in_side_d6_round_2() -> None:
    # side-d6's phase is the round: the free attack follows Brom's attack of round 2
    doc = duel("side-d6", TABLES, [{"melee": "Orc", "dice": {"attack": 20, "crit": 10, "extra_attack": 2,
                                                             "free_attack": 19, "free_damage": 4}},
                                   {"melee": "Orc", "dice": {"attack": 3}}])
    free = [e for e in events(doc, "melee", "Brom") if "free attack" in e.get("why", "")]
    assert len(free) == 1 and free[0]["round"] == 2 and free[0]["damage"] == 4


def test_c2x_03_stunned_cannot_attack_until_its_phase_ends() -> None:
    # combat2-phase1: Brom (winner, SF 5) strikes at half-segment 3, the orc's axe would fall later in phase 1;
    # critical 7: stunned through the following phase, so its blows of phases 1 and 2 are impossible
    doc = duel("combat2-phase1", TABLES, [{"melee": "Orc", "dice": {"attack": 20, "crit": 7}}],
               orc_plan=[{"melee": "Brom"}])
    stopped = events(doc, "impossible", "Orc")
    assert stopped and "stunned" in stopped[0]["why"] and stopped[0]["tick"][:2] == [1, 1]
    assert events(doc, "condition", "Orc")[0]["end"] == [1, 3]  # through phase 2


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_critical_miss_falls_to_knees_and_drops_the_weapon(ruleset: str) -> None:
    # natural 1, d10 8: knees through next phase (AC +2); DEX 10 - 1 = 9, d20 20 fails: the sword is dropped
    doc = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 1, "crit": 8, "crit_dex": 20}},
                                 {"melee": "Orc"}, {"melee": "Orc"}, {"melee": "Orc"}])
    assert conditions(doc, "Brom") == ["lost-sequence", "knees", "dropped:long sword"]
    later = events(doc, "impossible", "Brom")
    assert later and all("long sword" in e["why"] or "knees" in e["why"] for e in later)
    assert not [e for e in events(doc, "melee", "Brom")[1:]]


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_misstep_minus_1_next_phase(ruleset: str) -> None:
    # d10 3: misstep, no movement this phase; the AGI check (DEX 10 without the Agility option) d20 15 fails:
    # misstep through the next phase, -1 to hit: 15 - 1 = 14 vs 14 still hits
    doc = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 1, "crit": 3, "crit_agi": 15}},
                                 {"melee": "Orc", "dice": {"attack": 15, "damage": 1}}],
               brom={"attacks": 3})
    assert conditions(doc, "Brom") == ["lost-sequence", "no-move", "misstep"]
    until = events(doc, "condition", "Brom")[2]["end"]
    second = events(doc, "melee", "Brom")[1]
    # the ruleset's clock decides whether the second blow still falls within the next phase
    assert ("-1 (Brom misstep, C2X-03)" in second["detail"]) == (second["tick"] < until)


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_prone_for_d2_plus_1_phases(ruleset: str) -> None:
    # 9: prone 1 + 1 = 2 phases, defenseless the first; DEX 10 - 2 = 8: d20 5 keeps the sword; AGI d20 3 rises
    doc = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 1, "crit": 9, "crit_phases": 1, "crit_dex": 5,
                                                           "crit_agi": 3}}])
    assert conditions(doc, "Brom") == ["lost-sequence", "prone", "defenseless"]


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_03_bow_string_or_missile(ruleset: str) -> None:
    # a bow's critical miss: d2 1, the string breaks: the bow is out of action
    doc = duel(ruleset, TABLES, [{"missile": "Orc", "weapon": "bow", "dice": {"attack": 1, "crit": 2, "crit_agi": 1,
                                                                              "crit_break": 1}}],
               brom={"weapons": [{"name": "bow", "sf": 7, "damage": "1d6", "kind": "missile"}]})
    assert "dropped:bow" in conditions(doc, "Brom")


def test_c2x_04_mage_with_a_quarterstaff() -> None:
    # seed: needs 17 (THAC0 20 vs AC 3), rolls 10: +2 SF; a 6 would still be capped at +4 (quarterstaff SF 4)
    for roll, penalty in ((10, 2), (12, 0), (6, 4)):
        doc = duel("side-d6", SEVERITY, [{"melee": "Orc", "weapon": "quarterstaff", "dice": {"attack": roll}}],
                   brom={"thac0": 20, "weapons": [{"name": "quarterstaff", "sf": 4, "damage": "1d6"}]},
                   orc={"ac": 3})
        slowed = events(doc, "condition", "Brom")
        assert [e["amount"] for e in slowed] == ([penalty] if penalty else [])


def test_c2x_04_thief_with_a_plus_2_long_sword_back_to_sf_7() -> None:
    # seed: SF 5 - magic 2 - DEX +1 (DEX 16's reaction adjustment, with Agility, C2-01) = 2; a severe miss may add
    # up to the base SF 5: SF 7. Needs 20 (THAC0 20 vs AC 0), rolls 8: 20 - 5 - 8 = 7, capped at 5.
    doc = duel("combat2-phase1", {**SEVERITY, "agility": True},
               [{"melee": "Orc", "dice": {"attack": 8}}, {"melee": "Orc", "dice": {"attack": 2}}],
               brom={"class": "thief", "thac0": 20, "dex": 16, "attacks": 3,
                     "weapons": [{"name": "long sword", "sf": 5, "magic": 2, "damage": "1d8"}]},
               orc={"ac": 0})
    first, second = events(doc, "melee", "Brom")[:2]
    assert "SF 2" in first["why"]
    assert next(e["amount"] for e in events(doc, "condition", "Brom")) == 5
    assert "SF 7" in second["why"]


def test_c2x_04_critical_miss_uncapped_and_off_balance() -> None:
    # natural 1 needing 14: 14 - 5 - 1 = 8 SF, beyond the sword's 5; AGI bonus lost
    doc = duel("phase-count", SEVERITY, [{"melee": "Orc", "dice": {"attack": 1}}])
    assert [(e["condition"], e["amount"]) for e in events(doc, "condition", "Brom")] == [
        ("slowed", 8), ("off-balance", 0)]


@pytest.mark.parametrize("ruleset", IDS)
def test_crit_phase_round_stretches_the_daze(ruleset: str) -> None:
    # option crit_phase: round: "until the end of the phase" is the end of the round
    by_phase = duel(ruleset, TABLES, [{"melee": "Orc", "dice": {"attack": 20, "crit": 2}}])
    by_round = duel(ruleset, {**TABLES, "crit_phase": "round"}, [{"melee": "Orc", "dice": {"attack": 20, "crit": 2}}])
    assert events(by_round, "condition")[0]["end"] >= events(by_phase, "condition")[0]["end"]


def test_crit_dice_out_of_range_is_named() -> None:
    text = """
sides:
  a: {combatants: [{name: A, hp: 5, weapons: [{name: sword, sf: 5, damage: 1d8}]}]}
  b: {combatants: [{name: B, hp: 5}]}
plan:
  A: [{melee: B, dice: {attack: 20, crit: 11}}]
"""
    with pytest.raises(EncounterError, match=r"plan\.A\[0\]\.dice\.crit: 11 is not a d10 result"):
        prepare(load_text(text), ruleset="side-d6")


@pytest.mark.parametrize(("dice", "message"), [
    ("{attack: 1, crit_agi: 0}", r"dice\.crit_agi: 0 is not a d20 result \(1-20\)"),
    ("{attack: 20, damage2: 9}", r"dice\.damage2: 9 cannot be rolled on the damage dice of 1d8 \(1-8\)"),
    ("{attack: 20, crit: 9, extra_attack: 21}", r"dice\.extra_attack: 21 is not a d20 result"),
])
def test_crit_dice_bad_values_are_named(dice: str, message: str) -> None:
    text = f"""
sides:
  a: {{combatants: [{{name: A, hp: 5, weapons: [{{name: sword, sf: 5, damage: 1d8}}]}}]}}
  b: {{combatants: [{{name: B, hp: 5}}]}}
plan:
  A: [{{melee: B, dice: {dice}}}]
"""
    for ruleset in IDS:
        with pytest.raises(EncounterError, match=message):
            prepare(load_text(text), ruleset=ruleset)


def test_c2x_03_critical_miss_ends_a_phase_count_attack_sequence() -> None:
    # phase-count: 3 attacks fall in consecutive phases (PC-04); a natural 1 on the first loses the other two
    doc = duel("phase-count", TABLES, [{"melee": "Orc", "dice": [{"attack": 1, "crit": 1, "crit_agi": 1}]}],
               brom={"attacks": 3})
    assert len(events(doc, "melee", "Brom")) == 1
    # without the option all three are struck
    plain = duel("phase-count", {}, [{"melee": "Orc", "dice": [{"attack": 1}]}], brom={"attacks": 3})
    assert len(events(plain, "melee", "Brom")) == 3
