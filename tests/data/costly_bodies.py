"""Worst-case request bodies, one per way of making the service work hard (issue #12 §3).

Each is what a hostile or careless client can send within the body limits (64 KiB for a
hand, 4 MiB for a batch or a session): misspelt names and unknown fields en masse, deep
and wide JSON, long strings, many players, many hands, every ``compare_with``. The large
ones are generated here rather than stored. ``tests/test_costly_bodies.py`` runs each
through the app and bounds the work it may cost; the attack suite can send them as well.

>>> sorted(BODIES)[:3]
['balance_misspelt_cards', 'balance_misspelt_options', 'batch_different_options']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

HAND_LIMIT = 64 * 1024
BATCH_LIMIT = 4 * 1024 * 1024

# docs/rules.md W13: a valid three-player hand.
W13: dict[str, Any] = {
    "players": [
        {"id": "A", "captured": ["01-bright", "03-bright", "08-bright", "02-junk-1", "04-junk-1"]},
        {"id": "B", "captured": ["12-bright", "06-junk-1", "07-junk-1"]},
        {"id": "C", "captured": ["05-junk-1", "09-junk-1"]},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}
PRESETS = ["standard", "wikipedia", "gamerules", "kr_gostop", "seed_es"]


class Body(NamedTuple):
    """A request: method, path and JSON body (None for a GET)."""

    method: str
    path: str
    body: bytes | None


def _post(path: str, body: Any, limit: int) -> Body:
    data = json.dumps(body, separators=(",", ":")).encode()
    assert len(data) <= limit, (path, len(data))
    return Body("POST", path, data)


def _misspelt_cards(count: int, tag: str = "") -> list[str]:
    return [f"{1 + i % 12:02d}-brihgt{tag}{i}" for i in range(count)]


def _players_with(cards: Callable[[str], list[str]]) -> list[dict[str, Any]]:
    return [{"id": pid, "captured": cards(pid)} for pid in "ABC"]


def _options(count: int, stem: str = "bomb_multiplie") -> dict[str, int]:
    return {f"{stem}{i}": 1 for i in range(count)}


def _fill(make: Callable[[int], Any], path: str, limit: int) -> Body:
    """``make(n)`` for about the largest ``n`` that stays under ``limit`` (sizes grow about
    linearly with ``n``; a few JSON dumps find it)."""

    def size(n: int) -> int:
        return len(json.dumps(make(n), separators=(",", ":")))

    base, probe = size(0), 1000
    n = (limit - base) * probe // max(size(probe) - base, 1)
    while (over := size(n) - limit) > 0:
        n -= over * n // (limit - base) + 1
    return _post(path, make(n), limit)


def _unknown_fields(path: str, limit: int) -> Body:
    """One batch item with as many unknown fields as fit (written as text: a dict of
    300,000 keys is slow to build and dump)."""
    head = json.dumps({"hands": [W13]}, separators=(",", ":"))[:-3] + ","
    parts, size, i = [], len(head) + 3, 0
    while size + len(f'"{i:x}":0,') <= limit:
        parts.append(f'"{i:x}":0')
        size += len(parts[-1]) + 1
        i += 1
    data = (head + ",".join(parts) + "}]}").encode()
    assert len(data) <= limit
    return Body("POST", path, data)


def _deep(path: str, body: Any, depth: int) -> Body:
    """``body`` with the string "DEEP" replaced by ``depth`` nested arrays (too deep for
    the json module to write, and for many parsers to read)."""
    text = json.dumps(body, separators=(",", ":"))
    data = text.replace('"DEEP"', "[" * depth + "1" + "]" * depth).encode()
    assert len(data) <= HAND_LIMIT
    return Body("POST", path, data)


def _different_options(i: int) -> dict[str, Any]:
    return {"preset": "standard", "options": {"godori_points": i % 1001, "shake_cap": i // 1001}}


def _bodies() -> dict[str, Callable[[], Body]]:
    hands = "/v1/gostop/hands"
    batch = "/v1/gostop/hands/batch"
    balance = "/v1/balance/hands"
    settle = "/v1/settlements"
    return {
        # --- one hand (64 KiB) ---
        "hand_misspelt_options": lambda: _fill(
            lambda n: {**W13, "ruleset": {"options": _options(n)}}, hands, HAND_LIMIT
        ),
        "hand_misspelt_options_at_the_count_limit": lambda: _post(
            hands, {**W13, "ruleset": {"options": _options(52)}}, HAND_LIMIT
        ),
        "hand_compare_with_misspelt_options": lambda: _post(
            hands,
            {
                **W13,
                "ruleset": {"options": _options(52)},
                "compare_with": [{"options": _options(52, f"go_formul{j}")} for j in range(5)],
            },
            HAND_LIMIT,
        ),
        "hand_long_option_names": lambda: _post(
            hands,
            {**W13, "ruleset": {"options": {"x" * 1000 + str(i): 1 for i in range(52)}}},
            HAND_LIMIT,
        ),
        "hand_long_option_value": lambda: _post(
            hands, {**W13, "ruleset": {"options": {"go_formula": "x" * 60000}}}, HAND_LIMIT
        ),
        "hand_unknown_fields": lambda: _fill(
            lambda n: {**W13, **{f"f{i}": 0 for i in range(n)}}, hands, HAND_LIMIT
        ),
        "hand_unknown_fields_in_players": lambda: _fill(
            lambda n: {
                **W13,
                "players": [{**p, **{f"f{i}": 0 for i in range(n)}} for p in W13["players"]],
            },
            hands,
            HAND_LIMIT,
        ),
        "hand_misspelt_cards": lambda: _post(
            hands,
            {**W13, "players": _players_with(lambda pid: _misspelt_cards(60, pid))},
            HAND_LIMIT,
        ),
        "hand_deep_json": lambda: _deep(hands, {**W13, "stake": "DEEP"}, 30000),
        "hand_deep_options": lambda: _deep(
            hands, {**W13, "ruleset": {"options": {"go_formula": "DEEP"}}}, 30000
        ),
        "hand_shallow_but_deep_enough": lambda: _deep(hands, {**W13, "stake": "DEEP"}, 500),
        "hand_wide_pile": lambda: _fill(
            lambda n: {**W13, "players": [{"id": "A", "captured": ["01-bright"] * n}]},
            hands,
            HAND_LIMIT,
        ),
        "hand_many_players": lambda: _fill(
            lambda n: {**W13, "players": [{"id": f"P{i}", "captured": []} for i in range(n)]},
            hands,
            HAND_LIMIT,
        ),
        "hand_every_compare_with": lambda: _post(
            hands, {**W13, "compare_with": PRESETS}, HAND_LIMIT
        ),
        # --- a batch (4 MiB) ---
        "batch_different_options": lambda: _post(
            batch,
            {
                "hands": [
                    {
                        **W13,
                        "ruleset": _different_options(6 * i),
                        "compare_with": [_different_options(6 * i + j) for j in range(1, 6)],
                    }
                    for i in range(1000)
                ]
            },
            BATCH_LIMIT,
        ),
        "batch_every_compare_with": lambda: _post(
            batch, {"hands": [{**W13, "compare_with": PRESETS}] * 1000}, BATCH_LIMIT
        ),
        "batch_misspelt_cards": lambda: _post(
            batch,
            {
                "hands": [{**W13, "players": _players_with(lambda pid: _misspelt_cards(60, pid))}]
                * 1000
            },
            BATCH_LIMIT,
        ),
        "batch_misspelt_options": lambda: _fill(
            lambda n: {"hands": [{**W13, "ruleset": {"options": _options(n)}}]},
            batch,
            BATCH_LIMIT,
        ),
        "batch_misspelt_options_in_every_hand": lambda: _post(
            batch,
            {
                "hands": [
                    {
                        **W13,
                        "ruleset": {"options": _options(52)},
                        "compare_with": [{"options": _options(52, f"go{j}")} for j in range(5)],
                    }
                ]
                * 1000
            },
            BATCH_LIMIT,
        ),
        "batch_unknown_fields": lambda: _unknown_fields(batch, BATCH_LIMIT),
        "batch_many_bad_items": lambda: _post(
            batch, {"hands": [{"players": "x" * 4000}] * 1000}, BATCH_LIMIT
        ),
        # --- the balance variant ---
        "balance_misspelt_cards": lambda: _post(
            balance,
            {"players": [{"id": pid, "captured": _misspelt_cards(60, pid)} for pid in "ABCD"]},
            HAND_LIMIT,
        ),
        "balance_misspelt_options": lambda: _post(
            balance,
            {
                "ruleset": {"preset": "balance", "options": _options(40, "junk_valu")},
                "players": [{"id": "A", "captured": []}, {"id": "B", "captured": []}],
            },
            HAND_LIMIT,
        ),
        # --- sessions (4 MiB) ---
        "settlement_sixteen_players": lambda: _post(
            settle,
            {
                "players": [f"P{i}" for i in range(16)],
                # no opposite pairs and no small zero-sum groups: the search's worst case
                "hands": [{"net": {f"P{i}": 2**i for i in range(15)} | {"P15": -(2**15 - 1)}}],
            },
            BATCH_LIMIT,
        ),
        "settlement_twelve_players": lambda: _post(
            settle,
            {
                "players": [f"P{i}" for i in range(12)],
                "hands": [
                    {
                        "net": {f"P{i}": 3**i for i in range(11)}
                        | {"P11": -sum(3**i for i in range(11))}
                    }
                ],
            },
            BATCH_LIMIT,
        ),
        "settlement_many_hands": lambda: _post(
            settle,
            {"players": ["A", "B", "C"], "hands": [{"gostop": W13}] * 1000},
            BATCH_LIMIT,
        ),
        "settlement_different_options": lambda: _post(
            settle,
            {
                "players": ["A", "B", "C"],
                "hands": [
                    {"gostop": {**W13, "ruleset": _different_options(i)}} for i in range(1000)
                ],
            },
            BATCH_LIMIT,
        ),
        "settlement_unknown_players": lambda: _post(
            settle,
            {
                "players": [f"P{i}" for i in range(16)],
                "hands": [{"net": {f"Q{j}-{'x' * 30}": 0 for j in range(16)}}] * 1000,
            },
            BATCH_LIMIT,
        ),
        # --- catalogue reads with hostile names ---
        "rulesets_long_name": lambda: Body("GET", "/v1/rulesets/" + "x" * 4000, None),
        "cards_long_ruleset": lambda: Body("GET", "/v1/cards?ruleset=" + "x" * 4000, None),
    }


BODIES: dict[str, Callable[[], Body]] = {name: cache(make) for name, make in _bodies().items()}
"""Name → a function that builds the request (built on first use, then kept)."""
