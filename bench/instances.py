"""Kill one of two gunicorn instances behind deploy/run, under load, with the ledger on
PostgreSQL: reads never fail (but for answers the killed instance had begun: at most the
reads then in flight), writes retried with their Idempotency-Key never duplicate.

    python -m bench.instances                 # a throwaway PostgreSQL cluster, then the run
    python -m bench.instances --quick         # fewer hands (what tests/test_instances.py runs)

deploy/run starts 2 gunicorn instances (2 workers each) on one PostgreSQL database, behind
nginx on 127.0.0.1. One table; readers ask ``GET /v1/tables/{id}`` and ``GET /v1/cards``
again and again, writers add hands, each under its own ``Idempotency-Key`` with
``If-Match``. Once a third of the hands are in, one instance (its master and its workers)
gets SIGKILL; deploy/run starts it again. Every loop is capped by a count and a deadline.

What a client must do, and does here: a write that fails with 502 (it reached the dying
instance: it may or may not have committed), a connection error, 409 (the same key still in
flight: the dead request's claim, until the request deadline frees it) or 412 (the table
moved on: read it again) is sent again with the same key; the stored answer comes back if
the first attempt committed, else it commits now. nginx itself never sends a POST that
reached an instance to another one (deploy/README.md says why).

It prints the figures as JSON: reads served and failed, write attempts and retries by
cause, replays, and the table's hands against the keys that succeeded (duplicates).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.server import Stack, call

READERS = 4
WRITERS = 4
ATTEMPTS_PER_KEY = 200  # a key still not written after this many attempts is given up
READS_PER_READER = 20_000
RETRIED = {409, 412, 502, 503, 504}  # answers a write is sent again after, with its key
# A request that got no whole answer: a lost connection, or an answer cut short (an
# IncompleteRead is an HTTPException, not an OSError).
LOST = (OSError, http.client.HTTPException)
CUT = "cut mid-answer by the kill"
IN_FLIGHT = READERS + WRITERS  # the reads in flight at any moment, at most
TABLE = {"roster": ["A", "B", "C", "D", "E"], "ruleset": "standard", "stake": 10, "dealer": "A"}


def hand(points: int) -> dict[str, Any]:
    """A hand whose winner declares ``points``: each key's hand is told apart by them."""
    return {
        "players": [
            {"id": "A", "declared": {"points": points}},
            {"id": "B", "declared": {}},
            {"id": "C", "declared": {}},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }


def fingerprint(result: dict[str, Any]) -> str:
    """What tells one added hand from another: its settlement (the points differ per key)."""
    return json.dumps(result["net"], sort_keys=True)


class Load:
    """Readers, writers and one SIGKILL against deploy/run on 127.0.0.1:``port``."""

    def __init__(self, *, stack: Stack, hands: int, deadline: float) -> None:
        self.stack, self.hands, self.deadline = stack, hands, time.monotonic() + deadline
        self.lock = threading.Lock()
        self.reads: Counter[str] = Counter()
        self.attempts: Counter[str] = Counter()
        self.done: dict[str, dict[str, Any]] = {}  # key → its 201 answer
        self.replayed = 0
        self.given_up: list[str] = []
        self.writers_done = threading.Event()
        self.killed: dict[str, Any] = {}
        self.posting = 0  # writes sent and not yet answered

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        """One request on a fresh connection; (status, headers, JSON body or None)."""
        return call(self.stack.port, method, path, body, headers, timeout=30)

    def read(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], Any]:
        """A read, counted: anything but a 200 is a failed read — except an answer cut
        short (``IncompleteRead``): the killed instance had sent its headers, which nginx
        passed on, and died before its body, so nginx could not send the read elsewhere.
        Readers and writers read, each one read at a time: at most :data:`IN_FLIGHT` are cut
        by the kill."""
        try:
            answer = self.call("GET", path, headers=headers)
        except LOST as error:
            cut = isinstance(error, http.client.IncompleteRead)
            with self.lock:
                self.reads[CUT if cut else f"failed: {type(error).__name__}"] += 1
            raise
        with self.lock:
            self.reads["served" if answer[0] == 200 else f"failed: {answer[0]}"] += 1
        return answer

    def reader(self, table: str, auth: dict[str, str]) -> None:
        for i in range(READS_PER_READER):
            if self.writers_done.is_set() or time.monotonic() > self.deadline:
                return
            path = table if i % 2 == 0 else "/v1/cards?ruleset=standard"
            try:
                self.read(path, auth)
            except LOST:
                time.sleep(0.05)

    def writer(self, table: str, auth: dict[str, str], keys: list[tuple[str, int]]) -> None:
        for key, points in keys:
            for _attempt in range(ATTEMPTS_PER_KEY):
                if time.monotonic() > self.deadline:
                    break
                try:
                    _s, state_headers, _state = self.read(table, auth)
                except LOST:
                    time.sleep(0.05)
                    continue
                with self.lock:
                    self.posting += 1
                try:
                    status, headers, body = self.call(
                        "POST",
                        table + "/hands",
                        hand(points),
                        {**auth, "Idempotency-Key": key, "If-Match": state_headers["ETag"]},
                    )
                    cause = str(status)
                except LOST as error:
                    status, headers, body, cause = 0, {}, None, type(error).__name__
                finally:
                    with self.lock:
                        self.posting -= 1
                with self.lock:
                    self.attempts[cause] += 1
                if status == 201:
                    with self.lock:
                        self.done[key] = body
                        self.replayed += headers.get("Idempotent-Replayed") == "true"
                    break
                if status and status not in RETRIED:
                    raise AssertionError(f"{key}: unexpected {status}: {body}")
                time.sleep(0.25 if status == 409 else 0.05)  # the dead claim frees itself
            else:
                with self.lock:
                    self.given_up.append(key)

    def killer(self) -> None:
        """SIGKILL one instance (master and workers) once a third of the hands are in, at a
        moment when writes are in flight (so that one may die with the instance)."""
        while time.monotonic() < self.deadline and (
            len(self.done) < self.hands // 3 or self.posting < WRITERS // 2
        ):
            time.sleep(0.001)
        in_flight = self.posting
        master = self.stack.gunicorn_masters()[0]
        workers = children(master)
        os.killpg(master, signal.SIGKILL)
        self.killed = {
            "master": master,
            "workers": len(workers),
            "after_hands": len(self.done),
            "writes_in_flight": in_flight,
        }

    def run(self) -> dict[str, Any]:
        """Create the table, run the load and the kill; the figures."""
        status, _h, created = self.call("POST", "/v1/tables", TABLE)
        assert status == 201, created
        table = f"/v1/tables/{created['id']}"
        auth = {"Authorization": f"Bearer {created['scorer_token']}"}
        viewer = {"Authorization": f"Bearer {created['viewer_token']}"}
        keys = [(f"hand-{n}", 3 + n) for n in range(self.hands)]
        writers = [
            threading.Thread(target=self.writer, args=(table, auth, keys[w::WRITERS]))
            for w in range(WRITERS)
        ]
        readers = [
            threading.Thread(target=self.reader, args=(table, viewer)) for _ in range(READERS)
        ]
        killer = threading.Thread(target=self.killer)
        for thread in (*writers, *readers, killer):
            thread.start()
        for thread in (*writers, killer):
            thread.join()
        self.writers_done.set()
        for thread in readers:
            thread.join()
        status, _h, state = self.call("GET", table, headers=auth)
        assert status == 200, state
        hands = Counter(fingerprint(h["result"]) for h in state["hands"])
        answered = {key: fingerprint(body["result"]) for key, body in self.done.items()}
        output = self.stack.output()
        return {
            "reads": dict(self.reads),
            "reads_cut": self.reads[CUT],
            "reads_failed": sum(n for what, n in self.reads.items() if what not in ("served", CUT)),
            "write_keys": len(keys),
            "write_keys_succeeded": len(self.done),
            "write_keys_given_up": len(self.given_up),
            "write_attempts": dict(self.attempts),
            "write_retries": sum(self.attempts.values()) - len(self.done),
            "replayed_answers": self.replayed,
            "hands_in_table": sum(hands.values()),
            "duplicated_hands": sum(n - 1 for n in hands.values()),
            "keys_whose_hand_is_missing": sum(1 for f in answered.values() if f not in hands),
            "distinct_hands_answered": len(set(answered.values())),
            "killed": self.killed,
            "nginx_upstream_errors": {
                "connect refused (sent to the other instance)": output.count("(111: Connection"),
                "closed mid-request": output.count("upstream prematurely closed"),
            },
            "restarted": "starting it again" in output,
        }


