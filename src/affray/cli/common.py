"""What every command of the command line shares: the guard that turns affray's errors into exit 2, and the
readers of ``--set`` and of whole-number options, which speak affray's words rather than typer's."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import typer

from affray.errors import AffrayError, OptionError
from affray.limits import MAX_ROUNDS, MAX_SEED
from affray.printable import printable

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

    from affray.io.load import Loaded

__all__ = ["CLOSED_STDOUT", "bounded_fight", "console", "err", "guard", "numbers", "parse_sets", "whole"]

#: The exit status once the reader of stdout has gone (``affray drive ... | head -n 1``): a shell's for a command
#: ended by SIGPIPE (128 + 13), as ``yes | head`` ends; nothing is printed.
CLOSED_STDOUT = 141

T = TypeVar("T")


@functools.cache
def err() -> Console:
    """The console errors are printed on (rich is imported only when one is)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True, markup=False, emoji=False)  # names as written


def guard(fn: Callable[[], T]) -> T:
    """Run a command body: affray's errors exit 2 with their message; stdout closed by its reader, the command ends
    quietly (``CLOSED_STDOUT``); anything else exits 1, briefly."""
    try:
        try:
            return fn()
        except ModuleNotFoundError as exc:  # an optional package (an extra's) not installed: say which extra
            from affray.extras import missing_extra

            missing = missing_extra(exc, _command(fn))
            if missing is None:
                raise
            raise missing from None
    except AffrayError as exc:  # names and paths in it come from the input: printed without control characters
        err().print(printable(str(exc), keep_newlines=True), markup=False)
        raise typer.Exit(2) from None
    except (typer.Exit, typer.Abort):
        raise
    except BrokenPipeError as exc:
        if not _stdout_closed():
            _internal(exc)
        _quiet_stdout()  # what was made is saved already (a fight journals before it shows): end as ``yes | head``
        raise typer.Exit(CLOSED_STDOUT) from None
    except Exception as exc:
        _internal(exc)


def _internal(exc: Exception) -> NoReturn:
    """An internal error: one line, the traceback only on request (AFFRAY_DEBUG: raised again)."""
    if os.environ.get("AFFRAY_DEBUG"):
        raise exc
    err().print(f"affray: internal error: {type(exc).__name__}: {exc} (set AFFRAY_DEBUG=1 for the traceback)",
                markup=False)
    raise typer.Exit(1) from None


def _stdout_closed() -> bool:
    """Whether stdout is a pipe (or socket) whose reader has gone: a broken pipe of stdout's own, not another's."""
    import select

    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _fd, events in poll.poll(0))
    except (AttributeError, OSError, ValueError):  # no file descriptor (a test's stdout)
        return False


def _quiet_stdout() -> None:
    """stdout onto /dev/null: what is still buffered is dropped there, not reported at exit as a broken pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def _command(body: Callable[[], Any]) -> str:
    """The command a body belongs to, by its name: ``serve.<locals>.body`` is ``affray serve``'s,
    ``odds_attack.<locals>.body`` is ``affray odds attack``'s."""
    outer, local, _ = body.__qualname__.partition(".<locals>")
    return f"affray {outer.replace('_', ' ')}" if local else "this command"


def parse_sets(values: list[str]) -> dict[str, Any]:
    from affray.io.read import load_value  # the YAML reader, imported by the commands that read --set

    out: dict[str, Any] = {}
    for item in values:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--set {item!r}: use --set OPTION=VALUE, e.g. --set mutual_surprise=cancel")
        try:
            out[name.strip()] = load_value(raw, f"--set {name.strip()}") if raw.strip() else ""
        except ValueError as exc:
            raise OptionError(f"--set {item!r}: {exc}; the value is one YAML scalar: true, 3, loser") from None
    return out


def whole(option: str, text: str | None, least: int, most: int, what: str) -> int | None:
    """A whole-number option, read here rather than by typer, so that a bad one is told in affray's words."""
    if text is None:
        return None
    digits = text.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 25 or not least <= int(text) <= most:
        raise OptionError(printable(f"{option} {text}: {what}"))
    return int(text)


def numbers(seed: str | None, max_rounds: str) -> tuple[int | None, int]:
    n = whole("--seed", seed, 0, MAX_SEED, f"a seed is a whole number from 0 to {MAX_SEED} (2^63 - 1)")
    rounds = whole("--max-rounds", max_rounds, 1, MAX_ROUNDS, f"a whole number from 1 to {MAX_ROUNDS} (limit)")
    assert rounds is not None
    return n, rounds


def console() -> Console:
    """A console for the output (rich is imported only when something is printed); stdout closed, it ends the
    command as a closed stdout ends affray's JSON lines (``CLOSED_STDOUT``), not rich's exit 1 (an internal error's)."""
    from rich.console import Console

    class Out(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError  # to ``guard``, which ends the command quietly

    return Out(highlight=False, markup=False, emoji=False)  # a name "[/]Orc" or "x:boom:" printed as written


def bounded_fight(file: Path, loaded: Loaded, rounds: int) -> None:
    """``MAX_FIGHT_BLOWS``: a fight played here keeps every event (some 1 KB a blow), so its most blows a round x
    ``--max-rounds`` is bounded; the default 50 rounds always pass (``MAX_BLOWS`` x 50)."""
    from affray.io.load import blows_in_a_round
    from affray.limits import MAX_FIGHT_BLOWS

    blows = blows_in_a_round(loaded.encounter)[0]
    if blows * rounds > MAX_FIGHT_BLOWS:
        raise OptionError(f"{printable(str(file))}: --max-rounds {rounds}: up to {blows:,} blows a round x {rounds} "
                          f"rounds is {blows * rounds:,} blows in the fight: at most {MAX_FIGHT_BLOWS:,} (limit): "
                          f"--max-rounds {MAX_FIGHT_BLOWS // blows} at most for this file")
