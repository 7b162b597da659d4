"""The share text (calculator/ledger/share.py): it reads back to the settlement it was
made from — in both languages, with any names, after a chat app re-wraps it — and a text
whose compact line or visible lines were changed is refused, naming what differs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.api.fields import StrictString
from calculator.api.schemas import MAX_ID
from calculator.api.sharing_schemas import MAX_SHARE_TEXT
from calculator.api.table_schemas import MAX_NAME
from calculator.ledger.share import Lang, labels, render
from calculator.ledger.share_line import MAX_LINE, PREFIX, ShareError, ShareSheet, compact_line
from calculator.ledger.share_reading import read
from calculator.session import NetEntry, Session, Transfer, settle_session
from calculator.settlement import MAX_SAFE_CHIPS
from tests_support import examples

_VALID = StrictString(max_length=40)


def _valid(text: str) -> bool:
    return _VALID._passes(text)


# Unicode names without emoji (So), controls, formatting characters or line separators;
# Korean is drawn on its own so that most names have some.
_CHARS = st.characters(categories=("L", "M", "N", "P", "Sm", "Sc", "Sk", "Zs"))
_NAMES = st.one_of(
    st.text(
        alphabet=st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3), min_size=1, max_size=4
    ),
    st.text(alphabet=_CHARS, min_size=1, max_size=12),
).filter(_valid)


@st.composite
def sheets(draw: st.DrawFn) -> ShareSheet:
    """A table's settlement: random roster, names and totals, settled as tables are."""
    ids = draw(st.lists(_NAMES, min_size=2, max_size=10, unique=True))
    names = [draw(st.none() | _NAMES) for _ in ids]
    amounts = [draw(st.integers(min_value=-(10**12), max_value=10**12)) for _ in ids[1:]]
    totals = {ids[0]: -sum(amounts), **dict(zip(ids[1:], amounts, strict=True))}
    unit = draw(st.none() | st.sampled_from([10, 100, 1000, 5000]))
    settled = settle_session(
        Session(players=tuple(ids), hands=(NetEntry(net=totals),), unit=unit), roster=True
    )
    year, month, day = draw(
        st.tuples(st.integers(2000, 2099), st.integers(1, 12), st.integers(1, 28))
    )
    return ShareSheet(
        title=draw(_NAMES),
        date=f"{year:04d}-{month:02d}-{day:02d}",
        preset=draw(st.sampled_from(["standard", "wikipedia", "gamerules", "balance"])),
        fingerprint=draw(st.text(alphabet="0123456789abcdef", min_size=32, max_size=32)),
        unit=unit,
        players=tuple(zip(ids, names, strict=True)),
        totals=settled.totals,
        transfers=settled.transfers,
    )


def _rewrap(text: str, cuts: list[int], spaces: list[str], ending: str) -> str:
    """The text as a chat app may give it back: the compact line cut into pieces with
    whitespace between, lines indented or trailed by spaces, other line endings."""
    lines = text.splitlines()
    line = lines[-1]
    points = sorted({min(c, len(line)) for c in cuts})
    pieces = [line[a:b] for a, b in zip([0, *points], [*points, len(line)], strict=True)]
    joined = "".join(
        piece + (spaces[i % len(spaces)] if i < len(pieces) - 1 else "")
        for i, piece in enumerate(pieces)
    )
    body = [f"  {text}  " if i % 2 else text for i, text in enumerate(lines[:-1])]
    return ending.join([*body, joined]) + ending


@settings(max_examples=examples(150), deadline=None)
@given(sheet=sheets(), lang=st.sampled_from(list(Lang)), data=st.data())
def test_any_share_text_reads_back_to_its_settlement(
    sheet: ShareSheet, lang: Lang, data: st.DataObject
) -> None:
    text = render(sheet, lang=lang)
    reading = read(text)
    assert reading.sheet == sheet
    assert reading.checked_totals == len(sheet.players)
    assert reading.checked_transfers == len(sheet.transfers)
    assert reading.checked_rules == 1
    cuts = data.draw(st.lists(st.integers(min_value=1, max_value=400), max_size=6))
    spaces = data.draw(
        st.lists(st.sampled_from([" ", "\n", "\r\n", " \n ", "\t", "\u3000"]), min_size=1)
    )
    ending = data.draw(st.sampled_from(["\n", "\r\n", "\r"]))
    assert read(_rewrap(text, cuts, spaces, ending)).sheet == sheet
    chat = data.draw(st.sampled_from(sorted(_CHATS)))  # as a chat app copies or exports it
    assert read(_CHATS[chat](text)).sheet == sheet


