"""Auto-play policies: what a combatant declares under ``--auto`` once its plan is used up.

A policy is chosen per combatant or per side in the encounter file (``policy: tactical``); without one a
combatant plays ``default`` (attack an engaged enemy, else the first living enemy in file order, with the
first weapon). The fight asks a policy only a combatant that can choose (``Fight.declare``): one asleep, held,
paralysed, unconscious or stunned declares nothing and is asked nothing (G-09); a routed one (G-07) or one
``fleeing`` (G-09) flees at its full move, whatever its policy.

Every declaration a policy makes is valid under every ruleset: a spell the caster lists and can still pay
for (memorised copy, mana or slot, C2X-06/08), never a touch spell (C2-10 delivers those with a later
``melee``, which only Combat II knows); a missile weapon the combatant carries; a withdrawal of 10 ft (the
most d12-procedure allows, D12-17); a flight at its full move. The ruleset still places it in time, delays it
or refuses it as its seed says.

    POLICIES      the registry, by name (the names a file may give: ``model.encounter.POLICY_NAMES``)
    choose(fight, fighter) -> Declaration | Order | None      what ``Prepared.fight`` hands the fight
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from affray.engine.conditions import hit_dice
from affray.engine.fight import Fight
from affray.engine.state import Fighter
from affray.model.encounter import Declaration, Spell
from affray.model.order import Order, order_of

__all__ = ["BADLY_WOUNDED", "POLICIES", "WITHDRAW_FEET", "WOUNDED", "Policy", "choose", "find_policy",
           "policy_of"]

#: Hit points at or below this fraction of the starting ones: the wounded withdraw (``cautious``).
WOUNDED = 1 / 2
#: ... and at or below this one they flee the fight.
BADLY_WOUNDED = 1 / 4
#: The withdrawal's length: d12-procedure's fall back is at most 10 ft (D12-17); 10 ft is a step back everywhere.
WITHDRAW_FEET = 10

Chooser = Callable[[Fight[Any], Fighter], "Declaration | Order | None"]


@dataclass(frozen=True)
class Policy:
    """A named way of playing a combatant under ``--auto``."""

    name: str
    doc: str
    choose: Chooser


# Declarations are immutable: one per distinct content serves every fight (the hot path of a simulation).
_CACHE: dict[tuple[tuple[str, object], ...], Declaration] = {}


#: The default declarations made so far, as the fight reads them (``order_of``), by weapon then target (strings: a
#: lookup by tuple hashes it each time); missile shots and melee blows apart.
_DEFAULTS: tuple[dict[str, dict[str, Order]], dict[str, dict[str, Order]]] = ({}, {})


def _decl(**fields: object) -> Declaration:
    key = tuple(sorted(fields.items()))
    decl = _CACHE.get(key)
    if decl is None:
        decl = _CACHE[key] = Declaration.model_validate(fields)
    return decl


def _target(fight: Fight[Any], f: Fighter) -> Fighter | None:
    """The default's target: an engaged enemy (the first in file order), else the first living enemy."""
    fighters = fight.state.fighters
    if len(f.engaged) == 1:
        (only,) = f.engaged
        if fighters[only].active:
            return fighters[only]
    elif f.engaged:
        engaged: Fighter | None = None  # the first in file order still standing (a loop: sorted() with a key and
        for n in f.engaged:  # next() over a generator are generic calls when compiled)
            g = fighters[n]
            if g.active and (engaged is None or g.index < engaged.index):
                engaged = g
        if engaged is not None:
            return engaged
    return fight.state.first_foe(f.side)  # a cursor over the file order: no scan of the fallen


