"""``affray.simulate``: N fights per ruleset (and grid point), summed into ``Simulation``; its ``to_dict()`` is
``affray simulate --json``."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.errors import OptionError
from affray.io.load import Loaded
from affray.io.output import output
from affray.sim.rows import RowsWriter, columns, combatant_items, fight_item
from affray.sim.rules import RulesNote
from affray.sim.runner import BATCH_SIZE, Batch, Plan, Progress, default_workers, plan, run_jobs, unit_of
from affray.sim.stats import Difference, paired, unpaired_means, unpaired_rates
from affray.sim.summary import SPELL_KINDS, RulesetStats, Summary
from affray.sim.sweep import Axis
from affray.sim.tally import FightRecord

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ROWS_FORMATS", "FightRow", "Point", "Simulation", "check_rows_path", "simulate"]


@dataclass(frozen=True)
class Point:
    """One point of a sweep's grid (no values without a sweep) and its results per ruleset."""

    values: dict[str, Any]
    rulesets: dict[str, RulesetStats]

    def to_dict(self) -> dict[str, Any]:
        return {"values": dict(self.values), "rulesets": {k: v.to_dict() for k, v in self.rulesets.items()}}


@dataclass(frozen=True)
class FightRow:
    """One fight of the simulation, for ``Simulation.frame()``."""

    ruleset: str
    point: int
    fight: int  # its index among the N fights of its ruleset and point
    record: FightRecord


@dataclass(frozen=True)
class Simulation:
    """What ``simulate`` found. ``rulesets`` sums each ruleset over every point of a sweep (without a sweep,
    simply its N fights); ``points`` has one entry per grid point. ``differences``: each ruleset against the first
    (different fights: unpaired), and each grid point against the first of its ruleset (the same seeds: paired);
    ``notes``: each ruleset's morale and surprise; ``warnings``: a varied field or option that changed nothing."""

    fights: int
    seed: int
    max_rounds: int
    batch_size: int
    sweep: list[str]
    rulesets: dict[str, RulesetStats]
    points: list[Point]
    rows: list[FightRow] | None  # per fight, when asked for (``per_fight=True``)
    elapsed: float  # wall-clock seconds (not part of the results: it depends on the machine)
    cpu: float  # CPU seconds summed over the batches, wherever they ran
    file: str = "<encounter>"
    notes: dict[str, RulesNote] = field(default_factory=dict)
    differences: list[Difference] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The encounter's name, for titles and file names: its file's stem."""
        return Path(self.file).stem or "encounter"

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` document (CONTRACT.md "Simulation")."""
        doc: dict[str, Any] = {"fights": self.fights, "seed": self.seed, "max_rounds": self.max_rounds,
                               "batch_size": self.batch_size,
                               "rulesets": {k: v.to_dict() for k, v in self.rulesets.items()},
                               "notes": {k: v.to_dict() for k, v in self.notes.items()},
                               "differences": [d.to_dict() for d in self.differences]}
        if self.sweep:
            doc["sweep"] = list(self.sweep)
            doc["points"] = [p.to_dict() for p in self.points]
        if self.warnings:
            doc["warnings"] = list(self.warnings)
        return doc

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def _kept(self) -> list[FightRow]:
        if self.rows is None:
            raise ValueError("no per-fight results kept: call simulate(..., per_fight=True)")
        return self.rows

    def _fight(self, row: FightRow) -> dict[str, Any]:
        """A fight's columns (``affray.sim.rows.fight_item``)."""
        return fight_item(row.ruleset, row.point, self.points[row.point].values, row.fight, unit_of(row.ruleset)[0],
                          row.record)

    def frame(self) -> pd.DataFrame:
        """One row per fight: ruleset, grid point (and its values), fight, seed, winner, length (in the ruleset's
        unit, in seconds and minutes), first blow and when, the first fall, spells by outcome, and per side damage
        dealt and taken, combatants down, fled and broken."""
        import pandas as pd

        out = []
        for row in self._kept():
            r = row.record
            item = self._fight(row)
            for kind in SPELL_KINDS:
                item[f"spells_{kind}"] = sum(s[kind] for s in r.spells.values())
            sides = {c.name: c.side for c in r.combatants}
            for side in r.dealt:
                item[f"dealt_{side}"] = r.dealt.get(side, 0)
                item[f"taken_{side}"] = r.taken.get(side, 0)
                item[f"down_{side}"] = sum(1 for n in r.down if sides.get(n) == side)
                item[f"fled_{side}"] = sum(1 for n in r.fled if sides.get(n) == side)
                item[f"broke_{side}"] = sum(1 for n in r.broke if sides.get(n) == side)
            out.append(item)
        return pd.DataFrame(out)

    def combatant_frame(self) -> pd.DataFrame:
        """One row per fight and combatant (``--rows``: ``affray.sim.rows``): the fight's columns (as ``frame``'s
        first ones), then the combatant, its side, hit points at the start and end, down, fled, broke, when it was
        first hurt, when its first blow hit and when it fell (game seconds), the damage it dealt, and its castings:
        how many, how many landed, were ruined, lost, never begun or cut off, when the first landed, and whether that
        was before it was first hurt."""
        import pandas as pd

        out = [item for row in self._kept() for item in combatant_items(self._fight(row), row.record)]
        return pd.DataFrame(out, columns=columns(self.sweep))

    def write_rows(self, path: Path) -> None:
        """The rows (``combatant_frame``'s) to ``path``: .csv, or .parquet (which needs pyarrow), whole or not at
        all."""
        kept = self._kept()
        check_rows_path(path)
        with output(path, "--rows") as out:
            writer = RowsWriter(out, path.suffix.lower() == ".parquet")
            writer.start(self.sweep, [p.values for p in self.points])
            for row in kept:
                writer.add(row.ruleset, row.point, self.points[row.point].values, row.fight, unit_of(row.ruleset)[0],
                           row.record)
            writer.close()


