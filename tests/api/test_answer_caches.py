"""The parts of an answer serialized once and kept by value (calculator/api/serialize.py:
a winner's steps, a payment's sentence and steps, a pile's items and counts) answer as
the same parts made afresh, are used, and stay bounded."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from bench.corpus import corpus
from calculator.api import serialize
from calculator.api.schemas import load_hand_request, resolve_spec
from calculator.explain import LANGUAGES
from calculator.presets import Variant
from calculator.result import HandResult
from calculator.settlement import settle

CACHES: tuple[dict[Any, Any], ...] = (
    serialize._STEPS,
    serialize._EXPLAINED,
    serialize._ITEMS,
    serialize._COUNTS,
)
SHAPES = [serialize.Shape(), serialize.Shape(LANGUAGES), serialize.Shape(("en",))]


def _clear() -> None:
    for cache in CACHES:
        cache.clear()


def _results() -> list[HandResult]:
    """Hands of the seeded corpus (listed and tallied piles, 2 and 3 players, nagari
    streaks, go, shakes, bombs, liable losers…), scored."""
    found = []
    for body in corpus(80, players=3) + corpus(40, players=2):
        request = load_hand_request(body)
        rules = resolve_spec(request.ruleset, Variant.GOSTOP, ("ruleset",))
        found.append(settle(request.hand, rules))
    return found


RESULTS = _results()


@pytest.mark.parametrize("shape", SHAPES, ids=lambda shape: "+".join(shape.langs))
def test_a_cached_answer_is_the_answer_made_afresh(shape: serialize.Shape) -> None:
    _clear()
    first = [orjson.dumps(serialize.hand_json(result, (), shape)) for result in RESULTS]
    again = [orjson.dumps(serialize.hand_json(result, (), shape)) for result in RESULTS]
    fresh = []
    for result in RESULTS:
        _clear()  # nothing kept: every part made for this answer alone
        fresh.append(orjson.dumps(serialize.hand_json(result, (), shape)))
    assert first == again == fresh


def test_the_kept_parts_are_used() -> None:
    _clear()
    result = next(r for r in RESULTS if r.winner_score is not None and r.payments)
    serialize.hand_json(result)
    sizes = [len(cache) for cache in CACHES]
    assert all(sizes), sizes  # every kind of part was kept…
    payment = result.payments[0]
    text, _steps = serialize._explained(payment, result.stake, serialize.DEFAULT_SHAPE.langs)
    serialize.hand_json(result)
    assert [len(cache) for cache in CACHES] == sizes  # …and found again, not made twice
    again, _ = serialize._explained(payment, result.stake, serialize.DEFAULT_SHAPE.langs)
    assert again is text


def test_each_cache_is_emptied_when_full() -> None:
    _clear()
    counts = [r.counts for result in RESULTS for r in result.players if r.counts is not None]
    distinct = list(dict.fromkeys(counts))
    serialize._COUNTS.update(
        {("filler", i): orjson.Fragment(b"0") for i in range(serialize._CACHED - 1)}
    )
    for value in distinct[:3]:
        serialize.counts_json(value)
    assert len(serialize._COUNTS) <= serialize._CACHED
    assert len(serialize._COUNTS) < 10  # emptied once full, then refilled
    _clear()
