"""Foundry VTT actors of the Old-School Essentials system (``ose``), as Foundry's "Export Data" writes them: one
actor a ``.json`` file (a list of actors is read too), a ``character`` or a ``monster``.

Read from the system's public data model (its ``template.json`` and data-model classes, vttred/ose): ``system``
(``data`` before Foundry 10) holds ``hp`` (``value``, ``max``, ``hd``), ``ac`` and ``aac`` (``value``, ``mod``),
``thac0`` (``value``, ``bba``), ``movement.base`` (feet a turn), ``saves.spell.value``, a character's ``details``
(``class``, ``level``) and ``scores`` (``str``... ``value``), a monster's ``details.morale``; ``items`` of type
``weapon`` (``damage``, ``melee``, ``missile``, ``bonus``, ``quantity``), ``armor`` (``ac.value``, ``aac.value``,
``type``, ``equipped``) and ``spell`` (``lvl``, ``memorized``, ``cast``).

How each figure becomes affray's, each said in a note:

- **AC**: descending as the actor has it. A character's is worked out as the system does: its equipped armour's AC
  (unarmoured 9, OSE), less its shield's bonus and its DEX modifier (OSE: 3 -3, 4-5 -2, 6-8 -1, 13-15 +1, 16-17 +2,
  18 +3) and ``ac.mod``. Where only ascending AC is given, AC = 19 - AAC (OSE's own conversion).
- **THAC0**: ``thac0.value``; from an attack bonus (``bba``), 19 - bba.
- **Movement**: feet a turn / 10 (120' is 12), as affray's catalogue reads OSE.
- **Hit points**: ``hp.value`` now, and ``hp.max`` unhurt (``hp_max``) when less; a monster without them rolls its
  Hit Dice (``hp.hd``: ``2``, ``1+1``, ``3d8``) when the fight starts.
- **Weapons**: a name the catalogue knows takes its speed factor and range (2e PH), with the actor's damage; a
  monster's other attacks are natural ones (claw, bite); a missile weapon's ``quantity`` is its ammunition.
- **Spells**: each memorised one (``memorized`` copies, ``cast`` of them cast), by the catalogue's figures when it
  knows the name, else written out with the level only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from affray.errors import Problem
from affray.importing import Imported, Unreadable, note
from affray.io.read import read_text

__all__ = ["is_foundry", "read_foundry"]

#: OSE's classes as affray's (a race-class is a fighter of that race; the rest are said in a note).
_CLASSES = {"fighter": "fighter", "cleric": "cleric", "magic-user": "wizard", "magic user": "wizard",
            "thief": "thief", "dwarf": "fighter", "elf": "fighter", "halfling": "fighter", "ranger": "ranger",
            "paladin": "paladin", "druid": "druid", "illusionist": "illusionist", "bard": "bard",
            "assassin": "thief", "acrobat": "thief", "barbarian": "fighter", "knight": "fighter",
            "gnome": "fighter", "half-elf": "fighter", "half-orc": "fighter", "svirfneblin": "fighter",
            "drow": "fighter", "duergar": "fighter", "monk": "monk"}
_RACES = {"dwarf", "elf", "halfling", "gnome", "half-elf", "half-orc", "svirfneblin", "drow", "duergar"}


def _dex_mod(score: int) -> int:
    """OSE's DEX modifier to AC (its ability table)."""
    return -3 if score <= 3 else -2 if score <= 5 else -1 if score <= 8 else 0 if score <= 12 else \
        1 if score <= 15 else 2 if score <= 17 else 3


def is_foundry(data: Any) -> bool:
    """Whether ``data`` looks like a Foundry actor export (of any system): a name, a type, a system's data."""
    items = data if isinstance(data, list) else [data]
    return bool(items) and all(isinstance(a, dict) and "name" in a and "type" in a and
                               isinstance(a.get("system", a.get("data")), dict) for a in items)


