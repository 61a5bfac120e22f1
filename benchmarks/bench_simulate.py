"""Fights per second of ``affray simulate`` against the bare engine, per ruleset, in one run (CPU time); then 1
worker against 2.

    python benchmarks/bench_simulate.py [--fights 2000] [--seed 1] [--rounds 3] [FILE]

The overhead: the same fights (the simulation's own seeds) played by the bare engine in its lean mode (``--auto``,
no timeline, nobody listening) and by a simulation's batch (``affray.sim.runner.run_batch``: the lean fight with the
tally listening, each fight summed), in interleaved repeats in this process; the median CPU time of each, their
fights per second and the simulator's overhead (issue 28's target: at most 15%). "heard" is what the engine itself
adds when a listener makes the fight heard (``Fight.heard``: the ``delay`` events of Combat II's attack schedules
are made only then), measured with a listener that does nothing; the tally listens with ``lean_listener`` and
does not pay it. Then the whole ``--ruleset all``
run as ``affray.simulate`` makes it, with 1 worker (this process) and 2 (a process pool started inside the
timing), the best of ``--rounds``: their results must be identical. On a shared machine run it when nothing else
is (the load average is printed first).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from affray.engine.events import Event
from affray.rulesets import RULESETS
from affray.sim import fight_seeds, simulate
from affray.sim.runner import Job, job_prepared, run_batch

HERE = Path(__file__).resolve().parent


def _nobody(e: Event) -> None:
    """A listener that does nothing: what the engine does more when somebody listens."""


def _bare(job: Job, listener: Callable[[Event], None] | None = None) -> float:
    """CPU seconds for the job's fights played by the bare engine, lean (``listener``: told each event)."""
    prepared = job_prepared(job)[0]
    start = time.process_time()
    for seed in job.seeds:
        replace(prepared, seed=seed).fight(auto=True, max_rounds=job.max_rounds, explain=False, keep=False,
                                           on_event=listener).run()
    return time.process_time() - start


def _simulated(job: Job) -> float:
    """CPU seconds for the same fights played and summed as a simulation's batch."""
    start = time.process_time()
    run_batch(job)
    return time.process_time() - start


def overhead(file: str, fights: int, seed: int, repeats: int) -> None:
    text = Path(file).read_text(encoding="utf-8")
    seeds = tuple(s for batch in fight_seeds(seed, fights) for s in batch)
    print(f"{'ruleset':<16} {'simulate f/s':>13} {'bare f/s':>10} {'overhead':>9} {'heard':>13}   (CPU, "
          f"median of {repeats} interleaved repeats of {fights} fights; heard: the bare engine with a listener that "
          "does nothing)")
    worst = 0.0
    for r in RULESETS:
        job = Job(text, file, r.id, (), 50, seeds, False)
        warm = replace(job, seeds=seeds[:5])
        _bare(warm)
        _simulated(warm)
        times: dict[str, list[float]] = {"bare": [], "heard": [], "simulate": []}
        for _ in range(repeats):
            times["bare"].append(_bare(job))
            times["heard"].append(_bare(job, _nobody))
            times["simulate"].append(_simulated(job))
        bare, heard, sim = (statistics.median(times[k]) for k in ("bare", "heard", "simulate"))
        worst = max(worst, sim / bare - 1)
        print(f"{r.id:<16} {fights / sim:>13,.0f} {fights / bare:>10,.0f} {sim / bare - 1:>+9.1%} "
              f"{heard / bare - 1:>+13.1%}")
    print(f"{'worst':<16} {'':>13} {'':>10} {worst:>+9.1%}")


def workers(file: str, fights: int, seed: int, rounds: int) -> None:
    all_n = fights * len(RULESETS)
    w1 = w2 = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        one = simulate(file, rulesets="all", fights=fights, seed=seed, workers=1)
        w1 = min(w1, time.perf_counter() - start)
        start = time.perf_counter()
        two = simulate(file, rulesets="all", fights=fights, seed=seed, workers=2)  # its own pool, as the CLI
        w2 = min(w2, time.perf_counter() - start)
        assert one.to_dict() == two.to_dict(), "1 and 2 workers disagree"
    print(f"--ruleset all: 1 worker {all_n / w1:,.0f} f/s, 2 workers {all_n / w2:,.0f} f/s (pool started inside): "
          f"{w1 / w2:.2f}x; identical results")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", default=str(HERE / "fighters_vs_orcs.yaml"))
    parser.add_argument("--fights", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="repeat each measurement (the overhead: the median; "
                        "workers: the best)")
    args = parser.parse_args(argv)
    from affray.engine import fight

    build = "pure" if (fight.__file__ or "").endswith(".py") else "compiled"
    print(f"{args.file}: {args.fights} fights per ruleset, seed {args.seed}, build {build}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}")
    overhead(args.file, args.fights, args.seed, max(1, args.rounds))
    workers(args.file, args.fights, args.seed, max(1, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
