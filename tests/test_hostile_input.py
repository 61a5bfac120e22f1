"""Hostile input (issue 18): every limit refused with exit 2, the file, line, field path and the limit in the
message, quickly and in little memory; no internal error (exit 1) from any file or command line; messages
in affray's own words; nothing from the input reaches the terminal as a control character.

The commands run in this process (typer's runner) where the exit status and the output are what is tested,
and as a real subprocess where the process itself matters (``/dev/zero``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from affray import limits
from affray.cli.app import app
from affray.errors import EncounterError
from affray.io.load import load_text
from affray.printable import printable

AFFRAY = str(Path(sys.executable).parent / "affray")
runner = CliRunner(env={"COLUMNS": "400"})  # one message, one line

TWO = """\
sides:
  a: {combatants: [{name: A, hp: 5, weapons: [{name: club, sf: 4, damage: 1d6}]}]}
  b: {combatants: [{name: B, hp: 5, weapons: [{name: club, sf: 4, damage: 1d6}]}]}
"""
WORDS_OF_THE_LIBRARY = ("Input should", "input should", "valid dictionary", "instance of", "Tuple should",
                        "after validation", "TaggedScalar", ".str:", ".bool:", "Value error", "unable to parse")


def cli(*args: str | Path, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.output


def bad(path: Path, *args: str) -> str:
    """``check`` and ``run`` both exit 2; the message, in affray's words, names the file."""
    for command in (["check", path], ["run", path, "--ruleset", "side-d6", *args]):
        code, out = cli(*command)
        assert code == 2, out
        assert str(path) in out
        assert not any(w in out for w in WORDS_OF_THE_LIBRARY), out
    return out