#: What ``--rows`` writes, by the file's extension.
ROWS_FORMATS = (".csv", ".parquet")


def check_rows_path(path: Path) -> None:
    """A ``--rows`` file: .csv or .parquet in a folder that exists; .parquet needs pyarrow."""
    suffix = path.suffix.lower()
    if suffix not in ROWS_FORMATS:
        raise OptionError(f"--rows {path}: name a .csv or .parquet file (the extension picks the format)")
    if not path.parent.is_dir():
        raise OptionError(f"--rows {path}: no such folder {path.parent}")
    if path.is_dir():
        raise OptionError(f"--rows {path}: is a folder: name a .csv or .parquet file")
    if suffix == ".parquet":
        from importlib.util import find_spec

        if find_spec("pyarrow") is None:
            raise OptionError(f"--rows {path}: writing .parquet needs pyarrow (pip install pyarrow); .csv needs "
                              "nothing more")


def _label(values: dict[str, Any]) -> str:
    """A grid point in words: ``crits=c2-severity, sides.orcs.morale=9``."""
    return ", ".join(f"{n}={v}" for n, v in values.items())


def _differences(rulesets: list[str], pooled: dict[str, Summary], stats: dict[str, RulesetStats],
                 cells: dict[tuple[int, str], Summary], points: list[dict[str, Any]]) -> list[Difference]:
    """Each ruleset against the first (unpaired: the rulesets roll different dice from the first one), and each
    grid point against the first of its ruleset (paired: the same seeds, fight by fight)."""
    out: list[Difference] = []
    if len(rulesets) > 1:
        base = rulesets[0]
        for r in rulesets[1:]:
            one, other = pooled[r], pooled[base]
            for side in one.sides:
                if side in other.sides:
                    out.append(unpaired_rates(r, base, f"wins:{side}", one.wins[side], one.fights,
                                              other.wins[side], other.fights))
            out.append(unpaired_means(r, base, "minutes", stats[r].minutes, stats[base].minutes))
    for r in rulesets:
        first = cells[(0, r)]
        for k in range(1, len(points)):
            cell = cells[(k, r)]
            a, b = f"{r}: {_label(points[k])}", f"{r}: {_label(points[0])}"
            for i, side in enumerate(cell.sides):
                out.append(paired(a, b, f"wins:{side}", [float(w == i) for w in cell.winners],
                                  [float(w == first.sides.index(side)) for w in first.winners]))
            out.append(paired(a, b, "minutes", [s / 60 for s in cell.seconds], [s / 60 for s in first.seconds]))
    return out


