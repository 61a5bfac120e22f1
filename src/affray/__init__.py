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

import os
from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

if TYPE_CHECKING:
    from affray.api import Prepared, prepare, run, run_file
    from affray.engine import Event, Fight, Result, Ruleset
    from affray.errors import AffrayError, EncounterError, OptionError, Problem, UnknownRulesetError
    from affray.io.load import Loaded, load_encounter, load_text
    from affray.io.timeline import timeline_dict, timeline_json
    from affray.rulesets import RULESETS, find_ruleset

#: Where each public name lives: imported on first use, so that a command pays only for what it uses.
_HOME = {"Prepared": "affray.api", "prepare": "affray.api", "run": "affray.api", "run_file": "affray.api",
         "Event": "affray.engine", "Fight": "affray.engine", "Result": "affray.engine", "Ruleset": "affray.engine",
         "AffrayError": "affray.errors", "EncounterError": "affray.errors", "OptionError": "affray.errors",
         "Problem": "affray.errors", "UnknownRulesetError": "affray.errors", "Loaded": "affray.io.load",
         "load_encounter": "affray.io.load", "load_text": "affray.io.load", "timeline_dict": "affray.io.timeline",
         "timeline_json": "affray.io.timeline", "RULESETS": "affray.rulesets", "find_ruleset": "affray.rulesets",
         "Simulation": "affray.sim.simulate", "simulate": "affray.sim.simulate"}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'affray' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def _check_build() -> None:
    """In a source checkout (an editable install), warn when a compiled module is older than its source: Python
    would import the compiled one, and the edit would not run (compiled.py)."""
    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.basename(os.path.dirname(here)) != "src":  # installed: nobody edits it
        return
    try:
        if not any(n.endswith(tuple(EXTENSION_SUFFIXES)) for n in os.listdir(os.path.join(here, "engine"))):
            return  # the pure build
    except OSError:
        return
    import warnings

    from affray.compiled import StaleBuildWarning, stale, stale_message

    found = stale()
    if found:
        warnings.warn(stale_message(found), StaleBuildWarning, stacklevel=2)


_check_build()

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
    "__version__",
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
