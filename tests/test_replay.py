"""``affray replay``: a played fight played again under other rulesets (CONTRACT.md "Replaying a fight under another
ruleset"): the same combatants, the same declarations in the order each was made, the same dice wherever a die means
the same (an attack's d20 and damage), each ruleset's own initiative from the fight's seed; side by side, with each
difference's reason.

The duel below is worked by hand. Brom, a 1st-level fighter: THAC0 20 (2e DMG Table 38: 21 - 1), AC 5, 10 hp, a 1d8
sword. The orc, 1 HD: THAC0 19 (Table 39), AC 6, 5 hp, a 1d8 axe. Brom needs 20 - 6 = 14 (G-04): his d20s 15 and 16
hit, for 3 and 2 damage: 3 + 2 = 5, the orc's hit points, so the orc falls to his second blow, whatever the order of
the blows. The orc needs 19 - 5 = 14: its d20s 4 and 9 miss. Both plans give those dice, so the played fight (side-d6)
and every replay must show them, in that order, and the same end.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from affray.rulesets import ruleset_ids
from cli_run import affray_here
from test_drive_cli import Bot

DUEL = """\
ruleset: side-d6
seed: 3
surprise: none
sides:
  party:
    pc: true
    combatants:
      - {name: Brom, class: fighter, level: 1, hp: 10, ac: 5, weapons: [{name: sword, sf: 5, damage: 1d8}]}
  orcs:
    combatants:
      - {name: Orc, hd: 1, hp: 5, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""
PLAN = """\
plan:
  Brom:
    - {melee: Orc, dice: {attack: 15, damage: 3}}
    - {melee: Orc, dice: {attack: 16, damage: 2}}
  Orc:
    - {melee: Brom, dice: {attack: 4}}
    - {melee: Brom, dice: {attack: 9}}
"""
OTHERS = [r for r in ruleset_ids() if r != "side-d6"]


def _duel(tmp_path: Path, plan: str = PLAN) -> Path:
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL + plan, encoding="utf-8")
    return path


def _replay(*args: str | Path) -> dict[str, Any]:
    done = affray_here("replay", *args, "--json")
    assert done.returncode == 0, done.stderr
    doc: dict[str, Any] = json.loads(done.stdout)
    return doc


def _attacks(timeline: dict[str, Any], actor: str) -> list[tuple[int, int, bool]]:
    """(d20, damage dice, hit) of each of ``actor``'s attacks, in order."""
    out = []
    for e in timeline["events"]:
        if e["kind"] in ("melee", "missile") and e["actor"] == actor:
            dice = {d["purpose"]: d["value"] for d in e.get("dice", ())}
            out.append((dice.get("attack"), dice.get("damage"), e["hit"]))
    return out


def _the_duel_as_worked(timeline: dict[str, Any]) -> None:
    """The duel as the module's docstring works it out: Brom's 15/3 and 16/2 hit, the orc falls to the second; the
    orc's d20 4 misses (its second, 9, comes only where its blow lands before Brom's second)."""
    assert _attacks(timeline, "Brom") == [(15, 3, True), (16, 2, True)]
    orc = _attacks(timeline, "Orc")
    assert orc[:1] == [(4, None, False)] and orc[1:] in ([], [(9, None, False)])
    downs = [e for e in timeline["events"] if e["kind"] == "down"]
    assert [e["actor"] for e in downs] == ["Orc"]
    last_blow = [e for e in timeline["events"] if e["kind"] == "melee" and e["actor"] == "Brom"][-1]
    assert downs[0]["tick"] == last_blow["tick"] and timeline["winner"] == "party"
    assert timeline["combatants"]["Orc"]["hp"] == 0 and timeline["combatants"]["Brom"]["hp"] == 10


