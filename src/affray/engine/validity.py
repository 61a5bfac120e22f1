"""Whether a declaration is possible for a combatant, and why not: the one validator (STYLE.md, "one owner per
concern").

What a question offers, what an answer is accepted as, what a repeated or said-ahead declaration stands as and what
the encounter file's check allows are all decided here, so that what is offered is accepted and happens, and what
cannot happen is neither offered nor accepted. Two layers:

- ``references``: what holds whatever the moment: the targets and sides it names exist, the weapon is carried and of
  the right kind, the spell is known, a spell that acts on someone names who (``needs_target``), a charge is a melee.
  The file's check (``io.references``) and an answer's (``drive.questions``) both ask it.
- ``why_not``: what holds at this moment of a fight: the target is still in it, the spell can still be paid for, and
  whatever the ruleset's seed restricts (``Ruleset.refusal``: a casting barred for the round, a charge that cannot
  arrive). A declaration for a later point (the console's ``plan``, one said ahead) is held only to what lasts.

The checks of a ruleset's own keys and of dice entered for their die are the file's (``io.checks``), run on an
answer as if the file had given it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from affray.engine.places import missile_refusal
from affray.model.encounter import Declaration, Spell, Weapon
from affray.model.order import Order, order_of

if TYPE_CHECKING:
    from affray.engine.state import Fighter, FightState

__all__ = ["Moment", "cast_refusal", "needs_target", "out_how", "place_references", "references", "why_not"]


class Refuses(Protocol):
    def refusal(self, fight: Any, f: Fighter, decl: Order) -> str | None: ...


class Moment(Protocol):
    """What the validator reads of a fight (``engine.fight.Fight`` is one, and asks it): its state, and its
    ruleset's restrictions of the moment. A protocol, so that the fight and its validator do not import each other."""

    @property
    def state(self) -> FightState: ...

    @property
    def ruleset(self) -> Refuses: ...


def needs_target(spell: Spell) -> bool:
    """Whether casting ``spell`` is wasted without ``at``: it deals damage, heals or sets a condition on someone; a
    touch spell is delivered later by its touch (C2-10), a spell without any of these acts on no one the file names."""
    return not spell.touch and (spell.damage is not None or spell.heal is not None or spell.effect is not None)


def _listed(names: Collection[str]) -> str:
    shown = list(names)
    return ", ".join(shown[:12]) + (" ..." if len(shown) > 12 else "") or "none"


def references(decl: Declaration, actor: str, weapons: Sequence[Weapon], spells: Sequence[Spell],  # noqa: C901
               names: Mapping[str, str], sides: Collection[str]) -> Iterator[tuple[str, str]]:
    """(field, what is wrong) for each thing ``decl`` names that ``actor`` cannot use whatever the moment; ``weapons``
    and ``spells`` are its own, ``names`` every combatant's side by name, ``sides`` the sides."""
    action = decl.action
    if action in ("melee", "missile"):
        target = decl.melee if action == "melee" else decl.missile
        if target is not None and target not in names and target in sides:  # a side: one of it each time (the
            if target == names.get(actor):  # fight's ``Fight._member``)
                yield action, f"{target} is {actor}'s own side: name a foe, or a foe's side"
        elif target is not None and target not in names:
            yield action, f"no combatant named {target!r} to attack (combatants: {_listed(names)})"
        elif target == actor and "touch" not in decl.extra:  # a touch spell may be given to oneself (C2-10)
            yield action, f"{target} cannot attack itself: name a foe"
        if decl.weapon is not None:
            weapon = next((w for w in weapons if w.name == decl.weapon), None)
            if weapon is None:
                have = ", ".join(w.name for w in weapons) or "none"
                yield "weapon", f"{actor} carries no weapon {decl.weapon!r} (weapons: {have})"
            elif action == "missile" and weapon.kind == "melee":
                yield "weapon", (f"{decl.weapon!r} is a melee weapon; a missile attack needs kind: missile or "
                                 "thrown")
            elif action == "melee" and weapon.kind == "missile":
                yield "weapon", f"{decl.weapon!r} is a missile weapon; use `missile:`"
        elif action == "missile" and all(w.kind == "melee" for w in weapons):
            yield "missile", f"{actor} has no missile or thrown weapon to shoot with"
    elif action == "cast":
        spell = next((s for s in spells if s.name == decl.cast), None)
        if spell is None:
            have = ", ".join(s.name for s in spells) or "none"
            yield "cast", f"{actor} has no spell {decl.cast!r} (spells: {have})"
        if decl.at is not None and decl.at not in names and decl.at not in sides:
            yield "at", (f"no combatant or side named {decl.at!r} (sides: {', '.join(sides)}; combatants: "
                         f"{_listed(names)})")
        elif spell is not None and spell.area == 1 and decl.at in sides and decl.at not in names:
            yield "at", f"{spell.name} takes one target (its area is 1): name a combatant of {decl.at}, not the side"
        elif decl.at is None and spell is not None and needs_target(spell):
            yield "at", (f"{spell.name} acts on someone ({_acts(spell)}): give at, a combatant or a side, or it is "
                         "cast at nobody")
    if action != "melee" and decl.charge:
        yield "charge", "charge: true goes with a melee declaration"


