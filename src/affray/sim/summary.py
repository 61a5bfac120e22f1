"""Fight records summed into what a designer reads: rates with intervals, lengths, spells, damage, survival."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from affray.sim.stats import Interval, wilson
from affray.sim.tally import SIMULTANEOUS, FightRecord

__all__ = ["CombatantStats", "LengthStats", "RulesetStats", "SideStats", "Summary"]

_SPELL_KINDS = ("completed", "ruined", "lost")


@dataclass
class Summary:
    """Sums of fight records that merge by addition: a batch's, then a ruleset's (batches merged in order)."""

    sides: list[str]
    combatants: dict[str, str]  # name -> side, in file order
    fights: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    lengths: Counter[int] = field(default_factory=Counter)
    first_blow: Counter[str] = field(default_factory=Counter)  # a side, SIMULTANEOUS or "none"
    first_blow_won: int = 0  # fights won by the side that landed the first hit
    spells: dict[str, Counter[str]] = field(default_factory=dict)
    dealt: Counter[str] = field(default_factory=Counter)
    taken: Counter[str] = field(default_factory=Counter)
    survived: Counter[str] = field(default_factory=Counter)
    fled: Counter[str] = field(default_factory=Counter)
    broke: Counter[str] = field(default_factory=Counter)
    morale_checks: Counter[str] = field(default_factory=Counter)
    morale_failures: Counter[str] = field(default_factory=Counter)

    def add(self, r: FightRecord) -> None:
        self.fights += 1
        if r.winner is None:
            self.draws += 1
        else:
            self.wins[r.winner] += 1
        self.lengths[r.length] += 1
        self.first_blow[r.first_blow or "none"] += 1
        if r.first_blow is not None and r.first_blow == r.winner:
            self.first_blow_won += 1
        for side, counts in r.spells.items():
            self.spells.setdefault(side, Counter()).update(counts)
        self.dealt.update(r.dealt)
        self.taken.update(r.taken)
        down = set(r.down)
        self.survived.update(n for n in self.combatants if n not in down)
        self.fled.update(r.fled)
        self.broke.update(r.broke)
        for side, (checks, failures) in r.morale.items():
            self.morale_checks[side] += checks
            self.morale_failures[side] += failures

    def merge(self, other: Summary) -> None:
        for name, side in other.combatants.items():
            self.combatants.setdefault(name, side)
        for side in other.sides:
            if side not in self.sides:
                self.sides.append(side)
        self.fights += other.fights
        self.wins.update(other.wins)
        self.draws += other.draws
        self.lengths.update(other.lengths)
        self.first_blow.update(other.first_blow)
        self.first_blow_won += other.first_blow_won
        for side, counts in other.spells.items():
            self.spells.setdefault(side, Counter()).update(counts)
        self.dealt.update(other.dealt)
        self.taken.update(other.taken)
        self.survived.update(other.survived)
        self.fled.update(other.fled)
        self.broke.update(other.broke)
        self.morale_checks.update(other.morale_checks)
        self.morale_failures.update(other.morale_failures)

    def copy(self) -> Summary:
        out = Summary(list(self.sides), dict(self.combatants))
        out.merge(self)
        return out


def _mean(total: int, n: int) -> float:
    return round(total / n, 6) if n else 0.0


@dataclass(frozen=True)
class LengthStats:
    """How long the fights lasted, in the ruleset's own unit."""

    unit: str
    mean: float
    median: float
    min: int
    max: int
    histogram: dict[int, int]

    @classmethod
    def of(cls, unit: str, lengths: Counter[int]) -> LengthStats:
        n = sum(lengths.values())
        if not n:
            return cls(unit, 0.0, 0.0, 0, 0, {})
        values = sorted(lengths)
        total = sum(k * v for k, v in lengths.items())

        def nth(i: int) -> int:  # the i-th smallest length, from 0
            seen = 0
            for k in values:
                seen += lengths[k]
                if i < seen:
                    return k
            return values[-1]  # pragma: no cover - i < n

        median = (nth((n - 1) // 2) + nth(n // 2)) / 2
        return cls(unit, _mean(total, n), median, values[0], values[-1], {k: lengths[k] for k in values})

    def to_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "mean": self.mean, "median": self.median, "min": self.min, "max": self.max,
                "histogram": {str(k): v for k, v in self.histogram.items()}}


@dataclass(frozen=True)
class SideStats:
    """One side over all fights; damage per fight on average."""

    wins: int
    win_rate: Interval
    first_blow: int  # fights in which it alone landed the first hit
    first_blow_rate: Interval
    damage_dealt: float
    damage_taken: float
    spells: dict[str, int]  # completed, ruined, lost
    morale_checks: int
    morale_failures: int

    def to_dict(self) -> dict[str, Any]:
        return {"wins": self.wins, "win_rate": self.win_rate.to_dict(), "first_blow": self.first_blow,
                "first_blow_rate": self.first_blow_rate.to_dict(), "damage_dealt": self.damage_dealt,
                "damage_taken": self.damage_taken, "spells": dict(self.spells),
                "morale_checks": self.morale_checks, "morale_failures": self.morale_failures}


@dataclass(frozen=True)
class CombatantStats:
    side: str
    survived: int  # fights it ended not down (standing or fled)
    survival: Interval
    fled: int
    morale_breaks: int  # fights in which it failed a morale check

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "survived": self.survived, "survival": self.survival.to_dict(),
                "fled": self.fled, "morale_breaks": self.morale_breaks}


