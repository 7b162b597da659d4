"""Domain results → JSON (the response side of SPEC §4).

Plain functions, much faster than a marshmallow ``dump``: a Go-Stop hand's answer is
written as JSON text directly, by one writer wherever it goes (:func:`write_hand`: a
single hand, a batch, a table's rows); its parts (the rule set echo, players, winner,
payments) also as dicts or fragments for orjson, which the tests hold equal to the text.
The other answers are dicts built for orjson, each in a module of its own:
:mod:`calculator.api.balance_json`, :mod:`calculator.api.session_json` and
:mod:`calculator.api.reference_json` (cards, presets, codes). The response schemas in
:mod:`calculator.api.responses` (and its siblings) document the same shapes, and the test
suite checks every response against them, so the two cannot drift.

One module for one job, a hand's answer, past STYLE.md's ~400 lines: its writers share
the parts kept by value (:class:`_Kept`), which stay private to it, and each writer's
comment gives the instructions it saves (bench/RESULTS.md).

Parts that repeat from response to response — the resolved rule set, scoring items,
explanation steps, a player's counts, whole payments — are serialized once and reused
(as bytes in the text, as ``orjson.Fragment`` values in the dicts, which are meant for
``orjson.dumps``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Final, NamedTuple, final

import orjson

from calculator.cards import ids_of
from calculator.errors import Issue, pointer
from calculator.explain import LANGUAGES, operation, payment_sentence, step_line
from calculator.hand import OutcomeType
from calculator.labels import label
from calculator.presets import RuleSet
from calculator.result import (
    CountValues,
    HandResult,
    Payment,
    PlayerResult,
    Step,
    WinnerScore,
    count_values,
    gukjin_of,
    winner_of,
)
from calculator.scoring import Item
from calculator.settlement import Comparison

_OP_KEY: Final = {"start": "amount", "add": "addend", "multiply": "factor"}
# orjson's functions held here: compiled, ``orjson.dumps`` is a module attribute lookup
_dumps: Final = orjson.dumps
_Fragment: Final = orjson.Fragment


class Shape(NamedTuple):
    """How an answer is shaped: the languages of its ``label`` and ``text`` fields, and
    whether its rule set echo lists every resolved option (``?full_ruleset=true``)."""

    langs: tuple[str, ...] = LANGUAGES[:1]
    full_ruleset: bool = False


DEFAULT_SHAPE: Final = Shape()
"""The default answer (what tables store): Korean, the compact rule set echo."""


@lru_cache(maxsize=1024)
def label_json(code: str, langs: tuple[str, ...] = LANGUAGES) -> dict[str, str]:
    """A code's label in each of ``langs``: ``{"ko": …}`` (kept)."""
    found = label(code)
    return {lang: getattr(found, lang) for lang in langs}


def ruleset_json(ruleset: RuleSet, *, full: bool = False) -> dict[str, Any]:
    """The rule set echo (contract): ``{variant, preset, fingerprint, overrides}`` — the
    options that differ from the preset — and, when ``full``, every resolved ``options``.
    Sent back as a request's ``ruleset`` it resolves to the same rule set."""
    key = (ruleset.fingerprint, ruleset.preset, full)
    found = _RULESETS.get(key)
    if found is None:
        if len(_RULESETS) > 1024:
            _RULESETS.clear()
        found = {
            "variant": ruleset.variant.value,
            "preset": ruleset.preset,
            "fingerprint": ruleset.fingerprint,
            "overrides": ruleset.overrides(),
        }
        if full:
            found["options"] = ruleset.options()
        _RULESETS[key] = found
    return found


# Final: compiled, read natively (a plain global is looked up in the module's dict)
_RULESETS: Final[dict[tuple[str, str, bool], dict[str, Any]]] = {}
_RULESET_TEXTS: Final[dict[tuple[str, str, bool], bytes]] = {}


# A resolved rule set is kept (calculator.presets): an answer's is the object of the
# answers before it under the same rules, found by identity first (~0.3k instructions,
# where the key by fingerprint hashes a tuple of two strings and the flag: ~1k). One table
# for each echo (short, full): a client that alternates the two finds both. The entry
# holds the rule set: its ID is only taken for it while it is alive.
_RULESETS_BY_IDENTITY: Final[tuple[dict[int, tuple[RuleSet, bytes]], ...]] = ({}, {})


def _ruleset_opening(ruleset: RuleSet, *, full: bool) -> bytes:
    """A hand's answer up to its outcome: ``{"ruleset":``, the rule set echo serialized
    once (keyed by fingerprint: hashing options is slow), then ``,"outcome":`` (one
    piece to join where there were three)."""
    by_identity = _RULESETS_BY_IDENTITY[1 if full else 0]
    kept = by_identity.get(id(ruleset))
    if kept is not None and kept[0] is ruleset:
        return kept[1]
    text = b'{"ruleset":%b,"outcome":' % _ruleset_by_value(ruleset, full=full)
    if len(by_identity) > 1024:
        by_identity.clear()
    by_identity[id(ruleset)] = (ruleset, text)
    return text


