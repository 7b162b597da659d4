"""The balance variant (docs/rules.md §7): W33–W35 and derived cases, and its invariants."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import BalanceHand, BalancePlayer, GoStopError, resolve, score_balance
from calculator.cards import MONTH_CARD_IDS
from conftest import load_data
from handbuilder import CardNamer
from tests_support import examples

CASES = load_data("balance_examples.json")["cases"]


def build_balance(players: list[dict[str, Any]], stake: int = 1) -> BalanceHand:
    namer = CardNamer()
    built = []
    for p in players:
        cards = [c for c in MONTH_CARD_IDS if int(c[:2]) in p.get("months", [])]
        namer.used.update(cards)
        cards += [namer.expand(c) for c in p.get("cards", [])]
        built.append(BalancePlayer(id=p["id"], captured=tuple(cards)))
    return BalanceHand(players=tuple(built), stake=stake)


def _ruleset(spec: Any):
    return resolve(spec) if isinstance(spec, str) else resolve(spec["preset"], spec["options"])


@pytest.mark.parametrize("case", CASES, ids=[f"{c['example']}-{c['reading']}" for c in CASES])
def test_balance_example(case: dict[str, Any]) -> None:
    hand = build_balance(case["players"])
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(GoStopError) as caught:
            score_balance(hand, _ruleset(case["ruleset"]))
        assert expect["error"] in {i.code for i in caught.value.issues}
        return
    result = score_balance(hand, _ruleset(case["ruleset"]))
    players = {p.id: p for p in result.players}
    if "target" in expect:
        assert result.target == expect["target"]
    for key in ("card_points", "total", "balance"):
        for pid, value in expect.get(key, {}).items():
            assert getattr(players[pid], key) == value, (key, pid)
    for pid, bonuses in expect.get("received", {}).items():
        got = {}
        for bonus in players[pid].received:
            got.setdefault(bonus.code, []).append(bonus.points)
        assert {code: [pts[0], len(pts)] for code, pts in got.items()} == {
            code: [points, payers] for code, points, payers in bonuses
        }
    if "void" in expect:
        assert result.void is expect["void"]
        assert list(result.missing_cards) == expect["missing_cards"]
    if "net" in expect:
        assert result.net == expect["net"]
    if not result.void:
        assert sum(p.balance for p in result.players) == 0


def test_duplicate_names_both_holders() -> None:
    hand = build_balance(
        [{"id": "A", "months": [1, 2, 3, 4, 5, 6]}, {"id": "B", "months": [6, 7, 8, 9, 10, 11, 12]}]
    )
    with pytest.raises(GoStopError) as caught:
        score_balance(hand, resolve("balance"))
    issue = caught.value.issues[0]
    assert issue.location == ("players", 1, "captured", 0)
    assert "'A'" in issue.detail
    assert "'B'" in issue.detail


def test_chips_are_balance_times_stake() -> None:
    hand = build_balance(
        [{"id": "A", "months": [1, 2, 3, 4, 5, 6]}, {"id": "B", "months": [7, 8, 9, 10, 11, 12]}],
        stake=100,
    )
    result = score_balance(hand, resolve("balance"))
    assert result.net == {"A": -4000, "B": 4000}


def test_a_go_stop_rule_set_is_refused() -> None:
    with pytest.raises(GoStopError) as caught:
        score_balance(build_balance([{"id": "A"}, {"id": "B"}]), resolve("standard"))
    assert caught.value.issues[0].code == "wrong_variant"


@settings(max_examples=examples(300))
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    preset=st.sampled_from(["balance", "minhwatu"]),
)
def test_balances_always_sum_to_zero(players: int, seed: int, preset: str) -> None:
    rng = random.Random(seed)
    piles: list[list[str]] = [[] for _ in range(players)]
    for card in MONTH_CARD_IDS:
        piles[rng.randrange(players)].append(card)
    hand = BalanceHand(
        players=tuple(BalancePlayer(id=f"P{i}", captured=tuple(p)) for i, p in enumerate(piles))
    )
    result = score_balance(hand, resolve(preset))
    assert result.target == 240 // players
    assert sum(p.card_points for p in result.players) == 240
    assert sum(p.total for p in result.players) == 240
    assert sum(p.balance for p in result.players) == 0
