"""The kit's ``hidden-information`` property: a fight served as the page serves it (``affray.web``), played to its
end by the referee's own commands (every die rolled, every declaration its suggestion), each player's view checked
at every point against what only the referee may see of another side: hit points, steps placed and still to come,
the end of a condition (CONTRACT.md "The table's page"; issue 15)."""

from __future__ import annotations

import tempfile
from functools import partial
from pathlib import Path
from typing import Any

__all__ = ["hidden", "secrets_in"]

#: The kit's fight: two player characters and their foes, some of whom cast (their casting is a step to come).
FIGHT = """\
seed: {seed}
sides:
  party:
    pc: true
    combatants:
      - {{name: Brom, class: fighter, level: 3, hp: 22, ac: 4, weapons: [long sword, short bow]}}
      - {{name: Mina, class: wizard, level: 3, hp: 9, weapons: [dagger], spells: [sleep, magic missile]}}
  kobolds:
    combatants:
      - {{monster: kobold, count: 3}}
      - {{name: Shaman, class: cleric, level: 2, hp: 10, weapons: [mace], spells: [command]}}
"""


def secrets_in(view: Any, foes: set[str]) -> str | None:
    """What of ``foes`` a player's ``view`` shows that it should not, or None."""
    for c in view.cards:
        if c.name in foes and (c.hp is not None or c.hp_max is not None):
            return f"{view.viewer}'s page shows {c.name}'s hit points ({c.hp}/{c.hp_max})"
    for m in view.board.marks:
        if m.placed and not m.declared and m.lane in foes:
            return f"{view.viewer}'s board shows {m.lane}'s step still to come ({m.title})"
    for b in view.board.bars:
        if b.kind == "condition" and b.lane in foes and not b.open_end and b.placed_end:
            return f"{view.viewer}'s board shows when {b.lane}'s condition ends ({b.title})"
    return None


def hidden(ruleset: str, seed: int, steps: int = 400) -> str | None:
    """Play the kit's fight under ``ruleset`` and check every player's view at every point: the first secret shown,
    or None."""
    from affray.api import prepare
    from affray.io.load import load_text
    from affray.web.serve import Opening, close_served, open_served
    from affray.web.views import player_view

    text = f"ruleset: {ruleset}\n" + FIGHT.format(seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fight.yaml"
        path.write_text(text, encoding="utf-8")
        prepared = prepare(load_text(text, str(path)))
        served = open_served(Opening(str(Path(tmp) / "fight.db"), (str(path), text, prepared.ruleset.id,
                                                                   prepared.seed, {}, False, 20)))
        try:
            table = served.table
            run = served.pool.submit
            for line in ("dice roll", "declare party auto", "declare kobolds auto"):
                said = run(partial(table.command, line)).result()
            for _ in range(steps):
                fight = table.session.fight
                pcs = [f.name for f in fight.state.fighters.values() if f.pc]
                for pc in pcs:
                    mine = fight.state.fighters[pc].side
                    foes = {f.name for f in fight.state.fighters.values() if f.side != mine}
                    view = run(partial(player_view, table, pc, 0)).result()
                    found = secrets_in(view, foes)
                    if found is not None:
                        return f"after event {len(fight.events)}: {found}"
                if table.session.drive.over:
                    return None
                said = run(partial(table.command, "step")).result()
            return f"the fight did not end in {steps} steps (the last: {said})"
        finally:
            close_served(served)
    return None
