"""Settling a whole session: totals per player and the fewest transfers (SPEC §6).

A session is a list of hands, each a ``net`` map or a full hand scored on the fly (Go-Stop
or balance). Go-Stop hands given in order carry the nagari streak from one to the next.
The totals are settled with the fewest transfers: players whose totals cancel out within
a group settle inside it, so the count is players − (number of such groups); the search
is exact up to a dozen players and near-optimal beyond (:func:`minimal_transfers`).

>>> result = settle_session(Session(players=("A", "B", "C"), hands=(  # docs/rules.md W36
...     NetEntry(net={"A": 20, "B": -15, "C": -5}),
...     NetEntry(net={"A": -30, "B": 10, "C": 20}),
... )))
>>> result.totals
{'A': -10, 'B': -5, 'C': 15}
>>> [(t.payer, t.payee, t.chips) for t in result.transfers]
[('A', 'C', 10), ('B', 'C', 5)]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from calculator.balance import BalanceHand, BalancePlayer, score_balance
from calculator.errors import (
    GoStopError,
    InvalidHandError,
    InvalidSessionError,
    Issue,
    Problems,
    ZeroSumError,
    relocated,
)
from calculator.hand import Hand, PlayerHand
from calculator.limits import quote
from calculator.names import unreadable
from calculator.presets import RuleSet
from calculator.settlement import MAX_SAFE_CHIPS, beyond_safe, settle

MAX_EXACT = 12
"""Most players the exact fewest-transfers search takes (2^n subsets: 12 stay within a few
ms); beyond, small zero-sum groups are split off first (see :func:`_zero_sum_groups`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NetEntry:
    """A hand already settled elsewhere: chips won (+) or lost (−) per player."""

    net: Mapping[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class GoStopEntry:
    """A Go-Stop hand to score; ``carry_streak`` takes the streak from the hand before."""

    hand: Hand
    ruleset: RuleSet
    carry_streak: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class BalanceEntry:
    """A balance-variant hand to score."""

    hand: BalanceHand
    ruleset: RuleSet


Entry = NetEntry | GoStopEntry | BalanceEntry


@dataclass(frozen=True, slots=True, kw_only=True)
class Session:
    """The players of a night and its hands, in order; optional rounding of the totals."""

    players: tuple[str, ...]
    hands: tuple[Entry, ...]
    unit: int | None = None  # round the totals to multiples of this (e.g. 100 won)
    absorber: str | None = None  # who takes the rounding difference (default: nobody)


class Transfer(NamedTuple):
    """One payment that settles the session."""

    payer: str
    payee: str
    chips: int


class HandNet(NamedTuple):
    """What one hand of the session moved."""

    position: int
    kind: str  # net, gostop or balance
    net: dict[str, int]
    nagari_streak_after: int | None  # Go-Stop hands only
    void: bool = False  # a balance hand with cards missing: it moved nothing


class Rounding(NamedTuple):
    """How the totals were rounded: by largest remainders (``absorbed_by`` None), or every
    total but the named absorber's to the nearest unit."""

    unit: int
    raw: dict[str, int]
    absorbed_by: str | None  # the absorber named; None: largest remainders
    remainder: int  # what rounding added to (or took from) the absorber; 0 without one


class SessionResult(NamedTuple):
    """Per-player totals, the transfers that settle them, and each hand's net."""

    players: tuple[str, ...]
    totals: dict[str, int]
    transfers: tuple[Transfer, ...]
    rounding: Rounding | None
    hands: tuple[HandNet, ...]


def settle_session(
    session: Session,
    *,
    check_deadline: Callable[[], None] | None = None,
    roster: bool = False,
) -> SessionResult:
    """Score every hand, add up, round if asked, and find the fewest transfers.

    ``check_deadline`` (see :func:`calculator.limits.deadline`) is called before each hand;
    it raises to stop a session that runs past the request's deadline. ``roster``: the
    players are a table's roster, checked as the table took it (an import keeps ids a
    new table would refuse as unreadable: :func:`calculator.names.unreadable`).
    """
    _check_players(session, readable=not roster)
    totals = dict.fromkeys(session.players, 0)
    hands = []
    streak = 0
    for i, entry in enumerate(session.hands):
        if check_deadline is not None:
            check_deadline()
        after: int | None = None
        void = False
        try:
            if isinstance(entry, NetEntry):
                kind, net = "net", _check_net(entry.net, session.players, i)
            elif isinstance(entry, GoStopEntry):
                hand = entry.hand
                missing = outcome_required(hand, "a session hand")
                if missing is not None:
                    raise InvalidHandError([missing])
                if entry.carry_streak:
                    hand = hand._replace(nagari_streak=streak)
                _check_members(hand.players, session.players)
                result = settle(hand, entry.ruleset)
                kind, net = "gostop", dict(result.net)
                streak = after = result.nagari_streak_after
            else:
                _check_members(entry.hand.players, session.players)
                scored = score_balance(entry.hand, entry.ruleset)
                kind, net, void = "balance", dict(scored.net), scored.void
        except GoStopError as error:
            raise relocated(error, ("hands", i, _kind(entry))) from None
        for player, chips in net.items():
            totals[player] += chips
        beyond = beyond_safe(totals)
        if beyond is not None:
            raise InvalidSessionError([_too_large(totals, beyond, i)])
        hands.append(HandNet(i, kind, net, after, void))
    if sum(totals.values()) != 0:  # not an assert: never skipped (-O)
        raise ZeroSumError(f"session totals do not balance: {totals}")
    rounding = None
    if session.unit is not None:
        rounding, totals = round_totals(totals, session.unit, session.absorber)
        beyond = beyond_safe(totals)
        if beyond is not None:  # an absorber takes every other total's rounding
            raise InvalidSessionError([_too_large(totals, beyond, None)])
    return SessionResult(session.players, totals, minimal_transfers(totals), rounding, tuple(hands))


def outcome_required(hand: Hand, what: str) -> Issue | None:
    """A hand that adds to a night needs its outcome: without one it is a preview, which
    moves nothing, so it would count as a silent 0 (SPEC §6, §9). ``what`` names the hand
    in the message (a session hand, a table hand)."""
    if hand.outcome is not None:
        return None
    return Issue(
        "outcome_required",
        f"{what} needs its outcome (a stop, nagari, chongtong, three_ppuk or floor_four); "
        "without one it "
        "is a preview, which moves nothing: previews are for POST /v1/gostop/hands",
        ("outcome",),
    )


def _too_large(totals: Mapping[str, int], player: str, index: int | None) -> Issue:
    """A total beyond what every hand's net stays within (JSON numbers apps read exactly),
    with hand ``index``, or once rounded (None)."""
    where = "rounded" if index is None else f"with /hands/{index}"
    return Issue(
        "amount_too_large",
        f"{where}, the total of {quote(player)} is {totals[player]:,} chips, beyond "
        f"{MAX_SAFE_CHIPS:,}, more than apps can show exactly; settle fewer hands at a time"
        + ("" if index is not None else " or round to a smaller unit"),
        ("rounding", "unit") if index is None else ("hands", index),
    )


def minimal_transfers(totals: Mapping[str, int]) -> tuple[Transfer, ...]:
    """The fewest transfers that settle ``totals`` (which sum to zero), deterministically.

    Players are split into the most groups whose totals cancel out (exactly up to
    :data:`MAX_EXACT` players left after the opposite pairs, near-optimally beyond); each
    group of k players settles in k − 1 transfers, largest debtor to largest creditor
    first. Nobody both pays and receives.

    >>> minimal_transfers({"A": 5, "B": -5, "C": 3, "D": -3})
    (Transfer(payer='B', payee='A', chips=5), Transfer(payer='D', payee='C', chips=3))
    """
    order = {player: i for i, player in enumerate(totals)}
    owing = [(player, chips) for player, chips in totals.items() if chips]
    transfers: list[Transfer] = []
    for group in _zero_sum_groups(owing):
        debtors = sorted(((p, -c) for p, c in group if c < 0), key=lambda x: (-x[1], order[x[0]]))
        creditors = sorted(((p, c) for p, c in group if c > 0), key=lambda x: (-x[1], order[x[0]]))
        d = k = 0
        debts = [chips for _p, chips in debtors]
        credits = [chips for _p, chips in creditors]
        while d < len(debts) and k < len(credits):
            chips = min(debts[d], credits[k])
            transfers.append(Transfer(debtors[d][0], creditors[k][0], chips))
            debts[d] -= chips
            credits[k] -= chips
            d += debts[d] == 0
            k += credits[k] == 0
    return tuple(transfers)


def _zero_sum_groups(owing: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split the players into as many groups that each sum to zero as can be found cheaply.

    1. Two players with opposite totals always make a group of their own: some partition
       with the most groups pairs them (swap them into one group, the rest of their two
       groups into another). Paired in seat order.
    2. While more than :data:`MAX_EXACT` players are left, take zero-sum groups of three,
       then of four (first in seat order) — a greedy step, the only one that can miss the
       optimum, and only beyond :data:`MAX_EXACT` players without opposite pairs.
    3. Up to :data:`MAX_EXACT` players left: the exact search over their subsets (2^n).
       More (no small group found): they settle as one group.

    Every step is deterministic; each group settles in (size − 1) transfers.
    """
    amounts = [chips for _p, chips in owing]
    groups: list[list[int]] = []
    unpaired: dict[int, list[int]] = {}  # amount → seats waiting for their opposite
    for i, chips in enumerate(amounts):
        waiting = unpaired.get(-chips)
        if waiting:
            groups.append([waiting.pop(0), i])
        else:
            unpaired.setdefault(chips, []).append(i)
    rest = sorted(i for seats in unpaired.values() for i in seats)
    for size in (3, 4):
        while len(rest) > MAX_EXACT:
            found = _small_group(rest, amounts, size)
            if found is None:
                break
            groups.append(found)
            rest = [i for i in rest if i not in found]
    if len(rest) <= MAX_EXACT:
        groups += _exact_groups(rest, amounts)
    elif rest:
        groups.append(rest)
    return [[owing[i] for i in sorted(group)] for group in sorted(groups, key=min)]


def _small_group(rest: list[int], amounts: list[int], size: int) -> list[int] | None:
    """The first (in seat order) ``size`` players of ``rest`` whose totals sum to zero."""
    last = {amounts[i]: i for i in reversed(rest)}  # amount → its first seat
    for combo in itertools.combinations(rest, size - 1):
        k = last.get(-sum(amounts[i] for i in combo))
        if k is not None and k > combo[-1]:
            return [*combo, k]
    return None


def _exact_groups(seats: list[int], amounts: list[int]) -> list[list[int]]:
    """The most zero-sum groups of ``seats``: best[mask] = the most groups a removal order
    of ``mask`` closes (a group closes each time the removed prefix sums to zero)."""
    n = len(seats)
    if n == 0:
        return []
    values = [amounts[i] for i in seats]
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    best = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
            rest ^= bit
        best[mask] = most + (sums[mask] == 0)
    removed = []  # walk back: the removal order, reversed, closes a group at each zero sum
    mask = full
    while mask:
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] + (sums[mask] == 0) == best[mask]:
                removed.append(i)
                mask ^= 1 << i
                break
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for i in reversed(removed):
        current.append(seats[i])
        running += values[i]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def round_totals(
    totals: Mapping[str, int], unit: int, absorber: str | None = None
) -> tuple[Rounding, dict[str, int]]:
    """Round zero-sum ``totals`` to multiples of ``unit``, keeping the sum at zero.

    By default by largest remainders: every total goes down to its multiple of the unit,
    then the units that leaves over go, one each, to the totals that lost the most (ties:
    the larger total, then the earlier player). Nobody moves by a unit or more, and a
    larger total never ends below a smaller one. Rounding each total to its nearest
    multiple and letting one player take the difference can move that player by several
    units — far enough to make the night's biggest winner pay.

    With an ``absorber`` named, the players agreed that one of them takes the difference:
    every other total goes to its nearest multiple (halves away from zero) and the
    absorber's is what keeps the sum at zero.

    >>> rounding, rounded = round_totals({"A": 1250, "B": -640, "C": -610}, 100)
    >>> rounded, rounding.absorbed_by
    ({'A': 1200, 'B': -600, 'C': -600}, None)
    >>> rounded = round_totals({"A": 51, "B": 50, "C": 50, "D": 50, "E": -201}, 100)[1]
    >>> rounded  # each to its nearest, A taking the rest, would leave A at -100
    {'A': 100, 'B': 100, 'C': 0, 'D': 0, 'E': -200}
    >>> rounding, rounded = round_totals({"A": 1250, "B": -640, "C": -610}, 100, "B")
    >>> rounded, rounding.remainder
    ({'A': 1300, 'B': -700, 'C': -600}, -60)
    """
    if absorber is None:
        seat = {player: i for i, player in enumerate(totals)}
        floors = {player: chips // unit * unit for player, chips in totals.items()}
        spare = -sum(floors.values()) // unit  # the whole units the floors left over
        # the largest remainder first (floor − total is minus it), then the larger total
        ranked = sorted(totals, key=lambda p: (floors[p] - totals[p], -totals[p], seat[p]))
        for player in ranked[:spare]:
            floors[player] += unit
        return Rounding(unit, dict(totals), None, 0), floors
    rounded = {}
    for player, chips in totals.items():
        if player != absorber:
            units, rest = divmod(abs(chips), unit)
            magnitude = (units + (2 * rest >= unit)) * unit
            rounded[player] = magnitude if chips >= 0 else -magnitude
    rounded[absorber] = -sum(rounded.values())
    ordered = {player: rounded[player] for player in totals}
    remainder = ordered[absorber] - totals[absorber]
    return Rounding(unit, dict(totals), absorber, remainder), ordered


def _check_players(session: Session, *, readable: bool) -> None:
    problems = Problems()
    # as a new table's roster is checked (``readable``: ids a phone shows alike or as
    # nothing too)
    for i, code, detail in unreadable(session.players, strict=readable):
        problems.add(code, detail, "players", i)
    seen = set(session.players)
    if not session.players:
        problems.add("player_count", "a session needs its players", "players")
    if session.unit is not None and session.unit < 1:
        problems.add(
            "invalid_unit",
            f"unit is {session.unit}; use a positive whole number",
            "rounding",
            "unit",
        )
    if session.absorber is not None and session.absorber not in seen:
        problems.add(
            "unknown_player",
            f"absorber {quote(session.absorber)} is not a session player",
            "rounding",
            "absorber",
        )
    problems.raise_if_any(InvalidSessionError)


def _check_net(net: Mapping[str, int], players: tuple[str, ...], i: int) -> dict[str, int]:
    problems = Problems()
    for player in net:
        if player not in players:
            problems.add(
                "unknown_player",
                f"{quote(player)} is not one of the session's players ({', '.join(players)})",
                player,
            )
    total = sum(net.values())
    if total:
        problems.add(
            "net_not_zero_sum",
            f"the net map sums to {total:+d}; what some win, the others lose, so it must sum to 0",
        )
    problems.raise_if_any(InvalidSessionError)
    return dict(net)


def _check_members(players: Iterable[PlayerHand | BalancePlayer], members: tuple[str, ...]) -> None:
    problems = Problems()
    for j, player in enumerate(players):
        if player.id not in members:
            problems.add(
                "unknown_player",
                f"{player.id!r} is not one of the session's players ({', '.join(members)})",
                "players",
                j,
                "id",
            )
    problems.raise_if_any(InvalidSessionError)


def _kind(entry: Entry) -> str:
    return (
        "net"
        if isinstance(entry, NetEntry)
        else ("gostop" if isinstance(entry, GoStopEntry) else "balance")
    )
