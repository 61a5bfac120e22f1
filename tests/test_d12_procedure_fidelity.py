"""d12-procedure (seed 004), the third round of checks (issue 26): an attack of opportunity on point-blank fire when
the foe has not declared yet (D12-11, the Decision ``attacker``), a failed save while casting (D12-09), a foe that
took its attack of opportunity at a fleer's back may not pursue (D12-19), and what an asked combatant knows (the
Decision ``known``). Every die is pinned (``d12_helpers``: the party's count 3, the orcs' 8, lowest first).
"""

from __future__ import annotations

from typing import Any

from affray import load_text, prepare
from affray.drive import ROLL, DeclareQuestion, DieQuestion, End
from d12_helpers import AXE, SHORT_BOW, SWORD, encounter, events, miss_on, one, orc, pc, play, rounds

ARCHER = pc("Ash", weapons=[SHORT_BOW, SWORD])


def point_blank(option: str) -> dict[str, Any]:
    """Round 1: Ash swings at the orc (a miss) and the orc at Brom (a miss): each melee engages its pair, so the orc
    is engaged with both. Round 2: at the party's count 3 Ash shoots the orc at point blank (d20 1: a miss); the orc
    has not declared yet (its count is 8). The orc's attack of opportunity, if any: d20 20 hits, 1d8 4."""
    plan = {"Ash": [miss_on("Orc"), {"missile": "Orc", "dice": {"attack": 1}}],
            "Brom": [{"none": True}] * 2, "Orc": [miss_on("Brom"), miss_on("Brom")]}
    return play({"party": [ARCHER, pc("Brom")], "orcs": [orc("Orc", hp=20)]}, plan, initiative=rounds(2, 3, 8),
                referee={("attack", "Orc"): [20], ("damage", "Orc"): [4]}, options={"attacker": option},
                max_rounds=2)


def test_d12_11_firing_at_an_engaged_foe_that_has_not_declared_draws_its_attack_of_opportunity() -> None:
    """D12-11: "Missile fire versus adjacent opponents attacking you with a melee weapon draws an Attack of
    Opportunity". Decision (option ``attacker`` engaged, the default): a foe that has not declared yet this round is
    attacking you when engaged with you in melee. The orc strikes first: 20 hits, 4 damage (Ash 10 -> 6)."""
    doc = point_blank("engaged")
    aoo = one(doc, "melee", "Orc", opportunity=True)
    assert (aoo["round"], aoo["target"], aoo["hit"], aoo["damage"]) == (2, "Ash", True, 4)
    assert "not yet declared this round" in aoo["why"]
    shot = one(doc, "missile", "Ash")
    assert aoo["seq"] < shot["seq"]
    assert doc["combatants"]["Ash"]["hp"] == 6


def test_d12_11_with_option_last_the_foes_last_declaration_decides() -> None:
    """``attacker: last``: the orc's last declaration was a melee at Brom, not at Ash: no attack of opportunity."""
    doc = point_blank("last")
    assert events(doc, "melee", "Orc", opportunity=True) == []


def test_d12_09_a_failed_save_while_casting_loses_the_spell_from_memory() -> None:
    """D12-09: damage "or a failed saving throw that affects the caster's actions", and "struck while actually
    casting ... not only is the spell not completed but it is wasted - forgotten and expended". Mina begins a CT 5
    spell on the party's count 3 (it would take effect at 3 + 5 = 8, D12-05); the orcs' d12 is 4, so the shaman's
    hold person (CT 1) takes effect at 4 + 1 = 5, while Mina is casting; her save d20 1 fails: she is held, and her
    spell is lost from memory (spell-lost), not only for this casting."""
    fireball = {"name": "fireball", "level": 3, "ct": 5, "components": "VSM"}
    hold = {"name": "hold person", "level": 2, "ct": 1, "components": "VS",
            "effect": {"condition": "held", "duration": "2 rounds", "save": True}}
    mina = {"name": "Mina", "class": "wizard", "level": 5, "hp": 12, "ac": 10, "spells": [fireball]}
    shaman = {"name": "Shaman", "hd": 2, "hp": 9, "ac": 6, "spells": [hold], "weapons": [AXE]}
    plan = {"Mina": [{"cast": "fireball", "at": "orcs"}],
            "Shaman": [{"cast": "hold person", "at": "Mina", "dice": {"save": 1}}]}
    doc = play({"party": [mina], "orcs": [shaman]}, plan, initiative={1: {"party": 3, "orcs": 4}}, max_rounds=1)
    held = one(doc, "condition", "Shaman")
    assert (held["target"], held["condition"], held["tick"][2]) == ("Mina", "held", 5)
    lost = one(doc, "spell-lost", "Mina")
    assert lost["spell"] == "fireball" and lost["seq"] == held["seq"] + 1
    assert events(doc, "cast", "Mina") == []
    assert doc["combatants"]["Mina"]["hp"] == 12


def test_d12_19_a_foe_that_took_its_attack_at_a_fleers_back_may_not_pursue() -> None:
    """D12-19: "Opponents may take an AoO at your back, but then are not permitted to pursue on their turn". Round 1
    Brom and the orc trade misses (engaged). Round 2 Brom flees at the party's count 3; the orc takes its attack
    at his back (d20 2: a miss); at its own count 8 its declared move after him is refused."""
    plan = {"Brom": [miss_on("Orc"), {"move": 60, "mode": "flee"}], "Mina": [{"none": True}] * 2,
            "Orc": [miss_on("Brom"), {"move": 30}]}
    doc = play({"party": [pc("Brom"), pc("Mina")], "orcs": [orc("Orc", hp=20)]}, plan,
               initiative=rounds(2, 3, 8), referee={("attack", "Orc"): [2]}, max_rounds=2)
    aoo = one(doc, "melee", "Orc", opportunity=True)
    assert (aoo["round"], aoo["hit"]) == (2, False)
    refused = one(doc, "impossible", "Orc")
    assert refused["round"] == 2 and "may not pursue on its turn (D12-19)" in refused["why"]
    assert events(doc, "move", "Orc") == []


def test_d12_19_and_the_question_offers_no_pursuit_and_d12_05_it_knows_what_was_said() -> None:
    """The same at the table: asked at its count 8 of round 2, the orc is offered no plain move (a fall back, a
    disengage, a flight and a 5-foot step stay: none of them pursues), a move is refused with the rule, and it knows
    what was said this round (Decision ``known``: said): Brom's flight and Mina's nothing."""
    plan = {"Brom": [miss_on("Orc"), {"move": 60, "mode": "flee"}], "Mina": [{"none": True}] * 2,
            "Orc": [miss_on("Brom")]}
    text = encounter({"party": [pc("Brom"), pc("Mina")], "orcs": [orc("Orc", hp=20)]}, plan,
                     initiative=rounds(2, 3, 8))
    drive = prepare(load_text(text), ruleset="d12-procedure").drive(max_rounds=2)
    while not isinstance(item := drive.pull(), End):
        if isinstance(item, DieQuestion):
            assert drive.answer(2 if item.attack else ROLL) is None
        elif isinstance(item, DeclareQuestion):
            assert (item.actor, item.tick[0]) == ("Orc", 2)
            assert item.choices["move"] == ["step", "withdraw", "retreat", "flee"]
            assert "D12-19" in (drive.answer({"move": 30}) or "")
            heard = [(name, d.model_dump(exclude_none=True, exclude_defaults=True)) for name, d in item.known]
            assert heard == [("Brom", {"move": 60, "mode": "flee"}), ("Mina", {"none": True})]
            return
    raise AssertionError("the orc was never asked")

