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


# ------------------------------------------------------------------------------- the books' own movement
# BX-06 (OSE SRD): a 10-second round at the encounter movement rate, a third of the base ("120' (40')"): MV 12 ->
# 120 // 3 = 40 ft, both the whole move and the move that still allows an attack; a fighting withdrawal at half the
# encounter rate, 40 // 2 = 20 ft. PH2-07 (2e PH, Chapter 9, Movement in Combat): "a being can move up to 10 times
# its movement rating in feet" (MV 12 -> 120 ft); "When closing for combat, a character can move up to half his
# allowed distance and still make a melee attack" (60 ft); withdrawing, "The character moves up to 1/3 his normal
# movement rate" (40 ft); "A charge increases the character's movement rate by 50%" (120 * 3 // 2 = 180 ft).

MOVING = """\
ruleset: {ruleset}
seed: 5
surprise: none
rolls: {{initiative: {{1: {{party: {party}, orcs: {orcs}}}, 2: {{party: {party}, orcs: {orcs}}}}}}}
sides:
  party:
{brom_at}    combatants:
      - {{name: Brom, class: fighter, level: 3, hp: 30, ac: 4, mv: 12, weapons: [{{name: long sword, damage: 1d8}}]}}
  orcs:
{orc_at}    combatants:
      - {{name: Orc, hd: 1, hp: 30, ac: 6, mv: 12, weapons: [{{name: club, damage: 1d6}}]}}
plan:
  Brom: [{brom}]
  Orc: [{orc}]
"""


def moving(ruleset: str, brom: str, orc: str = "{misc: stands}, {misc: stands}", *, apart: int | None = None,
           party: int = 5, orcs: int = 3) -> list[dict[str, Any]]:
    """Brom (MV 12) against an Orc (MV 12) for two rounds, the party first (d6 5 against 3 under bx-group); with
    ``apart``, the two stand that many feet apart on the x axis (docs/positions.md) instead of a typed distance."""
    text = MOVING.format(ruleset=ruleset, brom=brom, orc=orc, party=party, orcs=orcs,
                         brom_at="    at: [0, 0]\n" if apart is not None else "",
                         orc_at=f"    at: [{apart}, 0]\n" if apart is not None else "")
    doc = timeline_dict(prepare(load_text(text)).fight(max_rounds=2).run())
    return list(doc["events"])


def moves(evs: list[dict[str, Any]], who: str) -> list[tuple[int, int, str]]:
    return [(e["round"], e["feet"], e["mode"]) for e in evs if e["kind"] == "move" and e["actor"] == who]


def blows(evs: list[dict[str, Any]], who: str) -> list[int]:
    return [e["round"] for e in evs if e["kind"] == "melee" and e["actor"] == who and not e.get("opportunity")]


def test_bx_closes_at_the_encounter_rate_and_strikes_once_arrived() -> None:
    # BX-06: distance 60 > the encounter move 40: round 1 Brom moves 40 ft and cannot strike; round 2 the 60 - 40 =
    # 20 ft left are within the 40 ft that still allow an attack: he closes 20 and strikes in round 2.
    evs = moving("bx-group", "{melee: Orc, distance: 60}")
    assert moves(evs, "Brom") == [(1, 40, "full"), (2, 20, "half")]
    assert blows(evs, "Brom") == [2]
    assert "more than the encounter move (40 ft for MV 12)" in next(e for e in evs if e["kind"] == "move")["why"]
    # side-d6, unchanged: its one-minute full move of 120 ft covers the 60 in round 1 (MJ-05), no blow that round
    assert moves(moving("side-d6", "{melee: Orc, distance: 60}"), "Brom")[0] == (1, 60, "full")


def test_bx_closes_at_the_encounter_rate_with_places() -> None:
    # BX-06 with places 60 ft apart: 60 less the sword's 5 ft reach = 55 ft to close > 40: round 1 moves 40 ft
    # (0,0 -> 40,0), round 2 the last 55 - 40 = 15 ft (-> 55,0) and strikes.
    evs = moving("bx-group", "{melee: Orc}", apart=60)
    assert moves(evs, "Brom") == [(1, 40, "full"), (2, 15, "half")]
    assert blows(evs, "Brom") == [2]
    assert next(e for e in evs if e["kind"] == "move" and e["round"] == 2)["to"] == [55, 0]


def test_bx_within_the_encounter_rate_closes_and_strikes_the_same_round() -> None:
    # BX-06: distance 40 = the encounter move: closes 40 and strikes in round 1 (side-d6 the same: 40 = 120 // 3)
    evs = moving("bx-group", "{melee: Orc, distance: 40}")
    assert moves(evs, "Brom") == [(1, 40, "half")] and blows(evs, "Brom")[0] == 1


