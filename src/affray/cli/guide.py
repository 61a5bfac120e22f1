"""The commands that help a newcomer find the way: ``affray rulesets [ID]``, ``affray new``, ``affray examples``.

Each ruleset's procedure is summarised here in the order a referee runs it, with its rule IDs; the full account
is its page, ``docs/rulesets/ID.md``.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
import textwrap
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.engine.options import BaseOptions, OptionInfo, option_info
from affray.engine.ruleset import Ruleset
from affray.errors import AffrayError
from affray.examples import STARTER, Example, example, examples
from affray.io.output import write_output
from affray.rulesets import RULESETS, find_ruleset

if TYPE_CHECKING:
    from affray.extensions.base import Extension

__all__ = ["PROCEDURES", "FileError", "check_ruleset", "show_examples", "show_rulesets", "write_starter"]


#: What a referee does, in order, under each ruleset (its page tells the whole of it), and its clock.
PROCEDURES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "combat2-phase1": ("Each round", (
        "Surprise, first round: a d10 per side, 1-3 surprised; a surprised combatant loses one full phase (C2-27).",
        "Morale at the start of each later round, after casualties (G-07).",
        "Initiative: a d10 per side, lowest wins; each combatant's roll less its DEX reaction adjustment puts it on "
        "the winner or the loser track (P1-01, P1-02).",
        "Phases 1, 2 and 3, each opened by intentions, losers first, winners hearing them (P1-08); each combatant "
        "does ONE thing a phase: one attack, begin or go on casting, move 1/3 MV, or a brief misc action (P1-07).",
        "Half-segments 1-6 of the phase: attacks in their speed-factor band, one half-segment later on the loser "
        "track (P1-04); a spell advances one CT unit on each odd (winner) or even (loser) half-segment (P1-05); "
        "equal half-segments are simultaneous (C2-06).",
        "Movement and misc actions after the phase's attacks and spells (C2-16, P1-10).",
        "Endphase, half-segments 19-20: only \"1 round\" spells complete (P1-11); then a new round (P1-12).",
    ), "counted in phases, three a round and thirty a turn; an effect ends at the end of a phase (G-08, P2-05)"),
    "combat2-phase2": ("Phases A, B, C, over and over (no rounds)", (
        "At each phase A: surprise (the first only), morale, and initiative as in Phase System I, holding through "
        "C (P2-01, P2-02).",
        "Each phase: intentions, losers first (P1-08); each attacks, moves, casts or does a misc action, as its "
        "delay schedule allows (P2-03).",
        "Attacks follow Table 6's schedule for the attacks per round (\"attack, delay, delay\" for 1), restarted "
        "by any delay (P2-07); missiles by fire rate x attacks (P2-08).",
        "A spell begins at the start of any phase and runs three CT units a phase (P2-04); after a spell the caster "
        "waits two phases before casting or attacking, after an attack two before casting (P2-06).",
        "Half-segments 1-6 by speed-factor band and casting track, then movement; a \"1 round\" spell goes off at "
        "the end of its third phase, after the movement (P2-04).",
    ), "counted in phases, three a round and thirty a turn; an effect ends at the end of a phase (P2-05)"),
    "side-d6": ("Each round (one minute)", (
        "Surprise, first round: a d6 per side, 5-6 surprises the other side, which may not act; surprisers +1 to "
        "hit (MJ-08).",
        "Step 1, morale: monsters, then henchmen, after a side's first casualty and again at half down (MJ-02).",
        "Step 2, declarations: the player characters' side, then the monsters (MJ-03).",
        "Step 3, initiative: a d6 per side, higher first; a tie and everybody acts at once (MJ-04, MJ-07).",
        "Steps 4-8 for the side first: movement, missiles, spells, melee, miscellaneous (MJ-05).",
        "Step 9: the same steps for the side that lost (MJ-06); a missile hit before step 6 ruins a spell.",
    ), "N rounds from round r end as round r + N begins; a turn is ten rounds (G-08)"),
    "speed-segments": ("Each round (about 20 seconds)", (
        "A. Surprise, first round: a d6 per party, 1 or 2 adds +1 or +2 to its members' action speed (SEG-03).",
        "B. Declarations, the unsurprised first (SEG-04).",
        "C. Initiative: a d6 per unsurprised side, higher wins; a loser adds +1 per 2 pips below the winner "
        "(SEG-05, SEG-06).",
        "D. Segments 1, 2, ...: each action in the segment of its speed plus penalties (SEG-06 to SEG-08); in a "
        "segment the winner runs Movement, Missile, Magic, Melee, Morale before the next side (SEG-09); missile "
        "and spell damage lands at the segment's end, melee at once (SEG-10). Past segment 12, actions spill into "
        "the next round (SEG-01).",
        "E. Morale and bookkeeping (SEG-20).",
    ), "N rounds from round r end as round r + N begins, a turn is ten rounds; N segments count on the segment "
       "clock, round_segments a round (G-08, SEG-01)"),
    "phase-count": ("Phases counted from 0 (no rounds)", (
        "Surprise: a d10 per side, 1-3 surprised; every surpriser gets a free action at phase 0, before anyone "
        "(PC-08).",
        "Opening initiative: a d6 per side, low first; that die is each combatant's die for its first action "
        "(PC-06).",
        "Everyone declares; an action declared at phase p happens at p + d6 + phase modifier (from its speed "
        "category, or a weapon's SF, a spell's CT) (PC-02, PC-03).",
        "When an action resolves, its combatant declares the next and rolls a d6 for it (PC-02); extra attacks "
        "fall in the next phases (PC-04); a move-and-attack moves, then strikes a phase later (PC-05).",
        "Within a phase: expiries, surprisers' free actions, spells, shooting, movement and charges, melee, the "
        "rest, by opening initiative; still tied, simultaneous (PC-06).",
        "Anyone may stand guard (PC-08a) or abort its action for a new one (PC-09); fatigue is marked as actions "
        "complete, morale checked when called for (PC-11).",
    ), "a round is 5 phases and a turn 50 (option duration_scale: real, 20 and 200) (PC-12)"),
    "d12-procedure": ("Each round", (
        "Surprise, first round: a d12 per side, surprised on 1-4 as the sides' abilities widen or narrow it; the "
        "surprised do nothing (D12-01, D12-02).",
        "Morale where the referee rolls it; player characters never check (D12-22).",
        "A missile readied with a target in sight fires before initiative (D12-08).",
        "Initiative: a d12 per side less a DEX reaction adjustment; counts run from the lowest up, equal counts "
        "at once (D12-04, D12-07).",
        "As each count comes up, those on it declare and act: all their attacks (D12-10), moving before and after "
        "(D12-12); a spell chosen now takes effect CT counts later (D12-05); closing on a longer weapon, it strikes "
        "first (D12-06).",
        "Full-round spells and disengaging retreats come last in the round (D12-05, D12-18).",
    ), "N rounds from round r end as round r + N begins; a turn is turn_rounds (10) rounds in combat (D12-21)"),
    "bx-group": ("Each round (the OSE SRD's B/X group initiative, a baseline)", (
        "Surprise, first round: a d6 per side, 1-2 surprised, doing nothing in round 1; all surprised: nobody "
        "(BX-01).",
        "Morale for monster sides after their first death and at half out (BX-05, G-07).",
        "Declarations, then initiative: a d6 per side, highest first, the others from highest to lowest (BX-02).",
        "Each side in turn: movement, missiles, spells, melee; a caster hit before its spell loses it (BX-04).",
        "Tied sides act at the same time (BX-03; option ties: reroll).",
    ), "N rounds from round r end as round r + N begins (G-08)"),
    "adnd2e-standard": ("Each round (the 2e PH's standard initiative, a baseline)", (
        "Surprise, first round: a d10 per side, 1-3 surprised, doing nothing in round 1; all surprised: it cancels "
        "(PH2-01).",
        "Morale after a side's first casualty and at half down (PH2-05, G-07).",
        "Declarations, then initiative: a d10 per side, lowest first, the others in ascending order (PH2-02).",
        "Each side in turn: movement, missiles, spells, melee; a caster struck before its spell loses it (PH2-04).",
        "Tied sides: everything happens at once (PH2-03; option ties: reroll).",
        "Option modifiers: Table 55's modifiers to a side's d10 when every member acting shares them (PH2-06).",
    ), "N rounds from round r end as round r + N begins (G-08)"),
}


#: A command of the starter's opening comment: "#   affray check FILE      what it does".
_COMMAND = re.compile(r"^#   (affray .*?FILE.*?)\s{2,}(\S.*)$")


class FileError(AffrayError):
    """A file ``affray new`` or ``affray examples --copy`` will not write, with what to do instead."""


def _value(v: Any) -> str:
    """An option's value as it is written in a file or after --set (a YAML scalar)."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def _base_names() -> set[str]:
    return {f.name for f in fields(BaseOptions)}


