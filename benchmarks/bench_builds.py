"""The compiled build against the pure one and against the engine's first version, in one run: fights per second
of every ruleset's lean mode on one core (CPU time), each build beside the rules-free reference loop, in interleaved
repeats.

    python benchmarks/bench_builds.py [--fights 200] [--repeats 3] [--size N] [--first COMMIT] [FILE]

Needs the compiled build installed (``AFFRAY_COMPILE=1 pip install .``): its ``.py`` sources sit beside its
compiled modules, and a child process told ``--child pure`` imports them instead (``affray.compiled.pure_sources``).
The first version (``--first``, by default a68f027: main before issue 17, the "before" of benchmarks/NOTES.md's
first figures, pure Python) is taken from this checkout's git history (``git archive``) into a temporary folder
that a child told ``--child first`` imports affray from; without git or the history, its column is left out (and
said). Each repeat runs a child of each build in turn, each timing every ruleset and the reference once: the load
of a shared machine falls on all alike, and the ratio to the reference, which is the same Python code in all,
shows what is left of it. Prints, per ruleset, the median fights per second of each build, the compiled build's
speed-up over the pure one and over the first version (issue 43's aim: at least 5x on every ruleset), and each
build's time as a multiple of the reference's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILDS = ("compiled", "pure", "first")
#: The engine's first version measured (benchmarks/NOTES.md, issue 17's "before"): main at a68f027, pure Python.
FIRST = "a68f027"


def _first_sources(commit: str, into: Path) -> str | None:
    """The package's sources at ``commit`` written under ``into`` (``into/src/affray``); None if they cannot be
    had, else the folder to import affray from."""
    try:
        archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", commit, "src/affray"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return str(into / "src")


def child(build: str, file: str, size: int | None, fights: int) -> int:
    """One repeat in this process: CPU seconds a fight of every ruleset and of the reference, as JSON."""
    if build == "pure":
        from affray.compiled import pure_sources

        pure_sources()
    elif build == "first":
        sys.path.insert(0, os.environ["AFFRAY_FIRST_SOURCES"])  # before any import of affray
    sys.path.insert(0, str(HERE))
    from bench_fights import _engine_runner, _loaded, _time
    from bench_fights import build as running
    from reference import reference_fight

    from affray.rulesets import RULESETS

    if build == "first":
        import affray

        assert (affray.__file__ or "").startswith(os.environ["AFFRAY_FIRST_SOURCES"]), affray.__file__
    else:
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
    parser.add_argument("--first", default=FIRST, metavar="COMMIT", help="the engine's first version (git)")
    parser.add_argument("--child", choices=BUILDS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child, args.file, args.size, args.fights)
    from affray.compiled import compiled_modules

    if not compiled_modules():
        print("bench_builds: the pure build is installed; install the compiled one (AFFRAY_COMPILE=1 pip install .)",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        first = _first_sources(args.first, Path(tmp))
        if first is None:
            print(f"bench_builds: the first version ({args.first}) is not in this checkout's git history: left out",
                  file=sys.stderr)
        builds = [b for b in BUILDS if b != "first" or first is not None]
        times: dict[str, dict[str, list[float]]] = {b: {} for b in builds}
        for _ in range(args.repeats):
            for b in list(builds):
                cmd = [sys.executable, __file__, args.file, "--child", b, "--fights", str(args.fights)]
                cmd += ["--size", str(args.size)] if args.size else []
                env = {**os.environ, "AFFRAY_FIRST_SOURCES": first} if b == "first" and first else None
                done = subprocess.run(cmd, capture_output=True, text=True, check=b != "first", env=env)
                if done.returncode:  # the first version's own dependencies (d20) may be missing here
                    last = (done.stderr.strip().splitlines() or ["?"])[-1]
                    print(f"bench_builds: the first version ({args.first}) does not run here ({last}): left out "
                          "(its dependencies: pip install d20==1.1.2)", file=sys.stderr)
                    builds.remove(b)
                    del times[b]
                    continue
                one = json.loads(done.stdout)
                for name, t in one.items():
                    times[b].setdefault(name, []).append(t)
    med = {b: {name: statistics.median(t) for name, t in times[b].items()} for b in builds}
    print(f"{Path(args.file).name}" + (f", {args.size} a side" if args.size else "") + f"; lean mode; CPU time, "
          f"median of {args.repeats} interleaved repeats of {args.fights} fights a ruleset"
          + (f"; first version: {args.first} (pure)" if "first" in med else ""))
    head = f"{'ruleset':16} {'compiled/s':>11} {'pure/s':>9}"
    head += f" {'first/s':>9}" if "first" in med else ""
    head += f" {'x pure':>7}" + (f" {'x first':>8}" if "first" in med else "")
    head += f" {'x ref (compiled)':>17} {'x ref (pure)':>13}" + (f" {'x ref (first)':>14}" if "first" in med else "")
    print(head)
    for name in med["compiled"]:
        c, p = med["compiled"][name], med["pure"][name]
        f = med["first"].get(name) if "first" in med else None
        line = f"{name:16} {1 / c:11,.0f} {1 / p:9,.0f}"
        line += (f" {1 / f:9,.0f}" if f else f" {'':>9}") if "first" in med else ""
        line += f" {p / c:7.2f}" + ((f" {f / c:8.2f}" if f else f" {'':>8}") if "first" in med else "")
        line += f" {c / med['compiled']['reference']:17.1f} {p / med['pure']['reference']:13.1f}"
        line += (f" {f / med['first']['reference']:14.1f}" if f else "") if "first" in med else ""
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
