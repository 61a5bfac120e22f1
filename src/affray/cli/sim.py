"""``affray simulate``, ``affray compare`` and ``affray odds`` (CONTRACT.md "Simulation")."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from affray.cli.common import guard, numbers, parse_sets, whole
from affray.errors import OptionError
from affray.limits import MAX_FIGHTS, MAX_SIMULATE_SECONDS, MAX_WORKERS

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from rich.console import Console

    from affray.io.output import Output
    from affray.sim import Simulation

__all__ = ["odds_app", "register"]

odds_app = typer.Typer(no_args_is_help=True, help="Exact probabilities of one moment, computed (icepool), "
                       "not sampled: who acts first, a spell against a blow, an attack's hit and damage.")

RulesetOpt = Annotated[str | None, typer.Option(help="ruleset id, ids separated by commas, or all (default: the "
                                                "file's)")]
# whole numbers are read by ``whole`` rather than typer, so that a bad one is told in affray's words
FightsOpt = Annotated[str, typer.Option(metavar="N", help="fights per ruleset (and grid point)")]
SeedOpt = Annotated[str | None, typer.Option(metavar="N", help="seed (default: the file's, else a fresh one)")]
WorkersOpt = Annotated[str | None, typer.Option(metavar="N", help="processes (default: every core; 1: this one)")]
SchedulerOpt = Annotated[str | None, typer.Option(help="a Dask scheduler's address: run the batches there")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="OPTION=VALUE, or OPTION=v1,v2,... for a "
                                                  "sweep; repeatable")]
VaryOpt = Annotated[list[str] | None, typer.Option("--vary", help="FIELD=a..b (e.g. sides.party.combatants[0]"
                                                   ".level=1..5) or FIELD=v1,v2,...: a sweep; repeatable")]
PolicyOpt = Annotated[list[str] | None, typer.Option("--policy", help="NAME for every side, or SIDE=NAME "
                                                     "(SIDE=n1,n2,... sweeps it); NAME: a built-in policy or "
                                                     "module:function (docs/policies.md)")]
MaxRoundsOpt = Annotated[str, typer.Option("--max-rounds", metavar="N", help="a fight still on after this many "
                                           "rounds (cycles; 5-phase rounds in phase-count) is a draw")]
JsonOpt = Annotated[bool, typer.Option("--json", help="one JSON document on stdout")]
PlotOpt = Annotated[Path | None, typer.Option(help="also draw a figure: a .png or .svg file, or a folder (the "
                                             "figure is then named after the encounter)")]
YesOpt = Annotated[bool, typer.Option("--yes", help="run it even if it is expected to take longer than "
                                      "MAX_SIMULATE_SECONDS (10 min; the estimate is said first)")]
RowsOpt = Annotated[Path | None, typer.Option(help="write one row per fight and combatant: a .csv or .parquet "
                                              "file (.parquet needs pyarrow)")]


def _wide() -> Console:
    """stdout; piped, wide enough for six rulesets side by side (a terminal keeps its own width)."""
    from rich.console import Console

    console = Console(highlight=False, markup=False, emoji=False)  # names (tables' cells) as written
    return console if console.is_terminal else Console(highlight=False, markup=False, emoji=False, width=170)


@contextmanager
def _pool(workers: int | None, scheduler: str | None) -> Iterator[Executor | None]:
    """The process pool, its workers started before the progress bar's thread exists (they are forked)."""
    from affray.sim.runner import default_workers, worker_pool

    n = workers if workers is not None else default_workers()
    if scheduler is not None or n <= 1:
        yield None
        return
    with worker_pool(n) as pool:  # ended at once on Ctrl-C or an error, not waited for
        pool.submit(int).result()  # a fork-started pool launches every worker at its first task
        yield pool


