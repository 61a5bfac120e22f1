"""Each ruleset's moments as the sequence board's columns: which window (round, cycle, run of phases) a tick
falls in, and which column of it.

A ruleset's ticks are documented in its page (docs/rulesets/*.md, "Time in the timeline") and are what the
engine compares; a column here is a prefix of a tick, clamped, so that columns sort as ticks do: an event is
drawn in the column of its tick, and a later tick is never in an earlier column. Some columns are always drawn
(the procedure's steps, so an empty board still reads as the seed's procedure); the others only when
something happens there (a surprise, the end of a phase).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from affray.engine.events import Tick

__all__ = ["LATER", "Column", "Key", "Layout", "layout_for"]

Key = tuple[int, ...]
#: The column of what is placed beyond the window (a spell completing next round, a condition's far end).
LATER: Key = (1 << 30,)
_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return _ORDINAL.get(n, f"{n}th")


@dataclass(frozen=True)
class Column:
    """One moment of the window: its ``key`` (a clamped prefix of the ticks it holds), its short ``label`` (and a
    second line, ``sub``), the ``group`` it heads under (a phase, a side's turn) and its words in full (``tip``)."""

    key: Key
    label: str
    group: str
    tip: str
    sub: str = ""


@dataclass(frozen=True)
class Context:
    """What a window's columns may depend on beyond its ticks: the ruleset's options, the sides, and the order of
    the sides' turns as the window's initiative gave it (side -> rank, 1 first)."""

    options: Mapping[str, Any]
    sides: tuple[str, ...]
    ranks: Mapping[str, int]


class Layout:
    """The rounds-based default: a window is a round (``tick[0]``); each ruleset below names its own columns."""

    unit = "round"

    def window(self, tick: Tick) -> int:
        return tick[0]

    def title(self, window: int) -> str:
        return f"{self.unit.capitalize()} {window}"

    def key(self, tick: Tick) -> Key:
        return (tick[1] if len(tick) > 1 else 0,)

    def fixed(self, window: int, ctx: Context) -> list[Key]:
        return []

    def column(self, key: Key, ctx: Context) -> Column:
        return Column(key, str(key[0]), "", f"moment {key[0]}")

    def columns(self, window: int, ticks: Iterable[Tick], ctx: Context) -> list[Column]:
        """The window's columns in tick order: the fixed ones and those its ``ticks`` fall in."""
        keys = set(self.fixed(window, ctx)) | {self.key(t) for t in ticks if self.window(t) == window}
        return [self.column(k, ctx) for k in sorted(keys)]


class Combat2Layout(Layout):
    """Combat II, Phase System I: a tick is (round, phase, slot, sub); phase 0 the round's start, slot 0 a phase's
    intentions, 1-6 its half-segments (P1-03: 1-6, 7-12, 13-18), 7 its movement, 8 its end; phase 4 the endphase
    (half-segments 19, 20). Odd half-segments carry the winners' casting, even ones the losers' (P1-05)."""

    phases = ("1", "2", "3")

    def key(self, tick: Tick) -> Key:
        if len(tick) < 3 or tick[1] == 0:
            return (0, 0)
        if tick[1] > len(self.phases):
            return (len(self.phases) + 1, min(max(tick[2], 1), 3))
        return (tick[1], min(tick[2], 8))

    def fixed(self, window: int, ctx: Context) -> list[Key]:
        keys = [(0, 0)]
        for p in range(1, len(self.phases) + 1):
            keys += [(p, s) for s in range(8)]
        return keys + self._endphase()

    def _endphase(self) -> list[Key]:
        return [(4, 1), (4, 2)]

    def _half(self, phase: int, slot: int) -> int:
        return (phase - 1) * 6 + slot

    def column(self, key: Key, ctx: Context) -> Column:
        phase, slot = key
        if phase == 0:
            return Column(key, "S", "start", "the round's start: surprise, initiative, morale")
        if phase > len(self.phases):
            if slot >= 3:
                return Column(key, "E", "endphase", "the end of the round")
            n = 18 + slot
            track = "winner" if n % 2 else "loser"
            return Column(key, str(n), "endphase", f"half-segment {n}: \"1 round\" spells of the {track} track "
                          "complete (P1-05, P1-11)", "W" if n % 2 else "L")
        group = f"phase {self.phases[phase - 1]}"
        if slot == 0:
            return Column(key, "I", group, f"{group}: stating intentions, losers first (P1-08)")
        if slot == 7:
            return Column(key, "M", group, f"{group}: movement and miscellaneous actions, after the attacks (P1-10)")
        if slot >= 8:
            return Column(key, "E", group, f"{group}: the end of the phase")
        n = self._half(phase, slot)
        track = "winners'" if n % 2 else "losers'"
        return Column(key, str(n), group, f"{group}, half-segment {n}: the {track} casting track (P1-05)",
                      "W" if n % 2 else "L")


class Phase2Layout(Combat2Layout):
    """Combat II, Phase System II: a window is a cycle of phases A, B, C (P2-01); a tick is (cycle, phase, slot,
    sub) with half-segments 1-6 in each phase, and slot 8 the phase's end."""

    unit = "cycle"
    phases = ("A", "B", "C")

    def title(self, window: int) -> str:
        return f"Cycle {window} (phases A, B, C)"

    def _endphase(self) -> list[Key]:
        return []

    def _half(self, phase: int, slot: int) -> int:
        return slot


class SideD6Layout(Layout):
    """side-d6: a tick is (round, turn, step, sub); turn 0 the round's start (step 0 surprise, 1 morale, 2
    declarations, 3 initiative and casting begun, 4 withdrawals), turn k the k-th side's steps 4-8 (MJ-05)."""

    steps: ClassVar[dict[int, tuple[str, str]]] = {
        4: ("move", "movement"), 5: ("shot", "missiles"), 6: ("spell", "spells take effect"), 7: ("melee", "melee"),
        8: ("misc", "miscellaneous actions")}
    start: ClassVar[dict[int, tuple[str, str]]] = {
        0: ("S", "step 0: surprise (MJ-08)"), 1: ("1", "step 1: morale (MJ-02)"),
        2: ("2", "step 2: declarations, the player characters first (MJ-03)"),
        3: ("3", "step 3: initiative; spells begin (MJ-04)"), 4: ("W", "withdrawals, at the round's start (MJ-10)")}

    def key(self, tick: Tick) -> Key:
        if len(tick) < 3:
            return (0, 0)
        if tick[1] == 0:
            return (0, min(tick[2], 4))
        return (tick[1], min(max(tick[2], 4), 8))

    def _turns(self, ctx: Context) -> int:
        return max(ctx.ranks.values(), default=len(ctx.sides) or 1)

    def fixed(self, window: int, ctx: Context) -> list[Key]:
        keys: list[Key] = [(0, 1), (0, 2), (0, 3)]
        return keys + [(k, s) for k in range(1, self._turns(ctx) + 1) for s in range(4, 9)]

    def column(self, key: Key, ctx: Context) -> Column:
        turn, step = key
        if turn == 0:
            label, tip = self.start[step]
            return Column(key, label, "start", tip)
        sides = [s for s, r in ctx.ranks.items() if r == turn]
        if not sides:  # before initiative (MJ-04): whose turn comes 1st is not known yet
            group = f"{ordinal(turn)} turn"
        elif len(sides) > 1:  # a tie (MJ-07): its `at` says "party and orcs together", too long for a group's head
            group = f"{' + '.join(sides)} ({ordinal(turn)})"
        else:
            group = f"{sides[0]} ({ordinal(turn)})"
        short, words = self.steps[step]
        return Column(key, str(step), group, f"{group}, step {step}: {words} (MJ-05)", short)


class SegmentsLayout(Layout):
    """speed-segments: a tick is (round, segment, turn, phase, sub); segment 0 the round's start (A surprise, B
    declarations, C initiative, then casting begun), segments 1 on the actions (SEG-01), 99 step E."""

    start: ClassVar[dict[int, tuple[str, str]]] = {
        0: ("A", "A: surprise (SEG-03)"), 1: ("B", "B: declarations (SEG-04)"), 2: ("C", "C: initiative (SEG-05)"),
        3: ("S", "the round's start: casting begun (SEG-12)")}

    def key(self, tick: Tick) -> Key:
        if len(tick) < 4:
            return (0, 0)
        if tick[1] == 0:
            return (0, min(tick[3], 3))
        return (tick[1], 0)

    def fixed(self, window: int, ctx: Context) -> list[Key]:
        n = ctx.options.get("round_segments", 10)
        keys: list[Key] = [(0, 1), (0, 2)]
        return keys + [(s, 0) for s in range(1, (n if isinstance(n, int) else 10) + 1)]

    def column(self, key: Key, ctx: Context) -> Column:
        seg, part = key
        if seg == 0:
            label, tip = self.start[part]
            return Column(key, label, "start", tip)
        if seg >= 99:
            return Column(key, "E", "end", "step E: the end of the round (SEG-01)")
        return Column(key, str(seg), "segments", f"segment {seg}: its sides' turns in initiative order, each "
                      "movement, missile, magic, melee, morale (SEG-06)")


class PhaseCountLayout(Layout):
    """phase-count: no rounds (PC-01); a tick is (phase, stage, rank) and a window is a run of ten phases, as the
    readable timeline heads them ("Phases 10-19")."""

    unit = "phases"

    def window(self, tick: Tick) -> int:
        return tick[0] // 10 + 1

    def title(self, window: int) -> str:
        return f"Phases {(window - 1) * 10}-{window * 10 - 1}"

    def key(self, tick: Tick) -> Key:
        return (tick[0],)

    def fixed(self, window: int, ctx: Context) -> list[Key]:
        return [(p,) for p in range((window - 1) * 10, window * 10)]

    def column(self, key: Key, ctx: Context) -> Column:
        first = key[0] // 5 * 5
        return Column(key, str(key[0]), f"phases {first}-{first + 4}", f"phase {key[0]}")


class D12Layout(Layout):
    """d12-procedure: a tick is (round, phase, count, sub, part); phase 0 the round's start, 1 readied missiles,
    2 initiative, 3 the counts (lowest first, D12-04: below 1 or above 12 with DEX or a casting time), 4 the end."""

    def key(self, tick: Tick) -> Key:
        if len(tick) < 3:
            return (0, 0)
        phase = min(tick[1], 4)
        return (3, tick[2]) if phase == 3 else (phase, 0)

    def fixed(self, window: int, ctx: Context) -> list[Key]:
        keys: list[Key] = [(0, 0), (2, 0)]
        return keys + [(3, c) for c in range(1, 13)]

    def column(self, key: Key, ctx: Context) -> Column:
        phase, count = key
        if phase == 3:
            return Column(key, str(count), "counts", f"count {count}: those whose d12 (adjusted) comes up, lowest "
                          "first (D12-04)")
        label, group, tip = {0: ("S", "start", "the round's start: surprise, expiries, morale, readied missiles "
                                 "declared"),
                             1: ("R", "start", "readied missiles fire, before initiative (D12-08)"),
                             2: ("I", "start", "initiative: each side's d12 (D12-03)"),
                             4: ("E", "end", "the end of the round")}[phase]
        return Column(key, label, group, tip)


_LAYOUTS: dict[str, Layout] = {
    "combat2-phase1": Combat2Layout(),
    "combat2-phase2": Phase2Layout(),
    "side-d6": SideD6Layout(),
    "speed-segments": SegmentsLayout(),
    "phase-count": PhaseCountLayout(),
    "d12-procedure": D12Layout(),
}


def layout_for(ruleset: str) -> Layout:
    """The ruleset's columns; a ruleset not known here (a plug-in's) gets a round's columns by its ticks' second
    place."""
    return _LAYOUTS.get(ruleset, Layout())
