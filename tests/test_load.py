"""Loading an encounter file (CONTRACT.md "Encounter file", "Fields and defaults", "Declarations").

Every error is ``file:line: field.path: message``; every problem of a file is reported at once. Line numbers
below are counted by hand from the first line of each text (line 1).
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from affray.api import prepare
from affray.errors import EncounterError, Problem
from affray.io.load import Loaded, expand, load_encounter, load_text

TWO_SIDES = """\
sides:
  a: {combatants: [{name: A, hp: 5}]}
  b: {combatants: [{name: B, hp: 5}]}
"""


def _problems(text: str, *, ruleset: str | None = None) -> list[Problem]:
    with pytest.raises(EncounterError) as info:
        # strict=False keeps reference problems for prepare() to report with the ruleset's own (as the CLI does)
        loaded = load_text(textwrap.dedent(text), "f.yaml", strict=ruleset is None)
        if ruleset is not None:
            prepare(loaded, ruleset=ruleset)
    return info.value.problems


def _where(problems: list[Problem]) -> list[tuple[int | None, str]]:
    return [(p.line, p.path) for p in problems]


def _one(text: str, *, ruleset: str | None = None) -> Problem:
    problems = _problems(text, ruleset=ruleset)
    assert len(problems) == 1, problems
    return problems[0]


def _combatant(loaded: Loaded, name: str):  # type: ignore[no-untyped-def]
    return next(c for n, _s, c, _l in expand(loaded.encounter) if n == name)


# ------------------------------------------------------------------------------------ fields and defaults

def test_defaults_of_a_bare_combatant() -> None:
    # CONTRACT.md "Fields and defaults": ac 10, mv 12, abilities 10, size medium, class monster
    c = _combatant(load_text(TWO_SIDES), "A")
    assert (c.hp, c.ac, c.mv, c.size) == (5, 10, 12, "medium")
    assert (c.str_, c.dex, c.con, c.int_, c.wis) == (10, 10, 10, 10, 10)
    assert c.klass == "monster"
    assert c.weapons == () and c.spells == ()


def test_every_field_as_written() -> None:
    text = """\
    ruleset: side-d6
    options: {melee_disrupts: true}
    seed: 42
    surprise: none
    sides:
      party:
        pc: true
        combatants:
          - name: Brom
            class: fighter
            level: 7
            hp: 45
            ac: 3
            thac0: 14
            str: 17
            dex: 16
            con: 15
            int: 9
            wis: 8
            agi: 12
            mv: 9
            attacks: 3/2
            size: large
            weapons:
              - {name: long sword, sf: 5, damage: 1d8, reach: 5}
              - {name: short bow, sf: 7, damage: 1d6, kind: missile, rate: 2}
              - {name: dagger, sf: 2, speed: fast, damage: 1d4}
          - name: Mina
            class: wizard
            level: 5
            hp: 12
            spells:
              - {name: fireball, level: 3, ct: 3, components: VSM}
              - {name: cloudkill, level: 5, ct: 1 round, components: VS}
      bugbears:
        morale: 9
        combatants:
          - {name: Bugbear, count: 3, hd: 3+1, hp: 15, ac: 5, weapons: [{name: morning star, sf: 7, damage: 2d4}]}
    rolls:
      surprise: {party: 6, bugbears: 2}
      initiative:
        1: {party: 3, bugbears: 5}
    plan:
      Brom:
        - melee: Bugbear 1
          weapon: long sword
      Mina:
        - cast: fireball
          at: bugbears
    """
    enc = load_text(textwrap.dedent(text)).encounter
    assert (enc.ruleset, enc.options, enc.seed, enc.surprise) == ("side-d6", {"melee_disrupts": True}, 42, "none")
    assert list(enc.sides) == ["party", "bugbears"]  # "a mapping keeps the order written"
    party = enc.sides["party"]
    assert party.pc is True and enc.sides["bugbears"].morale == 9
    brom = party.combatants[0]
    assert (brom.klass, brom.level, brom.hp, brom.ac, brom.thac0) == ("fighter", 7, 45, 3, 14)
    assert (brom.str_, brom.dex, brom.con, brom.int_, brom.wis, brom.agi) == (17, 16, 15, 9, 8, 12)
    assert (brom.mv, brom.attacks, brom.size) == (9, Fraction(3, 2), "large")
    sword, bow, dagger = brom.weapons
    assert (sword.sf, str(sword.damage), sword.reach, sword.kind) == (5, "1d8", 5, "melee")
    assert (bow.kind, bow.rate, bow.is_missile) == ("missile", Fraction(2), True)
    assert (dagger.speed, dagger.sf) == ("fast", 2)
    fireball, cloudkill = party.combatants[1].spells
    assert (fireball.level, fireball.ct, fireball.components) == (3, 3, "VSM")
    assert cloudkill.ct == 10  # G-03: "1 round" = 10 segments
    assert enc.rolls.surprise == {"party": 6, "bugbears": 2}
    assert enc.rolls.initiative == {1: {"party": 3, "bugbears": 5}}
    assert enc.plan["Brom"][0].melee == "Bugbear 1" and enc.plan["Brom"][0].weapon == "long sword"
    assert enc.plan["Mina"][0].cast == "fireball" and enc.plan["Mina"][0].target == "bugbears"


def test_hp_is_required() -> None:
    p = _one("""\
    sides:
      a: {combatants: [{name: A}]}
      b: {combatants: [{name: B, hp: 5}]}
    """)
    # line 2 holds A's mapping
    assert (p.line, p.path) == (2, "sides.a.combatants[0].hp")
    assert "required" in p.message


def test_class_defaults_to_fighter_with_a_level() -> None:
    # CONTRACT.md: "class to monster (fighter for `level` without `class`)"
    loaded = load_text("""\
