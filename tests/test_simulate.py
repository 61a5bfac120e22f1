"""``affray simulate`` / ``affray compare`` and ``affray.simulate`` (CONTRACT.md "Simulation")."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from affray.sim import BATCH_SIZE, SIMULTANEOUS, fight_seeds, simulate, wilson
from affray.sim.runner import plan
from cli_run import affray_here
from conftest import EXAMPLES

AFFRAY = str(Path(sys.executable).parent / "affray")
ROOT = Path(__file__).resolve().parents[1]
ORCS = ROOT / "benchmarks" / "fighters_vs_orcs.yaml"
SKIRMISH = EXAMPLES / "skirmish.yaml"


def affray(*args: str | Path) -> subprocess.CompletedProcess[str]:
    # In this process: a command's pool of workers (--workers N, or every core) is forked as the command starts, as
    # the intervals' coverage test forks its own here, and joined before it ends; only the workers ignore SIGINT.
    return affray_here(*args)


def bad_input(done: subprocess.CompletedProcess[str]) -> str:
    """Exit 2, a message on stderr, no traceback (CONTRACT.md "Exit status")."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stderr.strip()
    return done.stderr


def write(tmp_path: Path, text: str, name: str = "fight.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- the 95% interval ----------------------------------------------------------------------------------------
def test_wilson_interval_worked_by_hand() -> None:
    """z = 1.959964, z^2 = 3.841459.
    0 of 10: low 0, high z^2 / (n + z^2) = 3.841459 / 13.841459 = 0.277533.
    10 of 10: low n / (n + z^2) = 10 / 13.841459 = 0.722467, high 1.
    1410 of 2000 (CONTRACT's example): p = 0.705, z^2/n = 0.00192073,
    centre = (0.705 + 0.00096037) / 1.00192073 = 0.704607,
    half = 1.959964 / 1.00192073 * sqrt(0.705 * 0.295 / 2000 + 3.841459 / 16e6) = 0.019971:
    [0.684636, 0.724578], CONTRACT's 0.685 and 0.725 to three places."""
    assert wilson(0, 10).to_dict() == {"p": 0.0, "low": 0.0, "high": 0.277533}
    assert wilson(10, 10).to_dict() == {"p": 1.0, "low": 0.722467, "high": 1.0}
    assert wilson(1410, 2000).to_dict() == {"p": 0.705, "low": 0.684636, "high": 0.724578}
    for k in range(0, 201):  # the interval holds its own rate exactly, the floats' rounding notwithstanding
        i = wilson(k, 200)
        assert 0.0 <= i.low <= i.p <= i.high <= 1.0


DUEL = """\
surprise: none
sides:
  red:
    pc: true
    combatants:
      - {name: Red, hp: 1, ac: 0, thac0: 11, weapons: [{name: club, sf: 5, damage: 1}]}
  blue:
    pc: true
    combatants:
      - {name: Blue, hp: 1, ac: 0, thac0: 11, weapons: [{name: club, sf: 5, damage: 1}]}
"""
# One round of side-d6, each side one blow that kills on a hit. THAC0 11 - AC 0 = 11: a d20 of 11-20 hits, 1/2
# (G-04; natural 1 and 20 agree). Each side rolls a d6, high first, a tie simultaneous (MJ-04, MJ-07):
#   Red wins initiative (15/36): Red hits (1/2); else Blue strikes back: Blue wins 1/4, nobody 1/4.
#   Tie (6/36): both strike together (deaths after, G-05): Red alone hits 1/4, Blue alone 1/4, both or neither 1/2.
#   Blue wins initiative (15/36): Blue hits 1/2; else Red hits 1/4.
# P(Red wins) = 15/36 * 1/2 + 6/36 * 1/4 + 15/36 * 1/4 = (7.5 + 1.5 + 3.75) / 36 = 12.75 / 36 = 17/48;
# the same for Blue; a draw (--max-rounds 1: nobody won within the round) 1 - 34/48 = 14/48.
RED = 17 / 48
DRAW = 14 / 48


#: The Wilson interval's exact coverage at n = 200 (the binomial summed over the counts whose interval holds p),
#: and the fewest of 200 independent simulations that must cover: fewer happens with probability below 1e-4.
COVERAGE = {"win": (0.9544, 178), "draw": (0.9482, 176)}


def test_the_intervals_cover_the_exact_odds_of_a_one_blow_fight(tmp_path: Path) -> None:
    """200 simulations of 200 fights (seeds 0-199), each reporting 95% intervals: the number covering 17/48
    (each side's win) and 14/48 (a draw) is Binomial(200, coverage), at least the COVERAGE threshold. Pooled,
    the 40,000 fights' own intervals cover too."""
    path = write(tmp_path, DUEL)
    covered = {"red": 0, "blue": 0, "draw": 0}
    red = draws = 0
    with ProcessPoolExecutor(2) as pool:  # one pool serves the 200 simulations
        runs = [simulate(path, rulesets="side-d6", fights=200, seed=seed, max_rounds=1, executor=pool)
                for seed in range(200)]
    for run in runs:
        s = run.rulesets["side-d6"]
        assert s.fights == 200
        covered["red"] += s.win_rate["red"].low <= RED <= s.win_rate["red"].high
        covered["blue"] += s.win_rate["blue"].low <= RED <= s.win_rate["blue"].high
        covered["draw"] += s.draw_rate.low <= DRAW <= s.draw_rate.high
        red += s.wins["red"]
        draws += s.draws
    assert covered["red"] >= COVERAGE["win"][1] and covered["blue"] >= COVERAGE["win"][1], covered
    assert covered["draw"] >= COVERAGE["draw"][1], covered
    assert wilson(red, 40000).low <= RED <= wilson(red, 40000).high
    assert wilson(draws, 40000).low <= DRAW <= wilson(draws, 40000).high


def test_coverage_threshold_arithmetic() -> None:
    """The numbers of COVERAGE, recomputed: the exact coverage and the binomial tail below the threshold."""
    for p, (coverage, least) in ((RED, COVERAGE["win"]), (DRAW, COVERAGE["draw"])):
        n = 200
        exact = sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)
                    if wilson(k, n).low <= p <= wilson(k, n).high)
        assert round(exact, 4) == coverage

        def below(t: int, c: float = exact) -> float:
            return sum(comb(200, x) * c**x * (1 - c) ** (200 - x) for x in range(t))

        assert below(least) < 1e-4 <= below(least + 1)


