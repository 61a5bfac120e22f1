"""The page's HTTP side: FastAPI routes over one ``Table``, live frames (server-sent events), forms.

Every fight operation runs on one thread of its own (``Served.call``): the fight is a greenlet that must
always be switched from the thread that made it, and its SQLite connection lives there too; requests wait
their turn, so two screens never act at once. A screen's live channel sends its whole live part again each
time something changes (rendered for that screen alone, by ``render``: the one place a screen is drawn), and
nothing when its rendering did not change.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from affray.drive import DeclareQuestion
from affray.drive.commands import COMMANDS
from affray.io.read import load_value
from affray.model.encounter import SPELL_CONDITIONS
from affray.render.board_svg import CSS, board_panels, legend_svg
from affray.table.seats import BOARD, REFEREE, pc_seat, settle
from affray.table.seats import issue as issue_seats
from affray.web.security import HEADERS, FormKeys, Tokens, Viewer
from affray.web.table import Table
from affray.web.views import View, board_view, player_view, referee_view

__all__ = ["Served", "make_app", "seat_tokens"]

T = TypeVar("T")
_KEY = "__FORM_KEY__"  # where a rendering's one-time form key goes (a rendering is compared without it)
_COMPOSED = frozenset({"damage", "heal", "condition", "end", "remove", "add", "plan", "dice"})
_MAX_FIELD = 2000


@dataclass
class Served:
    """The served fight: its table (used on its own thread only), the screens' tokens and form keys."""

    table: Table
    tokens: Tokens
    pool: concurrent.futures.ThreadPoolExecutor
    keys: FormKeys = field(default_factory=FormKeys)
    notes: dict[str, str] = field(default_factory=dict)
    rev: int = 0
    stopping: Callable[[], bool] = lambda: False
    changed: asyncio.Condition | None = None

    async def call(self, fn: Callable[[], T]) -> T:
        return await asyncio.wrap_future(self.pool.submit(fn))

    async def bump(self) -> None:
        self.rev += 1
        cond = self._cond()
        async with cond:
            cond.notify_all()

    def _cond(self) -> asyncio.Condition:
        if self.changed is None:
            self.changed = asyncio.Condition()
        return self.changed

    async def wait(self, seen: int, timeout: float) -> None:
        cond = self._cond()
        async with cond:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(cond.wait_for(lambda: self.rev != seen), timeout)


def seat_tokens(table: Table, *, renew: bool = False, reissue: tuple[str, ...] = ()) -> Tokens:
    """The screens' tokens kept with the fight (on the table's thread): new ones for seats without one, for every
    seat with ``renew`` (``affray serve --new-links``), and for the seats named in ``reissue`` (the referee's
    button: ``referee``, ``board``, ``pc:NAME``)."""
    pcs = table.session.pcs()
    names = [REFEREE, BOARD, *(pc_seat(pc) for pc in pcs)]
    if reissue:
        issue_seats(table.store, table.game.id, reissue)
    kept = settle(table.store, table.game.id, names, renew=renew)
    return Tokens(Viewer(kept[REFEREE], None), {pc: Viewer(kept[pc_seat(pc)], pc) for pc in pcs},
                  Viewer(kept[BOARD], None, board=True))


def _env() -> Environment:
    env = Environment(loader=PackageLoader("affray.web", "templates"), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    return env


def _qr(url: str) -> bytes:
    out = io.BytesIO()
    qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2).save(out)
    return out.getvalue()


