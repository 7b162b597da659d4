"""Strict marshmallow fields whose errors carry a stable machine-readable code.

marshmallow's defaults are lenient where money is at stake (``Integer`` accepts "2",
``Boolean`` accepts "yes" and 1), and its messages carry no code. These fields accept
exactly the JSON type, and every message they raise is a :class:`Coded` string, so that
the problem+json body can give each error a ``code`` as well as a ``detail``.

A marshmallow load walks every field through several layers of calls, which costs far
more than scoring a hand. So each field also gives a *fast loader*: a plain function that
applies the same checks and either returns the loaded value or raises :class:`Fallback`.
:meth:`StrictSchema.fast_load` composes them; on any ``Fallback`` the caller runs the full
``load``, which produces the detailed errors. The fast path never decides that input is
invalid — only that it is plainly valid — and a property test holds the two paths to the
same results.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from marshmallow import RAISE, Schema, ValidationError, fields
from marshmallow.decorators import POST_LOAD, VALIDATES_SCHEMA
from marshmallow.utils import missing

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
_CONTROL = re.compile(f"[{_CONTROL_CHARS}]")
_FORMAT = re.compile(f"[{FORMAT_CHARS}]")
_REFUSED = re.compile(f"[{_CONTROL_CHARS}{FORMAT_CHARS}]")  # either: the fast path's check


class Fallback(Exception):  # noqa: N818 - a signal to take the slow path, not an error
    """The fast path is not sure: run the full marshmallow load."""


def _fallback(_value: Any) -> Any:
    raise Fallback


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


class CodedField(fields.Field):
    """Mixin: the messages of marshmallow's own errors (required, null, type) get codes."""

    default_error_messages: ClassVar[dict[str, str]] = {
        "required": "this field is required",
        "null": "null is not allowed here",
    }

    def make_error(self, key: str, **kwargs: Any) -> ValidationError:
        error = super().make_error(key, **kwargs)
        code = _KEY_CODES.get(key, key)
        messages = error.messages if isinstance(error.messages, list) else [error.messages]
        return ValidationError([Coded(str(m), code) for m in messages])

    def fast_loader(self) -> Loader:
        """A function applying this field's checks to a present, non-null value."""
        return _fallback  # a field without a fast path always takes the full load

    def fast_check(self, name: str) -> str | None:
        """This field's checks as a Python expression over the variable ``name`` (True:
        plainly valid, the value loads as it is), or None to call :meth:`fast_loader`."""
        return None


