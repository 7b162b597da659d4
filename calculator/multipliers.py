"""The winner's amount and each loser's own factors (docs/rules.md §3.2, §4): add, then multiply.

Each function returns the amount *and* the :class:`~calculator.result.Step` lines that
explain it, built as the arithmetic happens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from calculator.hand import PlayerHand
from calculator.result import Facts, Step, WinnerScore
from calculator.rules import (
    GoFormula,
    GoStopRules,
    GwangbakEffect,
    MeongbakMode,
    OrderOfOperations,
    PibakCount,
    ShakeThenBomb,
    YeokgoMode,
)
from calculator.scoring import Score

_new: Final = tuple.__new__  # builds a NamedTuple without the Python-level __new__ (hot path)

# Enum members named once, at import: compiled, ``YeokgoMode.FIXED_X4`` is a look-up of the
# class among the module's globals, then a read through the enum metaclass's __getattr__
# (Python 3.11), ~0.7k instructions each time (see calculator.settlement).
_SHAKE_BEFORE_GO: Final = OrderOfOperations.SHAKE_BEFORE_GO
_YEOKGO_FIXED_X4: Final = YeokgoMode.FIXED_X4
_YEOKGO_DOUBLE_AND_DOKBAK: Final = YeokgoMode.DOUBLE_AND_DOKBAK
_SHAKE_THEN_BOMB_ONCE: Final = ShakeThenBomb.ONCE
_PIBAK_BY_CARDS: Final = PibakCount.CARDS
_MEONGBAK_WINNER_SCORED_ANIMALS: Final = MeongbakMode.WINNER_SCORED_ANIMALS
_MEONGBAK_WINNER_MEONGTTA: Final = MeongbakMode.WINNER_MEONGTTA
_MEONGBAK_WINNER_GODORI: Final = MeongbakMode.WINNER_GODORI
_GWANGBAK_PLUS2: Final = GwangbakEffect.PLUS2
# The same for the records built here: a class is a look-up among the globals at each use.
_STEP: Final = Step
_WINNER_SCORE: Final = WinnerScore

# The go multiplier for n gos, per formula (docs/rules.md §3.2). The +n go points are added
# before it (or not, when the multiplier applies and go_points_with_multiplier is off).
GO_MULTIPLIERS: Final[dict[GoFormula, Callable[[int], int]]] = {
    GoFormula.KOREAN_POW2: lambda n: 2 ** (n - 2) if n >= 3 else 1,
    GoFormula.SEED_ES_LINEAR: lambda n: n - 1 if n >= 3 else 1,
    GoFormula.SEED_RO: lambda n: 2 if n >= 4 else 1,
    GoFormula.TIMES_N: lambda n: n if n >= 2 else 1,
    GoFormula.FLAT_DOUBLE_3PLUS: lambda n: 2 if n >= 3 else 1,
}


def winner_score(
    base: int,
    player: PlayerHand,
    many_animals: bool,
    rules: GoStopRules,
    nagari_streak: int,
    *,
    animals: int | None = None,
) -> WinnerScore:
    """The amount each loser starts from: base → go → shakes/bombs → 멍따 → 역고 → nagari.

    ``animals``: the winner's animal count, a fact of its 멍따 step (None: declared).

    >>> from calculator.presets import resolve
    >>> rules = resolve("standard").rules
    >>> p = PlayerHand(id="A", go_count=3, shakes=1)
    >>> w = winner_score(9, p, False, rules, 0)  # docs/rules.md W27: (9+3)×2 = 24, shaken: 48
    >>> [(step.code, step.op, step.value, step.total) for step in w.steps]
    [('go_bonus', 'add', 3, 12), ('go_multiplier', 'multiply', 2, 24), ('shake', 'multiply', 2, 48)]
    """
    steps: list[Step] = []
    total = base
    shake_first = rules.order_of_operations is _SHAKE_BEFORE_GO
    if shake_first and (player.shakes or player.bombs):
        total = _shakes_and_bombs(total, player, rules, steps)
    n = player.go_count
    if n:
        factor = GO_MULTIPLIERS[rules.go_formula](n)
        go_facts_: Facts = ()
        if player.yeokgo and rules.yeokgo_mode is _YEOKGO_FIXED_X4:
            factor = 4
            go_facts_ = _YEOKGO_FIXED  # the sentence says where the ×4 comes from
        if factor == 1 or rules.go_points_with_multiplier:
            total += n
            steps.append(_new(_STEP, ("go_bonus", "add", n, total, n, None, ())))
        if factor != 1:
            total *= factor
            steps.append(
                _new(_STEP, ("go_multiplier", "multiply", factor, total, n, None, go_facts_))
            )
    if not shake_first and (player.shakes or player.bombs):
        total = _shakes_and_bombs(total, player, rules, steps)
    if many_animals and rules.meongtta_enabled:
        total *= 2
        facts = (
            _DECLARED
            if animals is None
            else (("animals", animals), ("threshold", rules.meongtta_threshold))
        )
        steps.append(_new(_STEP, ("meongtta", "multiply", 2, total, None, None, facts)))
    if player.yeokgo and rules.yeokgo_mode is _YEOKGO_DOUBLE_AND_DOKBAK:
        total *= 2
        steps.append(_new(_STEP, ("yeokgo", "multiply", 2, total, None, None, ())))
    if nagari_streak:
        factor = nagari_factor(nagari_streak, rules)
        if factor != 1:
            total *= factor
            steps.append(
                _new(_STEP, ("nagari", "multiply", factor, total, nagari_streak, None, ()))
            )
    return _new(_WINNER_SCORE, (base, tuple(steps), total))


def _shakes_and_bombs(total: int, player: PlayerHand, rules: GoStopRules, steps: list[Step]) -> int:
    """Shakes then bombs, each ×factor^count (with the cap and the same-month rule)."""
    shakes = player.shakes
    facts: Facts = ()
    if rules.shake_cap is not None and shakes > rules.shake_cap:
        shakes = rules.shake_cap
        facts = (("shakes", player.shakes), ("cap", shakes))  # the sentence says the cap
    if shakes:
        factor: int = rules.shake_multiplier**shakes
        total *= factor
        steps.append(_new(_STEP, ("shake", "multiply", factor, total, shakes, None, facts)))
    bombs = player.bombs
    if rules.shake_then_bomb_same_month is _SHAKE_THEN_BOMB_ONCE:
        bombs -= player.bombs_after_shake  # that month already doubled as a shake
    if bombs:
        factor = rules.bomb_multiplier**bombs
        total *= factor
        steps.append(_new(_STEP, ("bomb", "multiply", factor, total, bombs, None, ())))
    return total


def nagari_factor(streak: int, rules: GoStopRules) -> int:
    """The factor carried by ``streak`` consecutive drawn hands (docs/rules.md §4.9)."""
    if not streak:
        return 1
    factor: int = rules.nagari_multiplier ** (streak if rules.nagari_stacking else 1)
    if rules.nagari_max_multiplier is not None:
        factor = min(factor, rules.nagari_max_multiplier)
    return factor


Bak = tuple[str, Facts]
"""A bak a loser owes (``gwang_bak``, ``pi_bak`` or ``meong_bak``) and the facts that
triggered it (the explanation's sentence says them): a plain pair, read only by
:func:`loser_owes`, which turns it into a step (compiled, a pair is built natively; a
named tuple costs a generic call)."""


def baks(winner: Score, loser: Score, rules: GoStopRules, pibak_max: int) -> tuple[Bak, ...]:
    """The baks this loser owes, each with what triggered it.

    ``pibak_max``: the table's 피박 threshold, ``settlement.pibak_threshold`` (the caller
    reads it once for all the losers).
    """
    if loser.declared_baks is not None:  # declared: the flags were checked against the winner
        declared = loser.declared_baks
        return tuple([(code, _DECLARED) for code in _BAKS if code in declared])
    found: list[Bak] = []
    if winner.scored_brights and rules.gwangbak_enabled:
        held = loser.brights or 0
        protecting = held
        if loser.rain_bright and not rules.gwangbak_rain_protects:
            protecting -= 1
        if protecting == 0:
            # a declared winner (brights None) gives no count: its sentence says "declared"
            facts: Facts = (
                _DECLARED
                if winner.brights is None
                else (("winner_brights", winner.brights), ("brights", held))
            )
            found.append(("gwang_bak", facts))
    if winner.scored_junk:
        by_cards = rules.pibak_count is _PIBAK_BY_CARDS
        junk = loser.junk_cards if by_cards else loser.junk_value
        if (
            junk is not None
            and junk <= pibak_max
            and not (rules.pibak_zero_exempt and junk == 0)  # 면박: no junk at all escapes
        ):
            counted = "junk_cards" if by_cards else "junk_value"
            found.append(("pi_bak", ((counted, junk), ("threshold", pibak_max))))
    if loser.animals == 0 and meongbak_triggered(winner, rules):
        facts = (
            _DECLARED
            if winner.animals is None
            else (("winner_animals", winner.animals), ("animals", 0))
        )
        found.append(("meong_bak", facts))
    return tuple(found)


_DECLARED: Final[Facts] = (("declared", 1),)
_YEOKGO_FIXED: Final[Facts] = (("yeokgo_fixed", 4),)
_BAKS: Final = ("gwang_bak", "pi_bak", "meong_bak")


def meongbak_triggered(winner: Score, rules: GoStopRules) -> bool:
    """Whether the winner's pile makes a loser with no animals 멍박 under ``rules``."""
    mode = rules.meongbak_mode
    return (
        (mode is _MEONGBAK_WINNER_SCORED_ANIMALS and winner.scored_animals)
        or (mode is _MEONGBAK_WINNER_MEONGTTA and winner.many_animals)
        or (mode is _MEONGBAK_WINNER_GODORI and winner.scored_godori)
    )


