"""Combat II's supplemental rules' options (seed 000 sections 4-5: C2X-01 to C2X-09), written ``c2x.NAME`` in a
file or after ``--set``; the bare ``NAME`` of the files written before the supplement was an extension is still
read (``CombatII.bare_options``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from affray.engine.options import option

__all__ = ["C2XOptions", "c2x_options"]


@dataclass(frozen=True)
class C2XOptions:
    """Critical hits (C2X-03/04), AGI (C2X-01), strength (C2X-04/05), mana and slots (C2X-06 to 08)."""

    crits: str = option("none", "C2X-03", "critical hits and misses: none, the d10 tables (C2X-03) or the severity "
                        "rules (C2X-04)", ("none", "c2-tables", "c2-severity"))
    crit_phase: str = option("phase", "C2X-03", "the \"phase\" the critical tables' timed effects count: the "
                             "ruleset's phase (phase_end; a round where it has no phases) or whole rounds",
                             ("phase", "round"))
    agility: bool = option(False, "C2X-01", "AGI split from DEX: AGI gives the AC bonus and the initiative "
                           "adjustment, DEX the missile adjustment and (Combat II) lowers weapon SF; AGI checks use "
                           "AGI")
    strength: str = option("file", "C2X-04", "to-hit and damage from STR, specialization slots and DEX for "
                           "missiles: file (already in the file's THAC0 and damage), 2e (PH tables) or c2 (under II: "
                           "STR damage less its to-hit, +1 to hit a slot, C2X-05)", ("file", "2e", "c2"))
    creature_bonus: str = option("full", "C2X-04", "a creature's listed damage bonus: full on every hit, or half "
                                 "(down) to hit and the rest as damage", ("full", "split"))
    spells: str = option("memorized", "C2X-06", "how casters pay for spells: memorized (a cast or lost spell is "
                         "gone), mana (points from the table, a spell costs its level, C2X-06) or slots (per spell "
                         "level, any known spell, C2X-08)", ("memorized", "mana", "slots"))
    mana_table: str = option("seed", "C2X-06", "the mana of rangers and paladins: the table as printed (seed) or "
                             "the sum of the PH progression (formula)", ("seed", "formula"))
    starting_mana: str = option("base", "C2X-06", "a low-level caster's pool: the table (base), CON/3 up when "
                                "larger (con), CON/3 added (con-added), or the same with the average of CON and the "
                                "prime requisite (prime, prime-added)",
                                ("base", "con", "con-added", "prime", "prime-added"))


_DEFAULT = C2XOptions()


def c2x_options(ruleset: Any) -> C2XOptions:
    """The supplement's options of a fight under ``ruleset`` (bound by ``affray.extensions.bind``; the defaults
    when none were)."""
    found = getattr(ruleset, "ext", {}).get("c2x")
    return found if isinstance(found, C2XOptions) else _DEFAULT
