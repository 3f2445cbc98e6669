"""Play a friend: invites to a match's open seat, and seats moved to another device.

A friend match is made like any other (:func:`ginrummy.web.game.create`) with
one ``friend`` seat: a person seat nobody holds yet
(:data:`~ginrummy.web.storage.OPEN_SEAT`), stored with an invite whose code is
the secret of the link its maker shares. Whoever opens the link first and asks
to join takes the seat (:func:`join`): their seat id becomes its holder, in
one compare-and-set, so of two takers at once exactly one wins and the other is
told the table is full. The invite's maker may cancel it while it is open;
an invite left open expires after
:data:`~ginrummy.web.game.INVITE_LIFETIME`.

Each player of a match between two people is shown a resume link
(:func:`~ginrummy.web.game.resume_token`): opening it on another device moves
the seat there (:func:`resume`), and the link, which names the holder, stops
working.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from ginrummy.web import game
from ginrummy.web.game import GameError, NotYourSeatError
from ginrummy.web.model import Clock, LoadedMatch
from ginrummy.web.storage import MatchStore, StoredInvite, now

__all__ = [
    "BadSeatLinkError",
    "ClockNotAcceptedError",
    "InviteCancelledError",
    "InviteExpiredError",
    "InviteNotFoundError",
    "Opened",
    "OwnInviteError",
    "TableFullError",
    "cancel",
    "join",
    "open_invite",
    "renew",
    "resume",
]


class InviteNotFoundError(GameError):
    """No invite has this code."""

    status = 404
    code = "unknown_invite"


class InviteExpiredError(GameError):
    """The invite was not taken in time."""

    status = 410
    code = "invite_expired"


class InviteCancelledError(GameError):
    """Its maker cancelled the invite."""

    status = 410
    code = "invite_cancelled"


class TableFullError(GameError):
    """Somebody else took the invite's seat: nothing of the match is shown."""

    status = 409
    code = "table_full"


class OwnInviteError(GameError):
    """The invite's maker opened their own link: they hold the other seat."""

    status = 409
    code = "own_invite"


class BadSeatLinkError(GameError):
    """A resume link that is forged, or was used already (the seat moved since)."""

    status = 403
    code = "bad_seat_link"


class ClockNotAcceptedError(GameError):
    """A timed match's seat is taken only by someone who agreed that the server moves for
    them when their time runs out."""

    status = 409
    code = "clock_not_accepted"


@dataclass(frozen=True, slots=True)
class Opened:
    """An invite as someone opening its link finds it."""

    invite: StoredInvite
    loaded: LoadedMatch
    """The match, as the requester may see it (no seat yet: nothing hidden is read)."""
    is_yours: bool
    """The requester took this invite's seat already."""


def _checked(store: MatchStore, code: str, holder: str) -> tuple[StoredInvite, bool]:
    """The invite with this code, refused unless it is open to the requester; and whether
    the requester holds its seat already."""
    invite = store.invite(code)
    if invite is None:
        raise InviteNotFoundError("there is no invite with this link", invite=code)
    if invite.state == "taken":
        row = store.get(invite.match_id)
        held = row is not None and row.seats[invite.seat].holder == holder
        if not held:
            raise TableFullError("somebody took this seat already: the table is full")
        return invite, True
    if invite.state == "cancelled":
        raise InviteCancelledError("the player who sent this invite cancelled it")
    if invite.owner == holder:
        raise OwnInviteError("this is your own invite: send the link to your friend")
    if invite.expires_at <= now():
        raise InviteExpiredError(
            "this invite has expired: ask for a new one", expires_at=invite.expires_at
        )
    return invite, False


def open_invite(store: MatchStore, code: str, holder: str) -> Opened:
    """What an invite link shows before its seat is taken: who sent it, the settings."""
    invite, is_yours = _checked(store, code, holder)
    # Read as nobody's (holder None): only the settings and the seats are shown from it.
    return Opened(invite, game.load(store, invite.match_id), is_yours)


def join(
    store: MatchStore, code: str, holder: str, name: str | None, *, accept_clock: bool = False
) -> LoadedMatch:
    """Take the invite's seat for ``holder`` (under ``name``); the match from that seat.

    A timed match (the server moves for a seat whose time runs out) is joined only with
    ``accept_clock`` (409 ``clock_not_accepted``); a match's move clock starts once the
    seat is taken. Asking again once the seat is yours gives the match, changing nothing.
    """
    invite, is_yours = _checked(store, code, holder)
    deadline = ""
    if not is_yours:
        row = store.get(invite.match_id)
        clock = None if row is None else Clock.from_record(row.record)
        if clock is not None and clock.is_timed and not accept_clock:
            raise ClockNotAcceptedError(
                f"this is a timed match: {clock.seconds} seconds a turn, then the server moves "
                "for you; agree to it to take the seat",
                seconds=clock.seconds,
            )
        if clock is not None:
            deadline = game.clock_deadline(clock)
    if not is_yours and not store.take_invite(invite, holder, name, now(), deadline):
        _checked(store, code, holder)  # says why: taken, cancelled or expired meanwhile
        raise TableFullError("somebody took this seat already: the table is full")
    return game.load(store, invite.match_id, holder)


def cancel(store: MatchStore, code: str, holder: str) -> None:
    """Cancel the invite ``holder`` made, while nobody took it."""
    invite = store.invite(code)
    if invite is None:
        raise InviteNotFoundError("there is no invite with this link", invite=code)
    if invite.owner != holder:
        raise NotYourSeatError("only the player who sent an invite may cancel it")
    if not store.cancel_invite(code, holder):
        if invite.state == "cancelled":
            raise InviteCancelledError("this invite was cancelled already")
        raise TableFullError("your friend took the seat already: the invite is used")


def renew(store: MatchStore, match_id: str, holder: str) -> LoadedMatch:
    """A new invite to the match's open seat, for its maker (the one before is cancelled):
    after the last one expired or was cancelled. The match from the maker's seat."""
    loaded = game.load(store, match_id, holder)
    if loaded.owner != holder or loaded.seat is None:
        raise NotYourSeatError("only the player who started this match may invite to it")
    seat = next((s.index for s in loaded.seats if s.open), None)
    if seat is None:
        raise TableFullError("your friend took the seat already: the table is full")
    old = store.open_invite(match_id)
    if old is not None:
        store.cancel_invite(old.code, holder)
    fresh = game.new_invite(seat)
    store.add_invite(
        StoredInvite(fresh.code, match_id, seat, holder, "open", now(), fresh.expires_at)
    )
    return game.load(store, match_id, holder)


def resume(store: MatchStore, match_id: str, seat: int, token: str, holder: str) -> LoadedMatch:
    """Move the seat a resume link names to ``holder``; the match from that seat."""
    row = store.get(match_id)
    if row is None or seat >= len(row.seats):
        raise BadSeatLinkError("this resume link is not valid")
    was = row.seats[seat].holder
    if was != holder:
        if row.seats[seat].kind != "person" or len(was) < 2:
            raise BadSeatLinkError("this resume link is not valid")
        expected = game.resume_token(store, match_id, seat, was)
        if not hmac.compare_digest(expected, token):
            raise BadSeatLinkError(
                "this resume link is not valid, or was used already: open the newest one"
            )
        if any(s.holder == holder for s in row.seats):
            raise BadSeatLinkError("this browser holds the other seat of this match")
        if not store.move_seat(match_id, seat, was, holder):
            raise BadSeatLinkError("this resume link was used already: open the newest one")
    return game.load(store, match_id, holder)
