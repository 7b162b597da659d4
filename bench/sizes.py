"""Answer sizes of realistic hands: what a phone downloads, uncompressed and gzipped.

    python -m bench.sizes                 # 200 realistic 3-player hands of bench.corpus
    python -m bench.sizes --hands 50      # fewer

Each hand of the seeded corpus (3 players, every pile listed: the same hands as
bench.instructions) is posted to ``POST /v1/gostop/hands`` through Flask's test client,
once per variant of the request below; the table gives the mean, median and largest body
in bytes, uncompressed (the bar of issue #17: a mean ≤ 1,600) and gzipped (level 6, as
the service compresses).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
from typing import Any

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


def main() -> None:
    """Print the table (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    rows = measure(args.hands)
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for row in rows:
        print(
            "| "
            + " | ".join(f"{row[k]:,}" if isinstance(row[k], int) else row[k] for k in keys)
            + " |"
        )


if __name__ == "__main__":
    main()
