"""The table: one fight played by a referee and its players, whatever serves it (the console, the page,
``affray drive``): the session that moves it on and takes every answer and command (``session``), its journal
(``journal``) and the database that keeps it (``store``)."""

from affray.table.journal import (
    DivergedError,
    Divergence,
    Opened,
    Recorder,
    branched_text,
    open_drive,
    open_fight,
    open_game,
    plain_event,
    stored_text,
)
from affray.table.session import Out, Pause, Reply, Session, Shown, wins
from affray.table.store import FightBusyError, Game, Journal, Store, StoreBusyError, StoreError, StoreGoneError

__all__ = ["DivergedError", "Divergence", "FightBusyError", "Game", "Journal", "Opened", "Out", "Pause", "Recorder",
           "Reply", "Session", "Shown", "Store", "StoreBusyError", "StoreError", "StoreGoneError", "branched_text",
           "open_drive", "open_fight", "open_game", "plain_event", "stored_text", "wins"]
