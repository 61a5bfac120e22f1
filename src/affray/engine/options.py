"""Ruleset options: every Decision of RULES.md is one. A ruleset's options are a frozen dataclass whose fields
carry their rule, their words and what they allow (``option``); ``BaseOptions`` holds those of every ruleset.

Options are read as attributes (``self.opt.tie_track``); ``parse_options`` builds them from the file's
``options`` and ``--set``, refusing an unknown name or a value not allowed with the valid choices.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from affray.errors import OptionError
from affray.limits import MAX_OPTION

__all__ = ["BaseOptions", "OptionInfo", "check_option", "default_morale", "describe", "morale_dice", "option",
           "option_info", "parse_options"]

T = TypeVar("T")
Opts = TypeVar("Opts", bound="BaseOptions")


@dataclass(frozen=True)
class OptionInfo:
    """One option's name, default and what it allows, as ``affray rulesets`` shows it."""

    name: str
    default: Any
    rule: str
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None  # for a whole number: the least value allowed

    def parse(self, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise OptionError(f"option {self.name}: {value!r} is not allowed; choose one of "
                                  f"{', '.join(map(str, self.choices))}")
            return value
        expected = type(self.default)
        if expected is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name}: {value!r} is not allowed; use true or false")
        elif expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {self.name}: {value!r} is not allowed; use a whole number")
        if expected is int and self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name}: {value!r} is not allowed; use a whole number of at least "
                              f"{self.minimum}")
        if expected is int and abs(value) > MAX_OPTION:  # a segment or phase count: past it, work without end
            raise OptionError(f"option {self.name}: {value!r} is not allowed; at most {MAX_OPTION} either way (limit)")
        return value

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "default": self.default, "rule": self.rule, "doc": self.doc}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        return out


def option(default: T, rule: str, doc: str, choices: tuple[T, ...] | None = None, *,
           minimum: int | None = None) -> Any:
    """A field of an options dataclass: its default, the rule it decides, its words, what it allows. Typed
    ``Any`` as ``dataclasses.field`` is: the compiled build checks what a call returns against its type."""
    meta = {"rule": rule, "doc": doc, "choices": choices, "minimum": minimum}
    return dataclasses.field(default=default, metadata=meta)


def morale_dice(dice: str) -> Any:
    """G-07: the dice rolled against a morale score, ``2d6`` or ``2d10``, with the ruleset's default."""
    return option(dice, "G-07", "dice rolled against the morale score; above it fails",
                  (dice, "2d10" if dice == "2d6" else "2d6"))


def default_morale(score: int) -> Any:
    """G-07: a side's morale score when neither it nor its members give one, with the ruleset's default."""
    return option(score, "G-07", "morale score of a side when neither it nor its members give one", minimum=2)


@dataclass(frozen=True)
class BaseOptions:
    """The options of every ruleset: G-04 and G-07 (a supplement's are its own: ``affray.extensions``)."""

    natural_20: bool = option(True, "G-04", "a natural 20 always hits and a natural 1 always misses")
    morale_failure: str = option("flee", "G-07", "what a failed morale check does", ("flee", "surrender"))


def option_info(cls: type[BaseOptions]) -> tuple[OptionInfo, ...]:
    """Every option of ``cls`` in order, the base class's first; a field left out of ``__init__`` is fixed by the
    class (a subclass's setting of its base's option: the books' baselines), not an option."""
    return tuple(OptionInfo(f.name, f.default, f.metadata["rule"], f.metadata["doc"], f.metadata["choices"],
                            f.metadata["minimum"]) for f in dataclasses.fields(cls) if f.init)


def _find(cls: type[BaseOptions], name: str, ruleset: str) -> OptionInfo:
    infos = option_info(cls)
    for info in infos:
        if info.name == name:
            return info
    valid = ", ".join(i.name for i in infos)
    raise OptionError(f"unknown option {name!r} for ruleset {ruleset}; valid options: {valid}")


def check_option(cls: type[BaseOptions], name: str, value: Any, ruleset: str) -> Any:
    """``value`` for option ``name``, or OptionError naming the option and what is allowed."""
    return _find(cls, name, ruleset).parse(value)


def parse_options(cls: type[Opts], given: Mapping[str, Any] | None, ruleset: str) -> Opts:
    """The options of ``cls`` with ``given`` over the defaults, each checked."""
    values = {name: check_option(cls, name, value, ruleset) for name, value in (given or {}).items()}
    return cls(**values)


def describe(cls: type[BaseOptions]) -> list[dict[str, Any]]:
    return [info.describe() for info in option_info(cls)]
