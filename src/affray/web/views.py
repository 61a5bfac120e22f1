"""What each screen shows, as plain data: everything for the referee; for a player, only what its character
could know; for the table view (a shared screen), what the players' side could know (CONTRACT "The table's web
page"). A player's view is built from what it may see and nothing else, so nothing hidden can reach its page or
its live frames: an enemy's hit points are never read into it, nor an enemy's declaration before its character
heard it, nor what an enemy will do next, nor when an enemy's spell completes or its conditions end. The board
(``affray.render.board``) is drawn from the same events, scrubbed the same way, and the same steps.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from rich.console import Console

from affray.drive import DeclareQuestion, DieQuestion, Question
from affray.engine.events import Condition, Event, Morale
from affray.engine.fight import Fight, describe_declaration
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.model.encounter import MOVE_MODES
from affray.printable import printable as p
from affray.render.board import Board, Seen, Who, build_board
from affray.render.board_clock import layout_for
from affray.render.map_svg import map_svg, map_tokens
from affray.render.status import morale_due, next_lines, still_to_come, warn_opportunity
from affray.render.timeline import event_line, why_line
from affray.rulesets import find_ruleset
from affray.table import wins
from affray.web.table import Table

__all__ = ["Ask", "Card", "DeclareForm", "Line", "View", "board_view", "player_view", "referee_view"]

#: Enemy events a player sees only as their line (no detail, no why): what they tell is the enemy's intent.
_INTENT = frozenset({"delay", "wait", "replan", "declare"})
_HP = re.compile(r"\bhp\b", re.IGNORECASE)
#: A step to come in a player's words (never the engine's: "end-condition").
_DOES = {"melee": "attacks", "missile": "shoots", "cast": "completes", "cast-start": "begins casting",
         "move": "moves", "misc": "acts", "wait": "waits", "delay": "is delayed", "wound": "lands damage"}
_ACTIONS = (("melee", "Attack in melee"), ("missile", "Shoot or throw"), ("cast", "Cast a spell"), ("move", "Move"),
            ("wait", "Wait"), ("misc", "Something else"), ("none", "Nothing"))


@dataclass(frozen=True)
class Line:
    """One event of the timeline: its heading (a new round), its line, its why."""

    seq: int
    kind: str
    text: str
    why: str | None = None
    heading: str | None = None


@dataclass(frozen=True)
class Card:
    """One combatant as a screen shows it: ``hp`` and ``hp_max`` None when not known to this viewer; ``badges``
    its conditions (with their end where known); ``ours``: of the viewer's side; ``declared`` and ``lands``: what
    it declared that is still to come, and when (the moment of its step placed), where the viewer may know them."""

    name: str
    side: str
    hp: int | None
    hp_max: int | None
    state: str
    casting: str
    engaged: str
    badges: list[str]
    mine: bool = False
    ours: bool = False
    declared: str = ""  # its declaration still to come, as far as the viewer knows it
    lands: str = ""  # when it lands (its first step placed), where the viewer may know it
    declares: str = ""  # who answers its declarations (ask, auto, repeat): the referee's cards only


@dataclass(frozen=True)
class DeclareForm:
    """A declaration in three parts, only what the question's ``choices`` offer: the action, then its target, then
    its options (weapon, charge, distance to close, spell and its target, how far and how to move), and the
    ruleset's own keys with what each means."""

    actions: list[tuple[str, str]]
    targets: list[str]
    melee_weapons: list[str]
    missile_weapons: list[str]
    spells: list[tuple[str, str]]
    spell_targets: list[str]
    modes: list[str]
    movement: int
    keys: list[tuple[str, str]]
    suggestion: str | None = None
    placed: bool = False  # the fight places its combatants: the feet to close come from the map, not the form


@dataclass(frozen=True)
class Ask:
    """The question a viewer may answer: a declaration (its form) or a die."""

    id: int
    what: str
    title: str
    form: DeclareForm | None = None
    known: list[str] = field(default_factory=list)
    die: str = ""
    low: int = 1
    high: int = 20
    attack: bool = False