# -- the same results whatever runs them ----------------------------------------------------------------------
def test_seeds_come_from_the_seed_sequence_in_fixed_batches() -> None:
    """250 fights: batches of 100, 100 and 50; fight i of batch k is SeedSequence(seed).spawn(3)[k]
    .generate_state(100)[i]; the first batches do not depend on N (a longer run starts with the same fights)."""
    seeds = fight_seeds(9, 250)
    assert [len(b) for b in seeds] == [BATCH_SIZE, BATCH_SIZE, 50]
    children = np.random.SeedSequence(9).spawn(3)
    assert seeds[2][49] == int(children[2].generate_state(BATCH_SIZE, dtype=np.uint32)[49])
    assert fight_seeds(9, 120)[0] == seeds[0]
    assert fight_seeds(9, 120)[1] == seeds[1][:20]


def _json(*args: str | Path) -> dict[str, Any]:
    done = affray("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_json_is_identical_for_one_worker_two_workers_and_a_dask_cluster() -> None:
    """CONTRACT: the results are a function of the file, options, rulesets, N and S alone. 120 fights (batches
    of 100 and 20) under the six rulesets and a two-point sweep: 24 batches, in whatever order they finish."""
    from distributed import LocalCluster

    args = (ORCS, "--ruleset", "all", "--fights", "120", "--seed", "4", "--set", "crits=none,c2-severity")
    one = _json(*args, "--workers", "1")
    two = _json(*args, "--workers", "2")
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None) as cluster:
        dask = _json(*args, "--scheduler", cluster.scheduler_address)
    assert one == two == dask
    assert one["fights"] == 120 and one["seed"] == 4 and one["sweep"] == ["crits"]
    assert [p["values"] for p in one["points"]] == [{"crits": "none"}, {"crits": "c2-severity"}]
    side = one["rulesets"]["side-d6"]  # CONTRACT's shape; pooled over the two points
    assert side["fights"] == 240
    assert side["wins"]["fighters"] + side["wins"]["orcs"] + side["draws"] == 240
    assert set(side["win_rate"]["fighters"]) >= {"p", "low", "high"}


