"""Fights per second of ``affray simulate`` with 1 and 2 workers, per ruleset (wall clock and CPU).

    python benchmarks/bench_simulate.py [--fights 2000] [--seed 1] [--rounds 3] [FILE]

1 worker plays in this process; 2 workers are one process pool, started and warmed once and reused across
the rulesets (as a long session would). Each measurement is the best of ``--rounds``. CPU fights/s counts the
CPU time of the batches wherever they ran. Then the whole ``--ruleset all`` run as ``affray.simulate`` makes it
(its pool started inside the timing), also the best of ``--rounds``. The results of 1 and 2 workers must be
identical; the issue's target is 2 workers >= 1.8x the fights per second of 1. On a shared machine run it
when nothing else is (the load average is printed first).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from affray.rulesets import RULESETS
from affray.sim import simulate

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", default=str(HERE / "fighters_vs_orcs.yaml"))
    parser.add_argument("--fights", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="repeat each measurement, keep the best")
    args = parser.parse_args(argv)
    n = args.fights
    print(f"{args.file}: {n} fights per ruleset, seed {args.seed}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'ruleset':<16} {'1 worker wall':>14} {'cpu':>8} {'2 workers wall':>15} {'cpu':>8} {'speed-up':>9}")
    total = {1: 0.0, 2: 0.0}
    with ProcessPoolExecutor(2) as pool:
        simulate(args.file, rulesets="all", fights=200, seed=0, executor=pool)  # start and warm both workers
        for r in RULESETS:
            best: dict[int, tuple[float, float]] = {}
            docs = {}
            for _ in range(args.rounds):
                for workers in (1, 2):
                    sim = simulate(args.file, rulesets=r.id, fights=n, seed=args.seed, workers=1) if workers == 1 \
                        else simulate(args.file, rulesets=r.id, fights=n, seed=args.seed, executor=pool)
                    docs[workers] = sim.to_dict()
                    if workers not in best or sim.elapsed < best[workers][0]:
                        best[workers] = (sim.elapsed, sim.cpu)
            assert docs[1] == docs[2], f"{r.id}: 1 and 2 workers disagree"
            (w1, c1), (w2, c2) = best[1], best[2]
            total[1] += w1
            total[2] += w2
            print(f"{r.id:<16} {n / w1:>10,.0f} f/s {n / c1:>8,.0f} {n / w2:>11,.0f} f/s {n / c2:>8,.0f} "
                  f"{w1 / w2:>8.2f}x")
    all_n = n * len(RULESETS)
    print(f"{'six, warm pool':<16} {all_n / total[1]:>10,.0f} f/s {'':>8} {all_n / total[2]:>11,.0f} f/s {'':>8} "
          f"{total[1] / total[2]:>8.2f}x")
    w1 = w2 = float("inf")
    for _ in range(args.rounds):
        start = time.perf_counter()
        one = simulate(args.file, rulesets="all", fights=n, seed=args.seed, workers=1)
        w1 = min(w1, time.perf_counter() - start)
        start = time.perf_counter()
        two = simulate(args.file, rulesets="all", fights=n, seed=args.seed, workers=2)  # its own pool, as the CLI
        w2 = min(w2, time.perf_counter() - start)
        assert one.to_dict() == two.to_dict()
    print(f"{'--ruleset all':<16} {all_n / w1:>10,.0f} f/s {'':>8} {all_n / w2:>11,.0f} f/s {'':>8} "
          f"{w1 / w2:>8.2f}x  (pool started inside)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
