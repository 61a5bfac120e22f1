"""One injected, seeded roller: every die goes through it and is recorded with its purpose (G-06)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from affray.dice.expr import DiceExpr

__all__ = ["Chance", "DieProvider", "Roll", "Roller"]


class Roll(NamedTuple):
    """One die (or one group's total when entered as a total): what for, whose, which die, what it showed."""

    purpose: str
    actor: str | None
    die: str
    value: int
    source: str  # "rng", "file" (entered in the encounter file) or "referee"


#: Asked before the RNG: (sides, count, purpose, actor) -> the total shown, or None to roll.
DieProvider = Callable[[int, int, str, "str | None"], "int | None"]
#: Told of each die the RNG rolled: (sides, purpose, actor, face) -> the face that counts (a saved fight's journal
#: gives back the face it recorded, so that a replay never depends on the order of the RNG's calls).
Chance = Callable[[int, str, "str | None", int], int]


class Roller:
    """Rolls from its own ``random.Random(seed)``; a value given by the file or the referee replaces the roll."""

    __slots__ = ("_pending", "_random", "chance", "provider", "record", "seed")

    def __init__(self, seed: int, *, record: bool = True, provider: DieProvider | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed).random
        self.record = record
        #: Asked for every die the file does not give (the referee at the table); None: roll it.
        self.provider = provider
        #: Told of every die rolled from the seed, one die at a time (the table's journal); None: the RNG decides.
        self.chance: Chance | None = None
        self._pending: list[Roll] = []

    def die(self, sides: int, purpose: str, actor: str | None = None, given: int | None = None, *,
            source: str = "file", ask: bool = True) -> int:
        """One die of ``sides`` faces, or ``given`` when the table already rolled it (``source`` says who:
        the file or the referee); ``ask=False``: the provider was already asked."""
        if given is None and ask and self.provider is not None:
            given = self.provider(sides, 1, purpose, actor)
            source = "referee"
        if given is None:
            value = int(self._random() * sides) + 1
            if self.chance is not None:
                value = self.chance(sides, purpose, actor, value)
            source = "rng"
        else:
            value = given
        if self.record:
            self._pending.append(Roll(purpose, actor, f"d{sides}", value, source))
        return value

    def dice(self, expr: DiceExpr, purpose: str, actor: str | None = None, *,
             times: int = 1, given: int | None = None, source: str = "file") -> int:
        """The dice part of ``expr`` thrown ``times`` over (a charge throws twice the dice); bonus not added.
        ``given``: their total as rolled at the table (``source`` says who gave it)."""
        if given is not None or self.provider is not None:
            count = sum(n for n, _ in expr.groups) * times
            sides = expr.groups[0][1] if len(expr.groups) == 1 else 0
            if given is None and self.provider is not None and sides:
                given = self.provider(sides, count, purpose, actor)
                source = "referee"
            if given is not None:
                if self.record:
                    self._pending.append(Roll(purpose, actor, f"{count}d{sides}" if sides else expr.text,
                                              given, source))
                return given
        total = 0
        rnd = self._random
        chance = self.chance
        for n, sides in expr.groups:
            for _ in range(n * times):
                v = int(rnd() * sides) + 1
                if chance is not None:
                    v = chance(sides, purpose, actor, v)
                total += v
                if self.record:
                    self._pending.append(Roll(purpose, actor, f"d{sides}", v, "rng"))
        return total

    def asked(self, expr: DiceExpr, purpose: str, actor: str | None = None, *, times: int = 1) -> int | None:
        """The total of ``expr``'s dice thrown ``times`` over as the provider gives it (rolled at the table, a
        procedure of its own included, such as rerolling minimums), or None: nobody gives it, roll it."""
        if self.provider is None or len(expr.groups) != 1:
            return None
        n, sides = expr.groups[0]
        return self.provider(sides, n * times, purpose, actor)

    def take(self) -> tuple[Roll, ...]:
        """The dice rolled since the last call, to attach to the event they decided."""
        if not self._pending:
            return ()
        out = tuple(self._pending)
        self._pending.clear()
        return out
