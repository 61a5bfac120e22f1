"""What a new encounter file may not hold, though a saved fight that holds it still opens (``load_text(stored=True)``).

- **Code only from where the referee put it.** A file names a built-in policy or one an installed package registers
  (entry point group ``affray.policies``); a designer's ``module:function`` imports and runs that module, so it is
  named on the command line (``--policy SIDE=module:function``: ``code``), where the designer chose it, never by a
  file (which may come from anyone).
- **Names a referee can tell apart** (``affray.io.lookalike``): a side's or a combatant's name in Unicode's composed
  form (NFC), without invisible or bidirectional control characters, not the same as another's once folded (case,
  width, lookalike letters), and no combatant named like a side (``declare orcs ask``, ``dice orcs ask`` would mean
  either).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from affray.io.lookalike import name_problems

__all__ = ["new_file_problems"]

Loc = tuple[str | int, ...]


def _dict(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _policies(data: dict[str, Any]) -> Iterator[tuple[Loc, str, str]]:
    """(field path, side, policy) of every policy the file names."""
    for side, s in _dict(data.get("sides")).items():
        if isinstance(_dict(s).get("policy"), str):
            yield ("sides", side, "policy"), str(side), s["policy"]
        for i, c in enumerate(_list(_dict(s).get("combatants"))):
            if isinstance(_dict(c).get("policy"), str):
                yield ("sides", side, "combatants", i, "policy"), str(side), c["policy"]


def new_file_problems(data: dict[str, Any], code: Collection[str] = ()) -> list[tuple[Loc, str]]:
    """(field path, message) for each thing a new file may not hold; ``code``: the ``module:function`` policies
    named on the command line (written into the file's text by ``--policy``)."""
    out: list[tuple[Loc, str]] = []
    for loc, side, ref in _policies(data):
        if ":" in ref and ref not in code and len(ref) <= 200:
            out.append((loc, f"policy {ref}: a designer's module:function runs that module's code, so a file does "
                             "not name it (a file may come from anyone): name it on the command line, "
                             f"`--policy {side}={ref}`, or name a built-in policy or one an installed package "
                             "registers (entry point group affray.policies)"))
    out.extend(name_problems(data))
    return out
