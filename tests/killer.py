"""``python tests/killer.py ARGS...``: affray's command line (``affray ARGS...``) that kills itself with SIGKILL
at a chosen moment of its writes, for tests/test_nothing_lost.py. ``KILL_AT_ROW=N``: just before it inserts the
N-th journal row of this process, inside that row's transaction (between two rows of one step, unless it is the
first of its transaction); with ``KILL_NOTE=PATH``, it first writes there where the row stood in its transaction
("ROW SIZE": the row's place and the transaction's number of rows). Without ``KILL_AT_ROW`` it is affray itself.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from affray.table.store import Row, Store

AT = int(os.environ.get("KILL_AT_ROW", "0"))
NOTE = os.environ.get("KILL_NOTE")
_seen = [0, 0, 0]  # rows inserted by this process, the place in the current transaction, its size
_write, _insert = Store.write, Store._insert


def write(self: Store, game: int, rows: Sequence[Row]) -> None:
    _seen[1], _seen[2] = 0, len(rows)
    _write(self, game, rows)


def insert(self: Store, game: int, row: Row) -> None:
    _seen[0] += 1
    _seen[1] += 1
    if _seen[0] == AT:
        if NOTE:
            Path(NOTE).write_text(f"{_seen[1]} {_seen[2]}\n", encoding="ascii")
        os.kill(os.getpid(), signal.SIGKILL)
    _insert(self, game, row)


if AT:
    Store.write = write  # type: ignore[method-assign]
    Store._insert = insert  # type: ignore[method-assign]

if __name__ == "__main__":
    from affray.cli.app import main

    sys.argv = ["affray", *sys.argv[1:]]
    main()
