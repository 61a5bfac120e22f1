"""The golden set: ``affray run --json`` of every example and benchmark file under every ruleset, several seeds,
with and without ``--auto``, and with each option set to each of its other values; with the lean mode's outcome
of each fight. A change that must keep the bytes (a lean mode, a compiled build) compares against it.

    python benchmarks/goldens.py write DIR      # one file a case, and an index of digests
    python benchmarks/goldens.py compare DIR    # the same cases again: exit 1 naming every case that differs

Each case runs in-process through the command's own code (``affray.cli.app._prepare``, ``timeline_json``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from affray.cli.app import _prepare
from affray.engine.options import option_info
from affray.errors import AffrayError
from affray.io.timeline import timeline_json
from affray.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
#: Relative to the checkout (the cases run from there), so that the words of an error are the same in any clone.
def files() -> list[Path]:
    return sorted(Path("src/affray/examples").glob("*.yaml")) + sorted(Path("benchmarks").glob("*.yaml"))
SEEDS = range(6)

Case = tuple[str, Path, str, int, bool, tuple[str, ...]]


def cases(files: list[Path], seeds: range = SEEDS) -> Iterator[Case]:  # noqa: C901
    """(name, file, ruleset, seed, auto, --set values) of every case."""
    for file in files:
        for cls in RULESETS:
            for seed in seeds:
                for auto in (False, True):
                    yield f"{file.stem}.{cls.id}.{seed}.{'auto' if auto else 'plan'}", file, cls.id, seed, auto, ()
    file = Path("benchmarks/fighters_vs_orcs.yaml")
    for cls in RULESETS:
        for info in _options(cls):
            values: list[object] = [c for c in info.choices or () if c != info.default]
            if info.choices is None and isinstance(info.default, bool):
                values = [not info.default]
            elif info.choices is None and isinstance(info.default, int):
                values = [info.default + 1]
            for value in values:
                text = str(value).lower() if isinstance(value, bool) else str(value)
                for seed in seeds[:2]:
                    yield (f"opt.{cls.id}.{info.name}={text}.{seed}", file, cls.id, seed, True,
                           (f"{info.name}={text}",))


def _options(cls: type[Any]) -> list[Any]:
    """The ruleset's options, then each installed extension's (named as a file names them: bare for Combat II's
    supplement, whose options every ruleset had before it was an extension; ``NS.name`` for another's)."""
    from dataclasses import replace

    from affray.extensions import extensions

    out = list(option_info(cls.Options))
    for x in extensions():
        prefix = "" if x.bare_options else f"{x.name}."
        out += [replace(i, name=prefix + i.name) for i in option_info(x.Options)]
    return out


def run_case(case: Case) -> str:
    """The case's ``--json`` output and its lean mode's outcome (or the error it ends with)."""
    _name, file, ruleset, seed, auto, sets = case
    try:
        prepared, _options, _text = _prepare(file, ruleset, seed, list(sets))
        out = timeline_json(prepared.fight(auto=auto, max_rounds=50).run())
        lean = prepared.fight(auto=auto, max_rounds=50, explain=False, keep=False).run()
        outcome = json.dumps({"winner": lean.final.winner, "rounds": lean.rounds,
                              "final": lean.final.combatants}, sort_keys=True, default=str)
    except AffrayError as exc:
        return f"error: {exc}\n"
    return out + "\n-- lean --\n" + outcome + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("write", "compare"))
    parser.add_argument("dir", type=Path)
    args = parser.parse_args(argv)
    args.dir = args.dir.resolve()
    os.chdir(ROOT)
    index: dict[str, str] = {}
    differ: list[str] = []
    args.dir.mkdir(parents=True, exist_ok=True)
    for case in cases(files()):
        name = case[0]
        text = run_case(case)
        index[name] = hashlib.sha256(text.encode()).hexdigest()
        path = args.dir / f"{name}.json"
        if args.mode == "write":
            path.write_text(text)
        elif not path.exists() or path.read_text() != text:
            differ.append(name)
            path.with_suffix(".new").write_text(text)
    if args.mode == "write":
        (args.dir / "index.json").write_text(json.dumps(index, indent=0, sort_keys=True))
        print(f"{len(index)} cases written to {args.dir}")
        return 0
    for name in differ:
        print(f"differs: {name} (see {args.dir / name}.new)")
    print(f"{len(index)} cases, {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
