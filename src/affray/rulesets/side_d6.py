"""side-d6: seed 001 (Mythical Journeys), one-minute rounds, a d6 per side, a fixed order of steps.

Read it beside ``../shared/seeds/001_*.txt`` and RULES.md MJ-01 to MJ-20. Each round (MJ-01):

1. morale, monsters first, then the PCs' henchmen (MJ-02);
2. declarations, the PCs' side first, then the monsters (MJ-03);
3. a d6 per side, higher first, a tie all together (MJ-04, MJ-07);
4-8. for the first side: movement, missiles, spells, melee, miscellaneous (MJ-05);
9. the same for the side that lost (MJ-06).

A tick is ``(round, turn, step, sub)``: turn 0 holds the start of the round (surprise, morale,
declarations, initiative, withdrawals), turn k the k-th side in initiative order (tied sides share
a turn, so their steps are simultaneous). ``sub`` orders a set spear's strike (0) before everything
else of its step (1).

Not implemented (no fact in the encounter file carries them): the referee's free-form actions
beyond a timed ``misc``, the subdued waking in 1-3 turns (after the fight), the unconscious being
woken.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from mypy_extensions import mypyc_attr

from affray.engine.conditions import active, effect_of
from affray.engine.events import Initiative, Surprise, Tick
from affray.engine.fight import Fight
from affray.engine.options import BaseOptions, default_morale, morale_dice, option
from affray.engine.places import passed
from affray.engine.rules import KEPT, LOST, RUINED, FreeAttack, Rule
from affray.engine.ruleset import Ruleset
from affray.engine.state import Fighter
from affray.engine.step import AttackMods, Step, given
from affray.engine.words import listed, possessive, subject, the, their
from affray.errors import EncounterError, Problem
from affray.io.checks import planned
from affray.model.arms import Arms
from affray.model.derive import attacks_in_round
from affray.model.encounter import Combatant, Declaration, Dice, Spell
from affray.model.order import Order
from affray.model.place import placed
from affray.reckon import casualty_morale, turn_sides
from affray.supplements.c2x.agility import unshielded_ac

if TYPE_CHECKING:
    from affray.io.load import Loaded

__all__ = ["SideD6"]

STEPS = {4: "movement", 5: "missile attacks", 6: "spells", 7: "melee", 8: "miscellaneous"}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
#: MJ-13: Fighting-Men (and Men-at-Arms) and Demi-Men may set a spear.
SETTERS = ("fighter", "paladin", "ranger")


#: The tag of a charge declared in a placed fight with no run to make (MJ-12): refused when its moment comes.
_SHORT_CHARGE = frozenset({"short-charge"})


@mypyc_attr(native_class=False)  # its fields come from option(): a plain class for the compiled build
@dataclass(frozen=True)
class SideD6Options(BaseOptions):
    """Every Decision of MJ-01 to MJ-20, with the digest's defaults."""

    morale_dice: str = morale_dice("2d6")
    default_morale: int = default_morale(7)
    morale_first_casualty: str = option("own", "MJ-02", "own: a side checks after its own first casualty; any: "
                                        "every side checks at the first casualty of either", ("own", "any"))
    many_sides: str = option("descending", "MJ-04", "more than two sides: act in descending order of the rolls, "
                             "or the highest first and all others together", ("descending", "highest_first"))
    melee_disrupts: bool = option(False, "MJ-06", "a melee hit also ruins a spell (the seed names missiles)")
    mutual_surprise: str = option("both_lose", "MJ-08", "both sides surprising each other: neither acts in the "
                                  "surprise round, or the surprise cancels out", ("both_lose", "cancel"))
    lance_first: bool = option(True, "MJ-17", "a mounted lancer strikes in the first side's melee step against a "
                               "foe with shorter reach")
    shield_splinter: str = option("lethal", "MJ-19", "when a shield bearer lets the shield take a blow: never, "
                                  "only a blow that would drop it, or every blow", ("never", "lethal", "always"))
    missile_rate: bool = option(True, "MJ-05", "a missile weapon's fire rate is its shots per round (false: one "
                                "shot per attack)")


#: When the surprise roll comes: round 1, before anything else (MJ-08; the books' baselines too).
SURPRISE_TICK, SURPRISE_AT = (1, 0, 0, 0), "round 1, surprise"


def aware_by_the_file(fight: Fight[None]) -> bool:
    """The file's ``surprise: none``: no die is rolled, and the round's surprise event says every side is aware."""
    if fight.encounter.surprise != "none":
        return False
    fight.record(Surprise(SURPRISE_TICK, SURPRISE_AT, fight.round_at(SURPRISE_TICK),
                          detail="no surprise: every side is aware (the file says none)", rolls=fight.rolls()))
    return True


