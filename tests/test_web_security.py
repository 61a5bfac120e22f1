"""The web page's security (issue 15): a token acts only for its character, nothing hidden reaches a player's
HTML or live frames, markup in names is inert, forged and replayed requests are refused. Each expectation is
worked out from the fight in ``web_helpers.TABLE``: three fighters against three orcs of 3 hp, the orcs'
plans a blow at one fighter each, every player's die typed by the test."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from affray.cli.app import app
from affray.table.store import FightBusyError
from affray.web.app import Served
from affray.web.serve import Opening, open_served
from web_helpers import PCS, TABLE, card, client, first_frame, form_key, live_server, opening, question, table_file

runner = CliRunner(env={"COLUMNS": "400"})


class Screens:
    """The four screens of a served fight, through one test client."""

    def __init__(self, c: TestClient | httpx.Client, served: Served) -> None:
        self.c = c
        self.served = served
        self.ref = served.tokens.referee.token
        self.tok = {pc: v.token for pc, v in served.tokens.players.items()}

    def page(self, token: str) -> str:
        r = self.c.get(f"/t/{token}")
        assert r.status_code == 200
        return r.text

    def post(self, token: str, key: str | None = None, **data: str) -> str:
        """A form sent from ``token``'s page as htmx sends it (with ``key``: one kept from an earlier page); the
        note the answer shows (or "")."""
        r = self.c.post("/act", data={"token": token, "key": key or form_key(self.page(token)), **data},
                        headers={"HX-Request": "true"})
        assert r.status_code == 200, r.text
        found = re.search(r'class="note" role="status">([^<]*)<', r.text)
        return found.group(1) if found else ""

    def answer(self, token: str, value: str) -> str:
        q = question(self.page(token))
        assert q is not None, "no question on that screen"
        return self.post(token, op="answer", q=str(q[0]), text=value)

    def rows(self) -> int:
        """Journal rows so far (events and inputs): a refused request adds none."""
        j = self.served.table.journal
        return len(j.events) + len(j.inputs)


def _start(s: Screens, surprise: str) -> list[str]:
    """Run from the start; the party's surprise die, typed by Brom's player. Sela's form keys of that moment
    (her page had a form: the die was hers to answer too)."""
    first, second = list(s.tok.values())[:2]
    said = s.post(s.ref, op="command", say="run")  # what the line did (issue 37: never "0 events")
    assert said.startswith("run: the d") and said.endswith(" for surprise (party) is asked"), said
    assert question(s.page(first)) is not None
    kept = [form_key(s.page(second)) for _ in range(4)]
    assert s.answer(first, surprise) == ""
    return kept


def test_tokens_are_one_a_screen_and_a_player_page_holds_no_other(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        assert list(s.tok) == list(PCS)
        tokens = [s.ref, *s.tok.values()]
        assert len(set(tokens)) == 4 and all(len(t) >= 32 for t in tokens)
        for pc, token in s.tok.items():
            html = s.page(token)
            assert f'data-viewer="{pc}"' in html
            assert 'class="controls"' not in html and "Players&#39; links" not in html
            assert [t for t in tokens if t in html] == [token]
            assert c.get(f"/t/{token}/qr/0.svg").status_code == 404  # the QR codes are the referee's
        ref = s.page(s.ref)
        assert 'class="controls"' in ref and all(t in ref for t in tokens)
        qr = c.get(f"/t/{s.ref}/qr/2.svg")
        assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml" and b"<svg" in qr.content
        assert c.get(f"/t/{s.ref}/qr/3.svg").status_code == 404
        assert c.get("/t/" + "x" * 32).status_code == 404
        assert c.get("/t/" + s.ref[:-1]).status_code == 404
        assert "default-src 'self'" in c.get(f"/t/{s.ref}").headers["content-security-policy"]


def test_a_player_answers_only_its_own_questions_and_gives_no_commands(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        kept = _start(s, "1")
        # side-d6 (MJ-03): the PCs declare first, in the file's order: Brom is asked
        q = question(s.page(s.tok["Brom"]))
        assert q is not None and q[1] == "declare"
        sela = s.page(s.tok["Sela"])
        assert question(sela) is None and "waiting for Brom" in sela
        before = s.rows()
        assert s.post(s.tok["Sela"], kept[0], op="answer", q=str(q[0]), say="melee Orc 1") == \
            "that question is not Sela&#39;s to answer"
        assert s.post(s.tok["Sela"], kept[1], op="command", say="damage Orc 1 3") == "only the referee gives commands"
        assert s.post(s.tok["Sela"], kept[2], op="compose", verb="damage", name="Orc 1", a="3") == \
            "only the referee gives commands"
        assert s.rows() == before
        assert s.answer(s.tok["Brom"], "melee Orc 1") == ""
        assert s.answer(s.tok["Sela"], "melee Orc 2") == ""
        assert s.answer(s.tok["Ash"], "melee Orc 3") == ""
        # then the orcs declare from their plans, and the party's initiative d6 is asked of its players
        q = question(s.page(s.tok["Ash"]))
        assert q is not None and "d6 for initiative (party)" in s.page(s.tok["Ash"])
        assert s.answer(s.tok["Ash"], "6") == ""
        # Brom's blow: its d20 is Brom's to roll, not Sela's; an outcome is the referee's word only
        q = question(s.page(s.tok["Brom"]))
        assert q is not None and "Brom attacks Orc 1 (melee): the d20" in s.page(s.tok["Brom"])
        before = s.rows()
        assert s.post(s.tok["Sela"], kept[3], op="answer", q=str(q[0]), text="20").startswith(
            "that question is not Sela")
        assert s.answer(s.tok["Brom"], "hit 6") == "only the referee gives an attack&#39;s outcome: give the d20, " \
            "or roll it"
        assert s.rows() == before


def test_enemy_hit_points_never_reach_a_player(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        def orc(html: str) -> str:
            return card(html, "Orc 1").split("Orc 1 ", 1)[1]

        assert orc(s.page(s.ref)) == "standing 3/3 3/3 hp"
        brom = s.page(s.tok["Brom"])
        assert orc(brom) == "standing hp ?" and "3/3" not in brom
        assert card(brom, "Sela") == "Sela standing 50/50 50/50 hp"  # an ally's
        assert s.post(s.ref, op="compose", verb="damage", name="Orc 1", a="1") == "done: damage Orc 1 1"
        assert orc(s.page(s.ref)) == "standing 2/3 2/3 hp"
        assert s.post(s.ref, op="command", say="damage Orc 1 2") == "done: damage Orc 1 2"
        ref = s.page(s.ref)
        assert orc(ref) == "down 0/3 0/3 hp" and "Orc 1 at 0 hp: dead" in ref
        for token in s.tok.values():
            html = s.page(token)
            assert orc(html) == "down hp ?" and re.search(r"\b[0-3]/3\b", html) is None
            assert "hp: dead" not in html and "damage to Orc 1" not in html
            assert "down         Orc 1" in html  # that it fell is seen by all


def test_side_d6_enemy_declarations_stay_hidden_from_the_players(tmp_path: Path) -> None:
    """MJ-03: the PCs declare, then the monsters, hearing them; nothing tells the PCs what the orcs declared."""
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        _start(s, "1")
        for pc, target in zip(PCS, ("Orc 1", "Orc 2", "Orc 3"), strict=True):
            assert s.answer(s.tok[pc], f"melee {target}") == ""
        ref = s.page(s.ref)  # at the party's initiative die: every declaration is made
        assert "d6 for initiative (party)" in ref
        for orc, pc in (("Orc 1", "Brom"), ("Orc 2", "Sela"), ("Orc 3", "Ash")):
            assert f"declare      {orc}   melee {pc}" in ref
        for token in s.tok.values():
            html = s.page(token)
            assert "declare      Brom   melee Orc 1" in html  # an ally's declaration is heard at the table
            assert "declare      Orc" not in html and "melee Brom with club" not in html
            assert "Orc 1: melee" not in html  # nor in what comes next


def test_live_frames_carry_no_enemy_hit_points_nor_declarations(tmp_path: Path) -> None:
    """The same, over a real socket: each screen's first live frame once the orcs have declared."""
    with live_server(opening(tmp_path, "side-d6")) as (url, served), httpx.Client(base_url=url, timeout=10) as c:
        s = Screens(c, served)
        _start(s, "1")
        for pc, target in zip(PCS, ("Orc 1", "Orc 2", "Orc 3"), strict=True):
            assert s.answer(s.tok[pc], f"melee {target}") == ""
        ref = first_frame(f"{url}/t/{s.ref}/live")
        assert "declare      Orc 1   melee Brom" in ref and "3/3 hp" in ref
        for pc, token in s.tok.items():
            frame = first_frame(f"{url}/t/{token}/live")
            assert f"<h1>{pc} (party)" in frame and "declare      Ash   melee Orc 3" in frame
            assert "declare      Orc" not in frame and "3/3" not in frame and s.ref not in frame


