"""Pydantic's validation errors in affray's own words: the path as the file wrote it (no union branches),
what the value should have been, and what it was."""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from affray.model.encounter import ACTION_KEYS, Encounter

__all__ = ["validation_problems"]

Loc = tuple[str | int, ...]


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
