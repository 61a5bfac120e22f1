"""Conditions on attacks and actions (G-09): a rule of every fight's chain. What each condition does is the
engine's table (``affray.engine.conditions``); this rule applies it: what a condition forbids its bearer, and
what it adds to an attack by or on its bearer. Also the reckoning rulesets read of a slowed strike."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from affray.engine.conditions import CONDITIONS, Effect, active, effect_of
from affray.engine.events import Tick
from affray.engine.rules import Rule
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, Step
from affray.model.derive import dex_defense_adjustment
from affray.supplements.c2x.agility import agility

if TYPE_CHECKING:
    from affray.engine.fight import Fight

__all__ = ["Conditions", "blocked", "condition_mods", "strike_penalty"]

_DAZED_AC = 1  # dazed adds to the others' AC penalty (+1 AC, C2X-03)
_ACTIONS = frozenset({"melee", "missile", "move", "cast-start", "cast", "misc", "wait", "stunt", "retreat",
                      "heal-touch"})


def blocked(fight: Fight[Any], step: Step) -> str | None:
    """Why a condition forbids this step of its bearer, or None."""
    a = step.actor
    attack = step.kind in ("melee", "missile")
    for name, _amount in active(a, step.tick):
        if name.startswith("dropped:"):
            weapon = step.weapon if step.weapon is not None else a.weapons[0]
            if attack and name == f"dropped:{weapon.name}":
                return f"{a.name}'s {weapon.name} is dropped or out of action after a critical miss (C2X-03)"
            continue
        effect = CONDITIONS[name]
        if (not effect.acts and step.kind in _ACTIONS) or (attack and not effect.attacks) or (
                step.kind == "move" and not effect.moves):
            held = a.conditions[name]
            until = f" until {held.words}" if held.words else ""
            return f"{a.name} is {name}{until}: {effect.words} ({_cite(held.rule, effect)})"
        if name == "charmed" and attack and step.target is not None:
            by = a.conditions[name].by
            charmer = fight.state.fighters.get(by) if by else None
            foe = fight.state.fighters.get(step.target)
            if charmer is not None and foe is not None and foe.side == charmer.side:
                return f"{a.name} is charmed by {charmer.name}: it will not attack {charmer.name}'s side (2e PH)"
    return None


def condition_mods(fight: Fight[Any], step: Step, target: Fighter, mods: AttackMods) -> None:  # noqa: C901
    """The attacker's and target's conditions on one attack roll (2e PH Table 51, C2X-03, C2X-04)."""
    tick = step.tick
    for name, _ in active(step.actor, tick):
        effect = effect_of(name)
        if effect.hit:
            mods.add("hit", effect.hit, f"{step.actor.name} {name}, {step.actor.conditions[name].rule}")
        if effect.damage:
            mods.add("damage", effect.damage, f"{step.actor.name} {name}, {step.actor.conditions[name].rule}")
    worst, why, rule, dazed, bare = 0, "", "", False, False
    for name, _ in active(target, tick):
        effect = effect_of(name)
        held = target.conditions[name]
        if effect.helpless and mods.automatic is None:
            mods.automatic = f"{target.name} is {name}: an automatic hit ({_cite(held.rule, effect)})"
        if effect.ac > worst:
            worst, why, rule = effect.ac, name, held.rule
        dazed = dazed or name == "dazed"
        bare = bare or name in ("off-balance", "defenseless")
    if worst:
        mods.add("ac", worst, f"{target.name} {why}, {rule}")
    if dazed:
        mods.add("ac", _DAZED_AC, f"{target.name} dazed, C2X-03")
    if bare:
        score, ability = agility(fight, target)
        adj = dex_defense_adjustment(score)
        if adj < 0:
            mods.add("ac", -adj, f"{target.name} loses its {ability} bonus, C2X-04")


def _cite(rule: str, effect: Effect) -> str:
    """The rule that set a condition, and the AD&D source of what it does when that is another."""
    return f"{rule}; {effect.source}" if effect.source and not effect.source.startswith(rule) else rule


def strike_penalty(f: Fighter, tick: Tick) -> tuple[int, str]:
    """SF added to ``f``'s next strike: a severe or critical miss (C2X-04), a misstep (C2X-03)."""
    if not f.conditions:  # asked at every strike; most hold none
        return 0, ""
    n, parts = 0, []
    for name, amount in active(f, tick):
        if name == "slowed" and amount:
            n += amount
            parts.append(f"+{amount} after a severe miss, C2X-04")
        elif name == "misstep":
            n += 2
            parts.append("+2 misstep, C2X-03")
    return n, "; ".join(parts)


class Conditions(Rule):
    """The chain's rule for conditions: what they forbid and what they do to attacks."""

    def refuse(self, fight: Fight[Any], step: Step) -> str | None:
        return blocked(fight, step) if step.actor.conditions else None

    def mods(self, fight: Fight[Any], step: Step, target: Fighter, mods: AttackMods) -> None:
        if step.actor.conditions or target.conditions:
            condition_mods(fight, step, target, mods)
