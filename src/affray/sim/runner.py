"""Running N fights per ruleset in fixed batches, on all cores or a Dask cluster, with the same results.

The fights are split into batches of ``BATCH_SIZE`` whatever the number of workers. Batch k is seeded by the
k-th child of ``numpy.random.SeedSequence(seed).spawn(...)``, and its i-th fight by the i-th integer that child
generates; the batches are summed in their order. So the results depend on the file, the options, the
rulesets, N and the seed alone. Every ruleset and every grid point plays the same seeds (common random numbers:
differences between them are the rules', not the dice's).
"""

from __future__ import annotations

import io
import math
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from affray.api import Prepared, prepare
from affray.errors import EncounterError, OptionError, Problem, UnknownRulesetError
from affray.extensions import option_names
from affray.io.load import Loaded, expand, load_encounter, load_text
from affray.limits import MAX_FIGHTS, MAX_ROUNDS, MAX_SEED, MAX_SWEEP_POINTS, MAX_WORKERS, SCHEDULER_SECONDS
from affray.rulesets import RULESETS, find_ruleset
from affray.sim.rules import RulesNote, rules_note
from affray.sim.summary import Summary
from affray.sim.sweep import Axis, grid, with_fields
from affray.sim.tally import FightRecord, Sums, Tally

__all__ = ["BATCH_SIZE", "UNITS", "Batch", "Cell", "Job", "OnBatch", "Plan", "Progress", "default_workers",
           "fight_seeds", "job_prepared", "plan", "run_batch", "run_jobs", "stop_pool", "unit_of", "worker_pool"]

#: Fights per batch: fixed, so that the seeds and the order of summing do not depend on the workers.
BATCH_SIZE = 100

#: A fight's length in the ruleset's own unit: (unit, whether the first one counts). Rounds and cycles are
#: counted from 1; phase-count's phases run from phase 0, so a fight over at phase 13 lasted 13 phases.
UNITS: dict[str, tuple[str, bool]] = {"combat2-phase2": ("cycles", True), "phase-count": ("phases", False)}


def unit_of(ruleset: str) -> tuple[str, bool]:
    return UNITS.get(ruleset, ("rounds", True))


def fight_seeds(seed: int, fights: int, batch_size: int = BATCH_SIZE) -> list[tuple[int, ...]]:
    """The integer seed of every fight, batch by batch (the last batch may be short)."""
    import numpy as np

    n = math.ceil(fights / batch_size)
    out = []
    for k, child in enumerate(np.random.SeedSequence(seed).spawn(n)):
        size = min(batch_size, fights - k * batch_size)
        out.append(tuple(int(x) for x in child.generate_state(batch_size, dtype=np.uint32)[:size]))
    return out


@dataclass(frozen=True)
class Job:
    """One batch of fights: everything a worker needs, as plain data (it may run on another machine)."""

    text: str  # the encounter (with the grid point's fields set)
    file: str
    ruleset: str
    options: tuple[tuple[str, Any], ...]
    max_rounds: int
    seeds: tuple[int, ...]
    keep: bool  # send back each fight's record
    digest: bool = False  # keep a digest of each fight (a sweep compares its points with them)
    code: tuple[str, ...] = ()  # the designer's module:function policies the caller named (``--policy``): run here


@dataclass
class Batch:
    summary: Summary
    records: list[FightRecord]
    cpu: float  # CPU seconds the batch took where it ran (for benchmarks; never in the results)


_CACHE: dict[tuple[str, str, str, tuple[tuple[str, Any], ...]], tuple[Prepared, dict[str, str], dict[str, int]]] = {}


