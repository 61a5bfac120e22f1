"""Issue 32: the page holds under hostile and careless clients, over real sockets (uvicorn on 127.0.0.1, and
``affray serve`` itself where the whole process matters).

Each test is one finding of the third hostile probe: live pages opened and dropped by the dozen wedged every later
request; a carriage return in a name split a live frame and forged an event; an 80 KB chunked form answered 500;
1,100 idle connections locked the referee out; a character named like the enemy side or ``referee`` took that
seat's part; each live frame was the whole page again. The bounds asserted here (a second for any request, a
second to stop) are liveness, not speed: a wedged server takes 20 s and more.
"""

from __future__ import annotations

import ctypes
import json
import re
import resource
import select
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page

from affray.drive import DieQuestion
from affray.limits import MAX_BODY
from affray.web.live import KID, KIDS_END
from affray.web.serve import links
from test_web_browser import DESKTOP, PHONE
from test_web_security import Screens
from web_helpers import PCS, TABLE, form_key, live_server, opening, table_file

#: A request of a page that holds takes less than this on a quiet machine (the live-page test below: 50 runs in a
#: row of 24 requests each, all under it); a wedged one took 20 s and more.
SECOND = 1.0
#: No request of a page that holds takes this long, however loaded the machine: CI compiles the other build on the
#: same two cores while the suite runs (one request there took 1.07 s), so a test bounds each request by this and
#: their median by ``SECOND``. A wedged page (20 s and more) or a locked-out referee (never answered) still fails.
WEDGED = 5.0


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _raw(url: str, request: bytes, *, timeout: float = 5.0) -> bytes:
    """``request`` sent as it is on a socket of its own; the whole answer (the server closes it, or 5 s pass)."""
    with socket.create_connection(_address(url), timeout=timeout) as s:
        s.sendall(request)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
                if b"\r\n\r\n" in out and _complete(out):
                    break
        except TimeoutError:
            pass
    return out


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    found = re.search(rb"content-length: (\d+)", head, re.I)
    return found is not None and len(body) >= int(found.group(1))


def _timed(fn: object, *args: object, **kwargs: object) -> tuple[float, object]:
    start = time.monotonic()
    result = fn(*args, **kwargs)  # type: ignore[operator]
    return time.monotonic() - start, result


# -- live pages opened and dropped: nothing wedges ------------------------------------------------------------------

def _open_live(url: str, token: str) -> socket.socket:
    s = socket.create_connection(_address(url), timeout=5)
    s.sendall(f"GET /t/{token}/live HTTP/1.1\r\nHost: {url[7:]}\r\nAccept: text/event-stream\r\n\r\n".encode())
    return s


def _until(ch: socket.socket, marker: bytes) -> bytes:
    """Read ``ch`` until ``marker`` came (5 s at most); what was read."""
    ch.settimeout(5)
    seen = b""
    while marker not in seen:
        chunk = ch.recv(65536)
        assert chunk, f"a live channel closed before {marker!r}"
        seen += chunk
    return seen


def test_many_live_pages_opened_and_dropped_then_play_goes_on(tmp_path: Path) -> None:
    """Issue 32's wedge: 60 live channels (every screen, several a screen, as browsers hold them) opened at once;
    a third dropped before their first frame, a third after it, a third mid-change; then the fight is played on:
    every request answers within a second, and every channel still open sees the change."""
    with live_server(opening(tmp_path, "side-d6")) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        s = Screens(c, served)
        tokens = [s.ref, *s.tok.values()]
        channels = [_open_live(url, tokens[i % len(tokens)]) for i in range(60)]
        for ch in channels[:20]:
            ch.close()  # gone before its first frame
        for ch in channels[20:40]:
            _until(ch, b"event: live")
            ch.close()  # gone after it
        for ch in channels[40:]:
            _until(ch, b"event: live")
        slow: list[float] = []
        kept = channels[40:]
        for say in ("dice all roll", "declare party auto"):  # then each Step moves the fight on
            s.post(s.ref, op="command", say=say)
        for turn in range(12):
            if turn == 3:
                for ch in kept[:10]:
                    ch.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    ch.close()  # torn down (RST) while frames are on their way
                kept = kept[10:]
            took, _ = _timed(s.post, s.ref, op="command", say="step")
            slow.append(took)
            took, _ = _timed(s.page, tokens[turn % len(tokens)])
            slow.append(took)
        assert max(slow) < WEDGED and statistics.median(slow) < SECOND, f"requests took {sorted(slow)} s"
        assert len(served.table.journal.events) >= 12  # the fight did move on
        rev = served.rev
        for ch in kept:  # the channels still open were told of the last change
            _until(ch, f'"rev":{rev},'.encode())
            ch.close()
        deadline = time.monotonic() + 5
        while any(served.streams.values()):  # every channel's place is given back once its client is gone
            assert time.monotonic() < deadline, f"channels left: {served.streams}"
            time.sleep(0.05)


