"""Who may do what on the page: one secret token per screen, one-time form keys, bounded bodies, headers.

The referee's token sees everything and answers anything; a player character's token sees what that character
could know and answers only its own questions. A state-changing request is a POST carrying the token and a form
key the server issued to that token's page (never in a URL): a key is good once, so a replayed request is
refused, and a page of another site cannot know one (nor the token), so it cannot forge one. A request from
another origin is refused outright, and bodies are bounded in size and time (``affray.limits``).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from affray.limits import MAX_BODY, WEB_BODY_SECONDS

__all__ = ["HEADERS", "MAX_BODY", "BodyLimit", "FormKeys", "Tokens", "Viewer"]

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
    #: Said where the links are printed: seats given new links because their kept ones could not be opened here.
    note: str | None = None

    @classmethod
    def make(cls, pcs: list[str]) -> Tokens:
        return cls(Viewer(secrets.token_urlsafe(24), None), {pc: Viewer(secrets.token_urlsafe(24), pc) for pc in pcs},
                   Viewer(secrets.token_urlsafe(24), None, board=True))

    def all(self) -> tuple[Viewer, ...]:
        """Every screen: the referee's, each player's, the table view's."""
        return (self.referee, *self.players.values(), *([self.board] if self.board else []))

    def find(self, token: str) -> Viewer | None:
        """The viewer a token is (compared in constant time), or None."""
        found = None
        for v in self.all():
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
    """ASGI middleware: a request's body is read whole here, before the page sees it: over ``limit`` bytes it is
    refused (413) by its length or as it comes, whatever its transfer encoding (chunked too); a body that takes
    more than ``WEB_BODY_SECONDS`` is refused (408); one sent compressed (``Content-Encoding``) is refused (415).
    The page gets the body as one message: nothing it reads can be too long."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], limit: int = MAX_BODY,
                 seconds: float = WEB_BODY_SECONDS) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:  # noqa: C901
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _refuse(send, 413, f"request body too large: at most {self.limit} bytes")
            return
        if headers.get(b"content-encoding", b"identity").strip().lower() != b"identity":
            await _refuse(send, 415, "a request body is taken as sent, not compressed (Content-Encoding)")
            return
        chunks: list[bytes] = []
        seen = 0
        try:
            async with asyncio.timeout(self.seconds):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client left before its body came
                    chunk = message.get("body", b"")
                    seen += len(chunk)
                    if seen > self.limit:
                        await _refuse(send, 413, f"request body too large: at most {self.limit} bytes")
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(send, 408, f"the request's body did not come within {self.seconds:g} seconds")
            return
        given = False

        async def once() -> MutableMapping[str, Any]:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()  # then what comes next: the client leaving

        await self.app(scope, once, send)


async def _refuse(send: Send, status: int, text: str) -> None:
    body = f"{text}\n".encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
