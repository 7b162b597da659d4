"""Duplicate names in a JSON object, found without a second parse in the common case.

orjson keeps the last of two equal names (``{"stake": 100, "stake": 5}`` reads as stake 5)
and cannot report them; RFC 8259 §4 leaves such a document's meaning to the reader, so
the service refuses it (:func:`calculator.api.http.read_json`). The check is exact, and on
a body that spells no name twice costs orjson writing the parsed value back (about a
fifth of reading it) and three byte counts (:func:`duplicated`):

- the body's colons are one per name it spells, plus those inside its strings;
- the parsed value written back (compact) has one per entry of its objects, plus those
  inside its strings: the same strings' colons, as long as the body spells none as an
  escape (``\u003a``), and the strings of a name given twice are gone with it.

So equal counts mean no name was given twice. Otherwise (or when the value cannot be
written: nested deeper than orjson writes) the entries are counted by a walk
(:func:`entry_count`) against the colons after a ``"`` (:func:`name_bound`), and only if
those still differ — a name given twice, or strings holding ``":`` — is the body parsed
again by the standard library, which sees every name (:func:`duplicate_pointer`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

import orjson

_SPACED: Final = re.compile(rb'"[ \t\r\n]+:')


def colon_bound(data: bytes) -> int:
    """How many names ``data`` can spell at most: its colons (one ends each name)."""
    return data.count(b":")


def name_bound(data: bytes) -> int:
    """How many names ``data`` can spell at most, closer than :func:`colon_bound`: the
    colons right after a ``"`` (whitespace allowed between), as each name's is."""
    found = data.count(b'":')
    if b'" ' in data or b'"\n' in data or b'"\t' in data or b'"\r' in data:
        found += len(_SPACED.findall(data))
    return found


def entry_count(value: Any) -> int:
    """The entries of every object in ``value`` (a parsed JSON document), without
    recursion: orjson reads 1,024 levels, past Python's default recursion limit."""
    if type(value) is not dict and type(value) is not list:
        return 0
    count = 0
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            count += len(node)
            for child in node.values():
                if type(child) is dict or type(child) is list:
                    stack.append(child)
        else:
            for child in node:
                if type(child) is dict or type(child) is list:
                    stack.append(child)
    return count


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


def duplicated(data: bytes, document: Any) -> str | None:
    """The pointer of a name given twice in an object of ``data``, which parsed as
    ``document``; None when every name is given once (the usual case, decided by counts)."""
    colons = colon_bound(data)
    if b"\\u003" not in data:  # no escape that could spell a colon (\u003a, \u003A)
        try:
            if orjson.dumps(document).count(b":") == colons:
                return None
        except orjson.JSONEncodeError:  # nested past what orjson writes
            pass
    entries = entry_count(document)
    if colons == entries or name_bound(data) == entries:
        return None
    return duplicate_pointer(data)
