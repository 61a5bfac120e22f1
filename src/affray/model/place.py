"""Where everyone stands: places from the file, and the plane's few sums (CONTRACT "Where everyone stands").

Places are whole feet ``(x, y)``. A distance is the straight line between two places; a move goes along it and
lands on the nearest whole foot, so a place reached "in reach" may be up to 0.71 ft (half a foot's diagonal) off
the exact line: ``SLACK`` allows for it (docs/positions.md, Decision P-1).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from affray.model.encounter import Encounter, Point, Weapon

__all__ = ["RANK", "SLACK", "apart", "closing_feet", "in_reach", "placed", "placements", "range_band",
           "step_away", "step_past", "step_to", "toward_reach"]

#: Feet between two combatants of a rank.
RANK = 5
#: What rounding a place to whole feet may add to a distance.
SLACK = 0.75


def placed(encounter: Encounter) -> bool:
    """Whether the file places anyone (a side's ``at`` or a combatant's)."""
    return any(s.at is not None or any(c.at is not None for c in s.combatants) for s in encounter.sides.values())


def placements(encounter: Encounter) -> Iterator[tuple[str, Point | None, tuple[str | int, ...]]]:
    """(name, place, field path) of every combatant in the fight (``count`` expanded), in file order: its own
    ``at`` (a count of them in a rank from there), else the next place of its side's rank, else None."""
    for side, s in encounter.sides.items():
        slot = 0
        for i, c in enumerate(s.combatants):
            if c.fallen is not None:
                continue
            loc: tuple[str | int, ...] = ("sides", side, "combatants", i)
            names = [c.name] if c.count == 1 else [f"{c.name} {k}" for k in range(1, c.count + 1)]
            for k, name in enumerate(names):
                if c.at is not None:
                    yield name, (c.at[0], c.at[1] + RANK * k), loc
                elif s.at is not None:
                    yield name, (s.at[0], s.at[1] + RANK * slot), loc
                    slot += 1
                else:
                    yield name, None, loc


def apart(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def in_reach(a: Point, b: Point, reach: int) -> bool:
    """Whether ``b`` is within ``reach`` feet of ``a`` (rounding to whole feet allowed for)."""
    return apart(a, b) <= reach + SLACK


def closing_feet(a: Point, b: Point, reach: int) -> int:
    """Feet ``a`` must move toward ``b`` to have it within ``reach``: 0 when it already has."""
    if in_reach(a, b, reach):
        return 0
    return max(0, math.ceil(apart(a, b) - reach - 1e-9))


def _along(a: Point, b: Point, feet: float) -> Point:
    """The whole-foot place ``feet`` from ``a`` on the line to ``b`` (beyond it when ``feet`` is longer)."""
    d = apart(a, b)
    if d == 0:
        return a
    return (a[0] + round((b[0] - a[0]) * feet / d), a[1] + round((b[1] - a[1]) * feet / d))


def step_to(a: Point, b: Point, feet: int) -> Point:
    """Where ``feet`` of movement from ``a`` toward the point ``b`` ends (at ``b`` at most)."""
    return b if feet >= apart(a, b) else _along(a, b, feet)


def toward_reach(a: Point, b: Point, feet: int, reach: int) -> Point:
    """Where ``feet`` of closing from ``a`` on a foe at ``b`` ends: no nearer than ``reach`` to it."""
    d = apart(a, b)
    if d <= reach + SLACK:
        return a
    return _along(a, b, min(feet, d - reach))


def step_away(a: Point, b: Point, feet: int) -> Point:
    """Where ``feet`` of movement from ``a`` straight away from ``b`` ends (along +x when both stand on one spot)."""
    if a == b:
        return (a[0] + feet, a[1])
    return _along(a, (2 * a[0] - b[0], 2 * a[1] - b[1]), feet)


def step_past(a: Point, b: Point, feet: int) -> Point:
    """Where ``feet`` of a charge's momentum from ``a`` carries on through ``b`` and beyond (C2-20's overrun)."""
    return _along(a, b, feet) if a != b else (a[0] + feet, a[1])


def range_band(weapon: Weapon, feet: float) -> tuple[str, int] | None:
    """A missile's range band at ``feet`` and its modifier to hit (2e PH: short 0, medium -2, long -5); None
    beyond long range. A weapon without ``range`` is short at any distance (the file says nothing of it)."""
    if weapon.range is None:
        return "short", 0
    short, medium, long = weapon.range
    if feet <= short + SLACK:
        return "short", 0
    if feet <= medium + SLACK:
        return "medium", -2
    if feet <= long + SLACK:
        return "long", -5
    return None
