"""The referee's console (``affray play``): a fight run at the table, journalled to SQLite as it goes."""

from affray.play.session import Session, open_game
from affray.play.store import Game, Journal, Store, StoreError

__all__ = ["Game", "Journal", "Session", "Store", "StoreError", "open_game"]
