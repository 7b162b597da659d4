"""The benchmarks still run (quick mode): they are checked for working, not for timings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests_support import run_quick
from tools import require

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.slow, pytest.mark.packed]  # checked for working, not figures


def test_engine_benchmark_runs() -> None:
    out = run_quick("bench.engine")
    assert "3 players, card lists" in out
    assert "4 players, one sits out" in out
    assert "hands/s" in out


def test_http_benchmark_runs_against_real_gunicorn() -> None:
    require("wrk", "apt-get install wrk")
    out = run_quick("bench.http")
    assert "ratio" in out
    assert "batch_hands_per_s" in out
    assert "batch_ratio" in out  # the batch against parsing the same body (SPEC §8)


def test_instruction_count_benchmark_runs() -> None:
    require("valgrind", "apt-get install valgrind")
    out = run_quick("bench.instructions")
    engine = next(line for line in out.splitlines() if line.startswith("engine"))
    assert int(engine.split()[-3].replace(",", "")) > 0  # "… 131,048 per hand"


def test_fresh_instruction_runs_score_hands_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench.instructions --fresh``: the warm-up and each repetition post other hands."""
    from flask.testing import FlaskClient

    from bench import instructions

    posted: list[bytes] = []
    post = FlaskClient.post

    def recording(self: FlaskClient, *args: Any, **kwargs: Any) -> Any:
        posted.append(kwargs["data"])
        return post(self, *args, **kwargs)

    monkeypatch.setattr(FlaskClient, "post", recording)
    run = instructions._http(2, "hand", fresh=True)
    for _ in range(instructions.FRESH_SETS):
        run()
    assert len(posted) == len(set(posted)) == 2 * instructions.FRESH_SETS
    again = instructions._http(2, "hand")
    posted.clear()
    again()
    again()
    assert posted[:2] == posted[2:]  # without --fresh: the same hands every run


def test_table_read_workloads_read_a_night_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """``read``, ``read_en`` and ``append_read_en``: a table of TABLE_HANDS different hands
    read whole (200, every hand), in the language each names, at the table's version."""
    from flask.testing import FlaskClient

    from bench import instructions

    read: list[Any] = []
    get = FlaskClient.get

    def recording(self: FlaskClient, *args: Any, **kwargs: Any) -> Any:
        answer = get(self, *args, **kwargs)
        read.append(answer)
        return answer

    monkeypatch.setattr(FlaskClient, "get", recording)
    for workload, language, hands in (
        ("read", "ko", instructions.TABLE_HANDS),
        ("read_en", "en", instructions.TABLE_HANDS),
        ("append_read_en", "en", instructions.TABLE_HANDS + 1),
    ):
        read.clear()
        instructions._ledger(1, workload)()
        (answer,) = read
        assert answer.status_code == 200
        assert answer.headers["Content-Language"] == language
        results = [hand["result"] for hand in answer.get_json()["hands"]]
        assert len(results) == hands
        assert len({str(result["net"]) for result in results}) > 10  # a night, not one hand


def test_table_benchmark_runs_on_both_databases() -> None:
    require("wrk", "apt-get install wrk")
    from bench.postgres import find_bin

    if find_bin("initdb") is None:
        require("initdb", "apt-get install postgresql")
    out = run_quick("bench.tables")
    for database in ("SQLite", "PostgreSQL"):
        assert f"| {database} | append a hand |" in out
        assert f"| {database} | poll 304, 200 hands |" in out


def test_compression_benchmark_runs() -> None:
    require("wrk", "apt-get install wrk")
    out = run_quick("bench.compression", "--no-count")
    assert "| batch of 500 | gzip |" in out
    assert "| hand | identity |" in out


def test_cpu_benchmark_counts_the_workers_cpu_per_request() -> None:
    import json

    found = json.loads(run_quick("bench.cpu"))
    # Every figure measured, and each ratio made of its pair. Not which side is cheaper: a
    # hand costs more than the echo on a quiet machine, but one round of 200 requests on
    # a loaded one can say otherwise (no timed assertions; RESULTS.md has the figures).
    for name in ("echo_us", "hand_us", "echo_batch_us_per_hand", "batch_us_per_hand"):
        assert found[name] > 0, name
    for name in ("healthz_us", "poll_304_us"):
        assert found[name] > 0, name
    assert found["ratio"] == pytest.approx(found["echo_us"] / found["hand_us"], abs=0.002)
    assert found["poll_ratio"] == pytest.approx(
        found["healthz_us"] / found["poll_304_us"], abs=0.002
    )


def test_instruction_runs_leave_no_folder_behind(tmp_path: Path) -> None:
    """Each inner run makes its database in a folder of its own: removed at exit."""
    import subprocess
    import sys

    script = (
        "from bench import instructions\n"
        "instructions._http(1, 'hand')()\n"
        "instructions._ledger(1, 'append')()\n"
    )
    environ = {**os.environ, "TMPDIR": str(tmp_path), "GOSTOP_ACCESS_LOG": "0"}
    subprocess.run([sys.executable, "-c", script], check=True, env=environ, cwd=ROOT)
    assert list(tmp_path.iterdir()) == []


def test_http_figures_across_servers_are_medians_with_each_servers_ratio() -> None:
    """``bench.http --servers``: each server's ratios kept, the median reported."""
    from bench.http import across

    runs = [
        {"engine": "compiled", "ratio": 0.75, "batch_ratio": 0.2, "echo_rps": 100, "errors": 0},
        {"engine": "compiled", "ratio": 0.84, "batch_ratio": 0.18, "echo_rps": 90, "errors": 1},
        {"engine": "compiled", "ratio": 0.73, "batch_ratio": 0.19, "echo_rps": 95, "errors": 0},
    ]
    assert across(runs) == {
        "engine": "compiled",
        "ratio_per_server": "0.750 0.840 0.730",
        "ratio_range": "0.730–0.840",
        "ratio": 0.75,
        "batch_ratio_per_server": "0.200 0.180 0.190",
        "batch_ratio_range": "0.180–0.200",
        "batch_ratio": 0.19,
        "echo_rps": 95,
        "errors": 1,
        "servers": 3,
    }
