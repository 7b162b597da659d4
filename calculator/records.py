"""The base of the domain's records: immutable values, equal and hashed by their fields.

A record names its fields once more in ``_fields`` (its constructor's parameters, in
order) and gives their values in that order from ``_values``. Compiled (mypyc), a record
is a native class: built by a direct call and read from its struct, where a named tuple
was built through ``tuple.__new__``, a generic call (~0.9k instructions with its argument
tuple; bench/RESULTS.md, nineteenth session), and freed at a tuple's cost. Records that key
a cache on the hot path (the answer's steps, items and payments) spell ``_values`` out
and compare field by field; the others read their fields by name. A class that writes
its own ``__eq__`` writes ``__hash__`` again too (Python drops an inherited ``__hash__``
from a class that defines ``__eq__``), of every field its ``__eq__`` compares (an item's
IDs follow from its mask), mixed natively (:func:`mix`: a tuple of the fields, built and
hashed, cost ~5.7k instructions a batched hand). A hash that left fields out let records
that differ only in those share one bucket: the answer's caches of steps, payments and
winners (calculator/api/serialize.py, thousands of entries each) grew one collision
chain from hands that differ in a player ID, a streak or a 피박's count, and every later
look-up walked it (a 1,000-hand batch took 1.8 s of CPU after a few others;
bench/RESULTS.md, thirty-second session). A client's text (a player ID) is mixed in by
its own hash (:func:`text_hash`: randomized per process, so no client can choose IDs
that collide); the service's own codes by :func:`code_key`. Compiled, every field
is read-only (``Final``); interpreted, mypy holds the code to that.

>>> from calculator.result import Step
>>> step = Step("go_bonus", "add", 2, 9, 2)
>>> step == Step("go_bonus", "add", 2, 9, 2), step._replace(total=10).total
(True, 10)
>>> step
Step(code='go_bonus', op='add', value=2, total=9, times=2, player=None, facts=())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

if TYPE_CHECKING:
    # a native 64-bit integer, compiled; ``int`` at run time (as in calculator.scoring)
    from mypy_extensions import i64

HASH_BITS: Final = (1 << 61) - 1
"""What a written-out ``__hash__`` keeps of its mix: compiled, an integer past 62 bits is
boxed, and a hash past 64 an OverflowError."""

_MIX: Final = 1_000_003  # odd, and larger than any count or small amount a field holds
_LOW: Final = (1 << 30) - 1
# The widest value held unboxed, compiled (a "short" tagged int: 63 bits with its sign);
# anything wider is mixed the slow way, by the same arithmetic.
_SHORT: Final = (1 << 62) - 1


def mix(found: i64, value: int) -> i64:
    """``found`` (a hash so far: a key, a text's hash or a mix, never wider than 64
    bits) with one more field's integer mixed in: each field moves the bits of those
    before it, so fields with small values (counts, points) do not cancel one another
    out. The low 30 bits are multiplied, the high ones folded in: compiled, a product is
    a machine multiplication only while both factors are below 2**30 (past that, mypyc
    multiplies boxed integers: ~500 instructions a field, 6k a step's hash).

    ``found`` is native (i64), as the hashes hold it from field to field: compiled, a
    tagged ``found`` was tested for its width and converted at every field, and the
    result converted back (~52 instructions a field, ~30 now).

    A value that fits 63 bits is mixed in native 64-bit arithmetic (i64): the same bits
    (two's complement, as Python's ``^``, ``&`` and ``>>`` read a negative int, and a
    product below 2**50), where each operation on a tagged int tests its tag first and
    may box its result (~80 instructions a field, ~25 here). Written here, not called:
    a call of its own cost ~12 instructions a field (~45 fields a batched hand)."""
    if -_SHORT <= value <= _SHORT:
        # (its own names: compiled, a name is of one type in the whole function, and
        # the boxed path's below would be narrowed to i64)
        narrow: i64 = value
        bits = found ^ narrow
        bits = (bits & 0x3FFFFFFF) * 1_000_003 ^ bits >> 30
        return ((bits & 0x3FFFFFFF) * 1_000_003 ^ bits >> 30) & 0x1FFFFFFFFFFFFFFF
    # the value folded in before the products (after them, a value could cancel the
    # bits of the field before it that the product left as they were: a step whose
    # total was its factor × 2**30 hashed alike whatever the factor), two rounds, on
    # boxed integers (``found`` widened first: i64 ^ int would narrow the value)
    wide: int = found
    mixed = wide ^ value
    mixed = (mixed & _LOW) * _MIX ^ mixed >> 30
    return ((mixed & _LOW) * _MIX ^ mixed >> 30) & HASH_BITS


def text_hash(text: str | None) -> i64:
    """A client's text in a record's hash (a player ID, or None): its own hash, which
    Python randomizes per process, cut to :data:`HASH_BITS` (in native arithmetic: a hash
    is most often wider than a short tagged int, and cutting the boxed one cost ~500
    instructions)."""
    if text is None:
        return 0
    found: i64 = hash(text)
    return found & 0x1FFFFFFFFFFFFFFF


def code_key(code: str) -> i64:
    """One of the service's own codes in a record's hash: its length and its last two
    characters, read without hashing it (the codes are few and fixed; two that share
    these share a bucket, told apart by equality)."""
    size: i64 = len(code)
    if size < 2:
        return size
    return size << 16 | ord(code[-2]) << 8 | ord(code[-1])


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
