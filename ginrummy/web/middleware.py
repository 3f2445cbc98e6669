"""The plumbing in front of the app: hosts, body sizes, strict JSON, compression, caching.

:func:`install` puts the layers around the app, outermost first:

1. :class:`HeadAsGet`: ``HEAD`` is answered as ``GET`` without the body, on
   every route (and a 405 names ``HEAD`` beside ``GET`` in ``Allow``: :func:`allow_head`).
2. :class:`HostCheck`: a ``Host`` the server does not answer to is refused
   (400 ``bad_host``) before anything else; the names are
   ``GINRUMMY_ALLOWED_HOSTS``.
3. Starlette's ``GZipMiddleware``: HTML, CSS, JavaScript and JSON of 500
   bytes or more are gzipped for clients that accept it.
4. :class:`StaticVersion`: the static files are also served under
   ``/static/<version>/``, where the version is a hash of their contents taken
   at start-up, with a year-long ``immutable`` cache; every HTML page the
   server sends has its ``/static/`` links rewritten to that path. A new
   release has a new version, so it is never served stale; modules importing
   each other by relative paths stay in the same versioned folder.
5. :class:`~ginrummy.web.security.Guard`: cross-site refusal, seats, rate
   limits and security headers.
6. :class:`BodyCheck`: a body over ``GINRUMMY_MAX_BODY`` bytes is refused
   with 413 before it is read (from ``Content-Length``, or as soon as a
   chunked body passes the limit), and an API body that is not UTF-8, not
   JSON, nested too deep or with a key twice gets 422 ``bad_request`` saying
   which.

It also serves the API's documentation page from the app's own files (no
CDN, no inline script), adds the answers every API route may give to the
OpenAPI schema, and answers database failures with a plain 503.

>>> host_allowed("127.0.0.1:8000", ("localhost", "127.0.0.1"))
True
>>> host_allowed("EVIL.example", ("localhost",)), host_allowed("a.b.org", ("*.b.org",))
(False, True)
>>> host_allowed("[::1]:8000", ("[::1]",)), host_allowed("anything", ("*",))
(True, True)
>>> duplicate_free('{"version": 3, "version": 4}')
Traceback (most recent call last):
...
ValueError: the key 'version' appears twice in one object
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import logging
import re
import sqlite3
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.middleware.gzip import GZipMiddleware

from ginrummy.web.config import ServerConfig
from ginrummy.web.limits import SeatTokens, limiter_for
from ginrummy.web.pwa import OFFLINE_IMMUTABLE
from ginrummy.web.security import (
    CONTENT_SECURITY_POLICY,
    ASGIApp,
    Guard,
    Receive,
    Scope,
    Send,
    seat_id,
)
from ginrummy.web.storage import MatchStore, StorageError

__all__ = [
    "MAX_JSON_DEPTH",
    "BodyCheck",
    "HeadAsGet",
    "HostCheck",
    "StaticVersion",
    "allow_head",
    "duplicate_free",
    "host_allowed",
    "install",
    "static_version",
]

MAX_JSON_DEPTH = 16
"""The deepest nesting of arrays and objects an API body may have (the schemas need 4)."""

_log = logging.getLogger("ginrummy.web")
_IMMUTABLE = b"public, max-age=31536000, immutable"
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_STATIC_LINK = re.compile(rb'((?:src|href)=")/static/')

Message = MutableMapping[str, Any]


async def _refuse(
    send: Send,
    status: int,
    code: str,
    message: str,
    params: Mapping[str, Any] | None = None,
    extra: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    body = json.dumps({"error": {"code": code, "message": message, "params": params or {}}})
    data = body.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"cache-control", b"no-store"),
                (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
                (b"x-content-type-options", b"nosniff"),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


# --- HEAD ---------------------------------------------------------------------


class HeadAsGet:
    """Answer ``HEAD`` as ``GET`` with the body left out (the headers are the same).

    Any other request passes straight through: a move goes through no wrapper of this layer.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request, as ``GET`` if it was ``HEAD``."""
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_head(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app(dict(scope, method="GET"), receive, send_head)


def allow_head(allow: str) -> str:
    """An ``Allow`` header's methods with ``HEAD`` beside ``GET`` (:class:`HeadAsGet`).

    >>> allow_head("GET"), allow_head("POST"), allow_head("GET, HEAD")
    ('GET, HEAD', 'POST', 'GET, HEAD')
    """
    methods = [m.strip() for m in allow.split(",") if m.strip()]
    if "GET" in methods and "HEAD" not in methods:
        methods.append("HEAD")
    return ", ".join(methods)


# --- Host ---------------------------------------------------------------------


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    """Whether a ``Host`` header (port and case aside) names one of ``allowed``."""
    host = host.strip().lower()
    name = host[: host.index("]") + 1] if host.startswith("[") and "]" in host else host
    name = name.split(":", 1)[0] if not name.startswith("[") else name
    if not name:
        return False
    for pattern in allowed:
        if pattern == "*" or pattern == name:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


class HostCheck:
    """Refuse a request whose ``Host`` names no host this server answers to."""

    def __init__(self, app: ASGIApp, *, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on if its host is allowed."""
        if scope["type"] == "http":
            host = next((v for k, v in scope["headers"] if k == b"host"), b"")
            if not host_allowed(host.decode("latin-1"), self.allowed):
                await _refuse(
                    send,
                    400,
                    "bad_host",
                    "this server does not answer to that host name "
                    "(its operator can add it to GINRUMMY_ALLOWED_HOSTS)",
                )
                return
        await self.app(scope, receive, send)


