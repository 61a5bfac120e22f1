"""The seats of a served fight: each screen's secret token, kept with the fight in its database, so that serving it
again prints the same links, until the referee reissues one (which revokes the old).

The ``links`` table of the fight's database (``affray.table.store.LINKS``), append-only like the journal (triggers
refuse an update or a delete): a reissued seat is a new row, and a seat's link is its latest row's. A row keeps the
token's digest and the token sealed under the user's key (``affray.table.links``), never the token itself. A seat is
``referee``, ``board`` (the shared screen) or ``pc:NAME`` (a player character's screen). Written by the session that
holds the fight's writer's lock (the page).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime

from affray.table.links import digest, link_key, seal, unseal
from affray.table.store import LINKS, Store, StoreError

__all__ = ["BOARD", "REFEREE", "issue", "pc_seat", "seats", "settle"]

REFEREE = "referee"
BOARD = "board"


def pc_seat(name: str) -> str:
    return f"pc:{name}"


def _ready(store: Store) -> None:
    try:
        for sql in LINKS:
            store.db.execute(sql)
    except sqlite3.Error as exc:
        raise StoreError(f"{store.path}: cannot keep the page's links in this database: {exc}") from None


def _latest(store: Store, game: int) -> dict[str, tuple[object, object]]:
    """Each seat's latest row: (digest, sealed)."""
    _ready(store)
    try:
        rows = store.db.execute("SELECT seat, digest, sealed FROM links WHERE game = ? ORDER BY id", (game,)).fetchall()
    except sqlite3.Error as exc:
        raise StoreError(f"{store.path}: fight {game}: the page's links cannot be read ({exc})") from None
    return {seat: (known, sealed) for seat, known, sealed in rows if isinstance(seat, str)}


def seats(store: Store, game: int, lost: list[str] | None = None) -> dict[str, str]:
    """Each seat's current token (its latest row's, opened with the user's key); a seat whose token cannot be
    opened here is left out (and named in ``lost``)."""
    key = link_key()
    out: dict[str, str] = {}
    for seat, (known, sealed) in _latest(store, game).items():
        token = unseal(sealed, key, known)
        if token is not None and 32 <= len(token) < 100:
            out[seat] = token
        elif lost is not None:
            lost.append(seat)
    return out


def issue(store: Store, game: int, names: Iterable[str]) -> dict[str, str]:
    """New tokens for the seats ``names`` (the old ones no longer open anything), written before this returns."""
    made = {name: secrets.token_urlsafe(24) for name in names}
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    key = link_key()
    _ready(store)
    try:
        store.db.executemany("INSERT INTO links (game, seat, digest, sealed, issued) VALUES (?, ?, ?, ?, ?)",
                             [(game, name, digest(token), seal(token, key) if key is not None else None, when)
                              for name, token in made.items()])
    except sqlite3.Error as exc:
        raise StoreError(f"{store.path}: fight {game}: cannot save the page's links: {exc}") from None
    return made


def settle(store: Store, game: int, names: Iterable[str], *, renew: bool = False,
           lost: list[str] | None = None) -> dict[str, str]:
    """The tokens of ``names``: those kept with the fight, and new ones for any seat without one (every seat with
    ``renew``: ``affray serve --new-links``), or whose token cannot be opened here (named in ``lost``: the key
    that sealed it is another account's or machine's)."""
    wanted = list(dict.fromkeys(names))
    unopened: list[str] = []
    kept = {} if renew else seats(store, game, unopened)
    if lost is not None:
        lost.extend(s for s in unopened if s in wanted)
    missing = [n for n in wanted if n not in kept]
    if missing:
        kept.update(issue(store, game, missing))
    return {n: kept[n] for n in wanted}
