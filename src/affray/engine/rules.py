"""The chain of step rules: every step the engine resolves passes through it.

A ``Rule`` is a small object with hooks that do nothing by default; a ruleset contributes its own
(``Ruleset.rules``) and the plug-ins chosen by the options theirs (critical tables, strength, conditions).
The ``Chain`` asks only the rules that override a hook, in order: the first answer wins where one answer
is wanted (``refuse``, ``redirect``, ``absorb``, ``lands``, ``interrupt``, ``fall``), every rule adds where several may
(``mods``, ``free_attacks``), and every rule hears what happened (``rolled``, ``struck``, ``resolved``,
``took_effect``, ``lose_sequence``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from affray.engine.events import Melee, Tick
from affray.engine.step import AttackMods, AttackRoll, Step
from affray.model.arms import Arms

if TYPE_CHECKING:
    from affray.engine.fight import Fight
    from affray.engine.state import Fighter

__all__ = ["KEPT", "LOST", "RUINED", "Chain", "FreeAttack", "Rule"]

#: What damage to a caster mid-casting does (G-11): ruins the spell, loses it from memory, or leaves it be.
RUINED, LOST, KEPT = "spell-ruined", "spell-lost", "kept"

#: Who gets a free attack, with what weapon, and why.
FreeAttack = tuple["Fighter", "Arms", str]


@mypyc_attr(allow_interpreted_subclasses=True)  # rules written outside affray subclass it (the compiled build)
class Rule:
    """A step rule. ``fight`` is the engine's ``Fight``: typed for the type checker (and a plug-in's author), imported
    for it alone, as rules sit below the fight at run time."""

    def refuse(self, fight: Fight[Any], step: Step) -> str | None:
        """Why ``step`` cannot happen now, or None."""
        return None

    def mods(self, fight: Fight[Any], step: Step, target: Fighter, mods: AttackMods) -> None:
        """Add this rule's modifiers to an attack (G-04)."""

    def rolled(self, fight: Fight[Any], roll: AttackRoll) -> None:
        """The d20 is rolled: a rule may work out the damage itself (``roll.damage``) or note what follows."""

    def struck(self, fight: Fight[Any], step: Step, target: Fighter, event: Melee, roll: AttackRoll | None) -> None:
        """The attack on ``target`` is in the log (and a caster it damaged disrupted): what follows it. ``roll``
        is None when the referee gave the outcome."""

    def redirect(self, fight: Fight[Any], step: Step, target: Fighter) -> tuple[Fighter | None, str] | None:
        """After a hit: who is actually struck (None: nobody) and a note; None leaves it to the next rule."""
        return None

    def absorb(self, fight: Fight[Any], target: Fighter, damage: int, *, magic: bool,
               effect: str | None = None) -> str | None:
        """Whether something of the target's (a shield) takes this blow or magic effect instead: the words
        for it (the shield is then spent), or None. ``effect``: the condition a magic effect without damage would
        set (asleep, held...)."""
        return None

    def lands(self, fight: Fight[Any], step: Step, damage: int) -> tuple[Tick, str] | None:
        """When ``damage`` done by ``step`` lands, and the words for that moment, if later than the step."""
        return None

    def interrupt(self, fight: Fight[Any], caster: Fighter, step: Step) -> str | None:
        """Damage reached a caster mid-casting, or a condition that stops it acting (a failed save) set by ``step``:
        RUINED, LOST or KEPT (a condition that stops it acting ruins the spell even then); None leaves it to the next
        rule."""
        return None

    def free_attacks(self, fight: Fight[Any], step: Step) -> list[FreeAttack]:
        """Who gets a free attack on ``step``: a move's attacks of opportunity come as it moves, another
        step's (firing or casting in reach) before it, or just after a ``cast-start``."""
        return []

    def fall(self, fight: Fight[Any], f: Fighter) -> tuple[bool, str] | None:
        """How ``f``, at 0 hp or less, goes down: (unconscious, the words for it); None leaves it to the next
        rule, and with none the fallen are dead (G-05)."""
        return None

    def resolved(self, fight: Fight[Any], step: Step) -> None:
        """After any step resolved (a held action's trigger)."""

    def took_effect(self, fight: Fight[Any], step: Step) -> None:
        """A spell of ``step`` has just taken effect (its ``cast`` event is in the log)."""

    def lose_sequence(self, fight: Fight[Any], step: Step) -> None:
        """A critical miss loses the rest of the attack sequence (C2X-03): cancel what is left of it."""


