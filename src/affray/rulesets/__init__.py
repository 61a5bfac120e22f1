"""The registered rulesets, in one explicit list (STYLE.md 1).

A ruleset's module is imported when it is first asked for (``find_ruleset``), so that a command run under
one ruleset does not load the other five; ``RULESETS`` (and each class by its name) loads them all.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from affray.errors import UnknownRulesetError

if TYPE_CHECKING:
    from affray.engine.ruleset import Ruleset
    from affray.rulesets.combat2_phase1 import Combat2Phase1
    from affray.rulesets.combat2_phase2 import Combat2Phase2
    from affray.rulesets.d12_procedure import D12Procedure
    from affray.rulesets.phase_count import PhaseCount
    from affray.rulesets.side_d6 import SideD6
    from affray.rulesets.speed_segments import SpeedSegments

    RULESETS: list[type[Ruleset[Any, Any]]]

__all__ = ["RULESETS", "Combat2Phase1", "Combat2Phase2", "D12Procedure", "PhaseCount", "SideD6", "SpeedSegments",
           "find_ruleset", "ruleset_ids"]

#: Every ruleset's id, module and class, in the registry's order.
_REGISTRY: tuple[tuple[str, str, str], ...] = (
    ("combat2-phase1", "combat2_phase1", "Combat2Phase1"),
    ("combat2-phase2", "combat2_phase2", "Combat2Phase2"),
    ("side-d6", "side_d6", "SideD6"),
    ("speed-segments", "speed_segments", "SpeedSegments"),
    ("phase-count", "phase_count", "PhaseCount"),
    ("d12-procedure", "d12_procedure", "D12Procedure"),
)


def ruleset_ids() -> list[str]:
    """Every ruleset's id, in the registry's order (without importing any ruleset)."""
    return [rid for rid, _module, _cls in _REGISTRY]


def _load(module: str, cls: str) -> Any:
    return getattr(importlib.import_module(f"affray.rulesets.{module}"), cls)


def find_ruleset(name: str) -> type[Ruleset[Any, Any]]:
    """The ruleset class with id ``name``; UnknownRulesetError lists the valid ids."""
    for rid, module, cls in _REGISTRY:
        if rid == name:
            found: type[Ruleset[Any, Any]] = _load(module, cls)
            return found
    raise UnknownRulesetError(name, ruleset_ids())


def __getattr__(name: str) -> Any:
    if name == "RULESETS":
        value: Any = [_load(module, cls) for _rid, module, cls in _REGISTRY]
    else:
        found = [(module, cls) for _rid, module, cls in _REGISTRY if cls == name]
        if not found:
            raise AttributeError(f"module 'affray.rulesets' has no attribute {name!r}")
        value = _load(*found[0])
    globals()[name] = value
    return value
