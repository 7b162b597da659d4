"""Settle one Go-Stop hand: who pays whom how many points and chips, and why.

:func:`settle` is the domain's entry point. It checks the table and the cards, places
each player's switchable animals (an explicit choice, or ``auto``: the winner takes the
reading that pays it most, then each loser the one that costs it least), scores every
pile, and turns the outcome into payments — the hand payment with its baks and
liability, then the side payments — and a ``net`` per player that sums to zero.

>>> from calculator.hand import Hand, Outcome, OutcomeType, PlayerHand
>>> from calculator.presets import resolve
>>> hand = Hand(players=(  # rules.md W13
...     PlayerHand(id="A", captured=("01-bright", "03-bright", "08-bright",
...                                  "02-junk-1", "04-junk-1")),
...     PlayerHand(id="B", captured=("12-bright", "06-junk-1", "07-junk-1")),
...     PlayerHand(id="C", captured=("05-junk-1", "09-junk-1")),
... ), outcome=Outcome(type=OutcomeType.STOP, winner="A"))
>>> result = settle(hand, resolve("standard"))
>>> [(p.payer, p.points) for p in result.payments], dict(result.net)
([('B', 3), ('C', 6)], {'A': 9, 'B': -3, 'C': -6})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from calculator import cards
from calculator.errors import GoStopError, InvalidHandError, Issue, Problems
from calculator.hand import Declared, Hand, OutcomeType
from calculator.multipliers import (
    Standing,
    baks,
    junk_measure,
    loser_owes,
    meongbak_triggered,
    nagari_factor,
    winner_score,
)
from calculator.piles import Entry, read_piles
from calculator.presets import RuleSet, Variant
from calculator.result import Counts, HandResult, Payment, PlayerResult, Step, WinnerScore
from calculator.rules import (
    ChongtongTie,
    FloorFour,
    GobakMode2p,
    GobakMode3p,
    GoStopRules,
    GukjinChoice,
    YeokgoMode,
)
from calculator.scoring import Pile, Score, score
from calculator.side import points_or_minimum, side_payments, sold_cards
from calculator.table import Table, check_table

MAX_SAFE_CHIPS = 2**53 - 1  # beyond this JSON numbers lose precision in JavaScript clients


class Comparison(NamedTuple):
    """The same hand under another rule set, and each player's net difference."""

    ruleset: RuleSet
    result: HandResult | None
    error: GoStopError | None
    difference: dict[str, int] | None  # other net − this net, per player


def settle(hand: Hand, ruleset: RuleSet) -> HandResult:
    """Score and settle ``hand`` under ``ruleset``; raise a GoStopError on bad input."""
    if ruleset.variant is not Variant.GOSTOP:
        raise InvalidHandError([_wrong_variant(ruleset)])
    rules: GoStopRules = ruleset.rules
    table = check_table(hand, rules)
    entries = read_piles(hand, rules)
    active = len(table.active)
    minimum = rules.min_points_to_stop(active)
    scores = _place_switchables(hand, rules, table, entries, minimum)
    outcome = hand.outcome
    streak = hand.nagari_streak
    payments: list[Payment] = []
    winner: WinnerScore | None = None
    streak_after = streak
    if outcome is not None:
        kind = outcome.type
        streak_after = 0
        if kind is OutcomeType.STOP:
            winner, hand_payments = _stop(hand, rules, table, scores, entries, minimum)
            payments += hand_payments
        elif kind is OutcomeType.NAGARI:
            streak_after = streak + 1
        elif kind is OutcomeType.FLOOR_FOUR:
            streak_after = streak + 1 if rules.floor_four_of_month is FloorFour.NAGARI else streak
        elif kind is OutcomeType.CHONGTONG:
            winner_seat, streak_after = _chongtong_winner(hand, rules, table)
            if winner_seat is not None:
                points = points_or_minimum(rules.chongtong_points, minimum)
                factor = nagari_factor(streak, rules) if rules.chongtong_apply_multipliers else 1
                winner, hand_payments = _instant_win(
                    hand, table, winner_seat, "chongtong", points, factor, 0
                )
                payments += hand_payments
        else:  # three ppuk
            assert table.winner is not None
            bonus = rules.three_ppuk_consecutive_bonus if _consecutive_ppuk(hand) else 0
            points = points_or_minimum(rules.three_ppuk_points, minimum)
            winner, hand_payments = _instant_win(
                hand, table, table.winner, "three_ppuk", points, 1, bonus
            )
            payments += hand_payments
        voided = kind is OutcomeType.FLOOR_FOUR or (
            kind is OutcomeType.CHONGTONG and winner is None and streak_after == streak
        )
        if not voided:
            payments += side_payments(hand, rules, table, minimum)
    net = {player.id: 0 for player in hand.players}
    stake = hand.stake
    for payment in payments:
        net[payment.payer] -= payment.chips
        net[payment.payee] += payment.chips
    assert sum(net.values()) == 0, f"payments do not balance: {net}"  # zero-sum, always
    if any(abs(chips) > MAX_SAFE_CHIPS for chips in net.values()):
        raise InvalidHandError([_too_large()])
    players = tuple(
        _player_result(hand, rules, i, entries[i], scores[i], minimum)
        for i in range(len(hand.players))
    )
    return HandResult(ruleset, outcome, stake, players, winner, tuple(payments), net, streak_after)


