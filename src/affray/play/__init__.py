"""The referee's console (``affray play``): the table's session at a prompt, journalled to SQLite as it goes."""

from affray.play.console import RefereeConsole

__all__ = ["RefereeConsole"]