def _default(fight: Fight[Any], f: Fighter) -> Order | None:
    """Attack the default's target with the first weapon; a missile weapon first in the list shoots only at a foe
    ``f`` is not engaged with (else its first melee weapon strikes)."""
    target = _target(fight, f)
    if target is None:
        return None
    weapon = f.weapons[0]
    missile = weapon.kind == "missile" and target.name not in f.engaged
    if not missile:  # its first melee weapon (a loop: next() over a generator is a generic call when compiled)
        for w in f.weapons:
            if w.kind != "missile":
                weapon = w
                break
    by_target = _DEFAULTS[missile].get(weapon.name)
    if by_target is None:
        by_target = _DEFAULTS[missile][weapon.name] = {}
    decl = by_target.get(target.name)
    if decl is None:  # the hot path of every --auto fight: no sorting of fields for a key
        decl = by_target[target.name] = order_of(Declaration(missile=target.name, weapon=weapon.name) if missile
                                                 else Declaration(melee=target.name, weapon=weapon.name))
    return decl


def _spell_rank(spell: Spell) -> tuple[int, float]:
    """Best first: the highest level, then the most damage on average."""
    dmg = spell.damage
    mean = 0.0 if dmg is None else (dmg.dice_min + dmg.dice_max) / 2 + dmg.bonus
    return spell.level, mean


def _worth(spell: Spell, target: Fighter) -> bool:
    """Whether ``spell`` can still change something for ``target`` (G-09): a spell whose only work is a condition
    is wasted on a target that already holds it, or whose Hit Dice are above the effect's ``max_hd``."""
    effect = spell.effect
    if effect is None or spell.damage is not None or spell.damage_at:
        return True
    if effect.condition in target.conditions:
        return False
    return effect.max_hd is None or hit_dice(target) <= effect.max_hd


def _cast(fight: Fight[Any], f: Fighter) -> Declaration | None:
    """The best spell ``f`` can still pay for, at the default's target, else at the first living enemy it would
    still do something to (None: no such spell, or nobody to aim at)."""
    usable = [s for s in f.spec.spells if not s.touch and f.can_cast(s) is None]
    if not usable:
        return None
    first = _target(fight, f)
    if first is None:
        return None
    enemies = [first] + [g for g in fight.state.fighters.values() if g.side != f.side and g.active and g is not first]
    for spell in sorted(usable, key=_spell_rank, reverse=True):  # a stable sort: the file's order breaks ties
        target = next((g for g in enemies if _worth(spell, g)), None)
        if target is not None:
            return _decl(cast=spell.name, at=target.name)
    return None


def _shoot(fight: Fight[Any], f: Fighter) -> Declaration | None:
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


def _withdraw(fight: Fight[Any], f: Fighter) -> Declaration | None:
    """The wounded (half their hit points or less) step back out of melee; the badly wounded (a quarter) flee."""
    if _hurt(f, BADLY_WOUNDED):
        return _decl(move=f.mv * 10, mode="flee")
    if f.engaged and _hurt(f, WOUNDED):
        return _decl(move=WITHDRAW_FEET, mode="withdraw")
    return None


def _first(*choosers: Chooser) -> Chooser:
    def chooser(fight: Fight[Any], f: Fighter) -> Declaration | Order | None:
        for c in choosers:
            decl = c(fight, f)
            if decl is not None:
                return decl
        return None

    return chooser


POLICIES: dict[str, Policy] = {p.name: p for p in (
    Policy("default", "attack an engaged enemy, else the first living enemy in file order, with the first weapon "
           "(a missile weapon first in the list shoots when not engaged with its target)", _default),
    Policy("caster", "cast the best spell it can still pay for (highest level, then most damage) at the default's "
           "target, or the first enemy it would still change (not one already asleep for a sleep); with none "
           "left, as default", _first(_cast, _default)),
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


def policy_of(fight: Fight[Any], f: Fighter) -> str:
    """The combatant's own ``policy``, else its side's, else ``default``."""
    return f.policy or "default"


def choose(fight: Fight[Any], f: Fighter) -> Declaration | Order | None:
    """``f``'s declaration under ``--auto`` by its policy (None: nothing to do). ``Fight.declare`` asks it only
    for a combatant that can choose: not asleep or held, not routed or fleeing."""
    name = f.policy
    if name is None:
        return _default(fight, f)  # POLICIES["default"], called directly (a native call in the compiled build)
    return POLICIES[name].choose(fight, f)
