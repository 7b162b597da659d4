"""The SQL the store sends to the driver: each statement written once, with ``%(name)s``
parameters, which :data:`_PARAMETER` finds for :class:`calculator.store.store.Store` to
adapt to the driver's parameter style."""

import re

_PARAMETER = re.compile(r"%\((\w+)\)s")
# The token is found by the index on (table_id, hash), not by comparing every stored hash
# in constant time: the hash is a sha256 of a 192-bit random secret, so what the timing
# of an index lookup might tell (how much of some stored hash a guess's hash shares) gives
# no way to choose a secret whose hash shares more.
_HEAD = (
    "SELECT t.version, t.join_code, CASE WHEN t.version = %(known)s THEN '' ELSE t.summary END, "
    "k.hash, k.role, k.label, k.public_id, k.created_at, t.active_at, t.last_at "
    "FROM ledger_tables t "
    "LEFT JOIN ledger_tokens k "
    "ON k.table_id = t.id AND k.hash = %(hash)s "
    "WHERE t.id = %(id)s AND t.active_at >= %(since)s"
)
_TOKENS = (
    "SELECT hash, role, label, public_id, created_at FROM ledger_tokens "
    "WHERE table_id = %(id)s ORDER BY id"
)
_BY_CODE = "SELECT id FROM ledger_tables WHERE join_code = %(code)s AND active_at >= %(since)s"
_EVENTS = (
    'SELECT seq, type, number, body, reason, "by", at FROM ledger_events '
    "WHERE table_id = %(id)s AND seq > %(after)s AND seq <= %(upto)s ORDER BY seq"
)
_EVENT_KINDS = (
    "SELECT type, number FROM ledger_events WHERE table_id = %(id)s AND seq <= %(upto)s "
    "ORDER BY seq"
)
_HAND_ITEMS = (
    "SELECT item FROM ledger_hands WHERE table_id = %(id)s AND number > %(after)s ORDER BY number"
)
_INSERT_TABLE = (
    "INSERT INTO ledger_tables (id, version, join_code, created_at, active_at, last_at, "
    "summary) VALUES (%(id)s, %(version)s, %(join_code)s, %(created_at)s, %(active_at)s, "
    "%(last_at)s, %(summary)s)"
)
_INSERT_EVENT = (
    'INSERT INTO ledger_events (table_id, seq, type, number, body, reason, "by", at) '
    "VALUES (%(table_id)s, %(seq)s, %(type)s, %(number)s, %(body)s, %(reason)s, %(by)s, %(at)s)"
)
_INSERT_TOKEN = (
    "INSERT INTO ledger_tokens (table_id, hash, role, label, public_id, created_at) "
    "VALUES (%(table_id)s, %(hash)s, %(role)s, %(label)s, %(public_id)s, %(created_at)s)"
)
_LOCK_TABLE = "UPDATE ledger_tables SET version = version WHERE id = %(id)s"
_LOCK_ACTIVE = _LOCK_TABLE + " AND active_at >= %(since)s"
_TOKEN_LABELS = "SELECT label FROM ledger_tokens WHERE table_id = %(id)s"
_REKEY = (
    "UPDATE ledger_tokens SET hash = %(hash)s WHERE table_id = %(id)s AND public_id = %(public_id)s"
)
_TOKEN = (
    "SELECT role, label, created_at FROM ledger_tokens "
    "WHERE table_id = %(id)s AND public_id = %(public_id)s"
)
_TOKEN_ROLES = "SELECT public_id, role FROM ledger_tokens WHERE table_id = %(id)s"
_DELETE_TOKEN = "DELETE FROM ledger_tokens WHERE table_id = %(id)s AND public_id = %(public_id)s"
_LOCK_AT_VERSION = (
    "UPDATE ledger_tables SET version = version "
    "WHERE id = %(id)s AND version = %(expected)s AND active_at >= %(since)s"
)
_IDLE_TABLES = "SELECT id FROM ledger_tables WHERE active_at < %(since)s"
_LOCK_IDLE = (
    "UPDATE ledger_tables SET version = version WHERE id = %(id)s AND active_at < %(since)s"
)
_ERASE = (  # children first: they refer to the table
    "DELETE FROM ledger_hands WHERE table_id = %(id)s",
    "DELETE FROM ledger_events WHERE table_id = %(id)s",
    "DELETE FROM ledger_tokens WHERE table_id = %(id)s",
    "DELETE FROM ledger_idempotency WHERE scope = %(id)s",
    "DELETE FROM ledger_tables WHERE id = %(id)s",
)
_MOVE_VERSION = (
    "UPDATE ledger_tables SET version = %(version)s, summary = %(summary)s, "
    "active_at = %(active_at)s, last_at = %(last_at)s "
    "WHERE id = %(id)s AND version = %(expected)s"
)
_SET_SUMMARY = "UPDATE ledger_tables SET summary = %(summary)s WHERE id = %(id)s"
_SET_SUMMARY_AT = _SET_SUMMARY + " AND version = %(version)s"
_TABLE_IDS = "SELECT id FROM ledger_tables ORDER BY id"
_DELETE_HANDS = "DELETE FROM ledger_hands WHERE table_id = %(id)s AND number >= %(from)s"
_INSERT_HAND = (
    "INSERT INTO ledger_hands (table_id, number, item) VALUES (%(table_id)s, %(number)s, %(item)s)"
)
_INSERT_KEY = (
    'INSERT INTO ledger_idempotency (scope, "key", request_hash, created_at, done) '
    "VALUES (%(scope)s, %(key)s, %(hash)s, %(now)s, FALSE)"
)
_TAKE_OVER_KEY = (
    "UPDATE ledger_idempotency SET created_at = %(now)s "
    'WHERE scope = %(scope)s AND "key" = %(key)s AND request_hash IN (%(hash)s, %(also)s) '
    "AND NOT done AND created_at < %(stale)s"
)
_SELECT_KEY = (
    "SELECT request_hash, done, status, response FROM ledger_idempotency "
    'WHERE scope = %(scope)s AND "key" = %(key)s'
)
_PURGE_KEYS = "DELETE FROM ledger_idempotency WHERE scope = %(scope)s AND created_at < %(before)s"
_RELEASE_KEY = (
    'DELETE FROM ledger_idempotency WHERE scope = %(scope)s AND "key" = %(key)s AND NOT done'
)
_FINISH_KEY = (
    "UPDATE ledger_idempotency SET done = TRUE, status = %(status)s, response = %(response)s "
    'WHERE scope = %(scope)s AND "key" = %(key)s'
)
