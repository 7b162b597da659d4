"""Per-client rate limits the service keeps itself: joining a table by code
(``GOSTOP_JOIN_RATE``, per client: :func:`rate_key`), so that nobody tries join codes by the
million. Counted by the ``limits`` library (flask-limiter's engine) with a moving window.

The counts live where ``GOSTOP_RATE_STORAGE`` says: by default in each worker's memory, so
with W workers and I instances a client may get up to W × I times the rate (each counts
separately) — still bounded, and nothing to run. A shared storage (``redis://…``, with
the ``redis`` package installed) makes it one count for all.

The client address is the connection's, unless ``GOSTOP_TRUSTED_PROXIES`` says how many
proxies in front set ``X-Forwarded-For`` (deploy/run's nginx: 1): only then is that header
believed, since any client can send it.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
import time

from flask import Flask, current_app, request
from limits import RateLimitItem, parse, storage, strategies
from limits.errors import ConfigurationError
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from calculator.api.config import SettingsError
from calculator.api.http import coded


class Limit:
    """One limit (``20/minute``) on one kind of request, counted per client address."""

    def __init__(self, *, name: str, rate: str, storage_uri: str) -> None:
        self.name = name
        try:  # a bad setting stops the start, not the first join
            self.item: RateLimitItem = parse(rate)
        except ValueError:
            raise SettingsError(
                f"GOSTOP_{name.upper()}_RATE is {rate!r}: give a rate such as 20/minute"
            ) from None
        self.storage_uri = storage_uri
        self._limiter: strategies.MovingWindowRateLimiter | None = None
        self._pid = 0
        try:  # a storage that cannot work (an unknown scheme, its package missing) too
            self._strategy()
        except (ConfigurationError, ValueError) as error:
            raise SettingsError(
                f"GOSTOP_RATE_STORAGE is {_without_password(storage_uri)!r}: "
                f"{str(error).split('. See ')[0]} "
                "(give memory://, or redis://host:6379 with the redis package installed)"
            ) from None

    def _strategy(self) -> strategies.MovingWindowRateLimiter:
        # Made per process: a storage's connections and timers do not survive a fork.
        if self._limiter is None or self._pid != os.getpid():
            backend = storage.storage_from_string(self.storage_uri)
            self._limiter = strategies.MovingWindowRateLimiter(backend)
            self._pid = os.getpid()
        return self._limiter

    def hit(self, client: str) -> None:
        """Count a request of ``client``; a 429 problem with Retry-After when over."""
        limiter = self._strategy()
        if limiter.hit(self.item, self.name, client):
            return
        reset = limiter.get_window_stats(self.item, self.name, client).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise coded(
            TooManyRequests(
                f"too many {self.name} requests from this address (the limit is "
                f"{self.item.amount} per {self.item.get_expiry()} s); retry in {wait} s",
                retry_after=wait,
            ),
            "rate_limited",
        )


def _without_password(uri: str) -> str:
    """A storage URI as it may be printed: no password (redis://:secret@host → ***)."""
    return re.sub(r"(?<=://)[^@/]*@", "***@", uri)


def client_address() -> str:
    """The client's address (the proxies' X-Forwarded-For only when they are trusted)."""
    return request.remote_addr or "unknown"


def rate_key(address: str) -> str:
    """What a client's requests are counted under: its IPv4 address, or its IPv6 /64 — one
    subscriber gets a whole /64 and may rotate through it at will (an IPv4 address mapped
    into IPv6 counts as that IPv4 address).

    >>> rate_key("192.0.2.10"), rate_key("::ffff:192.0.2.10")
    ('192.0.2.10', '192.0.2.10')
    >>> rate_key("2001:db8:1:2:aaaa::1")
    '2001:db8:1:2::/64'
    >>> rate_key("unknown")
    'unknown'
    """
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])  # no IPv6 zone
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def init_limits(app: Flask) -> None:
    """The app's limits, and the proxies it trusts (settings ``trusted_proxies``)."""
    settings = app.config["GOSTOP"]
    app.extensions["gostop_join_limit"] = Limit(
        name="join", rate=settings.join_rate, storage_uri=settings.rate_storage
    )
    hops = settings.trusted_proxies
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]


def join_limit() -> Limit:
    """The current app's limit on joins."""
    limit: Limit = current_app.extensions["gostop_join_limit"]
    return limit
