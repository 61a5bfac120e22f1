"""Stat lines as modules print them, one monster a line: the AD&D style (``Gnoll: AC 5; MV 9"; HD 2; hp 11; #AT 1;
D 2-8; SA nil; SD nil; SZ L; ML 11``), the B/X style (``AC 6, HD 1-1, #AT 1, D 1-6, MV 60' (20'), Save NM, ML 7``)
and Old-School Essentials' (``AC 4 [15], HD 6+3* (30hp), Att 2 x claw (1d6), 1 x bite (1d10), THAC0 13 [+6],
MV 120' (40'), SV D10 W11 P12 B13 S14 (6), ML 10``).

A line is a name (``Gnoll:``; ``Goblin (4):`` for four), then figures separated by ``;`` (or ``,``), each a key and its
value. Read: AC (descending; ``[15]`` ascending beside it is left), HD (``2``, ``1+1``, ``1-1``, ``1/2``; ``(30hp)``
its hit points), hp, MV (inches, or feet a turn when written ``90'``: / 10), #AT (attacks a round), D (damage:
``1-8`` is 1d8, ``2-8`` 2d4, ``1-3/1-3/1-6`` one form each), Att (OSE's forms: ``2 x claw (1d6)``), THAC0, ML
(morale), SZ (size). The rest (SA, SD, AL, XP, TT, saves, INT...) is named in a note as not read: the referee's.

How a range becomes dice: ``a-b`` with ``b`` a multiple of ``a`` is ``a`` dice of ``b/a`` sides (2-8: 2d4, 3-18:
3d6), else one die and a bonus (2-7: 1d6+1). An attack form named ``weapon`` is given a Player's Handbook weapon of
that damage (1d6: a short sword), with the line's damage, as the catalogue does; any other is a natural attack.
"""

from __future__ import annotations

import re
from typing import Any

from affray.errors import Problem
from affray.importing import Imported, Unreadable, note

__all__ = ["range_dice", "read_statlines"]

#: The keys a line's figures start with, as modules print them, and the figure each is.
_KEYS = {"ac": "ac", "armor class": "ac", "armour class": "ac", "hd": "hd", "hit dice": "hd", "hp": "hp",
         "mv": "mv", "move": "mv", "movement": "mv", "#at": "at", "#att": "at", "at": "at", "no. of attacks": "at",
         "att": "att", "attacks": "att", "d": "d", "dmg": "d", "damage": "d", "dm": "d", "thac0": "thac0",
         "ml": "ml", "morale": "ml", "sz": "sz", "size": "sz"}
_NOT_READ = {"sa": "special attacks", "sd": "special defences", "al": "alignment", "xp": "experience",
             "tt": "treasure", "save": "saving throws", "sv": "saving throws", "na": "number appearing",
             "int": "intelligence", "mr": "magic resistance", "level": "level", "lvl": "level", "ld": "level",
             "bt": "treasure", "xp value": "experience"}
_KEY_RE = re.compile(r"^\s*(" + "|".join(sorted((re.escape(k) for k in (*_KEYS, *_NOT_READ)), key=len, reverse=True))
                     + r")(?![a-z0-9])\.?\s*:?\s*(.*)$", re.IGNORECASE | re.DOTALL)
_FIRST_RE = re.compile(r"(?<![a-z])(ac|hd|mv|#at|thac0|hp|att)(?=\s*:|\s+\S)", re.IGNORECASE)
_SIZES = {"t": "tiny", "s": "small", "m": "medium", "l": "large", "h": "huge", "g": "gargantuan"}
#: A weapon for an OSE "weapon" attack form, by its damage (the catalogue's choice for its own monsters).
_WEAPON_BY_DAMAGE = {"1d4": "dagger", "1d6": "short sword", "1d8": "long sword", "1d10": "two-handed sword",
                     "2d4": "morning star", "1d6+1": "footman's mace", "1d4+1": "warhammer", "1d12": "bastard sword"}


def range_dice(text: str) -> str | None:
    """``1-8`` as ``1d8``, ``2-8`` as ``2d4``, ``2-7`` as ``1d6+1``; dice (``1d8+1``) as they are; None otherwise."""
    t = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+d\d+([+-]\d+)?", t):
        return t
    m = re.fullmatch(r"(\d+)-(\d+)", t)
    if not m:
        return None
    low, high = int(m.group(1)), int(m.group(2))
    if low < 1 or high < low or high > 1000:
        return None
    if low == high:
        return str(low)
    if high % low == 0 and high // low >= 2:
        return f"{low}d{high // low}"
    return f"1d{high - low + 1}+{low - 1}" if low > 1 else f"1d{high}"


def _segments(text: str) -> list[str]:
    """The line's figures: split at ``;``, else at commas outside brackets."""
    if ";" in text:
        return [s for s in text.split(";") if s.strip()]
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [s for s in out if s.strip()]


