"""The catalogue: weapons, armour, spells and monsters by name (CONTRACT.md "The catalogue").

The package's entries are data files (``data/weapons.json``, ``armour.json``, ``spells.json``, ``monsters.json``),
each entry citing its source. A referee's own file (YAML or JSON: ``weapons:``, ``armour:``, ``spells:``,
``monsters:``, each a mapping of name to entry in the same form) adds entries or replaces the package's (``same_as``
its own name: the entry it replaces, its own figures winning). Names are
matched without regard to capitals, hyphens, apostrophes or repeated spaces (``Footmans-Mace`` finds the footman's
mace). Instances are immutable.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from affray.catalogue.entries import (
    KINDS,
    ArmourEntry,
    Entry,
    MonsterEntry,
    Scale,
    SpellEntry,
    WeaponEntry,
    entry_model,
)
from affray.errors import EncounterError, Problem

__all__ = ["KINDS", "ArmourEntry", "Catalogue", "Entry", "Found", "MonsterEntry", "Scale", "SpellEntry",
           "WeaponEntry", "key_of", "package_catalogue"]

#: The origin of the package's own entries.
PACKAGE = "affray"
#: How many ``same_as`` steps an entry may take (a longer chain is refused, a circle too).
_SAME_AS_STEPS = 4

_SPACES = re.compile(r"[\s_\-]+")


def key_of(name: str) -> str:
    """The name as the catalogue matches it: lower case, apostrophes dropped, hyphens and spaces one space."""
    return _SPACES.sub(" ", name.lower().replace("'", "").replace("\u2019", "")).strip()


@dataclass(frozen=True)
class Found:
    """An entry found by name: its kind, its name as the catalogue writes it, the entry (``same_as`` followed)
    and where it comes from (``affray``, or the referee's file)."""

    kind: str
    name: str
    entry: Entry
    origin: str


@dataclass(frozen=True)
class _Raw:
    name: str
    data: dict[str, Any]
    origin: str


class Catalogue:
    """Entries by kind and name; ``find`` one, ``nearest`` to a name that is not there, ``with_file`` a referee's
    own."""

    def __init__(self, raw: Mapping[str, Mapping[str, _Raw]]) -> None:
        self._raw = {kind: dict(raw.get(kind, {})) for kind in KINDS}
        self._found: dict[tuple[str, str], Found] = {}

    # -- lookup ----------------------------------------------------------------------------------------------

    def find(self, kind: str, name: str) -> Found | None:
        """The entry of ``kind`` called ``name`` (matched by ``key_of``), or None."""
        key = key_of(name)
        if key not in self._raw[kind]:
            return None
        hit = self._found.get((kind, key))
        if hit is None:
            hit = self._found[(kind, key)] = self._resolve(kind, key)
        return hit

    def names(self, kind: str) -> list[str]:
        """Every entry's name of ``kind``, in the catalogue's order (the package's, then the referee's new ones)."""
        return [r.name for r in self._raw[kind].values()]

    def entries(self, kind: str) -> Iterator[Found]:
        for key in self._raw[kind]:
            found = self.find(kind, self._raw[kind][key].name)
            assert found is not None
            yield found

    def nearest(self, kind: str, name: str, n: int = 3) -> list[str]:
        """Up to ``n`` names of ``kind`` closest to ``name``: those containing it (or contained in it) first, then
        the most alike (difflib's ratio); deterministic."""
        key = key_of(name)
        names = {k: r.name for k, r in self._raw[kind].items()}
        inside = [names[k] for k in names if key and (key in k or k in key)]
        alike = [names[k] for k in difflib.get_close_matches(key, list(names), n=n + len(inside), cutoff=0.5)]
        out = list(dict.fromkeys(inside + alike))
        return out[:n]

    def search(self, text: str) -> list[Found]:
        """Entries of every kind whose names contain ``text`` (matched by ``key_of``), kind by kind."""
        key = key_of(text)
        return [f for kind in KINDS for k, r in self._raw[kind].items() if key in k
                for f in [self.find(kind, r.name)] if f is not None]

    def count(self, kind: str) -> int:
        return len(self._raw[kind])

    # -- a referee's file --------------------------------------------------------------------------------------

    def with_file(self, path: str | Path) -> Catalogue:
        """This catalogue with the entries of the referee's file ``path`` added or replacing; EncounterError lists
        every problem of the file (its line and field path)."""
        from affray.io.read import format_path, line_of, parse_yaml, plain_data, read_text

        file = str(path)
        doc = parse_yaml(read_text(path), file)
        data = plain_data(doc, file)

        def problem(loc: tuple[str | int, ...], message: str) -> Problem:
            return Problem(file, line_of(doc, loc), format_path(loc), message)

        if not isinstance(data, dict) or not data:
            raise EncounterError([Problem(file, 1, "", "a catalogue file is a mapping of weapons:, armour:, spells: "
                                          "and monsters:, each a mapping of name to entry")])
        problems: list[Problem] = []
        raw = {kind: dict(self._raw[kind]) for kind in KINDS}
        for kind, entries in data.items():
            if kind not in KINDS:
                problems.append(problem((str(kind),), f"unknown kind {kind!r}: a catalogue file has "
                                        f"{', '.join(KINDS)}"))
                continue
            if not isinstance(entries, dict):
                problems.append(problem((kind,), f"`{kind}` is a mapping of name to entry"))
                continue
            for name, entry in entries.items():
                loc: tuple[str | int, ...] = (kind, str(name))
                if not isinstance(entry, dict):
                    problems.append(problem(loc, "an entry is a mapping of its figures (and `source:`)"))
                    continue
                if not str(name).strip():
                    problems.append(problem(loc, "an entry's name cannot be blank"))
                    continue
                key = key_of(str(name))
                below = raw[kind].get(key)
                if below is not None and key_of(str(entry.get("same_as") or "")) == key:
                    # ``orc: {same_as: orc, mv: 9}``: the entry it replaces, with its own figures winning
                    own = {k: v for k, v in entry.items() if k != "same_as"}
                    entry = {**below.data, **own}
                raw[kind][key] = _Raw(str(name).strip(), entry, file)
        new = Catalogue(raw)
        for kind, entries in data.items():
            if kind in KINDS and isinstance(entries, dict):
                for name, entry in entries.items():
                    if isinstance(entry, dict) and str(name).strip():
                        problems.extend(problem((kind, str(name), *loc), message)
                                        for loc, message in new.check(kind, str(name)))
        if problems:
            raise EncounterError(problems)
        return new

    def check(self, kind: str, name: str) -> list[tuple[tuple[str | int, ...], str]]:
        """(field path within the entry, message) for each problem of the entry ``name`` of ``kind``."""
        from affray.io.messages import validation_problems

        try:
            found = self._resolve(kind, key_of(name))
        except _SameAsError as exc:
            return [(("same_as",), str(exc))]
        except ValidationError as exc:
            return validation_problems(exc, self._raw[kind][key_of(name)].data)
        if isinstance(found.entry, MonsterEntry):
            return _monster_problems(self, found)
        return []

    # -- same_as ---------------------------------------------------------------------------------------------

    def _resolve(self, kind: str, key: str) -> Found:
        """The entry at ``key`` with its ``same_as`` chain followed (its own figures win over the one it names)."""
        seen = [key]
        raw = self._raw[kind][key]
        data = dict(raw.data)
        while "same_as" in data and data["same_as"] is not None:
            target = key_of(str(data["same_as"]))
            if target in seen:
                raise _SameAsError(f"same_as goes round in a circle: {' -> '.join(seen + [target])}")
            if target not in self._raw[kind]:
                near = ", ".join(self.nearest(kind, str(data["same_as"]))) or "none"
                raise _SameAsError(f"same_as {data['same_as']!r}: no {kind} entry of that name (nearest: {near})")
            if len(seen) > _SAME_AS_STEPS:
                raise _SameAsError(f"same_as takes more than {_SAME_AS_STEPS} steps: {' -> '.join(seen)}")
            seen.append(target)
            below = dict(self._raw[kind][target].data)
            own = {k: v for k, v in data.items() if k != "same_as"}
            data = {**below, **own}
        entry = entry_model(kind).model_validate(data)
        return Found(kind, raw.name, entry, raw.origin)


class _SameAsError(ValueError):
    pass


def _monster_problems(catalogue: Catalogue, found: Found) -> list[tuple[tuple[str | int, ...], str]]:
    """A monster's figures as a combatant of the encounter file: its weapons and spells found, its fields valid."""
    from affray.io.names import monster_figures

    assert isinstance(found.entry, MonsterEntry)
    problems: list[tuple[tuple[str | int, ...], str]] = []
    monster_figures(catalogue, found, problems)
    return problems


def _package_raw() -> dict[str, dict[str, _Raw]]:
    here = files(__name__) / "data"
    out: dict[str, dict[str, _Raw]] = {}
    for kind in KINDS:
        doc = json.loads((here / f"{kind}.json").read_text(encoding="utf-8"))
        out[kind] = {key_of(name): _Raw(name, entry, PACKAGE) for name, entry in doc["entries"].items()}
    return out


@cache
def package_catalogue() -> Catalogue:
    """The catalogue shipped with affray (read once a process)."""
    return Catalogue(_package_raw())


__all__ += ["PACKAGE"]
