"""The sequence board: one window of a fight (a round, a cycle, a run of phases) drawn in the ruleset's own
moments, as plain data; ``board_svg`` draws it.

Columns are the ruleset's moments (``board_clock``); there is a lane per combatant, under a lane per side (its
morale) and one for the whole table (surprise, initiative). Each event is a mark in its actor's lane, in the
column of its tick; the steps the fight has placed and not yet resolved are marks too, drawn as still to come;
a casting runs as a bar from its start to its completion (or its ruin), a condition from its start to its end,
and a fallen combatant's lane is barred from its fall on.

What a board shows is what its caller gives it: the events as the viewer may see them (``Seen``: their lines and
whys as the timeline shows them), the placed steps it may know, and the combatants whose ends it may not know
(``secret``: an enemy's casting completes, and its conditions end, at a moment not shown). Nothing else of the
fight is read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from affray.engine.events import Condition, Event, Expire, Initiative, Morale, Move, Tick
from affray.engine.fight import Fight
from affray.engine.step import Step
from affray.errors import OptionError
from affray.printable import printable as p
from affray.render.board_clock import LATER, Column, Context, Layout, layout_for
from affray.render.status import still_to_come
from affray.render.timeline import event_line, why_line

__all__ = ["ALL", "Bar", "Board", "Column", "Lane", "Mark", "Seen", "Who", "build_board", "fight_board", "seen_all",
           "windows"]

#: The lane of what concerns every side (surprise, initiative) or no one combatant.
ALL = "all sides"
#: Step kinds drawn as coming actions (a ruleset's bookkeeping steps, such as a condition's end, are not).
_PLACED = frozenset({"move", "missile", "melee", "cast", "cast-start", "misc", "delay", "wait", "wound"})
_CLOSES_CASTING = frozenset({"cast", "spell-ruined", "spell-lost"})
_OUT = frozenset({"down", "leave", "surrender"})


@dataclass(frozen=True)
class Seen:
    """One event as a viewer may see it: its number, the event (scrubbed as its timeline shows it), its line and
    its why (with its moment) as the timeline shows them."""

    seq: int
    event: Event
    text: str
    why: str | None


@dataclass(frozen=True)
class Who:
    """A combatant as a lane: its name and side; ``ours``: of the viewer's side (the referee's: a player
    character's side)."""

    name: str
    side: str
    ours: bool


@dataclass(frozen=True)
class Lane:
    """A row of the board: ``kind`` "all" (the table), "side" (a side's own events) or "fighter"; ``note`` a word
    of this window (Combat II's track: "W" winner, "L" loser)."""

    id: str
    label: str
    kind: str
    side: str | None = None
    ours: bool = False
    note: str = ""
    out: bool = False


@dataclass(frozen=True)
class Mark:
    """An event (``seq``) or a step still to come (``placed``) in a lane's column: ``kind`` its kind, ``hit``
    an attack's result, ``passed`` a check's; ``title`` what it shows on hover or tap (its line and why).
    ``declared``: a placed mark of an action declared but not yet placed in time by its ruleset (it waits for the
    point's other declarations, or for initiative), in the column of its declaration."""

    lane: str
    column: int
    kind: str
    tick: Tick
    title: str
    seq: int | None = None
    placed: bool = False
    hit: bool | None = None
    passed: bool | None = None
    declared: bool = False  # an action declared, not yet placed in time: drawn in its declaration's column
    feet: str = ""  # a closing or a charge: the feet it covers ("40 ft"), written beside its mark


@dataclass(frozen=True)
class Bar:
    """A span in a lane, in column units (0 the first column's middle; -0.5 the window's left edge, where a bar
    begun earlier enters): a "casting", a "condition" or "out" (fallen). ``open_end``: its end is not known to this
    viewer (or not in this window); ``placed_end``: its end is a step still to come; ``ruined``: a casting that
    ended in ruin."""

    lane: str
    kind: str
    start: float
    end: float
    label: str
    title: str
    open_start: bool = False
    open_end: bool = False
    placed_end: bool = False
    ruined: bool = False


@dataclass(frozen=True)
class Board:
    """One window of the fight: its columns, lanes, marks and bars; ``now`` the column of the latest event (a live
    board's), or None."""

    ruleset: str
    window: int
    title: str
    columns: list[Column]
    lanes: list[Lane]
    marks: list[Mark] = field(default_factory=list)
    bars: list[Bar] = field(default_factory=list)
    now: int | None = None


