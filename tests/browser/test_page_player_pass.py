"""What a player's pass in Korean at 360 px found at a physical table: the history said
nothing of why a hand changed, long English names were cut short in the player bar,
counts were tapped one by one, the steppers' names left out the player, and "판 끝내기"
read as "end this hand" where it closes the whole night. Each test fails on the page
before its fix."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, Response, expect

from bench.server import Server
from tests.browser.test_page import PHONE, api, assert_tap_targets, create_table, fresh
from tests.browser.test_page_fixes import (
    BRIGHTS,
    another_phone_writes,
    assert_fits,
    give,
    korean,
    table_of,
)
from tests.browser.test_page_history import stop_by_a


def test_the_history_says_why_a_hand_was_corrected_or_voided(
    live_server: Server, page: Page, watch: Any, axe: Any
) -> None:
    """Each corrected or voided hand says the reason of the change in effect (undo and
    redo read as the ledger reads them) and who made it (here the table's own scorer
    token: its owner), in both languages, the reason drawn as text; another phone's void
    is said too, once the poll reads it."""
    create_table(page, watch)
    table = page.locator("#view-table")
    stop_by_a(page, 1)
    stop_by_a(page, 2)
    table.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    table.locator(".correcting").get_by_label("Reason").fill("typo")
    table.get_by_role("button", name="Nagari").click()
    first = table.locator('[data-hand="1"] .hand-reason')
    expect(first).to_have_text("Corrected: typo · by the table's owner")
    # the scorer's words, markup and all, are text
    table.locator('[data-hand="2"]').get_by_role("button", name="Void").click()
    table.locator('[data-asking="void-2"]').fill("<b>entered</b> twice")
    table.get_by_role("button", name="Void it").click()
    second = table.locator('[data-hand="2"] .hand-reason')
    expect(second).to_have_text("Voided: <b>entered</b> twice · by the table's owner")
    expect(table.locator('[data-hand="2"] b')).to_have_count(0)
    axe(page, "history with reasons")
    # the void undone: hand 2 counts again and says no reason; redone: it does again
    table.get_by_role("button", name="Undo").click()
    expect(table.locator('[data-hand="2"]')).not_to_have_class("voided")
    expect(second).to_have_count(0)
    expect(first).to_have_text("Corrected: typo · by the table's owner")
    table.get_by_role("button", name="Redo").click()
    expect(second).to_have_text("Voided: <b>entered</b> twice · by the table's owner")
    # another phone voids hand 1: the poll brings its reason (the void in effect now)
    assert another_phone_writes(live_server, page, "/hands/1/void", {"reason": "두 번 입력"}) == 200
    expect(first).to_have_text("Voided: 두 번 입력 · by the table's owner")
    page.get_by_role("button", name="한국어").click()
    expect(first).to_have_text("무효: 두 번 입력 · 이 테이블 주인")
    expect(second).to_have_text("무효: <b>entered</b> twice · 이 테이블 주인")


def test_the_history_names_the_phone_that_corrected_a_hand(
    live_server: Server, browser: Browser, watch: Any
) -> None:
    """A correction made by a second phone (its scorer link named for it) says, on the
    first phone, which phone made it, in both languages, the name drawn as text; a change
    made with the table's own scorer token is said to be its owner's."""
    first_context = browser.new_context(base_url=live_server.base, **PHONE)
    second_context = browser.new_context(base_url=live_server.base, **PHONE)
    try:
        first = create_table(first_context.new_page(), watch)
        stop_by_a(first, 1)
        stop_by_a(first, 2)
        maker = first.locator(".scorer-link")
        maker.get_by_label("Phone's name").fill("<b>민수</b> 폰")
        maker.get_by_role("button", name="Make a scorer link").click()
        link = first.locator('[data-link="scorer"]').input_value()

        second = watch(second_context.new_page())
        second.goto(link)
        view = second.locator("#view-table")
        view.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
        view.locator(".correcting").get_by_label("Reason").fill("오타")
        view.get_by_role("button", name="Nagari").click()
        expect(view.locator('[data-hand="1"] .hand-reason')).to_have_text(
            "Corrected: 오타 · by <b>민수</b> 폰"
        )
        # the first phone hears of it at its poll, and voids hand 2 itself
        table = first.locator("#view-table")
        corrected = table.locator('[data-hand="1"] .hand-reason')
        expect(corrected).to_have_text("Corrected: 오타 · by <b>민수</b> 폰")
        expect(table.locator('[data-hand="1"] b')).to_have_count(0)
        table.locator('[data-hand="2"]').get_by_role("button", name="Void").click()
        table.locator('[data-asking="void-2"]').fill("두 번 입력")
        table.get_by_role("button", name="Void it").click()
        voided = table.locator('[data-hand="2"] .hand-reason')
        expect(voided).to_have_text("Voided: 두 번 입력 · by the table's owner")
        first.get_by_role("button", name="한국어").click()
        expect(corrected).to_have_text("정정: 오타 · <b>민수</b> 폰")
        expect(voided).to_have_text("무효: 두 번 입력 · 이 테이블 주인")
    finally:
        first_context.close()
        second_context.close()


def test_the_history_reads_the_events_only_when_the_table_changed(
    live_server: Server, page: Page, watch: Any
) -> None:
    """A poll that finds the table unchanged (304) reads no events; a change is read
    once, from the last event the phone holds (?after=N), not the whole log again."""
    create_table(page, watch)
    stop_by_a(page, 1)
    entry = table_of(page)
    table_path = f"/v1/tables/{entry['id']}"
    read: list[str] = []
    page.on("request", lambda r: read.append(r.url) if "/events" in r.url else None)

    def unchanged_poll(response: Response) -> bool:
        return response.url.endswith(table_path) and response.status == 304

    for _ in range(2):
        with page.expect_response(unchanged_poll):
            pass
    assert read == []
    _status, before = api(live_server, "GET", table_path, token=entry["token"])
    voided = another_phone_writes(live_server, page, "/hands/1/void", {"reason": "wrong table"})
    assert voided == 200
    expect(page.locator('[data-hand="1"] .hand-reason')).to_have_text(
        "Voided: wrong table · by the table's owner"
    )
    assert [url.split(table_path)[1] for url in read] == [f"/events?after={before['version']}"]


NAMES = ["Christopher", "Bartholomew", "Christabelle"]
"""English names of 11 and 12 letters, wide letters among them."""


def test_english_names_of_twelve_letters_are_read_whole_in_the_player_bar(
    page: Page, watch: Any, axe: Any
) -> None:
    """At 360 px three names of up to 12 letters are each read whole in the player bar
    ("Christopher" was "Christ…"): drawn smaller, or on two lines, never cut; the bar
    stays short, every player a tap target of 44 px, and nothing scrolls sideways."""
    watch(page)
    page.goto("/")
    page.evaluate(
        "(names) => { localStorage.clear();"
        " localStorage.setItem('gostop.roster', JSON.stringify(names)); }",
        NAMES,
    )
    page.reload()
    bar = page.locator("#view-hand .player-bar")
    expect(bar.locator(".player")).to_have_count(3)
    page.wait_for_function(  # laid out with the page's styles (as the bar test waits)
        "document.querySelector('#view-hand .player-bar').getBoundingClientRect().height < 96"
    )
    cut = bar.locator(".player-name").evaluate_all(
        "names => names.filter((e) => e.scrollWidth > e.clientWidth + 0.5"
        " || e.scrollHeight > e.clientHeight + 0.5).map((e) => e.textContent)"
    )
    assert cut == [], f"cut short: {cut}"
    assert bar.bounding_box()["height"] < 96
    assert_tap_targets(page)
    assert_fits(page, "long English names in the player bar")
    axe(page, "long English names")


def test_a_count_is_typed_and_goes_through_the_steppers_limits(
    live_server: Server, page: Page, watch: Any
) -> None:
    """Seventeen junk is typed (a numeric field beside − and +), not tapped 17 times; a
    typed number past the limit is the limit, as a tap would leave it, and the stepper
    goes on from the typed value. The hand scored is the API's for the typed counts."""
    fresh(page, watch)
    hand = page.locator("#view-hand")
    hand.get_by_role("button", name="Counts").click()
    junk = hand.get_by_role("spinbutton", name=re.compile(r"^Junk value.* for A$"))
    expect(junk).to_have_attribute("inputmode", "numeric")
    expect(junk).to_have_attribute("min", "0")
    expect(junk).to_have_attribute("max", "60")
    junk.fill("17")
    brights = hand.get_by_role("spinbutton", name="Brights for A")
    brights.fill("9")  # past the deck's five
    expect(brights).to_have_value("5")
    more = hand.get_by_role("button", name="one Brights more for A")
    expect(more).to_have_attribute("aria-disabled", "true")
    hand.get_by_role("button", name="one Brights less for A").click()
    expect(brights).to_have_value("4")
    hand.get_by_role("button", name=re.compile(r"^one Junk value.* more for A$")).click()
    expect(junk).to_have_value("18")
    expect(hand.locator('[data-preview-player="A"] .preview-points')).to_have_text(
        f"{answer_points(live_server, brights=4, junk=18)} pt"
    )
    assert_tap_targets(page)


