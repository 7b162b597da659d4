"""The compiled fast loaders (calculator/api/fast_loaders.py) are the ones the schemas
generate (calculator/api/native_loaders.py), and a schema uses one only while it is
(calculator/api/strict_schema.py, _native)."""

from __future__ import annotations

import copy
from collections import OrderedDict
from pathlib import Path

import pytest
from marshmallow import ValidationError

from bench.corpus import corpus
from calculator import cards
from calculator.api import fast_loaders, hand_requests
from calculator.api.fields import Fallback
from calculator.api.native_loaders import (
    NATIVE_CALLS,
    NATIVE_MODULE,
    NATIVE_SCHEMAS,
    _direct,
    native_module,
)
from calculator.api.schemas import HAND_SCHEMA, HandRequestSchema, PlayerSchema, load_hand_request
from calculator.records import Record

ROOT = Path(__file__).resolve().parents[2]
COMPILED = not fast_loaders.__file__.endswith(".py")
compiled_only = pytest.mark.skipif(not COMPILED, reason="the pure-Python build")


def test_the_module_is_the_one_the_schemas_generate() -> None:
    written = (ROOT / NATIVE_MODULE).read_text(encoding="utf-8")
    assert written == native_module(), (
        "calculator/api/fast_loaders.py is out of date: run python -c 'from "
        "calculator.api.native_loaders import write_native_module; write_native_module()', "
        "then rebuild (GOSTOP_COMPILE=1 pip install -e .)"
    )


def test_the_build_compiles_it() -> None:
    assert f'"{NATIVE_MODULE}",' in (ROOT / "setup.py").read_text(encoding="utf-8")


@compiled_only
def test_the_hand_schemas_load_by_their_compiled_loaders() -> None:
    player = HAND_SCHEMA.fields["players"].inner.schema  # type: ignore[attr-defined]
    for schema in (HAND_SCHEMA, player, HandRequestSchema(), PlayerSchema()):
        assert schema.fast_native is not None
        assert schema.fast_load == schema.fast_native.load
    assert len(NATIVE_SCHEMAS) == len(fast_loaders.CLASSES)


@compiled_only
def test_an_out_of_date_loader_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema whose generated source no longer matches (edited without regenerating)
    loads by the interpreted loaders, and so does a schema that nests it."""
    monkeypatch.setitem(fast_loaders.SOURCES, "calculator.api.schemas.PlayerSchema", "0" * 64)
    assert PlayerSchema().fast_native is None
    schema = HandRequestSchema()
    assert schema.fast_native is None
    for body in corpus(20, players=3, modes="cards"):
        assert schema.fast_load(copy.deepcopy(body)) == HAND_SCHEMA.fast_load(body)


def test_a_schema_of_other_fields_is_not_compiled() -> None:
    schema = PlayerSchema(exclude=("hand",))
    assert schema.fast_native is None
    assert schema.fast_load({"id": "A"}) == PlayerSchema().load({"id": "A"})


@pytest.mark.parametrize(
    "body",
    [
        {"id": "A", "unknown": 1},  # a key no field has: counted, not found
        {"unknown": 1, "id": "A"},  # …before the fields' keys
        {"id": "A", "hand": [], "unknown": 1},  # …past the last field's key
        {"id": "A", "gukjin": "Auto"},  # a choice not in the members' table
        {"id": "A", "gukjin": ["auto"]},  # nor a string
        {"id": "A", 1: 2},
        OrderedDict(id="A"),  # not a dict itself
        {"captured": []},  # a required field left out
        {"id": "A", "tally": {"brights": 1, "extra": True}},  # in a nested object
        ["id"],
    ],
)
def test_the_compiled_loader_falls_back_as_the_interpreted_one(body: object) -> None:
    with pytest.raises(Fallback):
        PlayerSchema().fast_load(body)
    with pytest.raises(Fallback):
        HAND_SCHEMA.fast_load({"players": [body]})


def test_a_hand_request_loads_by_load_one_as_by_load_fast() -> None:
    """schemas.load_hand_request is the schema's load_one: compiled, its loader object's
    load_fast (no Python frame), else the schema's own; either way load_fast's answers,
    the full load's refusals included."""
    native = HAND_SCHEMA.fast_native
    assert load_hand_request == (HAND_SCHEMA.load_fast if native is None else native.load_fast)
    for body in corpus(20, players=3, modes="mixed"):
        assert load_hand_request(copy.deepcopy(body)) == HAND_SCHEMA.load_fast(body)
    for bad in ({"players": 3}, {"players": [{"id": "", "captured": ["01-brigth"]}]}, []):
        with pytest.raises(ValidationError) as one:
            load_hand_request(copy.deepcopy(bad))
        with pytest.raises(ValidationError) as full:
            HAND_SCHEMA.load(bad)
        assert one.value.messages == full.value.messages


def test_the_compiled_loaders_call_the_functions_of_native_calls_directly() -> None:
    """A function of native_loaders.NATIVE_CALLS is imported by the generated module and called
    by name (compiled: a C call), not read from the loader object's attributes."""
    source = native_module()
    assert "from calculator.cards import all_card_ids" in source
    assert "from calculator.api.hand_requests import hand_request" in source
    assert "return hand_request(f0, " in source
    assert "spec_by_name(v)" in source
    for attribute in ("self.R(", "self.all_known", "self.spec_by_name"):
        assert attribute not in source


@pytest.mark.parametrize(
    "value",
    [
        lambda: None,  # not a module's function
        hand_requests.HandRequest,  # a class (a record's constructor, not a function)
        hand_requests.BY_NAME.get,  # a bound method
        copy.deepcopy,  # a function of another module
        str.isprintable,
    ],
)
def test_only_a_module_function_of_native_calls_is_called_directly(value: object) -> None:
    assert _direct(value) is None


def test_a_function_of_native_calls_is_called_directly() -> None:
    assert _direct(hand_requests.spec_by_name) == "calculator.api.hand_requests"
    assert _direct(cards.all_card_ids) == "calculator.cards"


@pytest.mark.parametrize("module", NATIVE_CALLS)
def test_native_calls_are_compiled_with_the_loaders_and_do_not_import_them(module: str) -> None:
    """What NATIVE_CALLS says of its modules: compiled in the same build as the loaders
    (setup.py's COMPILED: a direct call is a C call only then), and neither imports the
    loaders' modules (the generated module imports them: no cycle)."""
    path = Path(module.replace(".", "/") + ".py")
    assert f'"{path}",' in (ROOT / "setup.py").read_text(encoding="utf-8")
    source = (ROOT / path).read_text(encoding="utf-8")
    for loaders in (
        "calculator.api.fast_loaders",
        "calculator.api.strict_schema",
        "calculator.api.native_loaders",
    ):
        assert loaders not in source


def test_a_hand_request_is_a_record_equal_and_copied_by_its_fields() -> None:
    """HandRequest is a native record (calculator.records.Record), no longer a named
    tuple: equal by its fields and of its class alone, copied by them."""
    request = load_hand_request(corpus(1, players=3, modes="cards")[0])
    assert isinstance(request, Record)
    again = hand_requests.HandRequest(
        request.hand, request.ruleset, request.compare_with, request.streak_given
    )
    assert again == request
    assert again is not request
    assert request != (request.hand, request.ruleset, request.compare_with, True)
    assert request != again._replace(streak_given=False)
    assert copy.copy(request) == request  # (a rule set's options are a read-only mapping,
    # which neither deepcopy nor pickle takes: as of the named tuple)
    assert hand_requests.HandRequest(request.hand, request.ruleset, ()).streak_given is True
