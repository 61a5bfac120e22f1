"""``affray replay`` for a terminal: the played fight and its replays side by side (who acted when, who fell when,
who won), then each replay's differences with their reasons."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from affray.printable import printable as p
from affray.replay.compare import Deed
from affray.replay.mapping import ordinal, surprise_as_played
from affray.replay.report import Report

__all__ = ["MORE_SHOWN", "render_report"]

#: The policies' own declarations past the plan shown a ruleset (all of them are in ``--json`` and the timeline).
MORE_SHOWN = 6
#: The differences of order shown a ruleset (all of them are in ``--json``).
ORDER_SHOWN = 12


def render_report(report: Report, console: Console) -> None:  # noqa: C901
    played, view, carried = report.played, report.view, report.carried
    surprise = _surprise(report)
    console.print(Text(p(f"affray replay: {played.source}; played under {played.ruleset}, seed {played.seed}"),
                       style="bold"))
    console.print(p(f"Carried to each ruleset: {carried.declarations} declarations ({carried.by_policy} of them "
                    f"the policies'), each combatant's in the order made, with the dice that fell for them: "
                    f"{carried.d20} attack d20s, {carried.damage} damage throws, {carried.saves} saves, "
                    f"{carried.outcomes} referee's outcomes; surprise as it fell ({surprise}). Each ruleset rolls "
                    f"its own initiative, surprise and morale dice from seed {played.seed}, and once a combatant's "
                    "declarations run out its policy declares."), highlight=False)
    table = Table(title="Side by side: who acted when, who fell when, who won", title_justify="left",
                  show_lines=False)
    table.add_column("", style="bold", max_width=32)
    for col in view.columns:
        table.add_column(p(col), overflow="fold")
    for row in view.rows:
        label = f"{row.actor} ({ordinal(row.index + 1)}): {row.said}" + (", the policy's" if row.auto else "")
        cells = []
        for col in view.columns:
            cell = _deed(row.deeds[col])
            if col in row.instead:
                cell = Text(p(f"the policy's {row.instead[col]}: "), style="yellow") + cell
            cells.append(cell)
        table.add_row(p(label), *cells)
    table.add_section()
    for name, by in view.falls.items():
        table.add_row(p(f"{name} falls"), *[Text(p(f"{f.at}, to {f.by}")) if f is not None else Text("stands",
                                                                                                      style="dim")
                                            for f in (by.get(c) for c in view.columns)])
    table.add_section()
    table.add_row("winner", *[Text(p(f"{w or 'nobody'}, settled at {at}"), style="bold")
                              for w, at in (view.winners[c] for c in view.columns)])
    console.print(table)
    for rp in report.replays:
        col = rp.ruleset
        more = [(a, d) for a, d in view.more.get(col, []) if d.status == "done"]
        if more:
            shown = "; ".join(p(f"{actor}: {d.what} ({d.at})") for actor, d in more[:MORE_SHOWN])
            rest = f"; and {len(more) - MORE_SHOWN} more (--json)" if len(more) > MORE_SHOWN else ""
            console.print(Text(f"Under {col}, past the played declarations, the policies: ", style="bold") +
                          Text(shown + rest))
    for rp in report.replays:
        diffs = view.differences[rp.ruleset]
        console.print(Text(f"\nHow {rp.ruleset} differs from the fight as played, and why", style="bold"))
        if not diffs:
            console.print("  nothing: the same deeds, the same falls, the same winner")
        orders = 0
        for d in diffs:
            if d.kind == "order":
                orders += 1
                if orders > ORDER_SHOWN:
                    continue
            console.print(Text("  - ") + Text(p(d.text)), highlight=False)
            if d.reason:
                console.print(Text("      because: ", style="dim") + Text(p(d.reason), style="dim"), highlight=False)
        if orders > ORDER_SHOWN:
            console.print(f"  ... and {orders - ORDER_SHOWN} more differences of order (--json)")


def _deed(d: Deed) -> Text:
    style = {"unreached": "dim", "pending": "dim", "cancelled": "yellow"}.get(d.status, "")
    if d.at is None or d.status == "unreached":
        return Text(p(d.what), style=style)
    return Text(p(d.at), style="dim") + Text("\n") + Text(p(d.what), style=style)


def _surprise(report: Report) -> str:
    ruled = surprise_as_played(report.played)
    if isinstance(ruled, dict):
        surprised = [s for s, v in ruled.items() if v]
        return f"{', '.join(surprised)} surprised" if surprised else "nobody surprised"
    return {"none": "both sides aware", "check": "rolled by each ruleset"}.get(ruled, ruled)

