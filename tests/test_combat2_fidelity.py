"""Combat II (seed 000), the third round of checks (issue 26), each from the seed's sentence: a defenseless target
may be attacked each phase (C2-08), a critical 10's free attack next phase (C2X-03), a ready state that may be
maintained (C2-21), a defender that has already attacked cannot answer a charge (C2-20), a held spell at exactly
CT 10 (C2-14), Phase System II durations in segments (P2-05, Table 4), and a fleer's free attack given in the file
(C2-18, G-06).

Every fight: the party's d10 2 against the orcs' 9 each round, so every party member is on the winner track and
every orc on the loser track (P1-01, P1-02: DEX 10 adjusts nothing). Brom: a level-1 fighter, THAC0 20, one
attack a round (2e), a long sword SF 5: band 4-6, half-segment 3 of each phase as a winner (P1-04).
"""

from __future__ import annotations

import json
from typing import Any

from affray import load_text, prepare, timeline_dict
from affray.drive import ROLL, DeclareQuestion, DieQuestion, End

SWORD = {"name": "long sword", "sf": 5, "damage": "1d8"}
AXE = {"name": "axe", "sf": 7, "damage": "1d8"}
NONE = {"none": True}


def encounter(party: list[dict[str, Any]], orcs: list[dict[str, Any]], plan: dict[str, Any], *,
              ruleset: str = "combat2-phase1", rounds: int = 2, options: dict[str, Any] | None = None) -> str:
    return json.dumps({"ruleset": ruleset, "seed": 4, "surprise": "none", "options": options or {},
                       "rolls": {"initiative": {r: {"party": 2, "orcs": 9} for r in range(1, rounds + 1)}},
                       "sides": {"party": {"pc": True, "combatants": party}, "orcs": {"combatants": orcs}},
                       "plan": plan})


def brom(name: str = "Brom", **kw: Any) -> dict[str, Any]:
    return {"name": name, "class": "fighter", "level": 1, "hp": 30, "ac": 5, "weapons": [SWORD], **kw}


def orc(name: str = "Orc", **kw: Any) -> dict[str, Any]:
    """1 HD, THAC0 19, AC 6 (Brom needs 20 - 6 = 14), an axe SF 7 (band 7-9: loser half-segment 5)."""
    return {"name": name, "hd": 1, "hp": 40, "ac": 6, "weapons": [AXE], **kw}


def mina(*spells: dict[str, Any]) -> dict[str, Any]:
    return {"name": "Mina", "class": "wizard", "level": 5, "hp": 12, "ac": 10, "spells": list(spells)}


def run(text: str, rounds: int = 1) -> dict[str, Any]:
    return timeline_dict(prepare(load_text(text)).fight(max_rounds=rounds).run())


def kinds(doc: dict[str, Any], kind: str, actor: str) -> list[dict[str, Any]]:
    return [e for e in doc["events"] if e["kind"] == kind and e["actor"] == actor]


def test_c2_08_a_sleeping_target_may_be_attacked_each_phase() -> None:
    """C2-08: "A defenseless target unable to move out of the way of a blow ... may be attacked each phase". Mina's
    sleep (CT 1, winner: half-segment 1, P1-05) puts the orc to sleep in phase 1 before Brom's blow at half-segment
    3: an automatic hit (G-09), 1d8 pinned 2. Asleep, it stays defenseless: Brom, with one attack a round, strikes it
    again in phases 2 and 3 (half-segments 9 and 15), pinned 3 and 4: 40 - 2 - 3 - 4 = 31 hp."""
    sleep = {"name": "sleep", "level": 1, "ct": 1, "components": "VS",
             "effect": {"condition": "asleep", "duration": "5 rounds", "max_hd": 4}}
    plan = {"Brom": [{"melee": "Orc", "dice": {"damage": n}} for n in (2, 3, 4)],
            "Mina": [{"cast": "sleep", "at": "Orc"}, NONE, NONE], "Orc": [NONE]}
    doc = run(encounter([brom(), mina(sleep)], [orc()], plan))
    blows = kinds(doc, "melee", "Brom")
    assert [(e["tick"][1], e["tick"][2], e["hit"], e["damage"]) for e in blows] == [(1, 3, True, 2), (2, 3, True, 3),
                                                                                    (3, 3, True, 4)]
    assert kinds(doc, "delay", "Brom") == []
    assert doc["combatants"]["Orc"]["hp"] == 31


