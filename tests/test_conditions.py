"""Conditions and spell effects (CONTRACT.md "Conditions and spell effects"; RULES.md G-08, G-09), under every ruleset.

Mina (wizard 5) casts sleep (level 1, CT 1, asleep for 5 rounds, at most 4 HD) at the goblins: Gob (1 HD) falls
asleep, the ogre (5 HD) is above 4 HD and unaffected. Each ruleset counts the 5 rounds on its own clock (G-08),
worked out below from its seed; while asleep the goblin declares nothing (its plan waits), and when the time is up
an ``expire`` event ends it and it declares again. Every die is pinned.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from affray import load_encounter, load_text, prepare
from affray.drive import End
from affray.engine.events import CastStart, Condition, Event, Expire
from side_d6_helpers import events, one, run_pinned

SLEEP = {"name": "sleep", "level": 1, "ct": 1, "components": "VSM",
         "effect": {"condition": "asleep", "duration": "5 rounds", "max_hd": 4}}


def sleep_fight(ruleset: str, **extra: Any) -> dict[str, Any]:
    """The party (Mina, Brom) against the goblins (Gob 1 HD 7 hp, Ogre 5 HD); initiative pinned for every round
    (party wins; phase-count rolls once, PC-06), nobody surprised. Mina casts sleep first; Gob's plan is a blow at
    Brom then one at Mina (misses; in phase-count each with its d6 pinned at 4, PC-02)."""
    roll4 = {"roll": 4} if ruleset == "phase-count" else {}
    doc: dict[str, Any] = {
        "seed": 1, "surprise": "none",
        "sides": {
            "party": {"pc": True, "combatants": [
                {"name": "Mina", "class": "wizard", "level": 5, "hp": 13, "spells": [SLEEP]},
                {"name": "Brom", "class": "fighter", "level": 1, "hp": 10, "ac": 5,
                 "weapons": [{"name": "sword", "sf": 5, "damage": "1d8"}]}]},
            "goblins": {"combatants": [
                {"name": "Gob", "hd": 1, "hp": 7, "weapons": [{"name": "club", "sf": 4, "damage": "1d6"}]},
                {"name": "Ogre", "hd": 5, "hp": 30, "weapons": [{"name": "club", "sf": 4, "damage": "1d6"}]}]}},
        "rolls": {"initiative": {r: {"party": 2 if ruleset in ("combat2-phase1", "combat2-phase2", "d12-procedure")
                                     else 6, "goblins": 9 if ruleset.startswith("combat2") else
                                     (11 if ruleset == "d12-procedure" else 1)}
                              for r in ([1] if ruleset == "phase-count" else range(1, 9))}},
        "plan": {"Mina": [{"cast": "sleep", "at": "goblins", **({"roll": 1} if ruleset == "phase-count" else {})}],
                 "Gob": [{"melee": "Brom", "outcome": {"hit": False}, **roll4},
                         {"melee": "Mina", "outcome": {"hit": False}, **roll4}]},
    }
    doc.update(extra)
    return run_pinned(json.dumps(doc), ruleset, max_rounds=7)


# (ruleset, the tick the sleep ends at, the ruleset's words for it) -- worked out by hand:
# - side-d6, speed-segments, d12-procedure: a round a declaration point; cast in round 1, "5 rounds" end as round 6
#   begins (G-08; D12-21: "duration in rounds runs from the round it takes effect").
# - combat2-phase1 / -phase2: P2-05 "three phases shall be considered the equivalent of a round": cast in phase 1
#   (period 1), 5 rounds = 15 phases, it ends with phase 1 + 15 = 16 = phase 1 of round (cycle) 6, after its
#   movement and combat (slot 8).
# - phase-count: Mina's first action is at phase 0 + the party's opening d6... pinned by her declaration's roll 1
#   (PC-02) + PM 2 (sleep CT 1: fast, PC-03) = phase 3; 5 rounds = 25 phases (PC-12, tactical): phase 28.
ENDS = [
    ("side-d6", [6], "round 6, start"),
    ("speed-segments", [6], "round 6, start"),
    ("d12-procedure", [6], "round 6, start"),
    ("combat2-phase1", [6, 1, 8, 1], "round 6, phase 1, end of the phase"),
    ("combat2-phase2", [6, 1, 8, 1], "cycle 6, phase A, end of the phase"),
    ("phase-count", [28, 0, 0], "phase 28"),
]


@pytest.mark.parametrize(("ruleset", "end", "words"), ENDS)
def test_g_09_sleep_takes_the_goblin_for_five_rounds_on_the_rulesets_clock(ruleset: str, end: list[int],
                                                                          words: str) -> None:
    doc = sleep_fight(ruleset)
    cast = one(doc, "cast", "Mina")
    # SEG-10: "All spell effects are applied at end of the segment casting finished": under speed-segments the
    # effect lands then (an ``effect`` event), elsewhere with the cast
    lands = one(doc, "effect", "Mina") if ruleset == "speed-segments" else cast
    if ruleset == "speed-segments":
        assert lands["tick"][:3] == [*cast["tick"][:2], 99] and "detail" not in cast
    assert "Gob asleep" in lands["detail"] and "Ogre (5 HD) above 4 HD: unaffected" in lands["detail"]
    asleep = one(doc, "condition", "Mina")
    assert (asleep["target"], asleep["condition"], asleep["spell"]) == ("Gob", "asleep", "sleep")
    assert (asleep["end"], asleep["until"]) == (end, words)
    assert asleep["tick"] == lands["tick"]
    assert not [e for e in events(doc, "condition") if e["target"] == "Ogre"]
    ends = [e for e in events(doc, "expire") if e.get("condition") == "asleep"]
    assert len(ends) == 1 and (ends[0]["target"], ends[0]["tick"], ends[0]["at"]) == ("Gob", end, words)
    # asleep, its declarations wait: no declaration of Gob's between the cast and the expiry, then its plan goes on
    between = [e for e in events(doc, "declare", "Gob") if cast["tick"] < e["tick"] < end]
    assert between == []
    waits = [e for e in events(doc, "delay", "Gob") if cast["tick"] < e["tick"] < end]
    assert waits and all(f"Gob is asleep until {words}: no action (G-09)" == e["why"] for e in waits)
    after = [e for e in events(doc, "declare", "Gob") if e["seq"] > ends[0]["seq"]]
    # Gob declared its blow at Brom before the sleep took it (declarations come first, or the losers' first in
    # Combat II) except in d12-procedure, where it declares at its own count (11), after the cast (count 3, D12-04)
    target = "Brom" if ruleset == "d12-procedure" else "Mina"
    assert after and after[0]["declaration"]["melee"] == target


def test_g_09_an_attack_on_a_sleeping_target_hits_automatically() -> None:
    """2e PH Table 51: "sleeping or held: automatic". side-d6, round 2: Brom strikes the sleeping goblin; no d20 is
    rolled: the sword's 1d8 (pinned 5) takes Gob from 7 to 2."""
    doc = sleep_fight("side-d6", plan={"Mina": [{"cast": "sleep", "at": "goblins"}],
                                       "Brom": [{"none": True}, {"melee": "Gob", "dice": {"damage": 5}}]})
    blow = one(doc, "melee", "Brom")
    assert (blow["round"], blow["hit"], blow["damage"]) == (2, True, 5)
    assert blow["detail"].startswith("Gob is asleep: an automatic hit (G-09; 2e PH Table 51: sleeping, automatic hit)")
    assert [d["purpose"] for d in blow["dice"]] == ["damage"]
    assert doc["combatants"]["Gob"]["hp"] == 2


