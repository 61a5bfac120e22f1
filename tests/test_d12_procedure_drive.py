"""d12-procedure (seed 004) driven: declarations asked in the seed's order, through the API and ``affray drive``.

The seed's procedure: initiative first ("Roll a d12 for the party ... Sides act in order of lowest to highest
result"), then each combatant chooses its action when its result comes up, a caster its spell ("A
spellcaster may decide on his initiative result what spell to cast", D12-05; "ALL of a characters actions
are generally resolved on their turn"); a target met by a closer with a shorter weapon answers at once
("the longer weapon strikes first, regardless of initiative", D12-06).

The fight used below (defaults in d12_helpers; option individual_rolls, so each PC rolls its own d12):
- round 1: Brom d12 6 (DEX 10: count 6), Mina d12 2 (count 2), the orcs' d12 4 (count 4);
- count 2: Mina is asked and casts bolt (CT 3) at the Orc: it takes effect at 2 + 3 = 5 (D12-05);
- count 4: the Orc, then Pike (the file's order) are asked; the Orc closes 20 ft on Brom, whose spear
  (reach 10) is longer than its axe (5 ft): Brom, count 6, is asked out of turn at count 4 (D12-06), and
  his blow at the Orc moves to count 4, before the Orc's;
- count 5: the bolt's 6 damage fells the Orc (5 hp);
- round 2: Brom d12 1, Mina d12 3, the orcs' 5: at count 1 Brom closes 10 ft on Pike (its axe is no longer
  than his spear: nobody asked out of turn) and hits for 5: Pike (5 hp) falls, and the fight is over.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque
from pathlib import Path
from typing import Any

from affray import load_text, prepare
from affray.drive import DeclareQuestion, DicePrefs, DieQuestion, End
from affray.engine.events import Event
from affray.io.timeline import event_dict
from cli_run import affray_here
from d12_helpers import AXE, MISS, SPEAR, encounter, mage, orc, pc
from side_d6_helpers import assert_pinned

LONG_SPEAR = SPEAR | {"reach": 10}
BOLT = {"name": "bolt", "ct": 3, "damage": "2d4"}
SIDES = {"party": [pc("Brom", weapons=[LONG_SPEAR]), mage("Mina", BOLT)],
         "orcs": [orc("Orc"), orc("Pike", weapons=[AXE])]}
ROLLS = {1: {"Brom": 6, "Mina": 2, "orcs": 4}, 2: {"Brom": 1, "Mina": 3, "orcs": 5}}
#: Each combatant's answers, in the order it is asked.
ANSWERS: dict[str, list[dict[str, Any]]] = {
    "Mina": [{"cast": "bolt", "at": "Orc", "outcome": {"damage": 6}}],
    "Orc": [{"melee": "Brom", "distance": 20, **MISS}],
    "Pike": [{"melee": "Mina", **MISS}],
    "Brom": [{"melee": "Orc", **MISS}, {"melee": "Pike", "distance": 10, "outcome": {"hit": True, "damage": 5}}],
}
#: The questions in the seed's order: (actor, tick of the moment it is asked).
ORDER = [
    ("Mina", (1, 3, 2, -1, 0)),  # count 2: the caster chooses its spell on its own count (D12-05)
    ("Orc", (1, 3, 4, -1, 0)),   # count 4: the orcs, in the file's order
    ("Pike", (1, 3, 4, -1, 0)),
    ("Brom", (1, 3, 4, -1, 0)),  # count 4, out of turn: the Orc closes on his longer spear (D12-06)
    ("Brom", (2, 3, 1, -1, 0)),  # round 2, count 1
]


def _text(plan: dict[str, list[dict[str, Any]]] | None = None) -> str:
    doc = json.loads(encounter(SIDES, plan or {}, initiative=ROLLS, options={"individual_rolls": True}))
    doc["ruleset"] = "d12-procedure"
    return json.dumps(doc)


def _drive(text: str, dice: DicePrefs | None = None) -> tuple[list[Any], list[Event]]:
    """Drive the fight answering from ANSWERS (and every die asked with 1): what came, in order, and the events."""
    drive = prepare(load_text(text)).drive(dice=dice or DicePrefs())
    answers = {name: deque(v) for name, v in ANSWERS.items()}
    items: list[Any] = []
    events: list[Event] = []
    while not isinstance(item := drive.pull(), End):
        items.append(item)
        if isinstance(item, DeclareQuestion):
            assert drive.answer(answers[item.actor].popleft()) is None
        elif isinstance(item, DieQuestion):
            assert drive.answer(1) is None
        else:
            events.append(item)
    assert not any(answers.values()), answers
    return items, events


def test_d12_questions_come_after_the_initiative_count_by_count_through_the_api():
    items, events = _drive(_text())
    asks = [(q.actor, q.tick) for q in items if isinstance(q, DeclareQuestion)]
    assert asks == ORDER
    kinds = [("ask", q.actor) if isinstance(q, DeclareQuestion) else q.kind for q in items]
    # each round's initiative comes before its first question (D12-04 before D12-05)
    assert kinds.index("initiative") < kinds.index(("ask", "Mina"))
    second = [i for i, k in enumerate(kinds) if k == "initiative"][1]
    assert kinds[second + 1:].count(("ask", "Brom")) == 1
    # Mina is asked her spell at her count 2, with the spell to choose among
    mina = next(q for q in items if isinstance(q, DeclareQuestion) and q.actor == "Mina")
    assert mina.at == "round 1, count 2" and mina.choices["cast"] == ["bolt"]
    brom = next(q for q in items if isinstance(q, DeclareQuestion) and q.actor == "Brom")
    assert brom.at.startswith("round 1, count 4, out of turn") and "D12-06" in brom.at
    # what follows from the answers: the bolt from count 2 to 2 + 3 = 5; Brom's spear at count 4 before the axe
    ticks = [(e.kind, e.actor, e.tick) for e in events if e.kind in ("cast-start", "cast", "melee", "move")]
    assert ticks == [
        ("cast-start", "Mina", (1, 3, 2, 0, 2)),
        ("move", "Orc", (1, 3, 4, 0, 0)),
        ("melee", "Brom", (1, 3, 4, 0, 1)),
        ("melee", "Orc", (1, 3, 4, 0, 2)),
        ("melee", "Pike", (1, 3, 4, 0, 2)),
        ("cast", "Mina", (1, 3, 5, 0, 2)),
        ("move", "Brom", (2, 3, 1, 0, 0)),
        ("melee", "Brom", (2, 3, 1, 0, 2)),
    ]
    assert_pinned({"events": [event_dict(e, i) for i, e in enumerate(events)]})


def test_d12_04_the_initiative_dice_are_asked_before_any_declaration():
    """With the initiative dice asked at the table, they come first: the PCs' own d12s, then the orcs'."""
    doc = json.loads(_text())
    doc["rolls"]["initiative"] = {}
    drive = prepare(load_text(json.dumps(doc))).drive(dice=DicePrefs({"all": "roll", "initiative": "ask"}))
    asked: list[tuple[str, str | None]] = []
    while not isinstance(item := drive.pull(), DeclareQuestion):
        if isinstance(item, DieQuestion):
            asked.append((item.purpose, item.actor))
            assert drive.answer({"Brom": 6, "Mina": 2, "orcs": 4}[item.actor or ""]) is None
    # the three dice, PCs first (file order), then the first question: Mina on her count 2
    assert asked == [("initiative", "Brom"), ("initiative", "Mina"), ("initiative", "orcs")]
    assert (item.actor, item.tick) == ORDER[0]


def test_d12_08_a_readied_shot_entered_with_plan_fires_before_initiative_and_is_not_asked_again():
    """D12-08: nobody is asked before initiative; the referee gives the readied shot with ``plan``."""
    doc = json.loads(encounter({"party": [pc("Ash", weapons=[{"name": "bow", "sf": 7, "damage": "1d6",
                                                               "kind": "missile"}])],
                                "orcs": [orc("Orc", hp=20)]}, {}))
    doc["ruleset"] = "d12-procedure"
    drive = prepare(load_text(json.dumps(doc))).drive()
    assert drive.command("plan Ash [{missile: Orc, ready: true, outcome: {hit: false}}]") is None
    seen: list[tuple[str, str | None]] = []
    while not isinstance(item := drive.pull(), DeclareQuestion):
        seen.append((item.kind, item.actor))  # type: ignore[union-attr]
    # the shot before the initiative; Ash, having fired without the drop, takes no turn: only the orcs do, so no
    # die is rolled and the Orc, the only one asked in round 1, acts on count 1 (D12-04 decision)
    assert seen.index(("missile", "Ash")) < seen.index(("initiative", None))
    assert (item.actor, item.tick) == ("Orc", (1, 3, 1, -1, 0))


def _converse(path: Path) -> tuple[list[tuple[str, str]], list[dict[str, Any]], dict[str, Any]]:
    """``affray drive FILE``, answering every question from ANSWERS: the questions (actor, at), the events and
    the end."""
    p = subprocess.Popen([sys.executable, "-m", "affray", "drive", str(path)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdin is not None and p.stdout is not None
    answers = {name: deque(v) for name, v in ANSWERS.items()}
    asks: list[tuple[str, str]] = []
    events: list[dict[str, Any]] = []
    end: dict[str, Any] = {}
    for line in p.stdout:
        msg = json.loads(line)
        assert "error" not in msg, msg
        if "event" in msg:
            events.append(msg["event"])
        elif "ask" in msg:
            q = msg["ask"]
            assert q["what"] == "declare", q
            asks.append((q["actor"], q["at"]))
            p.stdin.write(json.dumps({"id": q["id"], "declare": answers[q["actor"]].popleft()}) + "\n")
            p.stdin.flush()
        else:
            end = msg["end"]
            p.stdin.write(json.dumps({"do": "quit"}) + "\n")
            p.stdin.flush()
    p.stdin.close()
    assert p.wait(timeout=60) == 0, p.stderr.read() if p.stderr else ""
    return asks, events, end


def test_d12_questions_in_the_seeds_order_through_affray_drive(tmp_path: Path):
    path = tmp_path / "fight.json"
    path.write_text(_text())
    asks, events, end = _converse(path)
    assert [actor for actor, _ in asks] == [actor for actor, _ in ORDER]
    assert [at.split(", out of turn")[0] for _, at in asks] == [
        "round 1, count 2", "round 1, count 4", "round 1, count 4", "round 1, count 4", "round 2, count 1"]
    kinds = [e["kind"] for e in events]
    assert kinds.index("initiative") < kinds.index("declare")
    # Pike falls at round 2, count 1: the orcs are all down
    assert end["winner"] == "party" and end["combatants"]["Pike"]["down"]


def test_d12_a_driven_fight_is_the_run_of_a_file_holding_the_same_answers(tmp_path: Path):
    """CONTRACT ("Driving a fight"): answering every question gives the timeline of ``affray run`` on a file
    whose plan holds the same answers, in order for each combatant, and whose rolls hold the same dice."""
    driven = tmp_path / "driven.json"
    driven.write_text(_text())
    _, events, end = _converse(driven)
    planned = tmp_path / "planned.json"
    planned.write_text(_text(ANSWERS))
    run = affray_here("run", planned, "--json")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert_pinned(doc)
    assert events == doc["events"]
    assert end == {"winner": doc["winner"], "combatants": doc["combatants"]}
