"""The benchmarks still run (quick mode): they are checked for working, not for timings."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", *args, "--quick"],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_engine_benchmark_runs() -> None:
    out = _run("bench.engine")
    assert "3 players, card lists" in out
    assert "hands/s" in out


@pytest.mark.skipif(
    shutil.which("wrk") is None, reason="wrk is not installed (apt-get install wrk)"
)
def test_http_benchmark_runs_against_real_gunicorn() -> None:
    out = _run("bench.http")
    assert "ratio" in out
    assert "batch_hands_per_s" in out