sides:
  a: {combatants: [{name: A, hp: 5, level: 4}, {name: M, hp: 5}]}
  b: {combatants: [{name: B, hp: 5}]}
""")
    assert _combatant(loaded, "A").klass == "fighter"
    assert _combatant(loaded, "M").klass == "monster"


def test_magic_user_is_read_as_wizard() -> None:
    loaded = load_text("""\
sides:
  a: {combatants: [{name: A, hp: 5, class: magic-user, level: 4}]}
  b: {combatants: [{name: B, hp: 5}]}
""")
    assert _combatant(loaded, "A").klass == "wizard"


def test_count_expands_to_numbered_names() -> None:
    # CONTRACT.md: count: N makes "Bugbear 1" ... "Bugbear N"
    loaded = load_text("""\
sides:
  a: {combatants: [{name: Brom, hp: 5}]}
  b: {combatants: [{name: Bugbear, count: 3, hp: 5}, {name: Chief, hp: 9}]}
""")
    assert [(n, s) for n, s, _c, _l in expand(loaded.encounter)] == [
        ("Brom", "a"), ("Bugbear 1", "b"), ("Bugbear 2", "b"), ("Bugbear 3", "b"), ("Chief", "b")]


def test_count_expansion_clashing_with_a_name_is_an_error() -> None:
    # "Orc" x 2 makes "Orc 1", "Orc 2"; a second combatant named "Orc 2" is a duplicate (G-01: names unique)
    p = _one("""\
    sides:
      a: {combatants: [{name: Orc, count: 2, hp: 1}, {name: Orc 2, hp: 1}]}
      b: {combatants: [{name: B, hp: 1}]}
    """)
    assert (p.line, p.path) == (2, "sides.a.combatants[1].name")
    assert "Orc 2" in p.message


def _thac0s(text: str) -> dict[str, int]:
    fight = prepare(load_text(textwrap.dedent(text)), ruleset="side-d6").fight()
    return {name: f.thac0 for name, f in fight.state.fighters.items()}


def test_g01_thac0_defaults_from_class_level_or_hd() -> None:
    thac0 = _thac0s("""\
    sides:
      party:
        combatants:
          - {name: Brom, class: fighter, level: 7, hp: 40}
          - {name: Cleo, class: cleric, level: 5, hp: 20}
          - {name: Mina, class: magic-user, level: 4, hp: 10}
          - {name: Lev, level: 3, hp: 20}
          - {name: Set, class: fighter, level: 7, thac0: 12, hp: 40}
      foes:
        combatants:
          - {name: Ogre, hd: 4+1, hp: 25}
          - {name: Gnoll, hd: 2+3, hp: 12}
          - {name: Kobold, hd: 1/2, hp: 3}
          - {name: Rat, hp: 2}
    """)
    assert thac0 == {
        "Brom": 14,    # warrior 21 - 7 = 14
        "Cleo": 18,    # priest 20 - 2*((5-1)//3) = 18
        "Mina": 19,    # magic-user = wizard: 20 - (4-1)//3 = 19
        "Lev": 18,     # no class + level = fighter: 21 - 3 = 18
        "Set": 12,     # given in the file: wins
        "Ogre": 17,    # 4+1 is HD 4: Table 39 -> 17
        "Gnoll": 17,   # 2+3 counts as HD 3: Table 39 -> 17
        "Kobold": 20,  # 1/2 HD: 20
        "Rat": 20,     # neither level nor hd: 20
    }


def test_json_is_accepted(tmp_path: Path) -> None:
    doc = {"seed": 3, "sides": {"a": {"combatants": [{"name": "A", "hp": 3, "ac": 4}]},
                                "b": {"combatants": [{"name": "B", "hp": 4, "weapons": [
                                    {"name": "club", "sf": 4, "damage": "1d6"}]}]}},
           "plan": {"B": [{"melee": "A"}]}}
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    enc = load_encounter(path).encounter
    assert enc.seed == 3
    assert enc.sides["a"].combatants[0].ac == 4
    assert enc.plan["B"][0].melee == "A"


@pytest.mark.parametrize("text", ["- 1\n- 2\n", "just text\n", "", "42\n"])
def test_top_level_not_a_mapping_names_sides(text: str) -> None:
    # CONTRACT.md: "A file whose top level is not a mapping is an error that names `sides`."
    p = _one(text)
    assert p.path == "sides"
    assert p.file == "f.yaml"


def test_at_least_two_sides_each_with_a_combatant() -> None:
    p = _one("""\
    sides:
      a: {combatants: [{name: A, hp: 5}]}
    """)
    assert p.path == "sides"
    p = _one("""\
    sides:
      a: {combatants: []}
      b: {combatants: [{name: B, hp: 5}]}
    """)
    assert (p.line, p.path) == (2, "sides.a.combatants")


# -------------------------------------------------------------------------------------------------- errors

MANY = """\
sides:
  party:
    combatants:
      - name: Brom
        hp: 10
        weapons:
          - {name: sword, sf: 5, damage: 1d8}
      - name: Mina
        hp: 0
        colour: red
        weapons:
          - {name: dagger, sf: -2, damage: 2d}
  orcs:
    combatants:
      - {name: Orc, ac: 6, size: enormous}
