"""How the hand ended: the outcome, the side events and the loser liable for everyone.

The second half of :func:`calculator.table.check_table`'s checks. Problems are added to
the caller's :class:`Problems` so that one response names all of them; finding the
liable player (고박 pay-all, 역고, a named 독박) raises as soon as the flags conflict,
since no later check could make sense of them.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from calculator.errors import AmbiguousHandError, InvalidHandError, Issue, Problems
from calculator.hand import EventType, Hand, OutcomeType
from calculator.multipliers import stop_rules
from calculator.rule_choices import (
    ChongtongMode,
    FloorFour,
    GobakMode3p,
    ThreePpukMode,
    YeokgoMode,
)
from calculator.rules import GoStopRules

# compiled, ``OutcomeType.STOP`` is a read through the enum metaclass (~0.7k instructions):
# named once for find_liable, which the plain-table shortcut calls (calculator.table)
_STOP: Final = OutcomeType.STOP


def check_outcome(
    hand: Hand, rules: GoStopRules, index: dict[str, int], problems: Problems
) -> int | None:
    """Check the outcome against the players and the rules; the winner's seat, if any."""
    outcome = hand.outcome
    players = hand.players
    for i, player in enumerate(players):
        if player.yeokgo and (
            outcome is None or outcome.type is not OutcomeType.STOP or outcome.winner != player.id
        ):
            problems.add(
                "yeokgo_not_winner",
                f"yeokgo is set on {player.id!r}, who did not stop; only the winner's "
                "go can be a reverse go",
                "players",
                i,
                "yeokgo",
            )
    if outcome is None:
        return None
    kind = outcome.type
    winner: int | None = None
    if outcome.winner is not None:
        if outcome.winner not in index:
            problems.add(
                "unknown_player",
                f"winner {outcome.winner!r} is not one of the players ({', '.join(index)})",
                "outcome",
                "winner",
            )
        elif players[index[outcome.winner]].sits_out:
            problems.add(
                "winner_sits_out",
                f"winner {outcome.winner!r} sits out this hand",
                "outcome",
                "winner",
            )
        else:
            winner = index[outcome.winner]
    needs_winner = kind in (OutcomeType.STOP, OutcomeType.THREE_PPUK) or (
        kind is OutcomeType.CHONGTONG and not outcome.holders
    )
    if needs_winner and outcome.winner is None:
        problems.add("winner_required", f"a {kind} outcome names its winner", "outcome", "winner")
    if kind in (OutcomeType.NAGARI, OutcomeType.FLOOR_FOUR) and outcome.winner is not None:
        problems.add(
            "unexpected_field", f"a {kind} hand has no winner; remove winner", "outcome", "winner"
        )
    if outcome.liable is not None and kind is not OutcomeType.STOP:
        problems.add(
            "unexpected_field",
            f"liable applies to a hand that was stopped, not to {kind}",
            "outcome",
            "liable",
        )
    if outcome.holders and kind is not OutcomeType.CHONGTONG:
        problems.add(
            "unexpected_field", "holders are only for a chongtong outcome", "outcome", "holders"
        )
    if kind in (OutcomeType.CHONGTONG, OutcomeType.FLOOR_FOUR) and hand.events:
        problems.add(
            "events_without_play",
            f"a {kind} ends the hand at the deal, before any ppuk or ttadak; remove events",
            "events",
        )
    if kind is OutcomeType.CHONGTONG:
        if rules.chongtong_mode is ChongtongMode.PLAY_ON_AS_SHAKE:
            problems.add(
                "chongtong_played_on",
                "this rule set plays a 총통 on: send the hand's real outcome and count "
                "the four cards as one of the holder's shakes",
                "outcome",
                "type",
            )
        _check_holders(hand, index, problems)
    if kind is OutcomeType.THREE_PPUK and rules.three_ppuk_mode is ThreePpukMode.SIDE_PAYMENT:
        problems.add(
            "three_ppuk_played_on",
            "this rule set pays a third consecutive ppuk as a side payment and plays the "
            "hand on: list it in events as the player's second consecutive_ppuk and send "
            "the hand's real outcome (stop or nagari)",
            "outcome",
            "type",
        )
    if kind is OutcomeType.FLOOR_FOUR and rules.floor_four_of_month is FloorFour.DEALER_WINS:
        winner = _floor_four_dealer(hand, index, problems)
    if outcome.liable is not None and kind is OutcomeType.STOP:
        liable = index.get(outcome.liable)
        if liable is None:
            problems.add(
                "unknown_player",
                f"liable {outcome.liable!r} is not one of the players",
                "outcome",
                "liable",
            )
        elif outcome.liable == outcome.winner or players[liable].sits_out:
            problems.add(
                "invalid_liable",
                f"liable {outcome.liable!r} must be a player who lost the hand",
                "outcome",
                "liable",
            )
    return winner