def place_references(decl: Declaration, names: Mapping[str, str], placed_by: str | None) -> Iterator[tuple[str, str]]:
    """(field, what is wrong) of a declaration's words of place: ``to``, ``toward`` and ``away`` go with a move, one
    of them, naming a combatant; ``placed_by`` (the field that places the fight, None if nothing does) rules out a
    ``distance`` typed in (the engine works it out) and asks a place of a move's direction."""
    given = [k for k in ("to", "toward", "away") if getattr(decl, k) is not None]
    if given and decl.action != "move":
        yield given[0], f"{given[0]} goes with a move (move: FEET, {given[0]}: ...)"
    elif len(given) > 1:
        yield given[1], f"a move goes one way: give one of to, toward and away (here {' and '.join(given)})"
    for key in ("toward", "away"):
        who = getattr(decl, key)
        if who is not None and who not in names:
            yield key, f"no combatant named {who!r} (combatants: {_listed(names)})"
    if given and placed_by is None:
        yield given[0], ("nobody in this fight has a place: give the sides or combatants at: [x, y] (feet) to move "
                         f"by {given[0]}")
    if placed_by is not None and decl.distance:
        yield "distance", (f"the fight places its combatants ({placed_by}): the feet to close are worked out from "
                           "where they stand; drop distance (or place them elsewhere)")


def _acts(spell: Spell) -> str:
    return ", ".join(w for w, on in (("damage", spell.damage), ("healing", spell.heal),
                                     (spell.effect.condition if spell.effect else "", spell.effect)) if on is not None)


def cast_refusal(fight: Moment, f: Fighter, spell: Spell) -> str | None:
    """Why ``f`` cannot begin ``spell`` at this moment, whatever its target: no memorised copy, mana or slot left
    (C2X-06/08), or its ruleset bars casting now (what a question offers under ``cast``)."""
    cannot = f.can_cast(spell)
    if cannot is not None:
        return cannot
    return fight.ruleset.refusal(fight, f, _casting(spell.name))


@lru_cache(maxsize=256)
def _casting(name: str) -> Order:
    """A declaration to cast ``name`` (one a spell: the policies ask for each caster's spells at every point)."""
    return order_of(Declaration(cast=name))


def out_how(f: Fighter) -> str:
    """How one out of the fight left it: dead, unconscious, fled, or gone (surrendered, removed)."""
    return ("unconscious" if f.unconscious else "dead") if f.down else "fled" if f.fled else "gone"


def why_not(fight: Moment, f: Fighter, decl: Order, *, now: bool = True) -> str | None:  # noqa: C901
    """Why ``decl`` cannot be ``f``'s declaration in this fight as it stands, or None. ``now``: for this very moment,
    so the ruleset's restrictions of the moment count (``Ruleset.refusal``); else for a later declaration point (the
    console's ``plan``, a declaration said ahead), held only to what lasts: a target out of the fight, a spell that
    can no longer be paid for."""
    state = fight.state
    target = decl.target
    if target is not None and decl.cast is None:
        t = state.fighters.get(target)
        if t is None and target in state.sides:  # an attack on a side: one of it still standing, each time
            if state.active_left[target] == 0:
                return f"no one of {target} is left in the fight"
            return fight.ruleset.refusal(fight, f, decl) if now else None
        if t is None:
            return f"no combatant named {target!r}"
        if not t.active:
            return f"{target} is out of the fight ({out_how(t)})"
    if decl.cast is not None:
        spell = f.spells.get(decl.cast)
        if spell is None:
            return f"{f.name} has no spell {decl.cast!r}"
        cannot = f.can_cast(spell)
        if cannot is not None:
            return cannot
        at = decl.at
        if at is None:
            if needs_target(spell):
                return f"{spell.name} acts on someone ({_acts(spell)}): give at, a combatant or a side"
        else:
            t = state.fighters.get(at)
            if t is not None and not t.active:
                return f"{at} is out of the fight ({out_how(t)})"
            if t is None and at in state.sides:
                if spell.area == 1:  # what the file's check says of it too (``references``): a policy asks only here
                    return f"{spell.name} takes one target (its area is 1): name a combatant of {at}, not the side"
                if state.active_left[at] == 0:
                    return f"no one of {at} is left in the fight"
    if state.placed and decl.distance:
        return (f"{f.name} stands at {_point(f.pos)}: where everyone stands says how far to close; drop distance "
                "(or place it elsewhere)")
    if decl.action == "missile":  # ammunition spent, a range exceeded (both cheap to ask of a weapon without them)
        far = missile_refusal(f, state.fighters.get(decl.missile or ""), f.weapon(decl.weapon, missile=True))
        if far is not None:
            return far
    return fight.ruleset.refusal(fight, f, decl) if now else None


def _point(p: tuple[int, int] | None) -> str:
    return f"[{p[0]}, {p[1]}]" if p is not None else "nowhere"
