"""What the engine resolves: a ``Step`` (one timed piece of a declaration), and the modifiers of an attack."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

# Imported at run time, not only for the type checker: the compiled build (mypyc) reads the annotations of
# these dataclasses when the module loads, and a name the module does not hold is a crash there.
from affray.dice.expr import DiceExpr
from affray.engine.events import Tick
from affray.engine.state import Fighter
from affray.model.arms import Arms
from affray.model.encounter import Spell
from affray.model.order import Order

__all__ = ["AttackMods", "AttackRoll", "Step", "Until", "counted", "given"]


class Step:
    """One timed piece of a declaration: the engine resolves steps in tick order. ``kind``: melee, missile, cast,
    cast-start, move, misc, wait, delay, or a ruleset's own; ``index``: which attack of the declaration (picks its
    outcome and dice); ``tags``: ruleset facts about the step ("charge", "set", "lance-first"); ``counter``: a
    readied strike that lands just before this step (a set spear); ``amount``: a "wound" step's damage
    (``Rule.lands``); ``cancelled``: withdrawn by its ruleset after it was pushed (the engine skips it silently);
    ``failed``: it came up and did not happen (an ``impossible`` event said why, or its spell was ruined), so the
    action it belongs to did not complete there.

    A plain class with its own ``__init__`` rather than a dataclass: the compiled build builds it by a direct
    call (a dataclass's generated ``__init__`` stays interpreted Python)."""

    __slots__ = ("actor", "amount", "at", "cancelled", "counter", "decl", "failed", "feet", "index", "kind", "mode",
                 "note", "spell", "tags", "target", "tick", "weapon", "why")

    def __init__(self, tick: Tick, actor: Fighter, kind: str, at: str = "", why: str = "",
                 decl: Order | None = None, target: str | None = None, weapon: Arms | None = None,
                 spell: Spell | None = None, index: int = 0, feet: int = 0, mode: str | None = None,
                 tags: frozenset[str] = frozenset(), note: str = "", counter: Step | None = None, amount: int = 0,
                 cancelled: bool = False) -> None:
        self.tick = tick
        self.actor = actor
        self.kind = kind
        self.at = at
        self.why = why
        self.decl = decl
        self.target = target
        self.weapon = weapon
        self.spell = spell
        self.index = index
        self.feet = feet
        self.mode = mode
        self.tags = tags
        self.note = note
        self.counter = counter
        self.amount = amount
        self.cancelled = cancelled
        self.failed = False

    def moved(self, tick: Tick, at: str, why: str) -> Step:
        """The same step at another moment (a ruleset that holds it back pushes this one and cancels itself)."""
        return Step(tick, self.actor, self.kind, at, why, self.decl, self.target, self.weapon, self.spell,
                    self.index, self.feet, self.mode, self.tags, self.note, self.counter, self.amount,
                    self.cancelled)

    def __repr__(self) -> str:
        return f"Step({self.kind} of {self.actor.name} at {self.tick})"


class Until(NamedTuple):
    """A moment an effect ends at: its tick, the ruleset's words for it, and the arithmetic that placed it."""

    tick: Tick
    at: str
    why: str = ""


def counted(n: int, unit: str) -> str:
    """``1 round``, ``3 rounds``: a duration's words in a ``why``."""
    return f"{n} {unit}{'' if n == 1 else 's'}"


def given(step: Step, key: str) -> int | None:
    """A die of ``key`` entered in the declaration's ``dice`` for this attack (None: roll it)."""
    if step.decl is None:
        return None
    dice = step.decl.dice_given
    return dice[step.index].other(key) if step.index < len(dice) else None


class AttackMods:
    """What the rules add to one attack (G-04): sums, and each term with its reason for the detail text."""

    __slots__ = ("ac", "automatic", "damage", "dice_times", "hit", "notes", "subdual")

    def __init__(self) -> None:
        self.automatic: str | None = None  # why the attack hits without a roll (a helpless target, G-09)
        self.hit = 0
        self.ac = 0  # added to the target's AC (+ is worse)
        self.damage = 0
        self.dice_times = 1
        self.subdual = False
        self.notes: list[tuple[str, int, str]] = []

    def add(self, what: str, n: int, why: str) -> None:
        """``what`` is "hit", "ac" or "damage"."""
        if what == "hit":
            self.hit += n
        elif what == "ac":
            self.ac += n
        else:
            self.damage += n
        self.notes.append((what, n, why))

    def text(self, what: str) -> str:
        return "".join(f" {n:+d} ({why})" for w, n, why in self.notes if w == what)


@dataclass(slots=True)
class AttackRoll:
    """One attack roll as it is worked out (G-04): the d20 against the number needed, then the damage. A rule
    that reads the roll (the critical tables) may set ``damage`` and ``text`` first, and leave ``after`` for
    what follows once the attack event is in the log."""

    step: Step
    target: Fighter
    weapon: Arms
    mods: AttackMods
    d20: int
    total: int
    need: int
    hit: bool
    expr: DiceExpr
    given_damage: int | None
    damage: int | None = None  # None: the engine throws the weapon's dice
    text: str = ""  # the damage's arithmetic (a hit) or what a miss set off
    after: Any = None  # a rule's note to itself for ``Rule.struck``
