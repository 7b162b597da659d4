"""A share text read back (SPEC §9, sharing): :func:`read` finds the compact line
anywhere in a pasted text, decodes it and checks every visible line against it — one of
the lines the share text renders (as a chat leaves it, perhaps after a chat app's
prefix), or a line that says nothing about a table; a copy of the same compact line is
left out, another that says something else refused. Siblings:
:mod:`calculator.ledger.share` writes the text, :mod:`calculator.ledger.share_line` the
compact line."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import NoReturn

from calculator.ledger.share import SHOWN_FINGERPRINT, Lang, labels, shown_date, shown_lines, signed
from calculator.ledger.share_line import PREFIX, START, ShareError, ShareSheet, decode, fail
from calculator.names import norm as _norm
from calculator.names import plain as _plain
from calculator.names import seen as _seen

TRIED_LINES = 4  # compact lines tried, from the last: a text full of "GS1:" stays cheap
_NOT_BREAK = re.compile(r"[^\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")  # what splitlines keeps
# What chat apps put before a copied or exported message: KakaoTalk PC "[민지] [오후 9:15] ",
# KakaoTalk's export "2026. 12. 5. 오후 9:15, 민지 : " (or "December 5, 2026 at 9:15 PM,
# 민지 : "), WhatsApp "[05/12/2026, 21:15:03] 민지: " and "12/5/26, 9:15 PM - 민지: ".
_CLOCK = r"(?:(?:오전|오후) ?\d{1,2}:\d{2}|\d{1,2}:\d{2}(?::\d{2})?(?: ?[AaPp]\.?[Mm]\.?)?)"
_NUMERIC_DATE = r"\d{1,4}[./-] ?\d{1,2}[./-] ?\d{1,4}\.?"
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_SENDER = r"[^:\[\]\d>→⇒➡]{1,60}?"  # no number or arrow: a prefix that holds one is checked
_CHAT_PREFIX = re.compile(
    "|".join(
        (
            rf"\[{_SENDER}\] \[{_CLOCK}\](?: |$)",
            rf"\[{_NUMERIC_DATE},? {_CLOCK}\] {_SENDER}:(?: |$)",
            rf"{_NUMERIC_DATE},? {_CLOCK}(?: -|,) {_SENDER} ?:(?: |$)",
            rf"(?:{_MONTHS}) \d{{1,2}}, \d{{4}}(?: at|,) {_CLOCK}, {_SENDER} ?:(?: |$)",
        )
    )
)
# A chat's own line between messages: a time, or a date (KakaoTalk's "2026년 12월 5일
# 토요일", "Saturday, December 5, 2026", in its export between dashes).
_WEEKDAY = "[월화수목금토일]요일"
_CHAT_LINE = re.compile(
    rf"{_CLOCK}|-* ?(?:\d{{4}}년 \d{{1,2}}월 \d{{1,2}}일(?: {_WEEKDAY})?"
    rf"|{_NUMERIC_DATE}(?: {_WEEKDAY}| (?:{_DAYS}))?"
    rf"|(?:{_DAYS}), (?:{_MONTHS}) \d{{1,2}}, \d{{4}}) ?-*"
)
_AMOUNT = r"\d[\d,]*"  # read loosely: "1000" and "1,0000" are read, then compared
_SIGNED = re.compile(rf"[+-]{_AMOUNT}|0")
_TOTAL_LINE = re.compile(rf"(.+) ({_SIGNED.pattern})")
_TRANSFER_LINE = re.compile(rf"(.+) → (.+) ({_AMOUNT})")
_ARROWS = ("→", "->", "=>", "⇒", "➡")
_RULE_LINE = re.compile(r"(?:규칙|Rules) (.+) · (?:지문|fingerprint) ([0-9A-Fa-f]+)")


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """A share text read back: the sheet of its compact line, and how many visible lines
    were checked against it."""

    sheet: ShareSheet
    checked_totals: int
    checked_transfers: int
    checked_rules: int


def read(text: str) -> Reading:
    """The sheet of the text's compact line, after checking it and every visible line
    against it (:func:`_checked`); ShareError if not."""
    text = _plain(unicodedata.normalize("NFC", text))
    found = list(START.finditer(text))
    if not found:
        fail(
            "share_line_missing",
            f"no compact line ({PREFIX}…) in the text; paste the whole share text, "
            "its last line included",
        )
    error: ShareError | None = None
    # The compact line ends the text; a title or a reply may quote one before it.
    for match in reversed(found[-TRIED_LINES:]):
        try:
            sheet, end = decode(text, match)
        except ShareError as refused:
            error = error or refused
            continue
        return _checked(sheet, _copies_left_out(text, sheet, match, end, found))
    assert error is not None
    raise error


def _copies_left_out(
    text: str, sheet: ShareSheet, match: re.Match[str], end: int, found: list[re.Match[str]]
) -> str:
    """The text with the compact line read and every copy of it blanked out (line breaks
    kept, so lines keep their numbers): a forwarded message or a reply may hold the same
    share twice, and identical copies agree. Another line that reads as a compact line
    and says something else is refused: one of the two was changed, or the text holds two
    tables. A start that does not read as a line stays, for the line check (at most
    TRIED_LINES others are read: a text full of "GS1:" stays cheap)."""
    outside = _blank(text, match.start(), end)
    after = 0  # a start inside a copy already left out is part of it
    tried = 0
    for other in found:
        if other.start() < after or match.start() <= other.start() < end:
            continue
        if tried == TRIED_LINES:
            break
        tried += 1
        try:
            copy, copy_end = decode(text, other)
        except ShareError:
            continue  # not a line: checked as any other line is
        if copy != sheet:
            number = len((text[: other.start()] + "x").splitlines())
            fail(
                "share_line_mismatch",
                f"line {number} holds another compact line ({_excerpt(text, other.start())}) "
                f"that disagrees with the last one: {_difference(copy, sheet)}; one of them "
                "was changed, or the text holds two tables' shares: paste one share text",
            )
        outside = _blank(outside, other.start(), copy_end)
        after = copy_end
    return outside


def _blank(text: str, start: int, end: int) -> str:
    """``text`` with ``text[start:end]`` as spaces, its line breaks kept."""
    return text[:start] + _NOT_BREAK.sub(" ", text[start:end]) + text[end:]


def _excerpt(text: str, start: int) -> str:
    return text[start : start + 20].split("\n")[0] + "…"


def _difference(copy: ShareSheet, sheet: ShareSheet) -> str:
    """What a quoted compact line says that the last one does not, in words."""
    for name, what in (
        ("title", "title"),
        ("date", "date"),
        ("preset", "rule set"),
        ("fingerprint", "rule set's fingerprint"),
        ("unit", "rounding unit"),
        ("players", "players"),
        ("totals", "totals"),
        ("transfers", "transfers"),
    ):
        if getattr(copy, name) != getattr(sheet, name):
            return f"its {what} differ" if what.endswith("s") else f"its {what} differs"
    return "they differ"  # pragma: no cover - two sheets that differ differ somewhere


def _checked(sheet: ShareSheet, outside: str) -> Reading:
    """Check the visible lines (outside the compact line) against ``sheet``: a line is
    either one that the sheet renders (in either language, as a chat leaves it:
    whitespace runs as one space, invisible characters left out), perhaps after a chat
    app's prefix (:func:`_unprefixed`), or says nothing about the table (a chat's own
    "see above", a time or date line, a sender's name alone); any other line with a
    number, an arrow or a player's name is refused, naming the line and why."""
    expected: dict[str, str] = {}
    for lang in Lang:
        for kind, line in shown_lines(sheet, lang):
            for _number, piece in _lines(line):  # a name may hold a line break
                expected.setdefault(_seen(piece), kind)
    shown = {pid: _seen(label) for pid, label in labels(sheet.players).items()}
    totals = {label: sheet.totals[pid] for pid, label in shown.items()}
    pays = {(shown[t.payer], shown[t.payee]): t.chips for t in sheet.transfers}
    counted: Counter[str] = Counter()
    for number, given in _lines(outside):
        line = given if given in expected else _unprefixed(given)
        found = expected.get(line)
        if found is not None:
            counted[found] += 1
        elif line and not _CHAT_LINE.fullmatch(line) and line.removesuffix(":") not in totals:
            telling = _telling(line, totals)
            if telling:
                _check_line(number, given, line, sheet, totals, pays)  # names a difference
                _near_miss(number, given, line, sheet, totals, pays)
                _refuse_line(
                    number,
                    given,
                    f"it is not a line of this table's share text and holds {telling}, so it "
                    "cannot be checked against the compact line (which renders the "
                    "totals, transfers, date and rule set): remove it, or share the table "
                    "again",
                )
    return Reading(
        sheet=sheet,
        checked_totals=counted["totals"],
        checked_transfers=counted["transfers"],
        checked_rules=counted["rules"],
    )