def test_an_attacks_given_d20_and_damage_reappear_under_every_ruleset(tmp_path: Path) -> None:
    doc = _replay(_duel(tmp_path), "--ruleset", "all")
    assert doc["played"]["ruleset"] == "side-d6" and list(doc["replays"]) == OTHERS
    _the_duel_as_worked(doc["played"]["timeline"])
    for ruleset, replayed in doc["replays"].items():
        timeline = replayed["timeline"]
        assert timeline["ruleset"] == ruleset and timeline["seed"] == 3
        _the_duel_as_worked(timeline)
        given = [d for e in timeline["events"] if e["kind"] == "melee" for d in e["dice"]
                 if d["purpose"] != "initiative"]
        assert {d["source"] for d in given} == {"file"}, ruleset  # the played dice, carried: none rolled anew
    assert doc["carried"] == {"declarations": 4, "by_policy": 0, "d20": 4, "damage": 2, "saves": 0, "outcomes": 0,
                              "surprise": "none"}


@pytest.mark.parametrize("ruleset", OTHERS)
def test_a_replay_is_affray_run_of_a_file_with_the_mapped_declarations_and_the_shared_dice(tmp_path: Path,
                                                                                             ruleset: str) -> None:
    """The file written by hand: the duel's combatants and seed under the other ruleset, each combatant's declarations
    in the order made as its plan, each with the dice that fell for it (a list, one mapping an attack); nothing of
    side-d6's initiative. ``affray run --auto`` of it is the replay, event for event; so is the file the replay
    writes (``--write``)."""
    doc = _replay(_duel(tmp_path), "--ruleset", ruleset, "--write", tmp_path / "out")
    by_hand = tmp_path / "by-hand.yaml"
    by_hand.write_text(DUEL.replace("ruleset: side-d6", f"ruleset: {ruleset}") + """\
plan:
  Brom:
    - {melee: Orc, dice: [{attack: 15, damage: 3}]}
    - {melee: Orc, dice: [{attack: 16, damage: 2}]}
  Orc:
    - {melee: Brom, dice: [{attack: 4}]}
    - {melee: Brom, dice: [{attack: 9}]}
""", encoding="utf-8")
    for file in (by_hand, tmp_path / "out" / f"duel-{ruleset}.yaml"):
        run = affray_here("run", file, "--auto", "--json")
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == doc["replays"][ruleset]["timeline"], file


def _drive_bot(tmp_path: Path) -> Path:
    """The duel without dice in its plan, played through ``affray drive --db`` with every die asked, a bot
    answering the attacks' d20s and damage as the worked duel has them, and rolling the rest."""
    db = tmp_path / "drive.db"
    bot = Bot(_duel(tmp_path, plan="plan: {Brom: [{melee: Orc}, {melee: Orc}], Orc: [{melee: Brom}, {melee: Brom}]}\n"),
              "--db", db, "--dice", "ask")
    given = {("attack", "Brom"): [15, 16], ("damage", "Brom"): [3, 2], ("attack", "Orc"): [4, 9]}
    while (line := bot.read()) is not None and "end" not in line:
        ask = line.get("ask")
        if ask is None:
            continue
        values = given.get((ask["purpose"], ask["actor"]))
        bot.send({"id": ask["id"], "die": values.pop(0)} if values else {"id": ask["id"], "roll": True})
    assert bot.finish() == 0
    assert line is not None and line["end"]["winner"] == "party"
    return db


def test_a_fight_played_through_drive_db_replays_under_every_other_ruleset(tmp_path: Path) -> None:
    """The dice the bot gave are the referee's (``source: referee``) in the journal; the replays carry them."""
    db = _drive_bot(tmp_path)
    doc = _replay(db, "--ruleset", "all")
    assert doc["played"]["source"].startswith(f"fight 1 of {db}")
    played = doc["played"]["timeline"]
    assert {d["source"] for e in played["events"] if e["actor"] == "Brom" and e["kind"] == "melee"
            for d in e["dice"]} == {"referee"}
    _the_duel_as_worked(played)
    assert list(doc["replays"]) == OTHERS
    for replayed in doc["replays"].values():
        _the_duel_as_worked(replayed["timeline"])


