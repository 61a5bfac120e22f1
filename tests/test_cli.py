"""The command line as CONTRACT.md "Commands" and "The timeline" describe it, run as a user runs it.

Exit status: 0 success; 2 bad input, every message on stderr naming the file and field path, no traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_run import affray_here

AFFRAY = str(Path(sys.executable).parent / "affray")
#: The contract's example and bad files (CONTRACT.md), copied into the tests' fixtures: the tests stand alone.
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "contract"
SKIRMISH = FIXTURES / "examples" / "skirmish.yaml"
BAD = sorted((FIXTURES / "bad").glob("*.yaml"))


def affray(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return affray_here(*args)


def run_json(*args: str | Path) -> dict[str, Any]:
    done = affray("run", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # one JSON document: json.loads refuses anything after it


def bad_input(done: subprocess.CompletedProcess[str]) -> str:
    """Exit 2, a message on stderr, no traceback (CONTRACT.md "Exit status")."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.strip()
    assert "Traceback" not in done.stderr + done.stdout
    return done.stderr


def _write(tmp_path: Path, text: str, name: str = "fight.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------- check

def test_check_ok_exits_0_with_one_line() -> None:
    done = affray("check", SKIRMISH)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip().splitlines()) == 1
    assert done.stderr == ""


def test_check_bad_field_exits_2_naming_file_line_and_path(tmp_path: Path) -> None:
    path = _write(tmp_path, """\
sides:
  a:
    combatants:
      - {name: A, hp: 5, weapons: [{name: club, sf: 4, damage: 1d6}, {name: axe, sf: -1, damage: 1d8}]}
  b: {combatants: [{name: B, hp: 5}]}
""")
    err = bad_input(affray("check", path))
    # line 4 holds the combatant; the second weapon's sf is the bad field
    assert f"{path}:4: sides.a.combatants[0].weapons[1].sf:" in err


def test_check_reports_every_problem(tmp_path: Path) -> None:
    path = _write(tmp_path, """\
sides:
  a: {combatants: [{name: A, hp: 0, size: enormous}]}
  b: {combatants: [{name: B, ac: 12}]}
""")
    err = bad_input(affray("check", path))
    # A: hp 0 and size; B: hp missing and ac 12 (AC runs 10 down): four problems, lines 2, 2, 3, 3
    for where in ("2: sides.a.combatants[0].hp", "2: sides.a.combatants[0].size",
                  "3: sides.b.combatants[0].hp", "3: sides.b.combatants[0].ac"):
        assert f"{path}:{where}:" in err
    assert len(err.strip().splitlines()) == 4


def test_check_under_a_ruleset_checks_the_dice(tmp_path: Path) -> None:
    path = _write(tmp_path, """\
sides:
  a: {combatants: [{name: A, hp: 5, weapons: [{name: club, sf: 4, damage: 1d6}]}]}
  b: {combatants: [{name: B, hp: 5}]}
plan:
  A: [{melee: B, dice: {attack: 21}}]
""")
    assert affray("check", path).returncode == 0  # no ruleset: the d20 is not checked
    err = bad_input(affray("check", path, "--ruleset", "side-d6"))
    # line 5: the d20 cannot show 21
    assert f"{path}:5: plan.A[0].dice.attack:" in err


def test_check_missing_file_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.yaml"
    assert str(missing) in bad_input(affray("check", missing))


