"""phase-count: seed 003 (The Insane DM Houserules III), no rounds, the referee counts phases.

Read it beside ``../shared/seeds/003_*.txt`` and RULES.md PC-01 to PC-12. The battle starts at
phase 0 (option ``start_phase``, PC-01): each side rolls 1d6, low first (PC-06); every combatant
declares its first action, which happens at 0 + its side's die + the action's phase modifier
(PC-02, PC-03). When an action has resolved, the combatant declares the next from its plan and
rolls a d6 for it (a declaration's ``roll`` pins it). Extra attacks fall in the following phases
(PC-04); a move-and-attack moves at the placed phase and strikes in the next (PC-05).

A tick is ``(phase, stage, rank)``. ``stage`` orders one phase (PC-06): 0 durations running out
and guards ending, 1 the surprisers' free actions (PC-08), 2 spells completing, 3 shooting, 4
movement and charge attacks, 5 melee, 6 anything else; ``rank`` is the side's place in the opening
initiative (1 = lowest die). Equal ticks are simultaneous. ``--max-rounds N`` allows N rounds of
5 phases (the seed's "a combat round has 5 phases").

Facts the encounter file gives for this ruleset (besides CONTRACT.md's):
- a declaration's ``speed`` (a category or a numeric initiative modifier) gives its PM and wins
  over the weapon's or spell's (the seed's movers are "fast" or "average" as they say);
- ``wait`` with ``until: N`` stands guard until phase N (PC-08a); without it, one round (5 phases,
  20 with ``duration_scale: real``);
- ``abort: N`` on a declaration: at phase N the combatant drops what it is doing and declares
  this one, rolling from N (PC-09);
- ``declared_at: N``: the referee decided this action at phase N, earlier than the moment the
  last one resolved (the seed's bugbear: attack at phase 7, next move "phase 6 + 2 + 3 = 11");
- ``force_back: true`` on an attack: a called shot, -4 to hit (2e), that forces the target back,
  out of melee, on a hit (PC-10);
- a spell's ``duration`` ("4 rounds", "1 turn", "20 phases") ends with an ``expire`` event and
  its ``damage_at`` (["3 rounds", ...]) deals its ``damage`` at each of those times after the
  casting (an ``effect`` event), not at once (PC-12); a cast's ``dice: [{damage: N}, ...]`` pins
  those damage rolls in order.
Movement: a full move covers MV x 10 ft (the file's MV in inches, as every ruleset reads it), a half
move half that, a withdrawal a third; a melee with ``distance`` closes with a half move (a charge: a
full move, +2 to hit), and a longer distance takes further actions.

Not implemented: critical events (PC-06's "or use a critical event"), critical hits as a way to
force a foe back (PC-10, the called shot is), the effects of fatigue (PC-11 only marks it: the
seed gives no effect), poison onset times (PC-12: no poison in the encounter file).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from mypy_extensions import mypyc_attr

from affray.dice.expr import parse_dice
from affray.engine.events import (
    Abort,
    CastStart,
    Declare,
    Effect,
    Expire,
    Fatigue,
    Impossible,
    Initiative,
    Move,
    SpellRuined,
    Surprise,
    Tick,
)
from affray.engine.fight import Fight
from affray.engine.options import BaseOptions, default_morale, morale_dice, option
from affray.engine.rules import LOST, RUINED, FreeAttack, Rule
from affray.engine.ruleset import Ruleset
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, Step, Until
from affray.engine.words import subject, their
from affray.errors import Problem
from affray.model.arms import Arms
from affray.model.derive import attacks_in_round
from affray.model.encounter import Declaration, Spell, parse_duration
from affray.model.order import Order
from affray.plugins.conditions import strike_penalty
from affray.reckon import losses, morale_due, morale_score
from affray.rulesets.phase_count_input import CATEGORY_PM, check_file, ct_category, phase_modifier

if TYPE_CHECKING:
    from affray.io.load import Loaded

__all__ = ["PhaseCount", "PhaseCountOptions", "PhaseCountRules", "phase_modifier"]

#: PC-06: the order of kinds within one phase.
EXPIRY, FREE, SPELLS, SHOOTING, MOVEMENT, MELEE, OTHER = range(7)
#: a step's tags, made once: a frozenset is 216 bytes, and one made for every step was most of what a step allocates
NO_TAGS: frozenset[str] = frozenset()
CHARGE = frozenset({"charge"})
DISENGAGE = frozenset({"disengage"})
FLEE = frozenset({"disengage", "leaves"})
STAGE_NAME = {SPELLS: "spells complete first", SHOOTING: "shooting first",
              MOVEMENT: "after shooting, with movement", MELEE: "melee, after shooting and movement",
              OTHER: "after melee"}


class _Own:
    """What the ruleset keeps of one combatant in one fight (``Fighter.memo``, made by ``_own``), its current action
    with it. Read at every action, so kept with the fighter and made once: a dict by name for each of these, and an
    object and a list for each action, were so many cache lines more an action, cache misses by which a fight of 500
    a side cost more than 2.2 times one of 250."""

    __slots__ = ("abort", "decl", "done", "first", "ruined", "spell", "steps", "swings")

    def __init__(self) -> None:
        self.decl: Order | None = None  # its current action, None when it has none
        self.steps: tuple[Step, ...] = ()  # the steps the action placed, in order
        self.spell: Spell | None = None  # the spell the action casts
        self.ruined = False  # ... and whether its caster was hurt while casting it (G-11)
        self.first = False  # its next die is its side's opening roll (PC-06)
        self.done = 0  # completed actions (fatigue, PC-11)
        self.swings = 0  # attack actions so far (3/2 attacks alternate)
        self.abort: int | None = None  # the phase of its pending abort (PC-09)

    def act(self, decl: Order | None, steps: tuple[Step, ...] = ()) -> None:
        """Its current action is now ``decl`` (None: none) with ``steps``."""
        self.decl = decl
        self.steps = steps
        self.spell = None
        self.ruined = False


def _own(f: Fighter) -> _Own:
    """``f``'s record, made at the first need."""
    own = f.memo
    if isinstance(own, _Own):
        return own
    f.memo = own = _Own()
    return own


