"""Who acts first, and whether a spell beats a blow: exact, by enumerating the initiative dice with icepool.

Each ruleset is read from RULES.md on its own terms, in one round (or cycle, or opening) without surprise,
two combatants on two sides of one each: A (or the caster) on the first side, B (or the attacker) on the
second. A "moment" is what the ruleset orders by; equal moments are simultaneous (G-05).

The tables are written out here again from RULES.md rather than imported from the rulesets, so that the
tests, which compare these odds with the engine's own placement for every roll, check one against the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from affray.errors import OptionError
from affray.model.encounter import SPEED_CATEGORIES

__all__ = ["MODELLED_OPTIONS", "RULESET_IDS", "Contender", "Order", "SpellOdds", "first", "spell_vs_blow"]

RULESET_IDS = ("combat2-phase1", "combat2-phase2", "side-d6", "speed-segments", "phase-count", "d12-procedure")

#: The options these odds follow (each ruleset's default otherwise): P1-01's tie track, MJ-06's melee
#: disruption and D12-04's whose DEX adjusts a side's roll.
MODELLED_OPTIONS = {"combat2-phase1": ("tie_track",), "combat2-phase2": ("tie_track",),
                    "side-d6": ("melee_disrupts",), "speed-segments": (), "phase-count": (),
                    "d12-procedure": ("side_dex",)}


@dataclass(frozen=True)
class Contender:
    """One combatant as the question needs it: DEX, and the SF of its weapon (speed-segments' Spd,
    phase-count's numeric modifier) or a speed category (phase-count, PC-03)."""

    dex: int = 10
    sf: int = 5
    speed: str | None = None


@dataclass(frozen=True)
class Order:
    """Whose moment comes first: A's, B's, or both together (simultaneous)."""

    ruleset: str
    a: Fraction
    b: Fraction
    together: Fraction
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {"a": float(self.a), "b": float(self.b), "together": float(self.together),
                "exact": {"a": str(self.a), "b": str(self.b), "together": str(self.together)}, "rule": self.rule}


@dataclass(frozen=True)
class SpellOdds:
    """A spell of casting time CT against one blow aimed at its caster: which lands first, and the chance
    the spell takes effect if the blow hits (a blow that lands first spoils it where the ruleset says damage
    does; a blow in the same instant does not)."""

    ruleset: str
    spell_first: Fraction
    blow_first: Fraction
    together: Fraction
    completes: Fraction
    rule: str

    def to_dict(self) -> dict[str, Any]:
        exact = {"spell_first": str(self.spell_first), "blow_first": str(self.blow_first),
                 "together": str(self.together), "completes": str(self.completes)}
        return {"spell_first": float(self.spell_first), "blow_first": float(self.blow_first),
                "together": float(self.together), "completes": float(self.completes), "exact": exact,
                "rule": self.rule}


# -- the tables of RULES.md ---------------------------------------------------------------------------------
def reaction_2e(dex: int) -> int:
    """P1-02 (2e PH Table 2): 1: -6, 2: -4, 3: -3, 4: -2, 5: -1, 6-15: 0, 16: +1, 17-18: +2, 19-20: +3,
    21-23: +4, 24-25: +5."""
    table = {1: -6, 2: -4, 3: -3, 4: -2, 5: -1, 16: 1, 17: 2, 18: 2, 19: 3, 20: 3, 21: 4, 22: 4, 23: 4}
    return table.get(dex, 0 if dex < 24 else 5)


def reaction_1e(dex: int) -> int:
    """D12-04 (1e): 3: -3, 4: -2, 5: -1, 6-15: 0, 16: +1, 17: +2, 18: +3 (below 3 as 3, above 18 as 18)."""
    return {4: -2, 5: -1, 16: 1, 17: 2}.get(dex, -3 if dex <= 3 else 3 if dex >= 18 else 0)


def band(sf: int, winner: bool) -> int:
    """P1-04: the winner's half-segment by SF <2: 1, 2-3: 2, 4-6: 3, 7-9: 4, 10+: 5; a loser's one later."""
    k = 1 if sf < 2 else 2 if sf <= 3 else 3 if sf <= 6 else 4 if sf <= 9 else 5
    return k + (0 if winner else 1)


def casting_half_segment(ct: int, winner: bool) -> int:
    """P1-05: the CT-th active half-segment of the track (winner odd, loser even); "1 round" (CT 10) in the
    endphase, 19 or 20."""
    if ct >= 10:
        return 19 if winner else 20
    return 2 * ct - 1 if winner else 2 * ct


PHASE_MODIFIER = dict(zip(SPEED_CATEGORIES, range(7), strict=True))  # PC-03: strikes first 0 ... strikes last 6


def weapon_pm(c: Contender) -> int:
    """PC-03: a speed category's PM, else the numeric modifier's: 0-1: 1, 2-4: 2, 5-7: 3, 8-13: 4, 14+: 5."""
    if c.speed is not None:
        return PHASE_MODIFIER[c.speed]
    n = c.sf
    return 0 if n < 0 else 1 if n <= 1 else 2 if n <= 4 else 3 if n <= 7 else 4 if n <= 13 else 5


def spell_pm(ct: int, speed: str | None) -> int:
    """PC-03: a spell's category from its CT: 1-3 fast, 4-6 average, 7-9 slow, 1 round very slow, longer
    strikes last (a category given wins)."""
    if speed is not None:
        return PHASE_MODIFIER[speed]
    cat = "fast" if ct <= 3 else "average" if ct <= 6 else "slow" if ct <= 9 else \
        "very slow" if ct == 10 else "strikes last"
    return PHASE_MODIFIER[cat]


# -- the moments, ruleset by ruleset -------------------------------------------------------------------------
Moment = tuple[int, ...]
#: (A's die, B's die) -> (A's moment, B's moment) for two blows; or (the spell's, the blow's).
Placer = Callable[[int, int], tuple[Moment, Moment]]


@dataclass(frozen=True)
class _Model:
    die: int
    melee: Placer
    spell: Placer
    disrupts: bool  # does a blow landing first spoil the spell
    rule: str
    spell_rule: str


def _model(ruleset: str, a: Contender, b: Contender, ct: int, spell_speed: str | None,
           opt: Mapping[str, Any]) -> _Model:
    if ruleset == "side-d6":
        def turn(own: int, other: int) -> int:
            return 1 if own >= other else 2  # MJ-04: high first; MJ-07: a tie runs the steps once, together

        return _Model(6, lambda x, y: ((turn(x, y), 7), (turn(y, x), 7)),
                      lambda x, y: ((turn(x, y), 6), (turn(y, x), 7)), bool(opt.get("melee_disrupts", False)),
                      "d6 per side, high first, a tie together; melee is step 7 (MJ-04, MJ-05, MJ-07)",
                      "spells are step 6, melee step 7: a side going first or tied casts before the blow; a "
                      "melee hit ruins a spell only with melee_disrupts (MJ-05, MJ-06)")
    if ruleset == "speed-segments":
        def seg(own: int, other: int, speed: int, phase: int) -> Moment:
            # SEG-06: a loser adds floor(pips / 2); SEG-09: the winner's turn first, tied sides share phases
            return (speed + max(0, other - own) // 2, 1 if own >= other else 2, phase)

        sa, sb = max(1, a.sf), max(1, b.sf)
        return _Model(6, lambda x, y: (seg(x, y, sa, 4), seg(y, x, sb, 4)),
                      lambda x, y: (seg(x, y, ct, 3), seg(y, x, sb, 4)), True,
                      f"d6 per side, high wins; segment = Spd ({sa}, {sb}) + 1 per 2 pips lost; in a segment the "
                      "winner's turn first, tied sides together (SEG-05, SEG-06, SEG-09)",
                      f"the spell in segment CT {ct} + penalty (Magic), the blow in Spd {sb} + penalty (Melee); a "
                      "caster damaged before its spell finishes loses it (SEG-06, SEG-09, SEG-12)")
    if ruleset in ("combat2-phase1", "combat2-phase2"):
        on_tie = opt.get("tie_track", "loser") == "winner"

        def won(own: int, other: int, dex: int) -> bool:
            mine = own - reaction_2e(dex)  # P1-02: the reaction adjustment off the side's d10
            return mine < other or (on_tie and mine == other)

        return _Model(10, lambda x, y: ((band(a.sf, won(x, y, a.dex)),), (band(b.sf, won(y, x, b.dex)),)),
                      lambda x, y: ((casting_half_segment(ct, won(x, y, a.dex)),), (band(b.sf, won(y, x, b.dex)),)),
                      True,
                      f"d10 per side, low wins; a combatant whose roll less its DEX reaction adjustment is below the "
                      f"other side's is on the winner track; SF {a.sf} and {b.sf} by band (P1-01, P1-02, P1-04)",
                      f"CT {ct} on the caster's track (odd half-segments for a winner, even for a loser) against the "
                      f"blow's SF {b.sf} band; the same half-segment is simultaneous and the spell completes "
                      "(P1-05, C2-06, C2-13)")
    if ruleset == "phase-count":
        pa, pb, ps = weapon_pm(a), weapon_pm(b), spell_pm(ct, spell_speed)
        # PC-02: phase 0 + d6 + PM; PC-06: in one phase spells, then melee; within a kind the low die first
        return _Model(6, lambda x, y: ((x + pa, 3, x), (y + pb, 3, y)),
                      lambda x, y: ((x + ps, 1, x), (y + pb, 3, y)), True,
                      f"the side's opening d6 + PM ({pa}, {pb}); in one phase the lower die first, equal together "
                      "(PC-02, PC-03, PC-06)",
                      f"the spell at d6 + PM {ps}, the blow at d6 + PM {pb}; in one phase spells complete first "
                      "(PC-02, PC-03, PC-06)")
    if ruleset == "d12-procedure":
        adjust = opt.get("side_dex", "leader") != "none"

        def count(roll: int, dex: int) -> int:
            return roll - (reaction_1e(dex) if adjust else 0)  # D12-04: d12 less the leader's DEX adjustment

        done = 10**6 if ct >= 10 else ct  # D12-05: a full-round spell resolves last in the round
        return _Model(12, lambda x, y: ((count(x, a.dex),), (count(y, b.dex),)),
                      lambda x, y: ((count(x, a.dex) + done,), (count(y, b.dex),)), True,
                      "d12 per side less the DEX adjustment, lowest count first, equal counts together (D12-04)",
                      f"the spell takes effect CT {ct} counts after the caster's count; damage before then spoils it, "
                      "on the same count it does not (D12-05, D12-07, D12-09)")
    raise OptionError(f"unknown ruleset {ruleset!r}; valid rulesets: {', '.join(RULESET_IDS)}")


def _check(ruleset: str, opt: Mapping[str, Any], a: Contender, b: Contender) -> None:
    if ruleset not in RULESET_IDS:
        raise OptionError(f"unknown ruleset {ruleset!r}; valid rulesets: {', '.join(RULESET_IDS)}")
    for name in opt:
        if name not in MODELLED_OPTIONS[ruleset]:
            allowed = ", ".join(MODELLED_OPTIONS[ruleset]) or "none"
            raise OptionError(f"option {name}: the odds of {ruleset} do not follow it (they follow: {allowed})")
    for who, c in (("A", a), ("B", b)):
        if c.speed is not None and c.speed not in PHASE_MODIFIER:
            raise OptionError(f"speed of {who}: {c.speed!r} is not a speed category ({', '.join(SPEED_CATEGORIES)})")


def _order(x: Moment, y: Moment) -> str:
    return "first" if x < y else "second" if y < x else "together"


def _dice(model: _Model, pair: Callable[[int, int], str]) -> icepool.Die[str]:
    die = icepool.d(model.die)
    return icepool.map(pair, die, die)


def first(ruleset: str, a: Contender, b: Contender, options: Mapping[str, Any] | None = None) -> Order:
    """Whose blow comes first, A's or B's, in a round without surprise."""
    opt = dict(options or {})
    _check(ruleset, opt, a, b)
    model = _model(ruleset, a, b, 1, None, opt)
    dist = _dice(model, lambda x, y: _order(*model.melee(x, y)))
    return Order(ruleset, dist.probability("first"), dist.probability("second"), dist.probability("together"),
                 model.rule)


def spell_vs_blow(ruleset: str, ct: int, attacker_sf: int, *, caster: Contender | None = None,
                  attacker: Contender | None = None, spell_speed: str | None = None,
                  options: Mapping[str, Any] | None = None) -> SpellOdds:
    """A spell of casting time ``ct`` (1-9 segments, 10 for "1 round"), begun at once, against a blow of SF
    ``attacker_sf`` aimed at the caster."""
    if not 1 <= ct <= 10:
        raise OptionError(f"--ct {ct}: a casting time of 1-9 segments, or 10 for 1 round")
    opt = dict(options or {})
    c = caster or Contender()
    att = Contender(attacker.dex if attacker else 10, attacker_sf, attacker.speed if attacker else None)
    if spell_speed is not None and spell_speed not in PHASE_MODIFIER:
        raise OptionError(f"spell speed {spell_speed!r} is not a speed category ({', '.join(SPEED_CATEGORIES)})")
    _check(ruleset, opt, c, att)
    model = _model(ruleset, c, att, ct, spell_speed, opt)
    order = _dice(model, lambda x, y: _order(*model.spell(x, y)))
    spell_first, blow_first = order.probability("first"), order.probability("second")
    together = order.probability("together")
    completes = spell_first + together + (0 if model.disrupts else blow_first)
    return SpellOdds(ruleset, spell_first, blow_first, together, Fraction(completes), model.spell_rule)
