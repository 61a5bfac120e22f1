"""``affray.simulate``: N fights per ruleset (and grid point), summed into ``Simulation``; its ``to_dict()`` is
``affray simulate --json``."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.io.load import Loaded
from affray.sim.runner import BATCH_SIZE, Progress, plan, run_jobs, unit_of
from affray.sim.summary import RulesetStats, Summary
from affray.sim.sweep import Axis
from affray.sim.tally import FightRecord

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FightRow", "Point", "Simulation", "simulate"]


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
    simply its N fights); ``points`` has one entry per grid point."""

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

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` document (CONTRACT.md "Simulation")."""
        doc: dict[str, Any] = {"fights": self.fights, "seed": self.seed, "max_rounds": self.max_rounds,
                               "batch_size": self.batch_size,
                               "rulesets": {k: v.to_dict() for k, v in self.rulesets.items()}}
        if self.sweep:
            doc["sweep"] = list(self.sweep)
            doc["points"] = [p.to_dict() for p in self.points]
        return doc

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def frame(self) -> pd.DataFrame:
        """One row per fight: ruleset, grid point (and its values), fight, seed, winner, length, first blow,
        spells, and per side damage dealt and taken, combatants down, fled and broken."""
        import pandas as pd

        if self.rows is None:
            raise ValueError("no per-fight results kept: call simulate(..., per_fight=True)")
        out = []
        for row in self.rows:
            r = row.record
            stats = self.points[row.point].rulesets[row.ruleset]
            item: dict[str, Any] = {"ruleset": row.ruleset, "point": row.point}
            item.update(self.points[row.point].values)
            item.update({"fight": row.fight, "seed": r.seed, "winner": r.winner, "length": r.length,
                         "unit": stats.length.unit, "first_blow": r.first_blow})
            for kind in ("completed", "ruined", "lost"):
                item[f"spells_{kind}"] = sum(s[kind] for s in r.spells.values())
            sides = {name: c.side for name, c in stats.combatants.items()}
            for side in stats.sides:
                item[f"dealt_{side}"] = r.dealt.get(side, 0)
                item[f"taken_{side}"] = r.taken.get(side, 0)
                item[f"down_{side}"] = sum(1 for n in r.down if sides.get(n) == side)
                item[f"fled_{side}"] = sum(1 for n in r.fled if sides.get(n) == side)
                item[f"broke_{side}"] = sum(1 for n in r.broke if sides.get(n) == side)
            out.append(item)
        return pd.DataFrame(out)


def simulate(source: str | Path | Loaded, *, rulesets: str | Sequence[str] | None = None, fights: int = 1000,
             seed: int | None = None, options: Mapping[str, Any] | None = None, sweep: Sequence[Axis] = (),
             fields: Mapping[str, Any] | None = None, max_rounds: int = 50, workers: int | None = None,
             scheduler: Any = None, executor: Executor | None = None, per_fight: bool = False,
             progress: Progress | None = None) -> Simulation:
    """Play ``fights`` fights with ``--auto`` under each ruleset (``"all"``, an id, a list; default the file's)
    and each point of ``sweep`` (``fields``: fields of the file replaced everywhere, e.g. a side's ``policy``),
    on ``workers`` processes (default: every core; 1: this process), on the given ``executor``, or on a Dask
    cluster (``scheduler``: its address or a ``distributed.Client``). The results are the same whichever: a
    function of the file, options, rulesets, fights and seed alone.

    Raises EncounterError, OptionError or UnknownRulesetError on bad input, before any fight is played."""
    start = time.perf_counter()
    p = plan(source, rulesets=rulesets, fights=fights, seed=seed, options=options, axes=sweep, fields=fields,
             max_rounds=max_rounds, keep=per_fight)
    batches = run_jobs(p.jobs, workers=workers, scheduler=scheduler, executor=executor, progress=progress)
    points: list[dict[str, RulesetStats]] = [{} for _ in p.points]
    pooled: dict[str, Summary] = {}
    pooled_options: dict[str, dict[str, Any]] = {}
    rows: list[FightRow] | None = [] if per_fight else None
    for cell in p.cells:
        summary = Summary(list(cell.sides), dict(cell.combatants))
        fight = 0
        for batch in batches[cell.first_job:cell.first_job + cell.jobs]:
            summary.merge(batch.summary)
            if rows is not None:
                for record in batch.records:
                    rows.append(FightRow(cell.ruleset, cell.point, fight, record))
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
    return Simulation(fights=p.fights, seed=p.seed, max_rounds=p.max_rounds, batch_size=BATCH_SIZE,
                      sweep=[a.name for a in p.axes], rulesets=totals,
                      points=[Point(values, stats) for values, stats in zip(p.points, points, strict=True)],
                      rows=rows, elapsed=time.perf_counter() - start, cpu=sum(b.cpu for b in batches))
