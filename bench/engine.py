"""Engine benchmark: a seeded corpus of hands, from card lists to settlement.

    python -m bench.engine            # full run (2 000 hands × 3 players, 2 and 4 players)
    python -m bench.engine --quick    # a few hundred hands: checks that it works

Each hand is settled ``--repeat`` times in a row and its time is the median of those runs;
the report gives the median and p99 over the corpus, and hands per second. The corpus is
request bodies (bench/corpus.py) loaded once through the API schemas, so only the domain
call ``settle(hand, ruleset)`` is timed — including validation, every explanation step
and the result records.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from typing import Any

from bench.corpus import corpus
from calculator import resolve, settle
from calculator.api.schemas import load_hand


def build() -> str:
    """Which engine is imported: compiled with mypyc (GOSTOP_COMPILE=1) or pure Python."""
    import calculator.settlement

    return "compiled (mypyc)" if calculator.settlement.__file__.endswith(".so") else "pure Python"


def measure(hands: list[Any], repeat: int) -> list[float]:
    """Per-hand median time of ``settle`` in µs."""
    ruleset = resolve("standard")
    clock = time.perf_counter_ns
    times = []
    gc.disable()
    try:
        for hand in hands:
            runs = []
            for _ in range(repeat):
                start = clock()
                settle(hand, ruleset)
                runs.append(clock() - start)
            times.append(statistics.median(runs) / 1000)
    finally:
        gc.enable()
    return times


def report(label: str, times: list[float]) -> dict[str, Any]:
    """Median, p99 and hands/s of a list of per-hand times."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    row = {
        "corpus": label,
        "hands": len(times),
        "median_us": round(statistics.median(times), 2),
        "p99_us": round(p99, 2),
        "hands_per_s": round(1e6 / statistics.fmean(times)),
    }
    print(
        f"{label:28s} {row['hands']:6d} hands  median {row['median_us']:7.2f} µs  "
        f"p99 {row['p99_us']:7.2f} µs  {row['hands_per_s']:8d} hands/s"
    )
    return row


def run(size: int, repeat: int) -> list[dict[str, Any]]:
    """Benchmark 3-, 2- and 4-player corpora (four: one sits out); returns the report rows."""
    rows = []
    for players, modes, label in (
        (3, "cards", "3 players, card lists"),
        (2, "cards", "2 players, card lists"),
        (3, "mixed", "3 players, mixed modes"),
        (4, "cards", "4 players, one sits out"),
    ):
        hands = [load_hand(body) for body in corpus(size, players=players, modes=modes)]
        measure(hands[:50], 3)  # warm up
        rows.append(report(label, measure(hands, repeat)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run for CI")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args(argv)
    size, repeat = (200, 3) if args.quick else (args.hands, args.repeat)
    print(
        f"python {sys.version.split()[0]}, engine {build()}, {size} hands per corpus, "
        f"{repeat} runs per hand"
    )
    run(size, repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
