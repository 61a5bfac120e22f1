"""Issue 32: the page holds under hostile and careless clients, over real sockets (uvicorn on 127.0.0.1, and
``affray serve`` itself where the whole process matters).

Each test is one finding of the third hostile probe: live pages opened and dropped by the dozen wedged every later
request; a carriage return in a name split a live frame and forged an event; an 80 KB chunked form answered 500;
1,100 idle connections locked the referee out; a character named like the enemy side or ``referee`` took that
seat's part; each live frame was the whole page again. The bounds asserted here (a second for any request, a
second to stop) are liveness, not speed: a wedged server takes 20 s and more.
"""

from __future__ import annotations

import json
import re
import resource
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx

from affray.drive import DieQuestion
from affray.limits import MAX_BODY
from affray.web.serve import links
from test_web_security import Screens
from web_helpers import PCS, TABLE, form_key, live_server, opening, question, table_file

#: No request of a page that holds takes this long (a wedged one took 20 s and more).
SECOND = 1.0


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
        assert max(slow) < SECOND, f"a request took {max(slow):.2f} s"
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
    """Orcs named with carriage returns and line feeds, and a referee's note typed with them (it comes back in the
    next frame): every frame is one event of two lines, its data one line of JSON (each break
    escaped), the texts whole inside it."""
    text = TABLE.replace("{name: Orc, count: 3,", "{name: " + json.dumps(FORGER) + ", count: 3,")
    for k in (1, 2, 3):
        text = text.replace(f"Orc {k}:", json.dumps(f"{FORGER} {k}") + ":")
    with live_server(opening(tmp_path, "side-d6", text)) as (url, served), \
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
        assert s.post(s.ref, op="command", say="run") == "run: 0 events"


# -- idle and slow connections cannot lock the table out -------------------------------------------------------------

@contextmanager
def _serving(tmp_path: Path, text: str = TABLE) -> Iterator[tuple[subprocess.Popen[str], dict[str, str]]]:
    """``affray serve`` in a process of its own on a free port of 127.0.0.1 (killed when the block ends, and by
    ``timeout`` at the latest); the links it printed."""
    file = table_file(tmp_path, "side-d6", text)
    proc = subprocess.Popen(["timeout", "-s", "KILL", "300", sys.executable, "-m", "affray", "serve", str(file),
                             "--db", str(tmp_path / "serve.db"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        found: dict[str, str] = {}
        while len(found) < 2 + len(PCS):
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
                assert took < SECOND, f"the referee's page took {took:.2f} s"
                r = c.post("/act", data={"token": token, "key": form_key(r.text), "op": "command", "say": "run"},
                           headers={"HX-Request": "true"})
                assert r.status_code == 200 and "run: 0 events" in r.text
            readable, _, _ = select.select(idle[:600], [], [], 2)
            closed = sum(1 for s in readable if s.recv(1) == b"")
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
    """Brom renamed ``orcs``, the enemy side's name. The side-d6 initiative die of the orcs names its roller
    ``orcs``: that is not the character's to answer (nor to see asked), though its name says so; the referee's
    page answers it. The party's own die stays the party's players' (Sela answers the surprise die)."""
    with live_server(opening(tmp_path, "side-d6", _renamed("Brom", "orcs"))) as (url, served), \
            httpx.Client(base_url=url, timeout=10) as c:
        s = Screens(c, served)
        assert list(s.tok) == ["orcs", "Sela", "Ash"]
        assert s.post(s.ref, op="command", say="run") == "run: 0 events"
        assert s.answer(s.tok["Sela"], "1") == ""  # the party's surprise d6: a party player's
        for _ in range(20):  # the party's declarations (side-d6 declares before the initiative dice), each die 3
            q = served.table.pending
            if not isinstance(q, DieQuestion) or q.purpose != "initiative" or q.actor != "orcs":
                assert q is not None, "the fight asked nothing of the party"
                assert s.answer(s.ref, "3" if isinstance(q, DieQuestion) else "melee Orc 1") == ""
                continue
            break
        q = served.table.pending
        assert isinstance(q, DieQuestion) and q.actor == "orcs" and q.purpose == "initiative"
        assert question(s.page(s.tok["orcs"])) is None, "the enemy side's die shown to the character named so"
        key = served.keys.issue(served.tokens.players["orcs"])  # as its page's live frames carry one
        refused = s.post(s.tok["orcs"], key, op="answer", q=str(q.id), text="6")
        assert refused == "that question is not orcs&#39;s to answer", refused
        assert s.answer(s.ref, "6") == ""


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