# --- bodies -------------------------------------------------------------------


def duplicate_free(text: str) -> Any:
    """Parse JSON text, refusing an object that names a key twice."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise ValueError(f"the key {key!r} appears twice in one object")
            out[key] = value
        return out

    return json.loads(text, object_pairs_hook=pairs)


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _json_problem(body: bytes) -> str | None:
    """What is wrong with an API body as JSON, or ``None``."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"the body is not UTF-8 text (byte {e.start} cannot start a character)"
    try:
        value = duplicate_free(text)
    except RecursionError:
        return f"the body nests arrays or objects more than {MAX_JSON_DEPTH} deep"
    except json.JSONDecodeError as e:
        return f"the body is not JSON: {e.msg} at line {e.lineno}, column {e.colno}"
    except ValueError as e:
        return str(e)
    if _depth(value) > MAX_JSON_DEPTH:
        return f"the body nests arrays or objects more than {MAX_JSON_DEPTH} deep"
    return None


class BodyCheck:
    """Refuse bodies over ``limit`` bytes (413) and API bodies that are not strict JSON (422)."""

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def _too_large(self, send: Send) -> None:
        await _refuse(
            send,
            413,
            "body_too_large",
            f"the request body is larger than {self.limit} bytes",
            {"limit": self.limit},
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body (at most ``limit`` bytes), check it, and hand it on."""
        if scope["type"] != "http" or scope["method"] not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await _refuse(send, 400, "bad_request", "the Content-Length header is no number")
                return
            if declared > self.limit:
                await self._too_large(send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and scope.get("path", "").startswith("/api/"):
            problem = _json_problem(body)
            if problem is not None:
                await _refuse(send, 422, "bad_request", problem)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# --- static files ---------------------------------------------------------------


def static_version(directory: Path) -> str:
    """A short hash of every file under ``directory``: names and contents."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(path.relative_to(directory).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:12]


class StaticVersion:
    """Serve ``/static/<version>/...`` as ``/static/...`` for a year; point HTML pages at it.

    ``immutable`` holds other prefixes (``/api/docs/assets/<version>/``) whose
    answers may be cached for a year as they are.
    """

    def __init__(self, app: ASGIApp, *, version: str, immutable: tuple[str, ...] = ()) -> None:
        self.app = app
        self.version = version
        self.prefix = f"/static/{version}/"
        self.immutable = immutable
        self.link = rb"\1/static/" + version.encode() + b"/"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Rewrite a versioned path, or rewrite the links of an HTML answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if path.startswith(self.prefix) or path.startswith(self.immutable):
            if path.startswith(self.prefix):
                plain = "/static/" + path[len(self.prefix) :]
                scope = dict(scope, path=plain, raw_path=plain.encode())

            async def send_forever(message: Message) -> None:
                if message["type"] == "http.response.start" and message["status"] == 200:
                    old = message.get("headers", [])
                    headers = [(k, v) for k, v in old if k.lower() != b"cache-control"]
                    message["headers"] = [*headers, (b"cache-control", _IMMUTABLE)]
                await send(message)

            await self.app(scope, receive, send_forever)
            return
        if path.startswith("/api/") and path != "/api/docs":
            # JSON and event streams, never an HTML page: nothing to rewrite, and a move or
            # a stream event is sent without one more layer to pass through.
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, self._html_rewriter(send))

    def _html_rewriter(self, send: Send) -> Send:
        start: Message | None = None
        chunks: list[bytes] = []

        async def rewrite(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                kind = next((v for k, v in message["headers"] if k == b"content-type"), b"")
                if kind.startswith(b"text/html"):
                    start = message
                    return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = _STATIC_LINK.sub(self.link, b"".join(chunks))
            # The page changes with the version, not with its file: no validators from the file.
            drop = (b"content-length", b"etag", b"last-modified")
            headers = [(k, v) for k, v in start["headers"] if k not in drop]
            start["headers"] = [*headers, (b"content-length", str(len(body)).encode())]
            await send(start)
            await send({"type": "http.response.body", "body": body})

        return rewrite


# --- the API documentation page ---------------------------------------------------


def _swagger_dir() -> tuple[Path, str] | None:
    """Swagger UI's files as the ``swagger-ui-bundle-v2`` package installs them, and its version."""
    try:
        vendor = Path(str(importlib.resources.files("swagger_ui_bundle"))) / "vendor"
    except ModuleNotFoundError:  # pragma: no cover - the web extra installs it
        return None
    found = sorted(vendor.glob("swagger-ui-*/swagger-ui-bundle.js"))
    if not found:  # pragma: no cover - a broken install
        return None
    path = found[-1].parent
    return path, path.name.removeprefix("swagger-ui-")


_DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gin Rummy API</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{assets}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="/static/api-docs.js"></script>
</body>
</html>
"""


def _add_docs(app: FastAPI) -> str | None:
    """Serve Swagger UI from the installed package at ``/api/docs``; its assets' prefix."""
    found = _swagger_dir()
    if found is None:
        return None
    directory, version = found
    assets = f"/api/docs/assets/{version}"
    page = _DOCS_PAGE.format(assets=assets)

    @app.get("/api/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(page)

    app.mount(assets, StaticFiles(directory=directory), name="api-docs-assets")
    return assets + "/"


# --- OpenAPI and database errors ----------------------------------------------------


def _common_answers(limit: int) -> dict[str, dict[str, Any]]:
    ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}}
    return {
        "400": {"description": "`bad_host`: a host name this server does not answer to", **ref},
        "413": {"description": f"`body_too_large`: a body over {limit} bytes", **ref},
        "422": {
            "description": "`bad_request` and the like: a body that is not UTF-8, not JSON, "
            "names a key twice or nests more than 16 deep, or a field that is wrong",
            **ref,
        },
        "429": {"description": "`rate_limited`: too many requests; see `Retry-After`", **ref},
        "503": {"description": "`unavailable`: the database cannot be used right now", **ref},
    }


