"""Dice (G-06): dice expressions, and our seeded Roller that records every die with its purpose."""

from __future__ import annotations

import random

import pytest

from affray.dice import DiceExpr, Roll, Roller, parse_dice

# ---------------------------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(("text", "groups", "bonus", "lo", "hi"), [
    ("1d8", ((1, 8),), 0, 1, 8),          # one d8: dice 1-8
    ("2d4+1", ((2, 4),), 1, 2, 8),        # two d4 (2-8), +1 kept apart as the bonus
    ("1d6-1", ((1, 6),), -1, 1, 6),       # one d6 (1-6), -1 as the bonus
    ("3", (), 3, 0, 0),                   # a plain number: no dice, bonus 3
    (3, (), 3, 0, 0),                     # the same, as a YAML integer
    ("1d6+1d4", ((1, 6), (1, 4)), 0, 2, 10),  # 1+1 = 2 to 6+4 = 10
])
def test_g02_parse_dice(text: str | int, groups: tuple[tuple[int, int], ...], bonus: int, lo: int,
                        hi: int) -> None:
    expr = parse_dice(text)
    assert isinstance(expr, DiceExpr)
    assert (expr.groups, expr.bonus, expr.dice_min, expr.dice_max) == (groups, bonus, lo, hi)
    assert str(expr) == str(text)  # written back as the file wrote it


@pytest.mark.parametrize(("text", "groups", "bonus"), [
    # The notations the d20 package read for affray (up to 0.1), every one still read the same way:
    ("d6", ((1, 6),), 0),                 # no count: one die
    ("1d6 + 1", ((1, 6),), 1),            # spaces between terms
    ("1 + 1d6", ((1, 6),), 1),            # the constant first
    ("1d6 +\t1", ((1, 6),), 1),           # a tab is a space
    ("+1d6", ((1, 6),), 0),               # a leading sign
    ("--2", (), 2),                       # minus minus two: +2
    ("1d6+-1", ((1, 6),), -1),            # plus minus one: -1
    ("1d6++1", ((1, 6),), 1),
    ("(1d6+1)", ((1, 6),), 1),            # parentheses
    ("((1d6))", ((1, 6),), 0),
    ("1d6-(-2)", ((1, 6),), 2),           # minus (minus two): +2
    ("-(-1d6)+1", ((1, 6),), 1),          # the die's sign is minus minus: added
    ("1d8 [slashing]", ((1, 8),), 0),     # an annotation, left aside
    ("1d6+1 [fire]", ((1, 6),), 1),
    ("1d6[a][b] + 2", ((1, 6),), 2),      # two annotations, then a term
    ("(1d4+1) [acid] - 1", ((1, 4),), 0),  # an annotated parenthesis: 1d4+1-1
    ("01d6", ((1, 6),), 0),               # leading zeros: one d6
    ("2d06+007", ((2, 6),), 7),
    ("2+-1", (), 1),                      # two minus one: 1
])
def test_g02_every_notation_the_old_parser_read(text: str, groups: tuple[tuple[int, int], ...], bonus: int) -> None:
    expr = parse_dice(text)
    assert (expr.groups, expr.bonus, str(expr)) == (groups, bonus, text)


@pytest.mark.parametrize("bad", [
    "2d", "d", "1d0", "0d6", "4d6kh3", "1d6*2", "abc", "", True, 1.5, None,
    "1D6", "1 d6", "1d 6", "1.5", "2.0", "1d6>3", "1d%", "d%", "10-1d4", "10-(1d4)", "-1d6+10",  # each d20 refused
    "1d6 [fire", "(1d6", "1d6)", "()", "(1,2)", "1d6 1", "1dd6", "1d6d6", "[x]1d6", "1d6 [a\nb]",
])
def test_g02_bad_dice_rejected_with_the_notation(bad: object) -> None:
    # every refusal says what to write instead (CONTRACT.md: `damage` is "1d8", "2d4+1" or a plain number)
    with pytest.raises(ValueError, match=r"1d8, 2d4\+1") as info:
        parse_dice(bad)
    assert repr(bad) in str(info.value) or str(bad) in str(info.value)


# ----------------------------------------------------------------------------------------------- roller

def _faces(roller: Roller, sides: int, n: int) -> list[int]:
    return [roller.die(sides, "check") for _ in range(n)]


def test_g06_same_seed_same_sequence() -> None:
    # "A given seed reproduces the same combat" (G-06): 50 d20 from two rollers of seed 42 agree
    assert _faces(Roller(42), 20, 50) == _faces(Roller(42), 20, 50)


def test_g06_different_seeds_differ() -> None:
    # 50 d20 matching by chance from two seeds: probability 20**-50; a roller ignoring its seed fails here
    assert _faces(Roller(1), 20, 50) != _faces(Roller(2), 20, 50)


def test_die_faces_in_range_and_all_appear() -> None:
    # 600 d6: every face 1-6 and nothing else (missing a face by chance: 6 * (5/6)**600, about 1e-47)
    assert set(_faces(Roller(3), 6, 600)) == {1, 2, 3, 4, 5, 6}


def test_dice_expression_rolls_each_die_and_omits_bonus() -> None:
    roller = Roller(9)
    total = roller.dice(parse_dice("2d4+1"), "damage", "Brom")
    rolls = roller.take()
    # two d4 recorded, one per die; the total is their sum, the +1 is the caller's (docstring: "bonus not added")
    assert [r.die for r in rolls] == ["d4", "d4"]
    assert total == sum(r.value for r in rolls)
    assert all(1 <= r.value <= 4 for r in rolls)


