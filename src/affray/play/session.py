"""The referee's console: the engine drives, the console reacts.

The fight runs in the engine as ever; two hooks make it a console. ``provider`` is asked for every die
the file does not give: it answers with a die the referee entered before (replay), asks the referee (or
lets the engine roll, as the referee prefers per side or per die), and journals what was entered.
``on_event`` journals each event before it is shown, and is where the console pauses for the referee's
commands. Resume and ``undo`` rebuild the fight by re-running it from its journalled inputs (a fight is a
pure function of them) up to the wanted event; commands that change the fight are inputs too, replayed
at the event index they were entered at.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from typing import Protocol

from rich.console import Console

from affray.api import Prepared, prepare
from affray.engine.engine import Fight, Result
from affray.engine.events import Event
from affray.engine.ruleset import Step
from affray.io.load import load_text
from affray.io.timeline import event_dict
from affray.limits import MAX_HP
from affray.model.encounter import Outcome
from affray.play.commands import CommandError, FightCommand, parse_fight_command, whole
from affray.play.store import Game, Store, StoreError
from affray.play.view import event_text, show_final, show_status, warn_opportunity
from affray.printable import printable

__all__ = ["Io", "Session", "open_game"]

HELP = """commands:
  step [N]            resolve the next event (or N events)
  run                 play on to the end, asking nothing
  undo [N]            step back one event (or N), its dice and commands with it
  status              who stands, who acts next, spells, engagements, morale due
  dice [WHO] ask|roll ask for dice or let the engine roll them; WHO: a side, a die's purpose
                      (initiative, attack, damage...) or all (default)
  damage NAME N       N points of damage by the referee's hand
  heal NAME N         N hit points back
  add SIDE {...}      a combatant joins SIDE mid-fight (the file's fields, one line of YAML)
  remove NAME         NAME leaves the fight
  plan NAME [{...}]   NAME's declarations still to come (one line of YAML: a list of declarations)
  quit                leave; everything is saved (`affray play --db PATH` resumes)"""


class Io(Protocol):
    """Where the referee's answers come from: a terminal (asks) or a pipe (never asks for dice)."""

    interactive: bool

    def ask(self, prompt: str) -> str | None:
        """One line typed by the referee, or None at the end of the input."""


class _Rewind(Exception):
    """Rebuild the fight from its journal (after ``undo``)."""


class _Quit(Exception):
    pass


class _Stop(Exception):
    """A silent rebuild (``affray log``) reached the journal's last event."""


@dataclass
class _Prefs:
    """Ask for dice or roll them: by a die's purpose first, then by side, then for all."""

    by: dict[str, str] = field(default_factory=dict)

    def get(self, purpose: str, side: str | None) -> str:
        return self.by.get(purpose) or (self.by.get(side) if side else None) or self.by.get("all", "roll")


def open_game(store: Store, game: Game) -> Prepared:
    """The prepared encounter a game was started with (its text is in the database)."""
    loaded = load_text(game.text, game.file, strict=False)
    return prepare(loaded, ruleset=game.ruleset, seed=game.seed, options=game.options)


class Session:
    """One game of a database, played, resumed or only rebuilt (``silent``)."""

    def __init__(self, store: Store, game: Game, io: Io | None, console: Console, *,
                 show_status_at_prompt: bool | None = None) -> None:
        self.store = store
        self.game = game
        self.io = io
        self.out = console
        self.prepared = open_game(store, game)
        self.journal = store.journal(game.id)
        self.silent = io is None
        interactive = io is not None and io.interactive
        self.prefs = _Prefs({"all": "ask" if interactive else "roll"})
        self.show_status = interactive if show_status_at_prompt is None else show_status_at_prompt
        self.mode = "step"
        self.steps_left = 0
        self._last_round: int | None = None
        self._busy = False  # inside a command: its events are not paused between
        self.fight: Fight = self._new_fight()

    # -- building the fight ---------------------------------------------------------------------------
    def _new_fight(self) -> Fight:
        """A fresh fight from the game's start; the journal's inputs answer its questions again."""
        self.calls = 0  # the provider's questions so far: a die entered is journalled by its question's number
        self.outcome_calls = 0
        self._next_d20: int | None = None  # a d20 typed at an attack's prompt (0: Enter, roll it)
        self._k = 0  # steps begun since the last event: where a command entered before a step is replayed
        self._blind = False  # the last pause saw no step ahead (a declaration point was about to push them)
        return self.prepared.fight(auto=self.game.auto, max_rounds=self.game.max_rounds, provider=self._provider,
                                   on_event=self._on_event, outcome_provider=self._outcome, on_step=self._on_step)

    def play(self) -> None:
        """Play until ``quit`` or the end of the input; every event is journalled before it is shown."""
        if self.journal.events:
            self.out.print(f"resuming fight {self.game.id} after {len(self.journal.events)} events", style="bold")
        else:
            self.out.print(printable(f"fight {self.game.id}: {self.game.file} under {self.prepared.ruleset.id}, "
                                     f"seed {self.prepared.seed}"), style="bold", markup=False)
        while True:
            try:
                self._go()
            except _Rewind:
                self.mode, self.steps_left = "step", 0
                continue
            except _Quit:
                return
            except KeyboardInterrupt:
                self.out.print(f"interrupted: the {len(self.journal.events)} events so far are saved; "
                               f"`affray play --db {printable(self.store.path)}` resumes", style="bold", markup=False)
                return

    def rebuild(self) -> Result:
        """The fight as its journal leaves it, replayed without asking or showing anything."""
        with contextlib.suppress(_Stop):
            self._go()
        f = self.fight
        events = json.loads(json.dumps([event_dict(e, i) for i, e in enumerate(f.events)], ensure_ascii=False))
        if events != self.journal.events:
            raise StoreError(f"{self.store.path}: fight {self.game.id} does not replay to the events stored for "
                             "it (was it played with another version of affray?)")
        return Result(f.ruleset.id, f.seed, dict(f.ruleset.opt), f.events, f.state.final(),
                      f.ruleset.round_of(max(f.period, 1)))

    def _go(self) -> None:
        self.fight = self._new_fight()
        self._last_round = None
        self._reached()
        self.fight.run()
        self._finished()

    # -- the hooks ------------------------------------------------------------------------------------
    def _provider(self, sides: int, count: int, purpose: str, actor: str | None) -> int | None:
        call = self.calls
        self.calls += 1
        entered = self.journal.dice.get(call)
        if entered is not None:
            if (entered.sides, entered.count, entered.purpose) != (sides, count, purpose):
                raise StoreError(f"{self.store.path}: fight {self.game.id}: die {call} was entered as "
                                 f"{entered.count}d{entered.sides} {entered.purpose}, but the replay asks for "
                                 f"{count}d{sides} {purpose}")
            return entered.value
        at = len(self.fight.events)
        if self._next_d20 is not None and (sides, count, purpose) == (20, 1, "attack"):
            value: int | None = self._next_d20 or None  # typed at the attack's own prompt (0: Enter, roll it)
            self._next_d20 = None
            if value is None:
                return None
        elif not self._asking(purpose, actor):
            return None
        else:
            value = self._ask_die(sides, count, purpose, actor)
        if value is not None:
            payload = {"call": call, "sides": sides, "count": count, "purpose": purpose, "actor": actor,
                       "value": value}
            self.store.append(self.game.id, "die", at, payload)
            self.journal.add("die", at, payload)
        return value

    def _asking(self, purpose: str, actor: str | None) -> bool:
        """Whether to ask the referee now: live, at a terminal, stepping, and the referee asks for these."""
        return not (len(self.fight.events) < len(self.journal.events) or self.io is None or not self.io.interactive
                    or self.mode == "run" or self.prefs.get(purpose, self._side_of(actor)) == "roll")

    def _outcome(self, actor: str, target: str, kind: str) -> Outcome | None:
        """Before an attack's d20: the referee may give its outcome ("hit 6", "miss"), the d20, or roll."""
        call = self.outcome_calls
        self.outcome_calls += 1
        entered = self.journal.outcomes.get(call)
        if entered is not None:
            return Outcome(hit=entered.hit, damage=entered.damage)
        if not self._asking("attack", actor):
            return None
        assert self.io is not None
        while True:
            line = self.io.ask(f"{actor} -> {target} ({kind}): d20, 'hit N' or 'miss' [Enter rolls]: ")
            if line is None:
                raise _Quit
            words = line.lower().split()
            if not words:
                self._next_d20 = 0
                return None
            if len(words) == 1 and whole(words[0], 20) is not None:
                self._next_d20 = int(words[0])
                return None
            if words == ["miss"] or (words[0] == "hit" and len(words) == 2 and whole(words[1], MAX_HP, 0) is not None):
                hit = words[0] == "hit"
                payload = {"call": call, "actor": actor, "target": target, "hit": hit,
                           "damage": int(words[1]) if hit else 0}
                at = len(self.fight.events)
                self.store.append(self.game.id, "outcome", at, payload)
                self.journal.add("outcome", at, payload)
                return Outcome(hit=hit, damage=payload["damage"])
            self.out.print(f"{line.strip()!r}: enter the d20 (1-20), 'hit N' (N damage), 'miss', or nothing to "
                           "roll", style="yellow", markup=False)

    def _on_step(self, step: Step) -> None:
        """Before a step resolves: replay a command entered here; at a terminal, pause when the referee has not
        seen it coming (the steps were placed after the last pause) or when a move provokes a free attack."""
        self._k += 1
        if self._busy:
            return
        at = self._replay_commands(self._k)
        if at < len(self.journal.events) or self.silent or self.io is None:
            return
        warned = warn_opportunity(self.fight, step, self.out)
        if self.io.interactive and self.mode == "step" and self.steps_left <= 1 and (warned or self._blind):
            self._pause(over=False, coming=step)

    def _replay_commands(self, k: int) -> int:
        """Execute the commands journalled at this point (the first at step ``k``, the next after its events)."""
        at = len(self.fight.events)
        while (command := self.journal.commands.get((at, k))) is not None:
            self._execute(parse_fight_command(command, self.fight))
            at, k = len(self.fight.events), 0
        return at

    def _on_event(self, e: Event) -> None:
        self._k = 0
        n = len(self.fight.events)
        if n > len(self.journal.events):  # a new event: journalled first, then shown
            d = event_dict(e, n - 1)
            self.store.append(self.game.id, "event", n - 1, d)
            self.journal.add("event", n - 1, d)
            self._show(e, n - 1)
        else:
            if e.round is not None:
                self._last_round = e.round
            if n == len(self.journal.events):
                self._check_replay(e, n - 1)
        self._reached()

    def _check_replay(self, e: Event, seq: int) -> None:
        """The replay's last event must be the one stored (else the file's fight is not the journal's)."""
        if json.loads(json.dumps(event_dict(e, seq), ensure_ascii=False)) != self.journal.events[seq]:
            raise StoreError(f"{self.store.path}: fight {self.game.id} does not replay to its stored event {seq} "
                             "(was it played with another version of affray?)")

    def _reached(self) -> None:
        """The fight has ``len(events)`` events: replay the command entered here, or pause for one."""
        if self._busy:
            return  # a command's own events: no pause between them
        at = self._replay_commands(0)
        if at < len(self.journal.events):
            return
        if self.silent:
            raise _Stop
        if self.mode == "run":
            return
        if self.steps_left > 1:
            self.steps_left -= 1
            return
        self._pause(over=False)

    def _finished(self) -> None:
        if not self.journal.ended and not self.silent:  # a rebuild (``affray log``) only reads
            self.store.append(self.game.id, "end", len(self.fight.events), {})
            self.journal.add("end", len(self.fight.events), {})
        if self.silent:
            raise _Stop
        show_final(self.fight, self.out)
        self._pause(over=True)

    # -- the referee ----------------------------------------------------------------------------------
    def _pause(self, *, over: bool, coming: Step | None = None) -> None:
        """Read commands until one moves the fight on (or back); ``coming``: the step about to resolve."""
        assert self.io is not None
        if self.show_status and not over:
            show_status(self.fight, self.out, coming)
        self._blind = not over and coming is None and not self.fight.upcoming(1)
        while True:
            line = self.io.ask("fight over> " if over else f"{len(self.fight.events)}> ")
            if line is None:
                raise _Quit
            words = line.split()
            if not words:
                if self.io.interactive and not over:
                    words = ["step"]
                else:
                    continue
            verb = words[0].lower()
            try:
                if verb in ("quit", "exit", "q"):
                    raise _Quit
                if verb in ("step", "s", "next", "n", "run", "r"):
                    if over:
                        self.out.print("the fight is over: undo, or quit", style="yellow")
                        continue
                    self.mode = "run" if verb in ("run", "r") else "step"
                    self.steps_left = _count(words, 1)
                    return
                if verb in ("undo", "u"):
                    self._undo(_count(words, 1))
                elif verb == "status":
                    show_status(self.fight, self.out, coming)
                elif verb == "help":
                    self.out.print(HELP, markup=False)
                elif verb == "dice":
                    self._set_prefs(words[1:])
                elif over:
                    self.out.print("the fight is over: undo first to change it", style="yellow")
                else:
                    command = parse_fight_command(line.strip(), self.fight)
                    at = len(self.fight.events)
                    payload: dict[str, object] = {"text": line.strip()}
                    if self._k:
                        payload["step"] = self._k  # entered before a step: replayed there
                    self.store.append(self.game.id, "command", at, payload)
                    self.journal.add("command", at, payload)
                    self._execute(command)
            except CommandError as exc:
                self.out.print(f"{printable(str(exc))} (type help)", style="yellow", markup=False)

    def _execute(self, command: FightCommand) -> None:
        self._busy = True
        try:
            command(self.fight)
        finally:
            self._busy = False

    def _undo(self, n: int) -> None:
        have = len(self.journal.events)
        if have == 0:
            raise CommandError("nothing to undo: the fight is at its start")
        to = max(0, have - n)
        self.store.append(self.game.id, "undo", to, {})
        self.journal.add("undo", to, {})
        self.out.print(f"undone: back to {to} events", style="bold")
        raise _Rewind

    def _set_prefs(self, words: list[str]) -> None:
        if not words or words[-1] not in ("ask", "roll") or len(words) > 2:
            raise CommandError("dice: say `dice ask`, `dice roll`, or `dice WHO ask|roll` (WHO: a side, a "
                               "die's purpose such as initiative or damage, or all)")
        who = words[0] if len(words) == 2 else "all"
        if who == "all":
            self.prefs.by.clear()
        self.prefs.by[who] = words[-1]
        self.out.print(printable(f"dice for {who}: {words[-1]}"), markup=False)

    def _ask_die(self, sides: int, count: int, purpose: str, actor: str | None) -> int | None:
        assert self.io is not None
        dice = f"{count}d{sides}" if count > 1 else f"d{sides}"
        whose = f" for {actor}" if actor else ""
        lo, hi = count, count * sides
        while True:
            line = self.io.ask(f"{dice} {purpose}{whose} [Enter rolls]: ")
            if line is None:
                raise _Quit
            text = line.strip()
            if not text:
                return None
            if whole(text, hi, lo) is not None:
                return int(text)
            self.out.print(f"{text!r}: enter a {dice} result ({lo}-{hi}), or nothing to roll it", style="yellow",
                           markup=False)

    # -- showing --------------------------------------------------------------------------------------
    def _show(self, e: Event, seq: int) -> None:
        if e.round is not None and e.round != self._last_round:
            self.out.rule(f"Round {e.round}")
            self._last_round = e.round
        for line in event_text(e, seq):
            self.out.print(line, soft_wrap=False)

    def _side_of(self, actor: str | None) -> str | None:
        if actor is None:
            return None
        f = self.fight.state.fighters.get(actor)
        return f.side if f is not None else actor


def _count(words: list[str], default: int) -> int:
    if len(words) < 2:
        return default
    n = whole(words[1], 1_000_000)
    if n is None:
        raise CommandError(f"{words[0]} {words[1]}: give a whole number of events (1 to 1000000), e.g. {words[0]} 3")
    return n
