"""Property tests: the fast meld engine against an obviously correct brute force.

The brute force here shares no code with :mod:`ginrummy.melds`: it decides
what a meld is from the rules' words and tries every way to split a hand into
melds and deadwood.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.cards import FULL_DECK, Card, CardSet
from ginrummy.melds import (
    all_best_arrangements,
    best_arrangement,
    best_layoff,
    best_meld_masks,
    deadwood,
    deadwood_after_discard,
    deadwood_after_discard_mask,
    deadwood_mask,
    deadwood_without_mask,
    is_meld,
    knock_options,
    lay_off_spots,
    layoff_deadwood_mask,
    mask_of,
    run_span,
)

POINTS = {rank: min(rank + 1, 10) for rank in range(13)}


def points(cards: Sequence[int]) -> int:
    return sum(POINTS[c % 13] for c in cards)


def brute_is_meld(cards: Sequence[int], ace_high: bool) -> bool:
    """A set: 3 or 4 cards of one rank. A run: 3+ cards of one suit in sequence."""
    if len(cards) < 3:
        return False
    ranks = sorted(c % 13 for c in cards)
    suits = {c // 13 for c in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if len(suits) != 1:
        return False
    if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
        return True
    # Ace high: the ace after the king, the run reaching up to it (never K-A-2).
    high = sorted(r if r else 13 for r in ranks)
    return ace_high and 12 in ranks and high == list(range(high[0], 14))


@cache
def brute_least(cards: frozenset[int], ace_high: bool) -> int:
    """The least deadwood: the lowest card is dead or in some meld with others."""
    if not cards:
        return 0
    low = min(cards)
    rest = sorted(cards - {low})
    best = POINTS[low % 13] + brute_least(frozenset(rest), ace_high)
    for size in range(2, len(rest) + 1):
        for others in combinations(rest, size):
            if brute_is_meld((low, *others), ace_high):
                best = min(best, brute_least(cards - {low, *others}, ace_high))
    return best


def brute_layoff(knocker: list[list[int]], defender: frozenset[int], ace_high: bool) -> int:
    """The defender's least count: try every order of single lay-offs, then own melds."""

    @cache
    def go(melds: tuple[frozenset[int], ...], left: frozenset[int]) -> int:
        best = brute_least(left, ace_high)
        for i, meld in enumerate(melds):
            is_set = len({c % 13 for c in meld}) == 1
            if is_set and len(meld) == 4:
                continue  # a four-set takes nothing
            for card in left:
                if brute_is_meld((*meld, card), ace_high):
                    grown = (*melds[:i], meld | {card}, *melds[i + 1 :])
                    best = min(best, go(grown, left - {card}))
        return best

    return go(tuple(frozenset(m) for m in knocker), defender)


hands = st.lists(st.sampled_from(range(52)), max_size=11, unique=True)
eleven = st.lists(st.sampled_from(range(52)), min_size=11, max_size=11, unique=True)


@st.composite
def dense_hands(draw: st.DrawFn, size: int = 10) -> list[int]:
    """Cards from a few neighbouring ranks: many runs and sets overlap."""
    low = draw(st.integers(0, 9))
    width = draw(st.integers(3, 4))
    pool = [suit * 13 + (low + k) % 13 for suit in range(4) for k in range(width)]
    count = min(size, len(pool))
    return draw(st.lists(st.sampled_from(pool), min_size=count, max_size=count, unique=True))


any_hand = st.one_of(hands, dense_hands(), dense_hands(size=11))


@settings(max_examples=300, deadline=None)
@given(any_hand, st.booleans())
def test_least_deadwood_matches_brute_force(cards: list[int], ace_high: bool) -> None:
    expected = brute_least(frozenset(cards), ace_high)
    assert best_arrangement(cards, ace_high=ace_high).deadwood_points == expected
    assert deadwood(cards, ace_high=ace_high) == expected
    assert deadwood_mask(mask_of(cards), ace_high) == expected


@settings(max_examples=300, deadline=None)
@given(any_hand, st.booleans())
def test_arrangement_is_disjoint_valid_melds_plus_deadwood(
    cards: list[int], ace_high: bool
) -> None:
    a = best_arrangement(cards, ace_high=ace_high)
    laid: list[Card] = [c for meld in a.melds for c in meld]
    assert len(laid) == len(set(laid))
    assert all(brute_is_meld(meld, ace_high) for meld in a.melds)
    assert all(is_meld(meld, ace_high=ace_high) for meld in a.melds)
    assert sorted(laid + list(a.deadwood)) == sorted(cards)
    assert a.deadwood_points == points(a.deadwood)
    assert a == best_arrangement(CardSet(cards), ace_high=ace_high)  # order never matters
    # The bots' fast path lays out the same melds, in the same order.
    assert list(best_meld_masks(mask_of(cards), ace_high)) == list(a.meld_masks)


@settings(max_examples=150, deadline=None)
@given(any_hand, st.booleans())
def test_all_best_arrangements_share_the_least_count(cards: list[int], ace_high: bool) -> None:
    choices = all_best_arrangements(cards, ace_high=ace_high)
    assert choices[0] == best_arrangement(cards, ace_high=ace_high)
    assert {a.deadwood_points for a in choices} == {deadwood(cards, ace_high=ace_high)}
    assert len({a.melds for a in choices}) == len(choices)
    for a in choices:
        assert sorted([c for m in a.melds for c in m] + list(a.deadwood)) == sorted(cards)


