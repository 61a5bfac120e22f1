"""Which reader a file is for (``affray import``): a folder of Foundry exports, a ``.json`` file (a Foundry actor,
else affray's own party or catalogue in JSON), a ``.yaml`` file (affray's own), anything else (or ``-``, stdin) stat
lines; and the combatants imported, as a side of an encounter file's, checked before anything is written."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

from affray.errors import EncounterError, Problem
from affray.importing import Imported, Unreadable, note
from affray.limits import MAX_FILE_BYTES

__all__ = ["as_party_text", "read_input"]

#: The most files of a folder read at once.
MAX_FILES = 500


def read_input(source: str) -> Imported:  # noqa: C901
    """What ``source`` holds (a path, or ``-`` for stdin): Unreadable naming every problem."""
    from affray.importing.foundry import is_foundry, read_foundry
    from affray.importing.statline import read_statlines
    from affray.io.read import parse_yaml, plain_data, read_text

    if source == "-":
        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        if len(text) > MAX_FILE_BYTES:
            raise Unreadable([note("<stdin>", "", f"more than {MAX_FILE_BYTES // 1024} KiB (limit)")])
        if text.lstrip().startswith(("{", "[")):
            return read_foundry(Path("<stdin>"), text)
        return read_statlines(text, "<stdin>")
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".json" and p.is_file())
        if not files:
            raise Unreadable([note(source, "", "a folder without .json files: nothing to import (a folder holds "
                                               "Foundry VTT actor exports)")])
        if len(files) > MAX_FILES:
            raise Unreadable([note(source, "", f"{len(files)} files: at most {MAX_FILES} (limit)")])
        out = Imported()
        problems: list[Problem] = []
        for p in files:
            try:
                out.extend(read_foundry(p))
            except Unreadable as exc:
                problems += exc.problems
        if problems:
            raise Unreadable(problems)
        return out
    try:
        text = read_text(path)
    except EncounterError as exc:
        raise Unreadable(exc.problems) from None
    suffix = path.suffix.lower()
    if suffix == ".json" or (suffix not in (".yaml", ".yml") and text.lstrip().startswith(("{", "["))):
        try:
            data = json.loads(text)
        except ValueError:
            return read_foundry(path, text)  # it says where the JSON breaks
        if is_foundry(data):
            return read_foundry(path, text)
        return _own(path, data)
    if suffix in (".yaml", ".yml"):
        try:
            data = plain_data(parse_yaml(text, str(path)), str(path))
        except EncounterError as exc:
            raise Unreadable(exc.problems) from None
        return _own(path, data)
    return read_statlines(text, str(path))


def _own(path: Path, data: Any) -> Imported:
    from affray.catalogue import KINDS
    from affray.importing.own import read_catalogue, read_party_file

    if isinstance(data, dict) and "combatants" in data:
        return read_party_file(path)
    if isinstance(data, dict) and data and set(data) <= set(KINDS):
        return read_catalogue(path)
    if isinstance(data, dict) and "sides" in data:
        raise Unreadable([note(str(path), "sides", "an encounter file: its sides are affray's already (a party file "
                                                   "is one side: copy it out)")])
    raise Unreadable([note(str(path), "", "none of the files affray imports: a Foundry VTT actor export of the "
                                          "Old-School Essentials system (JSON), stat lines (text), or affray's own "
                                          "party file (`combatants:`) or catalogue file (`monsters:`)")])


def as_party_text(imported: Imported, header: str) -> str:
    """The imported combatants as a party file's text (a side: ``pc: true`` for characters), one combatant a line."""
    from ruamel.yaml import YAML

    data: dict[str, Any] = {}
    if imported.pc:
        data["pc"] = True
    data["combatants"] = imported.combatants
    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.default_flow_style = None
    out = io.StringIO()
    out.write(header)
    yaml.dump(_flow(data), out)
    return out.getvalue()


def _flow(data: dict[str, Any]) -> Any:
    """Each combatant on one line of flow style, as the docs write them."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    top = CommentedMap(data)
    combatants = CommentedSeq()
    for c in data["combatants"]:
        m = CommentedMap(c)
        m.fa.set_flow_style()
        combatants.append(m)
    top["combatants"] = combatants
    return top
