"""Timed conditions on a combatant (C2X-03/04: dazed, stunned, prone, slowed...): what they forbid and what
they do to an attack. A plug-in rule of the chain, with the reckonings rulesets read (``strike_penalty``).

A condition is held from its ``since`` to before its ``until`` (``Fighter.conditions``); the critical
tables (``plugins.crits``) set them with ``condition`` events.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from affray.engine.events import Tick
from affray.engine.rules import Rule
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, Step
from affray.model.derive import dex_defense_adjustment
from affray.reckon.agility import agility

__all__ = ["EFFECTS", "Conditions", "active", "blocked", "condition_mods", "strike_penalty"]


@dataclass(frozen=True)
class _Effect:
    hit: int = 0  # to the bearer's attack rolls
    ac: int = 0  # to the bearer's AC (+ is worse): the largest of these counts
    attacks: bool = True
    moves: bool = True
    words: str = ""


EFFECTS: dict[str, _Effect] = {
    "dazed": _Effect(hit=-2, words="dazed: -2 to attack, +1 AC"),
    "stunned": _Effect(ac=4, attacks=False, words="stunned: no attacks, +4 AC"),
    "knees": _Effect(ac=2, attacks=False, words="fallen to its knees: no attacks, AC +2"),
    "prone": _Effect(ac=4, attacks=False, moves=False, words="prone: no attacks or movement, AC +4"),
    "sprawled": _Effect(ac=4, attacks=False, moves=False, words="sprawled: no attacks or movement, AC +4"),
    "lost-sequence": _Effect(attacks=False, words="the rest of the attack sequence is lost"),
    "no-move": _Effect(moves=False, words="loses its movement"),
    "misstep": _Effect(hit=-1, words="misstep: -1 to hit and +2 SF"),
    "slowed": _Effect(words="the next strike's SF is slowed"),
    "off-balance": _Effect(words="no AGI bonus to AC"),
    "defenseless": _Effect(words="stationary and defenseless: no AGI bonus to AC"),
    "free-attack": _Effect(words="owed a free attack"),
}
_DAZED_AC = 1  # dazed adds to the others' AC penalty (+1 AC)


def active(f: Fighter, tick: Tick) -> Iterator[tuple[str, int]]:
    """The conditions ``f`` holds at ``tick``, with their amounts."""
    for name, c in f.conditions.items():
        if c.since <= tick < c.until:
            yield name, c.amount


def blocked(fight: Any, step: Step) -> str | None:
    """Why a condition forbids this attack or move (C2X-03), or None."""
    a = step.actor
    if not a.conditions:
        return None
    attack = step.kind in ("melee", "missile")
    for name, _amount in active(a, step.tick):
        if name.startswith("dropped:"):
            weapon = step.weapon if step.weapon is not None else a.weapons[0]
            if attack and name == f"dropped:{weapon.name}":
                return f"{a.name}'s {weapon.name} is dropped or out of action after a critical miss (C2X-03)"
            continue
        effect = EFFECTS[name]
        if (attack and not effect.attacks) or (step.kind == "move" and not effect.moves):
            return f"{a.name} is {effect.words} (C2X-03)"
    return None


def condition_mods(fight: Any, step: Step, target: Fighter, mods: AttackMods) -> None:
    """The attacker's and target's conditions on one attack roll (C2X-03, C2X-04)."""
    tick = step.tick
    for name, _ in active(step.actor, tick):
        hit = EFFECTS[name].hit if name in EFFECTS else 0
        if hit:
            mods.add("hit", hit, f"{step.actor.name} {name}, C2X-03")
    worst, why, dazed, bare = 0, "", False, False
    for name, _ in active(target, tick):
        effect = EFFECTS.get(name)
        if effect is None:
            continue
        if effect.ac > worst:
            worst, why = effect.ac, name
        dazed = dazed or name == "dazed"
        bare = bare or name in ("off-balance", "defenseless")
    if worst:
        mods.add("ac", worst, f"{target.name} {why}, C2X-03")
    if dazed:
        mods.add("ac", _DAZED_AC, f"{target.name} dazed, C2X-03")
    if bare:
        score, ability = agility(fight.ruleset.opt, target)
        adj = dex_defense_adjustment(score)
        if adj < 0:
            mods.add("ac", -adj, f"{target.name} loses its {ability} bonus, C2X-04")


def strike_penalty(f: Fighter, tick: Tick) -> tuple[int, str]:
    """SF added to ``f``'s next strike: a severe or critical miss (C2X-04), a misstep (C2X-03)."""
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
    """The chain's rule for conditions: what they forbid (``blocked``) and what they add to attacks."""

    def refuse(self, fight: Any, step: Step) -> str | None:
        return blocked(fight, step) if step.actor.conditions else None

    def mods(self, fight: Any, step: Step, target: Fighter, mods: AttackMods) -> None:
        if step.actor.conditions or target.conditions:
            condition_mods(fight, step, target, mods)
