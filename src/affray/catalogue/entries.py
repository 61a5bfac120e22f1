"""A catalogue entry of each kind: the figures affray applies (the encounter model's own fields, checked by its
models) and what the referee reads beside them (the source, the weight, the range, what is not applied yet).

Every entry cites its ``source``. An entry may instead be ``same_as`` another of its kind (``mace`` is the footman's
mace): it takes that entry's figures, and any it gives itself win.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from affray.dice.expr import parse_dice
from affray.model.encounter import SIZES, Combatant, Name, Spell, Text, Weapon, parse_duration

__all__ = ["KINDS", "ArmourEntry", "Entry", "MonsterEntry", "Scale", "SpellEntry", "WeaponEntry", "entry_model"]

#: The kinds of entry, as the command line and a referee's file name them.
KINDS = ("weapons", "armour", "spells", "monsters")




class _Entry(BaseModel):
    """What every entry has besides its figures."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: Text | None = Field(None, description="where the figures come from: book and table or page, or the "
                                "open-content document")
    note: Text = Field("", description="what the referee should know: specials, what affray does not apply, and "
                       "where a figure is an interpretation")
    same_as: Name | None = Field(None, description="another entry of this kind whose figures this one takes")

    @model_validator(mode="after")
    def _cited(self) -> _Entry:
        if self.source is None and self.same_as is None:
            raise ValueError("an entry needs its `source` (book and table or page), or `same_as` another entry")
        return self

    #: The model fields of the encounter file this kind of entry fills in (the rest is the referee's to read).
    FIGURES: ClassVar[tuple[str, ...]] = ()

    def figures(self) -> dict[str, Any]:
        """The fields this entry gives, as a file would write them (only those it sets)."""
        data = self.model_dump(mode="json", exclude_unset=True, by_alias=True)
        return {k: v for k, v in data.items() if k in self.FIGURES}


# ---------------------------------------------------------------------------------------------- weapons

_WEAPON_FIGURES = tuple(f.alias or n for n, f in Weapon.model_fields.items() if n != "name")


