"""Combat II's options, bookkeeping and words for moments, and what the attack, casting and movement parts of a
Combat II ruleset share (seed 000)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from affray.engine.fight import Fight
from affray.engine.options import BaseOptions, default_morale, morale_dice, option
from affray.engine.state import Fighter
from affray.model.encounter import Spell
from affray.model.order import Order

__all__ = ["Book", "Combat2Part", "Combat2Phase1Options", "Memo", "Words", "book", "charged", "per_phase"]


@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class Combat2Phase1Options(BaseOptions):
    """Every Decision of C2 and P1 (Phase System II adds its own, ``Combat2Phase2Options``). Here rather than
    beside ``Combat2Phase1`` because the attack, casting and movement parts read them too."""

    morale_dice: str = morale_dice("2d10")
    default_morale: int = default_morale(11)
    tie_track: str = option("loser", "P1-01", "sides tied for the lowest roll: everyone on the loser track, or a "
                            "modified roll equal to the lowest opposing one counts as winning", ("loser", "winner"))
    split_forms: bool = option(False, "C2-07", "separate attack forms: one form per phase (two with more than three "
                               "forms)")
    hold_spells: bool = option(True, "C2-14", "casters may hold a cast spell up to 6 CT units (`hold: N`)")
    ready_components: bool = option(False, "C2-11", "after a spell with M, the next spell with M needs a phase to "
                                    "ready components")
    incremental_movement: bool = option(False, "C2-23", "spread movement over the half-segments (Table 3) instead "
                                        "of at the end of the phase")
    charge_bonus: int = option(1, "C2-20", "to-hit bonus of a charge (the 2nd-edition +1)")
    speed_checks: bool = option(True, "C2-19", "STR checks to accelerate and the round's CON check at speed")
    ready_maintained: bool = option(True, "C2-21", "a readied weapon stays ready from phase to phase until it "
                                    "strikes, its foe arrives, falls or closes to blows, unless something else is "
                                    "declared (false: one phase; declare it again to keep it)")
    held_round: str = option("endphase", "C2-14", "Phase System I: a spell held to the round's tenth unit (an "
                             "effective CT of 10) completes in this round's endphase, as a 1-round spell; only 'over "
                             "10' puts the balance into the next round (next_round: 10 goes over too)",
                             ("endphase", "next_round"))
    segments_per_phase: int = option(3, "P2-05", "a duration written in segments counts this many to a phase "
                                     "(Table 4: three active half-segments, each a CT unit, a phase; 1: a segment "
                                     "a phase)", minimum=1)


class Book:
    """What Combat II remembers of one combatant beyond the shared state."""

    __slots__ = ("attack_round", "attacked_phase", "attacks", "carry", "carry_note", "cast_begun", "cast_round",
                 "casting_decl", "casting_note", "casting_terms", "casting_until", "charged", "completes",
                 "completes_in", "con_checked", "forms", "held", "hit_last_phase", "hp_mark", "lost_phase",
                 "next_cast", "next_forms", "pace", "pattern", "pending", "prone_until", "ready", "sched_attacks",
                 "sched_pos", "sequence_resumes", "spell_chain", "spell_done", "top_pace", "touch_at", "track",
                 "units_left", "used_m", "weapon_attacks")

    def __init__(self, hp_mark: int = 0) -> None:
        self.track: str = "loser"
        self.attacks: int = 0  # attack actions this round
        self.weapon_attacks: dict[str, int] = {}  # per weapon this round (C2-26)
        self.forms: set[str] = set()  # forms used this round (split_forms, C2-07)
        self.attacked_phase: int = 0  # the period of its last attack
        self.attack_round: int = 0  # the round of its last physical attack (C2-09)
        self.cast_round: int = 0  # the round of its last casting, begun, held over or ruined (C2-09, C2-13)
        self.casting_until: int = 0  # the period through which its spell occupies it
        self.casting_decl: Order | None = None
        self.completes: tuple[int, ...] = ()  # the tick its spell completes on
        # Phase System II
        self.completes_in: int = 0  # the period its spell completes in, when that is a later phase (P2-04)
        self.units_left: int = 0  # the CT units of its spell that fall in that last phase
        self.casting_terms: str = ""
        self.cast_begun: int = 0
        self.spell_done: int = 0  # the period its last spell completed (P2-06)
        self.next_cast: int = 0  # the first period it may begin another (P2-06)
        self.spell_chain: int = 0  # Table 5, 13th level: spells cast back to back
        self.pattern: tuple[int, ...] = ()  # its attack schedule (P2-07)
        self.sched_pos: int = 0
        self.sched_attacks: int = 0  # attacks since the schedule (re)started (P2-09 alternation)
        self.next_forms: set[str] = set()  # forms used in this sequence (Table 7)
        self.casting_note: str = ""
        self.carry: Order | None = None  # a declaration held over to the next phase (a forced delay)
        self.ready: Order | None = None  # a readied weapon that did not strike this phase (C2-21)
        self.sequence_resumes: int = 0  # P2: the period its attack sequence begins anew after a critical miss (C2X-03)
        self.carry_note: str = ""
        self.con_checked: bool = False  # the carried spell already failed its CON check (no second one)
        self.pending: Order | None = None  # closed last phase: attacks in this one
        self.pace: int = 0  # current movement as a multiple of base MV (0: standing)
        self.top_pace: int = 0  # this round's highest
        self.prone_until: int = 0  # the last period it lies prone
        self.lost_phase: int = 0  # a period lost to surprise
        self.hp_mark: int = hp_mark  # hp at the previous declaration point
        self.hit_last_phase: bool = False
        self.used_m: bool = False  # cast a spell with M since it last readied components (C2-11)
        self.charged: tuple[str, int] | None = None  # a touch spell cast (name, copies before), undelivered (C2-10)
        self.touch_at: str | None = None  # whom it was cast at: the touch goes there next (C2-10)
        #: A spell completing in a later round, on that round's track (C2-14, P1-06): the spell, its declaration,
        #: the CT units left in that round (0: in its endphase) and the round.
        self.held: tuple[Spell, Order, int, int] | None = None

@dataclass
class Memo:
    books: dict[str, Book] = field(default_factory=dict)
    results: dict[str, int] = field(default_factory=dict)
    sets: dict[str, tuple[Fighter, Order]] = field(default_factory=dict)  # target -> readied setter


def book(fight: Fight[Memo], f: Fighter) -> Book:
    """What Combat II remembers of ``f`` in this fight (begun at its hit points of the moment): kept on the
    fighter (read many times a phase), and by name in the memo (gone through in file order of first use)."""
    b = f.memo
    if b is None:
        b = f.memo = fight.memo.books[f.name] = Book(hp_mark=f.hp)
    assert isinstance(b, Book)
    return b


def round_of(period: int) -> int:
    """The round (Phase System II: the cycle) of a phase: three to a round (P1-03, P2-01)."""
    return (period + 2) // 3


def per_phase(f: Fighter, pace: int) -> int:
    """C2-16: 1/3 of the current MV per phase, in feet (MV 12: 40 ft)."""
    return f.mv * 10 * pace // 3


def charged(f: Fighter, b: Book, spell: str) -> bool:
    """C2-10: a touch spell is charged once its casting completed (one more cast of it) and not delivered."""
    return b.charged is not None and b.charged[0] == spell and f.casts.get(spell, 0) > b.charged[1]


class Words:
    """Phase System I's words for a moment ("round 2, phase 1, stating intentions"); Phase System II has its own."""

    def at(self, rnd: int, phase: int, what: str) -> str:
        """The words for a moment of round ``rnd`` (phase 0: the round's start, 4: the endphase)."""
        if phase == 0:
            return f"round {rnd}, {what}"
        return f"round {rnd}, endphase, {what}" if phase == 4 else f"round {rnd}, phase {phase}, {what}"

    def hs_name(self, phase: int, slot: int) -> str:
        return f"half-segment {6 * (phase - 1) + slot} of phase {phase}"

    def phase_name(self, period: int) -> str:
        return f"phase {(period - 1) % 3 + 1} of round {(period + 2) // 3}"

    def at_hs(self, rnd: int, phase: int, slot: int, track: str) -> str:
        """ "round 1, phase 2, half-segment 9 (winner)": Table 1 numbers the half-segments through the round."""
        return self.at(rnd, phase, f"{self.hs_name(phase, slot).split(' of ')[0]} ({track})")

    def at_move(self, rnd: int, phase: int) -> str:
        return self.at(rnd, phase, "movement")


class Combat2Part:
    """What the attack, casting and movement parts of a Combat II ruleset share: its options, its words for
    moments, and the forced delay."""

    def __init__(self, opt: Combat2Phase1Options, words: Words) -> None:
        self.opt = opt
        self.words = words

    def _delay(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, why: str, what: str) -> None:
        """A forced delay: the declaration waits for the next phase and is not consumed again (CONTRACT)."""
        b = book(fight, f)
        b.carry = d
        heard = fight.heard  # the words are for a reader: the lean mode has none
        b.carry_note = f"held over: {what}" if heard else ""
        at = self.words.at(rnd, phase, "stating intentions") if heard else ""
        fight.delay((rnd, phase, 0, 1), at, f.name, why, f"waits: {what}" if heard else "")
