"""The end of a Go-Stop hand, as the domain receives it (SPEC §4, request side).

Each player describes its pile in exactly one of three entry modes — ``captured`` card
IDs, a ``tally`` of counts, or ``declared`` points and bak flags — plus the hand flags
that only the table knows (go calls, shakes, bombs…). The HTTP layer builds these
records from JSON; tests and scripts build them directly. They are named tuples:
immutable, and several times cheaper to build than frozen dataclasses (a batch builds
thousands of them); the HTTP layer's generated loaders build them with ``tuple.__new__``.
(The engine's own records are native classes: :mod:`calculator.records`.)

>>> hand = Hand(players=(
...     PlayerHand(id="A", captured=("01-bright", "03-bright", "08-bright")),
...     PlayerHand(id="B", captured=("12-bright",)),
... ), outcome=Outcome(type=OutcomeType.STOP, winner="A"))
>>> hand.players[0].mode
'captured'
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from calculator.rule_choices import GukjinChoice


class Category(StrEnum):
    """A scoring category a declared winner scored with (it decides the baks)."""

    BRIGHTS = "brights"
    ANIMALS = "animals"
    GODORI = "godori"
    RIBBONS = "ribbons"
    JUNK = "junk"


class Tally(NamedTuple):
    """A pile counted rather than listed.

    Count the sake cup among the ``animals`` and say ``has_gukjin``: the player's
    ``gukjin`` reading then moves it to the junk if that is how it counts. The same goes
    for the May bridge (``has_may_animal``) under rules that let it switch. Count every
    ribbon in ``ribbons`` and say ``rain_ribbon`` if the December one is among them (some
    rules leave it out of the ribbon total). ``has_gukjin``, ``has_may_animal`` and
    ``rain_ribbon`` left false say nothing: the pile holds the card when the counts force
    it (:func:`calculator.deck_fit.forced`). Optional counts are needed only where they
    change the result (``junk_cards`` from a loser when 피박 counts cards, ``double_junks``
    from the winner, or any player in a preview, for the three-double-junk bonus).
    """

    brights: int = 0
    rain_bright: bool = False
    animals: int = 0
    godori: bool = False
    ribbons: int = 0
    rain_ribbon: bool = False
    hongdan: bool = False
    cheongdan: bool = False
    chodan: bool = False
    junk_value: int = 0
    junk_cards: int | None = None
    double_junks: int | None = None
    has_gukjin: bool = False
    has_may_animal: bool = False


class Declared(NamedTuple):
    """What existing calculators ask for: the winner's points, a loser's bak flags.

    ``points`` and ``scored`` (the categories the points came from) matter when the player
    wins; ``pi_bak``, ``gwang_bak`` and ``meong_bak`` when it loses, and they are checked
    against what the winner scored.
    """

    points: int = 0
    scored: frozenset[Category] = frozenset()
    meongtta: bool = False
    pi_bak: bool = False
    gwang_bak: bool = False
    meong_bak: bool = False
    no_cards: bool = False


class PlayerHand(NamedTuple):
    """One player at the end of the hand: its pile (one entry mode) and its hand flags."""

    id: str
    captured: tuple[str, ...] | None = None
    tally: Tally | None = None
    declared: Declared | None = None
    go_count: int = 0
    shakes: int = 0
    bombs: int = 0
    bombs_after_shake: int = 0  # bombs of a month the player had already shaken
    gukjin: GukjinChoice | None = None  # None: the rule set's gukjin_default
    yeokgo: bool = False  # the winner's go was a 역고 (reverse go)
    sits_out: bool = False  # the fourth player, out of this hand
    sold_brights: int | None = None  # sitter: cards it sells (광팔기), as counted
    hand: tuple[str, ...] | None = None  # sitter: the cards it holds, to count them for it

    @property
    def mode(self) -> str | None:
        """The entry mode used, or ``None`` when none was given."""
        if self.captured is not None:
            return "captured"
        if self.tally is not None:
            return "tally"
        if self.declared is not None:
            return "declared"
        return None


class OutcomeType(StrEnum):
    """How the hand ended."""

    STOP = "stop"  # a player reached the minimum and stopped
    NAGARI = "nagari"  # nobody won: drawn hand (나가리)
    CHONGTONG = "chongtong"  # four of a month dealt to a hand (총통)
    THREE_PPUK = "three_ppuk"  # a third ppuk (쓰리뻑): instant win
    FLOOR_FOUR = "floor_four"  # four of a month dealt to the table


class ChongtongHolder(NamedTuple):
    """A player dealt a 총통, and its month (when several players were)."""

    player: str
    month: int


class Outcome(NamedTuple):
    """The hand's ending. ``liable`` names a loser who pays for everyone (독박)."""

    type: OutcomeType
    winner: str | None = None
    liable: str | None = None
    holders: tuple[ChongtongHolder, ...] = ()


class EventType(StrEnum):
    """Side events that pay when they happen, whoever wins (docs/rules.md §5)."""

    FIRST_PPUK = "first_ppuk"  # 첫뻑
    CONSECUTIVE_PPUK = "consecutive_ppuk"  # 연뻑: the 1st time is the 2nd ppuk, then the 3rd
    FIRST_TTADAK = "first_ttadak"  # 첫따닥


class Event(NamedTuple):
    """A side event and the player it belongs to (the one who is paid)."""

    type: EventType
    player: str


MAX_NAGARI_STREAK: Final = 64
"""The most drawn hands a streak counts: a request may send that many, and a drawn hand at
it leaves it there (``nagari_streak_after``, which a client sends back, never goes past
what a request may send). No amount changes: a multiplier that stacks uncapped is past
the safest chips long before (refused as too large), a capped or single one reached at
once (docs/rules.md §4.9)."""


def after_a_draw(streak: int) -> int:
    """The streak after a drawn hand (a nagari, a floor four under ``nagari``, a 총통 tie
    under ``nagari``): one more, up to :data:`MAX_NAGARI_STREAK`.

    >>> after_a_draw(0), after_a_draw(63), after_a_draw(64)
    (1, 64, 64)
    """
    return min(streak + 1, MAX_NAGARI_STREAK)


class Hand(NamedTuple):
    """A whole hand: players in seating order, how it ended, and what it carries."""

    players: tuple[PlayerHand, ...]
    outcome: Outcome | None = None  # None: a preview (points only)
    stake: int = 1  # chips per point
    nagari_streak: int = 0  # drawn hands right before this one
    events: tuple[Event, ...] = ()
    dealer: str | None = None