def _unchanged(axes: list[Axis], grid_points: list[dict[str, Any]], rulesets: list[str],
               cells: dict[tuple[int, str], Summary]) -> list[str]:
    """A warning for each varied field or option whose values played exactly the same fights (same winner,
    length, damage, falls) at every other setting of the grid, under every ruleset: it changes nothing here."""
    out = []
    for axis in axes:
        if len(axis.values) < 2:
            continue
        groups: dict[tuple[Any, ...], list[int]] = {}
        for k, values in enumerate(grid_points):
            key = tuple(repr(v) for n, v in values.items() if n != axis.name)
            groups.setdefault(key, []).append(k)
        same = all(cells[(ks[0], r)].digests == cells[(k, r)].digests
                   for ks in groups.values() for k in ks[1:] for r in rulesets)
        if same:
            said = ", ".join(str(v) for v in axis.values)
            out.append(f"{'--set' if axis.kind == 'option' else '--vary'} {axis.name}: every fight came out the same "
                       f"at each of its values ({said}): it changes nothing in these fights (as level does when "
                       "thac0, hp and attacks are given)")
    return out


def _within(p: Plan, parallel: int, budget: float | None, rows: RowsWriter | None) -> None:
    """OptionError when ``p`` would take longer than ``budget`` seconds (its rows written too): how long, and what
    would be accepted; or when its rows would not fit on their disk (whatever the budget)."""
    from affray.sim.estimate import duration, estimate, fights_within, rows_bytes, words_bytes

    if rows is not None:
        size = rows_bytes(p)
        free = _free(rows.out.path.parent)
        if free is not None and size > free:
            raise OptionError(f"{p.file}: --rows {rows.out.path}: about {words_bytes(size)} of rows "
                              f"({p.fights * len(p.cells):,} fights x their combatants); the disk there has "
                              f"{words_bytes(free)} free: fewer --fights, or rows on another disk (nothing was "
                              "played)")
    if budget is None:
        return
    est = estimate(p, parallel, budget, rows=rows is not None)
    if est.seconds > budget:
        raise OptionError(f"{p.file}: this simulation would take {est.words()}: more than {duration(budget)} asks "
                          f"for --yes (limit): give --yes to run it, or about --fights "
                          f"{fights_within(est, p.fights, budget):,} to finish within {duration(budget)}")


