"""Play-outs of the rest of a hand: how each candidate throw tends to end.

The determinized search over the throw. The other hand is dealt from what
the player believes (:func:`~ginrummy.bots._reading.sample_opponent`), the
rest of the unseen cards are shuffled into the stock, and the hand is played
to its end from each candidate throw by two quick players: each takes the
pile card when it melds, draws from the stock otherwise, and throws the card
that leaves the least deadwood (the dearest among equals). Every candidate
meets the same dealt hands and the same stock (common random numbers), so a
difference between two throws is the difference the throw makes, not luck.

What a play-out can see that the one-draw look-ahead cannot: a throw that
the other hand melds is taken and shortens its way to gin; a hand kept for
a run needs two or three more draws, not one; and who gets there first.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ginrummy import melds
from ginrummy.bots._common import bits
from ginrummy.bots._lookahead import NEAR
from ginrummy.bots._reading import Fits, Reading, sample_opponent
from ginrummy.cards import CARD_POINTS, Bitmask
from ginrummy.hand import DEAD_AT

__all__ = [
    "OUTS_SLACK",
    "Playout",
    "knocks_with",
    "least_throw",
    "outs",
    "outs_throw",
    "throw_by",
    "throw_outcomes",
]


@dataclass(frozen=True, slots=True)
class Playout:
    """How the two quick players of a play-out knock.

    ``my_knock_turns`` and ``their_knock_turns``: up to that turn of its own
    (counted from the start of the hand) a player knocks as soon as it may;
    after it, only for gin (``their_knock_turns`` very large: a player who
    knocks at once).
    """

    knock_limit: int
    gin_bonus: int
    undercut_bonus: int
    my_turns: int
    their_turns: int
    my_knock_turns: int
    their_knock_turns: int
    ace_high: bool
    layoffs: bool = False
    """Whether a knock's defender lays off on the knocker's melds (the knocker's
    least-deadwood arrangement); without, a knock is scored on the two raw deadwoods."""
    my_outs: float = 0.0
    their_outs: float = 0.0
    """How each quick player weighs the draws that would meld against the deadwood a throw
    leaves (:func:`outs_throw`): each such draw is worth ``weight * 0.9^(turn-1)`` points
    of deadwood. 0: the card that leaves the least deadwood."""
    their_knock_takes: bool = False
    """Whether the other player, in a turn it may knock in, also takes a pile card that
    melds nothing when taking it lets it knock at once (OpenSpiel's simple bot does: a
    low card thrown beside a hand just above the knock limit ends the hand)."""


def _knock_points(knocker: Bitmask, dead: int, defender: Bitmask, rules: Playout) -> float:
    """The points of a knock with ``dead`` points (not gin), for the knocker."""
    ace_high = rules.ace_high
    theirs = melds.deadwood_mask(defender, ace_high)
    if rules.layoffs:
        laid_out = melds.best_meld_masks(knocker, ace_high)
        if laid_out:
            theirs = melds.layoff_deadwood_mask(laid_out, defender, ace_high)
    if theirs > dead:
        return float(theirs - dead)
    return -float(dead - theirs + rules.undercut_bonus)


_ORDER = tuple(sorted(range(52), key=lambda c: (-CARD_POINTS[c], -c)))
"""Every card, dearest first (among equals the higher index: the later suit first, a
ten of spades before a king of clubs).

Ties broken by rank instead (a king before a ten, as OpenSpiel's bot throws: the
quick throw then matched 91% of its throws, 80% by suit) measured in the round of
2026-12-07 "the play-outs' quick throw breaks ties by rank": +0.2 points of win share
(-0.7 to +1.1) against OpenSpiel's bot over 3,000 matches (-0.2 on fresh seeds 968701
to 969200), -0.8 (-2.8 to +1.2) against the camper on tuning seeds 8751 to 9250,
paired; not kept (docs/strength/ROUNDS.md)."""


PLAYOUT_CACHE = 1 << 14
"""How many answers each quick player's rule keeps. The throws weighed by play-outs
meet the same dealt hands and stocks, so the other player often holds the same eleven
cards in several of them (about a third of its throws and pile choices repeat), all
within one decision: the caches hold a few decisions' worth."""


