"""The referee: loads a stored match, applies a seat's move, lets the bot seats answer, saves.

A move is made in two phases, and the route renders the answer between them:

1. :func:`act` (or :func:`deal_next`, :func:`create`) reads the match, checks
   who asks, the action id and the version, applies the move through the
   engine (which alone decides what is legal: its refusal comes back as
   :class:`Refused` with the engine's code) and lets every bot seat move while
   it is to act; nothing is stored yet.
2. :func:`commit` (or :func:`commit_new`) stores the new record with the
   answer written from it, in one compare-and-set transaction on the version
   read in phase 1.

A match has two seats (:class:`~ginrummy.web.model.Seat`): a person, held by
a seat token (:mod:`ginrummy.web.security`), or a bot. A bot seat moves
whenever it is to act, whichever seat it is, so a match between two bots
plays each hand out within the request that deals it; only its owner (who
started it) may watch it before it is over and deal its hands.

Deck orders are dealt fairly (:mod:`ginrummy.fairness`): each hand's deck is
``fair_deck(server_seed, client_seed, hand_number)``, where the server seed
comes from :mod:`secrets` and its SHA-256 was shown before the client sent its
seed. The first dealer is drawn from the first hand's two seeds
(:func:`~ginrummy.fairness.fair_first_dealer`), so it is under the commitment
too. A match started without a commitment asked for first has its first deal
marked uncommitted. How each hand was dealt and the next hand's seed are kept in the
match's :class:`~ginrummy.web.model.MatchData`, server-side only. In test mode
(``GINRUMMY_TEST_DECKS`` names a seed) a new match may bring its own deck
orders and first dealer, and server seeds are derived from the test seed.

A friend match may have a move clock (:class:`~ginrummy.web.model.Clock`): each
version stores when the seat to act runs out of time. In a timed match a late turn is
played here like a player's move (:func:`run_clocks`, and any read of the late match),
stored with the same compare-and-set, so of several processes exactly one moves.

Replaying a record costs milliseconds, so each process keeps the matches it
saved last, keyed by id, version and time of saving. A move uses the kept
match only if the row just read from the database is that very version; it
is saved, as ever, only if the database still holds that version. Any other
case (another process moved the match, a restart) replays the record: the
database stays the only authority. The live streams keep their own copies apart
(:class:`_Shown`): one replay of each version a process's streams show, shared by
them all and never moved.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from ginrummy.cards import Card, format_cards, parse_cards
from ginrummy.errors import EngineError
from ginrummy.fairness import SEED_BYTES, commitment, fair_deck, fair_first_dealer
from ginrummy.hand import Action
from ginrummy.match import Match, cut_for_deal
from ginrummy.records import RecordError, match_to_dict, replay_match
from ginrummy.settings import Settings
from ginrummy.web.model import (
    BOT_LEVELS,
    CLOCK_CHOICES,
    Clock,
    Deal,
    Invite,
    LoadedMatch,
    MatchData,
    MatchSummary,
    Seat,
    SeatKind,
    clock_move,
)
from ginrummy.web.storage import (
    OPEN_SEAT,
    MatchStore,
    StoredInvite,
    StoredMatch,
    StoredSeat,
    now,
)

__all__ = [
    "AlreadyAppliedError",
    "BadClockError",
    "BadCommitmentError",
    "DeckSource",
    "GameError",
    "MatchNotFoundError",
    "MatchOverError",
    "NotLateError",
    "NotYourSeatError",
    "Refused",
    "StaleVersionError",
    "act",
    "check_clock",
    "clock_deadline",
    "commit",
    "commit_new",
    "create",
    "deal_next",
    "delete",
    "load",
    "remind",
    "run_clocks",
    "summaries",
]

Params = Mapping[str, int | str]


class GameError(ValueError):
    """A request the match's state refuses: a stable ``code``, its ``params`` and a message
    in English for developers and logs."""

    status = 422
    code = "bad_request"

    def __init__(self, message: str, **params: int | str) -> None:
        super().__init__(message)
        self.params: Params = params


class Refused(GameError):
    """The engine refused the move; ``code`` and ``params`` are the engine's."""

    status = 409

    def __init__(self, error: EngineError) -> None:
        super().__init__(str(error), **error.params)
        self.code = error.code


class UnreadableMatchError(GameError):
    """A stored match whose record does not replay (only a hand-edited database has one)."""

    status = 503
    code = "unavailable"


class MatchNotFoundError(GameError):
    """No match has this id."""

    status = 404
    code = "unknown_match"


