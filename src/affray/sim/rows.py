"""``--rows``: one row per fight and combatant, written as the batches come back (in the order of the fights), never
held in memory: a million fights take no more memory than a hundred.

The columns (``columns``): the fight's (ruleset, grid point and its values, fight, seed, winner, length in the
ruleset's unit and in seconds and minutes, the first blow and fall), then the combatant's (side, hit points at the
start and end, down, fled, broke, when it was first hurt, struck its first blow that hit and fell, the damage it
dealt, its castings by outcome, when its first spell landed and whether before it was first hurt). A .csv is
written with Python's csv module (an empty cell for "none"); a .parquet in row groups with pyarrow.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from typing import Any

from affray.io.output import Output
from affray.sim.summary import landed_before_hurt
from affray.sim.tally import OUTCOMES, FightRecord

__all__ = ["ROW_BYTES", "ROW_SECONDS", "RowsWriter", "combatant_items", "fight_item"]

#: What a row costs, for the up-front estimate (``affray.sim.estimate``): CPU seconds to make and write one
#: (measured: about 25 us for a .csv), and bytes on disk (measured: 250 to 350 for the skirmish's, a long name more).
ROW_SECONDS = 0.0001
ROW_BYTES = 400

_FIGHT = ("fight", "seed", "winner", "length", "unit", "seconds", "minutes", "first_blow", "first_blow_at",
          "first_blow_in", "first_fall_at", "first_fall_in")
_COMBATANT = ("combatant", "side", "hp_start", "hp_end", "down", "fled", "broke", "hurt_at", "down_at", "struck_at",
              "hurt_in", "down_in", "struck_in", "dealt", "castings", *(f"spells_{o}" for o in OUTCOMES),
              "first_landed_at", "first_landed_in", "landed_before_hurt", "spells")


def columns(values: Sequence[str]) -> list[str]:
    """Every column of the rows, ``values``: the names of the grid's axes."""
    return ["ruleset", "point", *values, *_FIGHT, *_COMBATANT]


def fight_item(ruleset: str, point: int, values: dict[str, Any], fight: int, unit: str,
               r: FightRecord) -> dict[str, Any]:
    """A fight's columns: its moments in game seconds (``*_at``) and in the ruleset's unit (``*_in``: the round,
    cycle or phase)."""
    item: dict[str, Any] = {"ruleset": ruleset, "point": point}
    item.update(values)
    item.update({"fight": fight, "seed": r.seed, "winner": r.winner, "length": r.length, "unit": unit,
                 "seconds": r.seconds, "minutes": r.seconds / 60, "first_blow": r.first_blow,
                 "first_blow_at": r.first_blow_at, "first_blow_in": r.first_blow_in, "first_fall_at": r.first_fall_at,
                 "first_fall_in": r.first_fall_in})
    return item


def combatant_items(fight: dict[str, Any], r: FightRecord) -> Iterator[dict[str, Any]]:
    """The fight's rows: its columns, then each combatant's."""
    for c in r.combatants:
        item = dict(fight)
        landed = [k for k in c.castings if k.outcome == "landed" and k.ended is not None]
        first = landed[0] if landed else None
        item.update({"combatant": c.name, "side": c.side, "hp_start": c.start, "hp_end": c.hp, "down": c.down,
                     "fled": c.fled, "broke": c.broke, "hurt_at": c.hurt_at, "down_at": c.down_at,
                     "struck_at": c.struck_at, "hurt_in": c.hurt_in, "down_in": c.down_in, "struck_in": c.struck_in,
                     "dealt": c.dealt, "castings": len(c.castings)})
        for outcome in OUTCOMES:
            item[f"spells_{outcome}"] = sum(1 for k in c.castings if k.outcome == outcome)
        item["first_landed_at"] = first.ended if first is not None else None
        item["first_landed_in"] = first.tick[0] if first is not None and first.tick else None
        item["landed_before_hurt"] = first is not None and landed_before_hurt(first, c)
        item["spells"] = "; ".join(f"{k.spell} {k.outcome}" + (f" ({k.why})" if k.why else "") for k in c.castings)
        yield item


