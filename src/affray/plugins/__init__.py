"""Plug-ins: the optional rules a fight is given by its options. The engine imports none of them; ``assemble``
puts the chosen ones in a fight's chain of step rules, before the ruleset's own.

- ``strength``: STR, specialization and a creature's listed damage bonus on attacks (C2X-04/05);
- ``conditions``: what a condition forbids and does to attacks (G-09), in every fight;
- ``crits``: the critical tables or severity rules and the conditions they set (C2X-03/04);
- ``mana``: spell points or slots instead of memorised copies (C2X-06/08).
"""

from __future__ import annotations

from typing import Any

from affray.engine.rules import Chain, Rule
from affray.engine.ruleset import Ruleset
from affray.engine.state import PoolFactory
from affray.plugins.conditions import Conditions
from affray.plugins.crits import Crits
from affray.plugins.mana import pools_for
from affray.plugins.strength import Strength

__all__ = ["assemble"]


def assemble(ruleset: Ruleset[Any, Any]) -> tuple[Chain, PoolFactory]:
    """The chain of step rules and the spell pools a fight under ``ruleset`` (with its options) is given: the
    installed extensions' rules (each with its options from ``NS.option``), then the ruleset's own."""
    from affray.extensions import extension_options, extensions

    opt = ruleset.opt
    rules: list[Rule] = [Strength(opt), Conditions()]
    if opt.crits != "none":
        rules.append(Crits())
    pools = pools_for(opt)
    given = extension_options(ruleset.ext_options)
    for cls in extensions():
        ext = cls(cls.parse(given.get(cls.name, {})), ruleset)
        rules += ext.rules()
        pools = ext.pools() or pools
    rules += ruleset.rules()
    return Chain(rules), pools
