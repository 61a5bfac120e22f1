"""A weapon as the fight reads it (``Arms``): the file's ``Weapon`` with its fields copied once into a native class
of the compiled build, read on every attack.

``Weapon`` is a pydantic model: it checks a combatant's weapons and writes them back out. Read from compiled code,
each of its fields costs about 300 instructions (pydantic's ``__getattr__`` hook), a native one a handful; an
attack reads its weapon's name, kind, damage and magic, and the rulesets its speed. The engine and the rulesets
read ``Arms``: ``arms_of`` makes a weapon's, once, and ``Arms.source`` is the weapon itself.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from affray.dice.expr import DiceExpr
from affray.model.encounter import Weapon
from affray.model.view import View, view_of

__all__ = ["Arms", "arms_of"]

#: Where a weapon keeps its arms: in its ``__dict__``, as a cached property would (the model is frozen).
_KEY: Final = "_arms"


def arms_of(w: Weapon) -> Arms:
    """``w`` as the fight reads it: made on first use and kept with it (a weapon has one)."""
    return view_of(w, _KEY, Arms)


class Arms(View):
    """The fields of ``source`` (G-02: name, speed factor or category, damage, reach, kind, rate, magic; the charge,
    set and lance flags; the style and specialisation of Combat II; a natural attack) and what follows from them;
    read-only. Made by ``arms_of``."""

    def __init__(self, source: Weapon) -> None:
        self.source: Final = source
        self.name: Final[str] = source.name
        self.sf: Final[int | None] = source.sf
        self.speed: Final[str | None] = source.speed
        self.damage: Final[DiceExpr] = source.damage
        self.damage_large: Final[DiceExpr | None] = source.damage_large
        self.reach: Final[int] = source.reach
        self.kind: Final[str] = source.kind
        self.rate: Final[Fraction] = source.rate
        self.magic: Final[int] = source.magic
        self.charge: Final[bool | None] = source.charge
        self.set: Final[bool | None] = source.set
        self.lance: Final[bool | None] = source.lance
        self.style: Final[int] = source.style
        self.slots: Final[int] = source.slots
        self.strength: Final[bool | None] = source.strength
        self.natural: Final[bool] = source.natural
        #: Shots carried (None: uncounted) and a missile's range bands in feet (None: unbounded).
        self.ammo: Final[int | None] = source.ammo
        self.range: Final[tuple[int, int, int] | None] = source.range
        #: A missile or thrown weapon; one that can be set against a charge (MJ-13, C2-21); a lance (MJ-17).
        self.is_missile: Final[bool] = source.is_missile
        self.settable: Final[bool] = source.settable
        self.is_lance: Final[bool] = source.is_lance

    def __repr__(self) -> str:
        return f"Arms({self.source!r})"

