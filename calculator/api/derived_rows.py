"""The rows a table's ledger derives, and the table read made of them: each hand's item
(its result as the stateless endpoint answers it), the table's summary, the read
``GET /v1/tables/{id}`` spliced from them, and the rows derived again from the log.

Results are serialized with the stateless endpoints' own serializers, so a stored result
is byte for byte the stateless answer for the same hand, rule set, stake, streak and
dealer. The events the rows derive from are read in :mod:`calculator.api.ledger_io`; the
reads an instance keeps, in :mod:`calculator.api.ledger_cache`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from calculator.api import balance_json, serialize
from calculator.api.ledger_io import Roster, rebuild
from calculator.balance import BalanceResult
from calculator.ledger import DealerRule, Ledger, LedgerHand, Tip, settlement
from calculator.session import SessionResult
from calculator.store import Store


def result_bytes(hand: LedgerHand, shape: serialize.Shape = serialize.DEFAULT_SHAPE) -> bytes:
    """A hand's result as JSON: the stateless endpoint's answer, shaped as ``shape`` says
    (the default: Korean, what the derived rows store)."""
    result = hand.result
    if isinstance(result, BalanceResult):
        return orjson.dumps(balance_json.balance_json(result, shape))
    return serialize.hand_text(result, (), shape)


def result_text(hand: LedgerHand, shape: serialize.Shape = serialize.DEFAULT_SHAPE) -> str:
    """A hand's result as JSON text (serialized once per write: for its row and the
    answer)."""
    return result_bytes(hand, shape).decode()


def hand_item(hand: LedgerHand, result: str | None = None) -> str:
    """A hand's derived row: its entry of the table's ``hands`` (``result``: its
    :func:`result_text`, when already made)."""
    return hand_item_bytes(hand, result if result is not None else result_text(hand)).decode()


def hand_item_bytes(hand: LedgerHand, result: str | bytes) -> bytes:
    """:func:`hand_item` as bytes, of its result's JSON text (also what
    :mod:`calculator.api.ledger_cache` renders a hand's item with)."""
    return orjson.dumps(
        {
            "number": hand.number,
            "status": hand.status.value,
            "nagari_streak": hand.nagari_streak,
            "dealer": hand.dealer,
            "result": orjson.Fragment(result),
        }
    )


def summary(
    table_id: str,
    ledger: Ledger | Tip,
    roster: Roster,
    locked: Mapping[str, Any],
    *,
    name: str | None,
) -> str:
    """A table's derived summary: ``GET /v1/tables/{id}`` without its hands (of a
    ledger, or of its end: the same fields). Its ``dealer_rule`` comes last: a summary
    stored before it was (2026-12-05) gets it in the same place on a read
    (:func:`lacks_dealer_rule`)."""
    setup = ledger.setup
    return orjson.dumps(
        {
            "id": table_id,
            "name": name,
            "version": ledger.version,
            "variant": setup.variant.value,
            "roster": roster.json(),
            "ruleset": locked,
            "stake": setup.stake,
            "rounding": None if setup.unit is None else {"unit": setup.unit},
            "closed": ledger.closed,
            "totals": dict(ledger.totals),
            "nagari_streak": ledger.nagari_streak,
            "dealer": ledger.dealer,
            "can_undo": ledger.can_undo,
            "can_redo": ledger.can_redo,
            "dealer_rule": setup.dealer_rule.value,
        }
    ).decode()


_WITH_DEALER_RULE = tuple(f',"dealer_rule":"{rule.value}"}}' for rule in DealerRule)


def lacks_dealer_rule(summary_text: str) -> bool:
    """Whether a stored summary was written before summaries carried the table's dealer
    rule (2026-12-05: its ``created`` event has it,
    :func:`~calculator.api.ledger_io.dealer_rule_of`); the table's next write, or ``gostop
    db rebuild``, stores it. A JSON string inside the summary cannot end it (its closing
    quote ends the string, not the summary's object)."""
    return not summary_text.endswith(_WITH_DEALER_RULE)


def table_body(
    summary_text: str, items: Iterable[str] | bytes, *, extra: Mapping[str, Any] | None = None
) -> bytes:
    """``GET /v1/tables/{id}``: the stored summary with ``extra`` fields and the hands
    spliced in — their items, or those items already joined by commas (bytes:
    :meth:`~calculator.api.ledger_cache.LedgerCache.hands`); no parsing: the read costs
    what the answer carries."""
    head = summary_text.encode()[:-1]
    if extra:
        head += b"," + orjson.dumps(extra)[1:-1]
    hands = items if isinstance(items, bytes) else ",".join(items).encode()
    return b"".join((head, b',"hands":[', hands, b"]}"))


def settled(summary_json: Mapping[str, Any]) -> SessionResult:
    """The settlement of a table's summary: its totals, the fewest transfers, rounded to
    its unit."""
    return settlement(
        roster=tuple(p["id"] for p in summary_json["roster"]),
        totals=summary_json["totals"],
        unit=(summary_json["rounding"] or {}).get("unit"),
    )


def fixed(summary_json: Mapping[str, Any]) -> tuple[Any, str | None]:
    """What a summary (parsed) carries from the table's creation: the locked rule set
    and the name (None: no name, or a table created before names)."""
    return summary_json["ruleset"], summary_json.get("name")


def rebuild_derived(store: Store, table_id: str) -> bool:
    """Rewrite a table's derived rows from its events alone, unless a write moved it on
    meanwhile (that write derived them): whether they were rewritten."""
    rows = store.events(table_id)
    if not rows:  # deleted meanwhile
        return False
    ledger, roster = rebuild(rows)
    created = orjson.loads(rows[0].body or "{}")
    return store.replace_derived(
        table_id,
        summary=summary(table_id, ledger, roster, created["ruleset"], name=created.get("name")),
        hand_items=[hand_item(hand) for hand in ledger.hands],
        version=rows[-1].seq,
    )
