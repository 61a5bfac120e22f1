"""What a long fight costs the phones at a table: live frames' sizes, and how long an update takes to reach them.

    python benchmarks/bench_live.py [--ruleset side-d6] [--events 300] [--phones 8]

The page is served as ``affray serve`` serves it (uvicorn, the server's limits) on 127.0.0.1, in this process.
Eight phones, in a process of their own, hold its live channel over real sockets: the referee's, the table view's
and six player characters' (each seat drawn for itself, the most work a change can cost). The referee presses Step
(a form, as the page sends it while its live channel is open) until the fight has ``--events`` events; each step
is timed from the form sent to the moment the last phone has read the frame of that change. Every frame after a
phone's first is counted: the largest, the mean, and all a phone downloaded. Both sides declare by policy and
every die is rolled, so that nothing but the Step waits for a person.

Each update's CPU time is the server's (its event loop's thread and the table's, not the phones' readers): on a
busy machine an update waits for a core, and its wall time tells more of the machine than of the page. The mean
is given over the rules-free reference loop of ``reference.py`` timed in the same run: the figure to compare
across runs. The load average is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import httpx

from affray.api import prepare
from affray.io.load import load_text
from affray.web.serve import Opening, close_served, listen, open_served
from affray.web.server import make_server, settle_heap

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference import reference_fight

PCS = ("Brom", "Sela", "Ash", "Dara", "Finn", "Gwen")


def fight_text(ruleset: str) -> str:
    """Six fighters of 200 hp against twelve orcs of 30 hp: a fight well past 300 events, every side by policy."""
    pcs = "\n".join(f"      - {{name: {n}, class: fighter, level: 6, hp: 200, ac: 3, weapons: [{{name: sword, sf: 5, "
                    "damage: 1d6}]}" for n in PCS)
    return (f"ruleset: {ruleset}\nseed: 5\nsides:\n  party:\n    pc: true\n    combatants:\n{pcs}\n  orcs:\n"
            "    combatants:\n      - {name: Orc, count: 12, hd: 1, hp: 30, ac: 6, weapons: [{name: club, sf: 7, "
            "damage: 1d6}]}\n")


def watch(address: tuple[str, int], token: str, index: int, out: TextIO, lock: threading.Lock) -> None:
    """One phone: read a live channel on a socket of its own, and write a line for each frame: the phone's
    number, the frame's revision, its size, when it was read (``time.perf_counter``, the same clock in every
    process) and the form key it carries."""
    with socket.create_connection(address) as s:
        s.sendall(f"GET /t/{token}/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        buf, head = b"", True
        while chunk := s.recv(1 << 20):
            buf += chunk
            if head:
                if b"\r\n\r\n" not in buf:
                    continue
                buf, head = buf.partition(b"\r\n\r\n")[2], False
            while True:  # chunked transfer: a size line, the chunk, CRLF
                size, sep, rest = buf.partition(b"\r\n")
                if not sep or len(rest) < int(size, 16) + 2:
                    break
                n = int(size, 16)
                if n == 0:
                    return
                found = re.search(rb"^data: (.*)$", rest[:n], re.M)
                if found is not None:  # else a keep-alive comment
                    frame = json.loads(found.group(1))
                    with lock:
                        out.write(f"{index} {frame['rev']} {n} {time.perf_counter()} {frame['key']}\n")
                        out.flush()
                buf = rest[n + 2:]


def phones_main(port: int, tokens: list[str]) -> None:
    """The phones, in a process of their own (``--watch``): their reading costs the server nothing."""
    lock = threading.Lock()
    threads = [threading.Thread(target=watch, args=(("127.0.0.1", port), t, i, sys.stdout, lock), daemon=True)
               for i, t in enumerate(tokens)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


@dataclass
class Phone:
    """One phone as this process hears of it: each frame's revision, size and arrival, its latest form key."""

    name: str
    frames: list[tuple[int, int, float]] = field(default_factory=list)  # (rev, bytes, when)
    key: str = ""
    seen: threading.Condition = field(default_factory=threading.Condition)

    def heard(self, rev: int, size: int, when: float, key: str) -> None:
        with self.seen:
            self.frames.append((rev, size, when))
            self.key = key
            self.seen.notify_all()

    def wait(self, rev: int, timeout: float = 30) -> float:
        """When this phone read the frame of revision ``rev`` (or a later one)."""
        with self.seen:
            if not self.seen.wait_for(lambda: bool(self.frames) and self.frames[-1][0] >= rev, timeout):
                raise TimeoutError(f"{self.name}: no frame of revision {rev}")
            return next(when for r, _, when in self.frames if r >= rev)