def _ruleset_by_value(ruleset: RuleSet, *, full: bool) -> bytes:
    key = (ruleset.fingerprint, ruleset.preset, full)
    found = _RULESET_TEXTS.get(key)
    if found is None:
        if len(_RULESET_TEXTS) > 1024:
            _RULESET_TEXTS.clear()
        found = _RULESET_TEXTS[key] = _dumps(ruleset_json(ruleset, full=full))
    return found


# --- JSON text, written directly ------------------------------------------------------
#
# The players of an answer are written as JSON text: pieces appended to one list and
# joined once (:func:`players_json`), each item and each player's counts a piece kept by
# value. orjson walked them as dicts and lists, ~7.8k instructions of a batched hand's
# 14.6k ``dumps`` (3 players); written so, a batched hand costs 224.6k → 220.3k
# instructions in all (bench/RESULTS.md, thirty-second session). Not nested: formatting
# each item, then each player, then the list copied every piece three times, and cost
# more than orjson's walk (229.0k). Bytes, not str: orjson encodes a str with Korean in it
# to UTF-8 anew (~12k instructions for an answer's 2 kB). Every string is orjson's own
# text for it (:func:`_text`), every number an int (never a bool: ``%d`` would write 1
# where orjson writes true), none past 64 bits (points, counts, a sitter's sold cards:
# small by the deck), so the bytes are those orjson writes for the same values as dicts
# (tests/api/test_serialize.py holds the two together).

# A string's JSON text as orjson writes it, kept by value: the codes, card IDs, languages
# and player IDs of the answers repeat (a new player ID is hashed once: a str keeps its
# hash, and each hand writes its IDs a few times).
_TEXTS: Final[dict[str, bytes]] = {}
_TEXTS_KEPT: Final = 16384


def _text(value: str) -> bytes:
    """``value`` as a JSON string, as ``orjson.dumps`` writes it (kept by value)."""
    found = _TEXTS.get(value)
    if found is None:
        if len(_TEXTS) >= _TEXTS_KEPT:
            _TEXTS.clear()
        found = _TEXTS[value] = _dumps(value)
    return found


# The texts of 0 to 255, made once: a player's counts are small numbers, each formatted
# into a bytes object of its own, then copied and freed (a player's counts not seen
# before cost ~2.2k instructions to write, ~1.1k now: callgrind, fresh hands).
_SMALL_NUMBERS: Final = tuple([b"%d" % value for value in range(256)])


def _number(value: int | None) -> bytes:
    """An int, or null."""
    if value is None:
        return b"null"
    return _SMALL_NUMBERS[value] if 0 <= value < 256 else b"%d" % value


def _card_texts(shift: int) -> tuple[bytes, ...]:
    """For each 7-bit value, the JSON strings of the cards its bits stand for at ``7 ×
    shift``, joined by commas (:func:`calculator.cards.ids_of`'s chunks, as text)."""
    return tuple(
        b",".join([_dumps(card_id) for card_id in ids_of(chunk << (7 * shift))])
        for chunk in range(128)
    )


_CARD_TEXTS: Final = tuple(_card_texts(shift) for shift in range(8))


def _cards_text(mask: int) -> bytes:
    """The IDs of the cards in ``mask`` as JSON strings joined by commas, in deck order
    (:func:`calculator.cards.ids_of`'s order and IDs). Its chunks joined once: added one
    by one, the text so far was copied at each (~6 of them an item not seen before: ~2.6k
    instructions, ~2.3k now; callgrind, fresh hands)."""
    chunks: list[bytes] = []
    shift = 0
    while mask:
        chunk = _CARD_TEXTS[shift][mask & 127]
        if chunk:
            chunks.append(chunk)
        mask >>= 7
        shift += 1
    return chunks[0] if len(chunks) == 1 else b",".join(chunks)


_StepEntry = tuple[bytes, tuple[str, ...]]
"""A step's line, serialized, and what it does in its payment's sentence, per language."""

_ItemTexts = tuple[bytes, bytes]
"""An item's JSON, and the same after a comma (a player's items after its first): kept
together, the comma is no piece of its own to append and join (~0.1k instructions)."""


@final
class _Parts:
    """Parts kept by value in a table of tables: ``tables[outer][inner]`` (a step by the
    amount it starts from, a winner's part by its ID, a payment by stake), bounded by the
    entries held in all: past ``bound`` every table is dropped (simpler than LRU order).

    A caller reads ``tables`` itself (two ``get``: the hot path, no call) and on a miss
    builds the value, then :meth:`keep` stores it: the value is made before any table, so
    a builder that raises leaves no empty table behind, uncounted."""

    def __init__(self, bound: int) -> None:
        self.tables: Final[dict[Any, dict[Any, Any]]] = {}
        self.held = 0
        self.bound: Final = bound

    def keep(self, outer: object, inner: object, value: object) -> None:
        """Keep ``value`` at ``tables[outer][inner]``."""
        if self.held >= self.bound:
            self.tables.clear()
            self.held = 0
        table = self.tables.get(outer)
        if table is None:
            table = self.tables[outer] = {}
        table[inner] = value
        self.held += 1

    def clear(self) -> None:
        self.tables.clear()
        self.held = 0