def answer_points(server: Server, *, brights: int, junk: int) -> int:
    """A's points in the API's answer for A's counts (B and C took nothing)."""
    body = {
        "ruleset": "standard",
        "stake": 100,
        "players": [
            {"id": "A", "tally": {"brights": brights, "junk_value": junk}},
            {"id": "B", "tally": {}},
            {"id": "C", "tally": {}},
        ],
    }
    status, answer = api(server, "POST", "/v1/gostop/hands", body)
    assert status == 200, answer
    return int(answer["players"][0]["points"])


def test_each_stepper_button_names_its_player(page: Page, watch: Any) -> None:
    """A screen reader lists buttons out of their fieldsets: "one Go more" said whose go
    only through the legend. Each stepper button names its player, in both languages."""
    fresh(page, watch)
    hand = page.locator("#view-hand")
    for player in "ABC":
        for what in ("Go", "Shakes", "Bombs"):
            for way in ("more", "less"):
                expect(
                    hand.get_by_role("button", name=f"one {what} {way} for {player}", exact=True)
                ).to_have_count(1)
    hand.get_by_role("button", name="one Go more for B", exact=True).click()
    expect(hand.locator("fieldset.player-flags").nth(1).locator(".step-value").first).to_have_text(
        "1"
    )
    hand.get_by_role("button", name="Counts").click()
    expect(hand.get_by_role("button", name=re.compile(r"^one Ribbons more for C$"))).to_have_count(
        1
    )
    page.get_by_role("button", name="한국어").click()
    expect(hand.get_by_role("button", name="A의 고 하나 늘리기", exact=True)).to_have_count(1)
    expect(hand.get_by_role("button", name="C의 띠 하나 줄이기", exact=True)).to_have_count(1)


