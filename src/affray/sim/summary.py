"""Fight records summed into what a designer reads: rates with intervals, lengths in units and minutes, spells
from declaration to outcome, damage, survival, and when each combatant was first hurt and fell."""

from __future__ import annotations

from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from affray.sim.stats import Interval, Mean, mean_interval, wilson
from affray.sim.tally import OUTCOMES, SIMULTANEOUS, FightRecord, Sums, _add, _moments, landed_before_hurt

__all__ = ["SPELL_KINDS", "CombatantStats", "LengthStats", "RulesetStats", "SideStats", "SpellStats", "Summary",
           "landed_before_hurt"]

#: A side's spells by how they ended (``tally.OUTCOMES``: ``landed`` is counted as ``completed``).
SPELL_KINDS = ("completed", "ruined", "lost", "unbegun", "cut")


def _merge(a: dict[Any, list[float]], b: dict[Any, list[float]]) -> None:
    for k, m in b.items():
        mine = a.setdefault(k, _moments())
        for i in range(3):
            mine[i] += m[i]


def _mean(m: list[float] | None, scale: float = 1.0) -> Mean:
    if m is None:
        return mean_interval(0.0, 0.0, 0)
    return mean_interval(m[0] / scale, m[1] / (scale * scale), int(m[2]))


@dataclass
class Summary:
    """Sums of fight records that merge by addition: a batch's, then a ruleset's (batches merged in order). The
    per-fight columns (``winners``, ``seconds``, ``digests``) keep the fights in order: two grid points of one
    ruleset play the same seeds, fight by fight (their differences are paired)."""

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
    #: Moments (sum, sum of squares, count): "first_blow", "first_fall" (seconds), "dealt:SIDE" (hit points),
    #: "hurt:NAME", "down:NAME" and "struck:NAME" (seconds to its first damage, its fall, its first
    #: blow that hit), "landed:NAME:SPELL" (its first).
    moments: dict[str, list[float]] = field(default_factory=dict)
    hurt: Counter[str] = field(default_factory=Counter)  # fights each combatant took damage in
    #: (caster, spell) -> castings by outcome, "unbegun:WHY", "cut:WHY", "hurt" (its caster hurt during it),
    #: "fights" (fights it landed in), "before" (fights it first landed before its caster was first hurt).
    castings: dict[tuple[str, str], Counter[str]] = field(default_factory=dict)
    winners: array[int] = field(default_factory=lambda: array("b"))  # per fight: the winner's index in sides, -1
    seconds: array[float] = field(default_factory=lambda: array("d"))  # per fight: its game seconds
    digests: array[int] = field(default_factory=lambda: array("L"))  # per fight: what it came to, as a CRC-32
    digest: bool = True  # keep ``digests`` (a sweep compares its points with them)

    def add(self, r: FightRecord) -> None:
        """One fight's record added (``tally.Sums``, compiled with the tally in the compiled build; a batch of
        fights is summed there and added once)."""
        sums = Sums(self.sides, self.digest)
        sums.add(r)
        self.take(sums)

    def take(self, sums: Sums) -> None:  # noqa: C901
        """``sums`` (``tally.Sums``, a batch's) added: as adding each record in turn would, the same to the last bit
        when this summary has none of these moments yet (a batch's own summary), or they are one fight's (a
        moment's sums added in another order could round otherwise)."""
        self.fights += sums.fights
        self.draws += sums.draws
        self.first_blow_won += sums.first_blow_won
        for mine, theirs in ((sums.wins, self.wins), (sums.first_blow, self.first_blow),
                             (sums.dealt, self.dealt), (sums.taken, self.taken), (sums.fled, self.fled),
                             (sums.broke, self.broke), (sums.morale_checks, self.morale_checks),
                             (sums.morale_failures, self.morale_failures), (sums.survived, self.survived),
                             (sums.hurt, self.hurt)):
            for k, n in mine.items():
                theirs[k] += n
        for length, n in sums.lengths.items():
            self.lengths[length] += n
        for side, counts in sums.spells.items():
            kinds = self.spells.get(side)
            if kinds is None:
                kinds = self.spells[side] = Counter()
            for kind, n in counts.items():
                kinds[kind] += n
        moments = self.moments
        for key, m in sums.moments.items():
            have = moments.get(key)
            if have is None:
                moments[key] = m
            else:
                have[0] += m[0]
                have[1] += m[1]
                have[2] += m[2]
        for caster_spell, counts in sums.castings.items():
            outcomes = self.castings.setdefault(caster_spell, Counter())
            for kind, n in counts.items():
                outcomes[kind] += n
        self.winners.extend(sums.winners)
        self.seconds.extend(sums.seconds)
        self.digests.extend(sums.digests)

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
        _merge(self.moments, other.moments)
        self.hurt.update(other.hurt)
        for key, counts in other.castings.items():
            self.castings.setdefault(key, Counter()).update(counts)
        index = [self.sides.index(s) for s in other.sides]  # the same sides, in this summary's order
        self.winners.extend(index[w] if w >= 0 else -1 for w in other.winners)
        self.seconds.extend(other.seconds)
        self.digests.extend(other.digests)

    def copy(self) -> Summary:
        out = Summary(list(self.sides), dict(self.combatants))
        out.merge(self)
        return out


