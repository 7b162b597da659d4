"""How a write to a table is made (SPEC §9): a new table at most once per
Idempotency-Key (:func:`created_once`, :func:`insert_table`), and a change to one
(:func:`_write`) checked in the contract's order — the key claimed or its answer
replayed, If-Match against the version — then applied to the ledger and written with its
derived rows and its answer in one transaction. The views say what the change is and what
it answers."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any

import orjson
from flask import Response, current_app, request
from werkzeug.exceptions import (
    Conflict,
    HTTPException,
    NotFound,
    PreconditionRequired,
)

from calculator.api import derived_rows, ledger_io
from calculator.api.http import coded, no_body, read_json
from calculator.api.idempotency_keys import claim, idempotency_key, replayed
from calculator.api.join_codes import join_url, new_join_code
from calculator.api.strict_schema import StrictSchema
from calculator.api.table_access import open_table
from calculator.api.table_etags import check_version, read_if_match, stale, table_response
from calculator.api.table_schemas import NoFieldsSchema
from calculator.api.table_store import _cache, _store
from calculator.api.table_tokens import add_tokens, mint
from calculator.errors import GoStopError
from calculator.ledger import (
    Event,
    Ledger,
    LedgerError,
    LedgerHand,
    TableSetup,
    Tip,
    TooCostlyError,
    appended,
    apply,
    changes,
)
from calculator.store import EventRow, Head, Store, TokenRow

CREATE_SCOPE = "create"


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
    locked, name = derived_rows.fixed(found)
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
    results = {h.number: derived_rows.result_text(h) for h in derived}
    items = [derived_rows.hand_item(h, results[h.number]) for h in derived]
    text = orjson.dumps(
        {**answer(before, after, results, derived), "version": state.version}
    ).decode()
    written = store.write(
        table_id=head.id,
        expected=head.version,
        events=[ledger_io.event_row(event, state.version, body)],
        summary=derived_rows.summary(head.id, state, roster, locked, name=name),
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


def _bodiless(kind: Callable[..., Event]) -> Make:
    """A change that takes no body: one given (chunked too; whitespace is none: http.no_body,
    as the key's request hash reads it) must be an empty object (NoFieldsSchema)."""

    def make(_setup: TableSetup, by: str, at: str) -> tuple[Event, Any, tuple[str, ...]]:
        if not no_body(request.get_data(cache=True)):
            _body(NoFieldsSchema)
        return kind(by=by, at=at), None, ()

    return make


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
    items = [derived_rows.hand_item(hand) for hand in ledger.hands]
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
            summary=derived_rows.summary(
                table_id, ledger, roster, body["ruleset"], name=body["name"]
            ),
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
