"""Names in an encounter file (CONTRACT.md "The catalogue"): a weapon, a spell, a monster or an armour named
instead of written out, its figures taken from the catalogue and any field written beside the name winning; hit
points written as dice or left to a monster's Hit Dice, set aside to be rolled when the fight starts.

Worked on the file's plain data before its fields are checked, so that a name's figures are checked as if written
out, and every problem (an unknown name with the nearest ones, a caster level missing) is one more problem of the
file, with its field path. A file that names nothing is returned as it was: nothing is loaded for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from affray.catalogue import KINDS, Catalogue, Found, MonsterEntry, SpellEntry, WeaponEntry, package_catalogue
from affray.dice.expr import DiceExpr, parse_dice
from affray.errors import EncounterError, Problem
from affray.io.hitpoints import HpRoll, hd_dice
from affray.io.messages import validation_problems
from affray.io.read import format_path, line_of, parse_yaml, plain_data, read_text
from affray.limits import MAX_DICE, MAX_DURATION, MAX_HP
from affray.model.derive import dex_defense_adjustment, hd_value
from affray.model.encounter import Combatant, parse_duration

__all__ = ["MoraleChoice", "Named", "bare_weapons", "entry_problems", "monster_figures", "morale_2d10", "resolve_names",
           "uses_names", "with_file"]

Loc = tuple[str | int, ...]
Problems = list[tuple[Loc, str]]

#: The shield ``shield: true`` stands for when no shield is named: the catalogue's entry of that name.
GENERIC_SHIELD = "shield"


@dataclass(frozen=True)
class MoraleChoice:
    """A catalogue monster's morale on 2d6, for the combatant at ``side``'s ``index``: given as it is where the
    ruleset rolls 2d6, as ``morale_2d10`` of it where 2d10."""

    side: str
    index: int
    score_2d6: int


@dataclass
class Named:
    """The file's data with every name's figures written in, what stays to roll or choose when the fight starts,
    and the problems found (each at its field path)."""

    data: dict[str, Any]
    problems: Problems = field(default_factory=list)
    hp: list[HpRoll] = field(default_factory=list)
    morale: list[MoraleChoice] = field(default_factory=list)
    used: bool = False  # names, hit point dice or a catalogue file: the data differs from the file


# ------------------------------------------------------------------------------------------------- scanning

def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def _combatants(data: dict[str, Any]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for side, s in _dict(data.get("sides")).items():
        for i, c in enumerate(_list(_dict(s).get("combatants"))):
            if isinstance(c, dict):
                yield str(side), i, c


def uses_names(data: dict[str, Any]) -> bool:
    """Whether the file names anything from the catalogue, writes hit points as dice or leaves them to Hit Dice,
    or names a catalogue file."""
    if "catalogue" in data or _dict(data.get("rolls")).get("hp") is not None:
        return True
    for _side, _i, c in _combatants(data):
        if "monster" in c or "armour" in c or isinstance(c.get("hp"), str) or ("hp" not in c and "hd" in c):
            return True
        if any(isinstance(w, str) or (isinstance(w, dict) and "weapon" in w) for w in _list(c.get("weapons"))):
            return True
        if any(isinstance(s, str) or (isinstance(s, dict) and "spell" in s) for s in _list(c.get("spells"))):
            return True
    return False


# --------------------------------------------------------------------------------------------- resolution

def resolve_names(data: dict[str, Any], file: str, catalogue_file: str | Path | None = None) -> Named:  # noqa: C901
    """``data`` with every name's figures written in (see the module). ``catalogue_file``: the referee's file
    given on the command line (``--catalogue``), whose entries win over the file's ``catalogue:``; either one's
    problems raise EncounterError naming that file."""
    if not uses_names(data) and catalogue_file is None:
        return Named(data)
    catalogue = package_catalogue()
    own = data.get("catalogue")
    named = Named(dict(data), used=True)
    if isinstance(own, str) and own.strip():
        base = Path(file).parent if file and not file.startswith("<") else Path()
        catalogue = with_file(catalogue, base / own)
    elif own is not None:
        named.problems.append((("catalogue",), "the referee's catalogue file: a path (relative to this file)"))
    if catalogue_file is not None:
        catalogue = with_file(catalogue, catalogue_file)
    given_seed = data.get("seed")
    seed = given_seed if isinstance(given_seed, int) and not isinstance(given_seed, bool) else 0
    given = _dict(_dict(data.get("rolls")).get("hp"))
    rolled: set[str] = set()
    sides = {}
    for side, s in _dict(data.get("sides")).items():
        if not isinstance(s, dict) or not isinstance(s.get("combatants"), list):
            sides[side] = s
            continue
        combatants = []
        for i, c in enumerate(s["combatants"]):
            loc: Loc = ("sides", side, "combatants", i)
            combatants.append(_combatant(catalogue, named, c, loc, given, rolled, seed)
                              if isinstance(c, dict) else c)
        sides[side] = {**s, "combatants": combatants}
    if "sides" in data:
        named.data["sides"] = sides
    for name in given:
        if name not in rolled:
            named.problems.append((("rolls", "hp", str(name)), f"{name!r} has no hit points to roll: `rolls.hp` gives "
                                   "those of a combatant whose hp is dice or left to its Hit Dice "
                                   f"(rolled: {', '.join(sorted(rolled)) or 'none'})"))
    return named


def _unknown(catalogue: Catalogue, kind: str, name: str) -> str:
    near = catalogue.nearest(kind, name)
    what = {"weapons": "weapon", "armour": "armour", "spells": "spell", "monsters": "monster"}[kind]
    hint = f"nearest: {', '.join(near)}" if near else "nothing near it"
    return f"no {what} {name!r} in the catalogue ({hint}; `affray catalogue {kind}` lists them)"


def _combatant(catalogue: Catalogue, named: Named, c: dict[str, Any], loc: Loc, given: dict[Any, Any],
               rolled: set[str], seed: int) -> dict[str, Any]:
    out = dict(c)
    entry: MonsterEntry | None = None
    if "monster" in c:
        name = c["monster"]
        found = catalogue.find("monsters", name) if isinstance(name, str) else None
        if not isinstance(name, str):
            named.problems.append(((*loc, "monster"), "a monster's name from the catalogue (text)"))
        elif found is None:
            named.problems.append(((*loc, "monster"), _unknown(catalogue, "monsters", name)))
            # the name's own problem is the one to read: not also the name and hit points it would have given
            out = {"name": name.strip()[:1].upper() + name.strip()[1:] or "?", "hp": 1, **c}
        else:
            assert isinstance(found.entry, MonsterEntry)
            entry = found.entry
            figures = monster_figures(catalogue, found, named.problems, at=(*loc, "monster"))
            if "weapons" in c:
                figures.pop("weapons", None)
            if "spells" in c:
                figures.pop("spells", None)
            out = {"name": name.strip()[:1].upper() + name.strip()[1:], "class": "monster", **figures, **c}
            if "morale" not in out and entry.morale_2d6 is not None:
                out["morale"] = entry.morale_2d6
                named.morale.append(MoraleChoice(str(loc[1]), int(loc[3]), entry.morale_2d6))
    level = _caster_level(out)
    if isinstance(c.get("weapons"), list):
        out["weapons"] = [_weapon(catalogue, named.problems, w, (*loc, "weapons", j)) for j, w in
                          enumerate(c["weapons"])]
    if isinstance(c.get("spells"), list):
        out["spells"] = [_spell(catalogue, named.problems, s, (*loc, "spells", j), level, caster_of(out))
                         for j, s in enumerate(c["spells"])]
    if "armour" in c:
        _armour(catalogue, named.problems, c, out, loc)
    _hit_points(named, c, out, loc, entry, given, rolled, seed)
    return out


def _caster_level(c: dict[str, Any]) -> int | None:
    """The level a combatant casts at: its ``level``, else (a monster) its Hit Dice."""
    level = c.get("level")
    if isinstance(level, int) and not isinstance(level, bool):
        return level
    hd = c.get("hd")
    try:
        return max(1, int(hd_value(hd))) if isinstance(hd, (str, int, float)) and not isinstance(hd, bool) else None
    except ValueError:
        return None


def _item(item: Any, key: str, loc: Loc) -> tuple[Any, dict[str, Any], Loc] | None:
    """A named item of a list (``long sword``, or ``{weapon: long sword, ...fields}`` with ``key`` its name's
    field): the name, the fields beside it and where the name is written; None for one written out."""
    if isinstance(item, str):
        return item, {}, loc
    if isinstance(item, dict) and key in item:
        return item[key], {k: v for k, v in item.items() if k != key}, (*loc, key)
    return None


# ------------------------------------------------------------------------------------------------ weapons

def _weapon(catalogue: Catalogue, problems: Problems, w: Any, loc: Loc) -> Any:
    """A weapon item: a name, ``{weapon: NAME, ...fields}``, or written out (left as it is)."""
    item = _item(w, "weapon", loc)
    if item is None:
        return w
    name, over, at = item
    if not isinstance(name, str):
        problems.append((at, "a weapon's name from the catalogue (text)"))
        return {"name": str(name)}
    found = catalogue.find("weapons", name)
    if found is None:
        problems.append((at, _unknown(catalogue, "weapons", name)))
        return {"name": name}
    assert isinstance(found.entry, WeaponEntry)
    return {"name": name.strip(), **found.entry.figures(), **over}


def bare_weapons(data: dict[str, Any], catalogue_file: str | Path | None = None) -> Problems:
    """Weapons written out (``{name: long sword}``) without ``damage`` whose name is a catalogue weapon's: a 1d2
    weapon called long sword, which the referee most likely meant to be the catalogue's. Each is worth a warning
    (the file is valid as it is); the catalogue is read only when there is such a weapon to look up."""
    bare = [((side, i, j), w["name"]) for side, i, c in _combatants(data)
            for j, w in enumerate(_list(c.get("weapons")))
            if isinstance(w, dict) and isinstance(w.get("name"), str) and "weapon" not in w and "damage" not in w]
    if not bare:
        return []
    catalogue = package_catalogue()
    if catalogue_file is not None:
        catalogue = with_file(catalogue, catalogue_file)
    out: Problems = []
    for (side, i, j), name in bare:
        found = catalogue.find("weapons", name)
        if found is not None:
            out.append((("sides", side, "combatants", i, "weapons", j),
                        f"{name!r} is written out without damage: a 1d2 weapon of that name; the catalogue's "
                        f"{found.name} ({found.entry.figures().get('damage')}) is `{name}` or `{{weapon: {name}}}`, "
                        "or give this one its damage"))
    return out


def weapon_weight(catalogue: Catalogue, w: Any) -> float:
    """The weight of a weapon item named from the catalogue (0 for one written out)."""
    name = w if isinstance(w, str) else w.get("weapon") if isinstance(w, dict) else None
    found = catalogue.find("weapons", name) if isinstance(name, str) else None
    return float(found.entry.weight or 0) if found is not None and isinstance(found.entry, WeaponEntry) else 0.0


# ------------------------------------------------------------------------------------------------- spells

#: Whose spell list a class casts from (2e PH: the priest's for clerics, druids, paladins and rangers).
_CASTER = {"cleric": "priest", "druid": "priest", "paladin": "priest", "ranger": "priest", "monk": "priest",
           "wizard": "wizard", "magic-user": "wizard", "illusionist": "wizard", "bard": "wizard"}


def caster_of(c: dict[str, Any]) -> str | None:
    """``wizard`` or ``priest``: the spell list a combatant's class casts from (None: a monster or no class)."""
    klass = c.get("class")
    return _CASTER.get(klass) if isinstance(klass, str) else None


