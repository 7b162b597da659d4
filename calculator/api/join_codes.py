"""Join codes: 8 Crockford base32 characters (40 bits from :mod:`secrets`) that a second
phone types — or scans, as the join link's QR code — to follow a table.

Crockford's alphabet has no I, L, O or U, so what a person reads aloud, retypes or pastes
from a chat is read back the forgiving way: any case and width (a Korean keyboard's
full-width ``ＫＢＶＤ`` is KBVD), I and L as 1, O as 0, hyphens, spaces, line breaks and
invisible characters (a BOM, a zero-width space) left out; a pasted join link gives its
code.

>>> normalize_join_code(" 7k3m-q8lo ")
'7K3MQ810'
>>> normalize_join_code("7K3MQ8U0") is None  # U is not a Crockford digit
True
>>> normalize_join_code("\\ufeff７Ｋ３Ｍ－Ｑ８１０\\r\\n")
'7K3MQ810'
>>> normalize_join_code("https://gostop.example.org/?join=7K3MQ810")
'7K3MQ810'
>>> join_url("https://gostop.example.org/", "7K3MQ810")
'https://gostop.example.org/?join=7K3MQ810'
"""

from __future__ import annotations

import re
import secrets
import unicodedata

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
JOIN_CODE_LENGTH = 8  # 32**8 = 2**40 codes
# What a person may paste: the code with its decorations, or the join link (a service's
# root URL and ?join=CODE).
MAX_JOIN_INPUT = 512
ALPHABET_TEXT = (
    "8 characters from 0-9 and A-Z without U (any case; I and L read as 1, O as 0; "
    "spaces, hyphens and line breaks ignored), or the join link"
)
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})
_LINK = re.compile(r"[?&#]join=([^&#]*)", re.IGNORECASE)
_CODE = re.compile(f"[{CROCKFORD}]{{{JOIN_CODE_LENGTH}}}")
_IGNORED_CATEGORIES = frozenset(("Cc", "Cf", "Pd", "Zs", "Zl", "Zp"))  # controls, format
# characters (BOM, zero-width), dashes, spaces and line separators


def new_join_code() -> str:
    """A fresh random join code (the store refuses one already taken: draw again)."""
    return "".join(secrets.choice(CROCKFORD) for _ in range(JOIN_CODE_LENGTH))


def normalize_join_code(text: str) -> str | None:
    """``text`` as a join code in its canonical form, or None when it cannot be one."""
    folded = unicodedata.normalize("NFKC", text)  # full-width letters and digits as ASCII
    link = _LINK.search(folded)
    if link is not None:
        folded = link.group(1)
    kept = "".join(c for c in folded if unicodedata.category(c) not in _IGNORED_CATEGORIES)
    code = kept.upper().translate(_READ_AS)
    return code if _CODE.fullmatch(code) else None


def join_url(root: str, code: str) -> str:
    """The join link: the scorekeeper page at the service's root, told which table.

    ``root`` is the request's ``host_url``; a request whose Host header werkzeug finds
    invalid (a space, a bad port…) has none (``http:///``), and the link is then relative
    to the service's root rather than a broken ``http:/?join=…``.

    >>> join_url("http:///", "7K3MQ810")
    '/?join=7K3MQ810'
    """
    base = root.rstrip("/")
    if base.endswith(":"):  # a scheme and no host
        base = ""
    return f"{base}/?join={code}"
