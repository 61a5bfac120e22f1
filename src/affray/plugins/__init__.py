"""Plug-ins: the rules every fight is given beside its ruleset's, and the assembly of a fight's chain. The engine
imports none of them; ``assemble`` puts the installed extensions' rules (Combat II's supplement among them,
``affray.supplements.c2x``), then ``conditions`` (what a condition forbids and does to attacks, G-09), then the
ruleset's own in a fight's chain of step rules.
"""

from __future__ import annotations

from typing import Any

from affray.engine.rules import Chain, Rule
from affray.engine.ruleset import Ruleset
from affray.engine.state import Memorized, PoolFactory
from affray.plugins.conditions import Conditions

__all__ = ["assemble"]


def assemble(ruleset: Ruleset[Any, Any]) -> tuple[Chain, PoolFactory]:
    """The chain of step rules and the spell pools a fight under ``ruleset`` (with its options) is given: each
    installed extension's rules (with its options as bound to the ruleset, ``affray.extensions.bind``), the
    conditions' (G-09), then the ruleset's own."""
    from affray.extensions import bind, extensions

    bind(ruleset)
    rules: list[Rule] = []
    pools: PoolFactory = Memorized
    for cls in extensions():
        ext = cls(ruleset.ext[cls.name], ruleset)
        rules += ext.rules()
        pools = ext.pools() or pools
    rules.append(Conditions())
    rules += ruleset.rules()
    return Chain(rules), pools
