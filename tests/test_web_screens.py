"""Issue 30's "Done when": in real Chromium, at a phone's size (390x844) and a desktop's (1280x800), the referee's
screen, two players' and the table view under combat2-phase1, side-d6 and phase-count, in the middle of a fight
(questions answered on the players' own pages through the declaration form): no sideways scrolling, no console
error, no serious or critical accessibility violation (axe-core), the board's marks telling their why on a tap,
and nothing of the foes' hidden state in a player's or the table view's board.

Chromium is Debian's, driven by Playwright (as ``test_web_browser.py``); axe-core is axe-playwright-python's.
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
from web_helpers import live_server, opening

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
PLAYERS = ("Brom", "Mina")

#: Three player characters (a wizard among them, with a spell of two units' casting time and one that holds)
#: against four orcs and their captain, tough enough to stand through a round or two.
FIGHT = """\
seed: 4
surprise: none
sides:
  party:
    pc: true
    combatants:
      - {name: Brom, class: fighter, level: 6, hp: 50, ac: 3, weapons: [{name: long sword, sf: 5, damage: 1d8},
         {name: dagger, sf: 2, damage: 1d4, kind: thrown}]}
      - {name: Sela, class: fighter, level: 4, hp: 34, ac: 4, weapons: [{name: spear, sf: 6, damage: 1d6}]}
      - name: Mina
        class: wizard
        level: 5
        hp: 14
        dex: 16
        spells:
          - {name: hold person, level: 2, ct: 2, components: VS, effect: {condition: held, duration: 3 rounds}}
          - {name: magic missile, level: 1, ct: 1, damage: 2d4+2, components: VS}
  orcs:
    combatants:
      - {name: Orc, count: 4, hd: 1, hp: 12, ac: 6, weapons: [{name: battle axe, sf: 7, damage: 1d6}]}
      - {name: Orc Captain, hd: 3, hp: 22, ac: 4, weapons: [{name: morning star, sf: 7, damage: 2d4}]}
plan:
  Orc 1: [{melee: Brom}, {melee: Brom}, {melee: Brom}, {melee: Brom}, {melee: Brom}]
  Orc 2: [{melee: Sela}, {melee: Sela}, {melee: Sela}, {melee: Sela}, {melee: Sela}]
  Orc 3: [{melee: Mina}, {melee: Mina}, {melee: Mina}, {melee: Mina}, {melee: Mina}]
  Orc 4: [{melee: Sela}, {melee: Sela}, {melee: Sela}, {melee: Sela}, {melee: Sela}]
  Orc Captain: [{melee: Brom}, {melee: Brom}, {melee: Brom}, {melee: Brom}, {melee: Brom}]
