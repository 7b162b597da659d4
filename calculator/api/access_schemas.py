"""Wire shapes of who opens a table (SPEC §9 "Access"): joining by code, minting and
listing tokens. Request schemas load; response schemas document (and the tests validate
every answer against them)."""

from __future__ import annotations

import re
from typing import Any, Final

from marshmallow import Schema, ValidationError, fields, types

from calculator.api.coded_errors import fail
from calculator.api.fields import CodedField, Fallback, Loader, StrictString
from calculator.api.join_codes import ALPHABET_TEXT, MAX_JOIN_INPUT, normalize_join_code
from calculator.api.strict_schema import StrictSchema
from calculator.api.table_responses import JOIN_URL
from calculator.names import folded

MAX_LABEL = 64  # the events' "by" column holds a label
ROLES = ("scorer", "viewer")
_LABEL_TEXT = (
    "A name for the phone (\"민지's phone\"), unique among the table's tokens: events "
    "written with the token show it as `by`; trimmed, not blank, and not one the service "
    'gives its own tokens ("scorer", "viewer", "joined <time>", in any case)'
)


# The labels the service gives tokens itself: the create's "scorer" and "viewer" (the
# created event's `by` is "scorer"), a join's "joined <UTC time>", each with the suffix a
# taken label gets (" (2)"). A label read as one of them (trimmed, in any case or width,
# spaces collapsed) would pass a phone off as the table's own tokens in the audit trail.
_BUILT_IN_LABEL = re.compile(
    r"(?:scorer|viewer|joined \d{4}-\d{2}-\d{2} \d{2}:\d{2})(?: \(\d+\))?", re.ASCII
)


_NOT_BLANK: Final = ("label", "name the phone")
"""A label is refused blank by its field (``StrictString(not_blank=…)``)."""


def checked_label(label: str) -> str:
    """A label a client gave (a mint's, a join's, loaded: not blank), trimmed; a 422 for
    ``/label`` when it reads as a label the service gives (:data:`_BUILT_IN_LABEL`)."""
    trimmed = label.strip()
    if _BUILT_IN_LABEL.fullmatch(folded(trimmed)):
        raise ValidationError(
            {
                "label": fail(
                    "reserved_label",
                    f"{trimmed!r} reads as a label the service gives its own tokens "
                    '("scorer", "viewer", "joined <time>"): choose another name',
                ).messages
            }
        )
    return trimmed


class JoinCodeField(CodedField, fields.String):
    """A join code as people type or paste it, loaded as the canonical code: what
    :func:`normalize_join_code` leaves out (line breaks, a BOM, full width…) is not
    refused first as it would be in a name."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected a string"
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("metadata", {}).update({"maxLength": MAX_JOIN_INPUT})
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if type(value) is not str:
            raise self.make_error("invalid")
        code = normalize_join_code(value[: MAX_JOIN_INPUT + 1])
        if len(value) > MAX_JOIN_INPUT or code is None:
            shown = repr(value) if len(value) <= 64 else f"{value[:60]!r}…"
            raise fail(
                "invalid_join_code",
                f"{shown} is not a join code: {ALPHABET_TEXT} (as the table's join_code "
                "and join_url show them)",
            )
        return code

    def fast_loader(self) -> Loader:
        return _join_code


def _join_code(value: Any) -> str:
    """The fast path of :class:`JoinCodeField`: a code that reads; else the full load
    says why not."""
    if type(value) is str and len(value) <= MAX_JOIN_INPUT:
        code = normalize_join_code(value)
        if code is not None:
            return code
    raise Fallback


class JoinSchema(StrictSchema):
    """``POST /v1/tables/join``: the code someone read out, typed or scanned."""

    join_code = JoinCodeField(
        required=True,
        metadata={
            "description": "The table's 8-character code, or its join link; any case or "
            "width, I and L read as 1, O as 0, hyphens, spaces, line breaks and invisible "
            "characters ignored"
        },
    )
    label = StrictString(
        max_length=MAX_LABEL,
        load_default=None,
        not_blank=_NOT_BLANK,
        metadata={"description": _LABEL_TEXT + ' (default: "joined <UTC date and time>")'},
    )


class MintTokenSchema(StrictSchema):
    """``POST /v1/tables/{id}/tokens``: one more token for the table."""

    role = StrictString(
        max_length=8,
        choices=ROLES,
        required=True,
        metadata={"description": "scorer (reads and writes) or viewer (reads)"},
    )
    label = StrictString(
        max_length=MAX_LABEL,
        required=True,
        not_blank=_NOT_BLANK,
        metadata={"description": _LABEL_TEXT},
    )


def _req(field: fields.Field[Any], description: str) -> fields.Field[Any]:
    field.required = True
    field.metadata["description"] = description  # type: ignore[index]
    return field


def _role() -> fields.Field[Any]:
    return _req(fields.String(metadata={"enum": list(ROLES)}), "scorer or viewer")


class JoinedSchema(Schema):
    """A table joined: its id and a new viewer token (shown once)."""

    id = _req(fields.String(), "The table id")
    version = _req(fields.Integer(), "The table's version now")
    viewer_token = _req(fields.String(), "Bearer token that reads the table (shown once)")
    token_id = _req(fields.String(), "The token's public id (the scorer can revoke it)")
    role = _role()
    label = _req(fields.String(), "The token's label")
    join_url = _req(fields.String(), JOIN_URL)


class TokenOutSchema(Schema):
    """A token of the table, without its secret."""

    token_id = _req(fields.String(), "The token's public id")
    role = _role()
    label = _req(fields.String(), "Its label: events it wrote show it as `by`")
    created_at = _req(fields.String(), "When it was minted (UTC, ISO 8601)")
    yours = _req(fields.Boolean(), "The token of this request")


class TokensSchema(Schema):
    """Every token that opens the table, in the order they were minted."""

    tokens = _req(fields.List(fields.Nested(TokenOutSchema)), "Oldest first")


class MintedSchema(Schema):
    """A token minted: its secret (shown once) and public id."""

    token_id = _req(fields.String(), "The token's public id")
    token = _req(fields.String(), "The bearer token (shown once; stored only as a hash)")
    role = _role()
    label = _req(fields.String(), "Its label")
    created_at = _req(fields.String(), "When it was minted (UTC, ISO 8601)")
