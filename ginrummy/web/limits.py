"""Seats the server really issued, and how many new ones one client address may get.

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
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import threading
from collections.abc import Callable

__all__ = ["LEGACY_TOKEN", "SIGNED_TOKEN", "SeatTokens"]

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
        if not SIGNED_TOKEN.fullmatch(token):
            return False
        random_part, mac = token.split(".")
        return hmac.compare_digest(mac, self._sign(random_part))

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