@dataclass(frozen=True)
class View:
    viewer: str  # "referee", "table view" or the player character's name
    seat: str  # "referee", "player" or "board"
    rev: int
    title: str
    now: str
    next: list[str]
    cards: list[Card]
    timeline: list[Line]
    board: Board
    ask: Ask | None = None
    waiting: str | None = None
    over: str | None = None
    notes: list[str] = field(default_factory=list)  # morale due, pending effects, warnings (the referee's)
    dice: dict[str, str] = field(default_factory=dict)
    sides: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    paused: str | None = None  # why the fight waits for the referee (a round's declarations come next...)
    #: The sides and their combatants still in the fight, each with who answers its declarations (the referee's
    #: group form).
    declarers: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    #: Where everyone stands, as SVG, in a fight that places its combatants (CONTRACT "Where everyone stands"):
    #: the referee's tokens draggable; a player's drawn from the events its character saw.
    map: str = ""

    @property
    def mine(self) -> Card | None:
        """A player's own card."""
        return next((c for c in self.cards if c.mine), None)

    @property
    def others(self) -> list[tuple[str, bool, list[Card]]]:
        """The cards by side as ``card_groups`` gives them, the viewer's own left out (a player's screen shows it
        first, on its own)."""
        out = [(side, ours, [c for c in cards if not c.mine]) for side, ours, cards in self.card_groups]
        return [g for g in out if g[2]]

    @property
    def standing(self) -> tuple[int, int]:
        """Combatants still standing among the others: of the viewer's side, and its foes."""
        others = [c for c in self.cards if not c.mine and c.state == "standing"]
        return sum(c.ours for c in others), sum(not c.ours for c in others)

    @property
    def card_groups(self) -> list[tuple[str, bool, list[Card]]]:
        """The cards by side, in the fight's order; a player's (and the table view's) own side first."""
        groups: dict[str, list[Card]] = {}
        for c in self.cards:
            groups.setdefault(c.side, []).append(c)
        out = [(side, cards[0].ours, cards) for side, cards in groups.items()]
        return out if self.seat == "referee" else sorted(out, key=lambda g: not g[1])


def _state(f: Fighter) -> str:
    if f.down:
        return "unconscious" if f.unconscious else "down"
    return "fled" if f.fled else "routed" if f.routed else "standing"


def _headings(fight: Fight[Any]) -> Callable[[Event], str | None]:
    heading = find_ruleset(fight.ruleset.id).heading
    return lambda e: heading(e.tick) if e.round is None else f"Round {e.round}"


Keep = Callable[[int, Event], "bool | str | None"]


def _scrub(e: Event, seq: int, shown: bool | str, knows: Callable[[str], bool]) -> tuple[Event, str, str | None]:
    """An event as a viewer sees it, with its line and why: whole (True), without detail or why where they may tell
    what the viewer may not know (False: an enemy's event), or without a detail naming hit points ("scrub": a blow
    at an enemy). A condition on an enemy is seen without its end."""
    if shown is not True and e.detail and (shown is False or _HP.search(e.detail)):
        e = e._replace(detail=None)
    if isinstance(e, Condition) and e.target is not None and not knows(e.target) and (e.until or e.end):
        e = e._replace(until=None, end=None, why=None)
    why = why_line(e)
    if shown is False and (e.kind in _INTENT or (e.why and _HP.search(e.why))):
        why = None
    return e, event_line(e, seq).plain.strip(), why.plain if why else None


#: An event as one way of seeing it shows it (``_scrub``), kept by the table (``Table.drawn``) under its number, how
#: it is seen and whether its target is known: (the event it was drawn from, the scrubbed event, its line, its why,
#: its heading). Drawing the lines is most of a screen's cost; each is drawn once, not once a screen and a change.
Drawn = tuple[Event, Event, str, "str | None", "str | None"]


