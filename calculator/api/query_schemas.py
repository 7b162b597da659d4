"""Schemas of query strings: ``GET /v1/cards``'s, and those of the answers that speak a
language (``?lang``, read as ``Accept-Language``'s tags are) or echo a rule set
(``?full_ruleset``).

The request bodies' schemas are in :mod:`calculator.api.schemas` (a hand) and its
siblings (:mod:`calculator.api.ruleset_schemas`, :mod:`calculator.api.session_schemas`…).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from marshmallow import EXCLUDE, Schema, pre_load, types

from calculator.api.fields import CodedField, StrictString
from calculator.explain import LANGUAGES
from calculator.presets import presets


class CardsQuerySchema(Schema):
    """The query of ``GET /v1/cards``: an optional rule set of either variant."""

    class Meta:
        unknown = EXCLUDE  # a query string may carry a client's cache buster

    ruleset = StrictString(
        max_length=64,
        metadata={
            "description": "A preset name or alias: bonus values and switchable cards "
            "under it (default `standard`, as for a hand; an unknown name is a 404)",
            "enum": [alias for p in presets().values() for alias in (p.name, *p.aliases)],
        },
    )


class QueryBoolean(CodedField):
    """``true`` or ``false`` in a query string (text), in any case, or ``1`` / ``0``: what
    HTTP clients write for a boolean (Python's requests sends ``True``; PHP and many form
    encoders ``1``). Anything else (``yes``, an empty value) is refused, not guessed."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected true or false (or 1 or 0)"
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        meaning = _QUERY_BOOLEANS.get(value.lower()) if isinstance(value, str) else None
        if meaning is None:
            raise self.make_error("invalid")
        return meaning


_QUERY_BOOLEANS: Final = {"true": True, "1": True, "false": False, "0": False}


ANSWER_LANGS: Final = (*LANGUAGES, "all")
"""What ``?lang`` takes: a language of ours, or all of them."""


class LanguageTagQuery(Schema):
    """A query with a ``lang``, read as ``Accept-Language``'s tags are: in any case, a
    region named or not (``EN``, ``en-US`` and ``en_GB`` are ``en``, ``ALL`` is ``all``)."""

    @pre_load
    def _language_tag(self, data: Mapping[str, Any], **_kwargs: Any) -> Mapping[str, Any]:
        given = data.get("lang")
        if type(given) is not str:
            return data
        primary = given.strip().replace("_", "-").partition("-")[0].lower()
        return {**data, "lang": primary or given}


class LangQuerySchema(LanguageTagQuery):
    """The query of an answer that speaks a language (a table read, an appended hand):
    the language of its ``label`` and ``text`` fields."""

    class Meta:
        unknown = EXCLUDE  # a query string may carry a client's cache buster

    lang = StrictString(
        max_length=8,
        choices=ANSWER_LANGS,
        metadata={
            "description": "The language of the label and text fields: ko or en, or all "
            "for both (in any case; a region is ignored: en-US is en). Without it, the "
            "request's Accept-Language header picks ko or en by its q-values, * standing "
            "for every language it does not name (*;q=0.9, ko;q=0.1 is en); neither "
            "acceptable (or no header): ko. The answer says which in Content-Language"
        },
    )


class AnswerQuerySchema(LangQuerySchema):
    """The query of the scoring endpoints: how the answer is shaped (its language, and
    how much of the rule set it echoes)."""

    full_ruleset = QueryBoolean(
        load_default=False,
        metadata={
            "description": "true (in any case, or 1; false or 0 is the default): the rule "
            "set echo also lists every resolved option "
            "(`options`); by default it gives the preset, the fingerprint and the options "
            "that differ from the preset (`overrides`). In a batch, the full rule sets come "
            "once each, in `rulesets`",
            "type": "boolean",
            "default": False,
        },
    )
