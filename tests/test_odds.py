"""``affray odds``: exact probabilities (icepool), checked by hand, against the engine's own placement for every
initiative roll, and against a seeded simulation."""

from __future__ import annotations

import json
import math
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from affray import load_text, prepare
from affray.engine.events import Condition, Melee
from affray.odds import Contender, attack, first, spell_vs_blow
from affray.odds.order import RULESET_IDS
from affray.sim import simulate
from cli_run import affray_here

DIE = {"combat2-phase1": 10, "combat2-phase2": 10, "side-d6": 6, "speed-segments": 6, "phase-count": 6,
       "d12-procedure": 12}


def affray(*args: str) -> subprocess.CompletedProcess[str]:
    return affray_here(*args)


# -- worked by hand -------------------------------------------------------------------------------------------
def test_side_d6_first_is_the_higher_d6_a_tie_together() -> None:
    """MJ-04, MJ-07: of 36 pairs of d6, A's higher in 15, equal in 6: A 15/36 = 5/12, together 1/6."""
    o = first("side-d6", Contender(), Contender())
    assert (o.a, o.together, o.b) == (Fraction(5, 12), Fraction(1, 6), Fraction(5, 12))


def test_combat2_bands_and_tracks() -> None:
    """P1-01/02/04, DEX 10 (no adjustment), A SF 5 (band 4-6: 3rd half-segment, a loser's 4th), B SF 7 (band 7-9:
    4th, a loser's 5th). A's d10 lower (45 of 100): A 3rd, B 5th: A first. Equal (10): both losers (P1-01), 4th
    and 5th: A first. B's lower (45): B 4th, A 4th: together. A 55/100 = 11/20, together 9/20, B never."""
    for r in ("combat2-phase1", "combat2-phase2"):
        o = first(r, Contender(10, 5), Contender(10, 7))
        assert (o.a, o.together, o.b) == (Fraction(11, 20), Fraction(9, 20), 0)


def test_d12_with_a_dex_adjustment() -> None:
    """D12-04: A's DEX 16 takes 1 off its d12: A first when x - 1 < y, i.e. x <= y (78 of 144 pairs), together
    when x - 1 = y (11), B first when x >= y + 2 (55): 78 + 11 + 55 = 144."""
    o = first("d12-procedure", Contender(16), Contender(10))
    assert (o.a, o.together, o.b) == (Fraction(78, 144), Fraction(11, 144), Fraction(55, 144))


def test_phase_count_die_plus_phase_modifier() -> None:
    """PC-02/03/06: A's SF 2 is PM 2, B's SF 7 PM 3: A at x + 2, B at y + 3. A earlier when x <= y (21 of 36); the
    same phase when x = y + 1, then the lower die (B's) first: B first in the other 15. A 7/12, B 5/12."""
    o = first("phase-count", Contender(sf=2), Contender(sf=7))
    assert (o.a, o.together, o.b) == (Fraction(7, 12), 0, Fraction(5, 12))


def test_speed_segments_a_big_loss_costs_the_faster_weapon() -> None:
    """SEG-06/09: A Spd 5, B Spd 7. A wins or ties: 5 < 7. A loses by 1-3 pips: +0 or +1: 5 or 6 < 7. A loses
    by 4 or 5 (x, y = 1, 5; 2, 6; 1, 6): +2: segment 7, B's too, and the winner's turn comes first: B.
    A 33/36 = 11/12, B 1/12."""
    o = first("speed-segments", Contender(sf=5), Contender(sf=7))
    assert (o.a, o.together, o.b) == (Fraction(11, 12), 0, Fraction(1, 12))


