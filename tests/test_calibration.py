"""docs/calibration.md, line by line: figures others have published, reproduced by affray's exact odds (equal) and by
simulations of its engine (the published figure inside the simulated figure's interval). Each published figure is
worked by hand below from the procedure it describes; the sources are the page's. The fixtures are the page's own
files (checked to be there, word for word), so the page's commands reproduce what is tested here.

The intervals are 99.9% ones (z = 3.29), as the page shows them: the page checks a dozen figures, and a dozen 95%
intervals would miss at least one true figure in nearly half of all runs by chance alone (1 - 0.95^12 = 46%); at
99.9%, in about one run in a hundred (1 - 0.999^12 = 1.2%). The seeds are the page's, not chosen to pass."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from affray.odds import Contender, contest, first, hits_to_kill
from affray.sim import Interval, simulate, wilson
from affray.sim.stats import Z95, Mean

DOCS = Path(__file__).resolve().parents[1] / "docs" / "calibration.md"

#: One combatant a side, aware of each other, whose first blow always hits (a natural 20, G-04) and fells the other
#: (1 damage, 1 hit point): the first side wins when it acts first, a tie fells both (no winner: a draw).
DUEL = """\
ruleset: side-d6
surprise: none
sides:
  first:
    combatants: [{name: A, hp: 1, ac: 10, weapons: [{name: sword, sf: 5, damage: 1d8}]}]
  second:
    combatants: [{name: B, hp: 1, ac: 10, weapons: [{name: sword, sf: 5, damage: 1d8}]}]
plan:
  A: [{melee: B, dice: {attack: 20, damage: 1}}]
  B: [{melee: A, dice: {attack: 20, damage: 1}}]
"""
#: A hero who strikes once a round and always hits (THAC0 1 against AC 10: a d20 of -9 or more, with natural_20
#: false), against a creature of 1d6 hit points; it strikes back for 1 against 10,000. One hit a round: the fight's
#: length in rounds is the hits that felled the creature.
HITS = """\
ruleset: side-d6
surprise: none
sides:
  party:
    pc: true
    combatants: [{name: Hero, hp: 10000, thac0: 1, attacks: 1, weapons: [{name: club, sf: 4, damage: 1d6}]}]
  monster:
    combatants: [{name: Beast, hp: 1d6, ac: 10, weapons: [{name: claw, sf: 1, damage: 1}]}]
"""


#: The normal quantile of a two-sided 99.9% interval.
Z999 = 3.2905


def _within(i: Interval, p: float | Fraction) -> bool:
    return i.low <= float(p) <= i.high


def _rate(successes: int, trials: int) -> Interval:
    return wilson(successes, trials, Z999)


def _mean(m: Mean) -> tuple[float, float]:
    """The 99.9% interval of a mean simulate reports with its 95% one (the same mean and standard error)."""
    half = (m.high - m.mean) * Z999 / Z95
    return m.mean - half, m.mean + half


def test_the_pages_files_are_the_tested_ones() -> None:
    page = DOCS.read_text(encoding="utf-8")
    assert f"```yaml\n{DUEL}```" in page and f"```yaml\n{HITS}```" in page


def test_side_initiative_d6_one_on_one_wins_15_in_36_and_ties_6_in_36(tmp_path: Path) -> None:
    """Published (Math of Old-School D&D, 2011): of the 36 pairs of d6s, the first side's is higher in 15
    (5 + 4 + 3 + 2 + 1: against a 1, five faces beat it; against a 2, four...), the same in 6, lower in 15. side-d6:
    each side rolls 1d6, the higher acts first, a tie acts together (MJ-04, MJ-07)."""
    order = first("side-d6", Contender(), Contender())
    assert (order.a, order.together, order.b) == (Fraction(15, 36), Fraction(6, 36), Fraction(15, 36))
    roll = contest("1d6", "1d6")
    assert (roll.a, roll.together) == (Fraction(15, 36), Fraction(6, 36))
    duel = tmp_path / "duel.yaml"
    duel.write_text(DUEL, encoding="utf-8")
    stats = simulate(duel, rulesets="side-d6", fights=4000, seed=1, max_rounds=1, workers=1).rulesets["side-d6"]
    assert _within(_rate(stats.wins["first"], stats.fights), Fraction(15, 36))
    assert _within(_rate(stats.wins["second"], stats.fights), Fraction(15, 36))
    assert _within(_rate(stats.draws, stats.fights), Fraction(6, 36))


def test_a_plus_1_on_the_d6_wins_one_sixth_more_and_21_in_31_with_ties_rolled_again() -> None:
    """Published (Turnwatcher): +1 on one side's d6 puts it "ahead by 1/6th": 15/36 + 6/36 = 21/36 (the old ties become
    its wins: d6 + 1 > d6 for the 15 pairs it won and the 6 it tied). Ties now: d6 + 1 = d6 in 5 pairs (the other's
    die one higher, 2-6); the other wins 36 - 21 - 5 = 10. BATTLESYSTEM 5.1 rolls every tie again, so each side's
    chance is its share of the decided rolls: 21 / (21 + 10) = 21/31."""
    kept = contest("1d6+1", "1d6")
    assert (kept.a, kept.together, kept.b) == (Fraction(21, 36), Fraction(5, 36), Fraction(10, 36))
    assert kept.a - Fraction(15, 36) == Fraction(1, 6)
    again = contest("1d6+1", "1d6", ties="reroll")
    assert (again.a, again.together, again.b) == (Fraction(21, 31), Fraction(0), Fraction(10, 31))


def test_the_2e_d10_the_lower_first_wins_45_in_100_and_ties_10_in_100(tmp_path: Path) -> None:
    """The 2nd edition Player's Handbook: a d10 a side, the lower acts first, a tie together. Of the 100 pairs the
    first side's is lower in 9 + 8 + ... + 1 = 45 and equal in 10. combat2-phase1: the winner of the d10 takes the
    winner track, a tie leaves both on the loser track (P1-01, P1-02, option tie_track: loser); two SF 5 blows fall in
    the same band (P1-04), so the winner's comes first and tied blows land together."""
    order = first("combat2-phase1", Contender(), Contender())
    assert (order.a, order.together) == (Fraction(45, 100), Fraction(10, 100))
    roll = contest("1d10", "1d10", low=True)
    assert (roll.a, roll.together) == (Fraction(45, 100), Fraction(10, 100))
    duel = tmp_path / "duel.yaml"
    duel.write_text(DUEL, encoding="utf-8")
    stats = simulate(duel, rulesets="combat2-phase1", fights=4000, seed=1, max_rounds=1,
                     workers=1).rulesets["combat2-phase1"]
    assert _within(_rate(stats.wins["first"], stats.fights), Fraction(45, 100))
    assert _within(_rate(stats.wins["second"], stats.fights), Fraction(45, 100))
    assert _within(_rate(stats.draws, stats.fights), Fraction(10, 100))


