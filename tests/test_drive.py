"""The fight a caller drives (``Prepared.drive``): questions in each seed's order, answers, undo, and the promise of
CONTRACT.md: answering every question gives the same timeline as ``affray run`` of a file whose plan holds the same
declarations (the answers, and the attacks kept without asking where the ruleset keeps them, issue 37). The orders
checked here are the seeds' own procedures, cited by rule ID; each fight's dice come from its seed or are pinned, so a
referee can follow every expectation by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from affray import load_encounter, load_text, prepare, timeline_dict
from affray.drive import ROLL, Coming, DeclareQuestion, DieQuestion, Drive, End, Item
from affray.drive.questions import plain
from affray.engine.events import Declare, Event, Initiative, Morale
from affray.model.encounter import Outcome
from affray.rulesets import RULESETS

SKIRMISH = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "skirmish.yaml"
IDS = [r.id for r in RULESETS]


def first_enemy(q: DeclareQuestion) -> dict[str, Any]:
    """A plain answer a referee might give: strike the first standing enemy, else do nothing."""
    enemies = q.choices["enemies"]
    return {"melee": enemies[0]} if enemies else {"none": True}


def drive_to_end(drive: Drive, answer: Any = first_enemy) -> tuple[list[Item], dict[str, list[dict[str, Any]]]]:
    """Pull to the end, answering each declaration with ``answer`` and each die with a roll; every item pulled, and
    each combatant's answers in order (a plan)."""
    items: list[Item] = []
    answers: dict[str, list[dict[str, Any]]] = {}
    while True:
        item = drive.pull()
        items.append(item)
        if isinstance(item, End):
            return items, answers
        if isinstance(item, DeclareQuestion):
            entry = answer(item)
            assert drive.answer(entry) is None
            answers.setdefault(item.actor, []).append(entry)
        elif isinstance(item, DieQuestion):
            assert drive.answer(ROLL) is None


def with_plan(path: Path, extra: dict[str, list[dict[str, Any]]]) -> str:
    """The encounter file with ``extra`` appended to each combatant's plan, as JSON text (order kept)."""
    data = YAML(typ="safe").load(path.read_text())
    plan = data.setdefault("plan", {})
    for actor, entries in extra.items():
        plan[actor] = list(plan.get(actor) or []) + entries
    return json.dumps(data)


# -- the promise: driven = run of the same answers --------------------------------------------------------------


@pytest.mark.parametrize("ruleset", IDS)
def test_answering_every_question_gives_the_run_of_a_file_with_the_same_answers(ruleset: str) -> None:
    """CONTRACT.md "Driving a fight": the skirmish driven for three rounds, every declaration left to the caller
    once the file's plan is used up; then ``run`` of the file whose plan ends with those answers, same seed."""
    prepared = prepare(load_encounter(SKIRMISH), ruleset=ruleset, seed=5)
    items, answers = drive_to_end(prepared.drive(max_rounds=3))
    assert answers, "the plan runs out within three rounds, so the caller is asked"
    driven = timeline_dict(items[-1].result)  # type: ignore[union-attr]
    ran = timeline_dict(prepare(load_text(with_plan(SKIRMISH, made(items))), ruleset=ruleset, seed=5)
                        .fight(max_rounds=3).run())
    assert driven == ran


def made(items: list[Item]) -> dict[str, list[dict[str, Any]]]:
    """The declarations made once each combatant's file plan was used up, in order: its answers, and (Combat II,
    phase-count) the attacks it kept without being asked, as ``repeat`` keeps one (CONTRACT "Who declares": the
    same timeline whether a declaration came one by one, by repeat or from the plan; issue 37)."""
    planned = {name: len(entries) for name, entries in (YAML(typ="safe").load(SKIRMISH.read_text())["plan"] or
                                                       {}).items()}
    out: dict[str, list[dict[str, Any]]] = {}
    seen: dict[str, int] = {}
    for e in items:
        if isinstance(e, Declare) and e.consumed and e.actor is not None and e.decl is not None:
            seen[e.actor] = k = seen.get(e.actor, 0) + 1
            if k > planned.get(e.actor, 0):
                out.setdefault(e.actor, []).append(plain(e.decl))
    return out