class StaleVersionError(GameError):
    """The action was made on a state that has moved on (another tab, a repeat)."""

    status = 409
    code = "stale_version"


class NotYourSeatError(GameError):
    """The request holds no seat that may do this in this match."""

    status = 403
    code = "not_your_seat"


class MatchOverError(GameError):
    """A finished match stays in the history: only a match in play may be deleted."""

    status = 409
    code = "match_over"


class BadCommitmentError(GameError):
    """A new match named a commitment this seat does not hold (unknown, used, expired)."""

    status = 409
    code = "bad_commitment"


class BadClockError(GameError):
    """A move clock the server does not offer, or one asked for a match without a friend."""

    code = "bad_clock"


class NotLateError(GameError):
    """A reminder while the other player's time is not up (or no clock runs)."""

    status = 409
    code = "not_late"


class AlreadyAppliedError(Exception):
    """This action id was applied before: ``reply`` is the answer it got then."""

    def __init__(self, reply: str) -> None:
        super().__init__("already applied")
        self.reply = reply


@dataclass(frozen=True, slots=True)
class DeckSource:
    """Where server seeds come from: the system's secure source, or a test seed."""

    test_seed: str | None = None

    @property
    def is_test(self) -> bool:
        """Whether deck orders may be fixed (never on by default)."""
        return self.test_seed is not None

    def server_seed(self, data: MatchData, hand_number: int) -> str:
        """A secret server seed for hand ``hand_number`` (64 hex digits)."""
        if self.test_seed is not None:
            text = f"{self.test_seed}/{data.seed}/{hand_number}"
            return hashlib.sha256(text.encode()).hexdigest()
        return secrets.token_hex(SEED_BYTES)

    def deal(
        self, data: MatchData, hand_number: int, client_seed: str | None
    ) -> tuple[tuple[Card, ...], MatchData]:
        """The deck for hand ``hand_number`` (1-based), and the data noting how it was made.

        The server seed is the one committed to (``data.next_seed``), if any:
        without one (a first deal no commitment was asked for) a seed is drawn
        now and the deal is marked uncommitted. The next hand's seed is drawn at
        once, to be shown after this hand. With no client seed the server makes
        one up (and says so). The first deal also draws the first dealer from
        the two seeds (unless a test names it). A deck planned in test mode is
        dealt as it is, marked ``fixed``.
        """
        committed = data.next_seed is not None
        server_seed = data.next_seed or self.server_seed(data, hand_number)
        after = replace(data, next_seed=self.server_seed(data, hand_number + 1))
        if hand_number <= len(data.test_decks):
            deck = tuple(parse_cards(data.test_decks[hand_number - 1]))
            return deck, replace(after, deals=(*data.deals, Deal(fixed=True)))
        by: Any = "you"
        if client_seed is None:
            client_seed, by = secrets.token_hex(16), "server"
        first_dealer = None
        if hand_number == 1 and data.first_dealer is None:
            first_dealer = fair_first_dealer(server_seed, client_seed)
        deal = Deal(
            commitment=commitment(server_seed),
            server_seed=server_seed,
            client_seed=client_seed,
            client_seed_by=by,
            committed=committed,
            first_dealer=first_dealer,
        )
        deck = fair_deck(server_seed, client_seed, hand_number)
        return deck, replace(after, deals=(*data.deals, deal))

    def first_dealer(self, data: MatchData) -> int:
        """Who deals the first hand (once :meth:`deal` dealt it).

        The one a test named, else the one the first deal's seeds chose, else
        (a deck planned by a test) a cut from the test seed.
        """
        if data.first_dealer is not None:
            return data.first_dealer
        if data.deals and data.deals[0].first_dealer is not None:
            return data.deals[0].first_dealer
        # Only test mode plans decks, so only a test seed cuts.
        return cut_for_deal(random.Random(f"{self.test_seed}/{data.seed}/cut"))


KEPT_MATCHES = 1000
"""How many saved matches each process keeps rebuilt (the least recently saved go).

A match takes about 5 KiB of memory a hand played (some 40 KiB for a match to 100).
"""


class _Kept:
    """The matches this process saved, as saved: match id -> (version, saved at, match).

    A match is taken out while a request works on it, so two requests never
    share one; it comes back only once saved.
    """

    def __init__(self) -> None:
        self._items: OrderedDict[str, tuple[int, str, Match]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, row: StoredMatch) -> Match | None:
        """The match kept for exactly this row's version and save, if any."""
        with self._lock:
            item = self._items.pop(row.id, None)
        if item is None or item[:2] != (row.version, row.updated_at):
            return None
        return item[2]

    def put(self, loaded: LoadedMatch) -> None:
        """Keep a match just saved at ``loaded.version``."""
        with self._lock:
            self._items[loaded.id] = (loaded.version, loaded.updated_at, loaded.match)
            self._items.move_to_end(loaded.id)
            while len(self._items) > KEPT_MATCHES:
                self._items.popitem(last=False)

    def drop(self, match_id: str) -> None:
        """Forget a match (it was deleted)."""
        with self._lock:
            self._items.pop(match_id, None)


