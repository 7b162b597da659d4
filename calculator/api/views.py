"""The v1 endpoints: load → domain call → dump, nothing more.

Each view declares its request and response schemas and its problems with flask-smorest
decorators (:mod:`calculator.api.docs`); the OpenAPI operations are generated from these
declarations, the summary and description from the docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import orjson
from flask import Blueprint as FlaskBlueprint
from flask import Response, current_app, request
from werkzeug.exceptions import NotFound

from calculator.api import (
    balance_json,
    batch_bounds,
    reference_json,
    reference_responses,
    responses,
    rules_document,
    serialize,
    session_json,
    session_responses,
)
from calculator.api.docs import Blueprint
from calculator.api.examples import BALANCE_EXAMPLES, HAND_EXAMPLES, SETTLEMENT_EXAMPLES
from calculator.api.http import (
    PROBLEM_JSON,
    FixedHeaders,
    client_language,
    coded,
    current_settings,
    json_response,
    json_text_response,
    preferred_media,
    read_json,
)
from calculator.api.query_schemas import AnswerQuerySchema, CardsQuerySchema
from calculator.api.schemas import (
    BatchRequestSchema,
    HandRequest,
    HandRequestSchema,
    load_hand_request,
    resolve_spec,
)
from calculator.api.score_requests import score_items, score_request
from calculator.api.session_schemas import (
    BalanceRequest,
    BalanceRequestSchema,
    SettlementRequestSchema,
)
from calculator.balance import score_balance
from calculator.explain import LANGUAGES
from calculator.limits import close_scope, deadline, listing, open_scope
from calculator.presets import (
    Preset,
    Resolver,
    Variant,
    find_preset,
    resolve,
    unknown_preset,
)
from calculator.session import BalanceEntry, Entry, GoStopEntry, NetEntry, Session, settle_session

CATALOG_CACHE = "public, max-age=3600"
_CACHED = {
    "ETag": {"schema": {"type": "string"}, "description": "Send back as If-None-Match"},
    "Cache-Control": {"schema": {"type": "string"}},
}

gostop = Blueprint(
    "gostop", __name__, url_prefix="/v1", description="Score and settle Go-Stop hands"
)
balance = Blueprint(
    "balance", __name__, url_prefix="/v1", description="The 120/80/60 balance variant"
)
sessions = Blueprint(
    "sessions", __name__, url_prefix="/v1", description="Settle a whole session: who pays whom"
)
catalog = Blueprint("catalog", __name__, url_prefix="/v1", description="Cards, rule sets and codes")
BLUEPRINTS = (gostop, balance, sessions, catalog)


def budgeted(wsgi_app: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``wsgi_app`` with one "did you mean" budget per request (calculator.limits).

    Opened around the WSGI call rather than by Flask hooks (two hook calls and two proxied
    look-ups a request); a request made inside another (the document's examples are
    computed that way) opens its own, nested budget.
    """

    def app(environ: Any, start_response: Any) -> Any:
        token = open_scope()
        try:
            return wsgi_app(environ, start_response)
        finally:
            close_scope(token)

    return app


def answer_shape(query: Mapping[str, Any]) -> serialize.Shape:
    """The shape the client asked for: ``?lang`` (ko, en or all), else the best of ko and
    en by ``Accept-Language`` (werkzeug parses its q-values), else Korean; and whether the
    rule set echo lists every option (``?full_ruleset=true``; a table's answers echo it
    as the table stores it: its query has no ``full_ruleset``)."""
    lang = query.get("lang") or client_language() or LANGUAGES[0]
    return _SHAPES[lang, query.get("full_ruleset", False)]


# Every shape a request can ask for (lang is one of ours or "all", by the query's schema
# or by header_language), made once: a request picks one instead of building it.
_SHAPES: dict[tuple[str, bool], serialize.Shape] = {
    (lang, full): serialize.Shape(langs=LANGUAGES if lang == "all" else (lang,), full_ruleset=full)
    for lang in (*LANGUAGES, "all")
    for full in (False, True)
}
# The headers of a scoring answer in each language, made once (checked by werkzeug then)
_SHAPE_HEADERS: dict[tuple[str, ...], FixedHeaders] = {
    shape.langs: FixedHeaders(
        ("Content-Language", ", ".join(shape.langs)), ("Vary", "Accept-Language")
    )
    for shape in _SHAPES.values()
}


def shaped(body: Any, shape: serialize.Shape) -> Response:
    """A scoring answer: the JSON, with the language it speaks (``Content-Language``); a
    cache keeps answers apart by ``Accept-Language``."""
    # An AnswerResponse (made and sent without werkzeug's copies), both headers added as
    # it is made: new, it holds neither yet (setting one looks for it first, and
    # ``vary.add`` would parse the header into a set and write it back)
    return json_response(body, headers=_SHAPE_HEADERS[shape.langs])


