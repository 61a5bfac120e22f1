"""Every input of ``affray drive`` and of the console (``affray play``) bounded and refused in words (issue 32, the
third hostile probe): a line too long or nested too deep, bytes that are not UTF-8, a lone surrogate, a reader that
closes stdout, an id that is not a whole number, and a fight resumed at a question or at its end.

Each runs the real command in a subprocess, as a user or a program driving it would. A refused line gets an error
line (drive) or a word after the prompt (the console) and the session goes on; a stream that cannot be read is exit
2; a closed stdout ends quietly with 141, as ``yes | head`` does. The fight is side-d6's skirmish under ``--dice
ask``: its first questions are the surprise d6 of each side (MJ-08: "each side rolls a d6"), ids 0 and 1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect

from affray.limits import MAX_DEPTH, MAX_DRIVE_LINE

AFFRAY = str(Path(sys.executable).parent / "affray")
SKIRMISH = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "skirmish.yaml"
DRIVE = [AFFRAY, "drive", str(SKIRMISH), "--ruleset", "side-d6", "--dice", "ask"]
ASK0 = {"ask": {"id": 0, "what": "die", "die": "d6", "purpose": "surprise", "actor": "party", "side": "party"}}
ASK1 = {"ask": {"id": 1, "what": "die", "die": "d6", "purpose": "surprise", "actor": "orcs", "side": "orcs"}}
#: Python's stdin and stdout under a UTF-8 locale (bytes that are not UTF-8 pass as lone surrogates) and under
#: strict UTF-8 (they raise): the probe's internal errors came either way.
LOCALES = [{"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": ""}, {"PYTHONIOENCODING": "utf-8"}]


def drive(stdin: bytes, *args: str | Path, env: dict[str, str] | None = None,
          command: list[str] | None = None) -> tuple[int, list[dict[str, Any]], str]:
    """``affray drive`` fed ``stdin``: its status, its lines (stdout must be UTF-8 JSON lines) and its stderr."""
    done = subprocess.run([*(command or DRIVE), *map(str, args)], input=stdin, capture_output=True, timeout=120,
                          env=dict(os.environ, **(env or {})))
    lines = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]  # strict: UTF-8 or it fails
    return done.returncode, lines, done.stderr.decode("utf-8", "replace")


def refused(lines: list[dict[str, Any]], *words: str) -> None:
    """The probe's line refused in words (``words`` in the error), question 0 asked again, then 0 answered by
    ``{"id": 0, "die": 3}`` and question 1 asked: the conversation went on."""
    assert lines[0] == ASK0
    assert lines[1]["id"] == 0 and all(w in lines[1]["error"] for w in words), lines[1]
    assert lines[2:] == [ASK0, ASK1]


ANSWER0 = b'{"id": 0, "die": 3}\n'


# ------------------------------------------------------------------------------------------- line length, nesting

def test_a_line_of_100000_brackets_is_refused_for_its_length() -> None:
    """The probe's line (RecursionError, exit 1): 100,000 bytes is over the 65,536 a line may hold."""
    code, lines, err = drive(b"[" * 100_000 + b"\n" + ANSWER0)
    assert code == 0 and err == ""
    refused(lines, f"a line of more than {MAX_DRIVE_LINE} bytes, ignored: limit")


def test_nesting_is_refused_before_the_line_is_parsed() -> None:
    """60,000 ``[`` fit in a line; nested 33 deep (one past MAX_DEPTH) is refused, 32 deep is parsed (and is no
    answer: a list, not an object); brackets inside a string are text, not nesting."""
    code, lines, err = drive(b"[" * 60_000 + b"\n" + ANSWER0)
    assert code == 0 and err == ""
    refused(lines, f"a line nested more than {MAX_DEPTH} deep (limit)")
    deepest = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH  # 32 deep: within the limit
    code, lines, err = drive(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"\n" + deepest + b"\n" + ANSWER0)
    assert code == 0 and err == ""
    assert "nested more than 32" in lines[1]["error"] and lines[3]["error"] == "each line is one JSON object"
    in_text = json.dumps({"do": "say", "text": "[" * 100}).encode()  # a say line: the session answers it
    code, lines, err = drive(in_text + b"\n" + ANSWER0)
    assert code == 0 and err == ""
    refused(lines, "[[[[: enter a d6 result (1-6)")


