"""The user's documentation (``docs/``) says what the code does: every field of the file, every option of each
ruleset with its default, every condition with its source, every command; and it stands alone (no path into the
project's own notes, no dead link)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from affray.cli.app import app
from affray.engine.conditions import CONDITIONS, effect_of
from affray.engine.options import option_info
from affray.model.derive import CLASS_GROUP, save_vs_spell
from affray.model.encounter import (
    SPELL_CONDITIONS,
    Combatant,
    DiceGiven,
    Encounter,
    Outcome,
    Rolls,
    Side,
    Spell,
    SpellEffect,
    Weapon,
)
from affray.model.encounter import Declaration as DeclarationModel
from affray.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"]


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def section(page: str, heading: str) -> str:
    """The part of ``page`` under the heading that starts with ``heading``, down to the next heading of its level
    or above."""
    lines = page.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and line.lstrip("#").strip()
                 .startswith(heading))
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")
                and len(lines[i]) - len(lines[i].lstrip("#")) <= level), len(lines))
    return "\n".join(lines[start:end])


def rows(part: str) -> dict[str, str]:
    """Table rows by their first cell's `code` name: ``| `name` | ... |``."""
    out = {}
    for line in part.splitlines():
        m = re.match(r"^\| `([^`]+)` \|", line)
        if m:
            out[m.group(1)] = line
    return out


def yaml_value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


# ------------------------------------------------------------------------------------------ file format

#: Each model of the encounter file and the heading of its section in docs/file-format.md.
MODELS: dict[type[BaseModel], str] = {
    Encounter: "The top level",
    Side: "A side",
    Combatant: "A combatant",
    Weapon: "A weapon",
    Spell: "A spell",
    SpellEffect: "A spell's effect",
    Rolls: "Dice rolled at the table",
    DeclarationModel: "The plan: declarations",
    Outcome: "An outcome",
    DiceGiven: "The dice of one attack",
}


def _nested(model: type[BaseModel]) -> set[type[BaseModel]]:
    """Every model reachable from ``model`` through its fields' annotations."""
    import typing

    found: set[type[BaseModel]] = set()

    def walk(annotation: Any) -> None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel) and annotation not in found:
            found.add(annotation)
            for f in annotation.model_fields.values():
                walk(f.annotation)
        for arg in typing.get_args(annotation):
            walk(arg)

    walk(model)
    return found


def test_every_model_of_the_file_has_its_section() -> None:
    # a model added to the file (through any field of Encounter) needs its section here and in MODELS
    assert _nested(Encounter) == set(MODELS)


@pytest.mark.parametrize("model", list(MODELS), ids=lambda m: m.__name__)
def test_file_format_documents_every_field(model: type[BaseModel]) -> None:
    part = section(text(DOCS / "file-format.md"), MODELS[model])
    documented = rows(part)
    for name, field in model.model_fields.items():
        key = field.alias or name  # ``class``, ``str``, ``int``, ``slots`` as the file writes them
        assert key in documented, f"{model.__name__}.{key} is missing from file-format.md's {MODELS[model]!r}"
        assert documented[key].count("|") >= 5, documented[key]  # type, default and meaning


def test_file_format_gives_required_fields_and_defaults() -> None:
    page = text(DOCS / "file-format.md")
    combatant = rows(section(page, "A combatant"))
    assert "| required |" in combatant["name"]
    assert "| required, but rolled from `hd` when not given |" in combatant["hp"]  # the catalogue's Hit Dice
    assert "| `10` |" in combatant["ac"] and "| `12` |" in combatant["mv"] and "| `medium` |" in combatant["size"]
    weapon = rows(section(page, "A weapon"))
    assert "| `1d2` |" in weapon["damage"] and "| `5` |" in weapon["reach"] and "| `melee` |" in weapon["kind"]
    effect = rows(section(page, "A spell's effect"))
    for condition in SPELL_CONDITIONS:  # every condition a spell's effect may set, named on the page
        assert f"`{condition}`" in effect["condition"]


# ----------------------------------------------------------------------------------------- ruleset pages

@pytest.mark.parametrize("cls", RULESETS, ids=lambda r: r.id)
def test_each_ruleset_page_gives_every_option_with_its_default(cls: Any) -> None:
    page = text(DOCS / "rulesets" / f"{cls.id}.md")
    options = rows(section(page, "Options"))
    for info in option_info(cls.Options):
        assert info.name in options, f"{cls.id}: option {info.name} is not on its page"
        cells = [c.strip() for c in options[info.name].strip("|").split("|")]
        assert cells[1] == f"`{yaml_value(info.default)}`", (cls.id, info.name, cells[1])
        assert info.rule.split(",")[0] in cells[3], (cls.id, info.name, cells[3])
        for choice in info.choices or ():
            assert f"`{yaml_value(choice)}`" in cells[2] or yaml_value(choice) in cells[2], (cls.id, info.name)