_C = TypeVar("_C")
_PER_STORE_LOCK = threading.Lock()


def _per_store(
    caches: weakref.WeakKeyDictionary[MatchStore, _C], store: MatchStore, make: Callable[[], _C]
) -> _C:
    """The process's cache of one kind for ``store``, made at first use (and dropped with
    the store)."""
    with _PER_STORE_LOCK:
        cache = caches.get(store)
        if cache is None:
            cache = caches[store] = make()
        return cache


_KEPT: weakref.WeakKeyDictionary[MatchStore, _Kept] = weakref.WeakKeyDictionary()


def _kept(store: MatchStore) -> _Kept:
    return _per_store(_KEPT, store, _Kept)


SHOWN_MATCHES = 500
"""How many versions of matches each process keeps replayed for its live streams."""


class _Shown:
    """The matches this process's live streams show: (id, version, saved at) -> the match,
    replayed once and shared by every stream of that match in the process (both seats'
    and each seat's several tabs). Nobody moves these: a move takes its own
    (:class:`_Kept`, else a replay of its own)."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[str, int, str], Match] = OrderedDict()
        self._lock = threading.Lock()
        self._replaying: dict[tuple[str, int, str], threading.Lock] = {}
        """One lock for each version being replayed: other matches' streams do not wait."""

    def _get(self, key: tuple[str, int, str]) -> Match | None:
        with self._lock:
            match = self._items.get(key)
            if match is not None:
                self._items.move_to_end(key)
            return match

    def match(self, row: StoredMatch) -> Match:
        """The match of this row's very version, replayed once for the whole process."""
        key = (row.id, row.version, row.updated_at)
        match = self._get(key)
        if match is not None:
            return match
        # Streams woken together by one move replay it once, not once each.
        with self._lock:
            replaying = self._replaying.setdefault(key, threading.Lock())
        with replaying:
            match = self._get(key)
            if match is None:
                match = _replay(row)
                with self._lock:
                    self._items[key] = match
                    while len(self._items) > SHOWN_MATCHES:
                        self._items.popitem(last=False)
                    # Whoever still waits on this lock finds the match kept.
                    self._replaying.pop(key, None)
        return match


_SHOWN: weakref.WeakKeyDictionary[MatchStore, _Shown] = weakref.WeakKeyDictionary()


def _shown(store: MatchStore) -> _Shown:
    return _per_store(_SHOWN, store, _Shown)


INVITE_LIFETIME = timedelta(hours=24)
"""How long an invite link stays open for the friend it was sent to."""

HEARTBEAT = 15.0
"""Seconds between a live stream's notes that its seat is still there (and its pings)."""

PRESENT_FOR = timedelta(seconds=40)
"""A seat counts as connected this long after its stream last said it was there."""

CLOCK_SWEEP = 1.0
"""Seconds between two looks, by each server process, for timed matches whose seat to act
ran out of time (a request or a stream touching such a match moves it at once)."""


# --- rows <-> values ---------------------------------------------------------------


def _seat(row: StoredSeat, fresh: str = "") -> Seat:
    return Seat(
        row.index,
        SeatKind(row.kind),
        row.bot,
        row.bot_seed,
        row.holder,
        row.name,
        open=row.kind == SeatKind.PERSON and row.holder == OPEN_SEAT,
        connected=bool(row.seen_at) and row.seen_at >= fresh,
        reminded_at=row.reminded_at,
    )


def _fresh() -> str:
    """The oldest time a seat's stream may have said it was there and still count."""
    return (datetime.now(UTC) - PRESENT_FOR).isoformat(timespec="milliseconds")


def _stored_seat(seat: Seat) -> StoredSeat:
    return StoredSeat(seat.index, seat.kind.value, seat.bot, seat.bot_seed, seat.holder, seat.name)


def _seats(row: StoredMatch) -> tuple[Seat, Seat]:
    fresh = _fresh()
    first, second = (_seat(s, fresh) for s in row.seats)
    return first, second


