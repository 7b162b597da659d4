"""gunicorn's own refusals are problem+json (calculator/api/worker.py), on a real gunicorn.

Raw requests over sockets to gunicorn with the repository's config on 127.0.0.1: each that
gunicorn refuses (before the app sees it, or a body while the app reads it) is answered with
the app's problem shape, its code and status, ``Connection: close`` and the security
headers, never gunicorn's HTML page; and the same worker answers a normal request afterwards.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from http import HTTPStatus
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path
from typing import Any

import pytest
from gunicorn.http import errors as gunicorn_errors

from bench.server import Server
from calculator.api.http import PROBLEM_JSON, SECURITY_HEADERS
from calculator.api.refusals import Limits, refusal
from calculator.codes import CODES

ROOT = Path(__file__).resolve().parents[2]
HEAD = b"Host: 127.0.0.1\r\n"
# (request, status, code, words the detail must hold: the limit it names)
REFUSED = {
    "request line of 5,000 bytes": (
        b"GET /v1/cards?pad=" + b"a" * 4970 + b" HTTP/1.1\r\n" + HEAD + b"\r\n",
        414,
        "uri_too_long",
        "over 4094 bytes",
    ),
    "60 header fields": (
        b"GET /v1/cards HTTP/1.1\r\n"
        + HEAD
        + b"".join(b"X-Field-%d: 1\r\n" % i for i in range(59))
        + b"\r\n",
        431,
        "header_too_large",
        "more than 50 header fields",
    ),
    "a header field of 10,000 bytes": (
        b"GET /v1/cards HTTP/1.1\r\n" + HEAD + b"X-Pad: " + b"a" * 9993 + b"\r\n\r\n",
        431,
        "header_too_large",
        "over 8190 bytes",
    ),
    "a garbage request line": (b"GARBAGE\r\n\r\n", 400, "bad_request", "request line"),
    "an invalid HTTP version": (
        b"GET /v1/cards HTTP/1.x\r\n" + HEAD + b"\r\n",
        400,
        "bad_request",
        "'HTTP/1.x'",
    ),
    "HTTP/2.0 as text": (
        b"GET /v1/cards HTTP/2.0\r\n" + HEAD + b"\r\n",
        505,
        "http_version_not_supported",
        "HTTP/2.0",
    ),
    "a lower-case method": (
        b"get /v1/cards HTTP/1.1\r\n" + HEAD + b"\r\n",
        400,
        "bad_request",
        "'get'",
    ),
    "a header name with a space": (
        b"GET /v1/cards HTTP/1.1\r\n" + HEAD + b"Bad Name: 1\r\n\r\n",
        400,
        "bad_request",
        "'Bad Name'",
    ),
    "a Content-Length that is no number": (
        b"POST /v1/gostop/hands HTTP/1.1\r\n" + HEAD + b"Content-Length: x\r\n\r\n",
        400,
        "bad_request",
        "Content-Length",
    ),
    "an unknown transfer coding": (
        b"POST /v1/gostop/hands HTTP/1.1\r\n" + HEAD + b"Transfer-Encoding: br\r\n\r\n",
        501,
        "unsupported_transfer_coding",
        "'br'",
    ),
    "an unknown expectation": (
        b"POST /v1/gostop/hands HTTP/1.1\r\n"
        + HEAD
        + b"Expect: fly\r\nContent-Length: 2\r\n\r\n{}",
        417,
        "expectation_failed",
        "'fly'",
    ),
    # read by the app, refused by gunicorn's body reader: the app answers it, a 400 too
    "a malformed chunked body": (
        b"POST /v1/gostop/hands HTTP/1.1\r\n"
        + HEAD
        + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + b"zz\r\n{}\r\n0\r\n\r\n",
        400,
        "bad_request",
        "chunked body",
    ),
}


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server({"GOSTOP_WORKERS": "1", "GOSTOP_ACCESS_LOG": "0"}) as started:
        yield started


def exchange(port: int, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """Send ``request`` on a fresh connection and read the answer until the server closes
    it: (status line, headers by lower-case name, body). Bounded: 10 s a read."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        return _read(sock)


def _read(sock: socket.socket) -> tuple[str, dict[str, str], bytes]:
    sock.settimeout(10)
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def assert_problem(
    answer: tuple[str, dict[str, str], bytes], status: int, code: str
) -> dict[str, Any]:
    """The answer is the app's problem shape with this status and code."""
    line, headers, body = answer
    # (werkzeug writes the app's reason phrases in capitals)
    assert line.upper() == f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".upper(), body[:300]
    assert headers["content-type"] == PROBLEM_JSON
    assert headers["connection"] == "close"
    assert int(headers["content-length"]) == len(body)
    for name, value in SECURITY_HEADERS.items():
        assert headers[name.lower()] == value
    problem = json.loads(body)
    assert problem["type"] == "about:blank"
    assert problem["title"] == HTTPStatus(status).phrase
    assert problem["status"] == status
    assert problem["errors"] == [{"pointer": "", "code": code, "detail": problem["detail"]}]
    assert problem["request_id"] == headers["x-request-id"]
    assert problem["request_id"]
    assert code in CODES["error"]  # a published code (GET /v1/codes)
    return problem


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_request_gunicorn_refuses_is_a_problem(server: Server, case: str) -> None:
    request, status, code, named = REFUSED[case]
    problem = assert_problem(exchange(server.port, request), status, code)
    assert named in problem["detail"], problem["detail"]


