"""Domain results → JSON-ready dicts (the response side of SPEC §4).

Plain functions that build dicts for orjson: much faster than a marshmallow ``dump``.
The response schemas in :mod:`calculator.api.responses` document the same shapes, and
the test suite checks every response against them, so the two cannot drift.

Parts that repeat from response to response — the resolved rule set, scoring items,
explanation steps, a player's counts, whole payments — are serialized once and reused
as ``orjson.Fragment`` values, so the bodies these functions return are meant for
``orjson.dumps``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Final, NamedTuple

import orjson

from calculator.api import rules_document
from calculator.balance import BalanceResult
from calculator.cards import CARDS, DECK
from calculator.codes import CODES, DESCRIPTIONS
from calculator.errors import Issue
from calculator.explain import LANGUAGES, operation, payment_sentence, step_line
from calculator.labels import label
from calculator.options import specs
from calculator.presets import Preset, RuleSet, Variant, presets, resolve
from calculator.result import (
    CountValues,
    HandResult,
    Payment,
    PlayerResult,
    Step,
    WinnerScore,
    count_values,
    gukjin_of,
    winner_of,
)
from calculator.scoring import Item, item_cards
from calculator.session import Rounding, SessionResult, Transfer, minimal_transfers
from calculator.settlement import Comparison
from calculator.tables import tables_for

_OP_KEY: Final = {"start": "amount", "add": "addend", "multiply": "factor"}
# orjson's functions held here: compiled, ``orjson.dumps`` is a module attribute lookup
_dumps: Final = orjson.dumps
_Fragment: Final = orjson.Fragment


class Shape(NamedTuple):
    """How an answer is shaped: the languages of its ``label`` and ``text`` fields, and
    whether its rule set echo lists every resolved option (``?full_ruleset=true``)."""

    langs: tuple[str, ...] = LANGUAGES[:1]
    full_ruleset: bool = False


DEFAULT_SHAPE: Final = Shape()
"""The default answer (what tables store): Korean, the compact rule set echo."""


@lru_cache(maxsize=1024)
def _label(code: str, langs: tuple[str, ...] = LANGUAGES) -> dict[str, str]:
    found = label(code)
    return {lang: getattr(found, lang) for lang in langs}


def ruleset_json(ruleset: RuleSet, *, full: bool = False) -> dict[str, Any]:
    """The rule set echo (contract): ``{variant, preset, fingerprint, overrides}`` — the
    options that differ from the preset — and, when ``full``, every resolved ``options``.
    Sent back as a request's ``ruleset`` it resolves to the same rule set."""
    key = (ruleset.fingerprint, ruleset.preset, full)
    found = _RULESETS.get(key)
    if found is None:
        if len(_RULESETS) > 1024:
            _RULESETS.clear()
        found = {
            "variant": ruleset.variant.value,
            "preset": ruleset.preset,
            "fingerprint": ruleset.fingerprint,
            "overrides": ruleset.overrides(),
        }
        if full:
            found["options"] = ruleset.options()
        _RULESETS[key] = found
    return found


# Final: compiled, read natively (a plain global is looked up in the module's dict)
_RULESETS: Final[dict[tuple[str, str, bool], dict[str, Any]]] = {}
_RULESET_FRAGMENTS: Final[dict[tuple[str, str, bool], orjson.Fragment]] = {}


# A resolved rule set is kept (calculator.presets): an answer's is the object of the
# answers before it under the same rules, found by identity first (~0.3k instructions,
# where the key by fingerprint reads two fields of a class that is not compiled, a
# generic lookup each, and hashes a tuple: ~1k). The entry holds the rule set: its ID is
# only taken for it while it is alive.
_RULESETS_BY_IDENTITY: Final[dict[int, tuple[RuleSet, bool, orjson.Fragment]]] = {}


