"""The referee's screen drives the fight as the console does (step, run, undo, answers for anyone, the
referee's outcome, commands from the forms), and a served fight resumes where it was left. The fight is
``web_helpers.TABLE`` under side-d6: orcs of 3 hp, every player's die typed."""

from __future__ import annotations

import re
from pathlib import Path

from affray.web.serve import Opening, close_served, open_served
from test_web_security import Screens
from web_helpers import card, client, form_key, opening, question


def _title(html: str) -> str:
    found = re.search(r'data-question="\d+"[^>]*>.*?<h2[^>]*>([^<]*)</h2>', html, re.S)
    assert found, "no question on the page"
    return found.group(1)


def _lines(html: str) -> list[str]:
    return re.findall(r'<span class="line">([^<]*)</span>', html)


def test_the_referee_steps_answers_for_anyone_gives_an_outcome_and_undoes(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        assert "waiting for the referee to go on" in s.page(s.tok["Sela"])
        # the surprise die comes first: what the line did, never "0 events" (issue 37)
        assert s.post(s.ref, op="command", say="step") == "step: the d6 for surprise (party) is asked"
        assert _title(s.page(s.ref)) == "d6 for surprise (party)"
        assert s.answer(s.ref, "1") == ""  # 1 never surprises (MJ-08: 5-6)
        assert re.fullmatch(r"0 surprise     all sides   party d6=1, orcs d6=\d: .*", _lines(s.page(s.ref))[0])
        assert question(s.page(s.ref)) is None  # a step at a time: the surprise was the step
        assert s.post(s.ref, op="command", say="step") == "step: Brom&#39;s declaration is asked"
        assert _title(s.page(s.ref)) == "Brom (party) declares, round 1, step 2 (declarations)"
        q = question(s.page(s.ref))
        assert s.answer(s.ref, "fly away").startswith("fly away: &#39;fly&#39; is not a declaration: begin with one "
                                                      "of melee")
        assert question(s.page(s.ref)) == q  # the question stands
        assert s.post(s.ref, op="command", say="run") == "run: once the question waiting is answered (Brom declares)"
        assert question(s.page(s.ref)) == q
        assert s.answer(s.ref, "melee Orc 1 with long sword") == ""  # the referee answers for anyone; then it runs
        assert s.answer(s.tok["Sela"], "melee Orc 2") == ""
        assert s.answer(s.tok["Ash"], "melee Orc 3") == ""
        assert _title(s.page(s.ref)) == "d6 for initiative (party)"
        assert s.answer(s.ref, "6") == ""
        page = s.page(s.ref)
        assert _title(page) == "Brom attacks Orc 1 (melee): the d20"
        q = question(page)
        # events so far: 0 surprise, 1-3 the party's declarations, 4-6 the orcs', 7 initiative
        assert [line.split()[0] for line in _lines(page)] == ["7", "6", "5", "4", "3", "2", "1", "0"]
        assert "melee Brom with club" in _lines(page)[3]
        assert s.answer(s.ref, "hit 6") == ""
        page = s.page(s.ref)
        assert "8 melee        Brom -&gt; Orc 1: hit, 6 damage   the referee&#39;s outcome: hit, 6 damage" in page
        assert "-3/3 hp" in card(page, "Orc 1")  # 3 less 6
        assert s.post(s.ref, op="command", say="undo") == "undone: back to 8 events"
        page = s.page(s.ref)
        assert _lines(page)[0].startswith("7 initiative") and question(page) is None
        assert s.post(s.ref, op="command", say="step") == "step: the d20 for attack (Brom) is asked"
        assert question(s.page(s.ref)) == q  # the same d20 asked again
        assert s.answer(s.tok["Brom"], "2") == ""  # now by Brom's player: a miss (d20 2 against AC 6)
        assert "8 melee        Brom -&gt; Orc 1: miss" in s.page(s.ref)


def test_commands_from_the_referee_forms(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        assert s.post(s.ref, op="compose", verb="condition", name="Orc 2", a="held", b="2 rounds") == \
            "done: condition Orc 2 held 2 rounds"
        assert card(s.page(s.ref), "Orc 2") == "Orc 2 standing 3/3 3/3 hp held, to round 3, start"
        ash = s.page(s.tok["Ash"])
        assert card(ash, "Orc 2") == "Orc 2 standing hp ? held"  # seen held, not for how long
        assert "round 3" not in ash  # nor in the timeline, nor on the board
        assert s.post(s.ref, op="compose", verb="end", name="Orc 2", a="held") == "done: end Orc 2 held"
        assert s.post(s.ref, op="command", say="damage Brom 8") == "done: damage Brom 8"  # 50 - 8 = 42
        assert s.post(s.ref, op="compose", verb="heal", name="Brom", a="5") == "done: heal Brom 5"  # 42 + 5 = 47
        assert "47/50 hp" in card(s.page(s.ref), "Brom") and "47/50 hp" in card(s.page(s.tok["Sela"]), "Brom")
        # "Heal above full" is the console's `heal NAME N temp`: 47 + 5 = 52 of Brom's 50
        assert s.post(s.ref, op="compose", verb="heal-temp", name="Brom", a="5") == "done: heal Brom 5 temp"
        assert "52/50 hp" in card(s.page(s.ref), "Brom")
        assert s.post(s.ref, op="compose", verb="heal", name="Brom", a="1").startswith("heal: Brom is at its full 50")
        assert s.post(s.ref, op="command", say="damage Nobody 3") == "damage: no combatant named &#39;Nobody&#39; " \
            "(combatants: Brom, Sela, Ash, Orc 1, Orc 2, Orc 3)"
        assert s.post(s.ref, op="command", say="frobnicate").startswith(
            "unknown command &#39;frobnicate&#39; (step, run")
        assert s.post(s.ref, op="compose", verb="rm", name="Orc 2") == "rm: not a command"
        assert s.post(s.ref, op="compose", verb="dice", name="party", a="roll") == "dice for party: roll"
        assert served.table.journal.inputs[-1].value == ("party", "roll")
        assert s.post(s.ref, op="compose", verb="remove", name="Orc 3") == "done: remove Orc 3"
        assert "Orc 3 leaves the fight (the referee)" in s.page(s.ref)
        assert s.post(s.ref, op="compose", verb="add", name="orcs",
                      a="{name: Orc 9, hd: 1, hp: 7, weapons: [{name: axe, sf: 7, damage: 1d8}]}") == \
            "done: add orcs {name: Orc 9, hd: 1, hp: 7, weapons: [{name: axe, sf: 7, damage: 1d8}]}"
        assert "7/7 hp" in card(s.page(s.ref), "Orc 9")
        brom = s.page(s.tok["Brom"])
        assert "Orc 9" in brom and "7/7" not in brom and "7 hp" not in brom


def test_a_served_fight_resumes_where_it_was_left(tmp_path: Path) -> None:
    op = opening(tmp_path, "side-d6")
    with client(op) as (c, served):
        s = Screens(c, served)
        assert s.post(s.ref, op="command", say="run") == "run: the d6 for surprise (party) is asked"
        assert s.answer(s.tok["Sela"], "1") == ""
        assert s.answer(s.tok["Brom"], "melee Orc 1") == ""
        q = question(s.page(s.tok["Sela"]))
        events = list(served.table.journal.events)
        old = s.tok["Sela"]
    served = open_served(Opening(op.db))
    try:
        assert served.table.journal.events == events and len(events) == 2  # the surprise, Brom's declaration
        assert served.table.pending is None  # as the console, the fight waits for the referee's first word
        served.pool.submit(lambda: served.table.command("run")).result()
        assert q is not None and served.table.pending is not None and served.table.pending.id == q[0]
        assert sum(i.kind == "dice" for i in served.table.journal.inputs) == 1  # the party's dice asked, once
        assert served.tokens.players["Sela"].token == old  # the same links: they are kept with the fight
    finally:
        close_served(served)


def test_the_referee_declares_for_three_kobolds_in_one_form(tmp_path: Path) -> None:
    """Issue 44: README's kobold fight under side-d6; at Kobold 1's declaration the referee picks Kobolds 1, 2 and 3
    in the group form, and "Attack in melee", Aldric: the journal holds three declare events, one each, at each
    one's turn (MJ-03: one after another at step 2), and the next asked is Kobold 4. Then who declares: the whole
    side on repeat, Kobold 4 by its policy, each card saying so; and what is missing is said."""
    from test_web_round_ahead import FIGHT, SAYS

    with client(opening(tmp_path, "side-d6", FIGHT)) as (c, served):
        s = Screens(c, served)
        table = served.table

        def group(**data: str | list[str]) -> str:
            r = c.post("/act", data={"token": s.ref, "key": form_key(s.page(s.ref)), "op": "group", **data},
                       headers={"HX-Request": "true"})
            assert r.status_code == 200, r.text
            found = re.search(r'class="note" role="status">([^<]*)<', r.text)
            return found.group(1) if found else ""

        assert s.post(s.ref, op="command", say="dice roll") == "dice for all: roll"
        for _ in range(10):
            q = table.pending
            if q is not None and getattr(q, "actor", "") == "Kobold 1":
                break
            s.post(s.ref, op="command", say=SAYS[q.actor] if q is not None else "step")  # type: ignore[union-attr]
        assert _title(s.page(s.ref)) == "Kobold 1 (kobolds) declares, round 1, step 2 (declarations)"
        before = len(table.journal.events)
        assert group(who=[], action="melee", target="Aldric", verb="declare") == \
            "pick who: one or more combatants, or a whole side"
        assert group(who=["Kobold 1"], action="melee", target="", verb="declare") == "choose whom they attack"
        assert len(table.journal.events) == before  # nothing said, nothing changed
        assert group(who=["Kobold 1", "Kobold 2", "Kobold 3"], action="melee", target="Aldric", verb="declare") == \
            "declared for Kobold 1, Kobold 2, Kobold 3: melee Aldric"
        made = [e for e in table.journal.events[before:] if e["kind"] == "declare"]
        assert [(e["actor"], e["declaration"]) for e in made] == [
            (f"Kobold {n}", {"melee": "Aldric"}) for n in (1, 2, 3)]
        assert _title(s.page(s.ref)) == "Kobold 4 (kobolds) declares, round 1, step 2 (declarations)"
        assert group(who=["side:kobolds"], verb="repeat") == "from now on the declarations of kobolds are repeated"
        assert group(who=["Kobold 4"], verb="auto") == "from now on the declarations of Kobold 4 are played by " \
            "their policy"
        page = s.page(s.ref)
        assert card(page, "Kobold 5").endswith("declarations: repeated")
        assert card(page, "Kobold 4").endswith("declarations: by its policy")
        assert [i.value for i in table.journal.inputs if i.kind == "command"][-2:] == [
            "declare kobolds repeat", "declare Kobold 4 auto"]
