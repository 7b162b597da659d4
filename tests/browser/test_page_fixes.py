"""The page when things go wrong at a real table: a Wi-Fi blip, a second phone, a language
switch mid-correction, a hand with parts the page cannot edit, and the like. Each test
reproduces a defect seen on the page and fails without its fix."""

from __future__ import annotations

import json
import re
import urllib.request
import uuid
from typing import Any

from playwright.sync_api import Browser, Page, Route, expect

from bench.server import Server
from tests.browser.test_page import (
    PHONE,
    api,
    create_table,
    fresh,
    player_button,
    signed,
    table_screen,
)

BRIGHTS = ["01-bright", "03-bright", "08-bright"]


def korean(page: Page, watch: Any) -> Page:
    """The page opened in Korean on a device with nothing else remembered."""
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear(); localStorage['gostop.lang'] = '\"ko\"'")
    page.reload()
    return page


def table_of(page: Page) -> dict[str, Any]:
    """The table the page has open, as the device remembers it (id, token, role…)."""
    return page.evaluate("JSON.parse(localStorage['gostop.tables'])[0]")


def another_phone_writes(server: Server, page: Page, path: str, body: Any) -> int:
    """Another phone's write to the table the page has open (``path`` under it), at the
    table's version now, with a fresh key: its HTTP status."""
    entry = table_of(page)
    table = f"/v1/tables/{entry['id']}"
    _status, read = api(server, "GET", table, token=entry["token"])
    status, _ = api(
        server,
        "POST",
        table + path,
        body,
        token=entry["token"],
        key=True,
        if_match=read["version"],
    )
    return int(status)


NAGARI = {"players": [{"id": p, "declared": {}} for p in "ABC"], "outcome": {"type": "nagari"}}
"""A drawn hand of A, B and C: another phone's hand."""


