"""Strict marshmallow fields whose errors carry a stable machine-readable code.

marshmallow's defaults are lenient where money is at stake (``Integer`` accepts "2",
``Boolean`` accepts "yes" and 1), and its messages carry no code. These fields accept
exactly the JSON type, and every message they raise is a :class:`Coded` string, so that
the problem+json body can give each error a ``code`` as well as a ``detail``.

A marshmallow load walks every field through several layers of calls, which costs far
more than scoring a hand. So each field also gives a *fast loader*: a plain function that
applies the same checks and either returns the loaded value or raises :class:`Fallback`.
Each :class:`StrictSchema` compiles them into its ``fast_load``; on any ``Fallback`` the
caller runs the full ``load``, which produces the detailed errors. The fast path never
writes an error itself, and property tests (boundary values and random mutations) hold
the two paths to exactly the same answers: the same value, or a fallback where ``load``
refuses. What the compiler cannot translate, it refuses when the schema is made.

The loaders of a hand's schemas (:data:`NATIVE_SCHEMAS`) are also written, by the same
generator, into ``calculator/api/fast_loaders.py``, which the compiled build compiles
with mypyc: there a schema loads by its compiled loader while that loader's source is
still the one the schema generates (``StrictSchema._native``; a test holds the file to
the schemas); interpreted, it loads by the loaders made here at import.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import re
import threading
import unicodedata
from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Final

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, missing, post_load, types
from marshmallow.decorators import POST_DUMP, POST_LOAD, PRE_DUMP, VALIDATES_SCHEMA

from calculator.api import fast_loaders
from calculator.limits import MAX_PROBLEMS, quote

Loader = Callable[[Any], Any]
_CONTROL_CHARS = "\x00-\x1f\x7f-\x9f\ud800-\udfff"  # categories Cc and Cs
# Category Cf (Unicode 14, Python 3.11): bidi overrides and isolates, zero-width characters,
# the soft hyphen, tags — invisible, and able to make one id look like another. As ranges,
# because enumerating the category at import costs 0.2 s; a test holds them to unicodedata.
FORMAT_CHARS = (
    "\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f"
)
ZWJ = "\u200d"
_EMOJI_MODIFIERS = frozenset(["\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))])  # VS16, skin tones
_CONTROL = re.compile(f"[{_CONTROL_CHARS}]")
_FORMAT = re.compile(f"[{FORMAT_CHARS}]")
_REFUSED = re.compile(f"[{_CONTROL_CHARS}{FORMAT_CHARS}]")  # either: the fast path's check


def joins_emoji(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a zero-width joiner inside an emoji ZWJ sequence: after an
    emoji (its variation selector or skin tone aside) and before another.

    >>> joins_emoji("👩\u200d💻", 1), joins_emoji("❤️\u200d🔥", 2), joins_emoji("a\u200d💻", 1)
    (True, True, False)
    >>> joins_emoji("💻\u200d", 1), joins_emoji("\u200d💻", 0)
    (False, False)
    """
    if text[at] != ZWJ or not 0 < at < len(text) - 1:
        return False
    before = at - 1
    while before > 0 and text[before] in _EMOJI_MODIFIERS:
        before -= 1
    return _is_emoji(text[before]) and _is_emoji(text[at + 1])


def _is_emoji(char: str) -> bool:
    return unicodedata.category(char) == "So"


MAX_SHAPES = 16
"""The most shapes (keys in order) of an object whose own loader a record schema keeps."""

NATIVE_SCHEMAS = (
    "calculator.api.schemas.HandRequestSchema",
    "calculator.api.schemas.PlayerSchema",
    "calculator.api.schemas.TallySchema",
    "calculator.api.schemas.DeclaredSchema",
    "calculator.api.schemas.OutcomeSchema",
    "calculator.api.schemas.HolderSchema",
    "calculator.api.schemas.EventSchema",
)
"""The record schemas whose loaders :func:`native_module` writes into
``calculator/api/fast_loaders.py``, which the compiled build compiles with mypyc: a hand's
(the hot path of both scoring endpoints). An interpreted loader pays a dictionary look-up
for each name it reads; compiled, it reads them from its own object's slots, calls its
nested objects' loaders directly, and looks each key up once (a shape's loader then buys
nothing: see :meth:`StrictSchema._native`)."""
NATIVE_MODULE = "calculator/api/fast_loaders.py"
NATIVE_CALLS: Final = ("calculator.cards", "calculator.api.hand_requests")
"""The modules whose functions the compiled loaders import and call directly
(:func:`_direct`): compiled in the same build, and neither imports the loaders."""


class Fallback(Exception):  # noqa: N818 - a signal to take the slow path, not an error
    """The fast path is not sure: run the full marshmallow load."""


def _fallback(_value: Any) -> Any:
    raise Fallback


def _none(_value: Any) -> None:
    return None


def as_given(value: Any) -> Any:
    """The fast loader of a field that takes any value as it is (a batch's hands, each
    loaded on its own later). A list of such items that allows null loads as a copy of
    the list (:meth:`StrictList.fast_loader`), without a call per item."""
    return value


# marshmallow error key → our code, for the keys the built-in machinery raises.
_KEY_CODES = {
    "required": "required",
    "null": "null",
    "invalid": "invalid_type",
    "type": "invalid_type",
    "unknown": "unknown_field",
}


class Coded(str):
    """An error message that carries a code (``Coded("…", "too_large").code``)."""

    code: str

    def __new__(cls, text: str, code: str) -> Coded:
        message = super().__new__(cls, text)
        message.code = code
        return message


def fail(code: str, text: str) -> ValidationError:
    """A ValidationError whose message carries ``code``."""
    return ValidationError(Coded(text, code))


def blank(name: str, why: str) -> ValidationError:
    """The 422 ``invalid_length`` of a field ``name`` whose string is only whitespace
    (``why`` says what to give instead): a token's label, a void's or a correction's
    reason — free text a person reads later, where blank says nothing."""
    return fail("invalid_length", f"the {name} is blank: {why}")


NOT_BLANK_PATTERN = r"\S"
"""The OpenAPI ``pattern`` of a string refused blank (:func:`blank`): some character that
is not whitespace. Of the strings the field's other checks let through (no control or
formatting character), it matches exactly those that are not blank."""


