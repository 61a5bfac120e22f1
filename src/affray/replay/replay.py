"""One played fight played again under another ruleset: the file ``mapping`` writes, played as ``affray run --auto``.

A declaration the other ruleset cannot take at its moment (its target is already out of the fight there, its spell
can no longer be paid for, the ruleset refuses it now: the one validator's ``why_not``; or the file's check refused it
outright) is replaced by what the combatant's policy declares at that moment (``Auto.preview``: asking changes nothing
the policies keep), and said. The replacements are found as the fight is played, each put in the plan at its moment;
then the file is written with them and played again, from its start: the play that finds nothing more to replace is
exactly ``affray run --auto`` of the file last written, and that is the replay. (A ruleset that reads a plan ahead of
its moment can part from the first play there: the second then finds what is left to replace, and so on.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from affray.api import prepare
from affray.engine.events import Declare, Event, Tick
from affray.engine.fight import Fight
from affray.engine.state import Fighter
from affray.errors import EncounterError, Problem
from affray.io.checks import check
from affray.io.load import load_text, sort_problems
from affray.io.read import format_path
from affray.model.encounter import Declaration, expand
from affray.model.order import Order, order_of
from affray.policy import Auto
from affray.replay.mapping import (
    Mapped,
    Note,
    base_options,
    mapped_text,
    ordinal,
    plan_entries,
    surprise_as_played,
    words,
)
from affray.replay.played import Played, Said, _entry
from affray.rulesets import find_ruleset

__all__ = ["Replaced", "Replayed", "replay"]

#: Held for an entry the file's check refused outright, until its moment comes and the policy's is taken there.
_PLACEHOLDER: dict[str, Any] = {"none": True}
#: What a policy that has nothing to declare declares.
_NOTHING = Declaration(none=True)
_DIE = re.compile(r"^\.dice(?:\[(\d+)\])?\.([A-Za-z_]\w*)$")


@dataclass(frozen=True)
class Replaced:
    """A declaration the ruleset could not take: whose, why not, what the policy declared instead, and when."""

    actor: str
    index: int
    entry: dict[str, Any]
    reason: str
    instead: dict[str, Any]
    at: str
    tick: Tick

    def to_dict(self) -> dict[str, Any]:
        return {"actor": self.actor, "index": self.index, "declaration": self.entry, "reason": self.reason,
                "instead": self.instead, "at": self.at, "tick": list(self.tick)}


@dataclass
class Replayed:
    """The played fight under ``ruleset``: the file written for it (``text``), the fight played from it, what was
    replaced and left out, and how many times it was played to find the replacements."""

    ruleset: str
    text: str
    fight: Fight[Any]
    mapped: Mapped
    saids: list[Said]
    replaced: dict[tuple[str, int], Replaced] = field(default_factory=dict)
    plays: int = 1

    @property
    def notes(self) -> list[Note]:
        return self.mapped.notes

    def reached(self, actor: str) -> int:
        """How many of ``actor``'s planned declarations the fight took before it ended."""
        f = self.fight.state.fighters.get(actor)
        return min(f.plan_pos, len(self.mapped.plan.get(actor, ()))) if f is not None else 0


def replay(played: Played, ruleset: str, saids: Sequence[Said], *, sets: Mapping[str, Any] | None = None,
           max_rounds: int = 50) -> Replayed:
    """``played`` under ``ruleset`` (``sets``: options over the played ones it shares): the same combatants and seed,
    ``saids`` as each combatant's plan with their dice, each side's policy once a plan is used up."""
    cls = find_ruleset(ruleset)
    options, option_notes = base_options(played, cls, sets or {})
    surprise = surprise_as_played(played)
    names = {name for name, _s, _c, _l in expand(played.prepared.encounter)}
    kept = [s for s in saids if s.actor in names]
    joined = sorted({s.actor for s in saids if s.actor not in names})
    notes = list(option_notes)
    if joined:
        notes.append(Note("joined", f"{', '.join(joined)} joined the played fight by the referee's hand: not in the "
                                    "file, not in the replay"))
    notes += [Note("command", f"the referee's command `{c}` is not replayed: its moment has no counterpart under "
                              f"{ruleset}") for c in played.commands]
    replaced: dict[tuple[str, int], Replaced] = {}
    refused: dict[tuple[str, int], str] = {}  # entries the file's check refused: the policy's at their moment
    dropped: dict[tuple[str, int], set[tuple[int | None, str]]] = {}
    die_notes: list[Note] = []
    plays = 0
    for _ in range(4 * len(kept) + 20):  # each turn settles an entry, a die, a stand-in, or ends
        stand_ins = {k: r.instead for k, r in replaced.items()}
        stand_ins.update({k: _PLACEHOLDER for k in refused if k not in replaced})
        plan, key_notes = plan_entries(kept, cls, stand_ins, dropped)
        mapped = Mapped(ruleset, options, surprise, plan, notes + key_notes + die_notes)
        text = mapped_text(played, mapped, _header(played, ruleset))
        loaded = load_text(text, f"{played.file} (replayed under {ruleset})", strict=False)
        problems = list(loaded.problems) + list(check(cls, loaded))
        if problems:
            _settle(problems, kept, replaced, refused, dropped, die_notes)
            continue
        prepared = prepare(loaded, ruleset=ruleset)
        plays += 1
        watch = _Watch(plan, replaced, refused)
        fight = prepared.fight(auto=True, max_rounds=max_rounds, on_event=watch.event)
        watch.fight = fight
        fight.on_declare = watch.declare
        fight.run()
        if watch.found:
            for r in watch.found:
                original = next(s.entry for s in kept if (s.actor, s.index) == (r.actor, r.index))
                replaced[(r.actor, r.index)] = Replaced(r.actor, r.index, original, r.reason, r.instead, r.at, r.tick)
            continue
        for r in replaced.values():
            mapped.notes.append(Note("replaced", f"{r.actor}'s {ordinal(r.index + 1)} declaration, `{words(r.entry)}`"
                                                 f", cannot be taken at {r.at}: {r.reason}; its policy's "
                                                 f"`{words(r.instead)}` instead", r.actor, r.index))
        return Replayed(ruleset, text, fight, mapped, kept, replaced, plays)
    raise AssertionError("the replay did not settle")  # pragma: no cover - each turn settles something


