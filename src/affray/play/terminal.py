"""Where the console reads: prompt_toolkit on a terminal (line editing, history, Tab completion), plain lines
from a pipe. Either way every prompt takes the next line, as typed."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO, TextIO

from affray.io.lines import Refused, read_line
from affray.limits import MAX_COMMAND_CHARS
from affray.printable import printable

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

__all__ = ["Complete", "PipeIo", "PromptIo", "io_for_stdin"]

#: What may complete a line typed so far: (the part being typed, the words that may replace it).
Complete = Callable[[str], tuple[str, list[str]]]


class PipeIo:
    """Lines piped on stdin (scripts, tests), each answering the prompt it comes to; echoed after the prompt. A line
    longer than ``MAX_COMMAND_CHARS`` or not UTF-8 is ignored, said so after the prompt, which waits for the next
    (``affray.io.lines``)."""

    interactive = False

    def __init__(self, stream: BinaryIO, echo: TextIO | None = None) -> None:
        self.stream = stream
        self.echo = echo

    def ask(self, prompt: str, complete: Complete | None = None) -> str | None:
        while isinstance(line := read_line(self.stream, MAX_COMMAND_CHARS, chars=True), Refused):
            self._echo(f"{prompt}({line.why})")
        if line is None:
            return None
        self._echo(f"{prompt}{printable(line)}")  # what was read, shown without control characters
        return line

    def _echo(self, text: str) -> None:
        if self.echo is not None:
            self.echo.write(text + "\n")
            self.echo.flush()


class PromptIo:
    """A referee at a terminal: prompt_toolkit's line editing and history; Tab completes commands, names,
    weapons and spells."""

    interactive = True

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession  # at a terminal only (``affray.play.completing``)

        self.session: PromptSession[str] = PromptSession()

    def ask(self, prompt: str, complete: Complete | None = None) -> str | None:
        from affray.play.completing import WordCompleter

        try:
            return self.session.prompt(prompt, completer=WordCompleter(complete) if complete else None,
                                       complete_while_typing=False)
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave; everything is saved already
            return None


def io_for_stdin() -> PipeIo | PromptIo:
    if sys.stdin.isatty() and sys.stdout.isatty():
        return PromptIo()
    return PipeIo(sys.stdin.buffer, echo=sys.stdout)
