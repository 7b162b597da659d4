"""External tools a test needs (nginx, node, chromium, PostgreSQL, wrk, valgrind).

Locally a missing tool skips the test with the command that installs it; under
``CI=true`` it fails instead, so a CI machine that lacks a tool can never pass by
skipping what it was meant to run (.ci/run installs every tool the suite needs).
"""

from __future__ import annotations

import os
import shutil

import pytest


def require(tool: str, install: str) -> str:
    """The path of ``tool``; skip (fail under CI=true) when it is not installed."""
    path = shutil.which(tool)
    if path is None:
        message = f"{tool} is not installed ({install})"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return path