def write(tmp_path: Path, text: str, name: str = "fight.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def refused_quickly(text: str) -> str:
    """Loading ``text`` is refused within a second of this process's CPU time and 50 MiB; the problems, one a line.
    CPU time, not the clock's: a bound on the work done, which other processes on a loaded machine do not stretch
    (CI's wall clock gave 1.16 s at a load average of 8)."""
    tracemalloc.start()
    start = time.process_time()
    with pytest.raises(EncounterError) as info:
        load_text(text, "f.yaml")
    elapsed = time.process_time() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert elapsed < 1.0, elapsed
    assert peak < 50 * 2**20, peak
    return str(info.value)


# ------------------------------------------------------------------------------------------------- limits

def test_file_size_dev_zero_is_refused_before_it_is_read() -> None:
    start = time.monotonic()
    done = subprocess.run([AFFRAY, "check", "/dev/zero"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("/dev/zero: not a regular file (a character device): name a file of text (YAML or "
                                   "JSON); to read a pipe's text, save it to a file first")
    assert time.monotonic() - start < 30  # the process starts in about a second; reading /dev/zero never ends


def test_file_size_a_file_over_64_kib_is_refused_with_its_size(tmp_path: Path) -> None:
    path = write(tmp_path, TWO + "# " + "x" * limits.MAX_FILE_BYTES + "\n")
    size = path.stat().st_size  # 64 KiB of x's and then some
    assert f"{path}: the file is {size:,} bytes: larger than the limit of 64 KiB" in bad(path)


def test_alias_bomb_is_refused_where_it_expands() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    out = refused_quickly(TWO + "\n".join(lines) + "\n")
    # a4 (line 8) is the first to pass 100,000 values: 10^5 x's and the lists that hold them
    assert out == ("f.yaml:8: a4: expands to more than 100,000 values (aliases such as *name count each time they "
                   "are used): at most that many (limit)")


def test_nesting_of_flow_lists_is_refused_without_recursion() -> None:
    out = refused_quickly("sides: " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert out == "f.yaml: the file is 200,008 bytes: larger than the limit of 64 KiB"  # 7 + 2 x 100,000 + 1
    out = refused_quickly("sides: " + "[" * 30_000 + "]" * 30_000 + "\n")
    assert out == "f.yaml:1: mappings and lists nested more than 32 deep (limit)"


def test_nesting_of_block_mappings_is_refused_at_its_line() -> None:
    out = refused_quickly("".join(" " * i + "a:\n" for i in range(300)))
    # the 32nd mapping opens on line 32 and holds the 33rd value
    assert out.startswith("f.yaml:32: ") and out.endswith(f"nested more than {limits.MAX_DEPTH} deep (limit)")


def test_nesting_through_aliases_counts_the_nesting_they_bring() -> None:
    chain = "".join(f"c{i}: &c{i} [[[[[[[[[[*{'b' if i == 0 else f'c{i - 1}'}]]]]]]]]]]\n" for i in range(5))
    out = refused_quickly("b: &b [1]\n" + chain)
    # each line nests 10 lists round the one before: under the mapping, c2 reaches 1 + 3 x 10 + 1 = 32 levels,
    # c3 42; the place is c3's alias *c2 (its line, 4, is where c2's lists are written)
    assert out == ("f.yaml:4: c3[0][0][0][0][0][0][0][0][0][0]: mappings and lists nested more than 32 deep (limit; "
                   "an alias counts as the nesting it brings)")


def test_combatants_after_count_are_limited(tmp_path: Path) -> None:
    path = write(tmp_path, """\
    sides:
      a: {combatants: [{name: A, count: 500, hp: 5}, {name: C, count: 500, hp: 5}]}
      b: {combatants: [{name: B, count: 3, hp: 5}]}
    """)
    assert bad(path).strip() == f"{path}:1: sides: 1,003 combatants (count expanded): at most 1000 (limit)"


@pytest.mark.parametrize(("field", "value", "message"), [
    ("attacks", "1000000000", "sides.a.combatants[0].attacks: number of attacks 1000000000: at most 20 (limit)"),
    ("attacks", "1/1000000", "sides.a.combatants[0].attacks: number of attacks 1/1000000: a whole number or a "
                             "fraction in halves, thirds or quarters"),
    ("hp", "10001", "sides.a.combatants[0].hp: should be at most 10000 (got 10001)"),
    ("hd", "1e300", "sides.a.combatants[0].hd: 1e+300 Hit Dice: from 0 to 100 (limit)"),
])
def test_combatant_limits(tmp_path: Path, field: str, value: str, message: str) -> None:
    path = write(tmp_path, TWO.replace("{name: A, hp: 5,", f"{{name: A, hp: 5, {field}: {value},")
                 .replace("hp: 5, hp: 10001", "hp: 10001"))
    assert f"{path}:2: {message}" in bad(path)


@pytest.mark.parametrize(("weapon", "message"), [
    ("damage: 1000000d6", "weapons[0].damage: '1000000d6' throws 1000000 dice: at most 100 (limit)"),
    ("damage: 1d1000000", "weapons[0].damage: '1d1000000': a die has at most 1000 faces (limit)"),
    ("damage: 1d6+100000", "weapons[0].damage: '1d6+100000': the constant is 100000; at most 1000 either way"),
    ("kind: missile, rate: 100000", "weapons[0].rate: fire rate 100000: at most 10 (limit)"),
])
def test_weapon_limits(tmp_path: Path, weapon: str, message: str) -> None:
    path = write(tmp_path, TWO.replace("{name: club, sf: 4, damage: 1d6}", f"{{name: club, sf: 4, {weapon}}}", 1))
    assert f"{path}:2: sides.a.combatants[0].{message}" in bad(path)


def test_every_limit_is_in_the_readme() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Limits"):]
    for name in limits.__all__:
        value = getattr(limits, name)
        shown = ("64 KiB" if name == "MAX_FILE_BYTES" else "2^63 - 1" if name == "MAX_SEED"
                 else f"{value:,}" if isinstance(value, int) else f"{value:g}")  # seconds: 10, not 10.0
        assert shown in section, (name, shown)


# --------------------------------------------------------------------------------- no internal error

@pytest.mark.parametrize(("decl", "message"), [
    ("{melee: {}}", "plan.A[0].melee: should be text (got a mapping)"),
    ("{melee: [B, B]}", "plan.A[0].melee: should be text (got a list)"),
    ("{melee: null}", "plan.A[0].melee: `melee` needs a value (the target), not null"),
    ("{cast: null}", "plan.A[0].cast: `cast` needs a value (the spell's name), not null"),
    ("{melee: B, at: {}}", "plan.A[0].at: should be text (got a mapping)"),
    ("{wait: {x: 1}}", "plan.A[0].wait: should be text or true or false (got a mapping)"),
    ("{melee: A}", "plan.A[0].melee: A cannot attack itself: name a foe"),
    ("{move: 30, past: {B: 1}}", "plan.A[0]: `past` takes a value or a list of values (a name, a number, a word), "
                                 "not a mapping"),
    ("{melee: B, retarget: [[B]]}", "plan.A[0]: `retarget` takes a value or a list of values (a name, a number, a "
                                    "word), not a list of lists or mappings"),
])
def test_a_bad_declaration_exits_2_under_check_run_and_play(tmp_path: Path, decl: str, message: str) -> None:
    path = write(tmp_path, TWO + f"plan:\n  A: [{decl}]\n")
    assert f"{path}:5: {message}" in bad(path)
    code, out = cli("play", path, "--ruleset", "side-d6", "--db", tmp_path / "f.db", stdin="run\nquit\n")
    assert code == 2 and f"{path}:5: {message}" in out


@pytest.mark.parametrize(("combatant", "line", "message"), [
    ("name: A, hp: true", 2, "sides.a.combatants[0].hp: should be a number, not true"),
    ("name: A, hp: !foo 5", 2, "sides.a.combatants[0].hp: the YAML tag !foo is not allowed: write the plain value"),
    ("name: '  ', hp: 5", 2, "sides.a.combatants[0].name: a name cannot be blank"),
    ("name: A, hp: 99999999999999999999999", 2, "sides.a.combatants[0].hp: should be at most 10000 (got "
                                                "99999999999999999999999)"),
    ("name: A, hp: " + "9" * 5000, None, "not valid YAML or JSON: Exceeds the limit (4300 digits)"),
])
def test_meaningless_values_are_refused(tmp_path: Path, combatant: str, line: int | None, message: str) -> None:
    path = write(tmp_path, TWO.replace("name: A, hp: 5", combatant))
    where = f"{path}:{line}: " if line else f"{path}: "
    assert where + message in bad(path)


def test_a_python_tag_is_refused_where_it_stands(tmp_path: Path) -> None:
    path = write(tmp_path, TWO + "seed: !!python/name:os.system\n")
    assert f"{path}:4: seed: the YAML tag !!python/name:os.system is not allowed: write the plain value" in bad(path)


def test_meaningless_values_in_the_messages_words(tmp_path: Path) -> None:
    path = write(tmp_path, """\
    sides:
      a: {combatants: [[1]]}
      b: {combatants: []}
    surprise: 5
    plan:
      A: [{melee: B, outcome: 5}]
    """)
    out = bad(path)
    assert f"{path}:2: sides.a.combatants[0]: should be a combatant (a mapping with name, hp...) (got a list)" in out
    assert f"{path}:3: sides.b.combatants: needs at least 1 entry (has 0)" in out
    assert f"{path}:4: surprise: should be one of 'check', 'none' or a mapping (key: value) (got 5)" in out
    assert f"{path}:6: plan.A[0].outcome: should be an outcome (a mapping such as {{hit: true, damage: 5}}) or a list" \
           in out


@pytest.mark.parametrize("value", ["!!python/name:os.system", "!foo x", "[1", "*a", "&a [*a]"])
def test_set_with_a_yaml_tag_or_bad_yaml_exits_2(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, "ruleset: side-d6\n" + TWO)
    code, out = cli("run", path, "--set", f"natural_20={value}")
    assert code == 2
    assert f"{path}: options (--set): --set 'natural_20={value}': " in out


@pytest.mark.parametrize(("args", "message"), [
    (("--seed", "-1"), "--seed -1: a seed is a whole number from 0 to 9223372036854775807"),
    (("--seed", "9223372036854775808"), "--seed 9223372036854775808: a seed is a whole number from 0"),
    (("--seed", "abc"), "--seed abc: a seed is a whole number from 0"),
    (("--max-rounds", "1001"), "--max-rounds 1001: a whole number from 1 to 1000 (limit)"),
    (("--max-rounds", "0"), "--max-rounds 0: a whole number from 1 to 1000 (limit)"),
])
def test_seed_and_rounds_out_of_range_exit_2(tmp_path: Path, args: tuple[str, str], message: str) -> None:
    path = write(tmp_path, "ruleset: side-d6\n" + TWO)
    for command in ("run", "play"):
        code, out = cli(command, path, *args, "--db", tmp_path / "f.db") if command == "play" else cli(command, path,
                                                                                                        *args)
        assert code == 2 and message in out, out


def test_a_whole_number_option_is_bounded(tmp_path: Path) -> None:
    # speed-segments' move_segment of 10^12 once counted segments for ever
    path = write(tmp_path, "ruleset: speed-segments\n" + TWO)
    code, out = cli("run", path, "--auto", "--set", "move_segment=1000000000000")
    assert code == 2
    assert f"{path}: options (--set): option move_segment: 1000000000000 is not allowed; at most 1000 either way " \
           "(limit)" in out
    path = write(tmp_path, "ruleset: speed-segments\noptions: {round_segments: -100000}\n" + TWO)
    code, out = cli("check", path)
    assert code == 2 and f"{path}:2: options.round_segments: option round_segments: -100000 is not allowed" in out


# ------------------------------------------------------------------------------------------ the console

def console(tmp_path: Path, commands: str, text: str = "ruleset: side-d6\nseed: 1\n" + TWO) -> str:
    path = write(tmp_path, text)
    code, out = cli("play", path, "--db", tmp_path / "f.db", stdin=commands + "quit\n")
    assert code == 0, out
    return out


@pytest.mark.parametrize(("command", "message"), [
    ("damage A " + "1" + "0" * 23, "damage: say `damage NAME N` with N a whole number of hit points from 1 to 10000 "
                                   "(limit)"),
    ("heal A 10000 temp", "heal: A would have 10005 hp: at most 10000 (limit)"),  # temporary hp (issue 37)
    ("heal A 10000", "heal: A is at its full 5 hp (or above)"),  # healing stops at the hp it started with
    ("damage A ²", "damage: say `damage NAME N`"),
    ("step ²", "step ²: give a whole number of steps (1 to 1000000)"),
    ("undo 99999999999999999999", "undo 99999999999999999999: give a whole number of events"),
    ("add b {name: C, hp: 5, weapons: [{name: x, damage: 1000000d6}]}",
     "add: weapons[0].damage: '1000000d6' throws 1000000 dice: at most 100 (limit)"),
    ("add b {name: C, hp: true}", "add: hp: should be a number, not true"),
    ("add b &a [*a]", "add: [0]: an alias refers to the mapping or list that holds it"),
    ("plan A [{melee: A}]", "plan: declaration 0: A cannot attack itself: name a foe"),
    ("plan A [{melee: {}}]", "plan: declaration 0: melee: should be text (got a mapping)"),
    ("plan A [{melee: null}]", "plan: declaration 0: melee: `melee` needs a value (the target), not null"),
    ("dice [/x] ask", "dice for [/x]: ask"),
])
def test_console_commands_out_of_bounds_are_explained(tmp_path: Path, command: str, message: str) -> None:
    out = console(tmp_path, command + "\n")
    assert message in out
    assert not any(w in out for w in WORDS_OF_THE_LIBRARY), out


def test_a_planned_ruleset_key_is_checked_as_in_a_file(tmp_path: Path) -> None:
    # side-d6's past names the foes run past; 'x' once reached the engine and failed there (exit 1)
    skirmish = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "skirmish.yaml"
    out = console(tmp_path, "step 2\nplan Brom [{move: 30, past: x}]\nrun\n", skirmish.read_text(encoding="utf-8"))
    assert "plan: declaration 0: past: past takes a list of combatant names" in out


def test_an_overlong_console_line_is_ignored(tmp_path: Path) -> None:
    out = console(tmp_path, "damage A " + "9" * 20_000 + "\nstep\n")
    assert "(a line of more than 10000 characters, ignored: limit)" in out
    assert "0> step" in out


# ------------------------------------------------------------------------------ terminal injection

EVIL = "Orc\x1b[2J\x1b]0;pwned\x07\u202e\nX"


def test_printable_strips_escapes_and_controls() -> None:
    assert printable(EVIL) == "Orc X"
    assert printable("bell\x07 and \x9b31mC1") == "bell and C1"
    assert printable("two\nlines\x1b[1m", keep_newlines=True) == "two\nlines"
    assert printable("Ærwyn the Bold") == "Ærwyn the Bold"


def test_names_reach_the_terminal_without_control_characters_and_json_keeps_them(tmp_path: Path) -> None:
    """A name holding escapes, a bell, a bidi override and a line break: a new file is refused, its error free of
    them (tests/test_names_apart.py); a fight saved with it by an earlier affray plays at the console without any
    of them reaching the terminal, and its JSON keeps the name whole."""
    from affray.table import Store

    text = "ruleset: side-d6\nseed: 1\n" + TWO.replace("name: A,", f"name: {EVIL!r},".replace(
        "'", '"').replace("\\x1b", "\\e").replace("\\x07", "\\a").replace("\\u202e", "\\u202E"))
    path = write(tmp_path, text)
    code, out = cli("run", path, "--auto")
    assert code == 2 and "holds U+001B" in out, out
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202e]", out), repr(out)
    db = tmp_path / "saved.db"
    store = Store(db)
    store.new_game(str(path), text, "side-d6", 1, {}, False, 50)
    store.close()
    code, out = cli("play", "--db", db, stdin=f"damage {EVIL} 1\nfrob\x1b[2Jnicate\x07\nstep\nstatus\nrun\nquit\n")
    assert code == 0, out
    assert "Orc X" in out and "frobnicate" in out
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202e]", out), repr(out)
    code, doc = cli("log", "--db", db, "--json")
    assert EVIL in __import__("json").loads(doc)["combatants"]


def test_error_messages_carry_no_control_characters(tmp_path: Path) -> None:
    # side "side ESC [31m BEL", whose combatant lacks hp: the path names the side, without its escapes
    path = write(tmp_path, TWO.replace("a: {combatants: [{name: A, hp: 5,",
                                       '"side\\e[31m\\a": {combatants: [{name: A,'))
    code, out = cli("check", path)
    assert code == 2 and f"{path}:2: sides.side.combatants[0].hp: required field is missing" in out, out


def test_a_mapping_as_a_key_is_refused(tmp_path: Path) -> None:
    # `? {a: 1}`: a complex key, which ruamel's duplicate-key check cannot hash (found by the fuzz test: exit 1)
    path = write(tmp_path, TWO + "? {x: 1}\n: 5\n")
    assert (f"{path}:1: a key that is a mapping or list (`? key` entries) is not allowed: keys are names and "
            "numbers") in bad(path)
    nested = write(tmp_path, TWO + "?  c:\n    x: 1\n")  # a block mapping as a key: unhashable for ruamel
    assert f"{nested}: not valid YAML for affray: a key that is a mapping or list" in bad(nested)
