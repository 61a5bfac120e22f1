"""The referee's console: a driven fight (``affray.drive``) at a prompt.

The console pulls the next thing from the fight: an event is journalled, then shown, and in step mode the
referee gets a prompt; a question (a declaration wanted, a die the referee asks for) is asked at its own
prompt; a step about to resolve may pause the console first (a move that provokes a free attack, or steps
placed since the last prompt). Resume and ``undo`` rebuild the fight from its journalled inputs (a fight is a
pure function of them); ``affray log`` rebuilds it without asking or showing anything.
"""

from __future__ import annotations

import textwrap
from dataclasses import asdict
from typing import Protocol

from rich.console import Console

from affray.api import Prepared, prepare
from affray.drive import ROLL, AnswerError, Coming, DeclareQuestion, DicePrefs, DieQuestion, End
from affray.drive.commands import COMMANDS, suggest, typed_outcome, whole
from affray.drive.shorthand import entry
from affray.drive.shorthand import suggest as entry_words
from affray.engine.events import Event
from affray.engine.fight import Result, describe_declaration
from affray.io.load import load_text
from affray.model.encounter import Outcome
from affray.play.record import Recorder, open_drive
from affray.play.store import Game, Store
from affray.play.terminal import Complete
from affray.play.view import (
    event_text,
    next_lines,
    show_choices,
    show_final,
    show_status,
    status_table,
    warn_opportunity,
)
from affray.printable import printable

__all__ = ["Io", "Session", "open_game"]

HELP = """commands (Tab completes them, and names, conditions, sides):
  step [N]            resolve the next step or declaration (or N), showing what it makes (Enter steps too)
  run                 play on to the end, asking no dice (declarations are still asked)
  undo [N]            take back the last step (or the last N events, back to the step before them), its
                      dice, answers and commands with it
  status              who stands, what comes next, spells, engagements, conditions, morale due
  dice [WHO] ask|roll ask for dice or let the engine roll them; WHO: a side, a die's purpose
                      (initiative, attack, damage, save...) or all (default)
  hit N | miss | D20  the referee's outcome (or d20) for the attack about to be rolled
  damage NAME N       N points of damage by the referee's hand (a caster's spell is disrupted, G-11)
  heal NAME N         N hit points back
  add SIDE {...}      a combatant joins SIDE mid-fight (the file's fields, one line of YAML)
  remove NAME         NAME leaves the fight
  plan NAME [{...}]   NAME's declarations still to come (one line of YAML: a list of declarations)
  condition NAME C [D] NAME is C (asleep, held, paralysed, stunned, dazed, prone, blinded, charmed,
                      fleeing, unconscious) for D (N rounds, turns, phases or segments), or until ended
  end NAME [C]        NAME's condition C (or all its conditions) ends
  quit                leave; everything is saved (`affray play --db PATH` resumes)
at a declaration (? lists the choices, Tab completes them):
    melee NAME [with WEAPON], missile NAME, charge NAME, cast SPELL [at TARGET], move [FEET], withdraw,
    flee, wait, none, misc TEXT, the ruleset's own keys (key VALUE), or one plan entry in YAML flow style"""

#: The console's own commands (besides the fight's, ``affray.drive.commands``).
VERBS = ("step", "run", "undo", "status", "dice", "help", "quit", "hit", "miss")


class Io(Protocol):
    """Where the referee's answers come from: a terminal (asks) or a pipe (never asks for dice)."""

    interactive: bool

    def ask(self, prompt: str, complete: Complete | None = None) -> str | None:
        """One line typed by the referee (``complete``: what Tab offers), or None at the end of the input."""


class _Quit(Exception):
    """The referee leaves (or the input ends): everything is already journalled."""