# -- a live frame is one event whatever a name holds ----------------------------------------------------------------

FORGER = "Orc\r\nevent: forged\r\ndata: <b>forged</b>\r\n\r\nevent: live"


def _events(raw: bytes) -> list[list[bytes]]:
    """The events of an event stream's bytes (chunked transfer framing dropped), each as its lines, split where an
    event-stream reader splits them: at CR, LF or CRLF."""
    body, out = raw.partition(b"\r\n\r\n")[2], b""
    while body:
        size, _, rest = body.partition(b"\r\n")
        n = int(size, 16)
        out, body = out + rest[:n], rest[n + 2:]
    return [re.split(rb"\r\n|\r|\n", e) for e in out.split(b"\n\n") if e]


def test_a_carriage_return_in_a_name_or_a_note_cannot_split_a_frame(tmp_path: Path) -> None:
    """Orcs named with carriage returns and line feeds (a saved fight's: a new file's names are refused so), and a
    referee's note typed with them (it comes back in the next frame): every frame is one event of two lines, its data
    one line of JSON (each break escaped), the texts whole inside it."""
    text = TABLE.replace("{name: Orc, count: 3,", "{name: " + json.dumps(FORGER) + ", count: 3,")
    for k in (1, 2, 3):
        text = text.replace(f"Orc {k}:", json.dumps(f"{FORGER} {k}") + ":")
    with live_server(opening(tmp_path, "side-d6", text, saved=True)) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        s = Screens(c, served)
        ch = _open_live(url, s.ref)
        raw = _until(ch, b"event: live")
        s.post(s.ref, op="command", say="note look\r\nevent: forged\r\ndata: x")
        time.sleep(0.3)
        ch.settimeout(0.5)
        with suppress(TimeoutError):
            while chunk := ch.recv(65536):
                raw += chunk
        ch.close()
    events = _events(raw)
    assert len(events) >= 2
    for lines in events:
        assert [line.split(b":", 1)[0] for line in lines] == [b"event", b"data"], lines
        assert lines[0] == b"event: live"
    whole = "".join(json.dumps(json.loads(lines[1][6:])) for lines in events)
    assert whole.count("forged") >= 4  # the names and the note came, inside their one event each


# -- bodies: 413 whatever their encoding ----------------------------------------------------------------------------

