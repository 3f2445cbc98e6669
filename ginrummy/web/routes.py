"""The JSON API's routes and the page's URLs, each thin.

A route parses its input schema, asks the referee (:mod:`ginrummy.web.game`)
for the next state, has the presenter (:mod:`ginrummy.web.present`) write the
answer from the requester's seat, and has the referee store both: the three
steps of a move, in that order, and nothing else.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from functools import cache
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from fastapi import APIRouter, Depends, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ValidationError

from ginrummy.cards import Card, CardParseError, parse_card, parse_cards
from ginrummy.fairness import SEED_BYTES, commitment
from ginrummy.hand import Action, Discard, Knock, parse_action
from ginrummy.records import match_to_dict
from ginrummy.settings import Settings
from ginrummy.web import game, i18n
from ginrummy.web.coaching import Reviewer, ask_hint, statistics, statistics_csv
from ginrummy.web.game import DeckSource
from ginrummy.web.model import LoadedMatch
from ginrummy.web.present import SETTINGS_FORM, match_out, proofs_out, summary_out
from ginrummy.web.schemas import (
    CARD_PATTERN,
    ActionIn,
    CommitmentOut,
    ErrorOut,
    HintOut,
    MatchOut,
    MatchSummaryOut,
    NewMatchIn,
    ProofsOut,
    ReviewStatusOut,
    SettingsFormOut,
    StatisticsOut,
    VersionIn,
    is_display_name,
)
from ginrummy.web.security import seat_of
from ginrummy.web.storage import MatchStore

__all__ = [
    "COMMITTED_AT",
    "ERRORS",
    "OWN_BODIES",
    "ClientError",
    "Holder",
    "Store",
    "api",
    "display_name",
    "pages",
    "parse_move",
]


class ClientError(ValueError):
    """A request that cannot be understood: a bad card name, a missing card."""

    def __init__(
        self, message: str, code: str = "bad_request", status: int = 422, **params: int | str
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.params = params


# The dependencies are coroutines, though they only read the app's state: FastAPI runs a
# plain function dependency on a worker thread, a hand-off (and back) for each, per request.
def _store_of(request: Request) -> MatchStore:
    store: MatchStore = request.app.state.store
    return store


def _decks_of(request: Request) -> DeckSource:
    decks: DeckSource = request.app.state.decks
    return decks


async def _get_store(request: Request) -> MatchStore:
    return _store_of(request)


async def _get_decks(request: Request) -> DeckSource:
    return _decks_of(request)


async def _get_holder(request: Request) -> str:
    return seat_of(request.scope)


Store = Annotated[MatchStore, Depends(_get_store)]
"""The app's match store."""
Decks = Annotated[DeckSource, Depends(_get_decks)]
"""Where the app's deals come from."""


async def _get_reviewer(request: Request) -> Reviewer:
    reviewer: Reviewer = request.app.state.reviewer
    return reviewer


Holder = Annotated[str, Depends(_get_holder)]
"""The requester's seat id (from the seat cookie; see :mod:`.security`)."""
Reviews = Annotated[Reviewer, Depends(_get_reviewer)]
"""The app's reviewer (reviews made off the request thread, then stored)."""

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut} for status in (403, 404, 409, 410, 422, 429)
}
"""The error answers every API route may give, for the OpenAPI description."""

api = APIRouter(prefix="/api", responses=ERRORS)
"""The JSON API."""
pages = APIRouter(include_in_schema=False)
"""The page's URLs (one page; the script reads the URL)."""


_Body = TypeVar("_Body", bound=BaseModel)


def parsed(model: type[_Body], body: bytes) -> _Body:
    """``body`` as ``model``, or the refusal FastAPI gives a body that is not one (422)."""
    try:
        return model.model_validate_json(body or b"null")
    except ValidationError as e:
        raise RequestValidationError(e.errors(include_url=False), body=body) from None


