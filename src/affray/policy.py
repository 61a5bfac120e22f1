"""Auto-play (``--auto``): what a combatant does once its plan is used up.

``choose`` is the default policy: attack an engaged enemy, else the first living enemy in file order, with
the first weapon (a missile weapon first only at a foe it is not engaged with).
"""

from __future__ import annotations

from typing import Any

from affray.engine.fight import Fight
from affray.engine.state import Fighter
from affray.model.encounter import Declaration

__all__ = ["choose"]

_DEFAULTS: dict[tuple[str, str, bool], Declaration] = {}


def choose(fight: Fight[Any], f: Fighter) -> Declaration | None:
    """Attack an engaged enemy, else the first living enemy in file order, with the first weapon."""
    fighters = fight.state.fighters
    target = None
    if len(f.engaged) == 1:
        (only,) = f.engaged
        target = fighters[only] if fighters[only].active else None
    elif f.engaged:
        target = next((fighters[n] for n in sorted(f.engaged, key=fight.order) if fighters[n].active), None)
    if target is None:
        target = fight.state.first_foe(f.side)
    if target is None:
        return None
    weapon = f.weapons[0]
    missile = weapon.kind == "missile" and target.name not in f.engaged
    if not missile:
        weapon = next((w for w in f.weapons if w.kind != "missile"), weapon)
    key = (target.name, weapon.name, missile)
    decl = _DEFAULTS.get(key)
    if decl is None:  # declarations are immutable: one per (target, weapon, kind) serves every fight
        decl = _DEFAULTS[key] = (Declaration(missile=target.name, weapon=weapon.name) if missile
                                 else Declaration(melee=target.name, weapon=weapon.name))
    return decl
