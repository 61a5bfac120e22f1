"""Where the console reads: prompt_toolkit on a terminal (line editing, history, Tab completion), plain lines
from a pipe. Either way every prompt takes the next line, as typed."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from affray.limits import MAX_COMMAND_CHARS
from affray.printable import printable

__all__ = ["Complete", "PipeIo", "PromptIo", "WordCompleter", "io_for_stdin"]

#: What may complete a line typed so far: (the part being typed, the words that may replace it).
Complete = Callable[[str], tuple[str, list[str]]]


class PipeIo:
    """Lines piped on stdin (scripts, tests), each answering the prompt it comes to; echoed after the prompt."""

    interactive = False

    def __init__(self, stream: TextIO, echo: TextIO | None = None) -> None:
        self.stream = stream
        self.echo = echo

    def ask(self, prompt: str, complete: Complete | None = None) -> str | None:
        line = self.stream.readline(MAX_COMMAND_CHARS + 1)
        while len(line) > MAX_COMMAND_CHARS and not line.endswith("\n"):
            while (rest := self.stream.readline(MAX_COMMAND_CHARS)) and not rest.endswith("\n"):
                pass  # the rest of an overlong line is dropped, in bounded pieces
            if self.echo is not None:  # and the prompt waits for the next line
                self.echo.write(f"{prompt}(a line of more than {MAX_COMMAND_CHARS} characters, ignored: limit)\n")
                self.echo.flush()
            line = self.stream.readline(MAX_COMMAND_CHARS + 1)
        if not line:
            return None
        if self.echo is not None:  # what was read, shown without control characters
            self.echo.write(f"{prompt}{printable(line.rstrip(chr(10)))}\n")
            self.echo.flush()
        return line.rstrip("\n")


class WordCompleter(Completer):
    """prompt_toolkit's view of a ``Complete``: the words that may replace the part being typed."""

    def __init__(self, complete: Complete) -> None:
        self.complete = complete

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        partial, words = self.complete(document.text_before_cursor)
        for word in words:
            yield Completion(word, start_position=-len(partial))


class PromptIo:
    """A referee at a terminal: prompt_toolkit's line editing and history; Tab completes commands, names,
    weapons and spells."""

    interactive = True

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession

        self.session: PromptSession[str] = PromptSession()

    def ask(self, prompt: str, complete: Complete | None = None) -> str | None:
        try:
            return self.session.prompt(prompt, completer=WordCompleter(complete) if complete else None,
                                       complete_while_typing=False)
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave; everything is saved already
            return None


def io_for_stdin() -> PipeIo | PromptIo:
    if sys.stdin.isatty() and sys.stdout.isatty():
        return PromptIo()
    return PipeIo(sys.stdin, echo=sys.stdout)
