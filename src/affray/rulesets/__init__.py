"""The registered rulesets, in one explicit list (STYLE.md 1)."""

from __future__ import annotations

from typing import Any

from affray.engine.ruleset import Ruleset
from affray.errors import UnknownRulesetError
from affray.rulesets.combat2_phase1 import Combat2Phase1
from affray.rulesets.combat2_phase2 import Combat2Phase2
from affray.rulesets.d12_procedure import D12Procedure
from affray.rulesets.phase_count import PhaseCount
from affray.rulesets.side_d6 import SideD6
from affray.rulesets.speed_segments import SpeedSegments

__all__ = ["RULESETS", "Combat2Phase1", "Combat2Phase2", "D12Procedure", "PhaseCount", "SideD6", "SpeedSegments",
           "find_ruleset"]

RULESETS: list[type[Ruleset[Any, Any]]] = [Combat2Phase1, Combat2Phase2, SideD6, SpeedSegments, PhaseCount,
                                           D12Procedure]


def find_ruleset(name: str) -> type[Ruleset[Any, Any]]:
    """The ruleset class with id ``name``; UnknownRulesetError lists the valid ids."""
    for r in RULESETS:
        if r.id == name:
            return r
    raise UnknownRulesetError(name, [r.id for r in RULESETS])
