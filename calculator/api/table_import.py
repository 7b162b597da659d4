"""Importing a table over HTTP (SPEC §9): ``POST /v1/tables/import``, a view on the
tables' blueprint that takes an export (:mod:`calculator.api.sharing`) back.

An import replays the exported events through the ledger — the stored results are never
taken from the file — and stores the table under a new id, join code and tokens.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NoReturn

import orjson
from flask import Response, current_app, request
from marshmallow import ValidationError

from calculator.api import ledger_io, serialize
from calculator.api.coded_errors import fail
from calculator.api.config import IMPORT_BYTES_PER_TOKEN
from calculator.api.http import read_json
from calculator.api.idempotency_keys import MIN_SHARED_KEY
from calculator.api.schemas import RulesetSpec, resolve_spec
from calculator.api.sharing import blank_names_as_none
from calculator.api.sharing_schemas import ImportSchema
from calculator.api.table_docs import (
    _ETAG,
    _WRITE_HEADERS,
    REPLAYED_CREATE,
    REPLAYED_CREATE_GONE,
    SHARED_KEY_SCHEMA,
)
from calculator.api.table_responses import TableCreatedSchema
from calculator.api.table_writes import created_once, insert_table, iso_time
from calculator.api.tables import tables
from calculator.errors import GoStopError, Issue
from calculator.ledger import (
    MAX_REPLAY_COST,
    DealerRule,
    Event,
    EventType,
    TooCostlyError,
    apply,
    check_setup,
    start,
)
from calculator.limits import deadline
from calculator.options import specs
from calculator.presets import Resolver, Variant, find_preset
from calculator.store import EventRow, Store

_IMPORT = ImportSchema()
# Seconds an imported event's time may be ahead of the service's clock (instances' clocks
# differ a little; NTP keeps them within a second or so).
MAX_CLOCK_AHEAD = 5 * 60
# The ledger's refusals of a correction or a void that are about the hand it names: an
# import's event is refused at its `number`.
_ABOUT_THE_NUMBER = frozenset({"unknown_hand", "hand_voided"})
# What each event type carries besides seq, type, by and at: (number, body, reason).
_CARRIES = {
    "created": (False, False, False),
    "added": (False, True, False),
    "corrected": (True, True, True),
    "voided": (True, False, True),
    "undone": (False, False, False),
    "redone": (False, False, False),
    "closed": (False, False, False),
}


@tables.post("/tables/import")
@tables.response(
    201,
    TableCreatedSchema,
    description="The imported table, under a new id, join code and tokens (shown once)",
    headers={**_ETAG, "Location": {"schema": {"type": "string"}}},
)
@tables.problems(
    400,
    409,
    413,
    415,
    422,
    s404=REPLAYED_CREATE_GONE,
    s503="Replaying the log ran past the service's deadline (GOSTOP_REQUEST_DEADLINE): "
    "retry after Retry-After seconds",
)
@tables.doc(
    operationId="importTable",
    parameters=[
        {
            **_WRITE_HEADERS[0],
            "required": False,
            "schema": SHARED_KEY_SCHEMA,
            "description": f"Optional, as on POST /v1/tables: {REPLAYED_CREATE}. At least "
            f"{MIN_SHARED_KEY} characters, random (send a UUID; 422 `weak_idempotency_key`)",
        }
    ],
    requestBody={"required": True, "content": {"application/json": {"schema": ImportSchema}}},
)
def import_table() -> Response:
    """Import an exported table

    The body is an export (`GET /v1/tables/{id}/export`). Its events are replayed through
    the ledger — results are scored again, never read from the file, each hand with the
    checks the table stored it under — so the new table answers exactly as the exported
    one. A malformed or inconsistent log is a 422 naming
    the event and the field (`/events/3/number`); event times are UTC to the millisecond
    as the export writes them, never going back and at most 5 minutes ahead of the
    service's clock (`invalid_time`). The body may be as large as GOSTOP_MAX_IMPORT_BYTES
    (16 MiB: the export of 5,000 realistic hands is 5–12 MB), with a separator (`{ [ , :`)
    every 4 bytes at most; at most 5,000 events, costing at most what a table may cost to
    replay (`import_too_costly`: one per event and one per hand scored, past 19,999 only
    closing), so any table the service built imports within that size.
    """
    return created_once(_import)


def _import(store: Store, key: str | None) -> Response:
    limit = current_app.config["GOSTOP"].max_import_bytes
    request.max_content_length = limit  # the app's is a batch's (create_app)
    given = read_json(limit, max_tokens=limit // IMPORT_BYTES_PER_TOKEN)
    data = _IMPORT.load_fast(blank_names_as_none(given))
    events = data["events"]
    _check_log(events, data["version"], now=store.clock())
    variant = Variant(data["variant"])
    given = data["ruleset"]
    preset = find_preset(given["preset"]) if isinstance(given["preset"], str) else None
    if preset is not None and isinstance(given["options"], dict):
        # An export lists every option: one unknown made "64 options given; this rule set
        # has only 63", naming none. The unknown ones alone name themselves (did you mean).
        known = {spec.name for spec in specs(type(preset.rules))}
        unknown = {name: v for name, v in given["options"].items() if name not in known}
        if unknown:
            resolve_spec(RulesetSpec(preset.name, unknown, False), variant, ("ruleset",))
    ruleset = resolve_spec(
        RulesetSpec(given["preset"], given["options"], False),
        variant,
        ("ruleset",),
        resolver=Resolver(),
    )
    if given["variant"] != ruleset.variant.value:
        _refuse(
            ("ruleset", "variant"),
            "wrong_variant",
            f"preset {ruleset.preset!r} scores the {ruleset.variant} variant, not "
            f"{given['variant']}: the rule set was edited; export the table again",
        )
    if ruleset.fingerprint != given["fingerprint"]:
        _refuse(
            ("ruleset", "fingerprint"),
            "fingerprint_mismatch",
            f"the options make fingerprint {ruleset.fingerprint}, not {given['fingerprint']}: "
            "the rule set was edited; export the table again",
        )
    if "overrides" in given and given["overrides"] != ruleset.overrides():
        _refuse(
            ("ruleset", "overrides"),
            "fingerprint_mismatch",
            "the overrides do not match the options: the rule set was edited; "
            "export the table again",
        )
    body = ledger_io.setup_body(
        roster=ledger_io.Roster(people=tuple((p.id, p.name) for p in data["roster"])),
        variant=variant,
        ruleset=serialize.ruleset_json(ruleset, full=True),  # the lock: every option
        stake=data["stake"],
        dealer=data["dealer"],
        unit=(data["rounding"] or {}).get("unit"),
        name=data["name"],
        dealer_rule=_dealer_rule(data),
    )
    setup, roster = ledger_io.setup_of(body)
    check_setup(setup, new=False)  # the roster as exported (ids alike allowed, as then)
    ledger = start(setup)
    rows = []
    check_deadline = deadline(current_app.config["GOSTOP"].request_deadline)
    for index, given_event in enumerate(events[1:], 1):
        check_deadline()  # past it: a 503 with Retry-After, never a killed worker
        hand_body = given_event["body"]
        hand = (
            None
            if hand_body is None
            else ledger_io.load_play(variant, hand_body, ("events", str(index), "body"))
        )
        event = Event(
            type=EventType(given_event["type"]),
            by=given_event["by"],
            at=given_event["at"],
            number=given_event["number"],
            hand=hand,
            reason=given_event["reason"],
        )
        try:
            # a log a table stored: each hand scored as a stored one (every export
            # imports), the cost held to MAX_REPLAY_COST as a live change's is
            ledger = apply(ledger, event, exported=True)
        except TooCostlyError:
            # the type of a live change past the same limit (table-too-costly), the code
            # and the place of an import's
            detail = (
                f"replaying the log up to here costs more than a table takes before it "
                f"closes ({MAX_REPLAY_COST - 1:,}: one per event and one per hand scored; a "
                "correction of an early hand scores every later hand again): the service "
                "refuses such a change, so this log was edited or written before the limit"
            )
            raise TooCostlyError([Issue("import_too_costly", detail, ("events", index))]) from None
        except GoStopError as error:
            first = error.issues[0]
            if first.code in _ABOUT_THE_NUMBER:
                at: tuple[str | int, ...] = ("events", index, "number")
            elif first.location[:1] in (("hands",), ()):
                at = ("events", index)
            else:
                at = ("events", index, "body")
            raise ledger_io.relocated(error, at) from None
        rows.append(ledger_io.event_row(event, given_event["seq"], hand_body))
    first = events[0]
    created = EventRow(
        seq=1, type="created", by=first["by"], at=first["at"], body=orjson.dumps(body).decode()
    )
    return insert_table(
        store, created=created, later=rows, ledger=ledger, roster=roster, body=body, key=key
    )


def _check_log(events: list[dict[str, Any]], version: int, *, now: float) -> None:
    """The log's shape: created first, numbered 1, 2, … without a gap, each event with
    the fields its type carries and no others, times in ISO 8601 that never go back and
    are not later than ``now`` (the service's clock) plus :data:`MAX_CLOCK_AHEAD`: the
    table's next event is stamped no earlier than its last, so a time in the future
    would stamp every later event with it. ``version`` is the last seq."""
    errors: dict[int, Any] = {}
    latest = now + MAX_CLOCK_AHEAD
    ahead = False  # only the first time in the future is named: the later ones follow it

    def refuse(index: int, name: str, code: str, text: str) -> None:
        errors.setdefault(index, {}).setdefault(name, []).append(fail(code, text).messages[0])

    if not events:
        raise ValidationError(
            {
                "events": [
                    fail("missing_created", "the log starts with the created event").messages[0]
                ]
            }
        )
    last: datetime | None = None
    for index, event in enumerate(events):
        if event["seq"] != index + 1:
            refuse(
                index,
                "seq",
                "event_out_of_order",
                f"event {index} has seq {event['seq']}; the log's events are numbered "
                f"1, 2, 3… in order, so it should be {index + 1}",
            )
        if (event["type"] == "created") != (index == 0):
            refuse(
                index,
                "type",
                "missing_created" if index == 0 else "unexpected_created",
                "the first event, and only it, is the created event",
            )
        for name, carried in zip(
            ("number", "body", "reason"), _CARRIES[event["type"]], strict=True
        ):
            if carried and event[name] is None:
                refuse(index, name, "required", f"{event['type']} events have a {name}")
            elif not carried and event[name] is not None:
                refuse(index, name, "not_allowed", f"{event['type']} events have no {name}")
        stamp = _stamp(event["at"])
        if stamp is None:
            refuse(
                index,
                "at",
                "invalid_time",
                "a UTC time in ISO 8601 to the millisecond, as the export writes it "
                "(2026-12-03T20:15:00.000Z)",
            )
        elif last is not None and stamp < last:
            refuse(index, "at", "invalid_time", "the log's times never go back: event by event")
        elif stamp.timestamp() > latest and not ahead:
            ahead = True
            refuse(
                index,
                "at",
                "invalid_time",
                f"{event['at']} is later than this service's clock ({iso_time(now)}) plus "
                f"{MAX_CLOCK_AHEAD // 60} minutes: an export holds only times that have "
                "passed; give this event and the later ones the times they were written",
            )
        last = stamp if stamp is not None else last
    if errors:
        raise ValidationError({"events": errors})
    if version != len(events):
        _refuse(
            ("version",),
            "inconsistent_version",
            f"the log has {len(events)} events, so the version is {len(events)}, not {version}",
        )


def _stamp(at: str) -> datetime | None:
    """The time of an event, if ``at`` is exactly as the service writes times (UTC, to
    the millisecond): other ISO 8601 forms would be stored as given and read back by
    everything that reads the log."""
    try:
        stamp = datetime.fromisoformat(at.replace("Z", "+00:00"))
        same = stamp.tzinfo is not None and iso_time(stamp.timestamp()) == at
    except (ValueError, OverflowError, OSError):  # not a time, or out of the clock's range
        return None
    return stamp if same else None


def _dealer_rule(data: dict[str, Any]) -> DealerRule:
    """The exported table's own dealer rule. An export of format_version 1 was written
    before the rule was recorded, of a table that derived its dealers by the biggest net;
    from version 2 the rule is required: one left out (a client that rewrote the export
    with the types of the earlier format) would import silently under the other rule."""
    if data["dealer_rule"] is None and data["format_version"] >= 2:
        _refuse(
            ("dealer_rule",),
            "required",
            f"an export of format_version {data['format_version']} carries the table's "
            "dealer_rule (winner or biggest_net): send the export as it was given",
        )
    return ledger_io.dealer_rule_of(data)


def _refuse(location: tuple[str | int, ...], code: str, detail: str) -> NoReturn:
    """A 422 about one field of the export (the request does not hold together)."""
    messages: Any = [fail(code, detail).messages[0]]
    for part in reversed(location):
        messages = {part: messages}
    raise ValidationError(messages)
