"""deploy/run: what the proxy in front of gunicorn does itself.

Its own answers are problem+json like the app's; body limits per route equal the app's
settings; an unknown Host never reaches the app; gzip when asked; no server version;
per-client rate limits that leave /healthz and /readyz alone.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.server import Stack
from calculator.api import create_app
from calculator.api.config import Settings
from calculator.api.http import PROBLEM_JSON, SECURITY_HEADERS
from tools import require

SETTINGS = Settings.load()
BALANCER = "127.0.0.2"


@pytest.fixture(scope="module")
def database_file(tmp_path_factory: Any) -> Path:
    """This module's own ledger file: a fixed path in /tmp could be another checkout's,
    migrated past this one's revisions."""
    return tmp_path_factory.mktemp("deploy") / "gostop.sqlite3"  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def stack(database_file: Path) -> Iterator[Stack]:
    require("nginx", "apt-get install nginx")
    # 127.0.0.2 plays a TLS-terminating load balancer in front of nginx (tests connect
    # from it with source_address); 127.0.0.1 is any client.
    environ = {
        "GOSTOP_DATABASE_URL": f"sqlite:///{database_file}",
        "GOSTOP_TRUSTED_LOAD_BALANCERS": BALANCER,
    }
    with Stack(environ) as running:
        yield running
    assert running.process.returncode == 0, running.output()  # SIGTERM: a clean stop


