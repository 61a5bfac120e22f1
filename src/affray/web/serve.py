"""``affray serve``: open the fight on the table's thread, listen, print one link per screen, serve."""

from __future__ import annotations

import concurrent.futures
import contextlib
import gc
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import TextIO

import uvicorn

from affray.errors import OptionError
from affray.printable import printable
from affray.table.session import PartyKeeper
from affray.table.store import Store
from affray.web.app import Served, seat_tokens
from affray.web.security import Tokens
from affray.web.server import PageServer, make_server, settle_heap
from affray.web.table import Table

__all__ = ["Opening", "close_served", "links", "listen", "open_served", "serve"]


@dataclass(frozen=True)
class Opening:
    """Which fight to serve: a new one (``new``: its file, text, ruleset, seed, options, auto, max rounds) or
    the database's fight ``game`` (None: the latest); ``new_rules``: a fight saved before the rules changed goes on
    under today's (``affray.table.open_fight``)."""

    db: str
    new: tuple[str, str, str, int, dict[str, object], bool, int] | None = None
    game: int | None = None
    new_links: bool = False  # reissue every link (the old ones open nothing any more)
    new_rules: bool = False
    party: PartyKeeper | None = None  # where the fight writes what it left (``--party``)
    code: tuple[str, ...] = ()  # the designer's module:function policies named on the command line


def open_served(opening: Opening) -> Served:
    """The fight opened on a thread of its own (its lock held there); affray's errors come out as they are."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="affray-table")

    def start() -> tuple[Table, Tokens]:
        store = Store(opening.db)
        try:
            game = store.new_game(*opening.new) if opening.new is not None else store.game(opening.game)
            table = Table.open(store, game, new_rules=opening.new_rules, party=opening.party, code=opening.code)
        except BaseException:
            store.close()
            raise
        try:
            return table, seat_tokens(table, renew=opening.new_links)
        except BaseException:
            table.close()
            store.close()
            raise

    try:
        table, tokens = pool.submit(start).result()
    except BaseException:
        pool.shutdown()
        raise
    return Served(table, tokens, pool)


def close_served(served: Served) -> None:
    def stop() -> None:
        served.table.close()
        served.table.store.close()

    served.pool.submit(stop).result()
    served.pool.shutdown()


def listen(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free one); OptionError when it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise OptionError(f"--host {host}: not an address of this machine ({exc})") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(512)
    except OSError as exc:
        sock.close()
        raise OptionError(f"--host {host} --port {port}: cannot listen there: {exc.strerror or exc} (give "
                          "another --port, or 0 for any free one)") from None
    return sock


def links(served: Served, host: str, port: int) -> list[tuple[str, str]]:
    """(who, URL) for the referee, each player character, then the table view (the shared screen's board)."""
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    base = f"http://{shown}:{port}/t/"
    board = [("table view", base + served.tokens.board.token)] if served.tokens.board is not None else []
    return [("referee", base + served.tokens.referee.token)] + [
        (_player(pc), base + v.token) for pc, v in served.tokens.players.items()] + board


#: The words of the seats that are no character's: a player character named so is printed as one.
_SEATS = ("referee", "table view")


def _player(name: str) -> str:
    """A player character's name as its link's line says it: on one line, and never a seat's own word (a character
    named ``referee`` is printed ``referee (player character)``, not as the referee's link)."""
    shown = printable(name).strip()
    return f"{shown} (player character)" if shown.lower() in _SEATS or shown != name else shown


def serve(opening: Opening, host: str, port: int, out: TextIO,
          ready: Callable[[uvicorn.Server], None] | None = None) -> None:
    """Serve until interrupted: the fight stays in its database (``affray serve --db PATH`` serves it again). Ctrl-C
    or SIGTERM stops it whenever it comes: while the fight opens or the server starts, it is not started (or stops at
    its first look)."""
    sock = listen(host, port)
    with _stop_signals() as early:
        try:
            served = open_served(opening)
        except BaseException:
            sock.close()
            raise
        try:
            if served.table.branched is not None:
                out.write(served.table.branched + "\n")
            if served.tokens.note is not None:
                out.write(served.tokens.note + "\n")
            for who, url in links(served, host, sock.getsockname()[1]):
                out.write(f"{who}: {url}\n")
            out.flush()
            if early.came is None:  # stopped before it started: nothing to start
                server = make_server(served)
                early.attach(server)
                if ready is not None:
                    ready(server)
                if early.came is None:
                    settle_heap()
                if early.came is None:
                    server.run(sockets=[sock])
            if early.came is not None:
                gc.freeze()  # the process ends: its heap is not walked again as it goes (seconds, on a busy machine)
            out.write(f"stopped: the fight is saved in {opening.db}; `affray serve --db {opening.db}` serves it again "
                      "(with the same links)\n")
        finally:
            sock.close()
            close_served(served)


class _Early:
    """Ctrl-C or SIGTERM heard before the server listens for them itself (while the fight opens): handed to the
    server once it is made (``attach``), which then stops as soon as it has started."""

    def __init__(self) -> None:
        self.server: PageServer | None = None
        self.came: int | None = None

    def __call__(self, sig: int, frame: FrameType | None) -> None:
        self.came = sig
        if self.server is not None:
            self.server.handle_exit(sig, frame)

    def attach(self, server: PageServer) -> None:
        self.server = server
        if self.came is not None:
            server.handle_exit(self.came, None)


@contextlib.contextmanager
def _stop_signals() -> Iterator[_Early]:
    """``_Early`` listening for Ctrl-C and SIGTERM until the block ends (only the main thread hears signals:
    elsewhere, nothing is changed)."""
    early = _Early()
    if threading.current_thread() is not threading.main_thread():
        yield early
        return
    before = {sig: signal.signal(sig, early) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield early
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
