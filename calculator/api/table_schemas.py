"""Request schemas of the table ledger (SPEC §9): the bodies and query strings the table
endpoints load (create, correct, void, undo/redo/close, the events' ``after``).

The answers' schemas are in :mod:`calculator.api.table_responses`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from math import inf
from typing import Any, NamedTuple

from marshmallow import (
    EXCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    types,
)

from calculator.api.coded_errors import NOT_BLANK_PATTERN, fail
from calculator.api.fields import (
    CodedField,
    Fallback,
    Loader,
    StrictInteger,
    StrictList,
    StrictString,
)
from calculator.api.json_values import too_large_to_read, whole_number
from calculator.api.ruleset_schemas import RulesetField
from calculator.api.schemas import MAX_ID, RulesetSpec
from calculator.api.strict_schema import StrictNested, StrictSchema
from calculator.presets import Variant

# A table hand takes the table's rule set, stake and the derived streak: a body that
# gives them is refused rather than silently overridden (ledger_io.load_play). compare_with
# is left to the stateless endpoint (a stored result stays the plain answer).
FORBIDDEN = ("ruleset", "stake", "nagari_streak", "compare_with")
TABLE_HAND: dict[str, Any] = {
    "anyOf": [
        {"$ref": "#/components/schemas/TableHand"},
        {"$ref": "#/components/schemas/TableBalanceHand"},
    ],
}
"""A table hand body as the document gives it: a hand request of the table's variant less
:data:`FORBIDDEN` (spec_setup.TABLE_COMPONENTS names the two)."""
MAX_ROSTER = 10
MAX_REASON = 500
MAX_NAME = 60  # a table's name and a person's display name
RULESET_DEFAULTS = {Variant.GOSTOP: "standard", Variant.BALANCE: "balance"}


class RosterEntry(NamedTuple):
    """A person on a table's roster: an id and an optional display name."""

    id: str
    name: str | None


class _PersonSchema(StrictSchema):
    id = StrictString(max_length=MAX_ID, required=True, metadata={"description": "Player id"})
    name = StrictString(
        max_length=MAX_NAME,
        emoji_joiners=True,
        allow_none=True,  # as the table answer and the export give a person without one
        not_blank=("name", "give the player's display name, or leave it out"),
        metadata={"description": "Display name"},
    )


class RosterField(CodedField):
    """A roster entry: a player id, or ``{id, name}``."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected a player id, or an object with id and name"
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is str:
            StrictString(max_length=MAX_ID).deserialize(value)
            return RosterEntry(value, None)
        if isinstance(value, Mapping):
            loaded = _PersonSchema().load(value)
            return RosterEntry(loaded["id"], loaded.get("name"))
        raise self.make_error("invalid")

    def fast_loader(self) -> Loader:
        return _slow  # a table is created once a night: the full load is cheap enough


class AnyRulesetField(CodedField):
    """A rule set of the table's variant; loaded by :func:`table_ruleset` once the variant
    is known."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return value

    def fast_loader(self) -> Loader:
        return _as_is


def table_ruleset(value: Any, variant: Variant) -> RulesetSpec:
    """The ``ruleset`` of a create request, read as a rule set of ``variant``."""
    if value is None:
        return RulesetSpec(RULESET_DEFAULTS[variant], {}, True)
    try:
        spec: RulesetSpec = RulesetField(variant=variant).deserialize(value)
    except ValidationError as error:
        raise ValidationError({"ruleset": error.messages}) from None
    return spec


class ObjectField(CodedField):
    """A JSON object taken as it is (read further by whoever knows its shape)."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected an object"
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, Mapping):
            raise self.make_error("invalid")
        return value

    def fast_loader(self) -> Loader:
        return _mapping


class HandBodyField(ObjectField):
    """A hand body (a JSON object), loaded by the table's variant once access is checked."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected the hand as an object"
    }


def _as_is(value: Any) -> Any:
    return value


def _mapping(value: Any) -> Any:
    if isinstance(value, Mapping):
        return value
    raise Fallback


def _slow(_value: Any) -> Any:
    raise Fallback


class TableRoundingSchema(StrictSchema):
    """Round the settlement to a unit, by largest remainders (the sum stays zero)."""

    unit = StrictInteger(
        minimum=1,
        maximum=10**9,
        required=True,
        metadata={"description": "Round to multiples of this (e.g. 100 won)"},
    )


def roster_field(*, blank_names: bool = False) -> StrictList:
    """A table's roster. With ``blank_names``, an import's: a blank display name (of
    whitespace alone) is taken, as none (sharing.blank_names_as_none); else refused."""
    name: dict[str, Any] = {"type": ["string", "null"], "minLength": 1, "maxLength": MAX_NAME}
    if not blank_names:
        name["pattern"] = NOT_BLANK_PATTERN
    return StrictList(
        RosterField(
            metadata={
                "anyOf": [
                    {"type": "string", "minLength": 1, "maxLength": MAX_ID},
                    {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "minLength": 1, "maxLength": MAX_ID},
                            "name": name,
                        },
                        "required": ["id"],
                        "additionalProperties": False,
                    },
                ]
            }
        ),
        max_items=MAX_ROSTER,
        required=True,
        metadata={
            "description": "Everyone who may play tonight: 2–10 ids or {id, name}, each id once",
            "minItems": 2,
            # an id given twice is refused (422 duplicate_player), in either form
            "uniqueItems": True,
        },
    )


