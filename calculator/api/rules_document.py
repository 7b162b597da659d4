"""The rules document, served at ``GET /v1/rules``, and the links into it.

``docs/rules.md`` is the document people read in the repository; the package ships an
identical copy, ``calculator/api/rules.md``, so an installed service (a wheel, not only a
checkout) can serve it. ``python tools/rules_doc.py`` writes both, and
``tests/test_rules_doc.py`` fails when they differ.

Options cite a section as ``docs/rules.md §4.5`` (or a worked example as ``docs/rules.md
W13``); :func:`link` turns that into ``/v1/rules#45-피박-pi-bak``, the anchor a Markdown
renderer such as GitHub's gives the heading ``### 4.5 피박 (pi-bak)``.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Final

PATH: Final = "/v1/rules"
MEDIA_TYPE: Final = "text/markdown"
CITED: Final = "docs/rules.md "  # how a citation of this document starts

_HEADING = re.compile(r"^(#{1,6}) +(.+?) *#* *$")
_NOT_IN_ANCHOR = re.compile(r"[^\w\- ]")  # GitHub keeps letters, digits, _, - and spaces


@cache
def text() -> str:
    """The document, as the package ships it."""
    return files("calculator.api").joinpath("rules.md").read_text(encoding="utf-8")


def anchor(heading: str) -> str:
    """The anchor of a heading: lower case, punctuation dropped, spaces made hyphens.

    >>> anchor("4.5 피박 (pi-bak)")
    '45-피박-pi-bak'
    >>> anchor("W30. ZeroFriends' four-player example: 광팔기, 고박 and 첫뻑")
    'w30-zerofriends-four-player-example-광팔기-고박-and-첫뻑'
    >>> anchor("Go-Stop (`POST /v1/gostop/hands`)")
    'go-stop-post-v1gostophands'
    """
    return _NOT_IN_ANCHOR.sub("", heading.replace("`", "").lower()).replace(" ", "-")


def headings(document: str) -> list[str]:
    """The text of every heading of ``document``, in order (code blocks skipped)."""
    found: list[str] = []
    fenced = False
    for line in document.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.match(line)
        if match:
            found.append(match.group(2))
    return found


@cache
def sections() -> MappingProxyType[str, str]:
    """Each numbered heading's number (``4.5``, ``4``, ``W13``) → its anchor."""
    found: dict[str, str] = {}
    for heading in headings(text()):
        number = heading.split(" ", 1)[0].rstrip(".")
        if number[:1].isdigit() or re.fullmatch(r"W\d+", number):
            found[number] = anchor(heading)
    return MappingProxyType(found)


def link(citation: str) -> str:
    """The URL (path and fragment) of a cited section: ``docs/rules.md §4.5`` →
    ``/v1/rules#45-피박-pi-bak``. Raises KeyError for a section the document lacks."""
    if not citation.startswith(CITED):
        raise KeyError(f"{citation!r} does not cite {CITED.strip()}")
    number = citation[len(CITED) :].removeprefix("§")
    return f"{PATH}#{sections()[number]}"
