"""The CPU one gunicorn worker spends per request: SPEC §8's HTTP ratios, less noisy.

    python -m bench.cpu             # 3 rounds of 2,000 requests per endpoint (~1 minute)
    python -m bench.cpu --quick     # 200 requests: checks that it works

``bench.http`` measures requests per second under wrk, which on a shared two-core machine
moves with whatever else runs (the same code gave ratios 0.66–0.82 in runs minutes apart).
Here one worker (the repository's gunicorn config, ``GOSTOP_WORKERS=1``) answers one
client's requests one after the other, on 127.0.0.1, and the figure is the worker's own
CPU time (the scheduler's count, ``/proc/<pid>/task/*/schedstat``) divided by the
requests it answered: time taken by other processes is not in it. Endpoints are
measured alternately, round by round, so that drift hits both sides of each ratio:

- ``echo`` (``POST /v1/bench/echo``, parse the body, answer ``{"ok": true}``) against
  ``hand`` (``POST /v1/gostop/hands``), the same realistic 3-player bodies of the seeded
  corpus: ``ratio`` = echo CPU ÷ hand CPU, which is what hand req/s ÷ echo req/s would be
  on a machine whose every cycle went to the worker;
- ``batch`` (500 hands a request, as SPEC §8 says) against ``echo`` given the same batch body:
  ``batch_ratio`` per hand, SPEC §8's "≥ 25 % of a parse-only endpoint";
- ``healthz`` (``GET /healthz``) against ``poll`` (``GET /v1/tables/{id}`` with the
  If-None-Match of the table's version: a 304, on a SQLite file of its own):
  ``poll_ratio`` = healthz CPU ÷ poll CPU, SPEC §8's "a 304 poll ≥ 80 % of /healthz".

It is a complement to ``bench.http``, not SPEC §8's own measure (requests/s under wrk),
and its ratios are not comparable with wrk's: they leave out wrk's and the kernel's share
of each request, which both endpoints pay alike (so they come out lower).
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.corpus import corpus
from bench.server import Server
from bench.tables import make_table


def cpu_seconds(pid: int) -> float:
    """CPU time of process ``pid`` so far (Linux): the scheduler's nanosecond count of each
    of its threads' time on a CPU (``/proc/<pid>/task/*/schedstat``; ``/proc/<pid>/stat``
    counts 10 ms ticks)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        total += int((task / "schedstat").read_text(encoding="ascii").split()[0])
    return total / 1e9


@dataclass(frozen=True)
class Requests:
    """What one measurement sends: a POST of each body in turn, or a GET (no bodies)."""

    path: str
    bodies: list[bytes]
    count: int
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 200  # what every answer must be


def per_request(server: Server, worker: int, sent: Requests, requests: int) -> float:
    """Microseconds of the worker's CPU per request over ``requests`` requests."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    method = "POST" if sent.bodies else "GET"
    headers = {"Content-Type": "application/json", **sent.headers} if sent.bodies else sent.headers
    try:
        start = cpu_seconds(worker)
        for i in range(requests):
            body = sent.bodies[i % len(sent.bodies)] if sent.bodies else None
            connection.request(method, sent.path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status != sent.status:
                raise SystemExit(f"{sent.path} answered {response.status}")
        return (cpu_seconds(worker) - start) / requests * 1e6
    finally:
        connection.close()


def run(requests: int, rounds: int) -> dict[str, Any]:
    """Alternate the pairs for ``rounds`` rounds; the figures per request and the ratios."""
    hands = [json.dumps(h).encode() for h in corpus(500, players=3, modes="cards")]
    batch_hands = corpus(500, players=3, modes="cards", seed=11)  # SPEC §8: batches of 500
    batch = [json.dumps({"hands": batch_hands}).encode()]
    batches = max(requests // 100, 2)
    pairs = {
        "echo": Requests("/v1/bench/echo", hands, requests),
        "hand": Requests("/v1/gostop/hands", hands, requests),
        "echo_batch": Requests("/v1/bench/echo", batch, batches),
        "batch": Requests("/v1/gostop/hands/batch", batch, batches),
        "healthz": Requests("/healthz", [], requests),
    }
    found: dict[str, list[float]] = {name: [] for name in [*pairs, "poll"]}
    # No recycling (max_requests): the measured worker must stay the one whose CPU is read.
    with tempfile.TemporaryDirectory() as folder:
        quiet = {
            "GOSTOP_WORKERS": "1",
            "GOSTOP_ACCESS_LOG": "0",
            "GOSTOP_DATABASE_URL": f"sqlite:///{folder}/cpu.sqlite3",
            "GUNICORN_CMD_ARGS": "--max-requests 0",
        }
        with Server(quiet) as server:
            (worker,) = server.worker_pids()
            table = make_table(server.base, 2)
            pairs["poll"] = Requests(
                f"/v1/tables/{table['id']}",
                [],
                requests,
                {
                    "Authorization": f"Bearer {table['token']}",
                    "If-None-Match": f'"{table["version"]}"',
                },
                304,
            )
            for sent in pairs.values():  # warm up: caches, lazy imports
                per_request(server, worker, sent, min(sent.count, 200))
            for _ in range(rounds):
                for name, sent in pairs.items():
                    found[name].append(per_request(server, worker, sent, sent.count))

    def mean(name: str) -> float:
        return sum(found[name]) / len(found[name])

    from bench.engine import build

    return {
        "engine": build(),
        "requests": requests,
        "rounds": rounds,
        "echo_us": round(mean("echo"), 1),
        "hand_us": round(mean("hand"), 1),
        "ratio": round(mean("echo") / mean("hand"), 3),
        "ratios_by_round": [
            round(e / h, 3) for e, h in zip(found["echo"], found["hand"], strict=True)
        ],
        "batch_us_per_hand": round(mean("batch") / len(batch_hands), 1),
        "echo_batch_us_per_hand": round(mean("echo_batch") / len(batch_hands), 1),
        "batch_ratio": round(mean("echo_batch") / mean("batch"), 3),
        "healthz_us": round(mean("healthz"), 1),
        "poll_304_us": round(mean("poll"), 1),
        "poll_ratio": round(mean("healthz") / mean("poll"), 3),
        "poll_ratios_by_round": [
            round(h / p, 3) for h, p in zip(found["healthz"], found["poll"], strict=True)
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="few requests (CI)")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.requests < 1 or args.rounds < 1:
        parser.error("--requests and --rounds must be at least 1")
    requests, rounds = (200, 1) if args.quick else (args.requests, args.rounds)
    print(json.dumps(run(requests, rounds), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
