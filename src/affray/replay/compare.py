"""The played fight and its replays side by side, as data: what each declaration came to under each ruleset (when, and
what it did), who fell when and to whom, who won, and every difference with its reason in the ruleset's own words
(the ``why`` of a placement, the ``detail`` of an attack's arithmetic, the validator's reason). Words for a terminal
are ``render.replay``'s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from affray.engine.events import (
    Cast,
    CastStart,
    Damage,
    Declare,
    Down,
    Event,
    Impossible,
    Melee,
    Move,
    SpellLost,
    SpellRuined,
    Tick,
    Wound,
)
from affray.replay.mapping import ordinal, words
from affray.replay.played import Played, Said
from affray.replay.replay import Replayed

__all__ = ["Deed", "Difference", "Fall", "Row", "SideBySide", "side_by_side"]

#: What a declaration does in the timeline (a delay only says it waits; a declare event opens the next one).
_DEEDS = frozenset({"melee", "missile", "cast-start", "cast", "spell-ruined", "spell-lost", "effect", "move", "misc",
                    "wait", "impossible", "abort", "surrender"})
#: At most this many differences of order are told a ruleset (all of them are in ``--json``).
ORDER_SHOWN = 12


@dataclass(frozen=True)
class Deed:
    """What one declaration came to in one fight: ``status`` (``done``, ``cancelled``, ``unreached``: the fight was
    over first, ``pending``: declared, nothing done before the end), when its first deed came (``at``, ``tick``,
    ``seq``) and why then, what it did in words, and the events it made."""

    status: str
    what: str
    at: str | None = None
    tick: Tick | None = None
    seq: int | None = None
    why: str | None = None
    detail: str | None = None
    outcome: tuple[tuple[bool, int], ...] = ()  # (hit, damage) of each attack
    events: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "what": self.what}
        if self.at is not None:
            out.update({"at": self.at, "tick": list(self.tick or ()), "seq": self.seq})
        if self.why:
            out["why"] = self.why
        if self.events:
            out["events"] = list(self.events)
        return out


@dataclass
class Row:
    """One declaration of the played fight, followed under each ruleset (``deeds`` by column)."""

    actor: str
    index: int
    said: str
    auto: bool
    target: str | None
    side: str
    deeds: dict[str, Deed] = field(default_factory=dict)
    instead: dict[str, str] = field(default_factory=dict)  # column -> the policy's declaration that replaced it


@dataclass(frozen=True)
class Fall:
    """A combatant's fall in one fight: when, and whose deed felled it (``by``: actor, in words)."""

    at: str
    tick: Tick
    seq: int
    by: str | None
    detail: str | None


@dataclass(frozen=True)
class Difference:
    """One way a replay differs from the fight as played, with its reason in the ruleset's own words."""

    kind: str  # replaced, dropped, outcome, cancelled, made, unreached, order, fall, winner
    text: str
    reason: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "text": self.text, "reason": self.reason}


@dataclass
class SideBySide:
    """The played fight (first column) and each replay: the rows, the falls, the winners, the policies' own deeds
    once the declarations ran out (``more``), and each replay's differences from the played fight."""

    columns: list[str]
    rows: list[Row]
    falls: dict[str, dict[str, Fall]]  # combatant -> column -> its fall
    winners: dict[str, tuple[str | None, str]]  # column -> (winner, the moment it was settled)
    more: dict[str, list[tuple[str, Deed]]]  # column -> (actor, deed) of the policies' declarations past the plan
    differences: dict[str, list[Difference]]


def side_by_side(played: Played, saids: Sequence[Said], replays: Sequence[Replayed]) -> SideBySide:
    """The played fight beside its ``replays``."""
    first = f"{played.ruleset} (played)"
    columns = [first] + [r.ruleset for r in replays]
    sides = played.side_of
    rows = [Row(s.actor, s.index, words(s.entry), s.auto, _target(s.entry), sides.get(s.actor, "")) for s in saids]
    by_key = {(r.actor, r.index): r for r in rows}
    deeds, _more = _deeds(played.events, played=True)
    for key, row in by_key.items():
        row.deeds[first] = deeds.get(key, Deed("pending", "declared; nothing done before the end"))
    falls: dict[str, dict[str, Fall]] = {}
    winners = {first: _winner(played.events, played.result.final.winner)}
    more: dict[str, list[tuple[str, Deed]]] = {}
    _falls(played.events, first, falls)
    for rp in replays:
        col = rp.ruleset
        events = rp.fight.events
        got, extra = _deeds(events, played=False)
        more[col] = extra
        end = events[-1].at if events else "the start"
        for key, row in by_key.items():
            r = rp.replaced.get(key)
            if r is not None:
                row.instead[col] = words(r.instead)
            deed = got.get(key)
            if deed is None:
                deed = Deed("unreached", f"not reached: the fight was over at {end}") if rp.reached(row.actor) <= \
                    row.index else Deed("pending", "declared; nothing done before the end")
            row.deeds[col] = deed
        winners[col] = _winner(events, rp.fight.result().final.winner)
        _falls(events, col, falls)
    differences = {rp.ruleset: _differences(first, rp, rows, falls, winners) for rp in replays}
    return SideBySide(columns, rows, falls, winners, more, differences)