@dataclass
class _Battle:
    """This fight's bookkeeping, kept beside the log (reset at the start of every fight); each combatant's own is
    on the fighter (``_Own``)."""

    dice: dict[str, int] = field(default_factory=dict)  # side -> opening d6
    #: phase -> combatant -> the d6 the file gives for an action it declares then (read at every action: kept here,
    #: not read from the encounter model each time)
    given: dict[int, dict[str, int]] = field(default_factory=dict)
    forced: list[tuple[Fighter, Fighter]] = field(default_factory=list)
    #: tick -> who may complete an action then: its last step's tick when placed, or a step that ended it early
    #: (``after`` looks at these, not at every fighter, each moment)
    ending: dict[Tick, list[Fighter]] = field(default_factory=dict)
    gone: int = 0  # how many of ``FightState.gone`` (those out of the fight) ``after`` has dropped the actions of


@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class PhaseCountOptions(BaseOptions):
    """The Decisions of PC-01 to PC-12 (and G-07, G-11), with the digest's defaults."""

    start_phase: int = option(0, "PC-01", "the phase the referee starts counting from (the seed's bugbear "
                              "example starts at 1)", minimum=0)
    duration_scale: str = option("tactical", "PC-12", "tactical: 1 round = 5 phases, 1 turn = 50; real: 20 "
                                 "and 200", ("tactical", "real"))
    morale_dice: str = morale_dice("2d10")
    default_morale: int = default_morale(11)
    interrupted_spell: str = option("lost", "G-11", "a caster damaged while casting loses the spell from "
                                    "memory (2e) or only this casting", ("lost", "ruined"))
    missile_rate: bool = option(True, "PC-04", "a missile weapon's fire rate multiplies its shots, one a phase")
    switch_target: bool = option(True, "PC-04", "when its target falls, the rest of a multiple attack goes to "
                                 "another foe: a shot to the first standing foe in file order, a blow to an "
                                 "engaged one")
    fatigue: bool = option(True, "PC-11", "mark fatigue (a fatigue event) each time an action completes")
    known: str = option("said", "PC-02", "what a combatant asked for its next action knows of the others': the "
                        "actions they have declared and not yet completed (said), or none", ("said", "none"))


class _Made:
    """The steps of one action as ``PhaseCount._schedule`` makes them, in order: each at its phase and stage (or the
    forced one), after the fighters ranked before it. A native class: a nested function would be called through the
    interpreter's protocol, keywords and all."""

    def __init__(self, f: Fighter, decl: Order, stage: int | None, rank: int, explain: bool) -> None:
        self.f = f
        self.decl = decl
        self.stage = stage
        self.rank = rank
        self.explain = explain
        self.steps: list[Step] = []

    def step(self, phase: int, st: int, kind: str, text: str, *, target: str | None = None,
             weapon: Arms | None = None, spell: Spell | None = None, index: int = 0, feet: int = 0,
             mode: str | None = None, tags: frozenset[str] = NO_TAGS, note: str = "") -> Step:
        stage = self.stage
        s = Step((phase, stage if stage is not None else st, self.rank), self.f, kind, _at(phase),
                 (text if stage == FREE else f"{text}; {STAGE_NAME[st]} (PC-06)") if self.explain else "",
                 decl=self.decl, target=target, weapon=weapon, spell=spell, index=index, feet=feet, mode=mode,
                 tags=tags, note=note)
        self.steps.append(s)
        return s

