"""Reading the table: which cards are live, what the other hand holds, how safe a throw is.

Everything here starts from a :class:`~ginrummy.hand.PlayerView` and the
public record of the hand, so it knows exactly what a player at the table
knows. The other player's hand is described by a probability per card:
cards they took from the pile are certain; every card not yet seen gets a
weight that their pickups raise and their passes and throws lower (a player
who threw the 7♥ or let it go by is unlikely to collect the 6♥ and the 8♥).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ginrummy.bots._common import (
    ALL_CARDS,
    PublicRecord,
    bits,
    read_record,
)
from ginrummy.cards import CARD_POINTS, Bitmask, mask_of
from ginrummy.hand import PlayerView
from ginrummy.melds import deadwood_after_discard_mask, deadwood_without_mask, lay_off_spots

__all__ = [
    "Fits",
    "Reading",
    "card_weights",
    "danger",
    "dealt_danger",
    "lay_off_exposure",
    "melds_with_two",
    "read_table",
    "sample_opponent",
]

# How much one public act changes the weight of each card that could share a
# meld with the card concerned: same rank, suit neighbour, suit neighbour but one.
_TOOK = (2.2, 2.0, 1.4)
_PASSED = (0.55, 0.6, 0.8)
_THREW = (0.6, 0.7, 0.85)


def _relation(a: int, b: int) -> int:
    """0 same rank, 1 suit neighbour, 2 suit neighbour but one, -1 unrelated."""
    if a % 13 == b % 13:
        return 0 if a != b else -1
    if a // 13 != b // 13:
        return -1
    gap = abs(a % 13 - b % 13)
    return gap if gap <= 2 else -1


def card_weights(view: PlayerView) -> dict[int, float]:
    """For each card ``view.player`` has not seen, how likely the other hand holds it (relative).

    The same factors as :func:`read_table`: every unseen card starts at 1, and
    each card the other player took, let go by or threw multiplies the weight
    of the cards that could meld with it.

    >>> from ginrummy.hand import Hand
    >>> weights = card_weights(Hand.from_seed(5, dealer=0).view(1))
    >>> len(weights), set(weights.values())
    (41, {1.0})
    """
    record = read_record(view)
    cards = bits(_unseen(view, record))
    weight = _weights(cards, record)
    return {c: weight[c] for c in cards}


def _unseen(view: PlayerView, record: PublicRecord) -> Bitmask:
    """The cards in the other hand or the stock, nobody knows which: neither in
    ``view.player``'s hand, nor on the pile, nor taken from it by the other player."""
    return ALL_CARDS & ~mask_of(view.hand) & ~mask_of(view.opponent_pile_cards) & ~record.pile_mask


def _weights(cards: list[int], record: PublicRecord | None) -> list[float]:
    """By card index, the weight of each of ``cards`` after the other player's acts
    in ``record`` (all 1 without one; 0 for the other cards)."""
    weight = [0.0] * 52
    for c in cards:
        weight[c] = 1.0
    if record is None:
        return weight
    for acts, factors in (
        (record.opp_took, _TOOK),
        (record.opp_passed, _PASSED),
        (record.opp_threw, _THREW),
    ):
        for x in acts:
            for c in cards:
                r = _relation(x, c)
                if r >= 0:
                    weight[c] *= factors[r]
    return weight


@dataclass(slots=True)
class Reading:
    """What is known and believed about the cards at one point of a hand."""

    mine: Bitmask
    known_opp: Bitmask
    """Cards the other player took from the pile and still holds."""
    pile: Bitmask
    unseen: Bitmask
    """Cards in the other hand or the stock, nobody knows which."""
    opp_unknown: int
    """How many of the other player's cards are not known."""
    p_opp: list[float]
    """For each card, the chance it is in the other hand (1 for known cards)."""
    stock_count: int
    ace_high: bool
    live: tuple[tuple[int, float], ...] = ()
    """Each unseen card with its chance to be in the stock."""
    _keys: list[tuple[int, float]] | None = field(default=None, repr=False, compare=False)
    """Each unseen card with the exponent of its sampling key (see :func:`_one_guess`),
    made at the first guess: a decision deals hundreds of guesses from one reading."""

    def p_live(self, card: int) -> float:
        """The chance ``card`` is still to come from the stock."""
        if not self.unseen >> card & 1:
            return 0.0
        return 1.0 - self.p_opp[card]


def read_table(view: PlayerView, record: PublicRecord, *, infer: bool = True) -> Reading:
    """Track every card seen and weigh the rest by the other player's acts.

    With ``infer`` off every unseen card is equally likely to be in the other hand.
    """
    mine = mask_of(view.hand)
    known = mask_of(view.opponent_pile_cards)
    pile = record.pile_mask
    unseen = _unseen(view, record)
    opp_unknown = max(0, view.opponent_card_count - known.bit_count())
    cards = bits(unseen)
    weight = _weights(cards, record if infer else None)
    p = [0.0] * 52
    for c in bits(known):
        p[c] = 1.0
    _spread(p, weight, cards, opp_unknown)
    live = tuple((c, 1.0 - p[c]) for c in cards)
    return Reading(
        mine=mine,
        known_opp=known,
        pile=pile,
        unseen=unseen,
        opp_unknown=opp_unknown,
        p_opp=p,
        stock_count=view.stock_count,
        ace_high=view.settings.ace_high,
        live=live,
    )


def _spread(p: list[float], weight: list[float], cards: list[int], count: int) -> None:
    """Scale weights to probabilities summing to ``count``, none above 0.97."""
    free = list(cards)
    left = float(count)
    for _ in range(4):
        total = sum(weight[c] for c in free)
        if total <= 0 or left <= 0:
            break
        capped = []
        for c in free:
            p[c] = weight[c] * left / total
            if p[c] > 0.97:
                capped.append(c)
        if not capped:
            return
        for c in capped:
            p[c] = 0.97
            left -= 0.97
            free.remove(c)