def job_prepared(job: Job) -> tuple[Prepared, dict[str, str], dict[str, int]]:
    """The job's encounter prepared once per worker process (a worker serves many batches of it)."""
    key = (job.text, job.file, job.ruleset, job.options)
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) >= 32:
            _CACHE.clear()
        loaded = load_text(job.text, job.file, code=job.code)
        prepared = prepare(loaded, ruleset=job.ruleset, seed=0, options=dict(job.options), code=job.code)
        sides = {name: side for name, side, _c, _l in expand(loaded.encounter)}
        hp = {name: c.hp for name, _s, c, _l in expand(loaded.encounter)}
        hit = _CACHE[key] = (prepared, sides, hp)
    return hit


def _spells(prepared: Prepared) -> bool:
    """Whether anyone in the encounter has a spell (a combatant may join with one: only the file's are known)."""
    return any(c.spells for s in prepared.loaded.encounter.sides.values() for c in s.combatants)


def run_batch(job: Job) -> Batch:
    """Play a batch of fights with ``--auto`` in the engine's lean mode and sum them."""
    start = time.process_time()
    prepared, sides, hp = job_prepared(job)
    inclusive = unit_of(job.ruleset)[1]
    summary = Summary(list(dict.fromkeys(sides.values())), dict(sides), digest=job.digest)
    sums = Sums(summary.sides, job.digest)  # the batch summed natively, added to its summary once
    records = []
    spells = _spells(prepared)
    for seed in job.seeds:
        tally = Tally(sides, hp, inclusive=inclusive, ruleset=job.ruleset, spells=spells, order=summary.sides)
        fight = replace(prepared, seed=seed).fight(auto=True, max_rounds=job.max_rounds, explain=False, keep=False,
                                                   on_event=tally, lean_listener=True)
        result = fight.run()
        record = tally.record(seed, result.final.winner, result.final.combatants, fight.now)
        sums.add(record)
        if job.keep:
            records.append(record)
    summary.take(sums)
    return Batch(summary, records, time.process_time() - start)


@dataclass(frozen=True)
class Cell:
    """One (grid point, ruleset) of a simulation: its jobs are consecutive in the plan."""

    point: int
    ruleset: str
    options: dict[str, Any]
    sides: list[str]
    combatants: dict[str, str]
    first_job: int
    jobs: int
    note: RulesNote  # its morale and surprise (said beside a comparison)


@dataclass(frozen=True)
class Plan:
    """Every batch to run, and how they add up."""

    file: str
    fights: int
    seed: int
    max_rounds: int
    rulesets: list[str]
    axes: list[Axis]
    points: list[dict[str, Any]]
    cells: list[Cell]
    jobs: list[Job]


def _source(source: str | Path | Loaded) -> tuple[str, str]:
    """(text, file name) of the encounter."""
    if isinstance(source, Loaded):
        from ruamel.yaml import YAML

        out = io.StringIO()
        YAML(typ="rt").dump(source.doc, out)
        return out.getvalue(), source.file
    path = Path(source)
    loaded = load_encounter(path, strict=False)  # a file that cannot be read or parsed is reported as usual
    del loaded
    return path.read_text(encoding="utf-8"), str(source)


def _rulesets(names: str | Sequence[str] | None, loaded: Loaded) -> list[str]:
    if names is None:
        if loaded.encounter.ruleset is None:
            valid = ", ".join(r.id for r in RULESETS)
            raise EncounterError([Problem(loaded.file, None, "ruleset", "no ruleset given: add `ruleset:` to the "
                                          f"file or pass --ruleset (an id or all; valid: {valid})")])
        names = [loaded.encounter.ruleset]
    elif isinstance(names, str):  # "all", an id, or ids separated by commas
        names = [r.id for r in RULESETS] if names.strip() == "all" else [n.strip() for n in names.split(",")]
    out = []
    for name in names:
        out.append(find_ruleset(name).id)  # UnknownRulesetError lists the valid ones
    return list(dict.fromkeys(out))