def _own(cls: type[Ruleset[Any, Any]]) -> list[OptionInfo]:
    """A ruleset's own options: its fields beyond every ruleset's, or with a default of its own."""
    base = {i.name: i.default for i in option_info(BaseOptions)}
    return [i for i in option_info(cls.Options) if i.name not in base or base[i.name] != i.default]


def _shared() -> list[OptionInfo]:
    """The options every ruleset has with the same default."""
    out = []
    for info in option_info(BaseOptions):
        if all(any(i.name == info.name and i.default == info.default for i in option_info(r.Options))
               for r in RULESETS):
            out.append(info)
    return out


def _width() -> int:
    """The terminal's width (100 when not at a terminal), kept between 60 and 100 columns."""
    return min(max(shutil.get_terminal_size((100, 24)).columns, 60), 100)


def _wrap(text: str, indent: str, later: str | None = None) -> str:
    return textwrap.fill(text, _width(), initial_indent=indent, subsequent_indent=later or indent,
                         break_on_hyphens=False, break_long_words=False)


def procedure(cls: type[Ruleset[Any, Any]]) -> tuple[str, tuple[str, ...], str]:
    """What a referee does under ``cls``, in order, and its clock: affray's own from ``PROCEDURES``, another
    package's from its ``procedure`` ClassVar (or its docstring's first line)."""
    own = PROCEDURES.get(cls.id)
    if own is not None:
        return own
    given = getattr(cls, "procedure", None)
    if given is not None:
        head, steps, clock = given
        return str(head), tuple(steps), str(clock)
    doc = (cls.__doc__ or cls.title).strip().splitlines()[0]
    return "Its procedure", (doc,), "as its package's documentation says"


