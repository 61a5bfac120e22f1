"""What issue 28 asked of ``affray simulate``: game time, each casting's fate, the designer's questions answered,
honest comparisons and the outputs a designer uses. Every expectation is worked by hand (or with ``affray odds``)."""

from __future__ import annotations

import csv
import json
import subprocess
from fractions import Fraction
from importlib.util import find_spec
from pathlib import Path

import pytest

from affray.rulesets import RULESETS
from affray.sim import simulate, wilson
from affray.sim.clock import seconds_of
from affray.sim.rules import fail_chance
from affray.sim.stats import mean_interval, paired, unpaired_rates
from cli_run import affray_here
from conftest import EXAMPLES
from test_simulate import WORKED

ROOT = Path(__file__).resolve().parents[1]
ORCS = ROOT / "benchmarks" / "fighters_vs_orcs.yaml"
SKIRMISH = EXAMPLES / "skirmish.yaml"
IDS = [r.id for r in RULESETS]


def affray(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return affray_here(*args, cwd=cwd)


def write(tmp_path: Path, text: str, name: str = "fight.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- game time -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("ruleset", "tick", "seconds"), [
    # seed 000: a round of ten 6-second segments: a half-segment is 3 s; phase 2's slot 3 is half-segment 9
    ("combat2-phase1", (1, 0, 0, 0), 0.0), ("combat2-phase1", (1, 2, 3, 0), 27.0),
    ("combat2-phase1", (2, 4, 2, 0), 120.0),  # the endphase's half-segment 20 of round 2: 60 + 60
    ("combat2-phase1", (1, 3, 7, 1), 54.0),  # phase 3's movement, at its end: half-segment 18
    # P2-01: a cycle is a round, a minute; phase B (2) starts 20 s in, its half-segment 3 is 3 x 20/6 = 10 s more
    ("combat2-phase2", (2, 2, 3, 0), 90.0),
    # MJ-01: a one-minute round; its start at its start, any step at its end
    ("side-d6", (3, 0, 2, 0), 120.0), ("side-d6", (3, 1, 7, 1), 180.0),
    # SEG-01: 20-second rounds of 2-second segments: round 2, segment 7: 20 + 14
    ("speed-segments", (2, 7, 1, 4, 0), 34.0), ("speed-segments", (2, 99, 0, 5, 0), 40.0),
    # PC-01: a phase is 3 seconds
    ("phase-count", (13, 5, 1), 39.0),
    # seed 004: a round is a minute, a count a twelfth: round 2, count 8: 60 + 40
    ("d12-procedure", (2, 3, 8, 0, 2), 100.0), ("d12-procedure", (2, 0, 0, 0, 0), 60.0),
    ("d12-procedure", (1, 4, 0, 0, 0), 60.0),
])
def test_each_rulesets_clock_in_game_seconds(ruleset: str, tick: tuple[int, ...], seconds: float) -> None:
    assert seconds_of(ruleset)(tick) == pytest.approx(seconds)


def test_a_hand_worked_round_in_game_time(tmp_path: Path) -> None:
    """side-d6, one round, every die given (test_simulate's worked fight): the party (5) before the orcs (2):
    Mina's bolt (step 6) and Brom's blow (step 7), then Orc 1 hits Mina and Orc 2 Brom. All in round 1, a minute
    (MJ-01): the fight lasts 1.0 minute, its first hit comes at 60 s. The bolt lands before Mina is hurt (the
    party's step 6 precedes the orcs' step 7 in the round's order, though both count at the round's end): 3 of 3
    fights; she is hurt in each (at 60 s); nobody falls."""
    sim = simulate(write(tmp_path, WORKED), rulesets="side-d6", fights=3, seed=1, workers=1, per_fight=True,
                   max_rounds=1)
    s = sim.rulesets["side-d6"]
    assert s.minutes.to_dict() == {"mean": 1.0, "low": 1.0, "high": 1.0, "n": 3}
    assert s.first_blow_at.mean == 60.0 and s.first_fall_at.n == 0
    bolt = s.combatants["Mina"].spells["bolt"]
    assert (bolt.castings, bolt.outcomes["landed"], bolt.fights) == (3, 3, 3)
    assert bolt.before_hurt.to_dict() == wilson(3, 3).to_dict()
    assert bolt.landed_at.mean == 60.0
    assert (s.combatants["Mina"].hurt, s.combatants["Mina"].hurt_at.mean) == (3, 60.0)
    assert s.combatants["Brom"].struck_at.to_dict() == {"mean": 60.0, "low": 60.0, "high": 60.0, "n": 3}
    assert s.combatants["Mina"].struck_at.n == 0  # her bolt is a spell, not a blow
    assert s.spells == {"completed": 3, "ruined": 0, "lost": 0, "unbegun": 0, "cut": 0}
    doc = sim.to_dict()["rulesets"]["side-d6"]
    assert doc["minutes"]["mean"] == 1.0  # CONTRACT: "minutes" in --json, per ruleset
    # the same moments in the ruleset's own unit: all in round 1
    rows = sim.combatant_frame()
    mina, brom = rows[rows["combatant"] == "Mina"].iloc[0], rows[rows["combatant"] == "Brom"].iloc[0]
    assert (mina["first_blow_in"], mina["hurt_in"], mina["first_landed_in"], brom["struck_in"]) == (1, 1, 1, 1)
    assert (mina["first_blow_at"], mina["hurt_at"], mina["first_landed_at"], brom["struck_at"]) == (60, 60, 60, 60)