def compare(hand: Hand, result: HandResult, others: Iterable[RuleSet]) -> tuple[Comparison, ...]:
    """``hand`` settled under each of ``others``, with the net difference per player."""
    found = []
    for ruleset in others:
        try:
            other = settle(hand, ruleset)
        except GoStopError as error:
            found.append(Comparison(ruleset, None, error, None))
            continue
        difference = {pid: other.net[pid] - chips for pid, chips in result.net.items()}
        found.append(Comparison(ruleset, other, None, difference))
    return tuple(found)


# --- placing the switchable animals -------------------------------------------------

Scored = Score | Declared | None


def _candidates(entry: Entry, choice: GukjinChoice) -> Sequence[int]:
    """The readings (junk_bits) a player may take."""
    if not isinstance(entry, Pile) or not entry.switchable:
        return (0,)
    if choice is GukjinChoice.ANIMAL:
        return (0,)
    if choice is GukjinChoice.JUNK:
        return (entry.switchable,)
    subsets = [0]
    while subsets[-1] != entry.switchable:  # every subset, all-animal first
        subsets.append((subsets[-1] - entry.switchable) & entry.switchable)
    return subsets


def _place_switchables(
    hand: Hand, rules: GoStopRules, table: Table, entries: list[Entry], minimum: int
) -> list[Scored]:
    """Each player's score under its chosen reading (SPEC §4 ``auto``)."""
    options = [
        _candidates(entry, hand.players[i].gukjin or rules.gukjin_default)
        for i, entry in enumerate(entries)
    ]
    scores: list[Scored] = []
    for i, entry in enumerate(entries):
        if isinstance(entry, Pile):
            best = max(
                (score(entry, bits, rules) for bits in options[i]), key=lambda s: s.points
            )  # max keeps the first: the animal reading
            scores.append(best)
        else:
            scores.append(entry)
    outcome = hand.outcome
    w = table.winner
    if outcome is None or outcome.type is not OutcomeType.STOP or w is None:
        return scores
    pile = entries[w]
    best_total, best_scores = -1, scores
    for bits in options[w]:
        trial = list(scores)
        if isinstance(pile, Pile):
            trial[w] = score(pile, bits, rules)
        if _stop_points(trial[w]) < minimum:
            continue
        amount = _winner_amount(hand, rules, w, trial[w]).amount
        total = 0
        for i in table.active:
            entry = entries[i]
            if i == w:
                continue
            if isinstance(entry, Pile) and len(options[i]) > 1:
                owes = [
                    (_owe(hand, rules, table, trial, i, amount, score(entry, b, rules)), b)
                    for b in options[i]
                ]
                owed, bits_i = min(owes, key=lambda pair: pair[0])  # ties keep the animal
                trial[i] = score(entry, bits_i, rules)
            else:
                owed = _owe(hand, rules, table, trial, i, amount, trial[i])
            total += owed
        if total > best_total:  # ties keep the earlier reading: the animal
            best_total, best_scores = total, trial
    if best_total < 0:  # no reading reaches the minimum
        _check_stop(hand, w, scores[w], minimum)
    return best_scores


def _check_stop(hand: Hand, w: int, scored: Scored, minimum: int) -> None:
    points = _stop_points(scored)
    if points < minimum:
        player = hand.players[w]
        raise InvalidHandError(
            [
                _issue(
                    "below_stop_minimum",
                    f"winner {player.id!r} has {points} point(s); stopping needs at least "
                    f"{minimum} with {_active_words(hand)}",
                    "outcome",
                    "winner",
                )
            ]
        )


def _stop_points(scored: Scored) -> int:
    if isinstance(scored, Score):
        return scored.stop_points
    return scored.points if isinstance(scored, Declared) else 0


# --- the hand payment ---------------------------------------------------------------