def seen_all(events: Sequence[Event]) -> list[Seen]:
    """Every event whole, as the referee and ``affray run`` see them."""
    out = []
    for seq, e in enumerate(events):
        why = why_line(e)
        out.append(Seen(seq, e, event_line(e, seq).plain, why.plain if why is not None else None))
    return out


def windows(ruleset: str, events: Iterable[Event]) -> list[int]:
    """The windows a fight's events fall in, in order (``affray run --board`` draws each)."""
    layout = layout_for(ruleset)
    found = sorted({layout.window(e.tick) for e in events if e.tick})
    return found or [1]


@dataclass
class _Span:
    lane: str
    kind: str
    start: Tick
    label: str
    title: str
    end: Tick | None = None
    placed_end: bool = False
    ruined: bool = False
    hidden_end: bool = False



def window_there(ruleset: str, found: Sequence[int], window: int) -> None:
    """``--round N`` of ``--board`` and ``--map``: OptionError when the fight (its windows ``found``) has no such
    window."""
    if window not in found:
        layout = layout_for(ruleset)
        have = f"{found[0]}-{found[-1]}" if len(found) > 1 else str(found[0])
        raise OptionError(f"--round {window}: this fight has no {layout.title(window)} (it has {layout.unit} {have})")


def _lane_of(e: Event, lanes: Mapping[str, Lane]) -> str:
    if e.actor is not None and e.actor in lanes:
        return e.actor
    target = getattr(e, "target", None)
    if e.actor is None and target is not None and target in lanes:
        return str(target)  # the referee's hand on a combatant
    if isinstance(e, Morale) and e.side is not None and f"side:{e.side}" in lanes:
        return f"side:{e.side}"
    return ALL


def _title(s: Seen) -> str:
    """A mark's line, then its moment and why (on a line of their own: names come from files, printable)."""
    return p(" ".join(s.text.split())) + "\n" + p(s.why if s.why else f"at {s.event.at}")


def _feet(e: Event) -> str:
    """A closing's or a charge's feet, as its mark shows them (a move on a target, or a charge)."""
    if isinstance(e, Move) and e.feet and (e.target is not None or e.mode == "charge"):
        return f"{e.feet} ft" + (" charge" if e.mode == "charge" else "")
    return ""


def _step_title(step: Step) -> str:
    what = step.kind + (f" {step.spell.name}" if step.spell is not None else "")
    target = f" -> {step.target}" if step.target else ""
    weapon = f" ({step.weapon.name})" if step.weapon is not None and step.kind in ("melee", "missile") else ""
    why = f" Why: {step.why}" if step.why else ""
    return p(f"coming: {step.actor.name}: {what}{target}{weapon}") + "\n" + p(f"at {step.at}.{why}")


def _spans(seen: Sequence[Seen], steps: Sequence[Step], lanes: Mapping[str, Lane],  # noqa: C901
           secret: frozenset[str]) -> list[_Span]:
    """Castings, conditions and falls over the whole fight (a bar of this window may have begun earlier)."""
    done: list[_Span] = []
    casting: dict[str, _Span] = {}
    held: dict[tuple[str, str], _Span] = {}
    out: dict[str, _Span] = {}
    for s in seen:
        e = s.event
        actor = e.actor or ""
        if e.kind == "cast-start" and actor in lanes:
            spell = getattr(e, "spell", None) or "a spell"
            casting[actor] = _Span(actor, "casting", e.tick, p(spell), p(f"{actor} casts {spell}: begun at {e.at}"))
        elif (e.kind in _CLOSES_CASTING or (e.kind == "impossible" and getattr(e, "spell", None))) and actor in casting:
            span = casting.pop(actor)
            span.end, span.ruined = e.tick, e.kind != "cast"
            span.title += p(f"; {'takes effect' if e.kind == 'cast' else e.kind.replace('-', ' ')} at {e.at}")
            done.append(span)
        elif isinstance(e, Condition) and e.target in lanes:
            target = e.target
            assert target is not None
            hidden = target in secret
            until = "" if hidden or not e.until else f", to {e.until}"
            span = _Span(target, "condition", e.since or e.tick, p(e.condition),
                         p(f"{target}: {e.condition}{f' ({e.spell})' if e.spell else ''} from {e.at}{until}"),
                         end=None if hidden else e.end, hidden_end=hidden)
            old = held.pop((target, e.condition), None)
            if old is not None:
                old.end, old.hidden_end = e.tick, False
                done.append(old)
            held[(target, e.condition)] = span
        elif isinstance(e, Expire) and e.condition and (e.target or actor) in lanes:
            ended = held.pop((e.target or actor, e.condition), None)
            if ended is not None:
                span = ended
                span.end, span.hidden_end = e.tick, False
                span.title += p(f"; ended at {e.at}")
                done.append(span)
        if e.kind in _OUT and actor in lanes and actor not in out:
            for key in [k for k in held if k[0] == actor]:
                span = held.pop(key)
                span.end, span.hidden_end = e.tick, False
                done.append(span)
            if actor in casting:
                span = casting.pop(actor)
                span.end, span.ruined = e.tick, True
                done.append(span)
            out[actor] = _Span(actor, "out", e.tick, "out", p(f"{actor} is out of the fight ({e.kind}) from {e.at}"))
    for name, span in casting.items():
        coming = next((st for st in steps if st.actor.name == name and st.kind == "cast"), None)
        if coming is not None and name not in secret:
            span.end, span.placed_end = coming.tick, True
            span.title += p(f"; completes at {coming.at}")
        else:
            span.hidden_end = True
        done.append(span)
    return done + list(held.values()) + list(out.values())


