"""Shared helpers: hands built from explicit cards, so each scenario reads like a deal.

A scenario names who holds what, the upcard and the top of the stock; the
helpers turn that into the 52-card deck order the engine deals from
(``deck[0]`` to the non-dealer, ``deck[1]`` to the dealer, and so on,
``deck[20]`` the upcard, ``deck[21]`` the top of the stock). Cards nobody
named fill the rest of the stock in card order.

Import them in a test module with ``from conftest import deal, play``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hypothesis import settings

from ginrummy.cards import FULL_DECK, Card, parse_cards
from ginrummy.hand import Hand, PlayerView, parse_action
from ginrummy.match import Match
from ginrummy.settings import Settings

# Property tests assert behaviour, never speed: a busy machine must not fail them
# (hypothesis's default deadline is 200 ms an example). Speed is the benchmarks' job.
settings.register_profile("project", deadline=None)
settings.load_profile("project")

CardsText = str | Iterable[Card]
"""Cards written in the rules' notation (``"AS 2S 3S"``) or given as cards."""


def cards(text: CardsText) -> list[Card]:
    """The cards of ``text`` in the order written."""
    return parse_cards(text) if isinstance(text, str) else list(text)


def deck_order(
    *,
    dealer: int,
    hands: Mapping[int, CardsText],
    upcard: str | Card,
    stock: CardsText = "",
) -> tuple[Card, ...]:
    """The deck order that deals ``hands[p]`` (ten cards each) to player ``p``.

    ``upcard`` is turned up; ``stock`` lists the top of the stock, top card
    first; the cards not named follow in card order.
    """
    held = {p: cards(hands[p]) for p in (0, 1)}
    for p in (0, 1):
        assert len(held[p]) == 10, f"player {p} needs ten cards, not {len(held[p])}"
    up = Card.parse(upcard) if isinstance(upcard, str) else upcard
    top = cards(stock)
    named = [*held[0], *held[1], up, *top]
    twice = sorted({c for c in named if named.count(c) > 1})
    assert not twice, f"named twice: {' '.join(map(str, twice))}"
    non_dealer = 1 - dealer
    deck: list[Card] = []
    for i in range(10):
        deck += [held[non_dealer][i], held[dealer][i]]
    deck.append(up)
    deck += top
    deck += [c for c in FULL_DECK if c not in set(named)]
    return tuple(deck)


def deal(
    *,
    dealer: int = 0,
    hands: Mapping[int, CardsText],
    upcard: str | Card,
    stock: CardsText = "",
    settings: Settings | None = None,
) -> Hand:
    """A hand dealt so that each player holds exactly the cards named."""
    order = deck_order(dealer=dealer, hands=hands, upcard=upcard, stock=stock)
    return Hand.deal(order, dealer=dealer, settings=settings)


def play(game: Hand | Match, *actions: str) -> None:
    """Apply actions written in the record notation, each checked to be legal."""
    for text in actions:
        game.apply(parse_action(text))


def filler_stock(
    *, hands: Mapping[int, CardsText], upcard: str, before: int, then: str
) -> list[Card]:
    """A stock whose card number ``before + 1`` (from the top) is ``then``.

    The ``before`` cards above it are unnamed cards in card order.
    """
    target = Card.parse(then)
    used = {*cards(hands[0]), *cards(hands[1]), Card.parse(upcard), target}
    rest = [c for c in FULL_DECK if c not in used]
    return [*rest[:before], target]


def visible_cards(view: PlayerView) -> set[Card]:
    """Every card a player's view shows anywhere, apart from the player's own hand."""
    seen: set[Card] = {*view.pile, view.first_upcard, *view.opponent_pile_cards}
    for card in (view.drawn, view.locked_card):
        if card is not None:
            seen.add(card)
    if view.opponent_hand is not None:
        seen |= set(view.opponent_hand)
    for event in view.events:
        card = getattr(event, "card", None)
        if card is not None:
            seen.add(card)
    for action in view.legal_actions:
        card = getattr(action, "card", None)
        if card is not None:
            seen.add(card)
    result = view.result
    if result is not None:
        if result.knock_card is not None:
            seen.add(result.knock_card)
        for meld in (*result.knocker_melds, *result.defender_melds):
            seen |= set(meld)
        seen |= set(result.knocker_deadwood) | set(result.defender_deadwood)
        seen |= {lay.card for lay in result.lay_offs}
    return seen - set(view.hand)


WINNER_CARDS = "AS 2S 3S 4H 5H 6H 7C 7D 7S KD"
"""Ten cards that go gin by taking the upcard 7H and knocking with KD."""
WINNER_CARDS_SPADE_UPCARD = "AH 2H 3H 4D 5D 6D 7C 7D 7H KD"
"""The same, for the upcard 7S (a spade, for the spades double)."""
LOSER_80 = "KC QS JH 9S 8C 6C 5C 3D TC 9H"
"""Ten cards with no meld: 80 deadwood."""
LOSER_1 = "8S 9S TS JC QC KC 2C 3C 4C AD"
"""Three melds and the ace of diamonds: 1 deadwood."""


def gin_deal(
    *, dealer: int, winner: int, loser: str = LOSER_80, spade_upcard: bool = False
) -> tuple[tuple[Card, ...], list[str]]:
    """A deck where ``winner`` goes gin at once, and the actions that do it.

    The winner takes the upcard (after the non-dealer passes, if the winner
    deals) and knocks with KD, so the hand pays the loser's deadwood + the gin bonus.
    """
    cards_of_winner = WINNER_CARDS_SPADE_UPCARD if spade_upcard else WINNER_CARDS
    upcard = "7S" if spade_upcard else "7H"
    order = deck_order(
        dealer=dealer, hands={winner: cards_of_winner, 1 - winner: loser}, upcard=upcard
    )
    actions = ["take", "knock KD"] if winner != dealer else ["pass", "take", "knock KD"]
    return order, actions


def gin_match(
    winners: Iterable[int],
    *,
    settings: Settings | None = None,
    first_dealer: int = 0,
    loser: str = LOSER_80,
) -> Match:
    """A match whose hands are won by gin, in turn, by the players in ``winners``."""
    match: Match | None = None
    for winner in winners:
        dealer = first_dealer if match is None else match.next_dealer
        order, actions = gin_deal(dealer=dealer, winner=winner, loser=loser)
        if match is None:
            match = Match.start(order, first_dealer=first_dealer, settings=settings)
        else:
            match.next_hand(order)
        play(match, *actions)
    assert match is not None
    return match
