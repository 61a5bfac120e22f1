"""C2X-01, C2X-02, C2X-04/05 strength and specialization, C2X-06/08 the spells option, under every ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.abilities import c2_strength, perception, strength, thief_skill_adjustment
from affray.model.encounter import Combatant
from c2x_helpers import IDS, duel, events
from cli_run import affray_here


def test_c2x_04_fighter_18_99_gets_plus_2_plus_3() -> None:
    # seed: "a fighter with 18/99 strength would get +2/+5 under 2nd ed rules. Under my rules, he'd get +2/+3 (5 - 2)"
    assert strength(18, 99) == (2, 5)
    assert c2_strength(18, 99) == (2, 3)
    # "+1 or below as is": STR 17 +1/+1 keeps +1; STR 3 -3/-1 keeps -1; 18/00 +3/+6 -> +3/+3
    assert c2_strength(17) == (1, 1) and c2_strength(3) == (-3, -1) and c2_strength(18, 100) == (3, 3)


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_05_strength_in_the_attack(ruleset: str) -> None:
    # str: 18/99 under option strength c2: +2 to hit, +3 damage; the d20 12 + 2 = 14 hits (needs 14); 1d8 4 + 3 = 7
    doc = duel(ruleset, {"strength": "c2"}, [{"melee": "Orc", "dice": {"attack": 12, "damage": 4}}],
               brom={"str": "18/99"})
    hit = events(doc, "melee", "Brom")[0]
    assert (hit["hit"], hit["damage"]) == (True, 7)
    # the 2nd edition's +2/+5: 4 + 5 = 9
    doc = duel(ruleset, {"strength": "2e"}, [{"melee": "Orc", "dice": {"attack": 12, "damage": 4}}],
               brom={"str": "18/99"})
    assert events(doc, "melee", "Brom")[0]["damage"] == 9


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_05_specialization_slots_and_missiles(ruleset: str) -> None:
    # two slots: +2 to hit, no damage (C2X-05): 12 + 2 = 14 hits for the die's 4
    doc = duel(ruleset, {"strength": "c2"}, [{"melee": "Orc", "dice": {"attack": 12, "damage": 4}}],
               brom={"weapons": [{"name": "long sword", "sf": 5, "damage": "1d8", "slots": 2}]})
    assert (events(doc, "melee", "Brom")[0]["hit"], events(doc, "melee", "Brom")[0]["damage"]) == (True, 4)
    # a normal bow: DEX 17's +2 only, no STR damage even at 18/99: 12 + 2 = 14 hits for 3
    doc = duel(ruleset, {"strength": "c2"}, [{"missile": "Orc", "dice": {"attack": 12, "damage": 3}}],
               brom={"str": "18/99", "dex": 17, "weapons": [{"name": "bow", "sf": 7, "damage": "1d6",
                                                             "kind": "missile"}]})
    shot = events(doc, "missile", "Brom")[0]
    assert (shot["hit"], shot["damage"]) == (True, 3)


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_04_creature_damage_bonus_full_or_split(ruleset: str) -> None:
    # a listed +5: full, every hit 3 + 5 = 8; split, +2 to hit (5 // 2) and 3 + 3 = 6
    plan = [{"melee": "Orc", "dice": {"attack": 12, "damage": 3}}]
    full = duel(ruleset, {}, plan, brom={"class": "monster", "level": None, "damage_bonus": 5})
    assert events(full, "melee", "Brom")[0]["hit"] is False  # 12 < 14
    plan = [{"melee": "Orc", "dice": {"attack": 14, "damage": 3}}]
    full = duel(ruleset, {}, plan, brom={"class": "monster", "level": None, "damage_bonus": 5})
    assert events(full, "melee", "Brom")[0]["damage"] == 8
    split = duel(ruleset, {"creature_bonus": "split"}, [{"melee": "Orc", "dice": {"attack": 12, "damage": 3}}],
                 brom={"class": "monster", "level": None, "damage_bonus": 5})
    assert (events(split, "melee", "Brom")[0]["hit"], events(split, "melee", "Brom")[0]["damage"]) == (True, 6)


def test_c2x_01_thief_skills_by_agi_and_dex() -> None:
    thief = Combatant.model_validate({"name": "T", "hp": 5, "class": "thief", "level": 3, "dex": 17, "agi": 9})
    # with the option, Move Silently reads AGI 9: -10%; Pick Pockets reads DEX 17: +5%
    assert thief_skill_adjustment("move silently", thief, agility=True) == -10
    assert thief_skill_adjustment("pick pockets", thief, agility=True) == 5
    # without it, DEX 17 for both: +5%
    assert thief_skill_adjustment("hide in shadows", thief, agility=False) == 5


def test_c2x_02_perception_and_appearance() -> None:
    spec = Combatant.model_validate({"name": "T", "hp": 5, "class": "thief", "level": 4, "int": 13, "wis": 10,
                                     "apr": 15})
    # (13 + 10) / 2 + 4 = 15.5; thieves' option: + 2 a level: 19.5
    assert perception(spec) == 15.5 and perception(spec, thief_bonus=True) == 19.5
    assert spec.apr == 15


# -- the spells option ---------------------------------------------------------------------------------
CASTER = {"name": "Brom", "class": "cleric", "level": 5, "thac0": 18,
          "spells": [{"name": "hold person", "level": 2, "ct": 1, "count": 1},
                     {"name": "flame strike", "level": 5, "ct": 8}]}


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_06_mana_pays_the_level_and_the_final_state_reports_it(ruleset: str) -> None:
    # a 5th-level priest's 12 points; hold person costs its level 2: 10 left
    doc = duel(ruleset, {"spells": "mana"}, [{"cast": "hold person", "at": "Orc"}], brom=CASTER)
    assert len(events(doc, "cast", "Brom")) == 1
    assert doc["combatants"]["Brom"]["mana"] == 10
    assert "mana" not in duel(ruleset, {}, [{"cast": "hold person", "at": "Orc"}], brom=CASTER)["combatants"]["Brom"]


def test_c2x_06_a_spell_cast_twice_from_the_pool() -> None:
    # side-d6, a cast a round: memorised once, cast twice from the pool: 12 - 2 - 2 = 8; memorised, once only
    plan = [{"cast": "hold person", "at": "Orc"}, {"cast": "hold person", "at": "Orc"}]
    doc = duel("side-d6", {"spells": "mana"}, plan, brom=CASTER)
    assert len(events(doc, "cast", "Brom")) == 2 and doc["combatants"]["Brom"]["mana"] == 8
    doc = duel("side-d6", {}, plan, brom=CASTER)
    assert len(events(doc, "cast", "Brom")) == 1


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_06_no_spell_above_the_highest_level(ruleset: str) -> None:
    # flame strike is 5th level, a 5th-level priest casts 3rd at most (C2X-06): it never takes effect
    doc = duel(ruleset, {"spells": "mana"}, [{"cast": "flame strike", "at": "Orc"}], brom={**CASTER, "mana": 3})
    assert not events(doc, "cast", "Brom")
    assert any("highest level castable" in e.get("why", "") for e in doc["events"] if e["actor"] == "Brom")
    assert doc["combatants"]["Brom"]["mana"] == 3  # what the file says is left, unspent


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_08_slots_any_known_spell(ruleset: str) -> None:
    # slots of a 5th-level priest: 3 / 3 / 1; hold person uses a 2nd-level slot: 3 / 2 / 1
    doc = duel(ruleset, {"spells": "slots"}, [{"cast": "hold person", "at": "Orc"}], brom=CASTER)
    assert doc["combatants"]["Brom"]["slots"] == {"1": 3, "2": 2, "3": 1}


def test_c2x_06_the_pool_takes_wisdom_and_the_starting_option() -> None:
    # WIS 14: two 1st-level bonus spells, +2 points (option 1): 12 + 2 = 14, less hold person's 2: 12.
    # With starting_mana con-added and CON 18: + 18 / 3 = 6 more: 18
    doc = duel("side-d6", {"spells": "mana"}, [{"cast": "hold person", "at": "Orc"}], brom={**CASTER, "wis": 14})
    assert doc["combatants"]["Brom"]["mana"] == 12
    doc = duel("side-d6", {"spells": "mana", "starting_mana": "con-added"}, [{"cast": "hold person", "at": "Orc"}],
               brom={**CASTER, "wis": 14, "con": 18})
    assert doc["combatants"]["Brom"]["mana"] == 18


@pytest.mark.parametrize(("options", "brom", "term"), [
    ({"agility": True}, {"agi": 18}, "+4 (Brom loses its AGI bonus, C2X-04)"),  # AGI 18: -4 AC, lost
    ({}, {"agi": 18, "dex": 16}, "+2 (Brom loses its DEX bonus, C2X-04)"),  # no Agility option: DEX 16's -2
    ({"agility": True}, {"agi": 10, "dex": 18}, None),  # AGI 10 gives no bonus to lose; DEX no longer counts
])
def test_c2x_01_agi_gives_the_ac_bonus_lost_on_a_critical_miss(options: dict[str, object], brom: dict[str, object],
                                                               term: str | None) -> None:
    # side-d6: Brom's natural 1 in round 1 (C2X-04: no AGI bonus through his next attack or 3 phases, here
    # rounds); the orc strikes in round 2
    doc = duel("side-d6", {"crits": "c2-severity", **options}, [{"melee": "Orc", "dice": {"attack": 1}}],
               brom=brom, orc_plan=[{"none": True}, {"melee": "Brom", "dice": {"attack": 10, "damage": 1}}])
    detail = events(doc, "melee", "Orc")[0]["detail"]
    assert (term in detail) if term else ("loses its" not in detail)


@pytest.mark.parametrize("ruleset", ["combat2-phase1", "d12-procedure"])
def test_c2x_01_agi_adjusts_the_initiative_roll(ruleset: str) -> None:
    # C2X-01: "AGI ... is also used to modify the party initiative roll (using the Reaction Adjustment)": Brom's
    # AGI 18 replaces his DEX 10 in the initiative text of the rulesets that adjust the roll by DEX
    plan = [{"melee": "Orc", "dice": {"attack": 3}}]
    orc = [{"melee": "Brom", "dice": {"attack": 3}}]
    doc = duel(ruleset, {"agility": True}, plan, brom={"agi": 18}, orc_plan=orc)
    text = " ".join(f"{e.get('detail', '')} {e.get('why', '')}" for e in doc["events"])
    assert "AGI 18" in text
    plain = duel(ruleset, {}, plan, brom={"agi": 18}, orc_plan=orc)
    assert "AGI 18" not in " ".join(f"{e.get('detail', '')} {e.get('why', '')}" for e in plain["events"])


@pytest.mark.parametrize("ruleset", IDS)
def test_c2x_09_innate_spells_pooled_as_mana_or_slots(ruleset: str) -> None:
    # a monster's innate list pooled (C2X-09): 2 x level 2 + 1 x level 1 = 5 points, or slots {1: 1, 2: 2};
    # one bolt (level 2) later: 3 points, or {1: 1, 2: 1}
    innate = {"class": "monster", "level": None, "spells": [
        {"name": "bolt", "level": 2, "ct": 1, "count": 2}, {"name": "spark", "level": 1, "ct": 1}]}
    plan = [{"cast": "bolt", "at": "Orc"}]
    assert duel(ruleset, {"spells": "mana"}, plan, brom=innate)["combatants"]["Brom"]["mana"] == 3
    assert duel(ruleset, {"spells": "slots"}, plan, brom=innate)["combatants"]["Brom"]["slots"] == {"1": 1, "2": 1}


def test_bad_c2x_fields_exit_2_naming_each(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("""\
options: {crits: maybe}
sides:
  a: {combatants: [{name: A, hp: 5, str: 17/50, slots: {12: 1}, mana: -1}]}
  b: {combatants: [{name: B, hp: 5}]}
