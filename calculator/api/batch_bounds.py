"""What a batch may cost in answer bytes, checked before any hand is scored (issue #12 §2).

Two rules, both from counts known once the body is parsed:

- **each item obeys one hand's body limit** (``max_body_bytes``, 64 KiB): an item's size is
  its length as compact JSON (what :func:`item_sizes` measures with orjson: never longer
  than the item's text in the body, except for number spellings the schema refuses anyway).
  A larger item gets the 413 problem a single request with that body would get, naming
  the item and the limit, and is not read further;
- **the answer's size is bounded** (``max_answer_bytes``, 12 MiB): :func:`answer_bound`
  adds up an upper bound of each item's answer; over the limit, the whole batch is refused
  (422 ``answer_too_large``, pointer ``/hands``) before any hand is scored, saying the
  bound, the limit and how many of these hands would fit.

Both are decided on each item's size, but most items need not be written to know it:
:func:`json_bound` bounds an item's compact JSON from its strings' lengths and its
structure, cheaper than orjson writing it (~8k instructions a 3-player hand, not ~12k).
An item within the body limit by its bound is within it by its size; only the others are
measured (:func:`size_bounds`). The answer bound grows with each item's size, so a batch
that fits by its items' bounds fits by their sizes; one that does not has its items
measured one at a time until it fits, or is decided on all its sizes, which the 422
states (:func:`refusal`). (1,000 realistic 3-player hands fit by their bounds, 11.2 MB
against 12.6; with 40-character player IDs some of them are measured.)

An item nested deeper than orjson writes (:data:`NESTING`; it reads 1,024) is no hand: it
has no size (:data:`UNBOUNDED`) and is refused unread, a 400 ``malformed_json`` for that
item (:func:`oversized`), as a single request's body nested past what orjson reads is.

An item answers either a result or a problem, so its bound is the larger of the two:

- a result: ``(1 + compare_with) × (settlement + players × player + events × players ×
  event)`` bytes — the hand's settlement and each comparison's, each with its players'
  entries and a side payment per event and player. Counts are read from the raw item and
  capped at the schema's maxima (an item over them is refused, with a problem);
- a problem: at most :data:`ITEM_PROBLEMS` errors (then one "and more" entry) of
  ``error`` bytes each, plus the envelope (three errors' worth), plus twice the item's
  size: a pointer quotes an unknown field's name whole (``~`` escaped as ``~0``).

The per-unit figures are upper bounds measured on the full answers (the rule set echoed
whole, 40-character player IDs, every step), with margin; a smaller answer format keeps
them upper bounds. ``tests/api/test_batch_bounds.py`` holds every answer of a corpus of
worst cases under its bound, and the refusal at the boundary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import orjson

from calculator.api.config import Settings
from calculator.api.errors import problem
from calculator.api.json_counts import NESTING, entries
from calculator.api.schemas import MAX_COMPARISONS, MAX_EVENTS, MAX_PLAYERS
from calculator.errors import counted

if TYPE_CHECKING:
    # a native 64-bit integer, compiled; ``int`` at run time (never imported then: the
    # annotations are not evaluated, and mypy_extensions is no dependency of the service)
    from mypy_extensions import i64

ITEM_PROBLEMS: Final = 10
"""Most errors a batch item's problem lists (a single request lists 50): a bad item's
problem stays within what its result could take, so one bound covers both outcomes."""


UNBOUNDED: Final = 1 << 62
"""What :func:`json_bound` says of a value orjson.loads never returns or nests past
:data:`NESTING`: no bound (then the item is measured); the size of an item orjson cannot
write."""

_I64: Final = -(1 << 63)
_U64: Final = 1 << 64


def item_sizes(items: list[Any]) -> list[int]:
    """Each item's size: its length as compact JSON (:func:`_size`)."""
    return [_size(item) for item in items]


def _size(item: Any) -> int:
    """``item``'s length as compact JSON, or :data:`UNBOUNDED` for an item nested deeper
    than orjson writes (:data:`NESTING`; it reads 1,024 levels): no hand, refused unread
    (:func:`oversized`)."""
    try:
        return len(orjson.dumps(item))
    except orjson.JSONEncodeError:
        return UNBOUNDED


