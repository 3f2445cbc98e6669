"""Melds, deadwood and lay-offs: the combinatorics of Gin Rummy.

Everything here works on bitmasks (see :mod:`ginrummy.cards`) and knows
nothing of turns or players. The hand state machine, the bots and the web app
all call these functions, so there is one answer to "what is this hand worth".

>>> from ginrummy import parse_cards, best_arrangement
>>> a = best_arrangement(parse_cards("AS 2S 3S 7H 7D 7C KD 9C"))
>>> [format_cards(m) for m in a.melds], format_cards(a.deadwood), a.deadwood_points
(['7C 7D 7H', 'AS 2S 3S'], '9C KD', 19)

How it is fast: runs never cross suits, so per-suit tables built at import
(:mod:`ginrummy._tables`, one entry per 13-bit suit mask) give each suit's
least deadwood with runs alone. Only sets tie the suits together, and a hand of
eleven cards has at most three ranks with three or more cards; the engine
tries each choice of sets on those ranks (none, the four-set, a three-set) and
asks the tables about what is left. A rank whose cards can't be in any run
always goes whole into its set, so most hands need no search at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

from ginrummy._tables import (
    DEAD_HIGH,
    DEAD_LOW,
    DISCARD_HIGH,
    DISCARD_LOW,
    POINTS,
    RUNNABLE_HIGH,
    RUNNABLE_LOW,
)
from ginrummy.cards import (
    FULL_DECK,
    Bitmask,
    Card,
    CardSet,
    cards_of_mask,
    format_cards,
    mask_of,
)

__all__ = [
    "Arrangement",
    "LayOff",
    "LayOffResult",
    "LayOffSpot",
    "Meld",
    "all_best_arrangements",
    "best_arrangement",
    "best_layoff",
    "best_meld_masks",
    "cards_of_mask",
    "deadwood",
    "deadwood_after_discard",
    "deadwood_after_discard_mask",
    "deadwood_mask",
    "deadwood_without_mask",
    "is_meld",
    "knock_options",
    "knock_options_mask",
    "lay_off_spots",
    "layoff_deadwood_mask",
    "mask_of",
    "melds_in",
    "run_span",
]

Meld = tuple[Card, ...]
"""A meld's cards, in rank order (a run) or suit order (a set)."""

_SUIT_MASK = 0x1FFF
_RANK_ROW = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The four cards of the ace; shift left by a rank for that rank's four."""


def _mask_points(mask: Bitmask) -> int:
    return (
        POINTS[mask & _SUIT_MASK]
        + POINTS[mask >> 13 & _SUIT_MASK]
        + POINTS[mask >> 26 & _SUIT_MASK]
        + POINTS[mask >> 39]
    )


_cards = cards_of_mask


@cache
def run_span(meld: Bitmask) -> tuple[int, int, int] | None:
    """For a run: its suit, lowest rank and highest rank; ``None`` for a set.

    An ace that sits above the king (Q-K-A, under the ace-high house rule)
    counts as rank 13: a run holding both the ace and the king is ace high,
    for K-A-2 is never a run. The one place that question is answered.

    >>> from ginrummy import CardSet
    >>> run_span(CardSet.parse("QS KS AS").mask), run_span(CardSet.parse("AS 2S 3S").mask)
    ((3, 11, 13), (3, 0, 2))
    >>> run_span(CardSet.parse("7C 7D 7H").mask) is None
    True
    """
    low = meld & -meld
    suit = (low.bit_length() - 1) // 13
    bits = meld >> 13 * suit
    if bits >> 13:
        return None
    if bits & 1 and bits >> 12:
        # Ace high: read the ranks shifted down one, the ace as the top.
        above = bits >> 1 | 1 << 12
        return suit, ((above & -above).bit_length() - 1) + 1, 13
    return suit, (bits & -bits).bit_length() - 1, bits.bit_length() - 1


@cache
def _meld_cards(mask: Bitmask) -> Meld:
    """A meld's cards in play order: a run low to high (ace high last), a set by suit."""
    cards = _cards(mask)
    span = run_span(mask)
    if span is not None and span[2] == 13:  # ace-high run: the ace goes on top
        return (*cards[1:], cards[0])
    return cards