@final
class _Kept:
    """What the answers in one set of languages keep by value (the parts below: steps,
    items, labels, winners' parts, payments), found once an answer by its languages
    (:func:`_kept`). One table per part and languages, not the languages in every key:
    the languages' tuple was hashed again for each of ~10 look-ups a batched hand (its
    tuple's hash is not kept), and compared on each hit (bench.instructions batch: 171.5k
    → 170.6k instructions a hand; fresh 226.1k → 218.3k).

    Each part's bound holds per set of languages: an answer's languages are one of
    three (``ko``, ``en``, both: :class:`Shape`), so a worker answering in all three may
    hold three times a bound, at most."""

    def __init__(self, langs: tuple[str, ...]) -> None:
        self.langs: Final = langs
        self.items: Final[dict[Item, _ItemTexts]] = {}
        self.by_identity: Final[dict[int, tuple[Item, _ItemTexts]]] = {}
        self.labels: Final[dict[str, bytes]] = {}
        # the steps by the amount they start from, the winners' parts by the winner's ID,
        # the payments by stake: a table each (that the record alone keys), not a tuple of
        # two to build, hash, compare and free at each look-up (~0.35k instructions: a
        # batched hand 170.6k → 169.6k, fresh 218.3k → 211.4k, with the counts' and cards'
        # texts); bounded by the entries they hold in all
        self.steps: Final = _Parts(_STEPS_KEPT)  # dict[int, dict[Step, _StepEntry]]
        # dict[str | None, dict[WinnerScore, tuple[bytes, bytes]]]
        self.winners: Final = _Parts(_WINNERS_KEPT)
        self.payments: Final = _Parts(_PAYMENTS_KEPT)  # dict[int, dict[Payment, bytes]]

    def clear(self) -> None:
        """Forget every part kept (the tests' fresh start)."""
        for table in (self.items, self.by_identity, self.labels):
            table.clear()
        for parts in (self.steps, self.winners, self.payments):
            parts.clear()


# The languages an answer can ask for are ours (Shape): a few sets, each kept for good.
_KEPT: Final[dict[tuple[str, ...], _Kept]] = {}


def _kept(langs: tuple[str, ...]) -> _Kept:
    """What the answers in ``langs`` keep (the same object for an equal tuple)."""
    found = _KEPT.get(langs)
    if found is None:
        if len(_KEPT) >= 64:  # a bound all the same
            _KEPT.clear()
        found = _KEPT[langs] = _Kept(langs)
    return found


def _step_entry(step: Step, before: int, langs: tuple[str, ...]) -> _StepEntry:
    """One explanation line, serialized (``before`` is the running value it starts from,
    for its sentence), and what it does in a payment's sentence in each of ``langs``
    (:func:`calculator.explain.operation`): a payment's step is looked up once for both."""
    operations = tuple([operation(step, lang) for lang in langs])
    found: dict[str, Any] = {
        "code": step.code,
        "op": step.op,
        _OP_KEY[step.op]: step.value,
        "total": step.total,
        # the sentence names the step (its label alone: GET /v1/codes, list "step")
        "text": {
            lang: step_line(step, before=before, said=operations[i], lang=lang)
            for i, lang in enumerate(langs)
        },
    }
    if step.times is not None:
        found["times"] = step.times
    if step.player is not None:
        found["player"] = step.player
    return _dumps(found), operations


# Steps repeat a lot (a few hundred values over thousands of hands), each a new object:
# kept by value in a plain dict, not an ``lru_cache`` (compiled, calling one is a generic
# call that builds an argument tuple, then a key tuple of its own, and moves the entry to
# the front: ~2.9k instructions a found step in the corpus's hot loop, where this lookup
# costs ~1.1k).
_STEPS_KEPT: Final = 16384


def _kept_step(step: Step, before: int, kept: _Kept) -> _StepEntry:
    """One explanation line, serialized, and its sentence parts: :func:`_step_entry`, kept."""
    steps = kept.steps.tables.get(before)
    found: _StepEntry | None = None if steps is None else steps.get(step)
    if found is None:
        found = _step_entry(step, before, kept.langs)
        kept.steps.keep(before, step, found)
    return found


