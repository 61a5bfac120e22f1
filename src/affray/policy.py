"""Auto-play policies: what a combatant declares under ``--auto`` once its plan is used up.

A policy is chosen per combatant or per side in the encounter file (``policy: tactical``); without one a
combatant plays ``default``, today's ``Ruleset.default_action`` (attack an engaged enemy, else the first living
enemy in file order, with the first weapon). Whatever the policy, a routed combatant flees: the engine
declares that before it asks a policy (G-07).

Every declaration a policy makes is valid under every ruleset: a spell the caster lists and can still pay
for (memorised copy, mana or slot, C2X-06/08), never a touch spell (C2-10 delivers those with a later
``melee``, which only Combat II knows); a missile weapon the combatant carries; a withdrawal of 10 ft (the
most d12-procedure allows, D12-17); a flight at its full move. The ruleset still places it in time, delays it
or refuses it as its seed says.

    POLICIES      the registry, by name
    choose(fight, fighter) -> Declaration | None
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from affray.model.encounter import Declaration, Spell

if TYPE_CHECKING:
    from affray.engine.engine import Fight
    from affray.engine.state import Fighter

__all__ = ["POLICIES", "Policy", "choose", "find_policy", "policy_of"]

#: Hit points at or below this fraction of the starting ones: the wounded withdraw (``cautious``).
WOUNDED = 1 / 2
#: ... and at or below this one they flee the fight.
BADLY_WOUNDED = 1 / 4
#: The withdrawal's length: d12-procedure's fall back is at most 10 ft (D12-17); 10 ft is a step back everywhere.
WITHDRAW_FEET = 10

Chooser = Callable[["Fight", "Fighter"], "Declaration | None"]


@dataclass(frozen=True)
class Policy:
    """A named way of playing a combatant under ``--auto``."""

    name: str
    doc: str
    choose: Chooser


# Declarations are immutable: one per distinct content serves every fight (the hot path of a simulation).
_CACHE: dict[tuple[object, ...], Declaration] = {}


def _decl(**fields: object) -> Declaration:
    key = tuple(sorted(fields.items()))
    decl = _CACHE.get(key)
    if decl is None:
        decl = _CACHE[key] = Declaration.model_validate(fields)
    return decl


def _default(fight: Fight, f: Fighter) -> Declaration | None:
    return fight.ruleset.default_action(fight, f)


def _target(fight: Fight, f: Fighter) -> Fighter | None:
    """The default's target: an engaged enemy (the first in file order), else the first living enemy."""
    fighters = fight.state.fighters
    if f.engaged:
        engaged = next((fighters[n] for n in sorted(f.engaged, key=fight.order) if fighters[n].active), None)
        if engaged is not None:
            return engaged
    return next((g for g in fighters.values() if g.side != f.side and g.active), None)


def _spell_rank(spell: Spell) -> tuple[int, float]:
    """Best first: the highest level, then the most damage on average."""
    dmg = spell.damage
    mean = 0.0 if dmg is None else (dmg.dice_min + dmg.dice_max) / 2 + dmg.bonus
    return spell.level, mean


def _cast(fight: Fight, f: Fighter) -> Declaration | None:
    """The best spell ``f`` can still pay for, at the default's target (None: no spell or nobody to aim at)."""
    usable = [s for s in f.spec.spells if not s.touch and f.can_cast(s) is None]
    if not usable:
        return None
    target = _target(fight, f)
    if target is None:
        return None
    best = max(usable, key=_spell_rank)  # max keeps the first of equals: the file's order breaks ties
    return _decl(cast=best.name, at=target.name)


def _shoot(fight: Fight, f: Fighter) -> Declaration | None:
    """A shot with the first missile or thrown weapon ``f`` carries, when it is engaged with nobody: at an enemy
    not in melee if there is one (a shot into a melee may strike anyone in it, MJ-16), else the first."""
    if f.engaged:
        return None
    weapon = next((w for w in f.spec.weapons if w.is_missile), None)
    if weapon is None:
        return None
    enemies = [g for g in fight.state.fighters.values() if g.side != f.side and g.active]
    if not enemies:
        return None
    target = next((g for g in enemies if not g.engaged), enemies[0])
    return _decl(missile=target.name, weapon=weapon.name)


def _hurt(f: Fighter, fraction: float) -> bool:
    return f.hp <= f.spec.hp * fraction


def _withdraw(fight: Fight, f: Fighter) -> Declaration | None:
    """The wounded (half their hit points or less) step back out of melee; the badly wounded (a quarter) flee."""
    if _hurt(f, BADLY_WOUNDED):
        return _decl(move=f.spec.mv * 10, mode="flee")
    if f.engaged and _hurt(f, WOUNDED):
        return _decl(move=WITHDRAW_FEET, mode="withdraw")
    return None


def _first(*choosers: Chooser) -> Chooser:
    def chooser(fight: Fight, f: Fighter) -> Declaration | None:
        for c in choosers:
            decl = c(fight, f)
            if decl is not None:
                return decl
        return None

    return chooser


POLICIES: dict[str, Policy] = {p.name: p for p in (
    Policy("default", "attack an engaged enemy, else the first living enemy in file order, with the first weapon "
           "(a missile weapon first in the list shoots when not engaged)", _default),
    Policy("caster", "cast the best spell it can still pay for (highest level, then most damage) at the default's "
           "target; with none left, as default", _first(_cast, _default)),
    Policy("archer", "shoot with its first missile or thrown weapon while engaged with nobody (an enemy not in "
           "melee first); in melee, as default", _first(_shoot, _default)),
    Policy("cautious", "at half its hit points or less, withdraw 10 ft when engaged; at a quarter or less, flee "
           "the fight; otherwise as default", _first(_withdraw, _default)),
    Policy("tactical", "all of the above: the badly wounded flee and the wounded withdraw, casters cast, archers "
           "shoot from range, the rest attack as default", _first(_withdraw, _cast, _shoot, _default)),
)}


def find_policy(name: str) -> Policy:
    """The policy called ``name``; ValueError listing the valid ones otherwise."""
    policy = POLICIES.get(name)
    if policy is None:
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}")
    return policy


def policy_of(fight: Fight, f: Fighter) -> str:
    """The combatant's own ``policy``, else its side's, else ``default``."""
    return f.spec.policy or fight.encounter.sides[f.side].policy or "default"


def choose(fight: Fight, f: Fighter) -> Declaration | None:
    """``f``'s declaration under ``--auto`` by its policy (None: nothing to do)."""
    name = f.spec.policy or fight.encounter.sides[f.side].policy
    if name is None:
        return fight.ruleset.default_action(fight, f)
    return POLICIES[name].choose(fight, f)