OWN_BODIES: dict[str, type[BaseModel]] = {}
"""The bodies routes read themselves (:func:`parsed`), by name, as :func:`own_body` meets
them: the OpenAPI schema has them added (:func:`ginrummy.web.middleware.install`), as FastAPI
adds those it reads."""


def own_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI of a route that reads its own JSON body as ``model`` (:func:`parsed`)."""
    OWN_BODIES[model.__name__] = model
    ref = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": ref}}}}


def _card(text: str | None, verb: str) -> Card:
    if text is None:
        raise ClientError(f"say which card to {verb}", "missing_card")
    if not re.fullmatch(CARD_PATTERN, text):
        raise ClientError(
            f"{text!r} is not a card: write the rank (A 2-9 T J Q K) then the suit (C D H S), "
            "in capitals, e.g. AS, TD, 7C",
            "bad_card",
            card=text,
        )
    try:
        return parse_card(text)
    except CardParseError as e:
        raise ClientError(str(e), "bad_card", card=text) from None


def display_name(text: str | None) -> str | None:
    """A display name as a player typed it, trimmed (``None``: they chose none)."""
    if text is None or not text.strip():
        return None
    name = unicodedata.normalize("NFC", " ".join(text.split()))
    if not is_display_name(name):
        raise ClientError(
            "a name is 1 to 20 letters (of any script, with their marks), digits, spaces "
            "and . ' - _, starting with a letter or a digit",
            "bad_name",
            name=name[:40],
        )
    return name


def parse_move(body: ActionIn) -> Action | None:
    """The engine action a request asks for (``None``: knock with the best card)."""
    kind = body.action
    if kind not in ("discard", "knock"):
        if body.card is not None:
            raise ClientError(f"{kind} takes no card", "unexpected_card", action=kind)
        if body.melds is not None:
            raise ClientError("only a knock lays down melds", "unexpected_melds")
        return parse_action(kind)  # the engine's one vocabulary of action names
    if body.melds is not None and kind != "knock":
        raise ClientError("only a knock lays down melds", "unexpected_melds")
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


def _write(loaded: LoadedMatch) -> str:
    """The answer from the requester's seat, as JSON text (kept for repeats as it is)."""
    return match_out(loaded).model_dump_json(by_alias=True)


COMMITTED_AT = "X-Committed-At"
"""The header of a move's answer that says when the move committed: seconds since the epoch
with microseconds (:meth:`~ginrummy.web.storage.MatchStore.update`), for measuring how long
it takes to reach the other seat's stream (bench/bench_load.py). Only a time, and only on
the answer that made the move (a repeat of its action id has none)."""


def _sent(answer: str, status: int = 200, committed: float | None = None) -> Response:
    headers = None if committed is None else {COMMITTED_AT: f"{committed:.6f}"}
    return Response(answer, status_code=status, media_type="application/json", headers=headers)


def _stored(store: MatchStore, loaded: LoadedMatch, action_id: str | None) -> Response:
    """A move's answer: written from the requester's seat, stored with the move, sent."""
    answer = _write(loaded)
    return _sent(answer, committed=game.commit(store, loaded, answer, action_id))


# The two routes of a move come first (the router tries its routes in order, and nearly
# every request is a move), and parse their own body and read the store and the seat from
# the request: FastAPI's body parsing and dependencies cost a solve on every move, and its
# thread for a plain function is the one hop these make themselves (anyio.to_thread).
@api.post("/matches/{match_id}/actions", response_model=MatchOut, openapi_extra=own_body(ActionIn))
async def act(match_id: str, request: Request) -> Response:
    """Make one move with your seat; the bot seats answer in the same response."""
    body = parsed(ActionIn, await request.body())
    store, holder = _store_of(request), seat_of(request.scope)
    move = parse_move(body)

    def work() -> Response:
        loaded = game.act(store, match_id, body.version, holder, move, action_id=body.action_id)
        return _stored(store, loaded, body.action_id)

    return await anyio.to_thread.run_sync(work)


