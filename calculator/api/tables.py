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
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any

import orjson
from flask import Response, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import (
    Conflict,
    HTTPException,
    NotFound,
    PreconditionRequired,
)

from calculator.api import ledger_io, serialize
from calculator.api.docs import Blueprint, load_query, parameter_names
from calculator.api.fields import Coded, StrictSchema
from calculator.api.http import coded, current_request, no_body, read_json
from calculator.api.join_codes import join_url, new_join_code
from calculator.api.schemas import LangQuerySchema, resolve_spec
from calculator.api.table_access import (
    LANG_TAGS,
    MIN_SHARED_KEY,
    UNKNOWN_TABLE,
    HandNumberConverter,
    TableIdConverter,
    add_tokens,
    check_version,
    claim,
    idempotency_key,
    mint,
    open_table,
    poll_table,
    read_if_match,
    replayed,
    stale,
    table_response,
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
from calculator.api.table_schemas import (
    TABLE_HAND,
    ChangedSchema,
    CorrectionSchema,
    CreateTableSchema,
    EventsQuerySchema,
    EventsSchema,
    HandAddedSchema,
    NoFieldsSchema,
    ReasonSchema,
    TableCreatedSchema,
    TableSchema,
    TableSettlementSchema,
    VersionSchema,
    table_ruleset,
)
from calculator.api.table_store import _cache, _store
from calculator.api.views import answer_shape
from calculator.errors import GoStopError
from calculator.explain import LANGUAGES
from calculator.ledger import (
    NEW_TABLES,
    Event,
    Ledger,
    LedgerError,
    LedgerHand,
    TableSetup,
    Tip,
    TooCostlyError,
    added,
    appended,
    apply,
    changes,
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
from calculator.store import EventRow, Head, Store, TokenRow

CREATE_SCOPE = "create"

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


# --- writes ------------------------------------------------------------------------------


def iso_time(seconds: float) -> str:
    """A time as the API gives it: UTC, ISO 8601 to the millisecond."""
    at = datetime.fromtimestamp(seconds, UTC)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _now() -> str:
    """The store's clock as an event's time."""
    return iso_time(_store().clock())


def _stamp(store: Store, head: Head) -> str:
    """The time of an event written after ``head``: the store's clock, but never before
    the table's last event (read with the version the write is checked against, so a
    write that commits follows that event). Instances' clocks differ and NTP steps one
    back; a log's times never go back (an import refuses one that does)."""
    return max(iso_time(store.clock()), head.last_at)  # ISO 8601 UTC, fixed width: sorts


Make = Callable[[TableSetup, str, str], tuple[Event, Any, tuple[str, ...]]]
Answer = Callable[
    [Ledger | None, Ledger | None, dict[int, str], Sequence[LedgerHand]], dict[str, Any]
]


def _write(
    table_id: str, make: Make, answer: Answer, status: int = 200, *, append: bool = False
) -> Response:
    """One change to a table, checked in the contract's order, written in one transaction.

    ``make(setup, by, at)`` loads the body and returns the event and the body to store;
    ``answer(before, after, results, derived)`` is the response body (without the
    version); ``derived`` holds every hand the change derived again, ``results`` their
    result text (as stored: the default shape), by number.
    An ``append`` (an added hand, whose answer reads ``results`` alone) may be made at
    the table's end without its ledger: then ``before`` and ``after`` are None.
    """
    head, token = open_table(_store(), table_id, write=True)
    key = idempotency_key()
    if key is not None:
        replay = claim(_store(), table_id, key, language=append)  # an append's speaks one
        if replay is not None:
            return replay
    try:
        response = _change(head, token, key, make, answer, status, append)
    except BaseException:
        if key is not None:
            _store().release(scope=table_id, key=key)
        raise
    return response


def _change(
    head: Head,
    token: TokenRow,
    key: str | None,
    make: Make,
    answer: Answer,
    status: int,
    append: bool,
) -> Response:
    if_match = read_if_match()
    if key is None or if_match is None:
        missing = " and ".join(
            name
            for name, value in (("Idempotency-Key", key), ("If-Match", if_match))
            if value is None
        )
        raise coded(
            PreconditionRequired(
                f"send {missing}: writes carry Idempotency-Key and If-Match: "
                f'"<version>" (the table is at {head.version})'
            ),
            "precondition_required",
        )
    check_version(head.version, if_match)
    store, cache = _store(), _cache()
    found = orjson.loads(head.summary)
    locked, name = ledger_io.fixed(found)
    # An append is made at the table's end: neither the hands another instance added since
    # this one's ledger (scored again by a catch-up) nor the ledger's copies are needed.
    at = cache.end(store, head.id, head.version, found) if append else None
    before: Ledger | None = None
    after: Ledger | None = None
    if at is None:
        before, roster = cache.ledger(store, head.id, head.version)
        setup = before.setup
    else:
        setup, roster = at[0].setup, at[1]
    event, body, prefix = make(setup, token.label, _stamp(store, head))
    state: Ledger | Tip
    try:
        if at is not None:
            hand, moved = _appended(at[0], event)
            state = moved
            derived: Sequence[LedgerHand] = (hand,)
            start_at, replace = hand.number, False
        elif before is not None:
            after = state = _apply(before, event)
            derived = after.hands[after.rederived_from :]
            start_at, replace = after.rederived_from + 1, after.rederived_from < len(before.hands)
    except TooCostlyError:
        raise  # about the table, not the request's hand: a 422 at the body's root
    except GoStopError as error:
        # The entered hand's own problems point into the request's hand (another hand that
        # a correction breaks is named as "hands/N").
        if prefix and error.issues[0].location[:1] != ("hands",):
            raise ledger_io.relocated(error, prefix) from None
        raise
    results = {h.number: ledger_io.result_text(h) for h in derived}
    items = [ledger_io.hand_item(h, results[h.number]) for h in derived]
    text = orjson.dumps(
        {**answer(before, after, results, derived), "version": state.version}
    ).decode()
    written = store.write(
        table_id=head.id,
        expected=head.version,
        events=[ledger_io.event_row(event, state.version, body)],
        summary=ledger_io.summary(head.id, state, roster, locked, name=name),
        hands_from=start_at,
        hand_items=items,
        replace=replace,
        answer=(head.id, key, status, text),
    )
    if not written:
        current = store.head(head.id)
        if current is None:  # deleted since its head was read
            raise ledger_io.TableGoneError("the table was deleted meanwhile")
        raise stale(
            current.version if current is not None else head.version, "the table changed meanwhile"
        )
    if after is not None:
        cache.put(head.id, after, roster)
    else:
        cache.put_end(head.id, moved)
    return table_response(Response(text, status=status, mimetype="application/json"), state.version)


def _apply(ledger: Ledger, event: Event) -> Ledger:
    """The ledger after ``event``; what the table cannot take in its state is a 409 (an
    unknown hand number a 404), with the domain's code."""
    try:
        return apply(ledger, event)
    except LedgerError as error:
        raise _refused(error) from None


def _appended(end: Tip, event: Event) -> tuple[LedgerHand, Tip]:
    """:func:`_apply` for a hand added at the table's end: the hand and the end after it."""
    try:
        return appended(end, event)
    except LedgerError as error:
        raise _refused(error) from None


def _refused(error: LedgerError) -> HTTPException:
    issue = error.issues[0]
    refused: HTTPException = (
        NotFound(issue.detail) if issue.code == "unknown_hand" else Conflict(issue.detail)
    )
    return coded(refused, issue.code)


@cache
def _schema(schema: type[StrictSchema]) -> StrictSchema:
    return schema()  # one instance per schema: it compiles its fast path once


def _body(schema: type[StrictSchema]) -> Any:
    settings = current_app.config["GOSTOP"]
    return _schema(schema).load_fast(read_json(settings.max_body_bytes))


def _changed_json(
    before: Ledger | None,
    after: Ledger | None,
    _results: dict[int, str],
    _derived: Sequence[LedgerHand],
) -> dict[str, Any]:
    assert before is not None
    assert after is not None
    return {
        "changed": [
            {"number": change.number, "delta": dict(change.delta)}
            for change in changes(before, after)
        ]
    }


# --- views -------------------------------------------------------------------------------


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


def created_once(create: Callable[[Store, str | None], Response]) -> Response:
    """A request that makes a new table (a create or an import), at most once per
    ``Idempotency-Key``: a replay answers the same table with freshly minted tokens.

    Not the first tokens with fresh secrets, as a replayed mint or join answers: the
    first answer's may have reached the phone after all (a replay and the request it
    retries can even run at once), and a create's scorer token is the table's only
    writer: rekeyed, the table could be lost to its own creator, or to anyone who
    replays the key. So the first tokens stay valid, and each replay adds two (within
    the table's token cap)."""
    store = _store()
    key = idempotency_key(shared=True)
    if key is not None:
        replay = claim(store, CREATE_SCOPE, key)
        if replay is not None:
            return replayed(_minted_again(store, orjson.loads(replay.get_data())))
    try:
        return create(store, key)
    except BaseException:
        if key is not None:
            store.release(scope=CREATE_SCOPE, key=key)
        raise


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


def insert_table(
    store: Store,
    *,
    created: EventRow,
    later: Sequence[EventRow],
    ledger: Ledger,
    roster: ledger_io.Roster,
    body: dict[str, Any],
    key: str | None,
) -> Response:
    """Store a new table — its ``created`` event (whose ``body`` it is), the ``later``
    events that made ``ledger``, their derived rows — under a fresh id, join code and
    tokens: the 201 answer."""
    items = [ledger_io.hand_item(hand) for hand in ledger.hands]
    for _attempt in range(8):
        table_id = str(uuid.uuid4())
        join_code = new_join_code()
        scorer, scorer_row = mint("scorer")
        viewer, viewer_row = mint("viewer")
        answer = {"id": table_id, "version": ledger.version, "join_code": join_code}
        stored = None if key is None else (CREATE_SCOPE, key, 201, orjson.dumps(answer).decode())
        if store.create(
            table_id=table_id,
            join_code=join_code,
            created_at=store.clock(),
            event=created,
            later=later,
            hand_items=items,
            summary=ledger_io.summary(table_id, ledger, roster, body["ruleset"], name=body["name"]),
            tokens=(scorer_row, viewer_row),
            answer=stored,
        ):
            return _created_response(answer, scorer, viewer)
    raise RuntimeError("could not draw a free join code")  # pragma: no cover - 8 collisions


def _minted_again(store: Store, stored: dict[str, Any]) -> Response:
    """A replayed create or import: the same table, with freshly minted tokens (the first
    ones still work: :func:`created_once` says why)."""
    if store.head(stored["id"]) is None:
        raise coded(NotFound("the table this Idempotency-Key created is gone"), "unknown_table")
    scorer, scorer_row = mint("scorer")
    viewer, viewer_row = mint("viewer")
    add_tokens(store, stored["id"], (scorer_row, viewer_row), rename=True)  # "scorer (2)"
    return _created_response(stored, scorer, viewer)


def _created_response(answer: dict[str, Any], scorer: str, viewer: str) -> Response:
    body = {
        "id": answer["id"],
        "version": answer["version"],
        "join_code": answer["join_code"],
        "join_url": join_url(request.host_url, answer["join_code"]),
        "scorer_token": scorer,
        "viewer_token": viewer,
    }
    response = table_response(body, answer["version"], 201)
    response.headers["Location"] = f"/v1/tables/{answer['id']}"
    return response


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
        if ledger_io.lacks_dealer_rule(head.summary):  # where a newer summary says it
            access["dealer_rule"] = _dealer_rule(store, head.id)
        access["join_code"] = head.join_code
        access["join_url"] = join_url(request.host_url, head.join_code)
        body = ledger_io.table_body(head.summary, items, extra=access)
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
            text = ledger_io.result_text(hand, shape)
        return {"number": hand.number, "result": orjson.Fragment(text)}

    response = _write(id, make, answer, 201, append=True)
    # A replay's stored answer speaks the language its request asked, and the key is
    # bound to it (table_access.request_hash): the one this replay asks.
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


def _bodiless(kind: Callable[..., Event]) -> Make:
    """A change that takes no body: one given (chunked too; whitespace is none: http.no_body,
    as the key's request hash reads it) must be an empty object (NoFieldsSchema)."""

    def make(_setup: TableSetup, by: str, at: str) -> tuple[Event, Any, tuple[str, ...]]:
        if not no_body(request.get_data(cache=True)):
            _body(NoFieldsSchema)
        return kind(by=by, at=at), None, ()

    return make


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
    session = serialize.session_json(ledger_io.settled(orjson.loads(head.summary)))
    body = {
        "version": head.version,
        "totals": session["totals"],
        "transfers": session["transfers"],
        "rounding": session["rounding"],
    }
    return table_response(body, head.version)
