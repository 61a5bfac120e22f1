"""Declarations as a referee says them at the table (issue 14): the short forms, what Tab offers, and an
attack's outcome typed at the console's command prompt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from affray import load_encounter, prepare
from affray.drive import AnswerError
from affray.drive.commands import suggest as command_words
from affray.drive.shorthand import entry, suggest
from affray.play.completing import WordCompleter
from cli_run import affray_here

SKIRMISH = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "skirmish.yaml"
KOBOLDS = SKIRMISH.with_name("kobolds_placed.yaml")

#: What a combatant may declare, shaped as a declaration question's ``choices`` (drive/questions.py).
CHOICES: dict[str, Any] = {
    "enemies": ["Orc 1", "Orc Captain"], "allies": ["Mina"], "sides": ["party", "orcs"], "foe_sides": ["orcs"],
    "movement": 90,
    "weapons": [{"name": "long sword", "kind": "melee"}, {"name": "short bow", "kind": "missile"}],
    "spells": [{"name": "magic missile", "level": 1, "ct": 1}, {"name": "sleep", "level": 1, "ct": 1}],
    "keys": {"set": "set against a charge", "past": "the foes run past"},
    "move": ["full", "half", "withdraw"],
}


@pytest.mark.parametrize(("said", "meant"), [
    ("melee Orc 1", {"melee": "Orc 1"}),
    ("MELEE orc captain", {"melee": "Orc Captain"}),  # any case; a name of two words
    ("attack Orc 1 with long sword", {"melee": "Orc 1", "weapon": "long sword"}),
    ("strike orc 1 roll 4", {"melee": "Orc 1", "roll": 4}),
    ("shoot Orc Captain distance 50", {"missile": "Orc Captain", "distance": 50}),
    ("charge Orc 1", {"melee": "Orc 1", "charge": True}),
    ("set Orc 1", {"melee": "Orc 1", "set": True}),
    ("cast sleep at orcs", {"cast": "sleep", "at": "orcs"}),
    ("cast magic missile at Orc Captain", {"cast": "magic missile", "at": "Orc Captain"}),
    ("move 30", {"move": 30}),
    ("move 30 mode half", {"move": 30, "mode": "half"}),
    ("withdraw", {"move": 90, "mode": "withdraw"}),  # its full movement: the choices' 90 ft
    ("flee 60", {"move": 60, "mode": "flee"}),
    ("wait", {"wait": True}),
    ("nothing", {"none": True}),
    ("misc bars the door", {"misc": "bars the door"}),
    ("melee Orc 1 hit 6", {"melee": "Orc 1", "outcome": {"hit": True, "damage": 6}}),
    ("melee Orc 1 miss", {"melee": "Orc 1", "outcome": {"hit": False}}),
    ("{melee: Orc 1, weapon: long sword}", {"melee": "Orc 1", "weapon": "long sword"}),
    ("melee: Orc 1", {"melee": "Orc 1"}),  # a mapping without its braces
])
def test_short_forms(said: str, meant: dict[str, Any]) -> None:
    got = entry(said, CHOICES)
    if "outcome" in meant:  # the outcome is read into the plan entry's `outcome` (an Outcome's fields)
        assert {k: v for k, v in got.items() if k != "outcome"} == {k: v for k, v in meant.items() if k != "outcome"}
        assert {k: got["outcome"][k] for k in meant["outcome"]} == meant["outcome"]
    else:
        assert got == meant


@pytest.mark.parametrize(("said", "why"), [
    ("", "say what it does, e.g. `melee NAME`"),
    ("melee Orc 9", "melee: no combatant named 'Orc 9' (Orc 1, Orc Captain, Mina, orcs)"),  # or side (issue 37)
    ("melee", "melee: name one (Orc 1, Orc Captain, Mina, orcs)"),
    ("cast fireball", "cast: no spell it knows named 'fireball' (magic missile, sleep)"),
    ("melee Orc 1 with axe", "with: no weapon it carries named 'axe' (long sword, short bow)"),
    ("move far", "'far': not understood here; after the action come with, at, roll, distance"),
    ("move 30 mode", "mode: give one (full, half, withdraw)"),
    ("misc", "misc: say what it does"),
    ("{melee: [", "not readable as YAML flow style"),
    ("[1, 2]", "one plan entry is a mapping"),
])
def test_a_bad_entry_says_what_would_be_right(said: str, why: str) -> None:
    with pytest.raises(AnswerError) as caught:
        entry(said, CHOICES)
    assert why in str(caught.value)


def test_set_is_refused_where_the_ruleset_has_no_set() -> None:
    with pytest.raises(AnswerError, match=r"set: this ruleset has no `set` \(its own keys: none\)"):
        entry("set Orc 1", {**CHOICES, "keys": {}})


@pytest.mark.parametrize(("typed", "partial", "offered"), [
    ("me", "me", ["melee"]),
    ("c", "c", ["charge", "cast"]),
    ("melee O", "O", ["Orc 1", "Orc Captain", "orcs"]),
    ("melee orc c", "orc c", ["Orc Captain"]),
    ("cast ", "", ["magic missile", "sleep"]),
    ("cast sleep at ", "", ["Orc 1", "Orc Captain", "Mina", "party", "orcs"]),
    ("melee Orc 1 with s", "s", ["short bow"]),
    ("melee Orc 1 ", "", ["with", "at", "roll", "distance", "hit", "miss", "speed", "mode", "set", "past"]),
    ("move 30 ", "", ["with", "at", "roll", "distance", "hit", "miss", "speed", "mode", "set", "past", "full",
                      "half", "withdraw"]),
    ("p", "p", ["past"]),  # a ruleset's own key may open the line
])
def test_what_tab_offers_at_a_declaration(typed: str, partial: str, offered: list[str]) -> None:
    assert suggest(typed, CHOICES) == (partial, offered)


def test_what_tab_offers_at_the_command_prompt() -> None:
    fight = prepare(load_encounter(SKIRMISH)).fight()
    assert command_words("da", fight, ("step", "dice")) == ("da", ["damage"])
    assert command_words("d", fight, ("step", "dice")) == ("d", ["dice", "damage", "declare"])  # declare: issue 25
    assert command_words("damage orc c", fight) == ("orc c", ["Orc Captain"])
    assert command_words("condition Brom as", fight) == ("as", ["asleep"])
    assert command_words("end Brom ", fight) == ("", [])  # he holds no condition to end
    assert command_words("add o", fight) == ("o", ["orcs"])
    assert command_words("dice orcs r", fight) == ("r", ["roll"])


#: The same combatant in a fight that places its combatants (the question's ``placed``): a move has its way.
PLACED = {**CHOICES, "placed": True}


@pytest.mark.parametrize(("typed", "partial", "offered"), [
    ("move 30 t", "t", ["toward", "to"]),  # a move's way (docs/positions.md): toward NAME, away NAME, to X Y
    ("withdraw a", "a", ["at", "away"]),  # `at` is a modifier of any declaration, `away` a withdrawal's way
    ("move toward O", "O", ["Orc 1", "Orc Captain", "orcs"]),  # read as a target, as `at` is
    ("move 30 away orc c", "orc c", ["Orc Captain"]),
    ("melee Orc 1 t", "t", []),  # an attack has no way
])
def test_what_tab_offers_for_a_move_in_a_placed_fight(typed: str, partial: str, offered: list[str]) -> None:
    assert suggest(typed, PLACED) == (partial, offered)
    assert entry("move toward orc captain", PLACED) == {"move": 90, "toward": "Orc Captain"}  # what Tab led to
    assert "toward" not in suggest("move 30 t", CHOICES)[1]  # unplaced: no way to offer


def test_what_tab_offers_after_move_at_the_command_prompt() -> None:
    """``move NAME to X Y | toward NAME | away NAME [FEET]`` (the referee's move, placed fights only): the way
    after the name, then a name after toward or away, not the mover's own."""
    fight = prepare(load_encounter(KOBOLDS), ruleset="side-d6").fight()  # the file leaves the ruleset to the run
    assert command_words("move Brom ", fight) == ("", ["to", "toward", "away"])
    assert command_words("move Brom tow", fight) == ("tow", ["toward"])
    assert command_words("move Brom toward kobold 1", fight) == ("kobold 1", ["Kobold 1", "Kobold 10", "Kobold 11",
                                                                               "Kobold 12"])
    assert "Brom" not in command_words("move Brom away ", fight)[1]
    assert command_words("move Brom to 30 ", fight) == ("", [])  # numbers: nothing to offer
    unplaced = prepare(load_encounter(SKIRMISH)).fight()
    assert command_words("move Brom ", unplaced)[1] == []  # no way where nobody stands anywhere


def test_prompt_toolkit_completes_the_word_being_typed() -> None:
    """The completer replaces only the part being typed (start_position back over it)."""
    completer = WordCompleter(lambda text: suggest(text, CHOICES))
    got = list(completer.get_completions(Document("melee orc c"), CompleteEvent()))
    assert [(c.text, c.start_position) for c in got] == [("Orc Captain", -5)]


# ------------------------------------------------------------------------------- an outcome at the prompt

def play(tmp_path: Path, lines: str) -> str:
    done = affray_here("play", SKIRMISH, "--auto", "--db", tmp_path / "f.db", stdin=lines + "quit\n")
    assert done.returncode == 0, done.stdout + done.stderr
    return " ".join(done.stdout.split())


def test_hit_typed_before_an_attack_is_its_outcome(tmp_path: Path) -> None:
    """skirmish under side-d6, seed 7: after surprise, the declarations and the initiative (party d6 4, orcs 1,
    MJ-04), the party's first step is Ash's missiles at Orc 4 (step 5, MJ-05); `hit 6` typed at that pause is
    that attack's outcome: a hit for 6 damage, whatever the d20 would have said."""
    out = play(tmp_path, "step 12\nhit 6\n")
    assert "hit 6: for Ash's missile at Orc 4" in out
    assert "missile Ash -> Orc 4: hit, 6 damage" in out


def test_hit_typed_when_no_attack_comes_is_explained(tmp_path: Path) -> None:
    out = play(tmp_path, "hit 6\n")
    assert "hit 6: an attack's outcome, but no attack is about to be rolled" in out
    assert "melee NAME hit 6" in out
