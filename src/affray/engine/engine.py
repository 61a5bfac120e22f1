"""The engine: runs a ruleset's steps in tick order with simultaneity, preemption and interrupts.

It knows nothing of rounds, phases or half-segments: a ruleset places steps on ticks, the engine
resolves them. Equal ticks are simultaneous: everyone acts, then the fallen go down.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from affray.dice.expr import parse_dice
from affray.dice.roller import DieProvider, Roller
from affray.engine.events import Event, Tick
from affray.engine.ruleset import Ruleset, Step
from affray.engine.state import Fighter, FightState, FinalState
from affray.model.encounter import Declaration, Encounter, Outcome
from affray.policy import choose

__all__ = ["Fight", "OutcomeProvider", "Result"]

#: (attacker, target, kind) -> the referee's outcome of that attack, or None to roll it.
OutcomeProvider = Callable[[str, str, str], "Outcome | None"]

_EMPTY: Mapping[str, Any] = {}
_new_event = tuple.__new__  # Event's fields in order, without NamedTuple's keyword handling (the hot path)


@dataclass(frozen=True)
class Result:
    """A resolved fight: the log and what it folds to."""

    ruleset: str
    seed: int
    options: dict[str, Any]
    events: list[Event]
    final: FinalState
    rounds: int


class Fight:
    """One encounter under one ruleset. ``explain=False, keep=False`` is the lean mode of the benchmark."""

    def __init__(self, encounter: Encounter, ruleset: Ruleset, *, seed: int, auto: bool = False,
                 max_rounds: int = 50, explain: bool = True, keep: bool = True,
                 provider: DieProvider | None = None,
                 on_event: Callable[[Event], None] | None = None, encounter_file: str = "<encounter>",
                 outcome_provider: OutcomeProvider | None = None,
                 on_step: Callable[[Step], None] | None = None) -> None:
        self.encounter = encounter
        self.encounter_file = encounter_file  # for errors only a run can find (a die entered out of range)
        self.ruleset = ruleset
        self.seed = seed
        self.auto = auto
        self.max_rounds = max_rounds
        self.explain = explain
        self.keep = keep
        self.on_event = on_event
        #: Asked before an attack's d20 that neither the file's plan nor its dice give: the referee's outcome
        #: (hit and damage, or a miss), or None to roll.
        self.outcome_provider = outcome_provider
        #: Called just before each step resolves (a referee's console shows what comes and may pause there).
        self.on_step = on_step
        self.state = FightState(encounter, ruleset.attack_scheme, spells=ruleset.opt["spells"],
                                mana_table=ruleset.opt["mana_table"], starting_mana=ruleset.opt["starting_mana"])
        self.roller = Roller(seed, record=explain, provider=provider)
        self.events: list[Event] = []
        self._heap: list[tuple[Tick, int, Step]] = []
        self._pushed = 0
        self.period = 0
        #: The ruleset's own bookkeeping for this fight (``Ruleset.new_memo``): a ruleset instance may serve
        #: many fights, so nothing per fight lives on it.
        self.memo: Any = ruleset.new_memo()
        self._rounds = ruleset.has_rounds
        self._morale_dice = parse_dice(ruleset.opt.get("morale_dice", "2d6"))

    # -- the log --------------------------------------------------------------------------------------
    def emit(self, kind: str, tick: Tick, at: str, actor: str | None = None, *, target: str | None = None,
             hit: bool | None = None, damage: int | None = None, spell: str | None = None,
             passed: bool | None = None, opportunity: bool = False, why: str | None = None,
             detail: str | None = None, data: Mapping[str, Any] = _EMPTY) -> Event:
        """Append one event (with the dice rolled for it) and apply it to the state."""
        e = _new_event(Event, (kind, tick, at, tick[0] if self._rounds else None, actor, target, hit, damage, spell,
                               passed, opportunity, why, detail, self.roller.take() if self.explain else (), data))
        self.state.apply(e)
        if self.keep:
            self.events.append(e)
        if self.on_event is not None:
            self.on_event(e)
        return e

    # -- what rulesets call ---------------------------------------------------------------------------
    def push(self, step: Step) -> None:
        heapq.heappush(self._heap, (step.tick, self._pushed, step))
        self._pushed += 1

    def order(self, name: str) -> int:
        return self.state.fighters[name].index

    def upcoming(self, n: int | None = 3) -> list[Step]:
        """The next ``n`` steps to resolve (all with None), in order: what a referee's console shows as coming."""
        items = sorted(self._heap) if n is None else heapq.nsmallest(n, self._heap)
        return [item[2] for item in items if not item[2].cancelled]

    @property
    def over(self) -> bool:
        return sum(1 for n in self.state.active_left.values() if n > 0) <= 1

    def declare(self, f: Fighter, tick: Tick, at: str, *, resume: Declaration | None = None,
                note: str = "") -> Declaration | None:
        """``f``'s action for this declaration point: its continuing action, the next of its plan, a flight
        when routed, or (``--auto``) the default action. Emits ``declare``.

        ``resume`` carries on an action the ruleset keeps going (a spell spanning phases, a delayed start),
        without consuming the plan; ``note`` says why."""
        continuing = f.current is not None and f.remaining > 0
        consumed = False
        decl: Declaration | None
        if resume is not None:
            decl = resume
            continuing = True
        elif f.routed:
            decl = Declaration(move=f.spec.mv * 10, mode="flee")
            continuing = False
        elif continuing:
            decl = f.current
        elif f.plan_pos < len(f.plan):
            decl = f.plan[f.plan_pos]
            consumed = True
        elif self.auto:
            decl = choose(self, f)
        else:
            decl = None
        if decl is None:
            if f.declared is not None:
                self.emit("declare", tick, at, f.name, detail="nothing left to do" if self.explain else None,
                          data={"decl": None})
            return None
        remaining = f.remaining if continuing else decl.distance if decl.action == "melee" else 0
        detail = None
        if self.explain:
            detail = describe_declaration(decl, f)
            if continuing:
                detail = f"continues: {detail} ({note or f'{f.remaining} ft still to close'})"
            elif not consumed:
                detail += " (routed: flees)" if f.routed else " (auto)"
        self.emit("declare", tick, at, f.name, detail=detail,
                  data={"decl": decl, "consumed": consumed, "continuing": continuing, "remaining": remaining})
        return decl

    def morale_check(self, side: str, members: list[Fighter], score: int, tick: Tick, at: str,
                     triggers: tuple[str, ...], why: str) -> bool:
        """Roll the ruleset's morale dice against ``score``: above it fails (G-07)."""
        given = self.encounter.rolls.morale.get(self.ruleset.roll_period(self, tick), {}).get(side)
        roll = self.roller.dice(self._morale_dice, "morale", side, given=given) + self._morale_dice.bonus
        passed = roll <= score
        surrender = not passed and self.ruleset.opt.get("morale_failure") == "surrender"
        detail = None
        if self.explain:
            result = "passes" if passed else "fails: surrenders" if surrender else "fails: flees"
            detail = f"{side} morale {self._morale_dice.text}={roll} vs {score}: {result}"
        self.emit("morale", tick, at, None, passed=passed, why=why, detail=detail,
                  data={"side": side, "members": tuple(m.name for m in members), "triggers": triggers,
                        "surrender": surrender})
        return passed

    def resolve_now(self, steps: list[Step]) -> None:
        """Resolve ``steps`` as one simultaneous moment, deaths after (G-05): the loop's unit, and what a ruleset
        whose ``begin`` needs the outcome before it places the rest calls (shots fired before initiative)."""
        from affray.engine.resolve import resolve_step

        if not steps:
            return
        on_step = self.on_step
        for step in steps:
            if on_step is not None:
                on_step(step)
            resolve_step(self, step)
        self._deaths(steps[0].tick, steps[0].at)
        self.ruleset.after(self, steps[0].tick)

    # -- the loop -------------------------------------------------------------------------------------
    def run(self) -> Result:
        ruleset = self.ruleset
        while (not self.over and ruleset.round_of(self.period + 1) <= self.max_rounds
               and (self.auto or self._has_work())):
            self.period += 1
            ruleset.begin(self, self.period)
            bound = ruleset.period_end(self.period)
            heap = self._heap
            while heap and heap[0][0] < bound and not self.over:
                tick = heap[0][0]
                group = []
                while heap and heap[0][0] == tick:
                    group.append(heapq.heappop(heap)[2])
                self.resolve_now(group)
            if self.over:
                self._heap.clear()
            else:
                ruleset.end(self, self.period)
        return Result(ruleset.id, self.seed, dict(ruleset.opt), self.events, self.state.final(),
                      ruleset.round_of(self.period))

    def _has_work(self) -> bool:
        if self._heap:
            return True
        return any(f.active and (f.plan_pos < len(f.plan) or f.remaining > 0 or f.routed)
                   for f in self.state.fighters.values()) or self.ruleset.pending(self)

    def _deaths(self, tick: Tick, at: str) -> None:
        """G-05: after a tick's actions, everyone at 0 hp or less goes down (unconscious if subdued)."""
        for f in self.state.fighters.values():
            if f.hp <= 0 and not f.down:
                unconscious = f.subdual > 0
                self.emit("down", tick, at, f.name, detail=(
                    f"{f.name} at {f.hp} hp: {'unconscious (subdual damage, MJ-20)' if unconscious else 'dead'}"
                    if self.explain else None), data={"unconscious": unconscious})


def describe_declaration(decl: Declaration, f: Fighter) -> str:
    action = decl.action
    if action in ("melee", "missile"):
        weapon = f.weapon(decl.weapon, missile=action == "missile")
        text = f"{action} {decl.target} with {weapon.name}"
        if decl.charge:
            text += ", charging"
        if decl.distance:
            text += f" ({decl.distance} ft to close)"
        extras = [k for k, v in decl.extra.items() if v is True]
        return text + (f" [{', '.join(extras)}]" if extras else "")
    if action == "cast":
        return f"cast {decl.cast}" + (f" at {decl.at}" if decl.at else "")
    if action == "move":
        return f"move {decl.move} ft" + (f" ({decl.mode})" if decl.mode else "")
    if action == "misc":
        return f"misc: {decl.misc}"
    if action == "wait":
        return "wait" + (f" until {decl.wait}" if isinstance(decl.wait, str) else "")
    return "no action"
