"""Wire shapes of sharing a table (SPEC §9): the share text's query and its reading, the
export (JSON) and the import that takes it back."""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, fields, types

from calculator.api.coded_errors import fail
from calculator.api.fields import (
    CodedField,
    Fallback,
    Loader,
    StrictInteger,
    StrictList,
    StrictString,
)
from calculator.api.query_schemas import LanguageTagQuery
from calculator.api.schemas import MAX_ID
from calculator.api.session_responses import TransferSchema
from calculator.api.strict_schema import StrictNested, StrictSchema
from calculator.api.table_responses import (
    CHIPS_MAP,
    DEALER_RULE,
    DEALER_RULES,
    EventOutSchema,
    PersonOutSchema,
    _req,
)
from calculator.api.table_schemas import (
    MAX_REASON,
    MAX_SEQ,
    CreateTableSchema,
    HandBodyField,
    ObjectField,
    roster_field,
    table_name_field,
)
from calculator.ledger import MAX_EVENTS
from calculator.ledger.share import Lang
from calculator.presets import Variant

EXPORT_FORMAT = "gostop-table"
EXPORT_VERSION = 2
"""The export format written now: 2 carries ``dealer_rule`` (2026-12-05); an export of
version 1, written before, has none and imports with the rule of every table then."""
# Characters: the longest share text the service writes (10 players with 40-character
# ids and 60-character names, all outside the BMP) has about 9,800, more with a chat's
# re-wrapping. POST /v1/share/parse takes a batch-sized body, so any text within the
# limit fits however the JSON escapes it (12 bytes for a character outside the BMP).
MAX_SHARE_TEXT = 12_000
MAX_IMPORT_EVENTS = MAX_EVENTS  # what a table holds: any export imports
MAX_LABEL = 64  # the label of the token that wrote an event (the store's column)
MAX_TIME = 32
EVENT_TYPES = ("created", "added", "corrected", "voided", "undone", "redone", "closed")
FORMATS = ("json", "csv")


class ShareQuerySchema(LanguageTagQuery):
    """``GET …/share``: the language (default: Accept-Language, else Korean)."""

    class Meta:
        unknown = EXCLUDE  # a query string may carry a client's cache buster

    lang = StrictString(
        max_length=2,
        choices=tuple(lang.value for lang in Lang),
        load_default=None,
        metadata={
            "description": "ko or en, in any case, a region ignored (default: "
            "Accept-Language, else ko)"
        },
    )


class ExportQuerySchema(Schema):
    """``GET …/export``: JSON (default) or CSV."""

    class Meta:
        unknown = EXCLUDE

    format = StrictString(
        max_length=4,
        choices=FORMATS,
        load_default=None,
        metadata={"description": "json or csv (default: by Accept, else json)"},
    )


class TextField(CodedField, fields.String):
    """A multi-line text: line breaks and tabs allowed, bounded in length."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected a string"
    }

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        self.max_length = max_length
        kwargs.setdefault("metadata", {}).update({"maxLength": max_length})
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if type(value) is not str:
            raise self.make_error("invalid")
        if len(value) > self.max_length:
            raise fail(
                "invalid_length",
                f"the text has {len(value):,} characters; the limit is {self.max_length:,} "
                "(paste one share text)",
            )
        return value

    def fast_loader(self) -> Loader:
        return _slow


def _slow(_value: Any) -> Any:
    raise Fallback


class ParseShareSchema(StrictSchema):
    """``POST /v1/share/parse``: a pasted share text."""

    text = TextField(
        max_length=MAX_SHARE_TEXT,
        required=True,
        metadata={"description": "The share text as pasted (wrapped or trimmed is fine)"},
    )


class LockedRulesetSchema(StrictSchema):
    """A table's locked rule set, as the export gives it."""

    preset = StrictString(max_length=64, required=True, metadata={"description": "Preset"})
    variant = StrictString(
        max_length=8,
        choices=tuple(v.value for v in Variant),
        required=True,
        metadata={"description": "gostop or balance"},
    )
    options = ObjectField(
        required=True,
        metadata={"description": "Every option, resolved", "type": "object"},
    )
    overrides = ObjectField(
        metadata={
            "description": "The options that differ from the preset (derived: checked)",
            "type": "object",
        },
    )
    fingerprint = StrictString(
        max_length=64, required=True, metadata={"description": "Checked against the options"}
    )


class ImportEventSchema(StrictSchema):
    """One event of an export."""

    seq = StrictInteger(minimum=1, maximum=MAX_SEQ, required=True)
    type = StrictString(max_length=16, choices=EVENT_TYPES, required=True)
    by = StrictString(max_length=MAX_LABEL, required=True)
    at = StrictString(max_length=MAX_TIME, required=True)
    number = StrictInteger(minimum=1, maximum=MAX_SEQ, load_default=None, allow_none=True)
    reason = StrictString(max_length=MAX_REASON, load_default=None, allow_none=True)
    body = HandBodyField(load_default=None, allow_none=True, metadata={"type": "object"})