class StrictInteger(CodedField, fields.Integer):
    """A JSON integer only: 2.5, 2.0, "2" and true are rejected, never truncated."""

    default_error_messages: ClassVar[dict[str, str]] = {
        "invalid": "expected a whole number (an integer)"
    }

    def __init__(self, *, minimum: int = 0, maximum: int, **kwargs: Any) -> None:
        self.minimum, self.maximum = minimum, maximum
        super().__init__(strict=True, validate=self._check_range, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if type(value) is not int:  # bool is an int subclass; JSON true is not a number
            raise self.make_error("invalid")
        return value

    def fast_check(self, name: str) -> str | None:
        return f"type({name}) is int and {self.minimum!r} <= {name} <= {self.maximum!r}"

    def fast_loader(self) -> Loader:
        low, high = self.minimum, self.maximum

        def load(value: Any) -> int:
            if type(value) is int and low <= value <= high:
                return value
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

    default_error_messages: ClassVar[dict[str, str]] = {"invalid": "expected true or false"}

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

    default_error_messages: ClassVar[dict[str, str]] = {"invalid": "expected a string"}

    def __init__(
        self,
        *,
        max_length: int,
        min_length: int = 1,
        choices: tuple[str, ...] | None = None,
        known: frozenset[str] = frozenset(),
        **kwargs: Any,
    ) -> None:
        self.min_length, self.max_length, self.choices = min_length, max_length, choices
        # Values known to be valid (card IDs): lets a list of them take the fast path. Other
        # values of the right shape are still accepted, and checked by the domain.
        self.known = frozenset(v for v in known if min_length <= len(v) <= max_length)
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
                raise fail("not_allowed", f"{value!r} is not one of: {', '.join(self.choices)}")
            return
        if not self.min_length <= len(value) <= self.max_length:
            raise fail(
                "invalid_length",
                f"length {len(value)}; use {self.min_length} to {self.max_length} characters",
            )
        if _CONTROL.search(value):
            raise fail("control_character", "control characters are not allowed in names")
        invisible = _FORMAT.search(value)
        if invisible:
            raise fail(
                "format_character",
                f"U+{ord(invisible.group()):04X} at position {invisible.start()} is an invisible "
                "formatting character (a bidi override or a zero-width character); remove it",
            )

    def fast_check(self, name: str) -> str | None:
        if self.choices is not None:
            # A set display after ``in`` is compiled to a frozenset constant; the repr of a
            # frozenset would be a call that builds the set again on every load.
            choices = ", ".join(repr(choice) for choice in sorted(self.choices))
            return f"type({name}) is str and {name} in {{{choices}}}"
        return None

    def fast_loader(self) -> Loader:
        low, high, control = self.min_length, self.max_length, _REFUSED.search
        if self.choices is not None:
            choices = frozenset(self.choices)

            def choice(value: Any) -> str:
                if type(value) is str and value in choices:
                    return value
                raise Fallback

            return choice

        def load(value: Any) -> str:
            if type(value) is str and low <= len(value) <= high and not control(value):
                return value
            raise Fallback

        return load


class StrictList(CodedField, fields.List):
    """A JSON array with at most ``max_items`` entries."""

    default_error_messages: ClassVar[dict[str, str]] = {"invalid": "expected an array"}

    def __init__(self, inner: fields.Field, *, max_items: int, **kwargs: Any) -> None:
        self.max_items = max_items
        super().__init__(inner, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if type(value) is not list:
            raise self.make_error("invalid")
        if len(value) > self.max_items:  # before looking at any item: bounded work
            raise fail("too_many", f"{len(value)} items; at most {self.max_items} are allowed")
        return super()._deserialize(value, attr, data, **kwargs)

    def fast_loader(self) -> Loader:
        inner = self.inner.fast_loader()  # type: ignore[attr-defined]
        most = self.max_items
        known = getattr(self.inner, "known", None)
        if known:  # e.g. card IDs: a list of known values is plainly valid

            def known_values(value: Any) -> list[Any]:
                try:
                    if type(value) is list and len(value) <= most and known.issuperset(value):
                        return list(value)
                except TypeError:  # an unhashable item
                    pass
                raise Fallback

            return known_values

        def load(value: Any) -> list[Any]:
            if type(value) is list and len(value) <= most:
                return [inner(item) for item in value]
            raise Fallback

        return load


class StrictNested(CodedField, fields.Nested):
    """A nested JSON object (not an array, not a string)."""

    default_error_messages: ClassVar[dict[str, str]] = {"type": "expected an object"}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, Mapping):
            raise self.make_error("type")
        return super()._deserialize(value, attr, data, **kwargs)

    def fast_loader(self) -> Loader:
        schema = self.schema
        if not isinstance(schema, StrictSchema):  # pragma: no cover - every schema here is
            return _fallback
        return schema.fast_load


class StrictSchema(Schema):
    """Base schema: unknown fields are errors that name the fields allowed there."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        allowed = ", ".join(sorted(self.load_fields))
        self.error_messages = {
            **self.error_messages,
            "unknown": Coded(
                f"unknown field; the fields allowed here are: {allowed}", "unknown_field"
            ),
            "type": Coded("expected a JSON object", "invalid_type"),
        }
        self._fast: Loader | None = None

    def load_fast(self, data: Any) -> Any:
        """``load(data)``, by the fast path when it is sure, else by marshmallow."""
        try:
            return self.fast_load(data)
        except Fallback:
            return self.load(data)

    def fast_load(self, data: Any) -> Any:
        """The fast path: the loaded value, or :class:`Fallback`."""
        if self._fast is None:
            self._fast = self._compile()
        return self._fast(data)

    def _compile(self) -> Loader:
        """Generate the fast loader: one straight block of checks per field.

        A field that can say its check as an expression (:meth:`CodedField.fast_check`)
        is checked inline; the others call their fast loader. The source is kept in
        ``self.fast_source`` for reading and debugging.
        """
        namespace: dict[str, Any] = {
            "Fallback": Fallback,
            "MISSING": missing,
            "ValidationError": ValidationError,
        }
        lines = ["def load(data):", "    if type(data) is not dict:", "        raise Fallback"]
        strict = self.unknown == RAISE
        keys = [field.data_key or name for name, field in self.load_fields.items()]
        namespace["allowed"] = frozenset(keys)
        if strict:
            lines += ["    if not data.keys() <= allowed:", "        raise Fallback"]
        lines += ["    get = data.get", "    out = {}"]
        for i, (key, (name, field)) in enumerate(zip(keys, self.load_fields.items(), strict=True)):
            target = f"out[{name!r}]"
            lines.append(f"    v = get({key!r}, MISSING)")
            lines.append("    if v is MISSING:")
            default = field.load_default
            if field.required:
                lines.append("        raise Fallback")
            elif default is missing:
                lines.append("        pass")
            else:
                namespace[f"D{i}"] = default
                lines.append(
                    f"        {target} = D{i}()"
                    if callable(default)
                    else f"        {target} = D{i}"
                )
            lines.append("    elif v is None:")
            lines.append(
                f"        {target} = None" if field.allow_none else "        raise Fallback"
            )
            lines.append("    else:")
            check = field.fast_check("v")  # type: ignore[attr-defined]
            if check is not None:
                lines += [
                    f"        if not ({check}):",
                    "            raise Fallback",
                    f"        {target} = v",
                ]
            else:
                namespace[f"L{i}"] = field.fast_loader()  # type: ignore[attr-defined]
                lines.append(f"        {target} = L{i}(v)")
        if not strict:
            lines += ["    for key in data.keys() - allowed:", "        out[key] = data[key]"]
        validators = [
            getattr(self, a) for a, many, _kw in self._hooks[VALIDATES_SCHEMA] if not many
        ]
        if validators:
            namespace["validators"] = validators
            lines += [
                "    try:",
                "        for validator in validators:",
                "            validator(out, many=False, partial=None)",
                "    except ValidationError:",
                "        raise Fallback from None",
            ]
        for j, (attr, many, _kw) in enumerate(self._hooks[POST_LOAD]):
            if not many:
                namespace[f"P{j}"] = getattr(self, attr)
                namespace["unknown"] = self.unknown
                lines.append(f"    out = P{j}(out, many=False, partial=None, unknown=unknown)")
        lines.append("    return out")
        self.fast_source = "\n".join(lines)
        exec(compile(self.fast_source, f"<fast load: {type(self).__name__}>", "exec"), namespace)
        loader: Loader = namespace["load"]
        return loader


def count(maximum: int, description: str, **kwargs: Any) -> StrictInteger:
    """A non-negative integer field with an upper bound."""
    return StrictInteger(maximum=maximum, metadata={"description": description}, **kwargs)


def flag(description: str, **kwargs: Any) -> StrictBoolean:
    """A boolean field that defaults to false."""
    return StrictBoolean(load_default=False, metadata={"description": description}, **kwargs)


def pointer_errors(messages: Any, path: tuple[str | int, ...] = ()) -> list[tuple[tuple, str, str]]:
    """Flatten marshmallow's nested error messages into (path, code, detail) triples."""
    found: list[tuple[tuple, str, str]] = []
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
