"""Names as people read them: what a chat app, an editor or another phone may change in a
name without a reader seeing it (the share text's reading,
calculator/ledger/share_reading.py, a table's roster, calculator/ledger/checks.py, and a
session's players, calculator/session.py, tell names apart by the same rule)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from calculator.limits import quote

# a soft hyphen, zero-width space, word joiner, BOM, variation selectors (not the zero-width
# joiner and non-joiner: they are part of an emoji or a word, as a name holds them)
_INVISIBLE = re.compile("[\u00ad\u200b\u2060\ufeff\ufe00-\ufe0f\U000e0100-\U000e01ef]+")


def seen(text: str) -> str:
    """Text as it is compared: invisible characters out, whitespace as a chat leaves it."""
    return norm(plain(text))


def alike(text: str) -> str:
    """Text as a reader tells names apart: as it is compared (:func:`seen`), and without
    the zero-width (non-)joiners, which some chats draw as nothing between two emoji
    (``💰💰`` and ``💰\u200d💰`` look the same)."""
    return seen(text).replace("\u200d", "").replace("\u200c", "")


def folded(text: str) -> str:
    """A label as a reader tells labels apart: as :func:`alike`, and in any case or width
    (NFKC, case-folded): ``Minji's phone`` and ``MINJI'S PHONE`` name the same phone in an
    audit trail (a table's tokens, calculator/store/store.py; the labels the service gives
    its own tokens, calculator/api/access_schemas.py)."""
    return " ".join(unicodedata.normalize("NFKC", alike(text)).casefold().split())


def plain(text: str) -> str:
    """Text without the invisible characters a chat app or an editor adds or drops: a
    BOM, zero-width spaces, word joiners, soft hyphens, emoji variation selectors (❤️ and
    ❤ are the same name). Bidi controls stay: they change what a line shows; so do
    zero-width joiners (👩‍💻 is one emoji)."""
    return _INVISIBLE.sub("", text)


def norm(text: str) -> str:
    """Text as a chat app may leave it: NFC, whitespace runs as one space, trimmed."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def unreadable(ids: Sequence[str], *, strict: bool = True) -> list[tuple[int, str, str]]:
    """The players of a list (a table's roster, a session's players) a reader cannot tell
    apart or read at all, each as (its index, code, detail): an id listed twice, and with
    ``strict`` two ids that differ only by spaces, invisible characters or the encoding of
    their letters (:func:`alike`: a phone shows them alike), or an id of only those (it
    shows as nothing). ``strict`` False: the same id twice only (an import of a table
    created before the other checks).

    >>> unreadable(["A", "B", "A", " "])
    [(2, 'duplicate_player', "'A' is listed twice"), (3, 'invalid_length', "' ' reads as \
nothing (only spaces or invisible characters): give the player an id a phone shows")]
    """
    found: list[tuple[int, str, str]] = []
    listed: set[str] = set()
    read_as: dict[str, str] = {}
    for i, player in enumerate(ids):
        read = alike(player)
        if player in listed:
            found.append((i, "duplicate_player", f"{quote(player)} is listed twice"))
        elif strict and not read:
            found.append(
                (
                    i,
                    "invalid_length",
                    f"{quote(player)} reads as nothing (only spaces or invisible characters): "
                    "give the player an id a phone shows",
                )
            )
        elif strict and read in read_as:
            found.append(
                (
                    i,
                    "duplicate_player",
                    f"{quote(player)} and {quote(read_as[read])} differ only by spaces, invisible "
                    "characters or how their letters are encoded: a phone shows them alike; "
                    "give each player an id of its own",
                )
            )
        listed.add(player)
        read_as.setdefault(read, player)
    return found
