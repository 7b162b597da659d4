"""What a new player's pass over the page found (2026-12-06): errors said in the page's
language at the field they are about, a refused hand that leaves no result behind to be
read as saved, history buttons named with their hand, counts that can be cleared, and
panels that show they open."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.test_page import create_table, fresh, player_button
from tests.browser.test_page_fixes import BRIGHTS, assert_fits, give, korean


def test_a_korean_editor_says_a_card_held_twice_in_korean_without_pointers(
    page: Page, watch: Any
) -> None:
    korean(page, watch)
    hand = page.locator("#view-hand")
    give(hand, "A", ["03-bright"])
    give(hand, "B", ["03-bright"])
    error = hand.locator('section.month:has([data-card="03-bright"]) .inline-error')
    # the code's Korean name and the two players: not the API's English sentence
    expect(error).to_have_text("중복된 패 ('A', 'B')")
    expect(error).to_have_attribute("data-code", "duplicate_card")


def test_a_refused_table_hand_leaves_no_result_behind(page: Page, watch: Any) -> None:
    """A nagari saved, then a stop below the minimum refused: the nagari's result no
    longer shows under the refusal, where it read as the refused hand's."""
    create_table(page, watch)
    view = page.locator("#view-table")
    view.get_by_role("button", name="Nagari").click()
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    expect(view.locator(".result-box .result")).to_have_count(1)
    give(view, "A", ["01-bright"])
    view.get_by_role("button", name="A stops").click()
    expect(view.locator(".inline-error")).to_contain_text("stop minimum")
    expect(view.locator(".result-box .result")).to_have_count(0)
    expect(view.locator('[data-hand="2"]')).to_have_count(0)


def test_each_history_button_names_its_hand(page: Page, watch: Any) -> None:
    create_table(page, watch)
    view = page.locator("#view-table")
    for hand in (1, 2):
        view.get_by_role("button", name="Nagari").click()
        expect(view.locator(f'[data-hand="{hand}"]')).to_be_visible()
    for hand in (1, 2):
        row = view.locator(f'[data-hand="{hand}"]')
        expect(row.get_by_role("button", name=f"Correct · Hand {hand}")).to_have_text("Correct")
        expect(row.get_by_role("button", name=f"Void · Hand {hand}")).to_have_text("Void")
    view.locator('[data-hand="2"]').get_by_role("button", name="Void").click()
    view.get_by_label("Reason").fill("misdeal")
    view.get_by_role("button", name="Void it").click()
    row = view.locator('[data-hand="2"]')
    expect(row.get_by_role("button", name="Bring back · Hand 2")).to_be_visible()


def test_counts_are_cleared_at_once_and_one_card_is_one(page: Page, watch: Any) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    give(hand, "A", ["01-bright"])
    expect(player_button(hand, "A").locator(".player-sub")).to_have_text("0 pt · 1 card")
    page.get_by_role("button", name="Counts").click()

    def brights() -> Any:
        counts = hand.get_by_role("group", name="A · Counts")
        return counts.get_by_role("group", name="Brights", exact=True)

    brights().get_by_role("button", name="one Brights more").click()
    expect(brights().locator("output")).to_have_text("1")
    hand.get_by_role("button", name="Clear every count").click()
    expect(brights().locator("output")).to_have_text("0")


def test_a_closed_panel_shows_that_it_opens(page: Page, watch: Any) -> None:
    fresh(page, watch)
    summary = page.locator("details.rules-panel > summary")
    closed = summary.evaluate("s => getComputedStyle(s, '::before').transform")
    summary.click()
    opened = summary.evaluate("s => getComputedStyle(s, '::before').transform")
    assert summary.evaluate("s => getComputedStyle(s, '::before').content") != "none"
    assert closed != opened  # the mark turns when the panel opens


def test_an_amount_never_breaks_beside_a_long_name(page: Page, watch: Any) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    hand.get_by_label("Player 1 name").fill("Christopher-Alexander Montgomery")
    hand.get_by_label("Player 1 name").press("Tab")
    give(hand, "Christopher-Alexander Montgomery", [*BRIGHTS, "11-bright", "12-bright"])
    hand.get_by_role("button", name="Christopher-Alexander Montgomery stops").click()
    chips = hand.locator(".result .net .chips").first
    expect(chips).to_be_visible()
    # the amount's text lies on one line (a flex item may stretch to its name's lines)
    lines = chips.evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e);"
        " return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }"
    )
    assert lines == 1
    name_lines = chips.evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e.previousSibling);"
        " return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }"
    )
    assert name_lines >= 2  # the long name wrapped instead


def test_the_scorer_ends_the_night_and_every_phone_sees_it_closed(page: Page, watch: Any) -> None:
    create_table(page, watch)
    view = page.locator("#view-table")
    view.get_by_role("button", name="Nagari").click()
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    view.get_by_role("button", name="End the night (close the table)").click()
    view.get_by_role("button", name="Cancel").click()  # asked again before it is done
    expect(view.get_by_role("button", name="Close it")).to_have_count(0)
    view.get_by_role("button", name="End the night (close the table)").click()
    expect(view.get_by_role("button", name="Close it")).to_be_focused()
    assert_fits(page, "ending the night")
    view.get_by_role("button", name="Close it").click()
    expect(view).to_contain_text("Closed table (read-only)")
    # read-only from now on: no editor, no history actions, nothing more to end
    expect(view.get_by_role("button", name="Nagari")).to_have_count(0)
    expect(view.get_by_role("button", name="Correct · Hand 1")).to_have_count(0)
    expect(view.get_by_role("button", name="End the night (close the table)")).to_have_count(0)
    expect(view.locator("[data-transfer], .settle-box, #settle-h")).not_to_have_count(0)