def page(ruleset_id: str) -> str:
    """Where a ruleset's full account is: affray's own page, or its package's documentation."""
    from affray.extensions import entry

    e = entry("ruleset", ruleset_id)
    if e is not None and not e.own:
        return f"the documentation of package {e.package}"
    return f"docs/rulesets/{ruleset_id}.md"


def rulesets_text() -> str:
    """Every ruleset in a few lines: id, seed, title, its own options with defaults, its own keys."""
    from affray import __version__

    lines = [_wrap(f"The rulesets, with their options' defaults (affray {__version__}'s own; another package's "
                   "marked [package version]; `affray rulesets ID` shows one in full; an option is set by `options:` "
                   "in the file or by --set NAME=VALUE):", "")]
    for r in RULESETS:
        lines.append("")
        mark = "" if _own_entry("ruleset", r.id) else f"  [{_package('ruleset', r.id)}]"
        lines.append(_wrap(f"{r.id}  (seed {r.seed})  {r.title}{mark}", "", "    "))
        own = " ".join(f"{i.name}={_value(i.default)}" for i in _own(r))
        lines.append(_wrap(f"options: {own}", "    ", "        "))
        if r.declaration_keys:
            lines.append(_wrap("declaration keys: " + " ".join(r.declaration_keys), "    ", "        "))
    lines += _extension_lines()
    shared = " ".join(f"{i.name}={_value(i.default)}" for i in _shared())
    lines += ["", _wrap(f"Every ruleset also has: {shared}", "", "    ")]
    return "\n".join(lines)


def _own_entry(kind: str, name: str) -> bool:
    from affray.extensions import entry

    e = entry(kind, name)
    return e is not None and e.own


def _package(kind: str, name: str) -> str:
    """The package that registers a ruleset or extension, with its version."""
    from affray.extensions import entry

    e = entry(kind, name)
    return f"{e.package} {e.version}" if e is not None else "?"