@lru_cache(maxsize=PLAYOUT_CACHE)
def least_throw(hand: Bitmask, locked: int, ace_high: bool) -> tuple[int, int]:
    """The card to throw from eleven (never ``locked``) and the deadwood it leaves:
    of the throws that leave the least, the dearest."""
    without = melds.deadwood_without_mask(hand, ace_high)
    if locked < 0:
        least = melds.deadwood_after_discard_mask(hand, ace_high)
        for c in _ORDER:
            if hand >> c & 1 and without(c) == least:
                return c, least
    best_card, best = -1, 1 << 30
    for c in _ORDER:
        if not hand >> c & 1 or c == locked:
            continue
        left = without(c)
        if left < best:
            best_card, best = c, left
    return best_card, best


_ROW = (1 << 13) - 1
OUTS_SLACK = 3
"""With a weight on the outs: throws leaving more than this many points above the least
deadwood are not considered."""
OUTS_DECAY = 0.9
"""With a weight on the outs: how much less an out counts with each turn of the player's."""


def outs(hand: Bitmask) -> int:
    """How many cards not in ``hand`` would join a meld with two or more of its cards: the
    third and fourth of a rank it holds twice or more, and the cards at either end of two
    suited neighbours or between two cards one apart (aces low; the cards already played
    count too: a quick player does not track the pile)."""
    rows = [hand >> (13 * s) & _ROW for s in range(4)]
    r0, r1, r2, r3 = rows
    pairs = (r0 & r1) | (r0 & r2) | (r0 & r3) | (r1 & r2) | (r1 & r3) | (r2 & r3)
    count = 0
    for row in rows:
        runs = (row << 1 & row << 2) | (row >> 1 & row >> 2) | (row << 1 & row >> 1)
        count += ((pairs | runs) & ~row & _ROW).bit_count()
    return count


def throw_by(
    hand: Bitmask, locked: int, ace_high: bool, slack: int, extra: Callable[[Bitmask], float]
) -> tuple[int, int]:
    """The card to throw from eleven (never ``locked``) and the deadwood it leaves: of the
    throws within ``slack`` points of the least deadwood, the one whose deadwood plus
    ``extra`` of the ten cards kept is least (the dearest among equals)."""
    deadwood = melds.deadwood_mask
    left = {
        c: deadwood(hand & ~(1 << c), ace_high) for c in _ORDER if hand >> c & 1 and c != locked
    }
    least = min(left.values())
    best_card, best = -1, float("inf")
    for c, dead in left.items():  # dearest first, so the dearest wins a tie
        if dead > least + slack:
            continue
        value = dead + extra(hand & ~(1 << c))
        if value < best:
            best_card, best = c, value
    return best_card, left[best_card]


def outs_throw(
    hand: Bitmask, locked: int, ace_high: bool, weight: float, turn: int = 1
) -> tuple[int, int]:
    """The card to throw from eleven (never ``locked``) and the deadwood it leaves, for a
    quick player chasing gin in its ``turn``-th turn: of the throws within
    :data:`OUTS_SLACK` points of the least deadwood, the one that leaves the least
    deadwood less ``weight * OUTS_DECAY^(turn-1)`` per out (then the dearest)."""
    weight *= OUTS_DECAY ** (turn - 1)
    return throw_by(hand, locked, ace_high, OUTS_SLACK, lambda kept: -weight * outs(kept))


