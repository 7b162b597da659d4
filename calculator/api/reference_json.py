"""The service's reference listings as JSON: the deck under a rule set (``GET /v1/cards``),
the presets with every option described and linked to the rules document
(``GET /v1/rulesets``), and every code list with its labels (``GET /v1/codes``).

Dicts for orjson, built once a worker: the views keep each listing's answer
(:func:`calculator.api.views.cached_json`). The answers of a hand are written in
:mod:`calculator.api.serialize`.
"""

from __future__ import annotations

from typing import Any

from calculator.api import rules_document
from calculator.cards import CARDS, DECK
from calculator.codes import CODES, DESCRIPTIONS
from calculator.options import specs
from calculator.presets import Preset, RuleSet, Variant, presets, resolve
from calculator.tables import tables_for


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