def _clean(line: str) -> str:
    return (line.replace("×", "x").replace("–", "-").replace("—", "-").replace("’", "'").replace("″", '"')
            .replace("”", '"').replace("½", "1/2").strip())


def read_statlines(text: str, file: str) -> Imported:
    """Every stat line of ``text``; Unreadable naming each line that is not one, or a figure that does not read."""
    out = Imported()
    problems: list[Problem] = []
    lines = [(n, _clean(raw)) for n, raw in enumerate(text.splitlines(), 1)]
    lines = [(n, t) for n, t in lines if t and not t.startswith("#")]
    if not lines:
        raise Unreadable([note(file, "", "no stat line: nothing to import")])
    for n, line in lines:
        try:
            c, notes = _line(line, file, n)
        except Unreadable as exc:
            problems += exc.problems
            continue
        out.combatants.append(c)
        out.notes += notes
    if problems:
        raise Unreadable(problems)
    return out


def _line(line: str, file: str, n: int) -> tuple[dict[str, Any], list[Problem]]:  # noqa: C901
    first = _FIRST_RE.search(line)
    if first is None:
        raise Unreadable([note(file, "", "not a stat line: no AC, HD, hp, MV, #AT or THAC0 in it (a line reads "
                                         "`Gnoll: AC 5; MV 9; HD 2; hp 11; #AT 1; D 2-8`)", n)])
    name_text = line[:first.start()].strip().rstrip(":,.;-").strip()
    figures: dict[str, str] = {}
    notes: list[Problem] = []
    problems: list[Problem] = []
    last: str | None = None
    for segment in _segments(line[first.start():]):
        m = _KEY_RE.match(segment)
        if m is None:
            if last is not None:  # a continuation: OSE's "Att 2 x claw (1d6), 1 x bite (1d10)"
                figures[last] += "," + segment
            continue
        key, value = m.group(1).lower(), m.group(2).strip()
        if key in _NOT_READ:
            notes.append(note(file, key.upper(), f"{value or '-'}: {_NOT_READ[key]}, not read (the referee's)", n))
            last = None
            continue
        last = _KEYS[key]
        if last in figures:
            problems.append(note(file, key.upper(), f"given twice ({figures[last]!r} and {value!r})", n))
        figures[last] = value
    c: dict[str, Any] = {}
    count_m = re.search(r"\((\d+)\)\s*$|\bx\s*(\d+)\s*$", name_text)
    if count_m:
        count = int(count_m.group(1) or count_m.group(2))
        name_text = name_text[:count_m.start()].strip()
        if 1 <= count <= 500:
            c["count"] = count
    if not name_text:
        name_text = f"Monster {n}"
        notes.append(note(file, "", f"no name before the figures: named {name_text}", n))
    c["name"] = name_text[:1].upper() + name_text[1:]
    c["class"] = "monster"

    def bad(key: str, why: str) -> None:
        problems.append(note(file, key, f"{figures[_KEYS[key.lower()]]!r}: {why}", n))

    if "ac" in figures:
        m = re.match(r"(-?\d+)", figures["ac"])
        if m and -10 <= int(m.group(1)) <= 10:
            c["ac"] = int(m.group(1))
        else:
            bad("AC", "not an armour class (-10 to 10, descending; `AC 4 [15]`)")
    else:
        c["ac"] = 10
        notes.append(note(file, "AC", "no AC: 10", n))
    if "hd" in figures:
        m = re.match(r"(\d+\s*[+-]\s*\d+|1/2|\d+)\s*\**\s*(?:\((\d+)\s*hp\))?", figures["hd"], re.IGNORECASE)
        if m:
            hd = m.group(1).replace(" ", "")
            c["hd"] = int(hd) if hd.isdigit() else hd
            if m.group(2) and "hp" not in figures:
                c["hp"] = int(m.group(2))
        else:
            bad("HD", "not Hit Dice (2, 1+1, 1-1, 1/2)")
    if "hp" in figures:
        m = re.match(r"(\d+)\s*$", figures["hp"])
        if m and int(m.group(1)) >= 1:
            c["hp"] = int(m.group(1))
        else:
            bad("hp", "not hit points (a whole number from 1)")
    if "hp" not in c and "hd" not in c and not problems:
        problems.append(note(file, "HD", "no hit points and no Hit Dice to roll them from: give hp or HD", n))
    if "mv" in figures:
        mv = _movement(figures["mv"])
        if mv is None:
            bad("MV", "not a movement rate (9, 9\", 90' (30'))")
        else:
            c["mv"], said = mv
            if said:
                notes.append(note(file, "MV", said, n))
    if "thac0" in figures:
        m = re.match(r"(-?\d+)", figures["thac0"])
        if m and -10 <= int(m.group(1)) <= 25:
            c["thac0"] = int(m.group(1))
        else:
            bad("THAC0", "not a THAC0 (-10 to 25)")
    if "ml" in figures:
        m = re.match(r"(\d+)", figures["ml"])
        if m and 2 <= int(m.group(1)) <= 20:
            c["morale"] = int(m.group(1))
            notes.append(note(file, "ML", f"morale {c['morale']} kept as written: on 2d6 (B/X, OSE) under a ruleset "
                              "that rolls 2d10, give its 2d10 score (docs/catalogue.md)", n))
        else:
            bad("ML", "not a morale score (2 to 20)")
    if "sz" in figures:
        written = figures["sz"].strip().lower()
        size = _SIZES.get(written[:1]) if written else None
        if size is None:
            bad("SZ", "not a size (T, S, M, L, H, G)")
        else:
            c["size"] = size
    attacks = _attack_forms(figures, file, n, problems, notes)
    if attacks:
        c["weapons"] = attacks
        melee = len(attacks)
        if melee > 1:
            c["attacks"] = melee
    if problems:
        raise Unreadable(problems)
    return c, notes


