"""The bounds the OpenAPI document declares on requests are the ones the service holds.

Each bound a client reads in the document (and does not get from a field's own check:
lengths and ranges are written from the validators that refuse past them) is a case
here: the document declares it where the case says, a request at the bound is taken and
one just past it is a 422 with the service's own code. A request-side declaration of
that kind without a case fails :func:`test_every_declared_bound_of_a_request_has_a_case`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from calculator.api.coded_errors import NOT_BLANK_PATTERN
from calculator.api.openapi import openapi_document
from calculator.api.spec_setup import COMPONENTS, TABLE_COMPONENTS
from calculator.api.strict_schema import StrictSchema
from calculator.settlement import MAX_SAFE_CHIPS
from tables_support import TableClient, new_key

# Keywords the schemas declare as documentation of a check made elsewhere (the rules, the
# session, a schema's own hook) or that a field option writes (not_blank's pattern)
DECLARED = ("minItems", "uniqueItems", "not", "pattern", "propertyNames", "oneOf")

SCHEMAS = "/components/schemas/"
NAGARI = {
    "players": [{"id": "A", "captured": []}, {"id": "B", "captured": []}],
    "outcome": {"type": "nagari"},
}
SITTER = {
    "players": [
        {"id": "S", "sits_out": True, "hand": ["08-bright", "11-bright", "05-junk-1"]},
        {"id": "D", "captured": ["01-ribbon", "02-ribbon", "03-ribbon"]},
        {"id": "E", "captured": ["01-bright"]},
        {"id": "F", "captured": ["03-bright"]},
    ],
    "outcome": {"type": "stop", "winner": "D"},
}


def body_of(path: str, method: str = "post") -> str:
    """The pointer of an operation's inline request body schema."""
    escaped = path.replace("~", "~0").replace("/", "~1")
    return f"/paths/{escaped}/{method}/requestBody/content/application~1json/schema"


def players(*ids: str) -> list[dict[str, Any]]:
    return [{"id": i, "captured": []} for i in ids]


def settle(ids: list[str], *hands: dict[str, Any]) -> dict[str, Any]:
    return {"players": ids, "hands": list(hands)}


def sitter_hand(hand: list[str]) -> dict[str, Any]:
    found = {**SITTER, "players": [dict(p) for p in SITTER["players"]]}
    found["players"][0]["hand"] = hand
    return found


def holders(*names: str) -> dict[str, Any]:
    held = [{"player": name, "month": month} for month, name in enumerate(names, 1)]
    return {"players": players("A", "B", "C"), "outcome": {"type": "chongtong", "holders": held}}


def table(**fields: Any) -> dict[str, Any]:
    return {"roster": ["A", "B"], **fields}


class Table(TableClient):
    """A table of the tests' client, with its join code."""

    def __init__(self, client: Any, created: dict[str, Any]) -> None:
        super().__init__(client, created)
        self.join_code: str = created["join_code"]


Body = Any  # a body, or a function of the case's table that makes one


def imported(**fields: Any) -> Callable[[Table], dict[str, Any]]:
    """The table's export, with ``fields`` changed (and only its created event, at
    version 1: the import of its log takes no hand)."""

    def make(made: Table) -> dict[str, Any]:
        export = made.get("/export")
        export.update(events=export["events"][:1], version=1)
        return {**export, **fields}

    return make


def joining(label: str) -> Callable[[Table], dict[str, Any]]:
    return lambda made: {"join_code": made.join_code, "label": label}


@dataclass(frozen=True)
class Bound:
    """A bound of a request: where the document declares it, and a request at it (taken)
    and one just past it (refused, 422 ``code``)."""

    where: str  # a JSON pointer into the document, to the schema that declares it
    keyword: str
    declared: Any
    operation: str  # "POST /v1/…"; on a fresh table with one hand: "POST {table}/…"
    at: Body
    past: Body
    code: str

    @property
    def id(self) -> str:
        where = self.where.removeprefix(SCHEMAS).split("/schema/")[-1]
        return f"{self.operation} {where}:{self.keyword}"


_ONE_OF = [{"required": ["net"]}, {"required": ["gostop"]}, {"required": ["balance"]}]
_NET = SCHEMAS + "SessionHand/properties/net"
_LONGEST = "x" * 40

