"""Slow clients and costly bodies against the service while ``/healthz`` is probed.

    python -m bench.attack --seconds 60 --target deploy     # deploy/run: nginx + gunicorn
    python -m bench.attack --seconds 60 --target gunicorn   # the plain gunicorn command
    python -m bench.attack --quick                          # 20 s against deploy/run

For the whole run, a prober asks ``GET /healthz`` ten times a second on a fresh connection
(5 s timeout each) while hostile clients, all on 127.0.0.1, keep coming back:

- idle: connect and send nothing;
- header dribble: a request header, one byte a second;
- body dribble: ``Content-Length: 60000``, one body byte a second;
- endless chunks: ``Transfer-Encoding: chunked``, a one-byte chunk a second, no last chunk;
- slow readers: a 1,000-hand batch, its answer read at 1 KiB a second;
- costly bodies: one client sending, one after the other, the costly bodies of issue #12
  (thousands of misspelt option names or card IDs, a 16-player settlement, hundreds of
  thousands of unknown fields).

It prints the figures as JSON: probes answered (200) and not, the slowest probe, and what
each kind of attacker saw. Every loop stops at the deadline and has a count cap; every
socket has a timeout; only 127.0.0.1 is used. tests/test_attack.py runs it against
deploy/run and asserts that at least 99 % of the probes answer.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench.corpus import corpus
from bench.server import Server, Stack

PROBES_PER_SECOND = 10
PROBE_TIMEOUT = 5.0
MAX_ROUNDS = 10_000  # per attacker thread: reconnections are capped as well as timed
# Attackers of each kind at once: more than a gunicorn instance has workers.
SLOW_CLIENTS = {"idle": 4, "header_dribble": 4, "body_dribble": 4, "chunked": 4, "slow_read": 4}


def _request(path: str, body: bytes, *, host: str = "127.0.0.1") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


def _compact(body: Any) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode()


def unknown_fields_batch() -> bytes:
    """A batch whose one item has 320,000 unknown fields (3.4 MB; issue #12: a 59 MB
    answer, and 400 MiB left in the worker)."""
    hand = corpus(1, players=3, modes="cards", seed=12)[0]
    return _compact({"hands": [{**hand, **{f"z{i:x}": 0 for i in range(320_000)}}]})


def costly_bodies() -> list[tuple[str, str, bytes]]:
    """(label, path, body) of issue #12's costly requests, each within the body limits."""
    hand = corpus(1, players=3, modes="cards", seed=12)[0]

    def misspelt_options(count: int) -> dict[str, Any]:
        options = {f"fuor_brihgts{i}": 1 for i in range(count)}
        return {**hand, "ruleset": {"preset": "standard", "options": options}}

    misspelt_cards = {
        **hand,
        "players": [
            {
                "id": p["id"],
                "captured": [f"{m:02d}-brihgt-{i}" for m in range(1, 13) for i in (1, 2, 3, 4, 5)],
            }
            for p in hand["players"]
        ],
    }
    players = [f"P{i}" for i in range(16)]
    nets = [
        {"net": {p: (i * 7919 + j * 104_729) % 2001 - 1000 for j, p in enumerate(players)}}
        for i in range(3)
    ]
    for entry in nets:  # each hand sums to zero
        entry["net"][players[-1]] -= sum(entry["net"].values())
    bodies: list[tuple[str, str, Any]] = [
        (
            "2,550 misspelt option names (one hand, < 64 KiB)",
            "/v1/gostop/hands",
            misspelt_options(2_550),
        ),
        ("16-player settlement", "/v1/settlements", {"players": players, "hands": nets}),
        (
            "1,000 hands × 60 misspelt card IDs",
            "/v1/gostop/hands/batch",
            {"hands": [misspelt_cards] * 1_000},
        ),
        (
            "60,000 misspelt option names (one batch item)",
            "/v1/gostop/hands/batch",
            {"hands": [misspelt_options(60_000)]},
        ),
    ]
    return [(label, path, _compact(body)) for label, path, body in bodies] + [
        (
            "320,000 unknown fields (one batch item)",
            "/v1/gostop/hands/batch",
            unknown_fields_batch(),
        )
    ]


