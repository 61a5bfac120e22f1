"""A fighter's engagements and conditions: one shared empty set and one shared empty dict until the fold
(``FightState.apply``) gives the fighter its own (engine/state.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from affray.engine.events import Condition, Down, Expire, Melee
from affray.engine.state import NO_CONDITIONS, NOBODY, FightState, Held
from affray.io.load import load_text

FILE = """
ruleset: side-d6
sides:
  heroes:
    pc: true
    combatants:
      - {name: Ash, class: fighter, level: 1, hp: 10, ac: 5, weapons: [{name: sword, damage: 1d8}]}
      - {name: Bea, class: fighter, level: 1, hp: 10, ac: 5, weapons: [{name: sword, damage: 1d8}]}
  orcs:
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 6, ac: 6, weapons: [{name: axe, damage: 1d8}]}
"""
TICK = (1, 0)


def test_engagements_and_conditions_are_the_shared_empties_until_a_fighter_has_its_own() -> None:
    state = FightState(load_text(FILE, "four.yaml").encounter, "2e")
    f = state.fighters
    assert all(g.engaged is NOBODY and g.conditions is NO_CONDITIONS for g in f.values())
    # a blow engages both (G-04): each gets a set of its own; the others keep the shared one
    state.apply(Melee(TICK, "", 1, actor="Ash", target="Orc 1", hit=True, damage=1))
    assert f["Ash"].engaged == {"Orc 1"} and f["Orc 1"].engaged == {"Ash"}
    assert f["Bea"].engaged is NOBODY and f["Orc 2"].engaged is NOBODY
    state.apply(Melee(TICK, "", 1, actor="Bea", target="Orc 1", hit=False))
    assert f["Orc 1"].engaged == {"Ash", "Bea"}
    # a condition (G-09) gives its bearer a dict of its own; the last one lifted gives the shared one back
    state.apply(Condition(TICK, "", 1, target="Orc 2", condition="prone", end=(3, 0)))
    state.apply(Condition(TICK, "", 1, target="Orc 2", condition="stunned", end=(2, 0)))
    assert set(f["Orc 2"].conditions) == {"prone", "stunned"} and f["Ash"].conditions is NO_CONDITIONS
    state.apply(Expire((2, 0), "", 1, target="Orc 2", condition="stunned"))
    assert set(f["Orc 2"].conditions) == {"prone"}
    state.apply(Condition((2, 0), "", 1, target="Orc 2", condition="prone", end=None))  # lifted by hand
    assert f["Orc 2"].conditions is NO_CONDITIONS
    # Orc 1 falls: nobody is engaged with it any more; who was keeps its own set, empty, for its next foe
    state.apply(Down(TICK, "", 1, actor="Orc 1"))
    assert all(not g.engaged for g in f.values())
    assert f["Bea"].engaged is not NOBODY and f["Orc 2"].engaged is NOBODY
    assert not NOBODY and len(NO_CONDITIONS) == 0  # nothing of theirs leaked into the shared ones


HELD = Held((1, 0), (2, 0))
FILLS: list[Callable[[dict[str, Held]], Any]] = [
    lambda d: d.__setitem__("prone", HELD),
    lambda d: d.update(prone=HELD),
    lambda d: d.setdefault("prone", HELD),
    lambda d: d.__ior__({"prone": HELD}),
    lambda d: d.pop("prone", None),
    lambda d: d.popitem(),
    lambda d: d.clear(),
    lambda d: d.__delitem__("prone"),
]


@pytest.mark.parametrize("fill", FILLS)
def test_the_shared_empty_conditions_cannot_be_changed(fill: Callable[[dict[str, Held]], Any]) -> None:
    """Any change but the fold's would be every fighter's: refused, whatever the build."""
    with pytest.raises(TypeError, match=r"only through FightState\.apply"):
        fill(NO_CONDITIONS)
    assert len(NO_CONDITIONS) == 0
