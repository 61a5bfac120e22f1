"""What a referee waits for before a command's first line: the CPU of `affray --version`, `affray check` and
`affray run` on the shipped skirmish, each a process of its own, as a shell starts it.

    python benchmarks/bench_startup.py [--runs 21] [--instructions]

Each command runs ``--runs`` times, interleaved with the others and with the references, and its CPU (user +
system of the finished process, ``RUSAGE_CHILDREN``) is reported as the median, with the fastest and slowest run.
The references, in the same run: ``python -c pass`` (the interpreter alone) and the imports no command can do
without (pydantic's models, typer, rich: the floor under which affray's own start-up is). "x floor" is a
command's median over the floor's, the figure to compare across runs on a busy machine.

``--instructions`` also counts each command's instructions once under valgrind's callgrind (the exact figure where
a noisy machine's seconds are not; needs ``valgrind``). Issue 43 asks at most 0.25 s of CPU each on an idle
machine. Nothing is asserted: the figures are printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
AFFRAY = [sys.executable, "-m", "affray"]

#: Each measured command, by its label.
COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "floor: pydantic, typer, rich": [sys.executable, "-c", "from pydantic import BaseModel; import typer, "
                                     "typer._adapters, rich.console, rich.table"],
    "affray --version": [*AFFRAY, "--version"],
    "affray check skirmish": [*AFFRAY, "check", str(SKIRMISH)],
    "affray run skirmish": [*AFFRAY, "run", str(SKIRMISH)],
}
FLOOR = "floor: pydantic, typer, rich"


def cpu(command: list[str]) -> float:
    """The CPU seconds (user + system) of one run of ``command``, its output thrown away."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(command: list[str]) -> int | None:
    """The instructions of one run of ``command`` under callgrind (None without valgrind)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    done = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True, cwd=ROOT)
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1].strip())
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command (default 21)")
    parser.add_argument("--instructions", action="store_true", help="also count instructions (callgrind)")
    args = parser.parse_args()
    env_bytecode = os.environ.get("PYTHONDONTWRITEBYTECODE")
    if env_bytecode:
        print("note: PYTHONDONTWRITEBYTECODE is set: modules changed since their bytecode was cached are compiled "
              "again in every run (unset it for the figures a user sees)")
    for command in COMMANDS.values():  # once each: bytecode cached, files in the page cache
        cpu(command)
    times: dict[str, list[float]] = {label: [] for label in COMMANDS}
    for _ in range(args.runs):
        for label, command in COMMANDS.items():
            times[label].append(cpu(command))
    import affray.engine.fight as fight

    build = "compiled" if not fight.__file__ or not fight.__file__.endswith(".py") else "pure"
    print(f"start-up, CPU of each process (user + system), {args.runs} interleaved runs, the {build} build")
    floor = statistics.median(times[FLOOR])
    print(f"{'command':<30} {'median':>8} {'fastest':>8} {'slowest':>8} {'x floor':>8}"
          + (f" {'instructions':>14}" if args.instructions else ""))
    for label, command in COMMANDS.items():
        t = sorted(times[label])
        line = (f"{label:<30} {statistics.median(t) * 1000:>6.0f}ms {t[0] * 1000:>6.0f}ms {t[-1] * 1000:>6.0f}ms "
                f"{statistics.median(t) / floor:>8.2f}")
        if args.instructions:
            n = instructions(command)
            line += f" {n / 1e6:>12,.0f} M" if n is not None else f" {'(no valgrind)':>14}"
        print(line)


if __name__ == "__main__":
    main()