def test_a_sweep_point_is_the_same_as_that_file_and_option_alone(tmp_path: Path) -> None:
    """The grid point (crits c2-severity, the first orc's hp 9) plays exactly the fights of a plain run with
    that option on a file with that hp: same seeds, same results (common random numbers)."""
    swept = simulate(ORCS, rulesets="side-d6", fights=150, seed=2, workers=1, options={},
                     sweep=[_axis("crits=none,c2-severity", "set"), _axis("sides.orcs.combatants[0].hp=8..9")])
    assert [p.values for p in swept.points] == [
        {"crits": "none", "sides.orcs.combatants[0].hp": 8}, {"crits": "none", "sides.orcs.combatants[0].hp": 9},
        {"crits": "c2-severity", "sides.orcs.combatants[0].hp": 8},
        {"crits": "c2-severity", "sides.orcs.combatants[0].hp": 9}]
    text = ORCS.read_text(encoding="utf-8").replace("thac0: 19, hp: 5, ac: 6", "thac0: 19, hp: 9, ac: 6")
    alone = simulate(write(tmp_path, text), rulesets="side-d6", fights=150, seed=2, workers=1,
                     options={"crits": "c2-severity"})
    got = swept.points[3].rulesets["side-d6"].to_dict()
    want = alone.rulesets["side-d6"].to_dict()
    assert got["options"] == want["options"] == {"crits": "c2-severity"}
    assert got == want
    assert swept.rulesets["side-d6"].fights == 600  # pooled over the four points


def _axis(item: str, kind: str = "vary") -> Any:
    from affray.sim import field_axis, option_axis

    return option_axis(item) if kind == "set" else field_axis(item)


def test_per_fight_frame_and_progress() -> None:
    """The DataFrame has one row per fight, and its winners add up to the summary's; progress is told every
    batch (250 fights: 100, 100, 50) against the total; the first 100 fights of N = 250 are those of N = 100."""
    told: list[tuple[int, int]] = []
    sim = simulate(ORCS, rulesets="d12-procedure", fights=250, seed=3, workers=1, per_fight=True,
                   progress=lambda n, total: told.append((n, total)))
    assert told == [(100, 250), (100, 250), (50, 250)]
    frame = sim.frame()
    assert len(frame) == 250
    stats = sim.rulesets["d12-procedure"]
    assert (frame["winner"] == "fighters").sum() == stats.wins["fighters"]
    assert frame["winner"].isna().sum() == stats.draws
    assert frame["length"].mean() == pytest.approx(stats.length.mean)
    assert {"ruleset", "point", "fight", "seed", "first_blow", "spells_completed", "dealt_fighters",
            "taken_orcs", "down_orcs", "broke_orcs"} <= set(frame.columns)
    short = simulate(ORCS, rulesets="d12-procedure", fights=100, seed=3, workers=1, per_fight=True).frame()
    assert short.equals(frame.iloc[:100])


def test_frame_needs_per_fight() -> None:
    sim = simulate(ORCS, rulesets="side-d6", fights=5, seed=1, workers=1)
    with pytest.raises(ValueError, match="per_fight=True"):
        sim.frame()


# -- what a fight comes to: hand-worked fights with every die given -------------------------------------------
WORKED = """\
surprise: none
sides:
  party:
    pc: true
    combatants:
      - {name: Mina, class: wizard, level: 5, hp: 10, spells: [{name: bolt, level: 2, ct: 1, damage: 4}]}
      - {name: Brom, class: fighter, level: 3, hp: 10, weapons: [{name: sword, sf: 5, damage: 1d8}]}
  orcs:
    morale: 12
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
rolls:
  initiative: {1: {party: 5, orcs: 2}}
plan:
  Mina: [{cast: bolt, at: Orc 1}]
  Brom: [{melee: Orc 2, outcome: {hit: true, damage: 3}}]
  Orc 1: [{melee: Mina, outcome: {hit: true, damage: 2}}]
  Orc 2: [{melee: Brom, outcome: {hit: true, damage: 5}}]
"""