def _replay(row: StoredMatch) -> Match:
    """The match of a row, its record replayed (each action applied once)."""
    try:
        return replay_match(row.record).match
    except RecordError as e:  # pragma: no cover - only a hand-edited database gets here
        raise UnreadableMatchError(f"match {row.id!r} cannot be replayed: {e}") from None


_KEYS: weakref.WeakKeyDictionary[MatchStore, bytes] = weakref.WeakKeyDictionary()


def resume_token(store: MatchStore, match_id: str, seat: int, holder: str) -> str:
    """The secret of a seat's resume link: it names the seat's present holder, so it
    stops working once the seat moves (the new holder is shown a new one)."""
    with _PER_STORE_LOCK:
        key = _KEYS.get(store)
    if key is None:
        key = store.secret("resume_links")
        with _PER_STORE_LOCK:
            _KEYS[store] = key
    mac = hmac.new(key, f"{match_id}:{seat}:{holder}".encode(), hashlib.sha256)
    return mac.hexdigest()[:32]


def _friendly(store: MatchStore | None, loaded: LoadedMatch, holder: str) -> None:
    """Add what only the requester may see of a match between people: the open invite
    they made, and their own seat's resume link."""
    if store is None or loaded.seat is None:
        return
    people = [s for s in loaded.seats if s.kind is SeatKind.PERSON]
    if len(people) < 2:
        return
    if loaded.owner == holder and any(s.open for s in people):
        invite = store.open_invite(loaded.id)
        if invite is not None:
            loaded.invite = Invite(invite.code, invite.seat, invite.expires_at)
    if not loaded.seats[loaded.seat].open:
        loaded.resume = resume_token(store, loaded.id, loaded.seat, holder)


def _loaded(
    row: StoredMatch, match: Match, holder: str | None, store: MatchStore | None = None
) -> LoadedMatch:
    seats = _seats(row)
    loaded = LoadedMatch(
        row.id,
        row.version,
        match,
        MatchData.from_json(row.meta),
        seats,
        row.owner,
        row.created_at,
        row.updated_at,
        clock=Clock.from_record(row.record),
        deadline=row.deadline,
        turn_of=match.to_act,
    )
    if holder is not None:
        loaded.seat = _held_seat(loaded, holder)
        _friendly(store, loaded, holder)
    return loaded


def _held_seat(loaded: LoadedMatch, holder: str) -> int | None:
    """The seat ``holder`` plays in this match: the one to act if they hold both."""
    held = [s.index for s in loaded.seats if s.is_held_by(holder)]
    if not held:
        return None
    to_act = loaded.match.to_act
    return to_act if to_act in held else held[0]


def _may_watch(loaded: LoadedMatch, holder: str) -> bool:
    return loaded.seat is not None or loaded.owner in ("", holder)


# --- the bots ------------------------------------------------------------------------


def _play_bots(loaded: LoadedMatch) -> None:
    """Let the bot seats move while one of them is to act in a hand in play."""
    from ginrummy.bots import make_bot

    match = loaded.match
    while not match.is_over and not match.hand.is_over:
        seat = loaded.seats[match.to_act or 0]
        if not seat.is_bot or seat.bot is None:
            return
        bot = make_bot(seat.bot, seed=seat.bot_seed or 0)
        before = len(match.hand.events)
        match.apply(bot.choose(match.view(seat.index)), seat.index)
        loaded.events.extend((len(match.hands), e) for e in match.hand.events[before:])


# --- phase 1: read and move ----------------------------------------------------------


def create(
    store: MatchStore,
    settings: Settings,
    seats: Sequence[Seat],
    decks: DeckSource,
    *,
    owner: str,
    test_decks: Sequence[Sequence[Card]] = (),
    first_dealer: int | None = None,
    client_seed: str | None = None,
    committed: str | None = None,
    clock: Clock | None = None,
) -> LoadedMatch:
    """A new match: cut, deal, let the bots move while they are to act (not stored yet).

    ``seats`` are the two seats; a person seat is given to ``owner``. A ``clock`` (a
    match with a friend's seat only) starts when the friend takes the seat.
    ``committed`` is a commitment ``owner`` asked for before (see
    :meth:`MatchStore.add_seed`); its server seed deals the first hand with
    ``client_seed``, and it is used up by :func:`commit_new`.
    """
    next_seed = None
    if committed is not None:
        next_seed = store.seed(committed, owner)
        if next_seed is None:
            raise BadCommitmentError(
                "that commitment is unknown, used or expired: ask for a new one"
            )
    data = MatchData(
        seed=secrets.token_hex(8),
        next_seed=next_seed,
        test_decks=tuple(format_cards(d) for d in test_decks),
        first_dealer=first_dealer,
    )
    placed = tuple(
        replace(s, holder=owner) if s.kind is SeatKind.PERSON and not s.open else s for s in seats
    )
    deck, data = decks.deal(data, 1, client_seed)
    match = Match.start(deck, first_dealer=decks.first_dealer(data), settings=settings)
    stamp = now()
    loaded = LoadedMatch(
        secrets.token_urlsafe(9),
        1,
        match,
        data,
        (placed[0], placed[1]),
        owner,
        stamp,
        stamp,
        clock=clock,
    )
    loaded.seat = _held_seat(loaded, owner)
    open_seat = next((s.index for s in placed if s.open), None)
    if open_seat is not None:
        loaded.invite = new_invite(open_seat)
        if loaded.seat is not None:
            loaded.resume = resume_token(store, loaded.id, loaded.seat, owner)
    loaded.events.extend((1, e) for e in match.hand.events)
    _play_bots(loaded)
    return loaded


