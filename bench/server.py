"""A real gunicorn on loopback for benchmarks and live tests (the repository's config).

    with Server() as server:            # GOSTOP_BIND=127.0.0.1:<free port>
        urlopen(server.base + "/healthz")
    with Stack() as stack:              # deploy/run --port <free port>: nginx + gunicorn
        urlopen(stack.base + "/healthz")

Only 127.0.0.1 is bound; the server is stopped (SIGTERM, then SIGKILL) on exit.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Self

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """gunicorn with gunicorn.conf.py, bound to a loopback port, stopped on exit."""

    name = "gunicorn"
    stop_wait = 30.0  # seconds after SIGTERM before SIGKILL

    def __init__(self, extra_env: dict[str, str] | None = None) -> None:
        """``extra_env`` adds or overrides GOSTOP_* settings (workers, access log…)."""
        self.port = free_port()
        env = {
            **os.environ,
            "GOSTOP_BIND": f"127.0.0.1:{self.port}",
            "GOSTOP_BENCH_ENDPOINT": "1",
            **(extra_env or {}),
        }
        self.workers = int(env.get("GOSTOP_WORKERS") or os.cpu_count() or 1)
        self._start([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"], env)

    def _start(self, command: list[str], env: dict[str, str]) -> None:
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self.log, stderr=self.log
        )

    def started(self) -> bool:
        """Whether it is ready, once /readyz answers: every worker has booted."""
        return len(self.worker_pids()) >= self.workers

    def __enter__(self) -> Self:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.base + "/readyz", timeout=1):
                    if self.started():
                        return self
            except OSError:
                pass
            time.sleep(0.1)
        self.__exit__()
        raise RuntimeError(f"{self.name} did not start:\n{self.output()}")

    def __exit__(self, *_exc: object) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=self.stop_wait)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def output(self) -> str:
        """What the server and the app have written to stdout and stderr so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def worker_pids(self) -> list[int]:
        """The PIDs of the process's current children (gunicorn: its workers)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]


class Stack(Server):
    """deploy/run (nginx in front of gunicorn) on a loopback port, stopped on exit."""

    name = "deploy/run"
    stop_wait = 60.0  # nginx, then every gunicorn instance, may each take a while

    def __init__(self, extra_env: dict[str, str] | None = None) -> None:
        """``extra_env`` adds or overrides GOSTOP_* settings (instances, rate limits…)."""
        self.port = free_port()
        command = [sys.executable, str(ROOT / "deploy" / "run"), "--port", str(self.port)]
        self._start(command, {**os.environ, **(extra_env or {})})

    def started(self) -> bool:
        """deploy/run answers /readyz through nginx only once everything has started."""
        return True

    def gunicorn_masters(self) -> list[int]:
        """The PIDs of deploy/run's gunicorn instances (its other child is nginx)."""
        return [
            pid
            for pid in self.worker_pids()
            if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes()
        ]


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 60,
) -> tuple[int, dict[str, str], Any]:
    """One JSON request to 127.0.0.1:``port`` on a fresh connection; (status, headers,
    parsed body or None)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        sent = {**(headers or {}), **({"Content-Type": "application/json"} if data else {})}
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        raw = response.read()
        return response.status, dict(response.getheaders()), json.loads(raw) if raw else None
    finally:
        connection.close()


def ensure_wrk() -> str:
    """The wrk binary, installing Debian's package if it is missing."""
    found = shutil.which("wrk")
    if found:
        return found
    for command in (
        ["apt-get", "install", "-y", "-q", "wrk"],
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "wrk"],
    ):
        subprocess.run(command, check=False, capture_output=True, timeout=600)
        found = shutil.which("wrk")
        if found:
            return found
    raise SystemExit("wrk is not installed and could not be installed (apt-get install wrk)")


def wrk(
    binary: str,
    url: str,
    body: bytes,
    seconds: int,
    connections: int,
    delay_ms: float | None = None,
) -> dict[str, Any]:
    """Run wrk POSTing ``body``; requests/s, latency percentiles, errors.

    ``delay_ms`` paces the load: each connection waits that long before each request
    (wrk's ``delay()`` hook); see :func:`paced` to hold a given rate.
    """
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp) / "body.json"
        body_file.write_bytes(body)
        script = Path(tmp) / "post.lua"
        lua = (
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f'local f = io.open("{body_file}", "rb")\n'
            "wrk.body = f:read('*a')\n"
            "f:close()\n"
        )
        if delay_ms is not None:
            lua += f"function delay() return {max(delay_ms, 0.0):.3f} end\n"
        script.write_text(lua)
        return wrk_script(binary, url, script, seconds, connections)


def wrk_script(
    binary: str, url: str, script: Path, seconds: int, connections: int, threads: int = 1
) -> dict[str, Any]:
    """Run wrk with a Lua ``script``; requests/s, latency percentiles, errors."""
    done = subprocess.run(
        [
            binary,
            f"-t{threads}",
            f"-c{connections}",
            f"-d{seconds}s",
            "--latency",
            "-s",
            str(script),
            url,
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )
    out = done.stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    latency = {}
    for pct in ("50", "99"):
        match = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.MULTILINE)
        if match:
            value, unit = float(match.group(1)), match.group(2)
            latency[pct] = value * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    requests = re.search(r"(\d+) requests in", out)
    return {
        "rps": rps,
        "requests": int(requests.group(1)) if requests else 0,
        "p50_ms": latency.get("50"),
        "p99_ms": latency.get("99"),
        "non_2xx": int(errors.group(1)) if errors else 0,
        "socket_errors": sum(int(n) for n in socket.groups()) if socket else 0,
    }


def paced(
    binary: str, url: str, body: bytes, seconds: int, connections: int, rate: float
) -> dict[str, Any]:
    """Hold ``rate`` requests/s: calibrate the per-request delay on a short run (the time a
    request takes adds to the delay), then run for ``seconds``."""
    period_ms = connections * 1000 / rate
    trial = wrk(binary, url, body, 5, connections, period_ms)
    overhead_ms = connections * 1000 / max(trial["rps"], 1) - period_ms
    return wrk(binary, url, body, seconds, connections, period_ms - overhead_ms)
