"""Combat II (seed 000): the tables and reckonings both phase systems share (RULES.md C2, P1-04, P1-05).

Pure functions of numbers, so that Phase System I and II place actions the same way and a reader can
check each one against Table 1, 2 or 3 of the seed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from affray.engine.state import UNARMED
from affray.model.arms import Arms
from affray.model.derive import NATURAL_SF

if TYPE_CHECKING:
    from affray.engine.state import Fighter

__all__ = [
    "BANDS",
    "NATURAL_SF",
    "SITUATIONS",
    "SIZE_SF_ADJUSTMENT",
    "Speed",
    "adjusted_sf",
    "band",
    "band_text",
    "ct_half_segment",
    "half_segment_moves",
    "squares_per_half_segment",
    "squares_per_phase",
]

#: P1-04 (Table 1): the winner's half-segment of a phase by adjusted SF; a loser's is one later.
BANDS: tuple[tuple[int, int | None, str], ...] = ((0, 1, "<2"), (2, 3, "2-3"), (4, 6, "4-6"), (7, 9, "7-9"),
                                                  (10, None, "10+"))
#: C2-02 (Table 2): the adjustment to a weapon's SF by the wielder's size (its natural-attack SF: ``NATURAL_SF``).
SIZE_SF_ADJUSTMENT = {"tiny": -1, "small": -1, "medium": 0, "large": 1, "huge": 2, "gargantuan": 4}
#: C2-29: the PH's Table 55 read as SF modifiers.
SITUATIONS = {"hasted": -2, "slowed": 2, "higher ground": -1, "set to receive": -2, "wading": 2,
              "deep water": 4, "underwater": 6, "hindered": 3, "waiting": 1}


class Speed:
    """An adjusted speed factor and the terms it was summed from, for the ``why`` text."""

    __slots__ = ("sf", "terms")

    def __init__(self, sf: int, terms: list[str]) -> None:
        self.sf = sf
        self.terms = terms

    def text(self) -> str:
        return f"SF {self.sf} ({' '.join(self.terms)})" if len(self.terms) > 1 else f"SF {self.sf}"


def natural_attack(f: Fighter, weapon: Arms) -> bool:
    """A weapon marked natural or with no SF is a natural attack (claw, bite); so is a monster's bare attack
    (C2-02)."""
    return weapon.natural or weapon.sf is None or (weapon is UNARMED and f.klass == "monster")


def adjusted_sf(f: Fighter, weapon: Arms, extra: list[tuple[int, str]] | None = None) -> Speed:
    """C2-01: base SF - magic - style specialisation; C2-02 size; then situational terms (C2-03, C2-04...)."""
    size = f.size
    if natural_attack(f, weapon):
        sf = NATURAL_SF[size]
        terms = [f"{weapon.name}: natural attack, {size} {sf} (C2-02)"]
    else:
        sf = weapon.sf or 0
        terms = [f"{weapon.name} {sf}"]
        if weapon.magic:
            sf -= weapon.magic
            terms.append(f"- magic {weapon.magic}")
        if weapon.style:
            sf -= weapon.style
            terms.append(f"- style {weapon.style}")
        # C2-02: monsters always; characters only when enlarged or diminished beyond their usual size
        adjust = SIZE_SF_ADJUSTMENT[size]
        if adjust and (f.klass == "monster" or size not in ("small", "medium")):
            sf += adjust
            terms.append(f"{adjust:+d} {size}")
    for n, why in extra or ():
        sf += n
        terms.append(f"{n:+d} {why}")
    return Speed(max(0, sf), terms)


def band(sf: int, *, winner: bool) -> int:
    """P1-04: the half-segment (1-6) of a phase at which an attack of adjusted SF ``sf`` lands."""
    k = 1 if sf < 2 else 2 if sf <= 3 else 3 if sf <= 6 else 4 if sf <= 9 else 5
    return k if winner else k + 1


def band_text(sf: int) -> str:
    return next(label for lo, hi, label in BANDS if hi is None or sf <= hi)


def ct_half_segment(units: int, *, winner: bool) -> int:
    """P1-05: the half-segment, counted from the start of the casting phase (1 = its first), on which the
    ``units``-th active half-segment of the caster's track falls: winners odd, losers even."""
    return 2 * units - 1 if winner else 2 * units


def squares_per_phase(mv: int) -> int:
    """C2-23, Table 3: 10-ft squares per phase, MV / 3 rounded down."""
    return mv // 3


def squares_per_half_segment(mv: int) -> tuple[int, int]:
    """C2-23, Table 3: (most, least) squares per half-segment: ceil and floor of (MV / 3) / 6."""
    per_phase = squares_per_phase(mv)
    return math.ceil(per_phase / 6), per_phase // 6


def half_segment_moves(squares: int) -> list[int]:
    """C2-23: ``squares`` spread evenly over the six half-segments, the earliest first (cumulative ceiling)."""
    out = []
    done = 0
    for s in range(1, 7):
        upto = math.ceil(squares * s / 6)
        out.append(upto - done)
        done = upto
    return out
