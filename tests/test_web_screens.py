"""The page in real Chromium (issues 30 and 44): README's kobold fight (four player characters against eleven kobolds
and their chief, sixteen combatants) under combat2-phase1, side-d6 and phase-count, in the middle of a fight, the
players answering on their own pages through the declaration form and the referee declaring for the kobolds
through the group form. At a phone's size (390x844) and a desktop's (1280x800), every screen (the referee's,
Aldric's, Mina's, the table view):

- no sideways scrolling, no console error, no serious or critical accessibility violation (axe-core, as packaged
  by axe-playwright-python, pinned in the dev extra);
- a player's own card and its question in its first screen, the whole page at most two screens tall (the board,
  the others' cards and the timeline folded below);
- the board's marks telling their why on a tap, and nothing of the foes' hidden state in a player's or the table
  view's board;
- the referee's group form declaring for three kobolds at once (three ``declare`` events), and a combatant of
  thousands of hit points still fitting the referee's phone and desktop.

``AFFRAY_SHOTS=DIR`` saves every screen there (docs/images/web holds those of docs/web.md).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from affray.web.app import Served
from test_web_round_ahead import FIGHT
from web_helpers import live_server, opening

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
PLAYERS = ("Aldric", "Mina")
#: How far each fight is played before its screens are looked at: past its first round's blows.
EVENTS = {"combat2-phase1": 40, "side-d6": 40, "phase-count": 40}
#: The others of the party, declared for by the referee (no page open for them).
OTHERS = ("Brother Tam", "Theo")


def _rev(page: Page) -> int:
    return int(page.locator(".screen").get_attribute("data-rev") or "-1")


def _after(page: Page, rev: int) -> None:
    page.wait_for_function("r => +document.querySelector('.screen').dataset.rev > r", arg=rev, timeout=15_000)


def _declare(page: Page, pc: str) -> None:
    """The player answers on its own page, through the form: the wizard casts its first spell at the first target
    offered, the fighter strikes at the first foe listed (else does nothing: no foe within reach)."""
    form = page.locator("section.ask form.declare")
    rev = _rev(page)
    if pc == "Mina" and form.locator("input[name=action][value=cast]").count():
        form.locator("input[name=action][value=cast]").check()
        form.locator("input[name=spell]").first.check()
        form.locator("select[name=at]").select_option(index=1)
    elif form.locator("input[name=target]").count():
        form.locator("input[name=action][value=melee]").check()
        form.locator("input[name=target]").first.check()
    else:
        form.locator("input[name=action][value=none]").check()
    form.locator("button.primary").click()
    _after(page, rev)


def _command(referee: Page, line: str) -> None:
    rev = _rev(referee)
    referee.locator("section.controls input[name=text]").fill(line)
    referee.locator("section.controls form.buttons button[name=say][value='']").click()
    _after(referee, rev)


def _group(referee: Page, who: list[str], action: str, target: str | None, verb: str = "declare") -> None:
    """The referee's group form: ``who`` ticked (a name, or ``side:NAME``), an action and its target chosen."""
    form = referee.locator("details.group")
    if form.get_attribute("open") is None:
        form.locator("summary").click()
    for name in who:
        form.locator(f"input[name=who][value='{name}']").check()
    if action:
        form.locator(f"input[name=action][value={action}]").check()
    if target is not None:
        form.locator("select[name=target]").select_option(target)
    rev = _rev(referee)
    form.locator(f"button[name=verb][value={verb}]").click()
    _after(referee, rev)
    checked = form.locator("input[name=who]:checked")
    while checked.count():  # a group picked once, not again at the next
        checked.first.uncheck()
    form.locator("summary").click()  # folded again


