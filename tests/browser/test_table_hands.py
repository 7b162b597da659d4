"""Table hands on the page beyond the basic night: a correction starts from the body in
effect (undo and redo included), four players with one sitting out (광팔기), and a roster
bigger than the seats (who plays each hand is chosen)."""

from __future__ import annotations

import re
from typing import Any

import orjson
from playwright.sync_api import Page, expect

from bench.server import Server
from calculator.api import ledger_io
from calculator.store import EventRow
from tests.browser.test_page import (
    PILES,
    STAKE,
    api,
    assert_shows,
    assert_tap_targets,
    create_table,
    fresh,
    player_button,
    signed,
    tap_piles,
)


def tallied(ones: int) -> dict[str, Any]:
    """A 3-player hand A wins with three brights and ``ones`` junk points (its marker)."""
    return {
        "players": [
            {"id": "A", "tally": {"brights": 3, "junk_value": ones}},
            {"id": "B", "tally": {"junk_value": 7}},
            {"id": "C", "tally": {"junk_value": 6}},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }


class Table:
    """A table written to through the API, as another phone would."""

    def __init__(self, server: Server, roster: list[str]) -> None:
        self.server = server
        status, created = api(server, "POST", "/v1/tables", {"roster": roster}, key=True)
        assert status == 201, created
        self.id, self.token = created["id"], created["scorer_token"]
        self.version = created["version"]

    def write(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = api(
            self.server,
            method,
            f"/v1/tables/{self.id}{path}",
            body,
            token=self.token,
            key=True,
            if_match=self.version,
        )
        assert status in (200, 201), answer
        self.version += 1
        return answer

    def events(self) -> list[dict[str, Any]]:
        status, answer = api(self.server, "GET", f"/v1/tables/{self.id}/events", token=self.token)
        assert status == 200
        return answer["events"]

    def open_on(self, page: Page, watch: Any) -> Page:
        """The page opened as this table's scorer (as from "Tables on this device")."""
        watch(page)
        page.goto("/")
        entry = {"id": self.id, "token": self.token, "role": "scorer", "join_code": None}
        page.evaluate(
            "(entry) => { localStorage.clear();"
            " localStorage.setItem('gostop.tables', JSON.stringify([entry]));"
            " localStorage.setItem('gostop.view', JSON.stringify('table')); }",
            entry,
        )
        page.reload()
        page.locator("#view-table .my-tables button").click()
        expect(page.locator("#view-table .totals")).to_be_visible()
        return page


def test_current_bodies_replays_the_log_as_the_ledger_does(
    live_server: Server, page: Page, watch: Any
) -> None:
    """edits.js against the ledger itself: the same log, the same hands in effect."""
    table = Table(live_server, ["A", "B", "C"])
    table.write("POST", "/hands", tallied(1))
    table.write("POST", "/hands", tallied(2))
    table.write("PUT", "/hands/2", {"hand": tallied(3), "reason": "r"})
    table.write("POST", "/undo")  # hand 2 is tallied(2) again
    table.write("PUT", "/hands/1", {"hand": tallied(4), "reason": "r"})  # redo emptied
    table.write("POST", "/hands/2/void", {"reason": "r"})
    table.write("POST", "/undo")  # the void
    table.write("POST", "/undo")  # hand 1 back to tallied(1)
    table.write("POST", "/redo")  # hand 1 tallied(4) again
    table.write("POST", "/hands", tallied(5))
    table.write("PUT", "/hands/3", {"hand": tallied(6), "reason": "r"})
    table.write("POST", "/undo")
    table.write("POST", "/undo")  # hand 3 gone
    table.write("POST", "/redo")  # hand 3 back, as tallied(5)
    events = table.events()
    watch(page)
    page.goto("/")
    bodies = page.evaluate(
        "async (events) => (await import('/assets/edits.js')).currentBodies(events)", events
    )
    assert [b["players"][0]["tally"]["junk_value"] for b in bodies] == [4, 2, 5]
    # each event names the hand it is about (derived: the log stores a correction's and a
    # void's alone), worked out by hand from the writes above
    about = [None, 1, 2, 2, 2, 1, 2, 2, 1, 1, 3, 3, 3, 3, 3]
    assert [e["number"] for e in events] == about
    # the ledger's own reading of the same log (calculator/ledger/state.py), as stored
    stores_number = ("corrected", "voided")
    rows = [
        EventRow(
            **{
                **e,
                "number": e["number"] if e["type"] in stores_number else None,
                "body": None if e["body"] is None else orjson.dumps(e["body"]).decode(),
            }
        )
        for e in events
    ]
    ledger, _roster = ledger_io.rebuild(rows)
    variant = ledger.setup.variant
    assert [e.hand for e in ledger.entries] == [ledger_io.load_play(variant, b) for b in bodies]


def test_correct_starts_from_the_hand_in_effect_after_an_undo(
    live_server: Server, page: Page, watch: Any
) -> None:
    table = Table(live_server, ["A", "B", "C"])
    table.write("POST", "/hands", tallied(1))
    table.write("PUT", "/hands/1", {"hand": tallied(9), "reason": "typo"})
    table.write("POST", "/undo")  # the correction is taken back: junk 1 is in effect
    table.open_on(page, watch)
    view = page.locator("#view-table")
    view.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    junk = view.locator("fieldset.counts").first.get_by_role("group", name=re.compile("^Junk"))
    expect(junk.locator("output")).to_have_text("1")
    # redo brings the correction back, and the editor follows it
    view.get_by_role("button", name="Cancel").click()
    view.get_by_role("button", name="Redo").click()
    expect(view.get_by_role("button", name="Redo")).to_be_disabled()
    view.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    expect(junk.locator("output")).to_have_text("9")


def test_a_voided_hand_is_brought_back_as_it_was(
    live_server: Server, page: Page, watch: Any
) -> None:
    """The page's "Bring back" counts a voided hand again without undoing later hands: the API's
    correction of a voided hand, sent with the body the hand had and a reason."""
    table = Table(live_server, ["A", "B", "C"])
    first = table.write("POST", "/hands", tallied(1))["result"]["net"]
    table.write("POST", "/hands", tallied(2))
    table.write("POST", "/hands/1/void", {"reason": "entered twice"})
    table.write("POST", "/hands", tallied(3))  # after the void: undo would take this back
    status, before = api(live_server, "GET", f"/v1/tables/{table.id}", token=table.token)
    assert status == 200
    table.open_on(page, watch)
    view = page.locator("#view-table")
    hand = view.locator('[data-hand="1"]')
    expect(hand).to_have_class("voided")
    expect(hand.get_by_role("button", name="Correct")).to_have_count(0)
    hand.get_by_role("button", name="Bring back").click()
    hand.get_by_label("Reason").fill("it was not a double")
    hand.get_by_role("button", name="Count it again").click()
    expect(hand).not_to_have_class("voided")
    # Undo would take back the bringing back, and says so (it read "hand 1 corrected")
    expect(view.locator(".undo-what")).to_have_text(
        ["Undo takes back: hand 1 brought back · by the table's owner"]
    )
    totals = {p: before["totals"][p] + first[p] for p in "ABC"}
    expect(view.locator('[data-total="A"] .chips')).to_have_text(signed(totals["A"]))
    status, after = api(live_server, "GET", f"/v1/tables/{table.id}", token=table.token)
    assert status == 200
    assert [h["status"] for h in after["hands"]] == ["active"] * 3
    assert after["totals"] == totals
    last = table.events()[-1]
    assert (last["type"], last["number"], last["reason"]) == (
        "corrected",
        1,
        "it was not a double",
    )
    assert last["body"] == tallied(1)  # the body it had, not another


def test_four_players_one_sits_out_and_sells(
    live_server: Server, page: Page, watch: Any, axe: Any
) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    hand.get_by_role("button", name="Add a player").click()  # D
    expect(hand.locator("[data-sitter='D']")).to_have_attribute("aria-pressed", "true")
    hand.locator("[data-sitter='C']").click()  # C sits out; D plays what C had
    expect(player_button(hand, "C")).to_have_count(0)
    expect(hand.get_by_role("button", name="C stops")).to_have_count(0)
    # one: A and B hold four brights, so C's hand can hold only the fifth
    hand.get_by_role("button", name="one Cards C sells more").click()
    for player, pile in (("A", PILES["A"]), ("B", PILES["B"]), ("D", PILES["C"])):
        player_button(hand, player).click()
        for card in pile:
            hand.locator(f'[data-card="{card}"]').click()
        player_button(hand, player).click()
    # the preview says C sat out and what it sold (no points, no stop)
    expect(hand.locator('[data-preview-player="C"]')).to_contain_text(
        "Sat this hand out and sold 1"
    )
    expect(hand.locator('[data-preview-player="A"] .preview-points')).to_be_visible()
    axe(page, "four players, one sitting out")
    assert_tap_targets(page)
    hand.get_by_role("button", name="A stops").click()
    body = {
        "ruleset": "standard",
        "stake": STAKE,
        "players": [
            {"id": "A", "captured": PILES["A"]},
            {"id": "B", "captured": PILES["B"]},
            {"id": "C", "sits_out": True, "sold_brights": 1},
            {"id": "D", "captured": PILES["C"]},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    status, answer = api(live_server, "POST", "/v1/gostop/hands", body)
    assert status == 200, answer
    assert answer["net"]["C"] > 0  # the sitter is paid for what it sold
    assert_shows(page, answer)
    # a sale the rule set refuses is shown at the stepper (six: more than a hand sells)
    for _ in range(5):
        hand.get_by_role("button", name="one Cards C sells more").click()
    stepper = hand.get_by_role("group", name="Cards C sells")
    expect(stepper.locator("xpath=following-sibling::p[1]")).to_have_attribute(
        "data-code", "impossible_count"
    )


def test_a_roster_bigger_than_the_table_chooses_who_plays(
    live_server: Server, page: Page, watch: Any, axe: Any
) -> None:
    watch(page)
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.get_by_role("button", name="Table night").click()
    page.get_by_label("Roster").fill("A\nB\nC\nD\nE")
    view = page.locator("#view-table")
    view.get_by_role("button", name="Create a table").click()
    plays = {p: view.locator(f"input[data-plays='{p}']") for p in "ABCDE"}
    # four play at first (D sits out), so E waits: at most four play a hand
    expect(plays["E"]).to_be_disabled()
    expect(view.locator(".hand-players")).to_contain_text("At most four play a hand")
    plays["D"].uncheck()  # D goes home; E comes in and sits out
    plays["E"].check()
    expect(plays["D"]).to_be_disabled()
    expect(view.locator("[data-sitter='E']")).to_have_attribute("aria-pressed", "true")
    view.get_by_role("button", name="one Cards E sells more").click()
    tap_piles(view)
    axe(page, "table: choosing who plays")
    view.get_by_role("button", name="A stops").click()
    expect(view.locator('[data-hand="1"]')).to_be_visible()
    table_id, token = table_of(page)
    status, table = api(live_server, "GET", f"/v1/tables/{table_id}", token=token)
    assert status == 200
    body = {
        "stake": table["stake"],
        "players": [
            {"id": "A", "captured": PILES["A"]},
            {"id": "B", "captured": PILES["B"]},
            {"id": "C", "captured": PILES["C"]},
            {"id": "E", "sits_out": True, "sold_brights": 1},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    status, answer = api(live_server, "POST", "/v1/gostop/hands", body)
    assert status == 200, answer
    assert table["totals"] == {**answer["net"], "D": 0}  # D did not play hand 1
    for player, chips in table["totals"].items():
        expect(view.locator(f'[data-total="{player}"] .chips')).to_have_text(signed(chips))
    # the correction comes back with the same seats: E sat out and sold one card
    view.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    expect(view.locator("[data-sitter='E']")).to_have_attribute("aria-pressed", "true")
    expect(view.get_by_role("group", name="Cards E sells").locator("output")).to_have_text("1")
    expect(plays["D"]).not_to_be_checked()
    expect(plays["D"]).to_be_disabled()


def table_of(page: Page) -> tuple[str, str]:
    """The id and scorer token of the table the page has open (what the device keeps)."""
    entry = page.evaluate("JSON.parse(localStorage.getItem('gostop.tables'))[0]")
    return entry["id"], entry["token"]


def balance_piles(root: Any) -> None:
    """A's and B's cards tapped (PILES), then every card left to C."""
    for player in ("A", "B"):
        player_button(root, player).click()
        for card in PILES[player]:
            root.locator(f'[data-card="{card}"]').click()
        player_button(root, player).click()
    root.get_by_role("button", name="The rest to C").click()


def balance_body(server: Server, stake: int) -> dict[str, Any]:
    """What balance_piles enters, as POST /v1/balance/hands takes it."""
    status, catalogue = api(server, "GET", "/v1/cards?ruleset=balance")
    assert status == 200
    taken = {*PILES["A"], *PILES["B"]}
    rest = [c["id"] for c in catalogue["cards"] if c["in_deck"] and c["id"] not in taken]
    return {
        "ruleset": "balance",
        "stake": stake,
        "players": [
            {"id": "A", "captured": PILES["A"]},
            {"id": "B", "captured": PILES["B"]},
            {"id": "C", "captured": rest},
        ],
    }


def test_a_balance_hand_120_80_60(live_server: Server, page: Page, watch: Any, axe: Any) -> None:
    fresh(page, watch)
    hand = page.locator("#view-hand")
    hand.locator("summary").first.click()
    hand.locator("select").first.select_option("balance")
    expect(hand.get_by_role("button", name="Counts")).to_have_count(0)  # cards only
    expect(hand.get_by_role("button", name="A stops")).to_have_count(0)  # no outcome
    player_button(hand, "A").click()
    hand.locator('[data-card="01-bright"]').click()
    expect(hand.locator(".preview")).to_contain_text("cards nobody holds yet")
    player_button(hand, "A").click()
    hand.get_by_role("button", name="Clear every pile").click()
    balance_piles(hand)
    axe(page, "balance hand")
    assert_tap_targets(page)
    hand.get_by_role("button", name="Score the hand").click()
    status, answer = api(live_server, "POST", "/v1/balance/hands", balance_body(live_server, STAKE))
    assert status == 200, answer
    assert not answer["void"]
    assert answer["transfers"]
    result = page.locator(".result")
    for player in answer["players"]:
        expect(result.locator(f'[data-player="{player["id"]}"] .points')).to_have_text(
            f"{player['total']:,} pt".replace("-", "−")  # a true minus sign, as every number
        )
    expect(result.locator(".payment .chips")).to_have_text(
        [f"{x['chips']:,} chips" for x in answer["transfers"]]
    )
    for player, net in answer["net"].items():
        expect(result.locator(f'[data-net="{player}"] .chips')).to_have_text(signed(net))
    expect(result).to_contain_text("Break-even 80 points")
    axe(page, "balance result")


def score_a_balance_table_hand(page: Page, watch: Any) -> Any:
    """A balance table of A, B and C created from a fresh device, and its first hand
    (balance_piles) scored: the table's view."""
    create_table(page, watch, ruleset="balance")
    view = page.locator("#view-table")
    balance_piles(view)
    view.get_by_role("button", name="Score the hand").click()
    expect(view.locator('[data-hand="1"]')).to_contain_text("balance hand (120/80/60)")
    return view


def test_a_balance_table(live_server: Server, page: Page, watch: Any) -> None:
    view = score_a_balance_table_hand(page, watch)
    table_id, token = table_of(page)
    status, table = api(live_server, "GET", f"/v1/tables/{table_id}", token=token)
    assert table["variant"] == "balance"
    status, answer = api(
        live_server, "POST", "/v1/balance/hands", balance_body(live_server, table["stake"])
    )
    assert status == 200, answer
    assert table["totals"] == answer["net"]
    for player, chips in table["totals"].items():
        expect(view.locator(f'[data-total="{player}"] .chips')).to_have_text(signed(chips))
    # a correction brings the cards back
    view.locator('[data-hand="1"]').get_by_role("button", name="Correct").click()
    expect(view.locator('[data-card="01-bright"]')).to_have_class(re.compile(r"\bheld\b"))
    expect(player_button(view, "C")).to_contain_text(f"{48 - 9} cards")
