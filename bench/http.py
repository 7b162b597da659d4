"""HTTP benchmark: real gunicorn (the repository's config) on loopback, loaded by wrk.

    python -m bench.http            # 10 s per measurement, each pair measured twice
    python -m bench.http --quick    # 2 s: checks that it works (CI)

In one run, against one server:

- ``POST /v1/bench/echo`` — the trivial endpoint of the same app: it parses the same JSON
  body and returns a small fixed JSON;
- ``POST /v1/gostop/hands`` — a realistic 3-player hand (the same body);
- ``POST /v1/gostop/hands/batch`` — batches of 500 hands (hands/s = requests/s × 500).

Each endpoint is measured alternately (echo, hand, echo, hand…) so that drift on a shared
machine hits both; the ratio is hands requests/s ÷ echo requests/s. wrk comes from Debian
(``apt-get install wrk``; the script installs it when it is missing and it can). Only
127.0.0.1 is contacted, and every run is bounded by its duration.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.corpus import corpus

ROOT = Path(__file__).resolve().parents[1]


def ensure_wrk() -> str:
    """The wrk binary, installing Debian's package if it is missing."""
    found = shutil.which("wrk")
    if found:
        return found
    for command in (
        ["apt-get", "install", "-y", "-q", "wrk"],
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "wrk"],
    ):
        subprocess.run(command, check=False, capture_output=True, timeout=600)
        found = shutil.which("wrk")
        if found:
            return found
    raise SystemExit("wrk is not installed and could not be installed (apt-get install wrk)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """gunicorn with gunicorn.conf.py, bound to a loopback port, stopped on exit."""

    def __init__(self, extra_env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "GOSTOP_BIND": f"127.0.0.1:{self.port}",
            "GOSTOP_BENCH_ENDPOINT": "1",
            **(extra_env or {}),
        }
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=self.log,
        )

    def __enter__(self) -> Server:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/readyz", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.__exit__()
        raise RuntimeError("gunicorn did not start")

    def __exit__(self, *_exc: object) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def wrk(binary: str, url: str, body: bytes, seconds: int, connections: int) -> dict[str, Any]:
    """Run wrk with a POST body; requests/s, latency percentiles, errors."""
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp) / "body.json"
        body_file.write_bytes(body)
        script = Path(tmp) / "post.lua"
        script.write_text(
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f'local f = io.open("{body_file}", "rb")\n'
            "wrk.body = f:read('*a')\n"
            "f:close()\n"
        )
        done = subprocess.run(
            [
                binary,
                "-t1",
                f"-c{connections}",
                f"-d{seconds}s",
                "--latency",
                "-s",
                str(script),
                url,
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
            check=True,
        )
    out = done.stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    latency = {}
    for pct in ("50", "99"):
        match = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.MULTILINE)
        if match:
            value, unit = float(match.group(1)), match.group(2)
            latency[pct] = value * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": rps,
        "p50_ms": latency.get("50"),
        "p99_ms": latency.get("99"),
        "non_2xx": int(errors.group(1)) if errors else 0,
        "socket_errors": socket_errors.group(1) if socket_errors else None,
    }


def run(seconds: int, rounds: int, connections: int) -> dict[str, Any]:
    """Measure echo vs hand alternately, then batches of 500; returns the figures."""
    binary = ensure_wrk()
    hand = json.dumps(corpus(1, players=3, modes="cards", seed=7)[0]).encode()
    batch = json.dumps({"hands": corpus(500, players=3, modes="cards", seed=11)}).encode()
    results: dict[str, list[dict[str, Any]]] = {"echo": [], "hand": [], "batch": []}
    with Server() as server:
        for path, body in (("/v1/bench/echo", hand), ("/v1/gostop/hands", hand)):
            wrk(binary, server.base + path, body, 1, connections)  # warm up
        for _ in range(rounds):
            results["echo"].append(
                wrk(binary, server.base + "/v1/bench/echo", hand, seconds, connections)
            )
            results["hand"].append(
                wrk(binary, server.base + "/v1/gostop/hands", hand, seconds, connections)
            )
        for _ in range(rounds):
            results["batch"].append(
                wrk(binary, server.base + "/v1/gostop/hands/batch", batch, seconds, 4)
            )

    def mean(rows: list[dict[str, Any]], key: str) -> float:
        return sum(r[key] for r in rows) / len(rows)

    from bench.engine import build

    summary = {
        "engine": build(),
        "workers": os.environ.get("GOSTOP_WORKERS", str(os.cpu_count())),
        "echo_rps": round(mean(results["echo"], "rps")),
        "hand_rps": round(mean(results["hand"], "rps")),
        "ratio": round(mean(results["hand"], "rps") / mean(results["echo"], "rps"), 3),
        "echo_p50_ms": round(mean(results["echo"], "p50_ms"), 2),
        "echo_p99_ms": round(mean(results["echo"], "p99_ms"), 2),
        "hand_p50_ms": round(mean(results["hand"], "p50_ms"), 2),
        "hand_p99_ms": round(mean(results["hand"], "p99_ms"), 2),
        "batch_rps": round(mean(results["batch"], "rps"), 2),
        "batch_hands_per_s": round(mean(results["batch"], "rps") * 500),
        "batch_p99_ms": round(mean(results["batch"], "p99_ms"), 1),
        "errors": sum(r["non_2xx"] for rows in results.values() for r in rows),
        "hand_body_bytes": len(hand),
    }
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 s runs, one round (CI)")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    seconds, rounds = (2, 1) if args.quick else (args.seconds, args.rounds)
    summary = run(seconds, rounds, args.connections)
    for key, value in summary.items():
        print(f"{key:20s} {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n")
    if summary["errors"]:
        print("errors: some responses were not 2xx", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