def table_name_field(*, blank: bool = False) -> StrictString:
    """A table's name. With ``blank``, an import's: one of whitespace alone is taken, as
    none (sharing.blank_names_as_none); else refused."""
    return StrictString(
        max_length=MAX_NAME,
        emoji_joiners=True,
        load_default=None,
        allow_none=True,
        not_blank=None
        if blank
        else (
            "name",
            "give the table a name, or leave it out (the share text then "
            "names it by the start of its id)",
        ),
        metadata={
            "description": "The table's name (shown by the share text; without one, the "
            "share text names the table by the start of its id)"
            + ("; one of whitespace alone is imported as none" if blank else "")
        },
    )


class CreateTableSchema(StrictSchema):
    """``POST /v1/tables``: a night's roster, variant, locked rule set and stake."""

    roster = roster_field()
    variant = StrictString(
        max_length=8,
        choices=tuple(v.value for v in Variant),
        load_default=Variant.GOSTOP.value,
        metadata={"description": "gostop (default) or balance"},
    )
    ruleset = AnyRulesetField(
        load_default=None,
        allow_none=False,
        metadata={
            "description": "A preset name or {preset, options} of the variant (default "
            "standard / balance); locked for the table's life",
            "anyOf": [
                {"type": "string", "maxLength": 64},
                {"$ref": "#/components/schemas/RulesetObject"},
                {"$ref": "#/components/schemas/BalanceRulesetObject"},
            ],
        },
    )
    stake = StrictInteger(
        minimum=1, maximum=10**12, load_default=1, metadata={"description": "Chips per point"}
    )
    dealer = StrictString(
        max_length=MAX_ID,
        load_default=None,
        allow_none=True,
        metadata={"description": "The first dealer (선), if known; else the first hand's"},
    )
    rounding = StrictNested(
        TableRoundingSchema,
        load_default=None,
        allow_none=True,
        metadata={"description": "Round the settlement to a unit"},
    )
    name = table_name_field()

    @post_load
    def _roster_size(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if not 2 <= len(data["roster"]) <= MAX_ROSTER:
            raise ValidationError(
                {"roster": [fail("player_count", "a table has 2 to 10 people").messages[0]]}
            )
        return data


def _reason() -> StrictString:
    """A change's ``reason``, kept in the log: refused blank, as a token's label is."""
    return StrictString(
        max_length=MAX_REASON,
        required=True,
        not_blank=("reason", "say why, for the table's log"),
        metadata={"description": "Why (kept in the log; not blank)"},
    )


class NoFieldsSchema(StrictSchema):
    """``POST …/undo``, ``…/redo`` and ``…/close``: no body, or an empty object. A field
    given is refused: ``POST …/undo {"number": 2}`` would undo the last change, whatever
    hand 2 is, and say nothing."""


class ReasonSchema(StrictSchema):
    """``POST …/hands/{number}/void``: why the hand is struck out."""

    reason = _reason()


class CorrectionSchema(StrictSchema):
    """``PUT …/hands/{number}``: the hand as it should have been, and why."""

    hand = HandBodyField(
        required=True,
        metadata={
            "description": "The hand body, as for POST /v1/tables/{id}/hands",
            **TABLE_HAND,
        },
    )
    reason = _reason()


MAX_SEQ = 2**31 - 1


_QUERY_DIGITS = re.compile(r"-?[0-9]+")
# Any other JSON number (``1.0``, ``1e0``): read as a body's number is, whole or not
_QUERY_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


class QueryInteger(CodedField, fields.Integer):
    """A whole number in a query string, taken and refused as a JSON integer is
    (:class:`calculator.api.fields.StrictInteger`): ASCII digits with a leading ``-``, or
    any JSON number whose value is whole (``1.0``, ``1e0``: 1); ``x`` and ``2.5`` are
    ``invalid_type`` "expected a whole number (an integer)"; one of more digits than any
    bound, or a whole number too large to read exactly (``1e30``), is ``too_large``."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected a whole number (an integer)"
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        text = value.strip() if isinstance(value, str) else ""
        if not _QUERY_DIGITS.fullmatch(text):
            number = float(text) if _QUERY_NUMBER.fullmatch(text) else None
            found = whole_number(number)
            if found is not None:
                return found
            if number is not None and (too_large_to_read(number) or abs(number) == inf):
                if number < 0:
                    raise fail("negative_count", f"{_as_written(text)} is below the minimum 0")
                raise fail("too_large", f"{_as_written(text)} is above the maximum {MAX_SEQ}")
            raise self.make_error("invalid")
        if len(text.lstrip("-")) > 18:  # past any bound (and int()'s digit limit)
            raise fail("too_large", f"{_as_written(text)} is above the maximum {MAX_SEQ}")
        return int(text)


def _as_written(text: str) -> str:
    """A query's number as the client wrote it, cut at 24 characters."""
    return text if len(text) <= 24 else text[:24] + "…"


def _sequence_number(value: int) -> None:
    if value < 0:
        raise fail("negative_count", f"{value} is below the minimum 0")
    if value > MAX_SEQ:
        raise fail("too_large", f"{value} is above the maximum {MAX_SEQ}")


class EventsQuerySchema(Schema):
    """``GET …/events``: only the events after a sequence number."""

    class Meta:
        unknown = EXCLUDE  # a query string may carry a client's cache buster

    after = QueryInteger(
        load_default=0,
        validate=_sequence_number,
        metadata={"description": "Only events with seq > after (default 0: all)"},
    )