@settings(max_examples=examples(100), deadline=None)
@given(sheet=sheets(), data=st.data())
def test_any_change_to_the_compact_line_is_refused(sheet: ShareSheet, data: st.DataObject) -> None:
    line = compact_line(sheet)
    at = data.draw(st.integers(min_value=len(PREFIX), max_value=len(line) - 1))
    replacement = data.draw(st.sampled_from("0123456789ABCDEFGHJKMNPQRSTVWXYZ.,:/-"))
    if line[at].upper() == replacement:
        return
    changed = line[:at] + replacement + line[at + 1 :]
    with pytest.raises(ShareError) as refused:
        read(changed)
    assert refused.value.issues[0].code in (
        "share_checksum_mismatch",
        "share_line_malformed",
        # the change made a "GS<n>:" of another version inside the line (an id or a
        # total can hold "GS" and digits), and that is what the reader saw first
        "share_version_unsupported",
    )


def _sample() -> ShareSheet:
    return ShareSheet(
        title="금요일 밤",
        date="2026-12-03",
        preset="standard",
        fingerprint="491ff119b3cb90f22f128d30555c6276",
        unit=1000,
        players=(("A", "민지"), ("B", "철수"), ("C", None), ("D", "영희")),
        totals={"A": 0, "B": 2000, "C": -1000, "D": -1000},
        transfers=(_t("C", "B", 1000), _t("D", "B", 1000)),
    )


def _t(payer: str, payee: str, chips: int) -> Transfer:
    return Transfer(payer, payee, chips)


def test_the_korean_text_reads_well_in_a_chat() -> None:
    text = render(_sample(), lang=Lang.KO)
    assert text.splitlines()[:12] == [
        "금요일 밤 · 2026년 12월 3일",
        "규칙 standard · 지문 491ff119",
        "",
        "합계 (1,000 단위로 반올림)",
        "민지 0",
        "철수 +2,000",
        "C -1,000",
        "영희 -1,000",
        "",
        "정산 (1,000 단위로 반올림)",
        "C → 철수 1,000",
        "영희 → 철수 1,000",
    ]
    assert text.splitlines()[-1].startswith("GS1:")
    assert max(len(line) for line in text.splitlines()[:-1]) <= 30  # short lines


def test_a_text_shared_before_the_totals_said_rounded_still_reads() -> None:
    """Until 2026-12-06 rounded totals were headed plainly "합계" / "Totals": a text shared
    then, still in a chat, reads back as it did."""
    for lang, heading, old in (
        (Lang.KO, "합계 (1,000 단위로 반올림)", "합계"),
        (Lang.EN, "Totals (rounded to 1,000)", "Totals"),
    ):
        text = render(_sample(), lang=lang)
        assert heading in text.splitlines()
        reading = read(text.replace(heading + "\n", old + "\n"))
        assert (reading.sheet, reading.checked_totals, reading.checked_transfers) == (
            _sample(),
            4,
            2,
        )


@pytest.mark.parametrize(
    ("edit", "code", "says"),
    [
        (("철수 +2,000", "철수 +3,000"), "share_line_mismatch", "철수 +2,000"),
        (
            ("영희 → 철수 1,000", "영희 → 민지 1,000"),
            "share_line_mismatch",
            "no transfer from 영희 to 민지",
        ),
        (("영희 → 철수 1,000", "영희 → 철수 2,000"), "share_line_mismatch", "영희 → 철수 1,000"),
        (("민지 0", "지민 +5"), "share_line_mismatch", "names someone"),
        (("지문 491ff119", "지문 491ff118"), "share_line_mismatch", "491ff119"),
        (("GS1:", "GS2:"), "share_version_unsupported", "version 2"),
        (("GS1:", "GS:"), "share_line_missing", "GS1:"),
    ],
)
def test_a_changed_text_is_refused_naming_what_differs(
    edit: tuple[str, str], code: str, says: str
) -> None:
    text = render(_sample(), lang=Lang.KO).replace(*edit)
    with pytest.raises(ShareError) as refused:
        read(text)
    issue = refused.value.issues[0]
    assert (issue.code, issue.location) == (code, ("text",))
    assert says in issue.detail


