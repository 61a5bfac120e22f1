"""Resolving one step: preemption, attacks (G-04), casting, movement with attacks of opportunity.

``Engine`` is the fight with its resolution: the engine's own checks (the actor fell, a readied strike
stops it), then the chain of step rules (``rules.py``: refusals, modifiers, redirection, absorption,
when damage lands, what damage does to a caster), then the action itself.
"""

from __future__ import annotations

from typing import TypeVar

from affray.engine.conditions import effect_of, hit_dice, save_bonus, unable
from affray.engine.events import (
    Cast,
    CastStart,
    Delay,
    Effect,
    Expire,
    Impossible,
    Melee,
    Misc,
    Missile,
    Move,
    SpellLost,
    SpellRuined,
    Surrender,
    Tick,
    Wait,
    Wound,
)
from affray.engine.fight import FOREVER, Fight
from affray.engine.places import missile_refusal, range_mod, reach_refusal, whither
from affray.engine.rules import KEPT, LOST
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, AttackRoll, Step, Until
from affray.model.encounter import Outcome, Spell, parse_duration
from affray.model.place import apart

__all__ = ["Engine"]

S = TypeVar("S")

#: Step kinds the engine resolves as a plain timed event.
_PLAIN = {"misc": Misc, "wait": Wait, "delay": Delay, "surrender": Surrender}
_AUTOMATIC = Outcome(hit=True, damage=0)  # marks an automatic hit, its damage already thrown
_RUIN = {"spell-ruined": "the spell is ruined for this casting", "spell-lost": "the spell is ruined and lost "
         "from memory"}
#: What a routed combatant still does (G-07): it moves away (its flight), or waits.
_ROUTED_MAY = frozenset({"move", "wait", "delay", "surrender"})
#: Step kinds the engine places for later itself: an attack owed (C2X-03), a spell's effect landing (SEG-10).
_LATER = frozenset({"owed", "spell-effect"})