def _seen(table: Table, keep: Keep, knows: Callable[[str], bool]) -> tuple[list[Line], list[Seen]]:
    """The events ``keep`` lets through (None: hidden; else as ``_scrub`` shows them): the timeline, newest first,
    a heading where the round (or the ruleset's own unit) changes; and the same events for the board."""
    fight = table.session.fight
    heading = _headings(fight)
    drawn: dict[tuple[int, bool | str, bool], Drawn] = table.drawn
    if len(drawn) > 4 * len(fight.events) + 1000:  # an undone or rebuilt fight's old drawings
        drawn.clear()
    lines: list[Line] = []
    seen: list[Seen] = []
    last: str | None = None
    for seq, e in enumerate(fight.events):
        shown = keep(seq, e)
        if shown is None:
            continue
        target = getattr(e, "target", None)
        key = (seq, shown, target is None or knows(target))
        hit = drawn.get(key)
        if hit is None or hit[0] is not e:  # an event rebuilt (undo) is drawn again
            hit = drawn[key] = (e, *_scrub(e, seq, shown, knows), heading(e))
        _e, scrubbed, text, why, title = hit
        lines.append(Line(seq, e.kind, text, why, title if title != last else None))
        seen.append(Seen(seq, scrubbed, text, why))
        last = title if title is not None else last
    return lines[::-1], seen


def _board(table: Table, seen: list[Seen], steps: list[Step], ours: Callable[[str], bool], *,
           secret: bool) -> Board:
    fight = table.session.fight
    state = fight.state
    who = [Who(f.name, f.side, ours(f.name)) for f in state.fighters.values()]
    return build_board(fight.ruleset.id, _options(fight), list(state.sides), who, seen, steps,
                       now=fight.now or None,
                       secret=[f.name for f in state.fighters.values() if not ours(f.name)] if secret else ())


def _options(fight: Fight[Any]) -> dict[str, Any]:
    return fight.ruleset.all_options()


def _steps(table: Table) -> list[Step]:
    """The steps to come that can still happen (``still_to_come``), the one about to resolve first."""
    d = table.session.drive
    return still_to_come(d.fight, d.coming)


def _ask(q: Question, fight: Fight[Any]) -> Ask:
    if isinstance(q, DieQuestion):
        whose = f" ({q.actor})" if q.actor else ""
        what = f"{q.actor} attacks {q.target} ({q.kind}): the d20" if q.attack else f"{q.die} for {q.purpose}{whose}"
        return Ask(q.id, "die", p(what), die=q.die, low=q.count, high=q.count * q.sides, attack=q.attack)
    known = [p(f"{name}: {describe_declaration(d, fight.state.fighters[name])}") for name, d in q.known
             if name in fight.state.fighters]
    return Ask(q.id, "declare", p(f"{q.actor} ({q.side}) declares, {q.at}"), _form(q, fight), known)


def _form(q: DeclareQuestion, fight: Fight[Any]) -> DeclareForm:
    """What the question offers (``choices``, the validator's), laid out as a form."""
    c = q.choices
    enemies = [p(n) for n in c.get("enemies", [])]
    offered = {"melee": bool(c.get("melee")), "missile": bool(c.get("missile")), "cast": bool(c.get("cast")),
               "move": bool(c.get("move")), "wait": bool(c.get("wait")), "misc": bool(c.get("misc")),
               "none": bool(c.get("none"))}
    weapons = c.get("weapons", [])
    spells = {s["name"]: s for s in c.get("spells", [])}
    castable = [(p(n), p(f"{n} (level {spells[n]['level']}, casting time {spells[n]['ct']})" if n in spells else n))
                for n in c.get("cast", [])]
    me = fight.state.fighters[q.actor]
    suggestion = describe_declaration(q.suggestion, me) if q.suggestion is not None else None
    return DeclareForm(
        [(a, words) for a, words in _ACTIONS if offered[a]],
        [p(n) for n in c.get("melee", [])],
        [p(w["name"]) for w in weapons if w["kind"] in ("melee", "thrown")],
        [p(w["name"]) for w in weapons if w["kind"] in ("missile", "thrown")],
        castable,
        enemies + [p(n) for n in (q.actor, *c.get("allies", []))] + [p(s) for s in c.get("sides", [])],
        [m for m in c.get("move", MOVE_MODES)],
        int(c.get("movement", 0)),
        [(p(k), p(v)) for k, v in dict(c.get("keys", {})).items()],
        p(suggestion) if suggestion else None, fight.state.placed)