@pytest.mark.parametrize(
    ("lang", "edit"),
    [
        (Lang.KO, ("C -1,000", "C 1,000")),  # the minus taken away
        (Lang.KO, ("철수 +2,000", "철수 +20,000원")),
        (Lang.KO, ("영희 -1,000", "영희 -1.000")),
        (Lang.KO, ("영희 → 철수 1,000", "철수 -> 영희 1,000")),  # reversed, ASCII arrow
        (Lang.KO, ("영희 → 철수 1,000", "영희 → 철수 1,000원")),
        (Lang.KO, ("2026년 12월 3일", "2026년 12월 4일")),  # the date of the title line
        (Lang.EN, ("2026-12-03", "2026-12-04")),
        (Lang.EN, ("Rules standard", "Rules wikipedia")),
        (Lang.KO, ("합계", "합계 +9,000")),
        (Lang.KO, ("영희 → 철수 1,000", "영희 철수 1,000")),
        (Lang.KO, ("영희 → 철수 1,000", "영희 → 철수")),  # the amount taken away
    ],
)
def test_any_visible_line_the_compact_line_does_not_render_is_refused(
    lang: Lang, edit: tuple[str, str]
) -> None:
    """Lines the patterns of totals and transfers do not read were skipped: a changed
    sign, amount format, arrow or date passed."""
    text = render(_sample(), lang=lang)
    assert edit[0] in text
    with pytest.raises(ShareError) as refused:
        read(text.replace(edit[0], edit[1], 1))
    issue = refused.value.issues[0]
    assert (issue.code, issue.location) == ("share_line_mismatch", ("text",))
    assert repr(edit[1]) in issue.detail or edit[1] in issue.detail


def test_chat_around_the_text_and_either_language_are_fine() -> None:
    korean, english = (render(_sample(), lang=lang) for lang in Lang)
    chat = f"민지: 오늘 정산이요\n{korean}\n철수: ㅇㅋ 고마워요!\nsee above"
    reading = read(chat)
    assert (reading.sheet, reading.checked_totals, reading.checked_transfers) == (_sample(), 4, 2)
    mixed = english.splitlines()[0] + "\n" + korean  # a title line in the other language
    assert read(mixed).sheet == _sample()


@pytest.mark.parametrize("where", ["total", "transfer", "unit"])
def test_amounts_beyond_what_the_service_counts_are_refused(where: str) -> None:
    """orjson answers 64-bit integers only: a 19-digit total was a 500."""
    huge = 10**18
    sheet = _sample()
    changed = {
        "total": {
            "totals": {"A": huge, "B": -huge, "C": 0, "D": 0},
            "transfers": (_t("B", "A", huge),),
        },
        "transfer": {
            "totals": {"A": 2**53, "B": -(2**53), "C": 0, "D": 0},
            "transfers": (_t("B", "A", 2**53),),
        },
        "unit": {"unit": huge},
    }[where]
    with pytest.raises(ShareError) as refused:
        read(compact_line(ShareSheet(**{**_fields(sheet), **changed})))
    assert refused.value.issues[0].code == "share_line_malformed"
    assert "9,007,199,254,740,991" in refused.value.issues[0].detail
    limit = ShareSheet(
        **{
            **_fields(sheet),
            "totals": {"A": MAX_SAFE_CHIPS, "B": -MAX_SAFE_CHIPS, "C": 0, "D": 0},
            "transfers": (_t("B", "A", MAX_SAFE_CHIPS),),
        }
    )
    assert read(render(limit, lang=Lang.EN)).sheet == limit


def maximal_sheet() -> ShareSheet:
    """The longest share text a table can make: 10 players, ids and names as long as the
    API takes, all outside the BMP (4 bytes of UTF-8, 12 bytes JSON-escaped), the same
    name for all (so each gets its place), 9 transfers and totals of 16 digits."""
    wide = "\U0002070e"  # 𠜎
    ids = [wide * (MAX_ID - 1) + chr(0x20000 + i) for i in range(10)]
    # a chain of transfers alternating the largest amount and 1: every total ±(2^53 - 2)
    chain = [MAX_SAFE_CHIPS if i % 2 == 0 else 1 for i in range(9)]
    paid = [0, *chain, 0]
    totals = {pid: paid[i] - paid[i + 1] for i, pid in enumerate(ids)}
    return ShareSheet(
        title=wide * MAX_NAME,
        date="2026-12-03",
        preset="p" * 64,
        fingerprint="f" * 64,
        unit=10**9,
        players=tuple((pid, wide * MAX_NAME) for pid in ids),
        totals=totals,
        transfers=tuple(_t(ids[i], ids[i + 1], chips) for i, chips in enumerate(chain)),
    )