def _own_steps(steps: tuple[Step, ...]) -> tuple[int, int]:
    """Where a loser's own steps begin in ``steps``, and the amount they start from: the
    winner's amount that opens them in the domain is ``winner_score.amount``, said once on
    the wire (it was a tenth of every answer). An index, not the steps: no slice to build."""
    if steps and steps[0].code == "winner_amount":
        return 1, steps[0].total
    return 0, 0


def _steps(steps: tuple[Step, ...], start: int, kept: _Kept) -> list[bytes]:
    found: list[bytes] = []
    before = start
    for step in steps:
        found.append(_kept_step(step, before, kept)[0])
        before = step.total
    return found


# Items kept by value, as JSON: an item of the score tables serialized on its first hand
# under given languages (found by identity after that), and one made for its hand (its
# IDs not known in advance: junk, ribbon counts), which the same hand answered again finds
# (a table read in English, rendered from its ledger at each read). A plain dict, not an
# ``lru_cache`` (compiled, calling one is a generic call: see _STEPS_KEPT).
_ITEMS_KEPT: Final = 16384


def _item_by_value(item: Item, kept: _Kept) -> _ItemTexts:
    items = kept.items
    found = items.get(item)
    if found is None:
        if len(items) >= _ITEMS_KEPT:
            items.clear()
        body = _item_body(item, kept)
        found = items[item] = (body, b"," + body)
    return found


def _item_body(item: Item, kept: _Kept) -> bytes:
    """One scoring item as JSON: code, points, cards (its own IDs, else its mask's), label."""
    ids = item.ids
    held = _cards_text(item.mask) if ids is None else b",".join([_text(i) for i in ids])
    return b'{"code":%b,"points":%d,"cards":[%b],"label":%b}' % (
        _text(item.code),
        item.points,
        held,
        _label_text(item.code, kept),
    )


def _label_text(code: str, kept: _Kept) -> bytes:
    """An item's label, serialized, kept: the same few codes in every answer."""
    labels = kept.labels
    found = labels.get(code)
    if found is None:
        if len(labels) >= 1024:
            labels.clear()
        found = labels[code] = _dumps(label_json(code, kept.langs))
    return found


# An item of the score tables (calculator.tables: those that know their IDs in advance)
# is the same object in every hand under its rules: found by identity first, which hashes
# nothing (hashing an item and comparing it with the kept key cost ~1k a lookup), in the
# table of its languages. The entry holds the item: an ID is only taken for it while it
# is alive, and anything else goes on to the cache by value.
_IDENTITIES_KEPT: Final = 4096


def _item_text(item: Item, langs: tuple[str, ...]) -> bytes:
    """One scoring item, serialized, kept (:func:`_item_texts`)."""
    return _item_texts(item, _kept(langs))[0]


def _item_texts(item: Item, kept: _Kept) -> _ItemTexts:
    """One scoring item, serialized, alone and after a comma, kept (:func:`_item_by_value`)."""
    if item.ids is None:  # made for its hand: only its value can be found again
        return _item_by_value(item, kept)
    by_identity = kept.by_identity
    entry = by_identity.get(id(item))
    if entry is not None and entry[0] is item:
        return entry[1]
    found = _item_by_value(item, kept)
    if len(by_identity) >= _IDENTITIES_KEPT:
        by_identity.clear()
    by_identity[id(item)] = (item, found)
    return found


def item_json(item: Item, langs: tuple[str, ...] = LANGUAGES[:1]) -> orjson.Fragment:
    """One scoring item, serialized (:func:`_item_text`)."""
    return _Fragment(_item_text(item, langs))


# The opening of a player's entry up to its items, by its points (a pile's points are
# small; a declared pile's may be larger: formatted then): one bytes object fewer made
# and freed a player (~0.5k instructions: mypyc's bytes builder and the number's text).
_POINTS_OPENINGS: Final = tuple([b',"points":%d,"items":[' % points for points in range(128)])


# A player's ``{"id":`` and ID, alone and after a comma (the players after the first),
# and a payment's opening from it, ``{"from":``, ID, ``,"to":``: kept by ID, one piece
# where there were three or four, and one lookup, as the ID's text was.
_PLAYER_OPENINGS: Final[dict[str, tuple[bytes, bytes, bytes]]] = {}


def _player_openings(player_id: str) -> tuple[bytes, bytes, bytes]:
    found = _PLAYER_OPENINGS.get(player_id)
    if found is None:
        if len(_PLAYER_OPENINGS) >= _TEXTS_KEPT:
            _PLAYER_OPENINGS.clear()
        text = _text(player_id)
        opening = b'{"id":' + text
        found = _PLAYER_OPENINGS[player_id] = (opening, b"," + opening, b'{"from":%b,"to":' % text)
    return found


