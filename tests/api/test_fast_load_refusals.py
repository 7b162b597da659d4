"""The fast loader compiler fails closed (calculator/api/strict_schema.py).

A schema or field feature that ``StrictSchema._compile`` does not translate is refused when
the schema is instantiated — for the service's module-level schemas, at import — with a
TypeError that names the schema, the field and the feature. Each test below declares a
tiny schema with one such feature; the last one instantiates every schema of the service.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import pytest
from marshmallow import (
    EXCLUDE,
    INCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    pre_load,
    validates,
    validates_schema,
)
from marshmallow.validate import Length

from calculator.api import spec_setup
from calculator.api.coded_errors import fail
from calculator.api.fields import Fallback, StrictBoolean, StrictInteger, StrictList, StrictString
from calculator.api.strict_schema import MAX_SHAPES, StrictNested, StrictSchema


class _Meta:
    register = False  # keep these schemas out of marshmallow's class registry


class PreLoad(StrictSchema):
    Meta = _Meta
    n = StrictInteger(maximum=3)

    @pre_load
    def strip(self, data: Any, **kwargs: Any) -> Any:
        return data


class FieldValidator(StrictSchema):
    Meta = _Meta
    n = StrictInteger(maximum=3)

    @validates("n")
    def odd(self, value: int, **kwargs: Any) -> None:
        pass


class PostLoadOriginal(StrictSchema):
    Meta = _Meta
    n = StrictInteger(maximum=3)

    @post_load(pass_original=True)
    def make(self, data: Any, original: Any, **kwargs: Any) -> Any:
        return data


class PostLoadCollection(StrictSchema):
    Meta = _Meta
    n = StrictInteger(maximum=3)

    @post_load(pass_collection=True)
    def make(self, data: Any, **kwargs: Any) -> Any:
        return data


class ValidatesCollection(StrictSchema):
    Meta = _Meta
    n = StrictInteger(maximum=3)

    @validates_schema(pass_collection=True)
    def check(self, data: Any, **kwargs: Any) -> None:
        pass


class ValidatesOriginal(StrictSchema):
    Meta = _Meta
    n = StrictInteger(maximum=3)

    @validates_schema(pass_original=True)
    def check(self, data: Any, original: Any, **kwargs: Any) -> None:
        pass


class Excludes(StrictSchema):
    class Meta:
        register = False
        unknown = EXCLUDE

    n = StrictInteger(maximum=3)


class Attribute(StrictSchema):
    Meta = _Meta
    n = StrictInteger(maximum=3, attribute="number")


class ExtraValidator(StrictSchema):
    Meta = _Meta
    b = StrictBoolean(validate=lambda value: value)


class PlainField(StrictSchema):
    Meta = _Meta
    s = fields.String()


class ListExtraValidator(StrictSchema):
    Meta = _Meta
    items = StrictList(StrictInteger(maximum=3), max_items=4, validate=Length(max=2))


class PlainItems(StrictSchema):
    Meta = _Meta
    items = StrictList(fields.Integer(), max_items=4)  # type: ignore[arg-type]


class ItemAttribute(StrictSchema):
    Meta = _Meta
    items = StrictList(StrictInteger(maximum=3, attribute="x"), max_items=4)


class _Plain(Schema):
    Meta = _Meta
    n = fields.Integer()


class NestedPlain(StrictSchema):
    Meta = _Meta
    inner = StrictNested(_Plain)


class _Small(StrictSchema):
    Meta = _Meta
    n = StrictInteger(maximum=3)
    m = StrictInteger(maximum=3)


class NestedMany(StrictSchema):
    Meta = _Meta
    inner = StrictNested(_Small, many=True)


class NestedOnly(StrictSchema):
    Meta = _Meta
    inner = StrictNested(_Small(), only=("n",))


class NestedUnknown(StrictSchema):
    Meta = _Meta
    inner = StrictNested(_Small, unknown=EXCLUDE)


class NestedRefused(StrictSchema):
    Meta = _Meta
    inner = StrictNested(PreLoad)


class _OddInteger(StrictInteger):
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        return super()._deserialize(value, attr, data, **kwargs) | 1


class InheritedFastPath(StrictSchema):
    Meta = _Meta
    n = _OddInteger(maximum=3)


class _ShortString(StrictString):
    def _check(self, value: str) -> None:
        super()._check(value[:1])


class OverriddenValidator(StrictSchema):
    Meta = _Meta
    s = _ShortString(max_length=8)


class _Pair(NamedTuple):
    n: int
    m: int = 0


class RecordNotNamedTuple(StrictSchema):
    Meta = _Meta
    record = dict
    n = StrictInteger(maximum=3)


class RecordAndPostLoad(StrictSchema):
    Meta = _Meta
    record = _Pair
    n = StrictInteger(maximum=3, required=True)

    @post_load
    def make(self, data: Any, **kwargs: Any) -> Any:
        return data


class RecordLacksField(StrictSchema):
    Meta = _Meta
    record = _Pair
    n = StrictInteger(maximum=3, required=True)
    k = StrictInteger(maximum=3)


class RecordLacksDefault(StrictSchema):
    Meta = _Meta
    record = _Pair
    n = StrictInteger(maximum=3)  # optional, and _Pair.n has no default


class RecordFieldMissing(StrictSchema):
    Meta = _Meta
    record = _Pair
    m = StrictInteger(maximum=3)


class RecordIncludes(StrictSchema):
    class Meta:
        register = False
        unknown = INCLUDE

    record = _Pair
    n = StrictInteger(maximum=3, required=True)


class _NullPassing(StrictInteger):
    def fast_check(self, name: str) -> str | None:
        return f"{name} is None or type({name}) is int"


class CheckPassesNull(StrictSchema):
    Meta = _Meta
    n = _NullPassing(maximum=3)


def _keyword_only(n: int, *, m: int = 0) -> tuple[int, int]:
    return n, m


class RecordKeywordOnly(StrictSchema):
    Meta = _Meta
    record = staticmethod(_keyword_only)
    n = StrictInteger(maximum=3, required=True)


class RecordBuiltin(StrictSchema):
    Meta = _Meta
    record = staticmethod(abs)  # a builtin's parameters are read too (a compiled record
    # function is one): abs's x is positional only
    n = StrictInteger(maximum=3, required=True)


class RecordNoSignature(StrictSchema):
    Meta = _Meta
    record = staticmethod(getattr)  # a builtin that does not say its parameters
    n = StrictInteger(maximum=3, required=True)


REFUSED: list[tuple[Callable[[], StrictSchema], str]] = [
    (RecordNotNamedTuple, "RecordNotNamedTuple: the fast loader does not translate record=dict"),
    (
        RecordKeywordOnly,
        "RecordKeywordOnly: the fast loader does not translate record=_keyword_only",
    ),
    (RecordBuiltin, "RecordBuiltin: the fast loader does not translate record=abs (a parameter"),
    (
        RecordNoSignature,
        "RecordNoSignature: the fast loader does not translate record=<built-in function getattr",
    ),
    (
        CheckPassesNull,
        "CheckPassesNull.n: the fast loader does not translate a fast check that passes null",
    ),
    (RecordAndPostLoad, "RecordAndPostLoad: the fast loader does not translate hooks beside"),
    (RecordLacksField, "RecordLacksField.k: the fast loader does not translate a field that _Pair"),
    (RecordLacksDefault, "RecordLacksDefault.n: the fast loader does not translate an optional"),
    (RecordFieldMissing, "RecordFieldMissing: the fast loader does not translate _Pair.n without"),
    (RecordIncludes, "RecordIncludes: the fast loader does not translate unknown fields with"),
    (PreLoad, "PreLoad: the fast loader does not translate @pre_load (strip)"),
    (FieldValidator, "FieldValidator: the fast loader does not translate @validates (odd)"),
    (PostLoadOriginal, "PostLoadOriginal: the fast loader does not translate @post_load options"),
    (PostLoadCollection, "translate @post_load(pass_collection=True) (make)"),
    (ValidatesCollection, "translate @validates_schema(pass_collection=True) (check)"),
    (ValidatesOriginal, "translate @validates_schema options {'pass_original': True"),
    (Excludes, "Excludes: the fast loader does not translate unknown='exclude'"),
    (Attribute, "Attribute.n: the fast loader does not translate attribute='number'"),
    (ExtraValidator, "ExtraValidator.b: the fast loader does not translate validate="),
    (PlainField, "PlainField.s: the fast loader does not translate a plain String field"),
    (ListExtraValidator, "ListExtraValidator.items: the fast loader does not translate validate="),
    (PlainItems, "PlainItems.items: the fast loader does not translate items of a plain Integer"),
    (ItemAttribute, "ItemAttribute.items: the fast loader does not translate its items' attribute"),
    (NestedPlain, "NestedPlain.inner: the fast loader does not translate a nested _Plain"),
    (NestedMany, "NestedMany.inner: the fast loader does not translate many=True"),
    (NestedOnly, "NestedOnly.inner: the fast loader does not translate only=('n',)"),
    (NestedUnknown, "NestedUnknown.inner: the fast loader does not translate unknown='exclude'"),
    (NestedRefused, "PreLoad: the fast loader does not translate @pre_load (strip)"),
    (InheritedFastPath, "InheritedFastPath.n: the fast loader does not translate "),
    (OverriddenValidator, "OverriddenValidator.s: the fast loader does not translate validate="),
    (lambda: _Small(many=True), "_Small: the fast loader does not translate many=True"),
    (lambda: _Small(partial=True), "_Small: the fast loader does not translate partial loading"),
]


@pytest.mark.parametrize(("make", "message"), REFUSED)
def test_a_feature_the_compiler_does_not_translate_is_refused_at_instantiation(
    make: Callable[[], StrictSchema], message: str
) -> None:
    with pytest.raises(TypeError) as refused:
        make()
    assert message in str(refused.value)


def test_an_inherited_deserialize_override_is_named() -> None:
    with pytest.raises(TypeError, match=r"_OddInteger\._deserialize, beneath the fast path"):
        InheritedFastPath()


def test_translated_hooks_are_found_on_the_class_and_its_bases() -> None:
    """Hooks come from the public decorators' tags (inherited ones too), in marshmallow's
    order: schema validators before post-loads, each by method name."""

    class Base(StrictSchema):
        Meta = _Meta
        n = StrictInteger(maximum=3)

        @post_load
        def b_second(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            return {**data, "order": [*data["order"], "b"]}

        @validates_schema
        def small(self, data: dict[str, Any], **kwargs: Any) -> None:
            if data["n"] > 2:
                raise fail("too_large", "n is at most 2")

    class Child(Base):
        Meta = _Meta

        @post_load
        def a_first(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            return {**data, "order": ["a"]}

    schema = Child()
    assert schema.fast_load({"n": 1}) == schema.load({"n": 1}) == {"n": 1, "order": ["a", "b"]}
    assert "validator(out" in schema.fast_source
    with pytest.raises(ValidationError):
        schema.load({"n": 3})


def test_every_schema_of_the_service_compiles() -> None:
    """The service's request schemas all compile (each names what it loads)."""
    strict = [schema for _name, schema in spec_setup.COMPONENTS if issubclass(schema, StrictSchema)]
    assert len(strict) >= 15
    for schema in strict:
        assert schema().fast_source.startswith("def load(data):")


