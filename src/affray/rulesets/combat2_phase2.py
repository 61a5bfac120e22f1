"""combat2-phase2: seed 000 (Combat II) section 3, Phase System II: an endless cycle of phases A, B, C.

Read it beside ``../shared/seeds/000_*.txt`` section 3 (Tables 4-7) and RULES.md P2-01..P2-10.
Everything of Phase System I holds (P2-10) except:

- there are no rounds: phases A, B, C follow one another, each of six half-segments with Table 1's
  bands and casting tracks (Table 4); initiative is rolled at the start of every A and holds
  through C (P2-01, P2-02);
- a spell begins at the start of any phase and runs its CT units on, three active half-segments a
  phase on the track of the phase it is in (P2-04); a "1 round" spell goes off after everything
  else, movement included, at the end of its third phase;
- after completing a spell the caster waits two phases before casting or attacking (P2-06; option
  ``caster_delay_by_level``: Table 5); after a physical attack, two before casting;
- attacks follow a schedule by attacks per round (Table 6; missiles: fire rate x attacks, P2-08;
  split attack forms: Table 7), begun at any phase, restarted by any delay outside it (P2-07);
- two weapons with different rates follow the favoured weapon's schedule, alternating two-weapon
  and one-weapon attacks (P2-09).

A tick is ``(cycle, phase, slot, sub)`` with phase 1-3 for A-C, slot 0 the intentions, 1-6 the
half-segments, 7 the movement, 8 the end of the phase (a "1 round" spell). ``round`` is null in
the timeline; a cycle counts as a round for ``--max-rounds`` and for ``rolls`` (initiative and
morale by cycle).

A spell's ``duration`` ("2 rounds", "1 turn", "4 phases", "4 segments") ends with an ``expire`` event at
the end of its phase (P2-05: a round is three phases, a turn thirty; segments are CT units, three a phase by
Table 4, option ``segments_per_phase``). Simplified as in ``combat2_phase1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mypy_extensions import mypyc_attr

from affray.engine.events import Expire, Tick
from affray.engine.fight import Fight
from affray.engine.options import option
from affray.engine.rules import Rule
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.model.arms import Arms
from affray.model.encounter import Declaration, parse_duration
from affray.model.order import Order
from affray.rulesets.combat2 import ct_half_segment
from affray.rulesets.combat2_attacks import Combat2Attacks, below_1_hd
from affray.rulesets.combat2_base import Book, Combat2Phase1Options, Memo, Words, book
from affray.rulesets.combat2_casting import ROUND_CT, Combat2Casting
from affray.rulesets.combat2_movement import Combat2Movement
from affray.rulesets.combat2_phase1 import Combat2Phase1, Combat2Rules

__all__ = ["SCHEDULES", "Combat2Phase2", "Combat2Phase2Options", "Combat2Phase2Rules", "CycleWords", "Phase2Attacks",
           "Phase2Casting", "schedule"]

LETTERS = "ABC"
#: P2-07 (Table 6): attacks in each phase of the sequence, by attacks per round (0: a delay).
SCHEDULES: dict[Fraction, tuple[int, ...]] = {
    Fraction(1): (1, 0, 0),
    Fraction(3, 2): (1, 0),
    Fraction(2): (1, 1, 0),
    Fraction(5, 2): (1, 1, 1, 0, 1, 1),
    Fraction(3): (1,),
    Fraction(4): (1, 2, 1),
    Fraction(5): (2, 2, 1),
    Fraction(6): (2,),
}
#: P2-09 (Table 7): attack forms in each phase, by the number of forms.
FORM_SCHEDULES: dict[int, tuple[int, ...]] = {1: (1, 0, 0), 2: (1, 1, 0), 3: (1,), 4: (1, 2, 1), 5: (2, 2, 1),
                                              6: (2,)}
#: P2-06 (Table 5, the optional rule): delay after a spell by caster level; 13+ casts twice, then delays 1.
CASTER_DELAY = ((6, 2), (12, 1))


def schedule(attacks: Fraction | int) -> tuple[int, ...]:
    """Table 6's sequence for ``attacks`` per round; below 1, one attack then the delays that make it up
    (1/2: attack and five delays); above 6, two every phase; between rows, the row below. Kept by numerator and
    denominator: asked before every attack, and a Fraction's own hash is slow."""
    key = (attacks.numerator, attacks.denominator)
    hit = _SCHEDULE_OF.get(key)
    if hit is None:
        hit = _SCHEDULE_OF[key] = _schedule(Fraction(attacks))
    return hit


_SCHEDULE_OF: dict[tuple[int, int], tuple[int, ...]] = {}


