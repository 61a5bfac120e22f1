"""side-d6 (seed 001) and speed-segments (seed 002), the third round of checks (issue 26): what a monster hears of a
PC's declaration, a held target hit automatically though a d20 is given, a rowan shield turning an effect without
damage (MJ-19), and a spell's condition landing with its damage at the end of the segment (SEG-10). Every die is
pinned; the arithmetic is in each docstring.
"""

from __future__ import annotations

import json
from typing import Any

from affray import load_text, prepare, timeline_dict
from affray.drive import ROLL, DeclareQuestion, DieQuestion, End

SWORD = {"name": "sword", "sf": 5, "damage": "1d8"}
AXE = {"name": "axe", "sf": 7, "damage": "1d8"}
KNIFE = {"name": "knife", "sf": 1, "damage": "1d4"}
SLEEP = {"name": "sleep", "level": 1, "ct": 1, "components": "VS", "count": 2,
         "effect": {"condition": "asleep", "duration": "5 rounds", "max_hd": 4}}
HOLD = {"name": "hold person", "level": 2, "ct": 1, "components": "VS",
        "effect": {"condition": "held", "duration": "2 rounds"}}


def encounter(ruleset: str, orc: dict[str, Any], plan: dict[str, Any], rounds: int = 2,
              options: dict[str, Any] | None = None) -> str:
    """Brom (a level-1 fighter, THAC0 20) and Mina (a level-1 wizard) against one orc (1 HD, THAC0 19, AC 6, 20 hp);
    the party wins every initiative, 5 against 4."""
    return json.dumps({
        "ruleset": ruleset, "seed": 2, "surprise": "none", "options": options or {},
        "rolls": {"initiative": {r: {"party": 5, "orcs": 4} for r in range(1, rounds + 1)}},
        "sides": {"party": {"pc": True, "combatants": [
            {"name": "Brom", "class": "fighter", "level": 1, "hp": 10, "ac": 5, "weapons": [SWORD]},
            {"name": "Mina", "class": "wizard", "level": 1, "hp": 10, "ac": 10, "spells": [SLEEP, HOLD]}]},
                  "orcs": {"combatants": [{"name": "Orc", "hd": 1, "hp": 20, "ac": 6, "weapons": [AXE], **orc}]}},
        "plan": plan})


def run(text: str, rounds: int = 2) -> dict[str, Any]:
    return timeline_dict(prepare(load_text(text)).fight(max_rounds=rounds).run())


def test_mj_03_the_monsters_hear_what_a_pc_declared_not_the_referees_outcome() -> None:
    """MJ-03: the PCs declare, then the monsters, who hear them. Brom's declaration carries the referee's outcome
    (hit, 9 damage) for the blow to come: the orc, asked next, hears "melee Orc" and nothing of the outcome."""
    plan = {"Brom": [{"melee": "Orc", "outcome": {"hit": True, "damage": 9}}], "Mina": [{"none": True}]}
    drive = prepare(load_text(encounter("side-d6", {}, plan))).drive(max_rounds=1)
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DieQuestion):
            assert drive.answer(ROLL) is None
        elif isinstance(item, DeclareQuestion):
            assert item.actor == "Orc"
            heard = {name: d.model_dump(exclude_none=True, exclude_defaults=True) for name, d in item.known}
            assert heard == {"Brom": {"melee": "Orc"}, "Mina": {"none": True}}
            assert "outcome" not in json.dumps(item.to_json())
            return
    raise AssertionError("the orc was never asked")


def test_g_09_a_held_target_is_hit_automatically_even_with_a_d20_given() -> None:
    """G-09 (2e PH Table 51: held, an automatic hit). Step 6 (MJ-05) Mina's hold person takes effect on the orc
    (no save written); step 7 Brom's blow, with the table's dice d20 1 and 1d8 6: against a held orc the d20 is not
    needed (a natural 1 would have missed), the blow hits for 6: the orc 20 -> 14."""
    plan = {"Brom": [{"melee": "Orc", "dice": {"attack": 1, "damage": 6}}],
            "Mina": [{"cast": "hold person", "at": "Orc"}], "Orc": [{"none": True}]}
    doc = run(encounter("side-d6", {}, plan), rounds=1)
    (blow,) = [e for e in doc["events"] if e["kind"] == "melee"]
    assert (blow["hit"], blow["damage"]) == (True, 6)
    assert "automatic hit" in blow["detail"]
    assert [(d["purpose"], d["value"], d["source"]) for d in blow["dice"]] == [("damage", 6, "file")]
    assert doc["combatants"]["Orc"]["hp"] == 14


