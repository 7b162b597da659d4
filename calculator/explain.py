"""Ready sentences for every explanation step and payment, in Korean and in English.

The one place where sentences are made: from a step's numbers and facts
(:attr:`calculator.result.Step.facts`, recorded by the code that computes the money) and
the labels of the code lists (:mod:`calculator.codes`), so a sentence can never say
something the amount did not do.

>>> from calculator.result import Step
>>> pi_bak = Step("pi_bak", "multiply", 2, 48, facts=(("junk_value", 3), ("threshold", 5)))
>>> step_text(pi_bak, before=24, lang="ko")
'24 × 2 (피박: 피 3 ≤ 5) = 48'
>>> step_text(pi_bak, before=24, lang="en")
'24 × 2 (junk penalty (pi-bak): 3 junk ≤ 5) = 48'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from calculator.errors import counted
from calculator.labels import label_in
from calculator.result import Payment, Step

LANGUAGES: Final = ("ko", "en")
"""The languages of labels and sentences, the default first."""

_Detail = Callable[[dict[str, int], Step], str]


def _n(value: int) -> str:
    """``value`` with thousands separators, as ``f"{value:,}"`` writes it (a format spec
    is a generic call when compiled, and most amounts are under 1,000).

    >>> [_n(v) for v in (0, 7, -999, 1000, -1000, 4800, 123456, -1234567, 10**9)]
    ['0', '7', '-999', '1,000', '-1,000', '4,800', '123,456', '-1,234,567', '1,000,000,000']
    """
    if -1000 < value < 1000:
        return str(value)
    digits = str(-value if value < 0 else value)
    head = len(digits) % 3 or 3
    grouped = digits[:head]
    for start in range(head, len(digits), 3):  # most amounts here: once (under a million)
        grouped = f"{grouped},{digits[start : start + 3]}"
    return "-" + grouped if value < 0 else grouped


def _pi_bak_ko(facts: dict[str, int], _step: Step) -> str:
    if "junk_cards" in facts:
        return f"피 {facts['junk_cards']}장 ≤ {facts['threshold']}장"
    return f"피 {facts['junk_value']} ≤ {facts['threshold']}"


def _pi_bak_en(facts: dict[str, int], _step: Step) -> str:
    if "junk_cards" in facts:
        cards = facts["junk_cards"]
        return f"{cards} junk card{'' if cards == 1 else 's'} ≤ {facts['threshold']}"
    return f"{facts['junk_value']} junk ≤ {facts['threshold']}"


def _gwang_bak_ko(facts: dict[str, int], _step: Step) -> str:
    held = "광 없음" if facts["brights"] == 0 else "비광뿐"
    return f"승자 광 {facts['winner_brights']}장, {held}"


def _gwang_bak_en(facts: dict[str, int], _step: Step) -> str:
    held = "none here" if facts["brights"] == 0 else "only the rain man here"
    return f"winner scored {facts['winner_brights']} brights, {held}"


def _go_calls_en(go_count: int | None) -> str:
    return counted(go_count or 0, "go call")  # a go step always says how many


def _go_bak_en(go_count: int) -> str:
    return f"lost after {_go_calls_en(go_count)}"


def _meongtta_ko(facts: dict[str, int], _step: Step) -> str:
    return f"열끗 {facts['animals']}장 ≥ {facts['threshold']}장"


def _meongtta_en(facts: dict[str, int], _step: Step) -> str:
    return f"{facts['animals']} animals ≥ {facts['threshold']}"


def _go_multiplier_ko(facts: dict[str, int], step: Step) -> str:
    if "yeokgo_fixed" in facts:
        return f"{step.times}고, 역고로 ×{facts['yeokgo_fixed']} 고정"
    return f"{step.times}고"


def _go_multiplier_en(facts: dict[str, int], step: Step) -> str:
    if "yeokgo_fixed" in facts:
        return (
            f"{_go_calls_en(step.times)}, fixed at ×{facts['yeokgo_fixed']} by the reverse "
            "go (yeokgo)"
        )
    return _go_calls_en(step.times)


def _shake_ko(facts: dict[str, int], step: Step) -> str:
    if "cap" in facts:
        return f"{facts['shakes']}번, 최대 {facts['cap']}번"
    return f"{step.times}번"


def _shake_en(facts: dict[str, int], step: Step) -> str:
    if "cap" in facts:
        return f"{facts['shakes']}×, capped at {facts['cap']}×"
    return f"{step.times}×"


# Why a liable loser pays for everyone (the fact of its covers / covered_by steps, from
# calculator.ending.find_liable's reason): 고박, 역고 or a named 독박.
_LIABLE_REASONS: Final[dict[str, dict[str, str]]] = {
    "go_bak": {"ko": "고박", "en": "go-bak"},
    "yeokgo": {"ko": "역고", "en": "reverse go (yeokgo)"},
    "dokbak": {"ko": "독박", "en": "dokbak"},
}


def _liable_reason(lang: str) -> _Detail:
    """The covers / covered_by words in ``lang``: the reason, then the player."""

    def said(facts: dict[str, int], step: Step) -> str:
        for reason, words in _LIABLE_REASONS.items():
            if reason in facts:
                return f"{words[lang]}, {step.player}"
        return step.player or ""

    return said


# Step code → language → the words after the label: from the step's facts, its ``times``
# and ``player``. A code without an entry says its ``times`` or ``player`` if it has one.
# Plain dicts, private: compiled, a mapping proxy's ``get`` and ``[]`` are generic calls.
_DETAILS: Final[dict[str, dict[str, _Detail]]] = {
    "pi_bak": {"ko": _pi_bak_ko, "en": _pi_bak_en},
    "gwang_bak": {"ko": _gwang_bak_ko, "en": _gwang_bak_en},
    "meong_bak": {
        "ko": lambda f, _s: f"승자 열끗 {f['winner_animals']}장, 열끗 없음",
        "en": lambda f, _s: f"winner has {f['winner_animals']} animals, none here",
    },
    "go_bak": {
        "ko": lambda f, _s: f"{f['go_count']}고 후 패배",
        "en": lambda f, _s: _go_bak_en(f["go_count"]),
    },
    "meongtta": {"ko": _meongtta_ko, "en": _meongtta_en},
    "go_bonus": {"ko": lambda _f, s: f"{s.times}고", "en": lambda _f, s: _go_calls_en(s.times)},
    "go_multiplier": {"ko": _go_multiplier_ko, "en": _go_multiplier_en},
    "shake": {"ko": _shake_ko, "en": _shake_en},
    "bomb": {"ko": lambda _f, s: f"{s.times}번", "en": lambda _f, s: f"{s.times}×"},
    "nagari": {
        "ko": lambda _f, s: f"{s.times}판 연속",
        "en": lambda _f, s: f"{s.times} in a row",
    },
    "no_capture": {"ko": lambda _f, _s: "", "en": lambda _f, _s: ""},
    "covers": {"ko": _liable_reason("ko"), "en": _liable_reason("en")},
    "covered_by": {"ko": _liable_reason("ko"), "en": _liable_reason("en")},
    # ``times``: which ppuk of the run this is (the 3rd: ×4 on the usual ladder)
    "ppuk_ladder": {
        "ko": lambda _f, s: f"{s.times}연뻑",
        "en": lambda _f, s: f"{s.times} ppuks in a row",
    },
}
_DECLARED: Final[dict[str, str]] = {"ko": "신고", "en": "declared"}
# (points, chips) in each language, and English's singulars: "1 point", "1 chip"
_UNITS: Final[dict[str, tuple[str, str]]] = {"ko": ("점", "칩"), "en": (" points", " chips")}
_ONE: Final[dict[str, tuple[str, str]]] = {"ko": ("점", "칩"), "en": (" point", " chip")}


def detail(step: Step, lang: str) -> str:
    """What made ``step`` apply, in words (empty when there is nothing to add)."""
    # most steps have no facts: no dict for them
    facts = dict(step.facts) if step.facts else {}
    if "declared" in facts:
        return _DECLARED[lang]
    found = _DETAILS.get(step.code)
    if found is not None:
        return found[lang](facts, step)
    if step.player is not None:
        return step.player
    if step.times is not None:
        return _n(step.times)
    return ""


def operation(step: Step, lang: str) -> str:
    """`` × 2 (피박: 피 3 ≤ 5)``, `` + 3 (…)`` or `` − 176 (…)``: what ``step`` does to the
    running value, and why in parentheses; empty for a start, which a sentence says by
    name. Not kept here: the answer keeps it with each step's JSON
    (``calculator.api.serialize._kept_step``), for its line and its payment's sentence."""
    if step.op == "start":
        return ""
    name = label_in(step.code, lang)
    words = detail(step, lang)
    named = f"({name}: {words})" if words else f"({name})"
    if step.op == "multiply":
        return f" × {_n(step.value)} {named}"
    if step.value < 0:
        return f" − {_n(-step.value)} {named}"
    return f" + {_n(step.value)} {named}"


