"""Reading one fight: the only place the simulator looks at events.

It matches on the engine's typed events (``affray.engine.events``): attacks (``Melee``, ``Missile``: who hit
whom and when), the damage that lands (an attack's unless a later ``Wound`` brings it, a spell's ``Cast`` and
delayed ``Effect``), the spells completed, ruined and lost, and ``Morale`` checks; nothing else of the engine
(neither ``Fight.memo`` nor a ruleset's bookkeeping). What events cannot say, the final state says: who is down
or fled and every combatant's hit points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from affray.engine.events import Cast, Effect, Event, Melee, Morale, SpellLost, SpellRuined, Tick, Wound

__all__ = ["SIMULTANEOUS", "FightRecord", "Tally"]

#: ``first_blow`` when two sides or more landed their first hits on the same tick (equal ticks are simultaneous).
SIMULTANEOUS = "simultaneous"


@dataclass(frozen=True, slots=True)
class FightRecord:
    """What one fight came to."""

    seed: int
    winner: str | None  # None: a draw (several sides standing when time ran out, or nobody)
    length: int  # in the ruleset's own unit (rounds, cycles or phases)
    first_blow: str | None  # the side whose hit landed first, SIMULTANEOUS, or None when nobody hit
    spells: dict[str, dict[str, int]]  # side -> {"completed", "ruined", "lost"}
    dealt: dict[str, int]  # side -> damage its blows and spells did to other sides' combatants, as it landed
    taken: dict[str, int]  # side -> hit points its combatants lost
    down: tuple[str, ...]  # combatants down (dead or unconscious) at the end
    fled: tuple[str, ...]  # combatants who left the fight standing (fled or surrendered)
    broke: tuple[str, ...]  # combatants who failed a morale check at least once
    morale: dict[str, tuple[int, int]]  # side -> (checks, failures)


class Tally:
    """An ``on_event`` callback for one fight in lean mode; ``record(result)`` once it has run.

    ``sides`` maps each combatant to its side and ``hp`` to its starting hit points, in file order.
    ``inclusive``: a fight's length is counted from its first event, inclusive (rounds and cycles:
    "round 3" is 3 rounds) or not (phase-count's phases run from phase 0: "phase 13" is 13 phases).
    """

    __slots__ = ("_dealt", "_first", "_first_hit", "_hitters", "_last", "_morale", "_sides_list", "_spells",
                 "broke", "hp", "inclusive", "sides")

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
        self._dealt: dict[str, int] = {}  # side -> damage it did to the other sides' combatants
        self._morale: dict[str, list[int]] = {}
        self.broke: set[str] = set()

    def _deal(self, actor: str | None, target: str | None, damage: int) -> None:
        if actor is None or target is None or damage <= 0:
            return
        side = self.sides.get(actor)
        if side is not None and self.sides.get(target) != side:
            self._dealt[side] = self._dealt.get(side, 0) + damage

    def _spell(self, actor: str | None, outcome: str) -> None:
        if actor is not None and actor in self.sides:
            counts = self._spells.setdefault(self.sides[actor], {"completed": 0, "ruined": 0, "lost": 0})
            counts[outcome] += 1

    def __call__(self, e: Event) -> None:
        tick = e.tick
        if self._first is None:
            self._first = tick
        self._last = tick
        match e:
            case Melee(actor=actor, target=target, hit=hit, damage=damage, lands=lands):  # Missile too
                if hit and actor is not None:
                    side = self.sides[actor]
                    if self._first_hit is None:
                        self._first_hit = tick
                        self._hitters.add(side)
                    elif tick == self._first_hit:
                        self._hitters.add(side)
                    if lands is None:  # a later ``wound`` brings damage that lands later
                        self._deal(actor, target, damage)
            case Wound(actor=actor, target=target, damage=damage):
                self._deal(actor, target, damage)
            case Cast(actor=actor, effects=effects):
                self._spell(actor, "completed")
                for name, dmg in effects.items():
                    self._deal(actor, name, dmg)
            case Effect(actor=actor, effects=effects):  # a spell's delayed damage (PC-12)
                for name, dmg in effects.items():
                    self._deal(actor, name, dmg)
            case SpellLost(actor=actor):  # before SpellRuined: a lost spell is a ruined one that is gone too
                self._spell(actor, "lost")
            case SpellRuined(actor=actor):
                self._spell(actor, "ruined")
            case Morale(side=side, members=members, passed=passed):
                if side is None and members:
                    side = self.sides.get(members[0])
                if side is not None:
                    checks = self._morale.setdefault(side, [0, 0])
                    checks[0] += 1
                    if passed is False:
                        checks[1] += 1
                        self.broke.update(members)
            case _:
                pass

    def record(self, seed: int, winner: str | None, combatants: dict[str, dict[str, Any]]) -> FightRecord:
        """The fight's record, from the events seen and the final state's ``combatants`` (CONTRACT's)."""
        sides = self.sides
        first, last = self._first, self._last
        length = 0 if first is None or last is None else last[0] - first[0] + (1 if self.inclusive else 0)
        hitters = self._hitters
        first_blow = None if not hitters else next(iter(hitters)) if len(hitters) == 1 else SIMULTANEOUS
        dealt = {side: self._dealt.get(side, 0) for side in self._sides_list}
        taken = dict.fromkeys(self._sides_list, 0)
        for name, c in combatants.items():
            taken[sides[name]] += self.hp[name] - c["hp"]
        return FightRecord(
            seed=seed, winner=winner, length=length, first_blow=first_blow,
            spells={s: dict(self._spells.get(s, {"completed": 0, "ruined": 0, "lost": 0})) for s in self._sides_list},
            dealt=dealt, taken=taken,
            down=tuple(n for n, c in combatants.items() if c["down"]),
            fled=tuple(n for n, c in combatants.items() if c.get("fled") and not c["down"]),
            broke=tuple(n for n in combatants if n in self.broke),
            morale={s: (self._morale[s][0], self._morale[s][1]) for s in self._sides_list if s in self._morale})