def _target(entry: Mapping[str, Any]) -> str | None:
    for key in ("melee", "missile", "at"):
        value = entry.get(key)
        if isinstance(value, str):
            return value
    return None


def _deeds(events: Sequence[Event], *, played: bool) -> tuple[dict[tuple[str, int], Deed], list[tuple[str, Deed]]]:
    """Each declaration's deed, by (actor, its number): in the played fight every declaration made counts (the
    policy's too, as ``said`` counts them); in a replay its plan's entries (``consumed``), and the policy's past them
    go to the second list."""
    made: dict[tuple[str, int] | tuple[str, str, int], list[int]] = {}
    order: list[tuple[str, int] | tuple[str, str, int]] = []
    current: dict[str, tuple[str, int] | tuple[str, str, int]] = {}
    counts: dict[str, int] = {}
    extra: dict[str, int] = {}
    for seq, e in enumerate(events):
        actor = e.actor
        if actor is None:
            continue
        if isinstance(e, Declare):
            decl = e.decl
            if decl is None or e.continuing or (not e.consumed and decl.action == "move" and decl.mode == "flee"):
                continue
            key: tuple[str, int] | tuple[str, str, int]
            if e.consumed or played:
                key = (actor, counts.get(actor, 0))
                counts[actor] = counts.get(actor, 0) + 1
            else:
                key = (actor, "policy", extra.get(actor, 0))
                extra[actor] = extra.get(actor, 0) + 1
            current[actor] = key
            made[key] = [seq]
            order.append(key)
        elif e.kind in _DEEDS and actor in current and not getattr(e, "opportunity", False):
            made[current[actor]].append(seq)
    out: dict[tuple[str, int], Deed] = {}
    policy: list[tuple[str, Deed]] = []
    for key in order:
        deed = _deed(events, made[key])
        if len(key) == 2:
            out[(key[0], int(key[1]))] = deed
        else:
            policy.append((key[0], deed))
    return out, policy


def _deed(events: Sequence[Event], seqs: list[int]) -> Deed:
    declare = events[seqs[0]]
    done = [events[s] for s in seqs[1:]]
    if not done:
        decl = declare.decl if isinstance(declare, Declare) else None
        if decl is not None and decl.action == "none":
            return Deed("done", "no action", declare.at, declare.tick, seqs[0])
        fell = next((e for e in events[seqs[0]:] if isinstance(e, Down) and e.actor == declare.actor), None)
        what = f"declared; fell at {fell.at}, before acting" if fell is not None else \
            "declared; the fight was over before it came"
        return Deed("pending", what, declare.at, declare.tick, seqs[0])
    head = done[0]
    cancelled = all(isinstance(e, Impossible) for e in done)
    words = [w + (f" at {e.at}" if e.at != head.at and isinstance(e, (Cast, SpellRuined)) else "")
             for w, e in ((_words(e), e) for e in done) if w]
    attacks = tuple((bool(e.hit), int(e.damage)) for e in done if isinstance(e, Melee))
    detail = next((e.detail for e in done if isinstance(e, Melee)), None) or head.detail
    return Deed("cancelled" if cancelled else "done", "; ".join(words) or head.kind, head.at, head.tick, seqs[1],
                head.why or getattr(head, "detail", None), detail, attacks, tuple(seqs[1:]))


def _words(e: Event) -> str:
    if isinstance(e, Melee):
        d20 = next((r.value for r in e.rolls if r.purpose == "attack"), None)
        hit = f"hit {e.target} for {e.damage}" if e.hit else f"missed {e.target}"
        return hit + (f" (d20 {d20})" if d20 is not None else "")
    if isinstance(e, Cast):
        return f"{e.spell} took effect"
    if isinstance(e, CastStart):
        return f"began {e.spell}"
    if isinstance(e, SpellLost):
        return f"{e.spell} lost"
    if isinstance(e, SpellRuined):
        return f"{e.spell} ruined"
    if isinstance(e, Move):
        return "fled" if e.mode == "flee" else f"moved {e.feet} ft"
    if isinstance(e, Impossible):
        return f"cancelled ({(e.why or e.detail or 'impossible').split(': ')[0]})"
    return e.kind


def _falls(events: Sequence[Event], column: str, falls: dict[str, dict[str, Fall]]) -> None:
    """Each fall of the fight, with the deed that felled it: the last before it that hurt the fallen."""
    last: dict[str, tuple[str | None, str | None]] = {}
    for seq, e in enumerate(events):
        if isinstance(e, Melee) and e.hit and e.damage and e.target:
            last[e.target] = (f"{e.actor}'s {e.kind}", e.detail)
        elif isinstance(e, Cast):
            for name in e.effects:
                last[name] = (f"{e.actor}'s {e.spell}", e.detail)
        elif isinstance(e, Wound) and e.target:
            last[e.target] = (f"{e.actor}'s blow landing", e.detail)
        elif isinstance(e, Damage) and e.target:
            last[e.target] = ("the referee's damage", e.detail)
        elif isinstance(e, Down) and e.actor is not None:
            by, detail = last.get(e.actor, (None, None))
            falls.setdefault(e.actor, {}).setdefault(column, Fall(e.at, e.tick, seq, by, detail))


