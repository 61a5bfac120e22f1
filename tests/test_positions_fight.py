"""Issue 38's fight: four player characters against twelve kobolds placed 90 ft apart, played to the end under
each of the six rulesets (every die from the seed, both sides by their policies), checked against what the seeds
say of place, from the events alone (the test keeps its own map of where everyone stands):

- nobody is struck in melee from beyond its attacker's reach (5 ft, the catalogue's daggers, swords, maces; but
  side-d6's free attack on one running right past, MJ-09, comes as it passes: the test's map has it where it
  began its move), and
  no shot flies beyond its bow's long range (the thief's short bow: 50/100/150 ft, 2e PH);
- every move starts where its mover stood, and covers no more than the ruleset's rate allows at its moment
  (side-d6: a full move, MV x 10 ft a round, MJ-05; Combat II: MV x 10 / 3 a phase at x1, more only when running,
  P1-07, C2-19; speed-segments: half a move at each half of the round, SEG-07; phase-count: a full move, PC-05;
  d12-procedure: the full move of D12-11);
- the sides close (the first blow comes after a move brought someone within reach: 90 ft is beyond every reach)
  and engage (blows are struck), and whoever withdraws, retreats or flees ends farther from the foe it left;
- the fight ends with a winner.

And the referee's lines a round at the console are no more with places than without (the pace test's table).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from affray import load_text, prepare, timeline_dict
from affray.rulesets import RULESETS

FIGHT = """\
seed: {seed}
surprise: none
sides:
  party:
    pc: true
    at: [0, 0]
    combatants:
      - {{name: Brom, class: fighter, level: 3, hp: 24, ac: 4, weapons: [long sword]}}
      - {{name: Hild, class: fighter, level: 2, hp: 16, ac: 5, weapons: [long sword]}}
      - {{name: Osric, class: cleric, level: 2, hp: 12, ac: 5, weapons: [footman's mace]}}
      - {{name: Wren, class: thief, level: 3, hp: 11, ac: 7, weapons: [{{name: short bow, sf: 7, damage: 1d6,
         kind: missile, rate: 2, range: [50, 100, 150], ammo: 24}}, short sword]}}
  kobolds:
    at: [90, -25]
    combatants:
      - {{monster: kobold, count: 12}}
"""
#: The most feet one move event may cover, by ruleset, for MV ``mv`` (see the module's docstring).
RATE = {"side-d6": lambda mv: mv * 10, "combat2-phase1": lambda mv: mv * 10, "combat2-phase2": lambda mv: mv * 10,
        "speed-segments": lambda mv: mv * 10, "phase-count": lambda mv: mv * 10, "d12-procedure": lambda mv: mv * 10}
MV = {"Brom": 12, "Hild": 12, "Osric": 12, "Wren": 12}  # the kobolds: MV 6 (the catalogue's OSE figures)


def _apart(a: list[int], b: list[int]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _fight(ruleset: str, seed: int) -> dict[str, Any]:
    prepared = prepare(load_text(FIGHT.format(seed=seed)), ruleset=ruleset)
    return timeline_dict(prepared.fight(auto=True, max_rounds=30).run())


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("ruleset", list(RATE))  # the six house systems; the books' baselines run side-d6's moves
def test_the_kobold_fight_closes_engages_and_disengages_as_the_seeds_say(ruleset: str, seed: int) -> None:
    doc = _fight(ruleset, seed)
    at: dict[str, list[int]] = {"Brom": [0, 0], "Hild": [0, 5], "Osric": [0, 10], "Wren": [0, 15]}
    at |= {f"Kobold {k}": [90, -25 + 5 * (k - 1)] for k in range(1, 13)}
    side = {n: ("party" if n in MV else "kobolds") for n in at}
    out: set[str] = set()  # down, fled or gone: no longer a foe to keep away from
    blows = shots = moved_then_struck = 0
    first_blow_seen = False
    for e in doc["events"]:
        actor = e["actor"]
        if e["kind"] in ("move", "place") and "to" in e:
            assert e["from"] == at[actor], (e["seq"], actor, e["from"], at[actor])
            assert e["feet"] <= RATE[ruleset](MV.get(actor, 6)), e
            if e.get("mode") in ("withdraw", "retreat", "flee") and e["feet"]:
                foes = [at[n] for n in at if side[n] != side[actor] and n not in out]
                before = min(_apart(e["from"], p) for p in foes)
                after = min(_apart(e["to"], p) for p in foes)
                assert after >= before, (e["seq"], actor, e.get("mode"), before, after)
            at[actor] = e["to"]
            if e.get("leaves") and not e.get("stopped"):
                out.add(actor)
        elif e["kind"] in ("down", "leave", "surrender"):
            out.add(actor)
        elif e["kind"] == "melee":
            gap = _apart(at[actor], at[e["target"]])
            if not (e.get("opportunity") and "right past" in e.get("why", "")):  # MJ-09: struck as it runs past,
                # from where it began its move (out of reach there: that is what running past is)
                assert gap <= 5.75, (e["seq"], actor, e["target"], gap)  # 5 ft reach, 0.75 for whole feet (P-1)
            blows += 1
            if not first_blow_seen:
                first_blow_seen = True
                moved_then_struck = 1
        elif e["kind"] == "missile":
            assert _apart(at[actor], at[e["target"]]) <= 150.75, e
            shots += 1
    assert blows > 0 and moved_then_struck  # the sides closed from 90 ft and engaged
    assert doc["winner"] in ("party", "kobolds"), doc["winner"]
    assert all("at" in c for c in doc["combatants"].values())
    assert shots <= 24


# -- the referee's lines a round, with places and without ---------------------------------------------------------
@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_places_add_no_typed_lines_at_the_console(tmp_path: Path, ruleset: str) -> None:
    # The pace test's fight and referee (tests/test_table_pace.py), once as it is and once with the party at [0, 0]
    # and the kobolds at [90, 0]: a round's lines with places at most what they were without (the rounds both
    # reached).
    from test_table_pace import FIGHT as PLAIN
    from test_table_pace import play

    placed = PLAIN.replace("    pc: true\n", "    pc: true\n    at: [0, 0]\n").replace(
        "    declare: repeat\n", "    declare: repeat\n    at: [90, 0]\n")
    assert placed.count("at: [") == 2
    lines = {}
    for name, text in (("plain", PLAIN), ("placed", placed)):
        file = tmp_path / f"{name}.yaml"
        file.write_text(text, encoding="utf-8")
        lines[name] = play(file, ruleset, tmp_path / f"{name}.db")
    both = set(lines["plain"]) & set(lines["placed"])
    assert both, lines
    assert all(lines["placed"][r] <= lines["plain"][r] for r in both), lines


# -- the simulator: places from the file, a bow keeping its range, a varied starting distance ----------------------
def test_a_bow_keeps_its_range_under_auto() -> None:
    # side-d6, surprise none. Wren (a short bow) at [0, 0], a kobold 10 ft off at [10, 0], within KEEP_FEET (15 ft);
    # Brom, her ally, far off at [0, 100]. Her policy steps away before she shoots: a half move of 120 / 2 = 60 ft,
    # which side-d6 holds to the free 1/3 move, 40 ft (MJ-05), straight away from the kobold: [0, 0] -> [-40, 0].
    text = """\
seed: 1
surprise: none
sides:
  party:
    pc: true
    combatants:
      - {name: Wren, class: thief, level: 3, hp: 11, at: [0, 0],
         weapons: [{name: short bow, sf: 7, damage: 1d6, kind: missile, range: [50, 100, 150]}, short sword]}
      - {name: Brom, class: fighter, level: 3, hp: 24, at: [0, 100], weapons: [long sword]}
  kobolds:
    combatants:
      - {monster: kobold, name: Kobold, hp: 4, at: [10, 0]}
plan:
  Kobold: [{none: true}]
  Brom: [{none: true}]
"""
    doc = timeline_dict(prepare(load_text(text), ruleset="side-d6").fight(auto=True, max_rounds=1).run())
    moves = [(e["feet"], e["from"], e["to"]) for e in doc["events"] if e["kind"] == "move" and e["actor"] == "Wren"]
    assert moves == [(40, [0, 0], [-40, 0])]


def test_simulate_varies_a_starting_distance(tmp_path: Path) -> None:
    # --vary sides.kobolds.at[0]=30,300: the kobolds' rank 30 ft, then 300 ft, from the party's. At 300 ft no blow
    # lands in round 1 (side-d6, a round is 60 s): closing 180 ft a round at most (the PCs' 120 + the kobolds' 60),
    # a full move allows nothing else (MJ-05), and 300 ft is beyond the bow's long range (150 ft). So the first
    # blow's mean is at 60 s or later, and later than at 30 ft.
    from cli_run import affray_here

    file = tmp_path / "kobolds.yaml"
    file.write_text(FIGHT.format(seed=5), encoding="utf-8")
    done = affray_here("simulate", file, "--ruleset", "side-d6", "--fights", "8", "--vary",
                       "sides.kobolds.at[0]=30,300", "--json")
    assert done.returncode == 0, done.stderr
    import json

    points = {p["values"]["sides.kobolds.at[0]"]: p["rulesets"]["side-d6"] for p in json.loads(done.stdout)["points"]}
    near, far = points[30]["first_blow_at"]["mean"], points[300]["first_blow_at"]["mean"]
    assert far >= 60 and far > near, (near, far)


def test_a_declared_move_says_its_way() -> None:
    """A placed fight's declaration reads as the referee said it: the way (toward NAME, away from NAME, to [X, Y])
    after the feet, in the declare event (the timeline, the console). Before, each read "move N ft" alone."""
    text = """\
seed: 1
surprise: none
sides:
  party:
    combatants:
      - {name: Wren, hp: 11, at: [0, 0], weapons: [{name: dagger, damage: 1d4}]}
      - {name: Brom, hp: 24, at: [0, 100], weapons: [{name: sword, damage: 1d8}]}
      - {name: Hild, hp: 16, at: [0, -100], weapons: [{name: sword, damage: 1d8}]}
  kobolds:
    combatants:
      - {name: Kobold, hp: 4, at: [200, 0], weapons: [{name: spear, damage: 1d6}]}
plan:
  Wren: [{move: 30, toward: Kobold}]
  Brom: [{move: 20, away: Kobold, mode: withdraw}]
  Hild: [{move: 10, to: [5, -100]}]
  Kobold: [{none: true}]
"""
    doc = timeline_dict(prepare(load_text(text), ruleset="side-d6").fight(max_rounds=1).run())
    said = {e["actor"]: e["detail"] for e in doc["events"] if e["kind"] == "declare"}
    assert said["Wren"] == "move 30 ft toward Kobold"
    assert said["Brom"] == "move 20 ft (withdraw) away from Kobold"
    assert said["Hild"] == "move 10 ft to [5, -100]"
