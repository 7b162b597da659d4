"""GET /v1/rules in a browser: an option's link from the catalogue opens the rules page at
its section, styled, with no Content-Security-Policy violation."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from bench.server import Server
from tests.browser.test_page import api


def test_an_options_link_opens_the_rules_page_at_its_section(
    page: Page, watch: Any, axe: Any, live_server: Server
) -> None:
    status, preset = api(live_server, "GET", "/v1/rulesets/standard")
    assert status == 200
    link = next(o["link"] for o in preset["options"] if o["link"].endswith("#45-피박-pi-bak"))
    watch(page)
    page.goto(link)
    heading = page.locator('[id="45-피박-pi-bak"]')
    expect(heading).to_have_text("4.5 피박 (pi-bak)")
    expect(heading).to_be_in_viewport()  # the browser followed the fragment
    # the inline style applied: the policy's hash allows it
    assert page.evaluate("getComputedStyle(document.body).maxWidth") == "800px"
    axe(page, "rules")
