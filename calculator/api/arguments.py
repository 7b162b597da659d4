"""Loading a request's arguments for the v1 blueprints: :class:`FastParser` (what
:class:`calculator.api.docs.Blueprint`'s ``arguments`` decorator loads with) and the checks
of a query string it makes, also for the views that read their query themselves.

The blueprints and their decorators are in :mod:`calculator.api.docs`; the OpenAPI
document's Api, info and named schemas in :mod:`calculator.api.spec_setup`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, Protocol, TypeVar

from flask import request
from marshmallow import Schema, ValidationError
from webargs.flaskparser import FlaskParser
from werkzeug.datastructures import MultiDict

from calculator.api.coded_errors import Coded
from calculator.api.http import current_request, current_settings, read_json
from calculator.api.strict_schema import StrictSchema

F = TypeVar("F", bound=Callable[..., Any])


class Counter(Protocol):
    """What counts a body's entries for :func:`~calculator.api.http.read_json` (its
    ``count``), measuring more on the way for the view (batch_bounds.Walk)."""

    def entries(self, document: object) -> int: ...


class FastParser(FlaskParser):
    """Loads a request the service's way, for flask-smorest's ``arguments`` decorator.

    JSON bodies are read by :func:`calculator.api.http.read_json` (content type, size
    limit — ``limit`` names the setting — and malformed JSON, each its own problem) and
    loaded by the schema's fast path; query strings are loaded by the schema. Errors are
    raised as they are (``ValidationError``, domain errors) for the one error module.
    With ``walk``, a new :class:`Counter` counts each body's entries (one walk for what
    the view measures too) and is passed to the view as ``walk``.
    """

    def use_args(  # type: ignore[override]
        self,
        argmap: type[Schema] | Schema,
        req: Any = None,
        *,
        location: str | None = None,
        limit: str = "max_body_bytes",
        walk: Callable[[], Counter] | None = None,
        **kwargs: Any,
    ) -> Callable[[F], F]:
        schema = argmap() if isinstance(argmap, type) else argmap
        # None: the query string, loaded by the schema; else the JSON body's fast path
        strict = None if location == "query" else schema
        if strict is not None and not isinstance(strict, StrictSchema):
            raise TypeError(f"a JSON body is loaded by a StrictSchema, not {schema!r}")

        known = parameter_names(schema)
        # The load of an empty query string, kept once it has succeeded with scalar
        # values alone: most requests send no query, and a marshmallow load of nothing
        # costs about what serializing the answer's players does (cProfile, pure build).
        # The same load made it; each request gets its own copy.
        empty: list[dict[str, Any]] = []

        def decorator(view: F) -> F:
            @wraps(view)
            def wrapper(*args: Any, **kw: Any) -> Any:
                if strict is None:
                    # No QUERY_STRING, no arguments: the copy, without building request.args
                    if empty and not current_request().environ.get("QUERY_STRING"):
                        loaded = dict(empty[0])
                    else:
                        query = request.args
                        loaded = schema.load(single_values(query, known))
                        if not known.issuperset(query):
                            refuse_near_misses(query, known)
                        # (once: a QUERY_STRING of "&" alone has no arguments either)
                        if not query and not empty and _scalars(loaded):
                            empty.append(dict(loaded))
                elif walk is None:
                    settings = current_settings()
                    loaded = strict.load_fast(read_json(getattr(settings, limit)))
                else:  # the body counted by a walk of the view's, which it is given
                    settings = current_settings()
                    counter = kw["walk"] = walk()
                    # the body not bound to a name: held by nothing once loaded, so that a
                    # batch can let each hand go once scored (score_requests.score_items)
                    loaded = strict.load_fast(
                        read_json(getattr(settings, limit), count=counter.entries)
                    )
                return view(loaded, *args, **kw)

            return wrapper  # type: ignore[return-value]

        return decorator


def parameter_names(schema: Schema) -> frozenset[str]:
    """The query parameters ``schema`` reads."""
    return frozenset(f.data_key or name for name, f in schema.fields.items())


def load_query(schema: Schema, known: frozenset[str]) -> dict[str, Any]:
    """The request's query string loaded by ``schema``, whose parameters are ``known``
    (:func:`parameter_names`), checked as :class:`FastParser` checks it (each parameter
    once, near misses refused): for the views that read it themselves, after their
    access checks (the table reads)."""
    query = request.args
    loaded: dict[str, Any] = schema.load(single_values(query, known))
    if not known.issuperset(query):
        refuse_near_misses(query, known)
    return loaded


def single_values(query: MultiDict[str, str], known: frozenset[str]) -> dict[str, str]:
    """``query``'s parameters, one value each; a ``known`` one given more than once is
    refused (422 ``duplicate_parameter`` at the parameter): ``?lang=en&lang=ko`` used to be
    read as its first value, silently — the one place every query is checked so.
    Parameters the operation does not read (a cache buster) are not looked at.

    >>> from werkzeug.datastructures import MultiDict
    >>> single_values(MultiDict([("lang", "en"), ("_", "1"), ("_", "2")]), frozenset({"lang"}))
    {'lang': 'en', '_': '1'}
    >>> try:
    ...     single_values(MultiDict([("lang", "en"), ("lang", "ko")]), frozenset({"lang"}))
    ... except ValidationError as error:
    ...     print(error.messages["lang"][0])
    given 2 times ('en', 'ko'): give each query parameter once
    """
    repeated: dict[str, list[str]] = {}
    for name, given in query.lists():
        if len(given) > 1 and name in known:
            shown = ", ".join(repr(value[:20]) for value in given[:4])
            more = ", …" if len(given) > 4 else ""
            repeated[name] = [
                Coded(
                    f"given {len(given)} times ({shown}{more}): give each query parameter once",
                    "duplicate_parameter",
                )
            ]
    if repeated:
        raise ValidationError(repeated)
    return query.to_dict()


MAX_UNKNOWN_PARAMETERS = 10
"""Unknown query parameters looked at for a near miss, at most (the request line is
4 KiB at most: gunicorn's ``limit_request_line``)."""


# What clients call a parameter of ours by another name (refused with the name meant)
_OTHER_NAMES = {"language": "lang", "locale": "lang"}


def refuse_near_misses(parameters: Iterable[str], known: frozenset[str]) -> None:
    """Refuse an unknown query parameter that is a near miss of a known one: a typo the
    client would never notice (``?full_rulset=true`` answers as if it were absent).
    Parameters far from every known one (a client's cache buster, ``?_=1700000000``) pass.

    Names are compared in lower case, and the usual other names of a known one
    (``language`` or ``locale`` for ``lang``) are near misses too: ``?LANG=en`` or
    ``?language=en`` would otherwise be read as absent, an answer in Korean that the
    client did not ask for.

    >>> refuse_near_misses(["_", "lang"], frozenset({"lang", "full_ruleset"}))
    >>> for name in ("Lang", "LANG", "language", "FULL_RULESET"):
    ...     try:
    ...         refuse_near_misses([name], frozenset({"lang", "full_ruleset"}))
    ...     except ValidationError as error:
    ...         print(error.messages[name][0][:53])
    unknown query parameter; did you mean 'lang'? (the pa
    unknown query parameter; did you mean 'lang'? (the pa
    unknown query parameter; did you mean 'lang'? (the pa
    unknown query parameter; did you mean 'full_ruleset'?
    """
    errors: dict[str, list[str]] = {}
    allowed = ", ".join(sorted(known))
    for name in list(parameters)[:MAX_UNKNOWN_PARAMETERS]:
        if name in known:
            continue
        lower = name.lower()
        alias = _OTHER_NAMES.get(lower)
        close = [alias] if alias in known else []
        close = close or difflib.get_close_matches(lower, known, n=1, cutoff=0.7)
        if close:
            errors[name] = [
                Coded(
                    f"unknown query parameter; did you mean {close[0]!r}? "
                    f"(the parameters here: {allowed})",
                    "unknown_field",
                )
            ]
    if errors:
        raise ValidationError(errors)


def _scalars(loaded: Any) -> bool:
    """``loaded`` is a dict of immutable scalars: a copy of it shares nothing mutable."""
    return type(loaded) is dict and all(
        value is None or type(value) in (str, int, bool) for value in loaded.values()
    )
