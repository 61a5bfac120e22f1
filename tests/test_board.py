"""The sequence board (``affray run --board``, ``affray.render.board``) checked against the timeline: every mark
of a round is drawn in the column its event's moment names in the ruleset's own words (``at``), under every
ruleset; and a few placements worked out by hand from the seeds' tables."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from affray.api import prepare
from affray.cli.app import app
from affray.drive import Coming, Drive
from affray.io.load import load_text
from affray.render.board import ALL, Board, Lane, fight_board
from affray.render.board_clock import Column
from affray.render.board_svg import board_panels

runner = CliRunner(env={"COLUMNS": "200"})
SVG = "{http://www.w3.org/2000/svg}"

#: Two fighters, a wizard with sleep and a bowman against four orcs and their leader, every stat written out.
FIGHT = """\
seed: 5
sides:
  party:
    pc: true
    combatants:
      - {name: Brom, class: fighter, level: 7, hp: 48, ac: 3, dex: 16,
         weapons: [{name: long sword, sf: 5, damage: 1d8}]}
      - {name: Sela, class: fighter, level: 3, hp: 22, ac: 5, weapons: [{name: spear, sf: 6, damage: 1d6, reach: 10}]}
      - name: Mina
        class: wizard
        level: 5
        hp: 13
        dex: 17
        spells:
          - {name: sleep, level: 1, ct: 1, components: VSM, effect: {condition: asleep, duration: 5 rounds, max_hd: 2}}
      - {name: Ash, class: fighter, level: 2, hp: 15, ac: 7, weapons: [{name: short bow, sf: 7, damage: 1d6,
         kind: missile, rate: 2}]}
  orcs:
    combatants:
      - {name: Orc, count: 4, hd: 1, hp: 6, ac: 6, mv: 9, weapons: [{name: battle axe, sf: 7, damage: 1d8}]}
      - {name: Orc Captain, hd: 3, hp: 16, ac: 4, mv: 9, weapons: [{name: morning star, sf: 7, damage: 2d4}]}
plan:
  Brom: [{melee: Orc 1}, {melee: Orc 2}]
  Sela: [{melee: Orc 3}]
  Mina: [{cast: sleep, at: orcs}]
  Ash: [{missile: Orc 4}]
  Orc 1: [{melee: Brom}]
  Orc 2: [{melee: Brom}]
  Orc 3: [{melee: Sela}]
  Orc 4: [{melee: Mina, distance: 30}]
  Orc Captain: [{melee: Brom}]
"""
RULESETS = ["combat2-phase1", "combat2-phase2", "side-d6", "speed-segments", "phase-count", "d12-procedure"]


def expected(ruleset: str, at: str) -> tuple[str, str]:  # noqa: C901
    """The column (group, label) a moment's words name, read from the words alone (docs/rulesets/*.md)."""
    if ruleset.startswith("combat2"):
        m = re.search(r"phase (\w), (stating intentions|movement|half-segment (\d+))", at)
        if m is None:
            if "half-segment 19" in at or "half-segment 20" in at:
                return "endphase", at.split("half-segment ")[1][:2]
            assert re.fullmatch(r"(round|cycle) \d+, (surprise|initiative|start)", at), at
            return "start", "S"
        group = f"phase {m.group(1)}"
        return group, {"stating intentions": "I", "movement": "M"}.get(m.group(2), m.group(3))
    if ruleset == "side-d6":
        m = re.fullmatch(r"round \d+, (.+ \(\d\w\w\)), step (\d) \(.*\)", at)
        if m is not None:  # a tie's turn, "party and orcs together (1st)", heads its columns "party + orcs (1st)"
            tie = re.fullmatch(r"(.+) together (\(\d\w\w\))", m.group(1))
            return (tie.group(1).replace(" and ", " + ") + " " + tie.group(2) if tie else m.group(1)), m.group(2)
        if at.endswith("surprise"):
            return "start", "S"
        m = re.fullmatch(r"round \d+, step (\d) \(.*\)", at)
        assert m is not None, at
        return "start", m.group(1)
    if ruleset == "speed-segments":
        m = re.fullmatch(r"round \d+, (A|B|C) \(.*\)", at)
        if m is not None:
            return "start", m.group(1)
        if re.fullmatch(r"round \d+, E \(.*\)", at):
            return "end", "E"
        if re.fullmatch(r"round \d+, start", at):
            return "start", "S"
        m = re.match(r"round \d+, (?:end of )?segment (\d+)", at)
        assert m is not None, at
        return "segments", m.group(1)
    if ruleset == "phase-count":
        m = re.match(r"phase (\d+)", at)
        assert m is not None, at
        n = int(m.group(1))
        return f"phases {n // 5 * 5}-{n // 5 * 5 + 4}", str(n)
    m = re.match(r"round \d+, count (-?\d+)", at)
    if m is not None:
        return "counts", m.group(1)
    return "start", {"surprise": "S", "initiative": "I"}[at.split(", ")[1]]


