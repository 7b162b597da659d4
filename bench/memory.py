"""Worker memory before and after big requests: does it return to its baseline?

    python -m bench.memory            # each big body 3 times, one gunicorn worker

One gunicorn worker (the repository's config) on 127.0.0.1. After a warm-up of small
requests its resident memory (VmRSS) is the baseline; then each big body is sent and the
worker's RSS read again once the answer is complete. Bodies: a valid 1,000-hand batch, the
largest batch answer the answer limit admits, the batch item with 320,000 unknown fields
(issue #12: a 60 MB answer, 400 MiB left behind; now refused by its size), all within the
4 MiB limit. The warm-up sends three other 1,000-hand batches first, so
that the bounded caches of the serializer are as full as in a long-running worker.
It prints, per body, the status, the answer's size and the RSS after each send, and the
largest RSS seen above the baseline after an answer; tests/test_memory.py asserts on it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import urllib.request
from typing import Any

from bench.attack import unknown_fields_batch
from bench.corpus import corpus
from bench.server import Server
from bench.soak import rss_kb


def batch(seed: int) -> bytes:
    """A valid batch of 1,000 realistic 3-player hands (about 0.9 MB; a 4 MB answer)."""
    return json.dumps({"hands": corpus(1_000, players=3, modes="cards", seed=seed)}).encode()


def largest_admitted() -> tuple[str, bytes]:
    """A batch of hands compared with one other preset, as many as the answer limit
    (GOSTOP_MAX_ANSWER_BYTES, estimated by calculator/api/batch_bounds.py) admits."""
    from calculator.api.batch_bounds import answer_bound, item_sizes
    from calculator.api.config import Settings

    settings = Settings.load()
    hands = [
        {**hand, "compare_with": ["wikipedia"]}
        for hand in corpus(1_000, players=3, modes="cards", seed=9)
    ]
    while answer_bound(hands, item_sizes(hands), settings) > settings.max_answer_bytes:
        hands.pop()
    label = f"{len(hands)} hands with compare_with (the largest answer admitted)"
    return label, json.dumps({"hands": hands}).encode()


def big_bodies() -> list[tuple[str, bytes]]:
    """(label, body) of the big bodies sent after the warm-up, each under 4 MiB."""
    return [
        ("1,000 other valid hands", batch(8)),
        largest_admitted(),
        ("320,000 unknown fields", unknown_fields_batch()),
    ]


def post(port: int, body: bytes) -> tuple[int, int]:
    """POST a batch; (status, answer bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request(
        "POST", "/v1/gostop/hands/batch", body=body, headers={"Content-Type": "application/json"}
    )
    response = conn.getresponse()
    size = len(response.read())
    conn.close()
    return response.status, size


def run(
    *,
    repeat: int,
    bodies: list[tuple[str, bytes]] | None = None,
    warm_up: tuple[int, ...] = (5, 6, 7),
) -> dict[str, Any]:
    """Send each body ``repeat`` times to one worker, after batches of the ``warm_up``
    seeds; its RSS after each answer (KiB)."""
    with Server({"GOSTOP_WORKERS": "1", "GOSTOP_ACCESS_LOG": "0"}) as server:
        small = json.dumps({"hands": corpus(2, players=3, seed=1)}).encode()
        for _ in range(20):
            post(server.port, small)
        # The warm-up fills the bounded caches of serialized steps and items
        # (calculator/api/serialize.py) as a day of real batches would.
        for seed in warm_up:
            post(server.port, batch(seed))
        urllib.request.urlopen(server.base + "/healthz", timeout=60).close()
        (worker,) = server.worker_pids()
        baseline = rss_kb(worker) or 0
        results: list[dict[str, Any]] = []
        for label, body in bodies or big_bodies():
            after: list[int | None] = []
            for _ in range(repeat):
                status, size = post(server.port, body)
                # The one sync worker answers this only once it is done with the batch
                # (gunicorn's post_request hook included).
                urllib.request.urlopen(server.base + "/healthz", timeout=60).close()
                after.append(rss_kb(worker))
            results.append(
                {
                    "body": label,
                    "bytes": len(body),
                    "status": status,
                    "answer_bytes": size,
                    "rss_after_kb": after,
                }
            )
        workers = server.worker_pids()
    above = [kb - baseline for r in results for kb in r["rss_after_kb"] if kb is not None]
    return {
        "baseline_kb": baseline,
        "bodies": results,
        "largest_growth_kb": max(above, default=0),
        "same_worker": workers == [worker],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(json.dumps(run(repeat=args.repeat), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