def _until(pages: dict[str, Page], served: Served, done: Callable[[], bool]) -> None:
    """Play on until ``done``: each player answers its own declarations; the referee those of the others of the
    party (on its own declaration form) and the kobolds' (the group form: the first time for Kobolds 1 to 3,
    checking their three declare events; then the whole side, on repeat from then on); a die asked is rolled; else
    the referee steps on."""
    referee = pages["referee"]
    journal = served.table.journal
    for _ in range(300):
        if done():
            return
        asked = [pc for pc in PLAYERS if pages[pc].locator("section.ask form.declare").count()]
        ask = referee.locator("section.ask")
        title = (ask.locator("h2").text_content() or "") if ask.count() else ""
        actor = title.split(" (")[0]
        if asked:
            _declare(pages[asked[0]], asked[0])
        elif ask.count() and ask.get_attribute("data-what") == "die":
            rev = _rev(referee)
            ask.locator("button[name=say][value=roll]").click()
            _after(referee, rev)
        elif actor in OTHERS:  # on the referee's own declaration form: a blow at the first foe offered
            _declare(referee, actor)
        elif actor == "Kobold 1" and not any(e["kind"] == "declare" and e["actor"] == "Kobold 1"
                                             for e in journal.events):
            before = len(journal.events)
            _group(referee, ["Kobold 1", "Kobold 2", "Kobold 3"], "melee", "Theo")
            made = [(e["actor"], e["declaration"]) for e in journal.events[before:] if e["kind"] == "declare"]
            assert made[:3] == [(f"Kobold {n}", {"melee": "Theo"}) for n in (1, 2, 3)], made
        elif actor.startswith("Kobold"):  # the whole side at the last standing foe the question offers
            target = ask.locator("form.declare input[name=target]")
            if not target.count():
                _command(referee, "none")
                continue
            _group(referee, ["side:kobolds"], "", None, verb="repeat")
            _group(referee, ["side:kobolds"], "melee", target.last.get_attribute("value"))
        else:
            rev = _rev(referee)
            referee.locator("section.controls button[name=say][value=step]").click()
            _after(referee, rev)


def _toggle(page: Page, summaries: str) -> None:
    """Every fold ``summaries`` finds opened (or closed), one after another."""
    found = page.locator(summaries)
    for _ in range(10):
        if not found.count():
            return
        found.first.click()


def _serious(page: Page) -> list[str]:
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}: {[n['target'] for n in v['nodes']][:3]}" for v in found
            if v["impact"] in ("serious", "critical")]


def _fits(page: Page, who: str, size: str) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{who} at {size}: {width[0]} px wide in a {width[1]} px window"


def _first_screen(page: Page, who: str, size: str, *, asked: bool) -> None:
    """A player's own card (and its question, when asked) begin in its first screen; the page (folded) is at most
    two screens tall."""
    height = SIZES[size]["height"]
    card = page.locator("section.me").bounding_box()
    assert card is not None and card["y"] + card["height"] <= height, f"{who} at {size}: its card at {card}"
    if asked:
        ask = page.locator("section.ask h2").bounding_box()
        assert ask is not None and ask["y"] + ask["height"] <= height, f"{who} at {size}: its question at {ask}"
    tall = page.evaluate("() => document.documentElement.scrollHeight")
    assert tall <= 2 * height, f"{who} at {size}: {tall} px tall, {tall / height:.1f} screens"


