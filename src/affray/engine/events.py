"""The log: small, frozen events. The timeline and the final state are both derived from it."""

from __future__ import annotations

from typing import Any, NamedTuple

from affray.dice.roller import Roll

__all__ = ["TIMED_KINDS", "Event", "Tick"]

Tick = tuple[int, ...]

#: Kinds a ruleset places in time; each carries a ``why`` (CONTRACT.md).
TIMED_KINDS = frozenset({"move", "missile", "melee", "cast", "cast-start", "misc", "delay", "wait"})


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
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.data:
            if k == key:
                return v
        return default
