"""``camper``: a port of the decision rules of MARJJ v5, a gin camper.

MARJJ (``aqib-a99/MARJJ``, ``MARJJ_v5-1.java``) comes from the lineage of
the EAAI 2021 Gin Rummy challenge's winners. Its rules, as ported here:

- **The upcard and the pile card**: it takes the card when the card lies in
  a meld of the best arrangement of the eleven cards and the deadwood after
  the best throw is below the deadwood now.
- **The throw candidates**: the cards left out of the melds of some best
  arrangement of the eleven, never the card just taken, only those within
  5 points of the most expensive of them; a throw that leaves gin is made at
  once; a candidate that leaves more than 5 points above the least deadwood
  is dropped.
- **The one-draw look-ahead**: each candidate is scored by the deadwood it
  leaves plus ``18 * 0.9 ** (turn - 1)`` times the mean of the best seven
  deadwoods reachable with one more draw from the cards it has not seen
  (drawing each, then throwing the best card).
- **The danger terms**: bonuses for a throw whose suit neighbours or rank
  mates are out of play, penalties for one whose neighbours or rank mates
  the other player took from the pile (points added to the score above).
  Ties go at random.
- **Knocking**: with the throw so chosen, in its first three turns whenever
  the rules allow; after that only for gin, except at the wall (the last
  throw before the hand would die, where a knock is worth more than nothing).
- **The layout**: among the least-deadwood arrangements, the one whose melds
  leave the fewest lay-off points to the other player by MARJJ's count.

What MARJJ knows is what this port knows: the cards it has seen, and the
cards the other player took from the pile (it remembers them even after they
are thrown again, as MARJJ does). The one deliberate difference: MARJJ v5
never knocks after its third turn short of gin; the wall knock is this
port's, since a hand here dies two cards before the stock runs out.
"""

from __future__ import annotations

import random

from ginrummy import melds
from ginrummy.bots._common import (
    ALL_CARDS,
    big_gin_action,
    bits,
    decision_rng,
    discard_cards,
    knock_cards,
    read_record,
    take_or_draw,
)
from ginrummy.bots._lookahead import future_deadwood
from ginrummy.cards import CARD_POINTS, FULL_DECK, Bitmask, CardSet, mask_of
from ginrummy.hand import DEAD_AT, Action, Discard, Knock, Phase, PlayerView

__all__ = [
    "CamperBot",
    "danger_points",
    "lay_off_points",
    "throw_candidates",
    "throw_scores",
]

# MARJJ's danger terms (points added to a throw's score; negative is a bonus).
SEQUENCE_BONUS = -10.0
ADJ_BONUS = -5.0
ADJ2_BONUS = -3.0
SEQUENCE_PENALTY = 20.0
ADJ_PENALTY = 5.0
ADJ2_PENALTY = 3.0
SET_BONUS = -10.0
RANK_BONUS = -4.0
SET_PENALTY = 20.0
RANK_PENALTY = 4.0

MAX_DIFFERENCE = 5
"""Candidates lie within this many points of the dearest unmelded card."""
INIT_WEIGHT = 18.0
DECAY = 0.9
BEST_FEW = 7
"""The look-ahead averages this many of the best one-draw deadwoods."""
KNOCK_TURNS = 3


def _deadwood(mask: Bitmask, ace_high: bool) -> int:
    return melds.deadwood_mask(mask, ace_high)


def throw_candidates(hand: Bitmask, locked: int | None, ace_high: bool) -> dict[int, int]:
    """MARJJ's throw candidates of an eleven-card hand, each with the deadwood it leaves.

    A card is left out of the melds of some least-deadwood arrangement of
    the eleven exactly when the hand without it has that much deadwood less
    its points, which is how it is found here.
    """
    whole = _deadwood(hand, ace_high)
    cards = [c for c in bits(hand) if c != locked]
    free = [c for c in cards if _deadwood(hand & ~(1 << c), ace_high) + CARD_POINTS[c] == whole]
    if free:
        dearest = max(CARD_POINTS[c] for c in free)
        free = [c for c in free if CARD_POINTS[c] >= dearest - MAX_DIFFERENCE]
    if len(free) == 1:
        return {free[0]: _deadwood(hand & ~(1 << free[0]), ace_high)}
    if not free:
        free = cards
    left = {c: _deadwood(hand & ~(1 << c), ace_high) for c in free}
    for c, d in left.items():
        if d == 0:
            return {c: 0}
    least = min(left.values())
    return {c: d for c, d in left.items() if d <= least + MAX_DIFFERENCE}