class Engine(Fight[S]):
    """A fight that resolves its steps."""

    def resolve_step(self, step: Step) -> None:
        if step.cancelled:
            return
        self._resolve(step)
        self.rules.resolved(self, step)

    def _impossible(self, step: Step, why: str | None, detail: str | None = None, *, target: str | None = None,
                    spell: str | None = None) -> None:
        step.failed = True
        self.record(Impossible(step.tick, step.at, self.round_at(step.tick), step.actor.name, why,
                               detail if detail is not None else f"{step.kind} cancelled" if self.explain else None,
                               target=target, spell=spell, rolls=self.rolls(), ends="ends" in step.tags))

    def _resolve(self, step: Step) -> None:  # noqa: C901
        if step.kind in self.own_kinds:  # the ruleset's own kind of step: its one route
            self.ruleset.resolve_own(self, step)
            return
        a = step.actor
        if step.kind == "end-condition":  # G-08: a condition's time is up (unless it ended, or its holder is dead
            held = a.conditions.get(step.note)  # or gone: nothing to tell; an unconscious one may be healed)
            if held is not None and held.until == step.tick and (a.active or a.unconscious):
                self.emit(Expire, step.tick, step.at, held.by, why=step.why or None, target=a.name,
                          condition=step.note, detail=f"{a.name} is no longer {step.note}")
                if not effect_of(step.note).acts and a.active:
                    self.ruleset.ready(self, a)  # it may act again: a ruleset that places actions as they come
            return
        if step.kind in _LATER:
            if step.kind == "owed":  # an attack owed by a condition (C2X-03's free attack) not taken in its window
                self._owed(step)
            else:  # a spell's effect on its way (Rule.lands, SEG-10): it lands even if its caster fell
                self._effect_lands(step)
            return
        if step.kind == "wound":  # damage already on its way (Rule.lands): it lands even if the attacker fell
            self.emit(Wound, step.tick, step.at, a.name, target=step.target, damage=step.amount,
                      why=step.why or None, detail=step.note or None, subdual="subdual" in step.tags)
            return
        if not self.may_act(step):
            return
        kind = step.kind
        if kind not in ("move", "cast-start", "cast") and not self._provoked(step):
            return
        if kind in ("melee", "missile"):
            target = self.state.fighters[step.target]  # type: ignore[index]
            if not target.active:
                self._impossible(step, f"the target {target.name} is {'down' if target.down else 'gone'} (G-05)"
                                 if self.explain else None, target=target.name)
                return
            weapon = step.weapon if step.weapon is not None else a.weapons[0]
            far = (missile_refusal(a, target, weapon) if kind == "missile" else
                   reach_refusal(a, target, weapon) if self.state.placed else None)
            if far is not None:
                self._impossible(step, far, target=target.name)
                return
            self.attack(step, target)
        elif kind == "move":
            self._move(step)
        elif kind == "cast-start":
            spell = step.spell
            assert spell is not None
            cannot = a.can_cast(spell)
            if cannot is not None:
                self._impossible(step, cannot, "cast cancelled", spell=spell.name)
                return
            self.emit(CastStart, step.tick, step.at, a.name, spell=spell.name, target=step.target, why=step.why)
            self._provoked(step)  # casting in reach: the attack lands while the caster is casting
        elif kind == "cast":
            self._cast(step)
        else:
            self.emit(_PLAIN[kind], step.tick, step.at, a.name, target=step.target, why=step.why,
                      detail=step.note or None)

    def _owed(self, step: Step) -> None:
        """An attack that condition ``step.note`` owes its holder (a critical 10's free attack next phase, C2X-03),
        at the end of the window: if the holder has not taken it with a regular attack meanwhile, it takes it now,
        as a free attack of the kind and weapon of ``step`` (its dice are the declaration's, ``step.decl``)."""
        a = step.actor
        held = a.conditions.get(step.note)
        if held is None or held.until != step.tick:
            return  # taken already, or ended
        self.emit(Expire, step.tick, step.at, a.name, target=a.name, condition=step.note,
                  detail="the free attack is taken as its phase ends (C2X-03)")
        target = self.state.fighters.get(step.target or "")
        kind = "missile" if step.mode == "missile" else "melee"
        strike = Step(step.tick, a, kind, step.at, step.why, decl=step.decl, target=step.target, weapon=step.weapon,
                      tags=frozenset({"free"}))
        if target is not None and self.may_act(strike):
            if not target.active:
                self._impossible(strike, f"the target {target.name} is {'down' if target.down else 'gone'} (G-05)"
                                 if self.explain else None, target=target.name)
                return
            self.attack(strike, target)

    def may_act(self, step: Step) -> bool:
        """The engine's checks before an action: its actor still stands (G-05), no readied strike stops it,
        no rule refuses it. False once the ``impossible`` event says why not."""
        a = step.actor
        if not a.active:
            why = f"{a.name} {'fell' if a.down else 'left the fight'} before this moment (G-05)"
            self._impossible(step, why if self.explain else None)
            return False
        if a.routed and step.kind not in _ROUTED_MAY:  # G-07: a routed combatant flees and does nothing else
            if step.kind == "cast" and a.casting is not None:
                self.emit(SpellRuined, step.tick, step.at, a.name, spell=a.casting, why=f"{a.name} is routed: it "
                          "abandons the casting and flees (G-07)" if self.explain else None,
                          detail=_RUIN["spell-ruined"])
                step.failed = True
                return False
            self._impossible(step, unable(a, step.tick) if self.explain else None, target=step.target)
            return False
        counter = step.counter
        if (counter is not None and unable(counter.actor, step.tick, attack=True) is None
                and self.attack(counter, a).hit):
            self._impossible(step, f"{counter.actor.name}'s readied strike hit first and stops it ({counter.note})",
                             f"{step.kind} cancelled", target=step.target)
            return False
        refusal = self.rules.refuse(self, step)
        if refusal is not None:
            self._impossible(step, refusal)
            return False
        return True

    def attack_mods(self, step: Step, target: Fighter) -> AttackMods:
        """G-04: the weapon's magic bonus, then what the chain of rules adds."""
        mods = AttackMods()
        weapon = step.weapon
        if weapon is not None and weapon.magic:
            mods.add("hit", weapon.magic, "magic weapon")
            mods.add("damage", weapon.magic, "magic weapon")
        if weapon is not None and step.kind == "missile" and self.state.placed:
            band = range_mod(step.actor, target, weapon)
            if band is not None:
                mods.add("hit", band[0], band[1])
        self.rules.mods(self, step, target, mods)
        return mods

    def attack(self, step: Step, target: Fighter, *, opportunity: bool = False) -> Melee:  # noqa: C901
        """Resolve one attack roll (G-04) and emit it."""
        a = step.actor
        weapon = step.weapon if step.weapon is not None else a.weapons[0]
        rules = self.rules
        mods = self.attack_mods(step, target)
        decl = step.decl
        outcome = None
        given_attack = given_damage = None
        if decl is None and (opportunity or "counter" in step.tags):  # a free attack: the file's, by round (G-06)
            decl = self.free_dice(step, target.name)
            step.decl = decl  # its own step: the rules that read its dice (a critical's d10) find them there
        if decl is not None:
            outcomes = decl.outcomes
            if step.index < len(outcomes):
                outcome = outcomes[step.index]
            dice = decl.dice_given
            if step.index < len(dice):
                given_attack, given_damage = dice[step.index].attack, dice[step.index].damage
        explain = self.explain
        detail = ""
        roll: AttackRoll | None = None
        asked = False
        if outcome is None and mods.automatic is not None:  # a helpless target (G-09): a d20 given is not needed
            expr = weapon.damage_large if (weapon.damage_large is not None and target.size in
                                           ("large", "huge", "gargantuan")) else weapon.damage
            rolled = self.roller.dice(expr, "damage", a.name, times=mods.dice_times, given=given_damage)
            hit, damage = True, max(1, rolled + expr.bonus + mods.damage)
            if explain:
                detail = (f"{mods.automatic}; {expr.text}: {rolled}{f' {expr.bonus:+d}' if expr.bonus else ''}"
                          f"{mods.text('damage')} = {damage} damage")
            outcome = _AUTOMATIC
        elif outcome is None and given_attack is None and self.asker is not None:
            answer = self.asker.attack_roll(self, step, target)  # the referee at the table (G-06)
            asked = True
            if isinstance(answer, int):
                given_attack = answer
            else:
                outcome = answer
        if outcome is _AUTOMATIC:
            pass
        elif outcome is not None:
            hit, damage = outcome.hit, outcome.damage if outcome.hit else 0
            if explain:
                detail = f"the referee's outcome: {'hit, ' + str(damage) + ' damage' if hit else 'miss'}"
        else:
            roller = self.roller
            d = roller.die(20, "attack", a.name, given_attack, source="referee" if asked else "file", ask=not asked)
            ac = target.ac + mods.ac
            need = a.thac0 - ac
            total = d + mods.hit
            natural = self.natural_20
            hit = d == 20 if natural and d in (1, 20) else total >= need
            expr = weapon.damage
            if hit and weapon.damage_large is not None and target.size in ("large", "huge", "gargantuan"):
                expr = weapon.damage_large
            worked = None  # the damage and its words, when a rule worked them out (the critical tables, C2X-03/04)
            if rules.reads_rolls:
                roll = AttackRoll(step, target, weapon, mods, d, total, need, hit, expr, given_damage)
                rules.rolled(self, roll)
                worked = roll.damage
            rolled = damage = 0
            if hit:
                if worked is None:
                    rolled = roller.dice(expr, "damage", a.name, times=mods.dice_times, given=given_damage)
                    worked = max(1, rolled + expr.bonus + mods.damage)
                damage = worked
            if explain:
                nat = " (natural 20)" if natural and d == 20 else " (natural 1)" if natural and d == 1 else ""
                detail = (f"d20 {d}{mods.text('hit')} = {total} vs THAC0 {a.thac0} - AC {target.ac}{mods.text('ac')}"
                          f" = {need}{nat}: {'hit' if hit else 'miss'}")
                if roll is not None and roll.text:
                    detail += f"; {roll.text}" if hit else roll.text
                elif hit:
                    times = f" x{mods.dice_times} dice" if mods.dice_times > 1 else ""
                    bonus = f" {expr.bonus:+d}" if expr.bonus else ""
                    detail += f"; {expr.text}{times}: {rolled}{bonus}{mods.text('damage')} = {damage} damage"
        cover = splinter = False
        struck: Fighter | None = target
        if hit:
            struck, note = rules.redirect(self, step, target)
            if note and explain:
                detail += f"; {note}"
            if struck is None:
                hit, damage = False, 0
                cover = True
        if struck is None:
            struck = target
        absorbed = rules.absorb(self, struck, damage, magic=False) if hit and damage else None
        if absorbed is not None:
            splinter = True
            if explain:
                detail += f"; {absorbed}"
            damage = 0
        casting = struck.casting
        lands = rules.lands(self, step, damage) if damage > 0 else None
        if lands is not None:
            self._wound(step, lands, struck.name, damage, f"the {step.kind} hit of {step.at or list(step.tick)}",
                        subdual=mods.subdual)
        rnd, why, lands_at = self.round_at(step.tick), step.why or None, lands[0] if lands is not None else None
        if step.kind == "missile":  # built by a direct call, a class each (the hot path's way, Fight.record)
            event: Melee = Missile(step.tick, step.at, rnd, a.name, why, detail or None, target=struck.name, hit=hit,
                                   damage=damage, opportunity=opportunity, weapon=weapon.name, cover=cover,
                                   splinter=splinter, subdual=mods.subdual, lands=lands_at, rolls=self.rolls())
        else:
            event = Melee(step.tick, step.at, rnd, a.name, why, detail or None, target=struck.name, hit=hit,
                          damage=damage, opportunity=opportunity, weapon=weapon.name, cover=cover, splinter=splinter,
                          subdual=mods.subdual, lands=lands_at, rolls=self.rolls())
        self.record(event)
        if damage > 0 and casting is not None and struck.casting == casting:
            self.disrupt(step, struck, casting, f"{struck.name} took {damage} damage while casting {casting}")
        if rules.reads_rolls:
            rules.struck(self, step, struck, event, roll)
        return event

    def disrupt(self, step: Step, caster: Fighter, spell: str, why: str) -> None:
        """G-11: damage reached a caster mid-casting; the rules say whether the spell is ruined or lost."""
        ruin = self.rules.interrupt(self, caster, step)
        if ruin != KEPT:
            self.emit(SpellLost if ruin == LOST else SpellRuined, step.tick, step.at, caster.name, spell=spell,
                      why=why if self.explain else None, detail=_RUIN.get(ruin))

    def _wound(self, step: Step, lands: tuple[Tick, str], target: str, damage: int, source: str, *,
               subdual: bool = False) -> None:
        """Damage that lands later than its blow or spell (``Rule.lands``): a ``wound`` step then."""
        explain = self.explain
        tick, at = lands
        self.push(Step(tick, step.actor, "wound", at, f"{source}: its damage lands now" if explain else "",
                       target=target, amount=damage, note=f"-> {target}: {damage} damage lands" if explain else "",
                       tags=frozenset({"subdual"}) if subdual else frozenset()))

    def _provoked(self, step: Step) -> bool:
        """Free attacks that ``step`` (not a move) provokes; False if they felled the actor."""
        a = step.actor
        provoked = self.free_attackers(step)
        if not provoked:
            return True
        before = a.hp
        for attacker, weapon, why in provoked:
            if a.active and unable(attacker, step.tick, attack=True) is None:
                self.attack(Step(step.tick, attacker, "melee", step.at, why, target=a.name, weapon=weapon), a,
                            opportunity=True)
        if a.hp <= 0 < before and step.kind != "cast-start":
            self._impossible(step, f"{a.name} fell to an attack of opportunity before acting" if self.explain
                             else None, target=step.target)
            return False
        return True

    def _move(self, step: Step) -> None:
        mover = step.actor
        stopped = False
        for attacker, weapon, why in self.free_attackers(step):
            if unable(attacker, step.tick, attack=True) is not None:  # one felled by an earlier free attack's answer
                continue
            aoo = Step(step.tick, attacker, "melee", step.at, why, target=mover.name, weapon=weapon)
            if self.attack(aoo, mover, opportunity=True).damage and self.ruleset.opportunity_stops:
                stopped = True
        tags = step.tags
        detail = step.note
        if stopped and self.explain:
            detail = (detail + "; " if detail else "") + (f"stopped: an opportunity attack drew blood, so none of "
                                                          f"its {step.feet} ft is covered")
        feet = 0 if stopped else step.feet
        here = mover.pos
        there = whither(self.state, step, feet) if here is not None else None
        if there is not None and here is not None:  # a closing stops at reach, whatever its allowance
            feet = min(feet, round(apart(here, there)))
        why = step.why
        if there is not None and here is not None and self.explain:
            why = (why + "; " if why else "") + f"{feet} ft, {here[0]},{here[1]} -> {there[0]},{there[1]}"
        self.record(Move(step.tick, step.at, self.round_at(step.tick), mover.name, why, detail or None,
                         target=step.target, feet=feet, mode=step.mode, stopped=stopped,
                         disengage="disengage" in tags, leaves="leaves" in tags, rolls=self.rolls(),
                         from_=here, to=there))

    def _cast(self, step: Step) -> None:  # noqa: C901
        a = step.actor
        spell = step.spell
        assert spell is not None
        if a.casting != spell.name:
            step.failed = True
            return  # ruined earlier: the spell-ruined or spell-lost event already said so
        cannot = a.can_cast(spell)
        if cannot is not None:  # a ruleset that starts casting itself: the pool is checked when the spell completes
            step.failed = True
            self.emit(SpellRuined, step.tick, step.at, a.name, spell=spell.name, why=cannot,
                      detail="the spell cannot be paid for")
            return
        state = self.state
        targets = self._targets(step.target)
        if step.target is not None and not targets:  # G-05: whom it was cast at left the fight before it took effect
            step.failed = True
            gone = state.fighters.get(step.target)
            self.emit(SpellLost, step.tick, step.at, a.name, spell=spell.name,
                      why=(f"{step.target} is out of the fight ({'down' if gone.down else 'gone'}) before {spell.name} "
                           "takes effect (G-05)" if gone is not None else f"no one of {step.target} is left in the "
                           f"fight when {spell.name} takes effect (G-05)") if self.explain else None,
                      detail=f"{spell.name} is spent on no one" if self.explain else None)
            return
        effects: dict[str, int] = {}
        splinter: list[str] = []
        detail = ""
        decl = step.decl
        if spell.damage is not None and targets and not spell.damage_at:  # delayed damage is the ruleset's
            outcomes = decl.outcomes if decl is not None else []
            if outcomes:
                dmg = outcomes[0].damage if outcomes[0].hit else 0
                detail = f"the referee's outcome: {dmg} damage"
            else:  # G-06: the damage dice rolled at the table, the first ``dice`` entry's ``damage``
                rolled = self.roller.dice(spell.damage, "spell damage", a.name,
                                          given=decl.dice_given[0].damage if decl and decl.dice_given else None)
                dmg = max(0, rolled + spell.damage.bonus)
                detail = f"{spell.damage.text}: {rolled}" + (f" {spell.damage.bonus:+d}" if spell.damage.bonus else "")
                detail += f" = {dmg} damage"
            lands = self.rules.lands(self, step, dmg) if dmg else None
            halves = self._halves(step, spell, targets) if spell.damage_save is not None and dmg else {}
            for t in targets:
                took = dmg if not halves.get(t.name, ("", False))[1] else dmg // 2 if spell.damage_save == "half" else 0
                if t.name in halves:
                    detail += f"; {halves[t.name][0]}: {took}"
                absorbed = self.rules.absorb(self, t, took, magic=True) if took else None
                if absorbed is not None:
                    splinter.append(t.name)
                    detail += f"; {absorbed}"
                elif lands is not None and took:
                    self._wound(step, lands, t.name, took, f"{spell.name}, cast at {step.at or list(step.tick)}")
                elif lands is None:
                    effects[t.name] = took
        casting = {t.name: t.casting for t in targets if t.casting is not None and t is not a}
        affected: list[Fighter] = []
        later_effect = False
        if spell.effect is not None and targets:
            later = self.rules.lands(self, step, 0)  # SEG-10: spell effects land with its damage, not at once
            later_effect = later is not None
            if later is not None:
                cast_at = step.at or str(list(step.tick))
                self.push(Step(later[0], a, "spell-effect", later[1], f"{spell.name}, cast at {cast_at}: its effect "
                               "lands now" if self.explain else "", decl=decl, target=step.target, spell=spell,
                               tags=frozenset(f"spared:{n}" for n in splinter)))
            else:
                affected, words, turned = self._affected(step, spell, targets, set(splinter))
                splinter += turned
                detail = "; ".join(x for x in (detail, words) if x)
        healed: dict[str, int] = {}
        if spell.heal is not None and targets:
            healed, words = self._heal(step, spell, a, targets)
            detail = "; ".join(x for x in (detail, words) if x)
        self.emit(Cast, step.tick, step.at, a.name, spell=spell.name, target=step.target, why=step.why,
                  detail=(detail or step.note or None) if self.explain else None, effects=effects,
                  splinter=tuple(splinter), healed=healed)
        for name, dmg in effects.items():  # G-11: a spell's damage disrupts a caster too, if the rules say so
            struck = state.fighters[name]
            if dmg > 0 and name in casting and struck.casting == casting[name]:
                self.disrupt(step, struck, casting[name],
                              f"{name} took {dmg} damage from {spell.name} while casting {casting[name]}")
        for t in affected:
            self._condition(step, spell, t)
        if spell.effect is not None and spell.effect.foes is not None and targets and not later_effect:
            for t in self._foes(step, spell, targets):
                self._condition(step, spell, t, spell.effect.foes)
        self.rules.took_effect(self, step)

    def _saves(self, step: Step, t: Fighter, k: int, mod: int = 0, why_mod: str = "") -> tuple[bool, str]:
        """``t``'s saving throw against ``step``'s spell, the ``k``-th target's: the d20 (the cast declaration's
        ``dice`` entry ``k``'s ``save``, else rolled) with the spell's ``mod`` and its conditions' bonus (prayer's
        +1) against its save (2e PH Table 60); whether it saves, and the words."""
        decl = step.decl
        given = decl.dice_given[k].other("save") if decl is not None and k < len(decl.dice_given) else None
        d = self.roller.die(20, "save", t.name, given)
        bonus, why = save_bonus(t, step.tick)
        terms = ([f"{mod:+d} ({why_mod})"] if mod else []) + ([f"{bonus:+d} ({why})"] if bonus else [])
        bonus += mod
        roll = f"d20 {d} {' '.join(terms)} = {d + bonus}" if terms else f"d20 {d}"
        if d + bonus >= t.save:
            return True, f"{t.name} saves ({roll} >= {t.save}, 2e PH Table 60)"
        return False, f"{t.name} fails to save ({roll} < {t.save})"

    def _halves(self, step: Step, spell: Spell, targets: list[Fighter]) -> dict[str, tuple[str, bool]]:
        """A save against a spell's damage, for half (fireball) or none (chill touch, 2e PH): each target's, rolled
        in order; the words and whether it saved."""
        out = {}
        for k, t in enumerate(targets):
            saved, words = self._saves(step, t, k)
            took = "full damage" if not saved else "half damage" if spell.damage_save == "half" else "no damage"
            out[t.name] = (f"{words}: {took}", saved)
        return out

    def _targets(self, target: str | None) -> list[Fighter]:
        """Who a spell at ``target`` (a combatant or a side) reaches: those of them still in the fight."""
        state = self.state
        if target in state.fighters:
            return [t for t in (state.fighters[target],) if t.active]
        if target in state.sides:
            return [f for f in state.sides[target] if f.active]
        return []

    def _effect_lands(self, step: Step) -> None:
        """A spell's effect that lands later than its casting (``Rule.lands``, SEG-10): on those of its targets still
        in the fight then, as it would have at the casting (``max_hd``, a saving throw, a rowan shield)."""
        spell = step.spell
        assert spell is not None
        targets = self._targets(step.target)
        spared = {t[7:] for t in step.tags if t.startswith("spared:")}  # their shields turned its damage already
        affected, words, turned = self._affected(step, spell, targets, spared)
        self.emit(Effect, step.tick, step.at, step.actor.name, target=step.target, spell=spell.name,
                  why=step.why or None, detail=(words or None) if self.explain else None, splinter=tuple(turned))
        for t in affected:
            self._condition(step, spell, t)
        if spell.effect is not None and spell.effect.foes is not None and targets:
            for t in self._foes(step, spell, targets):
                self._condition(step, spell, t, spell.effect.foes)

    def _heal(self, step: Step, spell: Spell, caster: Fighter, targets: list[Fighter]) -> tuple[dict[str, int], str]:
        """The hit points a healing spell gives back to each target (its dice rolled for each, or the ``heal`` of the
        declaration's ``dice`` entry for that target, G-06), never above those it started the fight with; the words
        for each."""
        heal = spell.heal
        assert heal is not None
        dice = step.decl.dice_given if step.decl is not None else ()
        healed: dict[str, int] = {}
        words = []
        for k, t in enumerate(targets):
            entered = dice[k].other("heal") if k < len(dice) else None
            rolled = max(0, self.roller.dice(heal, "healing", caster.name, given=entered) + heal.bonus)
            amount = max(0, min(rolled, t.spec.full_hp - t.hp))
            healed[t.name] = amount
            if self.explain:
                cap = f"; at most {amount} back to its full {t.spec.full_hp}" if amount < rolled else ""
                words.append(f"{t.name} regains {amount} hp ({heal.text}: {rolled}{cap})")
        return healed, f"{spell.name}: {', '.join(words)}" if words else ""

    def _affected(self, step: Step, spell: Spell, targets: list[Fighter],  # noqa: C901
                  spared: set[str]) -> tuple[list[Fighter], str, list[str]]:
        """The targets a spell's effect takes (``max_hd``; those in melee for one that takes the unengaged; a pool of
        Hit Dice, the fewest first, or a number of creatures; a saving throw; a shield given up to turn it, MJ-19),
        the words for each, and those whose shield turned it (``spared``: those whose shield turned the spell's damage
        already: one magic effect, one shield)."""
        effect = spell.effect
        assert effect is not None
        decl = step.decl
        given = decl.dice_given[0] if decl is not None and decl.dice_given else None
        out: list[Fighter] = []
        turned: list[str] = []
        words = []
        candidates = []
        standing = [x for x in targets if x.active]
        place = {t.name: k for k, t in enumerate(standing)}  # the ``dice`` entry of each target's save
        for t in standing:
            hd = hit_dice(t)
            if t.name in spared:
                continue
            if effect.max_hd is not None and hd > effect.max_hd:
                words.append(f"{t.name} ({hd:g} HD) above {effect.max_hd:g} HD: unaffected")
                continue
            if effect.unengaged and t.engaged:
                words.append(f"{t.name} is in melee: unaffected")
                continue
            if effect.condition in t.spec.immune:
                words.append(f"{t.name} is immune to being {effect.condition}: unaffected")
                continue
            candidates.append(t)
        if effect.pool is not None:  # the fewest Hit Dice first, in file order among equals; none in part
            pool = self.roller.dice(effect.pool, "hit dice", step.actor.name,
                                    given=given.other("pool") if given is not None else None) + effect.pool.bonus
            words.append(f"{effect.pool.text}: {pool} Hit Dice, the fewest first")
            left = float(pool)
            taken = []
            for t in sorted(candidates, key=lambda x: (hit_dice(x), x.index)):
                hd = hit_dice(t)
                if hd > left:
                    words.append(f"{t.name} ({hd:g} HD) does not fit in the {left:g} left: unaffected")
                    continue
                left -= hd
                taken.append(t)
            candidates = [t for t in candidates if t in taken]
        if effect.creatures is not None:
            most = self.roller.dice(effect.creatures, "creatures", step.actor.name,
                                    given=given.other("creatures") if given is not None else None)
            most = max(0, most + effect.creatures.bonus)
            words.append(f"{effect.creatures.text}: {most} creatures at most")
            for t in candidates[most:]:
                words.append(f"{t.name}: beyond the {most}: unaffected")
            candidates = candidates[:most]
        mod, why_mod = effect.save_mod, "the spell's" if effect.save_mod else ""
        if effect.save_by_count:
            n = len(candidates)
            mod = effect.save_by_count[min(n, len(effect.save_by_count)) - 1] if n else 0
            why_mod = f"{n} target{'s' if n != 1 else ''}"
        for t in candidates:
            if effect.save:
                saved, said = self._saves(step, t, place[t.name], mod, why_mod)
                words.append(said)
                if saved:
                    continue
            absorbed = self.rules.absorb(self, t, 0, magic=True, effect=effect.condition)
            if absorbed is not None:
                turned.append(t.name)
                words.append(absorbed)
                continue
            words.append(f"{t.name} {effect.condition}" if not effect.save else f"{words.pop()}: {effect.condition}")
            out.append(t)
        return out, f"{spell.name}: {', '.join(words)}" if words else "", turned

    def _foes(self, step: Step, spell: Spell, targets: list[Fighter]) -> list[Fighter]:
        """Who an effect's ``foes`` condition takes (prayer's -1): every standing member of the sides not named."""
        sides = {t.side for t in targets}
        return [f for f in self.state.order if f.active and f.side not in sides]

    def _condition(self, step: Step, spell: Spell, t: Fighter, condition: str | None = None) -> None:
        """A spell's effect on ``t``: its condition (or ``condition``: its ``foes``') for the effect's duration (else
        the spell's), on the ruleset's clock (G-08, G-09); a caster it stops from acting loses its spell (G-11)."""
        effect = spell.effect
        assert effect is not None
        condition = condition or effect.condition
        text = effect.duration or spell.duration
        if text is None:
            until = Until(FOREVER, "the referee ends it", "no duration given: until the referee ends it")
        else:
            until = self.ruleset.expiry(self, step.tick, *parse_duration(text))
        self.set_condition(step.tick, step.at, t, condition, until, by=step.actor.name, rule="G-09", step=step,
                           spell=spell.name, why=f"{spell.name} takes effect: {t.name} is {condition} "
                           f"{f'for {text}' if text else 'until the referee ends it'}, to {until.at} (G-08, G-09)"
                           if self.explain else None, detail=(until.why or None) if self.explain else None)