@pytest.mark.parametrize("cls", RULESETS, ids=lambda r: r.id)
def test_each_ruleset_page_gives_its_keys_procedure_decisions_and_limits(cls: Any) -> None:
    page = text(DOCS / "rulesets" / f"{cls.id}.md")
    assert page.startswith(f"# `{cls.id}`")
    keys = rows(section(page, "Declaration keys of its own"))
    assert set(cls.declaration_keys) <= set(keys), set(cls.declaration_keys) - set(keys)
    procedure = section(page, "The procedure")
    for prefix in (p.strip() + "-" for p in cls.rule_ids.split(",")):
        if prefix != "C2-" or cls.id == "combat2-phase1":
            assert prefix in procedure, (cls.id, prefix)  # the procedure names the ruleset's own rules
    assert section(page, "Decisions").count("\n- ") >= 3
    assert section(page, "Not modelled").count("\n- ") >= 1


def test_every_ruleset_has_a_page_and_no_page_names_an_unknown_ruleset() -> None:
    assert {p.stem for p in (DOCS / "rulesets").glob("*.md")} == {r.id for r in RULESETS}


# -------------------------------------------------------------------------------------------- conditions

def test_conditions_page_gives_every_condition_with_its_source() -> None:
    table = rows(section(text(DOCS / "conditions.md"), "Every condition"))
    for name, effect in CONDITIONS.items():
        assert name in table, f"condition {name} is missing from conditions.md"
        assert effect.source in table[name], (name, effect.source)
        assert effect.words.split(",")[0] in table[name], (name, effect.words)
    dropped = effect_of("dropped:long sword")
    assert dropped.source in table["dropped:WEAPON"]


def _save_table() -> dict[str, dict[int, int]]:
    """conditions.md's Table 60: class group -> level -> save, every level 0-25 spelt out."""
    part = section(text(DOCS / "conditions.md"), "Saving throws")
    out: dict[str, dict[int, int]] = {}
    for line in part.splitlines():
        m = re.match(r"^\| (warrior|priest|rogue|wizard):[^|]*\| (.+) \|$", line)
        if not m:
            continue
        levels: dict[int, int] = {}
        for cell in m.group(2).split(" · "):
            span, save = cell.rsplit(": ", 1)
            if span.endswith(" and more"):
                lo, hi = int(span.split()[0]), 25
            elif "-" in span:
                lo, hi = map(int, span.split("-"))
            else:
                lo = hi = int(span)
            for lv in range(lo, hi + 1):
                levels[lv] = int(save)
        out[m.group(1)] = levels
    return out


def test_conditions_page_save_table_is_the_codes() -> None:
    table = _save_table()
    assert set(table) == {"warrior", "priest", "rogue", "wizard"}
    for group, levels in table.items():
        klass = next(k for k, g in CLASS_GROUP.items() if g == group)
        assert sorted(levels) == list(range(26)), group
        for level, save in levels.items():
            assert save_vs_spell(klass, level, None) == save, (group, level)
    # a monster saves as a warrior of its HD: a goblin (1-1, below 1 HD) as a 0-level warrior
    assert save_vs_spell("monster", None, "1-1") == table["warrior"][0] == 19
    assert save_vs_spell("monster", None, "4+1") == table["warrior"][4] == 16


# ---------------------------------------------------------------------------------------------- commands

def test_commands_page_has_every_command() -> None:
    page = text(DOCS / "commands.md")
    names = [c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands]
    assert "new" in names and "examples" in names
    for name in names:
        assert f"`affray {name}`" in page, f"affray {name} is not in docs/commands.md"
    groups = {g.name: g.typer_instance for g in app.registered_groups}
    assert "odds" in groups
    for group, sub in groups.items():  # a command with subcommands: the group and each of them
        assert f"`affray {group}`" in page, f"affray {group} is not in docs/commands.md"
        assert sub is not None
        for c in sub.registered_commands:
            assert f"`affray {group} {c.name}" in page, f"affray {group} {c.name} is not in docs/commands.md"


def test_console_commands_of_conditions_are_documented_where_the_console_help_says() -> None:
    from affray.play.console import HELP

    page = text(DOCS / "commands.md")
    for line in HELP.splitlines()[1:]:
        verb = line.split()[0]
        if line.startswith("  ") and not line.startswith("   "):
            assert f"`{verb}" in page, verb


# ---------------------------------------------------------------------------------------- standing alone

@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_name_nothing_a_user_does_not_have(path: Path) -> None:
    page = text(path)
    for forbidden in ("../shared", "RULES.md", "CONTRACT.md", "seeds/"):
        assert forbidden not in page, (path.name, forbidden)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_lead_somewhere(path: Path) -> None:
    page = text(path)
    for target in re.findall(r"\]\(([^)\s]+)\)", page):
        if re.match(r"^[a-z]+:", target):
            continue  # no absolute links are expected; none is checked
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        assert dest.exists(), (path.name, target)
        if anchor and dest.suffix == ".md":
            anchors = {_slug(h.lstrip("#")) for h in text(dest).splitlines() if h.startswith("#")}
            assert anchor in anchors, (path.name, target)
