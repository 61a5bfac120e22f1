"""d12-procedure: seed 004 (Combat Procedure), a d12 per side adjusted by DEX, the lowest acts first.

Read it beside ``../shared/seeds/004_*.txt`` and RULES.md D12-01 to D12-22. Each round:

1. surprise, first round only: a d12 per side, surprised on 1-4 as widened or narrowed by the side's
   abilities (D12-01, D12-02); the surprised do nothing in round 1;
2. morale, only where the referee rolls it (the file's ``rolls.morale``); PCs never check (D12-22); with the
   option ``morale: casualties``, as the other rulesets check it: after a side's first casualty and at half down;
3. a missile readied with a target in sight fires now, before initiative (D12-08): whoever's next plan
   entry is a ``ready: true`` missile declares it from the plan (nobody is asked before initiative; at
   the table the referee enters a readied shot with ``plan`` before the round);
4. initiative, before any other declaration: a d12 per side with a member to take its turn, minus the
   1st-edition DEX reaction adjustment; the counts run from the lowest result to the highest, equal counts
   simultaneous (D12-04, D12-07). With ``individual_rolls`` each PC rolls its own d12 here, given in the
   file as ``rolls.initiative: {ROUND: {NAME: N}}`` (a declaration's ``roll`` is refused: it comes too late);
5. the counts, from the lowest: as each count comes up, those whose count it is declare ("ALL of a
   character's actions are generally resolved on their turn"; PCs first, then the others, in the file's
   order) and act: all their attacks (D12-10), moving their standard rate before and after (D12-12); a
   caster chooses its spell now, casts for CT counts and the effect resolves at count + CT, a full-round
   spell last in the round (D12-05), as does a disengage (D12-18).

A tick is ``(round, phase, count, sub, part)``: phase 0 the start of the round (surprise, expiries,
morale, readied missiles declared), 1 readied missiles fired, 2 initiative, 3 the counts, 4 the end of the
round. ``count`` is the initiative count (it may fall below 1 or above 12 with DEX, or with a casting
time); ``sub`` is -1 for the declarations made as the count comes up (a step of the ruleset's own kind
"count" opens each count), then orders a tie the options of D12-07 break; ``part`` orders a move before the
action (0), the strike of the longer weapon on closing or of a weapon against the unarmed (1, D12-06), the
action (2) and a move after it (3). What is known of the round so far (each combatant's count, who is still
to declare, the acts built and not yet pushed) is ``d12_order.Round``; a count's steps are pushed only as
the count begins, so D12-06 and D12-07 can rank them with everything that happens at that count.

In the surprise round (D12-01, "resolve actions in order of highest surprise die roll first") an
unsurprised side acts on count 13 - its surprise die, so the highest die comes first on the same
scale the casting times count on; a surprise the referee rules has every unsurprised side on count 1.

Decisions where the seed leaves it to the referee:

- Who rolls (D12-04): a side rolls when one of its members, standing and not surprised, will take a turn
  on a count: not one still casting a spell of several rounds, nor a readied shooter who has fired without
  the drop. Whether it then does anything is its declaration's affair: a side whose members declare
  nothing has still rolled (they declare after the die).
- Closing (D12-06, "the longer weapon strikes first, regardless of initiative"): when an act at count c
  closes on a target that has not declared yet this round and carries a longer melee weapon than the
  closer's (its longest: it has not chosen yet), or when an unarmed attacker strikes at an armed one
  ("weapons always win initiative vs. unarmed", read as ``d12_order.close`` reads it: of any melee,
  closing or not), the target declares at that moment, out of turn. If it strikes back at the closer
  (with a weapon that does win), its blow moves to count c, before the closer's; anything else keeps its
  own count. An attacker that is itself the one with the longer weapon, or the armed one, strikes first
  anyway on its earlier count, so nobody is asked early for it.
- Missile fire at an adjacent melee attacker draws an attack of opportunity (D12-11): "attacking you" is
  the foe's declaration this round if it has made one (a melee at the shooter); one that has not declared yet
  counts as attacking the shooter if engaged with it in melee (option ``attacker``: ``last``, its last
  declaration was a melee at the shooter).
- A foe that took its attack of opportunity at a fleer's back may not pursue on its turn (D12-19): a plain move of
  its own that round is refused (when declared, and when it would happen).
- What a combatant asked for its declaration knows (option ``known``): the declarations made so far this round,
  in the order made (the readied shots first); ``none``: nothing.
- A combatant that falls before its count is not asked for a declaration.

Movement is counted in the seed's 5-ft squares (D12-15: 12" = six squares = 30 ft a round; option
``move_scale``). A plain move may run up to twice the standard rate, giving up any other action (D12-12
"faster movement than that"); a flight runs as far (D12-19).

The encounter file carries (README, "d12-procedure"): a combatant's ``on_point``, ``surprise_odds``
(1/8, 1/10) and ``load`` (lb), a side's ``surprise_adjust`` (the referee's, for alertness), a spell's
``duration``; declaration keys ``ready`` (and ``drop``, the referee granting an additional attack on its count),
``step``, ``after``, ``fall_back``, ``parry``; ``rolls.initiative`` also takes a PC's name (its own d12
with ``individual_rolls``).

Not implemented: individual surprise rolls (the individual option covers initiative only); a failed saving throw
disrupting a spell (D12-09) only where the save is against a spell's effect that stops the caster acting (G-09,
G-11: asleep, held...), not against damage; dwarves' and strength's shifts of the load
table (D12-15: the seed gives no figures); the opponent's choice not to follow a fall back or a
disengage (they always follow: the engagement stays for a fall back, ends for a disengage); the
encounter distance (D12-03) is the referee's ``distance``, never rolled; NPCs dropping weapon or
shield as they flee (D12-19); a parry does nothing but give up the attack (D12-17: the seed gives it
no mechanics); the referee's warning before an action provokes an attack of opportunity (D12-11) is
table talk. Tie order among several acts at one count comes from ``d12_order``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, cast

from mypy_extensions import mypyc_attr

from affray.dice.expr import parse_dice
from affray.engine.events import Expire, Initiative, Surprise, Tick
from affray.engine.fight import Fight
from affray.engine.options import BaseOptions, default_morale, morale_dice, option
from affray.engine.rules import LOST, FreeAttack, Rule
from affray.engine.ruleset import Ruleset
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, Step, Until, counted
from affray.engine.words import possessive, subject, their
from affray.errors import Problem
from affray.model.arms import Arms
from affray.model.derive import attacks_in_round, dex_defense_adjustment, dex_reaction_adjustment
from affray.model.encounter import expand, parse_duration
from affray.model.order import Order
from affray.reckon import casualty_morale, morale_score
from affray.rulesets.d12_order import Act, Round, close, strikes_first, ties
from affray.rulesets.d12_tables import move_squares, rate_by_load, surprise_range
from affray.supplements.c2x.agility import agility

if TYPE_CHECKING:
    from affray.io.load import Loaded

__all__ = ["D12Procedure"]


@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class D12Options(BaseOptions):
    """Every Decision of D12-01 to D12-22, with the digest's defaults."""

    morale_dice: str = morale_dice("2d6")
    default_morale: int = default_morale(7)
    surprise_stack: str = option("stack", "D12-02", "different surprise modifiers stack, or only the largest "
                                 "widening and the largest narrowing count", ("stack", "best"))
    side_dex: str = option("leader", "D12-04", "whose DEX adjusts the side's d12: the first the file lists for the "
                           "side, nobody's, or each member's own (the seed's individual adjustments)",
                           ("leader", "none", "individual"))
    individual_rolls: bool = option(False, "D12-04", "the PCs each roll their own d12 (rolls.initiative by the "
                                    "PC's name), adjusted by their own DEX; the others roll as a side")
    three_halves: str = option("1-then-2", "D12-14", "3/2 attacks: 1 in odd rounds and 2 in even, or the reverse",
                               ("1-then-2", "2-then-1"))
    tie_wsf: bool = option(False, "D12-07", "a tie between melee weapons goes to the lower speed factor")
    tie_attacks: bool = option(False, "D12-07", "a tie between attackers goes to whoever has more attacks "
                               "(missiles too)")
    tie_spell_melee: bool = option(False, "D12-07", "a tie between a spell taking effect and a melee strike goes to "
                                   "the lower of the casting time and the speed factor")
    tie_missile_spell: bool = option(False, "D12-07", "a tie between missile fire and a spell taking effect goes to "
                                     "the missile if the casting time is higher than the caster's initiative result")
    turn_rounds: int = option(10, "D12-21", "rounds in a turn of spell duration during combat")
    move_scale: str = option("squares", "D12-15", "a round's move: the seed's 5-ft squares (12\" = 6 squares = 30 "
                             "ft) or 10 ft an inch", ("squares", "inches"))
    attacker: str = option("engaged", "D12-11", "missile fire draws an attack of opportunity from an adjacent foe "
                           "attacking the shooter: one that has not declared yet this round counts as attacking if "
                           "engaged with it in melee (engaged), or if its last declaration was a melee at it (last)",
                           ("engaged", "last"))
    known: str = option("said", "D12-05", "what a combatant asked for its declaration knows of the others': the "
                        "declarations made so far this round (said), or none", ("said", "none"))
    morale: str = option("referee", "D12-22", "when morale is checked: as the seed says, only where the referee rolls "
                         "it (rolls.morale for the round); or as the other rulesets do, at a round's start after a "
                         "side's first casualty and at half down (casualties)", ("referee", "casualties"))