@cache
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
    """Every meld (run or set, as a bitmask) that can be made from ``cards``.

    >>> from ginrummy import CardSet
    >>> [format_cards(_cards(m)) for m in melds_in(CardSet.parse("5H 6H 7H 7C 7D"))]
    ['5H 6H 7H', '7C 7D 7H']
    """
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


# --- Deadwood: the table-driven search -------------------------------------


def _triples(a: int, b: int, c: int, d: int) -> int:
    """The ranks (a 13-bit mask) held in three or more of the four suit masks."""
    return a & b & (c | d) | c & d & (a | b)


def _set_choices(mask: Bitmask, ranks: int, runnable: Bitmask) -> list[list[Bitmask]]:
    """For each rank in ``ranks``: the set choices worth trying, as card masks.

    A choice is the cards put in that rank's set (0 for no set). The choices
    left out can't be best (each leaves more deadwood than one tried):
    leaving out of a three-set a card that can't be in a run (it is dead, the
    four-set melds it), and no set at all on a four-card rank with at most one
    card that can be in a run (three cards are dead, they make a set).
    """
    choices = []
    while ranks:
        low = ranks & -ranks
        row = mask & _RANK_ROW * low
        if row.bit_count() == 3:
            choices.append([0, row])
        else:
            spare = row & runnable
            options = [row, 0] if spare & (spare - 1) else [row]
            while spare:
                card = spare & -spare
                options.append(row ^ card)
                spare ^= card
            choices.append(options)
        ranks ^= low
    return choices


def _kept_after_sets(mask: Bitmask, choices: list[list[Bitmask]]) -> list[Bitmask]:
    """The cards left for runs under each combination of set choices."""
    kept = [mask ^ sets for sets in choices[0]]
    for options in choices[1:]:
        kept = [k ^ sets for k in kept for sets in options]
    return kept


def _set_kept(mask: Bitmask, triples: int, ace_high: bool) -> list[Bitmask]:
    """The cards left for runs under each choice of sets worth trying, for a hand
    holding three or four cards of the ``triples`` ranks.

    A rank none of whose cards lies in any run goes whole into its set (any
    other choice leaves its cards dead); the other ranks are searched.
    """
    runnable_of = RUNNABLE_HIGH if ace_high else RUNNABLE_LOW
    ra = runnable_of[mask & _SUIT_MASK]
    rb = runnable_of[mask >> 13 & _SUIT_MASK]
    rc = runnable_of[mask >> 26 & _SUIT_MASK]
    rd = runnable_of[mask >> 39]
    searched = triples & (ra | rb | rc | rd)
    # A whole set's cards are in no run: taking them out changes no suit's runs.
    mask &= ~(_RANK_ROW * (triples ^ searched))
    if not searched:
        return [mask]
    runnable = ra | rb << 13 | rc << 26 | rd << 39
    return _kept_after_sets(mask, _set_choices(mask, searched, runnable))


def _deadwood_sets(mask: Bitmask, triples: int, ace_high: bool) -> int:
    """The least deadwood of a hand holding three or four cards of the ``triples`` ranks."""
    dead = DEAD_HIGH if ace_high else DEAD_LOW
    return min(
        [
            dead[k & _SUIT_MASK]
            + dead[k >> 13 & _SUIT_MASK]
            + dead[k >> 26 & _SUIT_MASK]
            + dead[k >> 39]
            for k in _set_kept(mask, triples, ace_high)
        ]
    )


def deadwood_mask(mask: Bitmask, ace_high: bool = False) -> int:
    """The least deadwood count of a hand given as a bitmask: the fast path for bots.

    It trusts its input: a 52-bit mask of at most eleven cards.

    >>> from ginrummy import CardSet
    >>> deadwood_mask(CardSet.parse("AS 2S 3S 4S 5C 5D 5H KC KD 9H").mask)
    29
    """
    a = mask & _SUIT_MASK
    b = mask >> 13 & _SUIT_MASK
    c = mask >> 26 & _SUIT_MASK
    d = mask >> 39
    triples = a & b & (c | d) | c & d & (a | b)
    if triples:
        return _deadwood_sets(mask, triples, ace_high)
    dead = DEAD_HIGH if ace_high else DEAD_LOW
    return dead[a] + dead[b] + dead[c] + dead[d]