BOUNDS = (
    # a settlement (POST /v1/settlements): its players, each once; each hand one kind
    Bound(
        SCHEMAS + "SettlementRequest/properties/players",
        "minItems",
        1,
        "POST /v1/settlements",
        settle(["A"]),
        settle([]),
        "player_count",
    ),
    Bound(
        SCHEMAS + "SettlementRequest/properties/players",
        "uniqueItems",
        True,
        "POST /v1/settlements",
        settle(["A", "B"]),
        settle(["A", "A"]),
        "duplicate_player",
    ),
    Bound(
        SCHEMAS + "SessionHand",
        "oneOf",
        _ONE_OF,
        "POST /v1/settlements",
        settle(["A", "B"], {"net": {"A": 1, "B": -1}}),
        settle(["A", "B"], {"net": {"A": 1, "B": -1}, "gostop": NAGARI}),
        "entry_mode",
    ),
    Bound(
        _NET + "/additionalProperties",
        "maximum",
        MAX_SAFE_CHIPS,
        "POST /v1/settlements",
        settle(["A", "B"], {"net": {"A": MAX_SAFE_CHIPS, "B": -MAX_SAFE_CHIPS}}),
        settle(["A", "B"], {"net": {"A": MAX_SAFE_CHIPS + 1, "B": -MAX_SAFE_CHIPS - 1}}),
        "too_large",
    ),
    Bound(
        _NET + "/additionalProperties",
        "minimum",
        -MAX_SAFE_CHIPS,
        "POST /v1/settlements",
        settle(["A", "B"], {"net": {"A": -MAX_SAFE_CHIPS, "B": MAX_SAFE_CHIPS}}),
        settle(["A", "B"], {"net": {"A": -MAX_SAFE_CHIPS - 1, "B": MAX_SAFE_CHIPS + 1}}),
        "too_large",
    ),
    Bound(
        _NET,
        "propertyNames",
        {"minLength": 1, "maxLength": 40},
        "POST /v1/settlements",
        settle([_LONGEST, "B"], {"net": {_LONGEST: 0}}),
        settle([_LONGEST, "B"], {"net": {_LONGEST + "x": 0}}),
        "unknown_player",
    ),
    # a hand's players: 2 to 4 (one sitting out), each card once
    Bound(
        SCHEMAS + "HandRequest/properties/players",
        "minItems",
        2,
        "POST /v1/gostop/hands",
        {"players": players("A", "B")},
        {"players": players("A")},
        "player_count",
    ),
    Bound(
        SCHEMAS + "HandRequest/properties/players",
        "maxItems",
        4,
        "POST /v1/gostop/hands",
        SITTER,
        {**SITTER, "players": [*SITTER["players"], {"id": "G", "captured": []}]},
        "player_count",
    ),
    Bound(
        SCHEMAS + "Player/properties/captured",
        "uniqueItems",
        True,
        "POST /v1/gostop/hands",
        {"players": [{"id": "A", "captured": ["01-bright", "01-ribbon"]}, *players("B")]},
        {"players": [{"id": "A", "captured": ["01-bright", "01-bright"]}, *players("B")]},
        "duplicate_card",
    ),
    Bound(
        SCHEMAS + "Player/properties/hand",
        "uniqueItems",
        True,
        "POST /v1/gostop/hands",
        sitter_hand(["08-bright", "11-bright"]),
        sitter_hand(["08-bright", "08-bright"]),
        "duplicate_card",
    ),
    Bound(
        SCHEMAS + "Outcome/properties/holders",
        "not",
        {"minItems": 1, "maxItems": 1},
        "POST /v1/gostop/hands",
        holders("A", "B"),
        holders("A"),
        "invalid_holders",
    ),
    Bound(
        SCHEMAS + "BalanceRequest/properties/players",
        "minItems",
        2,
        "POST /v1/balance/hands",
        {"players": players("A", "B")},
        {"players": players("A")},
        "player_count",
    ),
    Bound(
        SCHEMAS + "BalanceRequest/properties/players",
        "maxItems",
        4,
        "POST /v1/balance/hands",
        {"players": players("A", "B", "C", "D")},
        {"players": players("A", "B", "C", "D", "E")},
        "player_count",
    ),
    Bound(
        SCHEMAS + "BalancePlayer/properties/captured",
        "uniqueItems",
        True,
        "POST /v1/balance/hands",
        {"players": [{"id": "A", "captured": ["01-bright", "01-ribbon"]}, *players("B")]},
        {"players": [{"id": "A", "captured": ["01-bright", "01-bright"]}, *players("B")]},
        "duplicate_card",
    ),
    # a table's roster and names; the words a person reads later, never blank
    Bound(
        body_of("/v1/tables") + "/properties/roster",
        "minItems",
        2,
        "POST /v1/tables",
        table(),
        table(roster=["A"]),
        "player_count",
    ),
    Bound(
        body_of("/v1/tables") + "/properties/roster",
        "uniqueItems",
        True,
        "POST /v1/tables",
        table(),
        table(roster=["A", "A"]),
        "duplicate_player",
    ),
    Bound(
        body_of("/v1/tables") + "/properties/roster/items/anyOf/1/properties/name",
        "pattern",
        NOT_BLANK_PATTERN,
        "POST /v1/tables",
        table(roster=[{"id": "A", "name": " 민지 "}, "B"]),
        table(roster=[{"id": "A", "name": " "}, "B"]),
        "invalid_length",
    ),
    Bound(
        body_of("/v1/tables") + "/properties/name",
        "pattern",
        NOT_BLANK_PATTERN,
        "POST /v1/tables",
        table(name="x"),
        table(name=" \t"),
        "invalid_length",
    ),
    Bound(
        body_of("/v1/tables/import") + "/properties/events",
        "minItems",
        1,
        "POST /v1/tables/import",
        imported(),
        imported(events=[]),
        "missing_created",
    ),
    Bound(
        body_of("/v1/tables/import") + "/properties/roster",
        "minItems",
        2,
        "POST /v1/tables/import",
        imported(),
        imported(roster=["A"]),
        "player_count",
    ),
    Bound(
        body_of("/v1/tables/import") + "/properties/roster",
        "uniqueItems",
        True,
        "POST /v1/tables/import",
        imported(),
        imported(roster=["A", "A"]),
        "duplicate_player",
    ),
    Bound(
        body_of("/v1/tables/{id}/hands/{number}/void") + "/properties/reason",
        "pattern",
        NOT_BLANK_PATTERN,
        "POST {table}/hands/1/void",
        {"reason": "x"},
        {"reason": "\u3000"},
        "invalid_length",
    ),
    Bound(
        body_of("/v1/tables/{id}/hands/{number}", "put") + "/properties/reason",
        "pattern",
        NOT_BLANK_PATTERN,
        "PUT {table}/hands/1",
        {"hand": NAGARI, "reason": "x"},
        {"hand": NAGARI, "reason": "  "},
        "invalid_length",
    ),
    Bound(
        body_of("/v1/tables/join") + "/properties/label",
        "pattern",
        NOT_BLANK_PATTERN,
        "POST /v1/tables/join",
        joining("x"),
        joining(" "),
        "invalid_length",
    ),
    Bound(
        body_of("/v1/tables/{id}/tokens") + "/properties/label",
        "pattern",
        NOT_BLANK_PATTERN,
        "POST {table}/tokens",
        {"role": "viewer", "label": "x"},
        {"role": "viewer", "label": " "},
        "invalid_length",
    ),
)


