"""The ``affray`` command line (CONTRACT.md "Commands"). Bad input exits 2, never with a traceback."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import sys
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
import typer.main
from typer.core import TyperGroup

from affray.cli.common import bounded_fight as _bounded_fight
from affray.cli.common import console as _console
from affray.cli.common import guard as _guard
from affray.cli.common import numbers as _numbers
from affray.cli.common import parse_sets as _parse_sets
from affray.cli.common import whole as _whole
from affray.errors import EncounterError, OptionError, UnknownRulesetError
from affray.limits import MAX_SEED
from affray.printable import printable

if TYPE_CHECKING:
    from typer.models import CommandInfo

    from affray.api import Prepared
    from affray.io.load import Loaded
    from affray.party.left import Keeper
    from affray.play import RefereeConsole
    from affray.play.console import Io
    from affray.table import Game, Store

    app: typer.Typer  # the whole command line (module ``__getattr__``)

__all__ = ["app", "main"]

T = TypeVar("T")

# The commands of this module; ``app`` (module ``__getattr__`` below) is this with the workbench's too.
_app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                   help="Combat sequencing for old-school D&D under six initiative systems.")


def _version(value: bool) -> None:
    if value:
        from affray.compiled import describe

        typer.echo(describe())
        raise typer.Exit()


@_app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="print affray's version and build (pure or compiled)")]
          = False) -> None:
    """The options of ``affray`` itself, before a command (the help is the Typer's own, above)."""


# The options the commands that play a fight share (run, play, drive, serve), declared once.
_Ruleset = Annotated[str | None, typer.Option(help="ruleset id (overrides the file's)")]
_Seed = Annotated[str | None, typer.Option(help="seed (overrides the file's)", metavar="N")]
_Sets = Annotated[list[str] | None, typer.Option("--set", help="OPTION=VALUE, repeatable")]
_Auto = Annotated[bool, typer.Option("--auto", help="default actions once plans run out")]
_MaxRounds = Annotated[str, typer.Option("--max-rounds", help="cap on rounds", metavar="N")]
_Db = Annotated[Path, typer.Option(help="the SQLite database the fight is saved to as it goes")]
_Declare = Annotated[list[str] | None, typer.Option(
    "--declare", help="WHO=ask|auto|repeat: who answers WHO's declarations (a side, or a combatant as the file "
    "names it), repeatable", metavar="WHO=MODE")]
_Catalogue = Annotated[Path | None, typer.Option("--catalogue", metavar="FILE", help="a catalogue file of your own: "
                                                 "its entries add to or replace the package's (and the file's own)")]
_Policy = Annotated[list[str] | None, typer.Option("--policy", help="how --auto plays: NAME for every side or "
                                                   "SIDE=NAME, repeatable; a built-in policy or module:function "
                                                   "(docs/policies.md)")]
_Party = Annotated[Path | None, typer.Option("--party", metavar="PARTY.yaml", help="take the player characters' side "
                                             "from this party file, and write what the fight left back into it "
                                             "(docs/party.md)")]
_NewRules = Annotated[bool, typer.Option("--new-rules", help="a fight saved by an affray whose rules played it "
                                         "otherwise: go on under this version's rules from the last event both agree "
                                         "on (the saved rest is kept as a branch: `affray log --branch N`)")]

def _game(game: str | None) -> int | None:
    return _whole("--game", game, 1, MAX_SEED, "the number of a fight (`affray games` lists them)")


@_app.command()
def rulesets(
    ruleset_id: Annotated[str | None, typer.Argument(metavar="[ID]", help="one ruleset, shown in full")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document")] = False,
    check: Annotated[str | None, typer.Option(
        "--check", metavar="NAME", help="run the conformance kit on ruleset NAME (exit 1 if it fails)")] = None,
) -> None:
    """List every installed ruleset and extension with its package and version, title, seed and options; with ID,
    one ruleset in full; with --check NAME, the conformance kit on it."""
    from affray.cli.guide import check_ruleset, show_rulesets

    if check is not None:
        if not _guard(lambda: check_ruleset(check, as_json)):
            raise typer.Exit(1)
        return
    _guard(lambda: show_rulesets(ruleset_id, as_json))


@_app.command()
def new(
    path: Annotated[Path | None, typer.Argument(help="the file to write; without it, the encounter is printed")]
    = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite PATH if it exists")] = False,
) -> None:
    """Write a commented starter encounter to edit: two sides, a fighter, a wizard with sleep, goblins, a plan."""
    from affray.cli.guide import write_starter

    _guard(lambda: write_starter(path, force))


@_app.command()
def examples(
    name: Annotated[str | None, typer.Argument(help="an example's name: print it (or copy it with --copy)")] = None,
    copy: Annotated[Path | None, typer.Option("--copy", metavar="DIR", help="copy the example (all of them "
                                              "without NAME) into DIR")] = None,
    force: Annotated[bool, typer.Option("--force", help="with --copy: overwrite files already there")] = False,
) -> None:
    """List the example files shipped with affray; print one, or copy them to a directory."""
    from affray.cli.guide import show_examples

    _guard(lambda: show_examples(name, copy, force))


@_app.command()
def catalogue(
    kind: Annotated[str | None, typer.Argument(metavar="[KIND]", help="weapons, armour, spells or monsters (or a "
                                               "name to search every kind)")] = None,
    name: Annotated[list[str] | None, typer.Argument(metavar="[NAME]", help="an entry's name, or part of one "
                                                     "(quotes optional: `magic missile`)")] = None,
    catalogue_file: _Catalogue = None,
    level: Annotated[str | None, typer.Option(help="a spell worked out for this caster level", metavar="N")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document")] = False,
) -> None:
    """List the catalogue's weapons, armour, spells and monsters, search it, or show one entry as YAML to paste."""
    from affray.cli.catalogue import show_catalogue

    _guard(lambda: show_catalogue(kind, " ".join(name) if name else None, extra=catalogue_file, as_json=as_json,
                                  level=_whole("--level", level, 1, 40, "a caster level, 1 to 40")))


@_app.command()
def check(file: Annotated[Path, typer.Argument(help="encounter file (YAML or JSON)")],
          ruleset: Annotated[str | None, typer.Option(help="check under this ruleset too")] = None,
          catalogue: _Catalogue = None) -> None:
    """Validate an encounter file: exit 0 with a summary, or exit 2 listing every problem."""

    def body() -> None:
        from affray.api import policy_problems, ruleset_class
        from affray.io.checks import check as check_file
        from affray.io.load import load_encounter, sort_problems

        loaded = load_encounter(file, strict=False, catalogue=catalogue)
        cls = ruleset_class(loaded, ruleset)
        problems = list(loaded.problems) + (list(check_file(cls, loaded)) if cls is not None else [])
        problems += policy_problems(loaded)  # as `run` loads them: an entry point that fails to load
        if problems:
            raise EncounterError(sort_problems(problems))
        _warn(loaded)
        enc = loaded.encounter
        n = sum(c.count for s in enc.sides.values() for c in s.combatants)
        plans = sum(len(p) for p in enc.plan.values())
        under = f", ruleset {cls.id}" if cls is not None else ""
        typer.echo(f"{printable(str(file))}: ok: {len(enc.sides)} sides, {n} combatants, {plans} declarations{under}")

    _guard(body)


@_app.command()
def run(  # noqa: C901
    file: Annotated[Path, typer.Argument(help="encounter file (YAML or JSON)")],
    ruleset: _Ruleset = None,
    seed: _Seed = None,
    set_: _Sets = None,
    auto: _Auto = False,
    max_rounds: _MaxRounds = "50",
    as_json: Annotated[bool, typer.Option("--json", help="the timeline as one JSON document")] = False,
    declare: _Declare = None,
    catalogue: _Catalogue = None,
    policy: _Policy = None,
    board: Annotated[Path | None, typer.Option(help="also draw the sequence board as an SVG file", metavar="PATH")] = (
        None),
    round_: Annotated[str | None, typer.Option("--round", help="with --board or --map: only this round (phase-count: "
                                               "run of ten phases; combat2-phase2: cycle)", metavar="N")] = None,
    party: _Party = None,
    map_: Annotated[Path | None, typer.Option("--map", help="also draw where everyone stands as an SVG file (a fight "
                                              "that places its combatants)", metavar="PATH")] = None,
) -> None:
    """Resolve an encounter's plan under a ruleset and print the timeline."""

    def body() -> None:  # noqa: C901
        seed_n, rounds = _numbers(seed, max_rounds)
        window = _whole("--round", round_, 1, 1_000_000, "a round is a whole number from 1")
        if window is not None and board is None and map_ is None:
            raise OptionError("--round N picks the round --board or --map draws: give --board PATH too (or --map PATH)")
        prepared, _options, _text, keeper = _prepare_party(file, ruleset, seed_n, set_, catalogue, declare, policy,
                                                           rounds, party, text_kept=False)
        if map_ is not None:
            from affray.model.place import placed

            if not placed(prepared.loaded.encounter):
                raise OptionError("--map draws where everyone stands: this fight places nobody (give its sides or "
                                  "combatants at: [x, y] in feet)")
        drawn = None
        if board is not None:  # opened before the fight: its folder checked, and never one of the inputs
            from affray.io.output import Output

            drawn = Output(board, "--board", inputs=[*_inputs(file, catalogue, prepared.loaded.encounter.catalogue),
                                                     *([party] if party is not None else [])])
        try:
            fight = prepared.fight(auto=auto, max_rounds=rounds)
            result = fight.run()
            if keeper is not None:
                from affray.cli.common import err

                err().print(printable(keeper.save(fight)), markup=False)
            if drawn is not None:
                from affray.render.board_svg import board_file

                try:
                    drawn.file.write(board_file(fight, window).encode("utf-8"))
                except OSError as exc:
                    raise drawn.failed(exc) from None
                drawn.commit()
            if map_ is not None:
                _write_map(map_, fight, window, [*_inputs(file, catalogue, prepared.loaded.encounter.catalogue),
                                                 *([party] if party is not None else [])])
        finally:
            if drawn is not None:
                drawn.discard()
        if as_json:
            from affray.io.timeline import timeline_json

            sys.stdout.write(timeline_json(result))
        else:
            from affray.render.timeline import render_result

            render_result(result, _console())

    _guard(body)


def _write_map(path: Path, fight: Any, window: int | None, inputs: list[Path]) -> None:
    """``--map``: where everyone stands, as SVG (refused in words for a fight that places nobody)."""
    from affray.io.output import Output
    from affray.render.map_svg import map_file

    drawn = Output(path, "--map", inputs=inputs)
    try:
        try:
            drawn.file.write(map_file(fight.encounter, fight.events, fight.ruleset.id, fight.state.sides,
                                      window).encode("utf-8"))
        except OSError as exc:
            raise drawn.failed(exc) from None
        drawn.commit()
    finally:
        drawn.discard()


@_app.command()
def play(
    file: Annotated[Path | None, typer.Argument(help="encounter file; without it, resume the database's fight")] = None,
    ruleset: _Ruleset = None,
    seed: _Seed = None,
    set_: _Sets = None,
    auto: _Auto = False,
    max_rounds: _MaxRounds = "50",
    db: _Db = Path("affray.db"),
    game: Annotated[str | None, typer.Option(help="the fight to resume (default: the latest)", metavar="ID")] = None,
    declare: _Declare = None,
    dice: Annotated[str | None, typer.Option(help="ask: every die is asked (the default at a terminal); roll: "
                                             "rolled from the seed (the default from a pipe)")] = None,
    catalogue: _Catalogue = None,
    policy: _Policy = None,
    new_rules: _NewRules = False,
    party: _Party = None,
) -> None:
    """Run a fight at the table: every die asked or rolled, every event saved before it is shown.

    Piped commands (step, run, undo, quit...) are read from stdin; then nothing is asked."""

    def body() -> None:
        from affray.play.terminal import io_for_stdin
        from affray.table import DivergedError

        if dice not in (None, "roll", "ask"):
            raise OptionError(f"--dice {dice!r}: roll or ask")
        seed_n, rounds = _numbers(seed, max_rounds)
        game_n = _game(game)
        if file is not None:
            if game_n is not None:
                raise OptionError("--game resumes a fight: give either FILE (a new fight) or --game, not both")
            prepared, options, text, keeper = _prepare_party(file, ruleset, seed_n, set_, catalogue, declare, policy,
                                                             rounds, party)
            store = _writer(db)
            record = _closed_if_not(store, lambda: store.new_game(str(file), text, prepared.ruleset.id,
                                                                  prepared.seed, options, auto, rounds))
        else:
            _resumed(policy)
            store = _writer(db)
            record = _closed_if_not(store, lambda: store.game(game_n))
            keeper = _closed_if_not(store, lambda: _resumed_party(party, record.text))
        io = io_for_stdin()
        code = _code(policy)
        with contextlib.closing(store), store.writer(record.id):  # one writer per fight: a second is refused (exit 2)
            try:
                console = _session(store, record, io, dice, new_rules, keeper, code)
            except DivergedError as exc:  # the rules changed since it was saved: at a terminal, the referee chooses
                if not io.interactive:
                    raise
                d = exc.divergence
                _console().print(printable(str(exc), keep_newlines=True), markup=False)
                answer = io.ask(f"Go on under these rules from event {d.agreed} now? [y/N] ")
                if (answer or "").strip().lower() not in ("y", "yes"):
                    typer.echo("nothing was changed")
                    return
                console = _session(store, record, io, dice, new_rules=True, party=keeper, code=code)
            console.play()

    _guard(body)


@_app.command()
def drive(  # noqa: C901
    file: Annotated[Path | None, typer.Argument(help="encounter file; without it, resume the database's fight")] = None,
    ruleset: _Ruleset = None,
    seed: _Seed = None,
    set_: _Sets = None,
    auto: _Auto = False,
    max_rounds: _MaxRounds = "50",
    dice: Annotated[str | None, typer.Option(help="roll (the default): every die nobody gave is rolled from the "
                                            "seed; ask: asked. A resumed fight keeps its own unless given",
                                            show_default=False)] = None,
    db: Annotated[Path | None, typer.Option(help="journal the fight to this SQLite database (resumable)")] = None,
    game: Annotated[str | None, typer.Option(help="with --db and no FILE: the fight to resume (default: the latest)",
                                             metavar="ID")] = None,
    declare: _Declare = None,
    catalogue: _Catalogue = None,
    policy: _Policy = None,
    new_rules: _NewRules = False,
    party: _Party = None,
) -> None:
    """Drive a fight as JSON lines: events and questions on stdout, answers on stdin (see the README)."""

    def body() -> None:  # noqa: C901
        from affray.cli.drive import converse, divergence, write
        from affray.drive import DicePrefs
        from affray.table import DivergedError, Session, open_fight

        if dice not in (None, "roll", "ask"):
            raise OptionError(f"--dice {dice!r}: roll or ask")
        seed_n, rounds = _numbers(seed, max_rounds)
        game_n = _game(game)
        inp, out = sys.stdin.buffer, sys.stdout.buffer  # UTF-8 lines both ways, whatever the locale
        if file is None:
            if db is None:
                raise OptionError("affray drive: give FILE (a new fight), or --db PATH to resume its latest fight")
            _resumed(policy)
            store = _existing_store(db, write=True)
            record = _closed_if_not(store, lambda: store.game(game_n))
            keeper = _closed_if_not(store, lambda: _resumed_party(party, record.text))
            with contextlib.closing(store), store.writer(record.id):  # one writer per fight
                try:
                    opened = open_fight(store, record, DicePrefs(), new_rules=new_rules, code=_code(policy))
                except DivergedError as exc:  # said on stdout too, for the program driving it; exit 2
                    write(out, divergence("diverged", exc.divergence))
                    raise
                if opened.branched is not None:
                    write(out, divergence("branched", opened.branched))
                session = Session(opened.drive, opened.record)
                session.party = keeper
                if dice is not None and opened.drive.dice.by != {"all": dice}:  # given: it applies from here (an
                    session.dice(["all", dice])  # input, journalled); not given, the journal's choice stands
                converse(session, inp, out)
            return
        if game_n is not None:
            raise OptionError("--game resumes a fight: give either FILE (a new fight) or --game, not both")
        prepared, options, text, keeper = _prepare_party(file, ruleset, seed_n, set_, catalogue, declare, policy,
                                                   rounds, party)
        if db is None:
            session = Session(prepared.drive(auto=auto, max_rounds=rounds, announce=True))
            session.party = keeper
            if dice == "ask":
                session.dice(["all", "ask"])
            converse(session, inp, out)
            return
        store = _writer(db)
        record = _closed_if_not(store, lambda: store.new_game(str(file), text, prepared.ruleset.id, prepared.seed,
                                                              options, auto, rounds))
        with contextlib.closing(store), store.writer(record.id):
            opened = open_fight(store, record, DicePrefs(), code=_code(policy))
            session = Session(opened.drive, opened.record)
            session.party = keeper
            if dice == "ask":  # an input like any other: a resumed fight asks them too
                session.dice(["all", "ask"])
            converse(session, inp, out)

    _guard(body)


@_app.command()
def serve(
    file: Annotated[Path | None, typer.Argument(help="encounter file; without it, serve the database's fight")] = None,
    ruleset: _Ruleset = None,
    seed: _Seed = None,
    set_: _Sets = None,
    auto: _Auto = False,
    max_rounds: _MaxRounds = "50",
    db: _Db = Path("affray.db"),
    game: Annotated[str | None, typer.Option(help="the fight to serve (default: the latest)", metavar="ID")] = None,
    host: Annotated[str, typer.Option(help="the address to listen on (another machine's players: 0.0.0.0)")] = (
        "127.0.0.1"),
    port: Annotated[str, typer.Option(help="the port to listen on (0: any free one)", metavar="N")] = "8000",
    policy: _Policy = None,
    declare: _Declare = None,
    catalogue: _Catalogue = None,
    new_links: Annotated[bool, typer.Option("--new-links", help="reissue every link (the old ones stop working)")] = (
        False),
    new_rules: _NewRules = False,
    party: _Party = None,
) -> None:
    """Serve the fight as a web page: the referee's screen and one link per player character, live.

    Prints one line per link (referee: URL, then NAME: URL, then the table view's); each carries its own secret
    token, kept with the fight: serving it again prints the same links, until --new-links."""

    def body() -> None:
        from affray.web.serve import Opening
        from affray.web.serve import serve as run_server

        seed_n, rounds = _numbers(seed, max_rounds)
        game_n = _game(game)
        port_n = _whole("--port", port, 0, 65535, "a port is a whole number from 0 (any free one) to 65535")
        assert port_n is not None
        if file is not None:
            if game_n is not None:
                raise OptionError("--game serves a stored fight: give either FILE (a new fight) or --game, not both")
            prepared, options, text, keeper = _prepare_party(file, ruleset, seed_n, set_, catalogue, declare, policy,
                                                       rounds, party)
            opening = Opening(str(db), (str(file), text, prepared.ruleset.id, prepared.seed, options, auto, rounds),
                              new_links=new_links, party=keeper, code=_code(policy))
        else:
            _resumed(policy)
            store = _existing_store(db)
            try:
                keeper = _resumed_party(party, store.game(game_n).text) if party is not None else None
            finally:
                store.close()
            opening = Opening(str(db), game=game_n, new_links=new_links, new_rules=new_rules, party=keeper,
                              code=_code(policy))
        _loose(db)
        run_server(opening, host, port_n, sys.stdout)

    _guard(body)


@_app.command()
def rest(
    party: Annotated[Path, typer.Argument(help="the party file", metavar="PARTY.yaml")],
    days: Annotated[str, typer.Option("--days", help="days of rest", metavar="N")] = "1",
    bed: Annotated[bool, typer.Option("--bed", help="complete bed rest: 3 hp a day instead of 1")] = False,
) -> None:
    """Rest the party: spells memorised anew, hit points of natural healing (2e PH ch. 9), said in words."""
    from affray.cli.party import rest_body

    _guard(lambda: rest_body(party, days, bed))


@_app.command("import")
def import_(
    source: Annotated[str, typer.Argument(help="a Foundry VTT OSE actor export (.json) or a folder of them, a file "
                                          "of stat lines (- for stdin), or affray's own party or catalogue file",
                                          metavar="FILE")],
    to: Annotated[Path | None, typer.Option("--to", help="add them to this party file (created if need be); "
                                            "without it they are printed", metavar="PARTY.yaml")] = None,
) -> None:
    """Import combatants written by other tools into affray's form; every figure not read is named."""
    from affray.cli.party import import_body

    _guard(lambda: import_body(source, to))


@_app.command()
def games(db: Annotated[Path, typer.Option(help="the SQLite database")] = Path("affray.db")) -> None:
    """List the fights saved in a database."""

    def body() -> None:
        with contextlib.closing(_existing_store(db)) as store:  # read-only: a reader never writes
            _list_games(store)

    _guard(body)


def _list_games(store: Store) -> None:
    """``affray games``: each fight of ``store`` on a line; a damaged one marked (then exit 2)."""
    from affray.table import StoreError

    damaged = 0
    for gid in store.game_ids():
        try:  # a damaged fight is marked, and the others listed
            g = store.game(gid)
            j = store.journal(gid)
        except StoreError as exc:
            damaged += 1
            typer.echo(printable(f"{gid}  damaged: {str(exc).removeprefix(f'{store.path}: ')}"))
            continue
        state = "over" if j.ended else "in progress"
        n = len(j.branches)
        branches = f"  ({n} branch{'es' if n > 1 else ''} kept from before a change of rules: --branch 1" \
            f"{f' to {n}' if n > 1 else ''})" if n else ""
        typer.echo(printable(f"{g.id}  {g.created}  {g.file}  {g.ruleset}  seed {g.seed}  {len(j.events)} events"
                             f"  {state}{branches}"))
    if damaged:
        raise StoreError(f"{store.path}: {damaged} damaged fight{'s' if damaged > 1 else ''} (marked above); "
                         "the others can be logged and played")


@_app.command()
def log(
    db: Annotated[Path, typer.Option(help="the SQLite database")] = Path("affray.db"),
    game: Annotated[str | None, typer.Option(help="the fight (default: the latest)", metavar="ID")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document, as `run --json`")] = False,
    stored: Annotated[bool, typer.Option("--stored", help="the events as saved, read from the database without "
                                         "rebuilding the fight (a fight saved before the rules changed)")] = False,
    branch: Annotated[str | None, typer.Option(help="the fight as saved before its N-th change of rules (see "
                                               "`affray games`); implies --stored", metavar="N")] = None,
    policy: Annotated[list[str] | None, typer.Option("--policy", help="a designer's module:function the fight plays, "
                                                     "to run it and rebuild the fight (else it is shown as saved)",
                                                     metavar="MODULE:FUNCTION")] = None,
) -> None:
    """Print a saved fight's timeline as it stands."""

    def body() -> None:
        from affray.errors import PolicyError
        from affray.io.timeline import timeline_json
        from affray.render.timeline import render_result

        _resumed(policy)
        with contextlib.closing(_existing_store(db)) as store:  # read-only: a reader never writes
            record = store.game(_game(game))
            if stored or branch is not None:
                _log_stored(store, record, _whole("--branch", branch, 1, MAX_SEED, "a branch's number (`affray "
                                                  "games` counts them)"), as_json)
                return
            try:
                result = _session(store, record, None, code=_code(policy)).rebuild()
            except PolicyError as exc:  # its designer's policy not given, or not importable here: shown as saved
                from affray.cli.common import err

                err().print(printable(f"{store.path}: fight {record.id} is shown as saved, not rebuilt: {exc}"),
                            markup=False)
                _log_stored(store, record, None, as_json)
                return
        if as_json:
            sys.stdout.write(timeline_json(result))
        else:
            render_result(result, _console())

    _guard(body)


@_app.command()
def replay(
    source: Annotated[Path, typer.Argument(metavar="DB|FILE", help="a saved fight's database (affray play, drive or "
                                           "serve --db) or an encounter file (its plan, then each side's policy)")],
    ruleset: Annotated[str, typer.Option(help="the rulesets to replay it under: ID, ID,ID... or all (every other)",
                                         metavar="ID[,ID...]")],
    game: Annotated[str | None, typer.Option(help="the database's fight (default: the latest)", metavar="ID")] = None,
    seed: _Seed = None,
    set_: _Sets = None,
    max_rounds: _MaxRounds = "50",
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document, a timeline per ruleset")] = False,
    board: Annotated[Path | None, typer.Option(help="the sequence boards side by side, as one SVG file",
                                               metavar="PATH")] = None,
    write: Annotated[Path | None, typer.Option(help="write each ruleset's encounter file there (affray run FILE "
                                               "--auto plays it)", metavar="DIR")] = None,
    catalogue: _Catalogue = None,
) -> None:
    """Play a fight that was played again under other rulesets, side by side: the same combatants, declarations and
    dice; who acted when, who fell when, who won, and why each differs."""

    def body() -> None:
        from affray.cli.replay import replay_command

        replay_command(source, ruleset, game=game, seed=seed, sets=set_, max_rounds=max_rounds, as_json=as_json,
                       board=board, write=write, catalogue=catalogue)

    _guard(body)


def _inputs(file: Path, catalogue: Path | None, named: str | None) -> list[Path]:
    """What a command reads: the encounter file, ``--catalogue``, and the catalogue file it names (beside it)."""
    return [file, *([catalogue] if catalogue is not None else []), *([file.parent / named] if named else [])]


def _prepare(file: Path, ruleset: str | None, seed: int | None, sets: list[str] | None,
             catalogue: Path | None = None, declare: list[str] | None = None,
             policies: list[str] | None = None, rounds: int | None = None) -> tuple[Prepared, dict[str, Any], str]:
    """``_prepare_party`` without a party file: the prepared fight, its options and its text."""
    prepared, options, text, _keeper = _prepare_party(file, ruleset, seed, sets, catalogue, declare, policies, rounds)
    return prepared, options, text


def _prepare_party(file: Path, ruleset: str | None, seed: int | None, sets: list[str] | None,
                   catalogue: Path | None = None, declare: list[str] | None = None,
                   policies: list[str] | None = None, rounds: int | None = None,
                   party: Path | None = None, *, text_kept: bool = True,
                   ) -> tuple[Prepared, dict[str, Any], str, Keeper | None]:
    """Load ``file`` and settle its ruleset, options (``--set``), seed, who declares (``--declare``) and how
    ``--auto`` plays (``--policy``), both written into the file's text; bad ones are the file's errors. The text
    is returned too (the console keeps it in its database, so that a resumed fight plays the same): for a file
    that names catalogue entries or rolls hit points, the encounter as the fight starts it, standing alone
    (``Loaded.settled_text``). With ``party``, the party file's side in place of the file's of its name (its
    problems the party file's), and the keeper that writes what the fight left back into it. ``text_kept=False``:
    a command that keeps no text (``run``) is given the file's as it is (the settled one is not written)."""
    from affray.api import prepare
    from affray.io.load import read_text
    from affray.io.rewrite import with_declare

    text = read_text(file)
    code = _code(policies)
    keeper = None
    if party is not None:
        text, keeper = _with_party(text, file, party, catalogue)
    loaded = _load_party(text, file, catalogue, keeper)  # the file as written: its own problems first
    if declare:
        text = with_declare(text, str(file), declare)
    if policies:
        from affray.cli.sim import with_policies

        text = with_policies(text, file, policies)
    if declare or policies:  # the text written again: loaded again (as written, it is what was just loaded)
        loaded = _load_party(text, file, catalogue, keeper, code)
    _warn(loaded)
    if rounds is not None:
        _bounded_fight(file, loaded, rounds)
    try:
        options = _parse_sets(sets or [])
        prepared = prepare(loaded, ruleset=ruleset, seed=seed, options=options, code=code)
        return prepared, options, (prepared.loaded.settled_text() if text_kept else None) or text, keeper
    except (OptionError, UnknownRulesetError) as exc:
        what = "--ruleset" if isinstance(exc, UnknownRulesetError) else "options (--set)"
        raise OptionError(f"{file}: {what}: {exc}") from None


def _load_party(text: str, file: Path, catalogue: Path | None, keeper: Keeper | None,
                code: tuple[str, ...] = ()) -> Loaded:
    """The encounter loaded from ``text``; with a party file, a problem of its side is said as the party file's."""
    from affray.io.load import load_text

    try:
        return load_text(text, str(file), strict=False, catalogue=catalogue, code=code)
    except EncounterError as exc:
        if keeper is None:
            raise
        from affray.party.file import explain_party, read_party

        raise explain_party(exc, keeper.side, read_party(keeper.path)) from None


def _with_party(text: str, file: Path, party: Path, catalogue: Path | None) -> tuple[str, Keeper]:
    """The encounter's text with the party file's side in it, and the keeper of that file."""
    from affray.party.file import read_party, with_party
    from affray.party.left import Keeper

    read = read_party(party, catalogue=catalogue)
    text, side = with_party(text, str(file), read)
    return text, Keeper(party, side)


def _resumed_party(party: Path | None, text: str) -> Keeper | None:
    """The keeper of a resumed fight's party file (``--party`` given again): it must still be the party of the
    fight's side of its name."""
    if party is None:
        return None
    from affray.party.file import read_party, with_party
    from affray.party.left import Keeper

    read = read_party(party)
    side = with_party(text, "", read)[1]
    return Keeper(party, side)


def _warn(loaded: Loaded) -> None:
    """What is valid but most likely not meant, on stderr (a weapon written out without damage under a catalogue
    weapon's name): the command goes on."""
    if loaded.warnings:
        from affray.cli.common import err

        for w in loaded.warnings:
            err().print(printable(f"warning: {w}"), markup=False)


def _log_stored(store: Store, game: Game, branch: int | None, as_json: bool) -> None:
    """A fight's events as saved (before its ``branch``-th branch), read from the journal alone."""
    from affray.table import StoreError, stored_text

    journal = store.journal(game.id)
    if branch is not None:
        if branch > len(journal.branches):
            raise StoreError(f"{store.path}: fight {game.id} has {len(journal.branches) or 'no'} branch"
                             f"{'es' if len(journal.branches) != 1 else ''}: --branch {branch} is not one of them")
        journal = store.journal(game.id, before=journal.branches[branch - 1].row)
    if as_json:
        sys.stdout.write(json.dumps({"game": game.id, "file": game.file, "ruleset": game.ruleset, "seed": game.seed,
                                     "saved_by": journal.written_by(), "over": journal.ended,
                                     "events": journal.events}, ensure_ascii=False, indent=1) + "\n")
        return
    what = f"branch {branch} of fight {game.id} (as saved before its rules changed)" if branch else \
        f"fight {game.id} as saved"
    typer.echo(printable(f"{what}: {game.file} under {game.ruleset}, seed {game.seed}; written by "
                         f"{journal.written_by()}; {len(journal.events)} events, "
                         f"{'over' if journal.ended else 'in progress'}"))
    last = None
    for e in journal.events:
        if e.get("round") is not None and e.get("round") != last:
            last = e.get("round")
            typer.echo(f"-- Round {last} --")
        for line in stored_text(e):
            typer.echo(printable(line))


def _code(policies: list[str] | None) -> tuple[str, ...]:
    """The designer's ``module:function`` policies named by ``--policy`` (NAME, SIDE=NAME or SIDE=n1,n2): the code
    the command may run (a file never names it, and a saved fight runs it only when named again)."""
    refs = [v.strip() for item in policies or [] for v in item.rpartition("=")[2].split(",")]
    return tuple(dict.fromkeys(r for r in refs if ":" in r))


def _resumed(policies: list[str] | None) -> None:
    """``--policy`` on a saved fight names only the designer's module:function policies it plays, to run them."""
    for item in policies or []:
        if "=" in item or ":" not in item or "," in item:
            raise OptionError(f"--policy {item}: a saved fight keeps the policies it was started with; here "
                              "--policy names a designer's module:function it plays, to let affray run it (e.g. "
                              "--policy mypolicies:brave)")


def _session(store: Store, game: Game, io: Io | None, dice: str | None = None,
             new_rules: bool = False, party: Keeper | None = None, code: tuple[str, ...] = ()) -> RefereeConsole:
    """The console of a stored fight; a stored encounter that no longer loads is the database's problem."""
    from affray.play import RefereeConsole
    from affray.table import StoreError

    try:
        return RefereeConsole(store, game, io, _console(), dice=dice, new_rules=new_rules, party=party, code=code)
    except (EncounterError, OptionError, UnknownRulesetError) as exc:
        raise StoreError(f"{store.path}: fight {game.id} is damaged: its stored encounter ({game.file}) does not "
                         f"load: {exc}") from None


def _closed_if_not(store: Store, get: Callable[[], T]) -> T:
    """``get()`` (a fight of ``store``); if it fails, ``store`` is closed before the error goes on (else its caller
    closes it)."""
    try:
        return get()
    except BaseException:
        store.close()
        raise


def _existing_store(db: Path, *, write: bool = False) -> Store:
    """A database that must exist: opened read-only (``log``, ``games``), or to write a fight of it."""
    from affray.table import Store, StoreError

    if not db.exists():
        raise StoreError(f"{db}: no such database (give --db PATH; `affray play FILE --db PATH` makes one)")
    if write:
        _loose(db)
    store = Store(db, write=write)
    if store.immutable is not None:
        from affray.cli.common import err

        err().print(printable(store.immutable), markup=False)
    return store


def _writer(db: Path) -> Store:
    """The database a fight is written to (made if new: its owner's alone), a loose one said first."""
    from affray.table import Store

    _loose(db)
    return Store(db)


def _loose(db: Path) -> None:
    """A database other users of the machine may read is said on stderr (it holds the page's links)."""
    from affray.table.store import loose

    said = loose(db)
    if said is not None:
        from affray.cli.common import err

        err().print(printable(said), markup=False)


def _hours(minutes: int | None) -> str:
    if minutes is None:
        return "none (under 4 hours' rest)"
    h, m = divmod(minutes, 60)
    return f"{minutes} min ({h} h{f' {m} min' if m else ''})"


@_app.command()
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
        from affray.supplements.c2x.mana import pool, recovery_minutes

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


@_app.command()
def learn(
    level: Annotated[int, typer.Option(help="spell level, 1-9")],
    library: Annotated[bool, typer.Option("--library", help="an arcane library and workshop at hand")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document")] = False,
) -> None:
    """Research time to add a spell to the list (C2X-09)."""

    def body() -> None:
        from affray.supplements.c2x.mana import research_days

        days = research_days(level, library=library)
        if as_json:
            sys.stdout.write(json.dumps({"level": level, "library": library, "days": days}) + "\n")
            return
        per = "1/2 day a level with a library" if library else "1 day a level without a library"
        typer.echo(f"a level {level} spell: {days:g} days of research ({per}, C2X-09)")

    _guard(body)


#: The designer's workbench (cli/sim.py), named here so that the other commands need not import it: its commands
#: and its group, in the order ``register`` adds them.
_WORKBENCH = ("simulate", "compare", "odds")


@functools.cache
def _with_workbench() -> typer.Typer:
    """This module's commands and the workbench's (cli/sim.py, imported here), registered once."""
    from affray.cli.sim import register

    register(_app)
    return _app


def __getattr__(name: str) -> Any:
    """``app``: the whole command line as one Typer (for ``typer.testing`` and the docs' tests), made on first use."""
    if name == "app":
        return _with_workbench()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _name(command: CommandInfo) -> str:
    """A registered command's name, as typer gives it."""
    assert command.callback is not None
    return command.name or typer.main.get_command_name(command.callback.__name__)


class _Commands(MutableMapping[str, Any]):
    """The command table of ``affray``: every name known at once, each command's options built when it is looked
    up, so that ``affray run`` builds run's and not the fourteen others' (``affray --help`` looks them all up)."""

    def __init__(self) -> None:
        own = [_name(c) for c in _app.registered_commands if _name(c) not in _WORKBENCH]
        self._names = [*own, *_WORKBENCH]  # typer's order: the commands, then the groups (odds)
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            if name not in self._names:
                raise KeyError(name)
            self._built[name] = _build(name)
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        if name not in self._names:
            self._names.append(name)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def _build(name: str) -> Any:
    """One command (or the ``odds`` group) as typer builds it from its registration."""
    full = _with_workbench() if name in _WORKBENCH else _app
    for command in full.registered_commands:
        if _name(command) == name:
            return typer.main.get_command_from_info(command, pretty_exceptions_short=full.pretty_exceptions_short,
                                                    rich_markup_mode=full.rich_markup_mode)
    group = next(g for g in full.registered_groups if g.name == name)
    return typer.main.get_group_from_info(group, pretty_exceptions_short=full.pretty_exceptions_short,
                                          rich_markup_mode=full.rich_markup_mode,
                                          suggest_commands=full.suggest_commands)


def command_line() -> TyperGroup:
    """The group typer makes of ``app``, with the command table ``_Commands``: the same usage, help and errors."""
    shell = copy.copy(_app)  # the app's settings and help, without its commands (they come from the table)
    shell.registered_commands, shell.registered_groups = [], []
    group = typer.main.get_group(shell)
    group.commands = _Commands()
    return group


def main() -> None:
    command_line()(prog_name="affray")


if __name__ == "__main__":  # pragma: no cover
    main()
