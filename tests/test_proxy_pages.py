"""The proxy's own answers, each one: deploy/run's nginx configuration run alone.

nginx starts in milliseconds with the configuration deploy/run renders (here for the Host
names ``gostop.example`` and ``localhost``) and no gunicorn behind it, plus one test
location per status that answers it with nginx's ``return``: every status the proxy may
answer itself (400, 404, 405, 413, 414, 429, 431, 500, 501, 502, 503, 504, 505) comes back
as the app's problem+json shape, with its code, the security headers, ``Retry-After`` where
it helps, no server version and the connection kept alive; a 408 closes the connection
instead (nginx never sends it). A real 502 (no instance listening) and the configured Host
names are checked too. tests/test_deploy.py triggers the others for real with gunicorn
behind, the request lines nginx cannot read included.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pwd
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path
from typing import Any

import pytest

from bench.server import free_port
from calculator.api.http import PROBLEM_JSON, SECURITY_HEADERS
from tools import require

ROOT = Path(__file__).resolve().parents[1]


def _deploy_run() -> Any:
    """deploy/run as a module (a script without the .py suffix)."""
    loader = SourceFileLoader("deploy_run", str(ROOT / "deploy" / "run"))
    spec = spec_from_loader("deploy_run", loader)
    assert spec is not None
    module = module_from_spec(spec)
    sys.modules["deploy_run"] = module  # dataclasses look their module up
    loader.exec_module(module)
    return module


DEPLOY = _deploy_run()
STATUSES = {p.status: p for p in DEPLOY.PROBLEMS}
RETRY_AFTER = {502: "5", 503: "5", 504: "5", 429: "1"}
APP = "http://192.168.1.5:5173"  # a browser app's origin allowed by GOSTOP_CORS_ORIGINS


class Proxy:
    """nginx with deploy/run's rendered configuration and a test location per status."""

    def __init__(self, runtime: Path) -> None:
        self.port = free_port()
        environ = {"GOSTOP_HOSTS": "gostop.example,localhost", "GOSTOP_CORS_ORIGINS": APP}
        stack = DEPLOY.Stack.from_environ(port=self.port, runtime=runtime, environ=environ)
        config = stack.render()
        tests = "".join(
            f"\n        location = /__status/{p.nginx_status or p.status} "
            f"{{ return {p.nginx_status or p.status}; }}"
            for p in DEPLOY.PROBLEMS
        )
        anchor = "server_name gostop.example localhost;\n"
        assert config.count(anchor) == 1
        config = config.replace(anchor, anchor + tests + "\n")
        if os.geteuid() == 0:  # as deploy/run does: nginx's workers run as nobody
            os.chown(runtime, 0, pwd.getpwnam("nobody").pw_gid)
            runtime.chmod(0o710)
        (runtime / "nginx.conf").write_text(config)
        self.runtime = runtime
        self.process = subprocess.Popen(
            [DEPLOY._nginx(), "-p", str(runtime), "-c", str(runtime / "nginx.conf")],
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while not DEPLOY._started(runtime / "nginx.pid", self.process.pid):
            assert self.process.poll() is None, self.process.stderr.read()  # type: ignore[union-attr]
            assert time.monotonic() < deadline
            time.sleep(0.05)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGQUIT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        with contextlib.suppress(OSError):
            self.process.stderr.close()  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: Any) -> Iterator[Proxy]:
    require("nginx", "apt-get install nginx")
    running = Proxy(tmp_path_factory.mktemp("proxy"))
    yield running
    running.stop()


def _get(
    proxy: Proxy,
    path: str,
    host: str = "localhost",
    connection: Any = None,
    origin: str | None = None,
) -> tuple[int, http.client.HTTPMessage, bytes]:
    conn = connection or http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
    conn.request("GET", path, headers={"Host": host, **({"Origin": origin} if origin else {})})
    response = conn.getresponse()
    body = response.read()
    if connection is None:
        conn.close()
    return response.status, response.headers, body


