"""The ledger between the wire and the store: a table's hand bodies loaded as the
domain's hands, its setup, its stored events ↔ domain events, and its ledger replayed
from its log.

Hand bodies are loaded with the stateless endpoints' own loaders, so a stored hand is
scored exactly as the stateless endpoint scores the same body. The rows derived from a
ledger (a table's summary and each hand's item) are in :mod:`calculator.api.derived_rows`;
the ledgers an instance keeps, and the hands it keeps rendered, in
:mod:`calculator.api.ledger_cache`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from marshmallow import ValidationError

from calculator.api.coded_errors import Coded
from calculator.api.schemas import HAND_SCHEMA, load_hand_request
from calculator.api.session_schemas import BalanceRequestSchema
from calculator.api.strict_schema import StrictSchema
from calculator.api.table_schemas import FORBIDDEN
from calculator.errors import GoStopError, Issue
from calculator.ledger import (
    DealerRule,
    Event,
    EventType,
    Ledger,
    Play,
    TableSetup,
    apply,
    start,
)
from calculator.presets import Variant, resolve
from calculator.store import EventRow

_BALANCE = BalanceRequestSchema()


def _in_a_table(schema: StrictSchema) -> tuple[str, Coded]:
    """A hand body schema's message for an unknown field, and what a table hand says
    instead: the fields allowed are the schema's less those the table sets."""
    allowed = ", ".join(sorted(set(schema.load_fields) - set(FORBIDDEN)))
    said = schema.error_messages["unknown"]
    return said, Coded(f"unknown field; the fields allowed here are: {allowed}", "unknown_field")


_UNKNOWN = {Variant.GOSTOP: _in_a_table(HAND_SCHEMA), Variant.BALANCE: _in_a_table(_BALANCE)}


def _fields_of_players(schema: StrictSchema) -> set[str]:
    players: Any = schema.load_fields["players"]
    return set(players.inner.schema.load_fields)


# What only a Go-Stop hand gives, of the hand and of a player: a body giving any of it to a
# balance table is a Go-Stop hand sent to the wrong table, and told so first
_GOSTOP_ONLY = set(HAND_SCHEMA.load_fields) - set(_BALANCE.load_fields) - set(FORBIDDEN)
_GOSTOP_PLAYER_ONLY = _fields_of_players(HAND_SCHEMA) - _fields_of_players(_BALANCE)
_BALANCE_TABLE = Coded(
    "this table plays the balance variant (화투 120/80/60): a hand gives each player's "
    "captured cards alone (every card of the deck), no outcome, counts or go calls",
    "wrong_variant",
)