"""


def test_every_problem_of_a_file_at_once_with_line_and_path() -> None:
    problems = _problems(MANY)
    # line 9: Mina's hp 0 (>= 1); line 10: unknown field colour; line 12: the dagger's sf -2 (>= 0) and its
    # damage "2d"; line 15: the orc's missing hp and its size
    assert sorted(_where(problems)) == [
        (9, "sides.party.combatants[1].hp"),
        (10, "sides.party.combatants[1].colour"),
        (12, "sides.party.combatants[1].weapons[0].damage"),
        (12, "sides.party.combatants[1].weapons[0].sf"),
        (15, "sides.orcs.combatants[0].hp"),
        (15, "sides.orcs.combatants[0].size"),
    ]
    by_path = {p.path: p.message for p in problems}
    assert "-2" in by_path["sides.party.combatants[1].weapons[0].sf"]
    assert "1d8" in by_path["sides.party.combatants[1].weapons[0].damage"]  # suggests the notation
    assert "enormous" in by_path["sides.orcs.combatants[0].size"] and "gargantuan" in by_path[
        "sides.orcs.combatants[0].size"]


def test_error_text_is_file_line_path_message() -> None:
    with pytest.raises(EncounterError) as info:
        load_text(MANY, "fights/ambush.yaml")
    lines = str(info.value).splitlines()
    assert len(lines) == 6  # the six problems above, one a line
    assert "fights/ambush.yaml:12: sides.party.combatants[1].weapons[0].sf: " in str(info.value)
    assert all(line.startswith("fights/ambush.yaml:") for line in lines)


def test_field_errors_and_plan_errors_reported_together() -> None:
    problems = _problems("""\
    sides:
      a: {combatants: [{name: A, hp: 5, weapons: [{name: club, sf: -1, damage: 1d6}]}]}
      b: {combatants: [{name: B, hp: 5}]}
    plan:
      A:
        - {melee: Nobody}
    """)
    # line 2: sf -1; line 6: the unknown target
    assert _where(problems) == [(2, "sides.a.combatants[0].weapons[0].sf"), (6, "plan.A[0].melee")]


@pytest.mark.parametrize(("text", "line", "path", "allowed"), [
    (TWO_SIDES + "colour: red\n", 4, "colour", "ruleset, options, seed, surprise, sides, rolls, plan"),
    ("sides:\n  a: {combatants: [{name: A, hp: 1}], flag: 1}\n  b: {combatants: [{name: B, hp: 1}]}\n",
     2, "sides.a.flag", "pc, morale, combatants"),
    ("sides:\n  a: {combatants: [{name: A, hp: 1, armor_class: 3}]}\n  b: {combatants: [{name: B, hp: 1}]}\n",
     2, "sides.a.combatants[0].armor_class", "name, count, class, level, hd, fallen, hp, hp_max, ac, thac0"),
    ("sides:\n  a: {combatants: [{name: A, hp: 1, weapons: [{name: x, dmg: 1d4}]}]}\n"
     "  b: {combatants: [{name: B, hp: 1}]}\n",
     2, "sides.a.combatants[0].weapons[0].dmg", "name, sf, speed, damage"),
    ("sides:\n  a: {combatants: [{name: A, hp: 1, spells: [{name: x, casting: 3}]}]}\n"
     "  b: {combatants: [{name: B, hp: 1}]}\n",
     2, "sides.a.combatants[0].spells[0].casting", "name, level, ct, components"),
])
def test_unknown_field_lists_the_allowed_ones(text: str, line: int, path: str, allowed: str) -> None:
    p = _one(text)
    assert (p.line, p.path) == (line, path)
    assert "unknown field" in p.message and allowed in p.message


@pytest.mark.parametrize(("value", "fragment"), [
    ("hd: three", "3+3"),              # the HD notation is suggested
    ("class: samurai", "magic-user"),  # the classes are listed
    ("attacks: 0", "3/2"),             # a rate: 1, 2, 3/2 ...
    ("ac: 11", "10"),                  # descending AC, 10 at most
])
def test_bad_combatant_values_name_the_field(value: str, fragment: str) -> None:
    p = _one(f"sides:\n  a: {{combatants: [{{name: A, hp: 1, {value}}}]}}\n  b: {{combatants: [{{name: B, hp: 1}}]}}\n")
    assert (p.line, p.path) == (2, f"sides.a.combatants[0].{value.split(':')[0]}")
    assert fragment in p.message


PLAN_HEAD = """\
sides:
  a: {combatants: [{name: A, hp: 5, weapons: [{name: club, sf: 4, damage: 1d6}], spells: [{name: sleep}]}]}
  b: {combatants: [{name: B, hp: 5}]}
