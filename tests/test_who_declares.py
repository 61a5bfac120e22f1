"""Who declares once a combatant's plan is used up (CONTRACT.md "Who declares, groups and standing declarations"):
``ask`` (a person: the asker), ``auto`` (its policy), ``repeat`` (its last declaration while still possible), set
in the file per side or combatant, changed by the referee's ``declare``; declarations said ahead (a group's
answer); and what the referee reaches for: a spell that heals, ``morale SIDE``, ``note TEXT``.

Every fight here is side-d6 (seed 001) with both sides aware (``surprise: none``) and initiative pinned, so each
expectation follows from the file and the rule IDs cited.
"""

from __future__ import annotations

from typing import Any

from affray import load_text, prepare, timeline_dict
from affray.drive import ROLL, DeclareQuestion, DieQuestion, Drive, End

BASE = """
ruleset: side-d6
seed: 11
surprise: none
rolls:
  initiative: {1: {party: 5, orcs: 2}, 2: {party: 5, orcs: 2}, 3: {party: 5, orcs: 2}}
sides:
  party:
    pc: true
    %(party)s
    combatants:
      - {name: Brom, class: fighter, level: 3, hp: 200, ac: 4, weapons: [{name: long sword, sf: 5, damage: 1d8}]}
      - {name: Mina, class: cleric, level: 3, hp: 200, ac: 6, weapons: [{name: mace, sf: 7, damage: 1d6}],
         spells: [{name: cure light wounds, level: 1, ct: 5, heal: 1d8, count: 2}]}
  orcs:
    %(orcs)s
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 200, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
plan:
  Brom: [{melee: Orc 1}]
  Orc 1: [{melee: Brom, distance: 20}]
"""


def encounter(party: str = "", orcs: str = "") -> str:
    return BASE % {"party": party, "orcs": orcs}


def declarations(doc: dict[str, Any], actor: str) -> list[tuple[int, Any]]:
    """(round, the declaration entry or the detail) of each of ``actor``'s declare events."""
    return [(e["round"], e.get("declaration", e.get("detail"))) for e in doc["events"]
            if e["kind"] == "declare" and e["actor"] == actor]


def run(text: str, **kw: Any) -> dict[str, Any]:
    return timeline_dict(prepare(load_text(text)).fight(max_rounds=3, **kw).run())


def test_repeat_keeps_the_last_declaration_and_drops_the_distance_once_engaged() -> None:
    """``declare: repeat`` on both sides, under ``affray run`` (nobody is asked). Brom's one entry stands in rounds
    2 and 3. Orc 1 closed its 20 ft in round 1 (MJ-05: within a third of MV 12's 120 ft) and struck, which engages
    it with Brom (G-04), so what stands is the melee without the distance. Orc 2 has no plan: nothing stands, and
    with nobody to ask it declares nothing."""
    doc = run(encounter("declare: repeat", "declare: repeat"))
    assert declarations(doc, "Brom") == [(1, {"melee": "Orc 1"}), (2, {"melee": "Orc 1"}), (3, {"melee": "Orc 1"})]
    assert declarations(doc, "Orc 1") == [(1, {"melee": "Brom", "distance": 20}), (2, {"melee": "Brom"}),
                                          (3, {"melee": "Brom"})]
    assert declarations(doc, "Orc 2") == []
    repeated = [e for e in doc["events"] if e["kind"] == "declare" and e["round"] > 1]
    assert all(e["consumed"] for e in repeated), "a repeat is the plan's next entry, as an answer is"


def test_repeat_ends_when_the_spell_is_spent() -> None:
    """Mina memorised two cure light wounds (``count: 2``); her one entry casts it in rounds 1 and 2; in round 3
    it cannot be paid for (no copy left), so nothing stands and, with nobody to ask, she does nothing."""
    text = encounter("declare: repeat").replace("plan:\n", "plan:\n  Mina: [{cast: cure light wounds, at: Brom}]\n")
    doc = run(text)
    assert [r for r, _ in declarations(doc, "Mina")] == [1, 2, 3]
    assert declarations(doc, "Mina")[2] == (3, "nothing left to do")
    assert [e["round"] for e in doc["events"] if e["kind"] == "cast"] == [1, 2]