class SideD6(Ruleset[None, SideD6Options]):
    """Seed 001: one-minute rounds; a d6 per side, high acts first; steps 4-8 per side (MJ-*)."""

    id = "side-d6"
    title = "One-minute rounds, side d6, fixed step order (Mythical Journeys)"
    seed = "001"
    rule_ids = "MJ"
    Options = SideD6Options
    declaration_keys: ClassVar[dict[str, str]] = {
        "set": "melee: set a spear or pole arm against the target's charge (MJ-13)",
        "rear": "melee: attack from the rear, +2 to hit, no shield (MJ-14)",
        "cover": "missile: the target is behind cover, d6 1-3 hits the cover (MJ-15)",
        "subdual": "melee: flat of the blade, -2 to hit, subdual damage (MJ-20)",
        "past": "move or charge: the enemies the mover runs right past, who get a free attack (MJ-09)",
    }
    initiative_die = 6
    surprise_die = 6
    opportunity_stops = True  # MJ-09: a free attack that does 1 hp stops the mover
    #: The rule the round's movement figures come from, named in the timeline's reasons.
    move_rule: ClassVar[str] = "MJ-05"
    withdraw_rule: ClassVar[str] = "MJ-10"
    charge_rule: ClassVar[str] = "MJ-12"
    #: The words for ``paces``' closing that allows an attack, its withdrawal and its charge's least run.
    closing_words: ClassVar[str] = "the free 1/3 move"
    closing_mv: ClassVar[str] = "1/3 MV"
    withdraw_words: ClassVar[str] = "1/3 speed"
    charge_words: ClassVar[str] = "half the base move"

    @classmethod
    def paces(cls, mv: int) -> tuple[int, int, int, int, int]:
        """The feet a combatant of MV ``mv`` covers in a round, by what it does: a full move (nothing else), the
        closing that still allows an attack, a fighting withdrawal, and a charge's least and longest run. side-d6's
        one-minute round: MV x 10 ft, a third of it (MJ-05, MJ-10), and a charge of at least half the base move up
        to a full move (MJ-12). A ruleset with other rounds overrides this."""
        full = mv * 10
        return full, full // 3, full // 3, full // 2, full

    def rules(self) -> list[Rule]:
        return [SideD6Rules(self.opt)]

    # -- load-time checks of the seed's restrictions ---------------------------------------------------
    def refusal(self, fight: Fight[None], f: Fighter, decl: Order) -> str | None:
        """MJ-16: "Henchmen and retainers never fire into melee": a henchman's missile at a foe engaged in melee is
        refused when declared (and cancelled when it comes, should the foe have closed meanwhile)."""
        if decl.action == "missile" and f.spec.henchman and decl.missile is not None:
            target = fight.state.fighters.get(decl.missile)
            if target is not None and target.engaged:
                return (f"{target.name} is in melee with {', '.join(sorted(target.engaged))}: henchmen and retainers "
                        "never fire into a melee (MJ-16)")
        if decl.action == "melee" and decl.charge and fight.state.placed:
            half = self.paces(f.mv)[3]
            feet = fight.to_close(f, decl)
            if feet < half:
                return (f"{decl.melee} is {feet} ft from {f.name}'s reach: a charge runs at least "
                        f"{self.charge_words}, {half} ft for MV {f.mv} ({self.charge_rule})")
        return None

    @classmethod
    def attack_dice(cls, spec: Combatant, decl: Declaration) -> tuple[Dice | None, int]:
        """MJ-12 and MJ-13: a charge or a set spear throws twice the damage dice."""
        dice, _ = super().attack_dice(spec, decl)
        return dice, 2 if decl.charge or decl.extra.get("set") is True else 1

    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:
        # the class's figures read here, not in the generator: a compiled generator classmethod does not find a
        # subclass's ``cls`` (mypyc: "type object 'check_more_..._gen' has no attribute 'paces'")
        return cls._checked(loaded, cls.paces, cls.charge_words, cls.charge_rule)

    @staticmethod
    def _checked(loaded: Loaded, paces: Callable[[int], tuple[int, int, int, int, int]], charge_words: str,  # noqa: C901
                 charge_rule: str) -> Iterator[Problem]:
        specs, decls = planned(loaded)
        for _actor, spec, d, loc in decls:
            for k, entered in enumerate(d.dice_given):
                cover = entered.other("cover")
                if cover is not None and not 1 <= cover <= 6:
                    where = (*loc, "dice", k) if isinstance(d.dice, list) else (*loc, "dice")
                    yield loaded.problem((*where, "cover"), f"{cover} is not a d6 result (1-6), MJ-15")
            for key in ("set", "rear", "cover", "subdual"):
                if key in d.extra and not isinstance(d.extra[key], bool):
                    yield loaded.problem(loc + (key,), f"{key} takes true or false")
            past = d.extra.get("past")
            if past is not None and (not isinstance(past, list) or any(p not in specs for p in past)):
                yield loaded.problem(loc + ("past",), "past takes a list of combatant names")
            if d.charge:
                half = paces(spec.mv)[3]
                if d.distance < half and not placed(loaded.encounter):  # placed: the fight asks (refusal)
                    yield loaded.problem(loc + ("distance",), f"a charge covers at least {charge_words}: "
                                         f"{half} ft for MV {spec.mv} ({charge_rule}); give distance >= {half}")
                weapon = spec.weapon_for(d.weapon)
                if spec.klass == "monster" and (weapon is None or weapon.charge is not True):
                    yield loaded.problem(loc + ("charge",), "a monster charges only with a skirmish weapon, "
                                         "horns or tusks: mark that weapon charge: true (MJ-12)")
                elif weapon is not None and weapon.charge is False:
                    yield loaded.problem(loc + ("charge",), f"{weapon.name} is marked charge: false (MJ-12)")
            if d.action == "missile" and spec.mounted:
                weapon = spec.weapon_for(d.weapon, missile=True)
                if weapon is not None and "bow" in weapon.name.lower() and "short" not in weapon.name.lower():
                    yield loaded.problem(loc + ("weapon",), "only short bows can be used from horseback "
                                         "(MJ-17)")

    # -- the round -------------------------------------------------------------------------------------
    def begin(self, fight: Fight[None], rnd: int) -> None:
        state = fight.state
        if rnd == 1:
            self._surprise(fight)
        else:
            # MJ-02: step 1, monsters first, then the henchmen and NPCs of the PCs' side
            casualty_morale(fight, self.opt, (rnd, 0, 1), f"round {rnd}, step 1 (morale)", "step 1", "MJ-02",
                            first_casualty=self.opt.morale_first_casualty)
        # MJ-03: each person (the PCs' sides), then the monsters, declare.
        declaring = [f for f in state.pcs_first if f.active and not (rnd == 1 and f.side in state.surprised)]
        at = f"round {rnd}, step 2 (declarations)"
        declared: list[tuple[Fighter, Order]] = []
        asks = fight.asker is not None  # only one who is asked hears them: no list a declarant when nobody is
        for f in declaring:  # each hears the declarations made before its own (the monsters, the PCs')
            d = fight.declare(f, (rnd, 0, 2, 0), at, known=tuple((g.name, e.source) for g, e in declared) if asks
                              else ())
            if d is not None:
                declared.append((f, d))
        if not declared:
            return
        acting = {f.side for f, _ in declared}
        turn_why = self._initiative(fight, rnd, [s for s in state.sides if s in acting])
        counters: list[tuple[Fighter, Order]] = []
        charges: dict[str, Step] = {}
        for f, d in declared:
            if d.action == "melee" and d.extra.get("set") is True:
                counters.append((f, d))
            else:
                charge = self._schedule(fight, f, d, rnd, turn_why)
                if charge is not None:
                    charges[f.name] = charge
        for f, d in counters:
            self._set_spear(fight, f, d, rnd, charges.get(d.melee or ""), turn_why)

    def _surprise(self, fight: Fight[None]) -> None:
        """MJ-08: first round only; each side throws 1d6, on 5-6 it has surprised the other."""
        enc = fight.encounter
        sides = list(enc.sides)
        tick, at = SURPRISE_TICK, SURPRISE_AT
        if aware_by_the_file(fight):
            return
        if isinstance(enc.surprise, dict):
            surprised = {s for s in sides if enc.surprise.get(s)}
            surprisers = set(sides) - surprised if surprised else set()
            detail = f"the referee rules it: {', '.join(sorted(surprised)) or 'nobody'} surprised"
        else:
            rolls = {s: fight.roller.die(6, "surprise", s, enc.rolls.surprise.get(s)) for s in sides}
            achieved = {s for s in sides if rolls[s] >= 5}
            surprised = {s for s in sides if any(o in achieved for o in sides if o != s)}
            if self.opt.mutual_surprise == "cancel":
                surprised -= achieved
            # only a side that caught someone unaware gets the surprise round's +1 (MJ-08)
            surprisers = {s for s in achieved - surprised if any(o in surprised for o in sides if o != s)}
            parts = [f"{s} d6={rolls[s]}{' (surprises)' if s in achieved else ''}" for s in sides]
            detail = ", ".join(parts) + f": {', '.join(s for s in sides if s in surprised) or 'nobody'} surprised"
            if achieved and achieved <= surprised:
                detail += (" (mutual surprise: neither acts in round 1)"
                           if self.opt.mutual_surprise == "both_lose" else "")
        fight.record(Surprise(tick, at, fight.round_at(tick), why="each side d6, 5-6 surprises the other, who may "
                              "not act in round 1; surprisers +1 to hit (MJ-08)", detail=detail,
                              surprised=tuple(s for s in sides if s in surprised),
                              surprisers=tuple(s for s in sides if s in surprisers), rolls=fight.rolls()))

    def _initiative(self, fight: Fight[None], rnd: int, sides: list[str]) -> dict[str, str]:  # noqa: C901
        """MJ-04: 1d6 per side, higher first; ties act together (MJ-07). Returns each side's turn text."""
        tick, at = (rnd, 0, 3, 0), f"round {rnd}, step 3 (initiative)"
        given = fight.encounter.rolls.initiative.get(rnd, {})
        ex = fight.explain  # the lean mode writes no words
        detail = None
        if len(sides) == 1:
            ranks = {sides[0]: 1}
            rolls: dict[str, int] = {}
            if ex:
                detail = f"only {subject(sides[0], 'acts')} this round: no roll"
        else:
            rolls = {s: fight.roller.die(6, "initiative", s, given.get(s)) for s in sides}
            values = sorted(set(rolls.values()))[::-1]  # highest first (sorted(reverse=True) is a generic call)
            if self.opt.many_sides == "highest_first":
                ranks = {s: 1 if rolls[s] == values[0] else 2 for s in sides}
            else:
                ranks = {s: values.index(rolls[s]) + 1 for s in sides}
            if ex:
                detail = ", ".join(f"{s} d6={rolls[s]}" for s in sides) + ": "
                if len(set(ranks.values())) == 1:
                    detail += "tie, everybody acts simultaneously (MJ-07)"
                else:
                    detail += " then ".join(" and ".join(s for s in sides if ranks[s] == k)
                                            for k in sorted(set(ranks.values())))
        fight.record(Initiative(tick, at, fight.round_at(tick), detail=detail, ranks=ranks, results=rolls,
                                rolls=fight.rolls()))
        turn_why: dict[str, str] = {}
        if ex:
            for s in sides:
                together = [o for o in sides if ranks[o] == ranks[s]]
                if len(sides) == 1:
                    turn_why[s] = f"{subject(s, 'acts')} alone"
                elif len(together) > 1:
                    turn_why[s] = (f"{listed(together)} tied at d6 {rolls[s]}: their steps 4-8 run "
                                   f"together (MJ-07)")
                elif ranks[s] == 1:
                    turn_why[s] = (f"{the(s)} won initiative with d6 {rolls[s]}: {their(s)} steps 4-8 come first "
                                   "(MJ-04, MJ-05)")
                else:
                    turn_why[s] = (f"{the(s)} placed {ORDINAL.get(ranks[s], str(ranks[s]) + 'th')} with d6 "
                                   f"{rolls[s]}: {their(s)} steps 4-8 follow (MJ-04, MJ-06)")
        return turn_why

    def _at(self, fight: Fight[None], rnd: int, turn: int, step: int) -> str:
        if not fight.explain:
            return ""
        if turn == 0:
            return f"round {rnd}, start, step {step} ({STEPS.get(step, 'withdrawals')})"
        who = turn_sides(fight, turn)
        return f"round {rnd}, {who} ({ORDINAL.get(turn, str(turn) + 'th')}), step {step} ({STEPS[step]})"

    def _step(self, fight: Fight[None], f: Fighter, rnd: int, turn: int, step: int, kind: str, why: str, *,
              decl: Order | None = None, target: str | None = None, weapon: Arms | None = None,
              spell: Spell | None = None, feet: int = 0, mode: str | None = None,
              tags: frozenset[str] = frozenset(), index: int = 0, note: str = "") -> Step:
        s = Step((rnd, turn, step, 1), f, kind, self._at(fight, rnd, turn, step), why, decl=decl, target=target,
                 weapon=weapon, spell=spell, index=index, feet=feet, mode=mode, tags=tags, note=note)
        fight.push(s)
        return s

    def _schedule(self, fight: Fight[None], f: Fighter, d: Order, rnd: int,
                  turn_why: dict[str, str]) -> Step | None:
        """Turn one declaration into steps (MJ-05); returns the charge's strike, if it is one."""
        action = d.action
        if action == "melee":
            return self._melee(fight, f, d, rnd, turn_why.get(f.side, ""))
        turn = fight.state.ranks[f.side]
        base = turn_why.get(f.side, "")
        ex = fight.explain
        if action == "missile":
            weapon = f.weapon(d.weapon, missile=True)
            shots = attacks_in_round(f.attacks, rnd)
            rate = ""
            if self.opt.missile_rate and weapon.rate != 1:
                shots = attacks_in_round(f.attacks * weapon.rate, rnd)
                rate = f" (fire rate {weapon.rate}: {shots} shots)"
            for i in range(shots):
                self._step(fight, f, rnd, turn, 5, "missile", f"{base}; missiles are step 5{rate}" if ex else "",
                           decl=d, target=d.missile, weapon=weapon, index=i)
        elif action == "cast":
            spell = f.spells[d.cast or ""]
            fight.push(Step((rnd, 0, 3, 1), f, "cast-start", f"round {rnd}, step 3 (casting begins)" if ex else "",
                            "declared at step 2, concentration begins once the order is known; the spell is cast "
                            f"at step 6 of {possessive(f.side)} turn and a missile hit before then ruins it "
                            "(MJ-03, MJ-06)"
                            if ex else "", decl=d, spell=spell, target=d.at))
            self._step(fight, f, rnd, turn, 6, "cast", f"{base}; spells are step 6 (MJ-05)" if ex else "", decl=d,
                       spell=spell, target=d.at)
        elif action == "move":
            self._move(fight, f, d, rnd, turn, base)
        elif action in ("misc", "wait"):
            what = d.misc if action == "misc" else (d.wait if isinstance(d.wait, str) else "")
            self._step(fight, f, rnd, turn, 8, action, f"{base}; miscellaneous actions are step 8, last (MJ-05)"
                       if ex else "", decl=d, note=str(what or ""))
        return None

    def _melee(self, fight: Fight[None], f: Fighter, d: Order, rnd: int, base: str) -> Step | None:
        """MJ-05 step 7, after closing in step 4 within the free 1/3 move; a charge (MJ-12) runs farther (the
        figures: ``paces``)."""
        turn = fight.state.ranks[f.side]
        ex = fight.explain
        mv = f.mv
        full, third, _, least, longest = self.paces(mv)
        closing, rule, crule = self.closing_words, self.move_rule, self.charge_rule
        weapon = f.weapon(d.weapon)
        remaining = f.remaining
        why_move = ""
        if d.charge and fight.state.placed and remaining < least:  # MJ-12 from where they stand: no run to make
            self._step(fight, f, rnd, turn, 4, "melee", base, decl=d, target=d.melee, weapon=weapon,
                       tags=_SHORT_CHARGE, note=f"{d.melee} is {remaining} ft from {f.name}'s reach: a charge runs at "
                       f"least {self.charge_words}, {least} ft for MV {mv} ({crule}); no charge")
            return None
        if d.charge:
            run = min(remaining, longest)
            run_words = "a full move" if longest == full else "a charge's longest run"
            why = (f"{base}; charging: {run_words} of {longest} ft (MV {mv}) of the {remaining} ft, no attack yet "
                   f"({crule})" if remaining > longest else f"{base}; charge run of {remaining} ft (at least "
                   f"{'half of MV ' + str(mv) if least == full // 2 else str(least) + ' ft'}, {crule})") if ex else ""
            self._step(fight, f, rnd, turn, 4, "move", why, decl=d, feet=run, mode="charge", target=d.melee,
                       note=f"charges {run} ft" if ex else "")
            if remaining > longest:
                return None
        elif remaining > third:
            feet = min(remaining, full)
            self._step(fight, f, rnd, turn, 4, "move", f"{base}; closing {remaining} ft is more than {closing} "
                       f"({third} ft for MV {mv}), which precludes any other action this round ({rule})"
                       if ex else "", decl=d, feet=feet, mode="full", target=d.melee,
                       note=f"moves {feet} ft towards {d.melee}" if ex else "")
            return None
        elif remaining > 0:
            if ex:
                why_move = f", after closing {remaining} ft within {closing} ({third} ft, {rule})"
            # with places, the closer follows a foe that moved since the round began, within the free 1/3 move; the
            # engine stops it at reach (docs/positions.md)
            self._step(fight, f, rnd, turn, 4, "move", f"{base}; closes {remaining} ft, within {closing} "
                       f"of {third} ft ({rule})" if ex else "", decl=d,
                       feet=third if fight.state.placed else remaining, mode="half", target=d.melee,
                       note=(f"closes on {d.melee}" if fight.state.placed else f"closes {remaining} ft to {d.melee}")
                       if ex else "")
        strike_turn, lance = turn, ""
        melee = d.melee
        target = fight.state.fighters[melee or ""]
        if (f.mounted and self.opt.lance_first and weapon.is_lance
                and max((w.reach for w in target.weapons if w.kind != "missile"), default=5) < weapon.reach + 10):
            strike_turn = 1
            lance = "; a mounted lancer against shorter reach strikes in the first side's melee step (MJ-17)"
        charge = d.charge
        tags = frozenset({"charge"}) if charge else frozenset()
        n = attacks_in_round(f.attacks, rnd)
        first: Step | None = None
        for i in range(n):
            why = ""
            strike = f.form(d.weapon, i)  # a monster's routine: each attack its own form
            if ex:
                form = f", {strike.name}" if f.in_routine(d.weapon) else ""
                nth = f" (attack {i + 1} of {n} this round{form})" if n > 1 else ""
                why = f"{base}; melee is step 7{why_move}{lance}{nth}"
            step = self._step(fight, f, rnd, strike_turn, 7, "melee", why, decl=d, target=melee, weapon=strike,
                              index=i, tags=tags)
            first = first or step
        return first if charge else None

    def _move(self, fight: Fight[None], f: Fighter, d: Order, rnd: int, turn: int, base: str) -> None:
        """MJ-05 (free 1/3 move, full move), MJ-10 withdrawal, MJ-11 full retreat."""
        mode = d.mode or "full"
        feet = d.move or 0
        mv = f.mv
        full, third, back, _, _ = self.paces(mv)
        rule = self.move_rule
        ex = fight.explain
        if mode == "withdraw":
            feet = min(feet, back)
            why = (f"a fighting withdrawal is made at the beginning of the round, up to {self.withdraw_words} ({back} "
                   f"ft), and provokes no free attack ({self.withdraw_rule})")
            fight.push(Step((rnd, 0, 4, 1), f, "move", f"round {rnd}, start (withdrawals)" if ex else "",
                            why if ex else "", decl=d, feet=feet, mode=mode,
                            tags=frozenset({"disengage"}), note=f"withdraws {feet} ft"))
            return
        tags: frozenset[str] = frozenset()
        if mode in ("retreat", "flee") or (mode == "full" and f.engaged):
            feet = min(feet, full)
            tags = frozenset({"disengage", "leaves"} if mode == "flee" else {"disengage"})
            why = (f"{base}; movement is step 4; a full retreat from melee gives every engaged foe a free attack, "
                   "and any damage stops it (MJ-09, MJ-11)")
        elif mode == "full":
            feet = min(feet, full)
            why = f"{base}; a full move ({full} ft for MV {mv}) is step 4 and allows nothing else ({rule})"
        else:
            feet = min(feet, third)
            why = f"{base}; a move of up to {self.closing_mv} ({third} ft) is step 4 ({rule})"
        self._step(fight, f, rnd, turn, 4, "move", why if ex else "", decl=d, feet=feet, mode=mode, tags=tags,
                   note=f"{mode} {feet} ft")

    def _set_spear(self, fight: Fight[None], f: Fighter, d: Order, rnd: int, charge: Step | None,
                   turn_why: dict[str, str]) -> None:
        """MJ-13: a set spear strikes the charger at the end of its charge; a hit negates the charge."""
        state = fight.state
        weapon = f.weapon(d.weapon)
        turn = state.ranks[f.side]
        first_alone = turn == 1 and sum(1 for k in state.ranks.values() if k == 1) == 1
        reasons = []
        if charge is None or charge.target != f.name:
            self._step(fight, f, rnd, turn, 7, "misc", f"{turn_why.get(f.side, '')}; a set weapon waits for a "
                       f"charge: {d.melee} did not charge {f.name} this round (MJ-13)", decl=d,
                       note=f"{weapon.name} set against {d.melee}; no charge came")
            return
        if f.klass not in SETTERS and f.spec.race.lower() == "human":
            reasons.append("only Fighting-Men, Men-at-Arms and Demi-Men can set a spear")
        if not weapon.settable:
            reasons.append(f"{weapon.name} is not a spear or pole arm")
        if not first_alone:
            reasons.append(f"{subject(f.side, 'does')} not act first this round")
        if f.side in state.surprised and rnd == 1:
            reasons.append(f"{f.name} is surprised, not aware of the charge")
        if reasons:
            self._schedule(fight, f, d.changed(set=False), rnd, turn_why)
            return
        charge.counter = Step(charge.tick, f, "melee", charge.at,
                              f"set against {d.melee}'s charge: strikes as the charge arrives, before it, with "
                              "double damage dice (MJ-13)", decl=d, target=d.melee, weapon=weapon,
                              tags=frozenset({"set"}), note=f"{f.name}'s set {weapon.name}, MJ-13")


