"""The base of the domain's records: immutable values, equal and hashed by their fields.

A record names its fields once more in ``_fields`` (its constructor's parameters, in
order) and gives their values in that order from ``_values``. Compiled (mypyc), a record
is a native class: built by a direct call and read from its struct, where a named tuple
was built through ``tuple.__new__``, a generic call (~0.9k instructions with its argument
tuple; bench/RESULTS.md, nineteenth session), and freed at a tuple's cost. Records that key
a cache on the hot path (the answer's steps, items and payments) spell ``_values`` out
and compare field by field; the others read their fields by name. A class that writes
its own ``__eq__`` writes ``__hash__`` again too (Python drops an inherited ``__hash__``
from a class that defines ``__eq__``), of a few of its fields: equal records have equal
hashes whatever fields the hash leaves out, and records that differ only in those share a
bucket, where equality tells them apart. A step's ``facts``, a payment's or a winner's
steps and an item's IDs are tuples of their own, hashed anew each time: hashing every
field cost a hand ~13k instructions in the answer's cache look-ups (bench/RESULTS.md,
twentieth session); hashing a tuple of the few fields still cost ~5.7k a batched hand
(the tuple built, its numbers boxed, the hash boxed as often as not), so they mix the
fields in native arithmetic (:data:`HASH_BITS`, :func:`text_key`). Compiled, every field
is read-only (``Final``); interpreted, mypy holds the code to that.

>>> from calculator.result import Step
>>> step = Step("go_bonus", "add", 2, 9, 2)
>>> step == Step("go_bonus", "add", 2, 9, 2), step._replace(total=10).total
(True, 10)
>>> step
Step(code='go_bonus', op='add', value=2, total=9, times=2, player=None, facts=())
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, Self

HASH_BITS: Final = (1 << 61) - 1
"""What a written-out ``__hash__`` keeps of its mix: compiled, a hash past 62 bits is a
boxed integer, and one past 64 an OverflowError."""


def text_key(text: str) -> int:
    """A few bits of ``text`` for a record's hash, read without hashing it: its length
    and its last character. Compiled, ``hash(text)`` returns a boxed integer about every
    other time (a hash has 64 bits, a native int 62)."""
    return len(text) << 21 | ord(text[-1]) if text else 0


class Record:
    """A value record (see the module). Subclasses set ``_fields`` and build every field
    in ``__init__``, whose parameters are ``_fields`` in order."""

    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        """The fields' values, in ``_fields``' order."""
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        # of the same class alone (a named tuple was also equal to a plain tuple)
        return type(other) is type(self) and self._values() == other._values()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        pairs = zip(self._fields, self._values(), strict=True)
        return f"{type(self).__name__}({', '.join(f'{name}={value!r}' for name, value in pairs)})"

    def _replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (field name → value), as a named tuple's ``_replace``."""
        unknown = changes.keys() - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        values = dict(zip(self._fields, self._values(), strict=True))
        values.update(changes)
        return type(self)(**values)

    def __reduce__(self) -> tuple[type[Self], tuple[object, ...]]:
        # copy and pickle rebuild it from its values (compiled, a native class has no
        # other way: its __init__ takes every field)
        return (type(self), self._values())

    def _asdict(self) -> dict[str, Any]:
        """Field name → value, in order."""
        return dict(zip(self._fields, self._values(), strict=True))
