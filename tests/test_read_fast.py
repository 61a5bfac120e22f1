"""The fast reader (``parse_yaml(..., lines=False)``: ruamel's safe reader, libyaml's C parser when installed) gives
the same plain data as the round-trip reader on every example and fixture, and a problem found after a fast read
still names its line (the file is read again with lines)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from affray.errors import EncounterError
from affray.io.load import load_text
from affray.io.read import parse_yaml, plain_data

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("src/affray/examples/*.yaml"), *ROOT.glob("tests/fixtures/**/*.yaml"),
                *ROOT.glob("tests/fixtures/**/*.json"), *ROOT.glob("benchmarks/*.yaml")])

#: YAML 1.2 as both readers resolve it (ruamel's resolver in both): yes/on are text, 012 is twelve, 0o17 fifteen,
#: a date is a date (written back as text by ``plain_data``), anchors and aliases share a value, keys of every
#: plain kind.
TRICKY = """\
a: yes
b: on
c: 012
d: 0o17
e: 0x1F
f: 1e3
g: .inf
h: 2020-01-01
i: ~
j: "quoted: text"
k: |
  two
  lines
l: &x {p: 1, q: [1, 2.5, -3]}
m: *x
2: two
true: yes-key
null: nothing
n: [a, b, {c: d}]
o: 1_000
"""


def _both(text: str) -> tuple[object, object]:
    fast = parse_yaml(text, "f.yaml", lines=False)
    slow = parse_yaml(text, "f.yaml")
    assert not hasattr(fast, "lc") and hasattr(slow, "lc")  # the fast read had no lines, the round-trip one has
    return plain_data(fast, "f.yaml"), plain_data(slow, "f.yaml")


def test_the_files_found() -> None:
    # the three examples, the contract's fixtures, the benchmarks' two fights at least
    assert len(FILES) >= 12, FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_and_fixture_reads_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        parse_yaml(text, path.name)
    except EncounterError as exc:  # a fixture that is not YAML: the fast read says the same, with its line
        with pytest.raises(EncounterError) as info:
            parse_yaml(text, path.name, lines=False)
        assert info.value.problems == exc.problems and exc.problems[0].line is not None
        return
    fast, slow = _both(text)
    assert fast == slow
    assert repr(fast) == repr(slow)  # the same types, keys in the same order


def test_tricky_values_read_the_same() -> None:
    fast, slow = _both(TRICKY)
    assert fast == slow and repr(fast) == repr(slow)
    assert isinstance(fast, dict)
    # YAML 1.2: yes and on are text; 012 is decimal 12, 0o17 = 1*8+7 = 15, 0x1F = 31; 1_000 = 1000
    assert (fast["a"], fast["b"], fast["c"], fast["d"], fast["e"], fast["o"]) == ("yes", "on", 12, 15, 31, 1000)
    assert fast["h"] == "2020-01-01" and fast["m"] == fast["l"] == {"p": 1, "q": [1, 2.5, -3]}
    assert fast["null"] == "nothing" and fast["true"] == "yes-key" and fast[2] == "two"


@pytest.mark.parametrize("text", ["a: !!str 5\n", "a: &x {b: 1}\nc:\n  <<: *x\n  d: 2\n"])
def test_a_tag_or_a_merge_key_is_read_with_lines(text: str) -> None:
    # the safe reader would take ``!!str 5`` as "5" where the round-trip one reports the tag; a merge key is left to
    # the reader whose handling the rest of affray was written for
    assert hasattr(parse_yaml(text, "f.yaml", lines=False), "lc")


def test_an_error_after_a_fast_read_names_its_line() -> None:
    text = textwrap.dedent("""\
        sides:
          a:
            combatants:
              - {name: A, hp: 5}
          b:
            combatants:
              - {name: B, hp: -1}
        """)
    with pytest.raises(EncounterError) as info:
        load_text(text, "f.yaml")
    # B's entry is on line 7 (sides 1, a 2, combatants 3, A 4, b 5, combatants 6, B 7)
    assert [(p.line, p.path) for p in info.value.problems] == [(7, "sides.b.combatants[0].hp")]


def test_a_duplicate_key_is_said_with_its_line() -> None:
    text = "sides:\n  a: {combatants: [{name: A, hp: 5}]}\n  a: {combatants: [{name: B, hp: 5}]}\n"
    with pytest.raises(EncounterError) as info:
        load_text(text, "f.yaml")
    (problem,) = info.value.problems
    # the second ``a`` is on line 3
    assert problem.line == 3 and "duplicate key" in problem.message


def test_a_loaded_file_gives_its_lines_when_asked() -> None:
    text = "sides:\n  a: {combatants: [{name: A, hp: 5}]}\n  b: {combatants: [{name: B, hp: 5}]}\n"
    loaded = load_text(text, "f.yaml")
    assert not hasattr(loaded.tree, "lc")  # read fast
    # a later (ruleset) check's problem at sides.b is on line 3
    assert loaded.problem(("sides", "b"), "x").line == 3