def _round(x: float) -> float:
    return round(x, 6)


@dataclass(frozen=True)
class LengthStats:
    """How long the fights lasted, in the ruleset's own unit (``mean_interval``: the mean's 95% interval)."""

    unit: str
    mean: float
    median: float
    min: int
    max: int
    histogram: dict[int, int]
    mean_interval: Mean

    @classmethod
    def of(cls, unit: str, lengths: Counter[int]) -> LengthStats:
        n = sum(lengths.values())
        if not n:
            return cls(unit, 0.0, 0.0, 0, 0, {}, mean_interval(0.0, 0.0, 0))
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
        squares = sum(k * k * v for k, v in lengths.items())
        return cls(unit, _round(total / n), median, values[0], values[-1], {k: lengths[k] for k in values},
                   mean_interval(float(total), float(squares), n))

    def to_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "mean": self.mean, "median": self.median, "min": self.min, "max": self.max,
                "histogram": {str(k): v for k, v in self.histogram.items()},
                "mean_interval": self.mean_interval.to_dict()}


@dataclass(frozen=True)
class SideStats:
    """One side over all fights; damage per fight on average (``dealt``: with its interval)."""

    wins: int
    win_rate: Interval
    first_blow: int  # fights in which it alone landed the first hit
    first_blow_rate: Interval
    damage_dealt: float
    damage_taken: float
    dealt: Mean
    spells: dict[str, int]  # completed, ruined, lost, unbegun, cut
    morale_checks: int
    morale_failures: int

    def to_dict(self) -> dict[str, Any]:
        return {"wins": self.wins, "win_rate": self.win_rate.to_dict(), "first_blow": self.first_blow,
                "first_blow_rate": self.first_blow_rate.to_dict(), "damage_dealt": self.damage_dealt,
                "damage_taken": self.damage_taken, "dealt": self.dealt.to_dict(), "spells": dict(self.spells),
                "morale_checks": self.morale_checks, "morale_failures": self.morale_failures}


@dataclass(frozen=True)
class SpellStats:
    """One combatant's castings of one spell over all fights: how each ended, and when it first landed."""

    castings: int
    outcomes: dict[str, int]  # landed, ruined, lost, unbegun, cut
    why: dict[str, int]  # "unbegun:refused", "cut:fell", ...
    hurt: int  # castings during which the caster took damage
    fights: int  # fights it landed in
    before_hurt: Interval  # fights in which it first landed before its caster first took damage (of all fights)
    landed_at: Mean  # seconds from the start to its first landing, over the fights it landed in

    def to_dict(self) -> dict[str, Any]:
        return {"castings": self.castings, "outcomes": dict(self.outcomes), "why": dict(self.why),
                "hurt": self.hurt, "fights": self.fights, "before_hurt": self.before_hurt.to_dict(),
                "landed_at": self.landed_at.to_dict()}


