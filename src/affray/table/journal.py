"""A fight's journal as it is written, and a stored fight opened again from it.

Every input the fight records and every event it makes is appended to the database as it happens (before
anyone is shown it); ``end`` and ``undo`` are rows too. ``open_drive`` rebuilds a stored fight from its
journal and checks that the rebuilt events are the stored ones.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from affray.api import Prepared, prepare
from affray.drive import DicePrefs, Drive, DriveError, Input
from affray.engine.events import Event
from affray.io.load import load_text
from affray.io.timeline import event_dict
from affray.table.store import Game, Journal, Store, StoreError, input_row

__all__ = ["Recorder", "open_drive", "open_game", "plain_event"]


def plain_event(e: Event, seq: int) -> dict[str, Any]:
    """An event as the journal (and ``affray run --json``, and ``affray drive``) holds it."""
    return json.loads(json.dumps(event_dict(e, seq), ensure_ascii=False))  # type: ignore[no-any-return]


def open_game(game: Game) -> Prepared:
    """The prepared encounter a game was started with (its text is in the database)."""
    loaded = load_text(game.text, game.file, strict=False)
    return prepare(loaded, ruleset=game.ruleset, seed=game.seed, options=game.options)


class Recorder:
    """Appends one fight's rows (its writer's lock held) and keeps ``journal`` the fold of them."""

    def __init__(self, store: Store, game: Game, journal: Journal) -> None:
        self.store = store
        self.game = game
        self.journal = journal

    def _row(self, kind: str, at: int, payload: dict[str, Any]) -> None:
        self.store.append(self.game.id, kind, at, payload)
        self.journal.add(kind, at, payload)

    def input(self, i: Input) -> None:
        self._row(*input_row(i))

    def event(self, e: Event) -> int:
        """Journal an event; its number in the timeline."""
        seq = len(self.journal.events)
        self._row("event", seq, plain_event(e, seq))
        return seq

    def end(self) -> None:
        if not self.journal.ended:
            self._row("end", len(self.journal.events), {})

    def undo(self, to: int, again: Sequence[Input] = ()) -> None:
        """Back to ``to`` events (the inputs given there and after no longer count), then ``again``: inputs given
        at that very point that still count (``back`` takes back only the last of them)."""
        self._row("undo", to, {})
        for i in again:
            self.input(i)


def open_drive(store: Store, game: Game, prepared: Prepared, journal: Journal, dice: DicePrefs) -> Drive:
    """The stored fight rebuilt from its journal (announcing steps and declaration points); StoreError when it no
    longer fits it."""
    try:
        drive = prepared.drive(auto=game.auto, max_rounds=game.max_rounds, announce=True, dice=dice,
                               inputs=journal.inputs, events=len(journal.events))
    except DriveError as exc:
        raise StoreError(f"{store.path}: fight {game.id} is damaged: {exc}; the other fights are not "
                         "affected") from None
    rebuilt = [plain_event(e, i) for i, e in enumerate(drive.fight.events)]
    stored = journal.events
    if rebuilt != stored:
        seq = next((i for i, (a, b) in enumerate(zip(rebuilt, stored, strict=False)) if a != b),
                   min(len(rebuilt), len(stored)))
        raise StoreError(f"{store.path}: fight {game.id} does not replay to its stored event {seq} "
                         "(was it played with another version of affray?)")
    return drive
