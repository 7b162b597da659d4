"""The winner's amount and each loser's own factors (rules.md §3.2, §4): add, then multiply.

Each function returns the amount *and* the :class:`~calculator.result.Step` lines that
explain it, built as the arithmetic happens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from calculator.hand import PlayerHand
from calculator.result import Step, WinnerScore
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

# The go multiplier for n gos, per formula (rules.md §3.2). The +n go points are added
# before it (or not, when the multiplier applies and go_points_with_multiplier is off).
GO_MULTIPLIERS: dict[GoFormula, Callable[[int], int]] = {
    GoFormula.KOREAN_POW2: lambda n: 2 ** (n - 2) if n >= 3 else 1,
    GoFormula.SEED_ES_LINEAR: lambda n: n - 1 if n >= 3 else 1,
    GoFormula.SEED_RO: lambda n: 2 if n >= 4 else 1,
    GoFormula.TIMES_N: lambda n: n if n >= 2 else 1,
    GoFormula.FLAT_DOUBLE_3PLUS: lambda n: 2 if n >= 3 else 1,
}


class Standing(NamedTuple):
    """What the baks read from a pile, whichever way it was entered."""

    scored_brights: bool
    scored_animals: bool
    scored_godori: bool
    scored_junk: bool
    many_animals: bool  # at or above the 멍따 threshold
    brights: int | None  # None when declared
    rain_bright: bool
    animals: int | None
    junk: int | None  # junk value, or junk cards when 피박 counts cards
    cards: int | None
    declared_baks: frozenset[str] = frozenset()  # a declared loser's own bak flags
    no_cards: bool = False


def winner_score(
    base: int, player: PlayerHand, winner: Standing, rules: GoStopRules, nagari_streak: int
) -> WinnerScore:
    """The amount each loser starts from: base → go → shakes/bombs → 멍따 → 역고 → nagari.

    >>> from calculator.presets import resolve
    >>> rules = resolve("standard").rules
    >>> p = PlayerHand(id="A", go_count=3, shakes=1)
    >>> s = Standing(False, False, False, False, False, 0, False, 0, 0, 0)
    >>> w = winner_score(9, p, s, rules, 0)  # rules.md W27: (9+3)×2 = 24, shaken: 48
    >>> [(step.code, step.op, step.value, step.total) for step in w.steps]
    [('go_bonus', 'add', 3, 12), ('go_multiplier', 'multiply', 2, 24), ('shake', 'multiply', 2, 48)]
    """
    steps: list[Step] = []
    total = base

    def multiply(code: str, factor: int, times: int | None = None) -> None:
        nonlocal total
        total *= factor
        steps.append(Step(code, "multiply", factor, total, times))

    def shakes_and_bombs() -> None:
        shakes = player.shakes
        if rules.shake_cap is not None:
            shakes = min(shakes, rules.shake_cap)
        if shakes:
            multiply("shake", int(rules.shake_multiplier**shakes), shakes)
        bombs = player.bombs
        if rules.shake_then_bomb_same_month is ShakeThenBomb.ONCE:
            bombs -= player.bombs_after_shake  # that month already doubled as a shake
        if bombs:
            multiply("bomb", int(rules.bomb_multiplier**bombs), bombs)

    if rules.order_of_operations is OrderOfOperations.SHAKE_BEFORE_GO:
        shakes_and_bombs()
    n = player.go_count
    if n:
        factor = GO_MULTIPLIERS[rules.go_formula](n)
        if player.yeokgo and rules.yeokgo_mode is YeokgoMode.FIXED_X4:
            factor = 4
        if factor == 1 or rules.go_points_with_multiplier:
            total += n
            steps.append(Step("go_bonus", "add", n, total, n))
        if factor != 1:
            multiply("go_multiplier", factor, n)
    if rules.order_of_operations is OrderOfOperations.ADD_THEN_MULTIPLY:
        shakes_and_bombs()
    if rules.meongtta_enabled and winner.many_animals:
        multiply("meongtta", 2)
    if player.yeokgo and rules.yeokgo_mode is YeokgoMode.DOUBLE_AND_DOKBAK:
        multiply("yeokgo", 2)
    factor = nagari_factor(nagari_streak, rules)
    if factor != 1:
        multiply("nagari", factor, nagari_streak)
    return WinnerScore(base, tuple(steps), total)


def nagari_factor(streak: int, rules: GoStopRules) -> int:
    """The factor carried by ``streak`` consecutive drawn hands (rules.md §4.7)."""
    if not streak:
        return 1
    factor: int = rules.nagari_multiplier ** (streak if rules.nagari_stacking else 1)
    if rules.nagari_max_multiplier is not None:
        factor = min(factor, rules.nagari_max_multiplier)
    return factor


def baks(winner: Standing, loser: Standing, rules: GoStopRules, active: int) -> tuple[str, ...]:
    """The baks this loser owes: codes among ``gwang_bak``, ``pi_bak``, ``meong_bak``."""
    if loser.brights is None:  # declared: the flags were checked against the winner
        return tuple(
            code for code in ("gwang_bak", "pi_bak", "meong_bak") if code in loser.declared_baks
        )
    found = []
    if rules.gwangbak_enabled and winner.scored_brights:
        protecting = loser.brights
        if loser.rain_bright and not rules.gwangbak_rain_protects:
            protecting -= 1
        if protecting == 0:
            found.append("gwang_bak")
    junk = loser.junk
    if (
        winner.scored_junk
        and junk is not None
        and junk <= rules.pibak_max_pi(active)
        and not (rules.pibak_zero_exempt and junk == 0)  # 면박: no junk at all escapes
    ):
        found.append("pi_bak")
    if loser.animals == 0 and meongbak_triggered(winner, rules):
        found.append("meong_bak")
    return tuple(found)


def meongbak_triggered(winner: Standing, rules: GoStopRules) -> bool:
    """Whether the winner's pile makes a loser with no animals 멍박 under ``rules``."""
    mode = rules.meongbak_mode
    return (
        (mode is MeongbakMode.WINNER_SCORED_ANIMALS and winner.scored_animals)
        or (mode is MeongbakMode.WINNER_MEONGTTA and winner.many_animals)
        or (mode is MeongbakMode.WINNER_GODORI and winner.scored_godori)
    )


def loser_owes(
    amount: int, bak_codes: tuple[str, ...], go_bak: bool, exempt: bool, rules: GoStopRules
) -> tuple[int, list[Step]]:
    """One loser's own amount: the winner's amount, then its baks and 고박 (×2 each)."""
    total = amount
    steps = [Step("winner_amount", "start", amount, amount)]
    for code in bak_codes:
        if code == "gwang_bak" and rules.gwangbak_effect is GwangbakEffect.PLUS2:
            total += 2
            steps.append(Step(code, "add", 2, total))
        else:
            total *= 2
            steps.append(Step(code, "multiply", 2, total))
    if go_bak:
        total *= 2
        steps.append(Step("go_bak", "multiply", 2, total))
    if exempt:
        total = 0
        steps.append(Step("no_capture", "multiply", 0, 0))
    return total, steps


def junk_measure(junk_value: int, junk_cards: int | None, rules: GoStopRules) -> int | None:
    """What the 피박 threshold compares: the junk value, or the junk card count."""
    return junk_cards if rules.pibak_count is PibakCount.CARDS else junk_value