def test_a_hand_worked_fight_is_read_right(tmp_path: Path) -> None:
    """side-d6, one round (--max-rounds 1), every die of it given, so each of the 3 fights is the same.
    Party 5 beats orcs 2 (MJ-04): the party's steps first: step 6, Mina's bolt does its plain 4 to Orc 1
    (6 -> 2); step 7, Brom hits Orc 2 for 3 (6 -> 3) (MJ-05). Then the orcs' steps (MJ-06): Orc 1 hits Mina for 2,
    Orc 2 hits Brom for 5. Nobody falls: after the round both sides stand, a draw."""
    sim = simulate(write(tmp_path, WORKED), rulesets="side-d6", fights=3, seed=1, workers=1, per_fight=True,
                   max_rounds=1)
    s = sim.rulesets["side-d6"]
    # --max-rounds 1: the fight stops after round 1, both sides standing: a draw in each of the 3 fights
    assert (s.wins, s.draws) == ({"party": 0, "orcs": 0}, 3)
    assert s.length.histogram == {1: 3}
    assert s.first_blow == {"party": 3, "orcs": 0, SIMULTANEOUS: 0, "none": 0, "won": 0}
    assert s.spells == {"completed": 3, "ruined": 0, "lost": 0, "unbegun": 0, "cut": 0}  # the bolt, once a fight
    # dealt by the party: bolt 4 (the cast event's effects: Orc 1 takes 4) + Brom's 3 = 7;
    # by the orcs: 2 + 5 = 7; taken: party 2 + 5 = 7, orcs 4 + 3 = 7 (per fight)
    assert (s.sides["party"].damage_dealt, s.sides["orcs"].damage_dealt) == (7.0, 7.0)
    assert (s.sides["party"].damage_taken, s.sides["orcs"].damage_taken) == (7.0, 7.0)
    assert {n: c.survived for n, c in s.combatants.items()} == {"Mina": 3, "Brom": 3, "Orc 1": 3, "Orc 2": 3}
    assert s.sides["orcs"].morale_checks == 0


FINISHED = WORKED.replace("{name: Orc, count: 2, hd: 1, hp: 6,", "{name: Orc, count: 2, hd: 1, hp: 4,").replace(
    "Brom: [{melee: Orc 2, outcome: {hit: true, damage: 3}}]",
    "Brom: [{melee: Orc 2, outcome: {hit: true, damage: 4}}]")


def test_a_hand_worked_fight_to_the_end(tmp_path: Path) -> None:
    """The same with orcs of 4 hp and Brom's blow 4: round 1, party first (5 vs 2, MJ-04): Mina's bolt (step
    6) fells Orc 1 (4 - 4 = 0), Brom's sword (step 7) fells Orc 2 (4 - 4 = 0), both down before the orcs' turn
    (G-05), which does nothing. Party wins in 1 round; first hit the party's and it won; the orcs dealt 0."""
    sim = simulate(write(tmp_path, FINISHED), rulesets="side-d6", fights=4, seed=1, workers=1)
    s = sim.rulesets["side-d6"]
    assert (s.wins, s.draws) == ({"party": 4, "orcs": 0}, 0)
    assert s.win_rate["party"].to_dict() == wilson(4, 4).to_dict()
    assert s.length.to_dict() == {"unit": "rounds", "mean": 1.0, "median": 1.0, "min": 1, "max": 1,
                                  "histogram": {"1": 4},
                                  "mean_interval": {"mean": 1.0, "low": 1.0, "high": 1.0, "n": 4}}
    assert s.first_blow == {"party": 4, "orcs": 0, SIMULTANEOUS: 0, "none": 0, "won": 4}
    assert (s.sides["party"].damage_dealt, s.sides["orcs"].damage_dealt) == (8.0, 0.0)
    assert (s.sides["party"].damage_taken, s.sides["orcs"].damage_taken) == (0.0, 8.0)
    assert {n: c.survived for n, c in s.combatants.items()} == {"Mina": 4, "Brom": 4, "Orc 1": 0, "Orc 2": 0}