def test_g_09_a_saving_throw_spares_its_target() -> None:
    """With ``save: true`` each target saves against spells: Gob (1 HD, a monster saves as a 1st-level warrior:
    2e PH Table 60, 17) rolls d20 17 >= 17 and stays awake; the ogre is above 4 HD regardless."""
    spell = dict(SLEEP, effect={"condition": "asleep", "duration": "5 rounds", "max_hd": 4, "save": True})
    doc = sleep_fight("side-d6", plan={"Mina": [{"cast": "sleep", "at": "goblins", "dice": [{"save": 17}]}]},
                      sides={"party": {"pc": True, "combatants": [{"name": "Mina", "class": "wizard", "level": 5,
                                                                    "hp": 13, "spells": [spell]}]},
                             "goblins": {"combatants": [{"name": "Gob", "hd": 1, "hp": 7},
                                                        {"name": "Ogre", "hd": 5, "hp": 30}]}})
    cast = one(doc, "cast", "Mina")
    assert "Gob saves (d20 17 >= 17, 2e PH Table 60)" in cast["detail"]
    assert [(d["purpose"], d["actor"], d["value"]) for d in cast["dice"]] == [("save", "Gob", 17)]
    assert events(doc, "condition") == []


def test_g_11_a_caster_put_to_sleep_loses_its_spell() -> None:
    """A goblin shaman begins a spell (CT 3 in side-d6's spell step, MJ-05) and Mina's sleep, cast in the party's
    own spell step first (the party won), takes it mid-casting: asleep, it cannot finish: spell-ruined (G-11)."""
    shaman = {"name": "Gob", "hd": 1, "hp": 7, "class": "monster",
              "spells": [{"name": "curse", "level": 1, "ct": 3, "components": "VS"}]}
    doc = sleep_fight("side-d6", sides={
        "party": {"pc": True, "combatants": [{"name": "Mina", "class": "wizard", "level": 5, "hp": 13,
                                              "spells": [SLEEP]}]},
        "goblins": {"combatants": [shaman]}}, plan={"Mina": [{"cast": "sleep", "at": "goblins"}],
                                                    "Gob": [{"cast": "curse", "at": "Mina"}]})
    ruined = one(doc, "spell-ruined", "Gob")
    assert ruined["spell"] == "curse" and "Gob is asleep while casting curse" in ruined["why"]
    assert events(doc, "cast", "Gob") == []


SKIRMISH = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "skirmish.yaml"


