"""The table's web page (``affray serve``): the referee's screen and one page per player character, live, on
the same journal as the console, showing each player only what its character could know."""

from affray.web.app import Served, make_app
from affray.web.serve import Opening, open_served, serve
from affray.web.table import Table

__all__ = ["Opening", "Served", "Table", "make_app", "open_served", "serve"]
