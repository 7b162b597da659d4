"""The golden-master corpus: hands of every kind, as API request bodies.

The seeded stop hands of ``bench.corpus`` (2 and 3 players, cards and tallies, go
calls, shakes, bombs, nagari streaks) and, derived from them by a seeded generator, the
rest of what a table sees: previews, drawn hands, 총통 (one holder and a tie), three
ppuk, four of a month on the floor, side events (첫뻑, 연뻑, 첫따닥), a fourth player
who sits out and sells brights, declared piles with bak flags, and a liable loser.
Each body is the same for the same seed; the snapshot test renders every answer as one
readable line (tests/test_snapshots.py).
"""

from __future__ import annotations

import copy
import random
from typing import Any

from bench.corpus import corpus

STOP_HANDS = 120
SEED = 20261203


def _ids(body: dict[str, Any]) -> list[str]:
    return [p["id"] for p in body["players"]]


def _declared(body: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same seating, every pile declared as older calculators ask for it."""
    out = copy.deepcopy(body)
    winner = out["outcome"]["winner"]
    scored = rng.sample(["brights", "animals", "ribbons", "junk", "godori"], 2)
    for player in out["players"]:
        player.pop("captured", None)
        player.pop("tally", None)
        player.pop("gukjin", None)
        if player["id"] == winner:
            player["declared"] = {"points": rng.randint(3, 12), "scored": scored}
        else:
            flags = {"pi_bak": "junk" in scored and rng.random() < 0.5}
            flags["gwang_bak"] = "brights" in scored and rng.random() < 0.5
            player["declared"] = {k: v for k, v in flags.items() if v}
    return out


def _with_sitter(body: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A three-player hand with a fourth player who sat out and sold brights."""
    if len(body["players"]) != 3:
        return None
    out = copy.deepcopy(body)
    out["players"].insert(
        rng.randrange(4), {"id": "sitter", "sits_out": True, "sold_brights": rng.randint(0, 2)}
    )
    return out


_PLAY_FLAGS = ("go_count", "shakes", "bombs", "bombs_after_shake", "yeokgo")


def _at_the_deal(base: dict[str, Any]) -> dict[str, Any]:
    """The seating of ``base`` as a hand that ended at the deal (a 총통, a floor four):
    nothing captured, nothing called, shaken or bombed (refused since 2026-12-05)."""
    out = copy.deepcopy(base)
    for player in out["players"]:
        for name in ("captured", "tally", *_PLAY_FLAGS):
            player.pop(name, None)
        player["captured"] = []
    return out


def _variants(body: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    ids = _ids(body)
    ppuk = rng.choice(ids)  # a consecutive ppuk follows the same player's first
    base = {k: v for k, v in body.items() if k != "outcome"}
    dealt = _at_the_deal(base)
    found = [
        base,  # a preview
        {**base, "outcome": {"type": "nagari"}},
        {**dealt, "outcome": {"type": "chongtong", "winner": rng.choice(ids)}},
        {
            **dealt,
            "outcome": {
                "type": "chongtong",
                "holders": [
                    {"player": ids[0], "month": rng.randint(1, 6)},
                    {"player": ids[1], "month": rng.randint(7, 12)},
                ],
            },
        },
        {**base, "outcome": {"type": "three_ppuk", "winner": rng.choice(ids)}},
        {**dealt, "outcome": {"type": "floor_four"}},
        {
            **body,
            "events": [
                {"type": "first_ppuk", "player": ppuk},
                {"type": "consecutive_ppuk", "player": ppuk},
                {"type": "first_ttadak", "player": rng.choice(ids)},
            ],
        },
        _declared(body, rng),
    ]
    losers = [i for i in ids if i != body["outcome"]["winner"]]
    if len(losers) == 2 and "liable" not in body["outcome"]:
        found.append({**body, "outcome": {**body["outcome"], "liable": rng.choice(losers)}})
    sitter = _with_sitter(body, rng)
    if sitter is not None:
        found.append(sitter)
    return found


def golden_corpus() -> list[dict[str, Any]]:
    """Every body of the golden master, in a fixed order."""
    rng = random.Random(SEED)
    stops = corpus(STOP_HANDS)
    found = list(stops)
    for body in stops[:24]:
        found += _variants(body, rng)
    return found
