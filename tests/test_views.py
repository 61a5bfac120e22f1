"""Declarations and weapons as the fight reads them (``affray.model.order``, ``affray.model.arms``): one view per
model, its fields the model's; a changed declaration works its keys out afresh; a copied or pickled model makes
its own view (the view itself is never copied)."""

from __future__ import annotations

import copy
import pickle

from affray.model.arms import arms_of
from affray.model.encounter import Declaration, Weapon
from affray.model.order import order_of


def test_a_declaration_has_one_order_with_its_fields() -> None:
    d = Declaration.model_validate({"melee": "Orc 1", "weapon": "spear", "distance": 20, "set": True})
    o = order_of(d)
    assert order_of(d) is o  # the fight knows an action by its order's identity (phase-count, PC-09)
    assert o.source is d
    assert (o.action, o.melee, o.target, o.weapon, o.distance, o.charge) == ("melee", "Orc 1", "Orc 1", "spear", 20,
                                                                            False)
    assert o.extra == {"set": True}  # a ruleset's own key (side-d6's set spear, MJ-13)


def test_a_changed_declaration_works_its_keys_out_afresh() -> None:
    # side-d6 schedules a refused set spear as a plain melee (MJ-13): set: false. A bare model_copy kept the
    # original's worked-out keys (set: true) in the copy.
    d = Declaration.model_validate({"melee": "Orc 1", "set": True})
    o = order_of(d)
    assert o.extra == {"set": True}
    changed = o.changed(set=False)
    assert changed.extra == {"set": False} and changed.source.extra == {"set": False}
    assert changed is not o and changed.source is not d
    assert o.extra == {"set": True}  # the original is not changed
    # a field too: Combat II strikes on contact with distance 0 (P1-07)
    moved = order_of(Declaration.model_validate({"melee": "Orc 1", "distance": 30})).changed(distance=0)
    assert moved.distance == 0 and moved.source.distance == 0


def test_a_pickled_or_copied_declaration_makes_its_own_order() -> None:
    d = Declaration.model_validate({"missile": "Orc 2", "weapon": "bow"})
    o = order_of(d)
    for twin in (pickle.loads(pickle.dumps(d)), copy.deepcopy(d)):
        assert twin == d
        view = order_of(twin)
        assert view is not o and view.source is twin
        assert (view.action, view.missile, view.weapon) == ("missile", "Orc 2", "bow")


def test_a_weapon_has_one_arms_and_a_copy_its_own() -> None:
    w = Weapon.model_validate({"name": "long spear", "sf": 8, "damage": "1d8", "reach": 10})
    a = arms_of(w)
    assert arms_of(w) is a and a.source is w
    # a spear can be set (MJ-13: "spear" in its name), and it is a melee weapon
    assert (a.name, a.sf, a.damage.text, a.reach, a.kind, a.is_missile, a.settable) == (
        "long spear", 8, "1d8", 10, "melee", False, True)
    for twin in (pickle.loads(pickle.dumps(w)), copy.deepcopy(w)):
        assert twin == w
        assert arms_of(twin) is not a and arms_of(twin).source is twin
