"""Sharing a table over HTTP (SPEC §9): the chat text and reading it back, and the
export (JSON and CSV) — views on the tables' blueprint, around the pure
:mod:`calculator.ledger.share` and :mod:`calculator.ledger.export`. The import, which
takes an export back, is :mod:`calculator.api.table_import`.

Reads (share, export) take any token of the table, with the same checks as every table
read and its version as ETag, each language and format tagged apart (``"3"``, ``"3.en"``,
``"3.csv"``: :func:`calculator.api.table_etags.etag`); reading a share text back needs
no token (the text is what people already pasted into a chat).
"""

from __future__ import annotations

import csv
import io
from typing import Any

import orjson
from flask import Response, current_app
from marshmallow import ValidationError

from calculator.api import derived_rows, ledger_io, session_json
from calculator.api.arguments import load_query, parameter_names
from calculator.api.coded_errors import pointer_errors
from calculator.api.http import client_language, preferred_media, read_json
from calculator.api.sharing_schemas import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    ExportQuerySchema,
    ExportSchema,
    ParseShareSchema,
    ShareQuerySchema,
    ShareReadingSchema,
)
from calculator.api.table_access import open_table
from calculator.api.table_docs import _ACCESS, if_none_match
from calculator.api.table_etags import CSV_TAG, EN_TAG, not_modified, table_response
from calculator.api.table_schemas import roster_field
from calculator.api.table_store import _cache, _store
from calculator.api.tables import tables
from calculator.errors import Issue
from calculator.ledger.export import CSV_COLUMNS, hand_rows
from calculator.ledger.share import Lang, render
from calculator.ledger.share_line import PREFIX, ShareError, ShareSheet
from calculator.ledger.share_reading import read
from calculator.store import EventRow

_SHARE_QUERY = ShareQuerySchema()
_SHARE_PARAMETERS = parameter_names(_SHARE_QUERY)
_EXPORT_QUERY = ExportQuerySchema()
_EXPORT_PARAMETERS = parameter_names(_EXPORT_QUERY)
_PARSE = ParseShareSchema()
CSV_MEDIA = "text/csv"
# Each representation's own ETag (RFC 9110 §8.8.3; table_etags.etag): the table's version,
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
        result = derived_rows.settled(summary)
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
        _PARSED_ROSTER.deserialize(blank_names_as_none(roster)["roster"])
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


def blank_names_as_none(given: Any) -> Any:
    """An export's blank names (of only whitespace: its table's, or a player's) as none.
    A table created before 2026-12-06 may have one (a blank name is refused since); its
    export must import all the same, as every export does, and a blank name says nothing
    a missing one would not. Anything else is left to the schema. (A share line's players
    are read so too; the import, :mod:`calculator.api.table_import`, reads its body so.)"""
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
