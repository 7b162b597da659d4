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
import sys
from dataclasses import replace
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from bench.corpus import corpus
from calculator.api import create_app
from calculator.api.batch_bounds import (
    ITEM_PROBLEMS,
    NESTING,
    UNBOUNDED,
    Walk,
    answer_bound,
    item_bound,
    item_sizes,
    json_bound,
    refusal,
    size_bounds,
    too_large,
)
from calculator.api.config import Settings
from calculator.api.json_counts import entries
from contract import service_contract
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
    # a published code: in GET /v1/codes and the document's ErrorEntry enum
    service_contract().check(
        method="POST", rule=BATCH, status=422, mimetype=over.mimetype, body=problem
    )
    lists = {found["name"]: found["codes"] for found in _app().get("/v1/codes").get_json()["lists"]}
    assert "answer_too_large" in {found["code"] for found in lists["error"]}


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


# --- each item's size, bounded without writing it (size_bounds) ----------------------------

# what orjson.loads returns: 64-bit integers, finite floats, any string (surrogates refused)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=["Cs"]))
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.text(st.characters(exclude_categories=["Cs"])), inner, max_size=6)
    ),
    max_leaves=40,
)
_LONGEST = [
    '\x00\x1f"\\\x7f',  # escaped: 6, 6, 2, 2 bytes; DEL as it is
    "\u00e9\u4e00\U0001f600",  # 2, 3 and 4 bytes of UTF-8, one character each
    -2.9205048131065683e-196,  # the longest float orjson writes (24 bytes)
    5e-324,
    -1.7976931348623157e308,
    1e15,  # "1000000000000000.0"
    -(2**63),
    2**64 - 1,
    -100,
    1000,
    True,
    False,
    None,
    {"": []},
    [{}, [], ""],
]


@given(_JSON)
@hypothesis_settings(max_examples=300, deadline=None)
def test_a_json_bound_is_never_below_the_size(value: Any) -> None:
    assert json_bound(value) >= len(orjson.dumps(value))


@pytest.mark.parametrize("value", _LONGEST, ids=repr)
def test_the_longest_spellings_are_within_the_bound(value: Any) -> None:
    assert json_bound(value) >= len(orjson.dumps(value))
    assert json_bound([value, value]) >= len(orjson.dumps([value, value]))
    assert json_bound({"k": value}) >= len(orjson.dumps({"k": value}))


def test_the_corpus_and_worst_cases_are_within_their_bounds() -> None:
    items = [*_worst_cases(), *corpus(200, seed=4, players=3, modes="cards")]
    for item, size in zip(items, item_sizes(items), strict=True):
        assert size <= json_bound(item) < 6 * size + 64, item


@pytest.mark.parametrize(
    "value",
    [
        (1, 2),
        2**64,
        -(2**63) - 1,
        {1: "a"},
        {type("S", (str,), {})("x"): 1},
        type("F", (float,), {})(1.5),
        b"x",
    ],
)
def test_what_orjson_loads_never_returns_has_no_bound(value: Any) -> None:
    assert json_bound(value) == UNBOUNDED
    assert json_bound([value]) >= UNBOUNDED


def test_an_item_is_measured_only_past_the_limit_by_its_bound() -> None:
    items = [W13, {**W13, "x": "a" * 599}, {**W13, "x": "\x00" * 600}]
    sizes, bounds = item_sizes(items), [json_bound(item) for item in items]
    largest = bounds[1]
    assert sizes[2] <= largest < bounds[2]  # within the limit, past it by its bound
    assert size_bounds(items, largest) == [bounds[0], bounds[1], sizes[2]]
    assert bounds[0] > sizes[0]  # the bound is what is taken: W13 is not written
    assert size_bounds(items, sizes[2] - 1) == [bounds[0], sizes[1], sizes[2]]


def test_a_batch_is_decided_on_its_sizes_when_its_bounds_do_not_fit() -> None:
    # the unknown field's string makes the problem (its size twice) each item's bound
    items = [{**W13, "x": "a" * 3000}, W13]
    exact = answer_bound(items, item_sizes(items), SETTINGS)
    assert answer_bound(items, size_bounds(items, SETTINGS.max_body_bytes), SETTINGS) > exact
    at_limit = _app(max_answer_bytes=exact).post(BATCH, json={"hands": items})
    assert [r["status"] for r in at_limit.get_json()["results"]] == [422, 200]
    over = _app(max_answer_bytes=exact - 1).post(BATCH, json={"hands": items})
    assert over.status_code == 422
    assert f"up to {exact} bytes; the limit is {exact - 1} bytes" in over.get_json()["detail"]
    assert "(the first 1 fit)" in over.get_json()["detail"]


