"""affray: combat sequencing for old-school D&D under six initiative systems, one engine.

Conventions, stated once: models and events are immutable; state changes only by applying events;
every die goes through one seeded roller; a ruleset is a class whose hooks the engine calls.

    >>> from affray import load_encounter, run
    >>> result = run(load_encounter("examples/skirmish.yaml"), ruleset="side-d6", seed=7)
    >>> result.final.winner
"""

from affray.api import Prepared, prepare, run, run_file
from affray.engine import Event, Fight, Result, Ruleset
from affray.errors import AffrayError, EncounterError, OptionError, Problem, UnknownRulesetError
from affray.io.load import Loaded, load_encounter, load_text
from affray.io.timeline import timeline_dict, timeline_json
from affray.rulesets import RULESETS, find_ruleset
from affray.sim.simulate import Simulation, simulate

__all__ = [
    "RULESETS",
    "AffrayError",
    "EncounterError",
    "Event",
    "Fight",
    "Loaded",
    "OptionError",
    "Prepared",
    "Problem",
    "Result",
    "Ruleset",
    "Simulation",
    "UnknownRulesetError",
    "find_ruleset",
    "load_encounter",
    "load_text",
    "prepare",
    "run",
    "run_file",
    "simulate",
    "timeline_dict",
    "timeline_json",
]
