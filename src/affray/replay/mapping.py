"""The played fight written as an encounter file for another ruleset: the file ``affray run --auto`` plays to replay it.

The same combatants (the played file's sides, hit points as rolled from the same seed), the same seed, each
combatant's declarations in the order it made them as its plan (the ruleset consumes them at its own moments of
declaring, CONTRACT "When a declaration is consumed"), each with the dice that fell for it where a die means the same
under every ruleset (``said``); the surprise as it fell (who was surprised is the encounter's, not the system's);
the played options that the other ruleset also has. Each ruleset rolls its own initiative, surprise and morale dice
from the seed. What a ruleset cannot take is left out and said (``Note``): an option or a declaration key it does not
have, a die out of its range for that throw.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from affray.engine.events import Surprise
from affray.engine.ruleset import Ruleset
from affray.errors import OptionError
from affray.extensions import check_option, option_names
from affray.model.encounter import ACTION_KEYS, Declaration
from affray.replay.played import Played, Said

__all__ = ["Mapped", "Note", "base_options", "mapped_text", "ordinal", "plan_entries", "surprise_as_played", "words"]

#: The fields every declaration has; any other key is a ruleset's own (``Ruleset.declaration_keys``).
_COMMON_KEYS = frozenset(f.alias or name for name, f in Declaration.model_fields.items())


@dataclass(frozen=True)
class Note:
    """One thing a replay says about what it could not carry, or changed: ``kind`` (``option``, ``key``, ``die``,
    ``replaced``, ``command``, ``joined``), whose declaration (``actor``, ``index``) where it is one, and the words."""

    kind: str
    text: str
    actor: str | None = None
    index: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.actor is not None:
            out["actor"] = self.actor
            out["index"] = self.index
        return out


@dataclass
class Mapped:
    """What a replay writes for one ruleset: its options, the surprise, each combatant's plan (entries as written),
    what was left out (``notes``)."""

    ruleset: str
    options: dict[str, Any]
    surprise: str | dict[str, bool]
    plan: dict[str, list[dict[str, Any]]]
    notes: list[Note] = field(default_factory=list)


def base_options(played: Played, cls: type[Ruleset[Any, Any]], sets: Mapping[str, Any]) -> tuple[dict[str, Any],
                                                                                                   list[Note]]:
    """The played fight's own options that ``cls`` has (a supplement's, shared by every ruleset: crits, agility...),
    then ``sets`` (the replay's ``--set``, each one ``cls`` has); notes for the played options left behind."""
    known = set(option_names(cls))
    out: dict[str, Any] = {}
    notes = []
    for name, value in played.options.items():
        if name not in known:
            notes.append(Note("option", f"the played option {name}={_value(value)} is {played.ruleset}'s own: "
                                        f"{cls.id} has none, its own rules play instead"))
            continue
        try:
            out[name] = check_option(cls, name, value)
        except OptionError as exc:
            notes.append(Note("option", f"the played option {name}={_value(value)} does not fit {cls.id}: {exc}"))
    for name, value in sets.items():
        if name in known:
            out[name] = value
    return out, notes


def surprise_as_played(played: Played) -> str | dict[str, bool]:
    """Who was surprised, as it fell: the file's ruling when it made one, else the played fight's surprise event
    (each ruleset's surprise die would rule it again otherwise, a difference of the dice and not of the system)."""
    ruled = played.prepared.encounter.surprise
    if ruled != "check":
        return ruled
    first = next((e for e in played.events if isinstance(e, Surprise)), None)
    if first is None:
        return "check"
    surprised = set(first.surprised)
    return {side: side in surprised for side in played.prepared.encounter.sides}


def plan_entries(saids: Sequence[Said], cls: type[Ruleset[Any, Any]], replaced: Mapping[tuple[str, int],
                 dict[str, Any]], dropped: Mapping[tuple[str, int], set[tuple[int | None, str]]]) -> tuple[
                 dict[str, list[dict[str, Any]]], list[Note]]:
    """Each combatant's plan: its declarations in order, with their dice, the keys ``cls`` has; ``replaced`` entries
    (the policy's, where ``cls`` could not take the declaration) as they are; ``dropped``: dice keys left out of an
    entry ((attack number or None for all, key))."""
    plan: dict[str, list[dict[str, Any]]] = {}
    notes: list[Note] = []
    own = cls.declaration_keys
    for s in saids:
        key = (s.actor, s.index)
        entries = plan.setdefault(s.actor, [])
        if key in replaced:
            entries.append(dict(replaced[key]))
            continue
        entry = {}
        for k, v in s.entry.items():
            if k in _COMMON_KEYS or k in own:
                entry[k] = v
            elif v is not None and v is not False:
                notes.append(Note("key", f"{_nth(s)} `{words(s.entry)}` carried `{k}: {_value(v)}`, a key of "
                                         f"the played ruleset's own that {cls.id} does not have: left out",
                                  s.actor, s.index))
        gone = dropped.get(key, set())
        dice = [{k: v for k, v in d.items() if (n, k) not in gone and (None, k) not in gone}
                for n, d in enumerate(s.dice)]
        while dice and not dice[-1]:
            dice.pop()
        if s.outcomes and (None, "outcome") not in gone:
            entry["outcome"] = [dict(o) for o in s.outcomes]
        if any(dice):
            entry["dice"] = dice
        entries.append(entry)
    return plan, notes


def mapped_text(played: Played, mapped: Mapped, header: str) -> str:
    """The played encounter's text (its comments and order kept) with ``mapped`` written in: ruleset, seed, options,
    surprise, plan; of its ``rolls`` only the hit points (every other die there belonged to the played ruleset's
    moments); ``header`` as a comment above it."""
    text = played.text
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 120
    data: Any = json.loads(text) if text.lstrip().startswith("{") else yaml.load(text)
    if not isinstance(data, dict):  # pragma: no cover - the played fight loaded it
        data = CommentedMap()
    data["ruleset"] = mapped.ruleset
    data["seed"] = played.seed
    data["options"] = _flow(mapped.options)
    data["surprise"] = _flow(mapped.surprise) if isinstance(mapped.surprise, dict) else mapped.surprise
    rolls = data.get("rolls")
    hp = rolls.get("hp") if isinstance(rolls, dict) else None
    if hp:
        data["rolls"] = CommentedMap([("hp", hp)])
    elif "rolls" in data:
        del data["rolls"]
    if "plan" in data:
        del data["plan"]
    if not isinstance(data, CommentedMap):
        data = CommentedMap(data)
    out = io.StringIO()
    out.write("".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()))
    yaml.dump(data, out)
    out.write("plan:\n")  # written by hand: one line an entry, as a referee writes a plan
    for actor, entries in mapped.plan.items():
        out.write(f"  {_scalar(actor)}:\n")
        out.write("".join(f"    - {_inline(entry)}\n" for entry in entries))
    return out.getvalue()