def _ruleset_fragment(ruleset: RuleSet, *, full: bool) -> orjson.Fragment:
    """The rule set echo serialized once (keyed by fingerprint: hashing options is slow)."""
    kept = _RULESETS_BY_IDENTITY.get(id(ruleset))
    if kept is not None and kept[0] is ruleset and kept[1] == full:
        return kept[2]
    found = _ruleset_by_value(ruleset, full=full)
    if len(_RULESETS_BY_IDENTITY) > 1024:
        _RULESETS_BY_IDENTITY.clear()
    _RULESETS_BY_IDENTITY[id(ruleset)] = (ruleset, full, found)
    return found


def _ruleset_by_value(ruleset: RuleSet, *, full: bool) -> orjson.Fragment:
    key = (ruleset.fingerprint, ruleset.preset, full)
    found = _RULESET_FRAGMENTS.get(key)
    if found is None:
        if len(_RULESET_FRAGMENTS) > 1024:
            _RULESET_FRAGMENTS.clear()
        found = _RULESET_FRAGMENTS[key] = _Fragment(_dumps(ruleset_json(ruleset, full=full)))
    return found


def _step_entry(
    step: Step, before: int, langs: tuple[str, ...]
) -> tuple[orjson.Fragment, tuple[str, ...]]:
    """One explanation line, serialized (``before`` is the running value it starts from,
    for its sentence), and what it does in a payment's sentence in each of ``langs``
    (:func:`calculator.explain.operation`): a payment's step is looked up once for both."""
    operations = tuple([operation(step, lang) for lang in langs])
    found: dict[str, Any] = {
        "code": step.code,
        "op": step.op,
        _OP_KEY[step.op]: step.value,
        "total": step.total,
        # the sentence names the step (its label alone: GET /v1/codes, list "step")
        "text": {
            lang: step_line(step, before=before, said=operations[i], lang=lang)
            for i, lang in enumerate(langs)
        },
    }
    if step.times is not None:
        found["times"] = step.times
    if step.player is not None:
        found["player"] = step.player
    return _Fragment(_dumps(found)), operations


# The caches of what repeats a lot, held as Final names: compiled, a call of a decorated
# function looks its name up in the module's dict first (a Final is read natively).
step_entry: Final = lru_cache(maxsize=16384)(_step_entry)
"""One explanation line, serialized, and its sentence parts (steps repeat a lot):
:func:`_step_entry`."""


def _own_steps(steps: tuple[Step, ...]) -> tuple[tuple[Step, ...], int]:
    """A loser's own steps and the amount they start from: the winner's amount that opens
    them in the domain is ``winner_score.amount``, said once on the wire (it was a tenth
    of every answer)."""
    if steps and steps[0].code == "winner_amount":
        return steps[1:], steps[0].total
    return steps, 0


def _steps(steps: tuple[Step, ...], start: int, langs: tuple[str, ...]) -> list[orjson.Fragment]:
    found = []
    before = start
    for step in steps:
        found.append(step_entry(step, before, langs)[0])
        before = step.total
    return found


def _item_fragment(item: Item, langs: tuple[str, ...] = LANGUAGES[:1]) -> orjson.Fragment:
    """One scoring item, serialized."""
    return _Fragment(
        _dumps(
            {
                "code": item.code,
                "points": item.points,
                "cards": item_cards(item),  # not ``item.cards``: a property is a generic lookup
                "label": _label(item.code, langs),
            }
        )
    )


_item_json: Final = lru_cache(maxsize=16384)(_item_fragment)
# An item of the score tables (calculator.tables: those that know their IDs in advance)
# is the same object in every hand under its rules: found by identity first, which hashes
# nothing (hashing an item and comparing it with the kept key cost ~1k a lookup). The
# entry holds the item and the languages it was made for (compared by value: the hand
# endpoint's ("ko",) and the ledger's are other tuples): an ID is only taken for them while
# they are alive, and anything else goes on to the cache by value.
_BY_IDENTITY: Final[dict[int, tuple[Item, tuple[str, ...], orjson.Fragment]]] = {}
_IDENTITIES_KEPT: Final = 4096


