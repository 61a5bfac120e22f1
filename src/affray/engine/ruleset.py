"""The ruleset base class: metadata as ClassVars, then the hooks the engine calls (STYLE.md 1-2).

Base hooks do the common thing; a ruleset overrides only what its seed changes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from affray.abilities import strength_mods
from affray.crits import check_dice, condition_mods
from affray.engine.events import Tick
from affray.errors import OptionError, Problem
from affray.limits import MAX_OPTION
from affray.model.derive import dex_defense_adjustment
from affray.model.encounter import Combatant, Declaration, Dice, Spell, Weapon

if TYPE_CHECKING:
    from affray.engine.engine import Fight
    from affray.engine.state import Fighter
    from affray.io.load import Loaded

__all__ = ["AttackMods", "Option", "Ruleset", "Step", "morale_options"]


@dataclass(frozen=True)
class Option:
    """A ruleset option: every Decision of RULES.md is one, with the digest's default."""

    name: str
    default: Any
    rule: str
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None  # for a whole number: the least value allowed

    def parse(self, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise OptionError(f"option {self.name}: {value!r} is not allowed; choose one of "
                                  f"{', '.join(map(str, self.choices))}")
            return value
        expected = type(self.default)
        if expected is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name}: {value!r} is not allowed; use true or false")
        elif expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {self.name}: {value!r} is not allowed; use a whole number")
        if expected is int and self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name}: {value!r} is not allowed; use a whole number of at least "
                              f"{self.minimum}")
        if expected is int and abs(value) > MAX_OPTION:  # a segment or phase count: past it, work without end
            raise OptionError(f"option {self.name}: {value!r} is not allowed; at most {MAX_OPTION} either way (limit)")
        return value

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "default": self.default, "rule": self.rule, "doc": self.doc}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        return out


def morale_options(dice: str, score: int) -> tuple[Option, Option]:
    """G-07: the morale dice (``2d6`` or ``2d10``) and the default score of a ruleset, as its two options."""
    other = "2d10" if dice == "2d6" else "2d6"
    return (Option("morale_dice", dice, "G-07", "dice rolled against the morale score; above it fails",
                   (dice, other)),
            Option("default_morale", score, "G-07", "morale score of a side when neither it nor its members give "
                   "one", minimum=2))


@dataclass(slots=True)
class Step:
    """One timed piece of a declaration: the engine resolves steps in tick order."""

    tick: Tick
    actor: Fighter
    kind: str  # melee, missile, cast, cast-start, move, misc, wait, delay
    at: str = ""
    why: str = ""
    decl: Declaration | None = None
    target: str | None = None
    weapon: Weapon | None = None
    spell: Spell | None = None
    index: int = 0  # which attack of the declaration: picks its outcome and dice
    feet: int = 0
    mode: str | None = None
    tags: frozenset[str] = frozenset()  # ruleset facts about the step ("charge", "set", "lance-first")
    note: str = ""
    counter: Step | None = None  # a readied strike that lands just before this step (a set spear)
    amount: int = 0  # a "wound" step: the damage that lands then (Ruleset.lands)
    cancelled: bool = False  # withdrawn by its ruleset after it was pushed: the engine skips it silently


class AttackMods:
    """What a ruleset adds to one attack (G-04): sums, and each term with its reason for the detail text."""

    __slots__ = ("ac", "damage", "dice_times", "hit", "notes", "subdual")

    def __init__(self) -> None:
        self.hit = 0
        self.ac = 0  # added to the target's AC (+ is worse)
        self.damage = 0
        self.dice_times = 1
        self.subdual = False
        self.notes: list[tuple[str, int, str]] = []

    def add(self, what: str, n: int, why: str) -> None:
        """``what`` is "hit", "ac" or "damage"."""
        if what == "hit":
            self.hit += n
        elif what == "ac":
            self.ac += n
        else:
            self.damage += n
        self.notes.append((what, n, why))

    def text(self, what: str) -> str:
        return "".join(f" {n:+d} ({why})" for w, n, why in self.notes if w == what)


