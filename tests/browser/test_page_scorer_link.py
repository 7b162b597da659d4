"""Another phone keeps score too: the scorer makes a scorer link for a named phone (a
scorer token minted by POST /v1/tables/{id}/tokens), and the phone that opens it enters
hands, signed with its name."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, Route, expect

from bench.server import Server
from tests.browser.test_page import (
    PHONE,
    api,
    create_table,
    enter_table_hand,
    player_button,
    viewer_link,
)
from tests.browser.test_page_fixes import BRIGHTS, give
from tests.browser.test_page_history import table_reads_held, wait_held


def test_a_second_phone_keeps_score_through_a_scorer_link(
    live_server: Server, browser: Browser, watch: Any, axe: Any
) -> None:
    first_context = browser.new_context(base_url=live_server.base, **PHONE)
    second_context = browser.new_context(base_url=live_server.base, **PHONE)
    try:
        first = create_table(first_context.new_page(), watch)
        _link, table_id, viewer_token = viewer_link(first)
        maker = first.locator(".scorer-link")
        expect(maker.get_by_role("heading")).to_have_text("Another phone keeps score too")
        make = maker.get_by_role("button", name="Make a scorer link")
        make.click()  # no name yet: asked for, nothing minted
        expect(maker).to_contain_text("Name the phone first.")
        expect(maker.get_by_label("Phone's name")).to_be_focused()
        maker.get_by_label("Phone's name").fill("  Minji's phone ")
        maker.get_by_label("Phone's name").press("Enter")
        link_box = first.locator('[data-link="scorer"]')
        expect(link_box).to_be_focused()  # ready to copy
        expect(maker.get_by_label(re.compile(r"^Scorer link for Minji's phone"))).to_have_count(1)
        link = link_box.input_value()
        assert re.fullmatch(rf".*/#table={table_id}&scorer=[^&]+", link), link
        axe(first, "table (a scorer link made)")

        second = watch(second_context.new_page())
        second.goto(link)
        view = second.locator("#view-table")
        expect(view.locator(".table-head h2")).to_have_text("Table night · scorer")
        assert "scorer=" not in second.url  # the token does not linger in the address bar
        # it learnt the join code from the table, though it was not in the link
        expect(view.locator("[data-join-code]")).to_have_text(re.compile(r"^[0-9A-Z]{8}$"))
        expect(view.get_by_role("button", name="Make a scorer link")).to_have_count(1)
        enter_table_hand(second)
        expect(view.locator('[data-hand="1"]')).to_be_visible()
        expect(first.locator('[data-hand="1"]')).to_be_visible()  # at the first phone's poll
        status, events = api(
            live_server, "GET", f"/v1/tables/{table_id}/events", token=viewer_token
        )
        assert status == 200
        added = [event for event in events["events"] if event["type"] == "added"]
        assert [event["by"] for event in added] == ["Minji's phone"]

        # a second link for the same name is refused, and said at the maker
        maker.get_by_label("Phone's name").fill("Minji's phone")
        make.click()
        expect(maker.locator(".notice")).to_contain_text("label")
        expect(maker.get_by_label(re.compile(r"^Scorer link for"))).to_have_count(1)  # kept
        # the first phone opening the link (in a tab already on the page: the address's
        # fragment changes) stays its own scorer, with its own token
        own = first.evaluate("JSON.parse(localStorage['gostop.tables'])[0]")
        first.goto(link)
        expect(first.locator("#view-table .table-head h2")).to_have_text("Table night · scorer")
        assert "scorer=" not in first.url
        assert (
            first.evaluate("JSON.parse(localStorage['gostop.tables'])[0]")["token"] == own["token"]
        )
        first.locator("#view-table").get_by_role("button", name="Nagari").click()
        expect(first.locator('[data-hand="2"]')).to_be_visible()
        status, events = api(
            live_server, "GET", f"/v1/tables/{table_id}/events", token=viewer_token
        )
        assert [e["by"] for e in events["events"] if e["type"] == "added"] == [
            "Minji's phone",
            "scorer",
        ]
        # its own token revoked (by the second phone): the link's opens the table instead
        status, tokens = api(
            live_server, "GET", f"/v1/tables/{table_id}/tokens", token=own["token"]
        )
        mine = next(token for token in tokens["tokens"] if token["yours"])
        second_token = link.rsplit("scorer=", 1)[1]
        status, _ = api(
            live_server,
            "DELETE",
            f"/v1/tables/{table_id}/tokens/{mine['token_id']}",
            token=second_token,
        )
        assert status == 204
        first.goto("/")  # a fresh start: the remembered table no longer opens…
        expect(first.locator("#view-table")).to_contain_text("no longer")
        # …then the link, in this tab already on the page (only the fragment changes: no
        # new load), whose token the phone keeps now
        first.evaluate("fragment => { location.hash = fragment }", link.split("#", 1)[1])
        expect(first.locator("#view-table .table-head h2")).to_have_text("Table night · scorer")
        expect(first.locator('[data-hand="2"]')).to_be_visible()
        kept = first.evaluate("JSON.parse(localStorage['gostop.tables'])[0]")["token"]
        assert kept == second_token
    finally:
        first_context.close()
        second_context.close()


def test_a_link_to_the_table_open_draws_it_again_with_the_hand_half_entered(
    page: Page, watch: Any
) -> None:
    """The table's own link opened in the tab that shows it (a scorer tapping the link
    a friend sent back): while the table is read again, the old view's buttons are gone
    (a tap on its Nagari was lost: it wrote through an editor no longer there, a CI
    run's flake), and the hand half entered comes back once the table is drawn."""
    create_table(page, watch)
    table = page.locator("#view-table")
    give(table, "A", BRIGHTS)
    expect(table.locator('[data-preview-player="A"] .preview-points')).to_have_text("3 pt")
    own = page.evaluate("JSON.parse(localStorage['gostop.tables'])[0]")
    with table_reads_held(page):
        page.evaluate(
            "fragment => { location.hash = fragment }", f"table={own['id']}&scorer={own['token']}"
        )
        expect(table.get_by_role("status")).to_have_text("Loading…")
        # nothing of the table left to tap meanwhile: only a way out
        expect(table.get_by_role("button")).to_have_count(1)
        expect(table.get_by_role("button", name="Leave this table")).to_be_visible()
    expect(table.locator(".table-head h2")).to_have_text("Table night · scorer")
    expect(table.locator('[data-preview-player="A"] .preview-points')).to_have_text("3 pt")
    expect(player_button(table, "A").locator(".player-sub")).to_contain_text("3 cards")


def test_of_two_links_opened_one_after_the_other_the_last_one_is_shown(
    live_server: Server, page: Page, watch: Any
) -> None:
    """A link opened while another is still being read (two taps in a chat): the table of
    the last one is shown, whatever order their reads come back in. The first link's read,
    coming last, drew its own table under the second link's token."""
    create_table(page, watch)
    first = page.evaluate("JSON.parse(localStorage['gostop.tables'])[0]")
    status, other = api(
        live_server, "POST", "/v1/tables", {"ruleset": "standard", "roster": ["X", "Y", "Z"]}
    )
    assert status == 201, other
    held: list[Route] = []
    holding = [True]
    reads = re.compile(rf"/v1/tables/{re.escape(first['id'])}(\?.*)?$")

    def hold(route: Route) -> None:
        if holding[0] and route.request.method == "GET":
            held.append(route)
        else:
            route.continue_()

    page.route(reads, hold)
    table = page.locator("#view-table")
    go = "fragment => { location.hash = fragment }"
    page.evaluate(go, f"table={first['id']}&scorer={first['token']}")
    wait_held(page, held)
    page.evaluate(go, f"table={other['id']}&scorer={other['scorer_token']}")
    expect(player_button(table, "X")).to_be_visible()
    holding[0] = False
    for route in held:
        route.continue_()
    page.wait_for_timeout(1000)  # the first link's read, answered now, would draw its table
    expect(player_button(table, "X")).to_be_visible()
    expect(player_button(table, "A")).to_have_count(0)
    opened = page.evaluate("localStorage['gostop.openTable']")
    assert opened == f'"{other["id"]}"'


def test_a_link_to_the_table_open_while_a_hand_is_saved_stores_it_once(
    live_server: Server, page: Page, watch: Any
) -> None:
    """The table's own link opened while a hand's save is on its way: the save ends first,
    on the table it was made for, and the table is then read again. The hand came back in
    the editor (the hand kept for a reopened table was taken before the save ended), and a
    second tap stored it twice (review)."""
    create_table(page, watch)
    table = page.locator("#view-table")
    give(table, "A", BRIGHTS)
    own = page.evaluate("JSON.parse(localStorage['gostop.tables'])[0]")
    posted: list[Route] = []
    page.route("**/v1/tables/*/hands", lambda route: posted.append(route))
    table.get_by_role("button", name="A stops").click()
    wait_held(page, posted)
    page.evaluate(
        "fragment => { location.hash = fragment }", f"table={own['id']}&scorer={own['token']}"
    )
    # "Loading…" at once, with its way out, while the save ends (a save with no answer
    # held the page on the old table, and every open after it: review)
    expect(table.get_by_role("status")).to_have_text("Loading…")
    expect(table.get_by_role("button")).to_have_count(1)
    posted[0].continue_()
    page.unroute("**/v1/tables/*/hands")
    expect(table.locator('[data-hand="1"]')).to_be_visible()
    expect(player_button(table, "A").locator(".player-sub")).to_contain_text("0 cards")
    status, read = api(live_server, "GET", f"/v1/tables/{own['id']}", token=own["token"])
    assert (status, len(read["hands"])) == (200, 1)
