"""Table ledger benchmark: real gunicorn (the repository's config) on loopback, loaded by
wrk, on SQLite and on PostgreSQL, side by side with the stateless endpoints in one run.

    python -m bench.tables            # 10 s per measurement
    python -m bench.tables --quick    # 1 s, no /healthz beside each GET: checks that it works (CI)

Against one server per database:

- ``GET /healthz`` — the floor of the stack;
- ``POST /v1/gostop/hands`` — the stateless hand (the same body as the appends);
- ``POST /v1/tables/{id}/hands`` — appending that hand, as SPEC §8 counts it: spread over
  :data:`APPEND_TABLES` tables (≥ 50), each wrk connection cycling through its own share of
  them with a fresh Idempotency-Key and the If-Match of the ETag it last got for that
  table; only 201s count (the rate is wrk's times the share of answers that were 201s, and
  the hands the tables gained are checked against that count afterwards);
- ``GET /v1/bench/database`` — a small fixed answer after one ``SELECT 1`` on the
  connection polls read on: the floor under any poll (on PostgreSQL, one round trip);
- ``GET /v1/tables/{id}`` polling: 200 (the whole table) and 304 (If-None-Match), on a
  table of 2 hands and on one of 200.

Each GET is compared with a measurement of ``/healthz`` made just before it (the machine
drifts over a run of minutes), the append with the stateless hand measured before it.

Default durability on both databases: the SQLite file with the store's own PRAGMAs (WAL,
``synchronous=NORMAL``: what production runs), PostgreSQL as a throwaway cluster
(bench/postgres.py) with its defaults (``fsync`` and ``synchronous_commit`` on). Only
127.0.0.1 is contacted; every run is bounded by its duration.
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

APPEND_TABLES = 64  # SPEC §8: appends are measured over at least 50 tables
_APPEND = """
-- Connection (= thread) i appends to the tables i, i + T, i + 2T, … in turn: no two
-- connections write to one table, so every append names its table's current version.
local tables = {%(tables)s}
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end
function init(args)
  mine, at, counter, created = {}, 0, 0, 0
  for i, t in ipairs(tables) do
    if (i - 1) %% %(threads)d == index - 1 then mine[#mine + 1] = {t[1], t[2], t[3]} end
  end
  local f = io.open("%(body)s", "rb")
  body = f:read("*a")
  f:close()
end
function request()
  at = at %% #mine + 1
  counter = counter + 1
  local t = mine[at]
  local headers = {}
  headers["Content-Type"] = "application/json"
  headers["Authorization"] = "Bearer " .. t[2]
  headers["Idempotency-Key"] = t[1] .. "-" .. counter
  headers["If-Match"] = '"' .. t[3] .. '"'
  return wrk.format("POST", "/v1/tables/" .. t[1] .. "/hands", headers, body)
end
function response(status, headers, body)
  if status == 201 then created = created + 1 end
  local tag = headers["ETag"]
  if tag then mine[at][3] = tonumber(string.match(tag, "%%d+")) end
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("created") end
  local f = io.open("%(count)s", "w")
  f:write(total)
  f:close()
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


def make_table(base: str, hands: int) -> dict[str, Any]:
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


def _appends(binary: str, base: str, body: Path, seconds: int, connections: int) -> dict[str, Any]:
    """Appends over :data:`APPEND_TABLES` tables, one wrk thread per connection; ``rps``
    counts only the 201s (a hand added), and the tables' versions confirm them."""
    owners = [make_table(base, 0) for _ in range(APPEND_TABLES)]
    entries = ", ".join(f'{{"{t["id"]}", "{t["token"]}", {t["version"]}}}' for t in owners)
    with tempfile.TemporaryDirectory() as tmp:
        count = Path(tmp) / "created"
        script = _APPEND % {
            "tables": entries,
            "threads": connections,
            "body": body,
            "count": count,
        }
        result = _wrk(binary, base + "/", script, seconds, connections, connections)
        created = int(count.read_text())
    added = sum(_version(base, t) - t["version"] for t in owners)
    # A request in flight when wrk stops may be written without being counted: at most
    # one per connection. Anything else means an answer was not a hand added.
    assert 0 <= added - created <= connections, (created, added, result)
    result["all_requests_rps"] = result["rps"]
    result["rps"] = result["rps"] * created / max(result["requests"], 1)
    result["tables"] = len({t["id"] for t in owners})
    return result


def _version(base: str, table: dict[str, Any]) -> int:
    request = urllib.request.Request(
        f"{base}/v1/tables/{table['id']}",
        headers={"Authorization": f"Bearer {table['token']}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(json.loads(response.read())["version"])


def _get_script(headers: dict[str, str]) -> str:
    lines = "".join(f"wrk.headers[\"{k}\"] = '{v}'\n" for k, v in headers.items())
    return 'wrk.method = "GET"\n' + lines


def _beside_healthz(
    binary: str,
    base: str,
    path: str,
    headers: dict[str, str],
    seconds: int,
    connections: int,
    beside: bool = True,
) -> dict[str, Any]:
    """A GET of ``path``, right after a measurement of /healthz, whose req/s it keeps
    (``healthz_rps``): the ratio of two runs a few seconds apart, not minutes (these
    machines drift). Not ``beside`` (--quick): the GET alone, compared with the run's
    first /healthz."""
    if not beside:
        return _wrk(binary, base + path, _get_script(headers), seconds, 1, connections)
    health = _wrk(binary, base + "/healthz", _get_script({}), seconds, 1, connections)
    result = _wrk(binary, base + path, _get_script(headers), seconds, 1, connections)
    result["healthz_rps"] = health["rps"]
    return result


def measure(
    url: str, seconds: int, connections: int, beside: bool = True
) -> dict[str, dict[str, Any]]:
    """Every measurement against one server on the database ``url`` (``beside``: each GET
    right after a /healthz of its own)."""
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
        small, large = make_table(base, 2), make_table(base, 200)
        results["healthz"] = _wrk(
            binary, base + "/healthz", _get_script({}), seconds, 1, connections
        )
        results["stateless hand"] = wrk(
            binary, base + "/v1/gostop/hands", stateless.read_bytes(), seconds, connections
        )
        results["stateless hand"]["non_2xx_3xx"] = results["stateless hand"]["non_2xx"]
        results["append a hand"] = _appends(binary, base, appended, seconds, connections)
        # The floor under every poll: /healthz's work and one SELECT 1 on the connection
        # polls read on (a round trip to PostgreSQL), nothing else.
        results["one SELECT 1"] = _beside_healthz(
            binary, base, "/v1/bench/database", {}, seconds, connections, beside
        )
        for name, table in (("2 hands", small), ("200 hands", large)):
            path = f"/v1/tables/{table['id']}"
            auth = {"Authorization": f"Bearer {table['token']}"}
            results[f"poll 200, {name}"] = _beside_healthz(
                binary, base, path, auth, seconds, connections, beside
            )
            etag = f'"{table["version"]}"'
            results[f"poll 304, {name}"] = _beside_healthz(
                binary, base, path, {**auth, "If-None-Match": etag}, seconds, connections, beside
            )
    return results


def main() -> None:
    """Run both databases and print a markdown table (and the JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 s per measurement (CI)")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    seconds = 1 if args.quick else args.seconds
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.sqlite3"
        figures["SQLite"] = measure(url, seconds, args.connections, beside=not args.quick)
    with Cluster(durable=True) as cluster:  # default durability, as SPEC §8 measures
        figures["PostgreSQL"] = measure(
            cluster.url, seconds, args.connections, beside=not args.quick
        )
    if args.json:
        json.dump(figures, sys.stdout, indent=1)
        print()
    print("| database | measurement | req/s | vs /healthz | vs stateless hand | p50 / p99 ms |")
    print("|---|---|---|---|---|---|")
    for database, results in figures.items():
        hand = results["stateless hand"]["rps"]
        for name, r in results.items():
            assert r["non_2xx_3xx"] == 0, (database, name, r)  # every answer was the expected one
            # each GET against the /healthz measured just before it (the first one else)
            health = r.get("healthz_rps", results["healthz"]["rps"])
            print(
                f"| {database} | {name} | {r['rps']:,.0f} | {r['rps'] / health:.2f} | "
                f"{r['rps'] / hand:.2f} | {r['p50_ms']:.2f} / {r['p99_ms']:.2f} |"
            )


if __name__ == "__main__":
    main()
