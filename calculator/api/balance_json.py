"""A 120/80/60 balance hand's answer as JSON (``POST /v1/balance/hands``, a table's
balance hands): each player's card points, items and set bonuses, the balance against
the target, the chips and the fewest transfers.

A dict for orjson, shaped as the client asked (:class:`calculator.api.serialize.Shape`:
the labels' languages, the rule set echo); the echo and the labels are the ones a
Go-Stop hand's answer writes (:mod:`calculator.api.serialize`).
"""

from __future__ import annotations

from typing import Any

from calculator.api.serialize import DEFAULT_SHAPE, Shape, label_json, ruleset_json
from calculator.api.session_json import transfers_json
from calculator.balance import BalanceResult
from calculator.session import minimal_transfers


def balance_json(result: BalanceResult, shape: Shape = DEFAULT_SHAPE) -> dict[str, Any]:
    """The response of ``POST /v1/balance/hands``, shaped as the client asked."""
    langs = shape.langs
    players = []
    for p in result.players:
        players.append(
            {
                "id": p.id,
                "card_points": p.card_points,
                "items": [
                    {
                        "kind": item.kind,
                        "count": item.number,
                        "points": item.points,
                        "cards": list(item.cards),
                        "label": label_json(item.kind, langs),
                    }
                    for item in p.items
                ],
                "set_bonuses": {
                    "received": [
                        {
                            "code": b.code,
                            "from": b.payer,
                            "points": b.points,
                            "label": label_json(b.code, langs),
                        }
                        for b in p.received
                    ],
                    "given": [
                        {
                            "code": b.code,
                            "to": b.collector,
                            "points": b.points,
                            "label": label_json(b.code, langs),
                        }
                        for b in p.given
                    ],
                },
                "total": p.total,
                "balance": p.balance,
                "chips": p.chips,
            }
        )
    return {
        "ruleset": ruleset_json(result.ruleset, full=shape.full_ruleset),
        "target": result.target,
        "stake": result.stake,
        "void": result.void,
        "missing_cards": list(result.missing_cards),
        "players": players,
        "net": result.net,
        "transfers": transfers_json(() if result.void else minimal_transfers(result.net)),
    }
