"""A fixed, seeded corpus of realistic end-of-hand states, as API request bodies.

Used by the benchmarks and by the golden master (tests/golden.py). Hands are dealt from a seeded
random generator: a winner who captured about half the deck, losers with a share of the
rest, go calls, shakes, bombs and nagari streaks; piles listed as cards, or some of them
tallied. Only hands
the engine accepts are kept, so every body is a valid ``POST /v1/gostop/hands`` request.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from calculator import CARDS, GoStopError, Kind, resolve
from calculator.cards import MONTH_CARD_IDS

DEAL = (*MONTH_CARD_IDS, "bonus-a", "bonus-b")
BONUS_VALUES = {"bonus-a": 2, "bonus-b": 3}


def tally_of(cards: list[str], bonus_values: Mapping[str, int] = BONUS_VALUES) -> dict[str, Any]:
    """Count a pile as a player at the table would (a test-side count, written by hand)."""
    kinds = Counter(CARDS[c].kind for c in cards)
    has = set(cards)
    return {
        "brights": kinds[Kind.BRIGHT],
        "rain_bright": "12-bright" in has,
        "animals": kinds[Kind.ANIMAL],
        "godori": {"02-animal", "04-animal", "08-animal"} <= has,
        "ribbons": kinds[Kind.RIBBON],
        "rain_ribbon": "12-ribbon" in has,
        "hongdan": {"01-ribbon", "02-ribbon", "03-ribbon"} <= has,
        "cheongdan": {"06-ribbon", "09-ribbon", "10-ribbon"} <= has,
        "chodan": {"04-ribbon", "05-ribbon", "07-ribbon"} <= has,
        "junk_value": kinds[Kind.JUNK]
        + 2 * kinds[Kind.DOUBLE_JUNK]
        + sum(bonus_values.get(c, 0) for c in cards),
        "junk_cards": kinds[Kind.JUNK] + kinds[Kind.DOUBLE_JUNK] + kinds[Kind.BONUS],
        "double_junks": kinds[Kind.DOUBLE_JUNK],
        "has_gukjin": "09-animal" in has,
        "has_may_animal": "05-animal" in has,
    }


SITTER_HAND = 7  # a four-player deal: 7 cards each (reference/rules.md §6.1)


def _deal(rng: random.Random, players: int, modes: str) -> dict[str, Any]:
    """One hand of ``players`` (2–4): with four, three play as three do and the fourth sits
    out (광팔기), holding up to seven of the cards no one captured."""
    active = min(players, 3)
    weights = [0, 0, 0, 0, 1, 1, 2, -1] if active == 3 else [0, 0, 0, 0, 1, 1, -1, -1]
    piles: list[list[str]] = [[] for _ in range(players)]
    for card in DEAL:
        owner = rng.choice(weights)
        if owner >= 0:
            piles[owner].append(card)
        elif players == 4 and len(piles[3]) < SITTER_HAND:
            piles[3].append(card)
    seats = list(range(players))
    rng.shuffle(seats)
    body: dict[str, Any] = {
        "ruleset": "standard",
        "stake": rng.choice([1, 10, 100]),
        "nagari_streak": rng.choice([0, 0, 0, 1, 2]),
        "players": [],
    }
    for seat in seats:
        pile = piles[seat]
        rng.shuffle(pile)
        player: dict[str, Any] = {"id": f"player-{seat}"}
        if seat == 3:  # the sitter: what it holds (what it sells is counted from it)
            player["sits_out"] = True
            player["hand"] = pile
            body["players"].append(player)
            continue
        if modes == "cards" or rng.random() < 0.8:
            player["captured"] = pile
        else:
            player["tally"] = tally_of(pile)
        if seat == 0:
            player["go_count"] = rng.choice([0, 0, 1, 2, 3, 4])
            player["shakes"] = rng.choice([0, 0, 0, 1, 2])
            player["bombs"] = rng.choice([0, 0, 0, 1])
        else:
            player["go_count"] = rng.choice([0, 0, 0, 1])
        player["gukjin"] = rng.choice(["auto", "auto", "animal", "junk"])
        body["players"].append(player)
    body["outcome"] = {"type": "stop", "winner": "player-0"}
    callers = [p["id"] for p in body["players"] if p["id"] != "player-0" and p.get("go_count")]
    if len(callers) > 1:
        body["outcome"]["liable"] = callers[0]
    return body


def corpus(
    size: int, *, players: int | None = None, modes: str = "mixed", seed: int = 20261202
) -> list[dict[str, Any]]:
    """``size`` valid hand request bodies, the same for the same arguments.

    ``players``: 2, 3 or 4 (one of them sitting out), else 2 or 3 at random. ``modes``:
    "cards" lists every pile; "mixed" tallies about one pile in five.
    """
    if players not in (None, 2, 3, 4):
        raise ValueError(f"players: 2, 3 or 4 (Go-Stop's tables), not {players}")
    from calculator import settle
    from calculator.api.schemas import load_hand  # the wire → domain mapping

    rng = random.Random(seed)
    ruleset = resolve("standard")
    found: list[dict[str, Any]] = []
    while len(found) < size:
        body = _deal(rng, players or rng.choice([2, 3]), modes)
        try:
            settle(load_hand(body), ruleset)
        except GoStopError:
            continue
        found.append(body)
    return found
