"""``affray catalogue [KIND] [NAME]``: the catalogue listed, searched, or one entry shown as YAML to paste into an
encounter (CONTRACT.md "Commands", "The catalogue")."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from affray.catalogue import KINDS, Catalogue, Found, package_catalogue
from affray.catalogue.entries import ArmourEntry, MonsterEntry, SpellEntry, WeaponEntry
from affray.errors import AffrayError
from affray.io.names import with_file

__all__ = ["CatalogueError", "show_catalogue"]

#: PC-03 (seed 003's Initiative Conversion): the speed category of a numeric SF, as phase-count reads it.
_CATEGORY = ((1, "very fast"), (4, "fast"), (7, "average"), (13, "slow"))
#: The first caster level of each spell level (2e PH Tables 21 and 24), for showing a spell worked out.
_FIRST_LEVEL = {"wizard": {1: 1, 2: 3, 3: 5, 4: 7, 5: 9, 6: 12, 7: 14, 8: 16, 9: 18},
                "priest": {1: 1, 2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 14}}


#: A kind as it may be written on the command line.
_KIND_WORDS = {"weapon": "weapons", "armor": "armour", "armours": "armour", "armors": "armour", "spell": "spells",
               "monster": "monsters"}


class CatalogueError(AffrayError):
    """An unknown kind or name, with the nearest ones."""


def category(sf: int) -> str:
    """The speed category phase-count gives a weapon of speed factor ``sf`` (PC-03)."""
    return next((name for top, name in _CATEGORY if sf <= top), "very slow")


def _catalogue(extra: Path | None) -> Catalogue:
    return with_file(package_catalogue(), extra) if extra is not None else package_catalogue()


def show_catalogue(kind: str | None, name: str | None, *, extra: Path | None = None, level: int | None = None,
                   as_json: bool = False) -> None:
    """``affray catalogue [KIND] [NAME] [--catalogue FILE] [--level N] [--json]``."""
    catalogue = _catalogue(extra)
    kind = _KIND_WORDS.get(kind.lower(), kind) if kind is not None else None
    if kind is not None and kind not in KINDS:
        # ``affray catalogue sleep``, ``affray catalogue magic missile``: a name alone is searched in every kind
        name, kind = (kind if name is None else f"{kind} {name}"), None
    out = sys.stdout
    if kind is None and name is None:
        out.write(_summary(catalogue, as_json))
        return
    if name is None:
        assert kind is not None
        found = list(catalogue.entries(kind))
        out.write(json.dumps([_doc(catalogue, f, level) for f in found], indent=2) + "\n" if as_json else
                  f"{kind}: {len(found)} entries (`affray catalogue {kind} NAME` shows one to paste)\n" +
                  "".join(f"  {_line(f)}\n" for f in found))
        return
    hits = _lookup(catalogue, kind, name)
    if len(hits) == 1:
        out.write(json.dumps(_doc(catalogue, hits[0], level), indent=2) + "\n" if as_json else
                  _show(catalogue, hits[0], level))
        return
    if as_json:
        out.write(json.dumps([_doc(catalogue, f, level) for f in hits], indent=2) + "\n")
        return
    out.write(f"{len(hits)} entries match {name!r} (give one's whole name to see it):\n" +
              "".join(f"  {f.kind}: {_line(f)}\n" for f in hits))


def _summary(catalogue: Catalogue, as_json: bool) -> str:
    counts = {kind: catalogue.count(kind) for kind in KINDS}
    if as_json:
        return json.dumps({"kinds": counts}, indent=2) + "\n"
    parts = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    return (f"The catalogue: {parts}.\n"
            "  affray catalogue KIND          lists a kind (weapons, armour, spells, monsters)\n"
            "  affray catalogue KIND NAME     shows an entry as YAML to paste, with its source\n"
            "  affray catalogue TEXT          finds entries of every kind whose names contain TEXT\n"
            "In a file, name them: weapons: [long sword], spells: [sleep], armour: chain mail, "
            "{monster: orc, count: 6} (docs/catalogue.md).\n")


def _lookup(catalogue: Catalogue, kind: str | None, name: str) -> list[Found]:
    """The entry named exactly, else those whose names contain ``name``; none is an error naming the nearest."""
    kinds = [kind] if kind is not None else list(KINDS)
    exact = [f for k in kinds for f in [catalogue.find(k, name)] if f is not None]
    if not exact and kind == "spells":
        exact = [f for suffix in ("wizard", "priest") for f in [catalogue.find("spells", f"{name} ({suffix})")]
                 if f is not None]
    if exact:
        return exact
    hits = [f for f in catalogue.search(name) if kind is None or f.kind == kind]
    if hits:
        return hits
    near = [n for k in kinds for n in catalogue.nearest(k, name)]
    where = f"no {kind} entry" if kind is not None else "no entry"
    raise CatalogueError(f"{where} {name!r} in the catalogue; nearest: {', '.join(near[:5]) or 'none'} "
                         f"(`affray catalogue {kind or 'KIND'}` lists them)")


# ------------------------------------------------------------------------------------------------ words

def _line(f: Found) -> str:
    """One entry in one line, its main figures."""
    e = f.entry
    if isinstance(e, WeaponEntry):
        fig = e.figures()
        dmg = f"{fig.get('damage', '1d2')}/{fig.get('damage_large', fig.get('damage', '1d2'))}"
        kind = fig.get("kind", "melee")
        extra = f", {kind}, rate {fig.get('rate', 1)}" if kind != "melee" else ""
        reach = f", reach {fig['reach']} ft" if "reach" in fig else ""
        weight = f"{e.weight:g} lb" if e.weight is not None else "-"
        return f"{f.name}: SF {fig.get('sf', '-')}, {dmg}{extra}{reach}, {e.type or '-'}, {weight}"
    if isinstance(e, ArmourEntry):
        what = f"AC {e.ac}" if e.kind == "armour" else f"AC -{e.bonus} (shield)"
        return f"{f.name}: {what}, {e.weight:g} lb" if e.weight is not None else f"{f.name}: {what}"
    if isinstance(e, SpellEntry):
        fig = e.figures()
        effect = fig.get("effect")
        does = str(effect.get("condition", "")) if isinstance(effect, dict) else ""
        damage = fig.get("damage")
        what = ", ".join(x for x in (does, f"{damage} damage" if damage else "",
                                     "pending: " + ", ".join(e.pending) if e.pending else "") if x)
        components = fig.get("components", "VSM")
        head = f"{f.name}: {e.caster or '-'} {fig.get('level', 1)}, CT {fig.get('ct', 1)}, {components}"
        return head + (f"; {what}" if what else "")
    assert isinstance(e, MonsterEntry)
    fig = e.figures()
    attacks = ", ".join(w if isinstance(w, str) else f"{w.get('name')} {w.get('damage', '')}".strip()
                        for w in fig.get("weapons", []))
    ml = f", ML {e.morale_2d6}" if e.morale_2d6 is not None else ""
    head = f"{f.name}: HD {fig.get('hd')}, AC {fig.get('ac', 10)}, MV {fig.get('mv', 12)}, {fig.get('size', 'medium')}"
    return f"{head}{ml}; {attacks}"


def _spell_level(e: SpellEntry, level: int | None) -> int:
    if level is not None:
        return level
    spell_level = int(e.figures().get("level", 1))
    return _FIRST_LEVEL.get(e.caster or "wizard", {}).get(spell_level, 1)


def _written(catalogue: Catalogue, f: Found, level: int | None) -> tuple[dict[str, Any], list[str]]:  # noqa: C901
    """The entry as an encounter file writes it out in full, and the comment lines that go with it."""
    from affray.io.names import monster_figures, scaled_figures

    e = f.entry
    notes = [f"{f.name} ({'the catalogue' if f.origin == 'affray' else f.origin}): {e.source or ''}".rstrip(": ")]
    if isinstance(e, WeaponEntry):
        fig = {"name": f.name, **e.figures()}
        sf = fig.get("sf")
        meta = [x for x in (f"type {e.type}" if e.type else "", f"size {e.size}" if e.size else "",
                            f"{e.weight:g} lb" if e.weight is not None else "",
                            f"range {'/'.join(map(str, e.range))} yards" if e.range else "") if x]
        if isinstance(sf, int):
            meta.append(f"phase-count: {category(sf)} (SF {sf}, PC-03)")
        notes.append("; ".join(meta))
    elif isinstance(e, ArmourEntry):
        fig = {"armour": f.name}
        notes.append(f"AC {e.ac}" if e.kind == "armour" else f"a shield: AC {e.bonus} better")
        notes.append(f"{e.weight:g} lb (its load in d12-procedure, D12-15)" if e.weight is not None else "")
    elif isinstance(e, SpellEntry):
        at = _spell_level(e, level)
        fig = {"name": f.name, **scaled_figures(e, at, {}, lambda _m: None)}
        book = [x for x in (f"{e.caster} spell" if e.caster else "", e.school or "",
                            f"range {e.range}" if e.range else "", f"area {e.aoe}" if e.aoe else "",
                            f"save {e.saving_throw}" if e.saving_throw else "",
                            f"lasts {e.lasts}" if e.lasts else "") if x]
        notes.append("; ".join(book))
        if e.damage_by_level or e.duration_by_level or e.max_hd_by_level:
            notes.append(f"worked out for caster level {at} (--level N for another); by name it takes its caster's")
        notes += [f"not applied yet: {k}: {v}" for k, v in e.pending.items()]
    else:
        assert isinstance(e, MonsterEntry)
        from affray.model.derive import save_vs_spell, thac0_for

        fig = {"name": f.name[:1].upper() + f.name[1:], "hd": None, **monster_figures(catalogue, f, [])}
        if e.morale_2d6 is not None and "morale" not in fig:
            fig["morale"] = e.morale_2d6
        hd = fig.get("hd")
        if hd is not None:
            thac0, save = thac0_for("monster", None, hd), save_vs_spell("monster", None, hd)
            notes.append(f"THAC0 {thac0} and save vs. spell {save} from its Hit Dice (2e DMG Table 39, 2e PH Table "
                         f"60); hit points rolled from {e.hp_dice or 'its Hit Dice'} unless hp is given")
        if e.morale_2d6 is not None:
            from affray.io.names import morale_2d10

            notes.append(f"morale {e.morale_2d6} on 2d6, {morale_2d10(e.morale_2d6)} where a ruleset rolls 2d10 (by "
                         "name it is set for the ruleset; written out, it is used as written)")
        if e.special:
            notes.append(f"special: {e.special}")
    if e.note:
        notes.append(e.note)
    return fig, [n for n in notes if n]


def _show(catalogue: Catalogue, f: Found, level: int | None) -> str:
    """The entry as YAML to paste, its source and notes as comments above it."""
    import io

    from ruamel.yaml import YAML

    fig, notes = _written(catalogue, f, level)
    lines = [f"# {n}" for n in notes]
    if f.kind == "monsters":
        lines.append(f"# by name: - {{monster: {f.name}, count: 1}}; written out in full:")
    elif f.kind == "armour":
        lines.append(f"# by name: armour: {f.name}")
    else:
        lines.append(f"# by name: {f.kind}: [{f.name}]; written out in full:")
    buf = io.StringIO()
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = None
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    yaml.width = 110
    yaml.dump([fig], buf)
    return "\n".join(lines) + "\n" + buf.getvalue()


def _doc(catalogue: Catalogue, f: Found, level: int | None) -> dict[str, Any]:
    fig, notes = _written(catalogue, f, level)
    return {"kind": f.kind, "name": f.name, "origin": f.origin, "source": f.entry.source,
            "entry": f.entry.model_dump(mode="json", exclude_none=True), "written": fig, "notes": notes}
