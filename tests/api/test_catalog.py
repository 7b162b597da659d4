"""GET /v1/cards, /v1/rulesets, /v1/rules, health, docs and the OpenAPI document."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from calculator import CARDS
from calculator.api import rules_document
from calculator.api.openapi import openapi_document
from calculator.api.rules_document import anchor, headings
from calculator.cards import BONUS_IDS
from contract import service_contract

ROOT = Path(__file__).parents[2]
SPEC_FILE = ROOT / "api_spec" / "openapi.json"


def test_cards_catalog_has_every_contract_id(client: Any) -> None:
    response = client.get("/v1/cards")
    body = response.get_json()
    assert [c["id"] for c in body["cards"]] == list(CARDS)
    cup = next(c for c in body["cards"] if c["id"] == "09-animal")
    assert cup["month"] == 9
    assert cup["name"]["ko"].startswith("국화")
    rain = next(c for c in body["cards"] if c["id"] == "12-bright")
    assert rain["tags"] == ["rain"]
    bonus = next(c for c in body["cards"] if c["id"] == "bonus-b")
    assert (bonus["month"], bonus["kind"], bonus["junk_value"]) == (None, "bonus", 3)


def test_cards_without_a_ruleset_are_under_the_default_one(client: Any) -> None:
    """SPEC §2: the catalogue gives each card's default junk value — bonus-a 2, bonus-b 3,
    the others not in the deck — so without ``?ruleset`` it is the catalogue of the rule
    set a hand without one is scored under (standard), and says so. (Before, bonus
    values, the deck and the switchable cards were null without a rule set.)"""
    plain = client.get("/v1/cards").get_json()
    under = client.get("/v1/cards?ruleset=standard").get_json()
    assert plain == under
    assert plain["ruleset"]["preset"] == "standard"
    by_id = {c["id"]: c for c in plain["cards"]}
    bonus = {k: (by_id[k]["junk_value"], by_id[k]["in_deck"]) for k in BONUS_IDS}
    assert bonus == {
        "bonus-a": (2, True),
        "bonus-b": (3, True),
        "bonus-c": (0, False),
        "bonus-d": (0, False),
    }
    assert (by_id["01-junk-1"]["junk_value"], by_id["01-junk-1"]["in_deck"]) == (1, True)
    assert by_id["09-animal"]["switchable"] is True  # 국진 (SPEC §2)
    assert all(c["points"] is None for c in plain["cards"])  # balance only


def test_cards_under_a_balance_ruleset(client: Any) -> None:
    """Issue #11 defect 1: ?ruleset=balance (and minhwatu) was a 500."""
    for name in ("balance", "minhwatu"):
        response = client.get(f"/v1/cards?ruleset={name}")
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        assert body["ruleset"]["preset"] == name
        cards = {c["id"]: c for c in body["cards"]}
        # docs/rules.md §7.1: brights 20, animals 10, ribbons 5, junk 0
        points = {
            k: cards[k]["points"] for k in ("01-bright", "09-animal", "05-ribbon", "11-junk-1")
        }
        assert points == {"01-bright": 20, "09-animal": 10, "05-ribbon": 5, "11-junk-1": 0}
        assert cards["bonus-a"]["in_deck"] is False  # not valued by these presets
        assert not any(c["switchable"] for c in body["cards"])
        assert sum(c["points"] for c in body["cards"]) == 240


def test_cards_for_a_ruleset_show_bonus_values_and_switchable_cards(client: Any) -> None:
    body = client.get("/v1/cards?ruleset=wikipedia").get_json()
    cards = {c["id"]: c for c in body["cards"]}
    assert body["ruleset"]["preset"] == "wikipedia"
    assert cards["bonus-b"]["junk_value"] == 3
    assert cards["bonus-c"]["in_deck"] is False
    assert cards["05-animal"]["switchable"] is True
    assert client.get("/v1/cards?ruleset=standard").get_json()["cards"][16]["switchable"] is False
    unknown = client.get("/v1/cards?ruleset=nope")
    assert unknown.status_code == 404
    # at the parameter, as its other problems are (a path's unknown preset: the whole path)
    assert [(e["pointer"], e["code"]) for e in unknown.get_json()["errors"]] == [
        ("/ruleset", "unknown_preset")
    ]
    missing = client.get("/v1/rulesets/nope").get_json()["errors"]
    assert [(e["pointer"], e["code"]) for e in missing] == [("", "unknown_preset")]