def resolve(document: dict[str, Any], pointer: str) -> Any:
    found: Any = document
    for part in pointer.lstrip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        found = found[int(part)] if isinstance(found, list) else found[part]
    return found


@pytest.mark.parametrize("bound", BOUNDS, ids=[b.id for b in BOUNDS])
def test_the_document_declares_the_bound(bound: Bound) -> None:
    assert resolve(openapi_document(), bound.where).get(bound.keyword) == bound.declared


def _send(lclient: Any, bound: Bound, body: Body) -> Any:
    """``body`` (or what it makes of a fresh table with one hand) sent as ``bound`` says."""
    made: Table | None = None
    if callable(body) or "{table}" in bound.operation:
        made = Table(lclient, lclient.post("/v1/tables", json={"roster": ["A", "B"]}).get_json())
        made.write("POST", "/hands", NAGARI, expect=201)
    if callable(body):
        assert made is not None
        body = body(made)
    method, path = bound.operation.split(" ")
    headers = {"Idempotency-Key": new_key()}
    if made is not None and "{table}" in path:
        path = path.replace("{table}", made.path)
        headers.update(made.auth(), **{"If-Match": f'"{made.version}"'})
    return lclient.open(path, method=method, json=body, headers=headers)


@pytest.mark.parametrize("bound", BOUNDS, ids=[b.id for b in BOUNDS])
def test_a_request_at_the_bound_is_taken_and_one_past_it_refused(
    lclient: Any, bound: Bound
) -> None:
    """What a client that checks its body against the document sends is answered, and
    what the document refuses the service refuses too, saying why."""
    taken = _send(lclient, bound, bound.at)
    assert taken.status_code in (200, 201), taken.get_json()
    refused = _send(lclient, bound, bound.past)
    assert refused.status_code == 422, refused.get_json()
    assert bound.code in [error["code"] for error in refused.get_json()["errors"]]