#: What ends a declared action's wait to be placed: the action itself, or what made it impossible.
_SETTLED = frozenset({"impossible", "spell-ruined", "spell-lost", "delay", *_OUT})
#: A declaration's action as the mark of its step (``none``: no mark).
_ACTS = frozenset({"melee", "missile", "cast", "move", "misc", "wait"})


def _declared(seen: Sequence[Seen], placed: set[str], layout: Layout, window: int) -> list[tuple[Seen, str]]:
    """The declarations of ``window`` whose action is neither placed in time (no step of its combatant in
    ``placed``) nor done: each combatant's last, with the kind of the step it will make. What the board shows at a
    point's declarations, before the ruleset places them (once they are all made, or initiative is rolled)."""
    last: dict[str, tuple[Seen, str]] = {}
    for s in seen:
        e = s.event
        actor = e.actor
        if isinstance(e, Morale) and e.passed is False and not e.rally:  # routed: what they declared is dropped
            for name in e.members:
                last.pop(name, None)
        if actor is None or not e.tick or layout.window(e.tick) != window:
            continue
        if e.kind == "declare":
            decl = getattr(e, "decl", None)
            action = decl.action if decl is not None else "none"
            if action in _ACTS and actor not in placed:
                last[actor] = (s, action)
            else:
                last.pop(actor, None)
        elif actor in last and (e.kind == last[actor][1] or e.kind in _SETTLED):
            del last[actor]
    return list(last.values())


def _declared_title(s: Seen) -> str:
    return p(" ".join(s.text.split())) + "\n" + p(f"declared at {s.event.at}: not placed in time yet (its moment "
                                                  "is set once the point's declarations are all made)")


def build_board(ruleset: str, options: Mapping[str, Any], sides: Sequence[str], fighters: Sequence[Who],
                seen: Sequence[Seen], steps: Sequence[Step] = (), *, window: int | None = None,
                now: Tick | None = None, secret: Iterable[str] = ()) -> Board:
    """The board of ``window`` (None: the window of ``now``, else of the last event, else the first)."""
    layout = layout_for(ruleset)
    hidden = frozenset(secret)
    if window is None:
        last = now if now else (seen[-1].event.tick if seen else ())
        window = layout.window(last) if last else 1
    ranks: Mapping[str, int] = {}
    tracks: Mapping[str, str] = {}
    for s in seen:
        if isinstance(s.event, Initiative) and s.event.tick and layout.window(s.event.tick) == window:
            ranks, tracks = s.event.ranks, s.event.tracks
    ctx = Context(options, tuple(sides), ranks)
    lanes = _lanes(sides, fighters, tracks, [s for s in seen if s.event.tick and layout.window(s.event.tick) <= window])
    by_id = {lane.id: lane for lane in lanes}
    placed = [st for st in steps if st.kind in _PLACED and not st.cancelled and st.actor.name in by_id]
    spans = _spans(seen, placed, by_id, hidden)
    inside = [s.event.tick for s in seen if s.event.tick and layout.window(s.event.tick) == window]
    inside += [st.tick for st in placed if layout.window(st.tick) == window]
    inside += [t for sp in spans for t in (sp.start, sp.end) if t and layout.window(t) == window]
    columns = layout.columns(window, inside, ctx)
    beyond = any(layout.window(st.tick) > window for st in placed) or any(
        sp.end and layout.window(sp.end) > window and layout.window(sp.start) <= window for sp in spans)
    if beyond:
        columns.append(Column(LATER, "…", "later", "after this window"))
    place = _Placer(layout, window, columns, now)
    marks = [Mark(_lane_of(s.event, by_id), place.index(s.event.tick), s.event.kind, s.event.tick, _title(s), s.seq,
                  hit=getattr(s.event, "hit", None) if s.event.kind in ("melee", "missile") else None,
                  passed=getattr(s.event, "passed", None), feet=_feet(s.event))
             for s in seen if s.event.tick and layout.window(s.event.tick) == window
             and s.event.kind not in ("condition", "expire")]
    marks += [Mark(st.actor.name, place.index(st.tick), st.kind, st.tick, _step_title(st), placed=True)
              for st in placed if layout.window(st.tick) >= window]
    marks += [Mark(s.event.actor or ALL, place.index(s.event.tick), kind, s.event.tick, _declared_title(s),
                   placed=True, declared=True)
              for s, kind in _declared(seen, {st.actor.name for st in placed}, layout, window)]
    bars = [b for b in (place.bar(sp) for sp in spans) if b is not None]
    now_col = place.index(now) if now and layout.window(now) == window else None
    return Board(ruleset, window, layout.title(window), columns, lanes, [m for m in marks if m.column >= 0], bars,
                 now_col)


