"""Constructed hands for the coach's tests: decks and actions written out card by card."""

from __future__ import annotations

from ginrummy.cards import FULL_DECK, parse_cards
from ginrummy.hand import Hand, parse_action

FEEDER = "AS 2S 3S 4D 5D 6D 7D 9C 9D"
"""Nine cards player 0 throws one a turn and player 1 picks up (three melds and a pair of nines)."""


def deal(p0: str, p1: str, upcard: str, stock: str) -> list[int]:
    """A deck where player 1 deals: player 0 gets ``p0``, player 1 ``p1``, then the stock on top."""
    first, second = parse_cards(p0), parse_cards(p1)
    top = parse_cards(upcard) + parse_cards(stock)
    assert len(first) == 10 and len(second) == 10
    used = set(first) | set(second) | set(top)
    assert len(used) == 20 + len(top), "a card is dealt twice"
    rest = [c for c in FULL_DECK if c not in used]
    deck: list[int] = []
    for a, b in zip(first, second, strict=True):
        deck += [a, b]
    return deck + top[:1] + top[1:] + rest


def fed_hand(
    feed: str, p0_extra: str, p1_hidden: str, p1_junk: str, stock: str, last: list[str]
) -> Hand:
    """Player 0 throws the ``feed`` cards one a turn, player 1 picks each up and throws junk.

    After the feeding, player 0 draws once more from the stock and plays ``last``
    (then player 1's answer, if any, is in ``last`` too).
    """
    fed = feed.split()
    junk = p1_junk.split()
    deck = deal(" ".join([*fed, p0_extra]), " ".join([p1_hidden, *junk]), "3D", stock)
    hand = Hand.deal(deck, dealer=1)
    actions = ["pass", "pass"]
    for card, thrown in zip(fed, junk, strict=True):
        actions += ["stock", f"discard {card}", "pile", f"discard {thrown}"]
    actions += ["stock", *last]
    for text in actions:
        hand.apply(parse_action(text))
    return hand


def gin_feed() -> Hand:
    """Player 0 throws 9H to a player who visibly holds 9C 9D and three melds: gin."""
    return fed_hand(
        FEEDER,
        "9H",
        "KC",
        "KH QS JD 8S 7H 6S 2C 4C 5C",
        "KD QH JS 7C 6H 5S TC 2H 4H 3H",
        ["discard 9H", "pile", "knock KC"],
    )


def undercut_knock() -> Hand:
    """Player 0 knocks with 10 against nine visibly melded cards and one unknown: undercut."""
    return fed_hand(
        "AS 2S 3S 4D 5D 6D 9C 9D 9S",
        "2H",
        "AC",
        "KH QS JD 8S 7H 6S JS 4C 2C",
        "3H 4H TC TH TS 6C 7C 8C KD QD",
        ["knock QD"],
    )
