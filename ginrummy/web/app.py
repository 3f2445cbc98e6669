"""The ASGI app: the page, its static files and the JSON API.

Routes stay thin: they parse the input schema, call :mod:`ginrummy.web.game`
and answer with an output schema. Every error is JSON of one shape,
``{"error": {"code": ..., "message": ...}}``, with a 4xx status for anything
the client got wrong.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ginrummy.cards import Card, CardParseError, parse_card, parse_cards
from ginrummy.fairness import SEED_BYTES, commitment
from ginrummy.hand import (
    Action,
    DeclareBigGin,
    Discard,
    DrawPile,
    DrawStock,
    Knock,
    PassUpcard,
    TakeUpcard,
)
from ginrummy.records import match_to_dict
from ginrummy.settings import Settings, SettingsError, legacy_difficulty
from ginrummy.web import game
from ginrummy.web.config import ServerConfig
from ginrummy.web.game import YOU, AlreadyAppliedError, DeckSource, GameError, LoadedMatch
from ginrummy.web.learn import router as learn_router
from ginrummy.web.middleware import install
from ginrummy.web.present import SETTING_OPTIONS, match_out, proofs_out, summary_out
from ginrummy.web.schemas import (
    CARD_PATTERN,
    ActionIn,
    CommitmentOut,
    ErrorOut,
    MatchOut,
    MatchSummaryOut,
    NewMatchIn,
    ProofsOut,
    SettingOptionOut,
    VersionIn,
)
from ginrummy.web.security import seat_of
from ginrummy.web.storage import MatchStore

__all__ = ["STATIC_DIR", "THREADS", "ClientError", "create_app"]

STATIC_DIR = Path(__file__).parent / "static"
"""The page's HTML, CSS and JavaScript."""

THREADS = 4
"""Requests worked on at once in one process (uvicorn's default is 40).

A move is mostly Python work, so threads only take turns at the interpreter
lock; with many of them, a thread holding the database's write lock waits
for the interpreter after each database call, and every other move waits
behind it. Run more processes (``uvicorn --workers``) to use more cores.
"""


