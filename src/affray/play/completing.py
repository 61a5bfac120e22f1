"""Tab completion at a terminal: prompt_toolkit's view of a ``Complete`` (imported by the console only at a
terminal: prompt_toolkit costs a piped console, a script's or a test's, a fifth of its start)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

__all__ = ["WordCompleter"]


class WordCompleter(Completer):
    """prompt_toolkit's view of a ``Complete`` (``affray.play.terminal``): the words that may replace the part
    being typed."""

    def __init__(self, complete: Callable[[str], tuple[str, list[str]]]) -> None:
        self.complete = complete

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        partial, words = self.complete(document.text_before_cursor)
        for word in words:
            yield Completion(word, start_position=-len(partial))
