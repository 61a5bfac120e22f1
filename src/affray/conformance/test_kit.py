"""The conformance kit as tests: ``python -m pytest --pyargs affray.conformance`` runs every property on every
installed ruleset (``AFFRAY_CONFORMANCE=ID,ID`` chooses them): a package's own CI runs it on its ruleset."""

from __future__ import annotations

import pytest

from affray.conformance import PROPERTIES, check_property, chosen_rulesets


@pytest.mark.parametrize("prop", [p.name for p in PROPERTIES])
@pytest.mark.parametrize("ruleset", chosen_rulesets())
def test_conformance(ruleset: str, prop: str) -> None:
    check_property(prop, ruleset)  # raises Failure naming the ruleset, the property and what was seen
