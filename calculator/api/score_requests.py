"""Loaded hand requests → their answers: one hand, and the hands of a batch one by one.

What runs between the compiled loader, engine and serializer once per hand of a batch:
compiled with them (mypyc, setup.py), where interpreted it cost ~1.5 µs a batched hand of
~27 (its frames, keyword calls and look-ups; bench/RESULTS.md, thirty-second session).
The views (:mod:`calculator.api.views`) call it; it knows nothing of Flask.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import orjson
from marshmallow import ValidationError

from calculator.api import batch_bounds, serialize
from calculator.api.config import Settings
from calculator.api.errors import domain_problem, validation_problem
from calculator.api.schemas import HandRequest, load_hand_request, resolve_spec
from calculator.errors import GoStopError, relocated
from calculator.presets import Resolver, RuleSet, Variant
from calculator.settlement import compare, settle

_dumps: Final = orjson.dumps
_Fragment: Final = orjson.Fragment


def score_request(
    hand_request: HandRequest,
    *,
    resolver: Resolver | None = None,
    shape: serialize.Shape = serialize.DEFAULT_SHAPE,
    seen: dict[str, RuleSet] | None = None,
) -> dict[str, Any]:
    """Score one loaded hand request; raises GoStopError. ``seen`` collects the rule
    sets of the answer by fingerprint (a batch lists each once)."""
    if resolver is None and hand_request.compare_with:  # one rule set alone needs none
        resolver = Resolver()
    ruleset = resolve_spec(hand_request.ruleset, Variant.GOSTOP, ("ruleset",), resolver=resolver)
    # A loop, not a comprehension: most requests compare none.
    others: list[RuleSet] = []
    for i, spec in enumerate(hand_request.compare_with):
        others.append(resolve_spec(spec, Variant.GOSTOP, ("compare_with", i), resolver=resolver))
    hand = hand_request.hand
    result = settle(hand, ruleset)
    comparisons = compare(hand, result, others) if others else ()
    if seen is not None:
        seen.setdefault(ruleset.fingerprint, ruleset)
        for other in others:
            seen.setdefault(other.fingerprint, other)
    return serialize.hand_json(result, comparisons, shape)


def score_items(
    items: list[Any],
    sizes: list[int],
    settings: Settings,
    shape: serialize.Shape,
    check_deadline: Callable[[], None],
) -> tuple[list[orjson.Fragment], int, dict[str, RuleSet]]:
    """A batch's ``results`` entries, one per item in order, the number that failed, and
    the rule sets they name by fingerprint. An item over one hand's body limit (by its
    size in ``sizes``) gets its 413 unread; one the schema or the domain refuses, the
    problem a single request would get, with at most ``batch_bounds.ITEM_PROBLEMS``
    errors. ``check_deadline`` runs before each item (past it: DeadlineExceeded).

    Each item is let go as its turn comes (``items`` ends all None): its parsed objects
    are freed while the batch runs, into memory the next hands reuse while it is in the
    cache, instead of all at the end, and the batch's collections no longer walk the
    hands done (~3 % of a 500-hand batch's time in process; bench/RESULTS.md,
    thirty-third session)."""
    results: list[orjson.Fragment] = []
    failed = 0
    resolver = Resolver()  # one for the whole batch: it caps the distinct rule sets
    seen: dict[str, RuleSet] = {}
    largest = settings.max_body_bytes
    for index, item in enumerate(items):
        items[index] = None  # the loop holds it until its entry is written (docstring)
        check_deadline()
        if sizes[index] > largest:  # as a single request would be (or nested past reading)
            failed += 1
            problem = batch_bounds.oversized(index, sizes[index], settings)
            results.append(batch_entry(index, problem["status"], "problem", problem))
            continue
        try:
            result = score_request(
                load_hand_request(item), resolver=resolver, shape=shape, seen=seen
            )
            results.append(batch_entry(index, 200, "result", result))
        except ValidationError as error:
            failed += 1
            problem = batch_bounds.cut(validation_problem(error, f"/hands/{index}"))
            results.append(batch_entry(index, 422, "problem", problem))
        except GoStopError as error:
            failed += 1
            problem = batch_bounds.cut(domain_problem(relocated(error, ("hands", index))))
            results.append(batch_entry(index, 422, "problem", problem))
    return results, failed, seen


def batch_entry(index: int, status: int, name: str, answer: Any) -> orjson.Fragment:
    """One entry of a batch's ``results`` (``name``: result or problem), serialized at once:
    kept as dicts until the whole answer is dumped, a thousand answers would be walked by
    every garbage collection of the batch (they all stay alive until then), and each dict
    freed at the end; as bytes they cost the collector nothing."""
    return _Fragment(_dumps({"index": index, "status": status, name: answer}))
