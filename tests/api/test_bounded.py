"""Bounded work through the API (issues #11 item 8 and #12 §2)."""

from __future__ import annotations

from typing import Any

from calculator.presets import MAX_RULESETS
from tests_support import W13

BATCH = "/v1/gostop/hands/batch"


def _ruleset(points: int) -> dict[str, Any]:
    return {"preset": "standard", "options": {"godori_points": points}}


def test_a_batch_names_at_most_so_many_distinct_rule_sets(client: Any) -> None:
    """Regression: each hand's own options rebuilt the tables (~94 s for one 789 KiB batch)."""
    hands = [
        {**W13, "ruleset": _ruleset(6 * i), "compare_with": [_ruleset(6 * i + j) for j in (1, 2)]}
        for i in range(8)
    ]
    body = client.post(BATCH, json={"hands": hands}).get_json()
    ok = MAX_RULESETS // 3
    assert [r["status"] for r in body["results"]] == [200] * ok + [422] * (len(hands) - ok)
    error = body["results"][ok]["problem"]["errors"][0]
    assert error["code"] == "too_many_rulesets"
    assert error["pointer"] == f"/hands/{ok}/compare_with/{MAX_RULESETS - 3 * ok - 1}"
    assert str(MAX_RULESETS) in error["detail"]


def test_a_batch_may_repeat_its_rule_sets_freely(client: Any) -> None:
    hands = [{**W13, "ruleset": _ruleset(i % 3), "compare_with": ["wikipedia"]} for i in range(60)]
    body = client.post(BATCH, json={"hands": hands}).get_json()
    assert body["succeeded"] == 60
