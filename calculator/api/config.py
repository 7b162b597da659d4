"""Service settings: defaults, overridden by ``GOSTOP_*`` environment variables.

| variable | default | meaning |
|---|---|---|
| ``GOSTOP_MAX_BODY_BYTES`` | 65536 | largest request body, except batches |
| ``GOSTOP_MAX_BATCH_BYTES`` | 4194304 | largest batch request body |
| ``GOSTOP_MAX_IMPORT_BYTES`` | 16777216 | largest import (5,000 realistic hands' export fits) |
| ``GOSTOP_CORS_ORIGINS`` | (empty: CORS off) | comma-separated origins allowed to call the API |
| ``GOSTOP_LOG_LEVEL`` | INFO | level of the JSON log lines |
| ``GOSTOP_ACCESS_LOG`` | 1 | one JSON line per request (0 to turn off) |
| ``GOSTOP_BENCH_ENDPOINT`` | 0 | 1 adds ``POST /v1/bench/echo`` (benchmarks only) |
| ``GOSTOP_COMPRESS_MIN_BYTES`` | 4096 | gzip JSON answers this large or more (0: never) |
| ``GOSTOP_DATABASE_URL`` | ``sqlite:///gostop.sqlite3`` | the tables' database (a URL) |
| ``GOSTOP_MIGRATE_ON_START`` | 1 | migrate the database at start (0: at first use) |
| ``GOSTOP_REQUEST_DEADLINE`` | 10 | seconds a batch or settlement may run (then 503) |
| ``GOSTOP_MAX_ANSWER_BYTES`` | 12582912 | largest batch answer, estimated before scoring |
| ``GOSTOP_ANSWER_SETTLEMENT_BYTES`` | 4096 | upper bound of one settlement, players aside |
| ``GOSTOP_ANSWER_PLAYER_BYTES`` | 1024 | upper bound per player of a settlement |
| ``GOSTOP_ANSWER_EVENT_BYTES`` | 256 | upper bound per side event and player |
| ``GOSTOP_ANSWER_ERROR_BYTES`` | 256 | upper bound per error of a problem, names aside |
| ``GOSTOP_TABLE_TTL_DAYS`` | 30 | days a table lives without an event (0: forever) |
| ``GOSTOP_JOIN_RATE`` | 20/minute | joins allowed per client address (``limits`` notation) |
| ``GOSTOP_RATE_STORAGE`` | memory:// | where join counts are kept (a ``limits`` storage URI) |
| ``GOSTOP_TRUSTED_PROXIES`` | 0 | proxies in front whose X-Forwarded-For/-Proto to trust |

The ``ANSWER_*`` figures are upper bounds of a batch item's answer (a settlement is the
hand's or a comparison's; calculator/api/batch_bounds.py says how they add up, and
tests/api/test_batch_bounds.py holds them): raise them if answers grow, lower them only
with that test passing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

# The answer headers a cross-origin app may read (CORS, GOSTOP_CORS_ORIGINS): the table's
# version, the request's id, when to retry (429, 503), whether a write was a replay, where
# a created table or token is, an export's file name. The app's answers and the proxy's own
# (deploy/run) expose the same.
CORS_EXPOSE_HEADERS = (
    "ETag",
    "X-Request-ID",
    "Retry-After",
    "Idempotent-Replayed",
    "Location",
    "Content-Disposition",
)
# The methods the API answers (a preflight named PATCH, which none serves), and how long a
# browser may keep a preflight's answer: a cross-origin page polling a table with
# Authorization and If-None-Match would otherwise be preflighted before every poll
# (browsers cap it: Chromium at 2 hours, Firefox at 24).
CORS_METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE")
CORS_MAX_AGE = 600

# An import is as large as the export of a long night: a realistic hand's event exports in
# about 950 bytes (3 players; bench.corpus) to 2,300 (4 players with long ids, corrected
# with a reason), so 5,000 events (a table's most, MAX_EVENTS) make 5–12 MB. The widest
# event the schemas allow (40-character ids outside the BMP, every list full: about 13,100
# bytes) would make a 65 MB export, which is refused (413, naming GOSTOP_MAX_IMPORT_BYTES)
# unless the setting is raised: an import needs no token, and its memory grows with it.
MAX_IMPORT_BYTES = 16 * 1024 * 1024
# Parsed, a body of tiny values (``[{},{},…]``, ``[0.0,0.0,…]``) takes 10–40 times its size
# in memory; an export has a separator (``{ [ , :``) every 8–9 bytes. An import may hold
# one every IMPORT_BYTES_PER_TOKEN bytes of its limit at most: 4.2 million under 16 MiB,
# about 150 MB parsed at worst.
IMPORT_BYTES_PER_TOKEN = 4


class SettingsError(ValueError):
    """A GOSTOP_* setting the service cannot run with: it stops the start, naming the
    variable and what to give (the CLI prints it, without a traceback)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Resolved settings of one app instance."""

    max_body_bytes: int = 64 * 1024
    max_batch_bytes: int = 4 * 1024 * 1024
    max_import_bytes: int = MAX_IMPORT_BYTES
    cors_origins: tuple[str, ...] = ()
    log_level: str = "INFO"
    access_log: bool = True
    bench_endpoint: bool = False
    # A single hand's ~2 kB answer goes plain: gzip would add a quarter to its CPU to save
    # 1.3 kB (bench/RESULTS.md, bench.compression); batches and catalogues are compressed.
    compress_min_bytes: int = 4096
    database_url: str = ""
    migrate_on_start: bool = True
    request_deadline: int = 10
    max_answer_bytes: int = 12 * 1024 * 1024  # three times the largest batch body
    answer_settlement_bytes: int = 4096
    answer_player_bytes: int = 1024
    answer_event_bytes: int = 256
    answer_error_bytes: int = 256
    table_ttl_days: int = 30
    join_rate: str = "20/minute"
    rate_storage: str = "memory://"
    trusted_proxies: int = 0

    @classmethod
    def load(
        cls, overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] = os.environ
    ) -> Settings:
        """Defaults, then the environment, then explicit ``overrides`` (for tests)."""
        settings = cls()
        changes: dict[str, Any] = {}
        for f in fields(cls):
            raw = environ.get("GOSTOP_" + f.name.upper())
            if raw is None:
                continue
            if f.name == "cors_origins":
                changes[f.name] = tuple(o.strip() for o in raw.split(",") if o.strip())
            elif isinstance(getattr(settings, f.name), bool):
                changes[f.name] = raw.strip().lower() in ("1", "true", "yes", "on")
            elif isinstance(getattr(settings, f.name), int):
                try:
                    changes[f.name] = int(raw)
                except ValueError:
                    name = "GOSTOP_" + f.name.upper()
                    raise SettingsError(f"{name} is {raw!r}: give a whole number") from None
            else:
                changes[f.name] = raw.strip()
        changes.update(overrides or {})
        if isinstance(changes.get("cors_origins"), str):
            changes["cors_origins"] = tuple(
                o.strip() for o in changes["cors_origins"].split(",") if o.strip()
            )
        return replace(settings, **changes)
