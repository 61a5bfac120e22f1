"""What the console shows: each event with its why, and at a prompt what the referee needs to know."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from affray.drive.questions import DeclareQuestion
from affray.engine.conditions import unable
from affray.engine.events import Event, SpellLost, SpellRuined
from affray.engine.fight import Fight
from affray.engine.state import Fighter
from affray.engine.step import Step
from affray.printable import printable as p
from affray.render.timeline import event_renderables

__all__ = ["event_text", "morale_due", "next_lines", "provokers", "show_choices", "show_final", "show_status",
           "status_table", "still_to_come", "warn_opportunity"]

_MOVES = ("move",)


def event_text(e: Event, seq: int, width: int = 100) -> list[Text]:
    """An event as the console shows it: its line, its why (indented), and a warning for a ruined spell."""
    out = event_renderables(e, seq, width)
    if isinstance(e, SpellLost):
        out.append(Text(p(f"  ! {e.actor}'s {e.spell} is ruined and lost from memory"), style="bold red"))
    elif isinstance(e, SpellRuined):
        out.append(Text(p(f"  ! {e.actor}'s {e.spell} is ruined for this casting"), style="bold red"))
    return out


def _step_text(step: Step) -> str:
    if step.kind == "end-condition":  # the moment a condition runs out (G-08)
        return p(f"{step.actor.name}: {step.note} ends at {step.at}")
    what = step.kind + (f" {step.spell.name}" if step.spell is not None else "")
    target = f" -> {step.target}" if step.target else ""
    return p(f"{step.actor.name}: {what}{target} at {step.at}")  # names from the file: no control characters


def still_to_come(fight: Fight[Any], coming: Step | None = None) -> list[Step]:
    """The steps placed that can still happen (``coming`` first): not a fallen or fled combatant's, nor a spell
    already ruined (its caster no longer casting it, and no casting of it about to begin), nor the end of a
    condition of one out of the fight; what the ruleset resolves itself, whoever it is of."""
    steps = ([coming] if coming is not None else []) + fight.upcoming(None)
    starting = {s.actor.name for s in steps if s.kind == "cast-start"}
    own = fight.ruleset.own_kinds
    return [s for s in steps if s.kind in own or s.kind in _LANDS or (_may(s) and (
        s.kind != "cast" or s.spell is None or s.actor.casting == s.spell.name or s.actor.name in starting))]


#: What lands or ends whoever's it is (damage on its way, a spell's effect, a condition running out).
_LANDS = frozenset({"wound", "spell-effect", "owed"})


def _may(s: Step) -> bool:
    """Whether ``s``'s actor may still take it when it comes: neither out of the fight nor, then, asleep, held,
    stunned... (an attack: nor unable to attack), nor routed unless it is its flight (``unable``: G-05, G-07, G-09);
    the end of a condition is shown while its holder is in the fight."""
    if s.kind == "end-condition":
        return s.actor.active or s.actor.unconscious
    return unable(s.actor, s.tick, attack=s.kind in ("melee", "missile"), flight=s.kind == "move") is None


def next_lines(fight: Fight[Any], coming: Step | None, declaring: tuple[Fighter, str] | None) -> list[Text]:
    """What comes next, as the fight stands at a point: who declares, or every step of the coming moment
    (``coming`` and those placed at the same tick); then the next two steps placed after it. Only what can still
    happen (``still_to_come``)."""
    placed = still_to_come(fight, coming)
    if coming is not None and coming not in placed:  # about to be refused (its actor asleep, routed...): not shown
        coming = None
    elif coming is not None:
        placed.remove(coming)
    lines: list[Text] = []
    if declaring is not None:
        f, at = declaring
        lines.append(Text(p(f"next: {f.name} ({f.side}) declares, {at}")))
    elif coming is not None:
        moment = [coming] + [s for s in placed if s.tick == coming.tick]
        lines += [Text("next: " + _step_text(s)) for s in moment]
        placed = [s for s in placed if s.tick != coming.tick]
    elif not fight.events:
        lines.append(Text("next: the fight begins"))
    elif placed:
        moment = [s for s in placed if s.tick == placed[0].tick]
        lines += [Text("next: " + _step_text(s)) for s in moment]
        placed = placed[len(moment):]
    else:
        lines.append(Text("next: the fight goes on (nothing is placed yet)"))
    lines += [Text("then: " + _step_text(s), style="dim") for s in placed[:2]]
    return lines


def status_table(fight: Fight[Any], coming: Step | None = None) -> list[tuple[str, ...]]:
    """Each combatant's row: hit points, state, casting, engagements, conditions with when they end."""
    completes = {s.actor.name: s.at for s in still_to_come(fight, coming) if s.kind == "cast"}
    rows: list[tuple[str, ...]] = [("combatant", "side", "hp", "state", "casting", "engaged with", "conditions")]
    for f in fight.state.fighters.values():
        standing = ("unconscious" if f.unconscious else "down") if f.down else "fled" if f.fled else (
            "routed" if f.routed else "")
        casting = ""
        if f.casting is not None:
            casting = f.casting + (f" (completes {completes[f.name]})" if f.name in completes else "")
        held = ", ".join(f"{c} (to {h.words})" if h.words else c for c, h in f.conditions.items()
                         if fight.now < h.until)
        rows.append((p(f.name), p(f.side), f"{f.hp}/{f.spec.full_hp}", standing, p(casting),
                     p(", ".join(sorted(f.engaged))), p(held)))
    return rows