@pytest.mark.parametrize(("hp", "published"), [("1d6", (1.45, 1.55)), ("4d6", (4.2, 4.6)), ("15d6", None)])
def test_hits_to_kill_by_hit_dice(tmp_path: Path, hp: str, published: tuple[float, float] | None) -> None:
    """Published (Delta's D&D Hotspot, d6 Hit Dice and d6 damage): 1.5 hits for 1 HD, 1.1 hits a HD for 4 HD (4.2 to
    4.6, read to one decimal), and 15 HD "only 10 times" the hits of 1 HD (9.5 to 10.5); about HD + 0.5 in general.

    By hand for 1 HD: m(h), the mean number of d6 hits to deal h or more, is 1 + (m(h-1) + ... + m(h-6)) / 6 with
    m(h) = 0 for h <= 0: m(1) = 1, m(2) = 7/6, m(3) = 1 + (7/6 + 1)/6 = 49/36, and so on, m(h) = (7/6)^(h-1) for h up
    to 6. The creature's d6 hit points are each 1/6: the mean is (1 + 7/6 + ... + (7/6)^5) / 6 = (7/6)^6 - 1 =
    70993/46656 = 1.5216. The same recursion over 4d6 and 15d6 hit points gives 4.476 and 15.476: HD + 0.5 within
    0.03, as published."""
    exact = hits_to_kill(hp, "1d6")
    if hp == "1d6":
        assert exact.mean == Fraction(7, 6) ** 6 - 1 == Fraction(70993, 46656)
    n = int(hp.split("d")[0])
    assert abs(float(exact.mean) - (n + 0.5)) < 0.03  # about HD + 0.5, as published
    file = tmp_path / "hits.yaml"
    file.write_text(HITS.replace("hp: 1d6", f"hp: {hp}"), encoding="utf-8")
    sim_low, sim_high = _mean(simulate(file, rulesets="side-d6", fights=2000, seed=1, options={"natural_20": False},
                                       workers=1).rulesets["side-d6"].length.mean_interval)
    assert sim_low <= float(exact.mean) <= sim_high  # the engine's hits, by its own dice, agree with the odds
    if published is not None:
        low, high = published
        assert low <= float(exact.mean) < high and sim_low < high and sim_high >= low
    else:
        one = hits_to_kill("1d6", "1d6").mean
        assert 9.5 <= exact.mean / one < 10.5  # 15.476 / 1.5216 = 10.17 times


def test_the_pages_odds_commands_print_the_exact_figures() -> None:
    """`affray odds contest` and `affray odds kill` as the page runs them (JSON: each figure as a fraction too); a roll
    that is not dice, or a tie rule that is not one, is exit 2 saying what is wrong."""
    from cli_run import affray_here

    done = affray_here("odds", "contest", "--a", "1d6+1", "--b", "1d6", "--ties", "reroll", "--json")
    assert done.returncode == 0, done.stderr
    assert '"a": "21/31"' in done.stdout and '"b": "10/31"' in done.stdout
    done = affray_here("odds", "kill", "--hp", "1d6", "--damage", "1d6", "--json")
    assert done.returncode == 0 and '"mean": "70993/46656"' in done.stdout
    assert '"1": "7/12"' in done.stdout  # one hit fells it when the d6 of damage is at least its d6 hp: 21/36
    for args, words in ((("contest", "--a", "1d6", "--b", "d6x"), "--b d6x"),
                        (("contest", "--a", "1d6", "--b", "1d6", "--ties", "coin"), "--ties 'coin'"),
                        (("kill", "--hp", "0d6", "--damage", "1d6"), "--hp 0d6")):
        done = affray_here("odds", *args)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr
