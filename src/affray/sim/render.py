"""A simulation as rich tables: the rulesets side by side, every combatant's survival, a sweep's rows."""

from __future__ import annotations

from rich.table import Table

from affray.sim.simulate import Simulation
from affray.sim.stats import Interval, Mean
from affray.sim.summary import SPELL_KINDS, RulesetStats
from affray.sim.tally import SIMULTANEOUS

__all__ = ["combatant_table", "compare_table", "difference_table", "spell_table", "sweep_table"]


def pct(i: Interval) -> str:
    return f"{100 * i.p:.1f}% ({100 * i.low:.1f}-{100 * i.high:.1f})"


def _share(n: int, total: int) -> str:
    return f"{100 * n / total:.1f}%" if total else "-"


def _length(s: RulesetStats) -> str:
    ln = s.length
    return f"{ln.mean:.2f} {ln.unit} (median {ln.median:g}, {ln.min}-{ln.max})"


def _spells(s: RulesetStats) -> str:
    n = s.fights
    return " / ".join(f"{s.spells[k] / n:.2f}" for k in SPELL_KINDS) if n else "-"


def _mean(m: Mean, unit: str = "", digits: int = 1) -> str:
    if not m.n:
        return "-"
    return f"{m.mean:.{digits}f}{unit} ({m.low:.{digits}f}-{m.high:.{digits}f})"


def compare_table(sim: Simulation, title: str) -> Table:  # noqa: C901
    """The rulesets as columns, what a designer compares as rows."""
    stats = list(sim.rulesets.values())
    table = Table(title=title, title_justify="left")
    table.add_column("", style="bold")
    for s in stats:
        table.add_column(s.ruleset, justify="right")
    sides = list(dict.fromkeys(side for s in stats for side in s.sides))

    def row(label: str, cells: list[str]) -> None:
        table.add_row(label, *cells)

    for side in sides:
        row(f"{side} wins (95%)", [pct(s.win_rate[side]) if side in s.win_rate else "-" for s in stats])
    row("draws", [pct(s.draw_rate) for s in stats])
    row("length", [_length(s) for s in stats])
    row("length in game minutes (95%)", [_mean(s.minutes, " min", 2) for s in stats])
    row("first hit after (s, 95%)", [_mean(s.first_blow_at, " s") for s in stats])
    row("first fall after (s, 95%)", [_mean(s.first_fall_at, " s") for s in stats])
    row("spells a fight: done / ruined / lost / never begun / cut off", [_spells(s) for s in stats])
    for side in sides:
        row(f"first hit: {side}", [_share(s.first_blow.get(side, 0), s.fights) for s in stats])
    row("first hit: simultaneous", [_share(s.first_blow[SIMULTANEOUS], s.fights) for s in stats])
    row("first hitter won", [_share(s.first_blow["won"], s.fights - s.first_blow["none"]
                                    - s.first_blow[SIMULTANEOUS]) for s in stats])
    for side in sides:
        row(f"{side} damage a fight: dealt / taken",
            [f"{s.sides[side].damage_dealt:.1f} / {s.sides[side].damage_taken:.1f}" if side in s.sides else "-"
             for s in stats])
    for side in sides:
        if any(s.sides[side].morale_checks for s in stats if side in s.sides):
            row(f"{side} morale checks failed",
                [f"{s.sides[side].morale_failures} of {s.sides[side].morale_checks}" if side in s.sides else "-"
                 for s in stats])
    notes = [sim.notes.get(s.ruleset) for s in stats]
    if any(notes):  # what differs beyond the initiative, said beside the figures it explains
        row("morale (G-07): dice; when checked", [f"{n.morale_dice}; {n.morale_when}" if n else "-" for n in notes])
        for side in sides:
            if any(n is not None and side in n.morale_fail for n in notes):
                row(f"{side} morale check fails",
                    [f"{100 * float(n.morale_fail[side]):.1f}%" if n is not None and side in n.morale_fail else "-"
                     for n in notes])
        row("surprise", [f"{n.surprise}: {100 * float(n.surprised):.0f}%" if n else "-" for n in notes])
    return table


def spell_table(sim: Simulation) -> Table | None:
    """Each caster's spells per ruleset: how its castings ended, and how often it landed before its caster was
    first hurt (95%). None without spells."""
    stats = list(sim.rulesets.values())
    keys = list(dict.fromkeys((name, spell) for s in stats for name, c in s.combatants.items() for spell in c.spells))
    if not keys:
        return None
    table = Table(title="Spells: landed / ruined / lost / never begun / cut off a fight; landed before its caster "
                  "was first hurt (95%); first landing (s)", title_justify="left")
    table.add_column("caster: spell", style="bold")
    for s in stats:
        table.add_column(s.ruleset, justify="right")
    for name, spell in keys:
        cells = []
        for s in stats:
            c = s.combatants.get(name)
            st = c.spells.get(spell) if c is not None else None
            if st is None or not s.fights:
                cells.append("-")
                continue
            counts = " / ".join(f"{st.outcomes[o] / s.fights:.2f}" for o in ("landed", "ruined", "lost", "unbegun",
                                                                             "cut"))
            cells.append(f"{counts}\nbefore hurt {pct(st.before_hurt)}\nat {_mean(st.landed_at, ' s')}")
        table.add_row(f"{name}: {spell}", *cells)
    return table


def difference_table(sim: Simulation) -> Table | None:
    """The differences with their 95% intervals: between rulesets (unpaired) and between grid points (paired)."""
    if not sim.differences:
        return None
    table = Table(title="Differences (95%): a - b", title_justify="left")
    for label in ("a", "b", "measure", "a - b", "how"):
        table.add_column(label, justify="right" if label == "a - b" else "left")
    for d in sim.differences:
        if d.measure.startswith("wins:"):
            value = f"{100 * d.diff:+.1f} points ({100 * d.low:+.1f} to {100 * d.high:+.1f})"
            measure = f"{d.measure[5:]} wins"
        else:
            value = f"{d.diff:+.2f} ({d.low:+.2f} to {d.high:+.2f})"
            measure = d.measure
        how = (f"paired: the same seeds ({d.changed} of the fights differ)" if d.paired else
               "unpaired: the rulesets roll different dice")
        table.add_row(d.a, d.b, measure, value, how)
    return table


def combatant_table(sim: Simulation) -> Table:
    """Each combatant's survival (not down at the end) per ruleset, with its morale breaks."""
    stats = list(sim.rulesets.values())
    table = Table(title="Survival (95%) and morale breaks", title_justify="left")
    table.add_column("combatant", style="bold")
    table.add_column("side")
    for s in stats:
        table.add_column(s.ruleset, justify="right")
    names = list(dict.fromkeys(n for s in stats for n in s.combatants))
    for name in names:
        side = next(s.combatants[name].side for s in stats if name in s.combatants)
        cells = []
        for s in stats:
            c = s.combatants.get(name)
            if c is None:
                cells.append("-")
                continue
            text = f"{100 * c.survival.p:.0f}% ({100 * c.survival.low:.0f}-{100 * c.survival.high:.0f})"
            if c.morale_breaks:
                text += f", broke {_share(c.morale_breaks, s.fights)}"
            cells.append(text)
        table.add_row(name, side, *cells)
    return table


def sweep_table(sim: Simulation) -> Table:
    """One row per grid point and ruleset."""
    table = Table(title=f"Sweep over {', '.join(sim.sweep)}: {sim.fights} fights a point, seed {sim.seed}",
                  title_justify="left")
    for name in sim.sweep:
        table.add_column(name)
    table.add_column("ruleset")
    sides = list(dict.fromkeys(side for p in sim.points for s in p.rulesets.values() for side in s.sides))
    for side in sides:
        table.add_column(f"{side} wins", justify="right")
    for label in ("draws", "length", "minutes (95%)", "spells done/ruined/lost/never/cut"):
        table.add_column(label, justify="right")
    for p in sim.points:
        for s in p.rulesets.values():
            wins = [pct(s.win_rate[side]) if side in s.win_rate else "-" for side in sides]
            table.add_row(*(str(p.values[n]) for n in sim.sweep), s.ruleset, *wins, pct(s.draw_rate),
                          f"{s.length.mean:.2f} {s.length.unit}", _mean(s.minutes, "", 2), _spells(s))
    return table
