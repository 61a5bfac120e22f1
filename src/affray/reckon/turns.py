"""The sides of a turn in this declaration point's order."""

from __future__ import annotations

from typing import Any

from affray.engine.fight import Fight

__all__ = ["turn_sides"]


def turn_sides(fight: Fight[Any], turn: int) -> str:
    """The sides whose turn is ``turn`` in this round's order: "orcs", or "party and orcs together"."""
    sides = [s for s, k in fight.state.ranks.items() if k == turn]
    return " and ".join(sides) + (" together" if len(sides) > 1 else "")
