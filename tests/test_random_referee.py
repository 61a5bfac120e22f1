"""The random referee (issue 37): under every ruleset, 200 fights played at random through the one table session,
seeded, each event checked against the rules' invariants as it comes (``tests/random_referee.py`` says which). A
violation names the ruleset, the seed and the first offending event; rerun one fight with
``RandomReferee(RULESET, SEED).play()``.

Run on the code before issue 37 it found, among 200 fights a ruleset: suggestions the validator refuses (``command``
at a whole side: 103-137 fights a ruleset), routed combatants attacking (Combat II: 68-80), combatants asleep acting
(free attacks included: 5-19), attacks and spells on a combatant fallen at an earlier moment (7-31), a missile's
automatic hit on a helpless target landing on another of its melee (side-d6: 12), hit points above the start after
the referee's ``heal`` (11-21), a ``pause`` nobody asked for after ``back`` (21-35), screens showing the steps of the
fallen or sleeping as coming (17-107) and morale as due once checked, offered moves refused (d12-procedure's step and
fall back: 197), and offered targets refused after a command put them down.
"""

from __future__ import annotations

import pytest

from affray.rulesets import RULESETS
from random_referee import RandomReferee

FIGHTS = 200
CHUNK = 50


@pytest.mark.parametrize("first", range(0, FIGHTS, CHUNK))
@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_a_random_referee_breaks_no_rule(ruleset: str, first: int) -> None:
    for seed in range(first, first + CHUNK):
        RandomReferee(ruleset, seed).play()  # raises Violation at the first broken invariant