def _schedule(n: Fraction) -> tuple[int, ...]:
    if n in SCHEDULES:
        return SCHEDULES[n]
    if n < 1:
        return (1,) + (0,) * (int(3 / n) - 1)
    if n > 6:
        return (2,)
    return SCHEDULES[max(k for k in SCHEDULES if k < n)]


def _text(pattern: tuple[int, ...]) -> str:
    return ", ".join("delay" if n == 0 else "attack" if n == 1 else f"{n} attacks" for n in pattern)


@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class Combat2Phase2Options(Combat2Phase1Options):
    """Phase System I's options and P2-06's."""

    caster_delay_by_level: bool = option(False, "P2-06", "Table 5: the delay before the next spell shortens with "
                                         "caster level (1-6: 2 phases, 7-12: 1, 13+: two spells, then 1)")


class Combat2Phase2(Combat2Phase1):
    """Seed 000 Phase System II: phases A, B, C without rounds; attack and casting delay schedules."""

    id = "combat2-phase2"
    title = "Combat II, Phase System II: continuous phases A-B-C, attack and casting delay schedules"
    seed = "000"
    rule_ids = "C2, P2"
    Options = Combat2Phase2Options
    has_rounds = False

    def rules(self) -> list[Rule]:
        return [Combat2Phase2Rules(self)]

    def parts(self) -> tuple[Words, Combat2Attacks, Combat2Casting, Combat2Movement]:
        """Phase System II's words for moments, its attack schedules and its casting over phases; moves as I's."""
        opt = self.opt
        assert isinstance(opt, Combat2Phase2Options)
        words = CycleWords()
        attacks = Phase2Attacks(opt, words)
        return words, attacks, Phase2Casting(opt, words), Combat2Movement(opt, words, attacks)

    # -- the clock -------------------------------------------------------------------------------------
    @classmethod
    def heading(cls, tick: Tick) -> str | None:
        return f"Cycle {tick[0]} (phases A, B, C)"

    def _round_end(self, rnd: int) -> Tick:
        return (rnd, 3, 9, 0)

    def _declare(self, fight: Fight[Memo], f: Fighter, b: Book, tick: Tick, at: str, period: int,
                 known: tuple[tuple[str, Declaration], ...] = ()) -> Order | None:
        # P2-07: a phase without an attack either serves the schedule's delay or, in an attack slot, restarts it
        if b.pattern and b.attacked_phase != period - 1:
            if b.pattern[b.sched_pos] == 0:
                b.sched_pos = (b.sched_pos + 1) % len(b.pattern)
                if b.sched_pos == 0:  # the sequence begins anew: both weapons again (P2-09)
                    b.sched_attacks = 0
            else:  # an attack slot left unused: the sequence starts over (P2-07)
                b.sched_pos = b.sched_attacks = 0
                b.next_forms = set()
        return super()._declare(fight, f, b, tick, at, period, known)

    own_kinds = frozenset({"expire", "heal-touch"})

    def resolve_own(self, fight: Fight[Memo], step: Step) -> None:
        """An effect's end comes even if its caster has fallen; a healing touch as Phase System I's."""
        if step.kind != "expire":
            super().resolve_own(fight, step)
            return
        fight.emit(Expire, step.tick, step.at, step.actor.name, spell=step.spell.name if step.spell else None,
                   target=step.target, why=step.why, detail=f"{step.spell.name if step.spell else 'the effect'} ends")

class CycleWords(Words):
    """Phase System II's words for a moment: "cycle 2, phase B, half-segment 3 (winner)" (Table 4)."""

    def at(self, rnd: int, phase: int, what: str) -> str:
        if phase == 0:
            return f"cycle {rnd}, {what}"
        return f"cycle {rnd}, phase {LETTERS[phase - 1]}, {what}"

    def hs_name(self, phase: int, slot: int) -> str:
        return f"half-segment {slot} of phase {LETTERS[phase - 1]}"

    def phase_name(self, period: int) -> str:
        return f"phase {LETTERS[(period - 1) % 3]} of cycle {(period + 2) // 3}"


