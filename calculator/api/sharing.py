"""Sharing a table over HTTP (SPEC §9): the chat text and reading it back, the export
(JSON and CSV) and the import — views on the tables' blueprint, around the pure
:mod:`calculator.ledger.share` and :mod:`calculator.ledger.export`.

Reads (share, export) take any token of the table, with the same checks as every table
read and its version as ETag, each language and format tagged apart (``"3"``, ``"3.en"``,
``"3.csv"``: :func:`calculator.api.table_access.etag`); reading a share text back needs
no token (the text is what people already pasted into a chat). An import replays the
exported events through the ledger — the stored results are never taken from the file —
and stores the table under a new id, join code and tokens.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any, NoReturn

import orjson
from flask import Response, current_app, request
from marshmallow import ValidationError

from calculator.api import ledger_io, serialize, session_json
from calculator.api.coded_errors import fail, pointer_errors
from calculator.api.config import IMPORT_BYTES_PER_TOKEN
from calculator.api.docs import load_query, parameter_names
from calculator.api.http import client_language, preferred_media, read_json
from calculator.api.schemas import RulesetSpec, resolve_spec
from calculator.api.sharing_schemas import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    ExportQuerySchema,
    ExportSchema,
    ImportSchema,
    ParseShareSchema,
    ShareQuerySchema,
    ShareReadingSchema,
)
from calculator.api.table_access import (
    CSV_TAG,
    EN_TAG,
    MIN_SHARED_KEY,
    not_modified,
    open_table,
    table_response,
)
from calculator.api.table_docs import (
    _ACCESS,
    _ETAG,
    _WRITE_HEADERS,
    REPLAYED_CREATE,
    REPLAYED_CREATE_GONE,
    SHARED_KEY_SCHEMA,
    if_none_match,
)
from calculator.api.table_schemas import TableCreatedSchema, roster_field
from calculator.api.table_store import _cache, _store
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
from calculator.ledger.export import CSV_COLUMNS, hand_rows
from calculator.ledger.share import Lang, render
from calculator.ledger.share_line import PREFIX, ShareError, ShareSheet
from calculator.ledger.share_reading import read
from calculator.limits import deadline
from calculator.options import specs
from calculator.presets import Resolver, Variant, find_preset
from calculator.store import EventRow, Store

_SHARE_QUERY = ShareQuerySchema()
_SHARE_PARAMETERS = parameter_names(_SHARE_QUERY)
_EXPORT_QUERY = ExportQuerySchema()
_EXPORT_PARAMETERS = parameter_names(_EXPORT_QUERY)
_PARSE = ParseShareSchema()
_IMPORT = ImportSchema()
CSV_MEDIA = "text/csv"
# Each representation's own ETag (RFC 9110 §8.8.3; table_access.etag): the table's version,
# then a suffix for all but the first, which keeps the tag every table read has ("N").
_SHARE_TAGS = {Lang.KO: "", Lang.EN: EN_TAG}
_EXPORT_TAGS = {"json": "", "csv": CSV_TAG}
_SHARE_ETAG = {
    "ETag": {
        "schema": {"type": "string"},
        "description": 'The table version, per language: "N" (Korean), "N.en" (English)',
    }
}
_EXPORT_ETAG = {
    "ETag": {
        "schema": {"type": "string"},
        "description": 'The table version, per format: "N" (JSON), "N.csv" (CSV)',
    }
}


# A cell a spreadsheet would run as a formula (CSV injection): names are free text.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
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


# --- the share text ----------------------------------------------------------------------


@tables.get("/tables/<table_id:id>/share")
@tables.response(
    200,
    {"type": "string"},
    content_type="text/plain",
    description="The share text (UTF-8), ending with its compact GS1 line",
    headers=_SHARE_ETAG,
)
@tables.alt_response(304, description="Not modified (If-None-Match)", headers=_SHARE_ETAG)
@tables.problems(422, **_ACCESS)
@tables.doc(
    operationId="shareTable",
    parameters=[
        if_none_match("language"),
        {
            "name": "lang",
            "in": "query",
            "required": False,
            "schema": {"type": "string", "enum": [lang.value for lang in Lang]},
            "description": "ko or en (in any case; a region is ignored: en-US is en); "
            "without it, the best of Accept-Language, else ko",
        },
    ],
)
def share_table(id: str) -> Response:
    """The table's settlement as text to paste into a chat

    The table's name and date, each player's total, who sends whom how much (the fewest
    transfers, rounded as the table's settlement is), the rule set and its fingerprint,
    and one compact line that `POST /v1/share/parse` reads back. Short lines, thousands
    separators and no columns: it reads well in KakaoTalk. Each language has its own
    ETag: `"N"` in Korean, `"N.en"` in English.
    """
    head, _token = open_table(_store(), id, write=False)
    query = load_query(_SHARE_QUERY, _SHARE_PARAMETERS)
    lang = Lang(query["lang"] or client_language() or Lang.KO)  # as scoring answers choose
    variant = _SHARE_TAGS[lang]
    unchanged = not_modified(head.version, variant=variant)
    if unchanged is None:
        summary = orjson.loads(head.summary)
        created = _logged(head.id, 1)[0]
        result = ledger_io.settled(summary)
        sheet = ShareSheet(
            title=summary.get("name") or f"#{head.id[:8]}",
            date=created.at[:10],
            preset=summary["ruleset"]["preset"],
            fingerprint=summary["ruleset"]["fingerprint"],
            unit=(summary["rounding"] or {}).get("unit"),
            players=tuple((p["id"], p["name"]) for p in summary["roster"]),
            totals=result.totals,
            transfers=result.transfers,
        )
        response = Response(render(sheet, lang=lang), mimetype="text/plain")
        response.headers["Content-Language"] = lang.value  # as the scoring answers say it
        unchanged = table_response(response, head.version, variant=variant)
    if query["lang"] is None:  # the language came from Accept-Language
        unchanged.vary.add("Accept-Language")
    return unchanged


@tables.post("/share/parse")
@tables.response(200, ShareReadingSchema, description="What the share text says, checked")
@tables.problems(400, 413, 415, 422)
@tables.doc(
    operationId="parseShareText",
    requestBody={"required": True, "content": {"application/json": {"schema": ParseShareSchema}}},
)
def parse_share() -> Response:
    """Read a share text back: totals and transfers

    The compact line (`GS1:…`) is found anywhere in the text — wrapped across lines,
    with spaces added or trimmed, any line endings — and its check must match (else a 422
    `share_checksum_mismatch`). Every visible total, transfer and rule line is checked
    against it: any difference is a 422 `share_line_mismatch` naming the line and why.
    A line that checks but that no table's share makes (an impossible date, one player,
    a 0-chip transfer, a pair paid both ways, an id or name a roster refuses) is a 422
    `share_line_malformed`.
    What chat apps add is ignored: a sender-and-time prefix (KakaoTalk, WhatsApp), time
    and date lines, a sender's name alone, a BOM, zero-width spaces and emoji
    variation selectors; the same share twice reads (its copies agree).
    """
    # batch-sized: a text of MAX_SHARE_TEXT characters, JSON-escaped, exceeds one hand's
    data = _PARSE.load_fast(read_json(current_app.config["GOSTOP"].max_batch_bytes))
    reading = read(data["text"])
    sheet = reading.sheet
    players = [{"id": pid, "name": name} for pid, name in sheet.players]
    _held_to_roster(players)
    body = {
        "format": PREFIX[:-1],
        "name": sheet.title,
        "date": sheet.date,
        "ruleset": {"preset": sheet.preset, "fingerprint": sheet.fingerprint},
        "rounding": None if sheet.unit is None else {"unit": sheet.unit},
        "players": players,
        "totals": dict(sheet.totals),
        "transfers": session_json.transfers_json(sheet.transfers),
        "checked": {
            "totals": reading.checked_totals,
            "transfers": reading.checked_transfers,
            "rules": reading.checked_rules,
        },
    }
    return Response(orjson.dumps(body), mimetype="application/json")


# A share line's players as a roster: every table's share line names a roster this takes
# (an export's blank name read as none first, as an import reads it: a table created
# before 2026-12-06 may have one, and its share text must read all the same).
_PARSED_ROSTER = roster_field(blank_names=True)


def _held_to_roster(players: list[dict[str, str | None]]) -> None:
    """422 ``share_line_malformed`` unless the players a share line names are a roster a
    table could have: at most 10, ids of 1–40 characters, names within their bound,
    neither with a control or invisible character. A line that checks but names others
    (another tool wrote it, or it was edited with its check made again) would give an
    app totals it cannot send back to the API. Ids a reader cannot tell apart are not
    refused: a table created before 2026-12-06 may have them."""
    roster = {"roster": players}
    try:
        _PARSED_ROSTER.deserialize(_blank_names_as_none(roster)["roster"])
    except ValidationError as error:
        path, _code, detail = pointer_errors(error.messages)[0]
        if path:
            index, *field = path
            what = f"player {int(index) + 1}'s {field[0] if field else 'id'}"
        else:
            what = f"the line's {len(players)} players"
        raise ShareError(
            [Issue("share_line_malformed", f"{what}: none a table has ({detail})", ("text",))]
        ) from None


# --- export ------------------------------------------------------------------------------


@tables.get("/tables/<table_id:id>/export")
@tables.response(200, ExportSchema, description="The whole table (JSON)", headers=_EXPORT_ETAG)
@tables.alt_response(
    200,
    schema={"type": "string", "description": "One row per hand and player (UTF-8 with a BOM)"},
    content_type=CSV_MEDIA,
    description="The whole table (JSON), or one row per hand and player (CSV)",
    success=True,
)
@tables.alt_response(304, description="Not modified (If-None-Match)", headers=_EXPORT_ETAG)
@tables.problems(
    422,
    **_ACCESS,
    s503="Replaying the table's log for the CSV ran past the service's deadline "
    "(GOSTOP_REQUEST_DEADLINE): retry after Retry-After seconds",
)
@tables.doc(
    operationId="exportTable",
    parameters=[
        if_none_match("format"),
        {
            "name": "format",
            "in": "query",
            "required": False,
            "schema": {"type": "string", "enum": ["json", "csv"]},
            "description": "json or csv; without it, Accept: text/csv gives CSV, else JSON",
        },
    ],
)
def export_table(id: str) -> Response:
    """Export the table: its whole event log (JSON), or its hands (CSV)

    JSON: the format and its version, the table's setup (name, variant, roster, locked
    rule set, stake, rounding, first dealer, dealer rule) and every event in order — what
    `POST /v1/tables/import` takes to make the same table again. CSV (`?format=csv` or
    `Accept: text/csv`): one row per hand and player — hand, entered_at, changed_at,
    status, outcome, winner, dealer, nagari_streak, player, name, points, chips (what the
    hand counts in the totals: 0 when voided) — UTF-8 with a BOM so spreadsheet apps read
    Korean names; a text cell that starts like a formula is prefixed with `'`. Each
    format has its own ETag: `"N"` for the JSON, `"N.csv"` for the CSV.
    """
    head, _token = open_table(_store(), id, write=False)
    query = load_query(_EXPORT_QUERY, _EXPORT_PARAMETERS)
    kind = query["format"] or (
        "csv" if preferred_media(("application/json", CSV_MEDIA)) == CSV_MEDIA else "json"
    )
    variant = _EXPORT_TAGS[kind]
    unchanged = not_modified(head.version, variant=variant)
    if unchanged is None:
        unchanged = table_response(
            _csv(head.id, head.version) if kind == "csv" else _json(head.id, head.version),
            head.version,
            variant=variant,
        )
    if query["format"] is None:  # the format came from Accept
        unchanged.vary.add("Accept")
    return unchanged


def _json(table_id: str, version: int) -> Response:
    rows = _logged(table_id, version)
    setup = orjson.loads(rows[0].body or "{}")
    events = [ledger_io.event_json(row) for row in rows]
    events[0]["body"] = None  # the setup is the export's top level: said once
    body = {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "id": table_id,
        "name": setup.get("name"),
        "variant": setup["variant"],
        "roster": setup["roster"],
        "ruleset": setup["ruleset"],
        "stake": setup["stake"],
        "dealer": setup["dealer"],
        "rounding": setup["rounding"],
        "dealer_rule": ledger_io.dealer_rule_of(setup).value,
        "version": version,
        "events": events,
    }
    return Response(orjson.dumps(body), mimetype="application/json")


def _csv(table_id: str, version: int) -> Response:
    ledger, roster = _cache().ledger(_store(), table_id, version)  # gone: a 404 (tables._gone)
    out = io.StringIO()
    out.write("\ufeff")  # the BOM: spreadsheet apps then read the file as UTF-8
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in hand_rows(ledger, names=dict(roster.people)):
        writer.writerow([_cell(value) for value in row.cells()])
    response = Response(out.getvalue(), mimetype=CSV_MEDIA)
    response.headers["Content-Disposition"] = f'attachment; filename="table-{table_id[:8]}.csv"'
    return response


def _logged(table_id: str, version: int) -> list[EventRow]:
    """The table's events up to ``version``; a 404 when it was deleted after its head was
    read (calculator.api.tables._gone)."""
    rows = _store().events(table_id, upto=version)
    if not rows:
        raise ledger_io.TableGoneError("the table has no events: it was deleted meanwhile")
    return rows


def _cell(value: str | int | None) -> str | int:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


# --- import ------------------------------------------------------------------------------


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


def _blank_names_as_none(given: Any) -> Any:
    """An export's blank names (of only whitespace: its table's, or a player's) as none.
    A table created before 2026-12-06 may have one (a blank name is refused since); its
    export must import all the same, as every export does, and a blank name says nothing
    a missing one would not. Anything else is left to the schema."""
    if not isinstance(given, dict):
        return given
    roster = given.get("roster")
    people = [p for p in roster if isinstance(p, dict)] if isinstance(roster, list) else []
    if not any(_blank(entry.get("name")) for entry in (given, *people)):
        return given
    fixed = dict(given)
    if _blank(given.get("name")):
        fixed["name"] = None
    if isinstance(roster, list):
        fixed["roster"] = [
            {**p, "name": None} if isinstance(p, dict) and _blank(p.get("name")) else p
            for p in roster
        ]
    return fixed


def _blank(value: object) -> bool:
    return isinstance(value, str) and value.isspace()


def _import(store: Store, key: str | None) -> Response:
    limit = current_app.config["GOSTOP"].max_import_bytes
    request.max_content_length = limit  # the app's is a batch's (create_app)
    given = read_json(limit, max_tokens=limit // IMPORT_BYTES_PER_TOKEN)
    data = _IMPORT.load_fast(_blank_names_as_none(given))
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
