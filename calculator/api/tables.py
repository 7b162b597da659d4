"""The table ledger over HTTP (SPEC §9): thin views around :mod:`calculator.ledger`
(the rules) and :mod:`calculator.store` (the database).

Every request to a table is checked in this order: no ``Authorization`` 401 → a token
that does not open this table (wrong, another table's, or no such table) 404 → a viewer
writing 403 → the ``Idempotency-Key`` (a stored answer is replayed; another body 422; in
flight 409) → a missing ``Idempotency-Key`` or ``If-Match`` 428 → a stale ``If-Match``
412 (an If-Match that is no entity tag, ``If-Match: 12``: 400) → the body (422). A
replay is never a 412. Every answer about a table carries ``ETag: "<version>"`` (the
share text in English and the CSV export with a suffix: ``"<version>.en"``,
``"<version>.csv"``); reads answer ``If-None-Match`` with 304.

Around the views: how a write is made in :mod:`calculator.api.table_writes`, the store's
lifecycle in :mod:`calculator.api.table_store`, the OpenAPI descriptions the table
endpoints share in :mod:`calculator.api.table_docs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from flask import Response, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import NotFound

from calculator.api import derived_rows, ledger_io, serialize, session_json
from calculator.api.arguments import load_query, parameter_names
from calculator.api.coded_errors import Coded
from calculator.api.docs import Blueprint
from calculator.api.http import coded, current_request, read_json
from calculator.api.idempotency_keys import MIN_SHARED_KEY
from calculator.api.join_codes import join_url
from calculator.api.query_schemas import LangQuerySchema
from calculator.api.schemas import resolve_spec
from calculator.api.table_access import (
    UNKNOWN_TABLE,
    HandNumberConverter,
    TableIdConverter,
    poll_table,
)
from calculator.api.table_docs import (
    _ACCESS,
    _AFTER,
    _BODY,
    _CHANGE,
    _ETAG,
    _KEY_REFUSED,
    _LANG,
    _LANG_ETAG,
    _NO_BODY,
    _NO_FIELD,
    _READ_HEADERS,
    _REDERIVED,
    _TOKEN,
    _WRITE,
    _WRITE_HEADERS,
    REPLAYED_CREATE,
    REPLAYED_CREATE_GONE,
    SHARED_KEY_SCHEMA,
    if_none_match,
)
from calculator.api.table_etags import LANG_TAGS, table_response
from calculator.api.table_responses import (
    ChangedSchema,
    EventsSchema,
    HandAddedSchema,
    TableCreatedSchema,
    TableSchema,
    TableSettlementSchema,
    VersionSchema,
)
from calculator.api.table_schemas import (
    TABLE_HAND,
    CorrectionSchema,
    CreateTableSchema,
    EventsQuerySchema,
    ReasonSchema,
    table_ruleset,
)
from calculator.api.table_store import _cache, _store
from calculator.api.table_writes import (
    _bodiless,
    _body,
    _changed_json,
    _now,
    _write,
    created_once,
    insert_table,
)
from calculator.api.views import answer_shape
from calculator.explain import LANGUAGES
from calculator.ledger import (
    NEW_TABLES,
    Event,
    LedgerHand,
    TableSetup,
    added,
    check_setup,
    closed,
    corrected,
    hands_about,
    redone,
    start,
    undone,
    voided,
)
from calculator.presets import Resolver, Variant
from calculator.store import EventRow, Store

_LANG_QUERY = LangQuerySchema()
_FULL_RULESET_HERE = Coded(
    "not taken by a table's answers: the table's `ruleset` (GET /v1/tables/{id}) lists "
    "every option of its locked rule set, and each result echoes it compact",
    "unknown_field",
)
_LANG_PARAMETERS = parameter_names(_LANG_QUERY)
_EVENTS_QUERY = EventsQuerySchema()
_EVENTS_PARAMETERS = parameter_names(_EVENTS_QUERY)


tables = Blueprint(
    "tables",
    __name__,
    url_prefix="/v1",
    description="A night of play: a shared, append-only, rule-locked ledger",
)
# Before any route: the rules below are compiled with it.
tables.record_once(
    lambda state: state.app.url_map.converters.update(
        table_id=TableIdConverter, hand_number=HandNumberConverter
    )
)


@tables.post("/tables")
@tables.response(
    201,
    TableCreatedSchema,
    description="The table and its tokens (shown once)",
    headers={**_ETAG, "Location": _TOKEN},
)
@tables.problems(400, 409, 413, 415, 422, s404=REPLAYED_CREATE_GONE)
@tables.doc(
    operationId="createTable",
    parameters=[
        {
            **_WRITE_HEADERS[0],
            "required": False,
            "schema": SHARED_KEY_SCHEMA,
            "description": f"Optional: {REPLAYED_CREATE}. At least {MIN_SHARED_KEY} "
            "characters, random (send a UUID): create keys share one scope (422 "
            "`weak_idempotency_key`)",
        }
    ],
    requestBody={
        "required": True,
        "content": {
            "application/json": {
                "schema": CreateTableSchema,
                "example": {"roster": ["A", "B", "C"], "stake": 100, "dealer": "A"},
            }
        },
    },
)
def create_table() -> Response:
    """Open a table for a night of play

    The roster (2–10 people), the variant, the rule set (locked: every option and the
    fingerprint are stored), the stake and the rounding unit are fixed for the table's
    life. The answer gives the scorer token (reads and writes) and the viewer token
    (reads); they are shown only here, and stored only as hashes.
    """
    return created_once(lambda store, key: _create(store, _body(CreateTableSchema), key))


def _create(store: Store, data: dict[str, Any], key: str | None) -> Response:
    variant = Variant(data["variant"])
    spec = table_ruleset(data["ruleset"], variant)
    ruleset = resolve_spec(spec, variant, ("ruleset",), resolver=Resolver())
    locked = serialize.ruleset_json(ruleset, full=True)  # the lock: every option
    body = ledger_io.setup_body(
        roster=ledger_io.Roster(people=tuple((p.id, p.name) for p in data["roster"])),
        variant=variant,
        ruleset=locked,
        stake=data["stake"],
        dealer=data["dealer"],
        unit=(data["rounding"] or {}).get("unit"),
        name=data["name"],
        dealer_rule=NEW_TABLES,
    )
    setup, roster = ledger_io.setup_of(body)  # read as every replay will read it
    check_setup(setup)
    created = EventRow(
        seq=1, type="created", by="scorer", at=_now(), body=orjson.dumps(body).decode()
    )
    return insert_table(
        store, created=created, later=(), ledger=start(setup), roster=roster, body=body, key=key
    )


def _asked_shape() -> tuple[serialize.Shape, ValidationError | None]:
    """The shape a table's results are asked in: ``?lang``, else Korean, what the rows
    store; and the query's refusal, for the caller to raise after the access checks
    (SPEC §9's order: a 401 or 404 before a 422). Not ``Accept-Language``: phones and
    browsers send one unasked, and a table answer's ETag is its version (``"N"``, SPEC
    §9) for every client that does not ask for another language by name."""
    if not current_request().environ.get("QUERY_STRING"):  # every poll: no query to load
        return serialize.DEFAULT_SHAPE, None
    try:
        query = load_query(_LANG_QUERY, _LANG_PARAMETERS)
        if any(name.lower() == "full_ruleset" for name in request.args):
            raise ValidationError({"full_ruleset": [_FULL_RULESET_HERE]})
    except ValidationError as refused:
        return serialize.DEFAULT_SHAPE, refused
    lang = query.get("lang") or LANGUAGES[0]
    return answer_shape({"lang": lang}), None


@tables.get("/tables/<table_id:id>")
@tables.response(200, TableSchema, description="The table", headers=_LANG_ETAG)
@tables.alt_response(304, description="Not modified (If-None-Match)", headers=_LANG_ETAG)
@tables.problems(422, **_ACCESS, s503=_WRITE["s503"])
@tables.doc(operationId="getTable", parameters=[if_none_match("language"), _LANG])
def get_table(id: str) -> Response:
    """Read a table: totals, hands, nagari streak, dealer

    Everything here is derived from the table's events. Phones that follow a table poll
    this every 2–3 seconds with If-None-Match: while the table is unchanged the answer is
    an empty 304, which costs about what /healthz does. `join_code` and `join_url` let
    another phone join (POST /v1/tables/join) while the table is open.

    Each hand's `result` is the stateless answer in Korean, or in the language `?lang`
    names (`en`, or `all` for both; `Accept-Language` does not choose here: the answer's
    ETag stays the version for every client that does not ask). Each language has its own
    ETag: `"N"` in Korean, `"N.en"` in English, `"N.all"` in both; a write takes any.

    `dealer_rule` is how the table deals after a hand whose request names no winner,
    fixed when it was created (its export carries it too).
    """
    shape, refused = _asked_shape()
    variant = LANG_TAGS[shape.langs]
    store = _store()
    head, response = poll_table(store, id, variant)
    if refused is not None:
        raise refused
    if response is None:
        head, items = _cache().hands(store, head, shape)  # once per version and language
        access: dict[str, Any] = {}
        if derived_rows.lacks_dealer_rule(head.summary):  # where a newer summary says it
            access["dealer_rule"] = _dealer_rule(store, head.id)
        access["join_code"] = head.join_code
        access["join_url"] = join_url(request.host_url, head.join_code)
        body = derived_rows.table_body(head.summary, items, extra=access)
        response = table_response(
            Response(body, mimetype="application/json"), head.version, variant=variant
        )
        response.headers.add("Content-Language", ", ".join(shape.langs))
    return response


def _dealer_rule(store: Store, table_id: str) -> str:
    """The table's dealer rule, as its ``created`` event records it (:func:`_gone` when
    the table was deleted after its head was read)."""
    rows = store.events(table_id, upto=1)
    if not rows:
        raise ledger_io.TableGoneError("the table has no events: it was deleted meanwhile")
    return ledger_io.dealer_rule_of(orjson.loads(rows[0].body or "{}")).value


@tables.app_errorhandler(ledger_io.TableGoneError)
def _gone(_error: ledger_io.TableGoneError) -> Response:
    """A table deleted after a request read its head, found by its emptied log (a read,
    a write, an export): a 404, as a request made after the delete answers — never a
    500. Every endpoint of the tables and their sharing, from this one handler."""
    refused = coded(NotFound(UNKNOWN_TABLE), "unknown_table")
    return current_app.make_response(current_app.handle_http_exception(refused))


@tables.post("/tables/<table_id:id>/hands")
@tables.response(201, HandAddedSchema, description="The hand, numbered and scored", headers=_ETAG)
@tables.problems(**{**_WRITE, **_BODY, **_CHANGE})
@tables.doc(
    operationId="addTableHand",
    parameters=[*_WRITE_HEADERS, _LANG],
    requestBody={
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "description": "A hand as for POST /v1/gostop/hands (or /v1/balance/hands) "
                    "without ruleset, stake, nagari_streak and compare_with: the table "
                    "supplies them",
                    **TABLE_HAND,
                }
            }
        },
    },
)
def add_hand(id: str) -> Response:
    """Append a hand

    Players must be on the roster (a roster member not in the hand did not play it). The
    ledger supplies the table's rule set and stake, the nagari streak carried from the
    hands before and the dealer (passed only when the dealer plays this hand). The
    `result` is in Korean, or in the language `?lang` names, as the table read's; a
    replay (the same Idempotency-Key) answers as the first time did, and asks the same
    language (another is a 422 `key_reused`).
    """
    asked: list[serialize.Shape] = []

    def make(setup: TableSetup, by: str, at: str) -> tuple[Event, Any, tuple[str, ...]]:
        shape, refused = _asked_shape()
        if refused is not None:
            raise refused
        asked.append(shape)
        body = read_json(current_app.config["GOSTOP"].max_body_bytes)
        hand = ledger_io.load_play(setup.variant, body)
        return added(hand, by=by, at=at), body, ()

    def answer(
        _before: Any, _after: Any, results: dict[int, str], derived: Sequence[LedgerHand]
    ) -> dict[str, Any]:
        (hand,) = derived  # an append derives its own hand alone
        (shape,) = asked
        text = results[hand.number]
        if shape != serialize.DEFAULT_SHAPE:
            text = derived_rows.result_text(hand, shape)
        return {"number": hand.number, "result": orjson.Fragment(text)}

    response = _write(id, make, answer, 201, append=True)
    # A replay's stored answer speaks the language its request asked, and the key is
    # bound to it (idempotency_keys.request_hashes): the one this replay asks.
    shape = asked[0] if asked else _asked_shape()[0]
    response.headers["Content-Language"] = ", ".join(shape.langs)
    return response


@tables.put("/tables/<table_id:id>/hands/<hand_number:number>")
@tables.response(200, ChangedSchema, description="The hands whose amounts changed", headers=_ETAG)
@tables.problems(**{**_WRITE, **_BODY, **_CHANGE})
@tables.doc(
    operationId="correctTableHand",
    parameters=_WRITE_HEADERS,
    requestBody={"required": True, "content": {"application/json": {"schema": CorrectionSchema}}},
)
def correct_hand(id: str, number: int) -> Response:
    """Correct a hand (the reason is kept in the log)

    The hands after it are derived again: a draw corrected to a win changes the next
    hand's multiplier. `changed` lists every hand whose amounts changed, with the
    difference per player. A voided hand corrected counts again (a hand voided by
    mistake comes back without undoing the hands played since).
    """

    def make(setup: TableSetup, by: str, at: str) -> tuple[Event, Any, tuple[str, ...]]:
        data = _body(CorrectionSchema)
        hand = ledger_io.load_play(setup.variant, data["hand"], ("hand",))
        return corrected(number, hand, reason=data["reason"], by=by, at=at), data["hand"], ("hand",)

    return _write(id, make, _changed_json)


@tables.post("/tables/<table_id:id>/hands/<hand_number:number>/void")
@tables.response(200, ChangedSchema, description="The hands whose amounts changed", headers=_ETAG)
@tables.problems(**{**_WRITE, **_BODY, **_CHANGE})
@tables.doc(
    operationId="voidTableHand",
    parameters=_WRITE_HEADERS,
    requestBody={"required": True, "content": {"application/json": {"schema": ReasonSchema}}},
)
def void_hand(id: str, number: int) -> Response:
    """Void a hand: it stays listed and counts nothing (the reason is kept in the log)"""

    def make(_setup: TableSetup, by: str, at: str) -> tuple[Event, Any, tuple[str, ...]]:
        data = _body(ReasonSchema)
        return voided(number, reason=data["reason"], by=by, at=at), None, ()

    return _write(id, make, _changed_json)


@tables.post("/tables/<table_id:id>/undo")
@tables.response(200, ChangedSchema, description="The hands whose amounts changed", headers=_ETAG)
@tables.problems(**{**_WRITE, **_BODY, "s422": _REDERIVED["s422"] + _NO_FIELD})
@tables.doc(operationId="undoTableChange", parameters=_WRITE_HEADERS, requestBody=_NO_BODY)
def undo(id: str) -> Response:
    """Undo the last change (added, corrected or voided), as a new event"""
    return _write(id, _bodiless(undone), _changed_json)


@tables.post("/tables/<table_id:id>/redo")
@tables.response(200, ChangedSchema, description="The hands whose amounts changed", headers=_ETAG)
@tables.problems(**{**_WRITE, **_BODY, "s422": _REDERIVED["s422"] + _NO_FIELD})
@tables.doc(operationId="redoTableChange", parameters=_WRITE_HEADERS, requestBody=_NO_BODY)
def redo(id: str) -> Response:
    """Redo the last undone change (only until a new change is made)"""
    return _write(id, _bodiless(redone), _changed_json)


@tables.post("/tables/<table_id:id>/close")
@tables.response(200, VersionSchema, description="Closed: read-only from now on", headers=_ETAG)
@tables.problems(**{**_WRITE, **_BODY, "s422": _KEY_REFUSED["s422"] + _NO_FIELD})
@tables.doc(operationId="closeTable", parameters=_WRITE_HEADERS, requestBody=_NO_BODY)
def close_table(id: str) -> Response:
    """Close the table: it can still be read, never changed"""
    return _write(id, _bodiless(closed), lambda _before, _after, _results, _derived: {})


@tables.get("/tables/<table_id:id>/events")
@tables.response(200, EventsSchema, description="The events after `after`", headers=_ETAG)
@tables.alt_response(304, description="Not modified (If-None-Match)", headers=_ETAG)
@tables.problems(422, **_ACCESS)
@tables.doc(operationId="listTableEvents", parameters=[*_READ_HEADERS, _AFTER])
def list_events(id: str) -> Response:
    """The table's history: who changed what, when and why

    Append-only and in order; `?after=N` gives only the events after sequence number N
    (a phone syncs what it has not seen). The ETag is the table's version: poll every
    2–3 seconds with `?after=<the last seq you hold>` and If-None-Match, and the answer
    is an empty 304 until the table changes. `by` is the label of the token that wrote
    the event. `number` is the hand the event is about: the hand added, corrected or
    voided, or for undone and redone the hand of the change taken back or made again;
    null for created and closed.
    """
    head, unchanged = poll_table(_store(), id)
    # The query is read after the access checks: 401 and 404 come before a 422 (SPEC §9).
    query = load_query(_EVENTS_QUERY, _EVENTS_PARAMETERS)
    if unchanged is not None:
        return unchanged
    store = _store()
    rows = store.events(head.id, after=query["after"], upto=head.version)
    # The hand each event is about: derived from the whole log, as only corrections and
    # voids store theirs (the stored and exported log stays as it is).
    about = hands_about(store.event_kinds(head.id, upto=head.version)) if rows else []
    emptied = len(about) < rows[-1].seq if rows else query["after"] < head.version
    if emptied:  # there were events: the log was emptied since its head was read
        raise ledger_io.TableGoneError("the table has no events: it was deleted meanwhile")
    events = [ledger_io.event_json(r, number=about[r.seq - 1]) for r in rows]
    body = {"version": head.version, "events": events}
    return table_response(body, head.version)


@tables.get("/tables/<table_id:id>/settlement")
@tables.response(200, TableSettlementSchema, description="Totals and transfers", headers=_ETAG)
@tables.alt_response(304, description="Not modified (If-None-Match)", headers=_ETAG)
@tables.problems(**_ACCESS)
@tables.doc(operationId="settleTable", parameters=_READ_HEADERS)
def settle_table(id: str) -> Response:
    """Settle the table now: totals, the fewest transfers, rounded to the table's unit"""
    head, unchanged = poll_table(_store(), id)
    if unchanged is not None:
        return unchanged
    session = session_json.session_json(derived_rows.settled(orjson.loads(head.summary)))
    body = {
        "version": head.version,
        "totals": session["totals"],
        "transfers": session["transfers"],
        "rounding": session["rounding"],
    }
    return table_response(body, head.version)
