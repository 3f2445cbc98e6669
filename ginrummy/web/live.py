"""Play a friend, live: the invite routes, the resume link and each seat's stream.

A seat's stream (``GET /api/matches/{id}/stream``) is Server-Sent Events
carrying only that seat's view: each ``match`` event is the whole match as
:func:`~ginrummy.web.present.match_out` writes it for the seat (the same
answer a ``GET`` gives), its id the match's version, so a browser that
reconnects with ``Last-Event-ID`` is sent the version it missed (the latest:
each event is the whole state, with what that version did to animate). A
``presence`` event says which seats have a stream open, which are still open
for a friend, and the names chosen.

How a move reaches the other seat: the move's request commits a new version
(:func:`ginrummy.web.game.commit`); on PostgreSQL the same transaction sends
``NOTIFY`` (:data:`ginrummy.web.storage.CHANNEL`) and the listener of every
server process hears it; on SQLite storage tells its own process after the
commit. Either way the streams watching the match wake up
(:mod:`ginrummy.web.changes`), read it from the database and send the new
version from their seat. The streams of a process share the work: a version is
replayed once for all of them (:func:`ginrummy.web.game.follow`), and each
seat's event is written once and sent as written to every stream showing that
very thing (:func:`_event_data`). A stream also wakes every
:data:`~ginrummy.web.game.HEARTBEAT` seconds to say its seat is still there
and to notice a seat whose stream went away without a word (a killed process).
"""

from __future__ import annotations

import contextlib
import io
import json
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import anyio
import anyio.to_thread
import segno
from fastapi import APIRouter, Request
from fastapi.responses import Response
from sse_starlette import EventSourceResponse, ServerSentEvent

from ginrummy.web import friends, game
from ginrummy.web.game import GameError
from ginrummy.web.model import LoadedMatch, Seat
from ginrummy.web.present import invite_info_out, match_out
from ginrummy.web.routes import ERRORS, ClientError, Holder, Store, display_name
from ginrummy.web.schemas import (
    CancelledOut,
    InviteInfoOut,
    JoinIn,
    MatchOut,
    ResumeIn,
)

__all__ = ["STREAM_LIFETIME", "live"]

STREAM_LIFETIME = 300.0
"""Seconds a stream stays open before the server ends it and the browser reconnects
(with ``Last-Event-ID``): no proxy sees a connection idle for ever, and a process
being stopped is left by its streams within this time at worst."""

RETRY_MS = 1000
"""How long a browser waits before reconnecting a stream that ended."""

live = APIRouter(prefix="/api", responses=ERRORS)
"""The friend routes: invites, resume links, live streams."""


@live.get("/invites/{code}", response_model=InviteInfoOut)
def invite_info(code: str, store: Store, holder: Holder) -> InviteInfoOut:
    """What an invite link offers: who sent it, the settings (no card of the match)."""
    opened = friends.open_invite(store, code, holder)
    return invite_info_out(
        opened.invite.code,
        opened.invite.seat,
        opened.invite.expires_at,
        opened.loaded,
        is_yours=opened.is_yours,
    )


@live.post("/invites/{code}/join", response_model=MatchOut)
def join(code: str, body: JoinIn, store: Store, holder: Holder) -> MatchOut:
    """Take the invite's seat (the first to ask gets it); the match from that seat."""
    name = display_name(body.name)
    return match_out(friends.join(store, code, holder, name, accept_clock=body.accept_clock))


@live.delete("/invites/{code}", response_model=CancelledOut)
def cancel(code: str, store: Store, holder: Holder) -> CancelledOut:
    """Cancel your invite while nobody took it."""
    friends.cancel(store, code, holder)
    return CancelledOut(state="cancelled")


@live.get("/invites/{code}/qr.svg", response_class=Response)
def invite_qr(code: str, request: Request, store: Store) -> Response:
    """The invite link as a QR code, an SVG image (for a phone across the table)."""
    invite = store.invite(code)
    if invite is None:
        raise friends.InviteNotFoundError("there is no invite with this link", invite=code)
    url = str(request.base_url).rstrip("/") + f"/join/{code}"
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=4, border=2, xmldecl=False, title="QR code of the invite link"
    )
    return Response(out.getvalue(), media_type="image/svg+xml")


@live.post("/matches/{match_id}/invite", response_model=MatchOut)
def renew_invite(match_id: str, store: Store, holder: Holder) -> MatchOut:
    """A new invite link to your match's open seat (the one before stops working)."""
    return match_out(friends.renew(store, match_id, holder))


@live.post("/matches/{match_id}/remind", status_code=204, response_class=Response)
def remind(match_id: str, store: Store, holder: Holder) -> Response:
    """Remind the other player that their time is up (a match with a move clock)."""
    game.remind(store, match_id, holder)
    return Response(status_code=204)


