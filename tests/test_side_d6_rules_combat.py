"""side-d6 (seed 001), rules MJ-14 to MJ-20: rear attacks, cover, firing into melee, mounted combat, surrounding,
shields shall be splintered, subdual damage. Defaults and arithmetic conventions: see side_d6_helpers."""

from __future__ import annotations

import pytest

from affray import EncounterError, load_text, prepare, run
from side_d6_helpers import (
    LANCE,
    NONE,
    SHORT_BOW,
    attacks,
    each_round,
    encounter,
    events,
    hp,
    melee,
    miss_on,
    missile,
    one,
    orc,
    pc,
    play,
)

# -- MJ-14: rear attacks -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("shield", "d20", "hit"), [(True, 12, True), (True, 11, False),
                                                    (False, 12, True), (False, 11, False)])
def test_mj_14_rear_attack_plus_2_to_hit_and_no_shield(shield, d20, hit):
    """Seed: "Melee attacks to the rear of the target ... gain a +2 to hit, and the defender does not get the AC
    benefit from his shield if he uses one." A shielded orc is AC 5 from the front, 5 + 1 = 6 from behind."""
    foe = orc("Orc", hp=20, ac=5 if shield else 6, shield=shield)
    doc = play({"party": [pc("Brom")], "orcs": [foe]}, {"Brom": [melee("Orc", d20, 4, rear=True)]})
    # need 20 - 6 = 14 either way: 12 + 2 = 14 hits, 11 + 2 = 13 misses
    assert one(doc, "melee", "Brom")["hit"] is hit
    assert hp(doc, "Orc") == (16 if hit else 20)


