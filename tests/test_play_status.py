"""What the console shows at a prompt: casting and its completion, morale due, attacks of opportunity ahead."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from affray import load_encounter
from affray.api import prepare
from affray.drive import Coming, End
from affray.drive.driven import Declaring
from affray.engine.conditions import unable
from affray.engine.events import Melee
from affray.io.load import load_text
from affray.play import RefereeConsole as Session
from affray.render.status import next_lines
from affray.rulesets import RULESETS
from affray.table import Store

SKIRMISH = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "skirmish.yaml"


class Script:
    """A referee typing ``lines``; ``until`` (text, lines): step until the console has shown ``text``, then type
    ``lines``."""

    interactive = False

    def __init__(self, lines: list[str], until: tuple[str, list[str]] | None = None) -> None:
        self.lines = iter(lines)
        self.until = until
        self.screen = io.StringIO()

    def ask(self, prompt: str, complete: object = None) -> str | None:
        line = next(self.lines, None)
        if line is not None or self.until is None:
            return line
        text, then = self.until
        if text not in self.screen.getvalue():
            return "step"
        self.lines, self.until = iter(then), None
        return next(self.lines, None)


def run_session(tmp_path: Path, text: str, lines: list[str], *, interactive: bool = False,
                until: tuple[str, list[str]] | None = None) -> tuple[str, Session]:
    """Play ``lines``; the output, and a fresh session on the same journal (to rebuild it)."""
    prepared = prepare(load_text(text))
    store = Store(tmp_path / "fight.db")
    game = store.new_game("<test>", text, prepared.ruleset.id, prepared.seed, {}, False, 50)
    script = Script(lines, until)
    script.interactive = interactive
    Session(store, game, script, Console(file=script.screen, width=200), show_status_at_prompt=True).play()
    return script.screen.getvalue(), Session(store, game, None, Console(file=io.StringIO()))


def session_output(tmp_path: Path, text: str, lines: list[str]) -> str:
    return run_session(tmp_path, text, lines)[0]


def test_a_spell_being_cast_shows_when_it_completes(tmp_path: Path) -> None:
    """side-d6, seed 7: party wins initiative (d6 4 vs 1), so its steps 4-8 come first (MJ-04, MJ-05); after
    Mina's casting begins (event 11) her magic missile completes at step 6, spells (MJ-05)."""
    out, _ = run_session(tmp_path, SKIRMISH.read_text(), [], until=("cast-start   Mina", ["status", "quit"]))
    status = out.rsplit("now: ", 1)[1]
    assert "now: " + status.splitlines()[0] == "now: round 1, step 3 (casting begins)"
    mina = next(line for line in status.splitlines() if line.startswith("Mina"))
    assert "13/13" in mina and "magic missile (completes round 1, party (1st), step 6 (spells))" in mina


def test_morale_due_after_a_first_casualty(tmp_path: Path) -> None:
    """G-07: a side not of PCs checks after its first casualty: Orc 1 (6 hp) takes 6 by the referee's hand and
    is down; 1 of 5 orcs out is not half (2 x 1 < 5), so only the first casualty is due."""
    out = session_output(tmp_path, SKIRMISH.read_text(), ["damage Orc 1 6", "status", "quit"])
    assert "morale due: orcs (first casualty, G-07)" in out
    assert "half down" not in out


RETREAT = """
ruleset: side-d6
seed: 1
surprise: none
rolls: {initiative: {1: {party: 4, orcs: 1}, 2: {party: 4, orcs: 1}}}
sides:
  party:
    pc: true
    combatants: [{name: Brom, class: fighter, level: 1, hp: 20, weapons: [{name: sword, sf: 5, damage: 1d8}]}]
  orcs:
    combatants: [{name: Orc, hd: 1, hp: 30, weapons: [{name: axe, sf: 7, damage: 1d8}]}]
plan:
  Brom: [{melee: Orc, outcome: {hit: false}}, {move: 30, mode: retreat}]
  Orc: [{melee: Brom, outcome: {hit: false}}, {melee: Brom, outcome: {hit: false}}]
"""


