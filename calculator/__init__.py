"""Go-Stop (고스톱) scoring and settlement: the pure domain.

Nothing here imports a web framework; the HTTP API lives in :mod:`calculator.api`.
The public entry points:

- :func:`resolve` — a named preset plus option overrides → a :class:`RuleSet`;
- :func:`settle` — a :class:`Hand` under a rule set → a :class:`HandResult`;
- :data:`CARDS` / :data:`DECK` — the card catalogue (IDs are a public contract).
"""

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
from calculator.rules import GoStopRules, GukjinChoice
from calculator.settlement import Comparison, compare, settle

__all__ = [
    "CARDS",
    "DECK",
    "AmbiguousHandError",
    "Card",
    "Category",
    "ChongtongHolder",
    "Comparison",
    "Declared",
    "Event",
    "EventType",
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
    "Outcome",
    "OutcomeType",
    "Payment",
    "PlayerHand",
    "PlayerResult",
    "Preset",
    "RuleSet",
    "Step",
    "Tag",
    "Tally",
    "Variant",
    "WinnerScore",
    "compare",
    "find_preset",
    "presets",
    "resolve",
    "settle",
]