class RowsWriter:
    """The rows written to ``out`` (a .csv, or a .parquet with ``parquet``) as fights are added (``add``), in their
    order, once ``start`` has said the grid's axes and points (their types fix a .parquet's columns); ``close`` ends
    the file (the caller commits ``out``)."""

    def __init__(self, out: Output, parquet: bool) -> None:
        self.out = out
        self.parquet = parquet
        self.names: list[str] = []
        self.rows = 0
        self._text: io.TextIOWrapper | None = None
        self._csv: Any = None
        self._parquet: Any = None
        self._schema: Any = None
        self._batch: list[dict[str, Any]] = []

    def start(self, axes: Sequence[str], points: Sequence[dict[str, Any]]) -> None:
        self.names = columns(axes)
        if self.parquet:
            self._schema = _schema(axes, points)
        else:
            self._text = io.TextIOWrapper(self.out.file, encoding="utf-8", newline="", write_through=False)
            self._csv = csv.writer(self._text, lineterminator="\n")
            self._csv.writerow(self.names)

    def add(self, ruleset: str, point: int, values: dict[str, Any], fight: int, unit: str, r: FightRecord) -> None:
        """A fight's rows; a write that fails (a full disk) said in words, the output discarded (``Output.failed``)."""
        try:
            for item in combatant_items(fight_item(ruleset, point, values, fight, unit, r), r):
                self.rows += 1
                if self._csv is not None:
                    self._csv.writerow(["" if item[n] is None else item[n] for n in self.names])
                else:
                    self._batch.append(item)
            if len(self._batch) >= 10_000:
                self._flush()
        except OSError as exc:
            raise self.out.failed(exc) from None

    def _flush(self) -> None:
        if not self._batch:
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._parquet is None:
            self._parquet = pq.ParquetWriter(self.out.file, self._schema)
        self._parquet.write_table(pa.Table.from_pylist(self._batch, schema=self._schema))
        self._batch = []

    def close(self) -> None:
        """The file's end (a .parquet's footer); the output is then whole, to commit."""
        try:
            self._close()
        except OSError as exc:
            raise self.out.failed(exc) from None

    def _close(self) -> None:
        if self._text is not None:
            self._text.flush()
            self._text.detach()  # the output's own file stays open, to commit
            self._text = None
            return
        self._flush()
        if self._parquet is None:  # no row at all: the columns alone
            import pyarrow.parquet as pq

            self._parquet = pq.ParquetWriter(self.out.file, self._schema)
        self._parquet.close()


def _schema(axes: Sequence[str], points: Sequence[dict[str, Any]]) -> Any:
    """A .parquet's columns: fixed types, a grid axis's from its values (text when they are of several kinds)."""
    import pyarrow as pa

    def axis_type(name: str) -> Any:
        try:
            return pa.array([p.get(name) for p in points]).type
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return pa.string()

    ints = ("point", "fight", "seed", "length", "first_blow_in", "first_fall_in", "hp_start", "hp_end", "hurt_in",
            "down_in", "struck_in", "dealt", "castings", "first_landed_in", *(f"spells_{o}" for o in OUTCOMES))
    floats = ("seconds", "minutes", "first_blow_at", "first_fall_at", "hurt_at", "down_at", "struck_at",
              "first_landed_at")
    bools = ("down", "fled", "broke", "landed_before_hurt")
    fields = []
    for name in columns(axes):
        if name in axes:
            kind = axis_type(name)
        elif name in ints:
            kind = pa.int64()
        elif name in floats:
            kind = pa.float64()
        elif name in bools:
            kind = pa.bool_()
        else:
            kind = pa.string()
        fields.append(pa.field(name, kind))
    return pa.schema(fields)
