"""``affray import`` (CONTRACT.md "The party across fights, and bringing it in"): combatants written by other tools,
read into affray's form.

What each reader gives back is an ``Imported``: the combatants as an encounter file writes them, and ``notes``, each
naming the file, its line or field path, and what of it was not read or was read as what (a figure the tool keeps
that a fight has no use for; a default taken). A file it cannot read as one of its formats (broken JSON, another
system's actor, a stat line without any figure, a figure it cannot read) is ``Unreadable``: exit 2, with every
problem named, and nothing written.

Readers: ``foundry`` (Foundry VTT actors of the Old-School Essentials system, ``.json``, one or a folder),
``statline`` (stat lines as modules print them, one a line), ``own`` (affray's own party and catalogue files).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from affray.errors import EncounterError, Problem

__all__ = ["Imported", "Unreadable", "note"]


class Unreadable(EncounterError):
    """Input that is none of the formats ``affray import`` reads, or a figure of one it cannot read."""


@dataclass
class Imported:
    """Combatants in affray's form, and the notes on what was read as what."""

    combatants: list[dict[str, Any]] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    pc: bool = False  # player characters (a Foundry character): the side written is ``pc: true``

    def extend(self, other: Imported) -> None:
        self.combatants += other.combatants
        self.notes += other.notes
        self.pc = self.pc or other.pc


def note(file: str, where: str, message: str, line: int | None = None) -> Problem:
    """A note or a problem: ``file``, its ``line`` when known, the field path or stat ``where``, and what."""
    return Problem(file, line, where, message)
