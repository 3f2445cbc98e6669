"""The ASGI app: the page, its static files and the JSON API.

The routes live in :mod:`ginrummy.web.routes` (and the learn pages in
:mod:`ginrummy.web.learn`). Every error is JSON of one shape,
``{"error": {"code": ..., "message": ..., "params": {...}}}``: a stable code
the page turns into words, its parameters, and an English message for
developers and logs, with a 4xx status for anything the client got wrong.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException as StarletteHTTPException

from ginrummy.settings import SettingsError
from ginrummy.web.coaching import Reviewer
from ginrummy.web.config import ServerConfig
from ginrummy.web.game import CLOCK_SWEEP, AlreadyAppliedError, DeckSource, GameError, run_clocks
from ginrummy.web.learn import router as learn_router
from ginrummy.web.live import live
from ginrummy.web.middleware import allow_head, install
from ginrummy.web.pwa import mount_offline
from ginrummy.web.pwa import router as pwa_router
from ginrummy.web.routes import OWN_BODIES, ClientError, api, pages
from ginrummy.web.schemas import ErrorOut
from ginrummy.web.storage import MatchStore

__all__ = ["STATIC_DIR", "THREADS", "WEB_ERROR_CODES", "create_app", "error_response"]

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).parent / "static"
"""The page's HTML, CSS and JavaScript."""

THREADS = 4
"""Requests worked on at once in one process (uvicorn's default is 40).

A move is mostly Python work, so threads only take turns at the interpreter
lock; with many of them, a thread holding the database's write lock waits
for the interpreter after each database call, and every other move waits
behind it. Run more processes (``uvicorn --workers``) to use more cores.
"""

WEB_ERROR_CODES: tuple[str, ...] = (
    "bad_request",
    "bad_card",
    "bad_deck",
    "bad_host",
    "bad_melds",
    "bad_name",
    "bad_seat_link",
    "bad_seats",
    "bad_commitment",
    "bad_clock",
    "clock_not_accepted",
    "body_too_large",
    "cross_site",
    "hints_off",
    "method_not_allowed",
    "missing_card",
    "not_found",
    "not_your_seat",
    "not_your_turn",
    "no_such_hand",
    "not_late",
    "nothing_finished",
    "http_error",
    "invite_cancelled",
    "invite_expired",
    "own_invite",
    "rate_limited",
    "stale_version",
    "table_full",
    "test_mode_off",
    "unavailable",
    "unexpected_card",
    "unexpected_melds",
    "unknown_invite",
    "unknown_match",
)
"""Every error code the web layer itself sends; beside them go the engine's refusal codes
(:data:`ginrummy.errors.REFUSALS`: a refused move, bad settings)."""


_NO_TELEMETRY: TelemetryConfig = {
    "tracing": False,
    "metrics": False,
    "logs": False,
    "operation_spans": False,
}
"""FastAPI's own OpenTelemetry hooks, off: the server exports no traces, and with them on
every request asks OpenTelemetry whether a provider was set up since the last one."""


def error_response(
    status: int,
    code: str,
    message: str,
    params: Mapping[str, int | str] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """The one error shape: ``{"error": {"code", "message", "params"}}``."""
    body = ErrorOut.model_validate(
        {"error": {"code": code, "message": message, "params": dict(params or {})}}
    )
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


async def _run_clocks(store: MatchStore) -> None:
    """Every :data:`~ginrummy.web.game.CLOCK_SWEEP` seconds, move for the late seats of
    timed matches (any process may: each move is a compare-and-set on the version)."""
    while True:
        await anyio.sleep(CLOCK_SWEEP)
        try:
            await anyio.to_thread.run_sync(run_clocks, store)
        except Exception:  # the database away for a moment: the next sweep tries again
            log.warning("the move clock's sweep failed", exc_info=True)


def create_app(
    store: MatchStore,
    decks: DeckSource | None = None,
    *,
    threads: int = THREADS,
    config: ServerConfig | None = None,
) -> FastAPI:
    """The web app over ``store``; ``decks`` fixes deck orders in test mode.

    ``threads`` is how many requests one process works on at once (the others wait);
    ``config`` sets the limits, hosts and the like (default: the ``GINRUMMY_*`` variables).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        await store.open_counter()
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_run_clocks, store)
                yield
                tasks.cancel_scope.cancel()
        finally:
            await store.close_counter()
            app.state.reviewer.close()

    app = FastAPI(
        title="Gin Rummy",
        summary="Play Gin Rummy: a person or a bot in each seat",
        docs_url=None,  # served from the app's own files: ginrummy.web.middleware
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
        telemetry=_NO_TELEMETRY,
    )
    config = config or ServerConfig()
    install(app, config, store, STATIC_DIR, bodies=tuple(OWN_BODIES.values()))
    app.state.store = store
    app.state.reviewer = Reviewer(store, samples=config.review_samples, jobs=config.review_jobs)
    app.state.decks = decks or DeckSource()
    app.state.page = STATIC_DIR / "index.html"

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        return error_response(exc.status, exc.code, str(exc), exc.params)

    @app.exception_handler(AlreadyAppliedError)
    async def already_applied(request: Request, exc: AlreadyAppliedError) -> Response:
        return Response(exc.reply, media_type="application/json")

    @app.exception_handler(ClientError)
    async def client_error(request: Request, exc: ClientError) -> JSONResponse:
        return error_response(exc.status, exc.code, str(exc), exc.params)

    @app.exception_handler(SettingsError)
    async def settings_error(request: Request, exc: SettingsError) -> JSONResponse:
        return error_response(422, exc.code, str(exc), exc.params)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            problems.append(f"{where}: {err.get('msg', 'invalid')}" if where else err["msg"])
        return error_response(422, "bad_request", "; ".join(problems) or "the request is not valid")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = "no such page" if exc.status_code == 404 else str(exc.detail)
        # A 405 names what is allowed (its Allow header), HEAD beside GET.
        headers = dict(exc.headers or {})
        if "Allow" in headers:
            headers["Allow"] = allow_head(headers["Allow"])
        return error_response(exc.status_code, code, message, headers=headers)

    app.include_router(api)
    app.include_router(live)
    app.include_router(pages)
    app.include_router(learn_router)
    app.include_router(pwa_router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    mount_offline(app)
    return app