SLEEP = """\
surprise: none
sides:
  party:
    pc: true
    combatants:
      - {name: Mina, class: wizard, level: 5, hp: 40, ac: 10,
         spells: [{name: sleep, level: 1, ct: 1, effect: {condition: asleep, duration: 5 rounds, max_hd: 4}}]}
  goblins:
    morale: 12
    combatants:
      - {name: Gob, hd: 1, hp: 7, thac0: 20, weapons: [{name: club, sf: 4, damage: 1d6}]}
"""
# side-d6, round 1: Mina (default policy) casts sleep at the goblin (its 7 hp, taken out, beat her unarmed 1d2),
# the goblin strikes her. `affray odds spell --ct 1 --sf 4 --ruleset side-d6`: the spell first 7/12 (her side's d6
# higher, 15/36, or tied, 6/36: spells are step 6, melee step 7, MJ-05, MJ-07), the blow first 5/12 (the goblin's
# side higher: its steps 4-8 before hers, MJ-06), and a melee hit does not ruin it (MJ-06). When the blow comes first
# it hits on a d20 of 20 - 10 = 10 or more, 11/20 (`affray odds attack --thac0 20 --ac 10 --damage 1d6`, G-04); if it
# misses, the sleep still lands before she is hurt (the goblin then sleeps).
# P(sleep lands before Mina is hurt) = 7/12 + 5/12 x 9/20 = 28/48 + 9/48 = 37/48 = 0.7708.
SLEEP_FIRST = Fraction(7, 12) + Fraction(5, 12) * Fraction(9, 20)


def test_sleep_lands_before_the_wizard_is_hit_as_worked_by_hand(tmp_path: Path) -> None:
    """The designer's first question on a small fight under side-d6: the exact 37/48 lies in the simulated 95%
    interval of 2,000 fights."""
    assert Fraction(37, 48) == SLEEP_FIRST
    sim = simulate(write(tmp_path, SLEEP), rulesets="side-d6", fights=2000, seed=28, workers=1)
    sleep = sim.rulesets["side-d6"].combatants["Mina"].spells["sleep"]
    assert sleep.before_hurt.low <= float(SLEEP_FIRST) <= sleep.before_hurt.high, sleep.before_hurt
    assert sleep.outcomes["landed"] == 2000  # sleep always lands in round 1 (only a missile ruins it, MJ-06)


# -- the policies play: done-when figures ------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", IDS)
def test_the_skirmishs_caster_casts_in_most_fights_without_a_plan(tmp_path: Path, ruleset: str) -> None:
    """The skirmish with no plan at all (every declaration the default policy's): Mina casts (a spell lands or is
    at least begun) in most of 100 fights under every ruleset."""
    text = SKIRMISH.read_text(encoding="utf-8")
    text = text[:text.index("plan:")]
    sim = simulate(write(tmp_path, text), rulesets=ruleset, fights=100, seed=3, workers=1, per_fight=True)
    frame = sim.combatant_frame()
    mina = frame[frame["combatant"] == "Mina"]
    cast = ((mina["castings"] - mina["spells_unbegun"]) > 0).sum()
    assert cast > 50, (ruleset, cast)


@pytest.mark.parametrize("ruleset", IDS)
def test_a_hundred_a_side_fight_ends_with_a_winner(tmp_path: Path, ruleset: str) -> None:
    """fighters_vs_orcs at 100 a side, 40 fights: a winner in at least 95% (38 of 40) under every ruleset. (Under
    the old default, plain, every attacker went for the first foe in file order: d12-procedure drew every such
    fight after 50 rounds, one death a round a side.)"""
    text = ORCS.read_text(encoding="utf-8").replace("count: 4,", "count: 100,").replace("count: 6,", "count: 100,")
    assert text.count("count: 100") == 2
    sim = simulate(write(tmp_path, text), rulesets=ruleset, fights=40, seed=5, workers=1)
    assert sim.rulesets[ruleset].draws <= 2, sim.rulesets[ruleset].draws


