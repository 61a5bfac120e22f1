"""Auto-play policies (affray.policy): what ``--auto`` declares once a plan is used up, under every ruleset.

Each policy's choices are worked by hand on small fights: a fight is prepared and its ``Auto`` (the fight's
``policy``) asked, one combatant after another, as the fight would ask them at a declaration point."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from affray import RULESETS, load_text, prepare, timeline_json
from affray.engine.events import Condition, Declare, Down, Expire, Move
from affray.engine.fight import Fight
from affray.engine.state import Memorized
from affray.engine.step import Until
from affray.model.encounter import POLICY_NAMES
from affray.model.order import Order
from affray.policy import POLICIES, Auto, PolicyError, choose, find_policy, load_policy
from affray.supplements.c2x.pools import ManaPool
from cli_run import affray_here
from conftest import EXAMPLES

AFFRAY = str(Path(sys.executable).parent / "affray")
IDS = [r.id for r in RULESETS]
SKIRMISH = (EXAMPLES / "skirmish.yaml").read_text(encoding="utf-8")


def with_side_policy(text: str, policy: str) -> str:
    """The skirmish with ``policy:`` on both sides."""
    return (text.replace("  party:\n    pc: true", f"  party:\n    policy: {policy}\n    pc: true")
            .replace("  orcs:\n    morale: 8", f"  orcs:\n    policy: {policy}\n    morale: 8"))


def fight_of(text: str, ruleset: str = "side-d6", seed: int = 1, code: tuple[str, ...] = ()) -> Fight[Any]:
    """``text``'s fight under ``--auto``; ``code``: the designer's module:function policies trusted (named on the
    command line: a file alone may not name one)."""
    return prepare(load_text(text, code=code), ruleset=ruleset, seed=seed, code=code).fight(auto=True)


def ask(fight: Fight[Any], name: str) -> Order:
    """What the fight's policy declares for ``name`` now (as ``Fight.declare`` asks it)."""
    decl = fight.policy(fight, fight.state.fighters[name])
    assert isinstance(decl, Order), decl
    return decl


def down(fight: Fight[Any], name: str) -> None:
    """``name`` falls (G-05), as the fight records it."""
    fight.record(Down((1, 9), "round 1", 1, name))


def test_registry_names_and_lookup() -> None:
    assert list(POLICIES) == ["default", "plain", "caster", "archer", "cautious", "tactical"]
    assert tuple(POLICIES) == POLICY_NAMES  # what the file format accepts is what the registry implements
    assert find_policy("tactical").name == "tactical"
    with pytest.raises(ValueError, match="unknown policy 'brave'; choose one of default, plain, caster"):
        find_policy("brave")
    assert all(len(p.doc) > 40 for p in POLICIES.values())  # each says what it does (docs/policies.md)


@pytest.mark.parametrize("ruleset", IDS)
@pytest.mark.parametrize("seed", [1, 7])
def test_explicit_default_policy_is_byte_identical_to_none(ruleset: str, seed: int) -> None:
    """``policy: default`` is what a file without any policy plays: the same timeline."""
    plain = prepare(load_text(SKIRMISH), ruleset=ruleset, seed=seed).fight(auto=True).run()
    named = prepare(load_text(with_side_policy(SKIRMISH, "default")), ruleset=ruleset, seed=seed).fight(
        auto=True).run()
    assert timeline_json(named) == timeline_json(plain)


