"""The ledgers an instance keeps of recently used tables (:class:`LedgerCache`), and the
table reads it keeps beside them: a table's stored hand items and its hands rendered in
another language, each at the latest version read.

Only a speed-up: what it answers is what replaying the table's log
(:func:`calculator.api.ledger_io.rebuild`) and rendering every hand anew
(:mod:`calculator.api.derived_rows`) give.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from calculator.api import serialize
from calculator.api.derived_rows import hand_item_bytes, result_bytes
from calculator.api.ledger_io import Roster, TableGoneError, caught_up, rebuild
from calculator.ledger import Ledger, LedgerHand, Tip, after_appends, tip
from calculator.limits import DeadlineExceeded, deadline
from calculator.store import Head, Store

CACHED_LEDGERS = 64  # a ledger holds its hands scored: ~3 KB a hand (declared piles)
CACHED_RENDERED_BYTES = 16 * 1024 * 1024
"""Most bytes of tables' hands an instance keeps for reads (:meth:`LedgerCache.hands`),
over all its tables and languages, each kept item counted :data:`RENDERED_ITEM_BYTES`
more: a night of 200 hands is ~0.5 MB in English, ~0.6 MB in both languages, so ~30 such
renderings. A rendering in another language refers to the hands it rendered, its table's
ledger's (kept only while that ledger is: :data:`CACHED_LEDGERS`); after a change it holds
the hands the ledger derived again until the table is read again. The Korean rows hold no
hands (but go with the ledger too, when this instance holds one)."""
RENDERED_ITEM_BYTES = 512
"""What a kept item costs beside its bytes (its record, key and index entries): so that
the bound also bounds how many items are kept, however small (a table with no hands)."""


class LedgerCache:
    """Ledgers of recently used tables, so a write scores one hand instead of the whole
    night. Only a speed-up: the version a write starts from is read from the database and
    checked again by the database when it commits; events never change once written, so a
    ledger an instance holds at an older version catches up by applying the newer ones.

    Beside each ledger it keeps the table's :class:`Tip` (its end) as far as this instance
    knows it: an append is made at the end alone (:meth:`end`), which moves the tip and
    leaves the ledger where it was, to catch up when a change needs the hands
    (:meth:`ledger`)."""

    def __init__(
        self, *, deadline_seconds: float, rendered_bytes: int = CACHED_RENDERED_BYTES
    ) -> None:
        self._items: OrderedDict[str, tuple[Ledger, Roster, Tip]] = OrderedDict()
        self._seconds = deadline_seconds
        self._rendered: OrderedDict[tuple[str, serialize.Shape], Rendered] = OrderedDict()
        self._shapes: dict[str, set[serialize.Shape]] = {}  # each table's kept shapes
        self._rendered_bytes = 0
        self._rendered_bound = rendered_bytes
        self._rendering = threading.Lock()  # the renderings and their count of bytes

    def ledger(self, store: Store, table_id: str, version: int) -> tuple[Ledger, Roster]:
        """The table's ledger at ``version``; past the request deadline (counted from
        this call) replaying stops with :class:`calculator.limits.DeadlineExceeded`."""
        check_deadline = deadline(self._seconds)
        found = self._items.get(table_id)
        if found is not None and found[0].version <= version:
            ledger, roster = found[0], found[1]
            if ledger.version < version:
                newer = store.events(table_id, after=ledger.version, upto=version)
                ledger = caught_up(ledger, newer, check_deadline=check_deadline)
        else:
            rows = store.events(table_id, upto=version)
            ledger, roster = rebuild(rows, check_deadline=check_deadline)
        self.put(table_id, ledger, roster)
        return ledger, roster

    def end(
        self, store: Store, table_id: str, version: int, summary_json: Mapping[str, Any]
    ) -> tuple[Tip, Roster] | None:
        """The table's end at ``version`` for an append, without its ledger: None when
        this instance holds no ledger of the table, or an event since the tip it knows is
        not a hand ``added`` (then its count of hands needs the log: :meth:`ledger`).
        Appends leave the ledger where it is (scoring none of the hands again, keeping
        none of them): a change that needs the hands catches it up then.

        The totals, streak, dealer and flags are the table's derived summary at
        ``version`` (``summary_json``: the head's, read with the version), which the write
        that made ``version`` derived from the same events in the same transaction; the
        count of hands is the known tip's plus the hands added since, and so is its replay
        cost."""
        found = self._items.get(table_id)
        if found is None:
            return None
        ledger, roster, known = found
        if known.version > version:
            return None
        count = known.count
        if known.version < version:
            rows = store.events(table_id, after=known.version, upto=version)
            if len(rows) != version - known.version or any(r.type != "added" for r in rows):
                return None
            count += len(rows)
        end = Tip(
            setup=ledger.setup,
            version=version,
            closed=summary_json["closed"],
            count=count,
            totals=summary_json["totals"],
            nagari_streak=summary_json["nagari_streak"],
            dealer=summary_json["dealer"],
            can_undo=summary_json["can_undo"],
            can_redo=summary_json["can_redo"],
            cost=after_appends(known.cost, count - known.count),
        )
        return end, roster

    def put(self, table_id: str, ledger: Ledger, roster: Roster) -> None:
        """Remember a ledger (and its end: the tip this instance knows)."""
        self._remember(table_id, (ledger, roster, tip(ledger)))

    def put_end(self, table_id: str, end: Tip) -> None:
        """Remember the table's end after an append made at it (its ledger stays)."""
        found = self._items.get(table_id)
        if found is not None and found[2].version < end.version:
            self._remember(table_id, (found[0], found[1], end))

    def forget(self, table_id: str) -> None:
        """Drop what this instance keeps of a table it deleted: its ledger, its end and
        its renderings (another instance's copies age out: no request finds them, a
        deleted table's reads and writes are 404s first)."""
        self._items.pop(table_id, None)
        self._forget_rendered(table_id)

    def _remember(self, table_id: str, item: tuple[Ledger, Roster, Tip]) -> None:
        self._items[table_id] = item
        self._items.move_to_end(table_id)
        while len(self._items) > CACHED_LEDGERS:
            gone, _item = self._items.popitem(last=False)
            self._forget_rendered(gone)

    def hands(self, store: Store, head: Head, shape: serialize.Shape) -> tuple[Head, bytes]:
        """The items of ``GET /v1/tables/{id}``'s ``hands`` in ``shape``, joined by commas,
        and the head of the version they are: in the default shape the stored rows
        (:meth:`stored`), in another the ledger's hands rendered (:meth:`rendered`)."""
        if shape == serialize.DEFAULT_SHAPE:
            return self.stored(store, head)
        return head, self.rendered(store, head.id, head.version, shape)

    def stored(self, store: Store, head: Head) -> tuple[Head, bytes]:
        """The table's stored hand items (the derived rows: Korean, what a write stored),
        joined by commas, and the head of the version they are (:func:`hand_rows`: a
        later one when a write came between the head and the rows).

        Kept per table at the latest version read, beside the renderings and within their
        bound, so that the phones that read a table after a change fetch its rows once: a
        version names events that never change, and the rows a write derived from them
        commit with the version, so the rows of a version read once are its rows (another
        instance's write makes another version, which the head read first names; ``gostop
        db rebuild``, which rewrites rows in place, runs with the service stopped). After
        appends alone only the new hands' rows are fetched. They hold no hands, so unlike
        the renderings they are kept while this instance holds no ledger of the table
        (but go with its ledger, when it holds one and drops it)."""
        key = (head.id, serialize.DEFAULT_SHAPE)
        with self._rendering:
            found = self._rendered.get(key)
            if found is not None and found.version == head.version:
                self._rendered.move_to_end(key)
                return head, found.body
        head, made = hand_rows(store, head, found)
        with self._rendering:
            kept = self._rendered.get(key)
            if kept is None or kept.version < made.version:
                self._keep(key, made, kept)
        return head, made.body

    def rendered(self, store: Store, table_id: str, version: int, shape: serialize.Shape) -> bytes:
        """The table's hands at ``version`` with each ``result`` in ``shape`` (another
        language than the stored rows'): the items of ``GET /v1/tables/{id}``'s ``hands``,
        joined by commas, exactly as rendering every hand of the table's ledger anew gives
        them (:func:`~calculator.api.derived_rows.hand_item` of
        :func:`~calculator.api.derived_rows.result_text`).

        Kept per table and shape at the latest version read (at most
        :data:`CACHED_RENDERED_BYTES` over all tables, the least recently read dropped
        first, and only while the table's ledger is kept), so that another read of that
        version renders nothing, and a read of a later one renders only the hands that are
        not the same objects as those rendered: :attr:`Ledger.rederived_from`'s promise,
        that an event leaves the hands before the first it derives again as they were,
        makes an append render one hand and a correction of hand k the hands from k on. A
        table's version names its events, which never change: what a version renders to
        never changes either (within one release)."""
        key = (table_id, shape)
        with self._rendering:
            found = self._rendered.get(key)
            if found is not None and found.version == version:
                self._rendered.move_to_end(key)
                with suppress(KeyError):  # its ledger stays while it is read (if kept)
                    self._items.move_to_end(table_id)
                return found.body
        ledger, _roster = self.ledger(store, table_id, version)
        made = _render(ledger.hands, shape, found, version)
        with self._rendering:
            kept = self._rendered.get(key)
            if (kept is None or kept.version < version) and table_id in self._items:
                self._keep(key, made, kept)
        return made.body

    def _keep(
        self, key: tuple[str, serialize.Shape], made: Rendered, kept: Rendered | None
    ) -> None:
        """Keep a rendering in place of ``kept`` (under the lock), within the bound."""
        if kept is not None:
            self._rendered_bytes -= _charged(kept)
        self._rendered[key] = made
        self._rendered.move_to_end(key)
        self._shapes.setdefault(key[0], set()).add(key[1])
        self._rendered_bytes += _charged(made)
        while self._rendered_bytes > self._rendered_bound and self._rendered:
            dropped_key, dropped = self._rendered.popitem(last=False)
            self._rendered_bytes -= _charged(dropped)
            shapes = self._shapes[dropped_key[0]]
            shapes.discard(dropped_key[1])
            if not shapes:
                del self._shapes[dropped_key[0]]

    def _forget_rendered(self, table_id: str) -> None:
        """Drop a table's renderings (its ledger was dropped: they would keep its hands)."""
        with self._rendering:
            for shape in self._shapes.pop(table_id, ()):
                self._rendered_bytes -= _charged(self._rendered.pop((table_id, shape)))

    def rendered_bytes(self) -> int:
        """The bytes of renderings kept, each counted :data:`RENDERED_ITEM_BYTES` more
        (:data:`CACHED_RENDERED_BYTES` at most)."""
        return self._rendered_bytes


def _charged(item: Rendered) -> int:
    """What a kept rendering counts toward :data:`CACHED_RENDERED_BYTES`."""
    return len(item.body) + RENDERED_ITEM_BYTES


HAND_ROWS_ATTEMPTS = 5  # reads of the hands' rows a busy table may take before a 503


def hand_rows(store: Store, head: Head, before: Rendered | None = None) -> tuple[Head, Rendered]:
    """The table's stored hand items (joined, as a :class:`Rendered` with no hands), and
    the head of the version they are: the head and the rows are two queries, and a write
    between them (another phone's append) would put the next version's hands under this
    version's totals and ETag. The head read again after the rows names the version they
    are (a write commits both at once), else they are read again (a table that keeps
    changing: a 503 to retry); no head any more is a table deleted meanwhile.

    ``before``: the rows of an earlier version, kept. When every event since it added a
    hand, its rows are this version's first ones (an append changes no other hand's row)
    and only the hands past them are fetched."""
    for _ in range(HAND_ROWS_ATTEMPTS):
        made = _rows_at(store, head, before)
        again = store.head(head.id, known=head.version)  # the same: no summary fetched
        if again is None:
            raise TableGoneError("the table was deleted meanwhile")
        if again.version == head.version:
            return head, made
        head = again
    raise DeadlineExceeded("the table kept changing while it was read")


def _rows_at(store: Store, head: Head, before: Rendered | None) -> Rendered:
    """:func:`hand_rows`' one attempt: the rows as the store holds them now, meant to be
    those of ``head.version``."""
    if before is not None and before.version < head.version:
        since = store.events(head.id, after=before.version, upto=head.version)
        if len(since) == head.version - before.version and all(
            row.type == "added" for row in since
        ):
            known = len(before.starts) - 1
            added = store.hand_items(head.id, after=known)
            if len(added) == len(since):
                return _joined(head.version, before, added)
    return _joined(head.version, None, store.hand_items(head.id))


def _joined(version: int, before: Rendered | None, items: list[str]) -> Rendered:
    """``before``'s rows (none: the first) followed by ``items``, at ``version``."""
    pieces = [item.encode() for item in items]
    starts = list(before.starts) if before is not None else [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece) + 1)
    body = b",".join(pieces)
    if before is not None and before.body:
        body = before.body + b"," + body if body else before.body
    return Rendered(version=version, hands=(), body=body, starts=tuple(starts))


