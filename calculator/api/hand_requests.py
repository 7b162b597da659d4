"""What a loaded hand request is, and its rule sets resolved: the records the loader makes
(a requested rule set, a hand request) and :func:`resolve_spec`.

Compiled with the loader and the batch loop (mypyc, setup.py): the loader builds each
hand's request by :func:`hand_request`, and the batch resolves each hand's rule set by
:func:`resolve_spec`, once a hand. Interpreted (in :mod:`calculator.api.schemas`, with
:class:`~calculator.presets.Resolver`), they were three Python frames a batched hand
(~4.5k instructions of ~191k; bench/RESULTS.md, thirty-fourth session). The schemas
(:mod:`calculator.api.schemas`) declare the wire format and re-export these; this module
knows nothing of marshmallow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final, NamedTuple, final

from calculator.errors import InvalidRulesError, Issue
from calculator.hand import Event, Hand, Outcome, PlayerHand
from calculator.limits import quote
from calculator.presets import Resolver, RuleSet, Variant, presets, resolve
from calculator.records import Record

_new: Final[Callable[..., Any]] = tuple.__new__
"""A named tuple of its values in order, less _make's call and length check (compiled, a
named tuple's class is called through its interpreted ``__new__``): tests/test_records.py
holds every ``_new(Record, (…))`` call to the record's fields."""


class RulesetSpec(NamedTuple):
    """A rule set as asked for: a preset name and overrides (resolved later), and the
    fingerprint the client expects them to resolve to, if it gave one."""

    preset: str
    options: Mapping[str, Any]
    by_name: bool  # given as a bare string
    fingerprint: str | None = None


NO_OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})
"""The options of a rule set given by name alone: none, read-only, so that every such
spec can share them (:func:`spec_by_name`)."""


def spec_by_name(name: str) -> RulesetSpec:
    """The spec of a rule set given by name alone (``"ruleset": "standard"``): a preset's
    name or alias finds its spec made once (:data:`BY_NAME`), another is made here.

    Most hands of a batch name a preset: made for each, the spec cost a dict and three
    tuples (~1k instructions a hand, most in ``tuple.__new__``)."""
    found = BY_NAME.get(name)
    return found if found is not None else _new(RulesetSpec, (name, NO_OPTIONS, True, None))


BY_NAME: Final[dict[str, RulesetSpec]] = {
    name: _new(RulesetSpec, (name, NO_OPTIONS, True, None))
    for preset in presets().values()
    for name in (preset.name, *preset.aliases)
}
"""The spec of each preset's name and aliases (a bounded table: the registry's names)."""


@final
class HandRequest(Record):
    """A scoring request: the hand, the rule set, and rule sets to compare with.

    A native record (:class:`~calculator.records.Record`; compiled, built by a direct
    call), where a named tuple was built by ``tuple.__new__``, a generic call (~0.85k
    instructions once a batched hand; ~0.2k now): it is the request's wrapper, read by
    name alone, and never a key."""

    _fields: ClassVar = ("hand", "ruleset", "compare_with", "streak_given")

    def __init__(
        self,
        hand: Hand,
        ruleset: RulesetSpec,
        compare_with: tuple[RulesetSpec, ...],
        streak_given: bool = True,
    ) -> None:
        self.hand: Final = hand
        self.ruleset: Final = ruleset
        self.compare_with: Final = compare_with
        self.streak_given: Final = streak_given  # False: nagari_streak was left out


# Hand named once: compiled, a named tuple's class is a look-up among the module's
# globals at every use; a Final name is read from a native static (tests/test_records.py
# reads such aliases).
_HAND: Final = Hand


def hand_request(
    ruleset: RulesetSpec,
    stake: int,
    nagari_streak: int | None,
    players: tuple[PlayerHand, ...],
    outcome: Outcome | None,
    events: tuple[Event, ...],
    compare_with: tuple[RulesetSpec, ...],
    dealer: str | None = None,
) -> HandRequest:
    """The request of the loaded fields (``HandRequestSchema``'s record; its parameters
    are the schema's fields)."""
    # Hand's fields in order (players, outcome, stake, nagari_streak, events, dealer), by
    # tuple.__new__, which (unlike Hand._make) checks no length: tests/test_records.py
    # holds these calls to the records' fields. Once per hand of a batch.
    hand = _new(_HAND, (players, outcome, stake, nagari_streak or 0, events, dealer))
    return HandRequest(hand, ruleset, compare_with, nagari_streak is not None)


def resolve_spec(
    spec: RulesetSpec,
    variant: Variant,
    at: tuple[str | int, ...],
    *,
    resolver: Resolver | None = None,
) -> RuleSet:
    """Resolve a requested rule set through the request's ``resolver`` (which counts the
    distinct rule sets; a request with one rule set needs none); domain errors point into
    the request at ``at``."""
    try:
        if resolver is None:  # one rule set: within any limit (Resolver's first is resolve)
            found = resolve(spec.preset, spec.options, variant=variant)
        else:
            found = resolver.resolve(spec.preset, spec.options, variant=variant)
    except InvalidRulesError as error:
        issues = []
        for issue in error.issues:
            rest = issue.location[1:]  # drop the domain's leading "ruleset"
            if spec.by_name and rest == ("preset",):
                rest = ()
            issues.append(Issue(issue.code, issue.detail, (*at, *rest)))
        raise InvalidRulesError(issues) from None
    if spec.fingerprint is not None and spec.fingerprint != found.fingerprint:
        detail = (
            f"fingerprint {quote(spec.fingerprint)} does not match these rules, which resolve "
            f"to {found.fingerprint}; send the echo back unchanged, or leave fingerprint out"
        )
        raise InvalidRulesError([Issue("fingerprint_mismatch", detail, (*at, "fingerprint"))])
    return found
