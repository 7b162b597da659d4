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
from calculator.api.hand_requests import HandRequest, resolve_spec
from calculator.api.schemas import load_hand_request
from calculator.errors import GoStopError, relocated
from calculator.presets import Resolver, RuleSet, Variant
from calculator.result import HandResult
from calculator.settlement import Comparison, compare, settle

_dumps: Final = orjson.dumps
_Fragment: Final = orjson.Fragment
_GOSTOP: Final = Variant.GOSTOP  # compiled, ``Variant.GOSTOP`` is a look-up on the class


def score_request(
    hand_request: HandRequest,
    *,
    resolver: Resolver | None = None,
    shape: serialize.Shape = serialize.DEFAULT_SHAPE,
    seen: dict[str, RuleSet] | None = None,
) -> orjson.Fragment:
    """Score one loaded hand request: its answer, serialized; raises GoStopError.
    ``seen`` collects the rule sets of the answer by fingerprint (a batch lists each
    once)."""
    result, comparisons = _scored(hand_request, resolver, seen)
    return _Fragment(serialize.hand_text(result, comparisons, shape))


def _scored(
    hand_request: HandRequest,
    resolver: Resolver | None,
    seen: dict[str, RuleSet] | None,
) -> tuple[HandResult, tuple[Comparison, ...]]:
    """:func:`score_request`'s result and comparisons, not yet serialized."""
    if resolver is None and hand_request.compare_with:  # one rule set alone needs none
        resolver = Resolver()
    ruleset = resolve_spec(hand_request.ruleset, _GOSTOP, ("ruleset",), resolver=resolver)
    # A loop, not a comprehension: most requests compare none.
    others: list[RuleSet] = []
    for i, spec in enumerate(hand_request.compare_with):
        others.append(resolve_spec(spec, _GOSTOP, ("compare_with", i), resolver=resolver))
    hand = hand_request.hand
    result = settle(hand, ruleset)
    comparisons = compare(hand, result, others) if others else ()
    if seen is not None:
        seen.setdefault(ruleset.fingerprint, ruleset)
        for other in others:
            seen.setdefault(other.fingerprint, other)
    return result, comparisons


def score_items(
    items: list[Any],
    sizes: list[int],
    settings: Settings,
    shape: serialize.Shape,
    check_deadline: Callable[[], None],
    out: list[bytes],
) -> tuple[int, dict[str, RuleSet]]:
    """Append a batch's ``results`` to ``out``, one entry per item in order, as one JSON
    array; return the number that failed, and the rule sets they name by fingerprint. An
    item over one hand's body limit (by its size in ``sizes``) gets its 413 unread; one
    the schema or the domain refuses, the problem a single request would get, with at
    most ``batch_bounds.ITEM_PROBLEMS`` errors. ``check_deadline`` runs before each item
    (past it: DeadlineExceeded).

    Every entry is written as text into ``out``, the pieces of the batch's whole answer,
    joined once by the view (:func:`calculator.api.serialize.write_hand`): an answer kept
    as a dict until the whole answer is dumped would be walked by every garbage
    collection of the batch (they all stay alive until then), and each entry serialized
    on its own was a bytes object made, copied into the answer and freed.

    Each item is let go as its turn comes (``items`` ends all None): its parsed objects
    are freed while the batch runs, into memory the next hands reuse while it is in the
    cache, instead of all at the end, and the batch's collections no longer walk the
    hands done (~3 % of a 500-hand batch's time in process; bench/RESULTS.md,
    thirty-third session)."""
    out.append(b"[")
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
            _add_problem(out, index, problem["status"], problem)
            continue
        try:
            result, comparisons = _scored(load_hand_request(item), resolver, seen)
        except ValidationError as error:
            failed += 1
            problem = batch_bounds.cut(validation_problem(error, f"/hands/{index}"))
            _add_problem(out, index, 422, problem)
            continue
        except GoStopError as error:
            failed += 1
            problem = batch_bounds.cut(domain_problem(relocated(error, ("hands", index))))
            _add_problem(out, index, 422, problem)
            continue
        if index < len(_RESULT_OPENINGS):
            out.append(_RESULT_OPENINGS[index])
        else:
            out.append(b',{"index":%d,"status":200,"result":' % index)
        serialize.write_hand(out, result, comparisons, shape)
        out.append(b"}")
    out.append(b"]")
    return failed, seen


# A scored hand's entry up to its answer, by its index, after a comma but for the first:
# no bytes formatted a hand, one piece fewer (a batch holds at most 1,000 hands).
_RESULT_OPENINGS: Final = tuple(
    [
        (b"," if index else b"") + b'{"index":%d,"status":200,"result":' % index
        for index in range(1024)
    ]
)


def _add_problem(out: list[bytes], index: int, status: int, problem: Any) -> None:
    """Append a refused item's entry to ``out``, after a comma but for the first."""
    if index:
        out.append(b",")
    out.append(batch_entry(index, status, "problem", problem))


def batch_entry(index: int, status: int, name: str, answer: Any) -> bytes:
    """One entry of a batch's ``results`` (``name``: result or problem), serialized."""
    return _dumps({"index": index, "status": status, name: answer})
