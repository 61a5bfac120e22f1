"""What a fight left of the party (CONTRACT.md "The party across fights"): hit points, spells cast or lost,
ammunition spent, conditions still running with the time they have left, who fell; written into the party file.

``Keeper`` is what a fight played with ``--party`` carries: the file and the side it plays as. Its ``save`` reads
the party file afresh (a referee may have edited it since the fight began), checks that it is still the party of the
fight, and rewrites it whole, atomically (``affray.party.file.write_atomic``); a party file that no longer matches
the fight is left as it is, and said so.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affray.engine.events import Missile
from affray.engine.fight import FOREVER, Fight
from affray.engine.state import Fighter, Memorized
from affray.errors import AffrayError
from affray.limits import MAX_DURATION
from affray.model.encounter import SPELL_CONDITIONS, Combatant
from affray.party.file import Party, read_party, write_party

__all__ = ["Keeper", "PartyMismatch", "left_by"]


class PartyMismatch(AffrayError):
    """The party file is no longer the party of the fight (its members changed since it began)."""


@dataclass(frozen=True)
class Keeper:
    """The party file a fight was started with (``path``) and the side it plays as (``side``)."""

    path: Path
    side: str

    def save(self, fight: Fight[Any]) -> str:
        """The party file rewritten with what ``fight`` left; the words saying so. PartyMismatch (nothing written)
        when the file's members are no longer the fight's; PartyError when it cannot be read or written."""
        party = read_party(self.path)
        changes, split, words = left_by(party, self.side, fight)
        write_party(party, changes, split)
        return f"{self.path}: the party as the fight left it: " + "; ".join(words)


def _members(c: Combatant) -> list[str]:
    return [c.name] if c.count == 1 else [f"{c.name} {k}" for k in range(1, c.count + 1)]


def left_by(party: Party, side: str, fight: Fight[Any]) -> tuple[dict[tuple[int, ...], dict[str, Any]],
                                                                 dict[int, list[str]], list[str]]:
    """The changes to make to ``party``'s combatants (by index; a ``count`` of several by index and member), the
    combatants to split into one entry a member, and the words for each member."""
    spec_side = fight.encounter.sides.get(side)
    raw = party.data.get("combatants", [])
    if spec_side is None or len(spec_side.combatants) != len(raw):
        raise PartyMismatch(f"{party.path}: its combatants are no longer the fight's side {side!r}: the party file "
                            "was changed since the fight began; nothing was written")
    state = fight.state.fighters
    shots: dict[tuple[str, str], int] = {}
    for e in fight.events:
        if isinstance(e, Missile) and e.actor is not None:
            shots[(e.actor, str(e.weapon))] = shots.get((e.actor, str(e.weapon)), 0) + 1
    changes: dict[tuple[int, ...], dict[str, Any]] = {}
    split: dict[int, list[str]] = {}
    words: list[str] = []
    for i, (c, r) in enumerate(zip(spec_side.combatants, raw, strict=True)):
        if c.fallen is not None:
            continue  # it was not in the fight
        names = _members(c)
        if any(n not in state or state[n].side != side for n in names):
            raise PartyMismatch(f"{party.path}: combatants[{i}] ({c.name}) is not in the fight's side {side!r}; "
                                "nothing was written")
        if len(names) > 1:
            split[i] = names
        for k, name in enumerate(names):
            f = state[name]
            fields, said = _left(fight, f, c, r, shots)
            changes[(i, k) if len(names) > 1 else (i,)] = fields
            words.append(said)
    return changes, split, words


def _left(fight: Fight[Any], f: Fighter, c: Combatant, r: dict[str, Any],
          shots: dict[tuple[str, str], int]) -> tuple[dict[str, Any], str]:
    """One member's fields as the fight left them, and the words."""
    fields: dict[str, Any] = {"hp": f.hp}
    if f.hp < f.spec.full_hp or "hp_max" in r or not isinstance(r.get("hp"), int):
        fields["hp_max"] = f.spec.full_hp  # unhurt, and never hurt before: the file stays as it was written
    said = [f"{f.name} {f.hp}/{f.spec.full_hp} hp"]
    if f.down:
        fields["fallen"] = "unconscious" if f.unconscious else "dead"
        said.append(f"fell ({fields['fallen']})")
    elif f.fled:
        said.append("left the fight")
    spells, cast = _spells(f, c, r)
    if spells is not None:
        fields["spells"] = spells
    said += cast
    final = f.pool.final()
    if "mana" in final:
        fields["mana"] = final["mana"]
        said.append(f"{final['mana']} mana left")
    if "slots" in final:
        fields["slots"] = {int(k): v for k, v in final["slots"].items()}
        said.append("slots left " + ", ".join(f"{k}: {v}" for k, v in final["slots"].items()))
    weapons, spent = _ammunition(f, c, r, shots)
    if weapons is not None:
        fields["weapons"] = weapons
    said += spent
    held = {} if f.down else _conditions(fight, f)
    fields["conditions"] = held or None
    said += [f"{name} ({left or 'until ended'})" for name, left in held.items()]
    return fields, ", ".join(said)