class _Watch:
    """The hooks of one play. As a combatant comes to declare, whether the next entry of its plan can be taken (the
    validator's ``why_not``; an entry the file's check refused cannot): if not, its policy's declaration of that moment
    takes its place in the plan; if the fight then takes it there (its ``declare`` event consumes it), the replacement
    is ``found``, else (it carries on an action instead, or is held) the entry is put back."""

    fight: Fight[Any]

    def __init__(self, plan: Mapping[str, list[dict[str, Any]]], replaced: Mapping[tuple[str, int], Replaced],
                 refused: Mapping[tuple[str, int], str]) -> None:
        self.planned = {actor: len(entries) for actor, entries in plan.items()}
        self.replaced = replaced
        self.refused = refused
        self.pending: dict[str, tuple[Order, Replaced]] = {}
        self.found: list[Replaced] = []

    def declare(self, f: Fighter, tick: Tick, at: str) -> None:
        self._put_back(f)
        i = f.plan_pos
        key = (f.name, i)
        if i >= self.planned.get(f.name, 0) or key in self.replaced:
            return
        fight = self.fight
        reason = self.refused.get(key) or fight.why_not(f, f.plan[i])
        if reason is None:
            return
        policy = fight.policy
        chosen = policy.preview(fight, f) if isinstance(policy, Auto) else None
        order = chosen if isinstance(chosen, Order) else order_of(chosen if chosen is not None else _NOTHING)
        self.pending[f.name] = (f.plan[i], Replaced(f.name, i, {}, reason, _entry(order.source), at, tick))
        f.plan = (*f.plan[:i], order, *f.plan[i + 1:])

    def event(self, e: Event) -> None:
        if not isinstance(e, Declare) or e.actor not in self.pending:
            return
        f = self.fight.state.fighters[e.actor]
        if e.consumed and not e.continuing and f.plan_pos - 1 == self.pending[e.actor][1].index:
            self.found.append(self.pending.pop(e.actor)[1])
        else:
            self._put_back(f)

    def _put_back(self, f: Fighter) -> None:
        """The entry replaced at a declaration point that did not take it, as it was."""
        held = self.pending.pop(f.name, None)
        if held is not None:
            original, r = held
            f.plan = (*f.plan[:r.index], original, *f.plan[r.index + 1:])


def _settle(problems: Sequence[Problem], saids: Sequence[Said], replaced: dict[tuple[str, int], Replaced],
            refused: dict[tuple[str, int], str], dropped: dict[tuple[str, int], set[tuple[int | None, str]]],
            notes: list[Note]) -> None:
    """What the file's check refused in the plan: a die out of range for this ruleset's throw is left out (the fight
    rolls it), an entry refused outright waits for the policy's at its moment; a policy's declaration refused too
    (a policy may declare what a file may not) stands as no action. A problem outside the plan is the played file's
    own: EncounterError."""
    prefixes = sorted(((format_path(("plan", s.actor, s.index)), s) for s in saids), key=lambda p: -len(p[0]))
    others = []
    for p in problems:
        found = next(((prefix, s) for prefix, s in prefixes if p.path == prefix or p.path.startswith(prefix + ".")),
                     None)
        if found is None:
            others.append(p)
            continue
        prefix, s = found
        key = (s.actor, s.index)
        stand_in = replaced.get(key)
        if stand_in is not None:
            if stand_in.instead == _PLACEHOLDER:
                others.append(p)
                continue
            replaced[key] = replace(stand_in, instead=dict(_PLACEHOLDER), reason=(
                f"{stand_in.reason}; its policy's `{words(stand_in.instead)}` cannot be taken either ({p.message}): "
                "no action"))
            continue
        die = _DIE.match(p.path[len(prefix):])
        if die is not None and key not in refused:
            n = int(die.group(1)) if die.group(1) is not None else None
            dropped.setdefault(key, set()).add((n, die.group(2)))
            notes.append(Note("die", f"{s.actor}'s {ordinal(s.index + 1)} declaration, `{words(s.entry)}`: its "
                                     f"{die.group(2)} die is not carried: {p.message}", s.actor, s.index))
        elif p.path[len(prefix):].startswith(".outcome") and key not in refused:
            dropped.setdefault(key, set()).add((None, "outcome"))
        elif key not in refused:
            refused[key] = p.message
        else:  # pragma: no cover - the stand-in of a refused entry is the placeholder, which the check takes
            others.append(p)
    if others:
        raise EncounterError(sort_problems(others))


def _header(played: Played, ruleset: str) -> str:
    return (f"affray replay: {played.source}, played under {played.ruleset} (seed {played.seed}), replayed under "
            f"{ruleset}:\nthe same combatants and seed, each one's declarations in the order made with the dice that "
            f"fell for them,\n{ruleset}'s own initiative, surprise and morale dice from the seed. `affray run FILE "
            "--auto` plays it.")