def _using(rules: Sequence[Rule], hook: str) -> tuple[Rule, ...]:
    base = getattr(Rule, hook)
    return tuple(r for r in rules if getattr(type(r), hook) is not base)


class Chain:
    """The rules of one fight, in order; each hook asks only the rules that override it."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = tuple(rules)
        self._refuse = _using(rules, "refuse")
        self._mods = _using(rules, "mods")
        self._rolled = _using(rules, "rolled")
        self._struck = _using(rules, "struck")
        self._redirect = _using(rules, "redirect")
        self._absorb = _using(rules, "absorb")
        self._lands = _using(rules, "lands")
        self._interrupt = _using(rules, "interrupt")
        self._free = _using(rules, "free_attacks")
        self._fall = _using(rules, "fall")
        self._resolved = _using(rules, "resolved")
        self._took_effect = _using(rules, "took_effect")
        self._lose = _using(rules, "lose_sequence")
        #: Whether a rule reads attack rolls (``rolled``, ``struck``): else the engine skips building them.
        self.reads_rolls = bool(self._rolled or self._struck)

    def refuse(self, fight: Fight[Any], step: Step) -> str | None:
        for r in self._refuse:
            why = r.refuse(fight, step)
            if why is not None:
                return why
        return None

    def mods(self, fight: Fight[Any], step: Step, target: Fighter, mods: AttackMods) -> None:
        for r in self._mods:
            r.mods(fight, step, target, mods)

    def rolled(self, fight: Fight[Any], roll: AttackRoll) -> None:
        for r in self._rolled:
            r.rolled(fight, roll)

    def struck(self, fight: Fight[Any], step: Step, target: Fighter, event: Melee, roll: AttackRoll | None) -> None:
        for r in self._struck:
            r.struck(fight, step, target, event, roll)

    def redirect(self, fight: Fight[Any], step: Step, target: Fighter) -> tuple[Fighter | None, str]:
        for r in self._redirect:
            out = r.redirect(fight, step, target)
            if out is not None:
                return out
        return target, ""

    def absorb(self, fight: Fight[Any], target: Fighter, damage: int, *, magic: bool,
               effect: str | None = None) -> str | None:
        for r in self._absorb:
            words = r.absorb(fight, target, damage, magic=magic, effect=effect)
            if words is not None:
                return words
        return None

    def lands(self, fight: Fight[Any], step: Step, damage: int) -> tuple[Tick, str] | None:
        for r in self._lands:
            when = r.lands(fight, step, damage)
            if when is not None:
                return when
        return None

    def interrupt(self, fight: Fight[Any], caster: Fighter, step: Step) -> str:
        """RUINED unless a rule says otherwise (G-11)."""
        for r in self._interrupt:
            ruin = r.interrupt(fight, caster, step)
            if ruin is not None:
                return ruin
        return RUINED

    def free_attacks(self, fight: Fight[Any], step: Step) -> list[FreeAttack]:
        if not self._free:
            return []
        out: list[FreeAttack] = []
        for r in self._free:
            out += r.free_attacks(fight, step)
        return out

    def fall(self, fight: Fight[Any], f: Fighter) -> tuple[bool, str]:
        for r in self._fall:
            how = r.fall(fight, f)
            if how is not None:
                return how
        return False, "dead"

    def resolved(self, fight: Fight[Any], step: Step) -> None:
        for r in self._resolved:
            r.resolved(fight, step)

    def took_effect(self, fight: Fight[Any], step: Step) -> None:
        for r in self._took_effect:
            r.took_effect(fight, step)

    def lose_sequence(self, fight: Fight[Any], step: Step) -> None:
        for r in self._lose:
            r.lose_sequence(fight, step)