def _spells(f: Fighter, c: Combatant, r: dict[str, Any]) -> tuple[list[Any] | None, list[str]]:
    """Its spell entries with the copies cast or lost (``cast``), under memorised spells; the words."""
    entries = r.get("spells")
    if not isinstance(f.pool, Memorized) or not isinstance(entries, list) or len(entries) != len(c.spells):
        return None, []
    out: list[Any] = []
    words = []
    for entry, spell in zip(entries, c.spells, strict=True):
        cast = spell.count - f.pool.left.get(spell.name, spell.count)
        if cast > spell.cast:
            times = "" if cast - spell.cast == 1 else f" x{cast - spell.cast}"
            words.append(f"{spell.name}{times} cast or lost")
        if isinstance(entry, str):
            out.append({"spell": entry, "cast": cast} if cast else entry)
        elif isinstance(entry, dict):
            copy = dict(entry)
            if cast:
                copy["cast"] = cast
            else:
                copy.pop("cast", None)
            out.append(copy)
        else:
            out.append(entry)
    return out, words


def _ammunition(f: Fighter, c: Combatant, r: dict[str, Any],
                shots: dict[tuple[str, str], int]) -> tuple[list[Any] | None, list[str]]:
    """Its weapon entries with ``ammo``: what it carried as the fight began less the shots it made with each; the
    words."""
    entries = r.get("weapons")
    if not isinstance(entries, list) or len(entries) != len(c.weapons) or not any(
            isinstance(w, dict) and isinstance(w.get("ammo"), int) for w in entries):
        return None, []
    out: list[Any] = []
    words = []
    for entry, weapon in zip(entries, c.weapons, strict=True):
        if isinstance(entry, dict) and weapon.ammo is not None:
            used = shots.get((f.name, weapon.name), 0)
            left = max(0, weapon.ammo - used)
            out.append({**entry, "ammo": left})
            if used:
                words.append(f"{weapon.name}: {used} shot{'s' if used != 1 else ''}, {left} left")
        else:
            out.append(entry)
    return out, words


def _conditions(fight: Fight[Any], f: Fighter) -> dict[str, str | None]:
    """The spell conditions it still holds as the fight ends, each with the time left in rounds on the fight's own
    clock (rounded up: the least number of rounds whose end comes at or after the condition's), or None for one
    that lasts until the referee ends it."""
    out: dict[str, str | None] = {}
    now = fight.now
    for name, held in f.conditions.items():
        if name not in SPELL_CONDITIONS or not held.since <= now < held.until:
            continue
        if held.until >= FOREVER:
            out[name] = None
            continue
        n = 1
        while n < MAX_DURATION and fight.ruleset.expiry(fight, now, n, "round").tick < held.until:
            n += 1
        out[name] = f"{n} round{'s' if n != 1 else ''}"
    return out
