"""The fight: its log, its queue of timed steps, its declarations, and the loop that runs them in tick order.

It knows nothing of rounds, phases or half-segments: a ruleset (its ``Clock``) places steps on ticks and
the loop resolves them, equal ticks as one simultaneous moment, the fallen going down after (G-05). How
one step resolves (attacks, movement, casting) is the ``Engine``'s (``resolve.py``), through the chain of
step rules.

Nothing here ever waits for anyone: a question (a declaration, a die) goes to the ``asker`` when one is
given (``drive.py`` suspends the fight there), else the plan, the file's dice or the seed answer it.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from heapq import heappop, heappush
from typing import Any, Generic, Protocol, TypeVar

from affray.dice.expr import DiceExpr
from affray.dice.roller import DieProvider, Roller
from affray.engine.conditions import effect_of, incapacitated, unable
from affray.engine.events import (
    Condition,
    Declare,
    Delay,
    Down,
    Event,
    Impossible,
    Melee,
    Morale,
    Rolls,
    SpellLost,
    SpellRuined,
    Tick,
)
from affray.engine.options import BaseOptions
from affray.engine.places import feet_to_close
from affray.engine.rules import LOST, Chain, FreeAttack
from affray.engine.state import Fighter, FightState, FinalState, Memorized, PoolFactory
from affray.engine.step import AttackMods, Step, Until
from affray.engine.validity import out_how, why_not
from affray.model.encounter import Declaration, Encounter, Outcome, parse_duration
from affray.model.order import Order, order_of

__all__ = ["CHANGE", "COMMON_KEYS", "FOREVER", "SAME", "Asker", "Clock", "Fight", "Policy", "Result",
           "describe_declaration", "told"]

#: The end of a condition that lasts the whole fight (a weapon dropped, C2X-03).
FOREVER: Tick = (1 << 30,)
#: Said ahead for a combatant (``Fight.ahead``): its standing declaration, whatever it is then ("all: same").
SAME = "same"
#: The declaration key, known to every ruleset, by which a new declaration puts aside what would go on: an action held
#: over, an approach, a spell being cast where the seed lets it be cancelled (``Fight.said_for``).
CHANGE = "change"
#: The keys every ruleset reads, besides its own ``declaration_keys``.
COMMON_KEYS: dict[str, str] = {
    CHANGE: "true, or the declaration point N (the round; Combat II: its phase counted from the fight's start, 3 x "
            "(round - 1) + phase): drop what would go on (an action held over, an approach under way, a spell being "
            "cast where the seed lets it be cancelled) and take this one there"}

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)
E = TypeVar("E", bound=Event)


class Clock(Protocol[S_co]):
    """What the fight needs of its ruleset: the clock (``Ruleset`` in ruleset.py is the one implementation)."""

    @property
    def id(self) -> str: ...
    @property
    def has_rounds(self) -> bool: ...
    @property
    def opportunity_stops(self) -> bool: ...
    @property
    def own_kinds(self) -> frozenset[str]: ...
    @property
    def attack_scheme(self) -> str | None: ...
    @property
    def opt(self) -> BaseOptions: ...
    @property
    def declaration_keys(self) -> dict[str, str]: ...
    @property
    def action_die(self) -> int | None: ...
    @property
    def periods_per_round(self) -> int: ...
    @property
    def move_limits(self) -> dict[str, int]: ...

    def new_state(self) -> S_co: ...
    def all_options(self) -> dict[str, Any]: ...
    def begin(self, fight: Fight[Any], period: int) -> None: ...
    def end(self, fight: Fight[Any], period: int) -> None: ...
    def after(self, fight: Fight[Any], tick: Tick) -> None: ...
    def ready(self, fight: Fight[Any], f: Fighter) -> None: ...
    def period_end(self, period: int) -> Tick: ...
    def phase_end(self, fight: Fight[Any], tick: Tick, later: int = 0, unit: str = "phase") -> Until: ...
    def expiry(self, fight: Fight[Any], tick: Tick, count: int, unit: str) -> Until: ...
    def pending(self, fight: Fight[Any]) -> bool: ...
    def resolve_own(self, fight: Fight[Any], step: Step) -> None: ...
    def refusal(self, fight: Fight[Any], f: Fighter, decl: Order) -> str | None: ...
    def keeps(self, decl: Order) -> bool: ...


class Asker(Protocol):
    """Who answers what neither the file nor ``--auto`` does: a declaration, an attack's roll (``affray.drive``).
    Dice are asked through the roller's ``provider``."""

    def declaration(self, fight: Fight[Any], f: Fighter, tick: Tick, at: str,
                    known: tuple[tuple[str, Declaration], ...]) -> Declaration:
        """``f``'s declaration at this moment, knowing ``known`` (others' declarations it may take into account)."""

    def attack_roll(self, fight: Fight[Any], step: Step, target: Fighter) -> Outcome | int | None:
        """An attack's d20 the file does not give: the referee's outcome, the d20 rolled at the table, or None
        to roll it."""


