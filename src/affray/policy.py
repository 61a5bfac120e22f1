"""Auto-play policies: what a combatant declares under ``--auto`` once its plan is used up.

A policy is chosen per combatant or per side in the encounter file (``policy: tactical``, or a designer's own
``policy: mypolicies:brave``) or on the command line (``--policy SIDE=NAME``); without one a combatant plays
``default``, which fights as a sensible table would:

- the badly hurt (a quarter of their hit points or less) step back out of melee while an ally still fights on;
- casters cast their best spell for the moment: a sleep at the enemy side when it would take several, a damage
  spell at the foe it would hurt most, when the spell is worth more than the caster's own blow;
- those with a bow, crossbow or sling shoot while nobody is in melee with them;
- everyone else spreads over the enemy: each keeps to its foe, else takes the one with the fewest of its side on
  it, never more around one foe than MJ-18 lets encircle it (six around a man-sized one, eight a larger).

The fight asks a policy only a combatant that can choose (``Fight.declare``): one asleep, held, paralysed,
unconscious or stunned declares nothing and is asked nothing (G-09); a routed one (G-07: the ruleset's morale)
or one ``fleeing`` (G-09) flees at its full move, whatever its policy.

Every declaration a built-in policy makes is valid under every ruleset: a spell the caster lists and can still pay
for (memorised copy, mana or slot, C2X-06/08), never a touch spell (C2-10 delivers those with a later ``melee``,
which only Combat II knows); a weapon the combatant carries; a withdrawal of 10 ft (the most d12-procedure allows,
D12-17); a flight at its full move. The ruleset still places it in time, delays it or refuses it as its seed says.

A designer's policy is a function ``(fight, me) -> Declaration | mapping | None`` (``PolicyFunction``), named
``module:function`` or registered by an installed package under the entry point group ``affray.policies``; what it
declares is checked as a referee's answer is (``affray.drive.check_declaration``). ``docs/policies.md`` says what
it may read and shows one.

    POLICIES      the built-in policies, by name (the names a file may give: ``model.encounter.POLICY_NAMES``)
    Auto          one fight's auto-play (``Prepared.fight`` hands it to the fight as its ``policy``)
    play(name, fight, me)                 a built-in policy's choice, for a designer's policy to fall back on
    load_policy("module:function")        a designer's policy, or PolicyError saying why not
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from affray.dice.expr import DiceExpr
from affray.engine.conditions import effect_of, hit_dice
from affray.engine.fight import Fight
from affray.engine.places import nearest_foe
from affray.engine.state import Fighter
from affray.engine.validity import cast_refusal
from affray.errors import AffrayError, PolicyError
from affray.limits import MAX_NAME
from affray.model.arms import Arms
from affray.model.encounter import POLICY_GROUP, Declaration, Spell
from affray.model.order import Order, order_of
from affray.model.place import apart

__all__ = ["BADLY_WOUNDED", "POLICIES", "POLICY_GROUP", "UNKNOWN_SPELL", "WITHDRAW_FEET", "WOUNDED", "Auto",
           "Policy", "PolicyError", "PolicyFunction", "allies", "choose", "encircle", "enemies", "find_policy",
           "load_policy", "play"]

#: Hit points at or below this fraction of the starting ones: ``cautious`` withdraws (and flees at BADLY_WOUNDED).
WOUNDED = 1 / 2
#: ... and at or below this one every built-in policy but ``plain`` withdraws from melee while an ally fights on.
BADLY_WOUNDED = 1 / 4
#: The withdrawal's length: d12-procedure's fall back is at most 10 ft (D12-17); 10 ft is a step back everywhere.
WITHDRAW_FEET = 10
#: In a fight that places its combatants, a bow's wielder not in melee steps away (half its move) from a foe this
#: close, while an ally fights on, rather than be caught shooting (docs/positions.md).
KEEP_FEET = 15
#: What a spell the file gives neither ``damage`` nor ``effect`` is worth a level, in hit points: the policies
#: cannot know what it does, and take the referee's word that it is worth casting (a magic missile's 1d4+1 a level).
UNKNOWN_SPELL = 3.5


class PolicyFunction(Protocol):
    """A designer's policy: ``me``'s declaration now, given the fight as it stands (read it, never change it).

    Return a ``Declaration``, one plan entry as a mapping (``{"melee": "Orc 2", "weapon": "axe"}``,
    ``{"cast": "sleep", "at": "orcs"}``), or None (nothing to do). It may call ``play(name, fight, me)`` for a
    built-in policy's choice. What it may read (``docs/policies.md``): ``fight.state.fighters`` (every
    combatant by name, file order), ``fight.state.sides``, ``fight.ruleset.id``, ``fight.now`` (the tick) and
    ``fight.now_at``; of a combatant: ``name``, ``side``, ``hp``, ``spec`` (the file's entry: its starting
    ``hp``, ``weapons``, ``spells``), ``active``, ``down``, ``engaged`` (names), ``conditions``, ``casting``,
    ``spells`` (by name) and ``can_cast(spell)`` (None when it can still pay for it)."""

    def __call__(self, fight: Fight[Any], me: Fighter) -> Declaration | Mapping[str, Any] | None: ...


#: A built-in policy's choice, given its fight's ``Auto``.
Chooser = Callable[["Auto", Fight[Any], Fighter], "Declaration | Order | None"]


@dataclass(frozen=True)
class Policy:
    """A named way of playing a combatant under ``--auto``."""

    name: str
    doc: str
    choose: Chooser


# -- declarations, made once ------------------------------------------------------------------------------
# Declarations are immutable: one per distinct content serves every fight (the hot path of a simulation).
_CACHE: dict[tuple[tuple[str, object], ...], Order] = {}
#: Attacks by kind (melee, missile), weapon and target: the most frequent declarations, found without a sort.
_ATTACKS: tuple[dict[str, dict[str, Order]], dict[str, dict[str, Order]]] = ({}, {})


def _decl(**fields: object) -> Order:
    key = tuple(sorted(fields.items()))
    order = _CACHE.get(key)
    if order is None:
        order = _CACHE[key] = order_of(Declaration.model_validate(fields))
    return order


def _attack(weapon: str, target: str, missile: bool) -> Order:
    by_target = _ATTACKS[missile].get(weapon)
    if by_target is None:
        by_target = _ATTACKS[missile][weapon] = {}
    order = by_target.get(target)
    if order is None:
        order = by_target[target] = order_of(Declaration(missile=target, weapon=weapon) if missile
                                             else Declaration(melee=target, weapon=weapon))
    return order


def encircle(f: Fighter) -> int:
    """MJ-18: six may encircle a man-sized foe (or a smaller one), eight a larger. Seed 001 alone says how many;
    the policies keep to it under every ruleset (a sensible table does not put a seventh man around an orc)."""
    return 6 if f.size in ("tiny", "small", "medium") else 8


def _mean(d: DiceExpr) -> float:
    return (d.dice_min + d.dice_max) / 2 + d.bonus


class Kit:
    """What the policies read of a combatant at every declaration, worked out at its first one."""

    __slots__ = ("blow", "hp", "melee", "shot", "spells", "throw")

    def __init__(self, f: Fighter) -> None:
        self.hp: int = f.spec.hp  # its starting hit points
        melee: Arms | None = None
        shot: Arms | None = None
        throw: Arms | None = None
        for w in f.weapons:
            if melee is None and w.kind != "missile":
                melee = w
            if shot is None and w.kind == "missile":
                shot = w
            if throw is None and w.is_missile:
                throw = w
        #: Its first melee weapon (or thrown one), else its first weapon whatever it is.
        self.melee: Arms = melee if melee is not None else f.weapons[0]
        #: Its first bow, crossbow or sling; its first missile or thrown weapon.
        self.shot: Arms | None = shot
        self.throw: Arms | None = throw
        #: The spells a policy may cast: all but touch spells (C2-10).
        self.spells: tuple[Spell, ...] = tuple(s for s in f.spells.values() if not s.touch)
        attacks = f.attacks
        #: Its melee weapon's mean damage a round, before the chance to hit.
        self.blow: float = float(attacks) * (_mean(self.melee.damage) + self.melee.magic + f.damage_bonus)


def _hit_chance(f: Fighter, target: Fighter) -> float:
    """G-04: a d20 of THAC0 - AC or more hits; a natural 20 always, a natural 1 never (1/20 each way)."""
    need = f.thac0 - target.ac
    return min(0.95, max(0.05, (21 - need) / 20))


class Auto:
    """One fight's auto-play: each combatant's policy by name, and what the policies of that fight share: which
    foe each attacker was sent at (its *claim*), and how many of a side are on each foe.

    ``Prepared.fight`` makes one a fight; the fight calls it (``Fight.policy``) for each declaration ``--auto``
    answers. Everything it keeps follows from the calls made so far, so a fight rebuilt from its start (an undo,
    a resumed fight) makes the same choices."""

    def __init__(self, custom: Mapping[str, PolicyFunction] | None = None) -> None:
        self.custom: dict[str, PolicyFunction] = dict(custom or {})
        #: Seconds a designer's policy may take to choose (a served fight's ``POLICY_SECONDS``); None: unbounded.
        self.seconds: float | None = None
        #: The designer's policies that failed (timed out, raised): not asked again for a suggestion.
        self.failed: set[str] = set()
        self.claims: dict[str, str] = {}  # attacker -> the foe it was sent at in melee
        self.load: dict[str, int] = {}  # foe -> attackers claiming it, still in the fight
        self.seen = 0  # how much of ``FightState.gone`` has been read
        self.floor: dict[str, int] = {}  # attacking side -> no foe has fewer of it on it than this
        self.cursor: dict[str, int] = {}  # attacking side -> no foe before this index has only ``floor`` on it
        self.kits: dict[str, Kit] = {}
        self.checked: dict[tuple[str, str], Order] = {}  # a designer's declarations, checked once each

    def __call__(self, fight: Fight[Any], f: Fighter) -> Declaration | Order | None:
        if len(fight.state.gone) > self.seen:
            self.sync(fight)
        name = f.policy
        if name is None:
            return _play(self, fight, f)  # default's, a native call in the compiled build
        policy = POLICIES.get(name)
        if policy is not None:
            return policy.choose(self, fight, f)
        return self._custom(name, fight, f)  # the fight checks it when it would act (``Fight.declare``)

    def preview(self, fight: Fight[Any], f: Fighter) -> Declaration | Order | None:
        """What ``f``'s policy would declare now, leaving what the fight's policies share as it was (a console's
        suggestion for one who is asked: asking must not change what the others will do)."""
        if f.policy is not None and f.policy in self.failed:
            return None  # it failed already: no suggestion, rather than the same wait again
        kept = (dict(self.claims), dict(self.load), self.seen, dict(self.floor), dict(self.cursor))
        try:
            return self(fight, f)
        except PolicyError:  # a suggestion is not worth an error: the one asked answers anyway
            if f.policy is not None:
                self.failed.add(f.policy)
            return None
        finally:
            self.claims, self.load, self.seen, self.floor, self.cursor = kept

    # -- what a fight's policies share ----------------------------------------------------------------------
    def kit(self, f: Fighter) -> Kit:
        kit = self.kits.get(f.name)
        if kit is None:
            kit = self.kits[f.name] = Kit(f)
        return kit

    def sync(self, fight: Fight[Any]) -> None:
        """Forget the claims of those who left the fight since the last call (``FightState.gone``, in order)."""
        gone = fight.state.gone
        if len(gone) > self.seen:
            fighters = fight.state.fighters
            for g in gone[self.seen:]:
                foe = self.claims.pop(g.name, None)
                if foe is not None:
                    self._ease(g.side, fighters[foe])
            self.seen = len(gone)

    def load_of(self, g: Fighter) -> int:
        return self.load.get(g.name, 0)

    def _ease(self, side: str, foe: Fighter) -> None:
        """One fewer of ``side`` on ``foe``."""
        n = self.load.get(foe.name, 0) - 1
        self.load[foe.name] = n
        if n < self.floor.get(side, 0):
            self.floor[side] = n
        if foe.index < self.cursor.get(side, 0):
            self.cursor[side] = foe.index

    def claim(self, f: Fighter, foe: Fighter, fight: Fight[Any]) -> None:
        old = self.claims.get(f.name)
        if old == foe.name:
            return
        if old is not None:
            self._ease(f.side, fight.state.fighters[old])
        self.claims[f.name] = foe.name
        self.load[foe.name] = self.load.get(foe.name, 0) + 1

    def unclaim(self, f: Fighter, fight: Fight[Any]) -> None:
        old = self.claims.pop(f.name, None)
        if old is not None:
            self._ease(f.side, fight.state.fighters[old])

    def room(self, foe: Fighter, f: Fighter) -> bool:
        """Whether ``f`` may join those around ``foe`` (MJ-18): fewer claim it and fewer are engaged with it than
        may encircle it, or ``f`` is already one of them."""
        limit = encircle(foe)
        if f.name in foe.engaged or self.claims.get(f.name) == foe.name:
            return True
        return self.load.get(foe.name, 0) < limit and len(foe.engaged) < limit

    def spread(self, fight: Fight[Any], f: Fighter) -> Fighter | None:
        """The foe with the fewest of ``f``'s side on it, the first in file order among equals, with room for
        ``f``; None when every foe is encircled. The search goes on from where the last one stopped while the
        least number on a foe is the same (no foe before that point has so few)."""
        side = f.side
        order = fight.state.order
        floor = self.floor.get(side, 0)
        i = self.cursor.get(side, 0)
        while i < len(order):
            g = order[i]
            if g.side != side and g.active and self.load.get(g.name, 0) <= floor and self.room(g, f):
                self.cursor[side] = i
                return g
            i += 1
        best: Fighter | None = None  # none so free from there: the least of all, from the start
        least = 0
        for g in order:
            if g.side != side and g.active and self.room(g, f):
                n = self.load.get(g.name, 0)
                if best is None or n < least:
                    best, least = g, n
        if best is not None:
            self.floor[side] = least
            self.cursor[side] = best.index
        return best

    def focus(self, fight: Fight[Any], f: Fighter) -> Fighter | None:
        """The foe with the fewest hit points left, the first in file order among equals, with room for ``f``."""
        best: Fighter | None = None
        for g in fight.state.order:
            if g.side != f.side and g.active and (best is None or g.hp < best.hp) and self.room(g, f):
                best = g
        return best

    def melee_target(self, fight: Fight[Any], f: Fighter, focus: bool = False) -> Fighter | None:  # noqa: C901
        """Whom ``f`` strikes in melee: the foe it was sent at while it still stands (and ``f`` is in melee with
        nobody else); else, engaged, the foe in melee with it that fewest of its side are on (``focus``: the one
        with the fewest hit points); else the foe ``spread`` (``focus``) finds; every foe encircled, the
        first still standing (the ruleset says whether there is room)."""
        fighters = fight.state.fighters
        claim = self.claims.get(f.name)
        engaged = f.engaged
        if claim is not None:
            c = fighters[claim]
            if c.active and (not engaged or claim in engaged):
                return c
        if engaged:
            best: Fighter | None = None  # a loop: sorted() with a key is a generic call when compiled
            for n in engaged:
                g = fighters[n]
                if not g.active:
                    continue
                if best is None:
                    best = g
                elif focus:
                    if (g.hp, g.index) < (best.hp, best.index):
                        best = g
                elif (self.load_of(g), g.index) < (self.load_of(best), best.index):
                    best = g
            if best is not None:
                return best
        target = self.focus(fight, f) if focus else self.spread(fight, f)
        return target if target is not None else fight.state.first_foe(f.side)

    def covered(self, fight: Fight[Any], f: Fighter, fraction: float) -> bool:
        """Whether an ally of ``f`` still stands above ``fraction`` of its hit points (someone fights on)."""
        return any(g is not f and g.active and g.hp > self.kit(g).hp * fraction for g in fight.state.sides[f.side])

    # -- a designer's policy ------------------------------------------------------------------------------
    def _custom(self, name: str, fight: Fight[Any], f: Fighter) -> Declaration | Order | None:
        fn = self.custom.get(name)
        if fn is None:
            fn = self.custom[name] = load_policy(name)
        said = f"{fight.encounter_file}: policy {name}"
        try:
            out = fn(fight, f) if self.seconds is None else _bounded(fn, fight, f, self.seconds, said)
        except AffrayError:
            raise
        except (Exception, SystemExit) as exc:  # a policy's sys.exit() is its error, not the command's end
            frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ is not None else None
            where = f" ({frame.filename}:{frame.lineno})" if frame is not None else ""
            did = (f"ended the process (sys.exit({_short(exc.code)})), which a policy may not do" if
                   isinstance(exc, SystemExit) else f"raised {type(exc).__name__}: {_short(exc)}")
            raise PolicyError(f"{said}: {did}{where}, choosing for {f.name} at {fight.now_at}", f.name) from None
        if out is None or isinstance(out, Order):
            return out
        return self._check(name, fight, f, out)

    def _check(self, name: str, fight: Fight[Any], f: Fighter, out: object) -> Order:
        """What a designer's policy declared, checked as a referee's answer is (once per combatant and entry)."""
        from affray.drive.questions import AnswerError, check_declaration  # the one check of a declaration

        if isinstance(out, Declaration):
            key = (f.name, repr(out))
        elif isinstance(out, Mapping):
            out = dict(out)
            key = (f.name, repr(sorted(out.items(), key=lambda kv: str(kv[0]))))
        else:
            raise PolicyError(f"{fight.encounter_file}: policy {name}: declared {_short(repr(out))} for {f.name} at "
                              f"{fight.now_at}: return a Declaration, one plan entry as a mapping "
                              "({'melee': 'Orc 1'}), or None", f.name)
        order = self.checked.get(key)
        if order is None:
            try:
                order = order_of(check_declaration(fight, f, out))
            except AnswerError as exc:
                raise PolicyError(f"{fight.encounter_file}: policy {name}: declared {_short(repr(out))} for {f.name} "
                                  f"at {fight.now_at}: {_short(exc)}", f.name) from None
            self.checked[key] = order
        return order


def _short(value: object, most: int = 300) -> str:
    """A value a policy gave, in words of at most ``most`` characters (a refused 10 MB text is not echoed whole)."""
    text = str(value)
    return text if len(text) <= most else f"{text[:most]}... ({len(text):,} characters)"


def _bounded(fn: PolicyFunction, fight: Fight[Any], f: Fighter, seconds: float,
             said: str) -> Declaration | Mapping[str, Any] | None:
    """``fn(fight, f)`` on a thread of its own, given ``seconds``: past them PolicyError (the caller asks the
    combatant instead). A thread cannot be stopped: one that never returns is left to run on, and its answer, if
    it ever comes, is dropped; the fight is rebuilt without it."""
    import threading

    told: dict[str, Any] = {}

    def call() -> None:
        try:
            told["out"] = fn(fight, f)
        except BaseException as exc:
            told["exc"] = exc

    thread = threading.Thread(target=call, name=f"affray-policy-{f.name}"[:60], daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise PolicyError(f"{said}: did not answer within {seconds:g} s (limit) choosing for {f.name} at "
                          f"{fight.now_at}", f.name)
    if "exc" in told:
        raise told["exc"]
    return told.get("out")


# -- the parts of a policy --------------------------------------------------------------------------------
def enemies(fight: Fight[Any], me: Fighter) -> list[Fighter]:
    """Every enemy of ``me`` still in the fight, in file order."""
    return [g for g in fight.state.order if g.side != me.side and g.active]


def allies(fight: Fight[Any], me: Fighter) -> list[Fighter]:
    """Every ally of ``me`` still in the fight (``me`` not among them), in file order."""
    return [g for g in fight.state.sides[me.side] if g is not me and g.active]


def _shoot(auto: Auto, fight: Fight[Any], f: Fighter, weapon: Arms, focus: bool = False) -> Order | None:
    """A shot at a foe not in melee (a shot into a melee may strike anyone in it, MJ-16), the first in file order
    (``focus``: one casting now, else the one with the fewest hit points); all in melee, the first."""
    best: Fighter | None = None
    first: Fighter | None = None
    for g in fight.state.order:
        if g.side == f.side or not g.active or fight.why_not(f, _attack(weapon.name, g.name, True)) is not None:
            continue  # the one validator: a henchman never shoots into a melee (MJ-16), a foe out of range...
        if first is None:
            first = g
        if focus:
            if best is None or (g.casting is not None, -g.hp) > (best.casting is not None, -best.hp):
                best = g
        elif not g.engaged:
            best = g
            break
    target = best if best is not None else first
    if target is None:
        return None
    auto.unclaim(f, fight)
    return _attack(weapon.name, target.name, True)


def _weight(condition: str) -> float:
    """How much of a foe a condition takes out of the fight (G-09, ``engine.conditions``): all of it if it cannot
    act, can only flee or will not attack (charmed); half if it cannot attack; a quarter otherwise."""
    if condition == "charmed":
        return 1.0
    e = effect_of(condition)
    if not e.acts or e.flees:
        return 1.0
    return 0.5 if not e.attacks else 0.25


def _out(g: Fighter) -> bool:
    """Already out of the fight for a while: holding a condition under which it does nothing (G-09)."""
    if not g.conditions:
        return False
    for name in g.conditions:
        e = effect_of(name)
        if not e.acts or e.flees:
            return True
    return False


def _spell_value(auto: Auto, fight: Fight[Any], f: Fighter, spell: Spell) -> tuple[float, str | None]:
    """What ``spell`` is worth now, in enemy hit points, and at whom (a combatant or a side):

    - a condition (``effect``): each foe it would take (not above ``max_hd``, not already out) is worth its hit
      points times ``_weight``, times its chance to fail a save (d20 below its save) when the effect allows one;
      aimed at the enemy side when it would take two or more (the engine applies it to each member), else at
      the one foe;
    - damage alone: the mean damage, no more than the foe's hit points, at the foe where that is most;
    - neither (the file does not say what it does): ``UNKNOWN_SPELL`` a level, at the foe ``f`` would strike."""
    effect = spell.effect
    damage = spell.damage
    if effect is None and damage is None:
        target = auto.melee_target(fight, f)
        return (UNKNOWN_SPELL * max(1, spell.level), target.name) if target is not None else (0.0, None)
    mean = _mean(damage) if damage is not None else 0.0
    best = 0.0
    best_at: str | None = None
    by_side: dict[str, float] = {}
    takes: dict[str, int] = {}
    for g in fight.state.order:
        if g.side == f.side or not g.active:
            continue
        value = min(mean, float(g.hp)) if mean else 0.0
        if effect is not None and not _out(g) and effect.condition not in g.conditions and (
                effect.max_hd is None or hit_dice(g) <= effect.max_hd):
            chance = min(1.0, max(0.0, (g.save - 1) / 20)) if effect.save else 1.0
            taken = _weight(effect.condition) * g.hp * chance
            if taken > 0:
                value += taken
                by_side[g.side] = by_side.get(g.side, 0.0) + taken
                takes[g.side] = takes.get(g.side, 0) + 1
        if value > best:
            best, best_at = value, g.name
    if spell.area == 1:  # one target (``area: 1``, command, hold person's one): never a whole side
        return best, best_at
    for side, total in by_side.items():  # the whole side, when the effect would take two or more of it
        if takes[side] >= 2 and total > best:
            best, best_at = total, side
    return best, best_at


def _cast(auto: Auto, fight: Fight[Any], f: Fighter, eager: bool) -> Order | None:
    """The spell worth most now (the first listed among equals), if it can be paid for and is worth something;
    unless ``eager``, only if it is worth at least ``f``'s own blow at the foe it would strike."""
    kit = auto.kit(f)
    best = 0.0
    choice: tuple[str, str] | None = None
    for spell in kit.spells:
        if cast_refusal(fight, f, spell) is not None:  # the one validator: paid for, and allowed now
            continue
        value, at = _spell_value(auto, fight, f, spell)
        if at is not None and value > best and fight.why_not(f, _decl(cast=spell.name, at=at)) is None:
            best, choice = value, (spell.name, at)
    if choice is None:
        return None
    if not eager:
        target = auto.melee_target(fight, f)
        if target is not None and best < kit.blow * _hit_chance(f, target):
            return None
    auto.unclaim(f, fight)
    return _decl(cast=choice[0], at=choice[1])