def show_status(fight: Fight[Any], out: Console, coming: Step | None = None,
                declaring: tuple[Fighter, str] | None = None, *, table: bool = True) -> None:
    """The current moment and what comes next; with ``table``, hit points, casting, engagements and
    conditions; pending effects and morale due."""
    out.print(Text(f"now: {p(fight.now_at)}", style="bold"))
    for line in next_lines(fight, coming, declaring):
        out.print(line)
    if coming is not None:
        warn_opportunity(fight, coming, out)
    if table:
        rows = status_table(fight, coming)
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        # plain columns, one print: a rich Table costs more than the whole step at 40 combatants
        out.print(Text("\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                                 for r in rows)), soft_wrap=True)
    for s in still_to_come(fight, coming):
        if s.kind == "delay" or s.kind in fight.ruleset.own_kinds:
            out.print(Text(f"pending: {_step_text(s)}", style="cyan"))
    for side, triggers in morale_due(fight).items():
        out.print(Text(f"morale due: {p(side)} ({' and '.join(triggers)}, G-07)", style="cyan"))


def provokers(fight: Fight[Any], step: Step) -> list[tuple[Fighter, str]]:
    """The foes that ``step``, a move about to resolve, gives a free attack (the ruleset's ``opportunity``), each
    with why."""
    if step.kind not in _MOVES or not step.actor.active or step.cancelled:
        return []
    return [(attacker, why) for attacker, _weapon, why in fight.free_attackers(step)]


def warn_opportunity(fight: Fight[Any], step: Step, out: Console) -> bool:
    """Warn when ``step`` is a move that gives foes a free attack; whether it is."""
    found = provokers(fight, step)
    for attacker, why in found:
        out.print(Text(p(f"warning: {step.actor.name}'s move provokes an attack of opportunity from "
                         f"{attacker.name} ({why})"), style="bold yellow"))
    return bool(found)


def morale_due(fight: Fight[Any]) -> dict[str, list[str]]:
    """G-07: sides not of PCs whose first casualty or half down has come and not yet been checked."""
    state = fight.state
    due: dict[str, list[str]] = {}
    for side, members in state.sides.items():
        if not any(f.active and not f.pc and not f.routed for f in members):
            continue
        lost = len(members) - state.active_left[side]
        triggers = []
        if lost >= 1 and (side, "first casualty") not in state.morale_done:
            triggers.append("first casualty")
        if 2 * lost >= len(members) and lost and (side, "half down") not in state.morale_done:
            triggers.append("half down")
        if triggers:
            due[side] = triggers
    return due


def show_final(fight: Fight[Any], out: Console) -> None:
    final = fight.state.final()
    out.print(Text("the fight is over", style="bold"))
    for name, c in final.combatants.items():
        state = ("unconscious" if c.get("unconscious") else "down") if c["down"] else (
            "fled" if c.get("fled") else "standing")
        out.print(Text(p(f"  {name} ({c['side']}): {c['hp']} hp, {state}")))
    out.print(Text(f"winner: {p(final.winner)}" if final.winner else "no winner: more than one side stands",
                   style="bold"))


def show_choices(q: DeclareQuestion, out: Console) -> None:
    """What a combatant may declare, as the question lists it, in the words the prompt reads."""
    c = q.choices
    foe = c["enemies"][0] if c["enemies"] else "NAME"
    lines = [f"{q.actor} may declare (one line; Tab completes):"]
    if "melee" in c:
        lines.append(f"  melee NAME [with WEAPON]     at: {', '.join(c['melee']) or 'nobody'}")
        lines.append("  charge NAME                  a melee with a charge")
    if "missile" in c:
        lines.append(f"  missile NAME [with WEAPON]   at: {', '.join(c['missile']) or 'nobody'}")
    if "cast" in c:
        lines.append(f"  cast SPELL [at TARGET]       spells: {', '.join(c['cast'])}")
    lines.append(f"  move [FEET] [MODE]           modes: {', '.join(c['move'])} (default {c['movement']} ft, "
                 "its full movement)")
    lines.append("  withdraw [FEET], retreat [FEET], flee [FEET]")
    lines.append("  wait, none, misc TEXT")
    lines.append("  then, as needed: roll N, distance FEET, hit [DAMAGE] or miss (the referee's outcome)")
    lines.append("  weapons: " + (", ".join(f"{w['name']} ({w['kind']})" for w in c["weapons"]) or "none"))
    if c["spells"]:
        lines.append("  spells: " + ", ".join(f"{s['name']} (level {s['level']}, CT {s['ct']})" for s in c["spells"]))
    if c["keys"]:
        lines.append("  this ruleset's own words (KEY [VALUE], alone for yes):")
        lines += [f"    {key}: {doc}" for key, doc in c["keys"].items()]
    lines.append(f"  or one plan entry in YAML, e.g. {{melee: {foe}, weapon: ...}}; a command (status, undo, damage...)"
                 " works here too")
    out.print(Text(p("\n".join(lines), keep_newlines=True)))
