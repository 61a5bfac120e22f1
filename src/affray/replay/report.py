"""A played fight replayed under each ruleset asked for, side by side: what ``affray replay`` shows and ``--json``
writes (one document with a timeline per ruleset)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from affray.io.timeline import timeline_dict
from affray.replay.compare import SideBySide, side_by_side
from affray.replay.mapping import surprise_as_played
from affray.replay.played import Played, Said, said
from affray.replay.replay import Replayed, replay

__all__ = ["Carried", "Report", "replay_all"]


@dataclass(frozen=True)
class Carried:
    """What the replays take from the played fight: its declarations (how many were its policies'), and the dice
    that fell for them where a die means the same under every ruleset."""

    declarations: int
    by_policy: int
    d20: int
    damage: int
    saves: int
    outcomes: int

    @classmethod
    def of(cls, saids: Sequence[Said]) -> Carried:
        dice = [d for s in saids for d in s.dice]
        return cls(len(saids), sum(s.auto for s in saids), sum("attack" in d for d in dice),
                   sum("damage" in d for d in dice), sum("save" in d for d in dice),
                   sum(len(s.outcomes) for s in saids))

    def to_dict(self) -> dict[str, int]:
        return {"declarations": self.declarations, "by_policy": self.by_policy, "d20": self.d20,
                "damage": self.damage, "saves": self.saves, "outcomes": self.outcomes}


@dataclass
class Report:
    """The played fight, its replays, and the two side by side."""

    played: Played
    saids: list[Said]
    replays: list[Replayed]
    view: SideBySide

    @property
    def carried(self) -> Carried:
        return Carried.of(self.saids)

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` document: the played fight and each replay with its timeline (as ``affray run --json``),
        the declarations followed under each, the falls, the winners and each replay's differences with reasons."""
        p = self.played
        view = self.view
        first = view.columns[0]
        surprise = surprise_as_played(p)
        return {
            "played": {"source": p.source, "file": p.file, "ruleset": p.ruleset, "seed": p.seed,
                       "options": p.options, "commands": list(p.commands), "timeline": timeline_dict(p.result)},
            "carried": {**self.carried.to_dict(), "surprise": surprise},
            "replays": {r.ruleset: {"options": r.mapped.options, "plays": r.plays,
                                    "notes": [n.to_dict() for n in r.notes],
                                    "replaced": [x.to_dict() for x in r.replaced.values()],
                                    "differences": [d.to_dict() for d in view.differences[r.ruleset]],
                                    "file": r.text, "timeline": timeline_dict(r.fight.result())}
                        for r in self.replays},
            "declarations": [{"actor": row.actor, "index": row.index, "declaration": row.said, "auto": row.auto,
                              "dice": [dict(d) for d in s.dice], "outcome": [dict(o) for o in s.outcomes],
                              "by": {("played" if c == first else c): row.deeds[c].to_dict() for c in view.columns},
                              "instead": dict(row.instead)}
                             for row, s in zip(view.rows, self.saids, strict=True)],
            "falls": {name: {("played" if c == first else c): {"at": f.at, "tick": list(f.tick), "seq": f.seq,
                                                               "by": f.by}
                             for c, f in by.items()} for name, by in view.falls.items()},
            "winners": {("played" if c == first else c): {"winner": w, "settled": at}
                        for c, (w, at) in view.winners.items()},
        }


def replay_all(played: Played, rulesets: Sequence[str], *, sets: Mapping[str, Any] | None = None,
               max_rounds: int = 50) -> Report:
    """``played`` replayed under each of ``rulesets`` (``sets``: options, each given to the rulesets that have it)."""
    saids = said(played.events, played.sides)
    replays = [replay(played, r, saids, sets=sets, max_rounds=max_rounds) for r in rulesets]
    return Report(played, saids, replays, side_by_side(played, saids, replays))