def _floor_four_dealer(hand: Hand, index: dict[str, int], problems: Problems) -> int | None:
    """Under floor_four_of_month = dealer_wins, the dealer's seat: it collects."""
    dealer = hand.dealer
    if dealer is None or dealer not in index or hand.players[index[dealer]].sits_out:
        if dealer is None:  # an unknown dealer is reported by the table's own check
            problems.add(
                "dealer_required",
                "under floor_four_of_month = dealer_wins four of a month on the table pays "
                "the dealer as a 총통; give dealer, one of the players in the hand",
                "dealer",
            )
        elif dealer in index:
            problems.add(
                "dealer_sits_out",
                f"dealer {dealer!r} sits out, but the dealer always plays; name the dealer "
                "among the players in the hand",
                "dealer",
            )
        return None
    return index[dealer]


def _check_holders(hand: Hand, index: dict[str, int], problems: Problems) -> None:
    """Two or more 총통 holders: each a player in the hand, each with its own month."""
    outcome = hand.outcome
    assert outcome is not None
    if not outcome.holders:
        return
    if outcome.winner is not None:
        problems.add(
            "unexpected_field",
            "give the chongtong winner or its holders, not both",
            "outcome",
            "holders",
        )
    if len(outcome.holders) < 2:
        problems.add(
            "invalid_holders",
            "holders list the players when two or more were dealt a 총통; with one, "
            "name it as winner",
            "outcome",
            "holders",
        )
    seen: set[str] = set()
    for j, holder in enumerate(outcome.holders):
        if holder.player not in index or hand.players[index[holder.player]].sits_out:
            problems.add(
                "unknown_player",
                f"holder {holder.player!r} is not a player in this hand",
                "outcome",
                "holders",
                j,
                "player",
            )
        elif holder.player in seen:
            problems.add(
                "invalid_holders",
                f"{holder.player!r} is listed twice",
                "outcome",
                "holders",
                j,
                "player",
            )
        seen.add(holder.player)
        if not 1 <= holder.month <= 12:
            problems.add(
                "invalid_holders",
                f"month {holder.month} is not 1–12",
                "outcome",
                "holders",
                j,
                "month",
            )
    months = [h.month for h in outcome.holders]
    if len(set(months)) != len(months):
        problems.add(
            "invalid_holders",
            "two players cannot both hold all four cards of one month",
            "outcome",
            "holders",
        )