# -- honest comparisons --------------------------------------------------------------------------------------
def test_interval_arithmetic_by_hand() -> None:
    """z = 1.959964. mean_interval: 1, 2, 3 (sum 6, squares 14): mean 2, s^2 = (14 - 36/3) / 2 = 1, half =
    z / sqrt(3) = 1.131586. paired: 1-0, 1-1, 0-1, 1-0: d = 1, 0, -1, 1: mean 1/4, s^2 = (sum of d^2 - n mean^2)
    / (n - 1) = (3 - 4 x 1/16) / 3 = 11/12, half = z x sqrt(11/12 / 4) = 0.938261; 3 of 4 differ.
    unpaired_rates 5/10 - 5/10 (Newcombe): 0, +- sqrt(2) x (0.5 - 0.236593) = +- 0.372514 (Wilson 5 of 10:
    0.236593-0.763407)."""
    m = mean_interval(6.0, 14.0, 3)
    assert (m.mean, round(m.high - m.mean, 6)) == (2.0, 1.131586)
    d = paired("a", "b", "x", [1, 1, 0, 1], [0, 1, 1, 0])
    assert (d.diff, round(d.high - d.diff, 6), d.changed, d.paired) == (0.25, 0.938261, 3, True)
    u = unpaired_rates("a", "b", "x", 5, 10, 5, 10)
    assert (u.diff, round(u.high, 6), round(u.low, 6), u.paired) == (0.0, 0.372514, -0.372514, False)


def test_differences_paired_between_grid_points_and_unpaired_between_rulesets() -> None:
    """Two points of one ruleset (crits none and c2-severity) play the same seeds: their difference is paired and
    says how many fights changed; two rulesets roll different dice: unpaired."""
    sim = simulate(ORCS, rulesets="side-d6,d12-procedure", fights=200, seed=2, workers=1,
                   sweep=[_axis("crits=none,c2-severity")])
    pairs = [d for d in sim.differences if d.paired]
    assert {(d.a, d.b) for d in pairs} == {("side-d6: crits=c2-severity", "side-d6: crits=none"),
                                           ("d12-procedure: crits=c2-severity", "d12-procedure: crits=none")}
    assert all(d.changed is not None and 0 < d.changed < 200 for d in pairs if d.measure == "minutes")
    unpaired = [d for d in sim.differences if not d.paired]
    assert {(d.a, d.b, d.measure) for d in unpaired} == {("d12-procedure", "side-d6", "wins:fighters"),
                                                        ("d12-procedure", "side-d6", "wins:orcs"),
                                                        ("d12-procedure", "side-d6", "minutes")}
    side = sim.points[1].rulesets["side-d6"]
    base = sim.points[0].rulesets["side-d6"]
    wins = next(d for d in pairs if d.a == "side-d6: crits=c2-severity" and d.measure == "wins:fighters")
    # the paired mean difference is the difference of the two win rates, fight for fight
    assert wins.diff == pytest.approx(side.win_rate["fighters"].p - base.win_rate["fighters"].p)


def _axis(item: str, kind: str = "set") -> object:
    from affray.sim import field_axis, option_axis

    return option_axis(item) if kind == "set" else field_axis(item)


def test_a_varied_field_that_changes_nothing_is_warned_about(tmp_path: Path) -> None:
    """fighters_vs_orcs gives each fighter thac0 19 and hp 8: their level (1 or 2) changes nothing else a fight of
    fighters reads (1 attack a round at either level): every fight comes out the same, and simulate says so on
    stderr and in --json. Their hp (8 or 9) does change fights: no warning for it."""
    done = affray("simulate", ORCS, "--ruleset", "side-d6", "--fights", "60", "--seed", "1", "--workers", "1",
                  "--vary", "sides.fighters.combatants[0].level=1..2", "--vary",
                  "sides.fighters.combatants[0].hp=8..9", "--json")
    assert done.returncode == 0, done.stderr
    assert ("warning: --vary sides.fighters.combatants[0].level: every fight came out the same at each of its "
            "values (1, 2): it changes nothing in these fights") in done.stderr
    assert "combatants[0].hp" not in done.stderr
    assert len(json.loads(done.stdout)["warnings"]) == 1


