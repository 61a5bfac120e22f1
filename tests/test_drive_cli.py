"""``affray drive``: the driven fight as JSON lines (CONTRACT.md "Driving a fight"), spoken by another program.

Each test is a small bot: it reads one JSON object per line from affray's stdout and writes its answers to its
stdin. Expectations are the engine's own runs of the same file, seed and answers (a fight is a pure function
of them), or the contract's lines.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from cli_run import affray_here

AFFRAY = str(Path(sys.executable).parent / "affray")
SKIRMISH = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "skirmish.yaml"


class Bot:
    """A program speaking to ``affray drive`` line by line."""

    def __init__(self, *args: str | Path) -> None:
        self.proc = subprocess.Popen([AFFRAY, "drive", *map(str, args)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: list[dict[str, Any]] = []

    def read(self) -> dict[str, Any] | None:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            return None
        obj: dict[str, Any] = json.loads(line)
        self.lines.append(obj)
        return obj

    def until(self, key: str) -> dict[str, Any]:
        """Read lines until one carries ``key`` (an ask, the end, an error); that line."""
        while (obj := self.read()) is not None:
            if key in obj:
                return obj
        raise AssertionError(f"no {key!r} line before the output ended; stderr: {self.stderr()}")

    def next_stop(self) -> dict[str, Any]:
        """The next line that waits for the bot: an ask or the end."""
        while (obj := self.read()) is not None:
            if "ask" in obj or "end" in obj:
                return obj
        raise AssertionError(f"output ended; stderr: {self.stderr()}")

    def send(self, obj: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(obj) + "\n")
        self.proc.stdin.flush()

    def finish(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        if self.proc.stdout is not None:
            for line in self.proc.stdout:
                self.lines.append(json.loads(line))
        return self.proc.wait(timeout=120)

    def stderr(self) -> str:
        return self.proc.stderr.read() if self.proc.stderr is not None and self.proc.poll() is not None else ""

    def events(self) -> list[dict[str, Any]]:
        return [obj["event"] for obj in self.lines if "event" in obj]


def first_enemy(ask: dict[str, Any]) -> dict[str, Any]:
    enemies = ask["choices"]["enemies"]
    return {"melee": enemies[0]} if enemies else {"none": True}


def play_out(bot: Bot) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """Answer every declaration with the first enemy and every die with a roll, to the end."""
    answers: dict[str, list[dict[str, Any]]] = {}
    while "end" not in (stop := bot.next_stop()):
        ask = stop["ask"]
        if ask["what"] == "declare":
            entry = first_enemy(ask)
            answers.setdefault(ask["actor"], []).append(entry)
            bot.send({"id": ask["id"], "declare": entry})
        else:
            bot.send({"id": ask["id"], "roll": True})
    return stop["end"], answers


def made(events: list[dict[str, Any]], answers: dict[str, list[dict[str, Any]]]) -> dict[str, list[Any]]:
    """The declarations made once each plan was used up: the bot's answers where it was asked, and where it was not (a
    player's attack going on under Combat II and phase-count, issue 37, counted as made) the fight's own, in order."""
    planned = {n: len(e) for n, e in (YAML(typ="safe").load(SKIRMISH.read_text())["plan"] or {}).items()}
    left = {who: list(entries) for who, entries in answers.items()}
    out: dict[str, list[Any]] = {}
    seen: dict[str, int] = {}
    for e in events:
        if e["kind"] == "declare" and e.get("consumed"):
            seen[e["actor"]] = k = seen.get(e["actor"], 0) + 1
            if k > planned.get(e["actor"], 0):
                kept = e.get("detail", "").startswith("continues:")
                out.setdefault(e["actor"], []).append(e["declaration"] if kept else left[e["actor"]].pop(0))
    return out


def run_file(tmp_path: Path, data: dict[str, Any], *args: str) -> dict[str, Any]:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(data))
    done = affray_here("run", path, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def with_answers(answers: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    data = YAML(typ="safe").load(SKIRMISH.read_text())
    for actor, entries in answers.items():
        data["plan"][actor] = list(data["plan"].get(actor) or []) + entries
    return data  # type: ignore[no-any-return]


@pytest.mark.parametrize("ruleset", ["side-d6", "combat2-phase1", "speed-segments", "phase-count"])
def test_a_bot_drives_a_fight_and_gets_the_run_of_its_answers(tmp_path: Path, ruleset: str) -> None:
    """CONTRACT.md: "answering every question gives the same timeline as affray run on a file whose plan and rolls
    hold the same answers": the events written are the run's, and so are the end's winner and combatants."""
    bot = Bot(SKIRMISH, "--ruleset", ruleset, "--seed", "5", "--max-rounds", "3")
    end, answers = play_out(bot)
    assert bot.finish() == 0
    ran = run_file(tmp_path, with_answers(made(bot.events(), answers)), "--ruleset", ruleset, "--seed", "5",
                   "--max-rounds", "3")
    assert bot.events() == ran["events"]
    assert end == {"winner": ran["winner"], "combatants": ran["combatants"]}


