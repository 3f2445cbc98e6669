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
from collections.abc import Mapping
from typing import Any, TypeGuard

from ginrummy.cards import CardParseError, format_cards, parse_cards
from ginrummy.hand import ActionParseError, Hand, HandResult, IllegalActionError, parse_action
from ginrummy.match import Match
from ginrummy.settings import Settings, SettingsError

__all__ = [
    "FORMAT_VERSION",
    "RecordError",
    "dump_hand",
    "dump_match",
    "hand_from_dict",
    "hand_to_dict",
    "load_hand",
    "load_match",
    "match_from_dict",
    "match_to_dict",
]

FORMAT_VERSION = 1
HAND_FORMAT = "ginrummy-hand"
MATCH_FORMAT = "ginrummy-match"


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says where."""


def _is_player(value: object) -> TypeGuard[int]:
    # JSON true/false must not pass for the players 1 and 0.
    return type(value) is int and value in (0, 1)


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


def match_to_dict(match: Match, *, finished_only: bool = False) -> dict[str, Any]:
    """A match as plain JSON values.

    With ``finished_only`` a hand still in play is left out: its deck order is
    the stock's order, which no player may see before the hand ends. Such a
    record loads back to the match as it stood when its last hand ended.
    """
    hands = [h for h in match.hands if h.is_over] if finished_only else match.hands
    return {
        "format": MATCH_FORMAT,
        "version": FORMAT_VERSION,
        "settings": match.settings.to_dict(),
        "first_dealer": match.first_dealer,
        "hands": [_hand_body(h) for h in hands],
    }


def dump_hand(hand: Hand) -> str:
    """A hand as JSON text."""
    return json.dumps(hand_to_dict(hand), indent=1)


def dump_match(match: Match) -> str:
    """A match as JSON text."""
    return json.dumps(match_to_dict(match), indent=1)


def _header(data: Any, kind: str) -> Settings:
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    if data.get("format") != kind:
        raise RecordError(f"not a {kind} record (format is {data.get('format')!r})")
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not {FORMAT_VERSION}")
    try:
        return Settings.from_dict(data.get("settings", {}))
    except SettingsError as e:
        raise RecordError(f"settings: {e}") from None


def _replay(body: Any, settings: Settings, where: str, dealer: int | None = None) -> Hand:
    if not isinstance(body, Mapping):
        raise RecordError(f"{where}: a hand is a JSON object")
    if dealer is None:
        dealer = body.get("dealer")
        if not _is_player(dealer):
            raise RecordError(f"{where}: dealer must be 0 or 1")
    elif "dealer" in body and (not _is_player(body["dealer"]) or body["dealer"] != dealer):
        raise RecordError(f"{where}: dealer should be {dealer} by the rules")
    deck_text, actions = body.get("deck"), body.get("actions", [])
    if not isinstance(deck_text, str) or not isinstance(actions, list):
        raise RecordError(f"{where}: deck is a string of 52 cards and actions a list")
    try:
        deck = parse_cards(deck_text)
        hand = Hand.deal(deck, dealer=dealer, settings=settings)
    except (CardParseError, ValueError) as e:
        raise RecordError(f"{where}: deck: {e}") from None
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise RecordError(f"{where}, action {i + 1}: an action is a string")
        try:
            hand.apply(parse_action(text))
        except (ActionParseError, IllegalActionError) as e:
            raise RecordError(f"{where}, action {i + 1} ({text!r}): {e}") from None
    expected = body.get("result")
    if expected is not None and expected != _result_dict(hand.result):
        raise RecordError(
            f"{where}: the record says {expected} but the replay gives {_result_dict(hand.result)}"
        )
    return hand


def hand_from_dict(data: Any) -> Hand:
    """A hand rebuilt from :func:`hand_to_dict`'s values by replaying it."""
    settings = _header(data, HAND_FORMAT)
    return _replay(data, settings, "hand")


def match_from_dict(data: Any) -> Match:
    """A match rebuilt from :func:`match_to_dict`'s values by replaying every hand."""
    settings = _header(data, MATCH_FORMAT)
    first = data.get("first_dealer")
    hands = data.get("hands")
    if not _is_player(first):
        raise RecordError("first_dealer must be 0 or 1")
    if not isinstance(hands, list) or not hands:
        raise RecordError("a match record has a list of at least one hand")
    match: Match | None = None
    for i, body in enumerate(hands):
        where = f"hand {i + 1}"
        if match is None:
            match = Match(settings=settings, first_dealer=first)
            hand = _replay(body, settings, where, dealer=first)
            match.hands.append(Hand.deal(hand.deck, dealer=first, settings=settings))
        else:
            if not match.awaiting_deal:
                raise RecordError(f"{where}: the match was over or the last hand unfinished")
            hand = _replay(body, settings, where, dealer=match.next_dealer)
            match.next_hand(hand.deck)
        for action in hand.actions:
            match.apply(action)
    assert match is not None
    return match


def load_hand(text: str) -> Hand:
    """A hand from JSON text."""
    try:
        return hand_from_dict(json.loads(text))
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e}") from None


def load_match(text: str) -> Match:
    """A match from JSON text."""
    try:
        return match_from_dict(json.loads(text))
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e}") from None
