"""Shared by the web page's tests: a fight of three player characters against three orcs, served on its own
thread, and a way to read a screen's live part."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from affray.api import prepare
from affray.io.load import load_text
from affray.web.app import Served, make_app
from affray.web.security import BodyLimit
from affray.web.serve import Opening, close_served, listen, open_served
from affray.web.server import make_server

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


def opening(tmp_path: Path, ruleset: str, text: str = TABLE, *, saved: bool = False) -> Opening:
    """A new fight of ``text`` under ``ruleset`` in a fresh database; ``saved``: a fight saved by an earlier affray,
    whose text a new file could no longer hold (a combatant named like a side, a name with a line break), started
    as that affray started it."""
    path = table_file(tmp_path, ruleset, text)
    prepared = prepare(load_text(path.read_text(encoding="utf-8"), str(path), stored=saved))
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


@contextmanager
def live_server(op: Opening) -> Iterator[tuple[str, Served]]:
    """The page served by uvicorn on 127.0.0.1 (a free port) in a thread, stopped when the block ends."""
    served = open_served(op)
    sock = listen("127.0.0.1", 0)
    server = make_server(served)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", served
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()
        close_served(served)
        assert not thread.is_alive(), "the server did not stop"


def first_frame(url: str) -> str:
    """The first live frame a screen's channel sends, read over a real socket: its parts' HTML joined (a first frame
    holds every part of the screen, ``affray.web.live``)."""
    with httpx.stream("GET", url, timeout=10) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("data: "):
                data = json.loads(line[6:])
                assert isinstance(data["parts"], list) and all(isinstance(p, str) for p in data["parts"])
                return "".join(data["parts"])
    raise AssertionError("the channel closed before a frame")


def card(html: str, name: str) -> str:
    """A combatant's card as its words read (tags dropped, spaces collapsed)."""
    found = re.search(rf'<li class="card[^"]*" data-name="{re.escape(name)}">(.*?)</li>\s*'
                      r'(?=<!--k--><li class="card|<!--/k-->)', html, re.S)
    assert found, f"no card of {name}"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())