def test_combat2_winners_hear_the_losers_declarations_each_when_it_is_asked(tmp_path: Path) -> None:
    """P1-08: the losers state their intentions first, and the winners answer knowing them. The party's d10
    is typed 1 (lowest wins): the orcs lose and declare first; each fighter hears them as it is asked."""
    with client(opening(tmp_path, "combat2-phase1")) as (c, served):
        s = Screens(c, served)
        _start(s, "10")  # 1-3 is surprised (C2-27): the party is not
        assert "d10 for initiative (party)" in s.page(s.tok["Sela"])
        assert s.answer(s.tok["Sela"], "1") == ""
        ref = s.page(s.ref)
        assert re.search(r"party d10=1, orcs d10=\d+: the party wins", ref)
        assert "declare      Orc 1   melee Brom" in ref and "Brom (party) declares, round 1, phase 1" in ref
        brom, sela = s.page(s.tok["Brom"]), s.page(s.tok["Sela"])
        assert "<strong>Heard:</strong> Orc 1: melee Brom" in brom and "Orc 3: melee Ash" in brom
        assert "declare      Orc 1   melee Brom" in brom
        assert "declare      Orc" not in sela and "Heard" not in sela  # not asked yet: heard nothing yet
        assert s.answer(s.tok["Brom"], "melee Orc 1") == ""
        sela = s.page(s.tok["Sela"])
        assert "<strong>Heard:</strong> Orc 1: melee Brom" in sela and "declare      Orc 2   melee Sela" in sela