def _write_player(
    out: list[bytes], player: PlayerResult, kept: _Kept, *, after: bool = False
) -> None:
    """Append a player's itemized points to ``out`` as pieces of JSON (``gukjin_as`` only
    when it holds a switchable card; ``sits_out`` and ``sold`` only for the player who
    sits out), after a comma when ``after`` (the players after the first): the pieces of
    every player are joined once, into one copy. Constant runs are written as one piece
    with what comes before or after them (each piece is appended, then read by the
    join: ~0.1k instructions)."""
    score = player.score
    openings = _player_openings(player.id)
    out.append(openings[1] if after else openings[0])
    points = player.points
    if 0 <= points < 128:
        out.append(_POINTS_OPENINGS[points])
    else:
        out.append(b',"points":%d,"items":[' % points)
    first = True
    for item in player.items:
        texts = _item_texts(item, kept)
        out.append(texts[0] if first else texts[1])
        first = False
    # not the properties (compiled, a generic lookup each), nor a Counts record: its values
    # as a plain tuple, built natively
    out.append(_counts_bytes(count_values(player)))
    if score is not None and score.switchable:  # most hold none: no empty dict built for them
        gukjin_as = gukjin_of(player)
        if gukjin_as:
            placed = [b"%b:%b" % (_text(card), _text(kind)) for card, kind in gukjin_as.items()]
            out.append(b',"gukjin_as":{%b}' % b",".join(placed))
    if score is not None:  # the entry's end with it
        out.append(b',"may_stop":true}' if player.may_stop else b',"may_stop":false}')
        return
    out.append(b',"may_stop":true' if player.may_stop else b',"may_stop":false')
    out.append(b',"sits_out":true,"sold":%b}' % _number(player.sold))


def player_json(player: PlayerResult, shape: Shape = DEFAULT_SHAPE) -> orjson.Fragment:
    """A player's itemized points, serialized (:func:`_write_player`)."""
    out: list[bytes] = []
    _write_player(out, player, _kept(shape.langs))
    return _Fragment(b"".join(out))


def players_json(
    players: tuple[PlayerResult, ...], shape: Shape = DEFAULT_SHAPE
) -> orjson.Fragment:
    """Every player's itemized points, serialized as one list (:func:`_write_player`)."""
    kept = _kept(shape.langs)
    out: list[bytes] = [b"["]
    for i, player in enumerate(players):
        _write_player(out, player, kept, after=i > 0)
    out.append(b"]")
    return _Fragment(b"".join(out))


# A player's counts, kept by value: six small numbers that repeat from hand to hand.
# Keyed by the numbers themselves, boxed as ``count_values`` made them (a narrowed tuple is
# unboxed, then boxed again; packed into one integer instead, a found key cost only 10 %
# less). Up to 16,384 of them: 8,000 hands of the 3-player corpus hold ~8,700 distinct
# counts; after 3,000 hands, that many find 73 % of the players' counts, where 4,096
# (cleared when full) found 43 %.
_COUNTS: Final[dict[CountValues | None, bytes]] = {}
_COUNTS_KEPT: Final = 16384


def _counts_bytes(counts: CountValues | None) -> bytes:
    """A player's ``counts``, serialized (``null`` without them), after the end of its
    items (``],"counts":``: one piece fewer), kept."""
    found = _COUNTS.get(counts)
    if found is None:
        if len(_COUNTS) >= _COUNTS_KEPT:
            _COUNTS.clear()
        found = _COUNTS[counts] = b'],"counts":' + _counts_text(counts)
    return found


def _counts_text(counts: CountValues | None) -> bytes:
    """What ``orjson.dumps`` writes for the counts as a dict, written directly."""
    if counts is None:
        return b"null"
    brights, animals, ribbons, junk_value, junk_cards, held = counts
    return (
        b'{"brights":%b,"animals":%b,"ribbons":%b,"junk_value":%b,"junk_cards":%b,"cards":%b}'
        % (
            _number(brights),
            _number(animals),
            _number(ribbons),
            _number(junk_value),
            _number(junk_cards),
            _number(held),
        )
    )


# The winner's part, kept whole by value: on hands not seen before, 3 in 4 found theirs
# (one hash of its steps, where each step was looked up on its own, then a dict and a list
# built for orjson to walk: ~4.2k instructions a hand in the corpus's hot loop, now ~1.7k).
# Written as text (:func:`_winner_text`): the batch's answers are joined from it as it is.
_WINNERS_KEPT: Final = 4096


def winner_json(
    winner: WinnerScore | None, winner_id: str | None, shape: Shape = DEFAULT_SHAPE
) -> orjson.Fragment | None:
    """The winner's base points and the steps to its amount, serialized."""
    if winner is None:
        return None
    return _Fragment(_winner_bytes(winner, winner_id, _kept(shape.langs))[0])


def _winner_bytes(winner: WinnerScore, winner_id: str | None, kept: _Kept) -> tuple[bytes, bytes]:
    """:func:`winner_json`'s bytes, and the same as a hand's answer writes them, between
    the players and the payments (one piece where there were three), kept by value."""
    winners = kept.winners.tables.get(winner_id)
    found: tuple[bytes, bytes] | None = None if winners is None else winners.get(winner)
    if found is None:
        text = _winner_text(winner, winner_id, kept)
        found = (text, b'],"winner_score":%b,"payments":[' % text)
        kept.winners.keep(winner_id, winner, found)
    return found


