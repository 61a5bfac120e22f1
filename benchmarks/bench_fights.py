"""Fights per second of the engine's lean mode (no timeline kept, no explanations) on one core, in CPU time.

    python benchmarks/bench_fights.py [--fights 2000] [--ruleset side-d6] [FILE]
    python benchmarks/bench_fights.py --all [--size N] [--fights 200] [--repeats 5] [FILE]
    python benchmarks/bench_fights.py --scaling 250 500 [--repeats 5] [FILE]

Each fight is the same encounter with seed 0, 1, 2, ... played with --auto to the end. ``--all`` times every
ruleset and, in the same run, the rules-free loop of ``reference.py``, in interleaved repeats (each repeat
times each of them once, in turn); it prints the median of each and its ratio to the reference, which a busy
machine changes far less than the fights per second themselves. ``--size N`` puts N combatants on each side
of the file's first two sides (the fight grows; its rules stay the same).
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from affray import prepare
from affray.io.load import load_text, read_text
from affray.rulesets import RULESETS

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from reference import reference_fight  # noqa: E402


def build() -> str:
    """Which build of affray runs: "compiled" when its engine is a mypyc extension, else "pure"."""
    from affray.engine import fight

    return "compiled" if not fight.__file__ or not fight.__file__.endswith(".py") else "pure"


def _loaded(file: str, size: int | None) -> Any:
    text = read_text(Path(file))
    if size is not None:  # every `count:` of the file becomes N: one line a side in the benchmark files
        text = re.sub(r"count: \d+", f"count: {size}", text)
    return load_text(text, file, strict=False)


def _engine_runner(loaded: Any, ruleset: str | None) -> tuple[str, Callable[[int], int]]:
    prepared = prepare(loaded, ruleset=ruleset, seed=0)

    def one(seed: int) -> int:
        """One fight; the rounds it lasted."""
        return type(prepared)(loaded, prepared.ruleset, seed).fight(auto=True, explain=False, keep=False).run().rounds

    return prepared.ruleset.id, one


def _time(one: Callable[[int], int], fights: int) -> tuple[float, int]:
    """CPU seconds for ``fights`` fights (seeds 0, 1, ...), and the rounds they lasted."""
    rounds = 0
    start = time.process_time()
    for seed in range(fights):
        rounds += one(seed)
    return time.process_time() - start, rounds


def bench_all(file: str, size: int | None, fights: int, repeats: int) -> None:
    loaded = _loaded(file, size)
    runners = [_engine_runner(loaded, cls.id) for cls in RULESETS]
    a = b = size if size is not None else None
    ref_fights = fights * 50  # the reference is ~100 times faster: more fights keep its timing well above the clock's
    reference: Callable[[int], int] = (lambda seed: reference_fight(seed, a, b)) if a and b else reference_fight
    runners.append(("reference", reference))
    times: dict[str, list[float]] = {name: [] for name, _ in runners}
    rounds: dict[str, int] = {}
    for _name, one in runners:  # a warm-up: imports, caches
        one(0)
    for _ in range(repeats):
        for name, one in runners:
            n = ref_fights if name == "reference" else fights
            cpu, rounds[name] = _time(one, n)
            times[name].append(cpu / n)
    ref = statistics.median(times["reference"])
    print(f"build {build()}; {Path(file).name}" + (f", {size} a side" if size else "") +
          f"; lean mode; CPU time, median of {repeats} interleaved repeats of {fights} fights "
          f"({ref_fights} for the reference)")
    # a fight's length varies with its seed and size: ms per round is what compares sizes
    print(f"{'ruleset':16} {'fights/s':>10} {'ms/fight':>9} {'x reference time':>17} {'rounds/fight':>13} "
          f"{'ms/round':>9}")
    for name, _ in runners:
        per = statistics.median(times[name])
        spread = (max(times[name]) - min(times[name])) / per if per else 0.0
        n = ref_fights if name == "reference" else fights
        per_round = per * n / rounds[name] if rounds[name] else 0.0
        print(f"{name:16} {1 / per:10,.0f} {per * 1000:9.3f} {per / ref:17.1f} {rounds[name] / n:13.2f} "
              f"{per_round * 1000:9.3f}   (spread {spread:.0%})")


def bench_scaling(file: str, small: int, large: int, repeats: int) -> None:
    """CPU time of one fight at ``large`` a side against one at ``small``, every ruleset: of the seeds 0-19 whose
    fights last as many rounds at both sizes (so that only the size differs), the one lasting longest (the fight
    itself weighs more than its setup, and a few milliseconds are not timed well); interleaved repeats."""
    loaded = {n: _loaded(file, n) for n in (small, large)}
    print(f"build {build()}; {Path(file).name}, {large} against {small} a side; lean mode; CPU time of one fight, "
          f"{repeats} interleaved repeats")
    print(f"{'ruleset':16} {'seed':>4} {'rounds':>6} {f'ms at {small}':>10} {f'ms at {large}':>10} "
          f"{'ratio of medians':>17} {'of minimums':>12}")
    for cls in RULESETS:
        runners = {n: _engine_runner(loaded[n], cls.id)[1] for n in (small, large)}
        seed, rounds = 0, 0
        for s in range(20):  # also a warm-up: imports, caches
            length = runners[small](s)
            if runners[large](s) == length and length > rounds:
                seed, rounds = s, length
        times: dict[int, list[float]] = {small: [], large: []}
        for _ in range(repeats):
            for n in (small, large):
                start = time.process_time()
                runners[n](seed)
                times[n].append(time.process_time() - start)
        med = {n: statistics.median(t) for n, t in times.items()}
        print(f"{cls.id:16} {seed:4} {rounds:6} {med[small] * 1000:10.1f} {med[large] * 1000:10.1f} "
              f"{med[large] / med[small]:17.2f} {min(times[large]) / min(times[small]):12.2f}")


def bench_one(file: str, size: int | None, fights: int, ruleset: str | None) -> None:
    loaded = _loaded(file, size)
    prepared = prepare(loaded, ruleset=ruleset, seed=0)
    winners: Counter[str | None] = Counter()
    rounds = 0
    start = time.process_time()
    for seed in range(fights):
        fight = type(prepared)(loaded, prepared.ruleset, seed).fight(auto=True, explain=False, keep=False)
        result = fight.run()
        winners[result.final.winner] += 1
        rounds += result.rounds
    elapsed = time.process_time() - start
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"build {build()}; ruleset {prepared.ruleset.id}: {fights} fights in {elapsed:.2f} s CPU = "
          f"{fights / elapsed:,.0f} fights/s; {rounds / fights:.2f} rounds per fight; "
          f"peak memory {peak_mib:.0f} MiB; winners {dict(winners)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", default=str(HERE / "fighters_vs_orcs.yaml"))
    parser.add_argument("--fights", type=int, default=None, help="fights a measurement (default 2000; with --all "
                        "200 a repeat, fewer for a large --size)")
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--all", action="store_true", help="every ruleset and the reference loop, interleaved")
    parser.add_argument("--size", type=int, default=None, metavar="N", help="N combatants a side")
    parser.add_argument("--repeats", type=int, default=5, help="with --all or --scaling: interleaved repeats")
    parser.add_argument("--scaling", type=int, nargs=2, metavar=("SMALL", "LARGE"), default=None,
                        help="every ruleset: one fight at LARGE a side against one at SMALL (e.g. 250 500)")
    args = parser.parse_args(argv)
    if args.scaling:
        bench_scaling(args.file, args.scaling[0], args.scaling[1], args.repeats)
    elif args.all:
        fights = args.fights or max(1, 200 * 5 // max(5, args.size or 5))
        bench_all(args.file, args.size, fights, args.repeats)
    else:
        bench_one(args.file, args.size, args.fights or 2000, args.ruleset)
    return 0


if __name__ == "__main__":
    sys.exit(main())
