"""The review of a finished hand: each decision against Hard's, its cost and a reason.

For each decision of the reviewed player (take or pass the upcard, stock or
pile, which card to throw, knock or play on, which layout to knock with) the
review compares the action taken with a few candidates: Hard's choice from that
player's view, and for a throw the card that leaves the least deadwood and the
best knock. Each candidate is valued in hand points for the reviewed player by
Monte Carlo from that player's information only: a sample deals the hidden cards
in a way the player cannot tell from the real deal (:mod:`ginrummy.coach.worlds`),
then each candidate is applied to that same deal and the hand is played out to
its end by Hard for both seats (or the other seat's bot, when known). The
candidates share the deals and the bots' seeds (common random numbers), so
their difference is measured with much less noise than either value.

The cost of a decision is the mean, over the samples, of the best candidate's
points less the taken action's points, with a 95% t-interval of that paired
difference. A decision is a mistake only when its cost is above
:data:`THRESHOLD` points and its interval excludes zero.

The other player's decisions get a reason from the same set (why the computer
did that), worked out from that player's view, without play-outs.
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import partial
from statistics import NormalDist
from typing import Any, ClassVar

from ginrummy.bots import Bot, make_bot
from ginrummy.bots.hard import hard_variant
from ginrummy.cards import FULL_DECK, cards_of_mask, format_cards, mask_of
from ginrummy.coach.reasons import Reason, ReasonCode
from ginrummy.coach.worlds import sample_world, unseen_mask
from ginrummy.hand import (
    Action,
    DeclareBigGin,
    Discard,
    DrawPile,
    Hand,
    Knock,
    Phase,
    PlayerView,
    ResultKind,
    TakeUpcard,
)
from ginrummy.match import Match
from ginrummy.melds import deadwood_mask, melds_in

__all__ = [
    "DEFAULT_SAMPLES",
    "THRESHOLD",
    "Decision",
    "DecisionKind",
    "HandReview",
    "MatchReview",
    "Option",
    "ReviewError",
    "hint",
    "review_hand",
    "review_match",
    "watch_parent",
]

THRESHOLD = 2.0
"""Points: a decision costing this much or less is never a mistake."""

DEFAULT_SAMPLES = 8
"""Sampled deals per decision (each played out once per candidate)."""

PLAYOUT = "hard:-lookahead,-rollout,samples=32"
"""The bot that plays the samples out for both seats when the other seat was Hard.

Hard without its one-draw look-ahead and without its own play-outs of the
hand (a review is almost all play-outs, and Hard's throws would play the hand
out again inside each). Without the look-ahead it decides in about half the
time, and the costs agreed within a point with play-outs by Hard with the
look-ahead (docs/COACH.md). Its knock search deals 32 hands, as the app's Hard
did before it dealt 128: a review's play-outs search many knocks, and 128 made an
Easy player's review some 60% slower. The decision being judged is still
compared with full Hard's choice."""

PROMISE = 0.5
"""A first look gets a second only when its cost is at least this share of what would
mark it on three times the deals: a smaller cost would rarely be marked even so."""

HINT_SAMPLES = 8
"""Sampled deals behind a hint's shares (a hint plays nothing out)."""

ProgressFn = Callable[[int, int], None]
"""Called with (decisions done, decisions in all) as a review goes."""


class ReviewError(ValueError):
    """A review that cannot be made; ``code`` names why, ``params`` give the details.

    >>> e = ReviewError("hand_in_play", hand=2)
    >>> e.code, e.params, str(e)
    ('hand_in_play', {'hand': 2}, 'hand 2 is still in play: its review would reveal hidden cards')
    """

    MESSAGES: ClassVar[dict[str, str]] = {
        "hand_in_play": "hand {hand} is still in play: its review would reveal hidden cards",
        "no_such_hand": "there is no hand {hand}: the record has hands 1 to {hands}",
        "no_such_player": "player {player} is not a seat: the players are 0 and 1",
        "too_few_samples": "a review needs at least 2 samples per decision, not {samples}",
        "unknown_bot": "no bot is called {bot!r}",
        "not_to_act": "player {player} is not to act: there is no decision to hint at",
    }

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.MESSAGES[code].format(**params))


class DecisionKind(StrEnum):
    """Which decision a player made."""

    UPCARD = "upcard"
    """Take or pass the upcard."""
    DRAW = "draw"
    """Draw from the stock or take the pile card."""
    DISCARD = "discard"
    """Which card to throw (no knock was possible)."""
    KNOCK = "knock"
    """Knock or play on, and with which card."""
    LAYOUT = "layout"
    """Which of the least-deadwood layouts to knock with."""


