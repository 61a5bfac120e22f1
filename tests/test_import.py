"""``affray import`` (CONTRACT.md "The party across fights, and bringing it in"): Foundry VTT actors of the Old-School
Essentials system, stat lines as modules print them, and affray's own party and catalogue files, written in affray's
form; every figure not read named; bad input exit 2 with nothing written.

The fixtures are made by hand: three Foundry exports (tests/fixtures/foundry-ose) from the OSE system's public data
model (vttred/ose: its template.json and data-model classes: ``system.hp``, ``ac``/``aac``, ``thac0``, items of type
weapon, armor and spell), one of them as Foundry 9 wrote it (``data``, ``flags.exportSource``); ten stat lines
(tests/fixtures/import/statlines.txt) in the three styles modules print, their figures the monsters' open ones (OSE
SRD, OGL) or made up.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from affray import RULESETS
from cli_run import affray_here

FIXTURES = Path(__file__).parent / "fixtures"
FOUNDRY = FIXTURES / "foundry-ose"
STATLINES = FIXTURES / "import" / "statlines.txt"
IDS = [cls.id for cls in RULESETS]


def _yaml(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def _imported(*args: str | Path, stdin: str | None = None) -> dict[str, dict[str, Any]]:
    done = affray_here("import", *args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return {c["name"]: c for c in _yaml(done.stdout)["combatants"]}


def test_three_foundry_exports_read_figure_by_figure() -> None:
    done = affray_here("import", FOUNDRY)
    assert done.returncode == 0, done.stderr
    side = _yaml(done.stdout)
    assert side["pc"] is True  # two characters among them
    c = {x["name"]: x for x in side["combatants"]}
    aldric, mira, gnoll = c["Aldric"], c["Mira the Grey"], c["Gnoll Chieftain"]
    # Aldric, OSE Fighter 3: AC from what he wears, as the system works it out: chain mail 5, shield 1 better, DEX 13
    # (OSE: 13-15 is +1) 1 better: 3. hp 19 of 22; THAC0 19; 120' a turn is MV 12; his save vs. spells 16.
    assert (aldric["class"], aldric["level"], aldric["ac"]) == ("fighter", 3, 3)
    assert (aldric["hp"], aldric["hp_max"], aldric["thac0"], aldric["mv"], aldric["save"]) == (19, 22, 19, 12, 16)
    assert (aldric["str"], aldric["dex"], aldric["con"], aldric["int"], aldric["wis"]) == (16, 13, 14, 9, 11)
    # his Sword is the catalogue's (the long sword, SF 5) with OSE's 1d8; his Short Bow the catalogue's (SF 7), its
    # 20 arrows (the item's quantity) its ammunition
    assert aldric["weapons"][0] == {"weapon": "sword", "name": "Sword", "damage": "1d8", "damage_large": "1d8"}
    assert aldric["weapons"][1] == {"weapon": "short bow", "name": "Short Bow", "damage": "1d6", "damage_large": "1d6",
                                    "kind": "missile", "ammo": 20}
    # Mira, Magic-User 2: a wizard; unarmoured AC 9 (OSE), DEX 16 (+2): 7; Sleep memorised, Magic Missile memorised
    # and cast already; Read Magic and Light known, not memorised: left out
    assert (mira["class"], mira["level"], mira["ac"], mira["hp"]) == ("wizard", 2, 7, 6)
    assert mira["spells"] == [{"spell": "Sleep"}, {"spell": "Magic Missile", "cast": 1}]
    # the Gnoll Chieftain, as Foundry 9 wrote it (`data`): HD 3+1, hp 16; only its ascending AC 15 is given: 19 - 15
    # = AC 4; its THAC0 16 as given; 90' a turn: MV 9; morale 9 (2d6); its Morning Star the catalogue's (SF 7)
    assert (gnoll["class"], gnoll["hd"], gnoll["hp"], gnoll["ac"], gnoll["thac0"]) == ("monster", "3+1", 16, 4, 16)
    assert (gnoll["mv"], gnoll["morale"]) == (9, 9)
    assert gnoll["weapons"] == [{"weapon": "morning star", "name": "Morning Star", "damage": "2d4+1",
                                 "damage_large": "2d4+1"}]
    # every figure not read, or read as something else, is named with its field path
    for said in ("aldric-fighter.json: system.ac: AC 3 from what it wears: Chain Mail 5, Shield -1, DEX 13 -1 (OSE)",
                 "aldric-fighter.json: system.scores.cha.value: CHA: not read",
                 "mira-magic-user.json: items[3]: Read Magic: known, not memorised: left out",
                 "gnoll-chieftain.json: data.aac.value: ascending AC 15: AC 4 (19 - AAC, OSE)",
                 "gnoll-chieftain.json: data.attacks: '1 x weapon (2d4+1)': the attacks as text are not read"):
        assert said in done.stderr, said


def test_one_export_and_a_list_of_them(tmp_path: Path) -> None:
    one = _imported(str(FOUNDRY / "mira-magic-user.json"))
    assert list(one) == ["Mira the Grey"]
    both = [json.loads((FOUNDRY / n).read_text()) for n in ("aldric-fighter.json", "gnoll-chieftain.json")]
    listed = tmp_path / "actors.json"
    listed.write_text(json.dumps(both), encoding="utf-8")
    assert list(_imported(str(listed))) == ["Aldric", "Gnoll Chieftain"]


def test_ten_stat_lines_read_figure_by_figure() -> None:
    done = affray_here("import", STATLINES)
    assert done.returncode == 0, done.stderr
    c = {x["name"]: x for x in _yaml(done.stdout)["combatants"]}
    assert len(c) == 10 and "pc" not in _yaml(done.stdout)
    # AD&D: "Gnoll: AC 5; MV 9"; HD 2; hp 11; #AT 1; D 2-8; ... SZ L; ML 11": 2-8 is 2d4; a natural attack
    assert c["Gnoll"] == {"name": "Gnoll", "class": "monster", "ac": 5, "hd": 2, "hp": 11, "mv": 9, "morale": 11,
                          "size": "large", "weapons": [{"name": "attack", "damage": "2d4", "natural": True}]}
    # "#AT 3; D 1-6/1-6/2-12": three forms, a routine (2-12 is 2d6)
    assert [w["damage"] for w in c["Owlbear"]["weapons"]] == ["1d6", "1d6", "2d6"] and c["Owlbear"]["attacks"] == 3
    # "Giant rat (4)": four of them; "MV 12"//6"": 12 (the swimming rate left)
    assert (c["Giant rat"]["count"], c["Giant rat"]["hd"], c["Giant rat"]["mv"]) == (4, "1/2", 12)
    # B/X: "MV 60' (20')": 60 feet a turn is MV 6
    assert (c["Goblin"]["mv"], c["Goblin"]["hd"], c["Goblin"]["weapons"][0]["damage"]) == (6, "1-1", "1d6")
    # OSE: "HD 6+3* (30hp), Att 2 x claw (1d6), 1 x bite (1d10), THAC0 13 [+6], MV 120' (40')"
    troll = c["Troll"]
    assert (troll["hd"], troll["hp"], troll["thac0"], troll["mv"], troll["attacks"]) == ("6+3", 30, 13, 12, 3)
    assert [(w["name"], w["damage"]) for w in troll["weapons"]] == [("claw", "1d6"), ("claw", "1d6"), ("bite", "1d10")]
    # OSE's "1 x weapon (1d6)": the catalogue's short sword (SF 3) with the line's damage
    assert c["Orc"]["weapons"] == [{"weapon": "short sword", "damage": "1d6", "damage_large": "1d6"}]
    # what is not read is named, line by line
    for said in ("statlines.txt:2: SA: nil: special attacks, not read", "statlines.txt:6: SAVE: NM: saving throws",
                 "statlines.txt:11: Att: claw: 'paralysis' beside its damage: not read"):
        assert said in done.stderr, said


def test_stat_lines_on_stdin() -> None:
    c = _imported("-", stdin="Bugbear: AC 5; MV 9\"; HD 3+1; hp 15; #AT 1; D 2-8\n")
    assert (c["Bugbear"]["hp"], c["Bugbear"]["ac"], c["Bugbear"]["hd"]) == (15, 5, "3+1")


def _acted(done: Any) -> set[str]:
    assert done.returncode == 0, done.stderr
    return {e["actor"] for e in json.loads(done.stdout)["events"]
            if e["kind"] in ("melee", "missile", "cast-start", "cast")}


@pytest.mark.parametrize("ruleset", IDS)
def test_imported_combatants_fight_under_every_ruleset(tmp_path: Path, ruleset: str) -> None:
    """The three Foundry actors as a party (``import --to``) against goblins, played by the default policy; then the
    ten stat lines' monsters against four player characters who stand and take it: under each ruleset every one of
    the thirteen strikes a blow or casts a spell."""
    party = tmp_path / "party.yaml"
    done = affray_here("import", FOUNDRY, "--to", party)
    assert done.returncode == 0, done.stderr
    assert f"{party}: 3 combatants imported (3 in the party now)" in done.stdout
    text = party.read_text(encoding="utf-8")
    for hp in ("hp: 19", "hp: 6", "hp: 16"):  # sturdy enough to act before the goblins can fell them
        text = text.replace(hp, "hp: 200")
    party.write_text(text.replace(", hp_max: 22", ""), encoding="utf-8")
    goblins = tmp_path / "goblins.yaml"
    goblins.write_text(json.dumps({"seed": 4, "surprise": "none", "sides": {
        "goblins": {"morale": 20, "combatants": [{"monster": "goblin", "count": 6, "hp": 30}]}}}), encoding="utf-8")
    done = affray_here("run", goblins, "--party", party, "--ruleset", ruleset, "--json", "--auto", "--max-rounds", "3")
    assert {"Aldric", "Mira the Grey", "Gnoll Chieftain"} <= _acted(done), ruleset
    assert "the party as the fight left it" in done.stderr  # the imported party file kept what the fight left

    monsters = _yaml(affray_here("import", STATLINES).stdout)["combatants"]
    for m in monsters:
        m["hp"] = 60  # long enough to strike, every one
        m.pop("count", None)
    pcs = [{"name": f"PC{i}", "class": "fighter", "level": 5, "hp": 1000} for i in range(3)]
    fight = tmp_path / "monsters.yaml"
    fight.write_text(json.dumps({"seed": 4, "surprise": "none", "sides": {
        "party": {"pc": True, "declare": "repeat", "combatants": pcs},
        "monsters": {"declare": "auto", "morale": 20, "combatants": monsters}},
        "plan": {p["name"]: [{"none": True}] for p in pcs}}), encoding="utf-8")
    done = affray_here("run", fight, "--ruleset", ruleset, "--json", "--max-rounds", "3")
    assert {m["name"] for m in monsters} <= _acted(done), ruleset


def test_to_an_existing_party_adds_and_refuses_a_name_twice(tmp_path: Path) -> None:
    party = tmp_path / "party.yaml"
    party.write_text("# our party\npc: true\ncombatants:\n  - {name: Brom, class: fighter, level: 2, hp: 14}\n",
                     encoding="utf-8")
    done = affray_here("import", FOUNDRY / "aldric-fighter.json", "--to", party)
    assert done.returncode == 0, done.stderr
    text = party.read_text()
    assert text.startswith("# our party\n") and [c["name"] for c in _yaml(text)["combatants"]] == ["Brom", "Aldric"]
    before = party.read_bytes()
    done = affray_here("import", FOUNDRY / "aldric-fighter.json", "--to", party)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "Aldric" in done.stderr and "combatants[2].name" in done.stderr
    assert party.read_bytes() == before


def _refused(tmp: Path, name: str, text: str) -> str:
    source = tmp / name
    source.write_text(text, encoding="utf-8")
    party = tmp / "party.yaml"
    party.write_text("pc: true\ncombatants:\n  - {name: Brom, hp: 9}\n", encoding="utf-8")
    before = party.read_bytes()
    fresh = tmp / "new-party.yaml"
    for to in (party, fresh):
        done = affray_here("import", source, "--to", to)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert party.read_bytes() == before and not fresh.exists()  # nothing written
    return done.stderr


def test_broken_json_exits_2_naming_its_line(tmp_path: Path) -> None:
    err = _refused(tmp_path, "broken.json", '{\n  "name": "Aldric",\n  "type": "character"\n  "system": {}\n}\n')
    assert f"{tmp_path / 'broken.json'}:4: not valid JSON" in err


def test_another_systems_actor_exits_2(tmp_path: Path) -> None:
    actor = {"name": "Gimli", "type": "character", "system": {"attributes": {"hp": {"value": 30, "max": 30}}},
             "items": [], "_stats": {"systemId": "dnd5e", "systemVersion": "3.0.0"}}
    err = _refused(tmp_path, "gimli.json", json.dumps(actor))
    assert "gimli.json: _stats.systemId: an actor of the 'dnd5e' system" in err


def test_a_figure_that_does_not_read_exits_2_naming_its_path(tmp_path: Path) -> None:
    actor = json.loads((FOUNDRY / "aldric-fighter.json").read_text())
    actor["system"]["hp"]["value"] = "lots"
    actor["items"][0]["system"]["damage"] = "a big hit"
    err = _refused(tmp_path, "aldric.json", json.dumps(actor))
    assert "aldric.json: system.hp.value: 'lots' is not a whole number" in err
    assert "aldric.json: items[0].system.damage: 'a big hit' is not dice" in err


def test_a_stat_line_that_does_not_read_exits_2_naming_line_and_figure(tmp_path: Path) -> None:
    err = _refused(tmp_path, "lines.txt", "Gnoll: AC 5; HD 2; D 2-8\nGoblin: AC banana; HD 1-1\nthe goblins flee\n")
    assert "lines.txt:2: AC: 'banana': not an armour class" in err
    assert "lines.txt:3: not a stat line" in err
    assert "lines.txt:1" not in err  # the good line is not a problem


def test_an_encounter_file_is_not_imported(tmp_path: Path) -> None:
    shutil.copy(FIXTURES.parent.parent / "src" / "affray" / "examples" / "first_fight.yaml", tmp_path / "f.yaml")
    err = _refused(tmp_path, "f.yaml", (tmp_path / "f.yaml").read_text())
    assert "an encounter file" in err


def test_affrays_own_party_and_catalogue_files(tmp_path: Path) -> None:
    party = tmp_path / "old-party.yaml"
    party.write_text("pc: true\ncombatants:\n  - {name: Brom, class: fighter, level: 2, hp: 14, weapons: [axe]}\n",
                     encoding="utf-8")
    assert _imported(str(party))["Brom"]["weapons"] == ["axe"]
    catalogue = tmp_path / "mine.yaml"
    catalogue.write_text("monsters:\n  kobold chieftain: {hd: 2, ac: 5, mv: 6, size: small, weapons: [spear], "
                         "source: my notes}\n", encoding="utf-8")
    chief = _imported(str(catalogue))["Kobold chieftain"]
    # its catalogue spear written out: the PH's SF 6, 1d6 (Table 44)
    assert (chief["hd"], chief["ac"], chief["weapons"][0]["sf"], chief["weapons"][0]["damage"]) == (2, 5, 6, "1d6")
