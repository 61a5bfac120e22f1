"""The referee's console: a driven fight (``affray.drive``) at a prompt.

The console pulls the next thing from the fight: an event is journalled, then shown, and in step mode the
referee gets a prompt; a question (a declaration wanted, a die the referee asks for) is asked at its own
prompt; a step about to resolve may pause the console first (a move that provokes a free attack, or steps
placed since the last prompt). Resume and ``undo`` rebuild the fight from its journalled inputs (a fight is a
pure function of them); ``affray log`` rebuilds it without asking or showing anything.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, Protocol

from rich.console import Console

from affray.api import Prepared, prepare
from affray.drive import ROLL, Coming, DeclareQuestion, DicePrefs, DieQuestion, DriveError, End, Input
from affray.engine.events import Event
from affray.engine.fight import Result
from affray.io.load import load_text
from affray.io.timeline import event_dict
from affray.model.encounter import Outcome
from affray.play.store import Game, Store, StoreError, input_row
from affray.play.view import event_text, show_choices, show_final, show_status, warn_opportunity

__all__ = ["Io", "Session", "open_game"]

HELP = """commands:
  step [N]            resolve the next event (or N events)
  run                 play on to the end, asking no dice (declarations are still asked)
  undo [N]            step back one event (or N), its dice and commands with it
  status              who stands, who acts next, spells, engagements, morale due
  dice [WHO] ask|roll ask for dice or let the engine roll them; WHO: a side, a die's purpose
                      (initiative, attack, damage...) or all (default)
  damage NAME N       N points of damage by the referee's hand
  heal NAME N         N hit points back
  add SIDE {...}      a combatant joins SIDE mid-fight (the file's fields, one line of YAML)
  remove NAME         NAME leaves the fight
  plan NAME [{...}]   NAME's declarations still to come (one line of YAML: a list of declarations)
  condition NAME C [D] NAME is C (asleep, held, paralysed, stunned, dazed, prone, blinded, charmed,
                      fleeing, unconscious) for D (N rounds, turns, phases or segments), or until ended
  end NAME [C]        NAME's condition C (or all its conditions) ends
  quit                leave; everything is saved (`affray play --db PATH` resumes)"""


class Io(Protocol):
    """Where the referee's answers come from: a terminal (asks) or a pipe (never asks for dice)."""

    interactive: bool

    def ask(self, prompt: str) -> str | None:
        """One line typed by the referee, or None at the end of the input."""


class _Quit(Exception):
    """The referee leaves (or the input ends): everything is already journalled."""


def open_game(store: Store, game: Game) -> Prepared:
    """The prepared encounter a game was started with (its text is in the database)."""
    loaded = load_text(game.text, game.file, strict=False)
    return prepare(loaded, ruleset=game.ruleset, seed=game.seed, options=game.options)


def _plain(e: Event, seq: int) -> dict[str, Any]:
    return json.loads(json.dumps(event_dict(e, seq), ensure_ascii=False))  # type: ignore[no-any-return]


class Session:
    """One game of a database, played, resumed or only rebuilt (``io`` None)."""

    def __init__(self, store: Store, game: Game, io: Io | None, console: Console, *,
                 show_status_at_prompt: bool | None = None) -> None:
        self.store = store
        self.game = game
        self.io = io
        self.out = console
        self.prepared = open_game(store, game)
        self.journal = store.journal(game.id)
        interactive = io is not None and io.interactive
        self.show_status = interactive if show_status_at_prompt is None else show_status_at_prompt
        self.mode = "step"
        self.steps_left = 0
        self._last_round: int | None = None
        self._blind = False  # the last prompt saw no step ahead (a declaration point was about to place them)
        # a console asks for every die (and answers "roll" where the referee lets the engine roll): which are
        # shown is the referee's choice, journalled as it changes
        try:
            self.drive = self.prepared.drive(auto=game.auto, max_rounds=game.max_rounds, announce=True,
                                             dice=DicePrefs({"all": "ask" if interactive else "roll"}),
                                             inputs=self.journal.inputs, events=len(self.journal.events))
        except DriveError as exc:
            raise StoreError(f"{store.path}: fight {game.id}: {exc}") from None
        self.drive.on_input = self._journal_input
        self._check_replay()

    # -- the journal ----------------------------------------------------------------------------------
    def _journal_input(self, i: Input) -> None:
        kind, at, payload = input_row(i)
        self.store.append(self.game.id, kind, at, payload)
        self.journal.add(kind, at, payload)

    def _journal_event(self, e: Event) -> None:
        seq = len(self.journal.events)
        d = _plain(e, seq)
        self.store.append(self.game.id, "event", seq, d)
        self.journal.add("event", seq, d)

    def _check_replay(self) -> None:
        """The rebuilt fight's events must be the ones stored (else the file's fight is not the journal's)."""
        rebuilt = [_plain(e, i) for i, e in enumerate(self.drive.fight.events)]
        stored = self.journal.events
        if rebuilt != stored:
            seq = next((i for i, (a, b) in enumerate(zip(rebuilt, stored, strict=False)) if a != b),
                       min(len(rebuilt), len(stored)))
            raise StoreError(f"{self.store.path}: fight {self.game.id} does not replay to its stored event {seq} "
                             "(was it played with another version of affray?)")

    def rebuild(self) -> Result:
        """The fight as its journal leaves it, rebuilt without asking or showing anything."""
        f = self.drive.fight
        return Result(self.prepared.ruleset.id, f.seed, asdict(self.prepared.ruleset.opt), f.events,
                      f.state.final(), f.round_of(max(f.period, 1)))

    # -- playing --------------------------------------------------------------------------------------
    def play(self) -> None:
        """Play until ``quit`` or the end of the input; every event is journalled before it is shown."""
        if self.journal.events:
            self.out.print(f"resuming fight {self.game.id} after {len(self.journal.events)} events", style="bold")
        else:
            self.out.print(f"fight {self.game.id}: {self.game.file} under {self.prepared.ruleset.id}, "
                           f"seed {self.prepared.seed}", style="bold")
        try:
            self._prompt_after_event()
            while True:
                self._next()
        except _Quit:
            return
        except KeyboardInterrupt:
            self.out.print(f"interrupted: the {len(self.journal.events)} events so far are saved; "
                           f"`affray play --db {self.store.path}` resumes", style="bold")

    def _next(self) -> None:
        item = self.drive.pull()
        match item:
            case Coming(step=step):
                warned = warn_opportunity(self.drive.fight, step, self.out)
                if (self._interactive and self.mode == "step" and self.steps_left <= 1
                        and (warned or self._blind)):
                    self._pause(over=False, coming=step)
            case DeclareQuestion():
                self._declare(item)
            case DieQuestion():
                self._die(item)
            case End():
                if not self.journal.ended:
                    self.store.append(self.game.id, "end", len(self.journal.events), {})
                    self.journal.add("end", len(self.journal.events), {})
                show_final(self.drive.fight, self.out)
                self._pause(over=True)
            case _:
                self._journal_event(item)
                self._show(item, len(self.journal.events) - 1)
                if self.mode == "step":
                    if self.steps_left > 1:
                        self.steps_left -= 1
                    else:
                        self._prompt_after_event()

    @property
    def _interactive(self) -> bool:
        return self.io is not None and self.io.interactive

    def _prompt_after_event(self) -> None:
        if self.mode != "run" and not self.drive.over:
            self._pause(over=False)

    def _line(self, prompt: str) -> str:
        assert self.io is not None
        line = self.io.ask(prompt)
        if line is None:
            raise _Quit
        return line

    # -- questions ------------------------------------------------------------------------------------
    def _declare(self, q: DeclareQuestion) -> None:
        """A declaration wanted: one plan entry (YAML flow style), ``?`` for the choices."""
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        known = "; ".join(f"{name}: {json.dumps(d.model_dump(mode='json', exclude_none=True, exclude_defaults=True))}"
                          for name, d in q.known)
        if known:
            self.out.print(f"  {q.actor} knows: {known}", markup=False)
        while True:
            text = self._line(f"{q.actor} ({q.side}) declares at {q.at} [? for choices]: ").strip()
            if text in ("?", "help"):
                show_choices(q, self.out)
                continue
            if text in ("quit", "exit", "q"):
                raise _Quit
            if not text:
                continue
            try:
                data = YAML(typ="safe").load(text)
            except YAMLError:
                data = text
            error = self.drive.answer(data)
            if error is None:
                return
            self.out.print(f"{text!r}: {error}; e.g. {{melee: NAME}}, {{move: 30, mode: withdraw}} or {{none: true}}"
                           " (? for choices)", style="yellow", markup=False)

    def _die(self, q: DieQuestion) -> None:
        """A die the engine would roll: asked at a terminal when the referee asks for these, else rolled."""
        if not self._interactive or self.mode == "run" or not self.drive.dice.asks(q.purpose, q.side):
            self.drive.answer(ROLL)
            return
        whose = f" for {q.actor}" if q.actor else ""
        while True:
            if q.attack:
                text = self._line(f"{q.actor} -> {q.target} ({q.kind}): d20, 'hit N' or 'miss' "
                                  "[Enter rolls]: ").strip().lower()
            else:
                text = self._line(f"{q.die} {q.purpose}{whose} [Enter rolls]: ").strip().lower()
            words = text.split()
            if not words:
                value: object = ROLL
            elif q.attack and words == ["miss"]:
                value = Outcome(hit=False, damage=0)
            elif q.attack and words[0] == "hit" and len(words) == 2 and words[1].isdigit():
                value = Outcome(hit=True, damage=int(words[1]))
            elif len(words) == 1 and words[0].isdigit():
                value = int(words[0])
            else:
                value = text
            error = self.drive.answer(value)
            if error is None:
                return
            hint = "enter the d20 (1-20), 'hit N' (N damage), 'miss', or nothing to roll" if q.attack else \
                f"enter a {q.die} result ({q.count}-{q.count * q.sides}), or nothing to roll it"
            self.out.print(f"{text!r}: {hint}", style="yellow", markup=False)

    # -- the referee ----------------------------------------------------------------------------------
    def _pause(self, *, over: bool, coming: Any = None) -> None:
        """Read commands until one moves the fight on; ``coming``: the step about to resolve."""
        if self.show_status and not over:
            show_status(self.drive.fight, self.out, coming)
        self._blind = not over and coming is None and not self.drive.fight.upcoming(1)
        while True:
            line = self._line("fight over> " if over else f"{len(self.drive.fight.events)}> ")
            words = line.split()
            if not words:
                if self._interactive and not over:
                    words = ["step"]
                else:
                    continue
            verb = words[0].lower()
            if verb in ("quit", "exit", "q"):
                raise _Quit
            if verb in ("step", "s", "next", "n", "run", "r"):
                if over:
                    self.out.print("the fight is over: undo, or quit", style="yellow")
                    continue
                count = _count(words, 1)
                if count is None:
                    self.out.print(f"{verb} {words[1]}: give a whole number of events, e.g. {verb} 3 (type help)",
                                   style="yellow", markup=False)
                    continue
                self.mode = "run" if verb in ("run", "r") else "step"
                self.steps_left = count
                return
            if verb in ("undo", "u"):
                if self._undo(words):
                    over, coming = False, None
                    if self.show_status:
                        show_status(self.drive.fight, self.out, None)
            elif verb == "status":
                show_status(self.drive.fight, self.out, coming)
            elif verb == "help":
                self.out.print(HELP, markup=False)
            elif verb == "dice":
                self._set_dice(words[1:])
            elif over:
                self.out.print("the fight is over: undo first to change it", style="yellow")
            else:
                error = self.drive.command(line.strip())
                if error is not None:
                    self.out.print(f"{error} (type help)", style="yellow", markup=False)
                for e in self.drive.take_events():  # what the command did, journalled and shown at once
                    self._journal_event(e)
                    self._show(e, len(self.journal.events) - 1)

    def _undo(self, words: list[str]) -> bool:
        """Take back events: whether it did."""
        n = _count(words, 1)
        if n is None:
            self.out.print(f"undo {words[1]}: give a whole number of events, e.g. undo 3 (type help)", style="yellow",
                           markup=False)
            return False
        if not self.journal.events:
            self.out.print("nothing to undo: the fight is at its start (type help)", style="yellow")
            return False
        to = self.drive.undo(n)
        self.store.append(self.game.id, "undo", to, {})
        self.journal.add("undo", to, {})
        self._last_round = None
        self.out.print(f"undone: back to {to} events", style="bold")
        self.mode, self.steps_left = "step", 0
        return True

    def _set_dice(self, words: list[str]) -> None:
        if not words or words[-1] not in ("ask", "roll") or len(words) > 2:
            self.out.print("dice: say `dice ask`, `dice roll`, or `dice WHO ask|roll` (WHO: a side, a die's purpose "
                           "such as initiative or damage, or all) (type help)", style="yellow")
            return
        who = words[0] if len(words) == 2 else "all"
        self.drive.set_dice(who, words[-1])
        self.out.print(f"dice for {who}: {words[-1]}")

    # -- showing --------------------------------------------------------------------------------------
    def _show(self, e: Event, seq: int) -> None:
        if e.round is not None and e.round != self._last_round:
            self.out.rule(f"Round {e.round}")
            self._last_round = e.round
        for line in event_text(e, seq):
            self.out.print(line, soft_wrap=False)


def _count(words: list[str], default: int) -> int | None:
    if len(words) < 2:
        return default
    if not words[1].isdigit() or int(words[1]) < 1:
        return None
    return int(words[1])

