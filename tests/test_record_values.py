"""The engine's records (:class:`calculator.records.Record`) behave as the named tuples
they replaced did, for everything the code and the answer caches rely on: equal and
hashed by their fields, a copy by ``_replace``, a readable ``repr``.

Each record names its fields in ``_fields`` and, for the ones the answer keeps by value,
gives their values in ``_values`` by hand: these tests hold both to the constructor, on
every record a corpus of real hands produces (listed and tallied piles, 2 and 3 players);
the golden and snapshot tests hold the answers built from them byte for byte.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import pytest

from bench.corpus import corpus
from calculator.api.schemas import load_hand_request
from calculator.codes import CODE_LISTS
from calculator.presets import resolve
from calculator.records import HASH_BITS, Record
from calculator.result import Counts, HandResult, Payment, PlayerResult, Step, WinnerScore
from calculator.scoring import Item, Pile, Score
from calculator.settlement import settle

RECORDS = (Counts, HandResult, Item, Payment, Pile, PlayerResult, Score, Step, WinnerScore)


def _results() -> list[HandResult]:
    standard = resolve("standard")
    return [
        settle(load_hand_request(body).hand, standard)
        for players in (2, 3)
        for modes in ("cards", "mixed")
        for body in corpus(40, players=players, modes=modes, seed=players)
    ]


def _walk(value: object) -> Iterator[Record]:
    """Every record in ``value``, nested ones included."""
    if isinstance(value, Record):
        yield value
        for field in value._values():
            yield from _walk(field)
    elif isinstance(value, tuple | list):
        for element in value:
            yield from _walk(element)


FOUND = [record for result in _results() for record in _walk(result)]


def test_the_corpus_reaches_every_record() -> None:
    reached = {type(record) for record in FOUND}
    assert reached >= set(RECORDS) - {Counts, Pile}  # built elsewhere: below


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_fields_are_the_constructors_parameters(record: type[Record]) -> None:
    try:
        signature = inspect.signature(record)
    except ValueError:  # pragma: no cover - a compiled class may not say its signature
        pytest.skip("the compiled class gives no signature (the pure-Python run checks it)")
    assert tuple(signature.parameters) == record._fields


def test_values_are_the_fields_in_order() -> None:
    for record in FOUND:
        named = tuple(getattr(record, name) for name in record._fields)
        assert record._values() == named, type(record).__name__


def test_a_copy_is_equal_hashed_alike_and_another_object() -> None:
    for record in FOUND:
        if isinstance(record, HandResult):  # it holds the net, a dict: not hashable
            assert record._replace() == record
            continue
        copy = record._replace()
        assert copy == record
        assert (copy != record) is False  # __ne__ too
        assert copy is not record
        assert hash(copy) == hash(record)


def test_a_record_differs_by_any_of_its_fields() -> None:
    """Two values a field takes in the corpus: the record with the one is not equal to
    the record with the other (an ``__eq__`` written out must name every field)."""
    checked = set()
    for record_type in RECORDS:
        samples = [r for r in FOUND if type(r) is record_type]
        for name in record_type._fields:
            seen: dict[str, object] = {}
            for sample in samples:
                seen.setdefault(repr(getattr(sample, name)), getattr(sample, name))
                if len(seen) == 2:
                    break
            else:
                continue  # one value only in the corpus: see the test below
            one, other = seen.values()
            record = next(r for r in samples if getattr(r, name) == one)
            assert record._replace(**{name: other}) != record, f"{record_type.__name__}.{name}"
            checked.add(f"{record_type.__name__}.{name}")
    written_out = {
        f"{r.__name__}.{name}" for r in (Step, Payment, WinnerScore, Item) for name in r._fields
    }
    # the corpus pays only stops, in points, to its one winner, player-0: below
    assert written_out - checked == {"Payment.payee", "Payment.reason", "Payment.priced_in"}


def test_any_field_changed_makes_another_value() -> None:
    step = Step("pi_bak", "multiply", 2, 36, None, None, (("junk_value", 4), ("threshold", 5)))
    # another value of the field's own type (compiled, a record checks the types)
    changed = {"code": "go_bak", "op": "add", "value": 3, "total": 37, "times": 1, "player": "C"}
    for name in step._fields:
        other = step._replace(**{name: changed.get(name, ())})
        assert other != step, name
        assert (other == step) is False, name
    assert step != tuple(step._values())  # not a tuple any more: of its own class alone
    payment = Payment("B", "A", 36, 360, "stop", (step,))
    assert payment._replace(steps=(step._replace(total=37),)) != payment
    assert payment._replace(payee="C") != payment
    assert payment._replace(reason="first_ppuk") != payment
    assert payment._replace(priced_in="chips") != payment


def test_records_that_differ_in_what_a_client_varies_hash_apart() -> None:
    """The records the answer keeps by value hash every field their equality reads
    (records.py): steps, payments and winners that differ only in a player ID, a streak,
    a 피박's count or their steps hashed alike, and the answer's caches grew one collision
    chain that every later look-up walked (a 1,000-hand batch took 1.8 s of CPU). IDs of
    one length and one last character too (a hash of those alone would be the client's
    to collide)."""
    ids = [f"player-{i:04d}x" for i in range(300)]
    step = Step("pi_bak", "multiply", 2, 36, None, None, (("junk_value", 4), ("threshold", 5)))
    steps = [
        *(step._replace(player=i) for i in ids),
        *(step._replace(times=n) for n in range(65)),
        *(
            step._replace(facts=(("junk_value", n), ("threshold", t)))
            for n in range(20)
            for t in range(8)
        ),
        *(step._replace(value=v, total=36 * v) for v in range(1, 65)),
        # a total of its factor × 2**30 (a review: the factor cancelled out of the hash)
        *(Step("nagari", "multiply", f, f << 30, 64) for f in range(1, 257)),
    ]
    payments = [
        *(Payment(i, "A", 36, 360, "stop", (step,)) for i in ids),
        *(Payment("B", i, 36, 360, "stop", (step,)) for i in ids),
        *(Payment("B", "A", 36, 360, "stop", (other,)) for other in steps),
    ]
    winners = [WinnerScore(18, (step, other), 36) for other in steps]
    items = [Item("junk", points, mask) for points in range(1, 1001, 7) for mask in (5, 1 << 51)]
    for records in (steps, payments, winners, items):
        assert len(set(records)) == len(records)  # each its own
        assert len({hash(record) for record in records}) == len(records)


def test_a_step_s_op_is_one_of_the_ops_and_each_hashes_apart() -> None:
    """A step's hash reads its op by length (result._step_hash): the ops the wire lists
    (GET /v1/codes, list ``op``) differ in length, every step the corpus makes has one of
    them, and steps that differ only in their op hash apart."""
    ops = CODE_LISTS["op"]
    assert len({len(op) for op in ops}) == len(ops)
    assert {record.op for record in FOUND if isinstance(record, Step)} <= set(ops)
    step = Step("go_bonus", "add", 2, 9, 2)
    assert len({hash(step._replace(op=op)) for op in ops}) == len(ops)


def test_records_that_share_a_hash_are_kept_apart() -> None:
    """Two records that share a hash (an item's IDs follow from its mask and are not
    hashed; two of the service's codes may share a key) stay two keys, each finding its
    own value (equality tells them apart)."""
    item = Item("junk", 1, 0b1111111111, ("01-junk-1",))
    gwang = Step("gwang_bak", "multiply", 2, 36)
    pairs = [
        (item, item._replace(ids=("01-junk-2",))),
        (gwang, gwang._replace(code="meong_bak")),  # same length, same last characters
    ]
    for one, other in pairs:
        assert hash(one) == hash(other)
        assert one != other
        kept = {one: "one", other: "other"}
        assert (kept[one], kept[other], len(kept)) == ("one", "other", 2)
        assert kept[one._replace()] == "one"  # found by value, another object


def test_replace_refuses_an_unknown_field_as_a_named_tuple_did() -> None:
    with pytest.raises(TypeError, match="no field 'pionts'"):
        Item("junk", 1, 0)._replace(pionts=2)


def test_repr_and_asdict_name_the_fields() -> None:
    item = Item("junk", 2, 0)
    assert repr(item) == "Item(code='junk', points=2, mask=0, ids=None)"
    assert item._asdict() == {"code": "junk", "points": 2, "mask": 0, "ids": None}
    counts = Counts(1, 2, 3, 4, None, None)
    assert counts._asdict()["junk_cards"] is None
    assert WinnerScore(3, (), 3)._replace(amount=6).amount == 6


def test_player_results_properties_read_their_score() -> None:
    sitting = PlayerResult("D", 0, (), False, None, 2)
    assert sitting.sits_out
    assert sitting.counts is None
    assert sitting.gukjin_as == {}
    scored = next(r for r in FOUND if isinstance(r, PlayerResult) and r.score is not None)
    assert not scored.sits_out
    assert isinstance(scored.score, Score)


def test_a_record_copies_and_pickles_to_an_equal_one() -> None:
    import copy
    import pickle

    for record in FOUND[:200]:
        for again in (copy.copy(record), copy.deepcopy(record), pickle.loads(pickle.dumps(record))):
            assert type(again) is type(record)
            assert again == record


def test_a_hash_fits_whatever_the_fields_hold() -> None:
    """The written-out hashes mix their fields in native arithmetic, cut to
    :data:`~calculator.records.HASH_BITS`: amounts past 64 bits, negative ones and empty
    texts hash (compiled, a hash past 64 bits would be an OverflowError), equal records
    alike."""
    huge = 2**80 + 3
    records = [
        Step("pi_bak", "multiply", huge, -huge),
        Step("", "add", -1, 0),
        Item("", huge, huge),
        Payment("", "🀄", huge, -huge, "stop", ()),
        WinnerScore(-huge, (), huge),
    ]
    for record in records:
        assert 0 <= hash(record) <= HASH_BITS
        assert hash(record._replace()) == hash(record)


def test_mix_gives_the_same_bits_at_every_width() -> None:
    """Compiled, :func:`~calculator.records.mix` takes one of two paths: native 64-bit
    arithmetic for values within 63 bits, boxed integers beyond. Both give the bits of the
    one formula, at the edges of the native path too (negative values, a product's
    30 bits, the widest short int and one past it). The hash so far (``found``) is native
    (i64) on both paths: a key, a text's hash or a mix is never wider."""
    from calculator.records import code_key, mix, text_hash

    def formula(found: int, value: int) -> int:
        low = (1 << 30) - 1
        mixed = found ^ value
        mixed = (mixed & low) * 1_000_003 ^ mixed >> 30
        return ((mixed & low) * 1_000_003 ^ mixed >> 30) & HASH_BITS

    edges = [0, 1, -1, 5, 2**30 - 1, 2**30, -(2**30), 36 << 30, HASH_BITS, 2**62 - 1]
    edges += [-(2**62 - 1), 2**62, -(2**62), 2**63 - 1, 2**63, -(2**63) - 1, 2**80 + 3]
    for found in [edge for edge in edges if -(2**63) <= edge < 2**63]:
        for value in edges:
            assert mix(found, value) == formula(found, value), (found, value)
    for text in ("", "A", "player-0", "🀄", "x" * 40):
        assert text_hash(text) == hash(text) & HASH_BITS
    assert text_hash(None) == 0
    assert [code_key(code) for code in ("", "a", "go")] == [0, 1, 2 << 16 | ord("g") << 8 | 111]


def test_a_payment_s_kept_hash_is_that_of_its_fields() -> None:
    """A payment keeps its hash once made (``_hash``, as a step does: the answer keys its
    payments by the record): not a field, not read by equality, the same for an equal
    payment made anew, and it moves with every field that equality reads."""
    step = Step("pi_bak", "multiply", 2, 36, None, None, (("junk_value", 4), ("threshold", 5)))
    payment = Payment("B", "A", 36, 360, "stop", (step,))
    assert "_hash" not in Payment._fields
    first = hash(payment)
    assert hash(payment) == first == hash(Payment("B", "A", 36, 360, "stop", (step,)))
    changed: dict[str, object] = {
        "payer": "C",
        "payee": "C",
        "points": 37,
        "chips": 370,
        "reason": "first_ppuk",
        "steps": (step._replace(total=37),),
        "priced_in": "chips",
    }
    assert set(changed) == set(Payment._fields)
    for name, value in changed.items():
        other = payment._replace(**{name: value})
        hash(other)  # its hash made, then compared: equality does not read it
        assert other != payment, name
        assert hash(other) != first, name
    for record in FOUND:
        if isinstance(record, Payment):
            assert hash(record) == hash(record._replace()) == hash(record)
