"""Where the console reads: prompt_toolkit on a terminal, plain lines from a pipe (nothing asked)."""

from __future__ import annotations

import sys
from typing import TextIO

from affray.limits import MAX_COMMAND_CHARS
from affray.printable import printable

__all__ = ["PipeIo", "PromptIo", "io_for_stdin"]


class PipeIo:
    """Commands piped on stdin (scripts, tests): read line by line; dice are never asked."""

    interactive = False

    def __init__(self, stream: TextIO, echo: TextIO | None = None) -> None:
        self.stream = stream
        self.echo = echo

    def ask(self, prompt: str) -> str | None:
        line = self.stream.readline(MAX_COMMAND_CHARS + 1)
        if not line:
            return None
        if len(line) > MAX_COMMAND_CHARS and not line.endswith("\n"):
            while (rest := self.stream.readline(MAX_COMMAND_CHARS)) and not rest.endswith("\n"):
                pass  # the rest of an overlong line is dropped, in bounded pieces
            if self.echo is not None:
                self.echo.write(f"{prompt}(a line of more than {MAX_COMMAND_CHARS} characters, ignored: limit)\n")
                self.echo.flush()
            return ""
        if self.echo is not None:  # what was read, shown without control characters
            self.echo.write(f"{prompt}{printable(line.rstrip(chr(10)))}\n")
            self.echo.flush()
        return line.rstrip("\n")


class PromptIo:
    """A referee at a terminal: prompt_toolkit's line editing and history."""

    interactive = True

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession

        self.session: PromptSession[str] = PromptSession()

    def ask(self, prompt: str) -> str | None:
        try:
            return self.session.prompt(prompt)
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave; everything is saved already
            return None


def io_for_stdin() -> PipeIo | PromptIo:
    if sys.stdin.isatty() and sys.stdout.isatty():
        return PromptIo()
    return PipeIo(sys.stdin, echo=sys.stdout)