def read_foundry(path: Path, text: str | None = None) -> Imported:
    """The actors of one export file; Unreadable for broken JSON, another system's actor or a figure that does
    not read."""
    file = str(path)
    if text is None:
        text = read_text(path)
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        raise Unreadable([note(file, "", f"not valid JSON: {getattr(exc, 'msg', exc)} (a Foundry VTT actor export "
                                         "is JSON)", line)]) from None
    if not is_foundry(data):
        raise Unreadable([note(file, "", "not a Foundry VTT actor export: an actor has `name`, `type` and `system` "
                                         "(affray reads actors of the Old-School Essentials system, `ose`)")])
    out = Imported()
    actors = data if isinstance(data, list) else [data]
    problems: list[Problem] = []
    for k, actor in enumerate(actors):
        at = f"[{k}]." if isinstance(data, list) else ""
        try:
            out.extend(_actor(file, at, actor))
        except Unreadable as exc:
            problems += exc.problems
    if problems:
        raise Unreadable(problems)
    return out


def _system_of(actor: dict[str, Any]) -> str | None:
    stats = actor.get("_stats")
    flags = actor.get("flags")
    source = flags.get("exportSource") if isinstance(flags, dict) else None
    for holder, key in ((stats, "systemId"), (source, "system")):
        if isinstance(holder, dict) and isinstance(holder.get(key), str):
            return str(holder[key])
    return None


class _Reader:
    """One actor's figures, read with their field paths; what does not read is a problem, what is missing a note."""

    def __init__(self, file: str, at: str, actor: dict[str, Any]) -> None:
        self.file = file
        self.at = at
        self.actor = actor
        self.key = "system" if isinstance(actor.get("system"), dict) else "data"
        self.problems: list[Problem] = []
        self.notes: list[Problem] = []

    def get(self, *path: str) -> Any:
        node: Any = self.actor[self.key]
        for part in path:
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return node

    def where(self, *path: str) -> str:
        return f"{self.at}{self.key}." + ".".join(path)

    def number(self, *path: str, least: float | None = None) -> int | None:
        """A whole number at ``path``; None when absent or null; a problem when it is something else."""
        value = self.get(*path)
        if value is None or value == "":
            return None
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            self.problems.append(note(self.file, self.where(*path), f"{value!r} is not a whole number"))
            return None
        if least is not None and value < least:
            self.problems.append(note(self.file, self.where(*path), f"{value!r}: at least {least:g}"))
            return None
        return int(value)

    def said(self, where: str, message: str) -> None:
        self.notes.append(note(self.file, where, message))


def _actor(file: str, at: str, actor: dict[str, Any]) -> Imported:  # noqa: C901
    system = _system_of(actor)
    name = actor.get("name")
    if system is not None and system != "ose":
        raise Unreadable([note(file, f"{at}_stats.systemId", f"an actor of the {system!r} system: affray reads "
                                                            "actors of the Old-School Essentials system (`ose`)")])
    kind = actor.get("type")
    if kind not in ("character", "monster"):
        raise Unreadable([note(file, f"{at}type", f"{kind!r}: an OSE actor is a `character` or a `monster`")])
    if not isinstance(name, str) or not name.strip():
        raise Unreadable([note(file, f"{at}name", "an actor's name (text)")])
    r = _Reader(file, at, actor)
    if r.get("thac0") is None and r.get("hp") is None:
        raise Unreadable([note(file, f"{at}{r.key}", "no `hp` and no `thac0`: not an actor of the Old-School "
                                                     "Essentials system")])
    if system is None:
        r.said(f"{at}_stats.systemId", "the export does not name its system: read as Old-School Essentials")
    c: dict[str, Any] = {"name": name.strip()}
    items = [i for i in actor.get("items") or [] if isinstance(i, dict)]
    if kind == "character":
        _character(r, c, items)
    else:
        _monster(r, c)
    _hit_points(r, c, kind)
    _thac0(r, c)
    mv = r.number("movement", "base", least=0)
    if mv is not None:
        c["mv"] = min(240, round(mv / 10))
        r.said(r.where("movement", "base"), f"{mv}' a turn: MV {c['mv']} (feet a turn / 10)")
    save = r.number("saves", "spell", "value")
    if save is not None and 1 <= save <= 20:
        c["save"] = save
    weapons = _weapons(r, items, monster=kind == "monster")
    if weapons:
        c["weapons"] = weapons
        melee = [w for w in weapons if not (isinstance(w, dict) and w.get("kind") in ("missile", "thrown"))]
        if kind == "monster" and len(melee) > 1:
            c["attacks"] = len(melee)
            r.said(f"{at}items", f"{len(melee)} attacks a round: its routine, each form once")
    spells = _spells(r, items, c)
    if spells:
        c["spells"] = spells
    if r.problems:
        raise Unreadable(r.problems)
    return Imported([c], r.notes, pc=kind == "character")


