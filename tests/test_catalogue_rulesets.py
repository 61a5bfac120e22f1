"""The catalogue under every ruleset (issue 39): every monster fights under all six, a monster's routine strikes each
of its attack forms with its own dice, a natural attack has a speed where a ruleset times by it (speed-segments:
SEG-08's Decision, option ``natural_spd``), a manufactured weapon its Player's Handbook speed factor, and horns and
tusks may charge (MJ-12, seed 001).

Figures cite the source the catalogue cites: Old-School Essentials' SRD (OGL) for the monsters, checked here against
an open transcription of it (nerun/ose-srd, the SRD in Portuguese); the 2e PH's Table 44 for weapons.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from affray import RULESETS
from affray.api import prepare
from affray.catalogue import MonsterEntry, package_catalogue
from affray.dice.expr import parse_dice
from affray.io.load import expand, load_text

CAT = package_catalogue()
MONSTERS = CAT.names("monsters")
IDS = [cls.id for cls in RULESETS]


def _every_monster() -> str:
    """Sixteen sturdy player characters who only stand (``none``, repeated) against one of every catalogue monster,
    played by the default policy: what each monster does is its own, never a reply to a blow. Sixteen: side-d6 lets
    six at most encircle a man-sized foe (MJ-18), and 76 monsters need 13 foes at least."""
    foes = "\n".join(f"      - {{monster: {name}, name: M{i}, hp: 40}}" for i, name in enumerate(MONSTERS))
    party = "\n".join(f"      - {{name: PC{i}, class: fighter, level: 9, hp: 10000, ac: 10}}" for i in range(16))
    head = ("seed: 39\nsurprise: none\nsides:\n  party:\n    pc: true\n    declare: repeat\n    combatants:\n"
            + party + "\n  monsters:\n    declare: auto\n    morale: 20\n    combatants:\n" + foes + "\n")
    return head + "plan:\n" + "".join(f"  PC{i}: [{{none: true}}]\n" for i in range(16))


def _most(damage: str) -> int:
    dice = parse_dice(damage)
    return sum(n * s for n, s in dice.groups) + dice.bonus


@pytest.mark.parametrize("ruleset", IDS)
def test_every_catalogue_monster_fights_under_every_ruleset(ruleset: str) -> None:
    """All 76 monsters in one fight under each ruleset: each attacks, each blow's damage within its own weapon's dice
    (a medium target: ``damage``), and a monster of several attack forms strikes every one of them (its routine)."""
    assert len(MONSTERS) == 76  # the count: every entry, the other names of one included
    loaded = load_text(_every_monster(), "every.yaml")
    fight = prepare(loaded, ruleset=ruleset).fight(max_rounds=3)
    result = fight.run()
    specs = {name: c for name, _side, c, _loc in expand(fight.encounter)}
    by_name = {f"M{i}": m for i, m in enumerate(MONSTERS)}
    struck: dict[str, set[str]] = {}
    for e in result.events:
        if e.kind in ("melee", "missile") and e.actor in by_name:
            weapon = next(w for w in specs[e.actor].weapons if w.name == e.weapon)
            assert 0 <= e.damage <= _most(str(weapon.damage)), (ruleset, by_name[e.actor], e.weapon, e.damage)
            struck.setdefault(e.actor, set()).add(str(e.weapon))
    missing = sorted(by_name[n] for n in by_name if n not in struck)
    assert not missing, (ruleset, missing)
    for name, monster in by_name.items():
        melee = {w.name for w in specs[name].weapons if w.kind == "melee"}
        if specs[name].attacks is not None and specs[name].attacks == len(specs[name].weapons) > 1:
            assert struck[name] == melee, (ruleset, monster, struck[name])  # every form of its routine


def _troll_fight(ruleset: str, seed: int) -> Any:
    text = textwrap.dedent(f"""\
        seed: {seed}
        surprise: none
        sides:
          party:
            pc: true
            combatants:
              - {{name: Brom, class: fighter, level: 5, hp: 500, ac: 5, weapons: [long sword]}}
          trolls:
            combatants:
              - {{monster: troll, hp: 500}}
        plan:
          Brom: [{{none: true}}, {{none: true}}, {{none: true}}, {{none: true}}]
          Troll: [{{melee: Brom}}, {{melee: Brom}}, {{melee: Brom}}, {{melee: Brom}}]
        """)
    return prepare(load_text(text, "troll.yaml"), ruleset=ruleset).fight(max_rounds=4).run()


@pytest.mark.parametrize("ruleset", IDS)
def test_the_trolls_routine_is_two_claws_and_a_bite(ruleset: str) -> None:
    # OSE SRD, Troll: "2 x claw (1d6), 1 x bite (1d10)" (nerun/ose-srd: "2 x garras (1d6), 1 x mordida (1d10)"), 3
    # attacks a round. Before issue 39 every ruleset struck the first form ("talon") three times: 3d6 a round. Now
    # each routine is claw, claw, bite, and each form's damage is its own dice: a claw 1-6, the bite 1-10, over seeds
    # enough that a bite above 6 shows the bite is not rolled on a claw's d6.
    bites_above_6 = 0
    for seed in range(1, 9):
        result = _troll_fight(ruleset, seed)
        blows = [e for e in result.events if e.kind == "melee" and e.actor == "Troll"]
        seq = [str(e.weapon) for e in blows]
        claws, bites = seq.count("claw"), seq.count("bite")
        assert len(seq) >= 5 and claws + bites == len(seq)
        assert all(0 <= e.damage <= 6 for e in blows if e.weapon == "claw")
        assert all(0 <= e.damage <= 10 for e in blows if e.weapon == "bite")
        bites_above_6 += sum(1 for e in blows if e.weapon == "bite" and e.damage > 6)
        if ruleset == "phase-count":  # PC-04: an action's attacks at p, p+1, p+2; the fight's end may cut the last
            assert seq == (["claw", "claw", "bite"] * len(seq))[:len(seq)], seq
        elif ruleset == "speed-segments":  # SEG-08: a claw used again falls at twice its Spd, 12 for a large troll
            assert claws in (2 * bites, 2 * bites - 1), seq  # and may spill into the next round (SEG-01)
        else:  # a round (Combat II's cycle) holds one routine: C2-07's one action, MJ-05's step 7, D12-10's turn
            per_round: dict[Any, list[str]] = {}
            for e in blows:
                per_round.setdefault(e.round if e.round is not None else e.tick[0], []).append(str(e.weapon))
            assert all(sorted(w) == ["bite", "claw", "claw"] for w in per_round.values()), per_round
    assert bites_above_6 > 0


def test_the_ogres_club_is_the_players_handbooks() -> None:
    # OSE SRD, Ogre: "1 x club (1d10)"; 2e PH Table 44: club SF 4. The damage is the ogre's, against any size.
    loaded = load_text(textwrap.dedent("""\
        sides:
          a: {combatants: [{name: A, hp: 5}]}
          b: {combatants: [{monster: ogre, hp: 20}]}
        """), "ogre.yaml")
    club = next(c for _n, _s, c, _l in expand(loaded.encounter) if c.name == "Ogre").weapons[0]
    assert (club.name, club.sf, str(club.damage), str(club.damage_large), club.natural) == ("club", 4, "1d10", "1d10",
                                                                                          False)


def test_natural_attacks_are_marked_and_weapons_have_a_speed_factor() -> None:
    # every attack form of every monster either has a speed factor (a Player's Handbook weapon) or is natural
    for found in CAT.entries("monsters"):
        entry = found.entry
        assert isinstance(entry, MonsterEntry)
        for w in entry.figures().get("weapons", []):
            if isinstance(w, dict) and "name" in w:
                assert w.get("natural") is True, (found.name, w)
            else:
                name = w if isinstance(w, str) else w["weapon"]
                weapon = CAT.find("weapons", name)
                assert weapon is not None and "sf" in weapon.entry.figures(), (found.name, name)


def _speed_segments(size: str, natural_spd: str | None = None) -> list[Any]:
    options = f"options: {{natural_spd: {natural_spd}}}\n" if natural_spd else ""
    text = "ruleset: speed-segments\nseed: 3\nsurprise: none\n" + options + textwrap.dedent(f"""\
        sides:
          a:
            pc: true
            combatants: [{{name: A, hp: 500, ac: 10}}]
          b:
            combatants: [{{name: Beast, hp: 500, size: {size}, weapons: [{{name: bite, damage: 1d4, natural: true}}]}}]
        rolls:
          initiative: {{1: {{a: 1, b: 6}}}}
        plan:
          A: [{{none: true}}]
          Beast: [{{melee: A}}]
        """)
    fight = prepare(load_text(text, "beast.yaml")).fight(max_rounds=1)
    return [e for e in fight.run().events if e.kind == "melee"]


def test_a_natural_attack_under_speed_segments_is_timed_by_size() -> None:
    # SEG-08: "For beasts and monsters, their listed Attack Spds are used unaltered"; a bite lists none, so the
    # Decision reads its Spd by size from Combat II's Table 2 (C2-02): medium 3, large 6, huge 8. Side b wins (6 vs 1):
    # no penalty, so the bite falls in the segment of its Spd (SEG-06).
    for size, segment in (("medium", 3), ("large", 6), ("huge", 8)):
        (bite,) = _speed_segments(size)
        assert bite.at.startswith(f"round 1, segment {segment},"), (size, bite.at)
        assert "natural attack, C2-02" in bite.why
    # natural_spd: ph, the 2e PH's optional initiative modifiers for natural weapons: huge +9
    (bite,) = _speed_segments("huge", "ph")
    assert bite.at.startswith("round 1, segment 9,") and "2e PH" in bite.why


def test_a_weapon_without_sf_is_still_refused_under_speed_segments() -> None:
    from affray.io.checks import check

    text = textwrap.dedent("""\
        sides:
          a: {combatants: [{name: A, hp: 5, weapons: [{name: long sword, damage: 1d8}]}]}
          b: {combatants: [{name: B, hp: 5, weapons: [{name: claw, damage: 1d4, natural: true}]}]}
        """)
    loaded = load_text(text, "f.yaml")
    problems = list(check(next(c for c in RULESETS if c.id == "speed-segments"), loaded))
    assert [p.path for p in problems] == ["sides.a.combatants[0].weapons[0].sf"]  # the claw is natural: no sf asked
    assert "natural: true" in problems[0].message


def test_horns_and_tusks_may_charge() -> None:
    # seed 001 (MJ-12): a charging monster needs "a skirmish weapon or large horns or tusks": the boar's and the
    # wereboar's tusks and the minotaur's gore (its horns) carry charge: true; a claw or a bite does not
    def charge(monster: str) -> dict[str, Any]:
        entry = CAT.find("monsters", monster)
        assert entry is not None
        return {w["name"]: w.get("charge") for w in entry.entry.figures()["weapons"]}

    assert charge("boar") == {"tusk": True}
    assert charge("wereboar") == {"tusk": True}
    assert charge("minotaur") == {"gore": True, "bite": None}
    assert charge("troll") == {"claw": None, "bite": None}