def test_a_256_mib_line_is_not_read_whole(tmp_path: Path) -> None:
    """The probe's line of 256 MiB (read whole: 567 MiB) is refused having read at most 64 KiB of it at a time:
    the peak memory of the process (ru_maxrss, measured by a parent of its own) is within 16 MiB of the same
    conversation without it."""
    wrapper = ("import resource, subprocess, sys\n"
               "code = subprocess.call(sys.argv[2:])\n"
               "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
               "sys.exit(code)\n")

    def peak_kib(huge: bool, path: Path) -> tuple[int, list[dict[str, Any]]]:
        p = subprocess.Popen([sys.executable, "-c", wrapper, str(path), *DRIVE], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert p.stdin is not None and p.stdout is not None
        if huge:
            chunk = b"x" * 2**20  # not JSON: read whole, it would be refused all the same, but at 567 MiB
            for _ in range(256):
                p.stdin.write(chunk)
            p.stdin.write(b"\n")
        p.stdin.write(ANSWER0)
        p.stdin.close()
        out = p.stdout.read().decode("utf-8")
        assert p.wait(timeout=300) == 0
        return int(path.read_text()), [json.loads(line) for line in out.splitlines()]

    base, lines = peak_kib(False, tmp_path / "base")
    assert lines == [ASK0, ASK1]
    peak, lines = peak_kib(True, tmp_path / "huge")
    print(f"peak RSS: {base} KiB without the line, {peak} KiB with 256 MiB of it")  # the figure, for the notes
    assert peak - base < 16 * 1024, (base, peak)
    refused(lines, f"a line of more than {MAX_DRIVE_LINE} bytes")


def test_a_line_said_to_the_session_is_bounded_as_a_console_command() -> None:
    """A say or command line within drive's 64 KiB but over the console's 10,000 characters (MAX_COMMAND_CHARS) is
    refused by the session, whatever front end brought it: at a terminal a paste is not read by ``PipeIo``."""
    long = "note " + "x" * 9_996  # 10,001 characters
    stdin = (json.dumps({"do": "say", "text": long}) + "\n" + json.dumps({"do": "command", "text": long}) + "\n")
    code, lines, err = drive(stdin.encode() + ANSWER0)
    assert code == 0 and err == ""
    limit = {"error": "a line of more than 10000 characters, ignored: limit", "id": 0}
    assert lines == [ASK0, limit, ASK0, limit, ASK0, ASK1]


# ------------------------------------------------------------------------------------------ encoding, surrogates

def test_bytes_that_are_not_utf8_are_refused_in_words_under_any_locale() -> None:
    """A Latin-1 é (0xe9) in a say line, and a line of 0xff 0xfe: each refused naming the byte, whatever Python's
    stdin would make of it; what comes out is UTF-8 (decoded strictly by ``drive``)."""
    for env in LOCALES:
        code, lines, err = drive(b'{"do": "say", "text": "caf\xe9"}\n' + ANSWER0, env=env)
        assert code == 0 and err == "", (env, err)
        refused(lines, "not UTF-8 text (the byte 0xe9, byte 27 of the line)")
        code, lines, err = drive(b"\xff\xfe\n" + ANSWER0, env=env)
        assert code == 0 and err == "", (env, err)
        refused(lines, "not UTF-8 text (the byte 0xff, byte 1 of the line)")


def test_a_lone_surrogate_is_refused_and_nothing_of_it_is_journalled(tmp_path: Path) -> None:
    """JSON's "\\ud800" is valid JSON and no character: a command or a said line carrying one is refused (it once
    failed writing the journal or stdout: exit 1); a note after it is journalled as usual."""
    db = tmp_path / "fight.db"
    stdin = (b'{"do": "command", "text": "note \\ud800 here"}\n{"do": "say", "text": "note \\udce9"}\n'
             b'{"do": "command", "text": "note fine"}\n' + ANSWER0)
    code, lines, err = drive(stdin, "--db", db)
    assert code == 0 and err == ""
    assert lines[0] == ASK0
    assert lines[1] == {"error": "\\ud800 is half of a surrogate pair, not a character: write the character itself "
                                 "(UTF-8)", "id": 0}
    assert lines[3]["error"].startswith("the byte 0xe9 is not UTF-8 text (or \\udce9")
    assert lines[5]["event"]["kind"] == "note" and lines[6] == {"done": "done: note fine"}
    assert lines[2] == lines[4] == lines[7] == ASK0 and lines[8:] == [ASK1]
    done = subprocess.run([AFFRAY, "log", "--db", str(db), "--json"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    notes = [e["detail"] for e in json.loads(done.stdout)["events"] if e["kind"] == "note"]
    assert len(notes) == 1 and "fine" in notes[0]


# ------------------------------------------------------------------------------------------------- typed ids

def test_an_id_is_a_whole_number_not_true_nor_1_0() -> None:
    """At question 1, ``true`` and ``1.0`` both equal 1 in Python: neither is its id; ``1`` is."""
    stdin = ANSWER0 + b'{"id": true, "die": 2}\n{"id": 1.0, "die": 2}\n{"id": 1, "die": 2}\n'
    code, lines, err = drive(stdin)
    assert code == 0 and err == ""
    assert lines[:2] == [ASK0, ASK1]
    wrong = {"error": 'the question waiting is 1: answer it with "id": 1 (a whole number)', "id": 1}
    assert lines[2:6] == [wrong, ASK1, wrong, ASK1]
    assert lines[6]["event"]["kind"] == "surprise"  # both surprise dice given: 3 and 2, nobody surprised (5-6)
    assert lines[6]["event"]["detail"] == "party d6=3, orcs d6=2: nobody surprised"


# -------------------------------------------------------------------------------------------- streams closed

def test_a_closed_stdout_ends_drive_quietly_with_141() -> None:
    """The reader takes one line and goes (``affray drive ... | head -n 1``): the next line written ends the
    conversation, nothing said, status 141 (as a command ended by SIGPIPE; before: exit 1, internal error)."""
    p = subprocess.Popen(DRIVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None and p.stderr is not None
    assert json.loads(p.stdout.readline()) == ASK0
    p.stdout.close()
    p.stdin.write(ANSWER0 + b'{"id": 1, "die": 2}\n')
    p.stdin.close()
    assert p.wait(timeout=120) == 141
    assert p.stderr.read() == b""


def test_a_closed_stdout_ends_the_console_quietly_and_the_fight_resumes(tmp_path: Path) -> None:
    db = tmp_path / "fight.db"
    p = subprocess.Popen([AFFRAY, "play", str(SKIRMISH), "--db", str(db)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None and p.stderr is not None
    assert p.stdout.readline().startswith(b"fight 1: ")
    p.stdout.close()
    p.stdin.write(b"step\nstep\nstep\nquit\n")
    p.stdin.close()
    assert p.wait(timeout=120) == 141
    assert p.stderr.read() == b""
    done = subprocess.run([AFFRAY, "play", "--db", str(db)], input=b"step\nquit\n", capture_output=True, timeout=120)
    assert done.returncode == 0 and done.stderr == b"", done.stderr


def test_a_stdin_that_cannot_be_read_exits_2(tmp_path: Path) -> None:
    """stdin opened for writing only (``affray drive FILE 0>out``): EBADF at the first read, said, exit 2."""
    with (tmp_path / "out").open("wb") as wrong:
        done = subprocess.run(DRIVE, stdin=wrong, capture_output=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.decode().strip() == "<stdin> cannot be read: Bad file descriptor"


# --------------------------------------------------------------------------------------------- the console

def test_a_latin1_byte_piped_to_the_console_is_ignored_in_words(tmp_path: Path) -> None:
    """``note café`` typed in Latin-1 (before: exit 1, the journal's UnicodeEncodeError); the next line is taken."""
    db = tmp_path / "fight.db"
    for env in LOCALES:
        done = subprocess.run([AFFRAY, "play", str(SKIRMISH), "--db", str(db)], capture_output=True, timeout=120,
                              input=b"note caf\xe9\nnote fine\nquit\n", env=dict(os.environ, **env))
        out = done.stdout.decode("utf-8")
        assert done.returncode == 0, (env, done.stderr)
        assert "0> (a line that is not UTF-8 text (the byte 0xe9, byte 9 of the line), ignored: send UTF-8)" in out
        assert "done: note fine" in out
        db.unlink()


def test_a_latin1_byte_typed_at_a_terminal_is_refused_in_words(tmp_path: Path) -> None:
    """At a real terminal (pexpect's pseudo-terminal), prompt_toolkit passes the byte on as a lone surrogate: the
    session refuses the line and the console goes on; nothing of it is journalled."""
    db = tmp_path / "fight.db"
    env = dict(os.environ, NO_COLOR="1", PROMPT_TOOLKIT_NO_CPR="1", TERM="dumb")
    child = pexpect.spawn(AFFRAY, ["play", str(SKIRMISH), "--db", str(db)], env=env, timeout=60,
                          dimensions=(50, 160))
    child.expect(b"0> ")
    child.send(b"note caf\xe9\r")
    child.expect(b"the byte 0xe9 is not UTF-8 text")
    child.expect(b"0> ")
    child.send(b"note fine\r")
    child.expect(b"done: note fine")
    child.send(b"quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    done = subprocess.run([AFFRAY, "log", "--db", str(db), "--json"], capture_output=True, timeout=120)
    notes = [e["detail"] for e in json.loads(done.stdout)["events"] if e["kind"] == "note"]
    assert len(notes) == 1 and "fine" in notes[0]


# ------------------------------------------------------------------------------ undo to the start, resumed fights

def test_undo_to_the_start_of_a_resumed_fight_keeps_dice_ask(tmp_path: Path) -> None:
    """``--dice ask`` is a choice made before the fight: undone back to its start, a resumed fight still asks the
    first surprise die. (Before, the resumed conversation spun at its first question and never wrote a line.)"""
    db = tmp_path / "fight.db"
    code, lines, _ = drive(ANSWER0 + b'{"id": 1, "die": 2}\n{"do": "quit"}\n', "--db", db)
    ask2 = {"ask": {"id": 2, "what": "die", "die": "d6", "purpose": "initiative", "actor": "party", "side": "party"}}
    assert code == 0 and lines[-1] == ask2  # surprise, the ten declarations (the plan's), then initiative (MJ-03)
    code, lines, err = drive(b'{"do": "undo", "n": 100}\n{"do": "quit"}\n', "--db", db,
                             command=[AFFRAY, "drive"])
    assert code == 0 and err == ""
    assert lines == [ask2, {"undone": {"events": 0}}, ASK0]


def test_a_finished_fight_resumed_in_drive_gives_its_end_and_takes_an_undo(tmp_path: Path) -> None:
    """Resumed at its end (before: a busy loop, no line ever written), the fight gives the end again; undo 1 takes
    back its last step, and the end comes again as the step is made again from the same dice."""
    db = tmp_path / "fight.db"
    code, lines, _ = drive(b"", "--auto", "--db", db, command=[AFFRAY, "drive", str(SKIRMISH), "--ruleset", "side-d6"])
    assert code == 0 and "end" in lines[-1]
    end = lines[-1]
    code, again, err = drive(b'{"do": "undo", "n": 1}\n', "--db", db, command=[AFFRAY, "drive"])
    assert code == 0 and err == ""
    assert again[0] == end and "undone" in again[1] and again[-1] == end