def standing(scored: Scored, rules: GoStopRules) -> Standing:
    """What the baks read from a scored or declared pile."""
    if isinstance(scored, Score):
        return Standing(
            scored_brights=scored.scored_brights,
            scored_animals=scored.scored_animals,
            scored_godori=scored.scored_godori,
            scored_junk=scored.scored_junk,
            many_animals=scored.animals >= rules.meongtta_threshold,
            brights=scored.brights,
            rain_bright=scored.rain_bright,
            animals=scored.animals,
            junk=junk_measure(scored.junk_value, scored.junk_cards, rules),
            cards=scored.cards,
        )
    assert isinstance(scored, Declared)
    return Standing(
        scored_brights="brights" in scored.scored,
        scored_animals="animals" in scored.scored,
        scored_godori="godori" in scored.scored,
        scored_junk="junk" in scored.scored,
        many_animals=scored.meongtta,
        brights=None,
        rain_bright=False,
        animals=None,
        junk=None,
        cards=None,
        declared_baks=frozenset(
            code for code in ("gwang_bak", "pi_bak", "meong_bak") if getattr(scored, code)
        ),
        no_cards=scored.no_cards,
    )


def _winner_amount(hand: Hand, rules: GoStopRules, w: int, scored: Scored) -> WinnerScore:
    base = scored.points if isinstance(scored, Score | Declared) else 0
    return winner_score(base, hand.players[w], standing(scored, rules), rules, hand.nagari_streak)


def _go_bak(hand: Hand, rules: GoStopRules, table: Table, i: int) -> bool:
    """Whether loser ``i``'s own share carries 고박 ×2."""
    if hand.players[i].go_count == 0:
        return False
    assert table.winner is not None
    winner = hand.players[table.winner]
    if winner.yeokgo and rules.yeokgo_mode is YeokgoMode.FIXED_X4:
        return True
    if len(table.active) == 2:
        return rules.gobak_mode_2p is GobakMode2p.DOUBLE
    mode = rules.gobak_mode_3p
    if mode is GobakMode3p.DOUBLE:
        return True
    return mode is GobakMode3p.PAY_ALL_AND_DOUBLE and table.liable == i


def _owe_steps(
    hand: Hand,
    rules: GoStopRules,
    table: Table,
    scores: list[Scored],
    i: int,
    amount: int,
    scored: Scored,
) -> tuple[int, list[Step]]:
    assert table.winner is not None
    winner = standing(scores[table.winner], rules)
    loser = standing(scored, rules)
    codes = baks(winner, loser, rules, len(table.active))
    exempt = rules.no_capture_exemption and (loser.cards == 0 or loser.no_cards)
    return loser_owes(amount, codes, _go_bak(hand, rules, table, i), exempt, rules)


def _owe(
    hand: Hand,
    rules: GoStopRules,
    table: Table,
    scores: list[Scored],
    i: int,
    amount: int,
    scored: Scored,
) -> int:
    return _owe_steps(hand, rules, table, scores, i, amount, scored)[0]


def _stop(
    hand: Hand,
    rules: GoStopRules,
    table: Table,
    scores: list[Scored],
    entries: list[Entry],
    minimum: int,
) -> tuple[WinnerScore, list[Payment]]:
    w = table.winner
    assert w is not None
    _check_stop(hand, w, scores[w], minimum)
    _check_declared_baks(hand, rules, table, scores)
    winner = _winner_amount(hand, rules, w, scores[w])
    players = hand.players
    payee = players[w].id
    stake = hand.stake
    owed = {
        i: _owe_steps(hand, rules, table, scores, i, winner.amount, scores[i])
        for i in table.active
        if i != w
    }
    liable = table.liable
    payments = []
    for i, (points, steps) in owed.items():
        if liable is not None and i != liable:
            steps = [*steps, Step("covered_by", "add", -points, 0, player=players[liable].id)]
            points = 0
        elif liable is not None:
            for j, (other, _steps) in owed.items():
                if j != liable:
                    points += other
                    steps = [*steps, Step("covers", "add", other, points, player=players[j].id)]
        payments.append(Payment(players[i].id, payee, points, points * stake, "stop", tuple(steps)))
    if liable is not None:  # the liable player's payment first, then the covered ones
        payments.sort(key=lambda p: p.payer != players[liable].id)
    return winner, payments


def _check_declared_baks(
    hand: Hand, rules: GoStopRules, table: Table, scores: list[Scored]
) -> None:
    """A declared loser's bak flags must be possible under the rules and the winner's pile."""
    assert table.winner is not None
    winner = standing(scores[table.winner], rules)
    problems = Problems()
    for i in table.active:
        scored = scores[i]
        if i == table.winner or not isinstance(scored, Declared):
            continue
        checks = {
            "gwang_bak": (
                rules.gwangbak_enabled,
                winner.scored_brights,
                "the winner scored no bright combination",
            ),
            "pi_bak": (True, winner.scored_junk, "the winner scored no junk points"),
            "meong_bak": (
                rules.meongbak_mode.value != "off",
                meongbak_triggered(winner, rules),
                f"the winner does not meet meongbak_mode {rules.meongbak_mode}",
            ),
        }
        for flag, (played, triggered, why) in checks.items():
            if not getattr(scored, flag):
                continue
            if not played:
                problems.add(
                    "bak_not_played",
                    f"this rule set has no {flag}; remove the flag or change the rules",
                    "players",
                    i,
                    "declared",
                    flag,
                )
            elif not triggered:
                problems.add(
                    "bak_not_triggered", f"{flag} is set but {why}", "players", i, "declared", flag
                )
    problems.raise_if_any(InvalidHandError)


