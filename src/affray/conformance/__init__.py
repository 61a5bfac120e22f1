"""affray's conformance kit (CONTRACT.md "Extensions"): what every ruleset, affray's own or another package's,
must hold, each a named property a failure names.

- ``same-bytes``: the same file and seed give byte-identical output (G-06);
- ``drive-equals-run``: the fight driven (``Drive``, every die rolled, every declaration the policy's) is the
  fight run (CONTRACT.md "Driving a fight");
- ``undo-and-resume``: undoing events and playing on gives the same journal, and so does a fight resumed from its
  recorded inputs;
- ``board``: the board draws every event of the fight, each window, as SVG;
- ``random-referee``: the random referee (``referee.RandomReferee``) finds no broken invariant in its fights;
- ``hidden-information``: no player's page carries another side's hit points or steps still to come.

``check(ruleset)`` runs them and returns the failures; ``affray rulesets --check NAME`` prints them;
``python -m pytest --pyargs affray.conformance`` runs them as tests (``AFFRAY_CONFORMANCE=ID,ID`` to choose the
rulesets, every installed one by default). The kit plays ``affray.examples``' skirmish (the shipped example) under
the ruleset, with the seeds ``SEEDS``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

__all__ = ["PROPERTIES", "SEEDS", "Failure", "check", "check_property", "chosen_rulesets"]

#: The seeds each property plays the example under.
SEEDS = (1, 2, 3)
#: The random referee's fights a ruleset (its seeds 0..N-1).
REFEREE_FIGHTS = 6


class Failure(AssertionError):
    """A property a ruleset breaks: which, under which ruleset and seed, and what was seen."""

    def __init__(self, prop: str, ruleset: str, detail: str) -> None:
        self.prop = prop
        self.ruleset = ruleset
        self.detail = detail
        super().__init__(f"{ruleset}: {prop}: {detail}")


def _example() -> str:
    from affray.examples import example

    return example("skirmish.yaml").text


def _prepared(ruleset: str, seed: int) -> Any:
    from affray import load_text, prepare

    return prepare(load_text(_example(), "skirmish.yaml"), ruleset=ruleset, seed=seed)


def _timeline(result: Any) -> str:
    from affray import timeline_json

    return str(timeline_json(result))


def same_bytes(ruleset: str) -> None:
    for seed in SEEDS:
        a = _timeline(_prepared(ruleset, seed).fight(auto=True).run())
        b = _timeline(_prepared(ruleset, seed).fight(auto=True).run())
        if a != b:
            at = next(k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y) if a[:len(b)] != b[:len(a)] \
                else min(len(a), len(b))
            raise Failure("same-bytes", ruleset, f"seed {seed}: two runs of the same file differ from character {at}: "
                          f"{a[max(0, at - 40):at + 40]!r} / {b[max(0, at - 40):at + 40]!r}")


def _plain(events: Iterable[Any]) -> list[dict[str, Any]]:
    from affray.io.timeline import event_dict

    return [event_dict(e, k) for k, e in enumerate(events)]


def _driven(drive: Any) -> None:
    """Pull ``drive`` to its end (every die rolled, every declaration the policy's: nothing is asked)."""
    from affray.drive import End

    for _ in range(100_000):
        item = drive.pull()
        if isinstance(item, End):
            return
        if getattr(item, "question", None) is not None or drive.pending is not None:
            raise RuntimeError(f"the drive asked {type(item).__name__} with every declaration auto and every die "
                               "rolled")
    raise RuntimeError("the drive did not end")


def drive_equals_run(ruleset: str) -> None:
    for seed in SEEDS:
        prepared = _prepared(ruleset, seed)
        ran = _plain(prepared.fight(auto=True).run().events)
        drive = _prepared(ruleset, seed).drive(auto=True)
        _driven(drive)
        driven = _plain(drive.fight.events)
        if driven != ran:
            at = next((k for k, (x, y) in enumerate(zip(driven, ran, strict=False)) if x != y), min(len(driven),
                                                                                                    len(ran)))
            a = driven[at] if at < len(driven) else {}
            b = ran[at] if at < len(ran) else {}
            keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
            raise Failure("drive-equals-run", ruleset, f"seed {seed}: event {at} differs in "
                          + "; ".join(f"{k}: driven {a.get(k)!r}, run {b.get(k)!r}" for k in keys[:3]))


def undo_and_resume(ruleset: str) -> None:
    from affray.drive import Drive

    for seed in SEEDS:
        whole = _prepared(ruleset, seed).drive(auto=True)
        _driven(whole)
        journal = _plain(whole.fight.events)
        undone = _prepared(ruleset, seed).drive(auto=True)
        for _ in range(len(journal) // 2):
            undone.pull()
        undone.undo(5)
        _driven(undone)
        if _plain(undone.fight.events) != journal:
            raise Failure("undo-and-resume", ruleset, f"seed {seed}: undoing 5 events halfway and playing on gives "
                          "another journal")
        prepared = _prepared(ruleset, seed)
        resumed = Drive(partial(prepared.fight, auto=True), inputs=whole.inputs,
                        events=len(whole.fight.events))
        _driven(resumed)
        if _plain(resumed.fight.events) != journal:
            raise Failure("undo-and-resume", ruleset, f"seed {seed}: the fight resumed from its recorded inputs gives "
                          "another journal")


def board(ruleset: str) -> None:
    import xml.etree.ElementTree as ET

    from affray.render.board import fight_board, windows
    from affray.render.board_svg import board_panels

    for seed in SEEDS:
        fight = _prepared(ruleset, seed).fight(auto=True)
        fight.run()
        drawn: set[int] = set()
        for w in windows(ruleset, fight.events):
            b = fight_board(fight, w)
            drawn |= {m.seq for m in b.marks if m.seq is not None}
            for svg in board_panels(b):
                try:
                    ET.fromstring(svg)
                except ET.ParseError as exc:
                    raise Failure("board", ruleset, f"seed {seed}, window {w}: the SVG does not parse: {exc}") from None
        want = {k for k, e in enumerate(fight.events) if e.kind not in ("condition", "expire")}
        if want - drawn:
            missing = sorted(want - drawn)[:5]
            raise Failure("board", ruleset, f"seed {seed}: events {missing} are drawn in no window of the board")


def random_referee(ruleset: str) -> None:
    from affray.conformance.referee import RandomReferee, Violation

    for seed in range(REFEREE_FIGHTS):
        try:
            RandomReferee(ruleset, seed).play()
        except Violation as exc:
            raise Failure("random-referee", ruleset, str(exc)) from None


def hidden_information(ruleset: str) -> None:
    from affray.conformance.hidden import hidden

    for seed in SEEDS[:2]:
        problem = hidden(ruleset, seed)
        if problem is not None:
            raise Failure("hidden-information", ruleset, f"seed {seed}: {problem}")


@dataclass(frozen=True)
class Property:
    name: str
    check: Callable[[str], None]
    doc: str


PROPERTIES: tuple[Property, ...] = (
    Property("same-bytes", same_bytes, "the same file and seed give byte-identical output (G-06)"),
    Property("drive-equals-run", drive_equals_run, "the fight driven is the fight run"),
    Property("undo-and-resume", undo_and_resume, "undo and play on, or resume from the inputs: the same journal"),
    Property("board", board, "the board draws every event"),
    Property("random-referee", random_referee, "the random referee finds no broken invariant"),
    Property("hidden-information", hidden_information, "no player's page carries another side's secrets"),
)


def check_property(name: str, ruleset: str) -> None:
    """Run property ``name`` on ``ruleset``: Failure names it; any other error in the ruleset is a failure too."""
    prop = next(p for p in PROPERTIES if p.name == name)
    try:
        prop.check(ruleset)
    except Failure:
        raise
    except Exception as exc:
        raise Failure(name, ruleset, f"{type(exc).__name__}: {exc}") from exc


def check(ruleset: str, properties: Sequence[str] | None = None) -> list[Failure]:
    """Every property (or those named) on ``ruleset``: the failures, none when it conforms."""
    out = []
    for p in PROPERTIES:
        if properties is None or p.name in properties:
            try:
                check_property(p.name, ruleset)
            except Failure as exc:
                out.append(exc)
    return out


def chosen_rulesets() -> list[str]:
    """``AFFRAY_CONFORMANCE`` (ids separated by commas), else every installed ruleset."""
    given = os.environ.get("AFFRAY_CONFORMANCE", "").strip()
    if given:
        return [x.strip() for x in given.split(",") if x.strip()]
    from affray.extensions import ruleset_ids

    return ruleset_ids()
