"""The fast load path agrees with marshmallow's full load (calculator/api/fields.py).

Whatever the fast path accepts, the full load accepts too, with an equal result. The
inputs are valid requests and random mutations of them: values of every JSON type put
anywhere, keys removed or added.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from bench.corpus import corpus
from calculator.api.examples import BALANCE_EXAMPLES, HAND_EXAMPLES, SETTLEMENT_EXAMPLES
from calculator.api.fields import Fallback
from calculator.api.schemas import HandRequestSchema
from calculator.api.session_schemas import BalanceRequestSchema, SettlementRequestSchema

HANDS = [e["value"] for e in HAND_EXAMPLES.values()] + corpus(20, seed=3)
CASES = (
    [(HandRequestSchema(), body) for body in HANDS]
    + [(BalanceRequestSchema(), e["value"]) for e in BALANCE_EXAMPLES.values()]
    + [(SettlementRequestSchema(), e["value"]) for e in SETTLEMENT_EXAMPLES.values()]
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["01-bright", "standard", "stop", "A", "auto", ""]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _containers(value: Any, path: tuple = ()) -> list[tuple]:
    found = []
    if isinstance(value, dict | list):
        found.append(path)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            found += _containers(child, (*path, key))
    return found


def _at(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


@st.composite
def mutated(draw: st.DrawFn) -> tuple[Any, Any]:
    schema, body = draw(st.sampled_from(CASES))
    body = copy.deepcopy(body)
    for _ in range(draw(st.integers(0, 3))):
        paths = _containers(body)
        if not paths:
            break
        target = _at(body, draw(st.sampled_from(paths)))
        action = draw(st.sampled_from(["set", "delete", "add"]))
        if isinstance(target, dict):
            keys = list(target)
            if action == "delete" and keys:
                del target[draw(st.sampled_from(keys))]
            elif action == "add" or not keys:
                target[draw(st.text(max_size=8))] = draw(json_values)
            else:
                target[draw(st.sampled_from(keys))] = draw(json_values)
        elif target:
            index = draw(st.integers(0, len(target) - 1))
            if action == "delete":
                del target[index]
            else:
                target[index] = draw(json_values)
    return schema, body


@settings(max_examples=1500, deadline=None)
@given(case=mutated())
def test_the_fast_path_accepts_only_what_marshmallow_accepts_with_the_same_result(
    case: tuple[Any, Any],
) -> None:
    schema, body = case
    try:
        fast = schema.fast_load(copy.deepcopy(body))
    except Fallback:
        return
    try:
        slow = schema.load(copy.deepcopy(body))
    except ValidationError as error:
        msg = f"fast path accepted what the schema refuses: {error.messages}"
        raise AssertionError(msg) from None
    assert fast == slow


def test_every_valid_request_takes_the_fast_path() -> None:
    for schema, body in CASES:
        assert schema.fast_load(copy.deepcopy(body)) == schema.load(copy.deepcopy(body))
