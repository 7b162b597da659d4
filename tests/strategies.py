"""Hypothesis strategies: random but plausible end-of-hand states."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from calculator.cards import MONTH_CARD_IDS
from calculator.rule_choices import GukjinChoice

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


def _rarely(draw: st.DrawFn) -> bool:
    """True about one time in forty: each unusual feature on its own, so that most hands
    stay plain and the plain ones still come in every shape."""
    return draw(_RARELY)


_RARELY = st.sampled_from([False] * 39 + [True])  # shrinks towards the plain False
_SOMETIMES = st.sampled_from([False] * 9 + [True])  # for the hand's own features


@st.composite
def table_hands(draw: st.DrawFn) -> Any:
    """A domain :class:`Hand` for the table checks: mostly everyday hands, each feature the
    checks look at (sitters, holders, events, a dealer, declared piles, every outcome type,
    liable players, reverse gos, odd counts) now and then."""
    from calculator.hand import (
        ChongtongHolder,
        Declared,
        Event,
        EventType,
        Hand,
        Outcome,
        OutcomeType,
        PlayerHand,
        Tally,
    )

    count = draw(st.sampled_from([2, 3, 3, 4] if not _rarely(draw) else [1, 4, 5]))
    ids = [f"P{i}" for i in range(count)]
    if _rarely(draw):
        ids[-1] = ids[0]  # a duplicate id
    modes = ["captured", "tally", "declared"]
    players = []
    for pid in ids:
        sits_out = _rarely(draw) or (count == 4 and pid == ids[-1] and not _rarely(draw))
        chosen = draw(st.sampled_from(modes)) if sits_out == _rarely(draw) else None
        extra = draw(st.sampled_from(modes)) if _rarely(draw) else None
        piles: dict[str, Any] = {}
        for mode in [m for m in modes if m in (chosen, extra)]:  # in a fixed order
            if mode == "captured":
                piles[mode] = tuple(draw(st.lists(st.sampled_from(DEAL), max_size=3, unique=True)))
            elif mode == "tally":
                piles[mode] = Tally(brights=draw(st.integers(0, 3)), junk_value=3)
            else:
                piles[mode] = Declared(
                    points=draw(st.integers(0, 9)),
                    pi_bak=draw(st.booleans()),
                    gwang_bak=_rarely(draw),
                )
        flags = sits_out == _rarely(draw)  # a sitter has no flags, but now and then
        players.append(
            PlayerHand(
                id=pid,
                **piles,
                go_count=draw(st.sampled_from([0, 0, 1, 2])) - _rarely(draw) * 3 if flags else 0,
                shakes=draw(st.integers(0, 1)) if flags else 0,
                bombs=draw(st.integers(0, 1)) if flags else 0,
                bombs_after_shake=int(_rarely(draw)),
                gukjin=draw(st.sampled_from([None, *GukjinChoice])),
                yeokgo=_rarely(draw),
                sits_out=sits_out,
                sold_brights=draw(st.integers(0, 2)) if _rarely(draw) or sits_out else None,
                hand=("01-bright",) if _rarely(draw) else None,
            )
        )
    names = [*ids, "nobody", None]
    outcome = None
    if not _rarely(draw):
        kind = draw(st.sampled_from([OutcomeType.STOP] * 6 + list(OutcomeType)))
        holders = ()
        if draw(_SOMETIMES):
            holders = tuple(
                ChongtongHolder(player=draw(st.sampled_from(ids)), month=draw(st.integers(1, 12)))
                for _ in range(draw(st.integers(1, 3)))
            )
        outcome = Outcome(
            type=kind,
            winner=draw(st.sampled_from(ids))
            if not _rarely(draw)
            else draw(st.sampled_from(names)),
            liable=draw(st.sampled_from(names)) if draw(_SOMETIMES) else None,
            holders=holders,
        )
    events = ()
    if draw(_SOMETIMES):
        events = tuple(
            Event(type=draw(st.sampled_from(EventType)), player=draw(st.sampled_from(names[:-1])))
            for _ in range(draw(st.integers(1, 3)))
        )
    return Hand(
        players=tuple(players),
        outcome=outcome,
        stake=0 if _rarely(draw) else draw(st.sampled_from([1, 100])),
        nagari_streak=-1 if _rarely(draw) else draw(st.integers(0, 2)),
        events=events,
        dealer=draw(st.sampled_from(names[:-1])) if draw(_SOMETIMES) else None,
    )
