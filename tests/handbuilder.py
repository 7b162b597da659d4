"""Test helper: build domain hands from the compact JSON of the example data files.

Piles may use the short card codes of docs/rules.md §1.2 ("1G", "9A", "12R", "11S", "1P", "B2")
so the data files read like the reference; every other key maps one-to-one onto the
domain records.
"""

from __future__ import annotations

import re
from typing import Any

from calculator import (
    CARDS,
    Category,
    ChongtongHolder,
    Declared,
    Event,
    EventType,
    GukjinChoice,
    Hand,
    Outcome,
    OutcomeType,
    PlayerHand,
    Tally,
)

_KINDS = {"G": "bright", "A": "animal", "R": "ribbon", "S": "double-junk"}
_BONUS = {"B2": "bonus-a", "B3": "bonus-b"}


class CardNamer:
    """Expands short codes; each "1P" takes the next unused junk card of that month."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def expand(self, code: str) -> str:
        if code in CARDS or not re.fullmatch(r"\d{1,2}[GARSP]|B[23]", code):
            return code  # a full ID, or a deliberately bad one
        if code in _BONUS:
            card_id = _BONUS[code]
        elif code[-1] == "P":
            month = int(code[:-1])
            card_id = next(
                f"{month:02d}-junk-{n}"
                for n in (1, 2, 3)
                if f"{month:02d}-junk-{n}" not in self.used
            )
        else:
            card_id = f"{int(code[:-1]):02d}-{_KINDS[code[-1]]}"
        self.used.add(card_id)
        return card_id


def build_hand(data: dict[str, Any]) -> Hand:
    """A domain Hand from an example's ``hand`` object."""
    namer = CardNamer()
    players = []
    for p in data["players"]:
        p = dict(p)
        kwargs: dict[str, Any] = {"id": p.pop("id")}
        if "cards" in p:
            kwargs["captured"] = tuple(namer.expand(c) for c in p.pop("cards"))
        if "hand" in p:
            kwargs["hand"] = tuple(namer.expand(c) for c in p.pop("hand"))
        if "tally" in p:
            kwargs["tally"] = Tally(**p.pop("tally"))
        if "declared" in p:
            declared = dict(p.pop("declared"))
            declared["scored"] = frozenset(Category(c) for c in declared.get("scored", ()))
            kwargs["declared"] = Declared(**declared)
        if "gukjin" in p:
            kwargs["gukjin"] = GukjinChoice(p.pop("gukjin"))
        kwargs.update(p)
        players.append(PlayerHand(**kwargs))
    outcome = None
    if "outcome" in data:
        o = dict(data["outcome"])
        o["type"] = OutcomeType(o["type"])
        o["holders"] = tuple(ChongtongHolder(**h) for h in o.get("holders", ()))
        outcome = Outcome(**o)
    events = tuple(
        Event(type=EventType(e["type"]), player=e["player"]) for e in data.get("events", ())
    )
    return Hand(
        players=tuple(players),
        outcome=outcome,
        stake=data.get("stake", 1),
        nagari_streak=data.get("nagari_streak", 0),
        events=events,
        dealer=data.get("dealer"),
    )


def build_body(data: dict[str, Any], ruleset: Any = "standard") -> dict[str, Any]:
    """The API request body of an example's ``hand`` object (short codes expanded)."""
    namer = CardNamer()
    players = []
    for p in data["players"]:
        p = dict(p)
        if "cards" in p:
            p["captured"] = [namer.expand(c) for c in p.pop("cards")]
        if "hand" in p:
            p["hand"] = [namer.expand(c) for c in p["hand"]]
        players.append(p)
    body = {key: value for key, value in data.items() if key != "players"}
    body["players"] = players
    body["ruleset"] = ruleset
    return body