@pytest.mark.parametrize("lang", list(Lang))
def test_the_longest_share_text_fits_what_parse_takes(lang: Lang) -> None:
    """10 players of 60-character Korean names made 5,390 characters, over the 5,000 that
    parse took; the worst case (names outside the BMP) makes about 9,800."""
    sheet = maximal_sheet()
    assert all(_valid(pid) for pid, _name in sheet.players)
    text = render(sheet, lang=lang)
    assert len(text) <= MAX_SHARE_TEXT
    assert len(compact_line(sheet)) <= MAX_LINE
    # wrapped by a chat every 30 characters, it still fits
    assert len(_rewrap(text, list(range(30, 8000, 30)), ["\n"], "\r\n")) <= MAX_SHARE_TEXT
    assert read(text).sheet == sheet


def test_a_cut_line_and_a_line_that_does_not_settle_are_refused() -> None:
    line = compact_line(_sample())
    with pytest.raises(ShareError) as cut:
        read(line[:-4])
    assert cut.value.issues[0].code == "share_line_malformed"
    # a line with a valid check whose transfers do not pay the totals (another tool's)
    wrong = ShareSheet(**{**_fields(_sample()), "transfers": (_t("C", "B", 1000),)})
    with pytest.raises(ShareError) as inconsistent:
        read(compact_line(wrong))
    assert inconsistent.value.issues[0].code == "share_inconsistent"


def _fields(sheet: ShareSheet) -> dict[str, Any]:
    return {name: getattr(sheet, name) for name in ShareSheet.__slots__}


def test_the_compact_line_alone_reads_and_lower_case_is_fine() -> None:
    line = compact_line(_sample())
    assert re.fullmatch(r"GS1:[0-9A-Z.,:/-]+", line)
    assert read(line).sheet == _sample()
    assert read("GS1:" + line[4:].lower()).sheet == _sample()
    # quoted twice (a title quoting a line, a reply): the last valid line is read
    assert read(f"see GS1:nonsense\n{line}").sheet == _sample()


def test_names_two_players_share_are_told_apart() -> None:
    assert labels((("m1", "민지"), ("m2", "민지"), ("c", None), ("d", "  "))) == {
        "m1": "민지 #1",
        "m2": "민지 #2",
        "c": "c",
        "d": "d",
    }
    assert len(set(labels((("a", "x"), ("b", "x"), ("c", "x #1"))).values())) == 3
    # a number never makes another player's own name: the player named "Kim #2" is the
    # only "Kim #2" of the text
    assert labels((("A", "Kim #2"), ("B", "Kim"), ("C", "Kim"))) == {
        "A": "Kim #2",
        "B": "Kim #3",
        "C": "Kim #4",
    }
    assert labels((("a", "x"), ("b", "x"), ("c", "x #1"))) == {
        "a": "x #2",
        "b": "x #3",
        "c": "x #1",
    }


def test_a_text_full_of_line_starts_is_refused_after_a_few_tries() -> None:
    """Each start is read up to the line's bounded length, and only the last few are
    tried: 5,000 starts cost what 4 do."""
    with pytest.raises(ShareError) as refused:
        read("GS1:" * 5_000)
    assert refused.value.issues[0].code == "share_line_malformed"
    with pytest.raises(ShareError) as long:
        read("GS1:" + "A" * 50_000)
    assert long.value.issues[0].code == "share_line_malformed"


