"""Sweeps: a grid of ruleset options (``--set OPTION=v1,v2``) and numeric fields of the file (``--vary FIELD=a..b``).

A field path is written as the errors write it: ``sides.party.combatants[0].level``. Each grid point is the
file with those fields replaced, checked again as a file of its own.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML

from affray.errors import OptionError
from affray.limits import MAX_SWEEP_POINTS

__all__ = ["Axis", "field_axis", "grid", "option_axis", "parse_path", "with_fields"]

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")


@dataclass(frozen=True)
class Axis:
    """One dimension of the grid: an option of the ruleset or a field of the file, and its values in order."""

    name: str  # the option's name, or the field path
    kind: str  # "option" or "field"
    values: tuple[Any, ...]


def _scalar(raw: str) -> Any:
    return YAML(typ="safe").load(raw) if raw.strip() else ""


def option_axis(item: str) -> tuple[str, Any] | Axis:
    """``--set OPTION=VALUE`` (one value) or ``--set OPTION=v1,v2,...`` (an axis of the grid)."""
    name, sep, raw = item.partition("=")
    name = name.strip()
    if not sep or not name:
        raise OptionError(f"--set {item!r}: use --set OPTION=VALUE or OPTION=v1,v2,... (e.g. --set crits=none,"
                          "c2-severity)")
    if "," not in raw:
        return name, _scalar(raw)
    values = [v for v in raw.split(",")]
    if any(not v.strip() for v in values):
        raise OptionError(f"--set {item!r}: an empty value in the list; write v1,v2,... without empty items")
    return Axis(name, "option", tuple(_scalar(v) for v in values))


def parse_path(path: str) -> tuple[str | int, ...]:
    """``sides.party.combatants[0].level`` -> ("sides", "party", "combatants", 0, "level")."""
    out: list[str | int] = []
    pos = 0
    text = path.strip()
    while pos < len(text):
        if text[pos] == "." and out:
            pos += 1
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"cannot read the field path {path!r} at {text[pos:]!r}: write it as the errors do, "
                             "e.g. sides.party.combatants[0].level")
        out.append(m.group(1).strip() if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if not out or not isinstance(out[0], str):
        raise ValueError(f"empty field path {path!r}: e.g. sides.party.combatants[0].level")
    return tuple(out)


def field_axis(item: str) -> Axis:
    """``--vary FIELD=a..b`` (whole numbers a to b) or ``--vary FIELD=v1,v2,...`` (any values)."""
    path, sep, raw = item.rpartition("=")
    if not sep or not path.strip():
        raise OptionError(f"--vary {item!r}: use --vary FIELD=a..b, e.g. --vary sides.party.combatants[0].level=1..5")
    try:
        parse_path(path)
    except ValueError as exc:
        raise OptionError(f"--vary {item!r}: {exc}") from None
    m = _RANGE.match(raw)
    if m is not None:
        a, b = int(m.group(1)), int(m.group(2))
        if a > b:
            raise OptionError(f"--vary {item!r}: the range {a}..{b} runs backwards; write the smaller first")
        if b - a + 1 > MAX_SWEEP_POINTS:
            raise OptionError(f"--vary {item!r}: {b - a + 1} values; at most {MAX_SWEEP_POINTS:,} a sweep (limit)")
        return Axis(path.strip(), "field", tuple(range(a, b + 1)))
    if "," in raw and all(v.strip() for v in raw.split(",")):
        return Axis(path.strip(), "field", tuple(_scalar(v) for v in raw.split(",")))
    raise OptionError(f"--vary {item!r}: {raw!r} is not a range: write a..b with whole numbers (e.g. 1..5), "
                      "or a list v1,v2,...")


def grid(axes: Sequence[Axis]) -> Iterator[dict[str, Any]]:
    """Every point of the grid, the first axis varying slowest; one empty point without axes."""
    for combo in itertools.product(*(a.values for a in axes)):
        yield {a.name: v for a, v in zip(axes, combo, strict=True)}


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.width = 4096
    return y


def with_fields(text: str, fields: dict[str, Any]) -> str:
    """The encounter text with each field path replaced by its value; ValueError naming the path otherwise.

    The parent of each field must exist; the field itself may be absent from a mapping (its default is then
    replaced), and where present it must hold a number unless the sweep lists its values."""
    if not fields:
        return text
    doc = _yaml().load(text)
    for path, value in fields.items():
        loc = parse_path(path)
        node: Any = doc
        for i, part in enumerate(loc[:-1]):
            node = _step(node, part, loc[:i + 1], path)
        last = loc[-1]
        if isinstance(last, int):
            if not isinstance(node, list) or not 0 <= last < len(node):
                size = f"has {len(node)} items" if isinstance(node, list) else "is not a list"
                raise ValueError(f"{path}: no item [{last}] here ({_where(loc[:-1])} {size})")
        elif not isinstance(node, dict):
            raise ValueError(f"{path}: {_where(loc[:-1])} is not a mapping, so it has no field {last!r}")
        current = node.get(last) if isinstance(node, dict) else node[last]
        if isinstance(value, int) and not isinstance(value, bool) and current is not None and (
                isinstance(current, bool) or not isinstance(current, (int, float))):
            raise ValueError(f"{path}: holds {current!r}, not a number; --vary a..b changes numeric fields")
        node[last] = value
    out = io.StringIO()
    _yaml().dump(doc, out)
    return out.getvalue()


def _where(loc: tuple[str | int, ...]) -> str:
    from affray.io.load import format_path

    return format_path(loc) or "the file"


def _step(node: Any, part: str | int, loc: tuple[str | int, ...], path: str) -> Any:
    if isinstance(part, int):
        if isinstance(node, list) and 0 <= part < len(node):
            return node[part]
        size = f"has {len(node)} items" if isinstance(node, list) else "is not a list"
        raise ValueError(f"{path}: no item [{part}] in {_where(loc[:-1])} (it {size})")
    if isinstance(node, dict) and part in node:
        return node[part]
    if isinstance(node, dict):
        keys = ", ".join(str(k) for k in node) or "none"
        raise ValueError(f"{path}: {_where(loc[:-1])} has no {part!r} (it has: {keys})")
    raise ValueError(f"{path}: {_where(loc[:-1])} is not a mapping, so it has no {part!r}")