@contextmanager
def _progress() -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr at a terminal; nothing otherwise."""
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("fights"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task("fights", total=None)

        def advance(n: int, total: int) -> None:
            bar.update(task, advance=n, total=total)

        yield advance


def policy_fields(file: Path | str, sides: list[str], items: list[str]) -> tuple[dict[str, Any], list[Any]]:  # noqa: C901
    """``--policy`` as fixed fields of the file (every side, or one) and sweep axes (a side given several): each
    item is NAME (every side), SIDE=NAME or SIDE=n1,n2,...; a NAME is a built-in policy or ``module:function``."""
    from affray.model.encounter import POLICY_NAMES
    from affray.policy import PolicyError, load_policy
    from affray.sim.sweep import Axis

    fields: dict[str, Any] = {}
    axes: list[Any] = []
    for item in items:
        if len(item) > 300:  # said briefly: a refused name is not echoed whole
            item = item[:200] + f"... ({len(item):,} characters)"
        side, sep, names = item.rpartition("=")
        values = [v.strip() for v in names.split(",")]
        if not all(values):
            raise OptionError(f"{file}: --policy {item!r}: use NAME, SIDE=NAME or SIDE=n1,n2,... (NAME: a built-in "
                              "policy or module:function)")
        for value in values:  # told as the option's, not as a line of the file it is written into
            if value not in POLICY_NAMES:
                try:
                    load_policy(value)
                except PolicyError as exc:
                    raise OptionError(f"{file}: --policy {item}: {exc}") from None
        if not sep:
            if len(values) > 1:
                raise OptionError(f"{file}: --policy {item!r}: name the side to sweep policies, e.g. "
                                  f"--policy {sides[0]}={names}")
            fields.update({f"sides.{s}.policy": values[0] for s in sides})
            continue
        if side not in sides:
            raise OptionError(f"{file}: --policy {item!r}: no side {side!r} (sides: {', '.join(sides)})")
        if len(values) > 1:
            axes.append(Axis(f"sides.{side}.policy", "field", tuple(values)))
        else:
            fields[f"sides.{side}.policy"] = values[0]
    return fields, axes


def with_policies(text: str, file: Path, items: list[str]) -> str:
    """The encounter's text with ``--policy`` written into its sides (``run``, ``play``, ``drive``: one fight, so
    one policy a side); the file's own errors are reported as ever, after."""
    from affray.io.load import load_text
    from affray.sim.sweep import with_fields

    if not items:
        return text
    sides = list(load_text(text, str(file), strict=False).encounter.sides)
    fields, axes = policy_fields(file, sides, items)
    if axes:
        raise OptionError(f"{file}: --policy {axes[0].name.split('.')[1]}={','.join(map(str, axes[0].values))}: "
                          "one policy a side for one fight (`affray simulate` sweeps several)")
    try:
        return with_fields(text, fields)
    except ValueError as exc:  # pragma: no cover - the sides were just read from this text
        raise OptionError(f"{file}: --policy: {exc}") from None


def _policies(file: Path, items: list[str]) -> tuple[dict[str, Any], list[Any]]:
    """``--policy`` for ``simulate`` and ``compare``: fields of every grid point, and sweep axes."""
    from affray.io.load import load_encounter

    if not items:
        return {}, []
    return policy_fields(file, list(load_encounter(file, strict=False).encounter.sides), items)


@contextmanager
def _outputs(file: Path, plot: Path | None, rows: Path | None, sweep: bool) -> Iterator[tuple[Output | None,
                                                                                          Output | None]]:
    """The figure's and the rows' files opened before any fight (their folders checked, neither the encounter):
    written beside their targets, and put in place only once whole (``affray.io.output``)."""
    from affray.io.output import Output
    from affray.sim.plot import plot_target

    opened: list[Output] = []
    try:
        try:
            if plot is not None:
                opened.append(Output(plot_target(plot, file, sweep), "--plot", inputs=[file]))
            if rows is not None:
                opened.append(Output(rows, "--rows", inputs=[file]))
        except OptionError as exc:
            raise OptionError(f"{file}: {exc}") from None
        figure = opened[0] if plot is not None else None
        yield figure, opened[-1] if rows is not None else None
    except BaseException:
        for out in opened:
            out.discard()
        raise