class CodedField(fields.Field[Any]):
    """Mixin: the messages of marshmallow's own errors (required, null, type) get codes."""

    # Each class's messages are merged along the MRO by marshmallow, which declares them as
    # an attribute of this type: a ClassVar would not match its declaration (hence noqa).
    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "required": "this field is required",
        "null": "null is not allowed here",
    }

    def __init__(self, *args: Any, convert: Loader | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.convert = convert
        """What the loaded value (not null) becomes in the schema's ``record``: an enum
        member for its wire value, a tuple for a list… None: the value as loaded."""

    def make_error(self, key: str, **kwargs: Any) -> ValidationError:
        error = super().make_error(key, **kwargs)
        code = _KEY_CODES.get(key, key)
        messages = error.messages if isinstance(error.messages, list) else [error.messages]
        return ValidationError([Coded(str(m), code) for m in messages])

    def fast_loader(self) -> Loader:
        """A function applying this field's checks to a present, non-null value."""
        return _fallback  # a field without a fast path always takes the full load

    def fast_refuses_null(self) -> bool:
        """True if :meth:`fast_loader` raises :class:`Fallback` for null too (it need not:
        a fast loader takes non-null values)."""
        return False

    def fast_check(self, name: str) -> str | None:
        """A Python expression over the variable ``name`` that is True when the value is
        plainly valid and loads as :meth:`fast_value` gives it (False: :meth:`fast_loader`
        decides), or None to always call :meth:`fast_loader`. A ``TypeError`` it raises
        means "not sure": the generated loader falls back to the full load."""
        return None

    def fast_value(self, name: str) -> str:
        """The loaded value, as a Python expression over ``name``, when :meth:`fast_check`
        passes (by default the value as it is). It may raise :class:`Fallback` (a list's
        items loaded one by one): the generated loader then falls back to the full load."""
        return name

    def fast_constants(self) -> dict[str, Any]:
        """The names :meth:`fast_check`'s and :meth:`fast_value`'s expressions use, and
        their values."""
        return {}

    def fast_validators(self) -> list[Callable[..., Any]]:
        """The validator methods (functions of the class) that the fast path applies: any
        other ``validate=`` is refused."""
        return []

    def untranslated(self) -> str | None:
        """The feature of this field that the fast path does not translate, if any."""
        if self.attribute is not None:
            return f"attribute={self.attribute!r}"
        # By function: a schema's fields are shallow copies whose validators stay bound to
        # the declared field (with the same settings).
        if [getattr(v, "__func__", v) for v in self.validators] != self.fast_validators():
            return "validate= (a validator the fast path does not apply)"
        fast = type(self).__mro__
        declares = next(c for c in fast if "fast_loader" in vars(c) or "fast_check" in vars(c))
        for method in ("deserialize", "_deserialize"):
            owner = next(c for c in fast if method in vars(c))
            if owner is not declares and issubclass(owner, declares):
                return f"{owner.__name__}.{method}, beneath the fast path of {declares.__name__}"
        return None


def whole_number(value: Any) -> int | None:
    """``value`` as the integer it is, or None: the one rule for integers on the wire.

    JSON has one number type, and JSON Schema's ``integer`` is any number with a zero
    fractional part, so a client that sends ``2.0`` (JavaScript's ``2.0``, a float column)
    means 2. A fraction (2.5), a string ("2") and a boolean (true) are not integers and
    are refused, never truncated or coerced.

    >>> whole_number(2), whole_number(2.0), whole_number(-0.0)
    (2, 2, 0)
    >>> whole_number(2.5), whole_number("2"), whole_number(True), whole_number(float("inf"))
    (None, None, None, None)

    A float beyond 2^53 is refused too: it no longer says which integer the client wrote
    (orjson reads ``99999999999999999999999``, past 64 bits, as ``1e23``).
    """
    kind = type(value)
    if kind is int:
        return value  # type: ignore[no-any-return]
    if kind is float and value.is_integer() and abs(value) <= _EXACT:  # inf, nan: not integer
        return int(value)
    return None  # bool is an int subclass, but not ``int`` itself: JSON true is not a number


_EXACT = 2.0**53  # every integer up to here is exactly a float


def too_large_to_read(value: Any) -> bool:
    """Whether ``value`` is a whole number too large for :func:`whole_number` to say which
    (a float past 2^53: ``1e30``, or an integer past 64 bits that orjson read as one):
    above any maximum, and said so, not "expected a whole number"."""
    return type(value) is float and abs(value) > _EXACT and value - value == 0  # finite


def said_whole(value: float) -> str:
    """A whole number :func:`too_large_to_read` said as the integer the client wrote, as
    far as a double can tell, never in a float's notation the client did not write
    (``1.8446744073709552e+19``): by the shortest digits that read as the same double
    when those are at most 15 significant digits (a number written with so few is always
    read back exactly; one written with more, thirty 9s, reads as the same double as 1e30
    and is said so), else the integer the double holds
    (exact for one written to be: 2^64 is). Past 40 digits, its first 24 and how many
    (a problem's detail stays short: 1e308 is 309 digits).

    >>> said_whole(1e30), said_whole(-1.5e20)
    ('1000000000000000000000000000000', '-150000000000000000000')
    >>> said_whole(18446744073709551616.0), said_whole(1e300)
    ('18446744073709551616', '100000000000000000000000… (301 digits)')
    """
    shortest = Decimal(repr(value))
    if len(shortest.normalize().as_tuple().digits) <= _DIGITS_KEPT:
        said = f"{shortest:f}"
    else:
        said = str(int(value))
    digits = len(said.lstrip("-"))
    return said if digits <= 40 else f"{said[: 24 + (value < 0)]}… ({digits} digits)"


_DIGITS_KEPT = 15  # DBL_DIG: a decimal of so many significant digits survives a double


class StrictInteger(CodedField, fields.Integer):
    """A JSON integer (2, or 2.0: :func:`whole_number`); 2.5, "2" and true are rejected,
    never truncated."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected a whole number (an integer)"
    }

    def __init__(self, *, minimum: int = 0, maximum: int, **kwargs: Any) -> None:
        self.minimum, self.maximum = minimum, maximum
        super().__init__(strict=True, validate=self._check_range, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        found = whole_number(value)
        if found is None:
            if too_large_to_read(value):
                if value < 0:
                    raise fail(
                        "too_small", f"{said_whole(value)} is below the minimum {self.minimum}"
                    )
                raise fail("too_large", f"{said_whole(value)} is above the maximum {self.maximum}")
            raise self.make_error("invalid")
        return found

    def fast_check(self, name: str) -> str | None:
        # Plainly valid as it is; anything else (2.0 among them) goes to fast_loader.
        return f"type({name}) is int and {self.minimum!r} <= {name} <= {self.maximum!r}"

    def fast_validators(self) -> list[Callable[..., Any]]:
        return [StrictInteger._check_range]

    def fast_loader(self) -> Loader:
        low, high = self.minimum, self.maximum

        def load(value: Any) -> int:
            found = whole_number(value)
            if found is not None and low <= found <= high:
                return found
            raise Fallback

        return load

    def _check_range(self, value: int) -> None:
        if value < self.minimum:
            code = "negative_count" if self.minimum == 0 else "too_small"
            raise fail(code, f"{value} is below the minimum {self.minimum}")
        if value > self.maximum:
            raise fail("too_large", f"{value} is above the maximum {self.maximum}")


class StrictBoolean(CodedField, fields.Boolean):
    """JSON true or false only (not 1, "true" or "yes")."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected true or false"
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid")

    def fast_check(self, name: str) -> str | None:
        return f"({name} is True or {name} is False)"

    def fast_loader(self) -> Loader:
        def load(value: Any) -> bool:
            if value is True or value is False:
                return value
            raise Fallback

        return load


class StrictString(CodedField, fields.String):
    """A JSON string of bounded length with no control or invisible formatting characters."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected a string"
    }

    def __init__(
        self,
        *,
        max_length: int,
        min_length: int = 1,
        choices: tuple[str, ...] | None = None,
        known: frozenset[str] = frozenset(),
        all_known: Callable[[list[Any]], bool] | None = None,
        emoji_joiners: bool = False,
        not_blank: tuple[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        self.min_length, self.max_length, self.choices = min_length, max_length, choices
        self.not_blank = not_blank
        """``(name, why)``: a string of whitespace alone is refused too (:func:`blank`), as
        this field's own check — reported with the body's other problems."""
        self.emoji_joiners = emoji_joiners
        """A display name's: a zero-width joiner between two emoji (👩‍💻, ❤️‍🔥, 🏳️‍🌈) is
        part of the emoji, not an invisible character (ids refuse it still)."""
        # Values known to be valid (card IDs): lets a list of them take the fast path. Other
        # values of the right shape are still accepted, and checked by the domain.
        self.known = frozenset(v for v in known if self._passes(v))
        self.all_known: Callable[[list[Any]], bool] = all_known or self.known.issuperset
        """Whether every item of a list is in :attr:`known`: ``known.issuperset``, or a
        function that answers the same without hashing each item (``cards.all_card_ids``;
        the domain reads the same IDs again, and a new string is hashed only once)."""
        if all_known is not None and (len(self.known) != len(known) or not all_known(list(known))):
            raise ValueError("all_known must accept the known values, each valid here")
        if choices is not None:
            kwargs.setdefault("metadata", {})["enum"] = list(choices)
        super().__init__(validate=self._check, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if type(value) is not str:
            raise self.make_error("invalid")
        return value

    def _check(self, value: str) -> None:
        if self.choices is not None:
            if value not in self.choices:
                raise fail(
                    "not_allowed", f"{quote(value)} is not one of: {', '.join(self.choices)}"
                )
            return
        if not self.min_length <= len(value) <= self.max_length:
            raise fail(
                "invalid_length",
                f"length {len(value)}; use {self.min_length} to {self.max_length} characters",
            )
        if self.not_blank is not None and value.isspace():  # (empty: the length's)
            raise blank(*self.not_blank)
        if _CONTROL.search(value):
            raise fail("control_character", "control characters are not allowed in names")
        invisible = _FORMAT.search(value)
        if invisible and self.emoji_joiners:
            invisible = next(
                (m for m in _FORMAT.finditer(value) if not joins_emoji(value, m.start())), None
            )
        if invisible:
            raise fail(
                "format_character",
                f"U+{ord(invisible.group()):04X} at position {invisible.start()} is an invisible "
                "formatting character (a bidi override or a zero-width character); remove it"
                + (
                    " (a zero-width joiner is taken between two emoji, as in 👩‍💻)"
                    if self.emoji_joiners and invisible.group() == ZWJ
                    else ""
                ),
            )

    def _passes(self, value: str) -> bool:
        try:
            self._check(value)
        except ValidationError:
            return False
        return True

    def fast_validators(self) -> list[Callable[..., Any]]:
        return [StrictString._check]

    def fast_check(self, name: str) -> str | None:
        if self.choices is not None:
            # A set display after ``in`` is compiled to a frozenset constant; the repr of a
            # frozenset would be a call that builds the set again on every load.
            choices = ", ".join(repr(choice) for choice in sorted(self.choices))
            return f"type({name}) is str and {name} in {{{choices}}}"
        # A printable string has no character of the categories C and Z (the space
        # aside): none of the control or formatting characters _check refuses.
        length = f"{self.min_length!r} <= len({name}) <= {self.max_length!r}"
        # str.isprintable called as a function: compiled, ``v.isprintable()`` looks the
        # method up by name on every call (~440 instructions an id, 4 ids a hand)
        found = f"type({name}) is str and {length} and isprintable({name})"
        return found if self.not_blank is None else f"{found} and not {name}.isspace()"

    def fast_constants(self) -> dict[str, Any]:
        return {} if self.choices is not None else {"isprintable": str.isprintable}

    def fast_loader(self) -> Loader:
        low, high, control = self.min_length, self.max_length, _REFUSED.search
        if self.choices is not None:
            choices = frozenset(self.choices)

            def choice(value: Any) -> str:
                if type(value) is str and value in choices:
                    return value
                raise Fallback

            return choice

        refuse_blank = self.not_blank is not None

        def load(value: Any) -> str:
            if (
                type(value) is str
                and low <= len(value) <= high
                and not control(value)
                and not (refuse_blank and value.isspace())
            ):
                return value
            raise Fallback

        return load


class StrictList(CodedField, fields.List[Any]):
    """A JSON array with at most ``max_items`` entries."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected an array"
    }

    def __init__(self, inner: CodedField, *, max_items: int, **kwargs: Any) -> None:
        self.max_items = max_items
        super().__init__(inner, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if type(value) is not list:
            raise self.make_error("invalid")
        if len(value) > self.max_items:  # before looking at any item: bounded work
            raise fail("too_many", f"{len(value)} items; at most {self.max_items} are allowed")
        return super()._deserialize(value, attr, data, **kwargs)

    def _all_known(self) -> Callable[[list[Any]], bool] | None:
        """Whether every item of a list is a value known to be valid (a card ID), if the
        items know any."""
        item = self.inner
        return item.all_known if isinstance(item, StrictString) and item.known else None

    def _as_given(self) -> bool:
        """Whether each item, null included, loads as it is (:func:`as_given`): the list
        then loads as a copy of itself."""
        item = self.inner
        return isinstance(item, CodedField) and item.allow_none and item.fast_loader() is as_given

    def _each(self) -> str | None:
        """The name of the items' loader in generated code, if each item loads alone by it
        (its loader refuses null, as the field does: a nested object); else None."""
        item = self.inner
        if isinstance(item, CodedField) and not item.allow_none and item.fast_refuses_null():
            return f"each_{self.name}"
        return None

    def fast_check(self, name: str) -> str | None:
        if self._each() is not None or self._as_given():  # the items by their loader,
            # in fast_value; or each as it is (the list copied, as marshmallow does)
            return f"type({name}) is list and len({name}) <= {self.max_items!r}"
        # A list of known values (card IDs) is plainly valid, and loads as it is: the list
        # itself (the records' convert makes a tuple of it). An unhashable item makes the
        # check false (cards.all_card_ids) or raises a TypeError (a set's issuperset): a
        # fallback either way.
        if self._all_known() is None:
            return None
        size = f"len({name}) <= {self.max_items!r}"
        return f"type({name}) is list and {size} and all_known({name})"

    def fast_value(self, name: str) -> str:
        each = self._each()
        return name if each is None else f"list(map({each}, {name}))"  # as load_all does

    def fast_constants(self) -> dict[str, Any]:
        each = self._each()
        if each is not None:
            assert isinstance(self.inner, CodedField)  # _each says
            return {each: self.inner.fast_loader()}
        all_known = self._all_known()
        return {} if all_known is None else {"all_known": all_known}

    def untranslated(self) -> str | None:
        if not isinstance(self.inner, CodedField):
            return f"items of a plain {type(self.inner).__name__} field"
        item = self.inner.untranslated()
        return super().untranslated() or (None if item is None else f"its items' {item}")

    def fast_loader(self) -> Loader:
        item = self.inner
        assert isinstance(item, CodedField)  # untranslated() refuses other items
        inner, null = item.fast_loader(), _none if item.allow_none else _fallback
        most = self.max_items

        def load(value: Any) -> list[Any]:
            if type(value) is list and len(value) <= most:
                # a fast loader takes non-null values: null is the field's to allow
                return [null(v) if v is None else inner(v) for v in value]
            raise Fallback

        if self._as_given():

            def copy(value: Any) -> list[Any]:
                """Each item as it is: a copy of the list (one call, not one per item)."""
                if type(value) is list and len(value) <= most:
                    return list(value)
                raise Fallback

            return copy

        if not item.allow_none and item.fast_refuses_null():

            def load_all(value: Any) -> list[Any]:
                """Each item by its loader, which refuses null as the field does."""
                if type(value) is list and len(value) <= most:
                    return list(map(inner, value))
                raise Fallback

            return load_all

        all_known = self._all_known()
        if all_known is None:
            return load

        def known_values(value: Any) -> list[Any]:
            """A list of known values (card IDs) is plainly valid; others go one by one."""
            try:
                if type(value) is list and len(value) <= most and all_known(value):
                    return list(value)
            except TypeError:  # an unhashable item, in a set's issuperset
                pass
            return load(value)

        return known_values


class StrictNested(CodedField, fields.Nested):
    """A nested JSON object (not an array, not a string)."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "type": "expected an object"
    }

    def _deserialize(
        self,
        value: Any,
        attr: str | None,
        data: Mapping[str, Any] | None,
        partial: bool | types.StrSequenceOrSet | None = None,
        **kwargs: Any,
    ) -> Any:
        if not isinstance(value, Mapping):
            raise self.make_error("type")
        return super()._deserialize(value, attr, data, partial, **kwargs)

    def untranslated(self) -> str | None:
        # only/exclude would re-initialize a copied schema's fields under its compiled loader
        for option in ("many", "unknown", "only", "exclude"):
            if getattr(self, option):
                return f"{option}={getattr(self, option)!r}"
        if not isinstance(self.schema, StrictSchema):
            return f"a nested {type(self.schema).__name__} (not a StrictSchema)"
        return super().untranslated()

    def fast_loader(self) -> Loader:
        schema = self.schema
        assert isinstance(schema, StrictSchema)  # untranslated() refuses other schemas
        return schema.fast_load

    def fast_refuses_null(self) -> bool:
        return True  # a schema's fast loader takes a dict only (see StrictSchema._compile)


class StrictSchema(Schema):
    """Base schema: unknown fields are errors that name the fields allowed there.

    Every instance compiles its fast loader when it is made (module-level instances, so at
    import), and refuses with a ``TypeError`` any schema or field feature the compiler
    does not translate: a new hook or field option fails loudly instead of being skipped
    on the fast path.
    """

    record: ClassVar[Callable[..., Any] | None] = None
    """The domain record (a named tuple) a load returns, or None for the loaded dict; or
    a function (a ``staticmethod``, compiled or not) that makes what the load returns
    from the fields.

    Each loaded field becomes the record's field (the function's parameter) of the same
    name, after its field's ``convert``; a field left out of the request takes the
    record's default. Both paths build it from this one declaration: marshmallow's load by
    :meth:`_make_record`, the fast loader by the code it generates, which builds the
    record in one call (a function's: with its parameters in order).
    """
    fast_load: Loader
    """The fast path: ``fast_load(data)`` is the loaded value, or raises :class:`Fallback`."""
    fast_source: str
    """The generated source of :attr:`fast_load`, for reading and debugging (with a
    :attr:`record`, of its general loader; each shape's loader has its ``source``)."""
    fast_shapes: dict[tuple[Any, ...], Loader]
    """The loaders of the shapes learned (a record schema's: :meth:`_shaped`; else empty)."""
    exactly_one_of: ClassVar[tuple[str, ...]] = ()
    """Fields of which a request gives exactly one (a session hand's ``net``, ``gostop``
    or ``balance``): the schema's own check refuses another count, and the OpenAPI
    document says the same from this declaration (a ``oneOf`` of each one ``required``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        allowed = ", ".join(sorted(self.load_fields))
        unknown = (
            f"unknown field; the fields allowed here are: {allowed}"
            if allowed
            else "unknown field; this request takes none (send no body, or {})"
        )
        self.error_messages = {
            **self.error_messages,
            "unknown": Coded(unknown, "unknown_field"),
            "type": Coded("expected a JSON object", "invalid_type"),
        }
        self.fast_shapes = {}  # a record schema's: filled as it learns (see _shaped)
        self.native_source: str | None = None  # a record schema's compiled loader, as
        self.fast_native: Any = None  # generated (_native), and its object if compiled
        self.fast_load = self._compile()
        self.load_one: Loader = self.load_fast
        """:meth:`load_fast` as one callable: compiled, the loader object's own
        ``load_fast`` (the same fallback, without a Python frame: one a batched hand)."""
        if self.fast_native is not None:
            self.fast_native.slow = self.load
            self.load_one = self.fast_native.load_fast

    def load(self, data: Any, **kwargs: Any) -> Any:
        """marshmallow's load, after refusing at once an object with more unknown fields
        than a problem lists (marshmallow would build an error for each one)."""
        if self.unknown == RAISE and type(data) is dict and len(data) > MAX_PROBLEMS:
            keys = {field.data_key or name for name, field in self.load_fields.items()}
            unknown = [key for key in data if key not in keys]
            if len(unknown) > MAX_PROBLEMS:
                shown = MAX_PROBLEMS - 1
                errors: dict[str, Any] = {
                    key: [self.error_messages["unknown"]] for key in unknown[:shown]
                }
                errors["_schema"] = [
                    Coded(f"and {len(unknown) - shown} more unknown fields", "too_many_problems")
                ]
                raise ValidationError(errors)
        try:
            return super().load(data, **kwargs)
        except ValidationError as error:
            if type(data) is dict and isinstance(error.messages, dict):
                error.messages = self._unknown_in_order(error.messages, data)
            raise

    def _unknown_in_order(self, messages: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        """``messages`` with the unknown fields in the order the request gives them:
        marshmallow lists them in the order of a set of names, which changes from process
        to process (the same body got its problems, and its "first at", in another order
        from each worker). The declared fields' stay first, in the order checked."""
        known = {field.data_key or name for name, field in self.load_fields.items()}
        unknown = [key for key in data if key in messages and key not in known]
        if len(unknown) < 2:
            return messages
        found = {key: value for key, value in messages.items() if key not in unknown}
        at = next(i for i, key in enumerate(messages) if key in unknown)
        items = list(found.items())
        return dict(items[:at] + [(key, messages[key]) for key in unknown] + items[at:])

    @post_load
    def _make_record(self, data: dict[str, Any], **kwargs: Any) -> Any:
        """The :attr:`record` of the loaded fields (the slow path's; see :meth:`_compile`)."""
        if self.record is None:
            return data
        for name, field in self.load_fields.items():
            convert = getattr(field, "convert", None)
            if convert is not None and data.get(name) is not None:
                data[name] = convert(data[name])
        return self.record(**data)

    def load_fast(self, data: Any) -> Any:
        """``load(data)``, by the fast path when it is sure, else by marshmallow."""
        try:
            return self.fast_load(data)
        except Fallback:
            return self.load(data)

    def _refuse(self, feature: str, field: str | None = None) -> TypeError:
        where = type(self).__name__ + ("" if field is None else f".{field}")
        return TypeError(
            f"{where}: the fast loader does not translate {feature}; "
            "drop it or teach the compiler in calculator/api/fields.py"
        )

    def _load_hooks(self) -> tuple[list[str], list[str]]:
        """The names of the schema validators and post-load methods, in marshmallow's
        order, after refusing every other loading hook or hook option."""
        validators: list[str] = []
        post_loads: list[str] = []
        for tag, name, pass_collection, options in _hooks(type(self)):
            if tag in (PRE_DUMP, POST_DUMP):
                continue  # dumping is not the loader's business
            if name == "_make_record":
                continue  # the compiler builds the record itself
            if tag not in (VALIDATES_SCHEMA, POST_LOAD):
                raise self._refuse(f"@{tag} ({name})")
            if pass_collection:
                raise self._refuse(f"@{tag}(pass_collection=True) ({name})")
            if options.get("pass_original") or not options.keys() <= _HOOK_OPTIONS:
                raise self._refuse(f"@{tag} options {options} ({name})")
            (validators if tag == VALIDATES_SCHEMA else post_loads).append(name)
        return validators, post_loads

    def _compile(self) -> Loader:
        """Generate the fast loader: one straight block of checks per field.

        A field that can say its check as an expression (:meth:`CodedField.fast_check`)
        is checked inline; the others call their fast loader. With a :attr:`record`, each
        field's value goes to a local and the record is made in one call (no dict, no
        hook); without, the loaded dict goes through the schema's validators and hooks.
        Raises ``TypeError`` for what it does not translate.
        """
        if self.many:
            raise self._refuse("many=True")
        if self.partial:
            raise self._refuse("partial loading")
        if self.unknown not in (RAISE, INCLUDE):
            raise self._refuse(f"unknown={self.unknown!r}")
        validators, post_loads = self._load_hooks()
        record = self.record
        if record is not None:
            self._check_record(record, validators + post_loads)
        namespace: dict[str, Any] = {
            "Fallback": Fallback,
            "ValidationError": ValidationError,
            "partial": self.partial,
            "unknown": self.unknown,
        }
        lines = ["def load(data):", "    if type(data) is not dict:", "        raise Fallback"]
        strict = self.unknown == RAISE
        keys = [name if f.data_key is None else f.data_key for name, f in self.load_fields.items()]
        namespace["allowed"] = frozenset(keys)
        namespace["keys_allowed"] = namespace["allowed"].issuperset  # half the cost of keys() <=
        if strict:
            lines += ["    if not keys_allowed(data):", "        raise Fallback"]
        if not record:
            lines.append("    out = {}")
        targets: dict[str, str] = {}  # record mode: field name → its local
        nested: dict[str, Schema] = {}  # the names of nested schemas' loaders: their schemas
        blocks: list[tuple[str, list[str], list[str]]] = []  # record mode: per field, its
        # key, the lines when it is present and when it is not (indented as in an ``if``)
        first = len(lines)  # the fields' checks: lines[first:last]
        for i, (key, (name, field)) in enumerate(zip(keys, self.load_fields.items(), strict=True)):
            if not isinstance(field, CodedField):
                raise self._refuse(f"a plain {type(field).__name__} field", name)
            feature = field.untranslated()
            if feature is not None:
                raise self._refuse(feature, name)
            convert = field.convert if record else None
            via = None
            if _lookup(convert) is not None:  # an enum member by its value: a subscript
                namespace[f"C{i}"] = _lookup(convert)
                via = f"C{i}[{{}}]"
            elif convert is tuple:  # by its builtin name: compiled, tuple(v) is made at
                # once, where C{i}(v) called the type object (~280 instructions a pile)
                via = "tuple({})"
            elif convert is not None:
                namespace[f"C{i}"] = convert
                via = f"C{i}({{}})"
            target = targets[name] = f"f{i}" if record else f"out[{name!r}]"
            start = len(lines)
            lines += [f"    if {key!r} in data:", f"        v = data[{key!r}]"]
            check = field.fast_check("v")
            for constant, value in field.fast_constants().items():
                if namespace.setdefault(constant, value) != value:
                    raise self._refuse(f"two values of {constant} in fast checks", name)
            namespace[f"L{i}"] = field.fast_loader()
            if isinstance(field, StrictNested):
                nested[f"L{i}"] = field.schema
            elif isinstance(field, StrictList) and isinstance(field.inner, StrictNested):
                each = field._each()
                if each is not None:
                    nested[each] = field.inner.schema
            null = "            " + (f"{target} = None" if field.allow_none else "raise Fallback")
            if check is not None:  # the common case inline, before null; the rest below
                # (as it is: a list is copied, as its loader and marshmallow do, unless the
                # record's convert makes its own: a tuple)
                if eval(check, namespace, {"v": None}) is not False:  # our own expression
                    raise self._refuse(f"a fast check that passes null ({check})", name)
                value = field.fast_value("v")
                if value == "v" and via is None and isinstance(field, StrictList):
                    value = "list(v)"
                if convert is tuple and value.startswith("list("):
                    made = f"tuple({value.removeprefix('list(')}"  # no list to copy
                else:
                    made = _via(via, value)
                table = _lookup(convert)
                if record and table is not None and _choices(field) == set(table):
                    # a choice made its member by one look-up in the members' table, which
                    # holds exactly the choices (the set's, then the table's, were two: a
                    # player's gukjin, an outcome's type; ~1k instructions a batched hand)
                    check = f"type(v) is str and ({target} := C{i}.get(v)) is not None"
                    lines += [f"        if {check}:", "            pass  # made by the check"]
                else:
                    lines += [f"        if {check}:", f"            {target} = {made}"]
                lines += ["        elif v is None:", null]
            else:
                lines += ["        if v is None:", null]
            lines += ["        else:", f"            {target} = {_via(via, f'L{i}(v)')}"]
            default = field.load_default
            if field.required:
                lines += ["    else:", "        raise Fallback"]
            elif default is missing:
                if record:  # the record's own default
                    namespace[f"D{i}"] = _record_fields(record)[name].default
                    lines += ["    else:", f"        {target} = D{i}"]
            elif callable(default) and _empty_made(default, convert) is not None:
                # an empty container converted to an empty tuple or frozenset: immutable,
                # so made once, here
                namespace[f"D{i}"] = _empty_made(default, convert)
                lines += ["    else:", f"        {target} = D{i}"]
            elif callable(default):
                namespace[f"D{i}"] = default
                lines += ["    else:", f"        {target} = D{i}()"]
                if via is not None:  # null stays null, as in _make_record
                    lines += [
                        f"        if {target} is not None:",
                        f"            {target} = {_via(via, target)}",
                    ]
            else:  # a constant: converted once, here
                fixed = convert(default) if convert and default is not None else default
                namespace[f"D{i}"] = fixed
                lines += ["    else:", f"        {target} = D{i}"]
            block = lines[start + 1 :]
            split = block.index("    else:") if "    else:" in block else len(block)
            blocks.append((key, block[:split], block[split + 1 :]))
        last = len(lines)
        if record:
            namespace["R"] = record
            values = []
            for j, (name, parameter) in enumerate(_record_fields(record).items()):
                if name not in targets:  # not on the wire: the record's default
                    namespace[f"R{j}"] = parameter.default
                values.append(targets.get(name, f"R{j}"))
            if isinstance(record, type):
                # tuple.__new__, as the record's own _make, without its call and length check
                namespace["new"] = tuple.__new__
                make = "new(R, ({},))"
            else:
                make = "R({})"
            shaped = self._shaped(lines, first, last, namespace, blocks, make, values)
            return self._native(namespace, blocks, make, values, nested) or shaped
        if not strict:
            lines += ["    for key in data.keys() - allowed:", "        out[key] = data[key]"]
        if validators:
            namespace["validators"] = [getattr(self, name) for name in validators]
            lines += [
                "    try:",
                "        for validator in validators:",
                "            validator(out, partial=partial, many=False, unknown=unknown)",
                "    except ValidationError:",
                "        raise Fallback from None",
            ]
        for j, name in enumerate(post_loads):
            namespace[f"P{j}"] = getattr(self, name)
            lines.append(f"    out = P{j}(out, many=False, partial=partial, unknown=unknown)")
        lines.append("    return out")
        return self._exec(lines, first, last, namespace)

    def _shaped(
        self,
        lines: list[str],
        first: int,
        last: int,
        namespace: dict[str, Any],
        blocks: list[tuple[str, list[str], list[str]]],
        make: str,
        values: list[str],
    ) -> Loader:
        """The record loader of ``lines`` (which test each field's key), behind a table of
        loaders by the keys of the object, in order: its *shapes*.

        A shape's loader is the same lines less the key tests, which its keys answer:
        each field's lines for a present key, or for an absent one. The general loader
        learns the shape of an object it loads (up to :data:`MAX_SHAPES`; then it goes on
        alone): clients send their requests in a few shapes, and an object of a known
        shape then takes no test for each of the fields it leaves out.
        """
        shapes: dict[tuple[Any, ...], Loader] = {}
        namespace["shapes"] = self.fast_shapes = shapes

        learning = threading.Lock()  # threads that learn at once stay within the bound

        def learn(data: dict[Any, Any]) -> None:
            keys = tuple(data)
            with learning:
                if len(shapes) < MAX_SHAPES and keys not in shapes:
                    shapes[keys] = self._shape(keys, namespace, blocks, make, values)

        namespace["learn"] = learn
        lines = [
            *lines,
            f"    made = {make.format(', '.join(values))}",
            f"    if len(shapes) < {MAX_SHAPES}:",
            "        learn(data)",
            "    return made",
        ]
        general = self._exec(lines, first, last, namespace)
        dispatch = [
            "def load(data):",
            "    if type(data) is not dict:",
            "        raise Fallback",
            "    return shape(tuple(data), general)(data)",
        ]
        scope: dict[str, Any] = {"Fallback": Fallback, "shape": shapes.get, "general": general}
        exec(compile("\n".join(dispatch), f"<fast load: {type(self).__name__}>", "exec"), scope)
        loader: Loader = scope["load"]
        return loader

    def _shape(
        self,
        keys: tuple[Any, ...],
        namespace: dict[str, Any],
        blocks: list[tuple[str, list[str], list[str]]],
        make: str,
        values: list[str],
    ) -> Loader:
        """The loader of an object of exactly ``keys`` (see :meth:`_shaped`)."""
        present = set(keys)
        lines = ["def load(data):", "    try:"]
        values = list(values)
        for key, given, left_out in blocks:
            if key in present:
                lines += given
                continue
            fixed = _FIXED.fullmatch(left_out[0]) if len(left_out) == 1 else None
            if fixed and fixed[1] in values:  # a constant default: straight into the record
                values[values.index(fixed[1])] = fixed[2]
            else:
                lines += left_out
        made = make.format(", ".join(values))
        if len(lines) == 2:  # nothing to check: no field given
            lines.append("        pass")
        lines += ["    except TypeError:", "        raise Fallback from None", f"    return {made}"]
        source = "\n".join(lines)
        scope = dict(namespace)
        exec(compile(source, f"<fast load: {type(self).__name__} {keys}>", "exec"), scope)
        loader: Loader = scope["load"]
        loader.source = source  # type: ignore[attr-defined]
        return loader

    def _native(
        self,
        namespace: dict[str, Any],
        blocks: list[tuple[str, list[str], list[str]]],
        make: str,
        values: list[str],
        nested: dict[str, Schema],
    ) -> Loader | None:
        """The compiled loader of this schema (``calculator/api/fast_loaders.py``), if the
        build compiled it and its source there is still the one generated here; else None
        (the interpreted loaders of :meth:`_shaped` serve).

        The source (:attr:`native_source`, a class) is the general loader's, for mypyc: the
        names the interpreted loader reads from its namespace are attributes of an object
        made with those values (a function of :data:`NATIVE_CALLS`: imported, and called
        by its name); each key is looked up once (``get``, with a sentinel), none
        once the object's keys are all found, and the keys found are counted, so that an
        unknown key, which the count misses, falls back as ``keys_allowed`` does; a nested
        schema of :data:`NATIVE_SCHEMAS` is called by its object's ``load``, without a
        Python call.
        """
        name = f"{type(self).__module__}.{type(self).__qualname__}"
        if name not in NATIVE_SCHEMAS:
            return None
        self.native_source = source = _native_class(name, namespace, blocks, make, values, nested)
        if not fast_loaders.__file__ or fast_loaders.__file__.endswith(".py"):
            return None  # interpreted: the shapes' loaders are faster
        if fast_loaders.SOURCES.get(name) != _digest(source):
            return None  # out of date (tests/api/test_fast_loaders.py says so)
        constants = dict(namespace)
        for attribute, schema in nested.items():
            if _qualified(schema) in NATIVE_SCHEMAS:  # called natively, by its object
                if not isinstance(schema, StrictSchema) or schema.fast_native is None:
                    return None  # it loads interpreted (out of date): so does this one
                constants[attribute] = schema.fast_native
        self.fast_native = fast_loaders.CLASSES[name](constants)
        loader: Loader = self.fast_native.load
        return loader

    def _check_record(self, record: Callable[..., Any], hooks: list[str]) -> None:
        """Refuse a :attr:`record` the load could not build from the fields alone."""
        if isinstance(record, type) and not hasattr(record, "_make"):
            raise self._refuse(f"record={record.__name__} (not a named tuple)")
        # a function compiled (mypyc) is a builtin one; its parameters and defaults are
        # read from its text signature, as a Python function's are from its code
        function = inspect.isfunction(record) or inspect.isbuiltin(record)
        if not isinstance(record, type) and not function:
            raise self._refuse(f"record={record!r} (not a named tuple or a function)")
        if hooks:
            raise self._refuse(f"hooks beside record= ({', '.join(hooks)})")
        if self.unknown != RAISE:
            raise self._refuse("unknown fields with record=")
        try:
            parameters = _record_fields(record)
        except ValueError:  # a builtin function that does not say its parameters
            raise self._refuse(f"record={record!r} (no signature to read)") from None
        if any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in parameters.values()):
            raise self._refuse(f"record={record.__name__} (a parameter not by position)")
        for name, field in self.load_fields.items():
            if name not in parameters:
                raise self._refuse(f"a field that {record.__name__} does not have", name)
            if (
                not field.required
                and field.load_default is missing
                and parameters[name].default is parameters[name].empty
            ):
                raise self._refuse(f"an optional field without {record.__name__}'s default", name)
        for name, parameter in parameters.items():
            if name not in self.load_fields and parameter.default is parameter.empty:
                raise self._refuse(f"{record.__name__}.{name} without a field or default")

    def _exec(self, lines: list[str], first: int, last: int, namespace: dict[str, Any]) -> Loader:
        # The fields' checks under one try (free in Python 3.11 until something raises): a
        # TypeError there (an unhashable value) means "not sure", as Fallback does. Hooks
        # and the record's construction stay outside: an error of theirs is not hidden.
        checks = ["    " + line for line in lines[first:last]] or ["        pass"]  # no fields
        lines = [
            *lines[:first],
            "    try:",
            *checks,
            "    except TypeError:",
            "        raise Fallback from None",
            *lines[last:],
        ]
        self.fast_source = "\n".join(lines)
        exec(compile(self.fast_source, f"<fast load: {type(self).__name__}>", "exec"), namespace)
        loader: Loader = namespace["load"]
        return loader


_FIXED = re.compile(r" +(f\d+) = (D\d+)")  # a field's constant default, in a generated line
# a name in generated code, or a string literal (a key, whose text is not a name)
_NAME_OR_STRING = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\b[A-Za-z_]\w*\b""")
_MAP = re.compile(r"(list|tuple)\(map\((\w+), v\)\)")  # a list of nested objects, loaded


def _native_class(
    name: str,
    namespace: dict[str, Any],
    blocks: list[tuple[str, list[str], list[str]]],
    make: str,
    values: list[str],
    nested: dict[str, Schema],
) -> str:
    """The source of the compiled loader (a class) of the record schema ``name``, from the
    blocks of :meth:`StrictSchema._compile` (see :meth:`StrictSchema._native`)."""
    natives = {a for a, schema in nested.items() if _qualified(schema) in NATIVE_SCHEMAS}
    body = [
        "        if type(data) is not dict:",
        "            raise Fallback",
        "        found = 0",
        "        size = len(data)",
        "        try:",
    ]
    for key, given, left_out in blocks:
        # once every key of the object is found, the fields after are left out: their
        # defaults without a look-up (a batched hand's objects give 4–6 of a player's 13
        # fields, 5 of a request's 8: ~16 look-ups of absent keys a hand, ~1k instructions)
        body += [
            f"            v = data.get({key!r}, MISSING) if found < size else MISSING",
            "            if v is not MISSING:",
            "                found += 1",
        ]
        body += ["        " + line for line in given[1:]]  # less ``v = data[key]``
        if left_out:
            body += ["            else:", *("        " + line for line in left_out)]
    if not blocks:
        body.append("            pass")
    body += [
        "        except TypeError:",
        "            raise Fallback from None",
        "        if found != size:  # a key no field has",
        "            raise Fallback",
        f"        return {make.format(', '.join(values))}",
    ]
    text = "\n".join(body)
    # a tuple of nested objects made at once from the list (compiled, the length known),
    # not through a list first
    text = _MAP.sub(
        lambda m: (
            (f"[{m[2]}(x) for x in v]" if m[1] == "list" else f"tuple({m[2]}(x) for x in v)")
            if m[2] in natives
            else m[0]
        ),
        text,
    )
    used: set[str] = set()
    imports: dict[str, str] = {}  # a function called directly: its name → its module

    def attribute(match: re.Match[str]) -> str:
        word = match[0]
        if word[0] in "'\"" or word not in namespace or word.startswith("__") or word == "load":
            return word
        module = _direct(namespace[word])
        if module is not None:
            # one name, one function: two modules' functions of one name would shadow
            if imports.setdefault(namespace[word].__name__, module) != module:
                raise ValueError(f"{word}: two functions of NATIVE_CALLS share its name")
            return str(namespace[word].__name__)
        used.add(word)
        return f"self.{word}.load" if word in natives else f"self.{word}"

    text = _NAME_OR_STRING.sub(attribute, text)
    locals_ = sorted(set(re.findall(r"\b(f\d+)\b", text)), key=lambda f: int(f[1:]))
    cls = _native_name(name)
    lines = [f"from {module} import {function}" for function, module in sorted(imports.items())]
    lines += ["", ""] if imports else []
    lines += [f"class {cls}:", f'    """The loader of {name} (compiled)."""', ""]
    used.add("Fallback")  # load_fast's
    for word in sorted(used):
        if word in natives:
            kind = _native_name(_qualified(nested[word]))
        else:  # a table (an enum's members by value) typed: compiled, a dict's own look-ups
            kind = "dict[Any, Any]" if type(namespace[word]) is dict else "Any"
        lines.append(f"    {word}: {kind}")
    lines.append("    slow: Any  # the schema's load, set once the object is made")
    lines += ["", "    def __init__(self, constants: dict[str, Any]) -> None:"]
    lines += [f"        self.{word} = constants[{word!r}]" for word in sorted(used)]
    lines += [
        "",
        "    def load_fast(self, data: Any) -> Any:",
        '        """StrictSchema.load_fast: by load, else by the full load (slow)."""',
        "        try:",
        "            return self.load(data)",
        "        except self.Fallback:",
        "            return self.slow(data)",
    ]
    lines += ["", "    def load(self, data: Any) -> Any:", "        v: Any"]
    lines += [f"        {local}: Any" for local in locals_]
    return "\n".join([*lines, text, ""])


def _direct(value: Any) -> str | None:
    """The module of ``value``, if it is a function of :data:`NATIVE_CALLS` that a
    compiled loader imports and calls directly (else None: an attribute of the loader
    object, called through Python's protocol).

    Compiled together, a direct call is a C call: through an attribute, each call of a
    compiled function went through its Python wrapper, which parses its arguments again
    (a hand's record builder: ~0.3k instructions; a pile's ``all_card_ids``: ~0.15k)."""
    module = getattr(value, "__module__", None)
    if module not in NATIVE_CALLS or not callable(value) or isinstance(value, type):
        return None
    name = getattr(value, "__name__", None)
    return module if getattr(importlib.import_module(module), name or "", None) is value else None


def _qualified(schema: Schema) -> str:
    return f"{type(schema).__module__}.{type(schema).__qualname__}"


def _native_name(name: str) -> str:
    """The class of the schema ``name``'s compiled loader."""
    return "Load" + name.rpartition(".")[2]


def _digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def native_module() -> str:
    """The source of ``calculator/api/fast_loaders.py``: the compiled loaders of
    :data:`NATIVE_SCHEMAS`, as their schemas generate them now (``write_native_module``
    writes it; tests/api/test_fast_loaders.py holds the file to it)."""
    classes, digests = [], []
    for name in NATIVE_SCHEMAS:
        module, _, qualname = name.rpartition(".")
        schema = getattr(importlib.import_module(module), qualname)()
        source = schema.native_source
        assert source is not None, name
        classes.append(source)
        digests.append(f"    {name!r}: {_digest(source)!r},")
    table = [f"    {name!r}: {_native_name(name)}," for name in NATIVE_SCHEMAS]
    return "\n".join(
        [
            '"""The compiled fast loaders of the hand\'s schemas. GENERATED: do not edit.',
            "",
            "Written by calculator.api.fields.write_native_module() from the schemas, which use",
            "a class here only in the compiled build (setup.py), and only while its source is",
            "the one they generate (SOURCES holds its digest): see StrictSchema._native.",
            '"""',
            "",
            "# ruff: noqa",
            "# fmt: off",
            "from __future__ import annotations",
            "",
            "from typing import Any, Final",
            "",
            "",
            "class _Missing:",
            '    """The value of a key left out."""',
            "",
            "",
            "MISSING: Final = _Missing()",
            "",
            "",
            *(f"{c}\n" for c in classes),
            "CLASSES: Final[dict[str, Any]] = {",
            *table,
            "}",
            "SOURCES: Final[dict[str, str]] = {",
            *digests,
            "}",
            "",
        ]
    )


def write_native_module() -> None:
    """Write ``calculator/api/fast_loaders.py`` (:func:`native_module`), then rebuild."""
    Path(__file__).parent.joinpath("fast_loaders.py").write_text(native_module())


def _empty_made(default: Callable[[], Any], convert: Loader | None) -> Any:
    """What ``convert(default())`` makes, when ``default`` is a builtin container type (a
    new empty one every call) and ``convert`` makes an empty tuple or frozenset of it; else
    None."""
    if convert is None or default not in (list, tuple, dict, set, frozenset):
        return None
    made = convert(default())
    return made if type(made) in (tuple, frozenset) and not made else None


def _record_fields(record: Callable[..., Any]) -> Mapping[str, inspect.Parameter]:
    """The fields of a record (a named tuple's, in order) or a function's parameters, each
    with its default (``inspect.Parameter.empty`` if none)."""
    return inspect.signature(record).parameters


def _via(convert: str | None, value: str) -> str:
    """Generated code: ``value`` through ``convert`` (a call or a subscript, with ``{}`` for
    the value), if any."""
    return value if convert is None else convert.format(value)


def _choices(field: CodedField) -> set[str] | None:
    """The strings a field takes, if it takes only some (a :class:`StrictString`'s
    ``choices``); else None."""
    choices = field.choices if isinstance(field, StrictString) else None
    return None if choices is None else set(choices)


def _lookup(convert: Loader | None) -> dict[Any, Any] | None:
    """The dict whose ``__getitem__`` ``convert`` is (a value → enum member table), if it
    is one: generated code subscripts it, cheaper than calling the bound method."""
    table = getattr(convert, "__self__", None)
    if type(table) is dict and getattr(convert, "__name__", None) == "__getitem__":
        return table
    return None


# The options of the hooks the compiler translates (pass_original=False only); with no
# field errors on the fast path, skip_on_field_errors changes nothing.
_HOOK_OPTIONS = frozenset({"pass_original", "skip_on_field_errors"})


@cache  # per class: nested fields make several instances of each schema
def _hooks(cls: type[Schema]) -> tuple[tuple[str, str, bool, dict[str, Any]], ...]:
    """(tag, method name, pass_collection, options) of every hook of ``cls``.

    Found as marshmallow finds them, without its private tables: the public decorators
    tag a method with ``__marshmallow_hook__``; the class's own (or nearest inherited)
    attribute of each name counts, in name order.
    """
    found = []
    for name in dir(cls):
        tags = getattr(inspect.getattr_static(cls, name), "__marshmallow_hook__", None) or {}
        for tag, entries in tags.items():
            found += [(tag, name, many, dict(options)) for many, options in entries]
    return tuple(found)


def count(maximum: int, description: str, **kwargs: Any) -> StrictInteger:
    """A non-negative integer field with an upper bound."""
    return StrictInteger(maximum=maximum, metadata={"description": description}, **kwargs)


def flag(description: str, **kwargs: Any) -> StrictBoolean:
    """A boolean field that defaults to false."""
    return StrictBoolean(load_default=False, metadata={"description": description}, **kwargs)


Pointer = tuple[str | int, ...]


def pointer_errors(messages: Any, path: Pointer = ()) -> list[tuple[Pointer, str, str]]:
    """Flatten marshmallow's nested error messages into (path, code, detail) triples."""
    found: list[tuple[Pointer, str, str]] = []
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            if key == "_schema":
                found += pointer_errors(value, path)
            else:
                found += pointer_errors(value, (*path, key))
    elif isinstance(messages, list | tuple):
        for message in messages:
            found += pointer_errors(message, path)
    else:
        found.append((path, getattr(messages, "code", "invalid"), str(messages)))
    return found
