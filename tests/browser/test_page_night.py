"""What a new player's pass over the page found (2026-12-06): errors said in the page's
language at the field they are about, a refused hand that leaves no result behind to be
read as saved, history buttons named with their hand, counts that can be cleared, and
panels that show they open."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, Route, expect

from tests.browser.test_page import create_table, fresh, player_button
from tests.browser.test_page_fixes import BRIGHTS, assert_fits, give, korean


def test_a_korean_editor_says_a_card_held_twice_in_korean_without_pointers(
    page: Page, watch: Any
) -> None:
    korean(page, watch)
    hand = page.locator("#view-hand")
    give(hand, "A", ["03-bright"])
    give(hand, "B", ["03-bright"])
    error = hand.locator('.month:has([data-card="03-bright"]) .inline-error')
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
        return counts.get_by_role("group", name="Brights for A", exact=True)

    brights().get_by_role("button", name="one Brights more").click()
    expect(brights().get_by_role("spinbutton")).to_have_value("1")
    hand.get_by_role("button", name="Clear every count").click()
    expect(brights().get_by_role("spinbutton")).to_have_value("0")


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
    expect(view.get_by_role("button", name="End the night (close the table)")).to_be_focused()
    view.get_by_role("button", name="End the night (close the table)").click()
    confirm = view.get_by_role("button", name="Close it")
    expect(confirm).to_be_focused()
    expect(confirm).to_have_accessible_description(re.compile(r"^Once closed, no phone"))
    assert_fits(page, "ending the night")
    confirm.click()
    expect(view).to_contain_text("Closed table (read-only)")
    expect(view.locator(".table-head h2")).to_be_focused()  # not lost with the button
    # read-only from now on: no editor, no history actions, nothing more to end
    expect(view.get_by_role("button", name="Nagari")).to_have_count(0)
    expect(view.get_by_role("button", name="Correct · Hand 1")).to_have_count(0)
    expect(view.get_by_role("button", name="End the night (close the table)")).to_have_count(0)
    expect(view.locator("[data-transfer], .settle-box, #settle-h")).not_to_have_count(0)


KOREAN_FACTS = [
    (
        "deck_exceeded",
        "the players hold 12 animals in all (A 6, B 6); one deck has 9",
        "덱 초과 (열끗 12장 (A 6, B 6): 한 벌에 9장)",
    ),
    (
        "deck_exceeded",
        "hongdan is held by A, B; one deck has it once",
        "덱 초과 (홍단: A, B (한 벌에 하나))",
    ),
    (
        "player_count",
        "1 player: Go-Stop is played by 2 or 3, or by 4 with one sitting out",
        "인원 오류 (1명)",
    ),
    (
        "below_stop_minimum",
        'winner "O\'Brien" has 0 points toward the stop minimum; stopping needs at least 7 '
        "with 2 players in the hand",
        '스톱 점수 미달 ("O\'Brien" 0점: 7점 이상이어야 스톱)',
    ),
    (
        "below_stop_minimum",
        "winner 'A' has 2 points toward the stop minimum (the 3 for three double junks do "
        "not count toward it); stopping needs at least 3 with 3 players in the hand",
        "스톱 점수 미달 ('A' 2점: 3점 이상이어야 스톱)",
    ),
    (
        "invalid_join_code",
        "8 characters from 0-9 and A-Z (I and L read as 1, O as 0)",
        "잘못된 참가 코드",
    ),
]


def test_korean_problem_texts_keep_the_facts_of_the_english_ones(page: Page, watch: Any) -> None:
    """The API's sentences are English; the Korean page says the code's name and the facts
    it knows how to say (a count, a limit, a name), and never a bare number pulled out of
    a sentence ("('!!', 8, 0, 9, 1,, 0)")."""
    korean(page, watch)
    expect(page.locator("#view-hand button.card").first).to_be_visible()
    said = page.evaluate(
        """async (facts) => {
            const { problemText } = await import('/assets/i18n.js');
            return facts.map(([code, detail]) => problemText({ code, detail }));
        }""",
        [[code, detail] for code, detail, _ in KOREAN_FACTS],
    )
    assert said == [korean_text for _, _, korean_text in KOREAN_FACTS]


def test_a_wrong_option_is_said_at_its_input(page: Page, watch: Any) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    give(hand, "A", BRIGHTS)
    panel = hand.locator("details.rules-panel")
    panel.locator("> summary").click()
    panel.locator("details.options > summary").click()
    option = panel.locator('[data-pointer="/ruleset/options/bonus_a_junk_value"] input')
    option.fill("9")
    with page.expect_request(lambda r: "/v1/gostop/hands" in r.url):
        option.press("Tab")
    expect(option).to_have_attribute("aria-invalid", "true")
    expect(option).to_have_accessible_description(re.compile("above the maximum 5"))


PREVIEWS = "**/v1/gostop/hands?lang=all"  # the editor's preview (and a result's languages)


class HeldPreviews:
    """The page's preview requests, held from now until :meth:`release` (a slow network):
    then each held one goes on, and later ones are no longer held."""

    def __init__(self, page: Page) -> None:
        self.holding, self.held = True, list[Route]()
        page.route(PREVIEWS, self._hold)

    def _hold(self, route: Route) -> None:
        if self.holding:
            self.held.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.holding = False
        for route in self.held:
            route.continue_()


def test_a_preview_answered_after_a_refused_stop_leaves_the_refusal_said(
    page: Page, watch: Any
) -> None:
    """Cards tapped, then 'A stops' before the piles' preview came back (a slow network):
    the refusal stays when the preview's answer lands after it. It was wiped, and the tap
    looked as if it had done nothing (found as a flaky test on a loaded machine)."""
    page.clock.install()  # runs as time does, until paused below
    create_table(page, watch)
    view = page.locator("#view-table")
    view.get_by_role("button", name="Nagari").click()
    expect(view.locator(".result-box .result")).to_have_count(1)
    points = view.locator('[data-preview-player="A"] .preview-points')
    expect(points).to_have_text("0 pt")  # the cleared editor's preview, answered
    previews = HeldPreviews(page)
    # five ribbons, no set of three: 1 point, below the stop minimum of three players (3)
    with page.expect_request(PREVIEWS):
        give(view, "A", ["01-ribbon", "04-ribbon", "06-ribbon", "07-ribbon", "12-ribbon"])
    view.get_by_role("button", name="A stops").click()
    error = view.locator(".inline-error")
    expect(error).to_contain_text("stop minimum")
    previews.release()
    expect(points).to_have_text("1 pt")  # the held preview's answer is shown
    expect(error).to_contain_text("stop minimum")
    # 'A stops' right after a tap: the refusal comes before the preview is even asked
    # (250 ms after the tap; the page's clock paused until then), whose answer must
    # leave it too
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    give(view, "A", ["09-ribbon"])
    view.get_by_role("button", name="A stops").click()
    expect(error).to_contain_text("stop minimum")
    page.clock.run_for(300)
    page.clock.resume()
    expect(points).to_have_text("2 pt")
    expect(error).to_contain_text("stop minimum")


def test_an_older_previews_problem_does_not_hide_a_newer_previews(page: Page, watch: Any) -> None:
    """Two edits of the stake ("" then "0"): the first preview's problem, answered after
    the second edit, gives way to the second preview's. A preview's own problem once
    counted as a sent hand's, and the second answer was never shown."""
    page.clock.install()
    fresh(page, watch)
    hand = page.locator("#view-hand")
    give(hand, "A", BRIGHTS)
    expect(hand.locator('[data-preview-player="A"] .preview-points')).to_have_text("3 pt")
    hand.locator("details.rules-panel > summary").click()
    stake = hand.get_by_label("Chips per point")
    previews = HeldPreviews(page)
    stake.fill("")
    with page.expect_request(PREVIEWS):
        stake.press("Tab")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    stake.fill("0")
    stake.press("Tab")  # its preview waits for the clock
    previews.release()
    error = hand.locator(".inline-error")
    expect(error).to_have_count(1)  # the first preview's problem, said
    page.clock.run_for(300)
    page.clock.resume()
    expect(error).to_have_text("0 is below the minimum 1")