def test_an_80_kb_chunked_form_is_refused_413_not_500(tmp_path: Path) -> None:
    """80 KB sent chunked (no Content-Length): refused as too large, as the same body with its length is, and the
    table goes on (the referee's next form goes through)."""
    with live_server(opening(tmp_path, "side-d6")) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        body = b"token=" + b"x" * (80 * 1024)
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 8192]), body[i:i + 8192])
                          for i in range(0, len(body), 8192)) + b"0\r\n\r\n"
        head = (f"POST /act HTTP/1.1\r\nHost: {url[7:]}\r\nContent-Type: application/x-www-form-urlencoded\r\n")
        chunked = _raw(url, (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunks)
        assert chunked.startswith(b"HTTP/1.1 413 "), chunked[:200]
        assert f"at most {MAX_BODY} bytes".encode() in chunked
        sized = _raw(url, (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
        assert sized.startswith(b"HTTP/1.1 413 "), sized[:200]
        zipped = _raw(url, (head + "Content-Encoding: gzip\r\nContent-Length: 4\r\n\r\n").encode() + b"abcd")
        assert zipped.startswith(b"HTTP/1.1 415 "), zipped[:200]
        s = Screens(c, served)
        assert s.post(s.ref, op="command", say="run") == "run: the d6 for surprise (party) is asked"


# -- idle and slow connections cannot lock the table out -------------------------------------------------------------

def _die_with_parent() -> None:
    """In the child, before it runs: killed when this test's process ends, however it ends (Linux)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@contextmanager
def _serving(tmp_path: Path, text: str = TABLE, players: int = len(PCS)) -> Iterator[tuple[subprocess.Popen[str],
                                                                                      dict[str, str]]]:
    """``affray serve`` in a process of its own on a free port of 127.0.0.1 (killed when the block ends, or with
    this test's process); the links it printed (the referee's, ``players``', the table view's)."""
    file = table_file(tmp_path, "side-d6", text)
    proc = subprocess.Popen([sys.executable, "-m", "affray", "serve", str(file), "--db", str(tmp_path / "serve.db"),
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_die_with_parent)
    try:
        assert proc.stdout is not None
        found: dict[str, str] = {}
        while len(found) < 2 + players:
            line = proc.stdout.readline()
            assert line, f"affray serve printed no links: {proc.stderr.read() if proc.stderr else ''}"
            who, _, url = line.rstrip("\n").rpartition(": ")
            found[who] = url
        yield proc, found
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def test_1100_idle_connections_do_not_lock_the_referee_out(tmp_path: Path) -> None:
    """1,100 connections that never send a byte, held open: the referee's page still opens within a second (the
    oldest idle connections are closed to make room, ``MAX_CONNECTIONS``), and its form goes through."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 1100 + 200
    assert hard == resource.RLIM_INFINITY or hard >= want, f"this test opens 1,100 sockets: ulimit -Hn is {hard}"
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))
    idle: list[socket.socket] = []
    try:
        with _serving(tmp_path) as (_proc, found):
            base = found["referee"].split("/t/")[0]
            address = _address(base)
            for _ in range(1100):
                idle.append(socket.create_connection(address, timeout=5))
            time.sleep(0.5)  # the server has taken them all
            with httpx.Client(base_url=base, timeout=10) as c:
                token = found["referee"].rsplit("/", 1)[1]
                took, r = _timed(c.get, f"/t/{token}")
                assert isinstance(r, httpx.Response) and r.status_code == 200
                assert took < WEDGED, f"the referee's page took {took:.2f} s"
                r = c.post("/act", data={"token": token, "key": form_key(r.text), "op": "command", "say": "run"},
                           headers={"HX-Request": "true"})
                assert r.status_code == 200 and "run: the d6 for surprise (party) is asked" in r.text
            poller = select.poll()  # not select(): past descriptor 1023 it refuses (the worker may hold many)
            for s in idle[:600]:
                poller.register(s, select.POLLIN)
            readable = {fd for fd, _ in poller.poll(2000)}
            closed = sum(1 for s in idle[:600] if s.fileno() in readable and s.recv(1) == b"")
            assert closed >= 1100 - 512, f"only {closed} of the oldest idle connections were closed"
    finally:
        for s in idle:
            s.close()


def test_a_head_sent_a_byte_at_a_time_is_cut_off(tmp_path: Path) -> None:
    """A connection has ``WEB_HEAD_SECONDS`` to send its request's head (0.5 s here), counted from its opening:
    one that sends nothing, or a byte now and then, is closed; one that sends its head in time is answered."""
    from affray.web.serve import close_served, listen, open_served
    from affray.web.server import make_server

    served = open_served(opening(tmp_path, "side-d6"))
    sock = listen("127.0.0.1", 0)
    server = make_server(served, head_seconds=0.5)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.02)
        address = sock.getsockname()
        silent = socket.create_connection(address, timeout=5)
        dripping = socket.create_connection(address, timeout=5)
        start = time.monotonic()
        for byte in b"GET / HTTP/1.1\r\n":
            try:
                dripping.send(bytes([byte]))
            except OSError:
                break
            time.sleep(0.1)
        for s in (silent, dripping):
            assert s.recv(1024) == b"", "a connection without a head was kept"
        assert time.monotonic() - start < 3
        r = httpx.get(f"http://127.0.0.1:{address[1]}/", timeout=5)
        assert r.status_code == 200
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        close_served(served)


# -- seats by token only ---------------------------------------------------------------------------------------------

def _renamed(old: str, new: str) -> str:
    return TABLE.replace(f"name: {old},", f"name: {new},").replace(f"{{melee: {old}}}", f"{{melee: {new}}}")