class PhaseCount(Ruleset[_Battle, PhaseCountOptions]):
    """Seed 003: no rounds; each action at the phase declared + 1d6 + its phase modifier (PC-*)."""

    id = "phase-count"
    title = "Continuous phases, d6 + phase modifier per action (Insane DM Houserules III)"
    seed = "003"
    rule_ids = "PC"
    Options = PhaseCountOptions
    declaration_keys: ClassVar[dict[str, str]] = {
        "until": "wait: stand guard until this phase, then declare (PC-08a)",
        "abort": "at this phase, drop the current action and declare this one, rolling from there (PC-09)",
        "declared_at": "the phase the referee decided this action, before the last one resolved (seed's bugbear)",
        "force_back": "attack: a called shot, -4 to hit, that forces the target back out of melee (PC-10)",
    }
    initiative_die = 6
    surprise_die = 10
    action_die = 6
    initiative_by_name = True
    attack_scheme = "2e"
    has_rounds = False
    own_kinds = frozenset({"expire", "effect", "abort"})
    phases_per_period: ClassVar[int] = 5

    @classmethod
    def heading(cls, tick: Tick) -> str | None:
        """Every ten phases, so a long count reads in pieces (the seed has no rounds)."""
        start = tick[0] // 10 * 10
        return f"Phases {start}-{start + 9}"

    def new_state(self) -> _Battle:
        """Each fight's bookkeeping (``Fight.memo``), so that one prepared ruleset may serve several fights."""
        return _Battle()

    def rules(self) -> list[Rule]:
        return [PhaseCountRules(self.opt)]

    # -- load-time checks ------------------------------------------------------------------------------
    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:
        """One opening roll, durations in phase-count's units, and this ruleset's keys (phase_count_input)."""
        return check_file(loaded)

    # -- the clock -------------------------------------------------------------------------------------
    def period_end(self, period: int) -> Tick:
        return (self.opt.start_phase + self.phases_per_period * period,)

    def phase_end(self, fight: Fight[_Battle], tick: Tick, later: int = 0, unit: str = "phase") -> Until:
        """C2X-03/04: phase-count's phases are its ticks' first element (``unit`` round: its count of 5 phases)."""
        end = (tick[0] + later + 1,) if unit in ("phase", "last") else self.period_end(fight.period + later)
        return Until(end, f"phase {end[0]}")

    def expiry(self, fight: Fight[_Battle], tick: Tick, count: int, unit: str) -> Until:
        """PC-12: a duration counts from the phase it begins: a round is 5 phases, a turn 50 (``duration_scale``
        real: 20 and 200); the effect ends as the last of them begins, before anything else of that phase."""
        end = tick[0] + count * self._scale(unit)
        return Until((end, EXPIRY, 0), f"phase {end}", f"x {self._scale(unit)} = phase {end} (PC-12, "
                     f"{self.opt.duration_scale} scale)")

    def _scale(self, unit: str) -> int:
        real = self.opt.duration_scale == "real"
        return {"round": 20 if real else 5, "turn": 200 if real else 50, "phase": 1, "segment": 1}[unit]

    def begin(self, fight: Fight[_Battle], period: int) -> None:
        if period != 1:
            return  # no rounds: everything after the opening is declared as actions resolve
        start = self.opt.start_phase
        tick = (start, EXPIRY, 0)
        surprisers = self._surprise(fight, tick)
        self._initiative(fight, tick)
        for f in fight.state.pcs_first:
            _own(f).first = True  # a surpriser's free action rolls nothing: the opening die serves its next
            self._declare(fight, f, start, tick, free=f.side in surprisers)

    def ready(self, fight: Fight[_Battle], f: Fighter) -> None:
        """PC-02: a combatant idle mid-battle (one who joined, or was given new declarations) declares now;
        PC-09: a busy one whose new declaration carries ``abort: N`` drops its action at phase N; G-07, PC-11: one
        routed (by the ruleset's check or the referee's) drops its action at once and flees from this phase."""
        own = _own(f)
        if fight.period < 1 or not f.active or not fight.now:
            return  # before the opening everyone declares anyway
        tick = fight.now
        if f.routed and (own.decl is None or own.decl.mode != "flee"):  # G-07, PC-09, PC-11: it drops what it is
            self._drop(fight, f, tick, "routed")  # doing and flees from this very phase
            own.abort = None
            self._declare(fight, f, tick[0], tick)
            return
        if own.abort is not None:
            return
        if own.decl is not None:
            self._abort_ahead(fight, f, tick[0])  # busy: declares when its action ends, or aborts it (PC-09)
        else:
            self._declare(fight, f, tick[0], tick)

    def _surprise(self, fight: Fight[_Battle], tick: Tick) -> set[str]:
        """PC-08: the standard rule, d10 per side, surprised on 1-3; the others get one free action."""
        enc = fight.encounter
        sides = list(enc.sides)
        at = f"phase {tick[0]}, surprise"
        if enc.surprise == "none":
            fight.record(Surprise(tick, at, fight.round_at(tick),
                                  detail="no surprise: every side is aware (the file says none)", rolls=fight.rolls()))
            return set()
        if isinstance(enc.surprise, dict):
            surprised = {s for s in sides if enc.surprise.get(s)}
            detail = f"the referee rules it: {', '.join(sorted(surprised)) or 'nobody'} surprised"
        else:
            rolls = {s: fight.roller.die(10, "surprise", s, enc.rolls.surprise.get(s)) for s in sides}
            surprised = {s for s in sides if rolls[s] <= 3}
            detail = ", ".join(f"{s} d10={rolls[s]}" for s in sides) + \
                f": {', '.join(s for s in sides if s in surprised) or 'nobody'} surprised"
        surprisers = set(sides) - surprised if surprised else set()
        fight.record(Surprise(tick, at, fight.round_at(tick), why="d10 per side, 1-3 is surprised (standard rule); "
                              "every surpriser gets one free action at initiative 0, before anyone else (PC-08)",
                              detail=detail, surprised=tuple(s for s in sides if s in surprised),
                              surprisers=tuple(s for s in sides if s in surprisers), rolls=fight.rolls()))
        return surprisers

    def _initiative(self, fight: Fight[_Battle], tick: Tick) -> None:
        """PC-06 Decision: 1d6 per side at the start, low first; it is also each one's first action die."""
        sides = list(fight.encounter.sides)
        rolls = fight.encounter.rolls.initiative  # the sides' dice under one key (any: the count has not begun)
        given = next((by for by in rolls.values() if any(s in by for s in sides)), {})
        dice = {s: fight.roller.die(6, "initiative", s, given.get(s)) for s in sides}
        fight.memo.given = dict(rolls)
        values = sorted(set(dice.values()))
        ranks = {s: values.index(dice[s]) + 1 for s in sides}
        fight.memo.dice = dice
        detail = ", ".join(f"{s} d6={dice[s]}" for s in sides) + ": " + " then ".join(
            " and ".join(s for s in sides if ranks[s] == k) for k in sorted(set(ranks.values())))
        fight.record(Initiative(tick, f"phase {tick[0]}, start", fight.round_at(tick), detail=detail,
                                why="1d6 per side, low first among actions of the same kind in the same phase; each "
                                "side's die is also its combatants' die for their first action (PC-06)",
                                ranks=ranks, results=dice, rolls=fight.rolls()))

    def keeps(self, decl: Order) -> bool:
        """PC-02: the next action is declared as one resolves; a player's attack goes on unless it has something new
        to declare (its target down) or the referee says otherwise."""
        return decl.action in ("melee", "missile")

    # -- declaring and placing actions -----------------------------------------------------------------
    def _declare(self, fight: Fight[_Battle], f: Fighter, phase: int, tick: Tick, *, free: bool = False) -> None:
        """PC-02: ``f`` declares its next action at ``phase`` and places it; an impossible one is skipped."""
        _own(f).act(None)
        for _ in range(len(f.plan) + 2):
            if self._abort_ahead(fight, f, phase):
                return  # idle until the phase of its abort (PC-09)
            decl = fight.declare(f, tick, _at(phase), known=self._known(fight, f))
            if decl is None:
                return
            if self._place(fight, f, decl, phase, tick, free=free):
                self._abort_ahead(fight, f, phase)
                return
            free = False

    def _known(self, fight: Fight[_Battle], f: Fighter) -> tuple[tuple[str, Declaration], ...]:
        """What ``f``, asked for its next action, knows of the others' (option ``known``): the actions they declared
        and have not completed, in file order; nothing when nobody is asked."""
        if fight.asker is None or self.opt.known != "said":
            return ()
        out: list[tuple[str, Declaration]] = []
        for g in fight.state.fighters.values():
            own = g.memo
            if g is not f and g.active and isinstance(own, _Own) and own.decl is not None:
                out.append((g.name, own.decl.source))
        return tuple(out)

    def _abort_ahead(self, fight: Fight[_Battle], f: Fighter, phase: int) -> bool:
        """Whether ``f``'s next declaration waits for its ``abort`` phase; pushes that moment once."""
        nxt = f.plan[f.plan_pos] if f.plan_pos < len(f.plan) and not f.routed else None
        when = nxt.extra.get("abort") if nxt is not None else None
        if not isinstance(when, int) or when <= phase:
            return False
        own = _own(f)
        if own.abort is None:
            own.abort = when
            fight.push(Step((when, EXPIRY, 0), f, "abort", f"phase {when}", "", note="abort"))
        return True

    def _pm(self, fight: Fight[_Battle], f: Fighter, decl: Order, phase: int) -> tuple[int, str]:
        """PC-03: the action's phase modifier and its reason."""
        if decl.speed is not None:
            pm, why = phase_modifier(decl.speed)
            return pm, f"declared {why}"
        action = decl.action
        if action == "cast":
            spell = f.spells[decl.cast or ""]
            if spell.speed is not None:
                return CATEGORY_PM[spell.speed], f"{spell.name}: {spell.speed}"
            cat = ct_category(spell.ct)
            return CATEGORY_PM[cat], f"{spell.name}, CT {spell.ct}: {cat}"
        if action in ("melee", "missile"):
            w = f.weapon(decl.weapon, missile=action == "missile")
            slowed, why = strike_penalty(f, (phase,)) if f.conditions else (0, "")
            if slowed and w.speed is None and w.sf is not None:  # C2X-04: a slowed strike's SF, then its PM
                pm, text = phase_modifier(w.sf + slowed)
                return pm, f"{w.name} SF {w.sf} + {slowed} ({why}) = {w.sf + slowed}, {text}"
            return _weapon_pm(w)
        if action == "move" and f.spec.weapons:
            pm, why = _weapon_pm(f.weapons[0])
            return pm, f"moving: {why}"
        return CATEGORY_PM["average"], "average"

    def _place(self, fight: Fight[_Battle], f: Fighter, decl: Order, phase: int, tick: Tick, *,
               free: bool = False) -> bool:
        """Turn a declaration into timed steps (PC-02 to PC-05); False when it cannot even start."""
        ex = fight.explain
        rank = fight.state.ranks.get(f.side, 1)
        action = decl.action
        continuing = action == "melee" and f.remaining > 0 and decl is f.current and f.remaining != decl.distance
        if continuing and fight.state.placed:  # the feet left come from where they stand: its declaration says
            said = next((e for e in reversed(fight.events) if isinstance(e, Declare) and e.actor == f.name), None)
            continuing = said is not None and said.continuing
        if action == "wait":
            until = decl.extra.get("until")
            if isinstance(until, int):
                end, how = max(until, phase + 1), "" if until > phase else f" (phase {until} is past)"
            else:
                end, how = phase + self._scale("round"), " (one round)"
            why = f"stands guard from phase {phase}, declaring nothing until phase {end}{how} (PC-08a)" if ex else ""
            self._steps(fight, f, decl, [Step((end, EXPIRY, rank), f, "wait", f"phase {end}", why, decl=decl,
                                              note=str(decl.wait) if isinstance(decl.wait, str) else "")])
            return True
        if action == "cast":
            spell = f.spells[decl.cast or ""]
            cannot = f.can_cast(spell)  # a memorised copy, or mana or a slot (C2X-06/08)
            if cannot is not None:
                fight.emit(Impossible, tick, f"phase {phase}", f.name, spell=spell.name, why=cannot,
                           detail="cast cancelled")
                return False
        if free:
            at, why = phase, "surprise: a free action at initiative 0, before anyone else (PC-08)"
            stage: int | None = FREE
        else:
            at, why = self._when(fight, f, decl, phase, continuing)
            stage = None
        steps = self._schedule(fight, f, decl, at, stage, rank, why if ex else "")
        if action == "cast":
            spell = f.spells[decl.cast or ""]
            fight.emit(CastStart, tick, f"phase {phase}", f.name, spell=spell.name, target=decl.at,
                       why=f"begins casting at phase {phase}; it completes at phase {at} and damage before "
                       f"then disrupts it (G-11)" if ex else "")
            _own(f).spell = spell
        return bool(steps)

    def _when(self, fight: Fight[_Battle], f: Fighter, decl: Order, phase: int,
              continuing: bool) -> tuple[int, str]:
        """PC-02: declared phase + d6 + PM; the die is the side's opening roll for a first action (PC-06)."""
        own = _own(f)
        opening = False  # the side's opening roll (PC-06), else the action's own d6
        if decl.roll is not None and not continuing:  # the file's die for it, recorded as any die is (G-06)
            die = fight.roller.die(6, "initiative", f.name, decl.roll)
        elif own.first:
            die, opening = fight.memo.dice[f.side], True
        else:  # its own d6: the file's for an action it declares at this phase, else rolled (G-06)
            named = fight.memo.given
            die = fight.roller.die(6, "initiative", f.name, named[phase].get(f.name) if phase in named else None)
        own.first = False
        pm, label = self._pm(fight, f, decl, phase)
        base = min(decl.extra.get("declared_at", phase), phase) if not continuing else phase
        at = base + die + pm
        why = ""
        if fight.explain:  # the lean mode writes no words
            source = f.side + ("'" if f.side.endswith("s") else "'s") + " opening d6" if opening else "d6"
            why = f"declared at phase {base} + {source} {die} + PM {pm} ({label}) = phase {at}"
            if at <= phase:
                why += f"; phase {phase} is already reached, so phase {phase + 1}"
        return max(at, phase + 1), why

    def _schedule(self, fight: Fight[_Battle], f: Fighter, decl: Order, at: int, stage: int | None, rank: int,  # noqa: C901
                  why: str) -> list[Step]:
        """The steps of one action from its phase ``at`` (``stage`` forces the surprise slot)."""
        ex = fight.explain
        full_move = f.mv * 10
        action = decl.action
        made = _Made(f, decl, stage, rank, ex)
        steps = made.steps

        if action == "melee":
            weapon = f.weapon(decl.weapon)
            remaining = f.remaining
            strike = at
            if remaining > 0:
                allowance = full_move if decl.charge else full_move // 2
                feet = min(remaining, allowance)
                how = "charges" if decl.charge else "half-moves"
                more = remaining > allowance
                made.step(at, MOVEMENT, "move", f"{why}; {how} {feet} ft of {remaining} "
                          f"({'full' if decl.charge else 'half'} move, MV {f.mv} x 10 ft)"
                          + ("; the attack waits for the next action" if more else
                             f"; the attack follows in phase {at + 1} (PC-05)") if ex else "",
                          target=decl.melee, feet=feet, mode="charge" if decl.charge else "half",
                          note=f"{how} {feet} ft towards {decl.melee}" if ex else "")
                if more:
                    return self._steps(fight, f, decl, steps)
                strike = at + 1
            n = self._attacks(fight, f, f.attacks)
            for i in range(n):
                text = ""  # the lean mode writes no words
                form = f.form(decl.weapon, i)  # a monster's routine: each attack its own form
                if ex:
                    named = f", {form.name}" if f.in_routine(decl.weapon) else ""
                    nth = f" (attack {i + 1} of {n}{named}: phase {strike} + {i}, PC-04)" if n > 1 else ""
                    after = f"{why}; the attack follows the move, in phase {strike} (PC-05)"
                    text = (why if remaining == 0 else after) + nth
                made.step(strike + i, MOVEMENT if decl.charge else MELEE, "melee", text, target=decl.melee,
                          weapon=form, index=i, tags=CHARGE if decl.charge else NO_TAGS)
        elif action == "missile":
            weapon = f.weapon(decl.weapon, missile=True)
            rate = f.attacks * weapon.rate if self.opt.missile_rate else f.attacks
            n = self._attacks(fight, f, rate)
            for i in range(n):
                nth = f" (shot {i + 1} of {n}: phase {at} + {i}, PC-04)" if ex and n > 1 else ""
                made.step(at + i, SHOOTING, "missile", why + nth, target=decl.missile, weapon=weapon, index=i)
        elif action == "cast":
            spell = f.spells[decl.cast or ""]
            made.step(at, SPELLS, "cast", f"{why}; the spell is finished" if ex else "", spell=spell, target=decl.at)
        elif action == "move":
            mode = decl.mode or "full"
            tags = NO_TAGS
            if mode == "withdraw":
                cap, tags = full_move // 3, DISENGAGE
            elif mode in ("retreat", "flee"):
                cap = full_move
                tags = FLEE if mode == "flee" else DISENGAGE
            elif mode == "full":
                cap = full_move
                if f.engaged:
                    tags = DISENGAGE
            else:
                cap = full_move // 2
            feet = min(decl.move or 0, cap)
            made.step(at, MOVEMENT, "move", f"{why}; {mode} move of {feet} ft (at most {cap} ft for MV {f.mv})"
                      if ex else "", feet=feet, mode=mode, tags=tags, note=f"{mode} {feet} ft" if ex else "")
        else:
            what = decl.misc if action == "misc" else "no action"
            made.step(at, OTHER, "misc", why, note=str(what))
        return self._steps(fight, f, decl, steps)

    def _attacks(self, fight: Fight[_Battle], f: Fighter, rate: Fraction | int) -> int:
        """Attacks of this action: a round's worth, 3/2 alternating 1, 2, 1... by attack action."""
        own = _own(f)
        own.swings = k = own.swings + 1
        return max(1, attacks_in_round(rate, k))

    def _steps(self, fight: Fight[_Battle], f: Fighter, decl: Order, steps: list[Step]) -> list[Step]:
        for s in steps:
            fight.push(s)
        _own(f).act(decl, tuple(steps))
        if steps:
            _ending(fight.memo, steps[-1].tick, f)
        return steps

    # -- after each moment -----------------------------------------------------------------------------
    def after(self, fight: Fight[_Battle], tick: Tick) -> None:
        b = fight.memo
        phase = tick[0]
        at = _at(phase)
        for attacker, target in b.forced:
            if target.active:
                fight.emit(Move, tick, at, target.name, why=f"{attacker.name}'s called shot forces "
                           f"{target.name} back, out of melee (PC-10)", detail="forced back 5 ft",
                           feet=5, mode="forced", disengage=True)
        b.forced.clear()
        state = fight.state
        gone = state.gone
        while b.gone < len(gone):  # who fell or left since: its action is dropped
            _own(gone[b.gone]).act(None)  # its steps still come up, reported impossible (G-05)
            b.gone += 1
        self._morale(fight, tick)
        ending = b.ending.pop(tick, None)
        if ending is None:
            return
        if len(ending) > 1:  # in file order, each once
            ending = sorted(set(ending), key=_file_order)
        for f in ending:
            own = _own(f)
            decl = own.decl
            if decl is None or not f.active or own.steps[-1].tick != tick or own.steps[-1].cancelled:
                continue
            self._complete(fight, f, own, decl, tick)
            if own.abort is None:
                self._declare(fight, f, phase, tick)

    def _complete(self, fight: Fight[_Battle], f: Fighter, own: _Own, decl: Order, tick: Tick) -> None:
        """PC-11 fatigue, "whenever a character has completed an action": an action none of whose steps happened
        (each refused, its target gone, its spell ruined) was never completed and marks none; PC-12 durations and
        delayed effects of a spell that took effect."""
        phase = tick[0]
        if own.ruined:
            return
        happened = False
        for s in own.steps:  # a loop: all() over a generator is a generic call in the compiled build
            if not (s.failed or s.cancelled):
                happened = True
                break
        if not happened:
            return
        own.done = n = own.done + 1
        if self.opt.fatigue:
            fight.record(Fatigue(tick, _at(phase), fight.round_at(tick), f.name,
                                 why="fatigue is marked each time an action completes, not at the end of a round "
                                 "(PC-11)",
                                 detail=f"{f.name} completes an action: fatigue {n}" if fight.explain else None,
                                 actions=n, rolls=fight.rolls()))
        spell = own.spell
        if spell is None or own.ruined:
            return
        rank = 0
        if spell.duration is not None:
            until = self.expiry(fight, tick, *parse_duration(spell.duration))
            fight.push(Step(until.tick, f, "expire", until.at, f"{spell.name} cast at phase {phase} + {spell.duration} "
                            f"{until.why}", spell=spell, target=decl.at))
        for k, text in enumerate(spell.damage_at):
            count, unit = parse_duration(text)
            when = phase + count * self._scale(unit)
            fight.push(Step((when, EXPIRY, rank), f, "effect", f"phase {when}", f"{spell.name} finished at phase "
                            f"{phase} + {text} x {self._scale(unit)} = phase {when} (PC-12)", decl=decl,
                            spell=spell, target=decl.at, index=k))

    def _morale(self, fight: Fight[_Battle], tick: Tick) -> None:
        """PC-11: morale is rolled the moment it is due: a side's first casualty, then half of it down."""
        for side in fight.encounter.sides:
            members, triggers = morale_due(fight, side)
            if not triggers:
                continue
            why = (f"{subject(side, 'checks')} morale at once after {their(side)} {' and '.join(triggers)} "
                   f"({losses(fight, side)}), not at a round's end; PCs never check (PC-11, G-07)")
            score = morale_score(fight, self.opt, side, members)  # routed, each drops the action in hand and flees
            fight.morale_check(side, members, score, tick, f"phase {tick[0]}", triggers, why,  # from this phase
                               parse_dice(self.opt.morale_dice))  # (``ready``, PC-09)

    def _drop(self, fight: Fight[_Battle], f: Fighter, tick: Tick, reason: str) -> None:
        """Cancel ``f``'s pending action; a spell being cast is ruined (PC-09)."""
        own = _own(f)
        steps = own.steps
        if own.decl is None:
            return
        own.act(None)
        for s in steps:
            if s.tick > tick:
                s.cancelled = True
        if f.casting is not None:
            fight.emit(SpellRuined, tick, f"phase {tick[0]}", f.name, spell=f.casting,
                       why=f"{f.name} abandons the casting ({reason}, PC-09)", detail="the spell is ruined for "
                       "this casting")

    # -- the ruleset's own steps -----------------------------------------------------------------------
    def resolve_own(self, fight: Fight[_Battle], step: Step) -> None:
        f = step.actor
        phase = step.tick[0]
        if step.kind == "expire":
            fight.emit(Expire, step.tick, step.at, f.name, spell=step.spell.name if step.spell else None,
                       target=step.target, why=step.why, detail=f"{step.spell.name if step.spell else 'effect'} "
                       "ends")
        elif step.kind == "effect":
            self._effect(fight, step)
        elif step.kind == "abort":
            own = _own(f)
            own.abort = None
            if not f.active or f.routed:
                return  # a rout overrides the plan: the flight goes on
            old = own.decl
            nxt = f.plan[f.plan_pos] if f.plan_pos < len(f.plan) else None
            fight.emit(Abort, step.tick, step.at, f.name, why=f"aborts at phase {phase}: declares a new action "
                       "and rolls for it from this phase (PC-09)",
                       detail=f"drops: {_what(old) if old is not None else 'nothing'}" if fight.explain else None)
            self._drop(fight, f, step.tick, "aborted")
            if nxt is None:
                return
            # declared here, not through Fight.declare: a half-finished approach must not continue
            fight.emit(Declare, step.tick, step.at, f.name, detail=_what(nxt) if fight.explain else None,
                       decl=nxt.source, consumed=True, continuing=False,
                       remaining=fight.to_close(f, nxt) if nxt.action == "melee" else 0)
            if self._place(fight, f, nxt, phase, step.tick):
                self._abort_ahead(fight, f, phase)
            else:
                self._declare(fight, f, phase, step.tick)

    def _effect(self, fight: Fight[_Battle], step: Step) -> None:
        """PC-12: a delayed damage of a spell (heat metal's 2d4 at 15, 20 and 25 phases)."""
        spell = step.spell
        assert spell is not None and spell.damage is not None
        state = fight.state
        targets = [state.fighters[step.target]] if step.target in state.fighters else \
            [g for g in state.sides.get(step.target or "", []) if g.active]
        targets = [t for t in targets if t.active]
        if not targets:
            return
        given = step.decl.dice_given[step.index].damage if step.decl and step.index < len(step.decl.dice_given) \
            else None
        rolled = fight.roller.dice(spell.damage, "spell damage", step.actor.name, given=given)
        dmg = max(0, rolled + spell.damage.bonus)
        fight.emit(Effect, step.tick, step.at, step.actor.name, target=step.target, spell=spell.name,
                   damage=dmg, why=step.why, detail=f"{spell.damage.text}: {rolled} = {dmg} damage to "
                   f"{', '.join(t.name for t in targets)}",
                   effects={t.name: dmg for t in targets})


