"""The table ledger's domain (SPEC §9): events in, state out — without a database.

Scenario tests replay a whole night per variant from tests/data/ledger_scenarios.json,
whose expected totals, streaks, dealers and changes were derived by hand; property tests
hold the invariants over random sequences of changes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import GoStopError, settle
from calculator.api.schemas import resolve_spec
from calculator.hand import OutcomeType
from calculator.ledger import (
    Ledger,
    LedgerError,
    Status,
    TooCostlyError,
    after_appends,
    appended,
    apply,
    changes,
    corrected,
    replay,
    settlement,
    start,
    tip,
)
from calculator.ledger import added as added_event
from calculator.ledger.events import (
    NEW_TABLES,
    DealerRule,
    Event,
    EventType,
    TableSetup,
    hands_about,
)
from calculator.ledger.export import hand_rows
from calculator.presets import Variant
from calculator.result import winner_of
from ledger_support import SCENARIOS, domain_hand, setup_of, step_event


def _changed(before: Ledger, after: Ledger) -> list[dict[str, Any]]:
    return [{"number": c.number, "delta": dict(c.delta)} for c in changes(before, after)]


def _check(ledger: Ledger, expect: dict[str, Any], changed: list[dict[str, Any]]) -> None:
    if "totals" in expect:
        assert dict(ledger.totals) == expect["totals"]
    if "nagari_streak" in expect:
        assert ledger.nagari_streak == expect["nagari_streak"]
    if "dealer" in expect:
        assert ledger.dealer == expect["dealer"]
    if "dealers" in expect:
        assert [h.dealer for h in ledger.hands][: len(expect["dealers"])] == expect["dealers"]
    if "changed" in expect:
        assert changed == expect["changed"]
    if "hands" in expect:
        assert len(ledger.hands) == expect["hands"]
    if "voided" in expect:
        assert [h.number for h in ledger.hands if h.status is Status.VOIDED] == expect["voided"]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_a_whole_night(scenario: dict[str, Any]) -> None:
    variant = scenario["table"]["variant"]
    ledger = start(setup_of(scenario["table"]))
    events = []
    for step in scenario["steps"]:
        event = step_event(variant, step)
        events.append(event)
        after = apply(ledger, event)
        _check(after, step.get("expect", {}), _changed(ledger, after))
        ledger = after
    _check(ledger, scenario["expect"], [])
    assert ledger.version == 1 + len(scenario["steps"])
    assert replay(ledger.setup, events) == ledger


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_each_hand_is_the_stateless_answer(scenario: dict[str, Any]) -> None:
    """A stored result is the engine's answer for the body + the table's rules and stake
    + the derived streak (and the dealer the ledger passed)."""
    from calculator.balance import score_balance

    variant = scenario["table"]["variant"]
    setup = setup_of(scenario["table"])
    ledger = replay(setup, [step_event(variant, s) for s in scenario["steps"]])
    for hand in ledger.hands:
        if variant == "gostop":
            fresh = settle(
                hand.hand._replace(  # type: ignore[union-attr]
                    stake=setup.stake, nagari_streak=hand.nagari_streak, dealer=hand.dealer
                ),
                setup.ruleset,
            )
        else:
            from dataclasses import replace

            fresh = score_balance(replace(hand.hand, stake=setup.stake), setup.ruleset)  # type: ignore[type-var]
        assert fresh == hand.result


def test_settlement_rounds_to_the_table_unit() -> None:
    scenario = SCENARIOS[0]
    table = {**scenario["table"], "rounding": {"unit": 100}}
    ledger = replay(setup_of(table), [step_event("gostop", s) for s in scenario["steps"]])
    result = settlement(roster=ledger.setup.roster, totals=ledger.totals, unit=100)
    assert sum(result.totals.values()) == 0
    assert all(chips % 100 == 0 for p, chips in result.totals.items() if p != "D")
    paid: dict[str, int] = dict.fromkeys(result.totals, 0)
    for t in result.transfers:
        paid[t.payer] -= t.chips
        paid[t.payee] += t.chips
    assert paid == result.totals
    assert len(result.transfers) <= len(result.totals) - 1


def _gostop() -> tuple[Any, list[Any]]:
    scenario = SCENARIOS[0]
    return setup_of(scenario["table"]), [s for s in scenario["steps"] if s["do"] == "add"]


def test_an_unknown_hand_says_which_hands_the_table_has() -> None:
    """No "1 to 0": a table with no hands, one hand, or several says so in English."""
    setup, adds = _gostop()
    ledger = start(setup)
    details = []
    for count in (0, 1, 2):
        if count:
            ledger = apply(
                ledger, added_event(domain_hand("gostop", adds[count - 1]["hand"]), by="s", at="t")
            )
        with pytest.raises(LedgerError) as missing:
            apply(ledger, step_event("gostop", {"do": "void", "number": 7, "reason": "x"}))
        details.append(missing.value.issues[0].detail)
    assert details == [
        "the table has no hand 7; it has no hands yet",
        "the table has no hand 7; its only hand is 1",
        "the table has no hand 7; its hands are 1 to 2",
    ]


def test_refusals_name_the_problem() -> None:
    setup, adds = _gostop()
    ledger = start(setup)
    with pytest.raises(LedgerError) as undo:
        apply(ledger, step_event("gostop", {"do": "undo"}))
    assert undo.value.issues[0].code == "nothing_to_undo"
    with pytest.raises(LedgerError) as missing:
        apply(ledger, step_event("gostop", {"do": "void", "number": 1, "reason": "x"}))
    assert missing.value.issues[0].code == "unknown_hand"
    assert missing.value.issues[0].detail == "the table has no hand 1; it has no hands yet"
    stranger = {
        "players": [{"id": "Z", "declared": {"points": 3}}, *adds[0]["hand"]["players"][1:]]
    }
    stranger["outcome"] = {"type": "stop", "winner": "Z"}
    with pytest.raises(GoStopError) as roster:
        apply(ledger, added_event(domain_hand("gostop", stranger), by="s", at="t"))
    assert next((i.code, i.location) for i in roster.value.issues) == (
        "unknown_player",
        ("players", 0, "id"),
    )
    preview = {"players": adds[0]["hand"]["players"]}
    with pytest.raises(GoStopError) as outcome:
        apply(ledger, added_event(domain_hand("gostop", preview), by="s", at="t"))
    assert outcome.value.issues[0].code == "outcome_required"
    for kind in OutcomeType:  # the message names every outcome there is
        assert kind.value in outcome.value.issues[0].detail
    one = apply(ledger, step_event("gostop", adds[0]))
    one = apply(one, step_event("gostop", {"do": "void", "number": 1, "reason": "x"}))
    with pytest.raises(LedgerError) as void_again:
        apply(one, step_event("gostop", {"do": "void", "number": 1, "reason": "x"}))
    assert void_again.value.issues[0].code == "hand_voided"
    shut = apply(one, step_event("gostop", {"do": "close"}))
    assert shut.closed
    assert not shut.can_undo
    with pytest.raises(LedgerError) as after_close:
        apply(shut, step_event("gostop", adds[0]))
    assert after_close.value.issues[0].code == "table_closed"


def test_a_new_change_ends_what_redo_could_make() -> None:
    setup, adds = _gostop()
    ledger = replay(setup, [step_event("gostop", s) for s in adds[:2]])
    ledger = apply(ledger, step_event("gostop", {"do": "undo"}))
    assert ledger.can_redo
    ledger = apply(ledger, step_event("gostop", adds[2]))
    assert not ledger.can_redo
    with pytest.raises(LedgerError):
        apply(ledger, step_event("gostop", {"do": "redo"}))


def test_undo_puts_back_what_the_edit_replaced_without_going_over_the_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Undo costs what the edit touched, not the length of the log: an import of many
    undo/redo pairs stays linear (it went over every edit again: quadratic)."""
    from calculator.ledger import state

    setup, adds = _gostop()
    ledger = replay(setup, [step_event("gostop", adds[i % len(adds)]) for i in range(30)])
    ledger = apply(ledger, step_event("gostop", {"do": "void", "number": 2, "reason": "x"}))
    edited = []
    original = state._edited

    def counting(entries: Any, edit: Any) -> Any:
        edited.append(edit)
        return original(entries, edit)

    monkeypatch.setattr(state, "_edited", counting)
    undone = apply(ledger, step_event("gostop", {"do": "undo"}))
    assert edited == []  # the voided entry's predecessor was kept, not rebuilt
    assert undone.entries[1].voided is False
    redone = apply(undone, step_event("gostop", {"do": "redo"}))
    assert len(edited) == 1
    assert redone.entries == ledger.entries
    again = apply(
        apply(redone, step_event("gostop", {"do": "undo"})), step_event("gostop", {"do": "undo"})
    )
    assert len(again.entries) == 29
    assert len(edited) == 1
    monkeypatch.undo()
    assert undone.entries == replay(setup, undone.edits).entries


