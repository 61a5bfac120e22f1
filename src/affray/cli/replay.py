"""``affray replay DB|FILE --ruleset ID[,ID...]``: a played fight played again under other rulesets, side by side
(CONTRACT.md "Replaying a fight under another ruleset")."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from affray.cli.common import numbers, parse_sets, whole
from affray.errors import OptionError
from affray.limits import MAX_SEED
from affray.printable import printable

__all__ = ["replay_command"]


def replay_command(source: Path, ruleset: str, *, game: str | None, seed: str | None, sets: list[str] | None,  # noqa: C901
                   max_rounds: str, as_json: bool, board: Path | None, write: Path | None,
                   catalogue: Path | None) -> None:
    from affray.cli.common import bounded_fight as _bounded_fight
    from affray.cli.common import console as _console
    from affray.extensions import option_names
    from affray.replay.played import is_database, played_from_db, played_from_file
    from affray.replay.report import replay_all
    from affray.rulesets import find_ruleset, ruleset_ids

    seed_n, rounds = numbers(seed, max_rounds)
    game_n = whole("--game", game, 1, MAX_SEED, "the number of a fight (`affray games` lists them)")
    options = parse_sets(sets or [])
    if is_database(source):
        if seed_n is not None or catalogue is not None:
            raise OptionError(f"{printable(str(source))}: a saved fight keeps its own seed and catalogue: "
                              "--seed and --catalogue go with an encounter file")
        played = played_from_db(source, game_n)
    else:
        if game_n is not None:
            raise OptionError(f"{printable(str(source))}: --game picks a fight of a database; this is an encounter "
                              "file (its fight is its plan, then each side's policy)")
        if not source.exists():
            raise OptionError(f"{printable(str(source))}: no such file (give a saved fight's database or an "
                              "encounter file)")
        from affray.io.load import load_text, read_text

        _bounded_fight(source, load_text(read_text(source), str(source), strict=False, catalogue=catalogue), rounds)
        played = played_from_file(source, seed=seed_n, max_rounds=rounds, catalogue=catalogue)
    names = [r.strip() for r in ruleset.split(",") if r.strip()]
    if names == ["all"]:
        names = [r for r in ruleset_ids() if r != played.ruleset]
    chosen = list(dict.fromkeys(find_ruleset(r).id for r in names))  # an unknown one: UnknownRulesetError, exit 2
    if not chosen:
        raise OptionError(f"--ruleset {ruleset!r}: name one or more rulesets (ID,ID...) or all "
                          f"({', '.join(ruleset_ids())})")
    for name in options:
        if not any(name in option_names(find_ruleset(r)) for r in chosen):
            raise OptionError(f"--set {name}: none of {', '.join(chosen)} has an option {name!r} "
                              "(`affray rulesets ID` lists a ruleset's)")
    inputs = [source, *([catalogue] if catalogue is not None else [])]
    drawn = None
    if board is not None:  # opened before any fight is replayed: its folder checked, and never one of the inputs
        from affray.io.output import Output

        drawn = Output(board, "--board", inputs=inputs)
    try:
        report = replay_all(played, chosen, sets=options, max_rounds=rounds)
        if write is not None:
            _write_files(write, played.file, report.replays, inputs)
        if drawn is not None:
            from affray.render.board_side import boards_side_by_side

            assert played.fight is not None  # read from a file or a database: the fight is at hand
            fights = [(f"{played.ruleset}, as played", played.fight)] + [(f"{r.ruleset}, replayed", r.fight)
                                                                         for r in report.replays]
            svg = boards_side_by_side(fights, f"affray replay: {played.source}, seed {played.seed}")
            try:
                drawn.file.write(svg.encode("utf-8"))
            except OSError as exc:
                raise drawn.failed(exc) from None
            drawn.commit()
    finally:
        if drawn is not None:
            drawn.discard()
    if as_json:
        sys.stdout.write(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
        return
    from affray.render.replay import render_report

    render_report(report, _console())


def _write_files(folder: Path, file: str, replays: list, inputs: list[Path]) -> None:  # type: ignore[type-arg]
    """Each replay's encounter file in ``folder``: ``NAME-RULESET.yaml`` (``affray run FILE --auto`` plays it)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OptionError(f"{printable(str(folder))}: cannot make the folder: {exc.strerror or exc}") from None
    stem = Path(file).stem or "fight"
    from affray.io.output import write_output

    for r in replays:
        write_output(folder / f"{stem}-{r.ruleset}.yaml", r.text, "--write", inputs=inputs)