def _columns(svg: ET.Element) -> dict[int, tuple[str, str, float, float]]:
    """Each column a panel draws: (group, label, left x, right x)."""
    out = {}
    for g in svg.iter(f"{SVG}g"):
        if "bd-col" in (g.get("class") or "").split():
            label = g.find(f"{SVG}text")
            assert label is not None
            out[int(g.get("data-col", ""))] = (g.get("data-group", ""), label.text or "", float(g.get("data-x0", "")),
                                               float(g.get("data-x1", "")))
    return out


def marks_and_columns(svg_text: str) -> list[tuple[int, str, float, tuple[str, str, float, float]]]:
    """Every event's mark in a file's boards: (seq, its kind, its centre's x, the column it is drawn in)."""
    root = ET.fromstring(svg_text)
    out = []
    for panel in root.iter(f"{SVG}svg"):
        if "bd" not in (panel.get("class") or "").split() or "bd-legend" in (panel.get("class") or ""):
            continue
        cols = _columns(panel)
        for g in panel.iter(f"{SVG}g"):
            cls = (g.get("class") or "").split()
            if "bd-mk" in cls and g.get("data-seq") is not None:
                kind = next(c[2:] for c in cls if c.startswith("k-"))
                out.append((int(g.get("data-seq", "")), kind, float(g.get("data-cx", "")), cols[int(g.get("data-col",
                                                                                                            ""))]))
    return out


def run_board(tmp_path: Path, ruleset: str, text: str = FIGHT, *args: str) -> tuple[dict[str, Any], str]:
    file = tmp_path / "fight.yaml"
    file.write_text(text, encoding="utf-8")
    out = tmp_path / f"{ruleset}.svg"
    r = runner.invoke(app, ["run", str(file), "--ruleset", ruleset, "--auto", "--json", "--board", str(out), *args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), out.read_text(encoding="utf-8")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_mark_of_a_round_is_in_the_column_its_moment_names(tmp_path: Path, ruleset: str) -> None:
    timeline, svg = run_board(tmp_path, ruleset, FIGHT, "--round", "1")
    events = timeline["events"]
    drawn = marks_and_columns(svg)
    assert drawn, "no mark drawn"
    first = [e for e in events if (e["tick"][0] < 10 if ruleset == "phase-count" else e["tick"][0] == 1)]
    # every event of round 1 (phases 0-9 under phase-count) but conditions and their ends (drawn as bars)
    assert sorted(seq for seq, *_ in drawn) == [e["seq"] for e in first if e["kind"] not in ("condition", "expire")]
    for seq, kind, cx, (group, label, x0, x1) in drawn:
        e = events[seq]
        assert kind == e["kind"]
        assert (group, label) == expected(ruleset, e["at"]), (e["at"], e["tick"])
        assert x0 <= cx <= x1, (seq, e["at"])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_whole_fight_draws_each_round_once(tmp_path: Path, ruleset: str) -> None:
    timeline, svg = run_board(tmp_path, ruleset)
    drawn = sorted(seq for seq, *_ in marks_and_columns(svg))
    assert drawn == [e["seq"] for e in timeline["events"] if e["kind"] not in ("condition", "expire")]
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}style") is not None  # light and dark, in the file itself