@dataclass(frozen=True, slots=True)
class Option:
    """One candidate action and its mean points for the reviewed player over the samples."""

    action: str
    points: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a hand, as the review sees it.

    ``number`` is the 1-based number of the action in the hand's record (a
    layout decision shares its knock's number). For the reviewed player
    ``cost`` (points) and its 95% interval ``low``..``high`` compare the action
    with ``best``; ``mistake`` marks a cost above the threshold whose interval
    excludes zero, and ``reason`` says why. For the other player only
    ``reason`` is given (``None`` after a dead hand, whose cards stay hidden).
    """

    number: int
    player: int
    kind: DecisionKind
    action: str
    hard: str | None
    best: str | None = None
    cost: float | None = None
    low: float | None = None
    high: float | None = None
    samples: int = 0
    mistake: bool = False
    reason: Reason | None = None
    options: tuple[Option, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values."""
        return {
            "number": self.number,
            "player": self.player,
            "kind": self.kind.value,
            "action": self.action,
            "hard": self.hard,
            "best": self.best,
            "cost": _rounded(self.cost),
            "interval": None if self.low is None else [_rounded(self.low), _rounded(self.high)],
            "samples": self.samples,
            "mistake": self.mistake,
            "reason": None if self.reason is None else self.reason.to_dict(),
            "options": [{"action": o.action, "points": _rounded(o.points)} for o in self.options],
        }


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


