"""A whole fight at the table by answering the console's prompts alone (issue 14): the shipped first fight with
its plan taken out and no ``--auto``, so every declaration is asked, under every ruleset.

The referee here reads each prompt as a person would: ``?`` for the choices, then ``cast sleep at goblins`` for
Mina's first declaration and ``melee`` at the first foe the choices list for everything else; Enter at every
pause. Then two independent checks:

- the fight the console journalled is the fight ``affray run`` gives for the same file with those answers
  written as its ``plan`` (an answer is the plan's next entry, as if the file had given it);
- the same lines piped into a fresh console (as typed, line by line) journal the very same fight.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from ruamel.yaml import YAML

from affray.rulesets import RULESETS
from cli_run import affray_here

AFFRAY = str(Path(sys.executable).parent / "affray")
FIRST = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "first_fight.yaml"
ENV = dict(os.environ, NO_COLOR="1", PROMPT_TOOLKIT_NO_CPR="1", TERM="dumb")
DECLARE = r"([A-Z][\w ]*?) \((\w+)\) declares,? [^\r\n]*? \[(?:Enter: [^\]\r\n]*; )?\? for choices\]: "
PAUSE = r"\n\d+> "


def unplanned(tmp_path: Path) -> Path:
    yaml = YAML()
    doc = yaml.load(FIRST.read_text(encoding="utf-8"))
    del doc["plan"]
    path = tmp_path / "fight.yaml"
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(doc, out)
    return path


def at_the_terminal(path: Path, ruleset: str, db: Path) -> tuple[list[str], list[tuple[str, str]], str]:
    """The referee's session: every line typed, the (combatant, answer) pairs, and all the console printed."""
    child = pexpect.spawn(AFFRAY, ["play", str(path), "--ruleset", ruleset, "--db", str(db)], env=ENV,
                          encoding="utf-8", timeout=60, dimensions=(50, 160))
    typed: list[str] = []
    answers: list[tuple[str, str]] = []
    seen: list[str] = []

    def send(line: str) -> None:
        typed.append(line)
        child.sendline(line)

    child.expect(PAUSE)
    send("dice roll")  # dice from the seed, so the piped console (which asks none) meets the same prompts
    for _ in range(500):
        which = child.expect([DECLARE, PAUSE, "fight over> "])
        seen.append(child.before + child.after)
        if which == 2:
            break
        if which == 1:
            send("")  # Enter: the next step
            continue
        who = child.match.group(1)
        send("?")
        child.expect(r"melee NAME \[with WEAPON\] +at: ([^\r\n]*)")
        foes = child.match.group(1).split(", ")
        child.expect(DECLARE)
        assert child.match.group(1) == who  # the same prompt, asked again after the choices
        answer = "cast sleep at goblins" if who == "Mina" and all(w != "Mina" for w, _ in answers) \
            else f"melee {foes[0]}"
        answers.append((who, answer))
        send(answer)
    else:
        pytest.fail("the fight did not end within 500 prompts")
    send("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return typed, answers, "".join(seen)


def with_kept(answered: dict[str, list[dict[str, Any]]], events: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The plan of the declarations made, in order: each answer where the console asked, and where it did not ask (a
    player's attack going on, Combat II and phase-count, issue 37: a ``continues`` declaration counted as made) the
    journal's declaration, as ``repeat`` would keep it."""
    left = {who: list(entries) for who, entries in answered.items()}
    plan: dict[str, list[Any]] = {}
    for e in events:
        if e["kind"] == "declare" and e.get("consumed"):
            kept = e.get("detail", "").startswith("continues:")
            plan.setdefault(e["actor"], []).append(e["declaration"] if kept else left[e["actor"]].pop(0))
    return plan


def as_plan(answers: list[tuple[str, str]]) -> dict[str, list[dict[str, Any]]]:
    """The answers as the file's plan, read by this test's own two forms (not the console's reader)."""
    plan: dict[str, list[dict[str, Any]]] = {}
    for who, answer in answers:
        if answer.startswith("cast "):
            spell, _, target = answer.removeprefix("cast ").partition(" at ")
            entry: dict[str, Any] = {"cast": spell, "at": target}
        else:
            entry = {"melee": answer.removeprefix("melee ")}
        plan.setdefault(who, []).append(entry)
    return plan


def affray(*args: str | Path, stdin: str | None = None) -> str:
    """A command whose process is not the point (the terminal's is): run in this one (``cli_run``)."""
    done = affray_here(*args, stdin=stdin)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    return done.stdout


@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_a_fight_played_by_answering_the_prompts(tmp_path: Path, ruleset: str) -> None:
    path = unplanned(tmp_path)
    typed, answers, printed = at_the_terminal(path, ruleset, tmp_path / "pty.db")
    assert "winner: party" in printed  # sleep (5 rounds, max 4 HD) takes every goblin: 1-1 and 1+1 HD
    assert answers[0][0] in ("Brom", "Mina", "Goblin 1")  # the console asked from the first declaration on
    assert ("Mina", "cast sleep at goblins") in answers
    journalled = json.loads(affray("log", "--db", tmp_path / "pty.db", "--json"))

    # the same fight from the file, the answers written as its plan
    yaml = YAML()
    doc = yaml.load(path.read_text(encoding="utf-8"))
    doc["plan"] = with_kept(as_plan(answers), journalled["events"])
    planned = tmp_path / "planned.yaml"
    with planned.open("w", encoding="utf-8") as out:
        yaml.dump(doc, out)
    ran = json.loads(affray("run", planned, "--ruleset", ruleset, "--json"))
    assert journalled["events"] == ran["events"]
    assert journalled["combatants"] == ran["combatants"] and journalled["winner"] == ran["winner"] == "party"

    # the same lines, piped
    affray("play", path, "--ruleset", ruleset, "--db", tmp_path / "pipe.db", stdin="".join(f"{t}\n" for t in typed))
    assert json.loads(affray("log", "--db", tmp_path / "pipe.db", "--json")) == journalled


def test_a_bad_answer_is_explained_and_asked_again(tmp_path: Path) -> None:
    """side-d6: Brom declares first (MJ-03: PCs, then monsters, before the die); a foe that is not there and a
    spell he has not are refused with what would be right, and the prompt stands."""
    out = " ".join(affray("play", unplanned(tmp_path), "--db", tmp_path / "f.db",
                          stdin="step\nstep\nmelee Orc 9\ncast fireball\nmelee goblin CHIEF\nquit\n").split())
    prompt = ("Brom (party) declares, round 1, step 2 (declarations) [Enter: missile Goblin 1 with short bow; ? for "
              "choices]:")  # Enter: what his policy would declare (the default shoots before closing)
    assert (f"{prompt} melee Orc 9 melee Orc 9: melee: no combatant named 'Orc 9' (Goblin 1, Goblin 2, Goblin 3, "
            "Goblin 4, Goblin chief, Mina, goblins)") in out  # or the enemy side (issue 37: one of it each time)
    assert f"{prompt} cast fireball cast fireball: cast: no spell it knows named 'fireball' (none)" in out
    assert f"{prompt} melee goblin CHIEF 1 declare Brom melee Goblin chief with long sword 2> quit" in out