class PhaseCountRules(Rule):
    """phase-count's step rules: the charge and the called shot (PC-10), a multiple attack's target falling
    (PC-04), attacks of opportunity (PC-07), a caster's interrupted spell (G-11)."""

    def __init__(self, opt: PhaseCountOptions) -> None:
        self.opt = opt

    def mods(self, fight: Fight[_Battle], step: Step, target: Fighter, mods: AttackMods) -> None:
        if "charge" in step.tags:
            mods.add("hit", 2, "charge, 2e")
        if step.decl is not None and step.decl.extra.get("force_back") is True:
            mods.add("hit", -4, "called shot to force back, 2e, PC-10")

    def refuse(self, fight: Fight[_Battle], step: Step) -> str | None:
        a = step.actor
        if step.kind == "melee" and a.remaining > 0:
            return f"{a.name} is still {a.remaining} ft short of {step.target}"
        if step.kind in ("melee", "missile") and step.target is not None:
            target = fight.state.fighters[step.target]
            if not target.active and step.index > 0 and self.opt.switch_target:
                other = _other_target(fight, step)
                if other is not None:
                    if fight.explain:
                        step.why += f"; {target.name} is down: the {step.kind} goes to {other.name} (PC-04)"
                    step.target = other.name
                    return None
            if not target.active:
                _end_action_at(fight, step)
                return f"the target {target.name} is {'down' if target.down else 'gone'}: the action ends (G-05)"
        return None

    def lose_sequence(self, fight: Fight[_Battle], step: Step) -> None:
        """C2X-03: a critical miss ends the action: its attacks in the following phases (PC-04) are lost."""
        _end_action_at(fight, step)

    def free_attacks(self, fight: Fight[_Battle], step: Step) -> list[FreeAttack]:
        """PC-07: leaving melee (not by a withdrawal) gives each engaged foe an attack, in that very phase."""
        mover = step.actor
        if step.kind != "move" or "disengage" not in step.tags or step.mode == "withdraw":
            return []
        out: list[FreeAttack] = []
        for name in sorted(mover.engaged, key=fight.order):
            foe = fight.state.fighters[name]
            if foe.active:
                out.append((foe, foe.weapon(None), f"attack of opportunity: {mover.name} leaves melee, in the "
                            f"phase it happens, phase {step.tick[0]} (PC-07)"))
        return out

    def interrupt(self, fight: Fight[_Battle], caster: Fighter, step: Step) -> str | None:
        own = _own(caster)
        if own.decl is not None:
            own.ruined = True
        return LOST if self.opt.interrupted_spell == "lost" else RUINED

    def redirect(self, fight: Fight[_Battle], step: Step, target: Fighter) -> tuple[Fighter | None, str] | None:
        if step.decl is not None and step.decl.extra.get("force_back") is True:
            fight.memo.forced.append((step.actor, target))
            return target, f"{target.name} is forced back (PC-10)"
        return None