def make_app(served: Served) -> FastAPI:
    """The page's application (wrapped to bound request bodies)."""
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    env = _env()
    static = resources.files("affray.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        response: Response = await call_next(request)
        for k, v in HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    def view_of(v: Viewer) -> View:
        t = served.table
        if v.board:
            return board_view(t, served.rev)
        return referee_view(t, served.rev) if v.pc is None else player_view(t, v.pc, served.rev)

    def live_html(v: Viewer, view: View, base: str) -> str:
        links = []
        board = served.tokens.board
        if v.referee:
            links = [(pc, f"{base}t/{w.token}", i) for i, (pc, w) in enumerate(served.tokens.players.items())]
        return env.get_template("board.html" if v.board else "live.html").render(
            view=view, token=v.token, key=_KEY, note=served.notes.get(v.key), referee=v.referee, links=links,
            table_link=f"{base}t/{board.token}" if v.referee and board is not None else None,
            panels=[Markup(svg) for svg in board_panels(view.board)], legend=Markup(legend_svg()),
            commands=sorted(COMMANDS), conditions=SPELL_CONDITIONS)

    async def render(v: Viewer, base: str) -> str:
        """A screen's live part, drawn for that screen alone: the page, each answer and each live frame use it."""
        view = await served.call(lambda: view_of(v))
        return live_html(v, view, base)

    def issue(v: Viewer, html: str) -> str:
        return html.replace(_KEY, served.keys.issue(v))

    def who(token: str) -> Viewer | None:
        return served.tokens.find(token) if 0 < len(token) < 100 else None

    @app.get("/", response_class=PlainTextResponse)
    async def root() -> str:
        return "affray: open the link printed when the page was served (one for the referee, one a player)\n"

    @app.get("/board.css")
    async def board_css() -> Response:
        return Response(CSS, media_type="text/css")

    @app.get("/t/{token}", response_class=HTMLResponse)
    async def page(token: str, request: Request) -> Response:
        v = who(token)
        if v is None:
            return _denied(404, "no such page: open the link printed when the page was served (the referee may "
                           "have reissued it)")
        live = issue(v, await render(v, str(request.base_url)))
        html = env.get_template("page.html").render(live=live, token=v.token, title=_title(v),
                                                    seat="board" if v.board else "referee" if v.referee else "player")
        return HTMLResponse(html)

    @app.get("/t/{token}/board")
    async def board_page(token: str) -> Response:
        """The table view under the referee's link: sent on to its own link, so that a shared screen never shows
        the referee's token."""
        v = who(token)
        board = served.tokens.board
        if v is None or not v.referee or board is None:
            return _denied(404, "no such page")
        return RedirectResponse(f"/t/{board.token}", status_code=303)

    @app.get("/t/{token}/live")
    async def stream(token: str, request: Request) -> Response:
        v = who(token)
        if v is None:
            return _denied(404, "no such page")
        base = str(request.base_url)

        async def frames() -> AsyncIterator[str]:
            last = None
            while not served.stopping():
                if who(token) != v:  # its link was reissued: this screen is shown nothing more
                    return
                seen = served.rev
                html = await render(v, base)
                if html != last:
                    last = html
                    yield "event: live\n" + "".join(f"data: {line}\n" for line in issue(v, html).split("\n")) + "\n"
                await served.wait(seen, 1.0)
                if served.rev == seen:
                    if await request.is_disconnected():
                        return
                    yield ": still here\n\n"

        return StreamingResponse(frames(), media_type="text/event-stream", headers={"X-Accel-Buffering": "no"})

    @app.get("/t/{token}/qr/{index}.svg")
    async def qr(token: str, index: int, request: Request) -> Response:
        v = who(token)
        players = list(served.tokens.players.values())
        if v is None or not v.referee or not 0 <= index < len(players):
            return _denied(404, "no such page")
        return Response(_qr(f"{request.base_url}t/{players[index].token}"), media_type="image/svg+xml")

    @app.post("/act")
    async def act(request: Request) -> Response:
        if not _same_origin(request):
            return _denied(403, "refused: a request from another site")
        form = await request.form()
        data = {k: v for k, v in form.items() if isinstance(v, str)}
        if any(len(x) > _MAX_FIELD for x in data.values()):
            return _denied(413, "refused: a field too long")
        v = who(data.get("token", ""))
        if v is None:
            return _denied(403, "refused: no such token")
        if v.board:
            return _denied(403, "refused: the table view is read-only")
        problem = served.keys.take(v, data.get("key", ""))
        if problem is not None:
            return _denied(403, f"refused: {problem}")
        note: str | None
        if data.get("op") == "links" and v.referee:
            note = await served.call(lambda: _reissue(served, data.get("who", "")))
        else:
            note = await served.call(lambda: _act(served.table, v, data))
        if note is None:
            served.notes.pop(v.key, None)
        else:
            served.notes[v.key] = note
        await served.bump()
        if request.headers.get("hx-request") == "true":
            return HTMLResponse(issue(v, await render(v, str(request.base_url))))
        return RedirectResponse(f"/t/{v.token}", status_code=303)

    return app


def _title(v: Viewer) -> str:
    return "the table" if v.board else "the referee" if v.pc is None else v.pc


def _reissue(served: Served, who: str) -> str:
    """The referee's button: a new link for one player character (``who``), for the table view (``board``) or for
    every player and the table view (``all``); the old ones open nothing any more. On the table's thread."""
    pcs = list(served.tokens.players)
    if who == "all":
        seats = (BOARD, *(pc_seat(pc) for pc in pcs))
    elif who == "board":
        seats = (BOARD,)
    elif who in pcs:
        seats = (pc_seat(who),)
    else:
        return f"{who}: no such player's link"
    served.tokens = seat_tokens(served.table, reissue=seats)
    what = "every player's link and the table view's" if who == "all" else (
        "the table view's link" if who == "board" else f"{who}'s link")
    return f"new links: {what} reissued; the old ones open nothing any more"


def _denied(status: int, text: str) -> Response:
    return PlainTextResponse(text + "\n", status_code=status)


def _same_origin(request: Request) -> bool:
    """A POST of the page itself: no other site's origin, and (where sent) fetched from the same site."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == request.headers.get("host")


def _act(table: Table, v: Viewer, data: dict[str, str]) -> str | None:
    """One form's operation on the table (on its thread): None when it went through quietly, else a note for
    that screen (a refusal, or what a referee's command did)."""
    op = data.get("op", "")
    said = data.get("say", "") or data.get("text", "")
    if op == "answer":
        q = data.get("q", "")
        if not q.isdecimal() or len(q) > 9:
            return "that question is no longer asked"
        return table.answer(v.pc, int(q), said)
    if op == "declare":
        q = data.get("q", "")
        if not q.isdecimal() or len(q) > 9:
            return "that question is no longer asked"
        entry = _declaration(table, data)
        if not entry.startswith("{"):  # what is missing, in words
            return entry
        note = table.answer(v.pc, int(q), entry)
        return note.removeprefix(f"{entry}: ") if note is not None else None  # the refusal, without the JSON
    if not v.referee:
        return "only the referee gives commands"
    if op == "command":
        return table.command(said)
    if op == "compose":
        verb = data.get("verb", "")
        if verb not in _COMPOSED:
            return f"{verb}: not a command"
        parts = [verb] + [data.get(k, "").strip() for k in ("name", "a", "b")]
        return table.command(" ".join(x for x in parts if x))
    return f"{op}: not an operation of the page"


def _declaration(table: Table, data: dict[str, str]) -> str:
    """The declaration form's fields as one plan entry (JSON, which the session reads as YAML), or what is missing
    in words. What is allowed is the session's to check (``check_declaration``)."""
    action = data.get("action", "")
    target = data.get("target", "").strip()
    entry: dict[str, Any] = {}
    q = table.pending
    who = q.actor if isinstance(q, DeclareQuestion) else "it"
    if action in ("melee", "missile"):
        if not target:
            return f"choose whom {who} attacks"
        entry[action] = target
        weapon = data.get(f"{action}_weapon", "").strip()
        if weapon:
            entry["weapon"] = weapon
        if action == "melee":
            if data.get("charge"):
                entry["charge"] = True
            distance = data.get("distance", "").strip()
            if distance:
                if not distance.isdecimal() or len(distance) > 5:
                    return f"distance {distance}: give the feet to close as a whole number"
                entry["distance"] = int(distance)
    elif action == "cast":
        spell = data.get("spell", "").strip()
        if not spell:
            return f"choose the spell {who} casts"
        entry["cast"] = spell
        at = data.get("at", "").strip()
        if at:
            entry["at"] = at
    elif action == "move":
        feet = data.get("feet", "").strip()
        movement = q.choices.get("movement", 0) if isinstance(q, DeclareQuestion) else 0
        if feet and (not feet.isdecimal() or len(feet) > 5):
            return f"{feet}: give how far to move in feet, as a whole number"
        entry["move"] = int(feet) if feet else movement
        if data.get("mode", "").strip():
            entry["mode"] = data["mode"].strip()
    elif action in ("wait", "misc"):
        text = data.get(f"{action}_text", "").strip()
        if action == "misc" and not text:
            return f"say what {who} does"
        entry[action] = text or True
    elif action == "none":
        entry["none"] = True
    else:
        return "choose an action"
    for name, value in data.items():
        if name.startswith("key_") and value.strip():
            try:
                entry[name[4:]] = load_value(value.strip(), name[4:])
            except ValueError as exc:
                return f"{name[4:]}: {exc}"
    return json.dumps(entry)
