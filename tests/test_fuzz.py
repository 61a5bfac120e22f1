"""Hostile input, fuzzed (issue 18): mutated example files through ``check`` and ``run``, and random command
lines through the console. Whatever comes in, the exit status is 0 or 2 (never 1, never a traceback), and a
fight's journal always replays to the events it stored.

The budget is the hypothesis profile ``fuzz`` (tests/conftest.py); ``AFFRAY_FUZZ_PROFILE=fuzz-hunt`` runs
thousands of examples instead of CI's few hundred.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from affray.cli.app import app
from affray.engine.options import option_info
from affray.io.load import load_value
from affray.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "src" / "affray" / "examples" / "skirmish.yaml",
         ROOT / "src" / "affray" / "examples" / "bugbears_phase_count.yaml",
         ROOT / "benchmarks" / "forty.yaml",
         ROOT / "benchmarks" / "fighters_vs_orcs.yaml"]
TEXTS = [p.read_text(encoding="utf-8") for p in FILES]
IDS = [r.id for r in RULESETS]
PROFILE = settings.get_profile(os.environ.get("AFFRAY_FUZZ_PROFILE", "fuzz"))
runner = CliRunner()
# The console commits every row to disk (synchronous=FULL): in memory-backed /dev/shm, where there is one, a
# commit costs microseconds instead of a disk flush, and the budget goes to examples.
FAST_DIR = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None

# Values a hostile file or command puts where a number, a name or a mapping belongs.
HOSTILE = ["{}", "[]", "null", "~", "true", "false", "-1", "0", "1", "20", "21", "1e300", "-1e300", ".nan", ".inf",
           "99999999999999999999999", "9223372036854775808", "1000000d6", "1d1000000", "d0", "0d6", "1d6+1d4",
           "'  '", "''", "!foo x", "!!python/name:os.system", "!!binary aGVsbG8=", "!!set {a}", "*nowhere",
           "&a [*a]", '"\\e[31mred\\a"', '"two\\nlines"', "2001-01-01", "[[[[[[[[[[1]]]]]]]]]]", "3/2", "1/2",
           "5/4", "1/3", "7/5", "0.5", "2.5", "-5", "1/0", "{hit: true, damage: 5}", "[{hit: 3}]", "{attack: 21}",
           "fast", "strikes last", "1 round", "3 turns", "1000 turns", "9 segments", "10", "100", "1000", "10000",
           "10001", "melee", "Brom", "Orc 1", "Bugbear 1", "party", "orcs", "[Orc 1, Orc 2]", "{melee: Orc 1}"]
KEYS = ["attacks", "rate", "count", "hp", "hd", "ac", "thac0", "dex", "mv", "level", "class", "size", "sf", "damage",
        "reach", "kind", "speed", "ct", "duration", "damage_at", "outcome", "dice", "roll", "distance", "move",
        "weapon", "at", "melee", "missile", "cast", "misc", "wait", "none", "charge", "mode", "seed", "ruleset",
        "options", "surprise", "rolls", "plan", "name", "pc", "morale", "shield", "slots", "mana", "components",
        "hold", "set", "abort", "until", "declared_at", "ready", "step", "split", "stunt", "routine", "pace"]
DATA = [load_value(t, "example") for t in TEXTS]
# The keys rulesets add to declarations and the dice they read, and every option: fuzzed with the rest.
KEYS += sorted({k for r in RULESETS for k in r.declaration_keys} | {"crit", "crit_agi", "crit_dex", "crit_phases",
                                                                    "damage2", "extra_attack", "free_damage"})
OPTIONS = sorted({o.name for r in RULESETS for o in option_info(r.Options)})
JUNK = st.text(alphabet=st.sampled_from(list("[]{}:,-&*!?|>'\"#% \n\t\x1b\x07\x00abc0123456789é")), max_size=12)
VALUE = st.one_of(st.sampled_from(HOSTILE), st.integers(-10**6, 10**6).map(str), JUNK)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """An example file with one to four mutations: a value replaced, a key added, a line dropped, doubled or
    moved, junk inserted, or the text cut short."""
    lines = draw(st.sampled_from(TEXTS)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        op = draw(st.sampled_from(["value", "value", "value", "key", "drop", "double", "move", "junk", "cut"]))
        if op == "value" and ":" in line:
            cut = draw(st.sampled_from([k for k, c in enumerate(line) if c == ":"]))
            rest = line[cut + 1:]
            end = min((k for k in (rest.find(","), rest.find("}")) if k >= 0), default=len(rest))
            lines[i] = line[:cut + 1] + " " + draw(VALUE) + rest[end:]
        elif op == "key" and ":" in line:
            indent = line[:len(line) - len(line.lstrip(" -"))].replace("-", " ")
            lines.insert(i + 1, f"{indent}{draw(st.sampled_from(KEYS))}: {draw(VALUE)}")
        elif op == "drop":
            del lines[i]
        elif op == "double":
            lines.insert(i, line)
        elif op == "move":
            lines.insert(draw(st.integers(0, len(lines))), lines.pop(i))
        elif op == "junk":
            k = draw(st.integers(0, len(line)))
            lines[i] = line[:k] + draw(JUNK) + line[k:]
        elif op == "cut":
            lines = lines[:i] + [line[:draw(st.integers(0, len(line)))]]
        if not lines:
            lines = [""]
    return "\n".join(lines) + "\n"


def _parsed(text: str) -> object:
    try:
        return load_value(text, "value")
    except ValueError:
        return text


def _places(node: object, out: list[tuple[object, object]]) -> list[tuple[object, object]]:
    """Every (container, key) of a parsed file."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        out.append((node, k))
        _places(v, out)
    return out