def _free(folder: Path) -> int | None:
    import shutil

    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def simulate(source: str | Path | Loaded, *, rulesets: str | Sequence[str] | None = None, fights: int = 1000,  # noqa: C901
             seed: int | None = None, options: Mapping[str, Any] | None = None, sweep: Sequence[Axis] = (),
             fields: Mapping[str, Any] | None = None, max_rounds: int = 50, workers: int | None = None,
             scheduler: Any = None, executor: Executor | None = None, per_fight: bool = False,
             progress: Progress | None = None, budget: float | None = None,
             rows: RowsWriter | None = None) -> Simulation:
    """Play ``fights`` fights with ``--auto`` under each ruleset (``"all"``, an id, a list; default the file's)
    and each point of ``sweep`` (``fields``: fields of the file replaced everywhere, e.g. a side's ``policy``),
    on ``workers`` processes (default: every core; 1: this process), on the given ``executor``, or on a Dask
    cluster (``scheduler``: its address or a ``distributed.Client``). The results are the same whichever: a
    function of the file, options, rulesets, fights and seed alone.

    ``budget``: seconds the simulation may be expected to take (``affray.sim.estimate``); past it, OptionError
    before any fight is played (``affray simulate`` gives ``MAX_SIMULATE_SECONDS`` unless ``--yes``).

    ``rows``: each fight's rows written there as its batch comes back, in the order of the fights (``--rows``),
    none kept in memory (unless ``per_fight``); the writer is closed at the end (its output is the caller's to
    commit).

    Raises EncounterError, OptionError or UnknownRulesetError on bad input, before any fight is played."""
    start = time.perf_counter()
    p = plan(source, rulesets=rulesets, fights=fights, seed=seed, options=options, axes=sweep, fields=fields,
             max_rounds=max_rounds, keep=per_fight or rows is not None)
    parallel = 1 if scheduler is not None else workers or getattr(executor, "_max_workers", 0) or default_workers()
    _within(p, parallel, budget, rows)
    on_batch = None
    if rows is not None:
        writer = rows
        writer.start([a.name for a in p.axes], p.points)
        where = {}
        for cell in p.cells:
            start = 0
            for j in range(cell.first_job, cell.first_job + cell.jobs):
                where[j] = (cell, start)
                start += len(p.jobs[j].seeds)

        def on_batch(j: int, batch: Batch) -> None:
            cell, start = where[j]
            values, unit = p.points[cell.point], unit_of(cell.ruleset)[0]
            for k, record in enumerate(batch.records):
                writer.add(cell.ruleset, cell.point, values, start + k, unit, record)
            if not per_fight:
                batch.records = []  # written: not kept

    batches = run_jobs(p.jobs, workers=workers, scheduler=scheduler, executor=executor, progress=progress,
                       on_batch=on_batch)
    if rows is not None:
        rows.close()
    points: list[dict[str, RulesetStats]] = [{} for _ in p.points]
    pooled: dict[str, Summary] = {}
    pooled_options: dict[str, dict[str, Any]] = {}
    kept: list[FightRow] | None = [] if per_fight else None
    summaries: dict[tuple[int, str], Summary] = {}
    notes: dict[str, RulesNote] = {}
    for cell in p.cells:
        notes.setdefault(cell.ruleset, cell.note)
        summary = summaries[(cell.point, cell.ruleset)] = Summary(list(cell.sides), dict(cell.combatants))
        fight = 0
        for batch in batches[cell.first_job:cell.first_job + cell.jobs]:
            summary.merge(batch.summary)
            if kept is not None:
                for record in batch.records:
                    kept.append(FightRow(cell.ruleset, cell.point, fight, record))
                    fight += 1
        unit = unit_of(cell.ruleset)[0]
        points[cell.point][cell.ruleset] = RulesetStats.of(cell.ruleset, unit, cell.options, summary)
        if cell.ruleset in pooled:
            pooled[cell.ruleset].merge(summary)
        else:
            pooled[cell.ruleset] = summary.copy()
            pooled_options[cell.ruleset] = {k: v for k, v in cell.options.items()
                                            if k not in {a.name for a in p.axes}}
    totals = {r: RulesetStats.of(r, unit_of(r)[0], pooled_options[r], pooled[r]) for r in p.rulesets}
    sim = Simulation(fights=p.fights, seed=p.seed, max_rounds=p.max_rounds, batch_size=BATCH_SIZE,
                     sweep=[a.name for a in p.axes], rulesets=totals,
                     points=[Point(values, stats) for values, stats in zip(p.points, points, strict=True)],
                     rows=kept, elapsed=time.perf_counter() - start, cpu=sum(b.cpu for b in batches), file=p.file,
                     notes=notes, differences=_differences(p.rulesets, pooled, totals, summaries, p.points),
                     warnings=_unchanged(p.axes, p.points, p.rulesets, summaries))
    return sim
