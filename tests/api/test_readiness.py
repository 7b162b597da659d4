"""/readyz and the tables while the ledger's database cannot be reached: not ready, and a
problem+json 503 with Retry-After (SPEC §8), never a 500; back when the database is."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bench.server import free_port
from calculator.api import create_app
from calculator.api.app import READY_CHECK_SECONDS
from tools import require

DOWN = {"Authorization": "Bearer x"}


def _assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.headers["Retry-After"] == "5"
    problem = response.get_json()
    assert problem["errors"][0]["code"] == "unavailable"
    assert "database cannot be reached" in problem["detail"]


def test_a_database_that_refuses_connections() -> None:
    # nothing listens on a free port: PostgreSQL is down (migrated at first use)
    url = f"postgresql+psycopg://gostop@127.0.0.1:{free_port()}/gostop"
    client = create_app({"access_log": False, "database_url": url, "migrate_on_start": False})
    client = client.test_client()
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.headers["Retry-After"] == "5"
    assert ready.get_json()["status"] == "not ready"
    assert client.get("/healthz").status_code == 200  # alive: a restart would not help
    _assert_unavailable(client.post("/v1/tables", json={"roster": ["A", "B"], "stake": 100}))
    _assert_unavailable(client.get("/v1/tables/" + "a" * 32, headers=DOWN))
    _assert_unavailable(client.post("/v1/tables/join", json={"join_code": "ABCDEFGH"}))


def test_the_documented_answers_name_the_503() -> None:
    from calculator.api.openapi import openapi_document

    paths = openapi_document()["paths"]
    for path, operations in paths.items():
        if path.startswith("/v1/tables"):
            for method, operation in operations.items():
                if method == "parameters":
                    continue
                assert (
                    "database cannot be reached" in operation["responses"]["503"]["description"]
                ), (method, path)
    assert "503" in paths["/readyz"]["get"]["responses"]


@pytest.mark.postgresql
def test_postgresql_stopped_then_started_again() -> None:
    from bench.postgres import Cluster, find_bin

    if find_bin("initdb") is None:
        require("initdb", "apt-get install postgresql")
    with Cluster() as cluster:
        app = create_app({"access_log": False, "database_url": cluster.url})
        client = app.test_client()
        made = client.post("/v1/tables", json={"roster": ["A", "B"], "stake": 100})
        assert made.status_code == 201
        table = made.get_json()
        auth = {"Authorization": "Bearer " + table["viewer_token"]}
        assert client.get(f"/v1/tables/{table['id']}", headers=auth).status_code == 200
        assert client.get("/readyz").status_code == 200
        cluster._run(cluster.pg_ctl, "-D", str(cluster.data), "-m", "fast", "-w", "stop")
        time.sleep(READY_CHECK_SECONDS)  # the last answer /readyz keeps
        assert client.get("/readyz").status_code == 503
        _assert_unavailable(client.get(f"/v1/tables/{table['id']}", headers=auth))
        _assert_unavailable(client.post("/v1/tables", json={"roster": ["A", "B"], "stake": 9}))
        options = f"-c listen_addresses=127.0.0.1 -p {cluster.port} -k {cluster.root}"
        cluster._run(
            cluster.pg_ctl,
            "-D",
            str(cluster.data),
            "-o",
            options,
            "-w",
            "-l",
            str(cluster.root / "log"),
            "start",
        )
        time.sleep(READY_CHECK_SECONDS)
        assert client.get("/readyz").status_code == 200
        assert client.get(f"/v1/tables/{table['id']}", headers=auth).status_code == 200
        app.extensions["gostop_store"].dispose()


@pytest.mark.parametrize("polls", [50])
def test_readyz_asks_the_database_once_a_second_at_most(polls: int, tmp_path: Any) -> None:
    app = create_app({"access_log": False, "database_url": f"sqlite:///{tmp_path}/r.sqlite3"})
    store = app.extensions["gostop_store"]
    asked = []
    ping = store.ping
    store.ping = lambda: (asked.append(1), ping())[1]
    client = app.test_client()
    for _ in range(polls):
        assert client.get("/readyz").status_code == 200
    assert len(asked) == 1
    store.dispose()


def test_the_log_says_why_the_database_failed(caplog: Any) -> None:
    # the client's 503 says only "cannot be reached"; the operator's log line carries the
    # driver's first words, so a refused connection and a read-only file read apart
    url = f"postgresql+psycopg://gostop:secret@127.0.0.1:{free_port()}/gostop"
    app = create_app({"access_log": False, "database_url": url, "migrate_on_start": False})
    with caplog.at_level("ERROR", logger="gostop.errors"):
        _assert_unavailable(app.test_client().post("/v1/tables", json={"roster": ["A", "B"]}))
    (record,) = [r for r in caplog.records if r.name == "gostop.errors"]
    fields = record.fields  # type: ignore[attr-defined]
    assert "refused" in fields["reason"].lower(), fields
    assert "secret" not in fields["reason"]
