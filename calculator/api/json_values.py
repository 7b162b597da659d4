"""What the strict fields take of a JSON value: which numbers are whole numbers, and
which characters a string refuses.

Rules, not fields: the strict fields (calculator/api/fields.py) apply them, and the schemas
that read a value themselves (a session's or a table's amounts) call them too, so that one
rule holds wherever a value is read. The fields' coded messages are in
calculator/api/coded_errors.py.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from typing import Any

_CONTROL_CHARS = "\x00-\x1f\x7f-\x9f\ud800-\udfff"  # categories Cc and Cs
# Category Cf (Unicode 14, Python 3.11): bidi overrides and isolates, zero-width characters,
# the soft hyphen, tags — invisible, and able to make one id look like another. As ranges,
# because enumerating the category at import costs 0.2 s; a test holds them to unicodedata.
FORMAT_CHARS = (
    "\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f"
)
ZWJ = "\u200d"
"""The zero-width joiner (U+200D), which joins two emoji into one."""
_EMOJI_MODIFIERS = frozenset(["\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))])  # VS16, skin tones
CONTROL_CHAR = re.compile(f"[{_CONTROL_CHARS}]")
"""A control character (categories Cc and Cs), which a strict string refuses."""
FORMAT_CHAR = re.compile(f"[{FORMAT_CHARS}]")
"""An invisible formatting character (:data:`FORMAT_CHARS`), which a strict string refuses
(a display name's zero-width joiner between two emoji aside: :func:`joins_emoji`)."""
REFUSED_CHAR = re.compile(f"[{_CONTROL_CHARS}{FORMAT_CHARS}]")
"""Either: the fast path's check (a string with one goes to the full load)."""


def joins_emoji(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a zero-width joiner inside an emoji ZWJ sequence: after an
    emoji (its variation selector or skin tone aside) and before another.

    >>> joins_emoji("👩\u200d💻", 1), joins_emoji("❤️\u200d🔥", 2), joins_emoji("a\u200d💻", 1)
    (True, True, False)
    >>> joins_emoji("💻\u200d", 1), joins_emoji("\u200d💻", 0)
    (False, False)
    """
    if text[at] != ZWJ or not 0 < at < len(text) - 1:
        return False
    before = at - 1
    while before > 0 and text[before] in _EMOJI_MODIFIERS:
        before -= 1
    return _is_emoji(text[before]) and _is_emoji(text[at + 1])


def _is_emoji(char: str) -> bool:
    return unicodedata.category(char) == "So"


def whole_number(value: Any) -> int | None:
    """``value`` as the integer it is, or None: the one rule for integers on the wire.

    JSON has one number type, and JSON Schema's ``integer`` is any number with a zero
    fractional part, so a client that sends ``2.0`` (JavaScript's ``2.0``, a float column)
    means 2. A fraction (2.5), a string ("2") and a boolean (true) are not integers and
    are refused, never truncated or coerced.

    >>> whole_number(2), whole_number(2.0), whole_number(-0.0)
    (2, 2, 0)
    >>> whole_number(2.5), whole_number("2"), whole_number(True), whole_number(float("inf"))
    (None, None, None, None)

    A float beyond 2^53 is refused too: it no longer says which integer the client wrote
    (orjson reads ``99999999999999999999999``, past 64 bits, as ``1e23``).
    """
    kind = type(value)
    if kind is int:
        return value  # type: ignore[no-any-return]
    if kind is float and value.is_integer() and abs(value) <= _EXACT:  # inf, nan: not integer
        return int(value)
    return None  # bool is an int subclass, but not ``int`` itself: JSON true is not a number


_EXACT = 2.0**53  # every integer up to here is exactly a float


def too_large_to_read(value: Any) -> bool:
    """Whether ``value`` is a whole number too large for :func:`whole_number` to say which
    (a float past 2^53: ``1e30``, or an integer past 64 bits that orjson read as one):
    above any maximum, and said so, not "expected a whole number"."""
    return type(value) is float and abs(value) > _EXACT and value - value == 0  # finite


def said_whole(value: float) -> str:
    """A whole number :func:`too_large_to_read` said as the integer the client wrote, as
    far as a double can tell, never in a float's notation the client did not write
    (``1.8446744073709552e+19``): by the shortest digits that read as the same double
    when those are at most 15 significant digits (a number written with so few is always
    read back exactly; one written with more, thirty 9s, reads as the same double as 1e30
    and is said so), else the integer the double holds
    (exact for one written to be: 2^64 is). Past 40 digits, its first 24 and how many
    (a problem's detail stays short: 1e308 is 309 digits).

    >>> said_whole(1e30), said_whole(-1.5e20)
    ('1000000000000000000000000000000', '-150000000000000000000')
    >>> said_whole(18446744073709551616.0), said_whole(1e300)
    ('18446744073709551616', '100000000000000000000000… (301 digits)')
    """
    shortest = Decimal(repr(value))
    if len(shortest.normalize().as_tuple().digits) <= _DIGITS_KEPT:
        said = f"{shortest:f}"
    else:
        said = str(int(value))
    digits = len(said.lstrip("-"))
    return said if digits <= 40 else f"{said[: 24 + (value < 0)]}… ({digits} digits)"


_DIGITS_KEPT = 15  # DBL_DIG: a decimal of so many significant digits survives a double
