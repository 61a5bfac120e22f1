"""The sequence board drawn as SVG: panels of columns (a phase, a side's turn, a run of segments) each with its
lanes' names, so a board fits a phone one panel under another and a desktop side by side.

Readable without colour: an attack is a diamond (melee) or a triangle (missile), filled when it hit and hollow
when it missed; a step still to come is dashed; a ruin is a cross; a casting is a solid bar, a condition an
outlined bar with its name, a fall a dotted bar. Colours come from ``currentColor`` and the classes of
``board.css`` (light and dark). Every mark carries its line and why as its SVG ``<title>`` (shown on hover, and
by the page on tap). Every text from a file is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any
from xml.sax.saxutils import escape

from affray.engine.fight import Fight
from affray.render.board import Bar, Board, Lane, Mark, fight_board, window_there, windows

__all__ = ["CSS", "LEGEND", "PANEL_WIDTH", "Panel", "board_file", "board_panels", "board_svg", "legend_svg",
           "panel_svg", "panels"]

_HEAD = 42  # the group row, the column labels and their second line
_LABEL_FONT = 11
_MARK = 14  # a mark's room in a cell
_BAR = 7  # a bar row's height
_PAD = 4
#: The most a panel takes (px), its lanes' names with its columns, so that a panel fits a phone's width (390 px
#: less the page's margins).
PANEL_WIDTH = 362

#: Every shape a board draws, in the legend's order: (kind, hit or passed, placed, words). A kind without a shape
#: of its own (a condition's effect, a combatant joining...) is drawn as "another action or event".
LEGEND = (("melee", True, False, "melee: hit (filled), miss (hollow)"),
          ("missile", True, False, "missile: hit (filled), miss (hollow)"),
          ("melee", None, True, "an action placed, still to come (dashed)"),
          ("declared", None, True, "declared, not placed in time yet (faint, dashed)"),
          ("cast-start", None, False, "a spell's casting begins"),
          ("cast", None, False, "a spell takes effect"),
          ("spell-ruined", None, False, "a spell ruined or lost"),
          ("move", None, False, "movement"),
          ("delay", None, False, "a delay"),
          ("wait", None, False, "waits (a held action)"),
          ("declare", None, False, "a declaration"),
          ("impossible", None, False, "an action made impossible"),
          ("down", None, False, "falls"),
          ("morale", True, False, "morale or a check: passed (tick), failed (cross)"),
          ("initiative", None, False, "initiative (i), surprise (!)"),
          ("wound", True, False, "a wound's damage lands"),
          ("damage", None, False, "the referee's damage (-) or healing (+)"),
          ("fatigue", None, False, "fatigue marked (phase-count, PC-11)"),
          ("misc", None, False, "another action or event"))


def _css() -> str:
    return (resources.files("affray.render") / "board.css").read_text(encoding="utf-8")


CSS = _css()


@dataclass(frozen=True)
class Panel:
    """Which of the board's columns a panel draws (``first`` to ``last``, inclusive)."""

    first: int
    last: int