def check_clock(seconds: int, expiry: str, seats: Sequence[Seat], *, test: bool) -> Clock:
    """The move clock a new match asks for, checked: one of :data:`CLOCK_CHOICES` seconds
    (in test mode, any whole number from 1 to 600), ``ask`` or ``timed``, in a match with
    a friend's seat (422 ``bad_clock`` otherwise)."""
    choices = ", ".join(str(c) for c in CLOCK_CHOICES)
    if expiry not in ("ask", "timed"):
        raise BadClockError(
            f"on expiry a clock asks or moves: 'ask' or 'timed', not {expiry[:20]!r}",
            expiry=expiry[:20],
            choices=choices,
        )
    if seconds not in CLOCK_CHOICES and not (test and 1 <= seconds <= 600):
        raise BadClockError(
            f"a move clock gives {choices} seconds a turn, not {seconds}",
            seconds=seconds,
            choices=choices,
        )
    if not any(s.open for s in seats):
        raise BadClockError(
            "a move clock is for a match against a friend", seconds=seconds, choices=choices
        )
    return Clock(seconds, "timed" if expiry == "timed" else "ask")


def clock_deadline(clock: Clock) -> str:
    """When a turn starting now runs out of time on ``clock``."""
    return (datetime.now(UTC) + timedelta(seconds=clock.seconds)).isoformat(timespec="milliseconds")


def _deadline(loaded: LoadedMatch) -> str:
    """When the seat to act in ``loaded`` runs out of time (empty: no clock runs).

    A clock runs only while a hand is in play and both seats are taken. A turn keeps
    its deadline across its own draw: the clock gives so many seconds a turn, not a
    request.
    """
    clock, match = loaded.clock, loaded.match
    if clock is None or match.is_over or match.hand.is_over:
        return ""
    seat = match.to_act
    if seat is None or loaded.seats[seat].is_bot or any(s.open for s in loaded.seats):
        return ""
    if seat == loaded.turn_of and loaded.deadline:
        return loaded.deadline
    return clock_deadline(clock)


def _record(loaded: LoadedMatch) -> dict[str, Any]:
    """The record to store: the match's, with its clock."""
    record = match_to_dict(loaded.match)
    if loaded.clock is not None:
        record["clock"] = loaded.clock.to_record()
    return record


def new_invite(seat: int) -> Invite:
    """A fresh invite to ``seat``: a random code, open for :data:`INVITE_LIFETIME`."""
    expires = datetime.now(UTC) + INVITE_LIFETIME
    return Invite(secrets.token_urlsafe(12), seat, expires.isoformat(timespec="milliseconds"))


def new_seat(kind: str, bot: str | None, index: int, name: str | None = None) -> Seat:
    """A seat as a new match asks for it: a bot gets a fresh seed, a friend's seat waits
    open for its invite to be taken, a person seat goes to whoever starts the match."""
    if kind == "friend":
        return Seat(index, SeatKind.PERSON, holder=OPEN_SEAT, open=True)
    if kind == SeatKind.BOT:
        level = bot or "medium"
        if level not in BOT_LEVELS:
            raise GameError(f"no bot is called {level!r}", bot=level)
        return Seat(index, SeatKind.BOT, level, secrets.randbits(31))
    return Seat(index, SeatKind.PERSON, name=name)