@dataclass(frozen=True, slots=True)
class HandReview:
    """The review of one finished hand for one player."""

    number: int
    player: int
    dealer: int
    result: str
    winner: int | None
    points: int
    decisions: tuple[Decision, ...]
    samples: int
    seed: int
    threshold: float = THRESHOLD
    opponent: str = "hard"
    wide: bool = False
    playout: str = PLAYOUT
    """The bot that played the samples out (not in :meth:`to_dict`, which the app stores)."""

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The reviewed player's decisions marked as mistakes."""
        return tuple(d for d in self.decisions if d.mistake)

    @property
    def points_lost(self) -> float:
        """The summed cost of the mistakes."""
        return sum(d.cost or 0.0 for d in self.mistakes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values."""
        return {
            "hand": self.number,
            "player": self.player,
            "dealer": self.dealer,
            "result": {"kind": self.result, "winner": self.winner, "points": self.points},
            "samples": self.samples,
            "seed": self.seed,
            "threshold": self.threshold,
            "opponent": self.opponent,
            "wide": self.wide,
            "mistakes": len(self.mistakes),
            "points_lost": round(self.points_lost, 2),
            "decisions": [d.to_dict() for d in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class MatchReview:
    """The reviews of a match's hands for one player."""

    player: int
    hands: tuple[HandReview, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values."""
        return {
            "player": self.player,
            "mistakes": sum(len(h.mistakes) for h in self.hands),
            "points_lost": round(sum(h.points_lost for h in self.hands), 2),
            "hands": [h.to_dict() for h in self.hands],
        }


# --- sampling -----------------------------------------------------------------


@dataclass(slots=True)
class _Outcome:
    points: int
    kind: ResultKind
    collected: bool
    """The other player took the thrown card from the pile at their next turn."""


@dataclass(slots=True)
class _Table:
    """What every play-out of one hand shares: the bots and the match score."""

    player: int
    bots: tuple[Bot, Bot]
    scores: tuple[int, int]
    number: int

    def view(self, hand: Hand, player: int) -> PlayerView:
        view = hand.view(player)
        if self.scores != (0, 0) or self.number != 1:
            view = replace(view, scores=self.scores, hand_number=self.number)
        return view

    def play_out(self, world: Hand, first: Action) -> _Outcome:
        me = self.player
        world.apply(first)
        watch = first.card if isinstance(first, Discard) else None
        collected = False
        while not world.is_over:
            p = world.to_act
            assert p is not None
            action = self.bots[p].choose(self.view(world, p))
            if watch is not None and p != me:
                collected = isinstance(action, DrawPile)
                watch = None
            world.apply(action, p)
        result = world.result
        assert result is not None
        sign = 0 if result.winner is None else (1 if result.winner == me else -1)
        return _Outcome(sign * result.points, result.kind, collected)


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (Cornish-Fisher).

    >>> round(t_quantile(0.975, 7), 2), round(t_quantile(0.975, 1), 2)
    (2.36, 12.71)
    """
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    z = NormalDist().inv_cdf(p)
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def _paired(
    best: Sequence[int], taken: Sequence[int], comparisons: int
) -> tuple[float, float, float]:
    """Mean of best - taken and its 95% interval, widened for ``comparisons`` alternatives.

    The best is picked among several candidates, so each comparison gets a
    share of the 5% (Bonferroni): with one alternative this is the plain
    95% t-interval.
    """
    n = len(best)
    diffs = [b - t for b, t in zip(best, taken, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = t_quantile(1 - 0.025 / comparisons, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def playout_bot(name: str, seed: int) -> Bot:
    """A play-out bot by name: one of the bots' names or ``hard:OPTIONS`` (a Hard variant).

    >>> playout_bot(PLAYOUT, seed=1).name
    'hard:-lookahead,-rollout,samples=32'
    """
    if name.strip().lower().startswith("hard:"):
        return hard_variant(name.strip()[5:], seed)
    return make_bot(name, seed=seed)


# --- candidates -----------------------------------------------------------------


def _kind(hand: Hand) -> DecisionKind:
    if hand.phase is Phase.UPCARD:
        return DecisionKind.UPCARD
    if hand.phase is Phase.DRAW:
        return DecisionKind.DRAW
    legal = hand.legal_actions()
    if any(isinstance(a, (Knock, DeclareBigGin)) for a in legal):
        return DecisionKind.KNOCK
    return DecisionKind.DISCARD


def _is_choice(hand: Hand) -> bool:
    return len(hand.legal_actions()) > 1


def _laid(hand: Hand, action: Action) -> Action:
    """A knock with its layout spelled out (the engine's preferred one when none was given)."""
    if isinstance(action, Knock) and action.melds is None:
        return Knock(action.card, hand.knock_arrangements(action.card)[0].melds)
    return action


def _key(action: Action) -> object:
    # A knock is one candidate per card: its layout is a decision of its own.
    return ("knock", action.card) if isinstance(action, Knock) else action


def _least_deadwood_throw(hand: Hand, allowed: Sequence[int]) -> int:
    options = hand.knock_options()
    return min(allowed, key=lambda c: (options[FULL_DECK[c]], -FULL_DECK[c].points, -c))


def _candidates(hand: Hand, taken: Action, hard: Action, wide: bool) -> list[Action]:
    """The taken action first, then Hard's choice; ``wide`` adds the other natural choices."""
    found = [_laid(hand, taken), _laid(hand, hard)]
    legal = hand.legal_actions()
    if wide and hand.phase is not Phase.DISCARD:
        found += legal
    elif wide:
        throws = [int(a.card) for a in legal if isinstance(a, Discard)]
        knocks = [int(a.card) for a in legal if isinstance(a, Knock)]
        found.append(Discard(FULL_DECK[_least_deadwood_throw(hand, throws)]))
        if knocks:
            found.append(_laid(hand, Knock(FULL_DECK[_least_deadwood_throw(hand, knocks)])))
        if DeclareBigGin() in legal:
            found.append(DeclareBigGin())
    out: list[Action] = []
    seen: set[object] = set()
    for action in found:
        if _key(action) not in seen:
            seen.add(_key(action))
            out.append(action)
    return out


# --- what a view shows about the cards ---------------------------------------------


def _indices(mask: int) -> list[int]:
    return [int(c) for c in cards_of_mask(mask)]


def _makes_meld(card: int, cards: int, ace_high: bool) -> bool:
    """Whether ``card`` forms a meld with cards of ``cards``."""
    together = cards | 1 << card
    return any(m >> card & 1 for m in melds_in(_indices(together), ace_high=ace_high))


def _dead_pair(view: PlayerView, kept: int, card: int) -> tuple[int, int] | None:
    """A pair of ``card`` and a kept deadwood card whose completing cards are all gone.

    ``None`` when ``card`` melds or belongs to a pair with a live completing card.
    """
    ace_high = view.settings.ace_high
    if _makes_meld(card, kept, ace_high):
        return None
    unseen = unseen_mask(view)
    rank, suit = card % 13, card // 13
    found: tuple[int, int] | None = None
    for other in _indices(kept):
        if other // 13 == suit and abs(other % 13 - rank) in (1, 2):
            low, high = sorted((rank, other % 13))
            need = [low + 1] if high - low == 2 else [low - 1, high + 1]
            outs = [suit * 13 + r for r in need if 0 <= r <= 12]
        elif other % 13 == rank and other != card:
            outs = [s * 13 + rank for s in range(4) if s not in (suit, other // 13)]
        else:
            continue
        if _makes_meld(other, kept & ~(1 << other), ace_high):
            continue
        if any(unseen >> c & 1 for c in outs):
            return None
        found = found or (card, other)
    return found


def _layoff_spots(view: PlayerView, knock_card: int, melds: Sequence[Sequence[int]]) -> int:
    """The cards the other player could lay off on these melds, one step out, not yet seen gone."""
    ace_high = view.settings.ace_high
    gone = mask_of(view.hand) | mask_of(view.pile)
    gone |= 1 << knock_card
    spots = 0
    for meld in melds:
        suits = {c // 13 for c in meld}
        if len(suits) > 1:
            if len(meld) == 3:
                rank = meld[0] % 13
                spots += sum(
                    1 for s in range(4) if s not in suits and not gone >> (s * 13 + rank) & 1
                )
            continue
        suit = meld[0] // 13
        ranks = sorted(c % 13 for c in meld)
        if ace_high and 0 in ranks and 12 in ranks:
            ranks = sorted(r or 13 for r in ranks)
        for r in (ranks[0] - 1, ranks[-1] + 1):
            if r < 0 or r > (13 if ace_high else 12) or (r == 13 and not ace_high):
                continue
            c = suit * 13 + r % 13
            spots += not gone >> c & 1
    return spots


def _percent(share: float) -> int:
    return round(100 * share)


# --- the reviewed player's decisions ----------------------------------------------


@dataclass(slots=True)
class _Evaluation:
    candidates: list[Action]
    outcomes: list[list[_Outcome]] = field(default_factory=list)
    """Per candidate, one outcome per sample."""

    def points(self, i: int) -> list[int]:
        return [o.points for o in self.outcomes[i]]

    def share(self, i: int, test: Callable[[_Outcome], bool]) -> float:
        return sum(1 for o in self.outcomes[i] if test(o)) / len(self.outcomes[i])


def _sample_outcomes(
    view: PlayerView, candidates: list[Action], table: _Table, seed: str, i: int
) -> list[_Outcome]:
    """Deal sample ``i`` once and play every candidate out on it (common random numbers)."""
    world = sample_world(view, random.Random(f"{seed}/{i}"))
    return [table.play_out(world.clone(), action) for action in candidates]


def _start(
    view: PlayerView,
    candidates: list[Action],
    table: _Table,
    samples: int,
    seed: str,
    pool: Executor | None = None,
) -> Callable[[], _Evaluation]:
    """Start the play-outs of ``samples`` deals; the returned call waits for them.

    With a pool the samples are handed to it at once, so that the looks at
    several decisions keep every process busy; without one they are played
    out when the result is asked for.
    """
    play = partial(_sample_outcomes, view, candidates, table, seed)
    futures = None if pool is None else [pool.submit(play, k) for k in range(samples)]

    def finish() -> _Evaluation:
        if futures is None:
            rows = [play(k) for k in range(samples)]
        else:
            rows = [f.result() for f in futures]
        outcomes = [[row[j] for row in rows] for j in range(len(candidates))]
        return _Evaluation(candidates, outcomes)

    return finish


def _mistake_reason(
    view: PlayerView, kind: DecisionKind, ev: _Evaluation, taken: int, best: int, cost: float
) -> Reason:
    ace_high = view.settings.ace_high
    mine = mask_of(view.hand)
    a, b = ev.candidates[taken], ev.candidates[best]
    top = view.top_of_pile
    overall = Reason.of(ReasonCode.OVERALL, points=round(cost))
    if kind in (DecisionKind.UPCARD, DecisionKind.DRAW):
        assert top is not None
        melds = _makes_meld(int(top), mine, ace_high)
        took = isinstance(a, (TakeUpcard, DrawPile))
        if not took and melds:
            return Reason.of(ReasonCode.PASSED_MELD, card=str(top))
        if took and not melds:
            return Reason.of(ReasonCode.NO_MELD, card=str(top))
        return overall
    if isinstance(b, DeclareBigGin):
        return Reason.of(ReasonCode.KNOCK_WINS, percent=100)
    if isinstance(a, Knock) and not isinstance(b, Knock):
        share = ev.share(taken, lambda o: o.kind is ResultKind.UNDERCUT)
        return Reason.of(ReasonCode.UNDERCUT_RISK, percent=_percent(share)) if share else overall
    if isinstance(b, Knock) and not isinstance(a, Knock):
        share = ev.share(best, lambda o: o.points > 0)
        return Reason.of(ReasonCode.KNOCK_WINS, percent=_percent(share))
    if not isinstance(a, (Discard, Knock)) or not isinstance(b, (Discard, Knock)):
        return overall
    x, y = int(a.card), int(b.card)
    if isinstance(a, Discard):
        collected = ev.share(taken, lambda o: o.collected)
        if collected >= 0.25 and collected >= ev.share(best, lambda o: o.collected) + 0.1:
            return Reason.of(ReasonCode.COLLECTS, card=str(a.card), percent=_percent(collected))
    pair = _dead_pair(view, mine & ~(1 << x) & ~(1 << y), y)
    if pair is not None:
        return Reason.of(ReasonCode.DEAD_PAIR, cards=format_cards(pair))
    more = deadwood_mask(mine & ~(1 << x), ace_high) - deadwood_mask(mine & ~(1 << y), ace_high)
    if more > 0:
        return Reason.of(ReasonCode.MORE_DEADWOOD, points=more)
    if isinstance(a, Knock) and isinstance(b, Knock):
        share = ev.share(taken, lambda o: o.kind is ResultKind.UNDERCUT)
        if share > ev.share(best, lambda o: o.kind is ResultKind.UNDERCUT):
            return Reason.of(ReasonCode.UNDERCUT_RISK, percent=_percent(share))
    return overall


def _confirmed(
    view: PlayerView,
    candidates: list[Action],
    table: _Table,
    samples: int,
    seed: str,
    pool: Executor | None,
    judge: Callable[[_Evaluation], Decision],
    threshold: float,
    started: Callable[[], _Evaluation] | None = None,
) -> Decision:
    """Judge a decision; a contested one is judged again on twice as many more deals.

    A decision is contested when its cost on ``samples`` deals is above the
    threshold and at least :data:`PROMISE` of the cost that would be marked on
    ``3 * samples`` deals with the same spread. It is then judged again on those
    deals and ``2 * samples`` more: one lucky run of deals does not make a
    mistake, and a costly choice is not let off for want of deals. A decision
    that would rarely be marked even so stops at its first look. ``started`` is
    the first look, already handed to the pool.
    """
    first = (started or _start(view, candidates, table, samples, seed, pool))()
    decision = judge(first)
    if not _contested(decision, samples, len(candidates) - 1, threshold):
        return decision
    more = _start(view, candidates, table, 2 * samples, seed + "/confirm", pool)()
    both = [a + b for a, b in zip(first.outcomes, more.outcomes, strict=True)]
    return judge(_Evaluation(candidates, both))


def _contested(decision: Decision, samples: int, comparisons: int, threshold: float) -> bool:
    """Whether a first look's cost is at least :data:`PROMISE` of what would mark it
    on three times the deals (with the spread it had).

    >>> d = Decision(1, 0, DecisionKind.DISCARD, "discard 9H", "discard 2C", cost=9.0,
    ...              low=-3.0, high=21.0, samples=8)
    >>> _contested(d, 8, 1, 2.0), _contested(replace(d, low=-60.0, high=78.0), 8, 1, 2.0)
    (True, False)
    """
    if decision.cost is None or decision.high is None or decision.cost <= threshold:
        return False
    if decision.mistake:
        return True
    level = 1 - 0.025 / max(1, comparisons)
    half = decision.high - decision.cost
    narrowed = half * t_quantile(level, 3 * samples - 1) / t_quantile(level, samples - 1)
    return decision.cost > PROMISE * narrowed / math.sqrt(3)


def _judge(
    number: int,
    player: int,
    kind: DecisionKind,
    view: PlayerView,
    taken: Action,
    hard: str | None,
    ev: _Evaluation,
    threshold: float,
) -> Decision:
    means = [sum(ev.points(i)) / len(ev.outcomes[i]) for i in range(len(ev.candidates))]
    taken_i = 0
    best_i = max(range(len(means)), key=lambda i: (means[i], i == taken_i))
    samples = len(ev.outcomes[0])
    if best_i == taken_i:
        cost, low, high = 0.0, 0.0, 0.0
    else:
        comparisons = len(ev.candidates) - 1
        cost, low, high = _paired(ev.points(best_i), ev.points(taken_i), comparisons)
    mistake = cost > threshold and low > 0
    reason = _mistake_reason(view, kind, ev, taken_i, best_i, cost) if mistake else None
    return Decision(
        number=number,
        player=player,
        kind=kind,
        action=str(taken),
        hard=hard,
        best=str(ev.candidates[best_i]),
        cost=cost,
        low=low,
        high=high,
        samples=samples,
        mistake=mistake,
        reason=reason,
        options=tuple(Option(str(c), m) for c, m in zip(ev.candidates, means, strict=True)),
    )


# --- the other player's decisions ------------------------------------------------


def _knock_shares(view: PlayerView, knock: Knock, samples: int, seed: str) -> tuple[float, float]:
    """Over deals sampled from ``view``: how often this knock wins, and how often it is undercut."""
    wins = undercuts = 0
    for i in range(samples):
        world = sample_world(view, random.Random(f"{seed}/{i}"))
        world.apply(knock)
        result = world.result
        assert result is not None
        wins += result.winner == view.player
        undercuts += result.kind is ResultKind.UNDERCUT
    return wins / samples, undercuts / samples


def _collect_share(view: PlayerView, card: int, samples: int, seed: str) -> float:
    """How often ``card`` would make a meld in the other hand, over deals sampled from ``view``."""
    hits = 0
    other = 1 - view.player
    ace_high = view.settings.ace_high
    for i in range(samples):
        world = sample_world(view, random.Random(f"{seed}/{i}"))
        hits += _makes_meld(card, mask_of(world.cards_of(other)), ace_high)
    return hits / samples


def _explain(hand: Hand, view: PlayerView, action: Action, samples: int, seed: str) -> Reason:
    """Why the other player's action, from that player's view."""
    ace_high = view.settings.ace_high
    mine = mask_of(view.hand)
    top = view.top_of_pile
    if hand.phase in (Phase.UPCARD, Phase.DRAW):
        assert top is not None
        melds = _makes_meld(int(top), mine, ace_high)
        if isinstance(action, (TakeUpcard, DrawPile)):
            return Reason.of(ReasonCode.PASSED_MELD, card=str(top)) if melds else _overall()
        return Reason.of(ReasonCode.NO_MELD, card=str(top)) if not melds else _overall()
    if isinstance(action, DeclareBigGin):
        return Reason.of(ReasonCode.KNOCK_WINS, percent=100)
    legal = hand.legal_actions()
    if isinstance(action, Knock):
        wins, _ = _knock_shares(view, _laid(hand, action), samples, seed)  # type: ignore[arg-type]
        return Reason.of(ReasonCode.KNOCK_WINS, percent=_percent(wins))
    assert isinstance(action, Discard)
    knocks = [int(a.card) for a in legal if isinstance(a, Knock)]
    if knocks:
        knock = _laid(hand, Knock(FULL_DECK[_least_deadwood_throw(hand, knocks)]))
        assert isinstance(knock, Knock)
        _, undercut = _knock_shares(view, knock, samples, seed)
        return Reason.of(ReasonCode.UNDERCUT_RISK, percent=_percent(undercut))
    x = int(action.card)
    throws = [int(a.card) for a in legal if isinstance(a, Discard)]
    options = hand.knock_options()
    least = min(options[FULL_DECK[c]] for c in throws)
    y = _least_deadwood_throw(hand, throws)
    if options[FULL_DECK[x]] > least:
        share = _collect_share(view, y, samples, seed)
        if share >= 0.25:
            return Reason.of(ReasonCode.COLLECTS, card=str(FULL_DECK[y]), percent=_percent(share))
    pair = _dead_pair(view, mine & ~(1 << x), x)
    if pair is not None:
        return Reason.of(ReasonCode.DEAD_PAIR, cards=format_cards(pair))
    if options[FULL_DECK[x]] == least:
        return Reason.of(ReasonCode.MORE_DEADWOOD, points=0)
    return _overall()


def _overall() -> Reason:
    return Reason.of(ReasonCode.OVERALL)


def _layout_reason(view: PlayerView, card: int, taken: Knock, best: Knock) -> Reason | None:
    assert taken.melds is not None and best.melds is not None
    spots = _layoff_spots(view, card, taken.melds)
    needed = _layoff_spots(view, card, best.melds)
    if spots > needed:
        return Reason.of(ReasonCode.LAYOFF_SPOTS, spots=spots, needed=needed)
    return None


# --- hints -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hint:
    """Hard's choice for one decision from a player's own view, and its one-line reason."""

    kind: DecisionKind
    action: str
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values."""
        return {"kind": self.kind.value, "action": self.action, "reason": self.reason.to_dict()}


def hint(view: PlayerView, *, seed: int = 0, samples: int = HINT_SAMPLES) -> Hint:
    """What Hard would do from ``view`` (a player's view of a hand in play), and why.

    Only the view is read: the hand the reason is worked out on is a deal
    sampled from it (:func:`sample_world`), so a hint can never tell a hidden
    card. The reason comes from the same set as a review's.

    >>> from ginrummy.hand import Hand
    >>> h = hint(Hand.from_seed(11, dealer=0).view(1), seed=3)
    >>> h.kind.value, h.action in ("take", "pass")
    ('upcard', True)
    """
    if view.to_act != view.player:
        raise ReviewError("not_to_act", player=view.player)
    where = f"{seed}/hint"
    world = sample_world(view, random.Random(where))
    chosen = make_bot("hard", seed=seed).choose(view)
    reason = _explain(world, view, chosen, samples, where)
    return Hint(_kind(world), str(_laid(world, chosen)), reason)


# --- reviews ---------------------------------------------------------------------


def review_hand(
    hand: Hand,
    player: int,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    opponent: str = "hard",
    threshold: float = THRESHOLD,
    wide: bool = False,
    only: Collection[int] | None = None,
    jobs: int = 1,
    scores: tuple[int, int] = (0, 0),
    number: int = 1,
    progress: ProgressFn | None = None,
    pool: Executor | None = None,
    playout: str = PLAYOUT,
) -> HandReview:
    """Review ``player``'s decisions in a finished hand (and explain the other player's).

    ``seed`` fixes every sampled deal and the bots' seeds (the same inputs give
    the same review); ``opponent`` names the bot that played the other seat (its
    play-outs use it); ``scores`` and ``number`` place the hand in a match.
    A decision that agrees with Hard costs 0 and is not sampled; with ``wide``
    every decision is also compared with the other natural choices (both draws,
    the least-deadwood throw, the best knock), which is slower. ``only`` limits
    the review to the decisions made by those action numbers (1-based).
    ``playout`` names the bot that plays the samples out (for the other seat
    too when ``opponent`` is Hard); the decisions are still compared with full
    Hard's choice. ``jobs`` > 1 plays the samples out in that many processes (the review is
    the same, only sooner); ``pool`` is a process pool to play them out in instead
    (one kept by a server for every review). Raises :class:`ReviewError` for a hand
    still in play.
    """
    if player not in (0, 1) or isinstance(player, bool):
        raise ReviewError("no_such_player", player=player)
    if samples < 2:
        raise ReviewError("too_few_samples", samples=samples)
    if not hand.is_over:
        raise ReviewError("hand_in_play", hand=number)
    result = hand.result
    assert result is not None
    other = playout if opponent.strip().lower() == "hard" else opponent
    for name in (playout, other):
        try:
            playout_bot(name, seed=seed)
        except ValueError:
            raise ReviewError("unknown_bot", bot=name) from None
    mine_bot, other_bot = playout_bot(playout, seed=seed), playout_bot(other, seed=seed + 1)
    hard_bot = make_bot("hard", seed=seed)
    bots: tuple[Bot, Bot] = (mine_bot, other_bot) if player == 0 else (other_bot, mine_bot)
    table = _Table(player, bots, scores, number)
    # After a dead hand nothing more is shown: the other player's cards, and so
    # the reasons for their decisions, stay hidden.
    explain = result.kind is not ResultKind.DEAD
    replay = Hand.deal(hand.deck, dealer=hand.dealer, settings=hand.settings)
    # First every decision is found and its first look handed to the pool, then
    # the decisions are judged in order (a contested one gets its second look).
    entries: list[tuple[int, Callable[[], Decision]]] = []
    total = len(hand.actions)
    with _workers(jobs, pool) as pool:
        for i, action in enumerate(hand.actions):
            actor = replay.to_act
            assert actor is not None
            if _is_choice(replay) and (only is None or i + 1 in only):
                kind = _kind(replay)
                view = table.view(replay, actor)
                where = f"{seed}/{number}/{i + 1}"
                if actor == player:
                    hard = hard_bot.choose(view)
                    candidates = _candidates(replay, action, hard, wide)
                    if len(candidates) == 1:
                        # Hard's own choice is the reference: agreeing with it costs nothing.
                        entries.append((i, _ready(_agreed(i + 1, actor, kind, str(candidates[0])))))
                    else:
                        judge = partial(
                            _judge,
                            i + 1,
                            actor,
                            kind,
                            view,
                            candidates[0],
                            str(hard),
                            threshold=threshold,
                        )
                        started = None
                        if pool is not None:
                            started = _start(view, candidates, table, samples, where, pool)
                        entries.append(
                            (
                                i,
                                partial(
                                    _confirmed,
                                    view,
                                    candidates,
                                    table,
                                    samples,
                                    where,
                                    pool,
                                    judge,
                                    threshold,
                                    started,
                                ),
                            )
                        )
                    layout = _review_layout(
                        replay, view, action, hard, table, samples, where, threshold, wide
                    )
                    if layout is not None:
                        entries.append((i, _ready(replace(layout, number=i + 1))))
                else:
                    reason = _explain(replay, view, action, samples, where) if explain else None
                    entries.append(
                        (i, _ready(Decision(i + 1, actor, kind, str(action), None, reason=reason)))
                    )
                    if explain and isinstance(action, Knock):
                        layout_reason = _other_layout(replay, view, action)
                        if layout_reason is not None:
                            laid = Decision(
                                i + 1,
                                actor,
                                DecisionKind.LAYOUT,
                                str(_laid(replay, action)),
                                None,
                                reason=layout_reason,
                            )
                            entries.append((i, _ready(laid)))
            replay.apply(action)
        decisions: list[Decision] = []
        for i, entry in entries:
            if progress is not None:
                progress(i, total)
            decisions.append(entry())
    if progress is not None:
        progress(total, total)
    return HandReview(
        number=number,
        player=player,
        dealer=hand.dealer,
        result=result.kind.value,
        winner=result.winner,
        points=result.points,
        decisions=tuple(decisions),
        samples=samples,
        seed=seed,
        threshold=threshold,
        opponent=opponent,
        wide=wide,
        playout=playout,
    )


PARENT_CHECK = 1.0
"""Seconds between a review process's looks at whether the process that started it lives."""


def watch_parent(parent: int) -> None:
    """Start a review process (a pool's ``initializer``): it ends itself within
    :data:`PARENT_CHECK` seconds once ``parent``, the process that started it, is gone.

    A server killed with SIGKILL cannot stop its pool, and a pool's idle worker waits on its
    queue for ever (it holds the queue's other end itself), so without this every such kill
    would leave the review processes behind.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


@contextmanager
def _workers(jobs: int, given: Executor | None = None) -> Iterator[Executor | None]:
    if given is not None:
        yield given
        return
    if jobs <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield pool


def _ready(decision: Decision) -> Callable[[], Decision]:
    return lambda: decision


def _agreed(number: int, player: int, kind: DecisionKind, action: str) -> Decision:
    return Decision(number, player, kind, action, action, best=action, cost=0.0, low=0.0, high=0.0)


def _review_layout(
    hand: Hand,
    view: PlayerView,
    action: Action,
    hard: Action,
    table: _Table,
    samples: int,
    seed: str,
    threshold: float,
    wide: bool,
) -> Decision | None:
    """The layout of the reviewed player's knock, when there was more than one."""
    if not isinstance(action, Knock):
        return None
    layouts = hand.knock_arrangements(action.card)
    if len(layouts) < 2:
        return None
    taken = _laid(hand, action)
    assert isinstance(taken, Knock) and taken.melds is not None
    wanted = sorted(mask_of(m) for m in taken.melds)
    others = [
        Knock(action.card, a.melds)
        for a in layouts
        if sorted(mask_of(m) for m in a.melds) != wanted
    ]
    candidates: list[Action] = [taken, *others]
    hard_laid = _laid(hand, hard)
    mirror = hard_laid if isinstance(hard_laid, Knock) and hard_laid.card == action.card else None
    if mirror and not wide and sorted(mask_of(m) for m in mirror.melds or ()) == wanted:
        return _agreed(0, view.player, DecisionKind.LAYOUT, str(taken))
    # A knock ends the hand: no play-out, so the layouts get four times the deals.
    decision = _confirmed(
        view,
        candidates,
        table,
        4 * samples,
        seed + "/layout",
        None,
        lambda ev: _judge(
            0,
            view.player,
            DecisionKind.LAYOUT,
            view,
            taken,
            None if mirror is None else str(mirror),
            ev,
            threshold,
        ),
        threshold,
    )
    if decision.mistake:
        best = next(c for c in candidates if str(c) == decision.best)
        assert isinstance(best, Knock)
        reason = _layout_reason(view, int(action.card), taken, best)
        decision = replace(decision, reason=reason or decision.reason)
    return decision


def _other_layout(hand: Hand, view: PlayerView, action: Knock) -> Reason | None:
    layouts = hand.knock_arrangements(action.card)
    if len(layouts) < 2:
        return None
    laid = _laid(hand, action)
    assert isinstance(laid, Knock) and laid.melds is not None
    card = int(action.card)
    spots = _layoff_spots(view, card, laid.melds)
    needed = min(_layoff_spots(view, card, a.melds) for a in layouts)
    return Reason.of(ReasonCode.LAYOFF_SPOTS, spots=spots, needed=needed)


def review_match(
    match: Match,
    player: int,
    *,
    hands: Sequence[int] | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    opponent: str = "hard",
    threshold: float = THRESHOLD,
    wide: bool = False,
    jobs: int = 1,
    progress: ProgressFn | None = None,
    playout: str = PLAYOUT,
) -> MatchReview:
    """Review ``player``'s decisions in the match's hands (1-based ``hands``, all by default).

    Raises :class:`ReviewError` for a hand number out of range or a hand still in play.
    """
    count = len(match.hands)
    numbers = list(range(1, count + 1)) if hands is None else list(hands)
    for k in numbers:
        if not 1 <= k <= count:
            raise ReviewError("no_such_hand", hand=k, hands=count)
        if not match.hands[k - 1].is_over:
            raise ReviewError("hand_in_play", hand=k)
    reviews = []
    for k in numbers:
        scores = match.sheet[k - 2].totals if k >= 2 else (0, 0)
        reviews.append(
            review_hand(
                match.hands[k - 1],
                player,
                samples=samples,
                seed=seed,
                opponent=opponent,
                threshold=threshold,
                wide=wide,
                jobs=jobs,
                scores=scores,
                number=k,
                progress=progress,
                playout=playout,
            )
        )
    return MatchReview(player, tuple(reviews))
