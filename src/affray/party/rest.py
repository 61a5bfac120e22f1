"""``affray rest``: what days of rest restore under the 2nd-edition rules, said in words and written into the party
file.

- **Spells** (2e PH ch. 7, "Memorizing spells"): a night's rest and the hours of study or prayer give the caster
  its spells anew: every copy cast or lost (``cast``) is memorised again; spell points and slots (C2X-06, C2X-08)
  are full again (the file's ``mana`` and ``slots`` are dropped: the table's for class and level).
- **Hit points** (2e PH ch. 9, "Natural healing"): 1 a day of rest, 3 a day of complete bed rest (``--bed``), never
  above its hit points unhurt (``hp_max``). The Constitution bonus a week of bed rest adds is not counted.
- **Conditions** with time left end once it has passed (a day is 1,440 one-minute rounds); one the referee ends
  stays.
- **The fallen**: one unconscious (subdual, MJ-20) wakes with 1 hit point (the least of MJ-20's 1-3) and heals
  from there; the dead stay dead: rest raises nobody.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from affray.model.encounter import parse_duration
from affray.party.file import read_party, write_party

__all__ = ["ROUNDS_A_DAY", "rest"]

#: A day in rounds: the 2nd edition's round is a minute (2e PH ch. 9).
ROUNDS_A_DAY = 24 * 60
_ROUNDS = {"round": 1.0, "turn": 10.0, "phase": 1.0, "segment": 0.1}


def rest(path: str | Path, days: int, *, bed: bool = False) -> tuple[str, list[str]]:
    """The party file at ``path`` rested ``days`` days (``bed``: complete bed rest): the text written and the words
    for each member."""
    party = read_party(path)
    rate = 3 if bed else 1
    changes: dict[tuple[int, ...], dict[str, Any]] = {}
    words: list[str] = []
    for i, c in enumerate(party.data.get("combatants", [])):
        if not isinstance(c, dict):
            continue
        fields, said = _rested(c, days, rate)
        changes[(i,)] = fields
        words.append(said)
    how = f"{days} day{'s' if days != 1 else ''} of {'complete bed rest' if bed else 'rest'}"
    text = write_party(party, changes, {})
    return text, [f"{party.path}: {how} (2e PH ch. 9: {rate} hp a day)"] + words


def _rested(c: dict[str, Any], days: int, rate: int) -> tuple[dict[str, Any], str]:  # noqa: C901
    name = str(c.get("name") or c.get("monster") or "?")
    fields: dict[str, Any] = {}
    said: list[str] = []
    if c.get("fallen") == "dead":
        return fields, f"{name} is dead: rest raises nobody (the referee's: raise dead)"
    hp, most = c.get("hp"), c.get("hp_max")
    if c.get("fallen") == "unconscious":
        fields["fallen"] = None
        hp = 1
        said.append("wakes with 1 hp (MJ-20)")
    if isinstance(hp, int) and isinstance(most, int) and not isinstance(hp, bool):
        healed = min(most, hp + rate * days)
        if healed != c.get("hp") or "fallen" in fields:
            fields["hp"] = healed
            said.append(f"{c.get('hp')} -> {healed} hp of {most}" if healed < most else
                        f"{c.get('hp')} -> {healed} hp, whole")
        else:
            said.append(f"{healed} hp of {most}, whole" if healed == most else f"{healed} hp of {most}")
    memorised = [_spell_name(s) for s in c.get("spells", []) if isinstance(s, dict) and s.get("cast")]
    if memorised:
        fields["spells"] = [{k: v for k, v in s.items() if k != "cast"} if isinstance(s, dict) else s
                            for s in c["spells"]]
        said.append("memorised anew: " + ", ".join(memorised))
    for pool in ("mana", "slots"):
        if pool in c:
            fields[pool] = None
            said.append(f"{'spell points' if pool == 'mana' else 'spell slots'} full again")
    conditions = c.get("conditions")
    if isinstance(conditions, dict) and conditions:
        kept: dict[str, Any] = {}
        for condition, left in conditions.items():
            if left is None:
                kept[condition] = None
                said.append(f"still {condition} (until the referee ends it)")
                continue
            n, unit = parse_duration(str(left))
            rounds = n * _ROUNDS[unit] - days * ROUNDS_A_DAY
            if rounds > 0:
                kept[condition] = f"{int(rounds + 0.999)} rounds"
                said.append(f"still {condition}, {kept[condition]} left")
            else:
                said.append(f"no longer {condition}")
        fields["conditions"] = kept or None
    return fields, f"{name}: " + ("; ".join(said) if said else "nothing to restore")


def _spell_name(s: dict[str, Any]) -> str:
    return str(s.get("spell") or s.get("name") or "?")
