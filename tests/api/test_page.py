"""The scorekeeper page is served at / with its own strict policy (the browser tests in
tests/browser click through it; these check what the server sends)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from calculator.api import create_app
from calculator.api.page import STATIC


@pytest.fixture(scope="module")
def plain() -> Any:
    """A client that does not check answers against the API document: / is not the API."""
    return create_app({"access_log": False}).test_client()


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_the_page_is_served_at_the_root_with_a_policy_that_allows_only_its_own_files(
    plain: Any,
) -> None:
    answer = plain.get("/")
    assert answer.status_code == 200
    assert answer.mimetype == "text/html"
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy
    assert "style-src 'self';" in policy
    assert "connect-src 'self';" in policy
    assert "unsafe-inline" not in policy
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    parser = _Tags()
    parser.feed(answer.get_data(as_text=True))
    scripts = [attrs for tag, attrs in parser.tags if tag == "script"]
    assert scripts, "the page loads its module"
    # no inline script or style: the policy would refuse them
    assert all(attrs.get("src", "").startswith("/assets/") for attrs in scripts)
    assert not any(tag == "style" or "style" in attrs for tag, attrs in parser.tags)


def test_every_module_and_stylesheet_is_served_and_nothing_comes_from_elsewhere(
    plain: Any,
) -> None:
    files = sorted(p for p in STATIC.iterdir() if p.suffix in {".js", ".css"})
    assert {p.name for p in files} >= {"app.js", "app.css"}
    for path in files:
        answer = plain.get(f"/assets/{path.name}")
        assert answer.status_code == 200, path.name
        if path.suffix == ".js":
            assert answer.mimetype == "text/javascript"  # served as an ES module
        text = answer.get_data(as_text=True)
        # no external asset, CDN or inline-HTML writing (the page builds the DOM as nodes)
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), path.name
        assert not re.search(r"\.(inner|outer)HTML\s*=|insertAdjacentHTML|document\.write", text)
        assert "eval(" not in text, path.name


def test_the_api_keeps_its_own_stricter_policy(plain: Any) -> None:
    answer = plain.get("/v1/rulesets")
    assert answer.headers["Content-Security-Policy"] == (
        "default-src 'none'; frame-ancestors 'none'"
    )


def test_the_static_files_ship_in_the_package() -> None:
    """setup.py's package data names the page's files, so a wheel install serves them."""
    setup = (Path(__file__).parents[2] / "setup.py").read_text()
    assert '"web/static/*"' in setup
