"""Events as the log holds them (STYLE.md 4, engine/events.py): typed, compared field by field, copied with a
change, their fields in the timeline's order; and a lean fight built from a cached roster that plays like a
fresh one. (The bytes of every kind in the timeline are the golden corpus's and the contract's.)"""

from __future__ import annotations

import pytest

from affray import load_text, prepare
from affray.engine.events import COMMON_FIELDS, EVENT_TYPES, Declare, Event, Melee, Missile, SpellLost, SpellRuined
from affray.engine.state import _ROSTERS, FightState

FILE = """\
ruleset: side-d6
seed: 3
sides:
  fighters:
    pc: true
    combatants:
      - {name: Fighter, count: 2, class: fighter, level: 1, thac0: 19, hp: 8, ac: 5,
         weapons: [{name: long sword, sf: 5, damage: 1d8}]}
  orcs:
    combatants:
      - {name: Orc, count: 3, hd: 1, thac0: 19, hp: 5, ac: 6, weapons: [{name: axe, sf: 7, damage: 1d8}]}
"""


def blow(cls: type[Melee] = Melee, **changes: object) -> Melee:
    fields: dict[str, object] = {"tick": (1, 1, 7, 1), "at": "round 1", "round": 1, "actor": "Orc 1",
                                 "target": "Fighter 1", "hit": True, "damage": 5, "weapon": "axe"}
    fields.update(changes)
    return cls(**fields)  # type: ignore[arg-type]


def test_events_are_equal_field_by_field_and_of_the_same_kind() -> None:
    assert blow() == blow()
    assert hash(blow()) == hash(blow())
    assert blow() != blow(damage=4)  # one field differs
    # a missile is a melee's fields under another kind: the same fields, another event (a tuple said equal)
    assert blow() != blow(Missile)
    assert blow(Missile).kind == "missile" and blow().kind == "melee"
    assert SpellLost((1,), "", 1, spell="sleep") != SpellRuined((1,), "", 1, spell="sleep")


def test_replace_copies_with_a_change_and_keeps_the_kind() -> None:
    original = blow(Missile, detail="d20 14 vs 13: hit")
    shown = original._replace(detail=None)  # what a player's page shows of it (web/views.py)
    assert type(shown) is Missile and shown.detail is None
    assert [getattr(shown, f) for f in shown._fields if f != "detail"] == [
        getattr(original, f) for f in original._fields if f != "detail"]
    assert original.detail == "d20 14 vs 13: hit"  # the original is not changed


def test_fields_start_with_the_common_seven_then_the_kinds_own_in_order() -> None:
    # the timeline writes a kind's payload in this order (io/timeline.py, CONTRACT.md)
    assert Declare._fields == (*COMMON_FIELDS, "decl", "consumed", "continuing", "remaining")
    assert Melee._fields[7:] == ("target", "hit", "damage", "opportunity", "weapon", "cover", "splinter", "subdual",
                                 "lands", "maneuver")
    for cls in EVENT_TYPES:
        assert cls._fields[:7] == COMMON_FIELDS, cls.__name__
        assert issubclass(cls, Event) and cls.kind, cls.__name__


def test_a_fight_from_a_cached_roster_plays_as_a_fresh_one() -> None:
    loaded = load_text(FILE, "roster.yaml")
    prepared = prepare(loaded, seed=3)

    def final(seed: int) -> dict[str, dict[str, object]]:
        fight = type(prepared)(loaded, prepared.ruleset, seed).fight(auto=True, explain=False, keep=False)
        return fight.run().final.combatants

    first = final(3)  # works the roster out
    key = (id(loaded.encounter), prepared.ruleset.attack_scheme)
    assert _ROSTERS[key][0] is loaded.encounter
    assert final(3) == first  # from the cache
    _ROSTERS.clear()
    assert final(3) == first  # fresh again
    # every fight starts from the file's hit points: the roster holds none of a fight's changes
    state = FightState(loaded.encounter, prepared.ruleset.attack_scheme)
    assert [f.hp for f in state.fighters.values()] == [8, 8, 5, 5, 5]


def test_an_event_is_immutable_in_the_compiled_build() -> None:
    from affray.engine import events

    if events.__file__ is not None and events.__file__.endswith(".py"):
        pytest.skip("the pure build: Final fields are refused by mypy, not at run time")
    e = blow()
    with pytest.raises(AttributeError):
        e.damage = 9  # type: ignore[misc]