def children(pid: int) -> list[int]:
    """The PIDs of a process's children (a gunicorn master's: its workers)."""
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def run(*, database_url: str, hands: int, deadline: float = 240.0) -> dict[str, Any]:
    """deploy/run with 2 instances on ``database_url``; the load and the kill; the figures."""
    env = {
        "GOSTOP_DATABASE_URL": database_url,
        "GOSTOP_INSTANCES": "2",
        "GOSTOP_WORKERS": "2",
        "GOSTOP_ACCESS_LOG": "0",
        # The dead request's Idempotency-Key claim is taken over after the deadline.
        "GOSTOP_REQUEST_DEADLINE": "2",
        # One client address runs every thread here: the per-client limits would refuse it.
        "GOSTOP_RATE_LIMIT": "10000",
        "GOSTOP_RATE_BURST": "10000",
        "GOSTOP_CONNECTION_LIMIT": "1000",
    }
    with Stack(env) as stack:
        figures = Load(stack=stack, hands=hands, deadline=deadline).run()
        figures["stack_alive"] = stack.process.poll() is None
    figures["stack_stopped_cleanly"] = stack.process.returncode == 0
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.instances", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--hands", type=int, default=120, help="distinct write keys")
    parser.add_argument("--quick", action="store_true", help="30 hands")
    args = parser.parse_args(argv)
    from bench.postgres import Cluster

    with Cluster() as cluster:
        figures = run(database_url=cluster.url, hands=30 if args.quick else args.hands)
    print(json.dumps(figures, indent=2))
    good = figures["reads_failed"] == 0 and figures["reads_cut"] <= IN_FLIGHT
    good = good and figures["duplicated_hands"] == 0
    return 0 if good and figures["hands_in_table"] == figures["write_keys_succeeded"] else 1


if __name__ == "__main__":
    sys.exit(main())