def _winner(events: Sequence[Event], winner: str | None) -> tuple[str | None, str]:
    if not events:
        return winner, "before the fight"
    downs = [e for e in events if isinstance(e, Down)]
    settled = downs[-1].at if winner is not None and downs else events[-1].at
    return winner, settled


def _differences(first: str, rp: Replayed, rows: Sequence[Row], falls: Mapping[str, Mapping[str, Fall]],  # noqa: C901
                 winners: Mapping[str, tuple[str | None, str]]) -> list[Difference]:
    col = rp.ruleset
    out: list[Difference] = []
    for note in rp.notes:
        if note.kind != "replaced":
            out.append(Difference("dropped", note.text))
    for r in rp.replaced.values():
        out.append(Difference("replaced", f"{r.actor}'s {ordinal(r.index + 1)} declaration, `{words(r.entry)}`: "
                                          f"the policy's `{words(r.instead)}` instead, at {r.at}", r.reason))
    for row in rows:
        a, b = row.deeds[first], row.deeds[col]
        who = f"{row.actor}'s {ordinal(row.index + 1)} declaration, `{row.said}`"
        if (row.actor, row.index) in rp.replaced:
            continue
        if b.status == "unreached" and a.status != "unreached":
            out.append(Difference("unreached", f"{who}: {b.what}", _end_reason(winners[col])))
        elif b.status != a.status and "cancelled" in (a.status, b.status):
            reason = b.why or "" if b.status == "cancelled" else _both(b.why, b.detail)
            out.append(Difference("cancelled" if b.status == "cancelled" else "made", f"{who}: {b.what} (as played: "
                                  f"{a.what})", reason))
        elif a.status == "done" and b.status == "done" and a.outcome != b.outcome:
            count = (f"; {len(b.outcome)} attack{'s' if len(b.outcome) != 1 else ''} of it here, {len(a.outcome)} "
                     "as played" if len(a.outcome) != len(b.outcome) else "")
            out.append(Difference("outcome", f"{who}: {b.what} (as played: {a.what}{count})", _both(b.why, b.detail)))
    out += _order(first, col, rows)
    for name, by in falls.items():
        fa, fb = by.get(first), by.get(col)
        if fa is not None and fb is None:
            out.append(Difference("fall", f"{name} does not fall (as played: fell at {fa.at}, to {fa.by})", ""))
        elif fb is not None and fa is None:
            out.append(Difference("fall", f"{name} falls at {fb.at}, to {fb.by} (as played: stood)", fb.detail or ""))
        elif fa is not None and fb is not None and fa.by != fb.by:
            out.append(Difference("fall", f"{name} falls to {fb.by} at {fb.at} (as played: to {fa.by})",
                                  fb.detail or ""))
    (wa, _), (wb, settled) = winners[first], winners[col]
    if wa != wb:
        out.append(Difference("winner", f"{_won(wb)}, settled at {settled} (as played: {_won(wa)})", ""))
    return out


def _order(first: str, col: str, rows: Sequence[Row]) -> list[Difference]:
    """Where two declarations of foes bearing on each other (one at the other's actor) came in another order."""
    out = []
    done = [r for r in rows if r.deeds[first].tick is not None and r.deeds[col].tick is not None
            and r.deeds[first].status == "done" and r.deeds[col].status == "done" and col not in r.instead]
    for i, p in enumerate(done):
        for q in done[i + 1:]:
            if p.side == q.side or not (p.target == q.actor or q.target == p.actor):
                continue
            a, b = _cmp(p.deeds[first].tick, q.deeds[first].tick), _cmp(p.deeds[col].tick, q.deeds[col].tick)
            if a == b:
                continue
            rel = {-1: "before", 0: "together with", 1: "after"}
            why = "; ".join(f"{r.actor}'s: {r.deeds[col].why}" for r in (p, q) if r.deeds[col].why)
            out.append(Difference("order", f"{p.actor}'s `{p.said}` comes {rel[b]} {q.actor}'s `{q.said}` "
                                           f"(as played: {rel[a]})", why))
    return out


def _both(why: str | None, detail: str | None) -> str:
    """A deed's reasons: why it came then, and its arithmetic (once, when they are the same words)."""
    return "; ".join(dict.fromkeys(x for x in (why, detail) if x))


def _cmp(a: Tick | None, b: Tick | None) -> int:
    assert a is not None and b is not None
    return (a > b) - (a < b)


def _end_reason(winner: tuple[str | None, str]) -> str:
    won, settled = winner
    return f"{_won(won)} at {settled}"


def _won(side: str | None) -> str:
    return f"{side} won" if side is not None else "no side won"