def test_a_fight_played_at_the_console_replays_under_every_other_ruleset(tmp_path: Path) -> None:
    """At the console the referee also strikes Brom by hand (``damage Brom 2``): a command's moment has no
    counterpart under another ruleset, so the replay leaves it out and says so, and Brom ends with his 10 hp."""
    db = tmp_path / "console.db"
    done = affray_here("play", _duel(tmp_path), "--db", db, "--auto", stdin="damage Brom 2\nrun\n")
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
    doc = _replay(db, "--ruleset", ",".join(OTHERS))
    assert doc["played"]["commands"] == ["damage Brom 2"]
    assert doc["played"]["timeline"]["combatants"]["Brom"]["hp"] == 8
    for ruleset, replayed in doc["replays"].items():
        _the_duel_as_worked(replayed["timeline"])
        assert {"kind": "command", "text": f"the referee's command `damage Brom 2` is not replayed: its moment has "
                                           f"no counterpart under {ruleset}"} in replayed["notes"]


def test_a_declaration_the_ruleset_cannot_take_is_said_and_replaced_by_the_policys(tmp_path: Path) -> None:
    """Played under side-d6, Brom's second declaration is a plain move of 30 ft after his blow. Combat II takes a
    declaration a phase (P1-08): his move comes in phase 2, when his phase-1 blow has engaged him with the orc, and an
    engaged combatant may only withdraw, flee or fight (C2-17): the validator refuses it there. His policy (the
    default: keep to his foe) declares `melee Orc with sword` instead, and the replay says so, with the reason."""
    doc = _replay(_duel(tmp_path, plan="plan: {Brom: [{melee: Orc, dice: {attack: 2}}, {move: 30}], "
                                       "Orc: [{melee: Brom, dice: {attack: 4}}]}\n"),
                  "--ruleset", "combat2-phase1", "--max-rounds", "2")
    c2 = doc["replays"]["combat2-phase1"]
    assert c2["replaced"] == [{"actor": "Brom", "index": 1, "declaration": {"move": 30},
                               "reason": "Brom is engaged with Orc: it may only withdraw, flee or fight (C2-17)",
                               "instead": {"melee": "Orc", "weapon": "sword"},
                               "at": "round 1, phase 2, stating intentions", "tick": [1, 2, 0, 0]}]
    assert {"kind": "replaced", "text": "Brom's 2nd declaration, `move 30`: the policy's `melee Orc with sword` "
                                        "instead, at round 1, phase 2, stating intentions",
            "reason": "Brom is engaged with Orc: it may only withdraw, flee or fight (C2-17)"} in c2["differences"]
    assert "  - {melee: Orc, weapon: sword}\n" in c2["file"]  # the policy's, written into the file it plays
    declared = [e["declaration"] for e in c2["timeline"]["events"] if e["kind"] == "declare" and e["actor"] == "Brom"
                and e.get("declaration") is not None]
    assert declared[:2] == [{"melee": "Orc", "dice": [{"attack": 2}]}, {"melee": "Orc", "weapon": "sword"}]


def test_a_key_of_the_played_rulesets_own_is_left_out_and_said(tmp_path: Path) -> None:
    """side-d6's `rear: true` (an attack from behind, MJ-13) is no key of Combat II's: the blow is carried without
    it, and the replay says so."""
    doc = _replay(_duel(tmp_path, plan="plan: {Brom: [{melee: Orc, rear: true, dice: {attack: 15, damage: 3}}]}\n"),
                  "--ruleset", "combat2-phase1", "--max-rounds", "1")
    c2 = doc["replays"]["combat2-phase1"]
    assert {"kind": "key", "text": "Brom's 1st declaration `melee Orc` carried `rear: true`, a key of the played "
                                   "ruleset's own that combat2-phase1 does not have: left out", "actor": "Brom",
            "index": 0} in c2["notes"]
    assert _attacks(c2["timeline"], "Brom")[0] == (15, 3, True)