_COMPONENT = "#/components/schemas/{model}"


def _document_api(app: FastAPI, limit: int, bodies: tuple[type[BaseModel], ...]) -> None:
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        parts = schema.setdefault("components", {}).setdefault("schemas", {})
        for model in bodies:  # read by their routes themselves, so FastAPI did not add them
            parts.setdefault(model.__name__, model.model_json_schema(ref_template=_COMPONENT))
        common = _common_answers(limit)
        for path, operations in schema.get("paths", {}).items():
            if not path.startswith("/api/"):
                continue
            for method, operation in operations.items():
                answers = operation.setdefault("responses", {})
                for status, answer in common.items():
                    if status in ("413", "422") and method not in ("post", "put", "patch"):
                        continue
                    answers.setdefault(status, answer)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _database_errors() -> tuple[type[Exception], ...]:
    kinds: list[type[Exception]] = [StorageError, sqlite3.Error]
    try:
        import psycopg
    except ImportError:  # pragma: no cover - depends on the install
        pass
    else:
        kinds.append(psycopg.Error)
    return tuple(kinds)


async def _unavailable(request: Request, exc: Exception) -> Response:
    # The driver's text names hosts and tables: it goes to the log, never to the client.
    _log.error("database error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse(
        {
            "error": {
                "code": "unavailable",
                "message": "the game's database cannot be used right now: try again soon",
                "params": {},
            }
        },
        status_code=503,
        headers={"Retry-After": "5"},
    )


# --- all together --------------------------------------------------------------------


def install(
    app: FastAPI,
    config: ServerConfig,
    store: MatchStore,
    static_dir: Path,
    bodies: tuple[type[BaseModel], ...] = (),
) -> None:
    """Put every layer above around ``app``, configured by ``config``; ``bodies`` are the
    request bodies that routes read themselves, for the OpenAPI schema."""
    for kind in _database_errors():
        app.add_exception_handler(kind, _unavailable)
    docs_assets = _add_docs(app)
    _document_api(app, config.max_body, bodies)
    tokens = SeatTokens(
        store.secret("seat_key"), lambda token: bool(store.recent(seat_id(token), 1))
    )
    # add_middleware wraps: the last one added is the outermost.
    app.add_middleware(BodyCheck, limit=config.max_body)
    app.add_middleware(
        Guard,
        seat_limiter=limiter_for(store, "seat", *config.rate_limit),
        address_limiter=limiter_for(store, "address", *config.new_seat_limit),
        new_seats=limiter_for(store, "new_seats", *config.seats_per_address),
        tokens=tokens,
    )
    version = static_version(static_dir)
    app.state.static_dir = static_dir
    app.state.static_version = version
    app.add_middleware(
        StaticVersion,
        version=version,
        immutable=(*OFFLINE_IMMUTABLE, *((docs_assets,) if docs_assets else ())),
    )
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(HostCheck, allowed=config.allowed_hosts)
    app.add_middleware(HeadAsGet)
