"""affray's own files as ``affray import`` reads them: a party file (its combatants, checked), a catalogue file (each
of its monsters written out as a combatant, its figures in full, its hit points left to its Hit Dice)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from affray.errors import EncounterError
from affray.importing import Imported, Unreadable, note

__all__ = ["read_catalogue", "read_party_file"]


def read_party_file(path: Path) -> Imported:
    """A party file's combatants, as written (the file checked first)."""
    from affray.party.file import read_party

    try:
        party = read_party(path)
    except EncounterError as exc:
        raise Unreadable(exc.problems) from None
    out = Imported([dict(c) for c in party.members], pc=party.data.get("pc", True) is not False)
    out.notes.append(note(str(path), "", f"a party file: its {len(out.combatants)} combatants as written"))
    return out


def read_catalogue(path: Path) -> Imported:
    """A referee's catalogue file's monsters, each a combatant written out (its catalogue weapons resolved)."""
    from affray.catalogue import package_catalogue
    from affray.io.names import monster_figures, with_file

    try:
        catalogue = with_file(package_catalogue(), path)
    except EncounterError as exc:
        raise Unreadable(exc.problems) from None
    own = [f for f in catalogue.entries("monsters") if f.origin == str(path)]
    if not own:
        raise Unreadable([note(str(path), "monsters", "a catalogue file without monsters: nothing to import (its "
                                                      "weapons, armour and spells are named in a file, not imported)")])
    out = Imported()
    for found in own:
        problems: list[tuple[tuple[str | int, ...], str]] = []
        figures: dict[str, Any] = monster_figures(catalogue, found, problems)
        if problems:
            raise Unreadable([note(str(path), f"monsters.{found.name}." + ".".join(map(str, loc)), m)
                              for loc, m in problems])
        name = found.name.strip()
        out.combatants.append({"name": name[:1].upper() + name[1:], "class": "monster", **figures})
        out.notes.append(note(str(path), f"monsters.{found.name}", "written out in full; its hit points rolled from "
                                                                    "its Hit Dice when the fight starts"))
    return out