def lose_first_post(keys: list[str | None]) -> Any:
    """A route handler: the first POST reaches the service, which handles it, and its
    answer never reaches the phone; later ones go through. Each POST's Idempotency-Key
    is added to ``keys``."""

    def handle(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the service handles it…
            route.abort("connectionreset")  # …and the phone never hears back
        else:
            route.continue_()

    return handle


def give(root: Any, player: str, cards: list[str]) -> None:
    player_button(root, player).click()
    for card in cards:
        root.locator(f'[data-card="{card}"]').click()
    player_button(root, player).click()


def test_a_hand_whose_answer_is_lost_is_recorded_once_when_tapped_again(
    live_server: Server, page: Page, watch: Any
) -> None:
    """The service stores the hand, the answer never reaches the phone; the poll then moves
    the version. Tapping again replays the same Idempotency-Key and If-Match: one hand."""
    create_table(page, watch)
    table = page.locator("#view-table")
    entry = table_of(page)
    keys: list[tuple[str | None, str | None]] = []

    def lose_first_answer(route: Route) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        keys.append((request.headers.get("idempotency-key"), request.headers.get("if-match")))
        if len(keys) == 1:
            route.fetch()  # the service handles it…
            route.abort("connectionreset")  # …and the phone never hears back
        else:
            route.continue_()

    page.route("**/v1/tables/*/hands", lose_first_answer)
    give(table, "A", BRIGHTS)
    table.get_by_role("button", name="A stops").click()
    expect(table.locator(".errors")).to_contain_text("Tap the same again to retry")
    # the poll brings the stored hand: the version the first write sent is stale now
    expect(table.locator('[data-hand="1"]')).to_be_visible()
    table.get_by_role("button", name="A stops").click()
    expect(table.locator('[data-hand="1"]')).to_be_visible()
    expect(table.locator(".result")).to_be_visible()
    assert len(keys) == 2, keys
    assert keys[0] == keys[1], keys  # the retry replays the first: same key, same If-Match
    status, read = api(live_server, "GET", f"/v1/tables/{entry['id']}", token=entry["token"])
    assert status == 200
    assert len(read["hands"]) == 1, read["hands"]


def test_offline_writes_and_scores_say_so_and_never_throw(
    live_server: Server, browser: Browser, watch: Any
) -> None:
    context = browser.new_context(base_url=live_server.base, **PHONE)
    try:
        page = create_table(context.new_page(), watch)
        table = page.locator("#view-table")
        give(table, "A", BRIGHTS)
        context.set_offline(True)
        table.get_by_role("button", name="A stops").click()
        expect(table.locator(".errors")).to_contain_text("No answer from the service")
        # under a heading of its own, not the input errors' "Please check"
        expect(table.locator(".errors h3")).to_have_text("No connection")
        # the one-hand tab, offline: its own message, no uncaught "Failed to fetch"
        page.get_by_role("button", name="One hand").click()
        hand = page.locator("#view-hand")
        give(hand, "A", BRIGHTS)
        # its preview says why there is none (it went blank)
        expect(hand.locator(".preview-note")).to_contain_text("No connection, so no preview")
        hand.get_by_role("button", name="A stops").click()
        expect(hand.locator(".errors")).to_contain_text("No answer from the service")
        expect(hand.locator(".errors h3")).to_have_text("No connection")
        # back online, the retry goes through once
        context.set_offline(False)
        page.get_by_role("button", name="Table night").click()
        table.get_by_role("button", name="A stops").click()
        expect(table.locator('[data-hand="1"]')).to_be_visible()
        entry = table_of(page)
        status, read = api(live_server, "GET", f"/v1/tables/{entry['id']}", token=entry["token"])
        assert status == 200
        assert len(read["hands"]) == 1
        # opening a remembered table offline says so
        table.get_by_role("button", name="Leave this table").click()
        context.set_offline(True)
        table.locator(".my-tables button").first.click()
        expect(table.locator(".notice").first).to_contain_text("No answer from the service")
        context.set_offline(False)
    finally:
        context.close()


def test_the_scorer_opening_its_own_links_stays_the_scorer(page: Page, watch: Any) -> None:
    create_table(page, watch)
    scorer = table_of(page)
    assert scorer["role"] == "scorer"
    for name in ("join", "viewer"):
        links = page.locator(f'[data-link="{name}"]')
        if not links.count():
            continue  # joining by code is not on every server
        page.goto(links.input_value())
        expect(page.locator("#view-table .table-head h2")).to_contain_text("scorer")
        kept = page.evaluate("JSON.parse(localStorage['gostop.tables'])")
        assert [(e["id"], e["role"], e["token"]) for e in kept] == [
            (scorer["id"], "scorer", scorer["token"])
        ]
        expect(page.locator("#view-table").get_by_role("button", name="A stops")).to_be_visible()


def test_the_hand_tab_and_the_create_form_each_keep_their_own_rules(
    live_server: Server, page: Page, watch: Any
) -> None:
    """A table is created with the rule set and stake its form shows; a balance preset
    chosen there does not change what the one-hand tab scores with."""
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    hand = page.locator("#view-hand")
    hand.locator("details.rules-panel > summary").click()
    hand.get_by_label("Rule set").select_option("wikipedia")
    hand.get_by_label("Chips per point").fill("500")
    hand.get_by_label("Chips per point").press("Tab")
    page.get_by_role("button", name="Table night").click()
    table = page.locator("#view-table")
    expect(table.get_by_label("Rule set")).to_have_value("standard")
    expect(table.get_by_label("Chips per point")).to_have_value("100")
    table.get_by_label("Rule set").select_option("balance")
    table.get_by_label("Rule set").select_option("gamerules")
    table.get_by_label("Roster").fill("A\nB\nC")
    table.get_by_role("button", name="Create a table").click()
    expect(table.locator(".totals")).to_be_visible()
    entry = table_of(page)
    _status, read = api(live_server, "GET", f"/v1/tables/{entry['id']}", token=entry["token"])
    assert (read["ruleset"]["preset"], read["stake"]) == ("gamerules", 100)
    # the table screen says what it is locked to
    expect(table.locator(".table-rules")).to_contain_text("Rules: gamerules")
    expect(table.locator(".table-rules")).to_contain_text("100 chips per point")
    expect(table.locator(".preview-list")).to_be_visible()  # the table's own preview is done
    # the one-hand tab still scores under what it shows
    page.get_by_role("button", name="One hand").click()
    expect(hand.get_by_label("Rule set")).to_have_value("wikipedia")
    with page.expect_request(lambda r: r.method == "POST" and "/v1/gostop/hands" in r.url) as sent:
        give(hand, "A", BRIGHTS)
    body = sent.value.post_data_json
    assert (body["ruleset"], body["stake"]) == ("wikipedia", 500)


def test_a_refused_create_says_which_field(page: Page, watch: Any) -> None:
    """A table refused for its stake says it is the stake ("0 is below the minimum 1"
    under the Create button said nothing of where: a page probe)."""
    table = table_screen(page, watch)
    table.get_by_label("Roster").fill("A\nB\nC")
    table.get_by_label("Chips per point").fill("0")
    table.get_by_role("button", name="Create a table").click()
    expect(table.get_by_role("listitem").filter(has_text="minimum")).to_have_text(
        re.compile(r"^Chips per point: ")
    )


def enter_hand(page: Page) -> dict[str, Any]:
    """A's three brights, A stops: hand 1 on the table the page has open."""
    table = page.locator("#view-table")
    give(table, "A", BRIGHTS)
    table.get_by_role("button", name="A stops").click()
    expect(table.locator('[data-hand="1"]')).to_be_visible()
    return table_of(page)


def test_a_language_switch_keeps_the_correction_going(
    live_server: Server, page: Page, watch: Any
) -> None:
    create_table(page, watch)
    entry = enter_hand(page)
    table = page.locator("#view-table")
    table.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    table.locator(".correcting").get_by_label("Reason").fill("typo")
    page.locator("#lang").click()  # 한국어
    expect(table.locator(".correcting")).to_contain_text("1판을 수정하는 중")
    expect(table.locator(".correcting").get_by_label("이유")).to_have_value("typo")
    table.get_by_role("button", name="나가리").click()
    expect(table.locator(".correcting")).to_be_empty()
    _status, read = api(
        live_server, "GET", f"/v1/tables/{entry['id']}/events", token=entry["token"]
    )
    last = read["events"][-1]
    assert (last["type"], last["number"], last["reason"]) == ("corrected", 1, "typo")


def test_a_correction_keeps_the_parts_the_page_cannot_edit(
    live_server: Server, page: Page, watch: Any
) -> None:
    """A hand entered by another app with a side event (첫뻑): re-saved unchanged from the
    page, it keeps the event, so its amounts do not move."""
    from tests.browser.test_table_hands import Table

    table = Table(live_server, ["A", "B", "C"])
    hand = {
        "players": [
            {"id": "A", "captured": BRIGHTS},
            {"id": "B", "captured": ["06-junk-1"], "bombs_after_shake": 0},
            {"id": "C", "captured": ["07-junk-1"]},
        ],
        "outcome": {"type": "stop", "winner": "A"},
        "events": [
            {"type": "first_ppuk", "player": "B"},
            {"type": "first_ppuk", "player": "C"},  # twice: the editor cannot show it
        ],
    }
    net = table.write("POST", "/hands", hand)["result"]["net"]
    table.open_on(page, watch)
    view = page.locator("#view-table")
    view.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    # the fields by their words, not the API's names (a player's pass: "(declared)")
    expect(view.locator(".kept")).to_contain_text("side events, bombs after a shake")
    page.locator("#lang").click()  # 한국어
    expect(view.locator(".kept")).to_contain_text("사건, 흔든 뒤 폭탄")
    page.locator("#lang").click()  # English again
    view.locator(".correcting").get_by_label("Reason").fill("just re-saving")
    view.get_by_role("button", name="A stops").click()
    expect(view.locator(".correcting")).to_be_empty()
    last = table.events()[-1]
    assert last["type"] == "corrected"
    assert last["body"] == hand
    _status, read = api(live_server, "GET", f"/v1/tables/{table.id}", token=table.token)
    assert read["hands"][0]["result"]["net"] == net


def test_the_editor_carries_every_field_it_does_not_edit(page: Page, watch: Any) -> None:
    """hand.js alone: a loaded body comes back whole (a player's 역고 and bombs after a
    shake, a declared score, the outcome's liable loser while the outcome is the same)."""
    watch(page)
    page.goto("/")
    hand = {
        "players": [
            {"id": "A", "captured": BRIGHTS, "go_count": 2, "yeokgo": True},
            {"id": "B", "declared": {"points": 0}, "shakes": 1, "bombs": 1, "bombs_after_shake": 1},
            {"id": "C", "captured": ["07-junk-1"]},
        ],
        "outcome": {"type": "stop", "winner": "A", "liable": "B"},
        "events": [{"type": "first_ppuk", "player": "B"}],
        "dealer": "C",
    }
    got = page.evaluate(
        """async (hand) => {
            const { createHandEditor } = await import('/assets/hand.js');
            const editor = createHandEditor({ mount: null, context: () => ({}), onOutcome: null });
            editor.load(hand);
            return [{ ...editor.body(), outcome: editor.outcome({ type: 'stop', winner: 'A' }) },
              editor.outcome({ type: 'stop', winner: 'C' })];
        }""",
        hand,
    )
    assert got[0] == hand
    # the liable loser is a choice on screen (B, as loaded): it goes with any stop
    assert got[1] == {"type": "stop", "winner": "C", "liable": "B"}


def test_the_preview_follows_a_save_a_clear_and_a_correction(page: Page, watch: Any) -> None:
    create_table(page, watch)
    view = page.locator("#view-table")
    a_points = view.locator('[data-preview-player="A"] .preview-points')
    b_points = view.locator('[data-preview-player="B"] .preview-points')
    give(view, "A", BRIGHTS)
    expect(a_points).to_have_text("3 pt")
    view.get_by_role("button", name="A stops").click()
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    # saved: the editor is empty, and so are the preview and the bar
    expect(a_points).to_have_text("0 pt")
    expect(player_button(view, "A").locator(".player-sub")).to_have_text("0 pt · 0 cards")
    give(view, "B", [*BRIGHTS, "11-bright"])
    expect(b_points).to_have_text("4 pt")
    view.get_by_role("button", name="Clear every pile").click()
    expect(b_points).to_have_text("0 pt")
    give(view, "B", [*BRIGHTS, "11-bright"])
    view.get_by_role("button", name="B stops").click()
    expect(view.locator('[data-hand="2"]')).to_be_visible()
    give(view, "C", ["06-junk-1"])  # something else in the editor, then correct hand 1
    expect(a_points).to_have_text("0 pt")
    view.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    expect(a_points).to_have_text("3 pt")
    expect(b_points).to_have_text("0 pt")


def test_what_if_compares_the_hand_on_screen(live_server: Server, page: Page, watch: Any) -> None:
    """Taps after the result (a fourth bright, then a card in two piles) change neither
    the comparison nor the result shown."""
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    hand = page.locator("#view-hand")
    give(hand, "A", BRIGHTS)
    give(hand, "B", ["06-junk-1"])
    hand.get_by_role("button", name="A stops").click()
    expect(hand.locator(".result")).to_be_visible()
    give(hand, "A", ["11-bright", "06-junk-1"])  # 06-junk-1 in two piles: invalid
    hand.locator(".what-if select").select_option("wikipedia")
    hand.locator(".what-if").get_by_role("button", name="Compare").click()
    body = {
        "ruleset": "standard",
        "stake": 100,
        "players": [
            {"id": "A", "captured": BRIGHTS},
            {"id": "B", "captured": ["06-junk-1"]},
            {"id": "C", "captured": []},
        ],
        "outcome": {"type": "stop", "winner": "A"},
        "compare_with": ["wikipedia"],
    }
    status, answer = api(live_server, "POST", "/v1/gostop/hands", body)
    assert status == 200, answer
    compared = answer["comparisons"][0]
    for player in ("A", "B", "C"):
        row = hand.locator(f'[data-compare="{player}"] td')
        expect(row).to_have_text(
            [signed(compared["net"][player]), signed(compared["difference"][player])]
        )
        expect(hand.locator(f'.result [data-net="{player}"] .chips')).to_have_text(
            signed(answer["net"][player])
        )


def test_a_rounded_settlement_says_so_and_shows_its_totals(
    live_server: Server, page: Page, watch: Any
) -> None:
    view = table_screen(page, watch)
    view.get_by_label("Roster").fill("A\nB\nC")
    view.get_by_label("Round the settlement to").select_option("1000")
    view.get_by_role("button", name="Create a table").click()
    entry = enter_hand(page)
    _status, settled = api(
        live_server, "GET", f"/v1/tables/{entry['id']}/settlement", token=entry["token"]
    )
    assert settled["rounding"]["unit"] == 1000
    expect(view.locator(".rounded")).to_contain_text("Rounded to 1,000 chips")
    for player, chips in settled["totals"].items():
        expect(view.locator(f'[data-rounded="{player}"] .chips')).to_have_text(signed(chips))
        raw = settled["rounding"]["raw"][player]
        if raw != chips:
            expect(view.locator(f'[data-rounded="{player}"]')).to_contain_text(
                f"(from {signed(raw)})"
            )


LONG = ["VeryLongEnglishNameWithoutAnySpacesAtAll", "김철수할아버지의둘째아들의친구의사촌동생", "C"]


def assert_fits(page: Page, screen: str) -> None:
    """Nothing wider than the 360 px phone: no sideways scrolling."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{screen}: {width} px wide"


def test_long_names_and_the_share_text_fit_a_phone(
    live_server: Server, page: Page, watch: Any, axe: Any
) -> None:
    watch(page)
    page.goto("/")
    page.evaluate(
        "(names) => { localStorage.clear();"
        " localStorage.setItem('gostop.roster', JSON.stringify(names)); }",
        LONG,
    )
    page.reload()
    hand = page.locator("#view-hand")
    expect(hand.locator("button.card").first).to_be_visible()
    player_button(hand, LONG[0]).click()
    for card in BRIGHTS:
        hand.locator(f'[data-card="{card}"]').click()
    hand.get_by_role("button", name=f"{LONG[0]} stops").click()
    expect(hand.locator(".result")).to_be_visible()
    assert_fits(page, "one hand with long names")
    page.get_by_role("button", name="Table night").click()
    view = page.locator("#view-table")
    view.get_by_label("Roster").fill("\n".join(LONG))
    view.get_by_role("button", name="Create a table").click()
    player_button(view, LONG[0]).click()
    for card in BRIGHTS:
        view.locator(f'[data-card="{card}"]').click()
    view.get_by_role("button", name=f"{LONG[0]} stops").click()
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    share = view.get_by_role("button", name="Copy the share text")
    if share.count():
        share.click()
        expect(view.locator("pre.shared")).to_contain_text("GS1:")
    assert_fits(page, "a table with long names and its share text")
    axe(page, "long names")


def test_a_rate_limited_join_says_so_and_how_long_to_wait(page: Page, watch: Any) -> None:
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    problem = {
        "type": "about:blank",
        "title": "Too Many Requests",
        "status": 429,
        "detail": "too many joins",
        "errors": [{"pointer": "", "code": "rate_limited", "detail": "too many joins"}],
    }
    page.route(
        "**/v1/tables/join",
        lambda route: route.fulfill(
            status=429,
            headers={"Retry-After": "17", "Content-Type": "application/problem+json"},
            body=json.dumps(problem),
        ),
    )
    page.get_by_role("button", name="Table night").click()
    view = page.locator("#view-table")
    if not view.locator(".join-panel").count():
        return  # joining by code is not on this server
    view.get_by_label("Join code").fill("ABCD2345")
    view.get_by_role("button", name="Join", exact=True).click()
    expect(view.locator(".notice").first).to_have_text(
        "Too many tries: wait 17 seconds, then try again."
    )


def test_a_remembered_table_that_is_gone_says_so_and_can_be_forgotten(
    live_server: Server, page: Page, watch: Any
) -> None:
    from tests.browser.test_table_hands import Table

    table = Table(live_server, ["A", "B", "C"])
    table.open_on(page, watch)
    page.get_by_role("button", name="Leave this table").click()
    status = delete_table(live_server, table.id, table.token, table.version)
    assert status in (200, 204), status
    view = page.locator("#view-table")
    view.locator(".my-tables button").click()
    expect(view.locator(".notice").first).to_contain_text("This table is gone")
    expect(view.locator(".my-tables button")).to_have_count(1)  # still listed until forgotten
    view.get_by_role("button", name="Forget it on this device").click()
    expect(view.locator(".my-tables")).to_have_count(0)
    assert page.evaluate("JSON.parse(localStorage['gostop.tables'])") == []


def test_a_double_tap_records_one_hand_and_a_void_needs_a_reason_said_by_its_field(
    live_server: Server, page: Page, watch: Any
) -> None:
    create_table(page, watch)
    view = page.locator("#view-table")
    entry = table_of(page)
    give(view, "A", BRIGHTS)
    view.get_by_role("button", name="A stops").dblclick()
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    _status, read = api(live_server, "GET", f"/v1/tables/{entry['id']}", token=entry["token"])
    assert len(read["hands"]) == 1
    expect(view.locator(".notice").first).not_to_contain_text("Another phone")
    # voiding with no reason: said next to the reason, in the page's language
    page.locator("#lang").click()  # 한국어
    hand = view.locator('[data-hand="1"]')
    hand.get_by_role("button", name="무효로").click()
    hand.get_by_role("button", name="무효 처리").click()
    expect(hand.locator(".inline-error")).to_have_text("이유를 적어 주세요.")
    expect(hand.get_by_label("이유")).to_have_attribute("aria-invalid", "true")
    expect(hand.get_by_label("이유")).to_be_focused()


def test_a_wrong_stake_is_shown_and_a_renamed_player_keeps_its_cards(
    page: Page, watch: Any
) -> None:
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    hand = page.locator("#view-hand")
    expect(hand.locator("button.card").first).to_be_visible()
    give(hand, "A", BRIGHTS)
    expect(hand.locator('[data-preview-player="A"] .preview-points')).to_have_text("3 pt")
    hand.get_by_label("Player 1 name").fill("Minsu")
    hand.get_by_label("Player 1 name").press("Tab")
    expect(player_button(hand, "Minsu").locator(".player-sub")).to_have_text("3 pt ✓ · 3 cards")
    panel = hand.locator("details.rules-panel")
    panel.locator("> summary").click()
    stake = hand.get_by_label("Chips per point")
    for typed in ("0", ""):
        stake.fill(typed)
        with page.expect_request(lambda r: "/v1/gostop/hands" in r.url) as sent:
            stake.press("Tab")
        assert sent.value.post_data_json["stake"] != 1
        # said at the stake itself, tied to it for screen readers; under the outcome
        # buttons only as a line with the way there
        expect(stake).to_have_attribute("aria-invalid", "true")
        error = panel.locator(".inline-error")
        expect(error).to_be_visible()
        assert error.get_attribute("id") == stake.get_attribute("aria-describedby")
        expect(hand.locator(".errors").get_by_role("button", name="Show where")).to_have_count(1)
        panel.locator("> summary").click()  # closed: the outcome's answer opens it again
        expect(panel).not_to_have_attribute("open", "")
        hand.get_by_role("button", name="Minsu stops").click()
        expect(hand.locator(".result")).to_have_count(0)
        expect(panel).to_have_attribute("open", "")
        expect(error).to_be_visible()
        if typed == "0":
            expect(error).to_have_text("0 is below the minimum 1")
    page.locator("#lang").click()  # 한국어: the code's name and the limit, not the sentence
    stake = hand.get_by_label("점당 칩")
    stake.fill("0")
    with page.expect_request(lambda r: "/v1/gostop/hands" in r.url):
        stake.press("Tab")
    expect(hand.locator(".inline-error")).to_have_text("최솟값 미만 (0: 최소 1)")
    expect(stake).to_have_attribute("aria-invalid", "true")
    stake.fill("100")  # put right: the error goes, and the stake no longer points at it
    with page.expect_request(lambda r: "/v1/gostop/hands" in r.url):
        stake.press("Tab")
    expect(hand.locator(".inline-error")).to_have_count(0)
    expect(stake).not_to_have_attribute("aria-invalid", "true")
    expect(stake).not_to_have_attribute("aria-describedby", re.compile(".*"))


def delete_table(server: Server, table_id: str, token: str, version: int) -> int:
    request = urllib.request.Request(
        f"{server.base}/v1/tables/{table_id}",
        method="DELETE",
        headers={
            "Authorization": f"Bearer {token}",
            "Idempotency-Key": uuid.uuid4().hex,
            "If-Match": f'"{version}"',
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


def test_closed_gone_and_offline_tables_say_so(
    live_server: Server, browser: Browser, watch: Any
) -> None:
    scorer_context = browser.new_context(base_url=live_server.base, **PHONE)
    viewer_context = browser.new_context(base_url=live_server.base, **PHONE)
    try:
        scorer = create_table(scorer_context.new_page(), watch)
        entry = table_of(scorer)
        link = scorer.locator('[data-link="viewer"]').input_value()
        viewer = watch(viewer_context.new_page())
        viewer.goto(link)
        scorer.locator('#view-table [data-card="01-bright"]').focus()  # entering a hand
        live = viewer.locator("#view-table .totals-panel .live")
        expect(live).to_have_text(re.compile(r"^live · last change "))
        viewer_context.set_offline(True)
        expect(live).to_have_text(re.compile(r"^offline \(trying again\) · last change "))
        viewer_context.set_offline(False)
        expect(live).to_have_text(re.compile(r"^live · last change "))
        _status, read = api(live_server, "GET", f"/v1/tables/{entry['id']}", token=entry["token"])
        status, closed = api(
            live_server,
            "POST",
            f"/v1/tables/{entry['id']}/close",
            {},
            token=entry["token"],
            key=True,
            if_match=read["version"],
        )
        assert status == 200, closed
        expect(scorer.locator("#view-table .totals-panel .live")).to_contain_text("closed")
        expect(scorer.get_by_role("button", name="A stops")).to_have_count(0)
        # the focus, in the editor the close took away, is on the table's heading: it fell
        # to the page (a page probe)
        assert focused(scorer).startswith("H2 Table night"), focused(scorer)
        # its join code opens nothing any more: neither it, its link nor its QR code
        expect(scorer.locator("[data-join-code]")).to_have_count(0)
        expect(scorer.locator('[data-link="join"]')).to_have_count(0)
        expect(scorer.locator(".qr svg")).to_have_count(0)
        expect(live).to_contain_text("closed")
        deleted = delete_table(live_server, entry["id"], entry["token"], closed["version"])
        assert deleted in (200, 204)
        expect(live).to_contain_text("This table is gone")
    finally:
        scorer_context.close()
        viewer_context.close()


def test_a_reload_mid_night_reopens_the_table(page: Page, watch: Any) -> None:
    create_table(page, watch)
    enter_hand(page)
    page.reload()
    view = page.locator("#view-table")
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    expect(view.locator(".table-head h2")).to_contain_text("scorer")
    view.get_by_role("button", name="Leave this table").click()
    page.reload()
    expect(view.get_by_role("button", name="Create a table")).to_be_visible()


def focused(page: Page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e === document.body ? 'BODY' : `${e.tagName} ${e.textContent.trim()}`; }"
    )


def test_the_keyboard_focus_survives_redraws_and_enter_submits(
    live_server: Server, page: Page, watch: Any
) -> None:
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    hand = page.locator("#view-hand")
    expect(hand.locator("button.card").first).to_be_visible()
    hand.get_by_role("button", name="Counts").focus()
    page.keyboard.press("Enter")
    expect(hand.get_by_role("button", name="Counts")).to_be_focused()
    hand.get_by_role("button", name="Add a player").focus()
    page.keyboard.press("Enter")
    assert focused(page) != "BODY"
    hand.locator('.sitter [data-sitter="A"]').focus()
    page.keyboard.press("Enter")
    expect(hand.locator('.sitter [data-sitter="A"]')).to_be_focused()
    hand.get_by_role("button", name="Remove D").focus()
    page.keyboard.press("Enter")
    assert focused(page) != "BODY"
    # the table: Undo by keyboard, then a void whose reason is sent with Enter
    create_table(page, watch)
    view = page.locator("#view-table")
    entry = enter_hand(page)
    view.get_by_role("button", name="Undo").focus()
    page.keyboard.press("Enter")
    expect(view.locator('[data-hand="1"]')).to_have_count(0)
    assert focused(page) != "BODY"
    view.get_by_role("button", name="Redo").click()
    view.locator('[data-hand="1"]').get_by_role("button", name="Void").click()
    page.keyboard.type("entered twice")
    page.keyboard.press("Enter")
    expect(view.locator('[data-hand="1"]')).to_have_class("voided")
    assert focused(page) != "BODY"
    _status, read = api(
        live_server, "GET", f"/v1/tables/{entry['id']}/events", token=entry["token"]
    )
    assert read["events"][-1]["reason"] == "entered twice"


def test_two_losers_who_called_go_name_the_liable_one(
    live_server: Server, page: Page, watch: Any
) -> None:
    """Standard rules: B and C both called go, A stops — the API needs outcome.liable."""
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    hand = page.locator("#view-hand")
    expect(hand.locator("button.card").first).to_be_visible()
    give(hand, "A", BRIGHTS)
    give(hand, "B", ["06-junk-1"])
    give(hand, "C", ["07-junk-1"])
    for index in (1, 2):
        hand.locator("fieldset.player-flags").nth(index).get_by_role(
            "button", name="one Go more"
        ).click()
    hand.get_by_role("button", name="A stops").click()
    expect(hand.locator(".inline-error")).to_be_visible()
    expect(hand.locator(".result")).to_have_count(0)
    hand.get_by_label("Liable loser").select_option("B")
    hand.get_by_role("button", name="A stops").click()
    expect(hand.locator(".result")).to_be_visible()
    body = {
        "ruleset": "standard",
        "stake": 100,
        "players": [
            {"id": "A", "captured": BRIGHTS},
            {"id": "B", "captured": ["06-junk-1"], "go_count": 1},
            {"id": "C", "captured": ["07-junk-1"], "go_count": 1},
        ],
        "outcome": {"type": "stop", "winner": "A", "liable": "B"},
    }
    status, answer = api(live_server, "POST", "/v1/gostop/hands", body)
    assert status == 200, answer
    for player, chips in answer["net"].items():
        expect(hand.locator(f'.result [data-net="{player}"] .chips')).to_have_text(signed(chips))


def test_a_side_event_is_entered_and_paid(live_server: Server, page: Page, watch: Any) -> None:
    """첫뻑 by B: the hand's answer is the API's for the same body with the event."""
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    hand = page.locator("#view-hand")
    expect(hand.locator("button.card").first).to_be_visible()
    give(hand, "A", BRIGHTS)
    hand.locator(".side-events > summary").click()
    hand.get_by_label("first-turn ppuk", exact=True).select_option("B")
    hand.get_by_role("button", name="A stops").click()
    expect(hand.locator(".result")).to_be_visible()
    body = {
        "ruleset": "standard",
        "stake": 100,
        "players": [
            {"id": "A", "captured": BRIGHTS},
            {"id": "B", "captured": []},
            {"id": "C", "captured": []},
        ],
        "outcome": {"type": "stop", "winner": "A"},
        "events": [{"type": "first_ppuk", "player": "B"}],
    }
    status, answer = api(live_server, "POST", "/v1/gostop/hands", body)
    assert status == 200, answer
    assert any(p["reason"] == "first_ppuk" for p in answer["payments"])
    for player, chips in answer["net"].items():
        expect(hand.locator(f'.result [data-net="{player}"] .chips')).to_have_text(signed(chips))


def test_a_correction_of_a_hand_voided_meanwhile_ends_and_never_brings_it_back(
    live_server: Server, page: Page, watch: Any
) -> None:
    """Another phone voids the hand being corrected: the correction ends and says why; a
    tap on an outcome then is no PUT that would count the voided hand again."""
    create_table(page, watch)
    entry = enter_hand(page)
    table = page.locator("#view-table")
    table.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    table.locator(".correcting").get_by_label("Reason").fill("go count")
    assert another_phone_writes(live_server, page, "/hands/1/void", {"reason": "wrong"}) == 200
    table.get_by_role("button", name="A stops").click()
    expect(table.locator("> p.notice")).to_contain_text("Hand 1 was voided")
    expect(table.locator(".correcting")).to_be_empty()
    table.get_by_role("button", name="A stops").click()
    expect(table.locator('[data-hand="1"]')).to_contain_text("void")
    _status, events = api(
        live_server, "GET", f"/v1/tables/{entry['id']}/events", token=entry["token"]
    )
    assert [e["type"] for e in events["events"]][-1] == "voided", events["events"]


def test_a_correction_of_a_hand_undone_meanwhile_ends(page: Page, watch: Any) -> None:
    """A hand undone away while it is being corrected: the correction ends and says why.
    (A page of its own: a table left open saves itself as the page unloads, so clearing
    the storage and reloading may reopen it.)"""
    create_table(page, watch)
    enter_hand(page)
    table = page.locator("#view-table")
    table.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    expect(table.locator(".correcting")).to_contain_text("Correcting hand 1")
    table.get_by_role("button", name="Undo").click()
    expect(table.locator('[data-hand="1"]')).to_have_count(0)
    expect(table.locator("> p.notice")).to_contain_text("Hand 1 is no longer on the table")
    expect(table.locator(".correcting")).to_be_empty()


def test_a_table_hands_result_speaks_the_pages_language_and_stays_through_a_switch(
    page: Page, watch: Any
) -> None:
    create_table(page, watch)
    enter_hand(page)
    result = page.locator("#view-table .result")
    expect(result).to_contain_text("three brights 3 pt")
    expect(result).not_to_contain_text("삼광")
    page.locator("#lang").click()  # 한국어: the result shown stays, in Korean
    expect(result).to_contain_text("삼광 3점")
    page.locator("#lang").click()
    expect(result).to_contain_text("three brights 3 pt")


def test_korean_create_errors_keep_the_name_and_the_limit(page: Page, watch: Any) -> None:
    korean(page, watch)
    page.get_by_role("button", name="테이블").click()
    table = page.locator("#view-table")
    roster = table.locator("textarea")
    create = table.get_by_role("button", name="테이블 만들기")
    roster.fill("가\n가\n나")
    create.click()
    expect(table.locator(".errors")).to_contain_text("중복 플레이어 ('가')")
    roster.fill("\n".join(str(i) for i in range(11)))
    create.click()
    expect(table.locator(".errors")).to_contain_text("많아야 10개")
    roster.fill("x" * 50 + "\nB")
    assert roster.input_value() == "x" * 40 + "\nB"  # capped as the one-hand inputs are


def test_a_sitter_who_sold_nothing_sat_out(page: Page, watch: Any) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    hand.get_by_role("button", name="Add a player").click()  # D sits out
    give(hand, "A", BRIGHTS)
    # the preview too says D sat out (it said "0 pt · may not stop")
    expect(hand.locator('[data-preview-player="D"]')).to_have_text(
        "D Sat this hand out (sold nothing)."
    )
    hand.get_by_role("button", name="A stops").click()
    sitter = hand.locator('.result [data-player="D"]')
    expect(sitter).to_contain_text("Sat this hand out (sold nothing)")
    hand.get_by_role("button", name="one Cards D sells more").click()
    expect(hand.locator('[data-preview-player="D"]')).to_contain_text("sold 1 card")
    hand.get_by_role("button", name="A stops").click()
    expect(sitter).to_contain_text("sold 1 card")


def test_open_and_leave_put_the_focus_on_the_heading_at_the_top(page: Page, watch: Any) -> None:
    create_table(page, watch)
    focused = "[document.activeElement.tagName, document.activeElement.textContent, scrollY]"
    tag, text, scrolled = page.evaluate(focused)
    assert (tag, scrolled) == ("H2", 0)
    assert "Table night" in text
    page.get_by_role("button", name="Leave this table").click()
    tag, text, scrolled = page.evaluate(focused)
    assert (tag, text, scrolled) == ("H2", "Create a table", 0)


def test_long_names_keep_the_player_bar_short_and_counts_say_what_they_ask(
    page: Page, watch: Any
) -> None:
    watch(page)
    page.goto("/")
    names = [letter * 40 for letter in "ABC"]
    page.evaluate(f"localStorage.clear(); localStorage['gostop.roster'] = '{json.dumps(names)}'")
    page.reload()
    bar = page.locator("#view-hand .player-bar")
    expect(bar.locator(".player")).to_have_count(3)
    # under the cards' scroll-margin-top (6rem), once laid out (a loaded machine may
    # measure before the page's styles have applied: waited for, up to the usual timeout)
    page.wait_for_function(
        "document.querySelector('#view-hand .player-bar').getBoundingClientRect().height < 96"
    )
    assert bar.bounding_box()["height"] < 96
    expect(bar.locator(".player").first).to_have_attribute("title", names[0])
    hand = page.locator("#view-hand")
    hand.get_by_role("button", name="Counts").click()
    status = hand.locator("p.hint[role=status]").first
    expect(status).to_contain_text("For each player below")
    bar.locator(".player").first.click()
    expect(status).to_contain_text(f"{names[0]}'s counts")


def test_what_if_stays_through_a_language_switch(page: Page, watch: Any) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    give(hand, "A", BRIGHTS)
    hand.get_by_role("button", name="A stops").click()
    hand.locator(".what-if select").select_option("wikipedia")
    hand.locator(".what-if").get_by_role("button", name="Compare").click()
    expect(hand.locator('[data-compare="A"]')).to_be_visible()
    page.locator("#lang").click()
    expect(hand.locator('[data-compare="A"]')).to_be_visible()
    expect(hand.locator(".what-if select")).to_have_value("wikipedia")


def test_the_korean_page_names_the_presets_in_korean(page: Page, watch: Any) -> None:
    """GET /v1/rulesets titles and describes its presets in English; the Korean page had
    shown "standard — Standard Korean Go-Stop" and an English description."""
    korean(page, watch)
    hand = page.locator("#view-hand")
    picker = hand.locator("select").filter(has=page.locator('option[value="wikipedia"]')).first
    expect(picker.locator('option[value="standard"]')).to_have_text("standard — 표준 고스톱")
    expect(picker.locator('option[value="minhwatu"]')).to_have_text("minhwatu — 민화투")
    expect(hand.get_by_text("흔히 치는 규칙", exact=False)).to_be_attached()
    page.get_by_role("button", name="English").click()
    expect(picker.locator('option[value="standard"]')).to_have_text(
        "standard — Standard Korean Go-Stop"
    )


def test_a_chongtong_priced_in_chips_says_its_base_in_chips(
    live_server: Server, page: Page, watch: Any
) -> None:
    """chongtong_chips (a 총통 priced in money): the winner's part counts chips, and the
    page called its first line "base points" (the review of 2026-12-06)."""
    fresh(page, watch)
    hand: dict[str, Any] = {
        "stake": 10,
        "players": [{"id": p, "captured": []} for p in "ABC"],
        "outcome": {"type": "chongtong", "winner": "A"},
    }
    shown = []
    for options in ({"chongtong_chips": 300}, {}):
        hand["ruleset"] = {"preset": "standard", "options": options}
        status, answer = api(live_server, "POST", "/v1/gostop/hands?lang=all", hand)
        assert status == 200
        shown.append(
            page.evaluate(
                """async (answer) => {
                  const { renderResult } = await import("/assets/result.js");
                  return renderResult(answer).querySelector(".winner-steps li").textContent;
                }""",
                answer,
            )
        )
    assert shown == ["base chips 300", "base points 3"]


# A word of a button broken over two lines, each word measured by its own text range
BROKEN_WORDS = """(root) => [...root.querySelectorAll(arguments_selector)].flatMap((button) => {
  const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
  const broken = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/\\S+/g)) {
      if (match[0].length > 20) continue; // longer than a line may be: it breaks
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
})"""


def test_names_and_labels_on_buttons_break_between_words(page: Page, watch: Any) -> None:
    """At 320 px, in Korean and in English: a sitter's, an outcome's and the language
    button's words each stay on one line ("김철/수", "chongton/g" and "한국/어" were), and
    nothing is wider than the screen."""
    names = ["김철수", "이영희", "Christopher-Alexander-Montgomery-Smith", "최지우"]
    page.set_viewport_size({"width": 320, "height": 800})
    watch(page)
    page.goto("/")
    for lang in ("ko", "en"):
        page.evaluate(
            "([names, lang]) => { localStorage.clear();"
            " localStorage.setItem('gostop.roster', JSON.stringify(names));"
            " localStorage.setItem('gostop.lang', JSON.stringify(lang)); }",
            [names, lang],
        )
        page.reload()
        hand = page.locator("#view-hand")
        expect(hand.locator("[data-sitter]")).to_have_count(4)
        selector = "[data-sitter], .outcome-row button, #lang"
        broken = page.locator("body").evaluate(
            BROKEN_WORDS.replace("arguments_selector", repr(selector))
        )
        assert broken == [], (lang, broken)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, (lang, width)


def test_counts_no_pile_holds_say_what_to_tick_in_the_pages_words(page: Page, watch: Any) -> None:
    """Counts no pile can hold: in Korean the problem's name alone was said ("불가능한
    집계"); in English the API's field names ("set rain_bright to true"). Both now say
    which checkbox to tick, or what to count fewer, by the checkboxes' own words."""
    korean(page, watch)
    page.get_by_role("button", name="개수로 입력").click()
    a = page.locator("fieldset.counts").nth(0)
    for _ in range(5):
        a.get_by_role("button", name="광 하나 늘리기").click()
    for _ in range(10):
        a.get_by_role("button", name="띠 하나 늘리기").click()
    errors = a.locator(".inline-error")
    expect(errors.first).to_be_visible()
    expect(page.locator("#view-hand")).to_contain_text("광 5장 → '비광 포함' 체크, 또는 광 줄이기")
    expect(page.locator("#view-hand")).to_contain_text(
        "띠 10장: 홍단·청단·초단 없이 최대 7장 → 가진 것 체크, 또는 띠 줄이기"
    )
    page.locator("#lang").click()  # English: the checkboxes' words, not the API's fields
    expect(page.locator("#view-hand")).to_contain_text('tick "rain man among them"')
    expect(page.locator("#view-hand")).to_contain_text(
        'tick what is held ("hongdan" or "cheongdan" or "chodan")'
    )


