"""How a JSON body is read (calculator.api.http.read_json, the CLI's reader as well): a
name given twice in one object, a byte order mark, numbers too large to read."""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from calculator.api import json_keys
from calculator.api.cli import main
from calculator.api.json_keys import POINTER_SEARCH_BYTES, duplicate_pointer, duplicated
from calculator.codes import CODES
from tests_support import W13, examples

HANDS = "/v1/gostop/hands"
HEADERS = {"Content-Type": "application/json"}
# W13 as text, with a placeholder where a test adds a member to the top object
W13_TEXT = orjson.dumps(W13).decode()


def _post(client: Any, text: str | bytes, path: str = HANDS) -> Any:
    data = text.encode() if isinstance(text, str) else text
    return client.post(path, data=data, headers=HEADERS)


def _error(response: Any) -> dict[str, str]:
    errors: list[dict[str, str]] = response.get_json()["errors"]
    return errors[0]


@pytest.mark.parametrize(
    ("text", "pointer"),
    [
        # the last would win: stake 5 scored for the 100 sent first
        ('{"stake": 100, ' + W13_TEXT[1:-1] + ', "stake": 5}', "/stake"),
        (W13_TEXT.replace('"winner":"A"', '"winner":"B","winner":"A"'), "/outcome/winner"),
        (W13_TEXT.replace('"winner":"A"', '"winner" :"B",\n"winner"\t: "A"'), "/outcome/winner"),
        # the same name spelt with an escape
        ('{"stake": 100, ' + W13_TEXT[1:-1] + ', "st\\u0061ke": 5}', "/stake"),
        (W13_TEXT.replace('"id":"B"', '"id":"B","id":"Z"'), "/players/1/id"),
        ('{"a/b~": 1, "a/b~": 2}', "/a~1b~0"),
    ],
    ids=["stake", "winner", "spaced", "escaped", "nested", "escaped-pointer"],
)
def test_a_name_given_twice_is_refused_with_its_pointer(
    client: Any, text: str, pointer: str
) -> None:
    response = _post(client, text)
    assert response.status_code == 400, response.get_json()
    error = _error(response)
    assert (error["code"], error["pointer"]) == ("duplicate_key", pointer)
    assert "twice" in error["detail"]
    assert "duplicate_key" in CODES["error"]


def test_a_batch_names_the_hand_that_gives_a_name_twice(client: Any) -> None:
    twice = W13_TEXT.replace('"type":"stop"', '"type":"stop","type":"stop"')
    body = '{"hands": [' + W13_TEXT + ", " + twice + "]}"
    for path in (HANDS + "/batch", "/v1/bench/echo"):
        response = _post(client, body, path)
        assert response.status_code == 400
        assert _error(response)["pointer"] == "/hands/1/outcome/type"


@pytest.mark.parametrize(
    "value",
    ['"a\\":b"', '"12:30"', '"x\\" : y"', '"\\":\\":"'],
    ids=["quote-colon", "time", "spaced", "many"],
)
def test_strings_that_look_like_names_are_no_duplicates(client: Any, value: str) -> None:
    text = W13_TEXT.replace('"id":"C"', '"id":' + value)
    response = _post(client, text)
    # scored, or refused for the player's ID: never for a duplicate name
    assert response.status_code in (200, 422), response.get_json()
    assert duplicated(text.encode(), json.loads(text)) is None


def test_the_counts_decide_without_a_second_parse(monkeypatch: Any) -> None:
    """Only a body that gives a name twice is parsed again (to name it): not one whose
    strings spell colons, quotes before colons, escaped colons (\\u003a) or escaped
    backslashes before a u003a — a review found ~20 such bytes sent a 4 MiB body down the
    second parse (seconds of CPU)."""
    document = {"hands": [W13] * 3, "x": [[{"a": {}}], 1, "s"]}
    tricky = [
        (document, orjson.dumps(document)),
        ({"a:b": 'x":', "c": "12:30"}, b'{"a\\u003ab": "x\\":", "c": "12\\u003A30"}'),
        ({"a": "\\u003a", "b": ":"}, b'{"a": "\\\\u003a", "b" :\n":"}'),
    ]

    def refused(data: bytes) -> str | None:
        raise AssertionError(f"parsed again: {data!r}")

    monkeypatch.setattr(json_keys, "duplicate_pointer", refused)
    for parsed, data in tricky:
        assert json.loads(data) == parsed, data
        assert duplicated(data, orjson.loads(data)) is None
    assert duplicate_pointer(b'[1, {"a": [{"b": 1, "b": 2}]}, {"c": 1, "c": 1}]') == "/1/a/0/b"