def test_auto_on_one_side_plays_it_without_auto_for_all() -> None:
    """``declare: auto`` on the orcs only: they play their policy once their plans are used up (``(auto)``, not
    the plan's), while the party's Brom, asked but with nobody to ask, does nothing after his one entry."""
    doc = run(encounter(orcs="declare: auto"))
    orc2 = [e for e in doc["events"] if e["kind"] == "declare" and e["actor"] == "Orc 2"]
    assert [e["round"] for e in orc2] == [1, 2, 3]
    assert all(e["detail"].endswith("(auto)") and not e.get("consumed") for e in orc2)
    assert declarations(doc, "Brom") == [(1, {"melee": "Orc 1"}), (2, "nothing left to do")]


def test_auto_for_all_makes_every_ask_an_auto() -> None:
    """``--auto`` (``auto=True``) turns the party's default ``ask`` into ``auto``: Brom plays his policy in
    round 2."""
    doc = run(encounter(), auto=True)
    brom = [e for e in doc["events"] if e["kind"] == "declare" and e["actor"] == "Brom"]
    assert brom[1]["round"] == 2 and brom[1]["detail"].endswith("(auto)")


def pull_until(drive: Drive, want: type) -> Any:
    """Pull, rolling every die asked, until an item of type ``want`` (or the end)."""
    while True:
        item = drive.pull()
        if isinstance(item, (want, End)):
            return item
        if isinstance(item, DieQuestion):
            assert drive.answer(ROLL) is None


def test_the_referee_sets_a_side_to_repeat_mid_fight() -> None:
    """``declare orcs repeat`` at round 1's first question: a ``declarer`` event names both orcs; answered once in
    round 1, neither orc is asked in round 2 or 3 (its answer stands)."""
    drive = prepare(load_text(encounter())).drive(max_rounds=3)
    q = pull_until(drive, DeclareQuestion)
    assert drive.command("declare orcs repeat") is None
    (event,) = drive.take_events()
    assert (event.kind, event.who, event.mode, event.members) == ("declarer", "orcs", "repeat", ("Orc 1", "Orc 2"))
    asked: list[tuple[str, int]] = []
    while not isinstance(q, End):
        asked.append((q.actor, q.tick[0]))
        assert drive.answer({"melee": "Brom"} if q.side == "orcs" else {"melee": "Orc 2"}) is None
        q = pull_until(drive, DeclareQuestion)
    assert [a for a in asked if a[0].startswith("Orc")] == [("Orc 2", 1)]  # Orc 1 had its plan in round 1


def test_a_declaration_said_ahead_is_taken_at_its_point_and_not_asked() -> None:
    """``ahead`` (a group's answer, journalled as a command): Orc 2 is said to strike Brom before round 1's
    declarations; it is not asked, and its declare event is that entry, counted as its plan's (as an answer)."""
    drive = prepare(load_text(encounter())).drive(max_rounds=1)
    q = pull_until(drive, DeclareQuestion)
    assert drive.command('ahead {"who": ["Orc 2"], "declare": {"melee": "Brom"}}') is None
    assert drive.take_events() == []  # said ahead: nothing happens until its point comes
    while not isinstance(q, End):
        assert q.actor != "Orc 2"
        assert drive.answer({"melee": "Orc 2"}) is None
        q = pull_until(drive, DeclareQuestion)
    doc = timeline_dict(q.result)
    (orc2,) = [e for e in doc["events"] if e["kind"] == "declare" and e["actor"] == "Orc 2"]
    assert orc2["declaration"] == {"melee": "Brom"} and orc2["consumed"]


def test_ahead_refuses_a_declaration_the_combatant_cannot_make() -> None:
    drive = prepare(load_text(encounter())).drive(max_rounds=1)
    pull_until(drive, DeclareQuestion)
    error = drive.command('ahead {"who": ["Orc 2"], "declare": {"cast": "sleep"}}')
    assert error is not None and "Orc 2" in error and "sleep" in error