class Attack:
    """The attackers and the prober against 127.0.0.1:``port``, for ``seconds``."""

    def __init__(self, *, port: int, seconds: float, costly_clients: int = 1) -> None:
        self.port, self.seconds, self.costly_clients = port, seconds, costly_clients
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.seen: dict[str, Counter[str]] = {}
        self.probe_latencies: list[float] = []
        self.probe_failures: Counter[str] = Counter()
        batch = {"hands": corpus(1_000, players=3, modes="cards", seed=7)}
        self.big_batch = _request("/v1/gostop/hands/batch", json.dumps(batch).encode())
        self.costly = costly_bodies()

    def count(self, kind: str, what: str) -> None:
        with self.lock:
            self.seen.setdefault(kind, Counter())[what] += 1

    def connect(self, *, receive_buffer: int | None = None) -> socket.socket:
        sock = socket.socket()
        if receive_buffer:  # set before connecting, so the window stays small
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.settimeout(1.0)
        sock.connect(("127.0.0.1", self.port))
        return sock

    def rounds(self, kind: str, one_round: Callable[[socket.socket], None], **kw: Any) -> None:
        """Connect, run ``one_round`` until the server closes, reconnect; until the deadline."""
        for _ in range(MAX_ROUNDS):
            if self.stop.is_set():
                return
            try:
                with self.connect(**kw) as sock:
                    self.count(kind, "connections")
                    one_round(sock)
            except OSError as error:
                self.count(kind, f"closed by the server ({type(error).__name__})")
            self.stop.wait(0.05)

    def trickle(self, kind: str, head: bytes, each: bytes) -> Callable[[socket.socket], None]:
        """A round that sends ``head``, then ``each`` once a second until stopped."""

        def one_round(sock: socket.socket) -> None:
            sock.sendall(head)
            while not self.stop.wait(1.0):
                sock.sendall(each)
                try:
                    answer = sock.recv(4096)
                except TimeoutError:
                    continue
                if not answer:
                    self.count(kind, "closed by the server (EOF)")
                    return
                self.count(kind, "answered " + answer.split(b" ", 2)[1].decode(errors="replace"))
                return

        return one_round

    def idle(self, sock: socket.socket) -> None:
        while not self.stop.is_set():
            try:
                if not sock.recv(4096):
                    self.count("idle", "closed by the server (EOF)")
                    return
            except TimeoutError:
                continue

    def slow_read(self, sock: socket.socket) -> None:
        sock.sendall(self.big_batch)
        first = True
        while not self.stop.wait(1.0):
            try:
                chunk = sock.recv(1024)
            except TimeoutError:
                continue
            if not chunk:
                self.count("slow_read", "closed by the server (EOF)")
                return
            if first:
                self.count("slow_read", "answered " + chunk.split(b" ", 2)[1].decode())
                first = False
            self.count("slow_read", "KiB read")

    def send_costly(self, _thread: int) -> None:
        for i in range(MAX_ROUNDS):
            if self.stop.is_set():
                return
            label, path, body = self.costly[i % len(self.costly)]
            try:
                with self.connect() as sock:
                    sock.sendall(_request(path, body))
                    status = b""
                    while not self.stop.is_set() and not status:
                        try:
                            status = sock.recv(64).split(b" ", 2)[1]
                        except TimeoutError:
                            continue
                        except IndexError:
                            status = b"closed"
                    if status:
                        self.count("costly", f"{label}: {status.decode(errors='replace')}")
            except OSError as error:
                self.count("costly", f"{label}: {type(error).__name__}")

    def probe_once(self) -> None:
        """One ``GET /healthz`` on a fresh connection; its status or error is counted."""
        request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        began = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=PROBE_TIMEOUT) as s:
                s.sendall(request)
                answer = s.recv(64)
            status = answer.split(b" ", 2)[1].decode() if answer else "EOF"
        except (OSError, IndexError) as error:
            status = type(error).__name__
        with self.lock:
            if status == "200":
                self.probe_latencies.append(time.monotonic() - began)
            else:
                self.probe_failures[status] += 1

    def probe(self) -> None:
        """Probe at a steady rate, each probe in its own thread: a stalled probe does not
        delay the next one, so every probe slot counts."""
        probes: list[threading.Thread] = []
        started = time.monotonic()
        for n in range(int(self.seconds * PROBES_PER_SECOND)):
            if self.stop.wait(max(0.0, started + n / PROBES_PER_SECOND - time.monotonic())):
                break
            probes.append(threading.Thread(target=self.probe_once, name="probe"))
            probes[-1].start()
        for thread in probes:
            thread.join(timeout=PROBE_TIMEOUT + 1)

    def run(self) -> dict[str, Any]:
        """Run every attacker and the prober until the deadline; the figures."""
        threads = [threading.Thread(target=self.probe, name="probe")]
        kinds: dict[str, Callable[[int], None]] = {
            "idle": lambda _i: self.rounds("idle", self.idle),
            "header_dribble": lambda _i: self.rounds(
                "header_dribble",
                self.trickle(
                    "header_dribble", b"GET /v1/cards HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ", b"a"
                ),
            ),
            "body_dribble": lambda _i: self.rounds(
                "body_dribble",
                self.trickle(
                    "body_dribble",
                    b"POST /v1/gostop/hands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{",
                    b" ",
                ),
            ),
            "chunked": lambda _i: self.rounds(
                "chunked",
                self.trickle(
                    "chunked",
                    b"POST /v1/gostop/hands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                    b"1\r\n \r\n",
                ),
            ),
            "slow_read": lambda _i: self.rounds("slow_read", self.slow_read, receive_buffer=4096),
        }
        for kind, clients in SLOW_CLIENTS.items():
            threads += [
                threading.Thread(target=kinds[kind], args=(i,), name=kind) for i in range(clients)
            ]
        threads += [
            threading.Thread(target=self.send_costly, args=(i,), name="costly")
            for i in range(self.costly_clients)
        ]
        for thread in threads:
            thread.start()
        threads[0].join(timeout=self.seconds + PROBE_TIMEOUT + 2)  # the prober sets the pace
        self.stop.set()
        for thread in threads:
            thread.join(timeout=PROBE_TIMEOUT + 2)
        answered = len(self.probe_latencies)
        sent = answered + sum(self.probe_failures.values())
        return {
            "seconds": self.seconds,
            "probes": sent,
            "answered": answered,
            "answered_share": round(answered / sent, 4) if sent else 0.0,
            "failed": dict(self.probe_failures),
            "slowest_probe_s": round(max(self.probe_latencies, default=0.0), 3),
            "attackers": {kind: dict(counts) for kind, counts in sorted(self.seen.items())},
            "threads_still_running": sum(t.is_alive() for t in threads),
        }


@contextmanager
def target(name: str) -> Iterator[Server]:
    """The service to attack: ``deploy`` (deploy/run) or ``gunicorn`` (the plain command)."""
    server = Stack() if name == "deploy" else Server({"GOSTOP_ACCESS_LOG": "0"})
    with server:
        yield server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.attack", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--target", choices=("deploy", "gunicorn"), default="deploy")
    parser.add_argument("--costly-clients", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="20 s against deploy/run")
    args = parser.parse_args(argv)
    seconds = 20 if args.quick else args.seconds
    with target(args.target) as server:
        figures = Attack(
            port=server.port, seconds=seconds, costly_clients=args.costly_clients
        ).run()
        figures["target"] = args.target
        figures["service_alive"] = server.process.poll() is None
    print(json.dumps(figures, indent=2, ensure_ascii=False))
    return 0 if figures["answered_share"] >= 0.99 else 1


if __name__ == "__main__":
    sys.exit(main())
