"""A batch's answer is bounded before any hand is scored (calculator/api/batch_bounds.py).

The estimator must be an upper bound of every answer it admits: a corpus of worst cases
(40-character player IDs, side events, every compare_with, four players with one sitting
out, bad items with many errors and long unknown field names) is answered, and each item's
entry is held under its bound. Then the refusal at the boundary, and each item's size
limit at its boundary. Counted in bytes, never timed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import orjson
import pytest

from bench.corpus import corpus
from calculator.api import create_app
from calculator.api.batch_bounds import ITEM_PROBLEMS, answer_bound, item_bound, item_sizes
from calculator.api.config import Settings
from tests_support import W13

BATCH = "/v1/gostop/hands/batch"
PRESETS = ["standard", "wikipedia", "gamerules", "kr_gostop", "seed_es"]
SETTINGS = Settings.load()


def _long_ids(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with every player ID 40 characters long (IDs are echoed in every payment)."""
    text = json.dumps(body)
    for player in body["players"]:
        name = player["id"]
        text = text.replace(f'"{name}"', f'"{(name + "-" + "x" * 40)[:40]}"')
    return json.loads(text)  # type: ignore[no-any-return]


def _worst_cases() -> list[Any]:
    rng = random.Random(12)
    items: list[Any] = []
    for n, body in enumerate(corpus(60, seed=12)):
        body = _long_ids(body)
        ids = [p["id"] for p in body["players"]]
        events = rng.choice([0, 1, 2, 4])
        body["events"] = [
            {"type": rng.choice(["first_ppuk", "first_ttadak"]), "player": rng.choice(ids)}
            for _ in range(events)
        ]
        body["compare_with"] = PRESETS[: n % 6]
        items.append(body)
    sitter = {
        **W13,
        "players": [*W13["players"], {"id": "D", "sits_out": True, "sold_brights": 1}],
    }
    items += [_long_ids(sitter), {**_long_ids(sitter), "compare_with": PRESETS}]
    misspelt = [f"{1 + i % 12:02d}-brihgt{i}" for i in range(60)]
    items += [
        {**W13, "players": [{"id": p, "captured": misspelt} for p in "ABC"]},  # many errors
        {**W13, **{f"k{i}" + "~/" * 300: 0 for i in range(40)}},  # long unknown names
        {**W13, "players": [{**p, **{f"f{i}": 0 for i in range(60)}} for p in W13["players"]]},
        {},
        None,
        "x" * 1000,
        {"players": "x" * 4000},
    ]
    return items


@pytest.fixture(scope="module")
def roomy() -> Any:
    """The service with a limit no batch here reaches: every item is answered."""
    return create_app({"access_log": False, "max_answer_bytes": 10**9}).test_client()


def test_every_answer_is_within_its_bound(roomy: Any) -> None:
    items = _worst_cases()
    sizes = item_sizes(items)
    response = roomy.post(BATCH, json={"hands": items})
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert {r["status"] for r in results} == {200, 422}  # both outcomes are covered
    assert any(r["result"].get("comparisons") for r in results if r["status"] == 200)
    for item, size, entry in zip(items, sizes, results, strict=True):
        used = len(orjson.dumps(entry))
        assert used <= item_bound(item, size, SETTINGS), (entry["index"], used)
    assert len(response.data) <= answer_bound(items, sizes, SETTINGS)


def test_a_bad_items_problem_lists_at_most_so_many_errors(roomy: Any) -> None:
    misspelt = [f"{1 + i % 12:02d}-brihgt{i}" for i in range(60)]
    item = {**W13, "players": [{"id": p, "captured": misspelt} for p in "ABC"]}
    alone = roomy.post("/v1/gostop/hands", json=item).get_json()
    assert len(alone["errors"]) == 51  # a single request lists 50, then "and N more"
    problem = roomy.post(BATCH, json={"hands": [item]}).get_json()["results"][0]["problem"]
    assert problem["errors"][:ITEM_PROBLEMS] == [
        {**e, "pointer": "/hands/0" + e["pointer"]} for e in alone["errors"][:ITEM_PROBLEMS]
    ]
    assert len(problem["errors"]) == ITEM_PROBLEMS + 1
    assert problem["errors"][-1]["code"] == "too_many_problems"
    assert problem["errors"][-1]["pointer"] == "/hands/0"


def _app(**settings: Any) -> Any:
    return create_app({"access_log": False, **settings}).test_client()


def test_the_answer_limit_at_its_boundary() -> None:
    items = [{**W13, "compare_with": PRESETS[: i % 3]} for i in range(7)]
    bound = answer_bound(items, item_sizes(items), SETTINGS)
    at_limit = _app(max_answer_bytes=bound).post(BATCH, json={"hands": items})
    assert at_limit.status_code == 200
    assert at_limit.get_json()["succeeded"] == 7
    over = _app(max_answer_bytes=bound - 1).post(BATCH, json={"hands": items})
    assert over.status_code == 422
    problem = over.get_json()
    assert problem["errors"][0]["code"] == "answer_too_large"
    assert problem["errors"][0]["pointer"] == "/hands"
    assert f"up to {bound} bytes; the limit is {bound - 1} bytes" in problem["detail"]
    assert "(the first 6 fit)" in problem["detail"]


def test_an_item_over_one_hands_body_limit_is_a_413_for_that_item() -> None:
    limit = 2000
    base = len(orjson.dumps({**W13, "x": ""}))
    fits = {**W13, "x": "a" * (limit - base)}
    over = {**W13, "x": "a" * (limit - base + 1)}
    assert item_sizes([fits, over]) == [limit, limit + 1]
    body = _app(max_body_bytes=limit).post(BATCH, json={"hands": [fits, over, W13]}).get_json()
    assert [r["status"] for r in body["results"]] == [422, 413, 200]
    assert body["results"][0]["problem"]["errors"][0]["code"] == "unknown_field"  # it was read
    error = body["results"][1]["problem"]["errors"]
    assert error == [
        {
            "pointer": "/hands/1",
            "code": "body_too_large",
            "detail": f"hands[1] is {limit + 1} bytes as JSON; one hand may be at most "
            f"{limit} bytes (the limit of POST /v1/gostop/hands)",
        }
    ]


def test_a_thousand_ordinary_hands_fit_and_every_compare_with_does_not() -> None:
    ordinary = corpus(1000, seed=3)
    assert answer_bound(ordinary, item_sizes(ordinary), SETTINGS) <= SETTINGS.max_answer_bytes
    sitter = {**W13, "players": [*W13["players"], {"id": "D", "sits_out": True}]}
    four = [_long_ids(sitter)] * 1000
    assert answer_bound(four, item_sizes(four), SETTINGS) <= SETTINGS.max_answer_bytes
    every = [{**W13, "compare_with": PRESETS}] * 1000
    assert answer_bound(every, item_sizes(every), SETTINGS) > SETTINGS.max_answer_bytes