def _movement(text: str) -> tuple[int, str] | None:
    m = re.match(r"(\d+)\s*(['\"]|ft\.?|feet)?", text.strip())
    if not m:
        return None
    value, unit = int(m.group(1)), m.group(2) or ""
    if unit.startswith(("'", "ft", "feet")) or (not unit and value >= 30):
        return min(240, round(value / 10)), f"{value}' a turn: MV {round(value / 10)} (feet a turn / 10)"
    return min(240, value), ""


def _attack_forms(figures: dict[str, str], file: str, n: int, problems: list[Problem],  # noqa: C901
                  notes: list[Problem]) -> list[dict[str, Any]]:
    """The attack forms: OSE's ``Att`` (named forms), else ``#AT`` and ``D`` (unnamed: natural attacks)."""
    if "att" in figures:
        out: list[dict[str, Any]] = []
        for m in re.finditer(r"(\d+)\s*x\s*([a-z][a-z' -]*?)\s*\(([^)]*)\)", figures["att"], re.IGNORECASE):
            times, form, inside = int(m.group(1)), m.group(2).strip().lower(), m.group(3)
            dice_m = re.search(r"\d+d\d+(?:\s*[+-]\s*\d+(?!d))?|\d+-\d+", inside)
            dice = range_dice(dice_m.group(0).replace(" ", "")) if dice_m else None
            if dice is None:
                notes.append(note(file, "Att", f"{form} ({inside}): no damage dice: left out (the referee's)", n))
                continue
            rest = inside[dice_m.end():].strip(" +,") if dice_m else ""
            if rest:
                notes.append(note(file, "Att", f"{form}: {rest!r} beside its damage: not read (the referee's)", n))
            for _ in range(min(times, 20)):
                out.append(_form(form, dice, notes, file, n))
        if not out:
            problems.append(note(file, "Att", f"{figures['att']!r}: no attack form read (`2 x claw (1d3)`)", n))
        return out
    count = 1
    if "at" in figures:
        at = re.match(r"(\d+)", figures["at"])
        if not at or not 1 <= int(at.group(1)) <= 20:
            problems.append(note(file, "#AT", f"{figures['at']!r}: not a number of attacks (1 to 20)", n))
            return []
        count = int(at.group(1))
    if "d" not in figures:
        notes.append(note(file, "D", "no damage given: it strikes bare-handed (1d2) until you give it a weapon", n))
        return []
    text = figures["d"].split(" or ")[0].strip()
    if text.lower().startswith("by weapon") or text.lower() == "weapon":
        notes.append(note(file, "D", f"{figures['d']}: its weapon is the referee's: give it `weapons` (it strikes "
                          "bare-handed, 1d2, until then)", n))
        return []
    parts = [range_dice(p) for p in re.split(r"\s*/\s*", text)]
    if any(p is None for p in parts):
        problems.append(note(file, "D", f"{figures['d']!r}: not damage (1-8, 2-8, 1d8, 1-3/1-3/1-6)", n))
        return []
    if len(parts) == 1 and count > 1:
        parts = parts * count
    elif len(parts) != count and "at" in figures:
        notes.append(note(file, "D", f"{len(parts)} damage figures for #AT {count}: one attack a figure", n))
    forms = [{"name": f"attack {k}" if len(parts) > 1 else "attack", "damage": str(p), "natural": True}
             for k, p in enumerate(parts, 1)]
    notes.append(note(file, "D", f"{figures['d']}: read as {len(forms)} natural attack{'s' if len(forms) > 1 else ''}"
                      " (a weapon it wields is the referee's to give)", n))
    return forms


def _form(form: str, dice: str, notes: list[Problem], file: str, n: int) -> dict[str, Any]:
    if form in ("weapon", "weapons", "weapon attack"):
        weapon = _WEAPON_BY_DAMAGE.get(dice, "club")
        notes.append(note(file, "Att", f"weapon ({dice}): the catalogue's {weapon} (its speed factor) with this "
                          "damage", n))
        return {"weapon": weapon, "damage": dice, "damage_large": dice}
    return {"name": form, "damage": dice, "natural": True}