@settings(max_examples=200, deadline=None)
@given(st.one_of(eleven, dense_hands(size=11)), st.booleans())
def test_knock_options_agree_with_deadwood_of_each_discard(
    cards: list[int], ace_high: bool
) -> None:
    mask = mask_of(cards)
    options = knock_options(cards, ace_high=ace_high)
    assert sorted(options) == sorted(cards)
    for card, left in options.items():
        assert left == deadwood(CardSet.from_mask(mask ^ 1 << card), ace_high=ace_high)
    assert deadwood_after_discard(cards, ace_high=ace_high) == min(options.values())
    assert deadwood_after_discard_mask(mask, ace_high) == min(options.values())


@st.composite
def set_hands(draw: st.DrawFn) -> list[int]:
    """Eleven cards holding three or four of one or two ranks, the rest anywhere."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=2, unique=True))
    cards: list[int] = []
    for rank in ranks:
        suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
        cards += [suit * 13 + rank for suit in suits]
    rest = draw(st.lists(st.integers(0, 51), min_size=11, max_size=11, unique=True))
    return (cards + [c for c in rest if c not in cards])[:11]


@settings(max_examples=300, deadline=None)
@given(st.one_of(any_hand, dense_hands(size=11), set_hands()), st.booleans())
def test_deadwood_without_each_card_agrees_with_deadwood(cards: list[int], ace_high: bool) -> None:
    # The bots weigh every throw by this fast path (table look-ups when no rank has three;
    # with sets, the cards of other ranks from the search's choices of sets).
    mask = mask_of(cards)
    without = deadwood_without_mask(mask, ace_high)
    for card in cards:
        assert without(card) == deadwood_mask(mask & ~(1 << card), ace_high)


@st.composite
def knocks(draw: st.DrawFn) -> tuple[list[list[int]], list[int], bool]:
    """A knocker's best melds and a defender's cards from what is left."""
    ace_high = draw(st.booleans())
    knocker = draw(st.one_of(dense_hands(), hands))
    melds = [[int(c) for c in m] for m in best_arrangement(knocker, ace_high=ace_high).melds]
    left = [c for c in range(52) if c not in knocker]
    # Defenders drawn near the knocker's cards, so lay-offs happen often.
    near = sorted(left, key=lambda c: min([abs(c - k) for k in knocker] or [0]))[:16]
    size = draw(st.integers(0, 7))
    defender = draw(st.lists(st.sampled_from(near), max_size=size, unique=True))
    return melds, defender, ace_high


@settings(max_examples=200, deadline=None)
@given(knocks())
def test_best_layoff_matches_brute_force(knock: tuple[list[list[int]], list[int], bool]) -> None:
    melds, defender, ace_high = knock
    r = best_layoff(melds, defender, ace_high=ace_high)
    assert r.deadwood_points == brute_layoff(melds, frozenset(defender), ace_high)
    # The bots' fast path (the play-outs and the knock search score knocks by it).
    masks = [mask_of(m) for m in melds]
    assert layoff_deadwood_mask(masks, mask_of(defender), ace_high) == r.deadwood_points
    assert r.deadwood_points <= deadwood(defender, ace_high=ace_high)
    # What is laid off, melded and left over is the defender's hand, once each.
    laid = [lay.card for lay in r.lay_offs]
    own = [c for m in r.melds for c in m]
    assert sorted(laid + own + list(r.deadwood)) == sorted(defender)
    assert all(brute_is_meld(m, ace_high) for m in r.melds)
    assert r.deadwood_points == points(r.deadwood)
    # Each lay-off extends its meld, in the order given.
    grown = [list(m) for m in melds]
    for lay in r.lay_offs:
        assert brute_is_meld((*grown[lay.meld_index], lay.card), ace_high)
        assert len(grown[lay.meld_index]) < 4 or len({c % 13 for c in grown[lay.meld_index]}) > 1
        grown[lay.meld_index].append(lay.card)


@settings(max_examples=200, deadline=None)
@given(knocks())
def test_lay_off_spots_are_exactly_the_cards_that_extend_each_meld(
    knock: tuple[list[list[int]], list[int], bool],
) -> None:
    # The one lay-off model (the engine's scoring and the bots' reading share
    # it) against the rules' words: a card may go on a meld when meld + card
    # is a meld; each chain then goes on card by card.
    melds, _, ace_high = knock
    spots = lay_off_spots([mask_of(m) for m in melds], ace_high=ace_high)
    assert [s.meld_index for s in spots] == list(range(len(melds)))
    for meld, spot in zip(melds, spots, strict=True):
        assert spot.is_run == (len({c % 13 for c in meld}) > 1)
        span = run_span(mask_of(meld))
        assert (span is not None) == spot.is_run
        if span is not None:
            ranks = sorted(c % 13 if c % 13 or span[2] != 13 else 13 for c in meld)
            assert (span[1], span[2]) == (ranks[0], ranks[-1])
        firsts = {int(chain[0]) for chain in spot.chains if chain}
        fits = {c for c in range(52) if c not in meld and brute_is_meld((*meld, c), ace_high)}
        assert firsts == fits
        for chain in spot.chains:
            grown = list(meld)
            for card in chain:
                assert brute_is_meld((*grown, card), ace_high)
                grown.append(card)


def test_brute_force_knows_the_rules() -> None:
    """The oracle itself, on the rules' own examples."""
    card = {str(c): int(c) for c in FULL_DECK}
    assert brute_is_meld([card["AS"], card["2S"], card["3S"]], False)
    assert not brute_is_meld([card["QS"], card["KS"], card["AS"]], False)
    assert brute_is_meld([card["QS"], card["KS"], card["AS"]], True)
    assert not brute_is_meld([card["KS"], card["AS"], card["2S"]], True)
    assert not brute_is_meld([card["7S"], card["7C"], card["7D"], card["7H"], card["8S"]], False)
