"""Records: hands and matches as JSON, loaded back by replaying them.

A record holds only what cannot be derived: the settings, who dealt, each
hand's deck order and the actions in order. Everything else (hands, pile,
results, the score sheet) is recomputed by replaying the actions through the
engine, so a record can never disagree with the rules. Each finished hand also
carries its result, which loading checks against the replay. The format is
described in ``docs/RECORDS.md``.

>>> import random
>>> from ginrummy.match import Match
>>> from ginrummy.hand import PassUpcard
>>> m = Match.new(rng=random.Random(3)); _ = m.apply(PassUpcard())
>>> load_match(dump_match(m)) == m
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from ginrummy.cards import format_cards, parse_cards
from ginrummy.errors import EngineError, Param
from ginrummy.hand import Action, Event, Hand, HandResult, parse_action
from ginrummy.match import Match
from ginrummy.settings import Settings, SettingsError

__all__ = [
    "FORMAT_VERSION",
    "PlayerLabel",
    "RecordError",
    "Replayed",
    "dump_hand",
    "dump_match",
    "hand_from_dict",
    "hand_to_dict",
    "load_hand",
    "load_match",
    "match_from_dict",
    "match_to_dict",
    "replay_match",
]

FORMAT_VERSION = 1
HAND_FORMAT = "ginrummy-hand"
MATCH_FORMAT = "ginrummy-match"

PlayerLabel = Mapping[str, Any]
"""What a record says of who held a seat, e.g. ``{"kind": "bot", "bot": "hard"}``.

Opaque to the engine: written and read back as given (plain JSON values)."""


class RecordError(EngineError):
    """A record that cannot be read or does not replay (codes ``record_*``).

    The message says where; a refusal met while replaying (a bad deck, an
    illegal action) is the ``reason`` param, with its own params.
    """


@dataclass(frozen=True, slots=True)
class Replayed:
    """A match rebuilt from its record in one pass, with what happened on the way.

    ``events`` are every hand's events in order, each with its hand number
    (1-based), as the engine logged them (no seat's view: censor with
    ``match.view(seat)`` before showing). ``players`` are the record's seat
    labels, when it has them.
    """

    match: Match
    events: tuple[tuple[int, Event], ...]
    players: tuple[PlayerLabel, PlayerLabel] | None = None


def _is_player(value: object) -> TypeGuard[int]:
    # JSON true/false must not pass for the players 1 and 0.
    return type(value) is int and value in (0, 1)


def _shown(value: object) -> Param:
    return value if type(value) is int else repr(value)


def _result_dict(result: HandResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"kind": result.kind.value, "winner": result.winner, "points": result.points}


def _hand_body(hand: Hand) -> dict[str, Any]:
    body: dict[str, Any] = {
        "dealer": hand.dealer,
        "deck": format_cards(hand.deck),
        "actions": [str(a) for a in hand.actions],
    }
    if hand.result is not None:
        body["result"] = _result_dict(hand.result)
    return body


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """A hand as plain JSON values."""
    return {
        "format": HAND_FORMAT,
        "version": FORMAT_VERSION,
        "settings": hand.settings.to_dict(),
        **_hand_body(hand),
    }


def match_to_dict(
    match: Match,
    *,
    finished_only: bool = False,
    players: Sequence[PlayerLabel] | None = None,
) -> dict[str, Any]:
    """A match as plain JSON values.

    With ``finished_only`` a hand still in play is left out: its deck order is
    the stock's order, which no player may see before the hand ends. Such a
    record loads back to the match as it stood when its last hand ended.
    ``players`` (one label per seat, see :data:`PlayerLabel`) are written
    when given; a record without them says nothing of who played.
    """
    hands = [h for h in match.hands if h.is_over] if finished_only else match.hands
    data: dict[str, Any] = {
        "format": MATCH_FORMAT,
        "version": FORMAT_VERSION,
        "settings": match.settings.to_dict(),
        "first_dealer": match.first_dealer,
    }
    if players is not None:
        data["players"] = [dict(p) for p in _players(players)]
    data["hands"] = [_hand_body(h) for h in hands]
    return data


def dump_hand(hand: Hand) -> str:
    """A hand as JSON text."""
    return json.dumps(hand_to_dict(hand), indent=1)


def dump_match(match: Match, *, players: Sequence[PlayerLabel] | None = None) -> str:
    """A match as JSON text."""
    return json.dumps(match_to_dict(match, players=players), indent=1)


def _players(value: object) -> tuple[PlayerLabel, PlayerLabel]:
    if (
        isinstance(value, str)
        or not isinstance(value, Sequence)
        or len(value) != 2
        or not all(isinstance(p, Mapping) for p in value)
    ):
        raise RecordError("record_players")
    return (value[0], value[1])


def _header(data: Any, kind: str) -> Settings:
    if not isinstance(data, Mapping):
        raise RecordError("record_not_object")
    if data.get("format") != kind:
        raise RecordError("record_format", expected=kind, found=_shown(data.get("format")))
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise RecordError("record_version", found=_shown(version), expected=FORMAT_VERSION)
    try:
        return Settings.from_dict(data.get("settings", {}))
    except SettingsError as e:
        raise RecordError.wrapping("record_settings", e) from None


def _hand_parts(body: Any, number: int, dealer: int | None) -> tuple[int, list[Any], list[Any]]:
    """A hand body's dealer, deck and action texts, checked for form."""
    if not isinstance(body, Mapping):
        raise RecordError("record_hand_not_object", hand=number)
    if dealer is None:
        dealer = body.get("dealer")
        if not _is_player(dealer):
            raise RecordError("record_dealer", hand=number)
    elif "dealer" in body and (not _is_player(body["dealer"]) or body["dealer"] != dealer):
        raise RecordError("record_wrong_dealer", hand=number, dealer=dealer)
    deck_text, actions = body.get("deck"), body.get("actions", [])
    if not isinstance(deck_text, str) or not isinstance(actions, list):
        raise RecordError("record_fields", hand=number)
    try:
        deck = parse_cards(deck_text)
    except EngineError as e:
        raise RecordError.wrapping("record_deck", e, hand=number) from None
    return dealer, deck, actions


