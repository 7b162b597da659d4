"""The winner's amount and each loser's own factors (docs/rules.md §3.2, §4): add, then multiply.

Each function returns the :class:`~calculator.result.Step` lines that explain the amount,
built as the arithmetic happens (the winner's with its base and amount; a loser's amount
is its last step's total).
"""

from __future__ import annotations

from typing import Final

from calculator.hand import PlayerHand
from calculator.result import Facts, Step, WinnerScore
from calculator.rule_choices import (
    GOBAK_PAYS_ALL,
    FloorFour,
    GobakMode2p,
    GobakMode3p,
    GoFormula,
    GukjinChoice,
    GukjinMode,
    GwangbakEffect,
    MeongbakMode,
    OrderOfOperations,
    PibakCount,
    ShakeThenBomb,
    YeokgoMode,
)
from calculator.rules import GoStopRules
from calculator.scoring import Score

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
_GUKJIN_CHOICE_MODE: Final = GukjinMode.CHOICE
_GOBAK_2P_DOUBLE: Final = GobakMode2p.DOUBLE

_KOREAN_POW2: Final = GoFormula.KOREAN_POW2
_SEED_ES_LINEAR: Final = GoFormula.SEED_ES_LINEAR
_SEED_RO: Final = GoFormula.SEED_RO
_TIMES_N: Final = GoFormula.TIMES_N

_COUNTS: Final = 16  # more than the cards of any category a deck holds (facts made once)


def go_multiplier(formula: GoFormula, n: int) -> int:
    """The go multiplier for ``n`` gos under ``formula`` (docs/rules.md §3.2). The +n go
    points are added before it (or not, when the multiplier applies and
    go_points_with_multiplier is off).

    A compiled function, not a table of lambdas: compiled, calling a lambda of the table
    was an interpreted call (~0.5k instructions a winner).

    >>> [go_multiplier(GoFormula.KOREAN_POW2, n) for n in range(1, 6)]
    [1, 1, 2, 4, 8]
    """
    if formula is _KOREAN_POW2:
        return 1 << (n - 2) if n >= 3 else 1  # 2 ** (n − 2)
    if formula is _SEED_ES_LINEAR:
        return n - 1 if n >= 3 else 1
    if formula is _SEED_RO:
        return 2 if n >= 4 else 1
    if formula is _TIMES_N:
        return n if n >= 2 else 1
    return 2 if n >= 3 else 1  # FLAT_DOUBLE_3PLUS