class RulesOptions(Protocol):
    """What side-d6's step rules read of a fight's options: side-d6's own, or the books' baselines' built on them (a
    protocol, not ``SideD6Options``: the compiled build checks a class's exact type, and the books' options are an
    interpreted subclass)."""

    @property
    def melee_disrupts(self) -> bool: ...

    @property
    def shield_splinter(self) -> str: ...


class SideD6Rules(Rule):
    """side-d6's step rules: MJ-06 disruption, MJ-08 to MJ-20 modifiers, refusals, free attacks and shields."""

    def __init__(self, opt: RulesOptions) -> None:
        self.opt = opt

    def mods(self, fight: Fight[None], step: Step, target: Fighter, mods: AttackMods) -> None:  # noqa: C901
        a = step.actor
        rnd = fight.period
        decl = step.decl
        extra = decl.extra if decl is not None else {}
        if rnd == 1 and a.side in fight.state.surprisers:
            mods.add("hit", 1, "surprise round, MJ-08")
        if "charge" in step.tags:
            mods.add("hit", 2, "charge, MJ-12")
            mods.dice_times = 2
        if "set" in step.tags:
            mods.dice_times = 2
        tdecl = target.declared
        if tdecl is not None and tdecl.charge:
            mods.add("ac", 2, f"{target.name} charging, MJ-12")
        if tdecl is not None and tdecl.action == "move" and (
                tdecl.mode in ("retreat", "flee") or (tdecl.mode in (None, "full") and target.engaged)):
            worse, what = unshielded_ac(fight, target, dex=True)
            if worse:
                mods.add("ac", worse, f"retreating: no {what}, MJ-11")
        elif extra.get("rear") is True and step.kind == "melee":
            mods.add("hit", 2, "rear attack, MJ-14")
            worse, _ = unshielded_ac(fight, target, dex=False)
            if worse:
                mods.add("ac", worse, "rear: no shield, MJ-14")
        if extra.get("subdual") is True and step.kind == "melee":
            mods.add("hit", -2, "subdual, MJ-20")
            mods.subdual = True
        if a.mounted and not target.mounted and step.kind == "melee":
            mods.add("hit", 2, "mounted vs foot, MJ-17")
            mods.add("damage", 2, "mounted vs foot, MJ-17")
        if a.mounted and step.kind == "missile":
            mods.add("hit", -1, "shooting from horseback, MJ-17")
        if step.kind == "melee" and "set" not in step.tags:
            engaged = _encirclers(fight, target, a.side)
            if engaged * 2 >= _encircle(target):
                mods.add("hit", 1, f"{target.name} at least half surrounded ({engaged} of "
                         f"{_encircle(target)}), MJ-18" if fight.explain else "")

    def refuse(self, fight: Fight[None], step: Step) -> str | None:
        a = step.actor
        state = fight.state
        if step.tags is _SHORT_CHARGE:
            return step.note
        if step.kind == "melee" and a.remaining > 0:
            return f"{a.name} was stopped {a.remaining} ft short of {step.target} (MJ-09)"
        if step.kind == "melee" and step.target is not None:
            target = state.fighters[step.target]
            if a.name not in target.engaged:
                around = [n for n in target.engaged if state.fighters[n].side != target.side]
                if len(around) >= _encircle(target):
                    return (f"no room: {len(around)} already encircle {target.name} "
                            f"(at most {_encircle(target)}, MJ-18)")
        if (step.kind == "missile" and a.spec.henchman and step.target is not None
                and state.fighters[step.target].engaged):
            return "henchmen and retainers never fire into a melee (MJ-16)"
        return None

    def free_attacks(self, fight: Fight[None], step: Step) -> list[FreeAttack]:
        """MJ-09: a full retreat from melee, or running right past a foe, gives one free attack a round."""
        if step.kind != "move":
            return []
        mover = step.actor
        state = fight.state
        rnd = fight.period
        out: list[FreeAttack] = []
        seen: set[str] = set()
        decl = step.decl
        if "disengage" in step.tags and step.mode != "withdraw":
            for name in sorted(mover.engaged, key=fight.order):
                foe = state.fighters[name]
                covered = next((g.name for g in state.sides[mover.side] if g is not mover and g.active
                                and g.declared is not None and g.declared.melee == name), None)
                if covered is not None:
                    continue  # MJ-11: an ally moving into melee with that foe covers the retreat
                if foe.active and foe.aoo_round != rnd:
                    seen.add(name)
                    out.append((foe, foe.weapon(None), f"free attack: {mover.name} makes a full retreat from "
                                "melee (MJ-09, MJ-11)"))
        past = decl.extra.get("past") if decl is not None else None
        if past is None and state.placed:  # where they stand says whom it runs right past
            past = [g.name for g in passed(state, step)]
        for name in past or ():
            foe = state.fighters[name]
            if name not in seen and foe.side != mover.side and foe.active and foe.aoo_round != rnd:
                out.append((foe, foe.weapon(None), f"free attack: {mover.name} moves right past {name} (MJ-09)"))
        return out

    def interrupt(self, fight: Fight[None], caster: Fighter, step: Step) -> str | None:
        """MJ-06: a missile hit ruins the spell; going second or on a tie, it is also lost from memory."""
        if step.kind != "missile" and not self.opt.melee_disrupts:
            return KEPT
        ranks = fight.state.ranks
        rank = ranks.get(caster.side, 1)
        tied = sum(1 for k in ranks.values() if k == rank) > 1
        return LOST if rank > 1 or tied else RUINED

    def redirect(self, fight: Fight[None], step: Step, target: Fighter) -> tuple[Fighter | None, str] | None:
        """MJ-15 cover, MJ-16 firing into melee: only for missiles. Decision: a shot at a helpless target (asleep,
        held...) hits it automatically (G-09), and that hit is on it: no die picks another of its melee."""
        if step.kind != "missile" or step.decl is None:
            return None
        a = step.actor
        if step.decl.extra.get("cover") is True:
            d = fight.roller.die(6, "cover", a.name, given(step, "cover"))
            if d <= 3:
                return None, f"cover d6={d}: the cover takes the hit (MJ-15)"
        if target.engaged and not _helpless(target, step.tick):  # an automatic hit (G-09) strikes its target alone
            group = _melee_of(fight, target)
            if len(group) > 1:
                entered = given(step, "into_melee")
                if entered is not None and not 1 <= entered <= len(group):
                    raise EncounterError([Problem(fight.encounter_file, None, f"plan.{a.name}.dice.into_melee",
                                                  f"{entered} is not a d{len(group)} result: {len(group)} are in "
                                                  f"that melee ({', '.join(g.name for g in group)}), MJ-16")])
                k = fight.roller.die(len(group), "into melee", a.name, entered)
                struck = group[k - 1]
                return struck, (f"fired into melee: d{len(group)}={k} of {', '.join(g.name for g in group)} "
                                f"strikes {struck.name} (MJ-16)")
        return None

    def absorb(self, fight: Fight[None], target: Fighter, damage: int, *, magic: bool,
               effect: str | None = None) -> str | None:
        """MJ-19: the bearer may let the shield take the blow; a rowan shield may instead "avoid one magic effect,
        even one that deals no damage or one that offers no Save". When (option ``shield_splinter``): always, or
        (lethal) a blow that would drop it, a magic effect that would leave it unable to act (asleep, held...: no
        better than dropped), once any save it had has failed."""
        shield = target.shield
        policy = self.opt.shield_splinter
        if shield is None or policy == "never" or (magic and shield != "rowan"):
            return None
        if effect is not None:
            dropped = not effect_of(effect).acts
            return (f"{target.name}'s rowan shield turns the magic: not {effect} (MJ-19)"
                    if policy == "always" or dropped else None)
        if policy == "always" or target.hp - damage <= 0:
            return (f"{target.name}'s rowan shield turns the magic (MJ-19)" if magic else
                    f"{target.name}'s shield takes the blow and splinters (MJ-19)")
        return None

    def fall(self, fight: Fight[None], f: Fighter) -> tuple[bool, str] | None:
        """MJ-20: subdual damage knocks out rather than kills."""
        return (True, "unconscious (subdual damage, MJ-20)") if f.subdual > 0 else None