class Phase2Attacks(Combat2Attacks):
    """P2-06 no attack soon after a spell; P2-07 Table 6's schedules; P2-09 Table 7 and two weapons."""

    def _pattern(self, f: Fighter, d: Order, target: Fighter | None, rnd: int) -> tuple[int, ...]:
        if self.opt.split_forms and self._routine(f, d) is not None:
            forms = len({w.name for w in f.weapons})
            return FORM_SCHEDULES.get(min(forms, 6), (1, 0, 0))
        n: Any = self._attacks(f, d)
        if target is not None and f.klass == "fighter" and f.level and below_1_hd(target):
            n = max(n, f.level)  # C2-25: a fighter's attacks against creatures below 1 HD
        return schedule(n)

    def _barred(self, fight: Fight[Memo], b: Book, d: Order, period: int, rnd: int) -> tuple[str, str] | None:
        """P2-06 a caster's wait after a spell (not for the touch that delivers it: C2-09 "unless the spell requires a
        melee attack", C2-10); C2X-03 a sequence lost to a critical miss."""
        if b.spell_done and period <= b.spell_done + 2 and not d.extra.get("touch"):
            return (f"a caster waits two phases after completing a spell before attacking physically: spell done in "
                    f"{self.words.phase_name(b.spell_done)} (P2-06)", "a phase")
        if period < b.sequence_resumes:
            return (f"a critical miss lost the rest of its attack sequence; the next begins in "
                    f"{self.words.phase_name(b.sequence_resumes)} (C2X-03)", "a phase")
        return None

    def _attack_blocked(self, fight: Fight[Memo], f: Fighter, b: Book, d: Order, target: Fighter | None,
                        rnd: int, phase: int, period: int) -> tuple[str, str] | None:
        barred = self._barred(fight, b, d, period, rnd)
        if barred is not None:
            return barred
        pattern = self._pattern(f, d, target, rnd)
        if pattern != b.pattern:
            b.pattern, b.sched_pos = pattern, 0
        if pattern[b.sched_pos] == 0:
            return (f"its attack schedule ({_text(pattern)}) has a delay this phase (P2-07)" if fight.heard else "",
                    "a phase")
        return None

    def _second_blow(self, fight: Fight[Memo], f: Fighter, b: Book, d: Order, target: Fighter | None, rnd: int,
                     phase: int) -> str:
        if b.pattern and b.pattern[b.sched_pos] == 2:
            return f"its schedule ({_text(b.pattern)}) gives 2 attacks this phase (P2-07)"
        return ""

    def _spend(self, f: Fighter, b: Book, d: Order, target: Fighter | None, rnd: int, period: int,
               blows: int) -> None:
        b.sched_pos = (b.sched_pos + 1) % len(b.pattern) if b.pattern else 0
        b.sched_attacks += 1
        if b.sched_pos == 0:  # the sequence begins anew (P2-09: both weapons again)
            b.sched_attacks = 0

    def _refund(self, b: Book) -> None:
        """C2-04: the target fell first and nothing was swung: the schedule's slot is not spent."""
        if b.pattern:
            b.sched_pos = (b.sched_pos - 1) % len(b.pattern)
            b.sched_attacks = max(0, b.sched_attacks - 1)
        b.attacked_phase = 0

    def unmade(self, b: Book) -> None:
        """P2-07: "In the event of an unexpected or even voluntary phase delay, the sequence starts over with the next
        attack": a blow its maker could not strike (asleep, held...) is such a delay, and not an attack made."""
        b.sched_pos = b.sched_attacks = 0
        b.next_forms = set()
        b.attacked_phase = 0

    def _routine_parts(self, f: Fighter, b: Book, parts: list[tuple[Arms, str]],
                       rnd: int) -> list[tuple[Arms, str]]:
        """P2-09: split forms take as many forms as Table 7 allows this phase; a slower off-hand weapon joins
        every other attack of the favoured weapon's schedule."""
        if self.opt.split_forms:
            # Table 7: the next forms of the routine substitute for the delays of one attack a round
            allowed = b.pattern[b.sched_pos] if b.pattern else 1
            names = list(dict.fromkeys(w.name for w, _ in parts))
            fresh = [n for n in names if n not in b.next_forms]
            if not fresh:  # every form has struck: the routine begins again
                b.next_forms, fresh = set(), names
            chosen = set(fresh[:allowed])
            b.next_forms |= chosen
            return [(w, t) for w, t in parts if w.name in chosen]
        favoured = self._rate(f, f.weapons[0])
        paired = b.sched_attacks % 2 == 0
        return [(w, t) for w, t in parts if paired or w is f.weapons[0] or self._rate(f, w) >= favoured]


