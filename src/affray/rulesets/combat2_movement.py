"""Combat II movement: 1/3 MV a phase, closing, withdrawing and fleeing, speed changes, charges (seed 000)."""

from __future__ import annotations

from affray.engine.fight import Fight
from affray.engine.places import PAST
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.model.order import Order
from affray.rulesets.combat2 import half_segment_moves
from affray.rulesets.combat2_attacks import Combat2Attacks
from affray.rulesets.combat2_base import Combat2Part, Combat2Phase1Options, Memo, Words, book, per_phase

__all__ = ["Combat2Movement"]


class Combat2Movement(Combat2Part):
    """P1-07, P1-10, C2-16..C2-21, C2-23, C2-27."""

    def __init__(self, opt: Combat2Phase1Options, words: Words, attacks: Combat2Attacks) -> None:
        super().__init__(opt, words)
        self.attacks = attacks  # a closer meeting a surprised foe strikes at the end of its movement (C2-27)

    def close(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, period: int) -> None:
        """P1-07, C2-16: closing takes this phase's move; the blow comes next phase (the orc and the archer)."""
        b = book(fight, f)
        third = per_phase(f, max(b.pace, 1))
        feet = min(f.remaining, third)
        target = fight.state.fighters.get(d.melee or "")
        arrives = feet >= f.remaining
        surprised = target is not None and book(fight, target).lost_phase == period
        why = (f"closing {f.remaining} ft on {d.melee}: up to 1/3 of MV {f.mv} = {third} ft this phase, after "
               "the attacks (C2-16, P1-07)")
        if arrives and not surprised:
            why += "; it strikes next phase"
            b.pending = d
        self._push_move(fight, f, d, rnd, phase, feet, "close", why, target=d.melee)
        if arrives and surprised:
            self.attacks.attack(fight, f, d.changed(distance=0), rnd, phase, period, contact=True)

    def _push_move(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, feet: int, mode: str,
                   why: str, *, target: str | None = None, tags: frozenset[str] = frozenset(), sub: int = 1) -> None:
        at = self.words.at_move(rnd, phase)
        if self.opt.incremental_movement and feet >= 10 and sub == 1:
            squares = half_segment_moves(feet // 10)
            moved = 0
            for s, n in enumerate(squares, start=1):
                if n:
                    moved += n * 10
                    last = moved >= feet - feet % 10
                    fight.push(Step((rnd, phase, s, 1), f, "move",
                                    self.words.at(rnd, phase, self.words.hs_name(phase, s).split(" of ")[0]),
                                    f"{why.replace('after the phase', 'with the phase')}; spread over the "
                                    f"half-segments, {n} square(s) of {feet // 10} on half-segment "
                                    f"{6 * (phase - 1) + s} (C2-23, Table 3)", decl=d,
                                    feet=n * 10 + (feet % 10 if last else 0), mode=mode, target=target, tags=tags,
                                    note=f"{mode} {n * 10} ft"))
            return
        fight.push(Step((rnd, phase, 7, sub), f, "move", at, why, decl=d, feet=feet, mode=mode, target=target,
                        tags=tags, note=f"{mode} {feet} ft"))

    def _pace(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int) -> tuple[int, str, bool]:
        """C2-19: the pace this phase, its explanation, and whether a shortened stop needs a DEX check."""
        b = book(fight, f)
        old = b.pace
        wanted = d.extra.get("pace")
        want = int(wanted) if isinstance(wanted, int) else max(old, 1)
        text = ""
        if want > max(old, 1):
            top = max(old, 1) + 2
            new = min(want, top)
            text = f"accelerates x{max(old, 1)} -> x{new}"
            if want > top:
                text += f" (at most +2 a phase, not x{want})"
            if self.opt.speed_checks:
                given = d.dice_given[0].other("str") if d.dice_given else None
                roll = fight.roller.die(20, "STR check", f.name, given)
                if roll > f.spec.str_:
                    text += f"; STR check d20 {roll} vs {f.spec.str_} fails: stays x{max(old, 1)}"
                    new = max(old, 1)
                else:
                    text += f"; STR check d20 {roll} vs {f.spec.str_} passes"
            text += " (C2-19)"
        elif want < old:
            new = max(want, old - 2)
            text = f"decelerates x{old} -> x{new}" + (" (2 factors at once)" if new > want else "") + " (C2-19)"
        else:
            new = max(want, 1) if old == 0 else want
        b.pace = new
        b.top_pace = max(b.top_pace, new)
        return new, text, want < new

    def move(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, period: int) -> None:
        """P1-07 1/3 MV a phase; C2-17 closing; C2-18 withdraw and flee; C2-19 speed changes."""
        b = book(fight, f)
        mode = d.mode or "full"
        feet = d.move or 0
        if f.engaged and mode not in ("withdraw", "flee"):
            fight.push(Step((rnd, phase, 7, 1), f, "move", self.words.at_move(rnd, phase),
                            f"engaged with {', '.join(sorted(f.engaged))}: it may only withdraw, flee or fight "
                            "(C2-17)", decl=d, tags=frozenset({"refused"}), note="cannot move away normally"))
            return
        if mode == "withdraw":
            third = per_phase(f, 1) // 3
            feet = min(feet, third)
            self._push_move(fight, f, d, rnd, phase, feet, mode, f"withdrawing at 1/3 of the per-phase move: "
                            f"{f.mv * 10} / 3 / 3 = {third} ft (C2-18)", tags=frozenset({"disengage"}))
            return
        running = book(fight, f).pace > 1
        pace, text, _ = self._pace(fight, f, d, rnd, phase)
        per = per_phase(f, pace)
        why = f"moves after the phase's attacks, up to 1/3 of MV {f.mv}"
        why += f" x{pace} = {per} ft" if pace > 1 else f" = {per} ft"
        why += " (P1-07, C2-16)"
        if text:
            why += "; " + text
        tags = frozenset({"disengage", "leaves"}) if mode == "flee" else frozenset()
        if mode == "flee":
            why += "; fleeing: every engaged foe gets a free attack (C2-18)"
        if running and pace > 1:  # C2-19: still above base MV after slowing: momentum
            least = per // 2
            if feet < least:
                short = least - feet
                penalty = -(-short // 10)
                given = d.dice_given[0] if d.dice_given else None
                roll = fight.roller.die(20, "DEX check", f.name, given.other("dex") if given else None)
                need = f.dex - penalty
                ok = roll <= need
                why += (f"; momentum: at x{pace} it must still move {least} ft (half of {per}); stopping in {feet} ft "
                        f"needs a DEX check at -{penalty}: d20 {roll} vs {need}, "
                        + ("passes" if ok else "fails: prone 1d4 phases") + " (C2-19)")
                if not ok:
                    n = fight.roller.die(4, "prone phases", f.name, given.other("prone") if given else None)
                    b.prone_until = period + n
                    why += f"; d4 {n}: prone through {self.words.phase_name(period + n)}"
            b.pace = self._target_pace(d, pace)
        feet = min(feet, per)
        self._push_move(fight, f, d, rnd, phase, feet, mode, why, tags=tags)

    @staticmethod
    def _target_pace(d: Order, default: int) -> int:
        """C2-19: after the momentum move, the runner may stop or slow to the pace it declared."""
        wanted = d.extra.get("pace")
        return int(wanted) if isinstance(wanted, int) else default

    def charge(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, period: int) -> None:
        """C2-20: announced with a target; the hit comes on contact in the movement portion."""
        b = book(fight, f)
        pace, text, _ = self._pace(fight, f, d, rnd, phase)
        run = per_phase(f, pace)
        remaining = f.remaining
        target = d.melee or ""
        why = (f"charging {target} at x{pace} (MV {f.mv} x{pace} / 3 = {run} ft this phase)"
               + (f"; {text}" if text else ""))
        if pace < 2:  # refused, and the charge ends with it: it is not tried again phase after phase
            fight.push(Step((rnd, phase, 7, 0), f, "move", self.words.at_move(rnd, phase), why + ": a charge needs at "
                            "least twice base MV (C2-20)", decl=d, tags=frozenset({"refused", "ends"}),
                            note="too slow to charge"))
            return
        if remaining > run:
            self._push_move(fight, f, d, rnd, phase, run, "charge", f"{why}; {remaining} ft to go, no contact this "
                            "phase (C2-20)", target=target)
            return
        b.attacks += 1
        b.attack_round = rnd
        b.attacked_phase = period
        overrun = run - remaining
        fight.push(Step((rnd, phase, 7, 0), f, "move", self.words.at_move(rnd, phase), f"{why}; contact after "
                        f"{remaining} ft, in the movement portion (C2-20)", decl=d, feet=remaining, mode="charge",
                        target=target, note=f"charges {remaining} ft into {target}"))
        strike = Step((rnd, phase, 7, 0), f, "melee", self.words.at_move(rnd, phase), "a charge strikes on contact, in "
                      "the movement portion, its damage landing before an unready defender can answer (C2-20)",
                      decl=d, target=target, weapon=f.weapon(d.weapon), tags=frozenset({"charge"}))
        fight.push(strike)
        defender = fight.state.fighters.get(target)
        if defender is None:
            return
        setter = fight.memo.sets.get(f.name)
        if setter is not None and setter[0] is defender:
            return  # C2-21: the readied defender strikes simultaneously (pushed by readied_wait)
        # whether it may answer ("not if it has already attacked within the phase or met its maximum number of
        # attacks per round") is known only as the answer comes, after the phase's attacks (Combat2Rules.refuse)
        fight.push(Step((rnd, phase, 7, 1), defender, "melee", self.words.at_move(rnd, phase),
                        f"charged by {f.name} and not ready: it answers only after the charger's blow, before the "
                        "charger runs out of range (C2-20)", target=f.name, weapon=defender.weapon(None),
                        tags=frozenset({"counter"})))
        if overrun:
            fight.push(Step((rnd, phase, 7, 2), f, "move", self.words.at_move(rnd, phase), "momentum carries the "
                            f"charger on past {target}: {run} - {remaining} = {overrun} ft (C2-20)", decl=d,
                            feet=overrun, mode="charge", tags=frozenset({PAST}), note=f"overruns {target} by "
                            f"{overrun} ft"))

    def readied_wait(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int) -> None:
        """C2-21: a readied weapon strikes as the foe arrives: simultaneously with a charge, before a move."""
        foe = fight.state.fighters.get(d.melee or d.missile or "")
        b = book(fight, f)
        fdecl = foe.declared if foe is not None else None
        weapon = f.weapon(d.weapon, missile=d.action == "missile")
        trigger = ""
        if foe is not None and fdecl is not None and foe.active:
            # the foe's own move was placed first: a charge in contact this phase has spent its attack, a closer
            # arriving owes its blow (``pending``); one still on its way has not come, and the weapon stays ready
            fb = book(fight, foe)
            arrives = fb.attacked_phase == fight.period or fb.pending is fdecl
            if fdecl.action == "melee" and fdecl.charge and fdecl.melee == f.name and arrives:
                trigger = "charges it"
            elif fdecl.action == "melee" and fdecl.melee == f.name and foe.remaining > 0 and fb.pace > 1 and arrives:
                trigger = "closes on it at speed"
            elif d.action == "missile" and (fdecl.action == "move" or foe.remaining > 0):
                trigger = "moves into the covered area"
        if not trigger:
            fight.push(Step((rnd, phase, 7, 1), f, "wait", self.words.at_move(rnd, phase), "a readied weapon waits for "
                            f"the foe to charge or come on (C2-21): {d.melee or d.missile} did not", decl=d,
                            note=f"{weapon.name} ready"))
            b.ready = d  # "A ready state may be maintained from phase to phase until an attack is made" (C2-21)
            return
        b.attacks += 1
        b.attack_round = rnd
        b.attacked_phase = 3 * (rnd - 1) + phase
        polearm = d.action == "melee" and weapon.settable and "charges" in trigger
        why = (f"readied against {foe.name if foe else ''}, which {trigger}: the SF is spent in the readying, so it "
               "strikes as the foe arrives" + (", simultaneously with the charge" if "charges" in trigger else
                                               ", first") + (" with a set polearm's double damage" if polearm else "")
               + " (C2-21)")
        fight.push(Step((rnd, phase, 7, 0), f, d.action or "melee", self.words.at_move(rnd, phase), why, decl=d,
                        target=foe.name if foe else None, weapon=weapon,
                        tags=frozenset({"set", "polearm"} if polearm else {"set"})))
