"""Reading an encounter file: YAML or JSON via ruamel.yaml (for line numbers), pydantic, cross-references.

Every step is bounded (``affray.limits``): the bytes read, the nesting, the values aliases expand to, the
combatants; and every refusal is a problem with file, line and field path in affray's own words.
"""

from __future__ import annotations

import datetime
import os
import re
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedSet, TaggedScalar
from ruamel.yaml.composer import MaxDepthExceededError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from affray.errors import EncounterError, Problem
from affray.io.references import cross_references
from affray.limits import MAX_COMBATANTS, MAX_DEPTH, MAX_FILE_BYTES, MAX_VALUES
from affray.model.encounter import ACTION_KEYS, Combatant, Encounter

__all__ = ["Loaded", "expand", "format_path", "load_encounter", "load_text", "load_value", "read_text",
           "sort_problems", "validation_problems"]

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Loaded:
    """A valid encounter and what is needed to point back into its file."""

    encounter: Encounter
    file: str
    doc: Any  # the ruamel tree, for line numbers of later (ruleset) checks
    problems: tuple[Problem, ...] = ()  # cross-reference problems, kept when loaded with strict=False

    def problem(self, loc: Loc, message: str) -> Problem:
        return Problem(self.file, line_of(self.doc, loc), format_path(loc), message)


def format_path(loc: Loc) -> str:
    """``sides.a.combatants[1].sf``: list positions in brackets, mapping keys (round numbers too) dotted."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def line_of(doc: Any, loc: Loc) -> int | None:
    """1-based line of the deepest node of ``loc`` present in the ruamel tree."""
    line: int | None = None
    node = doc
    for part in loc:
        lc = getattr(node, "lc", None)
        if isinstance(node, dict) and part not in node:
            alt: Any = str(part) if isinstance(part, int) else int(part) if str(part).isdigit() else None
            part = alt if alt in node else part  # a round number written as "1" in JSON, or 1 in YAML
        try:
            if isinstance(node, dict) and part in node:
                if lc is not None:
                    line = lc.key(part)[0] + 1
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                if lc is not None:
                    line = lc.item(part)[0] + 1
                node = node[part]
            else:
                break
        except (KeyError, IndexError, TypeError):
            break
    if line is None and getattr(getattr(doc, "lc", None), "line", None) is not None:
        line = doc.lc.line + 1
    return line


def _clean_loc(data: Any, loc: Loc, kind: str) -> Loc:
    """The path of ``loc`` in ``data``: pydantic's union-branch tags (``str``, ``bool``, ``Outcome``,
    ``list[Outcome]``, ``[key]``...) dropped; a key absent from the data is kept only as the last part of a
    missing field."""
    out: list[str | int] = []
    node = data
    for i, part in enumerate(loc):
        if isinstance(node, dict) and part in node:
            node = node[part]
            out.append(str(part))  # a mapping key, dotted even when a number (a round)
        elif isinstance(node, dict) and isinstance(part, str) and part.isdigit() and int(part) in node:
            node = node[int(part)]
            out.append(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            out.append(part)
        elif i == len(loc) - 1 and kind == "missing" and isinstance(node, dict):
            out.append(part)
    return tuple(out)


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _fields_at(loc: Loc) -> list[str]:
    """The fields allowed by the model at ``loc`` (for "unknown field" messages)."""
    model: type[BaseModel] | None = Encounter
    annotation: Any = Encounter
    for part in loc:
        if model is not None and isinstance(part, str) and annotation is model:
            field = next((f for n, f in model.model_fields.items() if (f.alias or n) == part), None)
            if field is None:
                return []
            annotation = field.annotation
            model = _model_in(annotation)
        elif model is not None:
            annotation = model
    if model is None:
        return []
    return [f.alias or n for n, f in model.model_fields.items()]


#: What a model's value is, for "should be a combatant (a mapping ...)".
_MODELS = {
    "Combatant": "a combatant (a mapping with name, hp...)",
    "Side": "a side (a mapping with combatants: [...])",
    "Weapon": "a weapon (a mapping with name, damage...)",
    "Spell": "a spell (a mapping with name, level, ct...)",
    "Declaration": "a declaration (a mapping with one action key: " + ", ".join(ACTION_KEYS) + ")",
    "Outcome": "an outcome (a mapping such as {hit: true, damage: 5})",
    "DiceGiven": "dice (a mapping such as {attack: 14, damage: 5})",
    "Rolls": "rolls (a mapping of surprise, initiative, morale)",
}
#: What a value of each pydantic type error should have been, in our words.
_EXPECTED = {
    "string_type": "text", "int_type": "a whole number", "int_parsing": "a whole number",
    "int_from_float": "a whole number", "bool_type": "true or false", "bool_parsing": "true or false",
    "float_type": "a number", "float_parsing": "a number", "dict_type": "a mapping (key: value)",
    "list_type": "a list", "tuple_type": "a list", "set_type": "a list", "none_required": "null",
}


def _got(value: Any) -> str:
    """A value as the file wrote it, short."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) and abs(value) >= 10**30:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _expected(err: Any) -> str | None:
    """For a type error (the value is of the wrong kind): what it should be; None for other errors."""
    kind = err["type"]
    if kind in ("model_type", "model_attributes_type"):
        return _MODELS.get((err.get("ctx") or {}).get("class_name", ""), "a mapping")
    if kind == "literal_error":
        return "one of " + str((err.get("ctx") or {}).get("expected", "")).replace("' or '", "', '")
    return _EXPECTED.get(kind)


