"""The answer's builders read records without their properties (compiled, a property is a
generic lookup): what they write, on hands where each way is taken; and what they keep
(counts, payments, echoes): found again by value, with the bytes they were written as."""

from __future__ import annotations

import dataclasses
from typing import Any

import orjson

from bench.corpus import corpus
from calculator import resolve, settle
from calculator.api import serialize
from calculator.api.schemas import load_hand_request
from calculator.api.serialize import item_json, player_json
from calculator.cards import DECK
from calculator.errors import GoStopError
from calculator.explain import LANGUAGES, payment_text, step_text
from calculator.labels import label
from calculator.presets import Variant, presets
from calculator.result import (
    Counts,
    CountValues,
    HandResult,
    Payment,
    PlayerResult,
    count_values,
    winner_of,
)
from calculator.settlement import compare
from tests.golden import golden_corpus

MODES = ("cards", "mixed")  # every pile listed; one in five tallied
DECLARED = {  # declared piles: no counts
    "stake": 100,
    "players": [
        {"id": "A", "declared": {"points": 7, "scored": ["junk"]}},
        {"id": "B", "declared": {"pi_bak": True}},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}


def _results() -> list[HandResult]:
    standard = resolve("standard")
    return [
        settle(load_hand_request(body).hand, standard)
        for modes in MODES
        for body in [*corpus(60, players=3, modes=modes), DECLARED]
    ]


def _cards_of_mask(mask: int) -> list[str]:
    """The IDs of the cards in ``mask``, in deck order, read from the deck itself."""
    return [card.id for card in DECK if card.bit & mask]


def test_an_items_cards_are_the_cards_behind_it() -> None:
    """``item_json`` writes the item's own IDs when it knows them, else the cards of its
    mask in deck order (checked against the deck, not against the code that writes it)."""
    known = from_mask = 0
    for result in _results():
        for player in result.players:
            for item in player.items:
                written = orjson.loads(orjson.dumps(item_json(item)))
                expected = list(item.ids) if item.ids is not None else _cards_of_mask(item.mask)
                assert written["cards"] == expected
                if item.ids is not None and item.mask:
                    assert sorted(item.ids) == sorted(_cards_of_mask(item.mask))
                known += item.ids is not None
                from_mask += item.ids is None and item.mask != 0
    assert known  # both ways were taken
    assert from_mask


def _player_as_dict(player: PlayerResult, langs: tuple[str, ...]) -> dict[str, Any]:
    """A player's entry as dicts and lists, read from the record's own properties: what
    the answer wrote through orjson before its players were written directly."""
    found: dict[str, Any] = {
        "id": player.id,
        "points": player.points,
        "items": [
            {
                "code": item.code,
                "points": item.points,
                "cards": list(item.cards),
                "label": {lang: getattr(label(item.code), lang) for lang in langs},
            }
            for item in player.items
        ],
        "counts": None if player.counts is None else player.counts._asdict(),
    }
    if player.gukjin_as:
        found["gukjin_as"] = player.gukjin_as
    found["may_stop"] = player.may_stop
    if player.sits_out:
        found["sits_out"] = True
        found["sold"] = player.sold
    return found


ODD_IDS = ("철수", 'say "hi"', "back\\slash", "\u2028", "é", "🀄")  # control characters: refused


def test_players_are_written_as_orjson_writes_their_dicts() -> None:
    """The players written directly (:func:`serialize._write_player`) are byte for byte
    what orjson writes for them as dicts, in every language set: over the golden corpus
    under every Go-Stop preset (sitters, switchable cards, tallies, declared piles) and
    with player IDs that need escaping or are not ASCII."""
    checked = sitters = placed = 0
    for preset in sorted(name for name, p in presets().items() if p.variant is Variant.GOSTOP):
        ruleset = resolve(preset)
        for body in golden_corpus():
            try:
                result = settle(load_hand_request(body).hand, ruleset)
            except GoStopError:
                continue
            for langs in (("ko",), ("en",), LANGUAGES):
                shape = serialize.Shape(langs=langs)
                written = orjson.dumps(serialize.players_json(result.players, shape))
                expected = [_player_as_dict(p, langs) for p in result.players]
                assert written == orjson.dumps(expected)
            checked += 1
            sitters += any(p.sits_out for p in result.players)
            placed += any(p.gukjin_as for p in result.players)
    assert checked > 900
    assert sitters
    assert placed
    body = corpus(1, players=3, modes="cards")[0]
    for odd in ODD_IDS:
        renamed = {**body, "players": [{**body["players"][0], "id": odd}, *body["players"][1:]]}
        outcome = renamed["outcome"]
        if outcome.get("winner") == body["players"][0]["id"]:
            renamed["outcome"] = {**outcome, "winner": odd}
        result = settle(load_hand_request(renamed).hand, resolve("standard"))
        written = orjson.dumps(serialize.player_json(result.players[0]))
        assert written == orjson.dumps(_player_as_dict(result.players[0], ("ko",)))


def test_a_players_counts_are_named_as_the_record_names_them() -> None:
    """``player_json`` writes ``count_values``' plain tuple under the names the
    :class:`~calculator.result.Counts` record gives those positions, or null without one
    (what the counts are is the engine's tests' business)."""
    counted = uncounted = 0
    for result in _results():
        for player in result.players:
            counts = player.counts
            written = orjson.loads(orjson.dumps(player_json(player)))["counts"]
            assert written == (None if counts is None else counts._asdict())
            counted += counts is not None
            uncounted += counts is None
    assert counted
    assert uncounted


def test_counts_are_written_as_orjson_writes_their_dict() -> None:
    """The counts are written directly (numbers and nulls): byte for byte what orjson
    writes for them as a dict, on every player of the corpus and at the edges."""
    values: list[CountValues | None] = [
        count_values(player) for result in _results() for player in result.players
    ]
    values += [None, (0, 0, 0, 0, 0, 0), (5, 10, 10, 10**6, None, None), (1, 2, 3, -4, 5, 6)]
    for counts in values:
        expected = orjson.dumps(None if counts is None else Counts(*counts)._asdict())
        assert serialize._counts_text(counts) == expected


def test_counts_are_kept_by_value() -> None:
    """Equal counts (another tuple: the next hand's) find the bytes kept for them (the
    items' end before them)."""
    first = serialize._counts_bytes((2, 5, 3, 10, 10, 20))
    assert first == b'],"counts":' + serialize._counts_text((2, 5, 3, 10, 10, 20))
    assert serialize._counts_bytes(Counts(2, 5, 3, 10, 10, 20)._values()) is first  # type: ignore[arg-type]
    assert serialize._counts_bytes((2, 5, 3, 10, None, None)) is not first


def test_a_table_item_is_found_by_identity_as_its_value_would_find_it() -> None:
    """An item of the score tables is kept by identity: the same object again (the next
    hand under the same rules) takes that way, and writes what the cache by value writes."""
    found = 0
    korean = serialize.DEFAULT_SHAPE.langs
    items = serialize._kept(korean).items
    for result in _results():
        for player in result.players:
            for item in player.items:
                written = serialize._item_text(item, korean)
                items.clear()
                assert written is serialize._item_text(item, korean) or item.ids is None  # kept
                # a table item again: found by identity, without the cache by value
                assert len(items) == (0 if item.ids is not None else 1)
                copy = item._replace()  # equal, another object: found by value alone
                assert serialize._item_text(copy, korean) == written
                if item.ids is not None:
                    kept = serialize._kept(korean).by_identity[id(item)]
                    assert kept[0] is item
                    assert kept[1][0] is written
                    assert kept[1][1] == b"," + written  # after a comma
                    found += 1
    assert found


def test_a_table_item_kept_by_identity_answers_in_the_language_asked() -> None:
    """The identity entry is for one set of languages: another set gets its own labels,
    and an equal set held by another tuple (the hand endpoint's, the ledger's) finds it."""
    item = next(i for r in _results() for p in r.players for i in p.items if i.ids is not None)
    for langs in [("ko",), ("en",), ("ko", "en"), ("en",), ("ko",)]:
        label = orjson.loads(orjson.dumps(item_json(item, langs)))["label"]
        assert list(label) == list(langs)
    korean = serialize._item_text(item, ("ko", "en")[:1])  # another tuple, equal
    assert serialize._kept(("ko", "en")[:1]) is serialize._kept(("ko",))  # one table each
    serialize._kept(("ko",)).items.clear()
    assert serialize._item_text(item, ("ko", "en")[:1]) is korean
    assert not serialize._kept(("ko",)).items  # found by identity


def test_a_payments_sentence_is_explain_payment_text() -> None:
    """The answer builds each payment's sentence, and each of its steps' lines, from the
    steps' kept operations: they say what :func:`calculator.explain.payment_text` and
    :func:`calculator.explain.step_text` say, in every language."""
    from calculator.explain import LANGUAGES, payment_text, step_text

    checked = 0
    for result in _results():
        answer = orjson.loads(serialize.hand_text(result, (), serialize.Shape(langs=LANGUAGES)))
        for payment, written in zip(result.payments, answer["payments"], strict=True):
            for lang in LANGUAGES:
                said = payment_text(payment, stake=result.stake, lang=lang)
                assert written["text"][lang] == said
                checked += 1
            first, before = serialize._own_steps(payment.steps)
            for step, line in zip(payment.steps[first:], written.get("steps", []), strict=True):
                for lang in LANGUAGES:
                    assert line["text"][lang] == step_text(step, before=before, lang=lang)
                before = step.total
    assert checked > 100


def test_a_payment_of_at_most_one_step_is_kept_by_its_value() -> None:
    """A payment again — the same hand scored anew, every step another object — finds the
    bytes kept for it (by its value, steps and all) when it has at most one step of its
    own, the bytes it is written as when nothing is kept; under another stake or language
    it is written anew. One of more steps is written with the answer, every time."""
    standard = resolve("standard")
    bodies = [body for modes in MODES for body in [*corpus(30, players=3, modes=modes), DECLARED]]
    korean, english = ("ko",), ("en",)
    kept_korean = serialize._kept(korean)
    kept = unkept = 0
    for body in bodies:
        first = settle(load_hand_request(body).hand, standard)
        again = settle(load_hand_request(body).hand, standard)
        for payment, same in zip(first.payments, again.payments, strict=True):
            assert same == payment
            if payment.steps:
                assert same.steps[-1] is not payment.steps[-1]
            kept_korean.clear()
            written = serialize._payment_bytes(payment, first.stake, korean)
            found = serialize._payment_bytes(same, first.stake, korean)
            assert found == written
            assert orjson.dumps(serialize.payment_json(same, first.stake)) == written
            opening, _start = serialize._own_steps(payment.steps)
            if len(payment.steps) - opening > 1:
                assert not kept_korean.payments.tables
                assert not kept_korean.payments.held
                unkept += 1
                continue
            assert found is written
            kept += 1
            kept_korean.clear()
            assert serialize._payment_bytes(same, first.stake, korean) == written
            assert serialize._payment_bytes(payment, first.stake + 1, korean) is not written
            assert serialize._payment_bytes(payment, first.stake, english) != written
    assert kept
    assert unkept


def test_a_rule_set_echo_is_found_by_identity_as_its_value_would_find_it() -> None:
    """A resolved rule set is kept: the same object again finds its echo by identity, and
    an equal one (another object) writes the same bytes by value; the full echo is its
    own, kept beside the short one."""
    standard = resolve("standard")
    compact = serialize._ruleset_opening(standard, full=False)
    assert serialize._RULESETS_BY_IDENTITY[0][id(standard)][1] is compact
    assert compact.startswith(b'{"ruleset":')
    assert compact.endswith(b',"outcome":')
    echo = compact.removeprefix(b'{"ruleset":').removesuffix(b',"outcome":')
    assert orjson.loads(echo) == serialize.ruleset_json(standard)
    assert serialize._ruleset_opening(resolve("standard"), full=False) is compact
    copy = dataclasses.replace(standard)
    assert copy is not standard
    assert serialize._ruleset_opening(copy, full=False) == compact
    full = serialize._ruleset_opening(standard, full=True)
    assert orjson.loads(full + b"null}")["ruleset"]["options"] == standard.options()
    # each echo has its own identity entry: a client alternating the two finds both
    assert serialize._RULESETS_BY_IDENTITY[1][id(standard)][1] is full
    assert serialize._ruleset_opening(standard, full=False) is compact
    assert serialize._ruleset_opening(standard, full=True) is full


_OP_KEY = {"start": "amount", "add": "addend", "multiply": "factor"}


def _steps_as_dicts(steps: Any, before: int, langs: tuple[str, ...]) -> list[dict[str, Any]]:
    """Explanation lines as dicts, from the steps and ``explain.step_text`` alone."""
    found = []
    for step in steps:
        line: dict[str, Any] = {
            "code": step.code,
            "op": step.op,
            _OP_KEY[step.op]: step.value,
            "total": step.total,
            "text": {lang: step_text(step, before=before, lang=lang) for lang in langs},
        }
        if step.times is not None:
            line["times"] = step.times
        if step.player is not None:
            line["player"] = step.player
        found.append(line)
        before = step.total
    return found


def _payment_as_dict(payment: Payment, stake: int, langs: tuple[str, ...]) -> dict[str, Any]:
    """A payment's entry as a dict, from the record and ``explain`` alone: what the answer
    wrote through orjson before its payments were written directly."""
    first, before = serialize._own_steps(payment.steps)
    found: dict[str, Any] = {
        "from": payment.payer,
        "to": payment.payee,
        "points": payment.points,
        "chips": payment.chips,
        "reason": payment.reason,
        "text": {lang: payment_text(payment, stake=stake, lang=lang) for lang in langs},
    }
    if len(payment.steps) > first:
        found["steps"] = _steps_as_dicts(payment.steps[first:], before, langs)
    if payment.priced_in != "points":
        found["priced_in"] = payment.priced_in
    return found


def _odd_results() -> list[HandResult]:
    """Hands whose players' IDs need escaping or are not ASCII, each a winner, a payer and
    a liable loser in turn."""
    found = []
    body = corpus(1, players=3, modes="cards")[0]
    ids = [p["id"] for p in body["players"]]
    for odd in ODD_IDS:
        for renamed_id in ids:
            text = orjson.dumps(body).decode()
            text = text.replace(f'"{renamed_id}"', orjson.dumps(odd).decode())
            renamed = orjson.loads(text)
            for liable in (None, *[p["id"] for p in renamed["players"]]):
                if liable is not None:
                    renamed = {**renamed, "outcome": {**renamed["outcome"], "liable": liable}}
                try:
                    found.append(settle(load_hand_request(renamed).hand, resolve("standard")))
                except GoStopError:
                    continue
    return found


CHIP_PRICES = ("ppuk_chips", "ttadak_chips", "gwangpal_chips", "chongtong_chips")


def test_payments_and_winners_are_written_as_orjson_writes_their_dicts() -> None:
    """A payment (kept or written with its answer) and the winner's part are byte for
    byte what orjson writes for their dicts, read from the records and explain's
    sentences: over the golden corpus under every Go-Stop preset, in every language set,
    and with player IDs that need escaping."""
    results = _odd_results()
    rulesets = [
        resolve(name) for name, p in sorted(presets().items()) if p.variant is Variant.GOSTOP
    ]
    # side payments and 총통 priced in chips
    rulesets.append(resolve("standard", dict.fromkeys(CHIP_PRICES, 30)))
    for ruleset in rulesets:
        for body in golden_corpus():
            try:
                results.append(settle(load_hand_request(body).hand, ruleset))
            except GoStopError:
                continue
    kept = unkept = chips = winners = 0
    for result in results:
        for langs in (("ko",), ("en",), LANGUAGES):
            shape = serialize.Shape(langs=langs)
            for payment in result.payments:
                expected = orjson.dumps(_payment_as_dict(payment, result.stake, langs))
                written = orjson.dumps(serialize.payment_json(payment, result.stake, shape))
                assert written == expected
                own = len(payment.steps) - serialize._own_steps(payment.steps)[0]
                kept += own <= 1
                unkept += own > 1
                chips += payment.priced_in != "points"
            winner = result.winner_score
            if winner is not None:
                winner_id = winner_of(result)
                expected_winner = {
                    "winner": winner_id,
                    "base": winner.base,
                    "steps": _steps_as_dicts(winner.steps, winner.base, langs),
                    "amount": winner.amount,
                }
                written = orjson.dumps(serialize.winner_json(winner, winner_id, shape))
                assert written == orjson.dumps(expected_winner)
                winners += 1
    assert kept
    assert unkept
    assert chips
    assert winners


def _answer_as_dicts(
    result: HandResult, comparisons: tuple[Any, ...], shape: serialize.Shape
) -> dict[str, Any]:
    """A hand's answer as the dict builders of its parts make it (the rule set echo, the
    outcome, players, settlement and comparisons), in SPEC §4's order: what
    :func:`serialize.write_hand` must write, built without it."""
    body: dict[str, Any] = {
        "ruleset": serialize.ruleset_json(result.ruleset, full=shape.full_ruleset),
        "outcome": serialize.outcome_json(result),
        "stake": result.stake,
    }
    if result.outcome is None:
        body["preview"] = True
    body["players"] = serialize.players_json(result.players, shape)
    body.update(serialize.settlement_json(result, shape))
    if comparisons:
        body["comparisons"] = [serialize.comparison_json(c, shape) for c in comparisons]
    return body


def test_a_hands_answer_is_written_as_orjson_writes_its_parts() -> None:
    """:func:`serialize.write_hand` (every hand's answer: alone, in a batch, in a table)
    writes the bytes orjson writes for the dict its parts' builders make: over the golden
    corpus under every Go-Stop preset (previews, drawn hands, liable losers, sitters,
    tallies, declared piles), hands compared with other rule sets, odd player IDs, in
    every shape."""
    others = [resolve("wikipedia"), resolve("gamerules")]
    cases: list[tuple[HandResult, tuple[Any, ...]]] = [(r, ()) for r in _odd_results()]
    # points and chips past the texts kept for small numbers
    large = {**DECLARED, "players": [*DECLARED["players"]], "stake": 1000}
    large["players"][0] = {"id": "A", "declared": {"points": 150, "scored": ["junk"]}}
    cases.append((settle(load_hand_request(large).hand, resolve("standard")), ()))
    # a long run of drawn hands: past the streaks' kept texts
    drawn_run = {**DECLARED, "outcome": {"type": "nagari"}, "nagari_streak": 40}
    cases.append((settle(load_hand_request(drawn_run).hand, resolve("standard")), ()))
    for preset in sorted(name for name, p in presets().items() if p.variant is Variant.GOSTOP):
        ruleset = resolve(preset)
        for i, body in enumerate(golden_corpus()):
            try:
                hand = load_hand_request(body).hand
                result = settle(hand, ruleset)
            except GoStopError:
                continue
            cases.append((result, compare(hand, result, others) if i % 7 == 0 else ()))
    previews = drawn = liable = compared = 0
    points = {p.points for result, _ in cases for p in result.players}
    chips = {c for result, _ in cases for c in result.net.values()}
    assert max(points) >= 128 > min(points)  # both ways of writing each taken
    assert any(-256 <= c < 256 for c in chips)
    assert any(not -256 <= c < 256 for c in chips)
    streaks = {result.nagari_streak_after for result, _ in cases}
    assert max(streaks) >= len(serialize._STREAK_ENDS) > min(streaks)
    for result, comparisons in cases:
        for langs in (("ko",), ("en",), LANGUAGES):
            for full in (False, True):
                shape = serialize.Shape(langs=langs, full_ruleset=full)
                out: list[bytes] = []
                serialize.write_hand(out, result, comparisons, shape)
                expected = orjson.dumps(_answer_as_dicts(result, comparisons, shape))
                assert b"".join(out) == expected
                assert serialize.hand_text(result, comparisons, shape) == expected
        outcome = result.outcome
        previews += outcome is None
        drawn += outcome is not None and result.winner_score is None
        liable += outcome is not None and outcome.liable is not None
        compared += bool(comparisons)
    assert previews
    assert drawn
    assert liable
    assert compared


def test_an_outcomes_opening_is_found_by_identity() -> None:
    """Each outcome type finds its opening by identity (no ``str`` copy to hash): what
    orjson writes for its value, kept."""
    from calculator.hand import OutcomeType

    for kind in OutcomeType:
        found = serialize._outcome_opening(kind)
        assert found is next(text for known, text in serialize._OUTCOME_OPENINGS if known is kind)
        assert found == b'{"type":%b,"winner":' % orjson.dumps(kind.value)


def test_the_tables_kept_by_a_part_count_every_entry_they_hold() -> None:
    """The steps, winners' parts and payments are kept in a table each by the amount a
    step starts from, the winner's ID and the stake: each bounded by the entries held in
    all of its tables, which it counts as it adds them (a count that fell behind would let
    the tables grow past their bound)."""
    langs = ("en",)
    kept = serialize._kept(langs)
    kept.clear()
    for result in _results():
        serialize.hand_text(result, (), serialize.Shape(langs=langs))
    for parts in (kept.steps, kept.winners, kept.payments):
        assert parts.held
        assert parts.held == sum(len(table) for table in parts.tables.values())


def test_parts_kept_past_their_bound_start_again_and_still_count() -> None:
    """Past its bound a part drops every table and counts from its first entry again:
    what it keeps after that is found (a count that fell behind, or a table left aside,
    would grow past the bound or miss every time)."""
    parts = serialize._Parts(3)
    for i in range(3):
        parts.keep(i % 2, i, f"value {i}")
    assert parts.held == 3
    assert parts.tables == {0: {0: "value 0", 2: "value 2"}, 1: {1: "value 1"}}
    parts.keep(1, 3, "value 3")  # the fourth: every table dropped first
    assert parts.held == 1
    assert parts.tables == {1: {3: "value 3"}}
    parts.keep(1, 4, "value 4")
    assert parts.tables[1] == {3: "value 3", 4: "value 4"}
    assert parts.held == sum(len(table) for table in parts.tables.values())
    parts.clear()
    assert not parts.tables
    assert not parts.held
