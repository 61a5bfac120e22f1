"""speed-segments, what the ruleset and its list of actions share: the options, the fight's own state, and the
reckonings both make (the segment a count lands in, a side's penalties, the words for a tick, morale).

Read with ``speed_segments`` (the round) and ``speed_segments_actions`` (one declaration -> timed parts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from affray.dice.expr import parse_dice
from affray.engine.events import Morale, Tick
from affray.engine.fight import Fight
from affray.engine.options import BaseOptions, default_morale, morale_dice, option
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.engine.words import the
from affray.model.encounter import SIZES, Declaration
from affray.model.order import Order
from affray.reckon import morale_score, turn_sides

__all__ = ["END", "PHASES", "PH_NATURAL_SPD", "Busy", "SegmentsState", "SpeedSegmentsOptions", "Waiting", "moment",
           "morale", "penalty", "place", "push"]

#: The 2e PH's optional initiative modifiers by size for monsters attacking with natural weapons only (Table 57),
#: speed-segments' ``natural_spd: ph``.
PH_NATURAL_SPD = {"tiny": 0, "small": 3, "medium": 3, "large": 6, "huge": 9, "gargantuan": 12}
PHASES = {1: "movement", 2: "missile", 3: "magic", 4: "melee", 5: "morale"}
END = 99  # the turn of a segment's end (damage landing) and the segment of step E
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class SpeedSegmentsOptions(BaseOptions):
    """The Decisions of SEG-01 to SEG-20 and the defaults of SEG-07, with the digest's defaults."""

    morale_dice: str = morale_dice("2d6")
    default_morale: int = default_morale(7)
    round_segments: int = option(10, "SEG-01", "segments in a round", minimum=1)
    overrun: int = option(2, "SEG-01", "segments a round may run past round_segments before actions spill over",
                          minimum=0)
    spill_over: bool = option(True, "SEG-01", "an action later than round_segments + overrun happens in the next "
                              "round at its segment minus round_segments (false: it does not happen)")
    change_penalty: int = option(0, "SEG-04", "extra segments for a declaration changed mid-round; the new action "
                                 "counts its speed from the segment of the change", minimum=0)
    specialist_speed: bool = option(False, "SEG-08", "weapon specialization lowers weapon Spd by 1 at all times")
    natural_spd: str = option("c2", "SEG-08", "the Spd of a natural attack (claw, bite) no Spd is listed for, by the "
                              "creature's size: Combat II's Table 2 (c2: tiny 0, small 2, medium 3, large 6, huge 8, "
                              "gargantuan 10; C2-02), or the 2e PH's optional initiative modifiers for natural "
                              "weapons (ph: tiny 0, small and medium 3, large 6, huge 9, gargantuan 12)",
                              ("c2", "ph"))
    last_gasp: bool = option(False, "SEG-12", "a caster killed in the segment its spell finishes still gets it off "
                             "if still standing at its magic phase")
    move_penalty: int = option(-2, "SEG-07", "to-hit penalty of a split-move or half-move attack")
    move_segment: int = option(5, "SEG-07", "segment of a pure half move, shift, withdrawal, retreat or flight (a "
                               "full move: this and twice this)", minimum=1)
    misc_speed: int = option(5, "SEG-07", "segment of rally, imbibe, finish activity and other misc actions "
                             "without a speed", minimum=1)
    delay_segments: int = option(2, "SEG-07", "segments a parley, spectacle or bait holds the count", minimum=1)
    giant_size: str = option("huge", "SEG-15", "the least size of a giant creature whose charge makes targets of "
                             "fewer than 4 HD check morale", SIZES)
    rear_bonus: int = option(2, "SEG-14", "to-hit bonus of an engaged foe's attack from the rear on one who breaks "
                             "and runs")
    surprised_declare: str = option("count", "SEG-03", "when a surprised party declares, 'after the unsurprised have "
                                    "declared intentions and begun acting': once the count has begun, at segment 1 "
                                    "before anyone acts (count), or at the end of the first segment in which an "
                                    "unsurprised party acted, none of its actions coming before the next (acted)",
                                    ("count", "acted"))


class Waiting(NamedTuple):
    """A held action (SEG-07, SEG-13) or a pass-through shot (SEG-16): whose action of which kinds ends it, and
    the declaration that then follows (None: the waiter's next plan item)."""

    trigger: str
    kinds: frozenset[str]
    decl: Order | None


class Busy(NamedTuple):
    """A spell that spills into a later round (SEG-01): the round and segment it finishes, and its step's tick."""

    round: int
    segment: int
    spell: str | None
    tick: Tick