def test_a_character_named_like_the_enemy_side_rolls_none_of_its_dice(tmp_path: Path) -> None:
    """Brom renamed ``orcs``, the enemy side's name (a fight saved so by an earlier affray: a new file is refused,
    tests/test_names_apart.py). The side-d6 initiative die of the orcs names its roller ``orcs``, which cannot tell
    the side from the character: it is nobody's side's, so neither asked of the character (nor shown to it) nor of
    the party's players: rolled, as every die the served fight does not ask. The party's own die stays the party's
    players' (Sela answers the surprise die)."""
    with live_server(opening(tmp_path, "side-d6", _renamed("Brom", "orcs"), saved=True)) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        s = Screens(c, served)
        assert list(s.tok) == ["orcs", "Sela", "Ash"]
        assert s.post(s.ref, op="command", say="run") == "run: the d6 for surprise (party) is asked"
        assert s.answer(s.tok["Sela"], "1") == ""  # the party's surprise d6: a party player's
        asked = []
        while not any(e["kind"] == "initiative" and e.get("round") == 2 for e in served.table.journal.events):
            q = served.table.pending  # the party's declarations and dice, up to round 2's initiative
            assert q is not None and len(asked) < 40, "the fight asked nothing of the party"
            asked.append((q.actor, q.side, getattr(q, "purpose", "declare")))
            if isinstance(q, DieQuestion):
                assert s.answer(s.ref, "3") == ""
                continue
            # at the first orc standing: a melee at a fallen one is refused, in words that name who still stands
            said = []
            for n in (1, 2, 3):
                said.append(s.answer(s.ref, f"melee Orc {n}"))
                if said[-1] == "":
                    break
            assert said[-1] == "" and all("is out of the fight" in x for x in said[:-1]), said
        assert ("orcs", "party", "initiative") not in asked and ("orcs", None, "initiative") not in asked, asked
        rolled = [e for e in served.table.journal.events if e["kind"] == "initiative"]
        assert rolled, "no initiative in two rounds"


def test_a_character_named_referee_is_a_player_and_printed_as_one(tmp_path: Path) -> None:
    """Brom renamed ``referee``: ``affray serve`` prints the referee's link as ``referee`` and the character's as
    ``referee (player character)``; the character's link gives no command."""
    with live_server(opening(tmp_path, "side-d6", _renamed("Brom", "referee"))) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        printed = links(served, "127.0.0.1", 8000)
        assert [who for who, _ in printed] == ["referee", "referee (player character)", "Sela", "Ash", "table view"]
        assert printed[0][1].endswith(served.tokens.referee.token)
        assert printed[1][1].endswith(served.tokens.players["referee"].token)
        s = Screens(c, served)
        key = served.keys.issue(served.tokens.players["referee"])  # as its page's live frames carry one
        assert s.post(s.tok["referee"], key, op="command", say="run") == "only the referee gives commands"
        assert served.table.journal.events == []


# -- live frames send what changed, and what they send makes the page --------------------------------------------------

def _scan(html: str, at: int) -> tuple[list[int], int]:
    """Where the children of the list whose opening tag ends at ``at`` start, and where the list ends (its
    ``<!--/k-->``), lists within its children skipped."""
    depth, starts = 0, []
    for t in re.finditer(r'data-kids="[\w-]+"[^>]*>|<!--k-->|<!--/k-->', html[at:]):
        if t.group(0) == KID:
            if depth == 0:
                starts.append(at + t.end())
        elif t.group(0) == KIDS_END:
            if depth == 0:
                return starts, at + t.start()
            depth -= 1
        else:
            depth += 1
    raise AssertionError("a list without its end")


def _runs(old: list[str], given: list[object]) -> list[str]:
    out: list[str] = []
    for e in given:
        if isinstance(e, str):
            out.append(e)
        else:
            assert isinstance(e, list)
            first, count = e
            assert first >= 0 and first + count <= len(old), "a run of children the screen does not hold"
            out += old[first:first + count]
    return out


def _applied(parts: list[str], data: dict[str, object]) -> list[str]:
    """A screen's parts after a frame, worked out from the frame's text alone (as live.js does on the page)."""
    given = data["parts"]
    if isinstance(given, list):
        parts = _runs(parts, given)
    html = "".join("<!--p-->" + p for p in parts)
    lists = data["lists"]
    assert isinstance(lists, dict)
    for name, (tag, kids) in lists.items():
        m = re.search(rf'data-kids="{name}"[^>]*>', html)
        assert m is not None, f"a frame edits list {name}, which the screen does not hold"
        start = html.rfind("<", 0, m.start())
        starts, end = _scan(html, m.end())
        ends = [s - len(KID) for s in starts[1:]] + [end] if starts else []
        old = [html[a:b] for a, b in zip(starts, ends, strict=True)]
        new = old if kids is None else _runs(old, kids)
        before = html[m.end():starts[0] - len(KID)] if starts else html[m.end():end]
        html = html[:start] + (tag or html[start:m.end()]) + before + "".join(KID + k for k in new) + html[end:]
    return html.split("<!--p-->")[1:]


