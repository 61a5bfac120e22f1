"""Spells as their source says (issue 39): sleep's pool of 2d4 Hit Dice taken fewest first, a save for half the
damage (fireball), the priests' bonuses (bless, prayer), saves modified by the spell (web, hold person), and
creatures a spell cannot touch (an undead's sleep, charm and hold). Worked by hand from the 2nd-edition Player's
Handbook's spell descriptions (the catalogue's source) and Old-School Essentials' SRD (the monsters').

Every fight enters its dice (``dice``: the pool, the damage, each target's save), so each expectation is the book's
arithmetic on known rolls; each runs under every ruleset, since a spell's effect is the engine's, not a ruleset's.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from affray import RULESETS
from affray.api import prepare
from affray.io.load import load_text

IDS = [cls.id for cls in RULESETS]


def _fight(sides: str, plan: str, ruleset: str, rounds: int = 1) -> Any:
    text = "seed: 7\nsurprise: none\nsides:\n" + textwrap.indent(textwrap.dedent(sides), "  ") + "plan:\n" + \
        textwrap.indent(textwrap.dedent(plan), "  ")
    fight = prepare(load_text(text, "spell.yaml"), ruleset=ruleset).fight(max_rounds=rounds)
    fight.run()
    return fight


def _conditions(fight: Any, condition: str) -> list[str]:
    return sorted(e.target for e in fight.events if e.kind == "condition" and e.condition == condition)


MINA = "{name: Mina, class: wizard, level: 5, hp: 20, ac: 2, spells: [sleep, fireball]}"


@pytest.mark.parametrize("ruleset", IDS)
def test_sleep_takes_its_pool_of_hit_dice_fewest_first(ruleset: str) -> None:
    # 2e PH, sleep: 2d4 Hit Dice of creatures, the fewest Hit Dice first, none in part; 4+3 HD or more unaffected.
    # The book's own example: three kobolds, two gnolls and an ogre, the 2d4 rolled 4: the kobolds (1/2 HD each, OSE)
    # and one gnoll (2 HD): 1/2 + 1/2 + 1/2 + 2 = 3 1/2; the other gnoll would make 5 1/2 > 4; the ogre (4+1, 4 HD)
    # would make 7 1/2. Before issue 39 every one of 4 HD or less slept: all six.
    fight = _fight(f"""\
        party: {{pc: true, combatants: [{MINA}]}}
        foes:
          combatants:
            - {{monster: ogre, hp: 20}}
            - {{monster: gnoll, count: 2, hp: 9}}
            - {{monster: kobold, count: 3, hp: 2}}
        """, "Mina: [{cast: sleep, at: foes, dice: {pool: 4}}]\n", ruleset, rounds=2)
    assert _conditions(fight, "asleep") == ["Gnoll 1", "Kobold 1", "Kobold 2", "Kobold 3"]
    cast = next(e for e in fight.events if e.kind in ("cast", "effect") and e.detail and "Hit Dice" in e.detail)
    assert "2d4: 4 Hit Dice, the fewest first" in cast.detail
    assert "Gnoll 2 (2 HD) does not fit in the 0.5 left" in cast.detail


def test_sleep_rolls_its_pool_when_none_is_given() -> None:
    # the same foes, the pool rolled from the seed: whoever sleeps fits within the roll, fewest Hit Dice first
    for seed in range(6):
        text = textwrap.dedent(f"""\
            seed: {seed}
            surprise: none
            sides:
              party: {{pc: true, combatants: [{MINA}]}}
              foes: {{combatants: [{{monster: gnoll, count: 3, hp: 9}}, {{monster: kobold, count: 3, hp: 2}}]}}
            plan:
              Mina: [{{cast: sleep, at: foes}}]
            """)
        fight = prepare(load_text(text, "s.yaml"), ruleset="side-d6").fight(max_rounds=1)
        fight.run()
        cast = next(e for e in fight.events if e.kind == "cast")
        pool = int(cast.detail.split("2d4: ")[1].split(" ")[0])
        assert 2 <= pool <= 8
        expected, left = [], float(pool)  # the kobolds (1/2 HD) first, then the gnolls (2), while they fit
        for name, hd in [(f"Kobold {k}", 0.5) for k in (1, 2, 3)] + [(f"Gnoll {k}", 2.0) for k in (1, 2, 3)]:
            if hd <= left:
                expected.append(name)
                left -= hd
        assert _conditions(fight, "asleep") == sorted(expected), pool


@pytest.mark.parametrize("ruleset", IDS)
def test_fireball_a_save_for_half(ruleset: str) -> None:
    # 2e PH, fireball: 1d6 a level (5d6 at 5th), a save vs. spell for half. The damage entered: 17. Orcs of 1 HD save
    # on 17 (a 1st-level warrior, 2e PH Table 60): Orc 1 rolls 17 and takes 17 // 2 = 8 (hp 30 - 8 = 22), Orc 2 rolls
    # 16 and takes 17 (30 - 17 = 13). Before issue 39 both took 17.
    fight = _fight(f"""\
        party: {{pc: true, combatants: [{MINA}]}}
        orcs: {{combatants: [{{monster: orc, count: 2, hp: 30}}]}}
        """, "Mina: [{cast: fireball, at: orcs, dice: [{damage: 17, save: 17}, {save: 16}]}]\n", ruleset, rounds=2)
    hp = {f.name: f.hp for f in fight.state.fighters.values()}
    assert (hp["Orc 1"], hp["Orc 2"]) == (22, 13)
    cast = next(e for e in fight.events if e.kind == "cast" and e.actor == "Mina")
    assert "Orc 1 saves (d20 17 >= 17, 2e PH Table 60): half damage: 8" in cast.detail
    assert "Orc 2 fails to save (d20 16 < 17): full damage: 17" in cast.detail


def test_bless_gives_plus_one_to_hit_to_those_not_in_melee() -> None:
    # 2e PH, bless: +1 to attack rolls of those not yet in melee when it takes effect, 6 rounds. Tam blesses the
    # party in round 1 (CT 1 round: it takes effect at the round's end); Brom's blow in round 2 carries +1.
    fight = _fight("""\
        party:
          pc: true
          combatants:
            - {name: Tam, class: cleric, level: 3, hp: 20, spells: [bless]}
            - {name: Brom, class: fighter, level: 3, hp: 30, weapons: [long sword]}
        orcs: {combatants: [{monster: orc, hp: 60}]}
        """, """\
        Tam: [{cast: bless, at: party}]
        Brom: [{none: true}, {melee: Orc}]
        Orc: [{none: true}, {none: true}]
        """, "side-d6", rounds=2)
    assert _conditions(fight, "blessed") == ["Brom", "Tam"]
    blow = next(e for e in fight.events if e.kind == "melee" and e.actor == "Brom")
    assert "+1 (Brom blessed, G-09)" in blow.detail


def test_prayer_heartens_its_side_and_disheartens_the_others() -> None:
    # 2e PH, prayer: +1 to attack rolls, damage and saves of the caster's allies, -1 to its foes'. Tam's prayer (CT 6)
    # is cast at the party; the orc's saving throw against a later hold person is made at -1.
    fight = _fight("""\
        party:
          pc: true
          combatants:
            - {name: Tam, class: cleric, level: 5, hp: 20, spells: [prayer]}
            - {name: Brom, class: fighter, level: 3, hp: 30, weapons: [long sword]}
        orcs: {combatants: [{monster: orc, hp: 60}]}
        """, """\
        Tam: [{cast: prayer, at: party}]
        Brom: [{none: true}, {melee: Orc, dice: {attack: 15, damage: 4}}]
        Orc: [{none: true}, {none: true}]
        """, "side-d6", rounds=2)
    assert _conditions(fight, "heartened") == ["Brom", "Tam"]
    assert _conditions(fight, "disheartened") == ["Orc"]
    blow = next(e for e in fight.events if e.kind == "melee" and e.actor == "Brom")
    # the long sword's d8 entered as 4, +1 damage heartened: 5
    assert blow.damage == 5 and "+1 (Brom heartened, G-09)" in blow.detail


@pytest.mark.parametrize(("count", "roll", "held"), [(1, 19, True), (2, 17, True), (3, 17, False)])
def test_hold_persons_save_is_harder_the_fewer_it_takes(count: int, roll: int, held: bool) -> None:
    # 2e PH, hold person (wizard): a save at -3 against one target, -1 against two, as is against three or four.
    # Orcs save on 17: one orc rolling 19 - 3 = 16 fails; two rolling 17 - 1 = 16 fail; three rolling 17 save.
    orcs = "{monster: orc, hp: 10}" if count == 1 else f"{{monster: orc, count: {count}, hp: 10}}"
    saves = ", ".join(f"{{save: {roll}}}" for _ in range(count))
    fight = _fight(f"""\
        party: {{pc: true, combatants: [{{name: Mina, class: wizard, level: 5, hp: 20, spells: [hold person]}}]}}
        orcs: {{combatants: [{orcs}]}}
        """, f"Mina: [{{cast: hold person, at: orcs, dice: [{saves}]}}]\n", "side-d6", rounds=1)
    assert len(_conditions(fight, "held")) == (count if held else 0)


def test_an_undead_monster_is_immune_to_sleep() -> None:
    # OSE SRD, skeleton: undead, immune to sleep, charm and hold; kobolds beside them sleep
    fight = _fight(f"""\
        party: {{pc: true, combatants: [{MINA}]}}
        foes: {{combatants: [{{monster: skeleton, count: 2, hp: 4}}, {{monster: kobold, hp: 2}}]}}
        """, "Mina: [{cast: sleep, at: foes, dice: {pool: 8}}]\n", "side-d6", rounds=1)
    assert _conditions(fight, "asleep") == ["Kobold"]
    cast = next(e for e in fight.events if e.kind == "cast")
    assert "Skeleton 1 is immune to being asleep: unaffected" in cast.detail