def _lanes(sides: Sequence[str], fighters: Sequence[Who], tracks: Mapping[str, str],
           seen: Sequence[Seen]) -> list[Lane]:
    fallen = {s.event.actor for s in seen if s.event.kind in _OUT}
    lanes = [Lane(ALL, ALL, "all")]
    for side in sides:
        members = [f for f in fighters if f.side == side]
        ours = any(f.ours for f in members)
        lanes.append(Lane(f"side:{side}", p(side), "side", side, ours))
        for f in members:
            track = tracks.get(f.name, "")
            lanes.append(Lane(f.name, p(f.name), "fighter", side, f.ours, {"winner": "W", "loser": "L"}.get(track, ""),
                              f.name in fallen))
    return lanes


class _Placer:
    """Ticks to column positions in one window."""

    def __init__(self, layout: Layout, window: int, columns: list[Column], now: Tick | None) -> None:
        self.layout = layout
        self.window = window
        self.index_of = {c.key: i for i, c in enumerate(columns)}
        self.later = self.index_of.get(LATER)
        self.count = len(columns)
        self.now = now if now and layout.window(now) == window else None

    def index(self, tick: Tick) -> int:
        """The column of ``tick`` (-1 before the window; the later column, or the last, after it)."""
        w = self.layout.window(tick)
        if w < self.window:
            return -1
        if w > self.window:
            return self.later if self.later is not None else self.count - 1
        return self.index_of[self.layout.key(tick)]

    def bar(self, sp: _Span) -> Bar | None:
        """A span as a bar of this window, or None when it lies wholly outside it."""
        first = self.layout.window(sp.start)
        if first > self.window or (sp.end is not None and self.layout.window(sp.end) < self.window):
            return None
        open_start = first < self.window
        start = -0.5 if open_start else float(self.index(sp.start))
        right = (self.later if self.later is not None else self.count) - 0.5
        if sp.end is not None:
            end = float(self.index(sp.end)) if self.layout.window(sp.end) == self.window else (
                float(self.later) if self.later is not None else right)
            open_end = self.layout.window(sp.end) > self.window and self.later is None
        else:
            end = float(self.index(self.now)) if self.now is not None and sp.kind != "out" else right
            open_end = True
        return Bar(sp.lane, sp.kind, start, max(end, start), sp.label, sp.title, open_start, open_end and
                   sp.kind != "out", sp.placed_end, sp.ruined)


def fight_board(fight: Fight[Any], window: int | None = None, *, live: bool = False) -> Board:
    """A fight's board as the referee sees it: every event, every placed step (``window`` None: the latest);
    ``live``: with the moment it has reached."""
    state = fight.state
    who = [Who(f.name, f.side, f.pc) for f in state.fighters.values()]
    return build_board(fight.ruleset.id, fight.ruleset.all_options(), list(state.sides), who, seen_all(fight.events),
                       still_to_come(fight), window=window, now=(fight.now or None) if live else None)