def test_combat2_losers_never_hear_the_winners(tmp_path: Path) -> None:
    """The party's d10 typed 10: the party loses and declares first; the orcs' declarations, made after
    hearing the party's, reach no player."""
    with client(opening(tmp_path, "combat2-phase1")) as (c, served):
        s = Screens(c, served)
        _start(s, "10")
        assert s.answer(s.tok["Sela"], "10") == ""
        assert re.search(r"party d10=10, orcs d10=\d: the orcs win", s.page(s.ref))
        for pc, target in zip(PCS, ("Orc 1", "Orc 2", "Orc 3"), strict=True):
            html = s.page(s.tok[pc])
            assert "Heard" not in html and "declare      Orc" not in html
            assert s.answer(s.tok[pc], f"melee {target}") == ""
        assert "declare      Orc 1   melee Brom" in s.page(s.ref)
        for token in s.tok.values():
            assert "declare      Orc" not in s.page(token)


MARKUP = TABLE.replace("name: Brom", "name: '<img src=x onerror=alert(1)>'").replace(
    "melee: Brom", "melee: '<img src=x onerror=alert(1)>'").replace("name: club", "name: '<script>alert(2)</script>'")


def test_markup_in_names_is_inert(tmp_path: Path) -> None:
    with live_server(opening(tmp_path, "side-d6", MARKUP)) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        s = Screens(c, served)
        assert list(s.tok) == ["<img src=x onerror=alert(1)>", "Sela", "Ash"]
        _start(s, "1")
        for pc, target in zip(s.tok, ("Orc 1", "Orc 2", "Orc 3"), strict=True):
            assert s.answer(s.tok[pc], f"melee {target}") == ""
        for token in (s.ref, *s.tok.values()):
            for html in (s.page(token), first_frame(f"{url}/t/{token}/live")):
                assert "<img src=x" not in html and "<script>alert" not in html
                assert "&lt;img src=x onerror=alert(1)&gt;" in html
        assert "&lt;script&gt;alert(2)&lt;/script&gt;" in s.page(s.ref)  # the orcs' club, in their declarations


