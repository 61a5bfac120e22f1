"""Auto-play policies (affray.policy): what ``--auto`` declares once a plan is used up, under every ruleset."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from affray import RULESETS, load_text, prepare, timeline_json
from affray.engine.events import Condition, Declare, Expire, Move
from affray.engine.fight import Fight
from affray.engine.state import Memorized
from affray.engine.step import Until
from affray.model.encounter import POLICY_NAMES
from affray.plugins.mana import ManaPool
from affray.policy import POLICIES, choose, find_policy
from conftest import EXAMPLES

AFFRAY = str(Path(sys.executable).parent / "affray")
IDS = [r.id for r in RULESETS]
SKIRMISH = (EXAMPLES / "skirmish.yaml").read_text(encoding="utf-8")


def with_side_policy(text: str, policy: str) -> str:
    """The skirmish with ``policy:`` on both sides."""
    return (text.replace("  party:\n    pc: true", f"  party:\n    policy: {policy}\n    pc: true")
            .replace("  orcs:\n    morale: 8", f"  orcs:\n    policy: {policy}\n    morale: 8"))


def fight_of(text: str, ruleset: str = "side-d6", seed: int = 1) -> Fight[Any]:
    return prepare(load_text(text), ruleset=ruleset, seed=seed).fight(auto=True)


WIZARD = """\
sides:
  party:
    policy: caster
    combatants:
      - name: Mina
        class: wizard
        level: 9
        hp: 20
        spells:
          - {name: magic missile, level: 1, ct: 1, damage: 1d4+1}
          - {name: shocking grasp, level: 1, ct: 1, touch: true, damage: 1d8}
          - {name: lightning bolt, level: 3, ct: 3, damage: 2d6}
          - {name: fireball, level: 3, ct: 3, damage: 3d6}
          - {name: light, level: 1, ct: 1}
  orcs:
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 30, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def test_registry_names_and_lookup() -> None:
    assert list(POLICIES) == ["default", "caster", "archer", "cautious", "tactical"]
    assert tuple(POLICIES) == POLICY_NAMES  # what the file format accepts is what the registry implements
    assert find_policy("tactical").name == "tactical"
    with pytest.raises(ValueError, match="unknown policy 'brave'; choose one of default, caster"):
        find_policy("brave")


@pytest.mark.parametrize("ruleset", IDS)
@pytest.mark.parametrize("seed", [1, 7])
def test_explicit_default_policy_is_byte_identical_to_none(ruleset: str, seed: int) -> None:
    """``policy: default`` is today's default action: the same timeline as a file without any policy."""
    plain = prepare(load_text(SKIRMISH), ruleset=ruleset, seed=seed).fight(auto=True).run()
    named = prepare(load_text(with_side_policy(SKIRMISH, "default")), ruleset=ruleset, seed=seed).fight(
        auto=True).run()
    assert timeline_json(named) == timeline_json(plain)


def test_a_combatants_policy_overrides_its_sides() -> None:
    text = WIZARD.replace("        hp: 20\n", "        hp: 20\n        policy: default\n")
    fight = fight_of(text)
    mina = fight.state.fighters["Mina"]
    # default for a combatant without weapons: the unarmed melee on the first living enemy
    assert choose(fight, mina) == POLICIES["default"].choose(fight, mina)
    assert choose(fight, mina).melee == "Orc 1"  # type: ignore[union-attr]


def test_caster_casts_the_highest_level_then_most_damage_first() -> None:
    """Level 3 beats level 1; of the two level 3 spells fireball's 3d6 (mean 10.5) beats 2d6 (7)."""
    fight = fight_of(WIZARD)
    decl = choose(fight, fight.state.fighters["Mina"])
    assert decl is not None
    assert (decl.cast, decl.at) == ("fireball", "Orc 1")


