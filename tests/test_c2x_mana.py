"""C2X-06 to C2X-09: the mana table row by row, the seed's examples, ``affray mana`` and ``affray learn``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from affray.supplements.c2x.mana import (
    MANA_TABLE,
    PROGRESSION,
    ManaError,
    formula_mana,
    highest_spell_level,
    pool,
    recovery_minutes,
    research_days,
    slots_for,
)
from cli_run import affray_here

# C2X-06, the seed's table as printed: level: (priest, wizard, ranger, paladin); "*" new spell level
SEED_ROWS = """\
1 1 1 -- --
2 2 2 -- --
3 4* 4* -- --
4 7 7 -- --
5 12* 11* -- --
6 15 14 -- --
7 19* 20* -- --
8 26 27 1 --
9 34* 32* 2 1
10 43 39 3* 2
11 53* 51 4 3*
12 65 66* 5* 4
13 74 78 6 5*
14 90* 85* 7 6
15 99 94 8 7*
16 111 115* 9 8
17 127 130 9 9
18 148 139* 9 9
19 151 147 9 9
20 165 162 9 9
"""


def _rows() -> list[tuple[int, list[str]]]:
    return [(int(line.split()[0]), line.split()[1:]) for line in SEED_ROWS.splitlines()]


def _value(cell: str) -> int | None:
    return None if cell == "--" else int(cell.rstrip("*"))


@pytest.mark.parametrize(("level", "cells"), _rows())
def test_c2x_06_table_row_as_printed(level: int, cells: list[str]) -> None:
    assert MANA_TABLE[level] == tuple(_value(c) for c in cells)
    # the printed pool is what `affray mana` reports for each class reading that column
    for klass, cell in zip(("cleric", "wizard", "ranger", "paladin"), cells, strict=True):
        assert pool(klass, level).mana == (_value(cell) or 0)


@pytest.mark.parametrize(("level", "cells"), _rows())
def test_c2x_06_priest_and_wizard_columns_follow_the_formula(level: int, cells: list[str]) -> None:
    # C2X-06: points = sum of spells x level over the PH progression; the seed's columns agree with it
    assert formula_mana("priest", level) == _value(cells[0])
    assert formula_mana("wizard", level) == _value(cells[1])


@pytest.mark.parametrize(("level", "cells"), _rows())
def test_c2x_06_stars_mark_a_new_spell_level(level: int, cells: list[str]) -> None:
    for column, cell in zip(("priest", "wizard", "ranger", "paladin"), cells, strict=True):
        if cell == "--":
            assert highest_spell_level(column, level) == 0
            continue
        new = level > 1 and highest_spell_level(column, level) > highest_spell_level(column, level - 1)
        first = highest_spell_level(column, level) == 1 and (level == 1 or highest_spell_level(column, level - 1) == 0)
        # a "*" marks a new castable spell level beyond the first
        assert cell.endswith("*") == (new and not first), (column, level)


def test_c2x_06_fifth_level_priest_has_12_points() -> None:
    # seed: "(3 x 1) + (3 x 2) + (1 x 3) = 12"
    assert PROGRESSION["priest"][5] == (3, 3, 1)
    p = pool("cleric", 5)
    assert (p.mana, p.highest) == (12, 3)
    assert pool("druid", 5).mana == 12


def test_c2x_06_ranger_and_paladin_decision() -> None:
    # Decision: the printed columns are casting levels; `formula` sums the progression instead.
    # ranger 12: spells (2, 2, 1) -> 2x1 + 2x2 + 1x3 = 9 (printed 5); paladin 15: (3, 2, 1, 1) -> 3+4+3+4 = 14
    assert pool("ranger", 12).mana == 5
    assert pool("ranger", 12, table="formula").mana == 9
    assert pool("paladin", 15, table="formula").mana == 14


def test_c2x_06_starting_mana_options() -> None:
    # seed: "Instead of a mage's third level total of 4 points, he could conceivably have as many as 6
    # with an 18 constitution": 18 / 3 = 6 > 4
    assert pool("wizard", 3, con=18, option="con").mana == 6
    # a CON/3 below the base keeps the base: 10th-level wizard 39 > ceil(18/3) = 6
    assert pool("wizard", 10, con=18, option="con").mana == 39
    # option 1: added at any level: 39 + 6 = 45
    assert pool("wizard", 10, con=18, option="con-added").mana == 45
    # option 2: average of CON 18 and INT 13, down: 15; / 3 up: 5; level 1 base 1 -> 5; added: 1 + 5 = 6
    assert pool("magic-user", 1, con=18, prime=13, option="prime").mana == 5
    assert pool("illusionist", 1, con=18, prime=13, option="prime-added").mana == 6
    # CON 16: ceil(16 / 3) = 6 (rounded up)
    assert pool("wizard", 1, con=16, option="con").mana == 6


def test_c2x_06_wisdom_bonus_points_or_boxes() -> None:
    # PH Table 5: WIS 14 gives two 1st-level bonus spells; option 1 adds their points: 12 + 1 + 1 = 14
    assert pool("cleric", 5, wis=14).mana == 14
    # WIS 18: 1st, 1st, 2nd, 2nd, 3rd, 4th; a 5th-level priest (highest 3) keeps 1+1+2+2+3 = 9: 21
    assert pool("cleric", 5, wis=18).bonus_spells == (1, 1, 2, 2, 3)
    assert pool("cleric", 5, wis=18).mana == 21
    # option 2: free boxes, the pool stays 12
    assert pool("cleric", 5, wis=18, bonus="boxes").mana == 12
    assert pool("wizard", 5, wis=18).mana == 11  # wizards have no Wisdom bonus


def test_c2x_07_twentieth_level_mage_27_hours() -> None:
    # seed: "It would therefore take a 20th level mage 27 hours to completely regain his spells":
    # 162 points x 10 min = 1620 min = 27 h
    assert recovery_minutes(162, 9)["flat"] == 27 * 60


def test_c2x_07_recovery_by_highest_level_and_rest() -> None:
    # (13 - 9) = 4 min a point: 162 x 4 = 648 after 8 hours
    assert recovery_minutes(162, 9)["by_level"] == 648
    # 6 hours: 2 hours below 8, +2 a point: 162 x 6 = 972
    assert recovery_minutes(162, 9, 6)["by_level"] == 972
    # 4 hours still recovers (+4): 162 x 8; under 4 nothing
    assert recovery_minutes(162, 9, 4)["by_level"] == 1296
    assert recovery_minutes(162, 9, 3)["by_level"] is None
    # 5th-level priest: (13 - 3) = 10, the same as the flat rule: 120
    assert recovery_minutes(12, 3) == {"flat": 120, "by_level": 120}


def test_c2x_08_slots_are_the_progression() -> None:
    assert slots_for("priest", 5) == {1: 3, 2: 3, 3: 1}
    assert slots_for("wizard", 20) == {1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 4, 7: 3, 8: 3, 9: 2}


def test_c2x_09_research_time() -> None:
    # 1/2 day per level with a library, 1 day otherwise
    assert research_days(3, library=True) == 1.5
    assert research_days(3, library=False) == 3
    assert research_days(9, library=True) == 4.5


def test_mana_bad_input() -> None:
    with pytest.raises(ManaError, match="fighter"):
        pool("fighter", 5)
    with pytest.raises(ManaError, match="1-20"):
        pool("wizard", 21)
    with pytest.raises(ManaError, match="con-added"):
        pool("wizard", 5, option="lots")
    with pytest.raises(ManaError, match="1-9"):
        research_days(10, library=False)


# ------------------------------------------------------------------------------------------------ CLI

def affray(*args: str) -> subprocess.CompletedProcess[str]:
    return affray_here(*args)


def test_cli_mana_json_twentieth_level_mage() -> None:
    done = affray("mana", "--class", "wizard", "--level", "20", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["class"] == "wizard" and doc["level"] == 20
    assert doc["mana"] == 162 and doc["highest_spell_level"] == 9
    assert doc["recovery_minutes"] == {"flat": 1620, "by_level": 648}


def test_cli_mana_text_and_options() -> None:
    done = affray("mana", "--class", "cleric", "--level", "5", "--con", "18", "--option", "con-added",
                  "--rest", "6")
    assert done.returncode == 0, done.stderr
    # 12 + ceil(18/3) = 18 points; (13 - 3) + 2 = 12 min a point: 216 min
    assert "18 mana points" in done.stdout and "216 min" in done.stdout


@pytest.mark.parametrize("args", [("--class", "fighter", "--level", "3"), ("--class", "wizard", "--level", "0"),
                                  ("--class", "wizard", "--level", "3", "--option", "x"),
                                  ("--class", "wizard", "--level", "3", "--rest", "30")])
def test_cli_mana_bad_input_exits_2(args: tuple[str, ...]) -> None:
    done = affray("mana", *args)
    assert done.returncode == 2 and done.stderr.strip() and "Traceback" not in done.stderr


def test_cli_learn() -> None:
    done = affray("learn", "--level", "3", "--library")
    assert done.returncode == 0 and "1.5 days" in done.stdout
    done = affray("learn", "--level", "3", "--json")
    assert json.loads(done.stdout) == {"level": 3, "library": False, "days": 3.0}
    bad = affray("learn", "--level", "12")
    assert bad.returncode == 2 and "1-9" in bad.stderr


@pytest.mark.parametrize(("spells", "pool_entry"), [("mana", ("mana", 11)), ("slots", ("slots", {"1": 4, "2": 2,
                                                                                                   "3": 1}))])
def test_c2x_06_08_a_caster_added_mid_fight_brings_its_pool(spells: str, pool_entry: tuple[str, object]) -> None:
    """A wizard of level 5 joins the party before the first event (the referee's ``add``): under ``spells: mana``
    its pool is the table's 11 points (C2X-06, wizard column, level 5); under ``slots`` the PH progression for a
    level-5 wizard, 4 first-level, 2 second-level and 1 third-level slots (C2X-08). It casts nothing (its policy,
    ``plain``, attacks with its staff), so the pool is whole at the end."""
    from affray import load_encounter, prepare
    from affray.drive import End

    skirmish = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "skirmish.yaml"
    prepared = prepare(load_encounter(skirmish), ruleset="side-d6", seed=3, options={"spells": spells})
    drive = prepared.drive(auto=True)
    assert drive.command("add party {name: Zed, class: wizard, level: 5, hp: 30, weapons: [{name: staff, sf: 4, "
                         "damage: 1d6}], spells: [{name: sleep, level: 1}], policy: plain}") is None
    while not isinstance(item := drive.pull(), End):
        pass
    key, value = pool_entry
    assert item.result.final.combatants["Zed"][key] == value