def test_a_record_is_built_alike_by_both_paths() -> None:
    """``record=``: converted values by name, the record's default for a field left out,
    a converted load_default, null kept null (calculator/api/strict_schema.py, _make_record)."""

    class Triple(NamedTuple):
        a: tuple[int, ...]
        b: str | None = "record default"
        c: frozenset[int] = frozenset({9})
        d: int | None = 7

    class Loads(StrictSchema):
        Meta = _Meta
        record = Triple
        a = StrictList(StrictInteger(maximum=3), max_items=4, required=True, convert=tuple)
        b = StrictString(max_length=8, convert=str.upper)
        c = StrictList(StrictInteger(maximum=3), max_items=4, load_default=list, convert=frozenset)
        d = StrictInteger(maximum=3, allow_none=True, load_default=2, convert=lambda n: n * 10)

    schema = Loads()
    for body, expected in [
        ({"a": [1, 2]}, Triple((1, 2), "record default", frozenset(), 20)),
        ({"a": [], "b": "x", "c": [3, 3], "d": None}, Triple((), "X", frozenset({3}), None)),
        ({"a": [1.0], "d": 3.0}, Triple((1,), "record default", frozenset(), 30)),
    ]:
        assert schema.fast_load(body) == schema.load(body) == expected
        assert tuple(body) in schema.fast_shapes  # learned: the same body again by its shape
        assert schema.fast_load(body) == expected
    assert "new(R, (" in schema.fast_source