def shaped_text(text: bytes, shape: serialize.Shape) -> Response:
    """:func:`shaped` for an answer already written as JSON text (a batch's)."""
    return json_text_response(text, _SHAPE_HEADERS[shape.langs])


def score_hand(
    body: Any,
    *,
    resolver: Resolver | None = None,
    shape: serialize.Shape = serialize.DEFAULT_SHAPE,
) -> orjson.Fragment:
    """Score one hand request body: its answer, serialized; raises ValidationError or
    GoStopError."""
    return score_request(load_hand_request(body), resolver=resolver, shape=shape)


@gostop.post("/gostop/hands")
@gostop.arguments(AnswerQuerySchema, location="query")
@gostop.arguments(HandRequestSchema, examples=HAND_EXAMPLES)
@gostop.response(200, responses.HandResultSchema, description="The scored hand")
@gostop.problems(400, 413, 415, 422, operation_id="scoreHand")
def post_hand(hand_request: HandRequest, query: dict[str, Any]) -> Response:
    """Score and settle one hand

    Each player describes its pile in ONE entry mode: `captured` card IDs, a `tally` of
    counts, or `declared` points and bak flags. Without `outcome` the call is a preview.
    Add first, multiply after; all arithmetic in integers. Every step and payment carries
    a ready sentence (`text`) in the language asked for (`?lang`, `Accept-Language`).
    """
    shape = answer_shape(query)
    return shaped(score_request(hand_request, shape=shape), shape)


@gostop.post("/gostop/hands/batch")
@gostop.arguments(AnswerQuerySchema, location="query")
@gostop.arguments(
    BatchRequestSchema,
    limit="max_batch_bytes",
    walk=batch_bounds.Walk,  # the body's entries and its items' bounds in one walk
    example={"hands": [HAND_EXAMPLES["cards_3p"]["value"]]},
)
@gostop.response(200, responses.BatchResultSchema, description="One entry per hand, in order")
@gostop.problems(400, 413, 415, 422, 503, operation_id="scoreHands")
def post_batch(
    loaded: dict[str, Any], query: dict[str, Any], *, walk: batch_bounds.Walk
) -> Response:
    """Score up to 1,000 hands; each result is a hand result or a problem

    One bad hand does not fail the others: it gets the problem a single request would
    (listing its first 10 errors), and a hand over the single request's body limit gets
    its 413 (one nested more than 254 levels deep, which no hand is, a 400). A batch whose
    answer could pass the answer limit (estimated from its hands, players, events and
    `compare_with`, before any hand is scored) is refused whole: 422 `answer_too_large`,
    saying the limit and how many of the hands fit. Each distinct rule
    set is listed once, in `rulesets` by fingerprint (in full with `?full_ruleset=true`);
    each result's `ruleset.fingerprint` finds its own there.
    """
    settings = current_settings()
    items = loaded["hands"]
    sizes, refused = batch_bounds.refusal(items, settings, walk.bounds)  # before any work
    if refused is not None:
        return json_response(refused, 422, PROBLEM_JSON)
    shape = answer_shape(query)
    # The whole answer is written as text into one list of pieces, joined once: the
    # results as score_items writes them, then the fields after them. Joined into a
    # Fragment of their own, the results (~1 MB for 500 hands) were copied once more by
    # orjson into the answer's bytes, through a buffer it grew as it wrote (~3k
    # instructions a batched hand).
    out: list[bytes] = [b'{"results":']
    # a refused item keeps its first ITEM_PROBLEMS errors and a count (batch_bounds.cut):
    # what only adds problems to its list (its cards' beside its fields') stops there
    with listing(
        most=batch_bounds.ITEM_PROBLEMS + 2, total=(batch_bounds.ITEM_PROBLEMS + 2) * len(items)
    ):
        failed, seen = score_items(
            items,
            sizes,
            settings,
            shape._replace(full_ruleset=False),  # the full options once, in rulesets
            deadline(settings.request_deadline),  # past it: a 503, never a killed worker
            out,
        )
    rulesets = {
        fingerprint: serialize.ruleset_json(ruleset, full=shape.full_ruleset)
        for fingerprint, ruleset in seen.items()
    }
    out.append(b',"rulesets":')
    out.append(orjson.dumps(rulesets))
    out.append(b',"succeeded":%d,"failed":%d}' % (len(items) - failed, failed))
    return shaped_text(b"".join(out), shape)