class StopRules:
    """The options that settling a stop reads, read once per rule set (:func:`stop_rules`),
    and whether a player's ``gukjin`` is read at all (the plain table's check,
    :func:`calculator.table.check_table`, and a compared rule set's, in settlement).

    Compiled, ``rules.option`` on the rules dataclass is a generic attribute read (~160
    instructions, about twenty a hand); a field of this class, compiled here, is read from
    its struct. Derived from the rules alone and never changed: a cache, not a record."""

    def __init__(self, rules: GoStopRules) -> None:
        self.rules = rules
        self.shake_first = rules.order_of_operations is _SHAKE_BEFORE_GO
        self.go_formula: GoFormula = rules.go_formula
        self.go_points_with_multiplier: bool = rules.go_points_with_multiplier
        self.yeokgo_fixed_x4 = rules.yeokgo_mode is _YEOKGO_FIXED_X4
        self.yeokgo_doubles = rules.yeokgo_mode is _YEOKGO_DOUBLE_AND_DOKBAK
        self.shake_cap: int | None = rules.shake_cap
        self.shake_multiplier: int = rules.shake_multiplier
        self.bomb_multiplier: int = rules.bomb_multiplier
        self.bomb_after_shake_once = rules.shake_then_bomb_same_month is _SHAKE_THEN_BOMB_ONCE
        self.meongtta_enabled: bool = rules.meongtta_enabled
        self.meongtta_threshold: int = rules.meongtta_threshold
        self.meongbak_mode: MeongbakMode = rules.meongbak_mode
        self.gwangbak_enabled: bool = rules.gwangbak_enabled
        self.gwangbak_rain_protects: bool = rules.gwangbak_rain_protects
        self.gwangbak_plus2 = rules.gwangbak_effect is _GWANGBAK_PLUS2
        self.pibak_by_cards = rules.pibak_count is _PIBAK_BY_CARDS
        self.pibak_zero_exempt: bool = rules.pibak_zero_exempt
        self.pibak_max_2p: int = rules.pibak_max_pi_2p
        self.pibak_max_3p: int = rules.pibak_max_pi_3p
        self.min_stop_2p: int = rules.min_points_to_stop_2p
        self.min_stop_3p: int = rules.min_points_to_stop_3p
        self.no_capture_exemption: bool = rules.no_capture_exemption
        self.nagari_multiplier: int = rules.nagari_multiplier
        self.nagari_stacking: bool = rules.nagari_stacking
        self.nagari_max_multiplier: int | None = rules.nagari_max_multiplier
        self.gobak_2p_double = rules.gobak_mode_2p is _GOBAK_2P_DOUBLE
        self.gobak_mode_3p: GobakMode3p = rules.gobak_mode_3p
        # the first losing go-caller pays for every loser (ending.find_liable, every stop)
        self.gobak_pays_all = rules.gobak_mode_3p in GOBAK_PAYS_ALL
        self.floor_four_of_month: FloorFour = rules.floor_four_of_month
        self.gukjin_default: GukjinChoice = rules.gukjin_default
        # whether a player's ``gukjin`` is read (the plain table's check, every hand)
        self.reads_gukjin = rules.gukjin_mode is _GUKJIN_CHOICE_MODE
        # the facts of a 피박 step for each junk count at or below each table's threshold
        # (at most 31 each), made once: facts are immutable, and a 피박 step in about
        # every other loser's payment built its three tuples, to be freed with the answer
        counted = "junk_cards" if self.pibak_by_cards else "junk_value"
        self._pi_bak_2p = _pi_bak_facts(counted, self.pibak_max_2p)
        self._pi_bak_3p = _pi_bak_facts(counted, self.pibak_max_3p)
        # and of a 멍따 step for each animal count the deck allows (the same reason)
        self._meongtta = tuple(
            (("animals", n), ("threshold", self.meongtta_threshold)) for n in range(_COUNTS)
        )

    def stop_minimum(self, active: int) -> int:
        """The stop minimum for a table of ``active`` players (4 play as 3)."""
        return self.min_stop_2p if active == 2 else self.min_stop_3p

    def pibak_threshold(self, active: int) -> int:
        """The 피박 threshold for a table of ``active`` players (4 play as 3)."""
        return self.pibak_max_2p if active == 2 else self.pibak_max_3p

    def pi_bak_facts(self, junk: int, pibak_max: int) -> Facts:
        """The facts of a 피박 step: the loser's junk, at or below ``pibak_max``."""
        if 0 <= junk <= pibak_max:
            if pibak_max == self.pibak_max_3p:
                return self._pi_bak_3p[junk]
            if pibak_max == self.pibak_max_2p:
                return self._pi_bak_2p[junk]
        counted = "junk_cards" if self.pibak_by_cards else "junk_value"
        return ((counted, junk), ("threshold", pibak_max))

    def meongtta_facts(self, animals: int) -> Facts:
        """The facts of a 멍따 step: the winner's animals and the threshold."""
        if 0 <= animals < _COUNTS:
            return self._meongtta[animals]
        return (("animals", animals), ("threshold", self.meongtta_threshold))


def _pi_bak_facts(counted: str, pibak_max: int) -> tuple[Facts, ...]:
    return tuple(((counted, junk), ("threshold", pibak_max)) for junk in range(pibak_max + 1))


# Rule sets are few and long-lived (presets.resolve caches them): keyed by the rules
# object's id, holding the object so that the id cannot be reused while the entry lives.
_STOP_RULES: Final[dict[int, StopRules]] = {}
_STOP_RULES_SIZE: Final = 256
# The last one found, in a list named Final: compiled, a module global that is assigned
# is read from the module's dict (a lookup by name, ~0.15k instructions, ~10 calls a
# hand), a Final one from a native static.
_LAST_STOP_RULES: Final[list[StopRules | None]] = [None]