def step_text(step: Step, *, before: int, lang: str) -> str:
    """One explanation line: ``24 × 2 (피박: 피 3 ≤ 5) = 48``; a start says its label and
    amount (``승자 점수: 24``). ``before`` is the running value the step starts from."""
    return step_line(step, before=before, said=operation(step, lang), lang=lang)


def step_line(step: Step, *, before: int, said: str, lang: str) -> str:
    """:func:`step_text`, the step's :func:`operation` in ``lang`` given (``said``)."""
    if step.op == "start":
        return f"{label_in(step.code, lang)}: {_n(step.value)}"
    return f"{_n(before)}{said} = {_n(step.total)}"


def payment_text(payment: Payment, *, stake: int, lang: str) -> str:
    """A payment in one line, each step with its reason, then the stake:
    ``24 × 2 (피박: 피 3 ≤ 5) = 48점 × 100 = 4,800칩``. The winner's amount starts it as a
    number, any other start (a side payment's price) with its name; a payment of its start
    alone says just that (``30점 × 10 = 300칩``, ``첫뻑 3점``)."""
    operations = [operation(step, lang) for step in payment.steps]
    return payment_sentence(payment, operations, stake=stake, lang=lang)


def payment_sentence(payment: Payment, operations: list[str], *, stake: int, lang: str) -> str:
    """:func:`payment_text` from each step's :func:`operation` in ``lang``, already at hand
    (``operations[i]`` is that of ``payment.steps[i]``): the answer keeps them with each
    step's JSON, so that a step is looked up once for both."""
    steps = payment.steps
    points, chips = payment.points, payment.chips
    point_unit = (_ONE if points == 1 else _UNITS)[lang][0]
    chip_unit = (_ONE if chips == 1 else _UNITS)[lang][1]
    if payment.priced_in == "chips":
        result = f"{_n(chips)}{chip_unit}"
    elif stake == 1:
        result = f"{_n(points)}{point_unit}"
    else:
        result = f"{_n(points)}{point_unit} × {_n(stake)} = {_n(chips)}{chip_unit}"
    # Not kept by value here: on hands not seen before a quarter of the sentences were
    # found, and hashing every payment's steps for the key cost more than they saved. The
    # answer keeps whole payments, keyed by the fragments it keeps for their steps
    # (:func:`calculator.api.serialize.payment_json`): a key that costs no hashing.
    parts: list[str] = []  # every piece joined once, not built into strings that are joined again
    # Steps apply in turn: a factor after an addition multiplies the sum so far, so that
    # sum goes in parentheses (the sentence reads as the amount was made, by the usual
    # rules): (4 + 2 (…)) × 2 (…) = 12, never 4 + 2 (…) × 2 (…), which is 8.
    opened = 0  # where the current amount starts in ``parts``
    added = False  # whether an addition came since that start or the last parenthesis
    for i, step in enumerate(steps):
        op = step.op
        if op != "start":
            if op == "multiply" and added:
                parts.insert(opened, "(")
                parts.append(")")
                added = False
            elif op != "multiply":
                added = True
            parts.append(operations[i])
            continue
        name = "" if step.code == "winner_amount" else f"{label_in(step.code, lang)} "
        if len(steps) == 1:
            return f"{name}{result}"
        if i:
            parts.append(", ")
        if name:
            parts.append(name)
        opened = len(parts)
        added = False
        parts.append(_n(step.value))
    parts.append(" = ")
    parts.append(result)
    return "".join(parts)
