"""The compiled build against the pure one, in one run: fights per second of every ruleset's lean mode on one
core (CPU time), each build beside the rules-free reference loop, in interleaved repeats.

    python benchmarks/bench_builds.py [--fights 200] [--repeats 3] [--size N] [FILE]

Needs the compiled build installed (``AFFRAY_COMPILE=1 pip install .``): its ``.py`` sources sit beside its
compiled modules, and a child process told ``--child pure`` imports them instead (``affray.compiled.pure_sources``).
Each repeat runs a child of each build in turn, each timing every ruleset and the reference once: the load of a
shared machine falls on both alike, and the ratio to the reference, which is the same Python code in both, shows
what is left of it. Prints, per ruleset, the median fights per second of each build and the compiled build's
speed-up.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILDS = ("compiled", "pure")


def child(build: str, file: str, size: int | None, fights: int) -> int:
    """One repeat in this process: CPU seconds a fight of every ruleset and of the reference, as JSON."""
    if build == "pure":
        from affray.compiled import pure_sources

        pure_sources()
    sys.path.insert(0, str(HERE))
    from bench_fights import _engine_runner, _loaded, _time
    from bench_fights import build as running
    from reference import reference_fight

    from affray.rulesets import RULESETS

    assert running() == build, f"asked for the {build} build, running the {running()} one"
    loaded = _loaded(file, size)
    runners = [_engine_runner(loaded, cls.id) for cls in RULESETS]
    runners.append(("reference", (lambda seed: reference_fight(seed, size, size)) if size else reference_fight))
    out = {}
    for _name, one in runners:  # a warm-up: imports, caches
        one(0)
    for name, one in runners:
        n = fights * 50 if name == "reference" else fights  # the reference is ~100 times faster
        out[name] = _time(one, n)[0] / n
    print(json.dumps(out))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", default=str(HERE / "fighters_vs_orcs.yaml"))
    parser.add_argument("--fights", type=int, default=200, help="fights of each ruleset a repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--size", type=int, default=None, metavar="N", help="N combatants a side")
    parser.add_argument("--child", choices=BUILDS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child, args.file, args.size, args.fights)
    from affray.compiled import compiled_modules

    if not compiled_modules():
        print("bench_builds: the pure build is installed; install the compiled one (AFFRAY_COMPILE=1 pip install .)",
              file=sys.stderr)
        return 2
    times: dict[str, dict[str, list[float]]] = {b: {} for b in BUILDS}
    for _ in range(args.repeats):
        for b in BUILDS:
            cmd = [sys.executable, __file__, args.file, "--child", b, "--fights", str(args.fights)]
            cmd += ["--size", str(args.size)] if args.size else []
            one = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
            for name, t in one.items():
                times[b].setdefault(name, []).append(t)
    med = {b: {name: statistics.median(t) for name, t in times[b].items()} for b in BUILDS}
    print(f"{Path(args.file).name}" + (f", {args.size} a side" if args.size else "") + f"; lean mode; CPU time, "
          f"median of {args.repeats} interleaved repeats of {args.fights} fights a ruleset")
    print(f"{'ruleset':16} {'compiled/s':>11} {'pure/s':>9} {'speed-up':>9} {'x ref (compiled)':>17} "
          f"{'x ref (pure)':>13}")
    for name in med["compiled"]:
        c, p = med["compiled"][name], med["pure"][name]
        print(f"{name:16} {1 / c:11,.0f} {1 / p:9,.0f} {p / c:9.2f} {c / med['compiled']['reference']:17.1f} "
              f"{p / med['pure']['reference']:13.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