def winner_amount(amount: int) -> Step:
    """The step every loser's amount starts from: the winner's amount. One record serves
    every loser of a hand (records are immutable): one object fewer per loser to build,
    keep and collect."""
    return _new(_STEP, ("winner_amount", "start", amount, amount, None, None, ()))


def loser_owes(
    start: Step, owed: tuple[Bak, ...], go_bak: int, exempt: bool, rules: GoStopRules
) -> tuple[int, list[Step]]:
    """One loser's own amount: the winner's amount (``start``, from :func:`winner_amount`),
    then its baks and 고박 (×2 each).

    ``go_bak``: the loser's go count when it owes 고박 on its own share, else 0.
    """
    total = start.total
    steps = [start]
    for code, facts in owed:
        if code == "gwang_bak" and rules.gwangbak_effect is _GWANGBAK_PLUS2:
            total += 2
            steps.append(_new(_STEP, (code, "add", 2, total, None, None, facts)))
        else:
            total *= 2
            steps.append(_new(_STEP, (code, "multiply", 2, total, None, None, facts)))
    if go_bak:
        total *= 2
        steps.append(_new(_STEP, ("go_bak", "multiply", 2, total, None, None, go_facts(go_bak))))
    if exempt:
        total = 0
        steps.append(_new(_STEP, ("no_capture", "multiply", 0, 0, None, None, (("cards", 0),))))
    return total, steps


def go_facts(go_count: int) -> Facts:
    """The fact of a 고박 step: how many times the loser called go."""
    return (("go_count", go_count),)
