"""``affray ARGS...`` run in the test's own process, as a user's shell runs it: the same command line
(``affray.cli.app``'s, every command the entry point has), the standard streams its own (stdin from ``stdin``, stdout
and stderr captured apart, a pipe's, not a terminal's), its exit status from the exit it makes. A Python process
costs half a second of imports before the first line of a command runs: the tests that need a process of their
own (a terminal, a signal, a kill, a closed pipe, the interpreter's start) start one; the others run here.

An exception the command lets through is shown as a process would show it (its traceback on stderr, exit 1): a
test that says "no traceback" sees it. A command that hangs is stopped as ``subprocess.run``'s timeout would stop
its process: past ``timeout`` seconds, every thread's stack is printed and the test's process ends (the test fails,
and pytest-xdist says which).
"""

from __future__ import annotations

import faulthandler
import os
import subprocess
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from typer.testing import CliRunner

import affray.cli.app


@contextmanager
def _within(cwd: Path | str | None) -> Iterator[None]:
    before = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(before)


def affray_here(*args: str | Path, stdin: str | None = None, env: Mapping[str, str] | None = None,
                cwd: Path | str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``affray ARGS...`` in this process: what ``subprocess.run([affray, ...], capture_output=True, text=True)``
    gives of it."""
    argv = [str(a) for a in args]
    faulthandler.dump_traceback_later(timeout, exit=True)
    try:
        with _within(cwd):
            result = CliRunner(env=dict(env or {})).invoke(affray.cli.app.app, argv, input=stdin, prog_name="affray")
    finally:
        faulthandler.cancel_dump_traceback_later()
    stderr = result.stderr
    code = result.exit_code
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        stderr += "Traceback (most recent call last):\n" + "".join(traceback.format_exception(exc))
        code = 1
    return subprocess.CompletedProcess(["affray", *argv], code, result.stdout, stderr)
