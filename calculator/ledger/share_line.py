"""The compact line of a share text (SPEC §9, sharing): :func:`compact_line` writes a
:class:`ShareSheet` as one checksummed line and :func:`decode` reads one back, refusing
(:class:`ShareError`) a line that is cut, fails its check or is malformed. Siblings:
:mod:`calculator.ledger.share` writes the whole share text around it,
:mod:`calculator.ledger.share_reading` finds it in a pasted text and checks the visible
lines against it.

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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NoReturn

from calculator.errors import GoStopError, Issue
from calculator.session import Transfer
from calculator.settlement import MAX_SAFE_CHIPS

VERSION = 1
PREFIX = f"GS{VERSION}:"
SECTIONS = 8  # title, date, preset, fingerprint, unit, players, transfers, check
CHECK_DIGITS = 8  # 40 bits
MAX_PLAYERS = 26  # a transfer names its players by one letter
MAX_LINE = 10_000  # characters of a compact line: 10 players of 40-character ids and
# 60-character names, all outside the BMP, take about 7,400
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_RFC4648 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_TO_CROCKFORD = str.maketrans(_RFC4648, _CROCKFORD)
_FROM_CROCKFORD = str.maketrans(_CROCKFORD + "OIL", _RFC4648 + "ABB")
_LINE_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.,:/-")
START = re.compile(r"G\s*S\s*(\d{1,3})\s*:", re.IGNORECASE)
"""Where a compact line starts (any version, in any case, spaced or not): what
:func:`decode` is given, its version in group 1."""
_PLAYER = re.compile(r"([0-9A-Z]*)(?:/([0-9A-Z]*))?:(-?\d{1,19})")
_TRANSFER = re.compile(r"([A-Z])([A-Z])(\d{1,19})")


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


def decode(text: str, match: re.Match[str]) -> tuple[ShareSheet, int]:
    """The sheet of the compact line starting at ``match``, and where the line ends."""
    if int(match.group(1)) != VERSION:
        fail(
            "share_version_unsupported",
            f"the compact line is version {match.group(1)}; this service reads {PREFIX}",
        )
    payload, end = _gather(text, match.end())
    *sections, check = payload.upper().split(".")
    body = PREFIX + ".".join(sections)
    if check != _check(body):
        fail(
            "share_checksum_mismatch",
            "the compact line's check does not match its content: the line was changed "
            "or cut; share the table again (GET /v1/tables/{id}/share)",
        )
    return _sheet(sections), end


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
        fail(
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
        fail("share_line_malformed", f"the date {date!r} is not YYYYMMDD")
    try:
        datetime.date(int(date[:4]), int(date[4:6]), int(date[6:]))
    except ValueError:
        fail("share_line_malformed", f"the date {date!r} is no day of the calendar")
    if not re.fullmatch(r"[0-9A-F]{1,64}", fingerprint):
        fail("share_line_malformed", f"the fingerprint {fingerprint!r} is not hexadecimal")
    if unit and not re.fullmatch(r"[1-9]\d{0,18}", unit):
        fail("share_line_malformed", f"the rounding unit {unit!r} is not a whole number")
    if unit:
        _chips(unit, "the rounding unit")
    players: list[tuple[str, str | None]] = []
    totals: dict[str, int] = {}
    for i, item in enumerate(players_text.split(",") if players_text else []):
        found = _PLAYER.fullmatch(item)
        if found is None:
            fail("share_line_malformed", f"player {i + 1} ({item!r}) is not ID[/NAME]:TOTAL")
        pid = _unb32(found.group(1), f"player {i + 1}'s id")
        name = None if found.group(2) is None else _unb32(found.group(2), f"{pid!r}'s name")
        if not pid or pid in totals:
            fail("share_line_malformed", f"player {i + 1}'s id {pid!r} is empty or repeated")
        players.append((pid, name))
        totals[pid] = _chips(found.group(3), f"{pid!r}'s total")
    if not 2 <= len(players) <= MAX_PLAYERS:  # a table has two players at least
        fail("share_line_malformed", f"the line names {len(players)} players")
    transfers: list[Transfer] = []
    for i, item in enumerate(transfers_text.split(",") if transfers_text else []):
        found = _TRANSFER.fullmatch(item)
        places = [ord(found.group(g)) - ord("A") for g in (1, 2)] if found else [-1, -1]
        if (
            found is None
            or not all(0 <= p < len(players) for p in places)
            or places[0] == places[1]
        ):
            fail(
                "share_line_malformed", f"transfer {i + 1} ({item!r}) is not <payer><payee><chips>"
            )
        chips = _chips(found.group(3), f"transfer {i + 1}")
        pair = (players[places[0]][0], players[places[1]][0])
        # a settlement's transfers move chips, each pair one way (the fewest transfers)
        if chips == 0 or any({t.payer, t.payee} == set(pair) for t in transfers):
            fail(
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
        fail(
            "share_line_malformed",
            f"{what} ({chips:,}) is beyond {MAX_SAFE_CHIPS:,} chips, more than the service "
            "counts; share the table again",
        )
    return chips


def _check_settles(totals: Mapping[str, int], transfers: list[Transfer]) -> None:
    """The totals sum to zero and the transfers pay exactly them."""
    if sum(totals.values()) != 0:
        fail("share_inconsistent", f"the totals sum to {sum(totals.values()):,}, not 0")
    left = dict(totals)
    for t in transfers:
        left[t.payer] += t.chips
        left[t.payee] -= t.chips
    unsettled = {pid: -chips for pid, chips in left.items() if chips}
    if unsettled:
        fail("share_inconsistent", f"the transfers leave these amounts unsettled: {unsettled}")


def fail(code: str, detail: str) -> NoReturn:
    """Raise :class:`ShareError` with ``code`` and ``detail``, located at the request's
    ``text``."""
    raise ShareError([Issue(code, detail, ("text",))])


def _b32(text: str) -> str:
    encoded = base64.b32encode(text.encode()).decode().rstrip("=")
    return encoded.translate(_TO_CROCKFORD)


def _unb32(text: str, what: str) -> str:
    rfc = text.translate(_FROM_CROCKFORD)
    try:
        return base64.b32decode(rfc + "=" * (-len(rfc) % 8)).decode()
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
        fail("share_line_malformed", f"{what} ({text!r}) is not base32 of UTF-8 text")


def _check(body: str) -> str:
    digest = hashlib.sha256(body.encode()).digest()
    return _b32_bytes(digest[:5])


def _b32_bytes(data: bytes) -> str:
    return base64.b32encode(data).decode().translate(_TO_CROCKFORD)