def test_the_worker_answers_normally_after_refusing(server: Server) -> None:
    workers = server.worker_pids()
    for request, _status, _code, _named in REFUSED.values():
        exchange(server.port, request)
    line, headers, body = exchange(
        server.port, b"GET /healthz HTTP/1.1\r\n" + HEAD + b"Connection: close\r\n\r\n"
    )
    assert line == "HTTP/1.1 200 OK"
    assert headers["content-type"] == "application/json"
    assert json.loads(body)
    assert server.worker_pids() == workers  # the same worker: none crashed
    output = server.output()
    assert "Invalid request from ip=127.0.0.1" in output  # gunicorn still logs each refusal
    assert "refused request failed" not in output  # and the worker's own handling never failed


def test_a_well_formed_request_id_read_before_the_refusal_is_echoed(server: Server) -> None:
    # gunicorn had read the headers (the Content-Length is refused after them): the id
    # nginx or the client sent comes back, as the app echoes it; a malformed one does not
    for given, echoed in (("table-7", True), ('"}', False)):
        request = b"POST /v1/gostop/hands HTTP/1.1\r\n" + HEAD + b"Content-Length: x\r\n"
        answer = exchange(server.port, request + f"X-Request-ID: {given}\r\n\r\n".encode())
        problem = assert_problem(answer, 400, "bad_request")
        assert (problem["request_id"] == given) is echoed
        assert problem["instance"] == "/v1/gostop/hands"


def test_a_refusal_of_a_head_request_has_no_body(server: Server) -> None:
    # gunicorn knows the method once the request line is read (here: a bad header after it)
    line, headers, body = exchange(
        server.port, b"HEAD /v1/cards HTTP/1.1\r\n" + HEAD + b"Content-Length: x\r\n\r\n"
    )
    assert line == "HTTP/1.1 400 Bad Request"
    assert headers["content-type"] == PROBLEM_JSON
    assert int(headers["content-length"]) > 0
    assert body == b""


LIMITS = Limits(limit_request_line=4094, limit_request_fields=50, limit_request_field_size=8190)


def test_gunicorns_status_is_kept_unless_wrong() -> None:
    # the application's own bad header is its fault: gunicorn's 500 stays, never a 400
    error = gunicorn_errors.InvalidResponseHeader("X-Bad\r\n")
    assert refusal(error, status=500, limits=LIMITS).status == 500
    # an error not known here keeps gunicorn's status, with a generic code
    forbidden = refusal(gunicorn_errors.ForbiddenProxyRequest("10.0.0.1"), status=403, limits=None)
    assert (forbidden.status, forbidden.code) == (403, "http_error")
    assert refusal(RuntimeError("boom"), status=500, limits=None).code == "http_error"
    # a malformed PROXY protocol header is the client's: 400, where gunicorn says 500
    proxy = refusal(gunicorn_errors.InvalidProxyHeader("version 9"), status=500, limits=None)
    assert (proxy.status, proxy.code) == (400, "bad_request")


def test_the_codes_are_the_proxys_for_the_same_status() -> None:
    """A client sees the same problem whichever stack answers: gunicorn alone, or nginx in
    front (deploy/run's own pages)."""
    loader = SourceFileLoader("deploy_run_codes", str(ROOT / "deploy" / "run"))
    spec = spec_from_loader(loader.name, loader)
    assert spec is not None
    module = module_from_spec(spec)
    import sys

    sys.modules[loader.name] = module  # dataclasses look their module up
    loader.exec_module(module)
    proxy = {problem.status: problem.code for problem in module.PROBLEMS}
    for request, status, code, _named in REFUSED.values():
        if status in proxy:
            assert proxy[status] == code, request[:40]
    assert {400, 431} <= proxy.keys()


def _worker() -> Any:
    """A ProblemWorker as gunicorn's arbiter makes one, without its process: gunicorn's
    defaults with gunicorn.conf.py's limits, gunicorn's logger."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    from calculator.api.worker import ProblemWorker

    cfg = Config()
    for name, value in (
        ("limit_request_line", 4094),
        ("limit_request_fields", 50),
        ("limit_request_field_size", 8190),
    ):
        cfg.set(name, value)
    worker = ProblemWorker.__new__(ProblemWorker)  # __init__ wants sockets and an app
    worker.cfg, worker.log = cfg, Logger(cfg)
    return worker


def test_a_failure_while_answering_still_sends_a_problem(monkeypatch: Any) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr("calculator.api.worker.refusal", broken)
    client, server = socket.socketpair()
    with client, server:
        _worker().handle_error(
            None, server, ("127.0.0.1", 1), gunicorn_errors.LimitRequestLine(5000, 4094)
        )
        server.close()
        line, headers, body = _read(client)
    assert line == "HTTP/1.1 500 Internal Server Error"
    assert headers["content-type"] == PROBLEM_JSON
    assert json.loads(body)["status"] == 500


def test_the_worker_answers_a_refusal_without_a_server() -> None:
    client, server = socket.socketpair()
    with client, server:
        _worker().handle_error(
            None, server, ("127.0.0.1", 1), gunicorn_errors.LimitRequestLine(5000, 4094)
        )
        server.close()
        answer = _read(client)
    problem = assert_problem(answer, 414, "uri_too_long")
    assert problem["instance"] == ""  # no request was read
