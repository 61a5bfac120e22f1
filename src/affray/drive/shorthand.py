"""Declarations as a referee says them: ``melee Orc 1 with dagger``, ``cast sleep at goblins``, ``withdraw``.

``entry`` turns one line into one plan entry (the mapping a file's plan holds), reading names against what
the combatant may declare (a question's ``choices``): a name may have spaces (``Orc Captain``, ``magic
missile``) and any case. A line in YAML flow style (``{melee: Orc 1, weapon: dagger}``, or ``melee: Orc 1``)
is read as YAML. ``suggest`` gives what may come next on a partly typed line (the console's Tab).

The forms (then, in any order: ``with WEAPON``, ``at TARGET``, ``roll N``, ``distance N``, ``hit [N]`` or
``miss``, ``speed S``, and the ruleset's own keys, each with a value or alone for ``true``)::

    melee NAME          attack NAME, strike NAME
    missile NAME        shoot NAME, fire NAME, throw NAME
    charge NAME         a melee with charge
    set NAME            a melee with set (where the ruleset has it: set against a charge)
    cast SPELL          cast SPELL at TARGET
    move [FEET] [MODE]  withdraw [FEET], retreat [FEET], flee [FEET] (default: its full movement); in a fight
                        that places its combatants, then ``toward NAME``, ``away NAME`` or ``to X Y``
    wait                none (nothing), misc TEXT
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from affray.drive.questions import AnswerError

__all__ = ["VERBS", "entry", "suggest"]

_ATTACKS = {"melee": "melee", "attack": "melee", "strike": "melee", "missile": "missile", "shoot": "missile",
            "fire": "missile", "throw": "missile"}
_MOVES = ("withdraw", "retreat", "flee")
#: The words a declaration may begin with (besides a ruleset's own keys).
VERBS = (*_ATTACKS, "charge", "set", "cast", "move", *_MOVES, "wait", "none", "nothing", "misc")
_MODIFIERS = ("with", "at", "roll", "distance", "hit", "miss", "speed", "mode")
#: A placed fight's way of a move (docs/positions.md): read after a move, not offered by Tab in a fight without places.
_WAYS = ("toward", "away", "to")


def entry(text: str, choices: Mapping[str, Any]) -> dict[str, Any]:
    """One plan entry from ``text``; AnswerError says what is wrong and what would be right."""
    text = text.strip()
    if not text:
        raise AnswerError("say what it does, e.g. `melee NAME` (? lists the choices)")
    first = text.split()[0]
    if text[0] in "{[" or first.endswith(":"):
        return _yaml(text if text[0] in "{[" else "{" + text + "}")
    return _Reader(text.split(), choices).read()


def _yaml(text: str) -> dict[str, Any]:
    try:
        data = YAML(typ="safe").load(text)
    except YAMLError:
        raise AnswerError("not readable as YAML flow style; e.g. {melee: Orc 1, weapon: dagger}") from None
    if not isinstance(data, dict):
        raise AnswerError("one plan entry is a mapping, e.g. {melee: Orc 1}")
    return data


class _Reader:
    """Reads one declaration's words left to right."""

    def __init__(self, words: Sequence[str], choices: Mapping[str, Any]) -> None:
        self.words = list(words)
        self.i = 0
        self.c = choices
        self.keys: dict[str, str] = dict(choices.get("keys", {}))
        self.default_feet = False  # a move whose feet were not typed: its mode's default

    # -- the names it may use ---------------------------------------------------------------------------
    def _names(self, kind: str) -> list[str]:
        c = self.c
        if kind == "foe":  # a combatant, or an enemy side (an attack on the kobolds: one of them at each point)
            return list(c.get("enemies", [])) + list(c.get("allies", [])) + list(c.get("foe_sides", []))
        if kind == "weapon":
            return [w["name"] for w in c.get("weapons", [])]
        if kind == "spell":
            return [s["name"] for s in c.get("spells", [])]
        return list(c.get("enemies", [])) + list(c.get("allies", [])) + list(c.get("sides", []))

    def _name(self, kind: str, what: str) -> str:
        """The longest run of the next words that is a name of ``kind`` (any case)."""
        names = self._names(kind)
        lowered = {n.lower(): n for n in names}
        for j in range(len(self.words), self.i, -1):
            said = " ".join(self.words[self.i:j]).lower()
            if said in lowered:
                self.i = j
                return lowered[said]
        said = " ".join(self.words[self.i:self.i + 3]) if self.i < len(self.words) else ""
        known = ", ".join(names) or "none"
        if not said:
            raise AnswerError(f"{what}: name one ({known})")
        if kind in ("foe", "target"):  # one out of the fight is named as such, not as nobody
            out = {n.lower(): (n, how) for n, how in dict(self.c.get("fallen", {})).items()}
            for j in range(len(self.words), self.i, -1):
                hit = out.get(" ".join(self.words[self.i:j]).lower())
                if hit is not None:
                    raise AnswerError(f"{what}: {hit[0]} is out of the fight ({hit[1]}); still standing: {known}")
        raise AnswerError(f"{what}: no {_KIND_WORDS[kind]} named {said!r} ({known})")

    def _coordinate(self, what: str) -> int:
        word = self._word()
        if word is None or not word.lstrip("-").isdigit() or len(word) > 6:
            raise AnswerError(f"{what}: give X Y, whole feet (e.g. move 30 to 40 -10)")
        return int(word)

    def _int(self, what: str) -> int:
        word = self._word()
        if word is None or not word.isdigit():
            raise AnswerError(f"{what}: give a whole number{f', not {word!r}' if word else ''}")
        return int(word)

    def _word(self) -> str | None:
        if self.i >= len(self.words):
            return None
        self.i += 1
        return self.words[self.i - 1]

    def _peek(self) -> str | None:
        return self.words[self.i].lower() if self.i < len(self.words) else None

    # -- the declaration ------------------------------------------------------------------------------
    def read(self) -> dict[str, Any]:  # noqa: C901
        verb = (self._word() or "").lower()
        out: dict[str, Any] = {}
        if verb in _ATTACKS:
            out[_ATTACKS[verb]] = self._name("foe", verb)
        elif verb == "charge":
            out.update(melee=self._name("foe", verb), charge=True)
        elif verb == "set":
            if "set" not in self.keys:
                raise AnswerError("set: this ruleset has no `set` (its own keys: "
                                  f"{', '.join(self.keys) or 'none'})")
            out.update(melee=self._name("foe", verb), set=True)
        elif verb == "cast":
            out["cast"] = self._name("spell", verb)
        elif verb == "move" or verb in _MOVES:
            if (self._peek() or "").isdigit():
                out["move"] = self._int(verb)
            else:  # its mode's default (below, once the mode is read): its full movement, or the most that mode allows
                self.default_feet = True
                out["move"] = int(self.c.get("movement", 0))
            if verb in _MOVES:
                out["mode"] = verb
        elif verb == "wait":
            out["wait"] = True
        elif verb in ("none", "nothing"):
            out["none"] = True
        elif verb == "misc":
            rest = " ".join(self.words[self.i:])
            if not rest:
                raise AnswerError("misc: say what it does, e.g. misc opens the door")
            self.i = len(self.words)
            out["misc"] = rest
        else:
            starts = ", ".join(VERBS)
            raise AnswerError(f"{verb!r} is not a declaration: begin with one of {starts} (or give YAML, e.g. "
                              "{melee: Orc 1}; ? lists the choices)")
        while (word := self._peek()) is not None:
            self._modifier(word, out)
        if self.default_feet and isinstance(out.get("mode"), str):
            out["move"] = int(self.c.get("moves", {}).get(out["mode"], out["move"]))
        return out

    def _modifier(self, word: str, out: dict[str, Any]) -> None:  # noqa: C901
        self.i += 1
        if word == "with":
            out["weapon"] = self._name("weapon", "with")
        elif word == "at":
            out["at"] = self._name("target", "at")
        elif word in ("roll", "distance", "speed"):
            out[word] = self._int(word)
        elif word in ("toward", "away") and "move" in out:  # a placed fight's way (docs/positions.md)
            out[word] = self._name("target", word)
        elif word == "to" and "move" in out:
            x, y = self._coordinate("to"), self._coordinate("to")
            out["to"] = [x, y]
        elif word == "mode":
            mode = self._word()
            if mode is None:
                raise AnswerError(f"mode: give one ({', '.join(self.c.get('move', ())) or 'none'})")
            out["mode"] = mode.lower()
        elif word in self.c.get("move", ()) and "move" in out and "mode" not in out:
            out["mode"] = word
        elif word == "hit":
            damage = self._int("hit") if (self._peek() or "").isdigit() else None
            out["outcome"] = {"hit": True} | ({"damage": damage} if damage is not None else {})
        elif word == "miss":
            out["outcome"] = {"hit": False}
        elif word.isdigit() and "move" in out:
            out["move"] = int(word)
            self.default_feet = False
        elif word in self.keys:
            out[word] = self._value()
        else:
            known = ", ".join((*_MODIFIERS, *self.keys))
            raise AnswerError(f"{self.words[self.i - 1]!r}: not understood here; after the action come "
                              f"{known}")

    def _value(self) -> Any:
        """A ruleset key's value: the words up to the next modifier or key; none: true; a, b: a list."""
        stop = set(_MODIFIERS) | set(_WAYS) | set(self.keys)
        j = self.i
        while j < len(self.words) and self.words[j].lower() not in stop:
            j += 1
        text = " ".join(self.words[self.i:j])
        self.i = j
        if not text:
            return True
        parts = [self._scalar(p.strip()) for p in text.split(",")]
        return parts if len(parts) > 1 else parts[0]

    def _scalar(self, text: str) -> Any:
        lowered = {n.lower(): n for n in self._names("target") + self._names("weapon") + self._names("spell")}
        if text.lower() in lowered:
            return lowered[text.lower()]
        try:
            return YAML(typ="safe").load(text)
        except YAMLError:
            return text