def plan(source: str | Path | Loaded, *, rulesets: str | Sequence[str] | None = None, fights: int = 1000,  # noqa: C901
         seed: int | None = None, options: Mapping[str, Any] | None = None, axes: Sequence[Axis] = (),
         fields: Mapping[str, Any] | None = None, max_rounds: int = 50, keep: bool = False) -> Plan:
    """Check everything (each ruleset, each grid point) and lay out the batches; nothing is played yet.

    ``fields`` replaces fields of the file for every point (``--policy``); a designer's ``module:function`` policy
    named there or swept is the caller's own choice, and may be run (one the file names may not: it is not the
    caller's). An option given applies to the rulesets that have it; one that none of them has is an error. Every
    error names the file."""
    text, file = _source(source)
    code = tuple(dict.fromkeys(v for v in [*(fields or {}).values(), *(x for a in axes for x in a.values)]
                               if isinstance(v, str) and ":" in v))
    if fights < 1:
        raise OptionError(f"{file}: --fights {fights}: play at least one fight")
    if not 1 <= max_rounds <= MAX_ROUNDS:
        raise OptionError(f"{file}: --max-rounds {max_rounds}: a whole number from 1 to {MAX_ROUNDS} (limit)")
    if fields:
        try:
            text = with_fields(text, dict(fields))
        except ValueError as exc:
            raise OptionError(f"{file}: {exc}") from None
    base = load_text(text, file, strict=False, code=code)
    try:
        ids = _rulesets(rulesets, base)
    except UnknownRulesetError as exc:
        raise OptionError(f"{file}: --ruleset: {exc}") from None
    if seed is None:
        seed = base.encounter.seed if base.encounter.seed is not None else int.from_bytes(os.urandom(4)) >> 1
    if not 0 <= seed <= MAX_SEED:
        raise OptionError(f"{file}: --seed {seed}: a seed is a whole number from 0 to {MAX_SEED} (2^63 - 1)")
    given = dict(options or {})
    option_axes = [a for a in axes if a.kind == "option"]
    for name in list(given) + [a.name for a in option_axes]:
        if not any(name in option_names(find_ruleset(r)) for r in ids):
            valid = sorted({o for r in ids for o in option_names(find_ruleset(r))})
            raise OptionError(f"{file}: options (--set): unknown option {name!r} for {', '.join(ids)}; valid "
                              f"options: {', '.join(valid)}")
    size = math.prod(len(a.values) for a in axes)
    if size > MAX_SWEEP_POINTS:  # a typo such as 1..999 twice should not start a week's run
        raise OptionError(f"{file}: the sweep has {size:,} points ({' x '.join(str(len(a.values)) for a in axes)}); "
                          f"at most {MAX_SWEEP_POINTS:,} (limit)")
    if fights * size * len(ids) > MAX_FIGHTS:
        raise OptionError(f"{file}: {fights:,} fights x {len(ids)} rulesets x {size:,} sweep points is "
                          f"{fights * size * len(ids):,} fights; at most {MAX_FIGHTS:,} in one simulation (limit)")
    seeds = fight_seeds(seed, fights)
    points = list(grid(axes))
    cells: list[Cell] = []
    jobs: list[Job] = []
    for k, point in enumerate(points):
        fields = {a.name: point[a.name] for a in axes if a.kind == "field"}
        try:
            point_text = with_fields(text, fields)
        except ValueError as exc:
            raise OptionError(f"{file}: --vary {exc}") from None
        label = ", ".join(f"{n}={v}" for n, v in point.items())
        try:
            loaded = load_text(point_text, file, code=code)
        except EncounterError as exc:
            raise EncounterError([_at_point(p, label) for p in exc.problems]) from None
        sides = list(loaded.encounter.sides)
        combatants = {name: side for name, side, _c, _l in expand(loaded.encounter)}
        for r in ids:
            known = set(option_names(find_ruleset(r)))
            opts = {n: v for n, v in given.items() if n in known}
            opts.update({a.name: point[a.name] for a in option_axes if a.name in known})
            try:
                prepared = prepare(loaded, ruleset=r, seed=seed, options=opts, code=code)
            except OptionError as exc:
                where = f" at {label}" if label else ""
                raise OptionError(f"{file}: options (--set){where}: {exc}") from None
            except EncounterError as exc:
                raise EncounterError([_at_point(p, label) for p in exc.problems]) from None
            note = rules_note(r, prepared.ruleset.all_options(), loaded.encounter)
            cells.append(Cell(k, r, opts, sides, combatants, len(jobs), len(seeds), note))
            frozen = tuple(sorted(opts.items()))
            jobs.extend(Job(point_text, file, r, frozen, max_rounds, s, keep, bool(axes), code) for s in seeds)
    return Plan(file, fights, seed, max_rounds, ids, list(axes), points, cells, jobs)