def _run(file: Path, ruleset: str | None, fights_text: str, seed_text: str | None, workers_text: str | None,  # noqa: C901
         scheduler: str | None, sets: list[str] | None, vary: list[str] | None, policy: list[str] | None,
         max_rounds_text: str, plot: Path | None, rows: Path | None = None, yes: bool = False,
         as_json: bool = False) -> None:
    """A simulation from the command line's options, shown (``_show``)."""
    from affray.extras import require

    require("simulating fights", "numpy")  # before any fight: what the options ask for is there to be used
    if plot is not None:
        require("--plot", "matplotlib")
    if scheduler is not None:
        require("--scheduler", "distributed")
    from affray.sim import field_axis, option_axis, simulate
    from affray.sim.plot import check_plot_path
    from affray.sim.simulate import check_rows_path

    try:
        seed, max_rounds = numbers(seed_text, max_rounds_text)
        fights = whole("--fights", fights_text, 1, MAX_FIGHTS, f"a whole number from 1 to {MAX_FIGHTS:,} (limit)")
        workers = whole("--workers", workers_text, 1, MAX_WORKERS, f"a whole number from 1 to {MAX_WORKERS} (limit)")
    except OptionError as exc:
        raise OptionError(f"{file}: {exc}") from None
    assert fights is not None
    try:
        if plot is not None:
            check_plot_path(plot)
        if rows is not None:
            check_rows_path(rows)
    except OptionError as exc:
        raise OptionError(f"{file}: {exc}") from None
    options: dict[str, Any] = {}
    axes: list[Any] = []
    for item in sets or []:
        try:
            parsed = option_axis(item)
        except OptionError as exc:
            raise OptionError(f"{file}: {exc}") from None
        if isinstance(parsed, tuple):
            options[parsed[0]] = parsed[1]
        else:
            axes.append(parsed)
    for item in vary or []:
        try:
            axes.append(field_axis(item))
        except OptionError as exc:
            raise OptionError(f"{file}: {exc}") from None
    fields, policy_axes = _policies(file, policy or [])
    from affray.sim.rows import RowsWriter

    with _outputs(file, plot, rows, bool(axes + policy_axes)) as (figure, written):
        writer = None
        if written is not None:
            writer = RowsWriter(written, written.path.suffix.lower() == ".parquet")
        with _pool(workers, scheduler) as pool, _progress() as progress:
            sim = simulate(file, rulesets=ruleset, fights=fights, seed=seed, options=options, sweep=axes + policy_axes,
                           fields=fields, max_rounds=max_rounds, workers=1 if pool is None else None,
                           scheduler=scheduler, executor=pool, progress=progress, rows=writer,
                           budget=None if yes else MAX_SIMULATE_SECONDS)
        _show(sim, file, as_json, figure, written)


#: The exit status of a simulation stopped by Ctrl-C (SIGINT): 128 + 2, as a shell reports a process it ended.
INTERRUPTED = 130


def _stoppable(file: Path, body: Callable[[], None]) -> None:
    """``body`` (under ``guard``), Ctrl-C ending it within a second: the workers are ended (``worker_pool``), then
    one line says so and the process exits with ``INTERRUPTED``."""
    from affray.cli.common import err
    from affray.printable import printable

    try:
        guard(body)
    except KeyboardInterrupt:
        err().print(f"{printable(str(file))}: interrupted (Ctrl-C): the simulation and its workers "
                    "stopped", markup=False)
        sys.stdout.flush()
        sys.stderr.flush()
        # Nothing is left to finish (the workers are ended, nothing was written): the interpreter's own unwinding of
        # numpy, pandas and the rest, a few tenths of a second on a busy machine, is skipped.
        os._exit(INTERRUPTED)


def _show(sim: Simulation, file: Path, as_json: bool, plot: Output | None, written: Output | None) -> None:
    """The simulation's tables (or JSON), its figure drawn and its rows put in place first."""
    from affray.cli.common import err
    from affray.sim.render import combatant_table, compare_table, difference_table, spell_table, sweep_table

    figure = rows = None
    if plot is not None:
        from affray.sim.plot import draw_figure

        draw_figure(sim, plot)
        plot.commit()
        figure = plot.path
    if written is not None:
        written.commit()
        rows = written.path
    for warning in sim.warnings:
        err().print(f"{file}: warning: {warning}", markup=False)
    if as_json:
        sys.stdout.write(sim.to_json())
        return
    out = _wide()
    if sim.sweep:
        out.print(sweep_table(sim))
    else:
        title = (f"{file}: {sim.fights} fights per ruleset with --auto, seed {sim.seed}, at most {sim.max_rounds} "
                 "rounds")
        out.print(compare_table(sim, title))
        out.print(combatant_table(sim))
        spells = spell_table(sim)
        if spells is not None:
            out.print(spells)
    differences = difference_table(sim)
    if differences is not None:
        out.print(differences)
    if figure is not None:
        out.print(f"figure: {figure}")
    if rows is not None:
        out.print(f"rows: {rows}")


