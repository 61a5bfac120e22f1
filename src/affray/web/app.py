"""The page's HTTP side: FastAPI routes over one ``Table``, live frames (server-sent events), forms.

Every fight operation runs on one thread of its own (``Served.call``): the fight is a greenlet that must
always be switched from the thread that made it, and its SQLite connection lives there too; requests wait
their turn, so two screens never act at once. A screen is drawn in one place (``render``: for that screen alone,
so a player's drawing holds only what its character may know), once a revision and screen (``Served.drawings``);
its live channel sends what changed in it since its last frame (``affray.web.live``), whatever the length of the
fight. Each change wakes the channels through an ``asyncio.Event`` a revision (no lock to take back when a channel
is cancelled), and a served fight that stops wakes them to end at once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import io
import json
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from affray.drive import DeclareQuestion
from affray.drive.commands import COMMANDS
from affray.io.read import load_value
from affray.limits import LIVE_KEEPALIVE, LIVE_LINES, MAX_STREAMS
from affray.model.encounter import SPELL_CONDITIONS
from affray.render.board import Board
from affray.render.board_svg import CSS, board_panels, legend_svg
from affray.table.seats import BOARD, REFEREE, pc_seat, settle
from affray.table.seats import issue as issue_seats
from affray.web.live import Cut, cut, frame
from affray.web.replay import add_replay
from affray.web.security import HEADERS, FormKeys, Tokens, Viewer
from affray.web.table import Table
from affray.web.views import Card, Line, View, board_view, player_view, referee_view

__all__ = ["Served", "Stopped", "make_app", "seat_tokens"]

T = TypeVar("T")
_KEY = "__FORM_KEY__"  # where a rendering's one-time form key goes (a rendering is compared without it)
_COMPOSED = frozenset({"damage", "heal", "heal-temp", "condition", "end", "remove", "add", "plan", "dice"})
_MAX_FIELD = 2000


class Stopped(RuntimeError):
    """Work for the table's thread asked for once the server stops: not done."""


@dataclass(frozen=True)
class _Drawing:
    """A screen's drawing at one revision: its HTML (the form key still to put in) and that HTML cut for frames."""

    rev: int
    html: str
    cut: Cut


@dataclass(frozen=True)
class _Drawn:
    """The drawing of a screen being made or made, for the revision and address it was asked at: every channel
    and answer of that screen at that revision shares it (eight phones of one seat cost one drawing)."""

    rev: int
    base: str
    task: asyncio.Future[_Drawing]

    def good(self, rev: int, base: str) -> bool:
        t = self.task
        return (self.rev, self.base) == (rev, base) and not (t.done() and (t.cancelled() or t.exception()))


@dataclass
class _Stream:
    """One open live channel of a screen; ``ended`` once a newer channel of that screen took its place."""

    ended: bool = False


