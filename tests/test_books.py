"""The books' initiative as baselines (issue 40): ``bx-group`` (B/X group initiative, the Old-School Essentials SRD's
"Combat" and "Encounters" pages) and ``adnd2e-standard`` (the AD&D 2nd edition Player's Handbook, Chapter 9,
"Standard Initiative Procedure"). Every expectation is worked by hand from those texts with the dice given in the
file (``rolls``), and cites the rule as docs/rulesets/bx-group.md and adnd2e-standard.md number it."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from affray import load_text, prepare, timeline_dict

FIGHT = """\
ruleset: {ruleset}
seed: 5
{extra}
sides:
  party:
    combatants:
      - {{name: Brom, class: fighter, level: 3, hp: 30, ac: 4, weapons: [{{name: long sword, damage: 1d8}}]}}
  orcs:
    combatants:
      - {{name: Orc, hd: 1, hp: 30, ac: 6, weapons: [{{name: club, damage: 1d6}}]}}
plan:
  Brom: [{{melee: Orc}}]
  Orc: [{{melee: Brom}}]
"""


def events(ruleset: str, extra: str = "", rounds: int = 1) -> list[dict[str, Any]]:
    prepared = prepare(load_text(FIGHT.format(ruleset=ruleset, extra=extra)))
    doc = timeline_dict(prepared.fight(max_rounds=rounds).run())
    return list(doc["events"])


def first(evs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in evs if e["kind"] == kind)


def attackers(evs: list[dict[str, Any]]) -> list[str]:
    return [e["actor"] for e in evs if e["kind"] == "melee" and e["tick"][0] == 1]


# ------------------------------------------------------------------------------------------------ bx-group

def test_bx_high_d6_acts_first() -> None:
    # BX-02 (OSE SRD, Initiative): "each side rolls 1d6 ... The side with the highest result acts first".
    # party 5 > orcs 3: the party's melee comes before the orcs'.
    evs = events("bx-group", "surprise: none\nrolls: {initiative: {1: {party: 5, orcs: 3}}}")
    ini = first(evs, "initiative")
    assert ini["ranks"] == {"party": 1, "orcs": 2} and ini["results"] == {"party": 5, "orcs": 3}
    assert attackers(evs) == ["Brom", "Orc"]
    # the reverse: party 2 < orcs 6, the orcs first
    evs = events("bx-group", "surprise: none\nrolls: {initiative: {1: {party: 2, orcs: 6}}}")
    assert first(evs, "initiative")["ranks"] == {"party": 2, "orcs": 1}
    assert attackers(evs) == ["Orc", "Brom"]


def test_bx_tied_sides_act_at_the_same_time() -> None:
    # BX-03 (OSE SRD, Tied initiative): "each side in the tie acts at the same time": 4 and 4, one rank, one turn
    evs = events("bx-group", "surprise: none\nrolls: {initiative: {1: {party: 4, orcs: 4}}}")
    ini = first(evs, "initiative")
    assert ini["ranks"] == {"party": 1, "orcs": 1}
    assert "tie, everybody acts at the same time (BX-03)" in ini["detail"]
    blows = [e for e in evs if e["kind"] == "melee" and e["tick"][0] == 1]
    assert len({tuple(e["tick"]) for e in blows}) == 1  # the same moment: simultaneous


def test_bx_tie_rerolled_with_the_option() -> None:
    # BX-03, option ties: reroll: 4 and 4 are given, so both roll a d6 again from the seed until they differ
    evs = events("bx-group", "surprise: none\noptions: {ties: reroll}\nrolls: {initiative: {1: {party: 4, orcs: 4}}}")
    ini = first(evs, "initiative")
    assert sorted(ini["ranks"].values()) == [1, 2]
    assert ini["results"]["party"] != ini["results"]["orcs"]
    rolled = [d for d in ini["dice"] if d["purpose"] == "initiative"]
    assert len(rolled) >= 4 and [d["value"] for d in rolled[:2]] == [4, 4]  # the given pair, then re-rolls


def test_bx_surprise_on_1_or_2_of_a_d6() -> None:
    # BX-01 (OSE SRD, Surprise): 1d6 a side, 1-2 surprised. party 2: surprised; orcs 3: not.
    evs = events("bx-group", "surprise: check\nrolls: {surprise: {party: 2, orcs: 3}}")
    s = first(evs, "surprise")
    assert s["surprised"] == ["party"] and "(BX-01)" in s["why"]
    assert attackers(evs) == ["Orc"]  # the surprised party does nothing in round 1
    # both 1-2: "neither side has an advantage": nobody loses the round
    s = first(events("bx-group", "surprise: check\nrolls: {surprise: {party: 1, orcs: 2}}"), "surprise")
    assert s.get("surprised", []) == [] and "nobody has the advantage" in s["detail"]


# ---------------------------------------------------------------------------------------- adnd2e-standard

def test_2e_low_d10_acts_first_as_the_phbs_example() -> None:
    # PH2-02 (2e PH, Standard Initiative Procedure: "Low roll wins initiative"); the PH's own example: "Harry,
    # rolling for the player characters, gets a 7 ... The DM rolls a 10. The player characters, having the lowest
    # number, act first."
    evs = events("adnd2e-standard", "surprise: none\nrolls: {initiative: {1: {party: 7, orcs: 10}}}")
    ini = first(evs, "initiative")
    assert ini["ranks"] == {"party": 1, "orcs": 2}
    assert attackers(evs) == ["Brom", "Orc"]
    assert "(PH2-02)" in next(e for e in evs if e["kind"] == "melee")["why"]


def test_2e_ties_are_simultaneous() -> None:
    # PH2-03: "If both (or all) sides roll the same number for initiative, everything happens simultaneously"
    evs = events("adnd2e-standard", "surprise: none\nrolls: {initiative: {1: {party: 9, orcs: 9}}}")
    assert first(evs, "initiative")["ranks"] == {"party": 1, "orcs": 1}
    blows = [e for e in evs if e["kind"] == "melee" and e["tick"][0] == 1]
    assert len(blows) == 2 and blows[0]["tick"] == blows[1]["tick"]


def test_2e_surprise_on_1_to_3_of_a_d10() -> None:
    # PH2-01: a d10 a side, 1-3 surprised: orcs 3 surprised, party 4 not
    evs = events("adnd2e-standard", "surprise: check\nrolls: {surprise: {party: 4, orcs: 3}}")
    assert first(evs, "surprise")["surprised"] == ["orcs"]
    assert attackers(evs) == ["Brom"]


def test_2e_initiative_die_is_a_d10_in_the_files_check(tmp_path: Any) -> None:
    # rolls.initiative takes d10 results under adnd2e-standard (10 is fine), d6 under bx-group (7 is not)
    prepare(load_text(FIGHT.format(ruleset="adnd2e-standard", extra="rolls: {initiative: {1: {party: 10}}}")))
    path = tmp_path / "bx.yaml"
    path.write_text(FIGHT.format(ruleset="bx-group", extra="rolls: {initiative: {1: {party: 7}}}"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "affray", "check", str(path)], capture_output=True, text=True)
    assert done.returncode == 2 and "7 is not a d6 result (1-6)" in done.stderr


def test_compare_shows_the_books_beside_the_six(skirmish_path: Any) -> None:
    """``affray compare`` (every ruleset) on the shipped skirmish: the two baselines after the six house systems."""
    done = subprocess.run([sys.executable, "-m", "affray", "compare", str(skirmish_path), "--fights", "10", "--seed",
                           "1",
                           "--workers", "1", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert list(doc["rulesets"]) == ["combat2-phase1", "combat2-phase2", "side-d6", "speed-segments",
                                     "phase-count", "d12-procedure", "bx-group", "adnd2e-standard"]


# ---------------------------------------------------------------- adnd2e-standard: Table 55's modifiers (PH2-06)

TWO = """\
ruleset: adnd2e-standard
seed: 5
surprise: none
options: {{modifiers: {modifiers}}}
rolls: {{initiative: {{1: {{party: {party}, orcs: {orcs}}}}}}}
sides:
  party:
    combatants:
      - {{name: Brom, class: fighter, level: 3, hp: 30, ac: 4, weapons: [{{name: long sword, damage: 1d8}}]}}
      - {{name: Sela, class: fighter, level: 3, hp: 30, ac: 4, weapons: [{{name: spear, damage: 1d6}}]}}
  orcs:
    combatants:
      - {{name: Orc, hd: 1, hp: 30, ac: 6, weapons: [{{name: club, damage: 1d6}}]}}