@pytest.mark.parametrize("ruleset", IDS)
def test_the_events_pulled_are_the_timeline(ruleset: str) -> None:
    prepared = prepare(load_encounter(SKIRMISH), ruleset=ruleset, seed=2)
    items, _ = drive_to_end(prepared.drive(max_rounds=2))
    end = items[-1]
    assert isinstance(end, End)
    assert [i for i in items if not isinstance(i, (DeclareQuestion, DieQuestion, Coming, End))] == end.result.events


# -- side-d6: MJ-02, MJ-03, MJ-04 -------------------------------------------------------------------------------


def _order(items: list[Item]) -> list[tuple[str, str | None, int | None]]:
    """(what, who, round) of declarations asked, declare events, morale and initiative, in the order pulled."""
    out: list[tuple[str, str | None, int | None]] = []
    for i in items:
        if isinstance(i, DeclareQuestion):
            out.append(("ask", i.actor, i.tick[0]))
        elif isinstance(i, (Initiative, Morale)):
            out.append((i.kind, None, i.round))
    return out


def test_side_d6_after_morale_the_pcs_then_the_monsters_declare_before_the_initiative_die() -> None:
    """MJ-01: "1. morale 2. declare 3. initiative"; MJ-03: "each person (the PCs' side), then the monsters, declare";
    MJ-04: then the d6. No plan: in each round the four PCs are asked in file order, then the five orcs, and only then
    is initiative rolled; in a round with a morale check, the check comes first."""
    text = SKIRMISH.read_text().split("\nplan:")[0]
    prepared = prepare(load_text(text), ruleset="side-d6", seed=7)
    items, _ = drive_to_end(prepared.drive(max_rounds=3))
    order = _order(items)
    party = ["Brom", "Sela", "Mina", "Ash"]
    orcs = ["Orc 1", "Orc 2", "Orc 3", "Orc 4", "Orc Captain"]
    for rnd in (1, 2, 3):
        in_round = [o for o in order if o[2] == rnd]
        asked = [who for what, who, _ in in_round if what == "ask"]
        standing = [n for n in party + orcs if n in asked]
        assert asked == standing  # PCs first, then monsters, file order
        kinds = [what for what, _, _ in in_round]
        assert kinds.index("initiative") > max(i for i, k in enumerate(kinds) if k == "ask")
        if "morale" in kinds:
            assert kinds.index("morale") < kinds.index("ask")


def test_side_d6_the_monsters_hear_the_pcs_declarations() -> None:
    """MJ-03: the PCs declare first, so the referee declares the monsters knowing them: each question carries the
    declarations already made this round (``known``); the first PC knows none."""
    text = SKIRMISH.read_text().split("\nplan:")[0]
    drive = prepare(load_text(text), ruleset="side-d6", seed=7).drive(max_rounds=1)
    questions: list[DeclareQuestion] = []
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DeclareQuestion):
            questions.append(item)
            assert drive.answer(first_enemy(item)) is None
    assert questions[0].known == ()
    orc1 = next(q for q in questions if q.actor == "Orc 1")
    assert [name for name, _ in orc1.known] == ["Brom", "Sela", "Mina", "Ash"]
    assert orc1.known[0][1].melee == "Orc 1"  # Brom's answer: the first enemy


# -- combat2: P1-08 -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["combat2-phase1", "combat2-phase2"])
def test_combat2_losers_state_intentions_first_and_the_winners_hear_them(ruleset: str) -> None:
    """P1-08: "At the beginning of each phase, the initiative losers state their intentions first, followed by the
    winners, who may alter their actions accordingly"; P2-02: initiative at every phase A. Orcs d10 2, party d10 9:
    the orcs win (low), so in every phase the party (losers) is asked first, then the orcs, who know the party's
    declarations; initiative is rolled before any question of its round (cycle)."""
    text = SKIRMISH.read_text().split("\nplan:")[0] + "\nrolls: {initiative: {1: {party: 9, orcs: 2}}}\n"
    drive = prepare(load_text(text), ruleset=ruleset, seed=4).drive(max_rounds=1)
    seen: list[Item] = []
    while not isinstance(item := drive.pull(), End):
        seen.append(item)
        if isinstance(item, DeclareQuestion):
            assert drive.answer(first_enemy(item)) is None
    first_init = next(i for i, x in enumerate(seen) if isinstance(x, Initiative))
    questions = [x for x in seen if isinstance(x, DeclareQuestion)]
    assert seen.index(questions[0]) > first_init
    phase1 = [q for q in questions if q.tick[:2] == (1, 1)]
    sides = [q.side for q in phase1]
    assert sides == sorted(sides, key=lambda s: s != "party")  # all the party's questions before the orcs'
    losers = {q.actor for q in phase1 if q.side == "party"}
    for q in phase1:
        heard = {name for name, _ in q.known}
        assert heard == (losers if q.side == "orcs" else set())


