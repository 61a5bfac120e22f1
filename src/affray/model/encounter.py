"""The encounter file as pydantic models (CONTRACT.md "Encounter file"); instances are immutable."""

from __future__ import annotations

import math
import re
import typing
from collections.abc import Iterator
from fractions import Fraction
from functools import cache, cached_property
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationInfo,
    field_validator,
    model_validator,
)

from affray.dice.expr import DiceExpr, parse_dice
from affray.limits import (
    MAX_AREA,
    MAX_ATTACKS,
    MAX_DURATION,
    MAX_FEET,
    MAX_HD,
    MAX_HP,
    MAX_NAME,
    MAX_RATE,
    MAX_RATE_DENOMINATOR,
    MAX_SEED,
    MAX_TEXT,
)

__all__ = [
    "ACTION_KEYS",
    "CLASSES",
    "DECLARE_MODES",
    "MOVE_MODES",
    "SIZES",
    "SPEED_CATEGORIES",
    "SPELL_CONDITIONS",
    "Combatant",
    "Declaration",
    "DeclareMode",
    "Encounter",
    "Point",
    "Rolls",
    "Side",
    "Spell",
    "SpellEffect",
    "Weapon",
    "expand",
    "parse_duration",
]

CLASSES = ("fighter", "paladin", "ranger", "monk", "cleric", "druid", "wizard", "illusionist",
           "thief", "bard", "monster")
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
SPEED_CATEGORIES = ("strikes first", "very fast", "fast", "average", "slow", "very slow", "strikes last")
ACTION_KEYS = ("melee", "missile", "cast", "move", "misc", "wait", "none")
_ACTION_VALUES = {"melee": "the target", "missile": "the target", "cast": "the spell's name", "move": "feet",
                  "misc": "a short text", "wait": "a trigger text or true", "none": "true"}
MOVE_MODES = ("full", "half", "shift", "step", "withdraw", "retreat", "flee")

Dice = Annotated[DiceExpr, BeforeValidator(parse_dice), PlainSerializer(str)]


def _name(value: str) -> str:
    """A name is one line of at most MAX_NAME characters, not blank (it is how the plan and the referee say who)."""
    if not value.strip():
        raise ValueError("a name cannot be blank")
    if len(value) > MAX_NAME:
        raise ValueError(f"a name of {len(value)} characters: at most {MAX_NAME} (limit)")
    return value


def _text(value: str) -> str:
    if len(value) > MAX_TEXT:
        raise ValueError(f"a text of {len(value)} characters: at most {MAX_TEXT} (limit)")
    return value


Name = Annotated[str, AfterValidator(_name)]
#: A place on the plane of the fight, in feet: ``[x, y]`` (CONTRACT "Where everyone stands").
Point = tuple[Annotated[int, Field(ge=-MAX_FEET, le=MAX_FEET)], Annotated[int, Field(ge=-MAX_FEET, le=MAX_FEET)]]
Modifier = Annotated[int, Field(ge=-MAX_DURATION, le=MAX_DURATION)]
Text = Annotated[str, AfterValidator(_text)]


def _rate(value: object, what: str, most: int) -> Fraction:
    """Attacks or fire rate: 1, 2, "3/2", 1.5; positive, at most ``most``, in halves, thirds or quarters."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise ValueError(f"not a {what}: use a number such as 1, 2 or 3/2")
    try:
        text = str(value).strip() if isinstance(value, (int, float, str)) else ""
        rate = Fraction(text) if 0 < len(text) <= 20 else None
    except (ValueError, ZeroDivisionError):
        rate = None
    if rate is None or rate <= 0:
        raise ValueError(f"not a {what}: {value!r} (use a positive number such as 1, 2, 3/2 or 5/2)")
    if rate > most:
        raise ValueError(f"{what} {value}: at most {most} (limit)")
    if rate.denominator > MAX_RATE_DENOMINATOR:
        raise ValueError(f"{what} {value}: a whole number or a fraction in halves, thirds or quarters "
                         "(1/2, 3/2, 4/3, 5/4...)")
    return rate


Rate = Annotated[Fraction, BeforeValidator(lambda v: _rate(v, "fire rate", MAX_RATE)), PlainSerializer(str)]
Attacks = Annotated[Fraction, BeforeValidator(lambda v: _rate(v, "number of attacks", MAX_ATTACKS)),
                    PlainSerializer(str)]


def _kinds(annotation: Any) -> set[Any]:
    """The types an annotation's unions and aliases come down to (a container counts as itself)."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (dict, tuple, list) or not args:
        return {annotation}
    return set().union(*(_kinds(a) for a in args)) if typing.get_origin(annotation) is not Literal else {str}