# -- default: melee spread over the foes, within MJ-18 ----------------------------------------------------
LINE = """\
surprise: none
sides:
  party:
    combatants:
      - {name: F, count: 4, hp: 10, weapons: [{name: sword, sf: 5, damage: 1d8}]}
  orcs:
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def test_default_spreads_the_attackers_over_the_foes() -> None:
    """Nobody engaged: each takes the foe with the fewest of its side on it, the first in file order among
    equals. F 1: Orc 1 (0 and 0 on them) ; F 2: Orc 2 (Orc 1 has 1); F 3: Orc 1 (1 and 1); F 4: Orc 2 (2 and 1).
    The orcs alike: Orc 1 on F 1, Orc 2 on F 2."""
    fight = fight_of(LINE)
    assert [ask(fight, f"F {k}").melee for k in (1, 2, 3, 4)] == ["Orc 1", "Orc 2", "Orc 1", "Orc 2"]
    assert [ask(fight, f"Orc {k}").melee for k in (1, 2)] == ["F 1", "F 2"]
    assert ask(fight, "F 1").weapon == "sword"
    # asked again, each keeps to its foe while it stands
    assert [ask(fight, f"F {k}").melee for k in (1, 2, 3, 4)] == ["Orc 1", "Orc 2", "Orc 1", "Orc 2"]


def test_default_keeps_to_an_engaged_foe_and_forgets_the_fallen() -> None:
    """F 1, engaged with Orc 2 (as an attack would leave it), strikes Orc 2 though Orc 1 has nobody on it. Then
    F 2 -> Orc 1 (0 on it), F 3 -> Orc 1 (1 and 1: file order). F 2 falls: its claim on Orc 1 goes with it, so
    Orc 1 has 1 (F 3), Orc 2 1 (F 1): F 4 takes Orc 1, the first of the two."""
    fight = fight_of(LINE)
    f1, orc2 = fight.state.fighters["F 1"], fight.state.fighters["Orc 2"]
    f1.engaged, orc2.engaged = {"Orc 2"}, {"F 1"}
    assert ask(fight, "F 1").melee == "Orc 2"
    assert [ask(fight, "F 2").melee, ask(fight, "F 3").melee] == ["Orc 1", "Orc 1"]
    down(fight, "F 2")
    assert ask(fight, "F 4").melee == "Orc 1"
    # Orc 2 fell: F 1, engaged with nobody standing, takes the foe fewest are on: Orc 1 has F 3 and F 4 -> it
    down(fight, "Orc 2")
    assert ask(fight, "F 1").melee == "Orc 1"


CROWD = """\
surprise: none
sides:
  party:
    policy: tactical
    combatants:
      - {name: F, count: 9, hp: 10, weapons: [{name: sword, sf: 5, damage: 1d8}]}
  monsters:
    combatants:
      - {name: Weak, hd: 1, hp: 3, weapons: [{name: axe, sf: 7, damage: 1d8}]}
      - {name: Ogre, hd: 4, hp: 5, size: large, weapons: [{name: club, sf: 7, damage: 1d8}]}
      - {name: Strong, hd: 1, hp: 9, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def test_tactical_concentrates_on_the_weakest_within_the_encirclement_limit() -> None:
    """tactical strikes the foe with the fewest hit points it can reach, at most six around a man-sized foe and
    eight around a larger one (MJ-18): F 1-6 on Weak (3 hp); F 7 finds Weak encircled, and takes the Ogre (5 hp,
    large: room for eight) before Strong (9 hp)."""
    fight = fight_of(CROWD)
    assert [ask(fight, f"F {k}").melee for k in range(1, 8)] == ["Weak"] * 6 + ["Ogre"]


def test_default_spreads_within_the_encirclement_limit_too() -> None:
    """default with a single man-sized foe and a large one: spread (fewest first) never puts a seventh on the
    man-sized foe: F 1 Weak, F 2 Ogre, F 3 Strong, F 4 Weak ... (round robin in file order, one on each)."""
    fight = fight_of(CROWD.replace("policy: tactical", "policy: default"))
    assert [ask(fight, f"F {k}").melee for k in range(1, 10)] == ["Weak", "Ogre", "Strong"] * 3


def test_side_d6_refuses_nobody_the_default_sends() -> None:
    """25 against 25 under side-d6 (MJ-18 refuses a seventh around a man-sized foe): under the default no
    attack of round 1 is refused for want of room; under plain (everyone on the first foe in file order) 19 of
    the 25 are (issue 28's finding)."""
    text = """\
surprise: none
sides:
  a:
    pc: true
    combatants: [{name: A, count: 25, hp: 30, weapons: [{name: sword, sf: 5, damage: 1d8}]}]
  b:
    pc: true
    combatants: [{name: B, count: 25, hp: 30, weapons: [{name: sword, sf: 5, damage: 1d8}]}]
"""
    for policy, refused in (("default", 0), ("plain", 19)):
        result = prepare(load_text(text.replace("    pc: true", f"    pc: true\n    policy: {policy}")),
                         ruleset="side-d6", seed=1).fight(auto=True, max_rounds=1).run()
        no_room = [e for e in result.events if e.kind == "impossible" and e.why and "no room" in e.why
                   and e.actor is not None and e.actor.startswith("A ")]
        assert len(no_room) == refused, policy


# -- casters -----------------------------------------------------------------------------------------------
SLEEPERS = """\
sides:
  party:
    combatants:
      - name: Mina
        class: wizard
        level: 5
        hp: 13
        spells:
          - {name: sleep, level: 1, ct: 1, count: 2, effect: {condition: asleep, duration: 5 rounds, max_hd: 4}}
          - {name: magic missile, level: 1, ct: 1, damage: 1d4+1}
  goblins:
    combatants:
      - {name: Gob, count: 2, hd: 1, hp: 7, weapons: [{name: club, sf: 4, damage: 1d6}]}
      - {name: Ogre, hd: 5, hp: 30, weapons: [{name: club, sf: 4, damage: 1d6}]}
"""


def _hold(fight: Fight[Any], name: str, condition: str) -> None:
    """``name`` holds ``condition`` from before the fight to round 99, set by the referee's hand (G-09)."""
    fight.set_condition((0,), "before the fight", fight.state.fighters[name], condition,
                        Until((99,), "round 99"), by=None, rule="G-09")


def test_default_casts_sleep_at_the_side_when_it_takes_several_then_at_one() -> None:
    """Sleep (asleep: no action, so each goblin taken is worth its 7 hp; the 5 HD Ogre is above max_hd 4): at the
    side, 7 + 7 = 14; magic missile (1d4+1, mean 3.5) at best 3.5. Her blow (unarmed 1d2, mean 1.5) is worth less:
    sleep at "goblins". Gob 1 asleep: sleep takes Gob 2 alone (7), at Gob 2. Both asleep: sleep takes nobody
    (G-09); magic missile, 3.5 at every foe, goes to the first in file order, Gob 1."""
    fight = fight_of(SLEEPERS)
    assert (ask(fight, "Mina").cast, ask(fight, "Mina").at) == ("sleep", "goblins")
    _hold(fight, "Gob 1", "asleep")
    assert (ask(fight, "Mina").cast, ask(fight, "Mina").at) == ("sleep", "Gob 2")
    _hold(fight, "Gob 2", "asleep")
    assert (ask(fight, "Mina").cast, ask(fight, "Mina").at) == ("magic missile", "Gob 1")
    mina = fight.state.fighters["Mina"]
    assert isinstance(mina.pool, Memorized)
    mina.pool.left["magic missile"] = 0  # nothing left worth casting: her unarmed blow
    decl = ask(fight, "Mina")
    assert (decl.cast, decl.melee, decl.weapon) == (None, "Gob 1", "unarmed")


def test_a_damage_spell_goes_where_it_does_most() -> None:
    """Magic missile's mean 3.5, no more than the foe's hit points: Gob 1 at 2 hp is worth 2, Gob 2 (7 hp) 3.5:
    it goes to Gob 2."""
    fight = fight_of(SLEEPERS)
    fight.state.fighters["Mina"].pool.left["sleep"] = 0  # type: ignore[attr-defined]
    fight.state.fighters["Gob 1"].hp = 2
    assert (ask(fight, "Mina").cast, ask(fight, "Mina").at) == ("magic missile", "Gob 2")


FIGHTER_MAGE = """\
sides:
  party:
    combatants:
      - {name: Elf, class: fighter, level: 5, thac0: 10, hp: 30, weapons: [{name: long sword, sf: 5, damage: 1d8}],
         spells: [{name: light, level: 1, ct: 1}, {name: shocking grasp, level: 1, ct: 1, touch: true,
                   damage: 1d8}]}
  orcs:
    combatants:
      - {name: Orc, hd: 1, hp: 30, ac: 10, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def test_default_casts_only_what_beats_its_blow_and_caster_casts_anyway() -> None:
    """The elf's blow: THAC0 10 against AC 10 needs 0 on the d20: 95% (a natural 1 misses, G-04) x 1 attack x
    1d8's mean 4.5 = 4.275 a round. Light says nothing of what it does: worth its level in magic missiles, 3.5 <
    4.275, so default strikes; caster casts it anyway. Shocking grasp is a touch spell (C2-10): never chosen."""
    fight = fight_of(FIGHTER_MAGE)
    decl = ask(fight, "Elf")
    assert (decl.melee, decl.weapon) == ("Orc", "long sword")
    fight = fight_of(FIGHTER_MAGE.replace("  party:\n", "  party:\n    policy: caster\n"))
    assert (ask(fight, "Elf").cast, ask(fight, "Elf").at) == ("light", "Orc")
    fight.state.fighters["Elf"].pool.left["light"] = 0  # type: ignore[attr-defined]
    assert ask(fight, "Elf").melee == "Orc"


def test_caster_under_mana_pays_from_the_pool() -> None:
    """spells: mana (C2X-06): a 5th-level wizard's pool; with 0 points left nothing can be paid for."""
    fight = prepare(load_text(SLEEPERS), ruleset="side-d6", seed=1, options={"spells": "mana"}).fight(auto=True)
    mina = fight.state.fighters["Mina"]
    assert isinstance(mina.pool, ManaPool)
    assert ask(fight, "Mina").cast == "sleep"
    mina.pool.mana = 0
    assert ask(fight, "Mina").melee == "Gob 1"


# -- missiles ----------------------------------------------------------------------------------------------
ARCHERS = """\
sides:
  party:
    combatants:
      - {name: Ash, hp: 12, weapons: [{name: sword, sf: 5, damage: 1d8}, {name: bow, sf: 7, damage: 1d6,
         kind: missile}]}
      - {name: Tom, hp: 12, weapons: [{name: sword, sf: 5, damage: 1d8}, {name: spear, sf: 6, damage: 1d6,
         kind: thrown}]}
  orcs:
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 30, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def test_default_shoots_before_closing_then_fights_in_melee() -> None:
    """Ash shoots its bow (not first in its list) at the first foe not in melee; Orc 1 in melee: at Orc 2. Engaged
    itself: its sword. Tom's spear is thrown, not shot: default closes with its sword (archer throws it)."""
    fight = fight_of(ARCHERS)
    decl = ask(fight, "Ash")
    assert (decl.missile, decl.weapon) == ("Orc 1", "bow")
    fight.state.fighters["Orc 1"].engaged = {"someone"}
    assert ask(fight, "Ash").missile == "Orc 2"
    fight.state.fighters["Ash"].engaged = {"Orc 2"}
    decl = ask(fight, "Ash")
    assert (decl.melee, decl.weapon) == ("Orc 2", "sword")
    assert ask(fight, "Tom").melee is not None
    fight = fight_of(ARCHERS.replace("  party:\n", "  party:\n    policy: archer\n"))
    decl = ask(fight, "Tom")
    assert (decl.missile, decl.weapon) == ("Orc 1", "spear")


def test_archer_steps_back_out_of_melee_while_an_ally_fights_on() -> None:
    fight = fight_of(ARCHERS.replace("  party:\n", "  party:\n    policy: archer\n"))
    ash = fight.state.fighters["Ash"]
    ash.engaged = {"Orc 1"}
    decl = ask(fight, "Ash")
    assert (decl.move, decl.mode) == (10, "withdraw")
    fight.state.fighters["Tom"].hp = 3  # 3 of 12 is a quarter: Tom no longer covers it
    assert ask(fight, "Ash").melee == "Orc 1"


# -- the hurt --------------------------------------------------------------------------------------------
def test_default_the_badly_hurt_step_back_while_an_ally_fights_on() -> None:
    """12 hp: 3 or less (a quarter) and engaged, with Tom above a quarter: withdraw 10 ft (D12-17's most). Out of
    melee and still hurt, Ash shoots from where it stands; Tom at a quarter too: nobody covers, Ash fights on."""
    fight = fight_of(ARCHERS)
    ash = fight.state.fighters["Ash"]
    ash.engaged, ash.hp = {"Orc 1"}, 4
    assert ask(fight, "Ash").melee == "Orc 1"  # 4 > 3: not yet
    ash.hp = 3
    decl = ask(fight, "Ash")
    assert (decl.move, decl.mode) == (10, "withdraw")
    ash.engaged = set()
    assert ask(fight, "Ash").missile == "Orc 1"
    fight.state.fighters["Tom"].hp = 3
    ash.engaged = {"Orc 1"}
    assert ask(fight, "Ash").melee == "Orc 1"


def test_cautious_withdraws_at_half_and_flees_at_a_quarter() -> None:
    """12 hp: 6 or less (half) and engaged withdraws 10 ft; 3 or less (a quarter) flees its full move, MV 12 =
    120 ft, even with nobody to cover it."""
    fight = fight_of(ARCHERS.replace("  party:\n", "  party:\n    policy: cautious\n"))
    ash = fight.state.fighters["Ash"]
    ash.engaged = {"Orc 1"}
    ash.hp = 7
    assert ask(fight, "Ash").melee == "Orc 1"
    ash.hp = 6
    decl = ask(fight, "Ash")
    assert (decl.move, decl.mode) == (10, "withdraw")
    ash.hp = 3
    fight.state.fighters["Tom"].hp = 1
    decl = ask(fight, "Ash")
    assert (decl.move, decl.mode) == (120, "flee")


def test_plain_is_the_old_default_first_enemy_in_file_order() -> None:
    fight = fight_of(LINE.replace("  party:\n", "  party:\n    policy: plain\n"))
    assert [ask(fight, f"F {k}").melee for k in (1, 2, 3, 4)] == ["Orc 1"] * 4
    fight = fight_of(SLEEPERS.replace("  party:\n", "  party:\n    policy: plain\n"))
    decl = ask(fight, "Mina")
    assert (decl.cast, decl.melee, decl.weapon) == (None, "Gob 1", "unarmed")


def test_a_combatants_policy_overrides_its_sides() -> None:
    text = SLEEPERS.replace("  party:\n", "  party:\n    policy: plain\n").replace(
        "        hp: 13\n", "        hp: 13\n        policy: caster\n")
    fight = fight_of(text)
    assert ask(fight, "Mina").cast == "sleep"
    assert choose(fight, fight.state.fighters["Mina"]).cast == "sleep"  # type: ignore[union-attr]


# -- whole fights ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", IDS)
def test_every_policy_plays_valid_declarations_under_every_ruleset(ruleset: str) -> None:
    """The skirmish (its spells given damage, Mina's plan taken away) to the end under each policy: nothing
    raises, every fight ends or runs out of rounds, Mina casts under every policy but plain (she has no weapon:
    plain's is an unarmed blow), and under cautious somebody withdraws or flees."""
    text = SKIRMISH.replace("components: VS}", "components: VS, damage: 1d4+1}")
    text = text.replace("""  Mina:
    - cast: magic missile
      at: Orc Captain
    - cast: web
      at: orcs
""", "")
    assert "at: Orc Captain" not in text
    casts: dict[str, int] = {}
    moves: set[str] = set()
    for policy in POLICIES:
        casts[policy] = 0
        # cautious over nine seeds: since fireball's save for half (issue 39) fewer of its orcs fall at once, and in
        # six fights under speed-segments nobody of the party is hurt enough to withdraw (seed 8: one is)
        for seed in range(9 if policy == "cautious" else 6):
            result = prepare(load_text(with_side_policy(text, policy)), ruleset=ruleset, seed=seed).fight(
                auto=True, max_rounds=60).run()
            assert result.final.winner is not None or result.rounds == 60
            casts[policy] += sum(1 for e in result.events if e.kind == "cast")
            if policy == "cautious":
                moves.update(str(e.mode) for e in result.events if isinstance(e, Move))
    assert casts["plain"] == 0
    assert all(casts[p] > 0 for p in POLICIES if p != "plain"), casts
    assert moves & {"withdraw", "flee"}


def test_an_unknown_policy_is_bad_input_naming_file_field_and_choices(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(with_side_policy(SKIRMISH, "brave"), encoding="utf-8")
    done = affray_here("check", path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    # line 6: the skirmish's comment, ruleset, seed, sides and party come first
    assert f"{path}:6: sides.party.policy: unknown policy 'brave'; choose one of default, plain, caster, archer, " \
           "cautious, tactical, or one an installed package registers (entry point group affray.policies); a " \
           "designer's own module:function is named on the command line (--policy SIDE=mypolicies:brave)" \
           in done.stderr


@pytest.mark.parametrize("condition", ["asleep", "held", "paralysed", "unconscious", "stunned"])
def test_g_09_an_incapacitated_combatant_is_never_asked_by_its_policy(condition: str) -> None:
    """"No action: it declares nothing and is asked nothing" (G-09): at its declaration point the fight emits a
    ``delay`` and returns no declaration, and the policy is not called at all (a spy counts the calls)."""
    fight = fight_of(SLEEPERS)
    asked: list[str] = []
    policy = fight.policy
    fight.policy = lambda fight_, f: asked.append(f.name) or policy(fight_, f)  # type: ignore[func-returns-value]
    _hold(fight, "Mina", condition)
    mina = fight.state.fighters["Mina"]
    assert fight.declare(mina, (1,), "round 1") is None
    assert asked == []
    assert fight.events[-1].kind == "delay"
    # the goblin, free, is asked and gets the default blow: Mina is the only foe
    gob = fight.state.fighters["Gob 1"]
    decl = fight.declare(gob, (1,), "round 1")
    assert asked == ["Gob 1"] and decl is not None and decl.melee == "Mina"


@pytest.mark.parametrize("policy", list(POLICY_NAMES))
def test_g_09_a_fleeing_combatant_flees_whatever_its_policy(policy: str) -> None:
    """``fleeing`` (2e PH: fear): each declaration is a flight at its full move, MV 12 x 10 = 120 ft; the policy,
    even a caster with spells left, is not asked."""
    fight = fight_of(SLEEPERS.replace("  party:\n", f"  party:\n    policy: {policy}\n"))
    asked: list[str] = []
    fight.policy = lambda fight_, f: asked.append(f.name)  # type: ignore[func-returns-value, assignment]
    _hold(fight, "Mina", "fleeing")
    decl = fight.declare(fight.state.fighters["Mina"], (1,), "round 1")
    assert decl is not None and (decl.move, decl.mode) == (120, "flee")
    assert asked == []


@pytest.mark.parametrize("ruleset", IDS)
def test_g_09_a_caster_never_wastes_a_sleep(ruleset: str) -> None:
    """Whole fights under --auto (Mina given 60 hp to live long enough, seeds 1-4): every sleep Mina declares
    is aimed at the goblins' side while both goblins are awake, or at the one goblin awake; never at one
    asleep, never at the Ogre (5 HD > max_hd 4, G-09). And she does declare sleep in these fights (whether it
    goes off is the ruleset's: phase-count's goblins strike her mid-casting, G-11)."""
    text = SLEEPERS.replace("hp: 13", "hp: 60")
    sleeps = 0
    for seed in range(1, 5):
        result = prepare(load_text(text), ruleset=ruleset, seed=seed).fight(auto=True, max_rounds=30).run()
        asleep: set[str] = set()
        for e in result.events:
            if isinstance(e, Condition) and e.condition == "asleep" and e.target is not None:
                asleep.add(e.target)
            elif isinstance(e, Expire) and e.condition == "asleep" and e.target is not None:
                asleep.discard(e.target)
            elif isinstance(e, Declare) and e.decl is not None and e.decl.cast == "sleep" and not e.continuing:
                sleeps += 1
                awake = {"Gob 1", "Gob 2"} - asleep
                assert e.decl.at in (awake | ({"goblins"} if len(awake) == 2 else set())), (seed, e)
    assert sleeps >= 1


# -- a designer's policy -----------------------------------------------------------------------------------
DESIGNER = '''\
from affray.policy import enemies, play


def last(fight, me):
    """Strike the last enemy in file order; a wizard plays default."""
    if me.spells:
        return play("default", fight, me)
    foes = enemies(fight, me)
    return {"melee": foes[-1].name} if foes else None


def nobody(fight, me):
    return {"melee": "Nobody"}


def broken(fight, me):
    return 1 / 0


def junk(fight, me):
    return 42
'''


@pytest.fixture
def designer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A module of the designer's, in the current directory (as `affray` finds it)."""
    (tmp_path / "mypolicies.py").write_text(DESIGNER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_designers_policy_plays_its_own_choices(designer: Path) -> None:
    fight = fight_of(LINE.replace("  party:\n", "  party:\n    policy: mypolicies:last\n"), code=("mypolicies:last",))
    assert ask(fight, "F 1").melee == "Orc 2"  # a mapping, checked and made a declaration
    result = fight.run()
    firsts = [e for e in result.events if isinstance(e, Declare) and e.actor == "F 1" and e.decl is not None]
    assert firsts[0].decl.melee == "Orc 2"  # type: ignore[union-attr]
    fight = fight_of(SLEEPERS.replace("  party:\n", "  party:\n    policy: mypolicies:last\n"),
                     code=("mypolicies:last",))
    assert ask(fight, "Mina").cast == "sleep"  # play("default", ...)


@pytest.mark.parametrize(("ref", "message"), [
    ("mypolicies:nobody", "policy mypolicies:nobody: declared {'melee': 'Nobody'} for F 1 at round 1, "
                          "surprise: no combatant named 'Nobody' to attack (combatants: F 1, F 2, F 3, F 4, Orc 1, "
                          "Orc 2)"),
    ("mypolicies:broken", "policy mypolicies:broken: raised ZeroDivisionError: division by zero ("),
    ("mypolicies:junk", "policy mypolicies:junk: declared 42 for F 1"),
])
def test_a_designers_policy_that_fails_is_told_plainly(designer: Path, ref: str, message: str) -> None:
    fight = fight_of(LINE.replace("  party:\n", f"  party:\n    policy: {ref}\n"), code=(ref,))
    with pytest.raises(PolicyError, match="^<encounter>: " + re.escape(message)):
        fight.run()


@pytest.mark.parametrize(("ref", "message"), [
    ("nosuchmodule:x", "policy nosuchmodule:x: no module named 'nosuchmodule'"),
    # a file may name a policy: nothing of the standard library is imported for it (os:system, webbrowser:open)
    ("os:system", "policy os:system: 'os' is a module of Python's standard library, not a designer's policy"),
    ("xml.dom:x", "policy xml.dom:x: 'xml.dom' is a module of Python's standard library"),
    ("mypolicies:absent", "policy mypolicies:absent: module 'mypolicies' has no 'absent' (its functions: broken, "
                          "enemies, junk, last, nobody, play)"),
    ("brave", "unknown policy 'brave': no built-in policy (default, plain, caster, archer, cautious, tactical), "
              "and no installed package registers it (entry point group affray.policies)"),
])
def test_a_designers_policy_that_cannot_be_loaded(designer: Path, ref: str, message: str) -> None:
    with pytest.raises(PolicyError) as exc:
        load_policy(ref)
    assert message in str(exc.value)


def test_bad_policy_on_the_command_line_exits_2_naming_the_field(designer: Path) -> None:
    path = designer / "line.yaml"
    path.write_text(LINE, encoding="utf-8")
    for args, message in (
            (("--policy", "party=mypolicies:absent"), f"{path}: --policy party=mypolicies:absent: policy "
                                                      "mypolicies:absent: module 'mypolicies' has no 'absent'"),
            (("--policy", "party=nosuch:x"), f"{path}: --policy party=nosuch:x: policy nosuch:x: no module named"),
            (("--policy", "brave"), f"{path}: --policy brave: unknown policy 'brave': no built-in policy"),
            (("--policy", "party=mypolicies:broken"), "policy mypolicies:broken: raised ZeroDivisionError"),
            (("--policy", "elves=plain"), "--policy 'elves=plain': no side 'elves' (sides: party, orcs)"),
            (("--policy", "party=plain,caster"), "one policy a side for one fight (`affray simulate` sweeps")):
        for command in (["run", str(path), "--ruleset", "side-d6", "--auto"],
                        ["drive", str(path), "--ruleset", "side-d6", "--auto"]):
            done = affray_here(*command, *args, cwd=designer, stdin="")
            assert done.returncode == 2, (command, args, done.stdout[-500:], done.stderr)
            assert "Traceback" not in done.stderr and message in done.stderr, (command, done.stderr)


def test_policy_on_the_command_line_plays_the_named_policy(designer: Path) -> None:
    """``--policy party=mypolicies:last`` on run: F 1's first declaration is the designer's; ``--policy plain``
    (every side) on run and play gives the timeline of a file that says ``policy: plain`` on each side.

    The first is run as a process of its own: the installed ``affray``'s ``sys.path`` does not hold the current
    directory (this process's holds the designer's, and imported the module already), so only there does the
    designer's module have to be found where ``load_policy`` says, the current directory."""
    path = designer / "line.yaml"
    path.write_text(LINE, encoding="utf-8")
    done = subprocess.run([AFFRAY, "run", str(path), "--ruleset", "side-d6", "--seed", "2", "--auto", "--json",
                           "--policy", "party=mypolicies:last"], capture_output=True, text=True, timeout=60,
                          cwd=designer)
    assert done.returncode == 0, done.stderr
    assert '"detail": "melee Orc 2 with sword (auto)"' in done.stdout
    both = designer / "both.yaml"
    both.write_text(LINE.replace("  party:\n", "  party:\n    policy: plain\n").replace(
        "  orcs:\n", "  orcs:\n    policy: plain\n"), encoding="utf-8")
    runs = [affray_here("run", p, "--ruleset", "side-d6", "--seed", "2", "--auto", "--json", *extra,
                        cwd=designer).stdout
            for p, extra in ((path, ["--policy", "plain"]), (both, []))]
    assert runs[0] == runs[1] and '"winner"' in runs[0]


def test_an_entry_point_registers_a_policy(designer: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed package's entry point (group affray.policies) names a policy a file may give by its name."""
    dist = designer / "brave_policies-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: brave-policies\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[affray.policies]\nlast-standing = mypolicies:last\n", encoding="utf-8")
    from affray.extensions import forget

    forget()  # the entry points are read once a process: read them again with this one installed
    try:
        fight = fight_of(LINE.replace("  party:\n", "  party:\n    policy: last-standing\n"))
        assert ask(fight, "F 1").melee == "Orc 2"
        assert isinstance(fight.policy, Auto)
    finally:
        forget()