def _assert_problem(status: int, headers: Any, body: bytes, expected: int) -> None:
    assert status == expected, body
    assert headers["Content-Type"] == PROBLEM_JSON
    assert headers["Server"] == "nginx"  # no version
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value
    assert headers["Retry-After"] == RETRY_AFTER.get(expected)
    problem = json.loads(body)
    assert problem["status"] == expected
    assert problem["type"] == "about:blank"
    assert problem["request_id"] == headers["X-Request-ID"]
    assert problem["errors"] == [
        {"pointer": "", "code": STATUSES[expected].code, "detail": problem["detail"]}
    ]


ANSWERED = sorted(set(STATUSES) - {408})


@pytest.mark.parametrize("status", ANSWERED)
def test_each_answer_of_the_proxy_is_a_problem(proxy: Proxy, status: int) -> None:
    nginx_status = STATUSES[status].nginx_status or status
    answer = _get(proxy, f"/__status/{nginx_status}")
    _assert_problem(*answer, expected=status)
    assert json.loads(answer[2])["instance"] == f"/__status/{nginx_status}"


def test_every_status_the_issue_names_has_a_problem_page() -> None:
    assert {400, 408, 413, 429, 502, 503, 504} <= set(STATUSES)
    # what nginx refuses before it has read a path (tests/test_deploy.py sends each)
    assert {414, 431, 505} <= set(STATUSES)


def test_a_request_timeout_closes_the_connection_without_an_answer(proxy: Proxy) -> None:
    """nginx never sends its 408: it closes the connection (a client that stopped sending
    would not read an answer either). Its problem page is there in case a version does."""
    with pytest.raises(http.client.RemoteDisconnected):
        _get(proxy, "/__status/408")


def test_no_instance_listening_is_a_502_problem(proxy: Proxy) -> None:
    _assert_problem(*_get(proxy, "/v1/cards"), expected=502)


def test_the_configured_host_names_and_no_other(proxy: Proxy) -> None:
    for host in ("gostop.example", "localhost"):
        assert _get(proxy, "/v1/cards", host=host)[0] == 502  # the service's server
    status, headers, body = _get(proxy, "/v1/cards", host="127.0.0.1")
    assert status == 421
    assert json.loads(body)["errors"][0]["code"] == "misdirected_request"
    assert headers["Server"] == "nginx"


def test_connections_are_kept_alive(proxy: Proxy) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
    conn.connect()
    first = conn.sock
    statuses = []
    for path in ("/__status/429", "/v1/cards", "/__status/503"):
        status, headers, _body = _get(proxy, path, connection=conn)
        statuses.append(status)
        assert headers["Connection"] != "close"
        assert conn.sock is first  # the same connection answered each
    conn.close()
    assert statuses == [429, 502, 503]


@pytest.mark.parametrize("status", ANSWERED)
def test_each_answer_of_the_proxy_carries_cors_for_an_allowed_origin(
    proxy: Proxy, status: int
) -> None:
    """With GOSTOP_CORS_ORIGINS, a browser app of that origin must be able to read the
    proxy's own problem (and its Retry-After), as it reads the app's; others get no CORS."""
    from calculator.api.config import CORS_EXPOSE_HEADERS

    path = f"/__status/{STATUSES[status].nginx_status or status}"
    _status, headers, _body = _get(proxy, path, origin=APP)
    assert headers["Access-Control-Allow-Origin"] == APP
    exposed = {h.strip() for h in headers["Access-Control-Expose-Headers"].split(",")}
    assert exposed == set(CORS_EXPOSE_HEADERS)
    assert "Origin" in headers["Vary"]
    _status, headers, _body = _get(proxy, path, origin="https://evil.example")
    assert headers["Access-Control-Allow-Origin"] is None
    assert headers["Access-Control-Expose-Headers"] is None
    _status, headers, _body = _get(proxy, path)
    assert headers["Access-Control-Allow-Origin"] is None


def test_the_app_exposes_what_a_cross_origin_app_needs(tmp_path: Path) -> None:
    from calculator.api import create_app

    database = f"sqlite:///{tmp_path}/cors.sqlite3"
    settings = {"access_log": False, "cors_origins": APP, "database_url": database}
    client = create_app(settings).test_client()
    answer = client.post(
        "/v1/tables", json={"roster": ["A", "B"], "stake": 100}, headers={"Origin": APP}
    )
    assert answer.headers["Access-Control-Allow-Origin"] == APP
    exposed = {h.strip() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "X-Request-ID", "Retry-After", "Idempotent-Replayed", "Location"} <= exposed
