"""Game time: each ruleset's clock converted to seconds, so that fights under different rulesets compare in minutes.

A moment of the timeline (an event's ``tick``) is turned into the game seconds elapsed from the start of the fight
to the end of the ruleset's smallest unit that holds it (a moment in the third half-segment of a round is 9 s
into it under Combat II). What each seed says a unit lasts:

- combat2-phase1, tick (round, phase, slot, sub): seed 000, a round is one minute of ten 6-second segments, so
  a half-segment is 3 s; phases 1-3 are half-segments 1-18 (slots 1-6 of each), the endphase 19-20 (P1-03).
- combat2-phase2, tick (cycle, phase, slot, sub): any three phases count as a round (P2-01), so a cycle of phases
  A, B, C is a minute, a phase 20 s and each of its six half-segments 20/6 s.
- side-d6, tick (round, turn, step, sub): a round is one minute (MJ-01); its steps are not timed within it, so an
  action counts at the round's end, the round's start (surprise, morale, declarations) at its start.
- speed-segments, tick (round, segment, turn, phase, sub): a round is about 20 seconds of about 10 segments
  (SEG-01): a segment is 2 s (a round running long to segment 12 runs 24 s).
- phase-count, tick (phase, stage, rank): a phase is 3 seconds, 20 to a one-minute round (PC-01).
- d12-procedure, tick (round, phase, count, sub, part): seed 004's turn is "10 rounds or 10 minutes", so a round is
  one minute; its initiative counts 1-12 are taken as twelfths of it, 5 s each (a count past 12, from a casting
  time, runs on; below 1, at the round's start). The seed does not time the counts: this is our reading.

A ruleset not listed counts one minute a period (``Fight.period``'s first element).
"""

from __future__ import annotations

from collections.abc import Callable

from affray.engine.events import Tick

__all__ = ["CLOCKS", "seconds_of"]

MINUTE = 60.0


def _combat2_phase1(t: Tick) -> float:
    start = (t[0] - 1) * MINUTE
    phase = t[1] if len(t) > 1 else 0
    slot = t[2] if len(t) > 2 else 0
    if phase == 0:  # the round's start: surprise, morale, initiative
        return start
    if phase >= 4:  # the endphase: half-segments 19 and 20, then the round's end
        return start + 3.0 * min(20, 18 + max(1, slot))
    first = 6 * (phase - 1)  # half-segments before this phase
    if slot == 0:  # the stating of intentions, as the phase begins
        return start + 3.0 * first
    return start + 3.0 * (first + min(6, slot))  # a half-segment, or the movement at the phase's end


def _combat2_phase2(t: Tick) -> float:
    start = (t[0] - 1) * MINUTE
    phase = t[1] if len(t) > 1 else 0
    slot = t[2] if len(t) > 2 else 0
    if phase == 0:
        return start
    return start + 20.0 * (phase - 1) + 20.0 * min(6, slot) / 6


def _side_d6(t: Tick) -> float:
    turn = t[1] if len(t) > 1 else 1
    return (t[0] - (1 if turn == 0 else 0)) * MINUTE


def _speed_segments(t: Tick) -> float:
    segment = t[1] if len(t) > 1 else 0
    start = (t[0] - 1) * 20.0
    if segment > 12:  # the round's bookkeeping (step E) after its last segment
        return start + 20.0
    return start + 2.0 * segment


def _phase_count(t: Tick) -> float:
    return 3.0 * t[0]


def _d12_procedure(t: Tick) -> float:
    start = (t[0] - 1) * MINUTE
    phase = t[1] if len(t) > 1 else 0
    if phase < 3:  # the start of the round, readied missiles, initiative
        return start
    if phase > 3:  # the round's end
        return start + MINUTE
    count = t[2] if len(t) > 2 else 1
    return start + 5.0 * max(0, count)


def _rounds(t: Tick) -> float:
    return t[0] * MINUTE


#: Each ruleset's tick in game seconds from the start of the fight.
CLOCKS: dict[str, Callable[[Tick], float]] = {
    "combat2-phase1": _combat2_phase1,
    "combat2-phase2": _combat2_phase2,
    "side-d6": _side_d6,
    "speed-segments": _speed_segments,
    "phase-count": _phase_count,
    "d12-procedure": _d12_procedure,
}


def seconds_of(ruleset: str) -> Callable[[Tick], float]:
    """The clock of ``ruleset``: a tick to game seconds from the start of the fight."""
    return CLOCKS.get(ruleset, _rounds)
