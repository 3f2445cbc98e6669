"""Melds, deadwood and lay-offs: the combinatorics of Gin Rummy.

Everything here works on bitmasks (see :mod:`ginrummy.cards`) and knows
nothing of turns or players. The hand state machine, the bots and the web app
all call these functions, so there is one answer to "what is this hand worth".

>>> from ginrummy import parse_cards, best_arrangement
>>> a = best_arrangement(parse_cards("AS 2S 3S 7H 7D 7C KD 9C"))
>>> [format_cards(m) for m in a.melds], format_cards(a.deadwood), a.deadwood_points
(['7C 7D 7H', 'AS 2S 3S'], '9C KD', 19)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ginrummy.cards import FULL_DECK, Bitmask, Card, CardSet, format_cards

__all__ = [
    "Arrangement",
    "LayOff",
    "LayOffResult",
    "Meld",
    "all_best_arrangements",
    "best_arrangement",
    "best_layoff",
    "deadwood",
    "deadwood_after_discard",
    "is_meld",
    "knock_options",
    "melds_in",
    "mask_of",
]

Meld = tuple[Card, ...]
"""A meld's cards, in rank order (a run) or suit order (a set)."""

_SUIT_MASK = 0x1FFF
_POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def mask_of(cards: CardSet | Iterable[int]) -> Bitmask:
    """The bitmask of a CardSet or of any iterable of distinct cards."""
    if isinstance(cards, CardSet):
        return cards.mask
    mask = 0
    for c in cards:
        if not 0 <= c < 52:
            raise ValueError(f"a card is a number from 0 to 51, not {c}")
        bit = 1 << c
        if mask & bit:
            raise ValueError(f"card {FULL_DECK[c]} appears twice")
        mask |= bit
    return mask


def _mask_points(mask: Bitmask) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += _POINTS[(low.bit_length() - 1) % 13]
        mask ^= low
    return total


