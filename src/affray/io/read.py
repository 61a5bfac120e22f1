"""Reading YAML (or JSON) with line numbers, within the limits: the bytes read, the nesting, the values
aliases expand to (``affray.limits``); YAML tags, binaries and sets refused where they stand."""

from __future__ import annotations

import copy
import datetime
import functools
import os
import re
import stat
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedSet, TaggedScalar
from ruamel.yaml.composer import MaxDepthExceededError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from affray.errors import EncounterError, Problem
from affray.io.lines import surrogate_message
from affray.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_VALUES

__all__ = ["format_path", "line_of", "load_value", "parse_yaml", "plain_data", "read_text"]

Loc = tuple[str | int, ...]


def format_path(loc: Loc) -> str:
    """``sides.a.combatants[1].sf``: list positions in brackets, mapping keys (round numbers too) dotted."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def line_of(doc: Any, loc: Loc) -> int | None:
    """1-based line of the deepest node of ``loc`` present in the ruamel tree."""
    line: int | None = None
    node = doc
    for part in loc:
        lc = getattr(node, "lc", None)
        if isinstance(node, dict) and part not in node:
            alt: Any = str(part) if isinstance(part, int) else int(part) if str(part).isdigit() else None
            part = alt if alt in node else part  # a round number written as "1" in JSON, or 1 in YAML
        try:
            if isinstance(node, dict) and part in node:
                if lc is not None:
                    line = lc.key(part)[0] + 1
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                if lc is not None:
                    line = lc.item(part)[0] + 1
                node = node[part]
            else:
                break
        except (KeyError, IndexError, TypeError):
            break
    if line is None and getattr(getattr(doc, "lc", None), "line", None) is not None:
        line = doc.lc.line + 1
    return line


def _measure(node: Any, loc: Loc, depth: int, memo: dict[int, tuple[int, int]], active: set[int]) -> tuple[int, int]:
    """(values, nesting) of ``node`` with its aliases expanded, worked out once per node (an alias bomb costs
    what its text costs); _Refused where a limit is passed."""
    if depth > MAX_DEPTH:
        raise _Refused(loc, f"mappings and lists nested more than {MAX_DEPTH} deep (limit; an alias counts as "
                            "the nesting it brings)")
    if not isinstance(node, (dict, list, tuple)):
        return 1, 0
    key = id(node)
    if key in memo:
        values, height = memo[key]
    elif key in active:
        raise _Refused(loc, "an alias refers to the mapping or list that holds it")
    else:
        active.add(key)
        values, height = 1, 0
        for k, v in (node.items() if isinstance(node, dict) else enumerate(node)):
            n, h = _measure(v, (*loc, _key(k) if isinstance(node, dict) else k), depth + 1, memo, active)
            values, height = values + n, max(height, h + 1)
            if values > MAX_VALUES:
                raise _Refused(loc, f"expands to more than {MAX_VALUES:,} values (aliases such as *name count each "
                                    "time they are used): at most that many (limit)")
        active.discard(key)
        memo[key] = values, height
    if depth + height > MAX_DEPTH:
        raise _Refused(loc, f"mappings and lists nested more than {MAX_DEPTH} deep (limit; an alias counts as "
                            "the nesting it brings)")
    return values, height


def _plain(node: Any, loc: Loc, problems: list[tuple[Loc, str]]) -> Any:  # noqa: C901
    """The ruamel tree (measured first) as plain dicts, lists, str, int, float, bool and None; a YAML tag, a
    binary or a set is a problem at its place."""
    tag = getattr(getattr(node, "tag", None), "value", None)
    if isinstance(node, TaggedScalar):
        if tag == "tag:yaml.org,2002:str":
            return str(node.value)
        problems.append((loc, f"the YAML tag {_tag(str(tag))} is not allowed: write the plain value"))
        return None
    if tag is not None:
        problems.append((loc, f"the YAML tag {_tag(str(tag))} is not allowed: write the plain value"))
        return None
    if isinstance(node, dict):
        out: dict[Any, Any] = {}
        for k, v in node.items():
            if not isinstance(k, (str, int, float, bool, type(None), datetime.date)):
                problems.append((loc, "a key that is a mapping or list (`? key` entries) is not allowed: keys are "
                                      "names and numbers"))
                continue
            key = _key(k)
            if isinstance(key, str) and (message := surrogate_message(key)) is not None:
                problems.append(((*loc, key), message))
                continue
            out[key] = _plain(v, (*loc, key), problems)
        return out
    if isinstance(node, (list, tuple)):
        return [_plain(v, (*loc, i), problems) for i, v in enumerate(node)]
    if isinstance(node, bool) or (node is not None and type(node).__name__ == "ScalarBoolean"):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        if (message := surrogate_message(node)) is not None:
            problems.append((loc, message))
            return None
        return str(node)
    if node is None:
        return None
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node.isoformat()
    what = "binary data (!!binary)" if isinstance(node, bytes) else "a set (!!set or `? key` entries)" \
        if isinstance(node, (set, frozenset, CommentedSet)) else f"a value of YAML type {type(node).__name__}"
    problems.append((loc, f"{what} is not allowed: write a plain value, mapping or list"))
    return None


def _tag(tag: str) -> str:
    """A tag as it was written: ``!!python/name:os.system`` rather than the full ``tag:yaml.org,2002:...``."""
    return "!!" + tag.removeprefix("tag:yaml.org,2002:") if tag.startswith("tag:yaml.org,2002:") else tag


def _key(k: Any) -> str | int:
    if isinstance(k, bool):
        return str(k).lower()
    if isinstance(k, int):
        return int(k)
    if isinstance(k, str):
        return str(k)
    return "null" if k is None else str(k)


class _Refused(Exception):
    """A limit reached while walking the document: nothing after it is looked at."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    y.max_depth = MAX_DEPTH
    return y


