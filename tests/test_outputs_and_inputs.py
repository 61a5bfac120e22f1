"""Outputs that never destroy, inputs that never hang (issue 42).

Every file affray writes (``run --board``, ``simulate --rows`` and ``--plot``, ``new``, ``examples --copy``) is
written beside its target and renamed into place: a full disk leaves the old file as it was and nothing partial;
an output that is one of the inputs is refused; a folder that cannot be written to is said before a fight is
played; rows go to disk as the fights come back, not to memory. An input that is not a regular file (a FIFO,
``/dev/stdin`` from a pipe, a device) is refused before it is read. The disk is full for real here: the process that
writes runs under a file size limit (``RLIMIT_FSIZE``: a write past it fails with EFBIG, as on a full disk; Python
ignores SIGXFSZ), on the real file system.
"""

from __future__ import annotations

import csv
import os
import resource
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from affray.sim.estimate import estimate
from affray.sim.rows import ROW_SECONDS
from affray.sim.runner import plan
from cli_run import affray_here
from conftest import EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
ORCS = ROOT / "benchmarks" / "fighters_vs_orcs.yaml"
SKIRMISH = EXAMPLES / "skirmish.yaml"
OLD = b"the old file, kept\n"


def affray_process(*args: str | Path, limit: int | None = None, timeout: float = 120, cwd: Path | None = None,
                   stdin: int | None = None) -> subprocess.CompletedProcess[str]:
    """``affray ARGS`` as a process of its own; ``limit``: the most bytes a file it writes may hold (a full disk)."""

    def full_disk() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    # Under the limit, Python would also cut short the bytecode it caches of every module it compiles (a .pyc is
    # written past the limit's bytes, then trusted by every later process: "marshal data too short"): none is kept.
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"} if limit is not None else None
    return subprocess.run([sys.executable, "-m", "affray", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=full_disk, cwd=cwd, stdin=stdin, env=env)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


# ------------------------------------------------------------------------------------ an output that is an input

def test_an_output_that_is_an_input_is_refused_by_any_name(tmp_path: Path) -> None:
    """`affray run f.yaml --board f.yaml` (or a link to it, or the catalogue) is refused, exit 2, and the file is as
    it was. Before, the encounter was overwritten by its own board, exit 0."""
    fight = tmp_path / "f.yaml"
    shutil.copy(SKIRMISH, fight)
    text = fight.read_bytes()
    (tmp_path / "other.yaml").symlink_to(fight)
    catalogue = tmp_path / "mine.yaml"
    catalogue.write_text("weapons:\n  my sword: {sf: 4, damage: 1d8, source: my table}\n", encoding="utf-8")
    mine = catalogue.read_bytes()
    for board, extra in ((fight, ()), (tmp_path / "other.yaml", ()), (catalogue, ("--catalogue", catalogue))):
        done = affray_here("run", fight, "--auto", "--board", board, *extra)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"--board {board}: is " in done.stderr and "which this command reads: name another file" in done.stderr
    assert fight.read_bytes() == text and catalogue.read_bytes() == mine
    assert leftovers(tmp_path) == []
    done = affray_here("simulate", fight, "--fights", "3", "--workers", "1", "--plot", tmp_path / "f.png",
                       "--rows", tmp_path / "f.csv")
    assert done.returncode == 0, done.stderr  # beside the input, under other names: written


# ------------------------------------------------------------------------------------ a full disk

@pytest.mark.parametrize("what", ["--board", "--rows", "--plot", "new"])
def test_a_full_disk_leaves_the_old_file_as_it_was(tmp_path: Path, what: str) -> None:
    """A write that fails half-way (the disk full: here the process may write no file past 2 KiB) exits 2 in
    words, and the file that was there is whole and unchanged, with nothing partial beside it. Before, the old file
    was gone and a partial one in its place."""
    target = tmp_path / {"--board": "board.svg", "--rows": "rows.csv", "--plot": "figure.png", "new": "f.yaml"}[what]
    target.write_bytes(OLD)
    if what == "--board":
        args: tuple[str | Path, ...] = ("run", SKIRMISH, "--auto", "--board", target)
    elif what == "new":
        args = ("new", target, "--force")
    else:
        args = ("simulate", ORCS, "--fights", "50", "--workers", "1", what, target)
    done = affray_process(*args, limit=2048)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"{target}: cannot write it: File too large (the file there is as it was)" in done.stderr
    assert "Traceback" not in done.stderr
    assert target.read_bytes() == OLD and leftovers(tmp_path) == []
    done = affray_process(*args)  # room enough: written, and the old file replaced
    assert done.returncode == 0, done.stderr
    assert target.read_bytes() != OLD and leftovers(tmp_path) == []


# ------------------------------------------------------------------------------------ the folder, before any work

def _read_only(folder: Path, on: bool) -> None:
    """As tests/test_at_rest.py: root writes anywhere a mode forbids, so as root the folder is made immutable."""
    if os.geteuid() != 0:
        folder.chmod(0o555 if on else 0o755)
        return
    chattr = shutil.which("chattr")
    assert chattr is not None, "chattr (e2fsprogs) is needed to make a folder read-only for root"
    subprocess.run([chattr, "+i" if on else "-i", str(folder)], check=True, capture_output=True, timeout=30)


def test_a_folder_that_cannot_be_written_is_said_before_any_fight(tmp_path: Path) -> None:
    """A million fights to write to a read-only folder: refused in a few seconds (the folder is tried first), where
    before every fight was played (hours) and then the rows could not be written."""
    folder = tmp_path / "out"
    folder.mkdir()
    _read_only(folder, True)
    try:
        began = time.monotonic()
        done = affray_process("simulate", ORCS, "--fights", "1000000", "--workers", "1", "--yes", "--rows",
                              folder / "rows.csv", timeout=60)
        assert done.returncode == 2 and f"--rows {folder / 'rows.csv'}: cannot write in {folder}" in done.stderr
        assert time.monotonic() - began < 30, done.stderr
        done = affray_process("run", SKIRMISH, "--auto", "--board", folder / "b.svg", timeout=60)
        assert done.returncode == 2 and f"--board {folder / 'b.svg'}: cannot write in {folder}" in done.stderr
    finally:
        _read_only(folder, False)


# ------------------------------------------------------------------------------------ rows streamed, and estimated

def _rows_peak(tmp_path: Path, fights: int) -> int:
    rows = tmp_path / f"rows-{fights}.csv"
    tracemalloc.start()
    try:
        done = affray_here("simulate", ORCS, "--ruleset", "side-d6", "--fights", str(fights), "--seed", "3",
                           "--workers", "1", "--rows", rows, "--json")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert done.returncode == 0, done.stderr
    with rows.open(encoding="utf-8") as f:
        assert sum(1 for _ in csv.DictReader(f)) == fights * 10  # fighters_vs_orcs: 4 fighters, 6 orcs
    return peak


def test_rows_are_written_as_they_come_not_kept(tmp_path: Path) -> None:
    """--rows keeps no fight's records once written: 800 fights peak within 2 KiB a fight of 200 fights' peak
    (what every simulation keeps: a summary's few numbers a fight). Before, each fight's records (4.3 KiB with
    these ten combatants, measured; 22 KiB with the skirmish's nine and their spells) stayed until the end, and the
    whole table was made in memory before it was written: 600 fights more, some 2.6 MB more and then the table's
    rows. (A first simulation is not measured: it imports what every later one uses.)"""
    _rows_peak(tmp_path, 5)
    small = _rows_peak(tmp_path, 200)
    large = _rows_peak(tmp_path, 800)
    assert large - small < 600 * 2048, (small, large)


def test_the_rows_are_in_the_estimate() -> None:
    """Writing the rows is counted in the up-front estimate: ROW_SECONDS a combatant a fight (fighters_vs_orcs: ten),
    in this process whatever the workers. 100,000 fights: 0.0001 x 10 x 100,000 = 100 s more."""
    p = plan(ORCS, rulesets="side-d6", fights=100_000, seed=1)
    without, with_rows = estimate(p, 2, 1e9), estimate(p, 2, 1e9, rows=True)
    assert with_rows.seconds - without.seconds == pytest.approx(ROW_SECONDS * 10 * 100_000)


# ------------------------------------------------------------------------------------ inputs that are not files

@pytest.mark.parametrize("role", ["encounter", "--catalogue", "catalogue:", "/dev/stdin"])
def test_a_fifo_or_a_device_is_refused_before_it_is_read(tmp_path: Path, role: str) -> None:
    """A FIFO nobody writes to, or /dev/stdin from a pipe, named as the encounter or a catalogue: `check` and `run`
    refuse it at once (exit 2, what it is). Before, they waited for a writer for ever."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    fight = tmp_path / "fight.yaml"
    shutil.copy(SKIRMISH, fight)
    stdin = None
    if role == "encounter":
        named, args = fifo, ("check", fifo)
    elif role == "--catalogue":
        named, args = fifo, ("run", fight, "--catalogue", fifo)
    elif role == "catalogue:":
        fight.write_text(f"catalogue: {fifo.name}\n" + SKIRMISH.read_text(encoding="utf-8"), encoding="utf-8")
        named, args = fifo, ("check", fight)
    else:
        named, args = Path("/dev/stdin"), ("check", "/dev/stdin")
        stdin = subprocess.PIPE
    began = time.monotonic()
    if stdin is None:
        done = affray_process(*args, timeout=60)
    else:  # a pipe that stays open and silent: a reader would wait for ever
        reader, writer = os.pipe()
        try:
            done = subprocess.run([sys.executable, "-m", "affray", *map(str, args)], capture_output=True, text=True,
                                  timeout=60, stdin=reader)
        finally:
            os.close(reader)
            os.close(writer)
    assert done.returncode == 2, done.stdout + done.stderr
    kind = "a FIFO, a named pipe"
    assert f"not a regular file ({kind}): name a file of text (YAML or JSON)" in done.stderr, done.stderr
    assert str(named.name) in done.stderr and time.monotonic() - began < 30


# ------------------------------------------------------------------------------------ checked under any seed

def test_hit_point_dice_are_checked_whatever_the_seed(tmp_path: Path) -> None:
    """A catalogue monster's `hp_dice: 20d1000` rolls 20 to 20,000: past MAX_HP (10,000) under some seeds. It is
    refused by `check` whatever the file's seed (the roll that seed gives may be within), as by `run --seed` of any
    other. Before, `check` passed it under the file's seed, and `run` under another played a monster of over 10,000
    hit points."""
    from affray.dice.expr import parse_dice
    from affray.io.hitpoints import roll_hp

    dice = parse_dice("20d1000")
    within = next(s for s in range(200) if roll_hp(dice, s, "Blob") <= 10_000)  # a seed whose roll passes
    past = next(s for s in range(200) if roll_hp(dice, s, "Blob") > 10_000)  # and one whose roll does not
    (tmp_path / "mine.yaml").write_text("monsters:\n  blob: {hd: 20, hp_dice: 20d1000, ac: 5, source: my notes}\n",
                                        encoding="utf-8")
    fight = tmp_path / "fight.yaml"
    fight.write_text(f"catalogue: mine.yaml\nruleset: side-d6\nseed: {within}\nsides:\n  party:\n    combatants:\n"
                     "      - {name: Brom, class: fighter, level: 3, hp: 20, weapons: [long sword]}\n  foes:\n"
                     "    combatants:\n      - {name: Blob, monster: blob}\n", encoding="utf-8")
    said = ("sides.foes.combatants[0].monster: hit point dice 20d1000: the catalogue entry's hp_dice may roll up to "
            "20,000 hit points, under some seed; at most 10,000 (limit)")
    for command in (("check", fight), ("run", fight, "--seed", str(past), "--auto")):
        done = affray_here(*command)
        assert done.returncode == 2 and said in done.stderr, (command, done.stdout[-300:], done.stderr)
