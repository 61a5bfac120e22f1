"""The order within a count of d12-procedure (seed 004): the closing rule (D12-06) and the tie-breaking
options (D12-07). A combatant's doings at one count are an ``Act``; ``close`` moves the longer weapon's
strike (or the armed against the unarmed) to the other's count, ``ties`` ranks acts within each count.
A ``Round`` holds what is known of the round so far: who is still to declare, on which count, and the acts
built but not yet pushed (the steps of a count are pushed only when that count begins); ``strikes_first``
says when a target still to declare is asked out of turn (D12-06).
"""

from __future__ import annotations

from typing import Protocol

from affray.engine.state import UNARMED, Fighter  # at run time: ``Act``'s annotation (the compiled build reads it)
from affray.engine.step import Step
from affray.model.order import Order

__all__ = ["Act", "Round", "TieOptions", "close", "compare", "strikes_first", "ties", "unarmed"]

_ATTACKS = ("melee", "missile")


class TieOptions(Protocol):
    """The D12-07 options that break ties (``D12Options`` has them; read here without importing the ruleset)."""

    @property
    def tie_wsf(self) -> bool: ...
    @property
    def tie_attacks(self) -> bool: ...
    @property
    def tie_spell_melee(self) -> bool: ...
    @property
    def tie_missile_spell(self) -> bool: ...


class Act:
    """One combatant's doings at one count, before its ticks are settled (D12-06, D12-07)."""

    __slots__ = ("attacks", "before", "closing", "count", "f", "key", "kind", "reach", "result", "steps", "sub",
                 "target", "tie")

    def __init__(self, f: Fighter, count: int | None, kind: str, result: int, key: int = 0, attacks: int = 0,
                 target: str | None = None, reach: int = 5) -> None:
        self.f: Fighter = f
        self.count: int | None = count  # None: last in the round
        self.kind: str = kind  # melee, missile, spell (a spell taking effect), other
        self.result: int = result  # the combatant's initiative count
        self.key: int = key  # SF of a melee weapon, CT of a spell (D12-07)
        self.attacks: int = attacks
        self.target: str | None = target
        self.reach: int = reach
        self.closing: bool = False
        self.steps: list[tuple[int, Step]] = []
        #: who it strikes before, and why (D12-06); None for most (a dict made for every act was garbage at once)
        self.before: dict[str, str] | None = None
        self.sub: int = 0
        self.tie: str = ""


class Round:
    """One round's registry (D12-05 to D12-07): each combatant's count, who is still to declare, and the acts
    built but not yet pushed into the fight (a spell taking effect later, a blow moved by D12-06)."""

    __slots__ = ("acts", "counted", "counts", "due", "granted", "number", "said", "waiting")

    def __init__(self, number: int, counts: dict[str, tuple[int, str]] | None = None) -> None:
        self.number: int = number
        #: name -> its count, and how it was found
        self.counts: dict[str, tuple[int, str]] = counts if counts is not None else {}
        self.waiting: dict[str, int] = {}  # still to declare -> its count
        self.granted: dict[str, Order] = {}  # having the drop: the readied shot, again
        #: count -> whose turn it is then (waiting or granted), PCs first, then the others in the file's order
        self.due: dict[int, list[Fighter]] = {}
        self.acts: list[Act] = []  # built, not yet pushed
        self.counted: set[int | None] = set()  # counts with a "count" step placed (None: the end)
        #: the declarations made this round, in order, by name (D12-11: whether a foe has said what it does)
        self.said: dict[str, Order] = {}


def strikes_first(act: Act, t: Fighter) -> str | None:
    """D12-06: why ``t``, the target of the melee ``act``, would strike first should it fight back (a weapon
    against an unarmed attacker, or a closer meeting a longer weapon), or None. ``t`` has not declared yet, so
    its longest melee weapon counts; its declaration then decides (``close``)."""
    if act.kind != "melee" or unarmed(t):
        return None
    if unarmed(act.f):
        return f"{t.name} is armed and {act.f.name} unarmed: a weapon always wins initiative (D12-06)"
    if not act.closing:
        return None
    reach = 0  # its longest melee weapon's (a loop: max() over a generator is a generic call)
    for w in t.weapons:
        if w.kind != "missile" and w.reach > reach:
            reach = w.reach
    if reach > act.reach:
        return (f"{act.f.name} closes on {t.name}, whose {reach}-ft weapon is longer than its {act.reach} ft: "
                "the longer weapon strikes first, regardless of initiative (D12-06)")
    return None