def item_json(item: Item, langs: tuple[str, ...] = LANGUAGES[:1]) -> orjson.Fragment:
    """One scoring item, serialized (items repeat a lot): :func:`_item_fragment`, kept."""
    if item.ids is None:  # made for its hand: only its value can be found again
        return _item_json(item, langs)
    kept = _BY_IDENTITY.get(id(item))
    if kept is not None and kept[0] is item and kept[1] == langs:
        return kept[2]
    found = _item_json(item, langs)
    if len(_BY_IDENTITY) >= _IDENTITIES_KEPT:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(item)] = (item, langs, found)
    return found


def player_json(player: PlayerResult, shape: Shape = DEFAULT_SHAPE) -> dict[str, Any]:
    """A player's itemized points (``gukjin_as`` only when it holds a switchable card)."""
    # not the properties (compiled, a generic lookup each), nor a Counts record: its
    # values as a plain tuple, built natively
    counts = count_values(player)
    langs = shape.langs
    found: dict[str, Any] = {
        "id": player.id,
        "points": player.points,
        "items": [item_json(item, langs) for item in player.items],
        "counts": _counts_json(counts),
    }
    gukjin_as = gukjin_of(player)
    if gukjin_as:
        found["gukjin_as"] = gukjin_as
    found["may_stop"] = player.may_stop
    if player.score is None:  # it sits out
        found["sits_out"] = True
        found["sold"] = player.sold
    return found


# A player's counts, kept by value: six small numbers that repeat from hand to hand (about
# half of a fresh hand's players find theirs), where a dict of six entries cost ~1.5k
# instructions to build and ~1.2k for orjson to walk. Keyed by the numbers themselves,
# boxed as ``count_values`` made them (a narrowed tuple is unboxed, then boxed again).
_COUNTS: Final[dict[CountValues | None, orjson.Fragment]] = {}
_COUNTS_KEPT: Final = 4096


def _counts_json(counts: CountValues | None) -> orjson.Fragment:
    """A player's ``counts``, serialized (``null`` without them)."""
    found = _COUNTS.get(counts)
    if found is None:
        if len(_COUNTS) >= _COUNTS_KEPT:
            _COUNTS.clear()
        found = _COUNTS[counts] = _Fragment(_counts_text(counts))
    return found


def _counts_text(counts: CountValues | None) -> str:
    """What ``orjson.dumps`` writes for the counts as a dict, written directly: numbers
    and nulls alone, which need no escaping (~2.5k instructions, where building the dict
    and dumping it cost ~3.7k: a call of ``dumps`` costs ~0.8k before it writes a byte)."""
    if counts is None:
        return "null"
    brights, animals, ribbons, junk_value, junk_cards, cards = counts
    junk = "null" if junk_cards is None else str(junk_cards)
    held = "null" if cards is None else str(cards)
    return (
        f'{{"brights":{brights},"animals":{animals},"ribbons":{ribbons},'
        f'"junk_value":{junk_value},"junk_cards":{junk},"cards":{held}}}'
    )


def winner_json(
    winner: WinnerScore | None, winner_id: str | None, shape: Shape = DEFAULT_SHAPE
) -> dict[str, Any] | None:
    """The winner's base points and the steps to its amount."""
    if winner is None:
        return None
    return {
        "winner": winner_id,
        "base": winner.base,
        "steps": _steps(winner.steps, winner.base, shape.langs),
        "amount": winner.amount,
    }


# Payments serialized once: the same payment again (all of it, its steps included) finds
# its bytes, sentence and all, where building them cost ~8k instructions. Its steps are in
# the key as the fragments that ``step_entry`` keeps for them: a fragment is made once for
# its step's value and the running value before it (the key holds it, so no other object
# takes its identity), so equal fragments mean equal steps, and hashing them costs
# nothing (hashing the steps again, after ``step_entry`` has, cost more than a found
# sentence saved). Only payments of at most one step of their own are kept: on hands not
# seen before, 3 in 4 of those with none were found and 1 in 3 of those with one, but 1 in
# 13 with two and 1 in 80 with three, where a miss costs ~3.5k (a key, two lookups, a
# ``dumps`` call of its own).
_PAYMENTS: Final[dict[tuple[Any, ...], orjson.Fragment]] = {}
_PAYMENTS_KEPT: Final = 4096