def test_card_badges_tell_players_apart(page: Page, watch: Any) -> None:
    """A card's badge is two letters of its holder's name: 김민수's and 김민지's were both
    "김민" (only the colour told them apart); now the last two letters when the first two
    clash (a family name), the place when those clash too; an emoji is one letter."""
    watch(page)
    page.goto("/")
    cases = [
        (["김민수", "김민지", "이영희"], ["민수", "민지", "이영"]),
        (["Ann", "Anna", "Bo"], ["nn", "na", "Bo"]),
        (["Kim", "Kim", "C"], ["1", "2", "C"]),
        (["😀😀x", "B"], ["😀😀", "B"]),
    ]
    for names, expected in cases:
        found = page.evaluate(
            "async (names) => (await import('/assets/hand.js')).badges(names)", names
        )
        assert found == expected, (names, found)
    page.evaluate(
        "localStorage.clear(); localStorage.setItem('gostop.roster',"
        " JSON.stringify(['김민수', '김민지', 'C']))"
    )
    page.reload()
    hand = page.locator("#view-hand")
    give(hand, "김민수", ["01-bright"])
    give(hand, "김민지", ["03-bright"])
    expect(hand.locator('[data-card="01-bright"] .badge')).to_have_text("민수")
    expect(hand.locator('[data-card="03-bright"] .badge')).to_have_text("민지")


