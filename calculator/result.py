"""What scoring a hand returns: itemized points, explained amounts, payments, net.

Every amount carries the ordered :class:`Step` records that produced it, computed by
the same code that computes the money (SPEC §4, response side).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final, final

from calculator import cards
from calculator.hand import Outcome
from calculator.presets import RuleSet
from calculator.records import Record, code_key, mix, text_hash
from calculator.scoring import Item, Score

if TYPE_CHECKING:
    # a native 64-bit integer, compiled; ``int`` at run time (as in calculator.records)
    from mypy_extensions import i64


@final
class Counts(Record):
    """How much of each category a pile holds, after its switchable cards are placed."""

    _fields: ClassVar = ("brights", "animals", "ribbons", "junk_value", "junk_cards", "cards")

    def __init__(
        self,
        brights: int,
        animals: int,
        ribbons: int,
        junk_value: int,
        junk_cards: int | None,
        cards: int | None,
    ) -> None:
        self.brights: Final = brights
        self.animals: Final = animals
        self.ribbons: Final = ribbons
        self.junk_value: Final = junk_value
        self.junk_cards: Final = junk_cards
        self.cards: Final = cards  # None: a tally that gives no junk_cards cannot say


@final
class PlayerResult(Record):
    """One player's itemized points (zero and no items for a player who sits out)."""

    _fields: ClassVar = ("id", "points", "items", "may_stop", "score", "sold")

    def __init__(
        self,
        id: str,
        points: int,
        items: tuple[Item, ...],
        may_stop: bool,
        score: Score | None,
        sold: int | None = None,
    ) -> None:
        self.id: Final = id
        self.points: Final = points
        self.items: Final = items
        self.may_stop: Final = may_stop  # its points reach the stop minimum
        self.score: Final = score  # everything scored about its pile (None: it sits out)
        self.sold: Final = sold  # a sitter: how many cards it sold (광팔기)

    @property
    def sits_out(self) -> bool:
        """It sits out this hand."""
        return self.score is None

    @property
    def counts(self) -> Counts | None:
        """What its pile holds; None when the points were declared, or it sits out."""
        return counts_of(self)

    @property
    def gukjin_as(self) -> dict[str, str]:
        """Switchable card ID → "animal" or "junk", as placed."""
        return gukjin_of(self)


# of any length: compiled, a tuple of known length is walked through a generic iterator
_SWITCHABLE_IDS: Final[tuple[tuple[int, str], ...]] = (
    (cards.MAY_ANIMAL, cards.MAY_ANIMAL_ID),
    (cards.GUKJIN, cards.GUKJIN_ID),
)


# The properties' work, as functions: the answer reads both for every player of every hand,
# and calls these natively (compiled, from other modules, a property is an attribute lookup
# through its class; a module's function is called directly).


def counts_of(player: PlayerResult) -> Counts | None:
    """:attr:`PlayerResult.counts`."""
    found = count_values(player)
    return None if found is None else Counts(*found)


CountValues = tuple[int, int, int, int, int | None, int | None]
"""A :class:`Counts` as a plain tuple, its fields in order."""


def count_values(player: PlayerResult) -> CountValues | None:
    """:func:`counts_of`'s values as a plain tuple, the answer's key for its counts (it
    reads them for every player: no record to build and read back)."""
    s = player.score
    if s is None or s.brights is None:
        return None
    return (
        s.brights,
        s.animals or 0,
        s.ribbons or 0,
        s.junk_value or 0,
        s.junk_cards,
        # a tally without junk_cards knows only whether the pile is empty
        None if s.junk_cards is None else s.cards or 0,
    )


def gukjin_of(player: PlayerResult) -> dict[str, str]:
    """:attr:`PlayerResult.gukjin_as`."""
    s = player.score
    if s is None or not s.switchable:
        return {}
    return {
        card_id: "junk" if bit & s.junk_bits else "animal"
        for bit, card_id in _SWITCHABLE_IDS
        if s.switchable & bit
    }


Facts = tuple[tuple[str, int], ...]
"""What made a step apply, as (name, value) pairs in the order a sentence says them:
``(("junk_value", 3), ("threshold", 5))`` for a 피박 — see :mod:`calculator.explain`."""


