"""The books' baselines' options (``bx-group``, ``adnd2e-standard``: affray.rulesets.books). Left interpreted in the
compiled build (setup.py's INTERPRETED, as engine/options.py): mypyc writes every class attribute's type into the
class's annotations, so the dataclass would take side-d6's fixed switches below for options (without a rule)."""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from affray.engine.options import BaseOptions, default_morale, morale_dice, option

__all__ = ["BookOptions", "PH2Options"]


@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class BookOptions(BaseOptions):
    """The books' options; the side-d6 house rules the books do not have, fixed off (class attributes, not fields:
    side-d6's code reads them)."""

    morale_dice: str = morale_dice("2d6")
    default_morale: int = default_morale(7)
    ties: str = option("simultaneous", "BX-03", "sides that tie on initiative: act at the same time (the books' "
                       "rule), or roll again until they differ", ("simultaneous", "reroll"))

    morale_first_casualty = "own"  # a side checks after its own first casualty (BX-05, PH2-05)
    many_sides = "descending"  # more than two sides act in the order of their rolls (BX-02, PH2-02)
    melee_disrupts = True  # any hit before the spell goes off disrupts it (BX-04, PH2-04)
    mutual_surprise = "cancel"  # not read: the books' surprise is below
    lance_first = False  # side-d6's MJ-17: not in the books
    shield_splinter = "never"  # side-d6's MJ-19: not in the books
    missile_rate = False  # B/X: one missile attack a round


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class PH2Options(BookOptions):
    ties: str = option("simultaneous", "PH2-03", "sides that tie on initiative: everything happens at once (the "
                       "PH's rule), or roll again until they differ", ("simultaneous", "reroll"))
    modifiers: bool = option(False, "PH2-06", "Table 55's standard modifiers to a side's d10 (hasted -2, slowed +2, "
                             "higher ground -1, set for a charge -2, slippery footing +2, deep water +4, a foreign "
                             "environment +6, hindered +3, waiting +1), when every member acting that round shares "
                             "the circumstance (declaration key situation; a wait is waiting)")

    missile_rate = True  # PH2-04: a bow's rate of fire (2/round) is its shots a round
