"""Answer sizes of realistic hands: what a phone downloads, uncompressed and gzipped.

    python -m bench.sizes                 # 200 realistic 3-player hands of bench.corpus
    python -m bench.sizes --hands 50      # fewer
    python -m bench.sizes --omitted       # and the bytes each left-out field saves

Each hand of the seeded corpus (3 players, every pile listed: the same hands as
bench.instructions) is posted to ``POST /v1/gostop/hands`` through Flask's test client,
once per variant of the request below; the table gives the mean, median and largest body
in bytes, uncompressed (the bar of issue #17: a mean ≤ 1,600) and gzipped (level 6, as
the service compresses). ``--omitted`` also puts back, in the default answers, each field
the answer leaves out when it says nothing (as it was sent before 2026-12-03: ``{}``,
``[]``, ``null``, ``false``, the echoed entry mode, the reason's label) and gives the mean
bytes each one costs.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
from collections.abc import Callable
from typing import Any

import orjson

VARIANTS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("default", "", {}),
    ("lang=all", "?lang=all", {}),
    ("Accept-Language: en", "", {"Accept-Language": "en"}),
    ("full_ruleset=true", "?full_ruleset=true", {}),
)


def measure(hands: int) -> list[dict[str, Any]]:
    """One row per request variant: sizes over ``hands`` hands."""
    from bench.corpus import corpus
    from calculator.api import create_app

    bodies = corpus(hands, players=3)  # the default corpus: about one pile in five tallied
    client = create_app({"access_log": False}).test_client()
    rows = []
    for name, query, headers in VARIANTS:
        plain, packed = [], []
        for body in bodies:
            response = client.post("/v1/gostop/hands" + query, json=body, headers=headers)
            assert response.status_code == 200, response.get_data(as_text=True)
            data = response.get_data()
            plain.append(len(data))
            packed.append(len(gzip.compress(data, compresslevel=6)))
        rows.append(
            {
                "request": name,
                "mean": round(statistics.fmean(plain)),
                "median": round(statistics.median(plain)),
                "max": max(plain),
                "gzip mean": round(statistics.fmean(packed)),
            }
        )
    return rows


Answer = dict[str, Any]
Body = dict[str, Any]


def _gukjin_as(answer: Answer, body: Body) -> None:
    for player in answer["players"]:
        player.setdefault("gukjin_as", {})


def _entry_mode(answer: Answer, body: Body) -> None:
    for player, sent in zip(answer["players"], body["players"], strict=True):
        modes = [m for m in ("captured", "tally", "declared") if m in sent]
        player["entry_mode"] = modes[0] if modes else None


def _label(answer: Answer, body: Body) -> None:
    from calculator.codes import CODES

    for payment in answer["payments"]:
        payment["label"] = {"ko": CODES["reason"][payment["reason"]].ko}


def _steps(answer: Answer, body: Body) -> None:
    for payment in answer["payments"]:
        payment.setdefault("steps", [])


def _liable(answer: Answer, body: Body) -> None:
    if answer["outcome"] is not None:
        answer["outcome"].setdefault("liable", None)


OMITTED: tuple[tuple[str, Callable[[Answer, Body], None]], ...] = (
    ("players[].gukjin_as {}", _gukjin_as),
    ("players[].entry_mode", _entry_mode),
    ("payments[].label", _label),
    ("payments[].steps []", _steps),
    ("outcome.liable null", _liable),
    ("comparisons []", lambda answer, body: answer.setdefault("comparisons", [])),
    ("preview false", lambda answer, body: answer.setdefault("preview", False)),
)
"""Each field the answer leaves out when it says nothing, put back as it used to be sent."""


def omitted(hands: int) -> list[dict[str, Any]]:
    """One row per left-out field: the mean bytes it would add to the default answer."""
    from bench.corpus import corpus
    from calculator.api import create_app

    bodies = corpus(hands, players=3)
    client = create_app({"access_log": False}).test_client()
    answers = [client.post("/v1/gostop/hands", json=body).get_json() for body in bodies]
    rows = []
    for name, put_back in OMITTED:
        added = []
        for answer, body in zip(answers, bodies, strict=True):
            before = len(orjson.dumps(answer))
            again = orjson.loads(orjson.dumps(answer))
            put_back(again, body)
            added.append(len(orjson.dumps(again)) - before)
        rows.append({"field left out": name, "mean bytes saved": round(statistics.fmean(added), 1)})
    return rows


def _print(rows: list[dict[str, Any]]) -> None:
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for row in rows:
        print(
            "| "
            + " | ".join(f"{row[k]:,}" if isinstance(row[k], int | float) else row[k] for k in keys)
            + " |"
        )


def main() -> None:
    """Print the table (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument(
        "--omitted", action="store_true", help="the bytes each left-out field saves"
    )
    args = parser.parse_args()
    _print(measure(args.hands))
    if args.omitted:
        print()
        _print(omitted(args.hands))


if __name__ == "__main__":
    main()
