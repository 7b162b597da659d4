"""Every Go-Stop worked example of docs/rules.md §10 (W1–W32), under each reading it lists,
and a hand-derived case for every option no example exercises.

The cases live in tests/data/worked_examples.json and tests/data/option_cases.json with
their source; this one test runs them all through the domain (calculator.settle).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from calculator import GoStopError, GoStopRules, resolve, settle
from calculator.labels import LABELS
from calculator.options import specs
from conftest import load_data
from handbuilder import build_hand

DATA = load_data("worked_examples.json")
OPTION_CASES = load_data("option_cases.json")["cases"]
CASES = DATA["cases"] + OPTION_CASES


def _ruleset(spec: Any):
    if isinstance(spec, str):
        return resolve(spec)
    return resolve(spec["preset"], spec.get("options"))


@pytest.mark.parametrize("case", CASES, ids=[f"{c['example']}-{c['reading']}" for c in CASES])
def test_worked_example(case: dict[str, Any]) -> None:
    hand = build_hand(case["hand"])
    ruleset = _ruleset(case["ruleset"])
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(GoStopError) as caught:
            settle(hand, ruleset)
        assert expect["error"] in {issue.code for issue in caught.value.issues}
        return
    result = settle(hand, ruleset)
    players = {p.id: p for p in result.players}
    for pid, points in expect.get("points", {}).items():
        assert players[pid].points == points, pid
    for pid, items in expect.get("items", {}).items():
        assert {i.code: i.points for i in players[pid].items} == items, pid
    for pid, value in expect.get("junk_value", {}).items():
        assert players[pid].counts.junk_value == value, pid
    for pid, may_stop in expect.get("may_stop", {}).items():
        assert players[pid].may_stop is may_stop, pid
    for pid, readings in expect.get("gukjin_as", {}).items():
        assert dict(players[pid].gukjin_as) == readings, pid
    if "winner_amount" in expect:
        assert result.winner_score is not None
        assert result.winner_score.amount == expect["winner_amount"]
    if "winner_steps" in expect:
        steps = [[s.code, s.total] for s in result.winner_score.steps]
        assert steps == expect["winner_steps"]
    if "payments" in expect:
        got = Counter((p.payer, p.payee, p.points, p.reason) for p in result.payments)
        assert got == Counter(tuple(p) for p in expect["payments"])
    if "chips_priced" in expect:  # side payments priced in chips: not points × stake
        got = Counter(
            (p.payer, p.payee, p.chips, p.reason) for p in result.payments if p.priced_in == "chips"
        )
        assert got == Counter(tuple(p) for p in expect["chips_priced"])
        assert all(p.points == 0 for p in result.payments if p.priced_in == "chips")
    for payer, codes in expect.get("payment_steps", {}).items():
        payment = next(p for p in result.payments if p.payer == payer and p.reason == "stop")
        assert [s.code for s in payment.steps] == codes
    if "net" in expect:
        assert dict(result.net) == expect["net"]
    if "streak_after" in expect:
        assert result.nagari_streak_after == expect["streak_after"]
    assert sum(result.net.values()) == 0
    codes = {i.code for p in result.players for i in p.items}
    codes |= {s.code for p in result.payments for s in p.steps} | {
        p.reason for p in result.payments
    }
    codes |= {s.code for s in result.winner_score.steps} if result.winner_score else set()
    assert codes <= set(LABELS), f"codes without a Korean/English label: {codes - set(LABELS)}"


def test_every_go_stop_example_is_covered() -> None:
    """W1–W32 each have a case, or a written reason why they do not apply."""
    covered = {c["example"] for c in CASES} | set(DATA["not_applicable"])
    assert {f"W{n}" for n in range(1, 33)} <= covered


def test_every_option_is_exercised() -> None:
    """Each option of the Go-Stop rules is overridden in some case, or has its own case."""
    covered = {c["example"] for c in OPTION_CASES}
    for case in CASES:
        if isinstance(case["ruleset"], dict):
            covered |= set(case["ruleset"].get("options", {}))
    missing = {spec.name for spec in specs(GoStopRules)} - covered
    assert not missing, f"options without a test case: {sorted(missing)}"
