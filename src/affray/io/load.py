"""Reading an encounter file: YAML or JSON via ruamel.yaml (for line numbers), pydantic, cross-references."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from affray.errors import EncounterError, Problem
from affray.io.references import cross_references
from affray.model.encounter import Encounter, expand

__all__ = ["Loaded", "expand", "format_path", "load_encounter", "load_text", "sort_problems"]

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
    if line is None and getattr(doc, "lc", None) is not None:
        line = doc.lc.line + 1
    return line


def _clean_loc(data: Any, loc: Loc) -> Loc:
    """Drop pydantic's union-branch tags from ``loc``, keeping the keys and indexes present in ``data``."""
    out: list[str | int] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            node = node[part]
            out.append(part)
        elif isinstance(node, dict) and isinstance(part, str) and part.isdigit() and int(part) in node:
            node = node[int(part)]
            out.append(part)
        elif isinstance(node, list) and isinstance(part, int):
            node = node[part] if 0 <= part < len(node) else None
            out.append(part)
        elif isinstance(node, dict) and not ((part and str(part)[0].isupper()) or "[" in str(part)):
            out.append(part)  # a missing field
            node = None
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


def _message(err: Any, loc: Loc) -> str:
    kind = err["type"]
    if kind == "extra_forbidden":
        allowed = _fields_at(loc[:-1])
        hint = f" (allowed: {', '.join(allowed)})" if allowed else ""
        return f"unknown field {loc[-1]!r}{hint}"
    if kind == "missing":
        return "required field is missing"
    msg = str(err["msg"]).removeprefix("Value error, ")
    value = err.get("input")
    if kind.startswith(("greater", "less", "literal", "int_", "bool", "string", "float")) and not isinstance(
            value, (dict, list)):
        return f"{msg[0].lower()}{msg[1:]} (got {value!r})"
    return msg


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    return y


def load_text(text: str, file: str = "<encounter>", *, strict: bool = True) -> Loaded:
    """Parse and validate an encounter given as YAML or JSON text; EncounterError lists every problem.

    With ``strict=False`` a file whose fields are valid but whose references are not (an unknown
    target, say) is returned with those problems in ``problems``, so that a ruleset's checks can be
    reported together with them.
    """
    try:
        doc = _yaml().load(text)
    except (MarkedYAMLError, YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise EncounterError([Problem(file, line, "", f"not valid YAML or JSON: {what}")]) from None
    if not isinstance(doc, dict):
        raise EncounterError([Problem(file, 1, "sides", "the file must be a mapping with at least "
                                      "`sides:` (two sides, each with combatants)")])
    data = _plain(doc)
    problems: list[Problem] = []
    encounter: Encounter | None = None
    try:
        encounter = Encounter.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        for err in errors:
            loc = _clean_loc(data, tuple(err["loc"]))
            if err["type"] == "too_short" and any(
                    _clean_loc(data, tuple(e["loc"]))[:len(loc)] == loc and e is not err for e in errors):
                continue  # a list emptied by its own failing items: those items are the problem
            if err["type"] in ("dict_type", "list_type", "model_type", "tuple_type", "model_attributes_type") and any(
                    _clean_loc(data, tuple(e["loc"]))[:len(loc)] == loc and e is not err for e in errors):
                continue  # the other branch of a union (one outcome or a list of them) says it better
            problems.append(Problem(file, line_of(doc, loc), format_path(loc), _message(err, loc)))
    references = [Problem(file, line_of(doc, loc), format_path(loc), message)
                  for loc, message in cross_references(data)]
    if encounter is None or (references and strict):
        raise EncounterError(sort_problems(_dedupe(problems + references)))
    return Loaded(encounter, file, doc, tuple(references))


def sort_problems(problems: list[Problem]) -> list[Problem]:
    """In the order of the file."""
    return sorted(problems, key=lambda p: p.line if p.line is not None else 0)


def load_encounter(path: str | Path, *, strict: bool = True) -> Loaded:
    """Read an encounter file (YAML or JSON); raise EncounterError listing every problem."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise EncounterError([Problem(str(path), None, "", f"cannot read the file: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise EncounterError([Problem(str(path), None, "", "not a text file (UTF-8 YAML or JSON)")]) from None
    return load_text(text, str(path), strict=strict)


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {(str(k) if not isinstance(k, (int, str)) else k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[str, str]] = set()
    out = []
    for p in problems:
        if (p.path, p.message) not in seen:
            seen.add((p.path, p.message))
            out.append(p)
    return out
