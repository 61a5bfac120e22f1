"""Questions of place in a fight that places its combatants (CONTRACT "Where everyone stands"): where a move
ends, whether a blow reaches, a missile's range band, its ammunition. Each answers None or nothing in a fight
without places, so such a fight runs as it always did."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from affray.model.arms import Arms
from affray.model.order import Order
from affray.model.place import (
    RANK,
    SLACK,
    apart,
    closing_feet,
    in_reach,
    range_band,
    step_away,
    step_past,
    step_to,
    toward_reach,
)

if TYPE_CHECKING:
    from affray.engine.state import Fighter, FightState
    from affray.engine.step import Step

__all__ = ["AWAY", "PAST", "feet_to_close", "missile_refusal", "nearest_foe", "passed", "range_mod",
           "reach_refusal", "whither"]

#: A move step's tag: the charge's momentum carries the mover on past its target (C2-20's overrun).
PAST = "past"
#: Modes of moving that go away from the foe.
AWAY = frozenset({"withdraw", "retreat", "flee"})


def nearest_foe(state: FightState, f: Fighter) -> Fighter | None:
    """The foe nearest ``f`` still in the fight, those engaged with it first; ties in file order."""
    if f.pos is None:
        return None
    here = f.pos
    foes = [g for g in state.order if g.side != f.side and g.active and g.pos is not None]
    engaged = [g for g in foes if g.name in f.engaged]
    pool = engaged or foes
    return min(pool, key=lambda g: (apart(here, g.pos), g.index)) if pool else None  # type: ignore[arg-type]


def whither(state: FightState, step: Step, feet: int) -> tuple[int, int] | None:
    """Where ``feet`` of the move ``step`` take its mover: along a declared ``to``, ``toward`` or ``away``; a
    closing on its melee target up to its weapon's reach; a charge's momentum on past its target; any other move
    (a withdrawal, a retreat, a flight, a move given no way) straight away from the nearest foe. None in a fight
    without places."""
    f = step.actor
    here = f.pos
    if here is None:
        return None
    decl = step.decl
    fs = state.fighters
    if PAST in step.tags and decl is not None:
        goal = fs.get(decl.target or "")
        return step_past(here, goal.pos, feet) if goal is not None and goal.pos is not None else here
    if decl is not None and decl.action == "move":
        there = _declared_way(state, decl, here, feet)
        if there is not None:
            return there
    elif decl is not None and decl.action == "melee" and step.mode not in AWAY and "disengage" not in step.tags:
        goal = fs.get(step.target or decl.target or "")
        if goal is not None and goal.pos is not None:
            reach = f.weapon(decl.weapon).reach
            there = toward_reach(here, goal.pos, feet, reach)
            if in_reach(there, goal.pos, reach) and there != here:
                return _free_spot(state, f, goal.pos, there, reach)
            return there
    foe = nearest_foe(state, f)
    if foe is None or foe.pos is None:
        return here
    return _away(state, f, here, foe.pos, feet)


def _declared_way(state: FightState, decl: Order, here: tuple[int, int], feet: int) -> tuple[int, int] | None:
    """Where a move declared ``to`` a point, ``toward`` or ``away`` from someone takes its mover; None when it
    names no way (it then goes away from the nearest foe)."""
    if decl.to is not None:
        return step_to(here, decl.to, feet)
    fs = state.fighters
    other = fs.get(decl.toward or "")
    if other is not None and other.pos is not None:
        return toward_reach(here, other.pos, feet, RANK)
    other = fs.get(decl.away or "")
    if other is not None and other.pos is not None:
        return step_away(here, other.pos, feet)
    return None


def _away(state: FightState, f: Fighter, here: tuple[int, int], foe: tuple[int, int], feet: int) -> tuple[int, int]:
    """Where ``feet`` away from the foes take ``f``: straight away from the nearest (``foe``), unless another way
    of the sixteen round the compass leaves it farther from every foe (a withdrawal does not back into another
    foe: docs/positions.md, Decision P-2)."""
    foes = [g.pos for g in state.order if g.side != f.side and g.active and g.pos is not None]

    def clear(p: tuple[int, int]) -> float:
        return min((apart(p, q) for q in foes), default=math.inf)

    best = step_away(here, foe, feet)
    best_clear = clear(best)
    for k in range(16):
        a = k * math.pi / 8
        spot = (here[0] + round(feet * math.cos(a)), here[1] + round(feet * math.sin(a)))
        if clear(spot) > best_clear + 0.5:
            best, best_clear = spot, clear(spot)
    return best


def passed(state: FightState, step: Step) -> list[Fighter]:
    """The foes the move ``step`` runs right past (MJ-09): within their reach somewhere on its straight line, and
    clear of it where it starts and where it ends, by 5 ft more than the reach (one shuffling past a foe a step
    off does not run past it: docs/positions.md, Decision P-10); file order. [] without places."""
    f = step.actor
    here = f.pos
    if here is None:
        return []
    there = whither(state, step, step.feet)
    if there is None or there == here:
        return []
    out = []
    for g in state.order:
        if g.side == f.side or not g.active or g.pos is None or g.name in f.engaged:
            continue
        reach = g.reach
        clear = reach + RANK
        if not in_reach(here, g.pos, clear) and not in_reach(there, g.pos, clear) and \
                _off_line(here, there, g.pos) <= reach + SLACK:
            out.append(g)
    return out


def _off_line(a: tuple[int, int], b: tuple[int, int], p: tuple[int, int]) -> float:
    """How far ``p`` is from the segment from ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