plan:
  Brom: [{brom}]
  Sela: [{sela}]
  Orc: [{orc}]
"""


def initiative(modifiers: bool, party: int, orcs: int, brom: str, sela: str, orc: str = "{melee: Brom}") -> Any:
    text = TWO.format(modifiers=str(modifiers).lower(), party=party, orcs=orcs, brom=brom, sela=sela, orc=orc)
    return first(timeline_dict(prepare(load_text(text)).fight(max_rounds=1).run())["events"], "initiative")


def test_2e_higher_ground_shared_by_the_whole_side_takes_one_off_its_d10() -> None:
    # PH2-06, Table 55: "On higher ground -1", for the side only when all its members are so placed.
    # party d10 7 - 1 = 6 against the orcs' 6: a tie, everything at once (PH2-03); without the option 7 > 6: the
    # orcs act first.
    both = "{melee: Orc, situation: [higher_ground]}"
    ini = initiative(True, 7, 6, both, both)
    assert ini["ranks"] == {"party": 1, "orcs": 1}
    assert "party d10=7 -1 (higher_ground) = 6" in ini["detail"]
    assert initiative(False, 7, 6, both, both)["ranks"] == {"party": 2, "orcs": 1}


def test_2e_a_modifier_only_some_of_the_side_have_does_not_count() -> None:
    # PH2-06: all or nothing for the group: Brom hasted (-2), Sela not: the party's d10 stays 7, after the orcs' 6
    ini = initiative(True, 7, 6, "{melee: Orc, situation: [hasted]}", "{melee: Orc}")
    assert ini["ranks"] == {"party": 2, "orcs": 1} and "hasted" not in ini["detail"]
    # both hasted: 7 - 2 = 5 < 6, the party first
    both = "{melee: Orc, situation: [hasted]}"
    assert initiative(True, 7, 6, both, both)["ranks"] == {"party": 1, "orcs": 2}


def test_2e_a_side_waiting_takes_one_more() -> None:
    # PH2-06, Table 55: "Waiting +1": the orcs' only member waits: 5 + 1 = 6 against the party's 6: a tie
    ini = initiative(True, 6, 5, "{melee: Orc}", "{melee: Orc}", orc="{wait: true}")
    assert ini["ranks"] == {"party": 1, "orcs": 1} and "orcs d10=5 +1 (waiting) = 6" in ini["detail"]


def test_2e_an_unknown_situation_is_refused_naming_the_table(tmp_path: Any) -> None:
    text = TWO.format(modifiers="true", party=1, orcs=2, brom="{melee: Orc, situation: [flying]}",
                      sela="{melee: Orc}", orc="{melee: Brom}")
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "affray", "check", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "plan.Brom[0].situation: situation takes a list of: hasted, slowed" in done.stderr
    assert "Traceback" not in done.stderr
