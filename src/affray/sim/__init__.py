"""The designer's workbench: many fights under each ruleset, summed (``simulate``), and how to show them.

    >>> from affray.sim import simulate
    >>> sim = simulate("src/affray/examples/skirmish.yaml", rulesets="all", fights=200, seed=1, workers=1)
    >>> sim.rulesets["side-d6"].win_rate["party"]          # Interval(p=..., low=..., high=...)
"""

from affray.sim.runner import BATCH_SIZE, UNITS, fight_seeds
from affray.sim.simulate import FightRow, Point, Simulation, simulate
from affray.sim.stats import Interval, wilson
from affray.sim.summary import CombatantStats, LengthStats, RulesetStats, SideStats
from affray.sim.sweep import Axis, field_axis, option_axis
from affray.sim.tally import SIMULTANEOUS, FightRecord, Tally

__all__ = [
    "BATCH_SIZE",
    "SIMULTANEOUS",
    "UNITS",
    "Axis",
    "CombatantStats",
    "FightRecord",
    "FightRow",
    "Interval",
    "LengthStats",
    "Point",
    "RulesetStats",
    "SideStats",
    "Simulation",
    "Tally",
    "field_axis",
    "fight_seeds",
    "option_axis",
    "simulate",
    "wilson",
]
