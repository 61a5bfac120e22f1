"""The fight that was played, as a replay reads it: from a saved fight's journal (``affray play|drive|serve --db``),
rebuilt through the table's store, or from an encounter file's plan and rolls, played as ``affray run FILE --auto``.

What a replay takes from it is what was said and what fell: each combatant's declarations in the order it made them
(``Said``), and with each the dice its attacks and its spell used, those whose meaning no initiative system changes
(an attack's d20, its damage dice, a save, a healing die; the referee's outcome of an attack), read from the events
the fight recorded (every die is recorded with its purpose, G-06).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.api import Prepared, prepare
from affray.engine.events import (
    Cast,
    Declare,
    Down,
    Effect,
    Event,
    Impossible,
    Leave,
    Melee,
    Morale,
    Move,
    Surrender,
)
from affray.engine.fight import Fight, Result
from affray.errors import OptionError
from affray.model.encounter import ACTION_KEYS, Declaration

if TYPE_CHECKING:
    from affray.drive import Drive
    from affray.table import Game

__all__ = ["Played", "Said", "is_database", "played_from_db", "played_from_file", "played_from_game", "said"]

#: What a declaration carries that held for its one moment as played: the referee's outcome, the dice entered, the
#: initiative die of an action (phase-count's d6): a replay gives the dice that fell instead, or none.
ONE_TIME = ("outcome", "dice", "roll")
_SQLITE = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Said:
    """One declaration as made in the played fight: by ``actor``, its ``index``-th (from 0), at event ``seq``
    (``at``: the moment in the played ruleset's words); ``auto``: its policy's, not a person's or the plan's.
    ``entry``: the plan entry, without what held for that moment alone (``ONE_TIME``); ``dice``: one mapping per
    attack or part, as a plan's ``dice`` (``attack``, ``damage``, ``save``, ``heal``), and ``outcomes`` the
    referee's outcomes of its first attacks (a plan's ``outcome``)."""

    actor: str
    index: int
    seq: int
    at: str
    auto: bool
    entry: dict[str, Any]
    dice: tuple[dict[str, int], ...] = ()
    outcomes: tuple[dict[str, Any], ...] = ()

    @property
    def action(self) -> str:
        return next(k for k in ACTION_KEYS if k in self.entry)


@dataclass
class Played:
    """The fight as played: its prepared encounter (ruleset, options, seed), the encounter's text (what a replay
    rewrites), its events and result as they stand, each side's combatants in order (those who joined too), where it
    came from in words, the options it was played with, and the referee's commands it took (their moments have no
    counterpart under another ruleset: not replayed). ``fight``: the fight itself, where it is at hand (its board)."""

    prepared: Prepared
    text: str
    file: str
    events: list[Event]
    result: Result
    sides: dict[str, list[str]]
    source: str
    options: dict[str, Any]
    commands: list[str] = field(default_factory=list)
    fight: Fight[Any] | None = None

    @classmethod
    def of(cls, prepared: Prepared, text: str, file: str, fight: Fight[Any], source: str, options: dict[str, Any],
           commands: list[str] | None = None) -> Played:
        """The fight as it stands now: its events and state taken (a table's fight may go on; this one stays)."""
        sides = {side: [f.name for f in members] for side, members in fight.state.sides.items()}
        return cls(prepared, text, file, list(fight.events), fight.result(), sides, source, options,
                   list(commands or ()), fight)

    @property
    def ruleset(self) -> str:
        return self.prepared.ruleset.id

    @property
    def seed(self) -> int:
        return self.prepared.seed

    @property
    def side_of(self) -> dict[str, str]:
        return {name: side for side, names in self.sides.items() for name in names}


def is_database(path: Path) -> bool:
    """Whether ``path`` is an SQLite database (a saved fight) rather than an encounter file."""
    try:
        with path.open("rb") as fh:
            return fh.read(len(_SQLITE)) == _SQLITE
    except OSError:
        return False


def played_from_file(path: Path, *, seed: int | None = None, max_rounds: int = 50,
                     catalogue: Path | None = None) -> Played:
    """The fight of an encounter file: its plan and rolls, then each side's policy (``affray run FILE --auto``)."""
    from affray.io.load import load_text, read_text

    text = read_text(path)
    loaded = load_text(text, str(path), strict=False, catalogue=catalogue)
    if loaded.encounter.ruleset is None:
        raise OptionError(f"{path}: no `ruleset:`: the fight replayed is the file's, played under the ruleset it "
                          "names (--ruleset names those to replay it under); add `ruleset: ID` to the file")
    prepared = prepare(loaded, seed=seed)
    fight = prepared.fight(auto=True, max_rounds=max_rounds)
    fight.run()
    return Played.of(prepared, text, str(path), fight, f"{path}: its plan, then each side's policy (`affray run "
                     f"{path.name} --auto`)", dict(loaded.encounter.options))


def played_from_db(path: Path, game: int | None = None) -> Played:
    """A saved fight (the latest, or ``game``), rebuilt from its journal as it stands: read only, nothing written."""
    from affray.drive import DicePrefs
    from affray.table import Store, StoreError, open_fight

    if not path.exists():
        raise StoreError(f"{path}: no such database (give a fight saved with `affray play FILE --db PATH`, or an "
                         "encounter file)")
    store = Store(path, write=False)
    try:
        record = store.game(game)
        opened = open_fight(store, record, DicePrefs())
    finally:
        store.close()
    return played_from_game(record, opened.prepared, opened.drive, f"{path}", ended=opened.journal.ended)


def played_from_game(game: Game, prepared: Prepared, drive: Drive, where: str, *, ended: bool) -> Played:
    """A stored fight as its drive stands (opened from its journal, or served by the page)."""
    commands = [str(i.value) for i in drive.inputs if i.kind == "command"]
    state = "ended" if ended or drive.fight.over else "left unfinished"
    options = dict(prepared.loaded.encounter.options)
    options.update(game.options)
    return Played.of(prepared, game.text, game.file, drive.fight, f"fight {game.id} of {where} ({game.file}, {state})",
                     options, commands)


def said(events: Sequence[Event], sides: dict[str, list[str]]) -> list[Said]:  # noqa: C901
    """Every declaration made, in the order made, with the dice each used. A declaration begins something new:
    neither an action carried on (``continuing``) nor a flight forced on the routed or the fleeing, which a replay
    leaves to its own morale and conditions. Each attack, cast or cancelled attack belongs to its actor's latest
    declaration; free attacks (an attack of opportunity, a free blow at a fleer) belong to none. ``sides``: each
    side's combatants in order, to find whom a spell at a side reached."""
    made: list[_Open] = []
    current: dict[str, _Open] = {}
    gone: set[str] = set()
    for seq, e in enumerate(events):
        actor = e.actor
        if isinstance(e, Morale) and e.surrender:
            gone.update(e.members)
        if actor is None:
            continue
        if isinstance(e, (Down, Leave, Surrender)) or (isinstance(e, Move) and e.leaves):
            gone.add(actor)
        if isinstance(e, Declare):
            decl = e.decl
            if decl is None or e.continuing or (not e.consumed and decl.action == "move" and decl.mode == "flee"):
                continue
            k = sum(1 for o in made if o.actor == actor)
            current[actor] = _Open(actor, k, seq, e.at, not e.consumed, _entry(decl))
            made.append(current[actor])
            continue
        o = current.get(actor)
        if o is None:
            continue
        if isinstance(e, Melee) and not e.opportunity:
            o.attack(e)
        elif isinstance(e, Impossible) and o.action in ("melee", "missile"):
            o.dice.append({})  # an attack that could not be made keeps its place among the declaration's attacks
        elif isinstance(e, (Cast, Effect)) and o.action == "cast":
            target = e.target or ""
            o.cast(e, [n for n in sides[target] if n not in gone] if target in sides else [target])
    return [o.said for o in made]


@dataclass
class _Open:
    """A declaration being followed through the fight: the dice of its attacks and its spell, as they come."""

    actor: str
    index: int
    seq: int
    at: str
    auto: bool
    entry: dict[str, Any]
    dice: list[dict[str, int]] = field(default_factory=list)
    outcomes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def action(self) -> str:
        return next(k for k in ACTION_KEYS if k in self.entry)

    @property
    def said(self) -> Said:
        dice = list(self.dice)
        while dice and not dice[-1]:
            dice.pop()
        return Said(self.actor, self.index, self.seq, self.at, self.auto, self.entry, tuple(dice),
                    tuple(self.outcomes))

    def attack(self, e: Melee) -> None:
        d20 = [r.value for r in e.rolls if r.purpose == "attack"]
        damage = [r.value for r in e.rolls if r.purpose == "damage"]
        other = [r for r in e.rolls if r.purpose not in ("attack", "damage")]
        if not d20 and not damage:  # the referee's outcome: an attack no die decided
            if len(self.outcomes) == len(self.dice):  # an outcome holds only before every attack given dice
                self.outcomes.append({"hit": bool(e.hit), "damage": int(e.damage)} if e.hit else {"hit": False})
            self.dice.append({})
            return
        given: dict[str, int] = {}
        if d20:
            given["attack"] = d20[0]
        if damage and not any(r.purpose.startswith("damage") for r in other):  # a critical's rerolls: not the same
            given["damage"] = sum(damage)
        self.dice.append(given)

    def cast(self, e: Cast | Effect, targets: list[str]) -> None:
        """A spell's damage dice (the first mapping's ``damage``) and each target's save by its place among those the
        spell reached (``dice[k].save``), as a plan gives them; an effect landing later (SEG-10) brings the saves."""
        parts: list[dict[str, int]] = list(self.dice) or [{} for _ in targets] or [{}]
        while len(parts) < len(targets):
            parts.append({})
        damage = [r.value for r in e.rolls if r.purpose == "spell damage"]
        if damage:
            parts[0]["damage"] = sum(damage)
        for r in e.rolls:
            if r.purpose == "save" and r.actor in targets:
                parts[targets.index(r.actor)]["save"] = r.value
        self.dice = parts


def _entry(decl: Declaration) -> dict[str, Any]:
    """A declaration as a plan entry, without what held for its moment alone."""
    data = decl.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)
    return {k: v for k, v in data.items() if k not in ONE_TIME}