#: ``--auto``: the declaration of a combatant whose plan is used up (``policy.py``), or its view (``order_of``):
#: a policy that hands out the same declarations fight after fight may keep their views.
Policy = Callable[["Fight[Any]", Fighter], "Declaration | Order | None"]


@dataclass(frozen=True)
class Result:
    """A resolved fight: the log and what it folds to."""

    ruleset: str
    seed: int
    options: dict[str, Any]
    events: list[Event]
    final: FinalState
    rounds: int


class Fight(Generic[S]):
    """One encounter under one ruleset. ``explain=False, keep=False`` is the lean mode of the benchmark.
    ``memo`` is the ruleset's own state for this fight (``Ruleset.new_state``)."""

    def __init__(self, encounter: Encounter, ruleset: Clock[S], rules: Chain, *, seed: int, policy: Policy,
                 auto: bool = False, max_rounds: int = 50, explain: bool = True, keep: bool = True,
                 pools: PoolFactory = Memorized, provider: DieProvider | None = None,
                 on_event: Callable[[Event], None] | None = None, lean_listener: bool = False,
                 encounter_file: str = "<encounter>") -> None:
        self.encounter = encounter
        self.encounter_file = encounter_file  # for errors only a run can find (a die entered out of range)
        self.ruleset = ruleset
        self.rules = rules
        self.seed = seed
        self.policy = policy
        self.auto = auto
        self.max_rounds = max_rounds
        self.explain = explain
        self.keep = keep
        self.on_event = on_event
        #: ``on_event`` hears only what changes the state (a simulation's tally): it does not make the fight heard,
        #: so the lean mode stays lean (no ``delay`` events, no words).
        self.lean_listener = lean_listener
        #: Called just before each step resolves (a referee's console shows what comes and may pause there).
        self.on_step: Callable[[Step], None] | None = None
        #: Called as a combatant comes to declare, before its plan is read (a referee may change it there).
        self.on_declare: Callable[[Fighter, Tick, str], None] | None = None
        #: Asked for a declaration that neither the plan nor ``--auto`` gives (None: nothing left to do).
        self.asker: Asker | None = None
        #: Declarations said ahead by the referee, by combatant: each taken at its next declaration point once its
        #: plan is used up, while still possible (a group's answer, a change typed before its turn; ``SAME``: its
        #: standing declaration). An input like an answer: a driven fight records and gives them again.
        self.ahead: dict[str, Order | str] = {}
        #: Of those, the ones a group's answer to a question gave (``also``, ``SIDE: ENTRY``): each for the declaration
        #: point it was given at (its period) only, as CONTRACT says ("this declaration point's questions").
        self.ahead_for: dict[str, int] = {}
        #: Combatants whose declarations still to come the referee replaced (the console's ``plan``) since they last
        #: declared: a new word, like one said ahead for them.
        self.replanned: set[str] = set()
        #: The last combatant heard coming to declare (``herald``), at what moment and after how many events.
        self._heralded: tuple[str, Tick, int] | None = None
        #: How many of the free attacks the file gives by round and attacker have been made (``rolls.free``, G-06).
        self._free: dict[tuple[int, str], int] = {}
        self.state = FightState(encounter, ruleset.attack_scheme, pools)
        self.roller = Roller(seed, record=explain, provider=provider)
        self.events: list[Event] = []
        #: The moment of the last event, and its words (kept in the lean mode too).
        self.now: Tick = ()
        self.now_at = "before the fight"
        #: The steps to come: a heap of the distinct ticks, and each tick's steps in the order they were pushed (a
        #: moment's steps share their tick: one heap entry a moment, not one a step, whatever the fight's size).
        self._ticks: list[Tick] = []
        self._due: dict[Tick, list[Step]] = {}
        self._moment_steps: list[Step] = []  # the moment being resolved, and how far: upcoming() shows its rest
        self._moment_done = 0
        self.period = 0
        self.memo: S = ruleset.new_state()
        self._rounds = ruleset.has_rounds
        #: Read on every step and attack: kept here once (the ruleset is reached through a protocol, slowly).
        self.own_kinds = ruleset.own_kinds
        self.natural_20 = ruleset.opt.natural_20

    # -- the log --------------------------------------------------------------------------------------
    def round_at(self, tick: Tick) -> int | None:
        """The round of an event at ``tick`` (None under a ruleset without rounds)."""
        return tick[0] if self._rounds else None

    def rolls(self) -> Rolls:
        """The dice rolled since the last event, for the next one (none are kept in the lean mode)."""
        return self.roller.take() if self.explain else ()

    def record(self, e: E) -> E:
        """Append ``e`` to the log and apply it to the state. The caller builds it, with ``round_at(tick)`` and,
        after every die of it is rolled, ``rolls()``: a direct call, the hot path's way (``emit`` is the short one)."""
        self.state.apply(e)
        self.now, self.now_at = e.tick, e.at
        if self.keep:
            self.events.append(e)
        if self.on_event is not None:
            self.on_event(e)
        return e

    def emit(self, cls: type[E], tick: Tick, at: str, actor: str | None = None, **fields: Any) -> E:
        """Append one event of type ``cls`` (with the dice rolled for it) and apply it to the state. ``fields``:
        ``why``, ``detail`` and its kind's own fields by name (a name it does not have is refused)."""
        return self.record(cls(tick, at, self.round_at(tick), actor, rolls=self.rolls(), **fields))

    @property
    def heard(self) -> bool:
        """Whether anyone keeps, explains or hears the log: not in the lean mode, where what changes nothing of the
        state is not made at all (a ``delay``, the words of a moment nobody reads)."""
        return self.keep or self.explain or (self.on_event is not None and not self.lean_listener)

    def delay(self, tick: Tick, at: str, actor: str, why: str, detail: str) -> None:
        """A ``delay`` event: an action waits. It changes nothing of the state, so in the lean mode it is not made
        at all: only the moment moves on."""
        if self.heard:
            self.emit(Delay, tick, at, actor, why=why, detail=detail)
        else:
            self.now, self.now_at = tick, at

    # -- what rulesets call ---------------------------------------------------------------------------
    def push(self, step: Step) -> None:
        tick = step.tick
        due = self._due.get(tick)
        if due is None:
            self._due[tick] = [step]
            heappush(self._ticks, tick)
        else:
            due.append(step)

    def order(self, name: str) -> int:
        return self.state.fighters[name].index

    def upcoming(self, n: int | None = 3) -> list[Step]:
        """The next ``n`` steps to resolve (all with None), in order: what a referee's console shows as coming."""
        out = [s for s in self._moment_steps[self._moment_done:] if not s.cancelled]
        for tick in sorted(self._ticks):
            if n is not None and len(out) >= n:
                break
            out += [s for s in self._due[tick] if not s.cancelled]
        return out if n is None else out[:n]

    def round_of(self, period: int) -> int:
        """The round a declaration point belongs to (``--max-rounds`` counts rounds): ``periods_per_round`` a round."""
        k = self.ruleset.periods_per_round
        return (period + k - 1) // k

    @property
    def over(self) -> bool:
        return self.state.standing <= 1

    def herald(self, f: Fighter, tick: Tick, at: str) -> bool:
        """``f`` comes to declare: the caller hears it (``on_declare``: a console may pause there and the referee say
        what changes) before anything of its declaration is decided, once a point; whether it is still in the fight
        then. A ruleset that decides what goes on before it asks ``declare`` (Combat II's held-over actions) calls it
        first."""
        if self.on_declare is None or self.over:
            return True
        key = (f.name, tick, len(self.events))
        if key != self._heralded:
            self._heralded = key
            self.on_declare(f, tick, at)
        return f.active

    def said_for(self, f: Fighter) -> bool:
        """Whether ``f`` has a new word since it last declared: a declaration said ahead for it alone (``NAME: ENTRY``,
        typed at another prompt; not ``same``), its declarations to come replaced (``plan``), or its plan's next entry
        marked ``change: true`` or ``change: N`` with N this declaration point (how a file says the same). It wins over
        an action held over or going on, wherever the seed lets it change (its ruleset says where); the declaration
        taken then carries ``change: N``, so that the timeline is the same from a file whose plan holds it."""
        name = f.name
        if (name in self.ahead and name not in self.ahead_for and self.ahead[name] != SAME) or name in self.replanned:
            return True
        if f.plan_pos >= len(f.plan):
            return False
        change = f.plan[f.plan_pos].extra.get(CHANGE)
        return change is True or (type(change) is int and change == self.period)

    def declare(self, f: Fighter, tick: Tick, at: str, *, resume: Order | None = None, note: str = "",  # noqa: C901
                known: tuple[tuple[str, Declaration], ...] = (), fallback: Order | None = None,
                displaces: str = "", offer: Order | None = None) -> Order | None:
        """``f``'s action for this declaration point: its continuing action, the next of its plan, a flight
        when routed, (``--auto``) the default action, or the asker's answer. Emits ``declare``.

        ``resume`` carries on an action the ruleset keeps going (a spell spanning phases, a delayed start),
        without consuming the plan; ``note`` says why. ``known``: the declarations of others ``f`` may take
        into account when it is asked (Combat II's winners hear the losers'). ``fallback``: an action the ruleset
        lets stand if nothing new is declared (a readied weapon, C2-21), carried on as ``resume`` would.
        ``displaces``: what a new word (``said_for``) puts aside here, in words (a held-over attack, a spell being
        cast): the declaration taken is marked ``change: N`` and its detail says what it replaces. ``offer``: what
        the ruleset has it declare once its plan is used up and nothing was said ahead for it (Combat II's touch of a
        spell cast at someone), made as a declaration of its own (``note`` says why), as ``repeat`` would."""
        if not self.herald(f, tick, at):  # removed (or put down) by the referee at this very point: nothing
            return None
        if f.conditions:
            held = incapacitated(f, tick)
            if held is not None:  # "its declarations wait, and it is asked nothing" (G-09)
                words = f.conditions[held].words
                self.delay(tick, at, f.name, f"{f.name} is {held}{f' until {words}' if words else ''}: no action "
                           f"({f.conditions[held].rule})", f"{held}: no declaration")
                return None
        continuing = f.current is not None and f.remaining > 0
        if continuing and resume is None:
            current = f.current
            assert current is not None
            goal = self.state.fighters.get(current.target or "")
            if goal is not None and not goal.active:  # its approach has nowhere to go (G-05): told; it declares anew
                self.emit(Impossible, tick, at, f.name, why=f"{goal.name} is out of the fight ({out_how(goal)}): the "
                          f"approach to it ends (G-05)" if self.explain else None, detail="approach ends" if
                          self.explain else None, target=goal.name, ends=True)
                continuing = False
            elif self.said_for(f):  # the referee's new word wins over the approach going on
                continuing = False
                displaces = displaces or f"the approach to {current.target}"
        consumed = flight = False
        decl: Order | None
        if f.routed or (f.conditions and any(effect_of(c).flees and h.since <= tick < h.until
                                             for c, h in f.conditions.items())):
            decl = order_of(_flight(f.mv * 10))  # G-07: whatever it was doing or had held over, it flees
            continuing = False
            flight = True
        elif resume is not None:
            decl = resume
            continuing = True
        elif continuing:
            decl = f.current
        elif f.plan_pos < len(f.plan):
            decl = f.plan[f.plan_pos]
            consumed = True
            self.replanned.discard(f.name)
        elif offer is not None and f.name not in self.ahead and f.name not in self.replanned:
            decl, consumed = offer, True
        else:
            decl, consumed = self._unplanned(f, tick, at, known)
            if decl is None and fallback is not None:
                decl = fallback
                continuing = True
        if decl is None:
            if f.declared is not None and f.active:
                self.record(Declare(tick, at, self.round_at(tick), f.name, detail="nothing left to do"
                                    if self.explain else None, rolls=self.rolls()))
            return None
        if displaces and consumed and decl.extra.get(CHANGE) != self.period:
            decl = decl.changed(**{CHANGE: self.period})  # the point it changed at: a file's plan says it so
        said = decl
        if decl.target is not None and decl.action in ("melee", "missile") and decl.target in self.state.sides:
            member = self._member(f, decl.target)  # an attack on a side: one of it, at each declaration point
            if member is not None:
                decl = decl.changed(**{decl.action: member.name})
        remaining = f.remaining if continuing else decl.distance if decl.action == "melee" else 0
        if self.state.placed and decl.action == "melee":  # where they stand says how far, every time it declares
            remaining = self.to_close(f, decl)
        detail = None
        if self.explain:
            detail = describe_declaration(decl, f) + (f" (of the {said.target})" if said is not decl else "")
            if continuing:
                detail = f"continues: {detail} ({note or f'{f.remaining} ft still to close'})"
            elif consumed and decl is offer:
                detail += f" ({note})"
            elif consumed and self.ruleset.keeps(decl) and self._again(f, decl):  # the same again, kept or
                # planned: it goes on (issue 37)
                detail = f"continues: {detail} (its standing attack)"
            elif not consumed:
                detail += " (routed: flees)" if f.routed else " (fleeing: flees)" if flight else " (auto)"
            if displaces and consumed:
                detail += f" (replaces {displaces})"
        self.record(Declare(tick, at, self.round_at(tick), f.name, detail=detail, decl=said.source, consumed=consumed,
                            continuing=continuing, remaining=remaining, rolls=self.rolls(), order=decl))
        return decl

    def _member(self, f: Fighter, side: str) -> Fighter | None:
        """Whom ``f``'s attack on ``side`` strikes at this declaration point (a player's "I fight the kobolds"): one
        of it still standing that ``f`` is engaged with, else the first (in file order) no ally of ``f`` has taken
        as its target, else the first standing; None when none of it stands."""
        standing = [g for g in self.state.sides[side] if g.active]
        for g in standing:
            if g.name in f.engaged:
                return g
        taken = {g.declared.target for g in self.state.sides[f.side] if g is not f and g.active and g.declared}
        return next((g for g in standing if g.name not in taken), standing[0] if standing else None)

    def _again(self, f: Fighter, decl: Order) -> bool:
        """Whether ``decl`` is ``f``'s last declaration once more (what held for that one alone aside)."""
        if f.plan_pos == 0:
            return False
        last = f.plan[f.plan_pos - 1].source
        now = decl.source
        return last is now or _bare(last) == _bare(now)

    def _unplanned(self, f: Fighter, tick: Tick, at: str,  # noqa: C901
                   known: tuple[tuple[str, Declaration], ...]) -> tuple[Order | None, bool]:
        """Who declares for ``f`` once its plan is used up (CONTRACT "Who declares"), and whether the declaration
        counts as its plan's next entry: one said ahead for it (``ahead``: a group's answer, a change typed before
        its turn came) while still possible; else by its mode: ``repeat``, its standing declaration while still
        possible; ``auto`` (or ``--auto``), its policy; ``ask``, the asker (nobody is asked once one side alone
        stands); without an asker, nothing."""
        mode = f.declares
        self.replanned.discard(f.name)
        if self.ahead:
            said = self.ahead.pop(f.name, None)
            point = self.ahead_for.pop(f.name, None)
            if said is not None and (point is None or point == self.period):  # a group's: its point's only
                decl = self.standing(f) if said == SAME else said if isinstance(said, Order) else None
                if decl is not None:
                    why = self.why_not(f, decl)
                    if why is None:
                        return decl, True
                    # said ahead, no longer possible: told in the seed's words, then asked (or its mode answers)
                    self.emit(Impossible, tick, at, f.name, why=f"said ahead: {describe_declaration(decl, f)}: {why}"
                              if self.explain else None, detail="the declaration said ahead is refused" if
                              self.explain else None, target=decl.target)
        if mode == "repeat":
            standing = self.standing(f)
            if standing is not None:
                return standing, True
        if mode == "ask" and self.asker is not None and not self.auto:
            standing = self.standing(f)  # its attack goes on, phase after phase, action after action: asked again only
            if standing is not None and self.ruleset.keeps(standing):  # for something new (its target down...) or
                return standing, True  # when the referee says otherwise (NAME: ENTRY, plan)
        if self.auto or mode == "auto":
            chosen = self.policy(self, f)
            order = chosen if chosen is None or isinstance(chosen, Order) else order_of(chosen)
            why = self.why_not(f, order) if order is not None else None
            if why is not None and order is not None:  # checked when it would act, as an answer is: told, never
                # swapped for another
                self.emit(Impossible, tick, at, f.name, why=f"its policy declared {describe_declaration(order, f)}: "
                          f"{why}" if self.explain else None, detail="the policy's declaration is refused: nothing "
                          "declared" if self.explain else None)
                return None, False
            return order, False
        if self.asker is not None and not self.over:
            heard = tuple((name, told(d)) for name, d in known)
            answer = order_of(self.asker.declaration(self, f, tick, at, heard))
            return (answer, True) if f.active else (None, False)  # put down or removed while it was asked
        return None, False

    def standing(self, f: Fighter) -> Order | None:
        """``f``'s standing declaration: its last one (the plan's, or an answer), without what held for that one
        declaration only (the referee's outcome and dice, an initiative roll; the distance closed and the charge,
        once engaged with its target), while it is still possible (``why_not``); else None."""
        if f.plan_pos == 0:
            return None
        last = f.plan[f.plan_pos - 1]
        update = _one_time(last.source)
        if (last.distance or last.charge) and last.target in f.engaged:
            update["distance"] = 0
            update["charge"] = False
        elif last.charge and self.state.placed and self.to_close(f, last) == 0:  # in reach: no run left to charge
            update["charge"] = False
        decl = last.changed(**update) if update else last
        return decl if self.why_not(f, decl) is None else None

    def to_close(self, f: Fighter, decl: Order) -> int:
        """Feet ``f`` must close to strike with the melee ``decl``: from where both stand in a fight that places its
        combatants, else the ``distance`` typed in."""
        if self.state.placed:
            feet = feet_to_close(f, decl, self.state)
            return feet if feet is not None else 0
        return decl.distance

    def why_not(self, f: Fighter, decl: Order) -> str | None:
        """Why ``decl`` cannot be ``f``'s at this moment (its target is out of the fight, its spell cannot be paid
        for, its ruleset forbids it now), or None: the one validator's answer (``engine.validity``)."""
        return why_not(self, f, decl)

    def free_attackers(self, step: Step) -> list[FreeAttack]:
        """Who gets a free attack on ``step`` (the chain's ``free_attacks``: attacks of opportunity, on a flight...),
        less whoever cannot strike at that moment: out of the fight, routed, asleep, held, stunned... (``unable``:
        G-05, G-07, G-09). What the engine makes and what a screen warns of."""
        return [fa for fa in self.rules.free_attacks(self, step) if unable(fa[0], step.tick, attack=True) is None]

    def free_dice(self, step: Step, target: str) -> Order | None:
        """G-06: the referee's outcome or dice of ``step``'s free attack (an attack of opportunity, a free attack on a
        flight, a defender's answer to a charge) as the file gives them (``rolls.free``: by the round of its tick,
        then its attacker's, in order), as that attack's own declaration at ``target``; None when the file gives no
        more (the dice are rolled, or asked)."""
        by_round = self.encounter.rolls.free
        if not by_round:
            return None
        key = (step.tick[0], step.actor.name)
        given = by_round.get(key[0], {}).get(key[1], ())
        k = self._free.get(key, 0)
        if k >= len(given):
            return None
        self._free[key] = k + 1
        entry = given[k]
        kind = "missile" if step.kind == "missile" else "melee"
        return order_of(Declaration.model_validate({kind: target, "outcome" if isinstance(entry, Outcome) else "dice":
                                                    entry}))

    def set_condition(self, tick: Tick, at: str, target: Fighter, name: str, until: Until, *, by: str | None,
                      rule: str, why: str | None = None, detail: str | None = None, spell: str | None = None,
                      amount: int = 0, since: Tick | None = None, attack: int | None = None,
                      damage: int | None = None, step: Step | None = None) -> None:
        """``target`` holds condition ``name`` from now (or ``since``) to ``until``, set ``by`` a combatant (None: the
        referee's hand) under ``rule`` by ``step`` (a spell's, an attack's): a ``condition`` event, and the moment it
        ends placed in time (an ``expire`` then). A caster it stops from acting loses its spell (G-11): for this
        casting, or from memory too where the rules say so of what disrupts a caster (``Rule.interrupt``: D12-09's
        failed save, the 2nd edition's)."""
        self.emit(Condition, tick, at, by, why=why, detail=detail, target=target.name, spell=spell, condition=name,
                  until=until.at, end=until.tick, rule=rule, amount=amount, since=since, attack=attack,
                  free_damage=damage)
        if target.casting is not None and not effect_of(name).acts and (since is None or since <= tick):
            lost = step is not None and self.rules.interrupt(self, target, step) == LOST  # kept: it cannot act
            self.emit(SpellLost if lost else SpellRuined, tick, at, target.name, spell=target.casting,
                      why=f"{target.name} is {name} while casting {target.casting}: the spell is lost for this "
                      f"casting{' and from memory' if lost else ''} (G-11)" if self.explain else None,
                      detail="the spell is ruined and lost from memory" if lost else
                      "the spell is ruined for this casting")
        if until.tick < FOREVER:
            self.push(Step(until.tick, target, "end-condition", until.at, until.why, note=name))

    def morale_check(self, side: str, members: list[Fighter], score: int, tick: Tick, at: str,
                     triggers: tuple[str, ...], why: str, dice: DiceExpr, given: int | None = None) -> bool:
        """Roll ``dice`` against ``score`` (``given``: their total as rolled at the table, else the file's for this
        round, else rolled): above it fails (G-07), and the routed flee at once as their ruleset places a new action
        (``Ruleset.ready``): the same whether the ruleset's own check or the referee's word called it."""
        if given is None:
            given = self.encounter.rolls.morale.get(tick[0], {}).get(side)
        roll = self.roller.dice(dice, "morale", side, given=given) + dice.bonus
        passed = roll <= score
        surrender = not passed and self.ruleset.opt.morale_failure == "surrender"
        detail = None
        if self.explain:
            result = "passes" if passed else "fails: surrenders" if surrender else "fails: flees"
            detail = f"{side} morale {dice.text}={roll} vs {score}: {result}"
        self.record(Morale(tick, at, self.round_at(tick), None, why, detail, passed=passed, side=side,
                           members=tuple(m.name for m in members), triggers=triggers, surrender=surrender,
                           rolls=self.rolls()))
        if not passed:  # routed (G-07): each flees from now, as its ruleset places a flight (whoever called the check)
            for m in members:
                if m.active:
                    self.ruleset.ready(self, m)
        return passed

    # -- resolution (the Engine's) ----------------------------------------------------------------------
    def resolve_step(self, step: Step) -> None:
        """Resolve one step: the engine's checks, the chain of rules, then the action (``Engine``)."""
        raise NotImplementedError

    def may_act(self, step: Step) -> bool:
        """The engine's checks before an action (its actor stands, no readied strike stops it, no rule refuses
        it); False once an ``impossible`` event says why not (``Engine``)."""
        raise NotImplementedError

    def disrupt(self, step: Step, caster: Fighter, spell: str, why: str) -> None:
        """G-11: damage reached a caster mid-casting, as ``step`` would have; the rules say what it loses
        (``Engine``)."""
        raise NotImplementedError

    def attack_mods(self, step: Step, target: Fighter) -> AttackMods:
        """G-04: what an attack roll adds to the d20 and the AC, and to the damage (``Engine``)."""
        raise NotImplementedError

    def attack(self, step: Step, target: Fighter, *, opportunity: bool = False) -> Melee:
        """Resolve one attack roll (G-04) and emit it (``Engine``)."""
        raise NotImplementedError

    def resolve_now(self, steps: list[Step]) -> None:
        """Resolve ``steps`` as one simultaneous moment, deaths after (G-05): the loop's unit, and what a ruleset
        whose ``begin`` needs the outcome before it places the rest calls (shots fired before initiative)."""
        if not steps:
            return
        on_step = self.on_step
        outer = self._moment_steps, self._moment_done  # a ruleset's begin may resolve a moment inside another
        self._moment_steps = steps
        for i, step in enumerate(steps):
            self._moment_done = i + 1
            if step.cancelled:
                continue
            if on_step is not None:
                on_step(step)
            self.resolve_step(step)
        self._moment_steps, self._moment_done = outer
        self._deaths(steps[0].tick, steps[0].at)
        self.ruleset.after(self, steps[0].tick)

    # -- the loop -------------------------------------------------------------------------------------
    def run(self) -> Result:
        """Play the fight to its end. Unattended (nobody asked, told or rolling for it), the cyclic garbage
        collector waits until it ends: a fight leaves no cyclic garbage as it runs (tests/test_collector.py), and
        the collector's full passes, over every object of the process, come more often the larger the fight (a
        500-a-side one took 2.3x the time of a 250-a-side one with them, 2.1x without). Only if it was running; it
        runs again however the fight ends."""
        pause = (self.asker is None and self.on_event is None and self.on_declare is None
                 and self.roller.provider is None and gc.isenabled())
        if pause:
            gc.disable()
        try:
            return self._run()
        finally:
            if pause:
                gc.enable()

    def _run(self) -> Result:
        ruleset = self.ruleset
        if self.period == 0 and not self.events:
            self._carried()
        while (not self.over and self.round_of(self.period + 1) <= self.max_rounds
               and (self.auto or self.asker is not None or self._has_work())):
            self.period += 1
            ticks = self._ticks
            start = ruleset.period_end(self.period - 1)  # what ends exactly as this period begins comes first
            while ticks and ticks[0] <= start and not self.over:
                self._moment()
            ruleset.begin(self, self.period)
            bound = ruleset.period_end(self.period)
            while ticks and ticks[0] < bound and not self.over:
                self._moment()
            if self.over:
                ticks.clear()
                self._due.clear()
            else:
                ruleset.end(self, self.period)
        return self.result()

    def _carried(self) -> None:
        """Conditions a combatant still holds from an earlier fight (a party file's ``conditions``): set as the
        first period begins, each for the time it had left, on this ruleset's clock (G-08, G-09)."""
        for f in self.state.order:
            for name, left in f.spec.conditions.items():
                tick = self.ruleset.period_end(0)
                if left is None:
                    until = Until(FOREVER, "the referee ends it", "no time left given: until the referee ends it")
                else:
                    until = self.ruleset.expiry(self, tick, *parse_duration(left))
                self.set_condition(tick, "before the fight", f, name, until, by=None, rule="G-09",
                                   why=f"{f.name} is still {name} from an earlier fight"
                                   + (f", {left} left, to {until.at}" if left else ", until the referee ends it")
                                   + " (the party file; G-08, G-09)" if self.explain else None,
                                   detail=(until.why or None) if self.explain else None)

    def _moment(self) -> None:
        """Resolve the steps at the earliest tick, together."""
        self.resolve_now(self._due.pop(heappop(self._ticks)))

    def result(self) -> Result:
        return Result(self.ruleset.id, self.seed, self.ruleset.all_options(), self.events, self.state.final(),
                      self.round_of(self.period))

    def _has_work(self) -> bool:
        if self._ticks:
            return True
        return any(f.active and (f.plan_pos < len(f.plan) or f.remaining > 0 or f.routed or f.declares == "auto"
                                 or f.name in self.ahead
                                 or (f.declares == "repeat" and self.standing(f) is not None))
                   for f in self.state.fighters.values()) or self.ruleset.pending(self)

    def _deaths(self, tick: Tick, at: str) -> None:
        """G-05: after a tick's actions, everyone at 0 hp or less goes down, dead unless a rule says otherwise.
        In file order; only the hurt can have fallen (``FightState.hurt``), and one hurt as this runs (a
        referee's hand at a ``down``) is looked at now if later in the order, else at the next moment."""
        hurt = self.state.hurt
        last = -1
        while hurt:
            f: Fighter | None = None  # the first in file order after ``last`` (a loop: min() and a key are generic
            for g in hurt:  # calls in the compiled build)
                if g.index > last and (f is None or g.index < f.index):
                    f = g
            if f is None:
                break
            hurt.discard(f)
            last = f.index
            if f.hp <= 0 and not f.down:
                unconscious, words = self.rules.fall(self, f)
                self.record(Down(tick, at, self.round_at(tick), f.name, detail=f"{f.name} at {f.hp} hp: {words}"
                                 if self.explain else None, unconscious=unconscious, rolls=self.rolls()))