# -- speed-segments: SEG-03, SEG-04 -------------------------------------------------------------------------------


def test_speed_segments_the_surprised_declare_after_the_unsurprised_have_begun() -> None:
    """SEG-04: "Declarations for all parties at the start of the round"; SEG-03: "A surprised party declares only
    after the unsurprised have declared and begun acting". The orcs are surprised (the referee rules it): the party
    is asked at B, before initiative; the orcs at segment 1, after it, each knowing the party's declarations."""
    text = SKIRMISH.read_text().split("\nplan:")[0].replace("seed: 7", "seed: 7\nsurprise: {orcs: true}")
    drive = prepare(load_text(text), ruleset="speed-segments").drive(max_rounds=1)
    seen: list[Item] = []
    while not isinstance(item := drive.pull(), End):
        seen.append(item)
        if isinstance(item, DeclareQuestion):
            assert drive.answer(first_enemy(item)) is None
    init = next(i for i, x in enumerate(seen) if isinstance(x, Initiative))
    questions = [(i, x) for i, x in enumerate(seen) if isinstance(x, DeclareQuestion)]
    assert all(i < init for i, q in questions if q.side == "party")
    orcs = [q for i, q in questions if q.side == "orcs"]
    assert orcs and all(i > init for i, q in questions if q.side == "orcs")
    assert all(q.tick[:2] == (1, 1) for q in orcs)  # segment 1
    assert {name for name, _ in orcs[0].known} == {"Brom", "Sela", "Mina", "Ash"}


# -- phase-count: PC-02 -------------------------------------------------------------------------------------------


def test_phase_count_each_declares_when_its_last_action_resolves() -> None:
    """PC-02: "Each combatant declares its next action the moment its last one resolves". Everyone is asked at the
    start (phase 0, after the opening initiative); afterwards each question comes at the phase of that combatant's
    last resolved action: the tick of its question is the tick of its last attack or move event."""
    text = SKIRMISH.read_text().split("\nplan:")[0]
    drive = prepare(load_text(text), ruleset="phase-count", seed=3).drive(max_rounds=2)
    seen: list[Item] = []
    while not isinstance(item := drive.pull(), End):
        seen.append(item)
        if isinstance(item, DeclareQuestion):
            assert drive.answer(first_enemy(item)) is None
    questions = [(i, q) for i, q in enumerate(seen) if isinstance(q, DeclareQuestion)]
    opening = [q for _, q in questions if q.tick[0] == 0]
    assert {q.actor for q in opening} == {"Brom", "Sela", "Mina", "Ash", "Orc 1", "Orc 2", "Orc 3", "Orc 4",
                                          "Orc Captain"}
    later = [(i, q) for i, q in questions if q.tick[0] > 0]
    assert later
    for i, q in later:
        acted = [e for e in seen[:i] if isinstance(e, Event) and getattr(e, "actor", None) == q.actor
                 and e.kind in ("melee", "missile", "move", "cast", "misc")]
        assert acted and acted[-1].tick == q.tick


# -- dice at the table (G-06) --------------------------------------------------------------------------------------


