"""Names a referee can tell apart (issue 42): a new file's sides and combatants are named in Unicode's composed form
(NFC), without invisible or bidirectional control characters, not alike once folded (lookalike letters of other
scripts, fullwidth forms), and no combatant is named like a side; each refusal says which names and what differs.
A fight saved with such names by an earlier affray still opens and plays, each die asked of the right party.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from affray.drive import DicePrefs, DieQuestion
from affray.table import Session, Store, open_fight
from cli_run import affray_here

HEAD = """\
ruleset: side-d6
seed: 5
sides:
  party:
    pc: true
    combatants:
      - {name: Brom, class: fighter, level: 3, hp: 20, ac: 4, weapons: [{name: sword, sf: 5, damage: 1d8}]}
"""
ORCS = """\
  orcs:
    combatants:
      - {name: Orc, count: 2, hd: 1, hp: 6, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d6}]}
"""


def with_member(name: str) -> str:
    """The fight with a second member of the party, named ``name`` (written as JSON: any character)."""
    return (HEAD + f"      - {{name: {json.dumps(name)}, class: fighter, level: 1, hp: 8, ac: 6, "
            "weapons: [{name: club, sf: 4, damage: 1d6}]}\n" + ORCS)


@pytest.mark.parametrize(("name", "said"), [
    ("Оrc 1", "the name 'Orc 1' (sides.orcs.combatants[0]) looks like 'Оrc 1' (sides.party.combatants[1]): U+004F "
              "LATIN CAPITAL LETTER O where the other has U+041E CYRILLIC CAPITAL LETTER O"),  # the later is said
    ("Ｂrom", "the name 'Ｂrom' (sides.party.combatants[1]) looks like 'Brom' (sides.party.combatants[0]): U+FF22 "
             "FULLWIDTH LATIN CAPITAL LETTER B where the other has U+0042 LATIN CAPITAL LETTER B"),
    ("Jose\u0301", "the name 'Jose\u0301' is not in Unicode's composed form (NFC): it shows as 'Jos\u00e9' but is "
                   "not the same letters as that name typed"),
    ("Br\u200bom", "the name 'Br<U+200B ZERO WIDTH SPACE>om' holds U+200B ZERO WIDTH SPACE: it is shown without it"),
    ("Sela\u00a0Vane", "holds U+00A0 NO-BREAK SPACE: it is shown without it (or reordered), and typing the name as "
                       "shown would not match it"),
    ("\u202eanim", "holds U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("orcs", "sides.orcs: a combatant named like a side: 'orcs' (sides.party.combatants[1]) and 'orcs' (sides.orcs); "
             "`declare orcs ask` or `dice orcs ask` could mean either the side sides.orcs or the combatant "
             "sides.party.combatants[1]: rename one"),
])
def test_names_a_referee_cannot_tell_apart_are_refused_in_a_new_file(tmp_path: Path, name: str, said: str) -> None:
    """Each is refused by `check` and `run` (exit 2, the field, both names where two look alike, what differs).
    Before, every one was accepted and shown alike in the status (or without its invisible character)."""
    fight = tmp_path / "fight.yaml"
    fight.write_text(with_member(name), encoding="utf-8")
    for command in (("check", fight), ("run", fight, "--auto")):
        done = affray_here(*command)
        assert done.returncode == 2, (command, done.stdout[-300:], done.stderr)
        assert said in done.stderr and f"{fight}:" in done.stderr, done.stderr
    assert affray_here("check", tmp_path / "fight.yaml").stderr.count(f"{fight}:") == 1  # one problem, said once


def test_a_fight_saved_with_such_names_still_opens_and_plays(tmp_path: Path) -> None:
    """A fight an earlier affray saved with a party member named ``orcs`` (the enemy side's name) and one with a
    zero-width space in its name: `affray play --db` resumes it to its end and `affray log` shows it. Each die is
    asked of the right party: with the party's dice asked, the orcs' initiative die, whose roller ``orcs`` names the
    side and the character alike, is not asked of the party (it is rolled, as the orcs' are); the party's is.
    Before, the orcs' initiative die was asked of the party's players as the character's."""
    text = with_member("orcs").replace("      - {name: Brom,", "      - {name: \"Br\\u200bom\",")
    db = tmp_path / "old.db"
    store = Store(db)
    game = store.new_game("old.yaml", text, "side-d6", 5, {}, True, 50)
    store.close()
    store = Store(db)
    asked: list[tuple[str | None, str | None, str]] = []
    with store.writer(game.id):
        opened = open_fight(store, store.game(game.id), DicePrefs({"all": "roll", "party": "ask"}))
        session = Session(opened.drive, opened.record)
        session.say("run")
        while not session.over and len(asked) < 200:
            item = session.next()
            if isinstance(item, DieQuestion):
                asked.append((item.actor, item.side, item.purpose))
                assert session.say("3").ok
    store.close()
    initiative = [a for a in asked if a[2] == "initiative"]
    assert ("party", "party", "initiative") in initiative  # the party's die: its players'
    assert all(actor != "orcs" for actor, _side, _p in initiative), initiative  # the orcs' die: not the party's
    done = affray_here("play", "--db", db, stdin="run\nquit\n")
    assert done.returncode == 0, done.stderr
    logged = affray_here("log", "--db", db, "--json")
    assert logged.returncode == 0 and json.loads(logged.stdout)["winner"] in ("party", "orcs"), logged.stderr
