"""The soak and fault scripts still run and pass (quick mode; RELIABILITY.md has the long runs)."""

from __future__ import annotations

import pytest

from tests_support import run_quick
from tools import require

pytestmark = pytest.mark.slow


def test_soak_holds_load_with_flat_memory() -> None:
    require("wrk", "apt-get install wrk")
    assert '"failed": 0' in run_quick("bench.soak")


def test_a_killed_worker_and_a_graceful_shutdown() -> None:
    require("wrk", "apt-get install wrk")
    out = run_quick("bench.faults")
    assert '"replaced": true' in out
    assert '"exit_code": 0' in out
