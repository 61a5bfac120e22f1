"""What ``affray drive`` and the console read from a pipe: one line at a time, bounded, in UTF-8 whatever the locale.

A line is read no further than its limit: the rest of an overlong line is dropped in pieces of that size, so memory
stays bounded whatever comes (a line of 256 MiB, or one that never ends). A line too long, or not UTF-8, is refused
in words (``Refused``) and the reader goes on to the next: one careless line does not end a fight. A stream that
cannot be read at all (stdin opened for writing only, an I/O error) is an ``InputError`` (exit 2).

Text with a lone surrogate (JSON's ``"\\ud800"``, or a byte that is not UTF-8 as a terminal library passes it on) is
no text: nothing can print, store or send it. ``lone_surrogate`` finds one in what a line carried.
"""

from __future__ import annotations

import re
from typing import BinaryIO, NamedTuple

from affray.errors import InputError

__all__ = ["SURROGATE", "Refused", "lone_surrogate", "read_line", "surrogate_message"]

#: A lone surrogate: no character, and nothing can print or store it.
SURROGATE = re.compile("[\ud800-\udfff]")


class Refused(NamedTuple):
    """A line read and not taken: why, in words."""

    why: str


def read_line(stream: BinaryIO, most: int, *, chars: bool = False) -> str | Refused | None:
    """The next line of ``stream`` as text, without its line break: at most ``most`` bytes (``chars``: characters,
    read as at most four bytes each); ``Refused`` when it is longer or not UTF-8; None at the end of the input."""
    unit = "characters" if chars else "bytes"
    limit = 4 * most if chars else most
    try:
        raw = stream.readline(limit + 1)
        if len(raw) > limit and not raw.endswith(b"\n"):
            while (rest := stream.readline(limit)) and not rest.endswith(b"\n"):
                pass  # the rest of an overlong line is dropped, in bounded pieces
            return Refused(f"a line of more than {most} {unit}, ignored: limit")
    except OSError as exc:
        raise InputError(f"{getattr(stream, 'name', 'the input')} cannot be read: {exc.strerror or exc}") from None
    if not raw:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Refused(f"a line that is not UTF-8 text (the byte 0x{raw[exc.start]:02x}, byte {exc.start + 1} of the "
                       "line), ignored: send UTF-8")
    text = text.removesuffix("\n").removesuffix("\r")
    if chars and len(text) > most:
        return Refused(f"a line of more than {most} {unit}, ignored: limit")
    return text


def surrogate_message(text: str) -> str | None:
    """What is wrong with ``text`` when it holds a lone surrogate, else None."""
    found = SURROGATE.search(text)
    if found is None:
        return None
    n = ord(found.group())
    if 0xdc80 <= n <= 0xdcff:  # how a byte that is not UTF-8 comes through a terminal's (or a locale's) decoding
        return (f"the byte 0x{n - 0xdc00:02x} is not UTF-8 text (or \\u{n:04x}, half of a surrogate pair, is no "
                "character): write the character itself, in UTF-8")
    return f"\\u{n:04x} is half of a surrogate pair, not a character: write the character itself (UTF-8)"


def lone_surrogate(value: object) -> str | None:
    """What is wrong with ``value`` (a text, or lists and mappings of texts and other values, as JSON gives them) when
    a text in it holds a lone surrogate, else None."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, str):
            if (message := surrogate_message(v)) is not None:
                return message
        elif isinstance(v, dict):
            todo.extend(v)
            todo.extend(v.values())
        elif isinstance(v, (list, tuple)):
            todo.extend(v)
    return None