plan:
  A:
"""


@pytest.mark.parametrize(("decl", "found"), [
    ("{melee: B, missile: B}", "melee, missile"),
    ("{weapon: club}", "none"),
])
def test_declaration_needs_exactly_one_action_key(decl: str, found: str) -> None:
    p = _one(PLAN_HEAD + f"    - {decl}\n")
    # the declaration is on line 6
    assert (p.line, p.path) == (6, "plan.A[0]")
    assert "exactly one action key" in p.message and f"found: {found}" in p.message
    assert "melee, missile, cast, move, misc, wait, none" in p.message


def test_every_plan_problem_at_once() -> None:
    problems = _problems(PLAN_HEAD + """\
    - {melee: Nobody}
    - {melee: B, weapon: axe}
    - {missile: B, weapon: club}
    - {cast: fireball}
    - {cast: sleep, at: nowhere}
    - {missile: B}
  Zed: [{none: true}]
""")
    # lines 6-11 are A's six declarations, line 12 the plan of a combatant that does not exist
    assert _where(problems) == [
        (6, "plan.A[0].melee"),    # unknown target
        (7, "plan.A[1].weapon"),   # a weapon A does not carry
        (8, "plan.A[2].weapon"),   # missile with a melee weapon
        (9, "plan.A[3].cast"),     # a spell A does not list
        (10, "plan.A[4].at"),      # `at` names neither a combatant nor a side
        (11, "plan.A[5].missile"), # nothing to shoot with
        (12, "plan.Zed"),          # unknown plan combatant
    ]
    m = [p.message for p in problems]
    assert "Nobody" in m[0] and "A, B" in m[0]               # lists the combatants
    assert "axe" in m[1] and "club" in m[1]                  # lists the weapons carried
    assert "melee weapon" in m[2]
    assert "fireball" in m[3] and "sleep" in m[3]            # lists the spells known
    assert "nowhere" in m[4] and "a, b" in m[4]              # lists the sides
    assert "Zed" in m[6]


def test_at_may_name_a_side_or_a_combatant() -> None:
    loaded = load_text(PLAN_HEAD + "    - {cast: sleep, at: b}\n    - {cast: sleep, at: B}\n")
    assert [d.at for d in loaded.encounter.plan["A"]] == ["b", "B"]


# ------------------------------------------------------ ruleset checks (dice for their die, options): side-d6

DICE_HEAD = """\
sides:
  a: {combatants: [{name: A, class: fighter, level: 1, hp: 5, mv: 12, weapons: [{name: club, sf: 4, damage: 2d4+1}]}]}
  b: {combatants: [{name: B, hp: 5}]}