def _message(err: Any, loc: Loc) -> str:
    """A pydantic error in affray's own words."""
    kind, ctx, value = err["type"], err.get("ctx") or {}, err.get("input")
    if kind == "extra_forbidden":
        allowed = _fields_at(loc[:-1])
        hint = f" (allowed: {', '.join(allowed)})" if allowed else ""
        return f"unknown field {loc[-1]!r}{hint}"
    if kind == "missing":
        return "required field is missing"
    expected = _expected(err)
    if expected is not None:
        subject = "the key " if "[key]" in err["loc"] else ""  # a round number written as a word, say
        return f"{subject}should be {expected} (got {_got(value)})"
    bounds = {"greater_than_equal": ("at least", "ge"), "less_than_equal": ("at most", "le"),
              "greater_than": ("more than", "gt"), "less_than": ("less than", "lt")}
    if kind in bounds:
        words, key = bounds[kind]
        return f"should be {words} {ctx.get(key)} (got {_got(value)})"
    if kind in ("too_short", "too_long"):
        n = ctx.get("min_length" if kind == "too_short" else "max_length")
        words = "at least" if kind == "too_short" else "at most"
        return f"needs {words} {n} {'entry' if n == 1 else 'entries'} (has {ctx.get('actual_length', '?')})"
    if kind in ("string_too_short", "string_too_long"):
        n = ctx.get("min_length" if kind == "string_too_short" else "max_length")
        return "cannot be empty" if n == 1 and kind == "string_too_short" else \
            f"should have {'at least' if kind == 'string_too_short' else 'at most'} {n} characters"
    msg = str(err["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return msg[:1].lower() + msg[1:]


def validation_problems(exc: ValidationError, data: Any) -> list[tuple[Loc, str]]:
    """(path, message) for each problem of a failed validation of ``data``, in affray's words: the branches
    of a union that all refuse a value make one message ("should be text or true or false")."""
    errors = [(e, _clean_loc(data, tuple(e["loc"]), e["type"])) for e in exc.errors()]
    out: dict[Loc, list[str]] = {}
    for err, loc in errors:
        deeper = any(other[:len(loc)] == loc and len(other) > len(loc) for _e, other in errors)
        if err["type"] == "too_short" and deeper:
            continue  # a list emptied by its own failing items: those items are the problem
        if _expected(err) is not None and deeper:
            continue  # the other branch of a union (one outcome or a list of them) says it better
        if _expected(err) is not None and any(o is not err and ol == loc and _expected(o) is None
                                              for o, ol in errors):
            continue  # a branch of the right kind refused the value itself: that is the message
        out.setdefault(loc, [])
        same = [e for e, ol in errors if ol == loc and _expected(e) is not None]
        if len(same) > 1 and _expected(err) is not None:
            if err is same[0]:  # every branch refused the kind: one message naming them all
                kinds = list(dict.fromkeys(str(_expected(e)) for e in same))
                out[loc].append(f"should be {' or '.join(kinds)} (got {_got(err.get('input'))})")
            continue
        message = _message(err, loc)
        if message not in out[loc]:
            out[loc].append(message)
    return [(loc, m) for loc, messages in out.items() for m in messages]


def _measure(node: Any, loc: Loc, depth: int, memo: dict[int, tuple[int, int]], active: set[int]) -> tuple[int, int]:
    """(values, nesting) of ``node`` with its aliases expanded, worked out once per node (an alias bomb costs
    what its text costs); _Refused where a limit is passed."""
    if depth > MAX_DEPTH:
        raise _Refused(loc, f"mappings and lists nested more than {MAX_DEPTH} deep (limit; an alias counts as "
                            "the nesting it brings)")
    if not isinstance(node, (dict, list, tuple)):
        return 1, 0
    key = id(node)
    if key in memo:
        values, height = memo[key]
    elif key in active:
        raise _Refused(loc, "an alias refers to the mapping or list that holds it")
    else:
        active.add(key)
        values, height = 1, 0
        for k, v in (node.items() if isinstance(node, dict) else enumerate(node)):
            n, h = _measure(v, (*loc, _key(k) if isinstance(node, dict) else k), depth + 1, memo, active)
            values, height = values + n, max(height, h + 1)
            if values > MAX_VALUES:
                raise _Refused(loc, f"expands to more than {MAX_VALUES:,} values (aliases such as *name count each "
                                    "time they are used): at most that many (limit)")
        active.discard(key)
        memo[key] = values, height
    if depth + height > MAX_DEPTH:
        raise _Refused(loc, f"mappings and lists nested more than {MAX_DEPTH} deep (limit; an alias counts as "
                            "the nesting it brings)")
    return values, height


def _plain(node: Any, loc: Loc, problems: list[tuple[Loc, str]]) -> Any:
    """The ruamel tree (measured first) as plain dicts, lists, str, int, float, bool and None; a YAML tag, a
    binary or a set is a problem at its place."""
    tag = getattr(getattr(node, "tag", None), "value", None)
    if isinstance(node, TaggedScalar):
        if tag == "tag:yaml.org,2002:str":
            return str(node.value)
        problems.append((loc, f"the YAML tag {_tag(tag)} is not allowed: write the plain value"))
        return None
    if tag is not None:
        problems.append((loc, f"the YAML tag {_tag(tag)} is not allowed: write the plain value"))
        return None
    if isinstance(node, dict):
        out: dict[Any, Any] = {}
        for k, v in node.items():
            key = _key(k)
            out[key] = _plain(v, (*loc, key), problems)
        return out
    if isinstance(node, (list, tuple)):
        return [_plain(v, (*loc, i), problems) for i, v in enumerate(node)]
    if isinstance(node, bool) or (node is not None and type(node).__name__ == "ScalarBoolean"):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    if node is None:
        return None
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node.isoformat()
    what = "binary data (!!binary)" if isinstance(node, bytes) else "a set (!!set or `? key` entries)" \
        if isinstance(node, (set, frozenset, CommentedSet)) else f"a value of YAML type {type(node).__name__}"
    problems.append((loc, f"{what} is not allowed: write a plain value, mapping or list"))
    return None


def _tag(tag: str) -> str:
    """A tag as it was written: ``!!python/name:os.system`` rather than the full ``tag:yaml.org,2002:...``."""
    return "!!" + tag.removeprefix("tag:yaml.org,2002:") if tag.startswith("tag:yaml.org,2002:") else tag


def _key(k: Any) -> str | int:
    if isinstance(k, bool):
        return str(k).lower()
    if isinstance(k, int):
        return int(k)
    if isinstance(k, str):
        return str(k)
    return "null" if k is None else str(k)


class _Refused(Exception):
    """A limit reached while walking the document: nothing after it is looked at."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    y.max_depth = MAX_DEPTH
    return y


def _flow_too_deep(text: str) -> int | None:
    """The line where ``[`` and ``{`` open more than twice MAX_DEPTH levels (counted before parsing, quotes
    and all, since the YAML reader takes a second or more to reach a depth it would refuse): None if they
    never do."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        depth += 1 if m.group() in "[{" else -1 if depth > 0 else 0
        if depth > 2 * MAX_DEPTH:
            return text.count("\n", 0, m.start()) + 1
    return None


_BRACKETS = re.compile(r"[\[\]{}]")


def parse_yaml(text: str, file: str) -> Any:
    """The ruamel tree of ``text`` (with line numbers), within the nesting limit; EncounterError otherwise."""
    if len(text) > MAX_FILE_BYTES:
        size = len(text.encode("utf-8"))
        if size > MAX_FILE_BYTES:
            raise EncounterError([Problem(file, None, "", _too_big(size))])
    deep = _flow_too_deep(text)
    if deep is not None:
        raise EncounterError([Problem(file, deep, "", f"mappings and lists nested more than {MAX_DEPTH} deep "
                                      "(limit)")])
    try:
        return _yaml().load(text)
    except MaxDepthExceededError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        raise EncounterError([Problem(file, line, "", f"mappings and lists nested more than {MAX_DEPTH} deep "
                                      "(limit)")]) from None
    except (MarkedYAMLError, YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise EncounterError([Problem(file, line, "", f"not valid YAML or JSON: {what}")]) from None
    except ValueError as exc:  # int() of a number past Python's 4300 digits, and the like
        raise EncounterError([Problem(file, None, "", f"not valid YAML or JSON: {str(exc).split(';')[0]}")]) \
            from None
    except RecursionError:  # pragma: no cover - the depth limits come first
        raise EncounterError([Problem(file, None, "", f"nested more than {MAX_DEPTH} deep (limit)")]) from None


def _too_big(size: int | None) -> str:
    have = f"{size:,} bytes: " if size is not None else ""
    return f"the file is {have}larger than the limit of {MAX_FILE_BYTES // 1024} KiB"


def plain_data(doc: Any, file: str) -> Any:
    """``doc`` as plain Python data, checked against the limits and for YAML tags; EncounterError otherwise."""
    problems: list[tuple[Loc, str]] = []
    try:
        _measure(doc, (), 0, {}, set())
        data = _plain(doc, (), problems)
    except _Refused as exc:
        raise EncounterError([Problem(file, line_of(doc, exc.loc), format_path(exc.loc), exc.message)]) from None
    if problems:
        raise EncounterError([Problem(file, line_of(doc, loc), format_path(loc), m) for loc, m in problems])
    return data


def load_value(text: str, what: str) -> Any:
    """One line of YAML typed on a command line or at the console, as plain data within the limits; ValueError
    with a message that starts with ``what`` otherwise."""
    try:
        return plain_data(parse_yaml(text, what), what)
    except EncounterError as exc:
        first = exc.problems[0]
        where = f"{first.path}: " if first.path else ""
        raise ValueError(f"{where}{first.message.replace('not valid YAML or JSON', 'not valid YAML')}") from None


def _combatants(data: dict[str, Any]) -> int:
    sides = data.get("sides")
    total = 0
    for side in sides.values() if isinstance(sides, dict) else ():
        combatants = side.get("combatants") if isinstance(side, dict) else None
        for c in combatants if isinstance(combatants, list) else ():
            count = c.get("count", 1) if isinstance(c, dict) else 1
            total += count if isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= 500 else 1
    return total


def load_text(text: str, file: str = "<encounter>", *, strict: bool = True) -> Loaded:
    """Parse and validate an encounter given as YAML or JSON text; EncounterError lists every problem.

    With ``strict=False`` a file whose fields are valid but whose references are not (an unknown
    target, say) is returned with those problems in ``problems``, so that a ruleset's checks can be
    reported together with them.
    """
    doc = parse_yaml(text, file)
    if not isinstance(doc, dict):
        raise EncounterError([Problem(file, 1, "sides", "the file must be a mapping with at least "
                                      "`sides:` (two sides, each with combatants)")])
    data = plain_data(doc, file)
    n = _combatants(data)
    if n > MAX_COMBATANTS:
        raise EncounterError([Problem(file, line_of(doc, ("sides",)), "sides", f"{n:,} combatants (count "
                                      f"expanded): at most {MAX_COMBATANTS} (limit)")])
    problems: list[Problem] = []
    encounter: Encounter | None = None
    try:
        encounter = Encounter.model_validate(data)
    except ValidationError as exc:
        problems = [Problem(file, line_of(doc, loc), format_path(loc), message)
                    for loc, message in validation_problems(exc, data)]
    references = [Problem(file, line_of(doc, loc), format_path(loc), message)
                  for loc, message in cross_references(data)]
    if encounter is None or (references and strict):
        raise EncounterError(sort_problems(_dedupe(problems + references)))
    return Loaded(encounter, file, doc, tuple(references))


def sort_problems(problems: list[Problem]) -> list[Problem]:
    """In the order of the file."""
    return sorted(problems, key=lambda p: p.line if p.line is not None else 0)


def read_text(path: str | Path) -> str:
    """An encounter file's text, read no further than MAX_FILE_BYTES (``/dev/zero`` is refused at once)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise EncounterError([Problem(str(path), None, "", f"cannot read the file: {exc.strerror or exc}")]) \
            from None
    if len(raw) > MAX_FILE_BYTES:
        try:
            size: int | None = os.stat(path).st_size or None
        except OSError:  # pragma: no cover - it was just read
            size = None
        raise EncounterError([Problem(str(path), None, "", _too_big(size if size and size > MAX_FILE_BYTES
                                                                       else None))])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise EncounterError([Problem(str(path), None, "", "not a text file (UTF-8 YAML or JSON)")]) from None


def load_encounter(path: str | Path, *, strict: bool = True) -> Loaded:
    """Read an encounter file (YAML or JSON); raise EncounterError listing every problem."""
    return load_text(read_text(path), str(path), strict=strict)


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[str, str]] = set()
    out = []
    for p in problems:
        if (p.path, p.message) not in seen:
            seen.add((p.path, p.message))
            out.append(p)
    return out


def expand(encounter: Encounter) -> Iterator[tuple[str, str, Combatant, Loc]]:
    """(name, side, combatant, loc) for every combatant, ``count`` expanded to "Name 1" ... "Name N"."""
    for side, s in encounter.sides.items():
        for i, c in enumerate(s.combatants):
            loc: Loc = ("sides", side, "combatants", i)
            if c.count == 1:
                yield c.name, side, c, loc
            else:
                for k in range(1, c.count + 1):
                    yield f"{c.name} {k}", side, c, loc
