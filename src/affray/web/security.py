"""Who may do what on the page: one secret token per screen, one-time form keys, bounded bodies, headers.

The referee's token sees everything and answers anything; a player character's token sees what that character
could know and answers only its own questions. A state-changing request is a POST carrying the token and a form
key the server issued to that token's page (never in a URL): a key is good once, so a replayed request is
refused, and a page of another site cannot know one (nor the token), so it cannot forge one. A request from
another origin is refused outright, and bodies are bounded.
"""

from __future__ import annotations

import hmac
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["HEADERS", "MAX_BODY", "BodyLimit", "FormKeys", "Tokens", "Viewer"]

#: The largest request body taken (bytes): a form of the page is a few hundred.
MAX_BODY = 16 * 1024

#: Sent with every answer: nothing from elsewhere runs, nothing is framed, nothing is kept or referred.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass(frozen=True)
class Viewer:
    """Who a token is: the referee (``pc`` None), one player character, or the shared screen (``board``: the
    table view, read-only, what the players' side may know)."""

    token: str
    pc: str | None
    board: bool = False

    @property
    def key(self) -> str:
        return "board" if self.board else "referee" if self.pc is None else f"pc:{self.pc}"

    @property
    def referee(self) -> bool:
        return self.pc is None and not self.board


@dataclass
class Tokens:
    """The screens' secret tokens: kept with the fight (``affray.table.seats``), or made fresh (``make``)."""

    referee: Viewer
    players: dict[str, Viewer]
    board: Viewer | None = None

    @classmethod
    def make(cls, pcs: list[str]) -> Tokens:
        return cls(Viewer(secrets.token_urlsafe(24), None), {pc: Viewer(secrets.token_urlsafe(24), pc) for pc in pcs},
                   Viewer(secrets.token_urlsafe(24), None, board=True))

    def find(self, token: str) -> Viewer | None:
        """The viewer a token is (compared in constant time), or None."""
        found = None
        for v in (self.referee, *self.players.values(), *([self.board] if self.board else [])):
            if hmac.compare_digest(v.token.encode(), token.encode("utf-8", "replace")):
                found = v
        return found


@dataclass
class FormKeys:
    """One-time keys for a screen's forms: issued with each rendering (the last ``keep`` stay good), each
    taken once."""

    keep: int = 32
    issued: dict[str, deque[str]] = field(default_factory=dict)

    def issue(self, viewer: Viewer) -> str:
        key = secrets.token_urlsafe(18)
        self.issued.setdefault(viewer.key, deque(maxlen=self.keep)).append(key)
        return key

    def take(self, viewer: Viewer, key: str) -> str | None:
        """None when ``key`` was issued to ``viewer`` and not yet used (it is used now); else why not."""
        keys = self.issued.get(viewer.key, deque())
        for k in keys:
            if hmac.compare_digest(k.encode(), key.encode("utf-8", "replace")):
                keys.remove(k)
                return None
        return "this form was already sent, or is too old, or is not this page's: reload the page"


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused (413), by its length or as it comes."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _refuse(send)
            return
        seen = 0

        async def bounded() -> MutableMapping[str, Any]:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, bounded, send)
        except _TooLarge:
            await _refuse(send)


class _TooLarge(Exception):
    pass


async def _refuse(send: Send) -> None:
    body = f"request body too large: at most {MAX_BODY} bytes\n".encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})