def payment_json(
    payment: Payment, stake: int, shape: Shape = DEFAULT_SHAPE
) -> dict[str, Any] | orjson.Fragment:
    """One payer → payee entry (contract: from, to, points, chips), with its sentence;
    ``steps`` only when it has some (the reason's label: ``GET /v1/codes``)."""
    langs = shape.langs
    steps = payment.steps
    own, before = _own_steps(steps)  # not ``*``: compiled, a star call is generic
    start = before
    entries = []
    for step in own:
        entries.append(step_entry(step, before, langs))
        before = step.total
    if len(entries) > 1:  # rarely seen again: written with the answer
        return _payment_body(payment, stake, langs, entries)
    key = (
        payment.payer,
        payment.payee,
        payment.points,
        payment.chips,
        payment.reason,
        payment.priced_in,
        stake,
        langs,
        len(steps),  # whether the winner's amount opened them
        start,
        entries[0][0] if entries else None,  # its one step of its own
    )
    found = _PAYMENTS.get(key)
    if found is None:
        if len(_PAYMENTS) >= _PAYMENTS_KEPT:
            _PAYMENTS.clear()
        found = _PAYMENTS[key] = _Fragment(_dumps(_payment_body(payment, stake, langs, entries)))
    return found


def _payment_body(
    payment: Payment,
    stake: int,
    langs: tuple[str, ...],
    entries: list[tuple[orjson.Fragment, tuple[str, ...]]],
) -> dict[str, Any]:
    """:func:`payment_json`'s dict, from its own steps' ``step_entry`` (in order)."""
    steps = payment.steps
    # each language's sentence parts, one a step: the winner's amount has none
    operations: list[list[str]] = [[""] * (len(steps) - len(entries)) for _ in langs]
    for _fragment, parts in entries:
        for i, part in enumerate(parts):
            operations[i].append(part)
    found: dict[str, Any] = {
        "from": payment.payer,
        "to": payment.payee,
        "points": payment.points,
        "chips": payment.chips,
        "reason": payment.reason,
        "text": {
            lang: payment_sentence(payment, operations[i], stake=stake, lang=lang)
            for i, lang in enumerate(langs)
        },
    }
    if entries:
        found["steps"] = [fragment for fragment, _parts in entries]
    if payment.priced_in != "points":  # a price in chips: not points × stake
        found["priced_in"] = payment.priced_in
    return found


def settlement_json(result: HandResult, shape: Shape = DEFAULT_SHAPE) -> dict[str, Any]:
    """The money part of a result: winner score, payments, net, streak."""
    return _add_settlement({}, result, shape)


def _add_settlement(body: dict[str, Any], result: HandResult, shape: Shape) -> dict[str, Any]:
    """``body`` with :func:`settlement_json`'s fields added in its order (an answer adds
    them to its own dict: no second dict to build and copy)."""
    stake = result.stake
    body["winner_score"] = winner_json(result.winner_score, winner_of(result), shape)
    body["payments"] = [payment_json(p, stake, shape) for p in result.payments]
    body["net"] = dict(result.net)
    body["nagari_streak_after"] = result.nagari_streak_after
    return body


def outcome_json(result: HandResult) -> dict[str, Any] | None:
    """The outcome as understood (echoed, with the chongtong winner resolved)."""
    outcome = result.outcome
    if outcome is None:
        return None
    found = {
        # a StrEnum's str is its value (``.value`` is a property written in Python)
        "type": str(outcome.type),
        "winner": winner_of(result),
    }
    if outcome.liable is not None:
        found["liable"] = outcome.liable
    return found