def _free_spot(state: FightState, f: Fighter, goal: tuple[int, int], there: tuple[int, int],
               reach: int) -> tuple[int, int]:
    """Where a closer arriving at ``there`` (in reach of ``goal``) stands: there, or the nearest spot round the
    goal at the same reach, 45 degrees at a time either way, that no one else in the fight stands on (within 3 ft):
    attackers spread round their foe rather than stack on one foot (docs/positions.md, Decision P-3)."""
    others = [g.pos for g in state.order if g is not f and g.active and g.pos is not None]
    if not any(apart(there, o) < 3 for o in others):
        return there
    angle = math.atan2(there[1] - goal[1], there[0] - goal[0])
    radius = max(apart(there, goal), 1.0)
    for k in (1, -1, 2, -2, 3, -3, 4):
        a = angle + k * math.pi / 4
        spot = (goal[0] + round(radius * math.cos(a)), goal[1] + round(radius * math.sin(a)))
        if in_reach(spot, goal, reach) and not any(apart(spot, o) < 3 for o in others):
            return spot
    return there


def feet_to_close(f: Fighter, decl: Order, state: FightState) -> int | None:
    """Feet ``f`` must close to strike with ``decl`` (a melee) from where both stand; None without places."""
    goal = state.fighters.get(decl.melee or "")
    if f.pos is None or goal is None or goal.pos is None:
        return None
    return closing_feet(f.pos, goal.pos, f.weapon(decl.weapon).reach)


def reach_refusal(f: Fighter, target: Fighter, weapon: Arms) -> str | None:
    """Why ``f``'s blow with ``weapon`` cannot reach ``target`` from where they stand, or None."""
    if f.pos is None or target.pos is None or in_reach(f.pos, target.pos, weapon.reach):
        return None
    return (f"{target.name} is {round(apart(f.pos, target.pos))} ft from {f.name}, out of reach of its {weapon.name} "
            f"({weapon.reach} ft): no blow")


def missile_refusal(f: Fighter, target: Fighter | None, weapon: Arms) -> str | None:
    """Why ``f`` cannot shoot ``weapon`` at ``target`` now: none of its ammunition left, or the target beyond long
    range (2e PH); None when it can."""
    if weapon.ammo is not None and f.ammo_left(weapon) == 0:
        return f"{f.name} has no shots left for its {weapon.name} (ammo {weapon.ammo}, all spent)"
    bands = weapon.range
    if bands is None or target is None or f.pos is None or target.pos is None:
        return None
    feet = apart(f.pos, target.pos)
    if range_band(weapon.source, feet) is None:
        return (f"{target.name} is {round(feet)} ft from {f.name}: beyond its {weapon.name}'s long range "
                f"({bands[2]} ft); close in or choose a nearer target")
    return None


def range_mod(f: Fighter, target: Fighter, weapon: Arms) -> tuple[int, str] | None:
    """A missile's modifier to hit for its range band (2e PH: medium -2, long -5) and why; None at short range
    or without places."""
    if f.pos is None or target.pos is None or weapon.source.range is None:
        return None
    feet = apart(f.pos, target.pos)
    band = range_band(weapon.source, feet)
    if band is None or band[1] == 0:
        return None
    short, medium, long = weapon.source.range
    return band[1], f"{band[0]} range: {round(feet)} ft ({weapon.name} {short}/{medium}/{long} ft, 2e PH)"
