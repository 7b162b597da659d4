"""One digest per Go-Stop preset pins the whole behaviour on the seeded corpus.

Every hand of ``bench.corpus`` (2 and 3 players, cards and tallies, go calls, shakes,
bombs, nagari streaks) is scored under each preset, and the full API response — points,
items, steps, payments, net, labels — or the refusal's issues is hashed. The echo of the
rule set (its options and fingerprint) is left out: it is read from the option
declarations, so adding an option at its default would move every digest without any
money moving; the fingerprints are pinned on their own (tests/test_fingerprints.py). Any change to
scoring, settlement, explanations or serialization changes a digest, so a rule change
shows up as one reviewed line in ``tests/data/digests.json``. CI runs this in the pure
and the compiled build: both must give the same bytes.

After an intended change, rewrite the file and review the diff::

    GOSTOP_UPDATE_DIGESTS=1 python3 -m pytest tests/test_digest.py
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import orjson
import pytest

from bench.corpus import corpus
from calculator import GoStopError
from calculator.api import serialize
from calculator.api.views import score_hand
from calculator.presets import Variant, presets
from conftest import DATA, load_data

SIZE = 300
FILE = "digests.json"
GOSTOP_PRESETS = sorted(name for name, p in presets().items() if p.variant is Variant.GOSTOP)
UPDATE = os.environ.get("GOSTOP_UPDATE_DIGESTS") == "1"


def outcome_of(body: dict[str, Any]) -> bytes:
    """The response, or the issues that refused the hand, as canonical bytes."""
    try:
        found: Any = without_ruleset_echo(score_hand(body))
    except GoStopError as error:
        found = {"refused": serialize.issues_json(error.issues)}
    return orjson.dumps(found, option=orjson.OPT_SORT_KEYS)


def without_ruleset_echo(response: dict[str, Any]) -> dict[str, Any]:
    """The response without the rule set echoed back (here and in each comparison)."""
    found = {key: value for key, value in response.items() if key != "ruleset"}
    found["comparisons"] = [
        {key: value for key, value in c.items() if key != "ruleset"}
        for c in response.get("comparisons", ())
    ]
    return found


def digest(preset: str) -> dict[str, Any]:
    """sha256 over every corpus hand scored under ``preset``, and how many were refused."""
    sha = hashlib.sha256()
    refused = 0
    for body in corpus(SIZE):
        found = outcome_of({**body, "ruleset": preset})
        refused += found.startswith(b'{"refused"')
        sha.update(found)
        sha.update(b"\n")
    return {"hands": SIZE, "refused": refused, "sha256": sha.hexdigest()}


@pytest.fixture(scope="module")
def digests() -> dict[str, Any]:
    found = {preset: digest(preset) for preset in GOSTOP_PRESETS}
    if UPDATE:
        text = json.dumps(found, indent=2, ensure_ascii=False) + "\n"
        (DATA / FILE).write_text(text, encoding="utf-8")
    return found


def test_every_gostop_preset_is_pinned(digests: dict[str, Any]) -> None:
    assert sorted(load_data(FILE)) == GOSTOP_PRESETS, (
        "a preset was added or removed: GOSTOP_UPDATE_DIGESTS=1 python3 -m pytest "
        "tests/test_digest.py, then review tests/data/digests.json"
    )


@pytest.mark.parametrize("preset", GOSTOP_PRESETS)
def test_digest(preset: str, digests: dict[str, Any]) -> None:
    expected = load_data(FILE)[preset]
    assert digests[preset] == expected, (
        f"scoring under {preset!r} changed. If intended, run GOSTOP_UPDATE_DIGESTS=1 "
        "python3 -m pytest tests/test_digest.py and commit the new line with the change"
    )


def test_the_corpus_mostly_scores() -> None:
    """A digest over refusals alone would pin little: most hands must score."""
    pinned = load_data(FILE)
    for preset in GOSTOP_PRESETS:
        assert pinned[preset]["refused"] < SIZE // 2, preset
