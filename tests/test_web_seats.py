"""Issue 30's stable seats, declaration form and table view: each screen's link is kept with the fight (the same
after a restart), reissued by the referee's button or ``--new-links`` (the old one then opens nothing); a
declaration is sent as action, target and options and the session takes it as the same plan entry typed; the
table view is read-only, reached under the referee's link without showing it, and shows what the players' side
may know. The fight is ``web_helpers.TABLE``: three fighters against three orcs of 3 hp."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from affray.web.serve import Opening, close_served, open_served
from test_web_security import Screens
from web_helpers import card, client, form_key, opening, question


def test_links_are_kept_with_the_fight_until_reissued(tmp_path: Path) -> None:
    op = opening(tmp_path, "side-d6")
    served = open_served(op)
    first = (served.tokens.referee.token, dict((pc, v.token) for pc, v in served.tokens.players.items()),
             served.tokens.board.token if served.tokens.board else "")
    close_served(served)
    served = open_served(Opening(op.db))  # served again: the same links
    try:
        assert served.tokens.referee.token == first[0]
        assert {pc: v.token for pc, v in served.tokens.players.items()} == first[1]
        assert served.tokens.board is not None and served.tokens.board.token == first[2]
    finally:
        close_served(served)
    served = open_served(Opening(op.db, new_links=True))  # affray serve --new-links: every one new
    try:
        assert served.tokens.referee.token != first[0] and served.tokens.board is not None
        assert all(served.tokens.players[pc].token != old for pc, old in first[1].items())
        assert served.tokens.find(first[0]) is None and served.tokens.find(first[1]["Brom"]) is None
    finally:
        close_served(served)
    rows = sqlite3.connect(op.db).execute("SELECT seat, COUNT(*) FROM links GROUP BY seat ORDER BY seat").fetchall()
    assert rows == [("board", 2), ("pc:Ash", 2), ("pc:Brom", 2), ("pc:Sela", 2), ("referee", 2)]  # appended, never
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):  # changed in place
        sqlite3.connect(op.db).execute("UPDATE links SET digest = 'x'")


def test_the_referee_reissues_one_players_link(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        old = s.tok["Sela"]
        assert s.post(s.ref, op="links", who="pc:Sela") == \
            "new links: Sela&#39;s link reissued; the old ones open nothing any more"
        new = served.tokens.players["Sela"].token
        assert new != old and c.get(f"/t/{old}").status_code == 404 and c.get(f"/t/{new}").status_code == 200
        assert served.tokens.players["Brom"].token == s.tok["Brom"]  # the others' stay
        assert new in s.page(s.ref)  # the referee's page shows the new link (and its QR code)
        assert s.post(s.ref, op="links", who="pc:Nobody") == "Nobody: no such player&#39;s link"
    served = open_served(Opening(str(tmp_path / "side-d6.db")))
    try:
        assert served.tokens.players["Sela"].token == new  # and the new one is the one kept
    finally:
        close_served(served)


def _declare(s: Screens, token: str, **fields: str) -> str:
    q = question(s.page(token))
    assert q is not None and q[1] == "declare"
    return s.post(token, op="declare", q=str(q[0]), **fields)


def test_a_declaration_in_three_parts_is_the_plan_entry_typed(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        assert s.post(s.ref, op="command", say="dice roll") == "dice for all: roll"
        assert s.post(s.ref, op="command", say="run") == "run: 1 event; Brom&#39;s declaration is asked"  # the surprise
        # rolled; Brom asked (MJ-03)
        page = s.page(s.tok["Brom"])
        # only what choices() offers: a fighter with a long sword only, no spell, no bow
        actions = re.findall(r'name="action" value="(\w+)"', page)
        assert actions == ["melee", "move", "wait", "misc", "none"]
        assert re.findall(r'name="target" value="([^"]+)"', page) == ["Orc 1", "Orc 2", "Orc 3"]
        assert 'name="melee_weapon"' not in page  # one weapon: nothing to choose
        assert re.findall(r'name="key_(\w+)"', page) == ["set", "rear", "cover", "subdual", "past"]  # MJ's own keys
        assert _declare(s, s.tok["Brom"], action="melee") == "choose whom Brom attacks"
        assert _declare(s, s.tok["Brom"], action="melee", target="Orc 2", charge="1", distance="x") == \
            "distance x: give the feet to close as a whole number"
        # the validator's word: a charge covers at least half the base move (MJ-12: MV 12, 60 ft)
        assert _declare(s, s.tok["Brom"], action="melee", target="Orc 2", charge="1", distance="30") == \
            "distance: a charge covers at least half the base move: 60 ft for MV 12 (MJ-12); give distance &gt;= 60"
        assert _declare(s, s.tok["Brom"], action="melee", target="Orc 2", charge="1", distance="60",
                        key_rear="true") == ""
        declared = [e for e in served.table.journal.events if e["kind"] == "declare"]
        assert declared[-1]["actor"] == "Brom"
        assert declared[-1]["declaration"] == {"melee": "Orc 2", "charge": True, "distance": 60, "rear": True}
        assert _declare(s, s.tok["Sela"], action="move", feet="20", mode="withdraw") == ""
        assert [e for e in served.table.journal.events if e["kind"] == "declare"][-1]["declaration"] == {
            "move": 20, "mode": "withdraw"}
        # a target the validator refuses is refused in its words, and the question stands
        q = question(s.page(s.tok["Ash"]))
        assert _declare(s, s.tok["Ash"], action="melee", target="Ash").startswith("Ash cannot attack itself")
        assert question(s.page(s.tok["Ash"])) == q


def test_the_table_view_is_read_only_and_never_shows_the_referees_link(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        assert served.tokens.board is not None
        board = served.tokens.board.token
        r = c.get(f"/t/{s.ref}/board", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/t/{board}"
        assert c.get(f"/t/{s.tok['Brom']}/board").status_code == 404  # under the referee's link only
        assert s.post(s.ref, op="compose", verb="condition", name="Orc 2", a="held", b="2 rounds") == \
            "done: condition Orc 2 held 2 rounds"
        html = c.get(f"/t/{board}").text
        assert 'data-viewer="table view"' in html and "<form" not in html
        assert s.ref not in html and all(t not in html for t in s.tok.values())
        assert card(html, "Orc 2") == "Orc 2 standing hp ? held"  # held, not for how long
        assert card(html, "Brom") == "Brom standing 50/50 50/50 hp"
        assert "round 3" not in html and "3/3" not in html
        r = c.post("/act", data={"token": board, "key": form_key(s.page(s.ref)), "op": "command", "say": "step"})
        assert r.status_code == 403 and "read-only" in r.text
        assert board in s.page(s.ref)  # the referee's page gives the table view's link
