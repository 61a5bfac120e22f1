"""Exact odds of one moment, computed with icepool (never sampled): who acts first, whether a spell beats a
blow, and an attack's chance to hit and damage. ``affray odds`` prints them."""

from affray.odds.attack import AttackOdds, attack, dice_die
from affray.odds.order import RULESET_IDS, Contender, Order, SpellOdds, first, spell_vs_blow

__all__ = ["RULESET_IDS", "AttackOdds", "Contender", "Order", "SpellOdds", "attack", "dice_die", "first",
           "spell_vs_blow"]
