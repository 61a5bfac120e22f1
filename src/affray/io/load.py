"""Reading an encounter file: YAML or JSON via ruamel.yaml (for line numbers), pydantic, cross-references.

Every step is bounded (``affray.limits``): the bytes read, the nesting, the values aliases expand to
(``io.read``), the combatants; and every refusal is a problem with file, line and field path in affray's own
words (``io.messages``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from affray.errors import EncounterError, Problem
from affray.io.messages import validation_problems
from affray.io.read import format_path, line_of, load_value, parse_yaml, plain_data, read_text
from affray.io.references import cross_references
from affray.limits import MAX_COMBATANTS
from affray.model.encounter import Encounter, expand

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