@dataclass(frozen=True)
class RulesetStats:
    """N fights under one ruleset (and one grid point of a sweep)."""

    ruleset: str
    fights: int
    options: dict[str, Any]  # the options given (file and --set) that this ruleset takes
    wins: dict[str, int]
    draws: int
    win_rate: dict[str, Interval]
    draw_rate: Interval
    length: LengthStats
    spells: dict[str, int]
    first_blow: dict[str, int]  # each side, "simultaneous", "none"; and "won": the first hitter won
    sides: dict[str, SideStats]
    combatants: dict[str, CombatantStats]

    @classmethod
    def of(cls, ruleset: str, unit: str, options: dict[str, Any], s: Summary) -> RulesetStats:
        n = s.fights
        spells = {k: sum(c[k] for c in s.spells.values()) for k in _SPELL_KINDS}
        first = {side: s.first_blow[side] for side in s.sides}
        first.update({SIMULTANEOUS: s.first_blow[SIMULTANEOUS], "none": s.first_blow["none"],
                      "won": s.first_blow_won})
        sides = {side: SideStats(
            wins=s.wins[side], win_rate=wilson(s.wins[side], n), first_blow=s.first_blow[side],
            first_blow_rate=wilson(s.first_blow[side], n), damage_dealt=_mean(s.dealt[side], n),
            damage_taken=_mean(s.taken[side], n),
            spells={k: s.spells.get(side, Counter())[k] for k in _SPELL_KINDS},
            morale_checks=s.morale_checks[side], morale_failures=s.morale_failures[side]) for side in s.sides}
        combatants = {name: CombatantStats(side, s.survived[name], wilson(s.survived[name], n), s.fled[name],
                                           s.broke[name]) for name, side in s.combatants.items()}
        return cls(ruleset=ruleset, fights=n, options=dict(options), wins={side: s.wins[side] for side in s.sides},
                   draws=s.draws, win_rate={side: sides[side].win_rate for side in s.sides},
                   draw_rate=wilson(s.draws, n), length=LengthStats.of(unit, s.lengths), spells=spells,
                   first_blow=first, sides=sides, combatants=combatants)

    def to_dict(self) -> dict[str, Any]:
        return {"fights": self.fights, "wins": dict(self.wins), "draws": self.draws,
                "win_rate": {k: v.to_dict() for k, v in self.win_rate.items()},
                "draw_rate": self.draw_rate.to_dict(), "options": dict(self.options),
                "length": self.length.to_dict(), "spells": dict(self.spells), "first_blow": dict(self.first_blow),
                "sides": {k: v.to_dict() for k, v in self.sides.items()},
                "combatants": {k: v.to_dict() for k, v in self.combatants.items()}}