RETREAT = """
seed: 1
surprise: none
sides:
  party: {pc: true, combatants: [{name: Brom, class: fighter, level: 1, hp: 10, ac: 5,
                                  weapons: [{name: sword, sf: 5, damage: 1d8}]}]}
  orcs: {combatants: [{name: Orc, hd: 1, hp: 10, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}]}
rolls: {initiative: {1: {party: 4, orcs: 3}, 2: {party: 4, orcs: 3}}}
plan:
  Brom: [{melee: Orc, outcome: {hit: false}}, {none: true}]
  Orc: [{melee: Brom, outcome: {hit: false}}, {move: 120, mode: retreat}]
"""


def test_g_06_a_free_attacks_dice_are_asked_at_the_table() -> None:
    """G-06: every die can be given at the table. Round 1 the two trade blows (the referee's outcomes, no dice) and
    engage; round 2 the orc makes a full retreat: Brom's free attack (MJ-09) asks its d20 (an outcome may answer
    it) and then its damage: d20 15 + 0 >= 20 - 6 = 14 hits, 1d8 entered 4: the orc 10 -> 6, and the retreat is
    stopped (covers 0 of its 120 ft)."""
    drive = prepare(load_text(RETREAT), ruleset="side-d6").drive(max_rounds=2, dice="ask")
    asked: list[DieQuestion] = []
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DieQuestion):
            asked.append(item)
            if item.attack:
                assert (item.actor, item.target, item.kind) == ("Brom", "Orc", "melee")
                assert drive.answer(15) is None
            else:
                assert (item.purpose, item.die, item.actor) == ("damage", "d8", "Brom")
                assert drive.answer(4) is None
    assert len(asked) == 2
    events = item.result.events
    free = next(e for e in events if e.kind == "melee" and getattr(e, "opportunity", False))
    assert (free.hit, free.damage) == (True, 4)
    assert [(r.value, r.source) for r in free.rolls] == [(15, "referee"), (4, "referee")]
    move = next(e for e in events if e.kind == "move")
    assert (move.stopped, move.feet) == (True, 0)  # type: ignore[union-attr]
    assert item.result.final.combatants["Orc"]["hp"] == 6


def test_an_attacks_d20_may_be_answered_with_the_referees_outcome() -> None:
    """The same free attack answered "hit, 5 damage": no d20, no damage die; the orc 10 -> 5."""
    drive = prepare(load_text(RETREAT), ruleset="side-d6").drive(max_rounds=2, dice="ask")
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DieQuestion):
            assert item.attack
            assert drive.answer(Outcome(hit=True, damage=5)) is None
    free = next(e for e in item.result.events if e.kind == "melee" and getattr(e, "opportunity", False))
    assert (free.hit, free.damage, free.detail) == (True, 5, "the referee's outcome: hit, 5 damage")
    assert item.result.final.combatants["Orc"]["hp"] == 5


# -- answers refused, undo ------------------------------------------------------------------------------------------


def test_a_bad_answer_is_refused_and_the_question_stands() -> None:
    text = SKIRMISH.read_text().split("\nplan:")[0]
    drive = prepare(load_text(text), ruleset="side-d6", seed=7).drive(max_rounds=1)
    while not isinstance(q := drive.pull(), DeclareQuestion):
        pass
    assert q.actor == "Brom"
    assert "no combatant named 'Ghost'" in (drive.answer({"melee": "Ghost"}) or "")
    assert "cannot attack itself" in (drive.answer({"melee": "Brom"}) or "")
    assert "carries no weapon 'bow'" in (drive.answer({"melee": "Orc 1", "weapon": "bow"}) or "")
    assert "exactly one action key" in (drive.answer({"melee": "Orc 1", "move": 30}) or "")
    assert "unknown key 'hold'" in (drive.answer({"melee": "Orc 1", "hold": 2}) or "")
    assert drive.pull() is q  # sent again, unanswered
    assert drive.answer({"melee": "Orc 1"}) is None
    nxt = drive.pull()
    assert isinstance(nxt, Declare) and nxt.actor == "Brom" and nxt.decl is not None and nxt.decl.melee == "Orc 1"