def _extension_lines() -> list[str]:
    """The installed extensions (options written NS.option) and what cannot be loaded, with its package and error."""
    from affray.engine.options import option_info as infos
    from affray.extensions import broken, extensions

    lines: list[str] = []
    for x in extensions():
        mark = "" if _own_entry("extension", x.name) else f"  [{_package('extension', x.name)}]"
        lines += ["", _wrap(f"extension {x.name}  {x.title}{mark}", "", "    ")]
        if x.bare_options:
            lines.append(_wrap(f"(for every ruleset; files may name its options bare, as {x.name}'s older ones do)",
                               "    ", "        "))
        opts = " ".join(f"{x.name}.{i.name}={_value(i.default)}" for i in infos(x.Options))
        lines.append(_wrap(f"options: {opts or 'none'}", "    ", "        "))
        if x.conditions:
            lines.append(_wrap("conditions: " + " ".join(x.conditions), "    ", "        "))
    from affray.extensions import entries

    policies = [f"{e.name} [{e.package} {e.version}]" for e in entries("policy").values()]
    if policies:
        lines += ["", _wrap("policies of installed packages: " + ", ".join(policies), "", "    ")]
    for e in broken():
        lines += ["", _wrap(f"cannot be used: {e.where()}: {e.error}", "", "    ")]
    return lines


def _option_lines(info: OptionInfo) -> list[str]:
    choices = f"  [{' | '.join(_value(c) for c in info.choices)}]" if info.choices else ""
    return [f"  {info.name} = {_value(info.default)}{choices}  ({info.rule})",
            _wrap(info.doc, "      ")]


def ruleset_text(cls: type[Ruleset[Any, Any]]) -> str:
    """One ruleset in full: its procedure, clock, every option with default, choices and rule, its own keys."""
    head, steps, clock = procedure(cls)
    rules = ", ".join(f"{p.strip()}-*" for p in cls.rule_ids.split(","))
    lines = [f"{cls.id}: {cls.title}",
             f"seed {cls.seed}; rules {rules}; the full account: {page(cls.id)}", "", f"{head}:"]
    for k, step in enumerate(steps, 1):
        lines.append(_wrap(step, f"  {k}. ", "     "))
    lines += [_wrap(f"Durations: {clock}.", ""), "",
              "Options (in the file `options: {NAME: VALUE}`, or --set NAME=VALUE):"]
    base = _base_names()
    for info in option_info(cls.Options):
        if info.name not in base:
            lines += _option_lines(info)
    lines += ["", "Options of every ruleset:"]
    for info in option_info(cls.Options):
        if info.name in base:
            lines += _option_lines(info)
    if cls.declaration_keys:
        lines += ["", "Declaration keys of its own (beside melee, missile, cast, move, misc, wait, none):"]
        for key, doc in cls.declaration_keys.items():
            lines.append(_wrap(f"{key}: {doc}", "  ", "      "))
    return "\n".join(lines)


def ruleset_doc(cls: type[Ruleset[Any, Any]]) -> dict[str, Any]:
    """``affray rulesets ID --json``: ``describe``'s keys, with the procedure, the clock and the page."""
    from affray.api import describe

    head, steps, clock = procedure(cls)
    return {**describe(cls), "rules": cls.rule_ids, "procedure": {"unit": head, "steps": list(steps)},
            "durations": clock, "docs": page(cls.id)}


def _describe_extension(x: type[Extension]) -> dict[str, Any]:
    from affray.engine.options import describe as describe_options
    from affray.extensions import entry

    e = entry("extension", x.name)
    return {"name": x.name, "title": x.title, "package": e.package if e else None, "version": e.version if e else None,
            "options": [{**o, "name": f"{x.name}.{o['name']}"} for o in describe_options(x.Options)],
            "conditions": {name: c.words for name, c in x.conditions.items()}}


def check_ruleset(name: str, as_json: bool) -> bool:
    """``affray rulesets --check NAME``: the conformance kit's properties on ruleset NAME, each ok or the failure
    naming it; whether all hold."""
    from affray.conformance import PROPERTIES, Failure, check_property

    find_ruleset(name)  # an unknown or broken one is said as such (exit 2)
    results: list[tuple[str, Failure | None]] = []
    for p in PROPERTIES:
        try:
            check_property(p.name, name)
        except Failure as exc:
            results.append((p.name, exc))
        else:
            results.append((p.name, None))
        if not as_json:
            failed = results[-1][1]
            sys.stdout.write(f"{name}: {p.name}: " + (f"FAILED: {failed.detail}" if failed else f"ok ({p.doc})") + "\n")
            sys.stdout.flush()
    bad = [prop for prop, f in results if f is not None]
    if as_json:
        sys.stdout.write(json.dumps({"ruleset": name, "properties": {prop: (f.detail if f else "ok")
                                                                      for prop, f in results}, "failed": bad},
                                    indent=2) + "\n")
    else:
        sys.stdout.write(f"{name}: " + (f"fails {', '.join(bad)}" if bad else
                                        f"conforms: all {len(results)} properties hold") + "\n")
    return not bad


