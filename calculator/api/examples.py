"""Request examples for the OpenAPI document, the docs page and the tests.

Where a summary names a worked example of docs/rules.md §10, the example is that hand. The
document shows the engine's own response to each, computed when it is built, and the
tests load every one through both the fast loaders and marshmallow.
"""

from __future__ import annotations

from typing import Any

HAND_EXAMPLES: dict[str, dict[str, Any]] = {
    "cards_3p": {
        "summary": "Three players with cards (docs/rules.md W13): 광박 on the loser with no bright",
        "value": {
            "ruleset": "standard",
            "stake": 100,
            "players": [
                {
                    "id": "A",
                    "captured": ["01-bright", "03-bright", "08-bright", "02-junk-1", "04-junk-1"],
                },
                {"id": "B", "captured": ["12-bright", "06-junk-1", "07-junk-1"]},
                {"id": "C", "captured": ["05-junk-1", "09-junk-1"]},
            ],
            "outcome": {"type": "stop", "winner": "A"},
        },
    },
    "tally_matgo": {
        "summary": "Matgo with counts (docs/rules.md W27): 3 go, a shake, 광박 and 피박 → 192",
        "value": {
            "ruleset": {"preset": "standard", "options": {}},
            "players": [
                {
                    "id": "winner",
                    "tally": {"brights": 3, "ribbons": 5, "hongdan": True, "junk_value": 11},
                    "go_count": 3,
                    "shakes": 1,
                },
                {"id": "loser", "tally": {"animals": 2, "junk_value": 5}},
            ],
            "outcome": {"type": "stop", "winner": "winner"},
            "compare_with": ["wikipedia", "gamerules"],
        },
    },
    "declared_4p": {
        "summary": "Four players, declared points (docs/rules.md W30): 광팔기, 고박 and 첫뻑",
        "value": {
            "ruleset": {
                "preset": "standard",
                "options": {"gwangpal_price": 2, "first_ppuk_points": 1},
            },
            "stake": 100,
            "players": [
                {"id": "seller", "sits_out": True, "sold_brights": 1},
                {"id": "winner", "declared": {"points": 7, "scored": ["ribbons"]}},
                {"id": "gobak", "declared": {}, "go_count": 1},
                {"id": "loser", "declared": {}},
            ],
            "outcome": {"type": "stop", "winner": "winner"},
            "events": [{"type": "first_ppuk", "player": "winner"}],
        },
    },
    "preview": {
        "summary": "A preview: no outcome, itemized points and who may stop",
        "value": {
            "players": [
                {
                    "id": "A",
                    "captured": [
                        "02-animal",
                        "04-animal",
                        "08-animal",
                        "06-animal",
                        "07-animal",
                        "09-animal",
                    ],
                },
                {"id": "B", "captured": ["01-ribbon", "02-ribbon", "03-ribbon"]},
            ],
        },
    },
}

BALANCE_EXAMPLES: dict[str, dict[str, Any]] = {
    "three_players": {
        "summary": "Three players, target 80 (docs/rules.md W33): balances +20, −15, −5",
        "value": {
            "ruleset": "balance",
            "stake": 10,
            "players": [
                {
                    "id": "A",
                    "captured": [
                        "01-bright",
                        "01-ribbon",
                        "01-junk-1",
                        "01-junk-2",
                        "02-animal",
                        "02-ribbon",
                        "02-junk-1",
                        "02-junk-2",
                        "03-bright",
                        "03-ribbon",
                        "03-junk-1",
                        "03-junk-2",
                        "10-animal",
                        "10-ribbon",
                        "10-junk-1",
                        "10-junk-2",
                    ],
                },
                {
                    "id": "B",
                    "captured": [
                        "11-bright",
                        "11-double-junk",
                        "11-junk-1",
                        "11-junk-2",
                        "04-animal",
                        "04-ribbon",
                        "04-junk-1",
                        "04-junk-2",
                        "08-bright",
                        "08-animal",
                        "08-junk-1",
                        "08-junk-2",
                        "06-ribbon",
                        "09-ribbon",
                    ],
                },
                {
                    "id": "C",
                    "captured": [
                        "05-animal",
                        "05-ribbon",
                        "05-junk-1",
                        "05-junk-2",
                        "07-animal",
                        "07-ribbon",
                        "07-junk-1",
                        "07-junk-2",
                        "12-bright",
                        "12-animal",
                        "12-ribbon",
                        "12-double-junk",
                        "06-animal",
                        "06-junk-1",
                        "06-junk-2",
                        "09-animal",
                        "09-junk-1",
                        "09-junk-2",
                    ],
                },
            ],
        },
    },
}

SETTLEMENT_EXAMPLES: dict[str, dict[str, Any]] = {
    "nets": {
        "summary": "Two rounds given as net maps (docs/rules.md W36): A and B pay C",
        "value": {
            "players": ["A", "B", "C"],
            "hands": [{"net": {"A": 20, "B": -15, "C": -5}}, {"net": {"A": -30, "B": 10, "C": 20}}],
        },
    },
    "hands_and_rounding": {
        "summary": "Go-Stop hands scored on the fly (a nagari carried), rounded to 100",
        "value": {
            "players": ["A", "B", "C"],
            "hands": [
                {
                    "gostop": {
                        "stake": 130,
                        "players": [
                            {"id": "A", "captured": ["01-bright", "03-bright"]},
                            {"id": "B", "captured": []},
                            {"id": "C", "captured": []},
                        ],
                        "outcome": {"type": "nagari"},
                    }
                },
                {
                    "gostop": {
                        "stake": 130,
                        "players": [
                            {"id": "A", "captured": ["01-bright", "03-bright", "08-bright"]},
                            {"id": "B", "captured": ["12-bright"]},
                            {"id": "C", "captured": ["11-bright"]},
                        ],
                        "outcome": {"type": "stop", "winner": "A"},
                    }
                },
                {"net": {"A": -50, "B": 20, "C": 30}},
            ],
            "rounding": {"unit": 100},
        },
    },
}
