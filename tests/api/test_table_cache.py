"""The table read is kept per version and language (ledger_cache.LedgerCache.hands): in
another language than the stored rows' a read answers exactly what rendering every hand
anew answers — after appends, a correction of an early hand, a void, undo and redo, another
instance's writes, with a small bound or from several threads — while a second read of a
version renders nothing and a read after an append renders the new hand alone; in Korean a
read answers what fetching the stored rows answers, and a second read of a version fetches
none."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from calculator.api import derived_rows, ledger_cache, serialize
from ledger_support import SCENARIOS, wire_hand
from tables_support import TableClient

LANGS = {"en": serialize.Shape(langs=("en",)), "all": serialize.Shape(langs=("ko", "en"))}


@pytest.fixture
def other(ledger_app: Any, database_url: str) -> Iterator[Any]:
    """A second instance on the same database, with a ledger cache of its own."""
    from calculator.api import create_app

    made = create_app({"access_log": False, "database_url": database_url})
    made.test_client_class = ledger_app.test_client_class
    yield made
    made.extensions["gostop_store"].dispose()


@pytest.fixture
def rendering(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the hands rendered in another language, in order: by the cache's
    read and by a write's answer (derived_rows.result_text), as one function did both."""
    rendered: list[int] = []
    result_bytes = derived_rows.result_bytes

    def counted(hand: Any, shape: serialize.Shape = serialize.DEFAULT_SHAPE) -> Any:
        if shape != serialize.DEFAULT_SHAPE:
            rendered.append(hand.number)
        return result_bytes(hand, shape)

    monkeypatch.setattr(ledger_cache, "result_bytes", counted)
    monkeypatch.setattr(derived_rows, "result_bytes", counted)
    return rendered


def _from_scratch(app: Any, table: TableClient, lang: str) -> bytes:
    """The read as an instance that holds nothing of the table answers it: every hand
    rendered anew from the table's whole log."""
    cache = app.extensions["gostop_ledgers"]
    app.extensions["gostop_ledgers"] = ledger_cache.LedgerCache(deadline_seconds=60)
    try:
        answer = app.test_client().get(f"{table.path}?lang={lang}", headers=table.auth())
    finally:
        app.extensions["gostop_ledgers"] = cache
    assert answer.status_code == 200
    return bytes(answer.data)


def _tables(client: Any, count: int, *, hands: int) -> list[TableClient]:
    """``count`` tables of the first scenario, each with ``hands`` times its first hand."""
    scenario = SCENARIOS[0]
    hand = wire_hand(scenario["steps"][0]["hand"])
    made = []
    for _ in range(count):
        table = TableClient.create(client, scenario["table"])
        for _ in range(hands):
            table.write("POST", "/hands", hand, expect=201)
        made.append(table)
    return made


def _read(client: Any, table: TableClient, lang: str) -> bytes:
    answer = client.get(f"{table.path}?lang={lang}", headers=table.auth())
    assert answer.status_code == 200
    tag = "" if lang == "ko" else f".{lang}"
    assert answer.headers["ETag"] == f'"{table.version}{tag}"'
    return bytes(answer.data)