def test_damage_is_counted_once_as_it_lands_under_every_ruleset(tmp_path: Path) -> None:
    """The skirmish, its spells doing damage (magic missile 3d4+3 and fireball 5d6 at Mina's 5th level, web given
    3d6: fireball and web at a side hit every orc standing, one ``cast`` event's effects), the party tactical, 60
    fights a ruleset. Whatever the clock,
    each point of damage the party deals is counted once, when it lands: at the blow, or later with its ``wound``
    (speed-segments' missiles and spells land at the end of the segment, SEG-10), or with a spell's effects. The
    orcs never hurt each other, so what the party dealt is, fight by fight, exactly what the orcs lost. The
    party may be struck by its own archer's shots into a melee (side-d6, MJ-16): the orcs dealt at most what the
    party lost."""
    text = SKIRMISH.read_text(encoding="utf-8").replace("web, fireball]", "{spell: web, damage: 3d6}, fireball]")
    text = text.replace("  party:\n    pc: true", "  party:\n    policy: tactical\n    pc: true")
    assert text.count("damage: 3d6") == 1 and "policy: tactical" in text
    path = write(tmp_path, text)
    for ruleset in ("combat2-phase1", "combat2-phase2", "side-d6", "speed-segments", "phase-count", "d12-procedure"):
        sim = simulate(path, rulesets=ruleset, fights=60, seed=1, workers=1, per_fight=True)
        frame = sim.frame()
        assert (frame["dealt_party"] == frame["taken_orcs"]).all(), ruleset
        assert (frame["dealt_orcs"] <= frame["taken_party"]).all(), ruleset
        assert frame["dealt_party"].sum() > 0 and sim.rulesets[ruleset].spells["completed"] > 0, ruleset


TIED = """\
surprise: none
sides:
  a:
    pc: true
    combatants: [{name: A, hp: 5, weapons: [{name: sword, sf: 5, damage: 1d8}]}]
  b:
    pc: true
    combatants: [{name: B, hp: 5, weapons: [{name: sword, sf: 5, damage: 1d8}]}]
rolls:
  initiative: {1: {a: 3, b: 3}}
plan:
  A: [{melee: B, outcome: {hit: true, damage: 5}}]
  B: [{melee: A, outcome: {hit: true, damage: 5}}]
"""


def test_simultaneous_first_blows_and_a_mutual_kill(tmp_path: Path) -> None:
    """A tie (3 and 3) runs the steps once for both sides, each blow simultaneous (MJ-07): both land on the
    same tick, both fall after it (G-05): the first hit is simultaneous, nobody wins (a draw), nobody survives."""
    s = simulate(write(tmp_path, TIED), rulesets="side-d6", fights=2, seed=1, workers=1).rulesets["side-d6"]
    assert (s.draws, s.first_blow[SIMULTANEOUS], s.first_blow["a"], s.first_blow["b"]) == (2, 2, 0, 0)
    assert s.combatants["A"].survived == s.combatants["B"].survived == 0


MORALE = """\
surprise: none
sides:
  party:
    pc: true
    combatants: [{name: Brom, class: fighter, level: 3, hp: 30, weapons: [{name: sword, sf: 5, damage: 1d8}]}]
  orcs:
    morale: 5
    combatants: [{name: Orc, count: 2, hd: 1, hp: 4, weapons: [{name: axe, sf: 7, damage: 1d8}]}]
rolls:
  initiative: {1: {party: 6, orcs: 1}, 2: {party: 6, orcs: 1}}
  morale: {2: {orcs: 9}}
plan:
  Brom: [{melee: Orc 1, outcome: {hit: true, damage: 4}}, {none: true}]
  Orc 1: [{melee: Brom, outcome: {hit: false}}]
  Orc 2: [{none: true}]
"""


def test_a_morale_break_is_counted_for_its_members(tmp_path: Path) -> None:
    """Round 1: Brom fells Orc 1; Orc 2 does nothing, and Brom nothing in round 2, so nobody is engaged with
    Orc 2 (a melee attack engages, hit or miss). Round 2, step 1: the orcs
    check (first casualty and half down, MJ-02): 2d6 9 against morale 5 fails (G-07): Orc 2 breaks and flees
    (routed, the default flee), unhurt since nobody is engaged with it (MJ-11): the party wins in round 2."""
    s = simulate(write(tmp_path, MORALE), rulesets="side-d6", fights=2, seed=1, workers=1).rulesets["side-d6"]
    assert s.wins["party"] == 2
    assert (s.sides["orcs"].morale_checks, s.sides["orcs"].morale_failures) == (2, 2)  # one check a fight
    assert (s.combatants["Orc 2"].morale_breaks, s.combatants["Orc 1"].morale_breaks) == (2, 0)
    assert (s.combatants["Orc 2"].survived, s.combatants["Orc 2"].fled) == (2, 2)
    assert s.length.histogram == {2: 2}


