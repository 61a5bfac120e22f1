"""The log: small, frozen events. The timeline and the final state are both derived from it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from affray.dice.roller import Roll

__all__ = ["TIMED_KINDS", "Event", "Tick"]

Tick = tuple[int, ...]

#: Kinds a ruleset places in time; each carries a ``why`` (CONTRACT.md).
TIMED_KINDS = frozenset({"move", "missile", "melee", "cast", "cast-start", "misc", "delay", "wait"})


_EMPTY: Mapping[str, Any] = {}


class Event(NamedTuple):
    """One thing that happened. Equal ticks are simultaneous; ``seq`` is the log position."""

    kind: str
    tick: Tick
    at: str
    round: int | None
    actor: str | None = None
    target: str | None = None
    hit: bool | None = None
    damage: int | None = None
    spell: str | None = None
    passed: bool | None = None
    opportunity: bool = False
    why: str | None = None
    detail: str | None = None
    rolls: tuple[Roll, ...] = ()
    data: Mapping[str, Any] = _EMPTY  # kind-specific facts ("decl", "feet", "members"...); never mutated

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)
