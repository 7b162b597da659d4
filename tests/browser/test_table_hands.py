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
from tests.browser.test_page import api


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
    # the ledger's own reading of the same log (calculator/ledger/state.py)
    rows = [
        EventRow(**{**e, "body": None if e["body"] is None else orjson.dumps(e["body"]).decode()})
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
