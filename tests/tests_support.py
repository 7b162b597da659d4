"""Shared test data and helpers."""

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from hypothesis import settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

# Every response documented, no 5xx, schema-violating requests refused. A schema-valid
# request may still get its documented 422 (an impossible hand), so "schema-valid means
# accepted" is not among them.
FUZZ_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    unsupported_method,
    allow_header_conformance,
]


def examples(full: int) -> int:
    """A property test's max_examples: ``full`` at full depth, scaled by the loaded profile
    (tests/conftest.py: a third in the default run, all of it under gostop-deep)."""
    return max(1, full * settings.default.max_examples // 100)


# docs/rules.md W13 as a request body: A stops with three brights; C, with no bright, pays 광박.
W13 = {
    "players": [
        {"id": "A", "captured": ["01-bright", "03-bright", "08-bright", "02-junk-1", "04-junk-1"]},
        {"id": "B", "captured": ["12-bright", "06-junk-1", "07-junk-1"]},
        {"id": "C", "captured": ["05-junk-1", "09-junk-1"]},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}

# A stops with three brights (3 points); B and C captured nothing.
THREE_BRIGHTS = {
    "players": [
        {"id": "A", "captured": ["01-bright", "03-bright", "08-bright"]},
        {"id": "B", "captured": []},
        {"id": "C", "captured": []},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}

ROOT = Path(__file__).parents[1]


def run_quick(module: str, *flags: str) -> str:
    """Run ``python -m <module> --quick [flags]`` from the repository root; its output, if it
    passed."""
    done = subprocess.run(
        [sys.executable, "-m", module, "--quick", *flags],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def load_tool(name: str) -> ModuleType:
    """``tools/<name>.py`` (a script, not a package module), loaded for its tests."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