@balance.post("/balance/hands")
@balance.arguments(AnswerQuerySchema, location="query")
@balance.arguments(BalanceRequestSchema, examples=BALANCE_EXAMPLES)
@balance.response(200, session_responses.BalanceResultSchema, description="The scored hand")
@balance.problems(400, 413, 415, 422, operation_id="scoreBalanceHand")
def post_balance_hand(loaded: BalanceRequest, query: dict[str, Any]) -> Response:
    """Score a 120/80/60 balance hand (the seed's Hwatu variation)

    Every card of the deck must be captured by someone. If cards are missing the hand is
    void, as the seed says: a 200 that says so, lists the missing cards and moves no
    chips. A card held twice is a 422 naming both holders.
    """
    ruleset = resolve_spec(loaded.ruleset, Variant.BALANCE, ("ruleset",), resolver=Resolver())
    shape = answer_shape(query)
    return shaped(balance_json.balance_json(score_balance(loaded.hand, ruleset), shape), shape)


@sessions.post("/settlements")
@sessions.arguments(SettlementRequestSchema, limit="max_batch_bytes", examples=SETTLEMENT_EXAMPLES)
@sessions.response(
    200, session_responses.SettlementResultSchema, description="Totals and transfers"
)
@sessions.problems(400, 413, 415, 422, 503, operation_id="settleSession")
def post_settlement(data: dict[str, Any]) -> Response:
    """Settle a session: per-player totals and the fewest transfers

    Each hand is a `net` map or a full `gostop` or `balance` hand request, scored on the
    fly. Go-Stop hands without `nagari_streak` carry the streak of the Go-Stop hand before
    them. Optional rounding to a unit keeps the sum at zero: by largest remainders (nobody
    moves by a whole unit, a larger total never ends below a smaller one), or with a named
    `absorber` who takes the difference.
    """
    entries: list[Entry] = []
    resolver = Resolver()
    for i, item in enumerate(data["hands"]):
        if "net" in item:
            entries.append(NetEntry(net=item["net"]))
        elif "gostop" in item:
            hand_request = item["gostop"]
            ruleset = resolve_spec(
                hand_request.ruleset,
                Variant.GOSTOP,
                ("hands", i, "gostop", "ruleset"),
                resolver=resolver,
            )
            entries.append(
                GoStopEntry(
                    hand=hand_request.hand,
                    ruleset=ruleset,
                    carry_streak=not hand_request.streak_given,
                )
            )
        else:
            balance_request = item["balance"]
            ruleset = resolve_spec(
                balance_request.ruleset,
                Variant.BALANCE,
                ("hands", i, "balance", "ruleset"),
                resolver=resolver,
            )
            entries.append(BalanceEntry(hand=balance_request.hand, ruleset=ruleset))
    rounding = data["rounding"] or {}
    session = Session(
        players=tuple(data["players"]),
        hands=tuple(entries),
        unit=rounding.get("unit"),
        absorber=rounding.get("absorber"),
    )
    check_deadline = deadline(current_settings().request_deadline)
    return json_response(
        session_json.session_json(settle_session(session, check_deadline=check_deadline))
    )


def cached_json(key: str, build: Callable[[], Any]) -> Response:
    """A catalogue response with ETag, Cache-Control and 304 on If-None-Match."""
    return cached_body(key, lambda: orjson.dumps(build()), "application/json")


def cached_body(key: str, build: Callable[[], bytes], mimetype: str) -> Response:
    """``build()``'s bytes, built once, with ETag, Cache-Control and 304 on If-None-Match."""
    cache = current_app.extensions.setdefault("gostop_catalogs", {})
    payload = cache.get(key)
    if payload is None:
        payload = cache[key] = build()
    response = Response(payload, mimetype=mimetype)
    response.add_etag()
    response.headers["Cache-Control"] = CATALOG_CACHE
    response.make_conditional(request)  # in place: a 304 without the body on a match
    return response


def _preset(name: str, pointer: str = "") -> Preset:
    """The preset ``name`` (a path's or, at ``pointer``, a query parameter's), else a 404."""
    preset = find_preset(name)
    if preset is None:  # said as a scoring request's unknown preset is, did you mean and all
        problem = NotFound(f"{unknown_preset(name)}; see GET /v1/rulesets")
        raise coded(problem, "unknown_preset", pointer)
    return preset


