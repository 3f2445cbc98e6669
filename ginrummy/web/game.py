"""The referee: rebuilds a stored match, applies the player's move, lets the computer answer.

The player sits in seat :data:`YOU` and the computer in seat :data:`COMPUTER`.
Each request loads the match record, replays it through the engine, applies
the one action asked for (checked by the engine and against the version it
was made on), then plays the computer's moves until it is the player's turn
again or the hand is over, and stores the new record with the next version.

Deck orders are dealt fairly (:mod:`ginrummy.fairness`): each hand's deck is
``fair_deck(server_seed, client_seed, hand_number)``, where the server seed
comes from :mod:`secrets` and its SHA-256 was shown before the player's
browser sent the client seed. How each hand was dealt is kept in the match's
``meta["deals"]``, and the next hand's server seed in ``meta["next_seed"]``,
server-side only; the seed is revealed once its hand is over. In test mode
(``GINRUMMY_TEST_DECKS`` names a seed) a new match may bring its own deck
orders and first dealer, and server seeds are derived from the test seed.

Only the player who started a match (its seat, :mod:`ginrummy.web.security`)
may act in it or read a hand in progress. An action may carry an id: the
answer to it is stored in the same transaction as the move, so the same id
again gets that answer instead of a second move.

Replaying a record costs milliseconds, so each process keeps the matches it
saved last, keyed by id, version and time of saving. A move uses the kept
match only if the row just read from the database is that very version; it
is saved, as ever, only if the database still holds that version. Any other
case (another process moved the match, a restart) replays the record: the
database stays the only authority.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ginrummy.cards import Card, format_cards, parse_cards
from ginrummy.fairness import SEED_BYTES, commitment, fair_deck
from ginrummy.hand import Action, Event, IllegalActionError, Knock, Phase
from ginrummy.match import Match, cut_for_deal
from ginrummy.records import RecordError, match_from_dict, match_to_dict, replay_match
from ginrummy.settings import Settings, legacy_difficulty
from ginrummy.web.storage import MatchStore, StoredMatch, now

__all__ = [
    "COMPUTER",
    "YOU",
    "AlreadyAppliedError",
    "BadCommitmentError",
    "DeckSource",
    "GameError",
    "LoadedMatch",
    "MatchNotFoundError",
    "NotYourSeatError",
    "StaleVersionError",
    "apply_action",
    "bot_level",
    "create_match",
    "deal_next_hand",
    "default_knock_card",
    "load_match",
]

YOU = 0
"""The seat of the person at the browser."""
COMPUTER = 1
"""The seat the server plays."""


DEFAULT_BOT = "medium"
"""The computer's level when a match names none."""


def bot_level(meta: dict[str, Any], record: dict[str, Any]) -> str:
    """The computer seat's level: ``meta["bot"]``, or the difficulty older records
    kept in their settings (from before difficulty left the rules)."""
    level = meta.get("bot")
    if isinstance(level, str):
        return level
    return legacy_difficulty(record.get("settings", {})) or DEFAULT_BOT


class GameError(ValueError):
    """A request the rules or the match's state refuse; the message says why."""

    status = 409
    code = "illegal_action"


class MatchNotFoundError(GameError):
    """No match has this id."""

    status = 404
    code = "unknown_match"


class StaleVersionError(GameError):
    """The action was made on a state that has moved on (another tab, a repeat)."""

    status = 409
    code = "stale_version"


class NotYourSeatError(GameError):
    """The request does not hold the seat token of the player of this match."""

    status = 403
    code = "not_your_seat"


class BadCommitmentError(GameError):
    """A new match named a commitment this seat does not hold (unknown, used, expired)."""

    status = 409
    code = "bad_commitment"


class AlreadyAppliedError(Exception):
    """This action id was applied before: ``reply`` is the answer it got then."""

    def __init__(self, reply: str) -> None:
        super().__init__("already applied")
        self.reply = reply


Render = Callable[["LoadedMatch"], str]
"""How an answer is written (the route's JSON), to be stored with the move."""


