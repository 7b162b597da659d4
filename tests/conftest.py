"""Shared test fixtures: the example data files and the hand builder."""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from xdist.scheduler import LoadScopeScheduling

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(Path(__file__).parent))

# The tables' database of every app the tests build (and of the servers they start): a
# throwaway SQLite file, never ./gostop.sqlite3.
_DATABASE_DIR = tempfile.mkdtemp(prefix="gostop-tests-")
atexit.register(shutil.rmtree, _DATABASE_DIR, ignore_errors=True)
os.environ.setdefault("GOSTOP_DATABASE_URL", f"sqlite:///{_DATABASE_DIR}/tests.sqlite3")

# How hard the property tests search, in one place: a test names its examples at full
# depth through tests_support.examples(n), which scales n by the loaded profile's
# max_examples (100 is full depth). The default run searches at a third of that ("gostop");
# HYPOTHESIS_PROFILE=gostop-deep searches in full (.ci/run's run on the compiled build).
# No timed assertions: hypothesis's default 200 ms deadline per example failed property
# tests on a loaded shared machine (an example took 381 ms). Loaded before any test
# module, so every @settings(...) that names no deadline inherits this.
settings.register_profile("gostop", deadline=None, max_examples=34)
settings.register_profile("gostop-deep", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "gostop"))


# Tests that share a costly session or module fixture, each group run by one xdist worker:
# test_deploy's nginx stack, the throwaway PostgreSQL cluster (the "postgresql" parameter
# of ledger_fixtures.database_url). Under xdist's plain `load` they were spread over both
# workers, each starting its own. The browser tests go by file: a worker starts Chromium
# and a live server once (session fixtures) and runs whole files, so that both workers
# share the page's ~100 tests (one worker ran them all, most of the system run's time).
# (`--dist loadgroup` and xdist_group marks would say this, but pytest 9.2 drops the
# marks' node-ID suffix: pytest-xdist issue #1386.)
SHARED_FIXTURE_GROUPS = {
    "deploy": re.compile(r"tests/test_deploy\.py::"),
    "postgresql": re.compile(r"\[(?:.*-)?postgresql(?:-.*)?\]$"),
}
BY_FILE = re.compile(r"^tests/browser/[^:]+")


class _SharedFixtureScheduling(LoadScopeScheduling):
    """xdist's load balancing, test by test, except that each group of
    SHARED_FIXTURE_GROUPS goes to one worker, and each browser test file (the biggest
    units first)."""

    def _split_scope(self, nodeid: str) -> str:
        group = next((g for g, p in SHARED_FIXTURE_GROUPS.items() if p.search(nodeid)), None)
        by_file = BY_FILE.match(nodeid)
        return group or (by_file.group() if by_file else nodeid)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The default distribution (-n auto's `load`) with the shared-fixture groups."""
    return _SharedFixtureScheduling(config, log) if config.getvalue("dist") == "load" else None


# Tests that need a tool outside Python (tests/tools.py): the page's browser tests
# (Chromium), the ledger's PostgreSQL cases (marked postgresql), the deploy stack and the
# proxy's own answers (nginx: test_proxy_pages' `proxy` fixture), the generated TypeScript
# client (Node). They are marked `system`: the default run (the README's command) leaves
# them out, so that it takes about a minute and a half and needs nothing but Python;
# `python -m pytest -m system` runs them, and .ci/run runs both.
NEEDS_SYSTEM_TOOLS = re.compile(r"^tests/(?:browser/|test_deploy\.py::|test_ts_client\.py::)")
SYSTEM_FIXTURES = frozenset({"proxy"})


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if (
            item.get_closest_marker("postgresql")
            or NEEDS_SYSTEM_TOOLS.search(item.nodeid)
            or SYSTEM_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        ):
            item.add_marker(pytest.mark.system)


def load_data(name: str) -> dict[str, Any]:
    """A JSON data file from tests/data."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


from ledger_fixtures import database_url, ledger_app, postgres_url  # noqa: E402, F401
