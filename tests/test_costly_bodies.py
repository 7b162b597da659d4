"""Worst-case bodies cost a bounded amount of work, counted rather than timed (issue #12 §3).

Each body of ``tests/data/costly_bodies.py`` goes through the app under cProfile, and the
number of Python function calls it causes is held under a budget: a hand's body (64 KiB)
may cost what scoring a few dozen hands does, a batch or session body (4 MiB) what a
thousand hands do — both far under a second of CPU (about nine million calls per second
on the plain build). Before the bounds (commit 8a8a24d) the budgets failed: 64 KiB of
misspelt option names cost 13.9 million calls, 180 misspelt card IDs 371,000, a 16-player
settlement 724,000, a batch item of 426,000 unknown fields 12.4 million, a session whose
1,000 hands each carry their own options 25 million.

Calls are not all the work (a loop inside one function, or C code, counts once), so the
bodies that would cost most in such loops also assert what they answer.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path
from typing import Any

import pytest

from calculator.api import create_app

sys.path.insert(0, str(Path(__file__).parent / "data"))
from costly_bodies import BATCH_LIMIT, BODIES

HAND_BUDGET = 200_000
LARGE_BUDGET = 8_000_000
SLOW = {"batch_misspelt_cards", "batch_misspelt_options_in_every_hand", "batch_every_compare_with"}
EXPECTED = {  # what the answer is: the bound must not come from refusing everything
    "hand_every_compare_with": 200,
    # its answer could pass max_answer_bytes: refused before any hand is scored
    "batch_every_compare_with": 422,
    "settlement_sixteen_players": 200,
    "settlement_many_hands": 200,
    "hand_misspelt_options": 422,
    "hand_unknown_fields": 422,
    "hand_misspelt_cards": 422,
}


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app({"access_log": False})


def _count(app: Any, name: str) -> tuple[int, Any, int]:
    request = BODIES[name]()
    client = app.test_client()
    profile = cProfile.Profile()
    profile.enable()
    response = client.open(
        request.path, method=request.method, data=request.body, content_type="application/json"
    )
    profile.disable()
    return pstats.Stats(profile).total_calls, response, len(request.body or b"")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in BODIES],
)
def test_a_costly_body_costs_a_bounded_number_of_calls(app: Any, name: str) -> None:
    calls, response, size = _count(app, name)
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if name in EXPECTED:
        assert response.status_code == EXPECTED[name]
    budget = HAND_BUDGET if size <= 64 * 1024 else LARGE_BUDGET
    assert size <= BATCH_LIMIT
    assert calls <= budget, f"{name}: {calls} calls"


def test_the_batch_of_different_options_is_refused_past_the_rule_set_limit() -> None:
    """The ~94 s batch of issue #11: its first hands are scored, the rest are refused.
    (Its answer could pass the default answer limit, which would refuse it whole.)"""
    roomy = create_app({"access_log": False, "max_answer_bytes": 10**9})
    _calls, response, _size = _count(roomy, "batch_different_options")
    body = response.get_json()
    assert body["succeeded"] == 2
    codes = {e["code"] for r in body["results"][2:] for e in r["problem"]["errors"]}
    assert codes == {"too_many_rulesets"}


def test_an_object_of_many_unknown_fields_is_refused_at_once(app: Any) -> None:
    """Before: 320,000 unknown fields answered 60 MB and left a worker at 400 MiB. The
    batch item is now over one hand's body limit (a 413 for it, unread); a hand body of
    unknown fields lists 50 problems and counts the rest."""
    _calls, response, _size = _count(app, "batch_unknown_fields")
    item = response.get_json()["results"][0]
    assert item["status"] == 413
    assert [e["code"] for e in item["problem"]["errors"]] == ["body_too_large"]
    assert len(response.data) < 2_000
    _calls, response, _size = _count(app, "hand_unknown_fields")
    errors = response.get_json()["errors"]
    assert len(errors) == 50
    assert errors[-1]["code"] == "too_many_problems"
    assert len(response.data) < 20_000