def _character(r: _Reader, c: dict[str, Any], items: list[dict[str, Any]]) -> None:
    klass = r.get("details", "class")
    level = r.number("details", "level", least=0)
    if isinstance(klass, str) and klass.strip():
        key = klass.strip().lower()
        c["class"] = _CLASSES.get(key, "fighter")
        if key in _RACES:
            c["race"] = key
            r.said(r.where("details", "class"), f"{klass}: a {key} of the fighter's tables (OSE's race-class)")
        elif key not in _CLASSES:
            r.said(r.where("details", "class"), f"{klass!r}: not a class affray knows; read as a fighter")
        elif _CLASSES[key] != key.replace("magic-user", "wizard").replace("magic user", "wizard"):
            r.said(r.where("details", "class"), f"{klass}: read as a {_CLASSES[key]}")
    else:
        c["class"] = "fighter"
        r.said(r.where("details", "class"), "no class: read as a fighter")
    c["level"] = max(1, level) if level is not None else 1
    for score in ("str", "dex", "con", "int", "wis"):
        value = r.number("scores", score, "value")
        if value is not None and 1 <= value <= 25:
            c[score] = value
        elif value is not None and value != 0:
            r.problems.append(note(r.file, r.where("scores", score, "value"), f"{value}: a score from 1 to 25"))
    if r.get("scores", "cha", "value"):
        r.said(r.where("scores", "cha", "value"), "CHA: not read (no use in a fight)")
    ac = _given_ac(r)
    if ac is None:
        ac = _worn_ac(r, items, c.get("dex", 10))
    c["ac"] = max(-10, min(10, ac))


def _given_ac(r: _Reader) -> int | None:
    """AC as the actor gives it: descending ``ac.value``, else 19 - ascending ``aac.value``."""
    ac = r.number("ac", "value")
    if ac:  # 0 is the template's default: not given
        return ac
    aac = r.number("aac", "value")
    if aac:
        r.said(r.where("aac", "value"), f"ascending AC {aac}: AC {19 - aac} (19 - AAC, OSE)")
        return 19 - aac
    return None


def _worn_ac(r: _Reader, items: list[dict[str, Any]], dex: int) -> int:
    """A character's AC worked out as the OSE system does: its equipped armour (unarmoured 9), its shield, DEX."""
    worn = [(i, _system(i)) for i in items if i.get("type") == "armor"]
    armour = [(i, system) for i, system in worn if system.get("equipped") is True]
    suit = next((i for i, system in armour if system.get("type") != "shield"), None)
    shield = next((i for i, system in armour if system.get("type") == "shield"), None)
    base, words = 9, ["unarmoured 9"]
    if suit is not None:
        value = _item_ac(suit)
        if value is not None:
            base, words = value, [f"{suit.get('name')} {value}"]
    bonus = _item_ac(shield, shield=True) if shield is not None else 0
    if bonus:
        words.append(f"{shield.get('name') if shield else 'shield'} -{bonus}")
    dex_mod = _dex_mod(dex)
    if dex_mod:
        words.append(f"DEX {dex} {-dex_mod:+d}")
    mod = r.number("ac", "mod") or 0
    if mod:
        words.append(f"{-mod:+d} (ac.mod)")
    ac = base - (bonus or 0) - dex_mod - mod
    r.said(r.where("ac"), f"AC {ac} from what it wears: {', '.join(words)} (OSE)")
    return ac