def throw_scores(
    hand: Bitmask,
    candidates: dict[int, int],
    unseen: Bitmask,
    seen: Bitmask,
    opp: Bitmask,
    turns: int,
    ace_high: bool,
) -> dict[int, float]:
    """MARJJ's score of each of ``candidates`` (from :func:`throw_candidates`) for the
    eleven cards ``hand`` in its ``turns``-th turn, lowest best: the deadwood left, the
    weighted one-draw look-ahead over ``unseen``, and the danger terms."""
    weight = INIT_WEIGHT * DECAY ** max(0, turns - 1)
    return {
        c: left
        + weight * future_deadwood(hand & ~(1 << c), unseen, ace_high)
        + danger_points(c, hand, seen, opp)
        for c, left in candidates.items()
    }


def danger_points(card: int, mine: Bitmask, seen: Bitmask, opp: Bitmask) -> float:
    """MARJJ's danger terms for throwing ``card``: bonuses when its neighbours are
    out of play, penalties when the other player took them."""
    rank = card % 13

    def state(other: int) -> tuple[bool, bool]:
        bit = 1 << other
        if opp & bit:
            return True, False
        return False, bool((mine | seen) & bit)

    opp_hi = opp_lo = opp_hi2 = opp_lo2 = False
    gone_hi = gone_lo = gone_hi2 = gone_lo2 = False
    if rank < 12:
        opp_hi, gone_hi = state(card + 1)
    else:
        gone_hi = True
    if rank > 0:
        opp_lo, gone_lo = state(card - 1)
    else:
        gone_lo = True
    if rank < 11:
        opp_hi2, gone_hi2 = state(card + 2)
    else:
        # As in MARJJ: a queen or king counts its next card up as out of play.
        gone_hi = True
    if rank > 1:
        opp_lo2, gone_lo2 = state(card - 2)
    else:
        gone_lo2 = True
    opp_rank = gone_rank = 0
    for suit in range(4):
        # As in MARJJ, the card itself counts among the unavailable cards of its rank.
        o, g = state(suit * 13 + rank)
        opp_rank += o
        gone_rank += g
    score = 0.0
    if (gone_hi and (gone_lo or gone_lo2)) or (gone_lo and (gone_hi or gone_hi2)):
        score += SEQUENCE_BONUS
    else:
        score += ADJ_BONUS * (gone_lo + gone_hi) + ADJ2_BONUS * (gone_lo2 + gone_hi2)
    if (opp_hi and (opp_lo or opp_lo2)) or (opp_lo and (opp_hi or opp_hi2)):
        score += SEQUENCE_PENALTY
    else:
        score += ADJ_PENALTY * (opp_lo + opp_hi) + ADJ2_PENALTY * (opp_lo2 + opp_hi2)
    if gone_rank >= 3:
        score += SET_BONUS
    elif gone_rank == 2:
        score += RANK_BONUS
    if opp_rank >= 2:
        score += SET_PENALTY
    elif gone_rank == 1:
        score += RANK_PENALTY
    return score


