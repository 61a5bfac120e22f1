"""Strength and a creature's listed damage bonus on attacks (C2X-04, C2X-05): a plug-in rule.

Option ``strength``: ``file`` (already in the file's THAC0 and damage), ``2e`` (the Player's Handbook's
Table 1) or ``c2`` (Combat II's reading); option ``creature_bonus``: a creature's listed damage bonus in full,
or half to hit and the rest as damage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from affray.abilities import c2_strength, strength
from affray.engine.rules import Rule
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, Step
from affray.model.arms import Arms
from affray.model.derive import dex_reaction_adjustment
from affray.supplements.c2x.options import C2XOptions

if TYPE_CHECKING:
    from affray.engine.fight import Fight

__all__ = ["Strength", "strength_mods"]


def strength_mods(opt: C2XOptions, f: Fighter, weapon: Arms, mods: AttackMods) -> None:  # noqa: C901
    """Option ``strength`` (C2X-04/05) and a creature's listed damage bonus (option ``creature_bonus``)."""
    spec = f.spec
    rule = opt.strength
    if rule != "file":
        missile = weapon.kind != "melee"
        uses_str = weapon.kind == "thrown" or bool(weapon.strength) or not missile
        table = c2_strength if rule == "c2" else strength
        hit, dmg = table(spec.str_, spec.exceptional)
        shown = f"STR {spec.str_}" + (f"/{spec.exceptional:02d}" if spec.exceptional else "")
        dex = dex_reaction_adjustment(spec.dex)
        if not missile:
            if hit:
                mods.add("hit", hit, shown)
        elif rule == "c2" and uses_str and hit > dex:  # C2X-05: the greater of STR to hit and DEX
            mods.add("hit", hit, f"{shown}, above DEX's missile adjustment, C2X-05")
        elif dex:
            mods.add("hit", dex, f"DEX {spec.dex} missile adjustment")
        elif rule == "2e" and uses_str and hit:
            mods.add("hit", hit, shown)
        if uses_str and dmg:
            mods.add("damage", dmg, shown + (", C2X-04" if rule == "c2" else ""))
        if weapon.slots:
            if rule == "c2":  # C2X-05: +1 to hit a slot, no damage
                mods.add("hit", weapon.slots, f"specialized, {weapon.slots} slot{'s' if weapon.slots > 1 else ''}, "
                         "C2X-05")
            else:  # the 2nd edition's specialization
                mods.add("hit", 1, "specialized")
                if not missile:
                    mods.add("damage", 2, "specialized")
    bonus = spec.damage_bonus
    if bonus:
        if opt.creature_bonus == "split":  # C2X-04: half (down) to hit, the rest as damage
            if bonus // 2:
                mods.add("hit", bonus // 2, "half the listed damage bonus, C2X-04")
            mods.add("damage", bonus - bonus // 2, "the rest of the listed damage bonus, C2X-04")
        else:
            mods.add("damage", bonus, "listed damage bonus")


class Strength(Rule):
    """The plug-in: STR's to-hit and damage, specialization and a creature's listed bonus on each attack."""

    def __init__(self, opt: C2XOptions) -> None:
        self.opt = opt

    def mods(self, fight: Fight[Any], step: Step, target: Fighter, mods: AttackMods) -> None:
        a = step.actor
        if self.opt.strength != "file" or a.damage_bonus:
            strength_mods(self.opt, a, step.weapon if step.weapon is not None else a.weapons[0], mods)