# --- instant wins ---------------------------------------------------------------------


def _chongtong_winner(hand: Hand, rules: GoStopRules, table: Table) -> tuple[int | None, int]:
    """The seat that collects for a 총통 (None if nobody does), and the streak after."""
    outcome = hand.outcome
    assert outcome is not None
    streak = hand.nagari_streak
    if not outcome.holders:
        return table.winner, 0
    tie = rules.chongtong_tie
    if tie is ChongtongTie.CANCEL:
        return None, streak
    if tie is ChongtongTie.NAGARI:
        return None, streak + 1
    if tie is ChongtongTie.HIGHER_MONTH:
        top = max(outcome.holders, key=lambda h: h.month)
        return table.seat[top.player], 0
    holders = {h.player for h in outcome.holders}
    if hand.dealer is None or hand.dealer not in holders:
        raise InvalidHandError(
            [
                _issue(
                    "dealer_required",
                    "under chongtong_tie = dealer the dealer wins a tie; "
                    "give dealer, one of the holders",
                    "dealer",
                )
            ]
        )
    return table.seat[hand.dealer], 0


def _instant_win(
    hand: Hand, table: Table, w: int, reason: str, points: int, factor: int, bonus: int
) -> tuple[WinnerScore, list[Payment]]:
    steps: list[Step] = []
    total = points
    if bonus:
        total += bonus
        steps.append(Step("consecutive_bonus", "add", bonus, total))
    if factor != 1:
        total *= factor
        steps.append(Step("nagari", "multiply", factor, total, hand.nagari_streak))
    winner = WinnerScore(points, tuple(steps), total)
    payee = hand.players[w].id
    explained = (Step(reason, "start", total, total),)
    payments = [
        Payment(hand.players[i].id, payee, total, total * hand.stake, reason, explained)
        for i in table.active
        if i != w
    ]
    return winner, payments


def _consecutive_ppuk(hand: Hand) -> bool:
    """The three_ppuk winner's three ppuk were its first three turns."""
    outcome = hand.outcome
    assert outcome is not None
    own = [e.type.value for e in hand.events if e.player == outcome.winner]
    return "first_ppuk" in own and own.count("consecutive_ppuk") == 2


# --- results ----------------------------------------------------------------------------


def _player_result(
    hand: Hand, rules: GoStopRules, i: int, entry: Entry, scored: Scored, minimum: int
) -> PlayerResult:
    player = hand.players[i]
    if player.sits_out:
        return PlayerResult(player.id, 0, (), None, {}, False, True, sold_cards(player, rules)[0])
    if isinstance(scored, Score):
        assert isinstance(entry, Pile)
        gukjin_as = {
            cards.ids_of(bit)[0]: "junk" if bit & scored.junk_bits else "animal"
            for bit in (cards.MAY_ANIMAL, cards.GUKJIN)
            if entry.switchable & bit
        }
        counts = Counts(
            scored.brights,
            scored.animals,
            scored.ribbons,
            scored.junk_value,
            scored.junk_cards,
            scored.cards,
        )
        return PlayerResult(
            player.id, scored.points, scored.items, counts, gukjin_as, scored.stop_points >= minimum
        )
    assert isinstance(scored, Declared)
    return PlayerResult(player.id, scored.points, (), None, {}, scored.points >= minimum)


def _active_words(hand: Hand) -> str:
    active = sum(1 for p in hand.players if not p.sits_out)
    return f"{active} players in the hand"


def _issue(code: str, detail: str, *location: str | int) -> Issue:
    return Issue(code, detail, location)


def _wrong_variant(ruleset: RuleSet) -> Issue:
    return _issue(
        "wrong_variant",
        f"rule set {ruleset.preset!r} scores the {ruleset.variant} variant; use a "
        "Go-Stop preset such as standard",
        "ruleset",
    )


def _too_large() -> Issue:
    return _issue(
        "amount_too_large",
        f"a player's net exceeds {MAX_SAFE_CHIPS} chips, more than apps can show "
        "exactly; check the stake, go count and nagari streak",
    )