def _x(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def _widths(board: Board) -> list[int]:
    """Each column's width: room for the most marks any lane has in it."""
    most = [0] * len(board.columns)
    per: dict[tuple[str, int], int] = {}
    for m in board.marks:
        per[(m.lane, m.column)] = per.get((m.lane, m.column), 0) + 1
    for (_, col), n in per.items():
        most[col] = max(most[col], n)
    return [max(30 if len(col.sub) > 2 else 24, _MARK * n + 8) for n, col in zip(most, board.columns, strict=True)]


def panels(board: Board, width: int = PANEL_WIDTH) -> list[Panel]:
    """The board's columns cut into panels ``width`` pixels wide at most (with their lanes' names): whole groups
    while they fit, a long group in pieces."""
    widths = _widths(board)
    budget = width - _label_width(board) - _PAD
    out: list[Panel] = []
    start, used = 0, 0
    i = 0
    cols = board.columns
    while i < len(cols):
        j = i
        while j + 1 < len(cols) and cols[j + 1].group == cols[i].group:
            j += 1
        group = sum(widths[i:j + 1])
        if used and used + group > budget:
            out.append(Panel(start, i - 1))
            start, used = i, 0
        if group > budget:  # a long group (the segments, the counts): in pieces
            for k in range(i, j + 1):
                if used and used + widths[k] > budget:
                    out.append(Panel(start, k - 1))
                    start, used = k, 0
                used += widths[k]
        else:
            used += group
        i = j + 1
    if cols:
        out.append(Panel(start, len(cols) - 1))
    return out


#: Room (px) for a lane's note (Combat II's track, W or L), right-aligned in its label.
_NOTE = 14


def _label_width(board: Board) -> int:
    longest = max((len(lane.label) * 6.6 + (_NOTE if lane.note else 0) for lane in board.lanes), default=40)
    return min(118, max(64, int(longest) + 14))


def _short(text: str, room: float) -> str:
    chars = max(3, int(room / 6.6))
    return text if len(text) <= chars else text[:chars - 1] + "…"


def _short_name(text: str, room: float) -> str:
    """A lane's name cut to ``room`` px: its end kept when it tells the lane from its neighbours ("Kobold
    sli… 1", "Kobold sli… 2", where cutting the end would make both "Kobold slinger…")."""
    chars = max(3, int(room / 6.6))
    if len(text) <= chars:
        return text
    head, _, tail = text.rpartition(" ")
    if head and len(tail) <= 4 and chars - len(tail) - 2 >= 3:
        return head[:chars - len(tail) - 2].rstrip() + "… " + tail
    return text[:chars - 1] + "…"


def _rows(board: Board) -> dict[str, list[tuple[Bar, int]]]:
    """Each lane's bars with the row each is drawn in (overlapping bars one under the other)."""
    out: dict[str, list[tuple[Bar, int]]] = {}
    for lane in board.lanes:
        ends: list[float] = []
        placed = []
        for bar in sorted((b for b in board.bars if b.lane == lane.id), key=lambda b: (b.start, b.end)):
            row = next((r for r, end in enumerate(ends) if end < bar.start), len(ends))
            if row == len(ends):
                ends.append(bar.end)
            else:
                ends[row] = bar.end
            placed.append((bar, row))
        out[lane.id] = placed
    return out


def _lane_height(lane: Lane, rows: int) -> int:
    if lane.kind == "side":
        return 20
    return 22 + _BAR * rows


def panel_svg(board: Board, panel: Panel, *, heading: str | None = None, kids: str | None = None) -> str:  # noqa: C901
    """One panel as a whole ``<svg>`` element (its lanes' names, its columns, their marks and bars). ``kids``: the
    page's name for it as a list whose children a live frame may send one by one (``affray.web.live``)."""
    widths = _widths(board)
    label = _label_width(board)
    xs: dict[int, float] = {}
    x = float(label)
    for c in range(panel.first, panel.last + 1):
        xs[c] = x
        x += widths[c]
    width = round(x) + _PAD
    rows = _rows(board)
    heights = [_lane_height(lane, max((r + 1 for _, r in rows[lane.id]), default=0)) for lane in board.lanes]
    height = _HEAD + sum(heights) + _PAD
    groups = sorted({board.columns[c].group for c in range(panel.first, panel.last + 1)},
                    key=lambda g: next(c for c in range(panel.first, panel.last + 1) if board.columns[c].group == g))
    name = heading or f"{board.title}: {', '.join(g for g in groups if g)}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="bd" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="group" aria-label="{_x(name)}" font-family="system-ui, sans-serif" '
           f'font-size="{_LABEL_FONT}" data-window="{board.window}" data-first="{panel.first}" '
           f'data-last="{panel.last}"' + (f' data-kids="{kids}"' if kids else "") + ">", f"<title>{_x(name)}</title>"]
    out.append(_header(board, panel, xs, widths, label))
    y = float(_HEAD)
    lane_y: dict[str, tuple[float, float]] = {}
    for lane, h in zip(board.lanes, heights, strict=True):
        lane_y[lane.id] = (y, h)
        out.append(_lane(lane, y, h, label))
        y += h
    for c in range(panel.first, panel.last + 1):  # the columns' rules
        out.append(f'<line class="bd-rule" x1="{xs[c]:.1f}" y1="{_HEAD - 14}" x2="{xs[c]:.1f}" y2="{y:.1f}" '
                   'stroke="currentColor" stroke-opacity="0.18"/>')
    if board.now is not None and panel.first <= board.now <= panel.last:
        cx = xs[board.now] + widths[board.now] / 2
        out.append(f'<g class="bd-now"><title>now: the latest event\'s moment</title><line x1="{cx:.1f}" '
                   f'y1="{_HEAD - 4}" x2="{cx:.1f}" y2="{y:.1f}" stroke="currentColor" stroke-width="2" '
                   'stroke-dasharray="4 3"/></g>')
    for lane in board.lanes:
        top = lane_y[lane.id][0]
        for bar, row in rows[lane.id]:
            out.append(_bar(bar, row, top, panel, xs, widths))
    cells: dict[tuple[str, int], list[Mark]] = {}
    for m in board.marks:
        if panel.first <= m.column <= panel.last:
            cells.setdefault((m.lane, m.column), []).append(m)
    for (lane_id, col), marks in cells.items():
        top, _ = lane_y[lane_id]
        left = xs[col] + (widths[col] - _MARK * len(marks)) / 2
        for k, m in enumerate(marks):
            out.append(_mark(m, left + _MARK * k + _MARK / 2, top + 11))
    if kids:
        return out[0] + "".join("<!--k-->" + x for x in out[1:]) + "<!--/k--></svg>"
    out.append("</svg>")
    return "".join(out)