_KIND_WORDS = {"foe": "combatant", "weapon": "weapon it carries", "spell": "spell it knows",
               "target": "combatant or side"}


def suggest(text: str, choices: Mapping[str, Any]) -> tuple[str, list[str]]:
    """What may follow ``text`` (a line typed so far): (the part being typed, the words that may complete it)."""
    words = text.split(" ")
    keys = list(dict(choices.get("keys", {})))
    if len(words) <= 1:
        return text, [v for v in (*VERBS, *keys) if v.startswith(text.lower())]
    slot, at = "", 0
    verb = words[0].lower()
    for k, w in enumerate(words[:-1]):  # the last word that opens a name slot
        lw = w.lower()
        if k == 0 and (lw in _ATTACKS or lw in ("charge", "set", "cast")):
            slot, at = ("spell" if lw == "cast" else "foe"), k + 1
        elif lw in ("with", "at") or (lw in keys and k > 0):
            slot, at = {"with": "weapon", "at": "target"}.get(lw, "value"), k + 1
        elif lw in ("toward", "away") and k > 0 and choices.get("placed"):
            slot, at = "target", k + 1
    partial = " ".join(words[at:])
    if slot == "value":  # a list of names, the last being typed
        partial = partial.split(",")[-1].lstrip()
    if slot:
        names = _Reader([], choices)._names("target" if slot == "value" else slot)
        named = any(partial.lower().startswith(n.lower() + " ") for n in names)  # the name is done: what follows
        hits = [n for n in names if n.lower().startswith(partial.lower())]
        if not named and (hits or slot != "value") and partial.lower() not in {n.lower() for n in names}:
            return partial, hits
    last = words[-1]
    moving = verb == "move" or verb in _MOVES
    more = [*_MODIFIERS, *keys] + (list(choices.get("move", ())) if verb == "move" else []) + (
        list(_WAYS) if moving and choices.get("placed") else [])
    return last, [m for m in more if m.startswith(last.lower())]
