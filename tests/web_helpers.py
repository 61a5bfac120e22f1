"""Shared by the web page's tests: a fight of three player characters against three orcs, served on its own
thread, and a way to read a screen's live part."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient

from affray.api import prepare
from affray.io.load import load_text
from affray.web.app import Served, make_app
from affray.web.security import BodyLimit
from affray.web.serve import Opening, close_served, open_served

#: Three fighters of the party (the players' characters) against three orcs of 3 hp, each orc's plan a blow at
#: "its" fighter, phase after phase: the players declare and roll, the orcs' dice are rolled from the seed.
TABLE = """\
seed: 11
sides:
  party:
    pc: true
    combatants:
      - {name: Brom, class: fighter, level: 6, hp: 50, ac: 3, weapons: [{name: long sword, sf: 5, damage: 1d4}]}
      - {name: Sela, class: fighter, level: 6, hp: 50, ac: 3, weapons: [{name: spear, sf: 6, damage: 1d4}]}
      - {name: Ash, class: fighter, level: 6, hp: 50, ac: 3, weapons: [{name: axe, sf: 7, damage: 1d4}]}
  orcs:
    combatants:
      - {name: Orc, count: 3, hd: 1, hp: 3, ac: 6, weapons: [{name: club, sf: 7, damage: 1d6}]}
plan:
  Orc 1: [{melee: Brom}, {melee: Brom}, {melee: Brom}, {melee: Brom}, {melee: Brom}, {melee: Brom}]
  Orc 2: [{melee: Sela}, {melee: Sela}, {melee: Sela}, {melee: Sela}, {melee: Sela}, {melee: Sela}]
  Orc 3: [{melee: Ash}, {melee: Ash}, {melee: Ash}, {melee: Ash}, {melee: Ash}, {melee: Ash}]
"""
PCS = ("Brom", "Sela", "Ash")


def table_file(tmp_path: Path, ruleset: str, text: str = TABLE) -> Path:
    path = tmp_path / f"table-{ruleset}.yaml"
    path.write_text(f"ruleset: {ruleset}\n" + text, encoding="utf-8")
    return path


def opening(tmp_path: Path, ruleset: str, text: str = TABLE) -> Opening:
    """A new fight of ``text`` under ``ruleset`` in a fresh database."""
    path = table_file(tmp_path, ruleset, text)
    prepared = prepare(load_text(path.read_text(encoding="utf-8"), str(path)))
    return Opening(str(tmp_path / f"{ruleset}.db"), (str(path), path.read_text(encoding="utf-8"), prepared.ruleset.id,
                                                     prepared.seed, {}, False, 50))


@contextmanager
def client(op: Opening) -> Iterator[tuple[TestClient, Served]]:
    served = open_served(op)
    try:
        with TestClient(BodyLimit(make_app(served)), base_url="http://127.0.0.1:8000") as c:
            yield c, served
    finally:
        close_served(served)


def form_key(html: str) -> str:
    found = re.search(r'name="key" value="([^"]+)"', html)
    assert found, "no form on the page"
    return found.group(1)


def question(html: str) -> tuple[int, str] | None:
    """The question a screen shows: its id and what (declare or die), or None."""
    found = re.search(r'data-question="(\d+)" data-what="(\w+)"', html)
    return (int(found.group(1)), found.group(2)) if found else None
