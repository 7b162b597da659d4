"""Duplicate names in a JSON object, found by counts; a second parse only names one.

orjson keeps the last of two equal names (``{"stake": 100, "stake": 5}`` reads as stake 5)
and cannot report them; RFC 8259 §4 leaves such a document's meaning to the reader, so
the service refuses it (:func:`calculator.api.http.read_json`). Whether a body gives a name
twice is decided exactly (:func:`duplicated`) from the body's colons: one per name it
spells, plus the colons its strings spell as a colon (the escape ``\\u003a`` is no colon
byte).

- **First, the entries** of the parsed value's objects, counted in one compiled walk
  (:func:`calculator.api.json_counts.entries`): a name given twice is one entry fewer
  than the names spelt, so entries equal to colons means that every name was given once
  and that no string holds a colon. Most bodies are decided here (a hand's strings are
  IDs and words).
- **Else, the value written back**: orjson writes the parsed value (compact, unescaped),
  at about a fifth of the cost of reading it; it has one colon per entry, plus the
  colons of the same strings, all written as colons (:func:`escaped_colons` counts those
  the body escaped); a name given twice is one entry fewer, and the strings of the value
  it drops are gone with it. So the two counts are equal exactly when no name is given
  twice.

Only when they differ, to name the duplicate's pointer, is the body parsed again by the
standard library, which hands every name to a hook (:func:`duplicate_pointer`) — for a
body of a single request's size at most (:data:`POINTER_SEARCH_BYTES`): a larger one is
refused without the pointer, so that no body makes the refusal cost more than reading it
a few times over.

A value nested deeper than orjson writes (254 levels; it reads 1,024) is neither walked
nor written back: it is left to the schemas, none of which takes a document that deep.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Final

import orjson

from calculator.api.json_counts import entries

POINTER_SEARCH_BYTES: Final = 64 * 1024
"""The largest body whose duplicate name is located (one hand's body limit): a batch or an
import past it is refused at pointer ``""``, the whole body."""

# \u003a or \u003A whose backslash is no escaped one (after an even run of backslashes)
_ESCAPED_COLON: Final = re.compile(rb"(?<!\\)(?:\\\\)*\\u003[aA]")


def escaped_colons(data: bytes) -> int:
    """How many colons the strings of ``data`` spell as the escape ``\\u003a``."""
    if b"\\u003" not in data:
        return 0
    if b"\\\\u003" not in data:  # no escaped backslash before one: each is an escape
        return data.count(b"\\u003a") + data.count(b"\\u003A")
    return len(_ESCAPED_COLON.findall(data))


class _Object(dict[str, Any]):
    """A parsed object that remembers the first name its text gave twice."""

    duplicate: str | None = None


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    found = _Object(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for name, _value in pairs:
            if name in seen:
                found.duplicate = name
                break
            seen.add(name)
    return found


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """A pointer's reference token as the name it stands for (RFC 6901 §4)."""
    return token.replace("~1", "/").replace("~0", "~")


def duplicate_pointer(data: bytes) -> str | None:
    """The JSON pointer of the first name (in document order) that an object of ``data``
    gives twice, or None: ``data`` parsed again by the standard library, which hands
    every name to a hook. A document it cannot read (nested past its recursion limit, an
    integer of more digits than it converts) is no hand either way: None."""
    try:
        document = json.loads(data.decode(), object_pairs_hook=_pairs)
    except (RecursionError, ValueError):  # UnicodeDecodeError too: orjson read it anyway
        return None
    # depth first, in document order: (value, its pointer)
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, _Object):
            if node.duplicate is not None:
                return f"{at}/{_escape(node.duplicate)}"
            stack.extend((child, f"{at}/{_escape(name)}") for name, child in reversed(node.items()))
        elif type(node) is list:
            stack.extend((child, f"{at}/{i}") for i, child in reversed(list(enumerate(node))))
    return None


def duplicated(data: bytes, document: Any, count: Callable[[Any], int] = entries) -> str | None:
    """Where an object of ``data`` (parsed as ``document``) gives a name twice: the pointer
    of the first, ``""`` past :data:`POINTER_SEARCH_BYTES` (the whole body); None when
    every name is given once (decided by the counts, see the module). ``count`` counts
    the document's entries: :func:`~calculator.api.json_counts.entries`, or a walk that
    answers the same and measures more on the way (batch_bounds.Walk)."""
    colons = data.count(b":")
    if count(document) == colons:
        return None
    try:
        written = orjson.dumps(document)
    except orjson.JSONEncodeError:  # nested past what orjson writes: see the module
        return None
    if written.count(b":") == colons + escaped_colons(data):
        return None
    if len(data) > POINTER_SEARCH_BYTES:
        return ""
    return duplicate_pointer(data) or ""
