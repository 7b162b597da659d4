"""Who is at the table and how the hand ended: every check that needs no card.

:func:`check_table` validates the players (count, IDs, the one who sits out, entry
modes, hand flags) here, and the outcome, the side events and the liable player through
:mod:`calculator.ending`, and returns the :class:`Table` the settlement works from.
Problems are collected so that one response names all of them.
"""

from __future__ import annotations

from typing import Final

from calculator import cards
from calculator.ending import check_events, check_outcome, find_liable
from calculator.errors import GoStopError, InvalidHandError, Issue, Problems, counted
from calculator.hand import Hand, Outcome, OutcomeType, PlayerHand
from calculator.multipliers import stop_rules
from calculator.rule_choices import (
    GukjinChoice,
    GukjinMode,
    GwangpalCards,
    ShakeThenBomb,
    TableMode4p,
)
from calculator.rules import GoStopRules

MAX_SOLD: Final = {GwangpalCards.BRIGHTS: 5, GwangpalCards.FUDAWIKI: 10}

_STOP: Final = OutcomeType.STOP  # an enum member named once (see calculator.settlement)


class Table:
    """The checked seating: indices into ``hand.players``.

    The settlement's own working value, never part of an answer: a plain class, which
    compiled is a native struct, built by a direct call (as a named tuple, through
    ``tuple.__new__``: ~1.3k instructions with its argument tuples, and ~0.4k to free).
    Its fields are Final: set once, here; equal by value (a property test compares
    the plain-table shortcut's with the full checks')."""

    def __init__(
        self,
        *,
        seat: dict[str, int],
        active: tuple[int, ...],
        sitter: int | None,
        winner: int | None,
        liable: int | None,
        liable_reason: str | None,
        conflicts: tuple[Issue, ...],
    ) -> None:
        self.seat: Final = seat  # player id → seat
        self.active: Final = active  # the players in the hand (not sitting out)
        self.sitter: Final = sitter
        self.winner: Final = winner  # the stop / three_ppuk / single chongtong winner
        self.liable: Final = liable  # the loser who pays for every loser, if any
        self.liable_reason: Final = liable_reason  # go_bak, dokbak or yeokgo
        # problems the settlement reports with those of the cards and the stop (a loser
        # named liable against 고박: liable_conflict); the hand is refused whenever there is one
        self.conflicts: Final = conflicts

    def _values(self) -> tuple[object, ...]:
        """Its fields' values, in :data:`_TABLE_FIELDS`' order (equality and repr: tests
        and messages, never the hot path)."""
        return tuple(getattr(self, name) for name in _TABLE_FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and self._values() == other._values()

    def __repr__(self) -> str:
        pairs = zip(_TABLE_FIELDS, self._values(), strict=True)
        return f"Table({', '.join(f'{name}={value!r}' for name, value in pairs)})"


_TABLE_FIELDS: Final = (
    "seat",
    "active",
    "sitter",
    "winner",
    "liable",
    "liable_reason",
    "conflicts",
)


_PLAIN_TRIPLES: Final = 2  # shakes or bombs that fit any hand: 2 × 3 cards ≤ 7
# a plain table's active seats, made once: compiled, a tuple display is built (and its
# items boxed) at every use, and freed with the table. Typed of any length: a fixed-length
# tuple is kept unboxed, and boxed again at every read
_TWO_ACTIVE: Final[tuple[int, ...]] = (0, 1)
_THREE_ACTIVE: Final[tuple[int, ...]] = (0, 1, 2)


def check_table(hand: Hand, rules: GoStopRules, *, entering: bool = True) -> Table:
    """Validate everything about the hand except the cards; raise naming every problem
    (but :attr:`Table.conflicts`, which the settlement raises with the cards' problems).
    ``entering`` False: a stored hand, scored again (see
    :func:`calculator.settlement.settle`)."""
    table = _plain_table(hand, rules, entering)
    if table is not None:
        return table
    return _checked_table(hand, rules, entering)


def _plain_table(hand: Hand, rules: GoStopRules, entering: bool = True) -> Table | None:
    """The table of an everyday hand — two or three players, each with one pile and plain
    flags, no sitter, no events, no dealer, a preview or a stop (a loser named liable, or a
    losing go-caller, is read by :func:`~calculator.ending.find_liable`, the full checks'
    own function) — or None when anything is out of the ordinary and the full checks must
    run.

    This is only a shortcut, and it fails closed: it reads a few fields and requires every
    other field of the records to hold its default — the very object (``None``, ``False``,
    ``()``), compared field by field over the whole tuple tail, so a field added later is
    covered without a change here; an equal value that is another object (``0`` for
    ``False``) only sends the hand to the full checks. What it lets through, the full
    checks accept with the same table (a property test holds the two together and counts
    how often the shortcut is taken).
    """
    players = hand.players
    count = len(players)
    if not 2 <= count <= 3 or not _defaults(hand, _HAND_READ, _HAND_REST) or hand.stake < 1:
        return None
    if hand.nagari_streak < 0:
        return None
    index = {}
    # from the rules' StopRules (a native field; the same rules as the settlement's, most
    # often the last ones asked for): compiled, a field of the rules dataclass is a generic
    # attribute read (~0.16k instructions)
    reads_gukjin = stop_rules(rules).reads_gukjin
    for i, p in enumerate(players):
        if (
            not _defaults(p, _PLAYER_READ, _PLAYER_REST)
            or p.bombs_after_shake
            or p.go_count < 0
            # a negative count, or more than two shakes or bombs: the full checks see
            # whether the hand holds them (two always fit: 2 × 3 cards of the 7 dealt).
            # Chained: compiled, each field is read once.
            or not 0 <= p.shakes <= _PLAIN_TRIPLES
            or not 0 <= p.bombs <= _PLAIN_TRIPLES
            or (p.captured is None) + (p.tally is None) + (p.declared is None) != 2
            or (p.gukjin is not None and not reads_gukjin)
        ):
            return None
        index[p.id] = i
    if len(index) != count:
        return None
    active = _TWO_ACTIVE if count == 2 else _THREE_ACTIVE
    outcome = hand.outcome
    winner = None
    if outcome is not None:
        if outcome.type is not _STOP or not _defaults(outcome, _OUTCOME_READ, _OUTCOME_REST):
            return None
        winner = index.get(outcome.winner)  # type: ignore[arg-type]
        if winner is None:
            return None
        if outcome.liable is not None:
            named = index.get(outcome.liable)
            if named is None or named == winner:
                return None  # check_outcome names the problem
        elif count == 2 or not _loser_called_go(players, winner):
            return _plain(index, active, winner, None, None)
        # A named 독박, or a losing go-caller who may pay for everyone (고박): read by
        # the full checks' own function (with no collector: the problems it raises are
        # the full checks' to report).
        try:
            liable, reason, conflict = find_liable(
                hand, rules, index, active, winner, None, entering
            )
        except GoStopError:
            return None  # the full checks raise it, with every other problem found
        if conflict is not None:
            return None  # the full checks report it, with every other problem found
        return _plain(index, active, winner, liable, reason)
    return _plain(index, active, winner, None, None)


def _plain(
    seat: dict[str, int],
    active: tuple[int, ...],
    winner: int | None,
    liable: int | None,
    reason: str | None,
) -> Table:
    """The table of a plain hand: no sitter, no conflict."""
    return Table(
        seat=seat,
        active=active,
        sitter=None,
        winner=winner,
        liable=liable,
        liable_reason=reason,
        conflicts=(),
    )


def _loser_called_go(players: tuple[PlayerHand, ...], winner: int) -> bool:
    """Whether a player other than the winner called go: only then may find_liable name a
    loser. (Its callers are the active losers with ``go_count > 0``: the same players here,
    where every player is active and no go count is negative.)"""
    return any(p.go_count and i != winner for i, p in enumerate(players))


def _defaults(record: tuple[object, ...], read: int, rest: tuple[object, ...]) -> bool:
    """Whether every field of ``record`` after the first ``read`` is its default object.

    By identity, one field at a time: compiled, slicing the tail and comparing it with
    ``!=`` built a tuple and made a generic comparison per field (~0.8k instructions a
    record, five records a hand)."""
    if len(record) != read + len(rest):
        return False
    return all(record[read + k] is rest[k] for k in range(len(rest)))


# The shortcut reads the leading fields of each record; every field after them must hold
# its default. A field inserted among the read ones would break that: refuse at import.
_HAND_READ: Final = 4
_PLAYER_READ: Final = 9
_OUTCOME_READ: Final = 3
if (
    Hand._fields[:_HAND_READ] != ("players", "outcome", "stake", "nagari_streak")
    or PlayerHand._fields[:_PLAYER_READ]
    != (
        "id",
        "captured",
        "tally",
        "declared",
        "go_count",
        "shakes",
        "bombs",
        "bombs_after_shake",
        "gukjin",
    )
    or Outcome._fields[:_OUTCOME_READ] != ("type", "winner", "liable")
):  # pragma: no cover - a programming error, caught by importing the module
    raise ImportError("calculator.table: the plain-table shortcut no longer matches the records")
_HAND_REST: Final[tuple[object, ...]] = Hand(players=())[_HAND_READ:]
_PLAYER_REST: Final[tuple[object, ...]] = PlayerHand(id="")[_PLAYER_READ:]
_OUTCOME_REST: Final[tuple[object, ...]] = Outcome(type=OutcomeType.STOP)[_OUTCOME_READ:]


def _checked_table(hand: Hand, rules: GoStopRules, entering: bool = True) -> Table:
    problems = Problems()
    players = hand.players
    index: dict[str, int] = {}
    for i, player in enumerate(players):
        if player.id in index:
            problems.add(
                "duplicate_player",
                f"player id {player.id!r} is used twice; give every player its own id",
                "players",
                i,
                "id",
            )
        index.setdefault(player.id, i)
    if not 2 <= len(players) <= 4:
        problems.add(
            "player_count",
            f"{counted(len(players), 'player')}: Go-Stop is played by 2 or 3, or by 4 with one "
            "sitting out",
            "players",
        )
    sitters = [i for i, p in enumerate(players) if p.sits_out]
    if len(sitters) > 1:
        problems.add(
            "too_many_sitters",
            f"{len(sitters)} players sit out; exactly one sits out at a table of four",
            "players",
            sitters[1],
            "sits_out",
        )
    elif len(players) == 4 and not sitters:
        problems.add(
            "sitter_required",
            "with four players one sits out (광팔기); set sits_out on that player",
            "players",
        )
    elif sitters and len(players) != 4:
        problems.add(
            "unexpected_sitter",
            f"only a table of four has a player who sits out; this one has {len(players)}",
            "players",
            sitters[0],
            "sits_out",
        )
    for i, player in enumerate(players):
        _check_player(player, i, rules, problems, entering)
    if entering:
        _check_what_a_hand_allows(hand, rules, len(players) - len(sitters), problems)
    if hand.stake < 1:
        problems.add(
            "invalid_stake", f"stake is {hand.stake}; use a positive whole number", "stake"
        )
    if hand.nagari_streak < 0:
        problems.add(
            "negative_count",
            f"nagari_streak is {hand.nagari_streak}; it starts at 0",
            "nagari_streak",
        )
    if hand.dealer is not None and hand.dealer not in index:
        problems.add(
            "unknown_player", f"dealer {hand.dealer!r} is not one of the players", "dealer"
        )
    active = tuple(i for i, p in enumerate(players) if not p.sits_out)
    winner = check_outcome(hand, rules, index, problems)
    check_events(hand, rules, index, problems, entering)
    problems.raise_if_any(InvalidHandError)
    liable, reason, conflict = find_liable(hand, rules, index, active, winner, problems, entering)
    conflicts = () if conflict is None else (conflict,)
    return Table(
        seat=index,
        active=active,
        sitter=sitters[0] if sitters else None,
        winner=winner,
        liable=liable,
        liable_reason=reason,
        conflicts=conflicts,
    )


def hand_size(active: int) -> int:
    """The cards a player is dealt: 10 with two players, 7 with three (and with four,
    the sitter too) — reference/rules.md "Deal" (2p 10 each, 3p 7 each; ZeroFriends' four
    players, 7 each)."""
    return 10 if active == 2 else 7


_DEAL_ENDS: Final = (OutcomeType.CHONGTONG, OutcomeType.FLOOR_FOUR)
_PLAY_FLAGS: Final = ("go_count", "shakes", "bombs", "bombs_after_shake")


def _check_what_a_hand_allows(
    hand: Hand, rules: GoStopRules, active: int, problems: Problems
) -> None:
    """What the cards a player holds allow (checked on hands being entered only, added
    2026-12-05): a shake shows three cards of a month from the hand and a bomb plays three
    (docs/rules.md §4.1, §4.2), each of its own month but for a month shaken and then
    bombed, so ``max(shakes, bombs)`` triples must fit the hand dealt, with the bonus
    cards the deck holds (each can be replaced by a card from the stock); the sitter's
    ``hand`` is the hand it was dealt. A 총통 or a floor four ends the hand at the deal
    (§5.1, §5.2): nobody has called go, shaken, bombed or captured anything but a bonus
    card (a joker turned up at the deal)."""
    size = hand_size(active)
    bonus = len(rules.bonus_values())
    most = (size + bonus) // 3
    outcome = hand.outcome
    ended = str(outcome.type) if outcome is not None and outcome.type in _DEAL_ENDS else None
    for i, player in enumerate(hand.players):
        at = ("players", i)
        if player.sits_out:
            if player.hand is not None and len(player.hand) > size:
                problems.add(
                    "impossible_count",
                    f"the hand of {player.id!r} has {len(player.hand)} cards; a player is "
                    f"dealt {size} with {active} players in the hand",
                    *at,
                    "hand",
                )
            continue
        if ended is not None:
            _check_nothing_played(player, i, ended, problems)
            continue
        triples = max(player.shakes, player.bombs)
        if triples > most:
            name = "shakes" if player.shakes >= player.bombs else "bombs"
            problems.add(
                "impossible_count",
                f"{player.id!r} has {counted(player.shakes, 'shake')} and "
                f"{counted(player.bombs, 'bomb')}: each takes three cards of a month from "
                f"the hand, and a hand of {size} cards (with {active} players, and "
                f"{counted(bonus, 'bonus card')} in the deck that may be replaced) holds at "
                f"most {most} such months",
                *at,
                name,
            )


def _check_nothing_played(player: PlayerHand, i: int, ended: str, problems: Problems) -> None:
    """A player of a hand that ended at the deal (a 총통 or a floor four)."""
    at = ("players", i)
    for name in _PLAY_FLAGS:
        if getattr(player, name):
            problems.add(
                "flags_without_play",
                f"a {ended} ends the hand at the deal, before any play: {player.id!r} "
                f"cannot have {name} {getattr(player, name)}; remove it",
                *at,
                name,
            )
    played = None
    if player.captured is not None:
        bit = cards.BIT.get
        if any((bit(card) or cards.BONUS) & ~cards.BONUS for card in player.captured):
            played = "captured"  # unknown IDs are reported by the card checks
    elif player.tally is not None:
        tally = player.tally
        if tally.brights or tally.animals or tally.ribbons:
            played = "tally"
    elif player.declared is not None and (player.declared.points or player.declared.scored):
        played = "declared"
    if played is not None:
        problems.add(
            "cards_without_play",
            f"a {ended} ends the hand at the deal, before any play, so {player.id!r} can "
            "have captured nothing but a bonus card turned up at the deal; send its pile "
            "empty (or holding only bonus cards)",
            *at,
            played,
        )


# How a gukjin_mode other than choice counts the switchable cards: the one player choice
# that agrees with it (None: neither does), and its words.
_FIXED_GUKJIN: Final[dict[GukjinMode, tuple[GukjinChoice | None, str]]] = {
    GukjinMode.ALWAYS_ANIMAL: (GukjinChoice.ANIMAL, "always counts as an animal"),
    GukjinMode.ALWAYS_JUNK: (GukjinChoice.JUNK, "always counts as double junk"),
    GukjinMode.BOTH: (None, "counts as both an animal and double junk"),
}
_GUKJIN_AUTO: Final = GukjinChoice.AUTO


def _check_player(
    player: PlayerHand, i: int, rules: GoStopRules, problems: Problems, entering: bool
) -> None:
    at = ("players", i)
    modes = [m for m in ("captured", "tally", "declared") if getattr(player, m) is not None]
    flags = {
        "go_count": player.go_count,
        "shakes": player.shakes,
        "bombs": player.bombs,
        "bombs_after_shake": player.bombs_after_shake,
    }
    for name, value in flags.items():
        if value < 0:
            problems.add("negative_count", f"{name} is {value}; counts start at 0", *at, name)
    # A stored hand's gukjin that the mode overrides, which releases before 2026-12-05
    # took, is ignored as it was then (scoring reads a player's choice only under choice).
    if entering and player.gukjin is not None and player.gukjin is not _GUKJIN_AUTO:
        fixed = _FIXED_GUKJIN.get(rules.gukjin_mode)
        if fixed is not None and fixed[0] is not player.gukjin:
            problems.add(
                "gukjin_fixed",
                f"gukjin is {player.gukjin} but this rule set's gukjin_mode is "
                f"{rules.gukjin_mode}: the sake cup {fixed[1]}, whatever a player says; "
                "remove gukjin (or use auto), or set gukjin_mode to choice",
                *at,
                "gukjin",
            )
    if player.sits_out:
        if modes:
            problems.add(
                "sitter_pile",
                f"player {player.id!r} sits out and captured nothing; remove {modes[0]}",
                *at,
                modes[0],
            )
        used = [n for n, v in flags.items() if v] + (["yeokgo"] if player.yeokgo else [])
        if used:
            problems.add(
                "sitter_flags",
                f"player {player.id!r} sits out; {used[0]} does not apply to it",
                *at,
                used[0],
            )
        if player.sold_brights is not None and player.hand is not None:
            problems.add(
                "entry_mode", "give the sitter's sold_brights or its hand, not both", *at, "hand"
            )
        sold = player.sold_brights or 0
        if sold < 0:
            problems.add(
                "negative_count", f"sold_brights is {sold}; counts start at 0", *at, "sold_brights"
            )
        elif sold > MAX_SOLD[rules.gwangpal_cards]:
            problems.add(
                "impossible_count",
                f"sold_brights is {sold}; at most {MAX_SOLD[rules.gwangpal_cards]} "
                "cards of a sitter's hand sell under this rule set",
                *at,
                "sold_brights",
            )
        if rules.table_mode_4p is TableMode4p.OBSERVE and (sold or player.hand):
            problems.add(
                "gwangpal_not_played",
                "under this rule set the fourth player only watches and sells nothing; "
                "remove sold_brights and hand, or set table_mode_4p to gwangpal",
                *at,
                "sold_brights" if sold else "hand",
            )
        if rules.gwangpal_triple_doubles and player.sold_brights:
            problems.add(
                "hand_required",
                "this rule set pays double for a triple in the sitter's hand; give its "
                "hand (card IDs) instead of sold_brights",
                *at,
                "sold_brights",
            )
        elif (
            rules.gwangpal_counts_sets
            and rules.table_mode_4p is TableMode4p.GWANGPAL
            and player.sold_brights is not None
        ):
            problems.add(
                "hand_required",
                "this rule set counts the sets in the sitter's hand (gwangpal_counts_sets); "
                "give its hand (card IDs) instead of sold_brights",
                *at,
                "sold_brights",
            )
        return
    if len(modes) != 1:
        detail = (
            "give exactly one of captured, tally or declared"
            if not modes
            else f"give only one of {', '.join(modes)}"
        )
        problems.add(
            "entry_mode",
            f"player {player.id!r}: {detail}",
            *at,
            *(modes[1:2] if len(modes) > 1 else ()),
        )
    for name in ("sold_brights", "hand"):
        if getattr(player, name) is not None:
            problems.add(
                "not_a_sitter",
                f"player {player.id!r} does not sit out; {name} is only for the "
                "player who sits out",
                *at,
                name,
            )
    if player.bombs_after_shake > min(player.shakes, player.bombs):
        problems.add(
            "impossible_flags",
            f"bombs_after_shake is {player.bombs_after_shake} but the player shook "
            f"{player.shakes} and bombed {counted(player.bombs, 'time')}",
            *at,
            "bombs_after_shake",
        )
    elif player.bombs_after_shake and rules.shake_then_bomb_same_month is ShakeThenBomb.FORBID:
        problems.add(
            "shake_then_bomb_forbidden",
            "this rule set does not allow bombing a month already shaken",
            *at,
            "bombs_after_shake",
        )