# A JSON text as a tree whose objects are lists of (name, value) pairs, so that a name
# may be given twice; strings hold what makes colons hard to count (colons, quotes,
# backslashes, the text of an escaped colon), each colon written either as itself or
# escaped (\u003a, \u003A).
class _Object(list[tuple[str, Any]]):
    pass


_TEXTS = st.text(st.sampled_from(':"\\au0 3'), max_size=6)
_TREES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 5), _TEXTS),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(st.tuples(st.sampled_from(["a", "b", "a:b", ":"]), inner), max_size=4).map(
            _Object
        ),
    ),
    max_leaves=12,
)


def _text(tree: Any, escape: Any) -> str:
    if isinstance(tree, _Object):
        members = (f"{_text(name, escape)} : {_text(value, escape)}" for name, value in tree)
        return "{" + ", ".join(members) + "}"
    if isinstance(tree, list):
        return "[" + ", ".join(_text(value, escape) for value in tree) + "]"
    if isinstance(tree, str):
        spelt = json.dumps(tree)
        return "".join(escape(("\\u003a", "\\u003A", ":")) if c == ":" else c for c in spelt)
    return json.dumps(tree)


def _twice(tree: Any) -> bool:
    """Whether an object of the tree gives a name twice (one its parse drops included)."""
    if isinstance(tree, _Object):
        names = [name for name, _value in tree]
        return len(set(names)) < len(names) or any(_twice(value) for _name, value in tree)
    return isinstance(tree, list) and any(_twice(value) for value in tree)


@given(_TREES, st.data())
@hypothesis_settings(max_examples=examples(600), deadline=None)
def test_a_name_given_twice_is_found_exactly_whatever_the_strings_spell(
    tree: Any, data: Any
) -> None:
    """The counts (entries against colons first, then the value written back) agree with
    the tree the text was made from, and the pointer names a name given twice."""
    text = _text(tree, lambda spellings: data.draw(st.sampled_from(spellings))).encode()
    found = duplicated(text, orjson.loads(text))
    assert (found is not None) == _twice(tree), text
    if found:
        assert json_keys.unescape(found.rsplit("/", 1)[1]) in ("a", "b", "a:b", ":"), found


def test_a_large_body_that_gives_a_name_twice_is_refused_without_a_search(client: Any) -> None:
    """Past one request's size the pointer is the whole body: the second parse of a 4 MiB
    body built to be slow would cost seconds."""
    twice = W13_TEXT.replace('"type":"stop"', '"type":"stop","type":"stop"')
    count = POINTER_SEARCH_BYTES // len(W13_TEXT) + 1
    body = '{"hands": [' + ", ".join([W13_TEXT] * count + [twice]) + "]}"
    response = _post(client, body, HANDS + "/batch")
    assert response.status_code == 400
    error = _error(response)
    assert (error["code"], error["pointer"]) == ("duplicate_key", "")
    assert "twice" in error["detail"]