def check_events(
    hand: Hand,
    rules: GoStopRules,
    index: dict[str, int],
    problems: Problems,
    entering: bool = True,
) -> None:
    """Side events name players in the hand, in an order that can happen at a table.

    Under ``three_ppuk_mode: instant_win`` a player's third consecutive ppuk (first_ppuk
    and two consecutive_ppuk) ends the hand as its ``three_ppuk`` win (docs/rules.md
    §5.4): another outcome is refused (``three_ppuk_ends_hand``) — when ``entering``:
    releases before 2026-12-05 took it, and a stored hand is scored as it was then."""
    seen: Counter[tuple[str, EventType]] = Counter()
    for j, event in enumerate(hand.events):
        at = ("events", j)
        if event.player not in index:
            problems.add(
                "unknown_player", f"{event.player!r} is not one of the players", *at, "player"
            )
            continue
        if hand.players[index[event.player]].sits_out:
            problems.add(
                "event_player_sits_out",
                f"{event.player!r} sits out and cannot ppuk or ttadak",
                *at,
                "player",
            )
        seen[event.player, event.type] += 1
        count = seen[event.player, event.type]
        if event.type is EventType.CONSECUTIVE_PPUK:
            if count > 2:
                ends = (
                    "a third ppuk ends the hand (three_ppuk)"
                    if rules.three_ppuk_mode is ThreePpukMode.INSTANT_WIN
                    else "the ladder has three rungs: first_ppuk and two consecutive_ppuk"
                )
                problems.add(
                    "impossible_event",
                    f"{event.player!r} has more than two consecutive ppuk; {ends}",
                    *at,
                    "type",
                )
            elif not seen[event.player, EventType.FIRST_PPUK]:
                problems.add(
                    "impossible_event",
                    f"a consecutive ppuk follows a first-turn ppuk; list first_ppuk "
                    f"for {event.player!r} before it",
                    *at,
                    "type",
                )
        elif count > 1:
            problems.add(
                "impossible_event",
                f"{event.player!r} has {event.type} twice; a player has one first turn",
                *at,
                "type",
            )
    if entering and rules.three_ppuk_mode is ThreePpukMode.INSTANT_WIN:
        _check_three_ppuk_ended(hand, index, seen, problems)


def _check_three_ppuk_ended(
    hand: Hand,
    index: dict[str, int],
    seen: Counter[tuple[str, EventType]],
    problems: Problems,
) -> None:
    """A player whose events hold its third consecutive ppuk won the hand by it: the
    outcome must be that player's ``three_ppuk`` (a stop or a drawn hand came after the
    hand had ended). A 총통 or a floor four is refused for its events already, and a
    fourth ppuk as ``impossible_event``."""
    outcome = hand.outcome
    if outcome is None or outcome.type in (OutcomeType.CHONGTONG, OutcomeType.FLOOR_FOUR):
        return
    for player in dict.fromkeys(event.player for event in hand.events):
        if (
            player not in index
            or hand.players[index[player]].sits_out
            or not seen[player, EventType.FIRST_PPUK]
            or seen[player, EventType.CONSECUTIVE_PPUK] != 2
        ):
            continue
        if outcome.type is OutcomeType.THREE_PPUK:
            if outcome.winner == player:
                continue
            said, at = f"a three_ppuk won by {outcome.winner!r}", "winner"
        else:
            said, at = f"a {outcome.type}", "type"
        problems.add(
            "three_ppuk_ends_hand",
            f"the events give {player!r} first_ppuk and two consecutive_ppuk: its third "
            f"consecutive ppuk ended the hand (three_ppuk_mode instant_win), but the outcome "
            f'is {said}; send the outcome {{"type": "three_ppuk", "winner": "{player}"}} '
            "(or correct the events)",
            "outcome",
            at,
        )


def _go_bak_doubles(rules: GoStopRules, yeokgo: bool) -> bool:
    """Whether a losing go-caller of a three-player hand pays 고박 as its own amount ×2
    (``gobak_mode_3p: double``, or the go-caller's ×2 of 역고 ``fixed_x4``)."""
    return rules.gobak_mode_3p is GobakMode3p.DOUBLE or (
        yeokgo and rules.yeokgo_mode is YeokgoMode.FIXED_X4
    )


def _collector(problems: Problems | None) -> Problems:
    """``problems``, or a collector of find_liable's own."""
    return problems if problems is not None else Problems()