def hand_json(
    result: HandResult,
    comparisons: tuple[Comparison, ...] = (),
    shape: Shape = DEFAULT_SHAPE,
) -> dict[str, Any]:
    """The full response of ``POST /v1/gostop/hands``, shaped as the client asked: the
    fields that would say nothing (``preview`` false, no ``comparisons``) are left out."""
    body: dict[str, Any] = {
        "ruleset": _ruleset_fragment(result.ruleset, full=shape.full_ruleset),
        "outcome": outcome_json(result),
        "stake": result.stake,
    }
    if result.outcome is None:
        body["preview"] = True
    body["players"] = [player_json(p, shape) for p in result.players]
    _add_settlement(body, result, shape)
    if comparisons:
        body["comparisons"] = [comparison_json(c, shape) for c in comparisons]
    return body


def comparison_json(comparison: Comparison, shape: Shape = DEFAULT_SHAPE) -> dict[str, Any]:
    """The same hand under another rule set, or why it cannot be settled under it."""
    echo = ruleset_json(comparison.ruleset, full=shape.full_ruleset)
    body: dict[str, Any] = {"ruleset": echo}
    if comparison.result is None:
        assert comparison.error is not None
        body["problem"] = {
            "title": comparison.error.title,
            "errors": issues_json(comparison.error.issues),
        }
        return body
    result = comparison.result
    if result.outcome is None:  # a preview: what it is for, each player's points and stop
        body["players"] = [
            {"id": p.id, "points": p.points, "may_stop": p.may_stop} for p in result.players
        ]
    _add_settlement(body, result, shape)
    body["difference"] = comparison.difference
    return body


def issues_json(issues: Iterable[Issue], prefix: str = "") -> list[dict[str, str]]:
    """Domain issues as problem+json ``errors`` entries with JSON pointers."""
    return [
        {"pointer": prefix + pointer(issue.location), "code": issue.code, "detail": issue.detail}
        for issue in issues
    ]


def pointer(location: Iterable[str | int]) -> str:
    """An RFC 6901 JSON pointer for a location path."""
    parts = [str(part).replace("~", "~0").replace("/", "~1") for part in location]
    return "/" + "/".join(parts) if parts else ""


def card_json(card_id: str, ruleset: RuleSet) -> dict[str, Any]:
    """One catalogue entry of ``GET /v1/cards`` under ``ruleset``: always the same fields;
    ``points`` only under the balance variant, ``null`` under Go-Stop.

    >>> card_json("bonus-a", resolve("standard"))["junk_value"]
    2
    >>> card_json("09-animal", resolve("standard"))["switchable"]
    True
    """
    card = CARDS[card_id]
    bonus = card.month == 0
    entry: dict[str, Any] = {
        "id": card.id,
        "month": card.month or None,
        "kind": card.kind.value,
        "name": {"ko": card.name_ko, "en": card.name_en},
        "tags": sorted(tag.value for tag in card.tags),
        "junk_value": card.junk_value,
        "in_deck": True,
        "switchable": False,
        "points": None,
    }
    rules = ruleset.rules
    if ruleset.variant is Variant.BALANCE:
        entry["points"] = rules.values.get(card.id, 0)
        if bonus:
            entry["junk_value"] = None  # the balance variant counts no junk value
            entry["in_deck"] = card.id in rules.values
        return entry
    if bonus:
        value = rules.bonus_values().get(card.id, 0)
        entry["junk_value"] = value
        entry["in_deck"] = value > 0
    entry["switchable"] = bool(card.bit & tables_for(rules).switchable)
    return entry


def catalog_json(ruleset: RuleSet) -> list[dict[str, Any]]:
    """The whole deck under a rule set: bonus values and switchable cards."""
    return [card_json(card.id, ruleset) for card in DECK]


