"""The scorekeeper page (SPEC §10): static files served at ``/`` beside the API.

The page is plain ES modules and CSS in ``calculator/web/static`` (shipped as package
data): no build step, nothing loaded from anywhere else, so it works on a table's local
network with no internet. It talks to the service only through the public API under
``/v1``, like any other app.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
ASSETS = "/assets"
# The page's own policy: its scripts, styles and images only (no inline script or style
# element, so no hash or nonce is needed); it may fetch only this origin's API. The JSON
# answers keep the stricter default of calculator.api.http.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)

page = Blueprint("page", __name__, static_folder=str(STATIC), static_url_path=ASSETS, url_prefix="")


@page.get("/")
def index() -> Response:
    """The page itself (one HTML shell; the modules draw everything else)."""
    return page.send_static_file("index.html")


@page.after_request
def page_policy(response: Response) -> Response:
    """The page's Content-Security-Policy and caching: revalidate every load (ETag), so
    a new version is picked up at once and an unchanged one costs a 304."""
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response
