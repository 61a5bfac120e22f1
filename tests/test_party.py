"""The party across fights (CONTRACT.md "The party across fights, and bringing it in"): a party of four fights kobolds,
then goblins, with one party file, through ``affray play`` and through ``affray drive``; the second fight starts where
the first left them; ``affray rest`` memorises spells anew and heals 1 hp a day (2e PH ch. 9); a refused fight leaves
the file as it was.

Every blow of both fights is the referee's outcome (``outcome``) and every initiative is given (``rolls``), so what
each fight leaves is worked by hand below, field by field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from cli_run import affray_here

PARTY = """\
# The party: four player characters, kept by affray from fight to fight
pc: true
combatants:
  - {name: Aldric, class: fighter, level: 3, hp: 26, ac: 4, weapons: [long sword, {weapon: short bow, ammo: 20}]}
  - {name: Tam, class: cleric, level: 3, hp: 17, ac: 4, weapons: [mace], spells: [command, cure light wounds]}
  - {name: Mina, class: wizard, level: 3, hp: 9, ac: 10, weapons: [dagger], spells: [sleep, magic missile]}
  - {name: Theo, class: thief, level: 3, hp: 12, ac: 7, weapons: [short sword, {weapon: sling, ammo: 10}]}
"""

# side-d6; the party wins both initiatives (6 against 1), so its steps 4-8 come first each round (MJ-04, MJ-05)
KOBOLDS = """\
ruleset: side-d6
seed: 1
surprise: none
sides:
  kobolds:
    morale: 12
    combatants:
      - {monster: kobold, count: 4, hp: 4}
      - name: Kobold shaman
        monster: kobold
        hp: 4
        spells: [{name: curse, level: 1, ct: 1, components: V, area: 1,
                  effect: {condition: blinded, duration: 10 rounds}}]
rolls:
  initiative: {1: {party: 6, kobolds: 1}, 2: {party: 6, kobolds: 1}}
plan:
  Aldric: [{missile: Kobold 1, outcome: [{hit: true, damage: 6}, {hit: false}]},
           {melee: Kobold shaman, outcome: {hit: true, damage: 5}}]
  Mina: [{cast: magic missile, at: Kobold 2, outcome: {hit: true, damage: 5}},
         {melee: Kobold 3, outcome: {hit: true, damage: 4}}]
  Theo: [{missile: Kobold 3, outcome: {hit: false}}, {melee: Kobold 4, outcome: {hit: true, damage: 6}}]
  Tam: [{none: true}]
  Kobold 1: [{none: true}]
  Kobold 2: [{none: true}]
  Kobold 3: [{melee: Mina, outcome: {hit: true, damage: 3}}, {none: true}]
  Kobold 4: [{melee: Tam, outcome: {hit: true, damage: 20}}, {none: true}]
  Kobold shaman: [{cast: curse, at: Theo}, {none: true}]
"""

# d12-procedure; the goblins' 1 is the lower count: they strike first (D12-04)
GOBLINS = """\
ruleset: d12-procedure
seed: 2
surprise: none
sides:
  goblins:
    morale: 12
    combatants:
      - {monster: goblin, count: 2, hp: 3}
rolls:
  initiative: {1: {party: 12, goblins: 1}}
plan:
  Goblin 1: [{melee: Mina, outcome: {hit: true, damage: 2}}]
  Goblin 2: [{melee: Aldric, outcome: {hit: true, damage: 3}}]
  Aldric: [{melee: Goblin 2, outcome: {hit: true, damage: 5}}]
  Theo: [{missile: Goblin 1, outcome: {hit: true, damage: 5}}]
  Mina: [{none: true}]
