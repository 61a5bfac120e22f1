"""Text from a file or a command, made safe to print on a terminal.

Names, texts and paths come from files and command lines that anyone may write: an escape sequence in a
combatant's name could recolour, retitle or clear the referee's terminal, a BEL ring it, a newline forge a
line of the timeline. What is printed for a person goes through ``printable``; JSON output keeps the exact
strings (JSON escapes them).
"""

from __future__ import annotations

import re

__all__ = ["printable"]

# An escape sequence as a whole (CSI ``ESC [ ... final``, OSC ``ESC ] ... BEL or ESC \``, and two-byte ones),
# then any control character left: C0, DEL, C1, the bidirectional overrides that reorder what is shown, and lone
# surrogates (no character: nothing could print or encode one).
# Patterns, not compiled ones: ``re`` compiles them (once, cached) the first time a text needs them, which most
# commands never do.
_ESCAPES = r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?|\x9b[0-?]*[ -/]*[@-~]"
_CONTROLS = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
_BREAKS = r"[\t\n\r\x0b\x0c\x85\u2028\u2029]"


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` without escape sequences and control characters; a line break or tab becomes a space (with
    ``keep_newlines``, ``\\n`` is kept: a multi-line message of affray's own)."""
    if text.isprintable():  # the common case: nothing to strip (ESC and every control are not printable)
        return text
    text = re.sub(_ESCAPES, "", text)
    if keep_newlines:
        return "\n".join(re.sub(_CONTROLS, "", re.sub(_BREAKS, " ", line)) for line in text.split("\n"))
    return re.sub(_CONTROLS, "", re.sub(_BREAKS, " ", text))
