"""The encounter file as pydantic models (CONTRACT.md "Encounter file"); instances are immutable."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    field_validator,
    model_validator,
)

from affray.dice.expr import DiceExpr, parse_dice

__all__ = [
    "ACTION_KEYS",
    "CLASSES",
    "SIZES",
    "SPEED_CATEGORIES",
    "Combatant",
    "Declaration",
    "Encounter",
    "Rolls",
    "Side",
    "Spell",
    "Weapon",
    "parse_duration",
]

CLASSES = ("fighter", "paladin", "ranger", "monk", "cleric", "druid", "wizard", "illusionist",
           "thief", "bard", "monster")
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
SPEED_CATEGORIES = ("strikes first", "very fast", "fast", "average", "slow", "very slow", "strikes last")
ACTION_KEYS = ("melee", "missile", "cast", "move", "misc", "wait", "none")
MOVE_MODES = ("full", "half", "shift", "step", "withdraw", "retreat", "flee")

Dice = Annotated[DiceExpr, BeforeValidator(parse_dice), PlainSerializer(str)]


def _rate(value: object) -> Fraction:
    """Attacks or fire rate: 1, 2, "3/2", 1.5."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise ValueError("not a rate: use a number such as 1, 2 or 3/2")
    try:
        rate = Fraction(str(value).strip()) if isinstance(value, (int, float, str)) else None
    except (ValueError, ZeroDivisionError):
        rate = None
    if rate is None or rate <= 0:
        raise ValueError(f"not a rate: {value!r} (use a positive number such as 1, 2, 3/2 or 5/2)")
    return rate


Rate = Annotated[Fraction, BeforeValidator(_rate), PlainSerializer(str)]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


_ODDS_RE = re.compile(r"^\s*1\s*/\s*(\d+)\s*$")
_CT_RE = re.compile(r"^\s*(\d+)\s*(round|rounds|turn|turns|segment|segments)?\s*$")


def _casting_time(value: object) -> int:
    """CT in segments: 1-9, "1 round" = 10, "N rounds" = 10 N, "N turns" = 100 N (G-03)."""
    if isinstance(value, bool):
        raise ValueError("casting time must be 1-9, '1 round', 'N rounds' or 'N turns'")
    m = _CT_RE.match(str(value)) if isinstance(value, (int, str)) else None
    if not m:
        raise ValueError(f"casting time {value!r}: use 1-9 (segments), '1 round', 'N rounds' or 'N turns'")
    n, unit = int(m.group(1)), (m.group(2) or "segment")
    if unit.startswith("segment"):
        if not 1 <= n <= 9:
            raise ValueError(f"casting time {n} segments: 1-9 segments, or write '1 round'")
        return n
    if n < 1:
        raise ValueError("casting time must be at least 1")
    return n * (10 if unit.startswith("round") else 100)


def _policy(value: object) -> str:
    """An auto-play policy's name (affray.policy.POLICIES)."""
    from affray.policy import POLICIES

    if not isinstance(value, str) or value not in POLICIES:
        raise ValueError(f"unknown policy {value!r}; choose one of {', '.join(POLICIES)}")
    return value


class Weapon(_Frozen):
    """G-02: a weapon or natural attack."""

    name: str = Field(min_length=1)
    sf: int | None = Field(None, ge=0, le=20, description="speed factor (lower is faster)")
    speed: Literal[SPEED_CATEGORIES] | None = None  # type: ignore[valid-type]
    damage: Dice = Field(default_factory=lambda: parse_dice("1d2"))
    damage_large: Dice | None = None
    reach: int = Field(5, ge=0, description="feet")
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

    @property
    def is_missile(self) -> bool:
        return self.kind != "melee"

    @property
    def settable(self) -> bool:
        if self.set is not None:
            return self.set
        return any(w in self.name.lower() for w in ("spear", "pike", "halberd", "glaive", "bill",
                                                     "polearm", "pole arm", "lance", "partisan"))

    @property
    def is_lance(self) -> bool:
        return self.lance if self.lance is not None else "lance" in self.name.lower()


