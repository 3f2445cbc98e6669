"""Shared helpers for the bots: bitmask hands, deadwood look-ups and the public record.

Every question about melds goes to :mod:`ginrummy.melds`; this module only
adapts it to bitmasks and caches the answers (the bots ask about the same few
hands many times in one decision).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from ginrummy import melds
from ginrummy.cards import FULL_DECK, Bitmask, Card, CardSet, mask_of
from ginrummy.hand import (
    Action,
    DeclareBigGin,
    Discard,
    Discarded,
    DrawPile,
    DrawStock,
    Knock,
    Knocked,
    PassUpcard,
    PileDrawn,
    PlayerView,
    StockDrawn,
    TakeUpcard,
    UpcardPassed,
    UpcardTaken,
)

__all__ = [
    "ALL_CARDS",
    "PublicRecord",
    "arrangements",
    "bits",
    "deadwood_of",
    "decision_rng",
    "neighbours",
    "read_record",
]

ALL_CARDS: Bitmask = (1 << 52) - 1


_ROW = (1 << 13) - 1


def _row_cards(first: int) -> tuple[tuple[int, ...], ...]:
    """For each 13-bit row of a suit whose first card is ``first``: its card indices."""
    table: list[tuple[int, ...]] = [()] * (1 << 13)
    for row in range(1, 1 << 13):
        low = row & -row
        table[row] = (first + low.bit_length() - 1, *table[row ^ low])
    return tuple(table)


_SUIT_CARDS = tuple(_row_cards(13 * suit) for suit in range(4))
"""For each suit, each row's card indices: a hand's cards in four look-ups."""


def bits(mask: Bitmask) -> list[int]:
    """The card indices in ``mask``, lowest first."""
    a, b, c, d = _SUIT_CARDS
    return [*a[mask & _ROW], *b[mask >> 13 & _ROW], *c[mask >> 26 & _ROW], *d[mask >> 39]]


@lru_cache(maxsize=1 << 18)
def deadwood_of(mask: Bitmask, ace_high: bool) -> int:
    """The least deadwood count of the cards in ``mask`` (0 to 11 cards)."""
    return melds.deadwood_mask(mask, ace_high)


def arrangements(mask: Bitmask, ace_high: bool) -> list[melds.Arrangement]:
    """The least-deadwood arrangements of ten kept cards (the knocker's choices)."""
    return melds.all_best_arrangements(CardSet.from_mask(mask), ace_high=ace_high)


def decision_rng(seed: int, view: PlayerView, stream: str = "") -> random.Random:
    """A random source fixed by the seed and the view, so a decision is repeatable.

    A bot may be created afresh for every decision (as the web app does) or
    kept for a whole match (as the arena does): both give the same action.
    A named ``stream`` is a source of its own for the same decision.
    """
    hand = mask_of(view.hand)
    key = f"{seed}/{view.player}/{len(view.events)}/{hand}/{view.phase.value}"
    return random.Random(f"{key}/{stream}" if stream else key)


_NEIGHBOURS: list[tuple[int, ...]] = []
for _c in range(52):
    _rank, _suit = _c % 13, _c // 13
    _near = [s * 13 + _rank for s in range(4) if s != _suit]
    _near += [_suit * 13 + r for r in (_rank - 2, _rank - 1, _rank + 1, _rank + 2) if 0 <= r < 13]
    _NEIGHBOURS.append(tuple(_near))


def neighbours(card: int) -> tuple[int, ...]:
    """The cards that can share a meld with ``card``: same rank, or same suit within two."""
    return _NEIGHBOURS[card]


@dataclass(slots=True)
class PublicRecord:
    """What a player can work out from the public log of the hand.

    ``opp_took`` are the cards the other player drew from the pile, ``opp_threw``
    the cards they discarded, ``opp_passed`` the pile cards they declined
    (passing the upcard, or drawing from the stock with that card on top; not
    the first draw after both passed the upcard, which the rules force), and
    ``opp_last_passed`` the pile card they declined on the turn of their latest
    throw (``None`` when they took it, or have not thrown).
    """

    opp_took: list[int]
    opp_threw: list[int]
    opp_passed: list[int]
    my_turns: int
    opp_turns: int
    pile_mask: Bitmask
    opp_last_passed: int | None = None


def read_record(view: PlayerView) -> PublicRecord:
    """Walk the event log once and collect what the other player did."""
    me = view.player
    took: list[int] = []
    threw: list[int] = []
    passed: list[int] = []
    my_turns = 0
    opp_turns = 0
    top: int | None = None
    passing: int | None = None
    last_passed: int | None = None
    upcard_passes = 0
    for e in view.events:
        if isinstance(e, UpcardPassed):
            upcard_passes += 1
            if e.player != me and top is not None:
                passed.append(top)
        elif isinstance(e, UpcardTaken):
            if e.player == me:
                my_turns += 1
            else:
                took.append(e.card)
                opp_turns += 1
                passing = None
            top = None
        elif isinstance(e, StockDrawn):
            # After both passed the upcard the non-dealer must draw from the
            # stock: that draw declines nothing.
            forced = upcard_passes == 2 and my_turns + opp_turns == 0
            if e.player == me:
                my_turns += 1
            else:
                opp_turns += 1
                passing = None if forced else top
                if top is not None and not forced:
                    passed.append(top)
        elif isinstance(e, PileDrawn):
            if e.player == me:
                my_turns += 1
            else:
                opp_turns += 1
                took.append(e.card)
                passing = None
        elif isinstance(e, Discarded):
            top = e.card
            if e.player != me:
                threw.append(e.card)
                last_passed = passing
        elif isinstance(e, Knocked):
            pass
        else:  # Dealt, BigGinDeclared
            upcard = getattr(e, "upcard", None)
            if upcard is not None:
                top = int(upcard)
    return PublicRecord(
        opp_took=took,
        opp_threw=threw,
        opp_passed=passed,
        my_turns=my_turns,
        opp_turns=opp_turns,
        pile_mask=mask_of(view.pile),
        opp_last_passed=last_passed,
    )


def big_gin_action(view: PlayerView) -> Action | None:
    """The big-gin declaration when it is legal (it always beats a plain gin)."""
    for a in view.legal_actions:
        if isinstance(a, DeclareBigGin):
            return a
    return None


def take_or_draw(view: PlayerView, take: bool) -> Action:
    """The legal draw action that takes the pile card (or the upcard) or not."""
    if take:
        for a in view.legal_actions:
            if isinstance(a, (TakeUpcard, DrawPile)):
                return a
    for a in view.legal_actions:
        if isinstance(a, (PassUpcard, DrawStock)):
            return a
    return view.legal_actions[0]


def knock_cards(view: PlayerView) -> set[int]:
    """The cards whose throw may be a knock now."""
    return {int(a.card) for a in view.legal_actions if isinstance(a, Knock)}


def discard_cards(view: PlayerView) -> list[int]:
    """The cards that may be thrown now."""
    return [int(a.card) for a in view.legal_actions if isinstance(a, Discard)]


def card(c: int) -> Card:
    """The :class:`Card` of an index."""
    return FULL_DECK[c]
