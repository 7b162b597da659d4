"""The soak and fault scripts still run and pass (quick mode; RELIABILITY.md has the long runs)."""

from __future__ import annotations

import shutil

import pytest

from tests_support import run_quick


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is missing (apt-get install wrk)")
def test_soak_holds_load_with_flat_memory() -> None:
    assert '"failed": 0' in run_quick("bench.soak")


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is missing (apt-get install wrk)")
def test_a_killed_worker_and_a_graceful_shutdown() -> None:
    out = run_quick("bench.faults")
    assert '"replaced": true' in out
    assert '"exit_code": 0' in out