def test_a_spell_against_a_blow_by_hand() -> None:
    """combat2-phase1, CT 3 against SF 7 (P1-05, C2-06): a winning caster completes on half-segment 2 x 3 - 1 =
    5, the same as the losing blow's (band 7-9, 4 + 1): together, the spell completes (45/100). A caster
    losing or tying finishes on 6, after the blow (4 or 5): ruined. side-d6: a melee hit never ruins a spell
    (MJ-06) unless melee_disrupts: then the caster must win or tie the d6 (21/36 = 7/12; magic is step 6, melee
    step 7)."""
    p1 = spell_vs_blow("combat2-phase1", 3, 7)
    assert (p1.spell_first, p1.together, p1.blow_first, p1.completes) == (0, Fraction(9, 20), Fraction(11, 20),
                                                                           Fraction(9, 20))
    assert spell_vs_blow("side-d6", 3, 7).completes == 1
    assert spell_vs_blow("side-d6", 3, 7, options={"melee_disrupts": True}).completes == Fraction(7, 12)


def test_attack_by_hand() -> None:
    """THAC0 19 against AC 6 needs 13: d20 13-20, 2/5 (G-04). 1d8: mean 2/5 x 4.5 = 9/5.
    C2X-04: d20 13-19 add 0-6 (the roll over 13) to 1d8: sum of means 7 x 4.5 + 21 = 52.5; a natural 20 is 8 + 7
    = 15; (52.5 + 15) / 20 = 27/8. A miss by 5 or more slows the next strike: d20 2-7 by 13 - 5 - d = 6 ... 1, at
    most SF 7; a natural 1 by 7 (no cap): each 1/20."""
    plain = attack(19, 6, "1d8")
    assert (plain.need, plain.hit, plain.mean) == (13, Fraction(2, 5), Fraction(9, 5))
    assert plain.damage == {0: Fraction(3, 5), **{k: Fraction(1, 20) for k in range(1, 9)}}
    severe = attack(19, 6, "1d8", crits="c2-severity", sf=7)
    assert (severe.hit, severe.mean, severe.damage[15]) == (Fraction(2, 5), Fraction(27, 8), Fraction(1, 20))
    assert severe.slowed == {0: Fraction(13, 20), **{k: Fraction(1, 20) for k in range(1, 8)}}
    assert attack(19, 6, "1d8", crits="c2-severity", sf=3).slowed[3] == Fraction(4, 20)  # d20 2-5: 6-3, capped 3


# -- against the engine, every initiative roll ----------------------------------------------------------------
def duel(ruleset: str, x: int, y: int, a: Contender, b: Contender, spell_ct: int | None) -> str:
    """A (side a) and B (side b), alone, every initiative die given (phase-count: the opening roll)."""
    key = 0 if ruleset == "phase-count" else 1
    if spell_ct is None:
        a_plan, b_outcome, spells = "{melee: B, outcome: {hit: false}}", "{hit: false}", ""
    else:
        a_plan, b_outcome = "{cast: zap, at: B}", "{hit: true, damage: 1}"
        spells = f", spells: [{{name: zap, level: 1, ct: {spell_ct}, components: VS}}]"

    def weapon(c: Contender) -> str:
        return f"{{name: w, sf: {c.sf}, damage: 1d4" + (f", speed: {c.speed}" if c.speed else "") + "}"

    return f"""
surprise: none
sides:
  a:
    pc: true
    combatants: [{{name: A, hp: 30, dex: {a.dex}, weapons: [{weapon(a)}]{spells}}}]
  b:
    pc: true
    combatants: [{{name: B, hp: 30, dex: {b.dex}, weapons: [{weapon(b)}]}}]
rolls:
  initiative: {{{key}: {{a: {x}, b: {y}}}}}
plan:
  A: [{a_plan}]
  B: [{{melee: A, outcome: {b_outcome}}}]
"""


def engine_odds(ruleset: str, a: Contender, b: Contender, options: dict[str, Any],
                spell_ct: int | None = None) -> dict[str, Fraction]:
    """Play every pair of initiative dice once and count: whose melee event has the earlier tick (equal ticks
    are simultaneous, CONTRACT), or whether A's spell took effect (a ``cast`` event)."""
    n = DIE[ruleset]
    counts = {"a": 0, "b": 0, "together": 0, "completes": 0}
    for x in range(1, n + 1):
        for y in range(1, n + 1):
            loaded = load_text(duel(ruleset, x, y, a, b, spell_ct))
            events = prepare(loaded, ruleset=ruleset, seed=1, options=options).fight(
                max_rounds=5, explain=False).run().events
            if spell_ct is not None:
                counts["completes"] += any(e.kind == "cast" and e.actor == "A" for e in events)
                continue
            ta = next(e.tick for e in events if e.kind == "melee" and e.actor == "A")
            tb = next(e.tick for e in events if e.kind == "melee" and e.actor == "B")
            counts["a" if ta < tb else "b" if tb < ta else "together"] += 1
    return {k: Fraction(v, n * n) for k, v in counts.items()}


