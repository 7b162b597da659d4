"""Fault tests against real gunicorn on loopback: a killed worker, a graceful shutdown.

    python -m bench.faults            # both faults, 10 s of load around the kill
    python -m bench.faults --quick    # 4 s of load (CI)

- SIGKILL: under load from wrk, one worker is killed outright. The master must start a
  replacement, and at most the requests that worker held may fail (a sync worker holds
  one connection at a time, so: at most 1).
- SIGTERM: while several slow batch requests (1,000 hands each) are in flight, the
  master gets SIGTERM. Every in-flight request must complete with 200, and the master
  must exit with status 0 within gunicorn's graceful_timeout.
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
from typing import Any

from bench.corpus import corpus
from bench.server import Server, ensure_wrk, wrk


def kill_a_worker(seconds: int) -> dict[str, Any]:
    """SIGKILL one worker under load; count failures and check it was replaced."""
    binary = ensure_wrk()
    body = json.dumps(corpus(1, players=3, modes="cards", seed=7)[0]).encode()
    with Server({"GOSTOP_ACCESS_LOG": "0"}) as server:
        before = server.worker_pids()
        result: dict[str, Any] = {}

        def load() -> None:
            result.update(wrk(binary, server.base + "/v1/gostop/hands", body, seconds, 8))

        loader = threading.Thread(target=load)
        loader.start()
        time.sleep(seconds / 3)
        victim = before[0]
        os.kill(victim, signal.SIGKILL)
        loader.join()
        deadline = time.monotonic() + 10
        after = server.worker_pids()
        while (len(after) < server.workers or victim in after) and time.monotonic() < deadline:
            time.sleep(0.1)
            after = server.worker_pids()
    failed = result["non_2xx"] + result["socket_errors"]
    return {
        "requests": result["requests"],
        "failed": failed,
        "workers_before": before,
        "workers_after": after,
        "replaced": victim not in after and len(after) == server.workers,
        "ok": failed <= 1 and victim not in after and len(after) == server.workers,
    }


def graceful_shutdown(in_flight: int) -> dict[str, Any]:
    """SIGTERM the master while batches are in flight; every one must finish with 200."""
    batch = json.dumps({"hands": corpus(1000, players=3, modes="cards", seed=5)}).encode()
    statuses: list[int | str] = []
    with Server({"GOSTOP_ACCESS_LOG": "0", "GOSTOP_WORKERS": str(in_flight)}) as server:
        sent = threading.Barrier(in_flight + 1)

        def post() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            try:
                connection.request(
                    "POST",
                    "/v1/gostop/hands/batch",
                    body=batch,
                    headers={"Content-Type": "application/json"},
                )
                sent.wait()
                response = connection.getresponse()
                response.read()
                statuses.append(response.status)
            except (OSError, http.client.HTTPException) as error:
                statuses.append(type(error).__name__)
            finally:
                connection.close()

        threads = [threading.Thread(target=post) for _ in range(in_flight)]
        for thread in threads:
            thread.start()
        sent.wait()
        time.sleep(0.02)  # the requests are being scored now
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        for thread in threads:
            thread.join()
        code = server.process.wait(timeout=60)
        took = time.monotonic() - started
    return {
        "in_flight": in_flight,
        "statuses": statuses,
        "exit_code": code,
        "shutdown_s": round(took, 2),
        "ok": statuses == [200] * in_flight and code == 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short load (CI)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    result = {
        "sigkill_worker": kill_a_worker(4 if args.quick else 10),
        "sigterm_master": graceful_shutdown(2),
    }
    print(json.dumps(result, indent=1))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1)
    ok = all(part["ok"] for part in result.values())
    print("PASS" if ok else "FAIL", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
