"""Seats the server really issued, and the rate limits: in PostgreSQL, or in memory.

A seat token is a random part and a signature of it with the server's key
(HMAC-SHA256, the key kept in the database so that every process and every
restart agrees). A token the server never issued fails the signature and is
no seat: the request is treated as one that brings none, so it counts
against its client address, and a made-up token gets no rate-limit bucket of
its own. New seats are limited per client address (``GINRUMMY_SEATS_PER_ADDRESS``,
by default 60 an hour, all at once if need be: a classroom behind one address).

Tokens issued before tokens were signed (43 characters, no signature) stay
valid while their seat has a match in the database, so an upgrade loses
nobody's match; each one is looked up once per process.

>>> tokens = SeatTokens(b"k" * 32)
>>> token = tokens.issue()
>>> tokens.is_signed(token), tokens.is_signed(token[:-1] + ("A" if token[-1] != "A" else "B"))
(True, False)
>>> SeatTokens(b"other key " * 4).is_signed(token)
False

The rate limits are token buckets (:class:`RateLimiter`): each key (a seat, a
client address) may make ``burst`` requests at once, then ``rate`` a second.
Where they are kept follows the database. On PostgreSQL, which several
processes and machines may share, every bucket is a row of
``ginrummy_buckets`` (:class:`SharedLimiter`), taken from in one statement on
the database's clock, so a limit holds whichever process answers. On SQLite
the one process that may serve it keeps them in memory (an SQLite database
has one writer at a time: counting each request there would queue every
request behind the moves).

>>> limiter = RateLimiter(rate=1.0, burst=2)
>>> [limiter.allow("a", now=0.0) for _ in range(3)]
[0.0, 0.0, 1.0]
>>> limiter.allow("a", now=1.0), limiter.allow("b", now=1.0)
(0.0, 0.0)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import anyio
import anyio.to_thread

from ginrummy.web.storage import MatchStore, StorageError

_log = logging.getLogger("ginrummy.web")

__all__ = [
    "LEASE_SECONDS",
    "LEGACY_TOKEN",
    "LIMITER_THREADS",
    "SIGNED_TOKEN",
    "Limiter",
    "RateLimiter",
    "SeatTokens",
    "SharedLimiter",
    "lease_size",
    "limiter_for",
]

SIGNED_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}")
"""A seat token: 32 random bytes, a dot and 16 bytes of its signature (URL-safe base64)."""
LEGACY_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
"""A seat token from before tokens were signed."""
_KNOWN_LEGACY_MAX = 100_000
"""How many old-style seats one process remembers as checked."""


class SeatTokens:
    """Issues seat tokens signed with ``key`` and tells them from made-up ones.

    ``has_matches(token)`` says whether an old unsigned token's seat owns a
    match (a database look-up, done off the event loop by the caller).
    """

    def __init__(self, key: bytes, has_matches: Callable[[str], bool] | None = None) -> None:
        self._key = key
        self._has_matches = has_matches
        self._legacy: set[str] = set()
        self._signed: set[str] = set()
        """Tokens already checked and found signed (a player's next requests skip the MAC)."""
        self._lock = threading.Lock()

    def _sign(self, random_part: str) -> str:
        mac = hmac.new(self._key, random_part.encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def issue(self) -> str:
        """A new seat token: 32 bytes from :mod:`secrets` and their signature."""
        random_part = secrets.token_urlsafe(32)
        return f"{random_part}.{self._sign(random_part)}"

    def is_signed(self, token: str) -> bool:
        """Whether this server (with this key) issued ``token``."""
        if token in self._signed:
            return True
        if not SIGNED_TOKEN.fullmatch(token):
            return False
        random_part, mac = token.split(".")
        if not hmac.compare_digest(mac, self._sign(random_part)):
            return False
        with self._lock:
            if len(self._signed) >= _KNOWN_LEGACY_MAX:
                self._signed.clear()
            self._signed.add(token)
        return True

    def is_known_legacy(self, token: str) -> bool | None:
        """For an old unsigned token: ``True``/``False`` if already known, ``None`` to look up."""
        if not LEGACY_TOKEN.fullmatch(token) or self._has_matches is None:
            return False
        with self._lock:
            return True if token in self._legacy else None

    def look_up_legacy(self, token: str) -> bool:
        """Whether an old unsigned token's seat owns a match (blocking: a database query)."""
        if self._has_matches is None or not self._has_matches(token):
            return False
        with self._lock:
            if len(self._legacy) >= _KNOWN_LEGACY_MAX:
                self._legacy.clear()
            self._legacy.add(token)
        return True


# --- rate limits ---------------------------------------------------------------------


class Limiter(Protocol):
    """Token buckets by key: :meth:`take` one request from a key's bucket."""

    rate: float
    burst: int

    async def take(self, key: str) -> float:
        """0 if ``key`` may make a request now (and it is counted), else seconds to wait."""
        ...


@dataclass
class RateLimiter:
    """Token buckets in this process's memory: each key may make ``burst`` requests at once,
    ``rate`` a second after.

    Thread-safe; buckets idle long enough to be full again are forgotten.
    """

    rate: float
    burst: int
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _last_prune: float = 0.0

    def allow(self, key: str, now: float | None = None) -> float:
        """Take one request from ``key``'s bucket: 0 if allowed, else seconds to wait."""
        t = time.monotonic() if now is None else now
        with self._lock:
            tokens, then = self._buckets.get(key, (float(self.burst), t))
            tokens = min(float(self.burst), tokens + (t - then) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, t)
                wait = 0.0
            else:
                self._buckets[key] = (tokens, t)
                wait = (1.0 - tokens) / self.rate
            if t - self._last_prune > 60.0:
                self._prune(t)
        return wait

    async def take(self, key: str) -> float:
        """:meth:`allow`, for the event loop (it never blocks)."""
        return self.allow(key)

    def _prune(self, now: float) -> None:
        full = self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full}
        self._last_prune = now


LIMITER_THREADS = 4
"""Threads per process that count requests in the database's buckets.

Their own threads, not the request threads (:data:`ginrummy.web.app.THREADS`):
a request is counted before it may wait for a request thread, so counting
never queues behind the moves being worked on.
"""


LEASE_SECONDS = 10.0
"""How long a process may count out the requests it took from a bucket ahead of need."""


def lease_size(rate: float, burst: int) -> int:
    """How many requests a process takes from a key's shared bucket at once: a tenth of
    the burst, at most a second's refill, at least one.

    >>> lease_size(20.0, 60), lease_size(50.0, 400), lease_size(60 / 3600, 60)
    (6, 40, 1)
    """
    return max(1, min(burst // 10, int(rate)))


class SharedLimiter:
    """Token buckets kept in the database (PostgreSQL), shared by every process on it.

    ``name`` prefixes the keys, so that limiters with different rates never
    share a bucket. A key is stored as its SHA-256 (a seat's key holds its
    token, which the database must never hold).

    A request that finds its key's bucket counted out in this process needs no
    statement: a statement takes up to ``lease`` requests at once (by default
    :func:`lease_size`: 6 of a seat's 60, one of an address's new seats an
    hour) and the process counts the rest out itself for :data:`LEASE_SECONDS`.
    Every request is still one taken from the shared bucket, so across
    processes a key never makes more than its limit; requests a process took
    and did not use in time are dropped, at most ``lease - 1`` a key.
    """

    def __init__(
        self, store: MatchStore, name: str, rate: float, burst: int, lease: int | None = None
    ) -> None:
        self.store = store
        self.name = name
        self.rate = rate
        self.burst = burst
        self.lease = lease_size(rate, burst) if lease is None else max(1, min(lease, burst))
        self._leases: dict[str, tuple[int, float]] = {}
        """Requests taken ahead by key: how many are left, and until when they may be used."""
        self._lock = threading.Lock()
        self._pruned = 0.0

    def _from_lease(self, key: str) -> bool:
        """Count a request from what this process took ahead for ``key``, if any is left."""
        if self.lease == 1:
            return False
        now = time.monotonic()
        with self._lock:
            held = self._leases.pop(key, None)
            if held is None or held[1] < now:
                return False
            if held[0] > 1:
                self._leases[key] = (held[0] - 1, held[1])
            return True

    def _keep(self, key: str, given: int) -> None:
        """Keep the requests a statement gave beyond the one being made."""
        if given < 2:
            return
        now = time.monotonic()
        with self._lock:
            self._leases[key] = (given - 1, now + LEASE_SECONDS)
            if now - self._pruned > LEASE_SECONDS:
                self._leases = {k: v for k, v in self._leases.items() if v[1] >= now}
                self._pruned = now

    def _bucket(self, key: str) -> str:
        return f"{self.name}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"

    def allow(self, key: str) -> float:
        """Take one request from ``key``'s bucket: 0 if allowed, else seconds to wait
        (blocking: a database statement unless this process took it ahead)."""
        if self._from_lease(key):
            return 0.0
        given, wait = self.store.take_tokens(self._bucket(key), self.rate, self.burst, self.lease)
        self._keep(key, given)
        return wait

    async def take(self, key: str) -> float:
        """:meth:`allow`: on the event loop's own connection when the app opened one
        (:meth:`MatchStore.open_counter`), else on one of the :data:`LIMITER_THREADS`.

        If the database cannot count (it is down, or busy past the pool's
        wait), the request is let through: what it asks for needs the
        database too, and the app answers that with ``503 unavailable``.
        """
        if self._from_lease(key):
            return 0.0
        try:
            taken = await self.store.take_tokens_async(
                self._bucket(key), self.rate, self.burst, self.lease
            )
            if taken is None:
                return await anyio.to_thread.run_sync(self.allow, key, limiter=_limiter_threads())
        except StorageError as e:
            _log.warning("rate limit not counted: %s", e)
            return 0.0
        given, wait = taken
        self._keep(key, given)
        return wait


_THREADS: anyio.CapacityLimiter | None = None


def _limiter_threads() -> anyio.CapacityLimiter:
    global _THREADS
    if _THREADS is None:
        _THREADS = anyio.CapacityLimiter(LIMITER_THREADS)
    return _THREADS


def limiter_for(store: MatchStore, name: str, rate: float, burst: int) -> Limiter:
    """Buckets where ``store``'s processes can share them: in PostgreSQL, else in memory."""
    if store.is_postgres:
        return SharedLimiter(store, name, rate, burst)
    return RateLimiter(rate, burst)