def test_the_cli_refuses_a_name_given_twice_as_http_does(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "hand.json"
    path.write_text('{"stake": 100, ' + W13_TEXT[1:-1] + ', "stake": 5}', encoding="utf-8")
    assert main(["score", str(path)]) == 2
    problem = json.loads(capsys.readouterr().err)
    assert (problem["errors"][0]["code"], problem["errors"][0]["pointer"]) == (
        "duplicate_key",
        "/stake",
    )


def test_a_utf8_byte_order_mark_is_skipped_over_http_as_by_the_cli(client: Any) -> None:
    """RFC 8259 §8.1: a parser may ignore one; Windows editors and PowerShell write it."""
    response = _post(client, codecs.BOM_UTF8 + W13_TEXT.encode())
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["net"]["A"] == 9
    # only one, and only first
    assert _post(client, codecs.BOM_UTF8 * 2 + W13_TEXT.encode()).status_code == 400
    # a BOM alone is an empty body, as nothing is
    assert _error(_post(client, codecs.BOM_UTF8))["code"] == "empty_body"


TWO = '"players": [{"id": "A", "captured": []}, {"id": "B", "captured": []}]'


E30 = "1" + "0" * 30


@pytest.mark.parametrize(
    ("number", "code", "shown"),
    [
        # said as the client wrote it, an integer: never a float it did not write
        # ("1.8446744073709552e+19"): 2^64 is held exactly, a round number by its digits
        ("18446744073709551616", "too_large", "18446744073709551616 is above the maximum"),
        ("-18446744073709551616", "too_small", "-18446744073709551616 is below the minimum 1"),
        ("1e30", "too_large", f"{E30} is above the maximum"),
        ("1E+30", "too_large", f"{E30} is above the maximum"),
        ("1.5e30", "too_large", f"15{E30[2:]} is above the maximum"),
        ("-1e30", "too_small", f"-{E30} is below the minimum 1"),
        # more digits than a double keeps: the whole number it was read as
        ("999999999999999999999999999999", "too_large", f"{E30} is above the maximum"),
        ("1e13", "too_large", "10000000000000 is above the maximum"),
        ("1e300", "too_large", f"{E30[:24]}… (301 digits) is above the maximum"),  # kept short
    ],
)
def test_a_whole_number_past_64_bits_is_too_large_not_the_wrong_type(
    client: Any, number: str, code: str, shown: str
) -> None:
    response = _post(client, '{"stake": ' + number + ", " + TWO + "}")
    assert response.status_code == 422
    error = _error(response)
    assert (error["pointer"], error["code"]) == ("/stake", code)
    assert error["detail"].startswith(shown)
    assert "e+" not in error["detail"]
    # a fraction is still the wrong type
    fraction = _error(_post(client, '{"stake": 2.5, ' + TWO + "}"))
    assert fraction["code"] == "invalid_type"


def test_a_nested_number_past_64_bits_is_said_as_an_integer_in_a_hand_and_a_batch(
    client: Any,
) -> None:
    """Every strict integer of a body says it so (one field class decides), a batch's
    hands too."""
    player = '{"id": "A", "captured": [], "go_count": 18446744073709551616}'
    hand = '{"players": [' + player + ', {"id": "B", "captured": []}]}'
    for path, text, pointer in (
        (HANDS, hand, "/players/0/go_count"),
        (HANDS + "/batch", '{"hands": [' + hand + "]}", "/hands/0/players/0/go_count"),
    ):
        response = _post(client, text, path)
        body = response.get_json()
        problem = body if response.status_code == 422 else body["results"][0]["problem"]
        error = problem["errors"][0]
        assert (error["pointer"], error["code"]) == (pointer, "too_large")
        assert error["detail"].startswith("18446744073709551616 is above the maximum ")


def test_session_chips_past_64_bits_are_too_large(client: Any) -> None:
    body = '{"hands": [{"net": {"A": 1e30, "B": -1e30}}]}'
    response = _post(client, body, "/v1/settlements")
    assert response.status_code == 422
    found = {(e["pointer"], e["code"]) for e in response.get_json()["errors"]}
    assert {("/hands/0/net/A", "too_large"), ("/hands/0/net/B", "too_large")} <= found


def test_a_number_past_what_a_double_holds_is_said_to_be_too_large(client: Any) -> None:
    response = _post(client, '{"stake": 1E400, ' + TWO + "}")
    assert response.status_code == 400
    error = _error(response)
    assert error["code"] == "malformed_json"
    assert error["detail"].startswith("the number at line 1, column 11 is too large to read")
    assert "infinity" not in error["detail"]
    assert "double" not in error["detail"]


def test_a_body_nested_past_what_the_reader_takes_says_how_deep_it_may_be(client: Any) -> None:
    """orjson's own words ("depth limit exceeded") named neither the limit nor the fix (a
    README trial)."""
    response = _post(client, "[" * 30000 + "]" * 30000)
    assert response.status_code == 400
    error = _error(response)
    assert error["code"] == "malformed_json"
    assert error["detail"] == (
        "the body is nested more than 1024 levels deep (at line 1, column 1026); a request "
        "is a JSON object a few levels deep"
    )


UNKNOWN_ORDER = """
import json, sys
from calculator.api import create_app
client = create_app({"access_log": False}).test_client()
body = (
    '{"zeta": 1, "alpha": 2, "mid": 3, "players": [{"id": "A", "captured": [], "y": 1,'
    ' "x": 2}, {"id": "B", "captured": []}]}'
)
answer = client.post("/v1/gostop/hands", data=body, content_type="application/json")
problem = answer.get_json()
print(json.dumps([problem["detail"], [e["pointer"] for e in problem["errors"]]]))
"""


def test_unknown_fields_are_listed_in_request_order_whatever_the_process() -> None:
    """marshmallow lists unknown fields in a set's order, which changes with the process's
    hash seed: the same body got its problems (and its "first at") in another order from
    each worker. Now in the order the request gives them, in every process."""
    import os
    import subprocess
    import sys

    answers = set()
    for seed in ("1", "2", "3", "4"):
        run = subprocess.run(
            [sys.executable, "-c", UNKNOWN_ORDER],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        )
        answers.add(run.stdout)
    assert len(answers) == 1, answers
    _detail, pointers = json.loads(answers.pop())
    assert pointers == ["/players/0/y", "/players/0/x", "/zeta", "/alpha", "/mid"]
