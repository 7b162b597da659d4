"""The table ledger over HTTP against a model of it (SPEC §9): random nights of adds,
corrections, voids, undo, redo and closing on either variant, 2–10 people on the roster
(some sitting out, some not playing a hand), written through two instances on one
database, with replays of the last write.

The model is the SPEC read plainly, not the ledger's code: the entries in effect (a
stack of edits for undo, another for redo), and from them each hand's streak and dealer
— the streak grows by a drawn hand and ends with a decided one, a redeal leaves it; the
last winner deals, a drawn hand leaves the dealer, a hand that names its dealer sets it,
a voided hand counts for nothing — and its result, asked of the stateless endpoint with
the table's rule set and stake, the derived streak and the dealer when that dealer plays
the hand. After every step the table must answer what the model says: each stored
result, status, streak and dealer, the totals (zero-sum), ``changed`` (the difference per
player of each hand that moved), undo/redo flags; its export imports to the same table,
and its share text reads back to its settlement.
"""

from __future__ import annotations

from typing import Any, ClassVar

import orjson
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from calculator.cards import MONTH_CARD_IDS
from tables_support import TableClient, new_key
from tests_support import examples

PEOPLE = tuple(f"P{i}" for i in range(10))
PRESET = {"gostop": "standard", "balance": "balance"}


@st.composite
def gostop_hands(draw: st.DrawFn, roster: tuple[str, ...]) -> dict[str, Any]:
    """A Go-Stop hand of 2 or 3 players of the roster (a fourth sitting out), decided,
    drawn, won at the deal or redealt; now and then naming its dealer or a ppuk."""
    people = draw(st.permutations(roster))[: draw(st.sampled_from([2, 3, 3, 4]))]
    sitter = people[3] if len(people) == 4 else None
    active = people[:3]
    winner = draw(st.sampled_from(active))
    kind = draw(st.sampled_from(["stop"] * 5 + ["nagari"] * 2 + ["chongtong", "three_ppuk"]))
    if draw(st.integers(0, 9)) == 0:
        kind = "floor_four"  # redealt: nothing changes
    outcome = (
        {"type": kind, "winner": winner}
        if kind in ("stop", "chongtong", "three_ppuk")
        else {"type": kind}
    )
    minimum = 7 if len(active) == 2 else 3
    players = []
    for person in people:
        player: dict[str, Any] = {"id": person, "declared": {}}
        if person == sitter:
            player = {"id": person, "sits_out": True, "sold_brights": draw(st.integers(0, 2))}
        elif person == winner and kind == "stop":
            player["declared"] = {"points": draw(st.integers(minimum, minimum + 5))}
            player["go_count"] = draw(st.integers(0, 3))
        players.append(player)
    hand: dict[str, Any] = {"players": players, "outcome": outcome}
    if draw(st.integers(0, 2)) == 0:
        hand["dealer"] = draw(st.sampled_from(active))
    if kind in ("stop", "nagari") and draw(st.integers(0, 4)) == 0:
        hand["events"] = [{"type": "first_ppuk", "player": draw(st.sampled_from(active))}]
    return hand


@st.composite
def balance_hands(draw: st.DrawFn, roster: tuple[str, ...]) -> dict[str, Any]:
    """A balance hand: the deck dealt among 2–4 players of the roster (sometimes with
    cards missing: a void hand)."""
    people = draw(st.permutations(roster))[: draw(st.integers(2, min(4, len(roster))))]
    piles: dict[str, list[str]] = {person: [] for person in people}
    missing = draw(st.integers(0, 5)) == 0
    for card in MONTH_CARD_IDS:
        if not (missing and draw(st.integers(0, 9)) == 0):
            piles[draw(st.sampled_from(people))].append(card)
    return {"players": [{"id": person, "captured": piles[person]} for person in people]}


class RecordingTable(TableClient):
    """A table client that remembers its last accepted write, to replay it."""

    last: tuple[str, str, Any, str, int, int, Any] | None = None

    def write(
        self,
        method: str,
        suffix: str,
        body: Any = None,
        *,
        key: str | None = None,
        expect: int = 200,
    ) -> Any:
        key = key or new_key()
        version = self.version
        answer = super().write(method, suffix, body, key=key, expect=expect)
        if expect < 300:
            self.last = (method, suffix, body, key, version, expect, answer)
        return answer


