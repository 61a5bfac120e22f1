"""Errors are part of the interface: each names the file, the line, the field path and the fix."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["AffrayError", "EncounterError", "InputError", "MissingExtraError", "OptionError", "PolicyError", "Problem",
           "UnknownRulesetError"]


class AffrayError(Exception):
    """Base of every error affray reports to a user (the CLI exits 2 on these)."""


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class EncounterError(AffrayError):
    """An encounter file with one or more problems, all reported at once."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class UnknownRulesetError(AffrayError, ValueError):
    def __init__(self, name: str, valid: list[str]) -> None:
        self.name = name
        super().__init__(f"unknown ruleset {name!r}; valid rulesets: {', '.join(valid)}")


class OptionError(AffrayError, ValueError):
    """An unknown ruleset option or a value it does not take."""


class PolicyError(AffrayError):
    """A designer's auto-play policy that cannot be loaded or may not be run, or that failed, ended the process, took
    too long (``actor``: the combatant it was choosing for) or declared what cannot be declared."""

    def __init__(self, message: str, actor: str | None = None) -> None:
        super().__init__(message)
        self.actor = actor

    def __reduce__(self) -> tuple[type[PolicyError], tuple[str, str | None]]:  # from a worker process, whole
        return type(self), (str(self), self.actor)


class InputError(AffrayError):
    """A stream affray reads line by line (``affray drive``'s and the console's stdin) that cannot be read at all."""


class MissingExtraError(AffrayError, ImportError):
    """A part of affray whose packages an extra installs (``affray[sim]``...), used where they are not installed."""
