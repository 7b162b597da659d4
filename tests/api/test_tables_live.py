"""The ledger under real concurrency: gunicorn (the repository's config) on loopback, on
SQLite and on PostgreSQL. Outcomes are counted, never timed.

- many clients append on the same version: exactly one hand is added, the rest get 412;
- many clients retry one Idempotency-Key: one hand, every success the same answer;
- a worker killed (SIGKILL) in the middle of a write: nothing half-written, and the retry
  with the same key succeeds once (after the request deadline frees the key);
- two gunicorn instances on one PostgreSQL: no hand lost, none duplicated.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa

from bench.server import Server, call
from ledger_support import SCENARIOS

pytestmark = pytest.mark.slow
HAND = SCENARIOS[0]["steps"][0]["hand"]
TABLE = SCENARIOS[0]["table"]
CLIENTS = 12


def _call(
    base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], Any]:
    return call(int(base.rsplit(":", 1)[1]), method, path, body, headers)


def _create(base: str) -> dict[str, Any]:
    status, _headers, created = _call(base, "POST", "/v1/tables", TABLE)
    assert status == 201
    return created  # type: ignore[no-any-return]


def _together(count: int, work: Any) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released at once; their results in order."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        results[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _hands(base: str, created: dict[str, Any]) -> list[Any]:
    auth = {"Authorization": f"Bearer {created['scorer_token']}"}
    status, _h, state = _call(base, "GET", f"/v1/tables/{created['id']}", headers=auth)
    assert status == 200
    return state["hands"]  # type: ignore[no-any-return]


@pytest.fixture
def live_url(database_url: str, tmp_path: Any) -> str:
    """The session's database (PostgreSQL), or a SQLite file of this test's own."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path}/live.sqlite3"
    return database_url


def _server(url: str, **extra: str) -> Server:
    return Server({"GOSTOP_DATABASE_URL": url, "GOSTOP_ACCESS_LOG": "0", **extra})


def test_racing_appends_on_one_version(live_url: str) -> None:
    with _server(live_url, GOSTOP_WORKERS="3") as server:
        created = _create(server.base)
        path = f"/v1/tables/{created['id']}/hands"

        def append(i: int) -> int:
            headers = {
                "Authorization": f"Bearer {created['scorer_token']}",
                "Idempotency-Key": f"race-{i}",
                "If-Match": '"1"',
            }
            return _call(server.base, "POST", path, HAND, headers)[0]

        statuses = _together(CLIENTS, append)
        assert sorted(statuses) == [201] + [412] * (CLIENTS - 1)
        assert len(_hands(server.base, created)) == 1


def test_retries_of_one_key_add_one_hand(live_url: str) -> None:
    with _server(live_url, GOSTOP_WORKERS="3") as server:
        created = _create(server.base)
        path = f"/v1/tables/{created['id']}/hands"
        headers = {
            "Authorization": f"Bearer {created['scorer_token']}",
            "Idempotency-Key": "one-key",
            "If-Match": '"1"',
        }
        answers = _together(CLIENTS, lambda i: _call(server.base, "POST", path, HAND, headers))
        statuses = [a[0] for a in answers]
        assert set(statuses) <= {201, 409}
        assert 201 in statuses
        assert len({json.dumps(a[2], sort_keys=True) for a in answers if a[0] == 201}) == 1
        status, _h, again = _call(server.base, "POST", path, HAND, headers)
        assert status == 201
        assert again == next(a[2] for a in answers if a[0] == 201)
        assert len(_hands(server.base, created)) == 1


def _hold_the_table(url: str, table_id: str) -> tuple[Any, Any]:
    """Block writers: a row lock on the table (PostgreSQL) or the write lock (SQLite)."""
    engine = sa.create_engine(url)
    connection = engine.connect()
    if engine.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.begin()
        connection.execute(
            sa.text("SELECT version FROM ledger_tables WHERE id = :id FOR UPDATE"),
            {"id": table_id},
        )
    return engine, connection


