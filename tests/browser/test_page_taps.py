"""A tap right after typing: the field's change (said when it loses the focus, as the tap
presses down) redrew the editor under the finger, and the tap was lost.

A player's pass: a name typed, then 철수 tapped on the player bar at once: 철수 was not
chosen, and the card taps that followed each waited for a player instead, the last one
going to whoever was tapped next. The same after a stake typed. A real mouse press and
release (Playwright's click) shows it: the press blurs the field, the release lands on a
control drawn again, and no click is made.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.test_page import fresh, player_button


def test_a_tap_right_after_typing_a_name_or_the_stake_is_not_lost(page: Page, watch: Any) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    name = hand.get_by_label("Player 3 name")
    name.fill("Min")  # typed, the focus still in the field
    player_button(hand, "B").click()  # the press blurs the name: its change, then the tap
    expect(player_button(hand, "B")).to_have_attribute("aria-pressed", "true")
    expect(player_button(hand, "Min")).to_be_visible()  # the rename is drawn too
    card = hand.locator('[data-card="01-bright"]')
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")  # in B's pile
    expect(card.locator(".owners")).to_have_text("B")

    # the same after the stake: typed, then a card tapped at once
    hand.locator("details.rules-panel > summary").click()
    hand.get_by_label("Chips per point").fill("250")
    other = hand.locator('[data-card="03-bright"]')
    other.click()
    expect(other).to_have_attribute("aria-pressed", "true")
    expect(other.locator(".owners")).to_have_text("B")
