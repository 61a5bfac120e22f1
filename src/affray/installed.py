"""The entry points of affray's groups in the installed distributions, read once a process: the one reader of them.
``affray.extensions.registry`` makes its entries of these (each loaded when asked for); the file's model checks a
policy's name against them. It imports nothing of affray, so that the model, below the engine, may read it.

One scan of the distributions for every group, each distribution's metadata parsed once however many entry points
it registers: every command's start-up pays for this (affray's own METADATA, with the README in it, was parsed
again for each of its entry points)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

__all__ = ["GROUPS", "Point", "forget", "points"]

#: The entry point groups, by kind.
GROUPS = {"ruleset": "affray.rulesets", "extension": "affray.extensions", "policy": "affray.policies"}


@dataclass(frozen=True)
class Point:
    """One entry point of a group: its name, where it points, the package that registers it and its version."""

    kind: str
    name: str
    value: str
    package: str
    version: str


@cache
def points() -> dict[str, tuple[Point, ...]]:
    """Every group's entry points by kind, as Python finds them (one distribution of each name)."""
    from importlib.metadata import entry_points

    found = entry_points()
    about: dict[int, tuple[str, str]] = {}
    out: dict[str, tuple[Point, ...]] = {}
    for kind, group in GROUPS.items():
        listed = []
        for point in found.select(group=group):
            dist = point.dist
            if id(dist) not in about:
                meta = dist.metadata if dist is not None else None
                about[id(dist)] = ((meta["Name"] if meta is not None else None) or "?",
                                   (meta["Version"] if meta is not None else None) or "?")
            package, version = about[id(dist)]
            listed.append(Point(kind, point.name, point.value, package, version))
        out[kind] = tuple(listed)
    return out


def forget() -> None:
    """Read the entry points again (after a package was installed or removed in this process)."""
    points.cache_clear()
