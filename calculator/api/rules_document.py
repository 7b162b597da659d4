"""The rules document, served at ``GET /v1/rules``, and the links into it.

``docs/rules.md`` is the document people read in the repository; the package ships an
identical copy, ``calculator/api/rules.md``, so an installed service (a wheel, not only a
checkout) can serve it. ``python tools/rules_doc.py`` writes both, and
``tests/test_rules_doc.py`` fails when they differ.

Options cite a section as ``docs/rules.md §4.5`` (or a worked example as ``docs/rules.md
W13``); :func:`link` turns that into ``/v1/rules#45-피박-pi-bak``, the anchor a Markdown
renderer such as GitHub's gives the heading ``### 4.5 피박 (pi-bak)``.

A browser asking for that link gets the document as an HTML page (:func:`page`), each
heading's ``id`` given by :func:`anchor`, the function the links are made with; every
other client gets the Markdown.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from html import escape
from importlib.resources import files
from itertools import pairwise
from types import MappingProxyType
from typing import Final

from markdown_it import MarkdownIt

PATH: Final = "/v1/rules"
MEDIA_TYPE: Final = "text/markdown"
HTML_MEDIA_TYPE: Final = "text/html"  # for a client that prefers it: a browser
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


# The page's one style element. Narrow screens: table cells break long words rather than
# scroll (a scrolling box needs a keyboard focus to be reachable); a followed link's
# heading is marked.
STYLE: Final = (
    "body{margin:0 auto;max-width:50rem;padding:0 1rem 3rem;"
    "font:1rem/1.6 system-ui,sans-serif}"
    "table{border-collapse:collapse}"
    "th,td{border:1px solid #8888;padding:.25rem .5rem;text-align:left;"
    "vertical-align:top;overflow-wrap:anywhere}"
    "code{font-size:.9em}"
    ":target{background:#fd04}"
)
# The page loads nothing and runs nothing: its style element, allowed by its hash, is all
# it needs. (The JSON answers keep calculator.api.http's stricter default.)
POLICY: Final = (
    "default-src 'none'; "
    f"style-src 'sha256-{base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()}'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def page(document: str) -> str:
    """``document`` (Markdown) as a whole HTML page: CommonMark with tables, raw HTML
    escaped (shown as text, never passed through), each heading's ``id`` its
    :func:`anchor`, the title the first top-level heading's text.

    ``lang="en"``: the document is written in English; its Korean words are terms quoted
    in an English sentence (a reader's font fallback shows them either way).

    >>> html = page("# Rules\\n\\n## 4.5 피박 (pi-bak)\\n\\n<b>bold?</b>")
    >>> '<h2 id="45-피박-pi-bak">4.5 피박 (pi-bak)</h2>' in html
    True
    >>> "<title>Rules</title>" in html, "&lt;b&gt;bold?&lt;/b&gt;" in html
    (True, True)
    """
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = markdown.parse(document)
    titles = []
    for opening, inline in pairwise(tokens):
        if opening.type != "heading_open":
            continue
        opening.attrSet("id", anchor(inline.content))  # as headings() reads the line
        if opening.tag == "h1":
            parts = inline.children or []
            titles.append("".join(t.content for t in parts if t.type in ("text", "code_inline")))
    body = markdown.renderer.render(tokens, markdown.options, {})
    title = titles[0] if titles else "Rules"
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n{body}</main>\n</body>\n</html>\n"
    )