def test_mj_19_a_rowan_shield_turns_an_effect_that_deals_no_damage() -> None:
    """MJ-19: a rowan-heartwood shield "can be given up to avoid one magic effect, even one that deals no damage or
    one that offers no Save". Round 1 Mina's sleep (no damage, no save) would leave the orc asleep; with option
    ``shield_splinter`` lethal (the default) it gives its rowan shield up against an effect that would leave it
    unable to act, no better than dropped: the cast names the shield spent, no condition follows. Round 2 her
    second sleep finds no shield: the orc sleeps."""
    plan = {"Brom": [{"none": True}] * 2, "Mina": [{"cast": "sleep", "at": "Orc"}] * 2, "Orc": [{"none": True}]}
    doc = run(encounter("side-d6", {"shield": "rowan"}, plan))
    casts = [e for e in doc["events"] if e["kind"] == "cast"]
    assert [c.get("splinter", []) for c in casts] == [["Orc"], []]
    assert "rowan shield turns the magic: not asleep (MJ-19)" in casts[0]["detail"]
    assert [(e["round"], e["condition"]) for e in doc["events"] if e["kind"] == "condition"] == [(2, "asleep")]


def test_mj_19_never_giving_the_shield_up_leaves_the_effect_be() -> None:
    """The same with ``shield_splinter: never``: the orc keeps its shield and sleeps in round 1."""
    plan = {"Brom": [{"none": True}], "Mina": [{"cast": "sleep", "at": "Orc"}], "Orc": [{"none": True}]}
    doc = run(encounter("side-d6", {"shield": "rowan"}, plan, options={"shield_splinter": "never"}), rounds=1)
    assert [(e["round"], e["condition"]) for e in doc["events"] if e["kind"] == "condition"] == [(1, "asleep")]


def test_seg_10_a_spells_condition_lands_at_the_end_of_the_segment() -> None:
    """SEG-10: "All spell effects are applied at end of the segment casting finished". Sleep (Spd 1) finishes in
    segment 1 of the party's turn (won initiative 5 to 4: the orcs lose by 1 pip, +floor(1/2) = 0, SEG-06); the
    orc's knife (Spd 1) strikes in segment 1 of its own turn, after the party's but before the segment ends, so it
    still strikes (d20 20: a hit, 1d4 3); then, at the end of segment 1, the orc falls asleep."""
    orc = {"weapons": [KNIFE]}
    plan = {"Brom": [{"none": True}], "Mina": [{"cast": "sleep", "at": "Orc"}],
            "Orc": [{"melee": "Brom", "dice": {"attack": 20, "damage": 3}}]}
    doc = run(encounter("speed-segments", orc, plan), rounds=1)
    blow = next(e for e in doc["events"] if e["kind"] == "melee")
    sleep = next(e for e in doc["events"] if e["kind"] == "condition")
    assert blow["actor"] == "Orc" and blow["tick"][:4] == [1, 1, 2, 4] and blow["hit"]
    assert sleep["target"] == "Orc" and sleep["tick"][:3] == [1, 1, 99] and sleep["seq"] > blow["seq"]
    assert doc["combatants"]["Brom"]["hp"] == 7


def test_seg_03_a_surprised_party_declares_once_the_count_has_begun_or_once_the_others_acted() -> None:
    """SEG-03: "If one side is surprised, it makes no declarations until after the unsurprised have declared
    intentions and begun acting". The orcs are surprised (the referee rules it: +1 to their action speed); the
    party alone rolls no initiative. Brom's sword (Spd 5) strikes in segment 5. Decision (option
    ``surprised_declare``): by default the orcs declare once the count has begun, at segment 1, and the orc's knife
    strikes at Spd 1 + 1 = segment 2; with ``acted`` they declare at the end of segment 5, the first in which the
    party acted, and the knife's 2 comes no earlier than segment 6."""
    plan = {"Brom": [{"melee": "Orc", "dice": {"attack": 1}}], "Mina": [{"none": True}],
            "Orc": [{"melee": "Brom", "dice": {"attack": 1}}]}
    for option, declared, strikes in (("count", [1, 1, 0], 2), ("acted", [1, 5, 99], 6)):
        data = json.loads(encounter("speed-segments", {"weapons": [KNIFE]}, plan, rounds=1,
                                    options={"surprised_declare": option}))
        data["surprise"] = {"orcs": True}
        doc = run(json.dumps(data), rounds=1)
        (said,) = [e for e in doc["events"] if e["kind"] == "declare" and e["actor"] == "Orc"]
        (blow,) = [e for e in doc["events"] if e["kind"] == "melee" and e["actor"] == "Orc"]
        assert said["tick"][:3] == declared and blow["tick"][1] == strikes, option
        brom = next(e for e in doc["events"] if e["kind"] == "melee" and e["actor"] == "Brom")
        assert brom["tick"][1] == 5