def _header(board: Board, panel: Panel, xs: dict[int, float], widths: list[int], label: int) -> str:
    out = []
    c = panel.first
    while c <= panel.last:
        group = board.columns[c].group
        end = c
        while end + 1 <= panel.last and board.columns[end + 1].group == group:
            end += 1
        x0, x1 = xs[c], xs[end] + widths[end]
        if group:
            size = 11 if len(group) * 6.6 <= x1 - x0 else 8  # a narrow group says its name smaller
            out.append(f'<text class="bd-group" x="{(x0 + x1) / 2:.1f}" y="11" text-anchor="middle" '
                       f'font-size="{size}" font-weight="bold" fill="currentColor">'
                       f"{_x(_short(group, (x1 - x0) * (1 if size == 11 else 1.4)))}</text>")
            out.append(f'<line x1="{x0 + 2:.1f}" y1="14" x2="{x1 - 2:.1f}" y2="14" stroke="currentColor"/>')
        c = end + 1
    for c in range(panel.first, panel.last + 1):
        col = board.columns[c]
        cx = xs[c] + widths[c] / 2
        key = ",".join(map(str, col.key))
        sub = (f'<text x="{cx:.1f}" y="38" text-anchor="middle" font-size="8" fill="currentColor">{_x(col.sub)}'
               "</text>") if col.sub else ""
        out.append(f'<g class="bd-col" data-col="{c}" data-key="{key}" data-group="{_x(col.group)}" '
                   f'data-x0="{xs[c]:.1f}" '
                   f'data-x1="{xs[c] + widths[c]:.1f}"><title>{_x(col.tip)}</title>'
                   f'<text x="{cx:.1f}" y="27" text-anchor="middle" fill="currentColor">{_x(col.label)}</text>'
                   f"{sub}</g>")
    out.append(f'<text x="4" y="27" font-size="10" fill="currentColor">{_x(_short(board.title, label - 6))}</text>')
    return "".join(out)


def _lane(lane: Lane, y: float, h: int, label: int) -> str:
    """A lane's row: as wide as its panel, whatever the panel's width (so a live frame keeps it as a panel grows)."""
    kind = f"bd-lane bd-{lane.kind}" + (" bd-ours" if lane.ours else " bd-theirs" if lane.side else "") + (
        " bd-out" if lane.out else "")
    shade = "0.10" if lane.kind == "side" else "0.04" if lane.ours else "0"
    tip = lane.label + {"W": ": the winner track this round", "L": ": the loser track this round"}.get(lane.note, "")
    note = (f'<text x="{label - 4}" y="{y + 15:.1f}" text-anchor="end" font-size="10" font-weight="bold" '
            f'fill="currentColor">{_x(lane.note)}</text>') if lane.note else ""
    weight = ' font-weight="bold"' if lane.kind != "fighter" else ""
    style = ' font-style="italic"' if lane.kind == "all" else ""
    strike = ' text-decoration="line-through"' if lane.out else ""
    return (f'<g class="{kind}" data-lane="{_x(lane.id)}"><title>{_x(tip)}</title>'
            f'<rect x="0" y="{y:.1f}" width="100%" height="{h}" fill="currentColor" fill-opacity="{shade}"/>'
            f'<line x1="0" y1="{y + h:.1f}" x2="100%" y2="{y + h:.1f}" stroke="currentColor" '
            f'stroke-opacity="0.25"/><text x="4" y="{y + 15:.1f}" fill="currentColor"{weight}{style}{strike}>'
            f"{_x(_short_name(lane.label, label - 8 - (_NOTE if lane.note else 0)))}</text>{note}</g>")


