"""The soak and fault scripts still run and pass (quick mode; RELIABILITY.md has the long runs)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def _run(module: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", module, "--quick"],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is missing (apt-get install wrk)")
def test_soak_holds_load_with_flat_memory() -> None:
    assert '"failed": 0' in _run("bench.soak")


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is missing (apt-get install wrk)")
def test_a_killed_worker_and_a_graceful_shutdown() -> None:
    out = _run("bench.faults")
    assert '"replaced": true' in out
    assert '"exit_code": 0' in out
