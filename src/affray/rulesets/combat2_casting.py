"""Combat II casting: the winner's and loser's tracks, one casting a round, holding, touch spells (seed 000)."""

from __future__ import annotations

from affray.engine.events import Check, Tick
from affray.engine.fight import Fight
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.model.encounter import Spell
from affray.model.order import Order
from affray.rulesets.combat2 import ct_half_segment
from affray.rulesets.combat2_base import Book, Combat2Part, Memo, book

__all__ = ["MAX_CT", "ROUND_CT", "Combat2Casting"]

#: P1-05: the largest CT a spell begun in phase 1, 2 or 3 can have.
MAX_CT = {1: 9, 2: 6, 3: 3}
ROUND_CT = 10


class Combat2Casting(Combat2Part):
    """P1-05, P1-06, P1-11, C2-09..C2-15."""

    def cast(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, period: int) -> None:
        """P1-05 the caster's track; C2-09 one casting a round; C2-11, C2-13, C2-14."""
        b = book(fight, f)
        spell = f.spells[d.cast or ""]
        if not self._may_begin(fight, f, b, d, spell, rnd, phase, period):
            return
        ex = fight.explain
        units, terms = self._units(d, spell, self.opt.hold_spells)
        hold = d.extra.get("hold")
        track = b.track
        winner = track == "winner"
        due: Tick = ()
        if spell.ct >= ROUND_CT:
            if phase != 1:
                self._delay(fight, f, d, rnd, phase, f"a spell of {spell.ct // ROUND_CT} round(s) is begun in phase 1 "
                            "and completes in the endphase (P1-05, P1-11)", "until phase 1 of the next round")
                return
            rounds = spell.ct // ROUND_CT
            last = rnd + rounds - 1
            if rounds > 1:  # P1-06: it completes on the track of its last round, known then
                b.held = (spell, d, 0, last)
            slot = 1 if winner else 2
            tick: Tick = (last, 4, slot, 0)
            at = self.words.at(last, 4, f"half-segment {18 + slot} ({track})")
            why = (f"{track} track, a {rounds}-round spell completes in the endphase: half-segment {18 + slot}"
                   + (f" of round {last}" if rounds > 1 else "") + " (P1-05, P1-11)")
            until = 3 * last
        else:
            if units - (hold if isinstance(hold, int) and self.opt.hold_spells else 0) > MAX_CT[phase]:
                self._delay(fight, f, d, rnd, phase, f"begun in phase {phase} a spell may have CT {MAX_CT[phase]} "
                            f"at most; {' '.join(terms)} = {units} (P1-05)", "until phase 1 of the next round")
                return
            rel = ct_half_segment(units, winner=winner)
            absolute = 6 * (phase - 1) + rel
            # C2-14: held "to over 10 ... puts the balance into the next round": the round's tenth unit is its
            # endphase (half-segment 19 for a winner, 20 for a loser, P1-05), where a held spell reaching exactly
            # 10 completes as a 1-round spell does (option held_round)
            last_hs = 20 if self.opt.held_round == "endphase" else 18
            if absolute > last_hs:  # held into the next round, counted on that round's track: the balance past
                # the round's units, the endphase its tenth (an effective CT 11 begun in phase 1 leaves 1, half-segment
                # 1 or 2 of the next round); with held_round next_round, 10 goes over too: the round holds 9
                room = 3 * (4 - phase) + (1 if self.opt.held_round == "endphase" else 0)
                b.held = (spell, d, units - room, rnd + 1)
                tick, at = (rnd + 1, 1, 0, 2), self.words.at(rnd + 1, 1, "stating intentions")
                why = ""
                until = 3 * rnd + 1
            else:
                ph, slot = (absolute - 1) // 6 + 1, (absolute - 1) % 6 + 1
                tick, at, release = self._release(rnd, ph, slot, track, d)
                due = (rnd, ph, slot, 0)
                counted = f"{' '.join(terms)} = {units}" if len(terms) > 1 else terms[0]
                parity = "odd" if winner else "even"
                ten = ", the endphase: the round's tenth unit, as a 1-round spell (C2-14, P1-11)" if ph == 4 else ""
                why = (f"{track} track, {counted}: the {_nth(units)} {parity} half-segment from the start of phase "
                       f"{phase} is half-segment {absolute}{ten} (P1-05){release}") if ex else ""
                until = 3 * (rnd - 1) + min(ph, 3)
        b.cast_round = rnd
        self._begin_casting(fight, f, b, d, spell, rnd, phase, until)
        if b.held is None or b.held[0] is not spell:
            b.completes = due or tick
            fight.push(Step(tick, f, "cast", at, why, decl=d, spell=spell, target=None if spell.touch else d.at,
                            note=f"{spell.name} charged for a touch (C2-10)" if spell.touch else ""))

    def _release(self, rnd: int, phase: int, slot: int, track: str, d: Order) -> tuple[Tick, str, str]:
        """C2-12: when a spell due on a half-segment with movement goes off: losers at the end of the movement,
        winners before it (``release: after`` waits for it). Only under C2-23 does movement share the
        half-segments; otherwise it comes after the phase's attacks and spells (C2-16)."""
        at = self.words.at_hs(rnd, phase, slot, track)
        if self.opt.incremental_movement and (track == "loser" or d.extra.get("release") == "after"):
            who = "a loser casts" if track == "loser" else "released"
            return (rnd, phase, slot, 2), at, f"; {who} after that half-segment's movement (C2-12, C2-23)"
        return (rnd, phase, slot, 0), at, ""

    def _cast_blocked(self, fight: Fight[Memo], f: Fighter, b: Book, rnd: int, period: int) -> tuple[str, str] | None:
        """Why a spell cannot begin now (a forced delay: why, until when), or None (C2-09, C2-13)."""
        if b.cast_round == rnd:
            return "only one casting a round, and not after a ruined one (C2-09, C2-13)", "until the next round"
        if b.attack_round == rnd:
            return "it attacked physically this round, so it cannot cast in it (C2-09)", "until the next round"
        return None

    def _may_begin(self, fight: Fight[Memo], f: Fighter, b: Book, d: Order, spell: Spell, rnd: int, phase: int,
                   period: int) -> bool:
        """Whether the spell begins now; else a forced delay was emitted: what the ruleset forbids now
        (``_cast_blocked``), C2-13 the CON check of a caster hit in the phase before, C2-11 readying components."""
        blocked = self._cast_blocked(fight, f, b, rnd, period)
        if blocked is not None:
            why, until = blocked
            self._delay(fight, f, d, rnd, phase, why, until)
            return False
        if b.hit_last_phase and not b.con_checked:
            b.con_checked = True
            given = d.dice_given[0].other("con") if d.dice_given else None
            roll = fight.roller.die(20, "CON check", f.name, given)
            ok = roll <= f.spec.con
            fight.emit(Check, (rnd, phase, 0, 1), self.words.at(rnd, phase, "stating intentions"), f.name,
                       passed=ok, why="hit before the phase it begins a spell: a CON check or the start is delayed "
                       "one phase (C2-13)", detail=f"d20 {roll} vs CON {f.spec.con}: "
                       + ("passes" if ok else "fails, the spell begins a phase later"))
            if not ok:
                self._delay(fight, f, d, rnd, phase, "failed the CON check after being hit (C2-13)",
                            f"{spell.name} begins next phase")
                return False
        if self.opt.ready_components and "M" in spell.components and b.used_m:
            b.used_m = False
            self._delay(fight, f, d, rnd, phase, "material components must be in hand: this phase readies them "
                        "(C2-11)", f"{spell.name} begins next phase")
            return False
        return True

    @staticmethod
    def _units(d: Order, spell: Spell, hold_spells: bool) -> tuple[int, list[str]]:
        """A spell's CT units: its CT, +1 after repositioning (C2-03), + the units held (C2-14)."""
        units = spell.ct
        terms = [f"CT {spell.ct}"]
        if d.extra.get("reposition") is True:
            units += 1
            terms.append("+1 repositioning (C2-03)")
        hold = d.extra.get("hold")
        if isinstance(hold, int) and hold > 0 and hold_spells:
            units += hold
            terms.append(f"+{hold} held (C2-14)")
        return units, terms

    def _begin_casting(self, fight: Fight[Memo], f: Fighter, b: Book, d: Order, spell: Spell, rnd: int,
                       phase: int, until: int) -> None:
        """The bookkeeping of a spell begun, and its ``cast-start``."""
        b.casting_until = until
        b.casting_decl = d
        b.casting_note = f"casting {spell.name}"
        if "M" in spell.components:
            b.used_m = True
        if spell.touch:
            b.charged = (spell.name, f.casts.get(spell.name, 0))
            b.touch_at = d.at if d.at in fight.state.fighters else None  # delivered there next (C2-10)
        fight.push(Step((rnd, phase, 0, 1), f, "cast-start", self.words.at(rnd, phase, "stating intentions"),
                        f"begins {spell.name} at the start of {self.words.phase_name(3 * (rnd - 1) + phase)} (P1-07)",
                        decl=d, spell=spell, target=d.at))

    def phase_started(self, fight: Fight[Memo], rnd: int, phase: int, period: int) -> None:
        """After the phase's intentions: a spell held over from the last round goes on (C2-14)."""
        if phase == 1 and rnd > 1:
            self._held_over(fight, rnd)

    def _held_over(self, fight: Fight[Memo], rnd: int) -> None:
        """C2-14, P1-06: a spell held past its round, or of several rounds, completes on the track of the round
        it completes in, and is that round's casting."""
        for f in fight.state.fighters.values():
            b = book(fight, f)
            if b.held is None or b.held[3] != rnd:
                continue
            spell, d, units, _ = b.held
            b.held = None
            if not f.active or f.casting != spell.name:
                continue
            winner = b.track == "winner"
            b.cast_round = rnd
            if units == 0:
                slot = 1 if winner else 2
                b.completes = (rnd, 4, slot, 0)
                why = (f"{b.track} track in round {rnd}, the last of this {spell.ct // ROUND_CT}-round spell: it "
                       f"completes in the endphase, half-segment {18 + slot} (P1-05, P1-06, P1-11)")
                at = self.words.at(rnd, 4, f"half-segment {18 + slot} ({b.track})")
                fight.push(Step(b.completes, f, "cast", at, why, decl=d, spell=spell,
                                target=None if spell.touch else d.at))
                continue
            rel = ct_half_segment(units, winner=winner)
            ph, slot = (rel - 1) // 6 + 1, (rel - 1) % 6 + 1
            b.casting_until = 3 * (rnd - 1) + ph
            b.completes = (rnd, ph, slot, 0)
            tick, at, release = self._release(rnd, ph, slot, b.track, d)
            fight.push(Step(tick, f, "cast", at,
                            f"held into round {rnd}: {units} more unit(s) on this round's {b.track} track: "
                            f"half-segment {rel}; it is this round's casting (C2-14, P1-06){release}", decl=d,
                            spell=spell, target=None if spell.touch else d.at))


def _nth(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if n not in (11, 12, 13) else "th"
    return f"{n}{suffix}"