"""


def _write(tmp: Path) -> tuple[Path, Path, Path]:
    party, kobolds, goblins = tmp / "party.yaml", tmp / "kobolds.yaml", tmp / "goblins.yaml"
    party.write_text(PARTY, encoding="utf-8")
    kobolds.write_text(KOBOLDS, encoding="utf-8")
    goblins.write_text(GOBLINS, encoding="utf-8")
    return party, kobolds, goblins


def _members(party: Path) -> dict[str, dict[str, Any]]:
    data = YAML(typ="safe", pure=True).load(party.read_text(encoding="utf-8"))
    return {c["name"]: c for c in data["combatants"]}


def _fight(how: str, file: Path, party: Path, tmp: Path) -> Any:
    if how == "play":
        done = affray_here("play", file, "--party", party, "--db", tmp / "fights.db", stdin="run\n")
    else:
        done = affray_here("drive", file, "--party", party, stdin="")
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("how", ["play", "drive"])
def test_kobolds_then_goblins_then_rest(tmp_path: Path, how: str) -> None:
    party, kobolds, goblins = _write(tmp_path)

    # -- fight 1, the kobolds (side-d6) ---------------------------------------------------------------------------
    _fight(how, kobolds, party, tmp_path)
    m = _members(party)
    # Aldric: unhurt; his short bow shot twice in round 1 (fire rate 2, MJ-05): 20 - 2 = 18 arrows
    assert m["Aldric"]["hp"] == 26 and "hp_max" not in m["Aldric"] and "fallen" not in m["Aldric"]
    assert m["Aldric"]["weapons"][1] == {"weapon": "short bow", "ammo": 18}
    # Tam: Kobold 4's 20 damage: 17 - 20 = -3, down at 0 or less: dead (G-05), kept in the party as fallen
    assert (m["Tam"]["hp"], m["Tam"]["hp_max"], m["Tam"]["fallen"]) == (-3, 17, "dead")
    # Mina: Kobold 3's 3 damage: 9 - 3 = 6 of 9; her magic missile cast (one copy of one)
    assert (m["Mina"]["hp"], m["Mina"]["hp_max"]) == (6, 9)
    assert m["Mina"]["spells"] == ["sleep", {"spell": "magic missile", "cast": 1}]
    # Theo: one sling stone (10 - 1 = 9); the shaman's curse in round 1, blinded 10 rounds: it ends as round 11
    # begins (side-d6's clock, G-08); the fight ends in round 2: 9 rounds are left (round 2 + 9 = round 11)
    assert m["Theo"]["hp"] == 12 and m["Theo"]["weapons"][1] == {"weapon": "sling", "ammo": 9}
    assert m["Theo"]["conditions"] == {"blinded": "9 rounds"}

    # -- fight 2, the goblins (d12-procedure): it starts where the first left them -----------------------------------
    done = _fight(how, goblins, party, tmp_path)
    if how == "drive":
        lines = [json.loads(x) for x in done.stdout.splitlines()]
        events = [x["event"] for x in lines if "event" in x]
        # Theo is still blinded, 9 rounds on d12-procedure's clock: from before round 1, to round 10 (D12-21)
        first = events[0]
        assert (first["kind"], first["target"], first["condition"]) == ("condition", "Theo", "blinded")
        assert first["until"] == "round 10, start"
        # Tam fell in the first fight: not in this one
        end = next(x["end"] for x in lines if "end" in x)
        assert "Tam" not in end["combatants"]
        assert end["combatants"]["Mina"]["hp"] == 4 and end["combatants"]["Aldric"]["hp"] == 23
        assert lines[-1]["party"].startswith(f"{party}: the party as the fight left it")
    m = _members(party)
    # Aldric: Goblin 2's 3 damage: 26 - 3 = 23 of 26; no arrow shot: 18
    assert (m["Aldric"]["hp"], m["Aldric"]["hp_max"], m["Aldric"]["weapons"][1]["ammo"]) == (23, 26, 18)
    # Mina: 6 at the start (the first fight's), Goblin 1's 2: 4 of 9; magic missile still cast
    assert (m["Mina"]["hp"], m["Mina"]["hp_max"]) == (4, 9)
    assert m["Mina"]["spells"][1] == {"spell": "magic missile", "cast": 1}
    # Theo: one more stone, 8; the fight ends in its first round: round 1 + 9 = round 10, still 9 rounds left
    assert m["Theo"]["weapons"][1]["ammo"] == 8 and m["Theo"]["conditions"] == {"blinded": "9 rounds"}
    # Tam: as he fell, untouched by a fight he was not in
    assert (m["Tam"]["hp"], m["Tam"]["fallen"]) == (-3, "dead")

    # -- two days of rest ---------------------------------------------------------------------------------------------
    done = affray_here("rest", party, "--days", "2")
    assert done.returncode == 0, done.stderr
    m = _members(party)
    # 2e PH ch. 9: 1 hp a day of rest, never above the whole: Aldric 23 + 2 = 25 of 26, Mina 4 + 2 = 6 of 9
    assert (m["Aldric"]["hp"], m["Mina"]["hp"]) == (25, 6)
    # a night's rest memorises the spells anew: no copy cast any more
    assert m["Mina"]["spells"] == ["sleep", {"spell": "magic missile"}]
    # 9 rounds of blindness are long over after two days (2,880 rounds)
    assert "conditions" not in m["Theo"]
    # the dead stay dead
    assert (m["Tam"]["hp"], m["Tam"]["fallen"]) == (-3, "dead")
    assert "Aldric: 23 -> 25 hp of 26" in done.stdout
    assert "Mina: 4 -> 6 hp of 9; memorised anew: magic missile" in done.stdout
    assert "Tam is dead: rest raises nobody" in done.stdout
    assert "Theo: no longer blinded" in done.stdout


def test_bed_rest_heals_three_a_day_and_wakes_the_unconscious(tmp_path: Path) -> None:
    party = tmp_path / "party.yaml"
    party.write_text("""\
pc: true
combatants:
  - {name: Brom, class: fighter, level: 2, hp: 5, hp_max: 16}
  - {name: Sela, class: fighter, level: 2, hp: -2, hp_max: 14, fallen: unconscious}
