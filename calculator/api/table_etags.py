"""A table's versions over HTTP: its ETags (one per representation), the 304 of an
If-None-Match that names the version, and the If-Match of a write (400 when malformed,
412 when stale).

Siblings: :mod:`calculator.api.table_access` opens the table (bearer token) and answers a
poll with these; :mod:`calculator.api.table_tokens` mints tokens;
:mod:`calculator.api.idempotency_keys` claims Idempotency-Keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from flask import Response, request
from werkzeug.datastructures import Headers
from werkzeug.exceptions import BadRequest, HTTPException, PreconditionFailed

from calculator.api.http import coded, json_response
from calculator.explain import LANGUAGES

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

# The suffixes that tag a table's other representations (:func:`etag`): a read's results
# in another language or in both (calculator.api.tables; Korean, the language of the
# stored rows, keeps the plain "N"), the English share text and the CSV export
# (calculator.api.sharing). A tag with any other suffix names no version: ``If-Match:
# "3.0"`` is not version 3.
LANG_TAGS: Final[dict[tuple[str, ...], str]] = {
    (LANGUAGES[0],): "",
    **{(lang,): f".{lang}" for lang in LANGUAGES[1:]},
    LANGUAGES: ".all",
}
EN_TAG: Final = LANG_TAGS[("en",)]
CSV_TAG: Final = ".csv"
_VARIANT_TAGS = frozenset({*LANG_TAGS.values(), CSV_TAG}) - {""}


def etag(version: int, variant: str = "") -> str:
    """The ETag of a table version: a strong tag of the number. A read answered in more
    than one representation (the share text's languages, the export's formats) tags each
    but its first with its own ``variant`` suffix (``"3.en"``, ``"3.csv"``): RFC 9110
    §8.8.3 gives different representations different tags, so an If-None-Match of one
    never answers 304 for another. The suffix starts with a dot, never with what a
    compressing proxy appends (``-`` ``:`` ``;``: :func:`versions` reads past those)."""
    return f'"{version}{variant}"'


_COMPRESSED = re.compile(r"[-:;]+[A-Za-z]+\Z")


def versions(header: str) -> set[str]:
    """The versions an If-Match / If-None-Match names (weak or strong: compared weakly)."""
    if len(header) > 2 and header[0] == header[-1] == '"' and header[1:-1].isdigit():
        return {header[1:-1]}  # one plain tag, what every poll and write sends: as below
    found: set[str] = set()
    for part in header.split(","):
        tag = part.strip().removeprefix("W/").strip()
        if len(tag) >= 2 and tag[0] == tag[-1] == '"':
            # a proxy that compresses may suffix the tag with its coding ("3-gzip",
            # "3:gzip", "3;br"): the same version; another suffix ("3-0") names none
            found.add(_COMPRESSED.sub("", tag[1:-1]))
        elif tag == "*":
            found.add("*")
    return found


def table_response(body: Any, version: int, status: int = 200, variant: str = "") -> Response:
    """A JSON answer about a table, with its ETag (of the representation ``variant``)."""
    response = body if isinstance(body, Response) else json_response(body, status)
    response.headers["ETag"] = etag(version, variant)
    return response


class _NoContent(Response):
    """A 204: no body, so no Content-Type (werkzeug's default would say text/html)."""

    default_mimetype = None


def no_content(version: int | None = None) -> Response:
    """The empty 204 of a change about a table: with the table's ETag at ``version`` (a
    revoked token: the table stays at it), none when the table is gone (deleted)."""
    response = _NoContent(status=204)
    if version is not None:
        response.headers["ETag"] = etag(version)
    return response


# What werkzeug takes out of a 304 (``werkzeug.http.remove_entity_headers``: the entity
# headers but Expires and Content-Location), and the headers it rewrites as URLs.
_ENTITY_HEADERS = frozenset(
    {
        "allow",
        "content-encoding",
        "content-language",
        "content-length",
        "content-md5",
        "content-range",
        "content-type",
        "last-modified",
    }
)
_URL_HEADERS = frozenset({"location", "content-location"})


class _NotModified(Response):
    """A 304: no body, so no Content-Type either (werkzeug would set one, then strip it)."""

    default_mimetype = None

    def get_wsgi_response(
        self, environ: WSGIEnvironment
    ) -> tuple[Iterable[bytes], str, list[tuple[str, str]]]:
        """What werkzeug sends for a 304 — no body, the headers less the entity headers —
        made in one pass over the headers. werkzeug copies them (validating each again,
        though each was validated when added), rebuilds the list without the entity
        headers and wraps the empty body in a closing iterator: together ~95k
        instructions, more than the poll's query (bench/RESULTS.md, seventh session).
        werkzeug's own way is kept for what this one does not do: a function registered
        with ``call_on_close`` (the closing iterator calls it), a status a hook changed, a
        header werkzeug would rewrite as a URL (none of ours).
        tests/api/test_table_access.py holds the two equal."""
        if self._on_close or self.status_code != 304:  # werkzeug's: to call, or no 304
            return super().get_wsgi_response(environ)
        headers = []
        for name, value in self.headers.items():
            lower = name.lower()
            if lower in _URL_HEADERS:
                return super().get_wsgi_response(environ)
            if lower not in _ENTITY_HEADERS:
                headers.append((name, value))
        return (), self.status, headers


def not_modified(version: int, named: set[str] | None = None, variant: str = "") -> Response | None:
    """The empty 304 when If-None-Match (or the versions it ``named``, parsed already)
    names ``version`` in the representation ``variant`` (compared weakly): the tag of
    another representation of the same version is no match (:func:`etag`)."""
    if named is None:
        given = request.headers.get("If-None-Match")
        named = set() if given is None else versions(given)
    if (f"{version}{variant}" if variant else str(version)) in named or "*" in named:
        # Content-Length 0: no body. werkzeug drops it on the way out, as every entity
        # header of a 304; until then the after-request hooks that ask for the length
        # (compression) find it instead of raising and catching a KeyError each. Added
        # one by one: ``Headers`` given a dict tests each value against abstract types.
        headers = Headers()
        headers.add("ETag", etag(version, variant))
        headers.add("Content-Length", "0")
        return _NotModified(status=304, headers=headers)
    return None


class Stale(PreconditionFailed):
    """412 with the current version in the ETag header."""

    def __init__(self, version: int, detail: str) -> None:
        super().__init__(detail)
        self.version = version

    def get_headers(self, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        return [*super().get_headers(*args, **kwargs), ("ETag", etag(self.version))]


def stale(version: int, why: str) -> HTTPException:
    """The 412 of a write made on another version than the table's ``version``."""
    return coded(
        Stale(
            version,
            f"{why}: it is at version {version}; read it again (GET) and redo "
            "the change on what it shows",
        ),
        "version_mismatch",
    )


def read_if_match() -> str | None:
    """The request's If-Match, or None when it has none or an empty one (``If-Match:``
    names no version: the 428 of a missing one, not a 412)."""
    given = request.headers.get("If-Match")
    return given if given is not None and given.strip() else None


# If-Match's grammar (RFC 9110 §13.1.1): "*" or a comma-separated list of entity tags,
# each [W/]"…" of visible characters but the quote (empty list elements are allowed).
_TAG = r'(?:\*|(?:W/)?"[\x21\x23-\x7e\x80-\xff]*")'
_IF_MATCH = re.compile(rf"[ \t]*(?:{_TAG}[ \t]*)?(?:,[ \t]*(?:{_TAG}[ \t]*)?)*")


def check_version(version: int, if_match: str) -> None:
    """400 ``malformed_if_match`` unless ``if_match`` is a list of entity tags that names
    a version (one not quoted, ``If-Match: 12``, is told how to quote it; ``*`` and ``""``
    name none); 412 ``version_mismatch`` unless it names the table's ``version`` (compared
    weakly). The tag of any representation of the table names its version: the English
    share text's ``"3.en"`` and the CSV export's ``"3.csv"`` (:func:`etag`) as ``"3"``.

    A malformed header is a 400, not the 412 of a stale version: a client answers a 412
    by reading the table again and redoing the change on it (the scorekeeper page does),
    and would send the same header again; a 400 says the request itself is wrong. Both
    carry the table's ETag (``errors._versioned``, :class:`Stale`)."""
    if if_match == etag(version):
        return  # what every write sends
    well_formed = _IF_MATCH.fullmatch(if_match) is not None
    named = {_tagged_version(tag) for tag in versions(if_match)} if well_formed else set()
    named -= {"*", ""}
    if str(version) in named:
        return
    shown = if_match.strip()[:40]
    if named:
        raise stale(version, f"If-Match is {shown}, not the table's version")
    bare = shown.removeprefix("W/").strip('"').split(".", 1)[0]
    example = bare if bare.isascii() and bare.isdigit() else "<version>"
    said = "no version" if well_formed else "not an entity tag"
    raise coded(
        BadRequest(
            f"If-Match is {shown}, which is {said}: "
            "send the ETag the table's last read returned, quoted as the ETag header gives "
            f'it — If-Match: "{example}" (the table is at version {version})'
        ),
        "malformed_if_match",
    )


def _tagged_version(tag: str) -> str:
    """The version an entity tag's text names: ``3`` of ``3``, ``3.en`` and ``3.csv``; any
    other tag is itself (``3.0``: it names no version the table has had)."""
    version, dot, suffix = tag.partition(".")
    return version if dot + suffix in _VARIANT_TAGS else tag
