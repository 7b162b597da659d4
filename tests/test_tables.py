"""The lookup tables are a cache keyed by the few options that shape them (issue #11 item 8)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import GoStopError, resolve
from calculator.options import OptionSpec, specs
from calculator.presets import MAX_RULESETS, Resolver, TooManyRulesetsError
from calculator.rules import GoStopRules
from calculator.tables import TABLE_OPTIONS, build_tables, tables_for
from tests_support import examples

STANDARD = GoStopRules()
SPECS = specs(GoStopRules)


def _values(spec: OptionSpec) -> list[Any]:
    """A few values of an option other than its default (both ends of a range)."""
    if spec.type == "boolean":
        found: list[Any] = [True, False]
    elif spec.type == "integer":
        low = spec.minimum or 0
        found = [low, low + 1, spec.maximum if spec.maximum is not None else 100]
    else:
        assert spec.enum is not None
        found = list(spec.enum)
    if spec.nullable:
        found.append(None)
    return [v for v in found if v != spec.default]


CHANGES = [(spec.name, value) for spec in SPECS for value in _values(spec)]


@pytest.mark.parametrize(("name", "value"), CHANGES, ids=[f"{n}={v}" for n, v in CHANGES])
def test_cached_tables_equal_tables_built_from_the_whole_rule_set(name: str, value: Any) -> None:
    """The cache builds each part from a rules record holding only that part's options: if a
    part read any option missing from its key, its tables would differ here."""
    rules = dataclasses.replace(STANDARD, **{name: value})
    assert tables_for(rules) == build_tables(rules)


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_cached_tables_equal_built_ones_under_random_options(data: st.DataObject) -> None:
    changes = data.draw(st.lists(st.sampled_from(CHANGES), max_size=6))
    rules = dataclasses.replace(STANDARD, **dict(changes))
    assert tables_for(rules) == build_tables(rules)


def test_tables_are_shared_by_rule_sets_that_differ_only_elsewhere() -> None:
    first = resolve("standard", {"bomb_multiplier": 3}).rules
    second = resolve("standard", {"go_formula": "times_n", "shake_cap": 2}).rules
    assert tables_for(first) is tables_for(second) is tables_for(STANDARD)
    assert set(TABLE_OPTIONS) < {spec.name for spec in SPECS}


def test_a_rules_record_stays_a_record() -> None:
    """Regression: GoStopRules built its tables in __post_init__ (7 ms per rule set)."""
    assert [f.name for f in dataclasses.fields(GoStopRules)] == [spec.name for spec in SPECS]
    assert not hasattr(GoStopRules, "__post_init__")


def test_a_resolver_resolves_each_rule_set_once_and_caps_the_distinct_ones() -> None:
    resolver = Resolver()
    same = [resolver.resolve("standard", {"godori_points": 7}) for _ in range(100)]
    assert all(ruleset is same[0] for ruleset in same)
    for points in range(MAX_RULESETS - 1):
        resolver.resolve("standard", {"godori_points": 100 + points})
    with pytest.raises(TooManyRulesetsError) as raised:
        resolver.resolve("standard", {"godori_points": 999})
    assert isinstance(raised.value, GoStopError)
    assert raised.value.issues[0].code == "too_many_rulesets"
    assert str(MAX_RULESETS) in raised.value.issues[0].detail
    assert resolver.resolve("standard", {"godori_points": 7}) is same[0]  # seen: still fine


def test_a_preset_by_name_stays_one_rule_set_when_the_cache_of_options_fills() -> None:
    """The cache of resolved rule sets is bounded: filled with rule sets with options, it
    empties, but keeps the presets named alone, so that ``resolve`` and a fresh
    :class:`Resolver` still hand out the one object (a flaky failure of the test below
    when another test of its worker had filled the cache)."""
    from calculator.presets import _CACHE_SIZE, _RESOLVED, Variant

    by_name = resolve("standard", variant=Variant.GOSTOP)
    for points in range(_CACHE_SIZE + 1):
        resolve("standard", {"godori_points": points}, variant=Variant.GOSTOP)
    assert len(_RESOLVED) <= _CACHE_SIZE  # still bounded
    assert Resolver().resolve("standard", variant=Variant.GOSTOP) is by_name
    assert _RESOLVED[("standard", (), Variant.GOSTOP)] is by_name  # kept through the emptying


def test_a_preset_by_name_is_one_rule_set_however_its_absent_options_are_said() -> None:
    from calculator.presets import Variant

    by_name = resolve("standard", variant=Variant.GOSTOP)
    assert resolve("standard", {}, variant=Variant.GOSTOP) is by_name
    resolver = Resolver(limit=1)
    assert resolver.resolve("standard", variant=Variant.GOSTOP) is by_name
    assert resolver.resolve("standard", {}, variant=Variant.GOSTOP) is by_name  # no new one
    for variant in (None, Variant.BALANCE):  # another variant is another key
        with pytest.raises(TooManyRulesetsError):
            resolver.resolve("standard", variant=variant)
    resolver = Resolver()
    assert resolver.resolve("standard", variant=Variant.GOSTOP) is by_name
    with pytest.raises(GoStopError) as raised:  # a name resolved for another variant
        resolver.resolve("standard", variant=Variant.BALANCE)
    assert [issue.code for issue in raised.value.issues] == ["wrong_variant"]
    assert resolver.resolve("standard", variant=Variant.GOSTOP) is by_name
