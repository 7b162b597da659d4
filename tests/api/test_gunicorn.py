"""The real server: gunicorn with the repository's config, on loopback only."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
W13 = {
    "players": [
        {"id": "A", "captured": ["01-bright", "03-bright", "08-bright", "02-junk-1", "04-junk-1"]},
        {"id": "B", "captured": ["12-bright", "06-junk-1", "07-junk-1"]},
        {"id": "C", "captured": ["05-junk-1", "09-junk-1"]},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(base: str, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            with urllib.request.urlopen(base + "/readyz", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError("gunicorn did not become ready")


@pytest.fixture
def server():
    port = free_port()
    env = {
        **os.environ,
        "GOSTOP_BIND": f"127.0.0.1:{port}",
        "GOSTOP_WORKERS": "2",
        "GOSTOP_ACCESS_LOG": "0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process)
        yield base, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def test_scores_a_hand_over_http_and_shuts_down_cleanly(server) -> None:
    base, process = server
    request = urllib.request.Request(
        base + "/v1/gostop/hands",
        data=json.dumps(W13).encode(),
        headers={"Content-Type": "application/json", "X-Request-ID": "gunicorn-test"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        body = json.loads(response.read())
        assert response.headers["X-Request-ID"] == "gunicorn-test"
    assert body["net"] == {"A": 9, "B": -3, "C": -6}
    process.send_signal(signal.SIGTERM)
    output, _ = process.communicate(timeout=30)
    assert process.returncode == 0, output.decode()
    assert b"Shutting down: Master" in output