""", encoding="utf-8")
    done = affray_here("check", path, "--ruleset", "side-d6")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    for field in ("combatants[0].str: '17/50'", "combatants[0].slots", "combatants[0].mana"):
        assert field in done.stderr, done.stderr


@pytest.mark.parametrize("spells", ["mana", "slots"])
def test_c2x_06_a_touch_spell_paid_from_the_pool_is_still_charged(spells: str) -> None:
    # combat2-phase1 (C2-10): shocking grasp (level 1) cast in phase 1 is delivered by a touch in phase 2 whatever
    # paid for it (a level-1 wizard's 1 point or slot); the touch d20 14 vs THAC0 15 - AC 1 = 14 hits, 1d8 2 + 3 = 5
    grasp = {"name": "shocking grasp", "level": 1, "ct": 1, "components": "VS", "damage": "1d8+3", "touch": True}
    mage = {"class": "wizard", "level": 1, "spells": [grasp]}
    plan = [{"cast": "shocking grasp", "at": "Orc"},
            {"melee": "Orc", "touch": "shocking grasp", "dice": {"attack": 14, "damage": 2}}]
    doc = duel("combat2-phase1", {"spells": spells}, plan, brom=mage)
    touch = events(doc, "melee", "Brom")[0]
    assert (touch["hit"], touch["damage"]) == (True, 5)
    assert doc["combatants"]["Brom"].get("mana", 0) == 0
