"""affray's own rulesets, registered like any package's under the entry point group ``affray.rulesets``
(pyproject.toml; ``affray.extensions`` reads them).

A ruleset's module is imported when it is first asked for (``find_ruleset``), so that a command run under
one ruleset does not load the others; ``RULESETS`` (every installed ruleset, affray's own first) loads them all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from affray.extensions.registry import SHOWN_ORDER

if TYPE_CHECKING:
    from affray.engine.ruleset import Ruleset
    from affray.rulesets.combat2_phase1 import Combat2Phase1
    from affray.rulesets.combat2_phase2 import Combat2Phase2
    from affray.rulesets.d12_procedure import D12Procedure
    from affray.rulesets.phase_count import PhaseCount
    from affray.rulesets.side_d6 import SideD6
    from affray.rulesets.speed_segments import SpeedSegments

    RULESETS: list[type[Ruleset[Any, Any]]]

__all__ = ["RULESETS", "SHOWN_ORDER",
           "Combat2Phase1", "Combat2Phase2", "D12Procedure", "PhaseCount", "SideD6", "SpeedSegments",
           "find_ruleset", "ruleset_ids"]




def ruleset_ids() -> list[str]:
    """Every installed ruleset's id, affray's own first (without importing any)."""
    from affray.extensions import ruleset_ids as ids

    return ids()


def find_ruleset(name: str) -> type[Ruleset[Any, Any]]:
    """The ruleset class with id ``name``; UnknownRulesetError lists the valid ids."""
    from affray.extensions import find_ruleset as find

    return find(name)


def __getattr__(name: str) -> Any:
    from affray.extensions import entries, rulesets

    if name == "RULESETS":
        return rulesets()  # asked again each time: a package installed since is found (``extensions.forget``)
    found = [e for e in entries("ruleset").values() if e.own and e.value.endswith(f":{name}")]
    if not found:
        raise AttributeError(f"module 'affray.rulesets' has no attribute {name!r}")
    value = found[0].load()
    globals()[name] = value
    return value