def _card(f: Fighter, *, known: bool, ours: bool, mine: bool, completes: dict[str, str], now: Any,
          plan: tuple[str, str] = ("", ""), declares: str = "") -> Card:
    held = [(c, h) for c, h in f.conditions.items() if now < h.until]
    badges = [p(f"{c}, to {h.words}" if known and h.words else c) for c, h in held]
    casting = ""
    if f.casting:
        casting = f.casting + (f", completes {completes[f.name]}" if known and f.name in completes else "")
    return Card(p(f.name), p(f.side), f.hp if known else None, f.spec.full_hp if known else None, _state(f), p(casting),
                p(", ".join(sorted(f.engaged, key=_natural))), badges, mine, ours, p(plan[0]), p(plan[1]), declares)


def _natural(name: str) -> tuple[tuple[int, int | str], ...]:
    """A name's order among its fellows: "Kobold 2" before "Kobold 10"."""
    return tuple((0, int(part)) if part.isdecimal() else (1, part) for part in re.split(r"(\d+)", name) if part)


#: What ends a declaration's wait to come: its action, or what made it impossible.
_SETTLED = frozenset({"impossible", "spell-ruined", "spell-lost", "delay", "down", "leave", "surrender"})


def _plans(fight: Fight[Any], seen: list[Seen], steps: list[Step]) -> dict[str, tuple[str, str]]:  # noqa: C901
    """Each combatant's declaration still to come and when it lands, as a viewer may know them: its last
    declaration ``seen`` whose action has not happened yet, and the first of its steps placed (``steps``: those the
    viewer may know; a foe's declaration heard is shown without its moment). The moment is that of the step of the
    declared action itself (a blow, not the move closing to it; a spell's completion, not its start)."""
    fighters = fight.state.fighters
    declared: dict[str, Any] = {}
    for s in seen:
        e = s.event
        name = e.actor or ""
        if isinstance(e, Morale) and e.passed is False and not e.rally:  # routed: what they declared is dropped
            for routed in e.members:
                declared.pop(routed, None)
        if e.kind == "declare" and name in fighters:
            decl = getattr(e, "decl", None)
            if decl is not None and decl.action != "none":
                declared[name] = decl
            else:
                declared.pop(name, None)
        elif name in declared and (e.kind == declared[name].action or e.kind in _SETTLED):
            del declared[name]
    placed: dict[str, list[Step]] = {}
    for st in steps:
        if st.kind in _DOES and st.kind != "delay" and not st.cancelled:
            placed.setdefault(st.actor.name, []).append(st)
    out: dict[str, tuple[str, str]] = {}
    for name in fighters.keys() & (declared.keys() | placed.keys()):
        mine = placed.get(name, [])
        decl = declared.get(name) or next((st.decl.source for st in mine if st.decl is not None), None)
        what = describe_declaration(decl, fighters[name]) if decl is not None else _step_words(mine[0])
        if mine:
            first = next((st for st in mine if decl is not None and st.kind == decl.action), mine[0])
            more = len([st for st in mine if st.kind == first.kind]) - 1
            out[name] = (what, first.at + (f" (and {more} more)" if more else ""))
        else:
            out[name] = (what, "")
    return out


def _completes(table: Table) -> dict[str, str]:
    return {s.actor.name: s.at for s in _steps(table) if s.kind == "cast"}


def _map(fight: Fight[Any], events: list[Event], *, draggable: bool, me: str | None = None) -> str:
    """The map of ``events`` (what the viewer saw), or "" in a fight that places nobody."""
    if not fight.state.placed:
        return ""
    ticks = [e.tick for e in events if e.tick]
    window = layout_for(fight.ruleset.id).window(ticks[-1]) if ticks else None  # the moves of the latest round
    tokens, trails = map_tokens(fight.encounter, events, fight.ruleset.id, window)
    title = p(f"Where everyone stands: {fight.now_at}" + (f"; you are {me}" if me else ""))
    return map_svg(tokens, trails, list(fight.state.sides), title, draggable=draggable, me=me)


