"""The golden master: every hand of the golden corpus, under every Go-Stop preset, as one
readable line each (syrupy snapshots in tests/__snapshots__/).

Any change to a score, an item, a step, a payment, a net or a refusal shows up in the
diff of the snapshot file as the lines of the hands it changes, readable by a person.
CI runs it on the pure and the compiled build: both must give the same lines. After an
intended change, rewrite the snapshots and review the diff::

    python3 -m pytest tests/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from syrupy.assertion import SnapshotAssertion

from calculator import GoStopError
from calculator.api import serialize
from calculator.api.views import score_hand
from calculator.presets import Variant, presets
from golden import golden_corpus

GOSTOP_PRESETS = sorted(name for name, p in presets().items() if p.variant is Variant.GOSTOP)
_OPS = {"start": "", "add": "+", "multiply": "×"}


def _steps(steps: list[dict[str, Any]]) -> str:
    parts = []
    for step in steps:
        value = step.get("amount", step.get("addend", step.get("factor")))
        who = f"@{step['player']}" if "player" in step else ""
        parts.append(f"{step['code']}{who} {_OPS[step['op']]}{value}={step['total']}")
    return ", ".join(parts)


def _modes(body: dict[str, Any]) -> str:
    modes = []
    for p in body["players"]:
        mode = next((m for m in ("captured", "tally", "declared") if m in p), "sits_out")
        modes.append(mode)
    return "/".join(modes)


def render(body: dict[str, Any]) -> str:
    """The answer to ``body`` as one line (or the codes and pointers that refused it)."""
    outcome = body.get("outcome") or {"type": "preview"}
    head = (
        f"{_modes(body)} stake {body.get('stake', 1)} streak {body.get('nagari_streak', 0)} "
        f"{outcome['type']}"
        + (f" by {outcome['winner']}" if "winner" in outcome else "")
        + (f" liable {outcome['liable']}" if "liable" in outcome else "")
        + (
            f" events {','.join(e['type'] + '@' + e['player'] for e in body['events'])}"
            if body.get("events")
            else ""
        )
    )
    try:
        answer = orjson.loads(orjson.dumps(score_hand(body)))  # as a client reads it
    except GoStopError as error:
        issues = serialize.issues_json(error.issues)
        return f"{head} → refused " + ", ".join(f"{i['code']}@{i['pointer']}" for i in issues)
    players = []
    for p in answer["players"]:
        items = " ".join(f"{i['code']} {i['points']}" for i in p["items"])
        flags = ("*" if p["may_stop"] else "") + (f" sold {p['sold']}" if p.get("sold") else "")
        players.append(f"{p['id']} {p['points']}{flags} [{items}]")
    parts = [head, "; ".join(players)]
    winner = answer["winner_score"]
    if winner is not None:
        steps = _steps(winner["steps"])
        parts.append(f"win {winner['winner']} base {winner['base']}: {steps} → {winner['amount']}")
    for pay in answer["payments"]:
        parts.append(
            f"{pay['from']}→{pay['to']} {pay['points']}pt {pay['chips']} {pay['reason']} "
            f"({_steps(pay.get('steps', []))})"
        )
    net = " ".join(f"{k} {v:+d}" for k, v in answer["net"].items())
    parts.append(f"net {net} streak→{answer['nagari_streak_after']}")
    return " | ".join(parts)


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return golden_corpus()


def test_the_golden_corpus_covers_every_kind_of_hand(corpus: list[dict[str, Any]]) -> None:
    outcomes = {(b.get("outcome") or {"type": "preview"})["type"] for b in corpus}
    assert outcomes == {"preview", "stop", "nagari", "chongtong", "three_ppuk", "floor_four"}
    modes = {m for b in corpus for m in _modes(b).split("/")}
    assert modes == {"captured", "tally", "declared", "sits_out"}
    assert any(b.get("events") for b in corpus)
    assert any("liable" in (b.get("outcome") or {}) for b in corpus)
    assert any("holders" in (b.get("outcome") or {}) for b in corpus)


@pytest.mark.parametrize("preset", GOSTOP_PRESETS)
def test_golden_master(
    preset: str, corpus: list[dict[str, Any]], snapshot: SnapshotAssertion
) -> None:
    lines = [f"#{i} {render({**body, 'ruleset': preset})}" for i, body in enumerate(corpus)]
    refused = sum("→ refused" in line for line in lines)
    assert refused < len(lines) // 2, "a golden master of refusals pins little"
    assert lines == snapshot


def sentences(body: dict[str, Any]) -> list[str]:
    """The ready sentences of the answer to ``body``, Korean and English: the winner's
    steps, then each payment's line and its steps' (none for a refused hand)."""
    try:
        answer = orjson.loads(orjson.dumps(score_hand(body, shape=serialize.Shape(langs=LANGS))))
    except GoStopError:
        return []
    lines = []
    winner = answer["winner_score"]
    for step in winner["steps"] if winner else []:
        lines += [f"  win: {step['text'][lang]}" for lang in LANGS]
    for pay in answer["payments"]:
        lines += [f"  {pay['from']}→{pay['to']}: {pay['text'][lang]}" for lang in LANGS]
        lines += [f"    {step['text'][lang]}" for step in pay.get("steps", []) for lang in LANGS]
    return lines


LANGS = ("ko", "en")


def test_golden_sentences(corpus: list[dict[str, Any]], snapshot: SnapshotAssertion) -> None:
    """Every sentence of the golden corpus under the standard rules, reviewable in a diff."""
    lines = []
    for i, body in enumerate(corpus):
        found = sentences({**body, "ruleset": "standard"})
        lines += [f"#{i}", *found] if found else []
    assert len(lines) > 100
    assert lines == snapshot
