"""The fast load path agrees exactly with marshmallow's full load (calculator/api/strict_schema.py).

For every input, either both accept it with equal results, or the fast path falls back
(``Fallback``) and the full load refuses it: the fast path takes every valid request, and
accepts nothing else. The inputs are valid requests, each field of them set to its
boundary values (minimum and maximum and one beyond, lengths 0/1/max/max+1, empty and
full lists and one item more, null, a missing key), and random mutations: values of every
JSON type put anywhere, keys removed or added.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError, fields

from bench.corpus import corpus
from calculator.api.examples import BALANCE_EXAMPLES, HAND_EXAMPLES, SETTLEMENT_EXAMPLES
from calculator.api.fields import Fallback, StrictBoolean, StrictInteger, StrictList, StrictString
from calculator.api.hand_requests import BY_NAME, spec_by_name
from calculator.api.json_values import REFUSED_CHAR
from calculator.api.ruleset_schemas import RulesetField, _ruleset_object
from calculator.api.schemas import (
    HAND_SCHEMA,
    BatchRequestSchema,
    HandRequest,
    HandRequestField,
    HandRequestSchema,
    PlayerSchema,
    RulesetSpec,
)
from calculator.api.session_schemas import (
    MAX_SESSION_PLAYERS,
    BalanceRequestSchema,
    NetMap,
    SettlementRequestSchema,
)
from calculator.api.strict_schema import StrictNested, StrictSchema
from calculator.api.table_schemas import ReasonSchema
from calculator.cards import all_card_ids
from calculator.hand import Event, EventType, Hand, Outcome, OutcomeType, PlayerHand
from tests_support import examples

# Every optional part of a hand request at once (valid for the schema, not for the rules).
EVERYTHING = {
    "ruleset": {"preset": "standard", "options": {}},
    "stake": 5,
    "nagari_streak": 1,
    "dealer": "A",
    "players": [
        {"id": "A", "captured": ["01-bright"], "go_count": 1, "gukjin": "animal"},
        {"id": "B", "tally": {"brights": 1, "junk_cards": 2, "double_junks": 1}},
        {"id": "C", "declared": {"points": 3, "scored": ["brights"], "pi_bak": True}},
        {"id": "D", "sits_out": True, "sold_brights": 1, "hand": ["02-bright"]},
    ],
    "outcome": {"type": "chongtong", "holders": [{"player": "A", "month": 1}]},
    "events": [{"type": "first_ppuk", "player": "A"}],
    "compare_with": ["standard", {"preset": "standard", "options": {}}],
}
HANDS = [e["value"] for e in HAND_EXAMPLES.values()] + [EVERYTHING]
BALANCES = [e["value"] for e in BALANCE_EXAMPLES.values()]
BALANCES.append({**BALANCES[0], "ruleset": {"preset": "balance", "options": {}}})
SETTLEMENTS = [e["value"] for e in SETTLEMENT_EXAMPLES.values()]
SETTLEMENTS.append({**SETTLEMENTS[0], "rounding": {"unit": 10, "absorber": "A"}})
# A void of a table's hand: its reason (a correction's is the same field) is refused blank
CHANGES = [(ReasonSchema(), {"reason": "entered twice"})]
EXAMPLES = (
    [(HandRequestSchema(), body) for body in HANDS]
    + [(BalanceRequestSchema(), body) for body in BALANCES]
    + [(SettlementRequestSchema(), body) for body in SETTLEMENTS]
    + [(BatchRequestSchema(), {"hands": [HANDS[0], None, 3]})]
    + CHANGES
)
CASES = EXAMPLES + [(EXAMPLES[0][0], body) for body in corpus(20, seed=3)]

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


def agree(schema: StrictSchema, body: Any) -> bool:
    """Assert that both paths answer alike; True when the body is valid."""
    try:
        slow = schema.load(copy.deepcopy(body))
    except ValidationError:
        try:
            fast = schema.fast_load(copy.deepcopy(body))
        except Fallback:
            return False
        msg = f"the fast path accepted what the schema refuses: {body!r} → {fast!r}"
        raise AssertionError(msg) from None
    try:
        fast = schema.fast_load(copy.deepcopy(body))
    except Fallback:
        raise AssertionError(f"valid input fell back to the slow path: {body!r}") from None
    assert fast == slow
    return True


@settings(max_examples=examples(1000), deadline=None)
@given(case=mutated())
def test_the_fast_path_and_marshmallow_agree_on_mutated_requests(case: tuple[Any, Any]) -> None:
    agree(*case)


DELETE = object()  # an edit that removes the key


def _sample(field: fields.Field[Any]) -> Any:
    """A valid value of ``field`` (to fill lists)."""
    if isinstance(field, StrictString):
        return field.choices[0] if field.choices else min(field.known, default="a")
    if isinstance(field, StrictInteger):
        return field.minimum
    if isinstance(field, RulesetField):
        return "standard"
    return True if isinstance(field, StrictBoolean) else {}


def boundaries(field: fields.Field[Any], current: Any) -> list[Any]:
    """The values at and just past each limit of ``field``, null, and a wrong type."""
    if isinstance(field, StrictInteger):
        low, high = field.minimum, field.maximum
        wrong = [low + 0.5, float("inf"), str(low), True]
        return [
            None,
            low - 1,
            low,
            high,
            high + 1,
            float(low),
            float(high),
            float(high + 1),
            *wrong,
        ]
    if isinstance(field, StrictBoolean):
        return [None, True, False, 0, 1, "true"]
    if isinstance(field, StrictString):
        if field.choices:
            first, last = field.choices[0], field.choices[-1]
            return [None, first, last, first + "x", first.upper(), "", 1]
        low, high = field.min_length, field.max_length
        lengths = sorted({0, 1, max(low - 1, 0), low, high, high + 1})
        # control, surrogate, format (refused); no-break space, private use, space (allowed;
        # only the space is printable: the others leave the inline check for the loader)
        odd = ["a\x07", "a\ud800", "a\u200b", "a\u202e", "a\xa0", "a\ue000", "a b"]
        odd += [" " * max(low, 2), " \u3000", " a "]  # blank (refused where not_blank is set)
        return [None, *("a" * n for n in lengths), *odd, 1, ["a"]]
    if isinstance(field, StrictList):
        item = current[0] if current else _sample(field.inner)
        most = field.max_items
        unhashable = [[item, {}], [item, [item]]]  # the inline check's TypeError: a fallback
        sizes = [[], [item], [item] * most, [item] * (most + 1)]
        return [None, *sizes, [None], [item, None], item, *unhashable]
    if isinstance(field, RulesetField):
        return [None, "", "standard", "a" * 64, "a" * 65, {}, {"preset": None}, 3, ["standard"]]
    if isinstance(field, NetMap):
        big = 2**53 - 1  # the most a net may be either way
        players = [{str(i): 0 for i in range(n)} for n in (MAX_SESSION_PLAYERS, 17)]
        chips = [{"A": n} for n in (big, -big, big + 1, -big - 1, None, 1.0, 1.5, True, "1")]
        return [None, {}, *players, *chips, []]
    if isinstance(field, HandRequestField):
        return [None, {}, 3, "hand", []]
    assert isinstance(field, StrictNested), field
    return [None, {}, [], "x"]


def _nested(field: fields.Field[Any], value: Any) -> StrictSchema | None:
    """The schema loading ``value`` for ``field``, when the value is an object to enter."""
    if not isinstance(value, dict):
        return None
    if isinstance(field, RulesetField):
        return _ruleset_object(field.variant)
    if isinstance(field, StrictNested):
        assert isinstance(field.schema, StrictSchema)
        return field.schema
    return None


def edits(schema: StrictSchema, body: dict[str, Any], at: tuple = ()) -> Iterator[tuple]:
    """(path, value) for every field of ``body``, nested fields and list items included."""
    for name, field in schema.load_fields.items():
        key = field.data_key or name
        current = body.get(key)
        yield (*at, key), DELETE
        for value in boundaries(field, current):
            yield (*at, key), value
        nested = _nested(field, current)
        if nested is not None:
            yield from edits(nested, current, (*at, key))
        if isinstance(field, StrictList) and isinstance(current, list):
            for index, item in enumerate(current[:4]):
                for value in boundaries(field.inner, item):
                    yield (*at, key, index), value
                nested = _nested(field.inner, item)
                if nested is not None:
                    yield from edits(nested, item, (*at, key, index))


def edited(body: Any, path: tuple, value: Any) -> Any:
    body = copy.deepcopy(body)
    target = _at(body, path[:-1])
    if value is not DELETE:
        target[path[-1]] = value
    elif path[-1] in target:
        del target[path[-1]]
    return body


@pytest.mark.parametrize(("schema", "body"), EXAMPLES, ids=lambda v: type(v).__name__)
def test_the_fast_path_and_marshmallow_agree_on_every_boundary(
    schema: StrictSchema, body: dict[str, Any]
) -> None:
    valid = [agree(schema, edited(body, path, value)) for path, value in edits(schema, body)]
    # Both kinds are many: the valid ones all took the fast path (no Fallback), and the
    # others all fell back to a refusal.
    assert valid.count(True) >= 3
    assert valid.count(False) >= 3


def test_every_valid_request_takes_the_fast_path() -> None:
    fallbacks = 0
    for schema, body in CASES:
        try:
            assert schema.fast_load(copy.deepcopy(body)) == schema.load(copy.deepcopy(body))
        except Fallback:
            fallbacks += 1
    assert fallbacks == 0


def test_a_whole_float_is_the_integer_on_both_paths_and_takes_the_fast_path() -> None:
    # One rule (fields.whole_number): 2.0 is 2 — loaded as the int, by the fast path too.
    schema = HandRequestSchema()
    body = copy.deepcopy(HANDS[0])
    body["stake"] = 100.0
    body["players"][0]["go_count"] = 2.0
    body["ruleset"] = {"preset": "standard", "options": {"bomb_multiplier": 3.0}}
    fast, full = schema.fast_load(copy.deepcopy(body)), schema.load(copy.deepcopy(body))
    assert fast == full
    assert type(fast.hand.stake) is int
    assert fast.hand.stake == 100
    assert type(fast.hand.players[0].go_count) is int
    assert type(fast.ruleset.options["bomb_multiplier"]) is int
    settlement = SettlementRequestSchema()
    nets = {"players": ["A", "B"], "hands": [{"net": {"A": 5.0, "B": -5}}]}
    assert settlement.fast_load(copy.deepcopy(nets)) == settlement.load(copy.deepcopy(nets))
    assert type(settlement.fast_load(nets)["hands"][0]["net"]["A"]) is int


def test_a_null_batch_item_loads_on_both_paths_to_get_its_own_problem() -> None:
    """As the document says, any item of a batch (null too) is scored, or refused, alone."""
    schema = BatchRequestSchema()
    assert (
        schema.fast_load({"hands": [None]}) == schema.load({"hands": [None]}) == {"hands": [None]}
    )


def test_a_hand_request_loads_every_field_to_its_name_on_both_paths() -> None:
    """``HandRequestSchema.make`` builds ``Hand`` and ``HandRequest`` positionally
    (``_make``, for speed): a body whose every field differs pins each to its name."""
    body = {
        "ruleset": "wikipedia",
        "stake": 7,
        "nagari_streak": 2,
        "dealer": "B",
        "players": [{"id": "A", "captured": ["01-bright"]}, {"id": "B", "captured": []}],
        "outcome": {"type": "stop", "winner": "A", "liable": "B"},
        "events": [{"type": "first_ppuk", "player": "B"}],
        "compare_with": ["standard"],
    }
    expected = HandRequest(
        hand=Hand(
            players=(
                PlayerHand(id="A", captured=("01-bright",)),
                PlayerHand(id="B", captured=()),
            ),
            outcome=Outcome(type=OutcomeType.STOP, winner="A", liable="B"),
            stake=7,
            nagari_streak=2,
            events=(Event(type=EventType.FIRST_PPUK, player="B"),),
            dealer="B",
        ),
        ruleset=RulesetSpec("wikipedia", {}, True),
        compare_with=(RulesetSpec("standard", {}, True),),
        streak_given=True,
    )
    schema = HandRequestSchema()
    assert schema.fast_load(body) == schema.load(body) == expected
    del body["nagari_streak"]
    assert schema.fast_load(body).streak_given is schema.load(body).streak_given is False


def test_a_printable_character_is_one_the_full_check_allows() -> None:
    """The fast path's inline check of a name is ``str.isprintable()``: it must never pass
    a character that StrictString._check refuses (control, surrogate or formatting), on
    whatever Unicode version this Python has. Every code point, checked."""
    refused = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if chr(code).isprintable() and REFUSED_CHAR.search(chr(code))
    ]
    assert not refused


def test_card_lists_are_read_by_the_deck_s_own_check() -> None:
    """A list of card IDs takes the fast path by cards.all_card_ids (no hashing), which
    tests/test_scoring.py holds to ``frozenset(CARDS).issuperset``."""
    for name in ("captured", "hand"):
        field = PlayerSchema().fields[name]
        assert isinstance(field, StrictList)
        assert field.fast_constants() == {"all_known": all_card_ids}
    loaded = HAND_SCHEMA.fast_load(
        {"players": [{"id": "A", "captured": ["01-bright", "bonus-a"]}, {"id": "B"}]}
    )
    assert loaded.hand.players[0].captured == ("01-bright", "bonus-a")


def test_a_batch_s_hands_load_as_a_copy_of_the_list_on_both_paths() -> None:
    """Each hand of a batch loads as it is (fields.as_given): the list is copied once,
    with no call per hand, and equals marshmallow's load, null and non-objects too."""
    schema = BatchRequestSchema()
    assert "list(v)" in schema.fast_source
    hands = [HANDS[0], None, 3, "hand", []]
    body = {"hands": hands}
    loaded = schema.fast_load(body)
    assert loaded == schema.load(copy.deepcopy(body)) == {"hands": hands}
    assert loaded["hands"] is not hands
    with pytest.raises(Fallback):
        schema.fast_load({"hands": [None] * 1001})


@pytest.mark.parametrize("name", ["standard", "kr_gostop", "wikipedia", "no-such-preset", ""])
def test_a_rule_set_by_name_is_the_same_spec_on_both_paths(name: str) -> None:
    """A preset's name (or alias) loads to the one spec made for it (hand_requests.spec_by_name),
    by the fast path as by marshmallow; any other name to an equal spec of its own."""
    body = {"ruleset": name, "players": [{"id": "A"}, {"id": "B"}]}
    fast, full = HAND_SCHEMA.fast_load(body).ruleset, HAND_SCHEMA.load(body).ruleset
    assert fast == full == RulesetSpec(name, {}, True) == spec_by_name(name)
    if name in BY_NAME:
        assert fast is full is BY_NAME[name]
    with pytest.raises(TypeError):
        fast.options["gobak_mode_3p"] = "pay_all"  # type: ignore[index] # shared: read-only
    default = HAND_SCHEMA.fast_load({"players": [{"id": "A"}, {"id": "B"}]}).ruleset
    assert default is BY_NAME["standard"]
