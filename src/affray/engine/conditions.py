"""Conditions (G-09): what each does to its bearer and to those who attack it, as data.

A condition is held on a fighter from its ``since`` tick to before its ``until`` tick (``Fighter.conditions``),
set by a ``condition`` event (a spell's ``effect``, the critical tables, the referee's hand) and ended by an
``expire`` event. The seeds assume the AD&D rules for what a condition does; each entry says which (the 2nd
edition Player's Handbook, Table 51 "Combat modifiers", for the attacker's side). An extension adds the conditions
only its rules set (``Extension.conditions``: Combat II's critical tables' in ``affray.supplements.c2x``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from affray.engine.events import Tick
from affray.engine.state import Fighter

__all__ = ["CONDITIONS", "Effect", "active", "effect_of", "hit_dice", "incapacitated", "save_bonus", "unable"]


@dataclass(frozen=True)
class Effect:
    """What a condition does. ``acts``: its bearer acts at all; ``attacks``/``moves``: it may attack or move;
    ``hit``: added to its attack rolls; ``ac``: added to its AC (+ is worse; the largest of a bearer's counts);
    ``helpless``: attacks on it hit automatically; ``flees``: it can only flee; ``damage``: added to the damage of
    its attacks; ``save``: added to its saving throws' d20; ``words``: what it does;
    ``source``: where the AD&D rules the seeds assume say so (the rule that set it is on the condition)."""

    words: str
    source: str = ""
    acts: bool = True
    attacks: bool = True
    moves: bool = True
    hit: int = 0
    ac: int = 0
    helpless: bool = False
    flees: bool = False
    damage: int = 0
    save: int = 0



_HELPLESS = "no action, and attacks on it hit automatically"

CONDITIONS: dict[str, Effect] = {
    "asleep": Effect(_HELPLESS, "2e PH Table 51: sleeping, automatic hit", acts=False, helpless=True),
    "held": Effect(_HELPLESS, "2e PH Table 51: held, automatic hit", acts=False, helpless=True),
    "paralysed": Effect(_HELPLESS, "2e PH Table 51: paralyzed, as held", acts=False, helpless=True),
    "unconscious": Effect(_HELPLESS, "2e PH Table 51: as sleeping", acts=False, helpless=True),
    "stunned": Effect("no action, +4 to be hit", "2e PH Table 51: stunned +4", acts=False, attacks=False,
                      moves=False, ac=4),
    "dazed": Effect("-2 to attack, +1 AC", "C2X-03: severe and critical hits", hit=-2),
    "prone": Effect("no attacks or movement, +4 to be hit", "2e PH Table 51: prone +4", attacks=False, moves=False,
                    ac=4),
    "blinded": Effect("-4 to attack, +4 to be hit", "2e PH: blindness", hit=-4, ac=4),
    "charmed": Effect("will not attack the side of the one who charmed it", "2e PH: charm person"),
    "fleeing": Effect("can only flee", "2e PH: fear", flees=True),
    # set by the priests' bonuses (2e PH spell descriptions)
    "blessed": Effect("+1 to attack rolls", "2e PH: bless", hit=1),
    "heartened": Effect("+1 to attack rolls, damage and saving throws", "2e PH: prayer", hit=1, damage=1, save=1),
    "disheartened": Effect("-1 to attack rolls, damage and saving throws", "2e PH: prayer", hit=-1, damage=-1,
                           save=-1),
    "aided": Effect("+1 to attack rolls and saving throws", "2e PH: aid", hit=1, save=1),
}

_DROPPED = Effect("a weapon dropped or out of action after a critical miss", "C2X-03: fumble, knees, prone")


def effect_of(name: str) -> Effect:
    """The effect of condition ``name`` ("dropped:WEAPON" puts only that weapon out of action)."""
    return _DROPPED if name.startswith("dropped:") else CONDITIONS[name]


def active(f: Fighter, tick: Tick) -> Iterator[tuple[str, int]]:
    """The conditions ``f`` holds at ``tick``, with their amounts."""
    if not f.conditions:  # the shared empty one (FightState): its items are a generic iterator in the compiled build
        return
    for name, c in f.conditions.items():
        if c.since <= tick < c.until:
            yield name, c.amount


def hit_dice(f: Fighter) -> float:
    """A combatant's Hit Dice for a spell's ``max_hd``: a monster's HD, a character's level (1 with neither)."""
    if f.hd is not None:
        return f.hd
    return float(f.level) if f.level is not None else 1.0


def save_bonus(f: Fighter, tick: Tick) -> tuple[int, str]:
    """What ``f``'s conditions add to its saving throws' d20 at ``tick`` (prayer's +1, 2e PH), and why."""
    if not f.conditions:
        return 0, ""
    n, why = 0, []
    for name, _ in active(f, tick):
        bonus = effect_of(name).save
        if bonus:
            n += bonus
            why.append(f"{bonus:+d} {name}")
    return n, ", ".join(why)


def incapacitated(f: Fighter, tick: Tick) -> str | None:
    """The condition that keeps ``f`` from acting at all at ``tick`` (asleep, held...), or None."""
    if not f.conditions:
        return None
    return next((name for name, _ in active(f, tick) if not effect_of(name).acts), None)


def unable(f: Fighter, tick: Tick, *, attack: bool = False, flight: bool = False) -> str | None:
    """Why ``f`` can do nothing at ``tick`` (``attack``: cannot attack), in words citing the rule, or None: out of the
    fight (G-05), routed (G-07: it flees and does nothing else; ``flight``: the step is its flight), or holding a
    condition that stops it acting or attacking (G-09). What the engine asks of everyone about to act, a free
    attack's maker included."""
    if not f.active:
        return f"{f.name} is {'down' if f.down else 'out of the fight'} (G-05)"
    if f.routed and not flight:
        return f"{f.name} is routed: it flees and does nothing else (G-07)"
    if not f.conditions:
        return None
    for name, _ in active(f, tick):
        if name.startswith("dropped:"):
            continue
        effect = CONDITIONS[name]
        if not effect.acts or (attack and not effect.attacks):
            held = f.conditions[name]
            until = f" until {held.words}" if held.words else ""
            return f"{f.name} is {name}{until}: {effect.words} ({held.rule})"
    return None
