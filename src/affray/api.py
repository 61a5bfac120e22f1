"""The Python API: load an encounter, prepare it under a ruleset, run it."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.dice.roller import DieProvider
from affray.engine.events import Event
from affray.engine.fight import Result
from affray.engine.options import describe as describe_options
from affray.engine.resolve import Engine
from affray.engine.ruleset import Ruleset
from affray.errors import EncounterError, OptionError, Problem, UnknownRulesetError
from affray.extensions import bind, check_option, normalise
from affray.io.checks import check
from affray.io.load import Loaded, load_encounter, sort_problems
from affray.model.encounter import Encounter
from affray.plugins import assemble
from affray.policy import Auto, PolicyError, load_policy
from affray.rulesets import find_ruleset, ruleset_ids

if TYPE_CHECKING:  # the driven fight (greenlet, questions, commands) is imported by the commands that drive one
    from affray.drive import DicePrefs, Drive, Input

__all__ = ["Prepared", "describe", "policy_problems", "prepare", "run", "run_file"]


@dataclass(frozen=True)
class Prepared:
    """An encounter checked under a ruleset, with its options and seed settled."""

    loaded: Loaded
    ruleset: Ruleset[Any, Any]
    seed: int

    @property
    def encounter(self) -> Encounter:
        """The encounter as this seed's fight starts it: hit points left to dice rolled from the seed (CONTRACT.md
        "The catalogue"), catalogue monsters' morale set for the ruleset's dice; the file's own when it has none."""
        return self.loaded.settled(self.seed, _morale_dice(self.ruleset)).encounter

    def fight(self, *, auto: bool = False, max_rounds: int = 50, explain: bool = True, keep: bool = True,
              provider: DieProvider | None = None, on_event: Callable[[Event], None] | None = None,
              lean_listener: bool = False) -> Engine[Any]:
        """A fight ready to ``run()``: its plug-ins chosen by the options; under ``auto`` each combatant plays its
        ``policy`` (``affray.policy.Auto``, one a fight). ``lean_listener``: ``on_event`` hears only what changes
        the state (a tally), so ``explain=False, keep=False`` stays the lean mode (no ``delay`` events, no words)."""
        rules, pools = assemble(self.ruleset)
        return Engine(self.encounter, self.ruleset, rules, seed=self.seed, policy=Auto(), auto=auto,
                      max_rounds=max_rounds, explain=explain, keep=keep, pools=pools, provider=provider,
                      on_event=on_event, lean_listener=lean_listener, encounter_file=self.loaded.file)

    def drive(self, *, auto: bool = False, max_rounds: int = 50, dice: str | DicePrefs = "roll",
              announce: bool = False, inputs: Iterable[Input] = (), events: int = 0) -> Drive:
        """The fight as a conversation (``affray.drive``): pull events and questions, answer them. ``dice``: "roll"
        every die nobody gave, "ask" for it, or per side and purpose (``DicePrefs``); ``inputs`` and ``events``:
        a resumed fight's recorded inputs, given again while it is rebuilt to that many events."""
        from affray.drive import DicePrefs, Drive

        prefs = dice if isinstance(dice, DicePrefs) else DicePrefs({"all": dice})
        return Drive(lambda: self.fight(auto=auto, max_rounds=max_rounds), dice=prefs, announce=announce,
                     inputs=inputs, events=events)


def _morale_dice(ruleset: Ruleset[Any, Any]) -> str:
    """The dice the ruleset rolls against a morale score (G-07): a catalogue monster's morale is set for them."""
    return str(getattr(ruleset.opt, "morale_dice", "2d6"))


def describe(cls: type[Ruleset[Any, Any]]) -> dict[str, Any]:
    """A ruleset as ``affray rulesets`` shows it: id, title, seed, its options with defaults, its own keys."""
    from affray.extensions import entry

    e = entry("ruleset", cls.id)
    return {"id": cls.id, "title": cls.title, "seed": cls.seed, "options": describe_options(cls.Options),
            "declaration_keys": dict(cls.declaration_keys), "package": e.package if e else None,
            "version": e.version if e else None}


def ruleset_class(loaded: Loaded, override: str | None) -> type[Ruleset[Any, Any]] | None:
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
            options: Mapping[str, Any] | None = None, code: Collection[str] = ()) -> Prepared:
    """Check ``loaded`` under its ruleset (``ruleset`` overrides the file's) and settle options and seed.

    ``code``: the designer's ``module:function`` policies the caller trusts (named on the command line); a policy
    that may not be run, or cannot be loaded, is PolicyError (said apart from the file's other problems: a saved
    fight whose policy is missing here is not damaged)."""
    cls = ruleset_class(loaded, ruleset)
    if cls is None:
        valid = ", ".join(ruleset_ids())
        raise EncounterError([Problem(loaded.file, None, "ruleset", f"no ruleset given: add `ruleset:` to the "
                                      f"file or pass --ruleset (valid: {valid})")])
    problems = list(loaded.problems) + list(check(cls, loaded))
    if problems:
        raise EncounterError(sort_problems(problems))
    unrun = policy_problems(loaded, code)
    if unrun:
        raise PolicyError(str(EncounterError(sort_problems(unrun))))
    merged = dict(loaded.encounter.options)
    for name, value in (options or {}).items():
        check_option(cls, name, value)
        merged[name] = value
    merged = normalise(merged, cls)
    try:
        instance = cls(merged)
        bind(instance)
    except OptionError as exc:  # pragma: no cover - check() already parsed the file's options
        raise EncounterError([loaded.problem(("options",), str(exc))]) from None
    if seed is None:
        seed = loaded.encounter.seed if loaded.encounter.seed is not None else secrets.randbelow(2**31)
    return Prepared(loaded.settled(seed, _morale_dice(instance)), instance, seed)


def policy_problems(loaded: Loaded, code: Collection[str] = ()) -> list[Problem]:
    """A designer's policy of the encounter (``module:function``, an entry point) that cannot be loaded, or a
    ``module:function`` not among ``code`` (those the caller trusts): it is not imported."""
    from affray.model.encounter import POLICY_NAMES

    out = []
    for side, s in loaded.encounter.sides.items():
        named: list[tuple[tuple[str | int, ...], str | None]] = [(("sides", side, "policy"), s.policy)]
        named += [(("sides", side, "combatants", i, "policy"), c.policy) for i, c in enumerate(s.combatants)]
        for loc, ref in named:
            if ref is None or ref in POLICY_NAMES:
                continue
            if ":" in ref and ref not in code:
                out.append(loaded.problem(loc, f"policy {ref}: a designer's module:function, whose code affray runs "
                                               f"only when you name it on the command line: `--policy {side}={ref}` "
                                               f"for a new fight, `--policy {ref}` to resume or log a saved one"))
                continue
            try:
                load_policy(ref)
            except PolicyError as exc:
                out.append(loaded.problem(loc, str(exc)))
    return out


def run(loaded: Loaded, *, ruleset: str | None = None, seed: int | None = None,
        options: Mapping[str, Any] | None = None, auto: bool = False, max_rounds: int = 50) -> Result:
    """Resolve an encounter: its plan, then (``auto``) default actions until one side stands."""
    prepared = prepare(loaded, ruleset=ruleset, seed=seed, options=options)
    return prepared.fight(auto=auto, max_rounds=max_rounds).run()


def run_file(path: str | Path, **kwargs: Any) -> Result:
    """``run(load_encounter(path), ...)``."""
    return run(load_encounter(path), **kwargs)