def load(store: MatchStore, match_id: str, holder: str | None = None) -> LoadedMatch:
    """A stored match, for ``holder`` (``None``: for anyone, e.g. the deal proofs).

    A match still being played is shown only to whoever holds a seat in it or
    started it.
    """
    row = _on_time(store, store.get(match_id))
    if row is None:
        raise MatchNotFoundError(f"there is no match {match_id!r}", match=match_id)
    loaded = _loaded(row, _replay(row), holder, store)
    if holder is not None and row.status != "over" and not _may_watch(loaded, holder):
        raise NotYourSeatError("this match is another player's: only they can see it")
    return loaded


def _load_to_change(
    store: MatchStore, match_id: str, version: int, holder: str, action_id: str | None
) -> LoadedMatch:
    """The match ``holder`` changes at ``version``, read with any answer to ``action_id``.

    Checked in this order: the match exists, the requester may change it, the
    action is not a repeat (:class:`AlreadyAppliedError`), the version is the latest.
    """
    row, reply = store.get_with_reply(match_id, action_id)
    if row is not None and _is_late(row):
        # The clock moved for the late seat first: a move made on the old version is stale.
        _run_clock(store, row)
        row, reply = store.get_with_reply(match_id, action_id)
    if row is None:
        raise MatchNotFoundError(f"there is no match {match_id!r}", match=match_id)
    if row.owner not in ("", holder) and not any(
        s.kind == SeatKind.PERSON and s.holder in ("", holder) for s in row.seats
    ):
        raise NotYourSeatError("this match is another player's: only they can play it")
    if reply is not None:
        raise AlreadyAppliedError(reply)
    if version != row.version:
        raise StaleVersionError(
            f"that move was made on version {version} of the match, but it is at version "
            f"{row.version} now (a repeated click or another tab): nothing was changed",
            version=version,
            current=row.version,
        )
    match = _kept(store).take(row) or _replay(row)
    loaded = _loaded(row, match, holder, store)
    loaded.version += 1
    loaded.updated_at = now()
    return loaded


def act(
    store: MatchStore,
    match_id: str,
    version: int,
    holder: str,
    action: Action | None,
    *,
    action_id: str | None = None,
) -> LoadedMatch:
    """Apply the move of the seat ``holder`` holds (``action`` ``None``: knock with the card
    that leaves least), then the bots' answers; the next version, not stored yet.
    """
    loaded = _load_to_change(store, match_id, version, holder, action_id)
    if loaded.seat is None:
        raise NotYourSeatError("you hold no seat in this match: only its players move")
    match = loaded.match
    before = len(match.hand.events)
    try:
        if action is None:
            action = match.default_knock(loaded.seat)
        match.apply(action, loaded.seat)
    except EngineError as e:
        raise Refused(e) from None
    loaded.events.extend((len(match.hands), e) for e in match.hand.events[before:])
    _play_bots(loaded)
    loaded.deadline = _deadline(loaded)
    return loaded


def deal_next(
    store: MatchStore,
    match_id: str,
    version: int,
    holder: str,
    decks: DeckSource,
    *,
    client_seed: str | None = None,
    action_id: str | None = None,
) -> LoadedMatch:
    """Deal the next hand (and let the bots move); the next version, not stored yet.

    The deck comes from the server seed committed to (and shown) when the
    last hand ended and the client's ``client_seed``.
    """
    loaded = _load_to_change(store, match_id, version, holder, action_id)
    match = loaded.match
    deck, data = decks.deal(loaded.data, len(match.hands) + 1, client_seed)
    try:
        match.next_hand(deck)
    except EngineError as e:
        raise Refused(e) from None
    loaded.data = data
    loaded.seat = _held_seat(loaded, holder)
    loaded.events.extend((len(match.hands), e) for e in match.hand.events)
    _play_bots(loaded)
    loaded.deadline = _deadline(loaded)
    return loaded


# --- phase 2: store ------------------------------------------------------------------


def _moved(loaded: LoadedMatch) -> MatchData:
    """The data to store: noting how many events this change added to the hand on the table."""
    number = len(loaded.match.hands)
    return replace(loaded.data, moved=sum(1 for n, _ in loaded.events if n == number))


def commit_new(store: MatchStore, loaded: LoadedMatch, answer: str, committed: str | None) -> None:
    """Store a match made by :func:`create`, using up its commitment; keep it for the next move."""
    row = StoredMatch(
        loaded.id,
        loaded.version,
        loaded.status,
        loaded.owner,
        _record(loaded),
        _moved(loaded).to_json(),
        loaded.created_at,
        loaded.updated_at,
        tuple(replace(_stored_seat(s), score=loaded.match.scores[s.index]) for s in loaded.seats),
        clock="" if loaded.clock is None else loaded.clock.expiry,
        deadline=loaded.deadline,
    )
    invite = None
    if loaded.invite is not None:
        invite = StoredInvite(
            loaded.invite.code,
            loaded.id,
            loaded.invite.seat,
            loaded.owner,
            "open",
            loaded.created_at,
            loaded.invite.expires_at,
        )
    if not store.create(row, commitment=committed, invite=invite):
        raise BadCommitmentError("that commitment was used already: ask for a new one")
    _kept(store).put(loaded)