def find_spell(catalogue: Catalogue, name: str, caster: str | None) -> Found | None:
    """The spell ``name``; a name both lists have (``hold person``) is ``hold person (priest)`` or ``hold person
    (wizard)`` in the catalogue, and a caster takes its own list's (a monster the wizard's, then the priest's)."""
    found = catalogue.find("spells", name)
    if found is not None:
        return found
    for kind in ([caster] if caster is not None else []) + ["wizard", "priest"]:
        found = catalogue.find("spells", f"{name} ({kind})")
        if found is not None:
            return found
    return None


def _spell(catalogue: Catalogue, problems: Problems, s: Any, loc: Loc, level: int | None,
           caster: str | None = None) -> Any:
    """A spell item: a name, ``{spell: NAME, ...fields}``, or written out; a named one's damage and duration by
    its caster's level."""
    item = _item(s, "spell", loc)
    if item is None:
        return s
    name, over, at = item
    if not isinstance(name, str):
        problems.append((at, "a spell's name from the catalogue (text)"))
        return {"name": str(name)}
    found = find_spell(catalogue, name, caster)
    if found is None:
        problems.append((at, _unknown(catalogue, "spells", name)))
        return {"name": name}
    assert isinstance(found.entry, SpellEntry)
    figures = scaled_figures(found.entry, level, over, lambda message: problems.append((at, f"{name}: {message}")))
    return {"name": name.strip(), **figures, **over}