def _at_point(p: Problem, label: str) -> Problem:
    return replace(p, message=f"{p.message} (sweep point {label})") if label else p


#: Told (fights just played, fights in all) as each batch comes back.
Progress = Callable[[int, int], None]


def default_workers() -> int:
    """Every core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


#: Told each batch (its index in the jobs, and the batch) in job order, as soon as it and those before it are back.
OnBatch = Callable[[int, Batch], None]


class _InOrder:
    """The batches as they come back, handed on in job order (``on_batch``) and counted (``progress``); those that
    came back before their turn wait here (``ahead``: a runner submits no more than a window ahead of the first
    batch not yet back, so that few wait)."""

    def __init__(self, jobs: Sequence[Job], progress: Progress | None, on_batch: OnBatch | None) -> None:
        self.jobs = jobs
        self.progress = progress
        self.on_batch = on_batch
        self.total = sum(len(j.seeds) for j in jobs)
        self.out: list[Batch | None] = [None] * len(jobs)
        self.ahead: dict[int, Batch] = {}
        self.given = 0  # batches handed on
        self.fights = 0  # fights back

    def back(self, i: int, batch: Batch) -> None:
        self.fights += len(self.jobs[i].seeds)
        if self.progress is not None:
            self.progress(len(self.jobs[i].seeds), self.total)
        self.ahead[i] = batch
        while self.given in self.ahead:
            done = self.ahead.pop(self.given)
            if self.on_batch is not None:
                self.on_batch(self.given, done)
            self.out[self.given] = done
            self.given += 1

    def batches(self) -> list[Batch]:
        return [b for b in self.out if b is not None]


def run_jobs(jobs: Sequence[Job], *, workers: int | None = None, scheduler: Any = None,
             executor: Executor | None = None, progress: Progress | None = None,
             on_batch: OnBatch | None = None) -> list[Batch]:
    """Run the batches: in this process (one worker), on a process pool (all cores by default), on the given
    executor, or on a Dask cluster (``scheduler``: its address or a ``distributed.Client``). In job order; each
    batch is handed to ``on_batch`` in that order as soon as it can be (``--rows`` writes it, then drops its
    records). A worker that dies, or a cluster left without workers, is OptionError saying how far it got."""
    order = _InOrder(jobs, progress, on_batch)
    if scheduler is not None:
        _on_dask(jobs, scheduler, order)
        return order.batches()
    if executor is not None:
        _on_executor(executor, jobs, order)
        return order.batches()
    n = workers if workers is not None else default_workers()
    if not 1 <= n <= MAX_WORKERS:
        raise OptionError(f"--workers {n}: a whole number from 1 to {MAX_WORKERS} (limit)")
    if n == 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            order.back(i, run_batch(job))
        return order.batches()
    with worker_pool(min(n, len(jobs))) as pool:
        _on_executor(pool, jobs, order)
    return order.batches()


#: Seconds between a pool worker's looks at its parent: a worker whose parent is gone (killed, even with SIGKILL)
#: ends itself within this.
PARENT_WATCH_SECONDS = 0.2


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH_SECONDS)
    os._exit(1)  # the parent is gone: nobody will read this worker's batch


def _worker_start(parent: int) -> None:
    """How a pool worker starts: Ctrl-C (sent to the whole terminal's process group) is left to the parent, which
    ends its workers; and a thread ends the worker once its parent is gone, so that killing ``simulate`` with
    SIGTERM or SIGKILL leaves no worker behind, playing fights nobody will read."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), name="affray-parent-watch", daemon=True).start()


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers end with it: on leaving normally it waits for them as usual; on an exception
    (Ctrl-C's KeyboardInterrupt above all) they are ended at once rather than waited for (a batch of heavy fights
    may take minutes)."""
    pool = ProcessPoolExecutor(workers, initializer=_worker_start, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End a pool's workers now (SIGTERM, then SIGKILL a second later), its waiting batches cancelled."""
    processes = list((pool._processes or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(1.0)
        if process.is_alive():
            process.kill()
            process.join(1.0)


def _on_executor(executor: Executor, jobs: Sequence[Job], order: _InOrder) -> None:
    """The batches on ``executor``, a window of them at a time (its workers x 4: each worker has the next at hand, and
    no more than that many batches wait for one before them). A pool whose worker died (killed, out of memory, or a
    policy that ended its process) is said with how far the simulation got and how to go on."""
    window = 4 * max(1, getattr(executor, "_max_workers", 1) or 1)
    pending: dict[Future[Batch], int] = {}
    submitted = 0
    try:
        while submitted < len(jobs) or pending:
            while submitted < len(jobs) and len(pending) + len(order.ahead) < window:
                pending[executor.submit(run_batch, jobs[submitted])] = submitted
                submitted += 1
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: pending[f]):
                order.back(pending.pop(fut), fut.result())
    except BrokenExecutor as exc:
        if isinstance(executor, ProcessPoolExecutor):
            stop_pool(executor)
        raise _worker_died(order, "a worker process of this machine's pool died (killed, or out of memory, or its "
                                  f"code ended the process: {str(exc)[:200]})", "run it again (the same seed plays "
                                  "the same fights), with fewer --workers, or --workers 1 to play them in this "
                                  "process and see any error of its own") from None


def _worker_died(order: _InOrder, what: str, how: str) -> OptionError:
    return OptionError(f"the simulation stopped: {what}, after {order.fights:,} of {order.total:,} fights; nothing "
                       f"was reported or written of them: {how}")


def _unanswered(address: str) -> OptionError:
    return OptionError(f"--scheduler {address}: no answer from a Dask scheduler there within {SCHEDULER_SECONDS} s "
                       "(limit): is it running, and is this its address (tcp://HOST:8786)?")


def _probe(address: str) -> None:
    """A TCP address (``tcp://HOST:PORT`` or ``HOST:PORT``) that refuses a connection, or whose host has no address,
    is said at once: the Dask client would try again until its timeout, ``SCHEDULER_SECONDS`` later. Any other
    address (another protocol, a port that accepts) is left to the client."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is not a number: the client's own words
        return
    if parts.scheme != "tcp" or host is None or port is None:
        return
    try:
        socket.create_connection((host, port), timeout=SCHEDULER_SECONDS).close()
    except TimeoutError:
        raise _unanswered(address) from None
    except (ConnectionRefusedError, socket.gaierror) as exc:
        raise OptionError(f"--scheduler {address}: cannot reach a Dask scheduler there ({type(exc).__name__}: "
                          f"{str(exc)[:200]})") from None
    except OSError:  # unreachable network, and the like: the client tries, and says
        return


def _connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address`` with a worker at least, or OptionError naming it: nothing
    there (a refused connection said at once: ``_probe``), something that is not a Dask scheduler (its answer
    unreadable), no answer within ``SCHEDULER_SECONDS`` (the client's own timeout does not cover a port that accepts
    and stays silent), or no worker within as long."""
    from distributed import Client

    _probe(address)
    told: dict[str, Any] = {}

    def connect() -> None:
        try:
            told["client"] = Client(address, timeout=f"{SCHEDULER_SECONDS}s")  # type: ignore[no-untyped-call]
        except Exception as exc:  # garbage read as a message: MemoryError, ValueError, TypeError...
            told["error"] = exc

    thread = threading.Thread(target=connect, name="affray-dask-connect", daemon=True)
    thread.start()
    thread.join(SCHEDULER_SECONDS + 1)
    if thread.is_alive():
        raise _unanswered(address)
    if "error" in told:
        exc = told["error"]
        raise OptionError(f"--scheduler {address}: cannot reach a Dask scheduler there ({type(exc).__name__}: "
                          f"{str(exc)[:200]})")
    client = told["client"]
    try:
        client.wait_for_workers(1, timeout=SCHEDULER_SECONDS)
    except (TimeoutError, OSError):
        client.close()
        raise OptionError(f"--scheduler {address}: the Dask scheduler there has no worker (waited {SCHEDULER_SECONDS} "
                          f"s, limit): start one with `dask worker {address}`") from None
    return client


def _on_dask(jobs: Sequence[Job], scheduler: Any, order: _InOrder) -> None:
    """The batches on a Dask cluster, a window at a time (its workers' threads x 4). Its scheduler reruns a batch
    whose worker died on another; a cluster left without a worker, or a scheduler gone silent, for
    ``SCHEDULER_SECONDS`` is said with how far the simulation got (it never waits for ever), and so is a batch
    that killed a worker each time it ran (Dask's ``KilledWorker``)."""
    from distributed import Client
    from distributed import wait as dask_wait

    own = not isinstance(scheduler, Client)
    client = _connect(str(scheduler)) if own else scheduler
    address = str(scheduler) if own else str(getattr(client.scheduler, "address", "the scheduler"))
    how = (f"start a worker (`dask worker {address}`), then run it again (the same seed plays the same fights), or "
           "run it on this machine without --scheduler")
    pending: dict[Any, int] = {}
    submitted = 0
    alone_since: float | None = None
    try:
        while submitted < len(jobs) or pending:
            threads = sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values())
            while submitted < len(jobs) and len(pending) + len(order.ahead) < 4 * max(1, threads):
                pending[client.submit(run_batch, jobs[submitted], pure=False)] = submitted
                submitted += 1
            try:
                done = dask_wait(list(pending), timeout=1.0, return_when="FIRST_COMPLETED").done  # type: ignore[no-untyped-call]
            except TimeoutError:
                done = set()
            got = 0
            for fut in sorted(done, key=lambda f: pending[f]):
                batch = _result(fut, order, how)
                if batch is not None:
                    order.back(pending.pop(fut), batch)
                    got += 1
            if got or (threads and client.status == "running"):
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > SCHEDULER_SECONDS:
                what = (f"the Dask scheduler at {address} has had no worker for {SCHEDULER_SECONDS} s (limit)"
                        if client.status == "running" else
                        f"the Dask scheduler at {address} has not answered for {SCHEDULER_SECONDS} s (limit)")
                raise _worker_died(order, what, how)
    finally:
        if own:
            client.close(timeout=SCHEDULER_SECONDS)


def _result(fut: Any, order: _InOrder, how: str) -> Batch | None:
    """A Dask batch's result, or None while it cannot be had: a batch done on a worker that died before its result
    was gathered is run again by the scheduler (the client waits on it like any pending batch, within the limit of
    a cluster left without a worker); a batch whose every worker died running it (``KilledWorker``) said in words."""
    try:
        return fut.result(timeout=1.0)  # type: ignore[no-any-return]
    except TimeoutError:
        return None
    except Exception as exc:
        if type(exc).__name__ != "KilledWorker":
            raise
        raise _worker_died(order, f"a batch's Dask worker died each time it ran it ({str(exc)[:200]})", how) from None
