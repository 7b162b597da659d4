"""What gzip costs: answers with and without ``Accept-Encoding: gzip``, on loopback.

    python -m bench.compression            # 10 s per measurement, each pair measured twice
    python -m bench.compression --quick    # 1 s, one round, 5 single hands counted
    python -m bench.compression --quick --no-count   # wrk only (the test suite)

In one run, against one gunicorn (the repository's config, except that every answer is
gzipped, level 6, for clients that accept it — ``GOSTOP_COMPRESS_MIN_BYTES=1``, where the
default of 4,096 leaves a single hand's answer plain):

- the realistic 3-player hand of bench.http (``POST /v1/gostop/hands``) and its batch of
  500 hands (``POST /v1/gostop/hands/batch``), each loaded by wrk with and without
  ``Accept-Encoding: gzip``, alternately (plain, gzip, plain, gzip…) so that drift on a
  shared machine hits both; the ratio is gzip requests/s ÷ plain requests/s;
- the body bytes on the wire of each (one request each, ``Content-Length``);
- instructions per request (callgrind, bench.instructions' ``hand``/``hand_gzip`` and
  ``batch``/``batch_gzip`` workloads through Flask's test client): the difference is what
  compressing an answer costs, a count that noise cannot move.

Only 127.0.0.1 is contacted; every wrk run is bounded by its duration.
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.corpus import corpus
from bench.server import Server, ensure_wrk, wrk_script

BATCH = 500
GZIP = {"Accept-Encoding": "gzip"}


def _script(folder: Path, name: str, body: bytes, headers: dict[str, str]) -> Path:
    """A wrk Lua script POSTing ``body`` with ``headers``."""
    (folder / f"{name}.json").write_bytes(body)
    lines = ['wrk.method = "POST"', 'wrk.headers["Content-Type"] = "application/json"']
    lines += [f'wrk.headers["{key}"] = "{value}"' for key, value in headers.items()]
    lines += [
        f'local f = io.open("{folder / name}.json", "rb")',
        "wrk.body = f:read('*a')",
        "f:close()",
    ]
    script = folder / f"{name}.lua"
    script.write_text("\n".join(lines) + "\n")
    return script


def _wire(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    """The body bytes of one answer as sent, and its Content-Encoding."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        sent = {"Content-Type": "application/json", **headers}
        connection.request("POST", path, body=body, headers=sent)
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise SystemExit(f"{path} answered {response.status}: {data[:300]!r}")
        return len(data), response.getheader("Content-Encoding") or "identity"
    finally:
        connection.close()


def loaded(seconds: int, rounds: int) -> list[dict[str, Any]]:
    """wrk figures: one row per request (hand, batch) and encoding (identity, gzip)."""
    binary = ensure_wrk()
    hand = json.dumps(corpus(1, players=3, modes="cards", seed=7)[0]).encode()
    batch = json.dumps({"hands": corpus(BATCH, players=3, modes="cards", seed=11)}).encode()
    cases = (
        ("hand", "/v1/gostop/hands", hand, 8),
        (f"batch of {BATCH}", "/v1/gostop/hands/batch", batch, 4),
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp, Server({"GOSTOP_COMPRESS_MIN_BYTES": "1"}) as server:
        folder = Path(tmp)
        for name, path, body, connections in cases:
            url = server.base + path
            scripts = {
                "identity": _script(folder, f"{name.split()[0]}-plain", body, {}),
                "gzip": _script(folder, f"{name.split()[0]}-gzip", body, GZIP),
            }
            runs: dict[str, list[dict[str, Any]]] = {"identity": [], "gzip": []}
            for script in scripts.values():
                wrk_script(binary, url, script, 1, connections)  # warm up
            for _ in range(rounds):
                for encoding, script in scripts.items():
                    runs[encoding].append(wrk_script(binary, url, script, seconds, connections))
            rps = {e: sum(r["rps"] for r in found) / len(found) for e, found in runs.items()}
            for encoding, found in runs.items():
                size, sent = _wire(server.port, path, body, GZIP if encoding == "gzip" else {})
                if sent != encoding:  # the gzip rows must measure compressed answers
                    raise SystemExit(f"{name}: asked for {encoding}, got {sent}")
                rows.append(
                    {
                        "request": name,
                        "encoding": encoding,
                        "req/s": round(rps[encoding], 1),
                        "gzip ÷ identity": round(rps["gzip"] / rps["identity"], 3),
                        "p99 ms": round(sum(r["p99_ms"] or 0 for r in found) / len(found), 1),
                        "body bytes": size,
                        # wrk gives up on a request after 2 s: a timeout, not a refusal
                        "non-2xx": sum(r["non_2xx"] for r in found),
                        "socket errors": sum(r["socket_errors"] for r in found),
                    }
                )
    return rows


def counted(hands: int, batch: int, repeat: int) -> list[dict[str, Any]]:
    """Instructions per request with and without gzip (bench.instructions' workloads);
    ``batch`` 0: single hands only."""
    from bench.instructions import measure

    rows = []
    pairs = [("hand", "hand", "hand_gzip", hands)]
    if batch:
        pairs.append((f"batch of {batch}", "batch", "batch_gzip", batch))
    for name, plain, packed, size in pairs:
        # measure() counts per hand; a batch is one request of ``batch`` hands
        per = 1 if plain == "hand" else batch
        identity = measure(plain, size, repeat) * per
        gzipped = measure(packed, size, repeat) * per
        rows.append(
            {
                "request": name,
                "identity instr/request": identity,
                "gzip instr/request": gzipped,
                "gzip adds": gzipped - identity,
                "share": f"{(gzipped - identity) / identity:.1%}",
            }
        )
    return rows


def _table(rows: list[dict[str, Any]]) -> str:
    keys = list(rows[0])
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for row in rows:
        cells = [f"{row[k]:,}" if isinstance(row[k], int | float) else row[k] for k in keys]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 s runs, one round (CI)")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hands", type=int, default=100, help="single hands counted")
    parser.add_argument("--repeat", type=int, default=2, help="callgrind's measured runs")
    parser.add_argument(
        "--no-count",
        action="store_true",
        help="wrk only (the test suite: bench.instructions' own test checks the counting)",
    )
    args = parser.parse_args(argv)
    seconds, rounds, hands, batch, repeat = (
        (1, 1, 5, 0, 1)
        if args.quick
        else (args.seconds, args.rounds, args.hands, BATCH, args.repeat)
    )
    rows = loaded(seconds, rounds)
    print(_table(rows))
    if args.no_count:
        pass
    elif shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind): no counts", file=sys.stderr)
        return 2
    else:
        print()
        print(_table(counted(hands, batch, repeat)))
    if any(row["non-2xx"] or row["socket errors"] for row in rows):
        print("errors: some responses were not 2xx", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