def test_bx_fighting_withdrawal_at_half_the_encounter_rate() -> None:
    # BX-06: engaged in round 1, the Orc withdraws in round 2 "at up to half their encounter movement rate":
    # 40 // 2 = 20 ft of the 60 it asks (side-d6 would allow a third of 120 = 40, MJ-10)
    orc = "{melee: Brom}, {move: 60, mode: withdraw}"
    assert moves(moving("bx-group", "{melee: Orc}, {misc: stands}", orc), "Orc") == [(2, 20, "withdraw")]
    assert moves(moving("side-d6", "{melee: Orc}, {misc: stands}", orc), "Orc") == [(2, 40, "withdraw")]


def test_bx_charge_needs_half_the_encounter_rate(tmp_path: Any) -> None:
    # BX-06 Decision: a charge runs at least half the encounter rate, 40 // 2 = 20 ft: distance 10 is refused
    text = MOVING.format(ruleset="bx-group", brom="{melee: Orc, distance: 10, charge: true}", orc="{misc: stands}",
                         party=5, orcs=3, brom_at="", orc_at="")
    path = tmp_path / "charge.yaml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "affray", "check", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "a charge covers at least half the encounter rate: 20 ft for MV 12 (BX-06); give distance >= 20" in (
        done.stderr)


def test_2e_closes_half_the_move_and_strikes() -> None:
    # PH2-07: "up to half his allowed distance and still make a melee attack": 120 // 2 = 60 ft. Distance 60:
    # closes 60 and strikes in round 1 (side-d6: 60 > its 40 ft third, a full move and no blow).
    evs = moving("adnd2e-standard", "{melee: Orc, distance: 60}", party=3, orcs=5)
    assert moves(evs, "Brom") == [(1, 60, "half")] and blows(evs, "Brom")[0] == 1
    # distance 90 > 60: a move of 90 ft (within the 120 of a round) and no blow; the blow in round 2 (a declaration
    # whose closing arrives is done: round 2's melee is declared again, as under side-d6)
    evs = moving("adnd2e-standard", "{melee: Orc, distance: 90}, {melee: Orc}", party=3, orcs=5)
    assert moves(evs, "Brom") == [(1, 90, "full")] and blows(evs, "Brom") == [2]


def test_2e_closes_half_the_move_with_places() -> None:
    # PH2-07 with places 95 ft apart: 95 - 5 ft reach = 90 ft to close > 60: a 90 ft move in round 1, the blow in
    # round 2; 65 ft apart: 60 ft to close, within the half move: closes and strikes in round 1.
    evs = moving("adnd2e-standard", "{melee: Orc}, {melee: Orc}", apart=95, party=3, orcs=5)
    assert moves(evs, "Brom") == [(1, 90, "full")] and blows(evs, "Brom") == [2]
    evs = moving("adnd2e-standard", "{melee: Orc}", apart=65, party=3, orcs=5)
    assert moves(evs, "Brom") == [(1, 60, "half")] and blows(evs, "Brom")[0] == 1


def test_2e_charge_runs_half_again_the_move() -> None:
    # PH2-07: "A charge increases the character's movement rate by 50% and enables the character to make an attack
    # at the end of his movement": 120 * 3 // 2 = 180 ft. Distance 150: charges 150 and strikes in round 1; side-d6
    # runs at most its full 120 ft (MJ-12) and cannot strike.
    evs = moving("adnd2e-standard", "{melee: Orc, distance: 150, charge: true}", party=3, orcs=5)
    assert moves(evs, "Brom") == [(1, 150, "charge")] and blows(evs, "Brom")[0] == 1
    evs = moving("side-d6", "{melee: Orc, distance: 150, charge: true}")
    assert moves(evs, "Brom")[0] == (1, 120, "charge") and 1 not in blows(evs, "Brom")


def test_2e_withdrawal_at_a_third() -> None:
    # PH2-07: withdrawing, "up to 1/3 his normal movement rate": 120 // 3 = 40 ft of the 60 asked
    orc = "{melee: Brom}, {move: 60, mode: withdraw}"
    evs = moving("adnd2e-standard", "{melee: Orc}, {misc: stands}", orc, party=3, orcs=5)
    assert moves(evs, "Orc") == [(2, 40, "withdraw")]


def test_2e_a_charge_longer_than_half_again_the_move_runs_180_ft_and_waits() -> None:
    # PH2-07: the charge's run is at most 120 * 3 // 2 = 180 ft: distance 200 > 180, so it runs 180 ft in round 1
    # with no attack yet (the 20 ft left, and the blow, come in round 2)
    evs = moving("adnd2e-standard", "{melee: Orc, distance: 200, charge: true}", party=3, orcs=5)
    assert moves(evs, "Brom")[0] == (1, 180, "charge") and 1 not in blows(evs, "Brom")
    first_move = next(e for e in evs if e["kind"] == "move")
    assert "a charge's longest run of 180 ft (MV 12) of the 200 ft" in first_move["why"]