@api.post(
    "/matches/{match_id}/next-hand", response_model=MatchOut, openapi_extra=own_body(VersionIn)
)
async def next_hand(match_id: str, request: Request) -> Response:
    """Deal the next hand from the commitment shown and your seed (two bots play it out)."""
    body = parsed(VersionIn, await request.body())
    store, decks, holder = _store_of(request), _decks_of(request), seat_of(request.scope)

    def work() -> Response:
        loaded = game.deal_next(
            store,
            match_id,
            body.version,
            holder,
            decks,
            client_seed=body.client_seed,
            action_id=body.action_id,
        )
        return _stored(store, loaded, body.action_id)

    return await anyio.to_thread.run_sync(work)


@api.get("/settings", response_model=SettingsFormOut)
def settings_form() -> SettingsFormOut:
    """Every setting and house rule the new-match form offers, and the bot levels."""
    return SETTINGS_FORM


@api.get("/matches", response_model=list[MatchSummaryOut])
def history(store: Store, holder: Holder) -> list[MatchSummaryOut]:
    """The matches you started, the most recently played first."""
    return [summary_out(s) for s in game.summaries(store, holder)]


@api.post("/commitments", response_model=CommitmentOut, status_code=201)
def new_commitment(store: Store, holder: Holder) -> CommitmentOut:
    """Commit to the server seed of your next new match: its SHA-256, before you send yours."""
    server_seed = secrets.token_hex(SEED_BYTES)
    shown = commitment(server_seed)
    store.add_seed(shown, server_seed, holder)
    return CommitmentOut(commitment=shown)


@api.post("/matches", response_model=MatchOut, status_code=201)
def new_match(body: NewMatchIn, store: Store, decks: Decks, holder: Holder) -> Response:
    """Start a match with these settings and seats."""
    settings = Settings.from_dict(body.settings.model_dump())
    kinds = [s.kind for s in body.seats]
    if kinds.count("person") > 1 or kinds.count("friend") > kinds.count("person"):
        raise ClientError(
            "a match has at most one person, its starter, and a friend's seat beside theirs",
            "bad_seats",
        )
    seats = [
        game.new_seat(s.kind, s.bot, i, display_name(s.name)) for i, s in enumerate(body.seats)
    ]
    clock = None
    if body.clock is not None:
        clock = game.check_clock(body.clock.seconds, body.clock.expiry, seats, test=decks.is_test)
    test_decks: list[list[Card]] = []
    if body.test_decks is not None or body.first_dealer is not None:
        if not decks.is_test:
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
    loaded = game.create(
        store,
        settings,
        seats,
        decks,
        owner=holder,
        test_decks=test_decks,
        first_dealer=body.first_dealer,
        client_seed=body.client_seed,
        committed=body.commitment,
        clock=clock,
    )
    answer = _write(loaded)
    game.commit_new(store, loaded, answer, body.commitment)
    return _sent(answer, 201)


@api.get("/matches/{match_id}", response_model=MatchOut)
def get_match(match_id: str, store: Store, holder: Holder) -> MatchOut:
    """The match as your seat sees it now (a match in play only to its players)."""
    return match_out(game.load(store, match_id, holder))


@api.delete("/matches/{match_id}", status_code=204, response_class=Response)
def delete_match(match_id: str, store: Store, holder: Holder) -> Response:
    """Delete an unfinished match you hold a seat in (a finished one stays: 409)."""
    game.delete(store, match_id, holder)
    return Response(status_code=204)