_DURATION_RE = re.compile(r"^\s*(\d+)\s*(rounds?|turns?|phases?|segments?)?\s*$")


def _duration(value: object) -> str:
    """A duration (G-08): "4 rounds", "1 turn", "3 phases"; a bare number is rounds. Kept as written."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"duration {value!r}: use 'N rounds', 'N turns' or 'N phases'")
    m = _DURATION_RE.match(str(value))
    if not m:
        raise ValueError(f"duration {value!r}: use 'N rounds', 'N turns' or 'N phases'")
    return f"{m.group(1)} {m.group(2) or 'rounds'}"


def parse_duration(text: str) -> tuple[int, str]:
    """(N, unit) of a validated duration, the unit singular: (4, "round")."""
    n, unit = text.split()
    return int(n), unit.rstrip("s")


Duration = Annotated[str, BeforeValidator(_duration)]


class Spell(_Frozen):
    """G-03: a spell (or psionic power) the caster has memorised."""

    name: str = Field(min_length=1)
    level: int = Field(1, ge=0, le=9)
    ct: Annotated[int, BeforeValidator(_casting_time)] = 1
    components: str = "VSM"
    speed: Literal[SPEED_CATEGORIES] | None = None  # type: ignore[valid-type]
    damage: Dice | None = Field(None, description="damage to each target when the spell takes effect")
    count: int = Field(1, ge=1, description="copies memorised")
    touch: bool = Field(False, description="delivered by a touch after casting (C2-10)")
    psionic: bool = Field(False, description="a psionic power: casting of CT 1 unless given (C2-15)")
    duration: Duration | None = Field(None, description="how long the effect lasts from the casting (G-08)")
    damage_at: tuple[Duration, ...] = Field((), description="the damage falls later, once at each of these "
                                            "times after the casting (heat metal, PC-12), not at once")

    @field_validator("components")
    @classmethod
    def _components(cls, v: str) -> str:
        text = v.replace(",", "").replace(" ", "").upper()
        if not set(text) <= {"V", "S", "M"}:
            raise ValueError(f"components {v!r}: letters V, S and M only (e.g. VSM, VS)")
        return text


class Combatant(_Frozen):
    """G-01: one combatant, or ``count`` identical ones named "Name 1" ... "Name N"."""

    name: str = Field(min_length=1)
    count: int = Field(1, ge=1, le=500)
    cls: Literal[CLASSES + ("magic-user",)] | None = Field(None, alias="class")  # type: ignore[valid-type]
    level: int | None = Field(None, ge=0, le=40)
    hd: str | float | None = None
    hp: int = Field(ge=1, le=10000)
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
    attacks: Rate | None = None
    size: Literal[SIZES] = "medium"  # type: ignore[valid-type]
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[Spell, ...] = ()
    morale: int | None = Field(None, ge=2, le=20)
    pc: bool | None = Field(None, description="default: the side's pc")
    henchman: bool = False
    shield: bool | Literal["magic", "rowan"] = False
    mounted: bool = False
    race: str = "human"
    specialist: bool = False
    on_point: bool = Field(False, description="leads the side's march (an elf or halfling on point, D12-02)")
    surprise_odds: str | None = Field(None, description="a monster's listed chance of being surprised, "
                                      "'1/8' or '1/10' (D12-02)")
    load: int | None = Field(None, ge=0, le=5000, description="pounds carried: sets the movement rate (D12-15)")
    policy: Annotated[str, BeforeValidator(_policy)] | None = Field(
        None, description="how --auto plays it once its plan is used up (affray.policy); default: its side's")

    @field_validator("surprise_odds")
    @classmethod
    def _odds(cls, v: str | None) -> str | None:
        m = _ODDS_RE.match(str(v)) if v is not None else None
        if v is not None and (m is None or int(m.group(1)) < 1):
            raise ValueError(f"surprise_odds {v!r}: write the monster's listed odds as 1/N (e.g. 1/8, 1/10)")
        return v

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
            if not 1 <= level <= 9 or n < 0:
                raise ValueError(f"slots {{{level}: {n}}}: spell levels 1-9, each a count of 0 or more")
        return v

    @field_validator("hd")
    @classmethod
    def _hd(cls, v: str | float | None) -> str | float | None:
        from affray.model.derive import hd_value

        if v is not None:
            hd_value(v)
        return v

    def weapon_for(self, name: str | None, *, missile: bool = False) -> Weapon | None:
        """The named weapon, else the first of the right kind, else the first; None without weapons."""
        if name is not None:
            return next((w for w in self.weapons if w.name == name), None)
        return next((w for w in self.weapons if (w.kind != "melee") == missile),
                    self.weapons[0] if self.weapons else None)

    @property
    def klass(self) -> str:
        """The class, with ``magic-user`` read as wizard and a levelled classless combatant a fighter."""
        if self.cls == "magic-user":
            return "wizard"
        if self.cls is None:
            return "fighter" if self.level is not None else "monster"
        return str(self.cls)


class Outcome(BaseModel):
    """The referee's result of one attack or part."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    hit: bool = True
    damage: int = Field(0, ge=0)