def _cards(mask: Bitmask) -> tuple[Card, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(FULL_DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _meld_cards(mask: Bitmask) -> Meld:
    """A meld's cards in play order: a run low to high (ace high last), a set by suit."""
    cards = _cards(mask)
    suits = {c.suit for c in cards}
    if len(suits) == 1:
        ranks = [c.rank for c in cards]
        if 0 in ranks and 12 in ranks:  # ace-high run: the ace goes on top
            return tuple(sorted(cards, key=lambda c: c.rank or 13))
        return tuple(sorted(cards, key=lambda c: c.rank))
    return cards


@lru_cache(maxsize=None)
def _suit_runs(bits: int, ace_high: bool) -> tuple[int, ...]:
    """All runs (as 13-bit rank masks) within one suit's 13-bit rank mask."""
    runs = []
    for start in range(11):
        if not bits >> start & 1:
            continue
        run = 1 << start
        for rank in range(start + 1, 13):
            if not bits >> rank & 1:
                break
            run |= 1 << rank
            if rank - start >= 2:
                runs.append(run)
    if ace_high and bits & 1 and bits >> 12 & 1 and bits >> 11 & 1:
        run = 1 | 1 << 12 | 1 << 11
        runs.append(run)
        for rank in range(10, 0, -1):
            if not bits >> rank & 1:
                break
            run |= 1 << rank
            runs.append(run)
    return tuple(runs)


def melds_in(cards: CardSet | Iterable[int], *, ace_high: bool = False) -> list[Bitmask]:
    """Every meld (run or set, as a bitmask) that can be made from ``cards``."""
    mask = mask_of(cards)
    return _melds(mask, ace_high)


def _melds(mask: Bitmask, ace_high: bool) -> list[Bitmask]:
    melds: list[Bitmask] = []
    for suit in range(4):
        shift = 13 * suit
        bits = mask >> shift & _SUIT_MASK
        if bits:
            melds.extend(run << shift for run in _suit_runs(bits, ace_high))
    for rank in range(13):
        present = [1 << (s * 13 + rank) for s in range(4) if mask >> (s * 13 + rank) & 1]
        if len(present) >= 3:
            whole = sum(present)
            if len(present) == 4:
                melds.append(whole)
                melds.extend(whole ^ bit for bit in present)
            else:
                melds.append(whole)
    return melds


def is_meld(cards: CardSet | Iterable[int], *, ace_high: bool = False) -> bool:
    """Whether ``cards`` form one run or one set.

    >>> from ginrummy import parse_cards
    >>> is_meld(parse_cards("QS KS AS")), is_meld(parse_cards("QS KS AS"), ace_high=True)
    (False, True)
    """
    mask = mask_of(cards)
    return mask in _melds(mask, ace_high)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand laid out as melds and deadwood.

    ``melds`` are listed in a fixed order (by their lowest card), each meld's
    cards in play order; ``deadwood`` is in card order.
    """

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int

    @property
    def meld_masks(self) -> tuple[Bitmask, ...]:
        """Each meld as a bitmask, in the order of :attr:`melds`."""
        return tuple(mask_of(m) for m in self.melds)

    def __str__(self) -> str:
        melds = " | ".join(format_cards(m) for m in self.melds)
        return f"[{melds}] deadwood {format_cards(self.deadwood) or '-'} ({self.deadwood_points})"


def _arrangement(meld_masks: Sequence[Bitmask], hand: Bitmask) -> Arrangement:
    melded = 0
    for m in meld_masks:
        melded |= m
    ordered = sorted(meld_masks, key=lambda m: (m & -m, m))
    dead = hand & ~melded
    return Arrangement(
        melds=tuple(_meld_cards(m) for m in ordered),
        deadwood=_cards(dead),
        deadwood_points=_mask_points(dead),
    )


def _tie_key(meld_masks: Sequence[Bitmask], hand: Bitmask) -> tuple[int, int, int, tuple[int, ...]]:
    melded = 0
    for m in meld_masks:
        melded |= m
    dead = hand & ~melded
    return (_mask_points(dead), dead.bit_count(), dead, tuple(sorted(meld_masks)))


def _all_arrangements(hand: Bitmask, ace_high: bool) -> list[list[Bitmask]]:
    """Every way to pick disjoint melds from the hand (including none)."""
    melds = _melds(hand, ace_high)
    out: list[list[Bitmask]] = []

    def walk(start: int, used: Bitmask, chosen: list[Bitmask]) -> None:
        out.append(list(chosen))
        for i in range(start, len(melds)):
            m = melds[i]
            if not m & used:
                chosen.append(m)
                walk(i + 1, used | m, chosen)
                chosen.pop()

    walk(0, 0, [])
    return out


def _check_size(hand: Bitmask, most: int = 11) -> None:
    if hand.bit_count() > most:
        raise ValueError(f"a hand has at most {most} cards, not {hand.bit_count()}")


def all_best_arrangements(
    cards: CardSet | Iterable[int], *, ace_high: bool = False
) -> list[Arrangement]:
    """Every arrangement with the least deadwood count, the preferred one first.

    The knocker may choose among these (the choice matters for lay-offs).
    """
    hand = mask_of(cards)
    _check_size(hand)
    choices = _all_arrangements(hand, ace_high)
    keyed = sorted((_tie_key(c, hand), c) for c in choices)
    least = keyed[0][0][0]
    seen: set[Bitmask] = set()
    result = []
    for key, chosen in keyed:
        if key[0] != least:
            break
        # Two choices that meld the same cards differently are both kept; the
        # same melds found twice are not.
        ident = hash(tuple(sorted(chosen)))
        if ident in seen:
            continue
        seen.add(ident)
        result.append(_arrangement(chosen, hand))
    return result


def best_arrangement(cards: CardSet | Iterable[int], *, ace_high: bool = False) -> Arrangement:
    """The arrangement of 0 to 11 distinct cards with the least deadwood count.

    Ties are broken by a fixed rule, so a hand is always laid out the same way:
    fewest deadwood points, then fewest deadwood cards, then the deadwood
    whose cards are lowest in card order (clubs, diamonds, hearts, spades;
    ace to king within a suit, compared as a 52-bit number), then the melds
    compared the same way.

    >>> from ginrummy import parse_cards
    >>> best_arrangement(parse_cards("QS KS AS")).deadwood_points
    21
    >>> best_arrangement(parse_cards("QS KS AS"), ace_high=True).deadwood_points
    0
    """
    return all_best_arrangements(cards, ace_high=ace_high)[0]


def deadwood(hand: CardSet | Iterable[int], *, ace_high: bool = False) -> int:
    """The least deadwood count of a hand of 0 to 11 cards.

    >>> from ginrummy import CardSet
    >>> deadwood(CardSet.parse("AS 2S 3S 4S 5C 5D 5H KC KD 9H"))
    29
    """
    mask = mask_of(hand)
    _check_size(mask)
    return _min_deadwood(mask, ace_high)


def _min_deadwood(hand: Bitmask, ace_high: bool) -> int:
    melds = _melds(hand, ace_high)
    best = _mask_points(hand)

    def walk(start: int, free: Bitmask) -> None:
        nonlocal best
        pts = _mask_points(free)
        if pts < best:
            best = pts
        for i in range(start, len(melds)):
            m = melds[i]
            if m & free == m:
                walk(i + 1, free & ~m)

    walk(0, hand)
    return best


def knock_options(hand: CardSet | Iterable[int], *, ace_high: bool = False) -> dict[Card, int]:
    """For an 11-card hand: each possible discard and the deadwood left after it.

    >>> from ginrummy import CardSet
    >>> opts = knock_options(CardSet.parse("AS AD AH 2S 2D 2C 2H 3H 4S 4D 4C"))
    >>> min(opts.values()), [str(c) for c, d in opts.items() if d == 0]
    (0, ['3H'])
    """
    mask = mask_of(hand)
    if mask.bit_count() != 11:
        raise ValueError(f"knock options are for an 11-card hand, not {mask.bit_count()} cards")
    return {c: _min_deadwood(mask & ~(1 << c), ace_high) for c in _cards(mask)}


def deadwood_after_discard(hand: CardSet | Iterable[int], *, ace_high: bool = False) -> int:
    """For an 11-card hand: the least deadwood left after the best discard."""
    return min(knock_options(hand, ace_high=ace_high).values())


@dataclass(frozen=True, slots=True)
class LayOff:
    """One defender card laid off onto the knocker's meld at ``meld_index``."""

    card: Card
    meld_index: int


@dataclass(frozen=True, slots=True)
class LayOffResult:
    """The defender's best answer to a knock: own melds, lay-offs, what is left."""

    melds: tuple[Meld, ...]
    lay_offs: tuple[LayOff, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int


def _run_span(meld: Bitmask) -> tuple[int, int, int] | None:
    """For a run: (suit, lowest rank, highest rank) with an ace-high ace as 13."""
    cards = _cards(meld)
    suit = cards[0].suit
    if any(c.suit != suit for c in cards):
        return None
    ranks = sorted(c.rank for c in cards)
    if 0 in ranks and 12 in ranks:
        ranks = sorted(r or 13 for r in ranks)
    return suit, ranks[0], ranks[-1]


def _card_at(suit: int, rank: int) -> int:
    return suit * 13 + (0 if rank == 13 else rank)


def _lay_off_plan(
    knocker_melds: Sequence[Bitmask], free: Bitmask, ace_high: bool
) -> list[LayOff]:
    """The most cards of ``free`` that can be laid off, chains included."""
    taken = 0
    plan: list[LayOff] = []
    for index, meld in enumerate(knocker_melds):
        span = _run_span(meld)
        if span is None:
            continue
        suit, low, high = span
        rank = low - 1
        while rank >= 0:
            c = _card_at(suit, rank)
            if not (free & ~taken) >> c & 1:
                break
            taken |= 1 << c
            plan.append(LayOff(FULL_DECK[c], index))
            rank -= 1
        rank = high + 1
        top = 13 if ace_high else 12
        while rank <= top:
            c = _card_at(suit, rank)
            if not (free & ~taken) >> c & 1:
                break
            taken |= 1 << c
            plan.append(LayOff(FULL_DECK[c], index))
            rank += 1
    for index, meld in enumerate(knocker_melds):
        if _run_span(meld) is None and meld.bit_count() == 3:
            rank = (meld & -meld).bit_length() - 1
            rank %= 13
            for s in range(4):
                c = s * 13 + rank
                if not meld >> c & 1 and (free & ~taken) >> c & 1:
                    taken |= 1 << c
                    plan.append(LayOff(FULL_DECK[c], index))
    return plan


def best_layoff(
    knocker_melds: Sequence[Iterable[int]],
    defender_cards: CardSet | Iterable[int],
    *,
    ace_high: bool = False,
) -> LayOffResult:
    """The defender's own melds and lay-offs that leave the least deadwood.

    Own melds and lay-offs are chosen jointly: a card may do more good laid off
    than kept in a meld of the defender's own. A run takes cards at either end,
    one after another; a three-card set takes its fourth card; a four-card set
    takes nothing.

    >>> from ginrummy import parse_cards
    >>> r = best_layoff([parse_cards("3S 4S 5S")], parse_cards("6S 7S KD"))
    >>> [(str(l.card), l.meld_index) for l in r.lay_offs], r.deadwood_points
    ([('6S', 0), ('7S', 0)], 10)
    """
    knocker = [mask_of(m) for m in knocker_melds]
    for m in knocker:
        if m not in _melds(m, ace_high):
            raise ValueError(f"{format_cards(_cards(m))} is not a meld")
    hand = mask_of(defender_cards)
    _check_size(hand)
    best: tuple[tuple[int, int, int, tuple[int, ...]], list[Bitmask], list[LayOff]] | None = None
    for chosen in _all_arrangements(hand, ace_high):
        melded = 0
        for m in chosen:
            melded |= m
        free = hand & ~melded
        plan = _lay_off_plan(knocker, free, ace_high)
        laid = 0
        for lay in plan:
            laid |= 1 << lay.card
        dead = free & ~laid
        key = (_mask_points(dead), dead.bit_count(), dead, tuple(sorted(chosen)))
        if best is None or key < best[0]:
            best = (key, chosen, plan)
    assert best is not None
    key, chosen, plan = best
    own = _arrangement(chosen, hand & ~sum(1 << lay.card for lay in plan))
    return LayOffResult(
        melds=own.melds,
        lay_offs=tuple(plan),
        deadwood=own.deadwood,
        deadwood_points=own.deadwood_points,
    )