def test_compare_says_what_differs_beyond_the_initiative(tmp_path: Path) -> None:
    """The skirmish's orcs have morale 8 (G-07): 2d10 > 8 fails 1 - 28/100 = 72% (the 2nd-edition dice of Combat II
    and phase-count); 2d6 > 8 fails 1 - 26/36 = 27.8%; d12-procedure checks only when the referee rolls (D12-22).
    Surprise: d10 1-3 (30%) or a d6's third. ``--ruleset a,b`` compares a subset. Each ruleset's morale trigger stands
    beside its dice, and d12-procedure's says which of its options is played: the seed's (the referee's rolls only,
    ``morale: referee``) or ``--set morale=casualties`` (a round's start, after the first casualty and at half down)."""
    assert fail_chance("2d10", 8) == Fraction(72, 100) and fail_chance("2d6", 8) == Fraction(10, 36)
    done = affray("compare", SKIRMISH, "--ruleset", "combat2-phase1,side-d6,d12-procedure", "--fights", "30",
                  "--seed", "1", "--workers", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "combat2-phase1" in out and "d12-procedure" in out and "speed-segments" not in out
    for text in ("morale (G-07): dice; when checked", "2d10; at a round's start", "orcs morale check fails", "72.0%",
                 "27.8%", "2d6; only when the referee rolls", "morale: referee", "surprised on 1-3", "30%",
                 "length in game minutes (95%)", "unpaired: the rulesets roll different dice"):
        assert text in out, text
    doc = json.loads(affray("simulate", SKIRMISH, "--ruleset", "side-d6,phase-count", "--fights", "20", "--seed",
                            "1", "--workers", "1", "--json").stdout)
    assert list(doc["rulesets"]) == ["side-d6", "phase-count"]
    assert doc["notes"]["phase-count"]["morale_dice"] == "2d10"
    d12 = json.loads(affray("simulate", SKIRMISH, "--ruleset", "d12-procedure", "--set", "morale=casualties",
                            "--fights", "20", "--seed", "1", "--workers", "1", "--json").stdout)
    assert d12["notes"]["d12-procedure"]["morale_when"] == ("at a round's start, after a side's first casualty and at "
                                                            "half down (D12-22 option morale: casualties, G-07)")
    assert d12["rulesets"]["d12-procedure"]["sides"]["orcs"]["morale_checks"] > 0  # checked in a simulation now
    assert set(doc["rulesets"]["side-d6"]["minutes"]) == {"mean", "low", "high", "n"}


# -- outputs ---------------------------------------------------------------------------------------------
def test_rows_one_per_fight_and_combatant_and_a_figure_named_after_the_encounter(tmp_path: Path) -> None:
    """20 fights of the skirmish's nine combatants: 180 rows; the figure, given a folder, is skirmish-compare.png."""
    rows = tmp_path / "rows.csv"
    done = affray("compare", SKIRMISH, "--ruleset", "side-d6,speed-segments", "--fights", "20", "--seed", "1",
                  "--workers", "1", "--rows", rows, "--plot", tmp_path)
    assert done.returncode == 0, done.stderr
    with rows.open(encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    assert len(table) == 2 * 20 * 9
    assert {"ruleset", "fight", "seed", "winner", "seconds", "minutes", "combatant", "side", "hp_start", "hp_end",
            "hurt_at", "down_at", "struck_at", "hurt_in", "castings", "spells_landed", "spells_unbegun",
            "landed_before_hurt"} <= set(table[0])
    assert {r["combatant"] for r in table} == {"Brom", "Sela", "Mina", "Ash", "Orc 1", "Orc 2", "Orc 3", "Orc 4",
                                               "Orc Captain"}
    figure = tmp_path / "skirmish-compare.png"
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"figure: {figure}" in done.stdout


def test_rows_in_parquet_need_pyarrow(tmp_path: Path) -> None:
    """.parquet is written with pyarrow where it is installed; without it, exit 2 saying what to install."""
    path = tmp_path / "rows.parquet"
    done = affray("simulate", ORCS, "--ruleset", "side-d6", "--fights", "5", "--seed", "1", "--workers", "1",
                  "--rows", path)
    if find_spec("pyarrow") is None:
        assert done.returncode == 2 and "writing .parquet needs pyarrow (pip install pyarrow)" in done.stderr
        assert not path.exists()
    else:
        assert done.returncode == 0 and path.read_bytes()[:4] == b"PAR1"
    bad = affray("simulate", ORCS, "--fights", "5", "--rows", tmp_path / "rows.xlsx")
    assert bad.returncode == 2 and "--rows" in bad.stderr and "name a .csv or .parquet file" in bad.stderr


def test_the_same_results_for_any_number_of_workers_with_the_new_outputs() -> None:
    """Determinism (CONTRACT): the new figures (minutes, castings, differences) too, 1 worker or 2."""
    args = (ORCS, "--ruleset", "side-d6,phase-count", "--fights", "150", "--seed", "4", "--set",
            "crits=none,c2-severity")
    one = json.loads(affray("simulate", *args, "--workers", "1", "--json").stdout)
    two = json.loads(affray("simulate", *args, "--workers", "2", "--json").stdout)
    assert one == two and one["differences"]
