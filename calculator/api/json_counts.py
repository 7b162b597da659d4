"""Counts over a parsed JSON value, made in one walk (compiled with the engine: each runs
on every body, a batch's thousand hands included).

:func:`entries` is what :mod:`calculator.api.json_keys` compares with the body's colons to
know, without writing the value back, that no object of the body gives a name twice.
"""

from __future__ import annotations

from typing import Final

NESTING: Final = 254
"""The most levels of containers orjson writes (it reads 1,024): a value nested deeper is
no request, and these walks do not go down it (nor would pure Python's recursion)."""


def entries(value: object, depth: int = 1) -> int:
    """How many entries the objects of ``value`` hold, nested ones included (what a JSON
    text of it spells as ``name: value``), or -1 for a value nested deeper than
    :data:`NESTING` (``depth`` is ``value``'s level)."""
    if isinstance(value, dict):
        if depth > NESTING:
            return -1
        # its values as a list: one loop for both containers (a few objects a hand)
        inner = _within(list(value.values()), depth)
        return -1 if inner < 0 else len(value) + inner
    if isinstance(value, list):
        if depth > NESTING:
            return -1
        return _within(value, depth)
    return 0


def _within(values: list[object], depth: int) -> int:
    """The entries of the objects in ``values``, the members of a container at ``depth``
    (-1 past :data:`NESTING`)."""
    total = 0
    for entry in values:
        if isinstance(entry, (dict, list)):
            inner = entries(entry, depth + 1)
            if inner < 0:
                return -1
            total += inner
    return total