def test_a_healing_spell_gives_back_its_dice_never_above_the_start() -> None:
    """Brom (200 hp) takes 10 by the referee's hand: 190. Mina's cure light wounds (``heal: 1d8``; her one entry
    repeats) lands in round 1 with the d8 given as 6: 190 + 6 = 196; in round 2 with the d8 given as 8, but only 4
    are missing: 196 + 4 = 200, the hit points he started with. Everyone else declares nothing."""
    text = encounter("declare: repeat").replace("plan:\n", "plan:\n  Mina: [{cast: cure light wounds, at: Brom}]\n")
    text = text.replace("Brom: [{melee: Orc 1}]", "Brom: [{none: true}]").replace(
        "Orc 1: [{melee: Brom, distance: 20}]", "Orc 1: [{none: true}]")
    drive = prepare(load_text(text)).drive(max_rounds=2)
    drive.set_dice("healing", "ask")
    item = drive.pull()
    assert drive.command("damage Brom 10") is None
    drive.take_events()
    heals = iter([6, 8])
    seen: list[tuple[dict[str, int], int]] = []
    while not isinstance(item, End):
        if isinstance(item, DieQuestion):
            assert drive.answer(next(heals) if item.purpose == "healing" else ROLL) is None
        elif isinstance(item, DeclareQuestion):
            assert drive.answer({"none": True}) is None
        elif getattr(item, "kind", None) == "cast":
            seen.append((dict(item.healed), drive.fight.state.fighters["Brom"].hp))
        item = drive.pull()
    assert seen == [({"Brom": 6}, 196), ({"Brom": 4}, 200)]


def test_morale_on_command_and_a_note_in_the_log() -> None:
    """``morale orcs 9``: the orcs check now, the referee giving side-d6's 2d6 as 9 against the file's morale 8
    (G-07: above the score fails), so both orcs flee (routed). ``note`` keeps the referee's words as a ``note``
    event."""
    drive = prepare(load_text(encounter(orcs="morale: 8"))).drive(max_rounds=1)
    pull_until(drive, DeclareQuestion)
    assert drive.command("note the door is barred") is None
    (note,) = drive.take_events()
    assert drive.command("morale orcs 9") is None
    (morale,) = drive.take_events()
    assert (note.kind, note.detail) == ("note", "the door is barred")
    assert (morale.kind, morale.passed, morale.members) == ("morale", False, ("Orc 1", "Orc 2"))
    assert morale.detail == "orcs morale 2d6=9 vs 8: fails: flees"
    assert all(drive.fight.state.fighters[n].routed for n in ("Orc 1", "Orc 2"))
    assert drive.command("morale orcs 13") is not None  # 2d6 gives 2-12


def test_morale_on_command_refuses_the_player_characters() -> None:
    drive = prepare(load_text(encounter())).drive(max_rounds=1)
    pull_until(drive, DeclareQuestion)
    error = drive.command("morale party")
    assert error is not None and "never check morale" in error


def test_asking_one_combatant_changes_nothing_the_auto_played_ones_do() -> None:
    """The orcs and Mina on ``declare: auto``, Brom asked through a driven fight; each of his questions'
    suggestion previews his policy (``Auto.preview``), which must leave the claims his side's policies share as
    they were (Mina's choice of foe reads them): the driven timeline is the ``affray run`` of a file whose plan
    holds Brom's answers (CONTRACT "Who declares": a timeline is the same whether its declarations came by
    question or from the plan)."""
    import json

    from ruamel.yaml import YAML

    text = encounter(orcs="declare: auto").replace("plan:\n  Brom: [{melee: Orc 1}]\n", "plan:\n").replace(
        "{name: Mina, class: cleric,", "{name: Mina, declare: auto, class: cleric,")  # Brom's side-mate plays too
    drive = prepare(load_text(text)).drive(max_rounds=3)
    answers: dict[str, list[dict[str, Any]]] = {}
    item = drive.pull()
    while not isinstance(item, End):
        if isinstance(item, DeclareQuestion):
            assert item.suggestion is not None  # the policy's preview, offered on Enter
            entry = {"melee": "Orc 2"} if item.actor == "Brom" else {"melee": "Orc 1"}
            answers.setdefault(item.actor, []).append(entry)
            assert drive.answer(entry) is None
        elif isinstance(item, DieQuestion):
            assert drive.answer(ROLL) is None
        item = drive.pull()
    data = YAML(typ="safe").load(text)
    for name, entries in answers.items():
        data["plan"][name] = list(data["plan"].get(name) or []) + entries
    ran = timeline_dict(prepare(load_text(json.dumps(data))).fight(max_rounds=3).run())
    assert timeline_dict(item.result) == ran