class WeaponEntry(_Entry):
    """A weapon: its figures as ``Weapon`` fields; its type, size, weight and ranges for the referee."""

    FIGURES: ClassVar[tuple[str, ...]] = _WEAPON_FIGURES
    model_config = ConfigDict(extra="allow", frozen=True)
    type: Text | None = Field(None, description="S (slashing), P (piercing), B (bludgeoning), or two of them")
    size: Literal["S", "M", "L"] | None = Field(None, description="the weapon's own size (2e PH Table 44)")
    weight: float | None = Field(None, ge=0, le=1000, description="pounds")
    range: tuple[int, int, int] | None = Field(None, description="short, medium and long range of a missile or "
                                               "thrown weapon, in yards (2e PH Table 45 prints tens of yards)")

    @model_validator(mode="after")
    def _weapon_figures(self) -> WeaponEntry:
        extra = set(self.model_extra or {}) - set(_WEAPON_FIGURES)
        if extra:
            raise ValueError(f"unknown field {sorted(extra)[0]!r} for a weapon (a weapon's figures: "
                             f"{', '.join(_WEAPON_FIGURES)}; and source, note, same_as, type, size, weight, range)")
        Weapon.model_validate({"name": "x", **self.figures()})  # the figures as the file's model checks them
        return self

    def figures(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


# ----------------------------------------------------------------------------------------------- armour

class ArmourEntry(_Entry):
    """Body armour (the AC it gives) or a shield (how much it lowers AC), with its weight in pounds."""

    kind: Literal["armour", "shield"] = "armour"
    ac: int | None = Field(None, ge=-10, le=10, description="the armour class it gives (body armour)")
    bonus: int | None = Field(None, ge=0, le=10, description="how much it lowers the bearer's AC (a shield)")
    weight: float | None = Field(None, ge=0, le=1000, description="pounds")

    @model_validator(mode="after")
    def _ac_or_bonus(self) -> ArmourEntry:
        if self.same_as is None:
            if self.kind == "armour" and self.ac is None:
                raise ValueError("body armour needs its `ac`")
            if self.kind == "shield" and self.bonus is None:
                raise ValueError("a shield needs its `bonus` (how much it lowers AC)")
        return self


# ----------------------------------------------------------------------------------------------- spells

class Scale(BaseModel):
    """A spell's figure by caster level: ``times`` copies of its dice (every ``every`` levels from ``first``, at
    most ``most``), ``plus`` points a level (at most ``plus_most``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    every: int = Field(1, ge=1, le=20, description="one more copy of the damage dice every this many levels")
    first: int = Field(1, ge=1, le=40, description="the caster level that gives the first copy")
    most: int = Field(1, ge=1, le=40, description="at most this many copies")
    plus: int = Field(0, ge=0, le=20, description="points of damage added a caster level")
    plus_most: int = Field(0, ge=0, le=100, description="at most this many points added")

    def times(self, level: int) -> int:
        """Copies of the dice at caster ``level``: ``(level - first) // every + 1``, at most ``most``."""
        if level < self.first:
            return 0
        return min(self.most, (level - self.first) // self.every + 1)

    def bonus(self, level: int) -> int:
        return min(self.plus_most, self.plus * level) if self.plus else 0


_SPELL_FIGURES = tuple(f.alias or n for n, f in Spell.model_fields.items() if n not in ("name", "cast"))


class SpellEntry(_Entry):
    """A spell: its figures as ``Spell`` fields, what scales with the caster's level, and the book's own words for
    range, area, duration and save."""

    FIGURES: ClassVar[tuple[str, ...]] = _SPELL_FIGURES
    model_config = ConfigDict(extra="allow", frozen=True)
    caster: Literal["wizard", "priest"] | None = Field(None, description="whose spell list it is on")
    school: Text | None = Field(None, description="the wizard's school or the priest's sphere")
    range: Text | None = Field(None, description="the range as the book prints it")
    aoe: Text | None = Field(None, description="the area of effect as the book prints it")
    saving_throw: Text | None = Field(None, description="the saving throw as the book prints it")
    lasts: Text | None = Field(None, description="the duration as the book prints it")
    damage_by_level: Scale | None = Field(None, description="the damage dice multiplied by caster level")
    duration_by_level: Annotated[str, AfterValidator(lambda v: _duration_unit(v))] | None = Field(
        None, description="the duration a caster level (`5 rounds`: 5 rounds a level)")
    duration_base: Annotated[str, AfterValidator(lambda v: _duration_unit(v))] | None = Field(
        None, description="added to `duration_by_level`, in the same unit (`3 rounds` + 1 round a level)")
    max_hd_by_level: bool = Field(False, description="the effect's `max_hd` is the caster's level")
    pending: dict[str, Text] = Field(default_factory=dict, description="what the spell does that affray does "
                                     "not apply yet, figure by figure (healing, a bonus to hit, a pool of Hit Dice)")

    @model_validator(mode="after")
    def _spell_figures(self) -> SpellEntry:
        extra = set(self.model_extra or {}) - set(_SPELL_FIGURES)
        if extra:
            raise ValueError(f"unknown field {sorted(extra)[0]!r} for a spell (a spell's figures: "
                             f"{', '.join(_SPELL_FIGURES)}; and source, note, same_as, caster, school, range, aoe, "
                             "saving_throw, lasts, damage_by_level, duration_by_level, duration_base, max_hd_by_level, "
                             "pending)")
        Spell.model_validate({"name": "x", **self.figures()})
        if self.damage_by_level is not None and "damage" not in self.figures():
            raise ValueError("damage_by_level multiplies the spell's `damage`: give it")
        if self.duration_base is not None and (self.duration_by_level is None or parse_duration(
                self.duration_base)[1] != parse_duration(self.duration_by_level)[1]):
            raise ValueError("duration_base is added to duration_by_level, in the same unit: give both")
        if self.max_hd_by_level and "effect" not in self.figures():
            raise ValueError("max_hd_by_level sets the effect's max_hd: give the effect")
        return self

    def figures(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


def _duration_unit(value: str) -> str:
    n, unit = parse_duration(Spell.model_validate({"name": "x", "duration": value}).duration or "")
    return f"{n} {unit}s"


# --------------------------------------------------------------------------------------------- monsters

#: The combatant fields a monster entry may give (its name and hit points are the encounter's).
_MONSTER_FIGURES = tuple(f.alias or n for n, f in Combatant.model_fields.items()
                         if n not in ("name", "count", "hp", "hp_each", "monster", "armour", "pc", "henchman",
                                      "policy", "declare", "fallen", "hp_max", "conditions"))


class MonsterEntry(_Entry):
    """A monster: its figures as ``Combatant`` fields (``weapons`` may name catalogue weapons), its Hit Dice's hit
    points, and its morale on 2d6."""

    FIGURES: ClassVar[tuple[str, ...]] = _MONSTER_FIGURES
    model_config = ConfigDict(extra="allow", frozen=True)
    hp_dice: Text | None = Field(None, description="the dice of its hit points when not its Hit Dice in d8s "
                                 "(`1d4` for 1-4 hit points)")
    morale_2d6: int | None = Field(None, ge=2, le=12, description="its morale score on 2d6 (B/X, OSE): used as "
                                   "it is where a ruleset rolls 2d6, and as the 2d10 score of the nearest chance "
                                   "where it rolls 2d10 (a `morale` figure, if given, is used as it is everywhere)")
    special: Text = Field("", description="special attacks and defences, as the source gives them")

    @model_validator(mode="after")
    def _monster_figures(self) -> MonsterEntry:
        extra = set(self.model_extra or {}) - set(_MONSTER_FIGURES)
        if extra:
            raise ValueError(f"unknown field {sorted(extra)[0]!r} for a monster (a monster's figures: "
                             f"{', '.join(_MONSTER_FIGURES)}; and source, note, same_as, "
                             "hp_dice, morale_2d6, special)")
        if self.same_as is None and "hd" not in self.figures():
            raise ValueError("a monster needs its Hit Dice, `hd`")
        if self.hp_dice is not None:
            parse_dice(self.hp_dice)
        return self

    def figures(self) -> dict[str, Any]:
        return dict(self.model_extra or {})

    @field_validator("special")
    @classmethod
    def _special(cls, v: str) -> str:
        return v.strip()


Entry = WeaponEntry | ArmourEntry | SpellEntry | MonsterEntry


_MODELS: dict[str, type[WeaponEntry] | type[ArmourEntry] | type[SpellEntry] | type[MonsterEntry]] = {
    "weapons": WeaponEntry, "armour": ArmourEntry, "spells": SpellEntry, "monsters": MonsterEntry}


def entry_model(kind: str) -> type[WeaponEntry] | type[ArmourEntry] | type[SpellEntry] | type[MonsterEntry]:
    """The model of an entry of ``kind`` (one of KINDS)."""
    return _MODELS[kind]


#: Sizes as a monster entry writes them: the encounter's words.
MONSTER_SIZES = SIZES
