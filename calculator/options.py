"""House-rule options declared once, as fields of a frozen rules dataclass.

Each option is a dataclass field made with :func:`option`; its metadata (summary, the
section of docs/rules.md that explains it, bounds) travels with it. :func:`specs` reads them back
as :class:`OptionSpec` records, so validation, the ``/v1/rulesets`` catalogue and the
OpenAPI document all come from the one declaration.
"""

from __future__ import annotations

import builtins
import difflib
import hashlib
import json
import sys
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import StrEnum
from functools import cache
from typing import Any, Literal, TypeVar

from calculator.errors import InvalidRulesError, Issue, Problems
from calculator.limits import Suggestions, quote

MAX_NAME = 64  # longer option names are not searched for a suggestion, and are cut in pointers

OptionType = Literal["boolean", "integer", "string"]
OptionValue = bool | int | str | None

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What an option is: its name, type, allowed values, default and source."""

    name: str
    type: OptionType
    default: OptionValue
    summary: str
    section: str
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    null_means: str | None = None
    enum: builtins.type[StrEnum] | None = field(default=None, compare=False, repr=False)

    def check(self, value: object) -> str | None:
        """Why ``value`` is not allowed for this option, or ``None`` if it is."""
        if value is None:
            if self.nullable:
                return None
            return f"{self.name} cannot be null; {self.allowed()}"
        if self.type == "boolean":
            return None if isinstance(value, bool) else f"{self.name} takes true or false"
        if self.type == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{self.name} takes a whole number; {self.allowed()}"
            if self.minimum is not None and value < self.minimum:
                return f"{self.name} is {value}; {self.allowed()}"
            if self.maximum is not None and value > self.maximum:
                return f"{self.name} is {value}; {self.allowed()}"
            return None
        assert self.choices is not None
        if isinstance(value, str) and value in self.choices:
            return None
        return f"{self.name} is {quote(value)}; {self.allowed()}"

    def allowed(self) -> str:
        """The allowed values in words, for error messages."""
        if self.type == "boolean":
            text = "use true or false"
        elif self.type == "integer":
            low = "" if self.minimum is None else f"{self.minimum}"
            high = "" if self.maximum is None else f"{self.maximum}"
            text = f"use a whole number from {low or 'any'} to {high or 'any'}"
        else:
            assert self.choices is not None
            text = "use one of " + ", ".join(self.choices)
        if self.nullable:
            text += f", or null ({self.null_means})"
        return text


def option(
    default: OptionValue,
    *,
    summary: str,
    section: str,
    minimum: int | None = None,
    maximum: int | None = None,
    null_means: str | None = None,
) -> Any:
    """A rules-dataclass field that is a house-rule option (metadata read by :func:`specs`)."""
    metadata = {
        "summary": summary,
        "section": section,
        "minimum": minimum,
        "maximum": maximum,
        "null_means": null_means,
    }
    return field(default=default, metadata=metadata)


def specs(rules_type: type) -> tuple[OptionSpec, ...]:
    """The option specs of a rules dataclass, in declaration order."""
    return _specs(rules_type)


@cache
def _specs(rules_type: Any) -> tuple[OptionSpec, ...]:
    namespace = vars(sys.modules[rules_type.__module__])
    found = []
    for f in fields(rules_type):
        if "summary" not in f.metadata:
            continue
        hint = eval(f.type, namespace) if isinstance(f.type, str) else f.type
        args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
        base = args[0]
        nullable = type(None) in typing.get_args(hint)
        choices: tuple[str, ...] | None = None
        kind: OptionType
        if base is bool:
            kind = "boolean"
        elif base is int:
            kind = "integer"
        elif isinstance(base, type) and issubclass(base, StrEnum):
            kind, choices = "string", tuple(member.value for member in base)
        else:  # pragma: no cover - a programming error caught by the test suite
            raise TypeError(f"option {f.name} has unsupported type {hint}")
        assert f.default is not MISSING
        found.append(
            OptionSpec(
                name=f.name,
                type=kind,
                default=f.default,
                summary=f.metadata["summary"],
                section=f.metadata["section"],
                choices=choices,
                minimum=f.metadata["minimum"],
                maximum=f.metadata["maximum"],
                nullable=nullable,
                null_means=f.metadata["null_means"],
                enum=base if choices is not None else None,
            )
        )
    return tuple(found)


def values(rules: object) -> dict[str, OptionValue]:
    """The resolved option values of a rules object, as plain JSON values."""
    return {spec.name: _plain(getattr(rules, spec.name)) for spec in specs(type(rules))}


def _plain(value: OptionValue) -> OptionValue:
    """An option value as JSON has it (an enum member as its string)."""
    return value.value if isinstance(value, StrEnum) else value


def canonical_form(variant: str, rules: object) -> str:
    """The JSON a fingerprint hashes: the variant and every option *not* at its default.

    Leaving the defaults out is what keeps fingerprints stable (SPEC §3): an option added
    later is at its default in every rule set that existed before it, so it is absent from
    their canonical forms and their fingerprints do not move. Two rule sets of one variant
    still have equal forms exactly when every option is equal, since both leave out the
    same (default) values.

    >>> from calculator.rules import GoStopRules
    >>> canonical_form("gostop", GoStopRules(bomb_multiplier=1))
    '{"options":{"bomb_multiplier":1},"variant":"gostop"}'
    """
    defaults = {spec.name: _plain(spec.default) for spec in specs(type(rules))}
    changed = {
        name: value for name, value in values(rules).items() if not _same(value, defaults[name])
    }
    return json.dumps(
        {"variant": variant, "options": changed}, sort_keys=True, separators=(",", ":")
    )


def fingerprint(variant: str, rules: object) -> str:
    """A stable hash of the resolved options: equal iff the options are equal."""
    return hashlib.sha256(canonical_form(variant, rules).encode()).hexdigest()[:32]


def _same(value: OptionValue, default: OptionValue) -> bool:
    # type() too: JSON tells true from 1, and so must the canonical form.
    return type(value) is type(default) and value == default


def markdown_table(rules_type: type) -> str:
    """One row per option of ``rules_type``: its values, default, meaning and source.

    The rules document (docs/rules.md) is generated from this, so it says what the
    catalogue of ``GET /v1/rulesets`` says.

    >>> from calculator.rules import GoStopRules
    >>> row = markdown_table(GoStopRules).splitlines()[2]
    >>> row.split(" | ")[:3]
    ['| `four_brights_points`', '0–1,000', '`4`']
    """
    rows = [
        "| option | values | default | what it does | source |",
        "|---|---|---|---|---|",
    ]
    for spec in specs(rules_type):
        if spec.type == "boolean":
            allowed = "true, false"
        elif spec.type == "integer":
            low = "" if spec.minimum is None else str(spec.minimum)
            high = "" if spec.maximum is None else f"{spec.maximum:,}"
            allowed = f"{low}–{high}"
        else:
            allowed = ", ".join(f"`{choice}`" for choice in spec.choices or ())
        if spec.nullable:
            allowed += f", null ({spec.null_means})"
        default = json.dumps(_plain(spec.default), ensure_ascii=False)
        summary = spec.summary.replace("|", "\\|")
        rows.append(f"| `{spec.name}` | {allowed} | `{default}` | {summary} | {spec.section} |")
    return "\n".join(rows)


def _hint(name: str, names: Mapping[str, object]) -> str | None:
    """What an unknown option ``name`` may have meant: the closest option (difflib), unless
    that one is of another family than the name's first word says, or the name is that
    word alone — then every option of that family, which the closest spelling can miss
    (``pibak_treshold`` is closest to ``meongtta_threshold``; the pibak options are
    meant). None: nothing close.

    >>> from calculator.rules import GoStopRules
    >>> names = {spec.name: spec for spec in specs(GoStopRules)}
    >>> _hint("bomb_multipler", names)
    "did you mean 'bomb_multiplier'?"
    >>> print(_hint("pibak_treshold", names))  # doctest: +NORMALIZE_WHITESPACE
    the options beginning 'pibak_' are 'pibak_max_pi_2p', 'pibak_max_pi_3p',
    'pibak_zero_exempt' and 'pibak_count'
    """
    close = difflib.get_close_matches(name, names, n=1)
    family = name.split("_", 1)[0] + "_"
    kin = [known for known in names if known.startswith(family)]
    if kin and ("_" not in name or not (close and close[0].startswith(family))):
        listed = [repr(known) for known in kin]
        said = listed[0] if len(kin) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]
        return f"the options beginning {family!r} are {said}"
    return f"did you mean {close[0]!r}?" if close else None


def override(
    rules: R,
    overrides: Mapping[str, object],
    *,
    location: tuple[str | int, ...] = ("ruleset", "options"),
) -> R:
    """``rules`` with ``overrides`` applied, after checking every name and value.

    >>> from calculator.rules import GoStopRules
    >>> override(GoStopRules(), {"bomb_multiplier": 1}).bomb_multiplier
    1
    >>> override(GoStopRules(), {"bomb_multipler": 1})
    Traceback (most recent call last):
    ...
    calculator.errors.InvalidRulesError: unknown_option at ruleset/options/bomb_multipler: ...
    """
    by_name = {spec.name: spec for spec in specs(type(rules))}
    if len(overrides) > len(by_name):  # before looking at any name: bounded work
        raise InvalidRulesError(
            [
                Issue(
                    "too_many_options",
                    f"{len(overrides)} options given; this rule set has only {len(by_name)} "
                    "(see GET /v1/rulesets): remove the unknown ones",
                    location,
                )
            ]
        )
    problems = Problems()
    suggestions = Suggestions()
    changes: dict[str, object] = {}
    for name, value in overrides.items():
        spec = by_name.get(name)
        if spec is None:
            if problems.full():  # only counted from here: skip the message and the search
                problems.add("unknown_option", "", *location)
                continue
            short = len(name) <= MAX_NAME
            hint = _hint(name, by_name) if short and suggestions.take() else None
            problems.add(
                "unknown_option",
                f"there is no option {quote(name)}; {hint or 'see GET /v1/rulesets'}",
                *((*location, name) if short else location),  # a long name: the object
            )
            continue
        problem = spec.check(value)
        if problem is not None:
            problems.add("invalid_option", problem, *location, name)
            continue
        changes[name] = value
    problems.raise_if_any(InvalidRulesError)
    for name, value in changes.items():
        enum = by_name[name].enum
        if enum is not None and isinstance(value, str):
            changes[name] = enum(value)
    return replace(rules, **changes)  # type: ignore[type-var]