# -- the command line -----------------------------------------------------------------------------------------
def test_compare_prints_the_rulesets_side_by_side_and_draws_a_figure(tmp_path: Path) -> None:
    png, svg = tmp_path / "c.png", tmp_path / "c.svg"
    done = affray("compare", SKIRMISH, "--fights", "20", "--seed", "1", "--workers", "1", "--plot", png)
    assert done.returncode == 0, done.stderr
    for r in ("combat2-phase1", "combat2-phase2", "side-d6", "speed-segments", "phase-count", "d12-procedure"):
        assert r in done.stdout
    assert "party wins (95%)" in done.stdout and "Survival" in done.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    done = affray("simulate", SKIRMISH, "--ruleset", "side-d6", "--fights", "20", "--seed", "1", "--workers", "1",
                  "--plot", svg, "--vary", "sides.party.combatants[0].level=6..7")
    assert done.returncode == 0, done.stderr
    assert "<svg" in svg.read_text(encoding="utf-8")
    assert "Sweep over sides.party.combatants[0].level" in done.stdout


def test_policy_option_sets_sides_and_sweeps_them() -> None:
    doc = _json(SKIRMISH, "--ruleset", "side-d6", "--fights", "10", "--seed", "1", "--workers", "1",
                "--policy", "tactical", "--policy", "orcs=default,cautious")
    assert [p["values"] for p in doc["points"]] == [{"sides.orcs.policy": "default"},
                                                    {"sides.orcs.policy": "cautious"}]


@pytest.mark.parametrize(("args", "message"), [
    (("--ruleset", "nope"), "--ruleset: unknown ruleset 'nope'; valid rulesets: combat2-phase1"),
    # the numbers, in affray's words and within affray.limits (README "Limits")
    (("--fights", "0"), "--fights 0: a whole number from 1 to 1,000,000 (limit)"),
    (("--fights", "ten"), "--fights ten: a whole number from 1 to 1,000,000 (limit)"),
    (("--workers", "257"), "--workers 257: a whole number from 1 to 256 (limit)"),
    (("--seed", "-1"), "--seed -1: a seed is a whole number from 0 to 9223372036854775807"),
    (("--max-rounds", "1001"), "--max-rounds 1001: a whole number from 1 to 1000 (limit)"),
    # 200,000 x 8 rulesets (the six and the books' two) = 1,600,000 > 1,000,000
    (("--ruleset", "all", "--fights", "200000"), "200,000 fights x 8 rulesets x 1 sweep points is 1,600,000 "
                                                 "fights; at most 1,000,000 in one simulation (limit)"),
    # 40 x 30 = 1,200 points > 1,000
    (("--vary", "sides.fighters.combatants[0].hp=1..40", "--vary", "sides.orcs.combatants[0].hp=1..30"),
     "the sweep has 1,200 points (40 x 30); at most 1,000 (limit)"),
    (("--set", "crits=bogus"), "options (--set): option crits: 'bogus' is not allowed; choose one of none, "
                               "c2-tables, c2-severity"),
    (("--set", "nosuch=1"), "options (--set): unknown option 'nosuch' for side-d6; valid options:"),
    (("--set", "crits=none,"), "--set 'crits=none,': an empty value in the list"),
    (("--set", "crits"), "--set 'crits': use --set OPTION=VALUE"),
    (("--vary", "sides.fighters.combatants[3].level=1..3"),
     "--vary sides.fighters.combatants[3].level: no item [3] in sides.fighters.combatants (it has 1 items)"),
    (("--vary", "sides.fighters.combatants[0].name=1..3"),
     "--vary sides.fighters.combatants[0].name: holds 'Fighter', not a number"),
    (("--vary", "sides.knights.combatants[0].hp=1..3"),
     "--vary sides.knights.combatants[0].hp: sides has no 'knights' (it has: fighters, orcs)"),
    (("--vary", "sides.fighters.combatants[0].hp=5..1"), "the range 5..1 runs backwards"),
    (("--vary", "sides.fighters.combatants[0].hp=a..b"), "'a..b' is not a range"),
    (("--vary", "sides.fighters.combatants[0].level=39..41"),
     "sides.fighters.combatants[0].level: should be at most 40 (got 41) (sweep point "
     "sides.fighters.combatants[0].level=41)"),
    (("--policy", "orcs=brave"), "--policy orcs=brave: unknown policy 'brave': no built-in policy (default, plain"),
    (("--policy", "elves=default"), "--policy 'elves=default': no side 'elves' (sides: fighters, orcs)"),
    (("--plot", "x.gif"), "--plot x.gif: name a .png or .svg file"),
])
def test_bad_input_exits_2_naming_the_file_and_what_is_wrong(args: tuple[str, ...], message: str) -> None:
    err = bad_input(affray("simulate", ORCS, "--fights", "5", "--workers", "1", *args))
    assert str(ORCS) in err
    assert message in err