def test_a_bad_line_gets_an_error_and_the_question_again() -> None:
    """A line that is not JSON, an answer to another id, and a target that does not exist: each gets
    {"error": ..., "id": N} and the same ask again; then a good answer moves the fight on."""
    bot = Bot(SKIRMISH, "--max-rounds", "3")
    ask = bot.until("ask")["ask"]
    bot.send({"id": ask["id"] + 5, "declare": {"melee": "Orc 1"}})
    err = bot.until("error")
    assert err["id"] == ask["id"] and f"\"id\": {ask['id']}" in err["error"]
    assert bot.read() == {"ask": ask}
    bot.send({"id": ask["id"], "declare": {"melee": "Ghost"}})
    err = bot.until("error")
    assert "no combatant named 'Ghost'" in err["error"]
    assert bot.read() == {"ask": ask}
    assert bot.proc.stdin is not None
    bot.proc.stdin.write("this is not json\n")
    bot.proc.stdin.flush()
    assert "one JSON object" in bot.until("error")["error"]
    assert bot.read() == {"ask": ask}
    bot.send({"id": ask["id"], "declare": {"melee": "Orc 1"}})
    declared = bot.read()
    assert declared is not None and declared["event"]["kind"] == "declare"
    assert declared["event"]["declaration"] == {"melee": "Orc 1"} and declared["event"]["actor"] == ask["actor"]
    bot.send({"do": "quit"})
    assert bot.finish() == 0


def test_undo_takes_back_events_and_the_bot_answers_again() -> None:
    """{"do": "undo", "n": 5} at a question goes back to the last point before the last five events, and the fight
    goes on from there. Seed 7, round 3 (as this fight's own timeline shows): event 41 is Mina's web taking effect
    (a step) and 42-46 the five orcs held by it, made in the same step; 47 and 48 Brom's and Sela's blows, then 49
    Brom's declaration and Sela's question. Five events back is 45, inside the web's step: the point before it is
    where the web was about to take effect, with 41 events made: {"undone": {"events": 41}}, and events 41-49
    come again, the same, before the same question."""
    bot = Bot(SKIRMISH, "--max-rounds", "3")
    ask = bot.until("ask")["ask"]
    seen = len(bot.events())
    assert seen == 50 and [e["kind"] for e in bot.events()[41:]] == ["cast", *["condition"] * 5, "melee", "melee",
                                                                      "declare"]
    bot.send({"do": "undo", "n": 5})
    assert bot.read() == {"undone": {"events": 41}}
    again = bot.next_stop()
    assert bot.events()[seen:] == bot.events()[41:seen]  # the nine events come again
    assert again == {"ask": {**ask, "id": again["ask"]["id"]}}
    bot.send({"do": "quit"})
    assert bot.finish() == 0