def json_bound(value: Any, depth: int = 1) -> int:
    """An upper bound of ``value``'s length as compact JSON, without writing it: 6 bytes a
    character of a string (``\\u001f``; a character is at most 4 bytes of UTF-8), 20 a
    64-bit integer, 24 a float (``-2.9205048131065683e-196``), every separator counted.
    Values orjson.loads never returns (tuples, integers past 64 bits, keys not strings)
    and containers nested deeper than :data:`NESTING` (``depth`` is ``value``'s level) are
    :data:`UNBOUNDED`: whoever needs their size measures them."""
    # isinstance, not type(…) is: it narrows value for mypyc's plain str/dict/list/int
    # operations, and orjson writes a subclass of these four as it writes the class
    if isinstance(value, str):
        return 6 * len(value) + 2
    if isinstance(value, dict):
        if depth > NESTING:
            return UNBOUNDED
        # braces, a colon and at most one comma an entry; strings by their characters,
        # added up and multiplied once (most entries are strings: no call for them)
        total = 2 + 2 * len(value)
        characters = 0
        for key, entry in value.items():
            if type(key) is not str:
                return UNBOUNDED
            characters += len(key)
            if isinstance(entry, str):
                characters += len(entry)
                total += 4
            else:
                total += 2 + json_bound(entry, depth + 1)
        return total + 6 * characters
    if isinstance(value, list):
        if depth > NESTING:
            return UNBOUNDED
        total = 2 + len(value)  # brackets, at most one comma an entry
        characters = 0
        for entry in value:
            if isinstance(entry, str):
                characters += len(entry)
                total += 2
            else:
                total += json_bound(entry, depth + 1)
        return total + 6 * characters
    if isinstance(value, bool):  # before int, of which it is a subclass
        return 5
    if isinstance(value, int):
        if -99 <= value <= 999:
            return 3
        return 20 if _I64 <= value < _U64 else UNBOUNDED
    if type(value) is float:  # orjson writes no subclass of float
        return 24
    if value is None:
        return 4
    return UNBOUNDED


class Walk:
    """One walk of a batch body for the two counts made of it: the entries of its objects
    (what :func:`calculator.api.json_keys.duplicated` compares with the body's colons,
    :func:`~calculator.api.json_counts.entries`) and each item's :func:`json_bound` (what
    :func:`refusal` decides on): ~3.5k instructions a hand less than two walks (callgrind,
    2026-12-06; the entries' own walk cost ~4.8k).

    :meth:`entries` is ``json_counts.entries``, exactly; for a batch's shape (an object
    whose one name is ``hands``, an array) it keeps each item's bound in :attr:`bounds` on
    the way. An item the one walk is not sure of (nested near :data:`NESTING`, a value
    json_bound does not bound) is counted by each function on its own.
    """

    bounds: list[int] | None

    def __init__(self) -> None:
        self.bounds = None

    def entries(self, document: object) -> int:
        """``json_counts.entries(document)``; each item's json_bound in :attr:`bounds`
        (None for a document of another shape)."""
        self.bounds = None
        if not isinstance(document, dict) or len(document) != 1:
            return entries(document)
        items = document.get("hands")
        if not isinstance(items, list):
            return entries(document)
        bounds: list[int] = []
        total = 1  # the document's one entry; the array's members are at depth 3
        for item in items:
            measured, inner = _measured(item, 1)
            if measured < 0:  # not sure: each function on its own
                # an int, not an i64: json_bound passes 2**63 for a few values it does not
                # bound in one item (each UNBOUNDED)
                bounds.append(json_bound(item))
                inner = entries(item, 3)
            else:
                bounds.append(measured)
            if inner < 0 or total < 0:
                total = -1
            else:
                total += inner
        self.bounds = bounds
        return total