def preset_json(preset: Preset) -> dict[str, Any]:
    """A preset with every option described."""
    resolved = resolve(preset.name)
    values = resolved.options()
    return {
        "name": preset.name,
        "fingerprint": resolved.fingerprint,
        "variant": preset.variant.value,
        "title": preset.title,
        "description": preset.description,
        "aliases": list(preset.aliases),
        "options": [
            {
                "name": spec.name,
                "type": spec.type,
                "allowed": list(spec.choices) if spec.choices else None,
                "minimum": spec.minimum,
                "maximum": spec.maximum,
                "nullable": spec.nullable,
                "null_means": spec.null_means,
                "default": getattr(spec.default, "value", spec.default),
                "value": values[spec.name],
                "summary": spec.summary,
                "section": spec.section,
                "link": rules_document.link(spec.section),
            }
            for spec in specs(type(preset.rules))
        ],
    }


def presets_json() -> list[dict[str, Any]]:
    """Every preset."""
    return [preset_json(p) for p in presets().values()]


def transfers_json(transfers: Iterable[Transfer]) -> list[dict[str, Any]]:
    """Who pays whom to settle."""
    return [{"from": t.payer, "to": t.payee, "chips": t.chips} for t in transfers]


def balance_json(result: BalanceResult, shape: Shape = DEFAULT_SHAPE) -> dict[str, Any]:
    """The response of ``POST /v1/balance/hands``, shaped as the client asked."""
    langs = shape.langs
    players = []
    for p in result.players:
        players.append(
            {
                "id": p.id,
                "card_points": p.card_points,
                "items": [
                    {
                        "kind": item.kind,
                        "count": item.number,
                        "points": item.points,
                        "cards": list(item.cards),
                        "label": _label(item.kind, langs),
                    }
                    for item in p.items
                ],
                "set_bonuses": {
                    "received": [
                        {
                            "code": b.code,
                            "from": b.payer,
                            "points": b.points,
                            "label": _label(b.code, langs),
                        }
                        for b in p.received
                    ],
                    "given": [
                        {
                            "code": b.code,
                            "to": b.collector,
                            "points": b.points,
                            "label": _label(b.code, langs),
                        }
                        for b in p.given
                    ],
                },
                "total": p.total,
                "balance": p.balance,
                "chips": p.chips,
            }
        )
    return {
        "ruleset": ruleset_json(result.ruleset, full=shape.full_ruleset),
        "target": result.target,
        "stake": result.stake,
        "void": result.void,
        "missing_cards": list(result.missing_cards),
        "players": players,
        "net": result.net,
        "transfers": transfers_json(() if result.void else minimal_transfers(result.net)),
    }


def _rounding_json(rounding: Rounding) -> dict[str, Any]:
    if rounding.absorbed_by is None:
        return {"unit": rounding.unit, "raw": rounding.raw, "method": "largest_remainder"}
    return {
        "unit": rounding.unit,
        "raw": rounding.raw,
        "method": "absorber",
        "absorbed_by": rounding.absorbed_by,
        "remainder": rounding.remainder,
    }


def session_json(result: SessionResult) -> dict[str, Any]:
    """The response of ``POST /v1/settlements``."""
    rounding = result.rounding
    return {
        "players": list(result.players),
        "totals": result.totals,
        "transfers": transfers_json(result.transfers),
        "rounding": None if rounding is None else _rounding_json(rounding),
        "hands": [
            {
                "index": h.position,
                "kind": h.kind,
                "net": h.net,
                "nagari_streak_after": h.nagari_streak_after,
                "void": h.void,
            }
            for h in result.hands
        ],
    }


def codes_json() -> dict[str, Any]:
    """The response of ``GET /v1/codes``: every code list with its labels."""
    return {
        "lists": [
            {
                "name": name,
                "description": DESCRIPTIONS[name],
                "codes": [
                    {"code": code, "label": {"ko": found.ko, "en": found.en}}
                    for code, found in codes.items()
                ],
            }
            for name, codes in CODES.items()
        ]
    }