def test_catalogs_have_etag_cache_control_and_304(client: Any) -> None:
    for path in ("/v1/cards", "/v1/rulesets", "/v1/rulesets/standard", "/v1/openapi.json"):
        first = client.get(path)
        assert first.status_code == 200
        assert first.headers["Cache-Control"] == "public, max-age=3600"
        etag = first.headers["ETag"]
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304
        assert again.data == b""


def test_each_catalog_representation_has_its_own_etag(client: Any) -> None:
    """The catalogues speak no language of their own (`/v1/codes` gives both labels) and
    take no format: their representations are the rule set's cards and the gzipped
    copies, and each has its own tag (of its bytes; flask-compress suffixes ":gzip"), so
    the tag of one never gets a 304 for another."""
    from calculator.presets import presets

    tags: dict[str, bytes] = {}
    for name in presets():
        response = client.get(f"/v1/cards?ruleset={name}")
        assert response.status_code == 200
        tags.setdefault(response.headers["ETag"], response.get_data())
        assert tags[response.headers["ETag"]] == response.get_data()  # one tag, one body
    assert len(set(tags.values())) == len(tags) > 1
    standard = client.get("/v1/cards").headers["ETag"]
    other = next(tag for tag in tags if tag != standard)
    assert client.get("/v1/cards", headers={"If-None-Match": other}).status_code == 200
    plain = FlaskClient(client.application, client.application.response_class)
    for path in ("/v1/rulesets", "/v1/codes", "/v1/rules"):
        identity = plain.get(path)
        zipped = plain.get(path, headers={"Accept-Encoding": "gzip"})
        assert zipped.headers.get("Content-Encoding") == "gzip", path
        assert identity.headers["ETag"] != zipped.headers["ETag"]
        for response, asked in ((identity, {}), (zipped, {"Accept-Encoding": "gzip"})):
            held = {"If-None-Match": response.headers["ETag"]}
            assert plain.get(path, headers={**held, **asked}).status_code == 304
        crossed = plain.get(path, headers={"If-None-Match": zipped.headers["ETag"]})
        assert crossed.status_code == 200
        assert crossed.get_data() == identity.get_data()


def test_rulesets_describe_every_option(client: Any) -> None:
    body = client.get("/v1/rulesets").get_json()
    names = [r["name"] for r in body["rulesets"]]
    assert names[:3] == ["standard", "wikipedia", "gamerules"]
    standard = body["rulesets"][0]
    option = next(o for o in standard["options"] if o["name"] == "go_formula")
    assert option["allowed"] == [
        "korean_pow2",
        "seed_es_linear",
        "seed_ro",
        "times_n",
        "flat_double_3plus",
    ]
    assert option["default"] == "korean_pow2"
    assert option["section"] == "docs/rules.md §3.2"
    assert option["link"] == "/v1/rules#32-what-a-go-is-worth-the-go-formulas"
    assert all(o["link"].startswith("/v1/rules#") for o in standard["options"])
    wiki = client.get("/v1/rulesets/wikipedia").get_json()
    assert (
        next(o for o in wiki["options"] if o["name"] == "go_formula")["value"] == "seed_es_linear"
    )
    assert client.get("/v1/rulesets/seed_ro").get_json()["name"] == "gamerules"