""", encoding="utf-8")
    done = affray_here("rest", party, "--days", "3", "--bed")
    assert done.returncode == 0, done.stderr
    m = _members(party)
    # 2e PH ch. 9: complete bed rest, 3 hp a day: 5 + 9 = 14 of 16; Sela wakes with 1 (MJ-20's least), 1 + 9 = 10
    assert (m["Brom"]["hp"], m["Sela"]["hp"]) == (14, 10) and "fallen" not in m["Sela"]


def test_a_refused_fight_leaves_the_party_file_as_it_was(tmp_path: Path) -> None:
    party, _kobolds, _goblins = _write(tmp_path)
    before = party.read_bytes()
    bad = tmp_path / "bad.yaml"
    bad.write_text(KOBOLDS.replace("hp: 4}", "hp: 0}"), encoding="utf-8")
    for command in ("run", "drive"):
        done = affray_here(command, bad, "--party", party, stdin="")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"{bad}:" in done.stderr and "sides.kobolds.combatants[0].hp" in done.stderr
    assert party.read_bytes() == before


def test_a_problem_of_the_party_is_named_in_the_party_file(tmp_path: Path) -> None:
    party, kobolds, _goblins = _write(tmp_path)
    party.write_text(PARTY.replace("hp: 17, ac: 4", "hp: 17, ac: 14"), encoding="utf-8")
    before = party.read_bytes()
    done = affray_here("run", kobolds, "--party", party)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    # line 5 of the party file: Tam, the second combatant
    assert f"{party}:5: combatants[1].ac:" in done.stderr
    assert party.read_bytes() == before


def test_a_plan_naming_a_party_member_wrongly_is_the_encounters_problem(tmp_path: Path) -> None:
    party, kobolds, _goblins = _write(tmp_path)
    kobolds.write_text(KOBOLDS.replace("{missile: Kobold 1,", "{missile: Kobold 9,"), encoding="utf-8")
    done = affray_here("run", kobolds, "--party", party)
    assert done.returncode == 2 and "plan.Aldric[0].missile" in done.stderr and "Kobold 9" in done.stderr


def test_save_party_mid_fight_in_drive(tmp_path: Path) -> None:
    party, kobolds, _goblins = _write(tmp_path)
    text = KOBOLDS.replace("  Tam: [{none: true}]\n", "")  # Tam is asked in round 1
    kobolds.write_text(text, encoding="utf-8")
    done = affray_here("drive", kobolds, "--party", party, stdin='{"do": "save-party"}\n')
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    said = next(x["done"] for x in lines if "done" in x)
    # asked before any blow: what the fight left so far is the party as it came, written again
    assert said == f"{party}: the party as the fight left it: Aldric 26/26 hp; Tam 17/17 hp; Mina 9/9 hp; Theo 12/12 hp"
    assert _members(party)["Tam"]["hp"] == 17


def test_save_party_without_a_party_is_refused(tmp_path: Path) -> None:
    _party, kobolds, _goblins = _write(tmp_path)
    text = KOBOLDS.replace("  Tam: [{none: true}]\n", "").replace("sides:\n", """sides:
  party: {pc: true, combatants: [{name: Aldric, hp: 5, weapons: [short bow]}, {name: Tam, hp: 5},
                                 {name: Mina, level: 3, hp: 5, spells: [magic missile]},
                                 {name: Theo, hp: 5, weapons: [sling]}]}
""")
    kobolds.write_text(text, encoding="utf-8")
    done = affray_here("drive", kobolds, stdin='{"do": "save-party"}\n')
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    assert any(x.get("error", "").startswith("save-party: this fight was not started with --party") for x in lines)


def test_a_party_file_changed_mid_fight_is_not_overwritten(tmp_path: Path) -> None:
    party, kobolds, _goblins = _write(tmp_path)
    kobolds.write_text(KOBOLDS.replace("  Tam: [{none: true}]\n", ""), encoding="utf-8")
    # a fight started with the party; the referee then removes a member from the file before it is saved
    from affray.cli.app import _prepare_party
    from affray.party.left import Keeper
    from affray.table import Session

    prepared, _options, _text, keeper = _prepare_party(kobolds, None, None, None, party=party)
    assert isinstance(keeper, Keeper)
    session = Session(prepared.drive(max_rounds=5))
    session.party = keeper
    party.write_text(PARTY.replace("  - {name: Tam, class: cleric, level: 3, hp: 17, ac: 4, weapons: [mace], "
                                   "spells: [command, cure light wounds]}\n", ""), encoding="utf-8")
    changed = party.read_bytes()
    reply = session.save_party()
    assert not reply.ok and "no longer the fight's" in reply.text and "nothing was written" in reply.text
    assert party.read_bytes() == changed


def test_the_second_fight_cannot_cast_what_the_first_spent(tmp_path: Path) -> None:
    party, kobolds, goblins = _write(tmp_path)
    _fight("drive", kobolds, party, tmp_path)
    from affray.cli.app import _prepare_party

    prepared, _options, _text, _keeper = _prepare_party(goblins, None, None, None, party=party)
    fight = prepared.fight()
    mina = fight.state.fighters["Mina"]
    assert mina.can_cast(mina.spells["magic missile"]) == "magic missile is no longer memorised"
    assert mina.can_cast(mina.spells["sleep"]) is None
    assert fight.state.fighters["Mina"].hp == 6 and "Tam" not in fight.state.fighters
