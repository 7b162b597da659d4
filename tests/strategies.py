"""Hypothesis strategies: random but plausible end-of-hand states."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from calculator.cards import MONTH_CARD_IDS

DEAL = (*MONTH_CARD_IDS, "bonus-a", "bonus-b")


@st.composite
def hands(draw: st.DrawFn, *, outcome: bool = True) -> dict[str, Any]:
    """A hand in the compact test format: 2 or 3 players, the first one well stocked.

    Player "P0" captures about half the deck so that it can usually stop; the others take
    a share of the rest; some cards stay uncaptured (still in hands or the stock).
    """
    count = draw(st.sampled_from([2, 3]))
    weights = [0, 0, 0, 1, -1, -1] if count == 2 else [0, 0, 0, 1, 2, -1]
    owners = draw(st.lists(st.sampled_from(weights), min_size=len(DEAL), max_size=len(DEAL)))
    players = []
    for i in range(count):
        pile = draw(st.permutations([c for c, o in zip(DEAL, owners, strict=True) if o == i]))
        players.append(
            {
                "id": f"P{i}",
                "cards": list(pile),
                "go_count": draw(st.integers(0, 4)) if i == 0 else draw(st.sampled_from([0, 0, 1])),
                "shakes": draw(st.integers(0, 2)),
                "bombs": draw(st.integers(0, 1)),
                "gukjin": draw(st.sampled_from(["auto", "animal", "junk"])),
            }
        )
    hand: dict[str, Any] = {
        "players": players,
        "nagari_streak": draw(st.integers(0, 3)),
        "stake": draw(st.sampled_from([1, 100])),
    }
    callers = [p["id"] for p in players[1:] if p["go_count"]]
    if outcome:
        hand["outcome"] = {"type": "stop", "winner": "P0"}
        if len(callers) > 1:
            hand["outcome"]["liable"] = callers[0]
    return hand


@st.composite
def house_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A hand of :func:`hands` with what the house rules of issue #16 read: runs of ppuk and
    a ttadak, a dealer, any outcome, and sometimes a fourth player who sits out holding
    some of the cards nobody captured.
    """
    hand = draw(hands())
    ids = [p["id"] for p in hand["players"]]
    if len(ids) == 3 and draw(st.booleans()):
        taken = {c for p in hand["players"] for c in p["cards"]}
        free = [c for c in DEAL if c not in taken]
        held = draw(st.lists(st.sampled_from(free), unique=True, max_size=7)) if free else []
        hand["players"].append({"id": "S", "sits_out": True, "hand": held})
    kind = draw(
        st.sampled_from(["stop", "stop", "nagari", "three_ppuk", "floor_four", "chongtong"])
    )
    events: list[dict[str, str]] = []
    if kind not in ("floor_four", "chongtong"):  # those end the hand at the deal
        for pid in draw(st.lists(st.sampled_from(ids), unique=True, max_size=len(ids))):
            run = draw(st.integers(1, 3))
            events.append({"type": "first_ppuk", "player": pid})
            events += [{"type": "consecutive_ppuk", "player": pid}] * (run - 1)
        if draw(st.booleans()):
            at = draw(st.integers(0, len(events)))
            events.insert(at, {"type": "first_ttadak", "player": draw(st.sampled_from(ids))})
    hand["events"] = events
    hand["dealer"] = draw(st.sampled_from(ids))
    if kind != "stop":
        hand["outcome"] = {"type": kind}
        if kind in ("three_ppuk", "chongtong"):
            hand["outcome"]["winner"] = draw(st.sampled_from(ids))
    return hand
