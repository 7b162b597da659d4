"""Strict marshmallow fields whose errors carry a stable machine-readable code.

marshmallow's defaults are lenient where money is at stake (``Integer`` accepts "2",
``Boolean`` accepts "yes" and 1), and its messages carry no code. These fields accept
exactly the JSON type (calculator/api/json_values.py says which numbers and characters),
and every message they raise is a :class:`~calculator.api.coded_errors.Coded` string
(calculator/api/coded_errors.py), so that the problem+json body can give each error a
``code`` as well as a ``detail``.

Each field also gives a *fast loader*: a plain function that applies the same checks and
either returns the loaded value or raises :class:`Fallback` (or the same as an expression:
:meth:`CodedField.fast_check`). ``StrictSchema`` (calculator/api/strict_schema.py, with
``StrictNested``, the field of a nested schema) compiles them into its ``fast_load``;
calculator/api/native_loaders.py writes the loaders of a hand's schemas out for the
compiled build.

Somewhat over the house's ~400 lines: one class for each kind of JSON value, each with its
full load and its fast path side by side, over the fast-path protocol of
:class:`CodedField` that they share; apart, a kind's two paths would be read in two places.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import ValidationError, fields, types

from calculator.api.coded_errors import Coded, blank, fail
from calculator.api.json_values import (
    CONTROL_CHAR,
    FORMAT_CHAR,
    REFUSED_CHAR,
    ZWJ,
    joins_emoji,
    said_whole,
    too_large_to_read,
    whole_number,
)
from calculator.limits import quote

Loader = Callable[[Any], Any]


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
        if CONTROL_CHAR.search(value):
            raise fail("control_character", "control characters are not allowed in names")
        invisible = FORMAT_CHAR.search(value)
        if invisible and self.emoji_joiners:
            invisible = next(
                (m for m in FORMAT_CHAR.finditer(value) if not joins_emoji(value, m.start())), None
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
        low, high, control = self.min_length, self.max_length, REFUSED_CHAR.search
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


def count(maximum: int, description: str, **kwargs: Any) -> StrictInteger:
    """A non-negative integer field with an upper bound."""
    return StrictInteger(maximum=maximum, metadata={"description": description}, **kwargs)


def flag(description: str, **kwargs: Any) -> StrictBoolean:
    """A boolean field that defaults to false."""
    return StrictBoolean(load_default=False, metadata={"description": description}, **kwargs)