def open_game(store: Store, game: Game) -> Prepared:
    """The prepared encounter a game was started with (its text is in the database)."""
    loaded = load_text(game.text, game.file, strict=False)
    return prepare(loaded, ruleset=game.ruleset, seed=game.seed, options=game.options)


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
        self._prompted: object = None  # what came next when the referee was last prompted
        self._table: list[tuple[str, ...]] | None = None  # the combatants' table as last shown
        # a console asks for every die (and answers "roll" where the referee lets the engine roll): which are
        # shown is the referee's choice, journalled as it changes
        self.drive = open_drive(store, game, self.prepared, self.journal,
                                DicePrefs({"all": "ask" if interactive else "roll"}))
        self.record = Recorder(store, game, self.journal)
        self.drive.on_input = self.record.input

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
            self.out.print(printable(f"fight {self.game.id}: {self.game.file} under {self.prepared.ruleset.id}, "
                                     f"seed {self.prepared.seed}"), style="bold", markup=False)
        try:
            if self.drive.peek() is None or isinstance(self.drive.peek(), Coming):
                self._pause(over=False)  # before the fight (or where it was left): the referee's first word
            while True:
                self._next()
        except _Quit:
            return
        except KeyboardInterrupt:
            self.out.print(f"interrupted: the {len(self.journal.events)} events so far are saved; "
                           f"`affray play --db {printable(self.store.path)}` resumes", style="bold", markup=False)

    def _next(self) -> None:
        item = self.drive.pull()
        match item:
            case Coming(step=step):
                if item is not self._prompted:  # a step not shown at a prompt: stop before a provoking move
                    warned = warn_opportunity(self.drive.fight, step, self.out)
                    if warned and self.mode == "step":
                        self._pause(over=False)
            case DeclareQuestion():
                self._declare(item)
            case DieQuestion():
                self._die(item)
            case End():
                self.record.end()
                show_final(self.drive.fight, self.out)
                self._pause(over=True)
            case _:
                self._show(item, self.record.event(item))
                nxt = self.drive.peek()
                if self.mode != "step" or isinstance(nxt, (DeclareQuestion, DieQuestion, End)) or (
                        nxt is not None and not isinstance(nxt, Coming)):
                    return  # more of this step's events, or a question (its own prompt), or the end
                if self.steps_left > 1:
                    self.steps_left -= 1
                else:
                    self._pause(over=False)

    def _line(self, prompt: str, complete: Complete | None = None) -> str:
        assert self.io is not None
        line = self.io.ask(prompt, complete)
        if line is None:
            raise _Quit
        return line

    def _complete_command(self, text: str) -> tuple[str, list[str]]:
        return suggest(text, self.drive.fight, VERBS)

    # -- questions ------------------------------------------------------------------------------------
    def _declare(self, q: DeclareQuestion) -> None:
        """A declaration wanted: a short form (``melee Orc 1``) or one plan entry in YAML; ``?`` for the
        choices; a command works here too."""
        fight = self.drive.fight
        if q.known:
            known = "; ".join(f"{name}: {describe_declaration(d, fight.state.fighters[name])}" for name, d in q.known)
            text = textwrap.fill(printable(f"{q.actor} knows: {known}"), max(self.out.width - 1, 40),
                                 initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)
            self.out.print(text, markup=False, soft_wrap=True)

        def complete(text: str) -> tuple[str, list[str]]:
            partial, words = entry_words(text, q.choices)
            if " " not in text:
                words += [v for v in (*VERBS, *COMMANDS) if v.startswith(text.lower()) and v not in words]
            return partial, words

        while True:
            text = self._line(printable(f"{q.actor} ({q.side}) declares, {q.at} [? for choices]: "), complete).strip()
            if text in ("?", "help"):
                show_choices(q, self.out)
                continue
            if not text:
                self.out.print(printable(f"say what {q.actor} does, e.g. melee {_first(q.choices['enemies'])} or "
                                         "none (? lists the choices)"), style="yellow", markup=False)
                continue
            verb = text.split()[0].lower()
            if verb in VERBS or verb in COMMANDS:
                if self._command(text, over=False) == "undone":
                    return
                continue
            try:
                data = entry(text, q.choices)
            except AnswerError as exc:
                self.out.print(printable(f"{text}: {exc}"), style="yellow", markup=False)
                continue
            error = self.drive.answer(data)
            if error is None:
                return
            self.out.print(printable(f"{text}: {error} (? for choices)"), style="yellow", markup=False)

    def _die(self, q: DieQuestion) -> None:
        """A die the referee asks for (``dice ask``): a result, an attack's outcome, or Enter to roll it."""
        if self.mode == "run":
            self.drive.answer(ROLL)
            return
        whose = f" for {q.actor}" if q.actor else ""
        while True:
            if q.attack:
                text = self._line(printable(f"{q.actor} -> {q.target} ({q.kind}): d20, 'hit N' or 'miss' "
                                            "[Enter rolls]: "), self._complete_command).strip().lower()
            else:
                text = self._line(printable(f"{q.die} {q.purpose}{whose} [Enter rolls]: "),
                                  self._complete_command).strip().lower()
            words = text.split()
            value: object
            if not words or words[0] in ("roll", "r", "step", "s"):
                value = ROLL
            elif words[0] == "run":
                self.mode = "run"
                value = ROLL
            elif q.attack and (outcome := typed_outcome(words)) is not None:
                value = outcome
            elif len(words) == 1 and (n := whole(words[0], q.count * q.sides)) is not None:
                value = n
            elif words[0] in VERBS or words[0] in COMMANDS:
                if self._command(text, over=False) == "undone":
                    return
                if not self.drive.dice.asks(q.purpose, q.side):  # `dice roll` said for this die: rolled
                    value = ROLL
                else:
                    continue
            else:
                value = text
            error = self.drive.answer(value)
            if error is None:
                return
            hint = "enter the d20 (1-20), 'hit N' (N damage), 'miss', or nothing to roll" if q.attack else \
                f"enter a {q.die} result ({q.count}-{q.count * q.sides}), or nothing to roll it"
            self.out.print(printable(f"{text!r}: {hint}"), style="yellow", markup=False)

    # -- the referee ----------------------------------------------------------------------------------
    def _pause(self, *, over: bool) -> None:
        """Read commands at a point until one moves the fight on."""
        self._prompted = self.drive.peek()
        if self.show_status and not over:
            self._status(full=False)
        while True:
            line = self._line("fight over> " if over else f"{len(self.drive.fight.events)}> ",
                              self._complete_command)
            if self._command(line, over=over) in ("go", "undone-over"):
                return

    def _command(self, line: str, *, over: bool) -> str:
        """One command line: "go" (the fight moves on), "undone" (taken back), or "stay"."""
        words = line.split()
        if not words:
            if over:
                return "stay"
            words = ["step"]  # Enter steps, at a terminal and from a pipe alike
        verb = words[0].lower()
        if verb in ("quit", "exit", "q"):
            raise _Quit
        if verb in ("step", "s", "next", "n", "run", "r"):
            if over:
                self.out.print("the fight is over: undo, or quit", style="yellow")
                return "stay"
            count = _count(words, 1)
            if count is None:
                self.out.print(printable(f"{verb} {words[1]}: give a whole number of steps (1 to 1000000), e.g. "
                                         f"{verb} 3 (type help)"), style="yellow", markup=False)
                return "stay"
            self.mode = "run" if verb in ("run", "r") else "step"
            self.steps_left = count
            return "go"
        if verb in ("undo", "u"):
            if not self._undo(words):
                return "stay"
            if self.show_status:
                self._status(full=True)
            self._prompted = self.drive.peek()
            return "undone"
        if verb == "status":
            self._status(full=True)
        elif verb == "help":
            self.out.print(HELP, markup=False)
        elif verb == "dice":
            self._set_dice(words[1:])
        elif over:
            self.out.print("the fight is over: undo first to change it", style="yellow")
        elif (outcome := typed_outcome([w.lower() for w in words])) is not None or (
                len(words) == 1 and whole(verb, 20) is not None):
            return self._preset(line.strip(), outcome if outcome is not None else int(verb))
        else:
            error = self.drive.command(line.strip())
            if error is not None:
                self.out.print(f"{printable(error)} (type help)", style="yellow", markup=False)
            for e in self.drive.take_events():  # what the command did, journalled and shown at once
                self._show(e, self.record.event(e))
        return "stay"

    def _preset(self, text: str, value: Outcome | int) -> str:
        """An attack's outcome typed at the command prompt: for the attack about to be rolled, or explained."""
        coming = self.drive.coming
        if self.drive.preset(value) is None:
            assert coming is not None
            self.out.print(printable(f"{text}: for {coming.actor.name}'s {coming.kind} at {coming.target}"),
                           markup=False)
            self.mode, self.steps_left = "step", 1
            return "go"
        nxt = next_lines(self.drive.fight, coming, self.drive.declaring)[0].plain
        self.out.print(printable(f"{text}: an attack's outcome, but no attack is about to be rolled ({nxt}); type it "
                                 "when the attack comes next, or when its d20 is asked (dice attack ask), or with "
                                 "the declaration: melee NAME hit 6"), style="yellow", markup=False)
        return "stay"

    def _status(self, *, full: bool) -> None:
        """What comes next; the combatants' table too when ``full`` or when it changed since it was shown."""
        fight = self.drive.fight
        rows = status_table(fight, self.drive.coming)
        show_status(fight, self.out, self.drive.coming, self.drive.declaring, table=full or rows != self._table)
        self._table = rows

    def _undo(self, words: list[str]) -> bool:
        """Take back events: whether it did."""
        n = _count(words, 1)
        if n is None:
            self.out.print(printable(f"undo {words[1]}: give a whole number of events (1 to 1000000), e.g. undo 3 "
                                     "(type help)"), style="yellow", markup=False)
            return False
        if not self.journal.events:
            self.out.print("nothing to undo: the fight is at its start (type help)", style="yellow")
            return False
        to = self.drive.undo(n)
        self.record.undo(to)
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
        self.out.print(printable(f"dice for {who}: {words[-1]}"), markup=False)

    # -- showing --------------------------------------------------------------------------------------
    def _show(self, e: Event, seq: int) -> None:
        if e.round is not None and e.round != self._last_round:
            self.out.rule(f"Round {e.round}")
            self._last_round = e.round
        for part in event_text(e, seq, self.out.width):
            self.out.print(part, soft_wrap=True)


def _count(words: list[str], default: int) -> int | None:
    if len(words) < 2:
        return default
    return whole(words[1], 1_000_000)


def _first(names: list[str]) -> str:
    return names[0] if names else "NAME"