def test_a_batch_over_the_limit_by_its_bounds_measures_items_only_until_it_fits() -> None:
    # the first item alone brings the bound under the limit once measured: the other
    # items keep their bounds (a batch near the limit no longer pays for every item twice)
    items = [{**W13, "x": "a" * 3000}, W13, W13]
    bounds = size_bounds(items, SETTINGS.max_body_bytes)
    exact = item_sizes(items)
    first = answer_bound(items, [exact[0], *bounds[1:]], SETTINGS)
    settings = replace(SETTINGS, max_answer_bytes=first)
    assert answer_bound(items, bounds, SETTINGS) > first
    with _CONTEXT.test_request_context():
        assert refusal(items, settings) == ([exact[0], *bounds[1:]], None)


def _nested(depth: int) -> Any:
    item: Any = []
    for _ in range(depth - 1):
        item = [item]
    return item


def test_json_bound_stops_where_orjson_stops_writing() -> None:
    written = _nested(NESTING)
    assert json_bound(written) >= len(orjson.dumps(written))
    assert item_sizes([written]) == [2 * NESTING]
    deeper = _nested(NESTING + 1)
    with pytest.raises(orjson.JSONEncodeError):
        orjson.dumps(deeper)
    assert json_bound(deeper) >= UNBOUNDED
    assert item_sizes([deeper]) == [UNBOUNDED]


@pytest.mark.parametrize("depth", [NESTING + 1, 1000])
@pytest.mark.parametrize("others", [0, 998])
def test_an_item_nested_deeper_than_orjson_writes_is_refused_unread(
    depth: int, others: int
) -> None:
    """orjson reads 1,024 levels but writes 254: such an item (no hand) is a 400 of its
    own, alone or among items that make the batch measured (regression: a 500 from the
    measure; a RecursionError from the bound, pure Python)."""
    text = "[" * depth + "]" * depth  # what orjson cannot write, written by hand
    body = '{"hands":[' + ",".join([text, *['"' + "x" * 800 + '"'] * others, "{}"]) + "]}"
    answer = _app().post(BATCH, data=body, content_type="application/json")
    assert answer.status_code == 200
    results = answer.get_json()["results"]
    assert [r["status"] for r in results[:: others + 1]] == [400, 422]
    detail = (
        f"hands[0] is nested more than {NESTING} levels deep; a hand is a JSON object a few "
        "levels deep"
    )
    assert results[0]["problem"]["detail"] == detail
    assert results[0]["problem"]["errors"] == [
        {"pointer": "/hands/0", "code": "malformed_json", "detail": detail}
    ]


_CONTEXT = create_app({"access_log": False})
_ITEM = st.sampled_from([W13, None, {}, "x" * 50]) | st.builds(
    lambda text, n: {**W13, "x": text * n},
    st.sampled_from(["a", "\x00", "\u00e9", '"']),
    st.integers(min_value=0, max_value=900),
)


@given(
    st.lists(_ITEM, min_size=1, max_size=6),
    st.integers(min_value=100, max_value=6000),
    st.integers(min_value=0, max_value=60_000),
)
@hypothesis_settings(max_examples=150, deadline=None)
def test_refusal_decides_as_the_sizes_do(items: list[Any], largest: int, limit: int) -> None:
    settings = replace(SETTINGS, max_body_bytes=largest, max_answer_bytes=limit)
    exact = item_sizes(items)
    with _CONTEXT.test_request_context():  # a problem's text is in the request's language
        sizes, refused = refusal(items, settings)
        assert refused == too_large(items, exact, settings)
    for size, measured in zip(sizes, exact, strict=True):
        assert size >= measured
        assert (size > largest) == (measured > largest)
        assert size == measured or size <= largest  # an oversized item's size is its own


# --- one walk of a batch body for its entries and its items' bounds (Walk) ----------------


def _walked(document: Any) -> tuple[int, list[int] | None]:
    walk = Walk()
    return walk.entries(document), walk.bounds


def _as_entries_and_bounds(document: Any) -> tuple[int, list[int] | None]:
    """What Walk must answer: json_counts.entries, and json_bound of each item of a
    batch's shape (None for another shape)."""
    batch = type(document) is dict and list(document) == ["hands"]
    batch = batch and isinstance(document["hands"], list)
    return entries(document), [json_bound(i) for i in document["hands"]] if batch else None


@given(st.lists(_JSON, max_size=8))
@hypothesis_settings(max_examples=300, deadline=None)
def test_a_walk_of_a_batch_counts_as_entries_and_bounds_as_json_bound(items: list[Any]) -> None:
    document = {"hands": items}
    assert _walked(document) == _as_entries_and_bounds(document)