@dataclass
class Served:
    """The served fight: its table (used on its own thread only), the screens' tokens and form keys, the
    revision the live channels follow, and the channels open per screen."""

    table: Table
    tokens: Tokens
    pool: concurrent.futures.ThreadPoolExecutor
    keys: FormKeys = field(default_factory=FormKeys)
    notes: dict[str, str] = field(default_factory=dict)
    rev: int = 0
    halted: bool = False
    streams: dict[str, deque[_Stream]] = field(default_factory=dict)
    drawings: dict[str, _Drawn] = field(default_factory=dict)  # by screen: its latest drawing
    _next: asyncio.Event | None = None

    async def call(self, fn: Callable[[], T]) -> T:
        """``fn`` on the table's thread, in its turn; none once the server stops (``halt``): what was queued then is
        dropped, so that the fight closes as soon as the work under way is done."""
        def guarded() -> T:
            if self.halted:
                raise Stopped("the server is stopping")
            return fn()

        if self.halted:
            raise Stopped("the server is stopping")
        return await asyncio.wrap_future(self.pool.submit(guarded))

    def _event(self) -> asyncio.Event:
        if self._next is None:
            self._next = asyncio.Event()
        return self._next

    def _wake(self) -> None:
        """Every channel waiting looks again: the event of this moment is set, and the next one is a new one."""
        woken, self._next = self._event(), asyncio.Event()
        woken.set()

    def bump(self) -> None:
        """The fight (or a screen's note) changed: a new revision, every live channel wakes to send its frame."""
        self.rev += 1
        self._wake()

    def halt(self) -> None:
        """The server stops: every live channel ends now, the work queued for the table's thread is dropped, and a
        fight moving on (``run``, ``round``) stops after the step under way (a shutdown waits for nobody)."""
        self.halted = True
        self.table.stopping = True
        self._wake()

    async def changed(self, seen: int, timeout: float) -> bool:
        """Wait until the revision is no longer ``seen`` (or the server stops, or a channel was told to end): False
        when ``timeout`` passed first. Cancelling it (a client gone) leaves nothing held."""
        if self.rev != seen or self.halted:
            return True
        event = self._event()
        try:
            async with asyncio.timeout(timeout):
                await event.wait()
        except TimeoutError:
            return False
        return True

    def open_stream(self, v: Viewer) -> _Stream:
        """A screen's new live channel: past ``MAX_STREAMS`` of one screen (a phone reloading, a hostile client
        holding its link), the oldest is ended."""
        mine = self.streams.setdefault(v.key, deque())
        s = _Stream()
        mine.append(s)
        while len(mine) > MAX_STREAMS:
            mine.popleft().ended = True
            self._wake()
        return s

    def close_stream(self, v: Viewer, s: _Stream) -> None:
        mine = self.streams.get(v.key)
        if mine is not None and s in mine:
            mine.remove(s)


def seat_tokens(table: Table, *, renew: bool = False, reissue: tuple[str, ...] = ()) -> Tokens:
    """The screens' tokens kept with the fight (on the table's thread): new ones for seats without one, for every
    seat with ``renew`` (``affray serve --new-links``), and for the seats named in ``reissue`` (the referee's
    button: ``referee``, ``board``, ``pc:NAME``)."""
    pcs = table.session.pcs()
    names = [REFEREE, BOARD, *(pc_seat(pc) for pc in pcs)]
    if reissue:
        issue_seats(table.store, table.game.id, reissue)
    lost: list[str] = []
    kept = settle(table.store, table.game.id, names, renew=renew, lost=lost)
    note = None
    if lost:
        from affray.table.links import key_path

        note = (f"new links for {', '.join(s.removeprefix('pc:') for s in lost)}: the links kept with the fight are "
                f"sealed under another key than this account's ({key_path()}), so they cannot be printed here; the "
                "old ones no longer open anything")
    return Tokens(Viewer(kept[REFEREE], None), {pc: Viewer(kept[pc_seat(pc)], pc) for pc in pcs},
                  Viewer(kept[BOARD], None, board=True), note)


def _env() -> Environment:
    env = Environment(loader=PackageLoader("affray.web", "templates"), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True, auto_reload=False)  # a package's: they never change
    env.globals["timeline_lines"] = timeline_lines
    drawn: dict[tuple[object, ...], Markup] = {}

    def card_html(c: Card) -> Markup:
        """A combatant's card, drawn once for every screen and change that shows it the same."""
        key = (c.name, c.side, c.hp, c.hp_max, c.state, c.casting, c.engaged, tuple(c.badges), c.mine, c.ours,
               c.declared, c.lands, c.declares)
        found = drawn.get(key)
        if found is None:
            if len(drawn) > 4096:
                drawn.clear()
            found = drawn[key] = Markup(cards.card(c))
        return found

    env.globals["card_html"] = card_html
    cards: Any = env.get_template("cards.html").module  # once its globals are all there
    return env