def scaled_figures(entry: SpellEntry, level: int | None, over: dict[str, Any],
                   refuse: Callable[[str], None]) -> dict[str, Any]:
    """A spell entry's figures at caster ``level``: ``damage_by_level`` copies of its damage dice and
    ``duration_by_level`` a level (fields in ``over``, written beside the name, are not worked out)."""
    figures = dict(entry.figures())
    scale = entry.damage_by_level
    if scale is not None and "damage" not in over:
        if level is None:
            refuse("its damage is by caster level: give its caster a `level` (or `damage` beside the name)")
        else:
            figures["damage"] = times_dice(parse_dice(figures["damage"]), max(1, scale.times(level)),
                                           scale.bonus(level))
    if entry.duration_by_level is not None and "duration" not in over:
        if level is None:
            refuse("its duration is by caster level: give its caster a `level` (or `duration` beside the name)")
        else:
            n, unit = parse_duration(entry.duration_by_level)
            base = parse_duration(entry.duration_base)[0] if entry.duration_base is not None else 0
            figures["duration"] = f"{min(MAX_DURATION, base + n * max(1, level))} {unit}s"
    if entry.max_hd_by_level and "effect" not in over:
        if level is None:
            refuse("whom it takes is by caster level: give its caster a `level` (or `effect` beside the name)")
        else:
            figures["effect"] = {**figures["effect"], "max_hd": max(1, level)}
    return figures


