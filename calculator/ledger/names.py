"""Names as people read them: what a chat app, an editor or another phone may change in a
name without a reader seeing it (the share text's reading, calculator/ledger/share.py, and a
table's roster, calculator/ledger/state.py, tell names apart by the same rule)."""

from __future__ import annotations

import re
import unicodedata

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


def plain(text: str) -> str:
    """Text without the invisible characters a chat app or an editor adds or drops: a
    BOM, zero-width spaces, word joiners, soft hyphens, emoji variation selectors (❤️ and
    ❤ are the same name). Bidi controls stay: they change what a line shows; so do
    zero-width joiners (👩‍💻 is one emoji)."""
    return _INVISIBLE.sub("", text)


def norm(text: str) -> str:
    """Text as a chat app may leave it: NFC, whitespace runs as one space, trimmed."""
    return " ".join(unicodedata.normalize("NFC", text).split())