def _winner_text(winner: WinnerScore, winner_id: str | None, kept: _Kept) -> bytes:
    """What ``orjson.dumps`` writes for the winner's dict ``{winner, base, steps, amount}``,
    written directly (its steps are kept as text)."""
    return b'{"winner":%b,"base":%d,"steps":[%b],"amount":%d}' % (
        b"null" if winner_id is None else _text(winner_id),
        winner.base,
        b",".join(_steps(winner.steps, winner.base, kept)),
        winner.amount,
    )


# Payments serialized once: the same payment again (all of it, its steps included) finds
# its bytes, sentence and all, where building them cost ~8k instructions. Keyed by the
# payment itself, its steps hashed once (they were looked up one by one first, and keyed
# by the fragment found for the step of its own: payment_json, its sentences aside, cost
# ~3.9k instructions a payment in the corpus's hot loop, now ~2.8k). Only payments of at
# most one step of their own are kept: on hands not seen before, 3 in 4 of those with none
# were found and 1 in 3 of those with one, but 1 in 13 with two and 1 in 80 with three,
# where a miss costs ~3.5k (a key, two lookups, a ``dumps`` call of its own). Every payment
# is written as text (:func:`_payment_text`): no dict built for orjson to walk, the others
# (two steps or more) included.
_PAYMENTS_KEPT: Final = 4096


def payment_json(payment: Payment, stake: int, shape: Shape = DEFAULT_SHAPE) -> orjson.Fragment:
    """One payer → payee entry (contract: from, to, points, chips), with its sentence;
    ``steps`` only when it has some (the reason's label: ``GET /v1/codes``)."""
    return _Fragment(_payment_bytes(payment, stake, shape.langs))


def _payment_bytes(payment: Payment, stake: int, langs: tuple[str, ...]) -> bytes:
    """:func:`payment_json`'s bytes: :func:`_add_payment`'s pieces, joined."""
    out: list[bytes] = []
    _add_payment(out, payment, stake, _kept(langs))
    return out[0] if len(out) == 1 else b"".join(out)


def _add_payment(out: list[bytes], payment: Payment, stake: int, kept: _Kept) -> None:
    """Append a payment's JSON to ``out``: kept by value (one piece) when it has at most
    one step of its own; else written as pieces, with the answer (rarely seen again)."""
    steps = payment.steps
    first, start = _own_steps(steps)
    if len(steps) - first > 1:
        _write_payment(out, payment, stake, kept.langs, _entries(steps, first, start, kept))
    else:
        out.append(_kept_payment(payment, stake, kept, first, start))


def _kept_payment(payment: Payment, stake: int, kept: _Kept, first: int, start: int) -> bytes:
    """A payment of at most one step of its own (from ``first``, starting from ``start``:
    :func:`_own_steps`), kept by value."""
    payments = kept.payments.tables.get(stake)
    found: bytes | None = None if payments is None else payments.get(payment)
    if found is None:
        entries = _entries(payment.steps, first, start, kept)
        found = _payment_text(payment, stake, kept.langs, entries)
        kept.payments.keep(stake, payment, found)
    return found


def _entries(steps: tuple[Step, ...], first: int, before: int, kept: _Kept) -> list[_StepEntry]:
    """The :func:`_kept_step` of each of a payment's own steps, ``steps[first:]``, in order
    (``before``: the amount they start from)."""
    found = []
    for i in range(first, len(steps)):
        step = steps[i]
        found.append(_kept_step(step, before, kept))
        before = step.total
    return found


def _payment_text(
    payment: Payment,
    stake: int,
    langs: tuple[str, ...],
    entries: list[_StepEntry],
) -> bytes:
    """:func:`_write_payment`'s pieces, joined (what a payment is kept as)."""
    out: list[bytes] = []
    _write_payment(out, payment, stake, langs, entries)
    return b"".join(out)