def test_a_record_function_is_called_alike_by_both_paths() -> None:
    """A function as ``record=``: its parameters by name on the slow path, in its own order
    on the fast one; a field left out takes the parameter's default."""

    def pair(b: str, a: tuple[int, ...], c: int | None = 5) -> tuple[object, ...]:
        return ("pair", a, b, c)

    class Loads(StrictSchema):
        Meta = _Meta
        record = staticmethod(pair)
        a = StrictList(StrictInteger(maximum=3), max_items=4, required=True, convert=tuple)
        b = StrictString(max_length=8, load_default="b", convert=str.upper)
        c = StrictInteger(maximum=3, allow_none=True)

    schema = Loads()
    for body, expected in [
        ({"a": [1, 2]}, ("pair", (1, 2), "B", 5)),
        ({"a": [], "b": "x", "c": None}, ("pair", (), "X", None)),
        ({"a": [1.0], "c": 3.0}, ("pair", (1,), "B", 3)),
    ]:
        assert schema.fast_load(body) == schema.load(body) == expected
    assert "made = R(f1, f0, f2)" in schema.fast_source


def test_a_shape_is_learned_from_a_loaded_object_only_and_up_to_a_bound() -> None:
    """The general loader learns the keys (in order) of each object it loads, up to
    MAX_SHAPES; an object of a learned shape then loads by that shape's own loader, to the
    same record, and whatever is not a dict still falls back."""

    class Pair(NamedTuple):
        n: int = 1
        m: tuple[int, ...] = ()

    class Loads(StrictSchema):
        Meta = _Meta
        record = Pair
        n = StrictInteger(maximum=3)
        m = StrictList(StrictInteger(maximum=3), max_items=2, load_default=list, convert=tuple)

    schema = Loads()
    for body in ({"n": 4}, {"x": 1}, {"m": None}):  # refused: nothing learned
        with pytest.raises(Fallback):
            schema.fast_load(body)
    assert schema.fast_shapes == {}
    for body, expected in [
        ({}, Pair()),
        ({"m": [2], "n": 3}, Pair(3, (2,))),
        ({"n": 3, "m": [2.0]}, Pair(3, (2,))),
    ]:
        assert schema.fast_load(body) == schema.load(body) == expected
        assert schema.fast_load(body) == expected
    assert list(schema.fast_shapes) == [(), ("m", "n"), ("n", "m")]
    for body in ({"n": 4}, {"m": [4], "n": 0}, {"n": 1, "m": None}, ["n", "m"], []):
        with pytest.raises(Fallback):
            schema.fast_load(body)  # of a learned shape, or its keys, and refused
        with pytest.raises(ValidationError):
            schema.load(body)


