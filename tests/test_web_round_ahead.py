"""The round ahead on the board (issue 44): at a round's start the board shows what is declared and where it will
land (its planned marks), filled in as it resolves, under every ruleset; a player's board only what its character
may know.

README's kobold fight (four player characters against eleven kobolds and their chief, no surprise), played on the
page's table by the referee's words: each player character declares its own kind of action, the kobolds one group
line. The board is read at each moment of the first declaration point and after, until the first action
resolves: each declaration made is on the referee's board as a planned mark in its combatant's lane, of the kind
of its action and naming its target: in its declaration's column while its ruleset has not placed it yet (it
waits for the point's other declarations, or for initiative), then in the column where it lands. Played on to the
end of the window, each planned mark is filled in by its event, where it was planned.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from affray.drive import DeclareQuestion
from affray.render.board import Board, fight_board
from affray.render.board_clock import LATER, layout_for
from affray.rulesets import ruleset_ids
from affray.web.app import Served
from affray.web.views import player_view, referee_view
from web_helpers import client, opening

FIGHT = """\
seed: 11
surprise: none
sides:
  party:
    pc: true
    combatants:
      - {name: Aldric, class: fighter, level: 3, hp: 26, armour: [chain mail, shield], weapons: [long sword, short bow]}
      - {name: Brother Tam, class: cleric, level: 3, hp: 17, armour: chain mail, shield: true, weapons: [mace],
         spells: [command, cure light wounds, hold person]}
      - {name: Mina, class: wizard, level: 3, hp: 9, dex: 16, weapons: [dagger], spells: [sleep, magic missile, web]}
      - {name: Theo, class: thief, level: 3, hp: 12, dex: 17, armour: leather, weapons: [short sword, sling]}
  kobolds:
    combatants:
      - {monster: kobold, count: 11}
      - {monster: kobold, name: Kobold chief, hd: 2, ac: 5, weapons: [spear]}
"""
#: Each player character's declaration: a shot, a blow, a spell at a kobold, a move; the kobolds', one line.
SAYS = {"Aldric": "missile Kobold 1", "Brother Tam": "melee Kobold 2", "Mina": "cast magic missile at Kobold 3",
        "Theo": "move 30"}
KOBOLDS = "kobolds: melee Aldric"
ACTIONS = frozenset({"melee", "missile", "cast", "move", "misc", "wait"})
PARTY = ("Aldric", "Brother Tam", "Mina", "Theo")
#: What an action planned may end in instead of itself, at the moment it was planned for.
SETTLED = ("impossible", "spell-ruined", "spell-lost", "delay")


def _on(served: Served, fn: Any) -> Any:
    return served.pool.submit(fn).result()


def _declared(served: Served, window: int) -> dict[str, tuple[str, str | None]]:
    """Each combatant's declaration in ``window`` (the first point's): its action and target."""
    fight = served.table.session.fight
    layout = layout_for(fight.ruleset.id)
    out: dict[str, tuple[str, str | None]] = {}
    for e in fight.events:
        if e.kind == "declare" and e.decl is not None and layout.window(e.tick) == window:
            out.setdefault(e.actor, (e.decl.action, e.decl.target))
    return {a: d for a, d in out.items() if d[0] in ACTIONS}


def _planned(board: Board) -> dict[str, list[tuple[str, Any, bool, str]]]:
    """The board's planned marks by lane: kind, column (its key), whether still waiting to be placed, title."""
    out: dict[str, list[tuple[str, Any, bool, str]]] = {}
    for m in board.marks:
        if m.placed:
            out.setdefault(m.lane, []).append((m.kind, board.columns[m.column].key, m.declared, m.title))
    return out


