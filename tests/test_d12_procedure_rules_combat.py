"""d12-procedure (seed 004), rules D12-06 to D12-11: closing, ties, readied missiles, casting in combat,
attacks on one's turn, attacks of opportunity. Defaults in d12_helpers (PC THAC0 20 AC 5 10 hp; orc THAC0
19 AC 6 5 hp; 30 ft a round)."""

from __future__ import annotations

from typing import Any

from d12_helpers import (
    NONE,
    SHORT_BOW,
    SPEAR,
    count_of,
    events,
    hp,
    mage,
    melee,
    miss_on,
    missile,
    one,
    orc,
    pc,
    play,
)

SLEEP = {"name": "sleep", "ct": 1}
BOLT = {"name": "bolt", "ct": 3, "damage": "1d6"}
DAGGER = {"name": "dagger", "sf": 2, "damage": "1d4"}


def _order(doc: dict[str, Any], kinds: tuple[str, ...] = ("melee",)) -> list[tuple[str, tuple[int, ...]]]:
    return [(e["actor"], tuple(e["tick"])) for e in events(doc, kinds)]


# -- D12-06: closing ----------------------------------------------------------------------------------------


def test_d12_06_closing_the_longer_weapon_strikes_first_regardless_of_initiative():
    """Seed: "When entering/charging into melee range of any opponent the longer weapon strikes first,
    regardless of initiative." The Orc (axe, 5 ft) closes 20 ft on Sela (spear, reach 10)."""
    spear = SPEAR | {"reach": 10}
    doc = play({"party": [pc("Sela", weapons=[spear])], "orcs": [orc("Orc", hp=20)]},
               {"Sela": [miss_on("Orc")], "Orc": [miss_on("Sela") | {"distance": 20}]},
               initiative={1: {"party": 9, "orcs": 2}})
    # the orcs' count 2 beats the party's 9, but Sela's 10-ft spear strikes first, moved to count 2,
    # as the Orc comes in: after its move, before its blow; no attack of opportunity for entering reach
    sela, orc_hit = one(doc, "melee", "Sela"), one(doc, "melee", "Orc")
    assert count_of(sela)[2] == count_of(orc_hit)[2] == 2
    assert one(doc, "move", "Orc")["tick"] < sela["tick"] < orc_hit["tick"]
    assert not events(doc, "melee", opportunity=True)
    assert "longer weapon" in sela["why"] and "D12-06" in sela["why"]


def test_d12_06_a_later_closer_with_the_longer_weapon_is_asked_on_its_own_count():
    """Declarations come count by count (D12-05): at its count 3 the Orc declares a blow on Sela within reach
    (no distance), so nobody enters melee range at count 3 and Sela is not asked out of turn; she declares on
    her own count 10. Before declarations moved to the counts, her charge, known from the round's start, moved
    her spear to count 3; now the Orc's blow comes first."""
    spear = SPEAR | {"reach": 10}
    doc = play({"party": [pc("Sela", weapons=[spear])], "orcs": [orc("Orc", hp=20)]},
               {"Sela": [miss_on("Orc") | {"distance": 20}], "Orc": [miss_on("Sela")]},
               initiative={1: {"party": 10, "orcs": 3}})
    # the Orc at count 3 (the action, part 2); Sela at 10: her 20 ft (part 0, within her 30 ft, D12-12), her blow
    assert [(e["actor"], e["tick"]) for e in events(doc, ("move", "melee"))] == [
        ("Orc", [1, 3, 3, 0, 2]), ("Sela", [1, 3, 10, 0, 0]), ("Sela", [1, 3, 10, 0, 2])]
    assert [count_of(e) for e in events(doc, "declare")] == [(1, 3, 3), (1, 3, 10)]


def test_d12_06_a_target_asked_out_of_turn_that_does_not_strike_back_keeps_its_count():
    """Decision: the target closed on is asked at the closer's count; only a blow back at the closer moves."""
    spear = SPEAR | {"reach": 10}
    doc = play({"party": [pc("Sela", weapons=[spear])], "orcs": [orc("Orc", hp=20), orc("Gob", hp=20)]},
               {"Sela": [miss_on("Gob")], "Orc": [miss_on("Sela") | {"distance": 20}], "Gob": [NONE]},
               initiative={1: {"party": 9, "orcs": 2}})
    # count 2: the orcs declare (Orc, Gob), then Sela out of turn (the Orc closes on her 10-ft spear, D12-06);
    # she strikes at Gob, not at the Orc: her blow stays on her own count 9
    assert [(e["actor"], count_of(e)) for e in events(doc, "declare")] == [
        ("Orc", (1, 3, 2)), ("Gob", (1, 3, 2)), ("Sela", (1, 3, 2))]
    assert "out of turn" in one(doc, "declare", "Sela")["at"]
    assert [(e["actor"], count_of(e)) for e in events(doc, "melee")] == [("Orc", (1, 3, 2)), ("Sela", (1, 3, 9))]