def test_a_voided_hand_passes_on_the_dealer_it_was_given_not_the_one_it_names() -> None:
    """The dealer passes over a voided hand, also one that names its own dealer: B won
    hand 1, hand 2 named A as its dealer and was voided; A dealt on (the table's dealer
    and the next hand's were A), as if the voided hand still counted."""
    setup, _adds = _gostop()

    def add(winner: str | None, *players: str, **extra: Any) -> dict[str, Any]:
        hand = {
            "players": [
                {"id": p, "declared": {"points": 3} if p == winner else {}} for p in players
            ],
            "outcome": {"type": "stop", "winner": winner} if winner else {"type": "nagari"},
        }
        return {"do": "add", "hand": {**hand, **extra}}

    steps = [
        add("B", "B", "A", "C"),
        add("C", "C", "A", "B", dealer="A"),
        {"do": "void", "number": 2, "reason": "entered twice"},
        add(None, "D", "B", "E"),  # drawn: the dealer B plays it and stays
    ]
    ledger = replay(setup, [step_event("gostop", step) for step in steps])
    assert [h.dealer for h in ledger.hands] == ["A", "A", "B"]
    assert ledger.dealer == "B"
    unvoided = replay(setup, [step_event("gostop", step) for step in (steps[0], steps[3])])
    assert (unvoided.dealer, unvoided.hands[1].dealer) == ("B", "B")


