"""The Python API: load an encounter, prepare it under a ruleset, run it."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affray.dice.roller import DieProvider
from affray.engine.engine import Fight, OutcomeProvider, Result
from affray.engine.events import Event
from affray.engine.ruleset import Ruleset, Step
from affray.errors import EncounterError, OptionError, Problem, UnknownRulesetError
from affray.io.load import Loaded, load_encounter, sort_problems
from affray.rulesets import RULESETS, find_ruleset

__all__ = ["Prepared", "prepare", "run", "run_file"]


@dataclass(frozen=True)
class Prepared:
    """An encounter checked under a ruleset, with its options and seed settled."""

    loaded: Loaded
    ruleset: Ruleset
    seed: int

    def fight(self, *, auto: bool = False, max_rounds: int = 50, explain: bool = True, keep: bool = True,
              provider: DieProvider | None = None, on_event: Callable[[Event], None] | None = None,
              outcome_provider: OutcomeProvider | None = None, on_step: Callable[[Step], None] | None = None) -> Fight:
        return Fight(self.loaded.encounter, self.ruleset, seed=self.seed, auto=auto, max_rounds=max_rounds,
                     explain=explain, keep=keep, provider=provider, on_event=on_event,
                     encounter_file=self.loaded.file, outcome_provider=outcome_provider, on_step=on_step)


def ruleset_class(loaded: Loaded, override: str | None) -> type[Ruleset] | None:
    """The ruleset named by ``--ruleset`` or else the file (None when neither names one)."""
    name = override if override is not None else loaded.encounter.ruleset
    if name is None:
        return None
    try:
        return find_ruleset(name)
    except UnknownRulesetError as exc:
        if override is not None:
            raise
        raise EncounterError([loaded.problem(("ruleset",), str(exc))]) from None


def prepare(loaded: Loaded, *, ruleset: str | None = None, seed: int | None = None,
            options: Mapping[str, Any] | None = None) -> Prepared:
    """Check ``loaded`` under its ruleset (``ruleset`` overrides the file's) and settle options and seed."""
    cls = ruleset_class(loaded, ruleset)
    if cls is None:
        valid = ", ".join(r.id for r in RULESETS)
        raise EncounterError([Problem(loaded.file, None, "ruleset", f"no ruleset given: add `ruleset:` to the "
                                      f"file or pass --ruleset (valid: {valid})")])
    problems = list(loaded.problems) + list(cls.check(loaded))
    if problems:
        raise EncounterError(sort_problems(problems))
    merged = dict(loaded.encounter.options)
    for name, value in (options or {}).items():
        cls.option(name).parse(value)
        merged[name] = value
    try:
        instance = cls(merged)
    except OptionError as exc:  # pragma: no cover - check() already parsed the file's options
        raise EncounterError([loaded.problem(("options",), str(exc))]) from None
    if seed is None:
        seed = loaded.encounter.seed if loaded.encounter.seed is not None else secrets.randbelow(2**31)
    return Prepared(loaded, instance, seed)


def run(loaded: Loaded, *, ruleset: str | None = None, seed: int | None = None,
        options: Mapping[str, Any] | None = None, auto: bool = False, max_rounds: int = 50) -> Result:
    """Resolve an encounter: its plan, then (``auto``) default actions until one side stands."""
    prepared = prepare(loaded, ruleset=ruleset, seed=seed, options=options)
    return prepared.fight(auto=auto, max_rounds=max_rounds).run()


def run_file(path: str | Path, **kwargs: Any) -> Result:
    """``run(load_encounter(path), ...)``."""
    return run(load_encounter(path), **kwargs)