def test_mj_14_the_same_blow_from_the_front_misses():
    """Contrast for MJ-14 (and MJ-19's "usual -1 to your AC with a shield"): from the front the shielded orc is
    AC 5, so d20 12 + 0 < 20 - 5 = 15."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20, ac=5, shield=True)]},
               {"Brom": [melee("Orc", 14, 4)]})
    assert one(doc, "melee", "Brom")["hit"] is False  # 14 < 15: the shield's -1 counts


# -- MJ-15: cover ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cover_d6", "struck"), [(1, False), (3, False), (4, True), (6, True)])
def test_mj_15_cover_d6_1_to_3_hits_the_cover(cover_d6, struck):
    """Seed: "throw 1d6 after determining a hit. A throw of 1-3 means the attack hit the cover instead." """
    doc = play({"party": [pc("Ari", weapons=[SHORT_BOW])], "orcs": [orc("Orc")]},
               {"Ari": [missile("Orc", 14, 3, more={"cover": cover_d6}, cover=True)]})
    shot = one(doc, "missile", "Ari")
    # d20 14 >= 20 - 6 = 14: a hit, then the cover d6; 1d6 3 -> Orc 5 - 3 = 2
    assert (shot["hit"], shot["damage"]) == ((True, 3) if struck else (False, 0))
    assert hp(doc, "Orc") == (2 if struck else 5)


def test_mj_15_no_cover_die_after_a_miss():
    """Seed: the cover d6 is thrown "after determining a hit": a miss (d20 13 < 14) throws none (any die thrown
    here would come from the RNG and fail play()'s pinning check)."""
    doc = play({"party": [pc("Ari", weapons=[SHORT_BOW])], "orcs": [orc("Orc")]},
               {"Ari": [missile("Orc", 13, cover=True)]})
    shot = one(doc, "missile", "Ari")
    assert shot["hit"] is False and [d["die"] for d in shot["dice"]] == ["d20"]


# -- MJ-16: firing into melee ------------------------------------------------------------------------------


@pytest.mark.parametrize(("into_melee", "struck"), [(1, "Brom"), (2, "Orc")])
def test_mj_16_a_hit_into_melee_strikes_anyone_in_it_allies_included(into_melee, struck):
    """Seed: "A missile shot into melee that is scored a hit has an equal chance to hit any character engaged in
    that instance of melee, even the attacker’s allies." The orcs win; the orc's miss on Brom makes the melee;
    then Ari (2nd) shoots the orc: d20 14 >= 20 - 6 = 14, a hit; Brom and the orc make a d2, in file order."""
    doc = play({"party": [pc("Brom"), pc("Ari", weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=20)]},
               {"Ari": [missile("Orc", 14, 3, more={"into_melee": into_melee})], "Orc": [miss_on("Brom")]},
               initiative={1: {"party": 2, "orcs": 5}})
    shot = one(doc, "missile", "Ari")
    assert (shot["target"], shot["hit"], shot["damage"]) == (struck, True, 3)
    assert "d2" in [d["die"] for d in shot["dice"]]
    assert hp(doc, struck) == (10 - 3 if struck == "Brom" else 20 - 3)


def test_mj_16_each_of_three_in_the_melee_has_an_equal_chance():
    """Seed: "an equal chance to hit any character engaged": Brom, Cid and the orc make a d3; 2 is Cid."""
    # round 1: Brom and Cid miss the orc (d20 2 < 14) and are in melee with it; round 2: Ari, d20 14 hits
    plan = {"Brom": [melee("Orc", 2)], "Cid": [melee("Orc", 2)], "Orc": [NONE, NONE],
            "Ari": [NONE, missile("Orc", 14, 3, more={"into_melee": 2})]}
    doc = play({"party": [pc("Brom"), pc("Cid"), pc("Ari", weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=20)]},
               plan, initiative=each_round(2, 5, 2))
    shot = one(doc, "missile", "Ari")
    assert (shot["round"], shot["target"], shot["damage"]) == (2, "Cid", 3)
    assert "d3" in [d["die"] for d in shot["dice"]]
    assert hp(doc, "Cid") == 7


@pytest.mark.parametrize(("target", "fires"), [("Orc 1", False), ("Orc 2", True)])
def test_mj_16_henchmen_never_fire_into_a_melee(target, fires):
    """Seed: "Henchmen and Retainers will never fire into a melee, for fear of hitting their bosses." Orc 1 is in
    melee with Brom; Orc 2 stands apart."""
    hench = pc("Hal", henchman=True, pc=False, morale=9, weapons=[SHORT_BOW])
    doc = play({"party": [pc("Brom"), hench], "orcs": [orc("Orc", count=2)]},
               {"Orc 1": [miss_on("Brom")], "Hal": [missile(target, 14, 3)]},
               initiative={1: {"party": 2, "orcs": 5}})
    if fires:  # 14 >= 20 - 6: hit, 1d6 3 -> 5 - 3 = 2
        shot = one(doc, "missile", "Hal")
        assert (shot["target"], shot["damage"]) == ("Orc 2", 3)
    else:
        assert attacks(doc, "Hal") == []
        assert one(doc, "impossible", "Hal")["round"] == 1
    assert (hp(doc, "Orc 1"), hp(doc, "Orc 2")) == (5, 2 if fires else 5)


# -- MJ-17: mounted combat ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("foe_mounted", "hit", "damage"), [(False, True, 7), (True, False, 0)])
def test_mj_17_mounted_plus_2_to_hit_and_damage_over_foot(foe_mounted, hit, damage):
    """Seed: "Mounted cavalrymen and knights gain a +2 to hit and a +2 to damage over combatants on foot." """
    doc = play({"party": [pc("Kay", mounted=True)], "orcs": [orc("Orc", hp=20, mounted=foe_mounted)]},
               {"Kay": [melee("Orc", 12, 5)]})
    blow = one(doc, "melee", "Kay")
    # on foot: 12 + 2 = 14 >= 20 - 6 = 14, 1d8 5 + 2 = 7; mounted foe: 12 < 14
    assert (blow["hit"], blow["damage"]) == (hit, damage)
    assert hp(doc, "Orc") == 20 - damage


@pytest.mark.parametrize(("d20", "hit"), [(15, True), (14, False)])
def test_mj_17_shooting_a_bow_from_horseback_is_minus_1(d20, hit):
    """Seed: "On the other hand, shooting a bow from horseback imparts a -1 penalty to hit"."""
    doc = play({"party": [pc("Kay", mounted=True, weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=20)]},
               {"Kay": [missile("Orc", d20, 3)]})
    shot = one(doc, "missile", "Kay")
    # 15 - 1 = 14 >= 20 - 6 = 14: hit, 1d6 3 (the +2 is for mounted melee); 14 - 1 = 13 misses
    assert (shot["hit"], shot["damage"]) == ((True, 3) if hit else (False, 0))


def test_mj_17_only_short_bows_from_horseback():
    """Seed: "and only Shortbows can be used from horseback anyway"."""
    long_bow = {"name": "long bow", "sf": 8, "damage": "1d6", "kind": "missile"}
    ok = encounter({"party": [pc("Kay", mounted=True, weapons=[SHORT_BOW])], "orcs": [orc("Orc")]},
                   {"Kay": [missile("Orc")]})
    prepare(load_text(ok), ruleset="side-d6")
    bad = encounter({"party": [pc("Kay", mounted=True, weapons=[long_bow])], "orcs": [orc("Orc")]},
                    {"Kay": [missile("Orc")]})
    with pytest.raises(EncounterError, match="short bow"):
        prepare(load_text(bad), ruleset="side-d6")


@pytest.mark.parametrize(("lance_first", "pike", "turn"), [(True, False, 1), (False, False, 2), (True, True, 2)])
def test_mj_17_a_mounted_lancer_strikes_in_the_first_melee_step(lance_first, pike, turn):
    """Seed: "Lances have an extra 10’ reach as well, which makes it likely that cavalrymen automatically gain
    initiative"; RULES MJ-17 Decision (lance_first): the lance (5 + 10 = 15 ft) against a 5 ft axe strikes in the
    first side's melee step though the orcs won; not with the option off, nor against a 15 ft pike."""
    weapon = {"name": "pike", "sf": 13, "damage": "1d6", "reach": 15} if pike else {"name": "axe", "damage": "1d8"}
    doc = play({"party": [pc("Kay", mounted=True, weapons=[LANCE])], "orcs": [orc("Orc", weapons=[weapon])]},
               {"Kay": [melee("Orc", 2)], "Orc": [miss_on("Kay")]},
               initiative={1: {"party": 2, "orcs": 5}}, options={"lance_first": lance_first})
    assert one(doc, "melee", "Orc")["tick"] == [1, 1, 7, 1]
    assert one(doc, "melee", "Kay")["tick"] == [1, turn, 7, 1]


# -- MJ-18: surrounding ------------------------------------------------------------------------------------


def _gang_up(n: int, foe: dict, first: int, second: int) -> dict:
    """n fighters attack ``foe`` in round 1 (d20 ``first``) and round 2 (d20 ``second``), 1d8 2 each."""
    party = [pc(f"F{k}") for k in range(1, n + 1)]
    plan = {f"F{k}": [melee(foe["name"], first, 2), melee(foe["name"], second, 2)] for k in range(1, n + 1)}
    return play({"party": party, "orcs": [foe]}, plan)


@pytest.mark.parametrize(("n", "hit"), [(3, True), (2, False)])
def test_mj_18_a_target_at_least_half_surrounded_gives_the_attackers_plus_1(n, hit):
    """Seed: "up to six Men may encircle a Man-sized opponent"; "If a single target is at least halfway
    surrounded, the majority attackers get a +1 to hit." Engaged in round 1 (misses), in round 2 three of six
    are half: 13 + 1 = 14 >= 20 - 6 hits; two of six are not: 13 misses."""
    doc = _gang_up(n, orc("Orc", hp=50), 2, 13)
    second = [e for e in events(doc, "melee") if e["round"] == 2]
    assert [e["hit"] for e in second] == [hit] * n
    assert hp(doc, "Orc") == 50 - (2 * n if hit else 0)


@pytest.mark.parametrize(("n", "hit"), [(4, True), (3, False)])
def test_mj_18_a_larger_opponent_needs_four_of_eight(n, hit):
    """Seed: "Up to eight Men may encircle a larger opponent": half is 4 (3 of 8 gives no bonus)."""
    ogre = {"name": "Ogre", "hp": 50, "ac": 6, "hd": 4, "size": "large"}
    doc = _gang_up(n, ogre, 2, 13)
    assert [e["hit"] for e in events(doc, "melee") if e["round"] == 2] == [hit] * n  # 13 (+1) vs 14


def test_mj_18_three_attackers_closing_together_all_get_plus_1():
    """Seed: "If a single target is at least halfway surrounded, the majority attackers get a +1 to hit": three
    men surrounding the orc in the same melee step (MJ-07: within a step actions are simultaneous) all hit with
    13 + 1 = 14."""
    doc = _gang_up(3, orc("Orc", hp=50), 13, 2)
    assert [e["hit"] for e in events(doc, "melee") if e["round"] == 1] == [True, True, True]


@pytest.mark.parametrize(("size", "n", "room"), [("medium", 7, 6), ("large", 9, 8)])
def test_mj_18_no_more_than_six_or_eight_can_encircle(size, n, room):
    """Seed: "up to six Men may encircle a Man-sized opponent. Up to eight Men may encircle a larger opponent":
    the 7th (9th) attacker finds no room."""
    foe = {"name": "Foe", "hp": 100, "ac": 6, "hd": 1, "size": size}
    doc = _gang_up(n, foe, 2, 2)
    first = [e for e in events(doc, ("melee", "impossible")) if e["round"] == 1]
    assert [e["kind"] for e in first] == ["melee"] * room + ["impossible"] * (n - room)
    assert first[-1]["actor"] == f"F{n}"


# -- MJ-19: shields shall be splintered --------------------------------------------------------------------


def _orc_hits_brom(blows: list[int], shield: object, options: dict | None = None) -> dict:
    """The orc hits Brom (AC 5 with his shield, 5 hp) once a round: d20 14 >= 19 - 5 = 14."""
    n = len(blows)
    return play({"party": [pc("Brom", hp=5, shield=shield)], "orcs": [orc("Orc")]},
                {"Brom": [NONE] * n, "Orc": [melee("Brom", 14, b) for b in blows]},
                initiative=each_round(n, 2, 5), options=options)


@pytest.mark.parametrize(("policy", "splintered", "brom_hp"), [
    ("never", [], -4),      # 5 - 3 = 2, then 2 - 6 = -4
    ("lethal", [2], 2),     # 3 would not drop him: taken (2 left); 6 would: the shield takes it
    ("always", [1], -1),    # the first blow shatters it; the second, 6, is taken: 5 - 6 = -1
])
def test_mj_19_the_shield_absorbs_a_blow_and_is_shattered(policy, splintered, brom_hp):
    """Seed: "any time you take damage, you can opt instead to say your shield absorbed the force of the blow.
    The shield is shattered and must be discarded, but you don't take any damage from that hit." The bearer's
    choice is the option shield_splinter: never, a blow that would drop him (default), every blow."""
    doc = _orc_hits_brom([3, 6], True, {"shield_splinter": policy})
    blows = events(doc, "melee", "Orc")
    assert [e["round"] for e in blows if e.get("splinter")] == splintered
    assert all(e["damage"] == 0 for e in blows if e.get("splinter"))
    assert hp(doc, "Brom") == brom_hp
    assert doc["combatants"]["Brom"]["down"] is (brom_hp <= 0)


@pytest.mark.parametrize(("shield", "splintered", "falls"), [(True, [1], 2), ("magic", [1, 2], 3)])
def test_mj_19_a_magic_shield_is_given_up_once_without_shattering(shield, splintered, falls):
    """Seed: "Magic shields can be given up once per day without shattering, but then they are considered
    nonmagical for the rest of the day. If you give it up again, it is shattered permanently." Three blows of 6
    against Brom's 5 hp (each would drop him)."""
    doc = _orc_hits_brom([6, 6, 6], shield)
    assert [e["round"] for e in events(doc, "melee", "Orc") if e.get("splinter")] == splintered
    assert one(doc, "down", "Brom")["round"] == falls
    assert hp(doc, "Brom") == -1  # 5 - 6


def test_mj_19_a_shattered_shield_no_longer_counts_for_ac():
    """Seed: "The shield is shattered and must be discarded": without it Brom is AC 5 + 1 = 6, so the orc's
    d20 13 >= 19 - 6 = 13 hits in round 2 (1d8 2 -> 5 - 2 = 3)."""
    doc = play({"party": [pc("Brom", hp=5, shield=True)], "orcs": [orc("Orc")]},
               {"Brom": [NONE, NONE], "Orc": [melee("Brom", 14, 6), melee("Brom", 13, 2)]},
               initiative=each_round(2, 2, 5))
    first, second = events(doc, "melee", "Orc")
    assert first.get("splinter") is True
    assert (second["hit"], second["damage"]) == (True, 2)
    assert hp(doc, "Brom") == 3


def _spell_at_brom(shield: object) -> dict:
    caster = {"name": "Shaman", "class": "wizard", "level": 1, "hp": 4,
              "spells": [{"name": "magic missile", "level": 1, "damage": "1d4+1", "count": 2}]}
    bolt = {"cast": "magic missile", "at": "Brom", "outcome": {"hit": True, "damage": 4}}
    return play({"party": [pc("Brom", hp=3, shield=shield)], "orcs": [caster]},
                {"Brom": [NONE, NONE], "Shaman": [bolt, bolt]}, initiative=each_round(2, 2, 5))


@pytest.mark.parametrize(("shield", "falls"), [("rowan", 2), (True, 1)])
def test_mj_19_a_rowan_shield_can_be_given_up_against_one_magic_effect(shield, falls):
    """Seed: "Shields made from the heartwood of the rowan tree ... can be given up to avoid one magic effect":
    two bolts of 4 damage at Brom (3 hp): the rowan shield turns the first, a plain shield neither."""
    doc = _spell_at_brom(shield)
    assert [e["round"] for e in events(doc, "cast", "Shaman")] == ([1, 2] if falls == 2 else [1])
    assert one(doc, "down", "Brom")["round"] == falls
    assert hp(doc, "Brom") == -1  # 3 - 4


# -- MJ-20: subdual damage ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("d20", "hit"), [(16, True), (15, False)])
def test_mj_20_flat_of_the_blade_is_minus_2_to_hit(d20, hit):
    """Seed: "Attacks made with the “flat of the blade” for non-lethal damage suffer a -2 attack penalty." """
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]}, {"Brom": [melee("Orc", d20, 3, subdual=True)]})
    # 16 - 2 = 14 >= 20 - 6 = 14: hit; 15 - 2 = 13: miss
    assert one(doc, "melee", "Brom")["hit"] is hit
    assert hp(doc, "Orc") == (17 if hit else 20)


