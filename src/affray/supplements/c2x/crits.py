"""Critical hits and misses, Combat II's supplemental options for every ruleset (C2X-03, C2X-04): a plug-in rule.

Option ``crits``: ``none``; ``c2-tables`` (C2X-03: severe hit, the d10 critical-hit and critical-miss
tables); ``c2-severity`` (C2X-04: +1 damage a point over the number needed, maximum base damage on a
natural 20, severe and critical misses slowing the next strike).

Their timed effects are conditions (a ``condition`` event: who, which, until what tick; ``plugins.conditions``
says what each does) held on the fighter until the end of a phase that the ruleset names with its
``phase_end`` hook (option ``crit_phase``: the ruleset's phase, or whole rounds). A declaration's ``dice``
may carry the tables' dice: ``crit`` (the d10), ``crit_agi`` and ``crit_dex`` (d20 ability checks, roll at or
under the score), ``crit_phases`` (the d2 or d3 of a prone or sprawl's length), ``crit_fling`` (d12 ft),
``crit_break`` (d2: 1 the string, 2 the missile), ``damage2`` (the second throw of "roll twice, keep
the best"), ``extra_attack``/``extra_damage`` and ``free_attack``/``free_damage`` (the attacks a 9 or
10 grants).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from affray.dice.expr import DiceExpr
from affray.engine.events import Expire, Melee, Tick
from affray.engine.fight import FOREVER as FIGHT_END
from affray.engine.fight import Fight as _Fight
from affray.engine.rules import Rule
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, AttackRoll, Step, Until, given
from affray.model.encounter import Declaration, DiceGiven
from affray.model.order import Order, order_of
from affray.supplements.c2x.agility import agility
from affray.supplements.c2x.options import c2x_options

if TYPE_CHECKING:
    from affray.errors import Problem
    from affray.io.load import Loaded

__all__ = ["CRIT_DICE", "Critical", "Crits", "aftermath", "check_dice", "follow_up", "hit_damage", "miss",
           "phase_end"]

Fight = _Fight[Any]

_RULE = {"c2-tables": "C2X-03", "c2-severity": "C2X-04"}
#: A weapon dropped stays dropped to the end of the fight.
FOREVER = Until(FIGHT_END, "the end of the fight")

#: The dice a declaration's ``dice`` may carry for the critical tables, with their faces.
CRIT_DICE: dict[str, int] = {"crit": 10, "crit_agi": 20, "crit_dex": 20, "crit_phases": 3, "crit_fling": 12,
                             "crit_break": 2, "extra_attack": 20, "free_attack": 20}


@dataclass
class Critical:
    """What an attack roll set off: ``kind`` severe-hit, critical-hit, severe-miss or critical-miss."""

    kind: str
    roll: int | None = None  # the d10 of the tables
    penalty: int = 0  # C2X-04: SF added to the next strike


# -- the clock ------------------------------------------------------------------------------------------
def phase_end(fight: Fight, tick: Tick, later: int = 0, *, last: bool = False) -> Until:
    """The end of the "phase" holding ``tick``, ``later`` phases on, as option ``crit_phase`` reads it: the
    ruleset's phase, or whole rounds; ``last``: that phase's own last moment (``Ruleset.phase_end``)."""
    ruleset = fight.ruleset
    unit = ("last" if last else "phase") if c2x_options(ruleset).crit_phase == "phase" else "round"
    return ruleset.phase_end(fight, tick, later, unit)


# -- the attack roll --------------------------------------------------------------------------------------
def _reroll_minimums(fight: Fight, expr: DiceExpr, who: str, times: int, entered: int | None) -> tuple[int, str]:
    """The dice with every minimum roll rolled again (critical 1-4); a total entered at the table (the file's, or
    the referee's when asked: rerolls included) stands."""
    source = "file"
    if entered is None:
        entered, source = fight.roller.asked(expr, "damage", who, times=times), "referee"
    if entered is not None:
        return fight.roller.dice(expr, "damage", who, times=times, given=entered, source=source), ""
    total, again = 0, 0
    for n, sides in expr.groups:
        for _ in range(n * times):
            v = fight.roller.die(sides, "damage", who, ask=False)
            if v == 1 and sides > 1:
                v = fight.roller.die(sides, "damage (minimum rerolled)", who, ask=False)
                again += 1
            total += v
    return total, f" ({again} minimum{'s' if again != 1 else ''} rerolled)" if again else ""


def _best_of_two(fight: Fight, step: Step, expr: DiceExpr, times: int, entered: int | None) -> tuple[int, str]:
    who = step.actor.name
    first = fight.roller.dice(expr, "damage", who, times=times, given=entered)
    second = fight.roller.dice(expr, "damage (second throw)", who, times=times, given=given(step, "damage2"))
    return max(first, second), f" (best of {first} and {second})"


def hit_damage(fight: Fight, step: Step, expr: DiceExpr, mods: AttackMods, d: int, total: int, need: int,
               entered: int | None) -> tuple[int, str, Critical | None]:
    """Damage of a hit under option ``crits``: (damage, the arithmetic, what it set off)."""
    rule = c2x_options(fight.ruleset).crits
    times = mods.dice_times
    bonus = expr.bonus + mods.damage
    top = expr.dice_max * times
    who = step.actor.name
    plus = f" {bonus:+d}" if bonus else ""
    if rule == "c2-severity":
        over = max(0, total - need)
        if d == 20:
            dmg = top + over + bonus
            return max(1, dmg), f"natural 20: maximum {expr.text} {top} +{over} over {need}{plus} = {dmg} (C2X-04)", \
                Critical("critical-hit")
        rolled = fight.roller.dice(expr, "damage", who, times=times, given=entered)
        dmg = rolled + over + bonus
        return max(1, dmg), f"{expr.text}: {rolled} +{over} over {need}{plus} = {max(1, dmg)} (C2X-04)", None
    if d == 20:
        roll = fight.roller.die(10, "critical hit", who, given(step, "crit"))
        if roll <= 4:
            rolled, note = _reroll_minimums(fight, expr, who, times, entered)
            dmg, text = 2 * rolled + bonus, f"{expr.text}: {rolled}{note} x2{plus}"
        elif roll <= 6:
            rolled, note = _best_of_two(fight, step, expr, times, entered)
            dmg, text = 2 * rolled + bonus, f"{expr.text}: {rolled}{note} x2{plus}"
        elif roll <= 8:
            dmg, text = 2 * top + bonus, f"double maximum base damage 2 x {top}{plus}"
        else:
            dmg, text = 2 * (top + bonus), f"double maximum total damage 2 x ({top}{plus})"
        dmg = max(1, dmg)
        return dmg, f"natural 20, critical d10 {roll}: {text} = {dmg} (C2X-03)", Critical("critical-hit", roll)
    if total - need >= 10:
        rolled, note = _best_of_two(fight, step, expr, times, entered)
        dmg = max(1, rolled + bonus)
        return dmg, (f"severe hit ({total} beats {need} by {total - need}): {expr.text}: {rolled}{note}{plus} = "
                     f"{dmg} (C2X-03)"), Critical("severe-hit")
    rolled = fight.roller.dice(expr, "damage", who, times=times, given=entered)
    dmg = max(1, rolled + bonus)
    return dmg, f"{expr.text}: {rolled}{plus} = {dmg}", None


def miss(fight: Fight, step: Step, d: int, total: int, need: int) -> tuple[str, Critical | None]:
    """A missed roll under option ``crits``: the words for the detail and what it set off."""
    rule = c2x_options(fight.ruleset).crits
    who = step.actor.name
    if rule == "c2-tables":
        if d != 1:
            return "", None
        roll = fight.roller.die(10, "critical miss", who, given(step, "crit"))
        return f"; natural 1, critical miss d10 {roll} (C2X-03)", Critical("critical-miss", roll)
    short = need - total
    penalty = max(0, need - 5 - total)
    if d == 1:
        return (f"; natural 1, critical miss: next strike +{penalty} SF ({need} - 5 - {total}), no AGI bonus "
                "(C2X-04)"), Critical("critical-miss", penalty=penalty)
    if short < 5:
        return "", None
    weapon = step.weapon if step.weapon is not None else step.actor.weapons[0]
    cap = weapon.sf or 0
    capped = min(penalty, cap)
    text = f"; severe miss: next strike +{capped} SF ({need} - 5 - {total} = {penalty}"
    text += f", at most the base SF {cap})" if capped < penalty else ")"
    return text + " (C2X-04)", Critical("severe-miss", penalty=capped)


# -- what follows the attack ------------------------------------------------------------------------------
def _condition(fight: Fight, step: Step, who: Fighter, name: str, until: Until, why: str, amount: int = 0, *,
               since: Until | None = None, attack: int | None = None, damage: int | None = None) -> None:
    """``who`` holds ``name`` from ``since`` (default: now) to ``until``, set by the step's attacker."""
    rule = _RULE[c2x_options(fight.ruleset).crits]
    fight.set_condition(step.tick, step.at, who, name, until, by=step.actor.name, rule=rule,
                        detail=why if fight.explain else None, amount=amount,
                        since=since.tick if since is not None else None, attack=attack, damage=damage, step=step)


def _check(fight: Fight, step: Step, key: str, score: int, ability: str, minus: int = 0) -> tuple[bool, str]:
    roll = fight.roller.die(20, f"{ability} check", step.actor.name, given(step, key))
    ok = roll <= score - minus
    need = f"{ability} {score}" + (f" - {minus}" if minus else "")
    return ok, f"{ability} check d20 {roll} vs {need}: {'passed' if ok else 'failed'}"


def aftermath(fight: Fight, step: Step, target: Fighter, crit: Critical) -> None:
    """The conditions, dropped weapons and extra attacks that follow a critical (C2X-03, C2X-04)."""
    a = step.actor
    end = phase_end(fight, step.tick, 0)
    nxt = phase_end(fight, step.tick, 1)
    kind, roll = crit.kind, crit.roll
    if c2x_options(fight.ruleset).crits == "c2-severity":
        if crit.penalty:
            _condition(fight, step, a, "slowed", phase_end(fight, step.tick, 3),
                       f"next strike +{crit.penalty} SF, for at most 3 phases (C2X-04)", crit.penalty)
        if kind == "critical-miss":
            _condition(fight, step, a, "off-balance", phase_end(fight, step.tick, 3),
                       "no AGI bonus through its next attack or 3 phases (C2X-04)")
        return
    if kind == "severe-hit":
        _condition(fight, step, target, "dazed", end, "severe hit: dazed for the rest of the phase (C2X-03)")
    elif kind == "critical-hit" and roll is not None:
        _critical_hit(fight, step, target, roll, end, nxt)
    elif kind == "critical-miss" and roll is not None:
        _critical_miss(fight, step, roll, end, nxt)


def _critical_hit(fight: Fight, step: Step, target: Fighter, roll: int, end: Until, nxt: Until) -> None:
    if roll <= 4:
        _condition(fight, step, target, "dazed", end, f"critical {roll}: dazed until the end of the phase (C2X-03)")
    elif roll <= 6:
        _condition(fight, step, target, "dazed", nxt,
                   f"critical {roll}: dazed until the end of the following phase (C2X-03)")
    elif roll <= 9:
        _condition(fight, step, target, "stunned", nxt,
                   f"critical {roll}: stunned through the following phase (C2X-03)")
    else:
        _condition(fight, step, target, "stunned", phase_end(fight, step.tick, 2),
                   "critical 10: stunned through the next 2 phases (C2X-03)")
    if roll >= 9 and target.hp > 0:
        _extra_attack(fight, step, target, "critical hit 9-10: one more attack at once (C2X-03)",
                      _decl_for(step, target, given(step, "extra_attack"), given(step, "extra_damage")))
    if roll == 10:
        _free_attack(fight, step, target, end, phase_end(fight, step.tick, 1, last=True))


def _decl_for(step: Step, target: Fighter, attack: int | None, damage: int | None) -> Order | None:
    if attack is None and damage is None:
        return None
    key = "missile" if step.kind == "missile" else "melee"
    return order_of(Declaration.model_validate({key: target.name, "weapon": step.weapon.name if step.weapon else None,
                                                "dice": DiceGiven(attack=attack, damage=damage)}))


def _extra_attack(fight: Fight, step: Step, target: Fighter, why: str, decl: Order | None) -> None:
    extra = Step(step.tick, step.actor, step.kind, step.at, why if fight.explain else "", decl=decl,
                 target=target.name, weapon=step.weapon, tags=frozenset({"free"}))
    fight.attack(extra, target)


def _free_attack(fight: Fight, step: Step, target: Fighter, end: Until, nxt: Until) -> None:
    """C2X-03, critical 10: "one free attack next phase (in addition to regular attacks)": it follows the first
    regular attack of that phase (``follow_up``); with none, it comes as that phase ends, at its last moment (``nxt``:
    after its movement and combat, before its durations run out; an ``owed`` step, placed before the condition's own
    end at that moment)."""
    attack, damage = given(step, "free_attack"), given(step, "free_damage")
    fight.push(Step(nxt.tick, step.actor, "owed", nxt.at, "the free attack of a critical 10 the phase before, made "
                    "with no regular attack in that phase to follow: as the phase ends (C2X-03)" if fight.explain
                    else "", decl=_decl_for(step, target, attack, damage), target=target.name, weapon=step.weapon,
                    mode="missile" if step.kind == "missile" else "melee", note="free-attack"))
    _condition(fight, step, step.actor, "free-attack", nxt, "critical 10: one free attack next phase, besides the "
               "regular ones: it follows the first of them, or comes as the phase ends (C2X-03)", since=end,
               attack=attack, damage=damage)


def follow_up(fight: Fight, step: Step, target: Fighter) -> None:
    """A free attack owed from a critical 10 of the phase before comes right after this attack (C2X-03)."""
    c = step.actor.conditions.get("free-attack")
    if c is None or "free" in step.tags or not c.since <= step.tick < c.until:
        return
    fight.emit(Expire, step.tick, step.at, step.actor.name, target=step.actor.name, condition="free-attack",
               detail="the free attack is taken (C2X-03)")
    if target.active and target.hp > 0:
        _extra_attack(fight, step, target, "the free attack of a critical 10 the phase before (C2X-03)",
                      _decl_for(step, target, c.attack, c.damage))


def _critical_miss(fight: Fight, step: Step, roll: int, end: Until, nxt: Until) -> None:  # noqa: C901
    a = step.actor
    weapon = step.weapon if step.weapon is not None else a.weapons[0]
    agi, agi_name = agility(fight, a)
    dex = a.dex
    _condition(fight, step, a, "lost-sequence", end, "critical miss: the rest of the attack sequence is lost (C2X-03)")
    fight.rules.lose_sequence(fight, step)
    dropped = f"dropped:{weapon.name}"
    if roll <= 6:
        what = "misstep" if roll <= 4 else "fumble"
        _condition(fight, step, a, "no-move", end, f"critical {roll}, {what}: no movement this phase (C2X-03)")
        if roll >= 5:
            ok, text = _check(fight, step, "crit_dex", dex, "DEX")
            if not ok:
                _condition(fight, step, a, dropped, FOREVER, f"{text}: {weapon.name} dropped or skewed (C2X-03)")
        ok, text = _check(fight, step, "crit_agi", agi, agi_name)
        if not ok:
            _condition(fight, step, a, "misstep", nxt, f"{text}: misstep next phase, +2 SF and -1 to hit (C2X-03)",
                       since=end)
    elif roll <= 8:
        _condition(fight, step, a, "knees", nxt, f"critical {roll}: falls to its knees, no attacks through the "
                   "next phase, AC +2 (C2X-03)")
        ok, text = _check(fight, step, "crit_dex", dex, "DEX", 1)
        if not ok:
            _condition(fight, step, a, dropped, FOREVER, f"{text}: {weapon.name} dropped or skewed (C2X-03)")
    else:
        prone = roll == 9
        die = 2 if prone else 3
        n = fight.roller.die(die, "phases down", a.name, given(step, "crit_phases")) + (1 if prone else 2)
        name = "prone" if prone else "sprawled"
        _condition(fight, step, a, name, phase_end(fight, step.tick, n - 1),
                   f"critical {roll}: {name} for {n} phases (d{die} + {1 if prone else 2}; C2X-03)")
        _condition(fight, step, a, "defenseless", phase_end(fight, step.tick, 0 if prone else 2),
                   f"stationary and defenseless for the first {'phase' if prone else '3 phases'} (C2X-03)")
        if prone:
            ok, text = _check(fight, step, "crit_dex", dex, "DEX", 2)
            if not ok:
                _condition(fight, step, a, dropped, FOREVER, f"{text}: {weapon.name} lost (C2X-03)")
        else:
            feet = fight.roller.die(12, "fling", a.name, given(step, "crit_fling"))
            _condition(fight, step, a, dropped, FOREVER, f"{weapon.name} flies {feet} ft away (C2X-03)")
        ok, text = _check(fight, step, "crit_agi", agi, agi_name)
        if not ok:
            _condition(fight, step, a, "knees", phase_end(fight, step.tick, n),
                       f"{text} to rise: falls to its knees for a phase more (C2X-03)",
                       since=phase_end(fight, step.tick, n - 1))
    if weapon.kind == "thrown":
        _condition(fight, step, a, dropped, FOREVER, f"critical miss: the thrown {weapon.name} drops within 1 ft "
                   "(C2X-03)")
    elif weapon.kind == "missile":
        which = fight.roller.die(2, "string or missile", a.name, given(step, "crit_break"))
        if which == 1:
            _condition(fight, step, a, dropped, FOREVER, f"critical miss: {weapon.name}'s string breaks (C2X-03)")
        else:
            _condition(fight, step, a, "lost-sequence", end, "critical miss: the missile breaks (C2X-03)")


def check_dice(loaded: Loaded, where: tuple[str | int, ...], entered: DiceGiven, expr: DiceExpr | None,
               times: int) -> Iterator[Problem]:
    """The critical tables' dice entered in a declaration's ``dice``: each within its die; the damage throws
    (``damage2``, ``extra_damage``, ``free_damage``) within the weapon's dice."""
    extra = entered.model_extra or {}
    for key, faces in CRIT_DICE.items():
        if key in extra:
            value = extra[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
                what = "a d2 or d3 result (1-3)" if key == "crit_phases" else f"a d{faces} result (1-{faces})"
                yield loaded.problem(where + (key,), f"{value!r} is not {what}")
    lo, hi = (expr.dice_min * times, expr.dice_max * times) if expr else (1, 2)
    for key in ("damage2", "extra_damage", "free_damage"):
        if key in extra:
            value = extra[key]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                yield loaded.problem(where + (key,), f"{value!r} cannot be rolled on the damage dice of "
                                     f"{expr.text if expr else '1d2'} ({lo}-{hi})")


class Crits(Rule):
    """The plug-in: the critical tables or the severity rules read each attack roll (option ``crits``)."""

    def rolled(self, fight: Fight, roll: AttackRoll) -> None:
        step = roll.step
        if roll.hit:
            roll.damage, roll.text, roll.after = hit_damage(fight, step, roll.expr, roll.mods, roll.d20, roll.total,
                                                            roll.need, roll.given_damage)
        else:
            roll.text, roll.after = miss(fight, step, roll.d20, roll.total, roll.need)

    def struck(self, fight: Fight, step: Step, target: Fighter, event: Melee, roll: AttackRoll | None) -> None:
        if roll is not None and isinstance(roll.after, Critical):
            aftermath(fight, step, target, roll.after)
        if step.actor.conditions and not event.opportunity:
            follow_up(fight, step, target)
