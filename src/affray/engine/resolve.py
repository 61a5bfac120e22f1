"""Resolving one step: preemption, attacks (G-04), casting, movement with attacks of opportunity."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from affray.crits import aftermath, blocked, follow_up, hit_damage, miss
from affray.engine.events import Event, Tick
from affray.engine.ruleset import Step

if TYPE_CHECKING:
    from affray.engine.engine import Fight
    from affray.engine.state import Fighter

__all__ = ["attack", "resolve_step"]


def resolve_step(fight: Fight, step: Step) -> None:
    if step.cancelled:
        return
    _resolve(fight, step)
    fight.ruleset.resolved(fight, step)


def _resolve(fight: Fight, step: Step) -> None:
    if step.kind in fight.ruleset.own_kinds:  # resolved by the ruleset even when its actor has fallen
        fight.ruleset.resolve_own(fight, step)
        return
    a = step.actor
    if step.kind == "wound":  # damage already on its way (Ruleset.lands): it lands even if the attacker fell
        target = fight.state.fighters[step.target]  # type: ignore[index]
        fight.emit("wound", step.tick, step.at, a.name, target=target.name, damage=step.amount, why=step.why or None,
                   detail=step.note or None, data={"subdual": "subdual" in step.tags})
        return
    if not a.active:
        why = f"{a.name} {'fell' if a.down else 'left the fight'} before this moment (G-05)"
        fight.emit("impossible", step.tick, step.at, a.name, why=why if fight.explain else None,
                   detail=f"{step.kind} cancelled" if fight.explain else None)
        return
    counter = step.counter
    if counter is not None and counter.actor.active and attack(fight, counter, a).hit:
        fight.emit("impossible", step.tick, step.at, a.name, target=step.target,
                   why=f"{counter.actor.name}'s readied strike hit first and stops it ({counter.note})",
                   detail=f"{step.kind} cancelled")
        return
    refusal = blocked(fight, step) if a.conditions else None
    if refusal is None:
        refusal = fight.ruleset.refuse(fight, step)
    if refusal is not None:
        fight.emit("impossible", step.tick, step.at, a.name, why=refusal,
                   detail=f"{step.kind} cancelled" if fight.explain else None)
        return
    kind = step.kind
    if fight.ruleset.resolve(fight, step):
        return
    if kind not in ("move", "cast-start", "cast") and not _provoked(fight, step):
        return
    if kind in ("melee", "missile"):
        target = fight.state.fighters[step.target]  # type: ignore[index]
        if not target.active:
            fight.emit("impossible", step.tick, step.at, a.name, target=target.name,
                       why=f"the target {target.name} is {'down' if target.down else 'gone'} (G-05)"
                       if fight.explain else None, detail=f"{kind} cancelled" if fight.explain else None)
            return
        attack(fight, step, target)
    elif kind == "move":
        _move(fight, step)
    elif kind == "cast-start":
        spell = step.spell
        assert spell is not None
        cannot = a.can_cast(spell)
        if cannot is not None:
            fight.emit("impossible", step.tick, step.at, a.name, spell=spell.name, why=cannot,
                       detail="cast cancelled")
            return
        fight.emit("cast-start", step.tick, step.at, a.name, spell=spell.name, target=step.target,
                   why=step.why)
        _provoked(fight, step)  # casting in reach: the attack lands while the caster is casting
    elif kind == "cast":
        _cast(fight, step)
    else:
        fight.emit(kind, step.tick, step.at, a.name, target=step.target, why=step.why,
                   detail=step.note or None)


def attack(fight: Fight, step: Step, target: Fighter, *, opportunity: bool = False) -> Event:
    """Resolve one attack roll (G-04) and emit it."""
    a = step.actor
    weapon = step.weapon if step.weapon is not None else a.weapons[0]
    ruleset = fight.ruleset
    mods = ruleset.attack_mods(fight, step, target)
    decl = step.decl
    outcome = None
    critical = None
    given_attack = given_damage = None
    if decl is not None and not opportunity:
        outcomes = decl.outcomes
        if step.index < len(outcomes):
            outcome = outcomes[step.index]
        dice = decl.dice_given
        if step.index < len(dice):
            given_attack, given_damage = dice[step.index].attack, dice[step.index].damage
    explain = fight.explain
    detail = ""
    if outcome is None and given_attack is None and fight.outcome_provider is not None:
        outcome = fight.outcome_provider(a.name, target.name, step.kind)  # the referee's word at the table
    if outcome is not None:
        hit, damage = outcome.hit, outcome.damage if outcome.hit else 0
        if explain:
            detail = f"the referee's outcome: {'hit, ' + str(damage) + ' damage' if hit else 'miss'}"
    else:
        roller = fight.roller
        d = roller.die(20, "attack", a.name, given_attack)
        to_hit = mods.hit
        ac = target.ac + mods.ac
        need = a.thac0 - ac
        total = d + to_hit
        natural = ruleset.opt["natural_20"]
        hit = d == 20 if natural and d in (1, 20) else total >= need
        damage = 0
        crits = ruleset.opt["crits"] != "none"
        critical_text = ""
        if hit:
            expr = weapon.damage
            if weapon.damage_large is not None and target.spec.size in ("large", "huge", "gargantuan"):
                expr = weapon.damage_large
            if crits:  # C2X-03/04: the damage follows the margin and the natural roll
                damage, critical_text, critical = hit_damage(fight, step, expr, mods, d, total, need, given_damage)
            else:
                rolled = roller.dice(expr, "damage", a.name, times=mods.dice_times, given=given_damage)
                damage = max(1, rolled + expr.bonus + mods.damage)
        elif crits:
            critical_text, critical = miss(fight, step, d, total, need)
        if explain:
            hits = mods.text("hit")
            acs = mods.text("ac")
            nat = " (natural 20)" if natural and d == 20 else " (natural 1)" if natural and d == 1 else ""
            detail = (f"d20 {d}{hits} = {total} vs THAC0 {a.thac0} - AC {target.ac}{acs} = {need}{nat}: "
                      f"{'hit' if hit else 'miss'}")
            if hit and crits:
                detail += f"; {critical_text}"
            elif crits:
                detail += critical_text
            elif hit:
                times = f" x{mods.dice_times} dice" if mods.dice_times > 1 else ""
                bonus = f" {expr.bonus:+d}" if expr.bonus else ""
                dm = mods.text("damage")
                detail += f"; {expr.text}{times}: {rolled}{bonus}{dm} = {damage} damage"
    data: dict[str, Any] = {"weapon": weapon.name}
    struck: Fighter | None = target
    if hit:
        struck, note = ruleset.redirect(fight, step, target)
        if note and explain:
            detail += f"; {note}"
        if struck is None:
            hit, damage = False, 0
            data["cover"] = True
    if struck is None:
        struck = target
    if hit and damage and ruleset.absorb(fight, struck, damage, magic=False):
        data["splinter"] = True
        if explain:
            detail += f"; {struck.name}'s shield takes the blow and splinters (MJ-19)"
        damage = 0
    if mods.subdual:
        data["subdual"] = True
    casting = struck.casting
    lands = ruleset.lands(fight, step, damage) if damage > 0 else None
    if lands is not None:
        data["lands"] = lands
        _wound(fight, step, lands, struck.name, damage, f"the {step.kind} hit of {step.at or list(step.tick)}",
               subdual=mods.subdual)
    event = fight.emit(step.kind if step.kind in ("melee", "missile") else "melee", step.tick, step.at, a.name,
               target=struck.name, hit=hit, damage=damage, opportunity=opportunity, why=step.why or None,
               detail=detail or None, data=data)
    if damage > 0 and casting is not None and struck.casting == casting:
        _disrupt(fight, step, struck, casting, f"{struck.name} took {damage} damage while casting {casting}")
    if critical is not None:
        aftermath(fight, step, struck, critical)
    if a.conditions and not opportunity:
        follow_up(fight, step, struck)
    return event


_RUIN = {"spell-ruined": "the spell is ruined for this casting", "spell-lost": "the spell is ruined and lost "
         "from memory"}


def _disrupt(fight: Fight, step: Step, caster: Fighter, spell: str, why: str) -> None:
    """G-11: damage reached a caster mid-casting; the ruleset says whether the spell is ruined or lost."""
    ruin = fight.ruleset.interrupt(fight, caster, step)
    if ruin is not None:
        fight.emit(ruin, step.tick, step.at, caster.name, spell=spell, why=why if fight.explain else None,
                   detail=_RUIN.get(ruin))


def _wound(fight: Fight, step: Step, lands: Tick, target: str, damage: int, source: str, *,
           subdual: bool = False) -> None:
    """Damage that lands later than its blow or spell (``Ruleset.lands``): a ``wound`` step then."""
    explain = fight.explain
    fight.push(Step(lands, step.actor, "wound", fight.ruleset.at(fight, lands),
                    f"{source}: its damage lands now" if explain else "", target=target, amount=damage,
                    note=f"-> {target}: {damage} damage lands" if explain else "",
                    tags=frozenset({"subdual"}) if subdual else frozenset()))


def _provoked(fight: Fight, step: Step) -> bool:
    """Attacks of opportunity that ``step`` provokes (the ruleset's ``provoked``); False if they felled the actor."""
    a = step.actor
    provoked = fight.ruleset.provoked(fight, step)
    if not provoked:
        return True
    before = a.hp
    for attacker, weapon, why in provoked:
        if attacker.active and a.active:
            attack(fight, Step(step.tick, attacker, "melee", step.at, why, target=a.name, weapon=weapon), a,
                   opportunity=True)
    if a.hp <= 0 < before and step.kind != "cast-start":
        fight.emit("impossible", step.tick, step.at, a.name, target=step.target,
                   why=f"{a.name} fell to an attack of opportunity before acting" if fight.explain else None,
                   detail=f"{step.kind} cancelled" if fight.explain else None)
        return False
    return True


def _move(fight: Fight, step: Step) -> None:
    mover = step.actor
    stopped = False
    for attacker, weapon, why in fight.ruleset.opportunity(fight, step):
        if not attacker.active:
            continue
        aoo = Step(step.tick, attacker, "melee", step.at, why, target=mover.name, weapon=weapon)
        if attack(fight, aoo, mover, opportunity=True).damage and fight.ruleset.opportunity_stops:
            stopped = True
    tags = step.tags
    data = {"feet": step.feet, "mode": step.mode, "stopped": stopped, "disengage": "disengage" in tags,
            "leaves": "leaves" in tags}
    detail = step.note
    if stopped and fight.explain:
        detail = (detail + "; " if detail else "") + "stopped: an opportunity attack drew blood"
    fight.emit("move", step.tick, step.at, mover.name, target=step.target, why=step.why, detail=detail or None,
               data=data)


def _cast(fight: Fight, step: Step) -> None:
    a = step.actor
    spell = step.spell
    assert spell is not None
    if a.casting != spell.name:
        return  # ruined earlier: the spell-ruined or spell-lost event already said so
    cannot = a.can_cast(spell)
    if cannot is not None:  # a ruleset that starts casting itself: the pool is checked when the spell completes
        fight.emit("spell-ruined", step.tick, step.at, a.name, spell=spell.name, why=cannot,
                   detail="the spell cannot be paid for")
        return
    state = fight.state
    targets: list[Fighter] = []
    if step.target in state.fighters:
        targets = [state.fighters[step.target]]
    elif step.target in state.sides:
        targets = [f for f in state.sides[step.target] if f.active]
    targets = [t for t in targets if t.active]
    effects: list[tuple[str, int]] = []
    splinter: list[str] = []
    detail = ""
    if spell.damage is not None and targets and not spell.damage_at:  # delayed damage is the ruleset's
        outcomes = step.decl.outcomes if step.decl is not None else []
        if outcomes:
            dmg = outcomes[0].damage if outcomes[0].hit else 0
            detail = f"the referee's outcome: {dmg} damage"
        else:
            rolled = fight.roller.dice(spell.damage, "spell damage", a.name)
            dmg = max(0, rolled + spell.damage.bonus)
            detail = f"{spell.damage.text}: {rolled}" + (f" {spell.damage.bonus:+d}" if spell.damage.bonus else "")
            detail += f" = {dmg} damage"
        lands = fight.ruleset.lands(fight, step, dmg) if dmg else None
        for t in targets:
            if dmg and fight.ruleset.absorb(fight, t, dmg, magic=True):
                splinter.append(t.name)
                detail += f"; {t.name}'s rowan shield turns the magic (MJ-19)"
            elif lands is not None:
                _wound(fight, step, lands, t.name, dmg, f"{spell.name}, cast at {step.at or list(step.tick)}")
            else:
                effects.append((t.name, dmg))
    casting = {t.name: t.casting for t in targets if t.casting is not None and t is not a}
    fight.emit("cast", step.tick, step.at, a.name, spell=spell.name, target=step.target, why=step.why,
               detail=(detail or None) if fight.explain else None,
               data={"effects": dict(effects), "splinter": tuple(splinter)})
    for name, dmg in effects:  # G-11: a spell's damage disrupts a caster too, if the ruleset says so
        struck = state.fighters[name]
        if dmg > 0 and name in casting and struck.casting == casting[name]:
            _disrupt(fight, step, struck, casting[name],
                     f"{name} took {dmg} damage from {spell.name} while casting {casting[name]}")
    fight.ruleset.took_effect(fight, step)