FIRST_CASES = [  # (A, B, options)
    (Contender(10, 5), Contender(10, 7), {}),
    (Contender(17, 9), Contender(5, 2), {}),
    (Contender(18, 0), Contender(16, 12), {}),
]
OPTION_CASES = {"combat2-phase1": {"tie_track": "winner"}, "combat2-phase2": {"tie_track": "winner"},
                "d12-procedure": {"side_dex": "none"}, "side-d6": {"melee_disrupts": True}}


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_who_strikes_first_matches_the_engine_for_every_roll(ruleset: str) -> None:
    cases = [*FIRST_CASES, (Contender(16, 5), Contender(10, 5), OPTION_CASES.get(ruleset, {}))]
    if ruleset == "phase-count":  # a speed category wins over the SF (PC-03): very fast PM 1 against SF 2's PM 2
        cases.append((Contender(10, 9, "very fast"), Contender(10, 2), {}))
    for a, b, options in cases:
        engine = engine_odds(ruleset, a, b, options)
        odds = first(ruleset, a, b, options)
        assert (odds.a, odds.b, odds.together) == (engine["a"], engine["b"], engine["together"]), (a, b, options)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_spell_against_a_blow_matches_the_engine_for_every_roll(ruleset: str) -> None:
    cases = [(1, Contender(10), Contender(10, 7), {}), (3, Contender(17), Contender(10, 7), {}),
             (6, Contender(10), Contender(16, 3), {}), (4, Contender(10), Contender(10, 10),
                                                        OPTION_CASES.get(ruleset, {}))]
    for ct, caster, attacker, options in cases:
        engine = engine_odds(ruleset, caster, attacker, options, spell_ct=ct)
        odds = spell_vs_blow(ruleset, ct, attacker.sf, caster=caster, attacker=attacker, options=options)
        assert odds.completes == engine["completes"], (ct, caster, attacker, options)


ONE_BLOW = """\
surprise: none
options: {{crits: {crits}}}
sides:
  a:
    pc: true
    combatants: [{{name: A, hp: 10, thac0: 19, weapons: [{{name: w, sf: 7, damage: {dice}}}]}}]
  b:
    pc: true
    combatants: [{{name: B, hp: 1000, ac: 6, weapons: [{{name: w, sf: 7, damage: 1}}]}}]
plan:
  B: [{{none: true}}]
"""


@pytest.mark.parametrize(("dice", "faces"), [("1d8", [8]), ("2d4+1", [4, 4])])
@pytest.mark.parametrize("crits", ["none", "c2-severity"])
def test_attack_odds_match_the_engine_for_every_d20_and_damage_roll(dice: str, faces: list[int], crits: str) -> None:
    """Each d20 (1-20) and each throw of the damage dice (every face of each die, so each total with its
    multiplicity) given to the engine (a declaration's ``dice``); its damage, weighted 1 / (20 x faces...), is
    the odds' distribution exactly; so is the SF a miss slows the next strike by (its ``slowed`` condition)."""
    text = ONE_BLOW.format(crits=crits, dice=dice)
    throws = [sum(t) for t in _product(faces)]
    weight = Fraction(1, 20 * len(throws))
    damage: dict[int, Fraction] = {}
    slowed: dict[int, Fraction] = {}
    for d in range(1, 21):
        for total in throws:
            plan = f"  A: [{{melee: B, dice: {{attack: {d}, damage: {total}}}}}]\n"
            events = prepare(load_text(text + plan), ruleset="side-d6", seed=1).fight(max_rounds=1).run().events
            hit = next(e for e in events if isinstance(e, Melee))
            damage[hit.damage] = damage.get(hit.damage, Fraction(0)) + weight
            slow = next((e.amount for e in events if isinstance(e, Condition) and e.condition == "slowed"), 0)
            slowed[slow] = slowed.get(slow, Fraction(0)) + weight
    odds = attack(19, 6, dice, crits=crits, sf=7)
    assert {k: v for k, v in damage.items() if v} == odds.damage
    assert {k: v for k, v in slowed.items() if v} == odds.slowed


