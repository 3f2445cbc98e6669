"""Deals that one player cannot tell from the real one: the hidden cards, sampled.

At any point of a hand a player knows their own cards, the pile, the cards the
other player took from the pile and the whole public log. :func:`sample_world`
deals a complete hand (both hands and the stock order) that agrees with all of
that and replays the same actions up to the same point, so ``world.view(player)``
is exactly the player's view. Only what the player could not see is guessed:
the other player's unknown cards and the order of the stock.

The guess is weighted the way Hard reads the table (the factors of
:func:`ginrummy.bots.card_weights`): every unseen card starts at weight 1; each card the
other player took from the pile multiplies the weight of the cards that could
meld with it (same rank, suit neighbour, suit neighbour but one) by 2.2, 2.0
and 1.4; each card they threw or let go by multiplies them by about 0.6 to 0.85.
The other player's unknown cards are then drawn without replacement in
proportion to those weights. A hand that has been played for some turns is
tidier than a fresh deal: its owner kept what helped and threw the rest. So,
as Hard's knock odds model it, :data:`CHOOSINESS` more cards per turn the
other player has had (at most :data:`MAX_EXTRA`) are drawn too, and after
each the unknown card that leaves the most deadwood is put back. The rest of
the unseen cards are the stock, in a uniformly random order.

>>> import random
>>> from ginrummy.hand import Hand, PassUpcard, DrawStock
>>> hand = Hand.from_seed(5, dealer=0)
>>> for action in (PassUpcard(), PassUpcard(), DrawStock()):
...     _ = hand.apply(action)
>>> world = sample_world(hand.view(1), random.Random(1))
>>> world.view(1) == hand.view(1)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ginrummy.bots import card_weights
from ginrummy.cards import Bitmask, cards_of_mask, mask_of
from ginrummy.hand import (
    Action,
    Dealt,
    Discard,
    Discarded,
    DrawPile,
    DrawStock,
    Event,
    Hand,
    PassUpcard,
    PileDrawn,
    PlayerView,
    StockDrawn,
    TakeUpcard,
    UpcardPassed,
    UpcardTaken,
)
from ginrummy.melds import deadwood_mask

__all__ = ["ALL_CARDS", "CHOOSINESS", "MAX_EXTRA", "actions_of", "sample_world", "unseen_mask"]

ALL_CARDS = (1 << 52) - 1

CHOOSINESS = 0.7
"""Extra cards drawn per turn of the other player, and the worst put back (Hard's own figure)."""

MAX_EXTRA = 8
"""At most this many extra cards (Hard's own figure)."""


def unseen_mask(view: PlayerView) -> Bitmask:
    """The cards ``view.player`` has not seen: in the other hand or the stock."""
    return (
        ALL_CARDS & ~mask_of(view.hand) & ~mask_of(view.pile) & ~mask_of(view.opponent_pile_cards)
    )


def actions_of(events: Iterable[Event]) -> list[Action]:
    """The actions that made a public log (every action leaves one event)."""
    actions: list[Action] = []
    for e in events:
        if isinstance(e, UpcardTaken):
            actions.append(TakeUpcard())
        elif isinstance(e, UpcardPassed):
            actions.append(PassUpcard())
        elif isinstance(e, StockDrawn):
            actions.append(DrawStock())
        elif isinstance(e, PileDrawn):
            actions.append(DrawPile())
        elif isinstance(e, Discarded):
            actions.append(Discard(e.card))
        elif not isinstance(e, Dealt):
            raise ValueError(f"the hand is over ({type(e).__name__}): nothing is hidden any more")
    return actions


def sample_world(
    view: PlayerView, rng: random.Random, *, weighted: bool = True, choosing: bool = True
) -> Hand:
    """A whole hand at the same point, dealt so that ``view.player`` sees exactly ``view``.

    ``weighted`` draws the other player's unknown cards by Hard's reading,
    ``choosing`` makes their hand as tidy as a player's after their turns.
    Raises ``ValueError`` for a view of a finished hand (nothing is hidden then).
    """
    me, opp = view.player, 1 - view.player
    actions = actions_of(view.events)
    # Walk the public log: which stock draws were whose, and which of the other
    # player's throws came from their hidden cards (not from a pile pickup).
    mine_drawn: dict[int, int] = {}
    opp_slots: list[tuple[int, int]] = [(-1, -1 - k) for k in range(10)]  # (time, place)
    opp_from_pile: set[int] = set()
    hidden_throws: list[tuple[int, int]] = []
    stock_next = 0
    opp_turns = 0
    for t, e in enumerate(view.events):
        if isinstance(e, StockDrawn):
            if e.player == me:
                assert e.card is not None
                mine_drawn[stock_next] = int(e.card)
            else:
                opp_slots.append((t, stock_next))
                opp_turns += 1
            stock_next += 1
        elif isinstance(e, (PileDrawn, UpcardTaken)) and e.player == opp:
            opp_from_pile.add(int(e.card))
            opp_turns += 1
        elif isinstance(e, Discarded) and e.player == opp:
            if int(e.card) in opp_from_pile:
                opp_from_pile.discard(int(e.card))
            else:
                hidden_throws.append((t, int(e.card)))
    # The player's own deal: today's hand, less their draws, plus their throws.
    mine = set(int(c) for c in view.hand)
    for e in reversed(view.events):
        if isinstance(e, Discarded) and e.player == me:
            mine.add(int(e.card))
        elif isinstance(e, (StockDrawn, PileDrawn, UpcardTaken)) and e.player == me:
            assert e.card is not None
            mine.discard(int(e.card))
    # The other player's unknown cards, drawn by weight.
    unseen = unseen_mask(view)
    unknown = view.opponent_card_count - len(view.opponent_pile_cards)
    extra = min(MAX_EXTRA, round(CHOOSINESS * opp_turns)) if choosing else 0
    need = min(unknown + extra, unseen.bit_count())
    if weighted:
        weights = card_weights(view)
        keyed = sorted(
            (rng.random() ** (1.0 / weights[c]), c) for c in map(int, cards_of_mask(unseen))
        )
        drawn = [c for _, c in keyed[len(keyed) - need :]] if need else []
    else:
        drawn = rng.sample([int(c) for c in cards_of_mask(unseen)], need)
    held = _chosen(drawn, unknown, mask_of(view.opponent_pile_cards), view.settings.ace_high)
    rng.shuffle(held)
    # Each hidden throw needs a hidden card that came before it: give it the
    # earliest free one (dealt, then stock draws in order); the unknown cards
    # fill the places left.
    placed: dict[int, int] = {}
    free = iter(sorted(opp_slots))
    for time, card in hidden_throws:
        slot_time, place = next(free)
        if slot_time >= time:
            raise ValueError("the public log does not fit a deal")
        placed[place] = card
    rest_slots = [place for _, place in free]
    if len(rest_slots) != len(held):
        raise ValueError("the public log does not fit a deal")
    placed.update(zip(rest_slots, held, strict=True))
    stock = [int(c) for c in cards_of_mask(unseen & ~mask_of(held))]
    rng.shuffle(stock)
    deck: list[int] = [0] * 52
    ours = sorted(mine)
    theirs = [placed[-1 - k] for k in range(10)]
    first, second = (theirs, ours) if view.dealer == me else (ours, theirs)
    for i in range(10):
        deck[2 * i] = first[i]
        deck[2 * i + 1] = second[i]
    deck[20] = int(view.first_upcard)
    for k in range(stock_next):
        deck[21 + k] = mine_drawn[k] if k in mine_drawn else placed[k]
    deck[21 + stock_next :] = stock
    world = Hand.deal(deck, dealer=view.dealer, settings=view.settings)
    for action in actions:
        world.apply(action)
    return world


def _chosen(drawn: list[int], unknown: int, known: Bitmask, ace_high: bool) -> list[int]:
    """The other player's ``unknown`` cards: the first drawn, then each further card
    drawn in turn with the unknown card that leaves the most deadwood put back.

    A card that would make their hand gin is put back itself: with gin they would
    have gone out, not thrown and waited.

    >>> from ginrummy.cards import parse_cards
    >>> drawn = [int(c) for c in parse_cards("KC KD AC 2C 3C")]
    >>> known = mask_of(parse_cards("9S"))
    >>> [str(c) for c in cards_of_mask(mask_of(_chosen(drawn, 3, known, False)))]
    ['AC', '2C', '3C']
    >>> [str(c) for c in cards_of_mask(mask_of(_chosen(drawn, 3, 0, False)))]  # A♣ 2♣ 3♣ is gin
    ['AC', '2C', 'KC']
    """
    held = drawn[:unknown]
    for card in drawn[unknown:]:
        hand = known | sum(1 << c for c in held) | 1 << card
        left = {d: deadwood_mask(hand & ~(1 << d), ace_high) for d in (*held, card)}
        drop = min(left, key=lambda d: (left[d], -d))
        if left[drop] == 0:
            continue
        held.append(card)
        held.remove(drop)
    return held