@dataclass
class D12Memo:
    """What the ruleset remembers of one fight (``Fight.memo``)."""

    hp_start: dict[str, int] = field(default_factory=dict)  # hp at the round's start (D12-09)
    busy: dict[str, int] = field(default_factory=dict)  # caster -> last round of a casting longer than a round
    expiries: dict[int, list[tuple[str, str, int]]] = field(default_factory=dict)  # round -> (caster, spell, cast)
    surprise_counts: dict[str, int] = field(default_factory=dict)
    #: who took an attack of opportunity at a fleer's back, and in which round: it may not pursue then (D12-19)
    no_pursuit: dict[str, int] = field(default_factory=dict)
    surprise_round: bool = False
    round: Round = field(default_factory=lambda: Round(0))  # this round's counts, declarations and acts


class D12Procedure(Ruleset[D12Memo, D12Options]):
    """Seed 004: side d12 adjusted by DEX, lowest first; casting timed from the count (D12-*)."""

    id = "d12-procedure"
    title = "Combat Procedure: side d12 adjusted by DEX, low acts first"
    seed = "004"
    rule_ids = "D12"
    Options = D12Options
    declaration_keys: ClassVar[dict[str, str]] = {
        "ready": "missile: the weapon is ready with the target in sight: fires before initiative (D12-08)",
        "drop": "with ready: the referee grants the drop, an additional attack on its count (D12-08)",
        "step": "a 5-foot step before the action, provoking nothing (D12-16)",
        "after": "melee, missile or cast: feet moved after the action, within the standard rate (D12-12)",
        "fall_back": "melee: feet (up to 10) stepped back after the attacks, front kept (D12-17)",
        "parry": "move with mode withdraw: parries instead of attacking while falling back (D12-17)",
    }
    initiative_die = 12
    initiative_by_name = True
    surprise_die = 12
    move_limits: ClassVar[dict[str, int]] = {"step": 5, "withdraw": 10}  # D12-16, D12-17
    own_kinds = frozenset({"count"})  # a count comes up: its declarations, its acts placed (``resolve_own``)
    attack_scheme = "1e"  # D12-14

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        # options read on every act, kept as the ruleset's own fields (an options field is a generic read when
        # compiled): whether any D12-07 option breaks ties, whether 3/2 attacks begin with 2 (D12-14)
        opt = self.opt
        self._ties_broken = opt.tie_wsf or opt.tie_attacks or opt.tie_spell_melee or opt.tie_missile_spell
        self._two_first = opt.three_halves == "2-then-1"

    def new_state(self) -> D12Memo:
        return D12Memo()

    def rules(self) -> list[Rule]:
        return [D12Rules(self.opt)]

    # -- load-time checks ------------------------------------------------------------------------------
    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:  # noqa: C901
        enc = loaded.encounter
        side_of = {name: side for name, side, _c, _l in expand(enc)}
        for rnd, by_key in enc.rolls.initiative.items():
            for key in by_key:
                if key in side_of and key not in enc.sides and not enc.sides[side_of[key]].pc:
                    yield loaded.problem(("rolls", "initiative", str(rnd), key), f"{key} is not on the PCs' side: "
                                         "only the PCs roll their own d12 (option individual_rolls), the others "
                                         f"roll as a side: give {side_of[key]}'s d12 (D12-04)")
        for actor, decls in enc.plan.items():
            for i, d in enumerate(decls):
                loc = ("plan", actor, i)
                x = d.extra
                if d.roll is not None:
                    yield loaded.problem(loc + ("roll",), "a PC's own d12 (option individual_rolls) is rolled with "
                                         "the initiative, before it declares: give it as rolls.initiative: "
                                         f"{{ROUND: {{{actor}: N}}}} (D12-04)")
                for key in ("ready", "drop", "step", "parry"):
                    if key in x and not isinstance(x[key], bool):
                        yield loaded.problem(loc + (key,), f"{key} takes true or false")
                for key in ("after", "fall_back"):
                    if key in x and (isinstance(x[key], bool) or not isinstance(x[key], int) or x[key] < 0):
                        yield loaded.problem(loc + (key,), f"{key} takes feet, a whole number >= 0")
                if x.get("ready") is True and d.action != "missile":
                    yield loaded.problem(loc + ("ready",), "only a missile weapon is readied to fire before "
                                         "initiative (D12-08)")
                if x.get("drop") is True and x.get("ready") is not True:
                    yield loaded.problem(loc + ("drop",), "drop goes with ready: true, the prepared shot (D12-08)")
                if "after" in x and d.action not in ("melee", "missile", "cast"):
                    yield loaded.problem(loc + ("after",), "after is the move after an attack or a spell "
                                         "(D12-12); for a plain move use move")
                fb = x.get("fall_back")
                if fb is not None and (d.action != "melee" or (isinstance(fb, int) and fb > 10)):
                    yield loaded.problem(loc + ("fall_back",), "fall_back goes with a melee declaration and "
                                         "is at most 10 ft (D12-17)")
                if x.get("step") is True and (d.distance or x.get("after") or fb or d.action == "move"):
                    yield loaded.problem(loc + ("step",), "a 5-foot step must be the only movement of the round "
                                         "(D12-16): drop distance, after, fall_back or the move")
                if "parry" in x and not (d.action == "move" and d.mode == "withdraw"):
                    yield loaded.problem(loc + ("parry",), "parry goes with move, mode withdraw (D12-17)")
                if d.action == "move" and d.mode == "withdraw" and (d.move or 0) > cls.move_limits["withdraw"]:
                    yield loaded.problem(loc + ("move",), f"a fall back is at most 10 ft (D12-17); got {d.move}")
                if d.action == "move" and d.mode == "step" and (d.move or 0) > cls.move_limits["step"]:
                    yield loaded.problem(loc + ("move",), f"a 5-foot step is 5 ft (D12-16); got {d.move}")

    # -- what the seed refuses outright ----------------------------------------------------------------
    def refusal(self, fight: Fight[D12Memo], f: Fighter, decl: Order) -> str | None:
        """D12-09: a caster damaged earlier this round may not cast in the rest of it; D12-19: a foe that took its
        attack of opportunity at a fleer's back may not pursue on its turn (a move of its own this round)."""
        memo = fight.memo
        rnd = fight.period
        if decl.action == "cast":
            start = memo.hp_start.get(f.name, f.hp)
            if f.hp < start:
                return (f"{f.name} took damage earlier this round ({start} -> {f.hp} hp): no casting for the rest "
                        "of the round (D12-09)")
        elif decl.action == "move" and memo.no_pursuit.get(f.name) == rnd and _pursues(decl):
            return (f"{f.name} took an attack of opportunity at a fleer's back this round: it may not pursue on its "
                    "turn (D12-19)")
        return None

    # -- movement --------------------------------------------------------------------------------------
    def rate(self, f: Fighter) -> tuple[int, str]:
        """D12-15: the standard move in feet a round, and how it was found (asked for every action: worked out once
        a fight and kept on the fighter, ``Fighter.memo``)."""
        if f.memo is not None:
            return cast(tuple[int, str], f.memo)
        f.memo = out = self._rate(f)
        return out

    def _rate(self, f: Fighter) -> tuple[int, str]:
        inches, how = f.mv, f"MV {f.mv}\""
        if f.load is not None:
            inches, how = rate_by_load(f.load, f.spec.race)
        if self.opt.move_scale == "inches":
            return inches * 10, f"{how} = {inches * 10} ft"
        sq = move_squares(inches)
        return sq * 5, f"{how} = {sq} squares = {sq * 5} ft (D12-15)"

    # -- the round -------------------------------------------------------------------------------------
    def begin(self, fight: Fight[D12Memo], rnd: int) -> None:
        state = fight.state
        memo = fight.memo
        if rnd == 1:
            self._surprise(fight)
        memo.hp_start = {n: f.hp for n, f in state.fighters.items()}
        self._expire(fight, rnd)
        self._morale(fight, rnd)
        surprised = state.surprised if rnd == 1 and memo.surprise_round else frozenset()
        taking = [f for f in state.pcs_first if f.active and f.side not in surprised
                  and memo.busy.get(f.name, 0) < rnd]
        ready = self._readied(fight, rnd, taking)
        # "having the drop": the referee may grant the readied shooter its turn as well (D12-08, key drop)
        turns = [f for f in taking if f.active and (f.name not in ready or ready[f.name].extra.get("drop") is True)]
        r = memo.round = Round(rnd, self._initiative(fight, rnd, turns))
        r.said.update(ready)
        for f in turns:
            count = r.counts[f.name][0]
            if f.name in ready:
                r.granted[f.name] = ready[f.name]
            else:
                r.waiting[f.name] = count
            r.due.setdefault(count, []).append(f)
            self._count_step(fight, r, count, f)

    def _readied(self, fight: Fight[D12Memo], rnd: int, taking: list[Fighter]) -> dict[str, Order]:
        """D12-08: whoever begins the round with a missile ready (its next plan entry, ``ready: true``) declares
        it now, from the plan alone (nobody is asked before initiative), and fires before initiative is rolled."""
        tick, at = (rnd, 0, 2, 0, 0), f"round {rnd}, start (readied missiles)"
        ready: dict[str, Order] = {}
        for f in taking:
            if f.routed or (f.current is not None and f.remaining > 0) or f.plan_pos >= len(f.plan):
                continue
            nxt = f.plan[f.plan_pos]
            if nxt.action == "missile" and nxt.extra.get("ready") is True:
                d = fight.declare(f, tick, at)
                if d is not None:
                    ready[f.name] = d
        steps = []
        for name, d in ready.items():
            steps += [s for _, s in self._missile(fight, fight.state.fighters[name], d, rnd, 0, "").steps]
        for s in steps:
            s.tick = (rnd, 1, 0, 0, 2)
            s.at = f"round {rnd}, readied missiles (before initiative)"
            s.why = ("began the round with the missile ready and the target in sight: fires before "
                     "initiative is rolled, and must (D12-08)")
        fight.resolve_now(steps)
        return ready

    def _count_step(self, fight: Fight[D12Memo], r: Round, count: int | None, f: Fighter) -> None:
        """Place the "count" step that opens ``count`` (None: the end of the round), once a round."""
        if count in r.counted:
            return
        r.counted.add(count)
        rnd = r.number
        if count is None:
            tick, at = (rnd, 4, 0, -1, 0), f"round {rnd}, end of the round"
        else:
            tick, at = (rnd, 3, count, -1, 0), f"round {rnd}, count {count}"
        fight.push(Step(tick, f, "count", at, "the count comes up: whose count it is declares now, then what "
                        "happens at this count is placed in order (D12-05, D12-06, D12-07)"))

    def resolve_own(self, fight: Fight[D12Memo], step: Step) -> None:
        """A "count" step: at the start of each count, those whose count it is declare (D12-05: "ALL of a
        character's actions are generally resolved on their turn"), a target closed on by a shorter weapon
        out of turn (D12-06); the acts of this count are then ranked (D12-07) and pushed."""
        r = fight.memo.round
        phase, count = step.tick[1:3]
        if phase == 4:
            self._place(fight, r, None)
            return
        state = fight.state
        for f in r.due.get(count, ()):  # PCs first, then the others, in the file's order
            if r.waiting.get(f.name) == count:
                del r.waiting[f.name]
                if f.active:
                    self._declare(fight, r, f, step.tick, step.at)
            elif f.name in r.granted and r.counts[f.name][0] == count and f.active:
                self._build(fight, r, f, r.granted.pop(f.name))
        for act in [a for a in r.acts if a.count == count]:
            t = state.fighters.get(act.target or "")
            if t is None or t.name not in r.waiting or not t.active or (why := strikes_first(act, t)) is None:
                continue
            del r.waiting[t.name]
            self._declare(fight, r, t, step.tick, f"{step.at}, out of turn: {why}")
        self._place(fight, r, count)

    def _declare(self, fight: Fight[D12Memo], r: Round, f: Fighter, tick: Tick, at: str) -> None:
        """``f`` declares as its count comes up, knowing (option ``known``) what the others said so far this round."""
        known = tuple((n, o.source) for n, o in r.said.items()) if (
            fight.asker is not None and self.opt.known == "said") else ()
        d = fight.declare(f, tick, at, known=known)
        if d is not None:
            r.said[f.name] = d
            self._build(fight, r, f, d)

    def _build(self, fight: Fight[D12Memo], r: Round, f: Fighter, d: Order) -> None:
        """The acts of ``f``'s declaration, on its own count, into the round's registry (a spell's effect CT
        counts later, a full-round one at the end: D12-05)."""
        count, why = r.counts[f.name]
        for act in self._acts(fight, f, d, r.number, count, why):
            r.acts.append(act)
            self._count_step(fight, r, act.count, f)

    def _place(self, fight: Fight[D12Memo], r: Round, count: int | None) -> None:
        """D12-06 then D12-07 over the acts known so far; push the steps of the acts at ``count``."""
        close(r.acts)
        now = [a for a in r.acts if a.count == count]
        r.acts = [a for a in r.acts if a.count != count]
        if self._ties_broken:
            ties(now, self.opt)
        else:  # no option breaks a tie: all of a count go at once
            for a in now:
                a.sub = 0
        rnd = r.number
        for act in now:
            for part, s in act.steps:
                phase, c = (4, 0) if act.count is None else (3, act.count)
                s.tick = (rnd, phase, c, act.sub, part)
                if fight.explain:
                    s.at = f"round {rnd}, " + ("end of the round" if act.count is None else f"count {act.count}")
                    s.why += act.tie
                fight.push(s)

    def _surprise(self, fight: Fight[D12Memo]) -> None:
        """D12-01, D12-02: the referee may rule it; otherwise a d12 per side, surprised on 1 to its range."""
        enc = fight.encounter
        memo = fight.memo
        sides = list(enc.sides)
        tick, at = (1, 0, 0, 0, 0), "round 1, surprise"
        memo.surprise_counts = {}
        if enc.surprise == "none":
            surprised: set[str] = set()
            detail = "no surprise: every side is aware (the file says none)"
            dice: dict[str, int] = {}
        elif isinstance(enc.surprise, dict):
            surprised = {s for s in sides if enc.surprise.get(s)}
            detail = f"the referee rules it (D12-01): {', '.join(sorted(surprised)) or 'nobody'} surprised"
            dice = {}
        else:
            dice, parts, surprised = {}, [], set()
            members = [(side, c) for _n, side, c, _l in expand(enc)]
            for s in sides:
                own = [c for side, c in members if side == s]
                foes = [c for side, c in members if side != s]
                rng, notes = surprise_range(own, foes, enc.sides[s].surprise_adjust,
                                            stack=self.opt.surprise_stack == "stack")
                dice[s] = fight.roller.die(12, "surprise", s, enc.rolls.surprise.get(s))
                if dice[s] <= rng:
                    surprised.add(s)
                span = f"1-{rng}" if rng else "never"
                parts.append(f"{s} d12={dice[s]} vs {span}" + (f" ({'; '.join(notes)})" if notes else "")
                             + (": surprised" if dice[s] <= rng else ""))
            detail = ", ".join(parts)
        memo.surprise_round = 0 < len(surprised) < len(sides)
        if surprised and not memo.surprise_round:
            detail += ": every side surprised, so nobody is (D12-01)"
        if memo.surprise_round:
            for s in sides:
                if s not in surprised:
                    memo.surprise_counts[s] = 13 - dice[s] if s in dice else 1
            detail += f": {subject([s for s in sides if s in surprised], 'does')} nothing in round 1"
        fight.record(Surprise(tick, at, fight.round_at(tick), why="d12 per side, surprised on 1-4 as the side's "
                              "abilities move the range; one round, the surprised doing nothing (D12-01, D12-02)",
                              detail=detail,
                              surprised=tuple(s for s in sides if s in surprised) if memo.surprise_round else (),
                              surprisers=tuple(memo.surprise_counts), rolls=fight.rolls()))

    def _expire(self, fight: Fight[D12Memo], rnd: int) -> None:
        """D12-21: a duration of N rounds (a turn = ``turn_rounds`` rounds) ends at the start of round r + N;
        ``D12Rules.took_effect`` notes when."""
        for caster, spell, began in fight.memo.expiries.pop(rnd, []):
            fight.emit(Expire, (rnd, 0, 0, 1, 0), f"round {rnd}, start", caster, spell=spell,
                       why=f"{spell} took effect in round {began}; its duration of {rnd - began} rounds is over "
                       "(D12-21)")

    def expiry(self, fight: Fight[D12Memo], tick: Tick, count: int, unit: str) -> Until:
        """D12-21: "duration in rounds ... runs from the round it takes effect": N rounds end at the start of
        round r + N; a turn is ``turn_rounds`` rounds in combat (10); a phase counts as a round, ten segments as
        one (a part of one counts whole)."""
        per = {"round": 1, "turn": self.opt.turn_rounds, "phase": 1}
        rounds = count * per[unit] if unit in per else -(-count // 10)
        end = tick[0] + rounds
        return Until((end,), f"round {end}, start", f"round {tick[0]} + {counted(rounds, 'round')}: it ends as "
                     f"round {end} begins (D12-21)")

    def _morale(self, fight: Fight[D12Memo], rnd: int) -> None:
        """D12-22, G-07: the referee checks as he sees fit (a roll entered for the round); PCs never check. Option
        ``morale: casualties``: each side not of PCs checks at a round's start after its first casualty and at half
        down, as the other rulesets do (a roll entered for the round is that check's dice)."""
        if self.opt.morale == "casualties":
            if rnd > 1:
                casualty_morale(fight, self.opt, (rnd, 0, 1), f"round {rnd}, start (morale)", "start of the round",
                                "D12-22 option morale: casualties")
            return
        state = fight.state
        enc = fight.encounter
        for k, side in enumerate(enc.rolls.morale.get(rnd, {})):  # the engine reads the entered total
            members = [f for f in state.sides[side] if f.active and not f.pc and not f.routed]
            if not members:
                continue
            score = morale_score(fight, self.opt, side, members)
            pcs = [f.name for f in state.sides[side] if f.pc and f.active]
            why = (f"the referee checks {possessive(side)} morale this round (G-07)" +
                   (f"; player characters never check ({', '.join(pcs)}, D12-22)" if pcs else ""))
            fight.morale_check(side, members, score, (rnd, 0, 1, k, 0), f"round {rnd}, start (morale)",
                               ("referee",), why, parse_dice(self.opt.morale_dice))

    def _initiative(self, fight: Fight[D12Memo], rnd: int, turns: list[Fighter]) -> dict[str, tuple[int, str]]:  # noqa: C901
        """D12-04: a d12 per side with a member to take its turn, minus the DEX reaction adjustment; the lowest
        count acts first. With ``individual_rolls`` each PC's own d12 (``rolls.initiative: {ROUND: {NAME: N}}``)."""
        state = fight.state
        tick, at = (rnd, 2, 0, 0, 0), f"round {rnd}, initiative"
        sides = [s for s in state.sides if any(f.side == s for f in turns)]
        memo = fight.memo
        counts: dict[str, tuple[int, str]] = {}
        if len(sides) <= 1 and not (rnd == 1 and memo.surprise_round):
            for f in turns:
                counts[f.name] = (1, f"only {subject(f.side, 'acts')} this round: no initiative needed, count 1 "
                                      "(D12-04)")
            fight.record(Initiative(tick, at, fight.round_at(tick),
                                    detail=f"only {subject(sides[0], 'acts') if sides else 'nobody acts'}: no roll",
                                    ranks={s: 1 for s in sides}, rolls=fight.rolls()))
            return counts
        if rnd == 1 and memo.surprise_round:
            for f in turns:
                c = memo.surprise_counts.get(f.side, 1)
                counts[f.name] = (c, f"surprise round: {subject(f.side, 'acts')} on count {c} (13 - {their(f.side)} "
                                  "surprise d12), highest "
                                  "surprise die first (D12-01)")
            fight.record(Initiative(tick, at, fight.round_at(tick), detail="surprise round: no initiative; the "
                                    "unsurprised act, highest surprise die first (D12-01)",
                                    ranks={s: 1 for s in sides}, rolls=fight.rolls()))
            return counts
        given = fight.encounter.rolls.initiative.get(rnd, {})
        mode = self.opt.side_dex
        individual = self.opt.individual_rolls
        rolls: dict[str, int] = {}
        results: dict[str, int] = {}
        texts: list[str] = []
        ex = fight.explain  # the lean mode writes no words
        for s in sides:
            members = [f for f in turns if f.side == s]
            alone = individual and fight.encounter.sides[s].pc
            if not alone:
                rolls[s] = fight.roller.die(12, "initiative", s, given.get(s))
            leader = state.sides[s][0]  # the Decision: the first the file lists, standing or not
            lead_score, lead_ability = agility(fight, leader)  # C2X-01: AGI with the Agility option
            lead_adj = dex_reaction_adjustment(lead_score, edition="1e")
            for f in members:
                how = who = ""
                if alone:
                    die = fight.roller.die(12, "initiative", f.name, given.get(f.name))
                    score, ability = agility(fight, f)
                    adj = dex_reaction_adjustment(score, edition="1e")
                    if ex:
                        how, who = f"{f.name}'s own d12 {die}", f"its {ability} {score}"
                        texts.append(f"{f.name} d12={die}")
                elif mode == "individual":
                    score, ability = agility(fight, f)
                    die, adj = rolls[s], dex_reaction_adjustment(score, edition="1e")
                    if ex:
                        how, who = f"{s} d12 {rolls[s]}", f"its own {ability} {score}"
                elif mode == "leader":
                    die, adj = rolls[s], lead_adj
                    if ex:
                        how, who = f"{s} d12 {rolls[s]}", f"{leader.name}'s {lead_ability} {lead_score}"
                else:
                    die, adj = rolls[s], 0
                    if ex:
                        how, who = f"{s} d12 {rolls[s]}", "no DEX"
                c = die - adj
                counts[f.name] = (c, "" if not ex else f"{how} - {who} ({adj:+d}) = count {c}, lowest first "
                                  "(D12-04)" if adj else f"{how} = count {c}, lowest first (D12-04)")
            if not alone:
                results[s] = rolls[s] - (lead_adj if mode == "leader" else 0)
                if ex:
                    adj_text = f" - {lead_ability} {lead_score} of {leader.name} ({lead_adj:+d})" if (
                        mode == "leader" and lead_adj) else " (each member adjusts by its own DEX)" if (
                        mode == "individual") else ""
                    texts.append(f"{s} d12={rolls[s]}{adj_text} = {results[s]}")
        distinct = sorted(set(results.values()))  # once, not once a side
        ranks = {s: distinct.index(v) + 1 for s, v in results.items()}
        detail = ", ".join(texts) + ": lowest acts first, equal counts together (D12-04)" if ex else None
        fight.record(Initiative(tick, at, fight.round_at(tick), None, None, detail, ranks=ranks, results=results,
                                rolls=fight.rolls()))
        return counts

    # -- one declaration to acts --------------------------------------------------------------------------
    def _acts(self, fight: Fight[D12Memo], f: Fighter, d: Order, rnd: int, count: int, base: str) -> list[Act]:
        action = d.action
        if action == "melee":
            return [self._melee(fight, f, d, rnd, count, base)]
        if action == "missile":
            return [self._missile(fight, f, d, rnd, count, base)]
        if action == "cast":
            return self._cast(fight, f, d, rnd, count, base)
        if action == "move":
            return [self._move(fight, f, d, count, base)]
        act = Act(f, count, "other", count)
        if action == "misc" and (d.misc or "").strip().lower() == "surrender":
            act.steps.append((2, Step((), f, "surrender", "", f"{base}; throws down its arms (D12-20)", decl=d,
                                      note="surrenders")))
        elif action in ("misc", "wait"):
            what = d.misc if action == "misc" else (d.wait if isinstance(d.wait, str) else "")
            act.steps.append((2, Step((), f, action, "", f"{base}; all its actions on its turn (D12-10)", decl=d,
                                      note=str(what or ""))))
        return [act]

    def _step5(self, act: Act, d: Order, base: str, limited: bool) -> None:
        """D12-16: the 5-foot step, before the action, provoking nothing; after it and unprotected if limited."""
        if d.extra.get("step") is not True:
            return
        f = act.f
        if limited:
            act.steps.append((3, Step((), f, "move", "", f"{base}; limited to 5 ft or less this round, so the 5 ft "
                                      "comes after its other actions and is no protected step (D12-16)", decl=d,
                                      feet=5, mode="shift", note="moves 5 ft")))
        else:
            act.steps.append((0, Step((), f, "move", "", f"{base}; a 5-foot step before its action, drawing no "
                                      "attack of opportunity (D12-16)", decl=d, feet=5, mode="step",
                                      note="5-foot step")))

    def _after(self, act: Act, d: Order, base: str, used: int, rate: int) -> None:
        """D12-12: the rest of the standard rate after the action; D12-17: a fall back of up to 10 ft."""
        f = act.f
        after = d.extra.get("after")
        if isinstance(after, int) and after > 0:
            feet = max(0, min(after, rate - used))
            act.steps.append((3, Step((), f, "move", "", f"{base}; movement split before and after the action, "
                                      f"{used} + {feet} ft within the standard {rate} ft (D12-12)", decl=d,
                                      feet=feet, mode="half", note=f"moves {feet} ft after")))
        fb = d.extra.get("fall_back")
        if isinstance(fb, int) and fb > 0:
            act.steps.append((3, Step((), f, "move", "", f"{base}; falls back {fb} ft fighting, front to the enemy "
                                      "(D12-17)", decl=d, feet=fb, mode="withdraw", note=f"falls back {fb} ft")))

    def _melee(self, fight: Fight[D12Memo], f: Fighter, d: Order, rnd: int, count: int, base: str) -> Act:
        """D12-10 all attacks on its turn; D12-12 closing at the standard rate and still attacking."""
        weapon = f.weapon(d.weapon)
        n = self._attacks(f, rnd)
        act = Act(f, count, "melee", count, key=weapon.sf or 0, attacks=n, target=d.melee, reach=weapon.reach)
        rate, how = self.rate(f)
        remaining = f.remaining
        self._step5(act, d, base, rate <= 5)
        if remaining > rate:
            act.kind = "other"
            act.steps.append((0, Step((), f, "move", "", f"{base}; {remaining} ft to close is more than the standard "
                                      f"move ({how}): it closes {rate} ft and cannot strike this round (D12-12)",
                                      decl=d, feet=rate, mode="full", target=d.melee,
                                      note=f"moves {rate} ft towards {d.melee}")))
            return act
        moved = ""
        if remaining > 0:
            act.closing = True
            moved = f", after closing {remaining} ft within its standard move ({how})"
            act.steps.append((0, Step((), f, "move", "", f"{base}; closes {remaining} ft at its standard rate and "
                                      f"still attacks ({how}, D12-12)", decl=d, feet=remaining,
                                      mode="charge" if d.charge else "half", target=d.melee,
                                      note=f"closes {remaining} ft to {d.melee}")))
        elif d.charge:
            act.closing = True
        for i in range(n):
            strike = f.form(d.weapon, i)  # a monster's routine: each attack its own form
            form = f", {strike.name}" if f.in_routine(d.weapon) else ""
            nth = f" (attack {i + 1} of {n}{form}: all on its turn, D12-10, D12-14)" if n > 1 else ""
            act.steps.append((2, Step((), f, "melee", "", f"{base}{moved}{nth}", decl=d, target=d.melee,
                                      weapon=strike, index=i)))
        self._after(act, d, base, remaining, rate)
        return act

    def _missile(self, fight: Fight[D12Memo], f: Fighter, d: Order, rnd: int, count: int, base: str) -> Act:
        weapon = f.weapon(d.weapon, missile=True)
        shots = attacks_in_round(weapon.rate, rnd)
        act = Act(f, count, "missile", count, key=weapon.sf or 0, attacks=shots, target=d.missile)
        rate, _ = self.rate(f)
        self._step5(act, d, base, rate <= 5)
        for i in range(shots):
            nth = f" (shot {i + 1} of {shots}, fire rate {weapon.rate}: all on its turn, D12-10)" if shots > 1 else ""
            act.steps.append((2, Step((), f, "missile", "", f"{base}{nth}", decl=d, target=d.missile, weapon=weapon,
                                      index=i)))
        self._after(act, d, base, 0, rate)
        return act

    def _cast(self, fight: Fight[D12Memo], f: Fighter, d: Order, rnd: int, count: int, base: str) -> list[Act]:
        """D12-05: chosen on the count, cast for CT counts, then the effect; a full round resolves last."""
        spell = f.spells[d.cast or ""]
        ct = spell.ct
        start = Act(f, count, "other", count)
        rate, _ = self.rate(f)
        self._step5(start, d, base, rate <= 5 or ct >= 10)
        start.steps.append((2, Step((), f, "cast-start", "", f"{base}; chooses and begins {spell.name} on its count "
                                    "(D12-05)", decl=d, spell=spell, target=d.at)))
        if ct < 10:
            done = Act(f, count + ct, "spell", count, key=ct)
            why = f"{base}; {spell.name} takes effect at count {count} + CT {ct} = {count + ct} (D12-05)"
        else:
            rounds = ct // 10
            done = Act(f, None, "spell", count, key=ct)
            if rounds > 1:
                fight.memo.busy[f.name] = rnd + rounds - 1
            why = (f"{base}; {spell.name} needs a full round to cast and resolves last in the round (D12-05)" if
                   rounds == 1 else f"{base}; {spell.name} takes {rounds} rounds to cast and resolves last in "
                   f"the last of them (D12-05)")
        step = Step((), f, "cast", "", why, decl=d, spell=spell, target=d.at)
        if ct >= 20:  # rounds later: placed now, resolved when its round comes
            last = rnd + ct // 10 - 1
            step.tick = (last, 4, 0, 0, 2)
            step.at = f"round {last}, end of the round"
            fight.push(step)
            return [start]
        done.steps.append((2, step))
        self._after(done, d, base, 0, rate)
        return [start, done]

    def _move(self, fight: Fight[D12Memo], f: Fighter, d: Order, count: int, base: str) -> Act:
        """D12-12 running, D12-16 step, D12-17 fall back, D12-18 disengage (last), D12-19 flee."""
        rate, how = self.rate(f)
        mode = d.mode or "full"
        feet = d.move or 0
        act = Act(f, count, "other", count)
        tags: frozenset[str] = frozenset()
        if mode == "withdraw":
            feet = min(feet, 10)
            parry = "; parries instead of attacking" if d.extra.get("parry") is True else ""
            why = f"{base}; falls back {feet} ft fighting, front kept{parry} (D12-17)"
        elif mode == "retreat":
            act.count = None
            feet = min(feet, rate)
            tags = frozenset({"disengage"})
            why = (f"disengaging gives up all initiative advantage: acts last in the round, fighting no more, "
                   f"moving up to its standard {rate} ft ({how}) (D12-18)")
        elif mode == "flee":
            feet = min(feet, 2 * rate)
            tags = frozenset({"disengage", "leaves"})
            why = (f"{base}; flees in panic as fast as it can run, up to twice its standard {rate} ft; foes may take "
                   "an attack of opportunity at its back (D12-19)")
        elif mode == "step":
            feet = min(feet, 5)
            why = f"{base}; a 5-foot step, drawing no attack of opportunity (D12-16)"
        elif feet > rate:
            feet = min(feet, 2 * rate)
            why = (f"{base}; {feet} ft is faster than the standard {rate} ft ({how}): runs, giving up any attack "
                   "or casting (D12-12)")
        else:
            why = f"{base}; moves within its standard {rate} ft ({how}) (D12-12)"
        act.steps.append((2, Step((), f, "move", "", why, decl=d, feet=feet, mode=mode, tags=tags,
                                  note=f"{mode} {feet} ft")))
        return act

    def _attacks(self, f: Fighter, rnd: int) -> int:
        """D12-14: 3/2 is 1 then 2 (or the reverse with option three_halves)."""
        shift = 1 if self._two_first and f.attacks.denominator == 2 else 0
        return attacks_in_round(f.attacks, rnd + shift)


class D12Rules(Rule):
    """d12-procedure's step rules: D12-09 casting after damage, D12-11 to D12-19 attacks of opportunity, D12-13 a
    caster's AC, D12-21 durations."""

    def __init__(self, opt: D12Options) -> None:
        self.opt = opt

    def mods(self, fight: Fight[D12Memo], step: Step, target: Fighter, mods: AttackMods) -> None:
        if target.casting is not None:
            score, ability = agility(fight, target)  # C2X-01: AGI gives the AC bonus with the Agility option
            d = dex_defense_adjustment(score)
            if d < 0:
                mods.add("ac", -d, f"{target.name} casting: no {ability} bonus to AC, D12-13")

    def refuse(self, fight: Fight[D12Memo], step: Step) -> str | None:
        a = step.actor
        start = fight.memo.hp_start.get(a.name, a.hp)
        if step.kind == "cast-start" and a.hp < start:
            return (f"{a.name} took damage earlier this round ({start} -> {a.hp} hp): no casting "
                    "for the rest of the round (D12-09)")
        if step.kind == "melee" and a.remaining > 0:
            return f"{a.name} is still {a.remaining} ft short of {step.target}"
        if step.kind == "move" and step.decl is not None and fight.memo.no_pursuit.get(a.name) == fight.period and (
                _pursues(step.decl)):
            return (f"{a.name} took an attack of opportunity at a fleer's back this round: it may not pursue on its "
                    "turn (D12-19)")
        return None

    def interrupt(self, fight: Fight[D12Memo], caster: Fighter, step: Step) -> str | None:
        """D12-09: struck while actually casting, the spell is lost from memory."""
        return LOST

    def free_attacks(self, fight: Fight[D12Memo], step: Step) -> list[FreeAttack]:
        """D12-11: a move's attacks of opportunity (``_opportunity``); firing or casting in reach (``_provoked``)."""
        return _opportunity(fight, step) if step.kind == "move" else _provoked(fight, step, self.opt.attacker)

    def took_effect(self, fight: Fight[D12Memo], step: Step) -> None:
        """D12-21: a duration in rounds, or turns of ``turn_rounds`` rounds, runs from the round it took effect."""
        spell = step.spell
        if spell is None or spell.duration is None:
            return
        end = fight.ruleset.expiry(fight, step.tick, *parse_duration(spell.duration)).tick[0]
        fight.memo.expiries.setdefault(end, []).append((step.actor.name, spell.name, step.tick[0]))


def _opportunity(fight: Fight[D12Memo], step: Step) -> list[FreeAttack]:
    """D12-11 moving more than 5 ft in reach; D12-16 the 5-foot step and D12-17 the first 5 ft back provoke
    nothing; D12-18 a disengage is let go; D12-19 a flight gives every engaged foe one at its back."""
    mover = step.actor
    mode = step.mode
    if mode in ("step", "retreat") or not mover.engaged:
        return []
    out: list[FreeAttack] = []
    for foe in _foes_in_reach(fight, mover):
        weapon = _best(foe)
        if foe.name == step.target:
            continue  # closing on it is entering its reach, not moving within it
        if mode == "flee":
            fight.memo.no_pursuit[foe.name] = fight.period  # "but then are not permitted to pursue on their turn"
            out.append((foe, weapon, f"{mover.name} flees in panic: an attack of opportunity at its back "
                                     "(D12-19)"))
        elif mode == "withdraw":
            if step.feet > 5 and weapon.reach >= 10:
                out.append((foe, weapon, f"{mover.name} falls back {step.feet} ft, still within the "
                                         f"{weapon.reach} ft reach of {foe.name}'s {weapon.name} after the "
                                         "first 5 ft (D12-17, D12-11)"))
        elif step.feet > 5:
            out.append((foe, weapon, f"{mover.name} moves {step.feet} ft (more than 5 ft) within melee range: "
                                     "an attack of opportunity at the attacker's best (D12-11)"))
    return out


def _provoked(fight: Fight[D12Memo], step: Step, attacker: str) -> list[FreeAttack]:
    """D12-11: missile fire against an adjacent melee attacker; casting within melee range. An engaged foe is
    "attacking you" if its declaration this round is a melee at you; one that has not declared yet this round, if
    engaged with you (option ``attacker`` engaged) or if its last declaration was a melee at you (last)."""
    a = step.actor
    if step.kind not in ("missile", "cast-start") or not a.engaged:
        return []
    said = fight.memo.round.said
    out: list[FreeAttack] = []
    for foe in _foes_in_reach(fight, a):
        if step.kind == "missile":
            d = said.get(foe.name)
            if d is None:  # not declared yet this round
                d = foe.declared if attacker == "last" else None
                if attacker == "last" and (d is None or d.melee != a.name):
                    continue
                how = "engaged with it in melee, not yet declared this round" if d is None else "attacks it in melee"
            elif d.melee != a.name:
                continue
            else:
                how = "attacks it in melee"
            out.append((foe, foe.weapon(d.weapon if d is not None else None), f"{a.name} fires a missile while "
                        f"{foe.name} {how}: an attack of opportunity (D12-11)"))
        else:
            out.append((foe, _best(foe), f"{a.name} casts within {foe.name}'s melee range: an attack of "
                        "opportunity (D12-11)"))
    return out


def _pursues(decl: Order) -> bool:
    """D12-19: a move that could follow a fleer (not a 5-foot step, a fall back, a disengage or a flight)."""
    return (decl.mode or "full") in ("full", "half", "shift")


def _foes_in_reach(fight: Fight[D12Memo], f: Fighter) -> list[Fighter]:
    """Engaged, standing foes that have not yet used this round's attack of opportunity (D12-11)."""
    rnd = fight.period
    fs = fight.state.fighters
    return [fs[n] for n in sorted(f.engaged, key=fight.order)
            if fs[n].active and fs[n].aoo_round != rnd and fs[n].side != f.side]


def _best(f: Fighter) -> Arms:
    """D12-11 "at their best possible bonus": the melee weapon with the highest magic bonus."""
    melee = [w for w in f.weapons if w.kind != "missile"] or list(f.weapons)
    return max(melee, key=lambda w: w.magic)
