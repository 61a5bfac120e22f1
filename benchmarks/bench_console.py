"""How long the referee's console takes to answer one `step` in a 40-combatant fight.

    python benchmarks/bench_console.py [--ruleset ID]... [--steps 300] [FILE]

Each step is what a referee at the terminal waits for after pressing Enter: the engine resolves the next
event, the event is journalled to SQLite (WAL, synchronous=FULL: committed to disk) and shown, and the
status (hit points, casting, engagements, who acts next, morale due) is drawn for the next prompt. Measured
from one prompt to the next, output to a buffer; the database lives in a temporary directory. Then one
`undo`, which rebuilds the fight by replaying its journal (the console's slowest answer).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

from affray import load_encounter, prepare
from affray.play import RefereeConsole
from affray.rulesets import RULESETS
from affray.table import Store

HERE = Path(__file__).resolve().parent


class _Stepper:
    """A referee who types `step` at every prompt and notes how long each answer took."""

    interactive = False

    def __init__(self, steps: int) -> None:
        self.left = steps
        self.times: list[float] = []
        self.undo: float | None = None
        self._last: float | None = None

    def ask(self, prompt: str, complete: object = None) -> str | None:
        now = time.perf_counter()
        if self._last is not None:
            if self.left >= 0:
                self.times.append(now - self._last)
            else:
                self.undo = now - self._last
                return None
        if self.left == 0 or prompt.startswith("fight over"):
            self.left = -1
            self._last = time.perf_counter()
            return "undo"  # a replay of every event but the last: the slowest answer the console gives
        self.left -= 1
        self._last = time.perf_counter()
        return "step"


def bench(file: Path, ruleset: str, steps: int) -> _Stepper:
    text = file.read_text(encoding="utf-8")
    prepared = prepare(load_encounter(file), ruleset=ruleset)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        game = store.new_game(str(file), text, prepared.ruleset.id, prepared.seed, {}, True, 50)
        stepper = _Stepper(steps)
        console = Console(file=io.StringIO(), width=120)
        with store.writer(game.id):
            RefereeConsole(store, game, stepper, console, show_status_at_prompt=True).play()
        store.close()
    return stepper


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", nargs="?", default=str(HERE / "forty.yaml"))
    parser.add_argument("--ruleset", action="append", default=None)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args(argv)
    file = Path(args.file)
    n = sum(c.count for s in load_encounter(file).encounter.sides.values() for c in s.combatants)
    for ruleset in args.ruleset or [r.id for r in RULESETS]:
        stepper = bench(file, ruleset, args.steps)
        times = sorted(t * 1000 for t in stepper.times)
        p95 = times[int(0.95 * (len(times) - 1))]
        undo = (stepper.undo or 0) * 1000
        print(f"ruleset {ruleset}: {n} combatants, {len(times)} steps: median {statistics.median(times):.1f} ms, "
              f"95th percentile {p95:.1f} ms, slowest {times[-1]:.1f} ms; undo after them {undo:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
