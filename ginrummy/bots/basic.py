"""The Easy and Medium computer opponents.

Medium plays its own hand soundly: it takes a pile card that joins a meld and
lowers its deadwood, throws the card that leaves the least deadwood (keeping
connected cards, throwing high ones first) and knocks as soon as it may.

Easy holds out for gin, reads nothing and throws loosely: it picks among the
few throws that leave about the least deadwood, and knocks short of gin only
once the stock runs low.
"""

from __future__ import annotations

from ginrummy.bots._common import (
    big_gin_action,
    bits,
    deadwood_of,
    decision_rng,
    discard_cards,
    knock_cards,
    neighbours,
    take_or_draw,
)
from ginrummy.cards import CARD_POINTS, FULL_DECK, Bitmask, mask_of
from ginrummy.hand import Action, Discard, Knock, Phase, PlayerView

__all__ = ["EasyBot", "MediumBot", "connections", "draw_if_it_melds", "melds_pile_card"]


def connections(card: int, hand: Bitmask) -> int:
    """How many cards of ``hand`` could share a meld with ``card``."""
    return sum(1 for n in neighbours(card) if hand >> n & 1)


def melds_pile_card(hand: Bitmask, card: int, ace_high: bool) -> bool:
    """Whether taking ``card`` lets the hand meld it and lower its deadwood."""
    now = deadwood_of(hand, ace_high)
    taken = hand | 1 << card
    for d in bits(hand):
        kept = taken & ~(1 << d)
        left = deadwood_of(kept, ace_high)
        if left < now and left < deadwood_of(kept & ~(1 << card), ace_high) + CARD_POINTS[card]:
            return True
    return False


def draw_if_it_melds(view: PlayerView, hand: Bitmask, ace_high: bool) -> Action:
    """The draw of a player who takes the upcard or pile card only when it melds it."""
    top = view.top_of_pile
    can_take = len(view.legal_actions) > 1
    return take_or_draw(view, can_take and top is not None and melds_pile_card(hand, top, ace_high))


def _sound_discard(hand: Bitmask, choices: list[int], ace_high: bool) -> int:
    """Least deadwood left; then the least connected card; then the highest."""
    return min(
        choices,
        key=lambda c: (
            deadwood_of(hand & ~(1 << c), ace_high),
            connections(c, hand),
            -CARD_POINTS[c],
            c,
        ),
    )


class MediumBot:
    """Sound play of its own hand; knocks when it can."""

    name = "medium"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        """One legal action for ``view``."""
        ace_high = view.settings.ace_high
        hand = mask_of(view.hand)
        if view.phase in (Phase.UPCARD, Phase.DRAW):
            return draw_if_it_melds(view, hand, ace_high)
        big = big_gin_action(view)
        if big is not None:
            return big
        knocks = knock_cards(view)
        if knocks:
            card = min(
                knocks, key=lambda c: (deadwood_of(hand & ~(1 << c), ace_high), -CARD_POINTS[c])
            )
            return Knock(FULL_DECK[card])
        return Discard(FULL_DECK[_sound_discard(hand, discard_cards(view), ace_high)])


class EasyBot:
    """Holds out for gin, reads nothing, and throws loosely."""

    name = "easy"
    late_stock = 8
    """Short of gin, Easy knocks only once the stock is down to this many cards."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        """One legal action for ``view``."""
        rng = decision_rng(self.seed, view)
        ace_high = view.settings.ace_high
        hand = mask_of(view.hand)
        if view.phase in (Phase.UPCARD, Phase.DRAW):
            return draw_if_it_melds(view, hand, ace_high)
        big = big_gin_action(view)
        if big is not None:
            return big
        knocks = knock_cards(view)
        left = {c: deadwood_of(hand & ~(1 << c), ace_high) for c in knocks}
        gins = [c for c, d in left.items() if d == 0]
        if gins:
            return Knock(FULL_DECK[min(gins)])
        if knocks and view.stock_count <= self.late_stock:
            card = min(knocks, key=lambda c: (left[c], c))
            return Knock(FULL_DECK[card])
        choices = discard_cards(view)
        ranked = sorted(choices, key=lambda c: (deadwood_of(hand & ~(1 << c), ace_high), c))
        best = deadwood_of(hand & ~(1 << ranked[0]), ace_high)
        loose = [c for c in ranked if deadwood_of(hand & ~(1 << c), ace_high) <= best + 4][:3]
        return Discard(FULL_DECK[rng.choice(loose)])
