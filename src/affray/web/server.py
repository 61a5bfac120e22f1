"""The page's HTTP server: uvicorn, with the limits a table needs against careless and hostile clients.

uvicorn times out an idle kept-alive connection, but not one that never sends a request, nor one that sends its
head a byte at a time: a thousand such connections would hold every file the process may open, and lock the
referee out. Here each connection has ``WEB_HEAD_SECONDS`` to send a request's head (from its opening, and again
from the end of each answer); past ``MAX_CONNECTIONS`` open at once, the oldest of those still waiting for a head
is closed to make room (never a request being answered, nor a live page: a screen holds at most ``MAX_STREAMS``
live channels). Bodies are bounded by ``BodyLimit``. A server that stops ends its live channels first
(``Served.halt``), so that it stops within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import resource
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from affray.limits import MAX_CONNECTIONS, WEB_HEAD_SECONDS, WEB_IDLE_SECONDS
from affray.web.app import Served, make_app
from affray.web.security import BodyLimit

__all__ = ["PageServer", "connection_cap", "make_server", "settle_heap"]

#: Collections of the middle generation between two full ones (Python's default: 10).
_FULL_PASSES = 1000
#: Seconds a stopping server waits for the requests under way (a form's answer takes milliseconds).
_GRACE = 0.3
#: Files the process keeps for itself besides its connections (the database, its journal, the listening socket...).
_SPARE_FILES = 64


def connection_cap() -> int:
    """Connections the server keeps open at once: ``MAX_CONNECTIONS``, or fewer where the process may open fewer
    files (its limit is raised to what the system allows first)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = MAX_CONNECTIONS + _SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < want:
        raised = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):  # pragma: no cover - a system that refuses: the cap comes down instead
            pass
    return MAX_CONNECTIONS if soft == resource.RLIM_INFINITY else max(8, min(MAX_CONNECTIONS, soft - _SPARE_FILES))


class _Guarded(H11Protocol):
    """uvicorn's HTTP/1.1 connection, with a deadline for each request's head and a place in the server's cap."""

    cap = MAX_CONNECTIONS
    head_seconds = WEB_HEAD_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._opened = time.monotonic()
        self._deadline: asyncio.TimerHandle | None = None

    def _waiting(self) -> bool:
        """Waiting for a request's head: none came yet, or the last one is answered."""
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.head_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self._waiting() and not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()
        over = len(self.connections) - self.cap
        if over > 0:  # make room: the longest waiting for a head go first, the newcomer last
            idle = sorted((c for c in self.connections if isinstance(c, _Guarded) and c is not self and c._waiting()
                           and not c.transport.is_closing()), key=lambda c: c._opened)
            for c in [*idle, self][:over]:
                c.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self._waiting():  # a request's head came: it is answered, however long that takes
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._waiting():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class PageServer(uvicorn.Server):
    """uvicorn's server for one served fight: stopping ends the fight's live channels first."""

    def __init__(self, config: uvicorn.Config, served: Served) -> None:
        super().__init__(config)
        self.served = served

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Ctrl-C and SIGTERM stop the server, as uvicorn's do; but then the process goes on to close the fight and
        say where it is saved, where uvicorn would raise the signal again and die of it."""
        with super().capture_signals():
            try:
                yield
            finally:  # however the server ended, the signal it caught is handled: never raised again to kill it
                self._captured_signals.clear()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """A signal to stop: besides uvicorn's flag (its loop looks at it every 0.1 s, later when busy), the table's
        work stops at once: what is queued for its thread is dropped, a fight moving on stops after its step, and
        every request still to reach the table is answered 503 at once rather than drawn (``Served.call``)."""
        super().handle_exit(sig, frame)
        self.served.halted = True
        self.served.table.stopping = True

    async def shutdown(self, sockets: list[Any] | None = None) -> None:
        """The live channels end now; a request still coming in (a body that does not come) is cut off after
        ``_GRACE`` seconds, so that the server stops within a second whatever its clients do."""
        self.served.halt()
        cut = asyncio.get_running_loop().call_later(_GRACE, self._cut_off)
        try:
            await super().shutdown(sockets)
        finally:
            cut.cancel()

    def _cut_off(self) -> None:
        for connection in list(self.server_state.connections):
            transport = getattr(connection, "transport", None)
            if isinstance(transport, asyncio.Transport) and not transport.is_closing():
                transport.close()


def settle_heap() -> None:
    """For a process that serves: everything made so far (the libraries, the fight as opened) lives as long as the
    server, and is kept out of the collector's full passes, which otherwise walk it all, now and then, in the
    middle of an update (215 ms at worst in ``benchmarks/bench_live.py``); and full passes come a hundred times
    less often (what the fight keeps growing, a pass walks it all: 25 ms late in a 300-event fight). Garbage
    without cycles goes at once, whatever the collector; the page makes little with cycles."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, _FULL_PASSES)


def make_server(served: Served, *, cap: int | None = None, head_seconds: float = WEB_HEAD_SECONDS) -> PageServer:
    """The page's server for ``served`` (``cap``: the connections kept at once, default ``connection_cap()``)."""
    guarded = type("Guarded", (_Guarded,), {"cap": cap if cap is not None else connection_cap(),
                                           "head_seconds": head_seconds})
    config = uvicorn.Config(BodyLimit(make_app(served)), http=guarded, log_level="warning", access_log=False,
                            lifespan="off", timeout_keep_alive=int(WEB_IDLE_SECONDS), timeout_graceful_shutdown=1)
    return PageServer(config, served)
