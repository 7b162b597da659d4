"""A batch's ``rulesets`` entry is a rule set echo (RulesetOutSchema: "send it back as a
request's ``ruleset``"): under ``?full_ruleset=true`` it is the only place a batch gives
the resolved options, so a client locks them by sending the entry back. (A ``presets``
list added to the entries on 2026-12-05 broke that round trip, found by review, and was
taken out: each result's own echo already names the preset its hand named.)"""

from __future__ import annotations

from typing import Any

import pytest

from tests_support import W13

BATCH = "/v1/gostop/hands/batch"


@pytest.mark.parametrize("query", ["", "?full_ruleset=true"])
def test_a_batch_rulesets_entry_sent_back_is_the_same_rule_set(client: Any, query: str) -> None:
    answer = client.post(BATCH + query, json={"hands": [{**W13, "ruleset": "wikipedia"}]})
    assert answer.status_code == 200
    ((fingerprint, entry),) = answer.get_json()["rulesets"].items()
    again = client.post("/v1/gostop/hands", json={**W13, "ruleset": entry})
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["ruleset"]["fingerprint"] == fingerprint


def test_hands_that_reach_one_rule_set_from_two_presets_share_its_entry(client: Any) -> None:
    """``standard`` with every option wikipedia changes is wikipedia's rule set: one entry,
    said as the first hand named it (sendable back), while each result's own echo names
    the preset its hand named."""
    wikipedia = client.get("/v1/rulesets/wikipedia").get_json()
    changed = {o["name"]: o["value"] for o in wikipedia["options"] if o["value"] != o["default"]}
    assert changed  # the presets differ
    as_standard = {"preset": "standard", "options": changed}
    hands = [{**W13, "ruleset": as_standard}, {**W13, "ruleset": "wikipedia"}]
    answer = client.post(BATCH, json={"hands": hands}).get_json()
    echoes = [r["result"]["ruleset"] for r in answer["results"]]
    assert [e["preset"] for e in echoes] == ["standard", "wikipedia"]
    assert echoes[0]["fingerprint"] == echoes[1]["fingerprint"] == wikipedia["fingerprint"]
    ((fingerprint, entry),) = answer["rulesets"].items()
    assert (fingerprint, entry["preset"]) == (wikipedia["fingerprint"], "standard")
