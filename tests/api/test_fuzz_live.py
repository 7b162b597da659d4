"""Schema-driven fuzzing against a real gunicorn on loopback (schemathesis).

The same checks as the in-process run (tests/api/test_fuzz.py), over real HTTP: every
response documented, no 5xx, schema-violating requests refused. Positive and negative
cases for every operation. CI runs a short pass; GOSTOP_FUZZ_LIVE_EXAMPLES=1000 runs the
long one (RELIABILITY.md).
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation.modes import GenerationMode

from bench.server import Server
from tests_support import FUZZ_CHECKS

pytestmark = [pytest.mark.slow, pytest.mark.packed]  # no 5xx, no broken schema: no figure
EXAMPLES = int(os.environ.get("GOSTOP_FUZZ_LIVE_EXAMPLES", "12"))


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_endpoint_survives_fuzzing_over_http(mode: GenerationMode) -> None:
    with Server({"GOSTOP_ACCESS_LOG": "0"}) as server:
        schema = schemathesis.openapi.from_url(server.base + "/v1/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 9
        fuzzed = 0
        for operation in operations:

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                derandomize=True,
                suppress_health_check=list(HealthCheck),
                database=None,
            )
            def fuzz(case: schemathesis.Case) -> None:
                case.call_and_validate(checks=FUZZ_CHECKS)

            try:
                fuzz()
            except Unsatisfiable:
                # Nothing to break in a GET without parameters: no negative case exists.
                assert mode is GenerationMode.NEGATIVE
                continue
            fuzzed += 1
        assert fuzzed >= 5
        assert server.process.poll() is None, "the server died under fuzzing"