@dataclass(frozen=True, slots=True, kw_only=True)
class Rendered:
    """A table's hands rendered in one shape at one version: the ledger's hands (the
    objects, so that a later version reuses the items of the hands it shares), the items
    joined (``body``) and where each item starts in it (``starts``, one more: the end of
    ``body`` plus the comma that would follow it). A version's stored rows
    (:meth:`LedgerCache.stored`) are kept as one with no hands."""

    version: int
    hands: tuple[LedgerHand, ...]
    body: bytes
    starts: tuple[int, ...]


def _render(
    hands: tuple[LedgerHand, ...], shape: serialize.Shape, before: Rendered | None, version: int
) -> Rendered:
    """``hands`` rendered in ``shape``, the item of each hand that is the same object as a
    hand of ``before`` taken from it."""
    old = before.hands if before is not None else ()
    kept = memoryview(before.body) if before is not None else memoryview(b"")
    pieces: list[bytes | memoryview] = []  # views into ``before``: copied once, by the join
    for index, hand in enumerate(hands):
        if index < len(old) and old[index] is hand:
            assert before is not None
            pieces.append(kept[before.starts[index] : before.starts[index + 1] - 1])
        else:
            pieces.append(hand_item_bytes(hand, result_bytes(hand, shape)))
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece) + 1)
    return Rendered(
        version=version,
        hands=hands,
        body=b",".join(pieces),
        starts=tuple(starts),
    )
