"""A side's name in a sentence: "the kobolds check morale", "the party acts", "Clan Ironfist wins".

A side is named by the file ("kobolds", "party", "orcs"); the rulesets' whys and details make it the subject of a
sentence. Its name is a plural when it ends in a single s ("kobolds", not "moss") or in a word that is one ("men",
"folk", "people"); it takes "the" unless it is a proper name (it begins with a capital letter or a digit) or already
has it, or is a letter ("side a").
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["agree", "is_plural", "listed", "possessive", "subject", "the", "their"]

_PLURAL_WORDS = frozenset({"men", "women", "folk", "people", "children", "kin", "dwarves", "elves", "wolves"})
_VERBS = {"is": "are", "has": "have", "does": "do", "was": "were"}


def is_plural(side: str) -> bool:
    """Whether ``side`` names many ("kobolds", "lizard men") rather than one ("party", "Clan Ironfist")."""
    words = side.strip().split()
    last = words[-1].lower() if words else ""
    return last in _PLURAL_WORDS or (last.endswith("s") and not last.endswith("ss"))


def the(side: str) -> str:
    """``side`` as a sentence names it: "the kobolds", "the party"; a proper name as it is ("Clan Ironfist")."""
    name = side.strip()
    if len(name) < 2 or name[0].isupper() or name[0].isdigit() or name.lower().startswith("the "):
        return name
    return f"the {name}"


def agree(side: str | Iterable[str], verb: str) -> str:
    """``verb`` (its singular: "acts", "checks", "is") agreeing with ``side``, or with several sides together."""
    names = [side] if isinstance(side, str) else list(side)
    if len(names) == 1 and not is_plural(names[0]):
        return verb
    if verb in _VERBS:
        return _VERBS[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def subject(side: str | Iterable[str], verb: str) -> str:
    """A side (or several) and its verb: "the kobolds act", "the party acts", "the party and the orcs tie"."""
    return f"{listed(side)} {agree(side, verb)}"


def listed(sides: str | Iterable[str]) -> str:
    """One side, or several joined: "the party", "the party and the orcs", "the party, the orcs and the goblins"."""
    names = [the(sides)] if isinstance(sides, str) else [the(s) for s in sides]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def their(side: str) -> str:
    """The possessive pronoun of ``side``: "its" (the party) or "their" (the kobolds)."""
    return "their" if is_plural(side) else "its"


def possessive(side: str) -> str:
    """``side``'s: "the kobolds'", "the party's"."""
    name = the(side)
    return f"{name}'" if name.endswith("s") else f"{name}'s"
