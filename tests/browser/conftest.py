"""The scorekeeper page in a real browser: Debian's Chromium driven by Playwright.

The service as phones reach it — deploy/run, nginx in front of gunicorn (the repository's
config) — on 127.0.0.1 with a temporary SQLite ledger, and one browser per test session
(per xdist worker that runs any of these tests); each test gets fresh contexts. No
browser is ever downloaded: Playwright launches /usr/bin/chromium (``apt-get install
chromium``; .ci/run installs it). Every page is watched for script errors and
Content-Security-Policy violations, and axe-core (tests/browser/package.json, installed by
``npm ci``) checks each screen.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.server import Server, Stack
from tools import require

HERE = Path(__file__).parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_HINT = "apt-get install chromium"
NODE_HINT = "Node.js 20+ with npm, then: cd tests/browser && npm ci"


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """deploy/run on a free loopback port, its ledger in a temporary SQLite file: nginx
    takes the browser's connections, as it takes phones' (README, "Running it for real").
    In front of the plain gunicorn, a connection a browser opens and sends nothing on
    holds a sync worker until gunicorn's 30 s timeout (why the plain gunicorn is not for
    phones), and a page load there stalled past Playwright's 30 s now and then: 3 of the
    13 runs of the system phase before this (the cause was not caught in the act; such a
    connection fits it). Through nginx the page also gets what phones get: gzip, whose
    weak ETags the page once compared with a 412's strong one. The per-client rate limit
    is raised: every test's requests come from 127.0.0.1, and tests/test_deploy.py tests
    the limit itself."""
    require("nginx", "apt-get install nginx")
    database = tmp_path_factory.mktemp("ledger") / "page.sqlite3"
    settings = {
        "GOSTOP_DATABASE_URL": f"sqlite:///{database}",
        "GOSTOP_WORKERS": "2",
        "GOSTOP_ACCESS_LOG": "0",
        "GOSTOP_RATE_LIMIT": "200",
        "GOSTOP_RATE_BURST": "2000",
        # deploy/run's defaults whatever the shell says: each xdist worker's stack its own
        # runtime directory, on 127.0.0.1, answering to localhost and 127.0.0.1
        **dict.fromkeys(
            ("GOSTOP_RUNTIME_DIR", "RUNTIME_DIRECTORY", "GOSTOP_HOSTS", "GOSTOP_PUBLIC_BIND"), ""
        ),
    }
    with Stack(settings) as server:
        yield server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, never a downloaded one; no sandbox (CI runs as root)."""
    chromium = require("chromium", CHROMIUM_HINT)
    return {**browser_type_launch_args, "executable_path": chromium, "args": ["--no-sandbox"]}


@pytest.fixture(scope="session")
def base_url(live_server: Server) -> str:
    """The live server: ``page.goto("/")`` opens the page there."""
    return live_server.base


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A phone: 360×800, English (the tests read English text)."""
    return {**browser_context_args, "viewport": {"width": 360, "height": 800}, "locale": "en-US"}


@pytest.fixture
def watch() -> Any:
    """``watch(page)``: fail the test on a script error or a CSP violation in ``page``."""
    problems: list[str] = []

    def attach(page: Any) -> Any:
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.on(
            "console",
            lambda message: (
                problems.append(f"console: {message.text}")
                if message.type == "error" and "Content Security Policy" in message.text
                else None
            ),
        )
        return page

    yield attach
    assert not problems, problems


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, installed from tests/browser/package-lock.json."""
    if not AXE.exists():
        npm = require("npm", NODE_HINT)
        subprocess.run([npm, "ci"], cwd=HERE, check=True, capture_output=True, timeout=300)
    return AXE.read_text(encoding="utf-8")


MODERATE_CHECKED = {"heading-order"}


@pytest.fixture
def axe(axe_source: str) -> Any:
    """``axe(page, screen)``: no serious or critical accessibility violation on the screen,
    and headings in order (a moderate one: screen readers list a page by its headings).

    axe is evaluated through the DevTools protocol, not added as a script element: the
    page's CSP (rightly) refuses inline scripts.
    """

    def check(page: Any, screen: str) -> None:
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.evaluate(axe_source)
        results = page.evaluate("async () => JSON.stringify(await axe.run(document))")
        violations = [
            {
                "id": v["id"],
                "impact": v["impact"],
                "help": v["help"],
                "nodes": [n["target"] for n in v["nodes"][:3]],
            }
            for v in json.loads(results)["violations"]
            if v["impact"] in ("serious", "critical") or v["id"] in MODERATE_CHECKED
        ]
        assert not violations, f"{screen}: {violations}"

    return check
