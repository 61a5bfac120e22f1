"""The referee's "replay under..." (``/t/{token}/replay``): the served fight played again under other rulesets and
shown side by side, as ``affray replay`` shows it. The referee's alone; the fight is taken as it stands on the
table's thread and replayed on a worker thread, so the table goes on meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from jinja2 import Environment

from affray.replay.mapping import ordinal
from affray.rulesets import ruleset_ids

if TYPE_CHECKING:
    from affray.replay.played import Played
    from affray.web.security import Viewer
    from affray.web.table import Table

__all__ = ["add_replay"]


def add_replay(app: FastAPI, env: Environment, who: Callable[[str], Viewer | None],
               call: Callable[[Callable[[], Any]], Awaitable[Any]], table: Callable[[], Table]) -> None:
    """The route, on ``app``: ``who`` finds a screen by its token, ``call`` runs on the table's thread, ``table``
    is the served table."""

    @app.get("/t/{token}/replay", response_class=HTMLResponse)
    async def replay_page(token: str, ruleset: Annotated[list[str] | None, Query()] = None) -> Response:
        v = who(token)
        if v is None or not v.referee:
            return PlainTextResponse("no such page\n", status_code=404)
        known = ruleset_ids()
        played: Played = await call(lambda: _played(table()))
        chosen = list(dict.fromkeys(r for r in (ruleset or [])[:len(known)] if r in known))
        report = None
        if chosen:
            from affray.replay.report import replay_all

            report = await asyncio.to_thread(replay_all, played, chosen)
        html = env.get_template("replay.html").render(
            token=v.token, title="the referee", played=played, choices=known, chosen=chosen, report=report,
            ordinal=ordinal)
        return HTMLResponse(html)


def _played(t: Table) -> Played:
    """The served fight as it stands (on the table's thread)."""
    from affray.replay.played import played_from_game
    from affray.table import open_game

    session = t.session
    return played_from_game(t.game, open_game(t.game), session.drive, t.store.path, ended=t.over)
