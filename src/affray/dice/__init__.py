"""Dice: expressions (read by our own parser, dice/expr.py) and the seeded roller that records every die."""

from affray.dice.expr import DiceExpr, parse_dice
from affray.dice.roller import DieProvider, Roll, Roller

__all__ = ["DiceExpr", "DieProvider", "Roll", "Roller", "parse_dice"]