def _near_miss(
    number: int,
    given: str,
    line: str,
    sheet: ShareSheet,
    totals: Mapping[str, int],
    pays: Mapping[tuple[str, str], int],
) -> None:
    """ShareError saying what the compact line has instead, when a line that is none of
    the share text's starts as one of them does: the table's title (a changed date), or
    a player's name (a total or transfer written another way: ``->``, ``원``)."""
    title = _seen(sheet.title)
    if line.startswith(title + " · "):
        dates = " or ".join(dict.fromkeys(shown_date(sheet.date, lang) for lang in Lang))
        _mismatch(number, given, f"the compact line has {title} · {dates}")
    for label in sorted(totals, key=len, reverse=True):
        if line.startswith(label + " "):
            said = [f"{label} {signed(totals[label])}"]
            said += [f"{a} → {b} {chips:,}" for (a, b), chips in pays.items() if a == label]
            _mismatch(
                number,
                given,
                f"it starts with {label} but is none of the lines the compact line has "
                f"for {label} ({', '.join(said)}), as the share text writes them",
            )


def _unprefixed(line: str) -> str:
    """``line`` without the prefix a chat app gives a copied or exported message (its
    sender and time), if it has one."""
    prefix = _CHAT_PREFIX.match(line)
    return line if prefix is None else line[prefix.end() :].strip()