def referee_view(table: Table, rev: int) -> View:
    """Everything: what the console shows at a prompt, the whole timeline with each why, any question."""
    d = table.session.drive
    fight = d.fight
    completes = _completes(table)
    lines, seen = _seen(table, lambda seq, e: True, lambda name: True)
    plans = _plans(fight, seen, _steps(table))
    cards = [_card(f, known=True, ours=f.pc, mine=False, completes=completes, now=fight.now,
                   plan=_placed_words(plans.get(f.name)), declares=f.declares)
             for f in fight.state.fighters.values()]
    notes = []
    sink = Console(file=io.StringIO(), width=200, highlight=False, color_system=None, markup=False, emoji=False)
    if d.coming is not None:
        warn_opportunity(fight, d.coming, sink)
    notes += [line for line in sink.file.getvalue().splitlines() if line.strip()]  # type: ignore[attr-defined]
    for s in still_to_come(fight, d.coming):
        if s.kind == "delay" or s.kind in fight.ruleset.own_kinds:
            notes.append(p(f"pending: {s.actor.name}: {s.kind} at {s.at}"))
    notes += [p(f"morale due: {side} ({' and '.join(t)}, G-07)") for side, t in morale_due(fight).items()]
    pcs = {f.name for f in fight.state.fighters.values() if f.pc}
    q = table.pending
    return View("referee", "referee", rev,
                p(f"fight {table.game.id}: {PurePath(table.game.file).name} under {fight.ruleset.id}"),
                p(fight.now_at), [line.plain for line in next_lines(fight, d.coming, d.declaring)], cards, lines,
                _board(table, seen, _steps(table), lambda name: name in pcs, secret=False),
                _ask(q, fight) if q is not None else None, None, _over(table, None), notes, dict(d.dice.by),
                list(fight.state.sides), list(fight.state.fighters), _paused(table) if q is None else None,
                [(p(side), [(p(f.name), f.declares) for f in members if f.active])
                 for side, members in fight.state.sides.items()], _map(fight, list(fight.events), draggable=True))


def _placed_words(plan: tuple[str, str] | None) -> tuple[str, str]:
    """A declaration and its moment, said for a card: a declaration not placed yet says so."""
    if plan is None:
        return "", ""
    what, at = plan
    return what, at or "not placed yet (once the declarations are all made)"


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


def _knows(fight: Fight[Any], sides: set[str], heard: set[int]) -> Keep:
    """What the combatants of ``sides`` see of each event (``_scrub``'s ``shown``; None: nothing of it)."""

    def keep(seq: int, e: Event) -> bool | str | None:
        actor = fight.state.fighters.get(e.actor or "")
        target = fight.state.fighters.get(getattr(e, "target", None) or "")
        if actor is not None and actor.side not in sides:  # an enemy's: its declarations only once heard
            if e.kind in ("declare", "replan"):
                return True if seq in heard and e.kind == "declare" else None
            return False
        if target is not None and target.side not in sides:
            return "scrub" if actor is not None else False  # the referee's hand on an enemy: no amounts
        # an enemy side's morale (actor None, its side named): passed or failed, not its roll against its score
        side = getattr(e, "side", None)
        return actor is not None or side is None or side in sides

    return keep


SideView = tuple[list[Card], list[Line], Board, list[str], list[Event]]


def _side_view(table: Table, sides: set[str], heard: set[int]) -> SideView:
    """What the combatants of ``sides`` could know, having heard the declarations ``heard`` (``_seen_by``): worked
    out once a change of the table for every screen that sees the same (the players of one side and the table
    view, mostly), kept by the table (``Table.seen``) until its next change."""
    now = (table.changes, len(table.session.fight.events))
    if table.seen[0] != now:
        table.seen = (now, {})
    kept: dict[tuple[frozenset[str], frozenset[int]], SideView] = table.seen[1]
    key = (frozenset(sides), frozenset(heard))
    found = kept.get(key)
    if found is None:
        found = kept[key] = _seen_by(table, sides, heard)
    return found


