"""The seats of a served fight: each screen's secret token, kept with the fight in its database, so that serving it
again prints the same links, until the referee reissues one (which revokes the old).

One small table beside the journal, append-only like it (triggers refuse an update or a delete): a reissued seat
is a new row, and a seat's token is its latest row's. A seat is ``referee``, ``board`` (the shared screen) or
``pc:NAME`` (a player character's screen). Written by the session that holds the fight's writer's lock (the page).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime

from affray.table.store import Store, StoreError

__all__ = ["BOARD", "REFEREE", "issue", "pc_seat", "seats", "settle"]

REFEREE = "referee"
BOARD = "board"

_SEATS = """
CREATE TABLE IF NOT EXISTS seats (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    token TEXT NOT NULL,
    issued TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS seats_game ON seats(game, seat, id);
CREATE TRIGGER IF NOT EXISTS seats_append_only_u BEFORE UPDATE ON seats
    BEGIN SELECT RAISE(ABORT, 'seats are append-only: a new token is a new row'); END;
CREATE TRIGGER IF NOT EXISTS seats_append_only_d BEFORE DELETE ON seats
    BEGIN SELECT RAISE(ABORT, 'seats are append-only: a new token is a new row'); END;
"""


def pc_seat(name: str) -> str:
    return f"pc:{name}"


def _ready(store: Store) -> None:
    try:
        store.db.executescript(_SEATS)
    except sqlite3.Error as exc:
        raise StoreError(f"{store.path}: cannot keep the page's links in this database: {exc}") from None


def seats(store: Store, game: int) -> dict[str, str]:
    """Each seat's current token (its latest row)."""
    _ready(store)
    try:
        rows = store.db.execute("SELECT seat, token FROM seats WHERE game = ? ORDER BY id", (game,)).fetchall()
    except sqlite3.Error as exc:
        raise StoreError(f"{store.path}: fight {game}: the page's links cannot be read ({exc})") from None
    out: dict[str, str] = {}
    for seat, token in rows:
        if isinstance(seat, str) and isinstance(token, str) and 32 <= len(token) < 100:
            out[seat] = token
    return out


def issue(store: Store, game: int, names: Iterable[str]) -> dict[str, str]:
    """New tokens for the seats ``names`` (the old ones no longer open anything), written before this returns."""
    made = {name: secrets.token_urlsafe(24) for name in names}
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    _ready(store)
    try:
        store.db.executemany("INSERT INTO seats (game, seat, token, issued) VALUES (?, ?, ?, ?)",
                             [(game, name, token, when) for name, token in made.items()])
    except sqlite3.Error as exc:
        raise StoreError(f"{store.path}: fight {game}: cannot save the page's links: {exc}") from None
    return made


def settle(store: Store, game: int, names: Iterable[str], *, renew: bool = False) -> dict[str, str]:
    """The tokens of ``names``: those kept with the fight, and new ones for any seat without one (every seat with
    ``renew``: ``affray serve --new-links``)."""
    wanted = list(dict.fromkeys(names))
    kept = {} if renew else seats(store, game)
    missing = [n for n in wanted if n not in kept]
    if missing:
        kept.update(issue(store, game, missing))
    return {n: kept[n] for n in wanted}