def test_dice_times_throws_the_dice_twice() -> None:
    # a charge throws twice the dice (MJ-12): 1d8 x 2 = two d8 recorded
    roller = Roller(9)
    total = roller.dice(parse_dice("1d8"), "damage", "Brom", times=2)
    rolls = roller.take()
    assert len(rolls) == 2
    assert total == rolls[0].value + rolls[1].value


def test_g06_every_die_recorded_with_purpose_and_actor() -> None:
    roller = Roller(5)
    a = roller.die(20, "attack", "Brom")
    d = roller.die(8, "damage", "Brom")
    s = roller.die(6, "surprise", "party")
    assert roller.take() == (
        Roll("attack", "Brom", "d20", a, "rng"),
        Roll("damage", "Brom", "d8", d, "rng"),
        Roll("surprise", "party", "d6", s, "rng"),
    )
    assert roller.take() == ()  # take() empties: each die goes to exactly one event


def test_g06_given_value_replaces_the_roll_and_is_recorded_as_file() -> None:
    # G-04/G-06: dice rolled at the table replace the engine's; recorded with source "file"
    roller = Roller(5)
    assert roller.die(20, "attack", "Brom", given=14) == 14
    assert roller.take() == (Roll("attack", "Brom", "d20", 14, "file"),)


def test_g06_given_value_consumes_no_rng() -> None:
    # a die entered at the table must not shift the seeded sequence of the dice after it
    plain, with_given = Roller(11), Roller(11)
    with_given.die(20, "attack", given=3)
    assert _faces(plain, 20, 10) == _faces(with_given, 20, 10)


def test_g06_given_total_for_an_expression() -> None:
    # the damage dice's total entered in the file: 2d4 showing 7, recorded once as "2d4" from "file"
    roller = Roller(5)
    assert roller.dice(parse_dice("2d4+1"), "damage", "Brom", given=7) == 7
    assert roller.take() == (Roll("damage", "Brom", "2d4", 7, "file"),)


def test_g06_provider_answers_as_referee() -> None:
    asked: list[tuple[int, int, str, str | None]] = []

    def provider(sides: int, count: int, purpose: str, actor: str | None) -> int | None:
        asked.append((sides, count, purpose, actor))
        return 4 if purpose == "initiative" else None

    roller = Roller(5, provider=provider)
    assert roller.die(6, "initiative", "party") == 4
    rolled = roller.die(20, "attack", "Brom")  # provider says None: the RNG rolls it
    assert roller.take() == (Roll("initiative", "party", "d6", 4, "referee"),
                             Roll("attack", "Brom", "d20", rolled, "rng"))
    assert asked == [(6, 1, "initiative", "party"), (20, 1, "attack", "Brom")]


def test_record_false_records_nothing() -> None:
    roller = Roller(5, record=False)
    roller.die(20, "attack", "Brom")
    roller.die(20, "attack", "Brom", given=12)
    roller.dice(parse_dice("2d6"), "morale", "orcs")
    assert roller.take() == ()


def test_record_false_rolls_the_same_dice() -> None:
    # recording is bookkeeping only: the lean mode must roll the same combat
    assert _faces(Roller(8, record=False), 12, 30) == _faces(Roller(8), 12, 30)


def test_the_rng_is_our_own_not_the_global_random() -> None:
    # STYLE.md "Avoid its global random": dice packages roll from the module-level `random`; our Roller must not
    random.seed(1234)
    before = random.getstate()
    roller = Roller(99)
    _faces(roller, 20, 25)
    roller.dice(parse_dice("3d6+2"), "damage", "Brom")
    parse_dice("4d8-1")
    assert random.getstate() == before


def test_the_global_random_does_not_change_our_rolls() -> None:
    # reseeding or draining the global `random` between rolls leaves the seeded sequence alone
    reference = _faces(Roller(77), 20, 20)
    random.seed(1)
    roller = Roller(77)
    first = _faces(roller, 20, 10)
    random.seed(2)
    random.random()
    assert first + _faces(roller, 20, 10) == reference


@pytest.mark.parametrize(("text", "groups", "bonus"), [
    ("1d8+1d6-2", ((1, 8), (1, 6)), -2),  # two groups, the constant apart
    ("10d10+100", ((10, 10),), 100),       # 10 dice (limit 100), constant 100 (limit 1000)
    ("08", (), 8),                         # a leading zero: eight
    ("1d8+1+1", ((1, 8),), 2),             # constants summed: 1 + 1
    ("1d4-1", ((1, 4),), -1),              # 1d4-1 rolls 0-3: can roll above 0
    ("100d1000+1000", ((100, 1000),), 1000),  # every limit reached, none passed
])
def test_g02_sums_within_the_limits(text: str, groups: tuple[tuple[int, int], ...], bonus: int) -> None:
    assert (parse_dice(text).groups, parse_dice(text).bonus) == (groups, bonus)


@pytest.mark.parametrize(("text", "why"), [
    ("0", "can never roll above 0"),                # 0 at most
    ("2d4-9", "can never roll above 0"),            # 2d4 is 8 at most: 8 - 9 = -1
    ("1d1-1", "can never roll above 0"),            # 1 - 1 = 0
    ("101d6", "throws 101 dice: at most 100"),      # MAX_DICE 100
    ("60d6+41d4", "throws 101 dice: at most 100"),  # 60 + 41 = 101 dice, the groups counted together
    ("1d1001", "at most 1000 faces"),               # MAX_DIE_SIDES 1000
    ("1d6+1001", "the constant is 1001"),           # MAX_MODIFIER 1000
    ("1d6-600-401", "the constant is -1001"),       # -600 - 401 = -1001
    ("1" * 41, "at most 40"),                       # MAX_DICE_TEXT 40 characters
])
def test_g02_the_limits_refuse_with_the_reason(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_dice(text)
