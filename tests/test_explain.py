"""The sentences' small parts that replace a generic call of the compiled build with code
of their own must say exactly what the call said (calculator/explain.py, labels.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from calculator.explain import _n
from calculator.labels import LABELS, Label, label, label_in

# every amount a sentence may carry, and the edges of each group of three digits
EDGES = [sign * (10**k + d) for k in range(19) for d in (-1, 0, 1) for sign in (1, -1)]


@given(st.integers(min_value=-(10**18), max_value=10**18) | st.sampled_from(EDGES))
def test_thousands_are_grouped_as_the_format_spec_groups_them(value: int) -> None:
    assert _n(value) == f"{value:,}"


def test_a_label_in_a_language_is_that_field_of_the_label() -> None:
    for code in [*LABELS, "not_a_code"]:
        found = label(code)
        for lang in Label._fields:
            assert label_in(code, lang) == getattr(found, lang)
    assert label_in("pi_bak", "ko") == "피박"  # codes.py's label of 피박