@pytest.fixture
def lclient(ledger_app: Any) -> Any:
    return ledger_app.test_client()


def test_an_import_declares_no_pattern_and_takes_blank_names(lclient: Any) -> None:
    """An export of a table made before blank names were refused imports all the same
    (its blank names as none): the import's body declares no pattern on them."""
    body = body_of("/v1/tables/import") + "/properties"
    for where in ("/name", "/roster/items/anyOf/1/properties/name"):
        assert "pattern" not in resolve(openapi_document(), body + where)
    made = Table(lclient, lclient.post("/v1/tables", json={"roster": ["A", "B"]}).get_json())
    export = imported(name=" ", roster=[{"id": "A", "name": "\t"}, "B"])(made)
    answer = lclient.post("/v1/tables/import", json=export, headers={"Idempotency-Key": new_key()})
    assert answer.status_code == 201, answer.get_json()


def _declared(document: dict[str, Any], schema: Any, at: str, seen: set[str]) -> Iterator[str]:
    """``pointer:keyword`` of each :data:`DECLARED` keyword under ``schema`` (at ``at``),
    following references into the components once each."""
    if isinstance(schema, list):
        for i, item in enumerate(schema):
            yield from _declared(document, item, f"{at}/{i}", seen)
        return
    if not isinstance(schema, dict):
        return
    reference = schema.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/") and reference not in seen:
        seen.add(reference)
        target = reference[1:]
        yield from _declared(document, resolve(document, target), target, seen)
    for keyword, value in schema.items():
        if keyword == "properties":
            for name, field in value.items():
                yield from _declared(document, field, f"{at}/properties/{name}", seen)
        elif keyword == "oneOf" and not all(set(one) == {"required"} for one in value):
            yield from _declared(document, value, f"{at}/{keyword}", seen)  # not exactly-one
        elif keyword in DECLARED:
            yield f"{at}:{keyword}"
        elif keyword not in ("enum", "examples", "example", "default", "required"):
            escaped = keyword.replace("~", "~0").replace("/", "~1")
            yield from _declared(document, value, f"{at}/{escaped}", seen)


def test_every_declared_bound_of_a_request_has_a_case() -> None:
    """A request-side minItems, uniqueItems, not, pattern, propertyNames or exactly-one-of
    that no case here holds to the service's checks fails: add its case."""
    document = openapi_document()
    seen: set[str] = set()
    found: set[str] = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                found.update(_declared(document, {"$ref": f"#{body_of(path, method)}"}, "", seen))
    held = {f"{bound.where}:{bound.keyword}" for bound in BOUNDS}
    # a table hand's components are the requests' own, less the fields a table sets, and
    # loaded by the same schemas (spec_setup.TABLE_COMPONENTS): their bounds are the requests'
    for table_hand, request in TABLE_COMPONENTS:
        found = {at.replace(SCHEMAS + table_hand + "/", SCHEMAS + request + "/", 1) for at in found}
    assert found - held == set()
    assert len(found) >= 20


def test_a_schema_with_exactly_one_of_is_a_named_component() -> None:
    """The one-of is declared when a component is registered (spec_setup.register_components):
    an inline schema would not say it."""

    def subclasses(cls: type[StrictSchema]) -> Iterator[type[StrictSchema]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    named = {schema for _name, schema in COMPONENTS}
    exclusive = [cls for cls in subclasses(StrictSchema) if cls.exactly_one_of]
    assert exclusive
    assert set(exclusive) <= named
