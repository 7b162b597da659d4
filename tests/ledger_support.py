"""Helpers of the ledger tests: the scenario data file as wire bodies and domain events."""

from __future__ import annotations

from typing import Any

from calculator.api.schemas import load_hand, resolve_spec
from calculator.api.session_schemas import BalanceRequestSchema
from calculator.api.strict_schema import StrictSchema
from calculator.cards import MONTH_CARD_IDS
from calculator.ledger import (
    NEW_TABLES,
    Event,
    Play,
    TableSetup,
    added,
    closed,
    corrected,
    redone,
    undone,
)
from calculator.ledger import voided as voided_event
from calculator.presets import Variant
from conftest import load_data
from handbuilder import CardNamer

SCENARIOS = load_data("ledger_scenarios.json")["scenarios"]
_BALANCE = {
    case["example"]: case
    for case in reversed(load_data("balance_examples.json")["cases"])
    if case.get("ruleset") == "balance"
}
_BALANCE_SCHEMA: StrictSchema = BalanceRequestSchema()


def wire_hand(hand: dict[str, Any]) -> dict[str, Any]:
    """A scenario hand as the body a client sends: Go-Stop hands are given as they are;
    balance hands name a pile split of balance_examples.json and the seats that take it."""
    if "example" not in hand:
        return hand
    namer = CardNamer()
    players = []
    for seat in _BALANCE[hand["example"]]["players"]:
        cards = [c for c in MONTH_CARD_IDS if int(c[:2]) in seat.get("months", [])]
        namer.used.update(cards)
        cards += [namer.expand(c) for c in seat.get("cards", [])]
        players.append({"id": hand["seats"][seat["id"]], "captured": cards})
    return {"players": players}


def domain_hand(variant: str, body: dict[str, Any]) -> Play:
    """A wire hand body as the domain record (the service's own loaders)."""
    if variant == "balance":
        return _BALANCE_SCHEMA.load_fast(body).hand  # type: ignore[no-any-return]
    return load_hand(body)


def setup_of(table: dict[str, Any]) -> TableSetup:
    """A scenario's table body as the domain setup."""
    from calculator.api.schemas import RulesetSpec

    variant = Variant(table.get("variant", "gostop"))
    asked = table["ruleset"]  # a preset's name, or {preset, options}
    spec = (
        RulesetSpec(asked, {}, True)
        if isinstance(asked, str)
        else RulesetSpec(asked["preset"], asked.get("options", {}), False)
    )
    return TableSetup(
        roster=tuple(table["roster"]),
        variant=variant,
        ruleset=resolve_spec(spec, variant, ("ruleset",)),
        stake=table.get("stake", 1),
        dealer=table.get("dealer"),
        unit=(table.get("rounding") or {}).get("unit"),
        dealer_rule=NEW_TABLES,  # what POST /v1/tables creates (the HTTP tests' tables)
    )


def step_event(variant: str, step: dict[str, Any], at: str = "2026-12-03T20:00:00Z") -> Event:
    """A scenario step as the domain event."""
    by = "scorer"
    match step["do"]:
        case "add":
            return added(domain_hand(variant, wire_hand(step["hand"])), by=by, at=at)
        case "correct":
            hand = domain_hand(variant, wire_hand(step["hand"]))
            return corrected(step["number"], hand, reason=step["reason"], by=by, at=at)
        case "void":
            return voided_event(step["number"], reason=step["reason"], by=by, at=at)
        case "undo":
            return undone(by=by, at=at)
        case "redo":
            return redone(by=by, at=at)
        case "close":
            return closed(by=by, at=at)
    raise ValueError(step["do"])