def test_c2x_03_a_critical_10s_free_attack_comes_without_a_regular_attack_next_phase() -> None:
    """C2X-03, critical hit 10: "Attacker allowed 1 additional attack immediately PLUS one free attack next phase (in
    addition to regular attacks)". Phase 1 Brom rolls a natural 20, critical d10 10: double maximum total damage,
    2 x 8 = 16 (40 -> 24), the orc stunned (+4 AC) through the next 2 phases; the additional attack at once rolls
    5: 5 < 20 - (6 + 4) = 10, a miss. Phase 2 he declares nothing (his one attack of the round is spent), so the free
    attack, its dice given in the file, comes as that phase ends, at its last moment (issue 37: within phase 2, not at
    the start of phase 3): d20 15 >= 10 hits, 1d8 2: 24 -> 22."""
    dice = {"attack": 20, "crit": 10, "extra_attack": 5, "free_attack": 15, "free_damage": 2}
    plan = {"Brom": [{"melee": "Orc", "dice": dice}, NONE, NONE], "Orc": [NONE]}
    doc = run(encounter([brom()], [orc()], plan, options={"crits": "c2-tables"}))
    blows = kinds(doc, "melee", "Brom")
    assert [(e["hit"], e["damage"]) for e in blows] == [(True, 16), (False, 0), (True, 2)]
    free = blows[2]
    assert free["tick"] == [1, 2, 8, 0] and "as the phase ends (C2X-03)" in free["why"]
    assert [(d["purpose"], d["value"], d["source"]) for d in free["dice"]] == [("attack", 15, "file"),
                                                                               ("damage", 2, "file")]
    assert doc["combatants"]["Orc"]["hp"] == 22


def test_c2_21_a_ready_state_may_be_maintained_not_must() -> None:
    """C2-21: "A ready state may be maintained from phase to phase until an attack is made". Brom readies his sword
    against the orc in phase 1; the orc does nothing. Phase 2 his plan says attack: he attacks (half-segment 9, d20
    14 >= 14 hits, 1d8 5: 40 -> 35) instead of staying ready; with nothing else declared the ready state stands
    (phase 1's wait, then Sela's in phases 2 and 3)."""
    plan = {"Brom": [{"melee": "Orc", "set": True}, {"melee": "Orc", "dice": {"attack": 14, "damage": 5}}, NONE],
            "Sela": [{"melee": "Orc", "set": True}], "Orc": [NONE, NONE, NONE]}
    doc = run(encounter([brom(), brom("Sela")], [orc()], plan))
    (blow,) = kinds(doc, "melee", "Brom")
    assert (blow["tick"][:3], blow["hit"], blow["damage"]) == ([1, 2, 3], True, 5)
    assert [e["tick"][1] for e in kinds(doc, "wait", "Brom")] == [1]
    assert [e["tick"][1] for e in kinds(doc, "wait", "Sela")] == [1, 2, 3]
    kept = [e for e in kinds(doc, "declare", "Sela") if e.get("continuing")]
    assert len(kept) == 2 and "the ready state is maintained" in kept[0]["detail"]


def test_c2_21_at_the_table_a_readied_combatant_is_asked_again() -> None:
    """The same driven: after phase 1's ready state Brom is asked in phase 2 (not held to it: "MAY be maintained");
    answering an attack is accepted and happens; in phase 3 that attack goes on without a question (a player's
    standing attack, issue 37), held over as his one attack of the round is spent (P1-07)."""
    plan = {"Brom": [{"melee": "Orc", "set": True}], "Orc": [NONE, NONE, NONE]}
    drive = prepare(load_text(encounter([brom()], [orc()], plan))).drive(max_rounds=1)
    asked = []
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DieQuestion):
            assert drive.answer(ROLL) is None
        elif isinstance(item, DeclareQuestion):
            asked.append(item.tick[1])
            answer = {"melee": "Orc", "outcome": {"hit": True, "damage": 3}} if item.tick[1] == 2 else NONE
            assert drive.answer(answer) is None
    assert asked == [2]
    assert [e.tick[1] for e in item.result.events if e.kind == "melee"] == [2]


def test_c2_20_a_defender_that_already_attacked_in_the_phase_may_not_answer_a_charge() -> None:
    """C2-20: "A defender may not respond if it has already attacked within the phase or met its maximum number of
    attacks per round". The orc (a loser, declaring first, P1-08) charges Brom from 40 ft at x2 (80 ft a phase; its
    STR check d20 5 <= 10 passes, C2-19); Brom, a winner, swings at Orc 2 at half-segment 3 (a miss). The charge
    lands in the movement portion (a miss, d20 1); Brom, having attacked within the phase, may not answer it."""
    plan = {"Orc": [{"melee": "Brom", "charge": True, "distance": 40, "pace": 2, "dice": {"attack": 1, "str": 5}}],
            "Orc 2": [NONE], "Brom": [{"melee": "Orc 2", "outcome": {"hit": False}}]}
    doc = run(encounter([brom()], [orc(), orc("Orc 2")], plan))
    assert [(e["target"], e["tick"][2]) for e in kinds(doc, "melee", "Brom")] == [("Orc 2", 3)]
    (refused,) = kinds(doc, "impossible", "Brom")
    assert refused["tick"][1:3] == [1, 7] and "already attacked within the phase" in refused["why"]


