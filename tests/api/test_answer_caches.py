"""The parts of an answer serialized once and kept by value (calculator/api/serialize.py:
a winner's steps, a payment's sentence and steps, a pile's items and counts) answer as
the same parts made afresh, are used, and stay bounded."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from bench.corpus import corpus
from calculator import GoStopError
from calculator.api import serialize
from calculator.api.schemas import load_hand_request, resolve_spec
from calculator.api.views import score_hand
from calculator.explain import LANGUAGES
from calculator.presets import Variant
from calculator.settlement import settle
from golden import golden_corpus

CACHES: tuple[dict[Any, Any], ...] = (
    serialize._STEPS,
    serialize._EXPLAINED,
    serialize._ITEMS,
    serialize._COUNTS,
)
SHAPES = [serialize.Shape(), serialize.Shape(LANGUAGES), serialize.Shape(("en",))]
CHIP_PRICES = {"ppuk_chips": 30, "ttadak_chips": 30, "gwangpal_chips": 30}


def _bodies() -> list[dict[str, Any]]:
    """The golden corpus (stops, nagari streaks, instant wins, side events, sitters
    selling brights, declared piles), and its hands with side payments again under side
    prices in chips."""
    found = golden_corpus()
    for body in list(found):
        if body.get("events") or len(body["players"]) == 4:
            found.append({**body, "ruleset": {"preset": "standard", "options": CHIP_PRICES}})
    return found


BODIES = _bodies()
RESULTS = [
    settle(request.hand, resolve_spec(request.ruleset, Variant.GOSTOP, ("ruleset",)))
    for request in map(load_hand_request, corpus(40, players=3))
]


def _clear() -> None:
    for cache in CACHES:
        cache.clear()


def _answer(body: dict[str, Any], shape: serialize.Shape) -> bytes:
    try:
        return orjson.dumps(score_hand(body, shape=shape))
    except GoStopError as error:  # a refused hand: nothing kept
        return repr(error).encode()


def test_the_corpus_has_what_the_keys_tell_apart() -> None:
    """The bodies pay in points and in chips, for several reasons, at several stakes."""
    _clear()
    answers = [score_hand(body) for body in BODIES if _answer(body, SHAPES[0])[:1] == b"{"]
    paid = [payment for answer in answers for payment in answer["payments"]]
    assert {payment.get("priced_in", "points") for payment in paid} == {"points", "chips"}
    assert len({payment["reason"] for payment in paid}) >= 4
    assert len({answer["stake"] for answer in answers}) >= 3


@pytest.mark.parametrize("shape", SHAPES, ids=lambda shape: "+".join(shape.langs))
def test_a_cached_answer_is_the_answer_made_afresh(shape: serialize.Shape) -> None:
    _clear()
    first = [_answer(body, shape) for body in BODIES]
    again = [_answer(body, shape) for body in BODIES]
    fresh = []
    for body in BODIES:
        _clear()  # nothing kept: every part made for this answer alone
        fresh.append(_answer(body, shape))
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
