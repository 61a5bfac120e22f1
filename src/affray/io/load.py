"""Reading an encounter file: YAML or JSON via ruamel.yaml (for line numbers), pydantic, cross-references.

Every step is bounded (``affray.limits``): the bytes read, the nesting, the values aliases expand to
(``io.read``), the combatants; and every refusal is a problem with file, line and field path in affray's own
words (``io.messages``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from affray.errors import EncounterError, Problem
from affray.io.messages import validation_problems
from affray.io.newfile import new_file_problems
from affray.io.read import format_path, line_of, load_value, parse_yaml, plain_data, read_text
from affray.io.references import cross_references
from affray.limits import MAX_BLOWS, MAX_COMBATANTS
from affray.model.derive import attacks_per_round
from affray.model.encounter import Combatant, Encounter, expand

if TYPE_CHECKING:
    from affray.io.hitpoints import HpRoll
    from affray.io.names import MoraleChoice

__all__ = ["Loaded", "blows_a_round", "blows_in_a_round", "expand", "format_path", "load_encounter", "load_text",
           "load_value", "read_text", "sort_problems", "validation_problems"]

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Loaded:
    """A valid encounter and what is needed to point back into its file.

    A file that names catalogue entries or rolls hit points also keeps its data with the names' figures written in
    (``data``), the hit points to roll when the fight starts (``hp_rolls``, rolled for now from ``seed``) and the
    catalogue monsters' morale to set for the ruleset's dice (``morale``): ``settled`` makes the encounter a
    fight starts from."""

    encounter: Encounter
    file: str
    #: The file's tree: ruamel's round-trip one (line numbers), or the plain one the safe reader made, read again
    #: with lines from ``text`` the first time ``doc`` is asked for (a problem to report, a simulation's file).
    tree: Any
    problems: tuple[Problem, ...] = ()  # cross-reference problems, kept when loaded with strict=False
    data: dict[str, Any] | None = None  # the file's data with names resolved (None: the file names nothing)
    hp_rolls: tuple[HpRoll, ...] = ()
    morale: tuple[MoraleChoice, ...] = ()
    seed: int | None = None  # the seed ``hp_rolls`` were last rolled from
    morale_dice: str = "2d6"  # the dice ``morale`` is set for
    _settled: dict[tuple[int, str], Loaded] = field(default_factory=dict, compare=False, repr=False)
    #: What is valid but most likely not meant (a weapon written out without damage under a catalogue name).
    warnings: tuple[Problem, ...] = ()
    text: str | None = field(default=None, compare=False, repr=False)  # the file's text, when ``tree`` has no lines

    @property
    def doc(self) -> Any:
        """The ruamel tree, for line numbers of later (ruleset) checks."""
        if self.text is not None and not hasattr(self.tree, "lc"):
            object.__setattr__(self, "tree", parse_yaml(self.text, self.file))  # a cache: the same tree, with lines
        return self.tree

    def problem(self, loc: Loc, message: str) -> Problem:
        return Problem(self.file, line_of(self.doc, loc), format_path(loc), message)

    def settled(self, seed: int, morale_dice: str) -> Loaded:
        """This encounter as a fight under ``seed`` starts it: hit points rolled from that seed (``rolls.hp``
        given ones as given) and each catalogue monster's morale for ``morale_dice`` (2d6 as the catalogue gives
        it, 2d10 the score of the same chance). Itself when there is nothing to settle."""
        if not self.hp_rolls and not self.morale:
            return self
        if (self.seed is None or seed == self.seed or not self.hp_rolls) and morale_dice == self.morale_dice:
            return self
        key = (seed, morale_dice)
        hit = self._settled.get(key)
        if hit is None:
            if len(self._settled) >= 8:  # a simulation settles one seed after another: keep the last few
                self._settled.clear()
            hit = self._settled[key] = self._settle(seed, morale_dice)
        return hit

    def _settle(self, seed: int, morale_dice: str) -> Loaded:
        from affray.io.names import morale_2d10

        changes: dict[tuple[str, int], dict[str, Any]] = {}
        for roll in self.hp_rolls:
            values = roll.values(seed)
            changes.setdefault((roll.side, roll.index), {}).update(
                {"hp": values[0], "hp_each": tuple(values) if len(values) > 1 else None})
        for m in self.morale:
            score = morale_2d10(m.score_2d6) if morale_dice == "2d10" else m.score_2d6
            changes.setdefault((m.side, m.index), {})["morale"] = score
        sides = dict(self.encounter.sides)
        data = dict(self.data or {})
        data_sides = dict(data.get("sides") or {})
        for (side, index), update in changes.items():
            s = sides[side]
            combatants = list(s.combatants)
            combatants[index] = _updated(combatants[index], update)
            sides[side] = s.model_copy(update={"combatants": tuple(combatants)})
            raw_side = dict(data_sides[side])
            raw = list(raw_side["combatants"])
            written = {k: v for k, v in update.items() if k != "hp_each"}
            if update.get("hp_each") is not None:
                written["hp"] = list(update["hp_each"])
            raw[index] = {**raw[index], **written}
            data_sides[side] = {**raw_side, "combatants": raw}
        data["sides"] = data_sides
        encounter = self.encounter.model_copy(update={"sides": sides})
        return Loaded(encounter, self.file, self.tree, self.problems, data, self.hp_rolls, self.morale, seed,
                      morale_dice, warnings=self.warnings, text=self.text)

    def settled_text(self) -> str | None:
        """The settled encounter as a file that stands alone (every name's figures written in, hit points and
        morale as settled), or None for a file that names nothing: what a saved fight keeps, so that it opens
        whatever becomes of the catalogue, its file or the recipe of rolled hit points."""
        if self.data is None:
            return None
        import io

        from ruamel.yaml import YAML

        data = {k: v for k, v in self.data.items() if k != "catalogue"}
        data["sides"] = {side: {**s, "combatants": [{k: v for k, v in c.items() if k not in ("monster", "armour")}
                                                    if isinstance(c, dict) else c for c in s["combatants"]]}
                         if isinstance(s, dict) and isinstance(s.get("combatants"), list) else s
                         for side, s in (data.get("sides") or {}).items()}
        rolls = dict(data.get("rolls") or {})
        rolls.pop("hp", None)
        if rolls:
            data["rolls"] = rolls
        else:
            data.pop("rolls", None)
        out = io.StringIO()
        out.write(f"# {self.file}, its catalogue names written out and its hit points rolled (seed {self.seed})\n")
        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = None
        yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
        yaml.width = 120
        yaml.dump(data, out)
        return out.getvalue()


def _updated(c: Combatant, update: dict[str, Any]) -> Combatant:
    """``c`` with ``update``'s fields, its worked-out members made afresh."""
    copy = c.model_copy(update=update)
    copy.__dict__.pop("members", None)
    return copy