def test_the_same_share_twice_reads_and_a_quoted_line_that_differs_is_refused() -> None:
    """A forwarded message or a reply holds the share twice: the first copy's compact line
    was read as a visible line and refused (its digits), though it is the same line."""
    korean, english = (render(_sample(), lang=lang) for lang in Lang)
    line = compact_line(_sample())
    for text in (
        korean + "\n" + korean,
        f"어제 보낸 거:\n{line}\n\n{english}",
        f"{line[:30]}\n  {line[30:]}\n{korean}",  # a quoted copy, wrapped
        f"{korean}\n{line.lower()}",  # the line again, as a reply quotes it
    ):
        assert read(text).sheet == _sample()
    # both copies' visible lines are checked: a change in the first is still refused
    with pytest.raises(ShareError) as changed:
        read(korean.replace("철수 +2,000", "철수 +3,000", 1) + korean)
    assert "line 6, '철수 +3,000'" in changed.value.issues[0].detail
    # another night's line quoted above: the two lines disagree (hand-made: D's -1,000
    # moved to C, who then pays 2,000)
    other = ShareSheet(
        **{
            **_fields(_sample()),
            "totals": {"A": 0, "B": 2000, "C": -2000, "D": 0},
            "transfers": (_t("C", "B", 2000),),
        }
    )
    with pytest.raises(ShareError) as two:
        read(f"어제 정산:\n{compact_line(other)}\n\n오늘 정산:\n{korean}")
    issue = two.value.issues[0]
    assert issue.code == "share_line_mismatch"
    assert "line 2 holds another compact line" in issue.detail
    assert "its totals differ" in issue.detail


_KAKAO_PC = "[민지] [오후 9:15] "
_CHATS = {
    # KakaoTalk PC, several messages copied: each line of the share with the prefix
    "kakao_pc": lambda text: "\n".join(_KAKAO_PC + line for line in text.splitlines()),
    "kakao_pc_first": lambda text: _KAKAO_PC + text,
    "kakao_export": lambda text: "2026. 12. 5. 오후 9:15, 민지 : " + text,
    "kakao_export_en": lambda text: "December 5, 2026 at 9:15 PM, Minji : " + text,
    "whatsapp_ios": lambda text: "[05/12/2026, 21:15:03] 민지: " + text,
    "whatsapp_android": lambda text: "12/5/26, 9:15\u202fPM - 민지: " + text,
    "time_and_date_lines": lambda text: (
        "--------------- 2026년 12월 5일 토요일 ---------------\n"
        "Saturday, December 5, 2026\n민지\n오후 9:15\n" + text + "오후 9:16\n21:16\n"
    ),
    "bom": lambda text: "\ufeff" + text,
    "zero_width_in_line": lambda text: text.replace("GS1:", "GS1:\u200b").replace(".", ".\u2060"),
    "soft_hyphen_in_name": lambda text: text.replace("철수", "철\u00adsu".replace("su", "수")),
}


@pytest.mark.parametrize("chat", list(_CHATS))
def test_what_chat_apps_add_around_a_share_text_is_ignored(chat: str) -> None:
    """Each was refused as a line that "disagrees with the compact line": the sender and
    time before a copied or exported message, a chat's time and date lines, a sender's
    name alone, a BOM, zero-width characters inside the compact line."""
    text = _CHATS[chat](render(_sample(), lang=Lang.KO))
    reading = read(text)
    assert (reading.sheet, reading.checked_totals, reading.checked_transfers) == (_sample(), 4, 2)


@pytest.mark.parametrize("chat", ["kakao_pc", "whatsapp_ios", "time_and_date_lines", "bom"])
@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (("철수 +2,000", "철수 +3,000"), "the compact line has 철수 +2,000"),
        (("영희 → 철수 1,000", "영희 → 철수 2,000"), "the compact line has 영희 → 철수 1,000"),
        (
            ("영희 → 철수 1,000", "영희 → 민지 1,000"),
            "the compact line has no transfer from 영희 to 민지",
        ),
        (
            ("C -1,000", "C -1,000원"),
            "it starts with C but is none of the lines the compact line has for C (C -1,000",
        ),
        (
            ("2026년 12월 3일", "2026년 12월 4일"),
            "the compact line has 금요일 밤 · 2026년 12월 3일",
        ),
    ],
)
def test_a_changed_number_is_refused_whatever_the_chat_added(
    chat: str, edit: tuple[str, str], says: str
) -> None:
    """The chat's prefix is left out, and what follows is checked as any line is."""
    text = _CHATS[chat](render(_sample(), lang=Lang.KO).replace(*edit))
    with pytest.raises(ShareError) as refused:
        read(text)
    issue = refused.value.issues[0]
    assert issue.code == "share_line_mismatch"
    assert f"{edit[1]}', is refused: it disagrees with the compact line: {says}" in issue.detail


