"""Exact odds of one moment, computed with icepool (never sampled): who acts first, whether a spell beats a
blow, an attack's chance to hit and damage, a contest of two rolls and the hits that fell a creature. ``affray
odds`` prints them."""

from affray.odds.attack import AttackOdds, attack, dice_die
from affray.odds.contest import Contest, Kill, contest, hits_to_kill
from affray.odds.order import RULESET_IDS, Contender, Order, SpellOdds, first, spell_vs_blow

__all__ = ["RULESET_IDS", "AttackOdds", "Contender", "Contest", "Kill", "Order", "SpellOdds", "attack", "contest",
           "dice_die", "first", "hits_to_kill", "spell_vs_blow"]
