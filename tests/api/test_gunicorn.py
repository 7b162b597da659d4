"""The real server: gunicorn with the repository's config, on loopback only."""

from __future__ import annotations

import json
import signal
import urllib.request

from bench.server import Server
from tests_support import W13


def test_scores_a_hand_over_http_and_shuts_down_cleanly() -> None:
    with Server({"GOSTOP_ACCESS_LOG": "0"}) as server:
        request = urllib.request.Request(
            server.base + "/v1/gostop/hands",
            data=json.dumps(W13).encode(),
            headers={"Content-Type": "application/json", "X-Request-ID": "gunicorn-test"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = json.loads(response.read())
            assert response.headers["X-Request-ID"] == "gunicorn-test"
            assert response.headers["X-Frame-Options"] == "DENY"
        assert body["net"] == {"A": 9, "B": -3, "C": -6}
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0
        assert "Shutting down: Master" in server.output()