def stop_rules(rules: GoStopRules) -> StopRules:
    """The :class:`StopRules` of ``rules``, built on its first use (the common case costs
    one identity test: the same rules as the last call)."""
    last = _LAST_STOP_RULES[0]
    if last is not None and last.rules is rules:
        return last
    found = _STOP_RULES.get(id(rules))
    if found is None or found.rules is not rules:
        found = StopRules(rules)
        if len(_STOP_RULES) >= _STOP_RULES_SIZE:
            _STOP_RULES.clear()  # simpler than LRU order and safe across threads
        _STOP_RULES[id(rules)] = found
    _LAST_STOP_RULES[0] = found
    return found


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
    r = stop_rules(rules)
    shake_first = r.shake_first
    if shake_first and (player.shakes or player.bombs):
        total = _shakes_and_bombs(total, player, r, steps)
    n = player.go_count
    if n:
        factor = go_multiplier(r.go_formula, n)
        go_facts_: Facts = ()
        if player.yeokgo and r.yeokgo_fixed_x4:
            factor = 4
            go_facts_ = _YEOKGO_FIXED  # the sentence says where the ×4 comes from
        if factor == 1 or r.go_points_with_multiplier:
            total += n
            steps.append(Step("go_bonus", "add", n, total, n, None, ()))
        if factor != 1:
            total *= factor
            steps.append(Step("go_multiplier", "multiply", factor, total, n, None, go_facts_))
    if not shake_first and (player.shakes or player.bombs):
        total = _shakes_and_bombs(total, player, r, steps)
    if many_animals and r.meongtta_enabled:
        total *= 2
        facts = _DECLARED if animals is None else r.meongtta_facts(animals)
        steps.append(Step("meongtta", "multiply", 2, total, None, None, facts))
    if player.yeokgo and r.yeokgo_doubles:
        total *= 2
        steps.append(Step("yeokgo", "multiply", 2, total, None, None, ()))
    if nagari_streak:
        factor = _nagari_factor(nagari_streak, r)
        if factor != 1:
            total *= factor
            steps.append(Step("nagari", "multiply", factor, total, nagari_streak, None, ()))
    return WinnerScore(base, tuple(steps), total)


def _shakes_and_bombs(total: int, player: PlayerHand, r: StopRules, steps: list[Step]) -> int:
    """Shakes then bombs, each ×factor^count (with the cap and the same-month rule)."""
    shakes = player.shakes
    facts: Facts = ()
    cap = r.shake_cap
    if cap is not None and shakes > cap:
        shakes = cap
        facts = (("shakes", player.shakes), ("cap", shakes))  # the sentence says the cap
    if shakes:
        factor = power(r.shake_multiplier, shakes)
        total *= factor
        steps.append(Step("shake", "multiply", factor, total, shakes, None, facts))
    bombs = player.bombs
    if r.bomb_after_shake_once:
        bombs -= player.bombs_after_shake  # that month already doubled as a shake
    if bombs:
        factor = power(r.bomb_multiplier, bombs)
        total *= factor
        steps.append(Step("bomb", "multiply", factor, total, bombs, None, ()))
    return total


def power(base: int, n: int) -> int:
    """``base ** n``, for the small counts a hand holds (shakes and bombs up to 12, a
    streak up to 64), by multiplying: compiled, ``**`` is a generic call on boxed
    integers (~300 instructions, in more than one stop in two). The same integers, as
    wide as they grow. A negative ``n`` (no count is) raises ValueError: ``**`` gave a
    fraction, a silent wrong amount.

    >>> [power(2, n) for n in range(4)], power(3, 2), power(10, 20) == 10**20
    ([1, 2, 4, 8], 9, True)
    >>> power(2, -1)
    Traceback (most recent call last):
    ValueError: power: a count is never negative (got -1)
    """
    if n < 0:
        raise ValueError(f"power: a count is never negative (got {n})")
    product = 1
    for _ in range(n):
        product *= base
    return product


def nagari_factor(streak: int, rules: GoStopRules) -> int:
    """The factor carried by ``streak`` consecutive drawn hands (docs/rules.md §4.9)."""
    return _nagari_factor(streak, stop_rules(rules))


def _nagari_factor(streak: int, r: StopRules) -> int:
    if not streak:
        return 1
    factor = power(r.nagari_multiplier, streak if r.nagari_stacking else 1)
    most = r.nagari_max_multiplier
    if most is not None:
        factor = min(factor, most)
    return factor


# The facts of a 광박 and a 멍박 step for the counts a deck allows, made once, at import
# (as the 피박's in StopRules, and go_facts): facts are immutable, and the 광박 of one
# payment in four (the 3-player corpus) built three tuples, to be freed with the answer.
_GWANG_BAK_FACTS: Final[tuple[tuple[Facts, ...], ...]] = tuple(
    tuple((("winner_brights", w), ("brights", h)) for h in range(_COUNTS)) for w in range(_COUNTS)
)
_MEONG_BAK_FACTS: Final[tuple[Facts, ...]] = tuple(
    (("winner_animals", w), ("animals", 0)) for w in range(_COUNTS)
)


def _gwang_bak_facts(winner_brights: int, held: int) -> Facts:
    if 0 <= winner_brights < _COUNTS and 0 <= held < _COUNTS:
        return _GWANG_BAK_FACTS[winner_brights][held]
    return (("winner_brights", winner_brights), ("brights", held))


def _meong_bak_facts(winner_animals: int) -> Facts:
    if 0 <= winner_animals < _COUNTS:
        return _MEONG_BAK_FACTS[winner_animals]
    return (("winner_animals", winner_animals), ("animals", 0))