def test_d12_06_a_target_with_no_longer_weapon_is_asked_on_its_own_count():
    doc = play({"party": [pc("Brom")], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom") | {"distance": 20}]},
               initiative={1: {"party": 9, "orcs": 2}})
    # sword and axe both reach 5 ft: the Orc's closing asks nobody out of turn; Brom declares on his count 9
    assert [(e["actor"], count_of(e)) for e in events(doc, "declare")] == [("Orc", (1, 3, 2)), ("Brom", (1, 3, 9))]


def test_d12_06_a_weapon_always_beats_unarmed():
    """Seed: "Weapons always win initiative vs. unarmed" (Brom has no weapon)."""
    doc = play({"party": [pc("Brom", weapons=[])], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative={1: {"party": 1, "orcs": 11}})
    # Brom's count 1 would come first, but the Orc's axe strikes at count 1 before him
    assert [a for a, _ in _order(doc)] == ["Orc", "Brom"]
    assert count_of(one(doc, "melee", "Orc"))[2] == 1


def test_d12_06_monks_are_never_unarmed():
    doc = play({"party": [pc("Kai", weapons=[], **{"class": "monk"})], "orcs": [orc("Orc", hp=20)]},
               {"Kai": [miss_on("Orc")], "Orc": [miss_on("Kai")]}, initiative={1: {"party": 1, "orcs": 11}})
    # no reordering: Kai on count 1, the Orc on 11
    assert _order(doc) == [("Kai", (1, 3, 1, 0, 2)), ("Orc", (1, 3, 11, 0, 2))]


# -- D12-07: ties ----------------------------------------------------------------------------------------------


def test_d12_07_ties_are_simultaneous_by_default():
    doc = play({"party": [pc("Brom", weapons=[DAGGER])], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative={1: {"party": 5, "orcs": 5}})
    brom, orc_hit = one(doc, "melee", "Brom"), one(doc, "melee", "Orc")
    assert brom["tick"] == orc_hit["tick"] == [1, 3, 5, 0, 2]


def test_d12_07_option_melee_ties_by_weapon_speed_factor():
    doc = play({"party": [pc("Brom", weapons=[DAGGER])], "orcs": [orc("Orc", hp=20)]},
               {"Brom": [miss_on("Orc")], "Orc": [miss_on("Brom")]}, initiative={1: {"party": 5, "orcs": 5}},
               options={"tie_wsf": True})
    # dagger SF 2 < axe SF 7: Brom first within count 5
    assert _order(doc) == [("Brom", (1, 3, 5, 0, 2)), ("Orc", (1, 3, 5, 1, 2))]


def test_d12_07_option_more_attacks_win_the_tie():
    veteran = pc("Vet", level=13)  # fighter 13+: 2/1 (D12-14)
    doc = play({"party": [veteran], "orcs": [orc("Orc", hp=30, weapons=[DAGGER])]},
               {"Vet": [{"melee": "Orc", "outcome": [{"hit": False}, {"hit": False}]}], "Orc": [miss_on("Vet")]},
               initiative={1: {"party": 5, "orcs": 5}}, options={"tie_attacks": True, "tie_wsf": True})
    # 2 attacks against 1: Vet first although the Orc's dagger (SF 2) is faster than the sword (SF 5)
    assert [a for a, _ in _order(doc)] == ["Vet", "Vet", "Orc"]


def test_d12_07_option_spell_against_melee_the_lower_of_ct_and_sf():
    doc = play({"party": [mage("Mina", BOLT, hp=10)], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "bolt", "at": "Orc", "outcome": {"damage": 3}}], "Orc": [miss_on("Mina")]},
               initiative={1: {"party": 2, "orcs": 5}}, options={"tie_spell_melee": True})
    # the bolt takes effect at 2 + 3 = 5, the Orc's axe strikes at 5: CT 3 < SF 7, the spell first
    cast, axe = one(doc, "cast", "Mina"), one(doc, "melee", "Orc")
    assert count_of(cast)[2] == count_of(axe)[2] == 5
    assert cast["tick"] < axe["tick"]


def test_d12_07_option_missile_against_spell_the_missile_if_ct_exceeds_the_die():
    party = [mage("Mina", BOLT, hp=10)]
    plan = {"Mina": [{"cast": "bolt", "at": "Orc", "outcome": {"damage": 3}}],
            "Orc": [missile("Mina", outcome={"hit": False})]}
    archer = orc("Orc", hp=20, weapons=[SHORT_BOW])
    doc = play({"party": party, "orcs": [archer]}, plan, initiative={1: {"party": 2, "orcs": 5}},
               options={"tie_missile_spell": True})
    # CT 3 > Mina's result 2: the shot at count 5 goes before the bolt taking effect at 2 + 3 = 5
    assert one(doc, "missile", "Orc")["tick"] < one(doc, "cast", "Mina")["tick"]
    later = play({"party": party, "orcs": [archer]}, plan, initiative={1: {"party": 4, "orcs": 7}},
                 options={"tie_missile_spell": True})
    # CT 3 is not higher than 4: simultaneous at 4 + 3 = 7
    assert one(later, "missile", "Orc")["tick"] == one(later, "cast", "Mina")["tick"]


# -- D12-08: readied missile --------------------------------------------------------------------------------


def test_d12_08_a_readied_missile_fires_before_initiative():
    """Seed: "A character beginning a round with missile weapon ready and target in sight fires before
    initiative is rolled." """
    doc = play({"party": [pc("Ash", weapons=[SHORT_BOW])], "orcs": [orc("Orc")]},
               {"Ash": [missile("Orc", 15, 5, ready=True)], "Orc": [melee("Ash", 14, 4)]},
               initiative={1: {"orcs": 1}})
    shot = one(doc, "missile", "Ash")
    # d20 15 >= 20 - 6 = 14: 1d6 5 drops the Orc (5 hp) before initiative; it never strikes
    assert count_of(shot) == (1, 1, 0)
    assert shot["seq"] < one(doc, "initiative")["seq"]
    assert doc["combatants"]["Orc"]["down"] and not events(doc, "melee", "Orc")


def test_d12_08_having_the_drop_the_referee_may_grant_an_additional_attack():
    """Seed: "You might be able to take your prepared attack and then roll for initiative and get an additional
    attack in before your opponent. This is left to the DM": the key drop."""
    doc = play({"party": [pc("Ash", weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=20)]},
               {"Ash": [missile("Orc", 3, ready=True, drop=True)],
                "Orc": [miss_on("Ash")]},
               initiative={1: {"party": 2, "orcs": 6}})
    # the prepared shot before initiative, then Ash's own turn at count 2, before the Orc's 6
    assert [count_of(e) for e in events(doc, ("missile", "melee"))] == [(1, 1, 0), (1, 3, 2), (1, 3, 6)]


def test_d12_08_without_ready_a_missile_waits_for_its_count():
    doc = play({"party": [pc("Ash", weapons=[SHORT_BOW])], "orcs": [orc("Orc", hp=20)]},
               {"Ash": [missile("Orc", 3)], "Orc": [miss_on("Ash")]}, initiative={1: {"party": 3, "orcs": 6}})
    # an ordinary shot is fired on the shooter's count 3, after the initiative roll
    shot = one(doc, "missile", "Ash")
    assert count_of(shot) == (1, 3, 3) and shot["seq"] > one(doc, "initiative")["seq"]


# -- D12-09: casting in combat ------------------------------------------------------------------------------


def test_d12_09_damage_earlier_in_the_round_prevents_casting_but_keeps_the_spell():
    doc = play({"party": [mage("Mina", SLEEP, hp=10)], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "sleep", "at": "orcs"}], "Orc": [melee("Mina", 14, 3)]},
               initiative={1: {"party": 8, "orcs": 2}})
    # the Orc hits at count 2 (14 >= 19 - 10 = 9) for 3: Mina 10 -> 7 cannot cast at count 8
    refused = one(doc, "impossible", "Mina")
    assert "D12-09" in refused["why"] and count_of(refused)[2] == 8
    assert not events(doc, ("cast-start", "cast", "spell-lost"))


