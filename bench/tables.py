"""Table ledger benchmark: real gunicorn (the repository's config) on loopback, loaded by
wrk, on SQLite and on PostgreSQL, side by side with the stateless endpoints in one run.

    python -m bench.tables            # 10 s per measurement
    python -m bench.tables --quick    # 2 s: checks that it works (CI)

Against one server per database:

- ``GET /healthz`` — the floor of the stack;
- ``POST /v1/gostop/hands`` — the stateless hand (the same body as the appends);
- ``POST /v1/tables/{id}/hands`` — appending that hand: each wrk thread has a table of its
  own and one connection, sends a fresh Idempotency-Key and the If-Match of the ETag it
  last got, so every append is a 201 (the tables grow during the run);
- ``GET /v1/tables/{id}`` polling: 200 (the whole table) and 304 (If-None-Match), on a
  table of 2 hands and on one of 200.

PostgreSQL is a throwaway cluster (bench/postgres.py). Only 127.0.0.1 is contacted; every
run is bounded by its duration.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from bench.postgres import Cluster
from bench.server import Server, ensure_wrk, wrk, wrk_script

ROOT = Path(__file__).resolve().parents[1]
HAND = {
    "players": [
        {"id": "A", "declared": {"points": 3}},
        {"id": "B", "declared": {}},
        {"id": "C", "declared": {}},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}
TABLE = {"roster": ["A", "B", "C"], "ruleset": "standard", "stake": 100, "dealer": "A"}

_APPEND = """
local tables = {%s}
local n = 0
function setup(thread)
  n = n + 1
  thread:set("tid", tables[n][1])
  thread:set("token", tables[n][2])
  thread:set("version", tables[n][3])
end
function init(args)
  counter = 0
  local f = io.open("%s", "rb")
  body = f:read("*a")
  f:close()
end
function request()
  counter = counter + 1
  local headers = {}
  headers["Content-Type"] = "application/json"
  headers["Authorization"] = "Bearer " .. token
  headers["Idempotency-Key"] = tid .. "-" .. counter
  headers["If-Match"] = '"' .. version .. '"'
  return wrk.format("POST", "/v1/tables/" .. tid .. "/hands", headers, body)
end
function response(status, headers, body)
  local tag = headers["ETag"]
  if tag then version = tonumber(string.match(tag, "%%d+")) end
end
"""


def _call(base: str, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    data = json.dumps(body).encode()
    request = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **headers},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read()), response.headers.get("ETag")


def _table(base: str, hands: int) -> dict[str, Any]:
    """A table with ``hands`` hands; its id, scorer token and version."""
    created, _tag = _call(base, "POST", "/v1/tables", TABLE, {})
    auth = {"Authorization": f"Bearer {created['scorer_token']}"}
    version = created["version"]
    for i in range(hands):
        headers = {**auth, "Idempotency-Key": f"setup-{i}", "If-Match": f'"{version}"'}
        answer, _tag = _call(base, "POST", f"/v1/tables/{created['id']}/hands", HAND, headers)
        version = answer["version"]
    return {"id": created["id"], "token": created["scorer_token"], "version": version}


def _wrk(
    binary: str, url: str, script: str, seconds: int, threads: int, connections: int
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "script.lua"
        path.write_text(script)
        result = wrk_script(binary, url, path, seconds, connections, threads)
    result["non_2xx_3xx"] = result["non_2xx"] + result["socket_errors"]
    return result


def _get_script(headers: dict[str, str]) -> str:
    lines = "".join(f"wrk.headers[\"{k}\"] = '{v}'\n" for k, v in headers.items())
    return 'wrk.method = "GET"\n' + lines


def measure(url: str, seconds: int, connections: int) -> dict[str, dict[str, Any]]:
    """Every measurement against one server on the database ``url``."""
    binary = ensure_wrk()
    results: dict[str, dict[str, Any]] = {}
    with (
        tempfile.TemporaryDirectory() as tmp,
        Server({"GOSTOP_DATABASE_URL": url, "GOSTOP_ACCESS_LOG": "0"}) as server,
    ):
        base = server.base
        stateless = Path(tmp) / "hand.json"
        stateless.write_text(json.dumps({**HAND, "ruleset": "standard", "stake": 100}))
        appended = Path(tmp) / "append.json"
        appended.write_text(json.dumps(HAND))
        small, large = _table(base, 2), _table(base, 200)
        results["healthz"] = _wrk(
            binary, base + "/healthz", _get_script({}), seconds, 1, connections
        )
        results["stateless hand"] = wrk(
            binary, base + "/v1/gostop/hands", stateless.read_bytes(), seconds, connections
        )
        results["stateless hand"]["non_2xx_3xx"] = results["stateless hand"]["non_2xx"]
        threads = connections
        owners = [_table(base, 0) for _ in range(threads)]
        entries = ", ".join(f'{{"{t["id"]}", "{t["token"]}", {t["version"]}}}' for t in owners)
        results["append a hand"] = _wrk(
            binary, base + "/", _APPEND % (entries, appended), seconds, threads, threads
        )
        for name, table in (("2 hands", small), ("200 hands", large)):
            path = f"{base}/v1/tables/{table['id']}"
            auth = {"Authorization": f"Bearer {table['token']}"}
            results[f"poll 200, {name}"] = _wrk(
                binary, path, _get_script(auth), seconds, 1, connections
            )
            etag = f'"{table["version"]}"'
            results[f"poll 304, {name}"] = _wrk(
                binary, path, _get_script({**auth, "If-None-Match": etag}), seconds, 1, connections
            )
    return results


def main() -> None:
    """Run both databases and print a markdown table (and the JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 s per measurement")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    seconds = 2 if args.quick else args.seconds
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        figures["SQLite"] = measure(f"sqlite:///{tmp}/bench.sqlite3", seconds, args.connections)
    with Cluster() as cluster:
        figures["PostgreSQL"] = measure(cluster.url, seconds, args.connections)
    if args.json:
        json.dump(figures, sys.stdout, indent=1)
        print()
    print("| database | measurement | req/s | vs /healthz | vs stateless hand | p50 / p99 ms |")
    print("|---|---|---|---|---|---|")
    for database, results in figures.items():
        health = results["healthz"]["rps"]
        hand = results["stateless hand"]["rps"]
        for name, r in results.items():
            assert r["non_2xx_3xx"] == 0, (database, name, r)  # every answer was the expected one
            print(
                f"| {database} | {name} | {r['rps']:,.0f} | {r['rps'] / health:.2f} | "
                f"{r['rps'] / hand:.2f} | {r['p50_ms']:.2f} / {r['p99_ms']:.2f} |"
            )


if __name__ == "__main__":
    main()
