"""The page's HTTP side: FastAPI routes over one ``Table``, live frames (server-sent events), forms.

Every fight operation runs on one thread of its own (``Served.call``): the fight is a greenlet that must
always be switched from the thread that made it, and its SQLite connection lives there too; requests wait
their turn, so two screens never act at once. A screen's live channel sends its whole live part again each
time something changes (rendered for that screen alone), and nothing when its rendering did not change.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
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

from affray.drive.commands import COMMANDS
from affray.model.encounter import SPELL_CONDITIONS
from affray.web.security import HEADERS, FormKeys, Tokens, Viewer
from affray.web.table import Table
from affray.web.views import View, player_view, referee_view

__all__ = ["Served", "make_app"]

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
        return referee_view(t, served.rev) if v.pc is None else player_view(t, v.pc, served.rev)

    def live_html(v: Viewer, view: View, base: str) -> str:
        links = []
        if v.pc is None:
            links = [(pc, f"{base}t/{w.token}", i) for i, (pc, w) in enumerate(served.tokens.players.items())]
        return env.get_template("live.html").render(
            view=view, token=v.token, key=_KEY, note=served.notes.get(v.key), referee=v.pc is None, links=links,
            commands=sorted(COMMANDS), conditions=SPELL_CONDITIONS)

    async def render(v: Viewer, base: str) -> str:
        view = await served.call(lambda: view_of(v))
        return live_html(v, view, base)

    def issue(v: Viewer, html: str) -> str:
        return html.replace(_KEY, served.keys.issue(v))

    def who(token: str) -> Viewer | None:
        return served.tokens.find(token) if 0 < len(token) < 100 else None

    @app.get("/", response_class=PlainTextResponse)
    async def root() -> str:
        return "affray: open the link printed when the page was served (one for the referee, one a player)\n"

    @app.get("/t/{token}", response_class=HTMLResponse)
    async def page(token: str, request: Request) -> Response:
        v = who(token)
        if v is None:
            return _denied(404, "no such page: open the link printed when the page was served")
        live = issue(v, await render(v, str(request.base_url)))
        html = env.get_template("page.html").render(live=live, token=v.token, title=_title(v))
        return HTMLResponse(html)

    @app.get("/t/{token}/live")
    async def stream(token: str, request: Request) -> Response:
        v = who(token)
        if v is None:
            return _denied(404, "no such page")
        base = str(request.base_url)

        async def frames() -> AsyncIterator[str]:
            last = None
            while not served.stopping():
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
        if v is None or v.pc is not None or not 0 <= index < len(players):
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
        problem = served.keys.take(v, data.get("key", ""))
        if problem is not None:
            return _denied(403, f"refused: {problem}")
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
    return "the referee" if v.pc is None else v.pc


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
    if v.pc is not None:
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
