"""The live channel's frames: what changed on a screen since its last frame, as one line of JSON.

A screen's live part is drawn whole (``app.render``, the one place a screen is drawn) and cut where its templates
mark it. The screen is a list of parts (the header, the question, the cards, the board...): each part comes after a
``<!--p-->`` comment, the last one is followed by ``<!--/p-->``. A part may hold lists of its own: an element with
``data-kids="NAME"`` (a name once a screen) whose children each come after a ``<!--k-->`` comment, the last one
followed by ``<!--/k-->`` (the timeline's lines, the cards, the board's panels and each panel's marks); a child
may hold lists of its own.

A frame gives the parts as edits of the last frame's (``edits``: runs of parts the screen holds, by their place,
and the HTML of new ones), comparing each part without its lists (its shell); then, for each list of a part kept,
its opening tag where it changed (a board panel grows) and its children as edits of the same kind, and so on
down the children it kept. A text that changes inside a large part is made a list of one child (the timeline's
count), so that the part is kept. So a frame holds only what changed, whatever the length of the fight, and a
screen's first frame holds everything.

A frame carries nothing a screen's own drawing does not hold: a player's frames are cut from a player's drawing
(``affray.web.views``), never from another's. Its text is JSON with every character past ASCII escaped: a name
with a line break, a carriage return or a line separator cannot split the event-stream line it travels in, nor
forge another event.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

__all__ = ["Cut", "Edit", "Kid", "Listed", "cut", "edits", "frame"]

PART, PARTS_END = "<!--p-->", "<!--/p-->"
KID, KIDS_END = "<!--k-->", "<!--/k-->"
_OPEN = re.compile(r'data-kids="([\w-]+)"[^>]*>')
_TOKEN = re.compile(r'data-kids="[\w-]+"[^>]*>|<!--k-->|<!--/k-->')

#: A child as a frame gives it: a run of the children the screen holds (first, count), or a new child's HTML.
Edit = list[int] | str


@dataclass(frozen=True)
class Kid:
    """A part of the screen, or a child of a list: its HTML whole, its HTML without its lists (its shell: two
    children of the same shell differ only in their lists) and its lists by name."""

    whole: str
    shell: str
    lists: dict[str, Listed]


@dataclass(frozen=True)
class Listed:
    """A list: its opening tag and its children."""

    tag: str
    kids: tuple[Kid, ...]


#: A screen's drawing cut: its parts, as a list.
Cut = Listed


#: Parts and children cut lately, by their HTML: from one change to the next most of a screen is the same text, and
#: the screens of one side share most of theirs (bounded: forgotten past ``_KEPT`` characters).
_cuts: dict[str, Kid] = {}
_KEPT = 8_000_000
_kept = 0


def _kid(html: str) -> Kid:
    """``html`` cut at the lists it holds (and theirs, within their children)."""
    global _kept
    if "data-kids=" not in html:
        return Kid(html, html, {})
    found = _cuts.get(html)
    if found is None:
        if _kept > _KEPT:
            _cuts.clear()
            _kept = 0
        found = _cuts[html] = _cut_kid(html)
        _kept += len(html)
    return found


def _cut_kid(html: str) -> Kid:
    shell: list[str] = []
    lists: dict[str, Listed] = {}
    at = 0
    while (m := _OPEN.search(html, at)) is not None:
        tag = html.rfind("<", at, m.start())
        depth, end, starts = 0, -1, []
        for t in _TOKEN.finditer(html, m.end()):
            token = t.group(0)
            if token == KID:
                if depth == 0:
                    starts.append(t.end())
            elif token == KIDS_END:
                if depth == 0:
                    end = t.start()
                    break
                depth -= 1
            else:
                depth += 1
        if tag < 0 or end < 0:
            raise ValueError(f"list {m.group(1)} of a screen's drawing without its start or its end")
        bounds = zip(starts, [s - len(KID) for s in starts[1:]] + [end], strict=False)  # none: empty
        lists[m.group(1)] = Listed(html[tag:m.end()], tuple(_kid(html[a:b]) for a, b in bounds))
        shell.append(html[at:tag] + f"<{m.group(1)}>")  # the shell names the list; its tag may change alone
        at = end
    shell.append(html[at:])
    return Kid(html, "".join(shell), lists)


def cut(html: str) -> Cut:
    """A screen's drawing cut at its parts and their lists."""
    start, end = html.find(PART), html.rfind(PARTS_END)
    if start < 0 or end < start:
        raise ValueError("a screen's drawing without its parts marked")
    return Listed("", tuple(_kid(part) for part in html[start:end].split(PART)[1:]))


def edits(old: tuple[str, ...], new: tuple[str, ...]) -> list[list[int] | int] | None:
    """``new`` as runs of ``old`` (by place: ``[first, count]``) and the places of new children in ``new`` (an
    int); None when it is ``old`` itself."""
    if old == new:
        return None
    where: dict[str, int] = {}
    for i, h in enumerate(old):
        where.setdefault(h, i)
    out: list[list[int] | int] = []
    for k, h in enumerate(new):
        last = out[-1] if out else None
        if isinstance(last, list) and last[0] + last[1] < len(old) and old[last[0] + last[1]] == h:
            last[1] += 1  # the run goes on
        elif h in where:
            out.append([where[h], 1])
        else:
            out.append(k)
    return out


def _changes(old: Listed, new: Listed, name: str, out: dict[str, list[str | list[Edit] | None]]) -> list[Edit] | None:
    """What changed from list ``old`` to ``new``: its children's edits (None: the same), and, into ``out``, its
    tag where it changed, then (in document order) the changes of the lists of the children it kept."""
    found = edits(tuple(k.shell for k in old.kids), tuple(k.shell for k in new.kids))
    kept: list[tuple[int, int]] = []  # (new child, old child) of the same shell
    given: list[Edit] | None = None
    if found is None:
        kept = [(i, i) for i in range(len(new.kids))]
    else:
        given = []
        i = 0
        for e in found:
            if isinstance(e, int):
                given.append(new.kids[e].whole)
                i += 1
            else:
                given.append(e)
                kept += [(i + d, e[0] + d) for d in range(e[1])]
                i += e[1]
    if name and (given is not None or new.tag != old.tag):
        out[name] = [new.tag if new.tag != old.tag else None, given]
    for i, j in kept:
        was = old.kids[j].lists
        for inner, listed in new.kids[i].lists.items():
            if inner in was:
                _changes(was[inner], listed, inner, out)
    return given


def frame(before: Cut | None, now: Cut, rev: int, key: str) -> str:
    """The frame taking a screen from ``before`` (None: nothing yet, every part is sent) to ``now``: one
    event-stream event, its data one line of JSON: ``rev``, the form ``key``, ``parts`` (null: the same parts) and
    ``lists``: for each list of a part or child kept that changed, its new opening tag (null: the same) and its
    children's edits (null: the same), outer lists before the lists they hold."""
    lists: dict[str, list[str | list[Edit] | None]] = {}
    parts = [k.whole for k in now.kids] if before is None else _changes(before, now, "", lists)
    data = {"rev": rev, "key": key, "parts": parts, "lists": lists}
    return "event: live\ndata: " + json.dumps(data, ensure_ascii=True, separators=(",", ":")) + "\n\n"