@pytest.mark.parametrize("ruleset", IDS)
def test_undo_then_the_same_answers_give_the_same_fight(ruleset: str) -> None:
    """Undo takes back events with the answers given since; answering the same again rebuilds the same fight."""
    text = SKIRMISH.read_text().split("\nplan:")[0]
    prepared = prepare(load_text(text), ruleset=ruleset, seed=9)
    items, _ = drive_to_end(prepared.drive(max_rounds=2))
    whole = timeline_dict(items[-1].result)  # type: ignore[union-attr]
    drive = prepared.drive(max_rounds=2)
    drive_to_end(drive)
    n = len(drive.fight.events)
    left = drive.undo(n // 2)
    assert left <= n - n // 2 and len(drive.fight.events) == left
    again, _ = drive_to_end(drive)
    assert timeline_dict(again[-1].result) == whole  # type: ignore[union-attr]


def test_a_referees_command_is_a_recorded_input_that_undo_takes_back() -> None:
    """``damage Orc 1 3`` before the first event: Orc 1 (6 hp) at 3; undo 1 takes back the damage event and the
    command with it (a command is undone whole), and the fight is the plain one."""
    prepared = prepare(load_encounter(SKIRMISH), ruleset="side-d6", seed=7)
    plain, _ = drive_to_end(prepared.drive(auto=True))
    drive = prepared.drive(auto=True)
    assert drive.command("damage Orc 1 3") is None
    first = drive.pull()
    assert isinstance(first, Event) and first.kind == "damage"
    assert drive.fight.state.fighters["Orc 1"].hp == 3
    assert drive.undo(1) == 0 and drive.inputs == []
    again, _ = drive_to_end(drive)
    assert timeline_dict(again[-1].result) == timeline_dict(plain[-1].result)  # type: ignore[union-attr]


def _events(items: list[Item]) -> list[Event]:
    return [i for i in items if isinstance(i, Event)]


# -- phase-count: PC-08a, PC-09 ----------------------------------------------------------------------------------

GUARD = """
seed: 1
surprise: none
sides:
  party: {pc: true, combatants: [{name: Brom, class: fighter, level: 1, hp: 10, ac: 5,
                                  weapons: [{name: sword, sf: 5, damage: 1d8}]}]}
  orcs: {combatants: [{name: Orc, hd: 1, hp: 10, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}]}
rolls: {initiative: {1: {party: 2, orcs: 5}}}
plan:
  Brom: [{wait: true, until: 20}]
"""


def test_phase_count_a_guard_declares_when_the_referee_says_so() -> None:
    """PC-08a: a guard declares "at any time"; PC-09: "at any phase a combatant may abandon its action, declare a new
    one and roll for it from that phase". Brom stands guard until phase 20; early in the fight the referee gives him
    a new declaration with ``abort: 6`` (the console's ``plan`` command): at phase 6 he drops the guard and declares
    the melee, placed at 6 + d6 3 + PM 3 (sword SF 5: modifier 5-7 -> PM 3, PC-03) = phase 12. The orc does
    nothing (each ``none`` with its d6 pinned at 1); the guard's end at phase 20 never comes."""
    drive = prepare(load_text(GUARD), ruleset="phase-count").drive(max_rounds=4)
    commanded = False
    seen: list[Item] = []
    while not isinstance(item := drive.pull(), End):
        seen.append(item)
        if isinstance(item, DeclareQuestion):  # the orc each time, Brom after his blow: nothing more
            assert item.actor == "Orc" or item.tick[0] >= 12
            assert drive.answer({"none": True, "roll": 1}) is None
        elif isinstance(item, Declare) and item.actor == "Brom" and not commanded:
            assert drive.command("plan Brom [{melee: Orc, abort: 6, roll: 3, outcome: {hit: false}}]") is None
            commanded = True
    brom = [e for e in seen if isinstance(e, Event) and getattr(e, "actor", None) == "Brom"]
    kinds = [(e.kind, e.tick[0]) for e in brom]
    assert ("abort", 6) in kinds and ("melee", 12) in kinds
    assert kinds.index(("abort", 6)) < kinds.index(("melee", 12))
    declared = [e for e in brom if isinstance(e, Declare) and e.tick[0] == 6]
    assert len(declared) == 1 and declared[0].decl is not None and declared[0].decl.melee == "Orc"
    assert not [e for e in brom if e.kind == "wait"]  # the guard was dropped before its end at phase 20