def _write_payment(
    out: list[bytes],
    payment: Payment,
    stake: int,
    langs: tuple[str, ...],
    entries: list[_StepEntry],
) -> None:
    """Append what ``orjson.dumps`` writes for a payment's dict — ``from``, ``to``,
    ``points``, ``chips``, ``reason``, ``text`` by language, then ``steps`` when it has
    some and ``priced_in`` when not in points — to ``out``, from its own steps'
    :func:`_kept_step` (in order): a payment of two steps or more, never kept, built a dict
    and had orjson walk it (~2.3k instructions), then, as text, was formatted into bytes
    of its own and copied twice more before the batch's join (appended as pieces, with
    the tables of small numbers' texts: 207.5k → 204.7k instructions a batched
    hand, bench.instructions --workload batch). Constant runs are one piece with the text
    around them, as a player's are (:func:`_write_player`)."""
    steps = payment.steps
    out.append(_player_openings(payment.payer)[2])
    out.append(_text(payment.payee))
    out.append(
        b',"points":%d,"chips":%d,"reason":%b,"text":{'
        % (payment.points, payment.chips, _text(payment.reason))
    )
    # each language's sentence parts, one a step: the winner's amount has none
    opening = len(steps) - len(entries)
    for i, lang in enumerate(langs):
        operations = [""] * opening
        for _written, parts in entries:
            operations.append(parts[i])
        keys = _LANGUAGE_KEYS[lang]  # a Shape's languages are ours (KeyError: a bug)
        out.append(keys[1] if i else keys[0])
        out.append(_dumps(payment_sentence(payment, operations, stake=stake, lang=lang)))
    in_points = payment.priced_in == "points"  # else a price in chips: not points × stake
    if entries:
        out.append(b'},"steps":[')
        first = True
        for written, _parts in entries:
            if not first:
                out.append(b",")
            out.append(written)
            first = False
        out.append(b"]}" if in_points else b"]")
    else:
        out.append(b"}}" if in_points else b"}")
    if not in_points:
        out.append(b',"priced_in":%b}' % _text(payment.priced_in))


# A language's key in a ``text`` object, ``"ko":``, alone and after a comma.
_LANGUAGE_KEYS: Final[dict[str, tuple[bytes, bytes]]] = {
    lang: (b"%b:" % _dumps(lang), b",%b:" % _dumps(lang)) for lang in LANGUAGES
}


def settlement_json(result: HandResult, shape: Shape = DEFAULT_SHAPE) -> dict[str, Any]:
    """The money part of a result: winner score, payments, net, streak."""
    return _add_settlement({}, result, shape)


def _add_settlement(body: dict[str, Any], result: HandResult, shape: Shape) -> dict[str, Any]:
    """``body`` with :func:`settlement_json`'s fields added in its order (an answer adds
    them to its own dict: no second dict to build and copy)."""
    stake = result.stake
    body["winner_score"] = winner_json(result.winner_score, winner_of(result), shape)
    body["payments"] = [payment_json(p, stake, shape) for p in result.payments]
    net = result.net
    # the engine's own dict (it builds one for each hand), not a copy: orjson writes a
    # dict, not any other mapping
    body["net"] = net if isinstance(net, dict) else dict(net)
    body["nagari_streak_after"] = result.nagari_streak_after
    return body


def outcome_json(result: HandResult) -> dict[str, Any] | None:
    """The outcome as understood (echoed, with the chongtong winner resolved)."""
    outcome = result.outcome
    if outcome is None:
        return None
    found = {
        # a StrEnum's str is its value (``.value`` is a property written in Python)
        "type": str(outcome.type),
        "winner": winner_of(result),
    }
    if outcome.liable is not None:
        found["liable"] = outcome.liable
    return found


# --- a hand's answer, written as text ------------------------------------------------------
#
# One writer for a hand's answer, wherever it goes (:func:`write_hand`): a batch appends
# each hand's pieces to one list for all its results, joined once
# (calculator/api/score_requests.py); a single hand, a table's derived row and a table's
# answer in another language join a hand's own (:func:`hand_text`). As a dict, each answer
# was built, walked by orjson into bytes of its own, then, in a batch, copied again into
# the batch's answer and freed (~9k instructions a batched hand for its ``dumps``, its
# dict's own keys and values aside). tests/api/test_serialize.py holds the text equal to
# the dict the part builders make, over every preset, shape and entry mode.


# A player's chips in the net, ``:`` and the number, for -256 to 255, then a comma (the
# last player's: none).
_CHIPS_LOW: Final = 256
_CHIPS_TEXTS: Final = tuple([b":%d," % chips for chips in range(-_CHIPS_LOW, _CHIPS_LOW)])
_LAST_CHIPS_TEXTS: Final = tuple([b":%d" % chips for chips in range(-_CHIPS_LOW, _CHIPS_LOW)])
# A hand's answer from the net's end, for the streaks a hand can have (without
# comparisons): no bytes formatted a hand, one piece fewer.
_STREAK_ENDS: Final = tuple([b'},"nagari_streak_after":%d}' % streak for streak in range(16)])
# An outcome up to its winner, by type: one piece where there were three. Found by
# identity (:func:`_outcome_opening`): an OutcomeType's ``str`` is a copy of its value,
# made and hashed anew each hand, and its hash is Enum's, written in Python.
_OUTCOME_OPENINGS: Final[tuple[tuple[OutcomeType, bytes], ...]] = tuple(
    [(kind, b'{"type":%b,"winner":' % _dumps(str(kind))) for kind in OutcomeType]
)