def _combatants(data: dict[str, Any]) -> int:
    sides = data.get("sides")
    total = 0
    for side in sides.values() if isinstance(sides, dict) else ():
        combatants = side.get("combatants") if isinstance(side, dict) else None
        for c in combatants if isinstance(combatants, list) else ():
            count = c.get("count", 1) if isinstance(c, dict) else 1
            total += count if isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= 500 else 1
    return total


def load_text(text: str, file: str = "<encounter>", *, strict: bool = True,
              catalogue: str | Path | None = None, stored: bool = False, code: Collection[str] = ()) -> Loaded:
    """Parse and validate an encounter given as YAML or JSON text; EncounterError lists every problem.

    With ``strict=False`` a file whose fields are valid but whose references are not (an unknown
    target, say) is returned with those problems in ``problems``, so that a ruleset's checks can be
    reported together with them. ``catalogue``: the referee's catalogue file given on the command line
    (``--catalogue``), over the file's own ``catalogue:``.

    A new file is held to what a saved fight's text (``stored``) was not (``affray.io.newfile``): no designer's
    ``module:function`` policy but those named on the command line (``code``), and names a referee can tell apart.
    """
    fast = parse_yaml(text, file, lines=False)
    if hasattr(fast, "lc"):  # read with lines already (a tag, a merge key: ``parse_yaml``)
        return _load(fast, text, file, strict, catalogue, stored, code)
    try:
        loaded = _load(fast, text, file, strict, catalogue, stored, code)
    except EncounterError:  # its problems' lines: read again with them
        return _load(parse_yaml(text, file), text, file, strict, catalogue, stored, code)
    if loaded.warnings or loaded.problems:  # kept for later: with their lines
        return _load(parse_yaml(text, file), text, file, strict, catalogue, stored, code)
    return loaded