@pytest.fixture
def fetching(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The stored hand rows fetched, in order: the table and the number they follow."""
    from calculator.store import Store

    fetched: list[tuple[str, int]] = []
    hand_items = Store.hand_items

    def counted(store: Store, table_id: str, *, after: int = 0) -> list[str]:
        fetched.append((table_id, after))
        return hand_items(store, table_id, after=after)

    monkeypatch.setattr(Store, "hand_items", counted)
    return fetched


# Korean (the stored rows) and both languages (a rendering); English alone is rendered by
# the same path as "all", each instance here reading in one language (test_table_languages
# compares the three)
@pytest.mark.parametrize("lang", ["ko", "all"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_a_kept_read_is_the_read_rendered_from_scratch(
    ledger_app: Any, other: Any, scenario: dict[str, Any], lang: str
) -> None:
    """Every step of the scenario (appends, a correction, a void, undo, redo), written by
    one instance or the other, then hand 1 corrected: each instance's reads, kept or not,
    are byte for byte the read of an instance that renders every hand anew (in Korean:
    that fetches the stored rows)."""
    scratch = other  # its cache is swapped for an empty one for each comparison
    clients = [ledger_app.test_client(), other.test_client()]
    table = TableClient.create(clients[0], scenario["table"])
    again = {"do": "correct", "number": 1, "reason": "hand 1 was another"}
    steps = [*scenario["steps"], {**again, "hand": scenario["steps"][1]["hand"]}]
    for i, step in enumerate(steps):
        table.client = clients[int(i % 3 == 2)]  # every third change by the other instance
        table.step(step, wire_hand(step["hand"]) if "hand" in step else None)
        expected = _from_scratch(scratch, table, lang)
        for client in clients:
            assert _read(client, table, lang) == expected, (i, step["do"])
            assert _read(client, table, lang) == expected, (i, step["do"])  # kept


def test_a_read_renders_what_changed_and_nothing_again(
    ledger_app: Any, other: Any, rendering: list[int]
) -> None:
    """A second read of a version renders nothing; after an append only the new hand;
    after a correction of hand 2 the hands from 2 on (the ledger derives them again);
    after another instance's appends, the hands it added."""
    scenario = SCENARIOS[0]
    client = ledger_app.test_client()
    table = TableClient.create(client, scenario["table"])
    adds = [wire_hand(s["hand"]) for s in scenario["steps"] if s["do"] == "add"]
    for hand in adds[:5]:
        table.write("POST", "/hands", hand, expect=201)
    _read(client, table, "en")
    assert rendering == [1, 2, 3, 4, 5]
    rendering.clear()
    _read(client, table, "en")
    _read(other.test_client(), table, "en")  # the other instance renders its own copy
    assert rendering == [1, 2, 3, 4, 5]
    rendering.clear()
    _read(client, table, "en")
    assert rendering == []
    table.write("POST", "/hands", adds[5], expect=201)
    _read(client, table, "en")
    assert rendering == [6]
    rendering.clear()
    table.write("PUT", "/hands/2", {"hand": adds[0], "reason": "typo"})
    _read(client, table, "en")
    assert rendering == [2, 3, 4, 5, 6]
    rendering.clear()
    table.client = other.test_client()
    table.write("POST", "/hands", adds[6], expect=201)
    table.write("POST", "/hands", adds[7], expect=201)
    _read(client, table, "en")
    assert rendering == [7, 8]
    rendering.clear()
    _read(client, table, "all")  # each language its own
    assert rendering == [1, 2, 3, 4, 5, 6, 7, 8]


def test_a_korean_read_fetches_the_rows_of_a_version_once(
    ledger_app: Any, other: Any, fetching: list[tuple[str, int]]
) -> None:
    """The phones that read a table after a change fetch its stored rows once per
    instance; after appends alone (by either instance) only the new hands' rows, after a
    correction every row again; each answer is what fetching every row gives, and a table
    deleted by the other instance is a 404 however its rows were kept."""
    scenario = SCENARIOS[0]
    client, elsewhere = ledger_app.test_client(), other.test_client()
    table = TableClient.create(client, scenario["table"])
    adds = [wire_hand(s["hand"]) for s in scenario["steps"] if s["do"] == "add"]
    for hand in adds[:2]:
        table.write("POST", "/hands", hand, expect=201)
    fetching.clear()
    first = _read(client, table, "ko")
    assert fetching == [(table.id, 0)]
    assert [_read(client, table, "ko") for _ in range(3)] == [first] * 3
    assert fetching == [(table.id, 0)]  # kept

    def read_again(rows: list[tuple[str, int]]) -> bytes:
        fetching.clear()
        body = _read(client, table, "ko")
        assert fetching == rows
        assert body == _from_scratch(ledger_app, table, "ko")
        return body

    table.client = elsewhere
    for hand in adds[2:4]:  # the other instance's appends
        table.write("POST", "/hands", hand, expect=201)
    second = read_again([(table.id, 2)])  # hands 3 and 4 alone
    assert [h["number"] for h in orjson.loads(second)["hands"]] == [1, 2, 3, 4]
    table.write("PUT", "/hands/2", {"hand": adds[0], "reason": "typo"})
    read_again([(table.id, 0)])  # a correction: every row
    table.write("POST", "/hands", adds[4], expect=201)
    read_again([(table.id, 4)])
    table.write("POST", "/hands/5/void", {"reason": "misdeal"})
    read_again([(table.id, 0)])
    gone = elsewhere.delete(table.path, headers={**table.auth(), "If-Match": f'"{table.version}"'})
    assert gone.status_code == 204
    read = client.get(table.path, headers=table.auth())
    assert read.status_code == 404
    assert read.get_json()["errors"][0]["code"] == "unknown_table"


def test_the_renderings_stay_within_their_bound(ledger_app: Any, rendering: list[int]) -> None:
    """Past the bound the least recently read table's rendering is dropped (and rendered
    again when asked for); the answers do not change."""
    client = ledger_app.test_client()
    tables = _tables(client, 3, hands=4)
    expected = [_from_scratch(ledger_app, table, "en") for table in tables]
    # a table's hands, rendered, and what keeping them counts beside their bytes
    one = len(expected[0].split(b',"hands":[', 1)[1]) - 2 + ledger_cache.RENDERED_ITEM_BYTES
    cache = ledger_cache.LedgerCache(deadline_seconds=60, rendered_bytes=2 * one)
    saved = ledger_app.extensions["gostop_ledgers"]
    ledger_app.extensions["gostop_ledgers"] = cache
    try:
        rendering.clear()
        for table, answer in zip(tables, expected, strict=True):
            assert _read(client, table, "en") == answer
            assert cache.rendered_bytes() <= 2 * one
        assert len(rendering) == 12
        assert _read(client, tables[2], "en") == expected[2]  # kept
        assert _read(client, tables[1], "en") == expected[1]  # kept
        assert len(rendering) == 12
        assert _read(client, tables[0], "en") == expected[0]  # dropped: rendered again
        assert len(rendering) == 16
        assert cache.rendered_bytes() == 2 * one
    finally:
        ledger_app.extensions["gostop_ledgers"] = saved


def test_readers_in_threads_read_what_rendering_from_scratch_gives(ledger_app: Any) -> None:
    """Threads reading one table in English while it takes appends and a correction (one
    instance, one cache): every answer is its version's hands rendered from scratch."""
    scenario = SCENARIOS[0]
    adds = [wire_hand(s["hand"]) for s in scenario["steps"] if s["do"] == "add"]
    table = TableClient.create(ledger_app.test_client(), scenario["table"])
    for hand in adds[:3]:
        table.write("POST", "/hands", hand, expect=201)
    answers: list[tuple[int, bytes]] = []
    done = threading.Event()

    def reader() -> None:
        client = ledger_app.test_client()
        while not done.is_set():
            answer = client.get(f"{table.path}?lang=en", headers=table.auth())
            assert answer.status_code == 200
            version = int(answer.headers["ETag"].strip('"').split(".")[0])
            answers.append((version, bytes(answer.data).split(b',"hands":[', 1)[1][:-2]))

    readers = [threading.Thread(target=reader) for _ in range(4)]
    for thread in readers:
        thread.start()
    try:
        for hand in adds[3:9]:
            table.write("POST", "/hands", hand, expect=201)
        table.write("PUT", "/hands/1", {"hand": adds[1], "reason": "another hand"})
        table.write("POST", "/hands", adds[9], expect=201)
    finally:
        done.set()
        for thread in readers:
            thread.join()
    store = ledger_app.extensions["gostop_store"]
    for version in sorted({version for version, _body in answers}):
        fresh = ledger_cache.LedgerCache(deadline_seconds=60)
        expected = fresh.rendered(store, table.id, version, LANGS["en"])
        assert {body for v, body in answers if v == version} == {expected}, version
    assert len(answers) >= 4


@pytest.mark.parametrize("lang", ["en", "all"])
def test_a_table_deleted_while_it_is_read_in_another_language_is_a_404(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """The table is deleted between the read of its head and of its log (an instance
    that holds nothing of it): a 404, as a read after the delete answers."""
    from calculator.store import Store

    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    table.write("POST", "/hands", wire_hand(SCENARIOS[0]["steps"][0]["hand"]), expect=201)
    monkeypatch.setitem(
        ledger_app.extensions, "gostop_ledgers", ledger_cache.LedgerCache(deadline_seconds=60)
    )
    monkeypatch.setattr(Store, "events", lambda *_args, **_kwargs: [])
    gone = ledger_app.test_client().get(f"{table.path}?lang={lang}", headers=table.auth())
    assert gone.status_code == 404
    assert gone.get_json()["errors"][0]["code"] == "unknown_table"


def test_the_bound_also_bounds_how_many_tables_are_kept(ledger_app: Any) -> None:
    """Tables with no hands keep empty rows: each still counts what keeping it costs, so
    the bound holds their number too (review 2026-12-06: 200,000 such entries counted 0
    bytes)."""
    client = ledger_app.test_client()
    cache = ledger_cache.LedgerCache(
        deadline_seconds=60, rendered_bytes=3 * ledger_cache.RENDERED_ITEM_BYTES
    )
    saved = ledger_app.extensions["gostop_ledgers"]
    ledger_app.extensions["gostop_ledgers"] = cache
    try:
        for table in _tables(client, 5, hands=0):
            assert _read(client, table, "ko")
        assert cache.rendered_bytes() == 3 * ledger_cache.RENDERED_ITEM_BYTES
    finally:
        ledger_app.extensions["gostop_ledgers"] = saved


def test_a_rendering_goes_with_its_tables_ledger(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch, rendering: list[int]
) -> None:
    """A rendering is kept only while its table's ledger is (it holds that ledger's
    hands): when the ledger is dropped, so is the rendering and its bytes, and the next
    read renders the table again (review 2026-12-05: no test failed with
    _forget_rendered a no-op)."""
    monkeypatch.setattr(ledger_cache, "CACHED_LEDGERS", 2)
    cache = ledger_cache.LedgerCache(deadline_seconds=60)
    monkeypatch.setitem(ledger_app.extensions, "gostop_ledgers", cache)
    client = ledger_app.test_client()
    tables = _tables(client, 3, hands=1)
    bodies = []
    for table in tables:  # the third's ledger drops the first's
        bodies.append(_read(client, table, "en"))
    one = len(bodies[0].split(b',"hands":[', 1)[1]) - 2 + ledger_cache.RENDERED_ITEM_BYTES
    assert cache.rendered_bytes() == 2 * one  # the first table's is gone with its ledger
    rendering.clear()
    assert _read(client, tables[0], "en") == bodies[0]
    assert rendering == [1]  # rendered again
    assert cache.rendered_bytes() == 2 * one  # and the second table's went with its ledger


def test_a_deleted_table_leaves_nothing_in_its_instance(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its ledger and its English rendering were kept until they aged out."""
    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    table.write("POST", "/hands", wire_hand(SCENARIOS[0]["steps"][0]["hand"]), expect=201)
    cache = ledger_cache.LedgerCache(deadline_seconds=60)
    monkeypatch.setitem(ledger_app.extensions, "gostop_ledgers", cache)
    client = ledger_app.test_client()
    assert client.get(f"{table.path}?lang=en", headers=table.auth()).status_code == 200
    assert cache.rendered_bytes() > 0
    version = table.version
    gone = client.delete(table.path, headers={**table.auth(), "If-Match": f'"{version}"'})
    assert gone.status_code == 204
    assert cache.rendered_bytes() == 0
    assert cache.end(None, table.id, version, {}) is None  # no ledger kept: no store asked
