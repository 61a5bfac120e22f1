"""The combatants the rules' tests are built of, said once (STYLE.md: "One builder for test fixtures"). Each
ruleset's helpers give them the weapon its seed times (a sword of SF 5, an axe of SF 7...); a test's own figures
go in ``**kw``, over these.

- ``pc``: a level-1 fighter: THAC0 20, AC 5, 10 hp;
- ``orc``: a 1 HD monster: THAC0 19, AC 6, 5 hp;
- ``mage``: a level-1 wizard: AC 10, 4 hp, no weapon, the spells given.
"""

from __future__ import annotations

from typing import Any

__all__ = ["mage", "orc", "pc"]


def pc(name: str, weapon: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A level-1 fighter: THAC0 20, AC 5, 10 hp, ``weapon``."""
    return {"name": name, "class": "fighter", "level": 1, "hp": 10, "ac": 5, "weapons": [weapon], **kw}


def orc(name: str, weapon: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A 1 HD monster: THAC0 19, AC 6, 5 hp, ``weapon``."""
    return {"name": name, "hp": 5, "ac": 6, "hd": 1, "weapons": [weapon], **kw}


def mage(name: str, spells: list[Any], **kw: Any) -> dict[str, Any]:
    """A level-1 wizard: THAC0 20, AC 10, 4 hp, no weapon, ``spells``."""
    return {"name": name, "class": "wizard", "level": 1, "hp": 4, "ac": 10, "spells": list(spells), **kw}
