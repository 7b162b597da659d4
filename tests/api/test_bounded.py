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


HANDS = "/v1/gostop/hands"


def _errors(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 422, response.get_data(as_text=True)
    return response.get_json()["errors"]


def test_an_options_object_with_more_names_than_options_is_refused_at_once(client: Any) -> None:
    """Regression (issue #12 §2): 2,550 misspelt names cost a difflib search each (~2 s)."""
    options = {f"bomb_multiplie{i}": 1 for i in range(2550)}
    errors = _errors(client.post(HANDS, json={**W13, "ruleset": {"options": options}}))
    assert [(e["pointer"], e["code"]) for e in errors] == [("/ruleset/options", "too_many_options")]
    assert "2550 options" in errors[0]["detail"]


def test_problems_stop_being_listed_after_fifty(client: Any) -> None:
    """Regression: 4 players × 60 misspelt card IDs listed 240 problems, each searched."""
    players = [
        {"id": pid, "captured": [f"{m:02d}-brihgt-{i}" for m in range(1, 13) for i in range(5)]}
        for pid in "ABC"
    ]
    errors = _errors(client.post(HANDS, json={**W13, "players": players}))
    assert len(errors) == 51
    assert errors[-1]["code"] == "too_many_problems"
    assert "130 more" in errors[-1]["detail"]
    suggested = [e for e in errors if "did you mean" in e["detail"]]
    assert len(suggested) == 5  # the request's whole "did you mean" budget


def test_schema_problems_stop_being_listed_after_fifty(client: Any) -> None:
    """Regression: 320,000 unknown fields answered 60 MB (one error each, built by
    marshmallow before anything could cut the list)."""
    errors = _errors(client.post(HANDS, json={**W13, **{f"field{i}": 1 for i in range(500)}}))
    assert len(errors) == 50
    assert errors[-1] == {
        "pointer": "",
        "code": "too_many_problems",
        "detail": "and 451 more unknown fields",
    }
    many = {**W13, "players": [{**W13["players"][0], **{f"f{i}": 1 for i in range(30)}}] * 3}
    errors = _errors(client.post(HANDS, json=many))
    assert len(errors) == 51  # 90 unknown fields in three objects: 50 listed, then the count
    assert errors[-1]["code"] == "too_many_problems"
    assert "40 more" in errors[-1]["detail"]


def test_the_suggestion_budget_is_shared_by_a_whole_batch(client: Any) -> None:
    hand = {
        **W13,
        "players": [{**W13["players"][0], "captured": ["01-brihgt"]}, *W13["players"][1:]],
    }
    body = client.post(BATCH, json={"hands": [hand] * 20}).get_json()
    details = [e["detail"] for r in body["results"] for e in r["problem"]["errors"]]
    assert len(details) == 20
    assert sum("did you mean '01-bright'" in d for d in details) == 5


def test_echoed_bad_values_are_cut(client: Any) -> None:
    long = "x" * 5000
    for options, where in (({long: 1}, ""), ({"go_formula": long}, "/go_formula")):
        errors = _errors(client.post(HANDS, json={**W13, "ruleset": {"options": options}}))
        assert [e["pointer"] for e in errors] == ["/ruleset/options" + where]
        assert len(errors[0]["detail"]) < 300
        assert "(5000 characters)" in errors[0]["detail"]


def test_past_the_deadline_a_batch_or_settlement_is_a_503_with_retry_after(client: Any) -> None:
    """Issue #12: a request deadline inside the app, checked per batch item and per
    settlement hand — past it a problem+json 503 with Retry-After, never a killed worker.
    A deadline of 0 s has passed before the first item."""
    from calculator.api import create_app
    from calculator.api.examples import SETTLEMENT_EXAMPLES

    late = create_app({"access_log": False, "request_deadline": 0})
    late.test_client_class = type(client)  # responses checked against the document
    for path, body in (
        ("/v1/gostop/hands/batch", {"hands": [W13, W13]}),
        ("/v1/settlements", next(iter(SETTLEMENT_EXAMPLES.values()))["value"]),
    ):
        response = late.test_client().post(path, json=body)
        assert response.status_code == 503, path
        assert response.mimetype == "application/problem+json"
        assert response.headers["Retry-After"] == "5"
        assert response.get_json()["errors"][0]["code"] == "deadline_exceeded"
    assert client.post("/v1/gostop/hands/batch", json={"hands": [W13, W13]}).status_code == 200