def _acted(served: Served, window: int) -> bool:
    fight = served.table.session.fight
    layout = layout_for(fight.ruleset.id)
    return any(e.kind in ACTIONS and e.tick and layout.window(e.tick) == window for e in fight.events)


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_the_board_shows_the_round_ahead(tmp_path: Path, ruleset: str) -> None:  # noqa: C901
    with client(opening(tmp_path, ruleset, FIGHT)) as (_c, served):
        table = served.table
        _on(served, lambda: table.command("dice roll"))
        seen_waiting = 0
        start: tuple[Board, Board, dict[str, tuple[str, str | None]]] | None = None
        window = 1
        for _ in range(80):
            ref = _on(served, lambda: referee_view(table, 0)).board
            window = ref.window
            if _acted(served, window):
                break
            declared = _declared(served, window)
            planned = _planned(ref)
            for actor, (action, target) in declared.items():  # every declaration made is on the board
                marks = [m for m in planned.get(actor, [])  # a spell's first step: its casting begins (D12-05)
                         if m[0] == action or (action, m[0]) == ("cast", "cast-start")]
                assert marks, f"{actor}'s {action} is not on the board: {planned.get(actor)}"
                assert target is None or all(target in m[3] for m in marks), marks
                seen_waiting += any(m[2] for m in marks)
            if declared and not any(m[2] for ms in planned.values() for m in ms):  # all placed: the round ahead
                start = (ref, _on(served, lambda: player_view(table, "Aldric", 0)).board, declared)
            q = table.pending
            if isinstance(q, DeclareQuestion):
                said = SAYS.get(q.actor, KOBOLDS)
                assert _on(served, lambda said=said: table.command(said)) in ("", "done"), said
            else:
                _on(served, lambda: table.command("step"))
        assert start is not None, "the round's actions were never all placed before the first resolved"
        if ruleset != "phase-count":  # which places each action as it is declared: p + 1d6 + PM (PC-02)
            assert seen_waiting, "no declaration was ever drawn before its ruleset placed it"
        ref_start, aldric, declared = start
        planned = _planned(ref_start)
        assert set(PARTY) <= set(declared)  # (the kobolds too, but for d12-procedure's, who declare on their count)
        # Aldric's board: his side's planned marks, as the referee's; a kobold's only once he heard its declaration
        mine = _planned(aldric)
        heard = table.session.heard.get("Aldric", set())
        events = table.session.fight.events
        heard_from = {events[s].actor for s in heard}
        assert {a: sorted(m) for a, m in mine.items() if a in PARTY} == {
            a: sorted(m) for a, m in planned.items() if a in PARTY}
        assert all(a in PARTY or a in heard_from for a in mine), sorted(mine)
        assert all(m[2] for a, ms in mine.items() if a not in PARTY for m in ms)  # never where a foe's lands
        # filled in as it resolves: played to the window's end, each planned mark of the window has its event there
        for _ in range(300):
            if table.over or _on(served, lambda: referee_view(table, 0)).board.window != ref_start.window:
                break
            q = table.pending
            said = SAYS.get(q.actor, KOBOLDS) if isinstance(q, DeclareQuestion) else "step"
            if _on(served, lambda said=said: table.command(said)) not in ("", "done") and said != "step":
                _on(served, lambda: table.command("none"))  # no longer possible (its target down): nothing
        events = table.session.fight.events
        out = {e.actor for e in events if e.kind in ("down", "leave", "surrender")}
        after = _board_of(served, ref_start.window)
        happened = {(m.lane, m.kind, after.columns[m.column].key) for m in after.marks if not m.placed}
        declared_at = {m.lane: ref_start.columns[m.column].key for m in ref_start.marks if m.kind == "declare"}
        for actor, marks in planned.items():
            for kind, key, _waiting, title in marks:
                if key == LATER or actor in out:  # placed beyond this window, or its combatant fell first
                    continue
                again = any(h[0] == actor and h[1] == "declare" and declared_at.get(actor, key) < h[2] <= key
                            for h in happened)  # it changed its mind first (an abort, a new declaration: PC-09)
                assert again or any((actor, k, key) in happened for k in (kind, *SETTLED)), (title, sorted(
                    h for h in happened if h[0] == actor))


def _board_of(served: Served, window: int) -> Board:
    board: Board = _on(served, lambda: fight_board(served.table.session.fight, window))
    return board
