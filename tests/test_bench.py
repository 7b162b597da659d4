"""The benchmarks still run (quick mode): they are checked for working, not for timings."""

from __future__ import annotations

import shutil

import pytest

from tests_support import run_quick


def test_engine_benchmark_runs() -> None:
    out = run_quick("bench.engine")
    assert "3 players, card lists" in out
    assert "hands/s" in out


@pytest.mark.skipif(
    shutil.which("wrk") is None, reason="wrk is not installed (apt-get install wrk)"
)
def test_http_benchmark_runs_against_real_gunicorn() -> None:
    out = run_quick("bench.http")
    assert "ratio" in out
    assert "batch_hands_per_s" in out


@pytest.mark.skipif(
    shutil.which("valgrind") is None, reason="valgrind is not installed (apt-get install valgrind)"
)
def test_instruction_count_benchmark_runs() -> None:
    out = run_quick("bench.instructions")
    engine = next(line for line in out.splitlines() if line.startswith("engine"))
    assert int(engine.split()[-3].replace(",", "")) > 0  # "… 131,048 per hand"