def test_a_line_that_is_no_line_of_the_text_is_refused_saying_why() -> None:
    """An unrecognised line was said to "disagree with the compact line"; it is refused
    for what it holds (a number, an arrow or a player's name), and a chat line that holds
    none is ignored."""
    text = render(_sample(), lang=Lang.KO)
    for extra, holds in (
        ("총 4판 했어요", "a number"),
        ("보낼 사람 → 받을 사람", "an arrow"),
        ("다음엔 영희 차례", "a player's name (영희)"),
    ):
        with pytest.raises(ShareError) as refused:
            read(f"{extra}\n{text}")
        detail = refused.value.issues[0].detail
        assert detail.startswith(f"line 1, {extra!r}, is refused: it is not a line of this")
        assert f"holds {holds}, so it cannot be checked" in detail
        assert "disagrees" not in detail
    assert read(f"오늘 재밌었다 ㅋㅋ\n{text}\nsee above").sheet == _sample()
    # a chat prefix whose "sender" holds a number or an arrow is no prefix: it is checked
    for sender in ("철수 +3,000", "영희 → 철수"):
        with pytest.raises(ShareError):
            read(f"[{sender}] [오후 9:15] {text}")


def test_names_compare_without_their_variation_selectors() -> None:
    """A chat app that drops an emoji's variation selector (❤️ → ❤) changed a name; two
    names that differ only so are told apart by their place."""
    sheet = ShareSheet(
        **{
            **_fields(_sample()),
            "players": (("A", "❤️ 민지"), ("B", "철수"), ("C", None), ("D", "영희")),
        }
    )
    text = render(sheet, lang=Lang.KO)
    assert "❤️ 민지 0" in text
    reading = read(text.replace("\ufe0f", ""))
    assert (reading.sheet, reading.checked_totals) == (sheet, 4)
    assert labels((("a", "❤️ x"), ("b", "❤ x"))) == {"a": "❤️ x #1", "b": "❤ x #2"}
    # two emoji with or without a joiner between them look alike in some chats: numbered,
    # and the text still reads back
    joined = labels((("a", "💰💰"), ("b", "💰\u200d💰")))
    assert joined == {"a": "💰💰 #1", "b": "💰\u200d💰 #2"}
    pair = ShareSheet(
        **{**_fields(sheet), "players": (("A", "💰💰"), ("B", "💰\u200d💰"), *sheet.players[2:])}
    )
    assert read(render(pair, lang=Lang.KO)).sheet == pair
    # a name of variation selectors alone shows nothing: the id is shown, and it reads
    odd = ShareSheet(**{**_fields(sheet), "players": (("A", "\ufe0f"), *sheet.players[1:])})
    assert labels(odd.players)["A"] == "A"
    assert read(render(odd, lang=Lang.EN)).sheet == odd


@pytest.mark.parametrize(
    ("changed", "said"),
    [
        ({"date": "2026-13-99"}, "no day of the calendar"),
        ({"date": "0000-00-00"}, "no day of the calendar"),
        (
            {"players": (("A", None),), "totals": {"A": 0}, "transfers": ()},
            "the line names 1 players",
        ),
        ({"transfers": (_t("C", "B", 1000), _t("D", "B", 1000), _t("A", "B", 0))}, "no chips"),
        (
            {
                "totals": {"A": 0, "B": 1000, "C": 0, "D": -1000},
                "transfers": (_t("D", "B", 1000), _t("B", "C", 5), _t("C", "B", 5)),
            },
            "pays back a pair paid already",
        ),
    ],
)
def test_a_line_no_table_could_share_is_refused_though_its_check_matches(
    changed: dict[str, Any], said: str
) -> None:
    """The check catches typos, not a line another tool made (an integrator's probe: a
    13th month, a zero transfer, a pair paid both ways, one player, each read with a 200):
    what no table's share makes is refused, naming the part."""
    with pytest.raises(ShareError) as refused:
        read(compact_line(ShareSheet(**{**_fields(_sample()), **changed})))
    assert refused.value.issues[0].code == "share_line_malformed"
    assert said in refused.value.issues[0].detail
