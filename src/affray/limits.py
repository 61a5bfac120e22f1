"""The bounds on what affray accepts, in one place (README "Limits").

Every input is refused beyond these with exit 2 and the limit in the message, before any work grows with it:
a small file must not buy minutes of CPU or gigabytes of memory. Each bound is far above what a fight at
the table needs.
"""

from __future__ import annotations

__all__ = [
    "LIVE_KEEPALIVE",
    "LIVE_LINES",
    "MAX_AREA",
    "MAX_ATTACKS",
    "MAX_BLOWS",
    "MAX_BODY",
    "MAX_COMBATANTS",
    "MAX_COMMAND_CHARS",
    "MAX_CONNECTIONS",
    "MAX_DEPTH",
    "MAX_DICE",
    "MAX_DICE_TEXT",
    "MAX_DIE_SIDES",
    "MAX_DRIVE_LINE",
    "MAX_DURATION",
    "MAX_FEET",
    "MAX_FIGHTS",
    "MAX_FIGHT_BLOWS",
    "MAX_FILE_BYTES",
    "MAX_HD",
    "MAX_HP",
    "MAX_MODIFIER",
    "MAX_NAME",
    "MAX_ODDS_OUTCOMES",
    "MAX_OPTION",
    "MAX_RATE",
    "MAX_RATE_DENOMINATOR",
    "MAX_ROUNDS",
    "MAX_SEED",
    "MAX_SIMULATE_SECONDS",
    "MAX_STREAMS",
    "MAX_SWEEP_POINTS",
    "MAX_TEXT",
    "MAX_VALUES",
    "MAX_WORKERS",
    "POLICY_SECONDS",
    "SCHEDULER_SECONDS",
    "WEB_BODY_SECONDS",
    "WEB_HEAD_SECONDS",
    "WEB_IDLE_SECONDS",
]

#: An encounter file, read no further than this (a file at the limit parses in about a second).
MAX_FILE_BYTES = 64 * 1024
#: Nesting of mappings and lists (an encounter file needs 8).
MAX_DEPTH = 32
#: Values a file may expand to, its aliases (``*name``) counted each time they are used: an alias bomb stops here.
MAX_VALUES = 100_000
#: Combatants in a fight, ``count`` expanded (also the ceiling for the console's ``add``).
MAX_COMBATANTS = 1000
#: Attacks per round of a combatant.
MAX_ATTACKS = 20
#: Fire rate of a missile weapon (shots per attack).
MAX_RATE = 10
#: Denominator of a fractional rate (3/2, 5/2, 1/2: one attack every other round; 1/4 at the slowest).
MAX_RATE_DENOMINATOR = 4
#: Dice thrown by one expression (``100d6``), and the faces of a die (``d1000``).
MAX_DICE = 100
MAX_DIE_SIDES = 1000
#: Length of a dice expression, and the largest constant in one (``1d6+1000``).
MAX_DICE_TEXT = 40
MAX_MODIFIER = 1000
#: Hit points of a combatant; damage or healing in one outcome, die total or console command.
MAX_HP = 10_000
#: Targets a spell's ``area`` may name.
MAX_AREA = 100
#: Hit Dice of a monster.
MAX_HD = 100
#: Feet of a move, a distance to close or a reach.
MAX_FEET = 10_000
#: The N of a casting time or duration ("N rounds", "N turns"...).
MAX_DURATION = 1000
#: Characters of a name (combatant, side, weapon, spell) and of a text (``misc``, ``wait``).
MAX_NAME = 100
MAX_TEXT = 1000
#: Seeds run from 0 to this (what the fight database stores as an integer).
MAX_SEED = 2**63 - 1
#: A ruleset option's whole number (segments in a round, the segment of a move...), either way.
MAX_OPTION = 1000
#: ``--max-rounds``.
MAX_ROUNDS = 1000
#: Characters of one console command.
MAX_COMMAND_CHARS = 10_000
#: Fights in one simulation (``affray simulate``): --fights x rulesets x points of a sweep (their seeds are made
#: up front: a million is some 40 MB, and a quarter of an hour on two cores).
MAX_FIGHTS = 1_000_000
#: Points of a sweep's grid (``--set A=v1,v2`` x ``--vary F=a..b`` x ...).
MAX_SWEEP_POINTS = 1000
#: ``--workers``: processes of a simulation's pool.
MAX_WORKERS = 256

