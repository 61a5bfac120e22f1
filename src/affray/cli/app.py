"""The ``affray`` command line (CONTRACT.md "Commands"). Bad input exits 2, never with a traceback."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

from affray.errors import AffrayError, EncounterError, OptionError, UnknownRulesetError
from affray.io.load import load_encounter, sort_problems

if TYPE_CHECKING:
    from affray.api import Prepared
    from affray.play import Store

__all__ = ["app", "main"]

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Combat sequencing for old-school D&D under six initiative systems.")
err = Console(stderr=True, highlight=False, soft_wrap=True)
T = TypeVar("T")


def _guard(fn: Callable[[], T]) -> T:
    """Run a command body: affray's errors exit 2 with their message; anything else exits 1, briefly."""
    try:
        return fn()
    except AffrayError as exc:
        err.print(str(exc), markup=False)
        raise typer.Exit(2) from None
    except (typer.Exit, typer.Abort):
        raise
    except Exception as exc:  # an internal error: one line, the traceback only on request
        if os.environ.get("AFFRAY_DEBUG"):
            raise
        err.print(f"affray: internal error: {type(exc).__name__}: {exc} (set AFFRAY_DEBUG=1 for the traceback)",
                  markup=False)
        raise typer.Exit(1) from None


def _parse_sets(values: list[str]) -> dict[str, Any]:
    from ruamel.yaml import YAML

    out: dict[str, Any] = {}
    for item in values:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--set {item!r}: use --set OPTION=VALUE, e.g. --set mutual_surprise=cancel")
        out[name.strip()] = YAML(typ="safe").load(raw) if raw.strip() else ""
    return out


@app.command()
def rulesets(as_json: Annotated[bool, typer.Option("--json", help="one JSON document")] = False) -> None:
    """List every ruleset with its title, seed and options."""
    from affray.rulesets import RULESETS

    docs = [r.describe() for r in RULESETS]
    if as_json:
        sys.stdout.write(json.dumps({"rulesets": docs}, indent=2) + "\n")
        return
    out = Console(highlight=False)
    for d in docs:
        out.print(f"[bold]{d['id']}[/bold]  {d['title']} (seed {d['seed']})")
        for o in d["options"]:
            choices = f" [{' | '.join(map(str, o['choices']))}]" if "choices" in o else ""
            out.print(f"    {o['name']} = {o['default']}{choices}  ({o['rule']}) {o['doc']}", markup=False)
        for key, doc in d["declaration_keys"].items():
            out.print(f"    declaration key {key}: {doc}", markup=False)


@app.command()
def check(file: Annotated[Path, typer.Argument(help="encounter file (YAML or JSON)")],
          ruleset: Annotated[str | None, typer.Option(help="check under this ruleset too")] = None) -> None:
    """Validate an encounter file: exit 0 with a summary, or exit 2 listing every problem."""

    def body() -> None:
        from affray.api import ruleset_class

        loaded = load_encounter(file, strict=False)
        cls = ruleset_class(loaded, ruleset)
        problems = list(loaded.problems) + (list(cls.check(loaded)) if cls is not None else [])
        if problems:
            raise EncounterError(sort_problems(problems))
        enc = loaded.encounter
        n = sum(c.count for s in enc.sides.values() for c in s.combatants)
        plans = sum(len(p) for p in enc.plan.values())
        under = f", ruleset {cls.id}" if cls is not None else ""
        typer.echo(f"{file}: ok: {len(enc.sides)} sides, {n} combatants, {plans} declarations{under}")

    _guard(body)


@app.command()
def run(
    file: Annotated[Path, typer.Argument(help="encounter file (YAML or JSON)")],
    ruleset: Annotated[str | None, typer.Option(help="ruleset id (overrides the file's)")] = None,
    seed: Annotated[int | None, typer.Option(help="seed (overrides the file's)")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="OPTION=VALUE, repeatable")] = None,
    auto: Annotated[bool, typer.Option("--auto", help="default actions once plans run out")] = False,
    max_rounds: Annotated[int, typer.Option("--max-rounds", min=1, help="cap on rounds")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="the timeline as one JSON document")] = False,
) -> None:
    """Resolve an encounter's plan under a ruleset and print the timeline."""

    def body() -> None:
        from affray.cli.render import render_result
        from affray.io.timeline import timeline_json

        prepared, _options = _prepare(file, ruleset, seed, set_)
        result = prepared.fight(auto=auto, max_rounds=max_rounds).run()
        if as_json:
            sys.stdout.write(timeline_json(result))
        else:
            render_result(result, Console(highlight=False))

    _guard(body)