def test_with_a_database_a_fight_quits_and_resumes_at_its_pending_question(tmp_path: Path) -> None:
    """--db journals every line; `affray drive --db PATH` without FILE resumes the last fight there, first sending
    the question that was pending; the journal's log then equals the events the bots saw."""
    db = tmp_path / "fight.db"
    bot = Bot(SKIRMISH, "--max-rounds", "3", "--db", db)
    ask = bot.until("ask")["ask"]
    bot.send({"id": ask["id"], "declare": first_enemy(ask)})
    pending = bot.until("ask")["ask"]
    bot.send({"do": "quit"})
    assert bot.finish() == 0
    first_events = bot.events()
    again = Bot("--db", db)
    assert again.next_stop() == {"ask": pending}
    end, _ = play_out_from(again, pending)
    assert again.finish() == 0
    done = affray_here("log", "--db", db, "--json")
    assert done.returncode == 0, done.stderr
    log = json.loads(done.stdout)
    assert log["events"] == first_events + again.events()
    assert end["winner"] == log["winner"]


def play_out_from(bot: Bot, pending: dict[str, Any]) -> tuple[dict[str, Any], None]:
    bot.send({"id": pending["id"], "declare": first_enemy(pending)})
    end, _ = play_out(bot)
    return end, None


def test_dice_asked_are_answered_with_a_value_a_roll_or_an_outcome() -> None:
    """--dice ask: side-d6's first dice are the surprise d6 of each side (MJ-08): 6 for the party (surprises), 2 for
    the orcs: the surprise event says the orcs are surprised, with the referee's dice."""
    bot = Bot(SKIRMISH, "--dice", "ask", "--max-rounds", "1")
    first = bot.until("ask")["ask"]
    assert (first["what"], first["die"], first["purpose"], first["side"]) == ("die", "d6", "surprise", "party")
    bot.send({"id": first["id"], "die": 9})
    assert "cannot be rolled on d6" in bot.until("error")["error"]
    assert bot.read() == {"ask": first}
    bot.send({"id": first["id"], "die": 6})
    second = bot.until("ask")["ask"]
    assert (second["purpose"], second["side"]) == ("surprise", "orcs")
    bot.send({"id": second["id"], "die": 2})
    surprise = bot.until("event")["event"]
    assert surprise["kind"] == "surprise" and surprise["surprised"] == ["orcs"]
    assert [(d["value"], d["source"]) for d in surprise["dice"]] == [(6, "referee"), (2, "referee")]
    bot.send({"do": "quit"})
    assert bot.finish() == 0


def test_a_resumed_fight_takes_the_dice_given_on_its_command_line(tmp_path: Path) -> None:
    """CONTRACT "Driving a fight": `--dice ask` asks every die nobody gave. A fight begun with every die rolled, left
    at its first declaration and resumed with `affray drive --db PATH --dice ask`, asks its next die (issue 37: the
    journal's choice used to stand whatever was given); resumed without `--dice`, the journal's choice stands."""
    db = tmp_path / "fight.db"
    unplanned = tmp_path / "unplanned.yaml"  # no plan: the first declaration is asked
    unplanned.write_text(SKIRMISH.read_text().split("\nplan:")[0], encoding="utf-8")
    bot = Bot(unplanned, "--max-rounds", "2", "--db", db)
    ask = bot.until("ask")["ask"]
    assert ask["what"] == "declare"
    bot.send({"do": "quit"})
    assert bot.finish() == 0
    again = Bot("--db", db, "--dice", "ask")
    pending = again.until("ask")["ask"]
    again.send({"id": pending["id"], "declare": first_enemy(pending)})
    while (stop := again.next_stop()).get("ask", {}).get("what") == "declare":
        again.send({"id": stop["ask"]["id"], "declare": first_enemy(stop["ask"])})
    assert stop.get("ask", {}).get("what") == "die", stop
    again.send({"do": "quit"})
    assert again.finish() == 0
    third = Bot("--db", db)  # no --dice: the journal's choice (now ask) stands
    assert third.next_stop()["ask"]["what"] == "die"
    third.send({"do": "quit"})
    assert third.finish() == 0
