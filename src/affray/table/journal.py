"""A fight's journal as it is written, and a stored fight opened again from it.

Every input the fight records (the dice rolled from the seed among them) and every event it makes is appended to
the database before anyone is shown it, a step's rows in one transaction (``Recorder.flush``); ``end``, ``undo``
and ``branch`` are rows too. ``open_fight`` rebuilds a stored fight from its journal and checks that the rebuilt
events are the stored ones (their words aside: a later affray may word a why or a detail better, ``_same``). Where
they part (the rules changed since the fight was saved, or the journal was changed behind affray's back), nothing
is refused and nothing deleted: ``DivergedError`` says where and why (``Divergence``: the first event that
differs, both versions of it, which affray saved the fight), the stored fight can still be read as it was
(``affray log --stored``), and ``new_rules`` goes on under today's rules from the last point both versions agree
on, the stored rest kept in the database as a branch of the fight.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from affray.api import Prepared, prepare
from affray.drive import DicePrefs, Drive, DriveError, Input
from affray.drive.driven import still_counts
from affray.engine.events import Event
from affray.io.load import load_text
from affray.io.timeline import event_dict
from affray.table.store import (
    FORMAT,
    Game,
    Journal,
    Row,
    Store,
    StoreError,
    affray_version,
    input_row,
)

__all__ = ["DivergedError", "Divergence", "Opened", "Recorder", "branched_text", "open_drive", "open_fight",
           "open_game", "plain_event", "stored_text"]


def plain_event(e: Event, seq: int) -> dict[str, Any]:
    """An event as the journal (and ``affray run --json``, and ``affray drive``) holds it."""
    return json.loads(json.dumps(event_dict(e, seq), ensure_ascii=False))  # type: ignore[no-any-return]


def open_game(game: Game, code: Collection[str] = ()) -> Prepared:
    """The prepared encounter a game was started with (its text is in the database, held to what it was held to
    then); ``code``: the designer's ``module:function`` policies named on the command line, which it may run
    (PolicyError names any other it plays)."""
    loaded = load_text(game.text, game.file, strict=False, stored=True)
    return prepare(loaded, ruleset=game.ruleset, seed=game.seed, options=game.options, code=code)


class Recorder:
    """Keeps one fight's rows (its writer's lock held) until ``flush`` writes them in one transaction; ``journal``
    is the fold of the rows written (what the database holds)."""

    def __init__(self, store: Store, game: Game, journal: Journal) -> None:
        self.store = store
        self.game = game
        self.journal = journal
        self._rows: list[Row] = []
        self._events = len(journal.events)  # the events journalled, those waiting to be written among them
        self._ended = journal.ended

    def _row(self, kind: str, at: int, payload: dict[str, Any]) -> None:
        self._rows.append((kind, at, payload))

    def input(self, i: Input) -> None:
        self._row(*input_row(i))

    def event(self, e: Event) -> int:
        """Journal an event; its number in the timeline."""
        seq = self._events
        self._row("event", seq, plain_event(e, seq))
        self._events = seq + 1
        return seq

    def end(self) -> None:
        if not self._ended:
            self._row("end", self._events, {})
            self._ended = True

    def undo(self, to: int, again: Sequence[Input] = ()) -> None:
        """Back to ``to`` events (the inputs given there and after no longer count), then ``again``: inputs given
        at that very point that still count (``back`` takes back only the last of them)."""
        self._row("undo", to, {})
        self._events, self._ended = to, False
        for i in again:
            self.input(i)

    def opened(self, fresh: Sequence[Input] = (), branch: tuple[int, dict[str, Any]] | None = None) -> None:
        """A writer's session begins: which affray writes from here (``open``), the branch it makes (``branch``:
        back to that many events, with what it says), the inputs the rebuilt fight recorded that the journal lacked
        (the dice of a fight saved before dice were journalled, or rolled anew under changed rules)."""
        self._row("open", self._events, {"affray": affray_version(), "format": FORMAT, "pid": os.getpid(),
                                         "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")})
        if branch is not None:
            to, payload = branch
            self._row("branch", to, payload)
            self._events, self._ended = to, False
        for i in fresh:
            self.input(i)

    def flush(self) -> None:
        """Write the rows kept since the last flush, all in one transaction, then fold them into ``journal``. When
        the write is refused (``StoreError``) nothing of them is written and they are dropped: the fight in memory
        is then ahead of its journal, and whoever holds it must rebuild it from ``journal`` or stop."""
        rows, self._rows = self._rows, []
        if not rows:
            return
        try:
            self.store.write(self.game.id, rows)
        except BaseException:
            self._events, self._ended = len(self.journal.events), self.journal.ended
            raise
        for kind, at, payload in rows:
            self.journal.add(kind, at, payload)


@dataclass(frozen=True)
class Divergence:
    """Where a stored fight and its rebuild under this affray part. ``at``: the first event that differs (or where
    the rebuild stopped, every event before agreeing); ``saved`` and ``now``: that event as stored and as rebuilt
    (None: there is none); ``why``: the recorded input the rebuild could not take, if that is where it stopped;
    ``agreed``: the events kept when the fight goes on under today's rules (the last point at or before ``at``);
    ``rolls``: the first recorded die that no longer fits, if any; ``events``: the events stored."""

    game: Game
    at: int
    agreed: int
    events: int
    saved: dict[str, Any] | None
    now: dict[str, Any] | None
    why: str
    rolls: int | None
    saved_by: str
    branches: int


class DivergedError(StoreError):
    """A stored fight that this affray rebuilds otherwise (``divergence``): nothing was changed."""

    def __init__(self, message: str, divergence: Divergence) -> None:
        super().__init__(message)
        self.divergence = divergence


def stored_text(e: dict[str, Any]) -> list[str]:
    """A stored event in a line or two, as the timeline shows it, read from the journal alone (no rebuild)."""
    who = e.get("actor") or e.get("side") or ("all sides" if e.get("kind") in ("initiative", "surprise") else "-")
    target = f" -> {e['target']}" if e.get("target") is not None else ""
    hit = (f": hit, {e.get('damage', 0)} damage" if e["hit"] else ": miss") if "hit" in e else ""
    detail = f"   {e['detail']}" if e.get("detail") else ""
    lines = [f"{e.get('seq', '?')!s:>4} {e.get('kind', '?')!s:<12} {who}{target}{hit}{detail}"]
    if e.get("why"):
        lines.append(f"       at {e.get('at', '?')}. Why: {e['why']}")
    return lines


def branched_text(path: str, d: Divergence) -> str:
    """What going on under today's rules did, in a line."""
    return (f"fight {d.game.id} goes on under affray {affray_version()}'s rules from event {d.agreed}; the "
            f"{d.events - d.agreed} events saved after it are kept as branch {d.branches + 1} (`affray log --db "
            f"{path} --game {d.game.id} --branch {d.branches + 1}` reads it)")