def test_a_sale_of_more_brights_than_are_left_gives_its_facts_in_korean(
    page: Page, watch: Any
) -> None:
    """광팔기 past the brights left read "덱 초과" alone in Korean (a player's pass): now
    with what is held and what to do, the rain man left too (the API's own details)."""
    korean(page, watch)
    expect(page.locator("button.card").first).to_be_visible()  # the codes' names are known
    held = "the players hold 4 of the deck's 5 brights (철수 3, 민수 1)"
    cases = [
        (
            f"sold_brights is 1, but {held}; the bright left is the rain man, and it does "
            "not sell alone under this rule set (gwangpal_rain_alone): sell fewer, or "
            "correct the brights held",
            "1장 팔기: 광 5장 중 4장을 이미 가짐 (철수 3, 민수 1), 남은 비광은 혼자 팔 수 없음",
        ),
        (
            f"sold_brights is 2, but {held}: sell fewer, or correct the brights held",
            "2장 팔기: 광 5장 중 4장을 이미 가짐 (철수 3, 민수 1) → 덜 팔거나 광 고치기",
        ),
    ]
    for detail, said in cases:
        entry = {"pointer": "/players/3/sold_brights", "code": "deck_exceeded", "detail": detail}
        text = page.evaluate(
            "async (entry) => (await import('/assets/i18n.js')).problemText(entry)", entry
        )
        assert said in text, text
