"""A declaration as the fight reads it (``Order``): the file's ``Declaration`` with its fields copied once into a
native class of the compiled build, read on every step.

``Declaration`` is a pydantic model: it checks a plan's entries and writes them back out (the timeline, the
console). Read from compiled code, each of its fields costs about 300 instructions (pydantic's ``__getattr__``
hook), a native one a handful; a fight reads a declaration a dozen times. The engine and the rulesets read
``Order``s: ``order_of`` makes a declaration's, once, and ``Order.source`` is the declaration itself, for what is
written out.
"""

from __future__ import annotations

from typing import Any, Final

from affray.model.encounter import Declaration, DiceGiven, Outcome
from affray.model.view import View, view_of

__all__ = ["Order", "order_of"]

#: Where a declaration keeps its order: in its ``__dict__``, as a cached property would (the model is frozen).
_KEY: Final = "_order"


def order_of(d: Declaration) -> Order:
    """``d`` as the fight reads it: made on first use and kept with it, so a declaration has one order (the fight
    knows an action by its order's identity)."""
    return view_of(d, _KEY, Order)


class Order(View):
    """The fields of ``source`` (CONTRACT.md "Declarations"), its action, target, ruleset keys (``extra``), the
    referee's outcomes and dice; read-only. Made by ``order_of``."""

    def __init__(self, source: Declaration) -> None:
        self.source: Final = source
        self.melee: Final[str | None] = source.melee
        self.missile: Final[str | None] = source.missile
        self.cast: Final[str | None] = source.cast
        self.move: Final[int | None] = source.move
        self.misc: Final[str | None] = source.misc
        self.wait: Final[str | bool | None] = source.wait
        self.none: Final[bool | None] = source.none
        self.weapon: Final[str | None] = source.weapon
        self.charge: Final[bool] = source.charge
        self.distance: Final[int] = source.distance
        self.at: Final[str | None] = source.at
        self.to: Final[tuple[int, int] | None] = source.to
        self.toward: Final[str | None] = source.toward
        self.away: Final[str | None] = source.away
        self.mode: Final[str | None] = source.mode
        self.speed: Final[int | str | None] = source.speed
        self.roll: Final[int | None] = source.roll
        self.action: Final[str] = source.action
        self.target: Final[str | None] = source.target
        self.extra: Final[dict[str, Any]] = source.extra
        self.outcomes: Final[tuple[Outcome, ...]] = source.outcomes
        self.dice_given: Final[tuple[DiceGiven, ...]] = source.dice_given

    def changed(self, **update: Any) -> Order:
        """The same declaration with some fields or ruleset keys changed (``charge=False``, ``set=False``)."""
        return order_of(self.source.changed(**update))


    def __repr__(self) -> str:
        return f"Order({self.source!r})"
