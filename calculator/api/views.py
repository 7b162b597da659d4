"""The v1 endpoints: load → domain call → dump, nothing more."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Blueprint, Response, current_app, g, request
from marshmallow import ValidationError
from werkzeug.exceptions import NotFound

from calculator.api import serialize
from calculator.api.errors import domain_problem, validation_problem
from calculator.api.http import coded, json_response, read_json
from calculator.api.schemas import BatchRequestSchema, load_hand_request, resolve_spec
from calculator.api.session_schemas import BalanceRequestSchema, SettlementRequestSchema
from calculator.balance import score_balance
from calculator.errors import GoStopError
from calculator.limits import close_scope, open_scope
from calculator.presets import Resolver, Variant, find_preset, resolve
from calculator.session import BalanceEntry, Entry, GoStopEntry, NetEntry, Session, settle_session
from calculator.settlement import compare, settle

v1 = Blueprint("v1", __name__, url_prefix="/v1")
_BATCH = BatchRequestSchema()
_BALANCE = BalanceRequestSchema()
_SETTLEMENT = SettlementRequestSchema()
CATALOG_CACHE = "public, max-age=3600"


@v1.before_request
def _open_budget() -> None:
    g.gostop_scope = open_scope()  # one "did you mean" budget per request (calculator.limits)


@v1.teardown_request
def _close_budget(_error: BaseException | None) -> None:
    token = g.pop("gostop_scope", None)
    if token is not None:  # None: an earlier before_request hook failed
        close_scope(token)


def score_hand(body: Any, *, resolver: Resolver | None = None) -> dict[str, Any]:
    """Score one hand request body; raises ValidationError or GoStopError."""
    hand_request = load_hand_request(body)
    resolver = resolver or Resolver()
    ruleset = resolve_spec(hand_request.ruleset, Variant.GOSTOP, ("ruleset",), resolver=resolver)
    others = [
        resolve_spec(spec, Variant.GOSTOP, ("compare_with", i), resolver=resolver)
        for i, spec in enumerate(hand_request.compare_with)
    ]
    hand = hand_request.hand
    result = settle(hand, ruleset)
    comparisons = compare(hand, result, others) if others else ()
    return serialize.hand_json(result, [p.mode for p in hand.players], comparisons)


@v1.post("/gostop/hands")
def post_hand() -> Response:
    """Score one hand."""
    body = read_json(current_app.config["GOSTOP"].max_body_bytes)
    return json_response(score_hand(body))


@v1.post("/gostop/hands/batch")
def post_batch() -> Response:
    """Score up to 1,000 hands; one bad hand does not fail the others."""
    body = read_json(current_app.config["GOSTOP"].max_batch_bytes)
    hands = _BATCH.load_fast(body)["hands"]
    results = []
    failed = 0
    resolver = Resolver()  # one for the whole batch: it caps the distinct rule sets
    for index, item in enumerate(hands):
        try:
            results.append(
                {"index": index, "status": 200, "result": score_hand(item, resolver=resolver)}
            )
        except ValidationError as error:
            failed += 1
            results.append(
                {
                    "index": index,
                    "status": 422,
                    "problem": validation_problem(error, f"/hands/{index}"),
                }
            )
        except GoStopError as error:
            failed += 1
            results.append(
                {"index": index, "status": 422, "problem": domain_problem(error, f"/hands/{index}")}
            )
    return json_response({"results": results, "succeeded": len(results) - failed, "failed": failed})


@v1.post("/balance/hands")
def post_balance_hand() -> Response:
    """Score a 120/80/60 balance-variant hand."""
    request_ = _BALANCE.load_fast(read_json(current_app.config["GOSTOP"].max_body_bytes))
    ruleset = resolve_spec(request_.ruleset, Variant.BALANCE, ("ruleset",), resolver=Resolver())
    return json_response(serialize.balance_json(score_balance(request_.hand, ruleset)))


@v1.post("/settlements")
def post_settlement() -> Response:
    """Settle a session: totals per player and the fewest transfers."""
    data = _SETTLEMENT.load_fast(read_json(current_app.config["GOSTOP"].max_batch_bytes))
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
    return json_response(serialize.session_json(settle_session(session)))


def _cached_json(key: str, build: Any) -> Response:
    """A catalogue response with ETag, Cache-Control and 304 on If-None-Match."""
    cache = current_app.extensions.setdefault("gostop_catalogs", {})
    payload = cache.get(key)
    if payload is None:
        payload = cache[key] = orjson.dumps(build())
    response = Response(payload, mimetype="application/json")
    response.add_etag()
    response.headers["Cache-Control"] = CATALOG_CACHE
    return response.make_conditional(request)


@v1.get("/cards")
def get_cards() -> Response:
    """The card catalogue, optionally with bonus values and switchable cards of a rule set."""
    name = request.args.get("ruleset")
    if name is None:
        return _cached_json(
            "cards", lambda: {"ruleset": None, "cards": serialize.catalog_json(None)}
        )
    preset = find_preset(name)
    if preset is None:
        raise coded(
            NotFound(f"there is no rule set {name!r}; see GET /v1/rulesets"), "unknown_preset"
        )
    ruleset = resolve(preset.name)
    return _cached_json(
        f"cards:{preset.name}",
        lambda: {
            "ruleset": serialize.ruleset_json(ruleset),
            "cards": serialize.catalog_json(ruleset),
        },
    )


@v1.get("/rulesets")
def get_rulesets() -> Response:
    """Every preset with every option described."""
    return _cached_json("rulesets", lambda: {"rulesets": serialize.presets_json()})


@v1.get("/rulesets/<name>")
def get_ruleset(name: str) -> Response:
    """One preset (or an alias of one)."""
    preset = find_preset(name)
    if preset is None:
        raise coded(
            NotFound(f"there is no rule set {name!r}; see GET /v1/rulesets for the names"),
            "unknown_preset",
        )
    return _cached_json(f"ruleset:{preset.name}", lambda: serialize.preset_json(preset))


@v1.get("/openapi.json")
def get_openapi() -> Response:
    """The OpenAPI 3.1 document, generated from the schemas."""
    from calculator.api.openapi import openapi_document

    return _cached_json("openapi", openapi_document)


bench = Blueprint("bench", __name__, url_prefix="/v1/bench")


@bench.post("/echo")
def post_echo() -> Response:
    """Benchmark baseline: parse the same JSON body, return a small fixed JSON."""
    read_json(current_app.config["GOSTOP"].max_body_bytes)
    return json_response({"ok": True})
