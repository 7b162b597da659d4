"""Instructions per hand, counted by valgrind's callgrind: a measure that noise cannot move.

    python -m bench.instructions            # every workload below
    python -m bench.instructions --quick    # fewer hands: checks that it works (CI)

Timings on these shared machines drift by 50 % from one minute to the next; callgrind
counts the instructions a workload executes, which is the same on every run of the same
build (``PYTHONHASHSEED`` is fixed). Each workload runs twice under callgrind, once with
no measured repetition and once with ``--repeat`` of them, so that start-up, imports and
warm-up cancel out in the difference. Workloads:

- ``engine`` — ``settle(hand, standard)`` over the seeded 3-player corpus of bench.engine;
- ``engine_mixed`` — the same over the mixed corpus (about one pile in five a tally, so
  about half the hands hold one): what checking tallies against one deck costs
  (calculator/deck_fit.py), which card lists never pay;
- ``echo`` — the trivial ``POST /v1/bench/echo`` of bench.http, one hand's body per request,
  through Flask's test client (which costs far more per request than gunicorn does);
- ``hand`` — ``POST /v1/gostop/hands``, the same requests: ``hand − echo`` is what scoring
  and explaining a hand adds to a request (schemas, engine, serialization);
- ``batch`` — ``POST /v1/gostop/hands/batch`` with all the hands in one request;
- ``--fresh`` — echo, hand and batch with hands never seen before in every run: the
  warm-up and each repetition score hands of their own (both runs make and parse the same
  corpus). Without it every run scores the same hands again, so whatever the service keeps
  by value (the labels, sentences and items it memoizes) is found every time, as real
  traffic would not: the two figures bound what caching by value gives;
- ``hand_gzip`` and ``batch_gzip`` — the same requests with ``Accept-Encoding: gzip``:
  the difference is what compressing the answer costs (bench.compression; not in the
  default run);
- ``healthz``, ``poll`` and ``append`` — the table benchmark's requests (bench.tables) on a
  SQLite file: ``GET /healthz``; ``GET /v1/tables/{id}`` answered 304 (If-None-Match);
  ``POST /v1/tables/{id}/hands`` of bench.tables' hand, a fresh key and If-Match each time
  (counted per request instead of per hand);
- ``read``, ``read_en``, ``append_read`` and ``append_read_en`` — a table of
  :data:`TABLE_HANDS` hands (that hand, appended before the warm-up) read whole, as a phone
  that holds an older version reads it after a change: ``GET /v1/tables/{id}`` answered
  200 in Korean (the stored rows) and with ``?lang=en`` (the results rendered from the
  ledger), each at a version the instance has read before (another phone's read), and an
  append followed by that read (``append_read − append`` is the first Korean read after
  one new hand, which fetches the rows; ``append_read_en − append`` the English one).
  Counted per request (per pair); not in the default run (asked for with ``--workload``).

Instructions are not time (memory stalls and branch misses are not in them), but a change
that removes instructions from the same workload makes it faster on every machine.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

WORKLOADS = (
    "engine",
    "engine_mixed",
    "echo",
    "hand",
    "batch",
    "healthz",
    "poll",
    "append",
    "read",
    "read_en",
    "append_read",
    "append_read_en",
    "hand_gzip",
    "batch_gzip",
)
FRESH_SETS = 4  # --fresh: hands for the warm-up and up to 3 repetitions, the same in both runs
GZIP = ("hand_gzip", "batch_gzip")  # only when asked for (bench.compression)
READS = ("read", "read_en", "append_read", "append_read_en")  # asked for: 200 hands each
LEDGER = ("healthz", "poll", "append", *READS)
TABLE_HANDS = 200  # the READS: a night's hands
_COLLECTED = re.compile(r"Collected : (\d+)")


def _engine(hands: int, modes: str = "cards") -> Callable[[], None]:
    from bench.corpus import corpus
    from calculator import resolve, settle
    from calculator.api.schemas import load_hand

    loaded = [load_hand(body) for body in corpus(hands, players=3, modes=modes)]
    ruleset = resolve("standard")

    def run() -> None:
        for hand in loaded:
            settle(hand, ruleset)

    return run


def _database_folder() -> str:
    """A folder of its own for the run's database, removed when the process exits (in
    the baseline and the measured run alike: the difference does not count it)."""
    folder = tempfile.mkdtemp(prefix="gostop-instructions-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _http(hands: int, workload: str, fresh: bool = False) -> Callable[[], None]:
    from bench.corpus import corpus
    from calculator.api import create_app

    # the same hands as the engine; --fresh: FRESH_SETS sets of hands, each run its own
    sets = [
        bodies[k * hands : (k + 1) * hands]
        for bodies in [corpus(hands * (FRESH_SETS if fresh else 1), players=3, modes="cards")]
        for k in range(FRESH_SETS if fresh else 1)
    ]
    gzip = workload in GZIP
    # valgrind runs a batch ~50 times slower than the service: past the request deadline
    # (a 503 by design), so the deadline is lifted here. The gzip workloads compress every
    # answer, whatever GOSTOP_COMPRESS_MIN_BYTES says: they measure what compressing costs.
    # A database of its own, made in both runs: with the default file in the working
    # directory, only the first run of a fresh tree created and migrated it, and the
    # difference lost ~56k instructions a hand (the second run found it made).
    folder = _database_folder()
    settings = {
        "access_log": False,
        "bench_endpoint": True,
        "request_deadline": 3600,
        "database_url": f"sqlite:///{folder}/i.sqlite3",
    } | ({"compress_min_bytes": 1} if gzip else {})
    client = create_app(settings).test_client()
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    workload = workload.removesuffix("_gzip")
    if workload == "batch":
        runs = [[("/v1/gostop/hands/batch", json.dumps({"hands": b}).encode())] for b in sets]
    else:
        path = "/v1/gostop/hands" if workload == "hand" else "/v1/bench/echo"
        runs = [[(path, json.dumps(body).encode()) for body in b] for b in sets]
    done = [0]  # runs made: each takes the next set (--fresh), or the one set again

    def run() -> None:
        requests = runs[done[0] % len(runs)]
        done[0] += 1
        for path, data in requests:
            response = client.post(
                path, data=data, content_type="application/json", headers=headers
            )
            if response.status_code != 200:  # pragma: no cover - the corpus is valid
                raise SystemExit(f"{path} answered {response.status_code}")
            if gzip and response.content_encoding != "gzip":  # measure what it claims
                raise SystemExit(f"{path} was not compressed")

    return run


def _ledger(requests: int, workload: str) -> Callable[[], None]:
    from bench.tables import HAND, TABLE
    from calculator.api import create_app

    folder = _database_folder()
    app = create_app({"access_log": False, "database_url": f"sqlite:///{folder}/i.sqlite3"})
    client = app.test_client()
    night = _night() if workload in READS else []
    table, hand = (TABLE, HAND) if not night else _seated(TABLE, HAND)
    created = client.post("/v1/tables", json=table).get_json()
    path = f"/v1/tables/{created['id']}"
    auth = {"Authorization": f"Bearer {created['scorer_token']}"}
    state = {"version": created["version"], "key": 0}
    body = json.dumps(hand).encode()

    def append(data: bytes = body) -> int:
        state["key"] += 1
        headers = {**auth, "Idempotency-Key": str(state["key"])}
        headers["If-Match"] = f'"{state["version"]}"'
        answer = client.post(
            path + "/hands", data=data, content_type="application/json", headers=headers
        )
        state["version"] = answer.get_json()["version"]
        return answer.status_code

    def read(query: str) -> int:
        answer = client.get(path + query, headers=auth)
        if answer.headers["ETag"].strip('"').split(".")[0] != str(state["version"]):
            raise SystemExit(f"{workload} read another version")  # pragma: no cover
        return answer.status_code

    def one() -> int:
        if workload == "healthz":
            return client.get("/healthz").status_code
        if workload == "poll":
            tag = {"If-None-Match": f'"{state["version"]}"'}
            return client.get(path, headers={**auth, **tag}).status_code
        if workload == "read":
            return read("")
        if workload == "read_en":
            return read("?lang=en")
        status = append()
        if workload == "append_read" and status == 201:
            return read("")
        if workload == "append_read_en" and status == 201:
            return read("?lang=en")
        return status

    for played in night:
        if append(json.dumps(played).encode()) != 201:  # pragma: no cover - a valid corpus
            raise SystemExit("the night's hand was refused")
    expected = {"healthz": 200, "poll": 304, "append": 201}.get(workload, 200)

    def run() -> None:
        for _ in range(requests):
            status = one()
            if status != expected:  # pragma: no cover - the requests are valid
                raise SystemExit(f"{workload} answered {status}")

    return run


def _night() -> list[dict[str, object]]:
    """:data:`TABLE_HANDS` hands of bench.engine's seeded corpus as a table's hands (a
    night of different hands: the serializers' memos by value find what a night repeats,
    not one hand 200 times): without the rule set, stake and streak the table sets."""
    from bench.corpus import corpus

    table_sets = ("ruleset", "stake", "nagari_streak")
    return [
        {k: v for k, v in hand.items() if k not in table_sets}
        for hand in corpus(TABLE_HANDS, players=3, modes="cards")
    ]


def _seated(table: dict[str, object], hand: dict[str, object]) -> tuple[dict, dict]:
    """bench.tables' table and hand with the corpus's players (player-0, -1, -2)."""
    seat = {"A": "player-0", "B": "player-1", "C": "player-2"}
    text = json.dumps(hand)
    for was, now in seat.items():
        text = text.replace(f'"{was}"', f'"{now}"')
    return {**table, "roster": list(seat.values()), "dealer": seat["A"]}, json.loads(text)


def inner(workload: str, hands: int, repeat: int, fresh: bool = False) -> None:
    """The process valgrind runs: prepare, warm up once, then ``repeat`` measured runs."""
    if workload == "engine":
        run = _engine(hands)
    elif workload == "engine_mixed":
        run = _engine(hands, "mixed")
    elif workload in LEDGER:
        run = _ledger(hands, workload)
    else:
        run = _http(hands, workload, fresh)
    run()  # warm-up: lazy compilation and caches, in both the baseline and the measured run
    # A full collection traverses the whole heap (modules, caches, the app): ~30 M
    # instructions that landed in whichever window the allocation counters happened to
    # trigger it, so a figure jumped with --hands and --repeat (RESULTS.md, "The two
    # measures disagree"). Collect once here, in both runs, and freeze what is left: the
    # measured window pays for the workload's own garbage (young collections, and old
    # ones over what it keeps), not for traversing the import-time heap. A long-lived
    # worker still pays those full collections now and then; this counts per-hand work.
    gc.collect()
    gc.freeze()
    for _ in range(repeat):
        run()


def count(workload: str, hands: int, repeat: int, fresh: bool = False) -> int:
    """Instructions executed by one inner process."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={tmp}/callgrind.out",
            sys.executable,
            "-m",
            "bench.instructions",
            "--inner",
            workload,
            "--hands",
            str(hands),
            "--repeat",
            str(repeat),
            *(["--fresh"] if fresh else []),
        ]
        # No .pyc written: in a fresh tree the baseline run would compile every module
        # and write its .pyc, the measured run load them, and the difference would lose
        # the compilation (tens of millions of instructions: -60k and more per hand).
        env = {
            **os.environ,
            "PYTHONHASHSEED": "0",
            "GOSTOP_ACCESS_LOG": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind run failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def measure(workload: str, hands: int, repeat: int, fresh: bool = False) -> int:
    """Instructions per hand: (measured run − baseline) / (repeat × hands).

    The two runs are made at once (two processes; valgrind runs each on one core): a
    count does not depend on what else the machine runs, and the wall time halves."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        base = pool.submit(count, workload, hands, 0, fresh)
        total = pool.submit(count, workload, hands, repeat, fresh)
        return round((total.result() - base.result()) / (repeat * hands))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="few hands, one workload (CI)")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workload", choices=WORKLOADS, action="append")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="echo, hand, batch: every run (the warm-up, each repetition) on hands of its own",
    )
    parser.add_argument("--inner", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.fresh and args.repeat >= FRESH_SETS:
        parser.error(f"--fresh takes --repeat {FRESH_SETS - 1} at most")
    if args.inner:
        inner(args.inner, args.hands, args.repeat, args.fresh)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    workloads = args.workload or [w for w in WORKLOADS if w not in GZIP + READS]
    hands, repeat = args.hands, args.repeat
    if args.quick:
        workloads, hands, repeat = (args.workload or ["engine"]), 20, 1
    from bench.engine import build

    print(f"python {sys.version.split()[0]}, engine {build()}, callgrind instruction counts")
    per_hand: dict[str, int] = {}
    for workload in workloads:
        per_hand[workload] = measure(workload, hands, repeat, args.fresh)
        kind = " (fresh)" if args.fresh and workload in ("echo", "hand", "batch") else ""
        line = f"{workload:8s} {hands:5d} hands × {repeat}  {per_hand[workload]:10,d} per hand"
        print(line + kind)
    if "echo" in per_hand and "hand" in per_hand:
        added = per_hand["hand"] - per_hand["echo"]
        print(f"hand − echo (what scoring adds to a request)  {added:10,d} per hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
