"""Reading one fight: the only place the simulator looks at events.

It reads an event's ``kind``, ``tick``, ``actor``, ``target``, ``hit``, ``damage``, ``spell`` and ``passed``, and
a morale event's ``members``; nothing else of the engine (neither ``Fight.memo`` nor a ruleset's bookkeeping).
What events cannot say, the final state says: who is down or fled and every combatant's hit points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from affray.engine.events import Event, Tick

__all__ = ["SIMULTANEOUS", "FightRecord", "Tally"]

#: ``first_blow`` when two sides or more landed their first hits on the same tick (equal ticks are simultaneous).
SIMULTANEOUS = "simultaneous"

_ATTACKS = frozenset({"melee", "missile"})
_SPELLS = {"cast": "completed", "spell-ruined": "ruined", "spell-lost": "lost"}


@dataclass(frozen=True, slots=True)
class FightRecord:
    """What one fight came to."""

    seed: int
    winner: str | None  # None: a draw (several sides standing when time ran out, or nobody)
    length: int  # in the ruleset's own unit (rounds, cycles or phases)
    first_blow: str | None  # the side whose hit landed first, SIMULTANEOUS, or None when nobody hit
    spells: dict[str, dict[str, int]]  # side -> {"completed", "ruined", "lost"}
    dealt: dict[str, int]  # side -> damage its blows and spells did to other sides
    taken: dict[str, int]  # side -> hit points its combatants lost
    down: tuple[str, ...]  # combatants down (dead or unconscious) at the end
    fled: tuple[str, ...]  # combatants who left the fight standing (fled or surrendered)
    broke: tuple[str, ...]  # combatants who failed a morale check at least once
    morale: dict[str, tuple[int, int]]  # side -> (checks, failures)


class Tally:
    """An ``on_event`` callback for one fight in lean mode; ``record(result)`` once it has run.

    ``sides`` maps each combatant to its side and ``hp`` to its starting hit points, in file order.
    ``first_tick_counts``: a fight's length is counted from its first event, inclusive (rounds and cycles:
    "round 3" is 3 rounds) or not (phase-count's phases run from phase 0: "phase 13" is 13 phases).
    """

    __slots__ = ("_blows", "_casts_at", "_first", "_first_hit", "_hitters", "_last", "_morale", "_sides_list",
                 "_spells", "broke", "hp", "inclusive", "sides")

    def __init__(self, sides: dict[str, str], hp: dict[str, int], *, inclusive: bool = True) -> None:
        self.sides = sides
        self.hp = hp
        self.inclusive = inclusive
        self._sides_list = list(dict.fromkeys(sides.values()))
        self._first: Tick | None = None
        self._last: Tick | None = None
        self._first_hit: Tick | None = None
        self._hitters: set[str] = set()
        self._spells: dict[str, dict[str, int]] = {}
        self._blows: dict[tuple[str, str], int] = {}  # (attacker's side, target) -> damage
        self._casts_at: dict[str, set[str]] = {}  # target (combatant or side) -> sides that cast at it
        self._morale: dict[str, list[int]] = {}
        self.broke: set[str] = set()

    def __call__(self, e: Event) -> None:
        kind = e.kind
        tick = e.tick
        if self._first is None:
            self._first = tick
        self._last = tick
        if kind in _ATTACKS:
            if e.hit:
                side = self.sides[e.actor]  # type: ignore[index]
                if self._first_hit is None:
                    self._first_hit = tick
                    self._hitters.add(side)
                elif tick == self._first_hit:
                    self._hitters.add(side)
                if e.damage and e.target is not None:
                    key = (side, e.target)
                    self._blows[key] = self._blows.get(key, 0) + e.damage
        elif kind in _SPELLS:
            side = self.sides[e.actor]  # type: ignore[index]
            counts = self._spells.setdefault(side, {"completed": 0, "ruined": 0, "lost": 0})
            counts[_SPELLS[kind]] += 1
            if kind == "cast" and e.target is not None:
                self._casts_at.setdefault(e.target, set()).add(side)
        elif kind == "morale":
            members = e.get("members") or ()
            if members:
                side = self.sides[members[0]]
                checks = self._morale.setdefault(side, [0, 0])
                checks[0] += 1
                if e.passed is False:
                    checks[1] += 1
                    self.broke.update(members)

    def record(self, seed: int, winner: str | None, combatants: dict[str, dict[str, Any]]) -> FightRecord:
        """The fight's record, from the events seen and the final state's ``combatants`` (CONTRACT's)."""
        sides = self.sides
        first, last = self._first, self._last
        length = 0 if first is None or last is None else last[0] - first[0] + (1 if self.inclusive else 0)
        hitters = self._hitters
        first_blow = None if not hitters else next(iter(hitters)) if len(hitters) == 1 else SIMULTANEOUS
        dealt = dict.fromkeys(self._sides_list, 0)
        taken = dict.fromkeys(self._sides_list, 0)
        blows_taken: dict[str, int] = {}
        for (side, target), dmg in self._blows.items():
            if sides[target] != side:
                dealt[side] += dmg
            blows_taken[target] = blows_taken.get(target, 0) + dmg
        for name, c in combatants.items():
            lost = self.hp[name] - c["hp"]
            side = sides[name]
            taken[side] += lost
            # what blows do not explain (spells, delayed effects) goes to the one enemy side that cast at it
            rest = lost - blows_taken.get(name, 0)
            if rest > 0:
                casters = (self._casts_at.get(name, set()) | self._casts_at.get(side, set())) - {side}
                if len(casters) == 1:
                    dealt[next(iter(casters))] += rest
        return FightRecord(
            seed=seed, winner=winner, length=length, first_blow=first_blow,
            spells={s: dict(self._spells.get(s, {"completed": 0, "ruined": 0, "lost": 0})) for s in self._sides_list},
            dealt=dealt, taken=taken,
            down=tuple(n for n, c in combatants.items() if c["down"]),
            fled=tuple(n for n, c in combatants.items() if c.get("fled") and not c["down"]),
            broke=tuple(n for n in combatants if n in self.broke),
            morale={s: (self._morale[s][0], self._morale[s][1]) for s in self._sides_list if s in self._morale})
