"""The one-draw look-ahead: how good a ten-card hand is one draw from now.

MARJJ's idea: draw each card that may come, throw the best card of the
eleven, and average the best few deadwoods so reached. Most unseen cards
share no meld with the hand; for those the answer needs no search (the drawn
card is deadwood in every arrangement), which keeps the look-ahead cheap.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from ginrummy import melds
from ginrummy.bots._common import bits
from ginrummy.cards import CARD_POINTS, Bitmask

__all__ = [
    "NEAR",
    "after_draws",
    "future_deadwood",
    "two_draw_future",
    "weighted_future_deadwood",
]


def _near_masks(ace_high: bool) -> tuple[Bitmask, ...]:
    """For each card, the cards that can share a meld with it: its rank, its suit within two."""
    out = []
    for c in range(52):
        rank, suit = c % 13, c // 13
        near = 0
        for s in range(4):
            near |= 1 << (s * 13 + rank)
        for r in (rank - 2, rank - 1, rank + 1, rank + 2):
            if 0 <= r < 13:
                near |= 1 << (suit * 13 + r)
        if ace_high and rank == 0:
            near |= 1 << (suit * 13 + 11) | 1 << (suit * 13 + 12)  # Q-K-A
        if ace_high and rank in (11, 12):
            near |= 1 << (suit * 13)
        out.append(near & ~(1 << c))
    return tuple(out)


NEAR = {False: _near_masks(False), True: _near_masks(True)}
"""By ``ace_high``: for each card, the cards that can share a meld with it."""


def after_draws(hand: Bitmask, cards: Iterable[int], ace_high: bool) -> list[int]:
    """For each card of ``cards``: the least deadwood of ``hand`` after drawing it and
    throwing the best card of the eleven."""
    after = melds.deadwood_after_discard_mask
    deadwood = melds.deadwood_mask
    near = NEAR[ace_high]
    related = 0
    for c in bits(hand):
        related |= near[c]
    now: int | None = None
    best_nine = 0
    out = []
    for u in cards:
        if related >> u & 1:
            out.append(after(hand | 1 << u, ace_high))
            continue
        # The drawn card melds with nothing: keep the hand, or keep the card
        # (as deadwood) and throw the hand's best throw.
        if now is None:
            now = deadwood(hand, ace_high)
            best_nine = min(deadwood(hand & ~(1 << d), ace_high) for d in bits(hand))
        out.append(min(now, best_nine + CARD_POINTS[u]))
    return out


def future_deadwood(kept: Bitmask, unseen: Bitmask, ace_high: bool, best: int = 7) -> float:
    """The mean of the ``best`` least deadwoods of ``kept`` after one draw from ``unseen``.

    >>> from ginrummy import CardSet
    >>> hand = CardSet.parse("AS 2S 3S 7H 7D 7C 9S TS KC KD").mask
    >>> future_deadwood(hand, CardSet.parse("JS 8S 7S 2C").mask, False, best=2)
    10.0
    """
    values = after_draws(kept, bits(unseen), ace_high)
    if not values:
        return float(melds.deadwood_mask(kept, ace_high))
    low = heapq.nsmallest(best, values)
    return sum(low) / len(low)


def weighted_future_deadwood(
    kept: Bitmask, live: Iterable[tuple[int, float]], ace_high: bool, best: float
) -> float:
    """As :func:`future_deadwood`, each card counting by its chance to come (0 to 1),
    averaging the best draws until ``best`` cards' worth of chance is counted."""
    cards = list(live)
    values = after_draws(kept, (c for c, _ in cards), ace_high)
    drawn = [(float(v), w) for v, (_, w) in zip(values, cards, strict=True)]
    mean = _best_draws(drawn, best)
    return float(melds.deadwood_mask(kept, ace_high)) if mean is None else mean


def _best_draws(values: list[tuple[float, float]], best: float) -> float | None:
    """The mean of the lowest ``values`` (value, chance) until ``best`` cards' worth of
    chance is counted; ``None`` when nothing may come."""
    total = weight = 0.0
    for value, chance in sorted(values):
        take = min(chance, best - weight)
        if take <= 0:
            break
        total += value * take
        weight += take
    return total / weight if weight > 0 else None


def two_draw_future(
    kept: Bitmask, live: Iterable[tuple[int, float]], ace_high: bool, best: float, throws: int = 3
) -> float:
    """The look-ahead two draws deep: for each card that may come, the hand after drawing
    it and throwing the card (of the ``throws`` leaving the least deadwood) whose hand
    is best one draw further on (:func:`weighted_future_deadwood`); the best draws
    averaged as there.

    A drawn card that shares no meld with the hand is thrown back: its hand is the
    one kept now. One draw ahead, the hand below reaches 9.5 at best (the mean of its
    two best draws); two draws ahead, 3 (the two best first draws, each followed by
    its best throw and then its best draws).

    >>> from ginrummy import CardSet
    >>> hand = CardSet.parse("AS 2S 3S 7H 7D 7C 9S TS KC KD").mask
    >>> live = [(int(c), 1.0) for c in CardSet.parse("JS 8S KH QC")]
    >>> weighted_future_deadwood(hand, live, False, best=2)
    9.5
    >>> two_draw_future(hand, live, False, best=2)
    3.0
    """
    cards = list(live)
    near = NEAR[ace_high]
    related = 0
    for c in bits(kept):
        related |= near[c]
    deadwood = melds.deadwood_mask
    here: float | None = None
    values: list[tuple[float, float]] = []
    for u, chance in cards:
        if not related >> u & 1:
            if here is None:
                here = weighted_future_deadwood(kept, cards, ace_high, best)
            values.append((here, chance))
            continue
        eleven = kept | 1 << u
        rest = [(c, cc) for c, cc in cards if c != u]
        left = sorted((deadwood(eleven & ~(1 << t), ace_high), t) for t in bits(eleven))
        value = min(
            weighted_future_deadwood(eleven & ~(1 << t), rest, ace_high, best)
            for _, t in left[:throws]
        )
        values.append((value, chance))
    mean = _best_draws(values, best)
    return float(deadwood(kept, ace_high)) if mean is None else mean