def _bar(bar: Bar, row: int, top: float, panel: Panel, xs: dict[int, float], widths: list[int]) -> str:
    lo, hi = panel.first - 0.5, panel.last + 0.5
    if bar.end < lo or bar.start > hi:
        return ""
    start, end = max(bar.start, lo), min(bar.end, hi)

    def at(pos: float) -> float:
        c = min(max(int(pos + 0.5), panel.first), panel.last)
        return xs[c] + widths[c] * (0.5 + (pos - c))

    x0, x1 = at(start), at(end)
    x1 = max(x1, x0 + 4)
    y = top + 21 + _BAR * row
    cls = f"bd-bar bd-{bar.kind}" + (" bd-ruined" if bar.ruined else "") + (" bd-placed" if bar.placed_end else "")
    if bar.kind == "casting":
        dash = ' stroke-dasharray="3 2"' if bar.placed_end else ""
        shape = (f'<rect x="{x0:.1f}" y="{y:.1f}" width="{x1 - x0:.1f}" height="{_BAR - 2}" fill="currentColor" '
                 f'fill-opacity="{0.25 if bar.placed_end else 0.6}" stroke="currentColor"{dash}/>')
    elif bar.kind == "condition":
        shape = (f'<rect x="{x0:.1f}" y="{y:.1f}" width="{x1 - x0:.1f}" height="{_BAR - 1}" fill="none" '
                 'stroke="currentColor" stroke-width="1"/>')
    else:
        shape = (f'<line x1="{x0:.1f}" y1="{y + 2:.1f}" x2="{x1:.1f}" y2="{y + 2:.1f}" stroke="currentColor" '
                 'stroke-width="2" stroke-dasharray="1 3"/>')
    ends = ""
    if bar.open_start or start > bar.start:
        ends += f'<path d="M{x0 + 4:.1f},{y - 1:.1f} L{x0:.1f},{y + 2.5:.1f} L{x0 + 4:.1f},{y + 6:.1f}" fill="none" ' \
                'stroke="currentColor"/>'
    if bar.open_end or end < bar.end:
        ends += f'<path d="M{x1 - 4:.1f},{y - 1:.1f} L{x1:.1f},{y + 2.5:.1f} L{x1 - 4:.1f},{y + 6:.1f}" fill="none" ' \
                'stroke="currentColor"/>'
    text = ""
    room = x1 - x0 - 6
    if bar.kind == "condition" and room > 18:
        text = (f'<text x="{x0 + 3:.1f}" y="{y + 5.5:.1f}" font-size="7" fill="currentColor">'
                f"{_x(_short(bar.label, room * 1.4))}</text>")
    return f'<g class="{cls}"><title>{_x(bar.title)}</title>{shape}{ends}{text}</g>'


