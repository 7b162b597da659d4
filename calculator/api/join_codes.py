"""Join codes: 8 Crockford base32 characters (40 bits from :mod:`secrets`) that a second
phone types — or scans, as the join link's QR code — to follow a table.

Crockford's alphabet has no I, L, O or U, so what a person reads aloud or retypes from a
chat is read back the forgiving way: any case, I and L as 1, O as 0, hyphens and spaces
left out.

>>> normalize_join_code(" 7k3m-q8lo ")
'7K3MQ810'
>>> normalize_join_code("7K3MQ8U0") is None  # U is not a Crockford digit
True
>>> join_url("https://gostop.example.org/", "7K3MQ810")
'https://gostop.example.org/?join=7K3MQ810'
"""

from __future__ import annotations

import re
import secrets

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
JOIN_CODE_LENGTH = 8  # 32**8 = 2**40 codes
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})
_IGNORED = re.compile(r"[\s\-]+")
_CODE = re.compile(f"[{CROCKFORD}]{{{JOIN_CODE_LENGTH}}}")


def new_join_code() -> str:
    """A fresh random join code (the store refuses one already taken: draw again)."""
    return "".join(secrets.choice(CROCKFORD) for _ in range(JOIN_CODE_LENGTH))


def normalize_join_code(text: str) -> str | None:
    """``text`` as a join code in its canonical form, or None when it cannot be one."""
    code = _IGNORED.sub("", text).upper().translate(_READ_AS)
    return code if _CODE.fullmatch(code) else None


def join_url(root: str, code: str) -> str:
    """The join link: the scorekeeper page at the service's root, told which table."""
    return f"{root.rstrip('/')}/?join={code}"
