"""The steps to come (engine/fight.py ``push``, ``upcoming``): earliest tick first, and at one tick in the order
they were pushed, whatever order the ticks came in (G-03: a moment's steps resolve together, in order)."""

from __future__ import annotations

from affray import load_text, prepare
from affray.engine.step import Step

FILE = """\
ruleset: side-d6
seed: 3
sides:
  fighters:
    combatants:
      - {name: Fighter, count: 2, class: fighter, level: 1, thac0: 19, hp: 8, ac: 5,
         weapons: [{name: long sword, sf: 5, damage: 1d8}]}
  orcs:
    combatants:
      - {name: Orc, count: 1, hd: 1, thac0: 19, hp: 5, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def test_steps_come_by_tick_then_in_the_order_pushed() -> None:
    prepared = prepare(load_text(FILE, "queue.yaml"))
    fight = prepared.fight(auto=True, explain=False, keep=False)
    f1, f2, orc = fight.state.fighters.values()
    # pushed: (1, 5) a, (1, 2) b, (1, 5) c, (2, 1) d, (1, 2) e, (1, 5, 1) f
    pushed = [((1, 5), f1, "a"), ((1, 2), f2, "b"), ((1, 5), orc, "c"), ((2, 1), f1, "d"), ((1, 2), orc, "e"),
              ((1, 5, 1), f2, "f")]
    for tick, actor, note in pushed:
        fight.push(Step(tick, actor, "misc", f"at {tick}", "", note=note))
    # ticks in order (1, 2) < (1, 5) < (1, 5, 1) < (2, 1) (tuples compare item by item, the shorter first on a tie);
    # within (1, 2): b then e; within (1, 5): a then c
    assert [s.note for s in fight.upcoming(None)] == ["b", "e", "a", "c", "f", "d"]
    assert [s.note for s in fight.upcoming(3)] == ["b", "e", "a"]
    # a cancelled step is not shown as coming
    fight.upcoming(None)[0].cancelled = True
    assert [s.note for s in fight.upcoming(2)] == ["e", "a"]
