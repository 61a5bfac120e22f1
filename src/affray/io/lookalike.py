"""Names a referee can tell apart: the sides' and the combatants' names of a new file, as they are shown and typed.

A name is how the plan, the console, the page and the referee say who. Two names that show the same but are not
the same (a Cyrillic О for a Latin O, é composed or decomposed, a fullwidth letter, a no-break space) would be
shown identically in the status while only one of them answers what is typed; a name holding an invisible or a
bidirectional control character is shown without it (or reordered), and typing it as shown is refused. So a new
file's names are refused in words where:

- a name is not in Unicode's composed form (NFC): ``José`` with its accent as a separate mark;
- a name holds an invisible character (a zero-width space or joiner, a soft hyphen, a control character), a
  bidirectional control (U+202A-U+202E, U+2066-U+2069, the marks U+200E and U+200F) or a space other than the plain
  one (a no-break space);
- two names look alike once folded (``fold``: compatibility forms such as fullwidth letters, and the Latin
  lookalikes of Cyrillic and Greek letters; case is seen): both are shown, with what differs;
- a combatant is named like a side (``declare orcs ask``, ``dice orcs ask`` could mean either).

A saved fight whose names were accepted before keeps them (``load_text(stored=True)`` asks none of this).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

__all__ = ["fold", "name_problems", "unseen"]

Loc = tuple[str | int, ...]

#: Letters of other scripts that show as a Latin letter (Unicode's confusables for the Cyrillic and Greek capitals
#: and small letters that are drawn the same in common fonts), folded to it.
_LOOKALIKES = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X",
    "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԛ": "q",
    "ԝ": "w", "һ": "h", "ԁ": "d", "ɡ": "g",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v", "ι": "i",
})


def fold(name: str) -> str:
    """What a name looks like: compatibility forms folded (NFKC: fullwidth, ligatures), lookalike letters of other
    scripts made Latin, runs of spaces made one. Case is kept: ``Orc`` and ``orc`` are told apart at a glance."""
    folded = unicodedata.normalize("NFKC", name).translate(_LOOKALIKES)
    return " ".join(folded.split())


def unseen(ch: str) -> bool:
    """Whether ``ch`` is invisible, a bidirectional control, or a space that is not the plain one."""
    kind = unicodedata.category(ch)
    return kind in ("Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp") or (kind == "Zs" and ch != " ")


def _code(ch: str) -> str:
    kind = "a control character" if unicodedata.category(ch) == "Cc" else "a character without a name"
    return f"U+{ord(ch):04X} {unicodedata.name(ch, kind)}"


def _shown(name: str) -> str:
    """A name as the error shows it: its invisible characters as their code points."""
    return "".join(f"<{_code(ch)}>" if unseen(ch) else ch for ch in name)


def _dict(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _names(data: dict[str, Any]) -> Iterator[tuple[Loc, str, bool]]:
    """(field path, name, whether a side's) of every side and combatant (a ``count`` expanded: ``Orc 1``...)."""
    for side, s in _dict(data.get("sides")).items():
        yield ("sides", side), str(side), True
        for i, c in enumerate(_list(_dict(s).get("combatants"))):
            name = _dict(c).get("name")
            if not isinstance(name, str):
                continue
            count = c.get("count", 1)
            count = count if isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= 500 else 1
            for each in [name] if count == 1 else [f"{name} {k}" for k in range(1, count + 1)]:
                yield ("sides", side, "combatants", i, "name"), each, False


def _where(loc: Loc) -> str:
    return ".".join(str(p) for p in loc[:2]) + (f".combatants[{loc[3]}]" if len(loc) > 3 else "")


def _differ(a: str, b: str) -> str:
    """What tells two lookalike names apart, in words: the first characters that differ."""
    for x, y in zip(a, b, strict=False):
        if x != y:
            return f"{_code(x)} where the other has {_code(y)}"
    return "the same letters, in another case or form"


def name_problems(data: dict[str, Any]) -> list[tuple[Loc, str]]:
    """(field path, message) for every name of ``data`` a referee could not tell apart or type as shown."""
    out: list[tuple[Loc, str]] = []
    seen: dict[str, tuple[Loc, str, bool]] = {}
    for loc, name, side in _names(data):
        hidden = [ch for ch in name if unseen(ch)]
        if hidden:
            out.append((loc, f"the name {_shown(name)!r} holds {_code(hidden[0])}: it is shown without it (or "
                             "reordered), and typing the name as shown would not match it; write the name with "
                             "plain letters and spaces"))
            continue
        if unicodedata.normalize("NFC", name) != name:
            composed = unicodedata.normalize("NFC", name)
            out.append((loc, f"the name {name!r} is not in Unicode's composed form (NFC): it shows as {composed!r} "
                             "but is not the same letters as that name typed; write it composed (retype the accented "
                             "letters)"))
            continue
        key = fold(name)
        other = seen.get(key)
        if other is None:
            seen[key] = (loc, name, side)
            continue
        o_loc, o_name, o_side = other
        if o_name == name and not (side or o_side):
            continue  # the same name twice: the file's references say so
        if side != o_side:
            sided, named = (o_loc, loc) if o_side else (loc, o_loc)
            out.append((loc, f"a combatant named like a side: {o_name!r} ({_where(o_loc)}) and {name!r} "
                             f"({_where(loc)}){' look alike' if o_name != name else ''}; `declare {name} ask` or "
                             f"`dice {name} ask` could mean either the side {_where(sided)} or the combatant "
                             f"{_where(named)}: rename one"))
            continue
        out.append((loc, f"the name {name!r} ({_where(loc)}) looks like {o_name!r} ({_where(o_loc)}): "
                         f"{_differ(name, o_name)}; the status shows them alike, and only one answers what is typed: "
                         "rename one"))
    return out
