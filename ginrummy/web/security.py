"""Who may do what: seat tokens, cross-site refusal, rate limits and security headers.

Players are anonymous. The first API request without a seat cookie gets one: a
secret token from :mod:`secrets`, signed with the server's key
(:mod:`ginrummy.web.limits`), kept by the browser in an ``HttpOnly``,
``SameSite=Strict`` cookie. The server stores only the token's SHA-256 (the
*seat id*) with each match the player starts, so a match id may be shared
freely: only the token reads a hand in progress or acts in it, and a copy of
the database does not hold the tokens themselves. A token the server never
issued is no seat.

:class:`Guard` is one ASGI middleware doing, in order: refusing state-changing
requests from other sites (the ``Sec-Fetch-Site`` header, else ``Origin``
against ``Host``), checking the seat token's signature, rate limiting per seat
(or per client address for a request without a valid seat, with a separate
allowance of new seats per address) with a clear 429, issuing the seat cookie,
and adding the security headers (a strict Content-Security-Policy, no inline
script) to every response.

>>> token = new_seat_token()
>>> len(seat_id(token)), seat_id(token) == seat_id(token), seat_id(token) == token
(64, True, False)
>>> is_cross_site("POST", {"origin": "http://evil.example", "host": "127.0.0.1:8000"})
True
>>> is_cross_site("POST", {"sec-fetch-site": "same-origin", "host": "127.0.0.1:8000"})
False
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from functools import lru_cache
from http.cookies import SimpleCookie
from typing import Any

import anyio.to_thread

from ginrummy.web.limits import LEGACY_TOKEN, SIGNED_TOKEN, Limiter, RateLimiter, SeatTokens

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SEATLESS_PATHS",
    "SEAT_COOKIE",
    "WORKER_POLICY",
    "WORKER_SCRIPTS",
    "Guard",
    "is_cross_site",
    "new_seat_token",
    "seat_id",
    "seat_of",
]

SEAT_COOKIE = "ginrummy_seat"
"""The cookie holding a player's secret seat token."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Every page's policy: only this server's own files, no inline script or style."""

WORKER_SCRIPTS = frozenset({"/static/js/offline-worker.js"})
"""The scripts that compile WebAssembly: the offline referee's worker (Pyodide)."""
WORKER_POLICY = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"
)
"""The worker's policy: the same, but it may compile WebAssembly (no ``unsafe-eval``).
A dedicated worker runs under the policy sent with its own script, so the pages that
start it keep theirs."""

_SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
SEATLESS_PATHS = frozenset(
    {"/api/health", "/api/openapi.json", "/api/settings", "/api/learn/worked-hand"}
)
"""API paths that need no seat (the same for everybody): a request to them is given none."""
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_COOKIE_AGE = 400 * 24 * 3600
"""How long the browser keeps the seat (the longest browsers allow)."""


def new_seat_token() -> str:
    """A fresh secret seat token: 32 bytes from the operating system's secure source."""
    return secrets.token_urlsafe(32)


SEATS_KEPT = 4096
"""How many recent ``Cookie`` headers (to their seat token) and tokens (to their seat id)
each process keeps worked out, for a player's next requests."""