def test_caster_skips_what_it_cannot_pay_for_and_touch_spells() -> None:
    """Once both level 3 spells are gone, magic missile (level 1, 1d4+1: mean 3.5) beats light (level 1, no
    damage); shocking grasp is a touch spell (C2-10), never chosen; with nothing left, the default melee."""
    fight = fight_of(WIZARD)
    mina = fight.state.fighters["Mina"]
    assert isinstance(mina.pool, Memorized)
    mina.pool.left["fireball"] = mina.pool.left["lightning bolt"] = 0
    decl = choose(fight, mina)
    assert decl is not None and decl.cast == "magic missile"
    mina.pool.left["magic missile"] = mina.pool.left["light"] = 0
    decl = choose(fight, mina)
    assert decl is not None and decl.melee == "Orc 1"


def test_caster_under_mana_pays_from_the_pool() -> None:
    """spells: mana (C2X-06): a 9th-level wizard's pool; with 2 points left no level 3 spell can be paid for."""
    fight = prepare(load_text(WIZARD), ruleset="side-d6", seed=1, options={"spells": "mana"}).fight(auto=True)
    mina = fight.state.fighters["Mina"]
    assert isinstance(mina.pool, ManaPool)
    mina.pool.mana = 2
    decl = choose(fight, mina)
    assert decl is not None and decl.cast == "magic missile"