@cache
def _numbers_only(model: type[BaseModel], field: str) -> bool:
    """Whether ``field`` takes a number and never true/false (pydantic would read true as 1). Worked out once per
    field, by a function of the module's (a recursive inner one made a reference cycle: garbage when a fight
    first built a declaration with a true or false in it, with the collector paused)."""
    info = model.model_fields.get(field)
    if info is None:
        return False
    found = _kinds(info.annotation)
    return bool(found & {int, float}) and bool not in found


class _Checked(BaseModel):
    """Every model of the file: ``true`` is not a number, a float is finite."""

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, bool) and info.field_name is not None and _numbers_only(cls, info.field_name):
            raise ValueError(f"should be a number, not {str(value).lower()}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"should be a finite number (got {value})")
        return value


class _Frozen(_Checked):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


_ODDS_RE = re.compile(r"^\s*1\s*/\s*(\d+)\s*$")
_CT_RE = re.compile(r"^\s*(\d+)\s*(round|rounds|turn|turns|segment|segments)?\s*$")


def _casting_time(value: object) -> int:
    """CT in segments: 1-9, "1 round" = 10, "N rounds" = 10 N, "N turns" = 100 N (G-03)."""
    if isinstance(value, bool):
        raise ValueError("casting time must be 1-9, '1 round', 'N rounds' or 'N turns'")
    m = _CT_RE.match(str(value)) if isinstance(value, (int, str)) and len(str(value)) <= 20 else None
    if not m:
        raise ValueError(f"casting time {value!r}: use 1-9 (segments), '1 round', 'N rounds' or 'N turns'")
    n, unit = int(m.group(1)), (m.group(2) or "segment")
    if n > MAX_DURATION:
        raise ValueError(f"casting time of {n} {unit}s: at most {MAX_DURATION} (limit)")
    if unit.startswith("segment"):
        if not 1 <= n <= 9:
            raise ValueError(f"casting time {n} segments: 1-9 segments, or write '1 round'")
        return n
    if n < 1:
        raise ValueError("casting time must be at least 1")
    return n * (10 if unit.startswith("round") else 100)


#: The auto-play policies a file may name (``affray.policy.POLICIES`` implements them, in this order). Named
#: here, not imported, so that the model does not import the engine's side (policy.py imports the model).
POLICY_NAMES = ("default", "plain", "caster", "archer", "cautious", "tactical")
#: The entry point group under which an installed package registers policies of its own.
POLICY_GROUP = "affray.policies"
_POLICY_REF = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


def _installed_policies() -> frozenset[str]:
    from affray.installed import points  # the one reader of entry points (read once, then kept)

    return frozenset(p.name for p in points()["policy"])
#: Who answers a combatant's declarations once its plan is used up (CONTRACT "Who declares"): a person is asked,
#: its policy answers, or its last declaration stands while it is still possible.
DECLARE_MODES = ("ask", "auto", "repeat")
DeclareMode = Literal["ask", "auto", "repeat"]


def _policy(value: object) -> str:
    """An auto-play policy: a built-in name (``POLICY_NAMES``), a designer's ``module:function`` (loaded when the
    fight is prepared: ``affray.policy.load_policy``) or the name of an installed package's entry point."""
    if isinstance(value, str) and len(value) <= MAX_NAME and (value in POLICY_NAMES or _POLICY_REF.fullmatch(value)
                                                             or value in _installed_policies()):
        return value
    shown = repr(value) if len(repr(value)) <= 60 else f"{repr(value)[:60]}... ({len(repr(value)):,} characters)"
    raise ValueError(f"unknown policy {shown}; choose one of {', '.join(POLICY_NAMES)}, or one an installed "
                     f"package registers (entry point group {POLICY_GROUP}); a designer's own module:function is "
                     "named on the command line (--policy SIDE=mypolicies:brave)")


class Weapon(_Frozen):
    """G-02: a weapon or natural attack."""

    name: Name
    sf: int | None = Field(None, ge=0, le=20, description="speed factor (lower is faster)")
    speed: Literal[SPEED_CATEGORIES] | None = None  # type: ignore[valid-type]
    damage: Dice = Field(default_factory=lambda: parse_dice("1d2"))
    damage_large: Dice | None = None
    reach: int = Field(5, ge=0, le=MAX_FEET, description="feet")
    kind: Literal["melee", "missile", "thrown"] = "melee"
    rate: Rate = Fraction(1)
    magic: int = Field(0, ge=-5, le=6)
    charge: bool | None = Field(None, description="usable in a charge (MJ-12); monsters need true")
    set: bool | None = Field(None, description="can be set against a charge (spear, pole arm)")
    lance: bool | None = None
    style: int = Field(0, ge=0, le=5, description="style specialisation: SF bonus (C2-01)")
    slots: int = Field(0, ge=0, le=5, description="weapon proficiency slots spent beyond the first "
                       "(specialization; option strength, C2X-05)")
    strength: bool | None = Field(None, description="a missile weapon that takes the STR bonus (a custom bow); "
                                  "thrown weapons always do (C2X-05)")
    ammo: int | None = Field(None, ge=0, le=10_000, description="shots carried (arrows, bolts, stones): a party file "
                             "counts them down by the shots of each fight")
    natural: bool = Field(False, description="a natural attack (claw, bite, horn): timed by the creature's size where "
                          "no speed factor is given (C2-02; speed-segments: SEG-08)")
    range: tuple[Annotated[int, Field(ge=1, le=MAX_FEET)], Annotated[int, Field(ge=1, le=MAX_FEET)],
                 Annotated[int, Field(ge=1, le=MAX_FEET)]] | None = Field(
        None, description="a missile's short, medium and long range in feet (2e PH: medium -2, long -5 to hit; "
        "beyond long it cannot shoot), read when the fight places its combatants")

    @field_validator("range")
    @classmethod
    def _bands(cls, v: tuple[int, int, int] | None) -> tuple[int, int, int] | None:
        if v is not None and not v[0] <= v[1] <= v[2]:
            raise ValueError(f"range {list(v)}: short, medium and long in feet, each at least the one before "
                             "(a short bow: [50, 100, 150])")
        return v

    @cached_property
    def is_missile(self) -> bool:
        return self.kind != "melee"

    @cached_property
    def settable(self) -> bool:
        if self.set is not None:
            return self.set
        return any(w in self.name.lower() for w in ("spear", "pike", "halberd", "glaive", "bill",
                                                     "polearm", "pole arm", "lance", "partisan"))

    @cached_property
    def is_lance(self) -> bool:
        return self.lance if self.lance is not None else "lance" in self.name.lower()


_DURATION_RE = re.compile(r"^\s*(\d+)\s*(rounds?|turns?|phases?|segments?)?\s*$")


def _duration(value: object) -> str:
    """A duration (G-08): "4 rounds", "1 turn", "3 phases"; a bare number is rounds. Kept as written."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"duration {value!r}: use 'N rounds', 'N turns' or 'N phases'")
    m = _DURATION_RE.match(str(value)) if len(str(value)) <= 20 else None
    if not m:
        raise ValueError(f"duration {value!r}: use 'N rounds', 'N turns' or 'N phases'")
    if int(m.group(1)) > MAX_DURATION:
        raise ValueError(f"duration {value!r}: at most {MAX_DURATION} (limit)")
    return f"{m.group(1)} {m.group(2) or 'rounds'}"


def parse_duration(text: str) -> tuple[int, str]:
    """(N, unit) of a validated duration, the unit singular: (4, "round")."""
    n, unit = text.split()
    return int(n), unit.rstrip("s")


Duration = Annotated[str, BeforeValidator(_duration)]


#: The conditions a spell's ``effect`` sets (G-09; what each does: ``affray.engine.conditions``).
SPELL_CONDITIONS = ("asleep", "held", "paralysed", "stunned", "dazed", "prone", "blinded", "charmed", "fleeing",
                    "unconscious", "blessed", "heartened", "disheartened", "aided")


class SpellEffect(_Frozen):
    """What a spell does to each target when it takes effect: a condition for a while (G-08, G-09)."""

    condition: Literal[SPELL_CONDITIONS]  # type: ignore[valid-type]
    duration: Duration | None = Field(None, description="how long the condition lasts; default the spell's "
                                      "duration, and without either until the referee ends it")
    max_hd: float | None = Field(None, gt=0, le=100, description="targets of more Hit Dice (or levels) are "
                                 "unaffected")
    save: bool = Field(False, description="each target saves against spells to be unaffected")
    pool: Dice | None = Field(None, description="the Hit Dice it takes in all, rolled once, those of the fewest Hit "
                              "Dice first; one that does not fit in what is left is unaffected (sleep: 2d4, 2e PH)")
    creatures: Dice | None = Field(None, description="how many it takes at most, rolled once, in the order of the "
                                   "file (color spray: 1d6, 2e PH)")
    unengaged: bool = Field(False, description="only those not in melee when it takes effect (bless, 2e PH)")
    save_mod: int = Field(0, ge=-20, le=20, description="added to each target's save (web: -2, 2e PH)")
    save_by_count: tuple[Annotated[int, Field(ge=-20, le=20)], ...] = Field(
        (), max_length=20, description="added to each target's save by how many it takes: the first for one, the "
        "second for two... the last for more (hold person: -3, -1, 0; 2e PH)")
    foes: Literal[SPELL_CONDITIONS] | None = Field(  # type: ignore[valid-type]
        None, description="a condition it sets on every standing member of the other sides, for as long (prayer's "
        "-1 to its caster's foes, 2e PH)")


class Spell(_Frozen):
    """G-03: a spell (or psionic power) the caster has memorised."""

    name: Name
    level: int = Field(1, ge=0, le=9)
    ct: Annotated[int, BeforeValidator(_casting_time)] = 1
    components: str = "VSM"
    speed: Literal[SPEED_CATEGORIES] | None = None  # type: ignore[valid-type]
    damage: Dice | None = Field(None, description="damage to each target when the spell takes effect")
    damage_save: Literal["half", "negates"] | None = Field(
        None, description="each target's save against spells halves the damage, rounded down (fireball, 2e PH), or "
        "negates it (chill touch)")
    heal: Dice | None = Field(None, description="hit points each target regains when the spell takes effect "
                              "(cure light wounds: 1d8), never above the hit points it started the fight with")
    count: int = Field(1, ge=1, le=100, description="copies memorised")
    cast: int = Field(0, ge=0, le=100, description="copies cast or lost since they were memorised (a party file "
                      "keeps it across fights; `affray rest` memorises them anew)")
    touch: bool = Field(False, description="delivered by a touch after casting (C2-10)")
    psionic: bool = Field(False, description="a psionic power: casting of CT 1 unless given (C2-15)")
    duration: Duration | None = Field(None, description="how long the effect lasts from the casting (G-08)")
    damage_at: tuple[Duration, ...] = Field((), max_length=100, description="the damage falls later, once at "
                                            "each of these times after the casting (heat metal, PC-12), not at once")
    effect: SpellEffect | None = Field(None, description="a condition set on each target (G-09)")
    area: Annotated[int, Field(ge=1, le=MAX_AREA)] | Literal["side"] | None = Field(
        None, description="how many it takes: a number of targets, or `side` (every standing member of the side "
        "named); a spell of one target cast at a side is refused")

    @field_validator("components")
    @classmethod
    def _components(cls, v: str) -> str:
        text = v.replace(",", "").replace(" ", "").upper()
        if not set(text) <= {"V", "S", "M"}:
            raise ValueError(f"components {v!r}: letters V, S and M only (e.g. VSM, VS)")
        return text

    @model_validator(mode="after")
    def _cast_of_count(self) -> Spell:
        if self.cast > self.count:
            raise ValueError(f"cast: {self.cast} copies cast of {self.count} memorised (count); at most count")
        return self


#: How a combatant of a party file fell in an earlier fight (G-05: dead, or unconscious from subdual, MJ-20).
FALLEN = ("dead", "unconscious")


class Combatant(_Frozen):
    """G-01: one combatant, or ``count`` identical ones named "Name 1" ... "Name N"."""

    name: Name
    count: int = Field(1, ge=1, le=500)
    cls: Literal[CLASSES + ("magic-user",)] | None = Field(None, alias="class")  # type: ignore[valid-type]
    level: int | None = Field(None, ge=0, le=40)
    hd: str | float | None = None
    fallen: Literal[FALLEN] | None = Field(  # type: ignore[valid-type]
        None, description="it fell in an earlier fight (a party file): dead or unconscious; it stays in the list "
        "but takes no part in a fight")
    hp: int = Field(ge=-MAX_HP, le=MAX_HP)
    hp_max: int | None = Field(None, ge=1, le=MAX_HP, description="its hit points when unhurt (a party file): rest "
                               "and healing stop there; default: hp")
    ac: int = Field(10, ge=-10, le=10)
    thac0: int | None = Field(None, ge=-10, le=25)
    str_: int = Field(10, alias="str", ge=1, le=25)
    dex: int = Field(10, ge=1, le=25)
    con: int = Field(10, ge=1, le=25)
    int_: int = Field(10, alias="int", ge=1, le=25)
    wis: int = Field(10, ge=1, le=25)
    agi: int | None = Field(None, ge=1, le=25)
    exceptional: int | None = Field(None, ge=1, le=100, description="18/NN strength's percentile (00 = 100); "
                                    "written str: 18/99")
    apr: int | None = Field(None, ge=1, le=25, description="Appearance (C2X-02), for the character record")
    damage_bonus: int = Field(0, ge=0, le=30, description="a creature's listed damage bonus (C2X-04)")
    mana: int | None = Field(None, ge=0, le=1000, description="spell points left (option spells: mana, "
                             "C2X-06); default the table's for class and level")
    spell_slots: dict[int, int] | None = Field(None, alias="slots", description="slots left by spell level "
                                               "(option spells: slots, C2X-08); default the PH progression")
    mv: int = Field(12, ge=0, le=240)
    attacks: Attacks | None = None
    size: Literal[SIZES] = "medium"  # type: ignore[valid-type]
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[Spell, ...] = ()
    morale: int | None = Field(None, ge=2, le=20)
    pc: bool | None = Field(None, description="default: the side's pc")
    henchman: bool = False
    shield: bool | Literal["magic", "rowan"] = False
    mounted: bool = False
    race: Name = "human"
    specialist: bool = False
    on_point: bool = Field(False, description="leads the side's march (an elf or halfling on point, D12-02)")
    at: Point | None = Field(None, description="where it stands, [x, y] in feet (a count of them: in a rank from "
                             "there, 5 ft apart); default: its side's rank")
    surprise_odds: str | None = Field(None, description="a monster's listed chance of being surprised, "
                                      "'1/8' or '1/10' (D12-02)")
    load: int | None = Field(None, ge=0, le=5000, description="pounds carried: sets the movement rate (D12-15)")
    save: int | None = Field(None, ge=1, le=20, description="its saving throw against spells; default 2e PH "
                             "Table 60 by class and level (a monster as a warrior of its HD)")
    policy: Annotated[str, BeforeValidator(_policy)] | None = Field(
        None, description="how --auto plays it once its plan is used up (affray.policy); default: its side's")
    declare: DeclareMode | None = Field(
        None, description="who answers its declarations once its plan is used up: ask (a person), auto (its "
        "policy) or repeat (its last declaration while still possible); default: its side's, else ask")
    hp_each: tuple[Annotated[int, Field(ge=1, le=MAX_HP)], ...] | None = Field(
        None, description="hit points of each of `count`, in order (written `hp: [5, 7, 3]`); `hp` is the first's")
    monster: Name | None = Field(None, description="the catalogue monster whose figures it takes")
    armour: Name | tuple[Name, ...] | None = Field(None, description="the catalogue armour (and shield) it wears")
    immune: tuple[Literal[SPELL_CONDITIONS], ...] = Field(  # type: ignore[valid-type]
        (), max_length=20, description="conditions a spell cannot set on it (an undead's sleep, charm and hold)")
    conditions: dict[Literal[SPELL_CONDITIONS], Duration | None] = Field(  # type: ignore[valid-type]
        default_factory=dict, description="conditions it still holds from an earlier fight (a party file), each "
        "with the time it has left (null: until the referee ends it); set as the fight begins (G-08, G-09)")

    @field_validator("hp")
    @classmethod
    def _standing(cls, v: int, info: ValidationInfo) -> int:
        """A combatant starts a fight with at least 1 hp; one marked ``fallen`` keeps the hp it fell at."""
        if v < 1 and info.data.get("fallen") is None:
            raise ValueError(f"hp {v}: a combatant starts a fight with at least 1 hit point (one that fell in an "
                             "earlier fight is marked fallen: dead or unconscious)")
        return v

    @model_validator(mode="after")
    def _hp_within_max(self) -> Combatant:
        if self.hp_max is not None and self.hp > self.hp_max:
            raise ValueError(f"hp {self.hp} is above hp_max {self.hp_max}: hp_max is its hit points unhurt")
        return self

    @property
    def full_hp(self) -> int:
        """Its hit points unhurt: ``hp_max``, else the hit points it starts the fight with."""
        return self.hp_max if self.hp_max is not None else self.hp

    @field_validator("surprise_odds")
    @classmethod
    def _odds(cls, v: str | None) -> str | None:
        m = _ODDS_RE.match(str(v)) if v is not None else None
        if v is not None and (m is None or int(m.group(1)) < 1):
            raise ValueError(f"surprise_odds {v!r}: write the monster's listed odds as 1/N (e.g. 1/8, 1/10)")
        return v

    @model_validator(mode="before")
    @classmethod
    def _hp_list(cls, data: Any) -> Any:
        """``hp: [5, 7, 3]``: each of ``count``'s own hit points (``hp_each``), ``hp`` the first's."""
        if isinstance(data, dict) and isinstance(data.get("hp"), list):
            values = data["hp"]
            for i, v in enumerate(values):
                if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_HP:
                    raise ValueError(f"hp[{i}] is {v!r}: each of the list is a whole number of hit points, 1 to "
                                     f"{MAX_HP}")
            if not values:
                raise ValueError("hp: an empty list; give a number, or one number for each of `count`")
            data = {**data, "hp": values[0], "hp_each": values}
        return data

    @model_validator(mode="after")
    def _hp_each_count(self) -> Combatant:
        if self.hp_each is not None and len(self.hp_each) != self.count:
            raise ValueError(f"hp gives {len(self.hp_each)} values for count: {self.count}; give one for each, or "
                             "one number for all")
        return self

    @model_validator(mode="before")
    @classmethod
    def _exceptional_strength(cls, data: Any) -> Any:
        """``str: 18/99`` is STR 18 with exceptional strength 99 (18/00 is 100)."""
        if isinstance(data, dict) and isinstance(data.get("str"), str):
            m = re.fullmatch(r"\s*18\s*/\s*(\d\d)\s*", data["str"])
            if m is not None:  # anything else is left for the field to refuse, naming ``str``
                data = {**data, "str": 18, "exceptional": int(m.group(1)) or 100}
        return data

    @field_validator("str_", mode="before")
    @classmethod
    def _strength(cls, v: object) -> object:
        if isinstance(v, str) and "/" in v:
            raise ValueError(f"{v!r}: a score 1-25, or 18/01 to 18/00 for exceptional strength")
        return v

    @field_validator("spell_slots")
    @classmethod
    def _slots(cls, v: dict[int, int] | None) -> dict[int, int] | None:
        for level, n in (v or {}).items():
            if not 1 <= level <= 9 or not 0 <= n <= 100:
                raise ValueError(f"slots {{{level}: {n}}}: spell levels 1-9, each a count of 0 to 100")
        return v

    @field_validator("hd")
    @classmethod
    def _hd(cls, v: str | float | None) -> str | float | None:
        from affray.model.derive import hd_value

        if v is not None:
            if isinstance(v, str) and len(v) > 20:
                raise ValueError(f"not a Hit Dice value: {v[:20]!r}... (use 3, 3+3, 1-1 or 1/2)")
            value = hd_value(v)
            if not 0 <= value <= MAX_HD:
                raise ValueError(f"{v} Hit Dice: from 0 to {MAX_HD} (limit)")
        return v

    def weapon_for(self, name: str | None, *, missile: bool = False) -> Weapon | None:
        """The named weapon, else the first of the right kind, else the first; None without weapons."""
        if name is not None:
            return next((w for w in self.weapons if w.name == name), None)
        return next((w for w in self.weapons if (w.kind != "melee") == missile),
                    self.weapons[0] if self.weapons else None)

    @cached_property
    def members(self) -> tuple[Combatant, ...]:
        """Each of ``count`` as its own combatant, with its own hit points (``hp_each``); () without them."""
        if self.hp_each is None:
            return ()
        out = []
        for hp in self.hp_each:
            member = self.model_copy(update={"hp": hp, "hp_each": None})
            member.__dict__.pop("members", None)
            out.append(member)
        return tuple(out)

    @cached_property
    def klass(self) -> str:
        """The class, with ``magic-user`` read as wizard and a levelled classless combatant a fighter (read on every
        attack: worked out once)."""
        if self.cls == "magic-user":
            return "wizard"
        if self.cls is None:
            return "fighter" if self.level is not None else "monster"
        return str(self.cls)


class Outcome(_Checked):
    """The referee's result of one attack or part."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    hit: bool = True
    damage: int = Field(0, ge=0, le=MAX_HP)


class DiceGiven(_Checked):
    """Raw dice rolled at the table for one attack: the d20 and the damage dice's total; rulesets add more
    (side-d6: ``cover``, the d6 of MJ-15; ``into_melee``, the die that picks who a shot into melee strikes)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    attack: int | None = None
    damage: int | None = Field(None, le=MAX_HP)

    def other(self, key: str) -> int | None:
        value = (self.model_extra or {}).get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class Declaration(_Checked):
    """One item of a combatant's plan: exactly one action key (CONTRACT.md "Declarations")."""

    model_config = ConfigDict(extra="allow", frozen=True)
    melee: Name | None = None
    missile: Name | None = None
    cast: Name | None = None
    move: int | None = Field(None, ge=0, le=MAX_FEET)
    misc: Text | None = None
    wait: Text | bool | None = None
    none: bool | None = None
    weapon: Name | None = None
    charge: bool = False
    distance: int = Field(0, ge=0, le=MAX_FEET)
    to: Point | None = None
    toward: Name | None = None
    away: Name | None = None
    at: Name | None = None
    mode: Literal[MOVE_MODES] | None = None  # type: ignore[valid-type]
    speed: Modifier | Literal[SPEED_CATEGORIES] | None = None  # type: ignore[valid-type]
    roll: int | None = None
    outcome: Outcome | list[Outcome] | None = None
    dice: DiceGiven | list[DiceGiven] | None = None

    @model_validator(mode="before")
    @classmethod
    def _one_action(cls, data: Any) -> Any:
        if isinstance(data, dict):
            found = [k for k in ACTION_KEYS if k in data]
            if len(found) != 1:
                said = ", ".join(found) if found else "none"
                raise ValueError(f"a declaration needs exactly one action key of {', '.join(ACTION_KEYS)} "
                                 f"(found: {said})")
        return data

    @model_validator(mode="after")
    def _plain_extra(self) -> Declaration:
        """A ruleset's own keys take a value or a list of values (names, numbers, words), never a mapping."""
        for key, value in (self.model_extra or {}).items():
            values = value if isinstance(value, list) else [value]
            if any(isinstance(v, (dict, list)) for v in values):
                raise ValueError(f"`{key}` takes a value or a list of values (a name, a number, a word), "
                                 f"not {'a mapping' if isinstance(value, dict) else 'a list of lists or mappings'}")
        return self

    @field_validator(*ACTION_KEYS, mode="before")
    @classmethod
    def _action_given(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None:  # written ``melee:`` with nothing after it
            raise ValueError(f"`{info.field_name}` needs a value ({_ACTION_VALUES[str(info.field_name)]}), not null")
        return value

    @cached_property
    def action(self) -> str:
        for key in ACTION_KEYS:
            if getattr(self, key) is not None:
                return key
        raise AssertionError("validated declaration without action")  # pragma: no cover

    @cached_property
    def target(self) -> str | None:
        if self.melee is not None:
            return self.melee
        if self.missile is not None:
            return self.missile
        return self.at

    @cached_property
    def extra(self) -> dict[str, Any]:
        """Ruleset-specific keys (``set``, ``rear``, ``hold``...), validated by the ruleset."""
        return dict(self.model_extra or {})

    @cached_property
    def outcomes(self) -> tuple[Outcome, ...]:
        """The referee's outcomes, one per attack or part, in order."""
        if self.outcome is None:
            return ()
        return tuple(self.outcome) if isinstance(self.outcome, list) else (self.outcome,)

    @cached_property
    def dice_given(self) -> tuple[DiceGiven, ...]:
        """Dice rolled at the table, one mapping per attack or part, in order."""
        if self.dice is None:
            return ()
        return tuple(self.dice) if isinstance(self.dice, list) else (self.dice,)

    def changed(self, **update: Any) -> Declaration:
        """A copy with some fields or ruleset keys changed. Unlike a bare ``model_copy``, the copy works out its
        action and keys afresh, and the fight its view of it (``model_copy`` copies what the original had already
        worked out, kept in its ``__dict__``)."""
        copy = self.model_copy(update=update)
        for name in _DERIVED:
            copy.__dict__.pop(name, None)
        return copy


#: What a declaration works out once from its fields (cached properties, and the fight's view of it kept by
#: ``affray.model.order``), dropped from a changed copy.
_DERIVED = ("action", "target", "extra", "outcomes", "dice_given", "_order")

class Side(_Frozen):
    pc: bool = False
    morale: int | None = Field(None, ge=2, le=20)
    combatants: tuple[Combatant, ...] = Field(min_length=1)
    surprise_adjust: int = Field(0, ge=-12, le=12, description="the referee's change to this side's own "
                                 "surprise range: -1 for heightened alert (D12-02)")
    policy: Annotated[str, BeforeValidator(_policy)] | None = Field(
        None, description="how --auto plays its combatants (affray.policy); default: default")
    declare: DeclareMode | None = Field(
        None, description="who answers its combatants' declarations once their plans are used up: ask, auto or "
        "repeat (a combatant's own setting wins); default: ask")
    at: Point | None = Field(None, description="where its combatants stand, [x, y] in feet: in a rank from there, "
                             "5 ft apart along y (a combatant's own at wins)")


def _free_entry(value: object) -> object:
    """One free attack's: the referee's outcome when it says ``hit``, else the dice rolled at the table."""
    if isinstance(value, dict):
        return Outcome.model_validate(value) if "hit" in value else DiceGiven.model_validate(value)
    return value


def _free_plain(value: Outcome | DiceGiven) -> dict[str, Any]:
    """A free attack's entry written back out so that it reads back the same: an outcome always says ``hit``."""
    if isinstance(value, Outcome):
        return {"hit": value.hit, "damage": value.damage} if value.hit else {"hit": False}
    return value.model_dump(exclude_none=True)


FreeAttack = Annotated[Outcome | DiceGiven, BeforeValidator(_free_entry), PlainSerializer(_free_plain)]


class Rolls(_Frozen):
    """Dice already rolled at the table; any die not given is rolled from the seed."""

    surprise: dict[str, int] = Field(default_factory=dict)
    initiative: dict[int, dict[str, int]] = Field(default_factory=dict)
    morale: dict[int, dict[str, int]] = Field(default_factory=dict, description="by round: the morale "
                                              "dice's total per side")
    hp: dict[str, int] = Field(default_factory=dict, description="hit points rolled at the table, by combatant, "
                               "for those whose hp is dice or left to their Hit Dice")
    free: dict[int, dict[str, list[FreeAttack]]] = Field(
        default_factory=dict, description="by round (a cycle under combat2-phase2, a phase under phase-count): "
        "each combatant's free attacks, in the order it makes them (on a flight or a full retreat, of opportunity, "
        "a defender's answer to a charge): each the referee's outcome ({hit, damage}) or the dice ({attack, "
        "damage}) (G-06)")


class Encounter(_Frozen):
    ruleset: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    surprise: Literal["check", "none"] | dict[str, bool] = "check"
    sides: dict[str, Side] = Field(min_length=2)
    rolls: Rolls = Field(default_factory=Rolls)
    plan: dict[str, tuple[Declaration, ...]] = Field(default_factory=dict)
    catalogue: Text | None = Field(None, description="the referee's own catalogue file, relative to this one: its "
                                   "entries add to or replace the package's")

    @field_validator("sides")
    @classmethod
    def _side_names(cls, v: dict[str, Side]) -> dict[str, Side]:
        for name in v:
            _name(name)
        return v


def expand(encounter: Encounter) -> Iterator[tuple[str, str, Combatant, tuple[str | int, ...]]]:
    """(name, side, combatant, field path) for every combatant in the fight, ``count`` expanded to "Name 1" ...
    "Name N"; one that fell in an earlier fight (``fallen``) is not in it."""
    for side, s in encounter.sides.items():
        for i, c in enumerate(s.combatants):
            if c.fallen is not None:
                continue
            loc: tuple[str | int, ...] = ("sides", side, "combatants", i)
            if c.count == 1:
                yield c.name, side, c.members[0] if c.hp_each is not None else c, loc
            else:
                members = c.members
                for k in range(1, c.count + 1):
                    yield f"{c.name} {k}", side, members[k - 1] if members else c, loc