def test_combat2_winner_and_loser_tracks_by_hand(tmp_path: Path) -> None:
    # Round 1 with no surprise, party d10 2 against orcs 8: the party wins (P1-01); Brom (DEX 16, -1) 1 and every
    # orc 8 stay on their tracks (P1-02). Brom's long sword SF 5, winner: band 4-6, the 3rd half-segment of phase 1
    # (P1-04); the captain's morning star SF 7, loser: band 7-9 is the winners' 4th, so the 5th (its 3 HD are above
    # sleep's max_hd 2: it stays awake). Mina's sleep, CT 1 begun in phase 1 on the winner track, completes on its
    # 1st active half-segment, 1 (P1-05).
    text = FIGHT.replace("seed: 5\n", "seed: 5\nsurprise: none\nrolls: {initiative: {1: {party: 2, orcs: 8}}}\n")
    timeline, svg = run_board(tmp_path, "combat2-phase1", text, "--round", "1")
    placed = {(events["kind"], events["actor"]): expected("combat2-phase1", events["at"])
              for events in timeline["events"] if events["tick"][:2] == [1, 1]}  # round 1, phase 1
    assert placed[("melee", "Brom")] == ("phase 1", "3")
    assert placed[("melee", "Orc Captain")] == ("phase 1", "5")
    assert placed[("cast", "Mina")] == ("phase 1", "1")
    by_seq = {seq: col for seq, _, _, col in marks_and_columns(svg)}
    brom = next(e["seq"] for e in timeline["events"] if e["kind"] == "melee" and e["actor"] == "Brom")
    assert by_seq[brom][:2] == ("phase 1", "3")
    # each lane's track this round, apart from its name (right-aligned in the label)
    assert re.search(r'data-lane="Brom"><title>Brom: the winner track this round</title>.*?>Brom</text><text[^>]*'
                     r'text-anchor="end"[^>]*>W</text>', svg)
    assert re.search(r'data-lane="Orc 1"><title>Orc 1: the loser track this round</title>.*?>Orc 1</text><text[^>]*'
                     r'text-anchor="end"[^>]*>L</text>', svg)
    # the casting bar runs from phase 1's intentions (begun) to half-segment 1 (takes effect), and the asleep
    # orcs' bars from half-segment 1 on, past the round (5 rounds: the later column)
    assert re.search(r'class="bd-bar bd-casting"><title>Mina casts sleep: begun at round 1, phase 1, stating '
                     r"intentions; takes effect at round 1, phase 1, half-segment 1 \(winner\)</title>", svg)
    assert re.search(r'class="bd-bar bd-condition"><title>Orc \d: asleep \(sleep\) from round 1, phase 1, '
                     r"half-segment 1 \(winner\), to round 6, phase 1", svg)


def test_side_d6_steps_per_side_by_hand(tmp_path: Path) -> None:
    # MJ-04: party d6 5 against orcs 2, no surprise: the party's steps 4-8 come first; Ash's bow is step 5,
    # Mina's sleep step 6, the blows step 7 (MJ-05); the orcs' blows step 7 of their turn, second.
    text = FIGHT.replace("seed: 5\n", "seed: 5\nsurprise: none\nrolls: {initiative: {1: {party: 5, orcs: 2}}}\n")
    timeline, svg = run_board(tmp_path, "side-d6", text, "--round", "1")
    cols = {(kind, timeline["events"][seq]["actor"]): col[:2] for seq, kind, _, col in marks_and_columns(svg)}
    assert cols[("missile", "Ash")] == ("party (1st)", "5")
    assert cols[("cast", "Mina")] == ("party (1st)", "6")
    assert cols[("melee", "Brom")] == ("party (1st)", "7")
    assert cols[("declare", "Orc 1")] == ("start", "2")
    assert cols[("cast-start", "Mina")] == ("start", "3")


def test_side_d6_a_tie_heads_one_turn_by_hand(tmp_path: Path) -> None:
    # MJ-07: party and orcs both roll a d6 of 3: their steps 4-8 run together, one turn, 1st. Its columns are headed
    # "party + orcs (1st)" (its words, "party and orcs together (1st)", were cut short in a group's head); before
    # the roll, the turns are "1st turn", "2nd turn" (whose comes first is not known yet).
    text = FIGHT.replace("seed: 5\n", "seed: 5\nsurprise: none\nrolls: {initiative: {1: {party: 3, orcs: 3}}}\n")
    timeline, svg = run_board(tmp_path, "side-d6", text, "--round", "1")
    cols = {(kind, timeline["events"][seq]["actor"]): col[:2] for seq, kind, _, col in marks_and_columns(svg)}
    assert cols[("melee", "Brom")] == ("party + orcs (1st)", "7") == cols[("melee", "Orc Captain")]
    prepared = prepare(load_text("ruleset: side-d6\n" + text, "fight.yaml"))
    drive = Drive(lambda: prepared.fight(max_rounds=3), announce=True)
    assert not isinstance(drive.pull(), Coming)  # the surprise, nothing rolled for initiative yet
    groups = [c.group for c in fight_board(drive.fight, live=True).columns]
    assert "1st turn" in groups and "2nd turn" in groups


