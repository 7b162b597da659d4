"""The table ledger (SPEC §9): a night of play as append-only events, and the state
derived from them — pure domain code like the engine, testable without a database.

- :mod:`calculator.ledger.events` — the table's setup (its dealer rule among it) and its
  events;
- :mod:`calculator.ledger.state` — :func:`replay` / :func:`apply`: events in, hands,
  totals, nagari streak and dealer out (:func:`appended`: a hand added at a ledger's
  :class:`Tip`, its end); :func:`changes` says what a change moved;
  :func:`settlement` settles the totals.
- :mod:`calculator.ledger.records` — the records it derives (:class:`Ledger`,
  :class:`LedgerHand`, :class:`Tip`, …) and its errors;
- :mod:`calculator.ledger.checks` — :func:`check_setup` and whether a change or a hand
  fits the table;
- :mod:`calculator.ledger.derive` — one hand scored at its place, and the totals.

Storage (:mod:`calculator.store`) and HTTP (:mod:`calculator.api.tables`) are edges
around it.
"""

from calculator.ledger.checks import check_setup
from calculator.ledger.events import (
    EDITS,
    NEW_TABLES,
    DealerRule,
    Event,
    EventType,
    Play,
    TableSetup,
    added,
    closed,
    corrected,
    hands_about,
    redone,
    undone,
    voided,
)
from calculator.ledger.records import (
    Change,
    Entry,
    Ledger,
    LedgerError,
    LedgerHand,
    Status,
    Tip,
    TooCostlyError,
)
from calculator.ledger.state import (
    MAX_EVENTS,
    MAX_REPLAY_COST,
    after_appends,
    appended,
    apply,
    changes,
    replay,
    settlement,
    start,
    tip,
)

__all__ = [
    "EDITS",
    "MAX_EVENTS",
    "MAX_REPLAY_COST",
    "NEW_TABLES",
    "Change",
    "DealerRule",
    "Entry",
    "Event",
    "EventType",
    "Ledger",
    "LedgerError",
    "LedgerHand",
    "Play",
    "Status",
    "TableSetup",
    "Tip",
    "TooCostlyError",
    "added",
    "after_appends",
    "appended",
    "apply",
    "changes",
    "check_setup",
    "closed",
    "corrected",
    "hands_about",
    "redone",
    "replay",
    "settlement",
    "start",
    "tip",
    "undone",
    "voided",
]
