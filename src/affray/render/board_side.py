"""Sequence boards side by side (``affray replay --board``): one column per fight, the played one first, each with
its windows (rounds, cycles, runs of phases) one under another, as ``affray run --board`` draws each; the legend
below. One standalone SVG file, styled for light and dark."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from affray.engine.fight import Fight
from affray.render.board import fight_board, windows
from affray.render.board_svg import CSS, legend_svg, panel_svg, panels

__all__ = ["boards_side_by_side"]

_GAP = 24
_PANEL = 560


def _x(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def _size(svg: str) -> tuple[int, int]:
    head = svg[:svg.index(">")]
    return (int(head.split(' width="', 1)[1].split('"', 1)[0]), int(head.split(' height="', 1)[1].split('"', 1)[0]))


def boards_side_by_side(fights: Sequence[tuple[str, Fight[Any]]], title: str) -> str:
    """``fights`` ((heading, fight), in order) as columns of their boards, in one SVG file titled ``title``."""
    parts: list[str] = []
    x = 8
    bottom = 40
    for heading, fight in fights:
        y = 40
        parts.append(f'<text x="{x}" y="{y + 14}" font-size="15" font-weight="bold" fill="currentColor">'
                     f"{_x(heading)}</text>")
        y += 26
        width = 200
        for w in windows(fight.ruleset.id, fight.events):
            board = fight_board(fight, w)
            parts.append(f'<text x="{x}" y="{y + 12}" font-size="13" font-weight="bold" fill="currentColor">'
                         f"{_x(board.title)}</text>")
            y += 20
            for panel in panels(board, _PANEL):
                svg = panel_svg(board, panel)
                pw, ph = _size(svg)
                parts.append(svg.replace("<svg ", f'<svg x="{x}" y="{y}" ', 1))
                width = max(width, pw)
                y += ph + 8
            y += 10
        x += width + _GAP
        bottom = max(bottom, y)
    legend = legend_svg()
    parts.append(legend.replace("<svg ", f'<svg x="8" y="{bottom}" ', 1))
    height = bottom + _size(legend)[1] + 8
    width = max(x, 320)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="bd-file" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="system-ui, sans-serif">'
            f"<title>{_x(title)}</title><style>{CSS}</style>"
            f'<rect class="bd-paper" x="0" y="0" width="{width}" height="{height}" fill="#fff"/>'
            f'<text x="8" y="20" font-size="16" font-weight="bold" fill="currentColor">{_x(title)}</text>'
            + "".join(parts) + "</svg>\n")