def simulate(
    file: Annotated[Path, typer.Argument(help="encounter file (YAML or JSON)")],
    ruleset: RulesetOpt = None,
    fights: FightsOpt = "1000",
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    set_: SetOpt = None,
    vary: VaryOpt = None,
    policy: PolicyOpt = None,
    max_rounds: MaxRoundsOpt = "50",
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
    rows: RowsOpt = None,
    yes: YesOpt = False,
) -> None:
    """Play N fights with --auto under each ruleset and report who wins (95% intervals), draws, length (in game
    minutes too), spells from declaration to outcome, first blows, damage, survival and morale, and the differences
    between rulesets and grid points. The same results for any --workers or --scheduler."""

    def body() -> None:
        _run(file, ruleset, fights, seed, workers, scheduler, set_, vary, policy, max_rounds, plot, rows, yes,
             as_json)

    _stoppable(file, body)


def compare(
    file: Annotated[Path, typer.Argument(help="encounter file (YAML or JSON)")],
    fights: FightsOpt = "1000",
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    set_: SetOpt = None,
    vary: VaryOpt = None,
    policy: PolicyOpt = None,
    max_rounds: MaxRoundsOpt = "50",
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
    rows: RowsOpt = None,
    ruleset: Annotated[str, typer.Option(help="ids separated by commas, or all")] = "all",
    yes: YesOpt = False,
) -> None:
    """The rulesets side by side (every installed one: the six and the books' baselines; or --ruleset a,b):
    simulate as a table, with what differs beyond the initiative (morale, surprise), each ruleset against the
    first (and --plot, a figure)."""

    def body() -> None:
        _run(file, ruleset, fights, seed, workers, scheduler, set_, vary, policy, max_rounds, plot, rows, yes,
             as_json)

    _stoppable(file, body)


# -- affray odds ----------------------------------------------------------------------------------------------
OddsRulesetOpt = Annotated[str, typer.Option(help="ruleset id or all")]
OddsSetOpt = Annotated[list[str] | None, typer.Option("--set", help="OPTION=VALUE: tie_track (combat2-*), "
                                                      "melee_disrupts (side-d6), side_dex (d12-procedure)")]


def _odds_rulesets(ruleset: str, sets: list[str] | None) -> list[tuple[str, dict[str, Any]]]:
    """Each ruleset asked with the options it follows; an option none of them follows is an error."""
    from affray.odds.order import MODELLED_OPTIONS, RULESET_IDS

    ids = list(RULESET_IDS) if ruleset == "all" else [ruleset]
    for r in ids:
        if r not in RULESET_IDS:
            raise OptionError(f"--ruleset: unknown ruleset {r!r}; valid rulesets: {', '.join(RULESET_IDS)}, all")
    options = parse_sets(sets or [])
    for name in options:
        if not any(name in MODELLED_OPTIONS[r] for r in ids):
            followed = sorted({o for r in ids for o in MODELLED_OPTIONS[r]})
            raise OptionError(f"--set {name}: the odds of {', '.join(ids)} do not follow it (they follow: "
                              f"{', '.join(followed) or 'none'})")
    return [(r, {k: v for k, v in options.items() if k in MODELLED_OPTIONS[r]}) for r in ids]


def _p(x: Fraction) -> str:
    return f"{100 * float(x):.2f}% ({x})"


def _odds_table(title: str, columns: list[str], rows: list[list[str]]) -> None:
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for c in columns:
        table.add_column(c, overflow="fold")
    for r in rows:
        table.add_row(*r)
    _wide().print(table)