def test_d12_09_struck_while_casting_the_spell_is_lost_from_memory():
    doc = play({"party": [mage("Mina", BOLT, hp=10)], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [{"cast": "bolt", "at": "Orc"}], "Orc": [melee("Mina", 14, 3)]},
               initiative={1: {"party": 1, "orcs": 2}})
    # casting from count 1 to 1 + 3 = 4; struck at count 2: the bolt is ruined and forgotten
    lost = one(doc, "spell-lost", "Mina")
    assert count_of(lost)[2] == 2 and lost["spell"] == "bolt"
    assert not events(doc, "cast")


# -- D12-10: all attacks on one's turn -----------------------------------------------------------------------


def test_d12_10_all_of_a_characters_attacks_resolve_on_its_turn():
    doc = play({"party": [pc("Vet", level=13)], "orcs": [orc("Orc", hp=30)]},
               {"Vet": [{"melee": "Orc", "outcome": [{"hit": False}, {"hit": False}]}], "Orc": [miss_on("Vet")]},
               initiative={1: {"party": 3, "orcs": 6}})
    # fighter 13: 2/1; both on count 3, before the Orc's 6
    assert [(a, t[2]) for a, t in _order(doc)] == [("Vet", 3), ("Vet", 3), ("Orc", 6)]


# -- D12-11: attacks of opportunity ---------------------------------------------------------------------------