def _has(reading: Reading, card: int) -> float:
    """The chance the other hand holds ``card``."""
    if not 0 <= card < 52:
        return 0.0
    return reading.p_opp[card]


def danger(reading: Reading, card: int) -> float:
    """The chance that throwing ``card`` gives the other hand a meld or a longer one
    (from each card's own chance to be there, as if they were independent)."""
    return _meld_chance(lambda c: _has(reading, c), card, reading.ace_high)


def dealt_danger(guesses: list[Bitmask], cards: list[int], ace_high: bool) -> dict[int, float]:
    """For each of ``cards``, the share of the dealt ``guesses`` at the other hand
    that the card would give a meld or a longer one.

    Unlike :func:`danger` this keeps what the guesses know together: a dealt hand
    that fits the other player's play holds its pairs and runs, not cards chosen
    one at a time.
    """
    shares = dict.fromkeys(cards, 0.0)
    if not guesses:
        return shares
    for guess in guesses:
        for c in cards:
            shares[c] += melds_with_two(guess, c, ace_high)
    return {c: total / len(guesses) for c, total in shares.items()}


def melds_with_two(hand: Bitmask, card: int, ace_high: bool) -> bool:
    """Whether ``card`` forms a meld with two cards of ``hand``."""
    return _meld_chance(lambda c: float(hand >> c & 1), card, ace_high) > 0.0


def _meld_chance(has: Callable[[int], float], card: int, ace_high: bool) -> float:
    """The chance ``card`` melds with two cards of a hand that holds each card ``c``
    with the chance ``has(c)`` (1 or 0 for a known hand)."""
    rank, suit = card % 13, card // 13
    # A set: two of the three other cards of the rank.
    a, b, c = (has(s * 13 + rank) for s in range(4) if s != suit)
    p_set = a * b + a * c + b * c - 2 * a * b * c
    miss = 1.0 - p_set
    top = 13 if ace_high else 12

    def at(r: int) -> float:
        if r == 13:
            return has(suit * 13) if top == 13 else 0.0
        return has(suit * 13 + r) if 0 <= r <= 12 else 0.0

    for lo, hi in ((rank - 2, rank - 1), (rank - 1, rank + 1), (rank + 1, rank + 2)):
        miss *= 1.0 - at(lo) * at(hi)
    if rank == 0 and top == 13:
        miss *= 1.0 - at(12) * at(11)
    return 1.0 - miss


def lay_off_exposure(reading: Reading, meld_masks: tuple[Bitmask, ...]) -> float:
    """Expected points the other hand could lay off on these melds (one step out)."""
    total = 0.0
    taken = 0
    for spot in lay_off_spots(meld_masks, ace_high=reading.ace_high):
        for chain in spot.chains:
            c = chain[0] if chain else None
            if c is not None and not taken >> c & 1:
                total += _has(reading, c) * CARD_POINTS[c]
                taken |= 1 << c
    return total


FIT_TRIES = 12
"""How many guesses :func:`sample_opponent` makes at most when it weighs them."""

Fits = Callable[[Bitmask], float]
"""How well a guess at the other hand fits the other player's play (0 to 1)."""


def sample_opponent(
    reading: Reading,
    rng: random.Random,
    extra: int = 0,
    fits: Fits | None = None,
) -> Bitmask:
    """One guess at the whole other hand, drawn from the card probabilities.

    With ``extra`` > 0 the guess models a player who has been choosing: it
    deals ``extra`` more cards and lets the hand throw away the ones that
    help it least, so the hand is as tidy as a player's hand after some turns.
    With ``fits``, a guess is kept with the chance ``fits`` gives it (what the
    other player did makes some hands unlikely) and otherwise dealt again, up
    to :data:`FIT_TRIES` guesses (the last one stands).
    """
    hand = _one_guess(reading, rng, extra)
    if fits is None:
        return hand
    for _ in range(FIT_TRIES - 1):
        chance = fits(hand)
        if chance >= 1.0 or (chance > 0.0 and rng.random() < chance):
            break
        hand = _one_guess(reading, rng, extra)
    return hand


def _one_guess(reading: Reading, rng: random.Random, extra: int) -> Bitmask:
    hand = reading.known_opp
    keys = reading._keys
    if keys is None:
        keys = reading._keys = [(c, 1.0 / (reading.p_opp[c] + 1e-6)) for c in bits(reading.unseen)]
    need = min(len(keys), reading.opp_unknown + extra)
    # Weighted sampling without replacement (Efraimidis-Spirakis keys: u^(1/weight)).
    keyed = sorted([(rng.random() ** exponent, c) for c, exponent in keys])
    chosen = [c for _, c in keyed[len(keyed) - need :]] if need else []
    for c in chosen[: reading.opp_unknown]:
        hand |= 1 << c
    # Each further card is drawn and the least useful unknown card thrown away (the
    # highest card among equals): the scan from the highest card stops at a card
    # that leaves the least any throw of the eleven can leave.
    ace_high = reading.ace_high
    for c in chosen[reading.opp_unknown :]:
        hand |= 1 << c
        without = deadwood_without_mask(hand, ace_high)
        floor = deadwood_after_discard_mask(hand, ace_high) if hand.bit_count() == 11 else -1
        drop, least = -1, 1 << 10
        for d in reversed(bits(hand & ~reading.known_opp)):
            left = without(d)
            if left < least:
                drop, least = d, left
                if left == floor:
                    break
        hand &= ~(1 << drop)
    return hand