def _telling(line: str, names: Mapping[str, int]) -> str:
    """What a line holds that says something about a table, in words ("" if nothing):
    a number, an arrow or a player's name (as a word), once the start of another quoted
    compact line is left out."""
    started = START.search(line) is not None
    bare = START.sub(" ", line)
    padded = f" {bare} "
    named = [name for name in names if f" {name} " in padded]
    if started and any(char.isdigit() for char in bare):
        return (
            "the start of a compact line (GS1:) that does not read as one (cut, or its check fails)"
        )
    if any(char.isdigit() for char in bare):
        return "a number"
    if any(arrow in bare for arrow in _ARROWS):
        return "an arrow"
    return f"a player's name ({named[0]})" if named else ""


def _check_line(
    number: int,
    given: str,
    line: str,
    sheet: ShareSheet,
    totals: Mapping[str, int],
    pays: Mapping[tuple[str, str], int],
) -> str | None:
    """Which kind of line ``line`` (``given``, its chat prefix left out) is if it can be
    read (None: not a line we write), after checking it; ShareError naming the
    difference if it disagrees."""
    if (rule := _RULE_LINE.fullmatch(line)) is not None:
        preset, shown = rule.group(1), rule.group(2).lower()
        if preset != sheet.preset or not sheet.fingerprint.startswith(shown):
            _mismatch(
                number,
                given,
                f"the compact line says {sheet.preset} · {sheet.fingerprint[:SHOWN_FINGERPRINT]}",
            )
        return "rules"
    # Names may hold spaces, arrows or digits: a line agrees if any reading of it agrees.
    pays_read = (
        [
            (payer, payee, _value(line[len(payer) + len(payee) + 4 :]))
            for payer, payee in _pairs(line, set(totals))
        ]
        if _TRANSFER_LINE.fullmatch(line)
        else []
    )
    totals_read = (
        [
            (label, _value(line[len(label) + 1 :]))
            for label in totals
            if line.startswith(label + " ") and _SIGNED.fullmatch(line[len(label) + 1 :])
        ]
        if _TOTAL_LINE.fullmatch(line)
        else []
    )
    if any(pays.get((payer, payee)) == chips for payer, payee, chips in pays_read):
        return "transfers"
    if any(totals[label] == chips for label, chips in totals_read):
        return "totals"
    if pays_read:
        payer, payee, _chips = pays_read[0]
        should = pays.get((payer, payee))
        _mismatch(
            number,
            given,
            f"the compact line has {payer} → {payee} {should:,}"
            if should is not None
            else f"the compact line has no transfer from {payer} to {payee}",
        )
    if totals_read:
        label = totals_read[0][0]
        _mismatch(number, given, f"the compact line has {label} {signed(totals[label])}")
    if _TRANSFER_LINE.fullmatch(line) or _TOTAL_LINE.fullmatch(line):
        _mismatch(
            number, given, f"it names someone the compact line does not ({', '.join(totals)})"
        )
    return None


def _pairs(line: str, names: set[str]) -> Iterator[tuple[str, str]]:
    for payer in names:
        if line.startswith(payer + " → "):
            rest = line[len(payer) + 3 :]
            for payee in names:
                if rest.startswith(payee + " ") and re.fullmatch(_AMOUNT, rest[len(payee) + 1 :]):
                    yield payer, payee


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), 1):
        normal = _norm(line).replace("−", "-")  # a typographic minus reads as a minus
        if normal:
            yield number, normal


def _mismatch(number: int, line: str, what: str) -> NoReturn:
    _refuse_line(number, line, f"it disagrees with the compact line: {what}")


def _refuse_line(number: int, line: str, why: str) -> NoReturn:
    fail("share_line_mismatch", f"line {number}, {line!r}, is refused: {why}")


def _value(text: str) -> int:
    """An amount as read: ``+1,000``, ``1000`` or ``-1,0000`` (commas anywhere)."""
    return int(text.replace(",", ""))
