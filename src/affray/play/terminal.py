"""Where the console reads: prompt_toolkit on a terminal, plain lines from a pipe (nothing asked)."""

from __future__ import annotations

import sys
from typing import TextIO

__all__ = ["PipeIo", "PromptIo", "io_for_stdin"]


class PipeIo:
    """Commands piped on stdin (scripts, tests): read line by line; dice are never asked."""

    interactive = False

    def __init__(self, stream: TextIO, echo: TextIO | None = None) -> None:
        self.stream = stream
        self.echo = echo

    def ask(self, prompt: str) -> str | None:
        line = self.stream.readline()
        if not line:
            return None
        if self.echo is not None:
            self.echo.write(f"{prompt}{line if line.endswith(chr(10)) else line + chr(10)}")
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
