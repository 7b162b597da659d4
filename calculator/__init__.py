"""Go-Stop (고스톱) scoring and settlement: the pure domain.

Nothing here imports a web framework; the HTTP API lives in :mod:`calculator.api`.
The public entry points:

- :func:`resolve` — a named preset plus option overrides → a :class:`RuleSet`;
- :func:`settle` — a :class:`Hand` under a rule set → a :class:`HandResult`;
- :func:`score_balance` — a 120/80/60 balance-variant hand;
- :func:`settle_session` — a night's hands → totals and the fewest transfers;
- :data:`CARDS` / :data:`DECK` — the card catalogue (IDs are a public contract).
"""

from calculator import _build  # noqa: F401 - first: refuses a stale compiled engine
from calculator.balance import BalanceHand, BalancePlayer, BalanceRules, score_balance
from calculator.cards import CARDS, DECK, Card, Kind, Tag
from calculator.errors import (
    AmbiguousHandError,
    GoStopError,
    ImpossibleHandError,
    InvalidHandError,
    InvalidRulesError,
    Issue,
)
from calculator.hand import (
    Category,
    ChongtongHolder,
    Declared,
    Event,
    EventType,
    Hand,
    Outcome,
    OutcomeType,
    PlayerHand,
    Tally,
)
from calculator.presets import Preset, RuleSet, Variant, find_preset, presets, resolve
from calculator.result import HandResult, Payment, PlayerResult, Step, WinnerScore
from calculator.rule_choices import GukjinChoice
from calculator.rules import GoStopRules
from calculator.session import (
    BalanceEntry,
    GoStopEntry,
    NetEntry,
    Session,
    Transfer,
    minimal_transfers,
    settle_session,
)
from calculator.settlement import Comparison, compare, settle

__all__ = [
    "CARDS",
    "DECK",
    "AmbiguousHandError",
    "BalanceEntry",
    "BalanceHand",
    "BalancePlayer",
    "BalanceRules",
    "Card",
    "Category",
    "ChongtongHolder",
    "Comparison",
    "Declared",
    "Event",
    "EventType",
    "GoStopEntry",
    "GoStopError",
    "GoStopRules",
    "GukjinChoice",
    "Hand",
    "HandResult",
    "ImpossibleHandError",
    "InvalidHandError",
    "InvalidRulesError",
    "Issue",
    "Kind",
    "NetEntry",
    "Outcome",
    "OutcomeType",
    "Payment",
    "PlayerHand",
    "PlayerResult",
    "Preset",
    "RuleSet",
    "Session",
    "Step",
    "Tag",
    "Tally",
    "Transfer",
    "Variant",
    "WinnerScore",
    "compare",
    "find_preset",
    "minimal_transfers",
    "presets",
    "resolve",
    "score_balance",
    "settle",
    "settle_session",
]
