"""The referee's console: the table's session (``affray.table``) at a prompt.

The console only reads lines and shows what comes back: events as they are journalled, a question at its own
prompt (a declaration, with what Enter accepts; a die), the status where the fight pauses, the final state.
Every line goes to the session, whatever the prompt: a declaration typed at the command prompt, a command at a
declaration prompt. Resume and ``undo`` rebuild the fight from its journal; ``affray log`` rebuilds it without
asking or showing anything.
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection
from typing import Protocol

from rich.console import Console

from affray.drive import DeclareQuestion, DicePrefs, DieQuestion
from affray.drive.commands import COMMANDS, suggest
from affray.drive.shorthand import suggest as entry_words
from affray.engine.fight import Result, describe_declaration
from affray.play.terminal import Complete
from affray.printable import printable
from affray.render.status import event_text, show_choices, show_final, show_status, status_table, warn_opportunity
from affray.table import Game, Pause, Reply, Session, Shown, Store, branched_text, open_fight
from affray.table.session import MOVING, SAVE_PARTY, PartyKeeper

__all__ = ["HELP", "Io", "RefereeConsole"]

HELP = """commands (Tab completes them, and names, conditions, sides); any of them works at any prompt:
  step [N]            resolve the next step or declaration (or N), showing what it makes (Enter steps too)
  round [N]           play on to the next round's first declarations (or the N-th next round's)
  run                 play on to the next question or the end
  undo [N]            take back the last step (or the last N events, back to the step before them)
  back                take back the last answer or command, whatever it was: its question is asked again
  status              who stands, what comes next, spells, engagements, conditions, morale due
  dice [WHO] ask|roll ask for dice or let the engine roll them; WHO: a side, a die's purpose
                      (initiative, attack, damage, save, morale, healing...) or all (default)
  hit N | miss | D20  the referee's outcome (or d20) for the attack about to be rolled
  D20 N, N N ...      at a die: an attack's d20 and its damage on one line; dice asked in a row on one line
  declare WHO MODE    who answers WHO's declarations (a side or a combatant): ask, auto (its policy) or
                      repeat (its last declaration stands while still possible)
  NAME: DECLARATION   a declaration for NAME (or NAME, NAME; a side; all), taken at its turn: at this
                      declaration point if it has not declared yet, else its next (all: same keeps each one's)
  damage NAME N       N points of damage by the referee's hand (a caster's spell is disrupted, G-11)
  heal NAME N         N hit points back
  morale SIDE [TOTAL] SIDE checks morale now (G-07): the dice rolled, or their total as rolled at the table
  note TEXT           the referee's words kept in the log
  add SIDE {...}      a combatant joins SIDE mid-fight (the file's fields, one line of YAML)
  remove NAME         NAME leaves the fight
  plan NAME [{...}]   NAME's declarations still to come (one line of YAML: a list of declarations)
  condition NAME C [D] NAME is C (asleep, held, paralysed, stunned, dazed, prone, blinded, charmed,
                      fleeing, unconscious) for D (N rounds, turns, phases or segments), or until ended
  end NAME [C]        NAME's condition C (or all its conditions) ends
  save-party          write what the fight has left so far into the party file (--party; at the end it is
                      written by itself)
  quit                leave; everything is saved (`affray play --db PATH` resumes)
at a declaration (? lists the choices, Tab completes them, Enter takes the suggestion shown):
    melee NAME [with WEAPON], missile NAME, charge NAME, cast SPELL [at TARGET], move [FEET], withdraw,
    flee, wait, none, misc TEXT, the ruleset's own keys (key VALUE), or one plan entry in YAML flow style"""

#: The console's own words (besides the session's and the fight's commands).
VERBS = (*MOVING, "undo", "back", "status", "dice", "help", "quit", "hit", "miss", SAVE_PARTY)


class Io(Protocol):
    """Where the referee's answers come from: a terminal (asks) or a pipe (never asks for dice)."""

    interactive: bool

    def ask(self, prompt: str, complete: Complete | None = None) -> str | None:
        """One line typed by the referee (``complete``: what Tab offers), or None at the end of the input."""


class _Quit(Exception):
    """The referee leaves (or the input ends): everything is already journalled."""


class RefereeConsole:
    """One game of a database, played, resumed or only rebuilt (``io`` None, a database opened to read). ``dice``:
    the dice asked before the referee says otherwise (default: every die at a terminal, none from a pipe);
    ``new_rules``: a fight saved before the rules changed goes on under today's (``affray.table.open_fight``);
    ``code``: the designer's ``module:function`` policies named on the command line, which it may run."""

    def __init__(self, store: Store, game: Game, io: Io | None, console: Console, *,
                 show_status_at_prompt: bool | None = None, dice: str | None = None, new_rules: bool = False,
                 party: PartyKeeper | None = None, code: Collection[str] = ()) -> None:
        self.store = store
        self.game = game
        self.io = io
        self.out = console
        interactive = io is not None and io.interactive
        self.show_status = interactive if show_status_at_prompt is None else show_status_at_prompt
        opened = open_fight(store, game, DicePrefs({"all": dice or ("ask" if interactive else "roll")}),
                            new_rules=new_rules, code=code)
        self.prepared, self.journal, self.branched = opened.prepared, opened.journal, opened.branched
        self.session = Session(opened.drive, opened.record, pause_on_provoke=True)
        self.session.party = party
        self._last_round: int | None = None
        self._seen: object = None  # the question or pause last prompted for: what it shows is shown once
        self._table: list[tuple[str, ...]] | None = None  # the combatants' table as last shown

    def rebuild(self) -> Result:
        """The fight as its journal leaves it, rebuilt without asking or showing anything."""
        f = self.session.fight
        return Result(self.prepared.ruleset.id, f.seed, self.prepared.ruleset.all_options(), f.events,
                      f.state.final(), f.round_of(max(f.period, 1)))

    # -- playing --------------------------------------------------------------------------------------
    def play(self) -> None:
        """Play until ``quit`` or the end of the input; every event is journalled before it is shown."""
        if self.branched is not None:
            self.out.print(printable(branched_text(self.store.path, self.branched)), style="bold", markup=False)
        if self.journal.events:
            self.out.print(f"resuming fight {self.game.id} after {len(self.journal.events)} events", style="bold")
        else:
            self.out.print(printable(f"fight {self.game.id}: {self.game.file} under {self.prepared.ruleset.id}, "
                                     f"seed {self.prepared.seed}"), style="bold", markup=False)
        s = self.session
        try:
            while True:
                if s.waiting:
                    self._prompt()
                else:
                    item = s.next()
                    if isinstance(item, Shown):
                        self._show(item)
        except _Quit:
            return
        except KeyboardInterrupt:
            self.out.print(f"interrupted: the {len(self.journal.events)} events so far are saved; "
                           f"`affray play --db {printable(self.store.path)}` resumes", style="bold", markup=False)

    def _line(self, prompt: str, complete: Complete | None = None) -> str:
        assert self.io is not None
        line = self.io.ask(prompt, complete)
        if line is None:
            raise _Quit
        return line

    def _prompt(self) -> None:
        """One line for whatever waits (a question, a pause, the end), shown first what that calls for."""
        s = self.session
        q = s.pending
        context = q if q is not None else ("over" if s.over else s.paused)
        first = context is not self._seen
        self._seen = context
        if isinstance(q, DeclareQuestion):
            if first and q.known:
                self._known(q)
            hint = f"Enter: {describe_declaration(q.suggestion, s.fight.state.fighters[q.actor])}; " \
                if q.suggestion is not None else ""
            prompt = f"{q.actor} ({q.side}) declares, {q.at} [{hint}? for choices]: "
            complete = self._complete_declaration(q)
        elif isinstance(q, DieQuestion):
            prompt = (f"{q.actor} -> {q.target} ({q.kind}): d20 [and damage], 'hit N' or 'miss' [Enter rolls]: "
                      if q.attack
                      else f"{q.die} {q.purpose}{f' for {q.actor}' if q.actor else ''} [Enter rolls]: ")
            complete = self._complete_command
        elif s.over:
            if first:
                show_final(s.fight, self.out)
                if s.party_saved is not None:
                    self.out.print(printable(s.party_saved), markup=False)
            prompt, complete = "fight over> ", self._complete_command
        else:
            if first:
                self._at_pause(s.paused)
            prompt, complete = f"{len(s.fight.events)}> ", self._complete_command
        line = self._line(printable(prompt), complete)
        self._say(line, q)

    def _say(self, line: str, q: object) -> None:
        words = line.split()
        verb = words[0].lower() if words else ""
        if verb in ("quit", "exit", "q"):
            raise _Quit
        if verb == "help" or (verb == "?" and not isinstance(q, DeclareQuestion)):
            self.out.print(HELP, markup=False)
            return
        if verb == "?" and isinstance(q, DeclareQuestion):
            show_choices(q, self.out)
            return
        if verb == "status":
            self._status(full=True)
            return
        if not words and self.session.over:
            return
        reply = self.session.say(line)
        self._reply(reply, line)
        if reply.ok and verb in ("undo", "u", "back"):
            self._last_round = None
            if self.show_status:
                self._status(full=True)
            self._seen = self.session.pending or self.session.paused  # shown already

    def _reply(self, reply: Reply, line: str) -> None:
        for e in reply.events:  # what a command did, journalled and shown at once
            self._show(e)
        if reply.text:
            style = None if reply.ok else "yellow"
            hint = "" if reply.ok or self.session.pending is not None else " (type help)"
            self.out.print(printable(reply.text + hint), style=style, markup=False)

    def _at_pause(self, pause: Pause | None) -> None:
        if pause is not None and pause.why == "provokes" and pause.step is not None:
            warn_opportunity(self.session.fight, pause.step, self.out)
        elif pause is not None and pause.why == "round" and self.session.drive.declaring is not None:
            at = self.session.drive.declaring[1]
            self.out.print(printable(f"{at}: declarations come next (NAME: DECLARATION changes one; Enter or "
                                     "round goes on)"), style="bold", markup=False)
        if self.show_status:
            self._status(full=False)

    def _known(self, q: DeclareQuestion) -> None:
        fight = self.session.fight
        known = "; ".join(f"{name}: {describe_declaration(d, fight.state.fighters[name])}" for name, d in q.known)
        text = textwrap.fill(printable(f"{q.actor} knows: {known}"), max(self.out.width - 1, 40), initial_indent="  ",
                             subsequent_indent="    ", break_on_hyphens=False)
        self.out.print(text, markup=False, soft_wrap=True)

    def _complete_command(self, text: str) -> tuple[str, list[str]]:
        return suggest(text, self.session.fight, VERBS)

    def _complete_declaration(self, q: DeclareQuestion) -> Complete:
        def complete(text: str) -> tuple[str, list[str]]:
            partial, words = entry_words(text, q.choices)
            if " " not in text:
                words += [v for v in (*VERBS, *COMMANDS) if v.startswith(text.lower()) and v not in words]
            return partial, words

        return complete

    # -- showing --------------------------------------------------------------------------------------
    def _status(self, *, full: bool) -> None:
        """What comes next; the combatants' table too when ``full`` or when it changed since it was shown."""
        s = self.session
        rows = status_table(s.fight, s.drive.coming)
        show_status(s.fight, self.out, s.drive.coming, s.drive.declaring, table=full or rows != self._table)
        self._table = rows

    def _show(self, shown: Shown) -> None:
        e = shown.event
        if e.round is not None and e.round != self._last_round:
            self.out.rule(f"Round {e.round}")
            self._last_round = e.round
        for part in event_text(e, shown.seq, self.out.width):
            self.out.print(part, soft_wrap=True)

