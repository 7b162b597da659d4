"""A gunicorn worker's memory returns to its baseline after a big request (bench.memory).

Before gunicorn.conf.py's post_request hook, one batch item with 320,000 unknown fields
(a 3.4 MB body, a 59 MB answer) left its worker about 330 MiB larger for good.
"""

from __future__ import annotations

import pytest

from bench.attack import unknown_fields_batch
from bench.memory import run

pytestmark = pytest.mark.slow  # about 10 s: .ci/run's slow phase

SLACK_KB = 32 * 1024  # allocator fragmentation; measured 2–10 MiB (RELIABILITY.md)


def test_worker_memory_returns_to_its_baseline_after_a_big_batch() -> None:
    figures = run(
        repeat=2, bodies=[("320,000 unknown fields", unknown_fields_batch())], warm_up=(7,)
    )
    assert figures["same_worker"], figures  # one worker measured throughout
    (result,) = figures["bodies"]
    assert result["bytes"] > 3 * 1024 * 1024  # a big request (its answer may be bounded)
    for rss in result["rss_after_kb"]:
        assert rss <= figures["baseline_kb"] + SLACK_KB, figures
