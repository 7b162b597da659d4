"""gunicorn.conf.py's hooks, called as gunicorn calls them (their effect on a running
worker's memory is measured by bench.memory and bench/RESULTS.md)."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

from gunicorn.config import Config

CONF = Path(__file__).parents[1] / "gunicorn.conf.py"


def test_pre_fork_freezes_the_preloaded_heap_out_of_the_collectors_reach() -> None:
    settings = runpy.run_path(str(CONF))
    Config().set("pre_fork", settings["pre_fork"])  # gunicorn takes it (a 2-argument hook)
    gc.collect()
    alive = len(gc.get_objects())
    try:
        settings["pre_fork"](None, None)
        assert gc.get_freeze_count() >= alive  # everything the master holds now
        assert len(gc.get_objects()) < alive // 10  # the collector walks only what is new
    finally:
        gc.unfreeze()