def find_liable(
    hand: Hand,
    rules: GoStopRules,
    index: dict[str, int],
    active: tuple[int, ...],
    winner: int | None,
    problems: Problems | None,
    entering: bool = True,
) -> tuple[int | None, str | None, Issue | None]:
    """The loser who pays for everyone: a go-caller (고박 pay-all, 역고) or a named 독박,
    its reason, and a ``liable_conflict`` (a loser named liable beside a losing go-caller
    whose 고박 comes first), not raised here: the settlement reports it with the problems
    of the cards and the stop (:attr:`calculator.table.Table.conflicts`); with it, nobody
    is liable. Other problems are raised at once, with those of ``problems`` (None: a
    collector of its own, made only then — the plain-table shortcut's case, which
    discards them: compiled, making one is an interpreted call of ~1.6k instructions).

    ``entering`` False (a stored hand): the conflict under a 고박 that doubles the
    caller's own amount (``gobak_mode_3p: double``, 역고 ``fixed_x4``), which releases
    before 2026-12-05 took, is not one: the named loser pays as a 독박, as it did then."""
    outcome = hand.outcome
    if outcome is None or outcome.type is not _STOP or winner is None:
        return None, None, None
    players = hand.players
    named = index.get(outcome.liable) if outcome.liable is not None else None
    callers = [i for i in active if i != winner and players[i].go_count > 0]
    yeokgo = players[winner].yeokgo
    if yeokgo:
        problems = _collector(problems)
        if rules.yeokgo_mode is YeokgoMode.OFF:
            problems.add(
                "yeokgo_not_played",
                "this rule set does not play 역고; remove yeokgo or set yeokgo_mode",
                "players",
                winner,
                "yeokgo",
            )
        elif not players[winner].go_count or not callers:
            problems.add(
                "impossible_flags",
                "a reverse go (역고) needs the winner's go after an opponent's go; "
                "set both go counts",
                "players",
                winner,
                "yeokgo",
            )
        problems.raise_if_any(InvalidHandError)
    if len(active) == 2:
        if named is not None:
            problems = _collector(problems)
            problems.add(
                "invalid_liable",
                "with two players the only loser pays anyway; remove liable",
                "outcome",
                "liable",
            )
            problems.raise_if_any(InvalidHandError)
        return None, None, None
    # read from the rule set's StopRules, natively: compiled, ``rules.gobak_mode_3p`` is
    # a generic attribute read of a dataclass and GOBAK_PAYS_ALL a look-up in another
    # module's globals (~0.25k instructions a stop)
    r = stop_rules(rules)
    reason = "yeokgo" if yeokgo and r.yeokgo_doubles else ("go_bak" if r.gobak_pays_all else None)
    if callers and named is not None and named not in callers:
        # 고박 takes precedence over a house 독박 (docs/rules.md §4.7): with a losing
        # go-caller that pays 고박, no other loser can be named liable.
        names = " and ".join(repr(players[i].id) for i in callers)
        if reason is not None:
            why = "고박 makes the first caller pay for every loser; liable must be that caller"
        elif entering and _go_bak_doubles(rules, yeokgo):
            why = (
                "고박 doubles the caller's own amount and takes precedence over a 독박; "
                "liable may name only that caller (or be left out)"
            )
        else:
            why = ""
        if why:
            detail = f"{names} called go and lost, so {why}, not {outcome.liable!r}"
            return None, None, Issue("liable_conflict", detail, ("outcome", "liable"))
    if reason is None or not callers:
        return named, ("dokbak" if named is not None else None), None
    if named is None and len(callers) > 1:
        names = " and ".join(repr(players[i].id) for i in callers)
        problems = _collector(problems)
        problems.add(
            "liable_required",
            f"{names} both called go; name the first caller in outcome.liable — it "
            "pays for every loser",
            "outcome",
            "liable",
        )
        problems.raise_if_any(AmbiguousHandError)
    return (named if named is not None else callers[0]), reason, None
