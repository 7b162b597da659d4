"""A table's settlement as chat text that the service reads back (SPEC §9, sharing).

:func:`render` writes a :class:`~calculator.ledger.share_line.ShareSheet` as plain text
for a chat (Korean or English): the table, the date, each player's total, who sends whom
how much, the rule set and its fingerprint — short lines, thousands separators, nothing
that needs a monospace font — ending with one compact line
(:func:`~calculator.ledger.share_line.compact_line`) that carries the same numbers with
a checksum. :func:`~calculator.ledger.share_reading.read` finds that line anywhere in a
pasted text and renders it again: every visible line must be one of those (as a chat
leaves it), or say nothing about a table (no number, arrow or player's name). The same
compact line may appear again (the share pasted twice, a reply quoting it); another
compact line that says something else is refused.

This module writes the visible lines (:func:`render`, :func:`shown_lines`); its siblings
hold the rest: :mod:`calculator.ledger.share_line` the compact line (its format, writing
and decoding it) and :mod:`calculator.ledger.share_reading` reading a pasted text back.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum

from calculator.ledger.share_line import ShareSheet, compact_line
from calculator.names import alike as _alike
from calculator.names import norm as _norm
from calculator.names import seen as _seen

SHOWN_FINGERPRINT = 8  # hex digits of the fingerprint on the visible rule line
"""How many hex digits of the fingerprint the rule line shows (and a reading compares)."""


class Lang(StrEnum):
    """The languages of the share text."""

    KO = "ko"
    EN = "en"


_WORDS = {
    Lang.KO: {
        "rules": "규칙 {preset} · 지문 {fingerprint}",
        "totals": "합계",
        "totals_rounded": "합계 ({unit} 단위로 반올림)",
        "pays": "정산 (보낼 사람 → 받을 사람)",
        "pays_rounded": "정산 ({unit} 단위로 반올림)",
        "nothing": "주고받을 돈이 없어요",
    },
    Lang.EN: {
        "rules": "Rules {preset} · fingerprint {fingerprint}",
        "totals": "Totals",
        "totals_rounded": "Totals (rounded to {unit})",
        "pays": "Who pays whom",
        "pays_rounded": "Who pays whom (rounded to {unit})",
        "nothing": "Nobody owes anything",
    },
}


def labels(players: tuple[tuple[str, str | None], ...]) -> dict[str, str]:
    """The name each player is shown by: its name, else its id (as a chat shows them:
    whitespace runs as one space); names that two players share get their place
    (``민지 #2``), or the next number when that would read as another player's own name,
    so every visible line names one player, and none by another's name."""
    # as a chat shows them: "❤️ 민지" and "❤ 민지" look alike; a name of variation
    # selectors alone shows nothing (the id is shown instead)
    shown = [
        next((_norm(text) for text in (name or "", pid) if _seen(text)), "?")
        for pid, name in players
    ]
    counts = Counter(_alike(label) for label in shown)
    # A number never makes another player's own name ("Kim #2" beside two "Kim"s): every
    # name shown is reserved, and a shared one takes its place's number, or the next one
    # that reads as no name and no label given already.
    reserved = set(counts)
    found: list[str] = []
    for place, label in enumerate(shown, start=1):
        if counts[_alike(label)] == 1:
            found.append(label)
            continue
        number = place
        while _alike(f"{label} #{number}") in reserved:
            number += 1
        found.append(f"{label} #{number}")
        reserved.add(_alike(found[-1]))
    return {pid: label for (pid, _name), label in zip(players, found, strict=True)}


def render(sheet: ShareSheet, *, lang: Lang) -> str:
    """The share text: a few short lines for a chat, ending with the compact line."""
    lines = [line for _kind, line in shown_lines(sheet, lang)]
    return "\n".join([*lines, "", compact_line(sheet)]) + "\n"


def shown_lines(sheet: ShareSheet, lang: Lang) -> list[tuple[str, str]]:
    """The visible lines of the share text (before the compact line), each with its kind:
    what :func:`render` writes and what :func:`read` accepts outside the compact line."""
    words = _WORDS[lang]
    shown = labels(sheet.players)
    # rounded totals say so (a player comparing them with the table's own would wonder)
    totals, pays = (
        (words["totals"], words["pays"])
        if sheet.unit is None
        else (
            words["totals_rounded"].format(unit=f"{sheet.unit:,}"),
            words["pays_rounded"].format(unit=f"{sheet.unit:,}"),
        )
    )
    return [
        ("title", f"{sheet.title} · {shown_date(sheet.date, lang)}"),
        (
            "rules",
            words["rules"].format(
                preset=sheet.preset, fingerprint=sheet.fingerprint[:SHOWN_FINGERPRINT]
            ),
        ),
        ("blank", ""),
        ("header", totals),
        *(("totals", f"{shown[pid]} {signed(sheet.totals[pid])}") for pid, _name in sheet.players),
        ("blank", ""),
        ("header", pays),
        *(
            ("transfers", f"{shown[t.payer]} → {shown[t.payee]} {t.chips:,}")
            for t in sheet.transfers
        ),
        *([] if sheet.transfers else [("header", words["nothing"])]),
    ]


def signed(chips: int) -> str:
    """A total as the share text writes it: signed, with thousands separators (0 bare)."""
    return f"{chips:+,}" if chips else "0"


def shown_date(date: str, lang: Lang) -> str:
    """The date (``YYYY-MM-DD``) as the title line writes it in ``lang``."""
    if lang is Lang.KO:
        year, month, day = (int(part) for part in date.split("-"))
        return f"{year}년 {month}월 {day}일"
    return date  # ISO 8601: read the same way everywhere