class LedgerModel(RuleBasedStateMachine):
    clients: ClassVar[list[Any]] = []  # two instances on one database (set by the test)

    def __init__(self) -> None:
        super().__init__()
        self.answers: dict[bytes, Any] = {}

    @initialize(
        variant=st.sampled_from(["gostop", "balance"]),
        size=st.integers(2, 10),
        stake=st.integers(1, 500),
        data=st.data(),
    )
    def create(self, variant: str, size: int, stake: int, data: st.DataObject) -> None:
        self.variant, self.stake = variant, stake
        self.roster = PEOPLE[: max(size, 3) if variant == "gostop" else size]
        self.first_dealer = data.draw(st.none() | st.sampled_from(self.roster))
        body = {"roster": list(self.roster), "variant": variant, "stake": stake}
        body |= {"ruleset": PRESET[variant], "dealer": self.first_dealer}
        self.table = RecordingTable.create(self.clients[0], body)
        self.entries: list[tuple[dict[str, Any], bool]] = []  # (body, voided)
        self.edits: list[tuple[int, tuple[Any, bool], tuple[Any, bool] | None]] = []
        self.undone: list[tuple[int, tuple[Any, bool], tuple[Any, bool] | None]] = []
        self.closed = False

    # --- the model -----------------------------------------------------------------------

    def stateless(
        self, hand: dict[str, Any], streak: int, dealer: str | None, lang: str = "ko"
    ) -> Any:
        """The stateless answer for a table hand at its place (in ``lang``)."""
        body = {**hand, "ruleset": PRESET[self.variant], "stake": self.stake}
        if self.variant == "gostop":
            body |= {"nagari_streak": streak} | ({} if dealer is None else {"dealer": dealer})
        path = f"/v1/{self.variant}/hands" + ("" if lang == "ko" else f"?lang={lang}")
        key = lang.encode() + orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
        if key not in self.answers:
            response = self.clients[0].post(path, json=body)
            assert response.status_code == 200, response.get_json()
            self.answers[key] = response.get_json()
        return self.answers[key]

    def derived(self, lang: str = "ko") -> tuple[list[dict[str, Any]], int, str | None]:
        """Each hand as the table should list it (its result in ``lang``), and the streak
        and dealer after them."""
        hands = []
        streak, dealer = 0, self.first_dealer
        for number, (hand, voided) in enumerate(self.entries, 1):
            status = "voided" if voided else "active"
            if self.variant == "balance":
                result = self.stateless(hand, 0, None, lang)
                hands.append(
                    {
                        "number": number,
                        "status": status,
                        "nagari_streak": 0,
                        "dealer": None,
                        "result": result,
                    }
                )
                if not voided:
                    best = max(result["net"].values())
                    leaders = [p for p, chips in result["net"].items() if chips == best]
                    dealer = leaders[0] if best > 0 and len(leaders) == 1 else dealer
                continue
            plays = any(p["id"] == dealer and not p.get("sits_out") for p in hand["players"])
            passed = hand.get("dealer") or (dealer if plays else None)
            result = self.stateless(hand, streak, passed, lang)
            hands.append(
                {
                    "number": number,
                    "status": status,
                    "nagari_streak": streak,
                    "dealer": passed,
                    "result": result,
                }
            )
            if voided:
                continue
            dealer = hand.get("dealer") or dealer
            kind = hand["outcome"]["type"]
            if kind == "nagari":
                streak += 1
            elif kind != "floor_four":
                streak, dealer = 0, hand["outcome"]["winner"]
            assert result["nagari_streak_after"] == streak
        return hands, streak, dealer

    def counted(self) -> list[dict[str, int]]:
        return [h["result"]["net"] if h["status"] == "active" else {} for h in self.derived()[0]]

    def check_changed(self, answer: Any, before: list[dict[str, int]]) -> None:
        after = self.counted()
        expected = []
        for index in range(max(len(before), len(after))):
            old = before[index] if index < len(before) else {}
            new = after[index] if index < len(after) else {}
            delta = {p: new.get(p, 0) - old.get(p, 0) for p in {*old, *new}}
            if any(delta.values()):
                expected.append(
                    {"number": index + 1, "delta": {p: d for p, d in delta.items() if d}}
                )
        assert answer["changed"] == expected

    def edit(self, number: int, entry: tuple[Any, bool]) -> None:
        """A change in effect: it replaces entry ``number`` (0: it appends one)."""
        old = self.entries[number - 1] if number else None
        if number:
            self.entries[number - 1] = entry
        else:
            self.entries.append(entry)
        self.edits.append((number, entry, old))
        self.undone.clear()

    def hand(self, data: st.DataObject) -> dict[str, Any]:
        hands = gostop_hands if self.variant == "gostop" else balance_hands
        return data.draw(hands(self.roster))

    def number(self, data: st.DataObject) -> int:
        """A hand number, now and then one the table does not have."""
        if data.draw(st.integers(0, 4)) == 0:
            return data.draw(st.integers(0, len(self.entries) + 1))
        return data.draw(st.integers(1, max(1, len(self.entries))))

    def refused(self, number: int, *, voiding: bool) -> int | None:
        """404 for a hand the table does not have; 409 for voiding a voided hand (a
        correction of one brings it back)."""
        if not 1 <= number <= len(self.entries):
            return 404
        return 409 if voiding and self.entries[number - 1][1] else None

    # --- the rules -----------------------------------------------------------------------

    @precondition(lambda self: not self.closed)
    @rule(data=st.data())
    def add(self, data: st.DataObject) -> None:
        hand = self.hand(data)
        answer = self.table.write("POST", "/hands", hand, expect=201)
        self.edit(0, (hand, False))
        assert answer["number"] == len(self.entries)
        assert answer["result"] == self.derived()[0][-1]["result"]

    @precondition(lambda self: not self.closed)
    @rule(data=st.data())
    def correct(self, data: st.DataObject) -> None:
        number, hand, before = self.number(data), self.hand(data), self.counted()
        body = {"hand": hand, "reason": "miscounted"}
        refused = self.refused(number, voiding=False)
        answer = self.table.write("PUT", f"/hands/{number}", body, expect=refused or 200)
        if refused is None:
            self.edit(number, (hand, False))
            self.check_changed(answer, before)

    @precondition(lambda self: not self.closed)
    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        number, before = self.number(data), self.counted()
        refused = self.refused(number, voiding=True)
        answer = self.table.write(
            "POST", f"/hands/{number}/void", {"reason": "entered twice"}, expect=refused or 200
        )
        if refused is None:
            self.edit(number, (self.entries[number - 1][0], True))
            self.check_changed(answer, before)

    @precondition(lambda self: not self.closed)
    @rule()
    def undo(self) -> None:
        before = self.counted()
        answer = self.table.write("POST", "/undo", expect=200 if self.edits else 409)
        if self.edits:
            number, entry, old = self.edits.pop()
            if number:
                assert old is not None
                self.entries[number - 1] = old
            else:
                self.entries.pop()
            self.undone.append((number, entry, old))
            self.check_changed(answer, before)

    @precondition(lambda self: not self.closed)
    @rule()
    def redo(self) -> None:
        before = self.counted()
        answer = self.table.write("POST", "/redo", expect=200 if self.undone else 409)
        if self.undone:
            number, entry, old = self.undone.pop()
            if number:
                self.entries[number - 1] = entry
            else:
                self.entries.append(entry)
            self.edits.append((number, entry, old))
            self.check_changed(answer, before)

    @precondition(lambda self: not self.closed and len(self.entries) >= 3)
    @rule(now=st.integers(0, 3))
    def close(self, now: int) -> None:
        if now == 0:
            self.table.write("POST", "/close")
            self.closed = True

    @rule(which=st.integers(0, 1))
    def switch_instance(self, which: int) -> None:
        self.table.client = self.clients[which]

    @precondition(lambda self: self.table.last is not None)
    @rule(which=st.integers(0, 1))
    def replay_the_last_write(self, which: int) -> None:
        """The stored answer, at the version it was made on (never a 412), from either
        instance; the key with another body is a 422."""
        assert self.table.last is not None
        method, suffix, body, key, version, status, answer = self.table.last
        headers = {**self.table.auth(), "Idempotency-Key": key, "If-Match": f'"{version}"'}
        client = self.clients[which]
        replayed = client.open(self.table.path + suffix, method=method, headers=headers, json=body)
        assert (replayed.status_code, replayed.get_json()) == (status, answer)
        assert replayed.headers["Idempotent-Replayed"] == "true"
        other = client.open(self.table.path + suffix, method=method, headers=headers, json={"x": 1})
        assert other.status_code == 422

    # --- what the table answers --------------------------------------------------------

    @invariant()
    def the_table_is_the_model(self) -> None:
        table = self.table.get()
        hands, streak, dealer = self.derived()
        assert table["version"] == self.table.version
        fields = ("number", "status", "nagari_streak", "dealer", "result")
        assert [{name: h[name] for name in fields} for h in table["hands"]] == hands
        totals = dict.fromkeys(self.roster, 0)
        for counted in self.counted():
            for player, chips in counted.items():
                totals[player] += chips
        assert table["totals"] == totals
        assert sum(totals.values()) == 0
        assert (table["nagari_streak"], table["dealer"]) == (streak, dealer)
        assert table["closed"] is self.closed
        assert table["can_undo"] is (bool(self.edits) and not self.closed)
        assert table["can_redo"] is (bool(self.undone) and not self.closed)

    @invariant()
    def its_reads_in_other_languages_are_the_model_in_them(self) -> None:
        """Each instance's read in English or both languages — kept per version and
        rendered again only where the ledger changed (ledger_cache.LedgerCache.rendered) —
        lists each hand with the stateless answer in that language."""
        lang = ("en", "all")[len(self.entries) % 2]
        hands = self.derived(lang)[0]
        fields = ("number", "status", "nagari_streak", "dealer", "result")
        for client in self.clients:
            read = client.get(f"{self.table.path}?lang={lang}", headers=self.table.auth())
            assert read.status_code == 200
            assert read.headers["ETag"] == f'"{self.table.version}.{lang}"'
            listed = read.get_json()["hands"]
            assert [{name: h[name] for name in fields} for h in listed] == hands, lang

    @invariant()
    def its_export_and_share_text_read_back(self) -> None:
        if len(self.entries) % 3:  # now and then: an import costs what the night does
            return
        client, table = self.clients[1], self.table
        exported = client.get(table.path + "/export", headers=table.auth())
        imported = client.post(
            "/v1/tables/import", data=exported.data, content_type="application/json"
        )
        assert imported.status_code == 201, imported.get_json()
        copy = TableClient(client, imported.get_json())
        first, second = table.get(), copy.get()
        for name in ("id", "join_code", "join_url"):
            del first[name], second[name]
        assert first == second
        again = client.get(copy.path + "/export", headers=copy.auth()).get_json()
        assert {**again, "id": None} == {**exported.get_json(), "id": None}
        settlement = table.get("/settlement")
        for lang in ("ko", "en"):
            text = client.get(table.path + f"/share?lang={lang}", headers=table.auth())
            read = client.post("/v1/share/parse", json={"text": text.get_data(as_text=True)})
            assert read.status_code == 200, read.get_json()
            assert read.get_json()["totals"] == settlement["totals"]
            assert read.get_json()["transfers"] == settlement["transfers"]


def test_any_night_over_http_is_what_the_model_says(ledger_app: Any, database_url: str) -> None:
    from calculator.api import create_app

    other = create_app({"access_log": False, "database_url": database_url})
    other.test_client_class = ledger_app.test_client_class
    LedgerModel.clients = [ledger_app.test_client(), other.test_client()]
    try:
        run_state_machine_as_test(
            LedgerModel,
            settings=settings(
                # the same model on PostgreSQL: half the search (CI's time), the rest on
                # SQLite, where the README's run searches it too
                max_examples=examples(60 if database_url.startswith("sqlite") else 30),
                stateful_step_count=20,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            ),
        )
    finally:
        other.extensions["gostop_store"].dispose()