#: A declaration of the file's plan: the actor, its combatant, the declaration and its field path.
Planned = tuple[str, Combatant, Declaration, tuple[Any, ...]]

_DEFAULTS: dict[tuple[str, str, bool], Declaration] = {}


class Ruleset:
    """Base of every ruleset. Subclasses set the ClassVars and override the hooks their seed changes."""

    id: ClassVar[str]
    title: ClassVar[str]
    seed: ClassVar[str]
    rules: ClassVar[str] = ""  # the RULES.md prefix, e.g. "MJ"
    options: ClassVar[tuple[Option, ...]] = (
        Option("natural_20", True, "G-04", "a natural 20 always hits and a natural 1 always misses"),
        Option("morale_failure", "flee", "G-07", "what a failed morale check does", ("flee", "surrender")),
        # Combat II's supplemental rules, options under every ruleset (seed 000 sections 4-5)
        Option("crits", "none", "C2X-03", "critical hits and misses: none, the d10 tables (C2X-03) or the severity "
               "rules (C2X-04)", ("none", "c2-tables", "c2-severity")),
        Option("crit_phase", "phase", "C2X-03", "the \"phase\" the critical tables' timed effects count: the "
               "ruleset's phase (phase_end; a round where it has no phases) or whole rounds", ("phase", "round")),
        Option("agility", False, "C2X-01", "AGI split from DEX: AGI gives the AC bonus and the initiative "
               "adjustment, DEX the missile adjustment and (Combat II) lowers weapon SF; AGI checks use AGI"),
        Option("strength", "file", "C2X-04", "to-hit and damage from STR, specialization slots and DEX for "
               "missiles: file (already in the file's THAC0 and damage), 2e (PH tables) or c2 (under II: "
               "STR damage less its to-hit, +1 to hit a slot, C2X-05)", ("file", "2e", "c2")),
        Option("creature_bonus", "full", "C2X-04", "a creature's listed damage bonus: full on every hit, or half "
               "(down) to hit and the rest as damage", ("full", "split")),
        Option("spells", "memorized", "C2X-06", "how casters pay for spells: memorized (a cast or lost spell is "
               "gone), mana (points from the table, a spell costs its level, C2X-06) or slots (per spell level, "
               "any known spell, C2X-08)", ("memorized", "mana", "slots")),
        Option("mana_table", "seed", "C2X-06", "the mana of rangers and paladins: the table as printed (seed) or "
               "the sum of the PH progression (formula)", ("seed", "formula")),
        Option("starting_mana", "base", "C2X-06", "a low-level caster's pool: the table (base), CON/3 up when "
               "larger (con), CON/3 added (con-added), or the same with the average of CON and the prime "
               "requisite (prime, prime-added)", ("base", "con", "con-added", "prime", "prime-added")),
    )
    #: Declaration keys this ruleset reads beyond CONTRACT.md's, with what they mean.
    declaration_keys: ClassVar[dict[str, str]] = {}
    initiative_die: ClassVar[int] = 6
    surprise_die: ClassVar[int] = 6
    action_die: ClassVar[int | None] = None  # a declaration's own ``roll`` (phase-count's d6)
    attack_scheme: ClassVar[str | None] = None  # attacks per round by class/level: "1e", "2e" or none
    has_rounds: ClassVar[bool] = True  # the tick's first element is the round; else ``round`` is null
    #: Whether an opportunity attack that does damage stops the mover.
    opportunity_stops: ClassVar[bool] = False
    #: Step kinds the ruleset resolves itself (``resolve``), even when the actor is no longer active.
    own_kinds: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.opt: dict[str, Any] = {o.name: o.default for o in self.all_options()}
        for name, value in (options or {}).items():
            self.opt[name] = self.option(name).parse(value)

    @classmethod
    def all_options(cls) -> tuple[Option, ...]:
        """Every option, a subclass's replacing the base's of the same name."""
        seen: dict[str, Option] = {}
        for klass in reversed(cls.__mro__):
            for o in vars(klass).get("options", ()):
                seen[o.name] = o
        return tuple(seen.values())

    @classmethod
    def option(cls, name: str) -> Option:
        for o in cls.all_options():
            if o.name == name:
                return o
        valid = ", ".join(o.name for o in cls.all_options())
        raise OptionError(f"unknown option {name!r} for ruleset {cls.id}; valid options: {valid}")

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {"id": cls.id, "title": cls.title, "seed": cls.seed,
                "options": [o.describe() for o in cls.all_options()],
                "declaration_keys": dict(cls.declaration_keys)}

    # -- checks a file must pass under this ruleset -----------------------------------------------------
    @classmethod
    def check(cls, loaded: Loaded) -> Iterator[Problem]:
        """Ruleset-dependent problems: options, declaration keys, dice out of range for their die."""
        enc = loaded.encounter
        for name, value in enc.options.items():
            try:
                cls.option(name).parse(value)
            except OptionError as exc:
                yield loaded.problem(("options", name), str(exc))
        for side, value in enc.rolls.surprise.items():
            if not 1 <= value <= cls.surprise_die:
                yield loaded.problem(("rolls", "surprise", side),
                                     f"{value} is not a d{cls.surprise_die} result (1-{cls.surprise_die})")
        for rnd, by_side in enc.rolls.initiative.items():
            for side, value in by_side.items():
                if not 1 <= value <= cls.initiative_die:
                    yield loaded.problem(("rolls", "initiative", str(rnd), side),
                                         f"{value} is not a d{cls.initiative_die} result (1-{cls.initiative_die})")
        morale = cls.option("morale_dice").default if any(o.name == "morale_dice" for o in cls.all_options()) \
            else "2d6"
        morale = enc.options.get("morale_dice", morale)
        lo, hi = (2, 20) if morale == "2d10" else (2, 12)
        for rnd, by_side in enc.rolls.morale.items():
            for side, value in by_side.items():
                if side not in enc.sides:
                    continue  # the loader reports it
                if not lo <= value <= hi:
                    yield loaded.problem(("rolls", "morale", str(rnd), side),
                                         f"{value} is not a {morale} total ({lo}-{hi})")
        from affray.io.load import expand

        specs = {name: c for name, _side, c, _loc in expand(enc)}
        for actor, decls in enc.plan.items():
            spec = specs.get(actor)
            for i, d in enumerate(decls):
                loc = ("plan", actor, i)
                for key in d.extra:
                    if key not in cls.declaration_keys:
                        allowed = ", ".join(cls.declaration_keys) or "none"
                        yield loaded.problem(loc + (key,), f"unknown declaration key {key!r} for ruleset "
                                             f"{cls.id} (its own keys: {allowed})")
                if d.roll is not None:
                    die = cls.action_die
                    if die is None:
                        yield loaded.problem(loc + ("roll",), f"ruleset {cls.id} rolls no die per action")
                    elif not 1 <= d.roll <= die:
                        yield loaded.problem(loc + ("roll",), f"{d.roll} is not a d{die} result (1-{die})")
                if spec is not None and d.action in ("melee", "missile"):
                    expr = cls.damage_dice(spec, d)
                    times = cls.dice_times(d)
                    for k, given in enumerate(d.dice_given):
                        where = loc + ("dice", k) if isinstance(d.dice, list) else loc + ("dice",)
                        yield from check_dice(loaded, where, given, expr, times)
                        if given.attack is not None and not 1 <= given.attack <= 20:
                            yield loaded.problem(where + ("attack",), f"{given.attack} is not a d20 result (1-20)")
                        if given.damage is not None:
                            lo, hi = (expr.dice_min * times, expr.dice_max * times) if expr else (1, 2)
                            if not lo <= given.damage <= hi:
                                what = expr.text if expr else "1d2"
                                yield loaded.problem(where + ("damage",), f"{given.damage} cannot be rolled on the "
                                                     f"damage dice of {what}{' thrown twice' if times > 1 else ''}"
                                                     f" ({lo}-{hi})")
        yield from cls.check_more(loaded)

    @staticmethod
    def given(step: Step, key: str) -> int | None:
        """A die of ``key`` entered in the declaration's ``dice`` for this attack (None: roll it)."""
        if step.decl is None:
            return None
        dice = step.decl.dice_given
        return dice[step.index].other(key) if step.index < len(dice) else None

    @staticmethod
    def planned(loaded: Loaded) -> tuple[dict[str, Combatant], list[Planned]]:
        """Every combatant of the file by name, and each declaration of a known combatant with its field path."""
        from affray.io.load import expand

        enc = loaded.encounter
        specs = {name: c for name, _s, c, _l in expand(enc)}
        return specs, [(actor, specs[actor], d, ("plan", actor, i)) for actor, decls in enc.plan.items()
                       if actor in specs for i, d in enumerate(decls)]

    @classmethod
    def check_more(cls, loaded: Loaded) -> Iterator[Problem]:
        """Further checks of a ruleset's own (its seed's restrictions)."""
        return iter(())

    @classmethod
    def damage_dice(cls, spec: Combatant, decl: Declaration) -> Dice | None:
        """The damage dice an attack declaration throws (None: the unarmed 1d2)."""
        weapon = spec.weapon_for(decl.weapon, missile=decl.action == "missile")
        return weapon.damage if weapon is not None else None

    @classmethod
    def dice_times(cls, decl: Declaration) -> int:
        """How many times over a declaration throws its damage dice (a charge: twice, in some seeds)."""
        return 1

    # -- the clock --------------------------------------------------------------------------------------
    def begin(self, fight: Fight, period: int) -> None:
        """Start declaration point ``period``: surprise, morale, declarations, initiative; push the steps."""
        raise NotImplementedError

    @classmethod
    def heading(cls, tick: Tick) -> str | None:
        """A heading of the readable timeline for a ruleset without rounds (None: none)."""
        return None

    def new_memo(self) -> Any:
        """The ruleset's own bookkeeping for one fight (``Fight.memo``); None when it needs none."""
        return None

    def round_of(self, period: int) -> int:
        """The round a declaration point belongs to (``--max-rounds`` counts rounds): one point per round."""
        return period

    def pending(self, fight: Fight) -> bool:
        """Whether the ruleset still has work of its own when no plan is left (an attack owed after closing,
        a spell held into the next round): the fight goes on."""
        return False

    def period_end(self, period: int) -> Tick:
        """Steps with a tick before this one resolve in ``period``."""
        return (period + 1,)

    def end(self, fight: Fight, period: int) -> None:
        """After the period's steps: bookkeeping (morale at step E, durations...)."""

    def phase_end(self, fight: Fight, tick: Tick, later: int = 0) -> Tick:
        """The end of the phase holding ``tick``, ``later`` phases on: timed effects of the critical tables
        (C2X-03/04) last until then. By default a ruleset's period (its declaration point) is its phase:
        Combat II's phases, and a whole round in the rulesets that have no phases."""
        return self.period_end(fight.period + later)

    # -- resolution -------------------------------------------------------------------------------------
    def attack_mods(self, fight: Fight, step: Step, target: Fighter) -> AttackMods:
        """G-04: the weapon's magic bonus; rulesets add their seed's modifiers."""
        mods = AttackMods()
        weapon = step.weapon
        if weapon is not None and weapon.magic:
            mods.add("hit", weapon.magic, "magic weapon")
            mods.add("damage", weapon.magic, "magic weapon")
        if self.opt["strength"] != "file" or step.actor.spec.damage_bonus:
            strength_mods(self.opt, step.actor, weapon if weapon is not None else step.actor.weapons[0], mods)
        if step.actor.conditions or target.conditions:
            condition_mods(fight, step, target, mods)
        return mods

    def resolve_own(self, fight: Fight, step: Step) -> None:
        """Resolve a step of one of ``own_kinds`` (a delayed effect, an expiry), even if its actor has fallen."""
        raise NotImplementedError(step.kind)

    def roll_period(self, fight: Fight, tick: Tick) -> int:
        """The key under which the file's ``rolls.morale`` gives the dice of a check made at ``tick``."""
        return tick[0] if self.has_rounds else fight.period

    def at(self, fight: Fight, tick: Tick) -> str:
        """The ruleset's words for ``tick``, for steps the engine makes itself (a wound landing)."""
        return f"tick {list(tick)}"

    def lands(self, fight: Fight, step: Step, damage: int) -> Tick | None:
        """When ``damage`` done by ``step`` (an attack or a spell) lands, if later than the step: None, at once."""
        return None

    def resolve(self, fight: Fight, step: Step) -> bool:
        """Resolve a step of a kind of the ruleset's own; False leaves it to the engine."""
        return False

    def resolved(self, fight: Fight, step: Step) -> None:
        """After any step resolved (a held action's trigger)."""

    def refuse(self, fight: Fight, step: Step) -> str | None:
        """Why ``step`` cannot happen now (beyond the engine's own checks), or None."""
        return None

    def opportunity(self, fight: Fight, step: Step) -> list[tuple[Fighter, Weapon, str]]:
        """Who gets an attack of opportunity on ``step`` (a move), with what weapon, and why."""
        return []

    def lose_sequence(self, fight: Fight, step: Step) -> None:
        """A critical miss loses the rest of the attack sequence (C2X-03). The ``lost-sequence`` condition
        refuses attacks to the end of the phase; a ruleset whose sequence runs on past it cancels the rest."""

    def provoked(self, fight: Fight, step: Step) -> list[tuple[Fighter, Weapon, str]]:
        """Who gets an attack of opportunity on a step other than a move (firing or casting in reach), with
        what weapon, and why. The engine resolves them before the step, or just after a cast-start."""
        return []

    def took_effect(self, fight: Fight, step: Step) -> None:
        """A spell of ``step`` has just taken effect (its ``cast`` event is in the log): durations start."""

    def interrupt(self, fight: Fight, caster: Fighter, step: Step) -> str | None:
        """Damage reached a caster mid-casting: "spell-ruined", "spell-lost" or None (G-11)."""
        return "spell-ruined"

    def redirect(self, fight: Fight, step: Step, target: Fighter) -> tuple[Fighter | None, str]:
        """After a hit: the one actually struck (cover, firing into melee), None for nobody, and a note."""
        return target, ""

    def absorb(self, fight: Fight, target: Fighter, damage: int, *, magic: bool) -> bool:
        """Whether the target lets something (a shield) take this blow (or magic effect) instead."""
        return False

    def after(self, fight: Fight, tick: Tick) -> None:
        """After the events of one tick and the deaths they caused."""

    def ready(self, fight: Fight, f: Fighter) -> None:
        """``f`` has something new to do mid-fight (it joined, or the referee gave it declarations): rulesets
        that ask for declarations at fixed points do nothing; one that asks only as actions resolve places it."""

    def default_action(self, fight: Fight, f: Fighter) -> Declaration | None:
        """``--auto``: attack an engaged enemy, else the first living enemy in file order, with the first weapon."""
        fighters = fight.state.fighters
        target = None
        if len(f.engaged) == 1:
            (only,) = f.engaged
            target = fighters[only] if fighters[only].active else None
        elif f.engaged:
            target = next((fighters[n] for n in sorted(f.engaged, key=fight.order) if fighters[n].active), None)
        if target is None:
            target = next((g for g in fighters.values() if g.side != f.side and g.active), None)
        if target is None:
            return None
        weapon = f.weapons[0]
        missile = weapon.kind == "missile" and target.name not in f.engaged
        if not missile:
            weapon = next((w for w in f.weapons if w.kind != "missile"), weapon)
        key = (target.name, weapon.name, missile)
        decl = _DEFAULTS.get(key)
        if decl is None:  # declarations are immutable: one per (target, weapon, kind) serves every fight
            decl = _DEFAULTS[key] = (Declaration(missile=target.name, weapon=weapon.name) if missile
                                     else Declaration(melee=target.name, weapon=weapon.name))
        return decl

    # -- shared helpers ---------------------------------------------------------------------------------
    def agility(self, f: Fighter) -> tuple[int, str]:
        """The score for quickness (initiative reaction adjustment, AC bonus, "AGI checks"): AGI under option
        ``agility`` when the combatant has one, else DEX (C2X-01)."""
        if self.opt["agility"] and f.spec.agi is not None:
            return f.spec.agi, "AGI"
        return f.spec.dex, "DEX"

    def morale_due(self, fight: Fight, side: str, *, anyone: bool = False) -> tuple[list[Fighter], tuple[str, ...]]:
        """G-07: who of ``side`` would check (neither PCs nor the routed) and the triggers due: its first casualty
        (``anyone``: the first of any side) and half of it down, each once."""
        state = fight.state
        members = [f for f in state.sides[side] if f.active and not f.pc and not f.routed]
        if not members:
            return [], ()
        total = len(state.sides[side])
        lost = total - state.active_left[side]
        triggers = []
        if (anyone or lost >= 1) and (side, "first casualty") not in state.morale_done:
            triggers.append("first casualty")
        if 2 * lost >= total and (side, "half down") not in state.morale_done:
            triggers.append("half down")
        return members, tuple(triggers)

    def morale_score(self, fight: Fight, side: str, members: list[Fighter]) -> int:
        """G-07: the side's morale, else its members' lowest, else the ruleset's default."""
        score = fight.encounter.sides[side].morale
        if score is None:
            given = [f.spec.morale for f in members if f.spec.morale is not None]
            score = min(given) if given else int(self.opt["default_morale"])
        return score

    @staticmethod
    def losses(fight: Fight, side: str) -> str:
        total = len(fight.state.sides[side])
        return f"{total - fight.state.active_left[side]} of {total} out"

    @staticmethod
    def turn_sides(fight: Fight, turn: int) -> str:
        """The sides whose turn is ``turn`` in this round's order: "orcs", or "party and orcs together"."""
        sides = [s for s, k in fight.state.ranks.items() if k == turn]
        return " and ".join(sides) + (" together" if len(sides) > 1 else "")

    def casualty_morale(self, fight: Fight, tick: Tick, at: str, when: str, rule: str) -> None:
        """G-07: each side not of PCs checks once after its first casualty and once at half down, the
        monsters' sides first; the morale event of the k-th check gets ``tick + (k,)``."""
        state = fight.state
        enc = fight.encounter
        order = [s for s in enc.sides if not enc.sides[s].pc] + [s for s in enc.sides if enc.sides[s].pc]
        anyone = self.opt.get("morale_first_casualty", "own") == "any" and any(
            len(state.sides[s]) > state.active_left[s] for s in enc.sides)
        k = 0
        for side in order:
            members, triggers = self.morale_due(fight, side, anyone=anyone)
            if not triggers:
                continue
            why = (f"{when}: {side} checks morale after its {' and '.join(triggers)} ({self.losses(fight, side)}); "
                   f"PCs never check ({rule}, G-07)")
            fight.morale_check(side, members, self.morale_score(fight, side, members), (*tick, k), at, triggers, why)
            k += 1

    def unshielded_ac(self, f: Fighter, *, dex: bool) -> tuple[int, str]:
        """AC worsening when shield (and DEX bonus, AGI's with the Agility option, if ``dex``) do not count:
        (+n, reason)."""
        worse = 1 if f.shield is not None else 0
        parts = ["shield"] if worse else []
        if dex:
            score, ability = self.agility(f)
            d = dex_defense_adjustment(score)
            if d < 0:
                worse -= d
                parts.append(ability)
        return worse, " and ".join(parts)
