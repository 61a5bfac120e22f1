"""What differs between the rulesets beyond their initiative, said next to a comparison: when and how morale is
checked (G-07) and how surprise is rolled, with the chance each gives, worked out exactly from the dice."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from affray.dice.expr import parse_dice
from affray.model.encounter import Encounter

__all__ = ["MORALE_WHEN", "MORALE_WHEN_OPTION", "SURPRISE", "RulesNote", "fail_chance", "morale_when", "rules_note"]

#: When each ruleset checks morale (RULES.md).
MORALE_WHEN = {
    "combat2-phase1": "at a round's start, after a side's first casualty and at half down (G-07)",
    "combat2-phase2": "at a cycle's start, after a side's first casualty and at half down (G-07)",
    "side-d6": "step 1 of the round after a side's first casualty, and at half down (MJ-02)",
    "speed-segments": "step E, the round's end, after a first casualty and at half down (SEG-20)",
    "phase-count": "the moment a side's first casualty or half down comes (PC-11)",
    "d12-procedure": "only when the referee rolls it (rolls.morale): never in a simulation (D12-22, option "
                     "morale: referee; --set morale=casualties checks as the others do)",
}
#: When a ruleset checks morale under an option that changes it: (ruleset, option, value) -> when.
MORALE_WHEN_OPTION = {
    ("d12-procedure", "morale", "casualties"): "at a round's start, after a side's first casualty and at half down "
                                               "(D12-22 option morale: casualties, G-07)",
}
#: How each ruleset rolls surprise, and the chance a side is surprised (without modifiers).
SURPRISE = {
    "combat2-phase1": ("d10 a side, surprised on 1-3 (C2-27)", Fraction(3, 10)),
    "combat2-phase2": ("d10 a side, surprised on 1-3 (C2-27)", Fraction(3, 10)),
    "side-d6": ("d6 a side, 5-6 surprises the other (MJ-08)", Fraction(1, 3)),
    "speed-segments": ("d6 a side, 1-2 surprised: +1 or +2 to its action speed (SEG-03)", Fraction(1, 3)),
    "phase-count": ("d10 a side, surprised on 1-3 (PC-08)", Fraction(3, 10)),
    "d12-procedure": ("d12 a side, surprised on 1-4, widened or narrowed (D12-01, D12-02)", Fraction(1, 3)),
}


def fail_chance(dice: str, score: int) -> Fraction:
    """G-07: the chance a morale roll on ``dice`` is above ``score`` (the check fails), worked out exactly."""
    expr = parse_dice(dice)
    dist = {expr.bonus: Fraction(1)}
    for count, sides in expr.groups:
        for _ in range(count):
            nxt: dict[int, Fraction] = {}
            for total, p in dist.items():
                for face in range(1, sides + 1):
                    nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / sides
            dist = nxt
    return sum((p for total, p in dist.items() if total > score), Fraction(0))


@dataclass(frozen=True)
class RulesNote:
    """One ruleset's morale and surprise, as a simulation played them."""

    ruleset: str
    morale_dice: str
    morale_when: str
    morale_fail: dict[str, Fraction]  # side -> the chance one check fails (sides that check)
    surprise: str
    surprised: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {"morale_dice": self.morale_dice, "morale_when": self.morale_when,
                "morale_fail": {s: round(float(p), 6) for s, p in self.morale_fail.items()},
                "surprise": self.surprise, "surprised": round(float(self.surprised), 6)}


def rules_note(ruleset: str, options: dict[str, Any], encounter: Encounter) -> RulesNote:
    """``ruleset``'s morale (its ``morale_dice`` against each side's score: the side's ``morale``, else its
    members' lowest, else the ruleset's ``default_morale``) and surprise, under ``options`` (the ruleset's)."""
    dice = str(options.get("morale_dice", "2d6"))
    default = int(options.get("default_morale", 7))
    fail: dict[str, Fraction] = {}
    for name, side in encounter.sides.items():
        checkers = [c for c in side.combatants if not (c.pc if c.pc is not None else side.pc and not c.henchman)]
        if not checkers:
            continue  # player characters never check (G-07)
        given = [c.morale for c in checkers if c.morale is not None]
        score = side.morale if side.morale is not None else min(given) if given else default
        fail[name] = fail_chance(dice, score)
    surprise, surprised = SURPRISE.get(ruleset, ("as the ruleset says", Fraction(0)))
    return RulesNote(ruleset, dice, morale_when(ruleset, options), fail, surprise, surprised)


def morale_when(ruleset: str, options: dict[str, Any]) -> str:
    """When ``ruleset`` checks morale under ``options`` (its own), in words with the rule."""
    for (rid, name, value), when in MORALE_WHEN_OPTION.items():
        if rid == ruleset and options.get(name) == value:
            return when
    return MORALE_WHEN.get(ruleset, "as the ruleset says")