@app.command()
def play(
    file: Annotated[Path | None, typer.Argument(help="encounter file; without it, resume the database's fight")] = None,
    ruleset: Annotated[str | None, typer.Option(help="ruleset id (overrides the file's)")] = None,
    seed: Annotated[int | None, typer.Option(help="seed (overrides the file's)")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="OPTION=VALUE, repeatable")] = None,
    auto: Annotated[bool, typer.Option("--auto", help="default actions once plans run out")] = False,
    max_rounds: Annotated[int, typer.Option("--max-rounds", min=1, help="cap on rounds")] = 50,
    db: Annotated[Path, typer.Option(help="the SQLite database the fight is saved to as it goes")] = Path("affray.db"),
    game: Annotated[int | None, typer.Option(help="the fight to resume (default: the latest)")] = None,
) -> None:
    """Run a fight at the table: every die asked or rolled, every event saved before it is shown.

    Piped commands (step, run, undo, quit...) are read from stdin; then nothing is asked."""

    def body() -> None:
        from affray.play import Session, Store
        from affray.play.terminal import io_for_stdin

        store = Store(db)
        if file is not None:
            if game is not None:
                raise OptionError("--game resumes a fight: give either FILE (a new fight) or --game, not both")
            text = _read_text(file)
            prepared, options = _prepare(file, ruleset, seed, set_)
            record = store.new_game(str(file), text, prepared.ruleset.id, prepared.seed, options, auto, max_rounds)
        else:
            record = store.game(game)
        Session(store, record, io_for_stdin(), Console(highlight=False)).play()

    _guard(body)


@app.command()
def games(db: Annotated[Path, typer.Option(help="the SQLite database")] = Path("affray.db")) -> None:
    """List the fights saved in a database."""

    def body() -> None:
        store = _existing_store(db)
        for g in store.games():
            j = store.journal(g.id)
            state = "over" if j.ended else "in progress"
            typer.echo(f"{g.id}  {g.created}  {g.file}  {g.ruleset}  seed {g.seed}  {len(j.events)} events  {state}")

    _guard(body)


@app.command()
def log(
    db: Annotated[Path, typer.Option(help="the SQLite database")] = Path("affray.db"),
    game: Annotated[int | None, typer.Option(help="the fight (default: the latest)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document, as `run --json`")] = False,
) -> None:
    """Print a saved fight's timeline as it stands."""

    def body() -> None:
        from affray.cli.render import render_result
        from affray.io.timeline import timeline_json
        from affray.play import Session

        store = _existing_store(db)
        result = Session(store, store.game(game), None, Console(highlight=False)).rebuild()
        if as_json:
            sys.stdout.write(timeline_json(result))
        else:
            render_result(result, Console(highlight=False))

    _guard(body)


def _prepare(file: Path, ruleset: str | None, seed: int | None,
             sets: list[str] | None) -> tuple[Prepared, dict[str, Any]]:
    """Load ``file`` and settle its ruleset, options (``--set``) and seed; bad ones are the file's errors."""
    from affray.api import prepare

    loaded = load_encounter(file, strict=False)
    try:
        options = _parse_sets(sets or [])
        return prepare(loaded, ruleset=ruleset, seed=seed, options=options), options
    except (OptionError, UnknownRulesetError) as exc:
        what = "--ruleset" if isinstance(exc, UnknownRulesetError) else "options (--set)"
        raise OptionError(f"{file}: {what}: {exc}") from None


