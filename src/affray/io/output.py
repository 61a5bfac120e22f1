"""The files affray writes for the user (a board, rows, a figure, a starter encounter, an example): never half of one.

A file is written beside its target, under a hidden name of its own in the same folder, and renamed into place
only once it is whole and on disk: a full disk, a killed process or an error leaves the old file as it was (and
no partial one in its place). The temporary file is made when the output is opened, before any work, so that a
folder that does not exist or cannot be written to is said before a fight is played; and an output that is one
of the command's inputs (``affray run f.yaml --board f.yaml``) is refused, whatever name it is given by.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from affray.errors import OptionError
from affray.printable import printable

__all__ = ["Output", "output", "write_output"]


class Output:
    """One output being written: ``file`` (binary) is its temporary file beside ``path``; ``commit`` renames it into
    place, ``discard`` removes it."""

    def __init__(self, path: Path, option: str, *, replace: bool = True, inputs: Sequence[str | Path] = ()) -> None:
        self.path = path
        self.option = option
        self.replace = replace
        self._said = f"{option} {printable(str(path))}" if option else printable(str(path))
        if path.is_dir():
            raise OptionError(f"{self._said}: is a folder: name a file")
        for given in inputs:
            if _same(path, Path(given)):
                raise OptionError(f"{self._said}: is {printable(str(given))}, which this command reads: name "
                                  "another file (nothing was written)")
        if not replace and path.exists():
            raise OptionError(f"{self._said}: already exists; give another name, or --force to overwrite it")
        folder = path.parent
        if not folder.is_dir():
            raise OptionError(f"{self._said}: no such folder {printable(str(folder))}")
        mode = None
        with contextlib.suppress(OSError):
            mode = path.stat().st_mode & 0o7777 if path.exists() else None
        self.temp: Path | None = None
        for _ in range(100):
            temp = folder / f".{path.name[:200]}.{secrets.token_hex(4)}.part"
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            except FileExistsError:
                continue
            except OSError as exc:
                raise OptionError(f"{self._said}: cannot write in {printable(str(folder))}: "
                                  f"{exc.strerror or exc}") from None
            self.temp = temp
            break
        else:  # pragma: no cover - a hundred names of 32 random bits taken
            raise OptionError(f"{self._said}: cannot make a file beside it")
        if mode is not None:
            with contextlib.suppress(OSError):
                os.fchmod(fd, mode)  # a file replaced keeps its mode
        self.file: IO[bytes] = os.fdopen(fd, "wb")

    def failed(self, exc: OSError) -> OptionError:
        """``exc`` (writing the file) in words, the temporary file removed: the target is as it was."""
        self.discard()
        kept = "the file there is as it was" if self.path.exists() else "nothing was written"
        return OptionError(f"{self._said}: cannot write it: {exc.strerror or exc} ({kept})")

    def commit(self) -> None:
        """The temporary file, whole and on disk, renamed into place."""
        assert self.temp is not None
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            if self.replace:
                os.replace(self.temp, self.path)
            else:
                os.link(self.temp, self.path)  # never over a file made meanwhile
                os.unlink(self.temp)
        except FileExistsError:
            self.discard()
            raise OptionError(f"{self._said}: already exists; give another name, or --force to overwrite it") from None
        except OSError as exc:
            raise self.failed(exc) from None
        self.temp = None
        with contextlib.suppress(OSError):  # the rename itself on disk
            folder = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.file.close()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                self.temp.unlink()
            self.temp = None


def _same(path: Path, other: Path) -> bool:
    """Whether ``path`` names the file ``other`` is (by identity when both exist: a link or another spelling)."""
    try:
        return path.exists() and other.exists() and os.path.samefile(path, other)
    except OSError:
        return False


@contextlib.contextmanager
def output(path: Path, option: str, *, replace: bool = True, inputs: Sequence[str | Path] = ()) -> Iterator[Output]:
    """An ``Output`` opened now (the folder checked, the inputs compared), committed when the block ends, discarded
    when it raises; an OSError writing it is said in words (OptionError)."""
    out = Output(path, option, replace=replace, inputs=inputs)
    try:
        yield out
    except OSError as exc:
        raise out.failed(exc) from None
    except BaseException:
        out.discard()
        raise
    out.commit()


def write_output(path: Path, data: str | bytes, option: str = "", *, replace: bool = True,
                 inputs: Sequence[str | Path] = ()) -> None:
    """``data`` written to ``path`` whole or not at all (text as UTF-8)."""
    with output(path, option, replace=replace, inputs=inputs) as out:
        out.file.write(data.encode("utf-8") if isinstance(data, str) else data)
