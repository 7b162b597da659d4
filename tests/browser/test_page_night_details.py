"""What a player pass at the table found (2026-12-06): the share text going stale, a join
without a code, the keyboard focus kept through a tab switch, a cancelled correction and a
copy without the clipboard API, and a balance hand stored with cards missing."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, Route, expect

from bench.server import Server
from tests.browser.test_page import (
    PHONE,
    PILES,
    api,
    create_table,
    enter_table_hand,
    fresh,
    player_button,
    signed,
    table_screen,
    viewer_link,
)
from tests.browser.test_page_fixes import give
from tests.browser.test_table_hands import score_a_balance_table_hand


def test_the_share_text_goes_once_the_table_changes(page: Page, watch: Any) -> None:
    """Its totals would be old ones, under a button that still says "Copied"."""
    create_table(page, watch)
    view = page.locator("#view-table")
    share = view.locator(".share-text")
    share.get_by_role("button", name="Copy the share text").click()
    expect(share.locator("pre")).to_be_visible()
    before = share.locator("pre").inner_text()
    enter_table_hand(page)
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    expect(share.locator("pre")).to_be_hidden()
    expect(share.get_by_role("button")).to_have_text("Copy the share text")
    share.get_by_role("button", name="Copy the share text").click()
    expect(share.locator("pre")).to_be_visible()
    total = view.locator('[data-total="A"] .chips').inner_text()
    assert share.locator("pre").inner_text() != before
    assert total.lstrip("+") in share.locator("pre").inner_text()


def test_a_join_without_a_code_is_asked_for_one(page: Page, watch: Any) -> None:
    """Not "this table no longer exists" after a read of /v1/tables/undefined."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    view = table_screen(page, watch)
    code = view.get_by_label("Join code")
    code.fill("   ")
    view.get_by_role("button", name="Join", exact=True).click()
    expect(view).to_contain_text("Type the join code first (8 characters).")
    expect(code).to_be_focused()
    expect(view).not_to_contain_text("no longer")
    assert not [url for url in asked if "/v1/tables" in url]


