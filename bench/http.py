"""HTTP benchmark: real gunicorn (the repository's config) on loopback, loaded by wrk.

    python -m bench.http              # 10 s per measurement, each pair measured twice
    python -m bench.http --servers 5  # the same against 5 servers in turn: the median ratio
    python -m bench.http --quick      # 1 s: checks that it works (CI)

In one run, against one server:

- ``POST /v1/bench/echo`` — the trivial endpoint of the same app: it parses the same JSON
  body and returns a small fixed JSON;
- ``POST /v1/gostop/hands`` — a realistic 3-player hand (the same body);
- ``POST /v1/gostop/hands/batch`` — batches of 500 hands (hands/s = requests/s × 500),
  against ``POST /v1/bench/echo`` given the same batch body (SPEC §8: a batch reaches at
  least 25 % of the hands/s of a parse-only endpoint).

Each pair is measured alternately (echo, hand, echo, hand…) so that drift on a shared
machine hits both; the ratio is hands requests/s ÷ echo requests/s, and ``batch_ratio``
batch requests/s ÷ batch-body echo requests/s. The ratio moves more from one server to the
next (0.73 to 0.84 minutes apart on a quiet machine: each start lays out its memory and
its hash seed anew) than within one server's run, so ``--servers`` repeats the whole
measurement against fresh servers and reports each server's ratios and their median —
the figure to compare with SPEC §8's bars. wrk comes from Debian
(``apt-get install wrk``; the script installs it when it is missing and it can). Only
127.0.0.1 is contacted, and every run is bounded by its duration.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from bench.corpus import corpus
from bench.server import Server, ensure_wrk, wrk

ROOT = Path(__file__).resolve().parents[1]


def run(seconds: int, rounds: int, connections: int) -> dict[str, Any]:
    """Measure echo vs hand alternately, then batches of 500; returns the figures."""
    binary = ensure_wrk()
    hand = json.dumps(corpus(1, players=3, modes="cards", seed=7)[0]).encode()
    batch = json.dumps({"hands": corpus(500, players=3, modes="cards", seed=11)}).encode()
    results: dict[str, list[dict[str, Any]]] = {
        "echo": [],
        "hand": [],
        "echo_batch": [],
        "batch": [],
    }
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
            results["echo_batch"].append(
                wrk(binary, server.base + "/v1/bench/echo", batch, seconds, 4)
            )
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
        "echo_batch_hands_per_s": round(mean(results["echo_batch"], "rps") * 500),
        "batch_ratio": round(mean(results["batch"], "rps") / mean(results["echo_batch"], "rps"), 3),
        "errors": sum(r["non_2xx"] + r["socket_errors"] for rows in results.values() for r in rows),
        "hand_body_bytes": len(hand),
    }
    return summary


def across(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of several servers: each server's ratios, their medians and ranges,
    and the median of every other figure."""
    summary: dict[str, Any] = {}
    for key in runs[0]:
        values = [r[key] for r in runs]
        if key in ("ratio", "batch_ratio"):
            summary[f"{key}_per_server"] = " ".join(f"{v:.3f}" for v in values)
            summary[f"{key}_range"] = f"{min(values):.3f}–{max(values):.3f}"
        if key == "errors":
            summary[key] = sum(values)
        elif isinstance(values[0], int | float) and len(set(values)) > 1:
            summary[key] = round(statistics.median(values), 3)
        else:
            summary[key] = values[0]
    summary["servers"] = len(runs)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 s runs, one round (CI)")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--servers", type=int, default=1, help="fresh servers measured in turn")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    seconds, rounds = (1, 1) if args.quick else (args.seconds, args.rounds)
    runs = [run(seconds, rounds, args.connections) for _ in range(max(args.servers, 1))]
    summary = runs[0] if len(runs) == 1 else across(runs)
    for key, value in summary.items():
        print(f"{key:22s} {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n")
    if summary["errors"]:
        print("errors: some responses were not 2xx", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
