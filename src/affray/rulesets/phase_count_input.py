"""What phase-count reads from the encounter file: the PC-03 phase-modifier tables and the load-time checks."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from affray.errors import Problem
from affray.model.encounter import SPEED_CATEGORIES, expand, parse_duration

if TYPE_CHECKING:
    from affray.io.load import Loaded

__all__ = ["CATEGORY_PM", "check_file", "ct_category", "phase_modifier"]

#: PC-03: speed category -> phase modifier.
CATEGORY_PM = {c: i for i, c in enumerate(SPEED_CATEGORIES)}


@lru_cache(maxsize=256)
def phase_modifier(value: int | str) -> tuple[int, str]:
    """PC-03: the PM of a speed category or of a numeric initiative modifier, with its reason (asked for every
    action: kept)."""
    if isinstance(value, str):
        return CATEGORY_PM[value], value
    if value < 0:
        return 0, f"modifier {value}: below 0"
    for top, pm, band in ((1, 1, "0-1"), (4, 2, "2-4"), (7, 3, "5-7"), (13, 4, "8-13")):
        if value <= top:
            return pm, f"modifier {value}: {band}"
    return 5, f"modifier {value}: 14+"


def ct_category(ct: int) -> str:
    """PC-03 Decision: a spell's category from its casting time, as in Combat & Tactics."""
    if ct <= 3:
        return "fast"
    if ct <= 6:
        return "average"
    if ct <= 9:
        return "slow"
    return "very slow" if ct == 10 else "strikes last"


def check_file(loaded: Loaded) -> Iterator[Problem]:  # noqa: C901
    """phase-count's own checks: one opening roll (the sides' dice under one key; a combatant's name under a phase
    gives the d6 of an action it declares then), durations it can count, its declaration keys' values."""
    enc = loaded.encounter
    opening = [k for k, by in enc.rolls.initiative.items() if any(s in enc.sides for s in by)]
    if len(opening) > 1:
        keys = ", ".join(map(str, opening))
        yield loaded.problem(("rolls", "initiative"), f"phase-count rolls initiative once, at the start of "
                             f"the battle (PC-06): give the sides' dice in one entry, not {keys} (a combatant's "
                             "own d6 for an action goes under the phase it is declared at)")
    specs = {name: c for name, _s, c, _l in expand(enc)}
    for side_name, side in enc.sides.items():
        for ci, c in enumerate(side.combatants):
            for si, s in enumerate(c.spells):
                at = ("sides", side_name, "combatants", ci, "spells", si)
                for key, text in (("duration", s.duration), *(((("damage_at", k), t)
                                                                for k, t in enumerate(s.damage_at)))):
                    if text is not None and parse_duration(text)[1] == "segment":
                        where = at + (key if isinstance(key, tuple) else (key,))
                        yield loaded.problem(where, f"{text!r}: phase-count counts durations in rounds, turns "
                                             "or phases (PC-12)")
                if s.damage_at and s.damage is None:
                    yield loaded.problem(at + ("damage_at",), f"spell {s.name}: damage_at needs the spell's "
                                         "damage dice (e.g. damage: 2d4), PC-12")
    for actor, decls in enc.plan.items():
        spec = specs.get(actor)
        for i, d in enumerate(decls):
            loc = ("plan", actor, i)
            for key in ("until", "abort", "declared_at"):
                value = d.extra.get(key)
                if key in d.extra and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                    yield loaded.problem(loc + (key,), f"{key} takes a phase number (0 or more), "
                                         f"got {value!r}")
            if "until" in d.extra and d.action != "wait":
                yield loaded.problem(loc + ("until",), "until goes with a wait declaration (PC-08a)")
            if "force_back" in d.extra and (not isinstance(d.extra["force_back"], bool)
                                            or d.action not in ("melee", "missile")):
                yield loaded.problem(loc + ("force_back",), "force_back takes true or false, on a melee or "
                                     "missile attack (PC-10)")
            if spec is not None and d.action == "cast":
                spell = next((s for s in spec.spells if s.name == d.cast), None)
                for k, given in enumerate(d.dice_given):
                    if given.damage is None or spell is None:
                        continue
                    expr = spell.damage
                    lo, hi = (expr.dice_min, expr.dice_max) if expr is not None else (0, 0)
                    if expr is None or not lo <= given.damage <= hi:
                        where = loc + ("dice", k) if isinstance(d.dice, list) else loc + ("dice",)
                        yield loaded.problem(where + ("damage",), f"{given.damage} cannot be rolled on "
                                             f"{spell.name}'s damage dice" + (f" {expr.text} ({lo}-{hi})"
                                                                               if expr else " (it has none)"))