def _inline(value: Any) -> str:
    """``value`` as YAML flow: ``{melee: Goblin 1, dice: [{attack: 14, damage: 5}]}``."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_scalar(k)}: {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return _scalar(value)


_PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9 _'-]*[A-Za-z0-9']$|^[A-Za-z]$")
_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"})


def _scalar(value: Any) -> str:
    """A scalar as YAML: a name plain where YAML reads it back as the same string, else quoted as JSON."""
    if isinstance(value, str):
        return value if _PLAIN.match(value) and value.lower() not in _WORDS else json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def _flow(value: Any) -> Any:
    """A mapping (and the mappings and lists in it) written on one line, as a plan entry is by hand."""
    if isinstance(value, Mapping):
        m = CommentedMap((k, _flow(v)) for k, v in value.items())
        m.fa.set_flow_style()
        return m
    if isinstance(value, list):
        s = CommentedSeq(_flow(v) for v in value)
        s.fa.set_flow_style()
        return s
    return value


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v


def words(entry: Mapping[str, Any]) -> str:
    """A plan entry in words, short: ``melee Goblin 1``, ``cast sleep at goblins``."""
    action = next(k for k in ACTION_KEYS if k in entry)
    value = entry[action]
    text = action if value is True else f"{action} {value}"
    if action == "cast" and entry.get("at"):
        text += f" at {entry['at']}"
    if entry.get("weapon"):
        text += f" with {entry['weapon']}"
    if action == "move" and entry.get("mode"):
        text += f" ({entry['mode']})"
    return text


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _nth(s: Said) -> str:
    return f"{s.actor}'s {ordinal(s.index + 1)} declaration"
