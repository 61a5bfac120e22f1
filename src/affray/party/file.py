"""A party file (CONTRACT.md "The party across fights"): a side in an encounter file's form, kept from fight to fight.

``read_party`` reads and checks one (every problem named with the party file, its line and its field path);
``with_party`` puts it in an encounter's text in place of the side of its name; ``write_party`` rewrites it whole,
atomically: the new text goes to a file beside it, flushed to disk, then renamed over it, so that a party file is
always the old one or the new one, never half of either.

The party's own key beside a side's: ``side`` (the side it plays as in an encounter: default, the encounter's one
side of player characters, else ``party``).
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from affray.errors import EncounterError, OptionError, Problem
from affray.io.read import format_path, line_of, parse_yaml, plain_data, read_text

__all__ = ["Party", "PartyError", "explain_party", "parse_path", "party_of_text", "read_party", "with_party",
           "write_atomic", "write_party"]

Loc = tuple[str | int, ...]
#: The party file's own keys, beside a side's fields.
PARTY_KEYS = ("side",)
#: The side a party plays as when neither its file nor the encounter says.
DEFAULT_SIDE = "party"
#: The foe a party file is checked against alone (an encounter has two sides): a name no party would take.
_CHECK_FOE = "affray: the party file checked alone"
#: Its one combatant (named apart from its side, as every new file's must be).
_CHECK_FOE_ONE = "affray: the foe it is checked against"


class PartyError(EncounterError):
    """A party file that cannot be read, checked, merged or written; each problem names it."""


@dataclass(frozen=True)
class Party:
    """A party file as read: its ``path``, ``text``, the side it names (``side``, or None), and its plain data."""

    path: Path
    text: str
    side: str | None
    data: dict[str, Any]

    @property
    def members(self) -> list[dict[str, Any]]:
        return [c for c in self.data.get("combatants", []) if isinstance(c, dict)]

    def side_name(self, sides: list[str], pc_sides: list[str]) -> str:
        """The encounter side it plays as: its own ``side``; else the encounter's one side of player characters;
        else ``party``."""
        if self.side is not None:
            return self.side
        return pc_sides[0] if len(pc_sides) == 1 else DEFAULT_SIDE

    def fighting(self) -> dict[str, Any]:
        """The side as an encounter holds it: without the party's own keys, of player characters unless it says
        otherwise."""
        side = {k: v for k, v in self.data.items() if k not in PARTY_KEYS}
        side.setdefault("pc", True)
        return side


def _problem(path: Path | str, doc: Any, loc: Loc, message: str) -> Problem:
    return Problem(str(path), line_of(doc, loc) if doc is not None else None, format_path(loc), message)


def read_party(path: str | Path, *, catalogue: str | Path | None = None) -> Party:
    """The party file at ``path``, checked as a side of an encounter is (catalogue names resolved, every field);
    PartyError naming the file, line and field path of every problem."""
    path = Path(path)
    try:
        text = read_text(path)
    except EncounterError as exc:
        raise PartyError(exc.problems) from None
    return party_of_text(text, path, catalogue=catalogue)


def party_of_text(text: str, path: Path, *, catalogue: str | Path | None = None) -> Party:
    """A party file's ``text`` (to be written at ``path``), checked as ``read_party`` checks a file."""
    try:
        doc = parse_yaml(text, str(path))
        if not isinstance(doc, dict):
            raise PartyError([Problem(str(path), 1, "combatants", "a party file is a side of an encounter file: "
                                      "a mapping with `combatants:` (a list of combatants), and `pc: true`")])
        data = plain_data(doc, str(path))
    except PartyError:
        raise
    except EncounterError as exc:
        raise PartyError(exc.problems) from None
    side = data.get("side")
    if side is not None and (not isinstance(side, str) or not side.strip()):
        raise PartyError([_problem(path, doc, ("side",), "the side the party plays as: a name (text), e.g. party")])
    party = Party(path, text, side, data)
    problems = _check(party, doc, catalogue)
    if problems:
        raise PartyError(problems)
    return party


def _check(party: Party, doc: Any, catalogue: str | Path | None) -> list[Problem]:
    """The party's problems as a side of an encounter (checked beside a foe of the checker's own)."""
    from affray.io.load import load_text

    name = party.side or DEFAULT_SIDE
    if "combatants" not in party.data:
        return [_problem(party.path, doc, ("combatants",), "a party needs its combatants: a list, as a side's")]
    encounter = {"sides": {name: party.fighting(), _CHECK_FOE: {"combatants": [{"name": _CHECK_FOE_ONE, "hp": 1}]}}}
    try:
        load_text(json.dumps(encounter), str(party.path), catalogue=catalogue)
    except EncounterError as exc:
        return _own(exc.problems, name, party.path, doc) or [Problem(str(party.path), None, "", str(exc))]
    if all(isinstance(c, dict) and c.get("fallen") is not None for c in party.data["combatants"]):
        return [_problem(party.path, doc, ("combatants",), "every member has fallen: nobody of the party can "
                         "fight (`affray rest` heals the living; the dead need the referee)")]
    return []