@live.post("/seats/resume", response_model=MatchOut)
def resume(body: ResumeIn, store: Store, holder: Holder) -> MatchOut:
    """Move your seat to this device with its resume link; the match from that seat."""
    return match_out(friends.resume(store, body.match, body.seat, body.token, holder))


def _presence(seats: tuple[Seat, Seat]) -> dict[str, Any]:
    return {
        "connected": [s.connected for s in seats],
        "open": [s.open for s in seats],
        "names": [s.name for s in seats],
        "reminded": [s.reminded_at for s in seats],
    }


WRITTEN_EVENTS = 1000
"""How many ``match`` events each process keeps written, to send again to another stream."""

_written: OrderedDict[tuple[Any, ...], str] = OrderedDict()
_written_lock = threading.Lock()


def _event_data(loaded: LoadedMatch) -> str:
    """A ``match`` event's data, written once per version and seat in this process and
    shared by every stream that sends that very thing.

    The key holds everything :func:`match_out` reads: the match's id, version and time
    of saving (its cards, data and what the version did), the seat, its resume token
    (which names the holder), the seats as read (names, presence) and the invite.
    """
    key = (
        loaded.id,
        loaded.version,
        loaded.updated_at,
        loaded.seat,
        loaded.resume,
        loaded.seats,
        loaded.invite,
    )
    with _written_lock:
        data = _written.get(key)
    if data is None:
        data = match_out(loaded).model_dump_json(by_alias=True)
        with _written_lock:
            _written[key] = data
            while len(_written) > WRITTEN_EVENTS:
                _written.popitem(last=False)
    return data


def _read(
    store: Store, loaded: LoadedMatch, holder: str, sent: int | None, *, beat: bool = False
) -> tuple[LoadedMatch, str | None]:
    """The match read again (:func:`game.follow`), with its event's data if its version
    was not sent yet (written here, off the event loop); with ``beat``, first the note that
    the seat is still there (:func:`game.here`), in the same trip to a thread."""
    if beat:
        game.here(store, loaded, holder, present=True, announce=False)
    loaded = game.follow(store, loaded, holder)
    return loaded, None if loaded.version == sent else _event_data(loaded)


def _match_event(loaded: LoadedMatch, data: str) -> ServerSentEvent:
    return ServerSentEvent(data=data, event="match", id=str(loaded.version), retry=RETRY_MS)


@live.get(
    "/matches/{match_id}/stream",
    response_class=Response,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def stream(match_id: str, request: Request, store: Store, holder: Holder) -> Response:
    """Your seat's live stream of the match (Server-Sent Events; see docs/WEB.md)."""
    last = request.headers.get("last-event-id", "")
    if len(last) > 12 or (last and not last.isdigit()):
        raise ClientError("Last-Event-ID is a version number", "bad_request")
    # Refused (no seat, no match) before the stream starts: a JSON error as ever.
    first = await anyio.to_thread.run_sync(game.watch, store, match_id, holder)
    store.listen()
    return EventSourceResponse(
        _events(store, first, holder, int(last) if last else None),
        ping=int(game.HEARTBEAT),
        headers={"X-Accel-Buffering": "no"},
    )


async def _events(
    store: Store, first: LoadedMatch, holder: str, last: int | None
) -> AsyncIterator[ServerSentEvent]:
    match_id = first.id
    ends = time.monotonic() + STREAM_LIFETIME
    with store.changes.watch(match_id) as waiter:
        await anyio.to_thread.run_sync(
            partial(game.here, store, first, holder, present=True, announce=True)
        )
        try:
            # Read again: the stream's own seat is there now, and a move may have come.
            sent_version = last
            loaded, data = await anyio.to_thread.run_sync(_read, store, first, holder, last)
            shown: dict[str, Any] | None = None
            beat = time.monotonic() + game.HEARTBEAT
            while True:
                if data is not None and loaded.version != sent_version:
                    yield _match_event(loaded, data)
                    sent_version = loaded.version
                seats = _presence(loaded.seats)
                if seats != shown:
                    yield ServerSentEvent(data=json.dumps(seats), event="presence")
                    shown = seats
                left = ends - time.monotonic()
                if left <= 0:
                    return
                await waiter.wait(min(left, max(0.0, beat - time.monotonic())))
                beating = time.monotonic() >= beat
                if beating:
                    beat = time.monotonic() + game.HEARTBEAT
                try:
                    loaded, data = await anyio.to_thread.run_sync(
                        partial(_read, store, loaded, holder, sent_version, beat=beating)
                    )
                except GameError:  # the seat moved to another device, or the match is gone
                    return
        finally:
            with anyio.CancelScope(shield=True):
                # If the database went away, the mark goes stale by itself.
                with contextlib.suppress(Exception):
                    await anyio.to_thread.run_sync(
                        partial(game.here, store, first, holder, present=False, announce=True)
                    )
