"""A table's settlement as chat text that the service reads back (SPEC §9, sharing).

:func:`render` writes a :class:`ShareSheet` as plain text for a chat (Korean or English):
the table, the date, each player's total, who sends whom how much, the rule set and its
fingerprint — short lines, thousands separators, nothing that needs a monospace font —
ending with one compact line (:func:`compact_line`) that carries the same numbers with a
checksum. :func:`read` finds that line anywhere in a pasted text and renders it again:
every visible line must be one of those (as a chat leaves it), or say nothing about a
table (no number, arrow or player's name). The same compact line may appear again (the
share pasted twice, a reply quoting it); another compact line that says something else
is refused.

The compact line, version 1 (``GS1``)::

    GS1:<title>.<date>.<preset>.<fingerprint>.<unit>.<players>.<transfers>.<check>

- ``title``, ``preset`` and each player's id and name are UTF-8 in Crockford base32
  (digits and capitals without I, L, O, U; read case-insensitively, O as 0, I and L as 1):
  any Unicode name survives, and nothing in the line is markup in a chat app;
- ``date`` is ``YYYYMMDD``; ``fingerprint`` the rule set's (hex); ``unit`` the rounding
  unit or empty;
- ``players``: ``ID[/NAME]:TOTAL`` separated by commas, in roster order (the total is a
  signed decimal);
- ``transfers``: ``<payer><payee><chips>`` separated by commas, payer and payee as the
  letter of their place in ``players`` (A is the first);
- ``check``: the first 40 bits of the SHA-256 of everything before it, in 8 base32 digits.

Whitespace anywhere inside the line is ignored and the 7 dots and the fixed-length check
say where it ends, so a chat app may wrap it across lines, add or trim spaces, or change
the line endings. The check detects typing and editing mistakes, not forgery: anyone can
compute it (a signed line would need a secret no other tool could check).
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NoReturn

from calculator.errors import GoStopError, Issue
from calculator.names import alike as _alike
from calculator.names import norm as _norm
from calculator.names import plain as _plain
from calculator.names import seen as _seen
from calculator.session import Transfer
from calculator.settlement import MAX_SAFE_CHIPS

VERSION = 1
PREFIX = f"GS{VERSION}:"
SECTIONS = 8  # title, date, preset, fingerprint, unit, players, transfers, check
CHECK_DIGITS = 8  # 40 bits
SHOWN_FINGERPRINT = 8  # hex digits of the fingerprint on the visible rule line
MAX_PLAYERS = 26  # a transfer names its players by one letter
MAX_LINE = 10_000  # characters of a compact line: 10 players of 40-character ids and
# 60-character names, all outside the BMP, take about 7,400
TRIED_LINES = 4  # compact lines tried, from the last: a text full of "GS1:" stays cheap
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_RFC4648 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_TO_CROCKFORD = str.maketrans(_RFC4648, _CROCKFORD)
_FROM_CROCKFORD = str.maketrans(_CROCKFORD + "OIL", _RFC4648 + "ABB")
_LINE_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.,:/-")
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
_START = re.compile(r"G\s*S\s*(\d{1,3})\s*:", re.IGNORECASE)
_AMOUNT = r"\d[\d,]*"  # read loosely: "1000" and "1,0000" are read, then compared
_SIGNED = re.compile(rf"[+-]{_AMOUNT}|0")
_TOTAL_LINE = re.compile(rf"(.+) ({_SIGNED.pattern})")
_TRANSFER_LINE = re.compile(rf"(.+) → (.+) ({_AMOUNT})")
_ARROWS = ("→", "->", "=>", "⇒", "➡")
_RULE_LINE = re.compile(r"(?:규칙|Rules) (.+) · (?:지문|fingerprint) ([0-9A-Fa-f]+)")
_PLAYER = re.compile(r"([0-9A-Z]*)(?:/([0-9A-Z]*))?:(-?\d{1,19})")
_TRANSFER = re.compile(r"([A-Z])([A-Z])(\d{1,19})")


class Lang(StrEnum):
    """The languages of the share text."""

    KO = "ko"
    EN = "en"


class ShareError(GoStopError):
    """A text whose compact line is missing, malformed, fails its check, or disagrees with
    the visible lines; ``issues[0].code`` says which."""

    title = "The share text cannot be read back"


@dataclass(frozen=True, slots=True, kw_only=True)
class ShareSheet:
    """What a share text says: the table's title and date (``YYYY-MM-DD``), its rule set,
    the rounding ``unit``, the players ``(id, name)`` in roster order, the settled totals
    and the transfers that settle them."""

    title: str
    date: str
    preset: str
    fingerprint: str
    unit: int | None
    players: tuple[tuple[str, str | None], ...]
    totals: Mapping[str, int]
    transfers: tuple[Transfer, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """A share text read back: the sheet of its compact line, and how many visible lines
    were checked against it."""

    sheet: ShareSheet
    checked_totals: int
    checked_transfers: int
    checked_rules: int


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
    lines = [line for _kind, line in _shown(sheet, lang)]
    return "\n".join([*lines, "", compact_line(sheet)]) + "\n"


def _shown(sheet: ShareSheet, lang: Lang) -> list[tuple[str, str]]:
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
        ("title", f"{sheet.title} · {_date(sheet.date, lang)}"),
        (
            "rules",
            words["rules"].format(
                preset=sheet.preset, fingerprint=sheet.fingerprint[:SHOWN_FINGERPRINT]
            ),
        ),
        ("blank", ""),
        ("header", totals),
        *(("totals", f"{shown[pid]} {_signed(sheet.totals[pid])}") for pid, _name in sheet.players),
        ("blank", ""),
        ("header", pays),
        *(
            ("transfers", f"{shown[t.payer]} → {shown[t.payee]} {t.chips:,}")
            for t in sheet.transfers
        ),
        *([] if sheet.transfers else [("header", words["nothing"])]),
    ]


def compact_line(sheet: ShareSheet) -> str:
    """The sheet in one checksummed line (the module docstring gives the format)."""
    if len(sheet.players) > MAX_PLAYERS:
        raise ValueError(f"a share line names at most {MAX_PLAYERS} players")
    place = {pid: chr(ord("A") + i) for i, (pid, _name) in enumerate(sheet.players)}
    players = ",".join(
        _b32(pid) + ("" if name is None else "/" + _b32(name)) + f":{sheet.totals[pid]}"
        for pid, name in sheet.players
    )
    transfers = ",".join(f"{place[t.payer]}{place[t.payee]}{t.chips}" for t in sheet.transfers)
    body = PREFIX + ".".join(
        (
            _b32(sheet.title),
            sheet.date.replace("-", ""),
            _b32(sheet.preset),
            sheet.fingerprint.upper(),
            "" if sheet.unit is None else str(sheet.unit),
            players,
            transfers,
        )
    )
    return f"{body}.{_check(body)}"


def read(text: str) -> Reading:
    """The sheet of the text's compact line, after checking it and every visible line
    against it (:func:`_checked`); ShareError if not."""
    text = _plain(unicodedata.normalize("NFC", text))
    found = list(_START.finditer(text))
    if not found:
        _fail(
            "share_line_missing",
            f"no compact line ({PREFIX}…) in the text; paste the whole share text, "
            "its last line included",
        )
    error: ShareError | None = None
    # The compact line ends the text; a title or a reply may quote one before it.
    for match in reversed(found[-TRIED_LINES:]):
        try:
            sheet, end = _decode(text, match)
        except ShareError as refused:
            error = error or refused
            continue
        return _checked(sheet, _copies_left_out(text, sheet, match, end, found))
    assert error is not None
    raise error


# --- reading -----------------------------------------------------------------------------


def _decode(text: str, match: re.Match[str]) -> tuple[ShareSheet, int]:
    """The sheet of the compact line starting at ``match``, and where the line ends."""
    if int(match.group(1)) != VERSION:
        _fail(
            "share_version_unsupported",
            f"the compact line is version {match.group(1)}; this service reads {PREFIX}",
        )
    payload, end = _gather(text, match.end())
    *sections, check = payload.upper().split(".")
    body = PREFIX + ".".join(sections)
    if check != _check(body):
        _fail(
            "share_checksum_mismatch",
            "the compact line's check does not match its content: the line was changed "
            "or cut; share the table again (GET /v1/tables/{id}/share)",
        )
    return _sheet(sections), end


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
            copy, copy_end = _decode(text, other)
        except ShareError:
            continue  # not a line: checked as any other line is
        if copy != sheet:
            number = len((text[: other.start()] + "x").splitlines())
            _fail(
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


def _gather(text: str, start: int) -> tuple[str, int]:
    """The compact line's characters from ``start`` with the whitespace left out, and the
    index after its last character: it ends after the 7th dot and 8 check digits."""
    kept: list[str] = []
    dots = digits = 0
    index = start
    while index < len(text) and digits < CHECK_DIGITS and len(kept) < MAX_LINE:
        char = text[index]
        index += 1
        if char.isspace():
            continue
        if char not in _LINE_CHARS or (dots == SECTIONS - 1 and not char.isalnum()):
            break
        kept.append(char)
        if dots == SECTIONS - 1:
            digits += 1
        elif char == ".":
            dots += 1
    if digits < CHECK_DIGITS:
        _fail(
            "share_line_malformed",
            f"the compact line ends early (after {dots} of {SECTIONS - 1} dots and "
            f"{digits} of {CHECK_DIGITS} check digits); paste the whole line",
        )
    return "".join(kept), index


def _sheet(sections: list[str]) -> ShareSheet:
    """The sheet of a compact line whose check matched (malformed parts still refused:
    a line another tool wrote may check and still be wrong)."""
    title, date, preset, fingerprint, unit, players_text, transfers_text = sections
    if not re.fullmatch(r"\d{8}", date):
        _fail("share_line_malformed", f"the date {date!r} is not YYYYMMDD")
    try:
        datetime.date(int(date[:4]), int(date[4:6]), int(date[6:]))
    except ValueError:
        _fail("share_line_malformed", f"the date {date!r} is no day of the calendar")
    if not re.fullmatch(r"[0-9A-F]{1,64}", fingerprint):
        _fail("share_line_malformed", f"the fingerprint {fingerprint!r} is not hexadecimal")
    if unit and not re.fullmatch(r"[1-9]\d{0,18}", unit):
        _fail("share_line_malformed", f"the rounding unit {unit!r} is not a whole number")
    if unit:
        _chips(unit, "the rounding unit")
    players: list[tuple[str, str | None]] = []
    totals: dict[str, int] = {}
    for i, item in enumerate(players_text.split(",") if players_text else []):
        found = _PLAYER.fullmatch(item)
        if found is None:
            _fail("share_line_malformed", f"player {i + 1} ({item!r}) is not ID[/NAME]:TOTAL")
        pid = _unb32(found.group(1), f"player {i + 1}'s id")
        name = None if found.group(2) is None else _unb32(found.group(2), f"{pid!r}'s name")
        if not pid or pid in totals:
            _fail("share_line_malformed", f"player {i + 1}'s id {pid!r} is empty or repeated")
        players.append((pid, name))
        totals[pid] = _chips(found.group(3), f"{pid!r}'s total")
    if not 2 <= len(players) <= MAX_PLAYERS:  # a table has two players at least
        _fail("share_line_malformed", f"the line names {len(players)} players")
    transfers: list[Transfer] = []
    for i, item in enumerate(transfers_text.split(",") if transfers_text else []):
        found = _TRANSFER.fullmatch(item)
        places = [ord(found.group(g)) - ord("A") for g in (1, 2)] if found else [-1, -1]
        if (
            found is None
            or not all(0 <= p < len(players) for p in places)
            or places[0] == places[1]
        ):
            _fail(
                "share_line_malformed", f"transfer {i + 1} ({item!r}) is not <payer><payee><chips>"
            )
        chips = _chips(found.group(3), f"transfer {i + 1}")
        pair = (players[places[0]][0], players[places[1]][0])
        # a settlement's transfers move chips, each pair one way (the fewest transfers)
        if chips == 0 or any({t.payer, t.payee} == set(pair) for t in transfers):
            _fail(
                "share_line_malformed",
                f"transfer {i + 1} ({item!r}) moves no chips, or pays back a pair paid "
                "already: no settlement makes it",
            )
        transfers.append(Transfer(*pair, chips))
    _check_settles(totals, transfers)
    return ShareSheet(
        title=_unb32(title, "the title"),
        date=f"{date[:4]}-{date[4:6]}-{date[6:]}",
        preset=_unb32(preset, "the rule set"),
        fingerprint=fingerprint.lower(),
        unit=int(unit) if unit else None,
        players=tuple(players),
        totals=totals,
        transfers=tuple(transfers),
    )


def _chips(text: str, what: str) -> int:
    """An amount of the line, within what the service counts in (a JSON number apps read
    exactly)."""
    chips = int(text)
    if abs(chips) > MAX_SAFE_CHIPS:
        _fail(
            "share_line_malformed",
            f"{what} ({chips:,}) is beyond {MAX_SAFE_CHIPS:,} chips, more than the service "
            "counts; share the table again",
        )
    return chips


def _check_settles(totals: Mapping[str, int], transfers: list[Transfer]) -> None:
    """The totals sum to zero and the transfers pay exactly them."""
    if sum(totals.values()) != 0:
        _fail("share_inconsistent", f"the totals sum to {sum(totals.values()):,}, not 0")
    left = dict(totals)
    for t in transfers:
        left[t.payer] += t.chips
        left[t.payee] -= t.chips
    unsettled = {pid: -chips for pid, chips in left.items() if chips}
    if unsettled:
        _fail("share_inconsistent", f"the transfers leave these amounts unsettled: {unsettled}")


def _checked(sheet: ShareSheet, outside: str) -> Reading:
    """Check the visible lines (outside the compact line) against ``sheet``: a line is
    either one that the sheet renders (in either language, as a chat leaves it:
    whitespace runs as one space, invisible characters left out), perhaps after a chat
    app's prefix (:func:`_unprefixed`), or says nothing about the table (a chat's own
    "see above", a time or date line, a sender's name alone); any other line with a
    number, an arrow or a player's name is refused, naming the line and why."""
    expected: dict[str, str] = {}
    for lang in Lang:
        for kind, line in _shown(sheet, lang):
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
        dates = " or ".join(dict.fromkeys(_date(sheet.date, lang) for lang in Lang))
        _mismatch(number, given, f"the compact line has {title} · {dates}")
    for label in sorted(totals, key=len, reverse=True):
        if line.startswith(label + " "):
            said = [f"{label} {_signed(totals[label])}"]
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
    started = _START.search(line) is not None
    bare = _START.sub(" ", line)
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
        _mismatch(number, given, f"the compact line has {label} {_signed(totals[label])}")
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


