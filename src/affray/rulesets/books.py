"""The books' own initiative, as baselines beside the six house systems (``affray compare``): B/X group initiative
as the Old-School Essentials SRD gives it (``bx-group``, rules BX-*) and AD&D 2nd edition's standard initiative
as the Player's Handbook gives it (``adnd2e-standard``, rules PH2-*).

Both are side initiatives that run side-d6's machinery of a round (declarations, then each side's movement,
missiles, spells and melee in that order, the OSE SRD's own order): what the books change is here, the surprise
and the initiative dice, who goes first, and ties; side-d6's house rules (MJ-*) that the books do not have are
switched off through the options side-d6's code reads, fixed here (not options of these rulesets).

Movement is the books' own (``paces``), not side-d6's one-minute MV x 10 ft: B/X moves at the encounter rate of a
10-second round, a third of the base (BX-06); the 2e PH's one-minute round allows 10 x MV ft, half of it when the
move ends in an attack, a third when withdrawing, half as much again when charging (PH2-07).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from mypy_extensions import mypyc_attr

from affray.engine.events import Declare, Initiative, Surprise
from affray.engine.fight import Fight
from affray.engine.options import option
from affray.engine.words import listed, subject, the, their
from affray.errors import Problem
from affray.io.checks import planned
from affray.rulesets.side_d6 import ORDINAL, SURPRISE_AT, SURPRISE_TICK, SideD6, SideD6Options, aware_by_the_file

if TYPE_CHECKING:
    from affray.io.load import Loaded

__all__ = ["ADnD2eStandard", "BXGroup"]


# The books' options are side-d6's (its compiled code takes nothing else), with the house rules the books do not
# have fixed: fields left out of ``__init__``, which are not options (``option_info``). Compiled here beside side-d6,
# so that the compiled build knows them as its options' subclasses.
@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class BookOptions(SideD6Options):
    """The books' options (side-d6's morale dice and score, 2d6 against 7, are the books' too); the side-d6 house
    rules the books do not have, fixed off (side-d6's code reads them)."""

    ties: str = option("simultaneous", "BX-03", "sides that tie on initiative: act at the same time (the books' "
                       "rule), or roll again until they differ", ("simultaneous", "reroll"))

    # a side checks after its own first casualty (BX-05, PH2-05)
    morale_first_casualty: str = field(default="own", init=False)
    # more than two sides act in the order of their rolls (BX-02, PH2-02)
    many_sides: str = field(default="descending", init=False)
    # any hit before the spell goes off disrupts it (BX-04, PH2-04)
    melee_disrupts: bool = field(default=True, init=False)
    # not read: the books' surprise is below
    mutual_surprise: str = field(default="cancel", init=False)
    # side-d6's MJ-17: not in the books
    lance_first: bool = field(default=False, init=False)
    # side-d6's MJ-19: not in the books
    shield_splinter: str = field(default="never", init=False)
    # B/X: one missile attack a round
    missile_rate: bool = field(default=False, init=False)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class PH2Options(BookOptions):
    ties: str = option("simultaneous", "PH2-03", "sides that tie on initiative: everything happens at once (the "
                       "PH's rule), or roll again until they differ", ("simultaneous", "reroll"))
    modifiers: bool = option(False, "PH2-06", "Table 55's standard modifiers to a side's d10 (hasted -2, slowed +2, "
                             "higher ground -1, set for a charge -2, slippery footing +2, deep water +4, a foreign "
                             "environment +6, hindered +3, waiting +1), when every member acting that round shares "
                             "the circumstance (declaration key situation; a wait is waiting)")

    # PH2-04: a bow's rate of fire (2/round) is its shots a round
    missile_rate: bool = field(default=True, init=False)


#: PH2-06, the 2e PH's Table 55 "Standard Modifiers to Initiative": each circumstance and what it adds to the d10.
SITUATIONS: dict[str, int] = {"hasted": -2, "slowed": 2, "higher_ground": -1, "set_for_charge": -2, "slippery": 2,
                              "deep_water": 4, "foreign": 6, "hindered": 3, "waiting": 1}


class _Book(SideD6):
    """A side initiative of the books: surprise on ``surprise_on`` or less of a d``surprise_die`` a side; initiative
    a d``initiative_die`` a side, high (``high_first``) or low first."""

    Options = BookOptions  # type: ignore[assignment]  # side-d6 reads the attributes it has
    declaration_keys: ClassVar[dict[str, str]] = {}
    surprise_on: ClassVar[int] = 2
    high_first: ClassVar[bool] = True
    rule_surprise: ClassVar[str] = "BX-01"
    rule_initiative: ClassVar[str] = "BX-02"
    rule_ties: ClassVar[str] = "BX-03"

    def _surprise(self, fight: Fight[None]) -> None:
        """Each side rolls its die: on ``surprise_on`` or less it is surprised and does nothing in round 1; when
        every side is surprised, nobody has the advantage and nobody loses the round."""
        enc = fight.encounter
        sides = list(enc.sides)
        tick, at = SURPRISE_TICK, SURPRISE_AT
        die, on, rule = self.surprise_die, self.surprise_on, self.rule_surprise
        why = f"each side d{die}, {on} or less is surprised and does nothing in round 1 ({rule})"
        if aware_by_the_file(fight):
            return
        if isinstance(enc.surprise, dict):
            surprised = {s for s in sides if enc.surprise.get(s)}
            detail = f"the referee rules it: {', '.join(sorted(surprised)) or 'nobody'} surprised"
        else:
            rolls = {s: fight.roller.die(die, "surprise", s, enc.rolls.surprise.get(s)) for s in sides}
            surprised = {s for s in sides if rolls[s] <= on}
            detail = ", ".join(f"{s} d{die}={rolls[s]}{' (surprised)' if rolls[s] <= on else ''}" for s in sides)
            if surprised and surprised == set(sides):
                surprised = set()
                detail += ": every side surprised, so nobody has the advantage"
            else:
                detail += f": {', '.join(s for s in sides if s in surprised) or 'nobody'} surprised"
        fight.record(Surprise(tick, at, fight.round_at(tick), why=why, detail=detail,
                              surprised=tuple(s for s in sides if s in surprised), rolls=fight.rolls()))

    def _initiative(self, fight: Fight[None], rnd: int, sides: list[str]) -> dict[str, str]:
        """A die a side, with the side's modifiers (``_modifiers``); the best total (highest or lowest) acts first,
        the others in the order of theirs; tied sides act at once (or roll again, option ``ties``). Returns each
        side's turn text."""
        tick, at = (rnd, 0, 3, 0), f"round {rnd}, step 3 (initiative)"
        die, ex = self.initiative_die, fight.explain
        detail = None
        rolls: dict[str, int] = {}
        if len(sides) == 1:
            ranks = {sides[0]: 1}
            if ex:
                detail = f"only {subject(sides[0], 'acts')} this round: no roll"
        else:
            mods = self._modifiers(fight, rnd, sides)
            rolls = self._rolled(fight, rnd, sides, mods)
            totals = {s: rolls[s] + mods[s][0] for s in sides}
            values = sorted(set(totals.values()), reverse=self.high_first)
            ranks = {s: values.index(totals[s]) + 1 for s in sides}
            if ex:
                detail = ", ".join(f"{s} d{die}={rolls[s]}" + (f" {mods[s][0]:+d} ({mods[s][1]}) = {totals[s]}"
                                                               if mods[s][0] else "") for s in sides) + ": "
                if len(set(ranks.values())) == 1:
                    detail += f"tie, everybody acts at the same time ({self.rule_ties})"
                else:
                    detail += " then ".join(" and ".join(s for s in sides if ranks[s] == k)
                                            for k in sorted(set(ranks.values())))
        fight.record(Initiative(tick, at, fight.round_at(tick), detail=detail, ranks=ranks, results=rolls,
                                rolls=fight.rolls()))
        return self._turn_why(sides, ranks, rolls) if ex else {}

    def _modifiers(self, fight: Fight[None], rnd: int, sides: list[str]) -> dict[str, tuple[int, str]]:
        """What is added to each side's die this round, and why (none by default)."""
        return {s: (0, "") for s in sides}

    def _rolled(self, fight: Fight[None], rnd: int, sides: list[str], mods: dict[str, tuple[int, str]]) -> dict[
            str, int]:
        """Each side's die (the file's if it gives one); with option ``ties: reroll``, the tied sides roll again
        until their totals differ (at most twenty times: the file's die is given once)."""
        given = fight.encounter.rolls.initiative.get(rnd, {})
        die = self.initiative_die
        rolls = {s: fight.roller.die(die, "initiative", s, given.get(s)) for s in sides}
        if getattr(self.opt, "ties", "simultaneous") != "reroll":
            return rolls
        for _ in range(20):
            totals = [rolls[s] + mods[s][0] for s in sides]
            tied = [s for s, t in zip(sides, totals, strict=True) if totals.count(t) > 1]
            if not tied:
                break
            rolls.update({s: fight.roller.die(die, "initiative", s) for s in tied})
        return rolls

    def _turn_why(self, sides: list[str], ranks: dict[str, int], rolls: dict[str, int]) -> dict[str, str]:
        """Why each side's turn comes where it does, in words."""
        die, best = self.initiative_die, "highest" if self.high_first else "lowest"
        turn_why: dict[str, str] = {}
        for s in sides:
            together = [o for o in sides if ranks[o] == ranks[s]]
            if len(sides) == 1:
                turn_why[s] = f"{subject(s, 'acts')} alone"
            elif len(together) > 1:
                turn_why[s] = f"{listed(together)} tied at d{die} {rolls[s]}: they act together ({self.rule_ties})"
            elif ranks[s] == 1:
                turn_why[s] = (f"{the(s)} won initiative with the {best} d{die}, {rolls[s]}: {their(s)} movement, "
                               f"missiles, spells and melee come first ({self.rule_initiative})")
            else:
                turn_why[s] = (f"{the(s)} placed {ORDINAL.get(ranks[s], str(ranks[s]) + 'th')} with d{die} "
                               f"{rolls[s]}: {their(s)} turn follows ({self.rule_initiative})")
        return turn_why


class BXGroup(_Book):
    """B/X group initiative (OSE SRD, Combat): a d6 a side, highest first; ties at the same time (BX-*)."""

    move_rule = "BX-06"
    withdraw_rule = "BX-06"
    charge_rule = "BX-06"
    closing_words = "the encounter move"
    closing_mv = "the encounter rate"
    withdraw_words = "half the encounter rate"
    charge_words = "half the encounter rate"

    @classmethod
    def paces(cls, mv: int) -> tuple[int, int, int, int, int]:
        """BX-06: a round is 10 seconds, in which a combatant moves at its encounter movement rate, a third of its
        base rate (the OSE SRD writes "120' (40')"): that is both the full move and the move that still allows an
        attack (movement, then missiles, spells and melee in the same side's turn); a fighting withdrawal backs off
        at up to half the encounter rate. Decisions, the SRD having no charging manoeuvre: a charge runs at least
        half the encounter rate and at most all of it. MV 12: 120 // 3 = 40 ft, withdrawal 20, charge 20 to 40."""
        enc = mv * 10 // 3
        return enc, enc, enc // 2, enc // 2, enc

    id = "bx-group"
    title = "B/X group initiative as the OSE SRD gives it: a d6 a side, highest first"
    seed = "OSE SRD"
    rule_ids = "BX"
    initiative_die = 6
    surprise_die = 6


class ADnD2eStandard(_Book):
    """AD&D 2nd edition's standard initiative (PH, Chapter 9): a d10 a side, lowest first; ties at once (PH2-*)."""

    id = "adnd2e-standard"
    title = "AD&D 2nd edition standard initiative (Player's Handbook): a d10 a side, lowest first"
    seed = "2e PH"
    rule_ids = "PH2"
    Options = PH2Options
    initiative_die = 10
    surprise_die = 10
    surprise_on = 3
    high_first = False
    move_rule = "PH2-07"
    withdraw_rule = "PH2-07"
    charge_rule = "PH2-07"
    closing_words = "the half move that still allows an attack"
    closing_mv = "half MV"
    withdraw_words = "1/3 the normal movement rate"
    charge_words = "half the base move"
    rule_surprise = "PH2-01"
    rule_initiative = "PH2-02"
    rule_ties = "PH2-03"
    declaration_keys: ClassVar[dict[str, str]] = {
        "situation": "with option modifiers: the circumstances of Table 55 the combatant is in this round ("
                     + ", ".join(SITUATIONS) + "); a side's d10 takes one only if every member acting shares it "
                     "(PH2-06)",
    }

    @classmethod
    def paces(cls, mv: int) -> tuple[int, int, int, int, int]:
        """PH2-07, the 2e PH's movement in combat (its round is "roughly a minute"): "a being can move up to 10 times
        its movement rating in feet"; "When closing for combat, a character can move up to half his allowed
        distance and still make a melee attack"; withdrawing, "The character moves up to 1/3 his normal movement
        rate"; "A charge increases the character's movement rate by 50% and enables the character to make an
        attack at the end of his movement". Decision, the book being silent: a charge runs at least half the base
        move (side-d6's minimum). MV 12: full 120 ft, 60 with an attack, withdrawal 40, charge 60 to 180."""
        full = mv * 10
        return full, full // 2, full // 3, full // 2, full * 3 // 2

    def _modifiers(self, fight: Fight[None], rnd: int, sides: list[str]) -> dict[str, tuple[int, str]]:
        """PH2-06 (option ``modifiers``): Table 55's modifiers that every member of a side declaring this round
        shares (the PH's standard method: all or nothing for the group); a declared wait counts as waiting."""
        if not getattr(self.opt, "modifiers", False):
            return super()._modifiers(fight, rnd, sides)
        held: dict[str, list[set[str]]] = {s: [] for s in sides}
        for e in fight.events:
            if e.kind == "declare" and e.tick[0] == rnd and e.actor is not None and isinstance(e, Declare):
                order = e.order
                if order is None:
                    continue
                found = order.extra.get("situation")
                names = {str(x) for x in found} if isinstance(found, list) else set()
                if order.action == "wait":
                    names.add("waiting")
                side = fight.state.fighters[e.actor].side
                if side in held:
                    held[side].append(names)
        out: dict[str, tuple[int, str]] = {}
        for s in sides:
            shared = set.intersection(*held[s]) if held[s] else set()
            named = [n for n in SITUATIONS if n in shared]
            out[s] = (sum(SITUATIONS[n] for n in named), ", ".join(named))
        return out

    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:
        # side-d6's checks, called without super() and outside a generator: in the compiled build neither finds ``cls``
        return itertools.chain(cls._checked(loaded, cls.paces, cls.charge_words, cls.charge_rule),
                               _situations(loaded))


def _situations(loaded: Loaded) -> Iterator[Problem]:
    """PH2-06: a declaration's ``situation`` names Table 55's circumstances."""
    for _actor, _spec, d, loc in planned(loaded)[1]:
        found = d.extra.get("situation")
        if found is None:
            continue
        if not isinstance(found, list) or any(x not in SITUATIONS for x in found):
            yield loaded.problem(loc + ("situation",), f"situation takes a list of: {', '.join(SITUATIONS)} "
                                 "(Table 55, PH2-06)")