def call(
    stack: Stack,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    connection: http.client.HTTPConnection | None = None,
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request; (status, headers, body)."""
    conn = connection or http.client.HTTPConnection("127.0.0.1", stack.port, timeout=30)
    sent = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=body, headers={**sent, **(headers or {})})
    response = conn.getresponse()
    data = response.read()
    if connection is None:
        conn.close()
    return response.status, response.headers, data


def assert_problem(status: int, headers: Any, body: bytes, expected: int, code: str) -> dict:
    """The proxy's own answer has the app's problem shape and security headers."""
    assert status == expected, body
    assert headers["Content-Type"] == PROBLEM_JSON
    problem = json.loads(body)
    assert problem["type"] == "about:blank"
    assert problem["status"] == expected
    assert problem["title"]
    assert problem["detail"]
    assert problem["errors"] == [{"pointer": "", "code": code, "detail": problem["detail"]}]
    assert problem["request_id"] == headers["X-Request-ID"]
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value
    return problem


def padded(size: int) -> bytes:
    """A JSON object of exactly ``size`` bytes (an unknown field, then spaces)."""
    return b'{"x": 1}'.ljust(size)


def test_every_route_has_the_apps_body_limit(stack: Stack) -> None:
    app = create_app().test_client()
    routes = sorted(
        rule.rule
        for rule in app.application.url_map.iter_rules()
        if "POST" in rule.methods and "<" not in rule.rule
    )
    assert "/v1/gostop/hands/batch" in routes
    for path in routes:
        limit = None  # the app's: the smaller size it refuses
        for size in (SETTINGS.max_body_bytes, SETTINGS.max_batch_bytes):
            app_status = app.post(path, data=padded(size + 1), content_type="application/json")
            if limit is None and app_status.status_code == 413:
                limit = size
            status, headers, body = call(stack, "POST", path, padded(size + 1))
            assert (status == 413) == (app_status.status_code == 413), (path, size, status)
            if status == 413:  # refused by the proxy before the app read anything
                problem = assert_problem(status, headers, body, 413, "body_too_large")
                assert f"limit of {limit} bytes" in problem["detail"]
                assert problem["instance"] == path


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/assets/page.css"])
def test_a_route_that_reads_no_body_names_its_own_limit(stack: Stack, path: str) -> None:
    """The 413 of /healthz, /readyz and /assets/ names their 1 KiB limit, not the 64 KiB
    of the other routes (its detail had named the default limit)."""
    status, headers, body = call(stack, "POST", path, padded(2048))
    problem = assert_problem(status, headers, body, 413, "body_too_large")
    assert "limit of 1024 bytes" in problem["detail"]
    assert problem["instance"] == path


def test_a_body_at_the_limit_reaches_the_app(stack: Stack) -> None:
    status, _headers, body = call(
        stack, "POST", "/v1/gostop/hands", padded(SETTINGS.max_body_bytes)
    )
    assert status == 422  # the app's answer: the unknown field
    assert "unknown_field" in {e["code"] for e in json.loads(body)["errors"]}


def test_an_unknown_host_is_a_problem_and_never_reaches_the_app(stack: Stack) -> None:
    before = stack.output().count('"path":"/v1/cards"')
    status, headers, body = call(stack, "GET", "/v1/cards", headers={"Host": "evil.example"})
    problem = assert_problem(status, headers, body, 421, "misdirected_request")
    assert problem["instance"] == "/v1/cards"
    # nginx writes its log line after the answer: wait for it (bounded), then count
    deadline = time.monotonic() + 5
    while stack.output().count('"path":"/v1/cards"') == before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert stack.output().count('"path":"/v1/cards"') == before + 1  # nginx's log line only
    assert '"logger":"gostop.proxy"' in stack.output()


def test_gzip_when_asked_and_only_then(stack: Stack) -> None:
    plain_status, plain_headers, plain = call(stack, "GET", "/v1/rulesets")
    status, headers, packed = call(
        stack, "GET", "/v1/rulesets", headers={"Accept-Encoding": "gzip"}
    )
    assert plain_status == status == 200
    assert plain_headers["Content-Encoding"] is None
    assert headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    assert len(packed) < len(plain) / 3
    assert json.loads(gzip.decompress(packed)) == json.loads(plain)


def test_no_server_version_and_the_security_headers(stack: Stack) -> None:
    status, headers, _body = call(stack, "GET", "/healthz")
    assert status == 200
    assert headers["Server"] == "nginx"  # server_tokens off; gunicorn's header hidden
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value


def test_a_clients_request_id_goes_through_and_a_bad_one_is_replaced(stack: Stack) -> None:
    _status, headers, _body = call(stack, "GET", "/healthz", headers={"X-Request-ID": "table-7"})
    assert headers["X-Request-ID"] == "table-7"
    _status, headers, body = call(stack, "GET", "/", headers={"Host": "x", "X-Request-ID": '"}'})
    assert headers["X-Request-ID"] != '"}'
    assert json.loads(body)["request_id"] == headers["X-Request-ID"]  # still valid JSON


def test_an_oversized_header_is_a_problem(stack: Stack) -> None:
    status, headers, body = call(stack, "GET", "/healthz", headers={"X-Pad": "a" * 9000})
    problem = assert_problem(status, headers, body, 431, "header_too_large")
    assert problem["instance"] == "/healthz"


def test_what_gunicorn_refuses_behind_the_proxy_is_a_problem_too(stack: Stack) -> None:
    """nginx passes a request line of 4–8 KiB and more than 50 header fields on; gunicorn
    refuses them itself (gunicorn.conf.py's limits), with its worker's problem, not HTML."""
    status, headers, body = call(stack, "GET", "/v1/cards?pad=" + "a" * 5000)
    assert_problem(status, headers, body, 414, "uri_too_long")
    many = {f"X-Field-{i}": "1" for i in range(60)}
    status, headers, body = call(stack, "GET", "/v1/cards", headers=many)
    assert_problem(status, headers, body, 431, "header_too_large")


def test_a_request_that_is_not_http_is_a_problem(stack: Stack) -> None:
    with socket.create_connection(("127.0.0.1", stack.port), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n")
        answer = sock.makefile("rb").read()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert b"Content-Type: application/problem+json" in head
    assert json.loads(body)["errors"][0]["code"] == "bad_request"


def raw(stack: Stack, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """``request`` sent as is on a connection of its own, read until nginx closes it (or a
    keep-alive answer's whole body is in): (status, headers, body). Timeouts throughout."""
    with socket.create_connection(("127.0.0.1", stack.port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            sized = [line for line in head.split(b"\r\n") if line.startswith(b"Content-Length:")]
            if sized and len(body) >= int(sized[0].split(b":")[1]):
                break
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    assert status_line.startswith("HTTP/1.1 "), answer[:200]
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split(" ")[1]), headers, body


# What nginx refuses itself, before any location: some before it has read a path.
REFUSED_BY_NGINX = {
    "garbage": (b"GARBAGE\r\n\r\n", 400, "bad_request", ""),
    "lower-case method": (
        b"get /v1/cards HTTP/1.1\r\nHost: localhost\r\n\r\n",
        400,
        "bad_request",
        "",
    ),
    "bad escape": (b"GET /v1/%zz HTTP/1.1\r\nHost: localhost\r\n\r\n", 400, "bad_request", ""),
    "TLS on the HTTP port": (
        b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(40),
        400,
        "bad_request",
        "",
    ),
    "request line of 9,000 bytes": (
        b"GET /v1/cards?pad=" + b"a" * 8970 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n",
        414,
        "uri_too_long",
        "",
    ),
    "HTTP/2.0": (
        b"GET /v1/cards HTTP/2.0\r\nHost: localhost\r\n\r\n",
        505,
        "http_version_not_supported",
        "",
    ),
    "TRACE": (
        b"TRACE /v1/cards HTTP/1.1\r\nHost: localhost\r\n\r\n",
        405,
        "method_not_allowed",
        "/v1/cards",
    ),
    "Transfer-Encoding: gzip": (
        b"POST /v1/cards HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n",
        501,
        "unsupported_transfer_coding",
        "/v1/cards",
    ),
    "a newline at the end of the path": (
        b"TRACE /v1/cards%0A HTTP/1.1\r\nHost: localhost\r\n\r\n",
        405,
        "method_not_allowed",
        "",
    ),
    "an unknown Host and a newline in the path": (
        b"GET /v1/cards%0A HTTP/1.1\r\nHost: evil.example\r\n\r\n",
        421,
        "misdirected_request",
        "",
    ),
    "the proxy's own pages": (
        b"GET /_problem/400 HTTP/1.1\r\nHost: localhost\r\n\r\n",
        404,
        "not_found",
        "/_problem/400",
    ),
}


@pytest.mark.parametrize("name", REFUSED_BY_NGINX)
def test_what_nginx_refuses_itself_is_a_problem(stack: Stack, name: str) -> None:
    """nginx's error pages were named locations, which nginx cannot redirect a request to
    before it has read its path: a garbage request line, one over 8 KiB or HTTP/2.0 got
    nginx's HTML 500 (or its HTML 414, 505). Each is the problem of the same refusal by
    gunicorn (calculator/api/refusals.py), with the security headers."""
    request, expected, code, instance = REFUSED_BY_NGINX[name]
    status, headers, body = raw(stack, request)
    assert b"<html" not in body.lower()
    problem = assert_problem(status, headers, body, expected, code)
    assert problem["instance"] == instance
    assert headers["Server"] == "nginx"


def test_the_proxys_log_line_names_the_path_and_method_asked_for(stack: Stack) -> None:
    """nginx's own answers are internal redirects to its problem pages: its log line still
    names the client's method and path, and the page's instance the path; a request line
    nginx could not read no longer fails the redirect ("empty URI")."""
    assert raw(stack, b"GARBAGE\r\n\r\n")[0] == 400
    size = SETTINGS.max_batch_bytes + 1
    status, headers, body = call(stack, "POST", "/v1/settlements?x=1", padded(size))
    problem = assert_problem(status, headers, body, 413, "body_too_large")
    assert problem["instance"] == "/v1/settlements"
    assert f"limit of {SETTINGS.max_batch_bytes} bytes" in problem["detail"]
    line = f'"request_id":"{headers["X-Request-ID"]}","method":"POST","path":"/v1/settlements"'
    deadline = time.monotonic() + 5
    while line not in stack.output() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert line in stack.output()
    assert "empty URI in redirect" not in stack.output()


def test_rate_limits_answer_429_problems_and_leave_healthz_alone() -> None:
    require("nginx", "apt-get install nginx")
    with Stack({"GOSTOP_RATE_LIMIT": "1", "GOSTOP_RATE_BURST": "5"}) as stack:
        conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=30)
        statuses = [call(stack, "GET", "/v1/cards", connection=conn)[0] for _ in range(30)]
        status, headers, body = call(stack, "GET", "/v1/cards", connection=conn)
        health = [call(stack, "GET", path, connection=conn)[0] for path in ["/healthz"] * 40]
        ready = [call(stack, "GET", path, connection=conn)[0] for path in ["/readyz"] * 40]
        conn.close()
        stack.process.send_signal(signal.SIGTERM)
        assert stack.process.wait(timeout=60) == 0
    # 30 requests in far less than the 24 s the limit would need: most are refused.
    assert statuses.count(429) >= 10, statuses
    assert statuses[0] == 200
    problem = assert_problem(status, headers, body, 429, "rate_limited")
    assert problem["instance"] == "/v1/cards"
    assert headers["Retry-After"] == "1"
    assert health == [200] * 40
    assert ready == [200] * 40


@pytest.mark.slow  # a fault: three gunicorn starts and deploy/run's restart (slow phase)
def test_a_killed_instance_is_started_again_and_reads_go_to_the_other() -> None:
    require("nginx", "apt-get install nginx")
    limits = {"GOSTOP_RATE_LIMIT": "1000", "GOSTOP_RATE_BURST": "1000"}
    with Stack({"GOSTOP_INSTANCES": "2", "GOSTOP_WORKERS": "1", **limits}) as stack:
        masters = stack.gunicorn_masters()
        assert len(masters) == 2
        conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=30)
        os.killpg(masters[0], signal.SIGKILL)  # the instance: its master and its worker
        statuses = [call(stack, "GET", "/v1/cards", connection=conn)[0] for _ in range(200)]
        for _ in range(600):  # until deploy/run has started it again (≤ 60 s)
            if "starting it again" in stack.output() and len(stack.worker_pids()) == 3:
                break
            time.sleep(0.1)
        again = [call(stack, "GET", "/healthz", connection=conn)[0] for _ in range(20)]
        conn.close()
        assert stack.process.poll() is None, stack.output()
    assert statuses == [200] * 200
    assert again == [200] * 20
    assert "starting it again" in stack.output()


def test_the_apps_environment_reaches_every_gunicorn_instance(
    stack: Stack, database_file: Path
) -> None:
    environments = [
        Path(f"/proc/{pid}/environ").read_bytes().split(b"\0") for pid in stack.gunicorn_masters()
    ]
    assert len(environments) == 1  # GOSTOP_INSTANCES defaults to 1
    for environment in environments:
        assert f"GOSTOP_DATABASE_URL=sqlite:///{database_file}".encode() in environment
        binds = [v for v in environment if v.startswith(b"GOSTOP_BIND=unix:")]
        assert binds, environment  # on its unix socket, not on a port


def _join_link_and_qr(stack: Stack, source: str, headers: dict[str, str]) -> tuple[str, str]:
    """Create a table through the proxy from ``source``; (its join_url, the join link its
    QR code encodes, as segno draws it from that URL)."""
    import io
    import re

    import segno

    conn = http.client.HTTPConnection(
        "127.0.0.1", stack.port, timeout=30, source_address=(source, 0)
    )
    body = json.dumps({"roster": ["A", "B"], "stake": 100}).encode()
    status, _headers, answer = call(stack, "POST", "/v1/tables", body, headers, conn)
    assert status == 201, answer
    table = json.loads(answer)
    auth = {**headers, "Authorization": "Bearer " + table["viewer_token"]}
    status, _headers, svg = call(stack, "GET", f"/v1/tables/{table['id']}/qr", None, auth, conn)
    conn.close()
    assert status == 200
    drawn = io.BytesIO()
    segno.make(table["join_url"], error="m").save(drawn, kind="svg", omitsize=True, xmldecl=False)
    path = re.search(r' d="([^"]+)"', drawn.getvalue().decode())[1]  # type: ignore[index]
    assert path in svg.decode()  # the QR code is the join_url
    return table["join_url"], table["join_code"]


def test_the_join_link_names_the_port_and_scheme_the_client_used(stack: Stack) -> None:
    # A phone on the table's network: http, the port nginx listens on (nginx's $host has
    # no port: the link was http://127.0.0.1/?join=…, which no phone could open). Its
    # X-Forwarded-Proto is not believed: any client can send it.
    url, code = _join_link_and_qr(stack, "127.0.0.1", {"X-Forwarded-Proto": "https"})
    assert url == f"http://127.0.0.1:{stack.port}/?join={code}"
    # A TLS-terminating load balancer in GOSTOP_TRUSTED_LOAD_BALANCERS, on port 443: its
    # Host (no port) and its X-Forwarded-Proto make the link.
    balanced = {"Host": "localhost", "X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}
    url, code = _join_link_and_qr(stack, BALANCER, balanced)
    assert url == f"https://localhost/?join={code}"


def _page_load() -> list[tuple[str, str, bytes | None]]:
    """The requests one phone makes to open the scorekeeper page (39: the 26 the app logged
    of one real load, the 7 modules table.js was split into since and the 6 hand.js was):
    the page, each of its modules and its style sheet, the catalogues, the previews it
    scores as the hand is filled in, and the OpenAPI document."""
    from calculator.api.page import ASSETS, STATIC

    hand = json.dumps({"players": [{"id": p, "declared": {}} for p in "ABC"]}).encode()
    assets = sorted(f.name for f in STATIC.iterdir() if f.name != "index.html")
    return [
        ("GET", "/", None),
        *[("GET", f"{ASSETS}/{name}", None) for name in assets],
        ("GET", "/v1/codes", None),
        ("GET", "/v1/rulesets", None),
        ("GET", "/v1/cards?ruleset=standard", None),
        *[("POST", "/v1/gostop/hands", hand)] * 8,
        ("GET", "/v1/openapi.json", None),
    ]


def test_ten_phones_behind_one_address_open_the_page_at_once(stack: Stack) -> None:
    """SPEC §8: per-client limits fit ≥ 10 phones behind one address. Ten phones (one
    address of their own here, 127.0.0.3: the other tests' requests are not counted) open
    the page at the same moment, each over 6 connections as a browser does: no 429."""
    import threading
    from collections import Counter

    load = _page_load()
    assert len(load) >= 19
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(60)

    def connection(requests: list[tuple[str, str, bytes | None]]) -> None:
        conn = http.client.HTTPConnection(
            "127.0.0.1", stack.port, timeout=60, source_address=("127.0.0.3", 0)
        )
        start.wait(timeout=30)
        for method, path, body in requests:
            status = call(stack, method, path, body, connection=conn)[0]
            with lock:
                statuses[status] += 1
        conn.close()

    threads = [
        threading.Thread(target=connection, args=(load[lane::6],))
        for _phone in range(10)
        for lane in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sum(statuses.values()) == 10 * len(load)
    assert statuses[429] == 0, statuses
    assert set(statuses) <= {200, 422}, statuses  # the previews' empty hands may be refused


class _StackIn(Stack):
    """deploy/run started in another directory than the checkout."""

    def __init__(self, cwd: Path, extra_env: dict[str, str]) -> None:
        self.cwd = cwd
        super().__init__(extra_env)

    def _start(self, command: list[str], env: dict[str, str]) -> None:
        import subprocess
        import tempfile

        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server
        self.process = subprocess.Popen(
            command, cwd=self.cwd, env=env, stdout=self.log, stderr=self.log
        )


def test_the_default_ledger_file_is_in_the_directory_it_was_started_in(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """README.md: the default SQLite file is ./gostop.sqlite3, relative to the working
    directory; deploy/run's gunicorn ran in the checkout (read-only under systemd)."""
    require("nginx", "apt-get install nginx")
    monkeypatch.delenv("GOSTOP_DATABASE_URL", raising=False)
    in_checkout = Path(__file__).resolve().parents[1] / "gostop.sqlite3"
    before = in_checkout.stat().st_mtime_ns if in_checkout.exists() else None
    with _StackIn(tmp_path, {"GOSTOP_WORKERS": "1"}) as stack:
        body = json.dumps({"roster": ["A", "B"], "stake": 100}).encode()
        assert call(stack, "POST", "/v1/tables", body)[0] == 201
    assert (tmp_path / "gostop.sqlite3").exists()
    after = in_checkout.stat().st_mtime_ns if in_checkout.exists() else None
    assert after == before  # the checkout's file (if any) untouched


def test_join_codes_never_reach_the_logs(tmp_path: Path) -> None:
    """A join code opens a table: nginx's "limiting requests" warnings (which quote the
    request line) and Flask's development server (gostop serve) must not log it."""
    import subprocess
    import sys

    from bench.server import free_port

    require("nginx", "apt-get install nginx")
    secret = "7K3MQ810"
    limits = {"GOSTOP_RATE_LIMIT": "1", "GOSTOP_RATE_BURST": "1"}
    with Stack({**limits, "GOSTOP_DATABASE_URL": f"sqlite:///{tmp_path}/j.sqlite3"}) as stack:
        statuses = [call(stack, "GET", f"/?join={secret}")[0] for _ in range(5)]
        assert 429 in statuses
        deadline = time.monotonic() + 5
        while "limiting requests" not in stack.output() and time.monotonic() < deadline:
            time.sleep(0.05)
        output = stack.output()
    assert "limiting requests" in output  # the warning is there, without the code
    assert "join=[redacted]" in output
    assert secret not in output
    port = free_port()
    environ = {**os.environ, "GOSTOP_DATABASE_URL": f"sqlite:///{tmp_path}/s.sqlite3"}
    # Ctrl-C as in a terminal, even when this run was started in the background by a
    # shell without job control, whose children ignore SIGINT (as Python then does)
    interruptible = (
        "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler);"
        "sys.argv[0] = 'gostop'; runpy.run_module('calculator.api.cli', run_name='__main__')"
    )
    serve = subprocess.Popen(
        [sys.executable, "-c", interruptible, "serve", "--port", str(port)],
        env=environ,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", f"/?join={secret}")
                assert conn.getresponse().status == 200
                conn.close()
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        serve.send_signal(signal.SIGINT)
        try:
            _out, err = serve.communicate(timeout=30)
        finally:
            serve.kill()  # never left running (a no-op once it has exited)
    assert "GET /?join=[redacted] HTTP/1.1" in err
    assert secret not in err