def _listen(proc: subprocess.Popen[str], on: list[Phone]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        i, rev, size, when, key = line.split()
        on[int(i)].heard(int(rev), int(size), float(when), key)


def bench(ruleset: str, events: int, phones: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "eight.yaml"
        text = fight_text(ruleset)
        path.write_text(text, encoding="utf-8")
        prepared = prepare(load_text(text, str(path)))
        served = open_served(Opening(str(Path(tmp) / "bench.db"), (str(path), text, prepared.ruleset.id,
                                                                     prepared.seed, {}, False, 100)))
        sock = listen("127.0.0.1", 0)
        server = make_server(served)
        settle_heap()  # as ``affray serve`` does
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        try:
            while not server.started:
                time.sleep(0.01)
            address = sock.getsockname()[:2]
            seats = [("referee", served.tokens.referee.token)]
            if served.tokens.board is not None:
                seats.append(("table view", served.tokens.board.token))
            seats += [(pc, v.token) for pc, v in served.tokens.players.items()]
            on = [Phone(name) for name, _ in seats[:phones]]
            proc = subprocess.Popen([sys.executable, __file__, "--watch", str(address[1]),
                                     *(token for _, token in seats[:phones])], stdout=subprocess.PIPE, text=True)
            threading.Thread(target=_listen, args=(proc, on), daemon=True).start()
            referee = on[0]
            for phone in on:
                phone.wait(0)
            with httpx.Client(base_url=f"http://127.0.0.1:{address[1]}", timeout=30) as c:

                clocks = [time.pthread_getcpuclockid(t) for t in (thread.ident or 0, served.pool.submit(
                    threading.get_ident).result())]  # the server's event loop and the table's thread
                spent: list[float] = []

                def press(say: str) -> float:
                    rev = served.rev
                    cpu = sum(time.clock_gettime(k) for k in clocks)
                    start = time.perf_counter()
                    r = c.post("/act", data={"token": seats[0][1], "key": referee.key, "op": "command", "say": say},
                               headers={"HX-Request": "true", "X-Affray-Live": "1"})
                    assert r.status_code == 204, r.text
                    reached = max(phone.wait(rev + 1) for phone in on) - start
                    spent.append(sum(time.clock_gettime(k) for k in clocks) - cpu)
                    return reached

                for say in ("dice all roll", "declare party auto", "declare orcs auto"):
                    press(say)
                firsts = [len(phone.frames) for phone in on]
                waits: list[float] = []
                spent.clear()
                while len(served.table.journal.events) < events and not served.table.over:
                    waits.append(press("step"))
            ref_start = time.process_time()
            for seed in range(200):
                reference_fight(seed)
            reference = (time.process_time() - ref_start) / 200
        finally:
            if "proc" in locals():
                proc.kill()
                proc.wait()
            server.should_exit = True
            thread.join(10)
            sock.close()
            close_served(served)
    later = [size for phone, first in zip(on, firsts, strict=True) for _, size, _ in phone.frames[first:]]
    waits.sort()
    return {
        "phones": len(on), "updates": len(waits), "events": len(served.table.journal.events),
        "update p50 ms": statistics.median(waits) * 1000,
        "update p99 ms": waits[min(len(waits) - 1, int(len(waits) * 0.99))] * 1000,
        "update max ms": waits[-1] * 1000,
        "frame max KiB": max(later) / 1024, "frame mean KiB": statistics.mean(later) / 1024,
        "first frame KiB": max(size for phone in on for _, size, _ in phone.frames[:1]) / 1024,
        "downloaded per phone KiB": max(sum(size for _, size, _ in phone.frames) for phone in on) / 1024,
        "server cpu p50 ms": statistics.median(spent) * 1000,
        "server cpu p99 ms": sorted(spent)[min(len(spent) - 1, int(len(spent) * 0.99))] * 1000,
        "x reference per update": statistics.mean(spent) / reference,
        "load average": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="side-d6")
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--watch", nargs="+", help=argparse.SUPPRESS)  # PORT TOKEN...: the phones' process
    args = parser.parse_args(argv)
    if args.watch:
        phones_main(int(args.watch[0]), args.watch[1:])
        return 0
    for name, value in bench(args.ruleset, args.events, args.phones).items():
        print(f"{name:>26}: {value:,.1f}" if isinstance(value, float) else f"{name:>26}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