def _glyph(kind: str, hit: bool | None, passed: bool | None, placed: bool, cx: float, cy: float) -> str:  # noqa: C901
    """A mark's shape, centred on (cx, cy): its kind told by its shape, a hit by its fill."""
    filled = hit is True or (hit is None and not placed and kind not in ("cast-start", "misc", "wait", "impossible"))
    fill = "currentColor" if filled and not placed else "none"
    dash = ' stroke-dasharray="2 1.5"' if placed else ""
    line = ' stroke="currentColor" stroke-width="1.3"' + dash
    if kind == "melee":
        return f'<path d="M{cx},{cy - 6} L{cx + 6},{cy} L{cx},{cy + 6} L{cx - 6},{cy} Z" fill="{fill}"{line}/>'
    if kind == "missile":
        return f'<path d="M{cx - 5},{cy - 6} L{cx + 6},{cy} L{cx - 5},{cy + 6} Z" fill="{fill}"{line}/>'
    if kind == "cast":
        return (f'<path d="M{cx},{cy - 7} L{cx + 2},{cy - 2} L{cx + 7},{cy} L{cx + 2},{cy + 2} L{cx},{cy + 7} '
                f'L{cx - 2},{cy + 2} L{cx - 7},{cy} L{cx - 2},{cy - 2} Z" fill="{fill}"{line}/>')
    if kind in ("spell-ruined", "spell-lost"):
        return (f'<path d="M{cx - 5},{cy - 5} L{cx + 5},{cy + 5} M{cx + 5},{cy - 5} L{cx - 5},{cy + 5}" '
                'stroke="currentColor" stroke-width="2.6"/>')
    if kind == "move":
        return (f'<path d="M{cx - 6},{cy} L{cx + 5},{cy} M{cx + 1},{cy - 4} L{cx + 5},{cy} L{cx + 1},{cy + 4}" '
                f'fill="none" stroke="currentColor" stroke-width="2"{dash}/>')
    if kind == "delay":
        return f'<path d="M{cx - 4},{cy - 6} H{cx + 4} L{cx - 4},{cy + 6} H{cx + 4} Z" fill="none"{line}/>'
    if kind == "declare":
        return f'<rect x="{cx - 1.5}" y="{cy - 6}" width="3" height="9" fill="currentColor"/>'
    if kind == "down":
        return (f'<path d="M{cx},{cy - 7} V{cy + 7} M{cx - 5},{cy - 2} H{cx + 5}" stroke="currentColor" '
                'stroke-width="3"/>')
    if kind == "impossible":
        return (f'<circle cx="{cx}" cy="{cy}" r="5" fill="none"{line}/><path d="M{cx - 4},{cy + 4} '
                f'L{cx + 4},{cy - 4}"{line}/>')
    if kind in ("check", "morale"):
        inner = (f"M{cx - 3},{cy} L{cx - 1},{cy + 3} L{cx + 3},{cy - 3}" if passed else
                 f"M{cx - 3},{cy - 3} L{cx + 3},{cy + 3} M{cx + 3},{cy - 3} L{cx - 3},{cy + 3}")
        return (f'<rect x="{cx - 5}" y="{cy - 5}" width="10" height="10" fill="none"{line}/>'
                f'<path d="{inner}" fill="none" stroke="currentColor" stroke-width="1.6"/>')
    if kind in ("initiative", "surprise"):
        letter = "i" if kind == "initiative" else "!"
        return (f'<rect x="{cx - 5}" y="{cy - 6}" width="10" height="12" fill="none"{line}/>'
                f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" font-size="10" font-weight="bold" '
                f'fill="currentColor">{letter}</text>')
    if kind == "wound":
        return f'<path d="M{cx - 5},{cy - 4} H{cx + 5} L{cx},{cy + 5} Z" fill="{fill}"{line}/>'
    if kind in ("damage", "heal"):
        inner = f"M{cx - 3},{cy} H{cx + 3}" + (f" M{cx},{cy - 3} V{cy + 3}" if kind == "heal" else "")
        return (f'<rect x="{cx - 5}" y="{cy - 5}" width="10" height="10" fill="none"{line}/>'
                f'<path d="{inner}" stroke="currentColor" stroke-width="1.6"/>')
    if kind == "cast-start":
        return f'<circle cx="{cx}" cy="{cy}" r="4" fill="none"{line}/>'
    if kind == "fatigue":  # two waves, one over the other: winded
        return (f'<path d="M{cx - 6},{cy - 2} q3,-4 6,0 t6,0 M{cx - 6},{cy + 4} q3,-4 6,0 t6,0" fill="none"'
                f'{line}/>')
    if kind == "wait":
        return (f'<circle cx="{cx}" cy="{cy}" r="5" fill="none"{line}/>'
                f'<circle cx="{cx}" cy="{cy}" r="1.5" fill="currentColor"/>')
    return f'<circle cx="{cx}" cy="{cy}" r="4.5" fill="{fill}"{line}/>'


def _mark(m: Mark, cx: float, cy: float) -> str:
    cls = f"bd-mk k-{m.kind}" + (" bd-hit" if m.hit else " bd-miss" if m.hit is False else "") + (
        " bd-placed" if m.placed else "") + (" bd-declared" if m.declared else "")
    faint = ' opacity="0.6"' if m.declared else ""
    seq = f' data-seq="{m.seq}"' if m.seq is not None else ""
    tick = ",".join(map(str, m.tick))
    return (f'<g class="{cls}"{seq} data-col="{m.column}" data-tick="{tick}" data-lane="{_x(m.lane)}" '
            f'data-cx="{cx:.1f}"><title>{_x(m.title)}</title>'
            f'<rect x="{cx - _MARK / 2:.1f}" y="{cy - 9:.1f}" width="{_MARK}" height="18" fill="transparent"/>'
            f"<g{faint}>{_glyph(m.kind, m.hit, m.passed, m.placed, round(cx, 1), round(cy, 1))}</g>"
            + (f'<text class="bd-feet" x="{cx:.1f}" y="{cy + 13:.1f}" text-anchor="middle" font-size="7">'
               f"{_x(m.feet)}</text>" if m.feet else "") + "</g>")


