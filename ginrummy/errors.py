"""Refusals: every error the engine raises for a player's or a record's mistake.

Each refusal carries a stable ``code`` (snake_case) and ``params`` (names to
ints or strings) beside its English message, so a server can send
``{"code": "knock_too_high", "params": {"deadwood": 14, "limit": 10}}`` and a
page can word it in any language. The English sentences live in one table,
:data:`REFUSALS`; a message is always its code's sentence filled with the
params, so the table cannot drift from what is raised.

>>> from ginrummy.hand import Hand, Discard
>>> from ginrummy.cards import Card
>>> hand = Hand.from_seed(7, dealer=0)
>>> try:
...     hand.apply(Discard(Card.parse("KS")))
... except EngineError as e:
...     print(e.code, e.params, str(e))
upcard_first {} first take the upcard or pass

A refusal that wraps another (a record whose action is refused) names the
inner code as ``reason`` and carries the inner params too.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Self, TypeAlias

__all__ = ["REFUSALS", "EngineError", "Param", "refusal_params"]

Param: TypeAlias = int | str
"""A refusal's parameter: a whole number or a short text (a card is written ``7C``)."""

REFUSALS: Final[Mapping[str, str]] = MappingProxyType(
    {
        # -- a card token (CardParseError) --
        "bad_card": (
            "{token!r} is not a card: write rank A 2-9 T J Q K (or 10) then suit "
            "C D H S, e.g. AS, TD, 7C"
        ),
        # -- an action's text (ActionParseError) --
        "action_empty": "an action is empty",
        "action_unknown": (
            "{text!r} is not an action: write take, pass, stock, pile, discard 7C, knock 7C, "
            "or big_gin"
        ),
        "action_card": "in action {text!r}: {token!r} is not a card",
        "action_melds": "melds are written in brackets, e.g. [AS 2S 3S], not {text!r}",
        "action_needs_card": "the action {name!r} names a card, e.g. {name} 7C",
        "action_takes_no_card": "the action {name!r} names no card",
        "action_takes_no_melds": "only a knock or big gin lays down melds, not {name!r}",
        # -- a deal (DealError) --
        "bad_deck": "a deck holds each of the 52 cards exactly once",
        "bad_dealer": "the dealer is player 0 or 1, not {dealer}",
        # -- an action the rules refuse now (IllegalActionError) --
        "hand_over": "the hand is over",
        "not_your_turn": "it is player {to_act}'s turn, not player {player}'s",
        "not_an_action": "{action} is not an action",
        "upcard_offer_over": "the upcard offer is over",
        "upcard_first": "first take the upcard or pass",
        "drawn_already": "you have drawn already: discard or knock",
        "stock_first": "both players passed the upcard: the first draw is from the stock",
        "pile_empty": "the discard pile is empty",
        "draw_first": "draw first, from the stock or the pile",
        "big_gin_off": "big gin is a house rule that is off in this match",
        "big_gin_unmelded": "big gin needs all eleven cards in melds",
        "not_a_card": "{card} is not a card",
        "card_not_held": "{card} is not in your hand",
        "card_just_taken": ("{card} was just taken from the pile and may not be thrown this turn"),
        "knock_card_gin_only": "only gin ends this hand, and throwing {card} leaves {deadwood}",
        "knock_card_too_high": (
            "throwing {card} leaves {deadwood} deadwood; a knock needs {limit} or less"
        ),
        "gin_only": "only gin ends this hand, and your best throw leaves {deadwood}",
        "knock_too_high": (
            "your best throw leaves {deadwood} deadwood; a knock needs {limit} or less"
        ),
        "melds_bad_cards": "those melds name a card twice or a card that does not exist",
        "melds_not_best": (
            "those melds are not a least-deadwood arrangement of the cards laid down"
        ),
        # -- the match (IllegalActionError) --
        "match_over": "the match is over",
        "deal_next": "the hand is over: deal the next one",
        "hand_in_play": "the current hand is still being played",
        # -- settings (SettingsError) --
        "settings_not_object": "settings must be an object of name: value",
        "setting_unknown": "unknown setting {name!r}; the settings are {known}",
        "setting_not_whole": "{name} must be a whole number from {low} to {high}, not {value}",
        "setting_not_choice": "{name} must be one of {choices}, not {value}",
        "setting_not_bool": "{name} must be true or false, not {value}",
        # -- records (RecordError) --
        "record_not_json": "not JSON: {detail} (line {line}, column {column})",
        "record_not_object": "a record is a JSON object",
        "record_format": "not a {expected} record (format is {found})",
        "record_version": "record version {found} is not {expected}",
        "record_settings": "settings: {reason}",
        "record_no_hands": "a match record has a list of at least one hand",
        "record_first_dealer": "first_dealer must be 0 or 1",
        "record_players": "players is a list of two objects (one label per seat)",
        "record_hand_not_object": "hand {hand}: a hand is a JSON object",
        "record_dealer": "hand {hand}: dealer must be 0 or 1",
        "record_wrong_dealer": "hand {hand}: dealer should be {dealer} by the rules",
        "record_fields": "hand {hand}: deck is a string of 52 cards and actions a list",
        "record_deck": "hand {hand}: deck: {reason}",
        "record_action_not_text": "hand {hand}, action {index}: an action is a string",
        "record_action": "hand {hand}, action {index} ({action!r}): {reason}",
        "record_result": "hand {hand}: the record says {expected} but the replay gives {found}",
        "record_after_end": "hand {hand}: the match was over or the last hand unfinished",
        # -- fair deals (SeedError) --
        "server_seed_not_hex": "a server seed is written as hexadecimal digits",
        "server_seed_length": "a server seed is {size} bytes ({digits} hex digits)",
        "client_seed_bad": "a client seed is 1 to {most} printable characters",
    }
)
"""Every refusal code and its English sentence, with ``{param}`` places.

A wrapping refusal's ``{reason}`` is the wrapped refusal's own message (its
code is the ``reason`` param)."""


