"""The deck by keyboard: one tab stop for its fifty cards, the arrow keys between them.

A player's pass found 46 Tabs from the third card to Stop: every card was a stop of its
own. The deck is now one (a roving tabindex, as WAI-ARIA's composite widgets): Tab enters
and leaves it in one press, ← → go through the cards in reading order, ↑ ↓ to the card
drawn above or below whatever columns the screen's width gives, Home and End to the
first and last; the card focused last keeps the stop, through a redraw too.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from bench.server import Server
from tests.browser.test_page import fresh, player_button, tap_piles


def deck_order(page: Page) -> list[str]:
    """The cards' IDs in the order the page lays them out (month by month)."""
    ids: list[str] = page.locator("#view-hand button.card").evaluate_all(
        "(cards) => cards.map((card) => card.dataset.card)"
    )
    return ids


def focused_card(page: Page) -> str | None:
    card: str | None = page.evaluate("document.activeElement.dataset.card ?? null")
    return card


def test_the_deck_is_one_tab_stop_and_the_arrow_keys_move_between_cards(
    page: Page, watch: Any, axe: Any
) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    cards = deck_order(page)
    first_month = [card for card in cards if card.startswith("01-")]
    assert len(first_month) == 4
    assert cards[4].startswith("02-")
    # one card in the tab order, the others reached by the arrow keys
    assert hand.locator('button.card[tabindex="0"]').count() == 1
    assert hand.locator('button.card[tabindex="-1"]').count() == len(cards) - 1
    expect(hand.get_by_role("group", name="The cards, by month")).to_have_accessible_description(
        "The arrow keys move between the cards."
    )
    # each month a group named by its heading, not a landmark: 13 regions were noise
    expect(hand.get_by_role("group", name="Month 1 pine")).to_be_visible()
    assert page.evaluate("document.querySelectorAll('#view-hand section.month').length") == 0

    # A chosen by keyboard, then Tab: into the deck, at its first card
    player_button(hand, "C").focus()
    page.keyboard.press("Tab")
    assert focused_card(page) == cards[0]
    page.keyboard.press("ArrowRight")
    assert focused_card(page) == cards[1]
    # a phone (360 px) draws a month a row: ↓ is the same place in the next month
    page.keyboard.press("ArrowDown")
    assert focused_card(page) == cards[5]
    page.keyboard.press("ArrowUp")
    assert focused_card(page) == cards[1]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # at the first card: nowhere further, no scroll
    assert focused_card(page) == cards[0]
    page.keyboard.press("End")
    assert focused_card(page) == cards[-1]
    page.keyboard.press("Home")
    assert focused_card(page) == cards[0]

    # Space still taps: A then a card (player first), by keyboard alone
    player_button(hand, "A").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # B
    page.keyboard.press("Tab")  # C
    page.keyboard.press("Tab")
    assert focused_card(page) == cards[0]  # the stop stayed where it was left
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    expect(hand.locator(f'[data-card="{cards[4]}"]')).to_have_attribute("aria-pressed", "true")

    # Tab leaves the deck in one press; Shift+Tab comes back to the same card
    page.keyboard.press("Tab")
    expect(hand.get_by_role("button", name="Clear every pile")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    assert focused_card(page) == cards[4]
    assert hand.locator('button.card[tabindex="0"]').count() == 1

    # drawn again (counts, then cards again): the same card keeps the stop
    hand.get_by_role("button", name="Counts", exact=True).click()
    hand.get_by_role("button", name="Tap cards", exact=True).click()
    expect(hand.locator(f'[data-card="{cards[4]}"]')).to_have_attribute("tabindex", "0")
    axe(page, "the deck as one tab stop")


def test_up_and_down_follow_the_columns_of_a_wide_screen(
    live_server: Server, browser: Browser, watch: Any
) -> None:
    """At 1,000 px the page draws three months a row: ↓ from January goes to April, the
    card drawn below, not to February beside it."""
    context = browser.new_context(
        base_url=live_server.base, locale="en-US", viewport={"width": 1000, "height": 900}
    )
    page = fresh(context.new_page(), watch)
    cards = deck_order(page)
    columns = "getComputedStyle(document.querySelector('.months')).gridTemplateColumns"
    assert len(page.evaluate(columns).split()) == 3
    page.locator(f'[data-card="{cards[1]}"]').focus()
    page.keyboard.press("ArrowDown")
    assert focused_card(page) == cards[3 * 4 + 1]  # April's second card
    page.keyboard.press("ArrowUp")
    assert focused_card(page) == cards[1]
    page.keyboard.press("ArrowUp")  # the first row: nowhere above
    assert focused_card(page) == cards[1]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # past January's last card: February's first
    assert focused_card(page) == cards[4]
    context.close()


def test_the_focus_is_never_hidden_and_a_result_opens_at_the_top(page: Page, watch: Any) -> None:
    """A player's pass at 360×800: a stepper or select reached by Shift+Tab scrolled under
    the sticky player bar, its focus ring hidden; after Stop the result's heading took the
    focus at the screen's bottom edge, the result itself out of sight."""
    fresh(page, watch)
    hand = page.locator("#view-hand")
    tap_piles(hand)
    stop = page.get_by_role("button", name="A stops")
    stop.focus()
    bar = hand.locator(".player-bar")
    for _ in range(12):  # up through the side events, the 국진 choices and the steppers
        page.keyboard.press("Shift+Tab")
        kind = page.evaluate("document.activeElement.tagName")
        if kind in ("BUTTON", "SELECT") and not page.evaluate(
            "!!document.activeElement.closest('.player-bar, .months')"
        ):
            top = page.evaluate("document.activeElement.getBoundingClientRect().top")
            box = bar.bounding_box()
            assert box is not None
            assert top >= box["y"] + box["height"] - 1, page.evaluate(
                "document.activeElement.outerHTML.slice(0, 120)"
            )
    stop.click()
    heading = page.locator(".result h2")
    expect(heading).to_be_focused()
    place = heading.bounding_box()
    assert place is not None
    assert place["y"] < 100  # at the top, the result below it on screen