def _seen_by(table: Table, sides: set[str], heard: set[int]) -> SideView:
    """What the combatants of ``sides`` could know: their own and their allies' state, enemies as seen across the
    field (no hit points, no casting's end, no condition's end), the timeline and board as they saw them, and
    their own side's coming steps."""
    fight = table.session.fight
    completes = _completes(table)

    def ours(name: str) -> bool:
        f = fight.state.fighters.get(name)
        return f is not None and f.side in sides

    lines, seen = _seen(table, _knows(fight, sides, heard), ours)
    steps = [s for s in _steps(table) if s.actor.side in sides]
    plans = _plans(fight, seen, steps)
    cards = [_card(f, known=f.side in sides, ours=f.side in sides, mine=False, completes=completes, now=fight.now,
                   plan=_placed_words(plans.get(f.name)) if f.side in sides else (plans.get(f.name, ("", ""))[0], ""))
             for f in fight.state.fighters.values()]
    nxt = [p(f"{s.actor.name} {_step_words(s)}, {s.at}") for s in steps if s.kind in _DOES][:4]
    return cards, lines, _board(table, seen, steps, ours, secret=True), nxt, [s.event for s in seen]


def _step_words(s: Step) -> str:
    what = _DOES[s.kind] + (f" {s.spell.name}" if s.kind in ("cast", "cast-start") and s.spell is not None else "")
    return what + (f" ({s.target})" if s.target and s.kind in ("melee", "missile", "cast") else "")


def player_view(table: Table, pc: str, rev: int) -> View:
    """What ``pc`` could know (its side's view, with the declarations it heard), and its own questions."""
    fight = table.session.fight
    me = fight.state.fighters[pc]
    side = me.side
    cards, lines, board, nxt, saw = _side_view(table, {side}, table.session.heard.get(pc, set()))
    cards = [replace(c, mine=c.name == p(pc)) for c in cards]
    q = table.pending
    ask = _ask(q, fight) if q is not None and table.session.entitled(pc, q) else None
    waiting = None if q is not None or table.over else "waiting for the referee to go on"
    if q is not None and ask is None:
        who = q.actor if isinstance(q, DeclareQuestion) else q.actor or ""
        asked = fight.state.fighters.get(who)
        waiting = p(f"waiting for {who}") if asked is not None and asked.side == side else "waiting for the referee"
    return View(p(pc), "player", rev, p(f"{pc} ({side}), under {fight.ruleset.id}"), p(fight.now_at), nxt, cards,
                lines, board, ask, waiting, _over(table, side), map=_map(fight, saw, draggable=False, me=pc))


def board_view(table: Table, rev: int) -> View:
    """The table view for a shared screen: what the players' side could know (every player character's side, and
    the declarations any of them heard), read-only."""
    fight = table.session.fight
    pcs = [f for f in fight.state.fighters.values() if f.pc]
    sides = {f.side for f in pcs}
    heard: set[int] = set().union(*table.session.heard.values()) if table.session.heard else set()
    cards, lines, board, nxt, saw = _side_view(table, sides, heard)
    cards = [replace(c, declared="", lands="") for c in cards]  # the board shows them, for the table to see
    side = next(iter(sides)) if len(sides) == 1 else None
    return View("table view", "board", rev, p(f"{PurePath(table.game.file).stem} under {fight.ruleset.id}"),
                p(fight.now_at), nxt, cards, lines[:12], board, over=_over(table, side),
                map=_map(fight, saw, draggable=False))


def _over(table: Table, side: str | None) -> str | None:
    """The fight's end as the viewer may see it (None: not over)."""
    if not table.over:
        return None
    final = table.session.fight.state.final()
    return p(f"the fight is over: {wins(final.winner)}" if final.winner else "the fight is over: no winner")