# --- helpers -----------------------------------------------------------------------------


def _fail(code: str, detail: str) -> NoReturn:
    raise ShareError([Issue(code, detail, ("text",))])


def _mismatch(number: int, line: str, what: str) -> NoReturn:
    _refuse_line(number, line, f"it disagrees with the compact line: {what}")


def _refuse_line(number: int, line: str, why: str) -> NoReturn:
    _fail("share_line_mismatch", f"line {number}, {line!r}, is refused: {why}")


def _signed(chips: int) -> str:
    return f"{chips:+,}" if chips else "0"


def _date(date: str, lang: Lang) -> str:
    if lang is Lang.KO:
        year, month, day = (int(part) for part in date.split("-"))
        return f"{year}년 {month}월 {day}일"
    return date  # ISO 8601: read the same way everywhere


def _value(text: str) -> int:
    """An amount as read: ``+1,000``, ``1000`` or ``-1,0000`` (commas anywhere)."""
    return int(text.replace(",", ""))


def _b32(text: str) -> str:
    encoded = base64.b32encode(text.encode()).decode().rstrip("=")
    return encoded.translate(_TO_CROCKFORD)


def _unb32(text: str, what: str) -> str:
    rfc = text.translate(_FROM_CROCKFORD)
    try:
        return base64.b32decode(rfc + "=" * (-len(rfc) % 8)).decode()
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
        _fail("share_line_malformed", f"{what} ({text!r}) is not base32 of UTF-8 text")


def _check(body: str) -> str:
    digest = hashlib.sha256(body.encode()).digest()
    return _b32_bytes(digest[:5])


def _b32_bytes(data: bytes) -> str:
    return base64.b32encode(data).decode().translate(_TO_CROCKFORD)