def _read_text(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""  # load_encounter reports it


def _existing_store(db: Path) -> Store:
    from affray.play import Store, StoreError

    if not db.exists():
        raise StoreError(f"{db}: no such database (give --db PATH; `affray play FILE --db PATH` makes one)")
    return Store(db)


def _hours(minutes: int | None) -> str:
    if minutes is None:
        return "none (under 4 hours' rest)"
    h, m = divmod(minutes, 60)
    return f"{minutes} min ({h} h{f' {m} min' if m else ''})"


@app.command()
def mana(
    klass: Annotated[str, typer.Option("--class", help="cleric, druid, wizard, magic-user, illusionist, "
                                       "ranger or paladin")],
    level: Annotated[int, typer.Option(help="caster level, 1-20")],
    con: Annotated[int, typer.Option(help="Constitution (starting-mana options)")] = 10,
    wis: Annotated[int, typer.Option(help="Wisdom (a priest's bonus spells)")] = 10,
    prime: Annotated[int | None, typer.Option(help="prime requisite (option 2; default WIS for priests, "
                                              "10 for wizards)")] = None,
    option: Annotated[str, typer.Option(help="starting mana: base, con, con-added, prime or "
                                        "prime-added")] = "base",
    table: Annotated[str, typer.Option(help="seed (the table as printed) or formula (the PH "
                                       "progression)")] = "seed",
    bonus: Annotated[str, typer.Option(help="Wisdom's bonus spells: points (added) or boxes (free "
                                       "spells)")] = "points",
    rest: Annotated[int, typer.Option(help="hours of rest before recovering")] = 8,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document")] = False,
) -> None:
    """A caster's mana pool, highest spell level and recovery time (seed 000 section 5, C2X-06/07)."""

    def body() -> None:
        from affray.mana import pool, recovery_minutes

        p = pool(klass, level, con=con, wis=wis, prime=prime, option=option, table=table, bonus=bonus)
        recovery = recovery_minutes(p.mana - p.bonus_points, p.highest, rest)  # bonus points return daily
        if as_json:
            doc = {"class": klass, "level": level, "column": p.column, "mana": p.mana, "base": p.base,
                   "starting_mana": p.starting, "option": p.option, "bonus_spells": list(p.bonus_spells),
                   "bonus": p.bonus, "bonus_points": p.bonus_points, "highest_spell_level": p.highest,
                   "slots": {str(k): v for k, v in p.slots.items()}, "rest_hours": rest,
                   "recovery_minutes": recovery}
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
            return
        lines = [f"{klass} level {level} ({p.column} column): {p.mana} mana points; highest spell level "
                 f"{p.highest} (C2X-06)",
                 "  starting mana: " + ", ".join(f"{k} {v}" + (" *" if k == p.option else "")
                                                 for k, v in p.starting.items())]
        if p.bonus_spells:
            spent = "added to the pool" if p.bonus == "points" else "free spells spent first"
            lines.append(f"  Wisdom bonus spells of level {', '.join(map(str, p.bonus_spells))}: {spent}")
        lines.append("  slots (C2X-08): " + (", ".join(f"level {k}: {v}" for k, v in p.slots.items()) or "none"))
        lines.append(f"  recovery after {rest} h rest (C2X-07): 10 min a point: {_hours(recovery['flat'])}; "
                     f"(13 - {p.highest}) + {max(0, 8 - rest)} min a point: {_hours(recovery['by_level'])}")
        typer.echo("\n".join(lines))

    _guard(body)


@app.command()
def learn(
    level: Annotated[int, typer.Option(help="spell level, 1-9")],
    library: Annotated[bool, typer.Option("--library", help="an arcane library and workshop at hand")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document")] = False,
) -> None:
    """Research time to add a spell to the list (C2X-09)."""

    def body() -> None:
        from affray.mana import research_days

        days = research_days(level, library=library)
        if as_json:
            sys.stdout.write(json.dumps({"level": level, "library": library, "days": days}) + "\n")
            return
        per = "1/2 day a level with a library" if library else "1 day a level without a library"
        typer.echo(f"a level {level} spell: {days:g} days of research ({per}, C2X-09)")

    _guard(body)


# the designer's workbench registers its commands on ``app`` (simulate, compare, odds)
from affray.cli import sim as _sim  # noqa: E402

del _sim


def main() -> None:
    app(prog_name="affray")


if __name__ == "__main__":  # pragma: no cover
    main()