def show_rulesets(ruleset_id: str | None, as_json: bool) -> None:
    """``affray rulesets [ID] [--json]``; an unknown ID is an UnknownRulesetError (exit 2, naming the known)."""
    from affray.api import describe
    from affray.extensions import broken, entries, extensions

    if ruleset_id is None:
        if as_json:
            sys.stdout.write(json.dumps({"rulesets": [describe(r) for r in RULESETS],
                                         "extensions": [_describe_extension(x) for x in extensions()],
                                         "policies": [{"name": e.name, "package": e.package, "version": e.version}
                                                      for e in entries("policy").values()],
                                         "broken": [{"kind": e.kind, "name": e.name, "package": e.package,
                                                     "version": e.version, "error": e.error} for e in broken()]},
                                        indent=2) + "\n")
        else:
            sys.stdout.write(rulesets_text() + "\n")
        return
    cls = find_ruleset(ruleset_id)
    sys.stdout.write(json.dumps(ruleset_doc(cls), indent=2) + "\n" if as_json else ruleset_text(cls) + "\n")


# -- files ---------------------------------------------------------------------------------------------------

def _write(path: Path, text: str, force: bool) -> None:
    """Write ``text`` to ``path``, never over a file unless ``force``; every refusal says what to do."""
    if path.is_dir():
        raise FileError(f"{path}: is a directory; give a file name, e.g. {path / 'myfight.yaml'}")
    if path.exists() and not force:
        raise FileError(f"{path}: already exists; give another name, or --force to overwrite it")
    if not path.parent.is_dir():
        raise FileError(f"{path}: no directory {path.parent}; create it first or give another path")
    write_output(path, text, replace=force)  # beside it, then renamed: never half a file, never over one unasked


def starter_text(path: Path | None) -> str:
    """The starter encounter, its opening comment's commands naming ``path`` where they say FILE."""
    text = example(STARTER).text
    if path is None:
        return text
    head, sep, rest = text.partition("\n\n")
    found = [_COMMAND.match(line) for line in head.splitlines()]
    commands = [m.group(1).replace("FILE", shlex.quote(str(path))) for m in found if m is not None]
    width = max(map(len, commands), default=0)
    lines = [f"#   {commands.pop(0):<{width}}  {m.group(2)}" if m is not None else line
             for m, line in zip(found, head.splitlines(), strict=True)]
    return "\n".join(lines) + sep + rest


def write_starter(path: Path | None, force: bool) -> None:
    """``affray new [PATH] [--force]``: the commented starter encounter, to PATH or stdout."""
    if path is None:
        sys.stdout.write(starter_text(None))
        return
    _write(path, starter_text(path), force)
    sys.stdout.write(f"{path}: a starter encounter (two sides, seven combatants, a short plan); next: "
                     f"affray check {path}\n")


def examples_text(shipped: tuple[Example, ...]) -> str:
    width = max(len(e.name) for e in shipped)
    lines = ["The examples shipped with affray (`affray examples NAME` prints one, `--copy DIR` copies them):"]
    lines += [_wrap(f"{e.name:<{width}}  {e.description}", "  ", " " * (width + 4)) for e in shipped]
    return "\n".join(lines)


def show_examples(name: str | None, copy: Path | None, force: bool) -> None:
    """``affray examples [NAME] [--copy DIR] [--force]``: list, print or copy the shipped examples."""
    if copy is None:
        if force:
            raise FileError("--force goes with --copy DIR: it lets the copy overwrite files")
        sys.stdout.write(example(name).text if name is not None else examples_text(examples()) + "\n")
        return
    chosen = (example(name),) if name is not None else examples()
    if copy.exists() and not copy.is_dir():
        raise FileError(f"--copy {copy}: not a directory; give a directory to copy into")
    if not copy.exists():
        try:
            copy.mkdir(parents=True)
        except OSError as exc:
            raise FileError(f"--copy {copy}: cannot create it: {exc.strerror or exc}") from None
    clash = [e.name for e in chosen if (copy / e.name).exists()]
    if clash and not force:
        raise FileError(f"--copy {copy}: {', '.join(clash)} already there; --force to overwrite")
    for e in chosen:
        _write(copy / e.name, e.text, True)
        sys.stdout.write(f"{copy / e.name}\n")
