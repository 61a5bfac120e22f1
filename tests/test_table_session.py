"""The one table session (``affray.table.Session``), as every front end uses it: lines typed at any prompt, group
and standing declarations, Enter, ``back``, who may answer what (issue 25). The fight is side-d6 (seed 001) with
both sides aware, initiative pinned, and no plan: every declaration is asked, PCs first, then monsters (MJ-03).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from affray import load_text, prepare
from affray.drive import DeclareQuestion, DieQuestion
from affray.table import Session, Shown
from cli_run import affray_here

FIGHT = """
ruleset: side-d6
seed: 4
surprise: none
rolls: {initiative: {1: {party: 5, orcs: 2}, 2: {party: 5, orcs: 2}}}
sides:
  party:
    pc: true
    combatants:
      - {name: Brom, class: fighter, level: 3, hp: 40, ac: 4, weapons: [{name: long sword, sf: 5, damage: 1d8}]}
      - {name: Sela, class: fighter, level: 2, hp: 30, ac: 5, weapons: [{name: spear, sf: 6, damage: 1d6}]}
  orcs:
    combatants:
      - {name: Orc, count: 3, hd: 1, hp: 30, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def session(text: str = FIGHT, **kw: Any) -> Session:
    return Session(prepare(load_text(text)).drive(announce=True, **kw))


def to_question(s: Session) -> DeclareQuestion | DieQuestion:
    """Go on (a step at a time, as Enter at a pause) until something is asked."""
    while s.pending is None:
        if s.waiting:
            assert s.say("").ok
        else:
            s.next()
    return s.pending


def declared(s: Session) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for e in s.fight.events:
        if e.kind == "declare" and e.decl is not None:
            out.setdefault(e.actor, []).append(e.decl.model_dump(exclude_defaults=True, exclude_none=True))
    return out


def test_a_group_answer_serves_the_whole_side_at_this_point() -> None:
    """Orc 1 is asked first of the orcs (after the PCs, MJ-03); ``orcs: melee Brom`` answers it and Orc 2 and Orc 3
    each at its turn: no more questions this round, three declare events of the same entry."""
    s = session()
    assert s.say("run").ok
    assert to_question(s).actor == "Brom"
    assert s.say("melee Orc 1").ok
    assert to_question(s).actor == "Sela"
    assert s.say("melee Orc 2").ok
    assert to_question(s).actor == "Orc 1"
    assert s.say("orcs: melee Brom").ok
    q = to_question(s)
    assert isinstance(q, DeclareQuestion) and (q.actor, q.tick[0]) == ("Brom", 2)  # round 2: nobody else asked
    assert {n: d[0] for n, d in declared(s).items() if n.startswith("Orc")} == {
        f"Orc {i}": {"melee": "Brom"} for i in (1, 2, 3)}


def test_enter_takes_the_suggestion_and_all_same_keeps_everyones() -> None:
    """Round 2: Brom's Enter takes his standing declaration (melee Orc 1, still standing: 30 hp); ``all: same``
    typed at Sela's question keeps hers and each orc's at their turns."""
    s = session()
    s.say("run")
    for line in ("melee Orc 1", "melee Orc 2", "orcs: melee Brom"):
        to_question(s)
        assert s.say(line).ok
    q = to_question(s)
    assert isinstance(q, DeclareQuestion) and q.actor == "Brom" and q.suggestion is not None
    assert q.to_json()["suggestion"] == {"melee": "Orc 1"}
    assert s.say("").ok
    assert to_question(s).actor == "Sela"
    assert s.say("all: same").ok
    q = to_question(s)
    assert q.tick[0] == 3  # round 3's first question: nobody was asked again in round 2
    assert {n: d[1] for n, d in declared(s).items()} == {
        "Brom": {"melee": "Orc 1"}, "Sela": {"melee": "Orc 2"}, "Orc 1": {"melee": "Brom"},
        "Orc 2": {"melee": "Brom"}, "Orc 3": {"melee": "Brom"}}


def test_back_takes_back_the_last_answer_and_asks_again() -> None:
    s = session()
    s.say("run")
    to_question(s)
    assert s.say("melee Orc 1").ok
    assert to_question(s).actor == "Sela"
    reply = s.say("back")
    assert reply.ok and reply.text.startswith("taken back: the answer")
    q = to_question(s)
    assert q.actor == "Brom"  # his question again, at once
    assert s.say("melee Orc 3").ok
    assert to_question(s).actor == "Sela"
    assert declared(s)["Brom"] == [{"melee": "Orc 3"}]


def test_back_takes_back_a_command() -> None:
    s = session()
    s.say("run")
    to_question(s)
    reply = s.say("damage Orc 2 5")
    assert reply.ok and [e.event.kind for e in reply.events] == ["damage"]
    assert s.fight.state.fighters["Orc 2"].hp == 25  # 30 - 5
    assert s.say("back").text.startswith("taken back: the command 'damage Orc 2 5'")
    assert s.fight.state.fighters["Orc 2"].hp == 30
    assert all(e.kind != "damage" for e in s.fight.events)


def test_back_with_nothing_given() -> None:
    s = session()
    reply = s.say("back")
    assert not reply.ok and "nothing to take back" in reply.text


def test_a_declaration_typed_at_a_pause_is_taken_by_whoever_is_about_to_declare() -> None:
    """Stepping (Enter), the fight stops as Brom comes to declare; ``melee Orc 3`` typed there is his."""
    s = session()
    while s.drive.declaring is None or s.drive.declaring[0].name != "Brom":
        assert s.say("").ok if s.waiting else s.next() is not None
    reply = s.say("melee Orc 3")
    assert reply.ok and reply.go
    s.advance()
    assert declared(s)["Brom"] == [{"melee": "Orc 3"}]


def test_a_command_works_at_a_declaration_and_a_fallen_foe_is_named_as_such() -> None:
    s = session()
    s.say("run")
    q = to_question(s)
    assert q.actor == "Brom"
    reply = s.say("damage Orc 1 30")  # a command at a declaration prompt: 30 - 30 = 0 hp, down (G-05)
    assert reply.ok and [e.event.kind for e in reply.events] == ["damage", "down"]
    # the same question, offering what is possible now (issue 37): the fallen foe is no longer among its choices
    assert s.pending is not None and s.pending.id == q.id and "Orc 1" in q.choices["melee"]
    assert "Orc 1" not in s.pending.choices["melee"] and s.pending.choices["fallen"] == {"Orc 1": "dead"}
    reply = s.say("melee Orc 1")
    assert not reply.ok and "Orc 1 is out of the fight (dead)" in reply.text


def test_a_player_answers_only_its_own_questions() -> None:
    s = session()
    s.say("run")
    q = to_question(s)
    assert q.actor == "Brom"
    assert not s.say("melee Orc 1", seat="Sela").ok
    assert not s.say("damage Orc 1 3", seat="Brom").ok or s.fight.state.fighters["Orc 1"].hp == 30
    assert s.say("melee Orc 1", seat="Brom").ok


def test_unknown_words_say_what_would_be_right() -> None:
    s = session()
    reply = s.say("frobnicate")
    assert not reply.ok and reply.text.startswith("unknown command 'frobnicate' (step, run, round")


def test_journal_in_one_place(tmp_path: Path) -> None:
    """A group's answer is journalled as the declarations said ahead (a command) and the answer: the same rows
    whichever front end took the line (tests/test_table_lines.py compares them end to end)."""
    from affray.drive import DicePrefs
    from affray.table import Recorder, Store, open_drive

    prepared = prepare(load_text(FIGHT))
    store = Store(tmp_path / "f.db")
    game = store.new_game("<test>", FIGHT, prepared.ruleset.id, prepared.seed, {}, False, 50)
    journal = store.journal(game.id)
    s = Session(open_drive(store, game, prepared, journal, DicePrefs()), Recorder(store, game, journal))
    s.say("run")
    for line in ("melee Orc 1", "melee Orc 2", "orcs: melee Brom"):
        to_question(s)
        assert s.say(line).ok
    to_question(s)
    commands = [i for i in journal.inputs if i.kind == "command"]
    assert [json.loads(c.value.removeprefix("ahead ")) for c in commands] == [
        {"who": ["Orc 2", "Orc 3"], "declare": {"melee": "Brom"}, "point": 1}]  # this declaration point's (issue 37)
    assert journal.events == [e for e in journal.events if isinstance(e, dict)] and len(journal.events) == len(
        s.fight.events)
    store.close()


def test_declare_on_the_command_line(tmp_path: Path) -> None:
    """``--declare orcs=auto``: the orcs play their policy under ``affray run`` (no ``--auto``); a WHO that names
    nobody is bad input (exit 2, no traceback)."""
    file = tmp_path / "f.yaml"
    file.write_text(FIGHT, encoding="utf-8")
    affray = ["run", str(file), "--max-rounds", "1", "--json"]
    done = affray_here(*affray, "--declare", "orcs=auto")
    assert done.returncode == 0, done.stderr
    orcs = [e for e in json.loads(done.stdout)["events"] if e["kind"] == "declare" and e["actor"].startswith("Orc")]
    assert len(orcs) == 3 and all(e["detail"].endswith("(auto)") for e in orcs)
    bad = affray_here(*affray, "--declare", "goblins=auto")
    assert bad.returncode == 2 and "no side or combatant named 'goblins'" in bad.stderr
    assert "Traceback" not in bad.stderr
    bad = affray_here(*affray, "--declare", "orcs=sometimes")
    assert bad.returncode == 2 and "WHO=MODE" in bad.stderr


def test_the_shown_events_are_numbered_as_the_timeline() -> None:
    s = session()
    s.say("run")
    to_question(s)
    s.say("melee Orc 1")
    shown = s.advance()
    assert all(isinstance(x, Shown) for x in shown)
    assert [x.seq for x in shown] == list(range(shown[0].seq, shown[0].seq + len(shown)))
