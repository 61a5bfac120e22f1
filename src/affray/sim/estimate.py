"""How long a simulation will take, worked out before it starts: ``affray simulate`` asks for ``--yes`` past
``affray.limits.MAX_SIMULATE_SECONDS`` rather than start days of work without a word.

First a bound that costs nothing: every fight lasting ``--max-rounds`` rounds of its most blows
(``io.load.blows_in_a_round``) at a generous cost a blow. Only when that bound passes the limit are fights played
and timed, a second's worth at most (a fight still on at the second is cut, and carried on at its pace to
``--max-rounds``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

from affray.io.load import blows_in_a_round
from affray.sim.rows import ROW_BYTES, ROW_SECONDS
from affray.sim.runner import Plan, job_prepared

__all__ = ["BLOW_SECONDS", "FIGHT_SECONDS", "SAMPLE_SECONDS", "Estimate", "duration", "estimate", "fights_within",
           "rows_bytes", "words_bytes"]

#: CPU seconds a blow costs at most in the engine's lean mode, for the bound (measured: 0.01 to 0.05 ms).
BLOW_SECONDS = 0.0005
#: CPU seconds a fight costs besides its blows, for the bound (measured: about 1 ms).
FIGHT_SECONDS = 0.005
#: Seconds of fights played and timed, at most, when the bound passes the limit.
SAMPLE_SECONDS = 1.0


@dataclass(frozen=True)
class Estimate:
    """``seconds``: the wall-clock time of ``fights`` fights of ``per_fight`` CPU seconds on ``parallel``
    processes; ``sampled``: fights timed (0: the bound alone, an upper one)."""

    seconds: float
    fights: int
    per_fight: float
    parallel: int
    sampled: int

    def words(self) -> str:
        """``about 11 days (1,000,000 fights of about 1.9 s on 2 processes; 1 fight timed)``."""
        how = "about" if self.sampled else "at most"
        timed = f"{self.sampled} fight{'s' if self.sampled != 1 else ''} timed" if self.sampled else "a bound"
        return (f"{how} {duration(self.seconds)} ({self.fights:,} fights of {how} {duration(self.per_fight)} CPU on "
                f"{self.parallel} process{'es' if self.parallel != 1 else ''}; {timed})")


def duration(seconds: float) -> str:
    """``0.02 s``, ``40 s``, ``12 min``, ``3 h 10 min``, ``11 days``."""
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"
    return f"{seconds / 86400:,.0f} days"


class _Cut(Exception):
    """A timed fight still on when the sample's time is up."""


def rows_bytes(p: Plan) -> int:
    """About how many bytes ``--rows`` will write for ``p``: a row per fight and combatant."""
    return sum(p.fights * len(cell.combatants) for cell in p.cells) * ROW_BYTES


def words_bytes(n: float) -> str:
    """``120 KB``, ``2.6 GB``."""
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000:
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.3g} {unit}"
        n /= 1000
    return f"{n:,.0f} TB"


def estimate(p: Plan, parallel: int, limit: float, *, rows: bool = False) -> Estimate:
    """The time ``p`` will take on ``parallel`` processes: the bound when it is within ``limit``, else fights timed
    (a second's worth, one from each ruleset and grid point in turn). ``rows``: each fight's rows written too
    (``--rows``: ``ROW_SECONDS`` a combatant, in this process, whatever the workers)."""
    fights = sum(len(job.seeds) for job in p.jobs)
    cells = [p.jobs[cell.first_job] for cell in p.cells]
    writing = ROW_SECONDS * sum(len(cell.combatants) for cell in p.cells) / len(p.cells) if rows else 0.0
    bounds = [FIGHT_SECONDS + blows_in_a_round(job_prepared(job)[0].loaded.encounter)[0] * p.max_rounds
              * BLOW_SECONDS for job in cells]
    per_fight = sum(bounds) / len(bounds)
    if (per_fight / parallel + writing) * fights <= limit:
        return Estimate((per_fight / parallel + writing) * fights, fights, per_fight + writing * parallel, parallel, 0)
    deadline = time.perf_counter() + SAMPLE_SECONDS
    spent, played, turn = 0.0, 0, 0
    reached = [0]  # the round a timed fight has reached

    def watch(event: object) -> None:
        reached[0] = max(reached[0], getattr(event, "round", None) or 0)
        if time.perf_counter() > deadline:
            raise _Cut

    while time.perf_counter() < deadline and turn < len(cells) * len(cells[0].seeds):
        job = cells[turn % len(cells)]
        seed = job.seeds[turn // len(cells) % len(job.seeds)]
        turn += 1
        prepared = job_prepared(job)[0]
        reached[0] = 0
        start = time.process_time()
        try:
            replace(prepared, seed=seed).fight(auto=True, max_rounds=job.max_rounds, explain=False, keep=False,
                                               on_event=watch).run()
        except _Cut:  # carried on to the last round at the pace it had (a fight this long is likely to last)
            spent += (time.process_time() - start) * max(1.0, p.max_rounds / max(1, reached[0]))
            played += 1
            break
        spent += time.process_time() - start
        played += 1
    if not played:  # the time went on preparing: the bound stands
        return Estimate((per_fight / parallel + writing) * fights, fights, per_fight + writing * parallel, parallel, 0)
    per_fight = spent / played
    return Estimate((per_fight / parallel + writing) * fights, fights, per_fight + writing * parallel, parallel,
                    played)


def fights_within(est: Estimate, fights: int, limit: float) -> int:
    """The ``--fights`` (of ``fights`` asked) that would take about ``limit``: at least 1."""
    return max(1, math.floor(fights * limit / est.seconds)) if est.seconds > 0 else fights