class _Five(NamedTuple):
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0
    e: int = 0


class _FiveFields(StrictSchema):
    Meta = _Meta
    record = _Five
    a, b, c, d, e = (StrictInteger(maximum=9) for _ in range(5))


def test_shapes_beyond_the_bound_load_by_the_general_loader() -> None:
    schema = _FiveFields()
    bodies = [{k: i % 10 for k in "abcde" if i >> "abcde".index(k) & 1} for i in range(32)]
    for body in bodies * 2:
        assert schema.fast_load(body) == schema.load(body) == _Five(**body)
    assert len(schema.fast_shapes) == MAX_SHAPES < len(bodies)
    assert list(schema.fast_shapes) == [tuple(body) for body in bodies[:MAX_SHAPES]]


def test_threads_that_learn_at_once_stay_within_the_bound() -> None:
    """Threads loading new shapes at the same moment learn at most MAX_SHAPES of them:
    each shape's loader is made slowly here, so without the learning lock every thread
    would pass the bound's test before any of them added its shape."""
    schema = _FiveFields()
    made = schema._shape

    def slowly(*args: Any) -> Any:
        time.sleep(0.005)
        return made(*args)

    schema._shape = slowly  # type: ignore[method-assign]
    bodies = [{k: i % 10 for k in "abcde" if i >> "abcde".index(k) & 1} for i in range(32)]
    start = threading.Barrier(len(bodies))

    def load(body: dict[str, int]) -> Any:
        start.wait()
        return schema.fast_load(body)

    with ThreadPoolExecutor(len(bodies)) as pool:
        loaded = list(pool.map(load, bodies))
    assert loaded == [_Five(**body) for body in bodies]
    assert len(schema.fast_shapes) == MAX_SHAPES


def test_a_schema_without_fields_loads_fast() -> None:
    """A schema of no declared fields (the rule set options' base) has a fast loader too:
    it lets the unknown keys through as marshmallow does."""
    from calculator.api.ruleset_schemas import _OptionsBase

    schema = _OptionsBase()
    for body in ({}, {"x": 1, "y": [2]}):
        assert schema.fast_load(body) == schema.load(body) == body


def test_a_callable_default_of_null_is_not_converted_and_a_list_is_not_the_request_s() -> None:
    """Both paths alike: a load_default that makes null stays null (convert is for values),
    and a list loaded without a record is a new list, as marshmallow's."""

    class Pair(NamedTuple):
        a: int | None
        b: list[int] | None = None

    class WithRecord(StrictSchema):
        Meta = _Meta
        record = Pair
        a = StrictInteger(maximum=3, allow_none=True, load_default=lambda: None, convert=str)
        b = StrictList(StrictString(max_length=4, known=frozenset({"x"})), max_items=4)

    class Plain(StrictSchema):
        Meta = _Meta
        b = StrictList(StrictString(max_length=4, known=frozenset({"x"})), max_items=4)

    schema = WithRecord()
    assert schema.fast_load({}) == schema.load({}) == Pair(None)
    assert schema.fast_load({"a": 2}) == schema.load({"a": 2}) == Pair("2")
    listed = ["x", "x"]
    plain = Plain()
    fast, full = plain.fast_load({"b": listed}), plain.load({"b": listed})
    assert fast == full == {"b": listed}
    assert fast["b"] is not listed
    assert "all_known(v)" in plain.fast_source  # by the inline check