def _end_action_at(fight: Fight[_Battle], step: Step) -> None:
    """The action ends with ``step``: its later steps are cancelled and the next is declared now."""
    own = _own(step.actor)
    steps = own.steps
    for k in range(len(steps)):
        if steps[k] is step:
            for s in steps[k + 1:]:
                s.cancelled = True
            own.steps = steps[:k + 1]
            _ending(fight.memo, step.tick, step.actor)
            return


#: "phase N", a moment's words, made once a phase: an action's steps, its declaration and its completion each
#: name their phase (a string made a step was 2-4% of a fight)
_PHASE_AT: dict[int, str] = {}


def _at(phase: int) -> str:
    text = _PHASE_AT.get(phase)
    if text is None:
        if len(_PHASE_AT) >= 4096:  # bounded whatever the fights a process plays
            _PHASE_AT.clear()
        text = _PHASE_AT[phase] = f"phase {phase}"
    return text


def _ending(b: _Battle, tick: Tick, f: Fighter) -> None:
    """``f``'s action may complete at ``tick`` (``after`` checks it then)."""
    due = b.ending.get(tick)
    if due is None:
        b.ending[tick] = [f]
    else:
        due.append(f)


def _file_order(f: Fighter) -> int:
    return f.index


def _other_target(fight: Fight[_Battle], step: Step) -> Fighter | None:
    """PC-04: who the rest of a multiple attack goes to when its target falls."""
    a = step.actor
    state = fight.state
    if step.kind == "missile":
        return state.first_foe(a.side)
    return next((state.fighters[n] for n in sorted(a.engaged, key=fight.order) if state.fighters[n].active),
                None)


def _what(decl: Order) -> str:
    action = decl.action
    value = getattr(decl, action)
    return f"{action} {value}" if value is not True else action


@lru_cache(maxsize=256)
def _weapon_pm(w: Arms) -> tuple[int, str]:
    """PC-03: a weapon's phase modifier and its reason, asked for every attack (kept per weapon: its words cost more
    than the lookup)."""
    if w.speed is not None:
        return CATEGORY_PM[w.speed], f"{w.name}: {w.speed}"
    if w.sf is None:
        return CATEGORY_PM["average"], f"{w.name}: average"
    pm, why = phase_modifier(w.sf)
    return pm, f"{w.name} SF {w.sf}, {why}"