def _outcome_opening(kind: OutcomeType) -> bytes:
    for known, text in _OUTCOME_OPENINGS:
        if known is kind:
            return text
    raise ValueError(f"not an outcome type: {kind!r}")  # every member is in the table


# An outcome's end up to the players, by stake (a few stakes repeat): no bytes formatted
# a hand.
_STAKE_OPENINGS: Final[dict[int, bytes]] = {}


def _stake_opening(stake: int) -> bytes:
    found = _STAKE_OPENINGS.get(stake)
    if found is None:
        if len(_STAKE_OPENINGS) >= 1024:
            _STAKE_OPENINGS.clear()
        found = _STAKE_OPENINGS[stake] = b'},"stake":%d,"players":[' % stake
    return found


def write_hand(
    out: list[bytes],
    result: HandResult,
    comparisons: tuple[Comparison, ...] = (),
    shape: Shape = DEFAULT_SHAPE,
) -> None:
    """Append the full response of ``POST /v1/gostop/hands`` to ``out`` as pieces of JSON,
    shaped as the client asked: the fields that would say nothing (``preview`` false, no
    ``comparisons``) are left out."""
    kept = _kept(shape.langs)
    stake = result.stake
    outcome = result.outcome
    out.append(_ruleset_opening(result.ruleset, full=shape.full_ruleset))
    winner_id = winner_of(result)
    if outcome is None:
        out.append(b'null,"stake":%d,"preview":true,"players":[' % stake)
    else:
        out.append(_outcome_opening(outcome.type))
        out.append(b"null" if winner_id is None else _text(winner_id))
        if outcome.liable is not None:
            out.append(b',"liable":')
            out.append(_text(outcome.liable))
        out.append(_stake_opening(stake))
    first = True
    for player in result.players:
        _write_player(out, player, kept, after=not first)
        first = False
    winner = result.winner_score
    if winner is None:
        out.append(b'],"winner_score":null,"payments":[')
    else:
        out.append(_winner_bytes(winner, winner_id, kept)[1])
    first = True
    for payment in result.payments:
        if not first:
            out.append(b",")
        _add_payment(out, payment, stake, kept)
        first = False
    out.append(b'],"net":{')
    net = result.net
    # a dict (the engine builds one for each hand), declared so: compiled, its chips are
    # then read as ints and written natively (read from the conditional expression, they
    # were objects, each formatted by a generic ``%``: ~0.8k instructions a player)
    chips_of: dict[str, int] = net if isinstance(net, dict) else dict(net)
    left = len(chips_of)
    for player_id, chips in chips_of.items():
        left -= 1
        out.append(_text(player_id))
        # most hands move a few dozen chips a player: no bytes of their own, the comma
        # after them but for the last's in the same piece
        if -_CHIPS_LOW <= chips < _CHIPS_LOW:
            out.append((_CHIPS_TEXTS if left else _LAST_CHIPS_TEXTS)[chips + _CHIPS_LOW])
        else:
            out.append(b":%d," % chips if left else b":%d" % chips)
    streak = result.nagari_streak_after
    if comparisons:
        out.append(b'},"nagari_streak_after":%d,"comparisons":' % streak)
        out.append(_dumps([comparison_json(c, shape) for c in comparisons]))
        out.append(b"}")
    elif 0 <= streak < len(_STREAK_ENDS):
        out.append(_STREAK_ENDS[streak])
    else:
        out.append(b'},"nagari_streak_after":%d}' % streak)


def hand_text(
    result: HandResult,
    comparisons: tuple[Comparison, ...] = (),
    shape: Shape = DEFAULT_SHAPE,
) -> bytes:
    """The full response of ``POST /v1/gostop/hands`` as JSON: :func:`write_hand`'s
    pieces, joined."""
    out: list[bytes] = []
    write_hand(out, result, comparisons, shape)
    return b"".join(out)


def comparison_json(comparison: Comparison, shape: Shape = DEFAULT_SHAPE) -> dict[str, Any]:
    """The same hand under another rule set, or why it cannot be settled under it."""
    echo = ruleset_json(comparison.ruleset, full=shape.full_ruleset)
    body: dict[str, Any] = {"ruleset": echo}
    if comparison.result is None:
        assert comparison.error is not None
        body["problem"] = {
            "title": comparison.error.title,
            "errors": issues_json(comparison.error.issues),
        }
        return body
    result = comparison.result
    if result.outcome is None:  # a preview: what it is for, each player's points and stop
        body["players"] = [
            {"id": p.id, "points": p.points, "may_stop": p.may_stop} for p in result.players
        ]
    _add_settlement(body, result, shape)
    body["difference"] = comparison.difference
    return body


def issues_json(issues: Iterable[Issue], prefix: str = "") -> list[dict[str, str]]:
    """Domain issues as problem+json ``errors`` entries with JSON pointers."""
    return [
        {"pointer": prefix + pointer(issue.location), "code": issue.code, "detail": issue.detail}
        for issue in issues
    ]