def commit(store: MatchStore, loaded: LoadedMatch, answer: str, action_id: str | None) -> float:
    """Store the version :func:`act` or :func:`deal_next` made, if the database still holds
    the one it was made on, with ``answer`` kept for repeats of ``action_id``; when it
    committed (:meth:`~ginrummy.web.storage.MatchStore.update`)."""
    reply = None if action_id is None else (action_id, answer)
    committed = _store_change(store, loaded, reply)
    if committed is None:
        # The same action sent twice at once: the other copy won, give its answer.
        if action_id is not None:
            first = store.reply(loaded.id, action_id)
            if first is not None:
                raise AlreadyAppliedError(first)
        raise StaleVersionError(
            "this match was changed elsewhere (another tab?) before your move was saved",
            version=loaded.version - 1,
        )
    return committed


def _store_change(
    store: MatchStore, loaded: LoadedMatch, reply: tuple[str, str] | None = None
) -> float | None:
    """Store ``loaded`` over the version it was made on (a compare-and-set) and keep it
    for this process's next move; when it committed, or ``None`` if another change came
    first. Every change to a stored match goes through here: a player's move, a deal,
    the clock's move."""
    committed = store.update(
        loaded.id,
        loaded.version - 1,
        _record(loaded),
        _moved(loaded).to_json(),
        status=loaded.status,
        scores=loaded.match.scores,
        reply=reply,
        stamp=loaded.updated_at,
        deadline=loaded.deadline,
    )
    if committed is not None:
        _kept(store).put(loaded)
    return committed


# --- the live stream -------------------------------------------------------------------


def watch(store: MatchStore, match_id: str, holder: str) -> LoadedMatch:
    """The match as the seat ``holder`` holds sees it, with what its last change did (for a
    live stream: only a player of the match may open one).

    The match is this process's shared replay of that version (:class:`_Shown`): read it,
    never move it.
    """
    row = _on_time(store, store.get(match_id))
    if row is None:
        raise MatchNotFoundError(f"there is no match {match_id!r}", match=match_id)
    return _watched(store, row, holder)


def _watched(store: MatchStore, row: StoredMatch, holder: str) -> LoadedMatch:
    loaded = _loaded(row, _shown(store).match(row), holder, store)
    if loaded.seat is None:
        raise NotYourSeatError("you hold no seat in this match: only its players follow it live")
    hand = loaded.match.hand
    moved = min(loaded.data.moved, len(hand.events))
    number = len(loaded.match.hands)
    loaded.events = [(number, e) for e in hand.events[len(hand.events) - moved :]]
    return loaded


def follow(store: MatchStore, loaded: LoadedMatch, holder: str) -> LoadedMatch:
    """The match a live stream shows, read again: only its seats when its version is the
    one shown (no replay), else the whole match (:func:`watch`), from the same read."""
    row = _on_time(store, store.get(loaded.id))
    if row is None:
        raise MatchNotFoundError(f"there is no match {loaded.id!r}", match=loaded.id)
    if row.version != loaded.version or row.updated_at != loaded.updated_at:
        return _watched(store, row, holder)
    seats = _seats(row)
    if loaded.seat is None or not seats[loaded.seat].is_held_by(holder):
        raise NotYourSeatError("this seat was moved to another device")
    return replace(loaded, seats=seats)


def here(
    store: MatchStore, loaded: LoadedMatch, holder: str, *, present: bool, announce: bool
) -> None:
    """Note that ``holder``'s live stream of the match is (still) open, or closed (a seat
    moved to another device since is left alone)."""
    assert loaded.seat is not None
    stamp = now() if present else ""
    store.touch_seat(loaded.id, loaded.seat, holder, stamp, announce=announce)


# --- the move clock --------------------------------------------------------------------


def _is_late(row: StoredMatch) -> bool:
    """Whether a timed match's seat to act ran out of time (the server moves for it)."""
    return (
        row.clock == "timed"
        and row.deadline != ""
        and row.deadline <= now()
        and row.status != "over"
    )