class Phase2Casting(Combat2Casting):
    """P2-04 a spell's units run on over phases; P2-06 the casting delays (Table 5)."""

    def __init__(self, opt: Combat2Phase2Options, words: Words) -> None:
        super().__init__(opt, words)
        self.delay_by_level = opt.caster_delay_by_level  # Table 5

    def phase_started(self, fight: Fight[Memo], rnd: int, phase: int, period: int) -> None:
        """P2-04: a spell that completes in this phase gets its half-segment on this phase's track. No rounds:
        nothing is held over a round's end (P2-01)."""
        for f in fight.state.fighters.values():
            b = book(fight, f)
            if b.completes_in == period and f.active and f.casting is not None and b.casting_decl is not None:
                b.completes_in = 0
                self.complete(fight, f, b, b.casting_decl, rnd, phase, b.units_left)

    def _cast_blocked(self, fight: Fight[Memo], f: Fighter, b: Book, rnd: int, period: int) -> tuple[str, str] | None:
        if b.next_cast > period:
            return (f"casting delay: the next spell may begin in {self.words.phase_name(b.next_cast)} (P2-06)",
                    "a phase")
        if b.attacked_phase and period <= b.attacked_phase + 2:
            return (f"a caster waits two phases after a physical attack ({self.words.phase_name(b.attacked_phase)}) "
                    "before casting (P2-06)", "a phase")
        return None

    def cast(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, period: int) -> None:
        b = book(fight, f)
        spell = f.spells[d.cast or ""]
        if not self._may_begin(fight, f, b, d, spell, rnd, phase, period):
            return
        units, terms = self._units(d, spell, self.opt.hold_spells)
        if spell.ct >= ROUND_CT:
            phases = 3 * (spell.ct // ROUND_CT)
            last = period + phases - 1
        else:
            phases = (units - 1) // 3 + 1
            last = period + phases - 1
        b.cast_round = rnd
        b.units_left = units - 3 * (phases - 1)
        b.casting_terms = " ".join(terms)
        b.cast_begun = period
        self._begin_casting(fight, f, b, d, spell, rnd, phase, last)
        self._after_spell(f, b, last)
        if last == period:
            self.complete(fight, f, b, d, rnd, phase, b.units_left)
        else:
            b.completes_in = last

    def complete(self, fight: Fight[Memo], f: Fighter, b: Book, d: Order, rnd: int, phase: int,
                 units: int) -> None:
        """Place the spell's completion in its last phase, on that phase's track (P2-04, P1-06)."""
        spell = f.spells[d.cast or ""]
        began = self.words.phase_name(b.cast_begun)
        if spell.ct >= ROUND_CT:
            tick: Tick = (rnd, phase, 8, 0)
            at = self.words.at(rnd, phase, "end of the phase")
            why = (f"a spell of {spell.ct // ROUND_CT} round(s) begun in {began} goes off after everything else, "
                   f"movement included, at the end of its {_nth(3 * spell.ct // ROUND_CT)} phase of casting (P2-04)")
        else:
            slot = ct_half_segment(units, winner=b.track == "winner")
            tick, at, release = self._release(rnd, phase, slot, b.track, d)
            why = (f"{b.casting_terms} begun in {began}, three units a phase: the last {units} on this phase's "
                   f"{b.track} track, half-segment {slot} (P2-04, P1-05){release}")
        b.completes = tick
        fight.push(Step(tick, f, "cast", at, why, decl=d, spell=spell, target=None if spell.touch else d.at,
                        note=f"{spell.name} charged for a touch (C2-10)" if spell.touch else ""))

    def _after_spell(self, f: Fighter, b: Book, done: int) -> None:
        """P2-06: two phases' delay after a spell, or Table 5 by caster level with the option."""
        b.spell_done = done
        delay = 2
        if self.delay_by_level:
            level = f.level or 1
            delay = next((d for top, d in CASTER_DELAY if level <= top), 1)
            if level >= 13:  # cast spell, cast spell, delay 1
                b.spell_chain = (b.spell_chain + 1) % 2
                delay = 0 if b.spell_chain == 1 else 1
        b.next_cast = done + 1 + delay


class Combat2Phase2Rules(Combat2Rules):
    """Phase System I's step rules, P2-05's durations, and a critical miss losing the rest of a schedule."""

    def lose_sequence(self, fight: Fight[Memo], step: Step) -> None:
        """C2X-03 under Phase System II: "Automatic loss of remainder of attack sequence. If Crit Miss delay is
        LESS than regular delay, complete regular delay instead before next attack": the schedule's remaining
        phases pass as delays and it begins anew after them (the critical miss's own conditions may keep the
        attacker idle longer)."""
        b = book(fight, step.actor)
        if not b.pattern or b.sched_pos == 0:
            return  # the miss ended its sequence: the next begins at once
        left = len(b.pattern) - b.sched_pos  # the phases of the sequence after this one
        b.sequence_resumes = fight.period + left + 1
        b.sched_pos = b.sched_attacks = 0
        b.next_forms = set()

    def took_effect(self, fight: Fight[Memo], step: Step) -> None:
        """P2-05: three phases are a round; an effect lasts to the end of its phase that many phases on."""
        spell = step.spell
        if spell is None or spell.duration is None:
            return
        rs = self.ruleset
        until = rs.expiry(fight, step.tick, *parse_duration(spell.duration))
        done = 3 * (step.tick[0] - 1) + step.tick[1]
        fight.push(Step(until.tick, step.actor, "expire", until.at, f"{spell.name} took effect in "
                        f"{rs.words.phase_name(done)}; {spell.duration} {until.why}", spell=spell, target=step.target))


def _nth(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
