"""The map of a fight that places its combatants (CONTRACT "Where everyone stands"): each one's token where it
stands at the end of a window (a round; the whole fight by default), the moves of that window as lines with their
feet, on a 5-ft grid. Plain SVG, drawn from the events alone (the page draws the same for a player from what its
character may know: ``Token``s of its own choosing)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from affray.engine.events import Event, Move, Place
from affray.model.encounter import Encounter
from affray.model.place import placements
from affray.render.board import window_there, windows
from affray.render.board_clock import layout_for

__all__ = ["Token", "Trail", "map_file", "map_svg", "map_tokens"]

#: Side colours, in the order of the file's sides (the party's first).
_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#b7791f", "#6b46c1", "#319795")
_GRID = 5
_PX = 6.0  # pixels a foot at the natural size (the SVG scales to its box)
_MARGIN = 20  # feet around the tokens


@dataclass(frozen=True)
class Token:
    """A combatant on the map: name, side, place, and whether it is out of the fight."""

    name: str
    side: str
    at: tuple[int, int]
    out: bool = False


@dataclass(frozen=True)
class Trail:
    """A move of the window: who, from where to where, its feet and mode."""

    name: str
    frm: tuple[int, int]
    to: tuple[int, int]
    feet: int
    mode: str | None


def map_tokens(encounter: Encounter, events: Iterable[Event], ruleset: str, window: int | None = None
               ) -> tuple[list[Token], list[Trail]]:
    """Where each combatant stands at the end of ``window`` (None: the last event) and the moves made in it."""
    sides = {name: side for side, s in encounter.sides.items() for name in _names(s.combatants)}
    at: dict[str, tuple[int, int]] = {n: p for n, p, _loc in placements(encounter) if p is not None}
    out: set[str] = set()
    trails: list[Trail] = []
    layout = layout_for(ruleset)
    for e in events:
        w = layout.window(e.tick) if e.tick else 0
        if window is not None and w > window:
            break
        if isinstance(e, (Move, Place)) and e.to is not None and e.actor is not None:
            if isinstance(e, Move) and e.from_ is not None and (window is None or w == window) and e.feet:
                trails.append(Trail(e.actor, e.from_, e.to, e.feet, e.mode))
            at[e.actor] = e.to
            if isinstance(e, Move) and e.leaves and not e.stopped:
                out.add(e.actor)
        elif e.kind == "join" and e.actor is not None:
            spec = getattr(e, "spec", None)
            sides[e.actor] = getattr(e, "side", "") or ""
            at[e.actor] = spec.at if spec is not None and spec.at is not None else (0, 0)
        elif e.kind in ("down", "leave", "surrender") and e.actor is not None:
            out.add(e.actor)
    tokens = [Token(n, sides.get(n, ""), p, n in out) for n, p in at.items()]
    return tokens, trails


def _names(combatants: Sequence[Any]) -> list[str]:
    out = []
    for c in combatants:
        out += [c.name] if c.count == 1 else [f"{c.name} {k}" for k in range(1, c.count + 1)]
    return out


def map_svg(tokens: Sequence[Token], trails: Sequence[Trail], sides: Sequence[str], title: str, *,
            draggable: bool = False, me: str | None = None) -> str:
    """The map as one ``<svg>``: a 5-ft grid, the window's moves, a token per combatant (a side's colour; one out
    of the fight greyed and crossed). ``draggable``: tokens carry ``data-name`` for the page's drag; ``me``: the
    viewer's own token, ringed."""
    points = [t.at for t in tokens] + [p for tr in trails for p in (tr.frm, tr.to)] or [(0, 0)]
    x0 = (min(p[0] for p in points) - _MARGIN) // _GRID * _GRID
    y0 = (min(p[1] for p in points) - _MARGIN) // _GRID * _GRID
    x1 = -(-(max(p[0] for p in points) + _MARGIN) // _GRID) * _GRID
    y1 = -(-(max(p[1] for p in points) + _MARGIN) // _GRID) * _GRID
    w, h = x1 - x0, y1 - y0
    colour = {s: _COLOURS[i % len(_COLOURS)] for i, s in enumerate(sides)}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="af-map" viewBox="{x0} {y0} {w} {h}" '
           f'width="{round(w * _PX)}" height="{round(h * _PX)}" data-x0="{x0}" data-y0="{y0}" role="img" '
           f'aria-label="{escape(title)}">',  # no style attribute: the page's CSP allows none (its CSS sizes it)
           f"<title>{escape(title)}</title>",
           f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="#fbfaf5"/>']
    grid = [f"M{x},{y0}V{y1}" for x in range(x0, x1 + 1, _GRID)] + [f"M{x0},{y}H{x1}" for y in range(y0, y1 + 1, _GRID)]
    out.append(f'<path d="{"".join(grid)}" stroke="#e2dfd3" stroke-width="0.2" fill="none"/>')
    tens = [f"M{x},{y0}V{y1}" for x in range(x0, x1 + 1, 10 * _GRID) if x % 50 == 0]
    out.append(f'<path d="{"".join(tens)}" stroke="#c9c4b0" stroke-width="0.35" fill="none"/>')
    out.append(f'<text x="{x0 + 1}" y="{y1 - 1}" font-size="3" fill="#777">grid 5 ft; ({x0}, {y0}) top left</text>')
    for tr in trails:
        (ax, ay), (bx, by) = tr.frm, tr.to
        dash = ' stroke-dasharray="1.5,1"' if tr.mode in ("withdraw", "retreat", "flee") else ""
        out.append(f'<g class="af-trail"><line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#555" '
                   f'stroke-width="0.5"{dash} marker-end="url(#af-arrow)"/>'
                   + (f'<text x="{(ax + bx) / 2:.1f}" y="{(ay + by) / 2 - 1:.1f}" font-size="2.2" fill="#333" '
                      f'text-anchor="middle">{tr.feet} ft{" " + escape(tr.mode) if tr.mode else ""}</text>'
                      if tr.feet >= 10 else f"<title>{tr.feet} ft</title>") + "</g>")
    out.insert(3, '<defs><marker id="af-arrow" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="4" markerHeight="4" '
               'orient="auto"><path d="M0,0L6,3L0,6z" fill="#555"/></marker></defs>')
    for t in sorted(tokens, key=lambda t: not t.out):  # the fallen under the standing
        x, y = t.at
        fill = "#aaa" if t.out else colour.get(t.side, "#444")
        drag = f' data-name="{escape(t.name)}" data-x="{x}" data-y="{y}"' if draggable else ""
        cross = (f'<path d="M{x - 1.5},{y - 1.5}L{x + 1.5},{y + 1.5}M{x - 1.5},{y + 1.5}L{x + 1.5},{y - 1.5}" '
                 'stroke="#333" stroke-width="0.4"/>' if t.out else "")
        out.append(f'<g class="af-token{" af-out" if t.out else ""}"{drag}><title>{escape(t.name)} ({escape(t.side)}) '
                   f'at {x}, {y}{" (out of the fight)" if t.out else ""}</title>'
                   f'<circle cx="{x}" cy="{y}" r="1.8" fill="{fill}" stroke="{"#f6ad55" if t.name == me else "#222"}" '
                   f'stroke-width="{0.7 if t.name == me else 0.25}"/>{cross}'
                   f'<text x="{x}" y="{y + 0.6}" font-size="1.5" text-anchor="middle" fill="#fff">'
                   f"{escape(_short(t.name))}</text></g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _short(name: str) -> str:
    """A token's label: "K5" for "Kobold 5", else the name's first four letters (the whole name is its title)."""
    head, _, tail = name.rpartition(" ")
    if head and tail.isdigit():
        return head[0] + tail
    return name[:4]


def map_file(encounter: Encounter, events: Sequence[Event], ruleset: str, sides: Mapping[str, Any],
             window: int | None = None) -> str:
    """``affray run --map``'s file: the map at the end of ``window`` (default: the fight's end); OptionError when the
    fight has no such window, as ``--board`` says."""
    if window is not None:
        window_there(ruleset, windows(ruleset, events), window)
    tokens, trails = map_tokens(encounter, events, ruleset, window)
    unit = layout_for(ruleset).title(window) if window is not None else "the end of the fight"
    return map_svg(tokens, trails, list(sides), f"Where everyone stands: {unit}")
