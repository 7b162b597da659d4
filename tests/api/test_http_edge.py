"""The HTTP edge: Vary with CORS, the docs' CSP, invisible characters in ids, encodings."""

from __future__ import annotations

import base64
import gzip
import hashlib
import re
import sys
import unicodedata
from typing import Any

import orjson
import pytest

from calculator.api import create_app
from calculator.api.json_values import FORMAT_CHARS
from tests_support import W13

HANDS = "/v1/gostop/hands"


def test_with_cors_on_every_answer_varies_on_origin() -> None:
    client = create_app({"access_log": False, "cors_origins": "https://app.example"}).test_client()
    for headers in ({}, {"Origin": "https://app.example"}, {"Origin": "https://evil.example"}):
        response = client.post(HANDS, json=W13, headers=headers)
        assert [v.strip() for v in response.headers["Vary"].split(",")].count("Origin") == 1
        response = client.get("/v1/cards", headers=headers)
        assert "Origin" in response.headers["Vary"]


@pytest.mark.parametrize("path", [HANDS, "/v1/cards", "/v1/tables/join"])
def test_options_answers_204_with_the_allowed_methods_and_no_body(client: Any, path: str) -> None:
    """Flask's automatic OPTIONS answer was an empty 200 said to be text/html."""
    response = client.options(path)
    assert response.status_code == 204
    assert "Content-Type" not in response.headers
    assert response.data == b""
    assert "OPTIONS" in {m.strip() for m in response.headers["Allow"].split(",")}


def test_a_cors_preflight_is_a_204_that_allows_the_origin() -> None:
    client = create_app({"access_log": False, "cors_origins": "https://app.example"}).test_client()
    asked = {
        "Origin": "https://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type",
    }
    response = client.options(HANDS, headers=asked)
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "https://app.example"
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert "Content-Type" not in response.headers
    # the methods the API serves, no other; a browser keeps the answer 10 minutes
    # (a page polling with Authorization was preflighted before every poll)
    methods = {m.strip() for m in response.headers["Access-Control-Allow-Methods"].split(",")}
    assert methods == {"GET", "HEAD", "POST", "PUT", "DELETE"}
    assert response.headers["Access-Control-Max-Age"] == "600"


def test_with_cors_off_nothing_varies_on_origin(client: Any) -> None:
    response = client.post(HANDS, json=W13, headers={"Origin": "https://app.example"})
    assert "Origin" not in response.headers.get("Vary", "")


