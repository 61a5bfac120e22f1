"""The checks a file must pass under a ruleset: those every ruleset makes, then the ruleset's own
(``Ruleset.check_more``). Options, declaration keys, dice out of range for their die."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from affray.engine.fight import CHANGE, COMMON_KEYS
from affray.engine.options import option_info
from affray.errors import AffrayError, OptionError, Problem
from affray.extensions import check_option, extension_options, extensions, normalise
from affray.model.encounter import Combatant, Declaration, expand
from affray.supplements.c2x.crits import check_dice

if TYPE_CHECKING:
    from affray.engine.ruleset import Ruleset
    from affray.io.load import Loaded

__all__ = ["Planned", "check", "planned"]

#: A declaration of the file's plan: the actor, its combatant, the declaration and its field path.
Planned = tuple[str, Combatant, Declaration, tuple[Any, ...]]


def planned(loaded: Loaded) -> tuple[dict[str, Combatant], list[Planned]]:
    """Every combatant of the file by name, and each declaration of a known combatant with its field path."""
    enc = loaded.encounter
    specs = {name: c for name, _s, c, _l in expand(enc)}
    return specs, [(actor, specs[actor], d, ("plan", actor, i)) for actor, decls in enc.plan.items()
                   if actor in specs for i, d in enumerate(decls)]


def check(cls: type[Ruleset[Any, Any]], loaded: Loaded) -> Iterator[Problem]:  # noqa: C901
    """Ruleset-dependent problems: options, declaration keys, dice out of range for their die."""
    enc = loaded.encounter
    for name, value in enc.options.items():
        try:
            check_option(cls, name, value)
        except OptionError as exc:
            yield loaded.problem(("options", name), str(exc))
    for side, value in enc.rolls.surprise.items():
        if not 1 <= value <= cls.surprise_die:
            yield loaded.problem(("rolls", "surprise", side),
                                 f"{value} is not a d{cls.surprise_die} result (1-{cls.surprise_die})")
    names = {name for name, _side, _c, _loc in expand(enc)}
    for rnd, by_side in enc.rolls.initiative.items():
        for side, value in by_side.items():
            if side not in enc.sides and side not in names:
                continue  # the loader reports it
            if side not in enc.sides and not cls.initiative_by_name:
                sides = ", ".join(enc.sides)
                yield loaded.problem(("rolls", "initiative", str(rnd), side),
                                     f"{side!r} is a combatant: only d12-procedure (option individual_rolls) and "
                                     f"phase-count (an action's own d6) read a combatant's own initiative die here; "
                                     f"give a side (sides: {sides})")
            elif not 1 <= value <= cls.initiative_die:
                yield loaded.problem(("rolls", "initiative", str(rnd), side),
                                     f"{value} is not a d{cls.initiative_die} result (1-{cls.initiative_die})")
    default = next((o.default for o in option_info(cls.Options) if o.name == "morale_dice"), "2d6")
    morale = enc.options.get("morale_dice", default)
    lo, hi = (2, 20) if morale == "2d10" else (2, 12)
    for rnd, by_side in enc.rolls.morale.items():
        for side, value in by_side.items():
            if side not in enc.sides:
                continue  # the loader reports it
            if not lo <= value <= hi:
                yield loaded.problem(("rolls", "morale", str(rnd), side),
                                     f"{value} is not a {morale} total ({lo}-{hi})")
    for rnd, by_name in enc.rolls.free.items():
        for name, entries in by_name.items():
            for k, entry in enumerate(entries):
                attack = getattr(entry, "attack", None)
                if attack is not None and not 1 <= attack <= 20:
                    yield loaded.problem(("rolls", "free", str(rnd), name, k, "attack"),
                                         f"{attack} is not a d20 result (1-20)")
    specs = {name: c for name, _side, c, _loc in expand(enc)}
    for actor, decls in enc.plan.items():
        spec = specs.get(actor)  # keys are checked even for a name the loader reports unknown
        for i, d in enumerate(decls):
            loc = ("plan", actor, i)
            yield from _keys(cls, loaded, d, loc)
            if spec is not None:
                yield from _dice(cls, loaded, spec, d, loc, specs.get(d.target or ""))
    yield from cls.check_more(loaded)
    yield from _extensions(cls, loaded)


def _extensions(cls: type[Ruleset[Any, Any]], loaded: Loaded) -> Iterator[Problem]:
    """Each installed extension's checks of the file, with the file's options for it (if they are good)."""
    try:
        given = extension_options(normalise(loaded.encounter.options, cls))
    except AffrayError:
        return  # an extension that cannot be loaded: the options' check above said so
    for ext in extensions():
        try:
            opt = ext.parse(given.get(ext.name, {}))
        except OptionError:
            continue  # said above
        yield from ext.check(loaded, opt)


def _keys(cls: type[Ruleset[Any, Any]], loaded: Loaded, d: Declaration, loc: tuple[Any, ...]) -> Iterator[Problem]:
    for key in d.extra:
        if key not in cls.declaration_keys and key not in COMMON_KEYS:
            allowed = ", ".join((*cls.declaration_keys, *COMMON_KEYS))
            yield loaded.problem(loc + (key,), f"unknown declaration key {key!r} for ruleset {cls.id} (its own "
                                 f"keys: {allowed})")
    change = d.extra.get(CHANGE)
    if change is not None and change is not True and (type(change) is not int or change < 1):
        yield loaded.problem(loc + (CHANGE,), f"change is true, or the declaration point it comes at (a whole number "
                             f"from 1), not {change!r}")
    if d.roll is not None:
        die = cls.action_die
        if die is None:
            yield loaded.problem(loc + ("roll",), f"ruleset {cls.id} rolls no die per action")
        elif not 1 <= d.roll <= die:
            yield loaded.problem(loc + ("roll",), f"{d.roll} is not a d{die} result (1-{die})")


def _dice(cls: type[Ruleset[Any, Any]], loaded: Loaded, spec: Combatant, d: Declaration,
          loc: tuple[Any, ...], target: Combatant | None = None) -> Iterator[Problem]:
    """The dice a declaration gives, each within what it throws: a weapon's damage against a large target its
    ``damage_large`` (G-04, as the fight rolls it)."""
    if d.action == "cast":  # a saving throw for each target of the spell's effect, in order
        for k, given in enumerate(d.dice_given):
            save = given.other("save")
            if save is not None and not 1 <= save <= 20:
                where = loc + ("dice", k) if isinstance(d.dice, list) else loc + ("dice",)
                yield loaded.problem(where + ("save",), f"{save} is not a d20 result (1-20)")
    if d.action not in ("melee", "missile"):
        return
    weapon = spec.weapon_for(d.weapon, missile=d.action == "missile")
    for k, given in enumerate(d.dice_given):
        expr, times = cls.part_dice(spec, d, k)  # each part its own weapon's dice (a routine's, C2-07)
        part = next((w for w in spec.weapons if w.damage is expr), weapon)
        if (part is not None and expr is part.damage and part.damage_large is not None and target is not None
                and target.size in ("large", "huge", "gargantuan")):
            expr = part.damage_large
        where = loc + ("dice", k) if isinstance(d.dice, list) else loc + ("dice",)
        yield from check_dice(loaded, where, given, expr, times)
        if given.attack is not None and not 1 <= given.attack <= 20:
            yield loaded.problem(where + ("attack",), f"{given.attack} is not a d20 result (1-20)")
        if given.damage is not None:
            lo, hi = (expr.dice_min * times, expr.dice_max * times) if expr else (1, 2)
            if not lo <= given.damage <= hi:
                what = expr.text if expr else "1d2"
                yield loaded.problem(where + ("damage",), f"{given.damage} cannot be rolled on the damage dice of "
                                     f"{what}{' thrown twice' if times > 1 else ''} ({lo}-{hi})")
