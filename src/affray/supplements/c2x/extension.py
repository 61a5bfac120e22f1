"""Combat II's supplement as an extension: what ``affray.plugins.assemble`` gives a fight of it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from affray.engine.conditions import Effect
from affray.extensions.base import Extension
from affray.supplements.c2x.options import C2XOptions

if TYPE_CHECKING:
    from affray.engine.rules import Rule
    from affray.engine.state import PoolFactory
    from affray.errors import Problem
    from affray.io.load import Loaded

__all__ = ["CONDITIONS", "CombatII"]

#: The conditions only the critical tables set (C2X-03, C2X-04), with what each does (G-09).
CONDITIONS: dict[str, Effect] = {
    "knees": Effect("no attacks, AC +2", "C2X-03: critical miss 7-8", attacks=False, ac=2),
    "sprawled": Effect("no attacks or movement, AC +4", "C2X-03: critical miss 10", attacks=False, moves=False, ac=4),
    "lost-sequence": Effect("the rest of the attack sequence is lost", "C2X-03: critical miss", attacks=False),
    "no-move": Effect("loses its movement", "C2X-03: misstep, fumble", moves=False),
    "misstep": Effect("-1 to hit and +2 SF", "C2X-03: misstep", hit=-1),
    "slowed": Effect("the next strike's SF is slowed", "C2X-04: severe miss"),
    "off-balance": Effect("no AGI bonus to AC", "C2X-04: critical miss"),
    "defenseless": Effect("stationary and defenseless: no AGI bonus to AC", "C2X-03: prone, sprawling"),
    "free-attack": Effect("owed a free attack", "C2X-03: critical hit 10"),
}


class CombatII(Extension):
    """C2X: critical hits and misses, AGI, strength and specialization, mana and slots."""

    name: ClassVar[str] = "c2x"
    title: ClassVar[str] = "Combat II's supplemental rules: critical hits, AGI, strength, mana"
    rule_ids: ClassVar[str] = "C2X"
    Options: ClassVar[type[Any]] = C2XOptions
    bare_options: ClassVar[bool] = True  # files written before it was an extension name its options bare
    conditions: ClassVar[Mapping[str, Effect]] = CONDITIONS

    def rules(self) -> list[Rule]:
        from affray.supplements.c2x.crits import Crits
        from affray.supplements.c2x.strength import Strength

        out: list[Rule] = [Strength(self.opt)]
        if self.opt.crits != "none":
            out.append(Crits())
        return out

    def pools(self) -> PoolFactory | None:
        from affray.supplements.c2x.pools import pools_for

        return None if self.opt.spells == "memorized" else pools_for(self.opt)

    @classmethod
    def check(cls, loaded: Loaded, opt: Any) -> Iterator[Problem]:
        return iter(())