_DECLARED: Final[Facts] = (("declared", 1),)
_YEOKGO_FIXED: Final[Facts] = (("yeokgo_fixed", 4),)
_BAKS: Final = ("gwang_bak", "pi_bak", "meong_bak")


def meongbak_triggered(winner: Score, rules: GoStopRules) -> bool:
    """Whether the winner's pile makes a loser with no animals 멍박 under ``rules``."""
    return _meongbak(winner, rules.meongbak_mode)


def _meongbak(winner: Score, mode: MeongbakMode) -> bool:
    return (
        (mode is _MEONGBAK_WINNER_SCORED_ANIMALS and winner.scored_animals)
        or (mode is _MEONGBAK_WINNER_MEONGTTA and winner.many_animals)
        or (mode is _MEONGBAK_WINNER_GODORI and winner.scored_godori)
    )


def winner_amount(amount: int) -> Step:
    """The step every loser's amount starts from: the winner's amount. One record serves
    every loser of a hand (records are immutable): one object fewer per loser to build,
    keep and collect."""
    return Step("winner_amount", "start", amount, amount, None, None, ())


def loser_owes(
    start: Step,
    winner: Score,
    loser: Score,
    rules: GoStopRules,
    *,
    pibak_max: int,
    go_bak: int,
    exempt: bool,
) -> list[Step]:
    """One loser's own amount, explained: the winner's amount (``start``, from
    :func:`winner_amount`), then the baks it owes (광박, 피박, 멍박: ×2 each, or +2 for
    a 광박 under ``gwangbak_effect: plus2``), its 고박 (×2) and the no-capture exemption
    (×0). The amount is the last step's total.

    ``pibak_max``: the table's 피박 threshold, ``hand_payment.pibak_threshold`` (the caller
    reads it once for all the losers). ``go_bak``: the loser's go count when it owes 고박
    on its own share, else 0.

    The baks are found and turned into steps here, in one pass: a list of (code, facts)
    pairs, made by one function for another to read, was two objects more to build and
    free for each loser of every hand. The steps come back as the list they were built
    in (its owner, the caller, may append to it): a tuple is made once, for the payment.
    """
    r = stop_rules(rules)
    total = start.total
    steps = [start]
    declared = loser.declared_baks
    if declared is not None:  # declared: the flags were checked against the winner
        for code in _BAKS:
            if code in declared:
                total = _bak(steps, code, total, _DECLARED, r)
    else:
        if winner.scored_brights and r.gwangbak_enabled:
            held = loser.brights or 0
            protecting = held
            if loser.rain_bright and not r.gwangbak_rain_protects:
                protecting -= 1
            if protecting == 0:
                # a declared winner (brights None) gives no count: its sentence says
                # "declared"
                facts: Facts = (
                    _DECLARED if winner.brights is None else _gwang_bak_facts(winner.brights, held)
                )
                total = _bak(steps, "gwang_bak", total, facts, r)
        if winner.scored_junk:
            junk = loser.junk_cards if r.pibak_by_cards else loser.junk_value
            if (
                junk is not None
                and junk <= pibak_max
                and not (r.pibak_zero_exempt and junk == 0)  # 면박: no junk at all escapes
            ):
                total = _bak(steps, "pi_bak", total, r.pi_bak_facts(junk, pibak_max), r)
        # (``is not None`` first: compiled, ``==`` on an int-or-None is a generic comparison)
        if loser.animals is not None and loser.animals == 0 and _meongbak(winner, r.meongbak_mode):
            facts = _DECLARED if winner.animals is None else _meong_bak_facts(winner.animals)
            total = _bak(steps, "meong_bak", total, facts, r)
    if go_bak:
        total *= 2
        steps.append(Step("go_bak", "multiply", 2, total, None, None, go_facts(go_bak)))
    if exempt:
        steps.append(Step("no_capture", "multiply", 0, 0, None, None, (("cards", 0),)))
    return steps


def _bak(steps: list[Step], code: str, total: int, facts: Facts, r: StopRules) -> int:
    """Append the step of one bak a loser owes to ``steps``; the amount after it."""
    if code == "gwang_bak" and r.gwangbak_plus2:
        total += 2
        steps.append(Step(code, "add", 2, total, None, None, facts))
    else:
        total *= 2
        steps.append(Step(code, "multiply", 2, total, None, None, facts))
    return total


_GO_FACTS: Final[tuple[Facts, ...]] = tuple((("go_count", n),) for n in range(16))


def go_facts(go_count: int) -> Facts:
    """The fact of a 고박 step: how many times the loser called go (the usual counts made
    once, at import: facts are immutable, and two tuples fewer to build and free)."""
    if 0 <= go_count < len(_GO_FACTS):
        return _GO_FACTS[go_count]
    return (("go_count", go_count),)