@dataclass(frozen=True, slots=True)
class DeckSource:
    """Where server seeds come from: the system's secure source, or a test seed."""

    test_seed: str | None = None

    @property
    def is_test(self) -> bool:
        """Whether deck orders may be fixed (never on by default)."""
        return self.test_seed is not None

    def server_seed(self, meta: dict[str, Any], hand_number: int) -> str:
        """A secret server seed for hand ``hand_number`` (64 hex digits)."""
        if self.test_seed is not None:
            text = f"{self.test_seed}/{meta['seed']}/{hand_number}"
            return hashlib.sha256(text.encode()).hexdigest()
        return secrets.token_hex(SEED_BYTES)

    def deal(
        self, meta: dict[str, Any], hand_number: int, client_seed: str | None
    ) -> tuple[Card, ...]:
        """The deck for hand ``hand_number`` (1-based), noting in ``meta`` how it was made.

        The server seed is the one committed to (``meta["next_seed"]``); the
        next hand's seed is drawn at once, to be shown after this hand. With
        no client seed the server makes one up (and says so). A deck planned
        in test mode is dealt as it is, marked ``fixed``.
        """
        deals: list[dict[str, Any]] = meta.setdefault("deals", [])
        planned = meta.get("test_decks") or []
        server_seed = meta.pop("next_seed", None) or self.server_seed(meta, hand_number)
        meta["next_seed"] = self.server_seed(meta, hand_number + 1)
        if hand_number <= len(planned):
            deals.append({"fixed": True})
            return tuple(parse_cards(planned[hand_number - 1]))
        by = "you"
        if client_seed is None:
            client_seed, by = secrets.token_hex(16), "server"
        deals.append(
            {
                "commitment": commitment(server_seed),
                "server_seed": server_seed,
                "client_seed": client_seed,
                "client_seed_by": by,
            }
        )
        return fair_deck(server_seed, client_seed, hand_number)

    def first_dealer(self, meta: dict[str, Any]) -> int:
        """Who deals the first hand: the cut."""
        if "first_dealer" in meta:
            return int(meta["first_dealer"])
        if self.test_seed is not None:
            return cut_for_deal(random.Random(f"{self.test_seed}/{meta['seed']}/cut"))
        return cut_for_deal(random.SystemRandom())


@dataclass(slots=True)
class LoadedMatch:
    """A match rebuilt from its row, ready to act on."""

    id: str
    version: int
    match: Match
    meta: dict[str, Any]
    created_at: str
    updated_at: str
    seat: str = ""
    """The seat id of the player (empty for matches from before seats)."""
    events: list[tuple[int, Event]] = field(default_factory=list)
    """What this request did: (hand number, event), the player's own moves first."""
    answer: str | None = None
    """The answer written before saving (when a ``render`` was given): read it, not
    ``match``, once saved, for this process's next request may carry ``match`` on."""

    @property
    def status(self) -> str:
        """``over`` once somebody reached the target, else ``playing``."""
        return "over" if self.match.is_over else "playing"


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


_KEPT: weakref.WeakKeyDictionary[MatchStore, _Kept] = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def _kept(store: MatchStore) -> _Kept:
    with _KEPT_LOCK:
        kept = _KEPT.get(store)
        if kept is None:
            kept = _KEPT[store] = _Kept()
        return kept


def _rebuild(store: MatchStore, row: StoredMatch) -> Match:
    """The match of this row: kept from this process's last save of it, or replayed."""
    match = _kept(store).take(row)
    if match is not None:
        return match
    try:
        return match_from_dict(row.record)
    except RecordError as e:  # pragma: no cover - only a hand-edited database gets here
        raise GameError(f"match {row.id!r} cannot be replayed: {e}") from None


def _bot_move(match: Match, meta: dict[str, Any]) -> Action:
    from ginrummy.bots import make_bot

    bot = make_bot(meta["bot"], seed=int(meta["bot_seed"]))
    return bot.choose(match.view(COMPUTER))


def _play_computer(loaded: LoadedMatch) -> None:
    """Let the computer move until it is the player's turn or the hand is over."""
    match = loaded.match
    while not match.is_over and not match.hand.is_over and match.to_act == COMPUTER:
        before = len(match.hand.events)
        match.apply(_bot_move(match, loaded.meta), COMPUTER)
        loaded.events.extend((len(match.hands), e) for e in match.hand.events[before:])