def _load(doc: Any, text: str, file: str, strict: bool, catalogue: str | Path | None, stored: bool,
          code: Collection[str]) -> Loaded:
    """``load_text`` of ``doc``, the tree of ``text``: with lines (ruamel's round-trip reader) or without."""
    if not isinstance(doc, dict):
        raise EncounterError([Problem(file, 1, "sides", "the file must be a mapping with at least "
                                      "`sides:` (two sides, each with combatants)")])
    data = plain_data(doc, file)
    n = _combatants(data)
    if n > MAX_COMBATANTS:
        raise EncounterError([Problem(file, line_of(doc, ("sides",)), "sides", f"{n:,} combatants (count "
                                      f"expanded): at most {MAX_COMBATANTS} (limit)")])
    from affray.io.names import resolve_names

    named = resolve_names(data, file, catalogue)
    data = named.data
    named_at = [loc for loc, _m in named.problems]

    def beside(loc: Loc) -> bool:
        """A problem at or under a name already reported unknown (its figures could not be written in)."""
        return any(loc[:len(at)] == at for at in named_at)

    problems = [Problem(file, line_of(doc, loc), format_path(loc), message) for loc, message in named.problems]
    fresh = [] if stored else [Problem(file, line_of(doc, loc), format_path(loc), message)
                               for loc, message in new_file_problems(data, code)]
    problems += fresh
    encounter: Encounter | None = None
    try:
        encounter = Encounter.model_validate(data)
    except ValidationError as exc:
        problems += [Problem(file, line_of(doc, loc), format_path(loc), message)
                     for loc, message in validation_problems(exc, data) if not beside(loc)]
    references = [Problem(file, line_of(doc, loc), format_path(loc), message)
                  for loc, message in cross_references(data) if not beside(loc)]
    if encounter is None or named.problems or fresh or (references and strict):
        raise EncounterError(sort_problems(_dedupe(problems + references)))
    _bounded_blows(encounter, file, doc)
    from affray.io.names import bare_weapons

    warnings = tuple(Problem(file, line_of(doc, loc), format_path(loc), message)
                     for loc, message in bare_weapons(data, catalogue))
    lines = None if hasattr(doc, "lc") else text
    if not named.used:
        return Loaded(encounter, file, doc, tuple(references), warnings=warnings, text=lines)
    seed = encounter.seed if encounter.seed is not None else 0
    return Loaded(encounter, file, doc, tuple(references), data, tuple(named.hp), tuple(named.morale), seed,
                  warnings=warnings, text=lines)


def blows_a_round(c: Combatant, foes: int) -> tuple[int, str]:
    """The most blows ``c`` (one of its ``count``) may strike in a round, and how: its attacks (given, or the most
    its class and level have under either scheme) x its fastest missile weapon's fire rate; a fighter's level when
    more (C2-25: one attack a level on creatures below 1 HD); a spell's targets when more still (``area``, or
    ``side``: every one of its ``foes``)."""
    attacks = c.attacks if c.attacks is not None else max(
        attacks_per_round(c.klass, c.level, scheme=scheme, specialist=c.specialist) for scheme in ("1e", "2e"))
    rate = max([w.rate for w in c.weapons if w.is_missile] + [Fraction(1)])
    most, how = -(-attacks * rate // 1), f"{attacks} attacks x fire rate {rate}"
    if c.klass == "fighter" and c.level is not None and c.level > most:
        most, how = c.level, f"a level {c.level} fighter's attacks on creatures below 1 HD (C2-25)"
    for spell in c.spells:
        targets = foes if spell.area == "side" else spell.area or 1
        if targets > most:
            most, how = targets, f"{spell.name}'s {targets} targets"
    return int(most), how


def blows_in_a_round(encounter: Encounter) -> tuple[int, tuple[int, str, Loc]]:
    """The most blows a round of ``encounter`` may hold (``blows_a_round`` of every combatant, ``count``
    expanded), and its heaviest entry: (its blows, how, its field path)."""
    sizes = {side: sum(c.count for c in s.combatants) for side, s in encounter.sides.items()}
    total = 0
    heaviest: tuple[int, str, Loc] = (0, "", ("sides",))
    for side, s in encounter.sides.items():
        foes = max((n for other, n in sizes.items() if other != side), default=0)
        for i, c in enumerate(s.combatants):
            each, how = blows_a_round(c, foes)
            total += each * c.count
            if each * c.count > heaviest[0]:
                heaviest = (each * c.count, f"{c.count} x {each} ({how})", ("sides", side, "combatants", i))
    return total, heaviest


def _bounded_blows(encounter: Encounter, file: str, doc: Any) -> None:
    """``MAX_BLOWS``: a round's blows are scheduled when it begins; too many would take gigabytes (exit 2 first)."""
    total, (n, how, loc) = blows_in_a_round(encounter)
    if total > MAX_BLOWS:
        raise EncounterError([Problem(file, line_of(doc, ("sides",)), "sides", f"up to {total:,} blows a round "
                                      f"(attacks x fire rate, count expanded, every side): at most {MAX_BLOWS:,} "
                                      f"(limit); the most from {format_path(loc)}: {how}, {n:,}")])


def sort_problems(problems: list[Problem]) -> list[Problem]:
    """In the order of the file."""
    return sorted(problems, key=lambda p: p.line if p.line is not None else 0)


def load_encounter(path: str | Path, *, strict: bool = True, catalogue: str | Path | None = None,
                   code: Collection[str] = ()) -> Loaded:
    """Read an encounter file (YAML or JSON); raise EncounterError listing every problem. ``code``: the designer's
    ``module:function`` policies named on the command line (``load_text``)."""
    return load_text(read_text(path), str(path), strict=strict, catalogue=catalogue, code=code)


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[str, str]] = set()
    out = []
    for p in problems:
        if (p.path, p.message) not in seen:
            seen.add((p.path, p.message))
            out.append(p)
    return out