def test_the_side_by_side_text_shows_who_acted_when_who_fell_and_who_won(tmp_path: Path) -> None:
    done = affray_here("replay", _duel(tmp_path), "--ruleset", "phase-count", "--board", tmp_path / "b.svg",
                       env={"COLUMNS": "160"})
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for text in ("played under side-d6, seed 3", "Brom (1st): melee Orc", "side-d6 (played)", "phase-count",
                 "hit Orc for 3 (d20 15)", "Orc falls", "to Brom's melee", "winner", "party, settled at",
                 "How phase-count differs from the fight as played, and why"):
        assert text in out, text
    svg = (tmp_path / "b.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "side-d6, as played" in svg and "phase-count, replayed" in svg


@pytest.mark.parametrize(("args", "words"), [
    (("--ruleset", "nonesuch"), "nonesuch"),
    (("--ruleset", "phase-count", "--set", "tie_track=loser"), "--set tie_track: none of phase-count has"),
    (("--ruleset", "phase-count", "--game", "2"), "--game picks a fight of a database"),
    (("--ruleset", "phase-count", "--max-rounds", "0"), "--max-rounds 0"),
])
def test_bad_input_is_exit_2_with_what_is_wrong(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    done = affray_here("replay", _duel(tmp_path), *args)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_missing_source_and_a_missing_fight_are_exit_2(tmp_path: Path) -> None:
    done = affray_here("replay", tmp_path / "nothing.yaml", "--ruleset", "phase-count")
    assert done.returncode == 2 and "no such file" in done.stderr
    bare = tmp_path / "bare.yaml"
    bare.write_text(DUEL.replace("ruleset: side-d6\n", ""), encoding="utf-8")
    done = affray_here("replay", bare, "--ruleset", "phase-count")
    assert done.returncode == 2 and "no `ruleset:`: the fight replayed is the file's" in done.stderr
    db = _drive_bot(tmp_path)
    done = affray_here("replay", db, "--ruleset", "phase-count", "--game", "7")
    assert done.returncode == 2 and "--game 7: no such fight (fights here: 1)" in done.stderr


KOBOLDS = """\
ruleset: side-d6
seed: 11
sides:
  party:
    pc: true
    combatants:
      - {name: Aldric, class: fighter, level: 3, hp: 26, armour: [chain mail, shield], weapons: [long sword, short bow]}
      - {name: Brother Tam, class: cleric, level: 3, hp: 17, armour: chain mail, shield: true, weapons: [mace],
         spells: [command, cure light wounds, hold person]}
      - {name: Mina, class: wizard, level: 3, hp: 9, dex: 16, weapons: [dagger], spells: [sleep, magic missile, web]}
      - {name: Theo, class: thief, level: 3, hp: 12, dex: 17, armour: leather, weapons: [short sword, sling]}
  kobolds:
    combatants:
      - {monster: kobold, count: 11}
      - {monster: kobold, name: Kobold chief, hd: 2, ac: 5, weapons: [spear]}
plan:
  Mina: [{cast: sleep, at: kobolds}]
"""


def test_the_readmes_kobold_fight_replays_under_every_ruleset_each_the_run_of_its_file(tmp_path: Path) -> None:
    """README's "The encounter file": sixteen combatants, every declaration but Mina's sleep its policy's. Played
    under side-d6 and replayed under the five others, many declarations meet a target already down at their moment
    under another ruleset: each is replaced by the policy's and said; each replay is still `affray run --auto` of
    the file it writes, event for event."""
    file = tmp_path / "kobolds.yaml"
    file.write_text(KOBOLDS, encoding="utf-8")
    doc = _replay(file, "--ruleset", "all", "--write", tmp_path / "out")
    assert doc["carried"]["declarations"] > 30 and list(doc["replays"]) == OTHERS
    assert any(r["replaced"] for r in doc["replays"].values())
    for ruleset, replayed in doc["replays"].items():
        assert all(x["reason"] for x in replayed["replaced"])
        run = affray_here("run", tmp_path / "out" / f"kobolds-{ruleset}.yaml", "--auto", "--json")
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == replayed["timeline"], ruleset
