"""Combat II attacks: one attack action a phase, its band, routines, double attacks, retargeting (seed 000)."""

from __future__ import annotations

from typing import Any

from affray.engine.conditions import active, effect_of
from affray.engine.events import Check, Heal, Impossible, Tick
from affray.engine.fight import Fight
from affray.engine.resolve import Engine
from affray.engine.state import Fighter
from affray.engine.step import Step, given
from affray.engine.validity import out_how
from affray.model.arms import Arms, arms_of
from affray.model.derive import attacks_in_round, attacks_per_round, dex_reaction_adjustment
from affray.model.encounter import Declaration, Weapon
from affray.model.order import Order, order_of
from affray.plugins.conditions import strike_penalty
from affray.rulesets.combat2 import SITUATIONS, adjusted_sf, band, band_text
from affray.rulesets.combat2_base import Book, Combat2Part, Memo, book, charged
from affray.supplements.c2x.options import c2x_options

__all__ = ["Combat2Attacks", "below_1_hd"]


class Combat2Attacks(Combat2Part):
    """P1-04, P1-07, P1-13, C2-01..C2-08, C2-22, C2-25, C2-26, C2-29."""

    def _rate(self, f: Fighter, weapon: Arms) -> Any:
        """C2-26: the favoured (first) weapon has the combatant's rate; another its own, unspecialised. A form of a
        monster's routine strikes once a round (C2-07: the routine is its round's attacks)."""
        if weapon in f.routine:
            return 1
        if weapon is f.weapons[0] or f.spec.attacks is not None or not f.spec.specialist:
            return f.attacks
        return attacks_per_round(f.klass, f.level, scheme="2e", specialist=False)

    @staticmethod
    def _routine(f: Fighter, d: Order) -> list[Any] | None:
        """The routine a melee declaration strikes (C2-07): its own ``routine``, else, naming no weapon, a monster's
        forms (claw, claw, bite: the attacks it lists are one routine, 2e MM and OSE); None for one weapon."""
        routine = d.extra.get("routine")
        if isinstance(routine, list) and routine:
            return routine
        if d.action == "melee" and f.in_routine(d.weapon) and not d.extra.get("touch"):
            return [w.name for w in f.routine]
        return None

    @classmethod
    def _attacks(cls, f: Fighter, d: Order) -> Any:
        """Attacks per round; with a missile weapon, its fire rate times that (as P2-08); a monster's routine once
        (C2-07)."""
        if d.action == "missile":
            return f.attacks * f.weapon(d.weapon, missile=True).rate
        if f.routine and cls._routine(f, d) is not None:
            return 1
        return f.attacks

    def _parts(self, f: Fighter, d: Order) -> list[tuple[Arms, str]]:
        """The weapons and targets of one attack action: a routine's parts (C2-07) or the one weapon."""
        target = d.melee or d.missile or ""
        routine = self._routine(f, d)
        if d.extra.get("touch"):
            spell = f.spells.get(str(d.extra["touch"]))
            damage = spell.damage if spell is not None and spell.damage is not None else f.weapon(None).damage
            touch = arms_of(Weapon.model_validate({"name": f"touch of {d.extra['touch']}", "sf": 1,
                                                   "damage": damage.text}))
            return [(touch, target)]
        if routine is not None:
            targets = d.extra.get("targets")
            names = [str(t) for t in targets] if isinstance(targets, list) else [target] * len(routine)
            forms = f.routine if d.extra.get("routine") is None else ()  # a form named twice is each its own
            return [(forms[i] if forms else f.weapon(str(w)), names[i] if i < len(names) else target)
                    for i, w in enumerate(routine)]
        return [(f.weapon(d.weapon, missile=d.action == "missile"), target)]

    def attack(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int, period: int,  # noqa: C901
                *, contact: bool = False) -> None:
        """P1-07 one attack action a phase; P1-04 its band; C2-25 double attacks; C2-07 routines."""
        b = book(fight, f)
        state = fight.state
        target = state.fighters.get(d.melee or d.missile or "")
        touch = bool(d.extra.get("touch"))
        if touch and not charged(f, b, str(d.extra.get("touch"))):
            fight.push(Step((rnd, phase, 1, 0), f, "melee", self.words.at_hs(rnd, phase, 1, b.track), "", decl=d,
                            target=d.melee, note=f"no charged {d.extra.get('touch')} to deliver (C2-10)",
                            tags=frozenset({"refused"})))
            return
        # C2-08 a defenseless target may be struck every phase; C2-10 a touch in its casting's own round
        free = (target is not None and self.exposed(fight, target, rnd, phase, period)) or (
            touch and self._touch_free(b, rnd))
        blocked = self._attack_blocked(fight, f, b, d, target, rnd, phase, period) if not free else (
            self._barred(fight, b, d, period, rnd))  # a defenseless target frees the round's count, no more
        if blocked is not None:
            why, until = blocked
            self._delay(fight, f, d, rnd, phase, why, until)
            return
        if d.extra.get("ambush") is True and target is not None and not (rnd == 1 and phase == 1):
            self._ambush(fight, f, target, d, rnd, phase, period)
        parts = self._parts(f, d)
        if len(parts) > 1:
            parts = self._routine_parts(f, b, parts, rnd)
        if not parts:
            self._delay(fight, f, d, rnd, phase, "every weapon of the routine has used its attacks this round "
                        "(C2-26)", "until the next round")
            return
        extra = self._sf_terms(fight, f, d, rnd, phase)
        speeds = [(w, t, adjusted_sf(f, w, extra)) for w, t in parts]
        slowest = speeds[0][2]  # the first of the slowest: a loop, not max() and a key (each a generic call)
        for _w, _t, speed in speeds:
            if speed.sf > slowest.sf:
                slowest = speed
        winner = b.track == "winner"
        ambush = d.extra.get("ambush") is True and rnd == 1 and phase == 1 and f.side in state.surprisers
        sf = 1 if ambush else slowest.sf
        slot = band(sf, winner=winner)
        second = "" if free or contact or len(parts) > 1 else self._second_blow(fight, f, b, d, target, rnd, phase)
        if not free:
            self._spend(f, b, d, target, rnd, period, 2 if second else 1)
        b.attack_round = rnd
        b.attacked_phase = period
        for w, _t in parts:
            b.weapon_attacks[w.name] = b.weapon_attacks.get(w.name, 0) + 1
            b.forms.add(w.name)
        healing = f.spells.get(str(d.extra.get("touch"))) if touch else None
        if healing is not None and healing.heal is None:
            healing = None
        if touch:
            b.touch_at = None
            if healing is None:  # a healing touch stays charged until it is given (``heal_touch``)
                b.charged = None
        ex = fight.explain
        why = ""
        if ex:
            if ambush:
                why = f"{b.track} track, an ambush opening the battle strikes at SF 1 (C2-22): band <2, "
            else:
                routine = " (the routine's slowest part, C2-07)" if len(parts) > 1 else ""
                why = f"{b.track} track, {slowest.text()}{routine} falls in band {band_text(sf)}: "
            why += f"{self.words.hs_name(phase, slot)} (P1-04)"
        kind = d.action if d.action in ("melee", "missile") else "melee"
        tags = frozenset({"touch"}) if touch else frozenset()
        if contact:  # C2-27: closing on a surprised foe, the blow comes at the end of the movement
            tick: Tick = (rnd, phase, 7, 2)
            at = self.words.at_move(rnd, phase)
            why = "closed on a surprised foe: attacks at the end of its movement (C2-27)" if ex else ""
        else:
            tick, at = (rnd, phase, slot, 0), self.words.at_hs(rnd, phase, slot, b.track) if ex else ""
        if healing is not None:  # C2-10: the touch of a healing spell, given to a willing one: no attack roll (2e PH)
            fight.push(Step(tick, f, "heal-touch", at, why, decl=d, target=speeds[0][1], spell=healing, tags=tags))
            return
        for i, (w, t, _s) in enumerate(speeds):
            fight.push(Step(tick, f, kind, at, why, decl=d, target=t, weapon=w, index=i, tags=tags))
        if second:  # C2-25: the second blow of a phase falls SF half-segments after the first
            w, t, s = speeds[0]
            then = min(6, slot + s.sf)
            fight.push(Step((rnd, phase, then, 0), f, kind, self.words.at_hs(rnd, phase, then, b.track) if ex else "",
                            f"double attack: {second}, so the second falls on half-segment {slot} + SF {s.sf} = "
                            f"{slot + s.sf}" + (" (held to the phase's last)" if slot + s.sf > 6 else "") + " (C2-25)"
                            if ex else "", decl=d, target=t, weapon=w, index=len(speeds)))

    def heal_touch(self, fight: Fight[Memo], step: Step) -> None:
        """C2-10: the touch of a healing spell (cure light wounds) reaches the one touched, an ally or the caster, in
        the attack portion of the phase: it regains the spell's dice (its ``heal`` entered in the declaration's
        ``dice``, else rolled), never above the hit points it started the fight with. A willing one is touched without
        an attack roll (2e PH: only an unwilling target is rolled against)."""
        assert isinstance(fight, Engine)  # Fight declares no may_act: only the Engine makes the checks
        if not fight.may_act(step):
            return
        f, spell = step.actor, step.spell
        assert spell is not None and spell.heal is not None
        t = fight.state.fighters[step.target or ""]
        if not t.active:
            fight.emit(Impossible, step.tick, step.at, f.name, why=f"{t.name} is out of the fight ({out_how(t)}): the "
                       f"touch of {spell.name} waits for another (C2-10)", detail="the touch is not given",
                       target=t.name, spell=spell.name)
            return
        heal = spell.heal
        rolled = max(0, fight.roller.dice(heal, "healing", f.name, given=given(step, "heal")) + heal.bonus)
        amount = max(0, min(rolled, t.spec.hp - t.hp))
        book(fight, f).charged = None
        cap = f"; at most {amount} back to its full {t.spec.hp}" if amount < rolled else ""
        fight.emit(Heal, step.tick, step.at, f.name, why=step.why or None, target=t.name, amount=amount,
                   detail=f"the touch of {spell.name}: {t.name} regains {amount} hp ({heal.text}: {rolled}{cap})"
                   if fight.explain else None)

    def answer(self, fight: Fight[Memo], f: Fighter, charger: Fighter, rnd: int, phase: int, period: int) -> str | None:
        """C2-20: "A defender may not respond if it has already attacked within the phase or met its maximum number of
        attacks per round": why ``f`` may not answer ``charger``'s charge now, or None, the answer then spent as an
        attack of the round (and of its schedule, P2-07)."""
        b = book(fight, f)
        if b.attacked_phase == period:
            return f"{f.name} has already attacked within the phase: it may not respond to the charge (C2-20)"
        d = order_of(Declaration(melee=charger.name))
        blocked = self._attack_blocked(fight, f, b, d, charger, rnd, phase, period)
        if blocked is not None:
            return f"{f.name} may not respond to the charge: {blocked[0]} (C2-20)"
        self._spend(f, b, d, charger, rnd, period, 1)
        b.attack_round = rnd
        b.attacked_phase = period
        return None

    def _due(self, f: Fighter, d: Order, target: Fighter | None, rnd: int) -> int:
        """Attacks due this round with this weapon (a missile's fire rate); a fighter's against creatures below
        1 HD: one per level (C2-25, the 2e PH)."""
        due = attacks_in_round(self._attacks(f, d), rnd)
        if target is not None and f.klass == "fighter" and f.level and below_1_hd(target):
            due = max(due, f.level)
        return due

    def _touch_free(self, b: Book, rnd: int) -> bool:
        """C2-10: a touch in the round of its casting is not the round's attack; in a later round it is."""
        return b.cast_round == rnd

    def _attack_blocked(self, fight: Fight[Memo], f: Fighter, b: Book, d: Order, target: Fighter | None,
                        rnd: int, phase: int, period: int) -> tuple[str, str] | None:
        """Why an attack must wait (a forced delay: why, until when), or None. P1: C2-09 and the round's count."""
        barred = self._barred(fight, b, d, period, rnd)
        if barred is not None:
            return barred
        if self.opt.split_forms and self._routine(f, d) is not None:
            return None  # C2-07: each form once a round, one form a phase (the routine's parts say which)
        due = self._due(f, d, target, rnd)
        if b.attacks >= due:
            return (f"all {due} of its attacks this round are spent (P1-07, P1-13)" if fight.heard else "",
                    "until the next round")
        return None

    def _barred(self, fight: Fight[Memo], b: Book, d: Order, period: int, rnd: int) -> tuple[str, str] | None:
        """What bars any physical attack now, even on a defenseless target (C2-08 frees only the round's count):
        P1, a caster who cast this round (C2-09)."""
        if b.cast_round == rnd and not d.extra.get("touch"):
            return ("a caster who cast (or began a spell) this round cannot attack physically in it (C2-09)",
                    "until the next round")
        return None

    def _second_blow(self, fight: Fight[Memo], f: Fighter, b: Book, d: Order, target: Fighter | None, rnd: int,
                     phase: int) -> str:
        """C2-25: why this phase's attack is a double one ("" if not): a round's attacks exceed its three attack
        phases (RULES Decision), and more are due than phases left. A fighter who spent phases closing has lost
        those chances (P1-13)."""
        due = self._due(f, d, target, rnd)
        left = due - b.attacks - 1
        if due > 3 and left > 3 - phase:
            return f"{due} attacks this round, more than its 3 attack phases: {left} still due with {3 - phase} left"
        return ""

    def _refund(self, b: Book) -> None:
        """C2-04: the target fell first and nothing was swung: the attack is kept for a later phase."""
        b.attacks -= 1

    def unmade(self, b: Book) -> None:
        """Its maker could not strike when the blow came (asleep, held...): it is not the round's attack (P1-07)."""
        b.attacks = max(0, b.attacks - 1)
        b.attacked_phase = 0

    def _spend(self, f: Fighter, b: Book, d: Order, target: Fighter | None, rnd: int, period: int,
               blows: int) -> None:
        b.attacks += blows

    def _routine_parts(self, f: Fighter, b: Book, parts: list[tuple[Arms, str]],
                       rnd: int) -> list[tuple[Arms, str]]:
        """C2-26: a part whose weapon has used its own attacks drops out; split forms: each form once a round."""
        out = []
        for w, t in parts:
            if self.opt.split_forms:
                if w.name in b.forms:
                    continue
            elif b.weapon_attacks.get(w.name, 0) >= attacks_in_round(self._rate(f, w), rnd):
                continue
            out.append((w, t))
        return out

    def _sf_terms(self, fight: Fight[Memo], f: Fighter, d: Order, rnd: int, phase: int) -> list[tuple[int, str]]:
        extra: list[tuple[int, str]] = []
        if d.extra.get("reposition") is True:
            extra.append((2, "repositioning (C2-03)"))
        if d.extra.get("draw") is True:
            extra.append((3, "drop and draw (C2-24)"))
        situation = d.extra.get("situation")
        for s in situation if isinstance(situation, list) else ():
            extra.append((SITUATIONS[str(s)], f"{s} (C2-29)"))
        if c2x_options(fight.ruleset).agility:  # C2-01, C2X-01: DEX's reaction brings the weapon to bear faster
            adj = dex_reaction_adjustment(f.dex)
            if adj:
                extra.append((-adj, f"DEX {f.dex} reaction (C2X-01)"))
        slowed, why = strike_penalty(f, (rnd, phase, 0, 0))
        if slowed:
            extra.append((slowed, why))
        return extra

    def defenseless(self, fight: Fight[Memo], target: Fighter, period: int) -> bool:
        """C2-08: a caster casting a spell with S, or a prone combatant."""
        if book(fight, target).prone_until >= period:
            return True
        if target.casting is not None or book(fight, target).casting_until >= period:
            spell = target.spells.get(target.casting or "")
            return spell is not None and "S" in spell.components
        return False

    def exposed(self, fight: Fight[Memo], target: Fighter, rnd: int, phase: int, period: int) -> bool:
        """C2-08: "A defenseless target unable to move out of the way of a blow ... may be attacked each phase": a
        caster casting with S or one prone (``defenseless``), or one held, as the phase begins, by a condition that
        leaves it helpless (asleep, held, paralysed, unconscious, G-09) or stationary and defenseless (C2X-03)."""
        if self.defenseless(fight, target, period):
            return True
        if not target.conditions:
            return False
        return any(effect_of(name).helpless or name == "defenseless" for name, _ in active(target, (rnd, phase, 0, 0)))

    def retarget(self, fight: Fight[Memo], step: Step, target: Fighter) -> str:
        """C2-04: the target fell on an earlier half-segment: strike another at +3 SF, or keep the attack."""
        a = step.actor
        b = book(fight, a)
        other = fight.state.fighters.get(str(step.decl.extra.get("retarget"))) if step.decl else None
        rnd, phase = step.tick[0], step.tick[1]
        if other is None or not other.active or phase > 3 or step.index > 0:
            if step.index == 0 and "touch" not in step.tags:
                self._refund(b)  # nothing was swung: the attack is kept for a later phase
            return (f"{target.name} fell on an earlier half-segment: the attack is held for a later phase "
                    "(C2-04)")
        speed = adjusted_sf(a, step.weapon or a.weapon(None), [(3, "retargeting (C2-04)")])
        slot = max(band(speed.sf, winner=b.track == "winner"), step.tick[2])
        fight.push(Step((rnd, phase, slot, 0), a, step.kind, self.words.at_hs(rnd, phase, slot, b.track),
                        f"{b.track} track, retargeting {other.name}: {speed.text()} falls in band {band_text(speed.sf)}"
                        f": half-segment {6 * (phase - 1) + slot} (C2-04)", decl=step.decl, target=other.name,
                        weapon=step.weapon, index=step.index, tags=frozenset({"retarget"})))
        return f"{target.name} fell on an earlier half-segment: {a.name} turns on {other.name} at +3 SF (C2-04)"

    def _ambush(self, fight: Fight[Memo], f: Fighter, target: Fighter, d: Order, rnd: int, phase: int,
                period: int) -> None:
        """C2-22, C2-27: ambushed mid-fight, the victim must pass a surprise roll (+1 casting) to answer."""
        given = d.dice_given[0].other("surprise") if d.dice_given else None
        roll = fight.roller.die(10, "surprise", target.name, given)
        bonus = 1 if target.casting is not None else 0
        ok = roll + bonus > 3
        if not ok:
            book(fight, target).lost_phase = period + 1
        fight.emit(Check, (rnd, phase, 0, 1), self.words.at(rnd, phase, "stating intentions"), target.name,
                   passed=ok, why=f"ambushed by {f.name} mid-fight: a surprise roll to return the attack (C2-22, "
                   "C2-27)", detail=f"d10 {roll}" + (" +1 (mid-incantation)" if bonus else "") + f" = {roll + bonus}: "
                   + ("not surprised" if ok else "surprised (1-3): loses its next phase"))


def below_1_hd(f: Fighter) -> bool:
    return f.hd is not None and f.klass == "monster" and f.hd < 1