class DiceGiven(BaseModel):
    """Raw dice rolled at the table for one attack: the d20 and the damage dice's total; rulesets add more
    (side-d6: ``cover``, the d6 of MJ-15; ``into_melee``, the die that picks who a shot into melee strikes)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    attack: int | None = None
    damage: int | None = None

    def other(self, key: str) -> int | None:
        value = (self.model_extra or {}).get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class Declaration(BaseModel):
    """One item of a combatant's plan: exactly one action key (CONTRACT.md "Declarations")."""

    model_config = ConfigDict(extra="allow", frozen=True)
    melee: str | None = None
    missile: str | None = None
    cast: str | None = None
    move: int | None = Field(None, ge=0)
    misc: str | None = None
    wait: str | bool | None = None
    none: bool | None = None
    weapon: str | None = None
    charge: bool = False
    distance: int = Field(0, ge=0)
    at: str | None = None
    mode: Literal[MOVE_MODES] | None = None  # type: ignore[valid-type]
    speed: int | Literal[SPEED_CATEGORIES] | None = None  # type: ignore[valid-type]
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

    @cached_property
    def action(self) -> str:
        for key in ACTION_KEYS:
            if getattr(self, key) is not None:
                return key
        raise AssertionError("validated declaration without action")  # pragma: no cover

    @property
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


class Side(_Frozen):
    pc: bool = False
    morale: int | None = Field(None, ge=2, le=20)
    combatants: tuple[Combatant, ...] = Field(min_length=1)
    surprise_adjust: int = Field(0, ge=-12, le=12, description="the referee's change to this side's own "
                                 "surprise range: -1 for heightened alert (D12-02)")
    policy: Annotated[str, BeforeValidator(_policy)] | None = Field(
        None, description="how --auto plays its combatants (affray.policy); default: default")


class Rolls(_Frozen):
    """Dice already rolled at the table; any die not given is rolled from the seed."""

    surprise: dict[str, int] = Field(default_factory=dict)
    initiative: dict[int, dict[str, int]] = Field(default_factory=dict)
    morale: dict[int, dict[str, int]] = Field(default_factory=dict, description="by round: the morale "
                                              "dice's total per side")


class Encounter(_Frozen):
    ruleset: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(None, ge=0)
    surprise: Literal["check", "none"] | dict[str, bool] = "check"
    sides: dict[str, Side] = Field(min_length=2)
    rolls: Rolls = Field(default_factory=Rolls)
    plan: dict[str, tuple[Declaration, ...]] = Field(default_factory=dict)