plan:
  A:
"""


@pytest.mark.parametrize(("dice", "path", "fragment"), [
    ("{attack: 21}", "plan.A[0].dice.attack", "d20"),   # a d20 shows 1-20
    ("{attack: 0}", "plan.A[0].dice.attack", "d20"),
    ("{damage: 9}", "plan.A[0].dice.damage", "2-8"),    # 2d4 (the +1 is no die): 2-8
    ("{damage: 1}", "plan.A[0].dice.damage", "2-8"),    # two d4 show at least 2
    ("[{attack: 5}, {attack: 22}]", "plan.A[0].dice[1].attack", "d20"),
])
def test_g06_dice_out_of_range_for_their_die(dice: str, path: str, fragment: str) -> None:
    p = _one(DICE_HEAD + f"    - {{melee: B, dice: {dice}}}\n", ruleset="side-d6")
    assert (p.line, p.path) == (6, path)
    assert fragment in p.message


@pytest.mark.parametrize("dice", ["{attack: 20, damage: 8}", "{attack: 1, damage: 2}"])
def test_g06_dice_at_the_ends_of_their_range_pass(dice: str) -> None:
    # d20 1 and 20, 2d4 at 2 and 8: all possible
    prepare(load_text(DICE_HEAD + f"    - {{melee: B, dice: {dice}}}\n"), ruleset="side-d6")


def test_mj_12_charge_damage_range_is_twice_the_dice() -> None:
    # MJ-12: a charge throws twice the damage dice: 2d4 twice = 4d4, 4-16; distance 60 = half of MV 12 x 10 ft;
    # A is a fighter (a monster would need a weapon marked charge: true)
    ok = DICE_HEAD + "    - {melee: B, charge: true, distance: 60, dice: {damage: 16}}\n"
    prepare(load_text(ok), ruleset="side-d6")
    p = _one(DICE_HEAD + "    - {melee: B, charge: true, distance: 60, dice: {damage: 17}}\n", ruleset="side-d6")
    assert p.path == "plan.A[0].dice.damage" and "4-16" in p.message


def test_initiative_roll_7_on_a_d6() -> None:
    p = _one(TWO_SIDES + "rolls:\n  initiative:\n    1: {a: 7, b: 3}\n", ruleset="side-d6")
    # line 6: round 1's rolls
    assert p.line == 6
    assert p.path.startswith("rolls.initiative") and p.path.endswith(".a")
    assert "7" in p.message and "d6" in p.message


def test_surprise_roll_out_of_range_and_unknown_side() -> None:
    problems = _problems(TWO_SIDES + "rolls:\n  surprise: {a: 0}\n", ruleset="side-d6")
    assert _where(problems) == [(5, "rolls.surprise.a")]
    problems = _problems(TWO_SIDES + "rolls:\n  surprise: {c: 3}\n")
    assert _where(problems) == [(5, "rolls.surprise.c")]


def test_unknown_option_in_the_file_lists_the_valid_ones() -> None:
    p = _one("options: {bogus: 1}\n" + TWO_SIDES, ruleset="side-d6")
    assert (p.line, p.path) == (1, "options.bogus")
    assert "bogus" in p.message and "mutual_surprise" in p.message and "melee_disrupts" in p.message


@pytest.mark.parametrize(("options", "path", "fragment"), [
    ("{mutual_surprise: never}", "options.mutual_surprise", "both_lose, cancel"),  # MJ-08's two readings
    ("{melee_disrupts: maybe}", "options.melee_disrupts", "true or false"),       # MJ-06: a bool
    ("{default_morale: high}", "options.default_morale", "whole number"),         # G-07: a number
])
def test_bad_option_value(options: str, path: str, fragment: str) -> None:
    p = _one(f"options: {options}\n" + TWO_SIDES, ruleset="side-d6")
    assert (p.line, p.path) == (1, path)
    assert fragment in p.message


def test_every_ruleset_problem_at_once() -> None:
    text = """\
    options: {bogus: 1, melee_disrupts: maybe}
    sides:
      a: {combatants: [{name: A, hp: 5, weapons: [{name: club, sf: 4, damage: 1d6}]}]}
      b: {combatants: [{name: B, hp: 5}]}
    rolls:
      initiative:
        1: {a: 7, b: 0}
    plan:
      A:
        - {melee: B, dice: {attack: 21, damage: 7}}
    """
    problems = _problems(text, ruleset="side-d6")
    lines_paths = _where(problems)
    assert len(problems) == 6
    # line 1: both options; line 7: both initiative dice; line 10: the d20 and 1d6's 7
    assert [line for line, _ in lines_paths] == [1, 1, 7, 7, 10, 10]
    assert {p for _, p in lines_paths} >= {"options.bogus", "options.melee_disrupts", "plan.A[0].dice.attack",
                                           "plan.A[0].dice.damage"}


def test_plan_errors_and_dice_errors_reported_together() -> None:
    problems = _problems(DICE_HEAD + "    - {melee: Nobody}\n    - {melee: B, dice: {attack: 21}}\n",
                         ruleset="side-d6")
    # line 6: unknown target; line 7: a d20 cannot show 21
    assert _where(problems) == [(6, "plan.A[0].melee"), (7, "plan.A[1].dice.attack")]


def test_json_round_key_error_points_at_its_own_line() -> None:
    text = """\
{
  "sides": {
    "a": {"combatants": [{"name": "A", "hp": 3}]},
    "b": {"combatants": [{"name": "B", "hp": 3}]}
  },
  "rolls": {
    "initiative": {
      "1": {"a": 7}
    }
  }
}
"""
    p = _one(text, ruleset="side-d6")
    # line 8 holds round "1" and its a: 7 (line 7 is `"initiative": {`)
    assert p.line == 8
    assert p.path.endswith(".a")


def test_bad_outcome_item_is_one_problem() -> None:
    text = PLAN_HEAD + """\
    - melee: B
      outcome:
        - {hit: true, damage: 2}
        - {hit: true, damage: -3}
"""
    # line 9: the second outcome's damage -3 (outcome damage >= 0); nothing else is wrong
    assert _where(_problems(text)) == [(9, "plan.A[0].outcome[1].damage")]