@catalog.get("/cards")
@catalog.arguments(CardsQuerySchema, location="query")
@catalog.response(200, reference_responses.CatalogSchema, description="All cards", headers=_CACHED)
@catalog.alt_response(304, description="Not modified (If-None-Match)")
@catalog.problems(422, s404="Unknown rule set", operation_id="listCards")
def get_cards(query: dict[str, Any]) -> Response:
    """The card catalogue (IDs are a contract)

    Every card has the same fields: bonus values, the deck and the switchable cards
    under `?ruleset`, or under the default rule set (`standard`, as a hand without a
    `ruleset` is scored) when none is named; `ruleset` says which.
    """
    preset = _preset(query.get("ruleset", "standard"), "/ruleset")  # as its other problems
    ruleset = resolve(preset.name, variant=preset.variant)
    return cached_json(
        f"cards:{preset.name}",
        lambda: {
            "ruleset": serialize.ruleset_json(ruleset),
            "cards": reference_json.catalog_json(ruleset),
        },
    )


@catalog.get("/rulesets")
@catalog.response(
    200, reference_responses.PresetListSchema, description="Every preset", headers=_CACHED
)
@catalog.alt_response(304, description="Not modified (If-None-Match)")
@catalog.doc(operationId="listRulesets")
def get_rulesets() -> Response:
    """Presets, with every option described"""
    return cached_json("rulesets", lambda: {"rulesets": reference_json.presets_json()})


@catalog.get("/rulesets/<name>")
@catalog.response(200, reference_responses.PresetSchema, description="The preset", headers=_CACHED)
@catalog.alt_response(304, description="Not modified (If-None-Match)")
@catalog.problems(s404="Unknown rule set")
@catalog.doc(
    operationId="getRuleset",
    parameters=[{"name": "name", "in": "path", "schema": {"type": "string", "maxLength": 64}}],
)
def get_ruleset(name: str) -> Response:
    """One preset (or an alias of one)"""
    preset = _preset(name)
    return cached_json(f"ruleset:{preset.name}", lambda: reference_json.preset_json(preset))


# Markdown first: the answer to no Accept, */*, and to any type not offered (no 406)
_RULES_MEDIA = (rules_document.MEDIA_TYPE, rules_document.HTML_MEDIA_TYPE)


@catalog.get("/rules")
@catalog.response(
    200,
    {"type": "string"},
    content_type=rules_document.MEDIA_TYPE,
    description="The rules document (Markdown)",
    headers=_CACHED,
)
@catalog.alt_response(
    200,
    schema={"type": "string", "description": "The same document as an HTML page"},
    content_type=rules_document.HTML_MEDIA_TYPE,
    description="The rules document (Markdown; an HTML page for a client that prefers it)",
    success=True,
)
@catalog.alt_response(304, description="Not modified (If-None-Match)")
@catalog.doc(operationId="getRules")
def get_rules() -> Response:
    """The rules document: every rule, option, preset and worked example, with sources

    The project's docs/rules.md, as Markdown. Each option in `GET /v1/rulesets` has a
    `link` to its section here (`/v1/rules#45-피박-pi-bak`). A client whose `Accept`
    prefers `text/html` (a browser following such a link) gets the same document as an
    HTML page, each heading's `id` the link's fragment; every other client gets the
    Markdown. Each has its own ETag.
    """
    if preferred_media(_RULES_MEDIA) == rules_document.HTML_MEDIA_TYPE:
        response = cached_body(
            "rules.html",
            lambda: rules_document.page(rules_document.text()).encode("utf-8"),
            rules_document.HTML_MEDIA_TYPE,
        )
        response.headers["Content-Security-Policy"] = rules_document.POLICY
    else:
        response = cached_body(
            "rules", lambda: rules_document.text().encode("utf-8"), rules_document.MEDIA_TYPE
        )
    response.vary.add("Accept")
    return response


@catalog.get("/codes")
@catalog.response(
    200, reference_responses.CodesSchema, description="Every list of codes", headers=_CACHED
)
@catalog.alt_response(304, description="Not modified (If-None-Match)")
@catalog.doc(operationId="listCodes")
def get_codes() -> Response:
    """Every code the service emits, with its Korean and English label

    Scoring items, explanation steps and their operations, payment reasons, the balance
    variant's items and set bonuses, and problem codes: apps map them to words and icons.
    """
    return cached_json("codes", reference_json.codes_json)


bench = FlaskBlueprint("bench", __name__, url_prefix="/v1/bench")


@bench.post("/echo")
def post_echo() -> Response:
    """Benchmark baseline (not part of the API): parse the same JSON body, return a small
    fixed JSON. A batch's body too (SPEC §8 compares batches with parsing their body), so
    up to the batch limit. It reads the settings as the scoring endpoints do
    (:func:`~calculator.api.http.current_settings`): the baseline is not made slower than them."""
    read_json(current_settings().max_batch_bytes)
    return json_response({"ok": True})