@pytest.mark.parametrize(("first", "unconscious"), [({"subdual": True}, True), ({}, False)])
def test_mj_20_at_zero_hp_with_some_subdual_damage_unconscious_not_dead(first, unconscious):
    """Seed: "If a character or monster reduced to zero Hit Points has taken at least some subdual damage, the he
    becomes unconscious rather than dead." Round 1: 2 damage (subdual or not), round 2: 3 lethal -> 5 - 5 = 0."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]},
               {"Brom": [melee("Orc", 20, 2, **first), melee("Orc", 20, 3)], "Orc": [NONE, NONE]},
               initiative=each_round(2, 5, 2))
    down = one(doc, "down", "Orc")
    assert down["round"] == 2 and bool(down.get("unconscious")) is unconscious
    final = doc["combatants"]["Orc"]
    assert (final["hp"], final["down"], bool(final.get("unconscious"))) == (0, True, unconscious)


def test_mj_20_a_subdual_blow_to_zero_knocks_out():
    """Seed: the subdued monster "becomes unconscious rather than dead" ("one way to force a monster to serve
    you"). d20 18 - 2 = 16 >= 14; 1d8 5 = the orc's 5 hp."""
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc")]}, {"Brom": [melee("Orc", 18, 5, subdual=True)]})
    assert one(doc, "down", "Orc").get("unconscious") is True
    assert doc["combatants"]["Orc"].get("unconscious") is True
    assert doc["winner"] == "party"


def test_mj_15_a_cover_die_outside_1_to_6_is_an_input_error():
    """A d6 shows 1-6: a cover die of 7 entered in the file is bad input (exit 2), not a crash."""
    text = encounter({"party": [pc("Ash", weapons=[SHORT_BOW])], "orcs": [orc("Orc")]},
                     {"Ash": [missile("Orc", 15, 3, more={"cover": 7}, cover=True)]})
    with pytest.raises(EncounterError) as info:
        prepare(load_text(text, "f.json", strict=False), ruleset="side-d6")
    assert [p.path for p in info.value.problems] == ["plan.Ash[0].dice.cover"]


def test_mj_16_an_into_melee_die_beyond_the_melee_is_an_input_error():
    """Brom and the orc are engaged (2 in that melee): a die of 3 cannot pick one of them (a d2)."""
    text = encounter({"party": [pc("Brom"), pc("Ash", weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=20)]},
                     {"Brom": [melee("Orc", 2), melee("Orc", 2)], "Orc": [miss_on("Brom"), miss_on("Brom")],
                      "Ash": [NONE, missile("Orc", 19, 3, more={"into_melee": 3})]},
                     initiative={1: {"party": 5, "orcs": 2}, 2: {"party": 5, "orcs": 2}})
    with pytest.raises(EncounterError) as info:
        run(load_text(text, "f.json"), ruleset="side-d6")
    assert "into_melee" in info.value.problems[0].path
    assert "d2" in info.value.problems[0].message