def test_a_worker_killed_mid_write_leaves_nothing_half_written(live_url: str) -> None:
    with _server(live_url, GOSTOP_WORKERS="1", GOSTOP_REQUEST_DEADLINE="2") as server:
        created = _create(server.base)
        path = f"/v1/tables/{created['id']}/hands"
        headers = {
            "Authorization": f"Bearer {created['scorer_token']}",
            "Idempotency-Key": "killed",
            "If-Match": '"1"',
        }
        engine, lock = _hold_the_table(live_url, created["id"])
        outcome: list[Any] = []

        def request() -> None:
            try:
                outcome.append(_call(server.base, "POST", path, HAND, headers))
            except OSError as error:  # the worker died holding the connection
                outcome.append(error)

        worker = server.worker_pids()[0]
        thread = threading.Thread(target=request)
        thread.start()
        time.sleep(1.0)  # let the request reach the blocked write (the result holds either way)
        os.kill(worker, signal.SIGKILL)
        thread.join()
        lock.rollback()
        lock.close()
        engine.dispose()
        assert isinstance(outcome[0], OSError) or outcome[0][0] >= 500
        deadline = time.monotonic() + 30
        while len(server.worker_pids()) < 1 or worker in server.worker_pids():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        statuses = []
        while True:  # 409 while the dead request's key is within its deadline
            status, _h, body = _call(server.base, "POST", path, HAND, headers)
            statuses.append(status)
            if status != 409:
                break
            assert time.monotonic() < deadline
            time.sleep(0.5)
        assert status == 201
        assert body["number"] == 1
        assert _call(server.base, "POST", path, HAND, headers)[2] == body  # once
        hands = _hands(server.base, created)
        assert len(hands) == 1
        auth = {"Authorization": f"Bearer {created['scorer_token']}"}
        events = _call(server.base, "GET", f"/v1/tables/{created['id']}/events", headers=auth)
        assert [e["seq"] for e in events[2]["events"]] == [1, 2]


def test_two_instances_on_one_postgres_lose_and_duplicate_nothing(postgres_url: str) -> None:
    per_client, clients = 5, 6
    with (
        _server(postgres_url, GOSTOP_WORKERS="2") as one,
        _server(postgres_url, GOSTOP_WORKERS="2") as two,
    ):
        created = _create(one.base)
        auth = {"Authorization": f"Bearer {created['scorer_token']}"}
        table = f"/v1/tables/{created['id']}"

        def scorekeeper(i: int) -> tuple[int, int]:
            base = (one, two)[i % 2].base
            added = refused = 0
            for n in range(per_client):
                key = f"client-{i}-hand-{n}"
                while True:
                    _s, headers, _b = _call(base, "GET", table, headers=auth)
                    status, _h, _body = _call(
                        base,
                        "POST",
                        table + "/hands",
                        HAND,
                        {**auth, "Idempotency-Key": key, "If-Match": headers["ETag"]},
                    )
                    if status == 201:
                        added += 1
                        break
                    assert status in (409, 412), status
                    refused += 1
            return added, refused

        results = _together(clients, scorekeeper)
        assert all(added == per_client for added, _refused in results)
        hands = _hands(two.base, created)
        assert [h["number"] for h in hands] == list(range(1, per_client * clients + 1))
        _s, _h, events = _call(one.base, "GET", table + "/events", headers=auth)
        assert [e["seq"] for e in events["events"]] == list(range(1, per_client * clients + 2))


def test_the_readme_night_runs_as_written(tmp_path: Any) -> None:
    """The README's table night with curl, against a live server: every step answers as
    its comments say."""
    import re
    import subprocess
    from pathlib import Path

    from tools import require

    require("jq", "apt-get install jq")
    require("curl", "apt-get install curl")
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    night = readme[readme.index("A whole night with curl") :]
    script = re.search(r"```sh\n(.*?)```", night, re.DOTALL).group(1)  # type: ignore[union-attr]
    with _server(f"sqlite:///{tmp_path}/night.sqlite3") as server:
        script = script.replace("http://127.0.0.1:8000", server.base)
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert '{"B":1600,"C":-800,"D":-800}' in out
    assert '"version": 8' in out
    assert "\n304\n" in out
    assert '"from": "D"' in out
    assert "\n4 points × 100 = 400 chips\n" in out  # the English read
    assert out.rstrip().endswith('{"version":9}')
