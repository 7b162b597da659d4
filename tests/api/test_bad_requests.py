"""The corpus of bad requests (tests/data/bad_requests.json): each gets its exact 4xx
problem+json, with the expected code and pointer — never a 5xx, never a trace."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from conftest import load_data
from tests_support import W13

BASES = {"w13": W13}
CASES = load_data("bad_requests.json")["cases"]


def _walk(body: Any, pointer: str) -> tuple[Any, str | int]:
    parts = pointer.lstrip("/").split("/")
    for part in parts[:-1]:
        body = body[int(part)] if isinstance(body, list) else body[part]
    last = parts[-1]
    return body, int(last) if isinstance(body, list) else last


def _patched(case: dict[str, Any]) -> Any:
    body = copy.deepcopy(BASES[case["base"]])
    for op, pointer, *value in case.get("patch", []):
        parent, key = _walk(body, pointer)
        if op == "set":
            parent[key] = value[0]
        elif op == "remove":
            del parent[key]
        else:
            parent[key].append(value[0])
    return body


def _data(case: dict[str, Any]) -> bytes:
    if "raw" in case:
        return case["raw"].encode()
    if "raw_hex" in case:
        return bytes.fromhex(case["raw_hex"])
    generate = case.get("generate")
    if generate:
        kind = generate["kind"]
        if kind == "nested":
            return b"[" * generate["depth"] + b"]" * generate["depth"]
        if kind == "padded":
            return json.dumps({**BASES["w13"], "pad": "x" * generate["bytes"]}).encode()
        if kind == "batch":
            return json.dumps({"hands": [BASES["w13"]] * generate["hands"]}).encode()
        raise AssertionError(kind)
    body = _patched(case) if "base" in case else case.get("body")
    return json.dumps(body, ensure_ascii=False).encode()


def test_the_corpus_is_large_and_its_names_unique() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) >= 60
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bad_request(client: Any, case: dict[str, Any]) -> None:
    headers = {}
    content_type = case.get("content_type", "application/json")
    if content_type is not None:
        headers["Content-Type"] = content_type
    response = client.open(case["path"], method=case["method"], data=_data(case), headers=headers)
    expect = case["expect"]
    assert response.status_code == expect["status"], response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == expect["status"]
    errors = {(e["code"], e["pointer"]) for e in body["errors"]}
    codes = {code for code, _pointer in errors}
    assert expect["code"] in codes, errors
    if "pointer" in expect:
        assert (expect["code"], expect["pointer"]) in errors, errors
    text = response.get_data(as_text=True)
    assert "Traceback" not in text
    assert "/work/" not in text
    assert response.headers["X-Content-Type-Options"] == "nosniff"
