"""The answer's builders read records without their properties (compiled, a property is a
generic lookup): what they write must be what the properties say, on hands where each
way is taken."""

from __future__ import annotations

import orjson

from bench.corpus import corpus
from calculator import resolve, settle
from calculator.api.schemas import load_hand_request
from calculator.api.serialize import item_json, player_json
from calculator.result import HandResult

MODES = ("cards", "mixed")  # every pile listed; one in five tallied
DECLARED = {  # declared piles: no counts
    "stake": 100,
    "players": [
        {"id": "A", "declared": {"points": 7, "scored": ["junk"]}},
        {"id": "B", "declared": {"pi_bak": True}},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}


def _results() -> list[HandResult]:
    standard = resolve("standard")
    return [
        settle(load_hand_request(body).hand, standard)
        for modes in MODES
        for body in [*corpus(60, players=3, modes=modes), DECLARED]
    ]


def test_an_items_cards_are_its_property() -> None:
    """``item_json`` writes ``item.cards``, whether the item knew its IDs or only a mask."""
    known = from_mask = 0
    for result in _results():
        for player in result.players:
            for item in player.items:
                written = orjson.loads(orjson.dumps(item_json(item)))
                assert written["cards"] == list(item.cards)
                known += item.ids is not None
                from_mask += item.ids is None and item.mask != 0
    assert known  # both ways were taken
    assert from_mask


def test_a_players_counts_are_its_property() -> None:
    """``player_json`` writes ``player.counts`` (the record), or null without one."""
    counted = uncounted = 0
    for result in _results():
        for player in result.players:
            counts = player.counts
            written = player_json(player)["counts"]
            assert written == (None if counts is None else counts._asdict())
            counted += counts is not None
            uncounted += counts is None
    assert counted
    assert uncounted