def close(acts: list[Act]) -> None:
    """D12-06: closing into melee, the longer weapon strikes first whatever the counts; a weapon beats unarmed."""
    melee = {a.f.name: a for a in acts if a.kind == "melee"}
    for a in melee.values():
        b = melee.get(a.target or "")
        if b is None or b.target != a.f.name or _strikes_before(b, a) or _strikes_before(a, b):
            continue
        first = second = None
        why = ""
        ua, ub = unarmed(a.f), unarmed(b.f)
        if ua != ub:
            first, second = (b, a) if ua else (a, b)
            why = (f"a weapon always wins against unarmed {second.f.name} (monks are never unarmed) "
                   "(D12-06)")
        elif (a.closing or b.closing) and a.reach != b.reach:
            first, second = (a, b) if a.reach > b.reach else (b, a)
            why = (f"closing into melee, the longer weapon ({first.reach} ft against {second.reach} ft) "
                   f"strikes first whatever the initiative (D12-06)")
        if first is None or second is None:
            continue
        if first.before is None:
            first.before = {}
        first.before[second.f.name] = why
        first.steps = [(1 if part == 2 else part, s) for part, s in first.steps]  # strikes before the rest
        if second.count is not None and (first.count is None or second.count < first.count):
            first.tie = f"; moved to count {second.count}: {why}"
            first.count = second.count
        else:
            first.tie = f"; before {second.f.name}: {why}"


def _strikes_before(x: Act, y: Act) -> bool:
    """Whether D12-06 has ``x`` strike before ``y``."""
    return x.before is not None and y.f.name in x.before


def compare(x: Act, y: Act, o: TieOptions) -> tuple[int, str]:
    """-1 if ``x`` goes before ``y`` at their common count, 1 if after, 0 if simultaneous; with the reason."""
    if _strikes_before(x, y) or _strikes_before(y, x) or x.f.side == y.f.side:
        return 0, ""  # D12-06 orders the pair by part: the first strike lands between move and blow
    kinds = {x.kind, y.kind}
    if o.tie_attacks and x.kind in _ATTACKS and y.kind in _ATTACKS and x.attacks != y.attacks:
        return (-1 if x.attacks > y.attacks else 1), (f"more attacks go first ({max(x.attacks, y.attacks)} "
                                                      f"against {min(x.attacks, y.attacks)}, D12-07)")
    if o.tie_wsf and x.kind == y.kind == "melee" and x.key != y.key:
        return (-1 if x.key < y.key else 1), f"the lower speed factor goes first ({x.key} and {y.key}, D12-07)"
    if o.tie_spell_melee and kinds == {"melee", "spell"} and x.key != y.key:
        return (-1 if x.key < y.key else 1), ("the lower of casting time and speed factor goes first "
                                              f"({x.key} and {y.key}, D12-07)")
    if o.tie_missile_spell and kinds == {"missile", "spell"}:
        spell = x if x.kind == "spell" else y
        if spell.key > spell.result:
            return (-1 if x.kind == "missile" else 1), (f"the missile goes first: CT {spell.key} is higher "
                                                        f"than the caster's initiative result {spell.result} "
                                                        "(D12-07)")
    return 0, ""


def ties(acts: list[Act], opt: TieOptions) -> None:  # noqa: C901
    """D12-07: ties are simultaneous; each option breaks some; ``sub`` is the act's rank within its count."""
    if not (opt.tie_wsf or opt.tie_attacks or opt.tie_spell_melee or opt.tie_missile_spell):
        for a in acts:  # no option breaks a tie (``compare`` is always 0): all of a count go at once
            a.sub = 0
        return
    groups: dict[int | None, list[Act]] = {}
    for a in acts:
        groups.setdefault(a.count, []).append(a)
    for group in groups.values():
        if len(group) < 2:
            continue
        preds: dict[int, list[tuple[int, str]]] = {id(a): [] for a in group}
        for i, x in enumerate(group):
            for y in group[i + 1:]:
                sign, why = compare(x, y, opt)
                if sign < 0:
                    preds[id(y)].append((id(x), why))
                elif sign > 0:
                    preds[id(x)].append((id(y), why))
        by_id = {id(a): a for a in group}
        succs: dict[int, list[tuple[Act, str]]] = {id(a): [] for a in group}  # who goes after each, in group order
        for b in group:
            for p, why in preds[id(b)]:
                succs[p].append((b, why))
        done: dict[int, int] = {}
        for a in group:
            a.sub = _rank(id(a), preds, done, frozenset())
            if a.tie:
                continue  # the closing rule already says it
            after = [f"{by_id[p].f.name}: {why}" for p, why in preds[id(a)]]
            before = [f"{b.f.name}: {why}" for b, why in succs[id(a)]]
            if after:
                a.tie = f"; a tie at this count broken, after {'; '.join(after)}"
            elif before:
                a.tie = f"; a tie at this count broken, before {'; '.join(before)}"


def _rank(k: int, preds: dict[int, list[tuple[int, str]]], done: dict[int, int], seen: frozenset[int]) -> int:
    """The length of the longest chain of acts that must go before act ``k`` (a cycle is cut where it closes)."""
    if k not in done:
        done[k] = 1 + max((_rank(p, preds, done, seen | {k}) for p, _ in preds[k] if p not in seen), default=-1)
    return done[k]


def unarmed(f: Fighter) -> bool:
    """D12-06: no weapon listed, and not a monk (monks are never unarmed)."""
    return f.weapons[0] is UNARMED and f.klass != "monk"  # a fighter of no listed weapon has UNARMED alone