def _flow_too_deep(text: str) -> int | None:
    """The line where ``[`` and ``{`` open more than twice MAX_DEPTH levels (counted before parsing, quotes
    and all, since the YAML reader takes a second or more to reach a depth it would refuse): None if they
    never do."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        depth += 1 if m.group() in "[{" else -1 if depth > 0 else 0
        if depth > 2 * MAX_DEPTH:
            return text.count("\n", 0, m.start()) + 1
    return None


_BRACKETS = re.compile(r"[\[\]{}]")


def parse_yaml(text: str, file: str, *, lines: bool = True) -> Any:  # noqa: C901
    """The ruamel tree of ``text`` (with line numbers), within the nesting limit; EncounterError otherwise.

    ``lines=False``: a tree of plain dicts and lists, without line numbers, read by ruamel's safe reader (libyaml's C
    parser when ``ruamel.yaml.clib`` is installed: some 5 times faster than the round-trip reader, which is pure
    Python), for a caller that reads it again with lines when it has a problem to report (``load_text``). The same
    tree as ``plain_data`` makes of the round-trip one (``tests/test_read_fast.py``: every example and fixture).
    A text the safe reader might read otherwise (a YAML tag, a merge key ``<<``), or cannot read, is read by the
    round-trip reader as with ``lines`` (whose errors name the line)."""
    if len(text) > MAX_FILE_BYTES:
        size = len(text.encode("utf-8"))
        if size > MAX_FILE_BYTES:
            raise EncounterError([Problem(file, None, "", _too_big(size))])
    deep = _flow_too_deep(text)
    if deep is not None:
        raise EncounterError([Problem(file, deep, "", f"mappings and lists nested more than {MAX_DEPTH} deep "
                                      "(limit)")])
    if not lines and not _TAGGED.search(text):
        try:
            return copy.deepcopy(_parsed_fast(text)) if len(text) <= _KEPT_TEXT else _fast().load(text)
        except Exception:  # any error at all is said by the round-trip reader, with its line
            pass
    try:
        return copy.deepcopy(_parsed(text)) if len(text) <= _KEPT_TEXT else _yaml().load(text)
    except MaxDepthExceededError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        raise EncounterError([Problem(file, line, "", f"mappings and lists nested more than {MAX_DEPTH} deep "
                                      "(limit)")]) from None
    except (MarkedYAMLError, YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise EncounterError([Problem(file, line, "", f"not valid YAML or JSON: {what}")]) from None
    except TypeError:  # a mapping or list as a key (`? {a: 1}` or `? [a]`), which ruamel cannot compare
        raise EncounterError([Problem(file, None, "", "not valid YAML for affray: a key that is a mapping or list "
                                      "(`? key` entries); keys are names and numbers")]) from None
    except ValueError as exc:  # int() of a number past Python's 4300 digits, and the like
        raise EncounterError([Problem(file, None, "", f"not valid YAML or JSON: {str(exc).split(';')[0]}")]) \
            from None
    except RecursionError:  # pragma: no cover - the depth limits come first
        raise EncounterError([Problem(file, None, "", f"nested more than {MAX_DEPTH} deep (limit)")]) from None


#: Texts up to this many characters have their trees kept (``_parsed``).
_KEPT_TEXT = 16 * 1024


@functools.lru_cache(maxsize=16)
def _parsed(text: str) -> Any:
    """The ruamel tree of ``text``, kept for the next time it is read (a fight's stored text is read again on each
    resume, rebuild and undo; a simulation's file once a worker): given out as a copy (``parse_yaml``), some 5
    to 10 times faster than reading it again. A text that fails is not kept."""
    return _yaml().load(text)


#: What the safe reader would read otherwise than the round-trip one with ``plain_data``: a tag (``!!str 5`` is a
#: problem there), a merge key.
_TAGGED = re.compile(r"!|<<")


def _fast() -> YAML:
    y = YAML(typ="safe")  # ruamel.yaml.clib's C parser when installed, else the pure Python one
    y.allow_duplicate_keys = False
    y.max_depth = MAX_DEPTH
    return y


@functools.lru_cache(maxsize=16)
def _parsed_fast(text: str) -> Any:
    """The safe reader's tree of ``text``, kept as ``_parsed`` keeps the round-trip one."""
    return _fast().load(text)


def _too_big(size: int | None) -> str:
    have = f"{size:,} bytes: " if size is not None else ""
    return f"the file is {have}larger than the limit of {MAX_FILE_BYTES // 1024} KiB"


def plain_data(doc: Any, file: str) -> Any:
    """``doc`` as plain Python data, checked against the limits and for YAML tags; EncounterError otherwise."""
    problems: list[tuple[Loc, str]] = []
    try:
        _measure(doc, (), 0, {}, set())
        data = _plain(doc, (), problems)
    except _Refused as exc:
        raise EncounterError([Problem(file, line_of(doc, exc.loc), format_path(exc.loc), exc.message)]) from None
    if problems:
        raise EncounterError([Problem(file, line_of(doc, loc), format_path(loc), m) for loc, m in problems])
    return data


def load_value(text: str, what: str) -> Any:
    """One line of YAML typed on a command line or at the console, as plain data within the limits; ValueError
    with a message that starts with ``what`` otherwise."""
    try:
        return plain_data(parse_yaml(text, what), what)
    except EncounterError as exc:
        first = exc.problems[0]
        where = f"{first.path}: " if first.path else ""
        raise ValueError(f"{where}{first.message.replace('not valid YAML or JSON', 'not valid YAML')}") from None


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    for test, words in ((stat.S_ISFIFO, "a FIFO, a named pipe"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return words
    return "a special file"


def read_text(path: str | Path) -> str:
    """A file's text (an encounter, a catalogue, a party), read no further than MAX_FILE_BYTES. Only a regular file
    is read: a FIFO, a device (``/dev/zero``, a terminal), a socket or a folder is refused before a byte is read
    (opened without waiting for a writer, so that a FIFO nobody writes to does not hang the command)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise EncounterError([Problem(str(path), None, "", f"cannot read the file: {exc.strerror or exc}")]) \
            from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise EncounterError([Problem(str(path), None, "", f"not a regular file ({_kind(mode)}): name a file "
                                          "of text (YAML or JSON); to read a pipe's text, save it to a file first")])
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1  # the file object closes it
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise EncounterError([Problem(str(path), None, "", f"cannot read the file: {exc.strerror or exc}")]) \
            from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(raw) > MAX_FILE_BYTES:
        try:
            size: int | None = os.stat(path).st_size or None
        except OSError:  # pragma: no cover - it was just read
            size = None
        raise EncounterError([Problem(str(path), None, "", _too_big(size if size and size > MAX_FILE_BYTES
                                                                       else None))])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise EncounterError([Problem(str(path), None, "", "not a text file (UTF-8 YAML or JSON)")]) from None