def test_the_rules_document_is_served_with_its_sections(client: Any) -> None:
    response = client.get("/v1/rules")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    text = response.get_data(as_text=True)
    assert text == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "\n### 4.5 피박 (pi-bak)\n" in text
    again = client.get("/v1/rules", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    # gzip for clients that accept it (a plain client: the checking one reads bodies as text)
    plain = FlaskClient(client.application, client.application.response_class)
    packed = plain.get("/v1/rules", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data).decode("utf-8") == text
    # and its HTML page for a browser (93 kB, ~28 kB gzipped)
    browser = {"Accept": "text/html,*/*;q=0.8", "Accept-Encoding": "gzip, deflate, br"}
    page = plain.get("/v1/rules", headers=browser)
    assert (page.mimetype, page.headers["Content-Encoding"]) == ("text/html", "gzip")
    assert gzip.decompress(page.data).startswith(b"<!doctype html>")
    # every option's link names a heading of the document served here
    anchors = {anchor(h) for h in headings(text)}
    for preset in client.get("/v1/rulesets").get_json()["rulesets"]:
        for option in preset["options"]:
            path, _, fragment = option["link"].partition("#")
            assert (path, fragment in anchors) == ("/v1/rules", True), option


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"


class _Elements(HTMLParser):
    """Every start tag of a page with its attributes, and the text of its style elements."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)


def _elements(page: str) -> _Elements:
    parser = _Elements()
    parser.feed(page)
    return parser


@pytest.mark.parametrize(
    "accept",
    [
        None,
        "*/*",
        "text/markdown",
        "text/plain",
        "application/json",
        "text/*",
        "text/html;q=0.5, text/markdown",
        "text/html;charset=latin-1",
    ],
)
def test_the_rules_are_markdown_for_any_client_that_does_not_prefer_html(
    client: Any, accept: str | None
) -> None:
    """Apps read the Markdown byte for byte; nothing gets a 406."""
    response = client.get("/v1/rules", headers={"Accept": accept} if accept else {})
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.get_data() == (ROOT / "docs" / "rules.md").read_bytes()
    assert "Accept" in response.headers["Vary"]
    assert response.headers["ETag"] == client.get("/v1/rules").headers["ETag"]


def test_a_browser_gets_the_rules_as_a_page_with_every_linked_section(client: Any) -> None:
    response = client.get("/v1/rules", headers={"Accept": BROWSER})
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    assert "Accept" in response.headers["Vary"]
    page = response.get_data(as_text=True)
    assert page.startswith('<!doctype html>\n<html lang="en">')
    assert '<meta charset="utf-8">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "<title>The rules this service plays</title>" in page
    elements = _elements(page)
    ids = [attrs["id"] for _tag, attrs in elements.tags if "id" in attrs]
    assert len(ids) == len(set(ids))
    # the headings' ids are the anchors the links are made with, every heading has one
    assert set(ids) == {anchor(h) for h in headings(rules_document.text())}
    assert set(rules_document.sections().values()) <= set(ids)
    presets = client.get("/v1/rulesets").get_json()["rulesets"]
    named = [client.get(f"/v1/rulesets/{p['name']}").get_json() for p in presets]
    links = {o["link"] for preset in presets + named for o in preset["options"]}
    assert "/v1/rules#45-피박-pi-bak" in links
    for link in links:
        path, _, fragment = link.partition("#")
        assert (path, fragment in ids) == ("/v1/rules", True), link
    # the tables are tables, and the page runs nothing
    assert any(tag == "table" for tag, _attrs in elements.tags)
    assert not any(tag == "script" for tag, _attrs in elements.tags)


def test_the_rules_page_allows_its_one_style_by_hash_and_nothing_else(client: Any) -> None:
    response = client.get("/v1/rules", headers={"Accept": BROWSER})
    policy = dict(
        part.strip().split(" ", 1)
        for part in response.headers["Content-Security-Policy"].split(";")
    )
    styles = _elements(response.get_data(as_text=True)).styles
    assert len(styles) == 1
    digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
    assert policy == {
        "default-src": "'none'",
        "style-src": f"'sha256-{digest}'",
        "base-uri": "'none'",
        "form-action": "'none'",
        "frame-ancestors": "'none'",
    }
    # the Markdown keeps the API's own policy
    markdown = client.get("/v1/rules")
    assert markdown.headers["Content-Security-Policy"] == (
        "default-src 'none'; frame-ancestors 'none'"
    )


def test_each_representation_of_the_rules_has_its_own_etag(client: Any) -> None:
    markdown = client.get("/v1/rules")
    page = client.get("/v1/rules", headers={"Accept": BROWSER})
    assert markdown.headers["ETag"] != page.headers["ETag"]
    for accept, tag in (("*/*", markdown.headers["ETag"]), (BROWSER, page.headers["ETag"])):
        again = client.get("/v1/rules", headers={"Accept": accept, "If-None-Match": tag})
        assert again.status_code == 304, accept
        assert "Accept" in again.headers["Vary"]
        assert again.headers["Cache-Control"] == "public, max-age=3600"
    crossed = client.get(
        "/v1/rules", headers={"Accept": BROWSER, "If-None-Match": markdown.headers["ETag"]}
    )
    assert crossed.status_code == 200
    assert crossed.get_data() == page.get_data()


def test_the_rules_page_passes_no_raw_html_through() -> None:
    page = rules_document.page(
        "# Title\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)>\n\n"
        "[click](javascript:alert(1))\n"
    )
    elements = _elements(page)
    assert [tag for tag, _attrs in elements.tags if tag in ("script", "img", "a")] == []
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


@pytest.mark.parametrize(
    ("accept", "gzipped"),
    [
        ("gzip", True),
        ("GZip;q=0.5, deflate", True),
        ("*", True),
        ("gzip;q=0", False),  # RFC 9110 §12.5.3: q=0 is "not acceptable"
        ("gzip;q=0.000", False),
        ("*, gzip;q=0", False),  # gzip's own entry decides over the wildcard
        ("*;q=0", False),
        ("br, identity", False),
    ],
)
def test_answers_are_gzipped_only_for_clients_that_take_gzip(
    client: Any, accept: str, gzipped: bool
) -> None:
    plain = FlaskClient(client.application, client.application.response_class)
    response = plain.get("/v1/rulesets", headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert (response.headers.get("Content-Encoding") == "gzip") is gzipped


def _varies(response: Any) -> list[str]:
    """The names of a response's Vary, each as sent (every Vary header, split)."""
    names = ", ".join(response.headers.getlist("Vary")).split(",")
    return [name.strip() for name in names if name.strip()]


GZIPPED = ("/v1/cards", "/v1/rulesets", "/v1/rulesets/standard", "/v1/codes", "/v1/rules")


@pytest.mark.parametrize("path", [*GZIPPED, "/v1/openapi.json"])
def test_an_answer_that_may_be_gzipped_varies_on_accept_encoding_for_every_client(
    client: Any, path: str
) -> None:
    """RFC 9110 §12.5.5: the identity copy said nothing, so a shared cache could keep it
    as the answer for every client (and the gzipped one's Vary told it otherwise). Each
    copy says it, and so does each 304 (§15.4.5: the Vary its 200 would carry)."""
    plain = FlaskClient(client.application, client.application.response_class)
    zipped = plain.get(path, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers.get("Content-Encoding") == "gzip"  # compressed for some clients
    varies = ["Accept", "Accept-Encoding"] if path == "/v1/rules" else ["Accept-Encoding"]
    for asked in ({}, {"Accept-Encoding": "gzip;q=0"}, {"Accept-Encoding": "br"}, {}):
        first = plain.get(path, headers=asked)
        assert "Content-Encoding" not in first.headers
        again = plain.get(path, headers={**asked, "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304
        assert _varies(first) == _varies(again) == varies, asked
    held = {"Accept-Encoding": "gzip", "If-None-Match": zipped.headers["ETag"]}
    assert _varies(zipped) == _varies(plain.get(path, headers=held)) == varies
    assert client.get(path).status_code == 200  # the document declares it (CheckingClient)


def test_only_an_answer_that_may_be_gzipped_varies_on_accept_encoding(client: Any) -> None:
    """By what the compressor looks at: the media type, the size and the status. A small
    answer, a page and a problem are never gzipped: their Vary stays as it was."""
    from tests_support import W13

    gzip_ok = {"Accept-Encoding": "gzip"}
    plain = FlaskClient(client.application, client.application.response_class)
    small = plain.post("/v1/gostop/hands", json=W13, headers=gzip_ok)
    assert "Content-Encoding" not in small.headers
    assert _varies(small) == ["Accept-Language"]
    assert _varies(plain.get("/healthz", headers=gzip_ok)) == []
    script = plain.get("/assets/table.js", headers=gzip_ok)  # the page's: not gzipped here
    assert len(script.data) > 4096
    assert "Content-Encoding" not in script.headers
    assert "Accept-Encoding" not in _varies(script)
    # a batch's answer is JSON and large: a candidate, for the clients that take gzip
    # and for the others
    batch = {"hands": [W13] * 8}
    for asked in ({}, gzip_ok):
        large = plain.post("/v1/gostop/hands/batch", json=batch, headers=asked)
        assert large.status_code == 200
        assert ("Content-Encoding" in large.headers) is bool(asked)
        assert _varies(large) == ["Accept-Language", "Accept-Encoding"]
    assert client.post("/v1/gostop/hands/batch", json=batch).status_code == 200  # declared


def test_unknown_ruleset_is_a_404_problem(client: Any) -> None:
    response = client.get("/v1/rulesets/kitchen")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert "kitchen" in response.get_json()["detail"]


@pytest.mark.parametrize(
    ("path", "hint"),
    [
        ("/v1/cards?ruleset=kr_gostp", "did you mean 'kr_gostop', an alias of standard?"),
        ("/v1/rulesets/STANDARD", "did you mean 'standard'?"),
        ("/v1/rulesets/Minhwatu", "did you mean 'minhwatu'?"),
    ],
)
def test_an_unknown_ruleset_in_the_catalogue_says_the_name_it_is_closest_to(
    client: Any, path: str, hint: str
) -> None:
    """As a scoring request's unknown preset does (presets.unknown_preset): one message."""
    response = client.get(path)
    assert response.status_code == 404
    problem = response.get_json()
    assert [e["code"] for e in problem["errors"]] == ["unknown_preset"]
    assert hint in problem["detail"]
    assert problem["detail"].endswith("; see GET /v1/rulesets")


def test_health(client: Any) -> None:
    assert client.get("/healthz").get_json()["status"] == "ok"
    assert client.get("/readyz").get_json()["status"] == "ready"


def test_docs_page_works_with_no_network(client: Any) -> None:
    page = client.get("/v1/docs/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "/v1/openapi.json" in html
    assert not re.search(r"(src|href)=\"https?://", html)  # every asset is served locally
    for asset in re.findall(r"(?:src|href)=\"(/v1/docs/[^\"]+)\"", html):
        assert client.get(asset).status_code == 200, asset
    assert '"validatorUrl": null' in html  # no call to the online validator


def test_committed_openapi_document_is_current() -> None:
    committed = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    assert committed == openapi_document(), (
        "api_spec/openapi.json is out of date; regenerate it with\n"
        "    python -m calculator.api.openapi > api_spec/openapi.json"
    )


def test_openapi_document_validates_as_3_1() -> None:
    from openapi_spec_validator import validate

    document = openapi_document()
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_served_document_is_the_generated_one(client: Any) -> None:
    assert client.get("/v1/openapi.json").get_json() == openapi_document()


def test_examples_in_the_document_are_real_responses(client: Any) -> None:
    post = openapi_document()["paths"]["/v1/gostop/hands"]["post"]
    requests = post["requestBody"]["content"]["application/json"]["examples"]
    results = post["responses"]["200"]["content"]["application/json"]["examples"]
    for name, example in requests.items():
        assert (
            client.post("/v1/gostop/hands", json=example["value"]).get_json()
            == results[name]["value"]
        )
    assert results["tally_matgo"]["value"]["net"] == {"winner": 192, "loser": -192}
    assert results["declared_4p"]["value"]["net"] == {
        "seller": 600,
        "winner": 1400,
        "gobak": -1700,
        "loser": -300,
    }


def _schema_examples(document: dict[str, Any]) -> list[tuple[str, dict[str, Any], Any]]:
    """(where, schema, value) of every request and response example in the document."""
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            parts = [operation.get("requestBody", {})]
            parts += operation["responses"].values()
            for part in parts:
                for media, content in part.get("content", {}).items():
                    if "example" in content:
                        found.append(
                            (f"{method} {path} {media}", content["schema"], content["example"])
                        )
                    for name, example in content.get("examples", {}).items():
                        where = f"{method} {path} {media} {name}"
                        found.append((where, content["schema"], example["value"]))
    return found


def test_every_example_in_the_document_matches_its_schema() -> None:
    """Issue #11 defect 2: the balance request example failed its own schema (its ruleset
    listed the Go-Stop presets)."""
    document = openapi_document()
    examples = _schema_examples(document)
    assert len(examples) >= 10
    for where, schema, value in examples:
        validator = service_contract().validator_for(schema)
        errors = [e.message[:200] for e in validator.iter_errors(value)]
        assert not errors, f"{where}: {errors[:3]}"
    ruleset = document["components"]["schemas"]["BalanceRequest"]["properties"]["ruleset"]
    names = ruleset["oneOf"][0]["enum"]
    assert {"balance", "minhwatu"} <= set(names)
    assert "standard" not in names
    assert ruleset["oneOf"][1] == {"$ref": "#/components/schemas/BalanceRulesetObject"}


def test_option_descriptions_show_wire_values() -> None:
    """Issue #11 defect 3: descriptions read ``Default <GukjinMode.CHOICE: 'choice'>``."""
    text = json.dumps(openapi_document(), ensure_ascii=False)
    assert "<" not in "".join(re.findall(r"Default [^.]*\.", text))
    options = openapi_document()["components"]["schemas"]["GoStopOptions"]["properties"]
    assert options["gukjin_mode"]["default"] == "choice"
    assert 'Default "choice".' in options["gukjin_mode"]["description"]
    assert "Default null." in options["shake_cap"]["description"]


def test_every_query_parameter_has_its_real_schema() -> None:
    """Issue #11 defect 1: ?ruleset had no enum, so fuzzing never tried balance."""
    document = openapi_document()
    (ruleset,) = document["paths"]["/v1/cards"]["get"]["parameters"]
    assert {"standard", "balance", "minhwatu", "wikipedia"} <= set(ruleset["schema"]["enum"])


@pytest.mark.parametrize("schema", ["HandRequest", "BalanceRequest"])
def test_the_document_gives_the_player_counts_the_rules_allow(client: Any, schema: str) -> None:
    """The helper's new-user pass: the document said ``maxItems: 8`` and no minimum, so a
    client checking bodies against it sent one player or five. It says 2 to 4 now; the
    service reads up to 8 and refuses any other count with the rules' own problem."""
    players = openapi_document()["components"]["schemas"][schema]["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (2, 4)
    path = "/v1/gostop/hands" if schema == "HandRequest" else "/v1/balance/hands"
    for count in (1, 5, 8):
        body = {"players": [{"id": f"P{i}", "captured": []} for i in range(count)]}
        answer = client.post(path, json=body)
        assert answer.status_code == 422
        assert "player_count" in [error["code"] for error in answer.get_json()["errors"]]


def test_codes_list_every_code_with_labels(client: Any) -> None:
    body = client.get("/v1/codes").get_json()
    lists = {entry["name"]: entry for entry in body["lists"]}
    assert set(lists) == {"item", "step", "reason", "op", "balance_item", "set_bonus", "error"}
    for entry in lists.values():
        for code in entry["codes"]:
            assert code["label"]["ko"], code
            assert code["label"]["en"], code
    assert {c["code"] for c in lists["op"]["codes"]} == {"start", "add", "multiply"}
    reasons = {c["code"]: c["label"]["ko"] for c in lists["reason"]["codes"]}
    assert reasons["first_ppuk"] == "첫뻑"
    # the document's enums are these lists
    schemas = openapi_document()["components"]["schemas"]
    assert schemas["Payment"]["properties"]["reason"]["enum"] == list(reasons)
    errors = [c["code"] for c in lists["error"]["codes"]]
    assert schemas["ErrorEntry"]["properties"]["code"]["enum"] == errors


def test_unknown_paths_point_to_the_docs_and_the_docs_redirect_relatively(client: Any) -> None:
    missing = client.get("/v1/gostop/hand")
    assert missing.status_code == 404
    assert missing.mimetype == "application/problem+json"
    assert "/v1/docs" in missing.get_json()["detail"]
    doubled = client.get("/v1//cards")  # was werkzeug's 308 with an HTML body
    assert (doubled.status_code, doubled.mimetype) == (404, "application/problem+json")
    moved = client.get("/v1/docs")
    assert moved.status_code == 308
    assert moved.headers["Location"] == "/v1/docs/"  # relative: right behind any proxy


def test_the_house_rules_of_issue_16_are_in_the_catalogue_and_the_document(client: Any) -> None:
    standard = client.get("/v1/rulesets/standard").get_json()
    by_name = {o["name"]: o for o in standard["options"]}
    assert by_name["ppuk_payout"]["allowed"] == ["each", "highest"]
    assert by_name["three_ppuk_mode"]["default"] == "instant_win"
    assert "pay_all_doubled" in by_name["gobak_mode_3p"]["allowed"]
    assert "dealer_wins" in by_name["floor_four_of_month"]["allowed"]
    assert by_name["three_ppuk_apply_multipliers"]["value"] is False
    assert by_name["gwangpal_counts_sets"]["type"] == "boolean"
    for name in ("ppuk_chips", "ttadak_chips", "gwangpal_chips", "chongtong_chips"):
        assert (by_name[name]["nullable"], by_name[name]["default"]) == (True, None)
        assert "not multiplied by the stake" in by_name[name]["summary"]
    assert by_name["min_points_to_stop_2p"]["minimum"] == 0
    assert by_name["min_points_to_stop_3p"]["minimum"] == 0
    document = client.get("/v1/openapi.json").get_json()
    properties = document["components"]["schemas"]["GoStopOptions"]["properties"]
    assert {"ppuk_payout", "three_ppuk_mode", "gwangpal_chips"} <= set(properties)


def test_a_sent_file_is_never_compressed_nor_said_to_vary() -> None:
    """A streamed answer (a sent file) of a type the service gzips: flask-compress would
    pick brotli or zstd for it by its own list, and our hook said Vary for a copy it did
    not compress (review, 2026-12-05). Streams are the proxy's to compress."""
    import io

    from flask import send_file

    from calculator.api import create_app

    app = create_app({"access_log": False})  # its own: a route is added before any request
    app.add_url_rule(
        "/test/sent.html",
        "sent",
        lambda: send_file(io.BytesIO(b"<p>" + b"x" * 9000), mimetype="text/html"),
    )
    plain = FlaskClient(app, app.response_class)
    for accepted in ("gzip", "gzip, br, zstd"):
        sent = plain.get("/test/sent.html", headers={"Accept-Encoding": accepted})
        assert sent.status_code == 200
        assert "Content-Encoding" not in sent.headers
        assert "Accept-Encoding" not in _varies(sent)