def _play(apply: Callable[[Action], object], actions: list[Any], number: int) -> None:
    """Apply each recorded action once, through ``apply`` (the hand's or the match's)."""
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise RecordError("record_action_not_text", hand=number, index=i + 1)
        try:
            apply(parse_action(text))
        except EngineError as e:
            raise RecordError.wrapping(
                "record_action", e, hand=number, index=i + 1, action=text
            ) from None


def _check_result(body: Mapping[str, Any], hand: Hand, number: int) -> None:
    expected = body.get("result")
    found = _result_dict(hand.result)
    if expected is not None and expected != found:
        raise RecordError("record_result", hand=number, expected=str(expected), found=str(found))


def hand_from_dict(data: Any) -> Hand:
    """A hand rebuilt from :func:`hand_to_dict`'s values by replaying it."""
    settings = _header(data, HAND_FORMAT)
    dealer, deck, actions = _hand_parts(data, 1, None)
    try:
        hand = Hand.deal(deck, dealer=dealer, settings=settings)
    except EngineError as e:
        raise RecordError.wrapping("record_deck", e, hand=1) from None
    _play(hand.apply, actions, 1)
    _check_result(data, hand, 1)
    return hand


def replay_match(data: Any) -> Replayed:
    """A match rebuilt from :func:`match_to_dict`'s values, each action applied once.

    Raises :class:`RecordError` (with a code) for a record that does not
    read or does not replay.

    >>> import random
    >>> from ginrummy.hand import PassUpcard, UpcardPassed
    >>> m = Match.new(rng=random.Random(3)); _ = m.apply(PassUpcard())
    >>> r = replay_match(match_to_dict(m, players=[{"kind": "person"}, {"kind": "bot"}]))
    >>> r.match == m, r.events[-1], r.players[1]["kind"]
    (True, (1, UpcardPassed(player=1)), 'bot')
    """
    settings = _header(data, MATCH_FORMAT)
    players = _players(data["players"]) if "players" in data else None
    first = data.get("first_dealer")
    hands = data.get("hands")
    if not _is_player(first):
        raise RecordError("record_first_dealer")
    if not isinstance(hands, list) or not hands:
        raise RecordError("record_no_hands")
    match: Match | None = None
    for i, body in enumerate(hands):
        number = i + 1
        if match is not None and not match.awaiting_deal:
            raise RecordError("record_after_end", hand=number)
        dealer = first if match is None else match.next_dealer
        _, deck, actions = _hand_parts(body, number, dealer)
        try:
            if match is None:
                match = Match.start(deck, first_dealer=first, settings=settings)
            else:
                match.next_hand(deck)
        except EngineError as e:
            raise RecordError.wrapping("record_deck", e, hand=number) from None
        _play(match.apply, actions, number)
        _check_result(body, match.hand, number)
    assert match is not None
    events = tuple((n, e) for n, hand in enumerate(match.hands, 1) for e in hand.events)
    return Replayed(match, events, players)


def match_from_dict(data: Any) -> Match:
    """A match rebuilt from :func:`match_to_dict`'s values (see :func:`replay_match`)."""
    return replay_match(data).match


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError("record_not_json", detail=e.msg, line=e.lineno, column=e.colno) from None


def load_hand(text: str) -> Hand:
    """A hand from JSON text."""
    return hand_from_dict(_json(text))


def load_match(text: str) -> Match:
    """A match from JSON text."""
    return match_from_dict(_json(text))