def _divergence_text(path: str, d: Divergence) -> str:
    game, now = d.game, affray_version()
    head = f"{path}: fight {game.id} was saved by {d.saved_by}; affray {now} plays it differently from event {d.at} " \
           f"on (of {d.events} saved):"
    saved = "\n".join("  saved: " + line.lstrip() if n == 0 else "         " + line.lstrip()
                      for n, line in enumerate(stored_text(d.saved))) if d.saved is not None else \
        "  saved: nothing more (the saved fight ends there)"
    if d.now is not None:
        rebuilt = "\n".join("  now:   " + line.lstrip() if n == 0 else "         " + line.lstrip()
                            for n, line in enumerate(stored_text(d.now)))
    else:
        rebuilt = f"  now:   the fight cannot be rebuilt past it: {d.why.removeprefix('rebuilding the fight: ')}" \
            if d.why else "  now:   nothing more (the fight ends there)"
    same = " (the same version: the journal was changed behind affray's back, or the rules without a new version)" \
        if d.saved_by == f"affray {now}" else ""
    where = f"--db {path} --game {game.id}"
    kept = d.events - d.agreed
    return (f"{head}\n{saved}\n{rebuilt}\nNothing was changed{same}. Read the saved fight as it was:\n"
            f"  affray log {where} --stored\n"
            f"or go on under affray {now}'s rules from event {d.agreed} (the first {d.agreed} events kept; the "
            f"{kept} saved after them stay in the database as branch {d.branches + 1} of fight {game.id}, "
            f"`affray log {where} --branch {d.branches + 1}`):\n"
            f"  affray play {where} --new-rules   (or affray drive, affray serve, with the same options)")