def _frames(raw: bytes) -> list[dict[str, object]]:
    return [json.loads(lines[1][6:]) for lines in _events(raw) if lines[0] == b"event: live"]


def test_live_frames_send_what_changed_and_make_the_screen(tmp_path: Path) -> None:
    """A channel of each kind (the referee's, a player's, the table view's) through a fight of 150 steps (orcs of
    40 hp, fighters of 300, every side by policy, every die rolled): the screen worked out from the frames alone
    is, part for part, the screen a new channel's first frame draws; and late in the fight (the last 50 frames) a
    frame is under 20 KiB and a tenth of the screen on average, where the probe found the whole page again. The
    live page shows the last 100 lines of the timeline; the whole timeline is a link away, a player's still his."""
    text = TABLE.replace("hp: 3,", "hp: 40,").replace("hp: 50,", "hp: 300,")
    with live_server(opening(tmp_path, "side-d6", text)) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        s = Screens(c, served)
        board = served.tokens.board
        assert board is not None
        tokens = {"referee": s.ref, "Sela": s.tok["Sela"], "table view": board.token}
        channels = {who: _open_live(url, token) for who, token in tokens.items()}
        raws = {who: _until(ch, b"event: live") for who, ch in channels.items()}
        for say in ("dice all roll", "declare party auto", "declare orcs auto", *["step"] * 150):
            s.post(s.ref, op="command", say=say)
            for who, ch in channels.items():  # read as it comes (a socket's buffer is not the test's to fill)
                raws[who] += _until(ch, f'"rev":{served.rev},'.encode())
        assert len(served.table.journal.events) >= 150 and not served.table.over
        for ch in channels.values():
            ch.close()
        for who, token in tokens.items():
            frames = _frames(raws[who])
            assert frames[-1]["rev"] == served.rev
            parts: list[str] = []
            for data in frames:
                parts = _applied(parts, data)
            whole = _frames(_raw(url, f"GET /t/{token}/live HTTP/1.1\r\nHost: {url[7:]}\r\n\r\n".encode(),
                                 timeout=1))[0]
            assert parts == whole["parts"], f"{who}'s screen made from its frames is not the screen drawn"
            late = [len(json.dumps(f)) for f in frames[-50:]]
            screen = sum(len(p) for p in parts)
            assert max(late) < 20 * 1024, f"{who}: a frame of {max(late)} bytes late in the fight"
            assert sum(late) / len(late) < screen / 10, f"{who}: late frames of {sum(late) / 50:.0f} bytes on " \
                f"average, the screen {screen}"
        # the live page shows the timeline's last LIVE_LINES lines, and links to every one (Sela's: hers)
        found = re.search(r"the last 100 of (\d+) events", s.page(s.tok["Sela"]))
        assert found is not None and int(found.group(1)) > 100
        every = c.get(f"/t/{s.tok['Sela']}/timeline").text
        assert every.count('<li class="k-') == int(found.group(1))
        # an orc's blow as the referee sees it (its roll against the orcs' THAC0 19) and as a player does (no detail)
        assert "vs THAC0 19" in c.get(f"/t/{s.ref}/timeline").text and "vs THAC0 19" not in every


# -- a server that stops, stops within a second ----------------------------------------------------------------------

def test_sigterm_stops_the_server_within_a_second_with_live_pages_open(tmp_path: Path) -> None:
    """``affray serve`` with a live channel of every screen open, an idle connection and a request whose body never
    comes: SIGTERM ends it within a second (it took over 2 s, "Cancel 4 running task(s)"), the fight saved."""
    with _serving(tmp_path) as (proc, found):
        base = found["referee"].split("/t/")[0]
        held = [_open_live(base, url.rsplit("/", 1)[1]) for url in found.values()]
        for ch in held:
            _until(ch, b"event: live")
        idle = socket.create_connection(_address(base), timeout=5)
        stalled = socket.create_connection(_address(base), timeout=5)
        stalled.sendall(b"POST /act HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nkey=")
        time.sleep(0.2)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(10)
        took = time.monotonic() - start
        for s in (*held, idle, stalled):
            s.close()
        assert took < SECOND, f"SIGTERM took {took:.2f} s"
        assert code == 0, proc.stderr.read() if proc.stderr else code
        assert proc.stdout is not None and "stopped: the fight is saved in" in proc.stdout.read()
        assert proc.stderr is not None and "Traceback" not in proc.stderr.read()