def timeline_lines(lines: list[Line]) -> Markup:
    """The timeline's lines as the children of its list (each after its ``<!--k-->``)."""
    return Markup("".join(f"<!--k-->{timeline_line(e)}\n" for e in lines))


@functools.lru_cache(maxsize=8192)
def timeline_line(e: Line) -> Markup:
    """One line of the timeline with its heading and why, drawn once for every screen and change that shows it
    (most of a screen's drawing, late in a fight)."""
    heading = Markup('<span class="heading">{}:</span> ').format(e.heading) if e.heading else ""
    why = Markup('<br><span class="why">{}</span>').format(e.why) if e.why else ""
    return Markup('<li class="k-{}">{}<span class="line">{}</span>{}</li>').format(e.kind, heading, e.text, why)


def _qr(url: str) -> bytes:
    out = io.BytesIO()
    qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2).save(out)
    return out.getvalue()


def make_app(served: Served) -> FastAPI:
    """The page's application (wrapped to bound request bodies): the pages, the live channel and the form, each a
    router over one ``_Screens`` (what every screen's drawing shares)."""
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    screens = _Screens(served, _env())
    static = resources.files("affray.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.exception_handler(Stopped)
    async def stopping(request: Request, exc: Stopped) -> Response:
        return _denied(503, "the server is stopping: the fight is saved")

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        response: Response = await call_next(request)
        for k, v in HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    app.include_router(_pages(screens))
    app.include_router(_referee_pages(screens))
    app.include_router(_live(screens))
    app.include_router(_form(screens))
    add_replay(app, screens.env, screens.who, served.call, lambda: served.table)
    return app


class _Screens:
    """What the routes share: each screen's view and its drawing, made once a revision (and a board's panels once
    for the screens that show the same board)."""

    def __init__(self, served: Served, env: Environment) -> None:
        self.served = served
        self.env = env
        self.watched: dict[int, asyncio.Future[dict[str, tuple[int, View]]]] = {}  # by revision
        self.drawn_boards: deque[tuple[Board, list[Markup]]] = deque(maxlen=16)

    def view_of(self, v: Viewer) -> tuple[int, View]:
        """A screen's view and the revision it shows (read on the table's thread, where the fight changes)."""
        t, rev = self.served.table, self.served.rev
        if v.board:
            return rev, board_view(t, rev)
        return rev, referee_view(t, rev) if v.pc is None else player_view(t, v.pc, rev)

    def views_of(self, screens: tuple[Viewer, ...]) -> dict[str, tuple[int, View]]:
        """The views of ``screens`` (on the table's thread), each as ``view_of`` gives it; a screen whose view
        cannot be made is left out (its own call says why)."""
        out = {}
        for w in screens:
            with contextlib.suppress(Exception):
                out[w.key] = self.view_of(w)
        return out

    async def view(self, v: Viewer) -> tuple[int, View]:
        """A screen's view: at a new revision, the views of every screen with a live channel open are made in one
        call to the table's thread (a change reaches eight phones in one turn of that thread, not eight, each
        waiting for the other thread to let go of the interpreter)."""
        served = self.served
        rev = served.rev
        batch = self.watched.get(rev)
        if batch is None:
            self.watched.clear()
            screens = tuple(w for w in served.tokens.all() if served.streams.get(w.key) or w.key == v.key)
            batch = self.watched[rev] = asyncio.ensure_future(served.call(lambda: self.views_of(screens)))
        found = (await asyncio.shield(batch)).get(v.key)
        return found if found is not None else await served.call(lambda: self.view_of(v))

    def panels_of(self, board: Board) -> list[Markup]:
        """A board's panels, drawn once for the screens that show the same board (the players of one side, mostly)."""
        for b, panels in self.drawn_boards:
            if b == board:
                return panels
        panels = [Markup(svg) for svg in board_panels(board, kids=True)]
        self.drawn_boards.append((board, panels))
        return panels

    def live_html(self, v: Viewer, view: View, base: str) -> str:
        served = self.served
        links = []
        board = served.tokens.board
        if v.referee:
            links = [(pc, f"{base}t/{w.token}", i) for i, (pc, w) in enumerate(served.tokens.players.items())]
        return self.env.get_template("board.html" if v.board else "live.html").render(
            view=view, token=v.token, key=_KEY, note=served.notes.get(v.key), referee=v.referee, links=links,
            table_link=f"{base}t/{board.token}" if v.referee and board is not None else None,
            panels=self.panels_of(view.board), legend=_legend(),
            commands=sorted(COMMANDS), conditions=SPELL_CONDITIONS, lines=LIVE_LINES)

    async def draw(self, v: Viewer, base: str) -> _Drawing:
        rev, shown = await self.view(v)
        html = self.live_html(v, shown, base)
        return _Drawing(rev, html, cut(html))

    async def render(self, v: Viewer, base: str) -> _Drawing:
        """A screen's live part, drawn for that screen alone: the page, each answer and each live frame use it.
        Drawn once a revision and screen; a channel that goes away while it is drawn cancels nothing shared."""
        served = self.served
        kept = served.drawings.get(v.key)
        if kept is None or not kept.good(served.rev, base):
            kept = served.drawings[v.key] = _Drawn(served.rev, base, asyncio.ensure_future(self.draw(v, base)))
        return await asyncio.shield(kept.task)

    def issue(self, v: Viewer, html: str) -> str:
        return html.replace(_KEY, self.served.keys.issue(v))

    def who(self, token: str) -> Viewer | None:
        return self.served.tokens.find(token) if 0 < len(token) < 100 else None


def _pages(screens: _Screens) -> APIRouter:
    """The pages: a screen's own and its whole timeline."""
    router = APIRouter()
    served, env, who = screens.served, screens.env, screens.who

    @router.get("/", response_class=PlainTextResponse)
    async def root() -> str:
        return "affray: open the link printed when the page was served (one for the referee, one a player)\n"

    @router.get("/board.css")
    async def board_css() -> Response:
        return Response(CSS, media_type="text/css")

    @router.get("/t/{token}", response_class=HTMLResponse)
    async def page(token: str, request: Request) -> Response:
        v = who(token)
        if v is None:
            return _denied(404, "no such page: open the link printed when the page was served (the referee may "
                           "have reissued it)")
        live = screens.issue(v, (await screens.render(v, str(request.base_url))).html)
        html = env.get_template("page.html").render(live=live, token=v.token, title=_title(v),
                                                    seat="board" if v.board else "referee" if v.referee else "player")
        return HTMLResponse(html)

    @router.get("/t/{token}/timeline", response_class=HTMLResponse)
    async def whole_timeline(token: str) -> Response:
        """Every line of the timeline this screen may see (the live page shows the last ``LIVE_LINES``)."""
        v = who(token)
        if v is None:
            return _denied(404, "no such page")
        _rev, view = await served.call(lambda: screens.view_of(v))
        return HTMLResponse(env.get_template("lines.html").render(view=view, token=v.token, title=_title(v)))

    return router


def _referee_pages(screens: _Screens) -> APIRouter:
    """What only the referee's link opens: the table view's link and the players' QR codes."""
    router = APIRouter()
    served, who = screens.served, screens.who

    @router.get("/t/{token}/board")
    async def board_page(token: str) -> Response:
        """The table view under the referee's link: sent on to its own link, so that a shared screen never shows
        the referee's token."""
        v = who(token)
        board = served.tokens.board
        if v is None or not v.referee or board is None:
            return _denied(404, "no such page")
        return RedirectResponse(f"/t/{board.token}", status_code=303)

    @router.get("/t/{token}/qr/{index}.svg")
    async def qr(token: str, index: int, request: Request) -> Response:
        v = who(token)
        players = list(served.tokens.players.values())
        if v is None or not v.referee or not 0 <= index < len(players):
            return _denied(404, "no such page")
        return Response(_qr(f"{request.base_url}t/{players[index].token}"), media_type="image/svg+xml")

    return router


def _live(screens: _Screens) -> APIRouter:
    """A screen's live channel: a frame at each revision (only what changed), a comment to keep it open."""
    router = APIRouter()
    served, who = screens.served, screens.who

    @router.get("/t/{token}/live")
    async def stream(token: str, request: Request) -> Response:
        v = who(token)
        if v is None:
            return _denied(404, "no such page")
        base = str(request.base_url)

        async def frames() -> AsyncIterator[str]:
            mine = served.open_stream(v)
            try:
                before: Cut | None = None
                seen = -1
                while not served.halted and not mine.ended:
                    if who(token) != v:  # its link was reissued: this screen is shown nothing more
                        return
                    if served.rev != seen:
                        drawing = await screens.render(v, base)
                        yield frame(before, drawing.cut, drawing.rev, served.keys.issue(v))  # tiny if unchanged
                        before, seen = drawing.cut, drawing.rev
                    elif not await served.changed(seen, LIVE_KEEPALIVE):
                        yield ": still here\n\n"  # a comment: a connection gone is found by writing to it
            except Stopped:  # the server stops: the channel ends
                return
            finally:
                served.close_stream(v, mine)

        return StreamingResponse(frames(), media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no", "Cache-Control": "no-store"})

    return router


async def _checked_form(screens: _Screens, request: Request) -> tuple[Viewer, dict[str, str], list[str]] | Response:
    """The form's screen, fields and picked combatants, or the refusal: another site's request, a field too long,
    no such token, the read-only table view, a form key not good."""
    if not _same_origin(request):
        return _denied(403, "refused: a request from another site")
    form = await request.form()
    data = {k: v for k, v in form.items() if isinstance(v, str)}
    picked = [v for v in form.getlist("who") if isinstance(v, str)]  # the group form's combatants and sides
    if any(len(x) > _MAX_FIELD for x in (*data.values(), *picked)):
        return _denied(413, "refused: a field too long")
    v = screens.who(data.get("token", ""))
    if v is None:
        return _denied(403, "refused: no such token")
    if v.board:
        return _denied(403, "refused: the table view is read-only")
    problem = screens.served.keys.take(v, data.get("key", ""))
    if problem is not None:
        return _denied(403, f"refused: {problem}")
    return v, data, picked


def _form(screens: _Screens) -> APIRouter:
    """The one form every screen posts: an answer, a referee's command, new links, a group's declarations."""
    router = APIRouter()
    served = screens.served

    @router.post("/act")
    async def act(request: Request) -> Response:
        checked = await _checked_form(screens, request)
        if isinstance(checked, Response):
            return checked
        v, data, picked = checked
        note: str | None
        if data.get("op") == "links" and v.referee:
            note = await served.call(lambda: _reissue(served, data.get("who", "")))
        elif data.get("op") == "group" and v.referee:
            note = await served.call(lambda: _group(served.table, picked, data))
        else:
            note = await served.call(lambda: _act(served.table, v, data))
        if note is None:
            served.notes.pop(v.key, None)
        else:
            served.notes[v.key] = note
        if served.table.told is not None:  # a policy that failed: the referee is told, whoever acted
            served.notes["referee"], served.table.told = served.table.told, None
        served.bump()
        if request.headers.get("x-affray-live") == "1":  # the page's live channel brings the change (and a key)
            return Response(status_code=204)
        if request.headers.get("hx-request") == "true":
            return HTMLResponse(screens.issue(v, (await screens.render(v, str(request.base_url))).html))
        return RedirectResponse(f"/t/{v.token}", status_code=303)

    return router


@functools.cache
def _legend() -> Markup:
    return Markup(legend_svg())


def _title(v: Viewer) -> str:
    return "the table" if v.board else "the referee" if v.pc is None else v.pc


def _reissue(served: Served, who: str) -> str:
    """The referee's button: a new link for one player character (``who``: its seat, ``pc:NAME``, so that a
    character named ``all`` or ``board`` is only itself), for the table view (``board``) or for every player and
    the table view (``all``); the old ones open nothing any more. On the table's thread."""
    pcs = list(served.tokens.players)
    if who == "all":
        seats = (BOARD, *(pc_seat(pc) for pc in pcs))
    elif who == "board":
        seats = (BOARD,)
    elif who.startswith("pc:") and who[3:] in pcs:
        seats = (who,)
    else:
        return f"{who.removeprefix('pc:')}: no such player's link"
    served.tokens = seat_tokens(served.table, reissue=seats)
    what = "every player's link and the table view's" if who == "all" else (
        "the table view's link" if who == "board" else f"{who[3:]}'s link")
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


def _act(table: Table, v: Viewer, data: dict[str, str]) -> str | None:  # noqa: C901
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
        if verb == "heal-temp":  # the console's `heal NAME N temp`: hit points above the starting ones
            parts = ["heal", *parts[1:3], "temp"]
        return table.command(" ".join(x for x in parts if x))
    return f"{op}: not an operation of the page"


#: Who answers a group's declarations from now on, in the words of the group form's note.
_MODES = {"ask": "asked", "repeat": "repeated", "auto": "played by their policy"}


def _group(table: Table, picked: list[str], data: dict[str, str]) -> str:
    """The referee's group form (on the table's thread): one declaration for the combatants and sides picked, said
    as the console's group line (``NAME, NAME: ENTRY``: the one asked now answers, the others take it at their
    turn), or who answers their declarations from now on (``declare WHO ask|auto|repeat``, one a side or
    combatant picked). What it did, or what is wrong."""
    names = list(dict.fromkeys(w.removeprefix("side:").strip() for w in picked if w.strip()))
    verb = data.get("verb", "")
    if not names:
        return "pick who: one or more combatants, or a whole side"
    if verb in _MODES:
        notes = [table.command(f"declare {n} {verb}") for n in names]
        wrong = [x for x in notes if not x.startswith("done: ")]
        return "; ".join(wrong) if wrong else f"from now on the declarations of {', '.join(names)} are {_MODES[verb]}"
    if verb != "declare":
        return f"{verb}: not a verb of the group form"
    odd = next((n for n in names if "," in n or ":" in n), None)
    if odd is not None:
        return f"{odd}: a name with a comma or a colon cannot be one of a group; declare for it alone"
    entry = data.get("words", "").strip() or _group_entry(data)
    if entry.startswith("!"):
        return entry[1:]
    said = table.command(f"{', '.join(names)}: {entry}")
    if said:
        return said
    _through(table)
    return f"declared for {', '.join(names)}: {entry}"


def _through(table: Table) -> None:
    """After a group's declaration, stepping: on through the declarations that need no word (the group's own, each
    its own step: MJ-03's one after another) to the next one asked, or to the point's end."""
    for _ in range(len(table.session.fight.state.fighters)):
        pause = table.session.paused
        if table.pending is not None or table.session.drive.declaring is None or pause is None or pause.why != "step":
            return
        table.command("step")


def _group_entry(data: dict[str, str]) -> str:
    """The group form's declaration in the console's words (``melee Aldric``, ``move 30``, ``same``), or what is
    missing after a ``!``."""
    action, target, feet = data.get("action", ""), data.get("target", "").strip(), data.get("feet", "").strip()
    if action in ("melee", "missile"):
        return f"{action} {target}" if target else "!choose whom they attack"
    if action == "move":
        if not feet.isdecimal() or len(feet) > 5:
            return "!give how far they move, in feet (a whole number)"
        return f"move {feet}"
    if action in ("wait", "same", "none"):
        return action
    return "!choose their declaration (or say it in words)"


def _declaration(table: Table, data: dict[str, str]) -> str:  # noqa: C901
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
