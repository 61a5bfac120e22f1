"""A simulation's batch is summed natively (``tally.Sums``) and added to its summary once: the summary is the one
adding each fight's record in turn makes, to the last bit and in the order of its keys (which the JSON keeps).
And the records keep what the dataclasses they were gave: fields by name and position, equality, pickling."""

from __future__ import annotations

import pickle
from dataclasses import fields
from pathlib import Path

from affray.sim import fight_seeds
from affray.sim.runner import Job, run_batch
from affray.sim.summary import Summary
from affray.sim.tally import Casting, CombatantRecord, FightRecord

ROOT = Path(__file__).resolve().parent.parent


def _state(s: Summary) -> list[tuple[str, object]]:
    """Every field of a summary, dictionaries as their items in order (a Counter's order is its keys' first
    counts)."""
    out: list[tuple[str, object]] = []
    for f in fields(s):
        v = getattr(s, f.name)
        if isinstance(v, dict):
            v = [(k, list(x.items()) if isinstance(x, dict) else x) for k, x in v.items()]
        elif not isinstance(v, (int, bool, str, list)):
            v = list(v)  # the per-fight arrays
        out.append((f.name, v))
    return out


def test_a_batch_summed_natively_is_its_records_added_in_turn() -> None:
    # the skirmish has a caster (spells counted and timed) and fights that end several ways, under two rulesets
    path = ROOT / "src" / "affray" / "examples" / "skirmish.yaml"
    text = path.read_text(encoding="utf-8")
    seeds = fight_seeds(3, 60)[0]
    for ruleset in ("side-d6", "combat2-phase1"):
        for digest in (False, True):
            batch = run_batch(Job(text, str(path), ruleset, (), 50, seeds, True, digest))
            one_by_one = Summary(list(batch.summary.sides), dict(batch.summary.combatants), digest=digest)
            for record in batch.records:
                one_by_one.add(record)
            assert batch.summary.fights == len(seeds) == 60
            assert _state(batch.summary) == _state(one_by_one)


def test_records_are_made_read_compared_and_pickled_as_the_dataclasses_were() -> None:
    k = Casting("sleep", 0.0, 3.0, 6.0, "landed", None, False, (1, 2))
    c = CombatantRecord("Aldo", "party", 8, 3, False, False, False, 6.0, None, (1, 2), 6.0, 4, (k,), hurt_in=1)
    r = FightRecord(seed=7, winner="party", length=2, seconds=120.0, first_blow="party", first_blow_at=6.0,
                    first_fall_at=60.0, spells={"party": {"completed": 1}}, dealt={"party": 4}, taken={"party": 5},
                    down=(), fled=(), broke=(), morale={}, combatants=(c,))
    assert (c.name, c.start, c.hp, c.hurt_in, c.down_in, c.castings[0].tick) == ("Aldo", 8, 3, 1, None, (1, 2))
    assert r.first_blow_in is None and r.combatants[0] is c
    assert pickle.loads(pickle.dumps(r)) == r
    assert r != FightRecord(*[getattr(r, f) for f in FightRecord._fields][:-2], first_blow_in=1)
    assert repr(k) == ("Casting(spell='sleep', declared=0.0, begun=3.0, ended=6.0, outcome='landed', why=None, "
                       "hurt=False, tick=(1, 2))")
    assert hash(k) == hash(Casting("sleep", 0.0, 3.0, 6.0, "landed", None, False, (1, 2)))