def test_the_korean_page_ends_the_night_not_the_hand_and_says_it_becomes_read_only(
    page: Page, watch: Any
) -> None:
    """The button "판 끝내기" read as "end this hand"; it closes the whole night's table.
    The button says the night, its confirmation says the table becomes read-only, and
    the totals say whether they are live and when the table last changed, not a
    "버전" (the count of its events) a player cannot read."""
    korean(page, watch)
    page.get_by_role("button", name="테이블", exact=True).click()
    view = page.locator("#view-table")
    view.get_by_label("참가자").fill("A\nB\nC")
    view.get_by_role("button", name="테이블 만들기").click()
    live = view.locator(".totals-panel .live")
    expect(live).to_have_text(re.compile(r"^실시간 · 마지막 변경 (오전|오후) \d{1,2}:\d{2}$"))
    give(view, "A", BRIGHTS)
    view.get_by_role("button", name="A 스톱").click()
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    expect(view.get_by_role("button", name=re.compile("판 끝내기"))).to_have_count(0)
    view.get_by_role("button", name="오늘 밤 마감 (테이블 닫기)").click()
    confirm = view.get_by_role("button", name="마감하기")
    expect(confirm).to_be_focused()
    expect(confirm).to_have_accessible_description(re.compile("읽기 전용"))
    confirm.click()
    expect(view).to_contain_text("마감된 테이블 (읽기 전용)")
    expect(live).to_have_text(re.compile(r"^마감됨 \(더 바뀌지 않습니다\) · 마지막 변경 "))
    expect(view).not_to_contain_text("버전")