def test_a_live_board_places_the_steps_to_come_before_they_resolve(tmp_path: Path) -> None:
    # side-d6, party first (d6 5 against 2): as Ash's first shot (step 5) is about to resolve, the blows of the
    # party (step 7 of its turn) and of the orcs (step 7 of theirs) are placed and drawn dashed where they will land,
    # and Mina's sleep, begun at step 3, runs as a bar to its step 6, still to come.
    text = FIGHT.replace("seed: 5\n", "seed: 5\nsurprise: none\nrolls: {initiative: {1: {party: 5, orcs: 2}}}\n")
    prepared = prepare(load_text("ruleset: side-d6\n" + text, "fight.yaml"))
    drive = Drive(lambda: prepared.fight(max_rounds=3), announce=True)
    while True:
        item = drive.pull()
        if isinstance(item, Coming) and item.step.kind == "missile":
            break
    board = fight_board(drive.fight, live=True)
    coming = {(m.kind, m.lane): (board.columns[m.column].group, board.columns[m.column].label)
              for m in board.marks if m.placed}
    assert coming[("melee", "Brom")] == ("party (1st)", "7")
    assert coming[("melee", "Orc Captain")] == ("orcs (2nd)", "7")
    assert coming[("cast", "Mina")] == ("party (1st)", "6")
    bar = next(b for b in board.bars if b.kind == "casting")
    assert (board.columns[int(bar.start)].label, board.columns[int(bar.end)].label, bar.placed_end) == ("3", "6", True)
    assert board.now is not None and board.columns[board.now].label == "3"  # the latest event: casting begun
    svg = "".join(board_panels(board))
    assert svg.count('bd-placed"') >= 3 and "coming: Brom: melee -&gt; Orc 1 (long sword)" in svg


def test_lanes_named_alike_are_told_apart_by_their_labels() -> None:
    """Issue 44: Combat II's lanes "Kobold slinger 1" and "Kobold slinger 2", both on the loser track, each read as
    its own in the board's label (the track, L, drawn apart from the name), where both read "Kobold slinger …" and
    only a hover told them apart."""
    lanes = [Lane(ALL, ALL, "all"), Lane("side:kobolds", "kobolds", "side", "kobolds")]
    lanes += [Lane(f"Kobold slinger {n}", f"Kobold slinger {n}", "fighter", "kobolds", note="L") for n in (1, 2, 11)]
    board = Board("combat2-phase1", 1, "Round 1", [Column((0, 0), "S", "start", "the round's start")], lanes)
    root = ET.fromstring(board_panels(board)[0])
    labels = {g.get("data-lane"): [t.text for t in g.iter(f"{SVG}text")] for g in root.iter(f"{SVG}g")
              if g.get("data-lane", "").startswith("Kobold")}
    names = [texts[0] for texts in labels.values()]
    assert len(set(names)) == 3 and all(name.endswith(f" {n}") for name, n in zip(names, (1, 2, 11), strict=True))
    assert all(texts[1] == "L" for texts in labels.values())


def test_round_outside_the_fight_and_round_without_board_are_refused(tmp_path: Path) -> None:
    file = tmp_path / "fight.yaml"
    file.write_text(FIGHT, encoding="utf-8")
    r = runner.invoke(app, ["run", str(file), "--ruleset", "side-d6", "--board", str(tmp_path / "b.svg"),
                            "--round", "40"])
    assert r.exit_code == 2 and "--round 40: this fight has no Round 40 (it has round 1-" in r.output
    r = runner.invoke(app, ["run", str(file), "--ruleset", "side-d6", "--round", "1"])
    assert r.exit_code == 2 and "give --board PATH too" in r.output
    r = runner.invoke(app, ["run", str(file), "--ruleset", "side-d6", "--board", str(tmp_path / "no" / "b.svg")])
    assert r.exit_code == 2 and f"--board {tmp_path / 'no' / 'b.svg'}: no such folder {tmp_path / 'no'}" in r.output


def test_names_from_the_file_are_text_in_the_svg(tmp_path: Path) -> None:
    text = FIGHT.replace("Orc Captain", "<script>x</script> & \\\"Co\\\"")
    _, svg = run_board(tmp_path, "side-d6", text, "--round", "1")
    ET.fromstring(svg)  # still well-formed XML
    assert "<script>" not in svg and "&lt;script&gt;x&lt;/script&gt; &amp;" in svg
