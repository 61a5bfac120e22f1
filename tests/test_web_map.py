"""Issue 38's page map in real Chromium (Debian's, as ``test_web_browser.py`` drives it): a fight that places its
combatants shows where everyone stands; the referee drags a token and the page places it, snapped to 5 ft (a
``place`` event, journalled); a player's phone shows the map, fitting 390 px, with nothing to drag. Screenshots at
390x844 and 1280x800 go to docs/images/positions (docs/positions.md shows them)."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser

from test_web_browser import _affray, _serve, _settle, _stop
from web_helpers import PCS, TABLE, table_file

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images" / "positions"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PLACED = TABLE.replace("    pc: true\n", "    pc: true\n    at: [0, 0]\n").replace(
    "  orcs:\n", "  orcs:\n    at: [30, 0]\n")


def test_the_map_in_chromium(browser: Browser, tmp_path: Path) -> None:
    assert PLACED.count("at: [") == 2
    file = table_file(tmp_path, "side-d6", PLACED)
    db = tmp_path / "web.db"
    proc, links = _serve(file, db)
    try:
        referee = browser.new_context(viewport=DESKTOP).new_page()
        errors: list[str] = []
        referee.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        referee.goto(links["referee"])
        referee.wait_for_function("() => window.htmx !== undefined")
        tokens = referee.locator(".map-place svg.af-map .af-token[data-name]")
        assert tokens.count() == 6  # Brom, Sela, Ash at [0, 0], [0, 5], [0, 10]; Orc 1-3 at [30, 0] ... [30, 10]
        brom = referee.locator('.af-token[data-name="Brom"]')
        assert (brom.get_attribute("data-x"), brom.get_attribute("data-y")) == ("0", "0")
        referee.locator("section.map").scroll_into_view_if_needed()
        # Drag Brom to 12 ft right and 19 ft down of where it stood: snapped to the nearest 5 ft, [10, 20].
        start = referee.evaluate("""() => {
            const svg = document.querySelector('.map-place svg.af-map');
            const m = svg.getScreenCTM();
            const at = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; const q = p.matrixTransform(m);
                                   return [q.x, q.y]; };
            return [at(0, 0), at(12, 19)];
        }""")
        rev = int(referee.locator(".screen").get_attribute("data-rev") or "-1")
        referee.mouse.move(*start[0])
        referee.mouse.down()
        referee.mouse.move(*start[1], steps=5)
        referee.mouse.up()
        _settle([referee], rev + 1)
        referee.wait_for_function(
            "() => { const t = document.querySelector('.af-token[data-name=\"Brom\"]');"
            " return t && t.getAttribute('data-x') === '10' && t.getAttribute('data-y') === '20'; }", timeout=15_000)
        IMAGES.mkdir(parents=True, exist_ok=True)
        referee.locator("section.map").scroll_into_view_if_needed()
        referee.screenshot(path=str(IMAGES / "map-referee-1280x800.png"))

        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(links[PCS[0]])
        phone.wait_for_function("() => window.htmx !== undefined")
        svg = phone.locator("section.map svg.af-map")
        assert svg.count() == 1
        assert phone.locator("section.map .af-token[data-name]").count() == 0  # a player drags nothing
        box = svg.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert "you are Brom" in (svg.get_attribute("aria-label") or "")
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, width
        svg.scroll_into_view_if_needed()
        phone.screenshot(path=str(IMAGES / "map-player-390x844.png"))
        assert errors == []
    finally:
        _stop(proc)
    logged = json.loads(_affray("log", "--db", str(db), "--json"))
    placed = [e for e in logged["events"] if e["kind"] == "place"]
    assert [(e["actor"], e["from"], e["to"]) for e in placed] == [("Brom", [0, 0], [10, 20])]