def test_forged_and_replayed_requests_are_refused(tmp_path: Path) -> None:
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        # the party's surprise die is asked
        assert s.post(s.ref, op="command", say="run") == "run: the d6 for surprise (party) is asked"
        before = s.rows()

        def send(data: dict[str, str], **headers: str) -> tuple[int, str]:
            r = c.post("/act", data=data, headers=headers, follow_redirects=False)
            return r.status_code, r.text

        run = {"token": s.ref, "op": "command", "say": "damage Orc 1 1"}
        assert send(run) == (403, "refused: this form was already sent, or is too old, or is not this page's: "
                                  "reload the page\n")  # no key: a forged form
        assert send({**run, "key": "x" * 24})[0] == 403
        assert send({**run, "key": form_key(s.page(s.tok["Brom"]))})[0] == 403  # a key of another screen
        assert send({**run, "token": "nobody", "key": form_key(s.page(s.ref))}) == (403, "refused: no such token\n")
        key = form_key(s.page(s.ref))
        assert send({**run, "key": key}, Origin="http://evil.example")[0] == 403  # another site's page
        assert send({**run, "key": key}, **{"Sec-Fetch-Site": "cross-site"})[0] == 403
        assert send({**run, "key": key, "say": "x" * 20_000}) == (413, "request body too large: at most 16384 "
                                                                        "bytes\n")
        assert c.get("/act", params=run).status_code == 405  # nothing changes by GET
        assert s.rows() == before
        assert send({**run, "key": key}, Origin="http://127.0.0.1:8000")[0] == 303  # the page's own: it runs
        assert s.rows() == before + 2  # the command and its event
        replayed = send({**run, "key": key})
        assert replayed[0] == 403 and "already sent" in replayed[1]
        # an answer sent again with a fresh key: its question is gone
        q = question(s.page(s.tok["Brom"]))
        assert q is not None
        assert s.post(s.tok["Brom"], op="answer", q=str(q[0]), text="1") == ""
        after = s.rows()
        assert s.post(s.tok["Brom"], op="answer", q=str(q[0]), text="1") == \
            "that question is no longer asked (it was answered, or the fight moved on)"
        assert s.rows() == after


def test_one_writer_a_console_and_the_page_never_write_one_fight_at_once(tmp_path: Path) -> None:
    op = opening(tmp_path, "side-d6")
    with client(op) as (c, served):
        s = Screens(c, served)
        assert s.post(s.ref, op="command", say="run") == "run: the d6 for surprise (party) is asked"
        played = runner.invoke(app, ["play", "--db", op.db], input="step\nquit\n")
        assert played.exit_code == 2
        assert "fight 1 is being played in another console" in played.output
        with pytest.raises(FightBusyError):
            open_served(Opening(op.db, game=1))
    # the page gone, the console takes the fight where the page left it (the surprise die asked)
    played = runner.invoke(app, ["play", "--db", op.db], input="quit\n")
    assert played.exit_code == 0, played.output
    logged = runner.invoke(app, ["log", "--db", op.db, "--json"])
    assert logged.exit_code == 0 and '"events": []' in logged.output


def test_serve_refuses_bad_input_with_exit_2(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["serve", str(tmp_path / "nope.yaml"), "--db", str(tmp_path / "a.db")])
    assert missing.exit_code == 2 and "nope.yaml" in missing.output
    for port in ("70000", "x"):
        bad = runner.invoke(app, ["serve", "--db", str(tmp_path / "a.db"), "--port", port])
        assert bad.exit_code == 2 and f"--port {port}: a port is a whole number" in bad.output
    nodb = runner.invoke(app, ["serve", "--db", str(tmp_path / "none.db")])
    assert nodb.exit_code == 2 and "no such database" in nodb.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        path = table_file(tmp_path, "side-d6")
        busy = runner.invoke(app, ["serve", str(path), "--db", str(tmp_path / "b.db"), "--port",
                                   str(taken.getsockname()[1])])
        assert busy.exit_code == 2 and "cannot listen there" in busy.output and "Traceback" not in busy.output


def test_an_enemy_sides_morale_is_seen_without_its_roll(tmp_path: Path) -> None:
    """side-d6 (MJ-02): once Orc 1 falls, the orcs check morale at the next round's step 1; the players see that
    they checked and how it went, not their 2d6 against their score."""
    with client(opening(tmp_path, "side-d6")) as (c, served):
        s = Screens(c, served)
        _start(s, "1")
        for _ in range(40):
            if '<li class="k-morale">' in s.page(s.ref):  # a line of the timeline (the legend has the shape)
                break
            asked = [t for t in s.tok.values() if question(s.page(t))]
            if not asked:
                assert s.post(s.ref, op="command", say="run").startswith("run:")
                continue
            html = s.page(asked[0])
            q = question(html)
            assert q is not None
            high = re.search(r'data-high="(\d+)"', html)
            value = "melee Orc 1" if q[1] == "declare" else "19" if high and high.group(1) == "20" else "4"
            assert s.answer(asked[0], value) == ""
        ref = re.search(r'<li class="k-morale">.*?</li>', s.page(s.ref))
        assert ref is not None and re.search(r"orcs morale 2d6=\d+ vs \d+", ref.group(0))
        for token in s.tok.values():
            mine = re.search(r'<li class="k-morale">.*?</li>', s.page(token))
            assert mine is not None and re.search(r"morale       orcs: (passed|failed)", mine.group(0))
            assert "2d6" not in mine.group(0)