def test_c2_14_a_spell_held_to_exactly_ct_10_completes_in_the_endphase() -> None:
    """C2-14: holding "may increase the effective casting time to over 10, which puts the balance into the next
    round". Mina, a winner, casts a CT 5 spell held 5 more units: 10 units, the 10th odd half-segment of the winner's
    track is 19 (P1-05), the endphase (P1-11): it completes in round 1, as a 1-round spell. Decision (option
    held_round): exactly 10 is not over 10; with ``next_round`` it goes over: 10 - 9 units of round 1 = 1 unit on
    round 2's winner track, half-segment 1."""
    light = {"name": "light", "level": 1, "ct": 5, "components": "V"}
    plan = {"Mina": [{"cast": "light", "hold": 5}], "Orc": [NONE]}
    (cast,) = kinds(run(encounter([mina(light)], [orc()], plan), rounds=2), "cast", "Mina")
    assert (cast["tick"], cast["at"]) == ([1, 4, 1, 0], "round 1, endphase, half-segment 19 (winner)")
    (later,) = kinds(run(encounter([mina(light)], [orc()], plan, options={"held_round": "next_round"}), rounds=2),
                     "cast", "Mina")
    assert later["tick"] == [2, 1, 1, 0]


def test_p2_05_a_duration_in_segments_counts_three_to_a_phase() -> None:
    """Phase System II, Table 4: each phase has three active half-segments, each a CT unit (a segment of casting
    time); P2-05: an effect lasts to the end of its phase. A CT 1 spell of "4 segments" cast by a winner in phase A
    (half-segment 1): 4 segments = ceil(4 / 3) = 2 phases, so it ends with phase C of cycle 1 (1 + 2 = 3), not with
    phase A of cycle 2 as one phase a segment would have it (option segments_per_phase 1)."""
    shield = {"name": "shield", "level": 1, "ct": 1, "components": "VS", "duration": "4 segments"}
    plan = {"Mina": [{"cast": "shield"}], "Orc": [NONE]}
    (end,) = kinds(run(encounter([mina(shield)], [orc()], plan, ruleset="combat2-phase2")), "expire", "Mina")
    assert (end["tick"], end["at"]) == ([1, 3, 8, 1], "cycle 1, phase C, end of the phase")
    (one,) = kinds(run(encounter([mina(shield)], [orc()], plan, ruleset="combat2-phase2", rounds=2,
                                 options={"segments_per_phase": 1}), rounds=2), "expire", "Mina")
    assert one["tick"] == [2, 2, 8, 1]


def test_c2_18_a_fleers_free_attack_given_in_the_file_equals_the_driven_answer() -> None:
    """C2-18: "A FLEEING combatant ... is still a ripe target for a free attack". Phase 1 Brom and the orc trade
    misses (engaged); phase 2 the orc flees: Brom's free attack. Given in the file (``rolls.free``, by round and
    attacker, G-06): d20 15 >= 14 hits, 1d8 4: 40 -> 36. Driven with every die asked and that attack answered 15
    and 4, the timeline is the same (but for who gave the dice)."""
    plan = {"Brom": [{"melee": "Orc", "outcome": {"hit": False}}, NONE],
            "Orc": [{"melee": "Brom", "outcome": {"hit": False}}, {"move": 40, "mode": "flee"}]}
    given = json.loads(encounter([brom()], [orc()], plan))
    given["rolls"]["free"] = {1: {"Brom": [{"attack": 15, "damage": 4}]}}
    ran = run(json.dumps(given))
    (free,) = [e for e in kinds(ran, "melee", "Brom") if e.get("opportunity")]
    assert (free["hit"], free["damage"]) == (True, 4)
    assert ran["combatants"]["Orc"]["hp"] == 36
    drive = prepare(load_text(encounter([brom()], [orc()], plan))).drive(max_rounds=1, dice="ask")
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DieQuestion):
            value = 15 if item.attack else 4 if item.purpose == "damage" else ROLL
            assert drive.answer(value) is None
    driven = timeline_dict(item.result)
    for doc in (ran, driven):
        for e in doc["events"]:
            for d in e.get("dice", ()):
                d["source"] = "given"
    assert driven == ran
