"""Combat II's supplemental rules (seed 000 sections 4-5, C2X-01 to C2X-09) in one folder, one extension
(``extension.CombatII``, registered as ``c2x`` under ``affray.extensions``): its options (``options``), its step
rules (``strength``: STR, specialization and a creature's bonus; ``crits``: the critical tables and severity
rules), its conditions, its spell pools (``pools``, from the mana tables of ``mana``) and its reckoning of
quickness (``agility``), which the rulesets' own procedures consult."""