@pytest.mark.parametrize("ruleset", ["combat2-phase1", "side-d6", "phase-count"])
def test_every_screen_fits_a_phone_and_a_desktop(browser: Browser, tmp_path: Path, ruleset: str) -> None:
    shots = os.environ.get("AFFRAY_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
    with live_server(opening(tmp_path, ruleset, FIGHT)) as (url, served):
        tokens = {"referee": served.tokens.referee.token, **{pc: served.tokens.players[pc].token for pc in PLAYERS}}
        assert served.tokens.board is not None
        errors: list[str] = []
        pages: dict[str, Page] = {}
        for who, token in tokens.items():
            context = browser.new_context(viewport=SIZES["desktop" if who == "referee" else "phone"])
            page = context.new_page()
            page.on("console", lambda m, who=who: errors.append(f"{who}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e, who=who: errors.append(f"{who}: {e}"))
            page.goto(f"{url}/t/{token}")
            page.wait_for_function("() => window.htmx !== undefined")
            pages[who] = page
        _command(pages["referee"], "dice roll")
        journal = served.table.journal
        _until(pages, served, lambda: len(journal.events) >= EVENTS[ruleset] or bool(
            pages["referee"].locator(".over").count()))
        assert not pages["referee"].locator(".over").count(), "the fight ended before its screens were looked at"
        assert any(e["kind"] == "declare" and e["actor"] == "Kobold 3" for e in journal.events)  # the group's
        for page in pages.values():
            page.wait_for_function("r => +document.querySelector('.screen').dataset.rev >= r", arg=_rev(pages[
                "referee"]))
        board = browser.new_context(viewport=SIZES["desktop"]).new_page()
        board.on("console", lambda m: errors.append(f"board: {m.text}") if m.type == "error" else None)
        board.goto(f"{url}/t/{tokens['referee']}/board")  # under the referee's link: on to the table view's own
        assert board.url == f"{url}/t/{served.tokens.board.token}"
        pages["board"] = board
        for who, page in pages.items():
            page.wait_for_selector("svg.bd", state="attached")
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                _fits(page, who, size)
                if who in PLAYERS:
                    _first_screen(page, who, size, asked=bool(page.locator("section.ask").count()))
                assert _serious(page) == [], f"{who} at {size}"
                if shots:  # a desktop's whole page; a phone's first screen
                    name = f"{ruleset}-{who.lower()}-{size}"
                    page.screenshot(path=str(Path(shots) / f"{name}.png"), full_page=size == "desktop")
            if who in PLAYERS:  # opened: the board, the others, the timeline, and still no sideways scrolling
                page.set_viewport_size(SIZES["phone"])
                _toggle(page, "details.fold:not([open]) > summary")
                _fits(page, who, "phone, opened")
                assert _serious(page) == [], f"{who} opened"
            if shots and who != "board":
                page.locator("section.board").screenshot(path=str(Path(shots) / f"{ruleset}-{who.lower()}-phone-"
                                                                                 "board.png"))
        # a tap on a mark shows its line and why under the board
        ref = pages["referee"]
        mark = ref.locator("section.board .bd-mk[data-seq]").last
        title = mark.locator("title").text_content() or ""
        mark.click()
        assert ref.locator(".board-why").text_content() == title and "\n" in title
        _hidden(pages, served)
        _declaring(pages, served, shots, ruleset)
        assert errors == []


def _declaring(pages: dict[str, Page], served: Served, shots: str | None, ruleset: str) -> None:
    """Played on until Aldric is asked: his card and his question in his first screen, phone and desktop, the page
    two screens at most; his form, an action then its target and options (a charge, the distance to close), fits
    his phone; the referee's tools stay open across a command; and combatants of thousands of hit points fit the
    referee's phone and desktop."""
    aldric, referee = pages["Aldric"], pages["referee"]
    _toggle(aldric, "details.fold[open] > summary")  # folded again, as the page first comes
    _until(pages, served, lambda: bool(aldric.locator("section.ask form.declare").count()))
    form = aldric.locator("section.ask form.declare")
    assert form.count(), f"Aldric was never asked: {aldric.locator('section.me').inner_text()}"
    for size, viewport in SIZES.items():
        aldric.set_viewport_size(viewport)
        _first_screen(aldric, "Aldric", size, asked=True)
        if shots:
            aldric.screenshot(path=str(Path(shots) / f"{ruleset}-aldric-asked-{size}.png"))
    aldric.set_viewport_size(SIZES["phone"])
    assert form.locator("fieldset.for-melee").first.is_hidden()  # the options come with the action
    form.locator("input[name=action][value=melee]").check()
    assert form.locator("fieldset.for-melee").first.is_visible()
    form.locator("input[name=target]").first.check()
    assert form.locator("input[name=charge]").is_visible() and form.locator("input[name=distance]").is_visible()
    assert not form.locator("select[name=melee_weapon]").count()  # one weapon to strike with (a sword; a bow)
    _fits(aldric, "Aldric declaring", "phone")
    assert _serious(aldric) == []
    if shots:
        aldric.locator("section.ask").screenshot(path=str(Path(shots) / f"{ruleset}-aldric-declares-phone.png"))
    tools = referee.locator("details.tools:not(.group)")
    tools.locator("summary").click()
    rev = _rev(referee)
    tools.locator("select[name=name]").first.select_option("Kobold chief")
    tools.locator("input[name=a]").first.fill("8630")
    tools.locator("button[value=heal-temp]").click()  # the chief is at full hp: a plain heal is refused
    _after(referee, rev)
    assert referee.locator("details.tools:not(.group)").get_attribute("open") is not None  # still open after it
    assert re.search(r"\b86\d\d/\d+ hp", referee.locator("li.card[data-name='Kobold chief']").inner_text())
    for n in (1, 2):  # two: one of them in a card's right-hand column, whatever the count before; by their policy
        # (an asked newcomer is asked at once under phase-count: tests/test_live_fight.py)
        _command(referee, f"add kobolds {{name: Kobold giant {n}, monster: kobold, hp: 8641, declare: auto}}")
        assert "8641/8641 hp" in referee.locator(f"li.card[data-name='Kobold giant {n}']").inner_text()
    for size, viewport in SIZES.items():  # they made it 406 px wide on a phone, 1302 on a desktop
        referee.set_viewport_size(viewport)
        _fits(referee, "the referee, kobold giants of 8,641 hp", size)
    if shots:
        referee.set_viewport_size(SIZES["phone"])
        referee.locator("details.group > summary").click()
        referee.locator("section.controls").screenshot(path=str(Path(shots) / f"{ruleset}-referee-group.png"))


def _hidden(pages: dict[str, Page], served: Served) -> None:
    """What a player's board (and the table view's) shows of the foes: no step still to come, no end of a
    condition, no hit points (the referee's does: ``test_a_player_page_holds_no_foe_secrets_in_its_board_data``)."""
    fight = served.table.session.fight
    foes = [f.name for f in fight.state.fighters.values() if not f.pc]
    boards: dict[str, str] = {who: page.locator("section.board").inner_html() for who, page in pages.items()}
    for who in (*PLAYERS, "board"):
        html = boards[who]
        for foe in foes:
            assert f"coming: {foe}:" not in html, (who, foe)
            assert not re.search(rf"{foe}: \w+ \([^)]*\) from [^<]*, to ", html), (who, foe)  # a condition's end
        assert not re.search(r"\b\d+/\d+\b", html), who


def test_a_player_page_holds_no_foe_secrets_in_its_board_data(tmp_path: Path) -> None:
    """Without a browser: a player's board (the data and its SVG) under Combat II as the kobolds' blows are placed."""
    from affray.web.views import player_view, referee_view
    from web_helpers import client

    with client(opening(tmp_path, "combat2-phase1", FIGHT)) as (c, served):
        table = served.table
        served.pool.submit(lambda: table.command("dice roll")).result()
        for _ in range(60):
            q = table.pending
            if q is not None:
                said = "cast sleep at kobolds" if getattr(q, "actor", "") == "Mina" else (
                    "melee Kobold 1" if getattr(q, "side", "") == "party" else "melee Aldric")
                served.pool.submit(lambda said=said: table.command(said)).result()
            else:
                served.pool.submit(lambda: table.command("step")).result()
            ref = served.pool.submit(lambda: referee_view(table, 0)).result()
            if any(m.placed and m.lane.startswith("Kobold") and not m.declared for m in ref.board.marks) and any(
                    b.kind == "casting" for b in ref.board.bars):
                break
        ref = served.pool.submit(lambda: referee_view(table, 0)).result()
        mina = served.pool.submit(lambda: player_view(table, "Mina", 0)).result()
        assert any(m.placed and m.lane.startswith("Kobold") and not m.declared for m in ref.board.marks)
        assert not any(m.placed and m.lane.startswith("Kobold") and not m.declared for m in mina.board.marks)
        assert all(not b.lane.startswith("Kobold") or b.open_end for b in mina.board.bars if b.kind == "condition")
        page = c.get(f"/t/{served.tokens.players['Mina'].token}").text
        assert "coming: Kobold" not in page and "coming: Kobold" in c.get(f"/t/{served.tokens.referee.token}").text