def deadwood_without_mask(mask: Bitmask, ace_high: bool = False) -> Callable[[int], int]:
    """For a hand given as a bitmask: a function giving, for each of its cards, the
    least deadwood of the hand without that card (``deadwood_mask(mask & ~(1 << card))``).
    The fast path for bots that weigh every throw: when no rank has three cards, taking
    a card out changes only its own suit's runs, read from the table (with three of a
    rank, the same for the cards of other ranks under each choice of sets).

    >>> from ginrummy import CardSet
    >>> from ginrummy.cards import parse_card
    >>> without = deadwood_without_mask(CardSet.parse("AS 2S 3S 4S 9H 9D KC").mask)
    >>> without(int(parse_card("KC"))), without(int(parse_card("9H")))
    (18, 19)
    """
    a = mask & _SUIT_MASK
    b = mask >> 13 & _SUIT_MASK
    c = mask >> 26 & _SUIT_MASK
    d = mask >> 39
    dead = DEAD_HIGH if ace_high else DEAD_LOW
    triples = _triples(a, b, c, d)
    if triples:
        return _without_sets(mask, triples, ace_high, dead)
    suits = (a, b, c, d)
    total = dead[a] + dead[b] + dead[c] + dead[d]

    def without(card: int) -> int:
        row = suits[card // 13]
        return total - dead[row] + dead[row & ~(1 << card % 13)]

    return without


def _without_sets(
    mask: Bitmask, triples: int, ace_high: bool, dead: Sequence[int]
) -> Callable[[int], int]:
    """:func:`deadwood_without_mask` for a hand with three or four cards of a rank.

    A card of no such rank is in every choice's cards left for runs, so the hand
    without it is each choice without it, read from its suit's table. Taking the
    card out only narrows which cards can be in runs, so the choices worth trying
    for the smaller hand are among these. A card of such a rank changes the sets:
    the hand without it is searched again.
    """
    rows = [
        (k & _SUIT_MASK, k >> 13 & _SUIT_MASK, k >> 26 & _SUIT_MASK, k >> 39)
        for k in _set_kept(mask, triples, ace_high)
    ]
    totals = [(dead[a] + dead[b] + dead[c] + dead[d], (a, b, c, d)) for a, b, c, d in rows]
    in_sets = _RANK_ROW * triples

    def without(card: int) -> int:
        if in_sets >> card & 1:
            return deadwood_mask(mask & ~(1 << card), ace_high)
        suit = card // 13
        keep = ~(1 << card % 13)
        return min([t - dead[r[suit]] + dead[r[suit] & keep] for t, r in totals])

    return without


def _after_discard_sets(mask: Bitmask, searched: int, ace_high: bool) -> int:
    """The least deadwood after the best discard, for 11 cards whose ``searched``
    ranks hold three or four cards, some of which could be in runs.

    As :func:`_deadwood_sets`, plus the best throw of what is left for runs.
    A card of a four-set may also be thrown, for nothing: the ``DISCARD``
    tables count that (see :mod:`ginrummy._tables`). With that open, a rank
    none of whose cards lies in a run still goes whole into its set.
    """
    if ace_high:
        dead, runnable_of, discard = DEAD_HIGH, RUNNABLE_HIGH, DISCARD_HIGH
    else:
        dead, runnable_of, discard = DEAD_LOW, RUNNABLE_LOW, DISCARD_LOW
    row = mask & _RANK_ROW * searched
    if row.bit_count() == 3:
        # The common case: one rank of three, in a set or not.
        kept: list[Bitmask] = [mask, mask ^ row]
    else:
        runnable = (
            runnable_of[mask & _SUIT_MASK]
            | runnable_of[mask >> 13 & _SUIT_MASK] << 13
            | runnable_of[mask >> 26 & _SUIT_MASK] << 26
            | runnable_of[mask >> 39] << 39
        )
        kept = _kept_after_sets(mask, _set_choices(mask, searched, runnable))
    best = 1 << 10
    for k in kept:
        a = k & _SUIT_MASK
        b = k >> 13 & _SUIT_MASK
        c = k >> 26 & _SUIT_MASK
        d = k >> 39
        throw = discard[a]
        other = discard[b]
        if other < throw:
            throw = other
        other = discard[c]
        if other < throw:
            throw = other
        other = discard[d]
        if other < throw:
            throw = other
        total = dead[a] + dead[b] + dead[c] + dead[d] + throw
        if total < best:
            best = total
    return best


def _after_discard(mask: Bitmask, ace_high: bool) -> int:
    # deadwood_after_discard repeats this body inline, for speed.
    a = mask & _SUIT_MASK
    b = mask >> 13 & _SUIT_MASK
    c = mask >> 26 & _SUIT_MASK
    d = mask >> 39
    if ace_high:
        dead, discard, runnable = DEAD_HIGH, DISCARD_HIGH, RUNNABLE_HIGH
    else:
        dead, discard, runnable = DEAD_LOW, DISCARD_LOW, RUNNABLE_LOW
    triples = a & b & (c | d) | c & d & (a | b)
    if triples:
        searched = triples & (runnable[a] | runnable[b] | runnable[c] | runnable[d])
        if searched:
            mask &= ~(_RANK_ROW * (triples ^ searched))
            return _after_discard_sets(mask, searched, ace_high)
        # Each of these ranks goes whole into its set (see _deadwood_sets).
        triples = ~triples
        a &= triples
        b &= triples
        c &= triples
        d &= triples
    throw = discard[a]
    other = discard[b]
    if other < throw:
        throw = other
    other = discard[c]
    if other < throw:
        throw = other
    other = discard[d]
    if other < throw:
        throw = other
    return dead[a] + dead[b] + dead[c] + dead[d] + throw


def deadwood_after_discard_mask(mask: Bitmask, ace_high: bool = False) -> int:
    """For an 11-card bitmask: the least deadwood left after the best discard.

    The fast path for bots; it trusts its input (exactly eleven cards).

    >>> from ginrummy import CardSet
    >>> deadwood_after_discard_mask(CardSet.parse("AS AD AH 2S 2D 2C 2H 3H 4S 4D 4C").mask)
    0
    """
    return _after_discard(mask, ace_high)


# --- Arrangements -----------------------------------------------------------


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
    ordered = sorted(meld_masks, key=_lowest_card)  # melds are disjoint: no ties
    dead = hand & ~melded
    return Arrangement(
        melds=tuple([_meld_cards(m) for m in ordered]),
        deadwood=_cards(dead),
        deadwood_points=_mask_points(dead),
    )


def _lowest_card(mask: Bitmask) -> int:
    return mask & -mask


_TieKey = tuple[int, int, int, int, tuple[int, ...]]


def _tie_key(meld_masks: Sequence[Bitmask], hand: Bitmask) -> _TieKey:
    """The documented order of equal arrangements (see :func:`best_arrangement`)."""
    melded = 0
    for m in meld_masks:
        melded |= m
    dead = hand & ~melded
    return (_mask_points(dead), dead.bit_count(), len(meld_masks), dead, tuple(sorted(meld_masks)))


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


@cache
def _suit_layouts(bits: int, ace_high: bool) -> tuple[tuple[int, ...], ...]:
    """Every way to lay one suit's cards out in runs that leaves the least deadwood.

    Runs as 13-bit rank masks; one suit mask has few such layouts (a run of six
    is one run or two runs of three), and there are only 8192 suit masks.
    """
    dead = (DEAD_HIGH if ace_high else DEAD_LOW)[bits]
    runs = _suit_runs(bits, ace_high)
    layouts: list[tuple[int, ...]] = []

    def walk(start: int, free: int, chosen: tuple[int, ...]) -> None:
        if POINTS[free] == dead:
            layouts.append(chosen)
            return
        for i in range(start, len(runs)):
            run = runs[i]
            if run & free == run:
                walk(i + 1, free & ~run, (*chosen, run))

    walk(0, bits, ())
    return tuple(layouts)


@cache
def _suit_layouts_at(bits: int, shift: int, ace_high: bool) -> tuple[tuple[Bitmask, ...], ...]:
    """:func:`_suit_layouts` as card masks of the suit at ``shift``."""
    return tuple(tuple(run << shift for run in layout) for layout in _suit_layouts(bits, ace_high))


def _best_meld_choices(hand: Bitmask, ace_high: bool) -> list[list[Bitmask]]:
    """Every choice of disjoint melds that leaves the least deadwood count.

    The same search as :func:`_deadwood_sets` (its pruned choices are all
    strictly worse), then every least-deadwood layout of each suit's runs.
    """
    if ace_high:
        dead, runnable_of = DEAD_HIGH, RUNNABLE_HIGH
    else:
        dead, runnable_of = DEAD_LOW, RUNNABLE_LOW
    a = hand & _SUIT_MASK
    b = hand >> 13 & _SUIT_MASK
    c = hand >> 26 & _SUIT_MASK
    d = hand >> 39
    triples = _triples(a, b, c, d)
    whole_sets: list[Bitmask] = []
    mask = hand
    kept = [hand]
    if triples:
        ra, rb, rc, rd = runnable_of[a], runnable_of[b], runnable_of[c], runnable_of[d]
        searched = triples & (ra | rb | rc | rd)
        fixed = triples ^ searched
        while fixed:
            low = fixed & -fixed
            whole_sets.append(hand & _RANK_ROW * low)
            fixed ^= low
        mask = hand & ~(_RANK_ROW * (triples ^ searched))
        if searched:
            runnable = ra | rb << 13 | rc << 26 | rd << 39
            kept = _kept_after_sets(mask, _set_choices(mask, searched, runnable))
        else:
            kept = [mask]
    scored = [
        (
            dead[k & _SUIT_MASK]
            + dead[k >> 13 & _SUIT_MASK]
            + dead[k >> 26 & _SUIT_MASK]
            + dead[k >> 39],
            k,
        )
        for k in kept
    ]
    least = min(total for total, _ in scored)
    choices = []
    for total, rest in scored:
        if total != least:
            continue
        sets = [*whole_sets]
        taken = mask ^ rest
        while taken:
            low = taken & -taken
            rank_row = _RANK_ROW << (low.bit_length() - 1) % 13
            sets.append(taken & rank_row)
            taken &= ~rank_row
        la = _suit_layouts_at(rest & _SUIT_MASK, 0, ace_high)
        lb = _suit_layouts_at(rest >> 13 & _SUIT_MASK, 13, ace_high)
        lc = _suit_layouts_at(rest >> 26 & _SUIT_MASK, 26, ace_high)
        ld = _suit_layouts_at(rest >> 39, 39, ace_high)
        if len(la) == len(lb) == len(lc) == len(ld) == 1:
            choices.append([*sets, *la[0], *lb[0], *lc[0], *ld[0]])
            continue
        for runs in product(la, lb, lc, ld):
            choices.append(sets + [run for layout in runs for run in layout])
    return choices


def _check_size(hand: Bitmask, most: int = 11) -> None:
    if hand.bit_count() > most:
        raise ValueError(f"a hand has at most {most} cards, not {hand.bit_count()}")


def all_best_arrangements(
    cards: CardSet | Iterable[int], *, ace_high: bool = False
) -> list[Arrangement]:
    """Every arrangement with the least deadwood count, the preferred one first.

    The knocker may choose among these (the choice matters for lay-offs). They
    come in the order of the tie-break rule of :func:`best_arrangement`.

    >>> from ginrummy import CardSet
    >>> [str(a) for a in all_best_arrangements(CardSet.parse("AS 2S 3S 4S 5S 6S"))]
    ['[AS 2S 3S 4S 5S 6S] deadwood - (0)', '[AS 2S 3S | 4S 5S 6S] deadwood - (0)']
    """
    hand = mask_of(cards)
    _check_size(hand)
    keyed = sorted((_tie_key(c, hand), c) for c in _best_meld_choices(hand, ace_high))
    return [_arrangement(chosen, hand) for _, chosen in keyed]


def best_arrangement(cards: CardSet | Iterable[int], *, ace_high: bool = False) -> Arrangement:
    """The arrangement of 0 to 11 distinct cards with the least deadwood count.

    Ties are broken by a fixed rule, so a hand is always laid out the same way:
    fewest deadwood points, then fewest deadwood cards, then fewest (so
    longer) melds, then the deadwood whose cards are lowest in card order
    (clubs, diamonds, hearts, spades; ace to king within a suit, compared as
    a 52-bit number), then the melds compared the same way.

    >>> from ginrummy import parse_cards
    >>> best_arrangement(parse_cards("QS KS AS")).deadwood_points
    21
    >>> best_arrangement(parse_cards("QS KS AS"), ace_high=True).deadwood_points
    0
    """
    hand = mask_of(cards)
    _check_size(hand)
    return _arrangement(best_meld_masks(hand, ace_high), hand)


def best_meld_masks(hand: Bitmask, ace_high: bool = False) -> Sequence[Bitmask]:
    """The melds of :func:`best_arrangement` for a hand given as a bitmask: the fast
    path for bots (no cards or arrangement built). It trusts its input: at most
    eleven cards.

    >>> from ginrummy import CardSet
    >>> [format_cards(_cards(m)) for m in best_meld_masks(CardSet.parse("AS 2S 3S 9D 9C 9H").mask)]
    ['9C 9D 9H', 'AS 2S 3S']
    """
    a = hand & _SUIT_MASK
    b = hand >> 13 & _SUIT_MASK
    c = hand >> 26 & _SUIT_MASK
    d = hand >> 39
    if not _triples(a, b, c, d):
        # Most hands: no sets, and one best layout of each suit's runs.
        la = _suit_layouts_at(a, 0, ace_high)
        lb = _suit_layouts_at(b, 13, ace_high)
        lc = _suit_layouts_at(c, 26, ace_high)
        ld = _suit_layouts_at(d, 39, ace_high)
        if len(la) == len(lb) == len(lc) == len(ld) == 1:
            return sorted((*la[0], *lb[0], *lc[0], *ld[0]), key=_lowest_card)
    choices = _best_meld_choices(hand, ace_high)
    chosen = choices[0] if len(choices) == 1 else min(choices, key=lambda c: _tie_key(c, hand))
    return sorted(chosen, key=_lowest_card)


def deadwood(hand: CardSet | Iterable[int], *, ace_high: bool = False) -> int:
    """The least deadwood count of a hand of 0 to 11 cards.

    >>> from ginrummy import CardSet
    >>> deadwood(CardSet.parse("AS 2S 3S 4S 5C 5D 5H KC KD 9H"))
    29
    """
    # deadwood_mask inlined: this is the engine's hottest call.
    mask = hand.mask if type(hand) is CardSet else mask_of(hand)
    a = mask & _SUIT_MASK
    b = mask >> 13 & _SUIT_MASK
    c = mask >> 26 & _SUIT_MASK
    d = mask >> 39
    if mask.bit_count() > 11:
        _check_size(mask)
    triples = a & b & (c | d) | c & d & (a | b)
    if triples:
        return _deadwood_sets(mask, triples, ace_high)
    if ace_high:
        return DEAD_HIGH[a] + DEAD_HIGH[b] + DEAD_HIGH[c] + DEAD_HIGH[d]
    return DEAD_LOW[a] + DEAD_LOW[b] + DEAD_LOW[c] + DEAD_LOW[d]


def _eleven(mask: Bitmask) -> None:
    if mask.bit_count() != 11:
        raise ValueError(f"knock options are for an 11-card hand, not {mask.bit_count()} cards")


def knock_options(hand: CardSet | Iterable[int], *, ace_high: bool = False) -> dict[Card, int]:
    """For an 11-card hand: each possible discard and the deadwood left after it.

    >>> from ginrummy import CardSet
    >>> opts = knock_options(CardSet.parse("AS AD AH 2S 2D 2C 2H 3H 4S 4D 4C"))
    >>> min(opts.values()), [str(c) for c, d in opts.items() if d == 0]
    (0, ['3H'])
    """
    mask = mask_of(hand)
    _eleven(mask)
    return knock_options_mask(mask, ace_high)


def knock_options_mask(mask: Bitmask, ace_high: bool = False) -> dict[Card, int]:
    """:func:`knock_options` of an 11-card bitmask: the fast path for the hand and bots.

    It trusts its input (a 52-bit mask of eleven cards).

    >>> from ginrummy import CardSet
    >>> opts = knock_options_mask(CardSet.parse("AS 2S 3S 4S 5C 5D 5H KC KD 9H QH").mask)
    >>> [(str(c), d) for c, d in opts.items() if d == min(opts.values())]
    [('KC', 29), ('KD', 29), ('QH', 29)]
    """
    without = deadwood_without_mask(mask, ace_high)
    return {card: without(card) for card in _cards(mask)}


def deadwood_after_discard(hand: CardSet | Iterable[int], *, ace_high: bool = False) -> int:
    """For an 11-card hand: the least deadwood left after the best discard.

    >>> from ginrummy import CardSet
    >>> deadwood_after_discard(CardSet.parse("AS AD AH 2S 2D 2C 2H 3H 4S 4D 4C"))
    0
    """
    try:
        mask = hand.mask  # type: ignore[union-attr]
    except AttributeError:
        mask = mask_of(hand)
    if mask.bit_count() != 11:
        _eleven(mask)
    # The body of _after_discard again: the call would cost as much as the work.
    a = mask & _SUIT_MASK
    b = mask >> 13 & _SUIT_MASK
    c = mask >> 26 & _SUIT_MASK
    d = mask >> 39
    triples = a & b & (c | d) | c & d & (a | b)
    if triples:
        runnable = RUNNABLE_HIGH if ace_high else RUNNABLE_LOW
        searched = triples & (runnable[a] | runnable[b] | runnable[c] | runnable[d])
        if searched:
            mask &= ~(_RANK_ROW * (triples ^ searched))
            return _after_discard_sets(mask, searched, ace_high)
        # Each of these ranks goes whole into its set (see _deadwood_sets).
        triples = ~triples
        a &= triples
        b &= triples
        c &= triples
        d &= triples
    if ace_high:
        dead = DEAD_HIGH
        discard = DISCARD_HIGH
    else:
        dead = DEAD_LOW
        discard = DISCARD_LOW
    throw = discard[a]
    other = discard[b]
    if other < throw:
        throw = other
    other = discard[c]
    if other < throw:
        throw = other
    other = discard[d]
    if other < throw:
        throw = other
    return dead[a] + dead[b] + dead[c] + dead[d] + throw


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


@dataclass(frozen=True, slots=True)
class LayOffSpot:
    """Where cards may be laid off onto one meld: the one lay-off model.

    ``chains`` hold the cards that may go on, each chain in the order they
    must be laid (each card needs the one before it on the meld): a run has
    two chains, the cards below it (nearest first) and the cards above it; a
    three-card set has one chain, its fourth card; a four-card set has none.
    ``meld_index`` is the meld's place among the melds asked about.

    >>> from ginrummy import CardSet
    >>> [spot] = lay_off_spots([CardSet.parse("JS QS KS").mask], ace_high=True)
    >>> [[str(c) for c in chain] for chain in spot.chains]
    [['TS', '9S', '8S', '7S', '6S', '5S', '4S', '3S', '2S', 'AS'], ['AS']]
    """

    meld_index: int
    is_run: bool
    chains: tuple[tuple[Card, ...], ...]


@cache
def _chains(meld: Bitmask, ace_high: bool) -> tuple[bool, tuple[tuple[Card, ...], ...]]:
    """Whether ``meld`` is a run, and its lay-off chains (see :class:`LayOffSpot`)."""
    span = run_span(meld)
    if span is None:
        if meld.bit_count() != 3:
            return False, ()
        rank = ((meld & -meld).bit_length() - 1) % 13
        fourth = next(s * 13 + rank for s in range(4) if not meld >> (s * 13 + rank) & 1)
        return False, ((FULL_DECK[fourth],),)
    suit, low, high = span
    top = 13 if ace_high else 12
    chains = []
    for ranks in (range(low - 1, -1, -1), range(high + 1, top + 1)):
        chain = []
        for rank in ranks:
            card = suit * 13 + (0 if rank == 13 else rank)
            if meld >> card & 1:  # the ace of a long ace-high run: no wrapping round
                break
            chain.append(FULL_DECK[card])
        chains.append(tuple(chain))
    return True, (chains[0], chains[1])


def lay_off_spots(
    melds: Sequence[Bitmask | Iterable[int]], *, ace_high: bool = False
) -> tuple[LayOffSpot, ...]:
    """Where cards may be laid off onto each of ``melds`` (see :class:`LayOffSpot`).

    >>> from ginrummy import CardSet
    >>> spots = lay_off_spots([CardSet.parse("3S 4S 5S").mask, CardSet.parse("9C 9H 9S").mask])
    >>> [[format_cards(chain) for chain in spot.chains] for spot in spots]
    [['2S AS', '6S 7S 8S 9S TS JS QS KS'], ['9D']]
    """
    spots = []
    for index, meld in enumerate(melds):
        is_run, chains = _chains(meld if isinstance(meld, int) else mask_of(meld), ace_high)
        spots.append(LayOffSpot(index, is_run, chains))
    return tuple(spots)


def _lay_off_plan(knocker_melds: Sequence[Bitmask], free: Bitmask, ace_high: bool) -> list[LayOff]:
    """The most cards of ``free`` that can be laid off, chains included.

    The runs are served first, then the sets' fourth cards.
    """
    plan: list[LayOff] = []
    _laid_off(knocker_melds, free, ace_high, plan)
    return plan


def _laid_off(
    knocker_melds: Sequence[Bitmask], free: Bitmask, ace_high: bool, plan: list[LayOff] | None
) -> Bitmask:
    """The cards of :func:`_lay_off_plan`, as a mask (``plan``, when given, gets each
    lay-off in order)."""
    taken = 0
    sets = []
    for index, meld in enumerate(knocker_melds):
        is_run, chains = _chains(meld, ace_high)
        if not is_run:
            sets.append((index, chains))
            continue
        for chain in chains:
            for c in chain:
                if not (free & ~taken) >> c & 1:
                    break
                taken |= 1 << c
                if plan is not None:
                    plan.append(LayOff(c, index))
    for index, chains in sets:
        for chain in chains:
            c = chain[0]
            if (free & ~taken) >> c & 1:
                taken |= 1 << c
                if plan is not None:
                    plan.append(LayOff(c, index))
    return taken


def layoff_deadwood_mask(
    knocker_melds: Sequence[Bitmask], defender: Bitmask, ace_high: bool = False
) -> int:
    """``best_layoff(knocker_melds, defender).deadwood_points`` for masks: the fast path
    for bots. It trusts its input (melds, and at most eleven cards).

    >>> from ginrummy import CardSet
    >>> layoff_deadwood_mask([CardSet.parse("3S 4S 5S").mask], CardSet.parse("6S 7S KD").mask)
    10
    """
    least = 1 << 10
    for chosen in _all_arrangements(defender, ace_high):
        melded = 0
        for m in chosen:
            melded |= m
        free = defender & ~melded
        points = _mask_points(free & ~_laid_off(knocker_melds, free, ace_high, None))
        if points < least:
            least = points
    return least


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
    best: tuple[tuple[int, int, int, tuple[int, ...]], list[Bitmask], Bitmask] | None = None
    for chosen in _all_arrangements(hand, ace_high):
        melded = 0
        for m in chosen:
            melded |= m
        free = hand & ~melded
        dead = free & ~_laid_off(knocker, free, ace_high, None)
        key = (_mask_points(dead), dead.bit_count(), dead, tuple(sorted(chosen)))
        if best is None or key < best[0]:
            best = (key, chosen, free)
    assert best is not None
    key, chosen, free = best
    plan = _lay_off_plan(knocker, free, ace_high)
    own = _arrangement(chosen, hand & ~sum(1 << lay.card for lay in plan))
    return LayOffResult(
        melds=own.melds,
        lay_offs=tuple(plan),
        deadwood=own.deadwood,
        deadwood_points=own.deadwood_points,
    )
