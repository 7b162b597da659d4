"""Error messages that carry a stable machine-readable code, and marshmallow's nested
messages read back as pointer errors.

A :class:`Coded` string is a message and its code: the strict fields
(calculator/api/fields.py) and the schemas raise them (:func:`fail`, :func:`blank`), and
:func:`pointer_errors` flattens a refused load's nested messages into (pointer, code,
detail) triples, so that the problem+json body (calculator/api/errors.py) can give each
error a ``code`` as well as a ``detail``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError


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


Pointer = tuple[str | int, ...]
"""Where in the body an error is: its keys and indexes, outermost first."""


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