def lay_off_points(meld_masks: tuple[Bitmask, ...], unseen: Bitmask, opp: Bitmask) -> int:
    """MARJJ's count of what a layout offers the other player to lay off.

    A run open at an end (the card there unseen or taken by the other player)
    counts the points of its end card; a set counts the points of its rank
    when its fourth card is open.
    """
    open_ = unseen | opp
    total = 0
    for m in meld_masks:
        cs = bits(m)
        if len({c // 13 for c in cs}) == 1:
            if cs[0] % 13 == 0 and cs[-1] % 13 == 12:
                cs = cs[1:] + cs[:1]  # an ace-high run: the ace is its top card
            low, high = cs[0], cs[-1]
            if low % 13 > 0 and open_ >> (low - 1) & 1:
                total += CARD_POINTS[low]
            if high % 13 < 12 and open_ >> (high + 1) & 1:
                total += CARD_POINTS[high]
        else:
            for c in cs:
                if open_ >> ((c + 13) % 52) & 1:
                    total += CARD_POINTS[c]
    return total


def takes_card(hand: Bitmask, card: int, ace_high: bool) -> bool:
    """MARJJ's upcard rule: the card melds in the best arrangement and lowers the deadwood."""
    taken = hand | 1 << card
    in_meld = _deadwood(taken, ace_high) < _deadwood(hand, ace_high) + CARD_POINTS[card]
    lower = melds.deadwood_after_discard_mask(taken, ace_high) < _deadwood(hand, ace_high)
    return in_meld and lower


class CamperBot:
    """MARJJ v5's rules: throw by a one-draw look-ahead and danger, knock early or for gin."""

    name = "camper"
    knock_turns = KNOCK_TURNS
    wall_knock = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        """One legal action for ``view``."""
        ace_high = view.settings.ace_high
        hand = mask_of(view.hand)
        if view.phase in (Phase.UPCARD, Phase.DRAW):
            top = view.top_of_pile
            can_take = len(view.legal_actions) > 1
            return take_or_draw(
                view, can_take and top is not None and takes_card(hand, int(top), ace_high)
            )
        big = big_gin_action(view)
        if big is not None:
            return big
        record = read_record(view)
        opp_known = mask_of(view.opponent_pile_cards)
        unseen = ALL_CARDS & ~hand & ~record.pile_mask & ~opp_known
        seen = ALL_CARDS & ~unseen
        # A card can be taken from the pile twice (taken, thrown, taken back by
        # this player, thrown again, taken again): count it once.
        opp = mask_of(set(record.opp_took))
        turns = record.my_turns
        rng = decision_rng(self.seed, view)
        locked = None if view.locked_card is None else int(view.locked_card)
        card = self._throw(hand, locked, unseen, seen, opp, turns, ace_high, rng)
        legal = set(discard_cards(view))
        if card not in legal:  # cannot happen: candidates are the legal throws
            card = min(legal)
        knocks = knock_cards(view)
        left = _deadwood(hand & ~(1 << card), ace_high)
        if card in knocks and (left == 0 or turns <= self.knock_turns):
            return self._knock(hand, card, unseen, opp, ace_high)
        if self.wall_knock and knocks and view.stock_count <= DEAD_AT:
            best = min(
                knocks, key=lambda c: (_deadwood(hand & ~(1 << c), ace_high), -CARD_POINTS[c])
            )
            return self._knock(hand, best, unseen, opp, ace_high)
        return Discard(FULL_DECK[card])

    def _throw(
        self,
        hand: Bitmask,
        locked: int | None,
        unseen: Bitmask,
        seen: Bitmask,
        opp: Bitmask,
        turns: int,
        ace_high: bool,
        rng: random.Random,
    ) -> int:
        candidates = throw_candidates(hand, locked, ace_high)
        if len(candidates) == 1:
            return next(iter(candidates))
        scores = throw_scores(hand, candidates, unseen, seen, opp, turns, ace_high)
        least = min(scores.values())
        return rng.choice(sorted(c for c, s in scores.items() if s == least))

    def _knock(
        self, hand: Bitmask, card: int, unseen: Bitmask, opp: Bitmask, ace_high: bool
    ) -> Action:
        kept = hand & ~(1 << card)
        options = melds.all_best_arrangements(CardSet.from_mask(kept), ace_high=ace_high)
        chosen = min(options, key=lambda a: lay_off_points(a.meld_masks, unseen, opp))
        return Knock(FULL_DECK[card], chosen.melds)