def _a_wins(winner: str, sitter: str, *, sold: int = 1) -> dict[str, Any]:
    """``winner`` stops on 3 declared points; ``sitter`` sits out and sells ``sold``."""
    players: list[dict[str, Any]] = [
        {"id": p, "declared": {"points": 3} if p == winner else {}} for p in "ABCD" if p != sitter
    ]
    players.append({"id": sitter, "sits_out": True, "sold_brights": sold})
    return {"players": players, "outcome": {"type": "stop", "winner": winner}}


def test_a_voided_hand_never_refuses_a_change_before_it() -> None:
    """Hand 2 is voided; correcting hand 1 makes C the dealer of hand 2, where C sits out,
    which gwangpal_payers non_dealer_active cannot score (the dealer must play). The
    correction was refused ("correct hand 2 first", but a correction of a voided hand
    brings it back: an integrator's probe, 2026-12-07). A void counts for nothing: hand 2
    keeps the result it had, passes on the dealer C, and only bringing it back is refused
    at its new place."""
    setup = _sitter_table("A", DealerRule.WINNER, gwangpal_payers="non_dealer_active")
    steps = [
        {"do": "add", "hand": _a_wins("A", "D")},
        {"do": "add", "hand": _a_wins("A", "C")},
        {"do": "void", "number": 2, "reason": "entered at the wrong table"},
    ]
    ledger = replay(setup, [step_event("gostop", step) for step in steps])
    before = ledger.hands[1]
    fix = {"do": "correct", "number": 1, "hand": _a_wins("C", "D"), "reason": "C won"}
    ledger = apply(ledger, step_event("gostop", fix))
    kept = ledger.hands[1]
    assert (kept.status.value, kept.result, kept.played) == ("voided", before.result, before.played)
    assert (kept.streak_after, kept.dealer_after) == (0, "C")  # passed over
    assert ledger.dealer == "C"
    # hand 1 alone counts: C takes 3 × 10 from A and B, and D's sale of one bright
    assert dict(ledger.totals) == dict(ledger.hands[0].result.net)
    # the same events replayed from the log give the same table
    events = [*steps, fix]
    assert replay(setup, [step_event("gostop", step) for step in events]) == ledger
    # bringing hand 2 back as it was (a correction of a voided hand) is refused at its
    # place now: its dealer C sits out
    back = {"do": "correct", "number": 2, "hand": _a_wins("A", "C"), "reason": "back"}
    with pytest.raises(GoStopError) as refused:
        apply(ledger, step_event("gostop", back))
    assert [(i.code, i.location) for i in refused.value.issues] == [
        ("dealer_required", ("dealer",))
    ]
    # brought back as another hand (B sits out), then that taken back: hand 2 is voided
    # again, listed with its own body and result, not the correction's (a review)
    other = {"do": "correct", "number": 2, "hand": _a_wins("A", "B"), "reason": "B sat out"}
    back_again = apply(ledger, step_event("gostop", other))
    assert back_again.hands[1].status.value == "active"
    undone = apply(back_again, step_event("gostop", {"do": "undo"}))
    assert undone.hands[1] == ledger.hands[1]
    assert undone.hands[1].hand is undone.entries[1].hand
    log = [*events, other, {"do": "undo"}]
    assert replay(setup, [step_event("gostop", step) for step in log]) == undone
    # a floor four that the dealer wins, voided, then hand 1 voided: no dealer is left
    # to win hand 2, and the void of hand 1 is taken
    floor = _sitter_table("A", DealerRule.WINNER, floor_four_of_month="dealer_wins")
    draw = {
        "players": [{"id": p, "declared": {}} for p in "ABC"],
        "outcome": {"type": "floor_four"},
    }
    steps = [
        {"do": "add", "hand": _a_wins("B", "D")},
        {"do": "add", "hand": draw},
        {"do": "void", "number": 2, "reason": "misdeal"},
        {"do": "void", "number": 1, "reason": "entered twice"},
    ]
    ledger = replay(floor, [step_event("gostop", step) for step in steps])
    assert [h.status.value for h in ledger.hands] == ["voided", "voided"]
    assert dict(ledger.totals) == dict.fromkeys("ABCD", 0)


def test_a_stored_hand_whose_counts_cannot_fit_the_deck_is_scored_again_not_refused() -> None:
    """Releases before 2026-12-05 took counts and flags that cannot fit one deck (8
    ribbons and no complete set among them: at most 7). A table that stored such
    a hand still takes new hands and corrections, which score it again as it was; entered
    now, the same hand is refused."""
    setup, _adds = _gostop()

    def add(winner: str, ribbons: int) -> dict[str, Any]:
        players = [
            {"id": winner, "declared": {"points": 3}},
            {"id": "B", "tally": {"ribbons": ribbons}},
            {"id": "C" if winner != "C" else "A", "declared": {}},
        ]
        return {
            "do": "add",
            "hand": {"players": players, "outcome": {"type": "stop", "winner": winner}},
        }

    fits, old = step_event("gostop", add("A", 6)), step_event("gostop", add("C", 8))
    with pytest.raises(GoStopError) as entered:
        apply(start(setup), old)
    assert [i.code for i in entered.value.issues] == ["impossible_tally"]
    ledger = replay(setup, [fits, old], stored=True)  # as an older release stored them
    three = apply(ledger, step_event("gostop", add("A", 5)))
    assert [h.status for h in three.hands] == [Status.ACTIVE] * 3
    with pytest.raises(GoStopError):
        apply(three, step_event("gostop", add("A", 9)))  # a hand entered now is checked
    # Hand 1 a draw after all: the stored hand 2 is scored again, at a streak of 1 (×2).
    a_draw = {"players": [{"id": p, "declared": {}} for p in "ABC"], "outcome": {"type": "nagari"}}
    fixed = apply(
        three,
        step_event("gostop", {"do": "correct", "number": 1, "hand": a_draw, "reason": "drawn"}),
    )
    assert [h.nagari_streak for h in fixed.hands] == [0, 1, 0]
    assert fixed.hands[1].status is Status.ACTIVE
    # C won 3 points from A and B each at a stake of 10 (30 chips); doubled: 60
    assert changes(three, fixed)[1].delta == {"C": 60, "A": -30, "B": -30}


