"""The referee: rebuilds a stored match, applies the player's move, lets the computer answer.

The player sits in seat :data:`YOU` and the computer in seat :data:`COMPUTER`.
Each request loads the match record, replays it through the engine, applies
the one action asked for (checked by the engine and against the version it
was made on), then plays the computer's moves until it is the player's turn
again or the hand is over, and stores the new record with the next version.

Deck orders come from ``random.SystemRandom()`` unless the server runs in test
mode (``GINRUMMY_TEST_DECKS`` names a seed): then a new match may bring its
own deck orders and first dealer, and further hands are shuffled from the seed.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ginrummy.cards import Card, format_cards, parse_cards
from ginrummy.hand import Action, Event, IllegalActionError, Knock, Phase, shuffled_deck
from ginrummy.match import Match, cut_for_deal
from ginrummy.records import RecordError, match_from_dict, match_to_dict
from ginrummy.settings import Settings
from ginrummy.web.storage import MatchStore, StoredMatch

__all__ = [
    "COMPUTER",
    "YOU",
    "DeckSource",
    "GameError",
    "LoadedMatch",
    "MatchNotFoundError",
    "StaleVersionError",
    "apply_action",
    "create_match",
    "deal_next_hand",
    "default_knock_card",
    "load_match",
]

YOU = 0
"""The seat of the person at the browser."""
COMPUTER = 1
"""The seat the server plays."""


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


@dataclass(frozen=True, slots=True)
class DeckSource:
    """Where new deck orders come from: the system's secure source, or a test seed."""

    test_seed: str | None = None

    @property
    def is_test(self) -> bool:
        """Whether deck orders may be fixed (never on by default)."""
        return self.test_seed is not None

    def deck(self, meta: dict[str, Any], hand_index: int) -> tuple[Card, ...]:
        """The deck for the match's hand number ``hand_index`` (0-based)."""
        planned = meta.get("test_decks") or []
        if hand_index < len(planned):
            return tuple(parse_cards(planned[hand_index]))
        if self.test_seed is not None:
            return shuffled_deck(random.Random(f"{self.test_seed}/{meta['seed']}/{hand_index}"))
        return shuffled_deck(random.SystemRandom())

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
    events: list[tuple[int, Event]] = field(default_factory=list)
    """What this request did: (hand number, event), the player's own moves first."""

    @property
    def status(self) -> str:
        """``over`` once somebody reached the target, else ``playing``."""
        return "over" if self.match.is_over else "playing"


def _bot_move(match: Match, meta: dict[str, Any]) -> Action:
    from ginrummy.bots import make_bot

    bot = make_bot(match.settings.difficulty.value, seed=int(meta["bot_seed"]))
    return bot.choose(match.view(COMPUTER))


def _play_computer(loaded: LoadedMatch) -> None:
    """Let the computer move until it is the player's turn or the hand is over."""
    match = loaded.match
    while not match.is_over and not match.hand.is_over and match.to_act == COMPUTER:
        before = len(match.hand.events)
        match.apply(_bot_move(match, loaded.meta), COMPUTER)
        loaded.events.extend((len(match.hands), e) for e in match.hand.events[before:])


def _save(store: MatchStore, loaded: LoadedMatch) -> None:
    ok = store.update(
        loaded.id,
        loaded.version,
        match_to_dict(loaded.match),
        loaded.meta,
        status=loaded.status,
        scores=loaded.match.scores,
    )
    if not ok:
        raise StaleVersionError(
            "this match was changed elsewhere (another tab?) before your move was saved"
        )
    loaded.version += 1


def create_match(
    store: MatchStore,
    settings: Settings,
    decks: DeckSource,
    *,
    test_decks: Sequence[Sequence[Card]] = (),
    first_dealer: int | None = None,
) -> LoadedMatch:
    """Start a match: cut, deal, let the computer open if it is first, store it."""
    meta: dict[str, Any] = {
        "seed": secrets.token_hex(8),
        "bot_seed": secrets.randbits(31),
    }
    if test_decks:
        meta["test_decks"] = [format_cards(d) for d in test_decks]
    if first_dealer is not None:
        meta["first_dealer"] = first_dealer
    match = Match.start(
        decks.deck(meta, 0), first_dealer=decks.first_dealer(meta), settings=settings
    )
    match_id = secrets.token_urlsafe(9)
    loaded = LoadedMatch(match_id, 1, match, meta, "", "")
    loaded.events.extend((1, e) for e in match.hand.events)
    _play_computer(loaded)
    row = StoredMatch.new(
        match_id, match_to_dict(match), meta, status=loaded.status, scores=match.scores
    )
    store.create(row)
    loaded.created_at = loaded.updated_at = row.created_at
    return loaded


def load_match(store: MatchStore, match_id: str) -> LoadedMatch:
    """Rebuild a stored match by replaying its record."""
    row = store.get(match_id)
    if row is None:
        raise MatchNotFoundError(f"there is no match {match_id!r}")
    try:
        match = match_from_dict(row.record)
    except RecordError as e:  # pragma: no cover - only a hand-edited database gets here
        raise GameError(f"match {match_id!r} cannot be replayed: {e}") from None
    return LoadedMatch(row.id, row.version, match, row.meta, row.created_at, row.updated_at)


def _check_version(loaded: LoadedMatch, version: int) -> None:
    if version != loaded.version:
        raise StaleVersionError(
            f"that move was made on version {version} of the match, but it is at version "
            f"{loaded.version} now (a repeated click or another tab): nothing was changed"
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
    store: MatchStore, match_id: str, version: int, action: Action | None
) -> LoadedMatch:
    """Apply the player's ``action`` (``None`` for a knock with no card marked)."""
    loaded = load_match(store, match_id)
    _check_version(loaded, version)
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
    _save(store, loaded)
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
    store: MatchStore, match_id: str, version: int, decks: DeckSource
) -> LoadedMatch:
    """Deal the next hand once the player has read the last one's result."""
    loaded = load_match(store, match_id)
    _check_version(loaded, version)
    match = loaded.match
    if match.is_over:
        raise GameError("the match is over: start a new one")
    if not match.hand.is_over:
        raise GameError("this hand is still being played")
    match.next_hand(decks.deck(loaded.meta, len(match.hands)))
    loaded.events.extend((len(match.hands), e) for e in match.hand.events)
    _play_computer(loaded)
    _save(store, loaded)
    return loaded