# -- the page's server (``affray serve``): what one client, careless or hostile, may hold of it ----------------------
#: A request's body (bytes), whatever its encoding: a form of the page is a few hundred.
MAX_BODY = 16 * 1024
#: Seconds a connection has to send a request's head (its first line and headers), from its opening or from the
#: end of its last answer: a client that sends nothing, or a byte now and then, is then closed.
WEB_HEAD_SECONDS = 10.0
#: Seconds a request has to send its body once its head came.
WEB_BODY_SECONDS = 10.0
#: Seconds an idle kept-alive connection stays open after an answer.
WEB_IDLE_SECONDS = 5.0
#: Connections open at once: past it, the oldest of those still waiting for a request's head is closed (never a
#: request being answered, nor a live page); lower where the process may open fewer files.
MAX_CONNECTIONS = 512
#: Live channels of one screen (one link) at once: a newer one ends the oldest (a phone that reloads, a tab left).
MAX_STREAMS = 8
#: Seconds between the live channel's keep-alive comments (a client gone is found by writing to it).
LIVE_KEEPALIVE = 15.0
#: Lines of the timeline on the live page (newest first); every line is a link away.
LIVE_LINES = 100

# -- what ``affray drive`` and the console (``affray play``) read: one line at a time, never more -------------------
#: Bytes of one line read by ``affray drive`` (one JSON object; its nesting bounded by ``MAX_DEPTH``): read no
#: further, the rest of the line dropped in pieces of this size. A line the console reads holds at most
#: ``MAX_COMMAND_CHARS`` characters (four bytes each at most in UTF-8).
MAX_DRIVE_LINE = 64 * 1024

# -- work bounds: what a file or a command may make affray do, refused before it starts --------------------------
#: Blows in a round of a fight: each combatant's attacks x its fastest missile's fire rate (a fighter's level when
#: that is more: C2-25's attacks on creatures below 1 HD; a spell's targets when more still), ``count`` expanded,
#: summed over both sides. A round's blows are all scheduled when it begins, some 10 KB each: 1,000 combatants of
#: 20 attacks at rate 10 (200,000 blows) once ran out of 2 GiB; 5,000 is some 50 MB and a second a round.
MAX_BLOWS = 5_000
#: Blows a fight played by ``run``, ``play``, ``drive`` or ``serve`` may hold: its most blows a round x
#: ``--max-rounds``. Every event is kept (some 1 KB a blow, and a quarter of a millisecond): 5,000 a round for the
#: default 50 rounds, or fewer a round for longer (a simulation keeps none: its time is bounded by
#: ``MAX_SIMULATE_SECONDS``).
MAX_FIGHT_BLOWS = MAX_BLOWS * 50
#: Seconds a simulation (``affray simulate``, ``compare``) may be expected to take before it asks for ``--yes``:
#: estimated before it starts (``affray.sim.estimate``), from a bound on its blows or, past it, a second of fights
#: timed. A heavy file with ``--fights 1000000`` would have run some 11 days without a word.
MAX_SIMULATE_SECONDS = 600
#: Seconds a designer's policy (``module:function``, an entry point) may take to choose a declaration in a served
#: fight (``affray serve``): past them the combatant is asked instead, and the referee told. One that never returned
#: froze every screen.
POLICY_SECONDS = 5
#: Seconds ``simulate --scheduler ADDRESS`` waits for a Dask scheduler to answer, and then for it to have a worker:
#: past them it gives up, naming the address (a scheduler without workers once kept it waiting for ever).
SCHEDULER_SECONDS = 10
#: Totals the damage dice of ``affray odds attack`` may take (1d8: 8; 2d4+1: 7; NdS: N x (S - 1) + 1, summed over
#: the dice's groups): exact odds cost about (totals)^1.5, some seconds at 5,000 (5d1000, 50d100); 100d1000's
#: 99,901 once took 14 minutes.
MAX_ODDS_OUTCOMES = 5_000