def test_d12_11_firing_a_missile_at_an_adjacent_melee_attacker_draws_an_aoo():
    doc = play({"party": [pc("Ash", weapons=[DAGGER, SHORT_BOW])], "orcs": [orc("Orc", hp=20)]},
               {"Ash": [miss_on("Orc"), missile("Orc", 3)], "Orc": [miss_on("Ash"), miss_on("Ash")]},
               initiative={1: {"party": 1, "orcs": 2}, 2: {"party": 1, "orcs": 2}},
               referee={("attack", "Orc"): [14], ("damage", "Orc"): [4]})
    aoo = one(doc, "melee", "Orc", opportunity=True)
    # round 2: engaged since round 1; Ash shoots at count 1 while the Orc attacks it: d20 14 >= 19 - 5 = 14,
    # 1d8 4: Ash 10 -> 6; then the shot (d20 3 misses) and the Orc's own attack at count 2
    assert count_of(aoo) == (2, 3, 1) and aoo["damage"] == 4 and "D12-11" in aoo["why"]
    assert hp(doc, "Ash") == 6
    assert aoo["seq"] < one(doc, "missile", "Ash")["seq"]


def test_d12_11_casting_in_reach_draws_an_aoo_and_the_spell_is_lost():
    doc = play({"party": [mage("Mina", SLEEP, hp=10, weapons=[DAGGER])], "orcs": [orc("Orc", hp=20)]},
               {"Mina": [miss_on("Orc"), {"cast": "sleep", "at": "orcs"}], "Orc": [miss_on("Mina"), NONE]},
               initiative={1: {"party": 1, "orcs": 2}, 2: {"party": 1, "orcs": 2}},
               referee={("attack", "Orc"): [9], ("damage", "Orc"): [2]})
    # round 2: Mina starts casting in the Orc's reach; the AoO d20 9 >= 19 - 10 = 9 hits for 2 while she
    # casts: the sleep is lost (D12-09)
    aoo = one(doc, "melee", "Orc", opportunity=True)
    assert aoo["damage"] == 2
    assert one(doc, "spell-lost", "Mina")["seq"] > one(doc, "cast-start", "Mina")["seq"]


def test_d12_11_moving_more_than_5_ft_in_reach_draws_an_aoo_once_a_round():
    foes = [orc("Orc", hp=20), orc("Gob", hp=20)]
    doc = play({"party": [pc("Brom")], "orcs": foes},
               {"Brom": [miss_on("Orc"), {"move": 20}], "Orc": [miss_on("Brom"), NONE],
                "Gob": [miss_on("Brom"), NONE]},
               initiative={1: {"party": 1, "orcs": 2}, 2: {"party": 1, "orcs": 2}},
               referee={("attack", "Orc"): [2], ("attack", "Gob"): [3]})
    # round 2: Brom moves 20 ft away from the two he is engaged with: one AoO each (both miss)
    aoos = events(doc, "melee", opportunity=True)
    assert [(e["actor"], e["round"]) for e in aoos] == [("Orc", 2), ("Gob", 2)]


def test_d12_11_generally_only_one_aoo_per_round_per_character():
    doc = play({"party": [pc("Brom"), pc("Sela")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc"), {"move": 20}], "Sela": [miss_on("Orc"), {"move": 20}],
                "Orc": [miss_on("Brom"), NONE]},
               initiative={1: {"party": 1, "orcs": 2}, 2: {"party": 1, "orcs": 2}},
               referee={("attack", "Orc"): [2]})
    # round 2: both move 20 ft out of the Orc's reach at count 1; the Orc's one AoO goes to Brom (listed first)
    assert [(e["actor"], e["target"]) for e in events(doc, "melee", opportunity=True)] == [("Orc", "Brom")]
    assert [e["actor"] for e in events(doc, "move")] == ["Brom", "Sela"]


def test_d12_18_a_disengage_ends_the_engagement_without_an_aoo():
    doc = play({"party": [pc("Brom"), pc("Sela")], "orcs": [orc("Orc", hp=30)]},
               {"Brom": [miss_on("Orc"), {"move": 30, "mode": "retreat"}, {"move": 20}], "Sela": [NONE] * 3,
                "Orc": [miss_on("Brom"), NONE, NONE]},
               initiative={r: {"party": 1, "orcs": 2} for r in (1, 2, 3)})
    # round 2 the disengage (last in the round) lets Brom go; in round 3 his 20 ft move is no longer in reach
    assert not events(doc, "melee", opportunity=True)
    assert [count_of(e) for e in events(doc, "move", "Brom")] == [(2, 4, 0), (3, 3, 1)]
