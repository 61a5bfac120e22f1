"""The random referee (issue 37): under every ruleset, 200 fights played at random through the one table session,
seeded, each event checked against the rules' invariants as it comes (``tests/random_referee.py`` says which). A
violation names the ruleset, the seed and the first offending event; rerun one fight with
``RandomReferee(RULESET, SEED).play()``.

Run on the code before issue 37 it found, among 200 fights a ruleset (fights with at least one): suggestions the
validator refuses (``command`` at a whole side: 102-137 a ruleset), routed combatants attacking (Combat II: 70-82,
the others 3-6), combatants asleep acting (free attacks included: 1-12), attacks and spells on a combatant fallen at
an earlier moment (2-15), a declaration said ahead lost without a word (3-12), a missile's automatic hit on a
helpless target landing on another of its melee (side-d6: 6), hit points above the start after the referee's
``heal`` (16-24), a ``pause`` nobody asked for after ``back`` (14-30), screens showing the steps of the fallen or
sleeping as coming (3-104) and morale as due once checked (2), offered moves refused (d12-procedure's step and fall
back) and offered targets refused once a command put them down (1-3).
"""

from __future__ import annotations

import pytest

from affray.rulesets import RULESETS
from random_referee import RandomReferee

FIGHTS = 200
CHUNK = 25


@pytest.mark.parametrize("first", range(0, FIGHTS, CHUNK))
@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_a_random_referee_breaks_no_rule(ruleset: str, first: int) -> None:
    for seed in range(first, first + CHUNK):
        RandomReferee(ruleset, seed).play()  # raises Violation at the first broken invariant
