"""Per-suit lookup tables for :mod:`ginrummy.melds`, built once at import.

Runs never cross suits, so everything a suit's runs can do is a function of
that suit's 13-bit rank mask (bit 0 the ace, bit 12 the king). Each table
below has one entry per mask, 8192 in all, one table for the standard rule
(ace low only) and one for the house rule "ace high or low" (Q-K-A is a run,
K-A-2 never). Private: the public answers live in :mod:`ginrummy.melds`.
"""

from __future__ import annotations

from typing import Final

from ginrummy.cards import RANK_POINTS


def _build_points() -> list[int]:
    points = [0] * 8192
    for bits in range(1, 8192):
        low = bits & -bits
        points[bits] = points[bits ^ low] + RANK_POINTS[low.bit_length() - 1]
    return points


POINTS: Final[list[int]] = _build_points()
"""Points of the cards in a suit mask."""


def _build_low_bits() -> list[tuple[int, ...]]:
    low_bits: list[tuple[int, ...]] = [()] * 8192
    for bits in range(1, 8192):
        low = bits & -bits
        low_bits[bits] = (low, *low_bits[bits ^ low])
    return low_bits


_LOW_BITS: Final[list[tuple[int, ...]]] = _build_low_bits()


def _cover(bits: int) -> int:
    """The ranks that lie in some run of three or more (ace low only)."""
    starts = bits & bits >> 1 & bits >> 2
    return starts | starts << 1 | starts << 2


def _cover_top(bits: int) -> int:
    """The ranks in a run when the ace is taken as the card above the king."""
    # Shift the ranks down one place and put the ace in the king's old place.
    view = bits >> 1 | (bits & 1) << 12
    cover = _cover(view)
    return (cover & 0xFFF) << 1 | cover >> 12 & 1


def _build(ace_high: bool) -> tuple[list[int], list[int], list[int]]:
    dead = [0] * 8192
    runnable = [0] * 8192
    for bits in range(8192):
        cover = _cover(bits)
        best = POINTS[bits & ~cover]
        if ace_high and bits & 0x1801 == 0x1801:
            # The ace goes to the bottom run or the top run, never both: the
            # better of the two views (a dead ace is in both).
            top = _cover_top(bits)
            best = min(best, POINTS[bits & ~top])
            cover |= top
        dead[bits] = best
        runnable[bits] = cover
    # One card thrown: the best of the suit's cards, as a change in ``dead``,
    # where a throw that adds deadwood counts as 0 (see DISCARD below).
    discard = [
        min([0, *[dead[bits ^ low] - dead[bits] for low in _LOW_BITS[bits]]])
        for bits in range(8192)
    ]
    return dead, runnable, discard


DEAD_LOW, RUNNABLE_LOW, DISCARD_LOW = _build(False)
DEAD_HIGH, RUNNABLE_HIGH, DISCARD_HIGH = _build(True)
"""``DEAD``: deadwood points of a suit's cards melded in runs only, at best.
``RUNNABLE``: the ranks that lie in some run. ``DISCARD``: the least change of
``DEAD`` when one card of the suit is thrown, or 0 when every throw adds
deadwood (or the suit is empty).

Counting those throws as 0 is exact for eleven cards: whatever sets are
chosen, some throw adds no deadwood. Either a four-set is chosen (throw one of
its cards), or the cards left for runs are not a multiple of three (eleven
less threes), so they hold a dead card or a run of four or more, whose end
card can go."""
