"""combat2-phase2 (seed 000 section 3, "SPELL DURATION"): P2-05.

The brief for these tests said P2-05 was not implemented; commit a737775 ("spell durations end with an expire
event at the end of their phase (P2-05)") implements it, so the seed's own example is tested here. A spell's
`duration` is the spell field of G-03; the `expire` event is the CONTRACT's kind. /tmp/c2p2_spec.md still lists
P2-05 under "Not implemented" and says nothing of the event's tick: only the seed's phase is asserted.
"""

from __future__ import annotations

from combat2_helpers import NONE, cast, mage, one, orc, pc, spell
from combat2_phase2_helpers import party_wins, play2


def test_p2_05_seed_example_one_round_cast_in_b_expires_at_the_end_of_the_next_b() -> None:
    """Seed: "if a spell cast in phase B lasts one round, it expires at the end of the next phase B after all
    movement and combat has been resolved." A CT 1 spell cast in B of cycle 1 (winner half-segment 1) expires in
    B of cycle 2 (three phases = one round, P2-01), after Brom's move in B2's movement portion."""
    doc = play2({"party": [mage("Mina", spell("shield", 1, "V", duration="1 round")), pc("Brom")],
                 "orcs": [orc("Orc", hp=60)]},
                {"Mina": [NONE, cast("shield", "Mina")], "Brom": [NONE, NONE, NONE, NONE, {"move": 40}]},
                initiative=party_wins(3), max_rounds=3)
    assert one(doc, "cast", "Mina")["tick"][:3] == [1, 2, 1]
    gone, move = one(doc, "expire", "Mina"), one(doc, "move", "Brom")
    assert gone["tick"][:2] == [2, 2] and gone["spell"] == "shield"
    assert move["tick"][:3] == [2, 2, 7] and gone["tick"] > move["tick"] and gone["seq"] > move["seq"]
    assert "P2-05" in gone["why"], gone["why"]


def test_p2_05_two_rounds_cast_in_c_expire_six_phases_later() -> None:
    """Seed: "One complete cycle of three phases equals one round": 2 rounds = 6 phases; cast in C of cycle 1, it
    expires at the end of C of cycle 3."""
    doc = play2({"party": [mage("Mina", spell("shield", 1, "V", duration="2 rounds"))], "orcs": [orc("Orc", hp=60)]},
                {"Mina": [NONE, NONE, cast("shield", "Mina")]}, initiative=party_wins(4), max_rounds=4)
    assert one(doc, "expire", "Mina")["tick"][:2] == [3, 3]