def _run_clock(store: MatchStore, row: StoredMatch) -> bool:
    """Make the clock's move (:func:`~ginrummy.web.model.clock_move`) for the late seat of
    the timed match ``row``, stored with a compare-and-set on the version read, so that of
    several requests or processes at once exactly one moves; whether this call did.

    The late seat's whole turn is played: after a draw from the stock, the card drawn is
    thrown. Each action the clock made is noted in the record's ``clock.auto``.
    """
    match = _kept(store).take(row) or _replay(row)
    loaded = _loaded(row, match, None)
    seat = match.to_act
    if loaded.clock is None or seat is None:
        return False
    number = len(match.hands)
    before = len(match.hand.events)
    auto = list(loaded.clock.auto)
    while not match.hand.is_over and match.to_act == seat:
        move = clock_move(match.view(seat))
        if move is None:  # pragma: no cover - every turn in play has a clock move
            break
        match.apply(move, seat)
        auto.append((number, len(match.hand.actions)))
    loaded.events.extend((number, e) for e in match.hand.events[before:])
    loaded.clock = replace(loaded.clock, auto=tuple(auto))
    loaded.version += 1
    loaded.updated_at = now()
    loaded.deadline = _deadline(loaded)
    return _store_change(store, loaded) is not None


def _on_time(store: MatchStore, row: StoredMatch | None) -> StoredMatch | None:
    """``row``, or, if the clock of a timed match ran out, the match read again once the
    server moved for the late seat (here or in another process)."""
    if row is None or not _is_late(row):
        return row
    _run_clock(store, row)
    return store.get(row.id)


REMIND_EVERY = timedelta(seconds=10)
"""A reminder repeated sooner than this after the last is not sent again."""


def remind(store: MatchStore, match_id: str, holder: str) -> None:
    """Remind the other player of a friend match that their time is up (their page says
    so); only once it is up, and at most once every :data:`REMIND_EVERY`."""
    loaded = load(store, match_id, holder)
    if loaded.seat is None:
        raise NotYourSeatError("you hold no seat in this match: only its players may remind")
    late = loaded.match.to_act
    if (
        loaded.clock is None
        or not loaded.deadline
        or late is None
        or late == loaded.seat
        or loaded.deadline > now()
    ):
        raise NotLateError("the other player's time is not up: there is nobody to remind")
    at = datetime.now(UTC)
    last = loaded.seats[late].reminded_at
    if last and datetime.fromisoformat(last) > at - REMIND_EVERY:
        return
    store.remind(match_id, late, at.isoformat(timespec="milliseconds"))


def run_clocks(store: MatchStore) -> int:
    """Move for every late seat of a timed match (each process does it every
    :data:`CLOCK_SWEEP` seconds); how many moves this call made."""
    moved = 0
    for match_id in store.expired(now()):
        row = store.get(match_id)
        if row is not None and _is_late(row) and _run_clock(store, row):
            moved += 1
    return moved


# --- the history -----------------------------------------------------------------------


def delete(store: MatchStore, match_id: str, holder: str) -> None:
    """Delete a match still in play, for whoever holds one of its person seats.

    Refused: no such match (404 ``unknown_match``), a match where ``holder`` holds no
    person seat (403 ``not_your_seat``), a finished match (409 ``match_over``: its record
    and deal proofs stay).
    """
    row = store.get(match_id)
    if row is None:
        raise MatchNotFoundError(f"there is no match {match_id!r}", match=match_id)
    if not any(s.kind == SeatKind.PERSON and s.holder == holder for s in row.seats):
        raise NotYourSeatError("you hold no seat in this match: only its players may delete it")
    if row.status == "over":
        raise MatchOverError("the match is over: a finished match stays in the history")
    if not store.delete(match_id, holder):
        # It finished, or was deleted, between the two reads.
        if store.get(match_id) is None:
            raise MatchNotFoundError(f"there is no match {match_id!r}", match=match_id)
        raise MatchOverError("the match is over: a finished match stays in the history")
    _kept(store).drop(match_id)


def summaries(store: MatchStore, holder: str) -> list[MatchSummary]:
    """The matches ``holder`` started or holds a seat in, the most recently played first."""
    return [
        MatchSummary(
            row.id,
            row.status,
            row.scores,
            # A hand counts as played once it is over: the one in progress does not.
            sum(1 for hand in row.record.get("hands", []) if "result" in hand),
            Settings.from_dict(row.record.get("settings", {})),
            _seats(row),
            row.created_at,
            row.updated_at,
            next(
                (s.index for s in row.seats if s.kind == "person" and s.holder in ("", holder)),
                None,
            ),
        )
        for row in store.recent(holder)
    ]
