"""Spell points and slots (C2X-06, C2X-08): a plug-in that pays for spells instead of memorised copies.

Option ``spells``: ``mana`` (points from the table, a spell costs its level, up to the highest level the
caster may cast) or ``slots`` (slots per spell level, any known spell). Pools start from the file's
``mana`` or ``slots`` when given, else the tables (``affray.supplements.c2x.mana.starting_pool``).
"""

from __future__ import annotations

from typing import Any

from affray.engine.state import Memorized, PoolFactory, SpellPool
from affray.model.encounter import Combatant, Spell
from affray.supplements.c2x.mana import starting_pool
from affray.supplements.c2x.options import C2XOptions

__all__ = ["ManaPool", "SlotPool", "pools_for"]


class ManaPool:
    """C2X-06: points; a spell costs its level and must be at most the highest level castable."""

    __slots__ = ("highest", "mana")

    def __init__(self, mana: int, highest: int) -> None:
        self.mana = mana
        self.highest = highest

    def can_cast(self, spell: Spell) -> str | None:
        if spell.level > self.highest:
            return (f"{spell.name} (level {spell.level}) is above the highest level castable, {self.highest} "
                    "(C2X-06)")
        if self.mana < spell.level:
            return f"{self.mana} mana left, {spell.name} costs {spell.level} (C2X-06)"
        return None

    def pay(self, spell: Spell) -> None:
        self.mana -= spell.level

    def final(self) -> dict[str, Any]:
        return {"mana": self.mana}

    def snapshot(self) -> dict[str, Any]:
        return {"mana": self.mana, "highest": self.highest}


class SlotPool:
    """C2X-08: slots by spell level; any known spell of a level with a slot left (a cantrip needs none)."""

    __slots__ = ("slots",)

    def __init__(self, slots: dict[int, int]) -> None:
        self.slots = slots

    def can_cast(self, spell: Spell) -> str | None:
        if spell.level and self.slots.get(spell.level, 0) <= 0:
            return f"no level {spell.level} slot left for {spell.name} (C2X-08)"
        return None

    def pay(self, spell: Spell) -> None:
        if spell.level:
            self.slots[spell.level] -= 1

    def final(self) -> dict[str, Any]:
        return {"slots": {str(k): v for k, v in self.slots.items()}}

    def snapshot(self) -> dict[str, Any]:
        return {"slots": dict(self.slots)}


def pools_for(opt: C2XOptions) -> PoolFactory:
    """Each combatant's pool under option ``spells``: memorised copies, or mana or slots for its casters."""
    if opt.spells == "memorized":
        return Memorized

    def pool(spec: Combatant) -> SpellPool:
        if not spec.spells:
            return Memorized(spec)
        mana, slots, highest = starting_pool(spec, opt.spells, opt.mana_table, opt.starting_mana)
        return ManaPool(mana, highest) if mana is not None else SlotPool(slots or {})

    return pool