def _measured(value: object, depth: int) -> tuple[i64, i64]:
    """``(json_bound(value, depth), json_counts.entries(value, depth + 2))`` (``value``
    an item of a batch, or in one: ``depth`` is its level in the item, two more in the
    body), made in one walk; ``(-1, 0)`` where the walk is not sure (a container at a
    level where either function stops, a key not a string, a value json_bound does not
    bound): then the caller asks each function.

    Its sums in native 64-bit integers (i64; a batch's body is far from 2**62 bytes): on
    a tagged int each operation tests its tag first, and the walk adds a few numbers for
    every value of every hand."""
    if isinstance(value, str):
        size: i64 = len(value)
        return 6 * size + 2, 0
    if isinstance(value, dict):
        if depth + 2 > NESTING:
            return -1, 0
        # as json_bound: braces, a colon and at most one comma an entry, strings by their
        # characters; entries: this object's and those of the containers in it
        count: i64 = len(value)
        total: i64 = 2 + 2 * count
        characters: i64 = 0
        for key, entry in value.items():
            if type(key) is not str:
                return -1, 0
            characters += len(key)
            if isinstance(entry, str):
                characters += len(entry)
                total += 4
            else:
                bound, inner = _measured(entry, depth + 1)
                if bound < 0:
                    return -1, 0
                total += 2 + bound
                count += inner
        return total + 6 * characters, count
    if isinstance(value, list):
        if depth + 2 > NESTING:
            return -1, 0
        members: i64 = len(value)
        total = 2 + members
        characters = 0
        count = 0
        for entry in value:
            if isinstance(entry, str):
                characters += len(entry)
                total += 2
            else:
                bound, inner = _measured(entry, depth + 1)
                if bound < 0:
                    return -1, 0
                total += bound
                count += inner
        return total + 6 * characters, count
    scalar = json_bound(value, depth)  # a scalar: no entries
    return (-1, 0) if scalar >= UNBOUNDED else (scalar, 0)


def size_bounds(items: list[Any], largest: int, bounds: list[int] | None = None) -> list[int]:
    """For each item, an upper bound of its size if that is at most ``largest``, else its
    size: what the per-item limit and the answer bound need, most items never written.
    ``bounds``: each item's :func:`json_bound`, if made already (:class:`Walk`).

    An item within the limit by its bound is within it by its size; one that is not is
    measured, so each item's 413 is decided on its size, and the answer bound made with
    these is never below the one made with the sizes (each item's bound grows with its
    size)."""
    if bounds is not None and len(bounds) != len(items):
        raise ValueError("one bound per item")
    sizes: list[int] = []
    for index, item in enumerate(items):
        bound = json_bound(item) if bounds is None else bounds[index]
        sizes.append(bound if bound <= largest else _size(item))
    return sizes


def oversized(index: int, size: int, settings: Settings) -> dict[str, Any]:
    """The problem of a batch item larger than one hand's body may be (413, as a single
    request with that body would get), or, with no size (:data:`UNBOUNDED`), nested deeper
    than :data:`NESTING` levels (400 ``malformed_json``: no hand is)."""
    pointer = f"/hands/{index}"
    if size >= UNBOUNDED:
        detail = (
            f"hands[{index}] is nested more than {NESTING} levels deep; a hand is a JSON "
            "object a few levels deep"
        )
        errors = [{"pointer": pointer, "code": "malformed_json", "detail": detail}]
        return problem(400, "Bad Request", detail, errors=errors)
    detail = (
        f"hands[{index}] is {size} bytes as JSON; one hand may be at most "
        f"{settings.max_body_bytes} bytes (the limit of POST /v1/gostop/hands)"
    )
    errors = [{"pointer": pointer, "code": "body_too_large", "detail": detail}]
    return problem(413, "Content Too Large", detail, errors=errors)


def item_bounds(items: list[Any], sizes: list[int], settings: Settings) -> list[int]:
    """An upper bound of the bytes each item's entry in the answer may take, in order (one
    plain loop, the settings read once: this runs for every hand of every batch, compiled)."""
    if len(items) != len(sizes):
        raise ValueError("one size per item")
    error = settings.answer_error_bytes
    largest = settings.max_body_bytes
    settlement = settings.answer_settlement_bytes
    per_player = settings.answer_player_bytes
    per_event = settings.answer_event_bytes
    problem = (ITEM_PROBLEMS + 1 + 3) * error
    bounds: list[int] = []
    for index, item in enumerate(items):
        size = sizes[index]
        if size > largest:
            bounds.append(3 * error)  # the oversized problem: one error, nothing quoted
            continue
        players = events = comparisons = 0
        if isinstance(item, dict):
            # each count read from the raw item, capped at the schema's maximum
            value = item.get("players")
            if isinstance(value, list):
                players = min(len(value), MAX_PLAYERS)
            value = item.get("events")
            if isinstance(value, list):
                events = min(len(value), MAX_EVENTS)
            value = item.get("compare_with")
            if isinstance(value, list):
                comparisons = min(len(value), MAX_COMPARISONS)
        result = (1 + comparisons) * (settlement + players * (per_player + events * per_event))
        bounds.append(max(result, problem + 2 * size))
    return bounds