def _system(item: dict[str, Any]) -> dict[str, Any]:
    """An item's own data (``system``; ``data`` before Foundry 10), or an empty one."""
    system = item.get("system", item.get("data"))
    return system if isinstance(system, dict) else {}


def _item_ac(item: dict[str, Any], *, shield: bool = False) -> int | None:
    """An armour item's AC (descending ``ac.value``, else 19 - ascending ``aac.value``); a shield's, its bonus."""
    system = item.get("system", item.get("data"))
    if not isinstance(system, dict):
        return None
    for key in ("ac", "aac"):
        held = system.get(key)
        value = held.get("value") if isinstance(held, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            return value if key == "ac" or shield else 19 - value
    return None


def _monster(r: _Reader, c: dict[str, Any]) -> None:
    c["class"] = "monster"
    hd = r.get("hp", "hd")
    if isinstance(hd, str) and hd.strip():
        value = _hit_dice(hd)
        if value is None:
            r.problems.append(note(r.file, r.where("hp", "hd"), f"{hd!r} is not Hit Dice (2, 1+1, 1-1, 1/2 or 3d8)"))
        else:
            c["hd"] = value
    ac = _given_ac(r)
    if ac is not None:
        c["ac"] = max(-10, min(10, ac))
    else:
        r.said(r.where("ac", "value"), "no AC given: AC 10")
    morale = r.number("details", "morale")
    if morale:
        if 2 <= morale <= 12:
            c["morale"] = morale
            r.said(r.where("details", "morale"), f"morale {morale} on 2d6 (OSE), kept as written: under a ruleset "
                   "that rolls 2d10 give its 2d10 score (docs/catalogue.md)")
        else:
            r.problems.append(note(r.file, r.where("details", "morale"), f"{morale}: a morale score of 2 to 12"))
    attacks = r.get("attacks")
    if isinstance(attacks, str) and attacks.strip():
        r.said(r.where("attacks"), f"{attacks.strip()!r}: the attacks as text are not read; its weapon items are")


def _hit_dice(text: str) -> str | None:
    """OSE's Hit Dice as affray writes them: ``2``, ``1+1``, ``1-1``, ``1/2``; ``3d8`` and ``3d8+2`` as 3 and
    3+2. None for anything else."""
    import re

    t = text.strip().replace(" ", "").replace("½", "1/2").rstrip("*")
    if re.fullmatch(r"\d+([+-]\d+)?|1/2", t):
        return t  # kept as text: "1+1"; a plain "2" is read by the encounter model as 2 Hit Dice all the same
    m = re.fullmatch(r"(\d+)d8([+-]\d+)?", t)
    return f"{m.group(1)}{m.group(2) or ''}" if m else None


def _hit_points(r: _Reader, c: dict[str, Any], kind: str) -> None:
    value = r.number("hp", "value")
    most = r.number("hp", "max", least=0)
    if value is None or (kind == "monster" and value == 0 and not most):
        if kind == "monster" and "hd" in c:
            r.said(r.where("hp", "value"), f"no hit points: rolled from its Hit Dice ({c['hd']}) as the fight starts")
            return
        if most:
            value = most
        else:
            r.problems.append(note(r.file, r.where("hp", "value"), "no hit points, and no Hit Dice to roll them from"))
            return
    if value <= 0:
        c["hp"] = value
        c["fallen"] = "dead"
        r.said(r.where("hp", "value"), f"{value} hp: fallen (dead, G-05)")
    else:
        c["hp"] = value
    if most and most > value:
        c["hp_max"] = most


def _thac0(r: _Reader, c: dict[str, Any]) -> None:
    thac0 = r.number("thac0", "value")
    bba = r.number("thac0", "bba")
    if thac0:
        c["thac0"] = thac0
    elif bba:
        c["thac0"] = 19 - bba
        r.said(r.where("thac0", "bba"), f"attack bonus +{bba}: THAC0 {19 - bba} (19 - bonus, OSE)")


def _weapons(r: _Reader, items: list[dict[str, Any]], *, monster: bool) -> list[Any]:  # noqa: C901
    from affray.catalogue import package_catalogue

    catalogue = package_catalogue()
    out: list[Any] = []
    for k, item in enumerate(items):
        if item.get("type") != "weapon":
            continue
        where = f"{r.at}items[{k}]"
        system = item.get("system", item.get("data"))
        name = item.get("name")
        if not isinstance(system, dict) or not isinstance(name, str) or not name.strip():
            r.problems.append(note(r.file, where, "a weapon item with a name and its `system`"))
            continue
        damage = system.get("damage")
        missile = system.get("missile") is True and system.get("melee") is not True
        from affray.dice.expr import parse_dice

        if damage is not None:
            try:
                parse_dice(str(damage))
            except ValueError:
                r.problems.append(note(r.file, f"{where}.system.damage", f"{damage!r} is not dice (1d8, 2d4+1)"))
                continue
        found = catalogue.find("weapons", name)
        if found is None and missile:
            found = catalogue.find("weapons", name.rstrip("s"))
        w: dict[str, Any]
        if found is not None:
            w = {"weapon": found.name}
            if found.name != name.strip():
                w["name"] = name.strip()
            r.said(where, f"{name}: the catalogue's {found.name} (its speed factor, 2e PH Table 44)"
                   + (f", with the actor's damage {damage}" if damage else ""))
        else:
            w = {"name": name.strip()}
            if monster and not missile:
                w["natural"] = True
                r.said(where, f"{name}: a natural attack, not in the catalogue")
            else:
                r.said(where, f"{name}: not in the catalogue: no speed factor (speed-segments needs one: give `sf`)")
        if damage is not None:
            w["damage"] = str(damage)
            if found is not None:
                w["damage_large"] = str(damage)  # OSE's damage is one figure, whatever the target's size
        if missile:
            w["kind"] = "missile"
            quantity = system.get("quantity")
            shots = quantity.get("value") if isinstance(quantity, dict) else None
            if isinstance(shots, int) and not isinstance(shots, bool) and shots > 1:
                w["ammo"] = shots
        bonus = system.get("bonus")
        if isinstance(bonus, int) and not isinstance(bonus, bool) and bonus:
            w["magic"] = max(-5, min(6, bonus))
        out.append(w)
    return out


def _spells(r: _Reader, items: list[dict[str, Any]], c: dict[str, Any]) -> list[Any]:
    from affray.catalogue import package_catalogue
    from affray.io.names import caster_of, find_spell

    catalogue = package_catalogue()
    out: list[Any] = []
    for k, item in enumerate(items):
        if item.get("type") != "spell":
            continue
        where = f"{r.at}items[{k}]"
        system = item.get("system", item.get("data"))
        name = item.get("name")
        if not isinstance(system, dict) or not isinstance(name, str) or not name.strip():
            r.problems.append(note(r.file, where, "a spell item with a name and its `system`"))
            continue
        memorised = system.get("memorized") or 0
        cast = system.get("cast") or 0
        level = system.get("lvl") or 1
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (memorised, cast, level)):
            r.problems.append(note(r.file, where, "a spell's `lvl`, `memorized` and `cast` are whole numbers"))
            continue
        if memorised == 0:
            r.said(where, f"{name}: known, not memorised: left out")
            continue
        entry: dict[str, Any]
        if find_spell(catalogue, name, caster_of(c)) is not None:
            entry = {"spell": name.strip()}
        else:
            entry = {"name": name.strip(), "level": max(0, min(9, level))}
            r.said(where, f"{name}: not in the catalogue: a level {level} spell of casting time 1 that does nothing "
                   "affray knows (give it `damage` or `effect`)")
        if memorised > 1:
            entry["count"] = memorised
        if cast:
            entry["cast"] = min(cast, memorised)
        out.append(entry)
    return out