def test_a_warning_before_a_move_that_provokes_an_attack_of_opportunity(tmp_path: Path) -> None:
    """MJ-09: a full retreat from melee gives the foe a free attack. Brom and the orc trade blows in round 1
    (engaged); in round 2 Brom retreats: at the prompt before his move (the initiative just shown, his move
    next) the console warns, and the referee deals Brom 3 damage by hand; the free attack follows, and the
    journal replays to the same log."""
    warning = "warning: Brom's move provokes an attack of opportunity from Orc (free attack: Brom makes a full " \
              "retreat from melee (MJ-09, MJ-11))"
    out, session = run_session(tmp_path, RETREAT, ["dice roll"], interactive=True,
                               until=(warning, ["damage Brom 3", "run", "quit"]))
    assert warning in out
    before, after = out.split(warning, 1)
    assert "   8 initiative" in before and "   9 " not in before
    assert "next: Brom: move at round 2, party (1st), step 4 (movement)" in before.split("   8 initiative")[1]
    assert after.index("   9 damage") < after.index("  10 melee        Orc -> Brom")
    assert "(opportunity)" in after.split("  11 move")[0]
    doc = session.rebuild()  # raises unless the journal replays to the stored events
    assert [e.kind for e in doc.events[8:12]] == ["initiative", "damage", "melee", "move"]
    assert doc.final.combatants["Brom"]["hp"] == 20 - 3 - next(e.damage for e in doc.events
                                                              if isinstance(e, Melee) and e.opportunity)


STEP_KINDS = ("melee", "missile", "move", "cast", "impossible")


@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_next_names_every_step_of_the_coming_moment(ruleset: str) -> None:
    """Whenever a step is about to resolve, `next:` lists the steps of its moment; the combatants whose steps
    then resolve at that moment (an attack, a move, a spell, or a step found impossible; not a free attack on
    one who moves away, which a step brings; not the refusal of a step of one already out of the fight, issue 25,
    or unable to act then, routed or asleep, issue 37, which the status no longer lists) are among those listed,
    none left out (issue 14: `next` once named one step of several at the same moment)."""

    drive = prepare(load_encounter(SKIRMISH), ruleset=ruleset).drive(auto=True, announce=True)
    checked = 0
    item = drive.pull()
    while not isinstance(item, End):
        if isinstance(item, Coming):
            tick = item.step.tick
            listed = {line.plain.removeprefix("next: ").split(":")[0]
                      for line in next_lines(drive.fight, item.step, None) if line.plain.startswith("next: ")}
            out = {f.name for f in drive.fight.state.fighters.values()  # out of the fight, or unable then: asleep,
                   if unable(f, tick) is not None}  # routed... (issue 37: the status lists only what can happen)
            resolved: set[str] = set()
            item = drive.pull()
            while not isinstance(item, (End, Declaring)) and ((isinstance(item, Coming) and item.step.tick == tick)
                                                              or (not isinstance(item, Coming) and item.tick == tick)):
                if (not isinstance(item, Coming) and item.kind in STEP_KINDS and item.actor
                        and not getattr(item, "opportunity", False)  # a free blow is a step's consequence
                        and not (item.kind == "impossible" and item.actor in out)):
                    resolved.add(item.actor)
                item = drive.pull()
            assert resolved <= listed, (tick, listed, resolved)
            checked += 1
            continue
        item = drive.pull()
    assert checked > 10


STATUS = """
ruleset: side-d6
seed: 3
surprise: none
rolls: {initiative: {1: {party: 6, orcs: 1}}}
sides:
  party:
    pc: true
    combatants:
      - {name: Brom, class: fighter, level: 3, hp: 30, ac: 4, weapons: [{name: long sword, sf: 5, damage: 1d8}]}
  orcs:
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 6, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
plan:
  Brom: [{melee: Orc 2, outcome: {hit: true, damage: 20}}]
  Orc 1: [{melee: Brom, distance: 20}]
  Orc 2: [{melee: Brom, distance: 20}]
"""


def test_status_lists_only_what_can_still_happen() -> None:
    """side-d6, the party first (d6 6 against 1: its steps 4-8 come first, MJ-04, MJ-05). Brom's blow fells Orc 2
    (20 damage, the referee's outcome, against 6 hp) at the party's step 7; the orcs' blows (their step 7, after
    closing 20 ft within the free third of their move, MJ-05) were placed before it. Once Orc 2 is down, what
    comes next names Orc 1's blow and not the dead orc's (issue 25: the status listed a dead kobold's move as
    coming next)."""
    drive = prepare(load_text(STATUS)).drive(announce=True)
    item = drive.pull()
    while not (getattr(item, "kind", None) == "down" and item.actor == "Orc 2"):  # type: ignore[union-attr]
        assert not isinstance(item, End)
        item = drive.pull()
    nxt = [line.plain for line in next_lines(drive.fight, None, None)]
    assert nxt == ["next: Orc 1: melee -> Brom at round 1, orcs (2nd), step 7 (melee)"], nxt
    assert not any("Orc 2" in line for line in nxt), nxt