@dataclass(frozen=True)
class CombatantStats:
    side: str
    survived: int  # fights it ended not down (standing or fled)
    survival: Interval
    fled: int
    morale_breaks: int  # fights in which it failed a morale check
    hurt: int  # fights in which it took damage
    hurt_at: Mean  # seconds to its first damage, over those fights
    down_at: Mean  # seconds to its fall, over the fights it fell in
    struck_at: Mean  # seconds to its first blow that hit, over the fights it landed one
    spells: dict[str, SpellStats]

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "survived": self.survived, "survival": self.survival.to_dict(),
                "fled": self.fled, "morale_breaks": self.morale_breaks, "hurt": self.hurt,
                "hurt_at": self.hurt_at.to_dict(), "down_at": self.down_at.to_dict(),
                "struck_at": self.struck_at.to_dict(),
                "spells": {k: v.to_dict() for k, v in self.spells.items()}}


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
    minutes: Mean  # the mean length of a fight in game minutes (``sim.clock``)
    minutes_quantiles: dict[str, float]  # "5%", "25%", "50%", "75%", "95%" of a fight's length in minutes
    first_blow_at: Mean  # seconds to the first hit, over the fights with one
    first_fall_at: Mean  # seconds to the first fall, over the fights with one
    spells: dict[str, int]
    first_blow: dict[str, int]  # each side, "simultaneous", "none"; and "won": the first hitter won
    sides: dict[str, SideStats]
    combatants: dict[str, CombatantStats]

    @classmethod
    def of(cls, ruleset: str, unit: str, options: dict[str, Any], s: Summary) -> RulesetStats:
        n = s.fights
        spells = {k: sum(c[k] for c in s.spells.values()) for k in SPELL_KINDS}
        first = {side: s.first_blow[side] for side in s.sides}
        first.update({SIMULTANEOUS: s.first_blow[SIMULTANEOUS], "none": s.first_blow["none"],
                      "won": s.first_blow_won})
        m = s.moments
        sides = {side: SideStats(
            wins=s.wins[side], win_rate=wilson(s.wins[side], n), first_blow=s.first_blow[side],
            first_blow_rate=wilson(s.first_blow[side], n), damage_dealt=_round(s.dealt[side] / n) if n else 0.0,
            damage_taken=_round(s.taken[side] / n) if n else 0.0, dealt=_mean(m.get(f"dealt:{side}")),
            spells={k: s.spells.get(side, Counter())[k] for k in SPELL_KINDS},
            morale_checks=s.morale_checks[side], morale_failures=s.morale_failures[side]) for side in s.sides}
        combatants = {}
        for name, side in s.combatants.items():
            spell_stats = {}
            for (caster, spell), c in s.castings.items():
                if caster != name:
                    continue
                spell_stats[spell] = SpellStats(
                    castings=sum(c[o] for o in OUTCOMES), outcomes={o: c[o] for o in OUTCOMES},
                    why={k: v for k, v in sorted(c.items()) if ":" in k}, hurt=c["hurt"], fights=c["fights"],
                    before_hurt=wilson(c["before"], n), landed_at=_mean(m.get(f"landed:{name}:{spell}")))
            combatants[name] = CombatantStats(
                side, s.survived[name], wilson(s.survived[name], n), s.fled[name], s.broke[name], s.hurt[name],
                _mean(m.get(f"hurt:{name}")), _mean(m.get(f"down:{name}")), _mean(m.get(f"struck:{name}")),
                spell_stats)
        seconds = [0.0, 0.0, 0.0]
        for x in s.seconds:
            _add(seconds, x)
        ordered = sorted(s.seconds)
        quantiles = {f"{q}%": round(ordered[min(len(ordered) - 1, q * len(ordered) // 100)] / 60, 6) if ordered
                     else 0.0 for q in (5, 25, 50, 75, 95)}
        return cls(ruleset=ruleset, fights=n, options=dict(options), wins={side: s.wins[side] for side in s.sides},
                   draws=s.draws, win_rate={side: sides[side].win_rate for side in s.sides},
                   draw_rate=wilson(s.draws, n), length=LengthStats.of(unit, s.lengths),
                   minutes=_mean(seconds, 60.0), minutes_quantiles=quantiles,
                   first_blow_at=_mean(m.get("first_blow")),
                   first_fall_at=_mean(m.get("first_fall")), spells=spells, first_blow=first, sides=sides,
                   combatants=combatants)

    def to_dict(self) -> dict[str, Any]:
        return {"fights": self.fights, "wins": dict(self.wins), "draws": self.draws,
                "win_rate": {k: v.to_dict() for k, v in self.win_rate.items()},
                "draw_rate": self.draw_rate.to_dict(), "options": dict(self.options),
                "length": self.length.to_dict(), "minutes": self.minutes.to_dict(),
                "minutes_quantiles": dict(self.minutes_quantiles),
                "first_blow_at": self.first_blow_at.to_dict(), "first_fall_at": self.first_fall_at.to_dict(),
                "spells": dict(self.spells), "first_blow": dict(self.first_blow),
                "sides": {k: v.to_dict() for k, v in self.sides.items()},
                "combatants": {k: v.to_dict() for k, v in self.combatants.items()}}
