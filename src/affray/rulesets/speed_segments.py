"""speed-segments: seed 002, 20-second rounds of about ten segments; side d6; speed + modifiers = segment.

Read it beside ``../shared/seeds/002_*.txt`` and RULES.md SEG-01 to SEG-20. Each round (SEG-02):

A. surprise, first round only: a d6 per party, 1 or 2 -> +1 or +2 to its members' action speed; when
   every party is surprised, each party's penalty is its roll minus the least (SEG-03);
B. declarations, the unsurprised first (the PCs' sides first); a surprised party declares once the count
   has begun, at segment 1 (SEG-03, SEG-04);
C. a d6 per unsurprised side, high wins; a loser adds +1 per 2 pips below the winner (SEG-05, SEG-06);
D. segments 1, 2, ... : an action happens in the segment equal to its action speed + modifiers (SEG-06,
   SEG-07, SEG-08); within a segment the winner runs its phases Movement, Missile, Magic, Melee, Morale,
   then the next side; tied sides share each phase (SEG-09); missile and spell damage lands at the end
   of its segment, melee at once (SEG-10);
E. morale and bookkeeping (SEG-20).

The module ``speed_segments_actions`` turns one declaration into timed parts (SEG-07, SEG-13 to SEG-19);
``speed_segments_base`` holds what both read: the options, the fight's state, the placing of a segment.

A tick is ``(round, segment, turn, phase, sub)``. Segment 0 is the start of the round (surprise, the
declarations, initiative, casting begun). In a segment, turn k is the k-th side in initiative order
(tied sides share it; surprised parties come after every unsurprised one), turn 0 what comes before
anyone acts (a changed declaration, the surprised declaring), turn 99 the end of the segment (damage
landing). Phases: 1 Movement, 2 Missile, 3 Magic, 4 Melee, 5 Morale. Segment 99 is step E.

The Decisions of RULES.md, each an option: a round runs long to segment 12 and later actions spill into
the next round at segment minus 10 (``round_segments``, ``overrun``, ``spill_over``, SEG-01); a changed
declaration counts its speed from the segment of the change (``change_penalty``, SEG-04); a loser's
penalty is floor(pips / 2), so the seed's party-B wizard casts in 7, not the printed 8 (SEG-06); losing
and surprise penalties are added once to each of several attacks, and ``specialist_speed`` (SEG-08);
for disruption a missile hit counts at the shooter's Missile phase, its damage at the segment's end
(SEG-10); no last-gasp casting unless ``last_gasp``, and a damaged caster loses the spell from memory
(the 2nd-edition default, SEG-12). Defaults of SEG-07 as options: ``move_penalty`` -2,
``move_segment`` 5, ``misc_speed`` 5, ``delay_segments`` 2.

Order keys of this ruleset (see ``declaration_keys``): ``split``, ``stunt``, ``counter``,
``unarmed``, ``pass_through``, ``artillery``, ``by``, ``trigger``, ``change``, ``delay``, ``segments``,
``rally``, ``close``. Dice a file may pin besides CONTRACT.md's: ``rolls.morale`` under round 0 (the
initial-assessment check of SEG-20), ``rolls.morale`` under the round for the target's side on a giant's
charge (SEG-15), and ``dice: {morale: N}`` on a rally.

Defaults of ours where the seed and RULES.md give none (each an option or stated here): a fighter's
attacks per round follow the 1st-edition table (OSRIC; Erik's 3/2 at levels 7-12); a missile
weapon's fire rate multiplies the attacks, and several shots in a round fall like SEG-08's multiple
attacks (first fire, second fire: k x (Spd - 1)); a monster's k-th attack uses its k-th listed attack form
(its routine) at that form's own speed (a form used again falls at the next multiple of its speed), and a
natural attack that lists no Spd takes its creature's size's (option ``natural_spd``, a Decision); a delay
(parley, spectacle, bait) happens at its ``speed``, default segment 1; the morale triggers of step E
are a side's first casualty and half of it down, once each (as MJ-02); a giant creature is of size
``giant_size`` (default huge) or more; a rout's flight and the free attacks on it follow SEG-14 with a
rear bonus of +2 (option ``rear_bonus``); player characters never check morale (G-07), also on a
giant's charge. A spilled action (SEG-01) keeps its side's place in its segment of the next round; the
fighter's declaration for that round is timed as usual (the author's "bleed over into next round"),
except a caster's: its next action counts from the segment its spell finishes, and a spell finishing
two rounds on or later keeps it from declaring in between (a ``delay`` event).
Other actions (misc, rally, delays) come in the last phase of their segment, Morale.

Not implemented (no fact in the encounter file carries them): hiding or withdrawing unseen from an
unaware party (SEG-03: the referee declares it as a move), the special effects of an exploit or a
spectacle beyond the timing (the referee's call), what a potion or a finished activity does, the
opponent following a withdrawal (SEG-14: the referee declares the follow-up), the direction of a move
(SEG-14: positions are not modelled), a last gasp for a caster felled by melee before its magic phase.
A melee declared from farther than a half move is a full move that round; once it has closed, the next
round takes the next plan item (the engine continues a declaration only while feet remain to close).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from affray.engine.events import Delay, Initiative, Surprise, Tick, Wait
from affray.engine.fight import Fight
from affray.engine.resolve import Engine
from affray.engine.rules import KEPT, LOST, FreeAttack, Rule
from affray.engine.ruleset import Ruleset
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, Step, Until, counted
from affray.engine.words import subject, the, their
from affray.errors import Problem
from affray.model.encounter import Declaration, expand
from affray.model.order import Order
from affray.reckon import losses, morale_due
from affray.rulesets import speed_segments_actions as actions
from affray.rulesets.speed_segments_base import (
    END,
    SegmentsState,
    SpeedSegmentsOptions,
    moment,
    morale,
    push,
)

if TYPE_CHECKING:
    from affray.io.load import Loaded

__all__ = ["SpeedSegments", "SpeedSegmentsOptions"]


class SpeedSegments(Ruleset[SegmentsState, SpeedSegmentsOptions]):
    """Seed 002: 20-second rounds; side d6; an action happens at its speed + modifiers (SEG-*)."""

    id = "speed-segments"
    title = "20-second rounds, action speed in segments"
    seed = "002"
    rule_ids = "SEG"
    Options = SpeedSegmentsOptions
    attack_scheme = "1e"  # OSRIC's attacks per round: Erik the Bold's 3 every 2 rounds (SEG-08)
    declaration_keys: ClassVar[dict[str, str]] = {
        "split": "melee or missile: split-move attack or fire, +4 segments and -2 to hit; true, or the feet "
                 "moved after the attack (SEG-07, SEG-14, SEG-16)",
        "stunt": "melee: a stunt at Spd 4, then the exploit 4 segments later if the stunt succeeds (SEG-07, SEG-18)",
        "counter": "melee with charge: a counter-charge against the target's charge (SEG-07, SEG-14)",
        "unarmed": "melee: an unarmed or body attack (throw, lock, choke, strike), Spd 1, 1d2 (SEG-18)",
        "pass_through": "missile: fire at the target as it moves near, right after its movement (SEG-16)",
        "artillery": "missile: a siege engine or similar contraption (SEG-16)",
        "by": "cast: caster (default), item (wand, staff) or scroll (SEG-17)",
        "trigger": "wait: the combatant whose next action ends the wait (default: a combatant the wait's text "
                   "names); the next plan item follows at once (SEG-07, SEG-13)",
        "change": "any but a plan's first: replaces the round's declaration at this segment; its speed counts "
                  "from there (SEG-04)",
        "delay": "misc: parley, spectacle or bait, holding the count (default: the one the misc text names) "
                 "(SEG-13)",
        "segments": "misc with delay: how many segments it holds the count (default delay_segments)",
        "rally": "misc: rally the shaken or broken of its side: they check morale again (default: true when the "
                 "misc text says rally) (SEG-19)",
        "close": "move with mode flee: the close foes free to reach the line of flight, who attack without "
                 "bonus (SEG-14)",
    }
    initiative_die = 6
    surprise_die = 6

    own_kinds = actions.OWN_KINDS

    def new_state(self) -> SegmentsState:
        """This fight's bookkeeping (``Fight.memo``): the round's steps, held actions, exploits, surprise."""
        return SegmentsState()

    def rules(self) -> list[Rule]:
        return [SpeedSegmentsRules(self.opt)]

    # -- load-time checks -------------------------------------------------------------------------------
    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:
        enc = loaded.encounter
        names = {name for name, _s, _c, _l in expand(enc)}
        seen: set[tuple[Any, ...]] = set()
        for _name, _side, spec, loc in expand(enc):
            for k, w in enumerate(spec.weapons):
                if w.sf is None and not w.natural and (*loc, k) not in seen:
                    seen.add((*loc, k))
                    yield loaded.problem((*loc, "weapons", k, "sf"), f"{w.name} has no sf: this ruleset times an "
                                         "attack by its weapon's Spd (SEG-07); give sf, e.g. sf: 5 (or natural: "
                                         "true for a claw or a bite, timed by the creature's size, SEG-08)")
        for actor, decls in enc.plan.items():
            for i, d in enumerate(decls):
                loc = ("plan", actor, i)
                yield from (loaded.problem(loc + (key,), msg) for key, msg in _key_problems(d, i, names))
                for k, entered in enumerate(d.dice_given):
                    value = entered.other("morale")
                    if value is not None and not 2 <= value <= 20:
                        where = (*loc, "dice", k) if isinstance(d.dice, list) else (*loc, "dice")
                        yield loaded.problem((*where, "morale"), f"{value} is not a morale dice total (2-20)")

    def expiry(self, fight: Fight[SegmentsState], tick: Tick, count: int, unit: str) -> Until:
        """G-08 on this clock: N segments end at the segment N after the one it began, before anyone acts there
        (the round's ``round_segments`` a round, SEG-01); rounds, turns and phases as every round-based ruleset's."""
        if unit != "segment":
            return super().expiry(fight, tick, count, unit)
        length = self.opt.round_segments
        total = max(tick[1], 1) + count
        end = (tick[0] + (total - 1) // length, (total - 1) % length + 1, 0, 0, 0)
        return Until(end, moment(fight, end), f"segment {max(tick[1], 1)} + {counted(count, 'segment')}, {length} a "
                     f"round (SEG-01): it ends at {moment(fight, end)} (G-08)")

    # -- the round -------------------------------------------------------------------------------------
    def begin(self, fight: Fight[SegmentsState], rnd: int) -> None:
        state = fight.state
        memo = fight.memo
        memo.new_round()
        surprise: dict[str, int] = {}
        if rnd == 1:
            surprise = self._surprise(fight)
            self._initial_morale(fight)
        memo.surprise = surprise
        # B: the unsurprised declare, the PCs' sides first (SEG-04)
        at = f"round {rnd}, B (declarations)"
        busy = {n: b for n, b in memo.busy.items() if b.round >= rnd and state.fighters[n].casting == b.spell}
        memo.busy = busy
        later = {n for n, b in busy.items() if b.round > rnd}  # casting all this round: no declaration
        for f in state.pcs_first:
            if f.name in later and f.active:
                b = busy[f.name]
                fight.emit(Delay, (rnd, 0, 0, 1, 0), at, f.name, why=f"still casting {b.spell}, which finishes in "
                           f"round {b.round}, segment {b.segment}: no new declaration (SEG-01)", detail="casting")
        declaring = [f for f in state.pcs_first if f.active and f.side not in surprise and f.name not in later]
        declared: list[tuple[Fighter, Order]] = []
        for f in declaring:  # each hears the declarations made before its own (the referee's, the players')
            d = fight.declare(f, (rnd, 0, 0, 1, 0), at, known=memo.heard() if fight.asker is not None else ())
            if d is not None:
                declared.append((f, d))
                memo.declared.append((f.name, d))
        late = [f for f in state.pcs_first if f.active and f.side in surprise and f.name not in later]
        acting = {f.side for f, _ in declared}
        self._initiative(fight, rnd, [s for s in state.sides if s in acting],
                         [s for s in state.sides if s in surprise])
        for k, (f, d) in enumerate(declared):
            if f.name in busy:  # its spell spilled into this round: the new action follows it (SEG-01)
                b = busy[f.name]
                actions.schedule(self.opt, fight, f, d, rnd, index=k,
                                 after=(b.segment, f"after {b.spell} finishes in segment"),
                                 begun=b.tick[:4] + (b.tick[4] + 1,))
            else:
                actions.schedule(self.opt, fight, f, d, rnd, index=k)
        seg, turn, phase = self._late_moment(fight, rnd, late)
        for k, f in enumerate(late):
            tick = (rnd, seg, turn, phase, k)
            push(fight, Step(tick, f, "late", moment(fight, tick), f"{subject(f.side, 'is')} surprised: "
                             f"{f.name} declares once the unsurprised have declared and begun acting (SEG-03, SEG-04)"
                             + (f": they acted in segment {seg}" if turn else "")))

    def _late_moment(self, fight: Fight[SegmentsState], rnd: int, late: list[Fighter]) -> tuple[int, int, int]:
        """SEG-03: the segment, turn and phase at which the surprised declare: as the count begins (segment 1, before
        anyone acts); with option ``surprised_declare`` acted, at the end of the first segment in which an
        unsurprised party's action came up, its effects landed (segment 1 if none did)."""
        if not late or self.opt.surprised_declare != "acted":
            return 1, 0, 0
        surprised = {f.name for f in late}
        first = min((s.tick[1] for name, steps in fight.memo.steps.items() if name not in surprised
                     for s in steps if s.tick[0] == rnd and s.tick[1] >= 1), default=0)
        return (first, END, 9) if first else (1, 0, 0)

    def _surprise(self, fight: Fight[SegmentsState]) -> dict[str, int]:
        """SEG-03: d6 per party, 1 or 2 surprised (+1/+2); all surprised: each minus the least."""
        enc = fight.encounter
        sides = list(enc.sides)
        tick, at = (1, 0, 0, 0, 0), "round 1, A (surprise)"
        why = ("d6 per party, 1 or 2 -> surprised, +1 or +2 to every member's action speed; if every party "
               "is surprised, each subtracts the least roll (SEG-03)")
        if enc.surprise == "none":
            fight.record(Surprise(tick, at, fight.round_at(tick),
                                  detail="no surprise: every party is aware (the file says none)", rolls=fight.rolls()))
            return {}
        if isinstance(enc.surprise, dict):
            rolls = {s: enc.rolls.surprise.get(s, 1) if enc.surprise.get(s) else 6 for s in sides}
            source = "the referee rules it (penalty +1 unless rolls.surprise gives 2)"
        else:
            rolls = {s: fight.roller.die(6, "surprise", s, enc.rolls.surprise.get(s)) for s in sides}
            source = ", ".join(f"{s} d6={rolls[s]}" for s in sides)
        pens = {s: rolls[s] for s in sides if rolls[s] <= 2}
        note = ""
        if len(pens) == len(sides):
            least = min(pens.values())
            note = f"; every party surprised: each minus the least ({least})"
            pens = {s: p - least for s, p in pens.items() if p - least > 0}
        detail = source + note + ": " + (", ".join(f"{s} surprised, +{p}" for s, p in pens.items()) or
                                         "nobody surprised")
        fight.record(Surprise(tick, at, fight.round_at(tick), why=why, detail=detail, surprised=tuple(pens),
                              penalties=dict(pens), rolls=fight.rolls()))
        return pens

    def _initial_morale(self, fight: Fight[SegmentsState]) -> None:
        """SEG-20: a side clearly overmatched on first assessment checks when the file gives its roll."""
        given = fight.encounter.rolls.morale.get(0, {})
        for k, side in enumerate(s for s in fight.state.sides if s in given):
            members = [f for f in fight.state.sides[side] if f.active and not f.pc]
            if members:
                morale(fight, self.opt, side, members, given[side], (1, 0, 0, 0, 1 + k),
                       "round 1, A (first assessment)", ("overmatched",), f"{the(side)} judged clearly overmatched on "
                       "first assessment: a morale check before the fight (SEG-20, G-07)")

    def _initiative(self, fight: Fight[SegmentsState], rnd: int, sides: list[str], surprised: list[str]) -> None:
        """SEG-05, SEG-06: a d6 per unsurprised side; high wins; a loser +1 per 2 pips below the winner."""
        tick, at = (rnd, 0, 0, 2, 0), f"round {rnd}, C (initiative)"
        given = fight.encounter.rolls.initiative.get(rnd, {})
        rolls: dict[str, int] = {}
        pen: dict[str, int] = {}
        ex = fight.explain  # the lean mode writes no words
        detail = ""
        if len(sides) >= 2:
            rolls = {s: fight.roller.die(6, "initiative", s, given.get(s)) for s in sides}
            values = sorted(set(rolls.values()), reverse=True)
            ranks = {s: values.index(rolls[s]) + 1 for s in sides}
            best = values[0]
            pen = {s: (best - rolls[s]) // 2 for s in sides}
            if ex:
                order = " then ".join(" and ".join(s for s in sides if ranks[s] == k) + (" (tied)" if list(
                    ranks.values()).count(k) > 1 else "") for k in sorted(set(ranks.values())))
                detail = ", ".join(f"{s} d6={rolls[s]}" for s in sides) + f": {order}"
                losers = [f"{s} +{pen[s]} ({best} - {rolls[s]} = {best - rolls[s]} "
                          f"pip{'' if best - rolls[s] == 1 else 's'}, +1 per 2)" for s in sides if ranks[s] > 1]
                if losers:
                    detail += "; " + ", ".join(losers)
        else:
            ranks = {s: 1 for s in sides}
            if ex:
                detail = (f"only {subject(sides[0], 'acts')} unsurprised: no roll" if sides
                          else "no unsurprised side acts: no roll")
        last = max(ranks.values(), default=0)
        for s in surprised:
            ranks[s] = last + 1
        if surprised and ex:
            detail += f"; {' and '.join(surprised)} surprised: no roll, acts after the others (SEG-03)"
        fight.record(Initiative(tick, at, fight.round_at(tick), why="one d6 per unsurprised side, the highest wins; a "
                                "tie makes like actions simultaneous; a loser adds +1 per 2 pips below the winner "
                                "(SEG-05, SEG-06)", detail=detail or None, ranks=ranks, results=rolls,
                                penalties=pen, rolls=fight.rolls()))
        memo = fight.memo
        memo.init_rolls, memo.init_penalties, memo.init_best = rolls, pen, max(rolls.values(), default=0)

    def end(self, fight: Fight[SegmentsState], rnd: int) -> None:
        """E: waits never triggered, then morale (SEG-20)."""
        waits = sorted(fight.memo.waits.items(), key=lambda kv: fight.order(kv[0]))
        for k, (name, waiting) in enumerate(waits):
            f = fight.state.fighters[name]
            if f.active:
                fight.emit(Wait, (rnd, END, 0, 0, k), f"round {rnd}, E (bookkeeping)", name,
                           why=f"held all round: {waiting.trigger} never acted near enough to trigger it (SEG-07, "
                           "SEG-13)", detail="the held action lapses")
        self._morale(fight, rnd)

    def _morale(self, fight: Fight[SegmentsState], rnd: int) -> None:
        """SEG-20 at step E: a side checks after its first casualty and after half or more are down."""
        enc = fight.encounter
        k = 0
        for side in enc.sides:
            members, triggers = morale_due(fight, side)
            if triggers:
                why = (f"step E: {subject(side, 'checks')} morale after {their(side)} {' and '.join(triggers)} "
                       f"({losses(fight, side)}); PCs never check (SEG-20, G-07)")
                morale(fight, self.opt, side, members, enc.rolls.morale.get(rnd, {}).get(side),
                       (rnd, END, 0, 5, k), f"round {rnd}, E (morale)", triggers, why)
                k += 1

    def resolve_own(self, fight: Fight[SegmentsState], step: Step) -> None:
        """The ruleset's own kinds (``actions.OWN_KINDS``), once the engine's checks let the step happen."""
        assert isinstance(fight, Engine)  # Fight declares no may_act: only the Engine makes the checks
        if fight.may_act(step):
            actions.resolve(self.opt, fight, step)


class SpeedSegmentsRules(Rule):
    """speed-segments' step rules: SEG-10 landing, held actions' triggers, refusals, SEG-07/14/16 modifiers,
    SEG-14 free attacks on one who breaks and runs, SEG-12 disruption."""

    def __init__(self, opt: SpeedSegmentsOptions) -> None:
        self.opt = opt

    def lands(self, fight: Fight[SegmentsState], step: Step, damage: int) -> tuple[Tick, str] | None:
        """SEG-10: missile and spell effects land at the end of their segment; melee at once."""
        if step.kind in ("missile", "cast"):
            fight.memo.landing = damage  # for last_gasp: on its way, not yet off the hit points
            tick = (step.tick[0], step.tick[1], END, 0, 0)
            return tick, moment(fight, tick)
        return None

    def resolved(self, fight: Fight[SegmentsState], step: Step) -> None:
        actions.trigger(fight, step)

    def refuse(self, fight: Fight[SegmentsState], step: Step) -> str | None:
        a = step.actor
        if "exploit" in step.tags and "set-up" not in step.tags:
            return "the stunt did not set it up: no exploit (SEG-07, SEG-18)"
        if step.kind == "move" and step.mode in ("shift", "step") and a.engaged:
            return f"{a.name} is engaged in melee: a shift is only for one not actively engaged (SEG-14)"
        if "routed" in step.tags and not a.routed:
            return f"{a.name} was rallied and stands (SEG-19)"
        if step.kind in ("melee", "missile", "stunt") and a.remaining > 0 and "charge" not in step.tags:
            return f"{a.name} is still {a.remaining} ft short of {step.target}"
        return None

    def mods(self, fight: Fight[SegmentsState], step: Step, target: Fighter, mods: AttackMods) -> None:
        pen = self.opt.move_penalty
        if "split" in step.tags:
            mods.add("hit", pen, "split-move fire, SEG-16" if step.kind == "missile" else "split-move attack, SEG-07")
        if "half" in step.tags:
            mods.add("hit", pen, "half move, SEG-07")
        tdecl = target.declared
        if (step.decl is None and step.kind == "melee" and tdecl is not None and tdecl.action == "move"
                and tdecl.mode == "flee" and step.actor.name in target.engaged):
            mods.add("hit", self.opt.rear_bonus, "from the rear on one breaking away, SEG-14")

    def free_attacks(self, fight: Fight[SegmentsState], step: Step) -> list[FreeAttack]:
        """SEG-14 break and run: every engaged foe attacks from the rear, close foes without bonus."""
        if step.kind != "move" or step.mode not in ("flee", "full") or "disengage" not in step.tags:
            return []
        mover = step.actor
        state = fight.state
        out: list[FreeAttack] = []
        for name in sorted(mover.engaged, key=fight.order):
            foe = state.fighters[name]
            if foe.active:
                out.append((foe, foe.weapon(None), f"{mover.name} breaks and runs: an engaged foe's immediate "
                            "attack from the rear (SEG-14)"))
        close = step.decl.extra.get("close", ()) if step.decl is not None else ()
        for name in close:
            foe = state.fighters[name]
            if name not in mover.engaged and foe.active and foe.side != mover.side:
                out.append((foe, foe.weapon(None), f"{mover.name} breaks and runs: a close foe free to reach the "
                            "line of flight attacks without bonus (SEG-14)"))
        return out

    def interrupt(self, fight: Fight[SegmentsState], caster: Fighter, step: Step) -> str | None:
        """SEG-12: damaged before the spell finishes, the caster loses it (2nd edition: gone from memory)."""
        memo = fight.memo
        finish = memo.finish.get(caster.name)
        landing = 0  # melee is already off the hit points
        if step.kind == "missile":
            landing, memo.landing = memo.landing, 0
        if self.opt.last_gasp and finish is not None and finish[:2] == step.tick[:2] and caster.hp - landing <= 0:
            return KEPT
        return LOST


def _key_problems(d: Declaration, i: int, names: set[str]) -> Iterator[tuple[str, str]]:  # noqa: C901
    """Each of this ruleset's declaration keys on the right action with a value of the right type."""
    x: dict[str, Any] = d.extra
    action = d.action
    allowed = {"split": ("melee", "missile"), "stunt": ("melee",), "counter": ("melee",), "unarmed": ("melee",),
               "pass_through": ("missile",), "artillery": ("missile",), "by": ("cast",), "trigger": ("wait",),
               "delay": ("misc",), "segments": ("misc",), "rally": ("misc",), "close": ("move",)}
    for key, on in allowed.items():
        if key in x and action not in on:
            yield key, f"{key} goes with {' or '.join(on)}, not {action}"
    for key in ("stunt", "counter", "unarmed", "pass_through", "artillery", "rally"):
        if key in x and not isinstance(x[key], bool):
            yield key, f"{key} takes true or false"
    if "split" in x and not (isinstance(x["split"], bool) or (isinstance(x["split"], int) and x["split"] >= 0)):
        yield "split", "split takes true or the feet moved after the attack (a whole number >= 0)"
    if x.get("counter") and not d.charge:
        yield "counter", "a counter-charge is a charge: add charge: true"
    if "by" in x and x["by"] not in ("caster", "item", "scroll"):
        yield "by", f"{x['by']!r}: use caster, item or scroll"
    if "trigger" in x and (not isinstance(x["trigger"], str) or x["trigger"] not in names):
        yield "trigger", f"{x['trigger']!r} is no combatant of the encounter; name the one whose action ends the wait"
    if "delay" in x and x["delay"] not in ("parley", "spectacle", "bait"):
        yield "delay", f"{x['delay']!r}: use parley, spectacle or bait"
    if "segments" in x and not (isinstance(x["segments"], int) and not isinstance(x["segments"], bool)
                                and x["segments"] >= 1):
        yield "segments", "segments takes a whole number >= 1"
    if "change" in x:
        if not (isinstance(x["change"], int) and not isinstance(x["change"], bool) and 1 <= x["change"] <= 12):
            yield "change", "change takes the segment of the change, a whole number 1-12"
        elif i == 0:
            yield "change", "a plan's first declaration has nothing to change: remove change"
    if "close" in x and (not isinstance(x["close"], list) or any(n not in names for n in x["close"])):
        yield "close", "close takes a list of combatant names"
    if action == "misc" and isinstance(d.speed, str):
        yield "speed", f"speed {d.speed!r}: this ruleset times a misc action by its segment, a whole number"
