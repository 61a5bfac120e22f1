"""What installed packages add to affray, found by entry point (CONTRACT.md "Extensions"), as pytest finds its
plug-ins by ``pytest11``: the groups ``affray.rulesets`` (a ``Ruleset`` subclass, its id the entry point's name),
``affray.extensions`` (an ``Extension`` subclass, its name the entry point's) and ``affray.policies`` (a policy).

affray's own rulesets and Combat II's supplement are registered in its pyproject.toml under the same groups: there
is no private list. An entry point is read (name, package, version) without importing anything; it is imported
when first asked for. One that cannot be imported, or is not what its group wants, is *broken*: ``Entry.error``
names its package and what went wrong, ``affray rulesets`` lists it, and the rest of affray goes on without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from affray.errors import AffrayError
from affray.installed import GROUPS, points
from affray.installed import forget as forget_points

__all__ = ["GROUPS", "OWN", "SHOWN_ORDER", "Entry", "ExtensionError", "entries", "entry", "forget"]

#: The distribution whose entries are affray's own (listed first; its rulesets in ``SHOWN_ORDER``).
OWN = "affray"
#: The order affray's own rulesets are listed and compared in (they are registered by entry point, which setuptools
#: writes sorted by name): the six house systems, then the books' baselines.
SHOWN_ORDER = ("combat2-phase1", "combat2-phase2", "side-d6", "speed-segments", "phase-count", "d12-procedure",
               "bx-group", "adnd2e-standard")


class ExtensionError(AffrayError):
    """An installed ruleset or extension that cannot be used: its package, its entry point and the error."""


@dataclass
class Entry:
    """One entry point of a group: its name, where it points, the package that registers it and its version."""

    kind: str
    name: str
    value: str
    package: str
    version: str
    error: str | None = None
    _loaded: Any = field(default=None, repr=False)

    @property
    def own(self) -> bool:
        return self.package == OWN

    def where(self) -> str:
        return f"{self.kind} {self.name!r} ({self.value}) of package {self.package} {self.version}"

    def load(self) -> Any:
        """The object the entry point names, imported once; ExtensionError (its package, its error) if it cannot
        be, or is not what its group wants (``check``)."""
        if self._loaded is not None:
            return self._loaded
        if self.error is None:
            module, _, attr = self.value.partition(":")
            try:
                import importlib

                obj: Any = importlib.import_module(module)
                for part in attr.split(".") if attr else ():
                    obj = getattr(obj, part)
                _validate(self, obj)
            except ExtensionError as exc:
                self.error = str(exc)
            except Exception as exc:  # a third party's import may fail in any way: named, never a traceback
                self.error = f"{type(exc).__name__}: {exc}"
            else:
                self._loaded = obj
                return obj
        raise ExtensionError(f"{self.where()} cannot be used: {self.error}")


def _validate(e: Entry, obj: Any) -> None:
    """What each group asks of the object an entry point names."""
    if e.kind == "ruleset":
        from affray.engine.ruleset import Ruleset

        if not (isinstance(obj, type) and issubclass(obj, Ruleset)):
            raise ExtensionError(f"{obj!r} is not a subclass of affray.engine.ruleset.Ruleset")
        if getattr(obj, "id", None) != e.name:
            raise ExtensionError(f"its id is {getattr(obj, 'id', None)!r}, not the entry point's name {e.name!r}")
    elif e.kind == "extension":
        from affray.extensions.base import Extension, register_conditions

        if not (isinstance(obj, type) and issubclass(obj, Extension)):
            raise ExtensionError(f"{obj!r} is not a subclass of affray.extensions.Extension")
        if getattr(obj, "name", None) != e.name:
            raise ExtensionError(f"its name is {getattr(obj, 'name', None)!r}, not the entry point's name {e.name!r}")
        register_conditions(obj)
    elif not callable(obj):
        raise ExtensionError(f"{obj!r} is not a function (fight, me) -> declaration")


@cache
def _all() -> dict[str, dict[str, Entry]]:
    """Every group's entries by kind, affray's own first (its rulesets in ``SHOWN_ORDER``), then the others' by
    package and name, from the one reading of the entry points (``affray.installed``)."""
    out: dict[str, dict[str, Entry]] = {}
    for kind, found in points().items():
        own: list[Entry] = []
        others: list[Entry] = []
        for p in found:
            (own if p.package == OWN else others).append(Entry(kind, p.name, p.value, p.package, p.version))
        if kind == "ruleset":
            own.sort(key=lambda x: SHOWN_ORDER.index(x.name) if x.name in SHOWN_ORDER else len(SHOWN_ORDER))
        out[kind] = _named(own + sorted(others, key=lambda x: (x.package.lower(), x.name)))
    return out


def _named(listed: list[Entry]) -> dict[str, Entry]:
    """The entries by name, the first of a name winning; a later one of the same name is listed, broken, under
    "NAME (PACKAGE)"."""
    out: dict[str, Entry] = {}
    for e in listed:
        if e.name in out:
            first = out[e.name]
            e.error = f"its name clashes with the {first.kind} of package {first.package} {first.version}"
            out[f"{e.name} ({e.package})"] = e
            continue
        out[e.name] = e
    return out


def entries(kind: str) -> dict[str, Entry]:
    """Every entry point of ``kind`` ("ruleset", "extension", "policy") by name, affray's own first; broken ones
    too (a clash of names is listed under "NAME (PACKAGE)")."""
    return _all()[kind]


def entry(kind: str, name: str) -> Entry | None:
    return entries(kind).get(name)


def forget() -> None:
    """Read the entry points again (after a package was installed or removed in this process)."""
    forget_points()
    _all.cache_clear()