def test_the_keyboard_focus_stays_through_a_tab_switch_a_cancel_and_a_copy(
    page: Page, watch: Any
) -> None:
    # the clipboard API missing (a phone on the table's Wi-Fi over plain http): the copy
    # falls back to a textarea selected for a moment
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {get: () => undefined})")
    create_table(page, watch)
    tabs = page.locator("#tabs")
    tabs.get_by_role("button", name="One hand").focus()
    page.keyboard.press("Enter")
    expect(tabs.get_by_role("button", name="One hand")).to_be_focused()
    expect(tabs.get_by_role("button", name="One hand")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Tab")
    expect(tabs.get_by_role("button", name="Table night")).to_be_focused()
    page.keyboard.press("Enter")
    expect(tabs.get_by_role("button", name="Table night")).to_be_focused()

    view = page.locator("#view-table")
    enter_table_hand(page)
    correct = view.get_by_role("button", name="Correct · Hand 1")
    correct.click()
    view.get_by_role("button", name="Cancel").click()
    expect(view.get_by_role("button", name="Correct · Hand 1")).to_be_focused()

    copy = view.locator('[data-link="viewer"]').locator("..").locator("button")
    expect(copy).to_have_text("Copy")
    copy.focus()
    page.keyboard.press("Enter")
    expect(copy).to_have_text("Copied")
    expect(copy).to_be_focused()


def test_a_balance_hand_stored_with_cards_missing_says_so_in_the_history(
    page: Page, watch: Any
) -> None:
    view = score_a_balance_table_hand(page, watch)
    expect(view.locator('[data-hand="1"]')).not_to_contain_text("missing")
    # hand 2: only A's cards tapped, the rest forgotten
    player_button(view, "A").click()
    for card in PILES["A"]:
        view.locator(f'[data-card="{card}"]').click()
    view.get_by_role("button", name="Score the hand").click()
    missing = 48 - len(PILES["A"])
    expect(view.locator('[data-hand="2"]')).to_contain_text(f"void ({missing} cards missing)")
    expect(view.locator('[data-hand="2"] .hand-net')).to_have_text(
        " · ".join(f"{p} {signed(0)}" for p in "ABC")
    )
    page.locator("#lang").click()  # in Korean: the variant's name, not 민화투's
    expect(view.locator('[data-hand="1"]')).to_contain_text("화투 120/80/60")
    expect(view.locator('[data-hand="1"]')).not_to_contain_text("민화투")
    expect(view.locator('[data-hand="2"]')).to_contain_text(f"무효 (패 {missing}장 빠짐)")


def test_every_phone_opens_the_details_of_any_hand(
    live_server: Server, browser: Browser, watch: Any, axe: Any
) -> None:
    """A viewer (who never sees the scorer's result panel) opens a stored hand's points,
    steps and payments from the history: in English from the table read in English, in
    Korean from the rows it polls; every step's sentence is the API's."""
    scorer_context = browser.new_context(base_url=live_server.base, **PHONE)
    viewer_context = browser.new_context(base_url=live_server.base, **PHONE)
    try:
        scorer = create_table(scorer_context.new_page(), watch)
        link, table_id, token = viewer_link(scorer)
        enter_table_hand(scorer)
        expect(scorer.locator('[data-hand="1"]')).to_be_visible()
        viewer = watch(viewer_context.new_page())
        viewer.goto(link)
        row = viewer.locator('[data-hand="1"]')
        details = row.get_by_role("button", name="Details · Hand 1")
        expect(details).to_have_attribute("aria-expanded", "false")
        expect(row.locator(".hand-details")).to_have_count(0)
        details.click()
        expect(details).to_have_attribute("aria-expanded", "true")
        expect(details).to_be_focused()
        panel = row.locator(".hand-details")
        _status, english = api(live_server, "GET", f"/v1/tables/{table_id}?lang=en", token=token)
        result = english["hands"][0]["result"]
        sentences = [step["text"]["en"] for p in result["payments"] for step in p.get("steps", [])]
        assert sentences  # C holds no bright: 광박
        for sentence in sentences:
            expect(panel).to_contain_text(sentence)
        expect(panel.locator(".payments > li")).to_have_count(len(result["payments"]))
        axe(viewer, "a hand's details (viewer)")
        # a poll's redraw keeps it open
        scorer.locator("#view-table").get_by_role("button", name="Nagari").click()
        expect(viewer.locator('[data-hand="2"]')).to_be_visible()
        expect(panel).to_be_visible()
        viewer.locator("#lang").click()
        _status, korean = api(live_server, "GET", f"/v1/tables/{table_id}", token=token)
        result = korean["hands"][0]["result"]
        for payment in result["payments"]:
            for step in payment.get("steps", []):
                expect(panel).to_contain_text(step["text"]["ko"])
        row.get_by_role("button", name=re.compile("^자세히")).click()
        expect(row.locator(".hand-details")).to_have_count(0)
    finally:
        scorer_context.close()
        viewer_context.close()


def test_a_tap_on_the_wrong_sitter_loses_no_pile(page: Page, watch: Any) -> None:
    """Choosing another player to sit out sets its pile aside; it comes back when another
    sits out instead, less a card given to someone else meanwhile."""
    fresh(page, watch)
    hand = page.locator("#view-hand")
    hand.get_by_role("button", name="Add a player").click()  # D sits out
    give(hand, "B", ["01-bright", "02-ribbon", "03-junk-1"])
    expect(player_button(hand, "B")).to_contain_text("3 cards")
    hand.locator('.sitter [data-sitter="B"]').click()  # the wrong name
    expect(hand.locator('.sitter [data-sitter="B"]')).to_have_attribute("aria-pressed", "true")
    expect(hand.locator('[data-card="01-bright"]')).not_to_have_class(re.compile(r"\bheld\b"))
    give(hand, "C", ["03-junk-1"])  # meanwhile C takes one of B's cards
    hand.locator('.sitter [data-sitter="D"]').click()
    expect(player_button(hand, "B")).to_contain_text("2 cards")
    for card, holder in (("01-bright", "B"), ("02-ribbon", "B"), ("03-junk-1", "C")):
        expect(hand.locator(f'[data-card="{card}"]')).to_have_class(re.compile(r"\bheld\b"))
        expect(hand.locator(f'[data-card="{card}"] .owners')).to_contain_text(holder)


def test_an_english_details_read_that_fails_is_said_and_asked_again(page: Page, watch: Any) -> None:
    failed: list[str] = []

    def fail_once(route: Route) -> None:
        if not failed:
            failed.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    create_table(page, watch)
    enter_table_hand(page)
    row = page.locator('[data-hand="1"]')
    expect(row).to_be_visible()
    page.route(re.compile(r"/v1/tables/[^/?]+\?lang=en$"), fail_once)
    row.get_by_role("button", name="Details · Hand 1").click()
    details = row.locator(".hand-details")
    expect(details).to_contain_text("No answer from the service")
    details.get_by_role("button", name="Try again").click()
    expect(details.get_by_role("heading", name="Hand 1 · Result")).to_be_visible()
    expect(details.locator(".payments > li")).not_to_have_count(0)
    assert len(failed) == 1


def test_a_sitter_removed_from_the_hand_gets_its_pile_back(page: Page, watch: Any) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    hand.get_by_role("button", name="Add a player").click()  # D sits out
    give(hand, "B", ["01-bright", "02-ribbon"])
    hand.locator('.sitter [data-sitter="B"]').click()  # the wrong name…
    hand.get_by_role("button", name="Remove D").click()  # …and then three play after all
    expect(hand.locator(".sitter")).to_have_count(0)
    expect(player_button(hand, "B")).to_contain_text("2 cards")
