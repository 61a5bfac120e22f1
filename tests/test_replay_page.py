"""The referee's "replay under..." on the page (``/t/{token}/replay``): once the served fight is over, the referee's
screen links to it; it replays the fight under the rulesets ticked, side by side, as ``affray replay`` does. A
player's link opens nothing there. The fight is ``web_helpers.TABLE`` under side-d6, played to its end with every
declaration its policy's and every die rolled."""

from __future__ import annotations

import re
from pathlib import Path

from affray.api import prepare
from affray.io.load import load_text
from affray.web.serve import Opening
from test_web_security import Screens
from web_helpers import client, table_file


def test_the_referee_replays_the_fight_under_another_ruleset_from_the_page(tmp_path: Path) -> None:
    path = table_file(tmp_path, "side-d6")
    text = path.read_text(encoding="utf-8")
    prepared = prepare(load_text(text, str(path)))
    op = Opening(str(tmp_path / "page.db"), (str(path), text, "side-d6", prepared.seed, {}, True, 50))
    with client(op) as (c, served):
        s = Screens(c, served)
        assert "Replay this fight" not in s.page(s.ref)  # not before the fight is over
        assert s.post(s.ref, op="compose", verb="dice", name="all", a="roll") == "dice for all: roll"
        s.post(s.ref, op="command", say="run")
        page = s.page(s.ref)
        assert "the fight is over" in page
        assert f'<a href="/t/{s.ref}/replay">Replay this fight under another ruleset' in page
        assert "Replay this fight" not in s.page(s.tok["Brom"])  # the referee's alone
        assert c.get(f"/t/{s.tok['Brom']}/replay").status_code == 404
        choice = c.get(f"/t/{s.ref}/replay")
        assert choice.status_code == 200
        assert re.findall(r'name="ruleset" value="([^"]+)"', choice.text) == [
            "combat2-phase1", "combat2-phase2", "side-d6", "speed-segments", "phase-count", "d12-procedure",
            "bx-group", "adnd2e-standard"]  # every installed ruleset, the books' baselines after the six
        assert "Side by side" not in choice.text
        shown = c.get(f"/t/{s.ref}/replay", params={"ruleset": ["phase-count", "nonesuch", "phase-count"]})
        assert shown.status_code == 200
        body = shown.text
        assert '<th scope="col">side-d6 (played)</th><th scope="col">phase-count</th>' in body  # once, known only
        assert "How phase-count differs from the fight as played, and why" in body
        assert 'value="phase-count" checked' in body
        winner = re.search(r'<tr class="winner"><th scope="row">winner</th>(.*?)</tr>', body, re.S)
        assert winner is not None and winner.group(1).count("<strong>party</strong>") == 2
        assert "Brom (1st): melee" in body and "falls</th>" in body