def _repeat(store: MatchStore, match_id: str, action_id: str | None) -> None:
    """Answer again an action already applied (its id seen before)."""
    if action_id is not None:
        reply = store.reply(match_id, action_id)
        if reply is not None:
            raise AlreadyAppliedError(reply)


def _save(
    store: MatchStore,
    loaded: LoadedMatch,
    action_id: str | None = None,
    render: Render | None = None,
) -> None:
    """Save the next version if the database still holds this one; answer first.

    The answer (``render``) is written for the version being saved and stored
    with it under ``action_id``; once saved, the match is kept for the next move.
    """
    record = match_to_dict(loaded.match)
    loaded.version += 1
    loaded.updated_at = now()
    if render is not None:
        loaded.answer = render(loaded)
    reply = None if action_id is None or loaded.answer is None else (action_id, loaded.answer)
    ok = store.update(
        loaded.id,
        loaded.version - 1,
        record,
        loaded.meta,
        status=loaded.status,
        scores=loaded.match.scores,
        reply=reply,
        stamp=loaded.updated_at,
    )
    if not ok:
        # The same action sent twice at once: the other copy won, give its answer.
        _repeat(store, loaded.id, action_id)
        raise StaleVersionError(
            "this match was changed elsewhere (another tab?) before your move was saved"
        )
    if render is not None:
        _kept(store).put(loaded)


def create_match(
    store: MatchStore,
    settings: Settings,
    decks: DeckSource,
    *,
    test_decks: Sequence[Sequence[Card]] = (),
    first_dealer: int | None = None,
    seat: str = "",
    client_seed: str | None = None,
    committed: str | None = None,
    render: Render | None = None,
    bot: str = DEFAULT_BOT,
) -> LoadedMatch:
    """Start a match: cut, deal, let the computer open if it is first, store it.

    ``committed`` is a commitment ``seat`` asked for before (see
    :meth:`MatchStore.add_seed`); its server seed deals the first hand with
    ``client_seed``, and is used up with the match's creation. ``render``
    writes the answer (``answer``) before the match is stored.
    """
    meta: dict[str, Any] = {
        "seed": secrets.token_hex(8),
        "bot_seed": secrets.randbits(31),
        "bot": bot,
    }
    if committed is not None:
        server_seed = store.seed(committed, seat)
        if server_seed is None:
            raise BadCommitmentError(
                "that commitment is unknown, used or expired: ask for a new one"
            )
        meta["next_seed"] = server_seed
    if test_decks:
        meta["test_decks"] = [format_cards(d) for d in test_decks]
    if first_dealer is not None:
        meta["first_dealer"] = first_dealer
    match = Match.start(
        decks.deal(meta, 1, client_seed), first_dealer=decks.first_dealer(meta), settings=settings
    )
    match_id = secrets.token_urlsafe(9)
    loaded = LoadedMatch(match_id, 1, match, meta, "", "", seat)
    loaded.events.extend((1, e) for e in match.hand.events)
    _play_computer(loaded)
    row = StoredMatch.new(
        match_id, match_to_dict(match), meta, status=loaded.status, scores=match.scores, seat=seat
    )
    loaded.created_at = loaded.updated_at = row.created_at
    if render is not None:
        loaded.answer = render(loaded)
    if not store.create(row, commitment=committed):
        raise BadCommitmentError("that commitment was used already: ask for a new one")
    if render is not None:
        _kept(store).put(loaded)
    return loaded


def load_match(store: MatchStore, match_id: str, seat: str | None = None) -> LoadedMatch:
    """Rebuild a stored match by replaying its record.

    With ``seat``, a match still being played is refused to anyone but its player.
    """
    row = store.get(match_id)
    if row is None:
        raise MatchNotFoundError(f"there is no match {match_id!r}")
    if seat is not None and row.seat and seat != row.seat and row.status != "over":
        raise NotYourSeatError("this match is another player's: only they can see it or play")
    try:
        match = replay_match(row.record).match
    except RecordError as e:  # pragma: no cover - only a hand-edited database gets here
        raise GameError(f"match {match_id!r} cannot be replayed: {e}") from None
    row.meta["bot"] = bot_level(row.meta, row.record)
    return LoadedMatch(
        row.id, row.version, match, row.meta, row.created_at, row.updated_at, row.seat
    )


