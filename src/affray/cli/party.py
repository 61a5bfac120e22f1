"""``affray rest`` and ``affray import``: the party between fights, and the combatants other tools keep (CONTRACT.md
"The party across fights, and bringing it in"). Each writes a party file whole or not at all."""

from __future__ import annotations

from pathlib import Path

import typer

from affray.cli.common import err, whole
from affray.printable import printable

__all__ = ["import_body", "rest_body"]

#: The most days one ``affray rest`` counts (ten years).
MAX_DAYS = 3650


def rest_body(party: Path, days: str, bed: bool) -> None:
    """``affray rest PARTY.yaml [--days N] [--bed]``: what the days of rest restore, written and said."""
    from affray.party.rest import rest

    n = whole("--days", days, 1, MAX_DAYS, f"a whole number of days from 1 to {MAX_DAYS}")
    assert n is not None
    _text, words = rest(party, n, bed=bed)
    for line in words:
        typer.echo(printable(line))


def import_body(source: str, to: Path | None) -> None:
    """``affray import FILE [--to PARTY.yaml]``: the combatants read, checked as a side, then printed or added to
    the party file (created if need be); nothing is written when anything is wrong."""
    from affray.errors import EncounterError, Problem
    from affray.importing.read import as_party_text, read_input
    from affray.party.file import party_of_text, read_party, write_atomic

    imported = read_input(source)
    for n in imported.notes:
        err().print(printable(f"note: {n}"), markup=False)
    if not imported.combatants:
        raise EncounterError([Problem(source, None, "", "nothing to import: no combatant read")])
    header = f"# imported by affray from {Path(source).name if source != '-' else 'stdin'}\n"
    if to is not None and to.exists():
        existing = read_party(to)
        text = _appended(existing.text, imported.combatants)
    else:
        text = as_party_text(imported, header)
    target = to if to is not None else Path(source + ".party.yaml" if source != "-" else "<stdin>.party.yaml")
    party = party_of_text(text, target)  # checked as a party file before anything is written
    if to is None:
        typer.echo(text, nl=False)
        return
    write_atomic(to, text, inputs=[source] if source != "-" else [])
    typer.echo(printable(f"{to}: {len(imported.combatants)} combatant{'s' if len(imported.combatants) != 1 else ''} "
                         f"imported ({len(party.members)} in the party now)"))


def _appended(text: str, combatants: list[dict[str, object]]) -> str:
    """A party file's ``text`` with ``combatants`` added at the end of its list, its comments and order kept."""
    import io
    import json

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap

    if text.lstrip().startswith("{"):
        data = json.loads(text)
        data["combatants"] = list(data.get("combatants", [])) + combatants
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    doc = yaml.load(text)
    for c in combatants:
        m = CommentedMap(c)
        m.fa.set_flow_style()
        doc["combatants"].append(m)
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()