@lru_cache(maxsize=SEATS_KEPT)
def seat_id(token: str) -> str:
    """What the server stores for a seat token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(scope: Mapping[str, Any]) -> str:
    """The seat id :class:`Guard` found or issued for this request (``""`` if none)."""
    state = scope.get("state") or {}
    return str(state.get("seat", ""))


def is_cross_site(method: str, headers: Mapping[str, str]) -> bool:
    """Whether a request would change state on behalf of another site.

    Browsers say where a request comes from in ``Sec-Fetch-Site``; older ones
    send ``Origin``, which must then name this host. Requests that carry
    neither (curl, scripts) come from no site and are let through: they hold
    no victim's cookie.
    """
    if method.upper() in _SAFE_METHODS:
        return False
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = headers.get("origin")
    if origin is None:
        return False
    return origin.split("://", 1)[-1].rstrip("/") != headers.get("host", "")


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Guard:
    """The ASGI middleware in front of the whole app (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        seat_limiter: Limiter | None = None,
        address_limiter: Limiter | None = None,
        new_seats: Limiter | None = None,
        tokens: SeatTokens | None = None,
    ) -> None:
        self.app = app
        self.seat_limiter: Limiter = seat_limiter or RateLimiter(rate=20.0, burst=60)
        self.address_limiter: Limiter = address_limiter or RateLimiter(rate=50.0, burst=400)
        self.new_seats: Limiter = new_seats or RateLimiter(rate=60 / 3600, burst=60)
        # Without the database's key (a bare app in a test), seats last one process.
        self.tokens = tokens or SeatTokens(secrets.token_bytes(32))

    async def _seat(self, token: str | None, address: str) -> tuple[str | None, float]:
        """The request's valid seat token (``None``: it brings none), or seconds to wait."""
        if token is None:
            return None, 0.0
        if self.tokens.is_signed(token):
            return token, await self.seat_limiter.take(f"seat:{token}")
        known = self.tokens.is_known_legacy(token)
        if known is None:
            # An old unsigned token is looked up once; the look-up costs the address.
            wait = await self.address_limiter.take(f"addr:{address}")
            if wait:
                return None, wait
            known = await anyio.to_thread.run_sync(self.tokens.look_up_legacy, token)
        if known:
            return token, await self.seat_limiter.take(f"seat:{token}")
        return None, 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it on with the headers added to the answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        path: str = scope.get("path", "")
        if is_cross_site(scope["method"], headers):
            await _refuse(send, 403, "cross_site", "requests from other sites are refused")
            return
        set_cookie: bytes | None = None
        api = path.startswith("/api/")
        if api:
            address = str((scope.get("client") or ("?", 0))[0])
            token, wait = await self._seat(_cookie(headers.get("cookie", "")), address)
            if wait:
                await _refuse_slow(send, wait)
                return
            if token is None:
                wait = await self.address_limiter.take(f"addr:{address}")
                if wait:
                    await _refuse_slow(send, wait)
                    return
                if path in SEATLESS_PATHS or path.startswith("/api/docs"):
                    token = new_seat_token()  # a stranger's, never sent nor stored
                else:
                    wait = await self.new_seats.take(f"new:{address}")
                    if wait:
                        await _refuse_slow(send, wait, "too many new players from one address")
                        return
                    token = self.tokens.issue()
                    set_cookie = _set_cookie(token, secure=scope.get("scheme") == "https")
            scope.setdefault("state", {})["seat"] = seat_id(token)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in (b"cache-control",)
                ]
                policy = WORKER_POLICY if path in WORKER_SCRIPTS else CONTENT_SECURITY_POLICY
                out.append((b"content-security-policy", policy.encode()))
                out.extend(_SECURITY_HEADERS)
                out.append((b"cache-control", b"no-store" if api else b"no-cache"))
                if set_cookie is not None:
                    out.append((b"set-cookie", set_cookie))
                message["headers"] = out
            await send(message)

        await self.app(scope, receive, send_with_headers)


@lru_cache(maxsize=SEATS_KEPT)
def _cookie(header: str) -> str | None:
    if SEAT_COOKIE not in header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # a malformed Cookie header is no seat
        return None
    morsel = jar.get(SEAT_COOKIE)
    value = morsel.value if morsel is not None else ""
    if not (SIGNED_TOKEN.fullmatch(value) or LEGACY_TOKEN.fullmatch(value)):
        return None
    return value


def _set_cookie(token: str, *, secure: bool) -> bytes:
    parts = [
        f"{SEAT_COOKIE}={token}",
        "Path=/",
        f"Max-Age={_COOKIE_AGE}",
        "HttpOnly",
        "SameSite=Strict",
    ]
    if secure:
        parts.append("Secure")
    return "; ".join(parts).encode()


async def _refuse(
    send: Send,
    status: int,
    code: str,
    message: str,
    extra: Any = (),
    params: Mapping[str, Any] | None = None,
) -> None:
    body = json.dumps({"error": {"code": code, "message": message, "params": params or {}}})
    body_bytes = body.encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body_bytes)).encode()),
        (b"cache-control", b"no-store"),
        *_SECURITY_HEADERS,
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body_bytes})


async def _refuse_slow(send: Send, wait: float, why: str = "too many requests") -> None:
    seconds = max(1, math.ceil(wait))
    await _refuse(
        send,
        429,
        "rate_limited",
        f"{why}: wait {seconds} second{'s' if seconds > 1 else ''} and try again",
        [(b"retry-after", str(seconds).encode())],
        {"seconds": seconds},
    )