def times_dice(dice: DiceExpr, times: int, plus: int = 0) -> str:
    """``dice`` thrown ``times`` over (its constant too), with ``plus`` added: 1d4+1 three times is 3d4+3."""
    groups = [(min(MAX_DICE, n * times), s) for n, s in dice.groups]
    bonus = dice.bonus * times + plus
    text = "+".join(f"{n}d{s}" for n, s in groups) or "0"
    return f"{text}{bonus:+d}" if bonus else text


# ------------------------------------------------------------------------------------------------- armour

def _armour(catalogue: Catalogue, problems: Problems, c: dict[str, Any], out: dict[str, Any], loc: Loc) -> None:
    """``armour: NAME`` or a list of names (a suit and a shield): ``ac`` (with the shield and the DEX defensive
    adjustment) and ``load`` (what it wears and wields) when not written; ``shield: true`` for a shield named."""
    names = c["armour"] if isinstance(c["armour"], list) else [c["armour"]]
    suits: list[tuple[Loc, Found]] = []
    shields: list[tuple[Loc, Found]] = []
    for j, name in enumerate(names):
        at = (*loc, "armour", j) if isinstance(c["armour"], list) else (*loc, "armour")
        if not isinstance(name, str):
            problems.append((at, "an armour's name from the catalogue (text)"))
            continue
        found = catalogue.find("armour", name)
        if found is None:
            problems.append((at, _unknown(catalogue, "armour", name)))
            continue
        (shields if getattr(found.entry, "kind", "") == "shield" else suits).append((at, found))
    for at, found in suits[1:]:
        problems.append((at, f"a second suit of armour ({found.name}): a combatant wears one"))
    for at, found in shields[1:]:
        problems.append((at, f"a second shield ({found.name}): a combatant bears one"))
    if shields and "shield" not in c:
        out["shield"] = True
    shield = shields[0][1] if shields else catalogue.find("armour", GENERIC_SHIELD) if out.get("shield") else None
    suit = suits[0][1] if suits else None
    if "ac" not in c:
        ac = getattr(suit.entry, "ac", 10) if suit is not None else 10
        ac -= getattr(shield.entry, "bonus", 1) or 0 if shield is not None else 0
        dex = c.get("dex", 10)
        ac += dex_defense_adjustment(dex) if isinstance(dex, int) and 1 <= dex <= 25 else 0
        out["ac"] = max(-10, min(10, ac))
    if "load" not in c:
        worn = sum(float(getattr(f.entry, "weight", 0) or 0) for f in (suit, shield) if f is not None)
        wielded = sum(weapon_weight(catalogue, w) for w in _list(c.get("weapons")))
        out["load"] = round(worn + wielded)


