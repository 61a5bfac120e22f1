"""Reckonings several rulesets share: morale (G-07), the sides of a turn (agility is Combat II's supplement's:
``affray.supplements.c2x.agility``)."""

from affray.reckon.morale import MoraleOptions, casualty_morale, losses, morale_due, morale_score
from affray.reckon.turns import turn_sides

__all__ = ["MoraleOptions", "casualty_morale", "losses", "morale_due", "morale_score", "turn_sides"]