def test_a_change_that_takes_a_total_past_what_apps_show_exactly_is_refused() -> None:
    """Every hand's net is at most MAX_SAFE_CHIPS (2^53 − 1), and so is every total: a
    table at a stake of 10^12 reached 1.8 × 10^16 after three hands won after ten draws
    each, which its own share text could not carry (POST /v1/share/parse refused it)."""
    from calculator.settlement import MAX_SAFE_CHIPS

    setup, _adds = _gostop()
    setup = replace(setup, stake=10**12)
    players = [{"id": p, "declared": {}} for p in "ABC"]
    drawn = {"do": "add", "hand": {"players": players, "outcome": {"type": "nagari"}}}
    won = {
        "do": "add",
        "hand": {
            "players": [{"id": "A", "declared": {"points": 3}}, *players[1:]],
            "outcome": {"type": "stop", "winner": "A"},
        },
    }
    night = [drawn] * 10 + [won] + [drawn] * 10
    ledger = replay(setup, [step_event("gostop", step) for step in night])
    assert ledger.totals["A"] == 6_144 * 10**12  # 3 points × 2^10 × 10^12 from each of two
    with pytest.raises(GoStopError) as caught:
        apply(ledger, step_event("gostop", won))  # A would have 2 × 6,144 × 10^12
    assert [(i.code, i.location) for i in caught.value.issues] == [("amount_too_large", ())]
    assert f"{MAX_SAFE_CHIPS:,}" in caught.value.issues[0].detail
    # a correction too: hand 20 (after 8 draws) won by A is fine, hand 21 (9 draws) not
    fine = apply(
        ledger, step_event("gostop", {**won, "do": "correct", "number": 20, "reason": "x"})
    )
    assert fine.totals["A"] == (6_144 + 1_536) * 10**12
    with pytest.raises(GoStopError) as caught:
        apply(ledger, step_event("gostop", {**won, "do": "correct", "number": 21, "reason": "x"}))
    assert caught.value.issues[0].code == "amount_too_large"