def refusal_params(code: str) -> tuple[str, ...]:
    """The params a refusal of ``code`` carries, in the order its sentence names them.

    >>> refusal_params("knock_too_high")
    ('deadwood', 'limit')
    """
    names = [f for _, f, _, _ in string.Formatter().parse(REFUSALS[code]) if f]
    return tuple(dict.fromkeys(names))


class EngineError(ValueError):
    """A refusal: ``code`` and ``params`` say what was refused, ``str()`` says it in English.

    >>> e = EngineError("knock_too_high", deadwood=14, limit=10)
    >>> e.to_dict()
    {'code': 'knock_too_high', 'params': {'deadwood': 14, 'limit': 10}}
    >>> str(e)
    'your best throw leaves 14 deadwood; a knock needs 10 or less'
    """

    code: str
    params: Mapping[str, Param]

    def __init__(self, code: str, /, **params: Param) -> None:
        super().__init__(REFUSALS[code].format(**params))
        self.code = code
        self.params = MappingProxyType(params)

    @classmethod
    def wrapping(cls, code: str, cause: EngineError, /, **params: Param) -> Self:
        """A refusal of ``code`` that wraps ``cause``: the cause's code is the
        ``reason`` param (its English message the ``{reason}`` words), and its
        params are kept beside the new ones."""
        error = cls(code, **params, reason=str(cause))
        error.params = MappingProxyType({**cause.params, **params, "reason": cause.code})
        return error

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore, (type(self), self.code, dict(self.params), str(self)))

    def to_dict(self) -> dict[str, object]:
        """The refusal as JSON values: ``{"code": ..., "params": {...}}``."""
        return {"code": self.code, "params": dict(self.params)}


def _restore(
    cls: type[EngineError], code: str, params: dict[str, Param], message: str
) -> EngineError:
    error = cls.__new__(cls)
    ValueError.__init__(error, message)
    error.code = code
    error.params = MappingProxyType(params)
    return error