def _step_back(auto: Auto, fight: Fight[Any], f: Fighter) -> Order:
    auto.unclaim(f, fight)
    return _decl(move=WITHDRAW_FEET, mode="withdraw")


def _ranged(auto: Auto, fight: Fight[Any], f: Fighter) -> Order | None:
    """Out of melee and keeping out: a spell, else a shot, else nothing (it waits)."""
    decl = _cast(auto, fight, f, eager=True) if auto.kit(f).spells else None
    if decl is None and auto.kit(f).throw is not None:
        weapon = auto.kit(f).throw
        assert weapon is not None
        decl = _shoot(auto, fight, f, weapon)
    if decl is None:
        auto.unclaim(f, fight)
        decl = _decl(none=True)
    return decl


def _play(auto: Auto, fight: Fight[Any], f: Fighter, back: float = BADLY_WOUNDED, eager: bool = False,
          focus: bool = False, archer: bool = False) -> Order | None:
    """What every built-in policy but ``plain`` does around its own twist: at ``back`` of its hit points or less,
    while an ally fights on, out of melee (or casting and shooting from there); otherwise cast (``eager``: whatever
    its blow is worth), shoot while nobody is in melee with it (``archer``: thrown weapons too), or strike
    (``focus``: the foe with the fewest hit points). The hot path of every --auto fight: the kit read once."""
    kit = auto.kit(f)
    if f.hp <= kit.hp * back and auto.covered(fight, f, back):
        return _step_back(auto, fight, f) if f.engaged else _ranged(auto, fight, f)
    if kit.spells:
        decl = _cast(auto, fight, f, eager)
        if decl is not None:
            return decl
    shot = kit.throw if archer else kit.shot
    if shot is not None and not f.engaged:
        if fight.state.placed:  # a bow keeps its range: a foe about to close is stepped away from first
            foe = nearest_foe(fight.state, f)
            if foe is not None and f.pos is not None and foe.pos is not None and apart(f.pos, foe.pos) <= KEEP_FEET \
                    and auto.covered(fight, f, 0.0):
                auto.unclaim(f, fight)
                return _decl(move=f.mv * 10 // 2, mode="half", away=foe.name)
        decl = _shoot(auto, fight, f, shot, focus)
        if decl is not None:
            return decl
    target = auto.melee_target(fight, f, focus)
    if target is None or fight.why_not(f, _attack(kit.melee.name, target.name, False)) is not None:
        auto.unclaim(f, fight)
        return None
    auto.claim(f, target, fight)
    return _attack(kit.melee.name, target.name, False)


def _default(auto: Auto, fight: Fight[Any], f: Fighter) -> Order | None:
    return _play(auto, fight, f)


def _caster(auto: Auto, fight: Fight[Any], f: Fighter) -> Order | None:
    return _play(auto, fight, f, BADLY_WOUNDED, True)


def _archer(auto: Auto, fight: Fight[Any], f: Fighter) -> Order | None:
    if auto.kit(f).throw is not None and f.engaged and auto.covered(fight, f, BADLY_WOUNDED):
        return _step_back(auto, fight, f)  # out of melee, to shoot again
    return _play(auto, fight, f, BADLY_WOUNDED, False, False, True)


def _cautious(auto: Auto, fight: Fight[Any], f: Fighter) -> Order | None:
    if f.hp <= auto.kit(f).hp * BADLY_WOUNDED:
        auto.unclaim(f, fight)
        return _decl(move=f.mv * 10, mode="flee")
    return _play(auto, fight, f, WOUNDED)


def _tactical(auto: Auto, fight: Fight[Any], f: Fighter) -> Order | None:
    return _play(auto, fight, f, BADLY_WOUNDED, False, True)


def _plain(auto: Auto, fight: Fight[Any], f: Fighter) -> Order | None:
    """The default of affray before issue 28: an engaged enemy (the first in file order), else the first living
    enemy, with the first weapon; a missile weapon first in the list shoots at a foe ``f`` is not engaged with."""
    fighters = fight.state.fighters
    target: Fighter | None = None
    for n in f.engaged:  # a loop: sorted() with a key and next() over a generator are generic calls when compiled
        g = fighters[n]
        if g.active and (target is None or g.index < target.index):
            target = g
    if target is None:
        target = fight.state.first_foe(f.side)  # a cursor over the file order: no scan of the fallen
        if target is None:
            return None
    weapon = f.weapons[0]
    missile = (weapon.kind == "missile" and target.name not in f.engaged
               and fight.why_not(f, _attack(weapon.name, target.name, True)) is None)
    if not missile:
        weapon = auto.kit(f).melee
    return _attack(weapon.name, target.name, missile)


POLICIES: dict[str, Policy] = {p.name: p for p in (
    Policy("default", "as a sensible table plays: the badly hurt (a quarter of their hit points or less) step back "
           "out of melee while an ally fights on; casters cast the spell worth most now (a sleep at the enemy "
           "side when it would take two or more, a damage spell at the foe it hurts most) when it beats their "
           "own blow; a bow, crossbow or sling shoots while nobody is in melee with its bearer; the rest keep to "
           "their foe, else take the one fewest of their side are on, at most six around a man-sized foe and "
           "eight around a larger (MJ-18)", _default),
    Policy("plain", "attack an engaged enemy, else the first living enemy in file order, with the first weapon (a "
           "missile weapon first in the list shoots when not engaged with its target); casts nothing: affray's "
           "default before it played like a table", _plain),
    Policy("caster", "as default, but a caster casts while it has a spell worth anything, even when its blow is "
           "worth more", _caster),
    Policy("archer", "as default, but shoots with any missile or thrown weapon it carries, and steps back out of "
           "melee to shoot again while an ally fights on", _archer),
    Policy("cautious", "as default, but withdraws from melee at half its hit points while an ally fights on, and "
           "flees the fight at a quarter", _cautious),
    Policy("tactical", "as default, but concentrates: strikes the foe with the fewest hit points it can reach "
           "(at most six around a man-sized foe), and shoots at a foe casting a spell first", _tactical),
)}


def find_policy(name: str) -> Policy:
    """The built-in policy called ``name``; ValueError listing the valid ones otherwise."""
    policy = POLICIES.get(name)
    if policy is None:
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}")
    return policy


