"""affray: combat sequencing for old-school D&D under six initiative systems, one engine.

Conventions, stated once: models and events are immutable; state changes only by applying events;
every die goes through one seeded roller; a ruleset is a class whose hooks the engine calls.

    >>> from affray import load_encounter, run
    >>> from affray.examples import example_path   # the example files installed with the package
    >>> result = run(load_encounter(example_path("skirmish.yaml")), ruleset="side-d6", seed=7, auto=True)
    >>> result.final.winner
    'party'

The user's documentation is in the repository's ``docs/`` (the file format, one page per ruleset, conditions,
the commands); ``affray rulesets ID`` and ``affray examples`` say much of it at the command line.
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
