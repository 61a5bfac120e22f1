"""Quickness (C2X-01): AGI or DEX, and the AC a combatant gives up when shield and DEX bonus do not count."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from affray.engine.state import Fighter
from affray.model.derive import dex_defense_adjustment
from affray.supplements.c2x.options import c2x_options

if TYPE_CHECKING:
    from affray.engine.fight import Fight

__all__ = ["agility", "unshielded_ac"]


def agility(fight: Fight[Any], f: Fighter) -> tuple[int, str]:
    """The score for quickness (initiative reaction adjustment, AC bonus, "AGI checks"): AGI under option
    ``c2x.agility`` when the combatant has one, else DEX (C2X-01)."""
    if c2x_options(fight.ruleset).agility and f.spec.agi is not None:
        return f.spec.agi, "AGI"
    return f.dex, "DEX"


def unshielded_ac(fight: Fight[Any], f: Fighter, *, dex: bool) -> tuple[int, str]:
    """AC worsening when shield (and DEX bonus, AGI's with the Agility option, if ``dex``) do not count:
    (+n, reason)."""
    worse = 1 if f.shield is not None else 0
    parts = ["shield"] if worse else []
    if dex:
        score, ability = agility(fight, f)
        d = dex_defense_adjustment(score)
        if d < 0:
            worse -= d
            parts.append(ability)
    return worse, " and ".join(parts)
