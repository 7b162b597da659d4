"""bench/corpus.py deals hands of two, three and four players (four: one sits out), each
one the service scores: the benchmarks and the golden master read it."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from bench.corpus import SITTER_HAND, corpus

BATCH = "/v1/gostop/hands/batch"


def test_a_four_player_corpus_seats_one_sitter_who_sells_what_it_holds(client: Any) -> None:
    """Each hand: four players, exactly one sitting out with at most seven cards in hand
    and no pile; every hand is scored (the client checks each answer against the
    published schema), and a sitter who holds a bright is paid for it by the others."""
    bodies = corpus(40, players=4, modes="mixed", seed=5)
    assert len(bodies) == 40
    for body in bodies:
        assert len(body["players"]) == 4
        (sitter,) = [p for p in body["players"] if p.get("sits_out")]
        assert len(sitter["hand"]) <= SITTER_HAND
        assert set(sitter) == {"id", "sits_out", "hand"}
    answer = client.post(BATCH, json={"hands": bodies}).get_json()
    assert (answer["succeeded"], answer["failed"]) == (40, 0)
    sold = [
        payment
        for entry in answer["results"]
        for payment in entry["result"]["payments"]
        if payment["reason"] == "gwangpal"
    ]
    assert sold  # some sitter held a bright: 광팔기 paid
    assert len({(p["from"], p["to"]) for p in sold}) > 1


# sha256 of each corpus's JSON (first 16 hex digits), made by bench/corpus.py before it
# dealt four players (commit 8b67eca): the benchmarks' and the golden master's hands
BEFORE_FOUR = {
    (2, "cards"): "8caba05c20ed25c1",
    (2, "mixed"): "898b95bfa38a92bd",
    (3, "cards"): "42d01061d6d601b8",
    (3, "mixed"): "7ed3e3d1f752dcf3",
    (None, "cards"): "c75a14ec2c0744f7",
    (None, "mixed"): "0a8afbb31eae6598",
}


@pytest.mark.parametrize(("players", "modes"), list(BEFORE_FOUR))
def test_two_and_three_player_deals_are_unchanged_by_the_fourth_seat(
    players: int | None, modes: str
) -> None:
    """The corpora of 2 and 3 players are the ones they were: the four-player deal draws
    nothing more from the random generator for smaller tables."""
    bodies = corpus(60, players=players, modes=modes, seed=11)
    digest = hashlib.sha256(json.dumps(bodies).encode()).hexdigest()[:16]
    assert digest == BEFORE_FOUR[players, modes]


@pytest.mark.parametrize("players", [0, 1, 5])
def test_a_table_go_stop_does_not_seat_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="2, 3 or 4"):
        corpus(1, players=players)