def board_panels(board: Board, width: int = PANEL_WIDTH, *, kids: bool = False) -> list[str]:
    """The board as panels, each a whole ``<svg>`` (the page lays them side by side, or one under another);
    ``kids``: each a list of the page's (``panel-1``, ``panel-2``...) that a live frame may patch."""
    return [panel_svg(board, panel, kids=f"panel-{i}" if kids else None)
            for i, panel in enumerate(panels(board, width), 1)]


def legend_svg() -> str:
    """The marks' shapes and what each means, as one small ``<svg>``."""
    rows = []
    for i, (kind, hit, placed, words) in enumerate(LEGEND):
        y = 12 + 18 * i
        glyph = _glyph("melee" if kind == "declared" else kind, hit, hit, placed, 10, y)
        if kind == "declared":
            glyph = f'<g opacity="0.6">{glyph}</g>'
        rows.append(f'<g class="bd-key k-{kind}">{glyph}'
                    f'<text x="24" y="{y + 4}" fill="currentColor">{_x(words)}</text></g>')
    bars = 12 + 18 * len(LEGEND)
    rows.append(f'<rect x="3" y="{bars - 3}" width="16" height="5" fill="currentColor" fill-opacity="0.6" '
                f'stroke="currentColor"/><text x="24" y="{bars + 3}" fill="currentColor">a spell being cast '
                "(dashed: to come)</text>")
    rows.append(f'<rect x="3" y="{bars + 15}" width="16" height="6" fill="none" stroke="currentColor"/>'
                f'<text x="24" y="{bars + 21}" fill="currentColor">a condition, to its end</text>')
    rows.append(f'<line x1="3" y1="{bars + 38}" x2="19" y2="{bars + 38}" stroke="currentColor" stroke-width="2" '
                f'stroke-dasharray="1 3"/><text x="24" y="{bars + 41}" fill="currentColor">out of the fight</text>')
    height = bars + 50
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="bd bd-legend" width="300" height="{height}" '
            f'viewBox="0 0 300 {height}" role="img" aria-label="What the board\'s marks mean: shapes for '
            f'attacks, spells, moves, delays, falls" font-family="system-ui, sans-serif" font-size="11">'
            f"<title>What the board's marks mean</title>{''.join(rows)}</svg>")


def board_svg(boards: Sequence[Board], title: str, row_width: int = 1100, panel_width: int = 680) -> str:
    """A standalone SVG file (``affray run --board``): each window's panels in rows, its title above them, the
    legend at the end; styled for light and dark."""
    parts: list[str] = []
    y = 30
    width = 320
    for board in boards:
        parts.append(f'<text x="8" y="{y + 14}" font-size="15" font-weight="bold" fill="currentColor">'
                     f"{_x(board.title)}</text>")
        y += 24
        x, row_h = 8, 0
        for panel in panels(board, panel_width):
            svg = panel_svg(board, panel)
            w, h = _size(svg)
            if x > 8 and x + w > row_width:
                x, y = 8, y + row_h + 10
                row_h = 0
            parts.append(svg.replace("<svg ", f'<svg x="{x}" y="{y}" ', 1))
            width = max(width, x + w + 8)
            x += w + 12
            row_h = max(row_h, h)
        y += row_h + 18
    legend = legend_svg()
    parts.append(legend.replace("<svg ", f'<svg x="8" y="{y}" ', 1))
    height = y + _size(legend)[1] + 8
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="bd-file" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="system-ui, sans-serif">'
            f"<title>{_x(title)}</title><style>{CSS}</style>"
            f'<rect class="bd-paper" x="0" y="0" width="{width}" height="{height}" fill="#fff"/>'
            f'<text x="8" y="20" font-size="16" font-weight="bold" fill="currentColor">{_x(title)}</text>'
            + "".join(parts) + "</svg>\n")


def _size(svg: str) -> tuple[int, int]:
    head = svg[:svg.index(">")]
    width = int(head.split(' width="', 1)[1].split('"', 1)[0])
    height = int(head.split(' height="', 1)[1].split('"', 1)[0])
    return width, height


def board_file(fight: Fight[Any], window: int | None = None) -> str:
    """``affray run --board``: the board of every window of the fight (or of ``window`` alone) as an SVG file;
    OptionError when the fight has no such window."""
    found = windows(fight.ruleset.id, fight.events)
    if window is not None:
        window_there(fight.ruleset.id, found, window)
    boards = [fight_board(fight, w) for w in ([window] if window is not None else found)]
    return board_svg(boards, f"affray: the sequence board, ruleset {fight.ruleset.id}, seed {fight.seed}")
