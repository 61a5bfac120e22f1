"""Morale (G-07): who checks, when it is due, the score, and the casualty checks of a round's start or end."""

from __future__ import annotations

from typing import Any, Protocol

from affray.dice.expr import DiceExpr, parse_dice
from affray.engine.events import Tick
from affray.engine.fight import Fight
from affray.engine.state import Fighter
from affray.engine.words import subject, their

__all__ = ["MoraleOptions", "casualty_morale", "losses", "morale_due", "morale_score"]


class MoraleOptions(Protocol):
    """The two morale options every ruleset has (``engine.options.morale_dice`` and ``default_morale``)."""

    @property
    def morale_dice(self) -> str: ...
    @property
    def default_morale(self) -> int: ...


def morale_due(fight: Fight[Any], side: str, *, anyone: bool = False) -> tuple[list[Fighter], tuple[str, ...]]:
    """G-07: who of ``side`` would check (neither PCs nor the routed) and the triggers due: its first casualty
    (``anyone``: the first of any side) and half of it down, each once."""
    state = fight.state
    total = len(state.sides[side])
    lost = total - state.active_left[side]
    triggers = []
    if (anyone or lost >= 1) and (side, "first casualty") not in state.morale_done:
        triggers.append("first casualty")
    if 2 * lost >= total and (side, "half down") not in state.morale_done:
        triggers.append("half down")
    if not triggers:  # the usual case, found without a pass over the side (phase-count asks after every moment)
        return [], ()
    members = [f for f in state.sides[side] if f.active and not f.pc and not f.routed]
    if not members:
        return [], ()
    return members, tuple(triggers)


def morale_score(fight: Fight[Any], opt: MoraleOptions, side: str, members: list[Fighter]) -> int:
    """G-07: the side's morale, else its members' lowest, else the ruleset's default."""
    score = fight.encounter.sides[side].morale
    if score is None:
        given = [f.spec.morale for f in members if f.spec.morale is not None]
        score = min(given) if given else int(opt.default_morale)
    return score


def losses(fight: Fight[Any], side: str) -> str:
    total = len(fight.state.sides[side])
    return f"{total - fight.state.active_left[side]} of {total} out"


def casualty_morale(fight: Fight[Any], opt: MoraleOptions, tick: Tick, at: str, when: str, rule: str, *,
                    first_casualty: str = "own") -> None:
    """G-07: each side not of PCs checks once after its first casualty and once at half down, the
    monsters' sides first; the morale event of the k-th check gets ``tick + (k,)``. ``first_casualty`` "any":
    every side checks at the first casualty of either (MJ-02's option)."""
    state = fight.state
    anyone = first_casualty == "any" and any(len(members) > state.active_left[s] for s, members in state.sides.items())
    dice: DiceExpr | None = None  # parsed when a side checks (most calls find no side due)
    k = 0
    for side in state.sides_monsters_first:
        members, triggers = morale_due(fight, side, anyone=anyone)
        if not triggers:
            continue
        if dice is None:
            dice = parse_dice(opt.morale_dice)
        why = (f"{when}: {subject(side, 'checks')} morale after {their(side)} {' and '.join(triggers)} "
               f"({losses(fight, side)}); PCs never check ({rule}, G-07)") if fight.explain else ""
        fight.morale_check(side, members, morale_score(fight, opt, side, members), (*tick, k), at, triggers, why,
                           dice)
        k += 1