def test_a_condition_set_and_ended_by_the_referees_hand() -> None:
    """``condition Orc 1 held 2 rounds`` before the first event (side-d6): held from the start, to the start of round
    3 (G-08, round 1 + 2); ``end Orc 1 held`` at once: an expire event, the orc free again."""
    drive = prepare(load_encounter(SKIRMISH), ruleset="side-d6", seed=7).drive(auto=True, max_rounds=1)
    assert drive.command("condition Orc 1 held 2 rounds") is None
    held = drive.pull()
    assert isinstance(held, Condition)
    assert (held.actor, held.target, held.condition, held.until, held.rule) == (
        None, "Orc 1", "held", "round 3, start", "G-09")
    assert drive.fight.state.fighters["Orc 1"].conditions["held"].until == (3,)
    assert "not a condition" in (drive.command("condition Orc 2 bored") or "")
    assert "holds no condition 'asleep'" in (drive.command("end Orc 1 asleep") or "")
    assert drive.command("end Orc 1 held") is None
    ended = drive.pull()
    assert isinstance(ended, Expire) and (ended.target, ended.condition) == ("Orc 1", "held")
    assert "held" not in drive.fight.state.fighters["Orc 1"].conditions
    while not isinstance(drive.pull(), End):
        pass


# ``condition Brom held 1 round`` before the first event (Brom, 48 hp, outlives a round of hits by three orcs),
# left to run out on each ruleset's clock (G-08):
# - side-d6, speed-segments, d12-procedure: round 1 + 1: it ends as round 2 begins;
# - combat2-phase1/-phase2: P2-05, a round is 3 phases; the fight begins in phase 1, which counts: 1 + 3 = phase 4,
#   phase 1 of round (cycle) 2, at its end (slot 8);
# - phase-count: PC-12, a round is 5 phases from phase 0: phase 5.
HELD = [
    ("side-d6", (2,)), ("speed-segments", (2,)), ("d12-procedure", (2,)),
    ("combat2-phase1", (2, 1, 8, 1)), ("combat2-phase2", (2, 1, 8, 1)), ("phase-count", (5, 0, 0)),
]


@pytest.mark.parametrize(("ruleset", "end"), HELD)
def test_a_condition_by_hand_runs_out_on_the_rulesets_clock(ruleset: str, end: tuple[int, ...]) -> None:
    drive = prepare(load_encounter(SKIRMISH), ruleset=ruleset, seed=7).drive(auto=True, max_rounds=3)
    assert drive.command("condition Brom held 1 round") is None
    made: list[Event] = []
    while not isinstance(e := drive.pull(), End):
        assert isinstance(e, Event)  # auto: no question, and no pause asked for
        made.append(e)
    expired = [e for e in made if isinstance(e, Expire) and e.target == "Brom"]
    assert len(expired) == 1 and expired[0].tick == end
    # held, Brom does nothing before the end: no declaration and no action of his own (G-09); then he acts again
    held = made[:made.index(expired[0])]
    assert {e.kind for e in held if e.actor == "Brom"} <= {"delay", "impossible"}
    assert any(e.kind == "melee" and e.actor == "Brom" for e in made[made.index(expired[0]):])


def test_damage_by_hand_disrupts_a_caster_as_a_blow_would() -> None:
    """Combat II (C2-13): a caster damaged while casting loses the spell. Mina begins magic missile at the start of
    phase 1 (CT 1; the party loses initiative, so it completes on half-segment 2, P1-05); the referee deals her 2
    damage right after her cast-start: spell-ruined, as a blow would."""
    text = SKIRMISH.read_text() + "\nrolls: {initiative: {1: {party: 9, orcs: 2}}}\n"
    drive = prepare(load_text(text), ruleset="combat2-phase1", seed=7).drive(auto=True)
    while not isinstance(e := drive.pull(), CastStart):
        pass
    assert e.actor == "Mina"
    assert drive.command("damage Mina 2") is None
    made = drive.take_events()
    assert [x.kind for x in made] == ["damage", "spell-ruined"]
    assert "Mina took 2 damage (the referee's hand) while casting magic missile" in (made[1].why or "")


def test_a_condition_by_hand_that_stops_a_caster_ruins_its_spell() -> None:
    """G-09 + G-11: held, a caster cannot go on casting. The same moment as above (Mina has begun magic
    missile, CT 1, on the losing track: it would complete on half-segment 2, P1-05); the referee holds her for
    2 rounds: a condition event, then spell-ruined. Dazed (-2 to hit, +1 AC, C2X-03) does not stop her acting:
    her spell goes on."""
    text = SKIRMISH.read_text() + "\nrolls: {initiative: {1: {party: 9, orcs: 2}}}\n"
    for condition, kinds in (("held", ["condition", "spell-ruined"]), ("dazed", ["condition"])):
        drive = prepare(load_text(text), ruleset="combat2-phase1", seed=7).drive(auto=True)
        while not isinstance(drive.pull(), CastStart):
            pass
        assert drive.command(f"condition Mina {condition} 2 rounds") is None
        made = drive.take_events()
        assert [x.kind for x in made] == kinds
        if condition == "held":
            assert made[1].why == "Mina is held while casting magic missile: the spell is lost for this casting (G-11)"
