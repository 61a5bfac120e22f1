"""Reckonings several rulesets share: morale (G-07), agility and the AC given up (C2X-01), the sides of a turn."""

from affray.reckon.agility import agility, unshielded_ac
from affray.reckon.morale import MoraleOptions, casualty_morale, losses, morale_due, morale_score
from affray.reckon.turns import turn_sides

__all__ = ["MoraleOptions", "agility", "casualty_morale", "losses", "morale_due", "morale_score", "turn_sides",
           "unshielded_ac"]
