"""The ruleset base class: what a ruleset must say, and nothing else (STYLE.md 1-2).

Metadata as ClassVars; then the clock: when declarations are made (``begin``, ``after``, ``ready``), where a
period ends, when an effect ends (``phase_end``, ``expiry``), headings; its step rules (``rules``), with one
route for the kinds of step it resolves itself (``resolve_own``); its per-fight state (``new_state``) and
options (``Options``, read as ``self.opt.name``; an extension's are in ``ext``); and its load-time checks.
Shared reckonings (morale) live in ``affray.reckon``; option handling in ``engine.options``; the checks every
ruleset shares in ``io.checks``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict, fields
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from affray.engine.events import Tick
from affray.engine.options import BaseOptions, parse_options
from affray.engine.rules import Rule
from affray.engine.step import Step, Until, counted
from affray.model.encounter import Combatant, Declaration, Dice
from affray.model.order import Order

if TYPE_CHECKING:
    from affray.engine.fight import Fight
    from affray.engine.state import Fighter
    from affray.errors import Problem
    from affray.io.load import Loaded

__all__ = ["Ruleset"]

S = TypeVar("S")
Opts = TypeVar("Opts", bound=BaseOptions)


@mypyc_attr(allow_interpreted_subclasses=True)  # rulesets written outside affray subclass it (the compiled build)
class Ruleset(Generic[S, Opts]):
    """Base of every ruleset. Subclasses set the ClassVars and override the hooks their seed changes."""

    id: ClassVar[str]
    title: ClassVar[str]
    seed: ClassVar[str]
    rule_ids: ClassVar[str] = ""  # the RULES.md prefix, e.g. "MJ"
    #: The options dataclass: BaseOptions' fields and the ruleset's own.
    Options: ClassVar[type[BaseOptions]] = BaseOptions
    #: Declaration keys this ruleset reads beyond CONTRACT.md's, with what they mean.
    declaration_keys: ClassVar[dict[str, str]] = {}
    initiative_die: ClassVar[int] = 6
    surprise_die: ClassVar[int] = 6
    action_die: ClassVar[int | None] = None  # a declaration's own ``roll`` (phase-count's d6)
    #: Whether ``rolls.initiative`` may give a combatant's own die by its name (d12-procedure's PCs, phase-count's
    #: action dice); else only sides'.
    initiative_by_name: ClassVar[bool] = False
    attack_scheme: ClassVar[str | None] = None  # attacks per round by class/level: "1e", "2e" or none
    has_rounds: ClassVar[bool] = True  # the tick's first element is the round; else ``round`` is null
    #: Declaration points a round (``--max-rounds`` counts rounds): Combat II's three phases.
    periods_per_round: ClassVar[int] = 1
    #: Whether an opportunity attack that does damage stops the mover.
    opportunity_stops: ClassVar[bool] = False
    #: Step kinds the ruleset resolves itself (``resolve_own``), even when the actor is no longer active.
    own_kinds: ClassVar[frozenset[str]] = frozenset()
    #: The most feet a move of some mode may cover under this ruleset (d12-procedure's 5-foot step and 10-ft fall
    #: back): what a question offers for that mode, and the file's check.
    move_limits: ClassVar[dict[str, int]] = {}


    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        given = options or {}
        self.opt: Opts = parse_options(self.Options, {k: v for k, v in given.items() if "." not in k},  # type: ignore[assignment]
                                       self.id)
        #: The options of extensions, ``NS.option`` (CONTRACT.md "Extensions"): read by their extension.
        self.ext_options: dict[str, Any] = {k: v for k, v in given.items() if "." in k}
        #: Each extension's options, parsed, by extension name (``affray.extensions.bind``; the engine reads none).
        self.ext: dict[str, Any] = {}
        #: How each extension's options are named in the output: "" (bare, a supplement older files name so) or "NS.".
        self.ext_prefix: dict[str, str] = {}
        self._all: tuple[int, dict[str, Any]] | None = None

    def all_options(self) -> dict[str, Any]:
        """Every option of a fight under this ruleset, as its output shows them: every ruleset's (G-04, G-07), each
        extension's (bare for one that reads bare names, else ``NS.option``), then the ruleset's own."""
        if self._all is not None and self._all[0] == len(self.ext):
            return dict(self._all[1])
        fixed = {f.name for f in fields(self.opt) if not f.init}  # set by the ruleset, not options (option_info)
        own = {k: v for k, v in asdict(self.opt).items() if k not in fixed}
        base = {f.name for f in fields(BaseOptions)}
        out = {k: v for k, v in own.items() if k in base}
        for name, opts in self.ext.items():
            prefix = self.ext_prefix.get(name, f"{name}.")
            out.update({f"{prefix}{k}": v for k, v in asdict(opts).items()})
        out.update({k: v for k, v in own.items() if k not in base})
        self._all = (len(self.ext), out)  # a ruleset serves many fights (the simulator's): worked out once
        return dict(out)

    def new_state(self) -> S:
        """The ruleset's own state for one fight (``Fight.memo``): a ruleset instance serves many fights."""
        return None  # type: ignore[return-value]

    def rules(self) -> list[Rule]:
        """The ruleset's step rules, asked after the plug-ins' (``engine.rules``)."""
        return []

    # -- the clock --------------------------------------------------------------------------------------
    def begin(self, fight: Fight[S], period: int) -> None:
        """Start declaration point ``period``: surprise, morale, declarations, initiative; push the steps."""
        raise NotImplementedError

    def end(self, fight: Fight[S], period: int) -> None:
        """After the period's steps: bookkeeping (morale at step E, durations...)."""

    def after(self, fight: Fight[S], tick: Tick) -> None:
        """After the events of one moment and the deaths they caused (phase-count declares here)."""

    def ready(self, fight: Fight[S], f: Fighter) -> None:
        """``f`` has something new to do mid-fight (it joined, or the referee gave it declarations): rulesets
        that ask for declarations at fixed points do nothing; one that asks only as actions resolve places it."""

    def period_end(self, period: int) -> Tick:
        """Steps with a tick before this one resolve in ``period``."""
        return (period + 1,)

    def phase_end(self, fight: Fight[S], tick: Tick, later: int = 0, unit: str = "phase") -> Until:
        """The end of the phase (``unit`` "round": the round) holding ``tick``, ``later`` on: timed effects of the
        critical tables (C2X-03/04, Combat II's supplement) last until then; ``unit`` "last": the last moment of that
        phase itself, where what it owes comes (a critical 10's free attack "next phase"), where a ruleset has one
        before the next begins. By default a ruleset's period (its declaration point) is its phase and its round."""
        end = self.period_end(fight.period + later)
        return Until(end, f"round {end[0]}, start")

    def expiry(self, fight: Fight[S], tick: Tick, count: int, unit: str) -> Until:
        """G-08: when an effect begun at ``tick`` and lasting ``count`` ``unit``s (round, turn, phase, segment, as
        the spell lists write them) ends, on the ruleset's clock. By default (a round a declaration point): as
        round r + N begins; a turn is ten rounds; without phases a phase counts as a round, and ten segments
        make a round (a part of one counts whole)."""
        rounds = {"round": count, "turn": 10 * count, "phase": count, "segment": -(-count // 10)}[unit]
        end = tick[0] + rounds
        return Until((end,), f"round {end}, start", f"round {tick[0]} + {counted(count, unit)}"
                     + (f" ({counted(rounds, 'round')})" if unit != "round" else "") + f": it ends as round {end} "
                     "begins (G-08)")

    @classmethod
    def heading(cls, tick: Tick) -> str | None:
        """A heading of the readable timeline for a ruleset without rounds (None: none)."""
        return None

    def pending(self, fight: Fight[S]) -> bool:
        """Whether the ruleset still has work of its own when no plan is left (an attack owed after closing,
        a spell held into the next round): the fight goes on."""
        return False

    def keeps(self, decl: Order) -> bool:
        """Whether a combatant a person answers for (``declare: ask``) goes on with ``decl``, its standing
        declaration, at its next declaration point without being asked, while it is still possible: where points
        come within a round (Combat II's phases) or as each action resolves (phase-count), a player's attack goes on
        until it has something new to declare. By default (a declaration a round) each one is asked."""
        return False

    def refusal(self, fight: Fight[S], f: Fighter, decl: Order) -> str | None:
        """Why the seed forbids ``decl`` to ``f`` at this moment of the fight (a casting barred for the rest of the
        round, a charge that cannot arrive), or None: the ruleset's part of the one validator (``engine.validity``),
        asked for what a question offers, an answer, a repeated or said-ahead declaration. Only what would be
        refused or cancelled: what the ruleset merely makes wait (a forced delay) is allowed."""
        return None

    def resolve_own(self, fight: Fight[S], step: Step) -> None:
        """Resolve a step of one of ``own_kinds`` (a delayed effect, an expiry): the one route for them. It runs
        before the engine's checks; ``Engine.may_act`` makes them when the step is an action."""
        raise NotImplementedError(step.kind)

    # -- load-time checks ---------------------------------------------------------------------------------
    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:
        """Checks of a ruleset's own (its seed's restrictions), after those every ruleset makes."""
        return iter(())

    @classmethod
    def part_dice(cls, spec: Combatant, decl: Declaration, part: int) -> tuple[Dice | None, int]:
        """The damage dice part ``part`` of an attack declaration throws (a multi-part routine's own weapon: C2-07);
        by default every part throws the declaration's (``attack_dice``). What the file's dice are checked against."""
        return cls.attack_dice(spec, decl)

    @classmethod
    def attack_dice(cls, spec: Combatant, decl: Declaration) -> tuple[Dice | None, int]:
        """The damage dice an attack declaration throws (None: the unarmed 1d2) and how many times over (a
        charge throws twice the dice in some seeds)."""
        weapon = spec.weapon_for(decl.weapon, missile=decl.action == "missile")
        return (weapon.damage if weapon is not None else None), 1
