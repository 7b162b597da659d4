"""The exports of this folder: tables written by the release before 2026-12-05's fixes.

Run in a checkout of that release (4e7f1e2), from its root:

    python tests/data/previous_release/make_exports.py OUT_DIR

It prints each table's totals, dealer and nagari streak as that release showed them:
tests/api/test_sharing.py (PREVIOUS_RELEASE) holds them, and checks that today's service
imports each export unchanged and takes a new hand on it.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any


def _sits_out(player: str, **more: Any) -> dict[str, Any]:
    return {"id": player, "sits_out": True, **more}


def _declared(players: str, **given: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"id": p, "declared": given.get(p, {})} for p in players]


STOP_A = {"type": "stop", "winner": "A"}
PPUKS = [
    {"type": "first_ppuk", "player": "B"},
    {"type": "consecutive_ppuk", "player": "B"},
    {"type": "consecutive_ppuk", "player": "B"},
]
TIED = [{"player": "A", "month": 11}, {"player": "C", "month": 3}]

TABLES: dict[str, tuple[dict[str, str], list[dict[str, Any]]]] = {
    # hands that checks added on 2026-12-05 refuse when entered, and a floor four played
    # as a drawn hand beside a sale (then unpaid)
    "refused_since": (
        {"floor_four_of_month": "nagari"},
        [
            {
                "players": [*_declared("ABC"), _sits_out("D", sold_brights=2)],
                "outcome": {"type": "floor_four"},
            },
            {
                "players": [
                    {
                        "id": "A",
                        "captured": [
                            *("01-bright", "03-bright", "08-bright"),
                            *("02-junk-1", "04-junk-1"),
                        ],
                        "shakes": 3,
                    },
                    {"id": "B", "captured": ["12-bright"], "go_count": 1},
                    {"id": "C", "captured": []},
                    _sits_out("D"),
                ],
                "outcome": STOP_A,
            },
            {
                "players": [
                    {"id": "A", "declared": {}},
                    {"id": "B", "captured": ["01-bright"]},
                    {"id": "C", "declared": {}},
                    _sits_out("D"),
                ],
                "outcome": {"type": "chongtong", "winner": "A"},
            },
            {
                "players": [
                    *_declared("ABC", A={"points": 9, "scored": ["brights"], "meongtta": True}),
                    _sits_out("D"),
                ],
                "outcome": STOP_A,
            },
            {
                "players": [*_declared("ABC", A={"points": 3}), _sits_out("D")],
                "events": PPUKS,
                "outcome": STOP_A,
            },
        ],
    ),
    # the deal passed to the biggest net (a sitter's sale) after a tied 총통 and a floor four
    "dealt_by_net": (
        {"floor_four_of_month": "dealer_wins", "chongtong_tie": "higher_month"},
        [
            {
                "players": [*_declared("ABC"), _sits_out("D", sold_brights=3)],
                "outcome": {"type": "chongtong", "holders": TIED},
            },
            {"players": [*_declared("BCD"), _sits_out("A")], "outcome": {"type": "floor_four"}},
        ],
    ),
}


def main(out: Path) -> None:
    os.environ["GOSTOP_DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/previous.sqlite3"
    from calculator.api import create_app

    client = create_app({"access_log": False}).test_client()
    for name, (options, hands) in TABLES.items():
        ruleset = {"preset": "standard", "options": options}
        body = {"roster": list("ABCD"), "ruleset": ruleset, "stake": 10, "dealer": "A"}
        table = client.post("/v1/tables", json=body).get_json()
        path = f"/v1/tables/{table['id']}"
        for version, hand in enumerate(hands, start=1):
            headers = {
                "Authorization": f"Bearer {table['scorer_token']}",
                "Idempotency-Key": os.urandom(12).hex(),
                "If-Match": f'"{version}"',
            }
            answer = client.post(path + "/hands", json=hand, headers=headers)
            assert answer.status_code == 201, answer.get_json()
        viewer = {"Authorization": f"Bearer {table['viewer_token']}"}
        (out / f"{name}.json").write_bytes(client.get(path + "/export", headers=viewer).data)
        state = client.get(path, headers=viewer).get_json()
        print(name, state["totals"], state["dealer"], state["nagari_streak"])


if __name__ == "__main__":
    main(Path(sys.argv[1]))