def test_sigterm_stops_the_server_within_a_second_under_load(tmp_path: Path) -> None:
    """Issue 44: README's kobold fight served, every screen's live channel open three times over, three clients
    posting the referee's commands without pause (a round played by the policies, then thirty events undone: the
    fight rebuilt from its journal), six more reading pages: SIGTERM ends it within a second (it took 2.5 s), the
    fight saved. The work queued for the table then is dropped, a round under way stops after its step, and a
    request still coming is answered 503 (``Served.call``, ``Table.stopping``)."""
    from test_web_round_ahead import FIGHT

    with _serving(tmp_path, FIGHT, players=4) as (proc, found):
        base = found["referee"].split("/t/")[0]
        ref = found["referee"].rsplit("/", 1)[1]
        held = [_open_live(base, url.rsplit("/", 1)[1]) for url in found.values() for _ in range(3)]
        for ch in held:
            _until(ch, b"event: live")
        done = threading.Event()
        answered: list[int] = []

        def post(says: tuple[str, ...], again: bool = True) -> None:
            with httpx.Client(base_url=base, timeout=10) as c:
                k = 0
                while not done.is_set() and (again or k < len(says)):
                    say = says[k % len(says)]
                    k += 1
                    with suppress(httpx.HTTPError):
                        page = c.get(f"/t/{ref}")
                        if page.status_code != 200:  # the server stopping: 503, no form
                            continue
                        r = c.post("/act", data={"token": ref, "key": form_key(page.text), "op": "command",
                                                 "say": say})
                        answered.append(r.status_code)

        def read(token: str) -> None:
            with httpx.Client(base_url=base, timeout=10) as c:
                while not done.is_set():
                    with suppress(httpx.HTTPError):
                        c.get(f"/t/{token}")

        post(("dice all roll", "declare party auto", "declare kobolds auto"), again=False)  # the policies play
        clients = [threading.Thread(target=post, args=(("round", "undo 30"),), daemon=True) for _ in range(3)]
        clients += [threading.Thread(target=read, args=(url.rsplit("/", 1)[1],), daemon=True)
                    for url in found.values()]
        for t in clients:
            t.start()
        time.sleep(3)
        assert answered.count(303) >= 3, answered  # the commands went through (each form sent on to its page)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(10)
        took = time.monotonic() - start
        done.set()
        for s in held:
            s.close()
        for t in clients:
            t.join(10)
        assert took < SECOND, f"SIGTERM took {took:.2f} s"
        assert code == 0, proc.stderr.read() if proc.stderr else code
        assert proc.stdout is not None and "stopped: the fight is saved in" in proc.stdout.read()
        assert proc.stderr is not None and "Traceback" not in proc.stderr.read()


def _screen(page: Page) -> str:
    """A page's screen as its DOM holds it, the form keys left out (each page has its own)."""
    html = page.evaluate("() => document.querySelector('.screen').innerHTML")
    assert isinstance(html, str)
    return re.sub(r'name="key" value="[^"]*"', 'name="key"', html)


def test_the_page_chromium_builds_from_frames_is_the_page_a_reload_draws(tmp_path: Path, browser: Browser) -> None:
    """live.js applies the frames: the referee's page (a desktop) and Sela's (a phone) followed 60 steps of a fight
    by frames alone; each screen's DOM is then the DOM of the same page loaded anew."""
    text = TABLE.replace("hp: 3,", "hp: 40,").replace("hp: 50,", "hp: 300,")
    with live_server(opening(tmp_path, "side-d6", text)) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        s = Screens(c, served)
        errors: list[str] = []
        pages = {}
        for who, token, size in (("referee", s.ref, DESKTOP), ("Sela", s.tok["Sela"], PHONE)):
            page = browser.new_context(viewport=size).new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}/t/{token}")
            page.wait_for_function("() => window.htmx !== undefined")
            pages[who] = (page, token)
        for say in ("dice all roll", "declare party auto", "declare orcs auto", *["step"] * 60):
            s.post(s.ref, op="command", say=say)
        for who, (page, token) in pages.items():
            page.wait_for_function("r => +document.querySelector('.screen').dataset.rev >= r", arg=served.rev,
                                   timeout=15_000)
            fresh = browser.new_context(viewport=page.viewport_size).new_page()
            fresh.goto(f"{url}/t/{token}")
            assert _screen(page) == _screen(fresh), f"{who}'s page made by frames is not the page drawn"
            fresh.context.close()
            page.context.close()
        assert errors == []