# --------------------------------------------------------------------------------------------- hit points

def _hit_points(named: Named, c: dict[str, Any], out: dict[str, Any], loc: Loc, entry: MonsterEntry | None,  # noqa: C901
                given: dict[Any, Any], rolled: set[str], seed: int) -> None:
    """Hit points written as dice, or left to the Hit Dice: set aside to roll (a value for now: the file's seed)."""
    hp = c.get("hp")
    if hp is None and "hp" in c:
        return  # ``hp:`` with nothing after it: the model says it is required
    dice: DiceExpr | None = None
    if isinstance(hp, str):
        try:
            dice = parse_dice(hp)
        except ValueError as exc:
            named.problems.append(((*loc, "hp"), f"hit points: a number, or dice to roll when the fight starts "
                                   f"(3d8, 2d8+2): {exc}"))
            return
        if not dice.groups:
            out["hp"] = dice.bonus
            return
    elif "hp" not in c:
        hd = out.get("hd")
        if entry is not None and entry.hp_dice is not None and "hd" not in c:
            dice = parse_dice(entry.hp_dice)
        elif isinstance(hd, (str, int, float)) and not isinstance(hd, bool):
            try:
                dice = hd_dice(hd)
            except ValueError:
                return  # the model says what is wrong with the Hit Dice
        else:
            return  # neither hp nor Hit Dice: the model says hp is required
    else:
        return
    name = out.get("name")
    count = out.get("count", 1)
    if not isinstance(name, str) or not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 500:
        return  # the model reports the name or count
    names = (name,) if count == 1 else tuple(f"{name} {k}" for k in range(1, count + 1))
    low, high = max(1, dice.dice_min + dice.bonus), max(1, dice.dice_max + dice.bonus)
    if high > MAX_HP:  # whatever the seed: a fight under another seed than the file's rolls them again
        field = "hp" if isinstance(hp, str) else "hd" if "hd" in c else "monster"
        whose = "the catalogue entry's hp_dice" if field == "monster" else "they"
        named.problems.append(((*loc, field), f"hit point dice {dice.text}: {whose} may roll up to {high:,} hit "
                               f"points, under some seed; at most {MAX_HP:,} (limit)"))
        return
    values: list[int | None] = []
    for n in names:
        g = given.get(n)
        rolled.add(n)
        if g is None:
            values.append(None)
        elif isinstance(g, bool) or not isinstance(g, int) or not low <= g <= high:
            named.problems.append((("rolls", "hp", n), f"{g!r} cannot be rolled on {n}'s hit point dice "
                                   f"{dice.text} ({low}-{high})"))
            values.append(None)
        else:
            values.append(g)
    roll = HpRoll(str(loc[1]), int(loc[3]), dice, names, tuple(values))
    named.hp.append(roll)
    first, *rest = roll.values(seed)
    out["hp"] = [first, *rest] if rest else first


# ------------------------------------------------------------------------------------------------ monsters