@given(_JSON)
@hypothesis_settings(max_examples=200, deadline=None)
def test_a_walk_of_any_other_body_counts_as_entries(document: Any) -> None:
    assert _walked(document) == _as_entries_and_bounds(document)


@pytest.mark.parametrize(
    "items",
    [
        [_nested(depth) for depth in range(NESTING - 4, NESTING + 2)],
        [{"a": _nested(depth), "b": [{"c": "d"}]} for depth in range(NESTING - 5, NESTING + 1)],
        [W13, _nested(NESTING - 2), W13],  # one item deep enough to make entries -1
        [(1, 2), 2**64, {1: "a"}, {"k": -(2**63) - 1}, type("F", (float,), {})(1.5), b"x"],
        # bounds past 2**63 (UNBOUNDED a few times in one item): no native integer holds them
        [[(1, 2), (3, 4), 2**64], {"a": _nested(NESTING + 1), "b": _nested(NESTING + 1)}],
        [W13, None, "x" * 50, 3, [], {}],
        [],
    ],
    ids=["deep", "deep-in-objects", "one-deep", "unbounded", "unbounded-often", "scalars", "empty"],
)
def test_a_walk_is_exact_where_either_count_stops(items: list[Any]) -> None:
    """Near NESTING (entries stops two levels before json_bound does, the items being two
    levels down), and on values json_bound does not bound: each function's answer."""
    for document in ({"hands": items}, {"hands": items, "other": 1}, [items], items):
        assert _walked(document) == _as_entries_and_bounds(document)


def test_the_batch_endpoint_decides_on_the_walks_bounds(monkeypatch: Any) -> None:
    """The batch's refusal gets the bounds measured while its entries were counted (the
    shortcut is taken), and they are each item's json_bound."""
    from calculator.api import batch_bounds

    given: list[Any] = []
    real = batch_bounds.refusal

    def spy(items: list[Any], settings: Settings, bounds: list[int] | None = None) -> Any:
        given.append((list(items), bounds))  # the batch lets each item go once scored
        return real(items, settings, bounds)

    monkeypatch.setattr(batch_bounds, "refusal", spy)
    items = [W13, {**W13, "x": "a" * 3000}, None, [1, {"a": "b"}]]
    answer = _app().post(BATCH, json={"hands": items})
    assert answer.status_code == 200
    ((seen, bounds),) = given
    assert seen == items
    assert bounds == [json_bound(item) for item in items]


def test_a_name_given_twice_in_a_batch_is_still_refused_at_it() -> None:
    text = '{"hands": [' + json.dumps(W13) + ', {"stake": 1, "players": [], "stake": 2}]}'
    answer = _app().post(BATCH, data=text, content_type="application/json")
    assert answer.status_code == 400
    assert answer.get_json()["errors"][0]["pointer"] == "/hands/1/stake"


def test_a_batch_lets_each_hand_go_once_scored(monkeypatch: Any) -> None:
    """Once a hand of a batch is scored, nothing of the request holds its parsed body any
    more (score_items lets it go, and the loader's wrapper keeps no name for the body):
    its objects are freed while the batch runs. Each hand is still answered, in order."""
    from calculator.api import score_requests

    load = score_requests.load_hand_request
    previous: list[Any] = []
    holders: list[int] = []

    def spy(item: Any) -> Any:
        if previous:  # the hand before, popped: getrefcount's argument holds it alone
            holders.append(sys.getrefcount(previous.pop()))
        previous.append(item)
        return load(item)

    monkeypatch.setattr(score_requests, "load_hand_request", spy)
    hands = [W13, W13, W13, {**W13, "stake": "x"}]
    answer = _app().post(BATCH, json={"hands": hands})
    assert answer.status_code == 200
    body = answer.get_json()
    assert [entry["index"] for entry in body["results"]] == [0, 1, 2, 3]
    assert (body["succeeded"], body["failed"]) == (3, 1)
    assert holders == [1, 1, 1]  # each scored hand's body, once the next one is read


def test_score_items_writes_the_entries_past_its_kept_openings_whole() -> None:
    """score_items keeps a scored entry's opening for the first 1,024 indexes (a batch
    holds at most 1,000 hands); called with more items, each later entry is written
    whole: the same JSON, its own index."""
    from calculator.api import score_requests, serialize

    count = len(score_requests._RESULT_OPENINGS) + 2
    out: list[bytes] = []
    failed, _seen = score_requests.score_items(
        [dict(W13) for _ in range(count)],
        [0] * count,  # each within one hand's body limit
        Settings(),
        serialize.DEFAULT_SHAPE,
        lambda: None,
        out,
    )
    results = orjson.loads(b"".join(out))
    assert failed == 0
    assert [entry["index"] for entry in results] == list(range(count))
    assert results[-1] == {**results[0], "index": count - 1}