def test_the_docs_page_allows_its_own_inline_script_by_hash_and_nothing_foreign(
    client: Any,
) -> None:
    response = client.get("/v1/docs/")
    assert response.status_code == 200
    policy = dict(
        part.strip().split(" ", 1)
        for part in response.headers["Content-Security-Policy"].split(";")
    )
    assert policy["default-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    scripts = re.findall(rb"<script>(.*?)</script>", response.get_data(), re.DOTALL)
    assert scripts  # the page configures Swagger UI inline
    for script in scripts:
        digest = base64.b64encode(hashlib.sha256(script).digest()).decode()
        assert f"'sha256-{digest}'" in policy["script-src"]
    assert "unsafe-inline" not in policy["script-src"]
    assert "http" not in response.headers["Content-Security-Policy"]  # no other origin
    asset = client.get("/v1/docs/swagger-ui-bundle.js")
    assert asset.status_code == 200
    assert "script-src 'self'" in asset.headers["Content-Security-Policy"]
    asset.close()


def test_json_answers_load_nothing(client: Any) -> None:
    response = client.get("/v1/cards")
    assert (
        response.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
    )


def test_the_format_character_ranges_are_unicode_category_cf() -> None:
    ranges = re.findall(r"(.)(?:-(.))?", FORMAT_CHARS, re.DOTALL)
    listed = {c for first, last in ranges for c in range(ord(first), ord(last or first) + 1)}
    expected = {c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}
    assert listed == expected


@pytest.mark.parametrize(
    "invisible",
    ["\u202e", "\u2066", "\u200b", "\u200d", "\ufeff", "\u00ad", "\U000e0041"],
    ids=["RLO", "LRI", "ZWSP", "ZWJ", "BOM", "soft-hyphen", "tag"],
)
def test_ids_refuse_invisible_formatting_characters(client: Any, invisible: str) -> None:
    body = {
        **W13,
        "players": [{**W13["players"][0], "id": f"A{invisible}dmin"}, *W13["players"][1:]],
    }
    response = client.post(HANDS, json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    found = [e for e in errors if e["code"] == "format_character"]
    assert found[0]["pointer"] == "/players/0/id"
    assert f"U+{ord(invisible):04X} at position 1" in found[0]["detail"]


def test_visible_unicode_ids_are_still_accepted(client: Any) -> None:
    players = [
        {**W13["players"][0], "id": "민수"},
        {**W13["players"][1], "id": "😀 B"},
        W13["players"][2],
    ]
    response = client.post(
        HANDS, json={**W13, "players": players, "outcome": {"type": "stop", "winner": "민수"}}
    )
    assert response.status_code == 200, response.get_json()


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br", "gzip, identity", "x-unknown"])
def test_a_compressed_body_is_a_415_that_says_what_is_accepted(client: Any, encoding: str) -> None:
    response = client.post(
        HANDS,
        data=gzip.compress(b'{"players": []}'),
        headers={"Content-Type": "application/json", "Content-Encoding": encoding},
    )
    assert response.status_code == 415
    assert response.headers["Accept-Encoding"] == "identity"
    problem = response.get_json()
    assert problem["errors"][0]["code"] == "unsupported_content_encoding"
    assert "uncompressed" in problem["detail"]


def test_identity_encoding_is_accepted(client: Any) -> None:
    response = client.post(HANDS, json=W13, headers={"Content-Encoding": "identity"})
    assert response.status_code == 200


def test_the_bench_echo_parses_a_batch_body_as_large_as_the_batch_endpoint_takes(
    client: Any,
) -> None:
    # bench.http compares batches with parsing the same body (SPEC §8)
    body = {"hands": [W13] * 500}
    settings = client.application.config["GOSTOP"]
    assert settings.max_body_bytes < len(orjson.dumps(body)) < settings.max_batch_bytes
    response = client.post("/v1/bench/echo", json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json() == {"ok": True}


def test_the_bench_database_baseline_answers_after_one_statement(client: Any) -> None:
    # bench.tables measures it beside /healthz: the floor under a table poll
    response = client.get("/v1/bench/database")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json() == {"ok": True}


def test_a_query_string_and_none_alternate_without_one_leaking_into_the_other(
    client: Any,
) -> None:
    # the load of an empty query is made once and copied (calculator.api.arguments)
    for _ in range(2):
        assert client.post(HANDS, json=W13).headers["Content-Language"] == "ko"
        english = client.post(HANDS + "?lang=en&full_ruleset=true", json=W13)
        assert english.headers["Content-Language"] == "en"
        assert "options" in english.get_json()["ruleset"]
    plain = client.post(HANDS, json=W13)
    assert "options" not in plain.get_json()["ruleset"]
    assert plain.headers["Vary"] == "Accept-Language"
    assert plain.headers.getlist("Content-Language") == ["ko"]


@pytest.mark.parametrize("query", ["?", "?&", "?unknown=1"])
def test_a_query_string_without_arguments_answers_as_none(client: Any, query: str) -> None:
    plain = client.post(HANDS, json=W13)
    for _ in range(2):  # before and after the empty query's load is kept
        other = client.post(HANDS + query, json=W13)
        assert other.status_code == plain.status_code == 200
        assert other.get_data() == plain.get_data()
        assert other.headers["Content-Language"] == "ko"
        assert other.headers.getlist("Vary") == ["Accept-Language"]


def test_a_request_without_a_query_string_does_not_parse_one(app: Any) -> None:
    from flask import request

    view = app.view_functions["gostop.post_hand"]
    app.test_client().post(HANDS, json=W13)  # the load of no query is kept from here on
    for path, parsed in ((HANDS, False), (HANDS + "?&", True), (HANDS, False)):
        with app.test_request_context(path, method="POST", json=W13):
            assert view().status_code == 200
            # request.args (werkzeug's parse of the query string) is built only for one
            assert ("args" in request.__dict__) is parsed


@pytest.mark.parametrize(
    ("path", "typo", "meant"),
    [
        (HANDS + "?full_rulset=true", "full_rulset", "full_ruleset"),
        (HANDS + "?Lang=en", "Lang", "lang"),
        (HANDS + "?LANG=en", "LANG", "lang"),  # all capitals: read as absent before
        (HANDS + "?language=en", "language", "lang"),  # the name spelt out
        (HANDS + "?FULL_RULESET=true", "FULL_RULESET", "full_ruleset"),
        (HANDS + "/batch?lagn=en", "lagn", "lang"),
        ("/v1/cards?rules=wikipedia", "rules", "ruleset"),
    ],
)
def test_a_near_miss_of_a_query_parameter_is_refused_with_the_name_meant(
    client: Any, path: str, typo: str, meant: str
) -> None:
    """``?full_rulset=true`` used to answer as if it were absent: the client never learnt
    that its answer lacked what it asked for. Body fields are refused the same way."""
    body = {"hands": [W13]} if "/batch" in path else W13
    response = client.open(path, method="GET" if "cards" in path else "POST", json=body)
    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert (error["pointer"], error["code"]) == (f"/{typo}", "unknown_field")
    assert f"did you mean {meant!r}?" in error["detail"]


@pytest.mark.parametrize(
    ("path", "name", "shown"),
    [
        (HANDS + "?lang=en&lang=ko", "lang", "2 times ('en', 'ko')"),
        (HANDS + "?full_ruleset=false&full_ruleset=true", "full_ruleset", "2 times"),
        (HANDS + "/batch?lang=en&lang=en", "lang", "2 times ('en', 'en')"),  # same value too
        (HANDS + "?lang=en&full_ruleset=true&lang=ko&lang=all", "lang", "3 times"),
        ("/v1/cards?ruleset=standard&ruleset=wikipedia", "ruleset", "2 times"),
    ],
)
def test_a_query_parameter_given_twice_is_refused_at_it(
    client: Any, path: str, name: str, shown: str
) -> None:
    """``?lang=en&lang=ko`` was read as its first value, silently: the client that meant
    the second never learnt. Refused as a JSON body's name given twice is (with the 422
    of the other invalid query parameters), wherever the query is read."""
    body = {"hands": [W13]} if "/batch" in path else W13
    for _ in range(2):  # before and after the load of an empty query is kept
        response = client.open(path, method="GET" if "cards" in path else "POST", json=body)
        assert response.status_code == 422
        assert response.mimetype == "application/problem+json"
        (error,) = response.get_json()["errors"]
        assert (error["pointer"], error["code"]) == (f"/{name}", "duplicate_parameter")
        assert shown in error["detail"]
        assert error["detail"].endswith("give each query parameter once")
        client.open(HANDS, method="POST", json=W13)


def test_a_parameter_the_operation_does_not_read_may_come_twice(client: Any) -> None:
    """Only the parameters an operation reads are refused twice: a cache buster is not."""
    plain = client.post(HANDS, json=W13).get_json()
    assert client.post(HANDS + "?_=1&_=2&lang=ko", json=W13).get_json() == plain
    assert client.get("/v1/cards?_=1&_=2").status_code == 200


def test_query_parameters_far_from_every_known_one_still_pass(client: Any) -> None:
    """A client's cache buster (``?_=…``, ``?t=…``) is not a typo: still ignored."""
    plain = client.post(HANDS, json=W13).get_json()
    assert client.post(HANDS + "?_=1700000000&t=5", json=W13).get_json() == plain
    assert client.get("/v1/cards?_=1").status_code == 200


def _sent_headers(app: Any, path: str, body: Any, headers: dict[str, str]) -> tuple[Any, Any]:
    """A finished response of ``app`` (after every hook) and the request's environ."""
    with app.test_request_context(path, method="POST", json=body, headers=headers) as context:
        response = app.full_dispatch_request()
        return response, context.request.environ


@pytest.mark.parametrize(
    ("config", "path", "headers"),
    [
        ({}, HANDS + "?lang=all", {"Accept-Language": "en"}),
        ({"compress_min_bytes": 1}, HANDS, {"Accept-Encoding": "gzip"}),
        ({"cors_origins": "https://app.example"}, HANDS, {"Origin": "https://app.example"}),
        ({}, HANDS + "/batch", {"Accept-Encoding": "gzip"}),
    ],
)
def test_a_scoring_answer_sends_the_headers_werkzeug_would_copy_without_the_copy(
    config: dict[str, Any], path: str, headers: dict[str, str]
) -> None:
    """AnswerResponse skips werkzeug's copy of the headers (a scoring answer has nothing
    it adjusts): the list sent is the one werkzeug's own get_wsgi_headers makes, in order,
    with gzip, CORS and every hook; and the shortcut is taken."""
    from flask import Response

    from calculator.api.http import AnswerResponse

    app = create_app({"access_log": False, **config})
    body = {"hands": [W13, W13]} if path.endswith("/batch") else W13
    response, environ = _sent_headers(app, path, body, headers)
    assert type(response) is AnswerResponse
    assert response.status_code == 200
    werkzeugs = Response.get_wsgi_headers(response, environ).to_wsgi_list()
    sent = response.get_wsgi_headers(environ)
    assert sent is response.headers  # no copy
    assert sent.to_wsgi_list() == werkzeugs
    assert "Accept-Language" in dict(werkzeugs)["Vary"]


@pytest.mark.parametrize("change", ["location", "content-location", "no length", "204", "304"])
def test_an_answer_response_werkzeug_would_adjust_gets_werkzeugs_copy(change: str) -> None:
    """Fail closed: a Location or Content-Location to make absolute, a status without a
    body, a missing Content-Length — AnswerResponse sends werkzeug's own copy."""
    from flask import Response
    from werkzeug.test import EnvironBuilder

    from calculator.api.http import AnswerResponse

    environ = EnvironBuilder("/v1/gostop/hands", base_url="http://example.org/").get_environ()
    response = AnswerResponse(b'{"ok":true}', mimetype="application/json")
    if change == "location":
        response.headers["Location"] = "/v1/tables/é"  # werkzeug quotes it
    elif change == "content-location":
        response.headers["Content-Location"] = "/v1/tables/é"
    elif change == "no length":
        del response.headers["Content-Length"]
    else:
        response.status_code = int(change)
    sent = response.get_wsgi_headers(environ)
    assert sent is not response.headers
    assert sent.to_wsgi_list() == Response.get_wsgi_headers(response, environ).to_wsgi_list()
    assert sent.to_wsgi_list() != response.headers.to_wsgi_list()  # adjusted, as werkzeug does


@pytest.mark.parametrize("body", [b"", b'{"ok":true}', "한국어 {}".encode() * 500])
def test_an_answer_made_without_werkzeugs_init_is_the_response_init_makes(body: bytes) -> None:
    from calculator.api.http import JSON, AnswerResponse

    made, initialized = AnswerResponse.of(body), AnswerResponse(body, mimetype=JSON)
    assert vars(made) == vars(initialized)
    assert made.headers.to_wsgi_list() == initialized.headers.to_wsgi_list()
    assert (made.status, made.get_data(), made.is_sequence) == ("200 OK", body, True)


@pytest.mark.parametrize("langs", [("ko",), ("en",), ("ko", "en")])
def test_an_answers_fixed_headers_are_those_headers_add_would_add(langs: tuple[str, ...]) -> None:
    """A scoring answer's Content-Language and Vary, added as the response is made
    (FixedHeaders), are what werkzeug's Headers.add puts there, in the same place; a
    non-200 answer gets them by Headers.add itself."""
    from calculator.api.http import JSON, AnswerResponse, FixedHeaders, json_response

    pairs = (("Content-Language", ", ".join(langs)), ("Vary", "Accept-Language"))
    made, initialized = (
        AnswerResponse.of(b"{}", FixedHeaders(*pairs)),
        AnswerResponse(b"{}", mimetype=JSON),
    )
    for name, value in pairs:
        initialized.headers.add(name, value)
    assert vars(made) == vars(initialized)
    assert made.headers.to_wsgi_list() == initialized.headers.to_wsgi_list()
    other = json_response({}, 201, headers=FixedHeaders(*pairs))
    assert other.headers.to_wsgi_list()[-2:] == list(pairs)


def test_fixed_headers_are_checked_once_made() -> None:
    from calculator.api.http import FixedHeaders

    with pytest.raises(ValueError, match="newline"):
        FixedHeaders(("Content-Language", "ko"), ("Vary", "Accept-Language\r\nX-Other: 1"))


def test_a_scoring_answer_is_made_without_werkzeugs_init(
    app: Any, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from calculator.api.http import AnswerResponse

    def refused(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("AnswerResponse.__init__ called")

    monkeypatch.setattr(AnswerResponse, "__init__", refused)
    assert client.post(HANDS, json=W13).status_code == 200
    batch = client.post(HANDS + "/batch", json={"hands": [W13]})
    assert batch.status_code == 200


def test_the_echo_baseline_answers_by_the_scoring_answers_path() -> None:
    """SPEC §8 compares the scoring endpoints with the echo: every 200 JSON answer is made
    and sent the same way (json_response's AnswerResponse), the echo's too; a faster path
    for the scoring answers alone would flatter the ratio."""
    from calculator.api.http import AnswerResponse, json_response

    app = create_app({"access_log": False, "bench_endpoint": True})
    for path in ("/v1/bench/echo", HANDS):
        response, _environ = _sent_headers(app, path, W13, {})
        assert type(response) is AnswerResponse, path
    assert type(json_response({"ok": True})) is AnswerResponse
    assert type(json_response({"ok": True}, 201)) is not AnswerResponse  # werkzeug's own
