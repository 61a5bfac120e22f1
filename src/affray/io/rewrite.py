"""An encounter's text with the command line's settings written into it (``--declare``), so that the fight a
database keeps is the file it was played from, settings included, and resumes as it was started."""

from __future__ import annotations

import io
import json
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from affray.errors import OptionError
from affray.model.encounter import DECLARE_MODES

__all__ = ["with_declare"]


def with_declare(text: str, file: str, pairs: list[str]) -> str:
    """``text`` with each ``WHO=MODE`` of ``--declare`` set: ``declare: MODE`` on the side named WHO, or on the
    combatant the file names WHO (every one of a ``count``). OptionError for a pair that names nobody or no
    mode; a text that does not read is left as it is (the loader says what is wrong with it)."""
    wanted: list[tuple[str, str]] = []
    for pair in pairs:
        who, eq, mode = pair.partition("=")
        if not eq or not who.strip() or mode.strip() not in DECLARE_MODES:
            raise OptionError(f"--declare {pair!r}: say WHO=MODE, WHO a side or a combatant, MODE one of "
                              f"{', '.join(DECLARE_MODES)} (e.g. --declare kobolds=repeat)")
        wanted.append((who.strip(), mode.strip()))
    as_json = text.lstrip().startswith("{")
    yaml = YAML()  # round trip: the comments and the order of the referee's file are kept
    yaml.preserve_quotes = True
    try:
        data: Any = json.loads(text) if as_json else yaml.load(text)
    except (ValueError, YAMLError):
        return text
    sides = data.get("sides") if isinstance(data, dict) else None
    if not isinstance(sides, dict):
        return text
    for who, mode in wanted:
        if isinstance(sides.get(who), dict):
            sides[who]["declare"] = mode
            continue
        found = [c for s in sides.values() if isinstance(s, dict) and isinstance(s.get("combatants"), list)
                 for c in s["combatants"] if isinstance(c, dict) and c.get("name") == who]
        if not found:
            names = [str(c.get("name")) for s in sides.values() if isinstance(s, dict)
                     for c in (s.get("combatants") or []) if isinstance(c, dict)]
            raise OptionError(f"{file}: --declare {who}={mode}: no side or combatant named {who!r} (sides: "
                              f"{', '.join(map(str, sides))}; combatants: {', '.join(names)})")
        for c in found:
            c["declare"] = mode
    if as_json:
        return json.dumps(data, ensure_ascii=False, indent=1)
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()
