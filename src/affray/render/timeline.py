"""The readable timeline: headings per round (or the ruleset's own unit), each event with its why, then the
final state."""

from __future__ import annotations

import textwrap

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from affray.engine.events import ATTACK_KINDS, Condition, Event, Expire, Morale
from affray.engine.fight import Result
from affray.printable import printable as p
from affray.rulesets import find_ruleset

__all__ = ["event_line", "event_plain", "event_renderables", "render_result", "who", "why_line"]

#: Events the referee's hand makes without a combatant's (``affray.drive.commands``).
_HAND = frozenset({"damage", "heal", "condition", "expire"})

_STYLE = {"melee": "bold", "missile": "bold", "cast": "magenta", "cast-start": "magenta",
          "spell-ruined": "red", "spell-lost": "red", "down": "bold red", "impossible": "yellow",
          "morale": "cyan", "initiative": "cyan", "surprise": "cyan", "declare": "dim"}


def who(e: Event) -> str:
    """The actor column: the combatant, or who else the event is of (never empty)."""
    if e.actor:
        return p(e.actor)
    if isinstance(e, Morale) and e.side:
        return p(e.side)
    if e.kind in ("initiative", "surprise"):
        return "all sides"
    if e.kind in _HAND:
        return "referee"
    return "-"


def _pieces(e: Event, seq: int) -> list[tuple[str, str]]:
    """One event's line as (text, style) pieces: number, kind, who, what (names without control characters: they
    come from files)."""
    out = [(f"{seq:>4} ", "dim"), (f"{e.kind:<12} ", _STYLE.get(e.kind, "")), (who(e), "")]
    target = getattr(e, "target", None)
    spell = getattr(e, "spell", None)
    passed = getattr(e, "passed", None)
    if e.kind in ATTACK_KINDS:
        hit = getattr(e, "hit", False)
        out.append((f" -> {p(str(target))}: ", ""))
        out.append(("hit", "green") if hit else ("miss", ""))
        if hit:
            out.append((f", {getattr(e, 'damage', 0)} damage", ""))
        if getattr(e, "opportunity", False):
            out.append((" (opportunity)", "italic"))
    elif isinstance(e, (Condition, Expire)) and target:
        what = e.condition or ""
        out.append((p(f" -> {target}: {what}" + (f" ({spell})" if spell else "") + (
            f", to {e.until}" if isinstance(e, Condition) and e.until else " ends" if isinstance(e, Expire) else "")),
            ""))
    elif spell:
        out.append((p(f" {spell}" + (f" -> {target}" if target and e.kind == "cast" else "")), ""))
    if passed is not None:
        out.append((": passed" if passed else ": failed", ""))
    if e.detail:
        out.append((f"   {p(e.detail)}", ""))
    return out


def event_line(e: Event, seq: int) -> Text:
    """One event's line: number, kind, who, what (names without control characters: they come from files)."""
    return Text.assemble(*_pieces(e, seq))


def _why(e: Event) -> str | None:
    return f"at {p(e.at)}. Why: {p(e.why)}" if e.why else None


def why_line(e: Event) -> Text | None:
    """The moment and the why of an event, shown under it (None without a why)."""
    why = _why(e)
    return None if why is None else Text(why, style="dim")


def _wrapped(why: str, width: int) -> str:
    """The why wrapped at ``width`` columns and indented under the event."""
    return textwrap.fill(why, max(width - 1, 40), initial_indent=_INDENT, subsequent_indent=_INDENT,
                         break_on_hyphens=False)


def event_renderables(e: Event, seq: int, width: int = 100) -> list[Text]:
    """An event's line, and its why under it, wrapped at ``width`` columns and indented under the event."""
    why = _why(e)
    return [event_line(e, seq)] + ([] if why is None else [Text(_wrapped(why, width), style="dim")])


def event_plain(e: Event, seq: int, width: int = 100) -> list[str]:
    """``event_renderables`` as the text a console that prints no style shows (a pipe)."""
    why = _why(e)
    return ["".join(text for text, _style in _pieces(e, seq))] + ([] if why is None else [_wrapped(why, width)])


_INDENT = " " * 7


def _parts(result: Result, console: Console) -> list[Rule | Text | str]:
    """The timeline under its headings: each heading, then its events' lines joined in one text (plain text
    where the console prints no style: piped, or colour turned off, the lines' styles print as nothing)."""
    heading = find_ruleset(result.ruleset).heading
    width = console.width
    plain = console.color_system is None
    last: str | None = None
    parts: list[Rule | Text | str] = []
    lines: list[Text] = []  # the events under the current heading, styled
    said: list[str] = []  # or plain

    def block() -> None:
        if said:
            parts.append("\n".join(said))
            said.clear()
        if lines:
            parts.append(Text("\n").join(lines))
            lines.clear()

    for seq, e in enumerate(result.events):
        title = heading(e.tick) if e.round is None else f"Round {e.round}"
        if title is not None and title != last:
            block()
            parts.append(Rule(Text(title)))
            last = title
        if plain:
            said.extend(event_plain(e, seq, width))
        else:
            lines.extend(event_renderables(e, seq, width))
    block()
    return parts


def _print_parts(console: Console, parts: list[Rule | Text | str]) -> None:
    """The lines never wrapped. Plain text is written as it is: its bytes are what rich would print (printable:
    no control, no tab), and only the headings are drawn. Styled, all in one print (rich's cost is per print)."""
    if any(isinstance(part, str) for part in parts):
        for part in parts:
            if isinstance(part, str):
                console.file.write(part + "\n")
            else:
                console.print(part, soft_wrap=True)
    elif parts:
        console.print(*parts, sep="\n", soft_wrap=True)


def render_result(result: Result, console: Console) -> None:
    console.print(Text(f"affray: ruleset {result.ruleset}, seed {result.seed}", style="bold"))
    _print_parts(console, _parts(result, console))
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
