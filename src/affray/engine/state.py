"""The state of a fight, changed only by applying events (STYLE.md 4: the log is the truth)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple, NoReturn, Protocol

from mypy_extensions import mypyc_attr

from affray.engine.events import (
    Cast,
    CastStart,
    Condition,
    Damage,
    Declare,
    Declarer,
    Down,
    Effect,
    Event,
    Expire,
    Heal,
    Impossible,
    Initiative,
    Join,
    Leave,
    Melee,
    Missile,
    Morale,
    Move,
    Place,
    Replan,
    SpellLost,
    SpellRuined,
    Surprise,
    Surrender,
    Tick,
    Wound,
)
from affray.model.arms import Arms, arms_of
from affray.model.derive import attacks_per_round, hd_value, save_vs_spell, thac0_for
from affray.model.encounter import Combatant, Encounter, Spell, Weapon, expand
from affray.model.order import Order, order_of
from affray.model.place import closing_feet, in_reach, placed, placements

__all__ = ["NEXT_STRIKE", "NOBODY", "NO_CONDITIONS", "UNARMED", "FightState", "Fighter", "FinalState", "Held",
           "Memorized", "PoolFactory", "SpellPool"]

#: Conditions that end with the bearer's next attack (C2X-04 severe and critical misses).
NEXT_STRIKE = ("slowed", "off-balance")


class Held(NamedTuple):
    """A condition from its ``condition`` event: held from ``since`` to before ``until``, the moment ``words`` name;
    set ``by`` whom under ``rule``; ``amount`` (an SF penalty, C2X-04); ``attack``/``damage``: the dice entered for
    a free attack it grants (C2X-03)."""

    since: Tick
    until: Tick
    amount: int = 0
    attack: int | None = None
    damage: int | None = None
    words: str = ""
    by: str | None = None
    rule: str = "G-09"


@mypyc_attr(native_class=False)  # a subclass of dict: a plain class in the compiled build
class _Sealed(dict[str, Held]):
    """An empty dict that cannot be filled (the compiled build's dict operations call these on a subclass too)."""

    def __setitem__(self, *args: Any) -> NoReturn:
        raise _sealed()

    def __delitem__(self, *args: Any) -> NoReturn:
        raise _sealed()

    def __ior__(self, *args: Any) -> NoReturn:  # type: ignore[misc]
        raise _sealed()

    def clear(self) -> NoReturn:
        raise _sealed()

    def pop(self, *args: Any) -> NoReturn:
        raise _sealed()

    def popitem(self) -> NoReturn:
        raise _sealed()

    def setdefault(self, *args: Any) -> NoReturn:
        raise _sealed()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise _sealed()


def _sealed() -> TypeError:
    return TypeError("a fighter's conditions change only through FightState.apply")


#: Nobody engaged and no condition held: what every fighter has until ``FightState.apply`` gives it its own set
#: (at its first engagement, kept after) or dict (from a condition to its last one lifted). Most fighters hold none
#: most of the time, and an empty set and dict of their own were two more cache lines read at every action: in a
#: large fight, misses. Both read-only; the conditions a dict all the same, so that their readers, many and on
#: every attack, stay the compiled build's own dict operations.
NOBODY: frozenset[str] = frozenset()
NO_CONDITIONS: dict[str, Held] = _Sealed()

#: What a combatant with no weapon listed strikes with (G-02 natural attack).
UNARMED = arms_of(Weapon.model_validate({"name": "unarmed", "sf": 1, "damage": "1d2"}))


class SpellPool(Protocol):
    """What pays for a combatant's spells: memorised copies, or a plug-in's mana or slots (C2X-06/08)."""

    def can_cast(self, spell: Spell) -> str | None:
        """Why ``spell`` cannot be paid for now, or None."""

    def pay(self, spell: Spell) -> None:
        """A spell cast or lost: its copy, its points or its slot is gone."""

    def final(self) -> dict[str, Any]:
        """What the final state reports of the pool (nothing for memorised spells)."""

    def snapshot(self) -> dict[str, Any]:
        """Everything the pool holds, to compare two states."""


class Memorized:
    """The rule of the spell lists: each memorised copy is cast once (G-03)."""

    __slots__ = ("left",)

    def __init__(self, spec: Combatant) -> None:
        self.left: dict[str, int] = {s.name: s.count - s.cast for s in spec.spells}

    def can_cast(self, spell: Spell) -> str | None:
        return None if self.left.get(spell.name, 0) > 0 else f"{spell.name} is no longer memorised"

    def pay(self, spell: Spell) -> None:
        self.left[spell.name] -= 1

    def final(self) -> dict[str, Any]:
        return {}

    def snapshot(self) -> dict[str, Any]:
        return {"memorized": dict(self.left)}


#: A pool for each combatant at the start (and for one who joins mid-fight).
PoolFactory = Callable[[Combatant], SpellPool]


class Derived:
    """What a combatant's spec gives at the start of every fight (its THAC0, save, attacks per round, weapons,
    spells and shield): worked out once per encounter and attack scheme (``FightState``), not once per fight."""

    __slots__ = ("attacks", "damage_bonus", "declare", "dex", "hd", "klass", "level", "load", "mounted", "mv", "policy",
                 "routine", "save", "shield", "size", "spells", "thac0", "weapons")

    def __init__(self, spec: Combatant, attack_scheme: str | None) -> None:
        self.thac0: int = spec.thac0 if spec.thac0 is not None else thac0_for(spec.klass, spec.level, spec.hd)
        #: The d20 roll that saves it against a spell (2e PH Table 60, or the file's ``save``).
        self.save: int = spec.save if spec.save is not None else save_vs_spell(spec.klass, spec.level, spec.hd)
        if spec.attacks is not None:
            rate = spec.attacks
        elif attack_scheme is not None:
            rate = attacks_per_round(spec.klass, spec.level, scheme=attack_scheme, specialist=spec.specialist)
        else:
            rate = Fraction(1)
        #: Attacks per round: a whole number as an int (the common case, and much cheaper to count with).
        self.attacks: Fraction | int = rate.numerator if rate.denominator == 1 else rate
        self.weapons: tuple[Arms, ...] = tuple(arms_of(w) for w in spec.weapons) or (UNARMED,)
        #: A monster's routine (claw, claw, bite: 2e MM, OSE): its melee forms when it lists several and as many
        #: attacks, each attack of a round with its own form in turn; () otherwise.
        forms = tuple(w for w in self.weapons if not w.is_missile)
        self.routine: tuple[Arms, ...] = forms if (spec.klass == "monster" and len(forms) > 1
                                                   and self.attacks == len(forms)) else ()
        self.spells: Mapping[str, Spell] = MappingProxyType({s.name: s for s in spec.spells})
        self.shield: str | None = ("magic" if spec.shield == "magic" else "rowan" if spec.shield == "rowan"
                                   else "plain" if spec.shield else None)
        # Read on every step or attack (a spec's fields are a pydantic model's: slow to read from compiled code).
        self.mv: int = spec.mv
        self.size: str = spec.size
        self.mounted: bool = spec.mounted
        self.policy: str | None = spec.policy
        self.declare: str | None = spec.declare
        self.klass: str = spec.klass
        self.hd: float | None = hd_value(spec.hd) if spec.hd is not None else None
        self.level: int | None = spec.level
        self.dex: int = spec.dex
        self.damage_bonus: int = spec.damage_bonus
        self.load: int | None = spec.load


class Fighter:
    """A combatant during the fight. Its spec is immutable; the rest changes only through ``FightState.apply``
    (but ``memo``, its ruleset's own record)."""

    __slots__ = ("ac", "active", "aoo_round", "attacks", "casting", "casts", "conditions", "current",
                 "damage_bonus", "declared", "declares", "dex", "down", "engaged", "fled", "hd", "hp", "index", "klass",
                 "level", "load", "memo", "mounted", "mv", "name", "pc", "plan", "plan_pos", "policy", "pool", "pos",
                 "remaining", "routed", "routine", "save", "shield", "shots", "side", "size", "spec", "spells",
                 "subdual", "thac0", "unconscious", "weapons")

    def __init__(self, name: str, side: str, index: int, spec: Combatant, pc: bool,
                 plan: tuple[Order, ...], attack_scheme: str | None, pool: SpellPool,
                 derived: Derived | None = None) -> None:
        d = derived if derived is not None else Derived(spec, attack_scheme)
        self.name = name
        self.side = side
        self.index = index
        self.spec = spec
        self.pc = pc
        self.hp = spec.hp
        self.ac = spec.ac
        self.thac0 = d.thac0
        self.save = d.save
        self.attacks = d.attacks
        self.weapons = d.weapons
        self.routine = d.routine
        self.spells = d.spells
        self.pool = pool
        self.casts: dict[str, int] = {}  # spells that took effect, by name, whatever paid for them
        self.shield = d.shield
        self.mv = d.mv  # the spec's MV, size and mounting, kept here: read on every step or attack
        self.size = d.size
        self.mounted = d.mounted
        self.klass = d.klass  # the spec's class (magic-user read as wizard, a levelled classless one a fighter)
        self.hd = d.hd  # the spec's Hit Dice as a number (3+3 counts 4), None for a character
        self.level = d.level  # and its level, DEX, listed damage bonus and load, as the spec gives them
        self.dex = d.dex
        self.damage_bonus = d.damage_bonus
        self.load = d.load
        #: Its ``policy`` under --auto, else its side's (``FightState`` sets the side's); None: the default.
        self.policy = d.policy
        #: Who answers its declarations once its plan is used up: "ask", "auto" or "repeat" (CONTRACT "Who
        #: declares"); its own, else its side's (``FightState`` sets it), else "ask".
        self.declares: str = d.declare or "ask"
        self.plan = plan
        self.plan_pos = 0
        #: What the ruleset keeps of this fighter in this fight (a record of its own making; None until made).
        self.memo: object = None
        self.current: Order | None = None  # an action that spans several declaration points
        self.remaining = 0  # feet still to close for ``current``
        self.declared: Order | None = None  # this declaration point's action
        self.down = False
        self.active = True  # still in the fight: neither down nor gone (kept by FightState.apply)
        self.unconscious = False
        self.fled = False
        self.routed = False
        self.subdual = 0
        self.engaged: Set[str] = NOBODY  # read-only: FightState.apply gives it its own set
        self.casting: str | None = None
        self.aoo_round = -1
        #: Timed conditions (C2X-03/04: dazed, stunned, prone, slowed...) by name. A condition holds at ticks
        #: from its ``since`` to before its ``until``; "next strike" ones also end with the next attack.
        self.conditions: dict[str, Held] = NO_CONDITIONS  # its own dict from its first condition
        #: Where it stands, in feet, in a fight that places its combatants (else None).
        self.pos: tuple[int, int] | None = None
        #: Shots made by weapon name (counted against a weapon's ``ammo``); None until its first.
        self.shots: dict[str, int] | None = None

    @property
    def reach(self) -> int:
        """The longest reach of its melee weapons (5 ft unarmed)."""
        return max((w.reach for w in self.weapons if not w.is_missile), default=5)

    def ammo_left(self, weapon: Arms) -> int | None:
        """Shots left of ``weapon`` (its ``ammo`` less those made in this fight); None when uncounted."""
        ammo = weapon.ammo
        if ammo is None:
            return None
        return max(0, ammo - (self.shots or {}).get(weapon.name, 0))

    def weapon(self, name: str | None, missile: bool = False) -> Arms:
        """The named weapon, else the first of the right kind, else the first."""
        if name is not None:
            for w in self.weapons:
                if w.name == name:
                    return w
        for w in self.weapons:
            if (w.kind != "melee") == missile or (missile and w.kind == "thrown"):
                return w
        return self.weapons[0]

    def form(self, name: str | None, k: int) -> Arms:
        """The weapon of its ``k``-th melee attack of a round (0: the first): a monster's routine's ``k``-th form
        (claw, claw, bite) when it names none of its other weapons, else the one named, else its first melee
        weapon."""
        routine = self.routine
        if routine and self.in_routine(name):
            return routine[k % len(routine)]
        return self.weapon(name)

    def in_routine(self, name: str | None) -> bool:
        """Whether an attack naming weapon ``name`` (None: none) strikes its routine: a monster's listed attacks are
        its round (2e MM, OSE), whichever of its forms is named; a weapon outside them strikes alone."""
        if not self.routine:
            return False
        return name is None or any(w.name == name for w in self.routine)

    def can_cast(self, spell: Spell) -> str | None:
        """Why ``spell`` cannot be paid for now (memorised copy, mana, slot: C2X-06/08), or None."""
        return self.pool.can_cast(spell)

    def snapshot(self) -> dict[str, Any]:
        return {"side": self.side, "hp": self.hp, "down": self.down, "fled": self.fled,
                "unconscious": self.unconscious, "engaged": sorted(self.engaged), "casting": self.casting,
                "pool": self.pool.snapshot(), "shield": self.shield, "conditions": dict(self.conditions),
                "plan": self.plan[self.plan_pos:], "pos": self.pos, "shots": self.shots}

    def __repr__(self) -> str:
        return f"Fighter({self.name!r}, hp={self.hp})"


@dataclass(frozen=True)
class FinalState:
    combatants: dict[str, dict[str, Any]]
    winner: str | None


#: An encounter's combatants as every fight of it starts them: (name, side, spec, pc, plan, derived), file order.
Roster = tuple[tuple[str, str, Combatant, bool, tuple[Order, ...], Derived], ...]
#: The last encounters' rosters, by (id, attack scheme); each entry holds its encounter, so the id stays its own.
_ROSTERS: dict[tuple[int, str | None], tuple[Encounter, Roster]] = {}
_ROSTERS_KEPT = 16


def _roster(encounter: Encounter, attack_scheme: str | None) -> Roster:
    """The combatants of ``encounter`` (``count`` expanded), worked out once for the many fights of a simulation
    or a benchmark: an encounter is not changed once loaded (a combatant joins a fight by an event)."""
    key = (id(encounter), attack_scheme)
    hit = _ROSTERS.get(key)
    if hit is not None and hit[0] is encounter:
        return hit[1]
    derived: dict[int, Derived] = {}
    entries = []
    for name, side, spec, _loc in expand(encounter):
        d = derived.get(id(spec))
        if d is None:
            d = derived[id(spec)] = Derived(spec, attack_scheme)
        # a henchman on the PCs' side is not a player character: it checks morale (MJ-02)
        pc = spec.pc if spec.pc is not None else encounter.sides[side].pc and not spec.henchman
        entries.append((name, side, spec, pc, tuple(order_of(p) for p in encounter.plan.get(name, ())), d))
    roster = tuple(entries)
    if len(_ROSTERS) >= _ROSTERS_KEPT:
        del _ROSTERS[next(iter(_ROSTERS))]
    _ROSTERS[key] = (encounter, roster)
    return roster


def _engage(f: Fighter, name: str) -> None:
    """``f`` is in melee with ``name``: its first foe gives it a set of its own."""
    engaged = f.engaged
    if isinstance(engaged, set):
        engaged.add(name)
    else:
        f.engaged = {name}


def _lift(f: Fighter, condition: str) -> None:
    """``f`` no longer holds ``condition``; its last one leaves it the shared empty dict."""
    held = f.conditions
    if condition in held:  # so never the shared empty one
        del held[condition]
        if not held:
            f.conditions = NO_CONDITIONS


class FightState:
    """Every fighter, in file order, and the morale checks made; ``apply`` is the only mutator."""

    def __init__(self, encounter: Encounter, attack_scheme: str | None, pools: PoolFactory = Memorized) -> None:
        self.attack_scheme = attack_scheme
        self.pools = pools
        self.fighters: dict[str, Fighter] = {}
        self.sides: dict[str, list[Fighter]] = {s: [] for s in encounter.sides}
        self._side_policy = {s: side.policy for s, side in encounter.sides.items()}
        self._side_declare: dict[str, str | None] = {s: side.declare for s, side in encounter.sides.items()}
        for i, (name, side, spec, pc, plan, derived) in enumerate(_roster(encounter, attack_scheme)):
            f = Fighter(name, side, i, spec, pc, plan, attack_scheme, pools(spec), derived)
            f.policy = f.policy or self._side_policy[side]
            f.declares = derived.declare or self._side_declare[side] or "ask"
            self.fighters[name] = f
            self.sides[side].append(f)
        self._pc_sides = [s for s, side in encounter.sides.items() if side.pc]
        #: The PCs' sides first, then the others, each in file order (who declares first in MJ-03, SEG-04).
        self.pcs_first: list[Fighter] = self._pcs_first()
        #: The sides not of PCs first, then the PCs', each in file order (who checks morale first, G-07).
        self.sides_monsters_first: list[str] = [s for s in self.sides if s not in self._pc_sides] + self._pc_sides
        self.active_left: dict[str, int] = {s: len(m) for s, m in self.sides.items()}
        #: How many sides have someone still active (the fight is over at one or none): kept with ``active_left``.
        self.standing = sum(1 for n in self.active_left.values() if n > 0)
        #: Who is out of the fight (fell, fled, surrendered), in the order they went: whoever keeps records by
        #: fighter reads the newly out from where it last looked, without looking at everyone.
        self.gone: list[Fighter] = []
        self.morale_done: set[tuple[str, str]] = set()
        #: Every fighter in file order, and per side where the first enemy still active may be (``first_foe``).
        self.order: list[Fighter] = list(self.fighters.values())
        self._foe_at: dict[str, int] = {}
        #: Fighters whose hit points went down since the engine last looked for the fallen (G-05), and any who
        #: start at 0 or less: only they can have fallen (``Fight._deaths``).
        self.hurt: set[Fighter] = {f for f in self.order if f.hp <= 0}
        self.ranks: dict[str, int] = {}  # side -> place in this declaration point's order (1 = first)
        self.surprised: frozenset[str] = frozenset()
        self.surprisers: frozenset[str] = frozenset()
        #: Whether the fight places its combatants (CONTRACT "Where everyone stands"): then each has a ``pos``.
        self.placed = placed(encounter)
        if self.placed:
            for name, point, _loc in placements(encounter):
                self.fighters[name].pos = point

    def _pcs_first(self) -> list[Fighter]:
        pc_sides = self._pc_sides
        return [f for s in pc_sides for f in self.sides[s]] + [
            f for s in self.sides if s not in pc_sides for f in self.sides[s]]

    # -- the fold -------------------------------------------------------------------------------------
    def apply(self, e: Event) -> None:  # noqa: C901
        # isinstance, not ``match``: the compiled build checks a native class's type by pointer (a class pattern is
        # Python's generic isinstance, ~150 instructions a case); a narrowed event's fields are read directly.
        fs = self.fighters
        if isinstance(e, Declare):
            f = fs[e.actor]  # type: ignore[index]
            decl = e.order
            f.declared = decl
            if e.consumed:
                if f.plan_pos >= len(f.plan) and decl is not None:  # answered when asked: the plan grows, by the
                    said = e.decl  # declaration as said (an attack on a side stays on the side: the fight's order is
                    f.plan = (*f.plan, decl if said is None or said is decl.source else order_of(said))  # a member)
                f.plan_pos += 1
            if not e.continuing:
                f.current = decl
                f.remaining = e.remaining or 0
            elif self.placed and e.remaining is not None:  # an approach goes on: the feet left, from where they stand
                f.remaining = e.remaining
        elif isinstance(e, Melee):
            self._attack(e)
        elif isinstance(e, Move):
            f = fs[e.actor]  # type: ignore[index]
            if not e.stopped:
                f.remaining = max(0, f.remaining - e.feet)
                if e.disengage:
                    self._disengage(f)
                if e.leaves:
                    self._leave(f)
            if e.to is not None:
                self._moved(f, e.to)
        elif isinstance(e, Place):
            if e.to is not None:
                self._moved(fs[e.actor], e.to)  # type: ignore[index]
        elif isinstance(e, Wound):
            wounded = fs[e.target]  # type: ignore[index]
            wounded.hp -= e.damage
            self.hurt.add(wounded)
            if e.subdual:
                wounded.subdual += e.damage
        elif isinstance(e, Condition):  # G-09
            f = fs[e.target]  # type: ignore[index]
            if e.end is None:
                _lift(f, e.condition)
            else:
                held = f.conditions if f.conditions is not NO_CONDITIONS else {}
                f.conditions = held
                held[e.condition] = Held(tuple(e.since) if e.since is not None else e.tick, tuple(e.end),
                                         e.amount, e.attack, e.free_damage, e.until or "", e.actor, e.rule or "G-09")
        elif isinstance(e, Expire) and e.condition is not None:  # a condition ends (G-08)
            _lift(fs[e.target], e.condition)  # type: ignore[index]
        elif isinstance(e, Down):
            f = fs[e.actor]  # type: ignore[index]
            if f.active:
                self._out(f)
            f.down = True
            f.active = False
            f.unconscious = e.unconscious
            f.casting = None
            self._disengage(f)
        elif isinstance(e, CastStart):
            fs[e.actor].casting = e.spell  # type: ignore[index]
        elif isinstance(e, Cast):
            f = fs[e.actor]  # type: ignore[index]
            f.casting = None
            spell = e.spell
            if spell is not None:
                f.pool.pay(f.spells[spell])
                f.casts[spell] = f.casts.get(spell, 0) + 1
            for name, dmg in e.effects.items():
                fs[name].hp -= dmg
                self.hurt.add(fs[name])
            for name in e.splinter:
                self._splinter(fs[name])
            for name, amount in e.healed.items():
                fs[name].hp += amount
        elif isinstance(e, Effect):  # a spell's delayed damage (heat metal, PC-12) or effect (SEG-10)
            for name, dmg in e.effects.items():
                fs[name].hp -= dmg
                self.hurt.add(fs[name])
            for name in e.splinter:
                self._splinter(fs[name])
        elif isinstance(e, SpellRuined):
            f = fs[e.actor]  # type: ignore[index]
            f.casting = None
            if isinstance(e, SpellLost) and e.spell is not None:
                f.pool.pay(f.spells[e.spell])
        elif isinstance(e, Impossible):
            if e.ends:  # the declaration ends with its refused action: no approach left to continue
                f = fs[e.actor]  # type: ignore[index]
                f.current = None
                f.remaining = 0
        elif isinstance(e, (Surrender, Leave)):
            self._leave(fs[e.actor])  # type: ignore[index]
        elif isinstance(e, Morale):
            if e.passed and e.rally:  # rallied: shaken or broken members fight on
                for name in e.members:
                    fs[name].routed = False
            if not e.passed:
                for name in e.members:
                    fs[name].routed = True
                    if e.surrender:
                        self._leave(fs[name])
            for trigger in e.triggers:
                self.morale_done.add((e.side or "", trigger))
        elif isinstance(e, Damage):  # the referee's hand: hp changed outside any action
            fs[e.target].hp -= e.damage or 0  # type: ignore[index]
            self.hurt.add(fs[e.target])  # type: ignore[index]
        elif isinstance(e, Heal):
            fs[e.target].hp += e.amount  # type: ignore[index]
        elif isinstance(e, Join):  # a combatant the referee adds mid-fight
            assert e.actor is not None and e.spec is not None
            self._join(e.actor, e.side, e.spec, tuple(order_of(p) for p in e.plan))
        elif isinstance(e, Replan):  # the referee replaces a combatant's declarations still to come
            f = fs[e.actor]  # type: ignore[index]
            f.plan = f.plan[:f.plan_pos] + tuple(order_of(p) for p in e.plan)
        elif isinstance(e, Declarer):  # the referee changes who declares for a side or a combatant
            if e.who in self._side_declare:
                self._side_declare[e.who] = e.mode
            for name in e.members:
                fs[name].declares = e.mode
        elif isinstance(e, Initiative):
            self.ranks = dict(e.ranks)
        elif isinstance(e, Surprise):
            self.surprised = frozenset(e.surprised)
            self.surprisers = frozenset(e.surprisers)
        # the rest changes nothing of the state (misc, wait, delay, expire, checks...)

    def _attack(self, e: Melee) -> None:  # noqa: C901
        fs = self.fighters
        target = fs[e.target] if e.target is not None else None
        actor = fs[e.actor] if e.actor is not None else None
        if target is not None:
            if e.damage and e.lands is None:  # a later "wound" event brings it
                target.hp -= e.damage
                self.hurt.add(target)
                if e.subdual:
                    target.subdual += e.damage
            if e.splinter:
                self._splinter(target)
            if isinstance(e, Missile) and actor is not None and e.weapon is not None:
                shots = actor.shots if actor.shots is not None else {}
                actor.shots = shots
                shots[e.weapon] = shots.get(e.weapon, 0) + 1
            if actor is not None and not isinstance(e, Missile) and target is not actor:
                _engage(actor, target.name)
                _engage(target, actor.name)
        if actor is not None:
            if e.opportunity:
                actor.aoo_round = e.round if e.round is not None else e.tick[0]
            if actor.conditions:
                for name in NEXT_STRIKE:  # C2X-04: these last only until the next attack
                    _lift(actor, name)

    def _join(self, name: str, side: str, spec: Combatant, plan: tuple[Order, ...]) -> None:
        pc = spec.pc if spec.pc is not None else side in self._pc_sides and not spec.henchman
        f = Fighter(name, side, len(self.fighters), spec, pc, plan, self.attack_scheme, self.pools(spec))
        if self.placed:
            f.pos = spec.at if spec.at is not None else (0, 0)
        f.policy = f.policy or self._side_policy[side]
        f.declares = spec.declare or self._side_declare[side] or "ask"
        self.fighters[name] = f
        self.order.append(f)
        if f.hp <= 0:
            self.hurt.add(f)
        self.sides[side].append(f)
        if self.active_left[side] == 0:
            self.standing += 1
        self.active_left[side] += 1
        self.pcs_first = self._pcs_first()

    def _splinter(self, f: Fighter) -> None:
        """A shield given up to take a blow or an effect: a magic one only loses its magic the first time; any
        other is gone, AC 1 worse."""
        if f.shield == "magic":
            f.shield = "plain-spent"
        else:
            f.shield = None
            f.ac += 1

    def _out(self, f: Fighter) -> None:
        """``f``, active until now, is out of the fight."""
        side = f.side
        left = self.active_left[side] - 1
        self.active_left[side] = left
        self.gone.append(f)
        if left == 0:
            self.standing -= 1

    def _leave(self, f: Fighter) -> None:
        if f.active:
            self._out(f)
        f.fled = True
        f.active = False
        self._disengage(f)

    def _moved(self, f: Fighter, to: tuple[int, int]) -> None:
        """``f`` stands at ``to`` now: engagements out of reach end, and an approach still going on has the feet
        left from there (one ended stays ended: a charge that struck and ran on past)."""
        f.pos = to
        self._reach_kept(f)
        current = f.current
        goal = self.fighters.get(current.melee or "") if current is not None else None
        if f.remaining and current is not None and goal is not None and goal.pos is not None:
            f.remaining = closing_feet(to, goal.pos, f.weapon(current.weapon).reach)

    def _reach_kept(self, f: Fighter) -> None:
        """``f`` moved: an engagement ends with each foe now out of both their reaches (CONTRACT "Where everyone
        stands": moving out of reach ends an engagement)."""
        if not f.engaged or f.pos is None:
            return
        for other in sorted(f.engaged):
            g = self.fighters[other]
            if g.pos is not None and not in_reach(f.pos, g.pos, max(f.reach, g.reach)):
                mine = f.engaged
                if isinstance(mine, set):
                    mine.discard(other)
                engaged = g.engaged
                if isinstance(engaged, set):
                    engaged.discard(f.name)

    def _disengage(self, f: Fighter) -> None:
        for other in f.engaged:
            engaged = self.fighters[other].engaged
            if isinstance(engaged, set):
                engaged.discard(f.name)
        if isinstance(f.engaged, set):
            f.engaged.clear()  # kept for its next engagement (a set made and dropped each time cost more)

    # -- reading ----------------------------------------------------------------------------------------
    def first_foe(self, side: str) -> Fighter | None:
        """The first fighter in file order not of ``side`` and still active. One who is not active never is
        again and a side's members never change sides, so the search goes on from where it last stopped: over a
        fight, each side passes each fighter once."""
        order = self.order
        i = start = self._foe_at.get(side, 0)
        while i < len(order) and (order[i].side == side or not order[i].active):
            i += 1
        if i != start:  # most often the same foe as last time: no new int stored
            self._foe_at[side] = i
        return order[i] if i < len(order) else None

    def standing_sides(self) -> list[str]:
        return [s for s, n in self.active_left.items() if n > 0]

    def final(self) -> FinalState:
        standing = self.standing_sides()
        combatants = {}
        for f in self.fighters.values():
            entry: dict[str, Any] = {"side": f.side, "hp": f.hp, "down": f.down}
            if f.fled:
                entry["fled"] = True
            if f.unconscious:
                entry["unconscious"] = True
            entry.update(f.pool.final())
            if f.pos is not None:
                entry["at"] = list(f.pos)
            combatants[f.name] = entry
        return FinalState(combatants, standing[0] if len(standing) == 1 else None)

    @classmethod
    def fold(cls, encounter: Encounter, attack_scheme: str | None, events: Iterable[Event],
             pools: PoolFactory = Memorized) -> FightState:
        """The state reached by applying ``events`` to the encounter's start."""
        state = cls(encounter, attack_scheme, pools)
        for e in events:
            state.apply(e)
        return state
