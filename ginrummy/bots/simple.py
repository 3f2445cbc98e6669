"""``simple``: a port of the EAAI 2021 Gin Rummy challenge's SimpleGinRummyPlayer.

The baseline every entrant of that challenge was measured against:

- it takes the upcard or the pile card only when that card joins a meld with
  cards in its hand, otherwise it draws from the stock;
- it throws a card that leaves the least deadwood, at random among ties,
  never the card just taken from the pile, and never repeating a draw-and-throw
  pair it already made this hand;
- it knocks at the first chance (with the throw it chose) and lays its cards
  down the plain way; it never lays off on purpose (the engine lays off for
  the defender, which the original framework also did).
"""

from __future__ import annotations

from ginrummy import melds
from ginrummy.bots._common import (
    big_gin_action,
    deadwood_of,
    decision_rng,
    discard_cards,
    knock_cards,
    take_or_draw,
)
from ginrummy.cards import FULL_DECK, CardSet, mask_of
from ginrummy.hand import (
    Action,
    Discard,
    Discarded,
    Knock,
    Phase,
    PileDrawn,
    PlayerView,
    StockDrawn,
    UpcardTaken,
)

__all__ = ["SimpleBot", "joins_meld"]


def joins_meld(hand: int, card: int, ace_high: bool) -> bool:
    """Whether ``card`` makes a meld together with cards of ``hand``."""
    joined = hand | 1 << card
    return any(m >> card & 1 for m in melds.melds_in(CardSet.from_mask(joined), ace_high=ace_high))


class SimpleBot:
    """The EAAI challenge's simple baseline player."""

    name = "simple"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        """One legal action for ``view``."""
        ace_high = view.settings.ace_high
        hand = mask_of(view.hand)
        if view.phase in (Phase.UPCARD, Phase.DRAW):
            top = view.top_of_pile
            can_take = len(view.legal_actions) > 1
            return take_or_draw(
                view, can_take and top is not None and joins_meld(hand, top, ace_high)
            )
        big = big_gin_action(view)
        if big is not None:
            return big
        drawn = view.drawn
        made = _draw_discard_pairs(view)
        choices = [
            c for c in discard_cards(view) if drawn is None or (int(drawn), c) not in made
        ] or discard_cards(view)
        left = {c: deadwood_of(hand & ~(1 << c), ace_high) for c in choices}
        least = min(left.values())
        candidates = [c for c in choices if left[c] == least]
        card = decision_rng(self.seed, view).choice(candidates)
        if card in knock_cards(view):
            return Knock(FULL_DECK[card])
        return Discard(FULL_DECK[card])


def _draw_discard_pairs(view: PlayerView) -> set[tuple[int, int]]:
    """The (card drawn, card thrown) pairs this player already made this hand."""
    pairs: set[tuple[int, int]] = set()
    drawn: int | None = None
    for e in view.events:
        if getattr(e, "player", None) != view.player:
            continue
        if isinstance(e, (StockDrawn, PileDrawn, UpcardTaken)):
            card = getattr(e, "card", None)
            drawn = None if card is None else int(card)
        elif isinstance(e, Discarded) and drawn is not None:
            pairs.add((drawn, int(e.card)))
            drawn = None
    return pairs
