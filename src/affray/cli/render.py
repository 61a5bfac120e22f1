"""The readable timeline: headings per round (or the ruleset's own unit), each event with its why, then the
final state."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from affray.engine.engine import Result
from affray.engine.events import Event
from affray.printable import printable as p
from affray.rulesets import find_ruleset

__all__ = ["event_line", "render_result"]

_STYLE = {"melee": "bold", "missile": "bold", "cast": "magenta", "cast-start": "magenta",
          "spell-ruined": "red", "spell-lost": "red", "down": "bold red", "impossible": "yellow",
          "morale": "cyan", "initiative": "cyan", "surprise": "cyan", "declare": "dim"}


def event_line(e: Event, seq: int) -> Text:
    text = Text()
    text.append(f"{seq:>4} ", style="dim")
    text.append(f"{e.kind:<12}", style=_STYLE.get(e.kind, ""))
    # names, spells and texts come from the file: no control character reaches the terminal (JSON keeps them)
    if e.actor:
        text.append(f" {p(e.actor)}")
    if e.kind in ("melee", "missile"):
        text.append(f" -> {p(str(e.target))}: ")
        text.append("hit" if e.hit else "miss", style="green" if e.hit else "")
        if e.hit:
            text.append(f", {e.damage} damage")
        if e.opportunity:
            text.append(" (opportunity)", style="italic")
    elif e.spell:
        text.append(p(f" {e.spell}" + (f" -> {e.target}" if e.target and e.kind == "cast" else "")))
    if e.passed is not None:
        text.append(": passed" if e.passed else ": failed")
    if e.detail:
        text.append(f"   {p(e.detail)}", style="")
    if e.why:
        text.append(f"\n       at {p(e.at)}. Why: {p(e.why)}", style="dim")
    return text


def render_result(result: Result, console: Console) -> None:
    console.print(Text(f"affray: ruleset {result.ruleset}, seed {result.seed}", style="bold"))
    heading = find_ruleset(result.ruleset).heading
    last: str | None = None
    for seq, e in enumerate(result.events):
        title = heading(e.tick) if e.round is None else f"Round {e.round}"
        if title is not None and title != last:
            console.rule(title)
            last = title
        console.print(event_line(e, seq), soft_wrap=False)
    table = Table(title="Final state")
    pools = any("mana" in c or "slots" in c for c in result.final.combatants.values())
    for col in ("combatant", "side", "hp", "state") + (("spells left",) if pools else ()):
        table.add_column(col)
    for name, c in result.final.combatants.items():
        state = ("unconscious" if c.get("unconscious") else "down") if c["down"] else (
            "fled" if c.get("fled") else "standing")
        row = [p(name), p(c["side"]), str(c["hp"]), state]
        if pools:  # C2X-06/08: what each caster has left
            row.append(f"{c['mana']} mana" if "mana" in c else ", ".join(f"L{k}: {v}" for k, v in c["slots"].items())
                       if "slots" in c else "")
        table.add_row(*row)
    console.print(table)
    console.print(Text(f"Winner: {p(result.final.winner)}" if result.final.winner else "No winner yet: "
                       "more than one side stands (try --auto)", style="bold"))
