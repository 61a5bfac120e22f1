"""What each screen shows, as plain data: everything for the referee; for a player, only what its character
could know (CONTRACT "The table's web page"). A player's view is built from what it may see and nothing else,
so nothing hidden can reach its page or its live frames: an enemy's hit points are never read into it, nor an
enemy's declaration before its character heard it, nor what an enemy will do next.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from rich.console import Console

from affray.drive import DeclareQuestion, DieQuestion, Question
from affray.engine.events import Event
from affray.engine.fight import Fight, describe_declaration
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.printable import printable as p
from affray.render.status import morale_due, next_lines, status_table, still_to_come, warn_opportunity
from affray.render.timeline import event_line, why_line
from affray.rulesets import find_ruleset
from affray.table import wins
from affray.web.table import Table

__all__ = ["Ask", "Line", "Row", "View", "player_view", "referee_view"]

#: Enemy events a player sees only as their line (no detail, no why): what they tell is the enemy's intent.
_INTENT = frozenset({"delay", "wait", "replan", "declare"})
_HP = re.compile(r"\bhp\b", re.IGNORECASE)


@dataclass(frozen=True)
class Line:
    """One event of the timeline: its heading (a new round), its line, its why."""

    seq: int
    kind: str
    text: str
    why: str | None = None
    heading: str | None = None


@dataclass(frozen=True)
class Row:
    """One combatant as a screen shows it (``hp`` None: not known to this viewer)."""

    name: str
    side: str
    hp: str | None
    state: str
    casting: str
    engaged: str
    conditions: str
    mine: bool = False


@dataclass(frozen=True)
class Ask:
    """The question a viewer may answer: a declaration (its choices as buttons) or a die."""

    id: int
    what: str
    title: str
    buttons: list[tuple[str, str]] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    die: str = ""
    low: int = 1
    high: int = 20
    attack: bool = False


@dataclass(frozen=True)
class View:
    viewer: str  # "referee" or the player character's name
    rev: int
    title: str
    now: str
    next: list[str]
    rows: list[Row]
    timeline: list[Line]
    ask: Ask | None
    waiting: str | None
    over: str | None
    notes: list[str] = field(default_factory=list)  # morale due, pending effects, warnings (the referee's)
    dice: dict[str, str] = field(default_factory=dict)
    sides: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    paused: str | None = None  # why the fight waits for the referee (a round's declarations come next...)


def _state(f: Fighter) -> str:
    if f.down:
        return "unconscious" if f.unconscious else "down"
    return "fled" if f.fled else "routed" if f.routed else "standing"


def _headings(fight: Fight[Any]) -> Any:
    heading = find_ruleset(fight.ruleset.id).heading
    return lambda e: heading(e.tick) if e.round is None else f"Round {e.round}"


def _line(e: Event, seq: int, title: str | None, shown: bool | str) -> Line:
    """An event's line and why: whole (True), without detail or why where they may tell what the viewer may
    not know (False: an enemy's event), or without a detail naming hit points ("scrub": a blow at an enemy)."""
    if shown is not True and e.detail and (shown is False or _HP.search(e.detail)):
        e = e._replace(detail=None)
    why = why_line(e)
    if shown is False and (e.kind in _INTENT or (e.why and _HP.search(e.why))):
        why = None
    return Line(seq, e.kind, event_line(e, seq).plain.strip(), why.plain if why else None, title)


def _timeline(fight: Fight[Any], keep: Any) -> list[Line]:
    """The events ``keep`` lets through (None: hidden; else as ``_line`` shows them), newest first, a heading
    where the round (or the ruleset's own unit) changes."""
    heading = _headings(fight)
    out: list[Line] = []
    last: str | None = None
    for seq, e in enumerate(fight.events):
        shown = keep(seq, e)
        if shown is None:
            continue
        title = heading(e)
        out.append(_line(e, seq, title if title != last else None, shown))
        last = title if title is not None else last
    return out[::-1]


def _ask(q: Question, fight: Fight[Any]) -> Ask:
    if isinstance(q, DieQuestion):
        whose = f" ({q.actor})" if q.actor else ""
        what = f"{q.actor} attacks {q.target} ({q.kind}): the d20" if q.attack else f"{q.die} for {q.purpose}{whose}"
        return Ask(q.id, "die", p(what), die=q.die, low=q.count, high=q.count * q.sides, attack=q.attack)
    c = q.choices
    buttons = [(f"melee {t}", f"melee {t}") for t in c["melee"]]
    buttons += [(f"missile {t}", f"missile {t}") for t in c.get("missile", [])]
    buttons += [(f"cast {s}", f"cast {s}") for s in c.get("cast", [])]
    buttons += [("move", "move"), ("withdraw", "withdraw"), ("wait", "wait"), ("nothing", "none")]
    known = [p(f"{name}: {describe_declaration(d, fight.state.fighters[name])}") for name, d in q.known
             if name in fight.state.fighters]
    return Ask(q.id, "declare", p(f"{q.actor} ({q.side}) declares, {q.at}"), [(p(a), p(b)) for a, b in buttons],
               known)


def referee_view(table: Table, rev: int) -> View:
    """Everything: what the console shows at a prompt, the whole timeline with each why, any question."""
    d = table.session.drive
    fight = d.fight
    rows = status_table(fight, d.coming)[1:]
    by_name = {f.name: f for f in fight.state.fighters.values()}
    shown = [Row(r[0], r[1], r[2], r[3] or "standing", r[4], r[5], r[6], mine=by_name[r[0]].pc if r[0] in by_name
                 else False) for r in rows]
    notes = []
    sink = Console(file=io.StringIO(), width=200, highlight=False, color_system=None)
    if d.coming is not None:
        warn_opportunity(fight, d.coming, sink)
    notes += [line for line in sink.file.getvalue().splitlines() if line.strip()]  # type: ignore[attr-defined]
    for s in still_to_come(fight, d.coming):
        if s.kind == "delay" or s.kind in fight.ruleset.own_kinds:
            notes.append(p(f"pending: {s.actor.name}: {s.kind} at {s.at}"))
    notes += [p(f"morale due: {side} ({' and '.join(t)}, G-07)") for side, t in morale_due(fight).items()]
    q = table.pending
    return View("referee", rev, p(f"fight {table.game.id}: {PurePath(table.game.file).name} under {fight.ruleset.id}"),
                p(fight.now_at), [line.plain for line in next_lines(fight, d.coming, d.declaring)], shown,
                _timeline(fight, lambda seq, e: True), _ask(q, fight) if q is not None else None, None,
                _over(table, None), notes, dict(d.dice.by), list(fight.state.sides), list(fight.state.fighters),
                _paused(table) if q is None else None)


def _paused(table: Table) -> str | None:
    """Where the fight waits for the referee, in words (a new round's declarations come next: the moment to say
    what changes)."""
    pause = table.session.paused
    declaring = table.session.drive.declaring
    if pause is None or table.over:
        return None
    if pause.why == "round" and declaring is not None:
        return p(f"{declaring[1]}: declarations come next (NAME: DECLARATION changes one; Round goes on)")
    if pause.why == "provokes" and pause.step is not None:
        return p(f"{pause.step.actor.name}'s move is about to resolve: it provokes (see the warning)")
    return None


def player_view(table: Table, pc: str, rev: int) -> View:
    """What ``pc`` could know: its own and its allies' state, enemies as seen across the field (no hit points,
    no casting's end), the timeline as it saw it, its own side's coming steps, and its own questions."""
    d = table.session.drive
    fight = d.fight
    me = fight.state.fighters[pc]
    side = me.side
    heard = table.session.heard.get(pc, set())

    def keep(seq: int, e: Event) -> bool | str | None:
        actor = fight.state.fighters.get(e.actor or "")
        target = fight.state.fighters.get(getattr(e, "target", None) or "")
        if actor is not None and actor.side != side:  # an enemy's: its declarations only once heard
            if e.kind in ("declare", "replan"):
                return True if seq in heard and e.kind == "declare" else None
            return False
        if target is not None and target.side != side:
            return "scrub" if actor is not None else False  # the referee's hand on an enemy: no amounts
        # an enemy side's morale (actor None, its side named): passed or failed, not its roll against its score
        return actor is not None or getattr(e, "side", None) in (None, side)

    completes = {s.actor.name: s.at for s in still_to_come(fight, d.coming)
                 if s.kind == "cast"}
    rows = []
    for f in fight.state.fighters.values():
        held = [(c, h) for c, h in f.conditions.items() if fight.now < h.until]
        if f.side == side:
            casting = (f.casting or "") + (f" (completes {completes[f.name]})" if f.casting and f.name in completes
                                           else "")
            conditions = ", ".join(f"{c} (to {h.words})" if h.words else c for c, h in held)
            rows.append(Row(p(f.name), p(f.side), f"{f.hp}/{f.spec.hp}", _state(f), p(casting),
                            p(", ".join(sorted(f.engaged))), p(conditions), mine=f.name == pc))
        else:
            rows.append(Row(p(f.name), p(f.side), None, _state(f), p(f.casting or ""), p(", ".join(sorted(f.engaged))),
                            p(", ".join(c for c, _ in held))))
    steps: list[Step] = still_to_come(fight, d.coming)
    nxt = [p(f"{s.actor.name}: {s.kind}{f' {s.spell.name}' if s.spell else ''}"
             f"{f' -> {s.target}' if s.target else ''} at {s.at}") for s in steps if s.actor.side == side][:4]
    q = table.pending
    ask = _ask(q, fight) if q is not None and table.session.entitled(pc, q) else None
    waiting = None if q is not None or table.over else "waiting for the referee to go on"
    if q is not None and ask is None:
        who = q.actor if isinstance(q, DeclareQuestion) else q.actor or ""
        asked = fight.state.fighters.get(who)
        waiting = p(f"waiting for {who}") if asked is not None and asked.side == side else "waiting for the referee"
    return View(p(pc), rev, p(f"{pc} ({side}), under {fight.ruleset.id}"), p(fight.now_at), nxt, rows,
                _timeline(fight, keep), ask, waiting, _over(table, side))


def _over(table: Table, side: str | None) -> str | None:
    """The fight's end as the viewer may see it (None: not over)."""
    if not table.over:
        return None
    final = table.session.fight.state.final()
    return p(f"the fight is over: {wins(final.winner)}" if final.winner else "the fight is over: no winner")
