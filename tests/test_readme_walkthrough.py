"""The README's "Your first fight" works as written: each ``$`` command of its console blocks is run, in order, in
an empty directory, with affray on the PATH, and prints the lines the README shows ("..." stands for lines left
out)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def walkthrough() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Your first fight\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def steps() -> list[tuple[str, list[str]]]:
    """Each command of the walkthrough's console blocks, with the output lines shown under it."""
    out: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", walkthrough(), flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out and line.strip() and line.strip() != "...":
                out[-1][1].append(line)
    return out


def squeeze(s: str) -> str:
    return " ".join(s.split())


def test_the_walkthrough_runs_as_written(tmp_path: Path) -> None:
    commands = [c for c, _ in steps()]
    # the walk the README promises: new, check, run, run under another ruleset, the console
    assert [c.split()[1] if c.startswith("affray") else c.split("| ")[1].split()[1] for c in commands] == [
        "new", "check", "run", "run", "play"]
    assert "--ruleset combat2-phase1" in commands[3]
    assert "--auto" not in commands[4]  # the console asks: the walk shows a declaration answered at the prompt
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "200"}  # wide enough that no line the README shows is wrapped
    for command, shown in steps():
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr)
        assert "Traceback" not in done.stdout + done.stderr, command
        printed = {squeeze(line) for line in done.stdout.splitlines()}
        for line in shown:
            assert squeeze(line) in printed, (command, line)
    assert (tmp_path / "myfight.yaml").exists() and (tmp_path / "myfight.db").exists()


def test_the_readme_opening_commands_are_unchanged() -> None:
    """CI runs the README's first sh block: two commands, exactly."""
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, flags=re.S)
    assert block is not None
    assert block.group(1) == (
        'pip install -c requirements.lock -e . && affray play src/affray/examples/skirmish.yaml --auto --db '
        "/tmp/affray-skirmish.db < src/affray/examples/skirmish.console\n"
        'pip install -c requirements.lock -e ".[dev]" && python -m pytest -n auto\n')