@final
class Step(Record):
    """One line of an explanation: ``total`` is the running value after this step.

    ``op`` is ``start`` (the amount begins at ``value``), ``add`` (``value`` is added) or
    ``multiply`` (``value`` is the factor). ``times`` says how many events a factor
    stands for (two shakes: ×4, times 2); ``player`` whom a step is about; ``facts``
    what triggered it (a loser's junk value and the 피박 threshold, the brights the winner
    scored, a go-caller's go count…), read by the sentences of :mod:`calculator.explain`.
    """

    _fields: ClassVar = ("code", "op", "value", "total", "times", "player", "facts")

    def __init__(
        self,
        code: str,
        op: str,
        value: int,
        total: int,
        times: int | None = None,
        player: str | None = None,
        facts: Facts = (),
    ) -> None:
        self.code: Final = code
        self.op: Final = op
        self.value: Final = value
        self.total: Final = total
        self.times: Final = times
        self.player: Final = player
        self.facts: Final = facts
        # its hash, made on the first ask (-1: not yet; a hash is never negative): the
        # answer hashes a step once for the payment or winner that holds it, again for
        # its own entry, and a loser's first step (the winner's amount) in every
        # payment of the hand (~8.6 hashes of ~5.9 steps a batched hand)
        self._hash: i64 = -1

    def _values(self) -> tuple[str, str, int, int, int | None, str | None, Facts]:
        # written out: the answer keeps steps by value (a hash and a compare each)
        return (self.code, self.op, self.value, self.total, self.times, self.player, self.facts)

    def __eq__(self, other: object) -> bool:
        # field by field, natively: no tuple of each side's values to build and compare
        return self is other or (
            isinstance(other, Step)
            and self.total == other.total
            and self.value == other.value
            and self.code == other.code
            and self.op == other.op
            # the optional fields and the facts by identity first: compiled, ``==`` on
            # them is a generic comparison, and they are most often the same object
            # (None, a small int, the facts made once at import)
            and (self.times is other.times or self.times == other.times)
            and (self.player is other.player or self.player == other.player)
            and (self.facts is other.facts or self.facts == other.facts)
        )

    def __hash__(self) -> int:
        found = self._hash
        if found < 0:
            found = self._hash = _step_hash(self)
        return found


def _step_hash(step: Step) -> i64:
    """A step's hash: every field equality reads (records.py): the player, the streak or a
    피박's count left out, a client's hands filled one bucket of the answer's step cache."""
    # the op by its length: the ops' lengths differ (the wire's list of them,
    # codes.CODE_LISTS["op"]; a test holds it), where its code_key read two characters
    # more (~55 instructions a step, ~5 steps a hand)
    found = mix(mix(code_key(step.code) ^ len(step.op) << 24, step.total), step.value)
    found = mix(found, -1 if step.times is None else step.times)
    found = mix(found, text_hash(step.player))
    for name, value in step.facts:
        found = mix(mix(found, code_key(name)), value)
    return found


@final
class WinnerScore(Record):
    """The winner's base points and the steps to the amount each loser starts from."""

    _fields: ClassVar = ("base", "steps", "amount")

    def __init__(
        self,
        base: int,
        steps: tuple[Step, ...],
        amount: int,
    ) -> None:
        self.base: Final = base
        self.steps: Final = steps
        self.amount: Final = amount

    def _values(self) -> tuple[int, tuple[Step, ...], int]:
        # written out: the answer keeps the winner's part by value
        return (self.base, self.steps, self.amount)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, WinnerScore)
            and self.amount == other.amount
            and self.base == other.base
            and self.steps == other.steps
        )

    def __hash__(self) -> int:
        found = mix(mix(0, self.base), self.amount)  # and its steps (records.py)
        for step in self.steps:
            found = mix(found, step.__hash__())
        return found


