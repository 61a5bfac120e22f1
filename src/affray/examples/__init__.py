"""The example files shipped with affray, installed with the package: ``affray examples`` lists them, and
``affray new`` writes the starter encounter (``first_fight.yaml``).

    >>> from affray import load_encounter, run
    >>> from affray.examples import example_path
    >>> run(load_encounter(example_path("skirmish.yaml")), seed=7, auto=True).final.winner
    'party'
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from affray.errors import AffrayError

__all__ = ["STARTER", "Example", "ExampleError", "example", "example_path", "examples"]

#: The file ``affray new`` writes.
STARTER = "first_fight.yaml"
_KINDS = (".yaml", ".console")


class ExampleError(AffrayError):
    """No shipped example of that name."""


@dataclass(frozen=True)
class Example:
    """One shipped file: its name, what it is in one line, and its text."""

    name: str
    description: str
    text: str

    @property
    def stem(self) -> str:
        return self.name.rsplit(".", 1)[0]


def _describe(name: str, text: str) -> str:
    """An encounter's first comment line; a console script says which fight it plays."""
    if name.endswith(".console"):
        stem = name.removesuffix(".console")
        return f"the console commands of the README's first command: affray play {stem}.yaml --auto < {name}"
    first = next((line for line in text.splitlines() if line.strip()), "")
    return first.lstrip("#").strip().rstrip(":.") if first.lstrip().startswith("#") else ""


def examples() -> tuple[Example, ...]:
    """Every shipped example, by name."""
    here = files(__name__)
    found = sorted(f.name for f in here.iterdir() if f.is_file() and f.name.endswith(_KINDS))
    out = []
    for name in found:
        text = (here / name).read_text(encoding="utf-8")
        out.append(Example(name, _describe(name, text), text))
    return tuple(out)


def example(name: str) -> Example:
    """The example called ``name`` (``skirmish.yaml``, or ``skirmish`` for the encounter); ExampleError names the
    ones there are."""
    shipped = examples()
    for e in shipped:
        if name in (e.name, e.stem) and (name == e.name or e.name.endswith(".yaml")):
            return e
    valid = ", ".join(e.name for e in shipped)
    raise ExampleError(f"no example {name!r}; the examples are: {valid} (`affray examples` describes them)")


def example_path(name: str) -> Path:
    """The installed file of example ``name``, for ``load_encounter``."""
    return Path(str(files(__name__) / example(name).name))
