"""A session's settlement as JSON (``POST /v1/settlements``, a table's settlement and its
share sheet): totals, the fewest transfers, the rounding said, each hand's net.

Dicts for orjson. The answers of a hand are written in :mod:`calculator.api.serialize`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from calculator.session import Rounding, SessionResult, Transfer


def transfers_json(transfers: Iterable[Transfer]) -> list[dict[str, Any]]:
    """Who pays whom to settle."""
    return [{"from": t.payer, "to": t.payee, "chips": t.chips} for t in transfers]


def _rounding_json(rounding: Rounding) -> dict[str, Any]:
    if rounding.absorbed_by is None:
        return {"unit": rounding.unit, "raw": rounding.raw, "method": "largest_remainder"}
    return {
        "unit": rounding.unit,
        "raw": rounding.raw,
        "method": "absorber",
        "absorbed_by": rounding.absorbed_by,
        "remainder": rounding.remainder,
    }


def session_json(result: SessionResult) -> dict[str, Any]:
    """The response of ``POST /v1/settlements``."""
    rounding = result.rounding
    return {
        "players": list(result.players),
        "totals": result.totals,
        "transfers": transfers_json(result.transfers),
        "rounding": None if rounding is None else _rounding_json(rounding),
        "hands": [
            {
                "index": h.position,
                "kind": h.kind,
                "net": h.net,
                "nagari_streak_after": h.nagari_streak_after,
                "void": h.void,
            }
            for h in result.hands
        ],
    }