def item_bound(item: Any, size: int, settings: Settings) -> int:
    """An upper bound of the bytes ``item``'s entry in the answer may take."""
    return item_bounds([item], [size], settings)[0]


def answer_bound(items: list[Any], sizes: list[int], settings: Settings) -> int:
    """An upper bound of the batch answer's bytes: the sum of its items' bounds."""
    return _answer_bound(item_bounds(items, sizes, settings), settings)


def _answer_bound(bounds: list[int], settings: Settings) -> int:
    """The answer's bound given its items' bounds: the envelope and each item's."""
    return settings.answer_error_bytes + sum(bounds)


def refusal(
    items: list[Any], settings: Settings, bounds: list[int] | None = None
) -> tuple[list[int], dict[str, Any] | None]:
    """The sizes that decide each item's 413 (:func:`size_bounds`, given the items'
    ``bounds`` if made already) and the 422 problem of a batch whose answer could pass
    the limit, or None (:func:`too_large`, on the sizes).

    The bounds only admit a batch the sizes admit. A batch over the limit by its items'
    bounds has them replaced by their sizes, one item at a time, until it fits (an item's
    bound only falls with its size), or, measured whole, it is decided on its sizes."""
    sizes = size_bounds(items, settings.max_body_bytes, bounds)
    answers = item_bounds(items, sizes, settings)
    excess = _answer_bound(answers, settings) - settings.max_answer_bytes
    if excess <= 0:
        return sizes, None
    for index, item in enumerate(items):
        size = _size(item)
        if size != sizes[index]:
            sizes[index] = size
            excess -= answers[index] - item_bound(item, size, settings)
            if excess <= 0:
                return sizes, None
    return sizes, too_large(items, sizes, settings)


def too_large(items: list[Any], sizes: list[int], settings: Settings) -> dict[str, Any] | None:
    """The 422 problem (``answer_too_large``) of a batch whose answer could pass the limit,
    or None."""
    limit = settings.max_answer_bytes
    bounds = item_bounds(items, sizes, settings)
    bound = _answer_bound(bounds, settings)
    if bound <= limit:
        return None
    total, fit = settings.answer_error_bytes, 0
    for item_bytes in bounds:
        total += item_bytes
        if total > limit:
            break
        fit += 1
    detail = (
        f"the answer to these {len(items)} hands could take up to {bound} bytes; the limit "
        f"is {limit} bytes: send them in smaller batches (the first {fit} fit), or with "
        "fewer compare_with rule sets"
    )
    return problem(
        422,
        "The answer would be too large",
        detail,
        errors=[{"pointer": "/hands", "code": "answer_too_large", "detail": detail}],
    )


def cut(problem_body: dict[str, Any]) -> dict[str, Any]:
    """A batch item's problem with at most :data:`ITEM_PROBLEMS` errors listed."""
    errors = problem_body.get("errors") or []
    if len(errors) <= ITEM_PROBLEMS + 1:
        return problem_body
    more = len(errors) - ITEM_PROBLEMS
    last = {
        "pointer": _item(errors[0]),
        "code": "too_many_problems",
        "detail": (
            f"and {counted(more, 'more problem')} or more, not listed in a batch: send this hand "
            "alone (POST /v1/gostop/hands) to see up to 50"
        ),
    }
    return {**problem_body, "errors": [*errors[:ITEM_PROBLEMS], last]}


def _item(error: dict[str, str]) -> str:
    """The pointer of the batch item an error is in (``/hands/N``)."""
    return "/".join(error["pointer"].split("/")[:3])
