"""The books' baselines' options (``bx-group``, ``adnd2e-standard``: affray.rulesets.books): side-d6's options (its
code, compiled, takes nothing else), with the house rules the books do not have fixed (fields left out of
``__init__``, so not options: ``option_info``). Left interpreted in the compiled build (setup.py's INTERPRETED, as
engine/options.py), where the dataclass reads its fields."""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from affray.engine.options import default_morale, morale_dice, option
from affray.rulesets.side_d6 import SideD6Options

__all__ = ["BookOptions", "PH2Options"]


@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class BookOptions(SideD6Options):
    """The books' options; the side-d6 house rules the books do not have, fixed off (side-d6's code reads them)."""

    morale_dice: str = morale_dice("2d6")
    default_morale: int = default_morale(7)
    ties: str = option("simultaneous", "BX-03", "sides that tie on initiative: act at the same time (the books' "
                       "rule), or roll again until they differ", ("simultaneous", "reroll"))

    # a side checks after its own first casualty (BX-05, PH2-05)
    morale_first_casualty: str = field(default="own", init=False)
    # more than two sides act in the order of their rolls (BX-02, PH2-02)
    many_sides: str = field(default="descending", init=False)
    # any hit before the spell goes off disrupts it (BX-04, PH2-04)
    melee_disrupts: bool = field(default=True, init=False)
    # not read: the books' surprise is below
    mutual_surprise: str = field(default="cancel", init=False)
    # side-d6's MJ-17: not in the books
    lance_first: bool = field(default=False, init=False)
    # side-d6's MJ-19: not in the books
    shield_splinter: str = field(default="never", init=False)
    # B/X: one missile attack a round
    missile_rate: bool = field(default=False, init=False)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class PH2Options(BookOptions):
    ties: str = option("simultaneous", "PH2-03", "sides that tie on initiative: everything happens at once (the "
                       "PH's rule), or roll again until they differ", ("simultaneous", "reroll"))
    modifiers: bool = option(False, "PH2-06", "Table 55's standard modifiers to a side's d10 (hasted -2, slowed +2, "
                             "higher ground -1, set for a charge -2, slippery footing +2, deep water +4, a foreign "
                             "environment +6, hindered +3, waiting +1), when every member acting that round shares "
                             "the circumstance (declaration key situation; a wait is waiting)")

    # PH2-04: a bow's rate of fire (2/round) is its shots a round
    missile_rate: bool = field(default=True, init=False)
