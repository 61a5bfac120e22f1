"""How `affray run` and the console print an event (issue 14): who it is of, always named; its why under it,
wrapped to the terminal and indented under the event."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from affray import load_encounter, prepare
from affray.engine.events import Event
from affray.render.timeline import event_renderables, render_result, who

FIRST = Path(__file__).resolve().parents[1] / "src" / "affray" / "examples" / "first_fight.yaml"
SKIRMISH = FIRST.with_name("skirmish.yaml")


def first_fight() -> list[Event]:
    return prepare(load_encounter(FIRST)).fight().run().events  # side-d6, seed 7, as the file says


def test_every_event_names_who_it_is_of() -> None:
    events = first_fight()
    assert all(who(e) for e in events)
    by_kind = {e.kind: who(e) for e in events}
    assert by_kind["surprise"] == by_kind["initiative"] == "all sides"  # a die per side (MJ-08, MJ-04)
    condition = next(e for e in events if e.kind == "condition")
    assert who(condition) == "Mina"  # her sleep put Goblin 1 to sleep: the caster is who it is of (G-09)


def test_a_condition_names_its_target_and_its_end() -> None:
    """first_fight: Mina's sleep takes effect at round 1, step 6 (MJ-05); 5 rounds on side-d6's clock of
    one-minute rounds end it as round 1 + 5 = round 6 begins (G-08)."""
    events = first_fight()
    i, condition = next((i, e) for i, e in enumerate(events) if e.kind == "condition")
    line = event_renderables(condition, i, 200)[0].plain
    assert "Mina -> Goblin 1: asleep (sleep), to round 6, start" in line
    ends = next((i, e) for i, e in enumerate(events) if e.kind == "expire")
    # Goblin 1 falls to Brom before round 6 (its sleep never runs out): the first to end is Goblin 2's
    assert "Mina -> Goblin 2: asleep ends" in event_renderables(ends[1], ends[0], 200)[0].plain


def test_the_why_is_wrapped_at_the_width_and_indented_under_the_event() -> None:
    for i, e in enumerate(first_fight()):
        parts = event_renderables(e, i, 60)
        for line in (parts[1].plain.splitlines() if len(parts) > 1 else []):
            assert line.startswith(" " * 7) and not line.startswith(" " * 8), line
            assert len(line) <= 59 and line == line.rstrip(), line


def test_the_end_of_a_condition_reads_as_such_in_what_comes_next() -> None:
    """A condition's end is a step on the clock (G-08); the status says what ends, not the step's kind."""
    from affray.engine.step import Step
    from affray.render.status import next_lines

    fight = prepare(load_encounter(FIRST)).fight()
    goblin = fight.state.fighters["Goblin 1"]
    step = Step((6,), goblin, "end-condition", "round 6, start", "round 1 + 5 rounds", note="asleep")
    assert next_lines(fight, step, None)[0].plain == "next: Goblin 1: asleep ends at round 6, start"


def _line_by_line(result: Any, console: Console) -> None:
    """The timeline as it was printed before render_result printed a heading's events at once: one print a line."""
    from affray.rulesets import find_ruleset

    console.print(Text(f"affray: ruleset {result.ruleset}, seed {result.seed}", style="bold"))
    last: str | None = None
    for seq, e in enumerate(result.events):
        title = find_ruleset(result.ruleset).heading(e.tick) if e.round is None else f"Round {e.round}"
        if title is not None and title != last:
            console.rule(title)
            last = title
        for part in event_renderables(e, seq, console.width):
            console.print(part, soft_wrap=True)


@pytest.mark.parametrize("settings", [{}, {"width": 50}, {"width": 200},
                                      {"force_terminal": True, "color_system": "truecolor", "width": 90},
                                      {"force_terminal": True, "color_system": "standard", "width": 60}],
                         ids=["pipe", "narrow", "wide", "truecolor", "16-colours"])
def test_a_headings_events_printed_at_once_are_the_bytes_of_one_print_a_line(settings: dict[str, Any]) -> None:
    """render_result prints the whole timeline in one print on a colour terminal (rich's cost is per print), and
    where the console prints no style (a pipe) writes its lines as they are, rich drawing only the headings: the
    same bytes as one print a line, on a pipe and on a colour terminal, narrower and wider than its lines."""
    result = prepare(load_encounter(SKIRMISH), seed=7).fight(auto=True).run()
    batched, single = io.StringIO(), io.StringIO()
    render_result(result, Console(highlight=False, file=batched, **settings))
    table_at = batched.getvalue().index("Final state")
    _line_by_line(result, Console(highlight=False, file=single, **settings))
    assert batched.getvalue()[:table_at].rsplit("\n", 1)[0] + "\n" == single.getvalue()
