"""The coach: a review of each finished hand against Hard, with costs and reasons.

It sits above the bots (it plays hands out with them) and below the web app;
the engine and the bots never import it.

>>> from ginrummy.coach import review_hand
>>> from ginrummy.bots import make_bot
>>> from ginrummy.hand import Hand
>>> hand = Hand.from_seed(11, dealer=0)
>>> bots = [make_bot("hard", seed=0), make_bot("hard", seed=0)]
>>> while not hand.is_over:
...     _ = hand.apply(bots[hand.to_act].choose(hand.view(hand.to_act)))
>>> review = review_hand(hand, 0, samples=4, seed=0)  # player 0 played as this Hard plays
>>> all(d.action == d.hard for d in review.decisions if d.player == 0), review.mistakes
(True, ())
"""

from ginrummy.coach.reasons import Reason, ReasonCode, describe
from ginrummy.coach.review import (
    DEFAULT_SAMPLES,
    THRESHOLD,
    Decision,
    DecisionKind,
    HandReview,
    Hint,
    MatchReview,
    Option,
    ReviewError,
    hint,
    review_hand,
    review_match,
)
from ginrummy.coach.worlds import sample_world

__all__ = [
    "DEFAULT_SAMPLES",
    "THRESHOLD",
    "Decision",
    "DecisionKind",
    "HandReview",
    "Hint",
    "MatchReview",
    "Option",
    "Reason",
    "ReasonCode",
    "ReviewError",
    "describe",
    "hint",
    "review_hand",
    "review_match",
    "sample_world",
]
