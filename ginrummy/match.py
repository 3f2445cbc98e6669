"""A match: hands until somebody reaches the target, with the score sheet.

Chance is an input here too: the first dealer (the cut) and each hand's deck
order are given by the caller, so a match can be replayed exactly. Use
:meth:`Match.new` with a seed for a reproducible match or with
``random.SystemRandom()`` for real play.

>>> import random
>>> from ginrummy.match import Match
>>> m = Match.new(rng=random.Random(1))
>>> m.hand is not None, m.scores, m.is_over
(True, (0, 0), False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ginrummy.cards import Card
from ginrummy.hand import (
    Action,
    EarlierHand,
    Hand,
    HandResult,
    IllegalActionError,
    Knock,
    PlayerView,
    ResultKind,
    shuffled_deck,
)
from ginrummy.melds import LayOff, Meld
from ginrummy.settings import Settings, ShutoutRule

__all__ = ["FinalScore", "Match", "ScoreEntry", "cut_for_deal"]

GAME_BONUS = 100
"""House rule "game bonus": added to the match winner's total at the end."""
LINE_BONUS = 25
"""House rule "line bonus": added at the end for each hand a player won."""
SHUTOUT_PLUS = 100
"""House rule "shutout, add 100": added to the winner when the loser never scored."""


def cut_for_deal(rng: random.Random) -> int:
    """The first dealer of a match, chosen at random (0 or 1)."""
    return rng.randrange(2)


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """One line of the score sheet: how a hand ended and the running totals.

    It holds both hands as laid down (melds and deadwood), the lay-offs (each
    names the knocker's meld by its index in ``knocker_melds``), both counts,
    the result, the points (spades double included), who scored them and the
    running totals after the hand. A dead hand's line shows no cards.
    """

    number: int
    dealer: int
    kind: ResultKind
    winner: int | None
    points: int
    knocker: int | None
    knocker_melds: tuple[Meld, ...]
    knocker_deadwood: tuple[Card, ...]
    knocker_points: int
    defender_melds: tuple[Meld, ...]
    lay_offs: tuple[LayOff, ...]
    defender_deadwood: tuple[Card, ...]
    defender_points: int
    multiplier: int
    totals: tuple[int, int]
    knock_card: Card | None = None
    """The card the knocker threw face down (``None`` for big gin and dead hands)."""

    @classmethod
    def from_result(
        cls, number: int, dealer: int, result: HandResult, totals: tuple[int, int]
    ) -> ScoreEntry:
        """The sheet line for a finished hand."""
        return cls(
            number=number,
            dealer=dealer,
            kind=result.kind,
            winner=result.winner,
            points=result.points,
            knocker=result.knocker,
            knocker_melds=result.knocker_melds,
            knocker_deadwood=result.knocker_deadwood,
            knocker_points=result.knocker_points,
            defender_melds=result.defender_melds,
            lay_offs=result.lay_offs,
            defender_deadwood=result.defender_deadwood,
            defender_points=result.defender_points,
            multiplier=result.multiplier,
            totals=totals,
            knock_card=result.knock_card,
        )


@dataclass(frozen=True, slots=True)
class FinalScore:
    """The end of a match: the running totals, each end bonus, and the final totals.

    ``totals`` = ``running`` + ``game_bonus`` + ``line_bonus`` + ``shutout_bonus``.
    """

    winner: int
    running: tuple[int, int]
    game_bonus: tuple[int, int]
    line_bonus: tuple[int, int]
    shutout_bonus: tuple[int, int]
    totals: tuple[int, int]