class ImportSchema(CreateTableSchema):
    """``POST /v1/tables/import``: an export (``GET …/export``) as it was given."""

    format = StrictString(
        max_length=16, choices=(EXPORT_FORMAT,), required=True, metadata={"description": "Format"}
    )
    format_version = StrictInteger(
        minimum=1,
        maximum=EXPORT_VERSION,
        required=True,
        metadata={"description": "2 (1: an export written before 2026-12-05, without dealer_rule)"},
    )
    id = StrictString(
        max_length=MAX_ID,
        load_default=None,
        allow_none=True,
        metadata={"description": "The exported table's id (the import gets a new one)"},
    )
    # an export's blank names are taken, as none (sharing.blank_names_as_none): a table
    # created before 2026-12-06 may have one
    roster = roster_field(blank_names=True)
    name = table_name_field(blank=True)
    # the export's rule set is the locked one (checked against its fingerprint), not a name
    ruleset = StrictNested(LockedRulesetSchema, required=True)  # type: ignore[assignment]
    dealer_rule = StrictString(
        max_length=16,
        choices=DEALER_RULES,
        # absent: required from format_version 2; an export of version 1 was written before
        # the rule was recorded, of a table that used biggest_net (table_import._import)
        load_default=None,
        allow_none=False,  # (marshmallow allows null where the default is None)
        metadata={"description": DEALER_RULE + " (required from format_version 2)"},
    )
    version = StrictInteger(
        minimum=1, maximum=MAX_SEQ, required=True, metadata={"description": "The last seq"}
    )
    events = StrictList(
        StrictNested(ImportEventSchema),
        max_items=MAX_IMPORT_EVENTS,
        required=True,
        metadata={
            "description": "The whole log, in order, from the created event",
            "minItems": 1,  # (none: 422 missing_created)
        },
    )


# --- responses (documentation) ----------------------------------------------------------


class ExportSchema(Schema):
    """``GET …/export``: everything that makes the table, its whole event log included."""

    format = _req(fields.String(metadata={"enum": [EXPORT_FORMAT]}), "Always gostop-table")
    format_version = _req(fields.Integer(metadata={"enum": [EXPORT_VERSION]}), str(EXPORT_VERSION))
    id = _req(fields.String(), "The table id")
    name = fields.String(allow_none=True, required=True, metadata={"description": "Its name"})
    variant = _req(fields.String(metadata={"enum": [v.value for v in Variant]}), "The game")
    roster = _req(fields.List(fields.Nested(PersonOutSchema)), "Everyone who may play")
    ruleset = _req(
        fields.Raw(metadata={"type": "object"}),
        "The locked rule set: preset, variant, every option and the fingerprint",
    )
    stake = _req(fields.Integer(), "Chips per point")
    dealer = fields.String(
        allow_none=True, required=True, metadata={"description": "The first dealer, if given"}
    )
    rounding = fields.Raw(
        allow_none=True,
        required=True,
        metadata={"description": "The settlement's rounding: {unit} or null", "type": "object"},
    )
    dealer_rule = _req(fields.String(metadata={"enum": list(DEALER_RULES)}), DEALER_RULE)
    version = _req(fields.Integer(), "The table's version: the last event's seq")
    events = _req(
        fields.List(fields.Nested(EventOutSchema)),
        "Every event in order; the first (created) has no body: the setup is above",
    )


class SharePlayerSchema(Schema):
    """A player of a share text."""

    id = _req(fields.String(), "Player id")
    name = fields.String(allow_none=True, required=True, metadata={"description": "Name"})


class CheckedSchema(Schema):
    """How many visible lines were read and agree with the compact line."""

    totals = _req(fields.Integer(), "Total lines")
    transfers = _req(fields.Integer(), "Transfer lines")
    rules = _req(fields.Integer(), "Rule set lines")


class ShareReadingSchema(Schema):
    """``POST /v1/share/parse``: what the share text's compact line says, checked."""

    format = _req(fields.String(), "The compact line's version (GS1)")
    name = _req(fields.String(), "The table's name as shared")
    date = _req(fields.String(), "The table's date (YYYY-MM-DD)")
    ruleset = _req(
        fields.Nested(
            Schema.from_dict(
                {
                    "preset": fields.String(required=True),
                    "fingerprint": fields.String(required=True),
                },
                name="SharedRuleset",
            )
        ),
        "The rule set's name and fingerprint",
    )
    rounding = fields.Raw(
        allow_none=True,
        required=True,
        metadata={"description": "{unit} or null", "type": "object"},
    )
    players = _req(fields.List(fields.Nested(SharePlayerSchema)), "In roster order")
    totals = _req(fields.Raw(metadata=dict(CHIPS_MAP)), "Per player, settled")
    transfers = _req(fields.List(fields.Nested(TransferSchema)), "Who pays whom")
    checked = _req(fields.Nested(CheckedSchema), "The visible lines checked")
