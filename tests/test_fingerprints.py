"""Fingerprints are stable (SPEC §3): today's presets are pinned, and an added option moves none.

The canonical form a fingerprint hashes holds the variant and only the options that differ
from their declared default (calculator.options.canonical_form). An option added later is
at its default in every existing rule set, so it never enters their canonical forms: the
pins below were computed before the house-rule options of issue #16 were declared
(commit "Fingerprints hash only the options that differ from their default") and did not
move when they were; `test_an_added_option_at_its_default_moves_no_fingerprint` checks the
same thing for any future option by declaring one.
"""

from __future__ import annotations

from dataclasses import fields, make_dataclass
from typing import Any

import pytest

from calculator import options
from calculator.balance import BalanceRules
from calculator.options import option
from calculator.presets import presets, resolve
from calculator.rules import GoStopRules

PINNED = {
    "standard": "491ff119b3cb90f22f128d30555c6276",
    "wikipedia": "525e81693b33895aab449275f0878bba",
    "gamerules": "d582855251c73f65933323cb4a0159b9",
    "balance": "e4d23590ed27dcaedf02177a5091b7cb",
    "minhwatu": "e72e7985b52012d3c9fd4cb4a6bdcf2c",
}


def test_every_preset_is_pinned() -> None:
    assert sorted(PINNED) == sorted(presets()), "a preset was added: pin its fingerprint here"


@pytest.mark.parametrize("name", sorted(PINNED))
def test_preset_fingerprint_is_pinned(name: str) -> None:
    assert resolve(name).fingerprint == PINNED[name]


def test_the_canonical_form_leaves_out_defaults() -> None:
    assert options.canonical_form("gostop", GoStopRules()) == '{"options":{},"variant":"gostop"}'
    wikipedia = resolve("wikipedia")
    form = options.canonical_form("gostop", wikipedia.rules)
    differing = {
        spec.name
        for spec in options.specs(GoStopRules)
        if getattr(wikipedia.rules, spec.name) != spec.default
    }
    assert differing
    assert all(f'"{name}"' in form for name in differing)
    assert form.count(":") == len(differing) + 2  # "options":{…} and "variant": besides


def test_an_option_set_back_to_its_default_is_the_preset() -> None:
    assert resolve("standard", {"bomb_multiplier": 2}).fingerprint == PINNED["standard"]
    assert resolve("wikipedia", {"bomb_multiplier": 2}).fingerprint not in PINNED.values()


def _extended(rules_type: type, default: Any) -> type:
    """``rules_type`` with one more option, declared the way every option is."""
    extended = make_dataclass(
        "Extended",
        [
            (
                "option_added_later",
                type(default),
                option(default, summary="An option declared after the pins.", section="test"),
            )
        ],
        bases=(rules_type,),
        frozen=True,
        slots=True,
        kw_only=True,
    )
    extended.__module__ = rules_type.__module__  # where the option types are looked up
    return extended


@pytest.mark.parametrize("default", [0, False])
@pytest.mark.parametrize("name", sorted(PINNED))
def test_an_added_option_at_its_default_moves_no_fingerprint(name: str, default: Any) -> None:
    ruleset = resolve(name)
    rules = ruleset.rules
    assert isinstance(rules, GoStopRules | BalanceRules)
    extended = _extended(type(rules), default)
    same = {f.name: getattr(rules, f.name) for f in fields(rules) if f.init}
    variant = ruleset.variant.value
    assert options.fingerprint(variant, extended(**same)) == PINNED[name]
    changed = extended(**same, option_added_later=not default if default is False else 1)
    assert options.fingerprint(variant, changed) != PINNED[name]


def test_presets_and_rule_sets_copy_and_pickle_to_equal_ones() -> None:
    """A preset and a resolved rule set copy, deep-copy and pickle to an equal one, with
    the same fingerprint: compiled (mypyc), a frozen dataclass refuses copy's setting of
    its fields one by one, so each is made again by its fields (``__reduce__``)."""
    import copy
    import pickle

    made = [
        *presets().values(),
        resolve("standard"),
        resolve("wikipedia", {"bomb_multiplier": 2}),
        resolve("balance"),
    ]
    for value in made:
        for again in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
            assert type(again) is type(value)
            assert again == value
    assert pickle.loads(pickle.dumps(made[-2])).fingerprint == made[-2].fingerprint


def test_a_preset_that_is_no_string_is_an_unknown_preset() -> None:
    """A library caller's preset of another type is refused as unknown, as a name nobody
    registered is, compiled or not (typed ``object``: compiled, a ``str`` parameter
    raised TypeError first)."""
    from calculator.errors import InvalidRulesError
    from calculator.presets import Resolver

    for resolving in (resolve, Resolver().resolve):
        with pytest.raises(InvalidRulesError) as refused:
            resolving(123)
        assert refused.value.issues[0].code == "unknown_preset"