def test_a_change_whose_rounded_settlement_passes_what_apps_show_is_refused() -> None:
    """The settlement rounds to the table's unit and its absorber takes the rounding: by
    hand, A wins 3 points from B and C at a stake of (2^53 − 1) // 6 and holds 2^53 − 2;
    B and C round to −4,503,599,627,370,500 at a unit of 100, so A would show
    9,007,199,254,741,000. The hand is refused, as one whose total itself passes."""
    from calculator.settlement import MAX_SAFE_CHIPS

    setup, _adds = _gostop()
    won = {
        "do": "add",
        "hand": {
            "players": [
                {"id": "A", "declared": {"points": 3}},
                {"id": "B", "declared": {}},
                {"id": "C", "declared": {}},
            ],
            "outcome": {"type": "stop", "winner": "A"},
        },
    }
    plain = replace(setup, stake=MAX_SAFE_CHIPS // 6)
    assert replay(plain, [step_event("gostop", won)]).totals["A"] == MAX_SAFE_CHIPS - 1
    with pytest.raises(GoStopError) as caught:
        replay(replace(plain, unit=100), [step_event("gostop", won)])
    assert [(i.code, i.location) for i in caught.value.issues] == [("amount_too_large", ())]
    assert "9,007,199,254,741,000" in caught.value.issues[0].detail


def test_a_full_table_takes_only_closing(monkeypatch: pytest.MonkeyPatch) -> None:
    from calculator.ledger import state

    monkeypatch.setattr(state, "MAX_EVENTS", 4)  # creation, two changes, closing
    setup, adds = _gostop()
    ledger = replay(setup, [step_event("gostop", adds[0]), step_event("gostop", {"do": "undo"})])
    for change in (adds[1], {"do": "redo"}, {"do": "undo"}):
        with pytest.raises(LedgerError) as full:
            apply(ledger, step_event("gostop", change))
        assert full.value.issues[0].code == "table_full"
        assert "4 events" not in full.value.issues[0].detail  # says the limit: 3 before closing
        assert "(3)" in full.value.issues[0].detail
    shut = apply(ledger, step_event("gostop", {"do": "close"}))
    assert (shut.closed, shut.version) == (True, 4)


def test_a_change_past_the_replay_cost_limit_is_refused_but_closing_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A log costs one per event and one per hand it scores (the import's measure, by
    hand): three adds 2 each (6), a correction of hand 1 scores 3 hands (+4: 10). With
    the limit at 11 (10 before closing), every change past 10 is refused — another
    correction of hand 1 (14), an add (12, also at the end alone), a void of hand 3 (12),
    an undo of the correction (14) — and closing (11) is taken."""
    from calculator.ledger import state

    monkeypatch.setattr(state, "MAX_REPLAY_COST", 11)
    setup, adds = _gostop()
    again = {"do": "correct", "number": 1, "hand": adds[0]["hand"], "reason": "r"}
    events = [step_event("gostop", step) for step in (*adds[:3], again)]
    ledger = replay(setup, events)
    assert ledger.cost == 10
    assert tip(ledger).cost == 10
    for change in (again, adds[3], {"do": "void", "number": 3, "reason": "r"}, {"do": "undo"}):
        with pytest.raises(TooCostlyError) as costly:
            apply(ledger, step_event("gostop", change))
        assert costly.value.issues[0].code == "table_too_costly"
        assert "(10)" in costly.value.issues[0].detail  # the limit before closing
        assert "close this table" in costly.value.issues[0].detail
    with pytest.raises(TooCostlyError):
        appended(tip(ledger), step_event("gostop", adds[3]))
    shut = apply(ledger, step_event("gostop", {"do": "close"}))
    assert (shut.closed, shut.cost) == (True, 11)
    # A stored log is replayed whatever it costs (written before the limit): counted only.
    monkeypatch.setattr(state, "MAX_REPLAY_COST", 5)
    with pytest.raises(TooCostlyError):
        replay(setup, events)
    assert replay(setup, events, stored=True).cost == 10
    assert after_appends(10, 3) == 16  # three stored adds at the end: 2 each


# --- properties --------------------------------------------------------------------------

_ADDS = {s["name"]: [s2 for s2 in s["steps"] if s2["do"] == "add"] for s in SCENARIOS}


@st.composite
def _actions(draw: st.DrawFn, variant: str) -> list[dict[str, Any]]:
    """Random changes: adds of the scenario's hands, corrections, voids, undo, redo."""
    hands = [s["hand"] for s in _ADDS[variant]]
    count = draw(st.integers(min_value=1, max_value=14))
    actions: list[dict[str, Any]] = []
    for _ in range(count):
        kind = draw(st.sampled_from(["add", "add", "correct", "void", "undo", "redo"]))
        number = draw(st.integers(min_value=1, max_value=8))
        hand = draw(st.sampled_from(hands))
        actions.append({"do": kind, "number": number, "hand": hand, "reason": "r"})
    return actions


def _run(variant: str, actions: list[dict[str, Any]]) -> tuple[Ledger, list[Any]]:
    """Apply what the ledger accepts; refused changes leave it as it was."""
    scenario = next(s for s in SCENARIOS if s["name"] == variant)
    ledger = start(setup_of(scenario["table"]))
    accepted = []
    for action in actions:
        event = step_event(variant, action)
        try:
            after = apply(ledger, event)
        except GoStopError:
            continue
        _invariants(after)
        accepted.append(event)
        ledger = after
    return ledger, accepted


def _invariants(ledger: Ledger) -> None:
    assert sum(ledger.totals.values()) == 0
    expected = dict.fromkeys(ledger.setup.roster, 0)
    for hand in ledger.hands:
        if hand.status is Status.ACTIVE:
            for player, chips in hand.result.net.items():
                expected[player] += chips
    assert dict(ledger.totals) == expected
    assert [h.number for h in ledger.hands] == list(range(1, len(ledger.hands) + 1))


@pytest.mark.parametrize("variant", ["gostop", "balance"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_any_sequence_of_changes_keeps_the_books(variant: str, data: st.DataObject) -> None:
    """Totals = the sum of the active hands' nets (so zero-sum) after every change, and a
    replay of the accepted events from scratch is the same state."""
    ledger, accepted = _run(variant, data.draw(_actions(variant)))
    assert replay(ledger.setup, accepted) == ledger
    # the changes in effect, entered afresh with no undo or redo, give the same hands
    fresh = replay(ledger.setup, ledger.edits)
    assert fresh.entries == ledger.entries  # undo put back exactly what each edit replaced
    assert (fresh.hands, fresh.totals, fresh.dealer) == (ledger.hands, ledger.totals, ledger.dealer)
    if accepted:  # what the last change moved is exactly the change of the totals
        before = replay(ledger.setup, accepted[:-1])
        moved = dict.fromkeys(ledger.setup.roster, 0)
        for change in changes(before, ledger):
            assert change.delta
            assert all(change.delta.values())
            for player, chips in change.delta.items():
                moved[player] += chips
        assert moved == {p: ledger.totals[p] - before.totals[p] for p in moved}


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_the_hand_each_event_is_about_is_the_one_the_ledger_changed(data: st.DataObject) -> None:
    """hands_about counts what the ledger's undo and redo stacks do, without scoring: for
    any accepted sequence of changes, each event names the hand the ledger itself
    changed — the hand an add appended, the hand a correction or void names, the hand of
    the edit undo popped or redo pushed back (added edits: the last hand)."""
    variant = "gostop"
    ledger = start(setup_of(next(s for s in SCENARIOS if s["name"] == variant)["table"]))
    _final, accepted = _run(variant, data.draw(_actions(variant)))
    expected: list[int | None] = [None]  # the created event
    for event in accepted:
        if event.type is EventType.UNDONE:
            edit, last = ledger.edits[-1], len(ledger.entries)
        elif event.type is EventType.REDONE:
            edit, last = ledger.redo[-1], len(ledger.entries) + 1
        else:
            edit, last = event, len(ledger.entries) + 1
        expected.append(last if edit.type is EventType.ADDED else edit.number)
        ledger = apply(ledger, event)
    log = [("created", None), *((e.type.value, e.number) for e in accepted)]
    assert hands_about(log) == expected


def _sitter_table(
    dealer: str, rule: DealerRule = DealerRule.BIGGEST_NET, **options: str
) -> TableSetup:
    from calculator.api.schemas import RulesetSpec

    return TableSetup(
        roster=("A", "B", "C", "D"),
        variant=Variant.GOSTOP,
        ruleset=resolve_spec(RulesetSpec("standard", options, False), Variant.GOSTOP, ()),
        stake=10,
        dealer=dealer,
        unit=None,
        dealer_rule=rule,
    )


def _sold(outcome: dict[str, Any], sold: int) -> Event:
    """A, B and C play a hand decided at the deal; D sits out and sells ``sold`` brights,
    so D nets the most of the hand (the sale) without winning it."""
    players: list[dict[str, Any]] = [{"id": p, "declared": {}} for p in "ABC"]
    players.append({"id": "D", "sits_out": True, "sold_brights": sold})
    return step_event("gostop", {"do": "add", "hand": {"players": players, "outcome": outcome}})


TIED = [{"player": "A", "month": 11}, {"player": "C", "month": 3}]


@pytest.mark.parametrize(("rule", "sale"), [(DealerRule.WINNER, 6), (DealerRule.BIGGEST_NET, 0)])
def test_a_tables_totals_are_the_same_written_live_and_replayed_from_its_log(
    rule: DealerRule, sale: int
) -> None:
    """A floor four drawn under floor_four_of_month nagari, D selling one bright (2 from
    each of A, B and C, at a stake of 10: 60), then a stop: the live writes and a replay
    of the stored log (another instance, `gostop db rebuild`) give the same table. The
    sale hung on whether the hand was being entered: paid live, dropped by the replay (a
    review, 2026-12-07). A table created before 2026-12-05 (no dealer rule recorded)
    pays none, as then."""
    setup = _sitter_table("A", rule, floor_four_of_month="nagari")
    events = [
        step_event("gostop", {"do": "add", "hand": _a_wins("A", "D")}),
        _sold({"type": "floor_four"}, 1),
        step_event("gostop", {"do": "add", "hand": _a_wins("A", "D")}),
    ]
    live = start(setup)
    for event in events:
        live = apply(live, event)
    assert replay(setup, events, stored=True) == live
    assert live.hands[1].result.net["D"] == sale * 10
    # a correction of hand 1 derives hand 2 again: its sale stays as it was entered
    fix = {"do": "correct", "number": 1, "hand": _a_wins("B", "D"), "reason": "B won"}
    fixed = apply(live, step_event("gostop", fix))
    assert fixed.hands[1].result.net == live.hands[1].result.net
    assert [c.number for c in changes(live, fixed)] == [1]  # hand 2 (and 3) unchanged


def test_a_table_stored_without_a_dealer_rule_keeps_the_old_one() -> None:
    """A created event's body (or an export) that does not record the rule: a table of
    the releases before it, which dealt to the biggest net; a new table records WINNER."""
    from calculator.api.ledger_io import dealer_rule_of

    assert dealer_rule_of({}) is DealerRule.BIGGEST_NET
    assert dealer_rule_of({"dealer_rule": None}) is DealerRule.BIGGEST_NET
    assert dealer_rule_of({"dealer_rule": "winner"}) is DealerRule.WINNER
    assert NEW_TABLES is DealerRule.WINNER
    with pytest.raises(TypeError, match="dealer_rule"):  # the domain takes no default
        TableSetup(roster=("A", "B"), variant=Variant.GOSTOP, ruleset=_sitter_table("A").ruleset)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("options", "outcome", "winner", "old", "new"),
    [
        # docs/rules.md §5.1: two holders of 총통, A (November) and the dealer C (March).
        # higher_month: November beats March, A wins; dealer: the dealer C wins; nagari: a
        # drawn hand; cancel: redealt, nothing moves (not even the sale: D nets 0). D, the
        # sitter, sells 3 brights and nets the most wherever anything moves. The old rule
        # (a table created before it was recorded) gives the deal to the biggest net, D,
        # wherever one player nets the most; the new rule to the winner the answer names,
        # the dealer C staying where there is none.
        ({"chongtong_tie": "higher_month"}, {"type": "chongtong", "holders": TIED}, "A", "D", "A"),
        ({"chongtong_tie": "dealer"}, {"type": "chongtong", "holders": TIED}, "C", "D", "C"),
        ({"chongtong_tie": "nagari"}, {"type": "chongtong", "holders": TIED}, None, "D", "C"),
        ({"chongtong_tie": "cancel"}, {"type": "chongtong", "holders": TIED}, None, "C", "C"),
        # docs/rules.md §5.2: a floor four — the dealer C wins it under dealer_wins; under
        # nagari it is a drawn hand that pays the sale on a new table, none on an old one
        # (as then: nothing moves, C stays); redeal moves nothing
        ({"floor_four_of_month": "dealer_wins"}, {"type": "floor_four"}, "C", "D", "C"),
        ({"floor_four_of_month": "nagari"}, {"type": "floor_four"}, None, "C", "C"),
        ({"floor_four_of_month": "redeal"}, {"type": "floor_four"}, None, "C", "C"),
    ],
)
def test_the_next_dealer_after_a_hand_the_rules_decide_follows_the_tables_rule(
    options: dict[str, str], outcome: dict[str, Any], winner: str | None, old: str, new: str
) -> None:
    for rule, dealer in ((DealerRule.BIGGEST_NET, old), (DealerRule.WINNER, new)):
        ledger = replay(_sitter_table("C", rule, **options), [_sold(outcome, 3)])
        (hand,) = ledger.hands
        moved = any(hand.result.net.values())
        assert not moved or max(hand.result.net, key=hand.result.net.__getitem__) == "D"
        assert winner_of(hand.result) == winner
        assert (rule, ledger.dealer) == (rule, dealer)


def _stop_with_b_selling(points: int) -> dict[str, Any]:
    """B sits out and sells 2 brights; A, C and D play; C stops with ``points`` (declared:
    no 박 named, so each loser pays points × stake)."""
    players: list[dict[str, Any]] = [
        {"id": "A", "declared": {}},
        {"id": "B", "sits_out": True, "sold_brights": 2},
        {"id": "C", "declared": {"points": points}},
        {"id": "D", "declared": {}},
    ]
    return {"players": players, "outcome": {"type": "stop", "winner": "C"}}


NIGHT_OPTIONS = {"chongtong_tie": "higher_month", "gwangpal_payers": "non_dealer_active"}
"""A night whose second hand's money depends on who deals: the sitter is paid by the two
active players other than the dealer (docs/rules.md §6.1)."""


def _night(rule: DealerRule) -> Ledger:
    """Hand 1: the tied 총통 of A (November) and C (March), A wins (higher_month); the
    dealer C plays; D sits out selling 3 brights. Hand 2: C stops with 3 points while B
    sits out selling 2 brights."""
    events = [
        _sold({"type": "chongtong", "holders": TIED}, 3),
        step_event("gostop", {"do": "add", "hand": _stop_with_b_selling(3)}),
    ]
    return replay(_sitter_table("C", rule, **NIGHT_OPTIONS), events)


# Hand 1, by hand (stake 10; three play, so the stop minimum is 3 and chongtong_points,
# null, is 3): B and C pay the winner A 3 × 10 = 30 each; D's sale is 3 brights × 2
# (gwangpal_price) × 10 = 60 from each active player but the dealer C: A and B.
#   A +60 − 60 = 0, B −30 − 60 = −90, C −30, D +120: D nets the most, A won.
HAND_1 = {"A": 0, "B": -90, "C": -30, "D": 120}
# Hand 2: A and D each pay C 3 × 10 = 30; B's sale is 2 × 2 × 10 = 40 from each active
# player but the dealer.
#   New rule, A deals (A won hand 1): C and D pay B.
#     A −30, B +80, C +60 − 40 = +20, D −30 − 40 = −70.
#   Old rule, D deals (the biggest net of hand 1): A and C pay B.
#     A −30 − 40 = −70, B +80, C +20, D −30.
HAND_2 = {
    DealerRule.WINNER: ("A", {"A": -30, "B": 80, "C": 20, "D": -70}),
    DealerRule.BIGGEST_NET: ("D", {"A": -70, "B": 80, "C": 20, "D": -30}),
}


@pytest.mark.parametrize("rule", list(DealerRule))
def test_a_night_after_a_tied_chongtong_pays_the_sale_by_the_tables_dealer(
    rule: DealerRule,
) -> None:
    ledger = _night(rule)
    first, second = ledger.hands
    dealer, net = HAND_2[rule]
    assert dict(first.result.net) == HAND_1
    assert first.dealer_after == second.dealer == dealer
    assert dict(second.result.net) == net
    assert dict(ledger.totals) == {p: HAND_1[p] + net[p] for p in "ABCD"}
    assert ledger.dealer == "C"  # C won hand 2: the same under both rules
    # the same night appended one hand at a time (the write path)
    end = tip(start(ledger.setup))
    for edit in ledger.edits:
        _hand, end = appended(end, edit)
    assert (dict(end.totals), end.dealer) == (dict(ledger.totals), ledger.dealer)


@pytest.mark.parametrize("rule", list(DealerRule))
def test_corrections_and_undo_derive_again_by_the_tables_rule(rule: DealerRule) -> None:
    """A change re-derives the hands after it with the table's own rule, not another."""
    ledger = _night(rule)
    dealer, net = HAND_2[rule]
    # correcting hand 2 (C stops with 4 points: A and D pay 40) scores it again at its
    # place, with the same dealer: only the stop's amounts move
    fixed = apply(
        ledger,
        step_event(
            "gostop",
            {"do": "correct", "number": 2, "hand": _stop_with_b_selling(4), "reason": "4"},
        ),
    )
    assert fixed.hands[1].dealer == dealer
    assert _changed(ledger, fixed) == [{"number": 2, "delta": {"A": -10, "C": 20, "D": -10}}]
    # undo takes the correction back, redo makes it again: the same dealers, the same money
    undone = apply(fixed, step_event("gostop", {"do": "undo"}))
    assert (undone.hands[1].dealer, dict(undone.totals)) == (dealer, dict(ledger.totals))
    redone = apply(undone, step_event("gostop", {"do": "redo"}))
    assert (redone.hands[1].dealer, dict(redone.totals)) == (dealer, dict(fixed.totals))
    # correcting hand 1 (the months were the other way round: C, November, wins the tie)
    # derives hand 2 again from it. New rule: C deals hand 2, so A and D pay B's sale —
    # A −30 − 40 = −70, B +80, C +60, D −70. Old rule: the sale still makes D the biggest
    # net of hand 1 (A and B pay C 30 and D 60 each, the dealer C no sale: A −90, B −90,
    # C +60, D +120), so D deals hand 2 as before and its amounts do not move.
    swapped = [{"player": "A", "month": 3}, {"player": "C", "month": 11}]
    hand_1 = _sold({"type": "chongtong", "holders": swapped}, 3).hand
    assert hand_1 is not None
    moved = apply(ledger, corrected(1, hand_1, reason="months", by="s", at="2026-12-05T16:00Z"))
    if rule is DealerRule.WINNER:
        assert moved.hands[1].dealer == "C"
        assert dict(moved.hands[1].result.net) == {"A": -70, "B": 80, "C": 60, "D": -70}
    else:
        assert moved.hands[1].dealer == "D"
        assert dict(moved.hands[1].result.net) == net
    assert dict(moved.hands[0].result.net) == {"A": -90, "B": -90, "C": 60, "D": 120}
    # voiding hand 1 passes on the dealer it was given (C) to hand 2, under both rules
    voided = apply(ledger, step_event("gostop", {"do": "void", "number": 1, "reason": "x"}))
    assert voided.hands[1].dealer == "C"
    # a replay from scratch is the ledger the changes left
    for changed in (fixed, undone, redone, moved, voided):
        again = replay(changed.setup, changed.edits)
        assert (dict(again.totals), again.dealer) == (dict(changed.totals), changed.dealer)
        assert [h.dealer for h in again.hands] == [h.dealer for h in changed.hands]


def test_a_floor_four_the_dealer_wins_is_named_in_its_csv_rows() -> None:
    # floor_four_of_month: dealer_wins (docs/rules.md §5.2): the dealer A wins the hand;
    # D, sitting out, sells 2 brights and nets the most. The CSV's winner column had been
    # empty: it reads the winner as the answer names it (result.winner_of), whatever the
    # table's dealer rule
    for rule in DealerRule:
        ledger = replay(
            _sitter_table("A", rule, floor_four_of_month="dealer_wins"),
            [_sold({"type": "floor_four"}, 2)],
        )
        names: dict[str, str | None] = dict.fromkeys("ABCD")
        assert {row.winner for row in hand_rows(ledger, names=names)} == {"A"}


def test_a_new_roster_refuses_ids_alike_and_an_import_takes_them() -> None:
    """Two ids a phone shows alike (spaces, composed or decomposed Hangul, invisibles) are
    refused when a table is created, and taken from an export (a table created before
    2026-12-06 may hold them: its hands were scored with them)."""
    from calculator.errors import InvalidTableError
    from calculator.ledger import check_setup
    from calculator.names import alike

    assert alike("\u1106\u1175\u11ab\u110c\u1175") == "\ubbfc\uc9c0"  # 민지
    assert alike(" \u2764\ufe0f  B ") == "\u2764 B"
    assert alike("A") != alike("a")  # two people may be A and a
    assert alike("\uff21") != alike("A")  # a full-width letter is drawn wider
    alike = replace(setup_of(SCENARIOS[0]["table"]), roster=("A", "B", "A\u00a0"), dealer=None)
    with pytest.raises(InvalidTableError) as refused:
        check_setup(alike)
    assert [(i.code, i.location) for i in refused.value.issues] == [
        ("duplicate_player", ("roster", 2))
    ]
    check_setup(alike, new=False)  # an import: as exported
    blank = replace(alike, roster=("A", "B", " \u200b "))
    with pytest.raises(InvalidTableError) as refused:
        check_setup(blank)
    assert [(i.code, i.location) for i in refused.value.issues] == [
        ("invalid_length", ("roster", 2))
    ]
    check_setup(blank, new=False)  # a table created before 2026-12-07 imports as exported
    # and settles as it was: the session check of ids is the new roster's, not an import's
    from calculator.ledger.state import settlement

    for roster in (alike.roster, blank.roster):
        totals = {roster[0]: 5, roster[1]: 0, roster[2]: -5}
        settled = settlement(roster=roster, totals=totals, unit=None)
        assert settled.transfers == ((roster[2], roster[0], 5),)
