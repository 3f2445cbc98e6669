"""The other player modelled as a camper: would it have made its latest throw?

A player who camps for gin the way MARJJ does (:mod:`ginrummy.bots.camper`)
throws by rules that depend on its own eleven cards and on what it has seen.
A guess at its hand (the ten cards it holds now) gives those eleven cards:
the guess with its latest throw back in it. If the rules, applied to them
with what that player could see at the time, would have thrown some other
card, the guess is unlikely. The public part (the pile then, the cards this
player had taken from the pile, the turn) comes from the event log.
"""

from __future__ import annotations

from dataclasses import dataclass

from ginrummy.bots._common import ALL_CARDS
from ginrummy.bots.camper import throw_candidates, throw_scores
from ginrummy.cards import Bitmask
from ginrummy.hand import Dealt, Discarded, PileDrawn, PlayerView, StockDrawn, UpcardTaken

__all__ = ["Throw", "camper_would_throw", "throws"]


@dataclass(frozen=True, slots=True)
class Throw:
    """One of the other player's throws and what it could see when it made it."""

    card: int
    locked: int | None
    """The pile card it took that turn (it may not throw it back), if any."""
    pile: Bitmask
    """The pile just before the throw."""
    took: Bitmask
    """The cards this player had taken from the pile by then (the other player's ``opp``)."""
    held: Bitmask
    """Of those, the ones this player still held then."""
    turn: int
    """The other player's turn count at the throw (its first turn is 1)."""


def throws(view: PlayerView) -> list[Throw]:
    """The other player's throws in ``view``'s hand, oldest first."""
    me = view.player
    pile: list[int] = []
    took = held = 0
    turns = 0
    locked: int | None = None
    out: list[Throw] = []
    for e in view.events:
        if isinstance(e, Dealt):
            pile = [int(e.upcard)]
        elif isinstance(e, (UpcardTaken, PileDrawn)):
            card = int(e.card)
            if pile and pile[-1] == card:
                pile.pop()
            if e.player == me:
                took |= 1 << card
                held |= 1 << card
            else:
                turns += 1
                locked = card
        elif isinstance(e, StockDrawn):
            if e.player != me:
                turns += 1
                locked = None
        elif isinstance(e, Discarded):
            card = int(e.card)
            if e.player == me:
                held &= ~(1 << card)
            else:
                mask = 0
                for c in pile:
                    mask |= 1 << c
                out.append(Throw(card, locked, mask, took, held, turns))
            pile.append(card)
    return out


def camper_would_throw(hand: Bitmask, throw: Throw, ace_high: bool) -> bool:
    """Whether MARJJ's throw rules could have thrown ``throw.card`` from ``hand`` (the ten
    cards held right after it): the card is among its candidates and, of those, one of
    the best by the look-ahead and the danger terms (ties count as could)."""
    card = throw.card
    eleven = hand | 1 << card
    candidates = throw_candidates(eleven, throw.locked, ace_high)
    if card not in candidates:
        return False
    if len(candidates) == 1:
        return True
    unseen = ALL_CARDS & ~eleven & ~throw.pile & ~throw.held
    seen = ALL_CARDS & ~unseen
    scores = throw_scores(eleven, candidates, unseen, seen, throw.took, throw.turn, ace_high)
    mine = scores[card]
    return all(score >= mine - 1e-9 for score in scores.values())
