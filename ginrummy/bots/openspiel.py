"""``openspiel``: a port of OpenSpiel's simple gin rummy bot, as the arena's wrapper plays it.

OpenSpiel's ``SimpleGinRummyBot`` (``open_spiel/bots/gin_rummy``) decides from
its own hand alone:

- it takes the upcard or the pile card when its hand with that card could knock
  at once, or when the card is in the melds of its best arrangement of the
  eleven; otherwise it draws from the stock;
- it knocks whenever its eleven cards allow it (by OpenSpiel's reckoning,
  below), otherwise it throws the highest-ranked card of its deadwood.

"Best arrangement" is OpenSpiel's: the first, in the order of its depth-first
search over meld groups, of those that meld the most points. Of eleven cards it
counts the deadwood less the highest-ranked deadwood card, which is not always
the least deadwood a throw can leave, so it sometimes holds a hand it could
knock with. Ties go to the higher rank, then to OpenSpiel's later suit
(spades, clubs, diamonds, hearts). It plays aces low whatever the settings say.

Where its choice is not legal here (it may throw back the card just taken from
the pile; a knock card the rules here refuse), it throws the legal card that
leaves the least deadwood, the highest-scoring first, as the external wrapper
does. The two give the same games (``bench/openspiel_port_check.py``); this
one needs no OpenSpiel and decides in a fraction of the time. One difference:
at Gin only the wrapper does not tell OpenSpiel the rule (its bot knocks at 10,
and the wrapper throws the least-deadwood card instead), where the port plays
as OpenSpiel's bot would with the hand's knock limit, 0.
"""

from __future__ import annotations

from functools import lru_cache

from ginrummy.bots._common import deadwood_of, take_or_draw
from ginrummy.cards import FULL_DECK, mask_of
from ginrummy.hand import Action, Discard, Knock, Phase, PlayerView

__all__ = ["OpenSpielBot", "best_meld_group", "min_deadwood"]

_OS_SUIT = (1, 2, 3, 0)
"""OpenSpiel's suit for ours (clubs, diamonds, hearts, spades): it orders spades, clubs,
diamonds, hearts."""
_WALL = 2
"""OpenSpiel's stock size at the wall, where its bot never takes the pile card."""

Meld = tuple[int, ...]


def to_os(card: int) -> int:
    """OpenSpiel's index of our card index."""
    return _OS_SUIT[card // 13] * 13 + card % 13


def _from_os(card: int) -> int:
    return _OS_SUIT.index(card // 13) * 13 + card % 13


def _rank_key(card: int) -> tuple[int, int]:
    return card % 13, card


def _value(card: int) -> int:
    return min(10, card % 13 + 1)


def _all_melds(cards: tuple[int, ...]) -> list[Meld]:
    """OpenSpiel's melds of ``cards`` in its order: sets of four, then their threes,
    then sets of three, then runs of five, four and three."""
    out: list[Meld] = []
    by_rank = sorted(cards, key=_rank_key)
    for i in range(len(by_rank) - 3):
        a, b, c, d = by_rank[i : i + 4]
        if a % 13 == d % 13:
            out += [(a, b, c, d), (a, b, d), (a, c, d)]
    for i in range(len(by_rank) - 2):
        if by_rank[i] % 13 == by_rank[i + 2] % 13:
            out.append(tuple(by_rank[i : i + 3]))
    by_suit = sorted(cards)
    for size in (5, 4, 3):
        for i in range(len(by_suit) - size + 1):
            first, last = by_suit[i], by_suit[i + size - 1]
            if last - first == size - 1 and first // 13 == last // 13:
                out.append(tuple(by_suit[i : i + size]))
    return out


@lru_cache(maxsize=1 << 16)
def best_meld_group(cards: frozenset[int]) -> tuple[Meld, ...]:
    """OpenSpiel's best meld group of ``cards`` (its indices): the first group, in its
    depth-first order, that melds the most points."""
    best: tuple[Meld, ...] = ()
    best_value = 0
    path: list[Meld] = []

    def walk(meld: Meld, melds: list[Meld]) -> None:
        nonlocal best, best_value
        path.append(meld)
        taken = set(meld)
        children = [m for m in melds if taken.isdisjoint(m)]
        if children:
            for child in children:
                walk(child, children)
        else:
            value = sum(_value(c) for m in path for c in m)
            if value > best_value:
                best, best_value = tuple(path), value
        path.pop()

    melds = _all_melds(tuple(sorted(cards)))
    for meld in melds:
        walk(meld, melds)
    return best


def _best_deadwood(cards: frozenset[int]) -> list[int]:
    melded = {c for m in best_meld_group(cards) for c in m}
    return sorted((c for c in cards if c not in melded), key=_rank_key)


def min_deadwood(cards: frozenset[int]) -> int:
    """OpenSpiel's deadwood count of ``cards`` (its indices): of eleven cards, less the
    highest-ranked card of the best meld group's deadwood."""
    dead = _best_deadwood(cards)
    if len(cards) == 11 and dead:
        dead.pop()
    return sum(_value(c) for c in dead)


def _discard(cards: frozenset[int]) -> int:
    """The card OpenSpiel's bot throws from eleven: the highest-ranked deadwood card, or
    with all eleven melded the lowest card whose throw keeps gin."""
    dead = _best_deadwood(cards)
    if dead:
        return dead[-1]
    for c in sorted(cards):
        if min_deadwood(cards - {c}) == 0:
            return c
    raise AssertionError("eleven melded cards always keep gin without one of them")


class OpenSpielBot:
    """OpenSpiel's simple gin rummy bot, without OpenSpiel."""

    name = "openspiel"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        """One legal action for ``view``."""
        hand = frozenset(to_os(int(c)) for c in view.hand)
        limit = view.knock_limit
        if view.phase in (Phase.UPCARD, Phase.DRAW):
            top = view.top_of_pile
            take = False
            if top is not None and view.stock_count != _WALL and len(view.legal_actions) > 1:
                up = to_os(int(top))
                with_up = hand | {up}
                take = min_deadwood(with_up) <= limit or up not in _best_deadwood(with_up)
            return take_or_draw(view, take)
        card = FULL_DECK[_from_os(_discard(hand))]
        knock = min_deadwood(hand) <= limit
        for action in view.legal_actions:
            if isinstance(action, Knock if knock else Discard) and action.card == card:
                return action
        return self._fallback(view, knock)

    @staticmethod
    def _fallback(view: PlayerView, knock: bool) -> Action:
        """The legal throw that leaves the least deadwood, the highest-scoring first."""
        mask = mask_of(view.hand)
        kind = Knock if knock else Discard
        options = [a for a in view.legal_actions if isinstance(a, kind)] or [
            a for a in view.legal_actions if isinstance(a, Discard)
        ]

        def left(action: Knock | Discard) -> tuple[int, int]:
            return deadwood_of(mask & ~(1 << int(action.card)), False), -action.card.points

        return min(options, key=left)
