"""Fights per second of the engine's lean mode (no timeline kept, no explanations) on one core.

    python benchmarks/bench_fights.py [--fights 2000] [--ruleset side-d6] [FILE]

Each fight is the same encounter with seed 0, 1, 2, ... played with --auto to the end.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter
from pathlib import Path

from affray import load_encounter, prepare

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", nargs="?", default=str(HERE / "fighters_vs_orcs.yaml"))
    parser.add_argument("--fights", type=int, default=2000)
    parser.add_argument("--ruleset", default=None)
    args = parser.parse_args(argv)
    loaded = load_encounter(args.file)
    prepared = prepare(loaded, ruleset=args.ruleset, seed=0)
    winners: Counter[str | None] = Counter()
    rounds = 0
    start = time.perf_counter()
    for seed in range(args.fights):
        fight = type(prepared)(loaded, prepared.ruleset, seed).fight(auto=True, explain=False, keep=False)
        result = fight.run()
        winners[result.final.winner] += 1
        rounds += result.rounds
    elapsed = time.perf_counter() - start
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"ruleset {prepared.ruleset.id}: {args.fights} fights in {elapsed:.2f} s = "
          f"{args.fights / elapsed:,.0f} fights/s; {rounds / args.fights:.2f} rounds per fight; "
          f"peak memory {peak_mib:.0f} MiB; winners {dict(winners)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