def _one_time(d: Declaration) -> dict[str, Any]:
    """What held for ``d`` alone, as the update that drops it: the referee's outcomes and dice, an initiative roll."""
    update: dict[str, Any] = {}
    if d.outcome is not None:
        update["outcome"] = None
    if d.dice is not None:
        update["dice"] = None
    if d.roll is not None:
        update["roll"] = None
    if d.extra.get(CHANGE) is not None:
        update[CHANGE] = None
    return update


def _bare(d: Declaration) -> dict[str, Any]:
    """``d`` as written in a plan, without what held for it alone (``_one_time``): the same declaration again?"""
    data = d.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)
    for key in ("outcome", "dice", "roll", CHANGE):
        data.pop(key, None)
    return data


def told(d: Declaration) -> Declaration:
    """``d`` as the others hear it (``known``): what was declared, never the referee's outcome or the dice entered
    for it, which belong to the moment of the blow (G-04, G-06)."""
    update = _one_time(d)
    return d.changed(**update) if update else d


@lru_cache(maxsize=64)
def _flight(feet: int) -> Declaration:
    """A routed or fleeing combatant's declaration: a full move away (one per distance, shared)."""
    return Declaration(move=feet, mode="flee")


def describe_declaration(decl: Declaration | Order, f: Fighter) -> str:
    action = decl.action
    touch = decl.extra.get("touch")
    if action == "melee" and isinstance(touch, str):  # the touch of a spell cast (C2-10)
        return f"touch {decl.target} with {touch}"
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
        way = (f" toward {decl.toward}" if decl.toward else f" away from {decl.away}" if decl.away else
               f" to [{decl.to[0]}, {decl.to[1]}]" if decl.to else "")  # a placed fight's way (docs/positions.md)
        return f"move {decl.move} ft" + (f" ({decl.mode})" if decl.mode else "") + way
    if action == "misc":
        return f"misc: {decl.misc}"
    if action == "wait":
        return "wait" + (f" until {decl.wait}" if isinstance(decl.wait, str) else "")
    return "no action"
