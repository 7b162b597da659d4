"""The README's screenshots, at phone size (360×800): the card picker, a result and a
table's totals. A slow test (``python -m pytest -m slow tests/browser``) that rewrites
docs/screenshots/*.png from the live page; review the images before committing them.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from bench.server import Server

SHOTS = Path(__file__).parents[2] / "docs" / "screenshots"
PHONE = {"width": 360, "height": 800}

pytestmark = [pytest.mark.slow, pytest.mark.packed]


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


def shoot(page: Page, name: str) -> None:
    path = SHOTS / f"{name}.png"
    page.screenshot(path=path)
    assert png_size(path) == (PHONE["width"], PHONE["height"])


def tap(page: Page, root: str, player: str, cards: list[str]) -> None:
    area = page.locator(root)
    area.locator(".player-bar .player").nth(player_index(player)).click()
    for card in cards:
        area.locator(f'[data-card="{card}"]').click()
    area.locator(".player-bar .player").nth(player_index(player)).click()


def player_index(name: str) -> int:
    return {"A": 0, "B": 1, "C": 2, "민수": 0, "지영": 1, "현우": 2}[name]


def test_screenshots(live_server: Server, browser: Browser, watch: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(base_url=live_server.base, viewport=PHONE, locale="en-US")
    page = watch(context.new_page())
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    tap(page, "#view-hand", "A", ["01-bright", "03-bright", "08-bright", "01-ribbon", "02-ribbon"])
    tap(page, "#view-hand", "B", ["12-bright", "03-ribbon", "06-junk-1"])
    tap(page, "#view-hand", "C", ["05-junk-1", "09-junk-1"])
    page.locator("#view-hand .player-bar .player").first.click()
    page.locator('#view-hand [data-card="01-junk-1"]').click()
    expect(page.locator('[data-preview-player="A"]')).to_contain_text("3 pt")
    page.locator("#view-hand .month").first.evaluate(
        "e => { e.scrollIntoView(); window.scrollBy(0, -96); }"
    )
    shoot(page, "card-picker")

    page.get_by_role("button", name="A stops").click()
    expect(page.locator(".result")).to_be_visible()
    page.locator(".result").evaluate("e => e.scrollIntoView()")
    shoot(page, "result")

    page.evaluate("localStorage.clear()")
    page.reload()
    page.get_by_role("button", name="한국어").click()
    page.get_by_role("button", name="테이블").click()
    page.get_by_label("참가자").fill("민수\n지영\n현우\n수진")
    page.locator("#view-table").get_by_role("button", name="테이블 만들기").click()
    expect(page.locator("[data-join-code]")).to_be_visible()
    tap(page, "#view-table", "민수", ["01-bright", "03-bright", "08-bright", "02-junk-1"])
    page.locator("#view-table").get_by_role("button", name="민수 스톱").click()
    expect(page.locator('[data-hand="1"]')).to_be_visible()
    tap(page, "#view-table", "지영", ["01-ribbon", "02-ribbon", "03-ribbon", "04-junk-1"])
    page.locator("#view-table").get_by_role("button", name="지영 스톱").click()
    expect(page.locator('[data-hand="2"]')).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "table-totals")
    context.close()