ARCHERS = """\
sides:
  party:
    policy: archer
    combatants:
      - {name: Ash, hp: 10, weapons: [{name: sword, sf: 5, damage: 1d8}, {name: bow, sf: 7, damage: 1d6,
         kind: missile}]}
  orcs:
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 30, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def test_archer_shoots_a_missile_weapon_it_carries_even_when_not_first() -> None:
    fight = fight_of(ARCHERS)
    ash = fight.state.fighters["Ash"]
    decl = choose(fight, ash)
    assert decl is not None and (decl.missile, decl.weapon) == ("Orc 1", "bow")
    # an enemy already in melee is passed over for one that is not (a shot into melee may strike anyone, MJ-16)
    fight.state.fighters["Orc 1"].engaged = {"someone"}
    assert choose(fight, ash).missile == "Orc 2"  # type: ignore[union-attr]
    # engaged itself: the default, a melee with its first melee weapon
    ash.engaged = {"Orc 2"}
    decl = choose(fight, ash)
    assert decl is not None and (decl.melee, decl.weapon) == ("Orc 2", "sword")


def test_cautious_withdraws_at_half_and_flees_at_a_quarter() -> None:
    """10 hp: 5 or less (half) and engaged withdraws 10 ft; 2 or less (a quarter: 2.5) flees its full move."""
    fight = fight_of(ARCHERS.replace("policy: archer", "policy: cautious"))
    ash = fight.state.fighters["Ash"]
    ash.engaged = {"Orc 1"}
    ash.hp = 6
    assert choose(fight, ash).melee == "Orc 1"  # type: ignore[union-attr]
    ash.hp = 5
    decl = choose(fight, ash)
    assert decl is not None and (decl.move, decl.mode) == (10, "withdraw")
    ash.hp = 2
    decl = choose(fight, ash)
    assert decl is not None and (decl.move, decl.mode) == (120, "flee")  # MV 12 = 120 ft


@pytest.mark.parametrize("ruleset", IDS)
def test_every_policy_plays_valid_declarations_under_every_ruleset(ruleset: str) -> None:
    """The skirmish (its spells given damage, Mina's plan taken away) to the end under each policy: nothing
    raises, every fight ends or runs out of rounds, Mina casts under caster and never under default (she has
    no plan and no weapon: the default is an unarmed blow), and under tactical somebody withdraws or flees."""
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
        for seed in range(6):
            result = prepare(load_text(with_side_policy(text, policy)), ruleset=ruleset, seed=seed).fight(
                auto=True, max_rounds=60).run()
            assert result.final.winner is not None or result.rounds == 60
            casts[policy] += sum(1 for e in result.events if e.kind == "cast")
            if policy == "tactical":
                moves.update(str(e.mode) for e in result.events if isinstance(e, Move))
    assert casts["default"] == 0
    assert casts["caster"] > 0
    assert moves & {"withdraw", "flee"}


def test_an_unknown_policy_is_bad_input_naming_file_field_and_choices(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(with_side_policy(SKIRMISH, "brave"), encoding="utf-8")
    done = subprocess.run([AFFRAY, "check", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    # line 6: the skirmish's comment, ruleset, seed, sides and party come first
    assert f"{path}:6: sides.party.policy: unknown policy 'brave'; choose one of default, caster, archer, " \
           "cautious, tactical" in done.stderr


SLEEPERS = """\
sides:
  party:
    policy: caster
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


def test_g_09_caster_spares_a_sleep_for_a_target_it_would_change() -> None:
    """Both level 1: magic missile's 1d4+1 (mean 3.5) ranks above sleep (no damage, mean 0), so take it away first.
    Sleep then goes to Gob 1 (the first living enemy); with Gob 1 asleep, to Gob 2; with both asleep the Ogre
    (5 HD) is above sleep's max_hd 4 and unaffected (G-09), so no sleep is worth casting: the default blow."""
    fight = fight_of(SLEEPERS)
    mina = fight.state.fighters["Mina"]
    assert isinstance(mina.pool, Memorized)
    assert choose(fight, mina) == POLICIES["caster"].choose(fight, mina)
    assert (choose(fight, mina).cast, choose(fight, mina).at) == ("magic missile", "Gob 1")  # type: ignore[union-attr]
    mina.pool.left["magic missile"] = 0
    assert (choose(fight, mina).cast, choose(fight, mina).at) == ("sleep", "Gob 1")  # type: ignore[union-attr]
    _hold(fight, "Gob 1", "asleep")
    assert (choose(fight, mina).cast, choose(fight, mina).at) == ("sleep", "Gob 2")  # type: ignore[union-attr]
    _hold(fight, "Gob 2", "asleep")
    decl = choose(fight, mina)
    assert decl is not None and (decl.cast, decl.melee, decl.weapon) == (None, "Gob 1", "unarmed")


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
    # the goblin, free, is asked and gets the default blow at the first living enemy, Mina
    gob = fight.state.fighters["Gob 1"]
    decl = fight.declare(gob, (1,), "round 1")
    assert asked == ["Gob 1"] and decl is not None and decl.melee == "Mina"


@pytest.mark.parametrize("policy", list(POLICY_NAMES))
def test_g_09_a_fleeing_combatant_flees_whatever_its_policy(policy: str) -> None:
    """``fleeing`` (2e PH: fear): each declaration is a flight at its full move, MV 12 x 10 = 120 ft; the policy,
    even a caster with spells left, is not asked."""
    fight = fight_of(SLEEPERS.replace("policy: caster", f"policy: {policy}"))
    asked: list[str] = []
    fight.policy = lambda fight_, f: asked.append(f.name)  # type: ignore[func-returns-value, assignment]
    _hold(fight, "Mina", "fleeing")
    decl = fight.declare(fight.state.fighters["Mina"], (1,), "round 1")
    assert decl is not None and (decl.move, decl.mode) == (120, "flee")
    assert asked == []


@pytest.mark.parametrize("ruleset", IDS)
def test_g_09_a_caster_policy_never_wastes_a_sleep(ruleset: str) -> None:
    """Whole fights under --auto (Mina given 60 hp to live long enough, seeds 1-4): Mina (caster) casts magic
    missile, then sleep; every sleep she declares is aimed at a goblin awake at that moment, never at one already
    asleep, never at the Ogre (5 HD > max_hd 4, G-09). And she does declare sleep in these fights (whether it goes
    off is the ruleset's: phase-count's goblins strike her mid-casting, G-11)."""
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
                assert e.decl.at in ("Gob 1", "Gob 2") and e.decl.at not in asleep, (seed, e)
    assert sleeps >= 1