class ClientError(ValueError):
    """A request that cannot be understood: a bad card name, a missing card."""

    def __init__(self, message: str, code: str = "bad_request", status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def _error(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    body = ErrorOut.model_validate({"error": {"code": code, "message": message}})
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


def _card(text: str | None, verb: str) -> Card:
    if text is None:
        raise ClientError(f"say which card to {verb}", "missing_card")
    if not re.fullmatch(CARD_PATTERN, text):
        raise ClientError(
            f"{text!r} is not a card: write the rank (A 2-9 T J Q K) then the suit (C D H S), "
            "in capitals, e.g. AS, TD, 7C",
            "bad_card",
        )
    try:
        return parse_card(text)
    except CardParseError as e:
        raise ClientError(str(e), "bad_card") from None


def parse_move(body: ActionIn) -> Action | None:
    """The engine action a request asks for (``None``: knock with the best card)."""
    kind = body.action
    if kind in ("take", "pass", "stock", "pile", "big_gin") and body.card is not None:
        raise ClientError(f"{kind} takes no card", "unexpected_card")
    if body.melds is not None and kind != "knock":
        raise ClientError("only a knock lays down melds", "unexpected_melds")
    if kind == "take":
        return TakeUpcard()
    if kind == "pass":
        return PassUpcard()
    if kind == "stock":
        return DrawStock()
    if kind == "pile":
        return DrawPile()
    if kind == "big_gin":
        return DeclareBigGin()
    if kind == "discard":
        return Discard(_card(body.card, "throw"))
    if body.melds is None:
        return None if body.card is None else Knock(_card(body.card, "knock with"))
    if body.card is None:
        raise ClientError("say which card to knock with when you choose the melds", "missing_card")
    melds = []
    for meld in body.melds:
        if len(meld) > 11:
            raise ClientError("a meld holds at most eleven cards", "bad_melds")
        melds.append(tuple(_card(c, "lay down") for c in meld))
    return Knock(_card(body.card, "knock with"), tuple(melds))


def _get_store(request: Request) -> MatchStore:
    store: MatchStore = request.app.state.store
    return store


Store = Annotated[MatchStore, Depends(_get_store)]
"""The app's match store, as a route parameter."""


def _get_seat(request: Request) -> str:
    return seat_of(request.scope)


Seat = Annotated[str, Depends(_get_seat)]
"""The requesting player's seat id (from the seat cookie; see :mod:`.security`)."""


def _render(loaded: LoadedMatch) -> str:
    """The answer to a move as JSON text, exactly as the route sends it (kept for repeats)."""
    return match_out(loaded).model_dump_json(by_alias=True)


def _answer(loaded: LoadedMatch, status: int = 200) -> Response:
    """The answer :func:`_render` wrote before the move was saved: a ``MatchOut``, sent as is.

    Written once, before the save: afterwards this process may already be
    carrying the match on for the player's next move.
    """
    if loaded.answer is None:  # pragma: no cover - every route below passes _render
        raise RuntimeError("no answer was written")
    return Response(loaded.answer, status_code=status, media_type="application/json")


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
    source = decks or DeckSource()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        yield

    app = FastAPI(
        title="Gin Rummy",
        summary="Play Gin Rummy against the computer",
        docs_url=None,  # served from the app's own files: ginrummy.web.middleware
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )
    install(app, config or ServerConfig(), store, STATIC_DIR)
    app.state.store = store
    app.state.decks = source

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        return _error(exc.status, exc.code, str(exc))

    @app.exception_handler(AlreadyAppliedError)
    async def already_applied(request: Request, exc: AlreadyAppliedError) -> Response:
        return Response(exc.reply, media_type="application/json")

    @app.exception_handler(ClientError)
    async def client_error(request: Request, exc: ClientError) -> JSONResponse:
        return _error(exc.status, exc.code, str(exc))

    @app.exception_handler(SettingsError)
    async def settings_error(request: Request, exc: SettingsError) -> JSONResponse:
        return _error(422, "bad_settings", str(exc))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            problems.append(f"{where}: {err.get('msg', 'invalid')}" if where else err["msg"])
        return _error(422, "bad_request", "; ".join(problems) or "the request is not valid")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = "no such page" if exc.status_code == 404 else str(exc.detail)
        return _error(exc.status_code, code, message, exc.headers)  # a 405 names what is allowed

    errors: dict[int | str, dict[str, Any]] = {
        403: {"model": ErrorOut},
        404: {"model": ErrorOut},
        409: {"model": ErrorOut},
        422: {"model": ErrorOut},
        429: {"model": ErrorOut},
    }

    @app.get("/api/settings", response_model=list[SettingOptionOut])
    def settings_form() -> list[SettingOptionOut]:
        """Every setting and house rule, with what each changes."""
        return list(SETTING_OPTIONS)

    @app.get("/api/matches", response_model=list[MatchSummaryOut])
    def history(store: Store, seat: Seat) -> list[MatchSummaryOut]:
        """Your past and unfinished matches, the most recent first."""
        return [summary_out(row) for row in store.recent(seat=seat)]

    @app.post(
        "/api/commitments", response_model=CommitmentOut, status_code=201, responses=errors
    )
    def new_commitment(store: Store, seat: Seat) -> CommitmentOut:
        """Commit to the server seed of your next new match: its SHA-256, before you send yours."""
        server_seed = secrets.token_hex(SEED_BYTES)
        shown = commitment(server_seed)
        store.add_seed(shown, server_seed, seat)
        return CommitmentOut(commitment=shown)

    @app.post("/api/matches", response_model=MatchOut, status_code=201, responses=errors)
    def new_match(body: NewMatchIn, store: Store, seat: Seat) -> Response:
        """Start a match with these settings."""
        chosen = body.settings.model_dump()
        settings = Settings.from_dict(chosen)
        test_decks: list[list[Card]] = []
        first: int | None = None
        if body.test_decks is not None or body.first_dealer is not None:
            if not source.is_test:
                raise ClientError(
                    "deck orders can only be fixed when the server runs in test mode",
                    "test_mode_off",
                    403,
                )
            try:
                test_decks = [parse_cards(d) for d in body.test_decks or []]
            except CardParseError as e:
                raise ClientError(str(e), "bad_card") from None
            if any(len(d) != 52 or len(set(d)) != 52 for d in test_decks):
                raise ClientError("a test deck holds each of the 52 cards once", "bad_deck")
            if body.first_dealer is not None:
                first = YOU if body.first_dealer == "you" else game.COMPUTER
        loaded = game.create_match(
            store,
            settings,
            source,
            test_decks=test_decks,
            first_dealer=first,
            seat=seat,
            client_seed=body.client_seed,
            committed=body.commitment,
            render=_render,
            bot=legacy_difficulty(chosen) or game.DEFAULT_BOT,
        )
        return _answer(loaded, 201)

    @app.get("/api/matches/{match_id}", response_model=MatchOut, responses=errors)
    def get_match(match_id: str, store: Store, seat: Seat) -> MatchOut:
        """The match as you see it now (a match in play only to its player)."""
        return match_out(game.load_match(store, match_id, seat))

    @app.get("/api/matches/{match_id}/record", responses=errors)
    def record(match_id: str, store: Store, seat: Seat) -> JSONResponse:
        """The match's record (docs/RECORDS.md) up to its last finished hand, to download.

        A hand still in play is never in it: its deck is the stock's order.
        """
        match = game.load_match(store, match_id, seat).match
        if not match.hand.is_over and len(match.hands) == 1:
            raise ClientError("no hand of this match is over yet", "nothing_finished", 409)
        return JSONResponse(
            match_to_dict(match, finished_only=True),
            headers={"Content-Disposition": f'attachment; filename="ginrummy-{match_id}.json"'},
        )

    @app.get("/api/matches/{match_id}/proofs", response_model=ProofsOut, responses=errors)
    def proofs(match_id: str, store: Store) -> ProofsOut:
        """How each hand was dealt, for anyone: seeds and decks of the hands that are over."""
        return proofs_out(game.load_match(store, match_id))

    @app.post("/api/matches/{match_id}/actions", response_model=MatchOut, responses=errors)
    def act(match_id: str, body: ActionIn, store: Store, seat: Seat) -> Response:
        """Make one move; the computer answers in the same response."""
        move = parse_move(body)
        loaded = game.apply_action(
            store,
            match_id,
            body.version,
            move,
            seat=seat,
            action_id=body.action_id,
            render=_render,
        )
        return _answer(loaded)

    @app.post("/api/matches/{match_id}/next-hand", response_model=MatchOut, responses=errors)
    def next_hand(match_id: str, body: VersionIn, store: Store, seat: Seat) -> Response:
        """Deal the next hand from the commitment shown and your browser's seed."""
        loaded = game.deal_next_hand(
            store,
            match_id,
            body.version,
            source,
            seat=seat,
            client_seed=body.client_seed,
            action_id=body.action_id,
            render=_render,
        )
        return _answer(loaded)

    @app.get("/api/health")
    def health() -> dict[str, str]:
        """Whether the server is up."""
        return {"status": "ok"}

    page = STATIC_DIR / "index.html"

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(page)

    @app.get("/history", include_in_schema=False)
    def history_page() -> FileResponse:
        return FileResponse(page)

    @app.get("/match/{match_id}", include_in_schema=False)
    def match_page(match_id: str) -> FileResponse:
        return FileResponse(page)

    app.include_router(learn_router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