def test_bad_numbers_and_a_missing_file_exit_2(tmp_path: Path) -> None:
    bad_input(affray("simulate", ORCS, "--fights", "0"))
    bad_input(affray("simulate", ORCS, "--workers", "0"))
    err = bad_input(affray("simulate", tmp_path / "none.yaml"))
    assert "none.yaml: cannot read the file" in err
    err = bad_input(affray("compare", write(tmp_path, "ruleset: side-d6\nsides: {}\n"), "--fights", "3"))
    assert "sides" in err


def test_an_unreachable_scheduler_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refused connection is said at once, by affray's own probe: no Dask client is ever made (the client tries
    again until its timeout, SCHEDULER_SECONDS, and one that cannot connect leaves its IO-loop thread running in the
    process that made it). Shown by the client never being called, not by a clock, which a loaded machine stretches
    (the command took 10.4 s once beside six other test runs)."""
    import distributed

    class NoClient:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("a Dask client was made for an address that refused the connection")

    monkeypatch.setattr(distributed, "Client", NoClient)
    done = affray_here("simulate", ORCS, "--fights", "5", "--scheduler", "tcp://127.0.0.1:9")
    err = bad_input(done)
    assert "--scheduler tcp://127.0.0.1:9: cannot reach a Dask scheduler there (ConnectionRefusedError" in err


def test_plan_checks_every_grid_point_before_playing() -> None:
    """A bad value at the last point is found before any fight: the plan refuses it."""
    from affray.errors import EncounterError

    with pytest.raises(EncounterError, match="should be at most 40"):
        plan(ORCS, rulesets="side-d6", fights=10, seed=1, axes=[_axis("sides.fighters.combatants[0].level=1..41")])


@pytest.mark.parametrize("ruleset", ["combat2-phase1", "combat2-phase2"])
def test_a_lean_listener_hears_every_state_change_and_no_delay(ruleset: str) -> None:
    """A simulation's tally listens with ``lean_listener``: the lean mode stays lean (Combat II makes no ``delay``
    events, C2-14 / P2-07, and no words), and the listener hears the same state-changing events, in the same order,
    with the same dice, as a listener that makes the fight heard. The skirmish's fights hold delays under both
    Combat II rulesets (the heard runs below must have some, or this test proves nothing)."""
    from affray import load_text, prepare

    loaded = load_text((EXAMPLES / "skirmish.yaml").read_text(encoding="utf-8"), "skirmish.yaml")
    delays = 0
    for seed in range(6):
        prepared = prepare(loaded, ruleset=ruleset, seed=seed)
        heard: list[Any] = []
        lean: list[Any] = []
        a = prepared.fight(auto=True, explain=False, keep=False, on_event=heard.append).run()
        b = prepared.fight(auto=True, explain=False, keep=False, on_event=lean.append, lean_listener=True).run()
        delays += sum(e.kind == "delay" for e in heard)
        assert [e.kind for e in lean if e.kind == "delay"] == []

        def change(e: Any) -> tuple[Any, ...]:
            return (e.kind, e.tick, e.actor, tuple((d.purpose, d.value) for d in e.rolls))

        assert [change(e) for e in lean] == [change(e) for e in heard if e.kind != "delay"]
        assert (b.final.winner, b.final.combatants) == (a.final.winner, a.final.combatants)
    assert delays > 0
