"""phase-count (seed 003), the third round of checks (issue 26): fatigue only for an action completed (PC-11), and
what a combatant asked for its next action knows (the Decision ``known``). Every die is pinned.
"""

from __future__ import annotations

import json
from typing import Any

from affray import load_text, prepare, timeline_dict
from affray.drive import ROLL, DeclareQuestion, DieQuestion, End

SWORD = {"name": "long sword", "sf": 5, "damage": "1d8"}
SPEAR = {"name": "spear", "sf": 6, "damage": "1d6"}
AXE = {"name": "axe", "sf": 7, "damage": "1d8"}


def encounter(plan: dict[str, Any]) -> str:
    """Brom and Sela (level-1 fighters, THAC0 20) against two orcs (THAC0 19, AC 6); Orc 1 has 1 hp. The opening
    d6s (PC-06): party 1, orcs 6."""
    return json.dumps({
        "ruleset": "phase-count", "seed": 1, "surprise": "none", "rolls": {"initiative": {0: {"party": 1, "orcs": 6}}},
        "sides": {"party": {"pc": True, "combatants": [
            {"name": "Brom", "class": "fighter", "level": 1, "hp": 10, "ac": 5, "weapons": [SWORD]},
            {"name": "Sela", "class": "fighter", "level": 1, "hp": 10, "ac": 5, "weapons": [SPEAR]}]},
                  "orcs": {"combatants": [{"name": "Orc 1", "hd": 1, "hp": 1, "ac": 6, "weapons": [AXE]},
                                          {"name": "Orc 2", "hd": 1, "hp": 8, "ac": 6, "weapons": [AXE]}]}},
        "plan": plan})


def test_pc_11_no_fatigue_for_an_action_never_completed() -> None:
    """PC-11: "Whenever a character has completed an action, you mark of fatigue". Sela strikes Orc 1 at phase 0 +
    the party's opening d6 1 + PM 3 (spear SF 6: 5-7 -> 3, PC-03) = 4: d20 20 hits, 5 damage, Orc 1 (1 hp) falls; her
    action completed: fatigue 1. Brom's blow at Orc 1 comes at 0 + his own roll 2 + PM 3 (SF 5) = 5: its target is
    down, the action ends without happening (G-05): no fatigue. His next action, nothing, at 5 + 1 + 3 (average,
    PC-03) = 9 completes: his fatigue is 1, not 2."""
    plan = {"Sela": [{"melee": "Orc 1", "dice": {"attack": 20, "damage": 5}}],
            "Brom": [{"melee": "Orc 1", "roll": 2}, {"none": True, "roll": 1}],
            "Orc 2": [{"wait": True, "until": 20}]}
    doc = timeline_dict(prepare(load_text(encounter(plan))).fight(max_rounds=2).run())
    fatigue = [(e["actor"], e["tick"][0], e["actions"]) for e in doc["events"] if e["kind"] == "fatigue"]
    assert fatigue == [("Sela", 4, 1), ("Brom", 9, 1)]
    assert [e["tick"][0] for e in doc["events"] if e["kind"] == "impossible" and e["actor"] == "Brom"] == [5]


def test_pc_02_known_holds_the_actions_the_others_declared_and_have_not_completed() -> None:
    """Decision (option ``known``, default ``said``): asked for its next action, a combatant knows the actions the
    others have declared and not yet completed, as said (no outcome or dice). At phase 4 Sela's blow has felled Orc 1
    and she is asked again: Brom's blow (due at phase 5) is under way, Orc 2's guard until phase 20 too (Orc 1's is
    over: it is down); the dice pinned on Brom's declaration are not heard."""
    plan = {"Sela": [{"melee": "Orc 1", "dice": {"attack": 20, "damage": 5}}],
            "Brom": [{"melee": "Orc 2", "roll": 2, "dice": {"attack": 1}}],
            "Orc 1": [{"wait": True, "until": 20}], "Orc 2": [{"wait": True, "until": 20}]}
    drive = prepare(load_text(encounter(plan))).drive(max_rounds=1)
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DieQuestion):
            assert drive.answer(ROLL) is None
        elif isinstance(item, DeclareQuestion):
            assert (item.actor, item.tick[0]) == ("Sela", 4)
            assert [(name, d.model_dump(exclude_defaults=True, exclude_none=True)) for name, d in item.known] == [
                ("Brom", {"melee": "Orc 2"}), ("Orc 2", {"wait": True, "until": 20})]
            assert drive.answer({"none": True}) is None
            break
    none = prepare(load_text(encounter(plan)), options={"known": "none"}).drive(max_rounds=1)
    while not isinstance(item := none.pull(), End):
        if isinstance(item, DieQuestion):
            assert none.answer(ROLL) is None
        elif isinstance(item, DeclareQuestion):
            assert item.known == ()
            break