def _plays_gostop(body: Mapping[str, Any]) -> bool:
    """Whether a body gives what only a Go-Stop hand gives."""
    if _GOSTOP_ONLY.intersection(body):
        return True
    players = body.get("players")
    return isinstance(players, list) and any(
        isinstance(player, Mapping) and not _GOSTOP_PLAYER_ONLY.isdisjoint(player)
        for player in players
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Roster:
    """The roster as created: ids in order, with display names."""

    people: tuple[tuple[str, str | None], ...]

    def json(self) -> list[dict[str, Any]]:
        """As the API gives it."""
        return [{"id": pid, "name": name} for pid, name in self.people]


def load_play(variant: Variant, body: Any, prefix: tuple[str, ...] = ()) -> Play:
    """A table hand body as the domain's hand, or ValidationError / GoStopError with every
    pointer under ``prefix``."""
    try:
        if isinstance(body, Mapping):
            given = [name for name in FORBIDDEN if name in body]
            if given:
                refused: dict[str, Any] = {
                    name: [
                        _coded(
                            f"the table sets {name}; leave it out of a table hand"
                            if name != "compare_with"
                            else "compare rule sets on POST /v1/gostop/hands"
                        )
                    ]
                    for name in given
                }
                # and what the rest of the body is told (its fields, its cards): one answer
                try:
                    _load(variant, {k: v for k, v in body.items() if k not in FORBIDDEN})
                except ValidationError as others:
                    if isinstance(others.messages, dict):
                        refused.update(others.messages)
                raise ValidationError(refused)
        hand = _load(variant, body)
    except ValidationError as error:
        messages: Any = error.messages
        said, told = _UNKNOWN[variant]
        if isinstance(messages, dict):  # an unknown field of the hand's own object
            messages = {k: [told] if v == [said] else v for k, v in messages.items()}
        if variant is Variant.BALANCE and isinstance(body, Mapping) and _plays_gostop(body):
            # said first; beside what the body as a whole was told (more unknown fields
            # than one answer lists)
            rest = {name: said for name, said in messages.items() if name != "_schema"}
            messages = {"_schema": [_BALANCE_TABLE, *messages.get("_schema", [])], **rest}
        for name in reversed(prefix):
            messages = {name: messages}
        raise ValidationError(messages) from None
    return hand


def _load(variant: Variant, body: Any) -> Play:
    if variant is Variant.BALANCE:
        played: Play = _BALANCE.load_fast(body).hand
        return played
    return load_hand_request(body).hand


def _coded(text: str) -> str:
    return Coded(text, "forbidden_field")


def relocated(error: GoStopError, prefix: tuple[str | int, ...]) -> GoStopError:
    """The same domain error with every location under ``prefix``."""
    return type(error)([Issue(i.code, i.detail, (*prefix, *i.location)) for i in error.issues])


# --- setup -------------------------------------------------------------------------------


def setup_body(
    *,
    roster: Roster,
    variant: Variant,
    ruleset: dict[str, Any],
    stake: int,
    dealer: str | None,
    unit: int | None,
    name: str | None,
    dealer_rule: DealerRule,
) -> dict[str, Any]:
    """The body of a table's ``created`` event: everything its setup needs, the rule set
    with every resolved option and its fingerprint (locked), the table's name and its
    dealer rule (a table stored before the rule was recorded has none: :func:`setup_of`
    reads the old rule)."""
    return {
        "name": name,
        "roster": roster.json(),
        "variant": variant.value,
        "ruleset": ruleset,
        "stake": stake,
        "dealer": dealer,
        "rounding": None if unit is None else {"unit": unit},
        "dealer_rule": dealer_rule.value,
    }


def dealer_rule_of(body: Mapping[str, Any]) -> DealerRule:
    """The dealer rule a ``created`` event body or an export records: the old rule where
    it records none (a table created, or an export written, before the rule was)."""
    return DealerRule(body.get("dealer_rule") or DealerRule.BIGGEST_NET)


def setup_of(body: Mapping[str, Any]) -> tuple[TableSetup, Roster]:
    """The domain setup and the roster of a ``created`` event body."""
    variant = Variant(body["variant"])
    locked = body["ruleset"]
    ruleset = resolve(locked["preset"], locked["options"], variant=variant)
    roster = Roster(people=tuple((p["id"], p["name"]) for p in body["roster"]))
    setup = TableSetup(
        roster=tuple(pid for pid, _name in roster.people),
        variant=variant,
        ruleset=ruleset,
        stake=body["stake"],
        dealer=body["dealer"],
        unit=(body["rounding"] or {}).get("unit"),
        dealer_rule=dealer_rule_of(body),
    )
    return setup, roster


# --- events ------------------------------------------------------------------------------


class TableGoneError(LookupError):
    """The table's log is empty: it was deleted after its head was read."""


def _no_deadline() -> None:
    """Offline (a rebuild from the command line): no request deadline."""


def event_row(event: Event, seq: int, body: Any = None) -> EventRow:
    """A domain event as stored; ``body`` is the hand body as the client sent it."""
    return EventRow(
        seq=seq,
        type=event.type.value,
        by=event.by,
        at=event.at,
        number=event.number,
        body=None if body is None else orjson.dumps(body).decode(),
        reason=event.reason,
    )


def domain_event(row: EventRow, variant: Variant) -> Event:
    """A stored event (not ``created``) as the domain's."""
    hand = None if row.body is None else load_play(variant, orjson.loads(row.body))
    return Event(
        type=EventType(row.type),
        by=row.by,
        at=row.at,
        number=row.number,
        hand=hand,
        reason=row.reason,
    )


def event_json(row: EventRow, *, number: int | None = None) -> dict[str, Any]:
    """An event as ``GET …/events`` gives it (``number``: the hand it is about, derived
    by :func:`calculator.ledger.hands_about`) or, without ``number``, as an export
    carries it: as stored (a correction's or a void's hand alone)."""
    return {
        "seq": row.seq,
        "type": row.type,
        "by": row.by,
        "at": row.at,
        "number": row.number if number is None else number,
        "reason": row.reason,
        "body": None if row.body is None else orjson.Fragment(row.body),
    }


def rebuild(
    rows: Iterable[EventRow], *, check_deadline: Callable[[], None] = _no_deadline
) -> tuple[Ledger, Roster]:
    """The ledger from its whole log (the first event is ``created``); ``check_deadline``
    (:func:`calculator.limits.deadline`) is called before each event."""
    rows = list(rows)
    if not rows:
        raise TableGoneError("the table has no events: it was deleted meanwhile")
    setup, roster = setup_of(orjson.loads(rows[0].body or "{}"))
    return caught_up(start(setup), rows[1:], check_deadline=check_deadline), roster


def caught_up(
    ledger: Ledger, rows: Iterable[EventRow], *, check_deadline: Callable[[], None]
) -> Ledger:
    """The ledger after the stored events ``rows``, checking the deadline before each
    (taken when they were written: their replay cost is counted, never refused)."""
    for row in rows:
        check_deadline()
        ledger = apply(ledger, domain_event(row, ledger.setup.variant), stored=True)
    return ledger
