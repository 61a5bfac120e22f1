"""The referee's console (``affray play``): a fight run at the table, journalled to SQLite as it goes."""

from affray.play.session import Session, open_game
from affray.play.store import FightBusyError, Game, Journal, Store, StoreError

__all__ = ["FightBusyError", "Game", "Journal", "Session", "Store", "StoreError", "open_game"]