def monster_figures(catalogue: Catalogue, found: Found, problems: Problems,
                    at: Loc | None = None) -> dict[str, Any]:
    """A monster entry's figures as a combatant's fields, its weapons and spells taken from the catalogue; each
    problem at its place in the entry, or at ``at`` (the file's ``monster:``) when given."""
    entry = found.entry
    assert isinstance(entry, MonsterEntry)
    figures = dict(entry.figures())
    own: Problems = []
    level = _caster_level(figures)
    if isinstance(figures.get("weapons"), list):
        figures["weapons"] = [_weapon(catalogue, own, w, ("weapons", j)) for j, w in enumerate(figures["weapons"])]
    if isinstance(figures.get("spells"), list):
        figures["spells"] = [_spell(catalogue, own, s, ("spells", j), level, caster_of(figures))
                             for j, s in enumerate(figures["spells"])]
    if not own:
        try:
            Combatant.model_validate({"name": found.name, "hp": 1, **figures,
                                      **({"morale": entry.morale_2d6} if entry.morale_2d6 else {})})
        except ValidationError as exc:
            own.extend(validation_problems(exc, figures))
    if at is None:
        problems.extend(own)
    else:
        problems.extend((at, f"the catalogue's {found.name} ({found.origin}): {'.'.join(map(str, loc))}: {m}")
                        for loc, m in own)
    return figures


# -------------------------------------------------------------------------------------------------- morale

def _chance_2d(sides: int, score: int) -> float:
    """The chance that 2dN rolls ``score`` or less (a morale check passes)."""
    return sum(1 for a in range(1, sides + 1) for b in range(1, sides + 1) if a + b <= score) / sides ** 2


def morale_2d10(score_2d6: int) -> int:
    """The 2d10 score (2-20) whose chance of passing is nearest that of ``score_2d6`` on 2d6; on a tie the lower."""
    want = _chance_2d(6, score_2d6)
    return min(range(2, 21), key=lambda s: (abs(_chance_2d(10, s) - want), s))


# ------------------------------------------------------------------------------------ a referee's catalogue

def with_file(catalogue: Catalogue, path: str | Path) -> Catalogue:  # noqa: C901
    """``catalogue`` with the entries of the referee's file ``path`` added or replacing; EncounterError lists every
    problem of the file (its line and field path)."""
    file = str(path)
    doc = parse_yaml(read_text(path), file)
    data = plain_data(doc, file)

    def problem(loc: tuple[str | int, ...], message: str) -> Problem:
        return Problem(file, line_of(doc, loc), format_path(loc), message)

    if not isinstance(data, dict) or not data:
        raise EncounterError([Problem(file, 1, "", "a catalogue file is a mapping of weapons:, armour:, spells: "
                                      "and monsters:, each a mapping of name to entry")])
    problems: list[Problem] = []
    entries: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, named in data.items():
        if kind not in KINDS:
            problems.append(problem((str(kind),), f"unknown kind {kind!r}: a catalogue file has {', '.join(KINDS)}"))
            continue
        if not isinstance(named, dict):
            problems.append(problem((kind,), f"`{kind}` is a mapping of name to entry"))
            continue
        for name, entry in named.items():
            loc: tuple[str | int, ...] = (kind, str(name))
            if not isinstance(entry, dict):
                problems.append(problem(loc, "an entry is a mapping of its figures (and `source:`)"))
            elif not str(name).strip():
                problems.append(problem(loc, "an entry's name cannot be blank"))
            else:
                entries.setdefault(kind, {})[str(name)] = entry
    new = catalogue.added(entries, file)
    for kind, named in entries.items():
        for name in named:
            problems.extend(problem((kind, name, *loc), message) for loc, message in entry_problems(new, kind, name))
    if problems:
        raise EncounterError(problems)
    return new


def entry_problems(catalogue: Catalogue, kind: str, name: str) -> Problems:
    """(field path within the entry, message) for each problem of the entry ``name`` of ``kind``: its ``same_as``,
    its figures, and a monster's as a combatant of an encounter file (its weapons and spells found)."""
    found = catalogue.check(kind, name)
    if isinstance(found, list):
        out: Problems = []
        for loc, what in found:
            if isinstance(what, ValidationError):
                out.extend(validation_problems(what, catalogue.raw(kind, name)))
            else:
                out.append((loc, what))
        return out
    if isinstance(found.entry, MonsterEntry):
        problems: Problems = []
        monster_figures(catalogue, found, problems)
        return problems
    return []