def _own(problems: list[Problem], side: str, path: Path, doc: Any) -> list[Problem]:
    """The problems of side ``side`` of an encounter, as the party file's: their paths without ``sides.SIDE``, their
    lines the party file's."""
    prefix = f"sides.{side}"
    out = []
    for p in problems:
        if p.path == prefix or p.path.startswith(prefix + ".") or p.path.startswith(prefix + "["):
            loc = parse_path(p.path[len(prefix):].lstrip("."))
            out.append(Problem(str(path), line_of(doc, loc) if loc else 1, format_path(loc), p.message))
    return out


def parse_path(text: str) -> Loc:
    """``combatants[0].weapons[1].sf`` as ``("combatants", 0, "weapons", 1, "sf")``."""
    out: list[str | int] = []
    for part in text.split(".") if text else []:
        name, _, rest = part.partition("[")
        if name:
            out.append(name)
        while rest:
            index, _, rest = rest.partition("]")
            out.append(int(index) if index.isdigit() else index)
            rest = rest.lstrip("[")
    return tuple(out)


def with_party(text: str, file: str, party: Party) -> tuple[str, str]:
    """The encounter's ``text`` with the party in place of its side of the party's name (added first when it has
    none), and that name. A text that does not read is returned as it is (the loader says what is wrong with it);
    a problem of the party's own, found once in the encounter, is the party file's (``explain_party``)."""
    as_json = text.lstrip().startswith("{")
    yaml = YAML()
    yaml.preserve_quotes = True
    try:
        data: Any = json.loads(text) if as_json else yaml.load(text)
    except (ValueError, YAMLError):
        return text, party.side or DEFAULT_SIDE
    sides = data.get("sides") if isinstance(data, dict) else None
    if not isinstance(sides, dict):
        return text, party.side or DEFAULT_SIDE
    pcs = [n for n, s in sides.items() if isinstance(s, dict) and s.get("pc") is True]
    name = party.side_name([str(n) for n in sides], [str(n) for n in pcs])
    if name in sides:
        old = sides[name]
        sides[name] = party.fighting()
        where = old.get("at") if isinstance(old, dict) else None
        if where is not None and isinstance(sides[name], dict) and "at" not in sides[name]:
            sides[name]["at"] = where  # the encounter places the party: its rank stands where the file says
    elif hasattr(sides, "insert"):
        sides.insert(0, name, party.fighting())
    else:
        data["sides"] = {name: party.fighting(), **sides}
    if as_json:
        return json.dumps(data, ensure_ascii=False, indent=1), name
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue(), name


def explain_party(exc: EncounterError, side: str, party: Party) -> EncounterError:
    """An encounter's problems with the party in it: the party's own as the party file's (its lines and paths),
    the rest as they were."""
    doc = parse_yaml(party.text, str(party.path))
    prefix = f"sides.{side}"
    own = [p for p in exc.problems if p.path == prefix or p.path.startswith((prefix + ".", prefix + "["))]
    if not own:
        return exc
    rest = [p for p in exc.problems if p not in own]
    return EncounterError(_own(own, side, party.path, doc) + rest)


def write_atomic(path: Path, text: str, inputs: Sequence[str | Path] = ()) -> None:
    """``text`` written to ``path`` whole or not at all (``affray.io.output``: a file beside it, flushed, renamed
    over it, its mode kept; never one of ``inputs``). PartyError naming it when it cannot be written."""
    from affray.io.output import write_output

    try:
        write_output(Path(path), text, inputs=inputs)
    except OptionError as exc:
        raise PartyError([Problem(str(path), None, "", f"cannot write the party file: {exc}")]) from None


def write_party(party: Party, changes: dict[tuple[int, ...], dict[str, Any]], split: dict[int, list[str]],
                header: str = "") -> str:
    """``party``'s text with ``changes`` made (by a combatant's index, its fields: a value of None removes the
    field), each combatant of ``split`` (by index: its members' names) written as one entry a member (a ``count``
    of several, each its own from now on), written atomically; the text written."""
    as_json = party.text.lstrip().startswith("{")
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096  # an entry written on one line stays on one line
    yaml.indent(mapping=2, sequence=4, offset=2)
    data: Any = json.loads(party.text) if as_json else yaml.load(party.text)
    combatants = data["combatants"]
    out: list[Any] = []
    for i, c in enumerate(combatants):
        if i in split:
            for k, name in enumerate(split[i]):
                member = {key: v for key, v in c.items() if key not in ("count", "hp_each")}
                member["name"] = name
                hp = c.get("hp_each") or (c["hp"] if isinstance(c.get("hp"), list) else None)
                if hp:
                    member["hp"] = hp[k]
                _apply(member, changes.get((i, k), {}))
                out.append(member)
            continue
        _apply(c, changes.get((i,), {}))
        out.append(c)
    combatants[:] = out
    if as_json:
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    else:
        buf = io.StringIO()
        yaml.dump(data, buf)
        text = buf.getvalue()
        if header and not text.startswith("#"):
            text = header + text
    write_atomic(party.path, text)
    return text


def _apply(c: Any, fields: dict[str, Any]) -> None:
    for key, value in fields.items():
        if value is None:
            c.pop(key, None)
        else:
            c[key] = value