def _helpless(f: Fighter, tick: Tick) -> bool:
    """Whether ``f`` holds a condition under which attacks on it hit automatically (G-09) at ``tick``."""
    return bool(f.conditions) and any(effect_of(name).helpless for name, _ in active(f, tick))


def _encircle(f: Fighter) -> int:
    """MJ-18: six may encircle a man-sized foe, eight a larger one."""
    return 6 if f.size in ("tiny", "small", "medium") else 8


def _encirclers(fight: Fight[None], target: Fighter, side: str) -> int:
    """MJ-18: ``side``'s fighters around ``target``: engaged with it, or attacking it in melee this round."""
    name = target.name
    return sum(1 for g in fight.state.sides[side] if g.active and (
        g.name in target.engaged or (g.declared is not None and g.declared.melee == name)))


def _melee_of(fight: Fight[None], target: Fighter) -> list[Fighter]:
    """Everyone in the same instance of melee as ``target`` (MJ-16), in file order."""
    seen = {target.name}
    todo = [target.name]
    while todo:
        for n in fight.state.fighters[todo.pop()].engaged:
            if n not in seen and fight.state.fighters[n].active:
                seen.add(n)
                todo.append(n)
    return sorted((fight.state.fighters[n] for n in seen), key=lambda g: g.index)