@final
class Payment(Record):
    """What one player pays another, why, and how the amount came about.

    A payment is priced in points (``chips`` = ``points`` × stake, the steps count points)
    or, for a side payment or a 총통 whose rule set gives a price in chips (``ppuk_chips``,
    ``ttadak_chips``, ``gwangpal_chips``, ``chongtong_chips``), in chips: then ``points`` is
    0, ``chips`` is the price whatever the stake, and the steps count chips.
    """

    _fields: ClassVar = ("payer", "payee", "points", "chips", "reason", "steps", "priced_in")

    def __init__(
        self,
        payer: str,
        payee: str,
        points: int,
        chips: int,
        reason: str,
        steps: tuple[Step, ...],
        priced_in: str = "points",
    ) -> None:
        self.payer: Final = payer
        self.payee: Final = payee
        self.points: Final = points
        self.chips: Final = chips  # points × stake, or the chip price
        # stop, chongtong, three_ppuk, first_ppuk, consecutive_ppuk, first_ttadak, gwangpal
        self.reason: Final = reason
        self.steps: Final = steps
        self.priced_in: Final = priced_in  # or "chips"
        # its hash, made on the first ask (-1: not yet), as a step's: the answer keys its
        # payments by the record (~1.7k instructions a hash of its fields and steps, ~2.3k
        # a batched hand, made again at every look-up)
        self._hash: i64 = -1

    def _values(self) -> tuple[str, str, int, int, str, tuple[Step, ...], str]:
        # written out: the answer keeps payments by value
        return (
            self.payer,
            self.payee,
            self.points,
            self.chips,
            self.reason,
            self.steps,
            self.priced_in,
        )

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Payment)
            and self.points == other.points
            and self.chips == other.chips
            and self.payer == other.payer
            and self.payee == other.payee
            and self.reason == other.reason
            and self.priced_in == other.priced_in
            and self.steps == other.steps
        )

    def __hash__(self) -> int:
        found = self._hash
        if found < 0:
            found = self._hash = _payment_hash(self)
        return found


def _payment_hash(payment: Payment) -> i64:
    """A payment's hash: every field equality reads, its steps too (records.py)."""
    found = mix(text_hash(payment.payer), text_hash(payment.payee))
    found = mix(mix(found, payment.points), payment.chips)
    found = mix(found, code_key(payment.reason) ^ code_key(payment.priced_in) << 24)
    for step in payment.steps:
        found = mix(found, step.__hash__())
    return found


@final
class HandResult(Record):
    """A scored hand. ``net`` sums to zero; ``winner_score`` is None unless someone won."""

    _fields: ClassVar = (
        "ruleset",
        "outcome",
        "stake",
        "players",
        "winner_score",
        "payments",
        "net",
        "nagari_streak_after",
    )

    def __init__(
        self,
        ruleset: RuleSet,
        outcome: Outcome | None,
        stake: int,
        players: tuple[PlayerResult, ...],
        winner_score: WinnerScore | None,
        payments: tuple[Payment, ...],
        net: Mapping[str, int],
        nagari_streak_after: int,
    ) -> None:
        self.ruleset: Final = ruleset
        self.outcome: Final = outcome
        self.stake: Final = stake
        self.players: Final = players
        self.winner_score: Final = winner_score
        self.payments: Final = payments
        self.net: Final = net
        self.nagari_streak_after: Final = nagari_streak_after


def winner_of(result: HandResult) -> str | None:
    """Who won the hand: the outcome's winner, or the one the rules chose where the request
    names none (a 총통 held by two players, a floor four the dealer wins): the payee of
    the hand's instant-win payments. None for a preview, a drawn hand, a cancelled one.

    The one reading of the winner: the answer's ``outcome.winner`` and ``winner_score``
    and the export's ``winner`` column take it from here, and so does the next dealer of
    a table created since 2026-12-05 (``DealerRule.WINNER``); a table created before
    keeps deriving it from the biggest net where the request names no winner
    (``DealerRule.BIGGEST_NET``, :mod:`calculator.ledger.events`)."""
    outcome = result.outcome
    if outcome is None:
        return None
    if outcome.winner is not None:
        return outcome.winner
    if result.winner_score is None:
        return None
    for payment in result.payments:
        if payment.reason == "chongtong":
            return payment.payee
    return None