def _auto_of(fight: Fight[Any]) -> Auto:
    """The fight's own ``Auto`` (its ``policy``), or a new one kept nowhere (a fight made with another policy)."""
    policy = fight.policy
    return policy if isinstance(policy, Auto) else Auto()


def play(name: str, fight: Fight[Any], me: Fighter) -> Declaration | Order | None:
    """What the built-in policy ``name`` declares for ``me`` now: a designer's policy falls back on it."""
    auto = _auto_of(fight)
    auto.sync(fight)
    return find_policy(name).choose(auto, fight, me)


def choose(fight: Fight[Any], f: Fighter) -> Declaration | Order | None:
    """``f``'s declaration under ``--auto`` by its policy (None: nothing to do), as the fight's ``Auto`` would
    choose it."""
    return _auto_of(fight)(fight, f)


# -- a designer's policy ----------------------------------------------------------------------------------
_LOADED: dict[str, PolicyFunction] = {}


def _standard(top: str) -> bool:
    """Whether the top-level module ``top`` is Python's own: named so (``sys.stdlib_module_names``), or found in the
    standard library's folder outside its site-packages (its ``test`` suite, ``idlelib``..., which that list
    leaves out), found without importing it."""
    if top in sys.stdlib_module_names:
        return True
    import importlib.util
    import site
    import sysconfig

    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    origin = getattr(spec, "origin", None) or next(iter(getattr(spec, "submodule_search_locations", None) or []), None)
    if not origin:
        return False
    where = os.path.realpath(origin)
    paths = sysconfig.get_paths()
    sites = {os.path.realpath(p) for p in (paths["purelib"], paths["platlib"], *site.getsitepackages())}
    library = {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib")}
    return any(where.startswith(lib + os.sep) for lib in library) and not any(
        where.startswith(s + os.sep) for s in sites)


def load_policy(ref: str) -> PolicyFunction:  # noqa: C901
    """The designer's policy ``ref``: ``module:function`` (the module found as Python finds it, the current
    directory first) or the name of an entry point of the group ``affray.policies``. PolicyError says why not."""
    fn = _LOADED.get(ref)
    if fn is not None:
        return fn
    if len(ref) > MAX_NAME:
        raise PolicyError(f"unknown policy {_short(repr(ref), 60)}: a policy's name is at most {MAX_NAME} characters "
                          "(limit)")
    module, sep, attr = ref.partition(":")
    if sep and _standard(module.split(".")[0]):  # nothing of the library's, its test suite included
        raise PolicyError(f"policy {ref}: {module!r} is a module of Python's standard library, not a designer's "
                          "policy (name your own module:function)")
    if sep:
        where = f"module:function {ref!r}"
        if "" not in sys.path and os.getcwd() not in sys.path:  # as `python -m` does: the current directory
            sys.path.insert(0, os.getcwd())
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            raise PolicyError(f"policy {ref}: no module named {exc.name!r} (a designer's policy is "
                              f"module:function, the module importable from the current directory or an "
                              f"installed package)") from None
        except Exception as exc:
            raise PolicyError(f"policy {ref}: importing {module!r} failed: {type(exc).__name__}: {exc}") from None
        found = getattr(mod, attr, None)
        if found is None:
            names = sorted(n for n in vars(mod) if not n.startswith("_") and callable(getattr(mod, n)))
            raise PolicyError(f"policy {ref}: module {module!r} has no {attr!r} (its functions: "
                              f"{', '.join(names) or 'none'})")
    else:
        from affray.extensions.registry import ExtensionError, entry

        where = f"entry point {ref!r} of group {POLICY_GROUP}"
        point = entry("policy", ref)
        if point is None:
            raise PolicyError(f"unknown policy {ref!r}: no built-in policy ({', '.join(POLICIES)}), and no "
                              f"installed package registers it (entry point group {POLICY_GROUP})")
        try:
            found = point.load()
        except ExtensionError as exc:
            raise PolicyError(f"policy {ref}: {exc}") from None
    if not callable(found):
        raise PolicyError(f"policy {ref}: the {where} is {type(found).__name__}, not a function (fight, me) -> "
                          "declaration")
    _LOADED[ref] = found
    return found  # type: ignore[no-any-return]