def open_drive(store: Store, game: Game, prepared: Prepared, journal: Journal, dice: DicePrefs) -> Drive:
    """The stored fight rebuilt from its journal (announcing steps and declaration points); DivergedError when the
    rebuild parts from the stored events (or cannot take a recorded input)."""
    drive: Drive | None = None
    try:
        drive = _rebuild(game, prepared, journal.inputs, len(journal.events), dice)
        made, stops, why = drive.fight.events, drive.stops, ""
    except DriveError as exc:
        made, stops, why = exc.events, exc.stops, str(exc)
    rebuilt = [plain_event(e, i) for i, e in enumerate(made)]
    stored = journal.events
    at = next((i for i, (a, b) in enumerate(zip(rebuilt, stored, strict=False)) if not _same(a, b)), None)
    if at is None:
        if drive is not None and drive.strayed is None:
            return drive  # every stored event rebuilt (the rest of a step cut short comes out as new)
        at = min(len(rebuilt), len(stored))
    d = Divergence(game, at, max(s for s in stops if s <= at), len(stored),
                   stored[at] if at < len(stored) else None, rebuilt[at] if at < len(rebuilt) else None, why,
                   drive.strayed if drive is not None else None, journal.written_by(), len(journal.branches))
    raise DivergedError(_divergence_text(store.path, d), d)


#: An event's words: its moment and why in the ruleset's prose (the tick and the fields say the same in figures and
#: names), and its detail, whose figures alone are compared (``_figures``). A later affray may word them better
#: without playing the fight otherwise; a changed die, modifier or total still parts the fight from its saved events.
_WORDS = frozenset({"at", "why", "detail"})
_FIGURE = re.compile(r"\d+")


def _figures(text: Any) -> list[str]:
    """The numbers of an event's detail, in order: its dice, modifiers and totals."""
    return _FIGURE.findall(text) if isinstance(text, str) else []


def _same(rebuilt: dict[str, Any], stored: dict[str, Any]) -> bool:
    """Whether a rebuilt event is the stored one: every field equal but its words (``_WORDS``), and its detail's
    figures."""
    if rebuilt == stored:
        return True
    keys = (rebuilt.keys() | stored.keys()) - _WORDS
    return all(rebuilt.get(k) == stored.get(k) for k in keys) and _figures(rebuilt.get("detail")) == _figures(
        stored.get("detail"))


def _rebuild(game: Game, prepared: Prepared, inputs: Sequence[Input], events: int, dice: DicePrefs) -> Drive:
    return prepared.drive(auto=game.auto, max_rounds=game.max_rounds, announce=True, dice=DicePrefs(dict(dice.by)),
                          inputs=inputs, events=events)


@dataclass
class Opened:
    """A stored fight opened: its encounter, its journal (as folded), its rebuilt fight, and (for a writer) its
    recorder. ``branched``: the divergence it went on from under today's rules, if it did."""

    prepared: Prepared
    journal: Journal
    drive: Drive
    record: Recorder | None
    branched: Divergence | None = None


def open_fight(store: Store, game: Game, dice: DicePrefs, *, new_rules: bool = False,
               code: Collection[str] = ()) -> Opened:
    """Fight ``game`` rebuilt from its journal. A writer (its lock held) begins its session in the journal (an
    ``open`` row, and the dice of the rebuild the journal lacked), in one transaction; a reader writes nothing.
    DivergedError when this affray rebuilds it otherwise, unless ``new_rules`` (a writer): then the fight goes on
    from the last point both agree on, the stored rest kept as a branch. ``code``: as ``open_game``'s."""
    prepared = open_game(game, code)
    journal = store.journal(game.id)
    branched: Divergence | None = None
    try:
        drive = open_drive(store, game, prepared, journal, dice)
        given = len(journal.inputs)
    except DivergedError as exc:
        if not (new_rules and store.writes):
            raise
        branched = d = exc.divergence
        kept = [i for i in journal.inputs if still_counts(i, d.agreed)
                and not (i.kind == "roll" and d.rolls is not None and i.key is not None and i.key[1] >= d.rolls)]
        try:
            drive = _rebuild(game, prepared, kept, d.agreed, dice)
        except DriveError as again:  # pragma: no cover - the same inputs rebuilt the same events a moment ago
            raise StoreError(f"{store.path}: fight {game.id} cannot go on under today's rules: {again}") from None
        given = len(kept)
    if not store.writes:
        return Opened(prepared, journal, drive, None)
    record = Recorder(store, game, journal)
    branch = None
    if branched is not None:
        payload: dict[str, Any] = {"events": branched.events, "parted": branched.at, "saved_by": branched.saved_by,
                                   "affray": affray_version()}
        if branched.rolls is not None:
            payload["rolls"] = branched.rolls
        branch = (branched.agreed, payload)
    record.opened(drive.inputs[given:], branch)
    record.flush()
    return Opened(prepared, journal, drive, record, branched)