def test_top_level_not_a_mapping_names_sides(tmp_path: Path) -> None:
    path = _write(tmp_path, "- just\n- a list\n")
    err = bad_input(affray("check", path))
    assert str(path) in err and "sides" in err


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_contract_bad_files_exit_2_naming_what_their_first_line_says(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: ")
    expected = first.removeprefix("# expect: ").strip()
    err = bad_input(affray("check", path))
    assert expected in err
    assert str(path) in err


def test_there_are_six_bad_contract_files() -> None:
    # the parametrized test above must not silently run on fewer
    assert [p.stem for p in BAD] == ["bad_dice", "duplicate_name", "negative_sf", "not_yaml", "unknown_ruleset",
                                     "unknown_target"]


# -------------------------------------------------------------------------------------------- rulesets

def _rulesets() -> list[dict[str, Any]]:
    done = affray("rulesets", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["rulesets"]


def test_rulesets_json_lists_side_d6_with_its_options_and_defaults() -> None:
    side_d6 = next(r for r in _rulesets() if r["id"] == "side-d6")
    assert side_d6["seed"] == "001" and side_d6["title"]
    defaults = {o["name"]: o["default"] for o in side_d6["options"]}
    # each default as RULES.md states it
    assert defaults["natural_20"] is True                  # G-04: "option, default on"
    assert defaults["morale_dice"] == "2d6"                # G-07: 2d6 for side-d6
    assert defaults["morale_failure"] == "flee"            # G-07: "default flee"
    assert defaults["morale_first_casualty"] == "own"      # MJ-02: "default own"
    assert defaults["many_sides"] == "descending"          # MJ-04: descending order of the rolls
    assert defaults["melee_disrupts"] is False             # MJ-06: "default off"
    assert defaults["mutual_surprise"] == "both_lose"      # MJ-08: "default both_lose"
    assert defaults["lance_first"] is True                 # MJ-17: "default on"
    choices = {o["name"]: o.get("choices") for o in side_d6["options"]}
    assert choices["mutual_surprise"] == ["both_lose", "cancel"]
    assert choices["morale_first_casualty"] == ["own", "any"]


def test_rulesets_text_lists_every_id() -> None:
    done = affray("rulesets")
    assert done.returncode == 0
    for r in _rulesets():
        assert r["id"] in done.stdout


def test_python_dash_m_affray_is_the_same_command() -> None:
    # CONTRACT.md: "python -m affray does the same"
    done = subprocess.run([sys.executable, "-m", "affray", "rulesets", "--json"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0
    assert done.stdout == affray("rulesets", "--json").stdout


# ------------------------------------------------------------------------------------- run: bad input

def test_unknown_ruleset_exits_2_listing_valid_ids() -> None:
    err = bad_input(affray("run", SKIRMISH, "--ruleset", "round-robin"))
    assert "round-robin" in err
    for r in _rulesets():
        assert r["id"] in err


def test_no_ruleset_at_all_exits_2() -> None:
    # the skirmish file names no ruleset: "optional when --ruleset is given", so required without it
    err = bad_input(affray("run", SKIRMISH))
    assert str(SKIRMISH) in err and "ruleset" in err


def test_set_unknown_option_exits_2_listing_valid_options() -> None:
    err = bad_input(affray("run", SKIRMISH, "--ruleset", "side-d6", "--set", "unknown=1"))
    assert "unknown" in err
    side_d6 = next(r for r in _rulesets() if r["id"] == "side-d6")
    for o in side_d6["options"]:
        assert o["name"] in err


def test_set_bad_choice_exits_2_listing_allowed_values() -> None:
    # MJ-08's option takes both_lose or cancel
    err = bad_input(affray("run", SKIRMISH, "--ruleset", "side-d6", "--set", "mutual_surprise=bogus"))
    assert "bogus" in err and "both_lose" in err and "cancel" in err


def test_set_without_a_value_is_bad_input() -> None:
    err = bad_input(affray("run", SKIRMISH, "--ruleset", "side-d6", "--set", "melee_disrupts"))
    assert "melee_disrupts" in err


def test_bad_file_under_run_exits_2(tmp_path: Path) -> None:
    path = _write(tmp_path, "sides:\n  a: {combatants: [{name: A, hp: 5}]}\n  b: {combatants: [{name: B}]}\n")
    err = bad_input(affray("run", path, "--ruleset", "side-d6"))
    assert f"{path}:3: sides.b.combatants[0].hp:" in err


# -------------------------------------------------------------------------------- run: --set as YAML

def test_set_value_is_a_yaml_bool() -> None:
    # "--set melee_disrupts=true": YAML `true` is the boolean, shown back as JSON true (MJ-06 option)
    doc = run_json(SKIRMISH, "--ruleset", "side-d6", "--set", "melee_disrupts=true")
    assert doc["options"]["melee_disrupts"] is True
    default = run_json(SKIRMISH, "--ruleset", "side-d6")
    assert default["options"]["melee_disrupts"] is False


def test_set_value_is_a_yaml_int_and_a_quoted_one_is_a_string() -> None:
    doc = run_json(SKIRMISH, "--ruleset", "side-d6", "--set", "default_morale=3")
    assert doc["options"]["default_morale"] == 3
    # '"3"' is a YAML string, not a whole number
    err = bad_input(affray("run", SKIRMISH, "--ruleset", "side-d6", "--set", 'default_morale="3"'))
    assert "default_morale" in err


def test_set_is_repeatable_and_overrides_the_file(tmp_path: Path) -> None:
    text = SKIRMISH.read_text(encoding="utf-8") + "options: {mutual_surprise: cancel}\n"
    path = _write(tmp_path, text)
    assert run_json(path, "--ruleset", "side-d6")["options"]["mutual_surprise"] == "cancel"
    doc = run_json(path, "--ruleset", "side-d6", "--set", "mutual_surprise=both_lose", "--set", "lance_first=false")
    assert doc["options"]["mutual_surprise"] == "both_lose"
    assert doc["options"]["lance_first"] is False


# ----------------------------------------------------------------------------------- run: the timeline

EVENT_KINDS = {"surprise", "initiative", "declare", "move", "missile", "melee", "cast-start", "cast",
               "spell-ruined", "spell-lost", "misc", "wait", "morale", "down", "delay", "expire", "impossible"}


def test_run_json_is_one_document_with_the_contract_keys() -> None:
    doc = run_json(SKIRMISH, "--ruleset", "side-d6")
    assert list(doc) == ["ruleset", "seed", "options", "events", "combatants", "winner"]
    assert (doc["ruleset"], doc["seed"]) == ("side-d6", 7)  # skirmish.yaml says seed: 7
    events = doc["events"]
    assert events
    assert [e["seq"] for e in events] == list(range(len(events)))  # "the order of resolution, from 0"
    for e in events:
        assert {"seq", "tick", "at", "round", "kind", "actor"} <= set(e)
        assert isinstance(e["tick"], list) and all(isinstance(t, int) for t in e["tick"])
        assert e["kind"] in EVENT_KINDS, e["kind"]
        if e["kind"] in ("melee", "missile"):
            assert {"target", "hit", "damage"} <= set(e)
            assert e["hit"] or e["damage"] == 0  # "damage (0 on a miss)"
        if e["kind"] in ("cast", "cast-start", "spell-ruined", "spell-lost"):
            assert "spell" in e
        if e["kind"] in ("move", "missile", "melee", "cast", "cast-start", "misc", "delay"):
            assert e.get("why"), e  # "Every event that a ruleset placed in time ... carries why"
    ticks = [tuple(e["tick"]) for e in events]
    assert ticks == sorted(ticks)  # resolution order follows tick order
    # 4 party members + 4 orcs from `count: 4` + the captain = 9, each with side, hp, down
    assert len(doc["combatants"]) == 9
    assert {"Orc 1", "Orc 2", "Orc 3", "Orc 4", "Orc Captain", "Brom", "Sela", "Mina", "Ash"} == set(doc["combatants"])
    for c in doc["combatants"].values():
        assert {"side", "hp", "down"} <= set(c)
    assert doc["winner"] is None or doc["winner"] in ("party", "orcs")


def test_run_json_final_hp_is_start_hp_minus_damage_taken() -> None:
    # the final state folds the events: hp = file hp - every attack's damage on it (no spell here does damage)
    doc = run_json(SKIRMISH, "--ruleset", "side-d6")
    start = {"Brom": 48, "Sela": 22, "Mina": 13, "Ash": 15, "Orc Captain": 16,
             **{f"Orc {k}": 6 for k in range(1, 5)}}
    taken = dict.fromkeys(start, 0)
    for e in doc["events"]:
        if e["kind"] in ("melee", "missile") and e["hit"]:
            taken[e["target"]] += e["damage"]
    for name, c in doc["combatants"].items():
        assert c["hp"] == start[name] - taken[name], name
        assert c["down"] == (c["hp"] <= 0), name  # G-05: at 0 hp or less, down


def test_g06_same_seed_same_bytes() -> None:
    one = affray("run", SKIRMISH, "--ruleset", "side-d6", "--json")
    two = affray("run", SKIRMISH, "--ruleset", "side-d6", "--json")
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout


def test_seed_option_overrides_the_file() -> None:
    base = run_json(SKIRMISH, "--ruleset", "side-d6")
    same = run_json(SKIRMISH, "--ruleset", "side-d6", "--seed", "7")  # the file's own seed: no change
    other = run_json(SKIRMISH, "--ruleset", "side-d6", "--seed", "8")
    assert same == base
    assert other["seed"] == 8
    # different dice: the recorded rolls differ (the events carry each die)
    assert [e.get("dice") for e in other["events"]] != [e.get("dice") for e in base["events"]]


def test_without_a_seed_the_drawn_seed_is_reported_and_replays(tmp_path: Path) -> None:
    text = SKIRMISH.read_text(encoding="utf-8").replace("seed: 7\n", "")
    assert "seed:" not in text
    path = _write(tmp_path, text)
    first = affray("run", path, "--ruleset", "side-d6", "--json")
    assert first.returncode == 0, first.stderr
    seed = json.loads(first.stdout)["seed"]
    assert isinstance(seed, int)
    # "without one a fresh seed is drawn and reported": replaying with it gives the same combat
    replay = affray("run", path, "--ruleset", "side-d6", "--json", "--seed", str(seed))
    assert replay.stdout == first.stdout


def test_max_rounds_1_stops_after_round_1() -> None:
    # Brom's plan has three declarations, so the uncapped run reaches round 3; capped, nothing after round 1
    full = run_json(SKIRMISH, "--ruleset", "side-d6")
    assert max(e["round"] for e in full["events"]) >= 2
    capped = run_json(SKIRMISH, "--ruleset", "side-d6", "--max-rounds", "1")
    assert {e["round"] for e in capped["events"]} == {1}
    # round 1 itself is unchanged by the cap
    assert capped["events"] == [e for e in full["events"] if e["round"] == 1]


def test_auto_plays_on_until_one_side_stands() -> None:
    doc = run_json(SKIRMISH, "--ruleset", "side-d6", "--auto")
    standing = {c["side"] for c in doc["combatants"].values() if not c["down"] and not c.get("fled")}
    assert doc["winner"] is not None
    assert standing == {doc["winner"]}


def test_run_text_exits_0() -> None:
    done = affray("run", SKIRMISH, "--ruleset", "side-d6")
    assert done.returncode == 0, done.stderr
    assert "side-d6" in done.stdout and "Brom" in done.stdout


#: Names as a file may write them: rich markup's brackets (a closing tag with nothing to close) and an emoji code.
MARKUP_NAMES = """\
ruleset: side-d6
seed: 7
sides:
  party:
    combatants:
      - {name: "Brom [the bold]", hp: 8, ac: 5, weapons: [{name: sword, damage: 1d8}]}
      - {name: "Ash:fire:", hp: 8, ac: 5, weapons: [{name: sword, damage: 1d8}]}
  orcs:
    combatants:
      - {name: "[/]Orc", hp: 5, ac: 6, weapons: [{name: axe, damage: 1d8}]}
"""


@pytest.mark.parametrize("command", [("run", "--auto"), ("simulate", "--fights", "20", "--seed", "1", "--yes"),
                                     ("replay", "--ruleset", "d12-procedure", "--seed", "1")])
def test_names_that_look_like_markup_or_emoji_are_printed_as_written(tmp_path: Path, command: tuple[str, ...]) -> None:
    """The final state's table, the simulator's survival table and the replay's side-by-side table print a name as
    the file writes it. Before, each went through rich's markup: "[/]Orc" ended the command in an internal error
    (MarkupError), "Brom [the bold]" lost its brackets and "Ash:fire:" became an emoji."""
    path = _write(tmp_path, MARKUP_NAMES)
    done = affray(command[0], path, *command[1:])
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr
    for name in ("Brom [the bold]", "Ash:fire:", "[/]Orc"):
        assert f"│ {name} " in done.stdout or f"│ {name}" in done.stdout, (name, done.stdout[-2000:])
    assert "\N{FIRE}" not in done.stdout
