"""Instructions per fight (callgrind) of ``affray.simulate``'s batch against the bare engine's lean fight, per
ruleset, on whichever build is installed: the figure that a shared machine's load does not move.

    python benchmarks/instr_simulate.py [--fights 100] [--ruleset ID ...] [FILE]

Each (ruleset, mode) runs in a process of its own under ``valgrind --tool=callgrind``, which counts only inside
``functools.reduce`` (``--toggle-collect``): the measured fights are played inside one ``reduce`` call, after a
warm-up of a few fights outside it (imports, the prepared encounter, caches). "bare" plays each seed as
``bench_simulate.py``'s bare engine does (``--auto``, lean, nobody listening); "simulate" as
``affray.sim.runner.run_batch`` does (the tally listening, each fight's record made and summed). The ratio is
simulate over bare: the simulator's overhead (issue 43: at most 1.15 on the compiled build).
"""

from __future__ import annotations

import argparse
import functools
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MODES = ("bare", "simulate")


def child(file: str, ruleset: str, mode: str, fights: int) -> None:
    """The measured fights, inside one ``functools.reduce`` call (what callgrind counts)."""
    from affray.sim import fight_seeds
    from affray.sim.runner import Job, job_prepared, unit_of
    from affray.sim.summary import Summary
    from affray.sim.tally import FightRecord, Tally

    text = Path(file).read_text(encoding="utf-8")
    seeds = tuple(s for batch in fight_seeds(1, fights + 5) for s in batch)
    job = Job(text, file, ruleset, (), 50, seeds, False)
    prepared, sides, hp = job_prepared(job)
    inclusive = unit_of(ruleset)[1]
    spells = any(c.spells for s in prepared.loaded.encounter.sides.values() for c in s.combatants)
    summary = Summary(list(dict.fromkeys(sides.values())), dict(sides), digest=job.digest)  # as run_batch
    try:
        from affray.sim.tally import Sums  # as run_batch: the batch summed natively, added to the summary once

        sums = Sums(summary.sides, job.digest)
        add: Callable[[FightRecord], None] = sums.add
        done: Callable[[], None] = lambda: summary.take(sums)  # noqa: E731
    except ImportError:  # a version before it (issue 43's start): each record added to the summary
        add, done = summary.add, lambda: None

    # as run_batch: the sides' order worked out once a batch (a version before issue 43's end: every fight)
    order: dict[str, Any] = {"order": summary.sides}
    try:
        Tally(sides, hp, **order)
    except TypeError:
        order = {}

    def bare(_acc: Any, seed: int) -> None:
        replace(prepared, seed=seed).fight(auto=True, max_rounds=job.max_rounds, explain=False, keep=False).run()

    def simulated(_acc: Any, seed: int) -> None:  # run_batch's loop, one fight
        tally = Tally(sides, hp, inclusive=inclusive, ruleset=ruleset, spells=spells, **order)
        fight = replace(prepared, seed=seed).fight(auto=True, max_rounds=job.max_rounds, explain=False, keep=False,
                                                   on_event=tally, lean_listener=True)
        result = fight.run()
        add(tally.record(seed, result.final.winner, result.final.combatants, fight.now))

    one = bare if mode == "bare" else simulated

    def counted(_acc: Any, seed: int | None) -> None:
        if seed is not None:
            one(None, seed)
        elif mode == "simulate":
            done()  # the batch's sums added to its summary, once

    for seed in seeds[fights:]:  # the warm-up, not counted
        one(None, seed)
    functools.reduce(counted, [*seeds[:fights], None], None)


def measure(file: str, ruleset: str, mode: str, fights: int) -> int:
    """Instructions inside the measured ``reduce`` call."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=functools_reduce",
           sys.executable, __file__, file, "--child", ruleset, mode, "--fights", str(fights)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    assert found, done.stderr[-2000:]
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", default=str(HERE / "fighters_vs_orcs.yaml"))
    parser.add_argument("--fights", type=int, default=100)
    parser.add_argument("--ruleset", action="append", help="one ruleset (repeatable); every one by default")
    parser.add_argument("--jobs", type=int, default=2, help="valgrind processes at once")
    parser.add_argument("--child", nargs=2, metavar=("RULESET", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.file, args.child[0], args.child[1], args.fights)
        return 0
    from concurrent.futures import ThreadPoolExecutor

    from affray.compiled import compiled_modules
    from affray.rulesets import RULESETS

    rulesets = args.ruleset or [r.id for r in RULESETS]
    build = "compiled" if compiled_modules() else "pure"
    with ThreadPoolExecutor(args.jobs) as pool:
        counts = dict(zip([(r, m) for r in rulesets for m in MODES],
                          pool.map(lambda rm: measure(args.file, rm[0], rm[1], args.fights),
                                   [(r, m) for r in rulesets for m in MODES]), strict=True))
    print(f"{Path(args.file).name}, {build} build, {args.fights} fights a ruleset: M instructions a fight (callgrind)")
    print(f"{'ruleset':16} {'bare':>8} {'simulate':>9} {'ratio':>6}")
    for r in rulesets:
        b, s = counts[(r, "bare")] / args.fights / 1e6, counts[(r, "simulate")] / args.fights / 1e6
        print(f"{r:16} {b:8.3f} {s:9.3f} {s / b:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
