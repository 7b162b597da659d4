"""resolve_spec (calculator.api.hand_requests) resolves through its request's resolver: a
preset named alone is found again by name (``Resolver.named``), the same rule set, and what
is not a preset by name alone (another variant, a fingerprint, options) is resolved in
full, with its refusals at the request's place."""

from __future__ import annotations

import pytest

from calculator.api.hand_requests import spec_by_name
from calculator.api.schemas import RulesetSpec, resolve_spec
from calculator.errors import InvalidRulesError
from calculator.presets import Resolver, Variant, resolve


def test_a_preset_resolved_by_name_is_found_again_by_its_name() -> None:
    resolver = Resolver()
    first = resolve_spec(spec_by_name("standard"), Variant.GOSTOP, ("ruleset",), resolver=resolver)
    assert resolver.named["standard"] == (Variant.GOSTOP, first)
    again = resolve_spec(RulesetSpec("standard", {}, True), Variant.GOSTOP, (), resolver=resolver)
    assert again is first is resolver.resolve("standard", variant=Variant.GOSTOP)
    assert first == resolve("standard", variant=Variant.GOSTOP)


def test_what_the_resolver_did_not_resolve_by_name_alone_is_resolved_in_full() -> None:
    resolver = Resolver()
    resolve_spec(spec_by_name("standard"), Variant.GOSTOP, ("ruleset",), resolver=resolver)
    # another variant: refused as before, at the request's place
    with pytest.raises(InvalidRulesError) as refused:
        resolve_spec(spec_by_name("standard"), Variant.BALANCE, ("hands", 1), resolver=resolver)
    assert [(i.code, i.location) for i in refused.value.issues] == [("wrong_variant", ("hands", 1))]
    # a fingerprint: still checked
    wrong = RulesetSpec("standard", {}, True, "0" * 16)
    with pytest.raises(InvalidRulesError) as mismatch:
        resolve_spec(wrong, Variant.GOSTOP, ("ruleset",), resolver=resolver)
    assert [i.code for i in mismatch.value.issues] == ["fingerprint_mismatch"]
    # options: resolved with them, not found by the name
    options = RulesetSpec("standard", {"gobak_mode_3p": "pay_all_doubled"}, False)
    changed = resolve_spec(options, Variant.GOSTOP, ("ruleset",), resolver=resolver)
    assert changed != resolver.named["standard"][1]
    assert changed == resolve(
        "standard", {"gobak_mode_3p": "pay_all_doubled"}, variant=Variant.GOSTOP
    )