@dataclass
class SegmentsState:
    """One fight's bookkeeping (``Fight.memo``). The first group starts afresh each round (``begin``)."""

    #: Every step placed this round, by actor: a change (SEG-04), a delay (SEG-13) or a rout (SEG-15) moves them.
    steps: dict[str, list[Step]] = field(default_factory=dict)
    #: Held actions and pass-through shots by waiter (SEG-07, SEG-13, SEG-16).
    waits: dict[str, Waiting] = field(default_factory=dict)
    #: The exploit step of each stunt (SEG-18): the stunt's success marks it set up.
    exploit: dict[str, Step] = field(default_factory=dict)
    #: This round's surprise penalty by side (SEG-03: round 1 only).
    surprise: dict[str, int] = field(default_factory=dict)
    #: This round's initiative: each side's d6, a loser's penalty (SEG-06) and the winning roll.
    init_rolls: dict[str, int] = field(default_factory=dict)
    init_penalties: dict[str, int] = field(default_factory=dict)
    init_best: int = 0
    #: This round's declarations so far, in order: a later declarer, the surprised above all, knows them (SEG-04).
    declared: list[tuple[str, Order]] = field(default_factory=list)
    # -- kept from round to round --
    #: Casters whose spell finishes in a later round (SEG-01): no declaration until then.
    busy: dict[str, Busy] = field(default_factory=dict)
    #: The tick each caster's spell finishes (SEG-12's last gasp).
    finish: dict[str, Tick] = field(default_factory=dict)
    #: The damage of the last missile or spell hit, on its way and not yet off the hit points (SEG-10, SEG-12).
    landing: int = 0

    def new_round(self) -> None:
        """Step B of a round: this round's steps, waits and exploits start empty."""
        self.steps = {}
        self.waits = {}
        self.exploit = {}
        self.declared = []

    def heard(self) -> tuple[tuple[str, Declaration], ...]:
        return tuple((name, d.source) for name, d in self.declared)


def push(fight: Fight[SegmentsState], step: Step) -> None:
    """Place ``step`` and remember it as its actor's, for what moves or cancels it later."""
    fight.memo.steps.setdefault(step.actor.name, []).append(step)
    fight.push(step)


def place(opt: SpeedSegmentsOptions, rnd: int, seg: int) -> tuple[int, int] | None:
    """SEG-01: a segment past round_segments + overrun spills into the next round (or is lost)."""
    length, limit = opt.round_segments, opt.round_segments + opt.overrun
    seg = max(1, seg)
    if seg <= limit:
        return rnd, seg
    if not opt.spill_over:
        return None
    while seg > limit:
        seg -= length
        rnd += 1
    return rnd, seg


def penalty(fight: Fight[SegmentsState], f: Fighter, rnd: int) -> list[tuple[int, str]]:
    """The side's penalties this round: surprise (round 1) and lost initiative, each with its reason."""
    memo = fight.memo
    ex = fight.explain  # the reasons are words of the explanation only
    terms: list[tuple[int, str]] = []
    surprise = memo.surprise.get(f.side, 0) if rnd == 1 else 0
    if surprise:
        terms.append((surprise, f"{f.side} surprised, SEG-03" if ex else ""))
    pen = memo.init_penalties
    if pen.get(f.side):
        terms.append((pen[f.side], f"{the(f.side)} lost initiative {memo.init_rolls[f.side]} vs {memo.init_best}: +1 "
                                   "per 2 pips, SEG-06" if ex else ""))
    return terms


def moment(fight: Fight[SegmentsState], tick: Tick) -> str:
    """The words for ``tick`` (round, segment, turn, phase, sub); none in the lean mode."""
    if not fight.explain:
        return ""
    rnd, seg, turn, phase = tick[0], tick[1], tick[2], tick[3]
    if seg == 0:
        return f"round {rnd}, start"
    if seg == END:
        return f"round {rnd}, E (morale and bookkeeping)"
    if turn == END:
        return f"round {rnd}, end of segment {seg} (missile and spell effects land)"
    if turn == 0:
        return f"round {rnd}, segment {seg}, before anyone acts"
    who = turn_sides(fight, turn)
    return f"round {rnd}, segment {seg}, {who} ({ORDINAL.get(turn, f'{turn}th')}), {PHASES[phase]} phase"


def morale(fight: Fight[SegmentsState], opt: SpeedSegmentsOptions, side: str, members: list[Fighter],
           given: int | None, tick: Tick, at: str, triggers: tuple[str, ...], why: str, *,
           rally: bool = False) -> bool:
    """Roll the morale dice against the side's score: above it fails (G-07); a rally passing restores."""
    dice = parse_dice(opt.morale_dice)
    score = morale_score(fight, opt, side, members)
    roll = fight.roller.dice(dice, "morale", side, given=given) + dice.bonus
    passed = roll <= score
    surrender = not passed and not rally and opt.morale_failure == "surrender"
    result = ("rallied" if rally else "passes") if passed else (
        "stays broken" if rally else "fails: surrenders" if surrender else "fails: flees")
    who = ", ".join(m.name for m in members)
    fight.record(Morale(tick, at, fight.round_at(tick), None, passed=passed, why=why,
                        detail=f"{who}: {side} morale {dice.text}={roll} vs {score}: {result}",
                        side=side, members=tuple(m.name for m in members), triggers=triggers, surrender=surrender,
                        rally=rally, rolls=fight.rolls()))
    return passed