@api.get("/matches/{match_id}/record")
def record(match_id: str, store: Store, holder: Holder) -> JSONResponse:
    """The match's record (docs/RECORDS.md) up to its last finished hand, to download,
    with who sat where (``players``: a person, or a bot and its level).

    A hand still in play is never in it: its deck is the stock's order.
    """
    loaded = game.load(store, match_id, holder)
    match = loaded.match
    if not match.hand.is_over and len(match.hands) == 1:
        raise ClientError("no hand of this match is over yet", "nothing_finished", 409)
    players = [
        {"kind": "bot", "bot": s.bot} if s.is_bot else {"kind": "person"} for s in loaded.seats
    ]
    data = match_to_dict(match, finished_only=True, players=players)
    if loaded.clock is not None:
        # Which of the actions written the clock made (a timed match's late seats).
        data["clock"] = {
            **loaded.clock.to_record(),
            "auto": [list(a) for a in loaded.clock.auto if a[0] <= len(data["hands"])],
        }
    return JSONResponse(
        data,
        headers={"Content-Disposition": f'attachment; filename="ginrummy-{match_id}.json"'},
    )


@api.get("/matches/{match_id}/proofs", response_model=ProofsOut)
def proofs(match_id: str, store: Store) -> ProofsOut:
    """How each hand was dealt, for anyone: seeds and decks of the hands that are over."""
    return proofs_out(game.load(store, match_id))


@api.get("/matches/{match_id}/hands/{hand}/review", response_model=ReviewStatusOut)
def review(
    match_id: str, hand: int, store: Store, holder: Holder, reviews: Reviews
) -> ReviewStatusOut:
    """The coach's review of a finished hand for your seat: started by the first request,
    then ``running`` (with how many actions are done) until it is ``done`` and stored.

    Refused for a hand in play (``hand_in_play``) and for a match you hold no seat in.
    """
    return ReviewStatusOut.model_validate(reviews.status(game.load(store, match_id, holder), hand))


@api.post("/matches/{match_id}/hint", response_model=HintOut)
def hint(match_id: str, store: Store, holder: Holder) -> HintOut:
    """What Hard would do now from your view, and why (when the match has hints on)."""
    return HintOut.model_validate(ask_hint(store, game.load(store, match_id, holder)))


@api.get("/statistics", response_model=StatisticsOut)
def stats(store: Store, holder: Holder) -> StatisticsOut:
    """Your matches' statistics on this device: results, rates, reviews and hints."""
    return StatisticsOut.model_validate(statistics(store, holder))


@api.get("/statistics.csv")
def stats_csv(store: Store, holder: Holder) -> Response:
    """Your matches as CSV, one line each, to download."""
    return Response(
        statistics_csv(statistics(store, holder)),
        media_type="text/csv",
        headers={"Content-Disposition": 'attachment; filename="ginrummy-statistics.csv"'},
    )


@api.get("/health", responses={})
def health() -> dict[str, str]:
    """Whether the server is up."""
    return {"status": "ok"}


@cache
def _page_html(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _page(request: Request) -> HTMLResponse:
    # One page for every language: <html lang> names the reader's, whose catalogue
    # the script loads (i18n/<lang>.json).
    lang = i18n.choose(request)
    html = _page_html(request.app.state.page).replace(
        '<html lang="en">', f'<html lang="{lang}">', 1
    )
    return HTMLResponse(html, headers={"vary": "Cookie, Accept-Language"})


@pages.get("/lang/{lang}")
def choose_language(lang: str, back: Annotated[str, Query(alias="next")] = "/") -> Response:
    """Remember the language chosen with the page's control, and go back to the page.

    ``next`` is a path on this site (anything else goes to ``/``).
    """
    chosen = next((known for known in i18n.LANGUAGES if known == lang), None)
    if chosen is None:
        raise ClientError(f"there is no language {lang!r}", "not_found", status=404)
    if not back.startswith("/") or back.startswith(("//", "/\\")):
        back = "/"
    response = RedirectResponse(back, 303)
    i18n.remember(response, chosen)
    return response


for _path in (
    "/",
    "/history",
    "/statistics",
    "/match/{match_id}",
    "/review/{match_id}/{hand}",
    "/join/{code}",
    "/resume/{rest:path}",
):
    pages.add_api_route(_path, _page, methods=["GET"])