def _load_to_act(
    store: MatchStore, match_id: str, version: int, seat: str, action_id: str | None
) -> LoadedMatch:
    """The match ``seat`` acts on at ``version``, read with any answer to ``action_id``.

    Checked in this order: the match exists, it is the seat's, the action is
    not a repeat (:class:`AlreadyAppliedError`), the version is the latest.
    """
    row, reply = store.get_with_reply(match_id, action_id)
    if row is None:
        raise MatchNotFoundError(f"there is no match {match_id!r}")
    if row.seat and seat != row.seat:
        raise NotYourSeatError("this match is another player's: only they can play it")
    if reply is not None:
        raise AlreadyAppliedError(reply)
    if version != row.version:
        raise StaleVersionError(
            f"that move was made on version {version} of the match, but it is at version "
            f"{row.version} now (a repeated click or another tab): nothing was changed"
        )
    match = _rebuild(store, row)
    row.meta["bot"] = bot_level(row.meta, row.record)
    return LoadedMatch(
        row.id, row.version, match, row.meta, row.created_at, row.updated_at, row.seat
    )


def default_knock_card(match: Match) -> Card | None:
    """The card the Knock button throws when none is marked: the one that leaves least.

    Among throws that leave the same count, the highest card goes (it would
    only have counted against the player).
    """
    hand = match.hand
    if hand.phase is not Phase.DISCARD:
        return None
    options = hand.knock_options()
    limit = hand.knock_limit
    able = [(d, c) for c, d in options.items() if d <= limit]
    if not able:
        return None
    least = min(d for d, _ in able)
    return max((c for d, c in able if d == least), key=lambda c: (c.points, int(c)))


def apply_action(
    store: MatchStore,
    match_id: str,
    version: int,
    action: Action | None,
    *,
    seat: str = "",
    action_id: str | None = None,
    render: Render | None = None,
) -> LoadedMatch:
    """Apply the player's ``action`` (``None`` for a knock with no card marked).

    An ``action_id`` seen before raises :class:`AlreadyAppliedError` with the
    first answer (written by ``render`` and stored with the move); with a
    ``render``, read the answer from ``answer``.
    """
    loaded = _load_to_act(store, match_id, version, seat, action_id)
    match = loaded.match
    if match.is_over:
        raise GameError("the match is over")
    if match.hand.is_over:
        raise GameError("the hand is over: deal the next one")
    if match.to_act != YOU:
        raise GameError("it is the computer's turn")  # pragma: no cover - it always answers
    if action is None:
        card = default_knock_card(match)
        if card is None:
            raise GameError(_no_knock_reason(match))
        action = Knock(card)
    before = len(match.hand.events)
    try:
        match.apply(action, YOU)
    except IllegalActionError as e:
        raise GameError(str(e)) from None
    loaded.events.extend((len(match.hands), e) for e in match.hand.events[before:])
    _play_computer(loaded)
    _save(store, loaded, action_id, render)
    return loaded


def _no_knock_reason(match: Match) -> str:
    hand = match.hand
    if hand.phase is not Phase.DISCARD:
        return "you can knock only after drawing, instead of a discard"
    least = min(hand.knock_options().values())
    if hand.knock_limit == 0:
        return f"only gin ends this hand, and your best throw leaves {least}"
    return f"your best throw leaves {least} deadwood; a knock needs {hand.knock_limit} or less"


def deal_next_hand(
    store: MatchStore,
    match_id: str,
    version: int,
    decks: DeckSource,
    *,
    seat: str = "",
    client_seed: str | None = None,
    action_id: str | None = None,
    render: Render | None = None,
) -> LoadedMatch:
    """Deal the next hand once the player has read the last one's result.

    The deck comes from the server seed committed to (and shown) when the
    last hand ended and the player's ``client_seed``.
    """
    loaded = _load_to_act(store, match_id, version, seat, action_id)
    match = loaded.match
    if match.is_over:
        raise GameError("the match is over: start a new one")
    if not match.hand.is_over:
        raise GameError("this hand is still being played")
    match.next_hand(decks.deal(loaded.meta, len(match.hands) + 1, client_seed))
    loaded.events.extend((len(match.hands), e) for e in match.hand.events)
    _play_computer(loaded)
    _save(store, loaded, action_id, render)
    return loaded