@dataclass(eq=False)
class Match:
    """Hands of Gin Rummy until a player reaches ``settings.match_to``.

    After each hand the match waits for :meth:`next_hand` with the next deck
    order (the pause in which a player reads the score sheet). The deal passes
    to the other player after a won hand and stays after a dead one.
    """

    settings: Settings
    first_dealer: int
    hands: list[Hand] = field(default_factory=list)
    sheet: list[ScoreEntry] = field(default_factory=list)
    _earlier: list[tuple[EarlierHand, EarlierHand]] = field(
        default_factory=list, repr=False, compare=False
    )
    """The finished hands before the last as each player saw them end, made once each."""

    @classmethod
    def start(
        cls, deck: Sequence[int], *, first_dealer: int, settings: Settings | None = None
    ) -> Match:
        """A match whose first hand is dealt from ``deck`` by ``first_dealer``."""
        if first_dealer not in (0, 1):
            raise ValueError(f"the first dealer is player 0 or 1, not {first_dealer!r}")
        match = cls(settings=settings or Settings(), first_dealer=first_dealer)
        match.hands.append(Hand.deal(deck, dealer=first_dealer, settings=match.settings))
        return match

    @classmethod
    def new(cls, settings: Settings | None = None, *, rng: random.Random) -> Match:
        """A match with the first dealer cut and the first deck shuffled by ``rng``."""
        first = cut_for_deal(rng)
        return cls.start(shuffled_deck(rng), first_dealer=first, settings=settings)

    # -- reading --

    @property
    def hand(self) -> Hand:
        """The hand being played, or the last one played."""
        return self.hands[-1]

    @property
    def scores(self) -> tuple[int, int]:
        """The running totals."""
        return self.sheet[-1].totals if self.sheet else (0, 0)

    @property
    def is_over(self) -> bool:
        """Whether a player has reached the target."""
        return max(self.scores) >= self.settings.match_to

    @property
    def winner(self) -> int | None:
        """The match winner once the match is over."""
        if not self.is_over:
            return None
        a, b = self.scores
        return 0 if a > b else 1

    @property
    def awaiting_deal(self) -> bool:
        """Whether the last hand is over and the next one is not yet dealt."""
        return self.hand.is_over and not self.is_over

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the other player after a won hand, the same after a dead one."""
        last = self.hand
        if last.result is not None and last.result.kind is ResultKind.DEAD:
            return last.dealer
        return 1 - last.dealer

    @property
    def to_act(self) -> int | None:
        """The player who must act in the current hand, if any."""
        return self.hand.to_act

    def final_score(self) -> FinalScore | None:
        """The end-of-match totals with the house-rule bonuses, once the match is over.

        The bonuses, each only when its house rule is on: the game bonus (100)
        to the match winner; the line bonus (25 for each hand won) to each
        player; then the shutout, when the loser never scored (running score 0):
        either the winner's total so far (running score plus the other
        bonuses) is doubled, or 100 is added. Without house rules the final
        totals are the running score. ``None`` while the match goes on.
        """
        winner = self.winner
        if winner is None:
            return None
        running = self.scores
        s = self.settings
        game = [0, 0]
        line = [0, 0]
        shut = [0, 0]
        if s.game_bonus:
            game[winner] = GAME_BONUS
        if s.line_bonus:
            for entry in self.sheet:
                if entry.winner is not None:
                    line[entry.winner] += LINE_BONUS
        before = [running[p] + game[p] + line[p] for p in (0, 1)]
        # "The loser never scored": the loser's running score is 0 (a hand won
        # for 0 points, possible with a bonus set to 0, scores nothing).
        if s.shutout is not ShutoutRule.OFF and running[1 - winner] == 0:
            shut[winner] = before[winner] if s.shutout is ShutoutRule.DOUBLE else SHUTOUT_PLUS
        return FinalScore(
            winner=winner,
            running=running,
            game_bonus=(game[0], game[1]),
            line_bonus=(line[0], line[1]),
            shutout_bonus=(shut[0], shut[1]),
            totals=(before[0] + shut[0], before[1] + shut[1]),
        )

    # -- acting --

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions in the current hand."""
        return self.hand.legal_actions()

    def verify(self, action: Action, player: int | None = None) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal now.

        ``match_over`` and ``deal_next`` first, then the hand's own :meth:`Hand.verify`.
        """
        self._verify_in_play()
        self.hand.verify(action, player)

    def can(self, action: Action, player: int | None = None) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action, player)
        except IllegalActionError:
            return False
        return True

    def _verify_in_play(self) -> None:
        if self.is_over:
            raise IllegalActionError("match_over")
        if self.hand.is_over:
            raise IllegalActionError("deal_next")

    def default_knock(self, player: int | None = None) -> Knock:
        """The current hand's :meth:`Hand.default_knock` (the knock with no card named)."""
        self._verify_in_play()
        return self.hand.default_knock(player)

    def apply(self, action: Action, player: int | None = None) -> HandResult | None:
        """Apply an action to the current hand; returns the result if it ended the hand."""
        self._verify_in_play()
        self.hand.apply(action, player)
        result = self.hand.result
        if result is not None:
            a, b = self.scores
            if result.winner == 0:
                a += result.points
            elif result.winner == 1:
                b += result.points
            self.sheet.append(
                ScoreEntry.from_result(len(self.hands), self.hand.dealer, result, (a, b))
            )
        return result

    def next_hand(self, deck: Sequence[int]) -> Hand:
        """Deal the next hand from ``deck`` (only once the last hand is over)."""
        if self.is_over:
            raise IllegalActionError("match_over")
        if not self.hand.is_over:
            raise IllegalActionError("hand_in_play")
        hand = Hand.deal(deck, dealer=self.next_dealer, settings=self.settings)
        self.hands.append(hand)
        return hand

    def view(self, player: int) -> PlayerView:
        """The current hand as ``player`` sees it, with the match score and the
        earlier hands as that player saw them end."""
        earlier = self._earlier
        if len(earlier) < len(self.hands) - 1:
            # A new list, swapped in whole: views read from several threads (the
            # live streams share a match) never see one half made.
            earlier = earlier + [
                (h.summary(0), h.summary(1)) for h in self.hands[len(earlier) : -1]
            ]
            self._earlier = earlier
        view = self.hand.view(player)
        return replace(
            view,
            scores=self.scores,
            hand_number=len(self.hands),
            earlier=tuple(pair[view.player] for pair in earlier),
        )

    def state_key(self) -> tuple[object, ...]:
        """Everything that makes two matches the same match at the same point."""
        return (
            self.settings,
            self.first_dealer,
            tuple(h.state_key() for h in self.hands),
            tuple(self.sheet),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.state_key() == other.state_key()

    def __hash__(self) -> int:
        return hash((self.first_dealer, len(self.hands)))