def _product(faces: list[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for f in faces:
        out = [t + (k,) for t in out for k in range(1, f + 1)]
    return out


def test_attack_odds_match_a_seeded_simulation(tmp_path: Path) -> None:
    """4,000 one-blow fights through ``simulate`` (A attacks once, B stands still): A's first-hit rate is the
    chance to hit, A's damage dealt the mean damage. Each within 4 standard errors of the exact value (a
    deviation that large happens by chance with probability 6e-5); the SE from the exact variance."""
    path = tmp_path / "blow.yaml"
    path.write_text(ONE_BLOW.format(crits="c2-severity", dice="1d8"), encoding="utf-8")
    n = 4000
    s = simulate(path, rulesets="side-d6", fights=n, seed=12, max_rounds=1, workers=1).rulesets["side-d6"]
    odds = attack(19, 6, "1d8", crits="c2-severity", sf=7)
    p = float(odds.hit)
    assert abs(s.sides["a"].first_blow_rate.p - p) < 4 * math.sqrt(p * (1 - p) / n)
    mean = float(odds.mean)
    var = sum(float(q) * (k - mean) ** 2 for k, q in odds.damage.items())
    assert abs(s.sides["a"].damage_dealt - mean) < 4 * math.sqrt(var / n)


# -- the command line -----------------------------------------------------------------------------------------
def test_odds_json_gives_exact_fractions() -> None:
    done = affray("odds", "first", "--ruleset", "side-d6", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["rulesets"]["side-d6"]["exact"] == {"a": "5/12", "b": "5/12", "together": "1/6"}
    done = affray("odds", "spell", "--ct", "3", "--sf", "7", "--json")
    doc = json.loads(done.stdout)
    assert set(doc["rulesets"]) == set(RULESET_IDS)
    assert doc["rulesets"]["combat2-phase1"]["exact"]["completes"] == "9/20"
    done = affray("odds", "attack", "--thac0", "19", "--ac", "6", "--damage", "1d8", "--crits", "c2-severity",
                  "--sf", "7", "--json")
    doc = json.loads(done.stdout)
    assert (doc["need"], doc["exact"]["hit"], doc["exact"]["mean"], doc["exact"]["damage"]["15"]) == (
        13, "2/5", "27/8", "1/20")


def test_odds_text_output() -> None:
    done = affray("odds", "first", "--dex-a", "16", "--sf-b", "7")
    assert done.returncode == 0, done.stderr
    assert "d12-procedure" in done.stdout and "A first" in done.stdout
    done = affray("odds", "attack", "--thac0", "19", "--ac", "6", "--damage", "1d8")
    assert "needs 13 on d20+0: hits 40.00% (2/5)" in done.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("first", "--ruleset", "nope"), "--ruleset: unknown ruleset 'nope'; valid rulesets: combat2-phase1"),
    (("first", "--set", "tie_wsf=true"), "--set tie_wsf: the odds of combat2-phase1"),
    (("first", "--ruleset", "side-d6", "--set", "tie_track=winner"), "the odds of side-d6 do not follow it"),
    (("first", "--speed-a", "quick"), "speed of A: 'quick' is not a speed category"),
    (("spell", "--ct", "11", "--sf", "5"), "Invalid value for '--ct'"),
    (("attack", "--thac0", "19", "--ac", "6", "--damage", "1x8"), "--damage: not a dice expression: '1x8'"),
    (("attack", "--thac0", "19", "--ac", "6", "--damage", "1d8", "--crits", "c2-tables"),
     "--crits 'c2-tables': choose one of none, c2-severity"),
])
def test_odds_bad_input_exits_2(args: tuple[str, ...], message: str) -> None:
    done = affray("odds", *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    assert message in done.stderr