def _mappings(node: object) -> list[dict[str, object]]:
    """Every mapping below the top of a parsed file."""
    items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    return [m for v in items for m in ([v] if isinstance(v, dict) else []) + _mappings(v)]


def _strings(node: object) -> list[str]:
    if isinstance(node, dict):
        return [*map(str, node), *(s for v in node.values() for s in _strings(v))]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return [node] if isinstance(node, str) else []


@st.composite
def structured(draw: st.DrawFn) -> str:
    """An example file, parsed, with one to four fields set to hostile values, the names of the file's own
    combatants, sides, weapons and spells, or ruleset keys added where they are read; written as JSON."""
    data = json.loads(json.dumps(draw(st.sampled_from(DATA))))
    names = sorted(set(_strings(data)))
    values = st.one_of(st.sampled_from(HOSTILE).map(_parsed), st.sampled_from(names), st.integers(-3, 30),
                       st.lists(st.sampled_from(names), max_size=3))
    for _ in range(draw(st.integers(1, 4))):
        places = _places(data, [])
        container, key = draw(st.sampled_from(places)) if places else (data, "sides")
        op = draw(st.sampled_from(["set", "set", "add", "add", "drop"]))
        mappings = _mappings(data)  # declarations, combatants, weapons, spells...: where keys are read
        if op == "add" and mappings:
            draw(st.sampled_from(mappings))[draw(st.sampled_from(KEYS))] = draw(values)
        elif op == "drop":
            del container[key]  # type: ignore[attr-defined]
        else:
            container[key] = draw(values)  # type: ignore[index]
    return json.dumps(data)


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    """Run the CLI in this process (a subprocess per example would spend the budget starting Python)."""
    result = runner.invoke(app, list(args), input=stdin)
    out = result.output  # stdout and stderr, as printed
    assert result.exit_code in (0, 2), (args, result.exit_code, out[-2000:])
    assert "Traceback" not in out and "internal error" not in out, out[-2000:]
    return result.exit_code, result.stdout


@PROFILE
@given(text=st.one_of(mutated(), structured()), ruleset=st.sampled_from(IDS),
       option=st.one_of(st.none(), st.tuples(st.sampled_from([*OPTIONS, "x"]), VALUE)))
def test_mutated_files_exit_0_or_2(text: str, ruleset: str, option: tuple[str, str] | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fight.yaml"
        path.write_text(text, encoding="utf-8")
        invoke("check", str(path))
        sets = ["--set", f"{option[0]}={option[1]}"] if option else []
        invoke("run", str(path), "--ruleset", ruleset, "--auto", "--max-rounds", "3", "--json", *sets)


NAMES = ["Brom", "Sela", "Mina", "Ash", "Orc 1", "Orc 2", "Orc Captain", "Nobody", "", "Brom\x1b[31m"]
NUMBER = st.one_of(st.integers(-3, 30).map(str), st.sampled_from(["10000", "10001", "10" * 12, "²", "٣", "x", ""]))
SPEC = st.sampled_from(["{name: Newt, hp: 9, weapons: [{name: club, sf: 4, damage: 1d6}]}", "{name: Brom, hp: 9}",
                        "{name: X, hp: 1000000}", "{name: Y, hp: true}", "[1]", "{name: Z, hp: 5, count: 3}",
                        "&a [*a]", "!foo x", "{name: W, hp: 5, weapons: [{name: c, damage: 1000000d6}]}", "{"])
PLAN = st.sampled_from(["[{melee: Orc 2}]", "[{melee: Brom}]", "{melee: Orc 1, outcome: {hit: true, damage: 3}}",
                        "[{cast: web, at: orcs}]", "[{melee: null}]", "[{melee: {}}]", "[{wait: {x: 1}}]",
                        "[{missile: Orc 4}]", "[{move: 30, mode: flee}]", "[7]", "[", "[{melee: Orc 1, hold: {}}]"])
COMMAND = st.one_of(
    st.tuples(st.sampled_from(["step", "step", "step", "undo", "s", "u"]), NUMBER).map(" ".join),
    st.sampled_from(["step", "step", "undo", "status", "help", "run", "dice roll", "dice ask", "dice orcs ask",
                     "dice [/x] roll", "quit-not", "", "   "]),
    st.tuples(st.sampled_from(["damage", "heal"]), st.sampled_from(NAMES), NUMBER).map(" ".join),
    st.tuples(st.just("add"), st.sampled_from(["party", "orcs", "nobody"]), SPEC).map(" ".join),
    st.tuples(st.just("remove"), st.sampled_from(NAMES)).map(" ".join),
    st.tuples(st.just("plan"), st.sampled_from(NAMES), PLAN).map(" ".join),
    JUNK,
)


@settings(PROFILE, max_examples=max(1, PROFILE.max_examples // 3))  # an example plays, logs, resumes, logs
@given(commands=st.lists(COMMAND, max_size=12), ruleset=st.sampled_from(IDS))
def test_random_console_commands_exit_0_or_2_and_the_journal_replays(commands: list[str], ruleset: str) -> None:
    """The console through any commands; then the journal, logged, re-opened and logged again, is the same."""
    with tempfile.TemporaryDirectory(dir=FAST_DIR) as tmp:
        db = str(Path(tmp) / "fight.db")
        script = "".join(c.replace("\n", " ") + "\n" for c in commands) + "quit\n"
        invoke("play", str(FILES[0]), "--ruleset", ruleset, "--auto", "--max-rounds", "3", "--db", db, stdin=script)
        code, before = invoke("log", "--db", db, "--json")
        assert code == 0  # the stored events are what a fresh replay of the journal gives (rebuild checks it)
        invoke("play", "--db", db, stdin="quit\n")
        code, after = invoke("log", "--db", db, "--json")
        assert code == 0 and json.loads(after) == json.loads(before)