@odds_app.command("first")
def odds_first(
    ruleset: OddsRulesetOpt = "all",
    dex_a: Annotated[int, typer.Option(min=1, max=25, help="A's DEX")] = 10,
    sf_a: Annotated[int, typer.Option(min=0, max=20, help="A's weapon SF (speed-segments: Spd)")] = 5,
    speed_a: Annotated[str | None, typer.Option(help="A's weapon speed category (phase-count)")] = None,
    dex_b: Annotated[int, typer.Option(min=1, max=25, help="B's DEX")] = 10,
    sf_b: Annotated[int, typer.Option(min=0, max=20, help="B's weapon SF")] = 5,
    speed_b: Annotated[str | None, typer.Option(help="B's weapon speed category (phase-count)")] = None,
    set_: OddsSetOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Who strikes first: A (first side) or B (second side), each alone on its side, in a round without
    surprise."""

    def body() -> None:
        from affray.odds import Contender, first

        a, b = Contender(dex_a, sf_a, speed_a), Contender(dex_b, sf_b, speed_b)
        results = [first(r, a, b, opt) for r, opt in _odds_rulesets(ruleset, set_)]
        if as_json:
            doc = {"question": "first", "a": vars(a), "b": vars(b),
                   "rulesets": {o.ruleset: o.to_dict() for o in results}}
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
            return
        _odds_table(f"Who strikes first: A (DEX {dex_a}, SF {sf_a}) or B (DEX {dex_b}, SF {sf_b})",
                    ["ruleset", "A first", "together", "B first", "how"],
                    [[o.ruleset, _p(o.a), _p(o.together), _p(o.b), o.rule] for o in results])

    guard(body)


@odds_app.command("spell")
def odds_spell(
    ct: Annotated[int, typer.Option(min=1, max=10, help="casting time: 1-9 segments, 10 for 1 round")],
    sf: Annotated[int, typer.Option(min=0, max=20, help="the blow's weapon SF (speed-segments: Spd)")],
    ruleset: OddsRulesetOpt = "all",
    dex_caster: Annotated[int, typer.Option(min=1, max=25, help="the caster's DEX")] = 10,
    dex_attacker: Annotated[int, typer.Option(min=1, max=25, help="the attacker's DEX")] = 10,
    speed_spell: Annotated[str | None, typer.Option(help="the spell's speed category (phase-count)")] = None,
    speed_attacker: Annotated[str | None, typer.Option(help="the weapon's speed category (phase-count)")] = None,
    set_: OddsSetOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Does a CT n spell beat an SF m blow aimed at its caster? When each lands, and the chance the spell
    takes effect if the blow hits."""

    def body() -> None:
        from affray.odds import Contender, spell_vs_blow

        caster, attacker = Contender(dex_caster), Contender(dex_attacker, sf, speed_attacker)
        results = [spell_vs_blow(r, ct, sf, caster=caster, attacker=attacker, spell_speed=speed_spell, options=opt)
                   for r, opt in _odds_rulesets(ruleset, set_)]
        if as_json:
            doc = {"question": "spell", "ct": ct, "sf": sf, "caster": vars(caster), "attacker": vars(attacker),
                   "rulesets": {o.ruleset: o.to_dict() for o in results}}
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
            return
        _odds_table(f"A CT {ct} spell (caster DEX {dex_caster}) against an SF {sf} blow (DEX {dex_attacker})",
                    ["ruleset", "spell first", "together", "blow first", "spell takes effect if the blow hits",
                     "how"],
                    [[o.ruleset, _p(o.spell_first), _p(o.together), _p(o.blow_first), _p(o.completes), o.rule]
                     for o in results])

    guard(body)


@odds_app.command("attack")
def odds_attack(
    thac0: Annotated[int, typer.Option(min=-10, max=25, help="the attacker's THAC0")],
    ac: Annotated[int, typer.Option(min=-10, max=10, help="the target's AC")],
    damage: Annotated[str, typer.Option(help="damage dice, e.g. 1d8 or 2d4+1")],
    hit_bonus: Annotated[int, typer.Option(help="added to the d20")] = 0,
    damage_bonus: Annotated[int, typer.Option(help="added to the damage")] = 0,
    crits: Annotated[str, typer.Option(help="none or c2-severity (C2X-04)")] = "none",
    sf: Annotated[int, typer.Option(min=0, max=20, help="the weapon's SF: caps a severe miss's slowing")] = 0,
    natural_20: Annotated[bool, typer.Option("--natural-20/--no-natural-20", help="a natural 20 always hits, "
                                             "a natural 1 always misses (G-04)")] = True,
    as_json: JsonOpt = False,
) -> None:
    """One attack's chance to hit and its damage distribution (G-04; with --crits c2-severity, C2X-04)."""

    def body() -> None:
        from affray.odds import attack

        odds = attack(thac0, ac, damage, hit_bonus=hit_bonus, damage_bonus=damage_bonus, crits=crits,
                      natural_20=natural_20, sf=sf)
        if as_json:
            doc = {"question": "attack", "thac0": thac0, "ac": ac, "damage_dice": damage, "hit_bonus": hit_bonus,
                   "damage_bonus": damage_bonus, "crits": crits, "sf": sf, **odds.to_dict()}
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
            return
        out = _wide()
        out.print(f"THAC0 {thac0} against AC {ac}: needs {odds.need} on d20{hit_bonus:+d}: hits {_p(odds.hit)}; "
                  f"mean damage {float(odds.mean):.3f} an attack, {float(odds.mean_on_hit):.3f} a hit ({odds.rule})",
                  markup=False)
        rows = [[str(k), _p(v)] for k, v in odds.damage.items() if k]
        _odds_table(f"Damage of a hit ({damage}{damage_bonus:+d})", ["damage", "chance an attack"], rows)
        if crits == "c2-severity":
            _odds_table("The next strike slowed (severe and critical misses, C2X-04)", ["SF", "chance"],
                        [[f"+{k}", _p(v)] for k, v in odds.slowed.items() if k])

    guard(body)


@odds_app.command("contest")
def odds_contest(
    a: Annotated[str, typer.Option("--a", help="A's roll, e.g. 1d6+1 (dice notation or a number)")],
    b: Annotated[str, typer.Option("--b", help="B's roll, e.g. 1d6")],
    low: Annotated[bool, typer.Option("--low", help="the lower roll wins (2e's d10), not the higher")] = False,
    ties: Annotated[str, typer.Option(help="a tie: together, or reroll (both roll again until they differ)")] = (
        "together"),
    as_json: JsonOpt = False,
) -> None:
    """Two rolls against each other: the chance each wins, or they tie (a house rule's initiative, checked)."""

    def body() -> None:
        from affray.odds import contest

        odds = contest(a, b, low=low, ties=ties)
        if as_json:
            doc = {"question": "contest", "a_roll": a, "b_roll": b, "low": low, "ties": ties, **odds.to_dict()}
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
            return
        _odds_table(f"{a} against {b}", ["A wins", "together", "B wins", "how"],
                    [[_p(odds.a), _p(odds.together), _p(odds.b), odds.rule]])

    guard(body)


@odds_app.command("kill")
def odds_kill(
    hp: Annotated[str, typer.Option(help="the creature's hit points: dice (4d8: a 4 HD monster's) or a number")],
    damage: Annotated[str, typer.Option(help="damage dice of a hit, e.g. 1d8 or 2d4+1")],
    as_json: JsonOpt = False,
) -> None:
    """How many hits fell a creature: the mean and the chance of each number (G-04, G-05)."""

    def body() -> None:
        from affray.odds import hits_to_kill

        odds = hits_to_kill(hp, damage)
        if as_json:
            doc = {"question": "kill", "hp": hp, "damage": damage, **odds.to_dict()}
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
            return
        _wide().print(f"{float(odds.mean):.3f} hits on average ({odds.rule})",
                      markup=False)
        _odds_table("Hits that fell it", ["hits", "chance"], [[str(k), _p(v)] for k, v in odds.hits.items()])

    guard(body)


def register(app: typer.Typer) -> None:
    """The designer's workbench on the command line: ``simulate``, ``compare`` and the ``odds`` group."""
    app.command()(simulate)
    app.command()(compare)
    app.add_typer(odds_app, name="odds")
