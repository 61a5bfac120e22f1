"""What a file may leave out (G-01): THAC0, attacks per round and the DEX adjustments, checked against the tables.

Sources: 2e DMG Table 38 (THAC0 by class group and level), 2e DMG Table 39 (monster THAC0 by Hit Dice),
RULES.md D12-14 (1e attacks per round), P2-07 (2e attacks per round), P1-02 (2e DEX reaction adjustment),
D12-04 (1e DEX reaction adjustment), 2e PH Table 2 (DEX defensive adjustment).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from affray.model.derive import (
    CLASS_GROUP,
    attacks_per_round,
    dex_defense_adjustment,
    dex_reaction_adjustment,
    hd_value,
    thac0_for,
)

# --------------------------------------------------------------------------------------------------------
# THAC0 by class and level: 2e DMG Table 38 (G-01: "THAC0, or a class/level/HD from which it follows").
# Warrior: 20 at 1st level, -1 every level        -> 21 - L
# Priest:  20 at 1st level, -2 every 3 levels     -> 20 - 2 * ((L - 1) // 3)
# Rogue:   20 at 1st level, -1 every 2 levels     -> 20 - (L - 1) // 2
# Wizard:  20 at 1st level, -1 every 3 levels     -> 20 - (L - 1) // 3
# --------------------------------------------------------------------------------------------------------


def test_class_groups_follow_dmg_table_37() -> None:
    # 2e DMG: warriors are fighter, paladin, ranger; priests cleric, druid; wizards mage, illusionist;
    # rogues thief, bard. The monk (1e only) fights on the cleric table in 1e, hence the priest row.
    assert CLASS_GROUP == {
        "fighter": "warrior", "paladin": "warrior", "ranger": "warrior",
        "cleric": "priest", "druid": "priest", "monk": "priest",
        "wizard": "wizard", "illusionist": "wizard",
        "thief": "rogue", "bard": "rogue",
    }


@pytest.mark.parametrize(("cls", "level", "expected"), [
    # warrior: 21 - L
    ("fighter", 1, 20),    # 21 - 1 = 20
    ("fighter", 7, 14),    # 21 - 7 = 14 (the CONTRACT.md example Brom: level 7, thac0 14)
    ("fighter", 12, 9),    # 21 - 12 = 9
    ("fighter", 20, 1),    # 21 - 20 = 1 (Table 38's last column)
    ("paladin", 5, 16),    # 21 - 5 = 16
    ("ranger", 10, 11),    # 21 - 10 = 11
    # priest: 20 - 2 * ((L - 1) // 3)
    ("cleric", 1, 20),     # 20 - 2*((1-1)//3) = 20 - 0 = 20
    ("cleric", 3, 20),     # 20 - 2*((3-1)//3) = 20 - 2*0 = 20
    ("cleric", 4, 18),     # 20 - 2*((4-1)//3) = 20 - 2*1 = 18
    ("cleric", 5, 18),     # 20 - 2*((5-1)//3) = 18 (DMG: "A 5th level cleric would have a THAC0 of 18")
    ("cleric", 7, 16),     # 20 - 2*((7-1)//3) = 20 - 2*2 = 16
    ("druid", 10, 14),     # 20 - 2*((10-1)//3) = 20 - 2*3 = 14
    ("druid", 20, 8),      # 20 - 2*((20-1)//3) = 20 - 2*6 = 8
    ("monk", 6, 18),       # priest row: 20 - 2*((6-1)//3) = 20 - 2*1 = 18
    # rogue: 20 - (L - 1) // 2
    ("thief", 1, 20),      # 20 - 0 = 20
    ("thief", 2, 20),      # 20 - (2-1)//2 = 20 - 0 = 20
    ("thief", 3, 19),      # 20 - (3-1)//2 = 20 - 1 = 19
    ("thief", 10, 16),     # 20 - (10-1)//2 = 20 - 4 = 16
    ("bard", 20, 11),      # 20 - (20-1)//2 = 20 - 9 = 11
    # wizard: 20 - (L - 1) // 3
    ("wizard", 1, 20),     # 20 - 0 = 20
    ("wizard", 3, 20),     # 20 - (3-1)//3 = 20 - 0 = 20
    ("wizard", 4, 19),     # 20 - (4-1)//3 = 20 - 1 = 19
    ("wizard", 5, 19),     # 20 - (5-1)//3 = 20 - 1 = 19 (the CONTRACT.md example Mina)
    ("illusionist", 13, 16),  # 20 - (13-1)//3 = 20 - 4 = 16
    ("illusionist", 20, 14),  # 20 - (20-1)//3 = 20 - 6 = 14
])
def test_g01_thac0_by_class_and_level_dmg_table_38(cls: str, level: int, expected: int) -> None:
    assert thac0_for(cls, level, None) == expected


def test_g01_class_and_level_win_over_hd() -> None:
    # a 3rd-level fighter with hd 8 listed: the class/level row applies, 21 - 3 = 18 (HD 8 would give 13)
    assert thac0_for("fighter", 3, "8") == 18


def test_g01_thac0_20_with_neither_level_nor_hd() -> None:
    # CONTRACT.md "Fields and defaults": "(20 with neither)"
    assert thac0_for("monster", None, None) == 20
    assert thac0_for("fighter", None, None) == 20


# --------------------------------------------------------------------------------------------------------
# Monsters: 2e DMG Table 39. HD <= 1-1: 20; 1, 1+: 19; 2: 19; 3-4: 17; 5-6: 15; 7-8: 13; 9-10: 11;
# 11-12: 9; 13-14: 7; 15-16 and 16+: 5. "Three or more points added to HD count another die."
# --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("hd", "expected"), [
    ("1/2", 20),    # "1/2 or less" column
    ("½", 20),      # the same, as printed in the books
    (0.5, 20),      # the same, as a YAML number
    ("1-1", 20),    # "1-1" column
    ("1", 19),      # "1" column
    ("1+1", 19),    # "1+" column (+1 is fewer than three points: still 1 HD)
    ("1+2", 19),    # "1+" column
    ("2", 19),      # "2" column
    (2, 19),        # the same, as a YAML integer
    ("2+3", 17),    # +3 counts another die: HD 3 -> 17 (HD 2 would be 19)
    ("3", 17),      # "3" column
    ("3+2", 17),    # +2 does not count: HD 3 -> 17
    ("3+3", 17),    # +3 counts another die: HD 4 -> 17
    ("4", 17),      # "4" column
    ("4+3", 15),    # +3 counts another die: HD 5 -> 15 (HD 4 would be 17)
    ("5", 15),
    ("6", 15),
    ("7", 13),
    ("8", 13),
    ("9", 11),
    ("10", 11),
    ("11", 9),
    ("12", 9),
    ("13", 7),
    ("14", 7),
    ("15", 5),
    ("16", 5),
    ("17", 5),      # "16+" column stays at 5
    ("20", 5),      # "16+" column
    ("16+4", 5),    # 17 effective HD: "16+" column
])
def test_g01_monster_thac0_by_hd_dmg_table_39(hd: str | float, expected: int) -> None:
    assert thac0_for("monster", None, hd) == expected


@pytest.mark.parametrize(("hd", "expected"), [
    ("3+3", 4.0),   # DMG: three or more added points count another die: 3 + 1 = 4
    ("3+2", 3.0),   # two points do not
    ("1-1", 0.5),   # below 1 HD, above 1/2
    ("1/2", 0.5),
    (" 5 ", 5.0),   # spaces tolerated
])
def test_hd_value(hd: str, expected: float) -> None:
    assert hd_value(hd) == expected


@pytest.mark.parametrize("bad", ["three", "3d8", "", "+3"])
def test_hd_value_rejects_non_hd_with_the_notation(bad: str) -> None:
    with pytest.raises(ValueError, match=r"3\+3"):
        hd_value(bad)


# --------------------------------------------------------------------------------------------------------
# Attacks per round, 1e: D12-14 "1/1, 3/2, 2/1 at levels: fighter 1-6, 7-12, 13+; paladin 1-7, 8-13, 14+;
# ranger 1-7, 8-14, 15+; monk 1-5, 6-11, 12+". Each class at both ends of each band.
# --------------------------------------------------------------------------------------------------------

ONE, THREE_HALVES, TWO, FIVE_HALVES = Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5, 2)


@pytest.mark.parametrize(("cls", "level", "expected"), [
    ("fighter", 1, ONE), ("fighter", 6, ONE),                  # 1-6: 1/1
    ("fighter", 7, THREE_HALVES), ("fighter", 12, THREE_HALVES),  # 7-12: 3/2
    ("fighter", 13, TWO), ("fighter", 20, TWO),                # 13+: 2/1
    ("paladin", 7, ONE), ("paladin", 8, THREE_HALVES),         # 1-7 | 8-13
    ("paladin", 13, THREE_HALVES), ("paladin", 14, TWO),       # 8-13 | 14+
    ("ranger", 7, ONE), ("ranger", 8, THREE_HALVES),           # 1-7 | 8-14
    ("ranger", 14, THREE_HALVES), ("ranger", 15, TWO),         # 8-14 | 15+
    ("monk", 5, ONE), ("monk", 6, THREE_HALVES),               # 1-5 | 6-11
    ("monk", 11, THREE_HALVES), ("monk", 12, TWO),             # 6-11 | 12+
    ("cleric", 20, ONE),    # not in D12-14's list: 1
    ("wizard", 15, ONE),
    ("thief", 15, ONE),
    ("monster", None, ONE),  # no level: 1
])
def test_d12_14_attacks_per_round_1e(cls: str, level: int | None, expected: Fraction) -> None:
    assert attacks_per_round(cls, level, scheme="1e") == expected


@pytest.mark.parametrize(("level", "specialist", "expected"), [
    # P2-07: "Fighters: levels 1-6 (and every non-fighter) 1; 7-12 3/2; 13+ 2."
    (1, False, ONE), (6, False, ONE),
    (7, False, THREE_HALVES), (12, False, THREE_HALVES),
    (13, False, TWO), (18, False, TWO),
    # P2-07: "Weapon specialists ...: levels 1-6 3/2; 7-12 2; 13+ 5/2"
    # ("a 7th-level specialist has 2": both seed examples)
    (1, True, THREE_HALVES), (6, True, THREE_HALVES),
    (7, True, TWO), (12, True, TWO),
    (13, True, FIVE_HALVES), (18, True, FIVE_HALVES),
])
def test_p2_07_fighter_attacks_per_round_2e(level: int, specialist: bool, expected: Fraction) -> None:
    assert attacks_per_round("fighter", level, scheme="2e", specialist=specialist) == expected


@pytest.mark.parametrize("cls", ["cleric", "druid", "wizard", "illusionist", "thief", "bard", "monk"])
def test_p2_07_every_non_fighter_has_1(cls: str) -> None:
    # P2-07: "(and every non-fighter) 1", at any level, specialist flag or not
    assert attacks_per_round(cls, 15, scheme="2e") == ONE
    assert attacks_per_round(cls, 15, scheme="2e", specialist=True) == ONE


def test_attacks_per_round_unknown_scheme_is_refused() -> None:
    with pytest.raises(ValueError, match="3e"):
        attacks_per_round("fighter", 7, scheme="3e")


# --------------------------------------------------------------------------------------------------------
# DEX reaction adjustment (positive is better and is subtracted from the initiative die).
# --------------------------------------------------------------------------------------------------------

# P1-02 (2nd-edition PH Table 2): 1: -6, 2: -4, 3: -3, 4: -2, 5: -1, 6-15: 0, 16: +1, 17: +2, 18: +2,
# 19-20: +3, 21-23: +4, 24-25: +5. Every score 1-25.
P1_02 = {1: -6, 2: -4, 3: -3, 4: -2, 5: -1,
         **dict.fromkeys(range(6, 16), 0),
         16: 1, 17: 2, 18: 2, 19: 3, 20: 3, 21: 4, 22: 4, 23: 4, 24: 5, 25: 5}


@pytest.mark.parametrize(("dex", "expected"), sorted(P1_02.items()))
def test_p1_02_dex_reaction_adjustment_2e(dex: int, expected: int) -> None:
    assert dex_reaction_adjustment(dex) == expected
    assert dex_reaction_adjustment(dex, edition="2e") == expected


# D12-04 (1st-edition reaction adjustment): 3: -3, 4: -2, 5: -1, 6-15: 0, 16: +1, 17: +2, 18: +3.
D12_04 = {3: -3, 4: -2, 5: -1, **dict.fromkeys(range(6, 16), 0), 16: 1, 17: 2, 18: 3}


@pytest.mark.parametrize(("dex", "expected"), sorted(D12_04.items()))
def test_d12_04_dex_reaction_adjustment_1e(dex: int, expected: int) -> None:
    assert dex_reaction_adjustment(dex, edition="1e") == expected


def test_d12_04_and_p1_02_differ_at_18() -> None:
    # 18: +3 in 1e (D12-04) but +2 in 2e (P1-02): the edition switch matters
    assert (dex_reaction_adjustment(18, edition="1e"), dex_reaction_adjustment(18, edition="2e")) == (3, 2)


# DEX defensive adjustment to AC (2e PH Table 2; negative is better, descending AC):
# 1-2: +5, 3: +4, 4: +3, 5: +2, 6: +1, 7-14: 0, 15: -1, 16: -2, 17: -3, 18: -4, 19-20: -4, 21-23: -5, 24-25: -6.
DEFENSE = {1: 5, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1, **dict.fromkeys(range(7, 15), 0),
           15: -1, 16: -2, 17: -3, 18: -4, 19: -4, 20: -4, 21: -5, 22: -5, 23: -5, 24: -6, 25: -6}


@pytest.mark.parametrize(("dex", "expected"), sorted(DEFENSE.items()))
def test_dex_defensive_adjustment_2e_ph_table_2(dex: int, expected: int) -> None:
    assert dex_defense_adjustment(dex) == expected
