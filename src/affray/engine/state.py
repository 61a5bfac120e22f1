"""The state of a fight, changed only by applying events (STYLE.md 4: the log is the truth)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from affray.engine.events import Event, Tick
from affray.mana import starting_pool
from affray.model.derive import attacks_per_round, thac0_for
from affray.model.encounter import Combatant, Declaration, Encounter, Spell, Weapon

__all__ = ["NEXT_STRIKE", "UNARMED", "Condition", "FightState", "Fighter", "FinalState"]

#: Conditions that end with the bearer's next attack (C2X-04 severe and critical misses).
NEXT_STRIKE = ("slowed", "off-balance")


class Condition(NamedTuple):
    """A timed condition (C2X-03/04) from its ``condition`` event: held from ``since`` to before ``until``;
    ``amount`` (an SF penalty); ``attack``/``damage``: the dice entered for a free attack it grants."""

    since: Tick
    until: Tick
    amount: int = 0
    attack: int | None = None
    damage: int | None = None

#: What a combatant with no weapon listed strikes with (G-02 natural attack).
UNARMED = Weapon.model_validate({"name": "unarmed", "sf": 1, "damage": "1d2"})


class Fighter:
    """A combatant during the fight. Its spec is immutable; the rest changes only through ``FightState.apply``."""

    __slots__ = ("ac", "active", "aoo_round", "attacks", "casting", "casts", "conditions", "current", "declared",
                 "down", "engaged", "fled", "highest", "hp", "index", "mana", "memorized", "name", "pc", "plan",
                 "plan_pos", "remaining", "routed", "shield", "side", "slots", "spec", "spells", "subdual", "thac0",
                 "unconscious", "weapons")

    def __init__(self, name: str, side: str, index: int, spec: Combatant, pc: bool,
                 plan: tuple[Declaration, ...], attack_scheme: str | None, spells: str = "memorized",
                 mana_table: str = "seed", starting_mana: str = "base") -> None:
        self.name = name
        self.side = side
        self.index = index
        self.spec = spec
        self.pc = pc
        self.hp = spec.hp
        self.ac = spec.ac
        self.thac0 = spec.thac0 if spec.thac0 is not None else thac0_for(spec.klass, spec.level, spec.hd)
        if spec.attacks is not None:
            self.attacks = spec.attacks
        elif attack_scheme is not None:
            self.attacks = attacks_per_round(spec.klass, spec.level, scheme=attack_scheme,
                                             specialist=spec.specialist)
        else:
            self.attacks = Fraction(1)
        self.weapons: tuple[Weapon, ...] = spec.weapons or (UNARMED,)
        self.spells: dict[str, Spell] = {s.name: s for s in spec.spells}
        self.memorized: dict[str, int] = {s.name: s.count for s in spec.spells}
        self.casts: dict[str, int] = {}  # spells that took effect, by name, whatever paid for them
        #: C2X-06/08: spell points or slots by spell level left (option ``spells``), None when memorised
        self.mana: int | None = None
        self.slots: dict[int, int] | None = None
        self.highest = 9  # the highest spell level castable from the pool (C2X-06)
        if spells != "memorized" and spec.spells:
            self.mana, self.slots, self.highest = starting_pool(spec, spells, mana_table, starting_mana)
        self.shield: str | None = ("magic" if spec.shield == "magic" else "rowan" if spec.shield == "rowan"
                                   else "plain" if spec.shield else None)
        self.plan = plan
        self.plan_pos = 0
        self.current: Declaration | None = None  # an action that spans several declaration points
        self.remaining = 0  # feet still to close for ``current``
        self.declared: Declaration | None = None  # this declaration point's action
        self.down = False
        self.active = True  # still in the fight: neither down nor gone (kept by FightState.apply)
        self.unconscious = False
        self.fled = False
        self.routed = False
        self.subdual = 0
        self.engaged: set[str] = set()
        self.casting: str | None = None
        self.aoo_round = -1
        #: Timed conditions (C2X-03/04: dazed, stunned, prone, slowed...) by name. A condition holds at ticks
        #: from its ``since`` to before its ``until``; "next strike" ones also end with the next attack.
        self.conditions: dict[str, Condition] = {}

    def weapon(self, name: str | None, missile: bool = False) -> Weapon:
        """The named weapon, else the first of the right kind, else the first."""
        if name is not None:
            for w in self.weapons:
                if w.name == name:
                    return w
        for w in self.weapons:
            if (w.kind != "melee") == missile or (missile and w.kind == "thrown"):
                return w
        return self.weapons[0]

    def snapshot(self) -> dict[str, Any]:
        return {"side": self.side, "hp": self.hp, "down": self.down, "fled": self.fled,
                "unconscious": self.unconscious, "engaged": sorted(self.engaged), "casting": self.casting,
                "memorized": dict(self.memorized), "shield": self.shield, "mana": self.mana,
                "slots": dict(self.slots) if self.slots is not None else None, "conditions": dict(self.conditions)}

    def can_cast(self, spell: Spell) -> str | None:
        """Why ``spell`` cannot be paid for now (memorised copy, mana, slot: C2X-06/08), or None."""
        if self.mana is not None:
            if spell.level > self.highest:
                return (f"{spell.name} (level {spell.level}) is above the highest level castable, {self.highest} "
                        "(C2X-06)")
            if self.mana < spell.level:
                return f"{self.mana} mana left, {spell.name} costs {spell.level} (C2X-06)"
            return None
        if self.slots is not None:
            if spell.level and self.slots.get(spell.level, 0) <= 0:
                return f"no level {spell.level} slot left for {spell.name} (C2X-08)"
            return None
        return None if self.memorized.get(spell.name, 0) > 0 else f"{spell.name} is no longer memorised"

    def pay(self, spell: Spell) -> None:
        """A spell cast or lost: its copy, its points or its slot is gone."""
        if self.mana is not None:
            self.mana -= spell.level
        elif self.slots is not None:
            if spell.level:
                self.slots[spell.level] -= 1
        else:
            self.memorized[spell.name] -= 1

    def __repr__(self) -> str:
        return f"Fighter({self.name!r}, hp={self.hp})"


@dataclass(frozen=True)
class FinalState:
    combatants: dict[str, dict[str, Any]]
    winner: str | None


class FightState:
    """Every fighter, in file order, and the morale checks made; ``apply`` is the only mutator."""

    def __init__(self, encounter: Encounter, attack_scheme: str | None, *, spells: str = "memorized",
                 mana_table: str = "seed", starting_mana: str = "base") -> None:
        from affray.io.load import expand

        self.attack_scheme = attack_scheme
        self.fighters: dict[str, Fighter] = {}
        self.sides: dict[str, list[Fighter]] = {s: [] for s in encounter.sides}
        for i, (name, side, spec, _loc) in enumerate(expand(encounter)):
            # a henchman on the PCs' side is not a player character: it checks morale (MJ-02)
            pc = spec.pc if spec.pc is not None else encounter.sides[side].pc and not spec.henchman
            f = Fighter(name, side, i, spec, pc, encounter.plan.get(name, ()), attack_scheme, spells, mana_table,
                        starting_mana)
            self.fighters[name] = f
            self.sides[side].append(f)
        self._pc_sides = [s for s, side in encounter.sides.items() if side.pc]
        #: The PCs' sides first, then the others, each in file order (who declares first in MJ-03, SEG-04).
        self.pcs_first: list[Fighter] = self._pcs_first()
        self.active_left: dict[str, int] = {s: len(m) for s, m in self.sides.items()}
        self.morale_done: set[tuple[str, str]] = set()
        self.ranks: dict[str, int] = {}  # side -> place in this declaration point's order (1 = first)
        self.surprised: frozenset[str] = frozenset()
        self.surprisers: frozenset[str] = frozenset()

    def _pcs_first(self) -> list[Fighter]:
        pc_sides = self._pc_sides
        return [f for s in pc_sides for f in self.sides[s]] + [
            f for s in self.sides if s not in pc_sides for f in self.sides[s]]

    # -- the fold -------------------------------------------------------------------------------------
    def apply(self, e: Event) -> None:
        kind = e.kind
        fs = self.fighters
        if kind == "declare":
            f = fs[e.actor]  # type: ignore[index]
            data = e.data
            f.declared = decl = data["decl"]
            if data.get("consumed"):
                f.plan_pos += 1
            if not data.get("continuing"):
                f.current = decl
                f.remaining = data.get("remaining", 0)
        elif kind == "wound":
            wounded = fs[e.target]  # type: ignore[index]
            wounded.hp -= e.damage or 0
            if e.get("subdual"):
                wounded.subdual += e.damage or 0
        elif kind in ("melee", "missile"):
            target = fs[e.target] if e.target is not None else None
            if target is not None:
                if e.damage and not e.get("lands"):  # a later "wound" event brings it
                    target.hp -= e.damage
                    if e.get("subdual"):
                        target.subdual += e.damage
                if e.get("splinter"):
                    self._splinter(target)
                if kind == "melee" and e.actor is not None and target.name != e.actor:
                    fs[e.actor].engaged.add(target.name)
                    target.engaged.add(e.actor)
            if e.opportunity and e.actor is not None:
                fs[e.actor].aoo_round = e.round if e.round is not None else e.tick[0]
            if e.actor is not None and fs[e.actor].conditions:
                for name in NEXT_STRIKE:  # C2X-04: these last only until the next attack
                    fs[e.actor].conditions.pop(name, None)
        elif kind == "condition":  # C2X-03/04: a timed condition starts (or, with until null, ends)
            f = fs[e.actor]  # type: ignore[index]
            until = e.get("until")
            if until is None:
                f.conditions.pop(e.get("condition"), None)
            else:
                since = e.get("since")
                f.conditions[e.get("condition")] = Condition(tuple(since) if since is not None else e.tick,
                                                             tuple(until), int(e.get("amount", 0)),
                                                             e.get("attack"), e.get("damage"))
        elif kind == "down":
            f = fs[e.actor]  # type: ignore[index]
            if f.active:
                self.active_left[f.side] -= 1
            f.down = True
            f.active = False
            f.unconscious = bool(e.get("unconscious"))
            f.casting = None
            self._disengage(f)
        elif kind == "cast-start":
            fs[e.actor].casting = e.spell  # type: ignore[index]
        elif kind == "cast":
            f = fs[e.actor]  # type: ignore[index]
            f.casting = None
            if e.spell is not None:
                f.pay(f.spells[e.spell])
                f.casts[e.spell] = f.casts.get(e.spell, 0) + 1
            for name, dmg in e.get("effects", {}).items():
                fs[name].hp -= dmg
            for name in e.get("splinter", ()):
                self._splinter(fs[name])
        elif kind == "effect":  # a ruleset's delayed damage (heat metal, PC-12)
            for name, dmg in e.get("effects", {}).items():
                fs[name].hp -= dmg
        elif kind in ("spell-ruined", "spell-lost"):
            f = fs[e.actor]  # type: ignore[index]
            f.casting = None
            if kind == "spell-lost" and e.spell is not None:
                f.pay(f.spells[e.spell])
        elif kind == "move":
            f = fs[e.actor]  # type: ignore[index]
            if not e.get("stopped"):
                f.remaining = max(0, f.remaining - int(e.get("feet", 0)))
                if e.get("disengage"):
                    self._disengage(f)
                if e.get("leaves"):
                    self._leave(f)
        elif kind == "surrender":
            self._leave(fs[e.actor])  # type: ignore[index]
        elif kind == "morale":
            if e.passed and e.get("rally"):  # rallied: shaken or broken members fight on
                for name in e.get("members", ()):
                    fs[name].routed = False
            if not e.passed:
                for name in e.get("members", ()):
                    fs[name].routed = True
                    if e.get("surrender"):
                        self._leave(fs[name])
            for trigger in e.get("triggers", ()):
                self.morale_done.add((e.get("side"), trigger))
        elif kind in ("damage", "heal"):  # the referee's hand (the console): hp changed outside any action
            f = fs[e.target]  # type: ignore[index]
            f.hp += -(e.damage or 0) if kind == "damage" else int(e.get("amount", 0))
        elif kind == "join":  # a combatant the referee adds mid-fight
            self._join(e.actor, e.get("side"), e.get("spec"), tuple(e.get("plan", ())))  # type: ignore[arg-type]
        elif kind == "leave":  # the referee takes a combatant out of the fight
            self._leave(fs[e.actor])  # type: ignore[index]
        elif kind == "replan":  # the referee replaces a combatant's declarations still to come
            f = fs[e.actor]  # type: ignore[index]
            f.plan = f.plan[:f.plan_pos] + tuple(e.get("plan", ()))
        elif kind == "initiative":
            self.ranks = dict(e.get("ranks", {}))
        elif kind == "surprise":
            self.surprised = frozenset(e.get("surprised", ()))
            self.surprisers = frozenset(e.get("surprisers", ()))

    def _join(self, name: str, side: str, spec: Combatant, plan: tuple[Declaration, ...]) -> None:
        pc = spec.pc if spec.pc is not None else side in self._pc_sides and not spec.henchman
        f = Fighter(name, side, len(self.fighters), spec, pc, plan, self.attack_scheme)
        self.fighters[name] = f
        self.sides[side].append(f)
        self.active_left[side] += 1
        self.pcs_first = self._pcs_first()

    def _splinter(self, f: Fighter) -> None:
        """MJ-19: a magic shield given up the first time is only non-magical; otherwise it is gone, AC 1 worse."""
        if f.shield == "magic":
            f.shield = "plain-spent"
        else:
            f.shield = None
            f.ac += 1

    def _leave(self, f: Fighter) -> None:
        if f.active:
            self.active_left[f.side] -= 1
        f.fled = True
        f.active = False
        self._disengage(f)

    def _disengage(self, f: Fighter) -> None:
        for other in f.engaged:
            self.fighters[other].engaged.discard(f.name)
        f.engaged.clear()

    # -- reading ----------------------------------------------------------------------------------------
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
            if f.mana is not None:
                entry["mana"] = f.mana
            if f.slots is not None:
                entry["slots"] = {str(k): v for k, v in f.slots.items()}
            combatants[f.name] = entry
        return FinalState(combatants, standing[0] if len(standing) == 1 else None)

    @classmethod
    def fold(cls, encounter: Encounter, attack_scheme: str | None, events: Iterable[Event], *,
             spells: str = "memorized", mana_table: str = "seed", starting_mana: str = "base") -> FightState:
        """The state reached by applying ``events`` to the encounter's start."""
        state = cls(encounter, attack_scheme, spells=spells, mana_table=mana_table, starting_mana=starting_mana)
        for e in events:
            state.apply(e)
        return state