@lru_cache(maxsize=PLAYOUT_CACHE)
def _melds_with(hand: Bitmask, top: int, now: int, ace_high: bool) -> bool:
    """Whether ``top`` joins a meld of ``hand`` and lowers its deadwood (the pile rule
    of the simple players)."""
    if not hand & NEAR[ace_high][top]:
        return False
    with_top = melds.deadwood_after_discard_mask(hand | 1 << top, ace_high)
    if with_top >= now:
        return False
    # Kept as deadwood instead, the card would cost its points: a real meld does better.
    without = melds.deadwood_without_mask(hand, ace_high)
    best_nine = min([without(d) for d in bits(hand)])
    return with_top < best_nine + CARD_POINTS[top]


def knocks_with(hand: Bitmask, top: int, now: int, limit: int, ace_high: bool) -> bool:
    """Whether taking ``top`` (which it may not throw back) lets ``hand``, now at ``now``
    points of deadwood, knock within ``limit`` at once. Exact for a card that melds
    nothing (the quick check below); a card that melds is the pile rule's to judge."""
    # Unmelded, the card adds its points and a throw takes off at most ten.
    if now + CARD_POINTS[top] - 10 > limit:
        return False
    return least_throw(hand | 1 << top, top, ace_high)[1] <= limit


def _play(mine: Bitmask, theirs: Bitmask, top: int, stock: list[int], rules: Playout) -> float:
    """The points the hand ends with, for me (negative when the other player scores),
    with the other player to draw and ``top`` on the pile."""
    ace_high = rules.ace_high
    hands = [mine, theirs]
    turns = [rules.my_turns, rules.their_turns]
    knock_turns = (rules.my_knock_turns, rules.their_knock_turns)
    outs_weights = (rules.my_outs, rules.their_outs)
    now = [melds.deadwood_mask(mine, ace_high), melds.deadwood_mask(theirs, ace_high)]
    left = len(stock)
    player = 1
    while True:
        hand = hands[player]
        locked = -1
        if top >= 0 and (
            _melds_with(hand, top, now[player], ace_high)
            or (
                player == 1
                and rules.their_knock_takes
                and (turns[player] < knock_turns[player] or left <= DEAD_AT)
                and knocks_with(hand, top, now[player], rules.knock_limit, ace_high)
            )
        ):
            hand |= 1 << top
            locked = top
        else:
            if left <= DEAD_AT:
                return 0.0
            left -= 1
            hand |= 1 << stock[left]
        turns[player] += 1
        weight = outs_weights[player]
        if weight:
            card, dead = outs_throw(hand, locked, ace_high, weight, turns[player])
        else:
            card, dead = least_throw(hand, locked, ace_high)
        hand &= ~(1 << card)
        hands[player] = hand
        now[player] = dead
        knocks = dead == 0 or (
            dead <= rules.knock_limit and (turns[player] <= knock_turns[player] or left <= DEAD_AT)
        )
        if knocks:
            other = hands[1 - player]
            if dead == 0:
                points = float(rules.gin_bonus + melds.deadwood_mask(other, ace_high))
            else:
                points = _knock_points(hand, dead, other, rules)
            return points if player == 0 else -points
        if left <= DEAD_AT:
            return 0.0
        top = card
        player = 1 - player


def throw_outcomes(
    reading: Reading,
    hand: Bitmask,
    throws: list[int],
    rng: random.Random,
    rules: Playout,
    samples: int,
    extra: int,
    fits: Fits | None = None,
) -> dict[int, float]:
    """For each card of ``throws`` (each a legal throw from the eleven cards of
    ``hand``), the mean points the hand ends with after it, over ``samples``
    dealt hands and stocks shared by all the throws (the other hand dealt with
    ``fits`` as :func:`~ginrummy.bots._reading.sample_opponent` takes it)."""
    totals = dict.fromkeys(throws, 0.0)
    for _ in range(samples):
        theirs = sample_opponent(reading, rng, extra, fits)
        rest = bits(reading.unseen & ~theirs)
        rng.shuffle(rest)
        stock = rest[: reading.stock_count]
        for c in throws:
            totals[c] += _play(hand & ~(1 << c), theirs, c, stock, rules)
    return {c: total / samples for c, total in totals.items()}
