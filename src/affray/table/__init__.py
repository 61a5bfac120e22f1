"""The table: one fight played by a referee and its players, whatever serves it (the console, the page,
``affray drive``): the session that moves it on and takes every answer and command (``session``), its journal
(``journal``) and the database that keeps it (``store``)."""

from affray.table.journal import Recorder, open_drive, open_game, plain_event
from affray.table.session import Out, Pause, Reply, Session, Shown, wins
from affray.table.store import FightBusyError, Game, Journal, Store, StoreError

__all__ = ["FightBusyError", "Game", "Journal", "Out", "Pause", "Recorder", "Reply", "Session", "Shown", "Store",
           "StoreError", "open_drive", "open_game", "plain_event", "wins"]
