"""Where everyone stands (CONTRACT "Where everyone stands"): places from the file, movement that changes them, and
the questions of place the engine answers from them (reach, range, ammunition). Every expectation is worked by hand
from the seed's sentence, feet and rates in the comments, rule IDs cited.

Builders: side_d6_helpers (a level-1 fighter ``pc``: MV 12, so 120 ft a round, 1/3 = 40 ft; an ``orc``: MV 12).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from affray import EncounterError, load_text
from side_d6_helpers import NONE, SHORT_BOW, attacks, encounter, events, melee, missile, one, orc, pc, play


def _placed(party_at: list[int], foes_at: list[int], party: list[dict[str, Any]], foes: list[dict[str, Any]]
            ) -> dict[str, Any]:
    return {"party": {"at": party_at, "combatants": party}, "orcs": {"at": foes_at, "combatants": foes}}


# -- places from the file ------------------------------------------------------------------------------------------
def test_a_side_stands_in_a_rank_and_a_combatants_own_place_wins() -> None:
    # party at [0, 0]: Ann [0, 0], Cob (own at [0, 40]), Bea the next of the rank: [0, 5] (5 ft apart along y);
    # orcs: a count of 3 at their own [60, 10]: [60, 10], [60, 15], [60, 20]
    doc = play({"party": {"at": [0, 0], "combatants": [pc("Ann"), pc("Cob", at=[0, 40]), pc("Bea")]},
                "orcs": [orc("Orc", count=3, at=[60, 10])]},
               {"Ann": [NONE], "Bea": [NONE], "Cob": [NONE], "Orc 1": [NONE], "Orc 2": [NONE], "Orc 3": [NONE]},
               initiative={1: {"party": 5, "orcs": 2}}, max_rounds=1)
    at = {name: c.get("at") for name, c in doc["combatants"].items()}
    assert at == {"Ann": [0, 0], "Cob": [0, 40], "Bea": [0, 5], "Orc 1": [60, 10], "Orc 2": [60, 15],
                  "Orc 3": [60, 20]}


def test_without_places_nobody_has_an_at() -> None:
    doc = play({"party": [pc("Ann")], "orcs": [orc("Orc")]}, {"Ann": [NONE], "Orc": [NONE]},
               initiative={1: {"party": 5, "orcs": 2}}, max_rounds=1)
    assert all("at" not in c for c in doc["combatants"].values())


def test_a_combatant_left_without_a_place_is_named_with_its_field_path() -> None:
    text = encounter({"party": {"at": [0, 0], "combatants": [pc("Ann")]}, "orcs": [orc("Orc")]}, {})
    with pytest.raises(EncounterError) as err:
        load_text(text, "fight.json")
    message = str(err.value)
    assert "fight.json" in message and "sides.orcs.combatants[0].at" in message and "sides.party.at" in message


def test_distance_typed_with_places_is_an_error_naming_them() -> None:
    text = encounter(_placed([0, 0], [60, 0], [pc("Ann")], [orc("Orc")]), {"Ann": [melee("Orc", distance=55)]})
    with pytest.raises(EncounterError) as err:
        load_text(text, "fight.json")
    message = str(err.value)
    assert "plan.Ann[0].distance" in message and "sides.party.at" in message


def test_a_place_out_of_bounds_is_refused() -> None:
    text = encounter(_placed([0, 0], [60_000, 0], [pc("Ann")], [orc("Orc")]), {})
    with pytest.raises(EncounterError) as err:
        load_text(text, "fight.json")
    assert "sides.orcs.at" in str(err.value)


# -- side-d6 (seed 001): the three faults -------------------------------------------------------------------------
def test_side_d6_a_standing_melee_closes_once_then_strikes() -> None:
    # MJ-05: Brom at [0, 0], the archer at [60, 0]: 60 - 5 (sword's reach) = 55 ft to close, more than the free 1/3
    # move (120 / 3 = 40 ft), so round 1 is a move of 55 ft (of at most 120) and nothing else: [0, 0] -> [55, 0].
    # Round 2, the same declaration standing: 60 - 55 = 5 ft apart, within reach: no move, the blow at step 7.
    doc = play(_placed([0, 0], [60, 0], [pc("Brom", declare="repeat")], [orc("Archer", weapons=[SHORT_BOW])]),
               {"Brom": [melee("Archer", 2), melee("Archer", 2)], "Archer": [NONE, NONE]},
               initiative={1: {"party": 5, "orcs": 2}, 2: {"party": 5, "orcs": 2}}, max_rounds=2)
    moves = events(doc, "move", "Brom")
    assert [(m["round"], m["from"], m["to"], m["feet"]) for m in moves] == [(1, [0, 0], [55, 0], 55)]
    assert "55 ft" in moves[0]["why"] and "40 ft" in moves[0]["why"]
    blows = attacks(doc, "Brom")
    assert [(b["round"], b["tick"][2]) for b in blows] == [(2, 7)]
    assert doc["combatants"]["Brom"]["at"] == [55, 0]


def test_side_d6_a_closer_follows_a_foe_who_moved_first_within_the_free_third() -> None:
    # MJ-05: a melee attacker closes in step 4 "within the free 1/3 move" and strikes at step 7. The orc [15, 0]
    # declares melee Brom [0, 0]: 15 - 5 (reach) = 10 ft to close then. The party wins initiative (5 against 2), so
    # Brom's move [0, 0] -> [0, 10] comes first; at the orcs' step 4 Brom stands sqrt(15^2 + 10^2) = 18.03 ft off:
    # 13.03 ft to close, still within the free third (120 / 3 = 40 ft), so the orc follows him: 13.03 ft along
    # the line, [15 - 13.03 x 15 / 18.03, 13.03 x 10 / 18.03] = [4.16, 7.23] -> [4, 7], 13 ft, sqrt(4^2 + 3^2) =
    # 5 ft from Brom: in reach, and its d20 20 hits at step 7. (It once closed the 10 ft of the round's start, to
    # [7, 6], 8 ft off, and its blow was refused as out of reach.)
    doc = play(_placed([0, 0], [15, 0], [pc("Brom")], [orc("Orc")]),
               {"Brom": [{"move": 10, "to": [0, 10]}], "Orc": [melee("Brom", 20, 3)]},
               initiative={1: {"party": 5, "orcs": 2}}, max_rounds=1)
    assert one(doc, "move", "Brom")["to"] == [0, 10]
    closing = one(doc, "move", "Orc")
    assert (closing["from"], closing["to"], closing["feet"]) == ([15, 0], [4, 7], 13)
    blows = attacks(doc, "Orc")
    assert [(b["round"], b["tick"][2], b["hit"]) for b in blows] == [(1, 7, True)]


def test_side_d6_a_retreat_out_of_reach_ends_the_engagement() -> None:
    # Round 1: Brom [0, 0] and the orc [5, 0] trade misses (in reach, 5 ft): engaged. Round 2: Brom retreats (MJ-11:
    # full speed away, 120 ft for MV 12; the orc's free attack, d20 2, misses: 2 < 14 needed), so he goes straight
    # away from the orc, [0, 0] -> [-120, 0], 125 ft from it; the orc's melee at step 7 finds him out of its axe's
    # 5 ft reach: no blow.
    doc = play(_placed([0, 0], [5, 0], [pc("Brom")], [orc("Orc", hp=10)]),
               {"Brom": [melee("Orc", 2), {"move": 200, "mode": "retreat"}],
                "Orc": [melee("Brom", 2), melee("Brom", 20, 7)]},
               initiative={1: {"party": 5, "orcs": 2}, 2: {"party": 5, "orcs": 2}},
               referee={("attack", "Orc"): [2]}, max_rounds=2)
    retreat = one(doc, "move", "Brom")
    assert (retreat["from"], retreat["to"], retreat["feet"]) == ([0, 0], [-120, 0], 120)
    free = [a for a in attacks(doc, "Orc") if a["round"] == 2 and a.get("opportunity")]
    assert len(free) == 1 and free[0]["hit"] is False
    assert not [a for a in attacks(doc, "Orc") if a["round"] == 2 and not a.get("opportunity")]
    refused = one(doc, "impossible", "Orc", round=2)
    assert "125 ft" in refused["why"] and "out of reach" in refused["why"]
    assert doc["combatants"]["Brom"]["hp"] == 10


# -- range and ammunition (2e PH: medium -2, long -5; beyond long refused) -----------------------------------------
BOW = {**SHORT_BOW, "range": [50, 100, 150], "ammo": 2}


@pytest.mark.parametrize(("feet", "mod"), [(50, 0), (100, -2), (150, -5)])
def test_a_missile_takes_its_range_bands_modifier(feet: int, mod: int) -> None:
    # The archer [0, 0] shoots Ann at [feet, 0]: short up to 50 ft (0), medium to 100 (-2), long to 150 (-5).
    # d20 14 vs the orc's THAC0 19 - AC 5 = 14: 14 + mod hits only at short range.
    doc = play({"party": {"at": [feet, 0], "combatants": [pc("Ann")]},
                "orcs": {"at": [0, 0], "combatants": [orc("Archer", weapons=[BOW])]}},
               {"Ann": [NONE], "Archer": [missile("Ann", 14, 3)]},
               initiative={1: {"party": 2, "orcs": 5}}, max_rounds=1)
    shot = one(doc, "missile", "Archer")
    assert shot["hit"] is (mod == 0)
    if mod:
        assert f"{mod} (" in shot["detail"] and f"{feet} ft" in shot["detail"]


def test_beyond_long_range_is_refused_in_words() -> None:
    # 400 ft is beyond the short bow's long range of 150 ft.
    doc = play({"party": {"at": [400, 0], "combatants": [pc("Ann")]},
                "orcs": {"at": [0, 0], "combatants": [orc("Archer", weapons=[BOW])]}},
               {"Ann": [NONE], "Archer": [missile("Ann", 14, 3)]},
               initiative={1: {"party": 2, "orcs": 5}}, max_rounds=1)
    assert not attacks(doc, "Archer")
    said = json.dumps(doc["events"])
    assert "400 ft" in said and "long range (150 ft)" in said


def test_ammunition_is_counted_and_refused_when_spent() -> None:
    # ammo 2: rounds 1 and 2 shoot (d20 1: misses), round 3 has none left.
    doc = play({"party": {"at": [30, 0], "combatants": [pc("Ann")]},
                "orcs": {"at": [0, 0], "combatants": [orc("Archer", weapons=[BOW])]}},
               {"Ann": [NONE, NONE, NONE], "Archer": [missile("Ann", 1, 1)] * 3},
               initiative={r: {"party": 2, "orcs": 5} for r in (1, 2, 3)}, max_rounds=3)
    assert [a["round"] for a in attacks(doc, "Archer")] == [1, 2]
    assert "no shots left" in json.dumps(doc["events"])


# -- Combat II Phase System I (seed 000): the overrun ---------------------------------------------------------------
def test_combat2_a_charger_that_overruns_must_close_again() -> None:
    # C2-20: Aldo (MV 16, mounted) charges the troll 135 ft off at x3: 16 x 10 x 3 / 3 = 160 ft this phase (C2-19's
    # STR check d20 5 vs 12 passes). Contact after 135 - 5 (the lance's reach) = 130 ft, [0, 0] -> [130, 0]; the
    # momentum carries him the full remainder, 160 - 130 = 30 ft, on past the troll: [130, 0] -> [160, 0], 25 ft
    # beyond it. Phase 2: his melee on the troll must close 25 - 5 = 20 ft first (C2-16, P1-07: closing takes the
    # phase's move, the blow comes next phase): [160, 0] -> [140, 0]; no blow in phase 2.
    import combat2_helpers as c2

    aldo = {"name": "Aldo", "class": "paladin", "level": 7, "hp": 50, "ac": 2, "mv": 16, "mounted": True, "str": 12,
            "weapons": [c2.weapon("lance", 8, "1d8")]}
    troll = {"name": "Troll", "hd": "6+3", "hp": 30, "ac": 4, "size": "large",
             "weapons": [c2.weapon("claw", None, "1d4")]}
    charge = c2.melee("Troll", charge=True, pace=3, dice={"attack": 8, "damage": 6, "str": 5})
    doc = c2.play({"party": {"at": [0, 0], "combatants": [aldo]}, "orcs": {"at": [135, 0], "combatants": [troll]}},
                  {"Aldo": [charge, c2.melee("Troll", 2, pace=1)], "Troll": [c2.NONE] * 3},
                  initiative=c2.PARTY_WINS, referee={("attack", "Troll"): [2], ("CON check", "Aldo"): [1]},
                  max_rounds=1)
    moves = [(m["tick"][:2], m["from"], m["to"], m["feet"]) for m in events(doc, "move", "Aldo")]
    assert moves == [([1, 1], [0, 0], [130, 0], 130), ([1, 1], [130, 0], [160, 0], 30),
                     ([1, 2], [160, 0], [140, 0], 20)]
    assert [a["tick"][:2] for a in attacks(doc, "Aldo")] == [[1, 1]]  # the charge's blow, then none in phase 2


# -- the table: place and move at any prompt, journalled and undone ------------------------------------------------
def _drive(text: str, lines: list[dict[str, Any]], tmp_path: Any) -> list[dict[str, Any]]:
    from cli_run import affray_here

    path = tmp_path / "fight.json"
    path.write_text(text)
    done = affray_here("drive", path, "--ruleset", "side-d6", stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_referee_places_and_moves_a_combatant_and_undoes_it(tmp_path: Any) -> None:
    # Brom [0, 0], Archer [60, 0]. place Brom 20 5; move Brom away Archer 30: from [20, 5] straight away from
    # [60, 0], 30 ft: the line's step (-40, 5) / 40.31 x 30 = (-29.77, 3.72) -> [-10, 9]. Undo takes the move back.
    text = encounter(_placed([0, 0], [60, 0], [pc("Brom")], [orc("Archer")]), {})
    out = _drive(text, [{"do": "place", "who": "Brom", "at": [20, 5]},
                        {"do": "say", "text": "move Brom away Archer 30"},
                        {"do": "say", "text": "place Brom x 1"},
                        {"do": "undo", "n": 1}, {"do": "quit"}], tmp_path)
    placed = [o["event"] for o in out if "event" in o and o["event"]["kind"] == "place"]
    assert [(e["actor"], e["from"], e["to"]) for e in placed] == [("Brom", [0, 0], [20, 5]),
                                                                  ("Brom", [20, 5], [-10, 9])]
    assert any("error" in o and "place NAME X Y" in o["error"] for o in out)
    assert {"undone": {"events": 1}} in out


def test_placing_in_a_fight_without_places_is_refused_in_words(tmp_path: Any) -> None:
    out = _drive(encounter({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {}),
                 [{"do": "place", "who": "Brom", "at": [20, 5]}, {"do": "quit"}], tmp_path)
    assert any("error" in o and "places nobody" in o["error"] for o in out)


# -- the map ---------------------------------------------------------------------------------------------------------
def test_run_map_draws_each_token_where_it_stands_and_the_rounds_moves(tmp_path: Any) -> None:
    # The standing melee of side-d6 above: after round 1 Brom stands at [55, 0] (his 55-ft closing drawn), the
    # archer at [60, 0].
    from cli_run import affray_here

    text = encounter(_placed([0, 0], [60, 0], [pc("Brom", declare="repeat")], [orc("Archer", weapons=[SHORT_BOW])]),
                     {"Brom": [melee("Archer", 2)], "Archer": [NONE, NONE]},
                     initiative={1: {"party": 5, "orcs": 2}, 2: {"party": 5, "orcs": 2}})
    path = tmp_path / "fight.json"
    path.write_text(text)
    done = affray_here("run", path, "--ruleset", "side-d6", "--max-rounds", "1", "--map", tmp_path / "map.svg",
                       "--round", "1")
    assert done.returncode == 0, done.stderr
    svg = (tmp_path / "map.svg").read_text()
    assert svg.startswith("<svg") and "Round 1" in svg
    assert '<circle cx="55" cy="0"' in svg and '<circle cx="60" cy="0"' in svg
    assert '<line x1="0" y1="0" x2="55" y2="0"' in svg and "55 ft" in svg


def test_run_map_of_a_fight_without_places_is_refused(tmp_path: Any) -> None:
    from cli_run import affray_here

    path = tmp_path / "fight.json"
    path.write_text(encounter({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {"Brom": [NONE], "Orc": [NONE]}))
    done = affray_here("run", path, "--ruleset", "side-d6", "--map", tmp_path / "map.svg")
    assert done.returncode == 2 and "places nobody" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "map.svg").exists()


def test_run_map_of_a_round_the_fight_never_reached_is_refused_as_the_board_is(tmp_path: Any) -> None:
    # --max-rounds 1: the fight has round 1 only, so --round 2 names no round of it; --board says so and exits 2, and
    # --map now says the same (it drew the fight's end instead), writing nothing
    from cli_run import affray_here

    text = encounter(_placed([0, 0], [60, 0], [pc("Brom")], [orc("Archer", weapons=[SHORT_BOW])]),
                     {"Brom": [NONE], "Archer": [NONE]}, initiative={1: {"party": 5, "orcs": 2}})
    path = tmp_path / "fight.json"
    path.write_text(text)
    for flag in ("--map", "--board"):
        out = tmp_path / f"{flag[2:]}.svg"
        done = affray_here("run", path, "--ruleset", "side-d6", "--max-rounds", "1", flag, out, "--round", "2")
        assert done.returncode == 2, (flag, done.stderr)
        assert "--round 2: this fight has no Round 2 (it has round 1)" in done.stderr, (flag, done.stderr)
        assert "Traceback" not in done.stderr and not out.exists()


# -- a standing melee closes once, then strikes, under every ruleset ----------------------------------------------
@pytest.mark.parametrize(("ruleset", "moves"), [
    # P1-07, C2-16: closing takes the phase's move, 1/3 of MV 12 = 40 ft a phase: 40 ft in phase 1 ([0, 0] ->
    # [40, 0]), the last 15 ft in phase 2 ([40, 0] -> [55, 0]); the blow comes in phase 3.
    ("combat2-phase1", [(40, [0, 0], [40, 0]), (15, [40, 0], [55, 0])]),
    ("combat2-phase2", [(40, [0, 0], [40, 0]), (15, [40, 0], [55, 0])]),
    # SEG-07: 55 ft is within a half move (120 / 2 = 60 ft): the half move, then the blow in the same round.
    ("speed-segments", [(55, [0, 0], [55, 0])]),
    # PC-05: a melee closes with a half move (60 ft): 55 ft, the attack in the next phase.
    ("phase-count", [(55, [0, 0], [55, 0])]),
    # D12-12, D12-15: the standard move is MV 12" = 6 squares = 30 ft: round 1 closes 30 ft and cannot strike;
    # round 2 closes the last 25 ft and still attacks.
    ("d12-procedure", [(30, [0, 0], [30, 0]), (25, [30, 0], [55, 0])]),
])
def test_a_standing_melee_closes_once_then_strikes(ruleset: str, moves: list[tuple[int, list[int], list[int]]]
                                                    ) -> None:
    # Brom at [0, 0], the orc (doing nothing) at [60, 0]: 60 - 5 (the sword's reach) = 55 ft to close.
    from side_d6_helpers import run_pinned

    text = encounter(_placed([0, 0], [60, 0], [pc("Brom", declare="repeat")], [orc("Orc")]),
                     {"Brom": [melee("Orc", 2)], "Orc": [NONE] * 12})
    doc = run_pinned(text, ruleset, max_rounds=2, pinned=False)  # initiative from the seed: it moves no one
    seen = events(doc, "move", "Brom")
    assert [(m["feet"], m["from"], m["to"]) for m in seen] == moves
    blows = attacks(doc, "Brom")
    assert blows and all(b["seq"] > seen[-1]["seq"] for b in blows)


@pytest.mark.parametrize("ruleset", ["side-d6", "combat2-phase1", "combat2-phase2", "speed-segments", "phase-count",
                                     "d12-procedure"])
@pytest.mark.parametrize(("feet", "shots"), [(30, 2), (400, 0)])
def test_range_and_ammunition_under_every_ruleset(ruleset: str, feet: int, shots: int) -> None:
    # The archer's standing shot at Ann, four rounds: at 30 ft (short range) its ammo of 2 makes two shots and no
    # more; at 400 ft (beyond the short bow's long range, 150 ft) none, refused in words by the one validator.
    from side_d6_helpers import run_pinned

    text = encounter({"party": {"at": [feet, 0], "combatants": [pc("Ann")]},
                      "orcs": {"at": [0, 0], "combatants": [orc("Archer", weapons=[BOW], declare="repeat")]}},
                     {"Ann": [NONE] * 20, "Archer": [missile("Ann")]})
    doc = run_pinned(text, ruleset, max_rounds=4, pinned=False)  # dice from the seed: they decide no count here
    assert len(attacks(doc, "Archer")) == shots
    if feet == 400:
        assert "400 ft from Archer: beyond its short bow's long range (150 ft)" in json.dumps(doc["events"])


def test_the_console_says_a_moves_way() -> None:
    from affray.drive.questions import AnswerError
    from affray.drive.shorthand import entry

    c = {"enemies": ["Orc 1"], "allies": ["Brom"], "move": ["full", "withdraw"], "moves": {"full": 120},
         "movement": 120}
    assert entry("move 30 toward orc 1", c) == {"move": 30, "toward": "Orc 1"}
    assert entry("move to 40 -10", c) == {"move": 120, "to": [40, -10]}
    assert entry("withdraw away Orc 1", c)["away"] == "Orc 1"
    with pytest.raises(AnswerError, match="give X Y"):
        entry("move 30 to x", c)


def test_a_party_file_stands_where_the_encounter_places_its_side(tmp_path: Any) -> None:
    # The encounter places the party at [0, 40]; the party file gives no place: Aldric and Tam stand in the rank
    # there, [0, 40] and [0, 45], as the file's own party would have.
    from cli_run import affray_here

    (tmp_path / "party.yaml").write_text("pc: true\ncombatants:\n"
                                         "  - {name: Aldric, class: fighter, level: 3, hp: 26, weapons: [long sword]}\n"
                                         "  - {name: Tam, class: cleric, level: 3, hp: 17, weapons: [mace]}\n")
    fight = {"ruleset": "side-d6", "seed": 1, "surprise": "none",
             "sides": {"party": {"pc": True, "at": [0, 40], "combatants": [pc("Brom")]},
                       "orcs": {"at": [90, 40], "combatants": [orc("Orc")]}},
             "plan": {"Orc": [NONE]}}
    (tmp_path / "fight.json").write_text(json.dumps(fight))
    done = affray_here("run", tmp_path / "fight.json", "--party", tmp_path / "party.yaml", "--json",
                       "--max-rounds", "1")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)["combatants"]
    assert (final["Aldric"]["at"], final["Tam"]["at"]) == ([0, 40], [0, 45])


@pytest.mark.parametrize(("d20", "lands"), [(2, [60, 0]), (20, [0, 0])])
def test_side_d6_running_right_past_a_foe_gives_it_a_free_attack(d20: int, lands: list[int]) -> None:
    # MJ-09: "an enemy moves right past you ... you get one free attack out of turn; if it does at least 1 hp of
    # damage the mover must stop". Brom moves 60 ft from [0, 0] to [60, 0] (a full move, MJ-05). Orc at [30, 3]:
    # 30 ft off at both ends, 3 ft from his line (within its 5-ft reach): run right past, a free attack. Lurk at
    # [30, 20], 20 ft from the line: none. d20 2 misses (2 < 14) and Brom arrives; d20 20 hits (1d8: 4) and he stops
    # where he stood.
    doc = play({"party": {"combatants": [pc("Brom", at=[0, 0])]},
                "orcs": {"combatants": [orc("Orc", at=[30, 3]), orc("Lurk", at=[30, 20])]}},
               {"Brom": [{"move": 60, "to": [60, 0]}], "Orc": [NONE], "Lurk": [NONE]},
               initiative={1: {"party": 5, "orcs": 2}}, referee={("attack", "Orc"): [d20], ("damage", "Orc"): [4]},
               max_rounds=1)
    free = attacks(doc, "Orc")
    assert len(free) == 1 and free[0]["opportunity"] and "right past" in free[0]["why"]
    assert not attacks(doc, "Lurk")
    assert one(doc, "move", "Brom")["to"] == lands


def test_combat2_a_withdrawal_out_of_reach_ends_the_engagement_and_the_foe_must_close() -> None:
    # Phase 1: Brom [0, 0] and the orc [5, 0] trade misses (d20 2): engaged. Phase 2: Brom withdraws at 1/3 of the
    # per-phase move, 120 / 3 / 3 = 13 ft (C2-18): [0, 0] -> [-13, 0], 18 ft from the orc, out of both reaches, and
    # the engagement ends. The orc's attack stands (its one attack of round 1 spent, held over), and in phase 3 it
    # must close 18 - 5 = 13 ft (C2-16, P1-07: [5, 0] -> [-8, 0]); its blow comes in round 2, phase 1, in reach.
    import combat2_helpers as c2

    doc = c2.play({"party": {"at": [0, 0], "combatants": [c2.pc("Brom")]},
                   "orcs": {"at": [5, 0], "combatants": [c2.orc("Orc", hp=10, declare="repeat")]}},
                  {"Brom": [c2.miss_on("Orc"), {"move": 200, "mode": "withdraw"}, NONE, NONE, NONE],
                   "Orc": [c2.melee("Brom", 2)]},
                  initiative=c2.init((3, 7), (3, 7)), referee={("attack", "Orc"): [2]}, max_rounds=2)
    moves = [(m["actor"], m["tick"][:2], m["from"], m["to"]) for m in events(doc, "move")]
    assert moves == [("Brom", [1, 2], [0, 0], [-13, 0]), ("Orc", [1, 3], [5, 0], [-8, 0])]
    assert [a["tick"][:2] for a in attacks(doc, "Orc")] == [[1, 1], [2, 1]]


@pytest.mark.parametrize(("orc_at", "run"), [(30, None), (70, 65)])
def test_side_d6_a_charge_must_run_half_the_base_move(orc_at: int, run: int | None) -> None:
    # MJ-12: a charge "moves at least half its base move": MV 12, 60 ft. The orc 30 ft off: 30 - 5 = 25 ft to close,
    # too short: refused in words when its moment comes. 70 ft off: 65 ft, a charge run of 65 ft, then the blow.
    doc = play(_placed([0, 0], [orc_at, 0], [pc("Brom")], [orc("Orc")]),
               {"Brom": [melee("Orc", 2, charge=True)], "Orc": [NONE]},
               initiative={1: {"party": 5, "orcs": 2}}, max_rounds=1)
    moves = events(doc, "move", "Brom")
    if run is None:
        assert not moves and not attacks(doc, "Brom")
        assert "25 ft from Brom's reach: a charge runs at least half the base move, 60 ft" in one(
            doc, "impossible", "Brom")["why"]
    else:
        assert [(m["feet"], m["mode"], m["to"]) for m in moves] == [(run, "charge", [run, 0])]
        assert len(attacks(doc, "Brom")) == 1