"""
#: How far each fight is played before its screens are looked at: enough events for marks, bars and steps to come.
EVENTS = {"combat2-phase1": 40, "side-d6": 30, "phase-count": 30}


def _rev(page: Page) -> int:
    return int(page.locator(".screen").get_attribute("data-rev") or "-1")


def _after(page: Page, rev: int) -> None:
    page.wait_for_function("r => +document.querySelector('.screen').dataset.rev > r", arg=rev, timeout=15_000)


def _declare(page: Page, pc: str) -> None:
    """The player answers on its own page, through the form: the wizard casts its first spell at the first orc
    (hold person), the others strike at the first foe listed."""
    form = page.locator("section.ask form.declare")
    rev = _rev(page)
    if pc == "Mina" and form.locator("input[name=action][value=cast]").count():
        form.locator("input[name=action][value=cast]").check()
        form.locator("input[name=spell]").first.check()
        form.locator("select[name=at]").select_option("Orc 1")
    else:
        form.locator("input[name=action][value=melee]").check()
        form.locator("input[name=target]").first.check()
    form.locator("button.primary").click()
    _after(page, rev)


def _play(pages: dict[str, Page], served: Served, events: int) -> None:
    """Step the fight on the referee's page; each player answers its own questions; the referee answers those of
    the player characters without a page of their own (Sela)."""
    referee = pages["referee"]
    box = referee.locator("section.controls input[name=text]")
    rev = _rev(referee)
    box.fill("dice roll")
    referee.locator("section.controls button[name=say][value='']").click()
    _after(referee, rev)
    _until(pages, lambda: len(served.table.journal.events) >= events or bool(referee.locator(".over").count()))
    assert not referee.locator(".over").count(), "the fight ended before its screens were looked at"
    for page in pages.values():
        page.wait_for_function("r => +document.querySelector('.screen').dataset.rev >= r", arg=_rev(referee))


def _until(pages: dict[str, Page], done: Callable[[], bool]) -> None:
    """Play on until ``done``: each player answers its own declarations, the referee does the rest."""
    for _ in range(300):
        if done():
            return
        asked = [pc for pc in PLAYERS if pages[pc].locator("section.ask form.declare").count()]
        if asked:
            _declare(pages[asked[0]], asked[0])
        else:
            _referee_moves(pages["referee"])


def _referee_moves(referee: Page) -> None:
    """The referee rolls a die asked (the party's, when its players are slow), answers a declaration of a player
    character without a page (Sela: a blow at Orc 2, typed), or steps on."""
    rev = _rev(referee)
    ask = referee.locator("section.ask")
    if ask.count() and ask.get_attribute("data-what") == "die":
        ask.locator("button[name=say][value=roll]").click()
    elif ask.count():
        referee.locator("section.controls input[name=text]").fill("melee Orc 2")
        referee.locator("section.controls button[name=say][value='']").click()
    else:
        referee.locator("section.controls button[name=say][value=step]").click()
    _after(referee, rev)


def _serious(page: Page) -> list[str]:
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}: {[n['target'] for n in v['nodes']][:3]}" for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("ruleset", ["combat2-phase1", "side-d6", "phase-count"])
def test_every_screen_fits_a_phone_and_a_desktop(browser: Browser, tmp_path: Path, ruleset: str) -> None:
    shots = os.environ.get("AFFRAY_SHOTS")
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
        _play(pages, served, EVENTS[ruleset])
        board = browser.new_context(viewport=SIZES["desktop"]).new_page()
        board.on("console", lambda m: errors.append(f"board: {m.text}") if m.type == "error" else None)
        board.goto(f"{url}/t/{tokens['referee']}/board")  # under the referee's link: on to the table view's own
        assert board.url == f"{url}/t/{served.tokens.board.token}"
        pages["board"] = board
        for who, page in pages.items():
            page.wait_for_selector("svg.bd")
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
                assert width[0] <= width[1], f"{who} at {size}: {width[0]} px wide in a {width[1]} px window"
                assert _serious(page) == [], f"{who} at {size}"
                if shots:  # a desktop's whole page; a phone's screen, and its board
                    Path(shots).mkdir(parents=True, exist_ok=True)
                    name = f"{ruleset}-{who.lower()}-{size}"
                    page.screenshot(path=str(Path(shots) / f"{name}.png"), full_page=size == "desktop")
                    if size == "phone":
                        page.locator("section.board").screenshot(path=str(Path(shots) / f"{name}-board.png"))
        # a tap on a mark shows its line and why under the board
        ref = pages["referee"]
        mark = ref.locator("section.board .bd-mk[data-seq]").last
        title = mark.locator("title").text_content() or ""
        mark.click()
        assert ref.locator(".board-why").text_content() == title and "\n" in title
        _hidden(pages, served)
        _declaring(pages, served, shots, ruleset)
        assert errors == []
        for page in pages.values():
            page.context.close()


def _declaring(pages: dict[str, Page], served: Served, shots: str | None, ruleset: str) -> None:
    """Played on until Brom is asked: his form, an action then its target and options (a melee's weapon, charge,
    distance), fits his phone too; and the referee's tools stay open across a command."""
    brom, referee = pages["Brom"], pages["referee"]
    brom.set_viewport_size(SIZES["phone"])
    _until(pages, lambda: bool(brom.locator("section.ask form.declare").count()))
    form = brom.locator("section.ask form.declare")
    assert form.count(), "Brom was never asked"
    assert form.locator("fieldset.for-melee").first.is_hidden()  # the options come with the action
    form.locator("input[name=action][value=melee]").check()
    assert form.locator("fieldset.for-melee").first.is_visible()
    form.locator("input[name=target]").first.check()
    assert form.locator("select[name=melee_weapon] option").all_text_contents() == ["(its first)", "long sword",
                                                                                      "dagger"]
    width = brom.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] and _serious(brom) == []
    if shots:
        brom.locator("section.ask").screenshot(path=str(Path(shots) / f"{ruleset}-brom-declares-phone.png"))
    tools = referee.locator("details.tools")
    tools.locator("summary").click()
    rev = _rev(referee)
    tools.locator("input[name=a]").first.fill("1")
    tools.locator("button[value=heal]").click()
    _after(referee, rev)
    assert referee.locator("details.tools").get_attribute("open") is not None  # still open after its answer


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
    """Without a browser: a player's board (the data and its SVG) under Combat II as the orcs' blows are placed."""
    from affray.web.views import player_view, referee_view
    from web_helpers import client

    with client(opening(tmp_path, "combat2-phase1", FIGHT)) as (c, served):
        table = served.table
        served.pool.submit(lambda: table.command("dice roll")).result()
        for _ in range(60):
            q = table.pending
            if q is not None:
                said = "cast hold person at Orc 1" if getattr(q, "actor", "") == "Mina" else "melee Orc 1"
                served.pool.submit(lambda said=said: table.command(said)).result()
            else:
                served.pool.submit(lambda: table.command("step")).result()
            ref = served.pool.submit(lambda: referee_view(table, 0)).result()
            if any(m.placed and m.lane.startswith("Orc") for m in ref.board.marks) and any(
                    b.kind == "casting" for b in ref.board.bars):
                break
        ref = served.pool.submit(lambda: referee_view(table, 0)).result()
        mina = served.pool.submit(lambda: player_view(table, "Mina", 0)).result()
        assert any(m.placed and m.lane.startswith("Orc") for m in ref.board.marks)  # the referee sees them
        assert not any(m.placed and m.lane.startswith("Orc") for m in mina.board.marks)  # Mina does not
        assert all(not b.lane.startswith("Orc") or b.open_end for b in mina.board.bars if b.kind == "condition")
        page = c.get(f"/t/{served.tokens.players['Mina'].token}").text
        assert "coming: Orc" not in page and "coming: Orc" in c.get(f"/t/{served.tokens.referee.token}").text
