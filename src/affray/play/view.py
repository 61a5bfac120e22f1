"""What the console shows: each event with its why, and at a prompt what the referee needs to know."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from affray.cli.render import event_line
from affray.engine.engine import Fight
from affray.engine.events import Event
from affray.engine.ruleset import Step
from affray.printable import printable as p

__all__ = ["event_text", "morale_due", "show_final", "show_status", "warn_opportunity"]

_MOVES = ("move",)


def event_text(e: Event, seq: int) -> list[Text]:
    out = [event_line(e, seq)]
    if e.kind == "spell-ruined":
        out.append(Text(p(f"  ! {e.actor}'s {e.spell} is ruined for this casting"), style="bold red"))
    elif e.kind == "spell-lost":
        out.append(Text(p(f"  ! {e.actor}'s {e.spell} is ruined and lost from memory"), style="bold red"))
    return out


def _step_text(step: Step) -> str:
    what = step.kind + (f" {step.spell.name}" if step.spell is not None else "")
    target = f" -> {step.target}" if step.target else ""
    return p(f"{step.actor.name}: {what}{target} at {step.at}")  # names from the file: no control characters


def show_status(fight: Fight, out: Console, coming: Step | None = None) -> None:
    """The current moment, who acts next, hit points, casting, engagements, pending effects, morale due.
    ``coming``: the step about to resolve, already taken from the engine's queue."""
    state = fight.state
    now = p(fight.events[-1].at) if fight.events else "before the fight"
    out.print(Text(f"now: {now}", style="bold"))
    upcoming = ([coming] if coming is not None else []) + fight.upcoming(None)
    if upcoming:
        out.print(Text("next: " + _step_text(upcoming[0])))
        for step in upcoming[1:3]:
            out.print(Text("then: " + _step_text(step), style="dim"))
    else:
        out.print(Text("next: the next declaration point (declarations, initiative)"))
    completes = {s.actor.name: s.at for s in upcoming if s.kind == "cast"}
    rows = [("combatant", "side", "hp", "state", "casting", "engaged with")]
    for f in state.fighters.values():
        standing = ("unconscious" if f.unconscious else "down") if f.down else "fled" if f.fled else (
            "routed" if f.routed else "")
        casting = ""
        if f.casting is not None:
            casting = f.casting + (f" (completes {completes[f.name]})" if f.name in completes else "")
        engaged = ", ".join(sorted(f.engaged))
        rows.append((p(f.name), p(f.side), f"{f.hp}/{f.spec.hp}", standing, p(casting), p(engaged)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    # plain columns, one print: a rich Table costs more than the whole step at 40 combatants
    out.print(Text("\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows)),
              soft_wrap=True)
    pending = [s for s in upcoming if s.kind == "delay" or s.kind in fight.ruleset.own_kinds]
    for s in pending:
        out.print(Text(f"pending: {_step_text(s)}", style="cyan"))
    for side, triggers in morale_due(fight).items():
        out.print(Text(f"morale due: {p(side)} ({' and '.join(triggers)}, G-07)", style="cyan"))


def warn_opportunity(fight: Fight, step: Step, out: Console) -> bool:
    """Warn when ``step`` is a move that gives foes a free attack (the ruleset's ``opportunity``); whether it is."""
    if step.kind not in _MOVES or not step.actor.active or step.cancelled:
        return False
    warned = False
    for attacker, _weapon, why in fight.ruleset.opportunity(fight, step):
        if attacker.active:
            out.print(Text(p(f"warning: {step.actor.name}'s move provokes an attack of opportunity from "
                             f"{attacker.name} ({why})"), style="bold yellow"))
            warned = True
    return warned


def morale_due(fight: Fight) -> dict[str, list[str]]:
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


def show_final(fight: Fight, out: Console) -> None:
    final = fight.state.final()
    out.print(Text("the fight is over", style="bold"))
    for name, c in final.combatants.items():
        state = ("unconscious" if c.get("unconscious") else "down") if c["down"] else (
            "fled" if c.get("fled") else "standing")
        out.print(Text(p(f"  {name} ({c['side']}): {c['hp']} hp, {state}")))
    out.print(Text(f"winner: {p(final.winner)}" if final.winner else "no winner: more than one side stands",
                   style="bold"))
